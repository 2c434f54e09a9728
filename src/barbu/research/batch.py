"""A batch simulator: N single-deal games stepped together, NumPy arrays in and out.

For on-policy learning at scale (self-play: the caller chooses for the seat to act in every
game). It runs one trick contract (a deal task with a fixed contract, ``barbu-notricks-v0``
by default) through the core's fast door: the cards are played by the deal's
``TrickPlay`` (one compiled call per card with the accelerator, docs/native.md), calls
go through :meth:`barbu.game.Game.apply_unchecked` with the core's legal actions. A
finished game is dealt again at once (the next seed), so every step returns N decisions.

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
        self._last_masks = np.zeros((n, self.actions.size), bool)
        self._next_seed = seed

    def _new_game(self) -> Game:
        game = self.task.new_game(self._next_seed)
        self._next_seed += 1
        return game

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal ``n`` games (seeds ``seed``, ``seed + 1`` …); their observations and masks."""
        self._next_seed = self.seed
        self.episodes = 0
        self.games = [self._new_game() for _ in range(self.n)]
        for i in range(self.n):
            self._read(i)
        return self._observe()

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
        for i, action in enumerate(actions.tolist()):
            game = self.games[i]
            deal = game.deals[0]
            if deal.phase is Phase.PLAY:
                deal.play_unchecked(action)
            else:
                chosen = self.actions.action(action, int(self.to_act[i]))
                assert not isinstance(chosen, Place)  # trick contracts build no arrangement
                game.apply_unchecked(chosen)
            if deal.final is not None:
                rewards[i] = [self.sign * f / self.unit for f in deal.final]
                done[i] = True
                self.episodes += 1
                self.games[i] = self._new_game()
            self._read(i)
        observations, masks = self._observe()
        return observations, masks, rewards, done

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
        mask = np.zeros(self.actions.size, bool)
        mask[self.actions.indexes(game.legal_actions(), caller)] = True
        self._call_masks[i] = mask
        self._set_pairs(i, deal)

    def _set_pairs(self, i: int, deal: Deal) -> None:
        pairs = self._pairs[i]
        pairs.fill(0.0)
        for pair in deal.pairs():
            pairs[pair.doubler, pair.doubled] = pair.multiplier / 2

    def _masks(self) -> np.ndarray:
        masks = np.zeros((self.n, self.actions.size), bool)
        masks[:, :52] = _unpack(np.array(self._legal, np.uint64)) > 0
        for i, calling in enumerate(self._calling):
            if calling:
                masks[i] = self._call_masks[i]
        return masks

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        n, p = self.n, self.players
        seats = np.array(self._seat, np.int64)
        self.to_act[:] = seats
        rel = (np.arange(p)[None, :] + seats[:, None]) % p
        games = np.arange(n)[:, None, None]
        pairs = self._pairs[games, rel[:, :, None], rel[:, None, :]].reshape(n, p * p)
        calling = np.array(self._calling, np.float32)
        parts = [
            _unpack(np.array(self._hand, np.uint64)),
            _unpack(np.array(self._trick, np.uint64)).reshape(n, (p - 1) * 52),
            _unpack(np.array(self._played, np.uint64)),
            np.array(self._won, np.float32) / self.tricks_per_deal,
            pairs,
            np.stack([calling, 1.0 - calling], axis=1),
        ]
        self._last_masks = self._masks()
        return np.concatenate(parts, axis=1), self._last_masks


__all__ = ["BatchEnv"]
