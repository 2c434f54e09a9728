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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from operator import is_
from typing import Any
from weakref import WeakKeyDictionary

from barbu.actions import PLAYS, Action, Play, action_text, action_to_json
from barbu.cards import CARD_NAMES, RANKS, SUITS, card_name, cards_of
from barbu.deal import Deal, Phase
from barbu.doubling import pair_amount
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
    calls: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...] = ()
    """``(seat, round, doubled, redoubled)`` of each call of the deal."""
    tricks: tuple[TrickView, ...] = ()
    """The deal's tricks, in order (trick contracts)."""
    plays: tuple[tuple[int, int | None], ...] = ()
    """``(seat, card or None for a pass)`` of every play of the deal, in order."""
    domino_order: tuple[int, ...] = ()
    """Domino: the seats in the order they went out."""
    settlement: tuple[tuple[int, int, int, int], ...] = ()
    """``(doubler, doubled, multiplier, amount)`` of each business pair: the ``amount`` moves
    from the doubled seat to the doubler (negative: the other way), as :func:`barbu.doubling.pair_amount`."""


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
    owed: tuple[tuple[int, ...], ...] = ()
    """Compulsory doubles still owed, ``owed[declarer][seat]`` (:meth:`barbu.game.Game.owed_doubles`);
    empty when no seat owes any."""

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict (cards in record notation): each field of :data:`JSON_FIELDS`."""
        return {key: make(self) for key, _attribute, make in JSON_FIELDS}


_NAME = CARD_NAMES.__getitem__
"""A card's record notation (:func:`~barbu.cards.card_name`), as ``map`` calls it without a Python frame."""

JSON_FIELDS: tuple[tuple[str, str, Callable[[SeatView], Any]], ...] = (
    ("seat", "seat", lambda v: v.seat),
    ("variant", "variant", lambda v: v.variant),
    ("players", "players", lambda v: v.players),
    ("deal", "deal_number", lambda v: v.deal_number),
    ("deals_total", "deals_total", lambda v: v.deals_total),
    ("phase", "phase", lambda v: v.phase),
    ("to_act", "to_act", lambda v: v.to_act),
    ("declarer", "declarer", lambda v: v.declarer),
    ("hand", "hand", lambda v: list(map(_NAME, v.hand))),
    ("contract", "contract", lambda v: v.contract),
    ("trump", "trump", lambda v: v.trump),
    ("rank", "rank", lambda v: v.rank),
    ("calls", "calls", lambda v: [_call_json(c) for c in v.calls]),
    ("pairs", "pairs", lambda v: [{"doubler": a, "doubled": b, "multiplier": m} for a, b, m in v.pairs]),
    ("tricks", "tricks", lambda v: [_trick_json(t) for t in v.tricks]),
    ("current_trick", "current_trick", lambda v: _trick_json(v.current_trick) if v.current_trick else None),
    ("captured", "captured", lambda v: [list(map(_NAME, cs)) for cs in v.captured]),
    (
        "domino_rows",
        "domino_rows",
        lambda v: (
            [None if row is None else [RANKS[row[0]], RANKS[row[1]]] for row in v.domino_rows]
            if v.domino_rows is not None
            else None
        ),
    ),
    ("domino_order", "domino_order", lambda v: list(v.domino_order)),
    ("plays", "plays", lambda v: [_play_json(p) for p in v.plays]),
    ("arrangements", "arrangements", lambda v: [[card_name(c) for c in a] if a else None for a in v.arrangements]),
    ("cards_left", "cards_left", lambda v: list(v.cards_left)),
    ("declared", "declared", lambda v: [list(d) for d in v.declared]),
    ("contracts_left", "contracts_left", lambda v: list(v.contracts_left)),
    ("must_double", "must_double", lambda v: list(v.must_double)),
    ("legal", "legal", lambda v: list(v.legal)),
    ("legal_actions", "legal_actions", lambda v: [action_to_json(a) for a in v.legal_actions]),
    ("history", "history", lambda v: [summary_json(h) for h in v.history]),
    ("last_deal", "history", lambda v: summary_json(v.history[-1], detail=True) if v.history else None),
    ("totals", "totals", lambda v: list(v.totals)),
    ("game_over", "game_over", lambda v: v.game_over),
    ("options", "options", lambda v: dict(v.options)),
    ("owed", "owed", lambda v: [list(o) for o in v.owed]),
)
"""Each key of :meth:`SeatView.as_json`, in order, with the attribute its value is made from and
how. A field depends on that attribute alone, so a program that keeps each field's encoding (the
server) encodes again only the fields whose attribute is another object than before.

>>> from barbu.game import Game
>>> view = seat_view(Game.new("classic", seed=3), 0)
>>> [key for key, attribute, _make in JSON_FIELDS if key != attribute]
['deal', 'last_deal']
>>> list(view.as_json()) == [key for key, _attribute, _make in JSON_FIELDS]
True
"""


def summary_json(h: DealSummary, detail: bool = False) -> dict[str, Any]:
    """A finished deal as JSON: its scores, and with ``detail`` its calls, tricks, plays, domino
    finishing order and the settlement pair by pair (every fact public once the deal is over).

    >>> from barbu.game import Game
    >>> game = Game.new("classic", seed=3)
    >>> while len(game.deals) < 2:
    ...     game.apply(game.legal_actions()[-1])
    >>> done = summary_json(seat_view(game, 0).history[0], detail=True)
    >>> done["contract"], done["raw"], done["domino_order"]
    ('domino', [-5, 5, 45, 20], [2, 3, 1, 0])
    >>> done["settlement"]  # doubler, doubled, multiplier, what moves to the doubler
    [[0, 1, 2, -20], [2, 1, 2, 80], [3, 1, 2, 30]]
    >>> sorted(set(done) - set(summary_json(seat_view(game, 0).history[0])))
    ['calls', 'domino_order', 'plays', 'settlement', 'tricks']
    """
    out: dict[str, Any] = {
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
        "arrangements": None if h.arrangements is None else [[card_name(c) for c in a] for a in h.arrangements],
    }
    if detail:
        out["calls"] = [_call_json(c) for c in h.calls]
        out["tricks"] = [_trick_json(t) for t in h.tricks]
        out["plays"] = [] if h.tricks else [_play_json(p) for p in h.plays]
        out["domino_order"] = list(h.domino_order)
        out["settlement"] = [list(p) for p in h.settlement]
    return out


def _call_json(c: tuple[int, int, tuple[int, ...], tuple[int, ...]]) -> dict[str, Any]:
    return {"seat": c[0], "round": c[1], "double": list(c[2]), "redouble": list(c[3])}


def _play_json(p: tuple[int, int | None]) -> list[Any]:
    return [p[0], card_name(p[1]) if p[1] is not None else "pass"]


def _trick_json(t: TrickView) -> dict[str, Any]:
    return {
        "leader": t.leader,
        "cards": list(map(_NAME, t.cards)),
        "seats": list(t.seats),
        "winner": t.winner,
    }


GROWING_FIELDS: dict[str, Callable[[Any], Any]] = {
    "calls": _call_json,
    "plays": _play_json,
    "tricks": _trick_json,
    "history": summary_json,
}
"""The fields of :data:`JSON_FIELDS` whose value is a list made item by item from a tuple that
grows while a deal (or, for ``history``, the game) lasts, with how one item is made: a program
that kept a field's JSON text can extend it with the new items instead of encoding it again.

>>> from barbu.game import Game
>>> game = Game.new("classic", seed=3)
>>> for _ in range(9):
...     game.apply(game.legal_actions()[0])
>>> view = seat_view(game, 0)
>>> made = dict((key, make) for key, _attribute, make in JSON_FIELDS)
>>> all(made[key](view) == [item(x) for x in getattr(view, key)] for key, item in GROWING_FIELDS.items())
True
"""


_SUMMARIES: WeakKeyDictionary[Deal, DealSummary] = WeakKeyDictionary()
"""Summaries of finished deals, which never change: views reuse them instead of rebuilding."""


def _summary(d: Deal) -> DealSummary:
    known = _SUMMARIES.get(d)
    if known is not None:
        return known
    assert d.contract is not None and d.raw is not None and d.adjustments is not None and d.final is not None
    log = _play_log(d)
    log.business(d)
    pairs = d.pairs()
    raw = d.raw
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
        calls=log.call_list,
        tricks=log.tricks,
        plays=log.plays,
        domino_order=tuple(d.domino.order) if d.domino is not None else (),
        settlement=tuple((p.doubler, p.doubled, p.multiplier, pair_amount(raw, p)) for p in pairs),
    )
    return known


_PLAY_TEXT = tuple(action_text(p) for p in PLAYS)
"""Each card's play in record notation."""


class _PlayLog:
    """The public play of one deal as views show it, grown by what changed since the last view.

    A deal's plays only ever grow, so each view extends the tuples of the view before
    it: one decision costs the actions taken since, not the whole deal.
    """

    __slots__ = (
        "call_list",
        "calls",
        "captured",
        "captured_at",
        "cards_left",
        "hands",
        "left_at",
        "pairs",
        "plays",
        "rows",
        "rows_at",
        "tricks",
    )

    def __init__(self) -> None:
        self.plays: tuple[tuple[int, int | None], ...] = ()
        self.tricks: tuple[TrickView, ...] = ()
        self.captured: tuple[tuple[int, ...], ...] = ()
        self.captured_at = -1
        """How many tricks were complete when :attr:`captured` was read."""
        self.hands: dict[int, tuple[int, ...]] = {}
        """Each hand mask shown so far in this deal, as its cards (hands only shrink)."""
        self.calls = -1
        self.pairs: tuple[tuple[int, int, int], ...] = ()
        self.call_list: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]], ...] = ()
        self.left_at: tuple[int, Phase, bool] | None = None
        self.cards_left: tuple[int, ...] = ()
        self.rows_at = -1
        self.rows: tuple[tuple[int, int] | None, ...] | None = None

    def hand(self, mask: int) -> tuple[int, ...]:
        """The cards of ``mask``, read once per mask."""
        cards = self.hands.get(mask)
        if cards is None:
            cards = self.hands[mask] = tuple(cards_of(mask))
        return cards

    def business(self, d: Deal) -> None:
        """Read the calls and business pairs again if a call was made since the last view."""
        calls = len(d.doubling.calls) if d.doubling is not None else 0
        if calls != self.calls:
            self.pairs = tuple((p.doubler, p.doubled, p.multiplier) for p in d.pairs())
            if d.doubling is not None:
                self.call_list = tuple((c.seat, c.round, c.doubles, c.redoubles) for c in d.doubling.calls)
            self.calls = calls

    def left(self, d: Deal) -> tuple[int, ...]:
        """How many cards each seat holds, read again only after a play, a change of phase or
        hands given to a deal dealt without them."""
        at = (len(d.plays), d.phase, d.dealt is None)
        if at != self.left_at:
            self.cards_left = tuple(d.hand(s).bit_count() for s in range(d.players))
            self.left_at = at
        return self.cards_left

    def domino_rows(self, d: Deal) -> tuple[tuple[int, int] | None, ...] | None:
        """The domino rows, read again only after a play."""
        domino = d.domino
        if domino is None:
            return None
        if self.rows_at != len(d.plays) or self.rows is None:
            self.rows = tuple(domino.shown_rows())
            self.rows_at = len(d.plays)
        return self.rows

    def update(self, d: Deal) -> None:
        """Catch up with ``d``'s plays (a deal whose plays shrank is read again from its start)."""
        plays, seats = d.plays, d.play_seats
        known = len(self.plays)
        if known > len(plays):
            self.plays, self.tricks, self.captured_at = (), (), -1
            known = 0
        if known < len(plays):
            self.plays += tuple(zip(seats[known:], plays[known:], strict=True))
        t = d.tricks
        if t is None:
            return
        n = d.players
        done = len(t.winners)
        have = len(self.tricks)
        if have < done:
            more = []
            for i in range(have, done):
                start = i * n
                cards = tuple(c for c in plays[start : start + n] if c is not None)
                trick_seats = tuple(seats[start : start + n])
                more.append(TrickView(trick_seats[0], cards, trick_seats, t.winners[i]))
            self.tricks += tuple(more)
        if self.captured_at != done:
            self.captured = tuple(tuple(cards_of(m)) for m in t.captured)
            self.captured_at = done


_PLAY_LOGS: WeakKeyDictionary[Deal, _PlayLog] = WeakKeyDictionary()
"""The play log of each deal a view was made of (by identity: a copied deal has its own)."""


def _play_log(d: Deal) -> _PlayLog:
    log = _PLAY_LOGS.get(d)
    if log is None:
        _PLAY_LOGS[d] = log = _PlayLog()
    log.update(d)
    return log


def must_double_shown(d: Deal, seat: int) -> tuple[int, ...]:
    """The seats ``seat`` must still double, as its view shows them (:attr:`SeatView.must_double`):
    only while it is that seat's call."""
    if d.doubling is None or d.phase is not Phase.CALL or d.to_act != seat:
        return ()
    return tuple(d.doubling.must_double(seat))


class _GameLog:
    """What views show of a game's finished deals, grown deal by deal.

    The history and the declared contracts are extended with each deal that finishes or gets its
    contract, not rebuilt: every deal but the last is finished, so the deals read before stay as
    they were. A game whose deals changed otherwise (a list replaced or cut, as an episode's
    ended copy is) is read again from its first deal.

    >>> from barbu.game import Game
    >>> from barbu.actions import Declare
    >>> game = Game.new("classic", seed=3)
    >>> log = _GameLog()
    >>> log.update(game)
    >>> log.history, log.declared
    ((), ((), (), (), ()))
    >>> game.apply(Declare("no-queens"))
    >>> log.update(game)
    >>> log.declared[game.deals[0].declarer]
    ('no-queens',)
    """

    __slots__ = (
        "deals",
        "declared",
        "history",
        "last",
        "listed",
        "options",
        "owed",
        "owed_at",
        "read",
        "read_declared",
    )

    def __init__(self) -> None:
        self.deals: tuple[int, bool, bool] = (-1, False, False)
        self.history: tuple[DealSummary, ...] = ()
        self.declared: tuple[tuple[str, ...], ...] = ()
        self.options: dict[str, Any] = {}
        self.owed: tuple[tuple[int, ...], ...] = ()
        self.owed_at: tuple[int, int] = (-1, -1)
        self.read: list[Deal] = []
        """The deals whose summary and contract are in :attr:`history` and :attr:`declared`
        (finished ones), in order: what the next update checks are still the game's first deals."""
        self.read_declared: tuple[tuple[str, ...], ...] = ()
        self.listed: list[Deal] | None = None
        self.last: Deal | None = None
        """The game's list of deals and its last deal when last read: another list or last deal is a change."""
        """Each seat's contracts among :attr:`read`; :attr:`declared` adds the live deal's."""

    def owed_doubles(self, game: Game) -> tuple[tuple[int, ...], ...]:
        """The compulsory doubles still owed, read again only after a call or a new deal."""
        deals = game.deals
        last = deals[-1] if deals else None
        at = (len(deals), len(last.doubling.calls) if last is not None and last.doubling is not None else 0)
        if at != self.owed_at:
            owed = game.owed_doubles()
            self.owed = tuple(tuple(o) for o in owed) if any(any(o) for o in owed) else ()
            self.owed_at = at
        return self.owed

    def update(self, game: Game) -> None:
        """Catch up with ``game``: read again only when its deal count, or its last deal's contract or end, changed
        (or its list of deals or last deal is another)."""
        deals = game.deals
        last = deals[-1] if deals else None
        key = (len(deals), last is not None and last.contract is not None, last is not None and last.finished)
        if key == self.deals and deals is self.listed and last is self.last:
            return
        self.listed = deals
        self.last = last
        players = game.rules.players
        if self.deals[0] < 0:
            self.options = game.rules.as_options()
            self.read_declared = tuple(() for _ in range(players))
        self.deals = key
        read = self.read
        done = len(read)
        if len(deals) < done or not all(map(is_, read, deals)) or not all(d.finished for d in deals[done:-1]):
            self._reread(game)  # not an append of finished deals: read every deal again
            return
        new = [d for d in deals[done:] if d.finished]
        if new:
            read += new
            self.history += tuple(map(_summary, new))
            grown = [list(c) for c in self.read_declared]
            for d in new:
                assert d.contract is not None
                grown[d.declarer].append(d.contract.id)
            self.read_declared = tuple(map(tuple, grown))
        declared = self.read_declared
        if last is not None and not last.finished and last.contract is not None:
            live = list(declared)
            live[last.declarer] += (last.contract.id,)
            declared = tuple(live)
        self.declared = declared

    def _reread(self, game: Game) -> None:
        """Read every deal of ``game`` again (after a change that is not an append of deals)."""
        deals = game.deals
        self.read = [d for d in deals if d.finished]
        self.history = tuple(_summary(d) for d in self.read)
        self.read_declared = tuple(
            tuple(d.contract.id for d in self.read if d.declarer == s and d.contract is not None)
            for s in range(game.rules.players)
        )
        self.declared = tuple(
            tuple(d.contract.id for d in deals if d.declarer == s and d.contract is not None)
            for s in range(game.rules.players)
        )


_GAME_LOGS: WeakKeyDictionary[Game, _GameLog] = WeakKeyDictionary()


def _game_log(game: Game) -> _GameLog:
    log = _GAME_LOGS.get(game)
    if log is None:
        _GAME_LOGS[game] = log = _GameLog()
    log.update(game)
    return log


_FIELDS = frozenset(f.name for f in fields(SeatView))


def _view(**values: Any) -> SeatView:
    """A :class:`SeatView` of every field, made without the frozen dataclass's per-field checks
    (several times faster; the view is as frozen as one made by its constructor).

    >>> from barbu.game import Game
    >>> game = Game.new("classic", seed=3)
    >>> view = seat_view(game, 0)
    >>> view == SeatView(**vars(view)) and set(vars(view)) == _FIELDS
    True
    """
    assert values.keys() == _FIELDS
    view = object.__new__(SeatView)
    view.__dict__.update(values)
    return view


OWN_ATTRIBUTES = frozenset({"seat", "hand", "arrangements", "must_double", "legal", "legal_actions"})
"""The attributes of a :class:`SeatView` that depend on the seat. Every other one is the same for
every seat and the spectator: :func:`seat_views` reads it once and gives each view the same object.

>>> from barbu.game import Game
>>> views = seat_views(Game.new("classic", seed=3), (None, 0, 1))
>>> shared = [f.name for f in fields(SeatView) if f.name not in OWN_ATTRIBUTES]
>>> all(getattr(views[0], a) is getattr(views[1], a) is getattr(views[None], a) for a in shared)
True
"""


def seat_view(game: Game, seat: int | None) -> SeatView:
    """The view of ``seat`` (None: a spectator, who sees no hand)."""
    return seat_views(game, (seat,))[seat]


def seat_views(game: Game, seats: Iterable[int | None]) -> dict[int | None, SeatView]:
    """The views of several ``seats`` (None: a spectator) of the same moment, each equal to
    :func:`seat_view`'s; what every seat may know alike is read once, the same objects in every view."""
    live_deal = game.current
    deal = live_deal if live_deal is not None else (game.deals[-1] if game.deals else None)
    assert deal is not None
    live = live_deal is not None
    players = game.rules.players
    to_act = deal.to_act if live else None
    log = _play_log(deal)
    t = deal.tricks
    current = None
    if t is not None and t.trick:
        current = TrickView(t.leader, tuple(t.trick), tuple(t.trick_seats()), None)
    captured = log.captured if t is not None else tuple(() for _ in range(players))
    past = _game_log(game)
    domino = deal.domino
    log.business(deal)
    shared: dict[str, Any] = {
        "variant": game.rules.name,
        "players": players,
        "deal_number": deal.index + 1,
        "deals_total": game.rules.deal_count,
        "phase": str(deal.phase) if live else "game_over",
        "to_act": to_act,
        "declarer": deal.declarer,
        "contract": deal.contract.id if deal.contract is not None else None,
        "trump": SUITS[deal.trump] if deal.trump is not None else None,
        "rank": RANKS[deal.rank] if deal.rank is not None else None,
        "calls": log.call_list,
        "pairs": log.pairs,
        "tricks": log.tricks,
        "current_trick": current,
        "captured": captured,
        "domino_rows": log.domino_rows(deal),
        "domino_order": tuple(domino.order) if domino is not None else (),
        "plays": log.plays,
        "cards_left": log.left(deal),
        "declared": past.declared,
        "contracts_left": tuple(c.id for c in deal.available) if deal.phase is Phase.CONTRACT else (),
        "history": past.history,
        "totals": tuple(game.totals),
        "game_over": game.is_over,
        "options": dict(past.options),
        "owed": past.owed_doubles(game),
    }
    done = deal.finished
    by_seat = deal.arrangements_by_seat() if deal.contract is not None and deal.contract.play == "arrange" else None
    arranging = deal.phase is Phase.ARRANGE
    set_already = deal._arrange_order()[: len(deal.arrangements)] if arranging else ()
    out: dict[int | None, SeatView] = {}
    for seat in seats:
        arrangements: tuple[tuple[int, ...] | None, ...] = ()
        if by_seat is not None:
            arrangements = tuple(a if done or s == seat else None for s, a in enumerate(by_seat))
        legal_actions: list[Action] = []
        if live and seat is not None and to_act == seat and not arranging:
            legal_actions = list(game.legal_actions())
        hand = log.hand(deal.hand(seat)) if seat is not None else ()
        if arranging and seat is not None and seat in set_already:
            hand = ()
        must = must_double_shown(deal, seat) if seat is not None else ()
        out[seat] = _view(
            seat=seat,
            hand=hand,
            arrangements=arrangements,
            must_double=must,
            legal=[_PLAY_TEXT[a.card] if type(a) is Play else action_text(a) for a in legal_actions],
            legal_actions=legal_actions,
            **shared,
        )
    return out
