"""Each coverage-guided fuzz target runs 2,000 seeded inputs under atheris without a crash."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parent / "fuzz" / "run_atheris.py"


@pytest.mark.parametrize("target", ["record", "intent", "sheet"])
def test_a_short_atheris_run_finds_no_crash(target: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    done = subprocess.run(
        [sys.executable, str(RUNNER), target, str(corpus), "-runs=2000", "-seed=1", "-max_len=8192"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Done 2000 runs" in done.stderr
    assert not list(tmp_path.glob("crash-*"))
    assert len(list(corpus.iterdir())) > 3  # the seeds, and inputs that reached new code


def test_a_target_lets_through_what_is_not_a_typed_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The short runs can fail: a target swallows the typed refusals only."""
    sys.path.insert(0, str(RUNNER.parent))
    import harnesses

    def broken(value: object) -> None:
        raise KeyError("a bug")

    harnesses.intent(b'{"type": "play", "card": "QS"}')
    monkeypatch.setattr(harnesses, "action_from_json", broken)
    with pytest.raises(KeyError):
        harnesses.intent(b'{"type": "play", "card": "QS"}')


def test_the_runner_replays_one_saved_input(tmp_path: Path) -> None:
    """How a crash file is reproduced: the runner given a file runs that input once."""
    saved = tmp_path / "input"
    saved.write_bytes(b'{"type": "act", "id": "a", "seq": 0, "action": {"type": "call", "double": [1, 1]}}')
    done = subprocess.run(
        [sys.executable, str(RUNNER), "intent", str(saved)], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Executed" in done.stderr


def test_a_change_whose_kind_is_not_text_is_refused(tmp_path: Path) -> None:
    """Found by the sheet target: ``{"change": ["G", "X"]}`` raised TypeError (a 500) in the change reader."""
    sys.path.insert(0, str(RUNNER.parent))
    import harnesses

    harnesses.sheet_body(b'\x02{"change": ["G", "X", "Y", "Z"]}')
    harnesses.sheet_body(b'\x02{"change": {"add": 1}}')
