"""A folder of score sheets, one JSON file each, with their history.

Each file holds a sheet's title, its history (the base record, the log of changes and the
position in it, :class:`~barbu.sheet.history.SheetHistory`) and, as a cache for listing, the
current record. The log is the truth: opening a sheet replays it. Files are written
whole to a temporary file and then renamed, so a crash never leaves half a sheet.

The default folder is ``$XDG_DATA_HOME/barbu/sheets`` (``~/.local/share/barbu/sheets``).

>>> import tempfile
>>> from barbu.sheet import Sheet
>>> from barbu.sheet.history import SheetHistory
>>> store = SheetStore(tempfile.mkdtemp())
>>> saved = store.create(SheetHistory(Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"])), "Friday game")
>>> saved.id, [s.title for s in store.list()]
('friday-game', ['Friday game'])
>>> store.open("fri").history.sheet.players
('Ann', 'Bob', 'Cat', 'Dan')
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from barbu.sheet.doubles import SheetError
from barbu.sheet.history import SheetHistory

FILE_FORMAT = "barbu-sheet/1"
"""The ``format`` of a stored sheet file."""


def default_folder() -> Path:
    """``$XDG_DATA_HOME/barbu/sheets``, or ``~/.local/share/barbu/sheets``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "barbu" / "sheets"


def _now() -> str:
    return datetime.now(UTC).isoformat()


def slug(title: str) -> str:
    """A file-name-safe id from a title.

    >>> slug("Friday game: Ann & Bob!")
    'friday-game-ann-bob'
    """
    s = re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")
    return s[:48].rstrip("-") or "sheet"


@dataclass
class StoredSheet:
    """A sheet as the store keeps it: id (its file name), title, times and history."""

    id: str
    title: str
    created: str
    updated: str
    history: SheetHistory


@dataclass(frozen=True)
class SheetSummary:
    """What a list of sheets shows, read from a file's cached record (no replay)."""

    id: str
    title: str
    variant: str
    players: tuple[str, ...]
    deals: int
    updated: str

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {
            "id": self.id,
            "title": self.title,
            "variant": self.variant,
            "players": list(self.players),
            "deals": self.deals,
            "updated": self.updated,
        }


class SheetStore:
    """A folder of sheets. ``folder`` defaults to :func:`default_folder`."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()

    def _path(self, sheet_id: str) -> Path:
        return self.folder / f"{sheet_id}.json"

    def _read(self, path: Path) -> dict[str, Any]:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise SheetError("store", f"cannot read the sheet file {path}: {e}") from None
        if not isinstance(doc, dict) or doc.get("format") != FILE_FORMAT:
            raise SheetError("store", f"{path} is not a sheet file (format {FILE_FORMAT})")
        return doc

    def ids(self) -> list[str]:
        """The ids of the stored sheets, sorted."""
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json"))

    def list(self) -> list[SheetSummary]:
        """Every readable sheet, the most recently changed first (unreadable files are left out)."""
        out = []
        for sheet_id in self.ids():
            try:
                doc = self._read(self._path(sheet_id))
                record = doc["record"]
                out.append(
                    SheetSummary(
                        sheet_id,
                        str(doc.get("title", sheet_id)),
                        str(record.get("variant")),
                        tuple(record.get("players") or ()),
                        len(record.get("deals") or ()),
                        str(doc.get("updated", "")),
                    )
                )
            except (SheetError, KeyError, AttributeError, TypeError):
                continue
        return sorted(out, key=lambda s: (s.updated, s.id), reverse=True)

    def resolve(self, ref: str | None) -> str:
        """The id named by ``ref``: an id, the start of one, or a title; None: the latest sheet."""
        if ref is not None and ref in self.ids():
            return ref
        summaries = self.list()
        if not summaries:
            raise SheetError("store", f"no sheet in {self.folder}: start one with `barbu score new`")
        if ref is None:
            return summaries[0].id
        ids = [s.id for s in summaries]
        if ref in ids:
            return ref
        found = [s.id for s in summaries if s.id.startswith(ref) or s.title.casefold() == ref.casefold()]
        if len(found) == 1:
            return found[0]
        if not found:
            raise SheetError("store", f"no sheet {ref!r}; the sheets are {', '.join(ids)}")
        raise SheetError("store", f"{ref!r} could be {', '.join(found)}: say which")

    def open(self, ref: str | None = None) -> StoredSheet:
        """The sheet named by ``ref`` (see :meth:`resolve`), its log replayed."""
        sheet_id = self.resolve(ref)
        doc = self._read(self._path(sheet_id))
        history = SheetHistory.from_json(doc.get("history"))
        return StoredSheet(
            sheet_id, str(doc.get("title", sheet_id)), str(doc.get("created", "")), str(doc.get("updated", "")), history
        )

    def create(self, history: SheetHistory, title: str | None = None) -> StoredSheet:
        """Store a new sheet; its id comes from the title (made unique)."""
        sheet = history.sheet
        title = (title or "").strip() or f"{', '.join(sheet.players)} ({sheet.variant})"
        base = slug(title)
        taken = set(self.ids())
        sheet_id, n = base, 2
        while sheet_id in taken:
            sheet_id, n = f"{base}-{n}", n + 1
        now = _now()
        stored = StoredSheet(sheet_id, title, now, now, history)
        self.save(stored)
        return stored

    def save(self, stored: StoredSheet) -> None:
        """Write a sheet's file (whole, then renamed into place)."""
        stored.updated = _now()
        doc = {
            "format": FILE_FORMAT,
            "id": stored.id,
            "title": stored.title,
            "created": stored.created,
            "updated": stored.updated,
            "history": stored.history.to_json(),
            "record": stored.history.sheet.record(),
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=f".{stored.id}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1, ensure_ascii=False)
                f.write("\n")
            os.replace(tmp, self._path(stored.id))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def remove(self, ref: str) -> str:
        """Delete a sheet's file; return its id."""
        sheet_id = self.resolve(ref)
        self._path(sheet_id).unlink()
        return sheet_id


__all__ = ["FILE_FORMAT", "SheetStore", "SheetSummary", "StoredSheet", "default_folder", "slug"]
