"""Typed errors of the rules core, split by cause.

Every refusal says what was wrong and what is allowed instead, and a refused
action leaves the game exactly as it was.

>>> try:
...     raise IllegalAction("play", "5H is not legal: seat 2 must follow diamonds", seat=2)
... except BarbuError as e:
...     print(e.kind, e.seat, e)
play 2 5H is not legal: seat 2 must follow diamonds

The core speaks English and cannot translate (it is standard-library only), so a refusal
that reaches people is a :class:`Text`: its English template, marked ``N_(...)`` for the
catalogues' extractor, and the values of its placeholders. The outer layers translate it
(``barbu.language.translate``); ``str()`` gives the English:

>>> why = N_("seat {seat} must follow {suit}", seat=2, suit=fact("suit", "diamonds"))
>>> str(IllegalAction("play", N_("{card} is not legal: {why}", card="5H", why=why), seat=2))
'5H is not legal: seat 2 must follow diamonds'
"""

from __future__ import annotations

from collections.abc import Mapping


class Text:
    """A text for people: an English ``template`` with ``{name}`` placeholders and their
    values (numbers, strings, or other texts), or, with a ``context``, one of the core's
    facts (a suit's name) that the catalogues hold under that context.

    >>> str(Text("seat {seat} may play {cards}", seat=1, cards="2C 3C"))
    'seat 1 may play 2C 3C'
    """

    __slots__ = ("context", "params", "template")

    def __init__(self, template: str, /, context: str | None = None, **params: object) -> None:
        self.template = template
        self.context = context
        self.params: Mapping[str, object] = params

    def __str__(self) -> str:
        if not self.params:
            return self.template
        return self.template.format(**{k: str(v) for k, v in self.params.items()})

    def __repr__(self) -> str:
        return f"Text({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Text):
            return NotImplemented
        return (self.template, self.context, dict(self.params)) == (other.template, other.context, dict(other.params))

    def __hash__(self) -> int:
        return hash((self.template, self.context))


N_ = Text
"""A text for people, marked for the catalogues' extractor: ``N_("seat {seat} must pass", seat=2)``."""


def fact(context: str, text: str) -> Text:
    """One of the core's facts as a text, translated under ``context`` (``suit``: ``"hearts"``)."""
    return Text(text, context=context)


class BarbuError(Exception):
    """Base class of every error the package raises on purpose."""


class NotationError(BarbuError, ValueError):
    """Text that is not a card, suit, rank or hand in record notation.

    ``text`` is the message as a :class:`Text` for the outer layers to translate, ``message``
    its English:

    >>> e = NotationError(N_("{found} is not a suit: use one of S H D C", found="'X'"))
    >>> e.message
    "'X' is not a suit: use one of S H D C"
    """

    def __init__(self, message: str | Text) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.text = text
        """The message as a :class:`Text`, for the outer layers to translate."""
        self.message = str(text)


class ActionNotationError(NotationError):
    """A JSON object that names no action at all (unknown type, a key missing or extra, a
    value that is not a card, suit, rank or seat list); the game is left untouched."""


class ViewError(BarbuError, ValueError):
    """A seat's view asked for what it cannot give (a spectator's hidden cards, a world that
    agrees with contradictory facts)."""


class OptionsError(BarbuError, ValueError):
    """An unknown rule set, an unknown flag, or a flag value that is not allowed.

    ``text`` is the message as a :class:`Text` for the outer layers to translate, ``message``
    its English:

    >>> e = OptionsError(N_("unknown flag {flag}; flags are: {names}", flag="'colour'", names="rotation"))
    >>> e.message
    "unknown flag 'colour'; flags are: rotation"
    """

    def __init__(self, message: str | Text) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.text = text
        """The message as a :class:`Text`, for the outer layers to translate."""
        self.message = str(text)


class IllegalAction(BarbuError):
    """An action the rules do not allow now.

    ``kind`` is the phase the action belongs to (``contract``, ``trump``, ``rank``,
    ``call``, ``play``, ``tally``, or ``game`` once the game is over) and ``seat`` the
    seat that tried it, where known. ``message`` is the rule broken and what is allowed;
    a game that refuses an action also sets ``deal`` (1-based) and ``action`` (the action
    in words), and the error's text then names all four:

    >>> e = IllegalAction("play", "5H is not legal: seat 2 must follow diamonds", seat=2)
    >>> e.deal, e.action = 3, "play 5H"
    >>> str(e)
    'deal 3, play 5H (seat 2): 5H is not legal: seat 2 must follow diamonds'
    """

    def __init__(self, kind: str, message: str | Text, seat: int | None = None) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.kind = kind
        self.seat = seat
        self.text = text
        """The message as a :class:`Text`, for the outer layers to translate."""
        self.message = str(text)
        self.deal: int | None = None
        self.action: str | None = None

    def __str__(self) -> str:
        if self.deal is None:
            return self.message
        where = f"deal {self.deal}"
        if self.action is not None:
            where += f", {self.action}"
        if self.seat is not None:
            where += f" (seat {self.seat})"
        return f"{where}: {self.message}"


class OutOfTurn(IllegalAction):
    """An action by a seat that is not the one to act."""


class TallyError(IllegalAction):
    """A tally that does not fit the contract (missing keys, sums that do not add up)."""

    def __init__(self, message: str | Text) -> None:
        super().__init__("tally", message, None)


class RecordError(BarbuError):
    """A record that is not valid ``barbu-record/1``, located as RECORD.md says.

    ``deal`` is 1-based (or None for the document), ``index`` the 1-based position in
    ``calls`` or ``play`` where that applies. ``text`` is the message as a :class:`Text`
    for the outer layers to translate, ``message`` its English:

    >>> e = RecordError("call", N_("deal {n}, call {index}: {why}", n=2, index=1, why=N_("the calls are over")))
    >>> e.message
    'deal 2, call 1: the calls are over'
    """

    def __init__(
        self,
        kind: str,
        message: str | Text,
        deal: int | None = None,
        index: int | None = None,
        seat: int | None = None,
    ) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.kind = kind
        self.text = text
        """The message as a :class:`Text`, for the outer layers to translate."""
        self.message = str(text)
        self.deal = deal
        self.index = index
        self.seat = seat

    def as_json(self) -> dict[str, object]:
        """The ``error`` object of ``barbu replay --json``."""
        return {
            "deal": self.deal,
            "kind": self.kind,
            "index": self.index,
            "seat": self.seat,
            "message": self.message,
        }


class RecordUsageError(BarbuError):
    """A file that is not a record at all (unreadable, not JSON, wrong ``format``).

    ``text`` is the message as a :class:`Text` for the outer layers to translate, ``message``
    its English.
    """

    def __init__(self, message: str | Text) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(str(text))
        self.text = text
        """The message as a :class:`Text`, for the outer layers to translate."""
        self.message = str(text)
