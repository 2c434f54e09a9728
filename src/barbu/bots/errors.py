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

from barbu.errors import BarbuError, Text


class BotError(BarbuError, ValueError):
    """A bot asked for what it cannot do: an unknown level or setting, an external bot with no
    command, a view it has nothing to do in or whose facts contradict each other.

    An external bot that fails is :class:`~barbu.bots.external.BotFailure`, one of these.
    ``text`` is the message as a :class:`~barbu.errors.Text` (marked ``N_`` where a person may
    read it: a level or setting given on a command line) for the outer layers to translate,
    ``message`` its English.
    """

    def __init__(self, message: str | Text) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.text = text
        """The message as a :class:`~barbu.errors.Text`, for the outer layers to translate."""
        self.message = str(text)
