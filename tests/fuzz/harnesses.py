"""Fuzz targets: each takes the fuzzer's bytes and lets only the project's typed errors through.

A target reads its bytes the way the program reads a client's input, catches the typed
refusals the program answers with (``BarbuError`` and its kinds, ``ActionNotationError``,
``ProtocolError``, the sheet API's ``RequestError`` and ``Stale``) and lets anything else
escape, which the coverage-guided fuzzer reports as a crash (the server would answer
``internal`` or 500). :mod:`run_atheris` runs them under atheris; the tests call them too.

- :func:`record`: a ``barbu-record/1`` document as bytes, through ``barbu replay``'s
  reading (JSON, :func:`barbu.replay.replay_json`) and the score sheet's
  (:func:`barbu.sheet.export.read_record`);
- :func:`intent`: bytes as a table frame (:func:`barbu.server.protocol.parse_message`)
  and, as JSON, as an intent (:func:`barbu.actions.action_from_json`); an intent
  that parses must come back from :func:`~barbu.actions.action_to_json` as itself;
- :func:`sheet_body`: the first byte picks a score-sheet route, the rest is its body, read
  by the sheet API's body reader and given to that route's work
  (:class:`barbu.server.sheets.SheetService`) on an in-memory database.

>>> record(b'{"format": "barbu-record/1", "variant": "classic", "deals": []}')
>>> intent(b'{"type": "play", "card": "QS"}')
>>> sheet_body(bytes([0]) + b'{"variant": "salad"}')
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from barbu.actions import action_from_json, action_to_json
from barbu.errors import ActionNotationError, BarbuError
from barbu.replay import replay_json
from barbu.server.protocol import Limits, ProtocolError, parse_message
from barbu.server.sheets import BODY_LIMIT, RequestError, SheetService, Stale, _body
from barbu.sheet.export import read_record
from barbu.sheet.store import SheetStore

TESTS = Path(__file__).resolve().parent.parent
LIMITS = Limits()


def _json(data: bytes) -> Any:
    """The bytes as JSON, or None where they are not (the reader's own refusal, tested elsewhere)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def record(data: bytes) -> None:
    """A record file's bytes, read as ``barbu replay`` and the score sheet's import read them."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return
    doc = _json(data)
    if doc is not None:
        try:
            out = replay_json(doc)
        except BarbuError:
            pass
        else:
            json.dumps(out)
    with contextlib.suppress(BarbuError):
        read_record(text)


def intent(data: bytes) -> None:
    """A frame's bytes through the protocol's parser, and as JSON through the intent parser."""
    try:
        msg = parse_message(data, LIMITS)
    except ProtocolError:
        pass
    else:
        assert isinstance(msg, dict) and msg["type"] in ("hello", "act", "sync", "ping")
    value = _json(data)
    for candidate in (value, value.get("action") if isinstance(value, dict) else None):
        try:
            action = action_from_json(candidate)
        except ActionNotationError:
            continue
        back = action_from_json(json.loads(json.dumps(action_to_json(action))))
        assert back == action, (action, back)


class _Request:
    """What the sheet API's body reader asks of a request: its headers and its body, in chunks."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.headers = {"content-length": str(len(raw))}

    async def stream(self) -> AsyncIterator[bytes]:
        for start in range(0, len(self.raw), 4096):
            yield self.raw[start : start + 4096]


_SERVICE: list[tuple[SheetService, str]] = []


def _service() -> tuple[SheetService, str]:
    """One sheet service on an in-memory database, with one sheet, made on first use."""
    if not _SERVICE:
        service = SheetService(SheetStore("sqlite://"))
        sheet = service.create({"variant": "classic", "players": ["Ann", "Bob", "Cy", "Di"]})
        _SERVICE.append((service, sheet["id"]))
    return _SERVICE[0]


def _routes(service: SheetService, sheet: str) -> list[Callable[[dict[str, Any]], Any]]:
    return [
        service.create,
        service.import_record,
        lambda b: service.change(sheet, b),
        lambda b: service.form(sheet, b),
        lambda b: service.preview(sheet, b),
        lambda b: service.fill(sheet, b),
        lambda b: service.retitle(sheet, b),
        lambda b: service.undo(sheet, b),
        lambda b: service.redo(sheet, b),
    ]


def sheet_body(data: bytes) -> None:
    """A score-sheet request: the first byte picks the route, the rest is the body."""
    if not data:
        return
    service, sheet = _service()
    routes = _routes(service, sheet)
    work = routes[data[0] % len(routes)]
    try:
        body = asyncio.run(_body(_Request(data[1:]), BODY_LIMIT))  # type: ignore[arg-type]
    except RequestError:
        return
    try:
        out = work(body)
    except (BarbuError, RequestError, Stale):
        return
    json.dumps(out)


def sheet_seeds() -> list[bytes]:
    """A body for every route, to start the fuzzer from inputs that reach each route's work."""
    bodies: list[tuple[int, Any]] = [
        (0, {"variant": "classic", "players": ["A", "B", "C", "D"], "title": "t", "first_declarer": 1}),
        (0, {"variant": "five-player", "options": {"rotation": "quick"}}),
        (1, {"record": {"format": "barbu-record/1", "variant": "classic", "deals": []}, "title": "x"}),
        (2, {"change": "add", "entry": {"declarer": 0, "contract": "no-queens"}}),
        (2, {"change": "players", "players": ["W", "X", "Y", "Z"]}),
        (3, {"deal": 1, "changes": {}}),
        (4, {"deal": 1, "entry": {"declarer": 0, "contract": "no-tricks", "tally": {"tricks": [4, 3, 3, 3]}}}),
        (5, {"declarer": 0, "contract": "no-queens", "doubles": [], "seat": 1, "word": "maximum"}),
        (6, {"title": "renamed"}),
        (7, {}),
        (8, {"version": 1}),
    ]
    return [bytes([route]) + json.dumps(body).encode() for route, body in bodies]


def record_seeds() -> list[bytes]:
    """The repository's example records, and a few of the specification's refused ones."""
    paths = sorted((TESTS / "records").glob("*.json")) + sorted((TESTS / "spec_records").glob("*.json"))[:40:4]
    return [p.read_bytes() for p in paths if not p.name.endswith(".expected.json")]


def intent_seeds() -> list[bytes]:
    """Frames and intents of every kind."""
    values: list[Any] = [
        {"type": "play", "card": "QS"},
        {"type": "call", "double": [0, 2], "redouble": [1]},
        {"type": "call", "call": "maximum"},
        {"type": "declare", "contract": "no-queens"},
        {"type": "trump", "suit": "H"},
        {"type": "rank", "rank": "7"},
        {"type": "pass"},
        {"type": "arrange", "cards": ["AS", "KS", "QS", "JS", "TS", "9H", "8H", "7H", "6H", "5H", "4D", "3D", "2D"]},
        {"type": "act", "id": "a1", "seq": 3, "action": {"type": "play", "card": "2C"}},
        {"type": "hello", "table": "t1", "key": "k", "name": "Ann", "last_seq": 0, "seat": 1},
        {"type": "sync", "last_seq": 4},
        {"type": "ping"},
    ]
    return [json.dumps(v).encode() for v in values]


TARGETS: dict[str, tuple[Callable[[bytes], None], Callable[[], list[bytes]]]] = {
    "record": (record, record_seeds),
    "intent": (intent, intent_seeds),
    "sheet": (sheet_body, sheet_seeds),
}
"""Each target with the seeds of its corpus."""
