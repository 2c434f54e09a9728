"""Barbu as a PettingZoo AEC environment (optional extra: ``pip install barbu[rl]``).

One agent per seat (``player_0`` … ``player_{n-1}``, seat numbers of the core). Each agent
observes a dict: ``observation``, the float32 vector of its seat's view
(:class:`~barbu.research.encoding.ObservationEncoding` of :func:`barbu.view.seat_view`,
written from the deal and the game as the view would show them: the tests compare the two),
and ``action_mask``, int8 over the rule set's fixed action space
(:class:`~barbu.research.encoding.ActionEncoding`), taken from the core's legal actions.

Episodes are a whole game (``episode="game"``) or a single deal (``episode="deal"``,
optionally with a fixed ``contract``). Rewards, in points of the rule set:

- ``reward="deal"`` (default): when a deal ends, every seat receives its final score for
  that deal (raw score plus doubling adjustments);
- ``reward="game"``: nothing until the episode ends, then every seat receives its total.

Higher is better for every agent: ``french`` scores penalty points (lower is better), so
its rewards are the negated points. Over an episode both schemes sum to the same return.

>>> e = env("classic", episode="deal", contract="no-queens")
>>> e.reset(seed=7)
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((3642,), True)
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> for agent in e.agent_iter():
...     observation, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         e.step(None)
...     else:
...         e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
>>> e.agents
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from barbu.actions import Action, Arrange, Call, Declare
from barbu.cards import card_name, mask_of
from barbu.deal import Deal, Phase
from barbu.domino import DominoPlay
from barbu.errors import IllegalAction, OptionsError
from barbu.game import Game
from barbu.research.encoding import (
    PLAY_ENDED,
    ActionEncoding,
    DealFacts,
    GameFacts,
    ObservationBuffer,
    ObservationEncoding,
    PartialArrangement,
    Place,
    lay_observed,
    play_observed,
    score_unit,
)
from barbu.research.tasks import observation_scale, task
from barbu.rulesets import Rules, rules
from barbu.tricks import TrickPlay
from barbu.view import SeatView, seat_view, seat_views

_CHOOSING = (Phase.CONTRACT, Phase.TRUMP, Phase.RANK)
"""The phases of the declarer's choices, whose observations :meth:`BarbuEnv.observe` writes
from the deal at every observation (:meth:`BarbuEnv._start_deal`)."""

EPISODES = ("game", "deal")
REWARDS = ("deal", "game")


class BarbuEnv(AECEnv, EzPickle):
    """The raw environment; :func:`env` wraps it in PettingZoo's order checks.

    ``variant`` and ``options`` name the rule set and its flags (RULES.md §4, §6).
    ``episode`` is ``"game"`` or ``"deal"``; ``contract`` (deal episodes only) makes the
    declarer declare that contract before anyone acts; ``reward`` is ``"deal"`` or
    ``"game"`` (see the module docstring). Reset options are accepted and unused.

    ``copy=False`` makes :meth:`observe` return the seat's own vector and mask where it can
    (not with ``normalize``), overwritten by later steps, as OpenSpiel's zero-copy observer
    writes one buffer: for a learner that reads the observation before the next step. By
    default every observation is a new pair of arrays.

    In a one-deck card play a step is one call (a trick deal's card:
    :func:`~barbu.research.encoding.play_observed`; a domino lay or pass:
    :func:`~barbu.research.encoding.lay_observed`; both compiled with the accelerator): the card
    is played through the core's checked door and the next seat's observation written in its
    buffer, which :meth:`observe` then returns; PettingZoo's dicts are touched only where
    they change. A call is taken as the doubling lists it (:meth:`~barbu.research.encoding.ActionEncoding.listed_call`)
    and the step writes the next caller's observation (:meth:`_observe_caller`); the declarer's
    choices and arrangements take the general path.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "barbu_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str = "classic",
        options: dict[str, Any] | None = None,
        *,
        episode: str = "game",
        contract: str | None = None,
        reward: str = "deal",
        render_mode: str | None = None,
        normalize: bool = False,
        illegal_reward: float | None = None,
        copy: bool = True,
    ) -> None:
        EzPickle.__init__(
            self,
            variant,
            options,
            episode=episode,
            contract=contract,
            reward=reward,
            render_mode=render_mode,
            normalize=normalize,
            illegal_reward=illegal_reward,
            copy=copy,
        )
        super().__init__()
        self.table_rules: Rules = rules(variant, options)
        self.variant = variant
        self.options = dict(options or {})
        if episode not in EPISODES:
            raise OptionsError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
        if reward not in REWARDS:
            raise OptionsError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionsError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        if contract is not None:
            if episode != "deal":
                raise OptionsError(
                    "contract= needs episode='deal': in a whole game each contract is declared once a set"
                )
            if not self.table_rules.schedule.declarer_chooses:
                raise OptionsError(f"{variant} plays its contracts in a fixed order: contract= cannot choose one")
            self.table_rules.contract(contract)  # raises OptionsError naming the rule set's contracts
        self.episode = episode
        self.contract = contract
        self.reward_kind = reward
        self.illegal_reward = illegal_reward
        """None: an illegal action raises. A number: PettingZoo classic's rules (see :func:`env`)."""
        self.render_mode = render_mode
        self.sign = self.table_rules.sign
        """+1, or -1 where the rule set scores penalty points: rewards are ``sign * points``."""
        self.actions = ActionEncoding(self.table_rules)
        self.observations = ObservationEncoding(self.table_rules)
        self.normalize = normalize
        self.scale = observation_scale(self.observations) if normalize else np.ones(self.observations.size, np.float32)
        """Observations are the encoding's vector divided by this (:func:`~barbu.research.tasks.observation_scale`)."""
        self.reward_unit = float(score_unit(self.table_rules)) if normalize else 1.0
        """Rewards are ``sign * points / reward_unit`` (the score unit when ``normalize``)."""
        n = self.table_rules.players
        low, high = self.observations.low / self.scale, self.observations.high / self.scale
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.actions.size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.actions.size) for a in self.possible_agents}
        self.state_space = spaces.Box(np.tile(low, n), np.tile(high, n), dtype=np.float32)
        """The space of :meth:`state`: every seat's observation, seat 0 first."""
        self._seeds: random.Random | None = None
        self._paid = False
        """Whether :attr:`rewards` may hold a reward given since they were last cleared."""
        self.game: Game | None = None
        self._ended: Game | None = None
        self._placing: PartialArrangement | None = None
        self._buffers = [ObservationBuffer(self.observations) for _ in range(n)]
        """Each seat's observation, written again only where its view changed since it was last observed."""
        self.copy = copy
        self._vectors = [b.vector for b in self._buffers]
        self._following = [b.following for b in self._buffers]
        self._masks = [np.zeros(self.actions.size, np.int8) for _ in range(n)]
        """Each seat's action mask as the card play's one-call step writes it."""
        self._fast: Callable[[object], int] | None = None
        """The card play's one-call step (:meth:`_arm`), None outside a live one-deck trick play."""
        self._seen: str | None = None
        """The agent whose observation the last one-call step wrote (its buffer and mask are current)."""
        self._facts: tuple[tuple[Game, int, bool], DealFacts] | None = None
        """The game's facts at the start of its last deal or at the episode's end (:meth:`_deal_facts`),
        and of which game and deal count, and whether the last deal ended."""
        self._grown = GameFacts(self.observations)
        """The facts of the episode's game, grown deal by deal (read again from the start for a new game)."""
        self._final_views: tuple[Game, dict[int | None, SeatView]] | None = None
        """Every seat's view of the episode's end (the game, or the deal that ended, does not change then)."""

    # -- the PettingZoo interface ---------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object on every call)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode; ``seed`` fixes it and every later reset without a seed."""
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        game = Game.new(self.table_rules, seed=self._seeds.getrandbits(64))  # the rules resolved once
        if self.contract is not None:
            game.apply(Declare(self.contract))
        self.game = game
        self._ended = None
        self._placing = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._paid = False
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        assert game.to_act is not None
        self.agent_selection = self.possible_agents[game.to_act]
        self._seen = None
        self._final_views = None
        self._arm()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent``: its view as a vector, and its action mask."""
        if agent == self._seen:  # written by the step that made it the agent to act
            seat = self.agent_name_mapping[agent]
            vector, mask = self._vectors[seat], self._masks[seat]
            if self.normalize:
                return {"observation": vector / self.scale, "action_mask": mask.copy()}
            if self.copy:
                return {"observation": vector.copy(), "action_mask": mask.copy()}
            return {"observation": vector, "action_mask": mask}
        if self.game is None:
            raise RuntimeError("call reset() before observe()")
        seat = self.agent_name_mapping[agent]
        buffer = self._buffers[seat]
        if self._ended is None:
            deal = self.game.deals[-1]
            phase = deal.phase
            if not buffer.playing(deal) and (
                phase in _CHOOSING or phase is Phase.CALL or (phase is Phase.PLAY and deal.cardplay is not None)
            ):
                self._start_deal(deal, seat)
            mask = np.zeros(self.actions.size, np.int8)
            if buffer.playing(deal):  # a deal's calls or card play, followed from its start
                written = buffer.update_play(deal, seat, mask)
                if phase is Phase.CALL and deal.to_act == seat:
                    assert deal.doubling is not None
                    mask[self.actions.call_indexes(deal.doubling.listed_calls(), seat)] = 1
                return {"observation": self._vector(written), "action_mask": mask}
            if phase in _CHOOSING:  # the choice of a contract, trump or rank: written by _start_deal
                if deal.to_act == seat:
                    mask[self.actions.choice_indexes(deal)] = 1
                return {"observation": self._vector(buffer.vector), "action_mask": mask}
        game = self._ended if self._ended is not None else self.game
        placed = self._placed(seat)
        if self._ended is not None or game.is_over:  # the episode's end: one moment for every seat
            last = game.deals[-1]
            if not last.skipped and (type(last.tricks) is TrickPlay or type(last.domino) is DominoPlay):
                buffer.end_deal(last, seat, self._deal_facts(game))
                mask = np.zeros(self.actions.size, np.int8)
                return {"observation": self._vector(buffer.vector), "action_mask": mask}
            final = self._final_views
            if final is None or final[0] is not game:
                final = self._final_views = (game, seat_views(game, range(len(self._buffers))))
            view = final[1][seat]
            written = buffer.update(view, placed)
        else:
            view = seat_view(game, seat)
            written = buffer.update(view, placed)
        return {"observation": self._vector(written), "action_mask": self.actions.mask(view, placed)}

    def _start_deal(self, deal: Deal, seat: int) -> None:
        """Write ``seat``'s buffer at its first observation of the live ``deal`` (no play made yet
        that it saw), from the deal and the game without a view
        (:meth:`~barbu.research.encoding.ObservationBuffer.start_deal`). In the calls or the card
        play, every other seat's buffer that does not follow the deal yet is written too, so that
        the card play's one-call steps find them following it."""
        game = self.game
        assert game is not None
        facts = self._deal_facts(game)
        self._buffers[seat].start_deal(deal, seat, facts)
        if deal.phase in _CHOOSING:
            return
        for other, follower in enumerate(self._buffers):
            if other != seat and not follower.playing(deal):
                follower.start_deal(deal, other, facts)

    def _deal_facts(self, game: Game) -> DealFacts:
        """The facts of ``game`` every seat sees alike at the start of its last deal or at the
        episode's end, read once a deal (and once at the end), each finished deal added once."""
        last = game.deals[-1]
        key = (game, len(game.deals), last.finished)
        known = self._facts
        if known is None or known[0] != key:
            known = self._facts = (key, self._grown.read(game.deals, game.totals))
        return known[1]

    def _vector(self, written: np.ndarray) -> np.ndarray:
        """What :meth:`observe` gives of a buffer's vector: scaled, copied, or itself (``copy=False``)."""
        if self.normalize:
            scaled: np.ndarray = written / self.scale
            return scaled
        return written.copy() if self.copy else written

    def state(self) -> np.ndarray:
        """The global state for centralised critics: every seat's observation vector, seat 0 first.

        It holds every hand, so it is for training a critic, never for acting.
        """
        return np.concatenate([self.observe(a)["observation"] for a in self.possible_agents])

    # -- copies keep the episode ----------------------------------------------------------

    def __getstate__(self) -> dict[str, Any]:
        """Everything, so that ``pickle`` and ``copy.deepcopy`` keep the episode in progress
        (the card play's one-call step is made again from it)."""
        state = dict(self.__dict__)
        state["_fast"] = None
        state["_seen"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.game is not None:
            self._arm()

    def step(self, action: Any) -> None:
        """Take ``action`` (an index of the action space) for the agent to act.

        Without ``illegal_reward``, an index out of range raises ValueError, an illegal
        action :class:`~barbu.errors.IllegalAction`; the environment is then unchanged.
        With it, as PettingZoo classic's wrappers do: an index outside the action space
        fails an assertion, an illegal action ends the episode for every agent with
        ``illegal_reward`` for the agent that took it and 0 for the others.
        """
        fast = self._fast
        if fast is not None and type(action) is int:  # a card of a live trick play, in one call
            turn = fast(action)
            if turn >= 0:
                self._cumulative_rewards[self.agent_selection] = 0.0
                if self._paid:
                    self._unpay()
                n = len(self.possible_agents)
                if turn < n:
                    self._seen = self.agent_selection = self.possible_agents[turn]
                else:
                    self._seen = None
                    self.agent_selection = self.possible_agents[turn - n]
                if self.render_mode == "human":
                    self.render()
                return
            if turn == PLAY_ENDED:
                self._seen = None
                game = self.game
                assert game is not None
                deals_before = len(game.deals)
                game.close_play()
                self._acted(self.agent_selection, deals_before)
                return
        self._seen = None
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self.illegal_reward is None:
            self._act(agent, action)
            return
        fits = type(action) is int and 0 <= action < self.actions.size  # what Discrete.contains says of an int
        assert fits or self.action_spaces[agent].contains(action), "action is not in action space"
        try:
            self._act(agent, action)
        except IllegalAction:
            self._end_illegal(agent, self.illegal_reward)

    def _end_illegal(self, agent: str, reward: float) -> None:
        """End the episode as PettingZoo's ``TerminateIllegalWrapper`` does: ``reward`` for ``agent``, 0 for others."""
        EnvLogger.warn_on_illegal_move()
        self._fast = None
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = float(reward)
        self._paid = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _act(self, agent: str, action: Any) -> None:
        """Take ``action`` for ``agent``, the agent to act (:meth:`step`)."""
        game = self.game
        assert game is not None
        seat = self.agent_name_mapping[agent]
        if action is None:
            raise ValueError(f"{agent} is to act: give an action index from 0 to {self.actions.size - 1}, not None")
        index = int(action)
        deal = game.deals[-1]
        doubling = deal.doubling
        chosen: Action | Place | None = None
        if deal.phase is Phase.CALL and doubling is not None and doubling.to_act == seat:
            chosen = self.actions.listed_call(doubling.listed_calls(), seat, index)  # taken as listed, unchecked
        if chosen is None:
            chosen = self.actions.action(index, seat)
        deals_before = len(game.deals)
        if isinstance(chosen, Place):
            if game.phase != Phase.ARRANGE:
                raise IllegalAction(
                    game.phase, f"seat {seat} cannot place a card now: it is the {game.phase} phase", seat
                )
            if self._placing is None:
                assert deal.dealt is not None  # the live deal (the phase is its arrangements)
                self._placing = PartialArrangement(deal.dealt[seat])
            placing = self._placing
            if chosen.card not in placing.cards():
                left = " ".join(card_name(c) for c in placing.cards())
                raise IllegalAction(game.phase, f"seat {seat} cannot {chosen}: place one of {left}", seat)
            arrangement = placing.place(chosen.card)
            if arrangement is None:
                self._cumulative_rewards[agent] = 0.0
                self._unpay()
                return
            self._placing = None
            game.apply(arrangement, seat)
        else:
            game.apply(chosen, seat)
        self._acted(agent, deals_before)

    def _acted(self, agent: str, deals_before: int) -> None:
        """After ``agent``'s action, applied to a game that held ``deals_before`` deals: the
        rewards of a finished deal or episode, the terminations, the next agent to act."""
        game = self.game
        assert game is not None
        self._cumulative_rewards[agent] = 0.0
        self._unpay()
        finished = game.is_over or len(game.deals) > deals_before
        over = game.is_over or (self.episode == "deal" and finished)
        if finished and self.reward_kind == "deal":
            deal = game.deals[deals_before - 1]
            assert deal.final is not None
            for a, s in self.agent_name_mapping.items():
                self.rewards[a] = float(self.sign * deal.final[s]) / self.reward_unit
            self._paid = True
        if over:
            if self.reward_kind == "game":
                for a, s in self.agent_name_mapping.items():
                    self.rewards[a] = float(self.sign * game.totals[s]) / self.reward_unit
                self._paid = True
            if not game.is_over:
                self._ended = game.ended(deals_before)
            self.terminations = {a: True for a in self.agents}
        else:
            assert game.to_act is not None
            self.agent_selection = self.possible_agents[game.to_act]
        if self._paid:
            self._accumulate_rewards()
        self._arm()
        if not over:
            deal = game.deals[-1]
            if deal.phase is Phase.CALL:
                self._observe_caller(deal)
        if self.render_mode == "human":
            self.render()

    def _observe_caller(self, deal: Deal) -> None:
        """In ``deal``'s calls, write the observation and the mask of the seat to call now, as
        :meth:`observe` would (at the first call, every seat's buffer from the deal's start:
        :meth:`_start_deal`): the calls made since its buffer last wrote them, and its listed
        calls (:meth:`~barbu.doubling.Doubling.listed_calls`); :meth:`observe` then returns them."""
        doubling = deal.doubling
        assert doubling is not None
        turn = doubling.to_act
        assert turn is not None
        buffer = self._buffers[turn]
        if not buffer.playing(deal):
            self._start_deal(deal, turn)
        mask = self._masks[turn]
        mask.fill(0)
        buffer.update_play(deal, turn, mask)
        mask[self.actions.call_indexes(doubling.listed_calls(), turn)] = 1
        self._seen = self.possible_agents[turn]

    def _arm(self) -> None:
        """Make the card play's one-call step when the episode is live in a one-deck trick play
        (a step then plays the card and writes the next seat's observation: :func:`play_observed`)."""
        self._fast = None
        game = self.game
        if game is None or self._ended is not None or not self.agents or self.terminations[self.agent_selection]:
            return
        deal = game.deals[-1]
        play = deal.cardplay
        if deal.phase is not Phase.PLAY:
            return
        if type(play) is TrickPlay:
            at = self.observations._play_at
            self._fast = partial(
                play_observed, play, deal.plays, deal.play_seats, deal, self._following, self._vectors, self._masks, at
            )
            self._start_play(deal)
        elif type(play) is DominoPlay:
            self._fast = partial(
                lay_observed,
                play,
                deal.plays,
                deal.play_seats,
                deal,
                self._following,
                self._vectors,
                self._masks,
                self.observations._lay_at,
            )

    def _start_play(self, deal: Deal) -> None:
        """At the end of ``deal``'s calls, bring every seat's buffer written in them to the card
        play (:meth:`~barbu.research.encoding.ObservationBuffer.start_play`), so that each seat's
        first card-play observation is written by the one-call step, and write the observation
        of the seat to act now, as that step would have."""
        switched = False
        for seat, buffer in enumerate(self._buffers):
            following = buffer.following
            if following[0] is deal and not following[1]:
                buffer.start_play(deal, seat)
                switched = True
        turn = deal.to_act
        if not switched or turn is None or self._following[turn][0] is not deal:
            return
        mask = self._masks[turn]
        mask.fill(0)
        self._buffers[turn].update_play(deal, turn, mask)
        self._seen = self.possible_agents[turn]

    def _unpay(self) -> None:
        """PettingZoo's ``_clear_rewards``, skipped while no reward was given since the last one
        (most steps: rewards come at the end of a deal), as is ``_accumulate_rewards`` then."""
        if self._paid:
            self._clear_rewards()
            self._paid = False

    def render(self) -> str | None:
        """``ansi``: the acting seat's observation in words; ``human``: print it."""
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        if self.game is None:
            return None
        seat = self.agent_name_mapping[self.agent_selection]
        game = self._ended if self._ended is not None else self.game
        text = self.observations.text(seat_view(game, seat), self._placed(seat))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    # -- helpers ----------------------------------------------------------------------

    def _placed(self, seat: int) -> list[int]:
        game = self.game
        if self._placing is not None and game is not None and game.to_act == seat:
            return self._placing.placed
        return []

    def describe(self, action: int) -> str:
        """An action index in words, for the agent to act."""
        return self.actions.describe(action, self.agent_name_mapping[self.agent_selection])

    def view(self, agent: str) -> SeatView:
        """The seat view of ``agent`` (what a core bot plays from: :mod:`barbu.bots`)."""
        if self.game is None:
            raise RuntimeError("call reset() before view()")
        return seat_view(self._ended if self._ended is not None else self.game, self.agent_name_mapping[agent])

    def indexes_of(self, action: Action) -> list[int]:
        """The action indexes that take a core ``action`` for the agent to act.

        One index, except for a Chinese-poker :class:`~barbu.actions.Arrange`: the ten
        :class:`~barbu.research.encoding.Place` actions of its back and middle rows. A spoken call
        (``maximum``, ``flanks`` …) is expanded by the core first; an illegal one raises
        :class:`~barbu.errors.IllegalAction`.
        """
        game = self.game
        if game is None or game.current is None:
            raise RuntimeError("no deal is in progress: reset() first")
        seat = self.agent_name_mapping[self.agent_selection]
        if isinstance(action, Arrange):
            back, middle, _ = PartialArrangement(mask_of(action.cards)).sizes
            return [self.actions.index(Place(c), seat) for c in action.cards[: back + middle]]
        if isinstance(action, Call) and action.word not in (None, "pass"):
            doubling = game.current.doubling
            if doubling is None:
                raise IllegalAction(game.phase, f"seat {seat} cannot call now: it is the {game.phase} phase", seat)
            doubled, redoubled = doubling.expand(seat, action)
            return [self.actions.call_index(doubled, redoubled, seat)]
        return [self.actions.index(action, seat)]


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with :meth:`last`, :meth:`step` and
    :meth:`agent_iter` read from the environment at once once it has been reset: the wrapper's
    own ``last`` reads six attributes through its forwarding ``__getattr__`` at every decision,
    its iterator two. Before ``reset`` (and after the last agent is done, for ``step``) they are
    the wrapper's, with its errors and warnings."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The acting agent's observation, cumulative reward, terminated, truncated and info."""
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        """Take ``action`` for the acting agent (see :meth:`BarbuEnv.step`)."""
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """PettingZoo's ``agent_iter`` with the same order check, reading the environment's
        ``agents`` and ``agent_selection`` without the wrapper's attribute forwarding."""
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's wrapper shows itself


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's ``AECOrderEnforcingIterator``: the agent to act until every agent is done,
    each after a ``step`` (or the ``reset``), read from the wrapped environment at once."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = inner.agent_selection
        return agent


ILLEGAL_REWARD = -1.0
"""The reward of an agent that takes an illegal action in the wrapped environment (PettingZoo classic's)."""


def env(variant: str = "classic", options: dict[str, Any] | None = None, **kwargs: Any) -> AECEnv:
    """A :class:`BarbuEnv` with PettingZoo classic's rules, in PettingZoo's order checks.

    As in PettingZoo's classic games, an illegal action ends the episode for every agent
    with :data:`ILLEGAL_REWARD` (−1) for the agent that took it and 0 for the others;
    an index outside the action space fails an assertion; acting out of turn or before
    ``reset`` raises. The environment applies the first two rules itself
    (``illegal_reward``), as PettingZoo's ``TerminateIllegalWrapper`` and
    ``AssertOutOfBoundsWrapper`` would, without their two layers of attribute forwarding
    at every call; ``OrderEnforcingWrapper`` stays (:class:`OrderEnforcing`, which reads
    ``last``, ``step`` and the agent iteration without forwarding). The bare class (:data:`raw_env`) raises
    :class:`~barbu.errors.IllegalAction` instead.
    """
    kwargs.setdefault("illegal_reward", ILLEGAL_REWARD)
    return OrderEnforcing(BarbuEnv(variant, options, **kwargs))


def task_env(task_id: str, **kwargs: Any) -> AECEnv:
    """The wrapped environment of a canonical task (:mod:`barbu.research.tasks`): normalised numbers.

    >>> e = task_env("barbu-notricks-v0")
    >>> e.reset(seed=1)
    >>> float(e.last()[0]["observation"].max())
    1.0
    """
    t = task(task_id)
    return env(t.variant, t.options, **t.env_kwargs(), **kwargs)


raw_env = BarbuEnv
"""PettingZoo's name for the unwrapped environment class."""

__all__ = ["EPISODES", "ILLEGAL_REWARD", "REWARDS", "BarbuEnv", "OrderEnforcing", "env", "raw_env", "task_env"]
