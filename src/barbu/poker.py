"""Chinese poker: ranking rows, spotting fouls and scoring a deal (RULES.md 4.3).

Each player splits 13 cards into a *back* row of 5, a *middle* row of 5 and a
*front* row of 3. An arrangement is written as the 13 cards in that order. A row's
strength is its :func:`hand_value`: a category index into :data:`CATEGORIES` and the
tie-break ranks (0 = two … 12 = ace), larger groups first, then higher rank;
straights by their top card, with A-2-3-4-5 the lowest (top card 5). Values of rows
of the same length compare as plain tuples.

>>> from barbu.cards import card
>>> def row(text: str) -> list[int]:
...     return [card(t) for t in text.split()]
>>> hand_value(row("AS KS QS JS TS"))
(8, (12,))
>>> CATEGORIES[hand_value(row("5H 4D 3C 2S AH"))[0]]
'straight'
>>> arrangements = [
...     row("AS AH AD KS KH  QS QH 7D 7C 5C  9S 9H 2C"),   # full house, two pairs, pair
...     row("JS TH 9D 8C 7S  KD KC 4S 3S 2S  QD 8D 3C"),   # straight, pair, queen high
... ]
>>> is_foul(arrangements[0][:5], arrangements[0][5:10], arrangements[0][10:])
False
>>> chinese_poker_scores(arrangements)   # seat 0 wins all three rows: (3 + 3) x 4
[24, -24]

The functions here are the fast door: they trust that the cards are distinct card
ints (0-51) and check only what is cheap (row lengths, card range).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import TypeAlias

__all__ = [
    "CATEGORIES",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "ONE_PAIR",
    "ROWS",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIRS",
    "HandValue",
    "chinese_poker_scores",
    "compare_rows",
    "hand_value",
    "head_to_head",
    "is_foul",
    "sort_arrangement",
    "sort_row",
]

CATEGORIES = (
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
"""Hand categories from low to high; a :func:`hand_value` starts with an index here."""

(
    HIGH_CARD,
    ONE_PAIR,
    TWO_PAIRS,
    THREE_OF_A_KIND,
    STRAIGHT,
    FLUSH,
    FULL_HOUSE,
    FOUR_OF_A_KIND,
    STRAIGHT_FLUSH,
) = range(9)

ROWS = ("back", "middle", "front")
"""The rows of an arrangement (5, 5 and 3 cards), in the order a tally writes them."""

HandValue: TypeAlias = tuple[int, tuple[int, ...]]
"""A row's strength: (category index, tie-break ranks)."""

_ACE = 12
_WHEEL = (12, 3, 2, 1, 0)

# Group shapes (multiplicities, largest first) of rows without straight or flush.
_SHAPES_5 = {
    (1, 1, 1, 1, 1): HIGH_CARD,
    (2, 1, 1, 1): ONE_PAIR,
    (2, 2, 1): TWO_PAIRS,
    (3, 1, 1): THREE_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (4, 1): FOUR_OF_A_KIND,
}
_SHAPES_3 = {(1, 1, 1): HIGH_CARD, (2, 1): ONE_PAIR, (3,): THREE_OF_A_KIND}


def _grouped(ranks: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(ranks grouped by multiplicity then rank, high first; the multiplicities)."""
    order = tuple(sorted(set(ranks), key=lambda r: (ranks.count(r), r), reverse=True))
    return order, tuple(ranks.count(r) for r in order)


def _value_of_ranks(ranks: Sequence[int], flush: bool) -> HandValue:
    """The value of a row from its ranks; only used to build the lookup tables."""
    order, shape = _grouped(ranks)
    if len(ranks) == 3:
        return _SHAPES_3[shape], order
    if len(order) == 5:
        top = -1
        if order[0] - order[4] == 4:
            top = order[0]
        elif order == _WHEEL:
            top = 3  # the five
        if top >= 0:
            return (STRAIGHT_FLUSH if flush else STRAIGHT), (top,)
        if flush:
            return FLUSH, order
    return _SHAPES_5[shape], order


# A row's rank multiset as an int: three bits of count per rank, so summing the
# cards' entries needs no sort. A dict (not a tuple) so that a card outside 0-51
# is a KeyError rather than a silent negative index.
_RANK_KEY = {c: 1 << (3 * (c % 13)) for c in range(52)}


def _key(ranks: Sequence[int]) -> int:
    return sum(1 << (3 * r) for r in ranks)


_VALUE_5: dict[int, HandValue] = {}
_FLUSH_5: dict[int, HandValue] = {}
_VALUE_3: dict[int, HandValue] = {}
for _ranks in combinations_with_replacement(range(12, -1, -1), 5):
    if _ranks[0] != _ranks[4]:  # at most four of a rank
        _VALUE_5[_key(_ranks)] = _value_of_ranks(_ranks, False)
for _ranks in combinations(range(12, -1, -1), 5):
    _FLUSH_5[_key(_ranks)] = _value_of_ranks(_ranks, True)
for _front in combinations_with_replacement(range(12, -1, -1), 3):
    _VALUE_3[_key(_front)] = _value_of_ranks(_front, False)
del _ranks, _front


def hand_value(cards: Sequence[int]) -> HandValue:
    """The value of a 5-card (back, middle) or 3-card (front) row.

    Returns ``(category, ranks)``: the index of the category in
    :data:`CATEGORIES` and the tie-break ranks, larger groups first, then higher rank
    (a straight gives only its top card). Values of rows of one length compare as
    tuples. A front row is only high card, one pair or three of a kind.

    >>> from barbu.cards import card
    >>> def value(text: str) -> HandValue:
    ...     return hand_value([card(t) for t in text.split()])
    >>> value("9S 9H KD KC 9D")           # full house, nines over kings
    (6, (7, 11))
    >>> value("QS 3H 3D QC 7D")           # two pairs, queens and threes, seven kicker
    (2, (10, 1, 5))
    >>> value("AH 2S 3D 4C 5C") < value("2H 3S 4D 5C 6C")   # the wheel is lowest
    True
    >>> value("KS AS 2H 3H 4H")           # no wrap: king, ace, two … is high card
    (0, (12, 11, 2, 1, 0))
    >>> value("QS KS AS")                  # three cards: no straight, no flush
    (0, (12, 11, 10))
    >>> hand_value([0, 1, 2, 3])
    Traceback (most recent call last):
      ...
    ValueError: a poker row holds 5 cards (back, middle) or 3 (front), not 4
    """
    n = len(cards)
    try:
        if n == 5:
            a, b, c, d, e = cards
            key = _RANK_KEY[a] + _RANK_KEY[b] + _RANK_KEY[c] + _RANK_KEY[d] + _RANK_KEY[e]
            if a // 13 == b // 13 == c // 13 == d // 13 == e // 13:
                return _FLUSH_5[key]
            return _VALUE_5[key]
        if n == 3:
            a, b, c = cards
            return _VALUE_3[_RANK_KEY[a] + _RANK_KEY[b] + _RANK_KEY[c]]
    except KeyError:
        raise ValueError(f"not a poker row: {list(cards)!r} must be distinct cards, ints from 0 to 51") from None
    raise ValueError(f"a poker row holds 5 cards (back, middle) or 3 (front), not {n}")


def compare_rows(a: HandValue, b: HandValue) -> int:
    """1 if value ``a`` ranks above ``b``, -1 if below, 0 if equal.

    Categories first; then the tie-break ranks over the shorter list only, which is
    how a front row (3 cards) is set against a middle row (5 cards). For two rows
    of the same length this is the same as comparing the tuples.

    >>> from barbu.cards import card
    >>> def value(text: str) -> HandValue:
    ...     return hand_value([card(t) for t in text.split()])
    >>> compare_rows(value("9S 9H KD"), value("9D 9C KS 5H 4H"))   # equal over 9 9 K
    0
    >>> compare_rows(value("9S 9H KD"), value("9D 9C QS 5H 4H"))
    1
    >>> compare_rows(value("2S 2H 2D"), value("AS AH KS KH QD"))   # trips over two pairs
    1
    """
    if a[0] != b[0]:
        return 1 if a[0] > b[0] else -1
    x, y = a[1], b[1]
    n = min(len(x), len(y))
    if n < len(x):
        x = x[:n]
    if n < len(y):
        y = y[:n]
    return (x > y) - (x < y)


def _fouled(back: HandValue, middle: HandValue, front: HandValue) -> bool:
    if back < middle:
        return True
    if front[0] != middle[0]:
        return front[0] > middle[0]
    # Over the front's length only: a front list equal to the start of the
    # middle's is the shorter tuple, so it compares lower and is not a foul.
    return front[1] > middle[1]


def is_foul(back: Sequence[int], middle: Sequence[int], front: Sequence[int]) -> bool:
    """Whether the rows break back ≥ middle ≥ front.

    The front is set against the middle by category, then by the tie-break ranks
    over the front's length only; equal is not a foul.

    >>> from barbu.cards import card
    >>> def row(text: str) -> list[int]:
    ...     return [card(t) for t in text.split()]
    >>> is_foul(row("AS KS QS JS TS"), row("8H 8D 4C 4S 2D"), row("7C 7H 7D"))
    True
    >>> is_foul(row("AS KS QS JS TS"), row("9H 9D KC 5S 4D"), row("9C 9S KH"))
    False
    >>> is_foul(row("AS AH 2C 3S 4D"), row("KH KD QS JS 9C"), row("5C 6H 8D"))
    False
    >>> is_foul(row("KH KD QS JS 9C"), row("AS AH 2C 3S 4D"), row("5C 6H 8D"))
    True
    """
    if len(back) != 5 or len(middle) != 5 or len(front) != 3:
        raise ValueError(
            "an arrangement's rows hold 5 (back), 5 (middle) and 3 (front) cards, "
            f"not {len(back)}, {len(middle)} and {len(front)}"
        )
    return _fouled(hand_value(back), hand_value(middle), hand_value(front))


_Rows: TypeAlias = tuple[HandValue, HandValue, HandValue] | None


def _rows(arrangement: Sequence[int]) -> _Rows:
    """The three row values of an arrangement, or None if it is fouled."""
    if len(arrangement) != 13:
        raise ValueError(f"an arrangement is 13 cards (back 5, middle 5, front 3), not {len(arrangement)}")
    back = hand_value(arrangement[0:5])
    middle = hand_value(arrangement[5:10])
    front = hand_value(arrangement[10:13])
    if _fouled(back, middle, front):
        return None
    return back, middle, front


def _result(a: _Rows, b: _Rows) -> int:
    if a is None:
        return 0 if b is None else -6
    if b is None:
        return 6
    total = 0
    for x, y in zip(a, b, strict=True):
        if x > y:
            total += 1
        elif x < y:
            total -= 1
    if total == 3:
        return 6
    if total == -3:
        return -6
    return total


def head_to_head(a: Sequence[int], b: Sequence[int]) -> int:
    """The result of arrangement ``a`` against ``b``, before the factor 4.

    +1 per row won, -1 per row lost; winning all three rows adds 3 more (so ±6 at
    most). A fouled arrangement loses all three rows to a valid one and ties
    another fouled one.

    >>> from barbu.cards import card
    >>> a = [card(t) for t in "AS AH AD KS KH QS QH 7D 7C 5C 9S 9H 2C".split()]
    >>> b = [card(t) for t in "JS TH 9D 8C 7S KD KC 4S 3S 2S QD 8D 3C".split()]
    >>> head_to_head(a, b), head_to_head(b, a)
    (6, -6)
    """
    return _result(_rows(a), _rows(b))


def chinese_poker_scores(arrangements: Sequence[Sequence[int]]) -> list[int]:
    """Each seat's raw score: 4 × the sum of its :func:`head_to_head` results.

    ``arrangements`` holds one arrangement per player (any number from 2), each the
    13 cards back 5, middle 5, front 3. The scores sum to zero.

    >>> from barbu.cards import card
    >>> def arr(text: str) -> list[int]:
    ...     return [card(t) for t in text.split()]
    >>> chinese_poker_scores([
    ...     arr("AS AH AD KS KH  QS QH 7D 7C 5C  9S 9H 2C"),
    ...     arr("JS TH 9D 8C 7S  KD KC 4S 3S 2S  QD 8D 3C"),
    ...     arr("2H 3H 4H 5H 6H  AC TC 6C 4D 2D  JH JD 5D"),  # fouled: pair in front
    ... ])
    [48, 0, -48]
    """
    n = len(arrangements)
    if n < 2:
        raise ValueError(f"chinese poker needs at least 2 arrangements, not {n}")
    rows = [_rows(a) for a in arrangements]
    totals = [0] * n
    for i in range(n):
        ri = rows[i]
        for j in range(i + 1, n):
            r = _result(ri, rows[j])
            totals[i] += r
            totals[j] -= r
    return [4 * t for t in totals]


def _row_order(c: int) -> tuple[int, int]:
    return -(c % 13), c // 13


def sort_row(cards: Sequence[int]) -> list[int]:
    """A row as writers write it: high rank to low, equal ranks by suit S, H, D, C.

    >>> from barbu.cards import card, card_name
    >>> [card_name(c) for c in sort_row([card(t) for t in "3C KD 3S AH KS".split()])]
    ['AH', 'KS', 'KD', '3S', '3C']
    """
    return sorted(cards, key=_row_order)


def sort_arrangement(cards: Sequence[int]) -> list[int]:
    """An arrangement (back 5, middle 5, front 3) with each row sorted by :func:`sort_row`.

    >>> from barbu.cards import card, card_name
    >>> cards = [card(t) for t in "2S 3S 4S 5S 6S  7H 8H 9H TH JH  2D AD 3D".split()]
    >>> " ".join(card_name(c) for c in sort_arrangement(cards))
    '6S 5S 4S 3S 2S JH TH 9H 8H 7H AD 3D 2D'
    """
    if len(cards) != 13:
        raise ValueError(f"an arrangement is 13 cards (back 5, middle 5, front 3), not {len(cards)}")
    return sort_row(cards[0:5]) + sort_row(cards[5:10]) + sort_row(cards[10:13])
