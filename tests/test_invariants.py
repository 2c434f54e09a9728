"""Invariants of RULES.md §2.10 over random games of every rule set (Hypothesis).

Random legal actions (from a seeded generator) play whole games. Along the way:

- the engine and an independent model of RULES.md (reference_rules.py) agree on whose
  turn it is, on the legal cards and on the raw scores of every played deal;
- skipped deals split the contract total as §2.8 says, adjustments follow from the
  calls as §2.10 says;
- every deal sums to its contract total, adjustments to 0, each declarer's set to 0
  where the rule set is zero-sum, the whole game as §2.10 says;
- cards are conserved at every step;
- every legal action applies (on a copy) and a spread of illegal ones are refused with
  the game, and every seat's view of it, unchanged.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from barbu import (
    Action,
    Arrange,
    Call,
    Declare,
    EnterTally,
    Game,
    IllegalAction,
    NameRank,
    NameTrump,
    Pass,
    Play,
    seat_view,
)
from barbu.deal import Deal, Phase
from reference_rules import (
    CallsModel,
    DominoModel,
    TrickModel,
    cards_in,
    contract_choices,
    declarer_of,
    domino_raw,
    forced_seats,
    settle,
    skip_raw,
    spoken,
    trick_raw,
)

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"rotation": "quick"}),
    (
        "classic",
        {
            "negative_targets": "declarer_only",
            "late_redouble": False,
            "skip_undoubled_negative": False,
            "heart_lead": "broken",
            "forced_penalty": True,
            "must_trump_when_void": False,
            "undertrump_required": True,
        },
    ),
    (
        "classic",
        {
            "positive_targets": "any",
            "flanks_redoubles": True,
            "compulsory_doubles": 0,
            "heart_lead": "free",
            "early_end": False,
            "overtrump_required": False,
            "domino_start": "first_card",
            "domino_ace_replays": True,
            "domino_values": [40, 20, 5, 0],
        },
    ),
    ("ravage-city", {}),
    ("ravage-city", {"rotation": "quick", "ravage_city_total": -36}),
    ("chinese-poker", {}),
    ("chinese-poker", {"rotation": "quick", "compulsory_doubles": 1}),
    ("salad", {}),
    ("salad", {"player_count": 5, "rotation": "quick"}),
    ("five-player", {}),
    ("five-player", {"rotation": "quick", "removed_card_rule": "forbid_rank"}),
    ("french", {"player_count": 3}),
    ("french", {}),
    ("french", {"player_count": 5, "removed_card_rule": "forbid_rank"}),
    ("french", {"player_count": 3, "first_five_only": True, "heart_lead": "free"}),
    ("king", {}),
    ("king", {"heart_lead": "strict", "forced_penalty": False, "overtrump_required": True, "early_end": False}),
    ("thirty-two", {}),
    ("thirty-two", {"rotation": "quick", "domino_start": "first_card", "domino_ace_replays": True}),
]

ZERO_SUM_SETS = {"classic", "ravage-city", "chinese-poker", "five-player", "thirty-two"}
CHANGES_SUMS = {"domino_values", "ravage_city_total"}


def ids(config: tuple[str, dict[str, Any]]) -> str:
    return config[0] + ("-" + "-".join(f"{k}={v}" for k, v in config[1].items()) if config[1] else "")


def choose(game: Game, rng: random.Random) -> Action:
    """A random legal action; calls lean towards passing and sometimes use a spoken word."""
    legal = game.legal_actions()
    if game.phase == "call":
        if rng.random() < 0.15:
            word = Call(word=rng.choice(["maximum", "table", "flanks", "family", "pass"]))
            if game.is_legal(word):
                return word
        if rng.random() < 0.5 and Call() in legal:
            return Call()
    return rng.choice(legal)


# -- the reference model of the deal in play ------------------------------------------------------


def model_for(deal: Deal) -> TrickModel | DominoModel:
    r = deal.rules
    assert deal.dealt is not None and deal.contract is not None
    hands = [cards_in(h) for h in deal.dealt]
    deck = cards_in(r.deck)
    flags = r.flags
    if deal.contract.play == "domino":
        removed = cards_in(r.removed)
        forbidden = {c % 13 for c in removed} if flags.removed_card_rule == "forbid_rank" else set()
        openers = {x for x in range(r.ruleset.low_rank, 13) if x not in forbidden}
        return DominoModel(
            hands,
            deal.declarer,
            deal.rank if flags.domino_start == "named" else None,
            r.ruleset.low_rank,
            set(removed) if flags.removed_card_rule == "laid" else set(),
            flags.domino_ace_replays,
            openers,
            direction=r.direction,
        )
    return TrickModel(hands, deal.declarer, deal.contract.id, deal.trump, flags, deck, direction=r.direction)


def engine_legal(game: Game) -> set[int | None]:
    return {a.card if isinstance(a, Play) else None for a in game.legal_actions() if isinstance(a, Play | Pass)}


def check_conservation(deal: Deal) -> None:
    r = deal.rules
    if deal.dealt is None:
        return
    union = 0
    for h in deal.dealt:
        assert union & h == 0
        union |= h
    assert union == r.deck
    played = [c for c in deal.plays if c is not None]
    assert len(played) == len(set(played))
    by_seat: dict[int, int] = defaultdict(int)
    for seat, c in zip(deal.play_seats, deal.plays, strict=True):
        if c is not None:
            by_seat[seat] |= 1 << c
    if deal.contract is not None and deal.contract.play == "arrange":
        return
    for s in range(r.players):
        assert by_seat[s] & ~deal.dealt[s] == 0
        assert deal.hand(s) == deal.dealt[s] & ~by_seat[s]
    if deal.tricks is not None:
        t = deal.tricks
        captured = 0
        for m in t.captured:
            assert captured & m == 0
            captured |= m
        current = 0
        for c in t.trick:
            current |= 1 << c
        assert captured | current == sum(1 << c for c in played)
        assert captured & current == 0


def check_deal_scores(deal: Deal, model: TrickModel | DominoModel | None) -> None:
    r = deal.rules
    n = r.players
    assert deal.contract is not None and deal.raw is not None and deal.final is not None
    assert deal.adjustments is not None
    total = r.total(deal.contract)
    assert sum(deal.raw) == total == sum(deal.final)
    assert sum(deal.adjustments) == 0
    # pairs from the calls as spoken (bookkeeping of §2.6), adjustments from §2.10
    pairs: dict[tuple[int, int], tuple[int, int, int]] = {}
    if deal.doubling is not None:
        for c in deal.doubling.calls:
            for t in c.doubles:
                pairs[(min(c.seat, t), max(c.seat, t))] = (c.seat, t, 1)
            for t in c.redoubles:
                pairs[(min(c.seat, t), max(c.seat, t))] = (t, c.seat, 2)
    assert sorted(pairs.values()) == sorted((p.doubler, p.doubled, p.multiplier) for p in deal.pairs())
    skip = (
        r.doubling
        and r.flags.skip_undoubled_negative
        and deal.contract.doubling_class == "negative"
        and deal.contract.id != "chinese-poker"
        and not pairs
    )
    assert deal.skipped is bool(skip)
    if deal.skipped:
        assert deal.raw == skip_raw(total, n, deal.declarer) and deal.plays == []
    elif isinstance(model, TrickModel):
        assert model.finished
        assert deal.tricks is not None and list(deal.tricks.winners) == model.winners()
        expected = trick_raw(r.name, deal.contract.id, model.captured(), model.winners(), n, r.flags.ravage_city_total)
        assert deal.raw == expected
    elif isinstance(model, DominoModel):
        assert model.finished
        assert deal.raw == domino_raw(model.order, r.flags.domino_values)
    assert deal.adjustments == settle(deal.raw, pairs.values())
    assert deal.final == [a + b for a, b in zip(deal.raw, deal.adjustments, strict=True)]


class Referee:
    """Follows a game with the reference models and checks the engine at every step."""

    def __init__(self, game: Game) -> None:
        self.game = game
        r = game.rules
        self.table = [c.id for c in r.contracts]
        self.declared: list[tuple[int, str]] = []
        self.doubled_declarer: dict[int, set[int]] = {}
        self.calls: dict[int, CallsModel] = {}
        self.cards: dict[int, TrickModel | DominoModel] = {}

    def before(self) -> None:
        """Check the engine's turn and legal actions against the models."""
        game, r = self.game, self.game.rules
        deal = game.current
        assert deal is not None
        first = game.first_declarer
        assert deal.declarer == declarer_of(
            deal.index, first, r.players, r.contracts_per_declarer, r.name, r.flags.rotation
        )
        if deal.phase is Phase.CONTRACT:
            expected = contract_choices(r.name, self.table, self.declared, deal.declarer)
            assert [str(a) for a in game.legal_actions()] == expected
        elif deal.phase is Phase.CALL:
            model = self.calls.get(deal.index)
            if model is None:
                own = [i for i, (d, _) in enumerate(self.declared[:-1]) if d == deal.declarer]
                forced = forced_seats(
                    r.players,
                    deal.declarer,
                    r.flags.compulsory_doubles,
                    r.contracts_per_declarer,
                    [self.doubled_declarer.get(i, set()) for i in own],
                )
                assert deal.contract is not None
                negative = deal.contract.doubling_class != "positive"
                model = self.calls[deal.index] = CallsModel(r.players, deal.declarer, negative, r.flags, forced)
            assert game.to_act == model.queue[0]
            legal = {(c.double, c.redouble) for c in game.legal_actions() if isinstance(c, Call)}
            assert legal == model.legal()
            for word in ("pass", "maximum", "table", "flanks", "family"):
                assert game.is_legal(Call(word=word)) is (spoken(model, word) is not None), word
        elif deal.phase is Phase.PLAY:
            cards = self.cards.get(deal.index)
            if cards is None:
                cards = self.cards[deal.index] = model_for(deal)
            assert not cards.finished, "the engine plays on after the deal's end"
            assert game.to_act == cards.turn
            expected_cards: set[int | None] = set(cards.legal()) or {None}
            assert engine_legal(game) == expected_cards

    def after(self, deal: Deal, action: Action) -> None:
        """Apply ``action`` (already applied by the engine) to the models."""
        if isinstance(action, Declare):
            self.declared.append((deal.declarer, action.contract))
        if isinstance(action, Call):
            model = self.calls[deal.index]
            seat, round_ = model.queue[0], model.round
            meaning = spoken(model, action.word) if action.word else (action.double, action.redouble)
            assert meaning is not None
            if round_ == 1 and deal.declarer in meaning[0]:
                self.doubled_declarer.setdefault(deal.index, set()).add(seat)
            model.call(*meaning)
            if model.finished:
                assert sorted(model.pairs.values()) == sorted(
                    (p.doubler, p.doubled, p.multiplier) for p in deal.pairs()
                )
        cards = self.cards.get(deal.index)
        if isinstance(cards, TrickModel) and isinstance(action, Play):
            cards.play(action.card)
        elif isinstance(cards, DominoModel) and isinstance(action, Play | Pass):
            cards.play(action.card if isinstance(action, Play) else None)


def play_checked_game(variant: str, options: dict[str, Any], seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(variant, options, seed=seed)
    referee = Referee(game)
    while not game.is_over:
        deal = game.current
        assert deal is not None
        if deal.rules.scheduled_contract(deal.index) and len(referee.declared) == deal.index:
            assert deal.contract is not None
            referee.declared.append((deal.declarer, deal.contract.id))
        referee.before()
        action = choose(game, rng)
        game.apply(action)
        referee.after(deal, action)
        check_conservation(deal)
        if deal.finished:
            check_deal_scores(deal, referee.cards.get(deal.index))
    return game


def check_game_sums(game: Game) -> None:
    r = game.rules
    finals = [d.final for d in game.deals]
    assert all(f is not None for f in finals)
    assert game.totals == [sum(f[s] for f in finals if f is not None) for s in range(r.players)]
    changed = CHANGES_SUMS & set(r.options)
    if r.name in ZERO_SUM_SETS and not changed:
        for declarer in range(r.players):
            own = [d for d in game.deals if d.declarer == declarer]
            assert len(own) == r.contracts_per_declarer
            assert sorted(d.contract.id for d in own if d.contract) == sorted(c.id for c in r.contracts)
            assert sum(sum(d.final or []) for d in own) == 0
        assert sum(game.totals) == 0
    elif r.name == "king":
        assert sum(game.totals) == 0
    elif r.name == "salad":
        assert sum(game.totals) == {4: -2840, 5: -3400}[r.players]
    elif r.name == "french":
        expected = {
            (3, False): 1845,
            (4, False): 2340,
            (5, False): 2900,
            (3, True): 3 * (85 + 65 + 80 + 80 + 310),
        }
        assert sum(game.totals) == expected[(r.players, r.flags.first_five_only)]
    assert sum(game.totals) == r.game_total()


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_follow_the_reference_and_sum_as_specified(config: tuple[str, dict[str, Any]], seed: int) -> None:
    variant, options = config
    game = play_checked_game(variant, options, seed)
    check_game_sums(game)


# -- legal actions apply, illegal ones are refused with nothing changed -------------------------------------


def full_snapshot(game: Game) -> str:
    views = [seat_view(game, s).as_json() for s in [*range(game.rules.players), None]]
    deal = game.deals[-1]
    hands = [deal.hand(s) for s in range(game.rules.players)]
    return json.dumps([views, [str(m) for m in game.history], game.totals, hands, len(game.deals)], default=str)


def fingerprint(game: Game) -> tuple[Any, ...]:
    deal = game.deals[-1]
    calls = len(deal.doubling.calls) if deal.doubling else 0
    return (
        len(game.history),
        len(game.deals),
        game.phase,
        game.to_act,
        calls,
        len(deal.plays),
        tuple(deal.hand(s) for s in range(game.rules.players)),
        len(deal.arrangements),
        tuple(game.totals),
    )


def illegal_probes(game: Game, rng: random.Random) -> list[tuple[Action, int | None]]:
    """Actions that must be refused now, each with the seat that tries it."""
    deal = game.current
    assert deal is not None
    r = game.rules
    n = r.players
    phase = deal.phase
    seat = deal.to_act
    probes: list[tuple[Action, int | None]] = []
    legal = game.legal_actions()  # lazy in the arrange phase: 72,072 arrangements
    if seat is not None and legal:
        wrong = (seat + 1 + rng.randrange(n - 1)) % n
        probes.append((legal[0], wrong))
    if phase is not Phase.CONTRACT:
        probes.append((Declare(r.contracts[0].id), seat))
    if phase is not Phase.TRUMP:
        probes.append((NameTrump(0), seat))
    if phase is not Phase.RANK:
        probes.append((NameRank(12), seat))
    if phase is not Phase.CALL:
        probes.append((Call(), seat))
    if phase is not Phase.ARRANGE and deal.dealt is not None and seat is not None:
        probes.append((Arrange(tuple(c for c in range(52) if deal.dealt[seat] >> c & 1)), seat))
    if phase is not Phase.TALLY:
        probes.append((EnterTally({}), None))
    if phase is not Phase.PLAY and seat is not None:
        hand = deal.hand(seat)
        if hand:
            probes.append((Play(hand.bit_length() - 1), seat))
        probes.append((Pass(), seat))
    if phase is Phase.CONTRACT:
        available = {c.id for c in deal.available}
        probes += [
            (Declare(c), seat)
            for c in ("salad", "chinese-poker", "king-trumps", "trumps", "bridge")
            if c not in available
        ]
    if phase is Phase.TRUMP:
        probes += [(NameTrump(4), seat), (NameTrump(-1), seat)]
    if phase is Phase.RANK:
        probes += [(NameRank(x), seat) for x in (-1, 13, *(x for x in range(13) if x not in r.domino_ranks))]
    if phase is Phase.CALL and seat is not None:
        legal_pairs = {(c.double, c.redouble) for c in legal if isinstance(c, Call)}
        for _ in range(8):
            dbl = tuple(sorted(rng.sample(range(n), rng.randrange(3))))
            rdbl = tuple(sorted(rng.sample(range(n), rng.randrange(2))))
            if (dbl, rdbl) not in legal_pairs and (len(set(dbl)), len(set(rdbl))) == (len(dbl), len(rdbl)):
                probes.append((Call(double=dbl, redouble=rdbl), seat))
        probes.append((Call(double=(0,), word="maximum"), seat))
        probes.append((Call(word="redouble"), seat))
    if phase is Phase.PLAY and seat is not None:
        hand = deal.hand(seat)
        outside = [c for c in range(52) if not hand >> c & 1]
        probes += [(Play(c), seat) for c in rng.sample(outside, min(3, len(outside)))]
        allowed = engine_legal(game)
        not_legal = [c for c in range(52) if hand >> c & 1 and c not in allowed]
        probes += [(Play(c), seat) for c in not_legal[:3]]
        if None not in allowed:
            probes.append((Pass(), seat))
    if phase is Phase.ARRANGE and seat is not None and deal.dealt is not None:
        mine = [c for c in range(52) if deal.dealt[seat] >> c & 1]
        other = next(c for c in range(52) if not deal.dealt[seat] >> c & 1)
        probes += [(Arrange((*mine[:-1], other)), seat), (Arrange(tuple(mine[:-1])), seat)]
    return probes


def probe(game: Game, rng: random.Random) -> None:
    before = full_snapshot(game)
    quick = fingerprint(game)
    legal = game.legal_actions()  # lazy in the arrange phase: 72,072 arrangements
    sample = list(legal) if len(legal) <= 40 else [legal[i] for i in rng.sample(range(len(legal)), 40)]
    for action in sample:
        assert game.is_legal(action), action
        assert game.is_legal(action, game.to_act), action
    assert fingerprint(game) == quick
    if legal:
        twin = game.copy()
        twin.apply(rng.choice(legal))
        assert fingerprint(game) == quick
    for action, seat in illegal_probes(game, rng):
        assert not game.is_legal(action, seat), (action, seat)
        with pytest.raises(IllegalAction):
            game.apply(action, seat)
        assert fingerprint(game) == quick, (action, seat)
    assert full_snapshot(game) == before


@pytest.mark.parametrize("config", CONFIGS, ids=ids)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_legal_actions_apply_and_illegal_ones_change_nothing(config: tuple[str, dict[str, Any]], seed: int) -> None:
    variant, options = config
    rng = random.Random(seed)
    game = Game.new(variant, options, seed=seed)
    probed_deals = {i for i in range(game.rules.deal_count) if i % 4 == seed % 4}
    last_phase: tuple[int, str] | None = None
    while not game.is_over:
        deal = game.current
        assert deal is not None
        here = (deal.index, game.phase)
        if deal.index in probed_deals and (here != last_phase or rng.random() < 0.1):
            probe(game, rng)
        last_phase = here
        game.apply(choose(game, rng))
    before = full_snapshot(game)
    with pytest.raises(IllegalAction):
        game.apply(Call())
    assert full_snapshot(game) == before
