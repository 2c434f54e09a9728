"""The ``barbu`` command: rules, simulate, and its refusals."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import barbu
from barbu import accel
from barbu.cli import main, rules_text
from barbu.replay import replay_json
from barbu.rulesets import RULE_SETS, rules
from test_record import doc

ZERO_SUM = {
    "classic": "yes",
    "ravage-city": "yes",
    "chinese-poker": "yes",
    "five-player": "yes",
    "thirty-two": "yes",
    "king": "over the whole game only",
    "salad": "no",
    "french": "no",
    "french-two-decks": "no",
}


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_rules_says_what_the_spec_says_about_zero_sum(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", variant]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("zero-sum:"))
    assert line.startswith(f"zero-sum: {ZERO_SUM[variant]}")
    assert f"deals: {rules(variant).deal_count} " in out


def test_rules_lists_only_flags_that_matter() -> None:
    king = rules_text(rules("king"))
    assert "compulsory_doubles" not in king and "heart_lead" in king
    classic = rules_text(rules("classic", {"rotation": "quick"}))
    assert '"quick"   (differs from classic)' in classic
    assert "ravage_city_total" not in classic


def test_simulate_writes_records_that_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--seed", "9", "--variant", "king", "--records", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    for f in files:
        out = replay_json(json.loads(f.read_text()))
        assert out["valid"] and out["complete"] and sum(out["totals"]) == 0
    assert "mean" in capsys.readouterr().out


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--games", "2", "--seed", "4"])
    first = capsys.readouterr().out
    main(["simulate", "--games", "2", "--seed", "4"])
    assert capsys.readouterr().out == first


SIMULATE_3_1 = (
    "                 classic: 3 games, seed 1                  \n"
    "┏━━━━━━┳━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━┓\n"
    "┃ game ┃    seat 0 ┃     seat 1 ┃     seat 2 ┃     seat 3 ┃\n"
    "┡━━━━━━╇━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━┩\n"
    "│    1 │  -6 (2nd) │  -34 (3rd) │ -126 (4th) │  166 (1st) │\n"
    "│    2 │ -74 (3rd) │ -124 (4th) │  -14 (2nd) │  212 (1st) │\n"
    "│    3 │  90 (2nd) │  391 (1st) │ -173 (3rd) │ -308 (4th) │\n"
    "│ mean │       3.3 │       77.7 │     -104.3 │       23.3 │\n"
    "└──────┴───────────┴────────────┴────────────┴────────────┘\n"
)
"""``barbu simulate --games 3 --seed 1``'s output as rich printed it (piped, 80 columns), before the
commands printed their tables themselves (barbu.usage.table): the same text, byte for byte, but for
the title's plural (``3 games``, once ``3 game(s)``: a translated plural says it whole)."""


def test_simulate_prints_the_table_it_printed_with_rich() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "NO_COLOR")}
    command = [sys.executable, "-m", "barbu", "simulate", "--games", "3", "--seed", "1"]
    done = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == SIMULATE_3_1


def test_simulate_of_random_bots_imports_neither_rich_nor_the_views() -> None:
    """The start-up is a large part of a short ``barbu simulate`` (docs/native.md): its table is
    printed by ``barbu.usage.table`` and random bots decide without views."""
    code = (
        "import sys, contextlib, io\n"
        "from barbu.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['simulate', '--games', '1'])\n"
        "print(sorted(m for m in ('rich', 'barbu.view') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "[]\n")


def test_simulate_draws_its_table_in_ascii_where_the_output_cannot_encode_lines() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    command = [sys.executable, "-m", "barbu", "simulate", "--games", "3", "--seed", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, env=env)
    assert (done.returncode, done.stderr) == (0, "")
    expected = SIMULATE_3_1.translate(str.maketrans("┏┳┓┃┡╇┩│└┴┘━─", "+++||+||+++--"))
    assert done.stdout == expected


def test_simulate_cuts_a_table_too_wide_for_the_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five seats in 50 columns: two tables one under the other, each with the games, no cell broken."""
    monkeypatch.setenv("COLUMNS", "50")
    assert main(["simulate", "--games", "2", "--seed", "1", "--variant", "five-player"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 50
    headings = [line for line in lines if "game" in line and "seat" in line]
    assert [re.findall(r"seat \d", line) for line in headings] == [["seat 0", "seat 1", "seat 2"], ["seat 3", "seat 4"]]
    assert sum(1 for line in lines if line.startswith("│ mean │")) == 2
    assert all(
        re.fullmatch(r"│ +(\d+|mean) │( +-?[\d.]+( \(\d(st|nd|rd|th)\))? │)+", line)
        for line in lines
        if line.startswith("│")
    )


def test_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dance"]) == 2
    assert "unknown command" in capsys.readouterr().err
    assert main(["rules", "classic", "-o", "colour=red"]) == 2
    assert "unknown flag 'colour'" in capsys.readouterr().err
    assert main(["simulate", "--variant", "bridge"]) == 2
    assert "unknown variant" in capsys.readouterr().err


@pytest.mark.parametrize(
    "command", ["serve", "play", "score", "replay", "simulate", "arena", "analyse", "advise", "rules"]
)
def test_every_command_is_reached_through_barbu(command: str) -> None:
    """Each job is a subcommand of the one ``barbu`` command (and of ``python -m barbu``)."""
    done = subprocess.run(
        [sys.executable, "-m", "barbu", command, "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert f"usage: barbu {command}" in done.stdout


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert listed == ["serve", "play", "score", "replay", "simulate", "arena", "analyse", "advise", "rules"]


def test_version_is_written_once_and_is_the_installed_packages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"barbu {barbu.__version__}\n{accel.status()}\n"
    assert importlib.metadata.version("barbu") == barbu.__version__
    command = [sys.executable, "-m", "barbu", "-V"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, f"barbu {barbu.__version__}\n{accel.status()}\n"), done.stderr


def test_version_says_whether_the_accelerator_is_switched_off() -> None:
    command = [sys.executable, "-m", "barbu", "--version"]
    env = {**os.environ, "BARBU_PURE": "1"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, env=env)
    assert done.returncode == 0, done.stderr
    assert "switched off by BARBU_PURE=1" in done.stdout.splitlines()[1]
    assert done.stderr == ""


def test_the_changelog_has_a_section_for_this_version() -> None:
    changelog = Path(barbu.__file__).parents[2] / "CHANGELOG.md"
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog.read_text(), flags=re.MULTILINE)
    assert versions and versions[0] == barbu.__version__, versions


SPEC_RECORDS = Path(__file__).parent / "spec_records"


def test_replay_without_json_prints_text_with_the_same_exit_codes() -> None:
    """barbu replay's text output (printed by barbu.usage.table): the fault located in words, the --json exit codes."""
    bad = json.dumps(doc({"declarer": 1}))
    done = subprocess.run([sys.executable, "-m", "barbu", "replay", "-"], input=bad, capture_output=True, text=True)
    assert done.returncode == 1
    assert "deal 1" in done.stdout and "declarer" in done.stdout
    for name, code in (("v_w2_tally", 0), ("e_play_follow_suit", 1), ("u_wrong_format", 2)):
        command = [sys.executable, "-m", "barbu", "replay", str(SPEC_RECORDS / f"{name}.json")]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == code, (name, done.stderr)


@pytest.mark.parametrize("args", [["--help"], ["rules", "classic"]])
def test_a_reader_that_went_away_costs_no_traceback(args: list[str]) -> None:
    """``barbu --help | head -1``: the reader closed its end before the text was written."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "barbu", *args], stdout=write, stderr=subprocess.PIPE, text=True, timeout=60
        )
    finally:
        os.close(write)
    assert done.returncode == 0 and done.stderr == ""
