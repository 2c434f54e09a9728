"""Rule sets, their values and their options (RULES.md §4 and §6), as printed in RULES.md."""

from __future__ import annotations

import json
from typing import Any

import pytest

from barbu import RULE_SETS, OptionsError, card, rules
from barbu.cards import RANKS, cards_of

# -- the table of §4 -----------------------------------------------------------------------

# name, options, players, deck size, cards each, K, deals, doubling, block rotation
SHAPES = [
    ("classic", {}, 4, 52, 13, 7, 28, True, True),
    ("ravage-city", {}, 4, 52, 13, 8, 32, True, True),
    ("chinese-poker", {}, 4, 52, 13, 9, 36, True, True),
    ("salad", {}, 4, 52, 13, 6, 24, True, True),
    ("salad", {"player_count": 5}, 5, 50, 10, 6, 30, True, True),
    ("five-player", {}, 5, 50, 10, 7, 35, True, True),
    ("french", {"player_count": 3}, 3, 51, 17, 8, 24, False, False),
    ("french", {}, 4, 52, 13, 8, 32, False, False),
    ("french", {"player_count": 5}, 5, 50, 10, 8, 40, False, False),
    ("king", {}, 4, 52, 13, 5, 20, False, False),
    ("thirty-two", {}, 4, 32, 8, 7, 28, True, True),
    ("french-two-decks", {}, 6, 102, 17, 8, 48, False, False),
    ("french-two-decks", {"player_count": 7}, 7, 98, 14, 8, 56, False, False),
    ("french-two-decks", {"player_count": 8}, 8, 104, 13, 8, 64, False, False),
    ("french-two-decks", {"player_count": 8, "tarot_king": True}, 8, 96, 12, 8, 64, False, False),
]


@pytest.mark.parametrize("name, opts, players, deck, each, k, deals, doubling, block", SHAPES)
def test_rule_set_shapes(
    name: str, opts: dict[str, Any], players: int, deck: int, each: int, k: int, deals: int, doubling: bool, block: bool
) -> None:
    r = rules(name, opts)
    assert r.players == players
    assert r.deck.bit_count() == deck == len(r.deck_cards)
    assert r.cards_each == each
    assert r.contracts_per_declarer == k
    assert r.deal_count == deals
    assert r.doubling is doubling
    assert (not r.ruleset.fixed_rotation) is block


def test_every_rule_set_of_the_table_exists_in_order() -> None:
    assert list(RULE_SETS) == [
        "classic",
        "ravage-city",
        "chinese-poker",
        "salad",
        "five-player",
        "french",
        "king",
        "thirty-two",
        "french-two-decks",
    ]


@pytest.mark.parametrize(
    "name, opts, removed",
    [
        ("classic", {}, []),
        ("salad", {"player_count": 5}, ["2S", "2C"]),
        ("five-player", {}, ["2C", "2D"]),
        ("french", {"player_count": 3}, ["2C"]),
        ("french", {}, []),
        ("french", {"player_count": 5}, ["2S", "2C"]),
    ],
)
def test_removed_cards(name: str, opts: dict[str, Any], removed: list[str]) -> None:
    r = rules(name, opts)
    gone = {card(c) for c in removed}
    assert set(r.deck_cards) == set(range(52)) - gone


def test_thirty_two_deck_is_seven_to_ace() -> None:
    r = rules("thirty-two")
    assert {RANKS[c % 13] for c in cards_of(r.deck)} == set("789TJQKA")
    assert all(len([c for c in r.deck_cards if c // 13 == s]) == 8 for s in range(4))


# -- values: the contract totals T of §4 ------------------------------------------------------------

TOTALS: list[tuple[str, dict[str, Any], dict[str, int]]] = [
    (
        "classic",
        {},
        {
            "no-tricks": -26,
            "no-hearts": -30,
            "no-queens": -24,
            "no-king": -20,
            "no-last-two": -30,
            "trumps": 65,
            "domino": 65,
        },
    ),
    (
        "ravage-city",
        {},
        {
            "no-tricks": -39,
            "no-hearts": -30,
            "no-queens": -32,
            "no-king": -21,
            "no-last-two": -30,
            "trumps": 91,
            "domino": 85,
            "ravage-city": -24,
        },
    ),
    (
        "chinese-poker",
        {},
        {
            "no-tricks": -39,
            "no-hearts": -30,
            "no-queens": -32,
            "no-king": -21,
            "no-last-two": -30,
            "trumps": 91,
            "domino": 85,
            "ravage-city": -24,
            "chinese-poker": 0,
        },
    ),
    (
        "five-player",
        {},
        {
            "no-tricks": -20,
            "no-hearts": -30,
            "no-queens": -24,
            "no-king": -20,
            "no-last-two": -30,
            "trumps": 50,
            "domino": 74,
        },
    ),
    (
        "thirty-two",
        {},
        {
            "no-tricks": -16,
            "no-hearts": -20,
            "no-queens": -24,
            "no-king": -20,
            "no-last-two": -30,
            "trumps": 40,
            "domino": 70,
        },
    ),
    (
        "salad",
        {},
        {"no-tricks": -65, "no-hearts": -130, "no-queens": -80, "no-king": -50, "no-last-two": -30, "salad": -355},
    ),
    (
        "salad",
        {"player_count": 5},
        {"no-tricks": -50, "no-hearts": -130, "no-queens": -80, "no-king": -50, "no-last-two": -30, "salad": -340},
    ),
    (
        "french",
        {"player_count": 3},
        {
            "no-tricks": 85,
            "no-hearts": 65,
            "no-queens": 80,
            "no-king": 80,
            "salad": 310,
            "more-tricks": -85,
            "first-and-last": 80,
            "domino": 0,
        },
    ),
    (
        "french",
        {},
        {
            "no-tricks": 65,
            "no-hearts": 65,
            "no-queens": 80,
            "no-king": 80,
            "salad": 290,
            "more-tricks": -65,
            "first-and-last": 80,
            "domino": -10,
        },
    ),
    (
        "french",
        {"player_count": 5},
        {
            "no-tricks": 50,
            "no-hearts": 65,
            "no-queens": 80,
            "no-king": 80,
            "salad": 275,
            "more-tricks": -50,
            "first-and-last": 80,
            "domino": 0,
        },
    ),
    (
        "king",
        {},
        {
            "king-no-king": -320,
            "king-no-queens": -400,
            "king-no-boys": -480,
            "king-no-hearts": -390,
            "king-no-last-two": -360,
            "king-no-tricks": -650,
            "king-trumps": 650,
        },
    ),
]


@pytest.mark.parametrize("name, opts, totals", TOTALS)
def test_contracts_in_table_order_with_their_totals(name: str, opts: dict[str, Any], totals: dict[str, int]) -> None:
    r = rules(name, opts)
    assert [c.id for c in r.contracts] == list(totals)
    assert {c.id: r.total(c) for c in r.contracts} == totals


@pytest.mark.parametrize(
    "name, opts, set_total",
    [
        ("classic", {}, 0),
        ("ravage-city", {}, 0),
        ("chinese-poker", {}, 0),
        ("five-player", {}, 0),
        ("thirty-two", {}, 0),
        ("salad", {}, -710),
        ("salad", {"player_count": 5}, -680),
        ("ravage-city", {"ravage_city_total": -36}, -12),
    ],
)
def test_one_set_sums_as_the_table_says(name: str, opts: dict[str, Any], set_total: int) -> None:
    r = rules(name, opts)
    assert r.set_total() == set_total
    assert r.game_total() == r.players * set_total


def test_king_game_sums_to_zero_and_has_no_set_total() -> None:
    r = rules("king")
    assert r.set_total() is None
    assert r.game_total() == 0


def test_positive_and_negative_halves() -> None:
    neg = {"classic": -130, "ravage-city": -176, "five-player": -124, "thirty-two": -110}
    for name, half in neg.items():
        r = rules(name)
        assert sum(r.total(c) for c in r.contracts if c.doubling_class == "negative") == half
        assert sum(r.total(c) for c in r.contracts if c.doubling_class == "positive") == -half


def test_doubling_classes() -> None:
    classes = {c.id: c.doubling_class for c in rules("chinese-poker").contracts}
    assert classes == {
        "no-tricks": "negative",
        "no-hearts": "negative",
        "no-queens": "negative",
        "no-king": "negative",
        "no-last-two": "negative",
        "trumps": "positive",
        "domino": "positive",
        "ravage-city": "negative",
        "chinese-poker": "negative",
    }
    assert all(c.doubling_class == "negative" for c in rules("salad").contracts)


# -- default flags per rule set -------------------------------------------------------------------


def test_classic_flag_defaults() -> None:
    f = rules("classic").flags
    assert (f.rotation, f.must_trump_when_void, f.overtrump_required, f.undertrump_required) == (
        "block",
        True,
        True,
        False,
    )
    assert (f.heart_lead, f.forced_penalty, f.early_end) == ("strict", False, True)
    assert (f.negative_targets, f.positive_targets, f.late_redouble, f.flanks_redoubles) == (
        "any",
        "declarer_only",
        True,
        False,
    )
    assert (f.compulsory_doubles, f.skip_undoubled_negative, f.domino_values) == (2, True, (45, 20, 5, -5))
    assert (f.domino_start, f.domino_ace_replays, f.removed_card_rule) == ("named", False, "laid")
    assert (f.ravage_city_total, f.first_five_only) == (-24, False)


@pytest.mark.parametrize(
    "name, opts, values",
    [
        ("ravage-city", {}, (50, 25, 10, 0)),
        ("chinese-poker", {}, (50, 25, 10, 0)),
        ("five-player", {}, (45, 25, 10, 0, -6)),
        ("thirty-two", {}, (45, 20, 5, 0)),
        ("french", {"player_count": 3}, (-40, 0, 40)),
        ("french", {}, (-50, -20, 20, 40)),
        ("french", {"player_count": 5}, (-50, -25, 0, 25, 50)),
    ],
)
def test_domino_values_per_rule_set(name: str, opts: dict[str, Any], values: tuple[int, ...]) -> None:
    assert rules(name, opts).flags.domino_values == values


def test_french_and_king_flag_defaults() -> None:
    f = rules("french").flags
    assert (f.domino_start, f.domino_ace_replays) == ("first_card", True)
    k = rules("king").flags
    assert (k.heart_lead, k.forced_penalty, k.overtrump_required, k.undertrump_required) == (
        "broken",
        True,
        False,
        True,
    )
    assert rules("king").direction == -1 and rules("classic").direction == 1


def test_options_override_defaults_and_are_kept_as_given() -> None:
    r = rules("king", {"heart_lead": "strict", "forced_penalty": False})
    assert (r.flags.heart_lead, r.flags.forced_penalty) == ("strict", False)
    assert r.as_options() == {"heart_lead": "strict", "forced_penalty": False}
    r = rules("classic", {"domino_values": [40, 20, 5, 0]})
    assert r.flags.domino_values == (40, 20, 5, 0)
    assert r.total(r.contract("domino")) == 65
    assert r.as_options() == {"domino_values": [40, 20, 5, 0]}


def test_first_five_only_plays_the_first_five_french_contracts() -> None:
    r = rules("french", {"first_five_only": True})
    assert [c.id for c in r.contracts] == ["no-tricks", "no-hearts", "no-queens", "no-king", "salad"]
    assert r.deal_count == 20
    assert rules("french", {"player_count": 3, "first_five_only": True}).deal_count == 15


def test_ravage_city_total_option() -> None:
    r = rules("ravage-city", {"ravage_city_total": -36})
    assert r.total(r.contract("ravage-city")) == -36
    r = rules("chinese-poker", {"ravage_city_total": -48})
    assert r.total(r.contract("ravage-city")) == -48


def test_unknown_contract_of_a_rule_set() -> None:
    with pytest.raises(OptionsError, match="not a contract of classic"):
        rules("classic").contract("salad")


# -- validation ---------------------------------------------------------------------------------------


def test_unknown_variant_lists_the_rule_sets() -> None:
    with pytest.raises(OptionsError, match="rule sets are: classic, ravage-city"):
        rules("bridge")


def test_unknown_flag_lists_the_flags() -> None:
    with pytest.raises(OptionsError, match=r"unknown flag 'colour'.*heart_lead"):
        rules("classic", {"colour": "red"})


@pytest.mark.parametrize(
    "flag, value, hint",
    [
        ("rotation", "slow", "'block', 'quick'"),
        ("heart_lead", "never", "'strict', 'broken', 'free'"),
        ("heart_lead", True, "'strict'"),
        ("negative_targets", "all", "'any', 'declarer_only'"),
        ("positive_targets", "none", "'declarer_only', 'any'"),
        ("domino_start", "ace", "'named', 'first_card'"),
        ("removed_card_rule", "skip", "'laid', 'forbid_rank'"),
        ("must_trump_when_void", "yes", "true or false"),
        ("overtrump_required", 1, "true or false"),
        ("undertrump_required", None, "true or false"),
        ("forced_penalty", "true", "true or false"),
        ("early_end", 0, "true or false"),
        ("late_redouble", "no", "true or false"),
        ("flanks_redoubles", 1, "true or false"),
        ("skip_undoubled_negative", "off", "true or false"),
        ("domino_ace_replays", 2, "true or false"),
        ("compulsory_doubles", -1, "from 0 to 7"),
        ("compulsory_doubles", 8, "from 0 to 7"),
        ("compulsory_doubles", True, "from 0 to 7"),
        ("compulsory_doubles", 1.0, "from 0 to 7"),
        ("compulsory_doubles", "2", "from 0 to 7"),
        ("domino_values", [45, 20, 5], "list of 4 integers"),
        ("domino_values", [45, 20, 5, -5, 0], "list of 4 integers"),
        ("domino_values", [45, 20, 5, "x"], "list of 4 integers"),
        ("domino_values", [45, 20, 5, True], "list of 4 integers"),
        ("domino_values", 65, "list of 4 integers"),
    ],
)
def test_bad_values_are_refused_with_what_is_allowed(flag: str, value: Any, hint: str) -> None:
    with pytest.raises(OptionsError, match=hint.replace("(", r"\(")):
        rules("classic", {flag: value})


@pytest.mark.parametrize("value", [-30, 0, 12, 24, -24.0, "−24", True, None])
def test_ravage_city_total_must_be_a_negative_multiple_of_twelve(value: Any) -> None:
    with pytest.raises(OptionsError, match="negative multiple of 12"):
        rules("ravage-city", {"ravage_city_total": value})


def test_compulsory_doubles_range_is_per_rule_set() -> None:
    assert rules("ravage-city", {"compulsory_doubles": 8}).flags.compulsory_doubles == 8
    assert rules("chinese-poker", {"compulsory_doubles": 9}).flags.compulsory_doubles == 9
    assert rules("salad", {"compulsory_doubles": 6}).flags.compulsory_doubles == 6
    with pytest.raises(OptionsError, match="from 0 to 6"):
        rules("salad", {"compulsory_doubles": 7})
    assert rules("classic", {"compulsory_doubles": 0}).flags.compulsory_doubles == 0


def test_domino_values_length_follows_the_player_count() -> None:
    assert rules("five-player", {"domino_values": [5, 4, 3, 2, 1]}).flags.domino_values == (5, 4, 3, 2, 1)
    with pytest.raises(OptionsError, match="list of 5 integers"):
        rules("five-player", {"domino_values": [45, 20, 5, -5]})
    assert rules("french", {"player_count": 3, "domino_values": [1, 2, 3]}).flags.domino_values == (1, 2, 3)
    with pytest.raises(OptionsError, match="list of 3 integers"):
        rules("french", {"player_count": 3, "domino_values": [1, 2, 3, 4]})


@pytest.mark.parametrize(
    "name, flag, value",
    [
        (name, flag, value)
        for name in ("french", "king")
        for flag, value in (
            ("negative_targets", "any"),
            ("positive_targets", "declarer_only"),
            ("late_redouble", True),
            ("flanks_redoubles", False),
            ("compulsory_doubles", 2),
            ("skip_undoubled_negative", True),
            ("rotation", "block"),
        )
    ],
)
def test_doubling_flags_and_rotation_do_not_apply_without_doubling(name: str, flag: str, value: Any) -> None:
    with pytest.raises(OptionsError, match=f"{flag} does not apply to {name}"):
        rules(name, {flag: value})


@pytest.mark.parametrize(
    "name", ["classic", "ravage-city", "chinese-poker", "salad", "five-player", "king", "thirty-two"]
)
def test_first_five_only_is_french_only(name: str) -> None:
    with pytest.raises(OptionsError, match="french and french-two-decks only"):
        rules(name, {"first_five_only": True})


@pytest.mark.parametrize("name", ["classic", "salad", "five-player", "french", "king", "thirty-two"])
def test_ravage_city_total_only_where_ravage_city_is_played(name: str) -> None:
    with pytest.raises(OptionsError, match="ravage-city and chinese-poker only"):
        rules(name, {"ravage_city_total": -24})


@pytest.mark.parametrize(
    "name, players",
    [("classic", 4), ("ravage-city", 4), ("chinese-poker", 4), ("five-player", 5), ("king", 4), ("thirty-two", 4)],
)
def test_player_count_is_refused_where_the_count_is_fixed_even_when_equal(name: str, players: int) -> None:
    with pytest.raises(OptionsError, match="player_count does not apply"):
        rules(name, {"player_count": players})


@pytest.mark.parametrize(
    "name, bad", [("salad", 3), ("salad", 6), ("french", 2), ("french", 6), ("salad", "5"), ("french", True)]
)
def test_player_count_must_be_allowed(name: str, bad: Any) -> None:
    shown = repr(bad) if isinstance(bad, str) else json.dumps(bad)  # as written on a command line: true, not True
    with pytest.raises(OptionsError, match=f"player_count {shown} is not allowed in {name}"):
        rules(name, {"player_count": bad})


@pytest.mark.parametrize(
    "name, flag, value",
    [
        ("classic", "domino_start", "first_card"),
        ("classic", "domino_ace_replays", True),
        ("classic", "removed_card_rule", "forbid_rank"),
        ("classic", "forced_penalty", True),
        ("king", "domino_values", [1, 2, 3, 4]),
        ("king", "heart_lead", "free"),
        ("french", "must_trump_when_void", False),
        ("salad", "rotation", "quick"),
        ("thirty-two", "rotation", "quick"),
        ("five-player", "flanks_redoubles", True),
    ],
)
def test_other_flags_are_accepted_everywhere(name: str, flag: str, value: Any) -> None:
    assert getattr(rules(name, {flag: value}).flags, flag) == (tuple(value) if isinstance(value, list) else value)


def test_options_error_is_a_value_error() -> None:
    assert issubclass(OptionsError, ValueError)
