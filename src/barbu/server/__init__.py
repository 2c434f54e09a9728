"""The web app: ``barbu serve`` runs live tables over WebSockets, stored as action logs.

Layers, each in its own module, over the database of :mod:`barbu.storage` (SQLAlchemy,
Alembic migrations; actions travel as the core's :func:`barbu.actions.action_to_json`):
:mod:`~barbu.server.journal` (durable group commit), :mod:`~barbu.server.tables` (the authoritative live tables, bots,
takeover), :mod:`~barbu.server.protocol` (messages, frames, typed errors),
:mod:`~barbu.server.limits` (what a client may cost), :mod:`~barbu.server.catchup` (recent views) and
:mod:`~barbu.server.app` (FastAPI routes, the WebSocket and the pages in ``static/``).

>>> parser = serve_parser()
>>> args = parser.parse_args(["--port", "9000", "--bot-delay", "0.2"])
>>> args.host, args.port, args.db, args.bot_delay
('127.0.0.1', 9000, 'sqlite:///barbu.db', 0.2)
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from barbu.language import N_, _, error_text
from barbu.usage import CommandParser, UsageError, database_url, number, os_reason, whole_number

if TYPE_CHECKING:
    from barbu.server.cluster import ClusterSettings

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")
"""The log levels of uvicorn."""

WS_PING_INTERVAL = 45.0
"""Seconds between the server's keep-alive pings on a quiet WebSocket (uvicorn's default is 20).

A ping finds a connection whose peer vanished without closing it (closed once its pong is 20 s
late: within 65 s, where 40 s before; a page closed or a network that says so is seen at once) and
keeps proxies from closing an idle one: 45 s stays under the 60 s idle timeout common to proxies
and load balancers. Each ping and its pong pass uvicorn's pure-Python WebSocket layer: 2.25 times
fewer of them than at 20 s is server CPU given back to the tables (docs/server.md).
"""


def serve_parser() -> argparse.ArgumentParser:
    """The options of ``barbu serve``; each number is checked against its range as it is read."""
    p = CommandParser(prog="barbu serve", description=N_("Serve the Barbu web app: lobby, tables, bots."))
    p.add_argument("--host", default="127.0.0.1", help=N_("address to listen on (default 127.0.0.1)"))
    p.add_argument("--port", type=whole_number(0, 65535), default=8000, help=N_("port to listen on (default 8000)"))
    p.add_argument(
        "--db",
        default="sqlite:///barbu.db",
        help=N_("database URL: sqlite:///FILE (default ./barbu.db) or postgresql://USER@HOST:PORT/DB"),
    )
    p.add_argument(
        "--bot-delay", type=number(0), default=0.8, help=N_("seconds a bot waits before it acts (default 0.8)")
    )
    p.add_argument(
        "--bot-budget",
        action="append",
        default=[],
        metavar="LEVEL:KEY=VALUE,...",
        help=N_(
            "the thinking budget of every bot of a level: search takes iterations (worlds) and seconds, "
            "expert ms and worlds, null for no limit (e.g. search:iterations=16,seconds=null); settings not "
            "given keep their defaults; the level keeps its name on the ladder; repeat for several levels"
        ),
    )
    p.add_argument(
        "--takeover-after",
        type=number(0),
        default=60.0,
        help=N_("seconds after a person leaves before a bot plays their turns (default 60)"),
    )
    p.add_argument(
        "--abandon-after",
        type=number(0, above=True),
        default=120.0,
        help=N_("seconds the other players have to refuse a proposal to abandon a table (default 120)"),
    )
    p.add_argument(
        "--commit-gather",
        type=number(0),
        default=0.005,
        metavar="SECONDS",
        help=N_(
            "seconds the idle journal waits after an action before committing it, so that the actions "
            "of the next moments share its commit (default 0.005; 0 commits at once)"
        ),
    )
    p.add_argument(
        "--tables-per-client",
        type=whole_number(1),
        default=10,
        help=N_("unfinished tables one address may create (default 10)"),
    )
    p.add_argument(
        "--connections-per-client",
        type=whole_number(1),
        default=64,
        help=N_("open WebSockets per address (default 64)"),
    )
    p.add_argument(
        "--actions-per-second",
        type=number(0, above=True),
        default=10.0,
        help=N_("actions one connection may send a second (default 10)"),
    )
    p.add_argument(
        "--messages-per-second",
        type=number(0, above=True),
        default=30.0,
        help=N_(
            "cost units one connection may spend a second (a ping costs 1; default 30); "
            "an address may spend 4 times as much, the watchers of a table twice as much"
        ),
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="URL",
        help=N_(
            "an origin (https://host[:port]) besides the server's own whose pages may change things, "
            "e.g. the public address of a proxy in front of it; repeat for several"
        ),
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help=N_(
            "a name this server answers to besides IP addresses, localhost and the hosts of --allow-origin "
            "(requests to any other name are refused against DNS rebinding); * for every name; repeat for several"
        ),
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help=N_(
            "run as one of several processes sharing a PostgreSQL --db and this Redis server "
            "(redis://HOST:PORT/DB): any process serves any connection, a table moves when its process stops"
        ),
    )
    p.add_argument(
        "--redis-prefix",
        default="barbu",
        help=N_("prefix of the Redis keys and channels: processes with the same one form one server (default barbu)"),
    )
    p.add_argument(
        "--lease-seconds",
        type=number(0.5),
        default=4.0,
        help=N_("seconds a table stays with a process that stopped answering before another takes it (default 4)"),
    )
    p.add_argument("--log-level", choices=LOG_LEVELS, default="warning", help=N_("uvicorn log level (default warning)"))
    p.add_argument(
        "--log-json", action="store_true", help=N_("write log lines as JSON objects (time, level, logger, message)")
    )
    return p


def serve_main(argv: list[str]) -> int:
    """Run ``barbu serve`` with ``argv``; returns the exit status.

    The arguments and the database are checked before the server starts: a mistake raises
    :class:`~barbu.usage.UsageError`, which ``barbu`` prints on one line (exit status 2).
    """
    args = serve_parser().parse_args(argv)
    from barbu.server.origin import OriginError, normalise_host, normalise_origin

    try:
        origins = tuple(normalise_origin(o) for o in args.allow_origin)
    except OriginError as e:
        raise UsageError(_("{where}: {why}", where="--allow-origin", why=error_text(e))) from None
    try:
        hosts = tuple(normalise_host(h) for h in args.allow_host)
    except OriginError as e:
        raise UsageError(_("{where}: {why}", where="--allow-host", why=error_text(e))) from None
    database_url(args.db)
    budgets = bot_budgets(args.bot_budget)
    _check_address(args.host, args.port)
    cluster_settings = None
    if args.redis is not None:  # checked first: a mistake here touches no database
        cluster_settings = _cluster(args.redis, args.redis_prefix, args.lease_seconds, args.db)
    _open_database(args.db)
    import uvicorn

    from barbu.server.app import create_app
    from barbu.server.limits import Limits
    from barbu.server.tables import Settings
    from barbu.storage import StoreError

    settings = Settings(
        bot_delay=args.bot_delay,
        bot_budgets=budgets,
        takeover_after=args.takeover_after,
        abandon_after=args.abandon_after,
        commit_gather=args.commit_gather,
        limits=Limits(
            tables_per_client=args.tables_per_client,
            connections_per_client=args.connections_per_client,
            actions_per_second=args.actions_per_second,
            action_burst=max(10, int(args.actions_per_second)),
            messages_per_second=args.messages_per_second,
            message_burst=max(80, int(2 * args.messages_per_second)),
            address_per_second=4 * args.messages_per_second,
            address_burst=max(240, int(8 * args.messages_per_second)),
            table_per_second=2 * args.messages_per_second,
            table_burst=max(160, int(4 * args.messages_per_second)),
        ),
        allowed_origins=origins,
        allowed_hosts=hosts,
    )
    try:
        app = create_app(args.db, settings, cluster_settings)
    except StoreError as e:
        where = f"--db {args.db}"
        raise UsageError(_("{where}: {why}", where=where, why=error_text(e))) from None
    shared = f", Redis {args.redis}" if args.redis else ""
    print(f"barbu: serving on http://{args.host}:{args.port} (database {args.db}{shared})", flush=True)
    if args.log_json:
        import logging

        from barbu.server.club.operations import use_json_logs

        use_json_logs(getattr(logging, args.log_level.upper(), logging.WARNING))
    from barbu.server.frames import DirectFrames

    uvicorn.run(
        app,
        ws=DirectFrames,  # uvicorn's sans-io WebSocket protocol, frames written without a task's wake-up
        log_config=None if args.log_json else uvicorn.config.LOGGING_CONFIG,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=65536,  # a frame past this closes the connection; the protocol's own limit is lower
        ws_per_message_deflate=False,  # frames are small patches: compressing them costs more CPU than it saves
        ws_ping_interval=WS_PING_INTERVAL,
    )
    return 0


def bot_budgets(texts: list[str]) -> dict[str, dict[str, Any]]:
    """The levels' thinking budgets of ``--bot-budget`` (:func:`~barbu.bots.parse_budget`), each level once.

    A refusal is a :class:`~barbu.usage.UsageError` in the language of the environment
    (``LANG=fr_FR.UTF-8``), saying what is allowed:

    >>> bot_budgets(["search:iterations=16,seconds=null", "expert:worlds=64,ms=null"])
    {'search': {'iterations': 16, 'seconds': None}, 'expert': {'worlds': 64, 'ms': None}}
    >>> bot_budgets(["search:iterations=8", "search:iterations=16"])
    Traceback (most recent call last):
    ...
    barbu.usage.UsageError: --bot-budget: search is given twice; give each level's budget once
    """
    from barbu.bots import parse_budget
    from barbu.bots.errors import BotError
    from barbu.errors import N_
    from barbu.language import from_environment, speaking, translate

    budgets: dict[str, dict[str, Any]] = {}
    with speaking(from_environment()):
        for text in texts:
            try:
                level, settings = parse_budget(text)
            except BotError as e:
                raise UsageError(_("{where}: {why}", where="--bot-budget", why=error_text(e))) from None
            if level in budgets:
                twice = N_("{level} is given twice; give each level's budget once", level=level)
                raise UsageError(_("{where}: {why}", where="--bot-budget", why=translate(twice)))
            budgets[level] = settings
    return budgets


def _check_address(host: str, port: int) -> None:
    """Refuse an address this machine cannot listen on (not its own, or the port taken)."""
    import socket

    try:
        family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (OSError, UnicodeError):
        raise UsageError(
            _("--host {host} is not an address; give one of this machine's, e.g. 127.0.0.1 or 0.0.0.0", host=host)
        ) from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        try:
            probe.bind(address)
        except OSError as e:
            raise UsageError(
                _(
                    "cannot listen on --host {host} --port {port} ({why}); "
                    "give a free port and an address of this machine",
                    host=host,
                    port=port,
                    why=os_reason(e),
                )
            ) from None


def _cluster(url: str, prefix: str, lease: float, db: str) -> ClusterSettings:
    """The settings of a process of several, once Redis answered (else a one-line refusal)."""
    if not db.startswith("postgresql"):
        shared = "postgresql://USER@HOST:PORT/DB"
        raise UsageError(
            _("--redis needs a PostgreSQL --db that every process shares ({shared}), not {db}", shared=shared, db=db)
        )
    try:
        import redis
    except ImportError:
        raise UsageError(_("--redis needs the redis package: pip install 'barbu[cluster]'")) from None
    from barbu.server.cluster import ClusterSettings

    try:
        client = redis.Redis.from_url(url, socket_timeout=5)
        client.ping()
        client.close()
    except (ValueError, redis.RedisError) as e:
        raise UsageError(
            _("--redis {url}: Redis does not answer ({why}); give redis://HOST:PORT/DB", url=url, why=str(e))
        ) from None
    return ClusterSettings(url, prefix=prefix, lease_seconds=lease)


def _open_database(url: str) -> None:
    """Open and migrate the database once, so that one the server cannot use (unreachable,
    not a database at all) is refused before it starts, in the driver's words."""
    from sqlalchemy.exc import SQLAlchemyError

    from barbu.storage import Store, StoreError

    where = f"--db {url}"
    try:
        store = Store(url)
    except StoreError as e:
        raise UsageError(_("{where}: {why}", where=where, why=error_text(e))) from None
    try:
        store.migrate()
    except StoreError as e:
        raise UsageError(_("{where}: {why}", where=where, why=error_text(e))) from None
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        raise UsageError(
            _("--db {url}: cannot open the database ({why}); give a barbu database or a new file", url=url, why=reason)
        ) from None
    finally:
        store.dispose()


__all__ = ["serve_main", "serve_parser"]
