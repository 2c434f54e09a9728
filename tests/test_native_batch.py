"""The batch simulator's compiled card play (``TrickBatch``) against its pure path, array by array.

In the research layer: it needs numpy, which the core's fast lane does without.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from barbu import accel
from barbu.cards import cards_of
from barbu.deal import Phase
from test_native import _without_native, needs_native


def _batch_run(native: bool, monkeypatch: pytest.MonkeyPatch, n: int, steps: int, seed: int) -> list[np.ndarray]:
    """Every array a seeded batch simulator gives over ``steps`` random steps, on one path."""
    from barbu.research.batch import BatchEnv

    with monkeypatch.context() as m:
        if not native:
            _without_native(m)
        b = BatchEnv("barbu-notricks-v0", n, seed=seed)
        assert (b._new_kernel() is not None) == native
        observations, masks = b.reset()
        out = [observations, masks, b.to_act.copy()]
        rng = np.random.default_rng(seed)
        for step in range(steps):
            if step == steps // 2:  # dealt again from the first seed, in the middle of the card play
                observations, masks = b.reset()
                out += [observations, masks, b.to_act.copy()]
            observations, masks, rewards, done = b.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
            out += [observations, masks, rewards, done, b.to_act.copy()]
        out.append(np.array(b.episodes))
    return out


@needs_native
@pytest.mark.parametrize("n, seed", [(1, 0), (7, 5), (32, 11)])
def test_the_compiled_batch_simulator_gives_the_pure_arrays(n: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled card play of the batch simulator (``TrickBatch``) against its pure path:
    the same observations, masks, rewards, done flags and seats to act at every step, over
    several deals per game (the calls, the card play, the scores, the next deals)."""
    native = _batch_run(True, monkeypatch, n, 130, seed)
    pure = _batch_run(False, monkeypatch, n, 130, seed)
    assert int(native[-1]) >= n
    assert len(native) == len(pure)
    for a, b in zip(native, pure, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b)


@needs_native
def test_the_compiled_batch_refuses_bad_buffers_and_cards() -> None:
    from barbu.research.batch import BatchEnv

    b = BatchEnv("barbu-notricks-v0", 2, seed=0)
    b.reset()
    kernel = b._kernel
    assert kernel is not None
    good = [np.zeros(2, np.int64), *b._arrays(), np.zeros((2, 4), np.float32), np.zeros(2, bool), b.to_act]
    with pytest.raises(ValueError, match="observations must be a writable C-contiguous array"):
        kernel.step(good[0], np.zeros((2, 3), np.float32), *good[2:])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="actions must be"):
        kernel.step(np.zeros(2, np.int32), *good[1:])  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="out of range"):
        kernel.load(2, (), ())  # type: ignore[attr-defined]
    game = b.games[0]
    while game.deals[0].phase is not Phase.PLAY:
        game.apply_unchecked(game.legal_actions()[-1])  # doubling: the deal is played out
    deal = game.deals[0]
    assert deal.tricks is not None
    kernel.load(0, accel.pack(deal.tricks), ())  # type: ignore[attr-defined]
    illegal = cards_of(~deal.tricks.legal_mask() & ((1 << 52) - 1))[0]
    with pytest.raises(ValueError, match=f"action {illegal} is not a legal card in game 0"):
        kernel.step(np.array([illegal, 0], np.int64), *good[1:])  # type: ignore[attr-defined]


@needs_native
def test_the_compiled_batch_simulator_copies_and_pickles_with_its_games() -> None:
    """A deep copy or a pickle of a batch simulator in the middle of its card play steps as
    the original does; a pickled state the core could not make is refused."""
    from barbu.research.batch import BatchEnv

    b = BatchEnv("barbu-notricks-v0", 8, seed=2)
    _, masks = b.reset()
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, masks, _, _ = b.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    copies = [copy.deepcopy(b), pickle.loads(pickle.dumps(b))]
    for _ in range(80):
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        out = b.step(actions)
        for c in copies:
            assert all(np.array_equal(x, y) for x, y in zip(out, c.step(actions), strict=True))
        masks = out[1]
    kernel = b._kernel
    assert kernel is not None
    rebuild, args, state = kernel.__reduce__()  # type: ignore[attr-defined]
    game = next(i for i in range(8) if kernel.active(i))  # type: ignore[attr-defined]
    broken = bytearray(state)
    offset = game * accel._require().STATE_BYTES
    broken[offset : offset + 4] = (9).to_bytes(4, "little")  # the seats of that game's state
    with pytest.raises(ValueError, match=f"holds a game {game} the core could not make"):
        rebuild(*args).__setstate__(bytes(broken))
