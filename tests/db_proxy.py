"""A TCP forwarder on 127.0.0.1 in front of a database, that can cut and restore every connection.

The storage tests and ``benchmarks/soak_outage.py`` point the server at the proxy's port:
:meth:`DbProxy.cut` closes every forwarded connection at once and refuses new ones (as a
database that went away would), :meth:`DbProxy.restore` lets new connections through again.

>>> import socket, threading
>>> echo = socket.create_server(("127.0.0.1", 0))
>>> def serve() -> None:
...     conn, _ = echo.accept()
...     conn.sendall(conn.recv(100).upper())
...     conn.close()
>>> threading.Thread(target=serve, daemon=True).start()
>>> proxy = DbProxy("127.0.0.1", echo.getsockname()[1]).start()
>>> with socket.create_connection(("127.0.0.1", proxy.port)) as c:
...     c.sendall(b"hello")
...     c.recv(100)
b'HELLO'
>>> proxy.close(); echo.close()
"""

from __future__ import annotations

import contextlib
import socket
import threading


class DbProxy:
    """Forward ``127.0.0.1:port`` to ``host:target_port`` on threads, with a switch to cut everything."""

    def __init__(self, host: str, target_port: int) -> None:
        self.target = (host, target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.up = True
        self.cuts = 0
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._closed = False

    def start(self) -> DbProxy:
        """Accept connections on a thread of their own."""
        threading.Thread(target=self._accept, name="db-proxy", daemon=True).start()
        return self

    def cut(self) -> None:
        """Close every forwarded connection now and refuse new ones until :meth:`restore`."""
        with self._lock:
            self.up = False
            self.cuts += 1
            for s in self._open:
                _shut(s)
            self._open.clear()

    def restore(self) -> None:
        """Let connections through again."""
        with self._lock:
            self.up = True

    def close(self) -> None:
        """Stop listening and close everything."""
        self._closed = True
        self.cut()
        _shut(self.listener)

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                up = self.up
            if not up:
                _shut(client)
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
                server.settimeout(None)
            except OSError:
                _shut(client)
                continue
            with self._lock:
                if not self.up:
                    _shut(client)
                    _shut(server)
                    continue
                self._open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        with self._lock:
            self._open.discard(source)
            self._open.discard(sink)
        _shut(source)
        _shut(sink)


def _shut(s: socket.socket) -> None:
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        s.close()
