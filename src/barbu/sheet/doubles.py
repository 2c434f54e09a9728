"""The doubles grid of a score sheet: who doubled whom, and which doubles were redoubled.

At a real table the scorekeeper writes down the outcome of the calls, not the calls
themselves: a grid with one cell per business pair. :func:`calls_of_grid` turns a grid into
the calls in speaking order (round 1 from the declarer's left, then the late redoubles of
round 2, RULES.md §2.6), which the rules core then checks like any other calls; it is the
core that refuses a double the rules do not allow or a missing compulsory double.

:func:`fill` applies a spoken shorthand (``maximum``, ``flanks``, ``pass``) to one seat's
row and column of the grid, so that a table where everyone says "maximum" takes one word.

>>> from barbu import rules
>>> r = rules("classic")
>>> grid = (Double(1, 0), Double(2, 0), Double(2, 1, redoubled=True))
>>> [(seat, str(call)) for seat, call in calls_of_grid(grid, r, declarer=0)]
[(1, 'double P0'), (2, 'double P0 P1'), (3, 'pass'), (0, 'pass'), (1, 'redouble P2')]
>>> everyone = fill_all((), "maximum", r, declarer=0, contract="trumps")
>>> [str(d) for d in everyone]
['1>>0', '2>>0', '3>>0']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from barbu.actions import Call
from barbu.deal import Deal
from barbu.doubling import Doubling, round_one_order
from barbu.errors import BarbuError
from barbu.language import _
from barbu.rulesets import Rules

WORDS = {
    "maximum": "maximum",
    "max": "maximum",
    "table": "maximum",
    "flanks": "flanks",
    "family": "flanks",
    "pass": "pass",
}
"""The shorthands :func:`fill` understands, with the word each one means."""


class SheetError(BarbuError, ValueError):
    """Something the score sheet refuses; the sheet is left exactly as it was.

    ``kind`` says what is wrong (``contract``, ``trump``, ``rank``, ``call``, ``tally``,
    ``deal``, ``record``, ``history``), ``deal`` is the 1-based deal number where it is
    known and ``seat`` the seat concerned, where one is.
    """

    def __init__(self, kind: str, message: str, deal: int | None = None, seat: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.deal = deal
        self.seat = seat

    def as_json(self) -> dict[str, Any]:
        """The error as a JSON object (for a web page)."""
        return {"kind": self.kind, "deal": self.deal, "seat": self.seat, "message": self.message}


def not_at_the_table(seat: int, players: int) -> str:
    """The refusal of a seat number that is not at a table of ``players`` seats.

    >>> not_at_the_table(5, 4)
    'seat 5 is not at this table: seats are 0 to 3'
    """
    return _("seat {seat} is not at this table: seats are 0 to {last}", seat=seat, last=players - 1)


def not_a_double(text: str) -> str:
    """The refusal of a written double that is not ``a>b`` or ``a>>b``.

    >>> not_a_double("2-1")
    "'2-1' is not a double: write a>b (a doubled b) or a>>b (b redoubled)"
    """
    return _("{text} is not a double: write a>b (a doubled b) or a>>b (b redoubled)", text=repr(text))


@dataclass(frozen=True, order=True)
class Double:
    """One cell of the grid: ``doubler`` doubled ``doubled``; ``redoubled`` makes it ×2.

    >>> Double(1, 0, redoubled=True).to_json()
    {'doubler': 1, 'doubled': 0, 'redoubled': True}
    >>> str(Double.parse("2>1")), Double(1, 0, True).multiplier
    ('2>1', 2)
    """

    doubler: int
    doubled: int
    redoubled: bool = False

    @property
    def multiplier(self) -> int:
        """1 for a double, 2 once redoubled."""
        return 2 if self.redoubled else 1

    @property
    def seats(self) -> tuple[int, int]:
        """The pair's two seats, ascending."""
        return (min(self.doubler, self.doubled), max(self.doubler, self.doubled))

    def __str__(self) -> str:
        return f"{self.doubler}{'>>' if self.redoubled else '>'}{self.doubled}"

    def to_json(self) -> dict[str, Any]:
        """``{"doubler": a, "doubled": b, "redoubled": bool}``."""
        return {"doubler": self.doubler, "doubled": self.doubled, "redoubled": self.redoubled}

    @classmethod
    def from_json(cls, value: object) -> Double:
        """A cell from its JSON object (or a ``[doubler, doubled, multiplier]`` list)."""
        if isinstance(value, Mapping):
            a, b, r = value.get("doubler"), value.get("doubled"), value.get("redoubled", False)
        elif isinstance(value, list | tuple) and len(value) == 3:
            a, b, m = value
            if m not in (1, 2):
                raise SheetError(
                    "call",
                    _("a doubles cell [doubler, doubled, multiplier] needs multiplier 1 or 2, not {m}", m=repr(m)),
                )
            r = m == 2
        else:
            raise SheetError(
                "call",
                _(
                    "a doubles cell is {form}, not {value}",
                    form='{"doubler": a, "doubled": b, "redoubled": false}',
                    value=repr(value),
                ),
            )
        if not _is_seat(a) or not _is_seat(b) or not isinstance(r, bool):
            raise SheetError(
                "call",
                _("a doubles cell needs two seat numbers and redoubled true or false, not {value}", value=repr(value)),
            )
        assert isinstance(a, int) and isinstance(b, int)
        return cls(a, b, r)

    @classmethod
    def parse(cls, text: str) -> Double:
        """``a>b`` (a doubled b) or ``a>>b`` (and b redoubled), seats as numbers."""
        t = text.strip()
        redoubled = ">>" in t
        a, sep, b = t.replace(">>", ">").partition(">")
        if not sep or not a.strip().isdigit() or not b.strip().isdigit():
            raise SheetError("call", not_a_double(text))
        return cls(int(a), int(b), redoubled)


def _is_seat(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


Grid = tuple[Double, ...]
"""A doubles grid: one cell per business pair, sorted."""


def check_grid(cells: Iterable[Double], players: int) -> Grid:
    """The cells as a sorted grid; refuse seats out of range, self-doubles and two cells for one pair.

    >>> check_grid([Double(2, 0), Double(1, 0)], 4)
    (Double(doubler=1, doubled=0, redoubled=False), Double(doubler=2, doubled=0, redoubled=False))
    >>> check_grid([Double(1, 0), Double(0, 1, True)], 4)
    Traceback (most recent call last):
    ...
    barbu.sheet.doubles.SheetError: seats 0 and 1 appear twice in the doubles: two seats have at most one pair
    """
    seen: dict[tuple[int, int], Double] = {}
    for d in cells:
        for s in (d.doubler, d.doubled):
            if not 0 <= s < players:
                raise SheetError("call", not_at_the_table(s, players), seat=s)
        if d.doubler == d.doubled:
            raise SheetError("call", _("seat {seat} cannot double itself", seat=d.doubler), seat=d.doubler)
        if d.seats in seen:
            a, b = d.seats
            raise SheetError(
                "call",
                _("seats {a} and {b} appear twice in the doubles: two seats have at most one pair", a=a, b=b),
                seat=a,
            )
        seen[d.seats] = d
    return tuple(sorted(seen.values()))


def grid_of_deal(deal: Deal) -> Grid:
    """The grid of a deal whose calls are over, read from the core's business pairs."""
    return tuple(sorted(Double(p.doubler, p.doubled, p.multiplier == 2) for p in deal.pairs()))


def calls_of_grid(grid: Iterable[Double], rules: Rules, declarer: int) -> list[tuple[int, Call]]:
    """The calls, in speaking order, that produce ``grid`` (unchecked: the core checks them).

    Round 1: each seat, from the declarer's left round to the declarer, doubles the seats
    of its cells and redoubles the doubles made on it by seats that spoke before it.
    Round 2 (``late_redouble``): each non-declarer doubled by a later speaker says which of
    those doubles it redoubles (or declines). A redouble that no call can say (a later
    double with ``late_redouble: false``) is refused here.
    """
    cells = check_grid(grid, rules.players)
    if not rules.doubling:
        if cells:
            raise SheetError("call", _("{ruleset} has no doubling: leave the doubles empty", ruleset=rules.name))
        return []
    order = round_one_order(rules.players, declarer, rules.direction)
    pos = {s: i for i, s in enumerate(order)}
    out: list[tuple[int, Call]] = []
    for seat in order:
        doubles = tuple(sorted(d.doubled for d in cells if d.doubler == seat))
        redoubles = tuple(
            sorted(d.doubler for d in cells if d.doubled == seat and d.redoubled and pos[d.doubler] < pos[seat])
        )
        out.append((seat, Call(double=doubles, redouble=redoubles)))
    late = [d for d in cells if pos[d.doubler] > pos[d.doubled]]
    if late and not rules.flags.late_redouble:
        for d in late:
            if d.redoubled:
                raise SheetError(
                    "call",
                    _(
                        "seat {doubled} cannot redouble seat {doubler}: seat {doubler} doubled after seat "
                        "{doubled} spoke, and late redoubles are off in this game (late_redouble: false)",
                        doubled=d.doubled,
                        doubler=d.doubler,
                    ),
                    seat=d.doubled,
                )
        return out
    for seat in order:
        mine = [d for d in late if d.doubled == seat]
        if mine and seat != declarer:
            out.append((seat, Call(redouble=tuple(sorted(d.doubler for d in mine if d.redoubled)))))
    return out


def _targets(rules: Rules, declarer: int, contract_class: str | None, seat: int) -> list[int]:
    """The seats ``seat`` may double in this contract, pairs aside (asked of the core)."""
    doubling = Doubling(rules.players, declarer, contract_class != "positive", rules.flags, frozenset())
    return doubling.may_double(seat)


def fill(grid: Iterable[Double], seat: int, word: str, rules: Rules, declarer: int, contract: str) -> Grid:
    """The grid after ``seat`` says ``word`` (``maximum``/``table``, ``flanks``/``family``, ``pass``).

    ``maximum``: ``seat`` redoubles every double made on it that it can still redouble and
    doubles every seat it may double and has no pair with yet. ``flanks``: it doubles the
    other non-declarers it may double (and, with ``flanks_redoubles``, redoubles theirs).
    ``pass``: it has made no double and no redouble. Applied in speaking order to every
    seat, ``maximum`` gives what a whole table saying "maximum" gives.
    """
    if not rules.doubling:
        raise SheetError("call", _("{ruleset} has no doubling", ruleset=rules.name))
    meaning = WORDS.get(word.strip().lower())
    if meaning is None:
        raise SheetError(
            "call",
            _("{word} is not a call word; say one of {words}", word=repr(word), words=", ".join(WORDS)),
            seat=seat,
        )
    cells = list(check_grid(grid, rules.players))
    if not 0 <= seat < rules.players:
        raise SheetError("call", not_at_the_table(seat, rules.players), seat=seat)
    klass = rules.contract(contract).doubling_class
    order = round_one_order(rules.players, declarer, rules.direction)
    pos = {s: i for i, s in enumerate(order)}

    def can_redouble(d: Double) -> bool:
        return pos[d.doubler] < pos[seat] or rules.flags.late_redouble

    if meaning == "pass":
        cells = [d for d in cells if d.doubler != seat]
        return check_grid((Double(d.doubler, d.doubled) if d.doubled == seat else d for d in cells), rules.players)
    targets = _targets(rules, declarer, klass, seat)
    if meaning == "flanks":
        if seat == declarer:
            raise SheetError(
                "call", _("seat {seat}: the declarer cannot say flanks; it never doubles", seat=seat), seat=seat
            )
        targets = [t for t in targets if t != declarer]
        if not targets:
            raise SheetError(
                "call",
                _(
                    "seat {seat}: flanks is not allowed here: only the declarer may be doubled in this contract",
                    seat=seat,
                ),
                seat=seat,
            )
    paired = {d.seats for d in cells}
    out = []
    for d in cells:
        takes_redouble = meaning == "maximum" or (rules.flags.flanks_redoubles and d.doubler != declarer)
        if d.doubled == seat and not d.redoubled and takes_redouble and can_redouble(d):
            d = Double(d.doubler, d.doubled, True)
        out.append(d)
    for t in targets:
        if (min(seat, t), max(seat, t)) not in paired:
            out.append(Double(seat, t))
    return check_grid(out, rules.players)


def fill_all(grid: Iterable[Double], word: str, rules: Rules, declarer: int, contract: str) -> Grid:
    """The grid after every seat says ``word``, in speaking order (``flanks``: the declarer passes)."""
    cells = check_grid(grid, rules.players)
    for seat in round_one_order(rules.players, declarer, rules.direction):
        said = "pass" if seat == declarer and WORDS.get(word.strip().lower()) == "flanks" else word
        if said == "pass" and word.strip().lower() != "pass":
            continue
        cells = fill(cells, seat, said, rules, declarer, contract)
    return cells


def grid_json(grid: Sequence[Double]) -> list[dict[str, Any]]:
    """A grid as a JSON list of cells."""
    return [d.to_json() for d in grid]


__all__ = [
    "WORDS",
    "Double",
    "Grid",
    "SheetError",
    "calls_of_grid",
    "check_grid",
    "fill",
    "fill_all",
    "grid_json",
    "grid_of_deal",
]
