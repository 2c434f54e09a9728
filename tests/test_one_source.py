"""Each fact of the rules written once in the core: contracts' play facts, the tally keys,
the schedule, the flags that apply, the trick rules and the sign of the points."""

from __future__ import annotations

import dataclasses
import random

import pytest

from barbu import Game
from barbu.bots.card_play import contract_costs
from barbu.contracts import Contract, NoKing, NoQueens, RavageCity, Trumps
from barbu.rulesets import REFUSED_WHERE_IDLE, RULE_SETS, Rules, RuleSet, applicable_flags, rules
from barbu.schedule import FixedOrder, OnceEach, Quotas
from barbu.server.lobby import rule_sets
from barbu.tally import check_tally
from barbu.tally_keys import KINDS, TALLY_KEYS, tally_table
from barbu.tricks import TrickPlay, TrickRules


def every_table() -> list[Rules]:
    """Every rule set at every player count it allows."""
    return [
        rules(name, {"player_count": n} if len(rs.player_counts) > 1 else {})
        for name, rs in RULE_SETS.items()
        for n in rs.player_counts
    ]


def every_contract() -> list[tuple[Rules, Contract]]:
    return [(r, c) for r in every_table() for c in r.ruleset.contracts[r.players]]


@pytest.mark.parametrize("table, contract", every_contract(), ids=lambda x: getattr(x, "id", getattr(x, "name", "")))
def test_every_contract_of_every_rule_set_has_costs(table: Rules, contract: Contract) -> None:
    cards, tricks, kind = contract_costs(contract, table)
    assert len(cards) == 52 * table.ruleset.decks and len(tricks) == table.cards_each
    assert kind in ("avoid", "take", "ravage", "domino", "arrange")
    assert kind in ("domino", "arrange") or contract.play == "tricks"
    assert not any(cards[c] for c in range(len(cards)) if not table.deck >> c & 1), (
        "a card out of the deck costs nothing"
    )
    facts = contract.play_facts(table.shape)
    if contract.play == "tricks" and not facts.longest_suit:
        # The play facts and the scoring are two views of one contract: they add up alike.
        assert sum(facts.cards) + sum(facts.tricks) == contract.total(table.shape)
        assert any(facts.cards) or any(facts.tricks), "a trick contract whose cards and tricks cost nothing"


@pytest.mark.parametrize("table, contract", every_contract(), ids=lambda x: getattr(x, "id", getattr(x, "name", "")))
def test_every_tally_key_of_every_contract_is_in_the_table(table: Rules, contract: Contract) -> None:
    for key in contract.tally_keys():
        assert TALLY_KEYS[key].kind in KINDS
        if contract.play == "tricks":
            assert TALLY_KEYS[key].fill is not None


@pytest.mark.parametrize("variant", ["classic", "ravage-city", "salad", "french", "king", "thirty-two"])
def test_a_played_deal_fills_a_tally_the_checks_accept(variant: str) -> None:
    game = Game.new(variant, seed=11)
    rng = random.Random(4)
    while not game.is_over and len(game.finished_deals()) < 6:
        game.apply(rng.choice(list(game.legal_actions())))
    for deal in game.finished_deals():
        if deal.tally is not None and deal.contract is not None:
            assert check_tally(dict(deal.tally), deal.contract, game.rules) == deal.tally


def test_the_tally_table_gives_kinds_labels_and_totals() -> None:
    r = rules("thirty-two")
    table = tally_table(r.deck, r.cards_each)
    assert list(table) == list(TALLY_KEYS)
    assert table["queens"] == {"kind": "count", "label": "queens taken", "total": 4}
    assert table["last"]["label"] == "who won the last trick (8)"
    assert table["suits"]["total"] == [8, 8, 8, 8]
    assert all(entry["label"] for entry in table.values())


def test_king_contracts_are_instances_with_their_own_names_and_values() -> None:
    r = rules("king")
    rifki = r.contract("king-no-king")
    assert type(rifki) is NoKing and rifki.title.startswith("Rıfkı") and rifki.king == -320
    assert rifki.doubling_class is None and rifki.ends_early
    assert r.contract("king-no-hearts").ends_early and not rules("classic").contract("no-hearts").ends_early
    assert type(r.contract("king-no-queens")) is NoQueens and r.contract("king-no-queens").values() == {
        "per_queen": -100
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        rifki.king = 0  # type: ignore[misc]


def test_lobby_serves_the_cores_titles_and_tally_labels() -> None:
    served = {r["name"]: r for r in rule_sets()}
    for name, rs in RULE_SETS.items():
        n = rs.player_counts[0]
        assert served[name]["contracts"] == [{"id": c.id, "title": c.title} for c in rs.all_contracts(n)]
        r = rules(name, {"player_count": n} if len(rs.player_counts) > 1 else {})
        assert served[name]["tally"][str(n)] == tally_table(r.deck, r.cards_each)


# -- the schedule ------------------------------------------------------------------


def test_each_rule_set_has_its_schedule() -> None:
    assert isinstance(RULE_SETS["classic"].schedule, OnceEach)
    assert isinstance(RULE_SETS["french"].schedule, FixedOrder)
    assert isinstance(RULE_SETS["king"].schedule, Quotas)
    assert rules("french", {"first_five_only": True}).contracts_per_declarer == 5
    assert [rules(n).contracts_per_declarer for n in ("classic", "ravage-city", "chinese-poker", "king")] == [
        7,
        8,
        9,
        5,
    ]


def test_quotas_count_negatives_trumps_and_each_negative_over_the_game() -> None:
    q = Quotas(negatives=2, trumps=1, per_negative=1)
    queens, king, trumps = NoQueens(), NoKing(), Trumps()
    game = (queens, king, trumps)
    assert q.available(game, own=[], everyone=[]) == [queens, king, trumps]
    assert q.available(game, own=[], everyone=[queens]) == [king, trumps]
    assert q.available(game, own=[queens, king], everyone=[queens, king]) == [trumps]
    assert q.available(game, own=[trumps], everyone=[trumps]) == [queens, king]
    assert q.per_declarer(game) == 3


def test_fixed_order_fixes_each_deal_and_lets_no_declarer_choose() -> None:
    r = rules("french", {"player_count": 3})
    assert not r.schedule.declarer_chooses and r.schedule.each_once is False
    assert [r.scheduled_contract(i).id for i in (0, 2, 3)] == ["no-tricks", "no-tricks", "no-hearts"]  # type: ignore[union-attr]
    assert rules("classic").scheduled_contract(0) is None


# -- flags -------------------------------------------------------------------------


def test_applicable_flags_come_from_the_contracts_not_the_name() -> None:
    classic = RULE_SETS["classic"]
    renamed = dataclasses.replace(classic, name="my-barbu")
    mine = Rules(ruleset=renamed, players=4, flags=rules("classic").flags, options={})
    assert applicable_flags(mine) == applicable_flags(rules("classic"))
    with_ravage = dataclasses.replace(classic, contracts={4: (*classic.contracts[4], RavageCity())})
    mine = Rules(ruleset=with_ravage, players=4, flags=rules("classic").flags, options={})
    assert applicable_flags(mine) - applicable_flags(rules("classic")) == {"ravage_city_total"}
    no_trumps = RuleSet("no-trumps", "t", (4,), {4: (NoQueens(),)}, doubling=False, fixed_rotation=True)
    assert applicable_flags(Rules(no_trumps, 4, rules("classic").flags, {})) == {"early_end", "forced_penalty"}


@pytest.mark.parametrize("table", every_table(), ids=lambda r: f"{r.name}-{r.players}")
def test_refused_flags_are_exactly_the_idle_ones_of_rules_md(table: Rules) -> None:
    options = {"player_count": table.players} if len(table.ruleset.player_counts) > 1 else {}
    applicable = applicable_flags(table)
    for name in REFUSED_WHERE_IDLE:
        value = getattr(table.flags, name)
        value = list(value) if isinstance(value, tuple) else value
        if name in applicable:
            rules(table.name, {**options, name: value})
        else:
            with pytest.raises(Exception, match=f"{name} does not apply to {table.name}"):
                rules(table.name, {**options, name: value})


# -- trick rules and the sign ------------------------------------------------------


def test_trick_rules_are_built_once_per_deal_and_shared_by_copies() -> None:
    r = rules("king")
    contract = r.contract("king-no-queens")
    tr = TrickRules.of(r, contract, trump=1)
    assert tr.trump is None, "a contract that names no trump plays without one"
    assert tr.direction == -1 and tr.heart_lead == "free" and tr.penalty == contract.penalty_cards(r.deck)
    assert not tr.overtrump_required and tr.undertrump_required
    t = TrickPlay([1, 2, 4, 8], leader=0, rules=tr)
    assert t.copy().rules is tr
    with pytest.raises(dataclasses.FrozenInstanceError):
        tr.trump = 2  # type: ignore[misc]
    assert (
        TrickRules.of(rules("classic", {"heart_lead": "free"}), rules("classic").contract("no-hearts"), None).heart_lead
        == "free"
    )


def test_sign_says_which_way_points_go() -> None:
    assert [name for name in RULE_SETS if rules(name).sign == -1] == ["french", "french-two-decks"]
    assert all(rules(name).sign == 1 for name in RULE_SETS if not name.startswith("french"))
