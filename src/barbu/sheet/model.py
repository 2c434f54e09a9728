"""The score sheet of a game played with real cards: a ``barbu-record/1`` document of tallied deals.

A :class:`Sheet` is immutable: every change (:meth:`Sheet.add`, :meth:`Sheet.edit`,
:meth:`Sheet.delete`, :meth:`Sheet.insert`, :meth:`Sheet.enter_tally`,
:meth:`Sheet.rename`) returns a new sheet or raises :class:`SheetError` saying what is
wrong, and the sheet it was asked of is unchanged. Every deal goes through the rules core's
checked door (:class:`barbu.Game`), so the sheet knows exactly what the core knows: which
contracts a declarer has left, which doubles are allowed or compulsory, what a tally must
add up to, and every score. Its state is a record (:meth:`Sheet.record`) and a JSON view for
front ends (:meth:`Sheet.state`).

Deals are numbered from 1, as a scorekeeper counts them and as ``barbu replay`` reports them.

>>> from barbu.sheet import Double
>>> sheet = Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"])
>>> sheet = sheet.add(DealEntry("no-queens", doubles=(Double(1, 0, True), Double(2, 0), Double(2, 1)),
...                             tally={"queens": [0, 2, 1, 1]}))
>>> row = sheet.rows[0]
>>> row.raw, row.adjustments, row.final
([0, -12, -6, -6], [30, -30, 0, 0], [30, -42, -6, -6])
>>> sheet = sheet.add(DealEntry("no-king"))
>>> sheet.rows[1].status, sheet.rows[1].final, sheet.totals
('skipped', [1, -7, -7, -7], [31, -49, -13, -13])
>>> try:
...     sheet.add(DealEntry("no-king"))
... except SheetError as e:
...     print(e.kind, e.deal, e.message[:40])
contract 3 seat 0 cannot declare 'no-king': the con
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from barbu.cards import RANKS, SUITS
from barbu.deal import Phase
from barbu.doubling import Doubling, round_one_order
from barbu.errors import OptionsError, RecordError, RecordUsageError
from barbu.game import Game
from barbu.language import _, _n, _p, error_text, tally_words
from barbu.names import NAME_LIMIT, TextError, check_text
from barbu.record import game_from_record, game_to_record
from barbu.rulesets import Rules, rules
from barbu.sheet.doubles import SheetError, grid_of_deal
from barbu.sheet.entry import DealEntry, DealSpec, apply_spec, spec_of_deal, spec_of_entry
from barbu.sheet.rows import ContractChoice, DealRow, NextDeal, PairResult, tally_totals
from barbu.tally import tally_json
from barbu.tally_keys import tally_table


class LaterDealError(SheetError):
    """A change that would make a later deal impossible (``deal`` is that later deal).

    ``changed`` is the first deal the change touched. Nothing is changed; ask again with
    ``drop_later=True`` to keep the change and drop the deals from ``deal`` on.
    """

    def __init__(self, changed: int, broken: SheetError, what: str = "", before: int | None = None) -> None:
        what = what or _("the change to deal {n}", n=changed)
        if before is None:
            message = _("deal {n} no longer fits after {change}: {why}", n=broken.deal, change=what, why=broken.message)
        else:
            message = _(
                "deal {n} (deal {before} before) no longer fits after {change}: {why}",
                n=broken.deal,
                before=before,
                change=what,
                why=broken.message,
            )
        super().__init__(broken.kind, message, broken.deal, broken.seat)
        self.changed = changed
        self.reason = broken.message

    def as_json(self) -> dict[str, Any]:
        """The error as JSON, with ``later: true`` and the changed deal."""
        return {**super().as_json(), "later": True, "changed": self.changed, "reason": self.reason}


def default_players(n: int) -> list[str]:
    """``P0``, ``P1``, … for a table whose names are not known."""
    return [f"P{s}" for s in range(n)]


def check_players(names: Sequence[str], n: int) -> tuple[str, ...]:
    """Player names, stripped; one per seat, not empty, not a number, all different (:func:`barbu.names.check_text`)."""
    if isinstance(names, str) or len(names) != n:
        raise SheetError("players", _("give {n} player names, one per seat", n=n))
    out: list[str] = []
    for s, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise SheetError("players", _("the name of seat {seat} is empty", seat=s), seat=s)
        try:
            name = check_text(name, _("seat {n} name", n=s), NAME_LIMIT)
        except TextError as e:
            raise SheetError("players", error_text(e), seat=s) from None
        if name.isdigit():
            raise SheetError("players", _("a name cannot be a number ({name}): numbers mean seats", name=name), seat=s)
        if name.casefold() in (o.casefold() for o in out):
            raise SheetError(
                "players", _("two players are called {name}: give each seat its own name", name=repr(name)), seat=s
            )
        out.append(name)
    return tuple(out)


def _distinct_names(names: Sequence[str]) -> list[str]:
    """Names fit for a sheet made from a record's names (a record allows any text, even twice)."""
    cleaned: list[str] = []
    for s, name in enumerate(names):
        try:
            name = check_text(" ".join(name.split())[:NAME_LIMIT], _("name"), NAME_LIMIT)
        except TextError:
            name = ""
        cleaned.append(name if name and not name.isdigit() else f"P{s}")
    folded = [n.casefold() for n in cleaned]
    return [f"{n} {s}" if folded.count(n.casefold()) > 1 else n for s, n in enumerate(cleaned)]


class Sheet:
    """A score sheet. Make one with :meth:`new` or :meth:`from_record`; see the module docstring."""

    def __init__(self, game: Game, players: Sequence[str], notes: Sequence[str] = ()) -> None:
        self._game = game
        self.players: tuple[str, ...] = check_players(players, game.rules.players)
        """The display names, one per seat."""
        self.notes: tuple[str, ...] = tuple(notes)
        """What an import changed (played deals turned into tallies, a deal left out)."""
        self._rows: tuple[DealRow, ...] | None = None

    # -- making sheets ---------------------------------------------------------------

    @classmethod
    def new(
        cls,
        variant: str = "classic",
        options: Mapping[str, Any] | None = None,
        players: Sequence[str] | None = None,
        first_declarer: int = 0,
    ) -> Sheet:
        """An empty sheet for ``variant`` with ``options`` (RULES.md §6)."""
        try:
            r = rules(variant, options)
        except OptionsError as e:
            raise SheetError("record", error_text(e)) from None
        if not isinstance(first_declarer, int) or not 0 <= first_declarer < r.players:
            raise SheetError("record", _("the first declarer must be a seat from 0 to {last}", last=r.players - 1))
        names = list(players) if players is not None else default_players(r.players)
        return cls(Game(r, first_declarer), names)

    @classmethod
    def from_record(cls, doc: object) -> Sheet:
        """The sheet of any valid record: played deals become their tallies.

        A last deal stopped before its tally (in the calls, or in play) is left out, and
        :attr:`notes` says so. An invalid record raises :class:`SheetError` (kind
        ``record``) with ``barbu replay``'s message.
        """
        try:
            game = game_from_record(doc)
        except RecordError as e:
            raise SheetError("record", error_text(e), e.deal, e.seat) from None
        except RecordUsageError as e:
            raise SheetError("record", error_text(e)) from None
        assert isinstance(doc, Mapping)
        r = game.rules
        notes = []
        played = [d for d in game.deals if d.finished and d.dealt is not None and not d.skipped]
        if played:
            notes.append(
                _n(
                    "{n} played deal turned into its tally",
                    "{n} played deals turned into their tallies",
                    len(played),
                    n=len(played),
                )
            )
        out = Game(r, game.first_declarer)
        deals = [d for d in game.deals if d.finished or d.started]
        for d in deals:
            if not d.finished:
                if d.phase in (Phase.CALL, Phase.TRUMP, Phase.RANK) or r.scheduled_contract(d.index) is not None:
                    notes.append(
                        _("deal {n} stopped before its tally ({phase}): it is left out", n=d.index + 1, phase=d.phase)
                    )
                    break
                if d.phase is not Phase.TALLY:
                    notes.append(
                        _("deal {n} was not finished ({phase}): it waits for its tally", n=d.index + 1, phase=d.phase)
                    )
            apply_spec(out, spec_of_deal(d), last=d is deals[-1])
        players = doc.get("players") or default_players(r.players)
        try:
            check_players(players, r.players)
        except SheetError:
            players = _distinct_names(players)
            notes.append(
                _("the players were renamed so that each seat has its own name: {names}", names=", ".join(players))
            )
        return cls(out, players, notes)

    # -- reading -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rule set with its options."""
        return self._game.rules

    @property
    def variant(self) -> str:
        """The rule set's name."""
        return self._game.rules.name

    @property
    def options(self) -> dict[str, Any]:
        """The options as a record writes them."""
        return self._game.rules.as_options()

    @property
    def first_declarer(self) -> int:
        """The seat of the first declarer."""
        return self._game.first_declarer

    @property
    def game(self) -> Game:
        """A copy of the core's game (the sheet itself never changes)."""
        return self._game.copy()

    @property
    def totals(self) -> list[int]:
        """The running totals of the scored deals."""
        return list(self._game.totals)

    @property
    def complete(self) -> bool:
        """True once every deal of the game is scored."""
        return self._game.is_over

    @property
    def ranking(self) -> list[int]:
        """Rank per seat, 1 = best (``french``: the lowest total is best)."""
        return self._game.ranking()

    @property
    def rows(self) -> tuple[DealRow, ...]:
        """The deals entered so far, scored, skipped or waiting for a tally."""
        if self._rows is None:
            self._rows = tuple(self._make_rows())
        return self._rows

    def row(self, number: int) -> DealRow:
        """Deal ``number`` (1-based)."""
        if not 1 <= number <= len(self.rows):
            raise SheetError("deal", self._no_such_deal(number), number)
        return self.rows[number - 1]

    @property
    def pending(self) -> DealRow | None:
        """The last deal when it waits for its tally."""
        rows = self.rows
        return rows[-1] if rows and rows[-1].status == "pending" else None

    def _no_such_deal(self, number: int) -> str:
        n = len(self.rows)
        if not n:
            return _("there is no deal {number}: the sheet has no deal", number=number)
        return _n(
            "there is no deal {number}: the sheet has {n} deal (1 to {n})",
            "there is no deal {number}: the sheet has {n} deals (1 to {n})",
            n,
            number=number,
            n=n,
        )

    def _make_rows(self) -> list[DealRow]:
        r = self.rules
        out = []
        running = [0] * r.players
        counts = [0] * r.players
        for deal in self._game.deals:
            if not (deal.finished or deal.started):
                continue
            assert deal.contract is not None
            counts[deal.declarer] += 1
            grid = grid_of_deal(deal)
            pairs: tuple[PairResult, ...] = ()
            totals = None
            if deal.final is not None:
                assert deal.raw is not None
                running = [t + f for t, f in zip(running, deal.final, strict=True)]
                totals = list(running)
                pairs = tuple(
                    PairResult(
                        d.doubler, d.doubled, d.multiplier, d.multiplier * (deal.raw[d.doubler] - deal.raw[d.doubled])
                    )
                    for d in grid
                )
            status = "pending" if not deal.finished else "skipped" if deal.skipped else "scored"
            out.append(
                DealRow(
                    number=deal.index + 1,
                    declarer=deal.declarer,
                    k=counts[deal.declarer],
                    contract=deal.contract.id,
                    title=deal.contract.title,
                    trump=SUITS[deal.trump] if deal.trump is not None else None,
                    rank=RANKS[deal.rank] if deal.rank is not None and r.flags.domino_start == "named" else None,
                    doubles=grid,
                    tally=tally_json(deal.tally) if deal.tally is not None and not deal.skipped else None,
                    status=status,
                    raw=list(deal.raw) if deal.raw is not None else None,
                    adjustments=list(deal.adjustments) if deal.adjustments is not None else None,
                    final=list(deal.final) if deal.final is not None else None,
                    totals=totals,
                    pairs=pairs,
                )
            )
        return out

    @property
    def next(self) -> NextDeal | None:
        """The next deal to enter, or None when the game is over or the last deal waits for its tally."""
        game = self._game
        deal = game.current
        if deal is None or self.pending is not None:
            return None
        r = self.rules
        choices = []
        contracts = deal.available if r.scheduled_contract(deal.index) is None else (deal.contract,)
        for c in contracts:
            assert c is not None
            may: dict[int, list[int]] = {}
            if r.doubling:
                doubling = Doubling(r.players, deal.declarer, c.doubling_class != "positive", r.flags, frozenset())
                may = {s: doubling.may_double(s) for s in range(r.players)}
            choices.append(
                ContractChoice(
                    c.id,
                    c.title,
                    c.doubling_class if r.doubling else None,
                    c.names_trump,
                    c.play == "domino" and r.flags.domino_start == "named",
                    c.tally_keys(),
                    may,
                )
            )
        k = 1 + sum(1 for row in self.rows if row.declarer == deal.declarer)
        order = round_one_order(r.players, deal.declarer, r.direction) if r.doubling else []
        return NextDeal(
            number=deal.index + 1,
            declarer=deal.declarer,
            k=k,
            contracts=tuple(choices),
            fixed=r.scheduled_contract(deal.index) is not None,
            forced=tuple(sorted(deal.forced)),
            ranks=tuple(RANKS[x] for x in r.domino_ranks),
            speaking_order=tuple(order),
        )

    def before(self, number: int) -> Sheet:
        """The sheet of the deals before deal ``number``: its next deal is deal ``number``.

        What a form for deal ``number`` needs (an edit, an insert, or the next deal) is
        ``sheet.before(number).next``.
        """
        if not 1 <= number <= len(self.rows) + 1:
            raise SheetError(
                "deal", _("deal {n} is not on the sheet: say 1 to {last}", n=number, last=len(self.rows) + 1), number
            )
        if number == len(self.rows) + 1:
            return self
        game = Game(self.rules, self.first_declarer)
        for spec in self._specs()[: number - 1]:
            apply_spec(game, spec, last=False)
        return self._with(game)

    def entry(self, number: int) -> DealEntry:
        """The entry of deal ``number``, as a starting point for an edit."""
        return self.row(number).entry

    def record(self) -> dict[str, Any]:
        """The sheet as a ``barbu-record/1`` document (tallied deals, with their scores)."""
        doc = game_to_record(self._game, list(self.players))
        doc["deals"] = doc["deals"][: len(self.rows)]
        return doc

    def state(self) -> dict[str, Any]:
        """Everything a front end shows, as JSON: rule set, players, deals, totals, what comes next."""
        r = self.rules
        nxt = self.next
        out: dict[str, Any] = {
            "variant": r.name,
            "rule_set_title": _p("variant", r.ruleset.title),
            "options": self.options,
            "players": list(self.players),
            "first_declarer": self.first_declarer,
            "deal_count": r.deal_count,
            "contracts_per_declarer": r.contracts_per_declarer,
            "doubling": r.doubling,
            "penalty_points": r.ruleset.penalty_points,
            "tally_totals": tally_totals(r),
            "tally_table": tally_words(tally_table(r.deck, r.cards_each), r.cards_each),
            "deals": [row.to_json() for row in self.rows],
            "totals": self.totals,
            "complete": self.complete,
            "ranking": self.ranking,
            "pending": self.pending.number if self.pending is not None else None,
            "next": nxt.to_json() if nxt is not None else None,
            "notes": list(self.notes),
        }
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sheet) and self.record() == other.record()

    def __hash__(self) -> int:
        return hash((self.variant, self.players, len(self.rows), tuple(self.totals)))

    def __repr__(self) -> str:
        return f"<Sheet {self.variant} {', '.join(self.players)}: {len(self.rows)}/{self.rules.deal_count} deals>"

    # -- changing ------------------------------------------------------------------

    def _specs(self) -> list[DealSpec]:
        return [spec_of_deal(d) for d in self._game.deals[: len(self.rows)]]

    def _with(self, game: Game) -> Sheet:
        return Sheet(game, self.players)

    def add(self, entry: DealEntry) -> Sheet:
        """The sheet with ``entry`` as its next deal."""
        if self.pending is not None:
            p = self.pending.number
            raise SheetError("deal", _("deal {n} waits for its tally: enter it first (or edit deal {n})", n=p), p)
        spec = spec_of_entry(entry, self.rules)
        game = self._game.copy()
        apply_spec(game, spec, last=True)
        return self._with(game)

    def enter_tally(self, tally: Mapping[str, Any]) -> Sheet:
        """The sheet with the tally of its last deal, which was waiting for it."""
        row = self.pending
        if row is None:
            raise SheetError("tally", _("no deal waits for its tally: add the next deal with its tally"))
        return self.edit(row.number, replace(row.entry, tally=tally))

    def preview(self, entry: DealEntry, number: int | None = None) -> DealRow:
        """The row ``entry`` would give as deal ``number`` (default: the next deal); nothing changes.

        Raises what :meth:`add` or :meth:`edit` would raise for the entry itself; later deals
        are not checked.
        """
        spec = spec_of_entry(entry, self.rules)
        n = len(self.rows) + 1 if number is None else number
        if not 1 <= n <= len(self.rows) + 1:
            raise SheetError("deal", self._no_such_deal(n), n)
        if n == len(self.rows) + 1 and self.pending is not None:
            raise SheetError("deal", _("deal {n} waits for its tally: enter it first", n=n - 1), n - 1)
        game = Game(self.rules, self.first_declarer)
        for s in self._specs()[: n - 1]:
            apply_spec(game, s, last=False)
        apply_spec(game, spec, last=True)
        return Sheet(game, self.players).rows[n - 1]

    def edit(self, number: int, entry: DealEntry, *, drop_later: bool = False) -> Sheet:
        """The sheet with deal ``number`` replaced by ``entry``; every later deal is replayed.

        If a later deal no longer fits (its contract is now used, a compulsory double is now
        missing, …) :class:`LaterDealError` names it and why, and nothing changes; with
        ``drop_later=True`` the change is kept and the deals from the first one that no
        longer fits are dropped.
        """
        return self.edit_many({number: entry}, drop_later=drop_later)

    def edit_many(self, changes: Mapping[int, DealEntry], *, drop_later: bool = False) -> Sheet:
        """Several deals changed at once (e.g. two contracts entered the wrong way round)."""
        if not changes:
            return self
        specs = self._specs()
        for number in changes:
            if not isinstance(number, int) or not 1 <= number <= len(specs):
                raise SheetError("deal", self._no_such_deal(number), number if isinstance(number, int) else None)
        for number, entry in changes.items():
            specs[number - 1] = spec_of_entry(entry, self.rules)
        first = min(changes)
        what = _("the change to deal {n}", n=first) if len(changes) == 1 else _("these changes")
        return self._rebuild(specs, first, set(changes), what, drop_later)

    def delete(self, number: int, *, drop_later: bool = False) -> Sheet:
        """The sheet without deal ``number``; the later deals move up one place.

        A moved deal keeps its contract, trump or rank, doubles grid and tally, and takes
        the declarer of its new place in the rotation. Deals that no longer fit are
        handled as in :meth:`edit`.
        """
        specs = self._specs()
        if not 1 <= number <= len(specs):
            raise SheetError("deal", self._no_such_deal(number), number)
        moved = [replace(s, calls=None) for s in specs[number:]]
        what = _("deleting deal {n}", n=number)
        return self._rebuild(specs[: number - 1] + moved, number, set(), what, drop_later, -1)

    def insert(self, number: int, entry: DealEntry, *, drop_later: bool = False) -> Sheet:
        """The sheet with ``entry`` inserted as deal ``number``; the later deals move down one place."""
        specs = self._specs()
        if not 1 <= number <= len(specs) + 1:
            raise SheetError(
                "deal", _("a deal can be inserted at 1 to {last}, not {n}", last=len(specs) + 1, n=number), number
            )
        moved = [replace(s, calls=None) for s in specs[number - 1 :]]
        new = [*specs[: number - 1], spec_of_entry(entry, self.rules), *moved]
        return self._rebuild(new, number, {number}, _("inserting deal {n}", n=number), drop_later, 1)

    def rename(self, players: Sequence[str]) -> Sheet:
        """The sheet with other player names (the deals do not change)."""
        return Sheet(self._game, players)

    def _rebuild(
        self, specs: list[DealSpec], changed: int, entered: set[int], what: str, drop_later: bool, shift: int = 0
    ) -> Sheet:
        """Replay ``specs`` (the deals after the change, numbered as they now stand).

        ``entered`` are the deals the scorekeeper just gave (their faults are theirs), ``what``
        names the change and ``shift`` how far the deals after ``changed`` moved.
        """
        game = Game(self.rules, self.first_declarer)
        for i, spec in enumerate(specs):
            number = i + 1
            try:
                apply_spec(game, spec, last=number == len(specs))
            except SheetError as e:
                e = SheetError(e.kind, e.message, number, e.seat)
                if number in entered or number < changed:
                    raise e from None
                if not drop_later:
                    before = number - shift if shift and number > changed else None
                    raise LaterDealError(changed, e, what, before) from None
                game = Game(self.rules, self.first_declarer)
                for j, kept in enumerate(specs[:i]):
                    apply_spec(game, kept, last=j == i - 1)
                break
        return self._with(game)


def sheets_equal(a: Sheet, b: Sheet) -> bool:
    """True when two sheets hold the same game: rule set, names, deals and scores."""
    return a.record() == b.record()


def entries_of(sheet: Sheet) -> list[DealEntry]:
    """The entries that give ``sheet``'s deals, in order."""
    return [row.entry for row in sheet.rows]


__all__ = [
    "ContractChoice",
    "DealEntry",
    "DealRow",
    "LaterDealError",
    "NextDeal",
    "PairResult",
    "Sheet",
    "SheetError",
    "check_players",
    "default_players",
    "entries_of",
    "sheets_equal",
    "tally_totals",
]
