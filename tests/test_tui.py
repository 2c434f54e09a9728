"""``barbu play`` driven headless with Textual's pilot, by keyboard, at 80x24."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input

from barbu import Game
from barbu.actions import Call, Declare, Play
from barbu.cards import card_name
from barbu.cli import main
from barbu.record import game_from_record, game_to_record
from barbu.rulesets import RULE_SETS
from barbu.tui import play_main
from barbu.tui.app import BarbuApp
from barbu.tui.arrangement import ArrangementPanel
from barbu.tui.calls import CallsPanel
from barbu.tui.hand import Hand
from barbu.tui.save_dialog import QuitDialog, SaveDialog
from barbu.tui.saved_game import load_table, seed_path
from barbu.tui.score_sheet import ScoreSheet
from barbu.tui.scoreboard import Scoreboard
from barbu.tui.summary import SummaryPanel
from barbu.tui.table import Table, hint_level

SIZE = (80, 24)
Scenario = Callable[[Pilot[Any], BarbuApp], Awaitable[None]]


def run(app: BarbuApp, scenario: Scenario) -> None:
    """Run ``scenario`` against ``app`` headless at 80x24."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, app)
            await scenario(pilot, app)

    asyncio.run(main())


async def settle(pilot: Pilot[Any], app: BarbuApp, timeout: float = 20.0) -> None:
    """Wait until the bots have played and the game waits for the person (or a summary)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        await pilot.pause(0.001)
        if app.bot_running or app.hint_running:
            continue
        if app.summary is not None or app.table.game.is_over or app.table.person_to_act:
            await pilot.pause()  # let the screen catch up (focus, layout)
            return
    raise AssertionError(f"the game did not come back to the person (phase {app.table.view().phase})")


async def press(pilot: Pilot[Any], app: BarbuApp, *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot, app)


def first_declarer_is_person(variant: str, options: dict[str, Any] | None = None, seed: int = 1) -> Table:
    """A table where the person (random bots around) declares the first deal."""
    seat = Game.new(variant, options, seed).first_declarer
    return Table.new(variant, options, seat=seat, bots=["random"], seed=seed)


def record(app: BarbuApp) -> dict[str, Any]:
    return game_to_record(app.table.game)


def assert_fits(app: BarbuApp) -> None:
    """Every part of the screen lies inside 80x24 and shows all its lines."""
    width, height = SIZE
    screen = app.screen
    for selector in ("#header", "#centre", "#board", "#hand", "#message", "#keys"):
        widget = app.query_one(selector)
        region = widget.region
        assert region.width > 0 and region.height > 0, selector
        assert region.right <= width and region.bottom <= height, selector
    centre = app.query_one("#centre")
    pane = centre.query_one(f"#{centre.current}")  # type: ignore[attr-defined]
    assert isinstance(pane, Widget)
    if pane.id == "summary":
        # It scrolls; with four players a deal's summary fits without scrolling.
        assert pane.max_scroll_y == 0 or app.table.rules.players > 4
    elif pane.id in ("calls", "arrange", "domino"):
        space = pane.content_region
        needed = pane.get_content_height(screen.size, screen.size, space.width)
        assert needed <= space.height, f"{pane.id} needs {needed} lines, has {space.height}"
    hand = app.query_one(Hand)
    spans = hand._spans
    assert not spans or spans[-1][1] <= hand.content_region.width
    board = app.query_one(Scoreboard)
    assert len(board.lines) <= board.content_region.height


async def person_acts(pilot: Pilot[Any], app: BarbuApp) -> None:
    """Whatever the person has to do now, by keyboard: the first choice, the compulsory
    call (ticked already) or a pass, the card under the cursor (a legal one), rows in
    hand order."""
    if app.summary is not None:
        await press(pilot, app, "enter")
        return
    phase = app.table.view().phase
    if phase == "arrange":
        await pilot.press(*("b" * 5 + "m" * 5 + "f" * 3))
    await press(pilot, app, "enter")


async def play_deal(pilot: Pilot[Any], app: BarbuApp, check_fit: bool = True) -> None:
    """Play until the first deal's summary, checking the screen on the way."""
    for _ in range(400):
        if app.summary is not None:
            return
        if check_fit:
            assert_fits(app)
        await person_acts(pilot, app)
    raise AssertionError("the deal did not end")


CLASSIC = {
    "no-tricks": ["1"],
    "no-hearts": ["2"],
    "no-queens": ["3"],
    "no-king": ["4"],
    "no-last-two": ["5"],
    "trumps": ["6", "s"],
    "domino": ["7", "7"],
}


@pytest.mark.parametrize("contract", list(CLASSIC))
def test_a_whole_deal_of_each_classic_contract_by_keyboard(contract: str) -> None:
    table = first_declarer_is_person("classic", {"skip_undoubled_negative": False}, seed=2)
    app = BarbuApp(table, pace=0)
    person_cards: list[str] = []

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        assert app.query_one("#centre").current == "declare"  # type: ignore[attr-defined]
        assert_fits(app)
        for key in CLASSIC[contract]:
            await press(pilot, app, key)
        view = app.table.view()
        assert view.contract == contract
        if contract == "trumps":
            assert view.trump == "S"
        if contract == "domino":
            assert view.rank == "7"
        typed = False
        while app.summary is None:
            view = app.table.view()
            assert_fits(app)
            if view.phase == "call":
                assert app.query_one("#centre").current == "calls"  # type: ignore[attr-defined]
                await press(pilot, app, "p")  # the declarer calls last and passes
                continue
            assert view.phase == "play" and view.to_act == view.seat
            hand = app.query_one(Hand)
            assert hand.mode == "play" and hand.has_focus
            legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
            assert hand.legal == frozenset(legal)
            if legal and not typed:
                name = card_name(legal[-1]).lower()
                person_cards.append(name.upper())
                await press(pilot, app, *name)  # typed: e.g. "q", "s"
            else:
                if legal:
                    person_cards.append(card_name(hand.current or 0))
                    assert hand.current in legal  # the cursor starts on a legal card
                await press(pilot, app, "enter")
            typed = not typed
        summary = app.summary
        assert summary is not None and summary.contract == contract and summary.played
        deal = app.table.game.deals[0]
        assert deal.final is not None and list(summary.final) == deal.final
        plays = [
            card_name(c)
            for c, s in zip(deal.plays, deal.play_seats, strict=True)
            if s == app.table.seat and c is not None
        ]
        assert plays == person_cards
        assert app.query_one("#centre").current == "summary"  # type: ignore[attr-defined]
        assert_fits(app)
        assert "Deal 1:" in app.query_one(SummaryPanel).lines[0].plain
        await press(pilot, app, "enter")
        assert app.summary is None and app.table.view().deal_number == 2
        game_from_record(record(app))  # the game so far is a valid record

    run(app, scenario)


def compulsory_table() -> Table:
    """West (seat 1) has declared five undoubled, skipped contracts; at West's sixth
    the person (seat 0), who has never doubled West, must double West."""
    passes = [{"seat": s} for s in (2, 3, 0, 1)]
    contracts = ["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two"]
    doc = {
        "format": "barbu-record/1",
        "variant": "classic",
        "first_declarer": 1,
        "deals": [{"declarer": 1, "contract": c, "calls": passes} for c in contracts],
    }
    return Table.resume(game_from_record(doc), seat=0, bots=["random"], seed=8, first_deal=None)


def test_a_compulsory_double_is_ticked_explained_and_enforced() -> None:
    app = BarbuApp(compulsory_table(), pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        view = app.table.view()
        assert view.phase == "call" and view.to_act == 0 and view.must_double == (1,)
        panel = app.query_one(CallsPanel)
        assert panel.has_focus
        west = next(b for b in panel.boxes if b.kind == "double" and b.seat == 1)
        assert west.ticked and west.note == "compulsory"
        text = panel.render().plain
        assert "Compulsory: " in text
        assert "2 doubles of West are due in West's set of 7" in text
        assert "at its 6th contract you have made 0" in text
        assert_fits(app)
        before = record(app)
        # Untick it and call: the core refuses, nothing changes.
        panel.cursor = panel.boxes.index(west)
        await press(pilot, app, "space")
        assert not west.ticked
        await press(pilot, app, "enter")
        assert record(app) == before
        assert "Refused" in app.notice and "West" in app.notice
        await press(pilot, app, "p")
        assert record(app) == before and "Refused" in app.notice
        # Tick it again: the call goes through and doubles West.
        await press(pilot, app, "space")
        await press(pilot, app, "enter")
        mine = [c for c in app.table.game.deals[5].doubling.calls if c.seat == 0]  # type: ignore[union-attr]
        assert mine and 1 in mine[0].doubles

    run(app, scenario)


def test_maximum_and_flanks_show_what_they_mean() -> None:
    table = Table.new("classic", {"compulsory_doubles": 7}, seat=0, bots=["random"], seed=4)
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        while app.table.view().phase != "call" or app.summary is not None:
            await person_acts(pilot, app)
        view = app.table.view()
        panel = app.query_one(CallsPanel)
        if view.declarer == view.seat:
            assert "cannot say flanks" in panel.shorthands["flanks"]
        else:
            assert view.must_double == (view.declarer,)
            assert panel.shorthands["maximum"].startswith("double")
        before = record(app)
        await press(pilot, app, "m")
        assert record(app) != before
        said = [c for c in app.table.game.current.doubling.calls if c.seat == 0]  # type: ignore[union-attr]
        assert said[0].said == Call(word="maximum")

    run(app, scenario)


def test_illegal_cards_are_refused_and_nothing_changes() -> None:
    table = first_declarer_is_person("classic", {"skip_undoubled_negative": False}, seed=2)
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await press(pilot, app, "4")  # no king of hearts: a heart may not be led
        while app.table.view().phase == "call":
            await press(pilot, app, "p")
        refused = 0
        while app.summary is None and refused < 2:
            view = app.table.view()
            legal = {a.card for a in view.legal_actions if isinstance(a, Play)}
            illegal = [c for c in view.hand if c not in legal]
            if not illegal:
                await press(pilot, app, "enter")
                continue
            before = record(app)
            await press(pilot, app, *card_name(illegal[0]).lower())
            assert record(app) == before and app.table.view() == view
            assert app.notice.startswith("Refused: ") and "is not legal" in app.notice
            hand = app.query_one(Hand)
            hand.point_at(illegal[0])
            await press(pilot, app, "enter")
            assert record(app) == before and "is not legal" in app.notice
            refused += 1
            await press(pilot, app, "enter")  # back on a legal card? Enter tries the cursor's card
            if record(app) == before:
                hand.point_at(sorted(legal)[0])
                await press(pilot, app, "enter")
            assert record(app) != before
        assert refused == 2
        # A card that is not in the hand at all.
        while app.summary is None and not app.table.person_to_act:
            await settle(pilot, app)
        if app.summary is None:
            view = app.table.view()
            missing = next(c for c in range(52) if c not in view.hand)
            before = record(app)
            await press(pilot, app, *card_name(missing).lower())
            assert record(app) == before and "not in your hand" in app.notice

    run(app, scenario)


def test_save_and_resume_give_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    table = Table.new("classic", seat=0, bots=["random"], seed=6)
    app = BarbuApp(table, pace=0)
    saved: dict[str, Any] = {}

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        for _ in range(8):
            await person_acts(pilot, app)
        while app.summary is not None:
            await person_acts(pilot, app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SaveDialog)
        app.screen.query_one(Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert path.exists() and seed_path(path).exists()
        assert "Saved to" in app.notice
        saved["view"] = app.table.view()
        saved["record"] = record(app)
        saved["hand"] = list(app.query_one(Hand).cards)

    run(app, scenario)
    resumed = load_table(path)
    assert resumed.view() == saved["view"]
    assert game_to_record(resumed.game) == saved["record"]
    again = BarbuApp(resumed, save_path=str(path), pace=0)

    async def after(pilot: Pilot[Any], app: BarbuApp) -> None:
        assert app.query_one(Hand).cards == saved["hand"]
        await person_acts(pilot, app)
        await pilot.press("ctrl+q")  # a game with a file is saved on quitting
        await pilot.pause()

    run(again, after)
    assert again.return_value == 0 and again.saved_to == str(path)
    assert len(load_table(path).game.history) > len(resumed.game.history) - 1


def test_quitting_without_a_file_asks_first(tmp_path: Path) -> None:
    app = BarbuApp(Table.new("classic", bots=["random"], seed=1), pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, QuitDialog)
        await pilot.press("ctrl+q")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()

    run(app, scenario)
    assert app.return_value == 0 and app.saved_to is None


def test_score_sheet_help_and_hint() -> None:
    table = first_declarer_is_person("classic", seed=2)
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await press(pilot, app, "f3")
        assert app.notice.startswith(f"Hint from the {hint_level()} bot: declare ")
        await play_deal(pilot, app)
        await pilot.press("f2")
        await pilot.pause()
        sheet = app.screen
        assert isinstance(sheet, ScoreSheet)
        assert sheet.query_one("DataTable").row_count == 3  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.screen_stack[0]

    run(app, scenario)


def test_chinese_poker_rows_by_keyboard() -> None:
    table = first_declarer_is_person("chinese-poker", seed=2)
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await press(pilot, app, "9")
        assert app.table.view().contract == "chinese-poker"
        while app.table.view().phase == "call":
            await press(pilot, app, "p")
        assert app.table.view().phase == "arrange"
        assert app.query_one("#centre").current == "arrange"  # type: ignore[attr-defined]
        before = record(app)
        await press(pilot, app, "b", "b", "enter")
        assert record(app) == before and app.notice.startswith("Not yet: put 3 more cards in the back")
        await pilot.press(*("b" * 3 + "m" * 5 + "f" * 3))
        await settle(pilot, app)
        assert_fits(app)
        rows = app.query_one(ArrangementPanel).rows
        chosen = rows.action()
        assert chosen is not None
        await press(pilot, app, "enter")
        assert app.summary is not None and app.summary.contract == "chinese-poker"
        deal = app.table.game.deals[0]
        assert tuple(deal.arrangements[-1] or ()) == chosen.cards  # the declarer arranges last

    run(app, scenario)


VARIANTS = [
    ("ravage-city", None),
    ("salad", {"player_count": 5}),
    ("five-player", None),
    ("french", {"player_count": 3}),
    ("king", None),
    ("thirty-two", None),
]


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_a_deal_of_every_other_rule_set_by_keyboard(variant: str, options: dict[str, Any] | None) -> None:
    assert variant in RULE_SETS
    table = Table.new(variant, options, seat=0, bots=["random"], seed=5)
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await play_deal(pilot, app)
        assert app.summary is not None and app.summary.number == 1
        assert_fits(app)
        await press(pilot, app, "enter")
        assert app.table.view().deal_number == 2

    run(app, scenario)


def test_the_end_of_the_game_shows_the_ranking() -> None:
    table = Table.new("king", seat=0, bots=["random"], seed=3)
    while not table.game.is_over:
        if table.person_to_act:
            table.act(table.bot_for((table.seat + 1) % 4).act(table.view()))
        else:
            table.apply_bot(*table.bot_action())
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        panel = app.query_one(SummaryPanel)
        assert app.query_one("#centre").current == "summary"  # type: ignore[attr-defined]
        text = "\n".join(line.plain for line in panel.lines)
        assert text.startswith("Game over: King") and "Turkish custom" in text
        ranking = app.table.game.ranking()
        assert text.count("winner") == ranking.count(1)
        assert_fits(app)

    run(app, scenario)


def test_play_main_refuses_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["play", "--bots", "genius"]) == 2
    assert "unknown bot level 'genius'" in capsys.readouterr().err
    assert main(["play", "--option", "rotation=sideways"]) == 2
    assert "rotation cannot be 'sideways'" in capsys.readouterr().err
    assert main(["play", "--resume", str(tmp_path / "none.json")]) == 2
    assert "cannot read record" in capsys.readouterr().err
    assert main(["play", "--bots", "random,random", "--seed", "1"]) == 2
    assert "exactly 3" in capsys.readouterr().err
    assert main(["play", "--seat", "north"]) == 2
    assert "'north' is not a whole number; give one 0 or more" in capsys.readouterr().err
    assert play_main(["--help"]) == 0
    assert "--resume FILE" in capsys.readouterr().out


def test_cards_and_calls_with_the_mouse() -> None:
    table = first_declarer_is_person("classic", {"skip_undoubled_negative": False}, seed=2)
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await press(pilot, app, "1")  # no tricks: the declarer may lead any card
        while app.table.view().phase == "call":
            await press(pilot, app, "p")
        hand = app.query_one(Hand)
        start, _, index = hand._spans[3]
        target = hand.cards[index]
        await pilot.click(Hand, offset=(start + 1, 0))
        await settle(pilot, app)
        deal = app.table.game.deals[0]
        assert deal.plays[0] == target and deal.play_seats[0] == app.table.seat

    run(app, scenario)


def test_the_declarers_shorthands_when_nobody_doubled() -> None:
    """The declarer calls last; with no double, *maximum* is a pass and ends the deal (skipped)."""
    table = first_declarer_is_person("classic", seed=2)
    table.act(Declare("no-tricks"))
    while not table.person_to_act:
        table.apply_bot(table.game.to_act or 0, Call())
    app = BarbuApp(table, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        panel = app.query_one(CallsPanel)
        assert panel.shorthands["maximum"] == "pass"
        assert "cannot say flanks" in panel.shorthands["flanks"]
        assert "f flanks" not in panel.render().plain  # never for the declarer: not offered
        assert panel.boxes == []
        assert "You may only pass" in panel.render().plain
        await press(pilot, app, "m")
        assert app.summary is not None and not app.summary.played
        assert "Not played" in app.query_one(SummaryPanel).lines[1].plain

    run(app, scenario)
