"""The web app: ``barbu serve`` runs live tables over WebSockets, stored as action logs.

Layers, each in its own module, over the database of :mod:`barbu.storage` (SQLAlchemy,
Alembic migrations; actions travel as the core's :func:`barbu.actions.action_to_json`):
:mod:`~barbu.server.journal` (durable group commit), :mod:`~barbu.server.tables` (the authoritative live tables, bots,
takeover), :mod:`~barbu.server.protocol` (messages, frames, typed errors, limits) and
:mod:`~barbu.server.app` (FastAPI routes, the WebSocket and the pages in ``static/``).

>>> parser = serve_parser()
>>> args = parser.parse_args(["--port", "9000", "--bot-delay", "0.2"])
>>> args.host, args.port, args.db, args.bot_delay
('127.0.0.1', 9000, 'sqlite:///barbu.db', 0.2)
"""

from __future__ import annotations

import argparse


def serve_parser() -> argparse.ArgumentParser:
    """The options of ``barbu serve``."""
    p = argparse.ArgumentParser(prog="barbu serve", description="Serve the Barbu web app: lobby, tables, bots.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument(
        "--db",
        default="sqlite:///barbu.db",
        help="database URL: sqlite:///FILE (default ./barbu.db) or postgresql://USER@HOST:PORT/DB",
    )
    p.add_argument("--bot-delay", type=float, default=0.8, help="seconds a bot waits before it acts (default 0.8)")
    p.add_argument(
        "--takeover-after",
        type=float,
        default=60.0,
        help="seconds after a person leaves before a bot plays their turns (default 60)",
    )
    p.add_argument(
        "--tables-per-client", type=int, default=10, help="unfinished tables one address may create (default 10)"
    )
    p.add_argument("--connections-per-client", type=int, default=64, help="open WebSockets per address (default 64)")
    p.add_argument(
        "--actions-per-second", type=float, default=10.0, help="actions one connection may send a second (default 10)"
    )
    p.add_argument(
        "--messages-per-second", type=float, default=30.0, help="messages one connection may send a second (default 30)"
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help="an origin (https://host[:port]) besides the server's own whose pages may change things, "
        "e.g. the public address of a proxy in front of it; repeat for several",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level (default warning)")
    return p


def serve_main(argv: list[str]) -> int:
    """Run ``barbu serve`` with ``argv``; returns the exit status."""
    args = serve_parser().parse_args(argv)
    if args.bot_delay < 0 or args.takeover_after < 0:
        print("barbu serve: --bot-delay and --takeover-after are seconds, 0 or more")
        return 2
    from barbu.server.origin import OriginError, normalise_origin

    try:
        origins = tuple(normalise_origin(o) for o in args.allow_origin)
    except OriginError as e:
        print(f"barbu serve: --allow-origin: {e}")
        return 2
    import uvicorn

    from barbu.server.app import create_app
    from barbu.server.protocol import Limits
    from barbu.server.tables import Settings
    from barbu.storage import Store, StoreError

    try:  # open and migrate the database now: a wrong --db is one line, before anything is served
        store = Store(args.db)
        try:
            store.migrate()
        finally:
            store.dispose()
    except StoreError as e:
        print(f"barbu serve: {e}")
        return 2

    settings = Settings(
        bot_delay=args.bot_delay,
        takeover_after=args.takeover_after,
        limits=Limits(
            tables_per_client=args.tables_per_client,
            connections_per_client=args.connections_per_client,
            actions_per_second=args.actions_per_second,
            action_burst=max(10, int(args.actions_per_second)),
            messages_per_second=args.messages_per_second,
            message_burst=max(60, int(2 * args.messages_per_second)),
        ),
        allowed_origins=origins,
    )
    try:
        app = create_app(args.db, settings)
    except StoreError as e:
        print(f"barbu serve: {e}")
        return 2
    print(f"barbu: serving on http://{args.host}:{args.port} (database {args.db})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=65536,  # a frame past this closes the connection; the protocol's own limit is lower
        ws_per_message_deflate=False,  # frames are small patches: compressing them costs more CPU than it saves
    )
    return 0


__all__ = ["serve_main", "serve_parser"]
