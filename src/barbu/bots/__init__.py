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

import functools
import inspect
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from barbu import errors as core
from barbu.actions import Action, random_pick
from barbu.arrangement import Arrangements
from barbu.bots.errors import BotError
from barbu.language import N_

if TYPE_CHECKING:
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
        return random_pick(actions, self.rng)


def _heuristic() -> Callable[..., Bot]:
    from barbu.bots.heuristic import HeuristicBot

    return HeuristicBot


def _search() -> Callable[..., Bot]:
    from barbu.bots.search import SearchBot

    return SearchBot


def _expert() -> Callable[..., Bot]:
    from barbu.bots.expert import ExpertBot

    return ExpertBot


@dataclass(frozen=True)
class BotLevel:
    """A bot level: how to load its class, and its words for people if it is offered to them.

    ``load()`` imports the class when first asked for (it takes ``seed`` and the level's
    settings, :func:`bot_settings`, as keywords). ``words`` (English, translated where
    shown) describe the level; the lobby and the terminal setup offer exactly the levels
    that have words (:func:`offered_levels`). A level without words (``policy:PATH``, added
    by another package) is for programs: the arena, ``barbu simulate``, the research tools.
    """

    load: Callable[[], Callable[..., Bot]]
    words: str | None = None
    budget: tuple[str, ...] = ()
    """The settings that bound how long the level thinks (its thinking budget), which a server
    may set for every bot of the level (:func:`parse_budget`); none for a level that does not search."""

    @property
    def offered(self) -> bool:
        """Whether people are offered this level (it has words)."""
        return self.words is not None


_BUNDLED: dict[str, BotLevel] = {
    "random": BotLevel(lambda: RandomBot, N_("Random: plays any legal card or call. Good to learn the rules against.")),
    "heuristic": BotLevel(
        _heuristic, N_("Heuristic: follows the rules of thumb of a club player; quick, and a fair opponent.")
    ),
    "search": BotLevel(
        _search,
        N_("Search: imagines the hidden hands and plays each deal out many times; strong, and slower."),
        budget=("iterations", "seconds"),
    ),
    "expert": BotLevel(
        _expert,
        N_(
            "Expert: searches like Search, as many times, within one and a half seconds a move, works out "
            "the last four tricks exactly and reads what each card played tells about the hidden hands; "
            "the strongest, and the slowest."
        ),
        budget=("ms", "worlds"),
    ),
}
"""The levels barbu bundles, in the order they are offered."""


@functools.cache
def _declared_levels() -> dict[str, BotLevel]:
    """The levels other packages declare in the ``barbu.bot_levels`` entry-point group
    (``policy``, a trained policy file, from :mod:`barbu.research.policy`), read once.

    Reading the installed packages' metadata costs about 30 ms, a large part of a short
    command's start-up: it is read only when a level that is not bundled is named or the
    levels are listed. A declared level never replaces a bundled one.
    """
    from importlib.metadata import entry_points

    points = entry_points(group="barbu.bot_levels")
    return {point.name: BotLevel(point.load) for point in points if point.name not in _BUNDLED}


def bot_level(name: str) -> BotLevel | None:
    """The level called ``name``, or None if there is none.

    A bundled level is found without reading the installed packages' metadata.

    >>> bot_level("search").budget
    ('iterations', 'seconds')
    >>> bot_level("policy").offered, bot_level("genius")
    (False, None)
    """
    return _BUNDLED.get(name) or _declared_levels().get(name)


def bot_levels() -> dict[str, BotLevel]:
    """Every bot level by name, the one table of levels: the bundled ones, then those other
    packages declare. Programs accept all of them; people are offered those with words.

    >>> list(bot_levels())
    ['random', 'heuristic', 'search', 'expert', 'policy']
    """
    return _BUNDLED | _declared_levels()


def offered_levels() -> dict[str, str]:
    """The levels offered to people, in order, with their words (English sources).

    >>> list(offered_levels())
    ['random', 'heuristic', 'search', 'expert']
    >>> offered_levels()["random"].startswith("Random:")
    True
    """
    return {name: level.words for name, level in bot_levels().items() if level.words is not None}


def _known_level(name: str) -> BotLevel:
    """The level called ``name``; a :class:`~barbu.bots.errors.BotError` listing the levels if none."""
    found = bot_level(name)
    if found is None:
        raise BotError(
            core.N_("unknown bot level {level}; levels are: {levels}", level=repr(name), levels=", ".join(bot_levels()))
        )
    return found


def bot_settings(level: str) -> dict[str, Any]:
    """The settings of a level, with their defaults (``seed`` is not a setting).

    >>> bot_settings("random")
    {}
    >>> sorted(bot_settings("search"))
    ['endgame', 'iterations', 'rollout', 'seconds']
    """
    make = _known_level(level).load()
    found = _SETTINGS.get(make)
    if found is None:  # reading a signature costs more than making a bot: once per bot class
        parameters = inspect.signature(make).parameters
        found = _SETTINGS[make] = {name: p.default for name, p in parameters.items() if name != "seed"}
    return dict(found)


_SETTINGS: dict[Callable[..., Bot], dict[str, Any]] = {}
"""The settings of each bot class, read from its signature once (:func:`bot_settings`)."""


def parse_bot(text: str) -> tuple[str, dict[str, Any]]:
    """A bot as written on a command line: ``level`` or ``level:key=value,…``.

    Values are JSON (``0.2``, ``true``, ``null``) or bare words; the level and the
    setting names are checked, the values when the bot is made (:func:`make_bot`).

    >>> parse_bot("search:iterations=20,seconds=null")
    ('search', {'iterations': 20, 'seconds': None})
    >>> parse_bot("search:depth=3")
    Traceback (most recent call last):
    ...
    barbu.bots.errors.BotError: search has no setting 'depth'; its settings are: iterations, seconds, endgame, rollout
    """
    level, colon, rest = text.strip().partition(":")
    level = level.strip()
    allowed = bot_settings(level)
    if "path" in allowed and colon and "=" not in rest:
        return level, {"path": rest.strip()}  # policy:PATH
    return level, _read_settings(level, rest if colon else "", list(allowed))


def _read_settings(level: str, text: str, allowed: Sequence[str]) -> dict[str, Any]:
    """The settings written ``key=value,…`` in ``text``, each key one of ``allowed``."""
    settings: dict[str, Any] = {}
    for pair in text.split(",") if text.strip() else []:
        key, equals, value = pair.partition("=")
        if not equals or not key.strip():
            raise BotError(
                core.N_("bot settings are written key=value, e.g. search:seconds=0.2, not {pair}", pair=repr(pair))
            )
        key = key.strip()
        if key not in allowed:
            raise BotError(_no_such_setting(level, key, allowed))
        try:
            settings[key] = json.loads(value)
        except json.JSONDecodeError:
            settings[key] = value.strip()
    return settings


def _no_such_setting(level: str, key: str, allowed: Sequence[str]) -> core.Text:
    if not allowed:
        return core.N_("{level} has no setting {key}; {level} takes no settings", level=level, key=repr(key))
    return core.N_(
        "{level} has no setting {key}; its settings are: {settings}",
        level=level,
        key=repr(key),
        settings=", ".join(allowed),
    )


def budget_levels() -> dict[str, tuple[str, ...]]:
    """The levels that have a thinking budget, with its settings.

    >>> budget_levels()
    {'search': ('iterations', 'seconds'), 'expert': ('ms', 'worlds')}
    """
    return {name: level.budget for name, level in bot_levels().items() if level.budget}


def parse_budget(text: str) -> tuple[str, dict[str, Any]]:
    """A level's thinking budget as written on a command line: ``level:key=value,…``.

    Only the level's budget settings (:attr:`BotLevel.budget`) may be given, values as in
    :func:`parse_bot`; those not given keep their defaults. The values are checked by making
    the bot once. Refusals are :class:`~barbu.bots.errors.BotError` whose ``text`` says what
    is allowed, for the outer layers to translate.

    >>> parse_budget("search:iterations=16,seconds=null")
    ('search', {'iterations': 16, 'seconds': None})
    >>> parse_budget("heuristic:iterations=16")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.bots.errors.BotError: heuristic has no thinking budget; levels with one: search (iterations, seconds), ...
    >>> parse_budget("search:rollout=random")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.bots.errors.BotError: rollout is not part of the thinking budget of search; its budget settings are: ...
    >>> parse_budget("expert:worlds=0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu.bots.errors.BotError: worlds must be a whole number of worlds, 1 or more, or None (null on a ...), not 0
    """
    level, colon, rest = text.strip().partition(":")
    level = level.strip()
    with_budget = budget_levels()
    if level not in with_budget:
        which = ", ".join(f"{name} ({', '.join(keys)})" for name, keys in with_budget.items())
        if bot_level(level) is None:
            raise BotError(
                core.N_(
                    "unknown bot level {level}; levels with a thinking budget: {levels}",
                    level=repr(level),
                    levels=which,
                )
            )
        raise BotError(core.N_("{level} has no thinking budget; levels with one: {levels}", level=level, levels=which))
    keys = with_budget[level]
    if not colon or not rest.strip():
        example = f"{level}:{keys[0]}=16"
        raise BotError(
            core.N_(
                "give the budget of {level} as {level}:key=value,…, with {settings}; e.g. {example}",
                level=level,
                settings=", ".join(keys),
                example=example,
            )
        )
    for pair in rest.split(","):
        key = pair.partition("=")[0].strip()
        if key in bot_settings(level) and key not in keys:
            raise BotError(
                core.N_(
                    "{key} is not part of the thinking budget of {level}; its budget settings are: {settings}",
                    key=key,
                    level=level,
                    settings=", ".join(keys),
                )
            )
    settings = _read_settings(level, rest, keys)
    make_bot(level, seed=0, **settings)
    return level, settings


def make_bot(level: str, seed: int | None = 0, **settings: Any) -> Bot:
    """A bot of the named level (``random``, …) with a seed and its settings.

    Raises :class:`~barbu.bots.errors.BotError` (a ValueError), saying what is allowed, for an
    unknown level or setting or a bad value.

    >>> make_bot("heuristic", seed=1, depth=3)
    Traceback (most recent call last):
    ...
    barbu.bots.errors.BotError: heuristic has no setting 'depth'; heuristic takes no settings
    """
    allowed = bot_settings(level)
    for key in settings:
        if key not in allowed:
            raise BotError(_no_such_setting(level, key, list(allowed)))
    return _known_level(level).load()(seed=seed, **settings)
