"""The arena's report for people: tables (drawn as every table of the command line is,
:mod:`barbu.usage.table`) and a matplotlib chart.

>>> from barbu.arena import run_arena
>>> result = run_arena(["random"] * 4, variant="king", games=2, workers=1)
>>> [table.title.split(":")[0] for table in arena_tables(result)]
['king', 'points per deal of each contract (95% intervals)']
"""

from __future__ import annotations

import os

from barbu.arena.play import ArenaResult
from barbu.arena.stats import Estimate
from barbu.language import _, _n, _p
from barbu.rulesets import rules
from barbu.usage.table import Column, Table, coloured

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
"""Bar colours, one per bot."""


def _cell(est: Estimate | None, colour: bool) -> str:
    """``mean ± half-width``, green when the interval is above zero and red when below."""
    if est is None:
        return "-"
    text = str(est)
    if colour and est.low is not None and est.high is not None:
        if est.low > 0:
            return coloured(text, "green")
        if est.high < 0:
            return coloured(text, "red")
    return text


def contract_names(result: ArenaResult) -> dict[str, str]:
    """Each contract's title in the language of the moment, by its id (the JSON keeps the ids).

    >>> from barbu.language import speaking
    >>> from barbu.arena import run_arena
    >>> with speaking("fr"):
    ...     contract_names(run_arena(["random"] * 4, variant="king", games=1, workers=1))["king-no-boys"]
    'Les garçons (ni valets ni rois)'
    """
    game_rules = rules(result.variant, dict(result.options))
    return {c: _p("contract", game_rules.contract(c).title) for c in result.contracts}


def _ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.3g}"


def arena_tables(result: ArenaResult) -> list[Table]:
    """A table per bot (points per game, decision times, illegal actions) and one per contract,
    in the language of the moment; bot specs and contract ids stay as typed."""
    colour = result.higher_is_better
    speed = result.games_played / result.seconds if result.seconds > 0 else 0.0
    columns = [
        Column(_("bot"), right=False, wrap=True),
        Column(_("seats")),
        Column(_("points per game")),
        Column(_("decisions")),
        Column(_("ms: median / p95 / max")),
        Column(_("illegal")),
    ]
    rows = [
        [
            b.bot,
            str(b.seats),
            _cell(b.points_per_game, colour),
            str(b.times.count),
            f"{_ms(b.times.median)} / {_ms(b.times.p95)} / {_ms(b.times.max if b.times.count else None)}",
            coloured(str(b.illegal), "red") if b.illegal else "0",
        ]
        for b in result.bots
    ]
    title = _n(
        "{variant}: {n} duplicate game ({played} games), seed {seed}",
        "{variant}: {n} duplicate games ({played} games), seed {seed}",
        result.games,
        variant=result.variant,
        n=result.games,
        played=result.games_played,
        seed=result.seed,
    )
    figures = {"workers": result.workers, "seconds": f"{result.seconds:.1f}", "speed": f"{speed:.2f}"}
    if result.higher_is_better:
        caption = _(
            "95% intervals over duplicate games; higher is better; {workers} worker(s), {seconds} s, {speed} games/s",
            **figures,
        )
    else:
        caption = _(
            "95% intervals over duplicate games; lower (penalty points) is better; "
            "{workers} worker(s), {seconds} s, {speed} games/s",
            **figures,
        )
    main = Table(title, columns, rows, caption=caption)
    names = contract_names(result)
    contracts = Table(
        _("points per deal of each contract (95% intervals)"),
        [Column(_("contract"), right=False), *(Column(b.bot) for b in result.bots)],
        [
            [names[c], *(_cell(b.per_contract.get(c), colour) for b in result.bots)]
            for c in result.contracts
            if any(c in b.per_contract for b in result.bots)
        ],
    )
    return [main, contracts]


def plot_arena(result: ArenaResult, path: str | os.PathLike[str]) -> None:
    """Write a PNG: points per game per bot, and points per deal of each contract, with 95% intervals,
    its words in the language of the moment."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = result.bots
    contracts = [c for c in result.contracts if any(c in b.per_contract for b in bots)]
    colours = PALETTE
    fig, (left, right) = plt.subplots(
        1,
        2,
        figsize=(4 + 1.1 * len(contracts) + 0.3 * len(bots) * len(contracts) / 2, 4.8),
        gridspec_kw={"width_ratios": [1, max(2, len(contracts) / 2)]},
    )
    xs = range(len(bots))
    means = [b.points_per_game.mean for b in bots]
    errors = [b.points_per_game.half_width or 0.0 for b in bots]
    left.bar(xs, means, yerr=errors, capsize=6, color=[colours[i % len(colours)] for i in xs])
    left.set_xticks(list(xs), [_label(b.bot, b.seats) for b in bots], rotation=20, ha="right")
    left.set_ylabel(_("points per game"))
    left.set_title(_("per game"))
    left.axhline(0, color="black", linewidth=0.8)
    width = 0.8 / max(1, len(bots))
    for i, b in enumerate(bots):
        positions, heights, bars = [], [], []
        for k, c in enumerate(contracts):
            est = b.per_contract.get(c)
            if est is not None:
                positions.append(k - 0.4 + width * (i + 0.5))
                heights.append(est.mean)
                bars.append(est.half_width or 0.0)
        right.bar(
            positions,
            heights,
            width,
            yerr=bars,
            capsize=3,
            label=_label(b.bot, b.seats),
            color=colours[i % len(colours)],
        )
    names = contract_names(result)
    right.set_xticks(range(len(contracts)), [names[c] for c in contracts], rotation=30, ha="right")
    right.set_ylabel(_("points per deal"))
    right.set_title(_("per contract"))
    right.axhline(0, color="black", linewidth=0.8)
    right.legend(fontsize="small")
    if result.higher_is_better:
        suptitle = _n(
            "{variant}: {n} duplicate game, seed {seed}; 95% intervals",
            "{variant}: {n} duplicate games, seed {seed}; 95% intervals",
            result.games,
            variant=result.variant,
            n=result.games,
            seed=result.seed,
        )
    else:
        suptitle = _n(
            "{variant}: {n} duplicate game, seed {seed}; 95% intervals (penalty points: lower is better)",
            "{variant}: {n} duplicate games, seed {seed}; 95% intervals (penalty points: lower is better)",
            result.games,
            variant=result.variant,
            n=result.games,
            seed=result.seed,
        )
    fig.suptitle(suptitle, fontsize="medium")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png", dpi=110)
    plt.close(fig)


def _label(spec: str, seats: int, limit: int = 28) -> str:
    """A bot's name for the chart, cut short, with ``×k`` when it fills ``k`` seats."""
    name = spec if len(spec) <= limit else spec[: limit - 1] + "…"
    return f"{name} ×{seats}" if seats > 1 else name
