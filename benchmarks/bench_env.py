"""Environment steps per second with random actions: barbu's research adapters vs OpenSpiel's hearts.

A *step* is one decision of a player. For barbu's PettingZoo environment it is what a
learning loop does: ``env.last()`` (the acting agent's observation vector and action mask)
and ``env.step`` with a uniformly random legal index. Chance events (the deal) are never
counted as steps, but their time is.

References, measured in the same run (the best of alternating rounds, so that a busy
machine hurts every contender alike):

- **hearts, observed**: OpenSpiel's C++ hearts through ``pyspiel``, with the acting
  seat's information-state tensor (as a NumPy array) and legal actions at every decision:
  what a learner needs from it, like for like with the environment. The ratios are
  against this one.
- **hearts, bare**: legal actions and apply only, nothing observed: the speed of the C++
  engine itself, for scale.
- **hearts, rl_environment**: OpenSpiel's own RL loop (``rl_environment.Environment``),
  which builds every player's information state at every step.

Contenders: the PettingZoo environment on whole classic games and on single deals, and
the ``python_barbu`` OpenSpiel game on single deals (legal actions and the acting seat's
observation tensor at every decision).

    python benchmarks/bench_env.py [--seconds 3] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np


def env_steps(seconds: float, episode: str = "game") -> float:
    """PettingZoo: ``last()`` then ``step(random legal index)``, classic rules."""
    from barbu.research.env import env

    e = env("classic", episode=episode)
    rng = np.random.default_rng(1)
    steps = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
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
    return steps / (time.perf_counter() - start)


def deal_env_steps(seconds: float) -> float:
    """PettingZoo on single deals (a new episode every deal)."""
    return env_steps(seconds, episode="deal")


def _pyspiel_steps(game_name: str, params: dict[str, str] | None, seconds: float, observe: bool) -> float:
    import pyspiel

    game = pyspiel.load_game(game_name, params or {})
    rng = random.Random(3)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
                continue
            legal = state.legal_actions()
            if observe:
                if game_name == "hearts":
                    np.asarray(state.information_state_tensor(), np.float32)
                else:
                    np.asarray(state.observation_tensor(), np.float32)
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
    return steps / (time.perf_counter() - start)


def openspiel_barbu_steps(seconds: float) -> float:
    """``python_barbu`` through pyspiel: single classic deals, observed at every decision."""
    import barbu.research.openspiel_game  # noqa: F401  (registers python_barbu)

    return _pyspiel_steps("python_barbu", {"variant": "classic", "episode": "deal"}, seconds, observe=True)


def hearts_observed(seconds: float) -> float:
    """OpenSpiel's hearts, with the acting seat's information-state tensor at every decision."""
    return _pyspiel_steps("hearts", None, seconds, observe=True)


def hearts_bare(seconds: float) -> float:
    """OpenSpiel's hearts, legal actions and apply only."""
    return _pyspiel_steps("hearts", None, seconds, observe=False)


def hearts_rl_environment(seconds: float) -> float:
    """OpenSpiel's ``rl_environment`` loop on hearts."""
    from open_spiel.python import rl_environment

    environment = rl_environment.Environment("hearts")
    rng = random.Random(4)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        step = environment.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = environment.step([legal[int(rng.random() * len(legal))]])
            steps += 1
    return steps / (time.perf_counter() - start)


RUNS: list[tuple[str, Callable[[float], float]]] = [
    ("hearts, observed (reference)", hearts_observed),
    ("hearts, bare", hearts_bare),
    ("hearts, rl_environment", hearts_rl_environment),
    ("barbu env, whole games", env_steps),
    ("barbu env, single deals", deal_env_steps),
    ("barbu OpenSpiel, single deals", openspiel_barbu_steps),
]


def measure(seconds: float, rounds: int) -> dict[str, float]:
    """Steps per second of every contender, the best of ``rounds`` alternating rounds."""
    results = {name: 0.0 for name, _ in RUNS}
    for _ in range(rounds):
        for name, fn in RUNS:
            results[name] = max(results[name], fn(seconds))
    return results


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each is kept")
    args = parser.parse_args(argv)
    results = measure(args.seconds, args.rounds)
    reference = results["hearts, observed (reference)"]
    bare = results["hearts, bare"]
    print(f"{'':32} {'steps/s':>10} {'vs observed hearts':>19} {'vs bare hearts':>15}")
    for name, rate in results.items():
        print(f"{name:32} {rate:10.0f} {rate / reference:18.2f}x {rate / bare:14.3f}x")
    return results


if __name__ == "__main__":
    main()
