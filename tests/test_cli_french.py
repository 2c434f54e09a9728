"""The ``barbu`` command in French: with ``LANG=fr_FR.UTF-8`` or with ``--lang fr``, its help,
its refusals (argparse's own and the project's checks), the OS's reasons and ``barbu rules``
show no English, neither a text of the catalogue left untranslated nor English words written
outside it; the same commands in English say what they said before."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from barbu.cli import COMMANDS
from barbu.language import catalogue
from test_tui_french import english_of_the_catalogue

SRC = str(Path(__file__).resolve().parent.parent / "src")
RECORD = str(Path(__file__).resolve().parent / "records" / "recordmd-w4-played.json")
REFUSED = str(Path(__file__).resolve().parent / "spec_records" / "e_call_compulsory_pass.json")

ENGLISH_WORDS = re.compile(
    r"\b(the|you|your|seat|seats|must|deal|deals|trick|tricks|is|not|and|of|with|play|pass|give|"
    r"error|unrecognized|required|invalid|choice|expected|show|help|message|"
    r"exit|cannot|read|file|folder|such|directory|players|deck|cards|clockwise|contracts|"
    r"flags|yes|no|zero|sum|or|more|range|number|whole|commands|command|name|sheet|new|first|declarer)\b"
)
"""Common English words (lower case) that no French text of the command has a reason to show."""

IDENTIFIER = re.compile(
    r"\S*[-_=/.:\[\]{}'\"]\S*|\b[A-Z][A-Z0-9_,.]+\b|\b(" + "|".join(COMMANDS) + r")\b|^ {4}\w+ ",
    re.MULTILINE,
)
"""What the command writes as it is in every language: options, commands, rule and contract ids,
flag names and values, paths, metavars (``KEY=VALUE``, ``FILE``), quoted values, and the
subcommands a help lists (``barbu score --help``: ``    new    commencer une feuille…``)."""

CASES = {
    "play --pace -1": (["play", "--pace", "-1"], 2),
    "play --seat x": (["play", "--seat", "x"], 2),
    "play --fast": (["play", "--fast"], 2),
    "play --help": (["play", "--help"], 0),
    "play --bots": (["play", "--bots", "random,random"], 2),
    "simulate": (["simulate", "--games", "2", "--variant", "five-player"], 0),
    "simulate --bots": (["simulate", "--bots", "random,random"], 2),
    "score edit": (["score", "edit"], 2),
    "score new --players": (["score", "new", "--players", "ann,bob"], 2),
    "score new": (["score", "new"], 0),
    "score --help": (["score", "--help"], 0),
    "rules classic": (["rules", "classic"], 0),
    "rules --help": (["rules", "--help"], 0),
    "replay /nonexistent": (["replay", "/nonexistent"], 2),
    "replay a folder": (["replay", "/"], 2),
    "replay a record": (["replay", RECORD], 0),
    "replay a refused record": (["replay", REFUSED], 1),
    "analyse --iterations 0": (["analyse", "x.json", "--iterations", "0"], 2),
    "advise --help": (["advise", "--help"], 0),
    "simulate --help": (["simulate", "--help"], 0),
    "arena --help": (["arena", "--help"], 0),
    "arena": (
        ["arena", "random", "random", "random", "random", "--variant", "king", "--games", "1", "--workers", "1"],
        0,
    ),
    "arena, penalty points": (
        [
            "arena",
            "random",
            "random",
            "random",
            "--variant",
            "french",
            "-o",
            "player_count=3",
            "--games",
            "1",
            "--workers",
            "1",
        ],
        0,
    ),
    "arena --leaderboard --help": (["arena", "--leaderboard", "--help"], 0),
    "arena, an unknown bot": (["arena", "wizard", "random", "random", "random"], 2),
    "arena, a bad setting": (["arena", "search:iterations=0", "random", "random", "random"], 2),
    "arena, no program": (["arena", "external:no-such-program-here", "random", "random", "random"], 2),
    "simulate, an unknown bot": (["simulate", "--bots", "wizard"], 2),
    "arena --leaderboard, an unknown bot": (["arena", "--leaderboard", "--bots", "wizard"], 2),
    "arena --leaderboard": (["arena", "--leaderboard", "--bots", "random", "--deals", "1"], 0),
}
"""Each case: the arguments after ``barbu`` and the exit status."""


def barbu(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "barbu", *args],
        env={**clean, "PYTHONPATH": SRC, **env},
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def english_left(text: str) -> tuple[list[str], list[str]]:
    """The catalogue's English texts in ``text`` and the English words outside identifiers."""
    texts = [e for e in english_of_the_catalogue() if e in text]
    words = sorted({m.group(0) for m in ENGLISH_WORDS.finditer(IDENTIFIER.sub(" ", text))})
    return texts, words


@pytest.mark.parametrize("how", ["LANG=fr_FR.UTF-8", "--lang fr"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_command_speaks_french(case: str, how: str, tmp_path: Path) -> None:
    args, status = CASES[case]
    if how == "--lang fr":
        done = barbu([*args, "--lang", "fr"], {"LANG": "en_US.UTF-8"}, tmp_path)
    else:
        done = barbu(args, {"LANG": "fr_FR.UTF-8"}, tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == status, out
    assert "Traceback" not in out
    assert out.strip()
    assert english_left(out) == ([], []), out
    if status == 2:
        assert ": erreur : " in done.stderr, out


@pytest.mark.parametrize(
    "args",
    [
        ["--allow-origin", "nowhere"],
        ["--allow-host", "https://barbu.example"],
    ],
)
def test_the_server_s_refusals_speak_french(args: list[str], tmp_path: Path) -> None:
    """``barbu serve`` has no ``--lang`` (its pages speak each visitor's language); its refusals
    follow the environment's."""
    done = barbu(["serve", *args, "--db", "sqlite://", "--port", "0"], {"LANG": "fr_FR.UTF-8"}, tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 2 and ": erreur : " in done.stderr, out
    assert english_left(out) == ([], []), out


def test_the_server_s_help_speaks_the_environment_s_language(tmp_path: Path) -> None:
    """``barbu serve --help`` follows ``LANG``, as its refusals do."""
    french = barbu(["serve", "--help"], {"LANG": "fr_FR.UTF-8"}, tmp_path)
    assert french.returncode == 0 and "adresse d'écoute (127.0.0.1 par défaut)" in french.stdout, french.stdout
    assert english_left(french.stdout) == ([], []), french.stdout
    english = barbu(["serve", "--help"], {"LANG": "en_US.UTF-8"}, tmp_path)
    assert english.returncode == 0 and "address to listen on (default 127.0.0.1)" in english.stdout
    assert "--lang" not in english.stdout


def test_the_arena_s_report_in_both_languages(tmp_path: Path) -> None:
    """The arena's table says its words and the contracts' titles in ``--lang``'s language; bot
    specs stay as typed.
    (The caption wraps where the timings make it: its words are read with the lines joined.)"""
    args = ["arena", "random", "random", "random", "random", "--variant", "king", "--games", "1", "--workers", "1"]
    environment = barbu(args, {"LANG": "fr_FR.UTF-8"}, tmp_path)
    assert "king : 1 partie en donnes dupliquées (4 parties jouées), graine 0" in environment.stdout, environment.stdout
    french, english = barbu([*args, "--lang", "fr"], {}, tmp_path), barbu([*args, "--lang", "en"], {}, tmp_path)
    for words in ("points par partie", "ms : médiane / p95 / max", "illégales", "le plus haut est le mieux"):
        assert words in " ".join(french.stdout.split()), french.stdout
    for words in (
        "king: 1 duplicate game (4 games), seed 0",
        "points per game",
        "ms: median / p95 / max",
        "illegal",
        "95% intervals over duplicate games; higher is better; 1 worker(s),",
        "points per deal of each contract (95% intervals)",
        "Boys (no jacks or kings)",
    ):
        assert words in " ".join(english.stdout.split()), english.stdout
    assert "Les garçons (ni valets ni rois)" in french.stdout and "random" in french.stdout


def test_the_command_list_speaks_french(tmp_path: Path) -> None:
    for args, env in (
        (["--help"], {"LANG": "fr_FR.UTF-8"}),
        (["--help", "--lang", "fr"], {}),
        (["--lang=fr"], {}),
    ):
        done = barbu(args, env, tmp_path)
        assert english_left(done.stdout) == ([], []), done.stdout
        assert "commandes :" in done.stdout and "--lang" in done.stdout
    assert barbu(["nothing"], {"LC_ALL": "fr_FR.UTF-8"}, tmp_path).stderr.startswith(
        "barbu : erreur : commande inconnue"
    )


def test_lang_wins_over_the_environment_and_english_stays_as_it_was(tmp_path: Path) -> None:
    french = barbu(["play", "--pace", "-1"], {"LANG": "fr_FR.UTF-8"}, tmp_path)
    english = barbu(["play", "--pace", "-1", "--lang=en"], {"LANG": "fr_FR.UTF-8"}, tmp_path)
    assert (
        french.stderr
        == "barbu play : erreur : argument --pace : '-1' est hors limites ; donnez un nombre à partir de 0\n"
    )
    assert english.stderr == "barbu play: error: argument --pace: '-1' is out of range; give a number 0 or more\n"
    missing = barbu(["replay", "/nonexistent"], {}, tmp_path)
    assert missing.stderr == (
        "barbu replay: error: cannot read the record /nonexistent: no such file or directory; give a readable file\n"
    )
    assert barbu(["replay", RECORD], {}, tmp_path).stdout.endswith("\nvalid, in progress: deal 2, contract by Ann\n")
    assert barbu(["replay", RECORD, "--lang", "fr"], {}, tmp_path).stdout.endswith(
        "\nvalide, en cours : donne 2, contrat par Ann\n"
    )
    assert barbu(["score", "edit"], {}, tmp_path).stderr == (
        "barbu score edit: error: the following arguments are required: DEAL; "
        "barbu score edit --help lists the options\n"
    )


def test_an_unknown_language_is_refused_in_the_environment_s_language(tmp_path: Path) -> None:
    done = barbu(["rules", "--lang", "de"], {"LANG": "fr_FR.UTF-8"}, tmp_path)
    assert done.returncode == 2
    assert (
        done.stderr == "barbu rules : erreur : argument --lang : choix impossible : 'de' (choisir parmi 'en', 'fr')\n"
    )


def test_every_argparse_refusal_has_its_french() -> None:
    from barbu.usage import ARGPARSE_ERRORS, ARGPARSE_WORDS

    fr = catalogue("fr").messages
    assert all(fr.get(text) for text in (*ARGPARSE_ERRORS, *ARGPARSE_WORDS))


def test_the_operators_commands_refuse_in_french(tmp_path: Path) -> None:
    """``serve`` and ``arena`` refuse in the environment's language like every command (``arena``
    in ``--lang``'s when given; ``serve`` has none: its pages speak each visitor's language)."""
    for args, french in (
        (["arena", "random", "random"], "barbu arena : erreur : classic se joue à 4 : nommez 4 bots, pas 2\n"),
        (
            ["serve", "--db", "sqlite:///x.db", "--redis", "redis://127.0.0.1:6379/0"],
            "barbu serve : erreur : --redis demande une --db PostgreSQL que tous les processus partagent",
        ),
    ):
        done = barbu(args, {"LANG": "fr_FR.UTF-8"}, tmp_path)
        assert done.returncode == 2 and done.stderr.startswith(french), done.stderr
        english = barbu(args, {"LANG": "en_US.UTF-8"}, tmp_path)
        assert english.returncode == 2 and ": error: " in english.stderr and "erreur" not in english.stderr
    with socket.socket() as taken:  # a port in use: the refusal is built after the address was looked up
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        done = barbu(
            ["serve", "--port", port, "--db", f"sqlite:///{tmp_path / 'x.db'}"], {"LANG": "fr_FR.UTF-8"}, tmp_path
        )
    assert done.returncode == 2 and done.stderr.startswith(
        f"barbu serve : erreur : impossible d'écouter sur --host 127.0.0.1 --port {port} ("
    ), done.stderr
