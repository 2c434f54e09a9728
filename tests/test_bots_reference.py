"""The frozen v1 heuristic of benchmarks/reference stays v1: its decisions are recorded.

``benchmarks/reference/heuristic_v1.py`` keeps only the bot of v1 and imports the rules
it shares with the package (card rules, contract and call rules, estimates). If one of
those changes, v1 would change with it and stop being the yardstick of
``bench_heuristic.py``: this test plays seeded classic games between four v1 bots and
compares every action with the ones recorded when the copy was whole.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from typing import Any

from barbu import Game, seat_view

V1 = Path(__file__).resolve().parent.parent / "benchmarks" / "reference" / "heuristic_v1.py"

RECORDED = (4381, "1d00971bd7539b9304232db110dce02cc52ad7094c6e4480db7937de7535794d", [-59, -74, 19, 114])
"""Actions, SHA-256 of their ``repr`` in order, and the last game's totals, of three classic
games (seeds ``v1-frozen:0..2``) played by the whole v1 copy (commit a058f01's rules)."""


def _v1() -> Any:
    spec = importlib.util.spec_from_file_location("heuristic_v1", V1)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.HeuristicBotV1


def test_v1_takes_its_recorded_decisions() -> None:
    bot = _v1()
    digest = hashlib.sha256()
    actions = 0
    totals: list[int] = []
    for number in range(3):
        game = Game.new("classic", seed=f"v1-frozen:{number}")
        bots = [bot(seed=s) for s in range(4)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            action = bots[seat].act(seat_view(game, seat))
            digest.update(repr(action).encode())
            actions += 1
            game.apply(action, seat)
        totals = list(game.totals)
    assert (actions, digest.hexdigest(), totals) == RECORDED
