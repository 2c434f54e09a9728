"""The analysis board: every position of a record with all hands shown, for the web page.

:func:`board` replays a record and gives, for each deal with actions, the position before
each action (every seat's cards, the trick on the table, the tricks each seat took): the
page steps through it beside the analysis (:func:`barbu.coach.analyse`), decision by
decision, in the same order.

>>> from barbu import Game, seat_view
>>> from barbu.bots import make_bot
>>> from barbu.record import game_to_record
>>> game = Game.new("classic", seed=1)
>>> bot = make_bot("heuristic", seed=1)
>>> while len(game.deals) < 2:
...     game.apply(bot.act(seat_view(game, game.to_act)), game.to_act)
>>> deals = board(game_to_record(game))
>>> len(deals), len(deals[0]["steps"][0]["hands"][0])
(1, 13)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from barbu.cards import card_name, cards_of
from barbu.coach.analysis import KINDS, _label, _walk, replay_record


def board(doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per deal with actions: its number, declarer, contract, and a step before each action.

    A step is ``{"seat", "kind", "action", "hands", "trick", "taken"}``: ``hands`` each
    seat's cards in record notation (empty for a deal without hands), ``trick`` the cards on
    the table as ``{"seat", "card"}``, ``taken`` the tricks each seat took so far (null
    outside trick play). Raises :class:`~barbu.coach.AnalysisError` for a record that does
    not replay.
    """
    game = replay_record(doc)
    players = game.rules.players
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for walker, move in _walk(game):
        deal = walker.current
        assert deal is not None
        if current is None or current["deal"] != move.deal + 1:
            final = game.deals[move.deal]
            current = {
                "deal": move.deal + 1,
                "declarer": final.declarer,
                "contract": final.contract.id if final.contract else None,
                "trump": final.trump,
                "final": list(final.final) if final.final is not None else None,
                "steps": [],
            }
            out.append(current)
        t = deal.tricks
        step: dict[str, Any] = {
            "seat": move.seat,
            "kind": KINDS[type(move.action)],
            "action": _label(move.action),
            "hands": [[card_name(c) for c in reversed(cards_of(deal.hand(s)))] for s in range(players)],
            "trick": [{"seat": s, "card": card_name(c)} for s, c in zip(t.trick_seats(), t.trick, strict=True)]
            if t is not None
            else [],
            "taken": [len([w for w in t.result().winners if w == s]) for s in range(players)]
            if t is not None
            else None,
        }
        current["steps"].append(step)
    return out


__all__ = ["board"]
