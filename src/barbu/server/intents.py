"""Intents: the actions a client asks for, as JSON, and the form the action log stores.

A client never sends an :class:`~barbu.actions.Action` object; it sends a small JSON
object that names the action in record notation. :func:`intent_to_action` turns it into
an action (or raises :class:`IntentError` saying what is wrong and what is allowed);
whether the action is *legal* is then the core's question, asked through
``Game.apply``. :func:`action_to_intent` writes an action back, which is also how the
action log stores each action (with its seat added).

>>> intent_to_action({"type": "play", "card": "qs"})
Play('QS')
>>> intent_to_action({"type": "call", "double": [0, 2]})
Call(double=(0, 2))
>>> action_to_intent(intent_to_action({"type": "trump", "suit": "h"}))
{'type': 'trump', 'suit': 'H'}
>>> intent_to_action({"type": "call", "call": "maximum"})
Call(word='maximum')
>>> intent_to_action({"type": "play"})
Traceback (most recent call last):
...
barbu.server.intents.IntentError: a play needs "card", a card in record notation such as "QS"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from barbu.actions import CALL_WORDS, Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.cards import RANKS, SUITS, card, card_name, parse_rank, parse_suit
from barbu.errors import NotationError

INTENT_KEYS: dict[str, tuple[str, ...]] = {
    "declare": ("contract",),
    "trump": ("suit",),
    "rank": ("rank",),
    "call": ("call", "double", "redouble"),
    "play": ("card",),
    "pass": (),
    "arrange": ("cards",),
}
"""The keys each intent ``type`` takes besides ``type`` (a call's keys are those of a record's calls)."""

INTENT_TYPES = tuple(INTENT_KEYS)
"""The ``type`` of every intent a seat may send."""


class IntentError(ValueError):
    """An intent that does not name an action at all (the game is left untouched)."""


def _brief(value: object) -> str:
    """A value as a client may be shown it: short text or a number as written, else only its JSON kind.

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


def _text(intent: Mapping[str, Any], key: str, what: str) -> str:
    value = intent.get(key)
    if not isinstance(value, str):
        raise IntentError(f'a {intent["type"]} needs "{key}", {what}')
    return value


def _seats(intent: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = intent.get(key, [])
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        raise IntentError(f'"{key}" must be a list of seat numbers, e.g. [0, 2]')
    return tuple(value)


def intent_to_action(intent: object) -> Action:
    """The action an intent names; raises :class:`IntentError` if it names none."""
    if not isinstance(intent, Mapping):
        raise IntentError('an action must be an object such as {"type": "play", "card": "QS"}')
    kind = intent.get("type")
    if kind not in INTENT_TYPES:
        raise IntentError(f"unknown action type {_brief(kind)}; types are: {', '.join(INTENT_TYPES)}")
    allowed = INTENT_KEYS[kind]
    extra = sorted(k for k in intent if k != "type" and k not in allowed)
    if extra:
        takes = ", ".join(f'"{k}"' for k in allowed) or "no other key"
        raise IntentError(f"a {kind} takes {takes}; not {', '.join(_brief(str(k)) for k in extra[:5])}")
    try:
        if kind == "declare":
            return Declare(_text(intent, "contract", 'a contract id such as "no-queens"'))
        if kind == "trump":
            return NameTrump(parse_suit(_text(intent, "suit", "one of S H D C")))
        if kind == "rank":
            return NameRank(parse_rank(_text(intent, "rank", "one of 2 3 4 5 6 7 8 9 T J Q K A")))
        if kind == "play":
            return Play(card(_text(intent, "card", 'a card in record notation such as "QS"')))
        if kind == "pass":
            return Pass()
        if kind == "arrange":
            cards = intent.get("cards")
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise IntentError('an arrange needs "cards": 13 cards, back 5, middle 5, front 3')
            return Arrange(tuple(card(c) for c in cards))
    except NotationError as e:
        raise IntentError(str(e)) from None
    word = intent.get("call")
    if word is not None and word not in CALL_WORDS:
        raise IntentError(f"unknown call {_brief(word)}; the spoken calls are: {', '.join(CALL_WORDS)}")
    if word is not None and ("double" in intent or "redouble" in intent):
        raise IntentError('a call is either spoken ("call") or lists "double" and "redouble", not both')
    return Call(double=_seats(intent, "double"), redouble=_seats(intent, "redouble"), word=word)


def action_to_intent(action: Action) -> dict[str, Any]:
    """The JSON intent of an action (the inverse of :func:`intent_to_action`)."""
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
    raise IntentError(f"{action!r} is not an action a seat takes at a table")


__all__ = ["INTENT_TYPES", "IntentError", "action_to_intent", "intent_to_action"]
