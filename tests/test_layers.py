"""The layering contracts of pyproject.toml name every module of the core and every outer package.

``lint-imports`` checks the contracts themselves (in ``.ci/run``); these tests make sure a new
module cannot slip past them by not being named.
"""

from __future__ import annotations

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
