"""A sheet with its history: the log of changes, for undo and redo.

A game is a log of actions; a score sheet is a log of the scorekeeper's changes. A
:class:`SheetHistory` keeps the sheet it started from (a new sheet or an imported record)
and every change since, as JSON (``add``, ``tally``, ``edit``, ``delete``, ``insert``,
``players``). The sheet at any point is a replay of the log up to that point, so undo
and redo move along the log, and a change made after an undo drops the changes that
were undone.

>>> from barbu.sheet import DealEntry, Sheet
>>> history = SheetHistory(Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"]))
>>> _ = history.add(DealEntry("no-king"))
>>> _ = history.add(DealEntry("no-queens"))
>>> history.sheet.totals, len(history.undo().rows), history.can_redo
([1, -15, -15, -15], 1, True)
>>> history.redo().totals
[1, -15, -15, -15]
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from barbu.language import _, _n, error_text
from barbu.sheet.doubles import SheetError
from barbu.sheet.entry import DealEntry
from barbu.sheet.model import Sheet

CHANGES = ("add", "tally", "edit", "delete", "insert", "players")
"""The kinds of change a log holds."""


def apply_change(sheet: Sheet, change: Mapping[str, Any]) -> Sheet:
    """The sheet after one logged change (raises :class:`SheetError` if it does not apply)."""
    kind = change.get("change")
    drop = bool(change.get("drop_later", False))
    if kind == "add":
        return sheet.add(DealEntry.from_json(change["entry"]))
    if kind == "tally":
        return sheet.enter_tally(change["tally"])
    if kind == "edit":
        changes = {int(k): DealEntry.from_json(v) for k, v in change["deals"].items()}
        return sheet.edit_many(changes, drop_later=drop)
    if kind == "delete":
        return sheet.delete(int(change["deal"]), drop_later=drop)
    if kind == "insert":
        return sheet.insert(int(change["deal"]), DealEntry.from_json(change["entry"]), drop_later=drop)
    if kind == "players":
        return sheet.rename(change["players"])
    raise SheetError("history", _unknown_change(repr(kind)))


def _unknown_change(shown: str) -> str:
    return _("unknown change {change}: the changes are {changes}", change=shown, changes=", ".join(CHANGES))


_KEYS = {
    "add": ("entry",),
    "tally": ("tally",),
    "edit": ("deals", "drop_later"),
    "delete": ("deal", "drop_later"),
    "insert": ("deal", "entry", "drop_later"),
    "players": ("players",),
}


def _deal_number(value: object, what: str) -> int:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise SheetError("deal", _("{what} must be a deal number (1, 2, …), not {value}", what=what, value=repr(value)))
    return value


def read_change(obj: object) -> dict[str, Any]:
    """A change sent from outside (a web page), checked for form and written as the log holds it.

    Only the form is checked here; whether the change applies is the sheet's (the core's) to say.

    >>> read_change({"change": "delete", "deal": "3"})
    {'change': 'delete', 'deal': 3, 'drop_later': False}
    >>> read_change({"change": "remove"})
    Traceback (most recent call last):
    ...
    barbu.sheet.doubles.SheetError: unknown change 'remove': the changes are add, tally, edit, delete, insert, players
    """
    if not isinstance(obj, Mapping):
        raise SheetError(
            "history",
            _(
                "a change is an object {form}; the kinds are {kinds}",
                form='{"change": KIND, ...}',
                kinds=", ".join(CHANGES),
            ),
        )
    kind = obj.get("change")
    if not isinstance(kind, str) or kind not in _KEYS:
        shown = repr(kind) if isinstance(kind, str | int | None) else _("of type {type}", type=type(kind).__name__)
        raise SheetError("history", _unknown_change(shown[:60]))
    allowed = _KEYS[kind]
    extra = [k for k in obj if k != "change" and k not in allowed]
    if extra:
        raise SheetError(
            "history",
            _(
                "unknown key {key} in a change {change} (its keys: {keys})",
                key=repr(extra[0]),
                change=repr(kind),
                keys=", ".join(allowed),
            ),
        )
    missing = [k for k in allowed if k != "drop_later" and k not in obj]
    if missing:
        raise SheetError("history", _("a change {change} needs {keys}", change=repr(kind), keys=", ".join(missing)))
    out: dict[str, Any] = {"change": kind}
    if "entry" in allowed:
        out["entry"] = DealEntry.from_json(obj["entry"]).to_json()
    if "deal" in allowed:
        out["deal"] = _deal_number(obj["deal"], "deal")
    if kind == "tally":
        if not isinstance(obj["tally"], Mapping):
            raise SheetError("tally", _("the tally must be an object keyed as the contract needs"))
        out["tally"] = copy.deepcopy(dict(obj["tally"]))
    if kind == "edit":
        deals = obj["deals"]
        if not isinstance(deals, Mapping) or not deals:
            raise SheetError(
                "deal", _("an edit names the deals it changes: {form}", form='{"deals": {"3": ENTRY, ...}}')
            )
        numbers = {_deal_number(k, _("a key of deals")): v for k, v in deals.items()}
        out["deals"] = {str(n): DealEntry.from_json(numbers[n]).to_json() for n in sorted(numbers)}
    if kind == "players":
        players = obj["players"]
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise SheetError("players", _("players must be a list of names, one per seat"))
        out["players"] = list(players)
    if "drop_later" in allowed:
        drop = obj.get("drop_later", False)
        if not isinstance(drop, bool):
            raise SheetError("history", _("drop_later must be true or false, not {value}", value=repr(drop)))
        out["drop_later"] = drop
    return out


class SheetHistory:
    """A sheet, its log of changes and the position in the log (for undo and redo).

    Every change method returns the new current sheet, or raises :class:`SheetError` and
    leaves the history exactly as it was.
    """

    def __init__(self, base: Sheet, log: Sequence[Mapping[str, Any]] = (), position: int | None = None) -> None:
        self.base = base
        """The sheet the log starts from."""
        self.log: list[dict[str, Any]] = []
        self._states: list[Sheet] = [base]
        for i, change in enumerate(log, 1):
            try:
                self._states.append(apply_change(self._states[-1], change))
            except (SheetError, KeyError, TypeError, ValueError) as e:
                raise SheetError(
                    "history", _("change {i} of the log does not apply: {why}", i=i, why=error_text(e))
                ) from None
            self.log.append(copy.deepcopy(dict(change)))
        self.position = len(self.log) if position is None else position
        if not 0 <= self.position <= len(self.log):
            raise SheetError(
                "history", _("position {position} is outside the log (0 to {n})", position=position, n=len(self.log))
            )

    @property
    def sheet(self) -> Sheet:
        """The current sheet."""
        return self._states[self.position]

    @property
    def can_undo(self) -> bool:
        """Whether there is a change to undo."""
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone change to redo."""
        return self.position < len(self.log)

    def describe(self, index: int) -> str:
        """Change ``index`` (1-based) in words, e.g. ``edit deal 3``."""
        c = self.log[index - 1]
        kind = c["change"]
        if kind == "add":
            return _("add deal {n}", n=len(self._states[index].rows))
        if kind == "tally":
            return _("tally of deal {n}", n=len(self._states[index].rows))
        if kind == "edit":
            return _n(
                "edit deal {deals}", "edit deals {deals}", len(c["deals"]), deals=", ".join(str(k) for k in c["deals"])
            )
        if kind == "delete":
            return _("delete deal {n}", n=c["deal"])
        if kind == "insert":
            return _("insert deal {n}", n=c["deal"])
        return _("rename the players")

    def do(self, change: Mapping[str, Any]) -> Sheet:
        """Apply a change (a JSON object as the log holds it) and log it."""
        sheet = apply_change(self.sheet, change)
        del self.log[self.position :]
        del self._states[self.position + 1 :]
        self.log.append(copy.deepcopy(dict(change)))
        self._states.append(sheet)
        self.position += 1
        return sheet

    def add(self, entry: DealEntry) -> Sheet:
        """Add the next deal."""
        return self.do({"change": "add", "entry": entry.to_json()})

    def enter_tally(self, tally: Mapping[str, Any]) -> Sheet:
        """Give the last deal, which waits for it, its tally."""
        return self.do({"change": "tally", "tally": copy.deepcopy(dict(tally))})

    def edit(self, changes: Mapping[int, DealEntry], drop_later: bool = False) -> Sheet:
        """Replace deals (by number); see :meth:`Sheet.edit_many`."""
        deals = {str(k): v.to_json() for k, v in sorted(changes.items())}
        return self.do({"change": "edit", "deals": deals, "drop_later": drop_later})

    def delete(self, number: int, drop_later: bool = False) -> Sheet:
        """Delete deal ``number``; see :meth:`Sheet.delete`."""
        return self.do({"change": "delete", "deal": number, "drop_later": drop_later})

    def insert(self, number: int, entry: DealEntry, drop_later: bool = False) -> Sheet:
        """Insert a deal before deal ``number``; see :meth:`Sheet.insert`."""
        return self.do({"change": "insert", "deal": number, "entry": entry.to_json(), "drop_later": drop_later})

    def rename(self, players: Sequence[str]) -> Sheet:
        """Change the player names."""
        return self.do({"change": "players", "players": list(players)})

    def undo(self) -> Sheet:
        """Go back one change."""
        if not self.can_undo:
            raise SheetError("history", _("nothing to undo"))
        self.position -= 1
        return self.sheet

    def redo(self) -> Sheet:
        """Go forward one undone change."""
        if not self.can_redo:
            raise SheetError("history", _("nothing to redo"))
        self.position += 1
        return self.sheet

    def to_json(self) -> dict[str, Any]:
        """The history as JSON: the base record, the log and the position."""
        return {"base": self.base.record(), "log": copy.deepcopy(self.log), "position": self.position}

    @classmethod
    def from_json(cls, obj: object) -> SheetHistory:
        """A history from :meth:`to_json`'s object; the log is replayed (and so checked)."""
        if not isinstance(obj, Mapping) or not isinstance(obj.get("log"), list) or "base" not in obj:
            raise SheetError("history", _('a sheet history is an object with "base", "log" and "position"'))
        position = obj.get("position")
        if position is not None and (not isinstance(position, int) or isinstance(position, bool)):
            raise SheetError("history", _("position must be a whole number, not {value}", value=repr(position)))
        return cls(Sheet.from_record(obj["base"]), obj["log"], position)


__all__ = ["CHANGES", "SheetHistory", "apply_change", "read_change"]
