"""Reading the cards: the ``heuristic`` bot's card play, using what the play has shown.

The rules of thumb of :mod:`barbu.bots.card_play` look only at the seat's hand and the
cards gone. A player reads more: who has shown a void (a discard), who can still beat
a card of the suit led, who may still hold a penalty card to throw on a trick, and how
the last tricks fall. :class:`Reading` gathers those facts from the core's
:class:`~barbu.unseen.HiddenCards` (what each seat may still hold, never a rule written
again), and :func:`read_card` plays by them:

- **the last tricks** (:data:`ENDGAME_TRICKS` left) are played exactly over a few deals
  of the unseen cards consistent with the view (:data:`ENDGAME_WORLDS`, dealt by the
  core's sampler), each solved by :func:`barbu.bots.endgame.solve`;
- **free tricks before costly ones** (No Last Two, and any avoiding contract once no
  penalty card is left but later tricks still cost): every card played sheds danger
  for the end, so follow with the highest card, lead and discard the card most likely
  to win a trick late;
- **avoiding tricks**: a seat that cannot duck sheds its highest card when no seat still
  to play may hold a higher card of the suit (those that played, or are void, cannot
  overtake), and plays low when a void seat still to play may throw a penalty card on
  the trick for a seat that may overtake to take;
- everything else (leads, ducking, discards, taking tricks, Ravage City before the end) by
  :func:`barbu.bots.card_play.choose_card`.

The search bot's playouts keep the plain rules of :mod:`barbu.bots.card_play` (they are
compiled, and fast): this module is for decisions, not playouts.

>>> from barbu import Game, seat_view
>>> from barbu.actions import Call, Declare, Play
>>> from barbu.cards import card, parse_pbn
>>> from barbu.rulesets import rules
>>> from barbu.unseen import hidden_cards
>>> game = Game(rules("classic"), first_declarer=0)
>>> game.give_hands([parse_pbn(h) for h in ("AKQJT98765432...", ".AKQJT98765432..",
...                                         "..AKQJT98765432.", "...AKQJT98765432")])
>>> game.apply(Declare("no-tricks"))
>>> for call in (Call(double=(0,)), Call(double=(0,)), Call(double=(0,)), Call()):
...     game.apply(call)
>>> game.apply(Play(card("2S"))); game.apply(Play(card("AH")))
>>> reading = Reading.of(hidden_cards(seat_view(game, 2)))
>>> reading.void(1, 0), reading.void(3, 0)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.endgame import distinct_cards, solve
from barbu.cards import SUIT_MASKS, cards_of
from barbu.contracts import Contract
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay
from barbu.unseen import HiddenCards

__all__ = ["ENDGAME_TRICKS", "ENDGAME_WORLDS", "Reading", "read_card"]

ENDGAME_TRICKS = 3
"""Tricks left at which the last tricks are played exactly over sampled deals."""
ENDGAME_WORLDS = 10
"""Deals of the unseen cards the last tricks are solved in."""


@dataclass(frozen=True)
class Reading:
    """What one seat knows of the others' hands: ``may[s]``, the cards seat ``s`` may still
    hold (the seat's own hand for itself), from :class:`~barbu.unseen.HiddenCards`."""

    seat: int
    hand: int
    may: tuple[int, ...]

    @classmethod
    def of(cls, hidden: HiddenCards) -> Reading:
        """The reading of ``hidden``'s seat."""
        may = tuple(
            hidden.hand if s == hidden.seat else hidden.unseen & ~hidden.excluded[s] for s in range(hidden.players)
        )
        return cls(hidden.seat, hidden.hand, may)

    def void(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` surely holds no card of ``suit``."""
        return not self.may[seat] & SUIT_MASKS[suit]


def _highest(mask: int) -> int:
    return mask.bit_length() - 1


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _below(c: int) -> int:
    return (1 << c) - 1


def _above(c: int) -> int:
    return ((1 << 52) - 1) & ~((2 << c) - 1)


def _trick_mask(trick: list[int]) -> int:
    m = 0
    for c in trick:
        m |= 1 << c
    return m


def _later_seats(t: TrickPlay) -> list[int]:
    """The seats still to play to the current trick after the seat to act."""
    seats = []
    s = t.turn
    for _ in range(t.players - 1 - len(t.trick)):
        s = (s + t.rules.direction) % t.players
        seats.append(s)
    return seats


def read_card(
    t: TrickPlay,
    seat: int,
    guide: PlayGuide,
    reading: Reading,
    worlds: Callable[[], TrickPlay] | None = None,
    contract: Contract | None = None,
    table: Rules | None = None,
) -> int:
    """A card for ``seat`` (to act in ``t``, whose other hands are not read).

    ``worlds`` deals the unseen cards again (a :class:`~barbu.tricks.TrickPlay` where
    the view stands, every hand filled); with it, ``contract`` and ``table``, the last
    :data:`ENDGAME_TRICKS` tricks are solved over :data:`ENDGAME_WORLDS` deals.
    """
    legal = t.legal_mask()
    if not legal & (legal - 1):
        return _lowest(legal)
    left = t.tricks_total - len(t.winners)
    if worlds is not None and contract is not None and table is not None and left <= ENDGAME_TRICKS:
        return _endgame(t, seat, legal, guide, worlds, contract, table)
    if guide.kind == "avoid":
        index = len(t.winners)
        if _shedding(t, guide, index):
            return _shed(t, seat, legal, guide)
        return _avoid(t, seat, legal, guide, reading)
    return choose_card(t, seat, guide)


# -- the last tricks -----------------------------------------------------------------------


def _endgame(
    t: TrickPlay,
    seat: int,
    legal: int,
    guide: PlayGuide,
    worlds: Callable[[], TrickPlay],
    contract: Contract,
    table: Rules,
) -> int:
    gone = t.played | t.hands[seat]
    candidates = distinct_cards(legal, gone, guide.card_cost)
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    for _ in range(ENDGAME_WORLDS):
        world = worlds()
        for i, c in enumerate(candidates):
            w = world.copy()
            w.play(c)
            totals[i] += solve(w, contract, table, guide, seat)[seat]
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


# -- free tricks before costly ones ----------------------------------------------------------


def _shedding(t: TrickPlay, g: PlayGuide, index: int) -> bool:
    """Whether this trick costs nothing whoever takes it while a later trick does."""
    if g.trick_cost[index] > 0 or not g.later_trick_costs[index]:
        return False
    return not (g.deck & ~t.played & g.positive)


def _end_danger(c: int, hand: int, out: int) -> float:
    """How likely ``c`` is to win a trick late: the outstanding cards of its suit it beats,
    fewer when low cards of one's own shelter it."""
    mask = SUIT_MASKS[c // 13]
    out_s = out & mask
    if not out_s:
        return 1.0 + c % 13 / 100
    beaten = (out_s & _below(c)).bit_count()
    cover = (hand & mask & _below(c)).bit_count()
    return beaten / (out_s.bit_count() * (1 + cover)) + c % 13 / 100


def _shed(t: TrickPlay, seat: int, legal: int, g: PlayGuide) -> int:
    hand = t.hands[seat]
    out = g.deck & ~(t.played | _trick_mask(t.trick) | hand)
    if t.trick:
        follow = legal & SUIT_MASKS[t.trick[0] // 13]
        if follow:
            return _highest(follow)
    return max(cards_of(legal), key=lambda c: (_end_danger(c, hand, out), c))


# -- avoiding tricks and penalty cards ---------------------------------------------------------


def _dump(r: Reading, seats: list[int], g: PlayGuide) -> float:
    """What the seats in ``seats`` may throw on a trick when void: each its costliest penalty card."""
    total = 0.0
    for s in seats:
        worst = 0.0
        for c in cards_of(r.may[s] & g.positive):
            worst = max(worst, g.card_cost[c])
        total += worst
    return total


def _avoid(t: TrickPlay, seat: int, legal: int, g: PlayGuide, r: Reading) -> int:
    if not t.trick:
        return choose_card(t, seat, g)
    led_mask = SUIT_MASKS[t.trick[0] // 13]
    follow = legal & led_mask
    if not follow:
        return choose_card(t, seat, g)
    in_trick = _trick_mask(t.trick)
    high = _highest(in_trick & led_mask)
    if follow & _below(high):
        return choose_card(t, seat, g)
    # No card ducks. When no seat still to play may hold a higher card of the suit (the
    # seats that have played, or are void, cannot beat us), the trick is ours: shed the
    # highest of the cheapest cards. When a later seat that is void may throw a penalty
    # card on it, play low for a seat that may overtake to take it.
    later = _later_seats(t)
    low = _lowest(follow)
    overtake = any(r.may[s] & led_mask & _above(low) for s in later)
    cost = g.card_cost
    if not overtake:
        return min(cards_of(follow), key=lambda c: (cost[c], -c))
    voids = [s for s in later if not r.may[s] & led_mask]
    if _dump(r, voids, g) > 0:
        return min(cards_of(follow), key=lambda c: (cost[c], c))
    return choose_card(t, seat, g)
