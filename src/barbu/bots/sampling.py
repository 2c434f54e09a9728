"""Deals consistent with one seat's view: the unseen cards, what the play showed, rebuilt deals.

A bot sees only its :class:`~barbu.view.SeatView`. To look ahead it deals the cards
it cannot see to the other seats in a way that agrees with everything the view shows:

- its own hand and every card played so far are not unseen;
- each seat holds as many cards as the view says (``cards_left``);
- a seat that did not follow suit holds none of the suit led; a seat that led a heart
  under the heart-lead rule held nothing but hearts; a seat that discarded without
  trumping holds no trump it was bound to play; a seat that kept back a penalty card
  under ``forced_penalty`` holds none; a domino pass (or an ace laid without a replay)
  shows the seat held no playable card.

:func:`hidden_cards` reads those facts from a view, :func:`sample_hands` deals the
unseen cards under them, and :func:`deal_from_view` rebuilds a
:class:`~barbu.deal.Deal` from the sampled hands and the public actions of the view,
ready for the fast door (``apply_unchecked``, ``legal_mask``, ``copy``).

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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from barbu.actions import Call, Declare, NameRank, NameTrump
from barbu.bots.errors import BotError
from barbu.cards import ACE, FULL_DECK, HEARTS, RANKS, SUIT_MASKS, SUITS, cards_of, mask_of
from barbu.deal import Deal, Phase
from barbu.domino import DominoPlay
from barbu.doubling import forced_doublers
from barbu.rulesets import Rules, rules
from barbu.view import SeatView, TrickView

HEART_MASK = SUIT_MASKS[HEARTS]
NOT_HEARTS = FULL_DECK & ~HEART_MASK


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

    ``counts[s]`` is how many cards seat ``s`` holds now; ``excluded[s]`` the cards the
    play has shown seat ``s`` cannot hold; ``played[s]`` the cards ``s`` has played in
    this deal. ``unseen`` holds exactly the other seats' cards.
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
        raise BotError("a spectator's view has no seat: hidden cards are those of a seat")
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
    excluded = [0] * n
    if view.contract is not None and view.plays:
        contract = r.contract(view.contract)
        if contract.play == "domino":
            _domino_facts(view, r, excluded)
        elif contract.play == "tricks":
            _trick_facts(view, r, excluded)
    excluded[view.seat] = 0
    return HiddenCards(view.seat, hand, unseen, tuple(counts), tuple(excluded), tuple(played))


def _trick_facts(view: SeatView, r: Rules, excluded: list[int]) -> None:
    contract = r.contract(view.contract or "")
    flags = r.flags
    trump = SUITS.index(view.trump) if contract.names_trump and view.trump is not None else None
    heart_rule = contract.heart_lead_rule and flags.heart_lead != "free"
    penalty = contract.penalty_cards(r.deck) if flags.forced_penalty else 0
    before = 0
    tricks: list[TrickView] = list(view.tricks)
    if view.current_trick is not None:
        tricks.append(view.current_trick)
    for trick in tricks:
        for i, (c, s) in enumerate(zip(trick.cards, trick.seats, strict=True)):
            prior = trick.cards[:i]
            if not prior:
                broken = flags.heart_lead == "broken" and before & HEART_MASK
                if heart_rule and (1 << c) & HEART_MASK and not broken:
                    excluded[s] |= NOT_HEARTS
                continue
            excluded[s] |= _shown_by_follow(prior, c, trump, penalty, r)
        before |= mask_of(trick.cards)


def _above(card: int) -> int:
    """Every card index above ``card`` (within a suit mask: the higher ranks)."""
    return FULL_DECK & ~((2 << card) - 1)


def _shown_by_follow(prior: tuple[int, ...], c: int, trump: int | None, penalty: int, r: Rules) -> int:
    """The cards a seat cannot have held when it played ``c`` after ``prior`` in a trick."""
    led_mask = SUIT_MASKS[prior[0] // 13]
    bit = 1 << c
    if trump is None:
        if bit & led_mask:
            if not penalty:
                return 0
            high = max(x for x in prior if (1 << x) & led_mask)
            forced = penalty & led_mask & ((1 << high) - 1)
            return 0 if bit & forced else forced
        shown = led_mask
        if penalty and not bit & penalty:
            shown |= penalty
        return shown
    flags = r.flags
    trump_mask = SUIT_MASKS[trump]
    top = max((x for x in prior if (1 << x) & trump_mask), default=-1)
    if led_mask == trump_mask:
        if not bit & trump_mask:
            return trump_mask
        if flags.overtrump_required and c < top:
            return trump_mask & _above(top)
        return 0
    if bit & led_mask:
        return 0
    shown = led_mask
    if bit & trump_mask:
        if top >= 0 and flags.overtrump_required and c < top:
            shown |= trump_mask & _above(top)
        return shown
    if top < 0:
        if flags.must_trump_when_void:
            shown |= trump_mask
    else:
        if flags.overtrump_required:
            shown |= trump_mask & _above(top)
        if flags.undertrump_required:
            shown |= trump_mask
    return shown


def _domino_facts(view: SeatView, r: Rules, excluded: list[int]) -> None:
    flags = r.flags
    start = None if flags.domino_start == "first_card" or view.rank is None else RANKS.index(view.rank)
    removed = r.removed if flags.removed_card_rule == "laid" else 0
    # The rows alone: every seat holds only a marker bit outside the deck, so laying
    # a card never puts a seat out and the domino code keeps the rows for us.
    rows = DominoPlay(
        [_MARKER] * view.players,
        view.declarer or 0,
        start,
        direction=r.direction,
        low_rank=r.ruleset.low_rank,
        removed=removed,
    )
    laid_by = [0] * view.players
    plays = view.plays
    for i, (s, c) in enumerate(plays):
        if c is None:
            excluded[s] |= rows.playable()
            continue
        rows.turn = s
        rows.hands[s] |= 1 << c
        rows.play(c)
        laid_by[s] += 1
        if flags.domino_ace_replays and c % 13 == ACE and laid_by[s] < r.cards_each:
            following = plays[i + 1][0] if i + 1 < len(plays) else view.to_act
            if following != s:
                excluded[s] |= rows.playable()


_MARKER = 1 << 60


def sample_hands(hidden: HiddenCards, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the other seats, agreeing with ``hidden``; own hand kept.

    The most constrained cards are placed first, each to a seat chosen with weight
    proportional to the room it has left; if that greedy deal gets stuck a few times,
    an exact matching finds a consistent deal (one always exists: the real one).
    Returns the current hand of every seat.
    """
    n = hidden.players
    seat = hidden.seat
    others, allowed = _places(hidden)
    cards = cards_of(hidden.unseen)
    rng.shuffle(cards)
    cards.sort(key=lambda c: len(allowed[c]))
    for _ in range(8):
        left = list(hidden.counts)
        hands = [0] * n
        for c in cards:
            options = [s for s in allowed[c] if left[s]]
            if not options:
                break
            if len(options) == 1:
                s = options[0]
            else:
                x = rng.randrange(sum(left[s] for s in options))
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


@lru_cache(maxsize=16)
def _places(hidden: HiddenCards) -> tuple[list[int], dict[int, list[int]]]:
    """The seats that hold unseen cards, and the seats each unseen card may lie with
    (remembered: a search samples many deals from the same facts; read only)."""
    others = [s for s in range(hidden.players) if s != hidden.seat and hidden.counts[s]]
    allowed = {c: [s for s in others if not hidden.excluded[s] >> c & 1] for c in cards_of(hidden.unseen)}
    return others, allowed


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
            raise BotError("no deal agrees with this view: the view's facts contradict each other")
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
    if view.contract is not None and deal.contract is None:
        deal.apply_unchecked(Declare(view.contract))
    if view.trump is not None and deal.phase is Phase.TRUMP:
        deal.apply_unchecked(NameTrump(SUITS.index(view.trump)))
    if view.rank is not None and deal.phase is Phase.RANK:
        deal.apply_unchecked(NameRank(RANKS.index(view.rank)))
    for _, _, doubles, redoubles in view.calls:
        deal.apply_unchecked(Call(double=doubles, redouble=redoubles))
    for _, c in view.plays:
        deal.play_unchecked(c)


def conceal(deal: Deal, seat: int) -> Deal:
    """Blank every hand but ``seat``'s in the deal's play state, so nothing can read them."""
    play = deal.tricks if deal.tricks is not None else deal.domino
    if play is not None:
        play.hands = [h if s == seat else 0 for s, h in enumerate(play.hands)]
    return deal
