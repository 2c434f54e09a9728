"""Tests of barbu.poker: hand ranking, fouls and chinese-poker scoring (RULES.md 4.3)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu.cards import card, card_name
from barbu.poker import (
    CATEGORIES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIRS,
    HandValue,
    chinese_poker_scores,
    compare_rows,
    hand_value,
    head_to_head,
    is_foul,
    sort_arrangement,
    sort_row,
)

# --------------------------------------------------------------------------- helpers


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def value(text: str) -> HandValue:
    return hand_value(cards(text))


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def deal_ok(arrangements: Sequence[Sequence[int]]) -> None:
    """Hand-written test arrangements must be real: 13 cards each, no card twice."""
    flat = [c for a in arrangements for c in a]
    assert all(len(a) == 13 for a in arrangements)
    assert len(set(flat)) == len(flat), Counter(card_name(c) for c in flat).most_common(3)


# ------------------------------------------------------- an independent, slow oracle
#
# Written from the rules text without tables or keys: test each category from the
# top down with plain predicates, and build the tie-break list by counting.


def slow_value(row: Sequence[int]) -> tuple[int, list[int]]:
    ranks = [c % 13 for c in row]
    distinct = set(ranks)
    groups: list[int] = []
    for size in (4, 3, 2, 1):
        groups += sorted((r for r in distinct if ranks.count(r) == size), reverse=True)
    counts = sorted((ranks.count(r) for r in distinct), reverse=True)
    if len(row) == 3:
        if counts == [3]:
            return 3, groups
        if counts == [2, 1]:
            return 1, groups
        return 0, groups
    assert len(row) == 5
    is_flush = len({c // 13 for c in row}) == 1
    top = None
    for high in range(4, 13):  # 6-high … ace-high straights
        if distinct == set(range(high - 4, high + 1)):
            top = high
    if distinct == {12, 0, 1, 2, 3}:  # ace plays low: five-high
        top = 3
    if top is not None and is_flush:
        return 8, [top]
    if counts == [4, 1]:
        return 7, groups
    if counts == [3, 2]:
        return 6, groups
    if is_flush:
        return 5, groups
    if top is not None:
        return 4, [top]
    if counts == [3, 1, 1]:
        return 3, groups
    if counts == [2, 2, 1]:
        return 2, groups
    if counts == [2, 1, 1, 1]:
        return 1, groups
    return 0, groups


def as_value(slow: tuple[int, list[int]]) -> HandValue:
    return slow[0], tuple(slow[1])


def slow_is_foul(back: Sequence[int], middle: Sequence[int], front: Sequence[int]) -> bool:
    b, m, f = slow_value(back), slow_value(middle), slow_value(front)
    if b < m:
        return True
    # The front, padded with kickers below every rank, must not beat the middle:
    # the same as comparing over the front's length, with equal not a foul.
    padded = (f[0], f[1] + [-1] * 5)
    return padded > m


def slow_scores(arrangements: Sequence[Sequence[int]]) -> list[int]:
    """Every ordered pair scored on its own, straight from the rules text."""
    out = []
    for i, mine in enumerate(arrangements):
        total = 0
        for j, theirs in enumerate(arrangements):
            if i == j:
                continue
            my_foul = slow_is_foul(mine[:5], mine[5:10], mine[10:])
            their_foul = slow_is_foul(theirs[:5], theirs[5:10], theirs[10:])
            if my_foul and their_foul:
                won = lost = 0
            elif my_foul:
                won, lost = 0, 3
            elif their_foul:
                won, lost = 3, 0
            else:
                won = lost = 0
                for lo, hi in ((0, 5), (5, 10), (10, 13)):
                    a, b = slow_value(mine[lo:hi]), slow_value(theirs[lo:hi])
                    won += a > b
                    lost += a < b
            total += won - lost + (3 if won == 3 else 0) - (3 if lost == 3 else 0)
        out.append(4 * total)
    return out


# -------------------------------------------------------------------- strategies


@st.composite
def rows(draw: st.DrawFn, size: int) -> list[int]:
    """Rows of ``size`` distinct cards, often from few suits and a narrow (possibly
    wrapping) rank window, so pairs, straights, flushes and full houses are common."""
    if draw(st.booleans()):
        return draw(st.lists(st.integers(0, 51), min_size=size, max_size=size, unique=True))
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1)))
    width = draw(st.integers(-(-size // len(suits)), 13))
    low = draw(st.integers(0, 12))
    pool = [s * 13 + (low + i) % 13 for s in suits for i in range(width)]
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


@st.composite
def deals(draw: st.DrawFn) -> list[list[int]]:
    """2 to 4 arrangements from one shuffled deck; some reordered to be less often fouled."""
    players = draw(st.integers(2, 4))
    deck = draw(st.permutations(range(52)))
    out = []
    for p in range(players):
        hand = list(deck[13 * p : 13 * p + 13])
        if draw(st.booleans()):
            # Strongest five of a few candidates to the back: many valid arrangements.
            hand.sort(key=lambda c: (-(c % 13), c // 13))
            back, middle = hand[:5], hand[5:10]
            if slow_value(back) < slow_value(middle):
                back, middle = middle, back
            hand = back + middle + hand[10:]
        out.append(hand)
    return out


# ----------------------------------------------------------- exhaustive enumerations


def rank_classes() -> list[list[int]]:
    """One hand per distinct 5-card class: every rank multiset (at most four of a rank)
    with suits that make no flush, and each set of five distinct ranks as a flush."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) > 4:
            continue
        # Sorted ranks, suits 0 1 2 3 0 by position: equal ranks get distinct suits
        # and two suits at least appear.
        hands.append([(i % 4) * 13 + r for i, r in enumerate(ranks)])
        if len(set(ranks)) == 5:
            hands.append([r for r in ranks])  # all spades
    return hands


def test_five_card_classes_exhaustive() -> None:
    hands = rank_classes()
    assert len(hands) == 7462
    values = [hand_value(h) for h in hands]
    assert len(set(values)) == 7462
    per_category = Counter(v[0] for v in values)
    assert [per_category[i] for i in range(9)] == [
        1277,  # high card
        2860,  # one pair
        858,  # two pairs
        858,  # three of a kind
        10,  # straight
        1277,  # flush
        156,  # full house
        156,  # four of a kind
        10,  # straight flush
    ]
    for h, v in zip(hands, values, strict=True):
        assert v == as_value(slow_value(h)), h


@pytest.fixture(scope="module")
def all_five_card_values() -> Counter[HandValue]:
    return Counter(map(hand_value, combinations(range(52), 5)))


def test_all_2598960_hands_category_frequencies(
    all_five_card_values: Counter[HandValue],
) -> None:
    per_category: Counter[int] = Counter()
    for v, n in all_five_card_values.items():
        per_category[v[0]] += n
    assert sum(per_category.values()) == 2_598_960
    assert [per_category[i] for i in range(9)] == [
        1_302_540,  # high card
        1_098_240,  # one pair
        123_552,  # two pairs
        54_912,  # three of a kind
        10_200,  # straight
        5_108,  # flush
        3_744,  # full house
        624,  # four of a kind
        40,  # straight flush
    ]


def test_all_hands_group_into_7462_classes_of_the_right_size(
    all_five_card_values: Counter[HandValue],
) -> None:
    # Suits never break ties, so every hand of a class has the same value, and the
    # number of hands per class is fixed by the category.
    assert len(all_five_card_values) == 7462
    hands_per_class = {
        HIGH_CARD: 4**5 - 4,
        ONE_PAIR: 6 * 4**3,
        TWO_PAIRS: 6 * 6 * 4,
        THREE_OF_A_KIND: 4 * 4 * 4,
        STRAIGHT: 4**5 - 4,
        FLUSH: 4,
        FULL_HOUSE: 4 * 6,
        FOUR_OF_A_KIND: 4,
        STRAIGHT_FLUSH: 4,
    }
    for v, n in all_five_card_values.items():
        assert n == hands_per_class[v[0]], v


def test_class_order_matches_the_standard_equivalence_classes(
    all_five_card_values: Counter[HandValue],
) -> None:
    # Cactus Kev's well-known numbering: class 1 is the royal flush, 7462 is 7-5-4-3-2.
    ordered = sorted(all_five_card_values)
    kev = {
        "AS KS QS JS TS": 1,
        "5S 4S 3S 2S AS": 10,
        "AS AH AD AC KS": 11,
        "2S 2H 2D 2C 3S": 166,
        "AS AH AD KS KH": 167,
        "2S 2H 2D 3S 3H": 322,
        "AS KS QS JS 9S": 323,
        "7S 5S 4S 3S 2S": 1599,
        "AS KH QS JS TS": 1600,
        "5S 4H 3S 2S AS": 1609,
        "AS AH AD KS QS": 1610,
        "2S 2H 2D 4S 3S": 2467,
        "AS AH KS KH QS": 2468,
        "3S 3H 2S 2H 4S": 3325,
        "AS AH KS QS JS": 3326,
        "2S 2H 5S 4S 3S": 6185,
        "AS KH QS JS 9S": 6186,
        "7S 5H 4S 3S 2S": 7462,
    }
    for text, number in kev.items():
        assert ordered.index(value(text)) == 7462 - number, text


def test_three_card_rows_exhaustive() -> None:
    values = [hand_value(h) for h in combinations(range(52), 3)]
    per_category = Counter(v[0] for v in values)
    assert dict(per_category) == {
        HIGH_CARD: 18_304,
        ONE_PAIR: 3_744,
        THREE_OF_A_KIND: 52,
    }
    assert Counter(v[0] for v in set(values)) == {
        HIGH_CARD: 286,
        ONE_PAIR: 156,
        THREE_OF_A_KIND: 13,
    }
    for h in combinations(range(0, 52, 3), 3):  # a sample across suits
        assert hand_value(h) == as_value(slow_value(h))


# ---------------------------------------------------------- oracle, property based


@given(rows(5))
def test_five_card_value_matches_slow_oracle(row: list[int]) -> None:
    category, ranks = slow_value(row)
    assert hand_value(row) == (category, tuple(ranks))


@given(rows(3))
def test_three_card_value_matches_slow_oracle(row: list[int]) -> None:
    category, ranks = slow_value(row)
    assert hand_value(row) == (category, tuple(ranks))
    assert category in (HIGH_CARD, ONE_PAIR, THREE_OF_A_KIND)


@given(rows(5), rows(5))
def test_five_card_order_matches_slow_oracle(a: list[int], b: list[int]) -> None:
    sa, sb = slow_value(a), slow_value(b)
    expected = (sa > sb) - (sa < sb)
    assert compare_rows(hand_value(a), hand_value(b)) == expected
    assert compare_rows(hand_value(b), hand_value(a)) == -expected
    va, vb = hand_value(a), hand_value(b)
    assert (va > vb) - (va < vb) == expected


@given(rows(3), rows(5))
def test_front_against_middle_matches_padded_comparison(front: list[int], middle: list[int]) -> None:
    f, m = slow_value(front), slow_value(middle)
    padded = (f[0], f[1] + [-1] * 5)
    beats = padded > m
    result = compare_rows(hand_value(front), hand_value(middle))
    assert (result == 1) == beats
    assert compare_rows(hand_value(middle), hand_value(front)) == -result


@given(st.permutations(range(52)))
def test_is_foul_matches_slow_oracle(deck: list[int]) -> None:
    for p in range(4):
        hand = deck[13 * p : 13 * p + 13]
        back, middle, front = hand[:5], hand[5:10], hand[10:]
        assert is_foul(back, middle, front) == slow_is_foul(back, middle, front)


@given(rows(5), st.randoms(use_true_random=False))
def test_value_ignores_order_within_row(row: list[int], rng: random.Random) -> None:
    shuffled = list(row)
    rng.shuffle(shuffled)
    assert hand_value(shuffled) == hand_value(row) == hand_value(tuple(row))


@given(rows(5), st.permutations(range(4)))
def test_suits_never_break_ties(row: list[int], perm: list[int]) -> None:
    renamed = [perm[c // 13] * 13 + c % 13 for c in row]
    assert hand_value(renamed) == hand_value(row)


# ------------------------------------------------------------- specific rankings


def test_categories() -> None:
    assert CATEGORIES == (
        "high card",
        "one pair",
        "two pairs",
        "three of a kind",
        "straight",
        "flush",
        "full house",
        "four of a kind",
        "straight flush",
    )
    examples = [
        "AS KH 9D 7C 2S",
        "AS AH 9D 7C 2S",
        "AS AH 9D 9C 2S",
        "AS AH AD 7C 2S",
        "6S 5H 4D 3C 2S",
        "AS KS 9S 7S 2S",
        "AS AH AD 7C 7S",
        "AS AH AD AC 2S",
        "6S 5S 4S 3S 2S",
    ]
    for i, text in enumerate(examples):
        assert value(text)[0] == i, CATEGORIES[i]
    assert [value(t) for t in examples] == sorted(value(t) for t in examples)


def test_wheel_is_the_lowest_straight() -> None:
    wheel = value("AH 2S 3D 4C 5C")
    assert wheel == (STRAIGHT, (3,))
    assert wheel < value("2H 3S 4D 5C 6C") == (STRAIGHT, (4,))
    assert wheel > value("AS AH AD KS QS")  # still beats three aces
    assert value("AH 2H 3H 4H 5H") == (STRAIGHT_FLUSH, (3,))
    assert value("AH 2H 3H 4H 5H") < value("2S 3S 4S 5S 6S")


def test_broadway_is_the_top_straight() -> None:
    assert value("AS KH QD JC TS") == (STRAIGHT, (12,))
    assert value("AS KS QS JS TS") == (STRAIGHT_FLUSH, (12,))
    assert value("AS KH QD JC TS") > value("KS QH JD TC 9S")
    assert max(hand_value(h) for h in rank_classes()) == (STRAIGHT_FLUSH, (12,))


@pytest.mark.parametrize("text", ["KS AH 2D 3C 4S", "QS KH AD 2C 3S", "JS QH KD AC 2S", "KH AH 2H 3H 4H"])
def test_no_wrap_around_straights(text: str) -> None:
    assert value(text)[0] in (HIGH_CARD, FLUSH)
    assert value(text)[1][0] == 12  # ace high


def test_tie_breaks() -> None:
    # Two pairs: higher pair, then lower pair, then kicker.
    assert value("KS KH 9D 9C AS") > value("KD KC 9S 9H QS")
    assert value("KS KH 9D 9C 2S") > value("KD KC 8S 8H AS")
    assert value("KS KH 9D 9C 2S") < value("AD AC 3S 3H 2H")
    # Full house: the three first.
    assert value("4S 4H 4D 2C 2S") > value("3S 3H 3D AC AS")
    # Flush against flush: all five cards in turn.
    assert value("AS KS QS JS 9S") > value("AH KH QH JH 8H")
    assert value("AS KS QS 3S 2S") > value("AH KH JH TH 9H")
    # Pair: pair rank, then kickers high to low.
    assert value("9S 9H AD 3C 2S") > value("9D 9C KS QH JH")
    assert value("9S 9H AD 4C 2S") > value("9D 9C AS 3H 2H")
    # Four of a kind with kicker.
    assert value("7S 7H 7D 7C AS") > value("7S 7H 7D 7C KS") > value("6S 6H 6D 6C AS")
    # Suits never: the same ranks tie.
    assert value("AS KS 9D 7C 2S") == value("AH KD 9S 7H 2C")


def test_three_card_rows() -> None:
    assert value("QS KS AS") == (HIGH_CARD, (12, 11, 10))  # no straight, no flush
    assert value("2H 3H 4H") == (HIGH_CARD, (2, 1, 0))
    assert value("AS 2H 3D") == (HIGH_CARD, (12, 1, 0))
    assert value("9S 9H KD") == (ONE_PAIR, (7, 11))
    assert value("7S 7H 7D") == (THREE_OF_A_KIND, (5,))


def test_bad_rows_are_refused() -> None:
    for n in (0, 1, 2, 4, 6, 13):
        with pytest.raises(ValueError, match="5 cards"):
            hand_value(list(range(n)))
    for bad in ([0, 1, 2, 3, 52], [-1, 1, 2, 3, 4], [0, 1, 99]):
        with pytest.raises(ValueError, match="0 to 51"):
            hand_value(bad)
    with pytest.raises(ValueError):  # the same card twice in a one-suit row
        hand_value([0, 0, 1, 2, 3])
    with pytest.raises(ValueError):
        is_foul(cards("AS KS QS JS TS"), cards("9H 9D KC 5S"), cards("9C 9S KH"))
    with pytest.raises(ValueError):
        is_foul(cards("AS KS QS JS TS"), cards("9H 9D KC 5S 4D"), cards("9C 9S"))


# ------------------------------------------------------------------------ fouls


def test_front_trips_over_middle_two_pairs_is_a_foul() -> None:
    back, middle, front = (
        cards("AS KS QS JS TS"),
        cards("8H 8D 4C 4S 2D"),
        cards("7C 7H 7D"),
    )
    assert compare_rows(hand_value(front), hand_value(middle)) == 1
    assert is_foul(back, middle, front)
    # … but middle trips above front trips is fine.
    assert not is_foul(back, cards("8H 8D 8C 4S 2D"), cards("7C 7H 7D"))


def test_front_pair_equal_to_middle_pair_over_its_length_is_not_a_foul() -> None:
    back = cards("AS KS QS JS TS")
    # Middle 9 9 K 5 4, front 9 9 K: equal over the front's two tie-break ranks.
    assert compare_rows(value("9C 9S KH"), value("9H 9D KC 5S 4D")) == 0
    assert not is_foul(back, cards("9H 9D KC 5S 4D"), cards("9C 9S KH"))
    # A higher front kicker fouls; a lower one does not.
    assert is_foul(back, cards("9H 9D QC 5S 4D"), cards("9C 9S KH"))
    assert not is_foul(back, cards("9H 9D AC 5S 4D"), cards("9C 9S KH"))
    # High card: front A K Q against middle A K Q 3 2 is equal, not a foul.
    assert not is_foul(back, cards("AH KH QD 3S 2D"), cards("AD KD QC"))
    assert is_foul(back, cards("AH KH JD 3S 2D"), cards("AD KD QC"))


def test_back_against_middle() -> None:
    front = cards("2C 3C 5D")
    # Equal back and middle is not a foul.
    assert not is_foul(cards("9S 8H 7D 6C 5S"), cards("9H 8D 7C 6S 5H"), front)
    assert is_foul(cards("9S 8H 7D 6C 5S"), cards("TH 9D 8C 7S 6H"), front)
    # The wheel back against a six-high straight middle fouls.
    assert is_foul(cards("AS 2H 3D 4C 5S"), cards("2S 3H 4D 5C 6H"), cards("7C 8C TD"))


def test_front_category_against_middle_category() -> None:
    back = cards("AS KS QS JS TS")
    # Any pair in front over a high-card middle fouls, even twos against an ace.
    assert is_foul(back, cards("AH KH QD JD 9C"), cards("2S 2H 3C"))
    # Front trips of aces under a middle straight are fine.
    assert not is_foul(cards("2C 2D 2H 2S KC"), cards("9H 8D 7C 6S 5H"), cards("AH AD AC"))


# ---------------------------------------------------------------------- scoring

SCOOPER = "AS AH AD KS KH  QS QH 7D 7C 5C  9S 9H 2C"  # full house, two pairs, pair
SCOOPED = "JS TH 9D 8C 7S  KD KC 4S 3S 2S  QD 8D 3C"  # straight, pair, high card
FOULED = "2H 3H 4H 5H 6H  AC TC 6C 4D 2D  JH JD 5D"  # front pair over ace high


def test_scoop_bonus() -> None:
    deal = [cards(SCOOPER), cards(SCOOPED)]
    deal_ok(deal)
    assert head_to_head(deal[0], deal[1]) == 6
    assert head_to_head(deal[1], deal[0]) == -6
    assert chinese_poker_scores(deal) == [24, -24]
    assert chinese_poker_scores(deal[::-1]) == [-24, 24]


def test_two_rows_won_and_one_tied_is_no_scoop() -> None:
    a = cards("9S 8H 7D 6C 5S  KS KH 4D 4C 2S  QS QH 3D")
    b = cards("9H 8D 7C 6S 5H  JS JH 3S 3H 2H  TS TH 4S")
    deal_ok([a, b])
    assert hand_value(a[:5]) == hand_value(b[:5])
    assert chinese_poker_scores([a, b]) == [8, -8]


def test_two_rows_won_one_lost() -> None:
    a = cards("AS AH AD KS KH  QS QH 7D 7C 5C  3D 4D 6H")  # loses the front
    b = cards("JS TH 9D 8C 7S  KD KC 4S 3S 2S  QD 8D 3C")
    deal_ok([a, b])
    assert chinese_poker_scores([a, b]) == [4, -4]


def test_fouled_against_valid_and_fouled_against_fouled() -> None:
    valid, fouled = cards(SCOOPED), cards(FOULED)
    deal_ok([valid, fouled])
    assert is_foul(fouled[:5], fouled[5:10], fouled[10:])
    # The fouled back (a straight flush) is stronger, yet it loses every row.
    assert hand_value(fouled[:5]) > hand_value(valid[:5])
    assert chinese_poker_scores([valid, fouled]) == [24, -24]
    other_fouled = cards("AS AH AD KS KH  QS QH 7C 7D 5C  9S 9H 9C")  # front trips
    deal_ok([fouled, other_fouled])
    assert is_foul(other_fouled[:5], other_fouled[5:10], other_fouled[10:])
    assert chinese_poker_scores([fouled, other_fouled]) == [0, 0]


def test_three_players() -> None:
    deal = [cards(SCOOPER), cards(SCOOPED), cards(FOULED)]
    deal_ok(deal)
    assert chinese_poker_scores(deal) == [48, 0, -48]


def test_four_players_zero_sum() -> None:
    deck = list(range(52))
    random.Random(7).shuffle(deck)
    deal = [sort_arrangement(deck[13 * p : 13 * p + 13]) for p in range(4)]
    scores = chinese_poker_scores(deal)
    assert sum(scores) == 0
    assert scores == slow_scores(deal)


def test_bad_deals_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        chinese_poker_scores([cards(SCOOPER)])
    with pytest.raises(ValueError, match="13 cards"):
        chinese_poker_scores([cards(SCOOPER), cards(SCOOPED)[:12]])
    with pytest.raises(ValueError, match="13 cards"):
        sort_arrangement(list(range(12)))


@settings(max_examples=200)
@given(deals())
def test_scores_match_slow_oracle(deal: list[list[int]]) -> None:
    scores = chinese_poker_scores(deal)
    assert scores == slow_scores(deal)
    assert sum(scores) == 0
    assert all(s % 4 == 0 for s in scores)
    assert all(abs(s) <= 24 * (len(deal) - 1) for s in scores)


@given(deals())
def test_head_to_head_is_antisymmetric_and_sums_to_the_scores(
    deal: list[list[int]],
) -> None:
    n = len(deal)
    results = [[head_to_head(deal[i], deal[j]) if i != j else 0 for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            assert results[i][j] == -results[j][i]
            assert results[i][j] in (-6, -2, -1, 0, 1, 2, 6)
    assert chinese_poker_scores(deal) == [4 * sum(r) for r in results]


@given(deals(), st.randoms(use_true_random=False))
def test_scores_follow_the_seats_and_ignore_order_within_rows(deal: list[list[int]], rng: random.Random) -> None:
    scores = chinese_poker_scores(deal)
    seats = list(range(len(deal)))
    rng.shuffle(seats)
    assert chinese_poker_scores([deal[s] for s in seats]) == [scores[s] for s in seats]
    shuffled = []
    for a in deal:
        rows = [a[:5], a[5:10], a[10:]]
        for r in rows:
            rng.shuffle(r)
        shuffled.append(rows[0] + rows[1] + rows[2])
    assert chinese_poker_scores(shuffled) == scores
    assert chinese_poker_scores([sort_arrangement(a) for a in deal]) == scores


@given(deals())
def test_fouled_arrangements(deal: list[list[int]]) -> None:
    fouled = [is_foul(a[:5], a[5:10], a[10:]) for a in deal]
    for i, a in enumerate(deal):
        for j, b in enumerate(deal):
            if i == j:
                continue
            if fouled[i] and fouled[j]:
                assert head_to_head(a, b) == 0
            elif fouled[i]:
                assert head_to_head(a, b) == -6
            elif not fouled[j]:
                # Valid against valid: the row comparisons decide.
                wins = sum(
                    sign(compare_rows(hand_value(a[lo:hi]), hand_value(b[lo:hi])))
                    for lo, hi in ((0, 5), (5, 10), (10, 13))
                )
                assert head_to_head(a, b) == {3: 6, -3: -6}.get(wins, wins)


# ---------------------------------------------------------------------- sorting


def test_sort_row() -> None:
    row = cards("3C KD 3S AH KS")
    assert [card_name(c) for c in sort_row(row)] == ["AH", "KS", "KD", "3S", "3C"]
    assert [card_name(c) for c in sort_row(cards("2C 2D 2H 2S"))] == [
        "2S",
        "2H",
        "2D",
        "2C",
    ]


@given(st.lists(st.integers(0, 51), max_size=13, unique=True))
def test_sort_row_properties(row: list[int]) -> None:
    out = sort_row(row)
    assert sorted(out) == sorted(row)
    assert sort_row(out) == out
    for x, y in pairwise(out):
        assert x % 13 > y % 13 or (x % 13 == y % 13 and x // 13 < y // 13)


@given(st.permutations(range(52)))
def test_sort_arrangement_sorts_each_row_in_place(deck: list[int]) -> None:
    a = deck[:13]
    out = sort_arrangement(a)
    assert out[:5] == sort_row(a[:5])
    assert out[5:10] == sort_row(a[5:10])
    assert out[10:] == sort_row(a[10:])
    assert sort_arrangement(out) == out
