"""Fixtures shared by the test modules: Debian's Chromium driven by Playwright, and the
server's store on SQLite and on PostgreSQL.

Playwright and the store are imported by the fixtures that use them, so the fast lane
(``-m "core or record"``) runs with only pytest and Hypothesis installed.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from barbu.storage import Store

QUICK_COMMITS = ("--commit-gather", "0")
"""``barbu serve`` options of every test server that plays: its journal commits each action at
once. The server's 5 ms gather window (``Settings.commit_gather``), made so that the actions of
many tables share a commit, would add up to 5 ms to every action a test waits for (a whole game
of ``test_server_game.py`` took five times as long with it). Servers made in the test's process
take ``Settings(commit_gather=QUICK_GATHER)``."""
QUICK_GATHER = 0.0
"""The gather window of the test servers made in the test's process (see :data:`QUICK_COMMITS`)."""

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (Playwright's own browser download is not used)."""
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """A headless Chromium for the module's tests; missing Chromium fails (it never skips)."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


POSTGRES = os.environ.get("BARBU_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@contextmanager
def postgres_schema(port: int | None = None) -> Iterator[str]:
    """A schema of its own on the test PostgreSQL server, dropped afterwards: the URL that uses it.

    With ``port``, the URL goes to 127.0.0.1:``port`` (a proxy in front of the server) instead.
    """
    import psycopg

    schema = f"barbu_test_{secrets.token_hex(4)}"
    plain = POSTGRES.replace("postgresql+psycopg://", "postgresql://")
    try:
        admin = psycopg.connect(plain, connect_timeout=5, autocommit=True)
    except psycopg.OperationalError as e:
        pytest.fail(
            f"PostgreSQL is not reachable at {POSTGRES} ({e}). The storage tests must run on it: start it with "
            "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` "
            "or point BARBU_TEST_POSTGRES at a server with a database you may create schemas in."
        )
    admin.execute(f'CREATE SCHEMA "{schema}"')
    url = POSTGRES
    if port is not None:
        url = re.sub(r"@[^/]*/", f"@127.0.0.1:{port}/", url, count=1)
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def _postgres_store() -> Iterator[Store]:
    """A store in a schema of its own on the test PostgreSQL server, dropped afterwards."""
    from barbu.storage import Store

    with postgres_schema() as url:
        store = Store(url)
        try:
            yield store
        finally:
            store.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """The server's store, once on SQLite and once on PostgreSQL (which must be running)."""
    if request.param == "sqlite":
        from barbu.storage import Store

        s = Store(f"sqlite:///{tmp_path}/store.db")
        yield s
        s.dispose()
    else:
        yield from _postgres_store()
