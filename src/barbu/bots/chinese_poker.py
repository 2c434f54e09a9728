"""Arranging a Chinese-poker hand: back 5, middle 5, front 3, never fouled.

Each row is worth the chance that it beats the same row of a typical opponent,
read from a logistic curve over the row's strength (category, then its ranks); an
arrangement is worth the rows it should win minus those it should lose, plus the
bonus for winning (or losing) all three. The search looks at the strongest backs
first and, for each, every middle of the eight cards left, and never returns a
fouled arrangement (the strongest back with the strongest middle of the rest
never fouls, so there is always one).

>>> from barbu.cards import parse_pbn, card_name
>>> from barbu.poker import hand_value, is_foul
>>> cards = best_arrangement(parse_pbn("AKQ2.AK3.A54.762"))
>>> is_foul(cards[:5], cards[5:10], cards[10:])
False
>>> hand_value(cards[:5])[0] >= hand_value(cards[5:10])[0]
True
"""

from __future__ import annotations

import heapq
import math
from functools import cache, lru_cache
from itertools import combinations
from operator import itemgetter

from barbu.arrangement import normalize
from barbu.bots.errors import BotError
from barbu.cards import cards_of
from barbu.poker import HandValue, compare_rows, hand_value

_CENTRE = (2.55, 1.45, 0.75)
"""Strength of a typical opponent's back, middle and front row."""
_SPREAD = (0.55, 0.5, 0.45)


def strength(value: HandValue) -> float:
    """A row's strength as one number: category, then ranks as fractions.

    >>> strength((1, (12, 5, 3, 2))) > strength((1, (11, 12, 9, 8)))
    True
    """
    category, ranks = value
    s = float(category)
    scale = 1.0 / 14
    for r in ranks:
        s += (r + 1) * scale
        scale /= 14
    return s


@cache
def win_chance(value: HandValue, row: int) -> float:
    """The chance a row (0 back, 1 middle, 2 front) beats a typical opponent's same row
    (remembered: there are a few thousand row values)."""
    return 1.0 / (1.0 + math.exp(-(strength(value) - _CENTRE[row]) / _SPREAD[row]))


def arrangement_worth(back: float, middle: float, front: float) -> float:
    """Expected result against one opponent from the three rows' win chances."""
    rows = (2 * back - 1) + (2 * middle - 1) + (2 * front - 1)
    scoop = back * middle * front - (1 - back) * (1 - middle) * (1 - front)
    return rows + 3 * scoop


def candidate_arrangements(hand: int, keep: int = 8, backs: int = 16) -> list[tuple[float, tuple[int, ...]]]:
    """The ``keep`` best unfouled arrangements of a 13-card hand, best first, with their worth."""
    cards = cards_of(hand)
    if len(cards) != 13:
        raise BotError(f"a Chinese-poker hand holds 13 cards, not {len(cards)}")
    fives = {idx: hand_value(row) for idx, row in zip(_FIVES, combinations(cards, 5), strict=True)}
    ordered = heapq.nlargest(backs, fives, key=fives.__getitem__)  # sorted(..., reverse=True)[:backs]
    threes: dict[tuple[int, ...], tuple[HandValue, float]] = {}
    found: list[tuple[float, tuple[int, ...]]] = []
    for back in ordered:
        bv = fives[back]
        pb = win_chance(bv, 0)
        rest = [i for i in range(13) if i not in back]
        for take_mid, take_front in _SPLITS:
            mid = take_mid(rest)
            mv = fives[mid]
            if mv > bv:
                continue
            front = take_front(rest)
            if front not in threes:
                fv = hand_value([cards[i] for i in front])
                threes[front] = (fv, win_chance(fv, 2))
            fv, pf = threes[front]
            if compare_rows(fv, mv) > 0:
                continue
            found.append((arrangement_worth(pb, win_chance(mv, 1), pf), back + mid + front))
    found.sort(key=lambda x: x[0], reverse=True)
    out: list[tuple[float, tuple[int, ...]]] = []
    seen: set[tuple[int, ...]] = set()
    for worth, order in found:
        key = normalize(tuple(cards[i] for i in order))
        if key not in seen:
            seen.add(key)
            out.append((worth, key))
        if len(out) == keep:
            break
    # The strongest back with the strongest middle of the rest never fouls, so
    # ``out`` is never empty.
    assert out
    return out


_FIVES = tuple(combinations(range(13), 5))
"""The places of every back (or middle) row among 13 cards, in ``combinations`` order."""
_SPLITS = tuple(
    (itemgetter(*mid), itemgetter(*(i for i in range(8) if i not in mid))) for mid in combinations(range(8), 5)
)
"""Every split of the eight cards left after the back into a middle (in the order
``combinations`` gives) and a front, as getters of those cards' places."""


@lru_cache(maxsize=4096)
def best_arrangement(hand: int) -> tuple[int, ...]:
    """The best unfouled arrangement of a 13-card hand by :func:`arrangement_worth` (remembered)."""
    return candidate_arrangements(hand, keep=1)[0][1]
