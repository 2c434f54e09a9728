"""A batch simulator: N single-deal games stepped together, NumPy arrays in and out.

For on-policy learning at scale (self-play: the caller chooses for the seat to act in every
game). It runs one trick contract (a deal task with a fixed contract, ``barbu-notricks-v0``
by default). Game ``k`` is the task's game for seed ``seed + k`` (:meth:`Task.new_game
<barbu.research.tasks.Task.new_game>`); a finished game is dealt again at once from the next
seed (games in index order), so every step returns N decisions.

With the accelerator (docs/native.md) the games live in compiled state from their deal to
their scores (``TrickBatch``): one call per step takes every game's call or card, writes its
observation row, legal mask and seat to act straight into the step's arrays, scores the games
that end and deals them again (the same Mersenne Twister draws as :class:`barbu.game.Dealer`).
The calls are a table of positions the core fills as games meet them (:meth:`BatchEnv._grow`:
the core's :class:`~barbu.deal.Deal` says who acts, what is legal, the business pairs, and how
the calls end), so no rule of the doubling is written twice. Without it each game is a
:class:`~barbu.game.Game` stepped through the core's fast door, the pure path the compiled one
is tested against (``tests/test_native_batch.py``: identical arrays and deals).

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
from barbu.actions import Action
from barbu.deal import Deal, Phase
from barbu.errors import OptionsError
from barbu.game import Game
from barbu.research.encoding import ActionEncoding, Place
from barbu.research.tasks import Task, task

_BITS = np.arange(52, dtype=np.uint64)
_SEEDS = 2**62
"""Seeds run from ``-_SEEDS`` to ``_SEEDS`` (what the compiled deal holds in a 64-bit integer)."""


def _unpack(masks: np.ndarray) -> np.ndarray:
    """52-bit card masks (any shape, uint64) as 0/1 float32 with a last axis of 52."""
    return ((masks[..., None] >> _BITS) & np.uint64(1)).astype(np.float32)


_GROWN: dict[int, tuple[Task, object]] = {}
"""The last compiled batch made for each task: a new one starts with the calls it has met."""


class BatchEnv:
    """``n`` games of a trick-contract deal task, stepped together (see the module docstring)."""

    def __init__(
        self, task_id: str | Task = "barbu-notricks-v0", n: int = 256, *, seed: int = 0, copy: bool = True
    ) -> None:
        t = task_id if isinstance(task_id, Task) else task(task_id)
        if t.episode != "deal" or t.contract is None:
            raise OptionsError(f"the batch simulator runs deal tasks with a fixed contract, not {t.id}")
        r = t.rules
        if r.contract(t.contract).play != "tricks":
            raise OptionsError(f"the batch simulator plays trick contracts, not {t.contract}")
        if n < 1:
            raise OptionsError(f"n must be at least 1, not {n}")
        if not -_SEEDS <= seed <= _SEEDS:
            raise OptionsError(f"seed must be an integer from {-_SEEDS} to {_SEEDS}, not {seed}")
        self.task = t
        self.n = n
        self.players = p = r.players
        self.actions = ActionEncoding(r)
        self.unit = t.reward_scale
        self.sign = r.sign
        self.tricks_per_deal = r.cards_each
        self.obs_size = 52 + (p - 1) * 52 + 52 + p + p * p + 2
        self.seed = seed
        self.copy = copy
        """False: :meth:`reset` and :meth:`step` return the same four arrays every time, overwritten
        by the next step (as Gymnasium's vector environments with ``copy=False``, or OpenSpiel's
        zero-copy observer); True: new arrays each time."""
        self._shared: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        self.episodes = 0
        """Games finished so far."""
        self.games: list[Game] = []
        """The games on the pure path (with the accelerator the games live in compiled state: see :meth:`dealt`)."""
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
        """The compiled games (None: the pure path)."""
        self._deals: dict[int, Deal] = {}
        """The core's deal at each node of the compiled calls met so far whose children are still to grow."""

    def _new_kernel(self) -> object | None:
        r = self.task.rules
        assert self.task.contract is not None
        kernel = accel.trick_batch(r, r.contract(self.task.contract), self.n, self.actions.size, self.unit)
        if kernel is not None:
            for first in range(self.players):
                deal = self._root(first)
                kernel.root(first, self._node(deal))  # type: ignore[attr-defined]
                self._deals[first] = deal
            known = _GROWN.get(id(self.task))
            if known is not None and known[0] is self.task:
                kernel.adopt(known[1])  # type: ignore[attr-defined]
            _GROWN[id(self.task)] = (self.task, kernel)
        return kernel

    def _root(self, first: int) -> Deal:
        """The core's first deal of a game whose first declarer is ``first``, its contract declared
        (its cards are the dealer's for seed 0: a node's facts do not depend on them)."""
        return self.task.new_game(0, first_declarer=first).deals[0]

    def _node(self, deal: Deal) -> tuple[object, ...]:
        """What the compiled calls read of ``deal`` (see ``TrickBatch`` in ``_native.c``): the kind
        (0 a seat to act before the cards, 1 the card play starts, 2 scored without play), the seat
        to act, the declarer, the action indexes of its legal actions, the business pairs, and the
        packed trick play's start or the final points."""
        pairs = tuple((p.doubler, p.doubled, p.multiplier) for p in deal.pairs())
        if deal.phase is Phase.PLAY:
            assert deal.tricks is not None
            return (1, deal.tricks.turn, deal.declarer, (), pairs, accel.pack(deal.tricks))
        if deal.final is not None:
            return (2, 0, deal.declarer, (), pairs, tuple(deal.final))
        seat = deal.to_act
        assert seat is not None
        return (0, seat, deal.declarer, tuple(self.actions.indexes(deal.legal_actions(), seat)), pairs, None)

    def _grow(self, node: int, action: int, child: int) -> tuple[object, ...]:
        """The compiled calls' child of ``node`` by ``action``, worked out by the core: the node's
        deal (kept, or replayed from its root) copied and the action applied through the fast door."""
        deal = self._deals.get(node)
        if deal is None:  # a copy or a pickle keeps the compiled nodes, not their deals
            kernel = self._kernel
            assert kernel is not None
            root, path = kernel.path(node)  # type: ignore[attr-defined]
            deal = self._root(root)
            for a in path:
                deal.apply_unchecked(self._action(a, deal))
            self._deals[node] = deal
        after = deal.copy()
        after.apply_unchecked(self._action(action, deal))
        if after.phase is not Phase.PLAY and after.final is None:
            self._deals[child] = after
        return self._node(after)

    def _action(self, index: int, deal: Deal) -> Action:
        seat = deal.to_act
        assert seat is not None
        chosen = self.actions.action(index, seat)
        assert not isinstance(chosen, Place)  # trick contracts build no arrangement
        return chosen

    def dealt(self, i: int) -> tuple[int, ...]:
        """Game ``i``'s hands as dealt (card masks by seat)."""
        if self._kernel is None:
            hands = self.games[i].deals[0].dealt
            assert hands is not None
            return hands
        return tuple(self._kernel.dealt(i))  # type: ignore[attr-defined]

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_deals"] = {}  # rebuilt from the compiled nodes when needed
        return state

    def _new_game(self) -> Game:
        game = self.task.new_game(self._next_seed)
        self._next_seed += 1
        return game

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        """Deal ``n`` games (seeds ``seed``, ``seed + 1`` …); their observations and masks."""
        self._next_seed = self.seed
        self.episodes = 0
        if self._kernel is None:
            self._kernel = self._new_kernel()
        kernel = self._kernel
        if kernel is None:
            self.games = [self._new_game() for _ in range(self.n)]
            for i in range(self.n):
                self._read(i)
            observations, masks = self._observe()
            if self.copy:
                return observations, masks
            shared = self._arrays()
            shared[0][...], shared[1][...] = observations, masks
            return shared[0], shared[1]
        observations, masks, _, _ = self._arrays()
        kernel.reset(self.seed, observations, masks, self.to_act)  # type: ignore[attr-defined]
        self._last_masks = masks
        return observations, masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action per game; returns observations, masks, rewards ``(n, players)`` and done ``(n,)``.

        An action outside a game's mask raises ``ValueError`` naming the game, before any game moves.
        """
        actions = np.ascontiguousarray(actions, np.int64)
        if actions.shape != (self.n,):
            raise ValueError(f"give one action per game: an array of shape ({self.n},), not {actions.shape}")
        kernel = self._kernel
        if kernel is not None:
            observations, masks, rewards, done = self._arrays()
            try:
                ended: int = kernel.step(actions, observations, masks, rewards, done, self.to_act, self._grow)  # type: ignore[attr-defined]
            except ValueError:
                self._refuse(actions)  # the message that names the allowed actions
                raise
            self.episodes += ended
            self._last_masks = masks
            return observations, masks, rewards, done
        self._refuse(actions)
        rewards = np.zeros((self.n, self.players), np.float32)
        done = np.zeros(self.n, bool)
        for i, action in enumerate(actions.tolist()):
            if self._apply(i, action, rewards, done):
                self.games[i] = self._new_game()
            self._read(i)
        observations, masks = self._observe()
        if self.copy:
            return observations, masks, rewards, done
        out = self._arrays()
        for buffer, values in zip(out, (observations, masks, rewards, done), strict=True):
            buffer[...] = values
        return out

    def _refuse(self, actions: np.ndarray) -> None:
        """Raise ``ValueError`` naming the first game whose action is outside its mask, if any."""
        masks = self._last_masks
        bad = np.flatnonzero(~masks[np.arange(self.n), np.clip(actions, 0, self.actions.size - 1)])
        bad = np.union1d(bad, np.flatnonzero((actions < 0) | (actions >= self.actions.size)))
        if len(bad):
            i = int(bad[0])
            raise ValueError(f"action {int(actions[i])} is not legal in game {i}: allowed {np.flatnonzero(masks[i])}")

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

    def _arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The arrays a step fills (observations, masks, rewards, done): new ones, or with ``copy=False``
        the same ones every time. The compiled games write every entry: they are not cleared."""
        if self._shared is not None:
            return self._shared
        out = (
            np.empty((self.n, self.obs_size), np.float32),
            np.empty((self.n, self.actions.size), bool),
            np.empty((self.n, self.players), np.float32),
            np.empty(self.n, bool),
        )
        if not self.copy:
            self._shared = out
        return out

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
