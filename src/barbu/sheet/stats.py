"""Statistics of score sheets: per player and per contract, for one game and across games.

Everything is read from the sheet's scored deals (raw scores, business pairs, final
scores); a deal waiting for its tally does not count.

- A player's **best and worst contract** are the contracts in which its mean final score
  per deal of that contract (whoever declared) is the highest and the lowest.
- A **double won** is a business pair whose settlement went the player's way (it received
  points), **lost** one that cost it points, **even** one that moved nothing. Doubles
  *made* are the pairs it opened by doubling; *redoubles* the pairs it raised to ×2.

>>> from barbu.sheet import DealEntry, Double, Sheet
>>> sheet = Sheet.new("classic", players=["Ann", "Bob", "Cat", "Dan"])
>>> sheet = sheet.add(DealEntry("no-queens", doubles=(Double(1, 0, True), Double(2, 0), Double(2, 1)),
...                             tally={"queens": [0, 2, 1, 1]}))
>>> bob = sheet_stats(sheet).players[1]
>>> bob.doubles_made, bob.doubles_won, bob.doubles_lost, bob.doubling_points
(1, 0, 2, -30)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from barbu.language import _p
from barbu.sheet.model import Sheet
from barbu.sheet.rows import DealRow


@dataclass
class PlayerStats:
    """One player's figures over one sheet, or over several (then ``seat`` is None)."""

    name: str
    seat: int | None = None
    games: int = 0
    complete_games: int = 0
    wins: int = 0
    """Games finished ranked first (equal first counts)."""
    total: int = 0
    rank: int | None = None
    """The rank in the game (one sheet only)."""
    deals: int = 0
    declared: int = 0
    declarer_points: int = 0
    """The sum of its final scores in the deals it declared."""
    by_contract: dict[str, int] = field(default_factory=dict)
    deals_by_contract: dict[str, int] = field(default_factory=dict)
    doubles_made: int = 0
    redoubles: int = 0
    doubles_won: int = 0
    doubles_lost: int = 0
    doubles_even: int = 0
    doubling_points: int = 0
    """The sum of its doubling adjustments."""

    @property
    def best_contract(self) -> str | None:
        """The contract with its highest mean final score per deal."""
        return max(self._means(), key=lambda kv: kv[1], default=(None, 0))[0]

    @property
    def worst_contract(self) -> str | None:
        """The contract with its lowest mean final score per deal."""
        return min(self._means(), key=lambda kv: kv[1], default=(None, 0))[0]

    def _means(self) -> list[tuple[str, float]]:
        return [(c, v / self.deals_by_contract[c]) for c, v in self.by_contract.items()]

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON."""
        return {
            "name": self.name,
            "seat": self.seat,
            "games": self.games,
            "complete_games": self.complete_games,
            "wins": self.wins,
            "total": self.total,
            "rank": self.rank,
            "deals": self.deals,
            "declared": self.declared,
            "declarer_points": self.declarer_points,
            "by_contract": dict(self.by_contract),
            "best_contract": self.best_contract,
            "worst_contract": self.worst_contract,
            "doubles_made": self.doubles_made,
            "redoubles": self.redoubles,
            "doubles_won": self.doubles_won,
            "doubles_lost": self.doubles_lost,
            "doubles_even": self.doubles_even,
            "doubling_points": self.doubling_points,
        }


@dataclass
class ContractStats:
    """One contract's figures over a sheet (or several)."""

    id: str
    title: str
    deals: int = 0
    skipped: int = 0
    pairs: int = 0
    redoubled: int = 0
    declarer_points: int = 0
    """The sum of the declarers' final scores."""
    best: tuple[str, int, int] | None = None
    """(player, deal number, final) of the best single result in this contract."""
    worst: tuple[str, int, int] | None = None

    @property
    def declarer_mean(self) -> float | None:
        """The declarers' mean final score."""
        return self.declarer_points / self.deals if self.deals else None

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON."""
        return {
            "id": self.id,
            "title": _p("contract", self.title),
            "deals": self.deals,
            "skipped": self.skipped,
            "pairs": self.pairs,
            "redoubled": self.redoubled,
            "declarer_points": self.declarer_points,
            "declarer_mean": self.declarer_mean,
            "best": list(self.best) if self.best else None,
            "worst": list(self.worst) if self.worst else None,
        }


@dataclass
class Stats:
    """Statistics of one sheet or of several: players and contracts."""

    games: int
    players: list[PlayerStats]
    contracts: list[ContractStats]

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON."""
        return {
            "games": self.games,
            "players": [p.to_json() for p in self.players],
            "contracts": [c.to_json() for c in self.contracts],
        }


def _count_deal(row: DealRow, names: tuple[str, ...], players: list[PlayerStats], contract: ContractStats) -> None:
    assert row.final is not None
    contract.deals += 1
    contract.skipped += row.status == "skipped"
    contract.pairs += len(row.pairs)
    contract.redoubled += sum(1 for p in row.pairs if p.multiplier == 2)
    contract.declarer_points += row.final[row.declarer]
    for seat, final in enumerate(row.final):
        p = players[seat]
        p.deals += 1
        p.by_contract[row.contract] = p.by_contract.get(row.contract, 0) + final
        p.deals_by_contract[row.contract] = p.deals_by_contract.get(row.contract, 0) + 1
        if contract.best is None or final > contract.best[2]:
            contract.best = (names[seat], row.number, final)
        if contract.worst is None or final < contract.worst[2]:
            contract.worst = (names[seat], row.number, final)
    decl = players[row.declarer]
    decl.declared += 1
    decl.declarer_points += row.final[row.declarer]
    assert row.adjustments is not None
    for seat, adj in enumerate(row.adjustments):
        players[seat].doubling_points += adj
    for pair in row.pairs:
        players[pair.doubler].doubles_made += 1
        if pair.multiplier == 2:
            players[pair.doubled].redoubles += 1
        for seat, gain in ((pair.doubler, pair.delta), (pair.doubled, -pair.delta)):
            if gain > 0:
                players[seat].doubles_won += 1
            elif gain < 0:
                players[seat].doubles_lost += 1
            else:
                players[seat].doubles_even += 1


_COUNTS = (
    "deals",
    "declared",
    "declarer_points",
    "doubles_made",
    "redoubles",
    "doubles_won",
    "doubles_lost",
    "doubles_even",
    "doubling_points",
)


def sheet_stats(sheet: Sheet) -> Stats:
    """Statistics of one sheet, players by seat, contracts in the rule set's table order."""
    players = [PlayerStats(name, seat, games=1) for seat, name in enumerate(sheet.players)]
    contracts = {c.id: ContractStats(c.id, c.title) for c in sheet.rules.contracts}
    for row in sheet.rows:
        if row.final is not None:
            _count_deal(row, sheet.players, players, contracts[row.contract])
    ranking = sheet.ranking
    for seat, p in enumerate(players):
        p.total = sheet.totals[seat]
        p.rank = ranking[seat]
        if sheet.complete:
            p.complete_games = 1
            p.wins = int(ranking[seat] == 1)
    return Stats(1, players, [c for c in contracts.values() if c.deals])


def stats_across(sheets: Iterable[Sheet]) -> Stats:
    """Statistics across sheets, players matched by name (case aside), contracts by id.

    Contract figures of different rule sets are added together by id.
    """
    players: dict[str, PlayerStats] = {}
    contracts: dict[str, ContractStats] = {}
    games = 0
    for sheet in sheets:
        games += 1
        one = sheet_stats(sheet)
        for p in one.players:
            key = p.name.casefold()
            acc = players.setdefault(key, PlayerStats(p.name))
            acc.games += 1
            acc.complete_games += p.complete_games
            acc.wins += p.wins
            acc.total += p.total
            for name in _COUNTS:
                setattr(acc, name, getattr(acc, name) + getattr(p, name))
            for c, v in p.by_contract.items():
                acc.by_contract[c] = acc.by_contract.get(c, 0) + v
                acc.deals_by_contract[c] = acc.deals_by_contract.get(c, 0) + p.deals_by_contract[c]
        for cs in one.contracts:
            acc_c = contracts.setdefault(cs.id, ContractStats(cs.id, cs.title))
            acc_c.deals += cs.deals
            acc_c.skipped += cs.skipped
            acc_c.pairs += cs.pairs
            acc_c.redoubled += cs.redoubled
            acc_c.declarer_points += cs.declarer_points
            if cs.best and (acc_c.best is None or cs.best[2] > acc_c.best[2]):
                acc_c.best = cs.best
            if cs.worst and (acc_c.worst is None or cs.worst[2] < acc_c.worst[2]):
                acc_c.worst = cs.worst
    ordered = sorted(players.values(), key=lambda p: (-p.wins, -p.total, p.name.casefold()))
    return Stats(games, ordered, list(contracts.values()))


__all__ = ["ContractStats", "PlayerStats", "Stats", "sheet_stats", "stats_across"]
