"""The fast door on compact state: a deal from its contract choice to its scores, one call
per action, for simulation and search that play many whole deals.

A :class:`FastDeal` holds a deal as three small things: the hands, a place in a table of the
contract choices and calls (:class:`CallTable`), and once the cards start, the deal's
:class:`~barbu.tricks.TrickPlay` or :class:`~barbu.domino.DominoPlay` (compiled when the
accelerator is in use). Nothing about the choices and calls is decided here: a place in the
table is what the core's :class:`~barbu.deal.Deal` says at that point (the seat to act, its
legal actions in the order :meth:`Deal.legal_actions` lists them, the business pairs, how
the cards start or the scores of a deal skipped undoubled). The table asks the core the
first time a deal takes an action from a place (a :class:`Deal` replayed to that place,
the action applied through :meth:`Deal.apply_unchecked`) and remembers the answer, so from
then on an action is a look-up. The calls do not depend on the cards, so one table serves
every deal of a rule set with the same contracts available.

Like :meth:`Deal.apply_unchecked`, :meth:`FastDeal.apply` does not check its action: give
it one of the actions :meth:`FastDeal.legal_actions` (or the last :meth:`~FastDeal.apply`)
returned. The card play is the trick or domino play's own fast door (``play_next``).

>>> from barbu.rulesets import rules
>>> r = rules("classic")
>>> dealer = FastDealer(r, seed=5)
>>> deal = FastDeal(CallTable.of(r, r.contracts), 0, dealer.deal(0))
>>> actions = deal.legal_actions()
>>> actions[0]
Declare('no-tricks')
>>> while actions:
...     actions = deal.apply(actions[-1])  # the last contract, then every double there is
>>> play = deal.cardplay
>>> mask = play.legal_mask()
>>> while mask >= 0:
...     mask = play.play_next(mask.bit_length() - 1 if mask else None)  # the highest legal card
>>> deal.final()
[-85, 125, -25, 50]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from barbu import accel
from barbu.actions import Action
from barbu.contracts import Contract
from barbu.deal import Deal, Phase
from barbu.doubling import Pair, settle
from barbu.game import Dealer
from barbu.rulesets import Rules

if TYPE_CHECKING:
    from barbu.domino import DominoPlay
    from barbu.tricks import TrickPlay

__all__ = ["CallTable", "FastDeal", "FastDealer"]

_BEFORE_CARDS = (Phase.CONTRACT, Phase.TRUMP, Phase.RANK, Phase.CALL)
_NOTHING: tuple[Action, ...] = ()


class _Place:
    """One place in a :class:`CallTable`: what the core's deal says there."""

    __slots__ = ("children", "contract", "final", "legal", "pairs", "parent", "play", "seat", "via")

    def __init__(self, deal: Deal, parent: _Place | None, via: int) -> None:
        self.parent = parent
        self.via = via
        """The index of the action that led here among the parent's legal actions."""
        self.contract: Contract | None = deal.contract
        self.pairs: list[Pair] = deal.pairs()
        self.play: TrickPlay | DominoPlay | None = None
        """Once the cards start: the deal's card play at its start (the hands are each deal's own)."""
        self.final: list[int] | None = None
        """A deal skipped undoubled: its final points."""
        phase = deal.phase
        if phase in _BEFORE_CARDS:
            self.seat: int | None = deal.to_act
            self.legal: tuple[Action, ...] = tuple(deal.legal_actions())
        else:
            self.seat = None
            self.legal = _NOTHING
            if phase is Phase.PLAY:
                self.play = deal.cardplay
            elif phase is Phase.DONE:
                self.final = deal.final
            else:  # arrangements: their legal actions depend on the cards (refused by CallTable.of)
                raise ValueError(f"the fast door plays trick and domino deals, not the {phase} phase")
        self.children: list[_Place | None] = [None] * len(self.legal)


class CallTable:
    """The contract choices and calls of the deals of one rule set with the same contracts
    available (and the same seats forced to double), as the core says them, remembered.

    Make one with :meth:`of` (kept with the rules). Its places are grown as deals meet them;
    a rule set's tables hold a few tens of thousands of places after many random deals.
    """

    def __init__(self, rules: Rules, available: Sequence[Contract], forced: frozenset[int], index: int) -> None:
        if rules.twin or any(c.play not in ("tricks", "domino") for c in available):
            raise ValueError("the fast door plays one-deck trick and domino contracts")
        self.rules = rules
        self.available = tuple(available)
        self.forced = forced
        self.index = index
        self._dummy = Dealer(0).deal(rules, 0)
        """Any hands: the calls do not depend on them, and each deal brings its own to the cards."""
        self.places = 0
        self._roots: list[_Place | None] = [None] * rules.players

    @classmethod
    def of(
        cls, rules: Rules, available: Sequence[Contract], forced: frozenset[int] = frozenset(), index: int = 0
    ) -> CallTable:
        """The table of ``rules`` for deals with ``available`` contracts and ``forced`` doublers
        (deal ``index``, which matters when the rules schedule its contract), made once
        (kept in :attr:`Rules.derived`).

        >>> from barbu.rulesets import rules
        >>> r = rules("classic")
        >>> CallTable.of(r, r.contracts) is CallTable.of(r, r.contracts)
        True
        """
        scheduled = rules.scheduled_contract(index)
        key = ("call table", tuple(c.id for c in available), forced, scheduled.id if scheduled else None)
        found: CallTable | None = rules.derived.get(key)
        if found is None:
            found = rules.derived[key] = cls(rules, available, forced, index)
        return found

    def _deal(self, declarer: int) -> Deal:
        return Deal(self.rules, self.index, declarer, self._dummy, self.available, self.forced)

    def root(self, declarer: int) -> _Place:
        """The place where a deal of ``declarer`` starts."""
        found = self._roots[declarer]
        if found is None:
            found = self._roots[declarer] = _Place(self._deal(declarer), None, -1)
            self.places += 1
        return found

    def grow(self, place: _Place, i: int) -> _Place:
        """The place after ``place``'s legal action ``i``, asked of the core (a deal replayed
        to ``place``, the action applied) and remembered."""
        path = []
        at = place
        while at.parent is not None:
            path.append(at)
            at = at.parent
        declarer = self._roots.index(at)
        deal = self._deal(declarer)
        for step in reversed(path):
            assert step.parent is not None
            deal.apply_unchecked(step.parent.legal[step.via])
        deal.apply_unchecked(place.legal[i])
        child = place.children[i] = _Place(deal, place, i)
        self.places += 1
        return child


class FastDeal:
    """One deal on compact state, driven through the fast door (see the module docstring).

    ``hands`` are the dealt hands as masks (:class:`FastDealer` deals them as
    :class:`~barbu.game.Dealer` does).
    """

    __slots__ = ("_place", "_table", "cardplay", "declarer", "hands")

    def __init__(self, table: CallTable, declarer: int, hands: Sequence[int]) -> None:
        self._table = table
        self.declarer = declarer
        self.hands = hands
        self.cardplay: TrickPlay | DominoPlay | None = None
        """The trick or domino play once the cards start (its own fast door: ``play_next``)."""
        self._place = place = table.root(declarer)
        if place.play is not None:  # no choice and no calls: the cards start at once
            self._start(place.play)

    @property
    def to_act(self) -> int | None:
        """The seat to act before the cards (None once the calls are over)."""
        return self._place.seat

    @property
    def contract(self) -> Contract | None:
        """The contract, once chosen."""
        return self._place.contract

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act before the cards, in :meth:`Deal.legal_actions`'
        order; empty once the calls are over."""
        return self._place.legal

    def apply(self, action: Action) -> tuple[Action, ...]:
        """Apply one of the legal actions, unchecked; returns the next legal actions (empty
        once the calls are over: the cards start, or the deal is scored without play)."""
        place = self._place
        i = place.legal.index(action)
        child = place.children[i] or self._table.grow(place, i)
        self._place = child
        if child.play is not None:
            self._start(child.play)
        return child.legal

    def _start(self, start: TrickPlay | DominoPlay) -> None:
        play = self.cardplay = start.copy()
        play.set_hands(list(self.hands))

    @property
    def pairs(self) -> list[Pair]:
        """The business pairs of the calls so far."""
        return self._place.pairs

    def final(self) -> list[int]:
        """Each seat's final points (raw scores and the doubles' settlement), once the deal is
        over: played to its end, or skipped undoubled."""
        place = self._place
        if place.final is not None:
            return list(place.final)
        play, contract = self.cardplay, place.contract
        if play is None or not play.finished or contract is None:
            raise ValueError("the deal is not over: its calls or its cards are still to come")
        rules = self._table.rules
        if contract.play == "tricks":
            tally = contract.tally_from_tricks(play.result())  # type: ignore[union-attr]
        else:
            tally = {"order": list(play.order)}  # type: ignore[union-attr]
        raw = contract.raw(tally, rules.shape)
        chooser = rules.chooser_adjustment(raw, self.declarer)
        return [r + a + c for r, a, c in zip(raw, settle(raw, place.pairs), chooser, strict=True)]


class FastDealer:
    """:class:`~barbu.game.Dealer` for the fast door: the same hands from the same int seed,
    dealt in compiled code when the accelerator is in use.

    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> d, e = FastDealer(r, 3), Dealer(3)
    >>> [d.deal(s) for s in (2, 0)] == [e.deal(r, s) for s in (2, 0)]
    True
    """

    def __init__(self, rules: Rules, seed: int) -> None:
        self._rules = rules
        self._fast = accel.shuffler(rules, seed)
        self._dealer = Dealer(seed) if self._fast is None else None

    def deal(self, declarer: int) -> list[int]:
        """The hands of the next deal, dealt from ``declarer``."""
        if self._fast is not None:
            return self._fast(declarer)
        assert self._dealer is not None
        return self._dealer.deal(self._rules, declarer)
