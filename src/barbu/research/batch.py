"""A batch simulator: N single-deal games stepped together, NumPy arrays in and out.

For on-policy learning at scale (self-play: the caller chooses for the seat to act in every
game). It runs one trick contract (a deal task with a fixed contract, ``barbu-notricks-v0``
by default): calls go through :meth:`barbu.game.Game.apply_unchecked` with the core's
legal actions; the cards are played, with the accelerator (docs/native.md), by one
compiled call per step for all the games in card play (``TrickBatch``: it plays each
game's card, writes its observation row and legal mask straight into the step's arrays,
and scores the games that end), and otherwise by each deal's ``TrickPlay`` through the
fast door, the pure path the compiled one is tested against (``tests/test_native.py``:
identical arrays). A finished game is dealt again at once (the next seed), so every step
returns N decisions.

**Actions** are indexes of the rule set's :class:`~barbu.research.encoding.ActionEncoding`
(cards 0–51, calls in the call section), one per game. **Observations** are a compact
float32 vector of the seat to act (``obs_size`` entries; 282 with four players), seats
counted from it (0 = itself, 1 = its left, …):

============== ============ ============================================================
section        shape        content
============== ============ ============================================================
hand           52           its cards
trick          (n-1) × 52   the cards of the current trick, by the seat that played them
played         52           the cards of earlier tricks
tricks         n            tricks won by each seat, divided by the tricks of the deal
pairs          n × n        business-pair multipliers (1 or 2) divided by 2
phase          2            calling, playing
============== ============ ============================================================

**Rewards** are ``(N, n)``: every seat's final score of the games that ended at this step,
in score units (the task's normalisation), zeros elsewhere.

>>> b = BatchEnv("barbu-notricks-v0", 8, seed=1)
>>> observations, masks = b.reset()
>>> observations.shape, masks.shape, bool(masks.any(axis=1).all())
((8, 282), (8, 141), True)
>>> rng = np.random.default_rng(0)
>>> total = np.zeros(4)
>>> for _ in range(200):
...     actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
...     observations, masks, rewards, done = b.step(actions)
...     total += rewards.sum(axis=0)
>>> int(b.episodes) > 8, round(float(total.sum()), 6) == round(-b.episodes * 26 / 65, 6)
(True, True)
"""

from __future__ import annotations

import numpy as np

from barbu import accel
from barbu.deal import Deal, Phase
from barbu.errors import OptionsError
from barbu.game import Game
from barbu.research.encoding import ActionEncoding, Place
from barbu.research.tasks import task

_BITS = np.arange(52, dtype=np.uint64)


def _unpack(masks: np.ndarray) -> np.ndarray:
    """52-bit card masks (any shape, uint64) as 0/1 float32 with a last axis of 52."""
    return ((masks[..., None] >> _BITS) & np.uint64(1)).astype(np.float32)


class BatchEnv:
    """``n`` games of a trick-contract deal task, stepped together (see the module docstring)."""

    def __init__(self, task_id: str = "barbu-notricks-v0", n: int = 256, *, seed: int = 0) -> None:
        t = task(task_id)
        if t.episode != "deal" or t.contract is None:
            raise OptionsError(f"the batch simulator runs deal tasks with a fixed contract, not {task_id}")
        r = t.rules
        if r.contract(t.contract).play != "tricks":
            raise OptionsError(f"the batch simulator plays trick contracts, not {t.contract}")
        if n < 1:
            raise OptionsError(f"n must be at least 1, not {n}")
        self.task = t
        self.n = n
        self.players = p = r.players
        self.actions = ActionEncoding(r)
        self.unit = t.reward_scale
        self.sign = r.sign
        self.tricks_per_deal = r.cards_each
        self.obs_size = 52 + (p - 1) * 52 + 52 + p + p * p + 2
        self.seed = seed
        self.episodes = 0
        """Games finished so far."""
        self.games: list[Game] = []
        """The games as dealt and called (with the accelerator their card play runs in compiled state)."""
        self.to_act = np.zeros(n, np.int64)
        """The seat to act in each game."""
        # Per game, plain Python values (cheap to write), turned into arrays once per step.
        self._seat = [0] * n
        self._hand = [0] * n
        self._trick = [[0] * (p - 1) for _ in range(n)]
        self._played = [0] * n
        self._legal = [0] * n
        self._won = [[0.0] * p for _ in range(n)]
        self._calling = [False] * n
        self._pairs = np.zeros((n, p, p), np.float32)
        """Business-pair multipliers / 2 by absolute seats (doubler, doubled); rotated when observed."""
        self._call_masks: dict[int, np.ndarray] = {}
        self._masks_of: dict[tuple[object, ...], np.ndarray] = {}
        """The action mask of each (caller, legal calls) met so far (read only)."""
        self._last_masks = np.zeros((n, self.actions.size), bool)
        self._next_seed = seed
        self._kernel: object | None = None
        """The compiled card play of the games in trick play (None: the pure path)."""

    def _new_kernel(self) -> object | None:
        r = self.task.rules
        assert self.task.contract is not None
        return accel.trick_batch(r, r.contract(self.task.contract), self.n, self.actions.size, self.unit)

    def _new_game(self) -> Game:
        game = self.task.new_game(self._next_seed)
        self._next_seed += 1
        return game

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal ``n`` games (seeds ``seed``, ``seed + 1`` …); their observations and masks."""
        self._next_seed = self.seed
        self.episodes = 0
        self.games = [self._new_game() for _ in range(self.n)]
        self._kernel = self._new_kernel()
        if self._kernel is None:
            for i in range(self.n):
                self._read(i)
            return self._observe()
        observations, masks = self._arrays()
        self._enter(range(self.n), observations, masks)
        self._last_masks = masks
        return observations, masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per game; returns observations, masks, rewards ``(n, players)`` and done ``(n,)``.

        An action outside a game's mask raises ``ValueError`` naming the game, before any game moves.
        """
        actions = np.asarray(actions, np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"give one action per game: an array of shape ({self.n},), not {actions.shape}")
        masks = self._last_masks
        bad = np.flatnonzero(~masks[np.arange(self.n), np.clip(actions, 0, self.actions.size - 1)])
        bad = np.union1d(bad, np.flatnonzero((actions < 0) | (actions >= self.actions.size)))
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"action {int(actions[i])} is not legal in game {i}: allowed {np.flatnonzero(masks[i])}")
        rewards = np.zeros((self.n, self.players), np.float32)
        done = np.zeros(self.n, bool)
        kernel = self._kernel
        if kernel is None:
            for i, action in enumerate(actions.tolist()):
                if self._apply(i, action, rewards, done):
                    self.games[i] = self._new_game()
                self._read(i)
            observations, masks = self._observe()
            return observations, masks, rewards, done
        observations, masks = self._arrays()
        actions = np.ascontiguousarray(actions)
        finished: list[int] = kernel.step(actions, observations, masks, rewards, done, self.to_act)  # type: ignore[attr-defined]
        self.episodes += len(finished)
        moved = []
        for i in np.flatnonzero(self._calling).tolist():  # the games still calling: the pure path
            if self._apply(i, int(actions[i]), rewards, done):
                finished.append(i)
            else:
                moved.append(i)
        for i in sorted(finished):  # the next seeds in game order, as the pure path deals them
            self.games[i] = self._new_game()
        self._enter(sorted(moved + finished), observations, masks)
        self._last_masks = masks
        return observations, masks, rewards, done

    def _apply(self, i: int, action: int, rewards: np.ndarray, done: np.ndarray) -> bool:
        """Apply ``action`` to game ``i`` through the core; whether the deal ended (its rewards written)."""
        game = self.games[i]
        deal = game.deals[0]
        if deal.phase is Phase.PLAY:
            deal.play_unchecked(action)
        else:
            chosen = self.actions.action(action, int(self.to_act[i]))
            assert not isinstance(chosen, Place)  # trick contracts build no arrangement
            game.apply_unchecked(chosen)
        if deal.final is None:
            return False
        rewards[i] = [self.sign * f / self.unit for f in deal.final]
        done[i] = True
        self.episodes += 1
        return True

    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((self.n, self.obs_size), np.float32), np.zeros((self.n, self.actions.size), bool)

    def _enter(self, games: list[int] | range, observations: np.ndarray, masks: np.ndarray) -> None:
        """With the compiled card play: games that reached the cards go to it (their rows written
        by it), the others are read and observed here."""
        kernel = self._kernel
        assert kernel is not None
        read = []
        for i in games:
            deal = self.games[i].deals[0]
            if deal.phase is Phase.PLAY:
                assert deal.tricks is not None
                pairs = tuple((p.doubler, p.doubled, p.multiplier) for p in deal.pairs())
                kernel.load(i, accel.pack(deal.tricks), pairs)  # type: ignore[attr-defined]
                kernel.observe(i, observations, masks, self.to_act)  # type: ignore[attr-defined]
                self._calling[i] = False
            else:
                self._read(i)
                read.append(i)
        if read:
            observations[read], masks[read] = self._observe(read)

    def _read(self, i: int) -> None:
        """Copy what game ``i``'s seat to act sees into the per-game values."""
        game = self.games[i]
        deal: Deal = game.deals[0]
        p = self.players
        if deal.phase is Phase.PLAY:
            t = deal.tricks
            assert t is not None
            seat = t.turn
            self._seat[i] = seat
            self._hand[i] = t.hands[seat]
            trick = t.trick
            row = [0] * (p - 1)
            in_trick = 0
            if trick:
                leader = seat - len(trick)
                for k, card in enumerate(trick):
                    row[(leader + k - seat) % p - 1] = 1 << card
                    in_trick |= 1 << card
            self._trick[i] = row
            self._played[i] = t.played & ~in_trick
            self._legal[i] = t.legal_mask()
            won = [0.0] * p
            for w in t.winners:
                won[(w - seat) % p] += 1.0
            self._won[i] = won
            if self._calling[i]:  # the calls are over: the pairs are known for the whole play
                self._calling[i] = False
                self._set_pairs(i, deal)
            return
        caller = game.to_act
        assert caller is not None and deal.dealt is not None
        self._seat[i] = caller
        self._hand[i] = deal.dealt[caller]
        self._trick[i] = [0] * (p - 1)
        self._played[i] = 0
        self._legal[i] = 0
        self._won[i] = [0.0] * p
        self._calling[i] = True
        legal = game.legal_actions()
        key = (caller, *legal)
        mask = self._masks_of.get(key)
        if mask is None:  # the same calls come back in every deal: each mask is built once
            mask = self._masks_of[key] = np.zeros(self.actions.size, bool)
            mask[self.actions.indexes(legal, caller)] = True
        self._call_masks[i] = mask
        self._set_pairs(i, deal)

    def _set_pairs(self, i: int, deal: Deal) -> None:
        pairs = self._pairs[i]
        pairs.fill(0.0)
        for pair in deal.pairs():
            pairs[pair.doubler, pair.doubled] = pair.multiplier / 2

    def _observe(self, games: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The observation rows and masks of ``games`` (all by default) from the per-game values."""
        idx = list(range(self.n)) if games is None else games
        m, p = len(idx), self.players
        seats = np.array([self._seat[i] for i in idx], np.int64)
        self.to_act[idx] = seats
        rel = (np.arange(p)[None, :] + seats[:, None]) % p
        pairs = self._pairs[np.array(idx)[:, None, None], rel[:, :, None], rel[:, None, :]].reshape(m, p * p)
        calling = np.array([self._calling[i] for i in idx], np.float32)
        parts = [
            _unpack(np.array([self._hand[i] for i in idx], np.uint64)),
            _unpack(np.array([self._trick[i] for i in idx], np.uint64)).reshape(m, (p - 1) * 52),
            _unpack(np.array([self._played[i] for i in idx], np.uint64)),
            np.array([self._won[i] for i in idx], np.float32) / self.tricks_per_deal,
            pairs,
            np.stack([calling, 1.0 - calling], axis=1),
        ]
        masks = np.zeros((m, self.actions.size), bool)
        masks[:, :52] = _unpack(np.array([self._legal[i] for i in idx], np.uint64)) > 0
        for k, i in enumerate(idx):
            if self._calling[i]:
                masks[k] = self._call_masks[i]
        if games is None:
            self._last_masks = masks
        return np.concatenate(parts, axis=1), masks


__all__ = ["BatchEnv"]
