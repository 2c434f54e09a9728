"""The ``expert`` bot: the search of :mod:`barbu.bots.search`, anytime and reading the play.

It decides as the ``search`` bot does (worlds dealt by the core's sampler,
:mod:`barbu.unseen`; every candidate tried in every world; the rules of thumb and the
exact endgame to finish each world), with four differences:

- **Anytime, by the clock.** ``ms`` is a time budget per decision in milliseconds: the
  bot searches worlds until the next one would end after it, so a larger budget buys
  more worlds. Its random generator is seeded afresh at each decision from its seed and
  the public position, so a decision depends only on the seed, the view and the number
  of worlds it searched: ``worlds`` fixes that number (with ``ms=None`` the bot is
  exactly reproducible on every machine; with both, the first limit reached ends it).
- **It reads the play, not only the calls.** A world counts :data:`PLAY_EVIDENCE`
  times less for each card another seat played that the rules of thumb (the same policy
  that finishes the worlds) would not have played holding that world's cards, whenever
  that seat had a real choice: a seat that ducked, discarded or led a suit makes the
  worlds where it would have done so count more. The facts (what a seat could hold) stay
  the core's (:func:`barbu.unseen.hidden_cards`); only the weights are the bot's.
- **Every declarable contract is weighed**, with its four best trump suits or ranks, by
  the same evaluation as the card play and the calls (what the deal brings with this
  hand minus what it would bring later with a random one).
- **A deeper exact endgame in the card play**: the last :data:`ENDGAME` tricks of each
  world are solved exactly (the search solves three), within a budget of :data:`DEFAULT_MS`
  that a quiet core's slowest card decisions need (the simulations ahead from a contract
  keep :data:`AHEAD_ENDGAME`).

Settings: ``ms`` (time budget per decision, milliseconds, or None; by default 1500,
where the search's cap is 0.9 s), ``worlds`` (worlds per decision at most, or None; by default the
search's default, 320: the first limit reached ends a decision), ``endgame`` (tricks left
at which the exact solver takes over in the card play: 4 by default, one more than the
search's, within 20 cards; the deals simulated ahead from a contract keep at most 3),
``inference`` (the weight of a world per card it does not explain: 1.0 reads nothing from
the play).

>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=3)
>>> view = seat_view(game, game.to_act)
>>> bot = ExpertBot(seed=1, ms=None, worlds=2)
>>> bot.act(view) == ExpertBot(seed=1, ms=None, worlds=2).act(view)
True
"""

from __future__ import annotations

import random
from typing import Any

from barbu import accel
from barbu.actions import Action
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.errors import BotError
from barbu.bots.search import DEFAULT_ITERATIONS, CallEvidence, SearchBot
from barbu.cards import suit_of
from barbu.deal import Deal
from barbu.errors import N_
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay
from barbu.unseen import HiddenCards, forced_of, replay_choices
from barbu.view import SeatView

DEFAULT_WORLDS = DEFAULT_ITERATIONS
"""Worlds per decision at most by default: the search's default, so that the expert, which
reads more from the same worlds, never searches fewer of them where its clock allows."""
DEFAULT_MS = 1500
"""Time budget per decision by default, in milliseconds (the search's cap is 0.9 s), so that a
quiet core reaches the default's worlds in every card decision, where the expert solves a trick
more than the search (p95 about 0.8 s, max about 1.4 s of CPU time; docs/bots.md, "The
expert's deeper endgame"), within what a person waits for at a table (p95 at most 1 s, max at
most 3 s)."""
ENDGAME = 4
"""Tricks left at which the exact solver takes over in the card play by default: one more than
the search's (docs/bots.md, "The expert's deeper endgame")."""
AHEAD_ENDGAME = 3
"""Tricks solved exactly at most in the deals simulated ahead from a contract, a trump or a
rank: every contract is weighed with four trumps or ranks there, and a fourth trick would
double the cost of a decision that the time budget already ends first."""
PLAY_EVIDENCE = 0.75
"""Weight of a world for each card played by another seat that it does not explain."""
UNBOUNDED = 1 << 30
"""Worlds "at most" when only the clock ends a decision."""


class PlayEvidence:
    """How well a world explains the cards the other seats played in a view's deal.

    The deal's trick play is rebuilt once at its first card (contract, trump and calls
    replayed); each world then replays the plays on a copy holding that world's cards,
    asking the rules of thumb at each card of another seat that had more than one choice
    whether they would have played it (or a card of the same suit and cost with nothing
    unplayed between them: an equal card). A world counts ``factor`` times less per card
    it does not explain; the calls' evidence (:class:`~barbu.bots.search.CallEvidence`)
    multiplies in.
    """

    def __init__(self, view: SeatView, table: Rules, hidden: HiddenCards, factor: float) -> None:
        self.view = view
        self.table = table
        self.played = hidden.played
        self.factor = factor
        self.calls = CallEvidence(view, table, hidden)
        self.plays = [(s, c) for s, c in view.plays if c is not None]
        self.active = factor < 1.0 and any(s != view.seat for s, _ in self.plays) and view.phase == "play"
        self._start: TrickPlay | None = None
        self._guide: PlayGuide | None = None

    def _template(self, dealt: list[int]) -> TrickPlay | None:
        view, table = self.view, self.table
        assert view.declarer is not None and view.contract is not None
        d = Deal(
            table, view.deal_number - 1, view.declarer, dealt, [table.contract(view.contract)], forced_of(view, table)
        )
        replay_choices(d, view)
        if d.tricks is None:  # domino: its passes are already facts of the sampler
            self.active = False
            return None
        self._guide = PlayGuide.of(d)
        return d.tricks.copy()

    def _choose(self, t: TrickPlay, guide: PlayGuide) -> int:
        if accel.supports(t.rules) and guide.kind in ("avoid", "take"):
            return accel.choose(t, guide)
        return choose_card(t, t.turn, guide)

    def weight(self, hands: list[int]) -> float:
        """The weight of the world where the seats hold ``hands`` now (1.0: no evidence)."""
        weight = self.calls.weight(hands)
        if not self.active:
            return weight
        dealt = [h | p for h, p in zip(hands, self.played, strict=True)]
        if self._start is None:
            self._start = self._template(dealt)
            if self._start is None:
                return weight
        guide = self._guide
        assert guide is not None
        t = self._start.copy()
        t.set_hands(dealt)
        me = self.view.seat
        gone = 0
        misses = 0
        cost = guide.card_cost
        for seat, c in self.plays:
            if seat != me:
                legal = t.legal_mask()
                if legal & (legal - 1):
                    guess = self._choose(t, guide)
                    if guess != c and not _equal(guess, c, t.hands[seat] | gone, cost):
                        misses += 1
            t.play(c)
            gone |= 1 << c
        return weight * self.factor**misses


def _equal(a: int, b: int, known: int, cost: list[float]) -> bool:
    """Whether cards ``a`` and ``b`` are equal for their holder: same suit, same cost, and
    every card between them held by the same seat or already played (``known``)."""
    if suit_of(a) != suit_of(b) or cost[a] != cost[b]:
        return False
    low, high = min(a, b), max(a, b)
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return between & ~known == 0


class ExpertBot(SearchBot):
    """Anytime search reading the calls and the play; see the module docstring."""

    contract_candidates = None
    choice_candidates = 4
    endgame_cards = 20
    """Cards the exact solver plays out at most: five tricks with four seats, so that a fifth
    exact trick is a setting (``endgame=5``, measured too dear for the default: docs/bots.md,
    "The exact endgame")."""

    def __init__(
        self,
        seed: int | None = 0,
        ms: float | None = DEFAULT_MS,
        worlds: int | None = DEFAULT_WORLDS,
        endgame: int = ENDGAME,
        inference: float = PLAY_EVIDENCE,
    ) -> None:
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, int | float) or not ms > 0):
            raise BotError(
                N_(
                    "ms must be a positive time budget in milliseconds, or None (null on a command line), not {value}",
                    value=repr(ms),
                )
            )
        if worlds is not None and (isinstance(worlds, bool) or not isinstance(worlds, int) or worlds < 1):
            raise BotError(
                N_(
                    "worlds must be a whole number of worlds, 1 or more, or None (null on a command line), not {value}",
                    value=repr(worlds),
                )
            )
        if ms is None and worlds is None:
            raise BotError(N_("give the expert a time budget (ms) or a number of worlds (worlds), or both"))
        if isinstance(inference, bool) or not isinstance(inference, int | float) or not 0 < inference <= 1:
            raise BotError(f"inference must be a weight above 0 and at most 1 (1: off), not {inference!r}")
        super().__init__(
            seed=seed,
            iterations=worlds if worlds is not None else UNBOUNDED,
            seconds=None if ms is None else ms / 1000,
            endgame=endgame,
        )
        self.name = "expert"
        self.ahead = min(endgame, AHEAD_ENDGAME)
        self.seed = seed
        self.ms = ms
        self.worlds = worlds
        self.inference = float(inference)

    def settings(self) -> dict[str, Any]:
        """The bot's settings, as :func:`~barbu.bots.make_bot` takes them."""
        return {"ms": self.ms, "worlds": self.worlds, "endgame": self.endgame, "inference": self.inference}

    def act(self, view: SeatView) -> Action:
        """The action for ``view``'s seat; the worlds are dealt from a generator seeded by the
        bot's seed and the public position only."""
        key = (self.seed, view.seat, view.deal_number, view.phase, len(view.calls), len(view.plays), view.totals)
        self.rng = random.Random(repr(key))
        return super().act(view)

    def evidence(self, view: SeatView, table: Rules, hidden: HiddenCards) -> PlayEvidence:
        """The weight of each world, from the calls and the cards played."""
        return PlayEvidence(view, table, hidden, self.inference)
