"""The setup screen of ``barbu play``, driven headless with Textual's pilot at 80x24:
choosing the rule set, house rules, seat, bots and seed, refusals, and resuming."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select, Static

from barbu.errors import OptionsError
from barbu.record import game_to_record
from barbu.rulesets import RULE_SETS, applicable_flags, rules
from barbu.tui import make_app
from barbu.tui.app import BarbuApp
from barbu.tui.saved_game import save_table
from barbu.tui.setup import FLAG_ORDER, MOST_BOTS, FlagToggle, SetupScreen, base_rules
from barbu.tui.table import Table

SIZE = (80, 24)
Scenario = Callable[[Pilot[Any], BarbuApp], Awaitable[None]]


def run(app: BarbuApp, scenario: Scenario) -> None:
    """Run ``scenario`` against ``app`` headless at 80x24."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    asyncio.run(main())


def setup_screen(app: BarbuApp) -> SetupScreen:
    screen = app.screen
    assert isinstance(screen, SetupScreen), f"the setup screen is not shown: {screen!r}"
    return screen


async def tab_to(pilot: Pilot[Any], app: BarbuApp, widget_id: str) -> None:
    """Press Tab (or Shift+Tab, whichever is nearer) until the widget ``widget_id`` has the
    keyboard: it must come in the screen's Tab order."""
    chain = [w.id for w in app.screen.focus_chain]
    assert widget_id in chain, f"#{widget_id} is not in Tab order"
    here = chain.index(app.focused.id) if app.focused is not None and app.focused.id in chain else 0
    key = "tab" if chain.index(widget_id) >= here else "shift+tab"
    for _ in range(len(chain)):
        if app.focused is not None and app.focused.id == widget_id:
            return
        await pilot.press(key)
    raise AssertionError(f"Tab never reached #{widget_id}")


async def choose(pilot: Pilot[Any], app: BarbuApp, widget_id: str, value: object) -> None:
    """Choose ``value`` in the drop-down ``widget_id`` by keyboard: Tab to it, Enter opens,
    arrows move, Enter takes."""
    await tab_to(pilot, app, widget_id)
    select = setup_screen(app).query_one(f"#{widget_id}", Select)
    values = [v for _, v in select._options]
    await pilot.press("enter")
    step = values.index(value) - values.index(select.value)
    await pilot.press(*(["down"] * step if step > 0 else ["up"] * -step), "enter")
    await pilot.pause()
    assert select.value == value


async def type_into(pilot: Pilot[Any], app: BarbuApp, widget_id: str, text: str) -> None:
    """Tab to the field ``widget_id``, clear it (Home, Ctrl+K) and type ``text``."""
    await tab_to(pilot, app, widget_id)
    field = setup_screen(app).query_one(f"#{widget_id}", Input)
    await pilot.press("home", "ctrl+k", *text)
    assert field.value == text


async def pick_rule_set(pilot: Pilot[Any], app: BarbuApp, name: str) -> None:
    """Move the rule-set list's cursor to ``name`` with the arrows."""
    screen = setup_screen(app)
    rule_sets = screen.query_one("#rule-sets", OptionList)
    rule_sets.focus()
    step = list(RULE_SETS).index(name) - (rule_sets.highlighted or 0)
    await pilot.press(*(["down"] * step if step > 0 else ["up"] * -step))
    await pilot.pause()
    assert screen.variant == name


async def until_started(pilot: Pilot[Any], app: BarbuApp, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not app.has_table:
        assert time.monotonic() < end, "the game did not start"
        await pilot.pause(0.01)
    await pilot.pause()


def message(screen: SetupScreen) -> str:
    return str(screen.query_one("#setup-message", Static).render())


def test_every_rule_set_with_its_description_players_and_house_rules() -> None:
    app = BarbuApp(None, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        screen = setup_screen(app)
        listed = screen.query_one("#rule-sets", OptionList)
        assert listed.option_count == len(RULE_SETS)
        for name, rs in RULE_SETS.items():
            await pick_rule_set(pilot, app, name)
            prompt = str(listed.get_option(name).prompt)
            assert prompt.startswith(f"▶ {name}") and rs.title in prompt
            assert str(screen.query_one("#blurb", Static).render()) == rs.blurb
            assert screen.query_one("#players-row").display == (len(rs.player_counts) > 1)
            base = base_rules(name, rs.player_counts[0])
            shown = [f for f in FLAG_ORDER if screen.query_one(f"#row-{f}").display]
            assert shown == [f for f in FLAG_ORDER if f in applicable_flags(base)]
            for flag in shown:
                widget = screen.query_one(f"#flag-{flag}")
                default = getattr(base.flags, flag)
                if isinstance(default, bool):
                    assert isinstance(widget, FlagToggle) and widget.value == default
                elif flag == "compulsory_doubles":
                    assert isinstance(widget, Select)
                    assert [v for _, v in widget._options] == list(range(base.contracts_per_declarer + 1))
            bots = [i for i in range(MOST_BOTS) if screen.query_one(f"#bot-row-{i}").display]
            assert len(bots) == rs.player_counts[0] - 1
            assert screen.options() == {}  # nothing touched: the rule set as it is
        # The screen's parts lie inside 80x24 and no row is wider than 80 (the form scrolls).
        for part in ("#setup-title", "#form", "#setup-message", "#setup-keys"):
            region = screen.query_one(part).region
            assert region.area and region.right <= SIZE[0] and region.bottom <= SIZE[1], part
        for widget in screen.query("*"):
            if widget.display and widget.region.area:
                assert widget.region.right <= SIZE[0], widget
        # The game's keys do nothing before there is a game.
        await pick_rule_set(pilot, app, "classic")
        await tab_to(pilot, app, "flag-must_trump_when_void")
        await pilot.press("f2", "o", "f3", "i", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen) and not app.has_table

    run(app, scenario)


def test_the_chosen_rule_set_options_seat_and_bots_start_the_game() -> None:
    app = BarbuApp(None, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await pick_rule_set(pilot, app, "french")
        await choose(pilot, app, "players", 3)
        await choose(pilot, app, "flag-heart_lead", "broken")
        await tab_to(pilot, app, "flag-forced_penalty")
        await pilot.press("space")
        await choose(pilot, app, "seat", 2)
        await choose(pilot, app, "bot-1", "random")
        await type_into(pilot, app, "seed", "17")
        await pilot.press("enter")
        await until_started(pilot, app)

    run(app, scenario)
    table = app.table
    options = {"player_count": 3, "heart_lead": "broken", "forced_penalty": True}
    assert table.rules == rules("french", options)
    assert (table.rules.flags.heart_lead, table.rules.flags.forced_penalty) == ("broken", True)
    assert (table.seat, table.bot_levels, table.seed) == (2, ["heuristic", "random"], 17)
    options_flags = ["-o", "player_count=3", "-o", "heart_lead=broken", "-o", "forced_penalty=true"]
    same = make_app(
        ["--variant", "french", *options_flags, "--seat", "2", "--bots", "heuristic,random", "--seed", "17"]
    )
    assert not isinstance(same, int)
    assert same.table.rules == table.rules and same.table.deals_like(table.game)
    assert same.table.game.deals[0].dealt == table.game.deals[0].dealt
    assert same.table.bot_levels == table.bot_levels and same.table.seat == table.seat


def test_compulsory_doubles_and_a_toggle_with_the_mouse() -> None:
    app = BarbuApp(None, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        await pick_rule_set(pilot, app, "thirty-two")
        await choose(pilot, app, "flag-rotation", "quick")
        await choose(pilot, app, "flag-compulsory_doubles", 0)
        screen = setup_screen(app)
        toggle = screen.query_one("#flag-late_redouble", FlagToggle)
        toggle.scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#flag-late_redouble")
        assert toggle.value is False and "no" in str(toggle.label)
        await choose(pilot, app, "bot-0", "random")
        start = screen.query_one("#start")
        start.scroll_visible(animate=False)
        await pilot.pause()
        await pilot.click("#start")
        await until_started(pilot, app)

    run(app, scenario)
    flags = app.table.rules.flags
    assert app.table.rules.name == "thirty-two"
    assert (flags.compulsory_doubles, flags.rotation, flags.late_redouble) == (0, "quick", False)
    assert app.table.rules.options == {"compulsory_doubles": 0, "rotation": "quick", "late_redouble": False}
    assert app.table.bot_levels == ["random", "heuristic", "heuristic"]


def test_a_bad_combination_is_refused_with_the_cores_message_and_nothing_is_lost() -> None:
    app = BarbuApp(None, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        screen = setup_screen(app)
        await pick_rule_set(pilot, app, "french")
        await type_into(pilot, app, "flag-domino_values", "-40, -10, 10, 40")
        await choose(pilot, app, "bot-1", "random")
        await type_into(pilot, app, "seed", "monday")
        # Three players: the four placings typed for four no longer fit.
        await choose(pilot, app, "players", 3)
        assert screen.query_one("#flag-domino_values", Input).value == "-40, -10, 10, 40"
        await pilot.press("ctrl+n")
        await pilot.pause()
        with pytest.raises(OptionsError) as core:
            rules("french", {"player_count": 3, "domino_values": [-40, -10, 10, 40]})
        assert message(screen) == f"Refused: {core.value}"
        assert "domino_values must be a list of 3 integers" in message(screen)
        assert app.screen is screen and not app.has_table
        assert screen.variant == "french" and screen.players == 3
        assert screen.query_one("#flag-domino_values", Input).value == "-40, -10, 10, 40"
        assert screen.query_one("#seed", Input).value == "monday"
        assert screen.query_one("#bot-1", Select).value == "random"
        # A value the core cannot read at all is refused the same way.
        await type_into(pilot, app, "flag-domino_values", "-40, x, 40")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert "domino_values must be a list of 3 integers" in message(screen) and "x" in message(screen)
        await type_into(pilot, app, "flag-domino_values", "-45, 5, 40")
        await pilot.press("ctrl+n")
        await until_started(pilot, app)

    run(app, scenario)
    assert app.table.rules.players == 3 and app.table.rules.flags.domino_values == (-45, 5, 40)
    assert app.table.seed == "monday"


def saved_game(folder: Path) -> Path:
    """A game saved at the person's turn in the second deal's play."""
    table = Table.new("classic", bots=["random"], seed=11)
    while not (table.person_to_act and table.view().phase == "play" and len(table.game.deals) > 1):
        if table.person_to_act:
            table.act(table.view().legal_actions[0])
        else:
            table.apply_bot(*table.bot_action())
    path = folder / "monday.json"
    save_table(table, path)
    return path


def test_resuming_from_the_screen_is_the_same_as_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = saved_game(Path("."))
    (tmp_path / "broken.json").write_text('{"format": "barbu-record/1", "deals": 3}')
    app = BarbuApp(None, pace=0)

    async def scenario(pilot: Pilot[Any], app: BarbuApp) -> None:
        screen = setup_screen(app)
        await type_into(pilot, app, "resume-path", "broken.json")
        await pilot.press("enter")
        await pilot.pause()
        assert message(screen).startswith("Not resumed: broken.json is not")
        assert app.screen is screen and not app.has_table
        await type_into(pilot, app, "resume-path", "nowhere.json")
        await pilot.press("enter")
        await pilot.pause()
        assert "cannot read record" in message(screen) and not app.has_table
        # The saved games of the folder are listed; Enter takes one, Enter again resumes.
        await tab_to(pilot, app, "saved")
        saved = screen.query_one("#saved", OptionList)
        assert saved.option_count == 1 and "monday.json" in str(saved.get_option_at_index(0).prompt)
        await pilot.press("enter")
        assert screen.query_one("#resume-path", Input).value == str(path)
        assert app.focused is not None and app.focused.id == "resume"
        await pilot.press("enter")
        await until_started(pilot, app)
        assert app.notice == f"Resumed {path}."

    run(app, scenario)
    flags = make_app(["--resume", str(path)])
    assert not isinstance(flags, int)
    assert app.table.view() == flags.table.view()
    assert game_to_record(app.table.game) == game_to_record(flags.table.game)
    assert (app.table.seat, app.table.bot_levels, app.table.seed) == (
        flags.table.seat,
        flags.table.bot_levels,
        flags.table.seed,
    )
    assert app.save_path == flags.save_path == str(path)


def test_the_arguments_decide_whether_the_screen_comes_first(tmp_path: Path) -> None:
    for argv in ([], ["--save", str(tmp_path / "a.json")], ["--pace", "0"]):
        app = make_app(argv)
        assert isinstance(app, BarbuApp) and not app.has_table, argv
    assert make_app(["--save", "a.json"]).save_path == "a.json"  # type: ignore[union-attr]
    for argv in (["--variant", "king"], ["-o", "rotation=quick"], ["--seed", "3"], ["--bots", "random"]):
        app = make_app(argv)
        assert isinstance(app, BarbuApp) and app.has_table, argv
    with pytest.raises(OptionsError, match="unknown variant 'bridge'"):
        make_app(["--variant", "bridge"])
