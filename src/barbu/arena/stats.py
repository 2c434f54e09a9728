"""The arena's statistics: confidence intervals, decision times and the per-bot report.

The arena plays *duplicate games*: one set of deals played once per rotation of the bots
through the seats. Each duplicate game gives one number per bot (its mean points per game
over the rotations), so the 95% confidence interval of a bot's mean is Student's t interval
over duplicate games, where most of the luck of the cards has already cancelled.

>>> est = Estimate.of([1, 2, 3, 4, 5])
>>> est.mean, round(est.half_width or 0, 4), est.n
(3.0, 1.9632, 5)
>>> round(student_t_quantile(0.975, 10), 3)
2.228
>>> times = DecisionTimes()
>>> for t in (0.001, 0.002, 0.010):
...     times.add(t)
>>> round(times.median, 4), times.max
(0.002, 0.01)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

CONFIDENCE = 0.95
"""The level of every interval the arena reports."""


# -- Student's t ---------------------------------------------------------------


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz method)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for numerator in (
            m * (b - m) * x / ((a - 1.0 + m2) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for 0 <= x <= 1.

    >>> round(incomplete_beta(2, 3, 0.4), 6)  # 1 - 0.6**4 - 4 * 0.4 * 0.6**3
    0.5248
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom.

    >>> student_t_cdf(0.0, 3), round(student_t_cdf(1.0, 1), 6)  # Cauchy: 1/2 + atan(1)/pi
    (0.5, 0.75)
    """
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def student_t_quantile(p: float, df: float) -> float:
    """The ``p``-quantile of Student's t with ``df`` degrees of freedom (0 < p < 1).

    >>> [round(student_t_quantile(0.975, df), 3) for df in (1, 2, 4, 30)]
    [12.706, 4.303, 2.776, 2.042]
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    if df > 1e7:
        return NormalDist().inv_cdf(p)
    low, high = 0.0, 1.0
    while student_t_cdf(high, df) < p:
        low, high = high, high * 2.0
    for _ in range(200):
        mid = (low + high) / 2.0
        if student_t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


@dataclass(frozen=True)
class Estimate:
    """A mean with its 95% confidence half-width (None with fewer than two values)."""

    mean: float
    half_width: float | None
    n: int

    @classmethod
    def of(cls, values: Sequence[float], confidence: float = CONFIDENCE) -> Estimate:
        """The mean of ``values`` and Student's t interval around it.

        >>> Estimate.of([4.0])
        Estimate(mean=4.0, half_width=None, n=1)
        >>> Estimate.of([2, 2, 2]).half_width
        0.0
        """
        n = len(values)
        if n == 0:
            raise ValueError("an estimate needs at least one value")
        mean = math.fsum(values) / n
        if n < 2:
            return cls(mean, None, n)
        variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
        quantile = student_t_quantile(0.5 + confidence / 2.0, n - 1)
        return cls(mean, quantile * math.sqrt(variance / n), n)

    @property
    def low(self) -> float | None:
        """The lower end of the interval."""
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        """The upper end of the interval."""
        return None if self.half_width is None else self.mean + self.half_width

    def as_json(self) -> dict[str, Any]:
        """``mean``, ``half_width``, ``low``, ``high`` (null without an interval) and ``n``."""
        return {"mean": self.mean, "half_width": self.half_width, "low": self.low, "high": self.high, "n": self.n}

    def __str__(self) -> str:
        if self.half_width is None:
            return f"{self.mean:.1f}"
        return f"{self.mean:.1f} ± {self.half_width:.1f}"


# -- decision times --------------------------------------------------------------

_FLOOR_S = 1e-7
_BINS_PER_DECADE = 100


@dataclass
class DecisionTimes:
    """Seconds per decision: count, total, exact maximum and a fine log histogram.

    The histogram keeps 100 bins per decade from 0.1 µs, so the median it reports is
    within 1.2% of the exact one while millions of decisions fit in a few hundred
    numbers (cheap to send back from worker processes).
    """

    count: int = 0
    total: float = 0.0
    max: float = 0.0
    bins: dict[int, int] = field(default_factory=dict)

    def add(self, seconds: float) -> None:
        """Count one decision that took ``seconds``."""
        self.count += 1
        self.total += seconds
        if seconds > self.max:
            self.max = seconds
        b = int(math.log10(max(seconds, _FLOOR_S) / _FLOOR_S) * _BINS_PER_DECADE)
        self.bins[b] = self.bins.get(b, 0) + 1

    def merge(self, other: DecisionTimes) -> None:
        """Add every decision of ``other`` to these."""
        self.count += other.count
        self.total += other.total
        self.max = max(self.max, other.max)
        for b, k in other.bins.items():
            self.bins[b] = self.bins.get(b, 0) + k

    @property
    def median(self) -> float | None:
        """The (lower) median decision time, to within 1.2%; None without decisions."""
        return self.quantile(0.5)

    @property
    def p95(self) -> float | None:
        """The 95th percentile of the decision times, to within 1.2%; None without decisions."""
        return self.quantile(0.95)

    def quantile(self, q: float) -> float | None:
        """The (lower) ``q`` quantile of the decision times, to within 1.2%; None without decisions.

        >>> times = DecisionTimes()
        >>> for ms in range(1, 101):
        ...     times.add(ms / 1000)
        >>> abs(times.quantile(0.95) - 0.095) < 0.002
        True
        """
        if not self.count:
            return None
        rank = int((self.count - 1) * q)
        seen = 0
        for b in sorted(self.bins):
            seen += self.bins[b]
            if seen > rank:
                return min(_FLOOR_S * 10 ** ((b + 0.5) / _BINS_PER_DECADE), self.max)
        raise AssertionError("the bins do not add up to the count")

    @property
    def mean(self) -> float | None:
        """The mean decision time; None without decisions."""
        return self.total / self.count if self.count else None

    def as_json(self) -> dict[str, Any]:
        """``median``, ``p95``, ``max`` and ``mean`` seconds per decision."""
        return {"median": self.median, "p95": self.p95, "max": self.max if self.count else None, "mean": self.mean}


# -- what the games give back -----------------------------------------------------

FAILURES_KEPT = 3
"""How many illegal-action messages each bot keeps, to show what went wrong."""


@dataclass
class EntryTally:
    """One lineup entry (a bot in the list given to the arena) over one duplicate game."""

    points: list[int] = field(default_factory=list)
    """Its total in each rotation's game."""
    contract_points: dict[str, int] = field(default_factory=dict)
    """Sum of its final points over the deals of each contract."""
    contract_deals: dict[str, int] = field(default_factory=dict)
    """How many deals of each contract it sat in."""
    times: DecisionTimes = field(default_factory=DecisionTimes)
    illegal: int = 0
    failures: list[str] = field(default_factory=list)

    def add_deal(self, contract: str, points: int) -> None:
        """Count one finished deal of ``contract`` in which this entry scored ``points``."""
        self.contract_points[contract] = self.contract_points.get(contract, 0) + points
        self.contract_deals[contract] = self.contract_deals.get(contract, 0) + 1

    def add_illegal(self, message: str) -> None:
        """Count one illegal action (or a failure to answer) and keep its message."""
        self.illegal += 1
        if len(self.failures) < FAILURES_KEPT:
            self.failures.append(message)


@dataclass
class DuplicateResult:
    """What one duplicate game (one deal set, every rotation) gives back from a worker."""

    index: int
    entries: list[EntryTally]
    records: list[dict[str, Any]] = field(default_factory=list)
    """The record of each rotation's game, when asked for."""


@dataclass(frozen=True)
class BotReport:
    """One bot's line in the arena's report (entries with the same spec are one bot)."""

    bot: str
    seats: int
    """How many seats of the lineup it filled."""
    points_per_game: Estimate
    per_contract: dict[str, Estimate]
    times: DecisionTimes
    illegal: int
    failures: list[str]

    def as_json(self) -> dict[str, Any]:
        """The JSON object of this bot (see docs/arena.md)."""
        return {
            "bot": self.bot,
            "seats": self.seats,
            "points_per_game": self.points_per_game.as_json(),
            "per_contract": {c: e.as_json() for c, e in self.per_contract.items()},
            "decisions": self.times.count,
            "decision_seconds": self.times.as_json(),
            "illegal": self.illegal,
            "failures": list(self.failures),
        }


def bot_names(lineup: Sequence[str]) -> list[str]:
    """The distinct bots of a lineup, in order of first appearance.

    >>> bot_names(["heuristic", "random", "random", "random"])
    ['heuristic', 'random']
    """
    return list(dict.fromkeys(lineup))


def report_bots(
    lineup: Sequence[str], duplicates: Iterable[DuplicateResult], contracts: Sequence[str]
) -> tuple[list[BotReport], list[list[float]]]:
    """Per-bot reports and each duplicate game's points per game per bot.

    ``duplicates`` must come in a fixed order (by index) so that sums are the same
    whatever the number of workers.
    """
    names = bot_names(lineup)
    members = {name: [e for e, spec in enumerate(lineup) if spec == name] for name in names}
    per_game: dict[str, list[float]] = {name: [] for name in names}
    per_contract: dict[str, dict[str, list[float]]] = {name: {c: [] for c in contracts} for name in names}
    times = {name: DecisionTimes() for name in names}
    illegal = dict.fromkeys(names, 0)
    failures: dict[str, list[str]] = {name: [] for name in names}
    table: list[list[float]] = []
    for dup in duplicates:
        row = []
        for name in names:
            tallies = [dup.entries[e] for e in members[name]]
            games = [p for t in tallies for p in t.points]
            mean = math.fsum(games) / len(games)
            per_game[name].append(mean)
            row.append(mean)
            for c in contracts:
                deals = sum(t.contract_deals.get(c, 0) for t in tallies)
                if deals:
                    per_contract[name][c].append(sum(t.contract_points.get(c, 0) for t in tallies) / deals)
            for t in tallies:
                times[name].merge(t.times)
                illegal[name] += t.illegal
                failures[name].extend(t.failures[: FAILURES_KEPT - len(failures[name])])
        table.append(row)
    if not table:
        raise ValueError("no duplicate game was played")
    reports = [
        BotReport(
            bot=name,
            seats=len(members[name]),
            points_per_game=Estimate.of(per_game[name]),
            per_contract={c: Estimate.of(v) for c, v in per_contract[name].items() if v},
            times=times[name],
            illegal=illegal[name],
            failures=failures[name],
        )
        for name in names
    ]
    return reports, table
