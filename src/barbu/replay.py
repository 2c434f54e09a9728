"""Replaying a record: check it and derive its scores (RECORD.md).

:func:`replay_json` gives the exact JSON object of ``barbu replay --json`` for a
parsed document; the command itself is :mod:`barbu.cli.replay`.

>>> out = replay_json({"format": "barbu-record/1", "variant": "classic", "deals": []})
>>> out["valid"], out["next"]["phase"], out["next"]["seat"], out["next"]["legal"][:2]
(True, 'contract', 0, ['no-tricks', 'no-hearts'])
"""

from __future__ import annotations

from typing import Any

from barbu.actions import action_text
from barbu.cards import RANKS, card_name, cards_of
from barbu.deal import Deal, Phase
from barbu.errors import RecordError
from barbu.game import Game
from barbu.record import game_from_record


def deal_result(deal: Deal) -> dict[str, Any]:
    """A finished deal as ``barbu replay --json`` lists it."""
    assert deal.contract is not None and deal.raw is not None
    assert deal.adjustments is not None and deal.final is not None
    return {
        "declarer": deal.declarer,
        "contract": deal.contract.id,
        "raw": list(deal.raw),
        "adjustments": list(deal.adjustments),
        "final": list(deal.final),
        "pairs": [{"seats": list(p.seats), "multiplier": p.multiplier} for p in deal.pairs()],
        "played": not deal.skipped,
    }


def next_action(game: Game, written: int) -> dict[str, Any]:
    """The ``next`` object: the deal, phase and seat to act, and what it may do.

    ``written`` is the number of deals the record holds. A deal the record holds with neither
    hands nor tally waits for its tally; the deal after the last one written waits for its
    first action instead, which in ``french`` (no choice, no calls) is the declarer's play.
    """
    deal = game.current
    assert deal is not None
    phase = deal.phase
    if phase is Phase.TALLY and deal.index >= written:
        phase = Phase.PLAY
    out: dict[str, Any] = {"deal": deal.index + 1, "phase": str(phase), "seat": deal.to_act}
    if phase is Phase.CALL:
        assert deal.doubling is not None and deal.to_act is not None
        seat = deal.to_act
        out["may_double"] = deal.doubling.may_double(seat)
        out["may_redouble"] = deal.doubling.may_redouble(seat)
        out["must_double"] = deal.doubling.must_double(seat)
    elif phase is Phase.ARRANGE:
        assert deal.to_act is not None
        out["hand"] = [card_name(c) for c in cards_of(deal.hand(deal.to_act))] if deal.dealt is not None else None
    elif phase is Phase.TALLY:
        out["seat"] = None
        out["legal"] = None
    elif phase is Phase.PLAY and deal.dealt is None:
        out["seat"] = deal.declarer if deal.to_act is None else deal.to_act
        out["legal"] = None
    elif phase is Phase.PLAY:
        out["legal"] = [action_text(a) for a in deal.legal_actions()]
    elif phase is Phase.RANK:
        out["legal"] = [RANKS[r] for r in game.rules.domino_ranks]
    else:
        out["legal"] = [action_text(a) for a in deal.legal_actions()]
    return out


def replay_json(doc: object, raising: bool = False) -> dict[str, Any]:
    """The output of ``barbu replay --json`` for a parsed document.

    Raises :class:`RecordUsageError` when ``doc`` is not a record at all; with ``raising``, a
    record the rules refuse raises its :class:`RecordError` too (for a reader who wants its text).
    """
    try:
        game = game_from_record(doc)
    except RecordError as e:
        if raising:
            raise
        return {"valid": False, "error": e.as_json()}
    out: dict[str, Any] = {
        "valid": True,
        "variant": game.rules.name,
        "deals": [deal_result(d) for d in game.finished_deals()],
        "totals": list(game.totals),
        "complete": game.is_over,
    }
    if game.is_over:
        out["ranking"] = game.ranking()
        out["winners"] = game.winners()
        if game.rules.ruleset.positive_totals_win:
            out["winners_turkish"] = game.winners_turkish()
    else:
        assert isinstance(doc, dict)
        out["next"] = next_action(game, len(doc["deals"]))
    return out
