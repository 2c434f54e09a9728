"""The table's own work per action, without network or database: check, apply, broadcast.

Plays whole games of ``--variant`` at one live table (``barbu.server.tables.LiveTable``) whose
four seats each have one connection that only collects its frames: every action is checked
(``Game.check``), applied, acknowledged to its seat and broadcast to the four seats as the server
does after a commit. It prints the CPU time per action (this process, one thread), the frames
and bytes sent per action; ``--verify`` also checks after every action that each seat's view,
rebuilt from its frames, is exactly ``seat_view(game, seat).as_json()``; ``--profile`` prints
cProfile's top entries.

    python benchmarks/bench_broadcast.py [--games 4] [--variant classic] [--verify] [--profile]

What it leaves out (the WebSocket frames, the journal's commits, the event loop) is measured by
``bench_server.py``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import time
from typing import Any, ClassVar

from barbu.actions import action_from_json, action_to_json
from barbu.rulesets import rules
from barbu.server.tables import LiveTable, Settings
from barbu.storage import SeatRow, StoredTable, TableRow
from barbu.view import seat_view


class Collector:
    """A seat's connection that keeps count of its frames (and, to verify, the view they make)."""

    def __init__(self, seat: int, verify: bool) -> None:
        self.seat: int | None = seat
        self.holder: str | None = None
        self.verify = verify
        self.frames = 0
        self.bytes = 0
        self.acks = 0
        self.view: dict[str, Any] = {}

    def send(self, text: str) -> None:
        self.frames += 1
        self.bytes += len(text)
        if self.verify:
            frame = json.loads(text)
            if frame.get("ack") is not None:
                self.acks += 1
            if "view" in frame:
                self.view = frame["view"]
            elif "patch" in frame:
                self.view = {**self.view, **frame["patch"]}

    def close(self, reason: str) -> None:
        pass


class Service:
    """What a live table reads of its service while it broadcasts."""

    settings = Settings()
    timings: ClassVar[list[Any]] = []
    on_finish: ClassVar[list[Any]] = []


def play(number: int, variant: str, verify: bool) -> tuple[int, int, int]:
    """One game at a fresh table: (actions, frames, bytes)."""
    row = TableRow(f"t{number}", variant, {}, f"seed{number}", 0, "bench", 0.0, "playing")
    count = rules(variant).players
    stored = StoredTable(row, [SeatRow(i, "human", joined=True) for i in range(count)], [])
    table = LiveTable(Service(), stored)  # type: ignore[arg-type]
    seats = [Collector(i, verify) for i in range(count)]
    for live, conn in zip(table.seats, seats, strict=True):
        live.connections.add(conn)
        table.catch_up(conn, None)
    rng = random.Random(number)
    actions = 0
    while not table.game.is_over:
        seat = table.game.to_act
        assert seat is not None
        legal = table.game.legal_actions()
        action = action_from_json(action_to_json(legal[rng.randrange(len(legal))]))
        table.game.check(action, seat)
        table.game.apply(action, seat)
        table.seq += 1
        table.broadcast(seats[seat], f"a{actions}")
        if verify:
            assert sum(c.acks for c in seats) == actions + 1, "the actor's event carries its ack"
            for conn in seats:
                expected = json.loads(json.dumps(seat_view(table.game, conn.seat).as_json()))
                assert conn.view == expected, (actions, conn.seat)
        actions += 1
    return actions, sum(c.frames for c in seats), sum(c.bytes for c in seats)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--variant", default="classic")
    p.add_argument("--verify", action="store_true", help="check every seat's view after every action")
    p.add_argument("--profile", action="store_true", help="print cProfile's top entries")
    args = p.parse_args()
    profiler = cProfile.Profile() if args.profile else None
    start = time.process_time()
    if profiler is not None:
        profiler.enable()
    actions = frames = size = 0
    for number in range(args.games):
        a, f, b = play(number, args.variant, args.verify)
        actions, frames, size = actions + a, frames + f, size + b
    if profiler is not None:
        profiler.disable()
    cpu = time.process_time() - start
    print(
        f"{actions} actions: {cpu * 1e6 / actions:.1f} µs CPU per action, "
        f"{frames / actions:.2f} frames and {size / actions:.0f} bytes per action"
    )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)


if __name__ == "__main__":
    main()
