"""schemathesis over the HTTP API's OpenAPI description: every operation, no 5xx, typed errors.

The app is served in this process (uvicorn on a thread, loopback) on a fresh SQLite file
holding one table and one sheet, so that generated paths also reach real ids. Routes that
read a JSON body themselves (table creation, every sheet change) declare none in the
description, so the test adds "any JSON object" as their body: schemathesis then sends
random objects there too. Each response must not be a 5xx, must have a content type and
body the description allows, and every 4xx must be the API's typed error (an ``error``
object with a ``code`` or ``kind`` and a ``message`` free of Python internals).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from barbu.server.app import create_app
from barbu.server.client import ServerThread

EXAMPLES = 12
"""Generated requests per operation (the whole module stays within a few seconds of CPU)."""

INTERNALS = ("Traceback", "Error:", "Exception", 'File "', "object at 0x", "errno", "NoneType")


def described(app: Any) -> dict[str, Any]:
    """The app's OpenAPI description, with a JSON object body on the routes that read one themselves."""
    raw = copy.deepcopy(app.openapi())
    for path, item in raw["paths"].items():
        for method, operation in item.items():
            declared = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "path"}
            for name in re.findall(r"{(\w+)}", path):
                if name not in declared:  # a route that reads its path itself
                    operation.setdefault("parameters", []).append(
                        {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                    )
            if method in ("post", "patch") and "requestBody" not in operation:
                operation["requestBody"] = {
                    "required": True,
                    "content": {"application/json": {"schema": {"type": "object"}}},
                }
    return raw


SCHEMA = schemathesis.openapi.from_dict(described(create_app("sqlite://")))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("http") / "barbu.db"
    with ServerThread(create_app(f"sqlite:///{db}")) as s:
        made = httpx.post(s.http + "/api/tables", json={"variant": "classic", "seats": [{"kind": "human"}] * 4})
        assert made.status_code == 200, made.text
        sheet = httpx.post(s.http + "/api/sheets", json={"variant": "classic"})
        assert sheet.status_code == 200, sheet.text
        s.ids = {"table_id": made.json()["table"], "sheet_id": sheet.json()["id"]}  # type: ignore[attr-defined]
        yield s


def typed_error(response: Any) -> None:
    """A 4xx answer is the API's error object, with a message meant for a person."""
    if not 400 <= response.status_code < 500:
        return
    body = json.loads(response.content)
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(body, dict) and set(body) == {"detail"} and response.status_code in (404, 405, 422):
        # the framework's own answers: no such route or method, a declared parameter that is not a number
        assert not [w for w in INTERNALS if w in json.dumps(body)], body
        return
    assert isinstance(error, dict), f"{response.status_code} without an error object: {body!r}"
    assert isinstance(error.get("code") or error.get("kind"), str), error
    message = error.get("message")
    assert isinstance(message, str) and message, error
    leaked = [w for w in INTERNALS if w in message]
    assert not leaked, f"the message shows Python internals ({leaked}): {message}"


@SCHEMA.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_answers_without_a_server_error(case: Any, server: ServerThread) -> None:
    response = case.call(base_url=server.http)
    case.validate_response(response, checks=[not_a_server_error, content_type_conformance, response_schema_conformance])
    typed_error(response)


HOSTILE_BODIES: list[bytes] = [
    b'{"variant": "classic", "players": ["x\\ud800", "b", "c", "d"], "title": "\\udfff"}',
    b'{"variant": "classic", "seats": [{"kind": "human", "name": "x\\ud800"}, {"kind": "bot"}, '
    b'{"kind": "bot"}, {"kind": "bot"}]}',
    b'{"title": "x\\ud800"}',
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 3000 + b"0" + b"}" * 3000,
    b'{"record": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    b'{"change": "add", "entry": ' + b'{"a":' * 3000 + b"0" + b"}" * 3000 + b"}",
    b"\xff\xfe\x00{",
    b"null",
    b"[]",
    b'"text"',
    b"1e999",
    b'{"first_declarer": 1e308, "variant": "classic"}',
    b'{"first_declarer": true}',
    b'{"first_declarer": NaN}',
    b'{"deal": 99999999999999999999999, "changes": {"1": {}}}',
    b'{"variant": {"__proto__": {"x": 1}}, "options": []}',
    b'{"title": "<img src=x onerror=alert(1)>"}',
    b'{"title": "' + b"A" * 70000 + b'"}',
    b'{"declarer": 0, "contract": "no-queens", "doubles": [[[[]]]], "seat": 1, "word": "maximum"}',
    b'{"record": "{\\"format\\": \\"barbu-record/1\\", \\"variant\\": \\"classic\\", \\"deals\\": [1]}"}',
]
"""Bodies found hostile elsewhere: lone surrogates, nesting past the decoder, bytes that are not UTF-8,
JSON that is not an object, numbers past a float, NaN, markup, a body past the size limit."""


def body_routes() -> list[tuple[str, str]]:
    out = []
    for path, item in SCHEMA.raw_schema["paths"].items():
        for method in item:
            if method in ("post", "patch"):
                out.append((method.upper(), path))
    return sorted(out)


@pytest.mark.parametrize(("method", "path"), body_routes())
def test_every_body_route_refuses_hostile_bodies_with_a_typed_error(
    method: str, path: str, server: ServerThread
) -> None:
    url = server.http + path.format(**server.ids)  # type: ignore[attr-defined]
    with httpx.Client(timeout=30) as client:
        for body in HOSTILE_BODIES:
            response = client.request(method, url, content=body, headers={"content-type": "application/json"})
            assert response.status_code < 500, (body[:80], response.status_code, response.text[:300])
            typed_error(response)
