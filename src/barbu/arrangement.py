"""Chinese-poker arrangements of a hand, as a lazy sequence of legal actions.

A 13-card hand has 72,072 arrangements (back 5, middle 5, front 3). Listing them
all as objects would be slow, so :class:`Arrangements` computes the ``i``-th one on
demand: it supports ``len``, indexing, iteration and ``in``, which is all
``random.choice`` and bots need.

>>> from barbu.cards import parse_pbn
>>> space = Arrangements(parse_pbn("AKQJT.98765.432."))
>>> len(space)
72072
>>> space[0]
Arrange.parse('AS KS QS JS TS | 9H 8H 7H 6H 5H | 4D 3D 2D')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import comb
from typing import overload

from barbu.actions import Arrange
from barbu.cards import cards_of, mask_of


def sort_row(cards: Sequence[int]) -> list[int]:
    """A row as writers write it: high to low, equal ranks by suit S, H, D, C."""
    return sorted(cards, key=lambda c: (-(c % 13), c // 13))


def normalize(cards: Sequence[int]) -> tuple[int, ...]:
    """An arrangement with each row sorted as writers write it."""
    return tuple(sort_row(cards[:5]) + sort_row(cards[5:10]) + sort_row(cards[10:]))


def _unrank(items: list[int], k: int, index: int) -> list[int]:
    """The ``index``-th ``k``-subset of ``items`` in lexicographic order."""
    out = []
    start = 0
    n = len(items)
    while k:
        for i in range(start, n):
            block = comb(n - i - 1, k - 1)
            if index < block:
                out.append(items[i])
                start = i + 1
                k -= 1
                break
            index -= block
    return out


class Arrangements(Sequence[Arrange]):
    """Every arrangement of a hand: back 5, middle 5, front 3 (rows sorted)."""

    def __init__(self, hand: int, row_sizes: tuple[int, int, int] = (5, 5, 3)) -> None:
        self.hand = hand
        self.cards = sorted(cards_of(hand), key=lambda c: (-(c % 13), c // 13))
        self.row_sizes = row_sizes
        b, m, _ = row_sizes
        self._middles = comb(len(self.cards) - b, m)
        self._len = comb(len(self.cards), b) * self._middles

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Arrange: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Arrange]: ...

    def __getitem__(self, index: int | slice) -> Arrange | Sequence[Arrange]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("arrangement index out of range")
        b, m, _ = self.row_sizes
        back = _unrank(self.cards, b, index // self._middles)
        rest = [c for c in self.cards if c not in back]
        middle = _unrank(rest, m, index % self._middles)
        front = [c for c in rest if c not in middle]
        return Arrange(tuple(back + middle + front))

    def __iter__(self) -> Iterator[Arrange]:
        for i in range(self._len):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return (
            isinstance(action, Arrange) and len(action.cards) == len(self.cards) and mask_of(action.cards) == self.hand
        )
