"""Rules of thumb for Domino (Fan Tan): which card to lay and which rank to name.

A seat wants to go out early. Cards far from the starting rank ``R`` (aces and twos
with a middle rank) are liabilities: they can only be laid once the whole row has
grown to them, mostly by others. A run held in one hand (7-6-5) is strong: laying it
gives nothing away, since the next card is one's own. So:

- **laying**: prefer cards that lead towards more of one's own cards in that row
  (the closer, the better), then cards whose next card is one's own; hold back cards
  that would only open the row for others;
- **naming the rank**: choose the rank that leaves the hand depending least on cards
  held by others (the cards between ``R`` and each of one's cards), often a rank one
  does not hold, so that others must open the rows one's cards continue.

>>> from barbu.cards import parse_pbn, card
>>> from barbu.domino import DominoPlay
>>> hands = [parse_pbn("765.AK..2"), parse_pbn("8..7."), parse_pbn("..8.3"), parse_pbn("T..Q.")]
>>> d = DominoPlay(hands, leader=0, rank=5)            # from the 7
>>> choose_domino_card(d, 0) == card("7S")
True
>>> dependency(parse_pbn("765.AK..2"), 5, low_rank=0, laid=0) < dependency(parse_pbn("765.AK..2"), 12, 0, 0)
True
"""

from __future__ import annotations

from functools import lru_cache

from barbu.cards import ACE, cards_of, fold
from barbu.domino import DominoPlay


def dependency(hand: int, rank: int, low_rank: int, laid: int) -> int:
    """How many cards held by others must be laid before each of ``hand``'s cards, summed,
    if the rows start from ``rank`` (``laid``: cards already laid or removed)."""
    total = 0
    shift = 0
    while hand >> shift:
        row = hand >> shift & _ROW
        if row:
            total += _row_dependency(row, (hand | laid) >> shift & _ROW, rank, low_rank)
        shift += 13
    return total


_ROW = (1 << 13) - 1
"""One suit's ranks, as a mask (a suit's row of a card mask shifted down by 13 per suit)."""


@lru_cache(maxsize=1 << 16)
def _row_dependency(row: int, known: int, rank: int, low_rank: int) -> int:
    """:func:`dependency` of one suit: ``row`` the ranks held, ``known`` those held or laid
    (remembered: the playouts of a search ask about the same rows again and again)."""
    total = 0
    for r in range(13):
        if not row >> r & 1:
            continue
        step = 1 if r > rank else -1
        x = rank
        while x != r:
            if not known >> x & 1:
                total += 1
            x += step
        if r < low_rank:  # pragma: no cover - cards below the deck do not exist
            total += 13
    return total


def best_rank(hand: int, ranks: tuple[int, ...], low_rank: int, laid: int = 0) -> int:
    """The rank to name: least dependency on others, ties to a rank not held, then the middle.

    >>> from barbu.cards import parse_pbn
    >>> best_rank(parse_pbn("AKQ.AKQ.AKJ.AK"), tuple(range(13)), 0)
    11
    """
    held = {c % 13 for c in cards_of(hand)}

    def key(r: int) -> tuple[int, int, float]:
        return (dependency(hand, r, low_rank, laid), r in held, abs(r - 6.5))

    return min(ranks, key=key)


def choose_domino_card(d: DominoPlay, seat: int) -> int | None:
    """The card ``seat`` (to act) should lay, or None when it must pass.

    Reads only ``d.hands[seat]`` and the public rows.
    """
    legal = d.legal_mask()
    if not legal:
        return None
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    if legal >> 52 or d.hands[seat] >> 52:  # two decks: choose a face, lay the copy held
        face = _choose_face(d, fold(legal), fold(d.hands[seat]))
        return face if legal >> face & 1 else face + 52
    return _choose_face(d, legal, d.hands[seat])


def _choose_face(d: DominoPlay, legal: int, hand: int) -> int:
    """:func:`choose_domino_card` on one deck's cards (two decks: the rows read as one)."""
    if d.rank is None:
        # French domino: the first card is free and fixes R for every suit.
        ranks = tuple(sorted({c % 13 for c in cards_of(hand)}))
        rank = best_rank(hand, ranks, d.low_rank)
        return min(c for c in cards_of(hand) if c % 13 == rank)
    laid = d.laid & ((1 << 52) - 1)
    best, best_score = -1, -1e9
    for c in cards_of(legal):
        s, r = divmod(c, 13)
        steps: tuple[int, ...]
        if r == d.rank and not laid >> c & 1:
            steps = (-1, 1)
        elif r < d.rank:
            steps = (-1,)
        else:
            steps = (1,)
        score = 0.0
        for step in steps:
            score += _direction_value(hand, laid, s, r, step, d.low_rank)
        if d.ace_replays and r == ACE:
            score += 0.8
        score += abs(r - d.rank) / 100  # far cards first when all else is equal
        if score > best_score:
            best, best_score = c, score
    return best


def _direction_value(hand: int, laid: int, suit: int, rank: int, step: int, low_rank: int) -> float:
    """What laying (suit, rank) is worth going ``step`` (+1 up, -1 down) along its row."""
    shift = 13 * suit
    return _row_value(hand >> shift & _ROW, laid >> shift & _ROW, rank, step, low_rank)


@lru_cache(maxsize=1 << 16)
def _row_value(held: int, laid: int, rank: int, step: int, low_rank: int) -> float:
    """:func:`_direction_value` on one suit's ranks held and laid (remembered, as :func:`_row_dependency`)."""
    value = 0.0
    gap = 0
    x = rank + step
    first = True
    while low_rank <= x <= ACE:
        b = 1 << x
        if held & b:
            value += 2.0 / (1 + gap)
        elif not laid & b:
            if first:
                value -= 1.0  # opens the row for someone else
            gap += 1
        first = False
        x += step
    return value
