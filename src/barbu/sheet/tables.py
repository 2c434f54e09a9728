"""The score sheet and its statistics as terminal tables that fit 80 columns, and a deal in one line.

The tables are drawn as every table of the command line is (:class:`barbu.usage.table.Table`).
Every table fits the console's width (80 columns by default) for 3 to 8 players: a deal's
doubles go on the line below its contract (folded onto more lines when long), player columns
are headed by names cut to :data:`NAME_WIDTH` characters, a sheet too wide for its players is
cut into stacked tables that repeat the deal, declarer and contract, and the statistics come as
several narrow tables. Their words are in the language of the moment; contract ids stay as they
are typed.

>>> from barbu.sheet import Sheet
>>> text = sheet_text(Sheet.new("classic", players=("Ann", "Bob", "Cat", "Dan")))
>>> max(len(line) for line in text.splitlines()) <= 80
True
"""

from __future__ import annotations

from collections.abc import Sequence

from barbu.cards import SUIT_SYMBOLS, SUITS
from barbu.language import _, _n, _p
from barbu.sheet.export import doubles_text
from barbu.sheet.model import Sheet
from barbu.sheet.rows import DealRow
from barbu.sheet.stats import Stats
from barbu.usage.table import Column, Table

WIDTH = 80
"""The width the tables are laid out for: a terminal's usual 80 columns."""

NAME_WIDTH = 7
"""A player's column is headed by the first characters of the name, at most this many."""


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """A name cut to ``width`` characters, its end marked when it is cut.

    >>> short_name("Ann"), short_name("Bartholomew")
    ('Ann', 'Bartho…')
    """
    return name if len(name) <= width else name[: width - 1] + "…"


def choice_text(row: DealRow) -> str:
    """The contract as typed, with its trump suit or starting rank.

    >>> choice_text(DealRow(1, 0, 1, "domino", "Domino", None, "7", (), None, "scored", None, None, None, None, ()))
    'domino from 7'
    """
    if row.trump:
        return f"{row.contract} {SUIT_SYMBOLS[SUITS.index(row.trump)]}"
    if row.rank:
        return _("{contract} from {rank}", contract=row.contract, rank=row.rank)
    return row.contract


def sheet_text(sheet: Sheet, title: str = "", width: int = WIDTH) -> str:
    """The sheet as a terminal table: a row per deal with its doubles on the line below, and the
    running totals after each declarer's set (after each round of the table where the declarer
    changes every deal), a line under each."""
    names = sheet.players
    short = [short_name(n) for n in names]
    r = sheet.rules
    heading = _(
        "{ruleset}: {done}/{count} deals",
        ruleset=_p("variant", r.ruleset.title),
        done=len(sheet.rows),
        count=r.deal_count,
    )
    columns = [
        Column("#"),
        Column(_("decl."), right=False),
        Column(_("contract / doubles"), right=False, wrap=True, least=16),
        *(Column(name) for name in short),
    ]
    blank = [""] * len(names)
    lines: list[list[str]] = []
    sets: set[int] = set()
    rows = sheet.rows
    block = not r.ruleset.fixed_rotation and r.flags.rotation == "block"
    for i, row in enumerate(rows):
        scores = [str(v) for v in row.final] if row.final is not None else blank
        note = {"skipped": " " + _("(not played)"), "pending": " " + _("(waiting)")}.get(row.status, "")
        lines.append([str(row.number), short[row.declarer], choice_text(row) + note, *scores])
        if row.doubles:
            lines.append(["", "", doubles_text(row.doubles, names), *blank])
        if block:
            last_of_set = i + 1 == len(rows) or rows[i + 1].declarer != row.declarer
        else:  # the declarer changes every deal: totals after each round of the table
            last_of_set = i + 1 == len(rows) or row.number % r.players == 0
        if last_of_set and row.totals is not None:
            lines.append(["", "", _("totals, deal {n}", n=row.number), *(str(t) for t in row.totals)])
            sets.add(len(lines) - 1)
    lines.append(["", "", _("final totals") if sheet.complete else _("totals"), *(str(t) for t in sheet.totals)])
    lines.append(["", "", _("rank"), *(str(k) for k in sheet.ranking)])
    table = Table(f"{title + ' · ' if title else ''}{heading}", columns, lines, keep=3, lines_after=sets, framed=False)
    out = [table.text(width)]
    out += [_("note: {note}", note=note) for note in sheet.notes]
    return "\n".join(out) + "\n"


def stats_text(stats: Stats, width: int = WIDTH) -> str:
    """Statistics as terminal tables: the players' results, their doubles, each contract's
    figures, and each contract's best and worst deal."""

    def columns(headings: Sequence[str], left: Sequence[str]) -> list[Column]:
        return [Column(h, right=h not in left) for h in headings]

    player, best, worst, contract = _("player"), _("best"), _("worst"), _("contract")
    games = _n("{n} game", "{n} games", stats.games, n=stats.games)
    results: list[list[str]] = []
    doubles: list[list[str]] = []
    for p in stats.players:
        name = short_name(p.name, 12)
        results.append(
            [
                name,
                str(p.games),
                str(p.wins),
                str(p.total),
                str(p.declarer_points),
                p.best_contract or "",
                p.worst_contract or "",
            ]
        )
        doubles.append(
            [
                name,
                str(p.doubles_made),
                str(p.redoubles),
                str(p.doubles_won),
                str(p.doubles_lost),
                str(p.doubles_even),
                f"{p.doubling_points:+d}",
            ]
        )
    contracts: list[list[str]] = []
    extremes: list[list[str]] = []
    for c in stats.contracts:
        mean = c.declarer_mean
        contracts.append(
            [
                c.id,
                str(c.deals),
                str(c.skipped),
                str(c.pairs),
                str(c.redoubled),
                f"{mean:.1f}" if mean is not None else "",
            ]
        )
        extremes.append(
            [
                c.id,
                _("{name} {points} (deal {n})", name=short_name(c.best[0], 12), points=c.best[2], n=c.best[1])
                if c.best
                else "",
                _("{name} {points} (deal {n})", name=short_name(c.worst[0], 12), points=c.worst[2], n=c.worst[1])
                if c.worst
                else "",
            ]
        )
    tables = [
        Table(
            _("players ({games})", games=games),
            columns((player, _("games"), _("wins"), _("total"), _("declaring"), best, worst), (player, best, worst)),
            results,
            framed=False,
        ),
        Table(
            _("doubles"),
            columns((player, _("made"), _("redbl"), _("won"), _("lost"), _("even"), "±"), (player,)),
            doubles,
            caption=_("pairs opened (made), raised to ×2 (redbl), won, lost, even, and their points (±)"),
            framed=False,
        ),
        Table(
            _("contracts"),
            columns(
                (contract, _("deals"), _("not played"), _("pairs"), _("redoubled"), _("declarer mean")), (contract,)
            ),
            contracts,
            framed=False,
        ),
        Table(
            _("best and worst deals"), columns((contract, best, worst), (contract, best, worst)), extremes, framed=False
        ),
    ]
    return "\n\n".join(t.text(width) for t in tables) + "\n"


def deal_line(row: DealRow, names: Sequence[str]) -> str:
    """One deal's result in a line: each player's score and the running totals."""
    if row.final is None:
        return _("deal {n}: {contract}, waiting for the tally", n=row.number, contract=choice_text(row))
    assert row.totals is not None
    scores = ", ".join(f"{n} {v:+d}" for n, v in zip(names, row.final, strict=True))
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, row.totals, strict=True))
    shortcut = " " + _("(not played: points divided)") if row.status == "skipped" else ""
    return (
        _(
            "deal {n} {contract}{shortcut}: {scores}",
            n=row.number,
            contract=choice_text(row),
            shortcut=shortcut,
            scores=scores,
        )
        + "\n  "
        + _("totals: {totals}", totals=totals)
    )


__all__ = ["NAME_WIDTH", "WIDTH", "choice_text", "deal_line", "sheet_text", "short_name", "stats_text"]
