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
from barbu.domino import DominoPlay
from barbu.doubling import Pair, settle
from barbu.game import Dealer
from barbu.rulesets import Rules

if TYPE_CHECKING:
    from barbu.tricks import TrickPlay

__all__ = ["CallTable", "FastDeal", "FastDealer", "compiled_scores"]

_CHOICE = (Phase.CONTRACT, Phase.TRUMP, Phase.RANK)
_NOTHING: tuple[Action, ...] = ()


def _positions(legal: tuple[Action, ...]) -> dict[int, int]:
    """The index of each of ``legal``'s actions by its identity (the actions a caller is given
    come back as themselves: a look-up, where ``legal.index`` would compare actions one by one)."""
    return {id(a): i for i, a in enumerate(legal)}


class _Calls:
    """A place in the calls (a node of a :class:`CallTable`'s call trees): the seat to call, its
    legal calls, the pairs so far; no legal call once the calls are over."""

    __slots__ = ("at", "children", "legal", "pairs", "parent", "seat", "via")

    def __init__(self, deal: Deal, parent: _Calls | None, via: int) -> None:
        self.parent = parent
        self.via = via
        """The index of the call that led here among the parent's legal calls."""
        self.pairs: tuple[Pair, ...] = tuple(deal.pairs())
        if deal.phase is Phase.CALL:
            self.seat: int | None = deal.to_act
            self.legal: tuple[Action, ...] = tuple(deal.legal_actions())
        else:
            self.seat = None
            self.legal = _NOTHING
        self.children: list[_Calls | None] = [None] * len(self.legal)
        self.at = _positions(self.legal)


class _End:
    """What follows the calls of a deal: its card play at the start (each deal brings its
    hands), or the final points of a deal skipped undoubled (RULES.md §2.8)."""

    __slots__ = ("final", "model", "play")

    def __init__(self, deal: Deal) -> None:
        self.play: TrickPlay | DominoPlay | None = deal.cardplay if deal.phase is Phase.PLAY else None
        self.final: list[int] | None = deal.final if deal.phase is Phase.DONE else None
        if self.play is None and self.final is None:  # arrangements: their actions depend on the cards
            raise ValueError(f"the fast door plays trick and domino deals, not the {deal.phase} phase")
        self.model = compiled_scores(deal)
        """The contract's compiled scores (:func:`barbu.accel.final_points`), where there are."""


def compiled_scores(deal: Deal) -> tuple[int, ...] | None:
    """The compiled scores (:func:`barbu.accel.final_points`' model) of a trick deal at its cards,
    or None where the final points are the core's Python ones: the pure path, two decks, a
    contract whose raw scores are not linear, or the chooser's adjustment, which the compiled
    scores do not add.

    >>> import random
    >>> from barbu import Game
    >>> game = Game.new("classic", seed=7)
    >>> game.call_random([random.Random(s) for s in range(4)])
    >>> game.current.contract.id, compiled_scores(game.current)  # a domino deal: no tricks
    ('domino', None)
    >>> game = Game.new("classic", seed=3)
    >>> game.call_random([random.Random(s) for s in range(4)])
    >>> model = compiled_scores(game.current)
    >>> game.current.contract.play, model is None or len(model) == 56
    ('tricks', True)
    """
    rules, contract = deal.rules, deal.contract
    if deal.tricks is None or contract is None or not accel.supports(rules):
        return None
    if rules.flags.contract_choice == "chooser_doubled":
        return None
    return accel.score_model(contract, rules.shape)


class _Place:
    """A place before the calls (the contract choice, the trump or rank named), or where the
    calls start (:attr:`calls`), or where the cards start without calls (:attr:`end`)."""

    __slots__ = ("at", "calls", "children", "contract", "end", "ends", "legal", "parent", "seat", "via")

    def __init__(self, deal: Deal, parent: _Place | None, via: int, calls: _Calls | None) -> None:
        self.parent = parent
        self.via = via
        self.contract: Contract | None = deal.contract
        self.calls = calls
        """The root of the calls that start here (shared by every place with the same doubling)."""
        self.ends: dict[bool, _End] = {}
        """After the calls, by whether they made no pair (all that the end depends on, besides
        this place: the contract, trump or rank and declarer)."""
        self.end: _End | None = None
        if deal.phase in _CHOICE:
            self.seat: int | None = deal.to_act
            self.legal: tuple[Action, ...] = tuple(deal.legal_actions())
        else:
            self.seat = None
            self.legal = _NOTHING
            if calls is None:  # no calls (a rule set without doubling): the cards start here
                self.end = _End(deal)
        self.children: list[_Place | None] = [None] * len(self.legal)
        self.at = _positions(self.legal)


class CallTable:
    """The contract choices and calls of the deals of one rule set with the same contracts
    available (and the same seats forced to double), as the core says them, remembered.

    Make one with :meth:`of` (kept with the rules). Its places are grown as deals meet them.
    The calls do not depend on the contract beyond its doubling (who may double whom), so
    the places of the calls are shared by every contract, trump and rank of a declarer with
    the same doubling: random classic deals meet a few tens of thousands of them.
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
        self._call_roots: dict[tuple[object, ...], _Calls] = {}
        self._last: tuple[object, Deal] | None = None
        """The place last grown and a deal there (the next growth often starts from it)."""

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

    def root(self, declarer: int) -> _Place:
        """The place where a deal of ``declarer`` starts."""
        found = self._roots[declarer]
        if found is None:
            deal = Deal(self.rules, self.index, declarer, self._dummy, self.available, self.forced)
            found = self._roots[declarer] = self._place(deal, None, -1)
        return found

    def _place(self, deal: Deal, parent: _Place | None, via: int) -> _Place:
        calls = None
        d = deal.doubling
        if deal.phase is Phase.CALL and d is not None:
            key = (d.players, d.declarer, d.negative, d.forced, tuple(d.order))
            calls = self._call_roots.get(key)
            if calls is None:
                calls = self._call_roots[key] = _Calls(deal, None, -1)
                self.places += 1
        place = _Place(deal, parent, via, calls)
        if calls is not None:
            self._last = (place, deal)
        self.places += 1
        return place

    def _deal_at(self, place: _Place, calls: _Calls | None) -> Deal:
        """A deal of this table at ``place`` and then ``calls`` (the core's, replayed)."""
        last = self._last
        if last is not None and last[0] is (place if calls is None or calls.parent is None else calls):
            self._last = None
            return last[1]
        steps: list[Action] = []
        c = calls
        while c is not None and c.parent is not None:
            steps.append(c.parent.legal[c.via])
            c = c.parent
        p = place
        while p.parent is not None:
            steps.append(p.parent.legal[p.via])
            p = p.parent
        deal = Deal(self.rules, self.index, self._roots.index(p), self._dummy, self.available, self.forced)
        for action in reversed(steps):
            deal.apply_unchecked(action)
        return deal

    def grow(self, place: _Place, i: int) -> _Place:
        """The place after ``place``'s legal action ``i`` (before the calls), asked of the core
        and remembered."""
        deal = self._deal_at(place, None)
        deal.apply_unchecked(place.legal[i])
        child = place.children[i] = self._place(deal, place, i)
        return child

    def grow_calls(self, place: _Place, calls: _Calls, i: int) -> _Calls:
        """The calls after ``calls``' legal call ``i`` (from ``place``), asked of the core and
        remembered."""
        deal = self._deal_at(place, calls)
        deal.apply_unchecked(calls.legal[i])
        child = calls.children[i] = _Calls(deal, calls, i)
        self.places += 1
        self._last = (child, deal)
        return child

    def end(self, place: _Place, calls: _Calls) -> _End:
        """What follows ``calls`` (over) from ``place``, asked of the core and remembered."""
        deal = self._deal_at(place, calls)
        found = place.ends[not calls.pairs] = _End(deal)
        return found


class FastDeal:
    """One deal on compact state, driven through the fast door (see the module docstring).

    ``hands`` are the dealt hands as masks (:class:`FastDealer` deals them as
    :class:`~barbu.game.Dealer` does).
    """

    __slots__ = ("_calls", "_final", "_model", "_place", "_table", "cardplay", "declarer", "hands")

    def __init__(self, table: CallTable, declarer: int, hands: Sequence[int]) -> None:
        self._table = table
        self.declarer = declarer
        self.hands = hands
        self.cardplay: TrickPlay | DominoPlay | None = None
        """The trick or domino play once the cards start (its own fast door: ``play_next``)."""
        self._final: list[int] | None = None
        self._model: tuple[int, ...] | None = None
        self._place = place = table.root(declarer)
        self._calls = place.calls
        if place.end is not None:  # no choice and no calls: the cards start at once
            self._enter(place.end)

    @property
    def to_act(self) -> int | None:
        """The seat to act before the cards (None once the calls are over)."""
        calls = self._calls
        return self._place.seat if calls is None else calls.seat

    @property
    def contract(self) -> Contract | None:
        """The contract, once chosen."""
        return self._place.contract

    def legal_actions(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act before the cards, in :meth:`Deal.legal_actions`'
        order; empty once the calls are over."""
        calls = self._calls
        return self._place.legal if calls is None else calls.legal

    def apply(self, action: Action) -> tuple[Action, ...]:
        """Apply one of the legal actions, unchecked; returns the next legal actions (empty
        once the calls are over: the cards start, or the deal is scored without play)."""
        calls = self._calls
        place = self._place
        if calls is None:
            i = place.at.get(id(action))
            if i is None:  # an equal action, not the one listed
                i = place.legal.index(action)
            child = place.children[i] or self._table.grow(place, i)
            self._place = child
            self._calls = child.calls
            if child.end is not None:
                self._enter(child.end)
            return child.legal if child.calls is None else child.calls.legal
        i = calls.at.get(id(action))
        if i is None:
            i = calls.legal.index(action)
        after = calls.children[i] or self._table.grow_calls(place, calls, i)
        self._calls = after
        if after.legal:
            return after.legal
        self._enter(place.ends.get(not after.pairs) or self._table.end(place, after))
        return _NOTHING

    def _enter(self, end: _End) -> None:
        if end.play is not None:
            play = self.cardplay = end.play.copy()
            play.set_hands(list(self.hands))
            self._model = end.model
        else:
            self._final = end.final

    @property
    def pairs(self) -> list[Pair]:
        """The business pairs of the calls so far."""
        calls = self._calls
        return [] if calls is None else list(calls.pairs)

    def final(self) -> list[int]:
        """Each seat's final points (raw scores and the doubles' settlement), once the deal is
        over: played to its end, or skipped undoubled."""
        if self._final is not None:
            return list(self._final)
        play, contract = self.cardplay, self._place.contract
        if play is None or not play.finished or contract is None:
            raise ValueError("the deal is not over: its calls or its cards are still to come")
        calls = self._calls
        pairs = () if calls is None else calls.pairs
        if self._model is not None:
            return accel.final_points(play, self._model, pairs)  # type: ignore[arg-type]  # a TrickPlay
        rules = self._table.rules
        tally = (
            {"order": list(play.order)} if isinstance(play, DominoPlay) else contract.tally_from_tricks(play.result())
        )
        raw = contract.raw(tally, rules.shape)
        chooser = rules.chooser_adjustment(raw, self.declarer)
        return [r + a + c for r, a, c in zip(raw, settle(raw, pairs), chooser, strict=True)]


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
