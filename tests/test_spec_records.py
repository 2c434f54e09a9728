"""`barbu replay --json` against records written from the specification alone.

Every case in ``tests/spec_records/`` is a pair ``NAME.json`` (a record written by hand from
RULES.md and RECORD.md, without looking at the code) and ``NAME.expected.json`` (the output
worked out by hand; the reasoning for each case is in ``tests/spec_records/README.md``).

- valid records (``"valid": true``): the whole output must be equal;
- invalid records: exactly the keys ``valid`` and ``error``, and the error's ``deal``,
  ``kind``, ``index`` and ``seat`` must be the expected ones (the message is free text);
- unreadable input (``"usage"`` expected): exactly the keys ``valid`` and ``usage``.

The cases run in-process through the ``barbu`` command's entry point (fast); a few also run
as a real subprocess to check the exit codes 0, 1 and 2 and standard input.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from barbu.cli import main as barbu_main

CASES_DIR = Path(__file__).parent / "spec_records"
NAMES = sorted(p.name[: -len(".expected.json")] for p in CASES_DIR.glob("*.expected.json"))
BARBU = Path(sys.executable).parent / "barbu"


def _expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES_DIR / f"{name}.expected.json").read_text())
    return data


def _replay_in_process(path: Path) -> tuple[int, dict[str, Any]]:
    """Run ``barbu replay PATH --json`` through the console entry point, in this process."""
    out = io.StringIO()
    old_argv = sys.argv
    sys.argv = ["barbu", "replay", str(path), "--json"]
    code: object = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            try:
                code = barbu_main()
            except SystemExit as stop:
                code = stop.code
    finally:
        sys.argv = old_argv
    text = out.getvalue()
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) >= 1, f"no output for {path.name}"
    return int(code or 0), json.loads(text)


def _check(name: str, code: int, actual: dict[str, Any]) -> None:
    expected = _expected(name)
    if "usage" in expected:
        assert set(actual) == {"valid", "usage"}, actual
        assert actual["valid"] is False and isinstance(actual["usage"], str)
        assert code == 2
    elif expected["valid"]:
        assert code == 0, actual
        assert actual == expected
    else:
        assert code == 1, actual
        assert set(actual) == {"valid", "error"}, actual
        assert actual["valid"] is False
        error = actual["error"]
        assert isinstance(error.get("message"), str) and error["message"]
        got = {key: error.get(key) for key in ("deal", "kind", "index", "seat")}
        assert got == expected["error"], error.get("message")


def test_cases_are_documented() -> None:
    """Every case has its record and a reasoning row in the README table."""
    table = (CASES_DIR / "README.md").read_text()
    assert len(NAMES) >= 40
    for name in NAMES:
        assert (CASES_DIR / f"{name}.json").is_file(), name
        assert f"| `{name}` |" in table, name


@pytest.mark.parametrize("name", NAMES)
def test_spec_record(name: str) -> None:
    code, actual = _replay_in_process(CASES_DIR / f"{name}.json")
    _check(name, code, actual)


SUBPROCESS_CASES = [
    "v_recordmd_example_played",
    "e_play_follow_suit",
    "e_record_missing_variant",
    "u_not_json",
    "u_not_object",
    "u_wrong_format",
]


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_exit_codes(name: str) -> None:
    """The real command: exit 0 valid, 1 invalid, 2 unreadable; one JSON object on stdout."""
    done = subprocess.run(
        [str(BARBU), "replay", str(CASES_DIR / f"{name}.json"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    _check(name, done.returncode, json.loads(done.stdout))


def test_missing_file_is_usage(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(BARBU), "replay", str(tmp_path / "absent.json"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert set(out) == {"valid", "usage"} and out["valid"] is False


def test_standard_input() -> None:
    """FILE may be - for standard input."""
    record = (CASES_DIR / "v_w2_tally.json").read_text()
    done = subprocess.run(
        [str(BARBU), "replay", "-", "--json"], input=record, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0
    assert json.loads(done.stdout) == _expected("v_w2_tally")
