"""A rated season of bot games through the server's own API, and the ladder it makes.

Starts ``barbu serve`` (SQLite) in a subprocess with no bot delay, signs an account up
(``POST /api/club/signup``) and has it create rated tables (``POST /api/club/tables`` with
``"rated": true``) whose four seats are bots of levels drawn from ``--levels`` (at least two
levels at each table). The server plays the bots; a watcher's WebSocket at each table (as a
browser watching it) keeps it playing and sees it to its end. Tables of bots alone are rated
under the club's policy (no person sits there, so no rule of the policy applies), and every bot
level is one player of the ladder.

At the end it reads the ladder (``GET /api/club/ladder``) and prints each level's rating
(``mu - 3 sigma``), ``mu`` with its interval ``mu ± 2 sigma`` and the games played, and checks
that the ladder ranks the levels in the order given (weakest first, the known order of
strength: ``random``, ``heuristic``, ``search``, ``expert``). Exit status 1 if it does not.

``--bot-budget`` (repeated) is passed to the server as is (``barbu serve --bot-budget``): the
thinking budget of every bot of a level, e.g. ``search:iterations=16,seconds=null``. The
budgets are part of the season's conditions (the ladder still names the level) and are
printed with its result. The seating plan is the same for the same ``--seed``; the deals are
the server's (a fresh seed per table). Budgets in worlds with no time limit (``seconds=null``,
``ms=null``) make each bot's decisions independent of the machine's load.

    python benchmarks/season.py [--games 200] [--levels random,heuristic] [--variant king] [--tables 8]
        [--minutes 40] [--bot-budget search:iterations=16,seconds=null --bot-budget expert:worlds=64,ms=null]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from barbu.server.client import SeatClient, ServerProcess


@dataclass
class Season:
    """What a season played: games, games per level, the ladder read at its end."""

    games: int = 0
    played: Counter[str] = field(default_factory=Counter)
    ladder: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    def ranked(self) -> list[str]:
        """The bot levels in ladder order, best first."""
        return [p["bot"] for p in self.ladder if p.get("bot")]

    def in_order(self, levels: list[str]) -> bool:
        """Whether the ladder ranks ``levels`` (given weakest first) in that order."""
        return [level for level in self.ranked() if level in levels] == list(reversed(levels))


def seating(rng: random.Random, levels: list[str], players: int = 4) -> list[str]:
    """The bot levels of one table: drawn at random, at least two different levels."""
    while True:
        seats = [rng.choice(levels) for _ in range(players)]
        if len(set(seats)) >= 2 or len(levels) == 1:
            return seats


async def play_table(http: httpx.AsyncClient, ws_url: str, variant: str, seats: list[str]) -> None:
    """Create one rated table of bots and watch it to its end."""
    body = {"variant": variant, "rated": True, "seats": [{"kind": "bot", "level": level} for level in seats]}
    r = await http.post("/api/club/tables", json=body)
    r.raise_for_status()
    table = r.json()["table"]
    watcher = await SeatClient(ws_url, keep_frames=False).connect()
    try:
        await watcher.hello(table)
        while watcher.view is None or not watcher.view["game_over"]:
            await watcher.recv(timeout=600)
    finally:
        await watcher.close()


async def season(
    server: ServerProcess,
    games: int,
    levels: list[str],
    variant: str,
    tables: int,
    seed: int,
    log: Any = None,
    minutes: float | None = None,
) -> Season:
    """Play ``games`` rated games on ``server``, ``tables`` at a time; the ladder once every game is rated.

    With ``minutes``, no table is begun after that time (those begun are played to their end): the
    games played are then the first of the plan, as many as the machine had time for."""
    rng = random.Random(seed)
    plan = [seating(rng, levels) for _ in range(games)]
    out = Season()
    start = time.monotonic()
    stop = math.inf if minutes is None else start + 60 * minutes
    async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
        r = await http.post("/api/club/signup", json={"name": "season", "password": "a season of bots"})
        r.raise_for_status()
        queue: asyncio.Queue[list[str]] = asyncio.Queue()
        for seats in plan:
            queue.put_nowait(seats)

        async def worker() -> None:
            while not queue.empty() and time.monotonic() < stop:
                seats = queue.get_nowait()
                await play_table(http, server.ws, variant, seats)
                out.games += 1
                out.played.update(set(seats))
                if log is not None and out.games % max(1, games // 20) == 0:
                    log(f"{out.games} games, {time.monotonic() - start:.0f} s")

        await asyncio.gather(*(worker() for _ in range(max(1, tables))))
        deadline = time.monotonic() + 60
        while True:  # a game is rated just after its end: wait until every one is counted
            r = await http.get("/api/club/ladder", params={"variant": variant, "period": "all"})
            r.raise_for_status()
            out.ladder = r.json()["players"]
            counted = {p["bot"]: p["games"] for p in out.ladder if p.get("bot")}
            if counted == dict(out.played) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
    out.seconds = time.monotonic() - start
    return out


def server_options(budgets: list[str]) -> tuple[str, ...]:
    """The options of ``barbu serve`` for a season: bots with no delay, no limit on the tables and
    connections of the one client, and each of ``budgets`` as a ``--bot-budget``."""
    options = ("--bot-delay", "0", "--tables-per-client", "100000", "--connections-per-client", "100000")
    return options + tuple(option for budget in budgets for option in ("--bot-budget", budget))


def report(result: Season, levels: list[str]) -> str:
    """The ladder as a table, with each level's interval."""
    lines = ["place  level       rating     mu    mu ± 2 sigma     games"]
    for p in result.ladder:
        low, high = p["mu"] - 2 * p["sigma"], p["mu"] + 2 * p["sigma"]
        name = p.get("bot") or p["name"]
        lines.append(
            f"{p['place']:5d}  {name:10s} {p['rating']:7.2f} {p['mu']:6.2f}  [{low:6.2f}, {high:6.2f}]  {p['games']:6d}"
        )
    verdict = "in" if result.in_order(levels) else "NOT in"
    lines.append(f"the ladder ranks {', '.join(reversed(levels))} {verdict} their known order of strength")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200, help="rated games to play")
    p.add_argument("--levels", default="random,heuristic", help="bot levels, weakest first")
    p.add_argument("--variant", default="king", help="rule set (king: 20 deals, the shortest four-player game)")
    p.add_argument("--tables", type=int, default=8, help="tables played at the same time")
    p.add_argument("--seed", type=int, default=1, help="seed of the seating plan")
    p.add_argument("--minutes", type=float, help="begin no table after this many minutes (the games played are fewer)")
    p.add_argument(
        "--bot-budget",
        action="append",
        default=[],
        metavar="LEVEL:KEY=VALUE,...",
        help="a level's thinking budget, passed to barbu serve (e.g. search:iterations=16,seconds=null); repeat",
    )
    args = p.parse_args()
    levels = args.levels.split(",")
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerProcess(f"sqlite:///{tmp}/season.db", *server_options(args.bot_budget)) as server,
    ):
        result = asyncio.run(
            season(server, args.games, levels, args.variant, args.tables, args.seed, print, args.minutes)
        )
    minutes = result.seconds / 60
    print(f"{result.games} rated games of {args.variant} in {minutes:.1f} min; games per level: {dict(result.played)}")
    print(f"thinking budgets: {'; '.join(args.bot_budget) or 'the defaults of the levels'}")
    print(report(result, levels))
    return 0 if result.in_order(levels) else 1


if __name__ == "__main__":
    sys.exit(main())
