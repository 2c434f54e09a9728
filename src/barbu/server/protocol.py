"""The table protocol: the messages a client sends, the frames it receives, the typed errors.

Every message is one JSON object with a ``type``. A connection first says ``hello``
(the table, and the seat's credential, or the number of a seat the browser's cookie
holds, unless it only watches), then ``act`` (an intent
with a client action id and the sequence number it acts on), ``sync`` (the last
sequence number it saw), ``ping``, ``say`` (a quick message, one of :data:`PHRASES`) or
``hints`` (``agree``: a seat's yes or no to the coach's hint for every person at the
table). The server answers with ``welcome``, ``state`` and
``event`` frames (each carrying a seat's view and only that: a whole ``view``, or a
``patch`` of the view's fields that changed since the previous sequence number), ``table``
(who sits where, who is online, who agreed to hints) and ``error`` frames whose ``code`` says
what was wrong.

An ``act`` is answered to its sender alone, by one frame that names its id: the ``event`` of
the state it made carries ``"ack": id`` (sent once the action is committed to the database,
``{"type":"event","seq":7,"ack":"a12","patch":{...}}``); an id this seat had already had
accepted is answered ``{"type":"ack","ack":id,"seq":N,"duplicate":true}`` (``N``: the
sequence number it got then); a refused action ``{"type":"error","id":id,...}``, and the table
is unchanged. The other connections receive the same event without ``ack``.

>>> from barbu.server.limits import Limits
>>> parse_message('{"type": "ping"}', Limits())
{'type': 'ping'}
>>> parse_message('{"type": "act"', Limits())
Traceback (most recent call last):
...
barbu.server.protocol.ProtocolError: malformed: the text is not valid JSON: expecting an object like {"type": "ping"}
>>> ProtocolError("stale", "seq 3 is behind the table's 5").frame()
{'type': 'error', 'code': 'stale', 'message': "seq 3 is behind the table's 5"}
"""

from __future__ import annotations

import json
import re
from typing import Any

from barbu.errors import BarbuError
from barbu.language import _
from barbu.server.bodies import BodyError, loads
from barbu.server.limits import Limits

ERROR_CODES: dict[str, str] = {
    "malformed": "the message is not a JSON object with the fields its type needs",
    "too_large": "the message is longer than the server accepts",
    "rate_limited": "over what this connection, address or table's watchers may cost a second; see retry_after",
    "unknown_type": "the message type is not one of hello, act, sync, ping, say, hints, leave, abandon, consent",
    "unknown_table": "no table has that id",
    "bad_credential": "the credential is not the one of any seat of this table (or this browser holds no such seat)",
    "seat_held": "another browser holds the seat: only an explicit takeover moves it",
    "taken_over": "another browser took the seat over with its invitation link",
    "not_creator": "only the browser that created the table may delete it",
    "cross_origin": "a page of another site may not change anything here nor open a table connection",
    "content_type": "a request body must be sent as application/json",
    "no_credential": "a spectator (no credential) cannot act",
    "not_joined": "say hello to a table before anything else",
    "already_joined": "this connection is already at a table",
    "not_started": "the table waits for its players to join",
    "stale": "the action was made on an older state than the table's",
    "bad_seq": "the sequence number is not one the table has reached",
    "bad_action": "the action does not name any action (unknown type, card, suit, rank, ...)",
    "not_your_turn": "another seat is to act",
    "illegal": "the rules do not allow that action now",
    "game_over": "the game is over",
    "table_limit": "this client has too many unfinished tables or connections",
    "storage": "the database could not record the change, so nothing changed: try again in a moment",
    "bad_name": "the name is not 1 to 40 characters of printable text",
    "internal": "the server failed on this message; the table was reloaded from its log",
    "bad_request": "the table settings are not valid",
    "not_finished": "the record of a game is given once the game is over",
    "in_play": "the table cannot be deleted: its game is over, or other people play at it",
    "abandoned": "the table was abandoned: nothing more is played at it",
    "proposed": "abandoning the table is already proposed: it waits for the answers",
    "no_proposal": "no proposal to abandon the table waits for this seat's answer",
}
"""Every error code a client may receive, with what it means."""

MESSAGE_TYPES = ("hello", "act", "sync", "ping", "say", "hints", "leave", "abandon", "consent")

PHRASES = ("hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "good_game")
"""The quick messages a seat may send the table (``say``): fixed phrases, never free text, each
shown by the pages in their own language; one per seat every :data:`SAY_INTERVAL` seconds."""

SAY_INTERVAL = 3.0

HINTS_INTERVAL = 3.0
"""A seat says yes or no to hints for everyone (``hints``) at most once every so many seconds."""


class ProtocolError(BarbuError):
    """A refused message: ``code`` (one of :data:`ERROR_CODES`) and a message to act on.

    ``ref`` is the client action id the error answers, ``kind`` the phase of an
    illegal action, ``retry_after`` the seconds a ``rate_limited`` client should wait.
    """

    def __init__(
        self,
        code: str,
        message: str,
        ref: str | None = None,
        kind: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        assert code in ERROR_CODES, code
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.ref = ref
        self.kind = kind
        self.retry_after = retry_after

    def frame(self) -> dict[str, Any]:
        """The ``error`` frame sent to the client."""
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.ref is not None:
            out["id"] = self.ref
        if self.kind is not None:
            out["kind"] = self.kind
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        return out


def _seq(msg: dict[str, Any], key: str, required: bool) -> int | None:
    value = msg.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ProtocolError(
            "malformed", _('"{key}" must be a sequence number (an integer from 0)', key=key), msg.get("id")
        )
    return value


TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a table id may be: the server makes them with :func:`secrets.token_urlsafe` (letters,
digits, ``-`` and ``_``); anything else names no table."""


def check_table_id(table_id: str) -> str:
    """``table_id`` if it may name a table, else ``unknown_table``: refused where it comes in,
    before the store or Redis sees it (a NUL or a lone surrogate fails their calls).

    >>> check_table_id("Ab3_-x9Z")
    'Ab3_-x9Z'
    >>> check_table_id("../etc")
    Traceback (most recent call last):
    ...
    barbu.server.protocol.ProtocolError: unknown_table: there is no table '../etc': check the link
    """
    if not TABLE_ID.fullmatch(table_id):
        raise ProtocolError("unknown_table", _("there is no table {table}: check the link", table=repr(table_id)))
    return table_id


def parse_message(text: str | bytes, limits: Limits) -> dict[str, Any]:
    """Check one client message: size, JSON (its nesting checked before the parser runs), type and fields.

    >>> try:
    ...     parse_message('{"type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}", Limits())
    ... except ProtocolError as e:
    ...     print(e.code, "-", e.message.split(":")[0])
    malformed - JSON may be nested at most 32 levels deep; this is nested 41 levels
    """
    if len(text) > limits.message_bytes:
        raise ProtocolError(
            "too_large",
            _("messages are at most {limit} bytes, this one is {n}", limit=limits.message_bytes, n=len(text)),
        )
    try:
        msg = loads(text)
    except BodyError as e:
        raise ProtocolError(
            "malformed", _("{why}: expecting an object like {example}", why=e.message, example='{"type": "ping"}')
        ) from None
    if not isinstance(msg, dict):
        raise ProtocolError("malformed", _("a message is a JSON object like {example}", example='{"type": "ping"}'))
    kind = msg.get("type")
    if kind not in MESSAGE_TYPES:
        raise ProtocolError(
            "unknown_type",
            _("unknown message type {kind}; types are: {types}", kind=repr(kind), types=", ".join(MESSAGE_TYPES)),
        )
    if kind == "hello":
        if not isinstance(msg.get("table"), str):
            raise ProtocolError("malformed", _('hello needs "table", the table id from the link'))
        check_table_id(msg["table"])
        for key in ("key", "name"):
            if msg.get(key) is not None and not isinstance(msg[key], str):
                raise ProtocolError("malformed", _('"{key}" must be a string', key=key))
        seat = msg.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 16):
            raise ProtocolError("malformed", _('"seat" must be a seat number (an integer from 0) this browser holds'))
        _seq(msg, "last_seq", required=False)
    elif kind == "act":
        ref = msg.get("id")
        if not isinstance(ref, str) or not 1 <= len(ref) <= 64:
            raise ProtocolError("malformed", _('act needs "id", a string of 1 to 64 characters naming this action'))
        _seq(msg, "seq", required=True)
        if not isinstance(msg.get("action"), dict):
            raise ProtocolError(
                "malformed", _('act needs "action", e.g. {example}', example='{"type": "play", "card": "QS"}'), ref
            )
    elif kind == "sync":
        _seq(msg, "last_seq", required=True)
    elif kind == "consent" and not isinstance(msg.get("agree"), bool):
        raise ProtocolError("malformed", _('consent needs "agree": true to abandon the table, false to keep playing'))
    elif kind == "say" and msg.get("phrase") not in PHRASES:
        raise ProtocolError("malformed", _('say needs "phrase", one of: {phrases}', phrases=", ".join(PHRASES)))
    elif kind == "hints" and not isinstance(msg.get("agree"), bool):
        raise ProtocolError("malformed", _('hints needs "agree": true (propose or accept hints for all) or false'))
    return msg


def encode(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text."""
    return json.dumps(frame, separators=(",", ":"))


__all__ = ["ERROR_CODES", "MESSAGE_TYPES", "TABLE_ID", "ProtocolError", "check_table_id", "encode", "parse_message"]
