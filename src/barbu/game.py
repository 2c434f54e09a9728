"""A whole game: the schedule of deals, declarer rotation, totals and ranking.

A game is its rule set, its deals (dealt from a secret seed, or given) and the
ordered list of actions; every state is a replay of that list.

>>> game = Game.new("classic", seed=7)
>>> game.phase, game.to_act == game.first_declarer
('contract', True)
>>> game.apply(Declare("no-queens"))
>>> game.phase
'call'
>>> import random
>>> rng = random.Random(1)
>>> while not game.is_over:
...     game.apply(rng.choice(game.legal_actions()))
>>> len(game.deals), sum(game.totals)
(28, 0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import repeat, starmap
from typing import Any, NamedTuple

from barbu.accel import deal_drawn
from barbu.actions import PLAYS, Action, Declare, EnterTally, Pass, Play, action_words
from barbu.contracts import Contract
from barbu.deal import _VERB, Deal, Phase, plays_of
from barbu.domino import DominoPlay
from barbu.doubling import forced_doublers
from barbu.errors import N_, IllegalAction
from barbu.rulesets import Rules, rules
from barbu.tricks import TrickPlay

_DONE = Phase.DONE
_PLAY = Phase.PLAY
_ARRANGE = Phase.ARRANGE
_GAME_OVER = N_("the game is over: no action is possible")
"""Read once: an enum member costs a class look-up each time."""
_new_tuple = tuple.__new__
_PLAY_OR_PASS: dict[int | None, Action] = {**dict(enumerate(PLAYS)), None: Pass()}
"""The action of a card played (None: a domino pass), as the fast door logs it."""
_ONE_DECK_PLAYS = (TrickPlay, DominoPlay)
"""The card plays of one deck, whose cards the checked door plays without the deal's frame
(with two decks a card is named by its face, and its action is logged as given)."""


class Move(NamedTuple):
    """One entry of the game's action log."""

    deal: int
    """0-based deal index."""
    seat: int | None
    """The seat that acted (None for a tally entered by the scorekeeper)."""
    action: Action


class Dealer:
    """Shuffles and deals from a seeded generator. The seed never leaves the server."""

    def __init__(self, seed: int | str | None) -> None:
        self._rng = random.Random(seed)

    def copy(self) -> Dealer:
        """A dealer that will deal what this one would deal next.

        >>> dealer = Dealer("seed")
        >>> dealer.copy().first_declarer(4) == dealer.first_declarer(4)
        True
        """
        other = Dealer.__new__(Dealer)
        other._rng = random.Random.__new__(random.Random)  # no seeding from the system's entropy: the state follows
        other._rng.setstate(self._rng.getstate())
        return other

    def first_declarer(self, players: int) -> int:
        """The first declarer, uniform over the seats (RULES.md §2.1)."""
        return self._rng.randrange(players)

    def deal(self, rules: Rules, declarer: int) -> list[int]:
        """Shuffle the deck and deal it one card at a time from the declarer (in compiled code
        when the accelerator is in use, :func:`barbu.accel.deal_drawn`: the same draws and hands)."""
        hands = deal_drawn(self._rng, rules, declarer)
        if hands is not None:
            return hands
        bits = rules.deck_bits
        count = len(bits)
        # the draws sorted(cards, key=lambda _: rand()) makes, in order (drawn and sorted in C)
        keys = list(starmap(self._rng.random, repeat((), count)))
        deck = list(map(bits.__getitem__, sorted(range(count), key=keys.__getitem__)))
        n = rules.players
        hands = [0] * n
        for i in range(n):
            hands[(declarer + rules.direction * i) % n] = sum(deck[i::n])  # distinct bits: the sum is their union
        return hands


class Game:
    """A game of Barbu under one rule set.

    Make one with :meth:`new` (dealt from a seed) or with the constructor and no
    dealer (a score sheet, or a record whose hands are given deal by deal with
    :meth:`give_hands`). Its ``repr`` sums it up and shows no card:

    >>> game = Game.new("classic", seed=7, first_declarer=2)
    >>> game
    <Game classic 4 players, deal 1/28, seat 2 to name a contract, totals [0, 0, 0, 0]>
    >>> game.apply(Declare("no-queens"))
    >>> game
    <Game classic 4 players, deal 1/28 no-queens, seat 3 to call, totals [0, 0, 0, 0]>
    """

    def __init__(self, rules: Rules, first_declarer: int = 0, dealer: Dealer | None = None) -> None:
        if not 0 <= first_declarer < rules.players:
            raise IllegalAction("game", f"first_declarer must be a seat from 0 to {rules.players - 1}")
        self.rules = rules
        self.first_declarer = first_declarer
        self._dealer = dealer
        self.deals: list[Deal] = []
        self._history: list[Move] = []
        """The log as written so far; the cards of :attr:`_cards` go in it (see :attr:`history`)."""
        self._cards: list[tuple[int, int, int, int]] = []
        """Runs of cards not yet in ``_history``: (where they go in it, the deal's place in
        :attr:`deals`, the first and the end of the run in the deal's :attr:`~Deal.plays`)."""
        self._logged = 0
        """How many cards of the last deal are in ``_history`` or :attr:`_cards`."""
        self.totals = [0] * rules.players
        self.is_over = False
        """True after the last scheduled deal (set when it is scored: read at every action by
        whoever drives a game, so a plain attribute rather than a look at the last deal)."""
        self._open_deal()

    @classmethod
    def new(
        cls,
        variant: str | Rules = "classic",
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
        first_declarer: int | None = None,
    ) -> Game:
        """A new game dealt from ``seed``; the first declarer is drawn unless given.

        ``variant`` is a rule set's name resolved with ``options``, or rules already
        resolved (a :class:`~barbu.rulesets.Rules`, shared: what many games of one rule set
        pass to skip resolving it again).

        >>> from barbu.rulesets import rules
        >>> Game.new(rules("classic"), seed=7).current.dealt == Game.new("classic", seed=7).current.dealt
        True
        """
        r = variant if isinstance(variant, Rules) else rules(variant, options)
        dealer = Dealer(seed)
        first = dealer.first_declarer(r.players) if first_declarer is None else first_declarer
        return cls(r, first, dealer)

    def __repr__(self) -> str:
        rules = self.rules
        head = f"<Game {rules.ruleset.name} {rules.players} players"
        tail = f"totals {self.totals}>"
        deal = self.current
        if deal is None:
            return f"{head}, over after {len(self.deals)} deals, {tail}"
        where = f"deal {deal.index + 1}/{rules.deal_count}"
        if deal.contract is not None:
            where += f" {deal.contract.id}"
        if deal.phase is Phase.TALLY:
            return f"{head}, {where}, waiting for its tally, {tail}"
        return f"{head}, {where}, seat {deal.to_act} to {_VERB[deal.phase]}, {tail}"

    # -- the schedule ------------------------------------------------------------

    def _open_deal(self) -> None:
        i = len(self.deals)
        if i >= self.rules.deal_count:
            self.is_over = True
            return
        declarer = self.rules.declarer_of(i, self.first_declarer)
        own = [d for d in self.deals if d.declarer == declarer]
        flags = self.rules.flags
        forced: frozenset[int] = frozenset()
        if self.rules.doubling:
            forced = forced_doublers(
                self.rules.players,
                declarer,
                flags.compulsory_doubles,
                len(own) + 1,
                self.rules.contracts_per_declarer,
                [d.doubling.doubled_declarer if d.doubling else frozenset() for d in own],
            )
        hands = self._dealer.deal(self.rules, declarer) if self._dealer else None
        self._logged = 0
        self.deals.append(Deal(self.rules, i, declarer, hands, self._available(declarer, own), forced))

    def _available(self, declarer: int, own: Sequence[Deal]) -> list[Contract]:
        named = [d.contract for d in own if d.contract is not None]
        return self.rules.available(named, [d.contract for d in self.deals if d.contract is not None])

    def owed_doubles(self) -> list[list[int]]:
        """Compulsory doubles still owed (RULES.md §2.7): ``owed[declarer][seat]``, how many more
        times ``seat`` must double ``declarer`` in round 1 during that declarer's set.

        A declarer's own entry is 0; every entry is 0 when the rule is off or there is no doubling.

        >>> game = Game.new("classic", seed=3)
        >>> game.owed_doubles()[0]
        [0, 2, 2, 2]
        """
        players = self.rules.players
        need = self.rules.flags.compulsory_doubles if self.rules.doubling else 0
        owed = [[0] * players for _ in range(players)]
        if need == 0:
            return owed
        for declarer in range(players):
            done = [0] * players
            for d in self.deals:
                if d.declarer == declarer and d.doubling is not None:
                    for seat in d.doubling.doubled_declarer:
                        done[seat] += 1
            owed[declarer] = [0 if s == declarer else max(0, need - done[s]) for s in range(players)]
        return owed

    def give_hands(self, hands: Sequence[int]) -> None:
        """Give the current deal its hands (masks), before any action of that deal.

        Used when replaying a record whose hands are written down.
        """
        deal = self.current
        if deal is None:
            raise IllegalAction("hands", "the game is over")
        deal.give_hands(hands)

    # -- reading the state -------------------------------------------------------

    @property
    def current(self) -> Deal | None:
        """The deal in progress, or None once the game is over."""
        deals = self.deals
        if deals and deals[-1].phase is not _DONE:
            return deals[-1]
        return None

    @property
    def phase(self) -> str:
        """The phase of the deal in progress (``game_over`` at the end)."""
        deal = self.current
        return str(deal.phase) if deal is not None else "game_over"

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None (game over, or a deal waiting for its tally)."""
        deal = self.current
        return deal.to_act if deal is not None else None

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions of the seat to act (see :meth:`Deal.legal_actions`)."""
        deal = self.deals[-1]
        play = deal.cardplay
        if type(play) in _ONE_DECK_PLAYS and deal.phase is _PLAY:  # one deck's cards, the common case
            mask = play.legal_mask()  # type: ignore[union-attr]
            if mask:  # as the deal lists them (none: a domino pass, listed by the deal)
                return plays_of(mask)
        return deal.legal_actions()  # a finished deal has none

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        """Whether ``action`` (by ``seat``, if given) would be accepted now."""
        try:
            self.check(action, seat)
        except IllegalAction:
            return False
        return True

    def check(self, action: Action, seat: int | None = None) -> bool:
        """Raise what :meth:`apply` would raise for ``action`` by ``seat``, changing nothing;
        otherwise say whether the action would end the game.

        For a server that writes an action down before the game takes it: the game object
        stays the same (and so do the views' caches of it) instead of becoming a copy. An
        action the deal lists for the seat to act (:meth:`legal_actions`) is accepted as it
        stands; any other, and every action of the last deal (which may end the game), is
        tried on a copy of the deal in play.

        >>> game = Game.new("classic", seed=3)
        >>> game.check(Declare("no-queens"))
        False
        >>> game.check(Declare("no-queens"), seat=(game.to_act + 1) % 4)
        Traceback (most recent call last):
        ...
        barbu.errors.OutOfTurn: ...
        """
        deal = self.deals[-1]
        if deal.phase is _DONE:
            raise IllegalAction("game", _GAME_OVER, seat)
        if (
            deal.index + 1 < self.rules.deal_count
            and (seat is None or seat == deal.to_act)
            and deal.phase is not _ARRANGE
            and action in deal.legal_actions()
        ):
            return False  # one of the listed actions of the seat to act, and not in the last deal: no copy needed
        probe = deal.copy()
        try:
            probe.apply(action, seat)
        except IllegalAction as e:
            self._about(e, deal, action)
            raise
        return probe.phase is _DONE and deal.index + 1 >= self.rules.deal_count

    def finished_deals(self) -> list[Deal]:
        """The scored deals, in order."""
        return [d for d in self.deals if d.finished]

    def ranking(self) -> list[int]:
        """Rank per seat, 1 = best; equal totals share a rank (french: lowest is best)."""
        keys = [-self.rules.sign * t for t in self.totals]
        return [1 + sum(1 for k in keys if k < mine) for mine in keys]

    def winners(self) -> list[int]:
        """The seats ranked first."""
        return [s for s, r in enumerate(self.ranking()) if r == 1]

    def winners_turkish(self) -> list[int]:
        """``king``'s custom: every seat with a positive total (all seats if all are 0)."""
        if all(t == 0 for t in self.totals):
            return list(range(self.rules.players))
        return [s for s, t in enumerate(self.totals) if t > 0]

    # -- acting ------------------------------------------------------------------

    @property
    def history(self) -> list[Move]:
        """The game's action log: one :class:`Move` per action taken, in order.

        >>> game = Game.new("classic", seed=7)
        >>> game.apply(Declare("no-queens"))
        >>> game.history
        [Move(deal=0, seat=2, action=Declare('no-queens'))]

        A deal keeps its cards and their seats in order (:attr:`Deal.plays`,
        :attr:`Deal.play_seats`), so a card the checked door plays is not written here as it is
        played (a :class:`Move` per card was a tenth of a random game's instructions): the runs of cards
        are noted (:meth:`_note_cards`) and their moves made when the log is read.
        """
        self._note_cards()
        runs = self._cards
        if runs:
            log = self._history
            first = runs[0][0]
            after = log[first:]  # the moves written after the first run's place
            del log[first:]
            done = first
            for at, place, start, end in runs:
                log += after[done - first : at - first]
                deal = self.deals[place]
                # Move(index, seat, PLAYS[card] or Pass()) for each card, without its Python __new__
                log += map(
                    _new_tuple,
                    repeat(Move),
                    zip(
                        repeat(deal.index),
                        deal.play_seats[start:end],
                        map(_PLAY_OR_PASS.__getitem__, deal.plays[start:end]),
                    ),
                )
                done = at
            log += after[done - first :]
            runs.clear()
        return self._history

    def _note_cards(self, end: int | None = None) -> None:
        """Note the cards of the last deal played since the last note or move written (up to
        ``end`` in :attr:`Deal.plays`, if given)."""
        deal = self.deals[-1]
        start = self._logged
        if end is None:
            end = len(deal.plays)
        if end > start:
            self._cards.append((len(self._history), len(self.deals) - 1, start, end))
            self._logged = end

    def _log(self, deal: Deal, actor: int | None, action: Action) -> None:
        """Write ``action`` by ``actor``, just applied to ``deal`` (the last deal), to the log,
        after the cards played before it (noted first: :meth:`_note_cards`)."""
        self._history.append(_new_tuple(Move, (deal.index, actor, action)))  # Move(...) without its Python __new__
        self._logged = len(deal.plays)  # ``action`` itself, if it was a card

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Check ``action`` by ``seat`` (the seat to act if None) and apply it.

        Raises :class:`~barbu.errors.IllegalAction`; the game is then unchanged.
        """
        deal = self.deals[-1]
        if deal.phase is _DONE:
            raise IllegalAction("game", _GAME_OVER, seat)
        play = deal.cardplay
        kind = type(action)
        if (
            type(play) in _ONE_DECK_PLAYS
            and (kind is Play or kind is Pass)
            and play.play_logged(action.card if kind is Play else None, seat, deal.plays, deal.play_seats)  # type: ignore[union-attr]
            is not None
        ):  # one deck's legal card or domino pass, the common case: checked and played in one call (as
            # Deal.apply plays it), logged with the deal's cards
            if play.finished:  # type: ignore[union-attr]
                self.close_play()
            return
        before = len(deal.plays)
        try:
            actor = deal.apply(action, seat)
        except IllegalAction as e:
            self._about(e, deal, action)
            raise
        if before > self._logged:  # a refused action changes nothing, the notes included
            self._note_cards(before)
        if len(deal.plays) == before or deal.rules.twin:  # not a card, or a card named by its face (two decks)
            self._log(deal, actor, action)
        if deal.phase is _DONE:
            self._close_deal(deal)

    def close_play(self) -> None:
        """Score the current deal once its one-deck card play, played through the play itself
        (``play_logged``, as :meth:`apply` plays a card), is finished, and open the next deal.

        >>> game = Game.new("classic", seed=7)
        >>> game.apply(Declare("no-tricks"))
        >>> while game.current.phase != "play":
        ...     game.apply(game.legal_actions()[0])
        >>> deal = game.current
        >>> while not deal.cardplay.finished:
        ...     _ = deal.cardplay.play_logged(game.legal_actions()[0].card, None, deal.plays, deal.play_seats)
        >>> game.close_play()
        >>> deal.final is not None, game.current is not deal, len(game.totals)
        (True, True, 4)
        """
        deal = self.deals[-1]
        deal.end_play()
        self._close_deal(deal)

    @staticmethod
    def _about(e: IllegalAction, deal: Deal, action: Action) -> None:
        """Make ``deal.apply``'s refusal ``e`` say which deal and action it was about."""
        e.deal = deal.index + 1
        e.action = None if isinstance(action, EnterTally) else action_words(action)

    def apply_unchecked(self, action: Action) -> None:
        """Apply a legal action without checking it (fast door)."""
        deal = self.deals[-1]
        assert deal.phase is not _DONE
        actor = deal.to_act
        self._note_cards()
        deal.apply_unchecked(action)
        self._log(deal, actor, action)
        if deal.phase is _DONE:
            self._close_deal(deal)

    def call_random(self, rngs: Sequence[random.Random]) -> None:
        """Make the current deal's contract choice, trump or rank and calls as random bots
        would, each seat drawing from its own generator in ``rngs`` (see :meth:`Deal.call_random`),
        logged as :meth:`apply_unchecked` would log each action; the deal is then at its cards
        or arrangements, or scored and the next one open.

        >>> game = Game.new("classic", seed=7)
        >>> game.call_random([random.Random(s) for s in range(4)])
        >>> game.phase, game.history[0] == Move(0, game.first_declarer, Declare(game.current.contract.id))
        ('play', True)
        """
        deal = self.deals[-1]
        index = deal.index
        self._history += [_new_tuple(Move, (index, seat, action)) for seat, action in deal.call_random(rngs)]
        if deal.phase is _DONE:
            self._close_deal(deal)

    def play_random(self, rngs: Sequence[random.Random]) -> bool:
        """Play the rest of the current one-deck trick or domino deal as random bots would,
        each seat drawing from its own generator in ``rngs``, in compiled code (see
        :meth:`Deal.play_random`), logged as ``apply_unchecked(Play(card))`` (or ``Pass()``)
        would log each card. False, with nothing played, when there is no compiled path.

        >>> game = Game.new("classic", seed=7)
        >>> game.apply(Declare("no-tricks"))
        >>> while game.current.phase != "play":
        ...     game.apply(game.legal_actions()[-1])  # every seat doubles what it may
        >>> from barbu import accel
        >>> game.play_random([random.Random(s) for s in range(4)]) == accel.NATIVE
        True
        >>> not accel.NATIVE or (game.current.index, len(game.history)) == (1, 57)
        True
        """
        deal = self.current
        assert deal is not None
        if not deal.play_random(rngs):  # logged with the deal's cards (one deck: each card is its own Play)
            return False
        if deal.phase is _DONE:
            self._close_deal(deal)
        return True

    def _close_deal(self, deal: Deal) -> None:
        """Add a scored deal to the totals and open the next one."""
        assert deal.final is not None
        self._note_cards()
        self.totals = [t + f for t, f in zip(self.totals, deal.final, strict=True)]
        self._open_deal()

    def copy(self) -> Game:
        """An independent copy; its dealer deals what this game's would."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._dealer = self._dealer.copy() if self._dealer is not None else None
        other.deals = [d.copy() for d in self.deals]
        other._history = list(self._history)
        other._cards = list(self._cards)
        other.totals = list(self.totals)
        return other

    def ended(self, count: int) -> Game:
        """The game as it was when its ``count``-th deal ended, before the next one opened, for
        showing the end of an episode that stops at a deal, much cheaper than a :meth:`copy` cut
        short. ``count`` must be the number of deals ended so far, at least 1, with the deal
        after them open (``len(deals) - 1``): any other count raises a ValueError. Its first
        ``count`` deals, finished, are shared with this game (nothing changes a finished deal);
        its log and totals are a copy of this game's without the open deal's moves (its totals
        hold no score of the open deal); it has no dealer (it deals no more).

        >>> game = Game.new("classic", seed=7)
        >>> game.call_random([random.Random(s) for s in range(4)])
        >>> while len(game.deals) == 1:
        ...     game.apply(game.legal_actions()[0])
        >>> game.apply(game.legal_actions()[0])  # the open deal's first move: not in the ended game
        >>> ended = game.ended(1)
        >>> ended.deals == game.deals[:1], ended.current, ended.totals == game.totals, len(game.deals)
        (True, None, True, 2)
        >>> ended.history == game.history[:-1]
        True
        """
        deals = self.deals
        if count < 1 or count != len(deals) - 1 or deals[-1].phase is _DONE:
            raise ValueError(
                f"a game ends at the deals it has ended with the next one open ({len(deals) - 1}), not at {count}"
            )
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._dealer = None
        other.deals = deals[:count]
        history = self._history
        kept = len(history)
        while kept and history[kept - 1].deal >= count:  # the open deal's moves, the last ones logged
            kept -= 1
        other._history = history[:kept]
        other._cards = [run for run in self._cards if run[1] < count]  # runs of cards of the ended deals
        other._logged = len(deals[count - 1].plays)  # every card of the last deal ended is in the log or its runs
        other.totals = list(self.totals)
        return other

    def waiting_for_tally(self) -> bool:
        """True when the deal in progress waits for a scorekeeper's tally."""
        deal = self.current
        return deal is not None and deal.phase is Phase.TALLY


__all__ = ["Dealer", "Declare", "Game", "Move"]
