"""The PettingZoo environment (barbu.research.env): PettingZoo's own checks, rewards, errors."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from barbu import IllegalAction, OptionsError, seat_view
from barbu.actions import Arrange, Call, Play
from barbu.bots import make_bot
from barbu.doubling import Doubling
from barbu.research.env import ILLEGAL_REWARD, BarbuEnv, env


def _random_episode(e: BarbuEnv, seed: int) -> tuple[dict[str, float], int]:
    """Play an episode with uniform legal actions; the return of each agent and the steps taken."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        returns[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    return returns, steps


# PettingZoo warns about every dict observation (its own board games get the same two
# warnings): an action mask needs a dict, so these two are expected and silenced.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(
    "settings",
    [
        {"variant": "classic"},
        {"variant": "classic", "episode": "deal", "contract": "trumps", "reward": "game"},
        {"variant": "chinese-poker", "episode": "deal", "contract": "chinese-poker"},
        {"variant": "five-player", "episode": "deal", "contract": "domino"},
        {"variant": "french", "options": {"player_count": 3}},
        {"variant": "king", "reward": "game"},
    ],
    ids=lambda s: "-".join(str(v) for v in s.values()),
)
def test_pettingzoo_api_and_seed_tests_pass(settings: dict[str, object]) -> None:
    api_test(env(**settings), num_cycles=120)
    seed_test(lambda: env(**settings), num_cycles=120)


def test_deal_rewards_add_up_to_the_totals_of_the_game() -> None:
    e = BarbuEnv("classic", options={"rotation": "quick"})
    returns, steps = _random_episode(e, seed=4)
    assert e.game is not None and e.game.is_over and steps > 28 * 52
    assert [returns[a] for a in e.possible_agents] == [float(t) for t in e.game.totals]
    assert sum(returns.values()) == 0


def test_game_rewards_come_once_at_the_end() -> None:
    e = BarbuEnv("thirty-two", reward="game")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    seen: dict[str, list[float]] = {a: [] for a in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        seen[agent].append(reward)
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert e.game is not None and e.game.is_over
    for agent, seat in e.agent_name_mapping.items():
        assert all(r == 0 for r in seen[agent][:-1])
        assert seen[agent][-1] == e.game.totals[seat]


def test_french_penalty_points_are_negated_so_that_more_is_better() -> None:
    e = BarbuEnv("french", options={"first_five_only": True}, episode="deal")
    returns, _ = _random_episode(e, seed=3)
    assert e.game is not None and e.game.deals[0].contract is not None
    assert e.game.deals[0].contract.id == "no-tricks"
    final = e.game.deals[0].final
    assert final is not None and sum(final) == 65
    assert [returns[a] for a in e.possible_agents] == [-float(f) for f in final]


def test_a_deal_episode_ends_on_the_finished_deal() -> None:
    e = BarbuEnv("classic", episode="deal", contract="no-king", options={"skip_undoubled_negative": False})
    returns, _ = _random_episode(e, seed=6)
    assert e.game is not None and e.game.deals[0].finished
    assert sum(returns.values()) == -20
    e.reset(seed=6)
    observation, *_ = e.last()
    assert "contract no-king" in e.observations.decode(observation["observation"])


def test_the_terminal_observation_shows_the_deal_that_ended() -> None:
    e = BarbuEnv("classic", episode="deal", contract="trumps", render_mode="ansi")
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    while not all(e.terminations.values()):
        observation, *_ = e.last()
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    observation = e.observe("player_2")
    text = e.observations.decode(observation["observation"])
    assert "· over ·" in text and "contract trumps" in text and "deal 1 of 28" in text
    assert not observation["action_mask"].any()
    rendered = e.render()
    assert rendered is not None and "· over ·" in rendered


def test_reset_with_a_seed_replays_the_same_episode() -> None:
    e = BarbuEnv("salad", episode="deal")
    first, _ = _random_episode(e, seed=12)
    again, _ = _random_episode(e, seed=12)
    assert first == again
    e.reset(seed=12)
    a = e.observe(e.agent_selection)["observation"]
    e.reset()
    b = e.observe(e.agent_selection)["observation"]
    e.reset(seed=12)
    assert np.array_equal(a, e.observe(e.agent_selection)["observation"])
    assert not np.array_equal(a, b)


def test_an_observation_is_the_seats_view_and_nothing_more() -> None:
    e = BarbuEnv("classic", episode="deal", contract="no-hearts")
    e.reset(seed=5)
    game = e.game
    assert game is not None
    for agent, seat in e.agent_name_mapping.items():
        observation = e.observe(agent)["observation"]
        assert np.array_equal(observation, e.observations.encode(seat_view(game, seat)))
        hand = e.observations.part(observation, "hand")
        deal = game.current
        assert deal is not None
        assert int(hand.sum()) == 13 and all(deal.hand(seat) >> int(c) & 1 for c in np.flatnonzero(hand))


@pytest.mark.parametrize(
    ("variant", "episode", "contract"),
    [
        ("classic", "game", None),
        ("classic", "deal", None),
        ("classic", "deal", "domino"),
        ("classic+first_card", "deal", "domino"),
        ("five-player", "deal", None),
        ("five-player", "deal", "domino"),
        ("thirty-two", "deal", "domino"),
        ("thirty-two", "game", None),
        ("king", "deal", None),
        ("french", "deal", None),
    ],
)
def test_every_observation_along_episodes_is_the_seats_view(variant: str, episode: str, contract: str | None) -> None:
    """The acting seat's observation at every step (written in place during a card play, without a
    view: ObservationBuffer.update_play), and now and then another seat's, are the encoding of its
    view, and the action mask the view's."""
    name, _, flag = variant.partition("+")
    e = BarbuEnv(name, {"domino_start": flag} if flag else None, episode=episode, contract=contract)
    rng = np.random.default_rng(3)
    for seed in range(2):
        e.reset(seed=seed)
        for steps, agent in enumerate(e.agent_iter()):
            if steps > 400:
                break
            seats = [agent] if steps % 3 else [agent, e.possible_agents[int(rng.integers(len(e.possible_agents)))]]
            for a in seats:
                observed = e.observe(a)
                view = e.view(a)
                assert np.array_equal(observed["observation"], e.observations.encode(view)), (seed, steps, a)
                assert np.array_equal(observed["action_mask"], e.actions.mask(view)), (seed, steps, a)
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


FIRST_OBSERVED: list[tuple[str, dict[str, Any] | None, str | None]] = [
    ("classic", None, None),
    ("french", None, None),
    ("king", None, None),
    ("five-player", None, None),
    ("thirty-two", None, None),
    # no calls and the declarer names the rank 2, whose removed cards show as rows before any lay
    ("french", {"player_count": 5, "domino_start": "named"}, "rank"),
]


@pytest.mark.parametrize(("variant", "options", "lowest"), FIRST_OBSERVED)
def test_every_seats_first_observations_of_each_deal_are_its_view(
    variant: str, options: dict[str, Any] | None, lowest: str | None
) -> None:
    """Over a whole game, every seat observed whenever a deal or its phase changes (the first
    observations of a deal, written from the deal and the game without a view:
    ObservationBuffer.start_deal), and the acting seat at every step, is the encoding of its view,
    the action mask the view's; the seats are observed in a different order each time. Actions
    are drawn at random, but the first of section ``lowest`` whenever it is legal."""
    e = BarbuEnv(variant, options)
    preferred = None if lowest is None else e.actions.sections[lowest].start
    rng = np.random.default_rng(8)
    for seed in range(2 if variant == "classic" else 1):
        e.reset(seed=seed)
        game = e.game
        assert game is not None
        moment = None
        starts = 0
        for agent in e.agent_iter():
            deal = game.deals[-1]
            now = (len(game.deals), deal.phase)
            seats = [agent]
            if now != moment:
                moment = now
                starts += 1
                seats = [e.possible_agents[int(i)] for i in rng.permutation(len(e.possible_agents))]
            for a in seats:
                observed = e.observe(a)
                view = e.view(a)
                assert np.array_equal(observed["observation"], e.observations.encode(view)), (seed, now, a)
                assert np.array_equal(observed["action_mask"], e.actions.mask(view)), (seed, now, a)
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = observation["action_mask"]
            e.step(preferred if preferred is not None and legal[preferred] else int(rng.choice(np.flatnonzero(legal))))
        assert starts > game.rules.deal_count  # every deal was seen from its start by every seat


@pytest.mark.parametrize(
    ("variant", "options"),
    [("classic", None), ("classic", {"late_redouble": False, "compulsory_doubles": 7}), ("five-player", None)],
)
def test_the_calls_taken_as_listed_make_the_game_the_checked_door_makes(
    variant: str, options: dict[str, Any] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The environment takes a call as the doubling lists it (the listed object, not checked
    again: ``Doubling.take_listed`` takes each one) and writes the next caller's observation at
    once: the same game, record and observations as each action index turned into its action
    and applied through the game's checked door, over whole seeded games; the next caller's
    observation is the encoding of its view."""
    taken: list[tuple[Doubling, int | None]] = []
    take_listed = Doubling.take_listed

    def spy(doubling: Doubling, call: Call, seat: object) -> int | None:
        answer = take_listed(doubling, call, seat)
        taken.append((doubling, answer))
        return answer

    monkeypatch.setattr(Doubling, "take_listed", spy)
    e = BarbuEnv(variant, options)
    rng = np.random.default_rng(2)
    e.reset(seed=6)
    game = e.game
    assert game is not None
    replay = game.copy()  # dealt as the environment's game is
    calls = 0
    for agent in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        seat = e.agent_name_mapping[agent]
        doubling = game.deals[-1].doubling if game.deals[-1].phase == "call" else None
        calls += doubling is not None
        taken.clear()
        replay.apply(e.actions.action(action, seat), seat)  # type: ignore[arg-type]
        e.step(action)
        if doubling is not None:  # the environment's call taken as listed, once; the replay's checked
            assert [answer for d, answer in taken if d is doubling] == [seat]
            assert [answer for d, answer in taken if d is not doubling] == [None]
        if e.agents and game.deals[-1].phase == "call":
            assert e._seen == e.agent_selection  # the next caller's observation was written by the step
            view = e.view(e.agent_selection)
            observed = e.observe(e.agent_selection)
            assert np.array_equal(observed["observation"], e.observations.encode(view))
            assert np.array_equal(observed["action_mask"], e.actions.mask(view))
    assert calls > 50 and replay.history == game.history and replay.totals == game.totals


@pytest.mark.parametrize(("variant", "options"), [("classic", None), ("five-player", None), ("thirty-two", None)])
def test_observations_in_the_calls_are_written_from_the_deal_as_from_the_view(
    variant: str, options: dict[str, Any] | None
) -> None:
    """The calls' observations, written from the deal with only the calls made since each seat's
    buffer last wrote them (ObservationBuffer.update_play), are the encoding of the seat's view
    whether a seat is observed after every call, after a round, or not until the card play."""
    e = BarbuEnv(variant, options, episode="deal")
    rng = np.random.default_rng(5)
    calls = doubled = 0
    for seed in range(6):
        e.reset(seed=seed)
        game = e.game
        assert game is not None
        for agent in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            deal = game.deals[-1]
            calling = deal.doubling is not None and (deal.phase == "call" or (deal.phase == "play" and not deal.plays))
            if calling:
                assert deal.doubling is not None
                calls += 1
                doubled += any(c.doubles for c in deal.doubling.calls)
                for a in e.possible_agents:
                    if a == agent or rng.random() < 1 / (seed % 3 + 1) - 0.2:
                        assert np.array_equal(e.observe(a)["observation"], e.observations.encode(e.view(a))), (seed, a)
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert calls > 20 and doubled > 5  # the episodes went through calls, with doubles


def test_the_agent_iteration_keeps_pettingzoos_order_check() -> None:
    """The wrapped environment's agent_iter (read without attribute forwarding) stops at the end
    of the episode and, as PettingZoo's, refuses to go on to the next agent before a step."""
    e = env("classic", episode="deal", contract="no-hearts")
    e.reset(seed=2)
    agents = iter(e.agent_iter())
    first = next(agents)
    assert first == e.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(agents)
    e.reset(seed=2)
    seen = []
    for agent in e.agent_iter():
        seen.append(agent)
        observation, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[-1]))
    assert not e.agents and len(seen) == 52 + 4 + 4  # four calls, 52 cards, each seat's last word


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = BarbuEnv("classic", episode="deal", contract="no-queens")
    e.reset(seed=8)
    before = e.observe(e.agent_selection)["observation"].copy()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction):
        e.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        e.step(e.actions.size)
    with pytest.raises(ValueError, match="not None"):
        e.step(None)
    assert np.array_equal(before, e.observe(e.agent_selection)["observation"])
    assert e.game is not None and len(e.game.history) == 1


def test_a_place_out_of_the_arrange_phase_is_refused() -> None:
    e = BarbuEnv("chinese-poker")
    e.reset(seed=1)
    with pytest.raises(IllegalAction, match="cannot place"):
        e.step(e.actions.sections["place"].start)


def test_bad_settings_say_what_is_allowed() -> None:
    with pytest.raises(OptionsError, match="episode"):
        BarbuEnv("classic", episode="hand")
    with pytest.raises(OptionsError, match="reward"):
        BarbuEnv("classic", reward="tricks")
    with pytest.raises(OptionsError, match="episode='deal'"):
        BarbuEnv("classic", contract="trumps")
    with pytest.raises(OptionsError, match="fixed order"):
        BarbuEnv("french", episode="deal", contract="no-king")
    with pytest.raises(OptionsError, match="contracts are"):
        BarbuEnv("classic", episode="deal", contract="salad")
    with pytest.raises(OptionsError, match="unknown flag"):
        BarbuEnv("classic", options={"colour": "red"})
    with pytest.raises(OptionsError, match="render_mode"):
        BarbuEnv("classic", render_mode="rgb_array")


def test_a_chinese_poker_arrangement_takes_ten_place_actions() -> None:
    e = BarbuEnv("chinese-poker", episode="deal", contract="chinese-poker")
    e.reset(seed=3)
    while e.game is not None and e.game.phase == "call":
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(np.flatnonzero(mask)[0]))
    game = e.game
    assert game is not None and game.phase == "arrange"
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    assert int(mask.sum()) == 13 and set(np.flatnonzero(mask)) <= set(e.actions.sections["place"])
    for k in range(10):
        assert e.agent_selection == agent
        mask = e.observe(agent)["action_mask"]
        assert int(mask.sum()) == 13 - k
        e.step(int(np.flatnonzero(mask)[-1]))
    assert e.agent_selection != agent
    deal = game.current
    assert deal is not None and len(deal.arrangements) == 1


def test_core_bots_play_through_the_environment() -> None:
    e = BarbuEnv("chinese-poker", episode="deal", contract="chinese-poker")
    e.reset(seed=2)
    bot = make_bot("heuristic", seed=1)
    queued: list[int] = []
    for agent in e.agent_iter():
        _, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        if not queued:
            action = bot.act(e.view(agent))
            queued = e.indexes_of(action)
            assert len(queued) == (10 if isinstance(action, Arrange) else 1)
        e.step(queued.pop(0))
    assert e.game is not None and e.game.deals[0].finished


def test_spoken_calls_are_expanded_by_the_core() -> None:
    e = BarbuEnv("classic", episode="deal", contract="trumps")
    e.reset(seed=4)
    e.step(e.actions.sections["trump"].start)
    seat = e.agent_name_mapping[e.agent_selection]
    declarer = e.view(e.agent_selection).declarer
    assert e.indexes_of(Call(word="maximum")) == [e.actions.call_index([declarer], [], seat)]
    with pytest.raises(IllegalAction):
        e.indexes_of(Call(word="flanks"))
    assert e.indexes_of(Play(3)) == [3]


def _example(name: str) -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"example_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_example_runs_in_a_tiny_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    result = _example("train_policy").main(["--deals", "40", "--eval", "12", "--seed", "3"])
    assert result["deals"] == 40 and set(result["weights"]) >= {"over", "under", "discard rank"}
    assert np.isfinite(result["learned"]) and np.isfinite(result["random"])
    assert "with the learned policy" in capsys.readouterr().out


def test_the_trained_policy_beats_random_play() -> None:
    """A short training run already learns to duck in no-tricks: a clear gain on paired deals."""
    result = _example("train_policy").main(["--deals", "300", "--eval", "80", "--seed", "1"])
    assert result["weights"]["over"] < 0 < result["weights"]["under"]
    assert result["gain"] > 1.96 * result["error"] > 0


def test_the_search_bot_example_runs_in_a_tiny_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    result = _example("search_bot_in_env").main(["--deals", "1", "--iterations", "2"])
    assert result["deals"] == 1 and np.isfinite(result["gain"])
    assert "bot level:" in capsys.readouterr().out


def test_the_throughput_benchmark_runs_briefly() -> None:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_env.py"
    spec = importlib.util.spec_from_file_location("bench_env", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rates = bench.measure(seconds=0.05, rounds=1)
    assert set(rates) == {name for name, _ in bench.RUNS} and all(r > 0 for r in rates.values())
    env_rows = bench.measure(seconds=0.05, rounds=1, only="barbu env")  # --only: those rows and the reference
    assert set(env_rows) == {bench.REFERENCE} | {name for name, _ in bench.RUNS if "barbu env" in name}
    assert set(bench.main(["--episodes", "1", "--episode", "deal"])) == {"deal"}  # --episodes: for callgrind
    budget = bench.ismcts_budget(seconds=0.05)  # --budget: an ISMCTS simulation part by part
    assert set(budget) == {"hearts", "python_barbu"}
    for parts in budget.values():
        assert set(parts) == {"tree", "resample", "rollout", "total"} and parts["tree"] > 0
        assert parts["total"] == pytest.approx(parts["tree"] + parts["resample"] + parts["rollout"])


def _classic_stack(**settings: Any) -> AECEnv:
    """The bare environment in PettingZoo's own classic wrappers (what env() stands for)."""
    wrapped = wrappers.TerminateIllegalWrapper(BarbuEnv(**settings), ILLEGAL_REWARD)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


@pytest.mark.parametrize(
    "settings",
    [{"variant": "classic", "episode": "deal"}, {"variant": "chinese-poker", "episode": "deal"}, {"variant": "king"}],
    ids=lambda s: str(s["variant"]),
)
def test_env_gives_what_pettingzoos_classic_wrappers_give(settings: dict[str, Any]) -> None:
    """Random episodes with illegal actions now and then: every ``last()``, reward and end the same."""
    for seed in range(4):
        ours, theirs = env(**settings), _classic_stack(**settings)
        rng = np.random.default_rng(seed)
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        for agent in theirs.agent_iter(2000):
            assert ours.agent_selection == agent
            mine, reference = ours.last(), theirs.last()
            for a, b in zip(mine[0].values(), reference[0].values(), strict=True):
                assert np.array_equal(a, b)
            assert mine[1:] == reference[1:]
            assert ours.rewards == theirs.rewards and ours.terminations == theirs.terminations
            if mine[2] or mine[3]:
                action = None
            elif rng.random() < 0.02:
                action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"] == 0)))
            else:
                action = int(rng.choice(np.flatnonzero(mine[0]["action_mask"])))
            ours.step(action)
            theirs.step(action)
        assert ours.agents == theirs.agents == []
    for e in (env(**settings), _classic_stack(**settings)):
        e.reset(seed=1)
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(10_000)
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(None)


_ENV_EPISODES = """
import hashlib, sys
import numpy as np
from barbu.research.env import env
out = hashlib.sha256()
EPISODES = (
    ("classic", "game", None),
    ("classic", "deal", "no-queens"),
    ("five-player", "deal", None),
    ("thirty-two", "deal", "domino"),
)
for variant, episode, contract in EPISODES:
    e = env(variant, episode=episode, contract=contract)
    rng = np.random.default_rng(4)
    for seed in range(2):
        e.reset(seed=seed)
        for steps, agent in enumerate(e.agent_iter(900)):
            observation, reward, terminated, truncated, _ = e.last()
            out.update(observation["observation"].tobytes() + observation["action_mask"].tobytes())
            out.update(repr((agent, reward, terminated, truncated)).encode())
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            illegal = seed == 1 and steps == 150 and not observation["action_mask"][51]
            e.step(51 if illegal else int(legal[int(rng.random() * len(legal))]))
print(out.hexdigest())
"""


def test_the_environment_gives_the_same_episodes_compiled_and_pure() -> None:
    """Observations, masks, rewards and agents of seeded episodes (illegal actions included) in a
    process with the accelerator and one under BARBU_PURE=1: identical."""
    import os
    import subprocess
    import sys

    digests = []
    for environ in (dict(os.environ), dict(os.environ, BARBU_PURE="1")):
        out = subprocess.run(
            [sys.executable, "-c", _ENV_EPISODES], env=environ, capture_output=True, text=True, check=True
        )
        digests.append(out.stdout.split()[-1])  # after PettingZoo's warning of the illegal action
    assert digests[0] == digests[1] and len(digests[0]) == 64


@pytest.mark.parametrize("contract", ["no-hearts", "domino"])
def test_copies_made_in_a_card_play_go_on_as_the_environment(contract: str) -> None:
    """A deep copy and a pickle made in the middle of a card play (its one-call steps: tricks, or
    domino's lays and passes) go on with the same observations as the environment for the same
    actions, each the encoding of its view."""
    import copy
    import pickle

    e = BarbuEnv("classic", episode="deal", contract=contract)
    e.reset(seed=4)
    rng = np.random.default_rng(5)
    for _ in range(14):  # the calls and the first cards
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert e.game is not None and e.game.phase == "play" and e._fast is not None
    copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    while e.agents and not e.terminations[e.agent_selection]:
        seen = e.observe(e.agent_selection)
        assert np.array_equal(seen["observation"], e.observations.encode(e.view(e.agent_selection)))
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        for other in copies:
            theirs = other.observe(other.agent_selection)
            assert other.agent_selection == e.agent_selection
            assert np.array_equal(theirs["observation"], seen["observation"])
            assert np.array_equal(theirs["action_mask"], seen["action_mask"])
            other.step(action)
        e.step(action)
    assert all(other.rewards == e.rewards and other.terminations == e.terminations for other in copies)


@pytest.mark.parametrize("contract", ["no-tricks", "domino"])
def test_without_copies_an_observation_is_the_seats_buffer(contract: str) -> None:
    """copy=False: in a card play (tricks, or domino's lays and passes) the acting seat's
    observation is its own buffer, overwritten by later steps, and still the encoding of its view
    when read."""
    e = BarbuEnv("classic", episode="deal", contract=contract, copy=False)
    copied = BarbuEnv("classic", episode="deal", contract=contract)
    rng = np.random.default_rng(6)
    for env_ in (e, copied):
        env_.reset(seed=9)
    shared = 0
    while e.agents and not e.terminations[e.agent_selection]:
        seen, theirs = e.observe(e.agent_selection), copied.observe(copied.agent_selection)
        assert np.array_equal(seen["observation"], theirs["observation"])
        assert np.array_equal(seen["action_mask"], theirs["action_mask"])
        again = e.observe(e.agent_selection)
        shared += again["observation"] is seen["observation"]
        assert again["observation"] is not theirs["observation"]
        action = int(rng.choice(np.flatnonzero(seen["action_mask"])))
        e.step(action)
        copied.step(action)
    assert shared > 40  # the card play's observations are the buffers themselves
