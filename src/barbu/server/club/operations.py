"""Operations: ``/healthz``, ``/readyz``, Prometheus ``/metrics`` and JSON log lines.

- ``GET /healthz``: the process answers (200 ``{"status": "ok"}``), nothing else is checked;
- ``GET /readyz``: the database answers a query and the server is not shutting down (200), else
  503 with the reason: a proxy stops sending new connections to a process that is not ready;
- ``GET /metrics``: the Prometheus text format, from a registry of the app's own:
  ``barbu_tables_live``, ``barbu_connections``, ``barbu_action_seconds`` (a person's action,
  from its arrival to its broadcast, the commit included), ``barbu_bot_think_seconds`` (a bot's
  choice), ``barbu_games_finished_total``, ``barbu_logins_total{result}``,
  ``barbu_journal_commits_total`` and ``barbu_journal_actions_total`` (the journal's committed
  transactions and the actions they held: their ratio is the actions a commit),
  ``barbu_loop_lag_seconds`` (how late a timer fired on the event loop, looked at ten times a
  second: what every connection of the process waits for whatever runs on the loop),
  ``barbu_gc_pause_seconds{generation}`` (each pass of the garbage collector: the whole process
  waits for it).

:class:`JsonLines` formats log records as one JSON object a line (``barbu serve --log-json``).

>>> import json, logging
>>> line = JsonLines().format(logging.LogRecord("barbu", logging.INFO, "x", 1, "table %s", ("t1",), None))
>>> json.loads(line)["message"]
'table t1'
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LAG_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)


class _JournalCounts:
    """The journal's own counts, read when the metrics are collected."""

    def __init__(self, journal: Callable[[], tuple[int, int]]) -> None:
        self.journal = journal

    def collect(self) -> list[Metric]:
        commits, actions = self.journal()
        return [
            CounterMetricFamily("barbu_journal_commits", "transactions the journal committed", value=commits),
            CounterMetricFamily("barbu_journal_actions", "actions in the journal's commits", value=actions),
        ]


class Metrics:
    """The app's Prometheus metrics, in a registry of its own (several apps may live in one process).

    ``journal`` says how many transactions the journal committed and how many actions they held.
    """

    def __init__(
        self, tables: Callable[[], int], connections: Callable[[], int], journal: Callable[[], tuple[int, int]]
    ) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(_JournalCounts(journal))
        live = Gauge("barbu_tables_live", "tables in memory", registry=self.registry)
        live.set_function(lambda: float(tables()))
        conns = Gauge("barbu_connections", "WebSocket connections seated or watching", registry=self.registry)
        conns.set_function(lambda: float(connections()))
        self.action = Histogram(
            "barbu_action_seconds",
            "a person's action: arrival to broadcast",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.bot = Histogram(
            "barbu_bot_think_seconds", "a bot's choice of action", buckets=LATENCY_BUCKETS, registry=self.registry
        )
        self.lag = Histogram(
            "barbu_loop_lag_seconds",
            "how late a timer fired on the event loop",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.collections = Histogram(
            "barbu_gc_pause_seconds",
            "a pass of the garbage collector, by generation",
            ["generation"],
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.finished = Counter("barbu_games_finished", "games played to their end", registry=self.registry)
        self.logins = Counter("barbu_logins", "log-in attempts", ["result"], registry=self.registry)

    def observe(self, kind: str, seconds: float) -> None:
        """Record a timing: ``action``, ``bot`` or ``lag``."""
        {"action": self.action, "bot": self.bot, "lag": self.lag}[kind].observe(seconds)

    def collection(self, generation: int, seconds: float) -> None:
        """Record a pass of the garbage collector over ``generation`` (0 to 2)."""
        self.collections.labels(str(generation)).observe(seconds)

    def text(self) -> tuple[bytes, str]:
        """The exposition and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


class JsonLines(logging.Formatter):
    """One JSON object per log line: time, level, logger, message (and the exception, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def use_json_logs(level: int = logging.INFO) -> None:
    """Send the ``barbu`` and ``uvicorn`` loggers' records to stderr as JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    for name in ("barbu", "uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False


__all__ = ["JsonLines", "Metrics", "use_json_logs"]
