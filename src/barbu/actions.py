"""The actions a seat can take, as small immutable values.

Each action's ``repr`` is an expression that gives it back after ``from barbu import *``
(cards by name, suits and ranks by their constants); ``str`` is its record notation.

>>> from barbu import *
>>> Declare("no-queens"), Call(double=(0,)), Play(card("QS")), NameTrump(HEARTS), NameRank(JACK)
(Declare('no-queens'), Call(double=(0,)), Play(card('QS')), NameTrump(HEARTS), NameRank(JACK))
>>> eval(repr(Play(card("QS")))) == Play(card("QS"))
True
>>> str(Call(word="maximum")), str(Play(card("TH"))), str(NameTrump(HEARTS))
('maximum', 'TH', 'H')

Between programs (the web page, the server's action log, external bots) an action
travels as one small JSON object with the record's keys (RECORD.md):
:func:`action_to_json` writes it and :func:`action_from_json` reads it back.

>>> action_to_json(Call(double=(0, 2)))
{'type': 'call', 'double': [0, 2]}
>>> action_from_json({"type": "play", "card": "qs"})
Play(card('QS'))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, TypeVar

from barbu.cards import RANK_CONSTANTS, RANKS, SUIT_CONSTANTS, SUITS, card, card_name, parse_rank, parse_suit
from barbu.errors import ActionNotationError, NotationError

CARD_NAMES = tuple(card_name(c) for c in range(52))


def _notation(names: Sequence[str], value: object) -> object:
    """``names[value]``, or the value itself when it names nothing (an action to refuse)."""
    if type(value) is int and 0 <= value < len(names):
        return names[value]
    return value


def _constant(names: Sequence[str], value: int) -> str:
    """``names[value]`` as a bare name (a constant of :mod:`barbu`), else the value's repr."""
    if type(value) is int and 0 <= value < len(names):
        return names[value]
    return repr(value)


def _card_expr(value: int) -> str:
    """``card('QS')`` for a card, the value's repr for anything else (an action to refuse)."""
    if type(value) is int and 0 <= value < 52:
        return f"card({CARD_NAMES[value]!r})"
    return repr(value)


CALL_WORDS = ("pass", "maximum", "table", "flanks", "family")
"""The spoken shorthands of the doubling (RULES.md §2.6)."""


@dataclass(frozen=True, slots=True)
class Declare:
    """The declarer names its contract."""

    contract: str

    def __repr__(self) -> str:
        return f"Declare({self.contract!r})"

    def __str__(self) -> str:
        return self.contract if isinstance(self.contract, str) else repr(self.contract)


@dataclass(frozen=True, slots=True)
class NameTrump:
    """The declarer names the trump suit (0-3: S H D C)."""

    suit: int

    def __repr__(self) -> str:
        return f"NameTrump({_constant(SUIT_CONSTANTS, self.suit)})"

    def __str__(self) -> str:
        return str(_notation(SUITS, self.suit))


@dataclass(frozen=True, slots=True)
class NameRank:
    """The declarer names the domino starting rank (0 = two … 12 = ace)."""

    rank: int

    def __repr__(self) -> str:
        return f"NameRank({_constant(RANK_CONSTANTS, self.rank)})"

    def __str__(self) -> str:
        return str(_notation(RANKS, self.rank))


@dataclass(frozen=True, slots=True)
class Call:
    """A call of the doubling: seats doubled, doubles redoubled, or a spoken word.

    A word (``pass``, ``maximum``, ``table``, ``flanks``, ``family``) and explicit
    lists may not be mixed; ``Call()`` is a pass.
    """

    double: tuple[int, ...] = ()
    redouble: tuple[int, ...] = ()
    word: str | None = None

    def __repr__(self) -> str:
        parts = []
        if self.double:
            parts.append(f"double={self.double!r}")
        if self.redouble:
            parts.append(f"redouble={self.redouble!r}")
        if self.word is not None:
            parts.append(f"word={self.word!r}")
        return f"Call({', '.join(parts)})"

    def __str__(self) -> str:
        if self.word is not None:
            return self.word if isinstance(self.word, str) else repr(self.word)
        parts = []
        if self.double:
            parts.append("double " + " ".join(f"P{s}" for s in self.double))
        if self.redouble:
            parts.append("redouble " + " ".join(f"P{s}" for s in self.redouble))
        return ", ".join(parts) or "pass"

    def is_pass(self) -> bool:
        """True for an explicit pass (no word but ``pass``, no seats)."""
        return not self.double and not self.redouble and self.word in (None, "pass")


@dataclass(frozen=True, slots=True)
class Play:
    """A card played to a trick or laid in domino."""

    card: int

    def __repr__(self) -> str:
        return f"Play({_card_expr(self.card)})"

    def __str__(self) -> str:
        return str(_notation(CARD_NAMES, self.card))


@dataclass(frozen=True, slots=True)
class Pass:
    """A domino turn with no playable card (written ``"pass"`` in records)."""

    def __repr__(self) -> str:
        return "Pass()"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Arrange:
    """A Chinese-poker arrangement: 13 cards, back 5, middle 5, front 3.

    >>> a = Arrange.parse("AS KS QS JS TS | 9H 8H 7H 6H 5H | 4D 3D 2D")
    >>> a
    Arrange.parse('AS KS QS JS TS | 9H 8H 7H 6H 5H | 4D 3D 2D')
    >>> a.cards[:3] == (card("AS"), card("KS"), card("QS"))
    True
    """

    cards: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> Arrange:
        """The arrangement of the cards named in ``text``, in the order written.

        Bars between the rows are optional; the cards are not checked against a hand
        here (the game does that when the arrangement is played).
        """
        return cls(tuple(card(t) for t in text.replace("|", " ").split()))

    def __repr__(self) -> str:
        if all(type(c) is int and 0 <= c < 52 for c in self.cards):
            return f"Arrange.parse({str(self)!r})"
        return f"Arrange({self.cards!r})"

    def __str__(self) -> str:
        names = [str(_notation(CARD_NAMES, c)) for c in self.cards]
        return " ".join(names[:5]) + " | " + " ".join(names[5:10]) + " | " + " ".join(names[10:])


@dataclass(frozen=True)
class EnterTally:
    """The tally of a deal played with real cards (RECORD.md's tally keys)."""

    tally: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"EnterTally({dict(self.tally)!r})"

    def __str__(self) -> str:
        return f"tally {dict(self.tally)}"


PLAYS: tuple[Play, ...] = tuple(Play(c) for c in range(52))
"""One shared :class:`Play` per card (actions are immutable, so sharing is safe)."""

Action = Declare | NameTrump | NameRank | Call | Play | Pass | Arrange | EnterTally
"""Any action of the game."""


_Choice = TypeVar("_Choice")


def random_pick(choices: Sequence[_Choice], rng: Random) -> _Choice:
    """The random bot's choice, uniform over ``choices`` (as listed) from the generator ``rng``:
    ``choices[rng.randrange(len(choices))]``. The one place of this choice: the ``random`` bot
    (:class:`barbu.bots.RandomBot`), the core's :meth:`Deal.call_random <barbu.deal.Deal.call_random>`
    and :meth:`Doubling.call_random <barbu.doubling.Doubling.call_random>` all pick with it, so the
    same generator gives the same game whichever of them makes the choices. (The compiled card
    play of :func:`barbu.accel.play_random` draws the same way; tests compare it with this.)

    >>> random_pick(["pass", "double"], Random(3)) == ["pass", "double"][Random(3).randrange(2)]
    True
    """
    return choices[rng.randrange(len(choices))]


def parse_play(text: str) -> Play | Pass:
    """A card or ``pass`` as written in a record's ``play`` list.

    >>> parse_play("qs"), parse_play("pass")
    (Play(card('QS')), Pass())
    """
    if text.strip().lower() == "pass":
        return Pass()
    return Play(card(text))


def action_text(action: Action) -> str:
    """An action in record notation (contract id, suit, rank, call, card or ``pass``).

    >>> action_text(Play(card("QS"))), action_text(Declare("no-king")), action_text(Pass())
    ('QS', 'no-king', 'pass')
    """
    if isinstance(action, Arrange):
        return " ".join(str(_notation(CARD_NAMES, c)) for c in action.cards)
    return str(action)


def action_words(action: Action) -> str:
    """What an action is, in words: its kind, then its record notation (for messages).

    >>> action_words(Play(card("QS"))), action_words(Declare("no-king")), action_words(Pass())
    ('play QS', 'contract no-king', 'pass')
    >>> action_words(NameTrump(7)), action_words(Play(60))
    ('trump 7', 'play 60')

    """
    if isinstance(action, Pass):
        return "pass"
    kind = {Declare: "contract", NameTrump: "trump", NameRank: "rank", Call: "call", Play: "play"}.get(
        type(action), "arrangement" if isinstance(action, Arrange) else type(action).__name__
    )
    return f"{kind} {action_text(action)}"


# -- actions as JSON ---------------------------------------------------------------------

ACTION_KEYS: dict[str, tuple[str, ...]] = {
    "declare": ("contract",),
    "trump": ("suit",),
    "rank": ("rank",),
    "call": ("call", "double", "redouble"),
    "play": ("card",),
    "pass": (),
    "arrange": ("cards",),
}
"""The keys each action ``type`` takes besides ``type`` (a record's keys: a call's are those of
a record's calls, a card, suit or rank in record notation)."""

ACTION_TYPES = tuple(ACTION_KEYS)
"""The ``type`` of every action a seat takes at a table."""


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON object of an action (the inverse of :func:`action_from_json`).

    >>> action_to_json(NameTrump(1)), action_to_json(Pass())
    ({'type': 'trump', 'suit': 'H'}, {'type': 'pass'})
    >>> action_to_json(Call(word="maximum")), action_to_json(Call())
    ({'type': 'call', 'call': 'maximum'}, {'type': 'call'})
    """
    if isinstance(action, Declare):
        return {"type": "declare", "contract": action.contract}
    if isinstance(action, NameTrump):
        return {"type": "trump", "suit": SUITS[action.suit]}
    if isinstance(action, NameRank):
        return {"type": "rank", "rank": RANKS[action.rank]}
    if isinstance(action, Play):
        return {"type": "play", "card": card_name(action.card)}
    if isinstance(action, Pass):
        return {"type": "pass"}
    if isinstance(action, Arrange):
        return {"type": "arrange", "cards": [card_name(c) for c in action.cards]}
    if isinstance(action, Call):
        out: dict[str, Any] = {"type": "call"}
        if action.word is not None:
            out["call"] = action.word
        if action.double:
            out["double"] = list(action.double)
        if action.redouble:
            out["redouble"] = list(action.redouble)
        return out
    raise ActionNotationError(f"{action!r} is not an action a seat takes at a table: a tally is entered, not played")


def _text(obj: Mapping[str, Any], key: str, what: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise ActionNotationError(f'a {obj["type"]} needs "{key}", {what}')
    return value


def _seats(obj: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        raise ActionNotationError(f'"{key}" must be a list of seat numbers, e.g. [0, 2]')
    return tuple(value)


def _brief(value: object) -> str:
    """A value as a refusal may show it: short text or a number as written, else only its JSON kind.

    >>> _brief("play"), _brief(7), _brief([[["deep"]]]), _brief("x" * 100)[-5:]
    ("'play'", '7', 'a list', "x'...")
    """
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:40]) + "..."
    if value is None or isinstance(value, bool | int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:40] + "..."
    if isinstance(value, dict):
        return "an object"
    return "a list" if isinstance(value, list) else f"a {type(value).__name__}"


def action_from_json(obj: object) -> Action:
    """The action a JSON object names; raises :class:`~barbu.errors.ActionNotationError`
    saying what is wrong and what is allowed when it names none. Whether the action is
    legal now is the game's question (``Game.apply``).

    >>> action_from_json({"type": "call", "call": "maximum"})
    Call(word='maximum')
    >>> action_from_json({"type": "play"})
    Traceback (most recent call last):
    ...
    barbu.errors.ActionNotationError: a play needs "card", a card in record notation such as "QS"
    """
    if not isinstance(obj, Mapping):
        raise ActionNotationError('an action must be an object such as {"type": "play", "card": "QS"}')
    kind = obj.get("type")
    if kind not in ACTION_TYPES:
        raise ActionNotationError(f"unknown action type {_brief(kind)}; types are: {', '.join(ACTION_TYPES)}")
    allowed = ACTION_KEYS[kind]
    extra = sorted(str(k) for k in obj if k != "type" and k not in allowed)
    if extra:
        takes = ", ".join(f'"{k}"' for k in allowed) or "no other key"
        raise ActionNotationError(f"a {kind} takes {takes}; not {', '.join(_brief(str(k)) for k in extra[:5])}")
    try:
        if kind == "declare":
            return Declare(_text(obj, "contract", 'a contract id such as "no-queens"'))
        if kind == "trump":
            return NameTrump(parse_suit(_text(obj, "suit", "one of S H D C")))
        if kind == "rank":
            return NameRank(parse_rank(_text(obj, "rank", "one of 2 3 4 5 6 7 8 9 T J Q K A")))
        if kind == "play":
            return Play(card(_text(obj, "card", 'a card in record notation such as "QS"')))
        if kind == "pass":
            return Pass()
        if kind == "arrange":
            cards = obj.get("cards")
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise ActionNotationError('an arrange needs "cards": 13 cards, back 5, middle 5, front 3')
            return Arrange(tuple(card(c) for c in cards))
    except ActionNotationError:
        raise
    except NotationError as e:
        raise ActionNotationError(e.text) from None
    word = obj.get("call")
    if word is not None and word not in CALL_WORDS:
        raise ActionNotationError(f"unknown call {_brief(word)}; the spoken calls are: {', '.join(CALL_WORDS)}")
    if word is not None and ("double" in obj or "redouble" in obj):
        raise ActionNotationError('a call is either spoken ("call") or lists "double" and "redouble", not both')
    return Call(double=_seats(obj, "double"), redouble=_seats(obj, "redouble"), word=word)
