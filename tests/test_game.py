"""A whole game (RULES.md §2.1-2.4, §2.11, 4.6, 4.7): rotation, contract choice, totals, ranking."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import pytest

from barbu import Call, Declare, EnterTally, Game, IllegalAction, NameTrump, rules
from barbu.actions import PLAYS, Pass
from barbu.deal import Phase
from barbu.game import Move
from barbu.rulesets import RULE_SETS
from table_setup import score_sheet, sheet_deal

# -- rotation --------------------------------------------------------------------------------


def declarers_of(variant: str, options: dict[str, Any] | None, first: int) -> list[int]:
    r = rules(variant, options)
    return [r.declarer_of(i, first) for i in range(r.deal_count)]


def test_block_rotation_gives_each_declarer_its_set_in_a_row_then_passes_left() -> None:
    assert declarers_of("classic", None, 2) == [2] * 7 + [3] * 7 + [0] * 7 + [1] * 7
    assert declarers_of("five-player", None, 4) == [4] * 7 + [0] * 7 + [1] * 7 + [2] * 7 + [3] * 7
    assert declarers_of("chinese-poker", None, 1) == [1] * 9 + [2] * 9 + [3] * 9 + [0] * 9


def test_quick_rotation_passes_left_every_deal() -> None:
    assert declarers_of("classic", {"rotation": "quick"}, 3) == [(3 + i) % 4 for i in range(28)]
    assert declarers_of("salad", {"rotation": "quick", "player_count": 5}, 0) == [i % 5 for i in range(30)]


def test_french_passes_left_every_deal_and_king_passes_right() -> None:
    assert declarers_of("french", {"player_count": 3}, 1) == [(1 + i) % 3 for i in range(24)]
    assert declarers_of("king", None, 1) == [(1 - i) % 4 for i in range(20)]


@pytest.mark.parametrize("variant, options", [("classic", None), ("classic", {"rotation": "quick"}), ("king", None)])
def test_the_game_follows_its_rotation(variant: str, options: dict[str, Any] | None) -> None:
    game = Game.new(variant, options, seed=11, first_declarer=1)
    rng = random.Random(5)
    seen: list[tuple[int, int]] = []
    while not game.is_over:
        deal = game.current
        assert deal is not None
        if not seen or seen[-1][0] != deal.index:
            seen.append((deal.index, deal.declarer))
        game.apply(rng.choice(game.legal_actions()))
    assert [d for _, d in seen] == declarers_of(variant, options, 1)


def test_every_deal_is_dealt_from_the_declarer_and_conserves_the_deck() -> None:
    for variant, options in [
        ("classic", None),
        ("five-player", None),
        ("french", {"player_count": 3}),
        ("thirty-two", None),
    ]:
        game = Game.new(variant, options, seed=3)
        deal = game.current
        assert deal is not None and deal.dealt is not None
        r = game.rules
        union = 0
        for h in deal.dealt:
            assert h.bit_count() == r.cards_each
            assert union & h == 0
            union |= h
        assert union == r.deck


def test_seeded_games_repeat_and_different_seeds_differ() -> None:
    a, b, c = Game.new(seed=42), Game.new(seed=42), Game.new(seed=43)
    assert a.first_declarer == b.first_declarer
    assert a.current is not None and b.current is not None and c.current is not None
    assert a.current.dealt == b.current.dealt
    assert a.current.dealt != c.current.dealt


def test_first_declarer_is_drawn_over_all_seats() -> None:
    firsts = Counter(Game.new(seed=s).first_declarer for s in range(60))
    assert set(firsts) == {0, 1, 2, 3}
    assert {Game.new("five-player", seed=s).first_declarer for s in range(60)} == {0, 1, 2, 3, 4}


def test_first_declarer_must_be_a_seat() -> None:
    with pytest.raises(IllegalAction, match="from 0 to 3"):
        Game(rules("classic"), 4)
    with pytest.raises(IllegalAction):
        Game.new(seed=1, first_declarer=-1)


def test_copy_deals_what_the_original_would_deal() -> None:
    game = Game.new(seed=9)
    rng = random.Random(1)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    twin = game.copy()
    rng_a, rng_b = random.Random(2), random.Random(2)
    for _ in range(300):
        game.apply(rng_a.choice(game.legal_actions()))
        twin.apply(rng_b.choice(twin.legal_actions()))
    assert [d.dealt for d in game.deals] == [d.dealt for d in twin.deals]
    assert game.totals == twin.totals


# -- contract choice ---------------------------------------------------------------------------

CLASSIC = ["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two", "trumps", "domino"]


def test_each_declarer_names_each_contract_once_and_the_last_is_forced_but_still_named() -> None:
    game = score_sheet(first=1)
    order = ["domino", "no-king", "trumps", "no-tricks", "no-last-two", "no-hearts"]
    for i, contract in enumerate(order):
        deal = game.current
        assert deal is not None and deal.declarer == 1
        left = [c for c in CLASSIC if c not in order[:i]]
        assert [str(a) for a in game.legal_actions()] == left
        for used in order[:i]:
            with pytest.raises(IllegalAction, match="contracts left are"):
                game.apply(Declare(used), 1)
        sheet_deal(game, contract, {s: Call(double=(1,)) for s in (0, 2, 3)} if i < 2 else {})
    deal = game.current
    assert deal is not None and deal.phase is Phase.CONTRACT
    assert game.legal_actions() == [Declare("no-queens")]
    sheet_deal(game, "no-queens")
    deal = game.current
    assert deal is not None and deal.declarer == 2
    assert [str(a) for a in game.legal_actions()] == CLASSIC


KING_NEGATIVES = [
    "king-no-king",
    "king-no-queens",
    "king-no-boys",
    "king-no-hearts",
    "king-no-last-two",
    "king-no-tricks",
]
KING_TALLIES: dict[str, dict[str, Any]] = {
    "king-no-king": {"king_of_hearts": 2},
    "king-no-queens": {"queens": [1, 1, 1, 1]},
    "king-no-boys": {"jacks_and_kings": [2, 2, 2, 2]},
    "king-no-hearts": {"hearts": [4, 3, 3, 3]},
    "king-no-last-two": {"second_last": 0, "last": 3},
    "king-no-tricks": {"tricks": [4, 3, 3, 3]},
    "king-trumps": {"tricks": [4, 3, 3, 3]},
}


def king_choices(
    negatives_by_seat: Counter[int], trumps_by_seat: Counter[int], per_game: Counter[str], seat: int
) -> list[str]:
    """RULES.md 4.7, written independently of the engine."""
    out = []
    if negatives_by_seat[seat] < 3:
        out += [c for c in KING_NEGATIVES if per_game[c] < 2]
    if trumps_by_seat[seat] < 2:
        out.append("king-trumps")
    return out


@pytest.mark.parametrize("seed", range(8))
def test_king_choice_rule(seed: int) -> None:
    rng = random.Random(seed)
    game = score_sheet("king", first=rng.randrange(4))
    negatives: Counter[int] = Counter()
    trumps: Counter[int] = Counter()
    per_game: Counter[str] = Counter()
    while not game.is_over:
        deal = game.current
        assert deal is not None
        seat = deal.declarer
        expected = king_choices(negatives, trumps, per_game, seat)
        assert [str(a) for a in game.legal_actions()] == [c for c in [*KING_NEGATIVES, "king-trumps"] if c in expected]
        for c in KING_NEGATIVES:
            if c not in expected:
                assert not game.is_legal(Declare(c), seat)
        choice = rng.choice(expected)
        game.apply(Declare(choice), seat)
        if deal.phase is Phase.TRUMP:
            game.apply(NameTrump(rng.randrange(4)), seat)
        game.apply(EnterTally(KING_TALLIES[choice]))
        if choice == "king-trumps":
            trumps[seat] += 1
        else:
            negatives[seat] += 1
            per_game[choice] += 1
    assert all(negatives[s] == 3 and trumps[s] == 2 for s in range(4))
    assert all(per_game[c] == 2 for c in KING_NEGATIVES)
    assert sum(game.totals) == 0


def test_king_seat_with_two_trumps_must_choose_a_negative_and_exhausted_negatives_disappear() -> None:
    game = score_sheet("king", first=0)
    # deals go 0, 3, 2, 1, 0, ... ; seat 0 takes trumps twice; seats 3 and 2 take king-no-king
    plan = ["king-trumps", "king-no-king", "king-no-king", "king-no-tricks", "king-trumps"]
    for contract in plan:
        deal = game.current
        assert deal is not None
        game.apply(Declare(contract), deal.declarer)
        if deal.phase is Phase.TRUMP:
            game.apply(NameTrump(0), deal.declarer)
        game.apply(EnterTally(KING_TALLIES[contract]))
    deal = game.current
    assert deal is not None and deal.declarer == 3
    assert "king-no-king" not in [str(a) for a in game.legal_actions()]
    # seat 0's next turn (deal 8): only negatives
    for contract in ["king-no-queens", "king-no-boys", "king-no-hearts"]:
        d = game.current
        assert d is not None
        game.apply(Declare(contract), d.declarer)
        game.apply(EnterTally(KING_TALLIES[contract]))
    deal = game.current
    assert deal is not None and deal.declarer == 0
    assert [str(a) for a in game.legal_actions()] == [
        "king-no-queens",
        "king-no-boys",
        "king-no-hearts",
        "king-no-last-two",
        "king-no-tricks",
    ]


def test_french_plays_its_fixed_order_each_contract_once_per_seat() -> None:
    for n, five in [(3, False), (4, False), (5, False), (4, True)]:
        opts: dict[str, Any] = {"player_count": n} if n != 4 else {}
        if five:
            opts["first_five_only"] = True
        game = Game.new("french", opts, seed=n)
        rng = random.Random(n)
        seen: list[tuple[str, int]] = []
        while not game.is_over:
            deal = game.current
            assert deal is not None
            assert deal.phase is not Phase.CONTRACT and deal.phase is not Phase.CALL
            if not seen or len(seen) == deal.index:
                assert deal.contract is not None
                seen.append((deal.contract.id, deal.declarer))
            game.apply(rng.choice(game.legal_actions()))
        order = ["no-tricks", "no-hearts", "no-queens", "no-king", "salad", "more-tricks", "first-and-last", "domino"]
        order = order[:5] if five else order
        assert [c for c, _ in seen] == [c for c in order for _ in range(n)]
        assert [d for _, d in seen] == [(game.first_declarer + i) % n for i in range(len(seen))]


# -- totals, ranking, game over ---------------------------------------------------------------------


def test_totals_add_the_final_scores_of_each_deal() -> None:
    game = score_sheet()
    sheet_deal(game, "no-tricks", {1: Call(double=(0,))}, {"tricks": [1, 4, 4, 4]})
    # raw -2 -8 -8 -8; P1 -> P0: -8 - -2 = -6
    assert game.totals == [4, -14, -8, -8]
    sheet_deal(game, "no-king")  # skipped: +1 / -7
    assert game.totals == [5, -21, -15, -15]


def _finish(game: Game, seed: int = 0) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(
    "totals, ranking, winners",
    [
        ([10, 5, 5, -20], [1, 2, 2, 4], [0]),
        ([7, 7, -4, -10], [1, 1, 3, 4], [0, 1]),
        ([0, 0, 0, 0], [1, 1, 1, 1], [0, 1, 2, 3]),
        ([-3, 9, -3, -3], [2, 1, 2, 2], [1]),
    ],
)
def test_ranking_highest_first_with_shared_ranks(totals: list[int], ranking: list[int], winners: list[int]) -> None:
    game = Game.new(seed=1)
    game.totals = totals
    assert game.ranking() == ranking and game.winners() == winners


def test_french_ranks_the_lowest_total_first() -> None:
    game = Game.new("french", seed=1)
    game.totals = [300, 120, 120, 500]
    assert game.ranking() == [3, 1, 1, 4] and game.winners() == [1, 2]


def test_king_turkish_winners_are_the_positive_totals() -> None:
    game = Game.new("king", seed=1)
    game.totals = [300, -120, 20, -200]
    assert game.winners_turkish() == [0, 2] and game.winners() == [0]
    game.totals = [0, 0, 0, 0]
    assert game.winners_turkish() == [0, 1, 2, 3]


def test_game_over_refuses_every_action() -> None:
    game = _finish(Game.new("king", seed=4))
    assert game.is_over and game.phase == "game_over" and game.to_act is None
    assert game.legal_actions() == [] and game.current is None
    assert len(game.deals) == 20 and all(d.finished for d in game.deals)
    history = list(game.history)
    with pytest.raises(IllegalAction) as err:
        game.apply(Declare("king-trumps"))
    assert err.value.kind == "game"
    assert game.history == history
    assert not game.is_legal(Declare("king-trumps"))


def test_history_logs_every_action_with_its_seat() -> None:
    game = Game.new(seed=2)
    rng = random.Random(3)
    for _ in range(40):
        seat = game.to_act
        action = rng.choice(game.legal_actions())
        game.apply(action)
        assert game.history[-1].seat == seat and game.history[-1].action == action
    assert len(game.history) == 40


@pytest.mark.parametrize("variant", ["classic", "french", "king", "french-two-decks"])
def test_the_log_is_the_same_read_at_every_step_or_once_at_the_end(variant: str) -> None:
    """The checked door writes a deal's cards to the log when it is read: read after every
    action, every other action or only at the end, the log lists each action applied, with its
    seat and deal, in order (two decks: the card as it was named); copies keep their own; a
    refused card leaves the game exactly as it was."""
    logs = []
    for every in (1, 2, 0):
        game = Game.new(variant, seed=5)
        rng = random.Random(6)
        expected: list[Move] = []
        copies: list[tuple[Game, list[Move]]] = []
        step = 0
        while not game.is_over and len(game.deals) <= 4:
            deal = game.current
            assert deal is not None and deal.to_act is not None
            actions = game.legal_actions()
            if step % 7 == 0:  # a card that is not legal now: refused, the game exactly as it was
                before = pickle.dumps(game)
                with pytest.raises(IllegalAction):
                    game.apply(next(p for p in PLAYS if p not in actions))
                assert pickle.dumps(game) == before
            action = rng.choice(actions)
            expected.append(Move(deal.index, deal.to_act, action))
            game.apply(action)
            step += 1
            if every and step % every == 0:
                assert game.history == expected
            if step % 37 == 0:
                copies.append((game.copy(), list(expected)))
        assert game.history == expected
        for other, then in copies:
            assert other.history == then
        logs.append(game.history)
    assert logs[0] == logs[1] == logs[2]


def test_out_of_turn_at_game_level_changes_nothing() -> None:
    game = Game.new(seed=2)
    seat = game.to_act
    assert seat is not None
    with pytest.raises(IllegalAction):
        game.apply(Declare("no-tricks"), (seat + 1) % 4)
    assert game.history == [] and game.phase == "contract"


def test_a_refusal_names_the_deal_the_action_the_seat_and_the_rule() -> None:
    game = Game.new("classic", seed=7)
    game.apply(Declare("no-queens"))
    before = list(game.history)
    seat = game.to_act
    assert seat is not None
    with pytest.raises(IllegalAction) as caught:
        game.apply(Call(double=(seat,)), seat)
    text = str(caught.value)
    assert text.startswith(f"deal 1, call double P{seat} (seat {seat}): ")
    assert "doubles name another seat" in text and caught.value.message in text
    assert game.history == before


# -- checking without applying ------------------------------------------------------------------


def _outcome(game: Game, action: Any, seat: int | None) -> tuple[str, bool]:
    """What ``apply`` does with ``action`` by ``seat`` on a copy: its refusal, or whether the game ends."""
    probe = game.copy()
    try:
        probe.apply(action, seat)
    except IllegalAction as e:
        return f"{type(e).__name__}:{e.kind}", False
    return "accepted", probe.is_over


@pytest.mark.parametrize("variant", sorted(RULE_SETS))
def test_check_says_what_apply_would_do_without_changing_the_game(variant: str) -> None:
    """``Game.check`` (which skips its copy of the deal for an action the deal lists) refuses
    exactly what ``apply`` refuses, with the same error, and says when the game would end."""
    rng = random.Random(variant)
    game = Game.new(variant, seed=f"check:{variant}")
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        chosen = actions[rng.randrange(len(actions))]
        seat = game.to_act
        deal = game.current
        if steps % 4 and deal is not None and deal.index + 1 < game.rules.deal_count:
            game.apply(chosen, seat)  # one step in four is checked, and every step of the last deal
            steps += 1
            continue
        players = game.rules.players
        candidates = [(chosen, seat), (chosen, None), (rng.choice(PLAYS), seat), (Pass(), seat), (Call(), seat)]
        if seat is not None:
            candidates.append((chosen, (seat + 1) % players))
        if game.phase != "arrange":
            candidates += [(a, seat) for a in rng.sample(list(actions), min(3, len(actions)))]
        history = len(game.history)
        for action, who in candidates:
            expected = _outcome(game, action, who)
            try:
                ends = game.check(action, who)
            except IllegalAction as e:
                assert expected == (f"{type(e).__name__}:{e.kind}", False), (action, who)
            else:
                assert expected == ("accepted", ends), (action, who)
            assert len(game.history) == history
        game.apply(chosen, seat)
        steps += 1


def random_bots_play(game: Game, g: int, drawn: bool) -> list[object]:
    """Play ``game`` to its end with a random bot of seed ``g * 10 + seat`` in each seat; with
    ``drawn``, each deal's contract choice and calls are drawn by ``Game.call_random`` from the
    bots' generators. Returns the generators' states at the end."""
    from barbu.bots import RandomBot

    bots = [RandomBot(g * 10 + s) for s in range(game.rules.players)]
    rngs = [b.rng for b in bots]
    while not game.is_over:
        deal = game.current
        assert deal is not None
        if drawn and deal.phase in ("contract", "trump", "rank", "call"):
            game.call_random(rngs)
            assert deal.phase in ("arrange", "play", "done")  # at its cards, or scored unplayed
        else:
            seat = game.to_act
            assert seat is not None
            game.apply_unchecked(bots[seat].choose(game.legal_actions()))
    return [r.getstate() for r in rngs]


SEEDED_RANDOM_GAMES = {
    ("classic", 0): ("82355c3a45230179", [-339, 462, -361, 238]),
    ("chinese-poker", 1): ("f553a219ba94652c", [655, 437, -1069, -23]),
    ("five-player", 0): ("b8eca4f6c9132a5b", [4, -483, 387, 289, -197]),
    ("french", 1): ("b137f14c8718092b", [665, 305, 905, 465]),
    ("french-two-decks", 0): ("9612cd51b31e2f0e", [1070, 1520, 430, 1895, 1100, 1365]),
}
"""Random bots' games as they were recorded when the random pick was written in the core and in
the bot separately: a digest of each game's moves, and its totals."""


@pytest.mark.parametrize(("variant", "g"), list(SEEDED_RANDOM_GAMES))
@pytest.mark.parametrize("drawn", [False, True])
def test_the_random_pick_gives_the_games_it_gave(variant: str, g: int, drawn: bool) -> None:
    """The bot's pick and the core's ``call_random`` share one choice (``random_pick``): the
    same seeds still give the same games, move for move, whichever makes the calls."""
    import hashlib

    game = Game.new(variant, seed=f"rec:{variant}:{g}")
    random_bots_play(game, g, drawn)
    digest = hashlib.sha256(repr([str(m) for m in game.history]).encode()).hexdigest()[:16]
    assert (digest, game.totals) == SEEDED_RANDOM_GAMES[variant, g]


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_call_random_makes_the_choices_and_calls_random_bots_make(variant: str) -> None:
    """Whole games where the contract choices, trumps, ranks and calls are drawn by
    ``Game.call_random`` and every other action by random bots one at a time give the same log,
    scores and generator states as games where the bots make every action one at a time."""
    options = {"compulsory_doubles": 1} if variant == "classic" else None
    for g in range(2):
        seed = f"calls:{variant}:{g}"
        games, states = [], []
        for drawn in (False, True):
            game = Game.new(variant, options, seed=seed)
            games.append(game)
            states.append(random_bots_play(game, g, drawn))
        by_bots, by_draws = games
        assert by_draws.history == by_bots.history
        assert [d.final for d in by_draws.deals] == [d.final for d in by_bots.deals]
        assert [d.pairs() for d in by_draws.deals] == [d.pairs() for d in by_bots.deals]
        assert by_draws.totals == by_bots.totals
        assert states[0] == states[1]


def _replayed(game: Game, count: int) -> Game:
    """``game`` dealt again and replayed from its log up to the end of its ``count``-th deal."""
    replay = Game.new(game.rules, seed=7)  # dealt as Game.new("classic", seed=7)
    for move in game.history:
        if move.deal < count:
            replay.apply(move.action, move.seat)
    return replay


@pytest.mark.parametrize("read_first", [False, True])
@pytest.mark.parametrize("pick", [0, -1])
def test_a_game_ended_at_a_deal_is_the_game_replayed_to_that_deals_end(read_first: bool, pick: int) -> None:
    """``Game.ended(count)``, with the ``count``-th deal the last ended and the next one open: the
    log, totals and finished deals of the game replayed to the end of that deal, whether or not
    the game's log was read before (its cards are written into it when read) and with moves of
    the open deal made or not; the game itself unchanged. Any other count is refused."""
    game = Game.new("classic", seed=7)
    for count in (1, 2):
        while len(game.deals) == count:
            game.apply(game.legal_actions()[pick])
        for opened in range(3):  # the open deal's moves are not the ended game's
            if read_first:
                _ = game.history
            before = list(game.history) if opened else None
            ended = game.ended(count)
            replay = _replayed(game, count)
            assert ended.history == replay.history and len(ended.history) == len(replay.history)
            assert ended.totals == replay.totals == game.totals
            assert [d.final for d in ended.deals] == [d.final for d in replay.deals[:count]]
            assert ended.deals == game.deals[:count] and ended.current is None
            assert ended.history == replay.history  # read again: the same log
            if before is not None:
                assert game.history == before  # the live game's log is left as it was
            assert sum(m.deal == count for m in game.history) == opened
            game.apply(game.legal_actions()[pick])
        for wrong in (0, -1, count - 1, count + 1):
            with pytest.raises(ValueError, match="not at"):
                game.ended(wrong)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(ValueError, match="not at"):
        game.ended(len(game.deals) - 1)
