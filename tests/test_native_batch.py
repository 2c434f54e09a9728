"""The research layer's compiled code against its pure path, array by array: the batch simulator's
card play (``TrickBatch``), the observation writers of a trick deal's card play (``write_play``), of
a deal's start (``write_game``) and of its calls (``write_calls``), and the PettingZoo environment's
card and domino steps (``play_observed``, ``lay_observed``).

In the research layer: it needs numpy, which the core's fast lane does without.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

from barbu import Game, accel
from barbu.actions import Play
from barbu.cards import cards_of
from barbu.deal import Deal, Phase
from barbu.research.tasks import TASKS, Task
from test_native import _without_native, needs_native

CASES: list[tuple[str, dict[str, object], str, int]] = [
    ("classic", {}, "no-tricks", 0),
    ("classic", {"late_redouble": False, "negative_targets": "declarer_only", "compulsory_doubles": 7}, "no-queens", 3),
    ("classic", {"positive_targets": "any"}, "trumps", -17),
    ("five-player", {}, "no-hearts", 2**40 + 5),
    ("king", {}, "king-no-tricks", 9),
    ("thirty-two", {}, "no-king", 2**33),
    ("salad", {"compulsory_doubles": 0}, "salad", 4),
]
"""(rule set, options, contract, seed) the compiled batch is checked on: the calls' rules (late
redoubles or none, whom a seat may double, compulsory doubles, deals skipped when nobody
doubles, a trump named before the calls, no doubling), 4 and 5 seats, both directions, 52-, 50-
and 32-card decks, early ends, and seeds of one and two 32-bit words, negative ones too."""


def _task(variant: str, options: dict[str, object], contract: str) -> Task:
    return Task(f"test-{variant}-{contract}", variant, "deal", contract, "a test task", dict(options))


def _batch_run(
    native: bool, monkeypatch: pytest.MonkeyPatch, task: Task, n: int, steps: int, seed: int, shared: bool = False
) -> list[np.ndarray]:
    """Every array a seeded batch simulator gives over ``steps`` random steps, on one path, and
    the hands dealt to every game at every step (``shared``: the simulator gives the same arrays
    at every step, copied here)."""
    from barbu.research.batch import BatchEnv

    with monkeypatch.context() as m:
        if not native:
            _without_native(m)
        b = BatchEnv(task, n, seed=seed, copy=not shared)
        assert (b._new_kernel() is not None) == native
        observations, masks = b.reset()
        given = observations
        out = [observations.copy(), masks.copy(), b.to_act.copy()]
        rng = np.random.default_rng(seed % 2**32)
        for step in range(steps):
            if step == steps // 2:  # dealt again from the first seed, in the middle of the card play
                observations, masks = b.reset()
                out += [observations.copy(), masks.copy(), b.to_act.copy()]
            arrays = b.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
            assert (arrays[0] is given) == shared
            masks = arrays[1]
            out += [a.copy() for a in arrays]
            out += [b.to_act.copy(), np.array([b.dealt(i) for i in range(n)])]
        out.append(np.array(b.episodes))
    return out


@needs_native
@pytest.mark.parametrize("n, seed, shared", [(1, 0, False), (7, 5, True), (32, 11, False)])
def test_the_compiled_batch_simulator_gives_the_pure_arrays(
    n: int, seed: int, shared: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled batch simulator (``TrickBatch``: the seeded deal, the calls, the card play, the
    scores) against its pure path: the same observations, masks, rewards, done flags, seats to act
    and dealt hands at every step, over several deals per game; also when it gives the same
    arrays at every step (``copy=False``)."""
    task = TASKS["barbu-notricks-v0"]
    native = _batch_run(True, monkeypatch, task, n, 130, seed, shared)
    pure = _batch_run(False, monkeypatch, task, n, 130, seed, shared)
    assert int(native[-1]) >= n
    assert len(native) == len(pure)
    for a, b in zip(native, pure, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)


@needs_native
@pytest.mark.parametrize("variant, options, contract, seed", CASES)
def test_the_compiled_batch_simulator_gives_the_pure_arrays_under_every_rule(
    variant: str, options: dict[str, object], contract: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same under the calls' rules, seats, decks and directions of :data:`CASES`; the compiled
    deal is the game's own seeded deal (``Task.new_game``: the same hands and first declarer)."""
    task = _task(variant, options, contract)
    native = _batch_run(True, monkeypatch, task, 6, 150, seed)
    pure = _batch_run(False, monkeypatch, task, 6, 150, seed)
    assert int(native[-1]) >= 6
    for a, b in zip(native, pure, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)
    from barbu.research.batch import BatchEnv

    b = BatchEnv(task, 3, seed=seed)
    b.reset()
    for i in range(3):
        deal = task.new_game(seed + i).deals[0]
        assert b.dealt(i) == deal.dealt and b.to_act[i] == deal.to_act


@needs_native
def test_the_compiled_batch_refuses_bad_buffers_actions_and_nodes() -> None:
    from barbu.research.batch import BatchEnv

    b = BatchEnv(_task("classic", {}, "no-tricks"), 2, seed=0)  # a task of its own: no calls met yet
    _, masks = b.reset()
    kernel = b._kernel
    assert kernel is not None
    good = [np.zeros(2, np.int64), *b._arrays(), b.to_act, b._grow]
    with pytest.raises(ValueError, match="observations must be a writable C-contiguous array"):
        kernel.step(good[0], np.zeros((2, 3), np.float32), *good[2:])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="actions must be"):
        kernel.step(np.zeros(2, np.int32), *good[1:])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="out of range"):
        kernel.dealt(2)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="roots are added first"):
        kernel.root(0, b._node(b._root(0)))  # type: ignore[attr-defined]
    illegal = int(np.flatnonzero(~masks[0])[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal in game 0"):
        kernel.step(np.array([illegal, int(np.flatnonzero(masks[1])[0])], np.int64), *good[1:])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=rf"action {illegal} is not legal in game 0: allowed \["):
        b.step(np.array([illegal, int(np.flatnonzero(masks[1])[0])]))
    first = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    seats = b.to_act.copy()
    bad_nodes = [
        (0, 9, 0, (60,), (), None),
        (0, 1, 0, (), (), None),
        (1, 0, 0, (), (), (1, 2)),
        (2, 0, 0, (), (), (1,)),
    ]
    for node in bad_nodes:  # what the core could not describe is refused, and no game moves
        with pytest.raises(ValueError):
            kernel.step(first, *good[1:-1], lambda *_, node=node: node)  # type: ignore[attr-defined]
        assert np.array_equal(b.to_act, seats)
    while not kernel.active(0):  # type: ignore[attr-defined]
        _, masks, _, _ = b.step(np.array([int(np.flatnonzero(m)[-1]) for m in masks]))  # every seat doubles all
    card = int(np.flatnonzero(~masks[0, :52])[0])
    with pytest.raises(ValueError, match=f"action {card} is not legal in game 0"):
        b.step(np.array([card, int(np.flatnonzero(masks[1])[0])]))


@needs_native
def test_the_compiled_batch_simulator_copies_and_pickles_with_its_games() -> None:
    """A deep copy or a pickle of a batch simulator in the middle of its calls and card play steps
    as the original does (new calls included: the copy rebuilds the core's deals of its nodes); a
    new batch of the same task starts with the calls met; a pickled state the core could not make
    is refused."""
    from barbu.research.batch import BatchEnv

    task = _task("classic", {}, "no-tricks")
    b = BatchEnv(task, 8, seed=2)
    _, masks = b.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, masks, _, _ = b.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    copies = [copy.deepcopy(b), pickle.loads(pickle.dumps(b))]
    for _ in range(200):
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        out = b.step(actions)
        for c in copies:
            assert all(np.array_equal(x, y) for x, y in zip(out, c.step(actions), strict=True))
        masks = out[1]
    assert all(c.episodes == b.episodes and c._kernel.nodes == b._kernel.nodes for c in copies)  # type: ignore[union-attr]
    assert BatchEnv(task, 3)._new_kernel().nodes == b._kernel.nodes > 4 * b.players  # type: ignore[union-attr]
    kernel = b._kernel
    assert kernel is not None
    rebuild, args, state = kernel.__reduce__()  # type: ignore[attr-defined]
    game = next(i for i in range(8) if kernel.active(i))  # type: ignore[attr-defined]
    broken = bytearray(state[1])
    offset = game * accel._require().STATE_BYTES
    broken[offset : offset + 4] = (9).to_bytes(4, "little")  # the seats of that game's state
    with pytest.raises(ValueError, match=f"holds a game {game} the core could not make"):
        rebuild(*args).__setstate__((*state[:1], bytes(broken), *state[2:]))
    nodes = bytearray(state[7])
    nodes[0:4] = (7).to_bytes(4, "little")  # the kind of the first root
    with pytest.raises(ValueError, match="holds calls the core could not make"):
        rebuild(*args).__setstate__((*state[:7], bytes(nodes), *state[8:]))
    with pytest.raises(ValueError, match="does not fit"):
        rebuild(*args).__setstate__((*state[:2], state[2][:-1], *state[3:]))


def _at_card_play(variant: str, seed: int, rng: random.Random) -> tuple[Game, Deal]:
    """A new game of ``variant`` whose first trick deal is brought to its card play by random actions."""
    game = Game.new(variant, seed=seed)
    while game.phase != Phase.PLAY or game.current is None or game.current.tricks is None:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    deal = game.current
    assert deal is not None
    return game, deal


@needs_native
@pytest.mark.parametrize("variant", ["classic", "five-player", "thirty-two"])
def test_the_compiled_play_writer_writes_the_pure_writers_vectors(variant: str) -> None:
    """write_play (an observation brought up to date during a trick deal's card play) compiled
    and pure, from the same vectors and card plays: the same vectors and masks, for every seat."""
    from barbu.research.encoding import ObservationEncoding, write_play_pure

    native = accel.play_writer()
    assert native is not None
    rng = random.Random(8)
    for seed in range(6):
        game, deal = _at_card_play(variant, seed, rng)
        encoding = ObservationEncoding(game.rules)
        at = encoding._play_at
        n = game.rules.players
        vectors = [np.asarray(rng.choices((0.0, 1.0, 2.5), k=encoding.size), np.float32) for _ in range(n)]
        copies = [v.copy() for v in vectors]
        written = [0] * n
        while deal.phase is Phase.PLAY:
            t = deal.tricks
            assert t is not None
            for me in range(n):
                if rng.random() < 0.5:
                    continue
                legal = t.legal_mask() if t.turn == me else 0
                captured = list(t.captured) if rng.random() < 0.5 else None
                masks = [np.zeros(encoding.size, np.int8) for _ in range(2)]
                args = (
                    me,
                    t.turn,
                    list(t.hands),
                    captured,
                    list(deal.plays),
                    list(deal.play_seats),
                    written[me],
                    legal,
                )
                native(vectors[me], masks[0], at, *args)
                write_play_pure(copies[me], masks[1], at, *args)
                assert np.array_equal(vectors[me], copies[me]) and np.array_equal(masks[0], masks[1])
                written[me] = len(deal.plays)
            game.apply(Play(rng.choice(list(cards_of(t.legal_mask())))))
    with pytest.raises(ValueError, match="out of"):
        native(np.zeros(10, np.float32), np.zeros(60, np.int8), (0, 0, 0, 0, 0), 0, 0, [1, 1, 1, 1], None, [], [], 0, 0)
    with pytest.raises(TypeError, match="float32"):
        native(np.zeros(4000, np.float64), np.zeros(60, np.int8), at, 0, 0, [1, 1, 1, 1], None, [], [], 0, 0)


@needs_native
@pytest.mark.parametrize("variant", ["classic", "five-player", "thirty-two", "king"])
def test_the_compiled_card_step_plays_and_writes_as_the_pure_one(variant: str) -> None:
    """play_observed (a card played through the checked door and the next seat's observation
    written, the environment's one-call step) compiled and pure, from the same states, vectors and
    follow states: the same answers, plays, card plays, vectors, masks and follow states; an
    illegal card changes nothing in either."""
    from barbu.research.encoding import PLAY_ENDED, ObservationEncoding, play_observed_pure
    from barbu.tricks import PureTrickPlay

    native = accel.play_observer()
    assert native is not None
    rng = random.Random(11)
    answers: set[int] = set()
    for seed in range(5):
        game, deal = _at_card_play(variant, seed, rng)
        encoding = ObservationEncoding(game.rules)
        at = encoding._play_at
        n = game.rules.players
        compiled = deal.tricks
        pure = PureTrickPlay(list(compiled.hands), compiled.leader, compiled.rules)
        other = object()
        sides = []
        for play in (compiled, pure):
            vectors = [np.asarray(rng.choices((0.0, 1.0), k=encoding.size), np.float32) for _ in range(n)]
            sides.append(
                (
                    play,
                    [],
                    [],
                    [[deal, True, 0, 0] for _ in range(n)],
                    vectors,
                    [np.ones(141, np.int8) for _ in range(n)],
                )
            )
        sides[1][4][:] = [v.copy() for v in sides[0][4]]
        answer = 0
        while answer != PLAY_ENDED:
            for s in range(n):  # now and then a seat whose buffer does not follow this card play
                state = rng.choice(([deal, True], [deal, False], [other, True]))
                for side in sides:
                    side[3][s][:2] = state
            legal = list(cards_of(compiled.legal_mask()))
            card = rng.choice(legal) if rng.random() < 0.9 else rng.randrange(60)
            found = [
                f(play, plays, seats, deal, following, vectors, masks, at, card)
                for f, (play, plays, seats, following, vectors, masks) in zip(
                    (native, play_observed_pure), sides, strict=True
                )
            ]
            answer = found[0]
            assert found[0] == found[1], (seed, card)
            assert answer == -1 or card in legal
            answers.add(answer if answer < n else n)
            (a, *rest_a), (b, *rest_b) = sides
            fields = [f for f in PureTrickPlay.__slots__ if f != "_legal"]  # a cache, filled when asked
            assert [getattr(a, f) for f in fields] == [getattr(b, f) for f in fields]
            assert a.finished or a.legal_mask() == b.legal_mask()
            for x, y in zip(rest_a, rest_b, strict=True):
                if isinstance(x[0], np.ndarray):
                    assert all(np.array_equal(u, v) for u, v in zip(x, y, strict=True)), (seed, card)
                else:
                    assert x == y
    assert {-1, PLAY_ENDED, 0, 1, 2, 3} <= answers  # every kind of answer was met
    with pytest.raises(TypeError, match="compiled trick play"):
        native(pure, [], [], deal, [], [], [], at, 0)


def _at_domino_play(variant: str, options: dict[str, str] | None, seed: int, rng: random.Random) -> tuple[Game, Deal]:
    """A new game of ``variant`` whose first deal, a domino declared, is brought to its card play by random actions."""
    from barbu.actions import Declare

    game = Game.new(variant, options, seed=seed)
    game.apply(Declare("domino"))
    while game.phase != Phase.PLAY:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    deal = game.current
    assert deal is not None and deal.domino is not None
    return game, deal


@needs_native
@pytest.mark.parametrize(
    ("variant", "options"),
    [("classic", None), ("classic", {"domino_start": "first_card"}), ("five-player", None), ("thirty-two", None)],
)
def test_the_compiled_domino_step_lays_and_writes_as_the_pure_one(variant: str, options: dict[str, str] | None) -> None:
    """lay_observed (a domino lay or pass through the checked door and the next seat's observation
    written, the environment's one-call step) compiled and pure, from the same states, vectors and
    follow states: the same answers, plays, domino plays, vectors, masks and follow states; an
    illegal action changes nothing in either."""
    from barbu.domino import PureDominoPlay
    from barbu.research.encoding import LAY_PASS, PLAY_ENDED, ObservationEncoding, lay_observed_pure

    native = accel.lay_observer()
    assert native is not None
    rng = random.Random(12)
    answers: set[int] = set()
    passes = 0
    for seed in range(5):
        game, deal = _at_domino_play(variant, options, seed, rng)
        encoding = ObservationEncoding(game.rules)
        at = encoding._lay_at
        n = game.rules.players
        compiled = deal.domino
        assert compiled is not None
        pure = PureDominoPlay.__new__(PureDominoPlay)
        for name in PureDominoPlay.__slots__:
            setattr(pure, name, getattr(compiled, name))
        pure.hands, pure.order = list(compiled.hands), list(compiled.order)
        passes_at = encoding.sections["passes"]
        other = object()
        sides = []
        for play in (compiled, pure):
            vectors = [np.asarray(rng.choices((0.0, 1.0), k=encoding.size), np.float32) for _ in range(n)]
            for v in vectors:  # no pass written yet: a pass written twice is refused (tested by the env)
                v[passes_at.offset : passes_at.offset + passes_at.size] = 0.0
            sides.append(
                (
                    play,
                    [],
                    [],
                    [[deal, True, 0, 0] for _ in range(n)],
                    vectors,
                    [np.ones(141, np.int8) for _ in range(n)],
                )
            )
        sides[1][4][:] = [v.copy() for v in sides[0][4]]
        answer = 0
        while answer != PLAY_ENDED:
            for s in range(n):  # now and then a seat whose buffer does not follow this card play
                state = rng.choice(([deal, True], [deal, True], [deal, False], [other, True]))
                for side in sides:
                    side[3][s][:2] = state
            legal = list(cards_of(compiled.legal_mask())) or [LAY_PASS]
            action = rng.choice(legal) if rng.random() < 0.9 else rng.randrange(60)
            found = [
                f(play, plays, seats, deal, following, vectors, masks, at, action)
                for f, (play, plays, seats, following, vectors, masks) in zip(
                    (native, lay_observed_pure), sides, strict=True
                )
            ]
            answer = found[0]
            assert found[0] == found[1], (seed, action)
            assert answer == -1 or action in legal
            passes += answer != -1 and action == LAY_PASS
            answers.add(answer if answer < n else n)
            (a, *rest_a), (b, *rest_b) = sides
            assert [getattr(a, f) for f in PureDominoPlay.__slots__] == [
                getattr(b, f) for f in PureDominoPlay.__slots__
            ]
            assert a.finished or a.legal_mask() == b.legal_mask()
            for x, y in zip(rest_a, rest_b, strict=True):
                if x and isinstance(x[0], np.ndarray):
                    assert all(np.array_equal(u, v) for u, v in zip(x, y, strict=True)), (seed, action)
                else:
                    assert x == y
    assert {-1, PLAY_ENDED, 0, 1, 2} <= answers and n in answers and passes > 5  # every kind of answer was met
    with pytest.raises(TypeError, match="compiled domino play"):
        native(pure, [], [], deal, [], [], [], at, 0)


@needs_native
def test_the_compiled_domino_step_refuses_a_pass_the_encoding_cannot_say_as_the_pure_one() -> None:
    """A pass written where the next seat's vector already shows one between the same two lays
    (the encoding cannot say a seat passed twice) is refused by both domino steps with the same
    error, before the vector is written (the next seat's mask is cleared first by both)."""
    from barbu.domino import PureDominoPlay
    from barbu.research.encoding import LAY_PASS, ObservationEncoding, lay_observed_pure

    native = accel.lay_observer()
    assert native is not None
    rng = random.Random(3)
    for seed in range(20):
        game, deal = _at_domino_play("classic", None, seed, rng)
        compiled = deal.domino
        assert compiled is not None
        while not compiled.finished and compiled.legal_mask():  # play until a seat must pass
            compiled.play_logged(rng.choice(list(cards_of(compiled.legal_mask()))), None, deal.plays, deal.play_seats)
        if not compiled.finished:
            break
    else:
        pytest.fail("no seeded deal reached a pass")
    pure = PureDominoPlay.__new__(PureDominoPlay)
    for name in PureDominoPlay.__slots__:
        setattr(pure, name, getattr(compiled, name))
    pure.hands, pure.order = list(compiled.hands), list(compiled.order)
    encoding = ObservationEncoding(game.rules)
    passes = encoding.sections["passes"]
    n = game.rules.players
    for step, play in ((native, compiled), (lay_observed_pure, pure)):
        vectors = [np.zeros(encoding.size, np.float32) for _ in range(n)]
        for v in vectors:
            v[passes.offset : passes.offset + passes.size] = 1.0
        before = [v.copy() for v in vectors]
        following = [[deal, True, 0, 0] for _ in range(n)]
        masks = [np.ones(141, np.int8) for _ in range(n)]
        with pytest.raises(ValueError, match="passed twice between two lays"):
            step(
                play,
                list(deal.plays),
                list(deal.play_seats),
                deal,
                following,
                vectors,
                masks,
                encoding._lay_at,
                LAY_PASS,
            )
        assert all(np.array_equal(u, v) for u, v in zip(vectors, before, strict=True))
        assert [int(m.sum()) for m in masks].count(0) == 1  # the next seat's mask cleared, as both clear it first


@needs_native
@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", None),
        ("classic", {"late_redouble": False, "negative_targets": "declarer_only"}),
        ("five-player", None),
        ("thirty-two", None),
        ("french", None),
        ("king", None),
    ],
)
def test_the_compiled_deal_start_and_calls_writers_write_the_pure_writers_vectors(
    variant: str, options: dict[str, object] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """write_game (a seat's vector at a deal's start: hand, cards left, the game's facts) and
    write_calls (the public facts and the calls) compiled and pure: every call the environment
    makes over seeded whole games is made on both, the compiled one into the environment's vector
    and the pure one into a copy of it, and gives the same vector and answer; what does not fit
    the vector is refused before anything is written."""
    from barbu.research import encoding
    from barbu.research.env import BarbuEnv

    game_writer, calls_writer = accel.game_writer(), accel.calls_writer()
    assert game_writer is not None and calls_writer is not None
    assert encoding.write_game is game_writer and encoding.write_calls is calls_writer
    made = {"game": 0, "calls": 0, "late": 0}

    def both(name: str, native: Any, pure: Any) -> Any:
        def call(out: np.ndarray, *args: Any) -> Any:
            copy = out.copy()
            expected = pure(copy, *args)
            found = native(out, *args)
            assert found == expected and np.array_equal(out, copy), (name, args)
            made[name] += 1
            made["late"] += name == "calls" and args[10] is not None and args[11] > 0  # calls added to written ones
            return found

        return call

    monkeypatch.setattr(encoding, "write_game", both("game", game_writer, encoding.write_game_pure))
    monkeypatch.setattr(encoding, "write_calls", both("calls", calls_writer, encoding.write_calls_pure))
    e = BarbuEnv(variant, options)
    rng = np.random.default_rng(3)
    e.reset(seed=4)
    for _ in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        if rng.random() < 0.2:  # now and then every seat, so that some see the calls from their start
            for a in e.possible_agents:
                e.observe(a)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    deals = e.table_rules.deal_count
    assert made["game"] > deals and made["calls"] > deals and (made["late"] > deals) == e.table_rules.doubling
    encoded = e.observations
    out = np.zeros(encoded.size, np.float32)
    with pytest.raises(ValueError, match="out of the vector's range"):
        game_writer(out, encoded._game_at, 0, [1] * 4, ((0, 99, 1),), -1, -1, (), (0.0,) * 4, ())
    with pytest.raises(ValueError, match="out of the vector's range"):
        calls_writer(out[:10], encoded._calls_at, 0, 4, 0, 0, -1, 0, -1, -1, -1, None, -1, (), False)
    with pytest.raises(TypeError, match="float32"):
        game_writer(out.astype(np.float64), encoded._game_at, 0, [1] * 4, (), -1, -1, (), (0.0,) * 4, ())
    assert not out.any()  # nothing written by a refused call


_WRITERS_REFUSE = """
import json
import numpy as np
from barbu import _native as native
from barbu.research.encoding import ObservationEncoding
from barbu.rulesets import rules

encoding = ObservationEncoding(rules("classic"))
game_at, calls_at, size = encoding._game_at, encoding._calls_at, encoding.size
whole = np.zeros(size + 64, np.float32)
out = whole[32 : 32 + size]  # guarded on both sides: a write outside it shows
huge = 2**63 - 10


class Flip:  # an index that says `first` when checked and `then` (outside the vector) when read again
    def __init__(self, first, then):
        self.answers = [first, then]

    def __index__(self):
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


calls = []


class Clear:  # an index that empties the list holding it
    def __index__(self):
        calls.clear()
        return 0


declared = [(1, 0, 1)]


class Mutates:  # a float that replaces the row checked before it
    def __float__(self):
        declared[0] = "x"
        return 0.0


class Raises:
    def __index__(self):
        return 1

    def __float__(self):
        raise RuntimeError("no float")


def wrapped(k):  # huge + k as a signed 64-bit sum wraps
    return (huge + k + 2**63) % 2**64 - 2**63


rounds = (huge, wrapped(4 * 9), wrapped(4 * 9 + 4 * 5), wrapped(4 * 9 + 4 * 5 + 16))
cases = {
    "hand": (native.write_game, (out, (huge,) + game_at[1:], 0, [1] * 4, (), -1, -1, (), (0.0,) * 4, ())),
    "width": (
        native.write_game,
        (out, game_at[:3] + (2**62 - 1,) + game_at[4:], 0, [1] * 4, ((1, 0, 5),), -1, -1, (), (0.0,) * 4, ()),
    ),
    "below": (native.write_game, (out, (-(2**62),) + game_at[1:], 0, [1] * 4, (), -1, -1, (), (0.0,) * 4, ())),
    "round1": (native.write_calls, (out, calls_at[:9] + rounds, 0, 4, 0, 0, -1, 0, -1, -1, -1, [], -1, (), False)),
    "phase": (native.write_calls, (out, calls_at, 0, 4, huge, 0, -1, 0, -1, -1, -1, None, -1, (), False)),
    "declared index": (
        native.write_game,
        (out, game_at, 0, [1] * 4, [(0, Flip(1, 10**8), 1)], -1, -1, (), (0.0,) * 4, ()),
    ),
    "declared float": (
        native.write_game,
        (out, game_at, 0, [1] * 4, declared, -1, -1, (), (Mutates(), 0.0, 0.0, 0.0), ()),
    ),
    "count raises": (native.write_game, (out, game_at, 0, [1] * 4, [(0, 0, Raises())], -1, -1, (), (0.0,) * 4, ())),
    "call index": (
        native.write_calls,
        (out, calls_at, 0, 4, 0, 0, -1, 0, -1, -1, -1, [(Flip(0, 10**7), 1, None, (), ())], -1, (), False),
    ),
    "calls cleared": (native.write_calls, (out, calls_at, 0, 4, 0, 0, -1, 0, -1, -1, -1, calls, -1, (), False)),
    "pair index": (
        native.write_calls,
        (out, calls_at, 0, 4, 0, 0, -1, 0, -1, -1, -1, [], -1, [(0, 1, Flip(1, 10**9))], False),
    ),
}
calls += [(Clear(), 1, None, (), ())] + [(0, 1, None, (), ())] * 3
answers = {}
for name, (writer, args) in cases.items():
    try:
        writer(*args)
        refused = None
    except Exception as e:
        refused = type(e).__name__
    answers[name] = (refused, int(np.count_nonzero(whole)))
    whole[:] = 0.0
print(json.dumps(answers))
"""
"""Calls of the compiled write_game and write_calls that once wrote outside the vector or read a
freed object (sums of huge offsets that wrapped, items read again after Python code changed them),
run in a child process: a crash is a failed test, not a dead test run."""


@needs_native
def test_the_compiled_deal_start_and_calls_writers_refuse_huge_offsets_and_changing_items_writing_nothing() -> None:
    """write_game and write_calls refuse an offset or index whose sums would wrap, and an item of
    their tuples and lists that is not an int (or a float where a float is written) rather than
    run its ``__index__`` or ``__float__`` (which could change its answer or the list between the
    check and the writing): each with a ValueError or TypeError, nothing written in the vector or
    around it."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _WRITERS_REFUSE], capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    answers = json.loads(done.stdout)
    bounds = {"hand", "width", "below", "round1", "phase"}
    assert len(answers) == 11
    assert answers == {name: ["ValueError" if name in bounds else "TypeError", 0] for name in answers}


_PLAY_WRITERS_REFUSE = """
import json
import random
import numpy as np
from barbu import Game, _native as native
from barbu.actions import Declare
from barbu.cards import cards_of
from barbu.deal import Phase
from barbu.research.encoding import LAY_PASS, ObservationEncoding

encoding = ObservationEncoding(Game.new("classic").rules)
play_at, lay_at, size = encoding._play_at, encoding._lay_at, encoding.size
wholes = [np.zeros(size + 256, np.float32) for _ in range(4)]
vectors = [w[128 : 128 + size] for w in wholes]  # guarded on both sides: a write outside them shows
masks = [np.zeros(141, np.int8) for _ in range(4)]
huge = 2**63 - 10


class Flip:  # an index that says `first` when checked and `then` (outside the vector) when read again
    def __init__(self, first, then):
        self.answers = [first, then]

    def __index__(self):
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def at_play(domino):  # a classic game's first trick or domino deal at its card play, its first seat with a card
    for seed in range(50):
        game, rng = Game.new("classic", seed=seed), random.Random(seed)
        if domino:
            game.apply(Declare("domino"))
        while game.phase != Phase.PLAY or (not domino and game.current.tricks is None):
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        play = game.current.domino if domino else game.current.tricks
        if play.legal_mask():
            return game.current, play, min(cards_of(play.legal_mask()))
    raise AssertionError("no deal")


def step(observer, domino, at, plays, seats, start, written):
    deal, play, card = at_play(domino)
    following = [[deal, True, start, written] for _ in range(4)]
    return observer(play, plays, seats, deal, following, vectors, masks, at, card)


def laid(k):  # cards laid so far that put the next lay's row k entries before the vector: 56 * laid wraps
    x = lay_at[3] + k
    return (-(x // 8) * pow(7, -1, 2**61)) % 2**61 if x % 8 == 0 else None


lays = next(v for v in map(laid, range(100, 108)) if v is not None)
cases = {
    "rows": lambda: native.write_play(vectors[0], masks[0], play_at[:2] + (huge,) + play_at[3:], 0, 0, [0] * 4, None,
                                      [0], [0], 0, 0),
    "play card": lambda: native.write_play(vectors[0], masks[0], play_at, 0, 0, [0] * 4, None,
                                           [Flip(0, -play_at[2] - 100)], [0], 0, 0),
    "hand": lambda: step(native.play_observed, False, play_at[:1] + (huge,) + play_at[2:], [], [], 0, 0),
    "observed card": lambda: step(native.play_observed, False, play_at, [Flip(0, -play_at[2] - 100)], [0], 0, 0),
    "rank": lambda: step(native.lay_observed, True, lay_at[:1] + (huge,) + lay_at[2:], [], [], 0, 0),
    "lays": lambda: step(native.lay_observed, True, lay_at, [], [], 0, lays),
    "laid card": lambda: step(native.lay_observed, True, lay_at, [Flip(0, -lay_at[3] - 100)], [0], 0, 0),
}
answers = {}
for name, call in cases.items():
    try:
        call()
        refused = None
    except Exception as e:
        refused = type(e).__name__
    answers[name] = (refused, sum(int(np.count_nonzero(a)) for a in wholes + masks))
    for a in wholes + masks:
        a[:] = 0
print(json.dumps(answers))
"""
"""Calls of the compiled write_play, play_observed and lay_observed that once wrote outside the
vector (sums of huge offsets or cards laid that wrapped, a play read again after its ``__index__``
changed its answer), run in a child process: a crash is a failed test, not a dead test run."""


@needs_native
def test_the_compiled_card_play_writers_refuse_huge_offsets_and_changing_plays_writing_nothing() -> None:
    """write_play, play_observed and lay_observed refuse an offset or a count of cards laid whose
    sums would wrap, and a play or seat that is not an int rather than run its ``__index__``
    (which could change its answer between the check and the writing): each with a ValueError
    or TypeError, nothing written in the vector or around it, nor in the mask (the steps' card
    played, the next seat's mask cleared, as before any refusal of theirs)."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _PLAY_WRITERS_REFUSE], capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, done.stderr) == (0, "")
    answers = json.loads(done.stdout)
    bounds = {"rows", "hand", "rank", "lays"}
    assert len(answers) == 7
    assert answers == {name: ["ValueError" if name in bounds else "TypeError", 0] for name in answers}
