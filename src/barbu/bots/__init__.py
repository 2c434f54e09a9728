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
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from barbu.actions import Action
from barbu.arrangement import Arrangements
from barbu.view import SeatView


class Bot(Protocol):
    """A player: given its seat's view (with ``view.legal_actions``), it chooses an action."""

    name: str

    def act(self, view: SeatView) -> Action:
        """The action to take; ``view.to_act == view.seat`` when called."""
        ...


@runtime_checkable
class LegalChooser(Protocol):
    """A bot that decides from its seat's legal actions alone (a part of its view).

    A runner may ask it with :meth:`choose` and ``game.legal_actions()`` instead of
    building the whole view: the bot then sees less than its view, never more, and
    decides exactly as :meth:`act` would.
    """

    def choose(self, actions: Sequence[Action]) -> Action:
        """One of ``actions``, the legal actions of the seat to act (``legal_choices`` of its view)."""
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
        return self.choose(legal_choices(view))

    def choose(self, actions: Sequence[Action]) -> Action:
        """A uniformly random one of ``actions`` (a :class:`LegalChooser`: no view needed).

        >>> from barbu import Game, seat_view
        >>> game = Game.new("classic", seed=5)
        >>> view = seat_view(game, game.to_act)
        >>> RandomBot(3).act(view) == RandomBot(3).choose(game.legal_actions())
        True
        """
        return actions[self.rng.randrange(len(actions))]


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
        raise ValueError(f"unknown bot level {level!r}; levels are: {', '.join(BOT_LEVELS)}")
    return BOT_LEVELS[level](seed=seed, **settings)
