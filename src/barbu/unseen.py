"""The cards a seat cannot see: what the play shows about them, and deals of them.

A seat sees only its :class:`~barbu.view.SeatView`. A bot that looks ahead (and
OpenSpiel's ``resample_from_infostate``) deals the cards it cannot see to the other
seats in a way that agrees with everything the view shows:

- its own hand and every card played so far are not unseen;
- each seat holds as many cards as the view says (``cards_left``);
- a seat holds no card with which the core would not have let it play as it did
  (:func:`shown_not_held` asks the core's legality, play by play: a discard shows a
  void, a heart led under the heart-lead rule shows only hearts, a trump kept back
  or a penalty card kept back shows none held, a domino pass or an ace laid without
  a replay shows no playable card).

:func:`hidden_cards` reads those facts from a view, :func:`sample_hands` deals the
unseen cards under them from a given ``random.Random``, and :func:`deal_from_view`
rebuilds a :class:`~barbu.deal.Deal` from the sampled hands and the public actions of
the view, ready for the fast door (``apply_unchecked``, ``legal_mask``, ``copy``).

>>> from barbu import Game, seat_view
>>> from barbu.actions import Declare
>>> game = Game.new("classic", seed=4)
>>> game.apply(Declare("no-tricks"))
>>> view = seat_view(game, game.to_act)
>>> hidden = hidden_cards(view)
>>> hidden.unseen.bit_count(), hidden.counts
(39, (13, 13, 13, 13))
>>> import random
>>> hands = sample_hands(hidden, random.Random(1))
>>> hands[view.seat] == hidden.hand, sum(h.bit_count() for h in hands)
(True, 52)
>>> deal = deal_from_view(view, hands)
>>> deal.phase, deal.to_act == view.to_act
(<Phase.CALL: 'call'>, True)
"""

from __future__ import annotations

import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from barbu import accel
from barbu.actions import Call, Declare, NameRank, NameTrump
from barbu.cards import RANKS, SUITS, cards_of, mask_of
from barbu.deal import Deal, Phase
from barbu.domino import DominoPlay
from barbu.doubling import forced_doublers
from barbu.errors import ViewError
from barbu.rulesets import Rules, rules
from barbu.tricks import TrickPlay
from barbu.view import SeatView


def view_rules(view: SeatView) -> Rules:
    """The :class:`~barbu.rulesets.Rules` a view's table plays by (its rule set and options)."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in view.options.items()))
    return _rules(view.variant, key)


@lru_cache(maxsize=64)
def _rules(variant: str, key: tuple[tuple[str, Any], ...]) -> Rules:
    return rules(variant, {k: list(v) if isinstance(v, tuple) else v for k, v in key})


@dataclass(frozen=True)
class HiddenCards:
    """What one seat knows about the cards it cannot see, as masks.

    ``counts[s]`` is how many cards seat ``s`` holds now; ``excluded[s]`` the unseen
    cards the play has shown seat ``s`` cannot hold (:func:`shown_not_held`);
    ``played[s]`` the cards ``s`` has played in this deal. ``unseen`` holds exactly the other seats' cards.
    """

    seat: int
    hand: int
    unseen: int
    counts: tuple[int, ...]
    excluded: tuple[int, ...]
    played: tuple[int, ...]

    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.counts)


def hidden_cards(view: SeatView, table: Rules | None = None) -> HiddenCards:
    """The unseen cards of ``view``'s seat and what the play has shown about them."""
    if view.seat is None:
        raise ViewError("a spectator's view has no seat: hidden cards are those of a seat")
    r = table or view_rules(view)
    n = view.players
    hand = mask_of(view.hand)
    played = [0] * n
    for s, c in view.plays:
        if c is not None:
            played[s] |= 1 << c
    gone = 0
    for m in played:
        gone |= m
    unseen = r.deck & ~hand & ~gone
    counts = list(view.cards_left)
    counts[view.seat] = hand.bit_count()
    shown = shown_not_held(view, r)
    excluded = [0 if s == view.seat else m & unseen for s, m in enumerate(shown)]
    return HiddenCards(view.seat, hand, unseen, tuple(counts), tuple(excluded), tuple(played))


def shown_not_held(view: SeatView, table: Rules | None = None) -> tuple[int, ...]:
    """Per seat, the cards its plays in this deal show it cannot hold (for every seat alike).

    The core's own door is asked, play by play: a copy of the deal in which every seat
    could hold any card replays the public actions, and before each play the seat is
    given the card it played and one other card ``x``; when the core would not have let
    it play as it did (``TrickPlay.legal_for``, the domino's ``legal_mask`` and its turn),
    ``x`` is shown not held. That is sound because the core's rules only ever narrow as
    a hand grows: a card allowed from a hand is allowed from any smaller hand that holds
    it (a card of the suit led is never forced by holding less), and a domino seat that
    would have to play again with fewer cards would with more. The same reading gives the
    shortcut: a play the core allows from every card still out shows nothing.

    >>> from barbu import Game, seat_view
    >>> from barbu.actions import Call, Declare, Play
    >>> from barbu.cards import card, parse_pbn, pbn
    >>> game = Game(rules("classic"), first_declarer=0)
    >>> game.give_hands([parse_pbn(h) for h in ("AKQJT98765432...", ".AKQJT98765432..",
    ...                                         "..AKQJT98765432.", "...AKQJT98765432")])
    >>> game.apply(Declare("no-tricks"))
    >>> for call in (Call(double=(0,)), Call(double=(0,)), Call(double=(0,)), Call()):
    ...     game.apply(call)
    >>> game.apply(Play(card("2S"))); game.apply(Play(card("AH")))
    >>> pbn(shown_not_held(seat_view(game, 2))[1])  # seat 1 discarded: it holds no spade
    'AKQJT9876543...'
    """
    r = table or view_rules(view)
    plays = view.plays
    if view.contract is None or not plays:
        return (0,) * view.players
    key = (id(r), view.deal_number, view.declarer, view.contract, view.trump, view.rank, view.calls)
    with _LOCK:
        known = _PROGRESS.get(key)
        if known is not None and known.rules is r and plays[: len(known.plays)] == known.plays:
            _PROGRESS.move_to_end(key)
            start = known.resumed()
        else:
            start = None
    if start is None:
        deal = _anything_held(view, r)
        if deal.cardplay is None:
            return (0,) * view.players
        start = _Progress(r, plays[:1], deal.cardplay, [0] * view.players, 0)
    # Every play but the last is read with the seat that acted after it; the last with the
    # seat to act now, so the progress kept for later views stops before it.
    done = len(start.plays) - 1
    start.advance(plays, done, len(plays) - 1)
    start.plays = plays
    with _LOCK:
        _PROGRESS[key] = start.resumed()
        while len(_PROGRESS) > 256:
            _PROGRESS.popitem(last=False)
    start.advance(plays, len(plays) - 1, len(plays), view.to_act)
    return tuple(start.shown)


class _Progress:
    """What :func:`shown_not_held` has read of one deal's plays: ``plays[:-1]`` are read (each
    with the seat that acted after it), ``play`` stands before ``plays[-1]``."""

    def __init__(
        self,
        rules: Rules,
        plays: tuple[tuple[int, int | None], ...],
        play: TrickPlay | DominoPlay,
        shown: list[int],
        gone: int,
    ) -> None:
        self.rules = rules
        self.plays = plays
        self.play = play
        self.shown = shown
        self.gone = gone

    def resumed(self) -> _Progress:
        """An independent copy to read further plays with."""
        return _Progress(self.rules, self.plays, self.play.copy(), list(self.shown), self.gone)

    def advance(
        self, plays: tuple[tuple[int, int | None], ...], start: int, stop: int, then: int | None = None
    ) -> None:
        """Read ``plays[start:stop]``; ``then`` is the seat that acted after the last of them
        when no play follows it."""
        play = self.play
        deck = self.rules.deck
        for i in range(start, stop):
            s, c = plays[i]
            bit = 0 if c is None else 1 << c
            out = deck & ~self.gone & ~bit
            if isinstance(play, TrickPlay):
                assert c is not None, "only domino has passes"
                self.shown[s] |= _not_held(_trick_door(play, c), out, bit)
                play.play(c)
            else:
                following = plays[i + 1][0] if i + 1 < len(plays) else then
                self.shown[s] |= _not_held(_domino_door(play, s, c, moved_on=following != s), out, bit)
                play.turn = s
                play.play(c)
            self.gone |= bit


_LOCK = threading.Lock()
_PROGRESS: OrderedDict[tuple[Any, ...], _Progress] = OrderedDict()
"""The latest progress per deal (its rules, number, declarer, choices and calls): a bot asks
again after each play, and reads only the plays since (a few hundred deals kept)."""


def _not_held(allows: Callable[[int], bool], out: int, bit: int) -> int:
    """The cards ``x`` of ``out`` such that the play ``bit`` is not allowed from ``{x} | bit``."""
    if not out or allows(out | bit):
        return 0
    shown = 0
    for x in cards_of(out):
        if not allows(1 << x | bit):
            shown |= 1 << x
    return shown


def _trick_door(play: TrickPlay, c: int) -> Callable[[int], bool]:
    """Whether the trick play, as it stands, would let the seat to play holding a hand play ``c``."""
    trick, before = list(play.trick), play.played

    def allows(hand: int) -> bool:
        return bool(play.legal_for(hand, trick, before) >> c & 1)

    return allows


def _domino_door(play: DominoPlay, seat: int, c: int | None, moved_on: bool) -> Callable[[int], bool]:
    """Whether the domino play would have let ``seat`` holding a hand lay ``c`` (or pass, for
    None) and, when the turn moved on after it, would have moved on too (an ace laid under
    ``domino_ace_replays`` keeps the turn of a seat that can still lay a card)."""

    def allows(hand: int) -> bool:
        probe = play.copy()
        probe.turn = seat
        probe.hands[seat] = hand
        legal = probe.legal_mask()
        if c is None:
            return not legal
        if not legal >> c & 1:
            return False
        if not moved_on:
            return True
        probe.play(c)
        return probe.turn != seat

    return allows


def _anything_held(view: SeatView, r: Rules) -> Deal:
    """The view's deal with every seat holding the whole deck, replayed up to its first play."""
    assert view.declarer is not None and view.contract is not None
    available = [r.contract(view.contract)]
    deal = Deal(r, view.deal_number - 1, view.declarer, [r.deck] * view.players, available, forced_of(view, r))
    replay_choices(deal, view)
    return deal


def sample_hands(hidden: HiddenCards, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the other seats, agreeing with ``hidden``; own hand kept.

    The most constrained cards are placed first, each to a seat chosen with weight
    proportional to the room it has left; if that greedy deal gets stuck a few times,
    an exact matching finds a consistent deal (one always exists: the real one).
    Returns the current hand of every seat. With the accelerator in use, a
    ``random.Random`` and one deck, the greedy deals are drawn in compiled code, drawing from
    ``rng`` exactly as this code draws: the same hands, the generator left in the same state.
    """
    n = hidden.players
    seat = hidden.seat
    others, allowed, unseen, room = _places(hidden)
    if _SAMPLER is not None and type(rng) is random.Random and not (hidden.unseen | hidden.hand) >> 64:  # one deck
        hands, cards = _SAMPLER(rng.getrandbits, seat, hidden.hand, hidden.counts, unseen, _seat_masks(hidden), _TRIES)
        if hands is not None:
            return hands
        return _matched_hands(hidden, cards, allowed, others, rng)
    cards = list(unseen)
    rng.shuffle(cards)
    cards.sort(key=room.__getitem__)
    randrange = rng.randrange
    for _ in range(_TRIES):
        left = list(hidden.counts)
        hands = [0] * n
        for c in cards:
            places = allowed[c]
            if len(places) == 1:
                s = places[0]
                if not left[s]:
                    break
            else:
                options = [s for s in places if left[s]]
                if not options:
                    break
                if len(options) == 1:
                    s = options[0]
                else:
                    total = 0
                    for s in options:
                        total += left[s]
                    x = randrange(total)
                    for s in options:
                        x -= left[s]
                        if x < 0:
                            break
            hands[s] |= 1 << c
            left[s] -= 1
        else:
            hands[seat] = hidden.hand
            return hands
    return _matched_hands(hidden, cards, allowed, others, rng)


_TRIES = 8
"""Greedy deals :func:`sample_hands` tries before it matches the cards exactly."""

_SAMPLER = accel.hand_sampler()
"""The compiled greedy deals of :func:`sample_hands` (None on the pure path)."""


@lru_cache(maxsize=16)
def _seat_masks(hidden: HiddenCards) -> tuple[int, ...]:
    """For each unseen card in order, the mask of the seats it may lie with (read only)."""
    _, allowed, unseen, _ = _places(hidden)
    return tuple(sum(1 << s for s in allowed[c]) for c in unseen)


@lru_cache(maxsize=16)
def _places(hidden: HiddenCards) -> tuple[list[int], dict[int, list[int]], tuple[int, ...], dict[int, int]]:
    """The seats that hold unseen cards, the seats each unseen card may lie with, the unseen
    cards in order and how many seats each may lie with (remembered: a search samples many
    deals from the same facts; read only)."""
    others = [s for s in range(hidden.players) if s != hidden.seat and hidden.counts[s]]
    unseen = tuple(cards_of(hidden.unseen))
    allowed = {c: [s for s in others if not hidden.excluded[s] >> c & 1] for c in unseen}
    return others, allowed, unseen, {c: len(seats) for c, seats in allowed.items()}


def _matched_hands(
    hidden: HiddenCards, cards: list[int], allowed: dict[int, list[int]], others: list[int], rng: random.Random
) -> list[int]:
    """An exact deal by augmenting paths (cards to seats with room), in random order."""
    held: dict[int, list[int]] = {s: [] for s in others}

    def place(c: int, visited: set[int]) -> bool:
        seats = list(allowed[c])
        rng.shuffle(seats)
        for s in seats:
            if s in visited:
                continue
            visited.add(s)
            if len(held[s]) < hidden.counts[s]:
                held[s].append(c)
                return True
            for i, other in enumerate(held[s]):
                if place(other, visited):
                    held[s][i] = c
                    return True
        return False

    for c in cards:
        if not place(c, set()):
            raise ViewError("no deal agrees with this view: the view's facts contradict each other")
    hands = [0] * hidden.players
    for s, cs in held.items():
        hands[s] = mask_of(cs)
    hands[hidden.seat] = hidden.hand
    return hands


def forced_of(view: SeatView, table: Rules | None = None) -> frozenset[int]:
    """The seats bound to double the declarer in this deal (RULES.md §2.7), from public history."""
    r = table or view_rules(view)
    if not r.doubling or view.declarer is None:
        return frozenset()
    own = [h for h in view.history if h.declarer == view.declarer]
    earlier = [frozenset(a for a, b, _ in h.pairs if b == view.declarer) for h in own]
    return forced_doublers(
        r.players, view.declarer, r.flags.compulsory_doubles, len(own) + 1, r.contracts_per_declarer, earlier
    )


def deal_from_view(
    view: SeatView, hands: list[int], table: Rules | None = None, hidden: HiddenCards | None = None
) -> Deal:
    """A deal dealt ``hands`` (each seat's current cards) and replayed to where ``view`` stands.

    The dealt hands are the current ones plus the cards each seat has played; the
    public actions of the view (contract, trump or rank, calls, plays) are applied
    through the fast door. In the ``arrange`` phase the deal stops before the
    arrangements (the others' are hidden).
    """
    r = table or view_rules(view)
    facts = hidden or hidden_cards(view, r)
    dealt = [hands[s] | facts.played[s] for s in range(view.players)]
    if view.phase == "contract":
        available = [r.contract(c) for c in view.contracts_left]
    else:
        available = [r.contract(view.contract)] if view.contract is not None else []
    assert view.declarer is not None
    deal = Deal(r, view.deal_number - 1, view.declarer, dealt, available, forced_of(view, r))
    replay_public(deal, view)
    return deal


class WorldDeals:
    """Deals rebuilt from one view, one per sampled deal of the unseen cards.

    :meth:`deal` gives what :func:`deal_from_view` gives for the same hands, but the
    view's public actions are replayed only once: every later world is a copy of
    that deal holding its own hands (the public play does not depend on the hidden
    cards of a world that agrees with the view).
    """

    def __init__(self, view: SeatView, table: Rules | None = None, hidden: HiddenCards | None = None) -> None:
        self.view = view
        self.table = table or view_rules(view)
        self.hidden = hidden or hidden_cards(view, self.table)
        self._template: Deal | None = None

    def deal(self, hands: list[int]) -> Deal:
        """A fresh deal dealt ``hands`` (each seat's current cards), where the view stands."""
        if self._template is None:
            self._template = deal_from_view(self.view, hands, self.table, self.hidden)
        d = self._template.copy()
        played = self.hidden.played
        d.dealt = tuple(h | p for h, p in zip(hands, played, strict=True))
        if d.cardplay is not None:
            d.cardplay.set_hands(hands)
        return d


def replay_public(deal: Deal, view: SeatView) -> None:
    """Apply the public actions of ``view`` (contract, trump, rank, calls, plays) to ``deal``."""
    replay_choices(deal, view)
    for _, c in view.plays:
        deal.play_unchecked(c)


def replay_choices(deal: Deal, view: SeatView) -> None:
    """Apply the public actions of ``view`` that come before the play (contract, trump, rank, calls)."""
    if view.contract is not None and deal.contract is None:
        deal.apply_unchecked(Declare(view.contract))
    if view.trump is not None and deal.phase is Phase.TRUMP:
        deal.apply_unchecked(NameTrump(SUITS.index(view.trump)))
    if view.rank is not None and deal.phase is Phase.RANK:
        deal.apply_unchecked(NameRank(RANKS.index(view.rank)))
    for _, _, doubles, redoubles in view.calls:
        deal.apply_unchecked(Call(double=doubles, redouble=redoubles))
