"""The heuristic bot's card reading (barbu.bots.card_reading) and level descriptions."""

from __future__ import annotations

import pytest

from barbu import Game, seat_view
from barbu.actions import Call, Declare, Play
from barbu.bots import bot_levels, make_bot, offered_levels
from barbu.bots.card_play import PlayGuide, choose_card
from barbu.bots.card_reading import Reading, read_card
from barbu.bots.endgame import solve
from barbu.bots.heuristic import HeuristicBot
from barbu.cards import card, parse_pbn
from barbu.rulesets import RULE_SETS, rules
from barbu.tricks import TrickPlay, TrickRules
from barbu.unseen import hidden_cards


def _game(hands: list[str], contract: str) -> Game:
    game = Game(rules("classic"), first_declarer=0)
    game.give_hands([parse_pbn(h) for h in hands])
    game.apply(Declare(contract))
    for _ in range(3):
        game.apply(Call(double=(0,)))
    game.apply(Call())
    return game


def test_a_discard_shows_a_void_and_nothing_else() -> None:
    hands = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
    game = _game(hands, "no-tricks")
    game.apply(Play(card("2S")))
    game.apply(Play(card("AH")))
    reading = Reading.of(hidden_cards(seat_view(game, 2)))
    assert reading.void(1, 0)
    assert not reading.void(1, 1) and not reading.void(3, 1)


def test_free_tricks_of_no_last_two_shed_the_highest_card() -> None:
    # Seat 1 could duck with the 9 under the ten, but the first tricks are free:
    # it throws its king, the card most likely to take a late trick.
    hands = ["T8532.A.A.A65432", "KQJ974.K.K.KQJT9", "A6.QJT98765432..", "..QJT98765432.87"]
    game = _game(hands, "no-last-two")
    game.apply(Play(card("TS")))
    assert HeuristicBot().act(seat_view(game, 1)) == Play(card("KS"))


def test_a_seat_that_cannot_duck_plays_high_when_nobody_left_can_overtake() -> None:
    # No tricks: seat 2 holds K Q of spades over the 3 and must take the trick, since the
    # only seat still to play has shown no spade: it sheds the king, the plain rules would
    # keep it (a higher spade is still out somewhere).
    table = rules("classic")
    contract = table.contract("no-tricks")
    guide = PlayGuide(contract, table)
    t = TrickPlay([parse_pbn(h) for h in ("2.A..", "3.K..", "KQ...", "..AK.")], leader=0, rules=TrickRules())
    t.play(card("2S"))
    t.play(card("3S"))
    mine = t.copy()
    mine.hands = [h if s == 2 else 0 for s, h in enumerate(mine.hands)]
    reading = Reading(seat=2, hand=t.hands[2], may=(0, t.hands[1], t.hands[2], t.hands[3]))
    assert choose_card(mine, 2, guide) == card("QS")
    assert read_card(mine, 2, guide, reading) == card("KS")


def test_the_last_tricks_are_played_exactly() -> None:
    table = rules("classic")
    contract = table.contract("no-last-two")
    guide = PlayGuide(contract, table)
    t = TrickPlay([parse_pbn(h) for h in ("A2...", "K3...", "Q4...", "J5...")], leader=0, rules=TrickRules())
    reading = Reading(seat=0, hand=t.hands[0], may=tuple(t.hands))
    mine = t.copy()
    mine.hands = [h if s == 0 else 0 for s, h in enumerate(mine.hands)]
    chosen = read_card(mine, 0, guide, reading, t.copy, contract, table)
    values = {}
    for c in (card("AS"), card("2S")):
        w = t.copy()
        w.play(c)
        values[c] = solve(w, contract, table, guide, 0)[0]
    assert values[chosen] == max(values.values())


@pytest.mark.parametrize("variant", RULE_SETS)
def test_the_heuristic_plays_every_contract_deterministically(variant: str) -> None:
    """Every contract of every rule set played to the end by four heuristic bots through the
    checked door (an illegal action would raise), the game's points adding up as the rule set
    says, and the same actions when played again with the same seeds (its decision times are
    measured by ``benchmarks/bench_heuristic.py``, not asserted here)."""

    def play(deals: int | None) -> list[object]:
        game = Game.new(variant, seed=3)
        bots = [make_bot("heuristic", seed=s) for s in range(game.rules.players)]
        actions: list[object] = []
        while not game.is_over and (deals is None or len(game.deals) <= deals):
            seat = game.to_act
            assert seat is not None
            action = bots[seat].act(seat_view(game, seat))
            game.apply(action, seat)
            actions.append(action)
        if deals is None:
            played = {d.contract.id for d in game.deals if d.contract is not None}
            assert played == {c.id for c in game.rules.contracts}
            assert len(game.deals) == game.rules.deal_count
            assert sum(game.totals) == game.rules.game_total()
        return actions

    whole = play(None)
    again = play(3)
    assert whole[: len(again) - 1] == again[:-1]


def test_every_level_is_described() -> None:
    offered = offered_levels()
    assert list(offered) == ["random", "heuristic", "search", "expert"]  # the levels offered to people
    assert all(bot_levels()[level].offered for level in offered)
    assert [level for level, entry in bot_levels().items() if entry.offered] == list(offered)  # one table
    for level, words in offered.items():
        assert words.lower().startswith(level) and len(words) > len(level) + 20
