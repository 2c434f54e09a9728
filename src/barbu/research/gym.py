"""A canonical task as a single-agent Gymnasium environment (optional extra: ``pip install barbu[rl]``).

The learner holds one seat; the other seats are played by opponents drawn, at each reset,
from a pool of bot levels (``random``, ``heuristic``, ``search``, ``policy:PATH`` …, see
:func:`barbu.bots.make_bot`) or bot makers. Observations are the task's normalised
vector (:mod:`barbu.research.tasks`), the action space is the rule set's fixed one, and
the legal actions are in ``info["action_mask"]`` and :meth:`BarbuGymEnv.action_masks`
(what sb3-contrib's ``MaskablePPO`` reads). Rewards are the learner's normalised points.

As in PettingZoo's classic games, an illegal action ends the episode with reward
:data:`~barbu.research.env.ILLEGAL_REWARD` (−1); nothing is played.

>>> e = BarbuGymEnv("barbu-notricks-v0", opponents="random")
>>> observation, info = e.reset(seed=3)
>>> observation.shape, bool(info["action_mask"].any())
((3642,), True)
>>> import numpy as np
>>> total, done = 0.0, False
>>> while not done:
...     action = int(np.flatnonzero(e.action_masks())[0])
...     observation, reward, done, truncated, info = e.step(action)
...     total += reward
>>> -1.0 <= total <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from barbu.bots import Bot
from barbu.errors import OptionsError
from barbu.research.env import ILLEGAL_REWARD, BarbuEnv
from barbu.research.tasks import BotSpec, bot_maker, task


class BarbuGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The learner's seat of a canonical task, the other seats played by opponents.

    ``task_id`` names the task (:data:`barbu.research.tasks.TASKS`); ``opponents`` is a bot
    level or maker, or a sequence of them (a pool: each other seat draws one per episode);
    ``seat`` fixes the learner's seat (``None``: drawn at each reset).
    """

    def __init__(
        self,
        task_id: str = "barbu-notricks-v0",
        opponents: BotSpec | Sequence[BotSpec] = "random",
        *,
        seat: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        t = task(task_id)
        self.metadata = {"render_modes": ["ansi"]}
        self.task = t
        self.env = BarbuEnv(t.variant, t.options, **t.env_kwargs())
        n = len(self.env.possible_agents)
        if seat is not None and not 0 <= seat < n:
            raise OptionsError(f"seat must be None or a seat from 0 to {n - 1}, not {seat!r}")
        if render_mode is not None and render_mode != "ansi":
            raise OptionsError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        pool = [opponents] if isinstance(opponents, str) or callable(opponents) else list(opponents)
        if not pool:
            raise OptionsError("opponents must name at least one bot level or maker")
        self.pool = [bot_maker(spec) for spec in pool]
        self.fixed_seat = seat
        self.render_mode = render_mode
        space = self.env.observation_space(self.env.possible_agents[0])
        assert isinstance(space, spaces.Dict)
        self.observation_space = space["observation"]
        self.action_space = spaces.Discrete(self.env.actions.size)
        self.seat = seat if seat is not None else 0
        self.bots: list[Bot | None] = [None] * n
        self._last: dict[str, np.ndarray] | None = None

    @property
    def agent(self) -> str:
        """The learner's agent name in the underlying PettingZoo environment."""
        return self.env.possible_agents[self.seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode; the deal, the learner's seat and the opponents follow from ``seed``."""
        super().reset(seed=seed)
        rng = self.np_random
        self.env.reset(seed=int(rng.integers(2**63)))
        n = len(self.bots)
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(n))
        self.bots = [
            None if s == self.seat else self.pool[int(rng.integers(len(self.pool)))](int(rng.integers(2**31)))
            for s in range(n)
        ]
        self._play_others()
        return self._observe()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Take ``action`` for the learner, then let the opponents play up to its next turn."""
        e = self.env
        if e.terminations[self.agent]:
            raise RuntimeError("the episode is over: call reset()")
        mask = self._last["action_mask"] if self._last is not None else e.observe(self.agent)["action_mask"]
        index = int(action)
        if not 0 <= index < len(mask) or not mask[index]:
            observation, info = self._observe()
            e.terminations = {a: True for a in e.agents}
            return observation, ILLEGAL_REWARD, True, False, info
        e.step(index)
        reward = e.rewards[self.agent] + self._play_others()
        observation, info = self._observe()
        return observation, float(reward), bool(e.terminations[self.agent]), False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as booleans (sb3-contrib's ``MaskablePPO`` calls this)."""
        if self._last is None:
            self._observe()
        assert self._last is not None
        return self._last["action_mask"].astype(bool)

    def render(self) -> str | None:
        """``ansi``: the learner's observation in words."""
        if self.render_mode != "ansi":
            return None
        return self.env.observations.text(self.env.view(self.agent))

    def _play_others(self) -> float:
        """Opponents act until the learner is to act or the episode ends; the learner's rewards meanwhile."""
        e = self.env
        reward = 0.0
        while not e.terminations[self.agent] and e.agent_selection != self.agent:
            agent = e.agent_selection
            bot = self.bots[e.agent_name_mapping[agent]]
            assert bot is not None
            for index in e.indexes_of(bot.act(e.view(agent))):
                e.step(index)
                reward += e.rewards[self.agent]
        return reward

    def _observe(self) -> tuple[np.ndarray, dict[str, Any]]:
        last = self.env.observe(self.agent)
        self._last = last
        return last["observation"], {"action_mask": last["action_mask"], "seat": self.seat}


def make(task_id: str = "barbu-notricks-v0", **kwargs: Any) -> BarbuGymEnv:
    """The single-agent environment of a task (same arguments as :class:`BarbuGymEnv`)."""
    return BarbuGymEnv(task_id, **kwargs)


__all__ = ["BarbuGymEnv", "make"]
