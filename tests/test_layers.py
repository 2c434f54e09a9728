"""The layering contracts of pyproject.toml name every module of the core and every outer package.

``lint-imports`` checks the contracts themselves (in ``.ci/run``); these tests make sure a new
module cannot slip past them by not being named, and that the tests' fast lane stays fast.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import barbu

PACKAGE = Path(barbu.__file__).parent
PYPROJECT = PACKAGE.parent.parent / "pyproject.toml"


def _contract(name_start: str) -> dict[str, Any]:
    contracts = tomllib.loads(PYPROJECT.read_text())["tool"]["importlinter"]["contracts"]
    found: list[dict[str, Any]] = [c for c in contracts if c["name"].startswith(name_start)]
    assert len(found) == 1, f"one contract named {name_start!r} expected in pyproject.toml"
    return found[0]


def _core_modules() -> set[str]:
    return {"barbu"} | {f"barbu.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")}


def _outer_packages() -> set[str]:
    return {f"barbu.{p.parent.name}" for p in PACKAGE.glob("*/__init__.py")}


def test_every_core_module_is_held_by_the_core_contract() -> None:
    listed = set(_contract("The core imports nothing")["source_modules"])
    missing = sorted(_core_modules() - listed)
    assert not missing, f"add {missing} to source_modules of the core contract in pyproject.toml"
    assert not listed - _core_modules(), f"the core contract names modules that are gone: {listed - _core_modules()}"


def test_the_core_may_import_no_outer_package() -> None:
    forbidden = set(_contract("The core imports nothing")["forbidden_modules"])
    expected = {name for p in _outer_packages() for name in (p, f"{p}.**")}
    assert forbidden == expected, f"forbidden_modules of the core contract should be {sorted(expected)}"


def test_every_outer_package_has_a_layer() -> None:
    layers = _contract("The outer layers")["layers"]
    named = {f"barbu.{part.strip()}" for layer in layers for part in layer.split("|")}
    assert named == _outer_packages(), f"layers name {sorted(named)}, the packages are {sorted(_outer_packages())}"


BEYOND_THE_FAST_LANE = (
    "alembic",
    "fastapi",
    "fpdf",
    "gymnasium",
    "httpx",
    "importlinter",
    "matplotlib",
    "numpy",
    "open_spiel",
    "pettingzoo",
    "playwright",
    "psycopg",
    "pyspiel",
    "rich",
    "sqlalchemy",
    "starlette",
    "textual",
    "uvicorn",
    "websockets",
)
"""The libraries of barbu's dependencies and extras, which the fast lane must not import."""

WITHOUT_THEM = """
import importlib.abc, sys
blocked = set(sys.argv[1].split(","))
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"the fast lane imports {name}", name=name)
sys.meta_path.insert(0, Refuse())
try:
    import fastapi
except ModuleNotFoundError:
    pass
else:
    raise SystemExit("the refusing importer does not work")
import pytest
sys.exit(pytest.main(["-p", "no:cacheprovider", "--collect-only", "-q", "-m", "core or record"]))
"""


def test_the_fast_lane_collects_without_any_library_beyond_pytest_and_hypothesis() -> None:
    """``-m "core or record"`` imports its test modules, the conftests and the core's doctests only."""
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_THEM, ",".join(BEYOND_THE_FAST_LANE)],
        cwd=PYPROJECT.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "tests/test_cards.py" in done.stdout and "src/barbu/record.py" in done.stdout
    assert "test_server_" not in done.stdout and "src/barbu/server" not in done.stdout
