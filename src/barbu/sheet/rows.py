"""What a score sheet shows: its deals as rows, and what the next deal's entry needs.

Every value here is read from the rules core; :meth:`to_json` gives the JSON a front end
shows, its words in the language of the moment (:mod:`barbu.language`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from barbu.language import _, _p
from barbu.rulesets import Rules
from barbu.sheet.doubles import Grid
from barbu.sheet.entry import DealEntry
from barbu.tally_keys import tally_table


@dataclass(frozen=True)
class PairResult:
    """A business pair of a deal and what it moved: ``delta`` goes to the doubler, ``-delta`` to the doubled."""

    doubler: int
    doubled: int
    multiplier: int
    delta: int

    def to_json(self) -> dict[str, Any]:
        """The pair as JSON, ``seats`` ascending as ``barbu replay`` writes them."""
        return {
            "seats": sorted((self.doubler, self.doubled)),
            "doubler": self.doubler,
            "doubled": self.doubled,
            "multiplier": self.multiplier,
            "delta": self.delta,
        }


@dataclass(frozen=True)
class DealRow:
    """One deal of the sheet as a front end shows it.

    ``status`` is ``scored`` (tallied), ``skipped`` (an undoubled negative contract, not
    played: the points are divided, RULES.md §2.8) or ``pending`` (waiting for its tally;
    the scores are then None). ``k`` is the declarer's k-th contract. ``totals`` are the
    running totals after this deal.
    """

    number: int
    declarer: int
    k: int
    contract: str
    title: str
    trump: str | None
    rank: str | None
    doubles: Grid
    tally: dict[str, Any] | None
    status: str
    raw: list[int] | None
    adjustments: list[int] | None
    final: list[int] | None
    totals: list[int] | None
    pairs: tuple[PairResult, ...]

    @property
    def played(self) -> bool:
        """False for a skipped deal (``barbu replay``'s ``played``)."""
        return self.status != "skipped"

    @property
    def entry(self) -> DealEntry:
        """The entry that gives this deal (for editing it)."""
        return DealEntry(self.contract, self.trump, self.rank, self.doubles, copy.deepcopy(self.tally))

    @property
    def shortcut(self) -> str | None:
        """The undoubled-negative shortcut, in words, when it applied."""
        if self.status != "skipped":
            return None
        return _("not played: nobody doubled in a negative contract, so its points are divided (RULES.md 2.8)")

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {
            "number": self.number,
            "declarer": self.declarer,
            "k": self.k,
            "contract": self.contract,
            "title": _p("contract", self.title),
            "trump": self.trump,
            "rank": self.rank,
            "doubles": [d.to_json() for d in self.doubles],
            "tally": copy.deepcopy(self.tally),
            "status": self.status,
            "played": self.played,
            "shortcut": self.shortcut,
            "raw": self.raw,
            "adjustments": self.adjustments,
            "final": self.final,
            "totals": self.totals,
            "pairs": [p.to_json() for p in self.pairs],
        }


@dataclass(frozen=True)
class ContractChoice:
    """A contract the next declarer may name, with what its entry needs."""

    id: str
    title: str
    doubling_class: str | None
    """``negative``, ``positive``, or None in a rule set without doubling."""
    needs_trump: bool
    needs_rank: bool
    tally_keys: tuple[str, ...]
    may_double: dict[int, list[int]]
    """For each seat, the seats it may double in this contract (the grid's open cells)."""

    def to_json(self) -> dict[str, Any]:
        """The choice as JSON."""
        return {
            "id": self.id,
            "title": _p("contract", self.title),
            "doubling_class": self.doubling_class,
            "needs_trump": self.needs_trump,
            "needs_rank": self.needs_rank,
            "tally_keys": list(self.tally_keys),
            "may_double": {str(k): v for k, v in self.may_double.items()},
        }


@dataclass(frozen=True)
class NextDeal:
    """What the next deal's entry needs: its number, declarer and the choices open to it."""

    number: int
    declarer: int
    k: int
    contracts: tuple[ContractChoice, ...]
    fixed: bool
    """True when the schedule fixes the contract (``french``)."""
    forced: tuple[int, ...]
    """Seats that must double the declarer in this deal (compulsory doubles, RULES.md §2.7)."""
    ranks: tuple[str, ...]
    speaking_order: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The next deal as JSON."""
        return {
            "number": self.number,
            "declarer": self.declarer,
            "k": self.k,
            "contracts": [c.to_json() for c in self.contracts],
            "fixed": self.fixed,
            "forced": list(self.forced),
            "ranks": list(self.ranks),
            "speaking_order": list(self.speaking_order),
        }


def tally_totals(r: Rules) -> dict[str, Any]:
    """What each counted tally key adds up to in this rule set (for forms and shortcuts).

    >>> from barbu import rules
    >>> tally_totals(rules("thirty-two"))
    {'tricks': 8, 'hearts': 8, 'queens': 4, 'jacks_and_kings': 8, 'kings_of_hearts': 1, 'suits': [8, 8, 8, 8]}
    """
    table = tally_table(r.deck, r.cards_each)
    return {name: key["total"] for name, key in table.items() if key["total"] is not None}


__all__ = ["ContractChoice", "DealRow", "NextDeal", "PairResult", "tally_totals"]
