"""DNS rebinding: ``barbu serve`` answers only to the names it knows.

A page of ``evil.example`` whose name is re-pointed at 127.0.0.1 after it loaded sends
requests whose ``Origin`` and ``Host`` agree (``http://evil.example:PORT``), so the
cross-origin checks alone would let it read and play. The server refuses any ``Host`` that
is not an IP address, ``localhost`` or a name given with ``--allow-host`` (or the host of an
``--allow-origin``), on reads as on writes and on the WebSocket handshake, with a typed 400
that says how to allow a name.
"""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path

import httpx
import pytest
import websockets

with warnings.catch_warnings():  # starlette's test client asks for httpx2 over httpx; both drive the app the same way
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from barbu.server import serve_main
from barbu.server.app import create_app
from barbu.server.client import ServerProcess
from barbu.server.tables import Settings
from barbu.usage import UsageError
from conftest import QUICK_COMMITS


def test_a_real_server_refuses_a_rebound_name_on_reads_writes_and_handshakes(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'real.db'}", *QUICK_COMMITS, "--allow-host", "barbu.example") as server:
        port = server.http.rsplit(":", 1)[1]
        made = httpx.post(server.http + "/api/tables", json={"variant": "classic"}).json()
        rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        for method, path, body in [
            ("GET", "/", None),
            ("GET", "/api/tables?status=open", None),
            ("POST", "/api/tables", {"variant": "classic"}),
        ]:
            res = httpx.request(method, server.http + path, json=body, headers=rebound)
            assert res.status_code == 400, (method, path, res.text)
            error = res.json()["error"]
            assert error["code"] == "unknown_host"
            assert "'evil.example'" in error["message"] and "barbu.example" in error["message"]
        # nothing was created by the refused POST
        assert [t["id"] for t in httpx.get(server.http + "/api/tables?status=open").json()] == [made["table"]]
        # known names: an IP address (the client's own), localhost, the allowed name
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"Barbu.Example:{port}", "barbu.example"):
            assert httpx.get(server.http + "/api/tables?status=open", headers={"Host": host}).status_code == 200

        async def handshakes() -> None:
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with websockets.connect(
                    server.ws, additional_headers={"Host": f"evil.example:{port}"}, origin=None
                ):
                    pass
            assert refused.value.response.status_code == 403
            async with websockets.connect(server.ws) as ws:
                await ws.send(json.dumps({"type": "hello", "table": made["table"]}))
                assert json.loads(await ws.recv())["type"] == "welcome"

        asyncio.run(handshakes())


def test_an_allowed_origin_names_a_host_and_star_answers_every_name(tmp_path: Path) -> None:
    settings = Settings(allowed_origins=("https://barbu.example",), allowed_hosts=())
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", settings), base_url="https://barbu.example") as c:
        assert c.get("/api/tables").status_code == 200
        refused = c.get("/api/tables", headers={"Host": "rebound.example"})
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "unknown_host"
        with pytest.raises(WebSocketDisconnect) as closed, c.websocket_connect("/ws", headers={"Host": "x.example"}):
            pass
        assert closed.value.code == 1008
    anyone = Settings(allowed_hosts=("*",))
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.db'}", anyone), base_url="http://any.example") as c:
        assert c.get("/api/tables").status_code == 200


def test_an_application_without_a_host_list_leaves_host_to_what_is_in_front() -> None:
    with TestClient(create_app("sqlite://"), base_url="http://testserver") as c:
        assert c.get("/api/tables").status_code == 200


def test_serve_checks_its_allowed_hosts() -> None:
    for bad in ["https://barbu.example", "barbu.example:8000", "bar bu", "barbu..example", "_x.example"]:
        with pytest.raises(UsageError) as refused:
            serve_main(["--allow-host", bad, "--db", "sqlite://"])
        assert refused.value.message.startswith("--allow-host") and repr(bad) in refused.value.message
