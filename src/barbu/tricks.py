"""Trick play (RULES.md §2.9.1-2.9.2) on compact state.

:class:`TrickPlay` holds the hands as masks and applies cards without checks: it is
the fast door for bots and simulation. :meth:`TrickPlay.legal_for` is the one place
that says which cards are legal and :meth:`TrickPlay.taker` the one that says who
wins a trick; the checked door (:mod:`barbu.deal`) and the endgame solver
(:mod:`barbu.bots.endgame`) ask them too, so every door shares the same rule code.

The rules of one deal's trick play are one immutable :class:`TrickRules`, built once
per deal (:meth:`TrickRules.of`) and shared by every copy of the play.

>>> from barbu.cards import parse_pbn, pbn, card
>>> hands = [parse_pbn(h) for h in ("A2.AK..5", "K3.Q2..6", "Q4.J3..7", "J5.T4..8")]
>>> t = TrickPlay(hands, leader=0, rules=TrickRules(heart_lead="strict"))
>>> pbn(t.legal_mask())              # hearts may not be led while others are held
'A2...5'
>>> for c in ("AS", "KS", "QS", "JS"):
...     t.play(card(c))
>>> t.winners, t.turn
([0], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Self

from barbu.accel import trick_core
from barbu.cards import FULL_DECK, HEARTS, SUIT_MASKS, TWIN, TWIN_DECK, TWIN_SUIT_MASKS, cards_of, rank_mask, twin_mask
from barbu.contracts import Contract, TrickResult

if TYPE_CHECKING:
    from barbu.rulesets import Rules

HEART_MASK = SUIT_MASKS[HEARTS]
_RANKS_FROM = tuple(twin_mask(sum(rank_mask(r) for r in range(low, 13))) for low in range(14))
"""Per rank ``low`` (0-13), the cards of both decks whose rank is ``low`` or higher."""
_RANKS_BELOW = tuple(TWIN_DECK & ~m for m in _RANKS_FROM)
"""Per rank ``high`` (0-13), the cards of both decks whose rank is under ``high``."""


@dataclass(frozen=True, slots=True)
class TrickRules:
    """How the cards of one trick deal may be played (RULES.md §2.9.1-2.9.2).

    ``trump`` is the trump suit (0-3) or None; ``direction`` +1 clockwise, -1
    anticlockwise; ``heart_lead`` the heart-lead rule in force (``strict``, ``broken``,
    or ``free`` where the contract has none); ``penalty`` the penalty cards a seat must
    play when it can (``forced_penalty``; 0 for none); ``early_end`` the cards whose
    capture ends the deal (0 for none); the three trump flags as RULES.md §6 names them.

    >>> from barbu.rulesets import rules
    >>> r = rules("king")
    >>> TrickRules.of(r, r.contract("king-no-hearts"), None).heart_lead
    'broken'
    >>> TrickRules.of(r, r.contract("king-trumps"), 2).undertrump_required
    True
    """

    trump: int | None = None
    direction: int = 1
    heart_lead: str = "free"
    penalty: int = 0
    early_end: int = 0
    must_trump_when_void: bool = True
    overtrump_required: bool = True
    undertrump_required: bool = False
    twin: bool = False
    """Two decks: a card and its copy are equal, and of equal cards the last played wins
    (:class:`TwinTrickPlay`)."""
    suits: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The cards of the suit of card ``c`` are ``suits[c // 13]`` (with two decks, both
    copies of the suit, whichever deck ``c`` comes from); set from :attr:`twin`."""
    equal_beats: int = field(init=False, repr=False, compare=False)
    """1 where a card of the rank of the best card so far beats it (two decks: of equal cards
    the last played wins), 0 where it must be higher (one deck); set from :attr:`twin`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "suits", TWIN_SUIT_MASKS * 2 if self.twin else SUIT_MASKS)
        object.__setattr__(self, "equal_beats", int(self.twin))

    @classmethod
    def of(cls, rules: Rules, contract: Contract, trump: int | None) -> TrickRules:
        """The trick rules of a deal of ``contract`` under ``rules`` (``trump`` is used
        only where the contract names one)."""
        flags = rules.flags
        penalty = contract.penalty_cards(rules.deck)
        return cls(
            trump=trump if contract.names_trump else None,
            direction=rules.direction,
            heart_lead=flags.heart_lead if contract.heart_lead_rule else "free",
            penalty=penalty if flags.forced_penalty else 0,
            early_end=penalty if (contract.ends_early and flags.early_end) else 0,
            must_trump_when_void=flags.must_trump_when_void,
            overtrump_required=flags.overtrump_required,
            undertrump_required=flags.undertrump_required,
            twin=rules.twin,
        )


class _TrickFacts:
    """The rule code of trick play, shared by the pure and the compiled state: who may
    play what (:meth:`legal_for`) and who takes a trick (:meth:`taker`)."""

    __slots__ = ()

    if TYPE_CHECKING:
        hands: list[int]
        players: int
        rules: TrickRules
        tricks_total: int
        leader: int
        turn: int
        trick: list[int]
        captured: list[int]
        winners: list[int]
        played: int
        finished: bool

    @property
    def trump(self) -> int | None:
        """The trump suit (0-3), or None."""
        return self.rules.trump

    @property
    def direction(self) -> int:
        """+1 for clockwise play, -1 for anticlockwise."""
        return self.rules.direction

    def legal_for(self, hand: int, trick: Sequence[int], played: int) -> int:
        """The cards of ``hand`` that may be played to ``trick`` (the cards so far, in
        order) after the tricks of ``played`` (RULES.md §2.9.1), under this deal's rules.

        :meth:`legal_mask` asks it for the seat to act; the endgame solver asks it for
        positions it keeps itself, so both read the same rule code. It serves one deck and
        two: ranks are read as ``card % 13`` and suits from :attr:`TrickRules.suits`,
        whichever deck a card comes from.
        """
        rules = self.rules
        if not trick:
            heart_lead = rules.heart_lead
            if heart_lead != "free":
                hearts = rules.suits[HEARTS]
                others = hand & ~hearts
                if others and not (heart_lead == "broken" and played & hearts):
                    return others
            return hand
        suits = rules.suits
        led_mask = suits[trick[0] // 13]
        follow = hand & led_mask
        trump = rules.trump
        if trump is None:
            penalty = rules.penalty
            if penalty:
                if follow:
                    high = 0
                    for c in trick:
                        if (1 << c) & led_mask:
                            rank = c % 13
                            if rank > high:
                                high = rank
                    # a penalty card that does not take the trick, if the seat has one
                    forced = follow & penalty & _RANKS_BELOW[high]
                    return forced or follow
                return (hand & penalty) or hand
            return follow or hand
        trump_mask = suits[trump]
        top = -1
        for c in trick:
            if (1 << c) & trump_mask:
                rank = c % 13
                if rank > top:
                    top = rank
        if led_mask == trump_mask:
            if not follow:
                return hand
            higher = follow & _RANKS_FROM[top + 1 - rules.equal_beats]
            return higher if (rules.overtrump_required and higher) else follow
        if follow:
            return follow
        mine = hand & trump_mask
        if not mine:
            return hand
        if top < 0:
            return mine if rules.must_trump_when_void else hand
        if rules.overtrump_required:
            higher = mine & _RANKS_FROM[top + 1 - rules.equal_beats]
            if higher:
                return higher
        return mine if rules.undertrump_required else hand

    def taker(self, trick: Sequence[int], trick_mask: int, leader: int) -> int:
        """The seat that wins the full ``trick`` (cards in order, ``trick_mask`` their mask)
        led by ``leader``: the highest trump, else the highest card of the suit led; of
        equal cards (two decks), the one played last."""
        rules = self.rules
        trump = rules.trump
        suits = rules.suits
        if trump is not None and trick_mask & suits[trump]:
            best = trick_mask & suits[trump]
        else:
            best = trick_mask & suits[trick[0] // 13]
        top = best.bit_length() - 1
        if top >= TWIN:  # two decks: the best rank may be in either deck, and of equal cards the last played wins
            face = max((best & FULL_DECK).bit_length() - 1, top - TWIN)
            at = max(trick.index(c) for c in (face, face + TWIN) if best >> c & 1)
        else:
            at = trick.index(top)
        return (leader + rules.direction * at) % self.players

    def trick_seats(self) -> list[int]:
        """The seats that played the cards of the current trick, in order."""
        direction = self.rules.direction
        return [(self.leader + direction * i) % self.players for i in range(len(self.trick))]

    def result(self) -> TrickResult:
        """Captured cards and trick winners so far."""
        return TrickResult(captured=tuple(self.captured), winners=tuple(self.winners))


class PureTrickPlay(_TrickFacts):
    """The pure-Python state of :class:`TrickPlay`: the reference the compiled state
    (``barbu._native.TrickCore``) is tested against, and the one used without it."""

    _cards = FULL_DECK.bit_length()
    """The cards of the deck are numbered from 0 to this, excluded."""

    __slots__ = (
        "_legal",
        "captured",
        "finished",
        "hands",
        "leader",
        "played",
        "players",
        "rules",
        "trick",
        "tricks_total",
        "turn",
        "winners",
    )

    def __init__(self, hands: list[int], leader: int, rules: TrickRules) -> None:
        self.hands = list(hands)
        self.players = len(hands)
        self.rules = rules
        self.tricks_total = hands[0].bit_count()
        self.leader = leader
        self.turn = leader
        self.trick: list[int] = []
        self.captured = [0] * self.players
        self.winners: list[int] = []
        self.played = 0
        self.finished = False
        self._legal = -1

    def copy(self) -> Self:
        """An independent copy, cheap enough for search."""
        other = type(self).__new__(type(self))
        # Every slot, spelled out: several times faster than a loop over __slots__.
        other._legal = self._legal
        other.captured = list(self.captured)
        other.finished = self.finished
        other.hands = list(self.hands)
        other.leader = self.leader
        other.played = self.played
        other.players = self.players
        other.rules = self.rules
        other.trick = list(self.trick)
        other.tricks_total = self.tricks_total
        other.turn = self.turn
        other.winners = list(self.winners)
        return other

    def set_hands(self, hands: Sequence[int]) -> None:
        """Give the seats other cards, as many each as they hold now (a what-if deal of
        the unseen cards under the same public play); unchecked."""
        self.hands = list(hands)
        self._legal = -1

    def legal_mask(self) -> int:
        """The mask of the cards the seat to act may play (RULES.md §2.9.1)."""
        if self._legal < 0:
            self._legal = self.legal_for(self.hands[self.turn], self.trick, self.played)
        return self._legal

    def legal_cards(self) -> list[int]:
        """The cards of :meth:`legal_mask`, ascending."""
        return cards_of(self.legal_mask())

    def play_logged(self, card: object, seat: object, cards: list[int | None], seats: list[int]) -> int | None:
        """The checked door's card: if ``card`` is a legal card of the seat to act (and
        ``seat`` is None or that seat), log it to ``cards`` and the seat to ``seats``, play it
        and return the seat; otherwise change nothing and return None.

        >>> from barbu.cards import parse_pbn, card
        >>> t = PureTrickPlay([parse_pbn(h) for h in ("A2...", "K3...")], leader=0, rules=TrickRules())
        >>> cards, seats = [], []
        >>> t.play_logged(card("AS"), 1, cards, seats), t.play_logged(card("AS"), 0, cards, seats)
        (None, 0)
        >>> cards, seats, t.turn
        ([12], [0], 1)
        """
        turn = self.turn
        if (
            (seat is None or seat == turn)
            and type(card) is int
            and 0 <= card < self._cards
            and self.legal_mask() >> card & 1
        ):
            cards.append(card)
            seats.append(turn)
            self.play(card)
            return turn
        return None

    def play_next(self, card: int) -> int:
        """The fast door's one call per card: :meth:`play` ``card``, then the next
        :meth:`legal_mask`, or -1 once the play is over."""
        self.play(card)
        return -1 if self.finished else self.legal_mask()

    def play_tail(self, card: object, tail: list[tuple[int, int]], pending: list[int]) -> int | None:
        """A card applied to OpenSpiel's state from Python (:mod:`barbu.research.openspiel_game`)
        in one call: if ``card`` is a legal card of the seat to act, append the seat and the card
        to ``tail`` and the card to ``pending``, play it and return the next seat to act, or -1
        once the play is over; otherwise change nothing and return None.

        >>> from barbu.cards import parse_pbn, card
        >>> t = PureTrickPlay([parse_pbn(h) for h in ("A2...", "K3...")], leader=0, rules=TrickRules())
        >>> tail, pending = [], []
        >>> t.play_tail(card("KS"), tail, pending), t.play_tail(card("AS"), tail, pending)
        (None, 1)
        >>> tail, pending
        ([(0, 12)], [12])
        """
        if type(card) is int and 0 <= card < self._cards and self.legal_mask() >> card & 1:
            tail.append((self.turn, card))
            pending.append(card)
            self.play(card)
            return -1 if self.finished else self.turn
        return None

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to act, unchecked."""
        self._legal = -1
        seat = self.turn
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        trick.append(card)
        if len(trick) < self.players:
            self.turn = (seat + self.rules.direction) % self.players
            return
        trick_mask = 0
        for c in trick:
            trick_mask |= 1 << c
        winner = self.taker(trick, trick_mask, self.leader)
        self.captured[winner] |= trick_mask
        self.played |= trick_mask
        self.winners.append(winner)
        self.trick = []
        self.leader = self.turn = winner
        early_end = self.rules.early_end
        if len(self.winners) == self.tricks_total or (early_end and self.played & early_end == early_end):
            self.finished = True


if TYPE_CHECKING:
    _State = PureTrickPlay
else:
    _core = trick_core()
    if _core is None:
        _State = PureTrickPlay
    else:

        class CompiledTrickPlay(_TrickFacts, _core):
            """:class:`PureTrickPlay`'s fields in compiled code; pickled and deep-copied by its fields."""

            __slots__ = ()

            def __getstate__(self):
                return {name: getattr(self, name) for name in PureTrickPlay.__slots__}

            def __setstate__(self, state):
                for name in ("players", *PureTrickPlay.__slots__):
                    setattr(self, name, state[name])

        _State = CompiledTrickPlay


class TrickPlay(_State):
    """The card play of one trick deal under its :class:`TrickRules`.

    Its state and hot path (:meth:`legal_mask`, :meth:`play`, :meth:`copy`) are compiled
    when the accelerator is in use (see docs/native.md), so that each card played from
    Python is one call; otherwise, and with ``BARBU_PURE=1``, they are those of
    :class:`PureTrickPlay`. Both give identical results (``tests/test_native.py``).
    """

    __slots__ = ()


if TYPE_CHECKING:
    _TwinBase = TrickPlay
else:
    _TwinBase = PureTrickPlay


class TwinTrickPlay(_TwinBase):
    """Trick play with two decks (``french-two-decks``, RULES.md §4.9): card ``c`` and
    its copy ``c + 52`` are the same card, so suits are read from both halves of a mask,
    and of equal cards the one played last wins the trick (it also beats: a card of the
    same rank as the best one so far counts as higher). Always pure Python: the compiled
    state holds one deck (docs/native.md).

    >>> from barbu.cards import card, TWIN
    >>> hands = [1 << card("KH"), 1 << card("AH"), 1 << (card("AH") + TWIN), 1 << card("2H")]
    >>> t = TwinTrickPlay(hands, leader=0, rules=TrickRules(twin=True))
    >>> for c in (card("KH"), card("AH"), card("AH") + TWIN, card("2H")):
    ...     t.play(c)
    >>> t.winners   # two aces of hearts: the second one played takes the trick
    [2]
    """

    __slots__ = ()

    _cards = TWIN_DECK.bit_length()


def trick_play(hands: list[int], leader: int, rules: TrickRules) -> TrickPlay:
    """The trick play of a deal: a :class:`TrickPlay`, or with two decks a
    :class:`TwinTrickPlay` (always pure: the compiled state holds one deck)."""
    if rules.twin:
        return TwinTrickPlay(hands, leader, rules)
    return TrickPlay(hands, leader, rules)
