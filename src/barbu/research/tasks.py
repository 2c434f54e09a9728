"""Canonical, versioned tasks: fixed rules, normalised numbers, one evaluation protocol.

A learning result is comparable only when the task is: the rule set, its options, the
episode, the contract, the reward and the observation scaling are fixed by a task id, and
a task's version number changes whenever any of them does (``-v0`` today).

============================ ======= ========== ========= ==========================================
task id                      rules   episode    contract  what is learned
============================ ======= ========== ========= ==========================================
``barbu-notricks-v0``        classic one deal   no-tricks card play (and the calls) of one contract
``barbu-deal-v0``            classic one deal   chosen    declaring, calling and card play of a deal
``barbu-game-v0``            classic whole game chosen    a whole 28-deal game
============================ ======= ========== ========= ==========================================

**Rewards** are points divided by the rule set's score unit (:func:`~barbu.research.encoding.score_unit`,
65 in classic): a deal's rewards are about ``±1`` (a No-tricks deal: 0 down to -0.4 before
doubling). **Observations** are the :class:`~barbu.research.encoding.ObservationEncoding`
vector divided entry by entry by :func:`observation_scale`: one-hot and card entries stay
0/1, counts are divided by their largest value (cards left by 13, declarations by the
contracts each seat declares, business-pair multipliers by 2), scores stay in score units
(a deal's scores are about ±1) and game totals are divided by the number of deals.

**Evaluation** (:func:`evaluate`): a fixed set of deals (seeds ``EVAL_SEED + k``); each deal
is played once with the evaluated player in each seat and the fixed opponents in the
others (duplicate), and the score is the player's mean normalised reward per episode, with
a 95% interval over the deals.

>>> task = TASKS["barbu-notricks-v0"]
>>> task.variant, task.episode, task.contract
('classic', 'deal', 'no-tricks')
>>> round(evaluate("barbu-notricks-v0", "random", "random", deals=2).mean, 3) <= 0
True
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from barbu.actions import Declare
from barbu.bots import Bot, make_bot, parse_bot
from barbu.errors import OptionsError
from barbu.game import Game
from barbu.research.encoding import ObservationEncoding, score_unit
from barbu.rulesets import Rules, rules
from barbu.view import seat_view

EVAL_SEED = 170_000
"""The first seed of the evaluation deals (seeds ``EVAL_SEED + k``, never used for training)."""


@dataclass(frozen=True)
class Task:
    """A canonical task: everything that fixes what a score on it means."""

    id: str
    variant: str
    episode: str
    contract: str | None
    description: str
    options: dict[str, Any] = field(default_factory=dict)

    @cached_property
    def rules(self) -> Rules:
        """The task's rule set (resolved once: every game of the task shares it)."""
        return rules(self.variant, self.options)

    @property
    def reward_scale(self) -> float:
        """Points are divided by this (the rule set's score unit) to give rewards."""
        return float(score_unit(self.rules))

    def env_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :class:`~barbu.research.env.BarbuEnv` for this task."""
        return {"episode": self.episode, "contract": self.contract, "normalize": True}

    def new_game(self, seed: int, first_declarer: int | None = None) -> Game:
        """The task's game for ``seed``, with the fixed contract declared if there is one; the first
        declarer is drawn from the seed unless given."""
        game = Game.new(self.rules, seed=seed, first_declarer=first_declarer)
        if self.contract is not None:
            game.apply(Declare(self.contract))
        return game


TASKS: dict[str, Task] = {
    t.id: t
    for t in (
        Task(
            "barbu-notricks-v0", "classic", "deal", "no-tricks", "one classic deal of No tricks (calls and card play)"
        ),
        Task("barbu-deal-v0", "classic", "deal", None, "the first deal of a classic game: declare, call and play"),
        Task("barbu-game-v0", "classic", "game", None, "a whole classic game of 28 deals"),
    )
}
"""The canonical tasks by id."""


def task(task_id: str) -> Task:
    """The task named ``task_id``; an unknown id raises :class:`~barbu.errors.OptionsError` listing them.

    >>> task("barbu-deal-v0").contract is None
    True
    """
    try:
        return TASKS[task_id]
    except KeyError:
        raise OptionsError(f"unknown task {task_id!r}; tasks are: {', '.join(TASKS)}") from None


def observation_scale(encoding: ObservationEncoding) -> np.ndarray:
    """The divisor of each observation entry in the normalised observation (see the module docstring).

    >>> from barbu.rulesets import rules
    >>> scale = observation_scale(ObservationEncoding(rules("classic")))
    >>> float(scale.min()), float(scale.max())
    (1.0, 28.0)
    """
    scale = np.maximum(encoding.high, 1.0).astype(np.float32)
    for name in ("totals", "previous_deal"):
        s = encoding.sections[name]
        scale[s.offset : s.offset + s.size] = 1.0
    totals = encoding.sections["totals"]
    scale[totals.offset : totals.offset + totals.size] = float(encoding.rules.deal_count)
    return scale


@dataclass(frozen=True)
class Score:
    """A player's score on a task: mean normalised reward per episode, its 95% half-width."""

    mean: float
    half_width: float
    episodes: int

    def __str__(self) -> str:
        return f"{self.mean:+.4f} ± {self.half_width:.4f} ({self.episodes} episodes)"


BotSpec = str | Callable[[int], Bot]
"""A bot level as written on a command line (``heuristic``, ``policy:PATH`` …), or a maker ``seed -> Bot``."""


def bot_maker(spec: BotSpec) -> Callable[[int], Bot]:
    """A maker ``seed -> Bot`` from a bot level as written on a command line, or the maker itself."""
    if callable(spec):
        return spec
    level, settings = parse_bot(spec)
    return lambda seed: make_bot(level, seed=seed, **settings)


def play_episode(t: Task, seed: int, bots: Sequence[Bot]) -> list[float]:
    """Play the task's episode for ``seed`` with one bot per seat; each seat's normalised return."""
    game = t.new_game(seed)
    deals = len(game.deals)
    while not game.is_over and (t.episode == "game" or len(game.deals) == deals):
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
    scale = t.reward_scale
    sign = game.rules.sign
    if t.episode == "game":
        return [sign * total / scale for total in game.totals]
    final = game.deals[deals - 1].final
    assert final is not None
    return [sign * f / scale for f in final]


def evaluate(task_id: str, player: BotSpec, opponents: BotSpec, *, deals: int = 200, seed: int = EVAL_SEED) -> Score:
    """The duplicate evaluation of ``player`` against ``opponents`` on ``deals`` fixed deals.

    Each deal (seed ``seed + k``) is played once per seat with the player in that seat;
    the deal's score is the player's mean normalised return over the seats.
    """
    t = task(task_id)
    if deals < 1:
        raise OptionsError(f"deals must be at least 1, not {deals}")
    make_player, make_opponent = bot_maker(player), bot_maker(opponents)
    n = t.rules.players
    per_deal: list[float] = []
    for k in range(deals):
        total = 0.0
        for seat in range(n):
            bots = [make_player(seed + k) if s == seat else make_opponent(seed + k + 7919 * (s + 1)) for s in range(n)]
            total += play_episode(t, seed + k, bots)[seat]
        per_deal.append(total / n)
    mean = statistics.fmean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / math.sqrt(deals) if deals > 1 else math.inf
    return Score(mean, half, deals * n)


__all__ = [
    "EVAL_SEED",
    "TASKS",
    "BotSpec",
    "Score",
    "Task",
    "bot_maker",
    "evaluate",
    "observation_scale",
    "play_episode",
    "task",
]
