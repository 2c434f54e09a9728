"""FROZEN REFERENCE, for measurement only: the ``heuristic`` bot as it was before issue 14.

The ``heuristic`` level of commit a058f01 (named ``heuristic-v1`` here), kept so that
``benchmarks/bench_heuristic.py`` can compare the current ``heuristic`` level with it again
on duplicate deals. It is not part of the package (nothing under ``src/`` imports it) and
must not be tuned: it is the yardstick.

Only what the new ``heuristic`` changed is written here: the bot itself, which plays every
card by the plain rules of thumb, and its contract and calls by the hand estimates
(``choose_contract``, ``choose_call``; the new bot weighs them by playing them out). The
rules it calls are imported from the package, where they are still the v1 rules on one
deck (the two-deck handling added since does not touch a one-deck deal): the card rules
(``barbu.bots.card_play``, ``domino_play``), ``contract_value`` and ``pick_call`` of
``barbu.bots.rules_of_thumb`` (which the search's playouts use), the hand estimates and the
Chinese-poker arrangements. Should one of them change, copy its v1 text here first:
``tests/test_bots_reference.py`` checks that v1 still takes exactly its recorded decisions
in seeded classic games.
"""

from __future__ import annotations

import random

from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.bots.chinese_poker import best_arrangement
from barbu.bots.domino_play import best_rank
from barbu.bots.errors import BotError
from barbu.bots.estimates import best_trump
from barbu.bots.rules_of_thumb import CallTurn, conceal, contract_value, pick_call, play_by_rules
from barbu.cards import mask_of
from barbu.rulesets import Rules
from barbu.unseen import deal_from_view, forced_of, hidden_cards, sample_hands, view_rules
from barbu.view import SeatView


class HeuristicBotV1:
    """The v1 rules of thumb for every decision: estimates for the contract, trump, rank and
    calls, the plain card rules for the play.

    ``seed`` only places the cards the seat cannot see when the deal is rebuilt for
    the card-play rules, which never read them, so its choices do not depend on it.
    """

    def __init__(self, seed: int | None = 0) -> None:
        self.name = "heuristic-v1"
        self.rng = random.Random(seed)

    def act(self, view: SeatView) -> Action:
        """The action for ``view``'s seat (which must be to act)."""
        table = view_rules(view)
        phase = view.phase
        if phase == "arrange":
            return Arrange(best_arrangement(mask_of(view.hand)))
        legal = view.legal_actions
        if not legal:
            raise BotError(f"seat {view.seat} has nothing to do now (phase {phase}, seat {view.to_act} to act)")
        if len(legal) == 1:
            return legal[0]
        if phase == "contract":
            return choose_contract(view, table)
        if phase == "trump":
            assert view.contract is not None
            return NameTrump(best_trump(mask_of(view.hand), table.contract(view.contract), table)[0])
        if phase == "rank":
            removed = table.removed if table.flags.removed_card_rule == "laid" else 0
            return NameRank(best_rank(mask_of(view.hand), table.domino_ranks, table.ruleset.low_rank, removed))
        if phase == "call":
            return choose_call(view, table)
        return self.play(view, table)

    def play(self, view: SeatView, table: Rules) -> Play | Pass:
        """A card (or a domino pass) by the card-play rules of thumb."""
        assert view.seat is not None
        hidden = hidden_cards(view, table)
        deal = conceal(deal_from_view(view, sample_hands(hidden, self.rng), table, hidden), view.seat)
        return play_by_rules(deal, view.seat)


def choose_contract(view: SeatView, table: Rules) -> Declare:
    """The declarer's contract: the best :func:`~barbu.bots.rules_of_thumb.contract_value` (the hand estimates)."""
    hand = mask_of(view.hand)
    forced = len(forced_of(view, table))
    options = [a for a in view.legal_actions if isinstance(a, Declare)]
    return max(options, key=lambda a: contract_value(hand, table.contract(a.contract), table, forced))


def choose_call(view: SeatView, table: Rules) -> Call:
    """Doubles and redoubles of ``view``'s seat; see :func:`~barbu.bots.rules_of_thumb.pick_call`."""
    return pick_call(CallTurn.from_view(view, table), table)
