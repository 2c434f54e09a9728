"""The scorekeeper's session in the terminal: questions for each deal, and the commands between deals.

A :class:`Session` asks for each deal in turn: contract, trump or rank, doubles, tally. At
the contract prompt a scorekeeper can also type ``show``, ``undo``, ``redo``, ``edit N``,
``delete N``, ``insert N``, ``stats``, ``export FORMAT [FILE]``, ``help`` or ``quit``. Every
change is saved at once. The command line around it is :mod:`barbu.sheet.command`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TextIO

from barbu.language import N_, _, tally_words
from barbu.sheet.doubles import SheetError
from barbu.sheet.entry import DealEntry
from barbu.sheet.export import doubles_text, export_sheet
from barbu.sheet.history import SheetHistory
from barbu.sheet.model import LaterDealError, Sheet
from barbu.sheet.notation import (
    doubles_words,
    parse_cards,
    parse_counts,
    parse_doubles,
    parse_order,
    parse_player,
)
from barbu.sheet.stats import sheet_stats
from barbu.sheet.store import SheetStore, StoredSheet
from barbu.sheet.tables import choice_text, deal_line, sheet_text, stats_text
from barbu.tally_keys import tally_table

HELP = N_("""commands at the contract prompt:
  CONTRACT or its number   enter the next deal (the start of a contract id is enough)
  show                     the sheet so far
  edit N / delete N        change or remove deal N (later deals are replayed)
  insert N                 enter a forgotten deal before deal N
  undo / redo              step back or forward through the changes
  stats                    statistics of this game
  export FORMAT [FILE]     record, csv, html or pdf (pdf needs a FILE)
  rename                   change the player names
  quit                     leave (everything is already saved)
at any later prompt, 'cancel' gives up the deal being entered.""")

DOUBLES_HELP = N_("""  a>b: a doubled b   a>>b: a doubled b and b redoubled   (a, b: names, their start, or seats)
  max: everyone says maximum   NAME max / NAME flanks / NAME pass: one player's call   -: nobody doubled""")


class Cancelled(Exception):
    """The scorekeeper typed ``cancel``."""


class Console:
    """Questions and answers on two streams; answers read from a file are echoed."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.echo = not (hasattr(stdin, "isatty") and stdin.isatty())
        self.told: set[str] = set()

    def once(self, key: str, text: str) -> None:
        """Print ``text`` the first time only (help that is not needed twice)."""
        if key not in self.told:
            self.told.add(key)
            self.say(text)

    def say(self, text: str = "") -> None:
        """Print a line."""
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str, default: str | None = None) -> str:
        """Ask a question; raise EOFError at the end of the input, :class:`Cancelled` on ``cancel``."""
        shown = f"{prompt} [{default}] > " if default else f"{prompt} > "
        self.stdout.write(shown)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise EOFError
        answer = line.strip()
        if self.echo:
            self.stdout.write(answer + "\n")
        if answer.casefold() == "cancel":
            raise Cancelled
        return answer if answer or default is None else default

    def until_valid(self, prompt: str, read: Callable[[str], Any], default: str | None = None) -> Any:
        """Ask until ``read`` accepts the answer (it raises :class:`SheetError` to refuse)."""
        while True:
            try:
                return read(self.ask(prompt, default))
            except SheetError as e:
                self.say("  " + _("refused: {why}", why=e.message))

    def yes(self, prompt: str, default: bool = False) -> bool:
        """A yes/no question."""
        answer = self.ask(f"{prompt} (y/n)", "y" if default else "n").casefold()
        return answer.startswith("y")


# -- entering a deal ---------------------------------------------------------------------


def ask_tally(console: Console, sheet: Sheet, contract: str, default: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ask each key of the contract's tally by its kind and label in :data:`~barbu.tally_keys.TALLY_KEYS`
    (answers checked for form; the core checks the sums)."""
    r = sheet.rules
    names = sheet.players
    n = r.players
    keys = r.contract(contract).tally_keys()
    table = tally_words(tally_table(r.deck, r.cards_each), r.cards_each)
    order = " ".join(names)
    tally: dict[str, Any] = {}
    for key in keys:
        old = default.get(key) if default else None
        kind, label, total = table[key]["kind"], table[key]["label"], table[key]["total"]
        if kind == "count":
            shown = " ".join(map(str, old)) if old is not None else None
            prompt = _("{label}, {order} ({total} in all)", label=label, order=order, total=total)
            tally[key] = console.until_valid(prompt, _counts_reader(n, total, key), shown)
        elif kind == "seat":
            tally[key] = console.until_valid(
                label, lambda t: parse_player(t, names), names[old] if old is not None else None
            )
        elif kind == "order":
            shown = " ".join(names[s] for s in old) if old is not None else None
            tally[key] = console.until_valid(label, lambda t: parse_order(t, names), shown)
        elif kind == "suits":
            rows = []
            for seat, name in enumerate(names):
                shown = " ".join(map(str, old[seat])) if old is not None else None
                rows.append(console.until_valid(f"{name}: {label}", _counts_reader(4, None, "suits"), shown))
            tally[key] = rows
        elif kind == "arrangements":
            arrangements = []
            for seat, name in enumerate(names):
                shown = " ".join(old[seat]) if old is not None else None
                arrangements.append(console.until_valid(f"{name}: {label}", parse_cards, shown))
            tally[key] = arrangements
    return tally


def _counts_reader(n: int, total: int | None, key: str) -> Callable[[str], list[int]]:
    return lambda text: parse_counts(text, n, total, key)


def contract_of(text: str, left: Sequence[str], every: Sequence[str] = ()) -> str:
    t = text.strip().casefold()
    if t in every and t not in left:
        listed = ", ".join(f"{i} {c}" for i, c in enumerate(left, 1))
        raise SheetError(
            "contract",
            _(
                "{contract} is not open to this declarer (already declared); the contracts left: {left}",
                contract=t,
                left=listed,
            ),
        )
    if t.isdigit() and 1 <= int(t) <= len(left):
        return left[int(t) - 1]
    found = [c for c in left if c == t] or [c for c in left if c.startswith(t)] if t else []
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{i} {c}" for i, c in enumerate(left, 1))
    if not found:
        raise SheetError("contract", _("{text} is not a contract left: {left}", text=repr(text), left=listed))
    raise SheetError(
        "contract", _("{text} could be {contracts}: type more", text=repr(text), contracts=", ".join(found))
    )


def enter_deal(
    console: Console, sheet: Sheet, number: int | None = None, contract: str | None = None, old: DealEntry | None = None
) -> DealEntry:
    """Ask for one deal (the next one, or deal ``number`` for an edit or insert) and return its entry.

    The entry is previewed by the core at each step, so a refusal is shown at the question
    that caused it and asked again.
    """
    r = sheet.rules
    names = sheet.players
    n = len(sheet.rows) + 1 if number is None else number
    base = sheet.before(n)
    nxt = base.next
    assert nxt is not None
    left = [c.id for c in nxt.contracts]
    every = [c.id for c in r.contracts]
    if contract is None:
        if nxt.fixed:
            contract = left[0]
        else:
            default = old.contract if old and old.contract in left else None
            contract = console.until_valid(
                _("contract ({contracts})", contracts=", ".join(left)), lambda t: contract_of(t, left, every), default
            )
    else:
        contract = contract_of(contract, left, every)
    assert contract is not None
    choice = next(c for c in nxt.contracts if c.id == contract)
    entry = DealEntry(contract)
    if choice.needs_trump:
        entry = console.until_valid(
            _("trump suit (S H D C)"),
            lambda t: _checked(base, replace(entry, trump=t), n),
            old.trump if old and old.contract == contract else None,
        )
    if choice.needs_rank:
        entry = console.until_valid(
            _("domino starting rank ({ranks})", ranks=" ".join(nxt.ranks)),
            lambda t: _checked(base, replace(entry, rank=t), n),
            old.rank if old and old.contract == contract else None,
        )
    if r.doubling:
        order = ", ".join(names[s] for s in nxt.speaking_order)
        console.say(_("doubles (speaking order {order}):", order=order))
        console.once("doubles", _(DOUBLES_HELP))
        if nxt.forced:
            must = ", ".join(names[s] for s in nxt.forced)
            console.say(
                "  " + _("compulsory: {who} must double {name} in this deal", who=must, name=names[nxt.declarer])
            )
        old_doubles = (doubles_text(old.doubles, names) or "-") if old and old.contract == contract else None

        def read_doubles(t: str) -> DealEntry:
            grid = parse_doubles(t, names, r, nxt.declarer, contract)
            return _checked(base, replace(entry, doubles=grid), n)

        entry = console.until_valid(_("doubles"), read_doubles, old_doubles)
        console.say(f"  {doubles_words(entry.doubles, names)}")
    if r.doubling:
        preview = base.preview(entry, n)
        if preview.status == "skipped":
            console.say(f"  {preview.shortcut}")
            return entry
    while True:
        old_tally = dict(old.tally) if old and old.contract == contract and old.tally else None
        tally = ask_tally(console, sheet, contract, old_tally)
        try:
            base.preview(replace(entry, tally=tally), n)
            return replace(entry, tally=tally)
        except SheetError as e:
            console.say("  " + _("refused: {why}", why=e.message))


def _checked(base: Sheet, entry: DealEntry, number: int) -> DealEntry:
    """The entry if the core accepts it so far (the tally aside)."""
    base.preview(entry, number)
    return entry


# -- the session ---------------------------------------------------------------------------


class Session:
    """An interactive session on one stored sheet."""

    def __init__(self, console: Console, store: SheetStore, stored: StoredSheet) -> None:
        self.console = console
        self.store = store
        self.stored = stored

    @property
    def history(self) -> SheetHistory:
        """The sheet's history."""
        return self.stored.history

    @property
    def sheet(self) -> Sheet:
        """The current sheet."""
        return self.stored.history.sheet

    def save(self) -> None:
        """Write the sheet to the store; if it was changed elsewhere meanwhile, reload it and refuse."""
        try:
            self.store.save(self.stored)
        except SheetError:
            self.stored = self.store.open(self.stored.id)
            raise SheetError(
                "store",
                _(
                    "the sheet was changed elsewhere (on the web page?) while you typed: your change was not saved; "
                    "here is the sheet as it is now, enter the change again"
                ),
            ) from None

    def refresh(self) -> None:
        """Reload the sheet if it was changed elsewhere (on the web page, in another terminal)."""
        version = self.store.version(self.stored.id)
        if version is None:
            raise SheetError("store", _("the sheet {sheet} was removed elsewhere", sheet=repr(self.stored.id)))
        if version != self.stored.version:
            self.stored = self.store.open(self.stored.id)
            self.console.say(_("(the sheet was changed elsewhere: it now has {n} deals)", n=len(self.sheet.rows)))

    def run(self) -> int:
        """Ask for deals until the game is over or the scorekeeper quits; return the exit code."""
        c = self.console
        players = ", ".join(self.sheet.players)
        c.say(
            _(
                "sheet {id}: {title} · {players} · type help for help",
                id=repr(self.stored.id),
                title=self.stored.title,
                players=players,
            )
        )
        try:
            while True:
                if not self._step():
                    return 0
        except EOFError:
            return 0

    def _step(self) -> bool:
        c = self.console
        self.refresh()
        sheet = self.sheet
        if sheet.pending is not None:
            row = sheet.pending
            c.say(_("deal {n} ({contract}) waits for its tally", n=row.number, contract=choice_text(row)))
            try:
                tally = ask_tally(c, sheet, row.contract)
                self._change(lambda: self.history.enter_tally(tally))
            except Cancelled:
                c.say(_("cancelled (edit {n} or delete {n} to change the deal itself)", n=row.number))
                return self._command(c.ask(_("command")), False)
            except SheetError as e:
                c.say(_("refused: {why}", why=e.message))
            return True
        nxt = sheet.next
        if nxt is None:
            c.say(sheet_text(sheet, self.stored.title))
            c.say(_("the game is over. (undo, edit N, export FORMAT FILE, stats, or quit)"))
            prompt = _("command")
        else:
            name = sheet.players[nxt.declarer]
            c.say(
                _(
                    "deal {n} of {count}: {name} declares (contract {k} of {per})",
                    n=nxt.number,
                    count=sheet.rules.deal_count,
                    name=name,
                    k=nxt.k,
                    per=sheet.rules.contracts_per_declarer,
                )
            )
            prompt = _("contract") if not nxt.fixed else _("{contract} (enter to go on)", contract=nxt.contracts[0].id)
        try:
            answer = c.ask(prompt)
        except Cancelled:
            return True
        return self._command(answer, nxt is not None)

    def _command(self, answer: str, open_deal: bool) -> bool:
        c = self.console
        word, _space, rest = answer.partition(" ")
        word = word.casefold()
        try:
            if word in ("quit", "q", "exit"):
                return False
            if word in ("help", "?"):
                c.say(_(HELP))
            elif word == "show":
                c.say(sheet_text(self.sheet, self.stored.title))
            elif word == "undo":
                self.history.undo()
                self.save()
                c.say(_("undone; the sheet has {n} deals", n=len(self.sheet.rows)))
            elif word == "redo":
                self.history.redo()
                self.save()
                c.say(_("redone; the sheet has {n} deals", n=len(self.sheet.rows)))
            elif word in ("edit", "delete", "insert"):
                self._edit(word, rest)
            elif word == "stats":
                c.say(stats_text(sheet_stats(self.sheet)))
            elif word == "export":
                fmt, _space, path = rest.strip().partition(" ")
                c.say(export_sheet(self.sheet, fmt, path.strip() or None, self.stored.title))
            elif word == "rename":
                names = [self.console.ask(_("name of seat {n}", n=s), n) for s, n in enumerate(self.sheet.players)]
                self._change(lambda: self.history.rename(names))
            elif open_deal:
                entry = enter_deal(c, self.sheet, contract=answer if answer else None)
                self._change(lambda: self.history.add(entry))
            else:
                c.say(_("no deal to enter now: type help for the commands"))
        except SheetError as e:
            c.say(_("refused: {why}", why=e.message))
        except Cancelled:
            c.say(_("cancelled"))
        return True

    def _change(self, do: Callable[[], Sheet]) -> None:
        sheet = do()
        self.save()
        if sheet.rows:
            self.console.say(deal_line(sheet.rows[-1], sheet.players))

    def _edit(self, word: str, rest: str) -> None:
        c = self.console
        try:
            number = int(rest.strip())
        except ValueError:
            raise SheetError(
                "deal", _("say which deal: {word} N (1 to {n})", word=word, n=len(self.sheet.rows))
            ) from None
        sheet = self.sheet
        if word == "delete":
            row = sheet.row(number)
            question = _(
                "delete deal {n} ({contract} by {name})?",
                n=number,
                contract=choice_text(row),
                name=sheet.players[row.declarer],
            )
            if not c.yes(question):
                return
            self._with_later(lambda drop: self.history.delete(number, drop), number)
            return
        if word == "insert":
            if not 1 <= number <= len(sheet.rows) + 1:
                raise SheetError("deal", _("a deal can be inserted at 1 to {last}", last=len(sheet.rows) + 1))
            entry = enter_deal(c, sheet, number)
            self._with_later(lambda drop: self.history.insert(number, entry, drop), number)
            return
        changes = {number: enter_deal(c, sheet, number, old=sheet.entry(number))}
        while True:
            try:
                self.history.edit(changes)
                break
            except LaterDealError as e:
                c.say(_("refused: {why}", why=e.message))
                answer = c.ask(_("edit deal {n} too (e), drop deals {n} and after (d), or cancel (c)?", n=e.deal), "c")
                if answer.casefold().startswith("e"):
                    assert e.deal is not None
                    changes[e.deal] = enter_deal(c, self._preview_edits(changes), e.deal, old=sheet.entry(e.deal))
                elif answer.casefold().startswith("d"):
                    self.history.edit(changes, drop_later=True)
                    break
                else:
                    return
        self.save()
        c.say(_("deal {n} changed; totals: {totals}", n=number, totals=", ".join(map(str, self.sheet.totals))))

    def _preview_edits(self, changes: dict[int, DealEntry]) -> Sheet:
        """The sheet with ``changes`` and the deals after the first that breaks dropped."""
        return self.sheet.edit_many(changes, drop_later=True)

    def _with_later(self, do: Callable[[bool], Sheet], number: int) -> None:
        c = self.console
        try:
            do(False)
        except LaterDealError as e:
            c.say(_("refused: {why}", why=e.message))
            if not c.yes(_("do it anyway and drop deals {n} and after (undo brings them back)?", n=e.deal)):
                return
            do(True)
        self.save()
        totals = ", ".join(map(str, self.sheet.totals))
        c.say(_("done; the sheet has {n} deals; totals: {totals}", n=len(self.sheet.rows), totals=totals))


__all__ = ["Cancelled", "Console", "Session", "ask_tally", "contract_of", "enter_deal"]
