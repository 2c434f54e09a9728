"""The bots' own refusals, under :class:`~barbu.errors.BarbuError` like every refusal of the package.

>>> from barbu import BarbuError
>>> from barbu.bots import make_bot
>>> try:
...     make_bot("grandmaster")
... except BarbuError as e:
...     print(e)  # doctest: +ELLIPSIS
unknown bot level 'grandmaster'; levels are: random, heuristic, search, expert...
"""

from __future__ import annotations

from barbu.errors import BarbuError


class BotError(BarbuError, ValueError):
    """A bot asked for what it cannot do: an unknown level or setting, an external bot with no
    command, a view it has nothing to do in or whose facts contradict each other.

    An external bot that fails is :class:`~barbu.bots.external.BotFailure`, one of these."""
