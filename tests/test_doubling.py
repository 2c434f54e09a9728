"""The doubling of RULES.md §2.6-2.8 and the settlement of §2.10.

Calls go through :class:`barbu.doubling.Doubling` (one deal's calls) and through
whole score-sheet games for the compulsory doubles, which span a declarer's set.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from typing import Any

import pytest

from barbu import Call, Declare, EnterTally, IllegalAction, NameRank, NameTrump, OutOfTurn
from barbu.deal import Phase
from barbu.doubling import Doubling, Pair, forced_doublers, round_one_order, settle, skip_split
from barbu.rulesets import Flags
from table_setup import score_sheet, sheet_deal


def calls(
    negative: bool = True,
    players: int = 4,
    declarer: int = 0,
    forced: frozenset[int] = frozenset(),
    **flags: Any,
) -> Doubling:
    return Doubling(players, declarer, negative, replace(Flags(), **flags), forced)


def pairs_of(d: Doubling) -> set[tuple[int, int, int]]:
    return {(p.doubler, p.doubled, p.multiplier) for p in d.pairs()}


def say(d: Doubling, *made: Call) -> None:
    for c in made:
        seat = d.to_act
        assert seat is not None
        d.call(seat, c)


PASS = Call()


# -- order ---------------------------------------------------------------------------


def test_round_one_goes_from_the_declarers_left_and_ends_with_the_declarer() -> None:
    assert round_one_order(4, 0) == [1, 2, 3, 0]
    assert round_one_order(4, 2) == [3, 0, 1, 2]
    assert round_one_order(5, 3) == [4, 0, 1, 2, 3]
    d = calls(declarer=2)
    seen = []
    while not d.finished:
        seen.append(d.to_act)
        d.call(d.to_act, PASS)  # type: ignore[arg-type]
    assert seen == [3, 0, 1, 2]


def test_out_of_turn_call_is_refused_and_changes_nothing() -> None:
    d = calls()
    with pytest.raises(OutOfTurn):
        d.call(2, Call(double=(0,)))
    with pytest.raises(OutOfTurn):
        d.call(0, PASS)
    assert d.calls == [] and d.to_act == 1 and d.pairs() == []


def test_no_call_once_the_calls_are_over() -> None:
    d = calls()
    say(d, PASS, PASS, PASS, PASS)
    assert d.finished and d.to_act is None
    with pytest.raises(IllegalAction):
        d.call(1, PASS)


# -- who may double whom -------------------------------------------------------------


def test_targets_in_a_negative_contract() -> None:
    assert calls().may_double(1) == [0, 2, 3]
    assert calls(negative_targets="declarer_only").may_double(1) == [0]
    d = calls(negative_targets="declarer_only")
    with pytest.raises(IllegalAction, match="only the declarer"):
        d.call(1, Call(double=(2,)))


def test_targets_in_a_positive_contract() -> None:
    assert calls(negative=False).may_double(1) == [0]
    assert calls(negative=False, positive_targets="any").may_double(1) == [0, 2, 3]
    d = calls(negative=False)
    with pytest.raises(IllegalAction):
        d.call(1, Call(double=(2,)))
    d = calls(negative=False, positive_targets="any")
    d.call(1, Call(double=(2, 3)))
    assert pairs_of(d) == {(1, 2, 1), (1, 3, 1)}


@pytest.mark.parametrize("negative", [True, False])
def test_the_declarer_never_doubles(negative: bool) -> None:
    d = calls(negative=negative, positive_targets="any")
    say(d, PASS, PASS, PASS)
    assert d.to_act == 0 and d.may_double(0) == []
    for target in (1, 2, 3):
        with pytest.raises(IllegalAction, match="declarer"):
            d.call(0, Call(double=(target,)))
    for word in ("flanks", "family"):
        with pytest.raises(IllegalAction, match="declarer"):
            d.call(0, Call(word=word))
    d.call(0, Call(word="maximum"))  # nobody doubled it: maximum is a pass
    assert d.pairs() == [] and d.finished


def test_a_non_declarer_can_never_redouble_the_declarer() -> None:
    d = calls()
    with pytest.raises(IllegalAction, match="did not double"):
        d.call(1, Call(redouble=(0,)))
    say(d, Call(double=(0,)), Call(double=(0,)), PASS)
    d.call(0, Call(redouble=(1, 2)))
    assert pairs_of(d) == {(1, 0, 2), (2, 0, 2)}
    assert d.finished  # nobody was doubled by a later caller


def test_doubling_a_seat_already_paired_is_refused_but_redoubling_it_is_allowed() -> None:
    d = calls()
    say(d, Call(double=(2,)))
    assert d.may_double(2) == [0, 3]
    with pytest.raises(IllegalAction, match="already have a pair"):
        d.call(2, Call(double=(1,)))
    d.call(2, Call(redouble=(1,)))
    assert pairs_of(d) == {(1, 2, 2)}


def test_bad_seats_and_mixed_calls_are_refused() -> None:
    d = calls()
    for bad in (Call(double=(1,)), Call(double=(4,)), Call(double=(-1,)), Call(redouble=(2,))):
        with pytest.raises(IllegalAction):
            d.call(1, bad)
    with pytest.raises(IllegalAction, match="not both"):
        d.call(1, Call(double=(0,), word="maximum"))
    with pytest.raises(IllegalAction, match="not a call"):
        d.call(1, Call(word="double"))
    assert d.calls == [] and d.to_act == 1


def test_x2_is_the_maximum() -> None:
    d = calls()
    # P1 doubles P2, P2 redoubles at once: the pair is x2 for good.
    say(d, Call(double=(2,)), Call(redouble=(1,)), PASS, PASS)
    assert pairs_of(d) == {(1, 2, 2)}
    # the doubler cannot "redouble back": that is no call (and round 2 has nobody)
    assert d.finished


def test_no_re_redouble_in_round_two() -> None:
    d = calls()
    say(d, PASS, Call(double=(1,)), PASS, PASS)
    assert d.round == 2 and d.to_act == 1
    d.call(1, Call(redouble=(2,)))
    assert pairs_of(d) == {(2, 1, 2)}
    assert d.finished  # P2 gets no chance to answer the redouble


# -- shorthands ------------------------------------------------------------------------


def test_maximum_and_table_double_everyone_they_may_and_redouble_every_double() -> None:
    for word in ("maximum", "table"):
        d = calls()
        say(d, Call(double=(2,)), Call(word=word))
        # P2: doubles P0 and P3 (not P1: they have a pair), redoubles P1
        assert pairs_of(d) == {(1, 2, 2), (2, 0, 1), (2, 3, 1)}


def test_maximum_from_the_declarer_redoubles_everyone_who_doubled_it() -> None:
    d = calls()
    say(d, Call(double=(0, 2)), Call(double=(0,)), Call(double=(2,)), Call(word="table"))
    assert pairs_of(d) == {(1, 0, 2), (2, 0, 2), (1, 2, 1), (3, 2, 1)}


def test_maximum_in_a_positive_contract_doubles_the_declarer() -> None:
    d = calls(negative=False)
    say(d, Call(word="maximum"), PASS, Call(word="maximum"), Call(word="maximum"))
    assert pairs_of(d) == {(1, 0, 2), (3, 0, 2)}


def test_flanks_doubles_the_other_non_declarers() -> None:
    for word in ("flanks", "family"):
        d = calls()
        say(d, Call(word=word))
        assert pairs_of(d) == {(1, 2, 1), (1, 3, 1)}


def test_flanks_does_not_redouble_unless_the_flag_says_so() -> None:
    d = calls()
    say(d, Call(double=(2,)), Call(word="flanks"))
    assert pairs_of(d) == {(1, 2, 1), (2, 3, 1)}
    d = calls(flanks_redoubles=True)
    say(d, Call(double=(2,)), Call(word="flanks"))
    assert pairs_of(d) == {(1, 2, 2), (2, 3, 1)}
    # flanks never touches the declarer, even with the flag
    d = calls(flanks_redoubles=True)
    say(d, Call(double=(0, 2)), Call(word="flanks"))
    assert pairs_of(d) == {(1, 0, 1), (1, 2, 2), (2, 3, 1)}


def test_flanks_with_nobody_left_to_double_is_a_pass() -> None:
    d = calls()
    say(d, Call(double=(3,)), Call(double=(3,)), Call(word="flanks"))
    assert pairs_of(d) == {(1, 3, 1), (2, 3, 1)}
    assert d.calls[-1].doubles == () and d.calls[-1].redoubles == ()


def test_flanks_is_illegal_where_no_non_declarer_could_be_doubled() -> None:
    for d in (calls(negative=False), calls(negative_targets="declarer_only")):
        with pytest.raises(IllegalAction, match="flanks"):
            d.call(1, Call(word="flanks"))
    d = calls(negative=False, positive_targets="any")
    d.call(1, Call(word="family"))
    assert pairs_of(d) == {(1, 2, 1), (1, 3, 1)}


def test_flanks_with_five_players_means_the_three_other_non_declarers() -> None:
    d = calls(players=5, declarer=3)
    assert d.to_act == 4
    d.call(4, Call(word="flanks"))
    assert pairs_of(d) == {(4, 0, 1), (4, 1, 1), (4, 2, 1)}


# -- round 2: late redoubles -------------------------------------------------------------


def test_round_two_only_for_non_declarers_doubled_by_later_callers_in_round_one_order() -> None:
    d = calls()
    # P1 doubles P3; P2 doubles P1; P3 doubles P2; P0 passes.
    say(d, Call(double=(3,)), Call(double=(1,)), Call(double=(2,)), PASS)
    assert d.round == 2
    order = []
    while not d.finished:
        seat = d.to_act
        assert seat is not None
        order.append(seat)
        d.call(seat, PASS)
    # P1 (doubled later by P2 and P3), then P2 (by P3); P3 was doubled only by P1, earlier.
    assert order == [1, 2]


def test_round_two_may_redouble_only_later_doubles() -> None:
    d = calls()
    # P1 doubles P2; P2 passes (keeps x1); P3 doubles P2; P0 passes.
    say(d, Call(double=(2,)), PASS, Call(double=(2,)), PASS)
    assert d.round == 2 and d.to_act == 2
    assert d.may_redouble(2) == [3]
    assert d.may_double(2) == []
    with pytest.raises(IllegalAction, match="came before"):
        d.call(2, Call(redouble=(1,)))
    with pytest.raises(IllegalAction, match="round 2"):
        d.call(2, Call(double=(0,)))
    for word in ("flanks", "family"):
        with pytest.raises(IllegalAction, match="round 2"):
            d.call(2, Call(word=word))
    d.call(2, Call(word="maximum"))
    assert pairs_of(d) == {(1, 2, 1), (3, 2, 2)}
    assert d.finished


def test_the_declarer_never_gets_a_round_two_call() -> None:
    d = calls()
    say(d, Call(double=(0,)), PASS, Call(double=(0,)), PASS)
    assert d.finished and pairs_of(d) == {(1, 0, 1), (3, 0, 1)}


def test_without_late_redouble_later_doubles_stay_at_x1() -> None:
    d = calls(late_redouble=False)
    say(d, PASS, Call(double=(1,)), Call(double=(1,)), PASS)
    assert d.finished
    assert pairs_of(d) == {(2, 1, 1), (3, 1, 1)}


# -- the legal call list -------------------------------------------------------------------


def test_legal_calls_are_every_combination_of_doubles_and_redoubles() -> None:
    d = calls()
    first = d.legal_calls()
    assert {(c.double, c.redouble) for c in first} == {
        (tuple(s), ()) for k in range(4) for s in combinations([0, 2, 3], k)
    }
    d.call(1, Call(double=(2,)))
    second = d.legal_calls()
    doubles = [tuple(s) for k in range(3) for s in combinations([0, 3], k)]
    assert {(c.double, c.redouble) for c in second} == {(x, r) for x in doubles for r in ((), (1,))}
    for c in second:
        d.copy().call(2, c)


def test_forced_caller_lists_only_calls_that_double_the_declarer() -> None:
    d = calls(forced=frozenset({1}))
    assert d.must_double(1) == [0]
    legal = d.legal_calls()
    assert len(legal) == 4 and all(0 in c.double for c in legal)
    with pytest.raises(IllegalAction, match="must double the declarer"):
        d.call(1, Call(word="flanks"))
    d.call(1, Call(word="maximum"))
    assert d.doubled_declarer == frozenset({1})


# -- compulsory doubles over a set -----------------------------------------------------------


def test_forced_doublers_formula() -> None:
    # need - c >= K - k + 1, RULES.md §2.7
    none: list[frozenset[int]] = []
    assert forced_doublers(4, 0, 2, 1, 7, none) == frozenset()
    assert forced_doublers(4, 0, 2, 6, 7, [frozenset()] * 5) == {1, 2, 3}
    assert forced_doublers(4, 0, 2, 6, 7, [frozenset({1, 2})] + [frozenset()] * 4) == {3}
    assert forced_doublers(4, 0, 2, 7, 7, [frozenset({1}), frozenset({1, 2})] + [frozenset()] * 4) == {2, 3}
    assert forced_doublers(4, 0, 2, 7, 7, [frozenset({1, 3}), frozenset({1, 2, 3})] + [frozenset()] * 4) == {2}
    assert forced_doublers(4, 0, 1, 6, 7, [frozenset()] * 5) == frozenset()
    assert forced_doublers(4, 0, 1, 7, 7, [frozenset()] * 6) == {1, 2, 3}
    assert forced_doublers(4, 0, 0, 7, 7, [frozenset()] * 6) == frozenset()
    assert forced_doublers(4, 0, 7, 1, 7, none) == {1, 2, 3}
    assert forced_doublers(5, 2, 2, 6, 7, [frozenset()] * 5) == {0, 1, 3, 4}


CLASSIC_ORDER = ["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two", "trumps", "domino"]


def _forced_in_game(game_options: dict[str, Any], doubles_of_p0: dict[int, set[int]], k: int) -> list[int]:
    """Seats forced to double P0 at its k-th contract, on a score sheet where, at P0's
    i-th contract, the seats in ``doubles_of_p0[i]`` double P0 in round 1."""
    game = score_sheet(options=game_options)
    p0_deals = 0
    while True:
        deal = game.current
        assert deal is not None
        if deal.declarer == 0:
            p0_deals += 1
            if p0_deals == k:
                break
            dbl = doubles_of_p0.get(p0_deals, set())
            sheet_deal(game, CLASSIC_ORDER[p0_deals - 1], {s: Call(double=(0,)) for s in dbl})
        else:
            # other declarers: everyone meets its obligation at once
            d = deal.declarer
            own = sum(1 for x in game.deals[:-1] if x.declarer == d)
            owed = {s: Call(double=(d,)) for s in range(4) if s != d} if own < 2 else {}
            sheet_deal(game, CLASSIC_ORDER[own], owed)
    game.apply(Declare(CLASSIC_ORDER[k - 1]), 0)
    if deal.phase is Phase.TRUMP:
        game.apply(NameTrump(1), 0)
    if deal.phase is Phase.RANK:
        game.apply(NameRank(5), 0)
    forced = []
    while deal.phase is Phase.CALL and deal.doubling is not None and deal.doubling.round == 1:
        seat = deal.to_act
        assert seat is not None
        if game.is_legal(Call(), seat):
            game.apply(Call(), seat)
        else:
            forced.append(seat)
            game.apply(Call(double=(0,)), seat)
    return forced


@pytest.mark.parametrize("rotation", ["block", "quick"])
def test_compulsory_doubles_count_per_declarer_in_either_rotation(rotation: str) -> None:
    opts = {"rotation": rotation}
    # k = 6, nobody doubled P0 yet: all three forced
    assert _forced_in_game(opts, {}, 6) == [1, 2, 3]
    # P1 doubled twice, P2 once: only P3 forced at k = 6 ...
    assert _forced_in_game(opts, {1: {1, 2}, 2: {1}}, 6) == [3]
    # ... and P2 joins at k = 7 (one double owed, one contract left)
    assert _forced_in_game(opts, {1: {1, 2}, 2: {1, 3}, 6: {3}}, 7) == [2]
    # k = 5 with nothing done: not yet
    assert _forced_in_game(opts, {}, 5) == []


def test_quick_rotation_doubles_of_other_declarers_do_not_count() -> None:
    game = score_sheet(options={"rotation": "quick"})
    # deals 0..19: each declarer's first five contracts; P2 doubles whoever declares,
    # except P0; it never doubles P0.
    for i in range(20):
        deal = game.current
        assert deal is not None and deal.declarer == i % 4
        d = deal.declarer
        sheet_deal(game, CLASSIC_ORDER[i // 4], {2: Call(double=(d,))} if d not in (0, 2) else {})
    deal = game.current
    assert deal is not None and deal.declarer == 0
    game.apply(Declare("trumps"), 0)
    game.apply(NameTrump(0), 0)
    assert deal.doubling is not None
    assert deal.doubling.must_double(2) == [0]


@pytest.mark.parametrize(
    "need, k, done, forced",
    [
        (0, 5, {}, []),
        (0, 7, {}, []),
        (1, 6, {}, []),
        (1, 7, {}, [1, 2, 3]),
        (1, 7, {3: {2}}, [1, 3]),
        (2, 5, {}, []),
        (2, 6, {}, [1, 2, 3]),
        (2, 7, {6: {1, 2, 3}}, [1, 2, 3]),
        (3, 4, {}, []),
        (3, 5, {}, [1, 2, 3]),
    ],
)
def test_compulsory_doubles_option(need: int, k: int, done: dict[int, set[int]], forced: list[int]) -> None:
    assert _forced_in_game({"compulsory_doubles": need}, done, k) == forced


def test_only_round_one_doubles_of_the_declarer_count() -> None:
    game = score_sheet()
    # P1 and P3 meet their obligation at contracts 1 and 2.
    # Contract 1: P2 doubles P1 only (does not count).
    sheet_deal(game, "no-tricks", {1: Call(double=(0,)), 2: Call(double=(1,)), 3: Call(double=(0,))})
    # Contract 2: P2 says maximum (counts: it doubles P0 among others).
    sheet_deal(game, "no-hearts", {1: Call(double=(0,)), 2: Call(word="maximum"), 3: Call(double=(0,))})
    # Contract 3: P1 doubles P2 and P2 redoubles it (does not count).
    sheet_deal(game, "no-queens", {1: Call(double=(2,)), 2: Call(redouble=(1,))})
    sheet_deal(game, "no-king")
    sheet_deal(game, "no-last-two")
    sixth = game.current
    assert sixth is not None
    game.apply(Declare("trumps"), 0)
    game.apply(NameTrump(0), 0)
    assert sixth.forced == frozenset()  # c = 1 for P2: 2 - 1 < 2
    for seat in (1, 2, 3, 0):
        game.apply(Call(), seat)
    game.apply(EnterTally({"tricks": [4, 3, 3, 3]}))
    seventh = game.current
    assert seventh is not None
    game.apply(Declare("domino"), 0)
    game.apply(NameRank(5), 0)
    assert seventh.forced == frozenset({2})  # c = 1 at k = 7: 2 - 1 >= 1


# -- skip and settlement ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "total, players, declarer, expected",
    [
        (-26, 4, 0, [1, -9, -9, -9]),
        (-26, 4, 2, [-9, -9, 1, -9]),
        (-30, 4, 1, [-10, 0, -10, -10]),
        (-20, 4, 3, [-7, -7, -7, 1]),
        (-30, 5, 0, [2, -8, -8, -8, -8]),
        (-65, 4, 0, [1, -22, -22, -22]),
        (-50, 5, 4, [-13, -13, -13, -13, 2]),
    ],
)
def test_skip_split_floors_the_share_and_gives_the_remainder_to_the_declarer(
    total: int, players: int, declarer: int, expected: list[int]
) -> None:
    assert skip_split(total, players, declarer) == expected


def test_settlement_uses_raw_scores_only() -> None:
    raw = [30, 15, 10, 10]
    pairs = [Pair(1, 0, 1), Pair(3, 0, 2), Pair(2, 1, 1)]
    # 1->0: 15-30 = -15; 3->0 x2: 2(10-30) = -40; 2->1: 10-15 = -5
    assert settle(raw, pairs) == [15 + 40, -15 + 5, -5, -40]
    assert settle(raw, []) == [0, 0, 0, 0]
    assert sum(settle([7, -3, 12, 0, 5], [Pair(4, 1, 2), Pair(0, 3, 1), Pair(2, 4, 1)])) == 0


def test_a_call_that_names_a_seat_twice_is_refused_and_changes_nothing() -> None:
    """One call, one story: ``double [0, 0]`` would read as one double live and two in the log."""
    d = calls()
    say(d, PASS)
    before = (list(d.calls), d.pairs(), d.to_act)
    with pytest.raises(IllegalAction, match="names seat 0 twice"):
        d.call(2, Call(double=(0, 0)))
    say(d, Call(double=(0, 1)))
    with pytest.raises(IllegalAction, match="names seat 2 twice"):
        d.call(3, Call(redouble=(2, 2)))
    assert d.calls[: len(before[0])] == before[0] and d.pairs() == [p for p in d.pairs() if p.doubler == 2]
