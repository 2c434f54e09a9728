"""Domino (Fan Tan), RULES.md §2.9.3 and §5, on compact state.

Rows grow from the starting rank ``R`` one card at a time in each suit, without
wrap-around. Cards removed from the deck count as already laid under
``removed_card_rule: "laid"``. The first ``n - 1`` players out take the placings in
order; the last one takes the last placing.

>>> from barbu.cards import parse_pbn, pbn, card, SEVEN
>>> hands = [parse_pbn(h) for h in ("7...", "8...", "6...", "9...")]
>>> d = DominoPlay([h | parse_pbn("..2.") if i else h for i, h in enumerate(hands)],
...                leader=0, rank=SEVEN)
>>> pbn(d.legal_mask())
'7...'
>>> d.play(card("7S")); d.order, d.turn
([0], 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from barbu.accel import domino_core
from barbu.cards import ACE


class _DominoRows:
    """The rows of a domino play, read from its laid cards: shared by the pure and the
    compiled state."""

    __slots__ = ()

    if TYPE_CHECKING:
        hands: list[int]
        players: int
        direction: int
        rank: int | None
        low_rank: int
        removed: int
        laid: int
        ace_replays: bool
        turn: int
        order: list[int]
        finished: bool
        _playable: int

    def _row(self, suit: int, half: int = 0) -> tuple[int, int] | None:
        """The ranks ``(lo, hi)`` of the row of ``suit`` (with two decks, of the second
        deck's row when ``half`` is 1), or None if it is not started."""
        r = self.rank
        bits = (self.laid >> (52 * half + 13 * suit)) & 0x1FFF
        if r is None or not bits >> r & 1:
            return None
        # The run of laid ranks through r: down to the highest gap below it (not below
        # low_rank), up to the lowest gap above it (bit 13 is always a gap: no wrap-around).
        lo = max((~bits & ((1 << r) - 1)).bit_length(), min(self.low_rank, r))
        gaps_above = ~bits >> (r + 1)
        hi = r + (gaps_above & -gaps_above).bit_length() - 1
        return (lo, hi)

    def _row_ends(self, suit: int, half: int = 0) -> int:
        """The cards (of the first deck) that can be laid next on the row of ``suit``
        (``half`` as for :meth:`_row`): the starting rank while the row is not started, else
        the rank below it (not below ``low_rank``) and the rank above it (not above the ace)."""
        row = self._row(suit, half)
        if row is None:
            assert self.rank is not None
            return 1 << (13 * suit + self.rank)
        lo, hi = row
        mask = 0
        if lo - 1 >= self.low_rank:
            mask |= 1 << (13 * suit + lo - 1)
        if hi < ACE:
            mask |= 1 << (13 * suit + hi + 1)
        return mask

    def _ends(self, suit: int) -> int:
        """The cards that can be laid next in ``suit``: with one deck, those of its one row."""
        return self._row_ends(suit)

    def rows(self) -> list[tuple[int, int] | None]:
        """Per suit, the ranks ``(lo, hi)`` of the row (laid or removed), or None if not started."""
        return [self._row(s) for s in range(4)]

    def playable(self) -> int:
        """Every card that could be laid now by anyone (ignoring hands)."""
        return self._playable

    def shown_rows(self) -> list[tuple[int, int] | None]:
        """The rows a seat's view shows: :meth:`rows`, per suit (two decks: eight rows, the
        first deck's S, H, D, C then the second's)."""
        return self.rows()


class PureDominoPlay(_DominoRows):
    """The play of one domino deal.

    ``rank`` is ``R``, or None when the declarer opens with any card
    (``domino_start: "first_card"``) among ``openers`` (all cards unless a rank is
    forbidden, RULES.md §5). ``removed`` holds the cards that count as laid from the
    start (removed cards under the ``laid`` rule).

    Its pure-Python state is the reference the compiled one (``barbu._native.DominoCore``)
    is tested against, and the one used without it; :class:`DominoPlay` is one or the other.
    """

    __slots__ = (
        "_playable",
        "ace_replays",
        "direction",
        "finished",
        "hands",
        "laid",
        "low_rank",
        "order",
        "players",
        "rank",
        "removed",
        "turn",
    )

    def __init__(
        self,
        hands: list[int],
        leader: int,
        rank: int | None,
        *,
        direction: int = 1,
        low_rank: int = 0,
        removed: int = 0,
        ace_replays: bool = False,
        openers: int = (1 << 52) - 1,
    ) -> None:
        self.hands = list(hands)
        self.players = len(hands)
        self.direction = direction
        self.rank = rank
        self.low_rank = low_rank
        self.removed = removed
        self.laid = removed
        self.ace_replays = ace_replays
        self.turn = leader
        self.order: list[int] = []
        self.finished = False
        self._playable = openers
        if rank is not None:
            self._start_rows(rank)

    def copy(self) -> Self:
        """An independent copy."""
        other = type(self).__new__(type(self))
        for name in PureDominoPlay.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.order = list(self.order)
        return other

    def set_hands(self, hands: list[int]) -> None:
        """Give the seats other cards, as many each as they hold now (a what-if deal of
        the unseen cards under the same public play); unchecked."""
        self.hands = list(hands)

    def _start_rows(self, rank: int) -> None:
        self.rank = rank
        self._playable = 0
        for s in range(4):
            self._playable |= self._ends(s)

    def legal_mask(self) -> int:
        """The cards the seat to act may lay (0: it must pass)."""
        return self.hands[self.turn] & self._playable

    def play_next(self, card: int | None) -> int:
        """The fast door's one call per lay or pass: :meth:`play` ``card``, then the next
        :meth:`legal_mask`, or -1 once the play is over."""
        self.play(card)
        return -1 if self.finished else self.legal_mask()

    def play_logged(self, card: object, seat: object, cards: list[int | None], seats: list[int]) -> int | None:
        """The checked door's lay or pass: if ``card`` is a card the seat to act may lay, or
        None when it may lay none (a pass), and ``seat`` is None or that seat, log it to
        ``cards`` and the seat to ``seats``, play it and return the seat; otherwise change
        nothing and return None.

        >>> from barbu.cards import parse_pbn, card, SEVEN
        >>> d = PureDominoPlay([parse_pbn(h) for h in ("87...", "2...", "6...")], leader=0, rank=SEVEN)
        >>> cards, seats = [], []
        >>> d.play_logged(None, 0, cards, seats), d.play_logged(card("7S"), 0, cards, seats)
        (None, 0)
        >>> d.play_logged(card("2S"), 1, cards, seats), d.play_logged(None, 1, cards, seats)
        (None, 1)
        >>> cards, seats, d.turn
        ([5, None], [0, 1], 2)
        """
        turn = self.turn
        legal = self.legal_mask()
        if (seat is None or seat == turn) and (
            not legal if card is None else type(card) is int and card >= 0 and legal >> card & 1
        ):
            cards.append(card)  # type: ignore[arg-type]  # None or a card, checked above
            seats.append(turn)
            self.play(card)  # type: ignore[arg-type]
            return turn
        return None

    def play(self, card: int | None) -> None:
        """Lay ``card`` for the seat to act, or pass with None; unchecked."""
        seat = self.turn
        if card is not None:
            self.hands[seat] &= ~(1 << card)
            self._lay(card)
            if not self.hands[seat]:
                self.order.append(seat)
                if len(self.order) == self.players - 1:
                    self.order.append(next(s for s in range(self.players) if s not in self.order))
                    self.finished = True
                    return
            elif self.ace_replays and card % 13 == ACE and self.legal_mask():
                return
        n = self.players
        nxt = (seat + self.direction) % n
        while nxt in self.order:
            nxt = (nxt + self.direction) % n
        self.turn = nxt

    def _lay(self, card: int) -> None:
        """Add ``card`` to its row (the first card starts every row at its rank)."""
        self.laid |= 1 << card
        if self.rank is None:
            self._start_rows(card % 13)
        else:
            suit = card // 13
            self._playable = (self._playable & ~(0x1FFF << (13 * suit))) | self._row_ends(suit)


if TYPE_CHECKING:
    _State = PureDominoPlay
else:
    _core = domino_core()
    if _core is None:
        _State = PureDominoPlay
    else:

        class CompiledDominoPlay(_DominoRows, _core):
            """:class:`PureDominoPlay`'s fields in compiled code; pickled and deep-copied by its fields."""

            __slots__ = ()

            def __getstate__(self):
                return {name: getattr(self, name) for name in PureDominoPlay.__slots__}

            def __setstate__(self, state):
                for name in ("players", *PureDominoPlay.__slots__):
                    setattr(self, name, state[name])

        _State = CompiledDominoPlay


class DominoPlay(_State):
    """The play of one domino deal (see :class:`PureDominoPlay` for its arguments).

    Its state and hot path (:meth:`legal_mask`, :meth:`play`, :meth:`copy`) are compiled
    when the accelerator is in use (see docs/native.md); otherwise, and with
    ``BARBU_PURE=1``, they are those of :class:`PureDominoPlay`. Both give identical
    results (``tests/test_native.py``).
    """

    __slots__ = ()


if TYPE_CHECKING:
    _TwinBase = DominoPlay
else:
    _TwinBase = PureDominoPlay


class TwinDominoPlay(_TwinBase):
    """Domino with two decks (``french-two-decks``, RULES.md §4.9): every suit has two rows,
    one per deck, both from the starting rank. A card and its copy are the same card, so
    a card fits wherever one of them would: it goes to the first row (the first deck's
    bits of :attr:`laid`) if it fits there, else to the second (bits from 52 up). A
    removed card counts as laid in its own deck's row. Always pure Python: the compiled
    state holds one deck (docs/native.md).

    >>> from barbu.cards import card, TWIN
    >>> seven, eight = card("7S"), card("8S")
    >>> d = TwinDominoPlay([1 << seven | 1 << eight, 1 << (seven + TWIN) | 1 << (eight + TWIN)],
    ...                    leader=0, rank=None, openers=(1 << 104) - 1)
    >>> d.play(seven); d.twin_rows()[0], d.twin_rows()[4]
    ((5, 5), None)
    >>> d.legal_mask() == 1 << (seven + TWIN) | 1 << (eight + TWIN)   # the second 7 opens row two
    True
    """

    __slots__ = ()

    def _ends(self, suit: int) -> int:
        """The cards of either deck that can be laid next in ``suit``: a card fits wherever
        its copy would, on either row."""
        faces = self._row_ends(suit, 0) | self._row_ends(suit, 1)
        return faces | faces << 52

    def twin_rows(self) -> list[tuple[int, int] | None]:
        """The rows of the first deck (S, H, D, C), then those of the second."""
        return [self._row(s, half) for half in (0, 1) for s in range(4)]

    def shown_rows(self) -> list[tuple[int, int] | None]:
        """Both decks' rows (:meth:`twin_rows`)."""
        return self.twin_rows()

    def _lay(self, card: int) -> None:
        """Add ``card`` (of either deck) to the first row it fits, else to the second."""
        face = card % 52
        if self.rank is None:
            self.laid |= 1 << face
            self._start_rows(face % 13)
            return
        suit = face // 13
        self.laid |= 1 << face if self._row_ends(suit, 0) >> face & 1 else 1 << (face + 52)
        suit_bits = 0x1FFF << (13 * suit)
        self._playable = (self._playable & ~(suit_bits | suit_bits << 52)) | self._ends(suit)


def domino_play(
    hands: list[int],
    leader: int,
    rank: int | None,
    *,
    twin: bool = False,
    direction: int = 1,
    low_rank: int = 0,
    removed: int = 0,
    ace_replays: bool = False,
    openers: int = (1 << 52) - 1,
) -> DominoPlay:
    """The domino play of a deal: a :class:`DominoPlay`, or with two decks (``twin``) a
    :class:`TwinDominoPlay` (see :class:`PureDominoPlay` for the other arguments)."""
    kind = TwinDominoPlay if twin else DominoPlay
    return kind(
        hands,
        leader,
        rank,
        direction=direction,
        low_rank=low_rank,
        removed=removed,
        ace_replays=ace_replays,
        openers=openers,
    )
