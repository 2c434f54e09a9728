"""Saving and resuming a terminal game: a ``barbu-record/1`` file and its seed file.

The game itself is saved as a plain record (RECORD.md), readable by ``barbu replay``
and every other front end: the deals so far, the one in progress included with its
hands. A record never holds the seed, and it allows no keys of its own, so the table's
settings go into a small JSON file next to it, ``FILE.barbu-seed``::

    {"format": "barbu-seed/1", "seed": 42, "first_deal": 0, "seat": 0,
     "bots": ["heuristic", "heuristic", "heuristic"]}

``seed`` deals the deals from ``first_deal`` on (:class:`~barbu.tui.table.Table`), so a
resumed game goes on with the very deals it would have had. Without the seed file a
record still resumes: the deals after the saved ones are dealt from a new seed.

>>> import tempfile, pathlib
>>> from barbu.tui.table import Table
>>> table = Table.new("classic", bots=["random"], seed=9)
>>> table.apply_bot(*table.bot_action()) if not table.person_to_act else None
>>> path = pathlib.Path(tempfile.mkdtemp()) / "game.json"
>>> save_table(table, path)
>>> sorted(p.name for p in path.parent.iterdir())
['game.json', 'game.json.barbu-seed']
>>> again = load_table(path)
>>> again.view() == table.view(), again.seed
(True, 9)
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from barbu.errors import N_, BarbuError, RecordError, RecordUsageError, Text
from barbu.record import game_from_record, game_to_record
from barbu.tui.table import Table

SEED_FORMAT = "barbu-seed/1"
SEED_SUFFIX = ".barbu-seed"


class SaveError(BarbuError):
    """A save file that cannot be written, read or resumed; the message says why.

    ``text`` is the message as a :class:`~barbu.errors.Text` for the screen to translate
    (``barbu.language.error_text``), ``message`` its English:

    >>> SaveError(N_("cannot save to {file}: {why}", file="x.json", why="disk full")).message
    'cannot save to x.json: disk full'
    """

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.text = message
        """The message as a :class:`~barbu.errors.Text`, for the screen to translate."""
        self.message = str(message)


def seed_path(path: str | os.PathLike[str]) -> Path:
    """The seed file that goes with the record at ``path``.

    >>> seed_path("games/monday.json").name
    'monday.json.barbu-seed'
    """
    p = Path(path)
    return p.with_name(p.name + SEED_SUFFIX)


def new_seed() -> int:
    """A fresh seed for a game started without ``--seed``."""
    return secrets.randbits(63)


def _write_json(path: Path, doc: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def save_table(table: Table, path: str | os.PathLike[str]) -> None:
    """Write the game as a record at ``path`` and the table's settings at ``path.barbu-seed``."""
    p = Path(path)
    record = game_to_record(table.game, table.players)
    settings = {
        "format": SEED_FORMAT,
        "seed": table.seed,
        "first_deal": table.first_deal,
        "seat": table.seat,
        "bots": list(table.bot_levels),
    }
    try:
        _write_json(p, record)
        _write_json(seed_path(p), settings)
    except OSError as e:
        raise SaveError(N_("cannot save to {file}: {why}", file=str(p), why=e.strerror or str(e))) from None


def _read_json(path: Path, seed_file: bool = False) -> Any:
    """The JSON document in ``path`` (a record, or a seed file): UTF-8, with or without a byte order mark."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as e:
        why = (e.strerror or "not allowed").lower()
        if seed_file:
            raise SaveError(N_("cannot read seed file {file}: {why}", file=str(path), why=why)) from None
        raise SaveError(N_("cannot read record {file}: {why}", file=str(path), why=why)) from None
    except UnicodeDecodeError as e:
        raise SaveError(
            N_(
                "{file} is not UTF-8 text (byte at offset {offset}): a saved game's files are JSON text",
                file=str(path),
                offset=e.start,
            )
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(
            N_(
                "{file} is not JSON (line {line}, column {column}): a saved game's files are JSON objects",
                file=str(path),
                line=e.lineno,
                column=e.colno,
            )
        ) from None


def _settings(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    doc = _read_json(path, seed_file=True)
    if not isinstance(doc, dict) or doc.get("format") != SEED_FORMAT:
        raise SaveError(
            N_(
                '{file} is not a seed file: it should be a JSON object with "format": "{format}"',
                file=str(path),
                format=SEED_FORMAT,
            )
        )
    seed = doc.get("seed")
    first = doc.get("first_deal", 0)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise SaveError(
            N_("{file}: seed must be an integer or a string, not {found}", file=str(path), found=repr(seed))
        )
    if not isinstance(first, int) or isinstance(first, bool) or first < 0:
        raise SaveError(
            N_("{file}: first_deal must be a deal index (0 or more), not {found}", file=str(path), found=repr(first))
        )
    return doc


def saved_games(folder: str | os.PathLike[str] = ".") -> list[Path]:
    """The games ``barbu play`` saved in ``folder``: records with a seed file next to them,
    the most recently saved first.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> save_table(Table.new("classic", bots=["random"], seed=3), folder / "monday.json")
    >>> [p.name for p in saved_games(folder)]
    ['monday.json']
    """
    found = []
    for seeds in Path(folder).glob("*" + SEED_SUFFIX):
        record = seeds.with_name(seeds.name[: -len(SEED_SUFFIX)])
        if record.is_file():
            found.append(record)
    return sorted(found, key=lambda p: (-p.stat().st_mtime, p.name))


def load_table(
    path: str | os.PathLike[str],
    seat: int | None = None,
    bots: Sequence[str] | None = None,
    seed: int | str | None = None,
) -> Table:
    """Resume the game saved at ``path`` (with its seed file when there is one).

    ``seat`` and ``bots`` override the saved ones; ``seed`` deals the next deals when
    there is no seed file (else a new seed does).
    """
    p = Path(path)
    doc = _read_json(p)
    try:
        game = game_from_record(doc)
    except RecordUsageError as e:
        raise SaveError(N_("{file} is not a Barbu record: {why}", file=str(p), why=e.text)) from None
    except RecordError as e:
        raise SaveError(N_("{file} is not a valid record: {why}", file=str(p), why=e.text)) from None
    settings = _settings(seed_path(p))
    n = game.rules.players
    if seat is None:
        seat = settings.get("seat", 0)
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise SaveError(N_("the seat must be from 0 to {last}, not {found}", last=n - 1, found=repr(seat)))
    levels = list(bots) if bots else list(settings.get("bots", []))
    try:
        if settings:
            return Table.resume(game, seat, levels, settings["seed"], settings.get("first_deal", 0))
        return Table.resume(game, seat, levels, new_seed() if seed is None else seed, None)
    except RecordError as e:
        raise SaveError(N_("cannot resume {file}: {why}", file=str(p), why=e.text)) from None
    except ValueError as e:
        raise SaveError(Text(str(e))) from None


__all__ = [
    "SEED_FORMAT",
    "SEED_SUFFIX",
    "SaveError",
    "load_table",
    "new_seed",
    "save_table",
    "saved_games",
    "seed_path",
]
