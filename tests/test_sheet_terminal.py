"""``barbu score`` in the terminal: a whole game typed on standard input, edits, subcommands."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from barbu.language import use
from barbu.replay import replay_json
from barbu.sheet import DealEntry, Double, Sheet
from barbu.sheet.command import score_main
from barbu.sheet.rows import DealRow
from barbu.sheet.store import SheetStore
from test_sheet_model import played_record, tallied

NAMES = "Ann,Bob,Cat,Dan"


def db(folder: Path) -> str:
    """A database in a test's folder (the folder is made if needed)."""
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'barbu.db'}"


def run(argv: list[str], text: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = score_main(argv, io.StringIO(text), out)
    return code, out.getvalue()


def answers(row: DealRow, names: tuple[str, ...]) -> list[str]:
    """What a scorekeeper types for one deal: contract, trump/rank, doubles, tally."""
    lines = [row.contract]
    if row.trump:
        lines.append(row.trump.lower())
    if row.rank:
        lines.append(row.rank)
    # Doubles by name for some deals and by seat for others, as people do.
    cells = [
        (f"{names[d.doubler][:2]}" if row.number % 2 else str(d.doubler))
        + (">>" if d.redoubled else ">")
        + (f"{names[d.doubled]}" if row.number % 2 else str(d.doubled))
        for d in row.doubles
    ]
    lines.append(" ".join(cells) or "-")
    if row.tally is None:
        return lines
    for key, value in row.tally.items():
        if key == "order":
            lines.append(" ".join(names[s] for s in value[:-1]))  # the last one out is the rest
        elif isinstance(value, list):
            lines.append(" ".join(map(str, value)))
        else:
            lines.append(names[value].lower())
    return lines


def test_a_whole_classic_game_typed_in_the_terminal(tmp_path: Path) -> None:
    source = Sheet.from_record(tallied(played_record("classic")))
    names = ("Ann", "Bob", "Cat", "Dan")
    typed = [line for row in source.rows for line in answers(row, names)]
    first = str(source.first_declarer)
    code, out = run(
        ["--db", db(tmp_path), "new", "--players", NAMES, "--first", first, "--title", "club"],
        "\n".join(typed) + "\n",
    )
    assert code == 0, out
    assert "refused" not in out
    assert "the game is over" in out
    sheet = SheetStore(db(tmp_path)).open("club").history.sheet
    assert sheet.complete and sheet.totals == source.totals
    assert [r.final for r in sheet.rows] == [r.final for r in source.rows]
    assert [r.doubles for r in sheet.rows] == [r.doubles for r in source.rows]
    assert replay_json(sheet.record())["totals"] == replay_json(played_record("classic"))["totals"]
    # Fix deal 2 long after: its tally is changed, and the totals follow.
    row = sheet.rows[1]
    assert row.tally is not None
    key, value = next((k, v) for k, v in row.tally.items() if isinstance(v, list))
    moved = value[1:] + value[:1]
    expected = sheet.edit(2, DealEntry(row.contract, row.trump, row.rank, row.doubles, {**row.tally, key: moved}))
    # Keep every answer but the changed tally key (an empty answer keeps the old value).
    keys = list(row.tally)
    edit = ["edit 2", "", *([""] if row.trump or row.rank else []), ""]
    edit += [" ".join(map(str, moved)) if k == key else "" for k in keys]
    code, out = run(["--db", db(tmp_path), "play"], "\n".join([*edit, "quit"]) + "\n")
    assert code == 0 and "deal 2 changed" in out, out
    edited = SheetStore(db(tmp_path)).open().history.sheet
    assert edited.totals == expected.totals
    code, out = run(["--db", db(tmp_path), "undo"])
    assert SheetStore(db(tmp_path)).open().history.sheet.totals == source.totals


def test_refusals_in_the_session_ask_again(tmp_path: Path) -> None:
    typed = [
        "no-queens",
        "bob>dan dan>>bob",  # two cells for one pair
        "bob>ann",
        "1 1 1 0",  # does not add up
        "1 1 1 1",
        "no-queens",  # already used
        "trumps",
        "x",  # not a suit
        "h",
        "cat>bob",  # positive contract: only the declarer may be doubled
        "-",
        "6 3 2",  # the last is the rest
        "show",
        "delete 9",
        "quit",
    ]
    code, out = run(["--db", db(tmp_path), "new", "--players", NAMES], "\n".join(typed) + "\n")
    assert code == 0
    assert "refused: Bob and Dan appear twice" in out
    assert "refused: tally: queens must add up to 4" in out
    assert "refused: no-queens is not open to this declarer (already declared)" in out
    assert "refused: the trump must be one of S, H, D, C" in out
    assert "only the declarer (seat 0) may be doubled" in out
    assert "refused: there is no deal 9" in out
    sheet = SheetStore(db(tmp_path)).open().history.sheet
    assert [r.final for r in sheet.rows] == [[-6, -6, -6, -6], [30, 15, 10, 10]]


def test_the_score_keeper_refuses_in_french(tmp_path: Path) -> None:
    """With ``--lang fr`` the sheet's own refusals (the notation's, the sheet's, the history's)
    are said in French, as the core's are, and the English of the same refusals is gone."""
    typed = ["no-queens", "bob>dan dan>>bob", "bob>ann", "1 1 1 1", "no-queens", "trumps", "x", "h", "-", "6 3 2"]
    typed += ["delete 9", "edit x", "quit"]
    d = ["--db", db(tmp_path), "--lang", "fr"]
    try:
        code, out = run([*d, "new", "--players", NAMES], "\n".join(typed) + "\n")
        assert code == 0, out
        for french in (
            "refusé : Bob et Dan figurent deux fois : deux places forment au plus une paire",
            "refusé : no-queens n'est plus ouvert à ce déclarant (déjà choisi)",
            "refusé : l'atout doit être S, H, D ou C, pas 'x'",
            "refusé : il n'y a pas de donne 9 : la feuille a 2 donnes (1 à 2)",
            "refusé : dites quelle donne : edit N (1 à 2)",
        ):
            assert french in out, out
        for english in ("appear twice", "not open to this declarer", "the trump must be", "there is no deal"):
            assert english not in out, out
        assert run([*d, "undo"])[0] == 0 and run([*d, "redo"])[0] == 0
        err = io.StringIO()
        assert score_main([*d, "redo"], io.StringIO(), err) == 1
        assert err.getvalue() == "barbu score : rien à rétablir\n"
        assert score_main(["--db", db(tmp_path / "empty"), "--lang", "fr", "show"], io.StringIO(), err) == 1
        assert err.getvalue().endswith(
            "barbu score : pas encore de feuille : commencez-en une avec `barbu score new` ou sur la page web /sheets\n"
        )
    finally:
        use("en")  # ``--lang`` chose the language of the process
    err = io.StringIO()
    assert score_main(["--db", db(tmp_path), "redo"], io.StringIO(), err) == 1
    assert err.getvalue() == "barbu score: nothing to redo\n"


def test_subcommands(tmp_path: Path) -> None:
    d = ["--db", db(tmp_path)]
    assert run([*d, "new", "--players", NAMES, "--title", "Friday", "--no-play"])[0] == 0
    code, out = run([*d, "add", "--contract", "no-queens", "--doubles", "max", "--tally", '{"queens": [0, 2, 1, 1]}'])
    assert code == 0 and "deal 1 no-queens" in out
    code, out = run([*d, "add", "--contract", "trumps", "--trump", "s", "--doubles", "bob>ann dan>>ann"])
    assert code == 0 and "waiting for the tally" in out
    code, out = run([*d, "add", "--tally", '{"tricks": [6, 3, 2, 2]}'])
    assert code == 0 and "Ann +85" in out
    code, out = run(
        [*d, "add", "--contract", "no-hearts", "--doubles", "bob>ann", "--tally", '{"hearts": [1, 2, 3, 4]}']
    )
    assert code == 1 and "no-hearts: missing ace_of_hearts" in out
    code, out = run([*d, "edit", "1", "--doubles", "-", "--tally", "{}"])
    assert code == 1 and "not played" in out
    code, out = run([*d, "edit", "1", "--doubles", "cat>dan"])
    assert code == 0 and "deal 1 changed" in out
    code, out = run([*d, "show"])
    assert code == 0 and "Cat>Dan" in out and "trumps ♠" in out and "Bob>Ann Dan>>Ann" in out
    code, out = run([*d, "export", "--to", "csv"])
    assert out.splitlines()[0].startswith("deal,declarer,contract,trump,rank,doubles,status,Ann hand")
    record = tmp_path / "friday.record.json"
    assert run([*d, "export", "--to", "record", "-o", str(record)])[0] == 0
    assert run([*d, "export", "--to", "pdf", "-o", str(tmp_path / "friday.pdf")])[0] == 0
    assert (tmp_path / "friday.pdf").read_bytes().startswith(b"%PDF")
    code, out = run([*d, "import", str(record), "--title", "copy"])
    assert code == 0 and "2 deals" in out
    store = SheetStore(db(tmp_path))
    assert store.open("copy").history.sheet == store.open("friday").history.sheet
    code, out = run([*d, "list"])
    assert "friday" in out and "copy" in out
    code, out = run([*d, "stats", "--all", "--json"])
    stats = json.loads(out)
    assert stats["games"] == 2 and {p["name"] for p in stats["players"]} == {"Ann", "Bob", "Cat", "Dan"}
    code, out = run([*d, "stats", "-s", "fri"])
    assert code == 0 and "best" in out and "no-queens" in out
    assert run([*d, "delete", "2"])[0] == 0
    assert run([*d, "undo", "-s", "friday"])[0] == 0
    assert len(SheetStore(db(tmp_path)).open("friday").history.sheet.rows) == 2
    assert run([*d, "remove", "copy"])[0] == 0
    code, out = run([*d, "show", "-s", "nothing"])
    assert code == 1 and "no sheet 'nothing'" in out


def test_from_prints_the_sheet_of_any_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played_record("classic")))
    code, out = run(["--from", str(path)])
    assert code == 0
    totals = replay_json(played_record("classic"))["totals"]
    last = next(line for line in out.splitlines() if "final totals" in line)
    assert all(str(t) in last for t in totals)
    assert "note: 28 played deals turned into their tallies" in out
    code, out = run(["--from", str(path), "--to", "html"])
    assert code == 0 and out.startswith("<!DOCTYPE html>")
    code, out = run(["--from", "-"], "{not json")
    assert code == 1 and "not JSON" in out


def test_interactive_start_with_no_sheet_and_fixed_contracts(tmp_path: Path) -> None:
    typed = ["", "Ann", "Bob", "Cat", "Dan", "trumps", "s", "max", "6 3 2 2", "quit"]
    code, out = run(["--db", db(tmp_path)], "\n".join(typed) + "\n")
    assert code == 0, out
    assert SheetStore(db(tmp_path)).open().history.sheet.rows[0].final == [140, -15, -30, -30]
    french = ["--db", db(tmp_path / "f"), "new", "--variant", "french", "--players", NAMES]
    code, out = run(french, "\n7 2 2 2\n\n1 1 1 10\nquit\n")
    assert code == 0 and "no-tricks (enter to go on)" in out
    assert SheetStore(db(tmp_path / "f")).open().history.sheet.totals == [40, 15, 15, 60]


def test_doubles_line_with_calls_per_player() -> None:
    sheet = Sheet.new("classic", players=NAMES.split(","))
    from barbu.sheet.notation import parse_doubles

    grid = parse_doubles("bob max, dan flanks cat pass", sheet.players, sheet.rules, 0, "no-tricks")
    assert grid == (Double(1, 0), Double(1, 2), Double(1, 3), Double(3, 2))
    with pytest.raises(Exception, match="could be"):
        parse_doubles("a>b", ("Ann", "Abe", "Bob", "Cat"), sheet.rules, 0, "no-tricks")


def test_a_deal_waiting_for_its_tally_is_asked_first(tmp_path: Path) -> None:
    d = ["--db", db(tmp_path)]
    assert run([*d, "new", "--players", NAMES, "--no-play"])[0] == 0
    assert run([*d, "add", "--contract", "domino", "--rank", "8", "--doubles", "cat>ann"])[0] == 0
    code, out = run([*d, "play"], "cat ann bob ann\ncat ann bob\nquit\n")
    assert code == 0 and "deal 1 (domino from 8) waits for its tally" in out
    assert "refused: tally: order must list every seat" in out
    assert SheetStore(db(tmp_path)).open().history.sheet.rows[0].final == [-5, 5, 70, -5]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("variant", ["classic", "five-player"])
def test_the_sheet_and_its_statistics_fit_80_columns(tmp_path: Path, lang: str, variant: str) -> None:
    """``show`` and ``stats`` print tables a terminal of 80 columns shows whole, for 4 and 5
    players, in both languages, with names longer than a column's heading."""
    try:
        _fit_80_columns(tmp_path, lang, variant)
    finally:
        use("en")  # ``--lang`` chose the language of the process


def _fit_80_columns(tmp_path: Path, lang: str, variant: str) -> None:
    doc = tallied(played_record(variant))
    doc["players"] = ["Bartholomew", "Bob", "Catherine-Anne", "Dan", "Evangeline"][: len(doc["players"])]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    d = ["--db", db(tmp_path), "--lang", lang]
    code, out = run([*d, "import", str(path), "--title", "long"])
    assert code == 0, out
    code, shown = run([*d, "show", "-s", "long"])
    assert code == 0, shown
    code, stats = run([*d, "stats", "-s", "long"])
    assert code == 0, stats
    for text in (shown, stats):
        wide = [line for line in text.splitlines() if len(line) > 80]
        assert wide == [], "\n".join(wide)
    # nothing was cut: every deal's scores, the final totals and every doubling pair are there
    sheet = SheetStore(db(tmp_path)).open("long").history.sheet
    final = next(line for line in shown.splitlines() if ("final totals" if lang == "en" else "totaux finals") in line)
    assert final.split()[-len(sheet.totals) :] == [str(t) for t in sheet.totals]
    for row in sheet.rows:
        assert row.final is not None
        line = next(x for x in shown.splitlines() if x.split()[:1] == [str(row.number)])
        assert line.split()[-len(row.final) :] == [str(v) for v in row.final]
    flat = " ".join(shown.split())
    for row in sheet.rows:
        for pair in row.doubles:
            assert f"{doc['players'][pair.doubler]}>" in flat
    words = ("contract / doubles", "declaring", "best and worst deals")
    french = ("contrat / contres", "déclarant", "meilleures et pires donnes")
    for en, fr in zip(words, french, strict=True):
        assert (en in shown + stats) == (lang == "en") and (fr in shown + stats) == (lang == "fr")
