"""Every mistake on the command line is one line on stderr and exit 2, found before any long work.

Each bad invocation runs as a real ``python -m barbu`` subprocess with a short timeout: a check
that comes only after the games were played (or after a server or a full-screen game started)
shows up as a timeout, not as a pass. The long runs asked for (``--games 100000``) make a late
check impossible to miss.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

TIMEOUT_S = 30
"""Seconds a refused invocation may take: starting Python and importing, never playing."""

LEAKS = re.compile(r"Traceback|Errno|\b[A-Z]\w*(Error|Exception)\b|__init__|\bnot (True|False|None)\b|utf-8-sig")
"""Python's own words, which a person should never read: tracebacks, errno codes, exception
class names, dunder methods, Python literals and codec advice."""

RECORD = {"format": "barbu-record/1", "variant": "classic", "players": ["Ann", "Bob", "Cat", "Dan"], "deals": []}
LONG = ["--games", "100000"]
ARENA = ["arena", "random", "random", "random", "random", "--quiet", *LONG]


def barbu(args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m barbu ARGS`` in ``cwd``; fails the test when it is still running after TIMEOUT_S."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "barbu", *args],
            cwd=cwd,
            input=stdin if stdin is not None else "",
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"barbu {' '.join(args)} still ran after {TIMEOUT_S} s: the mistake was not caught first")


@pytest.fixture
def files(tmp_path: Path) -> Path:
    """A folder with the files the bad invocations name."""
    (tmp_path / "existing.txt").write_text("not a folder\n")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00\x01garbage")
    (tmp_path / "saved.json").write_text(json.dumps(RECORD))
    (tmp_path / "folder").mkdir()
    return tmp_path


DB = "sqlite:///{tmp}/sheets.db"

BAD: list[tuple[str, list[str], str]] = [
    # (id, arguments ({tmp} is the folder of the fixture), text the message must contain)
    ("unknown-command", ["dance"], "'dance'"),
    # barbu simulate
    ("simulate-unknown-bot", ["simulate", "--bots", "wizard", *LONG], "'wizard'"),
    ("simulate-bot-count", ["simulate", "--bots", "random,random", *LONG], "random,random"),
    ("simulate-bot-setting", ["simulate", "--bots", "search:foo=1", *LONG], "'foo'"),
    ("simulate-bot-value", ["simulate", "--bots", "search:iterations=0", *LONG], "iterations"),
    ("simulate-bot-malformed", ["simulate", "--bots", "search:fast", *LONG], "'fast'"),
    ("simulate-records-is-a-file", ["simulate", "--records", "{tmp}/existing.txt", *LONG], "existing.txt"),
    ("simulate-records-under-a-file", ["simulate", "--records", "{tmp}/existing.txt/sub", *LONG], "existing.txt"),
    ("simulate-games-zero", ["simulate", "--games", "0"], "'0'"),
    ("simulate-games-word", ["simulate", "--games", "many"], "'many'"),
    ("simulate-seed-word", ["simulate", "--seed", "x1"], "'x1'"),
    ("simulate-variant", ["simulate", "--variant", "bridge", *LONG], "'bridge'"),
    ("simulate-option", ["simulate", "-o", "colour=red", *LONG], "'colour'"),
    ("simulate-option-value", ["simulate", "-o", "compulsory_doubles=true", *LONG], "true"),
    ("simulate-unknown-argument", ["simulate", "--fast"], "--fast"),
    # barbu arena
    ("arena-unknown-bot", ["arena", "wizard", "random", "random", "random", "--quiet", *LONG], "'wizard'"),
    ("arena-bot-count", ["arena", "random", "random", "--quiet", *LONG], "not 2"),
    ("arena-bot-setting", ["arena", "search:foo=1", "random", "random", "random", "--quiet", *LONG], "'foo'"),
    ("arena-bot-value", ["arena", "search:seconds=-1", "random", "random", "random", "--quiet", *LONG], "seconds"),
    ("arena-external-empty", ["arena", "external:", "random", "random", "random", "--quiet", *LONG], "external"),
    (
        "arena-external-missing",
        ["arena", "external:no-such-program-x", "random", "random", "random"],
        "no-such-program",
    ),
    ("arena-games-zero", ["arena", "random", "random", "random", "random", "--games", "0"], "'0'"),
    ("arena-workers-zero", [*ARENA, "--workers", "0"], "'0'"),
    ("arena-timeout-negative", [*ARENA, "--timeout", "-1"], "'-1'"),
    ("arena-json-no-folder", [*ARENA, "--json", "{tmp}/missing/report.json"], "missing"),
    ("arena-json-is-a-folder", [*ARENA, "--json", "{tmp}/folder"], "folder"),
    ("arena-plot-no-folder", [*ARENA, "--plot", "{tmp}/missing/chart.png"], "missing"),
    ("arena-records-is-a-file", [*ARENA, "--records", "{tmp}/existing.txt"], "existing.txt"),
    ("arena-log-no-folder", [*ARENA, "--external-log", "{tmp}/missing/bots.log"], "missing"),
    ("arena-variant", ["arena", "random", "random", "random", "random", "--variant", "bridge", *LONG], "'bridge'"),
    ("arena-option", [*ARENA, "-o", "rotation=sideways"], "sideways"),
    # barbu score
    ("score-db-scheme", ["score", "--db", "bogus://x", "list"], "bogus://x"),
    ("score-db-scheme-after", ["score", "list", "--db", "bogus://x"], "bogus://x"),
    ("score-db-not-a-url", ["score", "--db", "sheets.db", "list"], "sheets.db"),
    ("score-db-no-folder", ["score", "--db", "sqlite:///{tmp}/missing/x.db", "list"], "missing"),
    ("score-from-missing", ["score", "--from", "{tmp}/none.json"], "none.json"),
    ("score-from-binary", ["score", "--from", "{tmp}/binary.json"], "binary.json"),
    ("score-from-folder", ["score", "--from", "{tmp}/folder"], "folder"),
    (
        "score-from-output-no-folder",
        ["score", "--from", "{tmp}/saved.json", "--to", "csv", "-o", "{tmp}/no/x.csv"],
        "no",
    ),
    ("score-import-missing", ["score", "--db", DB, "import", "{tmp}/none.json"], "none.json"),
    ("score-export-no-folder", ["score", "--db", DB, "export", "--to", "csv", "-o", "{tmp}/no/x.csv"], "x.csv"),
    ("score-new-variant", ["score", "--db", DB, "new", "--variant", "bridge", "--players", "a,b,c,d"], "'bridge'"),
    ("score-new-option", ["score", "--db", DB, "new", "-O", "colour=red", "--players", "a,b,c,d"], "'colour'"),
    ("score-new-players", ["score", "--db", DB, "new", "--players", "Ann,Bob", "--no-play"], "Ann,Bob"),
    ("score-new-first", ["score", "--db", DB, "new", "--players", "a,b,c,d", "--first", "zed", "--no-play"], "zed"),
    ("score-edit-word", ["score", "--db", DB, "edit", "first"], "'first'"),
    ("score-edit-zero", ["score", "--db", DB, "edit", "0"], "'0'"),
    ("score-add-tally", ["score", "--db", DB, "add", "--contract", "trumps", "--tally", "{tricks"], "{tricks"),
    ("score-to-choice", ["score", "--db", DB, "export", "--to", "docx"], "'docx'"),
    ("score-link-role", ["score", "--db", DB, "link", "--role", "boss"], "'boss'"),
    ("score-to-without-from", ["score", "--to", "csv", "--db", DB, "list"], "--to csv"),
    ("score-output-without-to", ["score", "--from", "{tmp}/saved.json", "-o", "{tmp}/x.csv"], "x.csv"),
    # barbu play
    ("play-pace-negative", ["play", "--pace", "-1", "--seed", "1"], "'-1'"),
    ("play-resume-variant", ["play", "--resume", "{tmp}/saved.json", "--variant", "king"], "king"),
    ("play-resume-option", ["play", "--resume", "{tmp}/saved.json", "-o", "rotation=quick"], "rotation=quick"),
    ("play-resume-missing", ["play", "--resume", "{tmp}/none.json"], "none.json"),
    ("play-resume-binary", ["play", "--resume", "{tmp}/binary.json"], "binary.json"),
    ("play-unknown-bot", ["play", "--bots", "genius"], "'genius'"),
    ("play-bot-count", ["play", "--bots", "random,random", "--seed", "1"], "random,random"),
    ("play-seat-range", ["play", "--seat", "9", "--seed", "1"], "9"),
    ("play-seat-word", ["play", "--seat", "north"], "'north'"),
    ("play-variant", ["play", "--variant", "bridge"], "'bridge'"),
    ("play-option", ["play", "-o", "rotation=sideways"], "sideways"),
    ("play-save-no-folder", ["play", "--save", "{tmp}/missing/game.json", "--seed", "1"], "missing"),
    ("play-save-no-folder-setup", ["play", "--save", "{tmp}/missing/game.json"], "missing"),
    # barbu replay
    ("replay-missing", ["replay", "{tmp}/none.json"], "none.json"),
    ("replay-folder", ["replay", "{tmp}/folder"], "folder"),
    ("replay-binary", ["replay", "{tmp}/binary.json"], "binary.json"),
    # barbu serve
    ("serve-db-scheme", ["serve", "--db", "bogus://x", "--port", "0"], "bogus://x"),
    ("serve-db-no-folder", ["serve", "--db", "sqlite:///{tmp}/missing/x.db", "--port", "0"], "missing"),
    ("serve-port-range", ["serve", "--port", "99999", "--db", "sqlite://"], "'99999'"),
    ("serve-port-word", ["serve", "--port", "http", "--db", "sqlite://"], "'http'"),
    ("serve-bot-delay", ["serve", "--bot-delay", "-1", "--db", "sqlite://", "--port", "0"], "'-1'"),
    ("serve-takeover", ["serve", "--takeover-after", "-5", "--db", "sqlite://", "--port", "0"], "'-5'"),
    ("serve-commit-gather", ["serve", "--commit-gather", "-0.1", "--db", "sqlite://", "--port", "0"], "'-0.1'"),
    ("serve-tables", ["serve", "--tables-per-client", "0", "--db", "sqlite://", "--port", "0"], "'0'"),
    ("serve-connections", ["serve", "--connections-per-client", "0", "--db", "sqlite://", "--port", "0"], "'0'"),
    ("serve-actions-rate", ["serve", "--actions-per-second", "0", "--db", "sqlite://", "--port", "0"], "'0'"),
    ("serve-messages-rate", ["serve", "--messages-per-second", "-3", "--db", "sqlite://", "--port", "0"], "'-3'"),
    ("serve-log-level", ["serve", "--log-level", "loud", "--db", "sqlite://", "--port", "0"], "'loud'"),
    ("serve-allow-origin", ["serve", "--allow-origin", "nowhere", "--db", "sqlite://", "--port", "0"], "'nowhere'"),
    ("serve-host-not-here", ["serve", "--host", "192.0.2.1", "--port", "0", "--db", "sqlite://"], "192.0.2.1"),
    (
        "serve-redis-sqlite",
        ["serve", "--redis", "redis://127.0.0.1:6379/0", "--db", "sqlite://", "--port", "0"],
        "--redis",
    ),
    (
        "serve-redis-silent",
        [
            "serve",
            "--redis",
            "redis://127.0.0.1:1/0",
            "--db",
            "postgresql://postgres@127.0.0.1:5432/test",
            "--port",
            "0",
        ],
        "redis://127.0.0.1:1/0",
    ),
    ("serve-db-not-a-database", ["serve", "--db", "sqlite:///{tmp}/binary.json", "--port", "0"], "binary.json"),
    # barbu rules
    ("rules-variant", ["rules", "bridge"], "'bridge'"),
    ("rules-option", ["rules", "classic", "-o", "colour=red"], "'colour'"),
    ("rules-option-form", ["rules", "classic", "-o", "rotation"], "'rotation'"),
    ("rules-option-value", ["rules", "classic", "-o", "rotation=true"], "true"),
]


@pytest.mark.parametrize(("args", "wrong"), [pytest.param(a, w, id=i) for i, a, w in BAD])
def test_a_mistake_is_one_line_and_exit_2(args: list[str], wrong: str, files: Path) -> None:
    argv = [a.replace("{tmp}", str(files)) for a in args]
    done = barbu(argv, files)
    lines = done.stderr.strip().splitlines()
    command = "barbu" if args[0] == "dance" else f"barbu {args[0]}"
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{command}") and ": error: " in lines[0], lines[0]
    assert not LEAKS.search(lines[0]), lines[0]
    assert wrong.replace("{tmp}", str(files)) in lines[0], lines[0]
    assert done.stdout == ""


def test_every_message_says_what_is_allowed(files: Path) -> None:
    """A few messages, whole: what is wrong, then what is allowed."""
    cases = {
        ("simulate", "--bots", "wizard"): "levels are: random, heuristic, search, expert",
        ("simulate", "--bots", "random,random"): "4",
        ("score", "--db", "bogus://x", "list"): "sqlite:///FILE",
        ("arena", "search:foo=1", "random", "random", "random", "-q"): "iterations",
        ("play", "--pace", "-1"): "0 or more",
    }
    for args, allowed in cases.items():
        line = barbu(list(args), files).stderr.strip()
        assert ";" in line and allowed in line.partition(";")[2], line


def test_a_record_with_a_byte_order_mark_is_read(files: Path) -> None:
    """Editors on some systems start UTF-8 files with a BOM: the record is simply read."""
    path = files / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RECORD).encode())
    done = barbu(["replay", str(path), "--json"], files)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["valid"] is True
    done = barbu(["score", "--from", str(path)], files)
    assert done.returncode == 0, done.stderr
    from barbu.tui.saved_game import load_table

    assert load_table(path).game.rules.name == "classic"


def test_replay_json_reports_an_unreadable_file_as_usage(files: Path) -> None:
    done = barbu(["replay", str(files / "none.json"), "--json"], files)
    assert done.returncode == 2
    out = json.loads(done.stdout)
    assert out["valid"] is False and "none.json" in out["usage"] and not LEAKS.search(out["usage"])


def test_replay_names_the_players_a_record_names(files: Path) -> None:
    """Where the record knows the players' names, the person reads names, not seat numbers only."""
    example = Path(__file__).parent / "records" / "w4-trumps-redouble.json"
    doc = json.loads(example.read_text())
    good = files / "good.json"
    good.write_text(json.dumps(doc))
    done = barbu(["replay", str(good)], files)
    assert done.returncode == 0, done.stderr
    assert "Ann" in done.stdout and "Dan" in done.stdout and "seat 0" not in done.stdout
    doc["deals"][0]["calls"][0]["seat"] = 2
    bad = files / "bad.json"
    bad.write_text(json.dumps(doc))
    done = barbu(["replay", str(bad)], files)
    assert done.returncode == 1
    assert "Bob" in done.stdout and "Cat" in done.stdout, done.stdout
    assert json.loads(barbu(["replay", str(bad), "--json"], files).stdout)["error"]["seat"] == 1


def test_an_unreachable_database_is_one_line_without_the_driver_class(files: Path) -> None:
    """Not an argument mistake (the server may be down), but still one line a person can read."""
    done = barbu(["score", "--db", "postgresql://postgres@127.0.0.1:1/nothing", "list"], files)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "127.0.0.1" in lines[0] and not LEAKS.search(lines[0]), done.stderr


def test_serve_refuses_a_port_in_use(files: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = barbu(["serve", "--port", str(port), "--db", "sqlite://"], files)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and str(port) in line and not LEAKS.search(line), line


def test_score_names_the_players_of_a_refused_record(files: Path) -> None:
    example = Path(__file__).parent / "records" / "w4-trumps-redouble.json"
    doc = json.loads(example.read_text())
    doc["deals"][0]["calls"][0]["seat"] = 2
    bad = files / "bad.json"
    bad.write_text(json.dumps(doc))
    for args in (["--from", str(bad)], ["--db", DB.format(tmp=files), "import", str(bad)]):
        done = barbu(["score", *args], files)
        assert done.returncode == 1
        assert "Bob" in done.stderr and "Cat" in done.stderr and "\n" not in done.stderr.strip(), done.stderr


def test_ctrl_c_is_one_line_and_status_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import barbu.cli

    def interrupted(_argv: list[str]) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(barbu.cli, "_command", lambda _name: interrupted)
    assert barbu.cli.main(["simulate"]) == 130
    assert capsys.readouterr().err == "barbu simulate: interrupted\n"


def test_score_names_the_players_of_a_sheet_in_its_refusals(files: Path) -> None:
    db = ["--db", DB.format(tmp=files)]
    assert barbu(["score", *db, "new", "--players", "Ann,Bob,Cat,Dan", "--no-play"], files).returncode == 0
    tally = json.dumps({"tricks": [6, 3, 2, 2]})
    done = barbu(
        ["score", *db, "add", "--contract", "trumps", "--trump", "S", "--doubles", "bob>bob", "--tally", tally], files
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "barbu score: Bob cannot double itself", done.stderr


def test_advise_refuses_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from barbu.cli import main

    assert main(["advise", "AKQ...", "--lang", "fr"]) == 2
    line = capsys.readouterr().err.strip()
    assert line == "barbu advise : erreur : la main a 3 cartes ; une main de classic en compte 13", line
    assert main(["advise", "AKQ...", "--lang", "en"]) == 2
    line = capsys.readouterr().err.strip()
    assert line == "barbu advise: error: the hand has 3 cards; a hand of classic holds 13", line
