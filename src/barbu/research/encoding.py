"""Numbers for learners: one fixed action space and one observation vector per rule set.

The research adapters (:mod:`barbu.research.env` for PettingZoo, :mod:`barbu.research.openspiel_game` for
OpenSpiel) speak in integers and arrays. This module turns the core's actions into
indexes of one fixed action space (:class:`ActionEncoding`) and a seat's view
(:func:`barbu.view.seat_view`, and nothing else) into a float vector
(:class:`ObservationEncoding`), with a text form that can be rebuilt from the vector.
docs/research.md describes both layouts section by section.

Actions, in this order (a section is empty where the rule set never uses it):

========== ========================= ==============================================
section    size                      meaning of ``offset + i``
========== ========================= ==============================================
card       52                        play or lay card ``i``
pass       1                         a domino pass
contract   contracts of the rule set declare the ``i``-th contract (table order)
trump      4                         name suit ``i`` trumps (S H D C)
rank       13                        name rank ``i`` for domino (2 … A)
call       ``4 ** (players - 1)``    a call, see :meth:`ActionEncoding.call_index`
place      52                        Chinese poker: put card ``i`` in the next row
========== ========================= ==============================================

A call is a pair of seat sets (doubled, redoubled), each a bitmask over the other seats
counted from the caller's left: bit ``k - 1`` stands for the seat ``k`` places to the
caller's left. A 13-card arrangement (72,072 choices) is built by ten ``place`` actions:
five cards for the back row, five for the middle; the three left form the front.

>>> from barbu import Game, Declare, Play, seat_view
>>> game = Game.new("classic", seed=3)
>>> actions = ActionEncoding(game.rules)
>>> actions.size, actions.index(Declare("trumps"), seat=0), actions.index(Play(51), seat=0)
(141, 58, 51)
>>> view = seat_view(game, game.to_act)
>>> mask = actions.mask(view)
>>> [actions.describe(int(i), view.seat) for i in mask.nonzero()[0]][:3]
['no-tricks', 'no-hearts', 'no-queens']
>>> observations = ObservationEncoding(game.rules)
>>> vector = observations.encode(view)
>>> observations.decode(vector) == observations.text(view)
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Any

import numpy as np

from barbu import accel
from barbu.actions import PLAYS, Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.arrangement import Arrangements
from barbu.cards import RANKS, SUITS, card_name, cards_of, mask_of
from barbu.deal import Deal, Phase
from barbu.domino import PureDominoPlay
from barbu.doubling import round_one_order
from barbu.errors import OptionsError
from barbu.rulesets import Rules
from barbu.tricks import PureTrickPlay
from barbu.view import SeatView

PHASES = ("deal", "contract", "trump", "rank", "call", "arrange", "play", "over")
"""The phases an observation names: ``deal`` while the cards are being dealt (OpenSpiel's
chance nodes), then those of the core, and ``over`` at the end of the episode (deal or game)."""

SCORE_BOUND = 1000.0
"""Bound of the score entries of an observation, in score units (far above any real game)."""


@dataclass(frozen=True, slots=True)
class Place:
    """A Chinese-poker sub-action: put ``card`` in the next row of the arrangement being built."""

    card: int

    def __str__(self) -> str:
        return f"place {card_name(self.card)}"


def score_unit(rules: Rules) -> int:
    """The score unit of a rule set: the largest contract total in absolute value (classic: 65).

    Observations hold scores divided by it, so that a deal's scores are about 1.

    >>> from barbu.rulesets import rules
    >>> score_unit(rules("classic")), score_unit(rules("king"))
    (65, 650)
    """
    return max(1, *(abs(rules.total(c)) for c in rules.contracts))


class PartialArrangement:
    """A Chinese-poker arrangement built one :class:`Place` at a time.

    The core accepts every split of the hand (:class:`~barbu.arrangement.Arrangements`),
    so any card not yet placed may go next. Once the back and middle rows are full, the
    cards left form the front row and :meth:`place` returns the finished :class:`Arrange`.

    >>> from barbu.cards import card, parse_pbn
    >>> building = PartialArrangement(parse_pbn("AKQJT.98765.432."))
    >>> [building.place(card(c)) for c in "AS KS QS JS TS 9H 8H 7H 6H".split()].count(None)
    9
    >>> building.place(card("5H"))
    Arrange.parse('AS KS QS JS TS | 9H 8H 7H 6H 5H | 2D 3D 4D')
    """

    __slots__ = ("hand", "placed", "sizes")

    def __init__(self, hand: int, placed: Sequence[int] = ()) -> None:
        self.hand = hand
        self.sizes = Arrangements(hand).row_sizes
        self.placed = list(placed)

    def cards(self) -> list[int]:
        """The cards that may be placed next (the hand's cards not yet placed)."""
        return cards_of(self.hand & ~mask_of(self.placed))

    def place(self, card: int) -> Arrange | None:
        """Place ``card``; the finished arrangement once the last row is determined."""
        if not self.hand >> card & 1 or card in self.placed:
            raise ValueError(f"{card_name(card)} cannot be placed: place one of {_names(self.cards())}")
        self.placed.append(card)
        back, middle, _ = self.sizes
        if len(self.placed) < back + middle:
            return None
        return Arrange((*self.placed, *cards_of(self.hand & ~mask_of(self.placed))))

    def rows(self) -> tuple[list[int], list[int], list[int]]:
        """The cards placed so far, row by row (the front stays empty until the end)."""
        back = self.sizes[0]
        return self.placed[:back], self.placed[back:], []


def one_deck(rules: Rules) -> None:
    """Refuse a rule set with two decks: the encodings give each of 52 cards one place.

    >>> from barbu.rulesets import rules
    >>> one_deck(rules("french-two-decks"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.errors.OptionsError: french-two-decks plays two decks, which the research encodings do not hold ...
    """
    if rules.twin:
        raise OptionsError(
            f"{rules.name} plays two decks, which the research encodings do not hold "
            "(one place per card of one deck): use another rule set"
        )


class ActionEncoding:
    """The fixed action space of a rule set: see the module docstring for the layout."""

    def __init__(self, rules: Rules) -> None:
        one_deck(rules)
        self.rules = rules
        self.players = n = rules.players
        self.contract_ids = tuple(c.id for c in rules.contracts)
        self._contract_index = {cid: i for i, cid in enumerate(self.contract_ids)}
        arranges = any(c.play == "arrange" for c in rules.contracts)
        sizes = (
            ("card", 52),
            ("pass", 1),
            ("contract", len(self.contract_ids)),
            ("trump", 4),
            ("rank", 13),
            ("call", 4 ** (n - 1) if rules.doubling else 0),
            ("place", 52 if arranges else 0),
        )
        self.sections: dict[str, range] = {}
        start = 0
        for name, size in sizes:
            self.sections[name] = range(start, start + size)
            start += size
        self.size = start
        """The number of actions (OpenSpiel's ``num_distinct_actions``)."""
        self.PASS = self.sections["pass"].start
        assert self.PASS == LAY_PASS  # the one-call domino steps (lay_observed) write the pass there
        self._contract = self.sections["contract"].start
        self._trump = self.sections["trump"].start
        self._rank = self.sections["rank"].start
        self._call = self.sections["call"].start
        self._call_indexes: dict[tuple[int, int], tuple[tuple[Call, ...], np.ndarray, dict[int, Call]]] = {}
        """:meth:`call_indexes` and :meth:`listed_call`'s calls by their index, by the listing's
        identity and the seat, with the listing."""
        self._place = self.sections["place"].start

    # -- actions to indexes ------------------------------------------------------

    def call_index(self, doubled: Iterable[int], redoubled: Iterable[int], seat: int) -> int:
        """The index of a call by ``seat`` doubling ``doubled`` and redoubling ``redoubled``.

        >>> from barbu.rulesets import rules
        >>> encoding = ActionEncoding(rules("classic"))
        >>> encoding.call_index([0], [], seat=3) - encoding.sections["call"].start  # seat 0 is seat 3's left
        8
        """
        if not self.sections["call"]:
            raise ValueError(f"{self.rules.name} has no doubling: there are no calls")
        n = self.players
        return self._call + (self._seat_bits(doubled, seat) << (n - 1)) + self._seat_bits(redoubled, seat)

    def _seat_bits(self, seats: Iterable[int], seat: int) -> int:
        bits = 0
        for s in seats:
            k = (s - seat) % self.players
            if k == 0:
                raise ValueError(f"seat {seat} cannot double or redouble itself")
            bits |= 1 << (k - 1)
        return bits

    def index(self, action: Action | Place, seat: int) -> int:
        """The index of ``action`` taken by ``seat``.

        Calls must be explicit lists (as :meth:`barbu.game.Game.legal_actions` gives them);
        an arrangement is not one action but ten :class:`Place` actions.
        """
        kind = type(action)
        if kind is Play:
            assert isinstance(action, Play)
            return action.card
        if kind is Call:
            assert isinstance(action, Call)
            if action.word not in (None, "pass"):
                raise ValueError(f"the call {action.word!r} has no index: give its doubles and redoubles as lists")
            return self.call_index(action.double, action.redouble, seat)
        if kind is Pass:
            return self.PASS
        if kind is Declare:
            assert isinstance(action, Declare)
            if action.contract not in self._contract_index:
                raise ValueError(f"{action.contract!r} is not a contract of {self.rules.name}")
            return self._contract + self._contract_index[action.contract]
        if kind is NameTrump:
            assert isinstance(action, NameTrump)
            return self._trump + action.suit
        if kind is NameRank:
            assert isinstance(action, NameRank)
            return self._rank + action.rank
        if kind is Place:
            assert isinstance(action, Place)
            if not self.sections["place"]:
                raise ValueError(f"{self.rules.name} has no Chinese poker: nothing is placed")
            return self._place + action.card
        raise ValueError(f"{action!r} has no index: Arrange is given as ten Place actions, tallies are not played")

    def call_indexes(self, listed: tuple[Call, ...], seat: int) -> np.ndarray:
        """The indexes of the calls of ``seat``'s listing ``listed``
        (:meth:`barbu.doubling.Doubling.listed_calls`), remembered by the listing's identity (the
        listing is kept here with its indexes, and checked to be the very one: a copied or
        unpickled encoding holds copies under the originals' identities).

        >>> from barbu.rulesets import rules
        >>> from barbu.actions import Call
        >>> encoding = ActionEncoding(rules("classic"))
        >>> encoding.call_indexes((Call(), Call(double=(0,))), 3) - encoding.sections["call"].start
        array([0, 8])
        """
        return self._listed(listed, seat)[1]

    def listed_call(self, listed: tuple[Call, ...], seat: int, index: int) -> Call | None:
        """The call of ``seat``'s listing ``listed`` whose index is ``index``: the listed object
        itself, which the doubling takes without checking it again
        (:meth:`barbu.doubling.Doubling.take_listed`); None when no listed call has that index.

        >>> from barbu.rulesets import rules
        >>> from barbu.actions import Call
        >>> encoding = ActionEncoding(rules("classic"))
        >>> listed = (Call(), Call(double=(0,)))
        >>> start = encoding.sections["call"].start
        >>> encoding.listed_call(listed, 3, start + 8) is listed[1], encoding.listed_call(listed, 3, start + 1)
        (True, None)
        """
        return self._listed(listed, seat)[2].get(index)

    def _listed(self, listed: tuple[Call, ...], seat: int) -> tuple[tuple[Call, ...], np.ndarray, dict[int, Call]]:
        """``listed``'s indexes for ``seat`` and its calls by index, remembered (:meth:`call_indexes`)."""
        key = (id(listed), seat)
        known = self._call_indexes.get(key)
        if known is None or known[0] is not listed:
            by_index = {self.index(c, seat): c for c in listed}
            known = self._call_indexes[key] = (listed, np.array(sorted(by_index), np.intp), by_index)
        return known

    def choice_indexes(self, deal: Deal) -> list[int]:
        """The indexes of the declarer's legal choices in ``deal``'s choice of a contract, trump or
        domino rank: :meth:`indexes` of :meth:`barbu.deal.Deal.legal_actions` there, without the actions.

        >>> from barbu import Game
        >>> game = Game.new("classic", seed=3)
        >>> encoding = ActionEncoding(game.rules)
        >>> encoding.choice_indexes(game.current) == encoding.indexes(game.legal_actions(), game.to_act)
        True
        """
        phase = deal.phase
        if phase is Phase.CONTRACT:
            index = self._contract_index
            return sorted(self._contract + index[c.id] for c in deal.available)
        if phase is Phase.TRUMP:
            return list(range(self._trump, self._trump + 4))
        if phase is Phase.RANK:
            return sorted(self._rank + r for r in self.rules.domino_ranks)
        raise ValueError(f"deal {deal.index + 1} is not at a choice of its declarer: it is at {phase}")

    def indexes(self, legal: Iterable[Action], seat: int) -> list[int]:
        """The indexes of the core's legal actions of ``seat``, ascending."""
        out = [a.card if type(a) is Play else self.index(a, seat) for a in legal]
        out.sort()
        return out

    def mask(self, view: SeatView, placed: Sequence[int] = ()) -> np.ndarray:
        """The action mask (int8, 1 = legal) of a view: all zeros unless the seat is to act.

        In the arrange phase, the seat may place any card of its hand not yet in ``placed``.
        """
        mask = np.zeros(self.size, np.int8)
        if view.seat is None or view.to_act != view.seat:
            return mask
        if view.phase == "arrange":
            if view.hand:
                left = mask_of(view.hand) & ~mask_of(placed)
                mask[[self._place + c for c in cards_of(left)]] = 1
            return mask
        mask[self.indexes(view.legal_actions, view.seat)] = 1
        return mask

    # -- indexes to actions --------------------------------------------------------

    def action(self, index: int, seat: int) -> Action | Place:
        """The action of ``index`` for ``seat`` (the inverse of :meth:`index`)."""
        index = int(index)
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is out of range: actions are 0 to {self.size - 1}")
        if index < 52:
            return PLAYS[index]
        if index == self.PASS:
            return Pass()
        if index < self._trump:
            return Declare(self.contract_ids[index - self._contract])
        if index < self._rank:
            return NameTrump(index - self._trump)
        if index < self._call:
            return NameRank(index - self._rank)
        if index < self._place:
            n = self.players
            code = index - self._call
            doubled, redoubled = code >> (n - 1), code & ((1 << (n - 1)) - 1)
            return Call(double=self._seats(doubled, seat), redouble=self._seats(redoubled, seat))
        return Place(index - self._place)

    def _seats(self, bits: int, seat: int) -> tuple[int, ...]:
        return tuple(sorted((seat + k + 1) % self.players for k in range(self.players - 1) if bits >> k & 1))

    def describe(self, index: int, seat: int) -> str:
        """An action in words (record notation; calls and places say what they are)."""
        action = self.action(index, seat)
        if isinstance(action, Call):
            return f"call {action}"
        if isinstance(action, Place | Pass | Declare):
            return str(action)
        if isinstance(action, NameTrump):
            return f"trumps {SUITS[action.suit]}"
        if isinstance(action, NameRank):
            return f"domino from {RANKS[action.rank]}"
        return str(action)


@dataclass(frozen=True)
class Section:
    """One named part of the observation vector."""

    name: str
    offset: int
    shape: tuple[int, ...]
    high: float
    low: float = 0.0

    @property
    def size(self) -> int:
        """Number of entries."""
        out = 1
        for d in self.shape:
            out *= d
        return out


class _Found:
    """The entries of a vector being written: indexes set to 1, and other values."""

    __slots__ = ("ones", "values")

    def __init__(self) -> None:
        self.ones: list[int] = []
        self.values: list[tuple[int, float]] = []

    def write(self, out: np.ndarray) -> None:
        """Set the entries in ``out``."""
        ones = self.ones
        if ones:
            out[np.fromiter(ones, np.intp, len(ones))] = 1.0
        for i, value in self.values:
            out[i] = value


@dataclass(eq=False)
class _Part:
    """Sections of the vector written together from the same fields of a view."""

    sections: tuple[str, ...]
    write: Callable[[SeatView, Sequence[int], _Found], None]
    spans: tuple[tuple[int, int], ...] = ()


class ObservationBuffer:
    """One seat's observation vector, written from the deal and the game as they change.

    A deal's first observation is written from the deal and the game (:meth:`start_deal`), its
    calls and card play from what changed since the buffer last wrote them (:meth:`update_play`,
    and in a card play :func:`play_observed` and :func:`lay_observed`), so that an agent
    observed at every turn pays for what happened since its last turn, not for the whole deal.
    The moments those writers do not cover (an arrangement being built, the episode's end) are
    written whole from a view (:meth:`update`). The vector is always
    :meth:`ObservationEncoding.encode` of the seat's view, which the tests compare it with.

    >>> from barbu import Game, seat_view
    >>> game = Game.new("classic", seed=3)
    >>> encoding = ObservationEncoding(game.rules)
    >>> buffer = ObservationBuffer(encoding)
    >>> deal, seat = game.current, game.to_act
    >>> buffer.start_deal(deal, seat, GameFacts(encoding).read(game.deals, game.totals))
    >>> bool((buffer.vector == encoding.encode(seat_view(game, seat))).all())
    True
    """

    __slots__ = ("_calls", "encoding", "following", "vector")

    def __init__(self, encoding: ObservationEncoding) -> None:
        self.encoding = encoding
        self.vector = np.zeros(encoding.size, np.float32)
        """The vector last written (read it, do not change it)."""
        self.following: list[Any] = [None, False, 0, 0]
        """The deal in its calls or card play the vector was last written from (:meth:`start_deal`; None:
        none), whether in its card play, and how many plays and complete tricks (or cards laid) it
        held. One list for the buffer's life, changed in place: :func:`play_observed` reads and
        updates it."""
        self._calls = -1
        """How many of the followed deal's calls the vector holds (-1: not known)."""

    def update(self, view: SeatView, placed: Sequence[int] = ()) -> np.ndarray:
        """Write the vector of ``view`` whole (``placed``: its arrangement being built), for the
        moments the deal's writers do not cover; return :attr:`vector`."""
        self.following[0] = None
        self._calls = -1
        self.encoding.encode_into(self.vector, view, placed)
        return self.vector

    def playing(self, deal: Deal) -> bool:
        """Whether :meth:`update_play` may write ``deal``'s view now: the vector was last written
        from this very deal (:meth:`start_deal`), which is still in its calls or has gone straight
        on to its card play."""
        playing = self.following
        if playing[0] is not deal:
            return False
        phase = deal.phase
        return phase is Phase.PLAY or (phase is Phase.CALL and not playing[1])

    def start_play(self, deal: Deal, seat: int) -> None:
        """Bring the buffer, written in ``deal``'s calls, to the start of its card play: the
        public facts and the last calls (:meth:`_write_calls`: in the card play they no longer
        change, but for the seat to act, which the card play's writers write); the plays, the
        captured cards or the domino rows are left to the next :meth:`update_play`, or in a trick
        play to :func:`play_observed`, which write them from the first play."""
        playing = self.following
        assert playing[0] is deal and not playing[1] and deal.phase is Phase.PLAY
        self._write_calls(deal, seat)
        playing[1:] = (True, 0, -1)

    def update_play(self, deal: Deal, seat: int, mask: np.ndarray) -> np.ndarray:
        """Write the vector of ``seat``'s view of ``deal`` (:meth:`playing` must be true), as
        :meth:`ObservationEncoding.encode` would from :func:`~barbu.view.seat_view` but without a
        view. In the
        calls only the public facts and the calls change (written straight from the deal, the
        calls from the first one not yet written: :meth:`_write_calls`); in a card play only
        the seat to act, the hand, the new plays and the cards left change, and the captured
        cards when a trick was completed, or the domino's passes, rows, placings and starting
        rank. In the card play, set ``mask``'s
        entries of the actions ``seat`` may take when it is to act (card ``i`` is action ``i``,
        a domino pass :attr:`ActionEncoding.PASS`); the caller sets those of calls. Written by
        :data:`write_play` (compiled when the accelerator is in use) and :func:`write_lays_pure`."""
        playing = self.following
        assert playing[0] is deal
        start, done = playing[2], playing[3]
        if not playing[1]:  # written in the calls: the public facts again, the calls made since
            if deal.phase is Phase.CALL:
                self._write_calls(deal, seat)
                return self.vector
            self.start_play(deal, seat)
            start, done = 0, -1  # every play, the captured cards or the domino rows
        plays = deal.plays
        t = deal.tricks
        if t is None:
            d = deal.domino
            assert d is not None
            turn = d.turn
            lays = write_lays_pure(
                self.vector,
                mask,
                self.encoding._lay_at,
                seat,
                turn,
                d.hands,
                d.rank,
                d.shown_rows() if len(plays) - plays.count(None) != done else None,
                d.order,
                plays,
                deal.play_seats,
                start,
                max(done, 0),
                d.legal_mask() if turn == seat else -1,
            )
            playing[1:] = (True, len(plays), lays)
            return self.vector
        tricks = len(t.winners)
        turn = t.turn
        write_play(
            self.vector,
            mask,
            self.encoding._play_at,
            seat,
            turn,
            t.hands,
            t.captured if tricks != done else None,
            plays,
            deal.play_seats,
            start,
            t.legal_mask() if turn == seat else 0,
        )
        playing[1:] = (True, len(plays), tricks)
        return self.vector

    def start_deal(self, deal: Deal, seat: int, facts: DealFacts) -> None:
        """Write ``seat``'s vector of a live deal with no play yet made, straight from the deal
        and the game's ``facts`` (:meth:`GameFacts.read`), as :meth:`update`
        writes it from :func:`~barbu.view.seat_view`. Written here: the hand, the cards left and
        the sections of earlier deals and of the game (declared contracts, the declarer's
        doubles, the totals, the previous deal); the rest is zero. In the calls (or a card play
        with cards played) the buffer then follows the deal from its start (:meth:`playing` is
        true), so that :meth:`update_play` writes the public facts, the calls and the plays at
        its next observation. Otherwise the public facts and calls are written now
        (:meth:`_write_calls`): a card play with no card played yet is followed from there (the
        one-call steps of :func:`play_observed` write it), and in the choice of a contract,
        trump or rank the next observation starts again."""
        self._write_game(deal, seat, facts)
        phase = deal.phase
        if phase is Phase.CALL or (phase is Phase.PLAY and deal.cardplay is not None and deal.plays):
            self.following[:] = (deal, False, 0, -1)
            return
        self._write_calls(deal, seat)
        if phase is Phase.PLAY and deal.cardplay is not None:  # no card played yet
            d = deal.domino
            if d is not None:  # rows may show before any lay (removed cards of the named rank)
                at = self.encoding._lay_at
                write_lays_pure(
                    self.vector, _NO_MASK, at, seat, d.turn, d.hands, d.rank, d.shown_rows(), d.order, (), (), 0, 0, -1
                )
            self.following[:] = (deal, True, 0, 0)
        else:
            self.following[0] = None

    def end_deal(self, deal: Deal, seat: int, facts: DealFacts) -> None:
        """Write ``seat``'s vector of the episode's end after ``deal``, its last deal, finished
        after a one-deck card play (tricks or domino), straight from the deal and the game's
        ``facts`` (:meth:`GameFacts.read`, this deal among the finished ones), as
        :meth:`update` writes it from the view of the end: :meth:`start_deal`'s sections, the
        public facts and calls (:meth:`_write_calls`), every play and the captured cards or the
        domino's passes, rows and order (:data:`write_play`, :func:`write_lays_pure`), and no
        seat to act."""
        self._write_game(deal, seat, facts)
        self._write_calls(deal, seat)
        self.following[0] = None
        self._calls = -1
        out = self.vector
        encoding = self.encoding
        t = deal.tricks
        spare = encoding._spare_mask
        if t is not None:
            write_play(
                out, spare, encoding._play_at, seat, seat, t.hands, t.captured, deal.plays, deal.play_seats, 0, 0
            )
        else:
            d = deal.domino
            assert d is not None
            write_lays_pure(
                out,
                spare,
                encoding._lay_at,
                seat,
                seat,
                d.hands,
                d.rank,
                d.shown_rows(),
                d.order,
                deal.plays,
                deal.play_seats,
                0,
                0,
                -1,
            )
        at = encoding._at["to_act"]
        out[at : at + encoding.players] = 0.0

    def _write_game(self, deal: Deal, seat: int, facts: DealFacts) -> None:
        """Zero the vector, then write ``seat``'s hand in ``deal``, the cards left, the game's
        ``facts`` (:meth:`start_deal`) and ``deal``'s contract among the declared ones if it is
        live (:data:`write_game`)."""
        self._calls = -1
        encoding = self.encoding
        contract = deal.contract
        live = contract is not None and not deal.finished  # the live deal's contract, declared too
        write_game(
            self.vector,
            encoding._game_at,
            seat,
            _hands(deal),
            facts.declared,
            deal.declarer if live else -1,
            encoding._contract_index[contract.id] if live else -1,  # type: ignore[union-attr]
            facts.doubles,
            facts.totals,
            facts.previous,
        )

    def _write_calls(self, deal: Deal, seat: int) -> None:
        """Write the public facts of ``deal`` and the calls made since the buffer last wrote them
        (every call if :attr:`_calls` is -1), straight from the deal, as :meth:`update` writes
        them from a view: the calls only grow during a deal's calls, the business pairs and the
        compulsory double are written again (:data:`write_calls`)."""
        encoding = self.encoding
        phase = deal.phase
        to_act = deal.to_act
        contract = deal.contract
        trump = deal.trump
        rank = deal.rank
        doubling = deal.doubling
        self._calls = write_calls(
            self.vector,
            encoding._calls_at,
            seat,
            encoding.players,
            _PHASE_INDEX[phase],
            deal.index,
            -1 if to_act is None else to_act,
            deal.declarer,
            -1 if contract is None else encoding._contract_index[contract.id],
            -1 if trump is None else trump,
            -1 if rank is None else rank,
            None if doubling is None else doubling.calls,
            self._calls,
            () if doubling is None else doubling.pairs(),
            doubling is not None and phase is Phase.CALL and to_act == seat and bool(doubling.must_double(seat)),
        )


def _hands(deal: Deal) -> Sequence[int]:
    """The cards each seat of ``deal`` still holds, as :meth:`Deal.hand` gives them seat by seat."""
    t = deal.tricks
    if t is not None:
        return t.hands
    d = deal.domino
    if d is not None:
        return d.hands
    dealt = deal.dealt
    if dealt is not None and deal.phase is not Phase.DONE:  # no card play yet: the hands dealt
        return dealt
    return [deal.hand(s) for s in range(deal.rules.players)]


@dataclass(frozen=True)
class DealFacts:
    """What every seat's vector shows alike of a game at the start of a deal
    (:meth:`GameFacts.read`), by absolute seat: :meth:`ObservationBuffer.start_deal`
    writes them counted from its seat."""

    declared: tuple[tuple[int, int, int], ...]
    """``(declarer, contract's index, how many times)`` of each contract of the finished deals
    (:meth:`ObservationBuffer.start_deal` adds the live deal's, once declared)."""
    doubles: tuple[int, ...]
    """For each seat, in how many earlier deals of the declarer's set it doubled the declarer
    (empty without doubling)."""
    totals: tuple[float, ...]
    """Each seat's total, in score units."""
    previous: tuple[float, ...]
    """Each seat's final score of the last finished deal, in score units (empty: none yet)."""


class GameFacts:
    """The facts of one game every seat sees alike at the start of its last deal, or at the
    episode's end after it, grown deal by deal: each :meth:`read` adds only the deals finished
    since the last one (a list of deals that no longer starts with the deals already read, as a
    game cut or replaced gives, is read again from its start). For
    :meth:`ObservationBuffer.start_deal` and :meth:`ObservationBuffer.end_deal`: what the view's
    ``declared``, ``history`` and ``totals`` give the vector.

    >>> from barbu import Game
    >>> game = Game.new("classic", seed=3)
    >>> GameFacts(ObservationEncoding(game.rules)).read(game.deals, game.totals).declared
    ()
    """

    __slots__ = ("_counts", "_doubles", "_last", "_read", "encoding")

    def __init__(self, encoding: ObservationEncoding) -> None:
        self.encoding = encoding
        self._clear()

    def _clear(self) -> None:
        """Forget every deal read."""
        self._read = 0
        """How many finished deals of the game's list were added."""
        self._last: Deal | None = None
        """The last of them (the check that a later list still starts with them)."""
        self._counts: dict[tuple[int, int], int] = {}
        """How many finished deals each ``(declarer, contract's index)`` has."""
        n = self.encoding.players
        self._doubles = [[0] * n for _ in range(n)]
        """For each declarer, how many of its finished deals each seat doubled it in."""

    def read(self, deals: Sequence[Deal], totals: Sequence[int]) -> DealFacts:
        """The facts at the start of ``deals[-1]``, or at the episode's end after it (``totals``: the game's)."""
        encoding = self.encoding
        done = self._read
        last = self._last
        if done > len(deals) or (last is not None and deals[done - 1] is not last):
            self._clear()
            done = 0
        counts = self._counts
        index = encoding._contract_index
        doubling = encoding.rules.doubling
        while done < len(deals) and deals[done].finished:
            d = deals[done]
            assert d.contract is not None
            key = (d.declarer, index[d.contract.id])
            counts[key] = counts.get(key, 0) + 1
            if doubling:
                row = self._doubles[d.declarer]
                for pair in d.pairs():
                    if pair.doubled == d.declarer:
                        row[pair.doubler] += 1
            done += 1
            self._last = d
        self._read = done
        unit = encoding.unit
        declared = tuple((declarer, contract, count) for (declarer, contract), count in counts.items())
        doubles = tuple(self._doubles[deals[-1].declarer]) if doubling else ()
        previous: tuple[float, ...] = ()
        if done:
            assert self._last is not None and self._last.final is not None
            previous = tuple(f / unit for f in self._last.final)
        return DealFacts(declared, doubles, tuple(t / unit for t in totals), previous)


_PHASE_INDEX = {phase: PHASES.index(str(phase)) for phase in Phase if str(phase) in PHASES}
_PHASE_INDEX[Phase.DONE] = PHASES.index("over")
"""Each live phase's entry in the ``phase`` section, and ``over`` for a finished deal (observed
only at the episode's end: :meth:`ObservationBuffer.end_deal`)."""


def write_game_pure(
    out: np.ndarray,
    at: tuple[int, int, int, int, int, int, int],
    me: int,
    hands: Sequence[int],
    declared: Sequence[tuple[int, int, int]],
    live_declarer: int,
    live_contract: int,
    doubles: Sequence[int],
    totals: Sequence[float],
    previous: Sequence[float],
) -> None:
    """Seat ``me``'s vector ``out`` at a deal's start or the episode's end, as far as the deal's
    hands and the game's facts (:class:`DealFacts`) give it (:meth:`ObservationBuffer.start_deal`):
    zeroed, then the hand (``hands[me]``), the cards left (``hands``' sizes), the ``declared``
    contracts (``(declarer, contract's index, count)``) with the live deal's (``live_declarer``,
    ``live_contract``; -1: none) added, the declarer's ``doubles``, the ``totals`` and the
    ``previous`` deal's finals (empty: none). ``at`` holds the offsets of the sections ``hand``,
    ``cards_left``, ``declared``, the number of contracts, then ``declarer_doubles`` (-1: no
    doubling), ``totals`` and ``previous_deal``. The reference of the compiled ``write_game``
    (``tests/test_native_batch.py``)."""
    hand, left, declared_at, width, doubles_at, totals_at, previous_at = at
    n = len(hands)
    out.fill(0.0)
    ones = [hand + c for c in cards_of(hands[me])]
    for s in range(n):
        out[left + (s - me) % n] = hands[s].bit_count()
    for declarer, contract, count in declared:
        out[declared_at + ((declarer - me) % n) * width + contract] = count
    if live_declarer >= 0:
        out[declared_at + ((live_declarer - me) % n) * width + live_contract] += 1.0
    for s, count in enumerate(doubles):
        out[doubles_at + (s - me) % n] = count
    for s, total in enumerate(totals):
        out[totals_at + (s - me) % n] = total
    if previous:
        ones.append(previous_at)
        for s, final in enumerate(previous):
            out[previous_at + 1 + (s - me) % n] = final
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0


write_game: Callable[..., None] = accel.game_writer() or write_game_pure
""":func:`write_game_pure`, compiled when the accelerator is in use."""


def write_calls_pure(
    out: np.ndarray,
    at: tuple[int, ...],
    me: int,
    n: int,
    phase: int,
    index: int,
    to_act: int,
    declarer: int,
    contract: int,
    trump: int,
    rank: int,
    calls: Sequence[tuple[int, int, object, Sequence[int], Sequence[int]]] | None,
    start: int,
    pairs: Sequence[tuple[int, int, int]],
    must: bool,
) -> int:
    """A deal's public facts and calls in seat ``me``'s vector ``out`` (``n`` seats), as
    :meth:`ObservationBuffer.update_play` writes them in the calls; return how many calls the
    vector holds (-1 without doubling). The public facts (the sections before the hand) are
    written again: the entry ``phase`` of the phase section, the deal ``index``, the seat to act
    ``to_act``, the ``declarer``, the ``contract``'s index, the ``trump`` and the domino ``rank``
    (-1: none). With doubling (``calls`` not None: the doubling's spoken calls), the calls from
    the ``start``-th on are added (-1: every call, the calls' sections zeroed first), the
    business ``pairs`` and the compulsory double (``must``) written again. ``at`` holds the
    offsets of the sections ``hand``, ``seat``, ``phase``, ``deal``, ``to_act``, ``declarer``,
    ``contract``, ``trump``, ``rank``, ``calls_round1``, ``calls_round2``, ``pairs`` and
    ``must_double`` (the last four consecutive; -1 without doubling). The reference of the
    compiled ``write_calls`` (``tests/test_native_batch.py``)."""
    hand, seat_at, phase_at, deal_at, to_act_at, declarer_at, contract_at, trump_at, rank_at = at[:9]
    round1, round2, pairs_at, must_at = at[9:]
    out[:hand] = 0.0
    ones = [seat_at + me, phase_at + phase, deal_at + index]
    if to_act >= 0:
        ones.append(to_act_at + (to_act - me) % n)
    ones.append(declarer_at + (declarer - me) % n)
    if contract >= 0:
        ones.append(contract_at + contract)
    if trump >= 0:
        ones.append(trump_at + trump)
    if rank >= 0:
        ones.append(rank_at + rank)
    written = -1
    if calls is not None:
        if start < 0:
            out[round1 : must_at + 1] = 0.0
            start = 0
        else:
            out[pairs_at : pairs_at + n * n] = 0.0
        w1, w2 = 1 + 2 * n, 1 + n
        for caller, rnd, _, doubled, redoubled in calls[start:]:
            rel = (caller - me) % n
            if rnd == 1:
                base = round1 + rel * w1
                ones.append(base)
                ones += [base + 1 + (t - me) % n for t in doubled]
                ones += [base + 1 + n + (t - me) % n for t in redoubled]
            else:
                base = round2 + rel * w2
                ones.append(base)
                ones += [base + 1 + (t - me) % n for t in redoubled]
        for doubler, doubled_seat, multiplier in pairs:
            out[pairs_at + ((doubler - me) % n) * n + (doubled_seat - me) % n] = multiplier
        out[must_at] = 1.0 if must else 0.0
        written = len(calls)
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    return written


write_calls: Callable[..., int] = accel.calls_writer() or write_calls_pure
""":func:`write_calls_pure`, compiled when the accelerator is in use."""


def write_play_pure(
    out: np.ndarray,
    mask: np.ndarray,
    at: tuple[int, int, int, int, int],
    me: int,
    turn: int,
    hands: Sequence[int],
    captured: Sequence[int] | None,
    plays: Sequence[int | None],
    seats: Sequence[int],
    start: int,
    legal: int,
) -> None:
    """What changes in seat ``me``'s vector ``out`` during a trick deal's card play
    (:meth:`ObservationBuffer.update_play`): ``at`` holds the offsets of the sections
    ``to_act``, ``hand``, ``plays``, ``captured`` and ``cards_left``. The seat to act is
    ``turn``, the hands ``hands``; ``captured`` (None: unchanged) the cards each seat won;
    the rows of ``plays`` (their ``seats``) from the ``start``-th on are added. The entries
    of ``legal``'s cards are set in ``mask``. The reference of the compiled ``write_play``
    (``tests/test_native.py``)."""
    to_act, hand, rows, taken, left = at
    n = len(hands)
    out[to_act : to_act + n] = 0.0
    out[hand : hand + 52] = 0.0
    ones = [to_act + (turn - me) % n]
    ones += [hand + c for c in cards_of(hands[me])]
    width = 52 + n
    for i in range(start, len(plays)):
        row = rows + i * width
        card = plays[i]
        assert card is not None
        ones += (row + card, row + 52 + (seats[i] - me) % n)
    if captured is not None:
        out[taken : taken + 52 * n] = 0.0
        for s, won in enumerate(captured):
            base = taken + ((s - me) % n) * 52
            ones += [base + c for c in cards_of(won)]
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    for s in range(n):
        out[left + (s - me) % n] = hands[s].bit_count()
    if legal:
        mask[list(cards_of(legal))] = 1


write_play: Callable[..., None] = accel.play_writer() or write_play_pure
""":func:`write_play_pure`, compiled when the accelerator is in use."""


PLAY_ENDED = -2
"""What :func:`play_observed` returns when the card it played ended the card play."""


def play_observed_pure(
    play: PureTrickPlay,
    plays: list[int | None],
    seats: list[int],
    deal: Deal,
    following: Sequence[list[Any]],
    vectors: Sequence[np.ndarray],
    masks: Sequence[np.ndarray],
    at: tuple[int, int, int, int, int],
    card: object,
) -> int:
    """One decision of a one-deck trick deal's card play, for an environment that keeps one
    :class:`ObservationBuffer` per seat: play ``card`` for the seat to act through the checked
    door of ``deal``'s card play ``play`` (``play_logged``, logging to ``plays`` and ``seats``),
    then bring the observation of the next seat to act up to date, as
    :meth:`ObservationBuffer.update_play` would, in its vector ``vectors[s]`` and its mask
    ``masks[s]`` (cleared, then the legal cards set), when its buffer follows this deal's card
    play (``following[s]``, its :attr:`ObservationBuffer.following`, updated in place).

    Returns the next seat ``s`` when it was written; ``s + players`` when its buffer does not
    follow the card play (nothing written: observe it through the buffer); :data:`PLAY_ENDED`
    when the card ended the play (the deal is to be scored: :meth:`barbu.game.Game.close_play`);
    -1 when ``card`` is not a legal card of the seat to act (nothing changed). The reference of
    the compiled ``play_observed`` (``tests/test_native_batch.py``).
    """
    if play.play_logged(card, None, plays, seats) is None:
        return -1
    if play.finished:
        return PLAY_ENDED
    turn: int = play.turn
    state = following[turn]
    if state[0] is not deal or not state[1]:
        return turn + play.players
    tricks = len(play.winners)
    mask = masks[turn]
    mask.fill(0)
    write_play_pure(
        vectors[turn],
        mask,
        at,
        turn,
        turn,
        play.hands,
        play.captured if tricks != state[3] else None,
        plays,
        seats,
        state[2],
        play.legal_mask(),
    )
    state[2] = len(plays)
    state[3] = tricks
    return turn


play_observed: Callable[..., int] = accel.play_observer() or play_observed_pure
""":func:`play_observed_pure`, compiled when the accelerator is in use."""


def write_lays_pure(
    out: np.ndarray,
    mask: np.ndarray,
    at: tuple[int, int, int, int, int, int, int, int],
    me: int,
    turn: int,
    hands: Sequence[int],
    rank: int | None,
    rows: Sequence[tuple[int, int] | None] | None,
    order: Sequence[int],
    plays: Sequence[int | None],
    seats: Sequence[int],
    start: int,
    lays: int,
    legal: int,
) -> int:
    """What changes in seat ``me``'s vector ``out`` during a domino deal's card play
    (:meth:`ObservationBuffer.update_play`); return how many cards are laid. ``at`` holds the
    offsets of the sections ``to_act``, ``rank``, ``hand``, ``plays``, ``passes``,
    ``domino_rows``, ``domino_order`` and ``cards_left``. The seat to act is ``turn``, the
    hands ``hands``, the starting rank ``rank``, the rows ``rows`` (None: unchanged), the
    seats out ``order``; the plays (None: a pass) of ``seats`` from the ``start``-th on are
    added after ``lays`` cards laid. In ``mask``, ``legal``'s cards are set, or the pass
    (entry 52) when ``legal`` is 0 (-1: ``me`` is not to act). In Python only: a domino deal
    is one of seven in a classic game, and this writer a few percent of its steps."""
    to_act, rank_at, hand, rows_at, passes, row_at, order_at, left = at
    n = len(hands)
    width = 52 + n
    ones = [to_act + (turn - me) % n]
    ones += [hand + c for c in cards_of(hands[me])]
    if rank is not None:
        ones.append(rank_at + rank)
    for i in range(start, len(plays)):
        card = plays[i]
        rel = (seats[i] - me) % n
        if card is None:
            bit = passes + lays * n + rel
            if out[bit] or bit in ones:
                raise ValueError(f"seat {seats[i]} passed twice between two lays: the encoding cannot say so")
            ones.append(bit)
            continue
        row = rows_at + lays * width
        ones += (row + card, row + 52 + rel)
        lays += 1
    out[to_act : to_act + n] = 0.0
    out[rank_at : rank_at + 13] = 0.0
    out[hand : hand + 52] = 0.0
    if rows is not None:
        out[row_at : row_at + 52] = 0.0
        for suit, shown in enumerate(rows):
            if shown is not None:
                ones += range(row_at + 13 * suit + shown[0], row_at + 13 * suit + shown[1] + 1)
    out[order_at : order_at + n * n] = 0.0
    ones += [order_at + place * n + (seat - me) % n for place, seat in enumerate(order)]
    out[np.fromiter(ones, np.intp, len(ones))] = 1.0
    for s in range(n):
        out[left + (s - me) % n] = hands[s].bit_count()
    if legal > 0:
        mask[list(cards_of(legal))] = 1
    elif legal == 0:
        mask[52] = 1
    return lays


LAY_PASS = 52
"""The action index of a domino pass (:attr:`ActionEncoding.PASS`: the entry after the 52 cards)."""

_NO_MASK = np.zeros(0, np.float32)
"""The mask given to :func:`write_lays_pure` when no seat's legal actions are written (``legal`` -1)."""


def lay_observed_pure(
    play: PureDominoPlay,
    plays: list[int | None],
    seats: list[int],
    deal: Deal,
    following: Sequence[list[Any]],
    vectors: Sequence[np.ndarray],
    masks: Sequence[np.ndarray],
    at: tuple[int, int, int, int, int, int, int, int],
    action: object,
) -> int:
    """One decision of a one-deck domino deal's card play, as :func:`play_observed_pure` is one
    of a trick deal's: lay card ``action`` (or pass, :data:`LAY_PASS`) for the seat to act
    through the checked door of ``deal``'s domino play ``play`` (``play_logged``, logging to
    ``plays`` and ``seats``), then bring the next seat's vector ``vectors[s]`` and mask
    ``masks[s]`` up to date as :meth:`ObservationBuffer.update_play` would
    (:func:`write_lays_pure`), when its buffer follows this deal's card play (``following[s]``,
    updated in place: its third and fourth entries are the plays and the cards laid written).
    Returns what :func:`play_observed_pure` returns. The reference of the compiled
    ``lay_observed`` (``tests/test_native_batch.py``)."""
    if type(action) is not int or not 0 <= action <= LAY_PASS:
        return -1
    if play.play_logged(None if action == LAY_PASS else action, None, plays, seats) is None:
        return -1
    if play.finished:
        return PLAY_ENDED
    turn: int = play.turn
    state = following[turn]
    if state[0] is not deal or not state[1]:
        return turn + play.players
    mask = masks[turn]
    mask.fill(0)
    lays: int = state[3]
    state[3] = write_lays_pure(
        vectors[turn],
        mask,
        at,
        turn,
        turn,
        play.hands,
        play.rank,
        play.shown_rows() if len(plays) - plays.count(None) != lays else None,
        play.order,
        plays,
        seats,
        state[2],
        lays,
        play.legal_mask(),
    )
    state[2] = len(plays)
    return turn


lay_observed: Callable[..., int] = accel.lay_observer() or lay_observed_pure
""":func:`lay_observed_pure`, compiled when the accelerator is in use."""


class ObservationEncoding:
    """A seat's view as a float32 vector, and the text that vector stands for.

    Seats are counted from the observer (0 = itself, 1 = its left, …) except in the
    ``seat`` section, which says which seat the observer is. Scores are divided by
    :func:`score_unit`. See docs/research.md for every section.
    """

    def __init__(self, rules: Rules) -> None:
        one_deck(rules)
        self.rules = rules
        n = self.players = rules.players
        self.contract_ids = tuple(c.id for c in rules.contracts)
        self._contract_index = {cid: i for i, cid in enumerate(self.contract_ids)}
        plays = {c.play for c in rules.contracts}
        self.domino = "domino" in plays
        self.arranges = "arrange" in plays
        self.unit = score_unit(rules)
        deck = rules.deck.bit_count()
        k = rules.contracts_per_declarer
        each = rules.cards_each
        layout: list[tuple[str, tuple[int, ...], float, float]] = [
            ("seat", (n,), 1, 0),
            ("phase", (len(PHASES),), 1, 0),
            ("to_act", (n,), 1, 0),
            ("declarer", (n,), 1, 0),
            ("deal", (rules.deal_count,), 1, 0),
            ("contract", (len(self.contract_ids),), 1, 0),
            ("trump", (4,), 1, 0),
            ("rank", (13,), 1, 0),
            ("hand", (52,), 1, 0),
        ]
        if rules.doubling:
            layout += [
                ("calls_round1", (n, 1 + 2 * n), 1, 0),
                ("calls_round2", (n, 1 + n), 1, 0),
                ("pairs", (n, n), 2, 0),
                ("must_double", (1,), 1, 0),
            ]
        layout += [("plays", (deck, 52 + n), 1, 0), ("captured", (n, 52), 1, 0)]
        if self.domino:
            layout += [("passes", (deck + 1, n), 1, 0), ("domino_rows", (52,), 1, 0), ("domino_order", (n, n), 1, 0)]
        if self.arranges:
            layout += [("arrangement", (3, 52), 1, 0)]
        layout += [("cards_left", (n,), each, 0), ("declared", (n, len(self.contract_ids)), k, 0)]
        if rules.doubling:
            layout += [("declarer_doubles", (n,), k, 0)]
        layout += [
            ("totals", (n,), SCORE_BOUND, -SCORE_BOUND),
            ("previous_deal", (1 + n,), SCORE_BOUND, -SCORE_BOUND),
        ]
        self.sections: dict[str, Section] = {}
        offset = 0
        for name, shape, high, low in layout:
            section = Section(name, offset, shape, float(high), float(low))
            self.sections[name] = section
            offset += section.size
        self.size = offset
        """The length of the vector."""
        self.low = np.zeros(self.size, np.float32)
        self.high = np.zeros(self.size, np.float32)
        for s in self.sections.values():
            self.low[s.offset : s.offset + s.size] = s.low
            self.high[s.offset : s.offset + s.size] = s.high
        self._at = {name: s.offset for name, s in self.sections.items()}
        plays_section = self.sections["plays"]
        self._play_rows = [plays_section.offset + i * plays_section.shape[1] for i in range(plays_section.shape[0])]
        self._parts = self._layout_parts()
        at = self._at
        self._play_at = (at["to_act"], at["hand"], at["plays"], at["captured"], at["cards_left"])
        """The offsets :data:`write_play` writes at."""
        public = next(p for p in self._parts if p.write == self._write_public)
        assert public.spans[0][0] == 0 and public.spans[-1][1] == at["hand"]
        calls = next((p.spans for p in self._parts if p.write == self._write_calls), ())
        assert all(a[1] == b[0] for a, b in pairwise(calls))  # one run (write_calls_pure)
        none = -1
        self._game_at = (
            at["hand"],
            at["cards_left"],
            at["declared"],
            len(self.contract_ids),
            at.get("declarer_doubles", none),
            at["totals"],
            at["previous_deal"],
        )
        """The offsets :data:`write_game` writes at."""
        self._calls_at = (
            at["hand"],
            at["seat"],
            at["phase"],
            at["deal"],
            at["to_act"],
            at["declarer"],
            at["contract"],
            at["trump"],
            at["rank"],
            *(at.get(name, none) for name in ("calls_round1", "calls_round2", "pairs", "must_double")),
        )
        """The offsets :data:`write_calls` writes at (the calls' four, consecutive, -1 without doubling)."""
        self._spare_mask = np.zeros(ActionEncoding(rules).size, np.int8)
        """A mask the card play's writers may write into when none is wanted (:meth:`ObservationBuffer.end_deal`)."""
        self._lay_at = (
            at["to_act"],
            at["rank"],
            at["hand"],
            at["plays"],
            at.get("passes", -1),
            at.get("domino_rows", -1),
            at.get("domino_order", -1),
            at["cards_left"],
        )
        """The offsets :func:`write_lays_pure` writes at (-1: a section of domino rule sets only)."""

    def part(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The named section of ``vector``, in its shape."""
        s = self.sections[name]
        return vector[s.offset : s.offset + s.size].reshape(s.shape)

    # -- the vector ------------------------------------------------------------------

    def encode(self, view: SeatView, placed: Sequence[int] = ()) -> np.ndarray:
        """The vector of ``view`` (a seat's view; ``placed``: its arrangement being built)."""
        out = np.zeros(self.size, np.float32)
        self.encode_into(out, view, placed)
        return out

    def encode_into(self, out: np.ndarray, view: SeatView, placed: Sequence[int] = ()) -> None:
        """Write the vector of ``view`` into ``out`` (zeroed first)."""
        if view.seat is None:
            raise ValueError("an observation belongs to a seat: a spectator's view (seat None) has none")
        out.fill(0.0)
        found = _Found()
        for part in self._parts:
            part.write(view, placed, found)
        found.write(out)

    def _layout_parts(self) -> tuple[_Part, ...]:
        """The vector's sections grouped by the writers that write them from a view."""
        doubling = self.rules.doubling
        parts = [
            _Part(("seat", "phase", "to_act", "declarer", "deal", "contract", "trump", "rank"), self._write_public),
            _Part(("hand",), self._write_hand),
        ]
        if doubling:
            parts.append(_Part(("calls_round1", "calls_round2", "pairs", "must_double"), self._write_calls))
        plays = ("plays", "passes") if self.domino else ("plays",)
        parts += [_Part(plays, self._write_plays), _Part(("captured",), self._write_captured)]
        if self.domino:
            parts.append(_Part(("domino_rows", "domino_order"), self._write_domino))
        if self.arranges:
            parts.append(_Part(("arrangement",), self._write_arrangement))
        parts += [_Part(("cards_left",), self._write_cards_left), _Part(("declared",), self._write_declared)]
        if doubling:
            parts.append(_Part(("declarer_doubles",), self._write_declarer_doubles))
        parts += [_Part(("totals",), self._write_totals), _Part(("previous_deal",), self._write_previous)]
        for part in parts:
            part.spans = tuple((self._at[s], self._at[s] + self.sections[s].size) for s in part.sections)
        return tuple(parts)

    def _write_public(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at
        ones = found.ones
        ones.append(at["seat"] + me)
        phase = "over" if view.phase == "game_over" else view.phase
        ones.append(at["phase"] + PHASES.index(phase))
        if view.to_act is not None:
            ones.append(at["to_act"] + (view.to_act - me) % n)
        if view.declarer is not None:
            ones.append(at["declarer"] + (view.declarer - me) % n)
        ones.append(at["deal"] + view.deal_number - 1)
        if view.contract is not None:
            ones.append(at["contract"] + self.contract_ids.index(view.contract))
        if view.trump is not None:
            ones.append(at["trump"] + SUITS.index(view.trump))
        if view.rank is not None:
            ones.append(at["rank"] + RANKS.index(view.rank))

    def _write_hand(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        base = self._at["hand"]
        held = cards_of(mask_of(view.hand) & ~mask_of(placed)) if placed else view.hand
        found.ones += [base + c for c in held]

    def _write_calls(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at
        ones = found.ones
        w1, w2 = 1 + 2 * n, 1 + n
        for seat, rnd, doubled, redoubled in view.calls:
            rel = (seat - me) % n
            if rnd == 1:
                base = at["calls_round1"] + rel * w1
                ones.append(base)
                ones += [base + 1 + (t - me) % n for t in doubled]
                ones += [base + 1 + n + (t - me) % n for t in redoubled]
            else:
                base = at["calls_round2"] + rel * w2
                ones.append(base)
                ones += [base + 1 + (t - me) % n for t in redoubled]
        for doubler, doubled_seat, multiplier in view.pairs:
            found.values.append((at["pairs"] + ((doubler - me) % n) * n + (doubled_seat - me) % n, multiplier))
        if view.must_double:
            ones.append(at["must_double"])

    def _write_plays(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        """The plays (with domino's passes)."""
        n = self.players
        me = view.seat
        assert me is not None
        plays = view.plays
        if plays and view.domino_rows is None:  # tricks: no passes, one row per card
            rows = self._play_rows
            ones = found.ones
            for row, (seat, c) in zip(rows[: len(plays)], plays, strict=True):
                assert c is not None
                ones += (row + c, row + 52 + (seat - me) % n)
        elif plays and view.domino_rows is not None:
            at = self._at
            passes: list[int] = []
            ones = found.ones
            width = 52 + n
            lays = 0
            for seat, c in plays:
                if c is None:
                    bit = at["passes"] + lays * n + (seat - me) % n
                    if bit in passes:
                        raise ValueError(f"seat {seat} passed twice between two lays: the encoding cannot say so")
                    passes.append(bit)
                    continue
                base_at = at["plays"] + lays * width
                ones += (base_at + c, base_at + 52 + (seat - me) % n)
                lays += 1
            ones += passes

    def _write_captured(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at["captured"]
        ones = found.ones
        for seat, captured in enumerate(view.captured):
            base = at + ((seat - me) % n) * 52
            ones += [base + c for c in captured]

    def _write_domino(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        if view.domino_rows is None:
            return
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at
        ones = found.ones
        for suit, row in enumerate(view.domino_rows):
            if row is not None:
                ones += [at["domino_rows"] + 13 * suit + r for r in range(row[0], row[1] + 1)]
        for place, seat in enumerate(view.domino_order):
            ones.append(at["domino_order"] + place * n + (seat - me) % n)

    def _write_arrangement(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        at = self._at["arrangement"]
        for i, placed_row in enumerate(self._rows(view, placed)):
            found.ones += [at + 52 * i + c for c in placed_row]

    def _write_cards_left(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at["cards_left"]
        found.values += [(at + (seat - me) % n, count) for seat, count in enumerate(view.cards_left)]

    def _write_declared(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at["declared"]
        width = len(self.contract_ids)
        counts: dict[int, int] = {}
        for seat, declared in enumerate(view.declared):
            base = at + ((seat - me) % n) * width
            for cid in declared:
                i = base + self._contract_index[cid]
                counts[i] = counts.get(i, 0) + 1
        found.values += counts.items()

    def _write_declarer_doubles(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at["declarer_doubles"]
        found.values += [(at + (seat - me) % n, count) for seat, count in enumerate(self._declarer_doubles(view))]

    def _write_totals(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at["totals"]
        unit = self.unit
        found.values += [(at + (seat - me) % n, total / unit) for seat, total in enumerate(view.totals)]

    def _write_previous(self, view: SeatView, placed: Sequence[int], found: _Found) -> None:
        if not view.history:
            return
        n = self.players
        me = view.seat
        assert me is not None
        at = self._at["previous_deal"]
        unit = self.unit
        found.ones.append(at)
        found.values += [(at + 1 + (seat - me) % n, final / unit) for seat, final in enumerate(view.history[-1].final)]

    @staticmethod
    def _rows(view: SeatView, placed: Sequence[int]) -> tuple[list[int], ...]:
        me = view.seat
        assert me is not None
        if view.arrangements and view.arrangements[me] is not None:
            done = view.arrangements[me]
            assert done is not None
            sizes = Arrangements(mask_of(done)).row_sizes
            return list(done[: sizes[0]]), list(done[sizes[0] : sizes[0] + sizes[1]]), list(done[sizes[0] + sizes[1] :])
        if placed:
            return PartialArrangement(mask_of(view.hand), placed).rows()
        return [], [], []

    @staticmethod
    def _declarer_doubles(view: SeatView) -> list[int]:
        """For each seat, in how many earlier deals of the declarer's set it doubled the declarer."""
        out = [0] * view.players
        d = view.declarer
        for deal in view.history:
            if deal.declarer == d:
                for doubler, doubled, _ in deal.pairs:
                    if doubled == d:
                        out[doubler] += 1
        return out

    # -- the text ----------------------------------------------------------------------

    def text(self, view: SeatView, placed: Sequence[int] = ()) -> str:
        """The observation in words, read from the view: what :meth:`decode` rebuilds."""
        return self._write(self._facts(view, placed))

    def frame(self, view: SeatView, placed: Sequence[int] = ()) -> TextFrame:
        """The lines of the view's text that stay the same while the cards of a trick deal are
        played (:class:`TextFrame`), for :func:`seat_text` to write the text card by card."""
        return self._frame(self._facts(view, placed))

    def _facts(self, view: SeatView, placed: Sequence[int]) -> _Facts:
        me = view.seat
        assert me is not None
        calls = [(s, r, tuple(d), tuple(rd)) for s, r, d, rd in view.calls]
        tricks: list[tuple[Sequence[int], Sequence[int], int | None]] = [
            (t.seats, t.cards, t.winner) for t in view.tricks
        ]
        if view.current_trick is not None:
            tricks.append((view.current_trick.seats, view.current_trick.cards, None))
        return _Facts(
            seat=me,
            phase="over" if view.phase == "game_over" else view.phase,
            to_act=view.to_act,
            declarer=view.declarer,
            deal=view.deal_number,
            contract=view.contract,
            trump=view.trump,
            rank=view.rank,
            hand=cards_of(mask_of(view.hand) & ~mask_of(placed)),
            calls=calls,
            pairs=sorted(view.pairs),
            must_double=bool(view.must_double),
            plays=list(view.plays) if view.domino_rows is not None else [],
            tricks=tricks if view.domino_rows is None else [],
            captured=[sorted(c) for c in view.captured],
            rows=[None if r is None else (r[0], r[1]) for r in view.domino_rows] if view.domino_rows else None,
            order=list(view.domino_order),
            arrangement=[sorted(r) for r in self._rows(view, placed)] if self.arranges else None,
            cards_left=list(view.cards_left),
            declared=[sorted(d, key=self.contract_ids.index) for d in view.declared],
            declarer_doubles=self._declarer_doubles(view) if self.rules.doubling else None,
            totals=list(view.totals),
            previous=list(view.history[-1].final) if view.history else None,
        )

    def decode(self, vector: np.ndarray) -> str:
        """The text of an observation vector (equal to :meth:`text` of the view it encodes)."""
        n = self.players
        v = np.asarray(vector)
        if v.shape != (self.size,):
            raise ValueError(f"an observation of {self.rules.name} has {self.size} entries, not {v.shape}")

        def one(name: str) -> int | None:
            hits = np.flatnonzero(self.part(v, name))
            return int(hits[0]) if len(hits) else None

        me = one("seat")
        assert me is not None

        def seat(rel: int) -> int:
            return (me + rel) % n

        def rel_seat(name: str) -> int | None:
            found = one(name)
            return None if found is None else seat(found)

        phase_i = one("phase")
        assert phase_i is not None
        deal_i = one("deal")
        assert deal_i is not None
        contract_i, trump_i, rank_i = one("contract"), one("trump"), one("rank")
        declarer = rel_seat("declarer")
        calls: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]] = []
        pairs: list[tuple[int, int, int]] = []
        must = False
        doubles: list[int] | None = None
        if self.rules.doubling:
            r1, r2 = self.part(v, "calls_round1"), self.part(v, "calls_round2")
            order = round_one_order(n, declarer if declarer is not None else 0, self.rules.direction)
            for rnd, table in ((1, r1), (2, r2)):
                for s in order:
                    row = table[(s - me) % n]
                    if row[0]:
                        dbl = tuple(sorted(seat(k) for k in range(n) if rnd == 1 and row[1 + k]))
                        rd_at = 1 + n if rnd == 1 else 1
                        rdbl = tuple(sorted(seat(k) for k in range(n) if row[rd_at + k]))
                        calls.append((s, rnd, dbl, rdbl))
            table = self.part(v, "pairs")
            pairs = sorted((seat(a), seat(b), int(table[a, b])) for a, b in zip(*np.nonzero(table), strict=True))
            must = bool(self.part(v, "must_double")[0])
            doubles = [0] * n
            for k, count in enumerate(self.part(v, "declarer_doubles")):
                doubles[seat(k)] = int(count)
        captured = [[] for _ in range(n)]  # type: list[list[int]]
        for k, row in enumerate(self.part(v, "captured")):
            captured[seat(k)] = [int(c) for c in np.flatnonzero(row)]
        lays: list[tuple[int, int]] = []
        for row in self.part(v, "plays"):
            hits = np.flatnonzero(row)
            if not len(hits):
                break
            lays.append((seat(int(hits[1]) - 52), int(hits[0])))
        rows = None
        order_out: list[int] = []
        plays: list[tuple[int, int | None]] = []
        tricks: list[tuple[Sequence[int], Sequence[int], int | None]] = []
        is_domino = contract_i is not None and self.rules.contracts[contract_i].play == "domino"
        if is_domino and PHASES[phase_i] in ("play", "over"):
            laid = self.part(v, "domino_rows").reshape(4, 13)
            rows = []
            for suit in range(4):
                ranks = np.flatnonzero(laid[suit])
                rows.append((int(ranks[0]), int(ranks[-1])) if len(ranks) else None)
            for place_row in self.part(v, "domino_order"):
                hits = np.flatnonzero(place_row)
                if len(hits):
                    order_out.append(seat(int(hits[0])))
            passes = self.part(v, "passes")
            direction = self.rules.direction
            for k in range(len(lays) + 1):
                ref = declarer if k == 0 else lays[k - 1][0]
                assert ref is not None
                passed = [seat(int(r)) for r in np.flatnonzero(passes[k])]
                passed.sort(key=lambda s: ((s - ref) * direction) % n)
                plays += [(s, None) for s in passed]
                if k < len(lays):
                    plays.append(lays[k])
        else:
            for start in range(0, len(lays), n):
                chunk = lays[start : start + n]
                cards = [c for _, c in chunk]
                winner = None
                if len(chunk) == n:
                    winner = next(s for s in range(n) if cards[0] in captured[s])
                tricks.append(([s for s, _ in chunk], cards, winner))
        arrangement = None
        if self.arranges:
            arrangement = [[int(c) for c in np.flatnonzero(r)] for r in self.part(v, "arrangement")]
        declared: list[list[str]] = [[] for _ in range(n)]
        for k, row in enumerate(self.part(v, "declared")):
            for i, count in enumerate(row):
                declared[seat(k)] += [self.contract_ids[i]] * round(float(count))
        cards_left = [0] * n
        totals = [0] * n
        for k in range(n):
            cards_left[seat(k)] = int(self.part(v, "cards_left")[k])
            totals[seat(k)] = round(float(self.part(v, "totals")[k]) * self.unit)
        previous = None
        prev = self.part(v, "previous_deal")
        if prev[0]:
            previous = [0] * n
            for k in range(n):
                previous[seat(k)] = round(float(prev[1 + k]) * self.unit)
        facts = _Facts(
            seat=me,
            phase=PHASES[phase_i],
            to_act=rel_seat("to_act"),
            declarer=declarer,
            deal=deal_i + 1,
            contract=self.contract_ids[contract_i] if contract_i is not None else None,
            trump=SUITS[trump_i] if trump_i is not None else None,
            rank=RANKS[rank_i] if rank_i is not None else None,
            hand=[int(c) for c in np.flatnonzero(self.part(v, "hand"))],
            calls=calls,
            pairs=pairs,
            must_double=must,
            plays=plays,
            tricks=tricks,
            captured=captured,
            rows=rows,
            order=order_out,
            arrangement=arrangement,
            cards_left=cards_left,
            declared=declared,
            declarer_doubles=doubles,
            totals=totals,
            previous=previous,
        )
        return self._write(facts)

    def _frame(self, f: _Facts) -> TextFrame:
        """The lines of the text of ``f`` that no card played changes (:class:`TextFrame`)."""
        declarer = f"P{f.declarer}" if f.declarer is not None else "-"
        middle = []
        if f.arrangement is not None:
            back, middle_row, front = (card_words(mask_of(r)) for r in f.arrangement)
            middle.append(f"arrangement {back} | {middle_row} | {front}")
        if self.rules.doubling:
            middle.append(_calls_text(tuple(f.calls), tuple(f.pairs)))
            middle.append(f"must double {'yes' if f.must_double else 'no'}")
        tail = ["declared " + " · ".join(f"P{s} {' '.join(d) or '-'}" for s, d in enumerate(f.declared))]
        if f.declarer_doubles is not None:
            tail.append("doubles of the declarer " + _per_seat(f.declarer_doubles))
        tail.append("totals " + _per_seat(f.totals))
        tail.append("previous deal " + (_per_seat(f.previous) if f.previous is not None else "-"))
        return TextFrame(
            head=f" · deal {f.deal} of {self.rules.deal_count} · {f.phase} · to act ",
            declarer=f" · declarer {declarer}",
            contract=f"contract {f.contract or '-'} · trump {f.trump or '-'} · rank {f.rank or '-'}",
            middle=tuple(middle),
            tail=tuple(tail),
        )

    def _write(self, f: _Facts) -> str:
        tricks = " | ".join(trick_words(tuple(who), tuple(cs), winner) for who, cs, winner in f.tricks)
        plays = " · ".join(f"P{s} {card_name(c) if c is not None else 'pass'}" for s, c in f.plays)
        rows = ""
        if f.rows is not None:
            shown_rows = [
                f"{SUITS[s]} {RANKS[r[0]]}-{RANKS[r[1]]}" if r is not None else f"{SUITS[s]} -"
                for s, r in enumerate(f.rows)
            ]
            rows = " ".join(shown_rows) + f" · out {_seats_text(f.order)}"
        captured = [mask_of(cs) for cs in f.captured]
        return seat_text(
            self._frame(f), f.seat, f.to_act, mask_of(f.hand), tricks, captured, f.cards_left, plays=plays, rows=rows
        )


class TextFrame:
    """The lines of a seat's text that stay the same while the cards of a trick deal are
    played, for :func:`seat_text`: the first line's middle (between the seat and the seat to
    act) and end (the declarer), the contract's line, the lines between the hand and the
    tricks (arrangement, calls, doubling) and those after the cards left (contracts
    declared, doubles, totals, previous deal). During the card play no seat has to double,
    so a deal's frame is every seat's."""

    __slots__ = ("contract", "declarer", "head", "middle", "tail")

    def __init__(self, head: str, declarer: str, contract: str, middle: tuple[str, ...], tail: tuple[str, ...]) -> None:
        self.head = head
        self.declarer = declarer
        self.contract = contract
        self.middle = middle
        self.tail = tail


def seat_text(
    frame: TextFrame,
    seat: int,
    to_act: int | None,
    hand: int,
    tricks: str,
    captured: Sequence[int],
    cards_left: Sequence[int],
    plays: str = "",
    rows: str = "",
) -> str:
    """A seat's observation in words: the one writer of its format, used for a view's text
    (:meth:`ObservationEncoding.text`), a vector's (:meth:`ObservationEncoding.decode`) and,
    card by card, OpenSpiel's strings during a trick deal's card play. ``hand`` and
    ``captured`` are card masks, ``tricks`` the tricks in words (:func:`trick_words` joined by
    `` | ``), ``plays`` and ``rows`` a domino deal's lays and rows in words."""
    lines = [
        f"P{seat}{frame.head}{'-' if to_act is None else f'P{to_act}'}{frame.declarer}",
        frame.contract,
        "hand " + card_words(hand),
        *frame.middle,
    ]
    if tricks:
        lines.append("tricks " + tricks)
    if plays:
        lines.append("plays " + plays)
    if any(captured):
        lines.append(_captured_line(tuple(captured)))
    if rows:
        lines.append("rows " + rows)
    lines.append(_left_line(tuple(cards_left)))
    lines += frame.tail
    return "\n".join(lines)


@dataclass
class _Facts:
    """The content of an observation, shared by the text of a view and of a vector."""

    seat: int
    phase: str
    to_act: int | None
    declarer: int | None
    deal: int
    contract: str | None
    trump: str | None
    rank: str | None
    hand: list[int]
    calls: list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]
    pairs: list[tuple[int, int, int]]
    must_double: bool
    plays: list[tuple[int, int | None]]
    tricks: list[tuple[Sequence[int], Sequence[int], int | None]]
    captured: list[list[int]]
    rows: list[tuple[int, int] | None] | None
    order: list[int]
    arrangement: list[list[int]] | None
    cards_left: list[int]
    declared: list[list[str]]
    declarer_doubles: list[int] | None
    totals: list[int]
    previous: list[int] | None


_NAMES = accel.picker(tuple(card_name(c) for c in range(52)))
"""The names of the cards of a one-deck mask, in one compiled call (None on the pure path)."""


@lru_cache(maxsize=1 << 16)
def card_words(mask: int) -> str:
    """The cards of ``mask`` in words (``-`` for none), as the texts show a hand or cards taken;
    remembered: a search writes the same hands and piles again and again."""
    if _NAMES is not None and not mask >> 52:
        return " ".join(_NAMES(mask)) or "-"
    return " ".join(card_name(c) for c in cards_of(mask)) or "-"


def _per_seat(values: Sequence[object]) -> str:
    return " ".join(map("P{} {}".format, range(len(values)), values))


@lru_cache(maxsize=1 << 16)
def _captured_line(captured: tuple[int, ...]) -> str:
    """The line of the cards each seat has taken (card masks), remembered: a search writes
    the same piles again and again."""
    return "captured " + " · ".join(map("P{} {}".format, range(len(captured)), map(card_words, captured)))


@lru_cache(maxsize=1 << 12)
def _left_line(cards_left: tuple[int, ...]) -> str:
    """The line of how many cards each seat has left (remembered)."""
    return "cards left " + _per_seat(cards_left)


def _seats_text(seats: Iterable[int]) -> str:
    return " ".join(f"P{s}" for s in seats) or "-"


@lru_cache(maxsize=1 << 12)
def _calls_text(
    calls: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...], pairs: tuple[tuple[int, int, int], ...]
) -> str:
    """The calls and business pairs of a deal in words, two lines (remembered)."""
    said = [
        f"r{r} P{s} " + (f"double {_seats_text(d)} redouble {_seats_text(rd)}" if d or rd else "pass")
        for s, r, d, rd in calls
    ]
    return "calls " + (" · ".join(said) or "-") + "\npairs " + (" ".join(f"P{a}>P{b} x{m}" for a, b, m in pairs) or "-")


@lru_cache(maxsize=1 << 16)
def trick_words(seats: tuple[int, ...], cards: tuple[int, ...], winner: int | None) -> str:
    """A trick in words, as the texts show it (remembered)."""
    trick = " ".join(f"P{s} {card_name(c)}" for s, c in zip(seats, cards, strict=True))
    return trick + (f" > P{winner}" if winner is not None else "")


def _names(cards: Iterable[int]) -> str:
    return " ".join(card_name(c) for c in cards)
