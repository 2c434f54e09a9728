"""Setting a table at a chosen moment, for the rules-core tests.

Hands are written by the test (PBN or card lists), calls are chosen by the test, and
the engine is driven through its checked door only: nothing here computes a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from barbu import Call, Declare, EnterTally, NameRank, NameTrump, Pass, Play
from barbu.cards import RANKS, SUITS, card, mask_of, parse_pbn
from barbu.deal import Deal, Phase
from barbu.game import Game
from barbu.rulesets import Rules, rules


def hand(text: str) -> int:
    """A mask from a PBN hand (``"AK..2.3"``) or from card names (``"AS KS 2D"``)."""
    if "." in text:
        return parse_pbn(text)
    return mask_of(card(t) for t in text.split())


def hands(*texts: str) -> list[int]:
    """One mask per seat."""
    return [hand(t) for t in texts]


def cards(text: str) -> list[int]:
    """Card ints from names separated by spaces."""
    return [card(t) for t in text.split()]


def plays(text: str) -> list[Play | Pass]:
    """Play actions from names (``pass`` for a domino pass)."""
    return [Pass() if t == "pass" else Play(card(t)) for t in text.split()]


def french_index(r: Rules, contract: str) -> int:
    """The first deal index at which ``french`` schedules ``contract``."""
    ids = [c.id for c in r.contracts]
    return ids.index(contract) * r.players


def opening_calls(r: Rules, contract: str, declarer: int) -> list[Call]:
    """Round-1 calls that keep a negative deal from being skipped: the declarer's left
    doubles the declarer, everybody else passes. Positive contracts: all pass."""
    n = r.players
    order = [(declarer + i) % n for i in range(1, n)] + [declarer]
    negative = r.contract(contract).doubling_class == "negative"
    return [Call(double=(declarer,)) if negative and i == 0 else Call() for i, _ in enumerate(order)]


def to_play(
    contract: str,
    dealt: Sequence[int],
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
    declarer: int = 0,
    trump: str | None = None,
    rank: str | None = None,
    calls: Iterable[Call] | None = None,
) -> Deal:
    """A deal with the given hands, driven through the checked door to its play phase.

    ``trump`` and ``rank`` are letters (``"S"``, ``"7"``); ``calls`` default to
    :func:`opening_calls`.
    """
    r = rules(variant, options)
    index = french_index(r, contract) if not r.schedule.declarer_chooses else 0
    deal = Deal(r, index, declarer, list(dealt), r.contracts)
    if deal.phase is Phase.CONTRACT:
        deal.apply(Declare(contract), declarer)
    assert deal.contract is not None and deal.contract.id == contract
    if deal.phase is Phase.TRUMP:
        assert trump is not None, "trumps needs a trump suit"
        deal.apply(NameTrump(SUITS.index(trump)), declarer)
    if deal.phase is Phase.RANK:
        assert rank is not None, "domino needs a rank"
        deal.apply(NameRank(RANKS.index(rank)), declarer)
    if deal.phase is Phase.CALL:
        for call in calls if calls is not None else opening_calls(r, contract, declarer):
            deal.apply(call, deal.to_act)
    return deal


def play_all(deal: Deal, text: str) -> None:
    """Play the named cards (``pass`` for a domino pass) through the checked door, each by the seat to act."""
    for action in plays(text):
        deal.apply(action, deal.to_act)


def score_sheet(variant: str = "classic", options: Mapping[str, Any] | None = None, first: int = 0) -> Game:
    """A game without a dealer: deals wait for a tally once their calls are over."""
    return Game(rules(variant, options), first)


SIMPLE_TALLIES: dict[str, dict[str, Any]] = {
    "no-tricks": {"tricks": [4, 3, 3, 3]},
    "no-hearts": {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0},
    "no-queens": {"queens": [1, 1, 1, 1]},
    "no-king": {"king_of_hearts": 1},
    "no-last-two": {"second_last": 1, "last": 2},
    "trumps": {"tricks": [4, 3, 3, 3]},
    "domino": {"order": [0, 1, 2, 3]},
}
"""A valid tally of each classic contract (4 players, 52 cards)."""


def sheet_deal(
    game: Game,
    contract: str,
    calls: Mapping[int, Call] | None = None,
    tally: Mapping[str, Any] | None = None,
) -> Deal:
    """Fill in one deal of a score sheet: declare, name S or 7, call, tally if it is played.

    ``calls`` maps seats to their round-1 call (others pass); round 2 is declined.
    """
    deal = game.current
    assert deal is not None
    declarer = deal.declarer
    game.apply(Declare(contract), declarer)
    if deal.phase is Phase.TRUMP:
        game.apply(NameTrump(0), declarer)
    if deal.phase is Phase.RANK:
        game.apply(NameRank(RANKS.index("7")), declarer)
    given = dict(calls or {})
    while deal.phase is Phase.CALL:
        seat = deal.to_act
        assert seat is not None and deal.doubling is not None
        call = given.pop(seat, Call()) if deal.doubling.round == 1 else Call()
        game.apply(call, seat)
    if deal.phase is Phase.TALLY:
        game.apply(EnterTally(dict(tally or SIMPLE_TALLIES[contract])))
    assert deal.phase is Phase.DONE
    return deal


def phase(deal: Deal) -> Phase:
    """The deal's phase (read through a call, so type checkers do not narrow it across actions)."""
    return deal.phase


def legal_cards(deal: Deal) -> set[int]:
    """The cards among the legal actions of the seat to act."""
    return {a.card for a in deal.legal_actions() if isinstance(a, Play)}
