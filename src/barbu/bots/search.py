"""The ``search`` bot: determinized search under hidden information.

For each decision the bot deals the cards it cannot see in ways that agree with
everything its seat has seen (:mod:`barbu.unseen`: its hand, the cards played,
voids shown, domino passes), rebuilds the deal in each such *world* from the view's
public actions, and tries every candidate in every world, finishing the deal with the
heuristic rules for all seats (:mod:`barbu.bots.card_play`) or, once few tricks are
left, exactly (:mod:`barbu.bots.endgame`). Each candidate is scored by the seat's
final points (raw plus its pairs' adjustments) averaged over the same worlds, and the
best is played.

- **Cards**: worlds are also weighed by the trump suit another seat's declarer named and
  by the calls the other seats made: a world where the rules of thumb would have named
  that suit, and called as they did, counts more than one where they would not (a named
  suit shows length, calls show strength).
- **Calls**: in each world the bot doubles everyone it may and redoubles everyone it
  may, lets the others answer (their late redoubles included) and plays the deal out;
  from the results it keeps a double when its mean gain, counting the worlds where the
  doubled seat redoubled it twice, is above zero (of a declarer who named its trump: by
  :data:`DOUBLE_CONFIDENCE` standard errors, :class:`Gain`), and a redouble when it gained
  on average. Compulsory doubles are always made.
- **Contract, trump, rank**: the deal is simulated ahead, calls included, for the
  most promising contracts (and suits or ranks); a contract is worth what it brings
  with this hand minus what it brings with a random hand, the hand it will be played
  with if kept for later (measured in the same worlds, the seat's hand swapped with
  another's).
- **Chinese poker**: the best arrangements by the rules of thumb are tried against
  the others' sampled hands, each arranged by the rules of thumb.

Settings: ``iterations`` (worlds per decision), ``seconds`` (a time cap per decision;
``None`` for none, which makes the bot exactly reproducible from its seed), ``endgame``
(tricks left at which the exact solver takes over; 0 for never), ``rollout``
(``heuristic`` or ``random`` playouts). The default answers within a second on one core.

>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=3)
>>> bot = SearchBot(seed=1, iterations=2, seconds=None)
>>> bot.act(seat_view(game, game.to_act)) in seat_view(game, game.to_act).legal_actions
True
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Any, Protocol

from barbu import accel
from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.chinese_poker import best_arrangement, candidate_arrangements
from barbu.bots.domino_play import choose_domino_card, dependency
from barbu.bots.endgame import Positions, distinct_cards, solve
from barbu.bots.errors import BotError
from barbu.bots.estimates import best_trump, trump_order
from barbu.bots.rules_of_thumb import (
    CallPlan,
    CallTurn,
    closest_call,
    contract_value,
    play_by_rules,
    skip_would_apply,
)
from barbu.cards import RANKS, SUITS, cards_of, mask_of
from barbu.contracts import Contract
from barbu.deal import Deal, Phase
from barbu.errors import N_
from barbu.poker import head_to_head
from barbu.rulesets import Rules
from barbu.unseen import HiddenCards, WorldDeals, forced_of, hidden_cards, sample_hands, view_rules
from barbu.view import SeatView

DEFAULT_ITERATIONS = 320
"""Worlds per decision by default: the largest round number whose decision times meet the web
app's goal on one core (docs/bots.md, "The default's worlds": p95 at most 300 ms and max at most
1 s of CPU time); the time cap ends the dearest decisions (contract choices) on a loaded machine."""
DEFAULT_SECONDS = 0.9
"""Time cap per decision by default, in seconds."""
CALL_EVIDENCE = 0.5
"""Weight of a world for each call the rules of thumb would not have made there."""
DOUBLE_CONFIDENCE = 2.0
"""Standard errors by which the mean gain of a double of a declarer who named its trump
suit must exceed zero over the worlds for the double to be made (:class:`Gain`). That
declarer chose the contract and the suit for its hand, and will redouble a double that it
expects to beat; the worlds read its choice only roughly (:data:`TRUMP_EVIDENCE`), and a
few dozen of them measure a double's swing of tens of points roughly, so a double of it
kept whenever its mean is above zero is mostly one that drew lucky worlds (other doubles:
a mean above zero)."""
TRUMP_EVIDENCE = 0.05
"""Weight of a world for each sign of strength a declarer of another seat showed by naming
its trump suit that the world's hand for it lacks: the suit it named is the one of its
length and honours, and a Trumps contract declared while others were left goes with a hand
that would rather declare it than any of them. Few random hands show both (one in eight or
so), so the worlds that do must outweigh the others: weighed only four times more, they
were outweighed, the declarer's Trumps looked beatable and a double of it cheap."""


class WorldWeight(Protocol):
    """What weighs the worlds of a decision by what the other seats did."""

    def weight(self, hands: list[int]) -> float:
        """The weight of the world where the seats hold ``hands`` now (1.0: no evidence)."""
        ...


class Budget:
    """Worlds left to a decision: at most ``iterations``, and none that would end after ``seconds``.

    The next world is expected to take as long as the mean of those before it, so the
    search stops when that world would overrun the cap (the first world always runs).
    """

    def __init__(self, iterations: int, seconds: float | None) -> None:
        self.iterations = iterations
        self.start = time.perf_counter()
        self.deadline = None if seconds is None else self.start + seconds
        self.done = 0

    def more(self) -> bool:
        """Whether to search another world."""
        if self.done >= self.iterations:
            return False
        if self.done and self.deadline is not None:
            now = time.perf_counter()
            if now + (now - self.start) / self.done > self.deadline:
                return False
        self.done += 1
        return True


class CallEvidence:
    """How well a world agrees with the trump suit and the calls the other seats chose in a view's deal.

    A world counts :data:`TRUMP_EVIDENCE` times less when the declarer, another seat, would
    not have named the trump suit it named with that world's hand (the rules of thumb's
    suit, :func:`~barbu.bots.estimates.best_trump`), and as much less again when the
    declarer had other contracts left and the rules of thumb would have declared one of them
    with that hand (:meth:`declines`); :data:`CALL_EVIDENCE` times less
    for each double or redouble the rules of thumb
    (:func:`~barbu.bots.rules_of_thumb.pick_call`) would not have made (or would have made
    and the seat did not) with that world's hands. What a caller knew besides its hand
    (the contract, the calls before its own, its legal calls) is public, so it is read
    once per view: a world only brings the hands.
    """

    def __init__(self, view: SeatView, table: Rules, hidden: HiddenCards) -> None:
        self.table = table
        self.played = hidden.played
        self.turns: list[tuple[CallPlan, set[int], set[int]]] | None = None
        """Each other seat's call turn, read up to its hand (:class:`~barbu.bots.rules_of_thumb.CallPlan`),
        with the doubles and redoubles it made."""
        self._view = view
        self.contract = table.contract(view.contract) if view.contract is not None else None
        self.named_trump: int | None = None
        """The trump suit another seat's declarer named, read as evidence of its hand (None: none)."""
        self.alternatives: list[Contract] = []
        """The other contracts that declarer could have declared (its hand then shows in its choice)."""
        self.forced = 0
        """How many seats owed that declarer a double when it declared (they pay its edge back)."""
        if self.contract is not None and view.trump is not None and view.declarer != view.seat:
            self.named_trump = SUITS.index(view.trump)
            own = [table.contract(h.contract) for h in view.history if h.declarer == view.declarer]
            everyone = [table.contract(h.contract) for h in view.history]
            self.alternatives = [c for c in table.available(own, everyone) if c.id != self.contract.id]
            self.forced = len(forced_of(view, table))
        self.called = self.contract is not None and any(seat != view.seat for seat, _, _, _ in view.calls)

    def declines(self, hand: int) -> bool:
        """Whether the rules of thumb, holding ``hand``, would have declared another of the
        contracts the declarer had left (:func:`~barbu.bots.rules_of_thumb.contract_value`)."""
        assert self.contract is not None
        mine = contract_value(hand, self.contract, self.table, self.forced)
        return any(contract_value(hand, c, self.table, self.forced) > mine for c in self.alternatives)

    def _read_turns(self, dealt: list[int]) -> list[tuple[CallPlan, set[int], set[int]]]:
        view, table = self._view, self.table
        assert view.declarer is not None and view.contract is not None
        contract = table.contract(view.contract)
        trump = SUITS.index(view.trump) if view.trump is not None else None
        rank = RANKS.index(view.rank) if view.rank is not None else None
        d = _declared_deal(view, table, dealt, contract, trump if contract.names_trump else rank)
        turns = []
        for seat, _, doubles, redoubles in view.calls:
            if seat != view.seat and d.phase is Phase.CALL:
                turns.append((CallPlan(CallTurn.from_deal(d, seat), table), set(doubles), set(redoubles)))
            d.apply_unchecked(Call(double=doubles, redouble=redoubles))
        return turns

    def weight(self, hands: list[int]) -> float:
        """The weight of the world where the seats hold ``hands`` now (1.0: no evidence)."""
        if self.named_trump is None and not self.called:
            return 1.0
        view = self._view
        dealt = [h | p for h, p in zip(hands, self.played, strict=True)]
        weight = 1.0
        if self.named_trump is not None:
            assert view.declarer is not None and self.contract is not None
            hand = dealt[view.declarer]
            if best_trump(hand, self.contract, self.table)[0] != self.named_trump:
                weight *= TRUMP_EVIDENCE
            if self.alternatives and self.declines(hand):
                weight *= TRUMP_EVIDENCE
        if not self.called:
            return weight
        if self.turns is None:
            self.turns = self._read_turns(dealt)
        for plan, doubles, redoubles in self.turns:
            guess = plan.call(plan.edge(dealt[plan.seat]))
            misses = len(set(guess.double) ^ doubles) + len(set(guess.redouble) ^ redoubles)
            weight *= CALL_EVIDENCE**misses
        return weight


class Gain:
    """What a call gains over the worlds measured: the weighted sum of its gains, and whether
    that gain is clear of the worlds' noise.

    A double or a redouble is a bet whose outcome swings by tens of points from one world to
    the next (twice the difference when the doubled seat redoubles), and a few dozen worlds
    measure its mean roughly; keeping every call whose measured mean is above zero makes the
    calls that merely drew lucky worlds, and they lose on average. A double of a declarer
    who named its trump is made when its mean gain exceeds :data:`DOUBLE_CONFIDENCE`
    standard errors (:meth:`clear`); with many worlds that tends to the mean above zero.

    >>> g = Gain()
    >>> for x in (30.0, -20.0, 25.0, -30.0):
    ...     g.add(1.0, x)
    >>> g.clear(0.0), g.clear(1.0)
    (True, False)
    >>> h = Gain()
    >>> for x in (10.0, 12.0, 8.0, 11.0):
    ...     h.add(1.0, x)
    >>> h.clear(2.0)
    True
    """

    __slots__ = ("squares", "total", "weight", "weights2")

    def __init__(self) -> None:
        self.total = 0.0
        """The weighted sum of the gains."""
        self.squares = 0.0
        self.weight = 0.0
        self.weights2 = 0.0

    def add(self, weight: float, gain: float) -> None:
        """Count a world of ``weight`` where the call gains ``gain``."""
        self.total += weight * gain
        self.squares += weight * gain * gain
        self.weight += weight
        self.weights2 += weight * weight

    def clear(self, confidence: float) -> bool:
        """Whether the mean gain is above zero by more than ``confidence`` standard errors
        (the worlds' weights counted: a few heavy worlds measure less than as many equal ones)."""
        if self.weight <= 0 or self.total <= 0:
            return False
        mean = self.total / self.weight
        variance = max(0.0, self.squares / self.weight - mean * mean)
        worlds = self.weight * self.weight / self.weights2
        return mean * mean * worlds > confidence * confidence * variance


def _declared_deal(view: SeatView, table: Rules, hands: list[int], contract: Contract, choice: int | None) -> Deal:
    """A fresh deal of ``hands`` with ``contract`` (and its trump or rank) declared."""
    assert view.declarer is not None
    d = Deal(table, view.deal_number - 1, view.declarer, hands, [contract], forced_of(view, table))
    if d.contract is None:
        d.apply_unchecked(Declare(contract.id))
    if d.phase is Phase.TRUMP:
        assert choice is not None
        d.apply_unchecked(NameTrump(choice))
    elif d.phase is Phase.RANK:
        assert choice is not None
        d.apply_unchecked(NameRank(choice))
    return d


class SearchBot:
    """Determinized search; see the module docstring for what it does and its settings."""

    contract_candidates: int | None = 4
    """Contracts simulated ahead when declaring (the heuristic's best first; None: all)."""
    choice_candidates = 2
    """Trump suits or domino ranks simulated ahead for each of them."""
    endgame_cards = 15
    """Cards the exact solver plays out at most: ``endgame`` is cut to the whole tricks that
    fit (3 with four seats, 5 with three, 1 with eight), as its search grows with them."""

    def __init__(
        self,
        seed: int | None = 0,
        iterations: int = DEFAULT_ITERATIONS,
        seconds: float | None = DEFAULT_SECONDS,
        endgame: int = 3,
        rollout: str = "heuristic",
    ) -> None:
        if not isinstance(iterations, int) or iterations < 1:
            raise BotError(
                N_("iterations must be a whole number of worlds, 1 or more, not {value}", value=repr(iterations))
            )
        if seconds is not None and not seconds > 0:
            raise BotError(
                N_(
                    "seconds must be a positive time cap, or None for no cap (null on a command line), not {value}",
                    value=repr(seconds),
                )
            )
        if not isinstance(endgame, int) or endgame < 0:
            raise BotError(f"endgame must be a number of tricks, 0 or more, not {endgame!r}")
        if rollout not in ("heuristic", "random"):
            raise BotError(f"rollout must be 'heuristic' or 'random', not {rollout!r}")
        self.name = "search"
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.endgame = endgame
        self.ahead = endgame
        """Tricks left at which the exact solver takes over in the deals simulated ahead from
        a contract, a trump or rank (:meth:`simulate`); the card play's is ``endgame``."""
        self.rollout = rollout
        self._plan: tuple[Any, ...] | None = None
        self._solved: dict[tuple[Any, ...], float] = {}
        """Endgames solved during the current decision (playouts of different moves
        sometimes reach the same position), by position, guide and seat."""
        self._positions: Positions = {}
        """The exact solver's positions met during the current decision, by context, on the
        pure path (:func:`~barbu.bots.endgame.solve`; the compiled solver keeps its own)."""
        self._plans: dict[tuple[Any, ...], CallPlan] = {}
        """The other seats' call turns met during the current decision, read up to the hand
        (:meth:`_call_plan`), by the deal's public state."""

    def settings(self) -> dict[str, Any]:
        """The bot's settings, as :func:`~barbu.bots.make_bot` takes them."""
        return {
            "iterations": self.iterations,
            "seconds": self.seconds,
            "endgame": self.endgame,
            "rollout": self.rollout,
        }

    def act(self, view: SeatView) -> Action:
        """The action for ``view``'s seat (which must be to act)."""
        table = view_rules(view)
        budget = Budget(self.iterations, self.seconds)
        self._solved.clear()
        self._positions.clear()
        self._plans.clear()
        if view.phase == "arrange":
            return self._arrange(view, table, budget)
        legal = view.legal_actions
        if not legal:
            raise BotError(f"seat {view.seat} has nothing to do now (phase {view.phase}, seat {view.to_act} to act)")
        if len(legal) == 1:
            return legal[0]
        if view.phase == "play":
            return self._play(view, table, budget)
        if view.phase == "call":
            return self._call(view, table, budget)
        if view.phase == "contract":
            return self._contract(view, table, budget)
        if view.phase in ("trump", "rank"):
            return self._choice(view, table, budget)
        raise BotError(f"the search bot cannot act in phase {view.phase!r}")

    # -- finishing a deal in one world ------------------------------------------------------

    def finish(self, d: Deal, guide: PlayGuide, me: int, exact: bool = True, endgame: int | None = None) -> float:
        """Play ``d`` (in its play phase, or done) to the end; ``me``'s final score in own points.

        With ``exact`` the last ``endgame`` tricks (by default the bot's) are solved (and
        ``d`` is left unfinished), as many as :attr:`endgame_cards` allows; without, ``d``
        is played to its end by the playout rules.
        """
        t = d.tricks
        heuristic = self.rollout == "heuristic"
        if t is not None:
            depth = self.endgame if endgame is None else endgame
            endgame = min(depth, self.endgame_cards // d.players) if exact else 0
            if heuristic and exact:
                compiled = accel.finish(d, guide, me, endgame)
                if compiled is not None:
                    return compiled
            elif heuristic:
                cards = accel.line(d, guide)
                for c in cards or ():
                    d.play_unchecked(c)
            while not t.finished:
                if endgame and t.tricks_total - len(t.winners) <= endgame:
                    assert d.contract is not None
                    key = (
                        guide,
                        d.contract,
                        t.trump,
                        me,
                        t.leader,
                        tuple(t.trick),
                        tuple(t.hands),
                        tuple(t.captured),
                        tuple(t.winners),
                    )
                    value = self._solved.get(key)
                    if value is None:
                        value = self._solved[key] = solve(t, d.contract, d.rules, guide, me, self._positions)[me]
                    return value
                c = choose_card(t, t.turn, guide) if heuristic else self.rng.choice(cards_of(t.legal_mask()))
                d.play_unchecked(c)
        elif d.domino is not None:
            dom = d.domino
            while not dom.finished:
                if heuristic:
                    d.play_unchecked(choose_domino_card(dom, dom.turn))
                else:
                    legal = dom.legal_mask()
                    d.play_unchecked(self.rng.choice(cards_of(legal)) if legal else None)
        assert d.final is not None
        return guide.sign * d.final[me]

    def simulate(self, d: Deal, me: int, exact: bool = True) -> float:
        """Finish a deal from any phase after the trump or rank: calls and arrangements by the
        rules of thumb, then :meth:`finish`."""
        while d.phase is Phase.CALL:
            seat = d.to_act
            assert seat is not None
            plan = self._call_plan(d, seat)
            d.apply_unchecked(plan.call(plan.edge(d.hand(seat))))
        while d.phase is Phase.ARRANGE:
            seat = d.to_act
            assert seat is not None and d.dealt is not None
            d.apply_unchecked(Arrange(best_arrangement(d.dealt[seat])))
        assert d.contract is not None
        return self.finish(d, PlayGuide.of(d), me, exact, self.ahead)

    def _call_plan(self, d: Deal, seat: int) -> CallPlan:
        """The rules of thumb's call of ``seat`` (to call) in ``d``, read up to its hand: the same
        for every world of the decision that reached the same calls in the same contract."""
        assert d.doubling is not None and d.contract is not None
        # The rules' identity: a decision's deals share one or two rule sets, kept alive by it.
        key = (id(d.rules), d.declarer, d.contract.id, d.trump, d.rank, d.forced, seat, tuple(d.doubling.calls))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = CallPlan(CallTurn.from_deal(d, seat), d.rules)
        return plan

    # -- card play ---------------------------------------------------------------------------

    def evidence(self, view: SeatView, table: Rules, hidden: HiddenCards) -> WorldWeight:
        """The weight of each world of a card decision (here: from the calls the others made)."""
        return CallEvidence(view, table, hidden)

    def _play(self, view: SeatView, table: Rules, budget: Budget) -> Action:
        me = view.seat
        assert me is not None
        hidden = hidden_cards(view, table)
        legal = [a for a in view.legal_actions if isinstance(a, Play | Pass)]
        guide: PlayGuide | None = None
        moves: list[Play | Pass] = legal
        totals = [0.0] * len(legal)
        weight_sum = 0.0
        preferred: Play | Pass | None = None
        worlds = WorldDeals(view, table, hidden)
        evidence = self.evidence(view, table, hidden)
        while budget.more():
            hands = sample_hands(hidden, self.rng)
            base = worlds.deal(hands)
            if guide is None:
                guide = PlayGuide.of(base)
                preferred = play_by_rules(base, me, guide)
                if base.tricks is not None:
                    # played to earlier tricks, or in my hand (not the current trick: see distinct_cards)
                    gone = (hidden.hand | table.deck & ~(hidden.unseen | hidden.hand)) & ~mask_of(base.tricks.trick)
                    # by face: with two decks a move names a card, the deal plays the copy held
                    keep = {c % 52 for c in distinct_cards(base.legal_mask(), gone, guide.card_cost)}
                    moves = [m for m in legal if isinstance(m, Play) and m.card in keep]
                    totals = [0.0] * len(moves)
            weight = evidence.weight(hands)
            weight_sum += weight
            for i, move in enumerate(moves):
                d = base.copy()
                d.apply_unchecked(move)
                totals[i] += weight * self.finish(d, guide, me)
        best = max(range(len(moves)), key=lambda i: (totals[i], moves[i] == preferred))
        return moves[best]

    # -- calls ---------------------------------------------------------------------------------

    def _call(self, view: SeatView, table: Rules, budget: Budget) -> Action:
        me = view.seat
        assert me is not None and view.contract is not None and view.declarer is not None
        turn = CallTurn.from_view(view, table)
        calls = list(turn.legal)
        may_double = sorted({t for c in calls for t in c.double})
        may_redouble = sorted({t for c in calls for t in c.redouble})
        played = replace(table, flags=replace(table.flags, skip_undoubled_negative=False))
        hidden = hidden_cards(view, table)
        worlds = WorldDeals(view, played, hidden)
        evidence = CallEvidence(view, table, hidden)
        gain_double = {t: Gain() for t in may_double}
        gain_redouble = {t: Gain() for t in may_redouble}
        mine_played = 0.0
        weight_sum = 0.0
        sign = float(table.sign)
        while budget.more():
            hands = sample_hands(hidden, self.rng)
            weight = evidence.weight(hands)
            d = worlds.deal(hands)
            d.apply_unchecked(Call(double=tuple(may_double), redouble=tuple(may_redouble)))
            self.simulate(d, me, exact=False)
            assert d.raw is not None and d.doubling is not None
            u = [sign * r for r in d.raw]
            for t in may_double:
                pair = d.doubling.pair(me, t)
                m = pair.multiplier if pair is not None else 1
                gain_double[t].add(weight, m * (u[me] - u[t]))
            for t in may_redouble:
                gain_redouble[t].add(weight, u[me] - u[t])
            mine_played += weight * u[me]
            weight_sum += weight
        contract = table.contract(view.contract)
        named = DOUBLE_CONFIDENCE if view.trump is not None else 0.0
        doubles = [t for t in may_double if gain_double[t].clear(named if t == view.declarer else 0.0)]
        if turn.must_double and turn.must_double[0] not in doubles:
            doubles.append(turn.must_double[0])
        if not doubles and skip_would_apply(turn, contract, table):
            from barbu.doubling import skip_split

            split = sign * skip_split(table.total(contract), table.players, view.declarer)[me]
            best = max(may_double, key=lambda t: gain_double[t].total)
            if mine_played + gain_double[best].total > split * weight_sum:
                doubles.append(best)
        redoubles = [t for t in may_redouble if gain_redouble[t].total > 0]
        return closest_call(calls, doubles, redoubles)

    # -- contract, trump and rank ----------------------------------------------------------------

    def _choices(self, hand: int, contract: Contract, table: Rules, limit: int) -> list[int | None]:
        """The trump suits or domino ranks worth trying for ``hand`` (None: nothing to choose)."""
        if contract.names_trump:
            return list[int | None](trump_order(hand)[:limit])
        if contract.play == "domino" and table.flags.domino_start == "named":
            removed = table.removed if table.flags.removed_card_rule == "laid" else 0
            low = table.ruleset.low_rank
            by_need = sorted(table.domino_ranks, key=lambda r: (dependency(hand, r, low, removed), abs(r - 6.5)))
            return list[int | None](by_need[:limit])
        return [None]

    def _best_choice(self, hand: int, contract: Contract, table: Rules) -> int | None:
        choices = self._choices(hand, contract, table, 1)
        return choices[0]

    def _contract(self, view: SeatView, table: Rules, budget: Budget) -> Action:
        me = view.seat
        assert me is not None
        hand = mask_of(view.hand)
        forced = len(forced_of(view, table))
        options = [table.contract(a.contract) for a in view.legal_actions if isinstance(a, Declare)]
        options.sort(key=lambda c: -contract_value(hand, c, table, forced))
        contracts = options[: self.contract_candidates]
        candidates = [(c, x) for c in contracts for x in self._choices(hand, c, table, self.choice_candidates)]
        value = [0.0] * len(candidates)
        later = {c.id: 0.0 for c in contracts}
        hidden = hidden_cards(view, table)
        others = [s for s in range(view.players) if s != me]
        while budget.more():
            hands = sample_hands(hidden, self.rng)
            for i, (c, x) in enumerate(candidates):
                value[i] += self.simulate(_declared_deal(view, table, hands, c, x), me)
            swapped = list(hands)
            o = self.rng.choice(others)
            swapped[me], swapped[o] = hands[o], hands[me]
            for c in contracts:
                x = self._best_choice(swapped[me], c, table)
                later[c.id] += self.simulate(_declared_deal(view, table, swapped, c, x), me)
        best = max(range(len(candidates)), key=lambda i: value[i] - later[candidates[i][0].id])
        contract, choice = candidates[best]
        self._plan = (view.deal_number, me, hand, contract.id, choice)
        return Declare(contract.id)

    def _choice(self, view: SeatView, table: Rules, budget: Budget) -> Action:
        me = view.seat
        assert me is not None and view.contract is not None
        hand = mask_of(view.hand)
        contract = table.contract(view.contract)
        plan = self._plan
        if plan is not None and plan[:4] == (view.deal_number, me, hand, contract.id) and plan[4] is not None:
            choice = plan[4]
        else:
            candidates = self._choices(hand, contract, table, 4)
            value = [0.0] * len(candidates)
            hidden = hidden_cards(view, table)
            while budget.more():
                hands = sample_hands(hidden, self.rng)
                for i, x in enumerate(candidates):
                    value[i] += self.simulate(_declared_deal(view, table, hands, contract, x), me)
            choice = candidates[max(range(len(candidates)), key=lambda i: value[i])]
        assert choice is not None
        return NameTrump(choice) if view.phase == "trump" else NameRank(choice)

    # -- Chinese poker ---------------------------------------------------------------------------

    def _arrange(self, view: SeatView, table: Rules, budget: Budget) -> Action:
        hand = mask_of(view.hand)
        candidates = [a for _, a in candidate_arrangements(hand, keep=6)]
        if len(candidates) == 1:
            return Arrange(candidates[0])
        hidden = hidden_cards(view, table)
        me = view.seat
        value = [0.0] * len(candidates)
        while budget.more():
            hands = sample_hands(hidden, self.rng)
            rivals = [best_arrangement(h) for s, h in enumerate(hands) if s != me]
            for i, a in enumerate(candidates):
                value[i] += sum(head_to_head(a, r) for r in rivals)
        return Arrange(candidates[max(range(len(candidates)), key=lambda i: value[i])])


# -- every action's value, for analysis and advice ---------------------------------------------
#
# The bot above keeps only the action it plays; a coach needs the expected points of every
# legal action of a view, in the same worlds, so that two actions can be compared.


def action_values(
    view: SeatView,
    iterations: int = 32,
    seed: int | str = 0,
    endgame: int = 3,
    extra: tuple[Action, ...] = (),
    read_calls: bool = True,
) -> list[tuple[Action, float]]:
    """Every legal action of ``view``'s seat with its expected points, from that view alone.

    The same sampled worlds (:mod:`barbu.unseen`) are used for every action, so that the
    differences between actions are measured more precisely than the values. A value is
    the seat's final points of the deal (raw plus its pairs' adjustments, in own points:
    French penalty points negated), the deal finished by the rules of thumb for all seats
    and the last ``endgame`` tricks exactly, as :class:`SearchBot` does, except:

    - a **contract**'s value is its *edge*: what it brings with this hand (with its best
      trump or rank by the rules of thumb) minus what it brings with another seat's hand,
      the hand it would be played with if kept for later;
    - a **Chinese-poker** arrangement is tried among the six best by the rules of thumb,
      plus those in ``extra`` (the view lists no arrangement).

    Cards that are equivalent (touching, equal cost) share one value. ``seed`` fixes the
    worlds: the same view, settings and seed give the same values. With ``read_calls``
    false the others' calls say nothing of their hands (every world counts alike), as
    for a double made for the score rather than for the cards.

    >>> from barbu import Game, seat_view
    >>> game = Game.new("classic", seed=3)
    >>> view = seat_view(game, game.to_act)
    >>> values = action_values(view, iterations=2)
    >>> [a for a, _ in values] == list(view.legal_actions)
    True
    """
    bot = SearchBot(seed=0, iterations=iterations, seconds=None, endgame=endgame)
    bot.rng = random.Random(str(seed))
    rng = bot.rng
    table = view_rules(view)
    me = view.seat
    if me is None or view.to_act != me:
        raise BotError("only the seat to act has actions to value")
    hidden = hidden_cards(view, table)
    worlds = WorldDeals(view, table, hidden)
    phase = view.phase
    legal: list[Action] = list(view.legal_actions)
    if phase == "arrange":
        hand = mask_of(view.hand)
        legal = [Arrange(a) for _, a in candidate_arrangements(hand, keep=6)]
        legal += [a for a in extra if a not in legal]
    else:
        legal += [a for a in extra if a not in legal]
    if not legal:
        raise BotError(f"seat {me} has nothing to do now (phase {phase})")
    totals = [0.0] * len(legal)
    weight_sum = 0.0
    evidence = CallEvidence(view, table, hidden) if read_calls and phase in ("play", "call") else None
    others = [s for s in range(view.players) if s != me]
    groups: list[int] | None = None  # for cards: the index of the card whose value each card shares
    for _ in range(iterations):
        hands = sample_hands(hidden, rng)
        weight = evidence.weight(hands) if evidence is not None else 1.0
        weight_sum += weight
        if phase == "play":
            base = worlds.deal(hands)
            guide = PlayGuide.of(base)
            if groups is None:
                groups = list(range(len(legal)))
                if base.tricks is not None:
                    gone = (hidden.hand | table.deck & ~(hidden.unseen | hidden.hand)) & ~mask_of(base.tricks.trick)
                    keep = distinct_cards(base.legal_mask(), gone, guide.card_cost)
                    index = {a.card: i for i, a in enumerate(legal) if isinstance(a, Play)}
                    for i, a in enumerate(legal):
                        if isinstance(a, Play):
                            rep = max((k for k in keep if k // 13 == a.card // 13 and k <= a.card), default=a.card)
                            groups[i] = index.get(rep, i)
            for i, a in enumerate(legal):
                if groups[i] == i:
                    d = base.copy()
                    d.apply_unchecked(a)
                    totals[i] += weight * bot.finish(d, guide, me)
        elif phase == "call":
            for i, a in enumerate(legal):
                d = worlds.deal(hands)
                d.apply_unchecked(a)
                totals[i] += weight * bot.simulate(d, me, exact=False)
        elif phase == "contract":
            swapped = list(hands)
            o = rng.choice(others)
            swapped[me], swapped[o] = hands[o], hands[me]
            for i, a in enumerate(legal):
                assert isinstance(a, Declare)
                c = table.contract(a.contract)
                now = bot.simulate(_declared_deal(view, table, hands, c, bot._best_choice(hands[me], c, table)), me)
                later = bot.simulate(
                    _declared_deal(view, table, swapped, c, bot._best_choice(swapped[me], c, table)), me
                )
                totals[i] += now - later
        elif phase in ("trump", "rank"):
            assert view.contract is not None
            c = table.contract(view.contract)
            for i, a in enumerate(legal):
                x = a.suit if isinstance(a, NameTrump) else a.rank if isinstance(a, NameRank) else None
                totals[i] += bot.simulate(_declared_deal(view, table, hands, c, x), me)
        elif phase == "arrange":
            base = worlds.deal(hands)
            for i, a in enumerate(legal):
                d = base.copy()
                while d.phase is Phase.ARRANGE:
                    seat = d.to_act
                    assert seat is not None and d.dealt is not None
                    d.apply_unchecked(a if seat == me else Arrange(best_arrangement(d.dealt[seat])))
                assert d.final is not None
                totals[i] += table.sign * d.final[me]
        else:
            raise BotError(f"no action to value in phase {phase!r}")
    if groups is not None:
        totals = [totals[g] for g in groups]
    scale = weight_sum if weight_sum > 0 else 1.0
    return [(a, t / scale) for a, t in zip(legal, totals, strict=True)]
