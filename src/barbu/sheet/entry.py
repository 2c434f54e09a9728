"""A deal as the scorekeeper enters it, and how it goes through the rules core.

A :class:`DealEntry` is what a scorekeeper writes for one deal. :func:`spec_of_entry` reads
its text fields, :func:`spec_of_deal` reads a deal of a core game back into the same form,
and :func:`apply_spec` plays either through the core's checked door (``Game.apply``), which
refuses what the rules do not allow with a message saying why.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from barbu.actions import Call, Declare, EnterTally, NameRank, NameTrump
from barbu.cards import RANKS, parse_rank, parse_suit
from barbu.deal import Deal, Phase
from barbu.errors import IllegalAction, NotationError
from barbu.game import Game
from barbu.language import _, error_text
from barbu.rulesets import Rules
from barbu.sheet.doubles import Double, Grid, SheetError, calls_of_grid, check_grid, grid_of_deal
from barbu.tally import tally_json


@dataclass(frozen=True)
class DealEntry:
    """What a scorekeeper writes for one deal: contract, trump or rank, doubles grid, tally.

    ``tally`` is keyed as RECORD.md's tally table. It may be None only for the last deal
    (a deal waiting for its tally) and must be None for a deal that is not played (an
    undoubled negative contract). In ``french`` the contract may be left out (the order is
    fixed).

    >>> DealEntry.from_json({"contract": "trumps", "trump": "h", "doubles": [[1, 0, 2]],
    ...                      "tally": {"tricks": [6, 3, 2, 2]}}).to_json()["doubles"]
    [{'doubler': 1, 'doubled': 0, 'redoubled': True}]
    """

    contract: str | None = None
    trump: str | None = None
    rank: str | None = None
    doubles: Grid = ()
    tally: Mapping[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as a JSON object (keys with no value are left out)."""
        out: dict[str, Any] = {}
        if self.contract is not None:
            out["contract"] = self.contract
        if self.trump is not None:
            out["trump"] = self.trump
        if self.rank is not None:
            out["rank"] = self.rank
        out["doubles"] = [d.to_json() for d in self.doubles]
        if self.tally is not None:
            out["tally"] = copy.deepcopy(dict(self.tally))
        return out

    @classmethod
    def from_json(cls, obj: object) -> DealEntry:
        """An entry from its JSON object; refuses unknown keys and wrong types."""
        if not isinstance(obj, Mapping):
            raise SheetError("deal", _("a deal entry is an object with contract, trump, rank, doubles and tally"))
        unknown = [k for k in obj if k not in ("contract", "trump", "rank", "doubles", "tally")]
        if unknown:
            raise SheetError(
                "deal",
                _(
                    "unknown key {key} in a deal entry (keys: contract, trump, rank, doubles, tally)",
                    key=repr(unknown[0]),
                ),
            )
        for key in ("contract", "trump", "rank"):
            if obj.get(key) is not None and not isinstance(obj[key], str):
                raise SheetError(key, _("{key} must be text, not {value}", key=key, value=repr(obj[key])))
        doubles = obj.get("doubles") or []
        if not isinstance(doubles, list):
            raise SheetError("call", _("doubles must be a list of cells"))
        tally = obj.get("tally")
        if tally is not None and not isinstance(tally, Mapping):
            raise SheetError("tally", _("the tally must be an object keyed as the contract needs"))
        return cls(
            obj.get("contract"),
            obj.get("trump"),
            obj.get("rank"),
            tuple(Double.from_json(d) for d in doubles),
            tally,
        )


@dataclass(frozen=True)
class DealSpec:
    """One deal as the core's actions, ready to apply (from an entry or from a deal of a game)."""

    contract: str | None
    trump: int | None
    rank: int | None
    calls: tuple[tuple[int, Call], ...] | None
    """None: derive the calls from ``grid`` at the deal's declarer."""
    grid: Grid
    tally: dict[str, Any] | None


def spec_of_entry(entry: DealEntry, r: Rules) -> DealSpec:
    """Parse an entry's text fields (trump, rank) and check its grid's shape."""
    trump = rank = None
    if entry.trump is not None:
        try:
            trump = parse_suit(entry.trump)
        except NotationError:
            raise SheetError(
                "trump", _("the trump must be one of S, H, D, C, not {trump}", trump=repr(entry.trump))
            ) from None
    if entry.rank is not None:
        try:
            rank = parse_rank(entry.rank)
        except NotationError:
            names = " ".join(RANKS[x] for x in r.domino_ranks)
            raise SheetError(
                "rank", _("the domino rank must be one of {ranks}, not {rank}", ranks=names, rank=repr(entry.rank))
            ) from None
    grid = check_grid(entry.doubles, r.players)
    tally = dict(entry.tally) if entry.tally is not None else None
    return DealSpec(entry.contract, trump, rank, None, grid, tally)


def _refused(e: IllegalAction, number: int) -> SheetError:
    return SheetError(e.kind, error_text(e), number, e.seat)  # the core's reason, in the reader's language


def apply_spec(game: Game, spec: DealSpec, last: bool) -> None:
    """Apply one deal's spec to ``game`` through the core's checked door."""
    deal = game.current
    r = game.rules
    if deal is None:
        raise SheetError(
            "deal",
            _("the game is over: a game of {ruleset} has {n} deals", ruleset=r.name, n=r.deal_count),
            r.deal_count + 1,
        )
    number = deal.index + 1
    if deal.started:
        raise SheetError("deal", _("deal {n} waits for its tally: enter it first", n=number), number)
    scheduled = r.scheduled_contract(deal.index)
    if scheduled is not None:
        if spec.contract not in (None, scheduled.id):
            raise SheetError(
                "contract",
                _(
                    "the contract of deal {n} is {contract} (fixed order), not {given}",
                    n=number,
                    contract=scheduled.id,
                    given=repr(spec.contract),
                ),
                number,
                deal.declarer,
            )
    else:
        if not spec.contract:
            left = ", ".join(c.id for c in deal.available)
            raise SheetError(
                "contract", _("name the contract: the contracts left are {left}", left=left), number, deal.declarer
            )
        try:
            game.apply(Declare(spec.contract))
        except IllegalAction as e:
            raise _refused(e, number) from None
    contract = deal.contract
    assert contract is not None
    if deal.phase is Phase.TRUMP:
        if spec.trump is None:
            raise SheetError(
                "trump", _("{contract} needs its trump suit: S, H, D or C", contract=contract.id), number, deal.declarer
            )
        game.apply(NameTrump(spec.trump))
    elif spec.trump is not None:
        raise SheetError(
            "trump", _("{contract} has no trump suit: remove the trump", contract=contract.id), number, deal.declarer
        )
    if deal.phase is Phase.RANK:
        if spec.rank is None:
            names = " ".join(RANKS[x] for x in r.domino_ranks)
            raise SheetError(
                "rank",
                _("{contract} needs its starting rank: one of {ranks}", contract=contract.id, ranks=names),
                number,
                deal.declarer,
            )
        try:
            game.apply(NameRank(spec.rank))
        except IllegalAction as e:
            raise _refused(e, number) from None
    elif spec.rank is not None:
        if contract.play != "domino":
            why = _("{contract} has no domino rank here: remove the rank", contract=contract.id)
        else:
            why = _("{contract} has no named rank here (it opens with any card): remove the rank", contract=contract.id)
        raise SheetError("rank", why, number, deal.declarer)
    calls = spec.calls
    if calls is None:
        try:
            calls = tuple(calls_of_grid(spec.grid, r, deal.declarer))
        except SheetError as e:
            raise SheetError(e.kind, e.message, number, e.seat) from None
    for seat, call in calls:
        try:
            game.apply(call, seat)
        except IllegalAction as e:
            raise _refused(e, number) from None
    if deal.phase is Phase.TALLY:
        if spec.tally is not None:
            try:
                game.apply(EnterTally(spec.tally))
            except IllegalAction as e:
                raise _refused(e, number) from None
        elif not last:
            raise SheetError(
                "tally", _("deal {n} needs its tally: only the last deal may wait for one", n=number), number
            )
        elif not deal.started:
            raise SheetError(
                "tally", _("deal {n} needs its tally: its contract is fixed, so it is entered whole", n=number), number
            )
    elif deal.skipped and spec.tally is not None:
        raise SheetError(
            "tally",
            _(
                "this deal is not played: nobody doubled in a negative contract, so its points are divided "
                "(RULES.md 2.8) and it has no tally; remove the tally, or enter the doubles that were made"
            ),
            number,
        )
    assert deal.phase in (Phase.TALLY, Phase.DONE), deal.phase


def spec_of_deal(deal: Deal) -> DealSpec:
    """A deal of a game as the actions that replay it, its calls kept as spoken.

    The deal is finished or past its calls; a played deal gives its tally (what each seat
    took), so it replays as a tallied deal with the same scores.
    """
    assert deal.contract is not None
    calls = tuple((c.seat, c.said) for c in deal.doubling.calls) if deal.doubling is not None else ()
    tally = tally_json(deal.tally) if deal.tally is not None and not deal.skipped else None
    rank = deal.rank if deal.rules.flags.domino_start == "named" else None
    return DealSpec(deal.contract.id, deal.trump, rank, calls, grid_of_deal(deal), tally)


__all__ = ["DealEntry", "DealSpec", "apply_spec", "spec_of_deal", "spec_of_entry"]
