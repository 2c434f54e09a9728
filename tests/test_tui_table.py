"""The terminal game's table without the screen: dealing, bots, saving and resuming."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from barbu import Game
from barbu.bots import bot_level, make_bot
from barbu.errors import IllegalAction
from barbu.record import game_from_record, game_to_record
from barbu.rulesets import RULE_SETS
from barbu.tui.saved_game import SaveError, load_table, save_table, seed_path
from barbu.tui.table import Table, bot_levels_for, default_bot_level, derived_seed, hint_level


def person_move(table: Table) -> None:
    """The person plays like a seeded random bot (the seed follows the game, so two
    tables in the same state make the same move)."""
    view = table.view()
    bot = make_bot("random", seed=derived_seed("person", table.actions))
    table.act(bot.act(view))


def step(table: Table) -> None:
    """One action, by the person or by the bot to act."""
    if table.person_to_act:
        person_move(table)
    else:
        table.apply_bot(*table.bot_action())


def play_until(table: Table, actions: int) -> None:
    while not table.game.is_over and table.actions < actions:
        step(table)


def same_game_from_seed(table: Table, seed: int | str) -> Game:
    """``Game.new`` with ``seed``, given the same actions as ``table``'s game."""
    game = Game.new(table.rules.name, table.rules.options, seed)
    for move in table.game.history:
        game.apply(move.action, move.seat)
    return game


def test_a_new_table_deals_what_game_new_deals_all_game_long() -> None:
    table = Table.new("classic", seat=2, bots=["random"], seed=11)
    play_until(table, 10**6)
    assert table.game.is_over and len(table.game.deals) == 28
    assert [d.dealt for d in same_game_from_seed(table, 11).deals] == [d.dealt for d in table.game.deals]
    assert sum(table.game.totals) == 0


def test_the_person_acts_only_through_the_checked_door() -> None:
    table = Table.new("classic", seat=0, bots=["random"], seed=2)
    play_until(table, 0)
    while not table.person_to_act:
        step(table)
    before = game_to_record(table.game)
    wrong_seat = (table.seat + 1) % 4
    with pytest.raises(IllegalAction):
        table.apply_bot(wrong_seat, table.view().legal_actions[0])
    assert game_to_record(table.game) == before
    with pytest.raises(ValueError, match="person's seat"):
        table.bot_for(table.seat)


def test_resuming_goes_on_with_the_same_deals_and_the_same_bots(tmp_path: Path) -> None:
    levels = ["random", default_bot_level(), "random"]
    table = Table.new("classic", seat=1, bots=levels, seed="monday")
    play_until(table, 130)  # in the middle of the third deal or so
    path = tmp_path / "game.json"
    save_table(table, path)
    again = load_table(path)
    assert again.view() == table.view()
    assert again.bot_levels == table.bot_levels and again.seat == 1 and again.seed == "monday"
    play_until(table, 400)
    play_until(again, 400)
    assert game_to_record(again.game) == game_to_record(table.game)
    assert again.deals_like(same_game_from_seed(again, "monday"))
    assert len(again.game.deals) > 3


def test_a_record_without_its_seed_file_resumes_with_new_deals(tmp_path: Path) -> None:
    table = Table.new("classic", bots=["random"], seed=5)
    play_until(table, 70)
    path = tmp_path / "game.json"
    save_table(table, path)
    seed_path(path).unlink()
    one = load_table(path, seed=99)
    two = load_table(path, seed=99)
    assert one.view() == table.view() and one.seed == 99
    play_until(one, 300)
    play_until(two, 300)
    assert game_to_record(one.game) == game_to_record(two.game)
    # The deals the record held are kept; the later ones come from the new seed.
    k = one.first_deal
    assert k == len(table.game.deals) - (1 if table.game.deals[-1].dealt is None else 0)
    play_until(table, 300)
    assert [d.dealt for d in one.game.deals[:k]] == [d.dealt for d in table.game.deals[:k]]
    assert one.game.deals[k].dealt != table.game.deals[k].dealt
    # Saved again, the seed file says which deal the new seed started with.
    save_table(one, path)
    assert json.loads(seed_path(path).read_text())["first_deal"] == k
    resumed = load_table(path)
    assert resumed.view() == one.view()


def test_a_seed_file_from_another_game_is_refused(tmp_path: Path) -> None:
    a = Table.new("classic", bots=["random"], seed=1)
    b = Table.new("classic", bots=["random"], seed=2)
    play_until(a, 20)
    play_until(b, 20)
    save_table(a, tmp_path / "a.json")
    save_table(b, tmp_path / "b.json")
    shutil.copy(seed_path(tmp_path / "b.json"), seed_path(tmp_path / "a.json"))
    with pytest.raises(SaveError, match="does not belong to this record"):
        load_table(tmp_path / "a.json")


def test_files_that_cannot_be_resumed_say_why(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="cannot read record"):
        load_table(tmp_path / "missing.json")
    (tmp_path / "text.json").write_text("not json")
    with pytest.raises(SaveError, match="is not JSON"):
        load_table(tmp_path / "text.json")
    (tmp_path / "other.json").write_text('{"format": "something-else"}')
    with pytest.raises(SaveError, match="is not a Barbu record"):
        load_table(tmp_path / "other.json")
    bad = {"format": "barbu-record/1", "variant": "classic", "deals": [{"declarer": 9}]}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(SaveError, match="is not a valid record: deal 1"):
        load_table(tmp_path / "bad.json")
    table = Table.new("classic", bots=["random"], seed=1)
    save_table(table, tmp_path / "ok.json")
    seed_path(tmp_path / "ok.json").write_text('{"format": "barbu-seed/1", "seed": [1]}')
    with pytest.raises(SaveError, match="seed must be"):
        load_table(tmp_path / "ok.json")
    save_table(table, tmp_path / "ok.json")
    with pytest.raises(SaveError, match="seat must be from 0 to 3"):
        load_table(tmp_path / "ok.json", seat=4)
    with pytest.raises(SaveError, match="cannot save to"):
        save_table(table, tmp_path / "no-such-dir" / "x.json")


def test_a_saved_game_that_cannot_be_resumed_says_why_in_french(tmp_path: Path) -> None:
    """Why a file cannot be resumed reaches a French reader in French, the record's own cause
    (a bad card in its play) included."""
    from barbu.language import error_text, speaking

    table = Table.new("classic", bots=["random"], seed=1)
    play_until(table, 6)
    save_table(table, tmp_path / "ok.json")
    record = json.loads((tmp_path / "ok.json").read_text())
    record["deals"][0]["play"] = ["Z9"]
    (tmp_path / "bad.json").write_text(json.dumps(record))
    (tmp_path / "other.json").write_text('{"format": "something-else"}')
    (tmp_path / "text.json").write_text("not json")
    seed_path(tmp_path / "text.json").write_text("{}")
    cases = {
        "missing.json": "impossible de lire le relevé {path} : ",
        "other.json": '{path} n\'est pas un relevé de Barbu : "format" vaut "something-else" ; un relevé a "format": ',
        "text.json": "{path} n'est pas du JSON (ligne 1, colonne 1) : les fichiers d'une partie enregistrée sont",
        "bad.json": "{path} n'est pas un relevé valide : donne 1, carte 1 (place 1) : 'Z9' n'est pas une carte",
    }
    for name, french in cases.items():
        with pytest.raises(SaveError) as refused:
            load_table(tmp_path / name)
        with speaking("fr"):
            assert error_text(refused.value).startswith(french.format(path=tmp_path / name)), refused.value
    with pytest.raises(SaveError) as refused:
        load_table(tmp_path / "ok.json", seat=4)
    with speaking("fr"):
        assert error_text(refused.value) == "la place doit être de 0 à 3, et non 4"


def test_bot_levels_names_and_seeds() -> None:
    assert bot_levels_for([], 4) == [default_bot_level()] * 3
    assert bot_levels_for(["random"], 5) == ["random"] * 4
    with pytest.raises(ValueError, match="exactly 3"):
        bot_levels_for(["random", "random"], 4)
    with pytest.raises(ValueError, match="unknown bot level 'genius'"):
        bot_levels_for(["genius"], 4)
    assert default_bot_level() == ("heuristic" if bot_level("heuristic") is not None else "random")
    assert bot_level(hint_level()) is not None and (hint_level() == "search" or bot_level("search") is None)
    table = Table.new("french", {"player_count": 3}, seat=1, bots=["random"], seed=1)
    assert table.names == ["East", "You", "West"]
    assert table.players == ["East (random bot)", "You", "West (random bot)"]
    assert Table.new("salad", {"player_count": 5}, bots=["random"], seed=1).names[2] == "North-west"
    assert derived_seed(1, "bot", 2, 3) != derived_seed(1, "bot", 3, 2)
    with pytest.raises(ValueError, match="seat must be from 0 to 3"):
        Table.new("classic", seat=4, seed=1)


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_every_rule_set_plays_to_the_end_across_a_save(variant: str, tmp_path: Path) -> None:
    table = Table.new(variant, bots=["random"], seed=3)
    play_until(table, 150)
    save_table(table, tmp_path / "g.json")
    table = load_table(tmp_path / "g.json")
    play_until(table, 10**6)
    assert table.game.is_over
    assert len(table.game.deals) == table.rules.deal_count
    replayed = game_from_record(game_to_record(table.game))
    assert replayed.totals == table.game.totals
