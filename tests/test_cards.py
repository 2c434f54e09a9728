"""Cards, ranks, suits and hands: notation round trips and masks (RULES.md §1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu import CardSet, NotationError, card, card_name
from barbu.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    TWO,
    cards_of,
    highest,
    make_card,
    mask_of,
    parse_pbn,
    parse_rank,
    parse_suit,
    pbn,
    rank_mask,
    rank_of,
    suit_of,
)

masks = st.integers(min_value=0, max_value=(1 << 52) - 1)


def test_every_card_round_trips_through_its_name() -> None:
    names = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    assert [card_name(c) for c in range(52)] == names
    assert [card(n) for n in names] == list(range(52))
    assert [card(n.lower()) for n in names] == list(range(52))


def test_suits_and_ranks_in_record_order() -> None:
    assert (SPADES, HEARTS, DIAMONDS, CLUBS) == (0, 1, 2, 3)
    assert suit_of(card("QS")) == SPADES and suit_of(card("2C")) == CLUBS
    assert rank_of(card("AH")) == ACE and rank_of(card("2D")) == TWO
    assert make_card(HEARTS, 11) == card("KH")


def test_ten_and_symbols_are_accepted() -> None:
    assert card("10h") == card("TH") == card("th")
    assert parse_rank("10") == parse_rank("T") == 8
    assert parse_suit("♣") == CLUBS and parse_suit("♥") == HEARTS


@pytest.mark.parametrize("text", ["", "Q", "1S", "QX", "QSS", "11H", "ZZ", "S Q"])
def test_bad_cards_are_refused_with_a_hint(text: str) -> None:
    with pytest.raises(NotationError, match="rank then suit"):
        card(text)


def test_ace_is_the_highest_rank_of_its_suit() -> None:
    for suit in range(4):
        ranks = [make_card(suit, r) for r in range(13)]
        assert max(ranks) == make_card(suit, ACE)
        assert highest(mask_of(ranks)) == make_card(suit, ACE)


def test_pbn_order_is_spades_hearts_diamonds_clubs_high_to_low() -> None:
    m = mask_of(card(c) for c in ("2C", "AS", "TD", "KH", "3S"))
    assert pbn(m) == "A3.K.T.2"
    assert pbn(0) == "..."
    assert parse_pbn("ak10..2.") == mask_of([card("AS"), card("KS"), card("TS"), card("2D")])


@pytest.mark.parametrize("text, why", [("AK.Q.J", "four suits"), ("AA...", "twice"), ("AX...", "not a rank")])
def test_bad_pbn_is_refused(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        parse_pbn(text)


@settings(max_examples=200, deadline=None)
@given(masks)
def test_pbn_round_trips(mask: int) -> None:
    assert parse_pbn(pbn(mask)) == mask
    assert CardSet.from_pbn(str(CardSet(mask))) == CardSet(mask)
    assert eval(repr(CardSet(mask)), {"CardSet": CardSet}) == CardSet(mask)


@settings(max_examples=200, deadline=None)
@given(masks)
def test_mask_cards_round_trip_and_are_ascending(mask: int) -> None:
    cs = cards_of(mask)
    assert cs == sorted(cs)
    assert mask_of(cs) == mask
    assert len(cs) == mask.bit_count()
    assert list(CardSet(mask)) == cs
    assert CardSet.parse(" ".join(CardSet(mask).names())) == CardSet(mask)


@settings(max_examples=100, deadline=None)
@given(masks, masks)
def test_cardset_operations_are_set_operations(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    sa, sb = set(cards_of(a)), set(cards_of(b))
    assert set(x | y) == sa | sb
    assert set(x & y) == sa & sb
    assert set(x - y) == sa - sb
    assert set(x ^ y) == sa ^ sb
    assert all((c in x) == (c in sa) for c in range(52))
    assert set(x.suit(HEARTS)) == {c for c in sa if c // 13 == HEARTS}
    assert bool(x) == bool(sa)


def test_cardset_rejects_bits_outside_the_deck_and_non_cards() -> None:
    with pytest.raises(ValueError):
        CardSet(1 << 52)
    with pytest.raises(ValueError):
        CardSet(-1)
    assert "AS" not in CardSet((1 << 52) - 1)
    assert 52 not in CardSet((1 << 52) - 1)


def test_rank_mask_is_the_four_cards_of_a_rank() -> None:
    assert set(cards_of(rank_mask(10))) == {card("QS"), card("QH"), card("QD"), card("QC")}


def test_cardset_parse_accepts_commas_and_spaces() -> None:
    assert CardSet.parse("QS, 10h 2c").names() == ["QS", "TH", "2C"]
    assert len(CardSet.parse("QS QS")) == 1
