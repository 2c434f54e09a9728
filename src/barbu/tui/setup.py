"""Choosing the game before it starts: the setup screen of ``barbu play``, and
:func:`open_table`, the one way a table is made (from the screen or from the flags).

The screen offers every rule set of :data:`~barbu.rulesets.RULE_SETS` with its title and
description, the player count where the rule set allows several, the house rules (the
flags of RULES.md §6 that apply to the chosen rule set, each with its allowed values),
the person's seat, each bot's level and the seed; or a saved game to resume. The rules are
built by :func:`~barbu.rulesets.rules` and a refusal shows the core's own message; the
screen then keeps every value as it was.

>>> choice = GameChoice("french", {"player_count": 3}, bots=("random",), seed=5)
>>> table = open_table(choice)
>>> table.rules.name, table.rules.players, table.bot_levels, table.seed
('french', 3, ['random', 'random'], 5)
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from barbu.bots import offered_levels
from barbu.errors import BarbuError
from barbu.language import _, _p, error_text
from barbu.rulesets import CHOICE_HELP, FLAG_CHOICES, FLAG_HELP, RULE_SETS, Flags, Rules, applicable_flags, rules
from barbu.tui.saved_game import load_table, new_seed, saved_games
from barbu.tui.table import SEAT_NAMES, Table, default_bot_level

FLAG_ORDER: tuple[str, ...] = tuple(f.name for f in fields(Flags))
"""The house rules in the order of RULES.md §6."""

TEXT_FLAGS = ("domino_values", "ravage_city_total")
"""Flags typed in as text (a list of placings, a negative multiple of 12); the core checks them."""

MOST_BOTS = max(max(rs.player_counts) for rs in RULE_SETS.values()) - 1


@dataclass(frozen=True)
class GameChoice:
    """What the person chose: a new game (rule set, options, seat, bots, seed) or a saved
    one to resume (``resume``: the record's path; ``seat``, ``bots`` and ``seed`` then
    override the saved ones as ``--resume`` does)."""

    variant: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None
    bots: tuple[str, ...] = ()
    seed: int | str | None = None
    resume: str | None = None


def open_table(choice: GameChoice) -> Table:
    """The table for ``choice``: :func:`~barbu.tui.saved_game.load_table` for a saved game,
    else :meth:`Table.new` (a fresh seed when none is given).

    Raises :class:`~barbu.errors.OptionsError` for bad options,
    :class:`~barbu.tui.saved_game.SaveError` for a file that is not a valid record and
    ``ValueError`` for a bad seat or bot levels.
    """
    if choice.resume:
        return load_table(choice.resume, choice.seat, list(choice.bots) or None, choice.seed)
    seed = new_seed() if choice.seed is None else choice.seed
    return Table.new(choice.variant, dict(choice.options), choice.seat or 0, list(choice.bots), seed)


def seed_of(text: str | None) -> int | str | None:
    """A seed as typed: an integer, a word, or None when blank.

    >>> seed_of("42"), seed_of(" monday "), seed_of("")
    (42, 'monday', None)
    """
    if text is None or not text.strip():
        return None
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        return text


def flag_text(value: Any) -> str:
    """A text flag's value as the screen shows it.

    >>> flag_text((45, 20, 5, -5)), flag_text(-24)
    ('45, 20, 5, -5', '-24')
    """
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    return str(value)


def typed_flag(name: str, text: str) -> Any:
    """A text flag's value as typed, for the core to check: integers where they read as
    integers, else the text itself (which the core then refuses, saying why).

    >>> typed_flag("domino_values", "40 20, 5,-5"), typed_flag("ravage_city_total", "-36")
    ([40, 20, 5, -5], -36)
    >>> typed_flag("domino_values", "40, lots")
    '40, lots'
    """
    text = text.strip()
    try:
        if name == "domino_values":
            return [int(part) for part in re.split(r"[,\s]+", text.strip("[]() ")) if part]
        return int(text)
    except ValueError:
        return text


def base_rules(variant: str, players: int) -> Rules:
    """The rule set's own rules for ``players`` (its defaults, no house rules)."""
    rs = RULE_SETS[variant]
    return rules(variant, {"player_count": players} if len(rs.player_counts) > 1 else {})


def _field_value(widget: Widget) -> Any:
    """The value of a house rule's field: a checkbox, a text field or a choice."""
    if isinstance(widget, Checkbox | Input | Select):
        return widget.value
    raise TypeError(f"a house rule's field is a checkbox, a text field or a choice, not {type(widget).__name__}")


def _rule_set_line(name: str, chosen: bool) -> Text:
    return Text.assemble("▶ " if chosen else "  ", (f"{name:<14}", "bold"), " ", _p("variant", RULE_SETS[name].title))


def _saved_line(path: Path) -> Text:
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    return Text.assemble(f"{path.name:<40} ", (_("saved {when}", when=when), "dim"))


class FlagToggle(Checkbox):
    """A house rule that is on or off: ``[X] yes`` or ``[ ] no``, readable without colour."""

    BUTTON_LEFT = "["
    BUTTON_RIGHT = "]"

    def __init__(self, value: bool, id: str) -> None:
        super().__init__(_("yes") if value else _("no"), value, id=id, compact=True)

    @property
    def _button(self) -> Content:
        return Content.assemble(
            self.BUTTON_LEFT, ("X" if self.value else " ", self.get_visual_style("toggle--button")), self.BUTTON_RIGHT
        )

    def watch_value(self) -> None:
        """Say yes or no as well as ticking (then the toggle's own reaction)."""
        self.label = _("yes") if self.value else _("no")
        super().watch_value()


class SetupScreen(Screen[tuple[Table, GameChoice]]):
    """The setup screen; dismissed with the new table and the choice that made it.

    ``folder`` is where saved games are looked for (records with a seed file next to them).
    """

    DEFAULT_CSS = """
    SetupScreen { layout: vertical; }
    SetupScreen #setup-title { height: 1; background: $primary-background; text-style: bold; padding: 0 1; }
    SetupScreen #form { height: 1fr; padding: 0 1; }
    SetupScreen .heading { height: 1; margin-top: 1; text-style: bold underline; }
    SetupScreen #rule-sets { height: auto; max-height: 10; border: none; padding: 0; }
    SetupScreen #blurb { height: auto; color: $text-muted; }
    SetupScreen #levels { height: auto; color: $text-muted; }
    SetupScreen .field { height: 1; }
    SetupScreen .field > Label { width: 26; }
    SetupScreen #rule-sets > .option-list--option-highlighted { text-style: reverse; }
    SetupScreen .field:focus-within { background-tint: $foreground 5%; }
    SetupScreen .field:focus-within > Label { text-style: reverse; }
    SetupScreen .field > Select { width: 22; }
    SetupScreen .field > Input { width: 30; }
    SetupScreen .field.flag { height: auto; }
    SetupScreen .field.flag > Label { width: 1fr; height: auto; }
    SetupScreen .field.flag > Select { width: 36; }
    SetupScreen .note { height: 1; color: $text-muted; }
    SetupScreen .buttons { height: 1; margin-top: 1; }
    SetupScreen Button { margin-right: 2; width: auto; min-width: 0; }
    SetupScreen Button:focus { text-style: reverse bold; }
    SetupScreen #saved { height: auto; max-height: 6; border: none; padding: 0; }
    SetupScreen #setup-message { height: 2; padding: 0 1; }
    SetupScreen #setup-keys { height: 1; color: $text-muted; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+n", "start", "start the game", priority=True),
    ]

    def __init__(self, folder: str | os.PathLike[str] = ".") -> None:
        super().__init__()
        self.folder = Path(folder)
        self.variant = "classic"
        self.players = RULE_SETS["classic"].player_counts[0]
        self.touched: set[str] = set()
        """House rules the person has set: they keep their value when the rule set changes."""
        self.shown: dict[str, Any] = {}
        """What the screen last put in each house rule's field."""
        self.message = ""
        self.saved = saved_games(self.folder)

    # -- layout ------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(_("Barbu · a new game, or a saved one"), id="setup-title")
        with VerticalScroll(id="form", can_focus=False):
            yield Static(_("Rule set"), classes="heading")
            names = list(RULE_SETS)
            rule_sets = [Option(_rule_set_line(n, n == self.variant), id=n) for n in names]
            yield OptionList(*rule_sets, id="rule-sets", compact=True)
            yield Static(id="blurb")
            with Horizontal(classes="field", id="players-row"):
                yield Label(_("Players"), id="players-label")
                yield Select([(str(n), n) for n in (4,)], allow_blank=False, id="players", compact=True)
            yield Static(_("House rules"), classes="heading", id="flags-heading")
            defaults = base_rules("classic", 4).flags
            for name in FLAG_ORDER:
                with Horizontal(classes="field flag", id=f"row-{name}"):
                    yield Label(_p("flag", FLAG_HELP[name]) if name in FLAG_HELP else name, classes="flag-help")
                    yield self._flag_widget(name, getattr(defaults, name))
            yield Static(_("Seats"), classes="heading")
            with Horizontal(classes="field"):
                yield Label(_("Your seat (at the bottom)"))
                yield Select([(_("seat {n}", n=0), 0)], allow_blank=False, value=0, id="seat", compact=True)
            offered = offered_levels()
            levels = [(_(words).split(":")[0], level) for level, words in offered.items()]
            for i in range(MOST_BOTS):
                with Horizontal(classes="field", id=f"bot-row-{i}"):
                    yield Label(_("bot {n}", n=i + 1), id=f"bot-name-{i}")
                    yield Select(levels, allow_blank=False, value=default_bot_level(), id=f"bot-{i}", compact=True)
            yield Static("\n".join(_(words) for words in offered.values()), classes="note", id="bot-help")
            with Horizontal(classes="field"):
                yield Label(_("Seed (blank: a fresh one)"))
                yield Input(placeholder=_("a number or a word"), id="seed", compact=True)
            with Horizontal(classes="buttons"):
                yield Button(Content(_("[ Start the game ]")), id="start", compact=True)
            yield Static(_("Resume a saved game"), classes="heading")
            with Horizontal(classes="field"):
                yield Label(_("Saved game file"))
                yield Input(placeholder="FILE.json", id="resume-path", compact=True)
            if self.saved:
                yield Static(_("Saved games here (Enter takes one):"), classes="note")
                yield OptionList(*[Option(_saved_line(p), id=str(p)) for p in self.saved], id="saved", compact=True)
            else:
                yield Static(_("No saved games in {folder}", folder=self.folder.resolve()), classes="note")
            with Horizontal(classes="buttons"):
                yield Button(Content(_("[ Resume ]")), id="resume", compact=True)
        yield Static(id="setup-message")
        yield Static(
            _("Tab/⇧Tab move · ↑↓ choose · Enter/Space set · ^N start · ^Q quit"), id="setup-keys", markup=False
        )

    def _flag_widget(self, name: str, value: Any) -> Checkbox | Select[Any] | Input:
        wid = f"flag-{name}"
        if name in FLAG_CHOICES:
            words = [(_p("flag", CHOICE_HELP[f"{name}={c}"]), c) for c in FLAG_CHOICES[name]]
            return Select(words, allow_blank=False, value=value, id=wid, compact=True)
        if name in TEXT_FLAGS:
            return Input(flag_text(value), id=wid, compact=True)
        if isinstance(value, bool):
            return FlagToggle(value, id=wid)
        return Select([(str(value), value)], allow_blank=False, value=value, id=wid, compact=True)

    def on_mount(self) -> None:
        self.query_one("#rule-sets", OptionList).highlighted = 0
        self.show_rule_set()
        self.query_one("#rule-sets", OptionList).focus()

    # -- following the person's choices ---------------------------------------------------

    def show_rule_set(self) -> None:
        """Show the chosen rule set: its description, player counts, the house rules that
        apply (at its defaults unless the person set them), the seats and the bots."""
        rs = RULE_SETS[self.variant]
        if self.players not in rs.player_counts:
            self.players = rs.player_counts[0]
        base = base_rules(self.variant, self.players)
        with self.prevent(Select.Changed, Checkbox.Changed, Input.Changed):
            self.query_one("#blurb", Static).update(Text(_p("variant", rs.blurb)))
            players = self.query_one("#players", Select)
            players.set_options([(str(n), n) for n in sorted(rs.player_counts)])
            players.value = self.players
            self.query_one("#players-row").display = len(rs.player_counts) > 1
            self.query_one("#flags-heading", Static).update(_("House rules of {title}", title=_p("variant", rs.title)))
            for name in FLAG_ORDER:
                self.query_one(f"#row-{name}").display = name in applicable_flags(base)
                self._show_flag(name, getattr(base.flags, name), base.contracts_per_declarer)
            seat = self.query_one("#seat", Select)
            chosen_seat = seat.value if isinstance(seat.value, int) and seat.value < self.players else 0
            seat.set_options([(_("seat {n}", n=s), s) for s in range(self.players)])
            seat.value = chosen_seat
            names = SEAT_NAMES.get(self.players, [])
            for i in range(MOST_BOTS):
                self.query_one(f"#bot-row-{i}").display = i < self.players - 1
                if i < self.players - 1:
                    where = _(names[i + 1]) if i + 1 < len(names) else _("Bot {n}", n=i + 1)
                    self.query_one(f"#bot-name-{i}", Label).update(_("{name} bot", name=where))

    def _show_flag(self, name: str, default: Any, contracts: int) -> None:
        """Put the rule set's default in a house rule's field, unless the person set it."""
        widget = self.query_one(f"#flag-{name}")
        keep = name in self.touched
        if isinstance(widget, Checkbox):
            if not keep:
                widget.value = bool(default)
        elif isinstance(widget, Input):
            if not keep:
                widget.value = flag_text(default)
        elif isinstance(widget, Select):
            current = widget.value
            if name == "compulsory_doubles":
                widget.set_options([(str(k), k) for k in range(contracts + 1)])
                if isinstance(current, int):
                    current = min(current, contracts)
            widget.value = current if keep and current is not Select.NULL else default
        self.shown[name] = _field_value(widget)

    def _note(self, widget_id: str | None, value: object) -> None:
        """A house rule the person changed keeps its value when the rule set changes."""
        if widget_id and widget_id.startswith("flag-"):
            name = widget_id.removeprefix("flag-")
            if value != self.shown.get(name):
                self.touched.add(name)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "rule-sets" and event.option.id and event.option.id != self.variant:
            rule_sets = event.option_list
            rule_sets.replace_option_prompt(self.variant, _rule_set_line(self.variant, False))
            self.variant = event.option.id
            self.players = RULE_SETS[self.variant].player_counts[0]
            rule_sets.replace_option_prompt(self.variant, _rule_set_line(self.variant, True))
            self.show_rule_set()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "rule-sets":
            self.focus_next()
        elif event.option_list.id == "saved":
            path_input = self.query_one("#resume-path", Input)
            path_input.value = event.option.id or ""
            self.query_one("#resume", Button).focus()

    def on_select_changed(self, event: Select.Changed) -> None:
        wid = event.select.id or ""
        if wid == "players" and isinstance(event.value, int) and event.value != self.players:
            self.players = event.value
            self.show_rule_set()
        else:
            self._note(wid, event.value)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._note(event.checkbox.id, event.value)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._note(event.input.id, event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "resume-path":
            self.action_resume()
        else:
            self.action_start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "resume":
            self.action_resume()
        else:
            self.action_start()

    # -- what the screen holds ----------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """The options of the chosen game: the player count when the rule set has several
        and it is not the first, and each house rule that differs from the rule set's own."""
        rs = RULE_SETS[self.variant]
        base = base_rules(self.variant, self.players)
        out: dict[str, Any] = {}
        if len(rs.player_counts) > 1 and self.players != rs.player_counts[0]:
            out["player_count"] = self.players
        for name in FLAG_ORDER:
            if name not in applicable_flags(base):
                continue
            widget = self.query_one(f"#flag-{name}")
            value: Any = typed_flag(name, widget.value) if isinstance(widget, Input) else _field_value(widget)
            default = getattr(base.flags, name)
            if value != (list(default) if isinstance(default, tuple) else default):
                out[name] = value
        return out

    def choice(self) -> GameChoice:
        """The new game the screen holds now (its options not yet checked)."""
        seat = self.query_one("#seat", Select).value
        bots = tuple(str(self.query_one(f"#bot-{i}", Select).value) for i in range(self.players - 1))
        return GameChoice(
            variant=self.variant,
            options=self.options(),
            seat=seat if isinstance(seat, int) else 0,
            bots=bots,
            seed=seed_of(self.query_one("#seed", Input).value),
        )

    def refuse(self, why: str, head: str = "") -> None:
        """Say why the game cannot start; every field keeps its value."""
        head = head or _("Refused:")
        self.message = f"{head} {why}"
        self.query_one("#setup-message", Static).update(Text.assemble((head, "bold reverse"), " ", why))
        self.app.bell()

    # -- starting --------------------------------------------------------------------

    def action_start(self) -> None:
        """Start the new game the screen holds, or say why not."""
        choice = self.choice()
        try:
            rules(choice.variant, choice.options)  # the core's own check, with its own message
            table = open_table(choice)
        except (BarbuError, ValueError) as e:
            self.refuse(error_text(e))
            return
        self.dismiss((table, choice))

    def action_resume(self) -> None:
        """Resume the saved game named in the file field, or say why it cannot be."""
        path = self.query_one("#resume-path", Input).value.strip()
        if not path:
            self.refuse(
                _("type the saved game's file name (or choose one of the saved games) first"), _("Not resumed:")
            )
            return
        choice = GameChoice(resume=path)
        try:
            table = open_table(choice)
        except (BarbuError, ValueError) as e:
            self.refuse(error_text(e), _("Not resumed:"))
            return
        self.dismiss((table, choice))


__all__ = [
    "FLAG_ORDER",
    "GameChoice",
    "SetupScreen",
    "base_rules",
    "flag_text",
    "open_table",
    "seed_of",
    "typed_flag",
]
