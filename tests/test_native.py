"""The compiled accelerator against the pure path: identical legal cards, states, scores and decisions.

Every test runs the same seeded games, positions and playouts through both paths. The
accelerator must be built here (``pip install -e .`` builds it); with ``BARBU_PURE=1``
the tests that need it are skipped and the last test checks the pure path is in use.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

from barbu import Game, accel, seat_view
from barbu.actions import Action, Pass, Play
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.endgame import solve
from barbu.bots.search import SearchBot
from barbu.cards import cards_of, rank_mask
from barbu.deal import Deal, Phase, plays_of, pure_plays_of
from barbu.domino import DominoPlay, PureDominoPlay
from barbu.rulesets import RULE_SETS, rules
from barbu.tricks import PureTrickPlay, TrickPlay, TrickRules
from barbu.view import SeatView

PURE = os.environ.get("BARBU_PURE") == "1"
ONE_DECK = sorted(name for name, rs in RULE_SETS.items() if rs.decks == 1)
"""The rule sets the compiled kernels play: two decks always take the pure path (test_two_decks.py)."""
F = TypeVar("F", bound=Callable[..., Any])


def needs_native(test: F) -> F:
    """A test that compares the compiled path with the pure one: marked ``native`` (the pure-path
    run of .ci/run deselects them with ``-m "not native"``) and skipped if run with BARBU_PURE=1."""
    return pytest.mark.native(pytest.mark.skipif(PURE, reason="BARBU_PURE=1 forces the pure path")(test))


def _without_native(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accel, "_native", None)


@needs_native
def test_the_accelerator_is_built_and_in_use() -> None:
    assert accel.NATIVE, "pip install -e . should have built barbu._native (a C compiler is needed)"


FLAG_SETS: dict[str, dict[str, object]] = {
    "classic+flags": {
        "heart_lead": "broken",
        "forced_penalty": True,
        "overtrump_required": False,
        "undertrump_required": True,
        "must_trump_when_void": False,
        "early_end": False,
    },
    "classic+free": {"heart_lead": "free", "overtrump_required": False},
}
"""House-rule flags the rule sets' defaults do not cover, played on the classic rule set."""


def _trick_games(variant: str, games: int) -> Iterator[tuple[Game, Deal]]:
    """Every trick deal of seeded random games of ``variant`` (or of a :data:`FLAG_SETS`
    name), at every card decision."""
    rng = random.Random(variant)
    for g in range(games):
        options = FLAG_SETS.get(variant)
        game = Game.new("classic" if options else variant, options, seed=f"native:{variant}:{g}")
        while not game.is_over:
            deal = game.current
            assert deal is not None
            if deal.phase is Phase.PLAY and deal.tricks is not None:
                yield game, deal
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])


TRICK_FIELDS = ("hands", "trick", "captured", "winners", "leader", "turn", "played", "finished", "tricks_total")


def _pure(t: TrickPlay) -> PureTrickPlay:
    """``t``'s state as the pure-Python reference holds it."""
    p = PureTrickPlay(list(t.hands), t.leader, t.rules)
    for name in TRICK_FIELDS:
        value = getattr(t, name)
        setattr(p, name, list(value) if isinstance(value, list) else value)
    return p


def _state(t: TrickPlay | PureTrickPlay) -> tuple[object, ...]:
    return tuple((type(v), v) for v in (getattr(t, name) for name in (*TRICK_FIELDS, "players", "rules")))


@needs_native
def test_trick_play_is_compiled_when_the_accelerator_is_in_use() -> None:
    assert issubclass(TrickPlay, accel._require().TrickCore)
    assert not issubclass(PureTrickPlay, accel._require().TrickCore)


@needs_native
@pytest.mark.parametrize("variant", ONE_DECK + sorted(FLAG_SETS))
def test_compiled_trick_play_matches_the_pure_reference_card_by_card(variant: str) -> None:
    """Every card of seeded games through the compiled state and the pure one in lockstep:
    the same legal mask before each card, the same fields after it (types included), the
    same copies, the same ``play_next`` (the card and the next mask) and the same result."""
    rng = random.Random(f"lockstep:{variant}")
    plays = 0
    for g in range(2):
        options = FLAG_SETS.get(variant)
        game = Game.new("classic" if options else variant, options, seed=f"lockstep:{variant}:{g}")
        while not game.is_over:
            deal = game.current
            assert deal is not None
            if deal.phase is Phase.PLAY and deal.tricks is not None:
                t = deal.tricks
                assert isinstance(t, accel._require().TrickCore)
                if not deal.plays:
                    shadow = PureTrickPlay(list(deal.dealt or ()), deal.declarer, t.rules)
                    shadow_cards: list[int | None] = []
                    shadow_seats: list[int] = []
                assert _state(t) == _state(shadow)
                assert t.legal_mask() == shadow.legal_mask() == accel.legal_mask(t)
                assert t.legal_cards() == shadow.legal_cards() == cards_of(t.legal_mask())
                assert _state(t.copy()) == _state(shadow.copy())
                legal = t.legal_mask()
                card = rng.choice(cards_of(legal))
                ahead, shadow_ahead = t.copy(), shadow.copy()  # the fast door's card and next mask
                after = shadow_ahead.play_next(card)
                assert ahead.play_next(card) == after == (-1 if shadow_ahead.finished else shadow_ahead.legal_mask())
                assert _state(ahead) == _state(shadow_ahead)
                ahead, shadow_ahead = t.copy(), shadow.copy()  # OpenSpiel's door: the card logged twice
                logged: tuple[list[tuple[int, int]], list[int]] = ([], [])
                shadow_logged: tuple[list[tuple[int, int]], list[int]] = ([], [])
                after = shadow_ahead.play_tail(card, *shadow_logged)
                assert ahead.play_tail(card, *logged) == after == (-1 if shadow_ahead.finished else shadow_ahead.turn)
                assert logged == shadow_logged == ([(t.turn, card)], [card])
                assert _state(ahead) == _state(shadow_ahead)
                refused = [c for c in range(52) if not legal >> c & 1][:1]
                for attempt in [True, 52, -1, float(card), *refused]:
                    assert t.play_tail(attempt, *logged) is None and shadow.play_tail(attempt, *logged) is None
                    assert logged == shadow_logged and _state(t) == _state(shadow)
                for attempt, who in [(card, t.turn + 1), (card, "0"), (True, None), (52, None), (-1, None)] + [
                    (c, None) for c in refused
                ]:
                    logs: tuple[list[int | None], list[int]] = ([], [])
                    assert t.play_logged(attempt, who, *logs) is None  # type: ignore[arg-type]
                    assert shadow.play_logged(attempt, who, *logs) is None and logs == ([], [])
                    assert _state(t) == _state(shadow)
                turn = t.turn
                game.apply(Play(card), turn)
                assert shadow.play_logged(card, turn, shadow_cards, shadow_seats) == turn
                assert deal.plays[-1] == card and deal.play_seats[-1] == turn
                plays += 1
                assert _state(t) == _state(shadow)
                assert t.result() == shadow.result()
                assert (shadow_cards, shadow_seats) == (deal.plays, deal.play_seats)
                continue
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
    assert plays > 0


DOMINO_FIELDS = (
    "hands",
    "order",
    "players",
    "direction",
    "rank",
    "low_rank",
    "removed",
    "laid",
    "ace_replays",
    "turn",
    "finished",
    "_playable",
)


def _domino_state(d: DominoPlay | PureDominoPlay) -> tuple[object, ...]:
    return (*((type(v), v) for v in (getattr(d, name) for name in DOMINO_FIELDS)), tuple(d.rows()), d.playable())


@needs_native
@pytest.mark.parametrize("variant", ONE_DECK)
def test_compiled_domino_play_matches_the_pure_reference_card_by_card(variant: str) -> None:
    """Every lay and pass of the domino deals of seeded games, through the compiled state and
    a pure one built alike, in lockstep: the same legal mask, fields, rows and copies, and the
    same checked lay or pass (``play_logged``: what it refuses changes nothing)."""
    assert issubclass(DominoPlay, accel._require().DominoCore)
    rng = random.Random(f"domino:{variant}")
    steps = 0
    for g in range(3):
        game = Game.new(variant, seed=f"domino:{variant}:{g}")
        while not game.is_over:
            deal = game.current
            assert deal is not None
            d = deal.domino
            if deal.phase is Phase.PLAY and d is not None:
                if not deal.plays:
                    r, flags = deal.rules, deal.rules.flags
                    openers = 0
                    for rank in r.domino_ranks:
                        openers |= rank_mask(rank)
                    shadow = PureDominoPlay(
                        list(deal.dealt or ()),
                        deal.declarer,
                        deal.rank,
                        direction=r.direction,
                        low_rank=r.ruleset.low_rank,
                        removed=r.removed if flags.removed_card_rule == "laid" else 0,
                        ace_replays=flags.domino_ace_replays,
                        openers=openers,
                    )
                assert _domino_state(d) == _domino_state(shadow)
                assert d.legal_mask() == shadow.legal_mask()
                assert _domino_state(d.copy()) == _domino_state(shadow.copy())
                legal = cards_of(d.legal_mask())
                card = rng.choice(legal) if legal else None
                ahead, shadow_ahead = d.copy(), shadow.copy()  # the fast door's lay or pass and next mask
                after = shadow_ahead.play_next(card)
                assert ahead.play_next(card) == after == (-1 if shadow_ahead.finished else shadow_ahead.legal_mask())
                assert _domino_state(ahead) == _domino_state(shadow_ahead)
                mask = d.legal_mask()
                refused = [c for c in range(52) if not mask >> c & 1][:2]
                turn = d.turn
                attempts: list[tuple[object, object]] = [(card, turn + 1), (card, "0"), (True, None), (52, None)]
                attempts += [(-1, None), (None if card is not None else 0, None), *((c, None) for c in refused)]
                for attempt, who in attempts:
                    logs: tuple[list[int | None], list[int]] = ([], [])
                    assert d.play_logged(attempt, who, *logs) is None
                    assert shadow.play_logged(attempt, who, *logs) is None and logs == ([], [])
                    assert _domino_state(d) == _domino_state(shadow)
                game.apply(Play(card) if card is not None else Pass(), turn)
                shadow_logs: tuple[list[int | None], list[int]] = ([], [])
                assert shadow.play_logged(card, turn, *shadow_logs) == turn
                assert shadow_logs == ([card], [turn]) == (deal.plays[-1:], deal.play_seats[-1:])
                steps += 1
                assert _domino_state(d) == _domino_state(shadow)
                assert deal.rank == d.rank  # the deal's rank is its domino play's (named by the first lay)
                continue
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
    if any(c.play == "domino" for c in rules(variant).contracts):
        assert steps > 0


@needs_native
def test_compiled_domino_play_refuses_what_the_core_could_not_make() -> None:
    with pytest.raises(ValueError, match="2 to 6 seats"):
        DominoPlay([0b1], leader=0, rank=5)
    with pytest.raises(ValueError, match="a rank of 0-12"):
        DominoPlay([0b1, 0b10], leader=0, rank=13)
    d = DominoPlay([0b1, 0b10], leader=0, rank=0)
    with pytest.raises(ValueError, match="cards 0 to 51"):
        d.play(60)
    d.turn = 3
    with pytest.raises(ValueError, match="the seat to act in range"):
        d.legal_mask()


@needs_native
def test_compiled_plays_of_matches_the_pure_reference() -> None:
    assert plays_of is not pure_plays_of
    rng = random.Random(5)
    for mask in [0, 1, (1 << 52) - 1, *(rng.getrandbits(52) & rng.getrandbits(52) for _ in range(2000))]:
        assert plays_of(mask) == pure_plays_of(mask)
    with pytest.raises(ValueError, match="cards 0 to 51"):
        plays_of(1 << 52)


@needs_native
def test_compiled_trick_play_refuses_what_the_core_could_not_make() -> None:
    rules = TrickRules()
    with pytest.raises(ValueError, match="2 to 6 seats"):
        TrickPlay([0b1], leader=0, rules=rules)
    with pytest.raises(ValueError, match="2 to 6 seats"):
        TrickPlay([0b1, 0b10], leader=2, rules=rules)
    with pytest.raises(ValueError, match="heart lead"):
        TrickPlay([0b1, 0b10], leader=0, rules=TrickRules(heart_lead="sometimes"))
    t = TrickPlay([0b1, 0b10], leader=0, rules=rules)
    with pytest.raises(ValueError, match="cards 0 to 51"):
        t.play(52)
    t.turn = 5
    with pytest.raises(ValueError, match="the seat to act in range"):
        t.legal_mask()
    t.turn = 0
    t.hands = [1 << 70, 0]
    with pytest.raises(OverflowError):
        t.legal_mask()


@needs_native
def test_compiled_plays_pickle_and_deep_copy_to_equal_states() -> None:
    game = Game.new("classic", seed="pickle")
    rng = random.Random(1)
    seen = set()
    while not game.is_over and len(seen) < 2:
        deal = game.current
        assert deal is not None
        play = deal.cardplay
        if play is not None and len(deal.plays) == 6:
            state = _domino_state if deal.domino is not None else _state
            for other in (pickle.loads(pickle.dumps(play)), copy.deepcopy(play)):
                assert type(other) is type(play) and state(other) == state(play)  # type: ignore[operator]
                assert other.legal_mask() == play.legal_mask()
            seen.add(type(play).__name__)
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    assert seen == {"TrickPlay", "DominoPlay"}


@needs_native
@pytest.mark.parametrize("variant", ONE_DECK + sorted(FLAG_SETS))
def test_legal_cards_states_and_scores_are_identical(variant: str) -> None:
    seen_end = 0
    for game, deal in _trick_games(variant, 2):
        assert deal.tricks is not None and deal.contract is not None
        t = _pure(deal.tricks)
        state = accel.pack(t)
        assert accel.legal_mask(t) == t.legal_mask()
        for c in cards_of(t.legal_mask()):
            after = t.copy()
            after.play(c)
            assert accel.step(state, c) == accel.pack(after)
        last = t.tricks_total - len(t.winners) == 1 and len(t.trick) == t.players - 1
        if last:
            model = accel.score_model(deal.contract, game.rules.shape)
            if model is not None:
                end = t.copy()
                end.play(end.legal_mask().bit_length() - 1)
                expected = deal.contract.raw(deal.contract.tally_from_tricks(end.result()), game.rules.shape)
                assert accel._require().raw(accel.pack(end), model) == expected
                seen_end += 1
    assert seen_end > 0


@needs_native
def test_a_refused_step_says_what_is_wrong() -> None:
    t = TrickPlay([0b11, 0b1100, 0b110000, 0b11000000], leader=0, rules=TrickRules())
    with pytest.raises(ValueError, match="legal card"):
        accel.step(accel.pack(t), 5)
    with pytest.raises(ValueError, match="19 fields"):
        accel.step((1, 2, 3), 0)
    state = accel.pack(t)
    for field, value in [
        (12, 2),
        (15, (0b111, 0b1100, 0b110000, 0b11000000)),
        (15, (0b11, 0b11, 0b110000, 0)),
        (18, (0, 0)),
    ]:
        broken = (*state[:field], value, *state[field + 1 :])
        with pytest.raises(ValueError, match="one the core could make"):
            accel.step(broken, 0)
        with pytest.raises(ValueError, match="one the core could make"):
            accel._require().legal(broken)


@needs_native
@pytest.mark.parametrize("variant", ["classic", "salad", "french", "king", "five-player", "thirty-two"])
def test_native_playouts_replay_identically_through_the_pure_path(variant: str) -> None:
    """Each compiled random playout, replayed card by card through the fast door, plays only
    legal cards and ends with the same final scores."""
    checked = 0
    for _, deal in _trick_games(variant, 1):
        assert deal.contract is not None
        if accel.score_model(deal.contract, deal.rules.shape) is None or len(deal.plays) % 7:
            continue
        for scores, cards in accel.playouts(deal, 5, seed=len(deal.plays), record=True):  # type: ignore[misc]
            d = deal.copy()
            for c in cards:
                assert d.legal_mask() >> c & 1
                d.play_unchecked(c)
            assert d.finished and d.final is not None
            assert tuple(d.final) == scores
            checked += 1
    assert checked > 0


@needs_native
@pytest.mark.parametrize("variant", ONE_DECK + sorted(FLAG_SETS))
def test_the_rules_of_thumb_choose_identically(variant: str) -> None:
    """At every card decision of seeded random games (calls and pairs included), the compiled
    rules of thumb pick the card :func:`choose_card` picks."""
    checked = 0
    for _, deal in _trick_games(variant, 2):
        t = deal.tricks
        assert t is not None
        guide = PlayGuide.of(deal)
        if accel.pack_guide(guide) is None:
            continue
        assert accel.choose(t, guide) == choose_card(t, t.turn, guide)
        checked += 1
    assert checked > 0 or variant == "ravage-city"


@needs_native
@pytest.mark.parametrize("variant", ["classic", "salad", "french", "king"])
def test_rules_of_thumb_playouts_and_finishes_are_identical(variant: str) -> None:
    """Compiled rules-of-thumb playouts play the cards :func:`choose_card` plays, score the
    same, and the search bot's compiled finish (endgame solved exactly) gives its pure value."""
    checked = 0
    for _, deal in _trick_games(variant, 1):
        assert deal.contract is not None and deal.tricks is not None
        guide = PlayGuide.of(deal)
        if accel.score_model(deal.contract, deal.rules.shape) is None or accel.pack_guide(guide) is None:
            continue
        if len(deal.plays) % 5:
            continue
        [(scores, cards)] = accel.playouts(deal, 1, seed=0, record=True, guide=guide)  # type: ignore[misc]
        d = deal.copy()
        for c in cards:
            assert d.tricks is not None
            assert choose_card(d.tricks, d.tricks.turn, guide) == c
            d.play_unchecked(c)
        assert d.final is not None and tuple(d.final) == scores
        for endgame in (0, 3):
            me = len(deal.plays) % deal.players
            compiled = accel.finish(deal, guide, me, endgame)
            bot = SearchBot(seed=0, endgame=endgame, seconds=None)
            saved = accel._native
            try:
                accel._native = None
                assert bot.finish(deal.copy(), guide, me) == compiled
            finally:
                accel._native = saved
        checked += 1
    assert checked > 0


@needs_native
@pytest.mark.parametrize("variant", ["classic", "salad", "king", "five-player", "thirty-two", "classic+flags"])
def test_the_endgame_solver_is_identical(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(variant)
    positions: list[tuple[TrickPlay, Deal]] = []
    for _, deal in _trick_games(variant, 2):
        t = deal.tricks
        assert t is not None
        if t.tricks_total - len(t.winners) <= 4 and rng.random() < 0.3:
            positions.append((t.copy(), deal.copy()))
    assert positions
    native = []
    for t, deal in positions:
        guide = PlayGuide.of(deal)
        assert deal.contract is not None
        native.append([solve(t, deal.contract, deal.rules, guide, root) for root in range(t.players)])
    _without_native(monkeypatch)
    for (t, deal), values in zip(positions, native, strict=True):
        guide = PlayGuide.of(deal)
        assert deal.contract is not None
        assert [solve(t, deal.contract, deal.rules, guide, root) for root in range(t.players)] == values


@needs_native
@pytest.mark.parametrize("variant", ["classic", "king"])
def test_the_search_bot_decides_identically(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same seed, same number of worlds (no time cap): the same action at every kind of
    decision (cards, calls, contracts, trumps), on both paths."""
    game = Game.new(variant, seed=f"native:search:{variant}")
    rng = random.Random(5)
    cards: list[SeatView] = []
    others: list[SeatView] = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        if len(game.legal_actions()) > 1:
            (cards if game.phase == "play" else others).append(seat_view(game, seat))
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    views = cards[:: len(cards) // 16] + others[:: max(1, len(others) // 8)]
    assert len(views) >= 20 and any(v.phase != "play" for v in views)

    def decide() -> list[Action]:
        return [SearchBot(seed=i, iterations=6, seconds=None).act(v) for i, v in enumerate(views)]

    native = decide()
    _without_native(monkeypatch)
    assert decide() == native


_CHECKED_GAMES = """
import hashlib, random, sys
from barbu import Game, IllegalAction
from barbu.actions import PLAYS, Call, Pass
out = hashlib.sha256()

def state(game):
    d = game.deals[-1]
    return repr((game, d.plays, d.play_seats, d.rank, [d.hand(s) for s in range(d.players)], d.pairs()))

for variant in sys.argv[1:]:
    game = Game.new(variant, seed=11)
    rng = random.Random(12)
    while not game.is_over and len(game.deals) <= 9:
        actions = game.legal_actions()
        out.update(repr(actions).encode())
        if rng.random() < 0.3:  # a refused card, pass or call, or an action out of turn: the game is unchanged
            seat = game.to_act
            other = None if seat is None else (seat + 1) % game.rules.players
            wrong = rng.choice(PLAYS)
            for bad, by in ((wrong, seat), (Pass(), seat), (Call(double=(seat,)), seat), (actions[0], other)):
                if bad in actions and by == seat:
                    continue
                before = state(game)
                try:
                    game.apply(bad, by)
                except IllegalAction as e:
                    out.update(str(e).encode())
                assert state(game) == before, (variant, bad, by)
        game.apply(actions[rng.randrange(len(actions))])
        out.update(state(game).encode())
    out.update(repr((game.history, game.totals, [d.final for d in game.deals])).encode())
print(out.hexdigest())
"""


@needs_native
def test_the_checked_door_plays_identical_games_on_both_paths() -> None:
    """Game.legal_actions / Game.apply, refusals included, in this process (compiled) and under
    BARBU_PURE=1: the same legal actions, refusal texts, logs and scores."""
    variants = ["classic", "french", "king", "salad", "five-player", "thirty-two", "french-two-decks"]
    digests = []
    for env in (dict(os.environ), dict(os.environ, BARBU_PURE="1")):
        out = subprocess.run(
            [sys.executable, "-c", _CHECKED_GAMES, *variants], env=env, capture_output=True, text=True, check=True
        )
        digests.append(out.stdout.strip())
    assert digests[0] == digests[1] and len(digests[0]) == 64


def test_barbu_pure_forces_the_pure_path() -> None:
    env = dict(os.environ, BARBU_PURE="1")
    out = subprocess.run(
        [sys.executable, "-c", "from barbu import accel; print(accel.NATIVE)"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"


def test_score_models_match_the_contracts_on_every_rule_set() -> None:
    """The linear model is read from each contract's own scoring; Ravage City does not fit."""
    for variant in RULE_SETS:
        r = rules(variant)
        for contract in r.contracts:
            model = accel.score_model(contract, r.shape)
            declined = contract.play != "tricks" or contract.id == "ravage-city" or r.twin
            assert (model is None) == declined, contract.id


def _random_bots_and_generators(deal: Deal) -> tuple[list[Any], list[random.Random]]:
    """Random bots for the seats of ``deal``, and generators in the same states as theirs."""
    from barbu.bots import RandomBot

    bots = [RandomBot(len(deal.plays) * 10 + s) for s in range(deal.players)]
    rngs = [random.Random() for _ in bots]
    for r, bot in zip(rngs, bots, strict=True):
        r.setstate(bot.rng.getstate())
    return bots, rngs


def _played_card_by_card(deal: Deal, bots: list[Any]) -> Deal:
    """A copy of ``deal`` played to its end by ``bots``, one legal action at a time."""
    d = deal.copy()
    while not d.finished:
        seat = d.to_act
        assert seat is not None
        d.apply_unchecked(bots[seat].choose(d.legal_actions()))
    return d


@needs_native
@pytest.mark.parametrize("variant", ["classic", "salad", "king", "five-player", "thirty-two", *sorted(FLAG_SETS)])
def test_compiled_random_cards_are_the_random_bots_cards(variant: str) -> None:
    """From positions of seeded games, the compiled draw of a whole card play plays the cards
    random bots play card by card from the same generators, logs and scores the deal as they
    do, and leaves the generators in the same state."""
    checked = 0
    for _, deal in _trick_games(variant, 1):
        if len(deal.plays) % 5:
            continue
        bots, rngs = _random_bots_and_generators(deal)
        fast = deal.copy()
        assert fast.play_random(rngs)
        d = _played_card_by_card(deal, bots)
        assert fast.finished and fast.tricks is not None and d.tricks is not None
        assert _state(fast.tricks) == _state(d.tricks)
        assert (fast.plays, fast.play_seats, fast.tally, fast.final) == (d.plays, d.play_seats, d.tally, d.final)
        assert [r.getstate() for r in rngs] == [b.rng.getstate() for b in bots]
        checked += 1
    assert checked > 0


@needs_native
@pytest.mark.parametrize("variant", ["classic", "salad", "king", "five-player", "thirty-two"])
def test_compiled_random_lays_are_the_random_bots_lays(variant: str) -> None:
    """From positions of the domino deals of seeded games, the compiled draw of a whole domino
    play makes the lays and passes random bots make one by one from the same generators,
    logs and scores the deal as they do, and leaves the generators in the same state."""
    rng = random.Random(f"lays:{variant}")
    checked = 0
    for g in range(3):
        game = Game.new(variant, seed=f"lays:{variant}:{g}")
        while not game.is_over:
            deal = game.current
            assert deal is not None
            if deal.phase is Phase.PLAY and deal.domino is not None and len(deal.plays) % 7 == 0:
                bots, rngs = _random_bots_and_generators(deal)
                fast = deal.copy()
                assert fast.play_random(rngs)
                d = _played_card_by_card(deal, bots)
                assert fast.finished and fast.domino is not None and d.domino is not None
                assert _domino_state(fast.domino) == _domino_state(d.domino)
                assert (fast.plays, fast.play_seats, fast.rank, fast.tally, fast.final) == (
                    d.plays,
                    d.play_seats,
                    d.rank,
                    d.tally,
                    d.final,
                )
                assert [r.getstate() for r in rngs] == [b.rng.getstate() for b in bots]
                checked += 1
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
    if any(c.play == "domino" for c in rules(variant).contracts):
        assert checked > 0


def test_play_random_declines_without_a_compiled_path() -> None:
    """Two decks, the pure path or a generator that may draw differently: nothing is played,
    and the caller plays card by card."""

    class Drawing(random.Random):
        pass

    for variant, rng_type in (("french-two-decks", random.Random), ("classic", Drawing)):
        for _, deal in _trick_games(variant, 1):
            before = (list(deal.plays), deal.phase)
            assert not deal.play_random([rng_type(s) for s in range(deal.players)])
            assert (deal.plays, deal.phase) == before
            break
    with pytest.MonkeyPatch.context() as m:
        _without_native(m)
        for _, deal in _trick_games("classic", 1):
            assert not deal.play_random([random.Random(s) for s in range(deal.players)])
            break


@needs_native
@pytest.mark.parametrize("variant, bots", [("classic", "random"), ("salad", "random"), ("classic", "random,heuristic")])
def test_simulate_writes_the_same_games_with_compiled_random_cards(
    variant: str, bots: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``barbu simulate`` with random bots draws their card play in compiled code (trick and
    domino deals): the same totals, rankings and records as card by card."""
    from barbu.cli.simulate import simulate

    seats = bots.split(",") * (4 // len(bots.split(",")))
    compiled = simulate(games=2, seed=3, variant=variant, bots=seats)
    with monkeypatch.context() as m:
        _without_native(m)
        reference = simulate(games=2, seed=3, variant=variant, bots=seats)
    assert compiled == reference


@needs_native
@pytest.mark.parametrize("variant", sorted(set(RULE_SETS) - {"french-two-decks"}))
def test_the_compiled_deal_is_the_dealers_deal(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Dealer.deal`` in compiled code (``accel.deal_drawn``) deals the hands of the pure
    ``Dealer.deal`` from generators in the same state, and leaves them in the same state, for
    every rule set of one deck, seed kind and declarer; two decks stay on the pure path."""
    from barbu.game import Dealer

    r = rules(variant)
    for seed in (0, 7, "3:11", 2**70 + 5):
        compiled, pure = Dealer(seed), Dealer(seed)
        dealt = []
        for declarer in [*range(r.players), 0, 1]:
            hands = compiled.deal(r, declarer)
            with monkeypatch.context() as m:
                _without_native(m)
                assert pure.deal(r, declarer) == hands
            assert sum(hands) == r.deck and sum(h.bit_count() for h in hands) == len(r.deck_cards)
            dealt.append(hands)
        assert compiled._rng.getstate() == pure._rng.getstate()
        assert len({tuple(h) for h in dealt}) == len(dealt)  # every deal a new shuffle
    assert accel.deal_drawn(random.Random(1), rules("french-two-decks"), 0) is None


@needs_native
def test_the_compiled_deal_refuses_what_the_dealer_could_not_draw() -> None:
    """A generator whose random() is not k / 2**53, or a deck or seat the dealer could not hold, is
    refused with a ValueError before any hand is made."""
    native = accel._require()
    deck = tuple(range(52))
    with pytest.raises(ValueError, match="k / 2\\*\\*53"):
        native.deal_drawn(lambda: 0.1 + 2**-60, 4, deck, 1, 0)
    with pytest.raises(ValueError, match="k / 2\\*\\*53"):
        native.deal_drawn(lambda: 1.0, 4, deck, 1, 0)
    with pytest.raises(ValueError, match="distinct cards"):
        native.deal_drawn(random.random, 4, (1, 1), 1, 0)
    with pytest.raises(ValueError, match="declarer among the seats"):
        native.deal_drawn(random.random, 4, deck, 1, 4)


def _positions_seen(variant: str, games: int) -> Iterator[SeatView]:
    """Every seat's view at a few random points of random games of ``variant`` (any phase)."""
    rng = random.Random(variant)
    for g in range(games):
        game = Game.new(variant, seed=g)
        stop = rng.randrange(1, 60)
        for _ in range(stop):
            if game.is_over or game.to_act is None:
                break
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.is_over or game.current is None or game.current.dealt is None:
            continue
        for seat in range(game.rules.players):
            yield seat_view(game, seat)


@needs_native
@pytest.mark.parametrize("variant", ["classic", "french", "salad", "five-player", "thirty-two", "king"])
def test_the_compiled_hand_sampler_deals_the_pure_hands(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sample_hands`` in compiled code deals the hands of the pure greedy deals from generators
    in the same state and leaves them in the same state, also when every greedy deal is refused
    and the cards are matched exactly (no tries)."""
    from barbu import unseen

    assert unseen._SAMPLER is not None
    checked = 0
    for view in _positions_seen(variant, 12):
        hidden = unseen.hidden_cards(view)
        for tries in (unseen._TRIES, 0):
            monkeypatch.setattr(unseen, "_TRIES", tries)
            for seed in range(3):
                compiled, pure = random.Random(seed), random.Random(seed)
                hands = unseen.sample_hands(hidden, compiled)
                with monkeypatch.context() as m:
                    m.setattr(unseen, "_SAMPLER", None)
                    assert unseen.sample_hands(hidden, pure) == hands
                assert compiled.getstate() == pure.getstate()
                assert sum(hands) | hidden.unseen == sum(hands) and hands[view.seat] == hidden.hand
                checked += 1
    assert checked > 50


@needs_native
def test_the_compiled_hand_sampler_refuses_what_no_view_could_give() -> None:
    """Seats, cards or masks out of range are refused with a ValueError saying which."""
    native = accel._require()
    bits = random.Random(0).getrandbits
    with pytest.raises(ValueError, match="seat out of range"):
        native.sample_hands(bits, 3, 0, (1, 1, 1), (1, 2), (0b1, 0b10), 8)
    with pytest.raises(ValueError, match="unseen: 64 is out of range"):
        native.sample_hands(bits, 0, 0, (1, 1, 1), (64,), (0b10,), 8)
    with pytest.raises(ValueError, match="allowed: 8 is out of range"):
        native.sample_hands(bits, 0, 0, (1, 1, 1), (5,), (0b1000,), 8)
    with pytest.raises(ValueError, match="one mask of seats per unseen card"):
        native.sample_hands(bits, 0, 0, (1, 1, 1), (5, 6), (0b10,), 8)
    with pytest.raises(ValueError, match="ran out of cards"):
        native.deal_order(bits, [0b1, 0], 0, 1, 2)
