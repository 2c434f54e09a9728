"""Bots: players that decide everything a seat decides, from that seat's view only.

A bot is any object with a ``name`` and an ``act(view) -> Action`` method (the
:class:`Bot` protocol). :func:`make_bot` builds the bundled levels by name.

>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=5)
>>> bot = make_bot("random", seed=1)
>>> while not game.is_over:
...     seat = game.to_act
...     game.apply(bot.act(seat_view(game, seat)), seat)
>>> sum(game.totals)
0
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from barbu.actions import Action
from barbu.arrangement import Arrangements
from barbu.bots.errors import BotError
from barbu.view import SeatView


class Bot(Protocol):
    """A player: given its seat's view (with ``view.legal_actions``), it chooses an action."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The action to take; ``view.to_act == view.seat`` when called."""
        ...


def legal_choices(view: SeatView) -> list[Action] | Arrangements:
    """The legal actions of a view, including the lazy arrangements of Chinese poker."""
    if view.phase == "arrange":
        from barbu.cards import mask_of

        return Arrangements(mask_of(view.hand))
    return view.legal_actions


class RandomBot:
    """Uniform over the legal actions, from a seeded generator."""

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        """A uniformly random legal action."""
        choices = legal_choices(view)
        return choices[self.rng.randrange(len(choices))]


def _heuristic(seed: int | None = 0, **settings: Any) -> Bot:
    from barbu.bots.heuristic import HeuristicBot

    return HeuristicBot(seed=seed, **settings)


def _search(seed: int | None = 0, **settings: Any) -> Bot:
    from barbu.bots.search import SearchBot

    return SearchBot(seed=seed, **settings)


BOT_LEVELS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "heuristic": _heuristic, "search": _search}
"""Bot factories by level name; each takes ``seed`` and level-specific keywords."""


def make_bot(level: str, seed: int | None = 0, **settings: Any) -> Bot:
    """A bot of the named level (``random``, …) with a seed and its settings."""
    if level not in BOT_LEVELS:
        raise BotError(f"unknown bot level {level!r}; levels are: {', '.join(BOT_LEVELS)}")
    return BOT_LEVELS[level](seed=seed, **settings)
