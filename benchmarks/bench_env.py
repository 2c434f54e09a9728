"""Decisions per CPU-second with random actions: barbu's research adapters vs OpenSpiel's hearts.

A *step* is one decision of a player. For barbu's PettingZoo environment it is what a
learning loop does: ``env.last()`` (the acting agent's observation vector and action mask)
and ``env.step`` with a uniformly random legal index. Chance events (the deal) are never
counted as steps, but their time is. Rates are per CPU-second of this process
(``time.process_time``), the best of alternating rounds, so that a busy machine hurts
every contender alike.

References, measured in the same run:

- **hearts, zero-copy observer** (the reference): OpenSpiel's C++ hearts through
  ``pyspiel``, observed at every decision through OpenSpiel's observer API
  (``make_observation``, perfect recall: ``set_from`` writes the information-state tensor
  into one NumPy buffer), plus the legal actions: the fastest way a Python learner reads it.
- **hearts, list path**: ``state.information_state_tensor()`` turned into an array at each
  decision (a Python list of 5,088 floats first), for scale.
- **hearts, bare**: legal actions and apply only, nothing observed.

Contenders: the PettingZoo environment (classic wrappers) on whole classic games and on
single deals, the ``python_barbu`` OpenSpiel game through its zero-copy observer, and the
batch simulator (:mod:`barbu.research.batch`, 256 games stepped together, its arrays written in
place as the zero-copy observer writes its buffer, and also with new arrays at every step),
driven by a uniformly random legal action per game (:func:`random_legal`). Then Python
ISMCTS (``open_spiel.python.algorithms.ismcts``) simulations per CPU-second, on
``python_barbu`` single deals and on hearts, from a position a few random decisions in.

    python benchmarks/bench_env.py [--seconds 3] [--rounds 3] [--only env]
    python benchmarks/bench_env.py --budget [--seconds 3]   # an ISMCTS simulation's microseconds, part by part
    valgrind --tool=callgrind python benchmarks/bench_env.py --positions N --game python_barbu  # N searches
        [--without rollouts] [--without resample]   # the same searches with parts left out
    valgrind --tool=callgrind python benchmarks/bench_env.py --episodes N --episode game  # N env episodes

A last reference, **PettingZoo loop, idle env**, runs the PettingZoo loop over an environment
that computes nothing (a fixed observation, every action legal) in the same order checks: the
most any PettingZoo environment can reach in this benchmark.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

clock = time.process_time


def env_steps(seconds: float, episode: str = "game", made: Any = None, episodes: int | None = None) -> float:
    """PettingZoo: ``last()`` then ``step(random legal index)``, classic rules (or the environment ``made``).
    With ``episodes``, exactly that many seeded episodes, whatever the time (for counting instructions)."""
    from barbu.research.env import env

    e = env("classic", episode=episode) if made is None else made
    rng = np.random.default_rng(1)
    steps = 0
    seed = 0
    start = clock()
    while clock() - start < seconds if episodes is None else seed < episodes:
        e.reset(seed=seed)
        seed += 1
        for _ in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps / (clock() - start)


class _Idle:
    """The PettingZoo environment of :func:`idle_env_steps`: four agents, a fixed observation of
    barbu's size, every action legal, whole games of 28 deals of 52 decisions, nothing computed."""

    @staticmethod
    def make() -> object:
        from pettingzoo import AECEnv

        from barbu.research.env import OrderEnforcing

        class Idle(AECEnv):  # type: ignore[misc]
            metadata: ClassVar[dict[str, str]] = {"name": "idle"}

            def __init__(self) -> None:
                super().__init__()
                self.possible_agents = [f"player_{s}" for s in range(4)]
                self.seen = {"observation": np.zeros(3642, np.float32), "action_mask": np.ones(141, np.int8)}
                self.moves = 0

            def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
                self.agents = self.possible_agents[:]
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
                self.terminations = dict.fromkeys(self.agents, False)
                self.truncations = dict.fromkeys(self.agents, False)
                self.infos = {a: {} for a in self.agents}
                self.agent_selection = self.agents[0]
                self.moves = 0

            def observe(self, agent: str) -> dict[str, np.ndarray]:
                return self.seen

            def step(self, action: int | None) -> None:
                if self.terminations[self.agent_selection]:
                    self._was_dead_step(action)
                    return
                self.moves += 1
                if self.moves == 28 * 52:
                    self.terminations = dict.fromkeys(self.agents, True)
                self.agent_selection = self.possible_agents[self.moves % 4]

        return OrderEnforcing(Idle())


def idle_env_steps(seconds: float) -> float:
    """The same loop over a PettingZoo environment that computes nothing (:class:`_Idle`), in the
    same order checks as barbu's: what the loop, PettingZoo and NumPy cost without any game, the
    most any PettingZoo environment can reach in this benchmark."""
    return env_steps(seconds, made=_Idle.make())


def deal_env_steps(seconds: float) -> float:
    """PettingZoo on single deals (a new episode every deal)."""
    return env_steps(seconds, episode="deal")


def env_steps_in_place(seconds: float) -> float:
    """PettingZoo on whole classic games with ``copy=False``: an observation is the seat's own
    buffer where the environment can give it, as the zero-copy observer writes one buffer."""
    from barbu.research.env import env

    return env_steps(seconds, made=env("classic", copy=False))


def _pyspiel_steps(game_name: str, params: dict[str, str] | None, seconds: float, observe: str) -> float:
    """``observe``: ``zero-copy`` (the observer API), ``list`` (the tensor as a list) or ``none``."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(game_name, params or {})
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(3)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if observe == "zero-copy":
                observer.set_from(state, state.current_player())
            elif observe == "list":
                np.asarray(state.information_state_tensor(), np.float32)
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (clock() - start)


def openspiel_barbu_steps(seconds: float) -> float:
    """``python_barbu`` through pyspiel: single classic deals, observed through the zero-copy observer."""
    import barbu.research.openspiel_game  # noqa: F401  (registers python_barbu)

    return _pyspiel_steps("python_barbu", {"variant": "classic", "episode": "deal"}, seconds, observe="zero-copy")


def hearts_zero_copy(seconds: float) -> float:
    """OpenSpiel's hearts, the acting seat's information state written by the observer API at every decision."""
    return _pyspiel_steps("hearts", None, seconds, observe="zero-copy")


def hearts_list(seconds: float) -> float:
    """OpenSpiel's hearts, ``information_state_tensor()`` as an array at every decision."""
    return _pyspiel_steps("hearts", None, seconds, observe="list")


def hearts_bare(seconds: float) -> float:
    """OpenSpiel's hearts, legal actions and apply only."""
    return _pyspiel_steps("hearts", None, seconds, observe="none")


_ROWS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action in each row of ``masks`` (every row has one), drawn with one
    random number per row: the legal actions of all rows listed once (``nonzero`` of the flat
    mask), each row's first found by binary search. A learner samples its policy instead; this is
    the benchmark's random player, several times cheaper than ``argmax(rng.random(masks.shape) *
    masks)``, which draws one random number per action."""
    n, size = masks.shape
    if (n, size) not in _ROWS:
        _ROWS[n, size] = (np.arange(n) * size, np.empty(n, np.int64))
    rows, ends = _ROWS[n, size]
    legal = masks.ravel().nonzero()[0]
    starts = legal.searchsorted(rows)
    ends[:-1] = starts[1:]
    ends[-1] = len(legal)
    picked: np.ndarray = legal[starts + (rng.random(n) * (ends - starts)).astype(np.int64)] - rows
    return picked


def batch_steps(seconds: float, n: int = 256, copy: bool = False) -> float:
    """The batch simulator on ``barbu-notricks-v0``: ``n`` games, a random legal action in each per
    step, its arrays written in place at each step (``copy=False``, as hearts' zero-copy observer
    writes one buffer) unless ``copy``."""
    from barbu.research.batch import BatchEnv

    b = BatchEnv("barbu-notricks-v0", n, seed=1, copy=copy)
    _, masks = b.reset()
    rng = np.random.default_rng(0)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        _, masks, _, _ = b.step(random_legal(masks, rng))
        steps += n
    return steps / (clock() - start)


def batch_steps_copied(seconds: float) -> float:
    """The batch simulator giving new arrays at every step (its default)."""
    return batch_steps(seconds, copy=True)


ISMCTS_DEALS = {"variant": "classic", "episode": "deal", "contract": "no-hearts"}
"""The ``python_barbu`` games ISMCTS searches: single classic No-hearts deals."""


def _ismcts_sims(
    game_name: str,
    params: dict[str, str] | None,
    seconds: float,
    simulations: int = 20,
    rollouts: bool = True,
    resample: bool = True,
    positions: int | None = None,
) -> float:
    """Simulations per CPU-second; without ``rollouts`` a leaf is worth zero, without ``resample``
    every simulation starts from a clone of the true state (:func:`ismcts_budget` subtracts them).
    With ``positions``, exactly that many searches, whatever the time (the same seeded work on
    every machine, for counting instructions)."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(game_name, params or {})
    rs = np.random.RandomState(2)

    class Rollout(mcts.Evaluator):  # type: ignore[misc]
        """One random playout per leaf, like ``mcts.RandomRolloutEvaluator``, but ending a playout
        that reaches a seat without cards: hearts' ``resample_from_infostate`` sometimes deals a
        world in which a seat runs out of cards before the end (OpenSpiel's bug, not barbu's)."""

        def evaluate(self, state: pyspiel.State) -> np.ndarray:
            if not rollouts:
                return np.zeros(game.num_players())
            state = state.clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rs.randint(len(outcomes))][0])
                    continue
                legal = state.legal_actions()
                if not legal:
                    break
                state.apply_action(legal[rs.randint(len(legal))])
            return np.array(state.returns())

        def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    bot = ismcts.ISMCTSBot(game, Rollout(), 2.0, simulations, random_state=rs)
    if resample:
        # The bot's own resampler draws each world from a new ``UniformProbabilitySampler``
        # seeded by the operating system: every run would search other worlds (and, from the
        # first search on, other positions). One sampler seeded here makes the work the same.
        sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    else:
        bot.set_resampler(lambda state, player: state.clone())
    done = 0
    start = clock()
    deal = 0
    while clock() - start < seconds if positions is None else deal < positions:
        state = game.new_initial_state()
        decisions = 0
        while state.is_chance_node() or decisions < 4 + deal % 8:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rs.randint(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rs.randint(len(legal))])
                decisions += 1
            if state.is_terminal():  # a deal ended before the search position (every seat passed)
                break
        deal += 1
        if state.is_terminal():
            continue
        bot.step(state)
        done += simulations
    return done / (clock() - start)


def ismcts_barbu(seconds: float) -> float:
    """Python ISMCTS simulations on ``python_barbu`` single classic No-hearts deals."""
    import barbu.research.openspiel_game  # noqa: F401  (registers python_barbu)

    return _ismcts_sims("python_barbu", ISMCTS_DEALS, seconds)


def ismcts_hearts(seconds: float) -> float:
    """Python ISMCTS simulations on OpenSpiel's hearts."""
    return _ismcts_sims("hearts", None, seconds)


def ismcts_budget(seconds: float) -> dict[str, dict[str, float]]:
    """Microseconds of CPU per ISMCTS simulation on each game, split by running the loop three
    ways: the search tree and information-state strings (no resampling, no rollouts), resampling
    a world (added), random rollouts (added)."""
    import barbu.research.openspiel_game  # noqa: F401  (registers python_barbu)

    games = {
        "hearts": ("hearts", None),
        "python_barbu": ("python_barbu", ISMCTS_DEALS),
    }
    out = {}
    for name, (game, params) in games.items():
        tree = 1e6 / _ismcts_sims(game, params, seconds, rollouts=False, resample=False)
        resampled = 1e6 / _ismcts_sims(game, params, seconds, rollouts=False)
        full = 1e6 / _ismcts_sims(game, params, seconds)
        out[name] = {"tree": tree, "resample": resampled - tree, "rollout": full - resampled, "total": full}
    return out


def hearts_rl_environment(seconds: float) -> float:
    """OpenSpiel's ``rl_environment`` loop on hearts."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment("hearts")
    rng = random.Random(4)
    steps = 0
    start = clock()
    while clock() - start < seconds:
        step = environment.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = environment.step([legal[int(rng.random() * len(legal))]])
            steps += 1
    return steps / (clock() - start)


REFERENCE = "hearts, zero-copy observer"
RUNS: list[tuple[str, Callable[[float], float]]] = [
    (REFERENCE, hearts_zero_copy),
    ("hearts, list path", hearts_list),
    ("hearts, bare", hearts_bare),
    ("hearts, rl_environment", hearts_rl_environment),
    ("PettingZoo loop, idle env (ceiling)", idle_env_steps),
    ("barbu env, whole games", env_steps),
    ("barbu env, single deals", deal_env_steps),
    ("barbu env, whole games, copy=False", env_steps_in_place),
    ("barbu OpenSpiel, zero-copy, deals", openspiel_barbu_steps),
    ("barbu batch, 256 games", batch_steps),
    ("barbu batch, 256 games, new arrays", batch_steps_copied),
    ("ISMCTS sims, hearts", ismcts_hearts),
    ("ISMCTS sims, python_barbu", ismcts_barbu),
]


def measure(seconds: float, rounds: int, only: str = "") -> dict[str, float]:
    """Steps per second of every contender (or of those whose name holds ``only``, and the
    reference), the best of ``rounds`` alternating rounds."""
    runs = [(name, fn) for name, fn in RUNS if name == REFERENCE or only in name]
    results = {name: 0.0 for name, _ in runs}
    for _ in range(rounds):
        for name, fn in runs:
            results[name] = max(results[name], fn(seconds))
    return results


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each is kept")
    parser.add_argument(
        "--budget", action="store_true", help="only the microseconds of an ISMCTS simulation, part by part"
    )
    parser.add_argument(
        "--only", default="", help="only the contenders whose name holds this text (and the reference), e.g. 'env'"
    )
    parser.add_argument(
        "--positions",
        type=int,
        metavar="N",
        help="only N ISMCTS searches of --game, whatever the time (for valgrind --tool=callgrind)",
    )
    parser.add_argument("--game", choices=("hearts", "python_barbu"), default="python_barbu")
    parser.add_argument(
        "--without",
        action="append",
        choices=("rollouts", "resample"),
        default=[],
        help="with --positions: leaves worth zero, or every simulation from a clone of the true state",
    )
    parser.add_argument(
        "--episodes",
        type=int,
        metavar="N",
        help="only N seeded episodes of the PettingZoo env (--episode), whatever the time (for callgrind)",
    )
    parser.add_argument("--episode", choices=("game", "deal"), default="game")
    args = parser.parse_args(argv)
    if args.episodes is not None:
        rate = env_steps(0.0, episode=args.episode, episodes=args.episodes)
        print(f"{args.episodes} {args.episode} episodes of the PettingZoo env: {rate:.0f} decisions per CPU-second")
        return {args.episode: rate}
    if args.positions is not None:
        import barbu.research.openspiel_game  # noqa: F401  (registers python_barbu)

        params = None if args.game == "hearts" else ISMCTS_DEALS
        rollouts, resample = "rollouts" not in args.without, "resample" not in args.without
        rate = _ismcts_sims(args.game, params, 0.0, rollouts=rollouts, resample=resample, positions=args.positions)
        print(f"{args.positions} ISMCTS searches of {args.game}: {rate:.0f} simulations per CPU-second")
        return {args.game: rate}
    if args.budget:
        budget = ismcts_budget(args.seconds)
        print(f"{'us per ISMCTS simulation':26} {'tree':>8} {'resample':>9} {'rollout':>8} {'total':>8}")
        for name, parts in budget.items():
            print(f"{name:26} " + " ".join(f"{parts[k]:8.0f}" for k in ("tree", "resample", "rollout", "total")))
        return {f"{name} {k}": v for name, parts in budget.items() for k, v in parts.items()}
    results = measure(args.seconds, args.rounds, args.only)
    reference = results[REFERENCE]
    print(f"{'per CPU-second':34} {'rate':>10} {'vs hearts zero-copy':>20}")
    for name, rate in results.items():
        if not name.startswith("ISMCTS"):
            print(f"{name:34} {rate:10.0f} {rate / reference:19.2f}x")
    hearts = results.get("ISMCTS sims, hearts")
    for name in ("ISMCTS sims, hearts", "ISMCTS sims, python_barbu"):
        if hearts and name in results:
            print(f"{name:34} {results[name]:10.0f} {results[name] / hearts:19.2f}x (vs hearts ISMCTS)")
    return results


if __name__ == "__main__":
    main()
