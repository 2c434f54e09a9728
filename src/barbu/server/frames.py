"""Frames written straight to the socket: the server's WebSocket protocol for uvicorn.

A frame sent through ASGI passes starlette's ``send_text`` and its two exception-handling
wrappers of ``send``, uvicorn's ``send`` coroutine and the ``websockets`` library's framing
(a ``Frame`` object, serialized), and it is sent by a task that must be woken first: most of
what a frame out cost the server (docs/server.md, "Frames written straight to the socket").
:class:`DirectFrames` is uvicorn's own sans-io protocol (``ws="websockets-sansio"``, the one
``ws="auto"`` picks with ``websockets`` installed) with one addition: once the handshake is
done it offers the app, under the ASGI scope's extension ``barbu.write_text``, a plain
function that writes one whole text frame to the transport at once, or says it cannot.

It cannot (and returns False, writing nothing) while the transport's buffer is over its high
mark (``pause_writing``: the reader is slow), once the connection is closing or closed, or
when an extension such as compression was agreed (``barbu serve`` declines them). The app then
queues the frame and sends it through ASGI as before (:class:`barbu.server.app.Connection`),
so a slow reader still fills its bounded outbox and is dropped. Everything else, the handshake,
the frames received, pings, pongs and the close, is uvicorn's and the library's, unchanged.

A frame from the server to a client is never masked (RFC 6455, 5.1): two bytes of header for a
payload under 126 bytes, four under 64 KiB, ten beyond.

>>> text_frame(b'{"type":"pong"}')
b'\\x81\\x0f{"type":"pong"}'
>>> text_frame(b"x" * 200)[:4]
b'\\x81~\\x00\\xc8'
"""

from __future__ import annotations

import struct
from collections.abc import Callable

# uvicorn 0.54 or later (pyproject): its sans-io protocol and the attributes read below are its own
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State

EXTENSION = "barbu.write_text"
"""The ASGI scope's extension (``scope["extensions"][EXTENSION]["write"]``) holding the writer."""

WriteText = Callable[[bytes], bool]
"""Writes a text frame (its payload, UTF-8) at once and returns True, or writes nothing and returns False."""

_FIN_TEXT = 0x81
_SHORT = struct.Struct("!BB")
_MEDIUM = struct.Struct("!BBH")
_LONG = struct.Struct("!BBQ")


def text_frame(payload: bytes) -> bytes:
    """One final, unmasked text frame carrying ``payload`` (RFC 6455, 5.2)."""
    size = len(payload)
    if size < 126:
        return _SHORT.pack(_FIN_TEXT, size) + payload
    if size < 65536:
        return _MEDIUM.pack(_FIN_TEXT, 126, size) + payload
    return _LONG.pack(_FIN_TEXT, 127, size) + payload


def writer(scope: dict[str, object] | object) -> WriteText | None:
    """The frame writer a connection's ASGI scope offers, or None (another server, or a test client).

    >>> writer({"type": "websocket", "extensions": {}}) is None
    True
    """
    extensions = scope.get("extensions") if isinstance(scope, dict) else None
    found = extensions.get(EXTENSION) if isinstance(extensions, dict) else None
    write = found.get("write") if isinstance(found, dict) else None
    return write if callable(write) else None


class DirectFrames(WebSocketsSansIOProtocol):
    """uvicorn's sans-io WebSocket protocol, offering the app a frame writer it calls without awaiting."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # accepted as a WebSocket upgrade
            extensions: dict[str, object] = self.scope["extensions"]  # type: ignore[assignment]
            extensions[EXTENSION] = {"write": self.write_text}

    def write_text(self, payload: bytes) -> bool:
        """Write one text frame now if the connection is open and its buffer under the high mark."""
        if (
            not self.handshake_complete  # the app has not accepted the connection yet
            or self.close_sent
            or self.disconnected
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions
            or self.conn.writes  # never ahead of bytes the library has yet to hand over
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(text_frame(payload))
        return True


__all__ = ["EXTENSION", "DirectFrames", "WriteText", "text_frame", "writer"]
