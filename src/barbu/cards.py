"""Cards, suits, ranks and hands, as small integers and 52-bit masks.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, with suits in record
order (spades 0, hearts 1, diamonds 2, clubs 3) and ranks from the two (0) to the
ace (12). A set of cards (a hand, a deck, the cards a seat captured) is an ``int``
mask with bit ``card`` set for each card in it. :class:`CardSet` wraps such a mask
for people; the engine works on the bare ints.

>>> card("QS")
10
>>> card_name(10)
'QS'
>>> hand = CardSet.from_pbn("AK32.QJ5.T98.876")
>>> len(hand), card("KS") in hand
(13, True)
>>> str(hand)
'AK32.QJ5.T98.876'
>>> [card_name(c) for c in CardSet.parse("2h ah 10c")]
['2H', 'AH', 'TC']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from barbu.errors import N_, NotationError

SUITS = "SHDC"
"""Suit letters in record order: spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = "23456789TJQKA"
"""Rank letters from low to high; the ace is high."""
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
"""The ranks in words, in the order of :data:`RANKS`."""

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)
SUIT_CONSTANTS = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
"""The names of the suit constants, by suit index (what an action's ``repr`` writes)."""
RANK_CONSTANTS = (
    "TWO",
    "THREE",
    "FOUR",
    "FIVE",
    "SIX",
    "SEVEN",
    "EIGHT",
    "NINE",
    "TEN",
    "JACK",
    "QUEEN",
    "KING",
    "ACE",
)
"""The names of the rank constants, by rank index."""

SUIT_MASK_13 = (1 << 13) - 1
FULL_DECK = (1 << 52) - 1
SUIT_MASKS = tuple(SUIT_MASK_13 << (13 * s) for s in range(4))


def make_card(suit: int, rank: int) -> int:
    """The card of ``suit`` (0-3) and ``rank`` (0 = two … 12 = ace).

    >>> card_name(make_card(HEARTS, KING))
    'KH'
    """
    return suit * 13 + rank


def suit_of(card: int) -> int:
    """The suit index (0-3) of a card (of either deck where two are played).

    >>> suit_of(card("KH")), suit_of(card("KH") + TWIN)
    (1, 1)
    """
    return card // 13 % 4


def rank_of(card: int) -> int:
    """The rank index (0 = two … 12 = ace) of a card (of either deck)."""
    return card % 13


TWIN = 52
"""Where two decks are played (``french-two-decks``), card ``c + TWIN`` is the second
deck's copy of card ``c``: the same card for every rule (it has the same name), a
distinct bit in a mask. A one-deck game never holds a card from 52 up."""
TWIN_DECK = (FULL_DECK << TWIN) | FULL_DECK
"""Both decks: bits 0 to 103."""


def twin_mask(mask: int) -> int:
    """``mask`` with the second deck's copy of each of its cards added.

    >>> cards_of(twin_mask(bit(card("AS"))))
    [12, 64]
    """
    return mask | (mask & FULL_DECK) << TWIN


def fold(mask: int) -> int:
    """The cards of ``mask`` by face, whichever deck they come from (a 52-bit mask).

    >>> fold(bit(card("AS") + TWIN)) == bit(card("AS"))
    True
    """
    return (mask | mask >> TWIN) & FULL_DECK


TWIN_SUIT_MASKS = tuple(twin_mask(m) for m in SUIT_MASKS)
"""The cards of each suit in both decks."""


def parse_rank(text: str) -> int:
    """A rank index from its letter; ``10`` and lower case are accepted.

    >>> parse_rank("T"), parse_rank("10"), parse_rank("a")
    (8, 8, 12)
    """
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANKS:
        raise NotationError(N_("{found} is not a rank: use one of 2 3 4 5 6 7 8 9 T J Q K A", found=repr(text)))
    return RANKS.index(t)


def parse_suit(text: str) -> int:
    """A suit index from its letter (S, H, D, C) or symbol.

    >>> parse_suit("h"), parse_suit("♣")
    (1, 3)
    """
    t = text.strip().upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    if len(t) == 1 and t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    raise NotationError(N_("{found} is not a suit: use one of S H D C", found=repr(text)))


def card(text: str) -> int:
    """Parse a card written rank then suit (``QS``, ``10h``, ``th``).

    >>> card("10h") == card("TH") == make_card(HEARTS, TEN)
    True
    """
    t = text.strip()
    if len(t) >= 2:
        try:
            return make_card(parse_suit(t[-1]), parse_rank(t[:-1]))
        except NotationError:
            pass
    raise NotationError(N_("{found} is not a card: write rank then suit, e.g. QS, TH, 2C", found=repr(text)))


CARD_NAMES = tuple(RANKS[c % 13] + SUITS[c // 13 % 4] for c in range(104))
"""The record notation of every card of both decks (cards 0 to 103), by card: ``CARD_NAMES[card]``
is ``card_name(card)`` (a lookup, for code that names many cards at once)."""


def card_name(card: int) -> str:
    """The record notation of a card (0 to 103): rank letter then suit letter (both decks'
    copies of a card share it).

    >>> card_name(card("QS")), card_name(card("QS") + TWIN), card_name(card("2C"))
    ('QS', 'QS', '2C')
    """
    return CARD_NAMES[card]


def card_symbol(card: int) -> str:
    """A card for people, with its suit symbol: ``Q♠``."""
    return RANKS[card % 13] + SUIT_SYMBOLS[card // 13 % 4]


def bit(card: int) -> int:
    """The one-card mask of ``card``."""
    return 1 << card


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in ascending order (suit S H D C, then rank low to high).

    >>> [card_name(c) for c in cards_of(bit(card("2C")) | bit(card("AS")))]
    ['AS', '2C']
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def highest(mask: int) -> int:
    """The highest card of a non-empty mask (within a suit: the highest rank)."""
    return mask.bit_length() - 1


def rank_mask(rank: int) -> int:
    """The four cards of one rank."""
    return sum(1 << make_card(s, rank) for s in range(4))


def pbn(mask: int) -> str:
    """A hand in PBN order: S.H.D.C, ranks high to low, empty suits empty. A card held
    from both decks is written twice.

    >>> pbn(mask_of([card("AS"), card("2S"), card("TD")]))
    'A2..T.'
    >>> pbn(twin_mask(bit(card("AS"))) | bit(card("2S")))
    'AA2...'
    """
    second = mask >> TWIN
    if not second:  # one deck: each suit's text from two small tables
        return ".".join(
            _HIGH_TEXT[bits >> 6] + _LOW_TEXT[bits & 63]
            for bits in (
                mask & SUIT_MASK_13,
                mask >> 13 & SUIT_MASK_13,
                mask >> 26 & SUIT_MASK_13,
                mask >> 39 & SUIT_MASK_13,
            )
        )
    parts = []
    for s in range(4):
        bits = (mask >> (13 * s)) & SUIT_MASK_13
        twins = (second >> (13 * s)) & SUIT_MASK_13
        parts.append("".join(RANKS[r] * ((bits >> r & 1) + (twins >> r & 1)) for r in range(12, -1, -1)))
    return ".".join(parts)


_HIGH_TEXT = tuple("".join(RANKS[r + 6] for r in range(6, -1, -1) if bits >> r & 1) for bits in range(128))
"""The ranks 8 to A of a suit's 13 bits shifted down by 6, high to low."""
_LOW_TEXT = tuple("".join(RANKS[r] for r in range(5, -1, -1) if bits >> r & 1) for bits in range(64))
"""The ranks 2 to 7 of a suit's low 6 bits, high to low."""


def parse_pbn(text: str, taken: int | None = None) -> int:
    """A mask from a PBN hand (``AK32.QJ5.T98.876``); lower case and ``10`` accepted.

    With ``taken`` (two decks: the cards already dealt to other seats), a card may be
    written twice and each one is the first deck's copy unless that one is in ``taken``
    or already in this hand, then the second deck's.

    >>> pbn(parse_pbn("ak10..2.")) == "AKT..2."
    True
    >>> cards_of(parse_pbn("AA...", taken=0)), cards_of(parse_pbn("A...", taken=bit(12)))
    ([12, 64], [64])
    """
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise NotationError(
            N_(
                "{found} is not a hand: write four suits S.H.D.C separated by dots, e.g. AK32.QJ5.T98.876",
                found=repr(text),
            )
        )
    mask = 0
    for s, part in enumerate(parts):
        ranks = part.upper().replace("10", "T")
        for ch in ranks:
            if ch not in RANKS:
                raise NotationError(N_("{found} is not a hand: {rank} is not a rank", found=repr(text), rank=repr(ch)))
            b = 1 << make_card(s, RANKS.index(ch))
            if taken is not None and (mask | taken) & b:
                b <<= TWIN
            if mask & b or (taken is not None and taken & b):
                twice = N_("{found} is not a hand: {card} appears twice", found=repr(text), card=ch + SUITS[s])
                thrice = N_("{found} is not a hand: {card} appears three times", found=repr(text), card=ch + SUITS[s])
                raise NotationError(thrice if taken is not None else twice)
            mask |= b
    return mask


class CardSet:
    """An immutable set of cards backed by a 52-bit mask.

    Iteration yields cards in ascending order (suit S H D C, rank low to high);
    ``str`` gives the PBN hand and ``repr`` an expression you can paste back.

    >>> a = CardSet.parse("AS KS 2H")
    >>> b = CardSet.parse("KS 3C")
    >>> a | b, a & b, a - b
    (CardSet.from_pbn('AK.2..3'), CardSet.from_pbn('K...'), CardSet.from_pbn('A.2..'))
    """

    __slots__ = ("mask",)

    def __init__(self, mask: int = 0) -> None:
        if mask < 0 or mask >> 52:
            raise ValueError("a card mask holds bits 0 to 51 only")
        self.mask = mask

    @classmethod
    def from_pbn(cls, text: str) -> CardSet:
        """Read a PBN hand."""
        return cls(parse_pbn(text))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read cards separated by spaces or commas (``"QS TH 2c"``)."""
        return cls(mask_of(card(t) for t in text.replace(",", " ").split()))

    @classmethod
    def of(cls, cards: Iterable[int]) -> CardSet:
        """The set holding ``cards`` (card ints)."""
        return cls(mask_of(cards))

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~other.mask)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ other.mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __str__(self) -> str:
        return pbn(self.mask)

    def __repr__(self) -> str:
        return f"CardSet.from_pbn({pbn(self.mask)!r})"

    def names(self) -> list[str]:
        """Record notation of each card, in ascending order."""
        return [card_name(c) for c in cards_of(self.mask)]

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])
