"""The search bot: settings, budget, the exact endgame, legality in every rule set, and
proof that it sees nothing but its seat's view."""

from __future__ import annotations

import random

import pytest

from barbu import Game, accel, seat_view
from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Play
from barbu.bots import Bot, bot_levels, make_bot
from barbu.bots.card_play import PlayGuide
from barbu.bots.chinese_poker import best_arrangement
from barbu.bots.endgame import distinct_cards, solve
from barbu.bots.estimates import best_trump, trump_order
from barbu.bots.rules_of_thumb import CallTurn, contract_value, pick_call
from barbu.bots.search import CALL_EVIDENCE, TRUMP_EVIDENCE, Budget, CallEvidence, SearchBot
from barbu.cards import RANKS, SUITS, card, cards_of, parse_pbn
from barbu.contracts import Contract, TrickResult
from barbu.deal import Deal, Phase
from barbu.doubling import Pair
from barbu.rulesets import RULE_SETS, Rules, rules
from barbu.tricks import TrickPlay, TrickRules
from barbu.unseen import HiddenCards, WorldDeals, deal_from_view, forced_of, hidden_cards, sample_hands
from barbu.view import SeatView
from test_native import PURE

TINY = {"iterations": 2, "seconds": None}


def test_the_search_level_is_registered_with_its_settings() -> None:
    assert "search" in bot_levels()
    bot = make_bot("search", seed=3, iterations=5, seconds=0.5, endgame=2, rollout="random")
    assert isinstance(bot, SearchBot)
    assert bot.settings() == {"iterations": 5, "seconds": 0.5, "endgame": 2, "rollout": "random"}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": 2.5}, "iterations"),
        ({"seconds": 0}, "seconds"),
        ({"seconds": -1.0}, "seconds"),
        ({"endgame": -1}, "endgame"),
        ({"rollout": "smart"}, "rollout"),
    ],
)
def test_bad_settings_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        SearchBot(**settings)  # type: ignore[arg-type]


def test_the_budget_counts_worlds_and_stops_at_its_time_cap() -> None:
    budget = Budget(5, None)
    assert sum(1 for _ in iter(budget.more, False)) == 5
    capped = Budget(10**9, 0.01)
    count = 0
    while capped.more():
        count += 1
    assert 1 <= count < 10**9


def _play_game(bots: list[Bot], variant: str, options: dict[str, object], seed: int, deals: int) -> Game:
    game = Game.new(variant, options, seed=seed)
    while not game.is_over and len(game.deals) <= deals:
        seat = game.to_act
        assert seat is not None
        game.apply(bots[seat].act(seat_view(game, seat)), seat)
    return game


CASES: list[tuple[str, dict[str, object]]] = [(v, {}) for v in RULE_SETS] + [
    ("salad", {"player_count": 5}),
    ("french", {"player_count": 3}),
    ("classic", {"heart_lead": "broken", "forced_penalty": True, "undertrump_required": True, "rotation": "quick"}),
]


@pytest.mark.parametrize(("variant", "options"), CASES, ids=[f"{v}-{o}" for v, o in CASES])
def test_search_plays_every_rule_set_legally(variant: str, options: dict[str, object]) -> None:
    """Search bots in every seat play the first deals through the checked door: the
    first declarer's set covers the contract choice of every contract."""
    n = rules(variant, options).players
    bots: list[Bot] = [make_bot("search", seed=s, **TINY) for s in range(n)]
    deals = 2
    game = _play_game(bots, variant, options, seed=5, deals=deals)
    assert len(game.finished_deals()) >= deals


def test_search_plays_a_whole_game_to_the_end() -> None:
    bots: list[Bot] = [make_bot("search", seed=1, **TINY)] + [make_bot("heuristic", seed=s) for s in range(1, 4)]
    game = _play_game(bots, "thirty-two", {}, seed=2, deals=99)
    assert game.is_over and sum(game.totals) == 0


def test_search_is_reproducible_without_a_time_cap() -> None:
    def actions() -> list[Action]:
        game = Game.new("classic", seed=9)
        bot = SearchBot(seed=4, iterations=3, seconds=None)
        helpers = [make_bot("heuristic", seed=s) for s in range(4)]
        out: list[Action] = []
        while len(out) < 25:
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            action = bot.act(view) if seat == 0 else helpers[seat].act(view)
            if seat == 0:
                out.append(action)
            game.apply(action, seat)
        return out

    assert actions() == actions()


def _with_other_hands(game: Game, seat: int, seed: int) -> Game:
    """The same game (same actions, same earlier deals) in which the cards ``seat`` cannot see
    in the current deal lie elsewhere, in a way its view allows."""
    view = seat_view(game, seat)
    hidden = hidden_cards(view)
    current = game.current
    assert current is not None and current.dealt is not None
    rng = random.Random(seed)
    for _ in range(50):
        hands = sample_hands(hidden, rng)
        dealt = [hands[s] | hidden.played[s] for s in range(view.players)]
        if dealt != list(current.dealt):
            break
    else:
        pytest.fail(f"seat {seat} has nothing left hidden to place elsewhere: pick an earlier position")
    other = Game(game.rules, game.first_declarer)
    for i, deal in enumerate(game.deals):
        assert deal.dealt is not None
        other.give_hands(dealt if i == current.index else list(deal.dealt))
        for move in game.history:
            if move.deal == i:
                other.apply(move.action, move.seat)
    return other


@pytest.mark.parametrize("level", ["search", "heuristic", "expert"])
def test_a_bot_sees_only_its_view(level: str) -> None:
    """Move the unseen cards around in every way the view allows: the view is the same,
    and so is the bot's decision; it has no other way to look at the cards."""
    game = Game.new("classic", seed=17)
    helpers = [make_bot("heuristic", seed=s) for s in range(4)]
    settings = {"search": TINY, "expert": {"ms": None, "worlds": 2}}.get(level, {})
    checked = 0
    while not game.is_over and len(game.deals) <= 2:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if len(view.legal_actions) > 1 and view.phase in ("play", "call", "contract") and checked < 12:
            other = _with_other_hands(game, seat, seed=checked)
            other_view = seat_view(other, seat)
            assert other.current is not None and game.current is not None
            assert other.current.dealt != game.current.dealt
            assert other_view == view
            mine = make_bot(level, seed=7, **settings).act(view)
            assert make_bot(level, seed=7, **settings).act(other_view) == mine
            checked += 1
        game.apply(helpers[seat].act(view), seat)
    assert checked == 12


def _deal_state(d: Deal) -> tuple[object, ...]:
    play = d.cardplay
    return (
        d.phase,
        d.to_act,
        d.dealt,
        d.contract,
        d.trump,
        d.rank,
        d.plays,
        d.play_seats,
        [(p.doubler, p.doubled, p.multiplier) for p in d.pairs()],
        None if play is None else [getattr(play, name) for name in type(play).__slots__ if name != "_legal"],
        list(d.legal_actions()) if d.phase is not Phase.ARRANGE else None,
    )


def _plain_call_weight(view: SeatView, table: Rules, hands: list[int], hidden: HiddenCards) -> float:
    """The call evidence of a world worked out from scratch: the declarer's trump suit read
    again, a fresh deal, every call replayed."""
    if view.contract is None:
        return 1.0
    dealt = [hands[s] | hidden.played[s] for s in range(view.players)]
    contract = table.contract(view.contract)
    trump = SUITS.index(view.trump) if view.trump is not None else None
    weight = 1.0
    if trump is not None and view.declarer != view.seat:
        assert view.declarer is not None
        declarer_hand = dealt[view.declarer]
        if best_trump(declarer_hand, contract, table)[0] != trump:
            weight *= TRUMP_EVIDENCE
        own = [table.contract(h.contract) for h in view.history if h.declarer == view.declarer]
        everyone = [table.contract(h.contract) for h in view.history]
        left = [c for c in table.available(own, everyone) if c != contract]
        forced = len(forced_of(view, table))
        mine = contract_value(declarer_hand, contract, table, forced)
        if any(contract_value(declarer_hand, c, table, forced) > mine for c in left):
            weight *= TRUMP_EVIDENCE
    if not any(seat != view.seat for seat, _, _, _ in view.calls):
        return weight
    rank = RANKS.index(view.rank) if view.rank is not None else None
    assert view.declarer is not None
    d = Deal(table, view.deal_number - 1, view.declarer, dealt, [contract], forced_of(view, table))
    if d.contract is None:
        d.apply_unchecked(Declare(contract.id))
    if d.phase is Phase.TRUMP and trump is not None:
        d.apply_unchecked(NameTrump(trump))
    elif d.phase is Phase.RANK and rank is not None:
        d.apply_unchecked(NameRank(rank))
    for seat, _, doubles, redoubles in view.calls:
        if seat != view.seat and d.phase is Phase.CALL:
            guess = pick_call(CallTurn.from_deal(d, seat), table)
            misses = len(set(guess.double) ^ set(doubles)) + len(set(guess.redouble) ^ set(redoubles))
            weight *= CALL_EVIDENCE**misses
        d.apply_unchecked(Call(double=doubles, redouble=redoubles))
    return weight


@pytest.mark.parametrize(("variant", "options"), CASES, ids=[f"{v}-{o}" for v, o in CASES])
def test_world_deals_and_call_evidence_match_their_plain_versions(variant: str, options: dict[str, object]) -> None:
    """The search replays a view's public actions once per decision and reads the others'
    call turns once: every world's deal is the deal rebuilt from scratch for its hands (it
    plays out to the same score) and every world's weight the one worked out from scratch."""
    game = Game.new(variant, options, seed=3)
    table = game.rules
    bots = [make_bot("heuristic", seed=s) for s in range(table.players)]
    rng = random.Random(variant)
    checked = 0
    while not game.is_over and len(game.deals) <= 2:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if view.phase in ("call", "play") and len(view.legal_actions) > 1 and rng.random() < 0.3:
            hidden = hidden_cards(view, table)
            worlds = WorldDeals(view, table, hidden)
            evidence = CallEvidence(view, table, hidden)
            for _ in range(3):
                hands = sample_hands(hidden, rng)
                fast, plain = worlds.deal(hands), deal_from_view(view, hands, table, hidden)
                assert _deal_state(fast) == _deal_state(plain)
                assert evidence.weight(hands) == _plain_call_weight(view, table, hands, hidden)
                if fast.phase is Phase.PLAY:
                    finisher = SearchBot(seed=0, iterations=1, seconds=None)
                    assert finisher.finish(fast, PlayGuide.of(fast), seat, exact=False) == finisher.finish(
                        plain, PlayGuide.of(plain), seat, exact=False
                    )
                    assert fast.final == plain.final
                checked += 1
        game.apply(bots[seat].act(view), seat)
    assert checked > 0


def test_the_named_trump_suit_weighs_the_worlds_by_the_declarer_s_length() -> None:
    """A declarer names the suit of its length and honours, with a hand good at Trumps: a
    world that gives it that hand counts fully, one that gives it a hand naming another
    suit and that the rules of thumb would rather declare another contract with counts
    TRUMP_EVIDENCE squared; the
    declarer itself reads nothing from its own choice."""
    hands = [parse_pbn(h) for h in ("Q72.AKJ942..J542", "KT.T753.QJ632.A6", "A93.Q.KT98.KQT83", "J8654.86.A754.97")]
    game = Game(rules("classic"), first_declarer=0)
    game.give_hands(hands)
    game.apply(Declare("trumps"))
    game.apply(NameTrump(SUITS.index("H")))
    view = seat_view(game, 1)
    table = game.rules
    evidence = CallEvidence(view, table, hidden_cards(view, table))
    assert evidence.weight(hands) == 1.0
    swapped = [hands[3], hands[1], hands[2], hands[0]]
    assert evidence.weight(swapped) == TRUMP_EVIDENCE**2
    for _ in range(3):
        game.apply(Call())
    mine = seat_view(game, 0)
    assert CallEvidence(mine, table, hidden_cards(mine, table)).named_trump is None


@pytest.mark.parametrize("contract_id", ["no-tricks", "no-last-two", "no-queens", "no-hearts", "trumps"])
def test_the_endgame_solver_agrees_with_brute_force(contract_id: str) -> None:
    """Trying one card of each group of equivalent cards gives the values of trying all."""
    r = rules("classic")
    contract = r.contract(contract_id)
    rng = random.Random(contract_id)
    for _ in range(6):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[13 * s : 13 * s + 13]) for s in range(4)]
        t = TrickPlay(hands, leader=rng.randrange(4), rules=TrickRules(trump=0 if contract.names_trump else None))
        while t.tricks_total - len(t.winners) > 3:
            t.play(rng.choice(cards_of(t.legal_mask())))
        guide = PlayGuide(contract, r)
        assert solve(t, contract, r, guide, root=1) == _reference_solve(t, contract, r, guide, root=1)


def _reference_solve(t: TrickPlay, contract: Contract, r: Rules, guide: PlayGuide, root: int) -> list[float]:
    """Plain max^n on copies of the trick state: every legal card is tried."""

    def search(node: TrickPlay) -> list[float]:
        if node.finished:
            raw = contract.raw(contract.tally_from_tricks(node.result()), r.shape)
            return [guide.utility(p, raw) for p in range(node.players)]
        seat = node.turn
        best: list[float] | None = None
        for c in cards_of(node.legal_mask()):
            child = node.copy()
            child.play(c)
            v = search(child)
            if best is None or v[seat] > best[seat] + 1e-9 or (v[seat] > best[seat] - 1e-9 and v[root] < best[root]):
                best = v
        assert best is not None
        return best

    return search(t.copy())


def _plain_max_n(
    t: TrickPlay, contract: Contract, r: Rules, guide: PlayGuide, root: int, merge: bool = False
) -> list[float]:
    """Plain max^n on masks, no table of positions: every legal card tried (with ``merge``,
    one of each group of :func:`distinct_cards`); legal cards and trick winners from the
    rules core, every finished line scored by ``contract.raw``."""
    n = t.players
    hands = list(t.hands)
    captured = list(t.captured)
    winners = list(t.winners)
    early = t.rules.early_end

    def score() -> list[float]:
        result = TrickResult(captured=tuple(captured), winners=tuple(winners))
        raw = contract.raw(contract.tally_from_tricks(result), r.shape)
        return [guide.utility(p, raw) for p in range(n)]

    def search(seat: int, leader: int, trick: list[int], played: int) -> list[float]:
        best: list[float] | None = None
        legal = t.legal_for(hands[seat], trick, played)
        cards = distinct_cards(legal, played | hands[seat], guide.card_cost) if merge else cards_of(legal)
        for c in cards:
            hands[seat] ^= 1 << c
            now = [*trick, c]
            if len(now) < n:
                v = search((seat + t.direction) % n, leader, now, played)
            else:
                mask = sum(1 << x for x in now)
                w = t.taker(now, mask, leader)
                captured[w] |= mask
                winners.append(w)
                after = played | mask
                if len(winners) == t.tricks_total or (early and after & early == early):
                    v = score()
                else:
                    v = search(w, w, [], after)
                winners.pop()
                captured[w] ^= mask
            hands[seat] ^= 1 << c
            if best is None or v[seat] > best[seat] + 1e-9 or (v[seat] > best[seat] - 1e-9 and v[root] < best[root]):
                best = v
        assert best is not None
        return best

    return score() if t.finished else search(t.turn, t.leader, list(t.trick), t.played)


def _endgame_positions(
    variant: str, tricks: int, count: int, seed: str, least: int = 0
) -> list[tuple[TrickPlay, Contract, Rules, PlayGuide, int]]:
    """``count`` seeded positions of ``variant``'s trick contracts with a linear score model,
    ``tricks`` tricks before the end and ``least`` to three cards into that trick, random doubles and
    redoubles in place, a random seat as the one the search is for."""
    r = rules(variant)
    contracts = [c for c in r.contracts if accel.score_model(c, r.shape) is not None]
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        contract = contracts[len(out) % len(contracts)]
        deck = cards_of(r.deck)
        rng.shuffle(deck)
        each = r.cards_each
        hands = [sum(1 << c for c in deck[each * s : each * s + each]) for s in range(r.players)]
        t = TrickPlay(hands, leader=rng.randrange(r.players), rules=TrickRules.of(r, contract, rng.randrange(4)))
        while not t.finished and (t.tricks_total - len(t.winners) > tricks or len(t.trick) < rng.randrange(least, 4)):
            t.play(rng.choice(cards_of(t.legal_mask())))
        if t.finished or t.tricks_total - len(t.winners) != tricks:
            continue
        seats = rng.sample(range(r.players), 4)
        pairs = [Pair(seats[0], seats[1], rng.choice((1, 2))), Pair(seats[2], seats[0], 1)][: rng.randrange(3)]
        out.append((t, contract, r, PlayGuide(contract, r, pairs), rng.randrange(r.players)))
    return out


@pytest.mark.parametrize("variant", ["classic", "five-player", "thirty-two"])
def test_the_table_of_positions_gives_the_values_of_plain_max_n(variant: str) -> None:
    """Four tricks before the end (the table finds positions reached by two lines, or that
    differ only in which cards were played), every contract with a linear score, doubles and
    redoubles in place, cards out of play in the two smaller decks: the values of plain max^n
    trying every legal card, and ``t`` left as it was."""
    for t, contract, r, guide, root in _endgame_positions(variant, 4, 6, f"table:{variant}", least=1):
        before = t.copy()
        assert solve(t, contract, r, guide, root) == _plain_max_n(t, contract, r, guide, root)
        for name in TrickPlay.__slots__:
            assert getattr(t, name) == getattr(before, name), name


@pytest.mark.parametrize("variant", ["classic", "thirty-two"])
def test_five_exact_tricks_give_the_values_of_max_n_without_a_table(variant: str) -> None:
    """Five tricks before the end, where the table finds many positions: the values of max^n
    without a table (one card of each group of equivalent cards)."""
    for t, contract, r, guide, root in _endgame_positions(variant, 5, 4, f"five:{variant}", least=2):
        assert solve(t, contract, r, guide, root) == _plain_max_n(t, contract, r, guide, root, merge=True)


def _other_world(t: TrickPlay, keep: int, rng: random.Random) -> TrickPlay:
    """``t`` with the cards of every seat but ``keep`` dealt again among them, each keeping its
    number of cards: another world of the same decision (the same cards out of play)."""
    seats = [s for s in range(t.players) if s != keep]
    cards = [c for s in seats for c in cards_of(t.hands[s])]
    rng.shuffle(cards)
    world = t.copy()
    hands = list(t.hands)
    for s in seats:
        count = len(cards_of(t.hands[s]))
        hands[s], cards = sum(1 << c for c in cards[:count]), cards[count:]
    world.set_hands(hands)
    return world


COMPILED = pytest.param("compiled", marks=[pytest.mark.native, pytest.mark.skipif(PURE, reason="BARBU_PURE=1")])
"""The compiled path of a test run on both (marked ``native``, as :func:`test_native.needs_native`)."""


@pytest.mark.parametrize("path", [COMPILED, "pure"])
@pytest.mark.parametrize("variant", ["classic", "thirty-two"])
def test_positions_kept_from_solve_to_solve_give_the_values_of_plain_max_n(
    variant: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The solves of a decision, one after another as the search runs them: in each world (the
    position and two others dealt again around the seat to act), each candidate card played,
    for two seats searched for; every context's positions kept from solve to solve (the
    compiled table, or ``kept`` on the pure path), and each value that of plain max^n."""
    assert path == "pure" or accel.NATIVE, "the compiled accelerator is not built"
    if path == "pure":
        monkeypatch.setattr(accel, "_native", None)
    rng = random.Random(f"kept:{variant}")
    kept: dict[tuple[object, ...], dict[tuple[object, ...], tuple[int, ...]]] = {}
    solves = 0
    for t, contract, r, guide, root in _endgame_positions(variant, 4, 3, f"kept:{variant}"):
        me = t.turn
        for world in (t, _other_world(t, me, rng), _other_world(t, me, rng)):
            for seat in (me, root):
                for c in cards_of(world.legal_mask()):
                    child = world.copy()
                    child.play(c)
                    assert solve(child, contract, r, guide, seat, kept) == _plain_max_n(child, contract, r, guide, seat)
                    solves += 1
    assert solves > 20
    assert path == "compiled" or kept


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_the_fast_endgame_solver_agrees_with_plain_max_n_in_every_rule_set(variant: str) -> None:
    """The solver keeps its own compact position (asking the rules core which cards are
    legal and who takes each trick) and scores each outcome once; from positions of real
    games (mid-trick too, with the deal's business pairs) it gives exactly the values of
    max^n played on copies of the rules core's state, and leaves that state as it was."""
    checked = 0
    for seed in range(3):
        game = Game.new(variant, seed=seed)
        bots = [make_bot("heuristic", seed=s) for s in range(game.rules.players)]
        while not game.is_over and checked < 6 * (seed + 1):
            deal = game.current
            assert deal is not None
            t = deal.tricks
            if t is not None and t.tricks_total - len(t.winners) <= 3 - (len(t.trick) > 0) and not t.finished:
                assert deal.contract is not None
                guide = PlayGuide.of(deal)
                before = t.copy()
                root = (t.turn + 1) % t.players
                assert solve(t, deal.contract, deal.rules, guide, root) == _reference_solve(
                    t, deal.contract, deal.rules, guide, root
                )
                for name in TrickPlay.__slots__:
                    assert getattr(t, name) == getattr(before, name), name
                checked += 1
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].act(seat_view(game, seat)), seat)
    assert checked > 0


def test_a_card_on_the_table_keeps_the_cards_around_it_apart() -> None:
    """Holding Q and 10 with the J in the trick: the Q wins the trick, the 10 does not."""
    hand = parse_pbn("QT...")
    gone = hand | (1 << card("JS"))  # what was counted as gone when the J lay in the trick
    assert distinct_cards(hand, gone, [0.0] * 52) == [card("TS")]
    assert distinct_cards(hand, hand, [0.0] * 52) == [card("TS"), card("QS")]


def test_equivalent_cards_are_tried_once() -> None:
    hand = parse_pbn("KQJ9.A..")
    gone = hand | (1 << card("TS"))
    assert [c for c in distinct_cards(hand, gone, [0.0] * 52)] == [card("9S"), card("AH")]
    queens_cost = [6.0 if c % 13 == 10 else 0.0 for c in range(52)]
    assert card("QS") in distinct_cards(hand, gone, queens_cost)


def test_trick_play_copies_keep_every_slot() -> None:
    """The search relies on cheap, complete copies of the trick state."""
    t = TrickPlay([parse_pbn(h) for h in ("A2...", "K3...", "Q4...", "J5...")], leader=0, rules=TrickRules(trump=0))
    t.play(card("AS"))
    copy = t.copy()
    for name in TrickPlay.__slots__:
        assert getattr(copy, name) == getattr(t, name), name
    copy.play(card("KS"))
    assert t.trick == [card("AS")] and t.hands[1] >> card("KS") & 1


def test_search_dumps_the_king_of_hearts_where_its_double_pays() -> None:
    """Last to play to the declarer's ace, void, holding K♥ and in business with the
    declarer: the king goes now, on the seat whose loss the double doubles."""
    game = Game(rules("classic"), first_declarer=0)
    hands = ("AKQJT98.AQJ.AK.A", "765.T98.QJT9.KQJ", "432.765.8765.T98", ".K432.432.765432")
    game.give_hands([parse_pbn(h) for h in hands])
    game.apply(Declare("no-king"))
    for _ in range(3):
        game.apply(Call(double=(0,)))
    game.apply(Call())
    for c in ("AS", "7S", "4S"):
        game.apply(Play(card(c)))
    view: SeatView = seat_view(game, 3)
    assert SearchBot(seed=1, iterations=4, seconds=None).act(view) == Play(card("KH"))


def test_search_holds_the_king_when_the_trick_is_not_the_declarer_s() -> None:
    """Seat 1 in business with the declarer only, void in spades, first to discard on a
    low spade lead: its view lets seats 2 and 3 hold the higher spades, so it keeps K♥
    for a trick the declarer wins, where the double makes it pay."""
    game = Game(rules("classic"), first_declarer=0)
    game.give_hands(
        [parse_pbn(h) for h in ("AKQJT98765432...", ".KQJT98765432.A.", "..KQJT98765432.A", ".A..KQJT98765432")]
    )
    game.apply(Declare("no-king"))
    for _ in range(3):
        game.apply(Call(double=(0,)))
    game.apply(Call())
    game.apply(Play(card("2S")))
    action = SearchBot(seed=1, iterations=8, seconds=None).act(seat_view(game, 1))
    assert action != Play(card("KH"))


def test_the_search_tries_trump_suits_in_the_order_that_names_the_declarer_s_suit() -> None:
    """One order of trump suits: the search's first suit is the one the worlds expect a
    declarer to name (``best_trump``), ties in expected tricks going to the longer suit."""
    hand = parse_pbn("A9.J72.Q652.9764")  # spades and diamonds: as many expected tricks
    table = rules("classic")
    trumps = table.contract("trumps")
    assert best_trump(hand, trumps, table)[0] == SUITS.index("D")
    assert SearchBot(seed=0)._choices(hand, trumps, table, 4) == trump_order(hand)
    assert SearchBot(seed=0)._best_choice(hand, trumps, table) == SUITS.index("D")


CALLING = [(v, o) for v, o in CASES if rules(v).doubling]
"""The rule sets with calls."""


@pytest.mark.parametrize(("variant", "options"), CALLING, ids=[f"{v}-{o}" for v, o in CALLING])
def test_simulated_calls_read_once_are_the_rules_of_thumb_calls(variant: str, options: dict[str, object]) -> None:
    """A search decision reads each call turn its simulated deals meet once (by the deal's
    public state) and remembers the call by the hand's edge: every simulated deal is called
    as the rules of thumb call it from scratch, and so plays out to the same score."""
    game = Game.new(variant, options, seed=5)
    table = game.rules
    bots = [make_bot("heuristic", seed=s) for s in range(table.players)]
    rng = random.Random(variant)
    checked = 0
    while not game.is_over and len(game.deals) <= 1:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if view.phase == "call" and len(view.legal_actions) > 1:
            hidden = hidden_cards(view, table)
            worlds = WorldDeals(view, table, hidden)
            bot = SearchBot(seed=0, iterations=1, seconds=None)
            for _ in range(3):
                hands = sample_hands(hidden, rng)
                remembered, plain = worlds.deal(hands), worlds.deal(hands)
                call = rng.choice(view.legal_actions)
                remembered.apply_unchecked(call)
                plain.apply_unchecked(call)
                score = bot.simulate(remembered, seat, exact=False)
                while plain.phase is Phase.CALL:
                    caller = plain.to_act
                    assert caller is not None
                    plain.apply_unchecked(pick_call(CallTurn.from_deal(plain, caller), table))
                while plain.phase is Phase.ARRANGE:
                    arranger = plain.to_act
                    assert arranger is not None and plain.dealt is not None
                    plain.apply_unchecked(Arrange(best_arrangement(plain.dealt[arranger])))
                assert remembered.pairs() == plain.pairs()
                assert score == bot.finish(plain, PlayGuide.of(plain), seat, exact=False)
                checked += 1
        game.apply(bots[seat].act(view), seat)
    assert checked > 0
