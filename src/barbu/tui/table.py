"""The terminal game's table: one person, the bots in the other seats, and the dealer.

A :class:`Table` owns the :class:`~barbu.game.Game` (the terminal game is its own
server), deals each deal from the table's seed, asks the bots for their actions and
checks the person's actions through the core's checked door. Everything the person
is shown comes from :meth:`Table.view`, the seat's :func:`~barbu.view.seat_view`.

Deal ``i`` is always dealt by a :class:`~barbu.game.Dealer` that has dealt deals
``first_deal … i-1`` before it, so a game saved and resumed with its seed file
(:mod:`barbu.tui.saved_game`) keeps dealing exactly the deals it would have dealt.
With ``first_deal == 0`` the dealer also draws the first declarer, which makes a new
table deal the same deals as ``Game.new(variant, options, seed)``.

Bots are made afresh for every decision with a seed drawn from the table's seed, the
seat and the number of actions so far: the same seed and the same actions of the
person give the same game, before and after a save.

>>> from barbu import Game
>>> table = Table.new("classic", seat=0, bots=["random"], seed=4)
>>> table.deals_like(Game.new("classic", seed=4))
True
>>> table.names
['You', 'West', 'North', 'East']
>>> while not table.person_to_act and not table.game.is_over:
...     table.apply_bot(*table.bot_action())
>>> table.view().seat, table.view().to_act
(0, 0)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from barbu import errors as core
from barbu.actions import Action
from barbu.bots import Bot, bot_level, bot_levels, make_bot
from barbu.cards import pbn
from barbu.errors import RecordError
from barbu.game import Dealer, Game
from barbu.language import N_, _
from barbu.rulesets import Rules, rules
from barbu.view import SeatView, seat_view

HINT_PREFERENCE = ("search", "heuristic", "random")
"""Bot levels asked for a hint, best first: the first one registered answers."""

SEAT_NAMES = {
    3: [N_("You"), N_("West"), N_("East")],
    4: [N_("You"), N_("West"), N_("North"), N_("East")],
    5: [N_("You"), N_("West"), N_("North-west"), N_("North-east"), N_("East")],
}
"""Names of the seats as the person sees them, from the person's seat round to the right
(in English: translated where shown)."""


def default_bot_level() -> str:
    """The bots' default level: ``heuristic`` when registered, else ``random``."""
    return "heuristic" if bot_level("heuristic") is not None else "random"


def hint_level() -> str:
    """The level that answers the hint key: ``search`` if registered, else the best there is."""
    for level in HINT_PREFERENCE:
        if bot_level(level) is not None:
            return level
    return next(iter(bot_levels()))


def derived_seed(*parts: object) -> int:
    """A 63-bit seed drawn from the parts' text, the same on every machine.

    >>> derived_seed(7, "hint", 3) == derived_seed(7, "hint", 3) != derived_seed(7, "hint", 4)
    True
    """
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def bot_levels_for(levels: Sequence[str], players: int) -> list[str]:
    """One level per bot seat: a single level for all, or one per bot (left first).

    >>> bot_levels_for(["random"], 4)
    ['random', 'random', 'random']
    """
    if not levels:
        levels = [default_bot_level()]
    bots = players - 1
    if len(levels) == 1:
        levels = list(levels) * bots
    if len(levels) != bots:
        raise ValueError(
            _(
                "give one bot level for all bots or exactly {bots}, one per bot from your left; got {n}",
                bots=bots,
                n=len(levels),
            )
        )
    for level in levels:
        if bot_level(level) is None:
            raise ValueError(
                _("unknown bot level {level}; levels are: {levels}", level=repr(level), levels=", ".join(bot_levels()))
            )
    return list(levels)


class Table:
    """One person at ``seat`` and bots of ``bots`` levels (one per other seat, left first)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        bots: Sequence[str],
        seed: int | str,
        dealer: Dealer,
        first_deal: int = 0,
    ) -> None:
        n = game.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1}, not {seat}")
        self.game = game
        self.seat = seat
        self.bot_levels = bot_levels_for(bots, n)
        self.seed = seed
        self.first_deal = first_deal
        self._dealer = dealer
        self._view: SeatView | None = None
        self._view_stamp = -1
        self.deal_in()

    # -- making a table -------------------------------------------------------

    @classmethod
    def new(
        cls,
        variant: str = "classic",
        options: Mapping[str, Any] | None = None,
        seat: int = 0,
        bots: Sequence[str] = (),
        seed: int | str = 0,
    ) -> Table:
        """A new game dealt from ``seed`` (raises :class:`~barbu.errors.OptionsError` for bad options)."""
        r = rules(variant, options)
        dealer = Dealer(seed)
        game = Game(r, dealer.first_declarer(r.players))
        return cls(game, seat, bots, seed, dealer, 0)

    @classmethod
    def resume(
        cls,
        game: Game,
        seat: int,
        bots: Sequence[str],
        seed: int | str,
        first_deal: int | None = None,
    ) -> Table:
        """A game read from a record, dealt on from ``seed``.

        ``first_deal`` is the first deal that ``seed`` dealt (from a seed file); the
        deals already in the record are checked against it. None: the seed is new and
        deals only the deals the record has no hands for.
        """
        r = game.rules
        dealer = Dealer(seed)
        current = game.current
        if first_deal is None:
            first_deal = len(game.deals) - (1 if current is not None and current.dealt is None else 0)
        elif first_deal == 0 and dealer.first_declarer(r.players) != game.first_declarer:
            raise RecordError(
                "record", core.N_("the seed file does not belong to this record: the first declarer differs")
            )
        for deal in game.deals[first_deal:]:
            if deal is current and deal.dealt is None:
                break
            hands = tuple(dealer.deal(r, deal.declarer))
            if deal.dealt is not None and _faces(hands) != _faces(deal.dealt):
                message = core.N_("the seed file does not belong to this record: deal {n} differs", n=deal.index + 1)
                raise RecordError("hands", message, deal.index + 1)
        return cls(game, seat, bots, seed, dealer, first_deal)

    def deals_like(self, other: Game) -> bool:
        """True when the deals both games have reached hold the same hands."""
        k = min(len(self.game.deals), len(other.deals))
        return [_faces(d.dealt) for d in self.game.deals[:k]] == [_faces(d.dealt) for d in other.deals[:k]]

    # -- dealing ---------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rule set and options of the game."""
        return self.game.rules

    def deal_in(self) -> None:
        """Give the deal in progress its hands when it has none yet."""
        deal = self.game.current
        if deal is not None and deal.dealt is None:
            if deal.started:
                raise RecordError(
                    "hands", core.N_("deal {n} has started without hands: it cannot be played on", n=deal.index + 1)
                )
            self.game.give_hands(self._dealer.deal(self.rules, deal.declarer))

    # -- what the person sees ----------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Display names by seat: ``You`` and the bots named by where they sit."""
        n = self.rules.players
        around = [_(name) for name in SEAT_NAMES.get(n, [])] or [_("You")] + [_("Bot {n}", n=i) for i in range(1, n)]
        return [around[(s - self.seat) % n] for s in range(n)]

    @property
    def players(self) -> list[str]:
        """The names a record gets: the person, then each bot with its level."""
        names = self.names
        out = []
        for s in range(self.rules.players):
            level = self.level_of(s)
            out.append(names[s] if level is None else _("{name} ({level} bot)", name=names[s], level=level))
        return out

    def level_of(self, seat: int) -> str | None:
        """The bot level playing ``seat`` (None for the person)."""
        if seat == self.seat:
            return None
        return self.bot_levels[(seat - self.seat) % self.rules.players - 1]

    def view(self) -> SeatView:
        """What the person may know now (the seat view of their seat)."""
        stamp = len(self.game.history)
        if self._view is None or stamp != self._view_stamp:
            self._view = seat_view(self.game, self.seat)
            self._view_stamp = stamp
        return self._view

    @property
    def person_to_act(self) -> bool:
        """True when the game waits for the person."""
        return self.game.to_act == self.seat

    @property
    def actions(self) -> int:
        """The number of actions so far (a stamp that changes with every action)."""
        return len(self.game.history)

    # -- acting ----------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Apply the person's action through the checked door.

        Raises :class:`~barbu.errors.IllegalAction` saying why; the game is then unchanged.
        """
        self.game.apply(action, self.seat)
        self.deal_in()

    def bot_for(self, seat: int) -> Bot:
        """The bot that decides ``seat``'s next action (a fresh one per decision)."""
        level = self.level_of(seat)
        if level is None:
            raise ValueError(f"seat {seat} is the person's seat, not a bot's")
        return make_bot(level, seed=derived_seed(self.seed, "bot", seat, self.actions))

    def bot_turn(self) -> tuple[int, Bot, SeatView]:
        """The seat to act (a bot's), its bot and its view: ``bot.act(view)`` may run elsewhere."""
        seat = self.game.to_act
        if seat is None or seat == self.seat:
            raise ValueError("no bot is to act now")
        return seat, self.bot_for(seat), seat_view(self.game, seat)

    def bot_action(self) -> tuple[int, Action]:
        """The seat to act and the action its bot chooses (computed here, at once)."""
        seat, bot, view = self.bot_turn()
        return seat, bot.act(view)

    def apply_bot(self, seat: int, action: Action) -> None:
        """Apply a bot's action through the checked door."""
        self.game.apply(action, seat)
        self.deal_in()

    def hint_bot(self) -> tuple[str, Bot]:
        """The level asked for a hint and its bot, for the person's current decision."""
        level = hint_level()
        return level, make_bot(level, seed=derived_seed(self.seed, "hint", self.actions))


__all__ = [
    "HINT_PREFERENCE",
    "SEAT_NAMES",
    "Table",
    "bot_levels_for",
    "default_bot_level",
    "derived_seed",
    "hint_level",
]


def _faces(hands: Sequence[int] | None) -> list[str] | None:
    """Hands as PBN: with two decks a record does not say which deck each copy came from, so
    hands are the same when each seat holds the same cards by face."""
    return None if hands is None else [pbn(h) for h in hands]
