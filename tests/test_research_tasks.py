"""Canonical tasks, the classic PettingZoo wrappers, the Gymnasium env and trained policies as bots."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from barbu import Game, OptionsError, seat_view
from barbu.bots import make_bot, parse_bot
from barbu.bots.errors import BotError
from barbu.research.env import ILLEGAL_REWARD, BarbuEnv, env, task_env
from barbu.research.gym import BarbuGymEnv
from barbu.research.policy import PolicyBot, save_policy, shipped_policy
from barbu.research.tasks import TASKS, evaluate, observation_scale, task


@pytest.mark.parametrize("task_id", list(TASKS))
def test_pettingzoo_tests_pass_on_every_task(task_id: str) -> None:
    api_test(task_env(task_id), num_cycles=60)
    seed_test(lambda: task_env(task_id), num_cycles=60)


def test_pettingzoo_render_test_passes() -> None:
    render_test(lambda render_mode=None: env("classic", episode="deal", render_mode=render_mode))


def test_an_illegal_action_ends_the_episode_with_a_penalty_as_in_pettingzoo_classic() -> None:
    e = env("classic", episode="deal", contract="no-queens")
    e.reset(seed=8)
    agent = e.agent_selection
    observation = e.last()[0]
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == ILLEGAL_REWARD and sum(e.rewards.values()) == ILLEGAL_REWARD
    with pytest.raises(AssertionError):  # out of the action space: PettingZoo's bounds check
        e.reset(seed=8)
        e.step(10_000)


def _play(e: BarbuEnv, moves: int, rng: np.random.Generator) -> None:
    for _ in range(moves):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_deepcopy_and_pickle_keep_the_episode() -> None:
    e = BarbuEnv("classic", episode="deal")
    e.reset(seed=3)
    _play(e, 9, np.random.default_rng(1))
    for other in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        assert other.agent_selection == e.agent_selection
        for agent in e.agents:
            assert np.array_equal(other.observe(agent)["observation"], e.observe(agent)["observation"])
        _play(other, 5, np.random.default_rng(2))
        assert other.game is not None and e.game is not None
        assert len(other.game.history) == len(e.game.history) + 5  # the copy moves on alone


def test_the_global_state_holds_every_seats_observation() -> None:
    e = BarbuEnv("classic", episode="deal", contract="trumps")
    e.reset(seed=5)
    state = e.state()
    assert e.state_space.contains(state)
    size = e.observations.size
    for seat, agent in enumerate(e.possible_agents):
        assert np.array_equal(state[seat * size : (seat + 1) * size], e.observe(agent)["observation"])
    hands = [e.observations.part(state[s * size : (s + 1) * size], "hand") for s in range(4)]
    assert np.array_equal(sum(hands), np.ones((52,), np.float32))


def test_tasks_fix_their_rules_and_normalise_rewards_and_observations() -> None:
    t = task("barbu-notricks-v0")
    assert t.reward_scale == 65.0
    with pytest.raises(OptionsError, match="tasks are: barbu-notricks-v0, barbu-deal-v0, barbu-game-v0"):
        task("barbu-v9")
    e = task_env("barbu-deal-v0")
    e.reset(seed=2)
    raw = e.unwrapped
    scale = observation_scale(raw.observations)
    total = 0.0
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        observation, reward, terminated, _, _ = e.last()
        assert np.all(np.abs(observation["observation"]) <= 1.0 + 1e-6)
        total += reward if agent == "player_0" else 0.0
        e.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert raw._ended is not None
    final = raw._ended.deals[0].final
    assert final is not None and total == pytest.approx(final[0] / 65)
    assert float(scale.max()) == 28.0


def test_gymnasium_check_env_passes_and_opponents_come_from_a_pool() -> None:
    e = BarbuGymEnv("barbu-notricks-v0", opponents=["random", "heuristic"])
    check_env(e, skip_render_check=True)
    e.reset(seed=4)
    names = {b.name for b in e.bots if b is not None}
    assert names <= {"random", "heuristic"} and e.bots[e.seat] is None
    with pytest.raises(OptionsError, match="seat must be None or a seat from 0 to 3"):
        BarbuGymEnv(seat=4)


def test_an_illegal_action_in_the_gymnasium_env_ends_it_with_a_penalty() -> None:
    e = BarbuGymEnv("barbu-deal-v0", opponents="random", seat=1)
    _, info = e.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"].astype(bool))[0])
    _, reward, terminated, truncated, _ = e.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False)


def test_the_duplicate_evaluation_is_repeatable_and_ranks_heuristic_above_random() -> None:
    first = evaluate("barbu-notricks-v0", "random", "random", deals=3)
    assert first == evaluate("barbu-notricks-v0", "random", "random", deals=3)
    assert first.episodes == 12
    assert evaluate("barbu-notricks-v0", "heuristic", "random", deals=3).mean > first.mean


def test_the_shipped_policy_plays_as_a_bot_level_with_numpy_only() -> None:
    path = shipped_policy("barbu-notricks-v0")
    level, settings = parse_bot(f"policy:{path}")
    assert (level, settings) == ("policy", {"path": path})
    bot = make_bot(level, seed=1, **settings)
    game = Game.new("classic", seed=9)
    while not game.is_over and len(game.deals) == 1:
        seat = game.to_act
        assert seat is not None
        action = bot.act(seat_view(game, seat))
        assert action in game.legal_actions()
        game.apply(action, seat)
    assert make_bot("policy", path="barbu-notricks-v0").name == bot.name
    with pytest.raises(BotError, match="not found"):
        make_bot("policy", path="/nowhere.npz")


def test_a_policy_file_that_does_not_fit_the_rules_is_refused(tmp_path: pytest.TempPathFactory) -> None:
    path = str(tmp_path / "bad.npz")  # type: ignore[operator]
    save_policy(path, "classic", {}, [np.zeros((10, 141), np.float32)], [np.zeros(141, np.float32)])
    with pytest.raises(BotError, match="does not take classic observations of 3642 entries"):
        PolicyBot(path)


def test_the_batch_simulator_steps_many_games_with_arrays() -> None:
    from barbu.research.batch import BatchEnv

    b = BatchEnv("barbu-notricks-v0", 16, seed=3)
    observations, masks = b.reset()
    assert observations.shape == (16, b.obs_size) and masks.shape == (16, 141)
    rng = np.random.default_rng(1)
    total = np.zeros(4)
    for _ in range(120):
        observations, masks, rewards, done = b.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        assert masks.any(axis=1).all() and ((rewards != 0).any(axis=1) <= done).all()
        total += rewards.sum(axis=0)
    assert b.episodes >= 16 and total.sum() == pytest.approx(-b.episodes * 26 / 65)
    illegal = np.argmax(~masks, axis=1)
    with pytest.raises(ValueError, match="is not legal in game 0"):
        b.step(illegal)
    with pytest.raises(OptionsError, match="fixed contract"):
        BatchEnv("barbu-deal-v0")


def test_the_leaderboard_ranks_players_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    from barbu.cli import main

    assert main(["arena", "--leaderboard", "--bots", "random,heuristic", "--deals", "2"]) == 0
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in capsys.readouterr().out.splitlines()]
    assert [r[:2] for r in rows if r] == [["1", "heuristic"], ["2", "random"]]
    assert main(["arena", "--leaderboard", "--bots", "bogus"]) == 2
    assert "unknown bot level 'bogus'" in capsys.readouterr().err
