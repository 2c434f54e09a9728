"""The hand advisor: what each contract, trump or rank, double and redouble is worth to a hand.

:func:`advise` takes a hand in the record's notation and the situation at the table (rule
set, declarer, the contracts the declarer has named, how often each seat has doubled the
declarer in this set, the contract and calls so far) and answers with the expected points
of each choice the seat has now, from the search bot's evaluation
(:func:`barbu.bots.search.action_values`) in worlds dealt from what the seat knows:

- before the contract (the seat is the declarer): each contract's *edge* (what it brings
  with this hand minus what it brings with a random hand, as it would if kept for later),
  with its best trump or rank and that choice's expected points;
- after a contract that names a trump or rank: the expected points of each suit or rank;
- in the calls: the expected points of each legal call, and the gain of doubling each
  seat and of redoubling each doubler (over the call with the fewest doubles).

:func:`advise_view` gives the same for any seat's view (the terminal game's and the web
table's hint), cards included.

>>> out = advise("classic", "AKQJT98765432...", seat=0, iterations=2)
>>> out["phase"], out["choices"][0]["action"]  # thirteen spades: first out in domino
('contract', 'domino')
>>> advise("classic", "AKQ...", seat=0)
Traceback (most recent call last):
...
barbu.coach.advice.AdviceError: the hand has 3 cards; a hand of classic holds 13
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from barbu.actions import Action, Call, Declare, NameRank, NameTrump
from barbu.bots.search import action_values
from barbu.cards import RANKS, SUITS, card_name, cards_of, parse_pbn, parse_rank, parse_suit
from barbu.coach.analysis import _label
from barbu.deal import Deal, Phase
from barbu.doubling import forced_doublers
from barbu.errors import N_, BarbuError, IllegalAction, NotationError, OptionsError, Text
from barbu.game import Game
from barbu.rulesets import Rules, rules
from barbu.view import DealSummary, SeatView, seat_view

DEFAULT_ITERATIONS = 16
"""Worlds per question by default (answers within a second on one core)."""


class AdviceError(BarbuError, ValueError):
    """The hand or the situation is not one the rules allow; the message says what is wrong.

    ``text`` is the message as a :class:`~barbu.errors.Text`, translated where the person's
    language is known (``barbu.language.error_text``), not where the advice is computed:

    >>> AdviceError(N_("no contract is left to this declarer")).text.template
    'no contract is left to this declarer'
    """

    def __init__(self, message: str | Text) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(text)  # the text itself, so that it crosses to another process whole
        self.text = text
        """The message as a :class:`~barbu.errors.Text`, for the outer layers to translate."""


def _from(error: BaseException) -> AdviceError:
    """A refusal of the core as an advisor's refusal, its translatable text kept."""
    text = getattr(error, "text", None)
    return AdviceError(text if isinstance(text, Text) else str(error))


def _rules(variant: str, options: Mapping[str, Any] | None) -> Rules:
    try:
        return rules(variant, options)
    except OptionsError as e:
        raise _from(e) from None


def _hand(r: Rules, text: str) -> int:
    try:
        mask = parse_pbn(text)
    except NotationError as e:
        raise _from(e) from None
    outside = mask & ~r.deck
    if outside:
        names = " ".join(card_name(c) for c in cards_of(outside))
        if outside.bit_count() == 1:
            raise AdviceError(N_("{cards} is not in the deck of {rules}", cards=names, rules=r.name))
        raise AdviceError(N_("{cards} are not in the deck of {rules}", cards=names, rules=r.name))
    if mask.bit_count() != r.cards_each:
        raise AdviceError(
            N_(
                "the hand has {n} cards; a hand of {rules} holds {each}",
                n=mask.bit_count(),
                rules=r.name,
                each=r.cards_each,
            )
        )
    return mask


def _seat(r: Rules, value: object, what: Text) -> int:
    if type(value) is not int or not 0 <= value < r.players:
        raise AdviceError(
            N_("{what} must be a seat from 0 to {last}, not {value}", what=what, last=r.players - 1, value=repr(value))
        )
    return value


def _call(raw: object, index: int) -> tuple[int, Call]:
    """A call written as in a record: ``{"seat": s, "double": [...], "redouble": [...]}`` or a word."""
    if not isinstance(raw, Mapping) or type(raw.get("seat")) is not int:
        raise AdviceError(
            N_('call {index} must be an object with a seat, e.g. {{"seat": 1, "double": [0]}}', index=index)
        )
    extra = set(raw) - {"seat", "double", "redouble", "call"}
    if extra:
        raise AdviceError(
            N_(
                "call {index} has unknown keys {keys}; allowed: seat, double, redouble, call",
                index=index,
                keys=sorted(extra),
            )
        )
    lists = []
    for key in ("double", "redouble"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(type(s) is int for s in value):
            raise AdviceError(N_("call {index}: {key} must be a list of seats", index=index, key=key))
        lists.append(tuple(value))
    word = raw.get("call")
    if word is not None and not isinstance(word, str):
        raise AdviceError(N_("call {index}: call must be a word such as maximum or pass", index=index))
    return raw["seat"], Call(double=lists[0], redouble=lists[1], word=word)


def situation(
    variant: str,
    hand: str,
    *,
    options: Mapping[str, Any] | None = None,
    seat: int = 0,
    declarer: int | None = None,
    declared: Sequence[str] = (),
    doubled: Mapping[int, int] | None = None,
    contract: str | None = None,
    choice: str | None = None,
    calls: Sequence[object] = (),
    scores: Sequence[int] | None = None,
    seed: int = 0,
) -> SeatView:
    """The view of ``seat`` in the situation described, checked against the rules.

    ``declared`` are the contracts the declarer has already named in this game;
    ``doubled[s]`` how many of those contracts seat ``s`` doubled the declarer in
    (for the compulsory doubles still owed); ``choice`` the trump suit or domino rank
    named; ``calls`` the calls so far, written as in a record. The other seats'
    cards are dealt at random (``seed``): the view never shows them.
    """
    r = _rules(variant, options)
    mine = _hand(r, hand)
    seat = _seat(r, seat, N_("seat"))
    declarer = seat if declarer is None else _seat(r, declarer, N_("declarer"))
    named = []
    for c in declared:
        try:
            contract_obj = r.contract(c)
        except OptionsError as e:
            raise _from(e) from None
        if contract_obj in named:
            raise AdviceError(N_("{contract} is named twice in the contracts already declared", contract=c))
        named.append(contract_obj)
    k = len(named) + 1
    if k > r.contracts_per_declarer:
        raise AdviceError(
            N_(
                "a declarer names {k} contracts in {rules}; {n} are already declared",
                k=r.contracts_per_declarer,
                rules=r.name,
                n=len(named),
            )
        )
    available = r.available(named, named)
    if not available:
        raise AdviceError(N_("no contract is left to this declarer"))
    counts = dict(doubled or {})
    for s, n in counts.items():
        _seat(r, s, N_("a doubling seat"))
        if s == declarer:
            raise AdviceError(N_("seat {seat} is the declarer: it never doubles itself", seat=s))
        if type(n) is not int or not 0 <= n <= k - 1:
            raise AdviceError(
                N_(
                    "seat {seat} can have doubled the declarer 0 to {most} times, not {n}",
                    seat=s,
                    most=k - 1,
                    n=repr(n),
                )
            )
    earlier = [frozenset(s for s, n in counts.items() if n > j) for j in range(k - 1)]
    forced: frozenset[int] = frozenset()
    if r.doubling:
        forced = forced_doublers(r.players, declarer, r.flags.compulsory_doubles, k, r.contracts_per_declarer, earlier)
    own_deals = [i for i in range(r.deal_count) if r.declarer_of(i, declarer) == declarer]
    index = own_deals[k - 1] if k - 1 < len(own_deals) else 0
    rng = random.Random(seed)
    rest = cards_of(r.deck & ~mine)
    rng.shuffle(rest)
    hands = [0] * r.players
    hands[seat] = mine
    others = [s for s in range(r.players) if s != seat]
    each = r.cards_each
    for j, s in enumerate(others):
        for x in rest[j * each : (j + 1) * each]:
            hands[s] |= 1 << x
    deal = Deal(r, index, declarer, hands, available, forced)
    try:
        if contract is not None:
            if contract not in {c.id for c in r.contracts}:
                raise AdviceError(
                    N_(
                        "{contract} is not a contract of {rules}; its contracts are {names}",
                        contract=repr(contract),
                        rules=r.name,
                        names=", ".join(c.id for c in r.contracts),
                    )
                )
            if contract in {c.id for c in named}:
                raise AdviceError(
                    N_(
                        "{contract} was already declared by seat {seat}; it may not be named again",
                        contract=contract,
                        seat=declarer,
                    )
                )
            if deal.contract is None:
                deal.apply(Declare(contract), declarer)
            elif deal.contract.id != contract:
                raise AdviceError(N_("the schedule fixes this deal's contract: {contract}", contract=deal.contract.id))
        if choice is not None:
            if deal.phase is Phase.TRUMP:
                deal.apply(NameTrump(parse_suit(choice)), declarer)
            elif deal.phase is Phase.RANK:
                deal.apply(NameRank(parse_rank(choice)), declarer)
            else:
                raise AdviceError(N_("this contract names no trump or rank"))
        for i, raw in enumerate(calls, 1):
            who, said = _call(raw, i)
            deal.apply(said, who)
    except IllegalAction as e:
        raise _from(e) from None
    except NotationError as e:
        raise _from(e) from None
    if deal.phase is Phase.DONE:
        raise AdviceError(N_("the deal is over: nothing is left to decide"))
    if deal.to_act != seat:
        raise AdviceError(
            N_(
                "seat {to_act} is to act now ({phase}), not seat {seat}",
                to_act=deal.to_act,
                phase=deal.phase,
                seat=seat,
            )
        )
    game = Game(r, declarer)
    game.deals = [deal]
    if scores is not None:
        if len(scores) != r.players or not all(type(v) is int for v in scores):
            raise AdviceError(N_("scores must be {n} whole numbers, one per seat", n=r.players))
        game.totals = list(scores)
    view = seat_view(game, seat)
    history = tuple(
        DealSummary(
            number=j + 1,
            declarer=declarer,
            contract=named[j].id,
            trump=None,
            rank=None,
            raw=(0,) * r.players,
            adjustments=(0,) * r.players,
            final=(0,) * r.players,
            pairs=tuple((s, declarer, 2) for s in sorted(earlier[j])),
            played=True,
        )
        for j in range(k - 1)
    )
    declared_by = tuple(tuple(c.id for c in named) if s == declarer else () for s in range(r.players))
    return replace(view, history=history, declared=declared_by)


def advise_view(view: SeatView, iterations: int = DEFAULT_ITERATIONS, seed: int = 0) -> dict[str, Any]:
    """The value of every action ``view``'s seat may take now, best first (see the module docstring)."""
    values = action_values(view, iterations=iterations, seed=seed)
    ranked = sorted(values, key=lambda av: -av[1])
    out: dict[str, Any] = {
        "phase": view.phase,
        "seat": view.seat,
        "measure": "edge" if view.phase == "contract" else "points",
        "choices": [{"action": _label(a), "value": round(v, 2)} for a, v in ranked],
    }
    if view.phase == "contract":
        _contract_choices(view, out, iterations, seed)
    if view.phase == "call":
        _call_gains(view, values, out)
    return out


def _contract_choices(view: SeatView, out: dict[str, Any], iterations: int, seed: int) -> None:
    """Add to each contract that names a trump or rank the value of each (its expected points)."""
    from barbu.unseen import view_rules

    r = view_rules(view)
    for entry in out["choices"]:
        c = r.contract(entry["action"])
        if not (c.names_trump or (c.play == "domino" and r.flags.domino_start == "named")):
            continue
        hands = [0] * r.players
        assert view.seat is not None and view.declarer is not None
        hands[view.seat] = sum(1 << x for x in view.hand)
        game = Game(r, view.declarer)
        deal = Deal(r, view.deal_number - 1, view.declarer, _fill(r, hands, view.seat), [c])
        deal.apply_unchecked(Declare(c.id))
        game.deals = [deal]
        after = replace(seat_view(game, view.seat), history=view.history, declared=view.declared)
        ranked = sorted(action_values(after, iterations=iterations, seed=seed), key=lambda av: -av[1])
        entry["choices"] = [{"action": _label(a), "value": round(v, 2)} for a, v in ranked]


def _fill(r: Rules, hands: list[int], seat: int) -> list[int]:
    rest = cards_of(r.deck & ~hands[seat])
    out = list(hands)
    each = r.cards_each
    for j, s in enumerate(s for s in range(r.players) if s != seat):
        for c in rest[j * each : (j + 1) * each]:
            out[s] |= 1 << c
    return out


def _call_gains(view: SeatView, values: list[tuple[Action, float]], out: dict[str, Any]) -> None:
    """Add the gain of doubling each seat and of redoubling each doubler, alone, over the base call."""
    calls = [(a, v) for a, v in values if isinstance(a, Call)]
    base, base_value = min(calls, key=lambda av: (len(av[0].double) + len(av[0].redouble), -av[1]))
    gains: dict[str, dict[str, float]] = {"double": {}, "redouble": {}}
    for a, v in calls:
        extra_d = set(a.double) - set(base.double)
        extra_r = set(a.redouble) - set(base.redouble)
        if len(extra_d) + len(extra_r) == 1 and set(base.double) <= set(a.double):
            key, seat = ("double", extra_d.pop()) if extra_d else ("redouble", extra_r.pop())
            gains[key][str(seat)] = round(v - base_value, 2)
    out["base"] = _label(base)
    out["gains"] = gains


def advise(
    variant: str,
    hand: str,
    *,
    iterations: int = DEFAULT_ITERATIONS,
    **situation_args: Any,
) -> dict[str, Any]:
    """Advice for ``hand`` in the situation described (:func:`situation` names the keywords).

    Raises :class:`AdviceError` with what is wrong for a hand or a situation the rules
    do not allow (wrong number of cards, a card outside the deck, a contract already
    declared, a call out of turn), before any search.
    """
    if type(iterations) is not int or not 1 <= iterations <= 1000:
        raise AdviceError(N_("iterations must be 1 to 1000 worlds, not {n}", n=repr(iterations)))
    seed = situation_args.get("seed", 0)
    view = situation(variant, hand, **situation_args)
    if view.phase in ("play", "arrange"):
        raise AdviceError(
            N_("the calls are over: the advisor answers up to the last call (barbu analyse values cards)")
        )
    return advise_view(view, iterations=iterations, seed=seed)


__all__ = ["RANKS", "SUITS", "AdviceError", "advise", "advise_view", "situation"]
