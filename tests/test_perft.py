"""Counts of legal play sequences from fixed positions ("perft", as in chess engines).

The engine's count walks :class:`~barbu.tricks.TrickPlay` / :class:`~barbu.domino.DominoPlay`
copies through ``legal_mask``; the reference count walks the independent models of
reference_rules.py (RULES.md's pseudo-code). Small positions also have a count worked
out by hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from barbu.cards import cards_of
from barbu.deal import Deal, Phase
from barbu.domino import DominoPlay
from barbu.rulesets import rules
from barbu.tricks import TrickPlay
from reference_rules import DominoModel, TrickModel, cards_in, clone_domino, clone_tricks
from table_setup import hands, to_play


def engine_count(play: TrickPlay | DominoPlay, passes: int = 0) -> int:
    """Sequences to the end; in domino, a full round of passes ends a stuck partial
    position (the cards it waits for are in nobody's hand) and counts as one."""
    if play.finished:
        return 1
    mask = play.legal_mask()
    if not mask:
        assert isinstance(play, DominoPlay), "trick play always has a legal card"
        if passes == play.players - len(play.order):
            return 1
        stuck = play.copy()
        stuck.play(None)
        return engine_count(stuck, passes + 1)
    total = 0
    for c in cards_of(mask):
        nxt = play.copy()
        nxt.play(c)
        total += engine_count(nxt)
    return total


def reference_count(model: TrickModel | DominoModel, passes: int = 0) -> int:
    """As :func:`engine_count`, on the reference models."""
    if model.finished:
        return 1
    legal = model.legal()
    if not legal:
        assert isinstance(model, DominoModel)
        if passes == model.n - len(model.order):
            return 1
        nxt = clone_domino(model)
        nxt.play(None)
        return reference_count(nxt, passes + 1)
    total = 0
    for c in legal:
        if isinstance(model, TrickModel):
            t = clone_tricks(model)
            t.play(c)
            total += reference_count(t)
        else:
            d = clone_domino(model)
            d.play(c)
            total += reference_count(d)
    return total


def checked_count(deal: Deal) -> int:
    """The same count through the checked door (Deal.copy + apply), for small positions."""
    if deal.phase is Phase.DONE:
        return 1
    total = 0
    for action in deal.legal_actions():
        nxt = deal.copy()
        nxt.apply(action, nxt.to_act)
        total += checked_count(nxt)
    return total


def trick_model_of(deal: Deal) -> TrickModel:
    """The reference model of a deal in trick play, replaying its plays so far."""
    r = deal.rules
    assert deal.dealt is not None and deal.contract is not None
    model = TrickModel(
        [cards_in(h) for h in deal.dealt],
        deal.declarer,
        deal.contract.id,
        deal.trump,
        r.flags,
        cards_in(r.deck),
        direction=r.direction,
    )
    for c in deal.plays:
        assert c is not None and c in model.legal()
        model.play(c)
    return model


# -- hand-counted positions -------------------------------------------------------------------


def test_two_tricks_no_tricks_counted_by_hand() -> None:
    # Lead AS: KS forced, P2 either diamond, P3 QS or JS: 4; then forced: 4.
    # Lead 2H: P1, P2, P3 all void, two choices each: 8; P0 wins, the rest forced: 8.
    deal = to_play("no-tricks", hands("AS 2H", "KS 3D", "4D 5D", "QS JS"))
    assert deal.tricks is not None
    assert engine_count(deal.tricks) == 12
    assert reference_count(trick_model_of(deal)) == 12
    assert checked_count(deal) == 12


@pytest.mark.parametrize("over, expected", [(True, 4), (False, 8)])
def test_two_tricks_trumps_counted_by_hand(over: bool, expected: int) -> None:
    # P0 leads 5D or 6D; P1 must trump (7S); P2 void after a trump: with overtrump
    # required only 9S, else 5S or 9S; P3 follows AD or KD. Trick 2 is forced.
    deal = to_play("trumps", hands("5D 6D", "7S 2C", "5S 9S", "AD KD"), trump="S", options={"overtrump_required": over})
    assert deal.tricks is not None
    assert engine_count(deal.tricks) == expected
    assert reference_count(trick_model_of(deal)) == expected
    assert checked_count(deal) == expected


def test_heart_lead_counted_by_hand() -> None:
    # no-hearts, strict: P0 must lead 3C, not 2H (1); P1 follows 4C or 5C (2); P2 is
    # void: AH or 2D (2); P3 follows 6C or 7C (2). P3 wins every such trick; trick 2
    # is forced. 8 sequences; with hearts free, leading 2H adds: P1 void (2), P2 AH (1),
    # P3 void (2), P2 wins and leads 2D, the rest forced: 4 more.
    deal = to_play("no-hearts", hands("3C 2H", "4C 5C", "AH 2D", "6C 7C"))
    assert deal.tricks is not None
    assert engine_count(deal.tricks) == 8
    assert reference_count(trick_model_of(deal)) == 8
    free = to_play("no-hearts", hands("3C 2H", "4C 5C", "AH 2D", "6C 7C"), options={"heart_lead": "free"})
    assert free.tricks is not None
    assert engine_count(free.tricks) == reference_count(trick_model_of(free)) == 12


# -- positions from seeded deals ----------------------------------------------------------------------

POSITIONS = [
    ("classic", {}, "trumps", 0),
    ("classic", {"overtrump_required": False, "undertrump_required": True}, "trumps", 1),
    ("classic", {"must_trump_when_void": False}, "trumps", 2),
    ("classic", {}, "no-hearts", 3),
    ("classic", {"heart_lead": "broken"}, "no-hearts", 4),
    ("classic", {"forced_penalty": True}, "no-queens", 5),
    ("classic", {"forced_penalty": True, "heart_lead": "free"}, "no-king", 6),
    ("classic", {}, "no-last-two", 7),
    ("king", {}, "king-trumps", 8),
    ("king", {}, "king-no-hearts", 9),
    ("king", {}, "king-no-boys", 10),
    ("salad", {"forced_penalty": True}, "salad", 11),
    ("five-player", {}, "no-tricks", 12),
    ("thirty-two", {}, "trumps", 13),
    ("french", {"player_count": 3}, "first-and-last", 14),
]


def position(variant: str, options: dict[str, Any], contract: str, seed: int, left: int, into: int) -> Deal:
    """A seeded deal of ``contract`` played at random to ``left`` tricks from the end,
    plus ``into`` cards of the next trick."""
    r = rules(variant, options)
    stop = (r.cards_each - left) * r.players + into
    for attempt in range(100):  # early-end contracts: the first random play that is still in play
        rng = random.Random(seed * 1000 + attempt)
        deck = list(r.deck_cards)
        rng.shuffle(deck)
        dealt = [sum(1 << c for c in deck[i :: r.players]) for i in range(r.players)]
        trump = "SHDC"[seed % 4] if contract in ("trumps", "king-trumps") else None
        deal = to_play(contract, dealt, variant=variant, options=options, declarer=seed % r.players, trump=trump)
        while len(deal.plays) < stop and deal.phase is Phase.PLAY:
            assert deal.tricks is not None
            deal.play_unchecked(rng.choice(cards_of(deal.tricks.legal_mask())))
        if deal.phase is Phase.PLAY:
            return deal
    raise AssertionError("no position found")


DEEPER = {1, 5, 10, 11, 13, 14}
"""Positions also counted from 4 tricks before the end (the others grow too large for the reference)."""


@pytest.mark.parametrize(
    "variant, options, contract, seed, left, into",
    [(*p, 3, 0) for p in POSITIONS]
    + [(*p, 3, 2) for p in POSITIONS]
    + [(*p, 4, 1) for p in POSITIONS if p[3] in DEEPER],
)
def test_engine_and_reference_count_the_same_sequences(
    variant: str, options: dict[str, Any], contract: str, seed: int, left: int, into: int
) -> None:
    deal = position(variant, options, contract, seed, left, into)
    assert deal.tricks is not None
    model = trick_model_of(deal)
    assert engine_count(deal.tricks) == reference_count(model) > 0


def test_counts_through_the_checked_door_match_on_a_seeded_position() -> None:
    deal = position("classic", {}, "trumps", 0, 3, 0)
    assert deal.tricks is not None
    assert checked_count(deal) == engine_count(deal.tricks) == reference_count(trick_model_of(deal))


def test_counts_are_fixed_for_a_fixed_position() -> None:
    # The same seeded position counts the same each run (determinism of the dealer and of the play).
    a = position("classic", {}, "no-hearts", 3, 3, 0)
    b = position("classic", {}, "no-hearts", 3, 3, 0)
    assert a.tricks is not None and b.tricks is not None
    assert engine_count(a.tricks) == engine_count(b.tricks)


# -- domino ------------------------------------------------------------------------------------------------

DOMINO = [
    # variant, options, hands, rank (None: first card), declarer
    ("classic", {}, ["7S 8S 6H", "6S 7H 9S", "7D 8H 5S", "9H 7C 6D"], 5, 0),
    ("classic", {}, ["AS KH QS", "KS AH 2C", "AD QH JS", "KD AC TS"], 12, 1),
    ("classic", {}, ["2S 3H 4S", "3S 2H 4H", "2D 5S 2C", "3D 3C 5H"], 0, 2),
    ("classic", {"domino_ace_replays": True}, ["AS KS AH", "QS KH 2C", "AD QH JS", "KD AC TS"], 12, 0),
    ("classic", {"domino_start": "first_card"}, ["7S 8S 6H", "6S 7H 9S", "7D 8H 5S", "9H 7C 6D"], None, 0),
    (
        "classic",
        {"domino_start": "first_card", "domino_ace_replays": True},
        ["AS KS 7H", "QS 8H AH", "KH JS 7S", "QH 6H TS"],
        None,
        3,
    ),
    ("five-player", {}, ["2S 3C 4C", "3D 2H 4D", "5C 3S 5D", "4S 3H 6C", "5S 4H 6D"], 0, 0),
    (
        "five-player",
        {"removed_card_rule": "forbid_rank"},
        ["3S 3C 4C", "3D 2H 4D", "5C 2S 5D", "4S 3H 6C", "5S 4H 6D"],
        1,
        4,
    ),
    ("french", {"player_count": 3}, ["2H 3C 4C 3H", "2S 3S 4H AC", "2D 3D KC 5H"], None, 0),
    ("thirty-two", {}, ["7S 8S 9H", "7H 8H 9S", "7D TS 8D", "7C 8C 9D"], 5, 0),
]


def domino_position(
    variant: str, options: dict[str, Any], seats: list[str], rank: int | None, declarer: int
) -> tuple[DominoPlay, DominoModel]:
    r = rules(variant, options)
    dealt = hands(*seats)
    flags = r.flags
    removed = r.removed if flags.removed_card_rule == "laid" else 0
    forbidden = {c % 13 for c in cards_in(r.removed)} if flags.removed_card_rule == "forbid_rank" else set()
    openers = {x for x in range(r.ruleset.low_rank, 13) if x not in forbidden}
    opener_mask = sum(1 << c for c in range(52) if c % 13 in openers)
    engine = DominoPlay(
        list(dealt),
        declarer,
        rank,
        direction=r.direction,
        low_rank=r.ruleset.low_rank,
        removed=removed,
        ace_replays=flags.domino_ace_replays,
        openers=opener_mask,
    )
    model = DominoModel(
        [cards_in(h) for h in dealt],
        declarer,
        rank,
        r.ruleset.low_rank,
        cards_in(removed),
        flags.domino_ace_replays,
        openers,
        direction=r.direction,
    )
    return engine, model


@pytest.mark.parametrize("variant, options, seats, rank, declarer", DOMINO)
def test_domino_counts(
    variant: str, options: dict[str, Any], seats: list[str], rank: int | None, declarer: int
) -> None:
    engine, model = domino_position(variant, options, seats, rank, declarer)
    assert engine_count(engine) == reference_count(model) > 0


def test_domino_count_by_hand() -> None:
    # From the 7, P0 "7S 8S", P1 "6S", P2 "7H", P3 "9S".
    # P0 must lay 7S; P1 6S (out, 1st); P2 7H (out, 2nd); P3 pass; P0 8S (out, 3rd): 1 way.
    engine, model = domino_position("classic", {}, ["7S 8S", "6S", "7H", "9S"], 5, 0)
    assert engine_count(engine) == reference_count(model) == 1
    # P0 "7S 7H", P1 "8S 8H", P2 "6S", P3 "6H": P0 chooses 7S or 7H; each branch then
    # runs: 7S: P1 8S, P2 6S(out), P3 pass, P0 7H(out), P1 8H(out) -> 1;
    # 7H: P1 8H, P2 pass, P3 6H(out), P0 7S(out), P1 8S(out) -> 1. Total 2.
    engine, model = domino_position("classic", {}, ["7S 7H", "8S 8H", "6S", "6H"], 5, 0)
    assert engine_count(engine) == reference_count(model) == 2
