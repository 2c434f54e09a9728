"""The ``heuristic`` bot: rules of thumb for the cards, a quick evaluation for the rest.

- **Contract, trump or rank, calls**: weighed by the search's evaluation
  (:class:`~barbu.bots.search.SearchBot`) over :data:`JUDGE_WORLDS` deals of the unseen
  cards, each choice played out by the rules of thumb of every seat (no exact endgame, no
  clock): every contract with its four best trump suits or domino ranks, worth what it
  brings with this hand minus what it would bring later with a random hand; a double or a
  redouble kept when it gains on average (a double of a declarer who named its trump: when
  the gain is clear of the worlds' noise), the others answering by the rules of thumb
  (:func:`~barbu.bots.rules_of_thumb.pick_call`), compulsory doubles always made. The seeds' advice (long hearts
  declare No Hearts, Trumps kept for late, a rank one does not hold, a desperation double
  redoubled) is left to that evaluation, not written as rules. The hand estimates
  (:mod:`barbu.bots.rules_of_thumb`) are what the simulated seats call by.
- **Cards**: :mod:`barbu.bots.card_reading` (what the play has shown: voids, who can
  still overtake; free tricks shed danger; the last tricks tried in a few sampled
  deals) over the plain rules of :mod:`barbu.bots.card_play` and
  :mod:`barbu.bots.domino_play`.
- **Chinese poker**: :mod:`barbu.bots.chinese_poker`.

Most decisions take well under a millisecond; the last tricks, tried in sampled deals,
a few milliseconds; a contract or a call, played out in the worlds with the compiled
accelerator, a few tens (see docs/bots.md for the measured times).

>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=11)
>>> bots = [HeuristicBot(seed=s) for s in range(4)]
>>> while not game.is_over:
...     seat = game.to_act
...     game.apply(bots[seat].act(seat_view(game, seat)), seat)
>>> len(game.deals), sum(game.totals)
(28, 0)
"""

from __future__ import annotations

import random

from barbu.actions import Action, Arrange, Pass, Play
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.card_reading import Reading, read_card
from barbu.bots.chinese_poker import best_arrangement
from barbu.bots.errors import BotError
from barbu.bots.rules_of_thumb import conceal, play_by_rules
from barbu.bots.search import SearchBot
from barbu.cards import mask_of
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay
from barbu.unseen import WorldDeals, hidden_cards, sample_hands, view_rules
from barbu.view import SeatView

JUDGE_WORLDS = 32
"""Worlds (deals of the unseen cards) in which the contract, trump or rank and the calls are
weighed: each choice played out in the same worlds by the rules of thumb."""


class HeuristicBot:
    """Rules of thumb for the cards, the search's evaluation in a few worlds for the rest; see
    the module docstring.

    ``seed`` deals the cards the seat cannot see, for the last tricks
    (:mod:`barbu.bots.card_reading`) and for the worlds in which contracts and calls are
    weighed: the same seed gives the same decisions.
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "heuristic"
        self.seed = seed
        self.rng = random.Random(seed)
        self._judge: SearchBot | None = None

    def judge(self) -> SearchBot:
        """The evaluation behind the contract, trump or rank and the calls: the search's,
        over :data:`JUDGE_WORLDS` worlds played out by the rules of thumb (no exact end,
        no clock, so the same seed gives the same choices), every contract weighed."""
        if self._judge is None:
            judge = SearchBot(seed=self.seed, iterations=JUDGE_WORLDS, seconds=None, endgame=0)
            judge.contract_candidates = None
            judge.choice_candidates = 4
            self._judge = judge
        return self._judge

    def act(self, view: SeatView) -> Action:
        """The action for ``view``'s seat (which must be to act)."""
        table = view_rules(view)
        phase = view.phase
        if phase == "arrange":
            return Arrange(best_arrangement(mask_of(view.hand)))
        legal = view.legal_actions
        if not legal:
            raise BotError(f"seat {view.seat} has nothing to do now (phase {phase}, seat {view.to_act} to act)")
        if len(legal) == 1:
            return legal[0]
        if phase in ("contract", "trump", "rank", "call"):
            return self.judge().act(view)
        return self.play(view, table)

    def play(self, view: SeatView, table: Rules) -> Play | Pass:
        """A card (or a domino pass) by the card-play rules of thumb."""
        seat = view.seat
        assert seat is not None
        hidden = hidden_cards(view, table)
        worlds = WorldDeals(view, table, hidden)
        world = worlds.deal(sample_hands(hidden, self.rng))
        rng = self.rng
        if world.tricks is None:
            return play_by_rules(conceal(world, seat), seat)
        guide = PlayGuide.of(world)

        def deal_again() -> TrickPlay:
            t = worlds.deal(sample_hands(hidden, rng)).tricks
            assert t is not None
            return t

        assert world.contract is not None
        mine = conceal(world.copy(), seat).tricks
        assert mine is not None
        if mine.rules.twin:  # two decks: the card reading knows one copy of each card; plain rules of thumb
            return Play(choose_card(mine, seat, guide))
        return Play(read_card(mine, seat, guide, Reading.of(hidden), deal_again, world.contract, table))
