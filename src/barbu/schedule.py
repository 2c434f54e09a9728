"""The contract schedule: which contracts each declarer names over a game (RULES.md §2.3, §4).

A rule set has one :class:`Schedule`: :class:`OnceEach` (each declarer names each
contract once, in any order), :class:`FixedOrder` (``french``: the contracts come in
table order, every seat declaring the same one in turn) or :class:`Quotas` (``king``:
so many negatives and so many trumps each, each negative at most so many times a game).
French's flag ``contract_choice`` turns its :class:`FixedOrder` into :class:`ChosenInTurn`
(:meth:`Schedule.under`): each seat chooses in turn and the player before the dealer leads.
The engine, the score sheet and the research adapters ask the schedule, never a rule
set's name.

>>> from barbu.contracts import NoQueens, Trumps
>>> game = (NoQueens(), Trumps())
>>> [c.id for c in OnceEach().available(game, own=[NoQueens()], everyone=[NoQueens()])]
['trumps']
>>> Quotas(negatives=1, trumps=2, per_negative=1).per_declarer(game)
3
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from barbu.contracts import Contract, DealShape

if TYPE_CHECKING:
    from barbu.rulesets import Flags


class Schedule(ABC):
    """How a rule set gives out its contracts; see the module docstring."""

    declarer_chooses: bool = True
    """False when the schedule alone fixes every deal's contract."""
    each_once: bool = False
    """True when every declarer names every contract exactly once (a sheet has one row per contract)."""
    reads_flags: tuple[str, ...] = ()
    """Flags of RULES.md §6 that the schedule reads."""
    lead_offset: int = 0
    """Where the first leader (and domino's first player) sits, in seats after the declarer
    in the direction of play: 0, the declarer leads; -2, the player before the dealer
    (the dealer sits just before the declarer)."""

    def under(self, flags: Flags) -> Schedule:
        """The schedule a game plays under ``flags`` (only :class:`FixedOrder` reads one)."""
        return self

    def select(self, contracts: tuple[Contract, ...], first_five_only: bool) -> tuple[Contract, ...]:
        """The contracts of a game under the flag ``first_five_only`` (only :class:`FixedOrder` reads it)."""
        return contracts

    def per_declarer(self, contracts: Sequence[Contract]) -> int:
        """``K``: how many deals each seat declares."""
        return len(contracts)

    @abstractmethod
    def available(
        self, contracts: Sequence[Contract], own: Sequence[Contract], everyone: Sequence[Contract]
    ) -> list[Contract]:
        """The contracts a declarer may name, given the contracts it named so far (``own``)
        and those every seat named so far (``everyone``, its own included)."""

    def fixed(self, contracts: Sequence[Contract], deal_index: int, players: int) -> Contract | None:
        """The contract the schedule fixes for deal ``deal_index`` (0-based), else None."""
        return None

    def game_total(self, contracts: Sequence[Contract], shape: DealShape) -> int:
        """The sum of all raw scores of a whole game."""
        return shape.players * sum(c.total(shape) for c in contracts)

    def set_total(self, contracts: Sequence[Contract], shape: DealShape) -> int | None:
        """The sum of one declarer's set, or None where sets differ."""
        return sum(c.total(shape) for c in contracts)


@dataclass(frozen=True)
class OnceEach(Schedule):
    """Each declarer names each contract once, in the order it likes.

    >>> from barbu.contracts import Domino
    >>> OnceEach().available((Domino(),), own=[], everyone=[Domino()])[0].id
    'domino'
    """

    each_once = True

    def available(
        self, contracts: Sequence[Contract], own: Sequence[Contract], everyone: Sequence[Contract]
    ) -> list[Contract]:
        used = {c.id for c in own}
        return [c for c in contracts if c.id not in used]


@dataclass(frozen=True)
class FixedOrder(Schedule):
    """The contracts in table order, each declared by every seat in turn before the next
    (``french``); ``first_five`` contracts when the flag ``first_five_only`` is on.

    >>> from barbu.contracts import NoQueens, NoTricks
    >>> FixedOrder().fixed((NoTricks(), NoQueens()), deal_index=5, players=4).id
    'no-queens'
    """

    first_five: int = 5
    declarer_chooses = False
    reads_flags = ("first_five_only", "contract_choice")

    def under(self, flags: Flags) -> Schedule:
        """:class:`ChosenInTurn` when the flag ``contract_choice`` is not ``fixed``.

        >>> from barbu.rulesets import Flags
        >>> FixedOrder().under(Flags(contract_choice="chooser"))
        ChosenInTurn(first_five=5)
        """
        return self if flags.contract_choice == "fixed" else ChosenInTurn(self.first_five)

    def select(self, contracts: tuple[Contract, ...], first_five_only: bool) -> tuple[Contract, ...]:
        return contracts[: self.first_five] if first_five_only else contracts

    def available(
        self, contracts: Sequence[Contract], own: Sequence[Contract], everyone: Sequence[Contract]
    ) -> list[Contract]:
        used = {c.id for c in own}
        return [c for c in contracts if c.id not in used]

    def fixed(self, contracts: Sequence[Contract], deal_index: int, players: int) -> Contract | None:
        return contracts[deal_index // players]


@dataclass(frozen=True)
class ChosenInTurn(FixedOrder):
    """French with a chooser: the player after the dealer (the declarer) chooses each
    contract, once each over its turns, and the player before the dealer leads.

    >>> from barbu.contracts import NoQueens, NoTricks
    >>> s = ChosenInTurn()
    >>> s.fixed((NoTricks(), NoQueens()), deal_index=5, players=4) is None, s.lead_offset
    (True, -2)
    >>> [c.id for c in s.available((NoTricks(), NoQueens()), own=[NoTricks()], everyone=[])]
    ['no-queens']
    """

    declarer_chooses = True
    each_once = True
    lead_offset = -2

    def under(self, flags: Flags) -> Schedule:
        return self

    def fixed(self, contracts: Sequence[Contract], deal_index: int, players: int) -> Contract | None:
        return None


@dataclass(frozen=True)
class Quotas(Schedule):
    """``negatives`` negative contracts and ``trumps`` trumps per declarer, each negative
    contract at most ``per_negative`` times a game (``king``).

    >>> from barbu.contracts import NoQueens, Trumps
    >>> q = Quotas(negatives=1, trumps=1, per_negative=2)
    >>> [c.id for c in q.available((NoQueens(), Trumps()), own=[NoQueens()], everyone=[NoQueens()])]
    ['trumps']
    """

    negatives: int = 3
    trumps: int = 2
    per_negative: int = 2

    def per_declarer(self, contracts: Sequence[Contract]) -> int:
        return self.negatives + self.trumps

    def available(
        self, contracts: Sequence[Contract], own: Sequence[Contract], everyone: Sequence[Contract]
    ) -> list[Contract]:
        negatives_named = sum(1 for c in own if not c.names_trump)
        trumps_named = sum(1 for c in own if c.names_trump)
        out = []
        for c in contracts:
            if c.names_trump:
                if trumps_named < self.trumps:
                    out.append(c)
            elif negatives_named < self.negatives and sum(1 for d in everyone if d.id == c.id) < self.per_negative:
                out.append(c)
        return out

    def game_total(self, contracts: Sequence[Contract], shape: DealShape) -> int:
        negatives = sum(c.total(shape) for c in contracts if not c.names_trump)
        trumps = sum(c.total(shape) for c in contracts if c.names_trump)
        return self.per_negative * negatives + self.trumps * shape.players * trumps

    def set_total(self, contracts: Sequence[Contract], shape: DealShape) -> int | None:
        return None


__all__ = ["ChosenInTurn", "FixedOrder", "OnceEach", "Quotas", "Schedule"]
