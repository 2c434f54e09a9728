"""The score sheet and its statistics as terminal tables (``rich``), and a deal in one line."""

from __future__ import annotations

import io
from collections.abc import Sequence

from barbu.cards import SUIT_SYMBOLS, SUITS
from barbu.sheet.export import doubles_text
from barbu.sheet.model import Sheet
from barbu.sheet.rows import DealRow
from barbu.sheet.stats import Stats


def choice_text(row: DealRow) -> str:
    if row.trump:
        return f"{row.contract} {SUIT_SYMBOLS[SUITS.index(row.trump)]}"
    if row.rank:
        return f"{row.contract} from {row.rank}"
    return row.contract


def sheet_text(sheet: Sheet, title: str = "", width: int = 120) -> str:
    """The sheet as a terminal table: a row per deal, and the running totals after each declarer's
    set (after each round of the table where the declarer changes every deal)."""
    from rich import box
    from rich.console import Console as RichConsole
    from rich.table import Table

    names = sheet.players
    r = sheet.rules
    table = Table(
        title=f"{title + ' · ' if title else ''}{r.ruleset.title}: {len(sheet.rows)}/{r.deal_count} deals",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("#", justify="right")
    table.add_column("declarer")
    table.add_column("contract")
    table.add_column("doubles")
    for name in names:
        table.add_column(name, justify="right")
    rows = sheet.rows
    block = not r.ruleset.fixed_rotation and r.flags.rotation == "block"
    for i, row in enumerate(rows):
        scores = [str(v) for v in row.final] if row.final is not None else [""] * len(names)
        note = {"skipped": " (not played)", "pending": " (waiting for the tally)"}.get(row.status, "")
        table.add_row(
            str(row.number), names[row.declarer], choice_text(row) + note, doubles_text(row.doubles, names), *scores
        )
        if block:
            last_of_set = i + 1 == len(rows) or rows[i + 1].declarer != row.declarer
        else:  # the declarer changes every deal: totals after each round of the table
            last_of_set = i + 1 == len(rows) or row.number % r.players == 0
        if last_of_set and row.totals is not None:
            table.add_row("", "", f"totals after deal {row.number}", "", *(str(t) for t in row.totals), style="bold")
            table.add_section()
    rank = sheet.ranking
    table.add_row(
        "",
        "",
        "final totals" if sheet.complete else "totals",
        "",
        *(f"{t} ({k})" for t, k in zip(sheet.totals, rank, strict=True)),
        style="bold",
    )
    out = io.StringIO()
    RichConsole(file=out, width=width, highlight=False, soft_wrap=False, no_color=True).print(table)
    for note in sheet.notes:
        out.write(f"note: {note}\n")
    return out.getvalue()


def stats_text(stats: Stats, width: int = 120) -> str:
    """Statistics as terminal tables."""
    from rich import box
    from rich.console import Console as RichConsole
    from rich.table import Table

    players = Table(title=f"players ({stats.games} game{'s' if stats.games != 1 else ''})", box=box.SIMPLE_HEAD)
    players.caption = "doubles: pairs opened (made), raised to ×2 (redbl), won, lost, even, and their points (±)"
    for col in ("player", "games", "wins", "total", "declaring", "best", "worst"):
        players.add_column(col, justify="left" if col in ("player", "best", "worst") else "right", no_wrap=True)
    for col in ("made", "redbl", "won", "lost", "even", "±"):
        players.add_column(col, justify="right", no_wrap=True)
    for p in stats.players:
        players.add_row(
            p.name,
            str(p.games),
            str(p.wins),
            str(p.total),
            str(p.declarer_points),
            p.best_contract or "",
            p.worst_contract or "",
            str(p.doubles_made),
            str(p.redoubles),
            str(p.doubles_won),
            str(p.doubles_lost),
            str(p.doubles_even),
            f"{p.doubling_points:+d}",
        )
    contracts = Table(title="contracts", box=box.SIMPLE_HEAD)
    for col in ("contract", "deals", "not played", "pairs", "redoubled", "declarer mean", "best", "worst"):
        contracts.add_column(col, justify="left" if col in ("contract", "best", "worst") else "right")
    for c in stats.contracts:
        mean = c.declarer_mean
        contracts.add_row(
            c.id,
            str(c.deals),
            str(c.skipped),
            str(c.pairs),
            str(c.redoubled),
            f"{mean:.1f}" if mean is not None else "",
            f"{c.best[0]} {c.best[2]} (deal {c.best[1]})" if c.best else "",
            f"{c.worst[0]} {c.worst[2]} (deal {c.worst[1]})" if c.worst else "",
        )
    out = io.StringIO()
    console = RichConsole(file=out, width=width, highlight=False, no_color=True)
    console.print(players)
    console.print(contracts)
    return out.getvalue()


def deal_line(row: DealRow, names: Sequence[str]) -> str:
    """One deal's result in a line: each player's score and the running totals."""
    if row.final is None:
        return f"deal {row.number}: {choice_text(row)}, waiting for the tally"
    assert row.totals is not None
    scores = ", ".join(f"{n} {v:+d}" for n, v in zip(names, row.final, strict=True))
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, row.totals, strict=True))
    shortcut = " (not played: points divided)" if row.status == "skipped" else ""
    return f"deal {row.number} {choice_text(row)}{shortcut}: {scores}\n  totals: {totals}"


__all__ = ["choice_text", "deal_line", "sheet_text", "stats_text"]
