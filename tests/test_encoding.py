"""The fixed action space and the observation vector of the research adapters (barbu.research.encoding)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu import Call, Declare, Game, Play, seat_view
from barbu.actions import Arrange
from barbu.bots import legal_choices
from barbu.cards import card, cards_of, mask_of
from barbu.deal import Phase
from barbu.research.encoding import (
    PHASES,
    ActionEncoding,
    GameFacts,
    ObservationEncoding,
    PartialArrangement,
    Place,
    score_unit,
)
from barbu.rulesets import rules

TABLES = [
    ("classic", {}),
    ("ravage-city", {}),
    ("chinese-poker", {}),
    ("salad", {}),
    ("salad", {"player_count": 5}),
    ("five-player", {}),
    ("french", {}),
    ("french", {"player_count": 3}),
    ("french", {"player_count": 5}),
    ("king", {}),
    ("thirty-two", {}),
    ("classic", {"rotation": "quick", "negative_targets": "declarer_only"}),
]


def _play(game: Game, rng: random.Random) -> None:
    """One random legal action (arrangements through the lazy sequence of the core)."""
    seat = game.to_act
    assert seat is not None
    choices = legal_choices(seat_view(game, seat))
    game.apply(choices[rng.randrange(len(choices))], seat)


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_every_legal_action_has_its_own_index_and_comes_back(variant: str, options: dict[str, object]) -> None:
    game = Game.new(variant, options, seed=11)
    actions = ActionEncoding(game.rules)
    rng = random.Random(5)
    for _ in range(400):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        if view.phase != "arrange":
            indexes = actions.indexes(view.legal_actions, seat)
            assert len(set(indexes)) == len(view.legal_actions)
            assert all(0 <= i < actions.size for i in indexes)
            for a, i in zip(view.legal_actions, [actions.index(a, seat) for a in view.legal_actions], strict=True):
                assert actions.action(i, seat) == a
                assert actions.describe(i, seat)
            assert np.flatnonzero(actions.mask(view)).tolist() == indexes
            for other in range(game.rules.players):
                if other != seat:
                    assert not actions.mask(seat_view(game, other)).any()
        _play(game, rng)


def test_layout_sizes_follow_the_rule_set() -> None:
    classic = ActionEncoding(rules("classic"))
    assert [len(r) for r in classic.sections.values()] == [52, 1, 7, 4, 13, 64, 0]
    five = ActionEncoding(rules("five-player"))
    assert len(five.sections["call"]) == 256
    assert len(ActionEncoding(rules("chinese-poker")).sections["place"]) == 52
    assert len(ActionEncoding(rules("king")).sections["call"]) == 0


def test_a_call_is_two_seat_sets_counted_from_the_callers_left() -> None:
    actions = ActionEncoding(rules("five-player"))
    index = actions.call_index([0, 2], [4], seat=3)
    assert actions.action(index, 3) == Call(double=(0, 2), redouble=(4,))
    assert actions.describe(index, 3) == "call double P0 P2, redouble P4"
    assert actions.action(actions.call_index([], [], seat=1), 1) == Call()
    with pytest.raises(ValueError, match="itself"):
        actions.call_index([3], [], seat=3)
    with pytest.raises(ValueError, match="lists"):
        actions.index(Call(word="maximum"), 0)
    with pytest.raises(ValueError, match="no doubling"):
        ActionEncoding(rules("king")).call_index([1], [], seat=0)


def test_out_of_range_and_foreign_actions_are_refused() -> None:
    actions = ActionEncoding(rules("classic"))
    with pytest.raises(ValueError, match="0 to 140"):
        actions.action(141, 0)
    with pytest.raises(ValueError, match="not a contract of classic"):
        actions.index(Declare("salad"), 0)
    with pytest.raises(ValueError, match="no Chinese poker"):
        actions.index(Place(3), 0)
    with pytest.raises(ValueError, match="Place"):
        actions.index(Arrange(tuple(range(13))), 0)


def test_an_arrangement_is_ten_placed_cards_and_the_front_is_what_is_left() -> None:
    hand = mask_of(range(13))
    building = PartialArrangement(hand)
    for c in range(9, -1, -1):
        assert building.cards() == [x for x in range(13) if x not in building.placed]
        result = building.place(c)
    assert result == Arrange((9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 10, 11, 12))
    with pytest.raises(ValueError, match="cannot be placed"):
        PartialArrangement(hand).place(card("AH"))
    again = PartialArrangement(hand, [1])
    with pytest.raises(ValueError, match="cannot be placed"):
        again.place(1)


@pytest.mark.parametrize(("variant", "options"), TABLES)
def test_the_vector_says_everything_the_text_says(variant: str, options: dict[str, object]) -> None:
    """The text rebuilt from the vector equals the text read from the view, for every seat."""
    game = Game.new(variant, options, seed=3)
    encoding = ObservationEncoding(game.rules)
    rng = random.Random(8)
    steps = 0
    while not game.is_over and steps < 450:
        if steps % 3 == 0 or game.phase in ("call", "arrange"):
            for seat in range(game.rules.players):
                view = seat_view(game, seat)
                vector = encoding.encode(view)
                assert vector.dtype == np.float32 and vector.shape == (encoding.size,)
                assert (vector >= encoding.low).all() and (vector <= encoding.high).all()
                assert encoding.decode(vector) == encoding.text(view)
        _play(game, rng)
        steps += 1


@pytest.mark.parametrize("variant", ["classic", "french"])
def test_the_game_facts_grown_deal_by_deal_are_those_read_from_the_start(variant: str) -> None:
    game = Game.new(variant, seed=5)
    encoding = ObservationEncoding(game.rules)
    grown = GameFacts(encoding)
    rng = random.Random(2)
    starts = 0
    while not game.is_over:
        deals = len(game.deals)
        _play(game, rng)
        if len(game.deals) != deals or game.is_over:
            starts += 1
            assert grown.read(game.deals, game.totals) == GameFacts(encoding).read(game.deals, game.totals)
    doubled = [f for f in grown.read(game.deals, game.totals).doubles if f]
    assert starts == len(game.deals) and (doubled or not game.rules.doubling)
    cut = game.copy()
    cut.deals = cut.deals[:3]  # a list that is not the one grown: read again from its start
    assert grown.read(cut.deals, game.totals) == GameFacts(encoding).read(cut.deals, game.totals)
    assert grown.read(game.deals[:2], game.totals) == GameFacts(encoding).read(game.deals[:2], game.totals)


def test_the_vector_rebuilds_a_finished_game_and_an_arrangement_in_progress() -> None:
    game = Game.new("chinese-poker", seed=2)
    encoding = ObservationEncoding(game.rules)
    rng = random.Random(1)
    while not game.is_over:
        if game.phase == "arrange":
            seat = game.to_act
            assert seat is not None
            deal = game.current
            assert deal is not None and deal.dealt is not None
            placed = cards_of(deal.dealt[seat])[:7]
            view = seat_view(game, seat)
            vector = encoding.encode(view, placed)
            text = encoding.text(view, placed)
            assert encoding.decode(vector) == text
            assert "arrangement " in text and "| -" in text
            assert not (encoding.part(vector, "hand") * encoding.part(vector, "arrangement")).any()
        _play(game, rng)
    for seat in range(4):
        view = seat_view(game, seat)
        text = encoding.text(view)
        assert "· over ·" in text.splitlines()[0]
        assert encoding.decode(encoding.encode(view)) == text


def test_the_text_names_each_part_of_a_known_position() -> None:
    game = Game.new("classic", seed=3, first_declarer=0)
    game.apply(Declare("no-queens"))
    game.apply(Call(double=(0, 2)))
    game.apply(Call())
    game.apply(Call())
    game.apply(Call(redouble=(1,)))
    deal = game.current
    assert deal is not None
    lead = min(cards_of(deal.legal_mask()))
    game.apply(Play(lead))
    view = seat_view(game, 2)
    encoding = ObservationEncoding(game.rules)
    text = encoding.text(view)
    lines = text.splitlines()
    assert lines[0] == "P2 · deal 1 of 28 · play · to act P1 · declarer P0"
    assert lines[1] == "contract no-queens · trump - · rank -"
    assert "r1 P1 double P0 P2 redouble -" in text and "r1 P0 double - redouble P1" in text
    assert "pairs P1>P0 x2 P1>P2 x1" in text
    assert f"tricks P0 {Play(lead)}" in text
    assert encoding.decode(encoding.encode(view)) == text
    assert len(PHASES) == encoding.sections["phase"].size


def test_scores_are_divided_by_the_score_unit() -> None:
    game = Game.new("classic", seed=9)
    rng = random.Random(2)
    while len(game.deals) < 3:
        _play(game, rng)
    encoding = ObservationEncoding(game.rules)
    view = seat_view(game, 1)
    totals = encoding.part(encoding.encode(view), "totals")
    unit = score_unit(game.rules)
    assert [round(float(t) * unit) for t in totals] == [game.totals[(1 + k) % 4] for k in range(4)]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 6))
def test_the_vector_does_not_depend_on_the_cards_a_seat_cannot_see(seed: int, steps: int) -> None:
    """Two tables that differ only in the other seats' hands give the seat the same vector."""
    r = rules("classic")
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [mask_of(deck[13 * s : 13 * s + 13]) for s in range(4)]
    swapped = [hands[0], hands[3], hands[1], hands[2]]
    games = []
    for given_hands in (hands, swapped):
        game = Game(r, first_declarer=1)
        game.give_hands(given_hands)
        games.append(game)
    actions_rng = random.Random(seed)
    for _ in range(steps):
        if games[0].phase not in ("contract", "trump", "rank", "call"):
            break
        choice = actions_rng.choice(list(games[0].legal_actions()))
        for game in games:
            game.apply(choice)
    encoding = ObservationEncoding(r)
    first, second = (encoding.encode(seat_view(g, 0)) for g in games)
    assert np.array_equal(first, second)
    other = (encoding.encode(seat_view(g, 2)) for g in games)
    assert not np.array_equal(*other)


def test_a_spectator_has_no_observation() -> None:
    game = Game.new("classic", seed=1)
    with pytest.raises(ValueError, match="spectator"):
        ObservationEncoding(game.rules).encode(seat_view(game, None))


def test_a_vector_of_the_wrong_size_is_refused() -> None:
    with pytest.raises(ValueError, match="entries"):
        ObservationEncoding(rules("classic")).decode(np.zeros(5, np.float32))


def test_call_indexes_are_remembered_by_the_listing_itself_not_a_copy_of_it() -> None:
    import pickle

    from barbu.doubling import Doubling

    game = Game.new("classic", seed=4)
    encoding = ActionEncoding(game.rules)
    deal = game.current
    assert deal is not None
    while deal.phase != "call":
        _play(game, random.Random(0))
    assert deal.doubling is not None
    seat = deal.to_act
    assert seat is not None
    listed = deal.doubling.listed_calls()
    expected = sorted(encoding.index(c, seat) for c in deal.legal_actions())
    assert list(encoding.call_indexes(listed, seat)) == expected
    assert encoding.call_indexes(listed, seat) is encoding.call_indexes(listed, seat)
    assert [encoding.listed_call(listed, seat, i) for i in expected] == sorted(
        listed, key=lambda c: encoding.index(c, seat)
    )
    assert all(encoding.listed_call(listed, seat, i) is c for c in listed for i in [encoding.index(c, seat)])
    copied = pickle.loads(pickle.dumps(encoding))
    (stored, *_), *_ = copied._call_indexes.values()
    assert stored is not listed  # a copy under the original's identity: not taken for it
    assert copied.listed_call(listed, seat, encoding.index(listed[-1], seat)) is listed[-1]
    assert list(copied.call_indexes(listed, seat)) == expected
    assert copied._call_indexes[(id(listed), seat)][0] is listed  # worked out again from the listing
    assert isinstance(deal.doubling, Doubling) and deal.doubling.legal_calls() == list(listed)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", None),
        ("classic", {"negative_targets": "declarer_only"}),
        ("five-player", None),
        ("thirty-two", None),
        ("king", None),
        ("ravage-city", None),
        ("chinese-poker", None),
    ],
)
def test_the_declarers_choice_indexes_are_the_indexes_of_its_legal_actions(
    variant: str, options: dict[str, object] | None
) -> None:
    """``choice_indexes`` of a deal at its contract choice, and after each contract at its trump
    or domino rank choice, is :meth:`indexes` of ``Deal.legal_actions`` there, over a seeded
    game's first deals (the contracts left shrink deal by deal)."""
    game = Game.new(variant, options, seed=5)
    encoding = ActionEncoding(game.rules)
    rng = random.Random(5)
    seen: dict[Phase, int] = {Phase.CONTRACT: 0, Phase.TRUMP: 0, Phase.RANK: 0}
    while len(game.deals) <= 4 and not game.is_over:
        deal = game.current
        assert deal is not None
        if deal.phase is Phase.CONTRACT:
            for declared in [None, *deal.legal_actions()]:
                probe = deal.copy()
                if declared is not None:
                    probe.apply(declared)
                if probe.phase in seen:
                    seat = probe.to_act
                    assert seat is not None
                    expected = encoding.indexes(probe.legal_actions(), seat)
                    assert encoding.choice_indexes(probe) == expected and expected
                    seen[probe.phase] += 1
        game.apply(rng.choice(game.legal_actions()))
    assert seen[Phase.CONTRACT] >= 4 and seen[Phase.TRUMP] >= 1
    assert seen[Phase.RANK] >= (variant != "king")  # king deals no domino
    while game.phase in seen:  # on to the calls or the card play
        game.apply(rng.choice(game.legal_actions()))
    deal = game.current
    assert deal is not None and deal.phase not in seen
    with pytest.raises(ValueError, match="not at a choice"):
        encoding.choice_indexes(deal)
