"""What one seat may know: the only way state leaves the core towards a player.

:func:`seat_view` turns a game into a :class:`SeatView` for one seat (or for a
spectator, ``seat=None``): its own hand, the public history (contracts, calls,
completed tricks and the current one, domino rows, scores) and, when it is that
seat's turn, its legal actions. Other seats' unplayed cards, the dealer's seed and
the undealt deck are never in it.

>>> from barbu.game import Game
>>> game = Game.new("classic", seed=3)
>>> view = seat_view(game, game.to_act)
>>> view.phase, len(view.hand), view.legal[:2]
('contract', 13, ['no-tricks', 'no-hearts'])
>>> other = seat_view(game, (game.to_act + 1) % 4)
>>> other.legal, other.hand == view.hand
([], False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from barbu.actions import Action, action_text, action_to_json
from barbu.cards import RANKS, SUITS, card_name, cards_of
from barbu.deal import Deal, Phase
from barbu.game import Game


@dataclass(frozen=True)
class TrickView:
    """A trick: who led, the cards in order with their seats, and the winner."""

    leader: int
    cards: tuple[int, ...]
    seats: tuple[int, ...]
    winner: int | None


@dataclass(frozen=True)
class DealSummary:
    """A finished deal as everyone sees it."""

    number: int
    declarer: int
    contract: str
    trump: str | None
    rank: str | None
    raw: tuple[int, ...]
    adjustments: tuple[int, ...]
    final: tuple[int, ...]
    pairs: tuple[tuple[int, int, int], ...]
    """``(doubler, doubled, multiplier)`` of each business pair."""
    played: bool
    arrangements: tuple[tuple[int, ...], ...] | None = None
    """Chinese poker: every seat's rows (back 5, middle 5, front 3), by seat, shown once all have set."""


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know now. ``seat`` is None for a spectator."""

    seat: int | None
    variant: str
    players: int
    deal_number: int
    deals_total: int
    phase: str
    to_act: int | None
    declarer: int | None
    hand: tuple[int, ...]
    contract: str | None
    trump: str | None
    rank: str | None
    calls: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...]
    """``(seat, round, doubled, redoubled)`` of each call so far."""
    pairs: tuple[tuple[int, int, int], ...]
    tricks: tuple[TrickView, ...]
    current_trick: TrickView | None
    captured: tuple[tuple[int, ...], ...]
    domino_rows: tuple[tuple[int, int] | None, ...] | None
    domino_order: tuple[int, ...]
    plays: tuple[tuple[int, int | None], ...]
    """``(seat, card or None for a pass)`` of every play of this deal, in order."""
    arrangements: tuple[tuple[int, ...] | None, ...]
    cards_left: tuple[int, ...]
    """How many cards each seat still holds (public)."""
    declared: tuple[tuple[str, ...], ...]
    """The contracts each seat has declared so far in the game."""
    contracts_left: tuple[str, ...]
    """Contracts the current declarer may still name."""
    must_double: tuple[int, ...]
    legal: list[str] = field(default_factory=list)
    """The seat's legal actions in record notation (empty unless it is to act): their labels."""
    legal_actions: list[Action] = field(default_factory=list, repr=False)
    """The same actions, in the same order; :meth:`as_json` writes each as
    :func:`~barbu.actions.action_to_json` does, the object a client sends back to take it."""
    history: tuple[DealSummary, ...] = ()
    totals: tuple[int, ...] = ()
    game_over: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    """The table's rule options (RULES.md §6, as a record writes them): public house rules."""

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict (cards in record notation)."""
        return {
            "seat": self.seat,
            "variant": self.variant,
            "players": self.players,
            "deal": self.deal_number,
            "deals_total": self.deals_total,
            "phase": self.phase,
            "to_act": self.to_act,
            "declarer": self.declarer,
            "hand": [card_name(c) for c in self.hand],
            "contract": self.contract,
            "trump": self.trump,
            "rank": self.rank,
            "calls": [{"seat": s, "round": r, "double": list(d), "redouble": list(rd)} for s, r, d, rd in self.calls],
            "pairs": [{"doubler": a, "doubled": b, "multiplier": m} for a, b, m in self.pairs],
            "tricks": [_trick_json(t) for t in self.tricks],
            "current_trick": _trick_json(self.current_trick) if self.current_trick else None,
            "captured": [[card_name(c) for c in cs] for cs in self.captured],
            "domino_rows": [None if row is None else [RANKS[row[0]], RANKS[row[1]]] for row in self.domino_rows]
            if self.domino_rows is not None
            else None,
            "domino_order": list(self.domino_order),
            "plays": [[s, card_name(c) if c is not None else "pass"] for s, c in self.plays],
            "arrangements": [[card_name(c) for c in a] if a else None for a in self.arrangements],
            "cards_left": list(self.cards_left),
            "declared": [list(d) for d in self.declared],
            "contracts_left": list(self.contracts_left),
            "must_double": list(self.must_double),
            "legal": list(self.legal),
            "legal_actions": [action_to_json(a) for a in self.legal_actions],
            "history": [
                {
                    "deal": h.number,
                    "declarer": h.declarer,
                    "contract": h.contract,
                    "trump": h.trump,
                    "rank": h.rank,
                    "raw": list(h.raw),
                    "adjustments": list(h.adjustments),
                    "final": list(h.final),
                    "pairs": [list(p) for p in h.pairs],
                    "played": h.played,
                    "arrangements": None
                    if h.arrangements is None
                    else [[card_name(c) for c in a] for a in h.arrangements],
                }
                for h in self.history
            ],
            "totals": list(self.totals),
            "game_over": self.game_over,
            "options": dict(self.options),
        }


def _trick_json(t: TrickView) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "cards": [card_name(c) for c in t.cards],
        "seats": list(t.seats),
        "winner": t.winner,
    }


_SUMMARIES: WeakKeyDictionary[Deal, DealSummary] = WeakKeyDictionary()
"""Summaries of finished deals, which never change: views reuse them instead of rebuilding."""


def _summary(d: Deal) -> DealSummary:
    known = _SUMMARIES.get(d)
    if known is not None:
        return known
    assert d.contract is not None and d.raw is not None and d.adjustments is not None and d.final is not None
    _SUMMARIES[d] = known = DealSummary(
        number=d.index + 1,
        declarer=d.declarer,
        contract=d.contract.id,
        trump=SUITS[d.trump] if d.trump is not None else None,
        rank=RANKS[d.rank] if d.rank is not None else None,
        raw=tuple(d.raw),
        adjustments=tuple(d.adjustments),
        final=tuple(d.final),
        pairs=tuple((p.doubler, p.doubled, p.multiplier) for p in d.pairs()),
        played=not d.skipped,
        arrangements=tuple(a or () for a in d.arrangements_by_seat()) if d.contract.play == "arrange" else None,
    )
    return known


def _tricks(d: Deal) -> tuple[tuple[TrickView, ...], TrickView | None, tuple[tuple[int, ...], ...]]:
    t = d.tricks
    if t is None:
        return (), None, tuple(() for _ in range(d.players))
    done = []
    for i, winner in enumerate(t.winners):
        start = i * d.players
        cards = tuple(c for c in d.plays[start : start + d.players] if c is not None)
        seats = tuple(d.play_seats[start : start + d.players])
        done.append(TrickView(seats[0], cards, seats, winner))
    current = None
    if t.trick:
        current = TrickView(t.leader, tuple(t.trick), tuple(t.trick_seats()), None)
    captured = tuple(tuple(cards_of(m)) for m in t.captured)
    return tuple(done), current, captured


def seat_view(game: Game, seat: int | None) -> SeatView:
    """The view of ``seat`` (None: a spectator, who sees no hand)."""
    deal = game.current if game.current is not None else (game.deals[-1] if game.deals else None)
    assert deal is not None
    live = game.current is not None
    players = game.rules.players
    to_act = deal.to_act if live else None
    tricks, current, captured = _tricks(deal)
    domino = deal.domino
    done = deal.finished
    arrangements: list[tuple[int, ...] | None] = []
    if deal.contract is not None and deal.contract.play == "arrange":
        arrangements = [a if done or s == seat else None for s, a in enumerate(deal.arrangements_by_seat())]
    legal_actions: list[Action] = []
    if live and seat is not None and to_act == seat and deal.phase is not Phase.ARRANGE:
        legal_actions = list(game.legal_actions())
    hand = tuple(cards_of(deal.hand(seat))) if seat is not None else ()
    if deal.phase is Phase.ARRANGE and seat is not None and seat in deal._arrange_order()[: len(deal.arrangements)]:
        hand = ()
    calls: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...] = ()
    must: tuple[int, ...] = ()
    if deal.doubling is not None:
        calls = tuple((c.seat, c.round, c.doubles, c.redoubles) for c in deal.doubling.calls)
        if seat is not None and deal.phase is Phase.CALL and to_act == seat:
            must = tuple(deal.doubling.must_double(seat))
    declared = tuple(
        tuple(d.contract.id for d in game.deals if d.declarer == s and d.contract is not None) for s in range(players)
    )
    return SeatView(
        seat=seat,
        variant=game.rules.name,
        players=players,
        deal_number=deal.index + 1,
        deals_total=game.rules.deal_count,
        phase=str(deal.phase) if live else "game_over",
        to_act=to_act,
        declarer=deal.declarer,
        hand=hand,
        contract=deal.contract.id if deal.contract is not None else None,
        trump=SUITS[deal.trump] if deal.trump is not None else None,
        rank=RANKS[deal.rank] if deal.rank is not None else None,
        calls=calls,
        pairs=tuple((p.doubler, p.doubled, p.multiplier) for p in deal.pairs()),
        tricks=tricks,
        current_trick=current,
        captured=captured,
        domino_rows=tuple(domino.rows()) if domino is not None else None,
        domino_order=tuple(domino.order) if domino is not None else (),
        plays=tuple(zip(deal.play_seats, deal.plays, strict=True)),
        arrangements=tuple(arrangements),
        cards_left=tuple(deal.hand(s).bit_count() for s in range(players)),
        declared=declared,
        contracts_left=tuple(c.id for c in deal.available) if deal.phase is Phase.CONTRACT else (),
        must_double=must,
        legal=[action_text(a) for a in legal_actions],
        legal_actions=legal_actions,
        history=tuple(_summary(d) for d in game.deals if d.finished),
        totals=tuple(game.totals),
        game_over=game.is_over,
        options=game.rules.as_options(),
    )
