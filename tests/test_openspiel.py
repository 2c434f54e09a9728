"""The OpenSpiel game (barbu.research.openspiel_game): OpenSpiel's own checks, search, resampling."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from barbu import OptionsError
from barbu.errors import IllegalAction
from barbu.research.openspiel_game import GAME_NAME, BarbuState, load
from test_native import needs_native

DEAL_GAMES = [
    {"variant": "classic", "episode": "deal"},
    {"variant": "classic", "episode": "deal", "contract": "trumps", "options": json.dumps({"rotation": "quick"})},
    {"variant": "chinese-poker", "episode": "deal", "contract": "chinese-poker"},
    {"variant": "five-player", "episode": "deal", "contract": "domino"},
    {"variant": "salad", "episode": "deal", "options": json.dumps({"player_count": 5})},
    {"variant": "french", "episode": "deal", "options": json.dumps({"player_count": 3})},
    {"variant": "king", "episode": "deal", "contract": "king-no-queens"},
    {"variant": "thirty-two", "episode": "deal", "contract": "domino"},
]


def _ids(params: dict[str, str]) -> str:
    return "-".join(params.values())


def _advance(state: BarbuState, rng: random.Random, steps: int) -> BarbuState:
    """Random chance outcomes and actions, ``steps`` player actions past the deal at most."""
    done = 0
    while not state.is_terminal() and (state.is_chance_node() or done < steps):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return state


@pytest.mark.parametrize("params", DEAL_GAMES, ids=_ids)
def test_openspiel_random_simulation_checks_pass_on_single_deals(params: dict[str, str]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_random_simulation_checks_pass_on_a_whole_game() -> None:
    game = pyspiel.load_game(GAME_NAME, {"variant": "thirty-two"})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_is_loadable_by_name_with_the_rule_set_and_options() -> None:
    game = pyspiel.load_game("python_barbu(variant=salad,episode=deal)")
    assert game.num_players() == 4
    five = load("salad", {"player_count": 5}, episode="deal")
    assert five.num_players() == 5
    assert five.num_distinct_actions() == 52 + 1 + 6 + 4 + 13 + 256
    params = five.get_parameters()
    assert params["variant"] == "salad" and json.loads(params["options"]) == {"player_count": 5}
    assert load("french", episode="deal").get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert load("classic", episode="deal").get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_bad_parameters_say_what_is_allowed() -> None:
    with pytest.raises(OptionsError, match="unknown flag"):
        load("classic", {"colour": "red"})
    with pytest.raises(OptionsError, match="rule sets are"):
        load("bridge")
    with pytest.raises(OptionsError, match="episode"):
        load("classic", episode="hand")
    with pytest.raises(OptionsError, match="episode='deal'"):
        load("classic", contract="trumps")
    with pytest.raises(OptionsError, match="JSON"):
        pyspiel.load_game(GAME_NAME, {"options": "{rotation"})


def test_chance_nodes_draw_the_declarer_then_deal_every_card() -> None:
    state = load("classic", episode="deal").new_initial_state()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(2)
    for k in range(52):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - k and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(outcomes[0][0])
    assert state.current_player() == 2
    assert state.observation_string(2).splitlines()[2].startswith("hand ")
    hands = [state.observation_string(s).splitlines()[2].split()[1:] for s in range(4)]
    cards = [c for h in hands for c in h]
    assert len(cards) == len(set(cards)) == 52


@pytest.mark.parametrize("params", DEAL_GAMES[:4], ids=_ids)
def test_the_tensors_say_everything_the_strings_say(params: dict[str, str]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    encoding = game.static.observations
    rng = random.Random(4)
    state = game.new_initial_state()
    while not state.is_terminal():
        for player in range(game.num_players()):
            text = state.observation_string(player)
            assert encoding.decode(np.array(state.observation_tensor(player), np.float32)) == text
            assert state.information_state_string(player) == text
            assert state.information_state_tensor(player) == state.observation_tensor(player)
        _advance(state, rng, 7)


def test_whole_game_information_states_keep_what_each_seat_saw_of_earlier_deals() -> None:
    game = load("thirty-two")
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal() and len(state._t.records[0]) < 2:
        _advance(state, rng, 1)
    info = state.information_state_string(1)
    assert info.startswith("deal 1 declarer") and info.count("\nP1 · deal") == 1
    assert info.endswith(state.observation_string(1))
    hand = state._t.game.deals[0].dealt[1]
    assert info.splitlines()[0].split(" · hand ")[1].split(" · ")[0].count(" ") == hand.bit_count() - 1


def test_rewards_summed_over_every_transition_are_the_returns_in_whole_games() -> None:
    """spiel.h's invariant: the sum of ``rewards()`` over every transition, chance nodes included."""
    game = load("french", {"player_count": 3, "first_five_only": True})
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    state = game.new_initial_state()
    rng = random.Random(6)
    total = np.zeros(3)
    paid = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        rewards = np.array(state.rewards())
        if rewards.any():
            paid += 1
            assert state.is_terminal() or not state.is_chance_node()  # paid on the way into a decision
        total += rewards
        assert total.tolist() == state.returns()
    assert paid == 15
    assert -sum(state.returns()) == 3 * (85 + 65 + 80 + 80 + 310)
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert sum(state.returns()) == game.utility_sum()


@pytest.mark.parametrize("params", DEAL_GAMES[:3], ids=_ids)
def test_single_deals_have_a_terminal_reward_model_and_the_invariant_holds(params: dict[str, str]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    rng = random.Random(4)
    state = game.new_initial_state()
    total = np.zeros(game.num_players())
    while not state.is_terminal():
        total += np.array(state.rewards())
        assert not np.any(state.rewards())
        _advance(state, rng, 1)
    total += np.array(state.rewards())
    assert total.tolist() == state.returns() and any(state.returns())


def test_the_registered_type_is_the_default_game_and_players_is_the_standard_parameter() -> None:
    registered = next(t for t in pyspiel.registered_games() if t.short_name == GAME_NAME)
    default = pyspiel.load_game(GAME_NAME)
    assert registered == default.get_type()
    assert default.get_parameters()["players"] == 4 == default.num_players()
    assert pyspiel.load_game(GAME_NAME, {"variant": "french", "players": 3}).num_players() == 3
    assert pyspiel.load_game(GAME_NAME, {"variant": "salad", "players": 5}).num_players() == 5
    with pytest.raises(OptionsError, match="player_count 3 is not allowed in salad: use one of 4, 5"):
        pyspiel.load_game(GAME_NAME, {"variant": "salad", "players": 3})


def test_the_whole_game_information_state_tensor_is_perfect_recall() -> None:
    """One block per deal: each finished deal as the seat last saw it, then the current observation."""
    game = load("thirty-two")
    size = game.observation_tensor_size()
    assert game.information_state_tensor_size() == 28 * size
    state = game.new_initial_state()
    rng = random.Random(3)
    while len(state._t.records[0]) < 2:
        _advance(state, rng, 1)
    ended = state._t.finals[1]
    info = np.array(state.information_state_tensor(1), np.float32).reshape(28, size)
    assert np.array_equal(info[0], ended[0]) and np.array_equal(info[1], ended[1])
    assert not info[2:27].any()
    assert np.array_equal(info[27], np.array(state.observation_tensor(1), np.float32))
    # Two histories that differ in an earlier deal only differ in the tensor too.
    assert not np.array_equal(info[0], info[1])


def test_the_zero_copy_observer_writes_into_one_buffer() -> None:
    from open_spiel.python.observation import make_observation

    game = load("classic", episode="deal")
    observer = make_observation(game)
    buffer = observer.tensor
    state = _advance(game.new_initial_state(), random.Random(2), 5)
    observer.set_from(state, state.current_player())
    assert observer.tensor is buffer
    assert buffer.tolist() == state.observation_tensor(state.current_player())
    assert np.shares_memory(observer.dict["hand"], buffer) and observer.dict["hand"].sum() > 0


@pytest.mark.parametrize("params", DEAL_GAMES, ids=_ids)
def test_resampled_states_look_the_same_to_the_seat_and_keep_the_rules(params: dict[str, str]) -> None:
    """Every resampled world replays legally and gives the seat the same information."""
    game = pyspiel.load_game(GAME_NAME, params)
    rng = random.Random(len(json.dumps(params)))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for steps in (0, 9, 23, 40):
        state = _advance(game.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        for player in range(game.num_players()):
            for _ in range(3):
                other = state.resample_from_infostate(player, sampler)
                assert other.information_state_string(player) == state.information_state_string(player)
                assert other.information_state_tensor(player) == state.information_state_tensor(player)
                assert other.current_player() == state.current_player()
                if state.current_player() == player:
                    assert other.legal_actions() == state.legal_actions()


def test_openspiel_ismcts_plays_a_deal() -> None:
    game = load("classic", {"skip_undoubled_negative": False}, episode="deal", contract="no-hearts")
    random_state = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, random_state), uct_c=2.0, max_simulations=8, random_state=random_state
    )
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[random_state.randint(len(outcomes))][0])
        elif state.current_player() in (0, 2):
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[random_state.randint(len(legal))])
    assert moves >= 26
    assert sum(state.returns()) == -30


def test_clones_are_independent() -> None:
    state = _advance(load("classic", episode="deal").new_initial_state(), random.Random(1), 12)
    clone = state.clone()
    before = state.information_state_string(0)
    _advance(clone, random.Random(2), 5)
    assert state.information_state_string(0) == before
    assert clone.information_state_string(0) != before


@pytest.mark.parametrize("params", [*DEAL_GAMES, {"variant": "classic"}], ids=_ids)
def test_cards_played_from_python_reach_openspiels_history_in_order(params: dict[str, str]) -> None:
    """An action applied from Python (a card of a clone's own trick play, a domino lay, a
    placing) waits before OpenSpiel's history, kept in C++: playouts in clones of clones and
    worlds leave their originals' histories as they were, and each state's history, whether
    read from Python, read after an action applied
    from C++ (``pyspiel.State.apply_action``) or through serialization, is the one its actions
    replay to, each action with its player."""
    game = pyspiel.load_game(GAME_NAME, params)
    rng = random.Random(len(json.dumps(params)) + 11)
    for steps in (8, 14, 25, 40):
        # Played from Python only: OpenSpiel's C++ history holds nothing until the history is
        # read from Python, which then writes it whole, in order.
        played, actions, draw = game.new_initial_state(), [], random.Random(steps)
        while not played.is_terminal() and len(actions) < 60 + steps:
            legal = [a for a, _ in played.chance_outcomes()] if played.is_chance_node() else played.legal_actions()
            actions.append(legal[draw.randrange(len(legal))])
            played.apply_action(actions[-1])
        assert pyspiel.State.history(played) == [] and pyspiel.State.move_number(played) == 0
        assert played.history() == actions == pyspiel.State.history(played)
        assert pyspiel.State.move_number(played) == len(actions)
        state = _advance(game.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        world = state.resample_from_infostate(state.current_player(), lambda: rng.random())
        # A world's history waits too, until it is read: copies made before keep it.
        unread = [pickle.loads(pickle.dumps(world)), copy.deepcopy(world), world.clone()]
        originals = [(s, [(h.player, h.action) for h in s.full_history()]) for s in (state, world)]
        for s in unread:
            assert [(h.player, h.action) for h in s.full_history()] == originals[1][1]
            assert s.move_number() == world.move_number() and s.returns() == world.returns()
        for k, start in enumerate([state, world, state.clone()]):
            clone = _advance(start.clone(), random.Random(steps + k), 1)
            inner = clone.clone()
            _advance(inner, random.Random(k), 1 + k)
            _advance(clone, random.Random(steps), 4)
            if k == 1 and not clone.is_terminal():
                pyspiel.State.apply_action(clone, clone.legal_actions()[0])  # from C++, the tail before it
            for s in (clone, inner, game.deserialize_state(inner.serialize())):
                replayed = game.new_initial_state()
                for h in s.full_history():
                    assert replayed.current_player() == h.player
                    replayed.apply_action(h.action)
                assert s.history() == replayed.history() and s.move_number() == replayed.move_number()
                assert s.information_state_string(0) == replayed.information_state_string(0)
                assert s.returns() == replayed.returns()
        for s, history in originals:
            assert [(h.player, h.action) for h in s.full_history()] == history


def _determinized(bot: pyspiel.Bot, sampler: Callable[[], float]) -> Callable[[BarbuState], int]:
    """A perfect-information search bot on one world the seat cannot tell from the real one."""

    def choose(state: BarbuState) -> int:
        world = state.resample_from_infostate(state.current_player(), sampler)
        return int(bot.step(world))

    return choose


def test_openspiel_mcts_plays_single_deals_on_determinized_worlds() -> None:
    """OpenSpiel's MCTS refuses games without terminal rewards: single deals have them."""
    game = load("classic", {"skip_undoubled_negative": False}, episode="deal", contract="no-queens")
    rs = np.random.RandomState(5)
    sampler = rs.random_sample
    python_mcts = _determinized(
        mcts.MCTSBot(game, 2.0, 12, mcts.RandomRolloutEvaluator(1, rs), random_state=rs), sampler
    )
    state = game.new_initial_state()
    chosen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rs.randint(len(outcomes))][0])
            continue
        choose = python_mcts if state.current_player() in (0, 2) else None
        action = choose(state) if choose else int(rs.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
        chosen += choose is not None
    assert chosen >= 26 and sum(state.returns()) == -24


class _Restartable(pyspiel.Bot):  # type: ignore[misc]
    """OpenSpiel's Python ISMCTS bot lacks ``restart_at``, which ``evaluate_bots`` calls; it keeps no state."""

    def __init__(self, bot: pyspiel.Bot) -> None:
        super().__init__()
        self.bot = bot

    def restart_at(self, state: pyspiel.State) -> None:
        pass

    def step(self, state: pyspiel.State) -> int:
        return int(self.bot.step(state))


def test_openspiel_evaluate_bots_plays_ismcts_against_random_bots() -> None:
    from open_spiel.python.algorithms import evaluate_bots
    from open_spiel.python.bots import uniform_random

    game = load("classic", {"skip_undoubled_negative": False}, episode="deal", contract="no-last-two")
    rs = np.random.RandomState(8)
    bots = [uniform_random.UniformRandomBot(p, rs) for p in range(4)]
    bots[1] = _Restartable(ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 6, random_state=rs))
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rs)
    assert len(returns) == 4 and sum(returns) == -30


@pytest.mark.parametrize("params", [*DEAL_GAMES, {"variant": "thirty-two"}], ids=_ids)
def test_a_resampled_world_is_the_state_its_history_replays_to(params: dict[str, str]) -> None:
    """The world is built without replaying (the table copied, the cards dealt again): it is the
    state OpenSpiel reaches by replaying its history, which is the seat's resampled history."""
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    rng = random.Random(len(json.dumps(params)))
    for steps in (0, 3, 9, 23, 40, 200):
        state = _advance(game.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        for player in range(n):
            seed = rng.random()
            world = state.resample_from_infostate(player, lambda seed=seed: seed)
            assert world.history() == state.resampled_history(player, random.Random(int(seed * 2**53)))
            for copied in (world.clone(), game.deserialize_state(world.serialize())):  # the world written at once
                assert copied.history() == world.history() and str(copied) == str(world)
            replayed = game.new_initial_state()
            for action in world.history():
                replayed.apply_action(action)
            for a, b in (
                (world, replayed),
                (_advance(world, random.Random(1), 30), _advance(replayed, random.Random(1), 30)),
            ):
                assert a.history() == b.history() and str(a) == str(b) and a.move_number() == b.move_number()
                assert [p.player for p in a.full_history()] == [p.player for p in b.full_history()]
                assert a.current_player() == b.current_player() and a.returns() == b.returns()
                assert a.rewards() == b.rewards()
                assert [a.information_state_string(p) for p in range(n)] == [
                    b.information_state_string(p) for p in range(n)
                ]
                assert [a.information_state_tensor(p) for p in range(n)] == [
                    b.information_state_tensor(p) for p in range(n)
                ]
                if not a.is_terminal() and not a.is_chance_node():
                    assert a.legal_actions() == b.legal_actions()


def _pyspiel_answers(state: BarbuState, n: int) -> list[object]:
    """What pyspiel's C++ methods say of ``state`` (reached past the Python-level ones)."""
    base = pyspiel.State
    out: list[object] = [base.is_chance_node(state), base.legal_actions(state)]
    out += [base.legal_actions(state, p) for p in range(n)]
    if state.is_chance_node():
        out.append(base.legal_actions(state, int(pyspiel.PlayerId.CHANCE)))
    out += [base.information_state_string(state, p) for p in range(n)]
    out += [base.observation_string(state, p) for p in range(n)]
    if state.current_player() >= 0:
        out += [base.information_state_string(state), base.observation_string(state)]
    return out


def _python_answers(state: BarbuState, n: int) -> list[object]:
    out: list[object] = [state.is_chance_node(), state.legal_actions()]
    out += [state.legal_actions(p) for p in range(n)]
    if state.is_chance_node():
        out.append(state.legal_actions(int(pyspiel.PlayerId.CHANCE)))
    out += [state.information_state_string(p) for p in range(n)]
    out += [state.observation_string(p) for p in range(n)]
    if state.current_player() >= 0:
        out += [state.information_state_string(), state.observation_string()]
    return out


@pytest.mark.parametrize("params", [*DEAL_GAMES, {"variant": "thirty-two"}], ids=_ids)
def test_the_python_level_methods_answer_as_pyspiels_own(params: dict[str, str]) -> None:
    """``legal_actions``, ``is_chance_node`` and the strings are answered in Python (no crossing
    into C++ and back): the same answers as pyspiel's C++ methods, on every state of random games."""
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    rng = random.Random(len(json.dumps(params)))
    for _ in range(2):
        state = game.new_initial_state()
        while True:
            assert _python_answers(state, n) == _pyspiel_answers(state, n)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert state.legal_actions() == [] and state.legal_actions(0) == []
    with pytest.raises(pyspiel.SpielError):
        state.information_state_string()  # no seat acts at the end: pyspiel's own error


@pytest.mark.parametrize("params", [*DEAL_GAMES, {"variant": "thirty-two"}], ids=_ids)
def test_remembered_texts_are_the_texts_of_the_views(params: dict[str, str]) -> None:
    """A game remembers observation texts by what the seat has seen (outside a trick deal's
    card play, whose texts are written from the trick play): in resampled worlds too, every
    text given is the text of the seat's view, worked out afresh."""
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    observations = game.static.observations
    rng = random.Random(len(json.dumps(params)) + 1)
    remembered = 0
    for steps in (0, 5, 17, 33):
        state = _advance(game.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        worlds = [state.resample_from_infostate(p, lambda: rng.random()) for p in range(n) for _ in range(2)]
        for s in [state, *worlds, *(_advance(w.clone(), random.Random(3), 4) for w in worlds)]:
            for p in range(n):
                remembered += not s.is_terminal() and s._play_text(p) is None
                assert s.observation_string(p) == observations.text(*s.view(p))
    assert bool(game.static.texts) == bool(remembered)


def _answers(state: BarbuState, n: int) -> list[object]:
    """Everything a caller may read of a state."""
    out: list[object] = [state.history(), state.move_number(), str(state), state.is_terminal(), state.returns()]
    out += [state.rewards(), state.current_player()]
    out += [state.information_state_string(p) for p in range(n)]
    out += [list(state.information_state_tensor(p)) for p in range(n)]
    out += [list(state.observation_tensor(p)) for p in range(n)]
    if not state.is_terminal():
        out.append(state.legal_actions())
    return out


@pytest.mark.parametrize("params", [*DEAL_GAMES, {"variant": "thirty-two"}], ids=_ids)
def test_clones_played_on_answer_as_the_states_their_histories_replay_to(params: dict[str, str]) -> None:
    """A clone shares its game with its original and plays a trick deal's cards on its own copy
    of the trick play: a state played on in clones (and clones of clones, in worlds too) answers
    everything as the state its history replays to without clones, and its originals keep theirs."""
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    rng = random.Random(len(json.dumps(params)) + 5)
    for walk in range(3):
        state = _advance(game.new_initial_state(), rng, 4 + 9 * walk)
        if walk == 2 and not state.is_terminal():
            state = state.resample_from_infostate(state.current_player(), lambda: rng.random())
        replayed = game.new_initial_state()  # never cloned: it plays every card on its game
        for action in state.history():
            replayed.apply_action(action)
        kept: list[tuple[BarbuState, list[object]]] = []
        for step in range(200):
            assert _answers(state, n) == _answers(replayed, n)
            if step % 10 == 0:
                assert _answers(game.deserialize_state(state.serialize()), n) == _answers(replayed, n)
            if state.is_terminal():
                break
            if rng.random() < 0.3:
                if len(kept) < 4:
                    kept.append((state, _answers(state, n)))
                state = state.clone()
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            replayed.apply_action(action)
        for original, answers in kept:
            assert _answers(original, n) == answers


def test_an_illegal_card_in_a_clone_is_refused_and_changes_nothing() -> None:
    """A clone playing its cards apart refuses an illegal card as the game does, unchanged."""
    game = pyspiel.load_game(GAME_NAME, {"variant": "classic", "episode": "deal", "contract": "no-hearts"})
    rng = random.Random(2)
    state = _advance(game.new_initial_state(), rng, 4)
    while state.is_terminal() or max(state.legal_actions()) >= 52:  # until the cards are played
        state = _advance(game.new_initial_state(), rng, 4)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone._t.play is not None  # the clone plays apart from the shared game
    before = _answers(clone, 4)
    illegal = next(c for c in range(52) if c not in clone.legal_actions())
    with pytest.raises(IllegalAction, match=r"deal 1, play .* \(seat \d\): "):
        clone.apply_action(illegal)
    assert _answers(clone, 4) == before


@needs_native
def test_resampled_worlds_are_dealt_identically_in_compiled_code_and_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the accelerator, a world's hands and dealing order are drawn in compiled code: the
    same histories as the pure Python code from the same seeds, for every seat."""
    from barbu import unseen
    from barbu.research import openspiel_game

    game = pyspiel.load_game(GAME_NAME, {"variant": "classic", "episode": "deal"})
    rng = random.Random(9)
    compared = 0
    for steps in (0, 2, 6, 11, 19, 30, 41):
        state = _advance(game.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        for player in range(4):
            compiled = state.resampled_history(player, random.Random(steps * 4 + player))
            with monkeypatch.context() as m:
                m.setattr(openspiel_game, "_DEAL_ORDER", None)
                m.setattr(unseen, "_SAMPLER", None)
                assert state.resampled_history(player, random.Random(steps * 4 + player)) == compiled
            compared += 1
    assert compared >= 20


@pytest.mark.parametrize("params", [*DEAL_GAMES, {"variant": "thirty-two"}, {"variant": "classic"}], ids=_ids)
def test_texts_written_from_the_trick_play_are_the_texts_of_the_views(params: dict[str, str]) -> None:
    """During a trick deal's card play a seat's text is written from the trick play, not from a
    view: for every seat of many seeded states of every phase, in clones played on apart from
    their game and in resampled worlds, it is the text of the view of the state its history
    replays to (and so is the information state, earlier deals included)."""
    game = pyspiel.load_game(GAME_NAME, params)
    n = game.num_players()
    observations = game.static.observations
    rng = random.Random(len(json.dumps(params)) + 7)
    written = compared = 0
    for steps in (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 70, 90, 120):
        state = _advance(game.new_initial_state(), rng, steps)
        if state.is_terminal():
            continue
        worlds = [state.resample_from_infostate(p, lambda: rng.random()) for p in range(n)]
        played = [_advance(s.clone(), random.Random(steps + k), 1 + k % 5) for k, s in enumerate([state, *worlds])]
        for s in [state, *worlds, *played]:
            if s.is_terminal():
                continue
            replayed = game.new_initial_state()
            for a in s.history():
                replayed.apply_action(a)
            for p in rng.sample(range(n), n):  # seats asked in any order
                written += s._play_text(p) is not None
                expected = observations.text(*replayed.view(p))
                assert s.observation_string(p) == expected
                earlier = replayed._t.records[p]
                assert s.information_state_string(p) == "\n".join([*earlier, expected])
                compared += 1
    assert compared >= 60
    assert written if params.get("contract") not in ("domino", "chinese-poker") else not written


@pytest.mark.parametrize("bad", [pyspiel.INVALID_ACTION, -5, 60, 2**70])
def test_an_action_refused_while_dealing_leaves_the_state_as_it_was(bad: int) -> None:
    """Chance deals a card of the deck: anything else is refused before it changes the state
    (its history, its texts, whose turn, the actions it offers), which then plays on as if
    nothing had been tried."""
    game = load("classic", episode="deal", contract="no-hearts")
    state, twin = game.new_initial_state(), game.new_initial_state()
    for action in (0, 5, 9):
        state.apply_action(action)
        twin.apply_action(action)
    with pytest.raises((ValueError, TypeError, pyspiel.SpielError)):
        state.apply_action(bad)
    assert state.history() == twin.history() == [0, 5, 9]
    assert str(state) == str(twin) and state.move_number() == twin.move_number() == 3
    assert state.current_player() == twin.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == twin.chance_outcomes()
    _advance(state, random.Random(4), 6)
    _advance(twin, random.Random(4), 6)
    assert state.history() == twin.history() and state.information_state_string(1) == twin.information_state_string(1)
    assert state.legal_actions() == twin.legal_actions()


def test_a_history_refused_on_its_way_to_openspiel_keeps_what_was_not_written() -> None:
    """Writing the actions that wait into OpenSpiel's history stops at one it refuses: those
    before it are written, it and those after it still wait, in order."""
    game = load("classic", episode="deal", contract="no-hearts")
    state = game.new_initial_state()
    for action in (0, 5, 9):
        state.apply_action(action)
    state._t.tail.insert(2, (pyspiel.PlayerId.CHANCE, pyspiel.INVALID_ACTION))  # as if one had slipped in
    with pytest.raises(pyspiel.SpielError):
        state.history()
    assert pyspiel.State.history(state) == [0, 5]
    assert state._t.tail == [(pyspiel.PlayerId.CHANCE, pyspiel.INVALID_ACTION), (pyspiel.PlayerId.CHANCE, 9)]
