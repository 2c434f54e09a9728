"""One deal as a state machine: contract, trump or rank, calls, play or tally, score.

RULES.md §2. A :class:`Deal` offers two doors on the same rule code:

- the checked door, :meth:`Deal.apply`, which refuses anything illegal with a typed
  error and leaves the deal exactly as it was;
- the fast door, :meth:`Deal.apply_unchecked` (and, during trick or domino play,
  :meth:`Deal.legal_mask` with :meth:`Deal.play_unchecked`), for bots and simulation.

Deals are made by :class:`barbu.game.Game`, which knows the rotation and what each
declarer has left.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import StrEnum

from barbu.accel import picker, play_random
from barbu.actions import (
    PLAYS,
    Action,
    Arrange,
    Call,
    Declare,
    EnterTally,
    NameRank,
    NameTrump,
    Pass,
    Play,
    random_pick,
)
from barbu.arrangement import Arrangements, normalize
from barbu.cards import RANKS, SUIT_NAMES, SUITS, TWIN, card_name, cards_of, fold, mask_of, twin_mask
from barbu.contracts import Contract, Tally
from barbu.domino import DominoPlay, domino_play
from barbu.doubling import Doubling, Pair, settle, skip_split
from barbu.errors import N_, IllegalAction, OutOfTurn, Text, fact
from barbu.rulesets import Rules
from barbu.tally import check_tally
from barbu.tricks import TrickPlay, TrickRules, trick_play

_SUIT_PLAYS: list[dict[int, tuple[Play, ...]]] = [{}, {}, {}, {}]


def pure_plays_of(mask: int) -> list[Play]:
    """The :class:`Play` actions of the cards of ``mask``, in ascending card order.

    Built from per-suit tables filled on first use, so listing legal cards costs a few
    dictionary look-ups; :data:`plays_of` is this, compiled when the accelerator is in use.

    >>> pure_plays_of(0b1001)
    [Play(card('2S')), Play(card('5S'))]
    """
    out: list[Play] = []
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        if bits:
            table = _SUIT_PLAYS[s]
            plays = table.get(bits)
            if plays is None:
                plays = table[bits] = tuple(PLAYS[13 * s + r] for r in range(13) if bits >> r & 1)
            out += plays
    return out


plays_of: Callable[[int], list[Play]] = picker(PLAYS) or pure_plays_of
"""The :class:`Play` actions of the cards of ``mask``, ascending (:func:`pure_plays_of`, compiled
when the accelerator is in use; ``tests/test_native.py`` checks both agree)."""


class Phase(StrEnum):
    """Where a deal stands; the names are those of ``barbu replay``'s ``next.phase``."""

    CONTRACT = "contract"
    TRUMP = "trump"
    RANK = "rank"
    CALL = "call"
    ARRANGE = "arrange"
    PLAY = "play"
    TALLY = "tally"
    DONE = "done"


_PLAY, _CALL, _DONE = Phase.PLAY, Phase.CALL, Phase.DONE
"""The phases the hot paths test, read once (an enum member costs a class look-up each time)."""
_CHOOSING = (Phase.CONTRACT, Phase.TRUMP, Phase.RANK)
"""The phases where the declarer chooses (the contract, then its trump or rank)."""


class Deal:
    """One deal of a game. See the module docstring.

    ``hands`` are the dealt hands as masks, or None for a deal whose cards are not
    known (a score sheet): such a deal waits for its tally after the calls.
    """

    def __init__(
        self,
        rules: Rules,
        index: int,
        declarer: int,
        hands: Sequence[int] | None,
        available: Sequence[Contract],
        forced: frozenset[int] = frozenset(),
    ) -> None:
        self.rules = rules
        self.index = index
        self.declarer = declarer
        self.dealt: tuple[int, ...] | None = tuple(hands) if hands is not None else None
        self.available = tuple(available)
        self.forced = forced
        self.contract: Contract | None = None
        self.trump: int | None = None
        self._rank: int | None = None
        """The rank named by the declarer (:class:`NameRank`), until the domino play starts."""
        self.doubling: Doubling | None = None
        self.tricks: TrickPlay | None = None
        self.domino: DominoPlay | None = None
        self.cardplay: TrickPlay | DominoPlay | None = None
        """The trick or domino play once it has started (the same object as one of the two above)."""
        self.arrangements: list[tuple[int, ...] | None] = []
        self.plays: list[int | None] = []
        """Cards in the order played (None: a domino pass); arrangements aside."""
        self.play_seats: list[int] = []
        """The seat of each entry of :attr:`plays`."""
        self.tally: Tally | None = None
        self.skipped = False
        self.raw: list[int] | None = None
        self.adjustments: list[int] | None = None
        self.final: list[int] | None = None
        self.phase = Phase.CONTRACT
        self._twin = rules.twin
        scheduled = rules.scheduled_contract(index)
        if scheduled is not None:
            self._set_contract(scheduled)

    # -- reading the state ---------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def rank(self) -> int | None:
        """The domino's starting rank, named by the declarer or, under ``domino_start:
        "first_card"``, by the first card laid (the domino play's own); None before it is
        known and in any other contract."""
        d = self.domino
        return self._rank if d is None else d.rank

    @property
    def finished(self) -> bool:
        """True once the deal is scored (played, tallied or skipped)."""
        return self.phase is _DONE

    @property
    def started(self) -> bool:
        """True once any action was taken (the scheduled contract is not one)."""
        return bool(
            (self.contract is not None and self.rules.scheduled_contract(self.index) is None)
            or self.plays
            or self.rank is not None
        )

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None (waiting for a tally, or finished)."""
        phase = self.phase
        if phase is _PLAY:
            assert self.cardplay is not None
            return self.cardplay.turn
        if phase is _CALL:
            assert self.doubling is not None
            return self.doubling.to_act
        if phase is Phase.ARRANGE:
            return self._arrange_order()[len(self.arrangements)]
        if phase in (Phase.CONTRACT, Phase.TRUMP, Phase.RANK):
            return self.declarer
        return None

    def hand(self, seat: int) -> int:
        """The cards ``seat`` still holds (0 when the hands are not known)."""
        if self.dealt is None:
            return 0
        if self.tricks is not None:
            return self.tricks.hands[seat]
        if self.domino is not None:
            return self.domino.hands[seat]
        if self.phase is Phase.DONE and self.contract is not None and self.contract.play == "arrange":
            return 0
        return self.dealt[seat]

    def give_hands(self, hands: Sequence[int]) -> None:
        """Give a deal dealt without hands its hands, before any action of the deal."""
        if self.dealt is not None or self.started or (self.doubling is not None and self.doubling.calls):
            raise IllegalAction("hands", "hands can only be given to a deal that has none, before its first action")
        self.dealt = tuple(hands)
        if self.phase is Phase.TALLY:
            self._start_play()

    def pairs(self) -> list[Pair]:
        """The business pairs so far."""
        return self.doubling.pairs() if self.doubling is not None else []

    def legal_mask(self) -> int:
        """The cards the seat to act may play now (fast door; play phase only)."""
        assert self.cardplay is not None
        return self.cardplay.legal_mask()

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the seat to act, in the sorted order of RECORD.md.

        Calls are listed as explicit lists (shorthands expand to one of them);
        arrangements as a lazy :class:`~barbu.arrangement.Arrangements` sequence.
        A deal waiting for its tally, or finished, has none.
        """
        phase = self.phase
        if phase is _PLAY:
            assert self.cardplay is not None  # the play phase always has its trick play or domino rows
            mask = self.cardplay.legal_mask()
            if not mask and self.domino is not None:
                return [Pass()]
            if self._twin:  # a card and its copy are one action: the deal plays the copy held
                return plays_of(fold(mask))
            return plays_of(mask)
        if phase is _CALL:
            assert self.doubling is not None
            return self.doubling.legal_calls()
        if phase is Phase.CONTRACT:
            return [_DECLARES.get(c.id) or _declare(c.id) for c in self.available]
        if phase is Phase.TRUMP:
            return [NameTrump(s) for s in range(4)]
        if phase is Phase.RANK:
            return [NameRank(r) for r in self.rules.domino_ranks]
        if phase is Phase.ARRANGE:
            seat = self.to_act
            assert seat is not None and self.dealt is not None
            return Arrangements(self.dealt[seat])
        return []

    # -- the checked door ----------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> int | None:
        """Check ``action`` (by ``seat``, if given) and apply it; return the seat that acted.

        Raises :class:`~barbu.errors.IllegalAction` with a message that says what is
        wrong and what is allowed; the deal is then unchanged. With two decks a
        :class:`Play` names a card by its face (:meth:`own_copy`).
        """
        if self._twin and type(action) is Play:
            action = self.own_copy(action, self.to_act if seat is None else seat)
        phase = self.phase
        kind = type(action)
        if phase is _PLAY and (kind is Play or kind is Pass):
            play = self.cardplay
            assert play is not None
            # a legal card (or a domino pass it must make): checked, logged and played in one call
            played = play.play_logged(action.card if kind is Play else None, seat, self.plays, self.play_seats)  # type: ignore[union-attr]
            if played is not None:
                if play.finished:
                    self.end_play()
                return played
        elif phase is _CALL and kind is Call:
            doubling = self.doubling
            assert doubling is not None
            called = doubling.take_listed(action, seat)  # type: ignore[arg-type]  # one of the calls listed: applied
            if called is not None:
                if doubling.finished:
                    self._after_calls()
                return called
        elif phase is Phase.CONTRACT and kind is Declare and (seat is None or seat == self.declarer):
            for contract in self.available:
                if contract.id == action.contract:  # type: ignore[union-attr]  # one of the contracts left: named
                    self._set_contract(contract)
                    return self.declarer
        if phase is _DONE:
            raise IllegalAction("deal", N_("deal {n} is over", n=self.index + 1), seat)
        if isinstance(action, EnterTally):
            if phase is not Phase.TALLY:
                raise IllegalAction(
                    "tally", N_("deal {n} is not waiting for a tally (it is at {phase})", n=self.index + 1, phase=phase)
                )
            assert self.contract is not None
            self._set_tally(check_tally(action.tally, self.contract, self.rules))
            return None
        actor = self.to_act
        if actor is None:
            raise IllegalAction(
                str(phase), N_("deal {n} is waiting for its tally, not for a seat", n=self.index + 1), seat
            )
        if seat is not None and seat != actor:
            raise OutOfTurn(str(phase), N_(_NOT_YOUR_TURN[phase], seat=seat, actor=actor), seat)
        if _ACTION_PHASE.get(kind) is not phase and not (phase is Phase.PLAY and isinstance(action, Pass | Play)):
            raise IllegalAction(str(phase), N_(_MUST_NOW[phase], seat=actor, action=type(action).__name__), actor)
        if isinstance(action, Declare):
            ids = [c.id for c in self.available]
            if action.contract not in ids:
                raise IllegalAction(
                    "contract",
                    N_(
                        "seat {seat} cannot declare {contract}: the contracts left are {left}",
                        seat=actor,
                        contract=repr(action.contract),
                        left=", ".join(ids),
                    ),
                    actor,
                )
        elif isinstance(action, NameTrump):
            if type(action.suit) is not int or action.suit not in range(4):
                raise IllegalAction("trump", N_("seat {seat}: the trump must be one of S, H, D, C", seat=actor), actor)
        elif isinstance(action, NameRank):
            ranks = self.rules.domino_ranks
            if type(action.rank) is not int or action.rank not in ranks:
                names = " ".join(RANKS[r] for r in ranks)
                raise IllegalAction(
                    "rank",
                    N_(
                        "seat {seat} cannot start domino from {rank}: name one of {ranks}",
                        seat=actor,
                        rank=repr(action.rank),
                        ranks=names,
                    ),
                    actor,
                )
        elif isinstance(action, Call):
            assert self.doubling is not None
            dbl, rdbl = self.doubling.expand(actor, action)
            self.doubling.apply(actor, dbl, rdbl, action)
            if self.doubling.finished:
                self._after_calls()
            return actor
        elif isinstance(action, Arrange):
            assert self.dealt is not None
            hand = self.dealt[actor]
            cards_ok = all(type(c) is int and 0 <= c < 52 for c in action.cards)
            if not cards_ok or len(action.cards) != hand.bit_count() or mask_of(action.cards) != hand:
                raise IllegalAction(
                    "arrange",
                    N_(
                        "seat {seat}: an arrangement must hold exactly its {n} cards, back 5, middle 5, front 3",
                        seat=actor,
                        n=hand.bit_count(),
                    ),
                    actor,
                )
        elif isinstance(action, Play | Pass):
            self._check_play(actor, action)
        self.apply_unchecked(action)
        return actor

    def _check_play(self, seat: int, action: Play | Pass) -> None:
        legal = self.legal_mask()
        if isinstance(action, Pass):
            if self.domino is None:
                raise IllegalAction(
                    "play", N_("seat {seat} cannot pass: a card must be played to the trick", seat=seat), seat
                )
            if legal:
                cards = " ".join(card_name(c) for c in cards_of(fold(legal) if self._twin else legal))
                raise IllegalAction(
                    "play", N_("seat {seat} cannot pass: it can lay {cards}", seat=seat, cards=cards), seat
                )
            return
        c = action.card
        if type(c) is not int or not 0 <= c < (TWIN * 2 if self._twin else TWIN):
            raise IllegalAction("play", N_("seat {seat}: {card} is not a card", seat=seat, card=repr(c)), seat)
        if not self.hand(seat) >> c & 1:
            raise IllegalAction("play", N_("{card} is not in seat {seat}'s hand", card=card_name(c), seat=seat), seat)
        if legal >> c & 1:
            return
        why = self._why_not(seat, c, legal)
        raise IllegalAction("play", N_("{card} is not legal: {why}", card=card_name(c), why=why), seat)

    def _why_not(self, seat: int, c: int, legal: int) -> Text:
        allowed = " ".join(card_name(x) for x in cards_of(fold(legal) if self._twin else legal))
        if self.domino is not None:
            if not legal:
                return N_("seat {seat} has no playable card and must pass", seat=seat)
            return N_("it does not fit a domino row; seat {seat} may lay {cards}", seat=seat, cards=allowed)
        t = self.tricks
        assert t is not None
        if not t.trick:
            return N_(
                "seat {seat} may not lead a heart while it holds other suits; it may lead {cards}",
                seat=seat,
                cards=allowed,
            )
        led = t.trick[0] // 13 % 4
        suits = {x // 13 % 4 for x in cards_of(legal)}
        if suits == {led} and c // 13 % 4 != led:
            return N_("seat {seat} must follow {suit}", seat=seat, suit=fact("suit", SUIT_NAMES[led]))
        if self.trump is not None and suits == {self.trump}:
            trumps = [x % 52 for x in t.trick if x // 13 % 4 == self.trump]
            if trumps and c // 13 % 4 == self.trump:
                return N_(
                    "seat {seat} must beat {card} when it can: it may play {cards}",
                    seat=seat,
                    card=card_name(max(trumps)),
                    cards=allowed,
                )
            return N_(
                "seat {seat} must play a trump ({suit}): it may play {cards}",
                seat=seat,
                suit=fact("suit", SUIT_NAMES[self.trump]),
                cards=allowed,
            )
        if t.rules.penalty and not (legal & ~t.rules.penalty):
            return N_("seat {seat} must give a penalty card: it may play {cards}", seat=seat, cards=allowed)
        return N_("seat {seat} may play {cards}", seat=seat, cards=allowed)

    # -- the fast door -------------------------------------------------------

    def own_copy(self, play: Play, seat: int | None) -> Play:
        """With two decks, the card of ``play`` as ``seat`` holds it: the first deck's copy
        if it holds that one, else the second deck's (both are the same card for every
        rule, so a person or a record names a card by its face alone).

        >>> from barbu.game import Game
        >>> from barbu.cards import card, TWIN
        >>> g = Game.new("french-two-decks", seed=3)
        >>> d = g.current
        >>> held = d.hand(d.to_act)
        >>> c = next(x for x in range(52) if held >> (x + TWIN) & 1 and not held >> x & 1)
        >>> d.own_copy(Play(c), d.to_act) == Play(c + TWIN)
        True
        """
        c = play.card
        if type(seat) is not int or not 0 <= seat < self.players or type(c) is not int or not 0 <= c < TWIN:
            return play  # not a seat or not a card: the checks that follow refuse it
        hand = self.hand(seat)
        if not hand >> c & 1 and hand >> (c + TWIN) & 1:
            return Play(c + TWIN)
        return play

    def apply_unchecked(self, action: Action) -> None:
        """Apply a legal action without checking it."""
        if isinstance(action, Call):  # first: a deal has more calls than any other action but cards
            assert self.doubling is not None
            seat = self.doubling.to_act
            assert seat is not None
            dbl, rdbl = self.doubling.expand(seat, action) if action.word else (action.double, action.redouble)
            if len(dbl) > 1:
                dbl = tuple(sorted(dbl))
            if len(rdbl) > 1:
                rdbl = tuple(sorted(rdbl))
            self.doubling.apply(seat, dbl, rdbl, action)
            if self.doubling.finished:
                self._after_calls()
        elif isinstance(action, Play):
            if self._twin:
                action = self.own_copy(action, self.to_act)
            self.play_unchecked(action.card)
        elif isinstance(action, Pass):
            self.play_unchecked(None)
        elif isinstance(action, Declare):
            self._set_contract(next(c for c in self.available if c.id == action.contract))
        elif isinstance(action, NameTrump):
            self.trump = action.suit
            self._after_choice()
        elif isinstance(action, NameRank):
            self._rank = action.rank
            self._after_choice()
        elif isinstance(action, Arrange):
            self.arrangements.append(normalize(action.cards))
            if len(self.arrangements) == self.players:
                self._set_tally({"arrangements": [list(a or ()) for a in self.arrangements_by_seat()]})
        elif isinstance(action, EnterTally):
            assert self.contract is not None
            self._set_tally(dict(action.tally))

    def play_unchecked(self, card: int | None) -> None:
        """Play ``card`` (None: a domino pass) for the seat to act, unchecked."""
        play = self.cardplay
        assert play is not None
        self.plays.append(card)
        self.play_seats.append(play.turn)
        play.play(card)  # type: ignore[arg-type]  # a trick deal's cards are never None
        if play.finished:
            self.end_play()

    def play_random(self, rngs: Sequence[random.Random]) -> bool:
        """Play the rest of a one-deck trick or domino deal as random bots would, each seat
        drawing from its own generator in ``rngs`` (:func:`barbu.accel.play_random`, in
        compiled code), logged and scored as :meth:`play_unchecked` would card by card. False,
        with nothing played, when there is no compiled path.

        >>> from barbu.game import Game
        >>> deal = Game.new("classic", seed=7).current
        >>> deal.apply_unchecked(Declare("no-tricks"))
        >>> while deal.phase != "play":
        ...     deal.apply_unchecked(deal.legal_actions()[-1])  # every seat doubles what it may
        >>> from barbu import accel
        >>> deal.play_random([random.Random(s) for s in range(4)]) == accel.NATIVE
        True
        >>> not accel.NATIVE or (deal.finished, len(deal.plays)) == (True, 52)
        True
        """
        play = self.cardplay
        assert play is not None and self.phase is _PLAY
        if not play_random(play, rngs, self.plays, self.play_seats):
            return False
        if play.finished:
            self.end_play()
        return True

    def call_random(self, rngs: Sequence[random.Random]) -> list[tuple[int, Action]]:
        """Make the contract choice, the trump or rank and the calls left as random bots would,
        each seat drawing from its own generator in ``rngs``: the seat to act takes
        :func:`~barbu.actions.random_pick` of its :meth:`legal_actions`, as
        :class:`barbu.bots.RandomBot` does (the calls through :meth:`Doubling.call_random`).
        Returns each action taken with its seat, in order; the deal is then at its cards (or
        its arrangements), or scored if it is not played (RULES.md §2.8).

        >>> from barbu.game import Game
        >>> deal = Game.new("classic", seed=7).current
        >>> moves = deal.call_random([random.Random(s) for s in range(4)])
        >>> str(deal.phase), moves[0] == (deal.declarer, Declare(deal.contract.id))
        ('play', True)
        """
        moves: list[tuple[int, Action]] = []
        while self.phase in _CHOOSING:
            seat = self.declarer
            action = random_pick(self.legal_actions(), rngs[seat])
            self.apply_unchecked(action)
            moves.append((seat, action))
        doubling = self.doubling
        if self.phase is _CALL and doubling is not None:
            start = len(doubling.calls)
            doubling.call_random(rngs)
            moves += [(c.seat, c.said) for c in doubling.calls[start:]]
            self._after_calls()
        return moves

    # -- phase changes -------------------------------------------------------

    def end_play(self) -> None:
        """Score the deal once its trick or domino play is finished (its ``finished``): for
        whoever plays its cards through the play itself (as :meth:`Game.apply` does)."""
        assert self.contract is not None
        if self.tricks is not None:
            self._set_tally(self.contract.tally_from_tricks(self.tricks.result()))
        else:
            assert self.domino is not None
            self._set_tally({"order": list(self.domino.order)})

    def _set_contract(self, contract: Contract) -> None:
        self.contract = contract
        if contract.names_trump:
            self.phase = Phase.TRUMP
        elif contract.play == "domino" and self.rules.flags.domino_start == "named":
            self.phase = Phase.RANK
        else:
            self._after_choice()

    def _after_choice(self) -> None:
        assert self.contract is not None
        if self.rules.doubling:
            self.doubling = Doubling(
                self.players,
                self.declarer,
                self.contract.doubling_class != "positive",
                self.rules.flags,
                self.forced,
            )
            self.phase = Phase.CALL
        else:
            self._start_play()

    def _after_calls(self) -> None:
        assert self.contract is not None and self.doubling is not None
        if (
            self.rules.flags.skip_undoubled_negative
            and self.contract.doubling_class == "negative"
            and self.contract.play != "arrange"
            and not self.doubling.pairs()
        ):
            self.skipped = True
            total = self.rules.total(self.contract)
            self._score(skip_split(total, self.players, self.declarer))
            return
        self._start_play()

    def _start_play(self) -> None:
        contract = self.contract
        assert contract is not None
        if self.dealt is None:
            self.phase = Phase.TALLY
            return
        flags = self.rules.flags
        if contract.play == "arrange":
            self.phase = Phase.ARRANGE
            return
        self.phase = Phase.PLAY
        if contract.play == "domino":
            removed = self.rules.removed if flags.removed_card_rule == "laid" else 0
            openers = self.rules.domino_openers
            self.cardplay = self.domino = domino_play(
                list(self.dealt),
                self.rules.leader_of(self.declarer),
                self.rank,
                twin=self._twin,
                direction=self.rules.direction,
                low_rank=self.rules.ruleset.low_rank,
                removed=removed,
                ace_replays=flags.domino_ace_replays,
                openers=twin_mask(openers) if self._twin else openers,
            )
            return
        self.cardplay = self.tricks = trick_play(
            list(self.dealt), self.rules.leader_of(self.declarer), _trick_rules(self.rules, contract, self.trump)
        )

    def arrangements_by_seat(self) -> list[tuple[int, ...] | None]:
        """The arrangements handed in so far, by seat (None: not yet); they come in round-1 order."""
        by_seat: list[tuple[int, ...] | None] = [None] * self.players
        for s, a in zip(self._arrange_order(), self.arrangements, strict=False):
            by_seat[s] = a
        return by_seat

    def _arrange_order(self) -> list[int]:
        from barbu.doubling import round_one_order

        return round_one_order(self.players, self.declarer, self.rules.direction)

    def _set_tally(self, tally: Tally) -> None:
        assert self.contract is not None
        self.tally = tally
        if self.contract.play == "arrange" and self.arrangements == []:
            self.arrangements = [tuple(tally["arrangements"][s]) for s in self._arrange_order()]
        self._score(self.contract.raw(tally, self.rules.shape))

    def _score(self, raw: list[int]) -> None:
        self.raw = raw
        chooser = self.rules.chooser_adjustment(raw, self.declarer)
        self.adjustments = [a + b for a, b in zip(settle(raw, self.pairs()), chooser, strict=True)]
        self.final = [r + a for r, a in zip(raw, self.adjustments, strict=True)]
        self.phase = Phase.DONE

    # -- copies and descriptions ----------------------------------------------

    def copy(self) -> Deal:
        """An independent copy (for search and what-if)."""
        other = Deal.__new__(Deal)
        other.__dict__.update(self.__dict__)
        other.doubling = self.doubling.copy() if self.doubling is not None else None
        other.tricks = self.tricks.copy() if self.tricks is not None else None
        other.domino = self.domino.copy() if self.domino is not None else None
        other.cardplay = other.tricks if other.tricks is not None else other.domino
        other.arrangements = list(self.arrangements)
        other.plays = list(self.plays)
        other.play_seats = list(self.play_seats)
        return other

    def describe_choice(self) -> str:
        """The contract with its trump or rank, for people: ``trumps (S)``."""
        if self.contract is None:
            return "no contract yet"
        if self.trump is not None:
            return f"{self.contract.id} ({SUITS[self.trump]})"
        if self.rank is not None:
            return f"{self.contract.id} (from {RANKS[self.rank]})"
        return self.contract.id


_DECLARES: dict[str, Declare] = {}
"""One :class:`Declare` per contract id, made once (actions are immutable values)."""


def _declare(contract: str) -> Declare:
    found = _DECLARES[contract] = Declare(contract)
    return found


def _trick_rules(rules: Rules, contract: Contract, trump: int | None) -> TrickRules:
    """:meth:`TrickRules.of`, made once per rules, contract and trump instead of once per deal
    (kept with the rules, in :attr:`Rules.derived`)."""
    key = ("trick rules", contract.id, trump)
    derived = rules.derived
    found: TrickRules | None = derived.get(key)
    if found is None:
        found = derived[key] = TrickRules.of(rules, contract, trump)
    return found


_ACTION_PHASE: dict[type, Phase] = {
    Declare: Phase.CONTRACT,
    NameTrump: Phase.TRUMP,
    NameRank: Phase.RANK,
    Call: Phase.CALL,
    Arrange: Phase.ARRANGE,
    Play: Phase.PLAY,
    Pass: Phase.PLAY,
}

_VERB = {
    Phase.CONTRACT: "name a contract",
    Phase.TRUMP: "name the trump suit",
    Phase.RANK: "name the domino rank",
    Phase.CALL: "call",
    Phase.ARRANGE: "arrange its cards",
    Phase.PLAY: "play",
    Phase.TALLY: "enter the tally",
    Phase.DONE: "wait",
}

_NOT_YOUR_TURN = {
    Phase.CONTRACT: N_("seat {seat} cannot act now: it is seat {actor}'s turn to name a contract").template,
    Phase.TRUMP: N_("seat {seat} cannot act now: it is seat {actor}'s turn to name the trump suit").template,
    Phase.RANK: N_("seat {seat} cannot act now: it is seat {actor}'s turn to name the domino rank").template,
    Phase.CALL: N_("seat {seat} cannot act now: it is seat {actor}'s turn to call").template,
    Phase.ARRANGE: N_("seat {seat} cannot act now: it is seat {actor}'s turn to arrange its cards").template,
    Phase.PLAY: N_("seat {seat} cannot act now: it is seat {actor}'s turn to play").template,
    Phase.TALLY: N_("seat {seat} cannot act now: it is seat {actor}'s turn to enter the tally").template,
    Phase.DONE: N_("seat {seat} cannot act now: it is seat {actor}'s turn to wait").template,
}
"""An action out of turn, per phase: whole sentences, so that each is translated whole."""

_MUST_NOW = {
    Phase.CONTRACT: N_("seat {seat} must name a contract now, not {action}").template,
    Phase.TRUMP: N_("seat {seat} must name the trump suit now, not {action}").template,
    Phase.RANK: N_("seat {seat} must name the domino rank now, not {action}").template,
    Phase.CALL: N_("seat {seat} must call now, not {action}").template,
    Phase.ARRANGE: N_("seat {seat} must arrange its cards now, not {action}").template,
    Phase.PLAY: N_("seat {seat} must play now, not {action}").template,
    Phase.TALLY: N_("seat {seat} must enter the tally now, not {action}").template,
    Phase.DONE: N_("seat {seat} must wait now, not {action}").template,
}
"""An action of another phase, per phase."""
