"""Every test belongs to one layer of the package, named by a pytest marker.

The layers are the markers declared in pyproject.toml: ``core``, ``record``, ``bots``,
``research``, ``sheet``, ``server``, ``browser``, ``tui`` and ``cli``. Each test module gets
its layer here, from its file name (:data:`PREFIXES`, then :data:`MODULES`), and each doctest
of ``src/barbu`` from its module's place (:func:`source_layer`). A test module that has no
layer stops the run with a message saying where to give it one, so no test can fall outside
every lane. A test takes its module's layer: one that needs more than its module belongs in
a module of the layer it needs.

``python -m pytest -m "core or record"`` is the fast lane: only pytest and Hypothesis besides
the core. For a ``-m`` expression, files of a layer it cannot select are not even collected
(so their imports, FastAPI, Playwright, numpy…, need not be installed); without ``-m``,
everything runs, as in CI.

The root ``conftest.py`` loads this plugin, so it applies to ``tests/`` and ``src/barbu`` alike.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest

PREFIXES = {
    "test_bots_": "bots",
    "test_browser_": "browser",
    "test_server_": "server",
    "test_sheet_": "sheet",
    "test_tui": "tui",
}
"""Test modules whose name starts with one of these belong to its layer."""

MODULES = {
    # the rules core
    "test_api": "core",
    "test_cards": "core",
    "test_deal": "core",
    "test_domino": "core",
    "test_doubling": "core",
    "test_game": "core",
    "test_invariants": "core",
    "test_layers": "core",
    "test_native": "core",
    "test_native_batch": "research",
    "test_native_fastdeal": "core",
    "test_perft": "core",
    "test_poker": "core",
    "test_rulesets": "core",
    "test_tricks": "core",
    "test_variants": "core",
    "test_view": "core",
    "test_view_incremental": "core",
    "test_worked_examples": "core",
    # records and replay
    "test_record": "record",
    "test_spec_records": "record",
    # the rest, by the outermost layer each module needs
    "test_external_bot": "bots",
    "test_action_json": "bots",
    "test_unseen": "bots",
    "test_encoding": "research",
    "test_env": "research",
    "test_openspiel": "research",
    "test_research_tasks": "research",
    "test_one_source": "server",
    "test_new_variants": "cli",
    "test_two_decks": "cli",
    "test_table_owners": "server",
    "test_arena": "cli",
    "test_arena_ray": "cli",
    "test_cli": "cli",
    "test_cli_errors": "cli",
    "test_cli_french": "cli",
    "test_coach": "cli",
    "test_strategy": "bots",
    "test_language": "cli",
    "test_errors": "cli",
    "test_fuzz_actions": "server",
    "test_fuzz_harnesses": "server",
    "test_fuzz_http": "server",
    "test_fuzz_protocol": "server",
    "harnesses": "server",
    "run_atheris": "server",
    # helpers the test modules import (their doctests run too)
    "db_proxy": "server",
    "layer_markers": "core",
    "reference_rules": "core",
    "table_setup": "core",
}
"""The layer of each module of ``tests/`` whose name does not start with one of :data:`PREFIXES`."""

SOURCE_PACKAGES = {
    "bots": "bots",
    "research": "research",
    "sheet": "sheet",
    "coach": "bots",
    "storage": "server",
    "server": "server",
    "tui": "tui",
    "arena": "cli",
    "cli": "cli",
    "usage": "cli",
    "language": "cli",
}
"""The layer of the doctests of each package of ``src/barbu``."""

SOURCE_MODULES = {"record": "record", "replay": "record", "__main__": "cli"}
"""The core's modules whose doctests belong to another layer than ``core``."""

LAYERS = frozenset({"core", *PREFIXES.values(), *MODULES.values(), *SOURCE_PACKAGES.values(), *SOURCE_MODULES.values()})
"""Every layer named above: each must be a marker declared in pyproject.toml."""


class NoLayer(pytest.UsageError):
    """A test module or package with no layer."""


def module_layer(path: Path) -> str:
    """The layer of the module of ``tests/`` at ``path``."""
    stem = path.stem
    for prefix, layer in PREFIXES.items():
        if stem.startswith(prefix):
            return layer
    if stem in MODULES:
        return MODULES[stem]
    raise NoLayer(
        f"{path.name} belongs to no layer: give it one in tests/layer_markers.py (a name starting with one "
        f"of {', '.join(PREFIXES)}, or an entry in MODULES); the layers are the markers of pyproject.toml"
    )


def source_layer(parts: tuple[str, ...]) -> str | None:
    """The layer of a path of ``src/barbu`` given as its parts below ``barbu`` (None: the folder itself)."""
    if not parts:
        return None
    head = parts[0]
    if len(parts) == 1 and "." in head:  # a module of the core (or its C source, its built library)
        return SOURCE_MODULES.get(head.partition(".")[0], "core")
    if head in SOURCE_PACKAGES:
        return SOURCE_PACKAGES[head]
    if head == "__pycache__" or head.startswith("."):
        return None
    raise NoLayer(f"src/barbu/{head} belongs to no layer: add it to SOURCE_PACKAGES in tests/layer_markers.py")


def layer_of(path: Path) -> str | None:
    """The layer of a test file or of a path of ``src/barbu``; None for anything else."""
    parts = path.parts
    in_tests = path.parent.name == "tests" or path.parent.parent.name == "tests"  # tests/ and tests/fuzz/
    if in_tests and path.suffix == ".py" and path.name != "conftest.py":
        return module_layer(path)
    for i in range(len(parts) - 1):
        if parts[i] == "src" and parts[i + 1] == "barbu":
            return source_layer(parts[i + 2 :])
    return None


def may_select(layer: str, markexpr: str) -> bool:
    """Whether ``-m markexpr`` can select a test of ``layer`` (True when unsure).

    Names that are not layers may be on a test or not, so every combination is tried.
    """
    try:
        from _pytest.mark.expression import Expression

        expression = Expression.compile(markexpr)
    except Exception:  # pytest reports a bad expression itself
        return True
    others = sorted(set(re.findall(r"[A-Za-z_]\w*", markexpr)) - LAYERS - {"and", "or", "not"})
    if len(others) > 8:
        return True
    return any(
        expression.evaluate(_matcher(layer, dict(zip(others, values, strict=True))))
        for values in itertools.product((False, True), repeat=len(others))
    )


def _matcher(layer: str, others: dict[str, bool]) -> Callable[..., bool]:
    """A ``-m`` matcher for a test of ``layer`` that carries exactly the ``others`` marked True."""

    def matches(name: str, /, **kwargs: object) -> bool:
        return name == layer if name in LAYERS else others.get(name, False)

    return matches


def pytest_configure(config: pytest.Config) -> None:
    declared = {line.split(":")[0].strip() for line in config.getini("markers")}
    missing = sorted(LAYERS - declared)
    if missing:
        raise NoLayer(f"declare the layer markers {missing} among pyproject.toml's pytest markers")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    layer = layer_of(collection_path)
    markexpr = config.option.markexpr
    if layer is not None and markexpr and not may_select(layer, markexpr):
        return True
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its module's layer; a test may not name a layer itself.

    ``-m`` leaves out whole files by their layer, so a test that needs more than its module
    (``barbu replay``'s text output, printed as a table) belongs in a module of that layer.
    """
    for item in items:
        layer = layer_of(item.path)
        if layer is None:
            raise NoLayer(f"{item.nodeid} belongs to no layer: it is neither in tests/ nor in src/barbu")
        own = [m.name for m in item.iter_markers() if m.name in LAYERS]
        if own:
            raise NoLayer(
                f"{item.nodeid} is marked {', '.join(own)}: a test takes its module's layer ({layer}); "
                "move it to a module of the layer it needs"
            )
        item.add_marker(getattr(pytest.mark, layer))
