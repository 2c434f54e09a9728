"""A trained policy as a bot level, ``policy:PATH``, with NumPy-only inference.

A policy file is a NumPy ``.npz`` archive: the rule set it was trained on (``variant``,
``options`` as JSON text), whether its observations are normalised (``normalize``, the
task scaling of :mod:`barbu.research.tasks`), and a multilayer perceptron, ``w0, b0, w1,
b1, …``: ``tanh`` after every layer but the last, whose outputs are the logits of the rule
set's action space (:class:`~barbu.research.encoding.ActionEncoding`). At each decision
the seat's view is encoded (:class:`~barbu.research.encoding.ObservationEncoding`), the
illegal actions are masked out and the most likely legal action is played, so the bot is
deterministic (``seed`` is accepted and unused). Torch is needed to train one
(``examples/train_maskable_ppo.py``), never to play one: the arena, the server and the
terminal game load it with NumPy alone.

The level is registered for :func:`barbu.bots.make_bot` through the ``barbu.bot_levels``
entry point (pyproject.toml). ``PATH`` is a file, or the name of a policy shipped with
barbu (``policy:barbu-notricks-v0``, trained on that task by the command in docs/research.md).

>>> import tempfile, os
>>> from barbu import Game, seat_view
>>> from barbu.rulesets import rules
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.npz")
>>> save_policy(path, "classic", {}, [np.zeros((3642, 141), np.float32)], [np.zeros(141, np.float32)])
>>> bot = PolicyBot(path)
>>> game = Game.new("classic", seed=1)
>>> bot.act(seat_view(game, game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from barbu.actions import Action
from barbu.bots.errors import BotError
from barbu.research.encoding import ActionEncoding, ObservationEncoding, Place
from barbu.research.tasks import observation_scale
from barbu.rulesets import rules
from barbu.view import SeatView


def save_policy(
    path: str,
    variant: str,
    options: dict[str, Any],
    weights: Sequence[np.ndarray],
    biases: Sequence[np.ndarray],
    *,
    normalize: bool = True,
    **meta: str,
) -> None:
    """Write a policy file: the rule set, the scaling and the layers (``weights[i]``: inputs by outputs)."""
    arrays: dict[str, Any] = {
        "variant": np.array(variant),
        "options": np.array(json.dumps(options)),
        "normalize": np.array(normalize),
    }
    for key, value in meta.items():
        arrays[f"meta_{key}"] = np.array(value)
    for i, (w, b) in enumerate(zip(weights, biases, strict=True)):
        arrays[f"w{i}"] = np.asarray(w, np.float32)
        arrays[f"b{i}"] = np.asarray(b, np.float32)
    with open(path, "wb") as f:
        np.savez_compressed(f, **arrays)


POLICIES = os.path.join(os.path.dirname(__file__), "policies")
"""The policies shipped with barbu, one ``TASK.npz`` per canonical task trained on."""


def shipped_policy(name: str) -> str:
    """The path of a shipped policy (``barbu-notricks-v0``), or ``name`` itself when it is not one.

    >>> os.path.basename(shipped_policy("barbu-notricks-v0"))
    'barbu-notricks-v0.npz'
    """
    path = os.path.join(POLICIES, f"{name}.npz")
    return path if os.path.sep not in name and os.path.isfile(path) else name


class PolicyBot:
    """The bot level ``policy:PATH``: the greedy legal action of a policy file (see the module docstring)."""

    def __init__(self, path: str, seed: int | None = 0) -> None:
        path = shipped_policy(str(path))
        if not os.path.isfile(path):
            shipped = ", ".join(sorted(f[:-4] for f in os.listdir(POLICIES) if f.endswith(".npz")))
            raise BotError(f"policy file {path!r} not found: give the path of a .npz policy file or one of {shipped}")
        try:
            with np.load(path, allow_pickle=False) as data:
                self.variant = str(data["variant"])
                options = json.loads(str(data["options"]))
                normalize = bool(data["normalize"])
                count = sum(1 for k in data.files if k.startswith("w"))
                self.weights = [data[f"w{i}"] for i in range(count)]
                self.biases = [data[f"b{i}"] for i in range(count)]
                self.meta = {k[5:]: str(data[k]) for k in data.files if k.startswith("meta_")}
        except (OSError, ValueError, KeyError) as e:
            raise BotError(
                f"{path!r} is not a barbu policy file (.npz with variant, options and layers): {e}"
            ) from None
        self.name = f"policy:{os.path.basename(path)}"
        self.rules = rules(self.variant, options)
        self.actions = ActionEncoding(self.rules)
        self.observations = ObservationEncoding(self.rules)
        self.scale = observation_scale(self.observations) if normalize else np.ones(self.observations.size, np.float32)
        if not self.weights or self.weights[0].shape[0] != self.observations.size:
            raise BotError(f"{path!r} does not take {self.variant} observations of {self.observations.size} entries")
        if self.weights[-1].shape[1] != self.actions.size:
            raise BotError(f"{path!r} does not give {self.variant}'s {self.actions.size} actions")

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The network's outputs for an encoded (not yet scaled) observation."""
        x: np.ndarray = observation / self.scale
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x

    def act(self, view: SeatView) -> Action:
        """The legal action with the largest logit."""
        if view.seat is None:
            raise BotError("a policy plays a seat: a spectator's view has no actions")
        if view.variant != self.variant:
            raise BotError(f"this policy plays {self.variant}, not {view.variant}")
        mask = self.actions.mask(view)
        logits = np.where(mask > 0, self.logits(self.observations.encode(view)), -np.inf)
        chosen = self.actions.action(int(np.argmax(logits)), view.seat)
        if isinstance(chosen, Place):
            raise BotError("policies do not build Chinese-poker arrangements")
        return chosen


__all__ = ["POLICIES", "PolicyBot", "save_policy", "shipped_policy"]
