"""Declaring: the contracts still open to the declarer, then the trump suit or domino rank.

The choices are exactly the core's legal actions for the person's seat. Arrows and
``Enter`` (or a click) choose; shortcuts: the digits ``1``… for contracts, the suit
letters ``s h d c`` for trumps, the rank letters ``2``…``9 t j q k a`` for domino.

>>> from barbu import Game, seat_view
>>> game = Game.new("classic", seed=2)
>>> view = seat_view(game, game.to_act)
>>> title, choices, keys = declare_choices(view, game.rules)
>>> title.plain
'Choose your contract (your 1st of 7)'
>>> [str(a) for a, _ in choices][:3], keys["1"], keys["7"]
(['no-tricks', 'no-hearts', 'no-queens'], 0, 6)
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from barbu.actions import Action, Declare, NameRank, NameTrump
from barbu.cards import RANKS, SUIT_NAMES
from barbu.language import _, _p, ordinal
from barbu.rulesets import Rules
from barbu.tui.card_faces import cards_text, rank_face, signed, suit_text
from barbu.tui.intents import Intent
from barbu.view import SeatView


def _contract_line(rules: Rules, contract_id: str, key: str) -> Text:
    contract = rules.contract(contract_id)
    klass = contract.doubling_class if rules.doubling and contract.doubling_class else ""
    klass = {"negative": _("negative"), "positive": _("positive")}.get(klass, klass)
    line = Text(f"{key} ", style="bold")
    line.append(_p("contract", contract.title).ljust(max(len(_p("contract", c.title)) for c in rules.contracts) + 1))
    line.append(klass.ljust(9), style="italic")
    line.append(f"T {signed(contract.total(rules.shape)):>5}", style="dim")
    return line


def declare_choices(view: SeatView, rules: Rules) -> tuple[Text, list[tuple[Action, Text]], dict[str, int]]:
    """The title, the (action, label) choices and the shortcut keys of the person's decision."""
    legal: Sequence[Action] = view.legal_actions
    hand = view.hand
    choices: list[tuple[Action, Text]] = []
    keys: dict[str, int] = {}
    if view.phase == "contract":
        assert view.seat is not None
        k = len(view.declared[view.seat]) + 1
        title = Text(
            _("Choose your contract (your {k} of {count})", k=ordinal(k), count=rules.contracts_per_declarer),
            style="bold",
        )
        for i, action in enumerate(legal):
            assert isinstance(action, Declare)
            key = str(i + 1) if i < 9 else " "
            choices.append((action, _contract_line(rules, action.contract, key)))
            if i < 9:
                keys[key] = i
    elif view.phase == "trump":
        title = Text(_("Choose the trump suit"), style="bold")
        for i, action in enumerate(legal):
            assert isinstance(action, NameTrump)
            suit = action.suit
            held = [c for c in sorted(hand, reverse=True) if c // 13 % 4 == suit]
            line = Text(f"{'shdc'[suit]} ", style="bold")
            line.append_text(suit_text(suit, name=True))
            line.append(" " * (10 - len(SUIT_NAMES[suit])))
            line.append(_("{n} cards ", n=len(held)), style="dim")
            line.append_text(cards_text(held))
            choices.append((action, line))
            keys["shdc"[suit]] = i
    else:
        title = Text(_("Choose the domino starting rank"), style="bold")
        for i, action in enumerate(legal):
            assert isinstance(action, NameRank)
            held = [c for c in hand if c % 13 == action.rank]
            key = RANKS[action.rank].lower()
            line = Text(f"{key} ", style="bold")
            line.append(_("from {rank}", rank=rank_face(action.rank)).ljust(9))
            if held:
                line.append_text(Text(_("you hold "), style="dim") + cards_text(held))
            else:
                line.append(_("you hold none"), style="dim")
            choices.append((action, line))
            keys[key] = i
    return title, choices, keys


class ChoiceList(OptionList):
    """An option list whose shortcut keys choose at once."""

    DEFAULT_CSS = """
    ChoiceList, ChoiceList:focus { border: none; padding: 0; background: $surface; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hotkeys: dict[str, int] = {}

    def on_key(self, event: events.Key) -> None:
        key = (event.character or "").lower()
        if key in self.hotkeys:
            event.stop()
            self.highlighted = self.hotkeys[key]
            self.action_select()


class DeclareChoice(Vertical):
    """The declarer's choice; see the module docstring."""

    DEFAULT_CSS = """
    DeclareChoice { height: 1fr; padding: 0 1; }
    DeclareChoice > #declare-title { height: 1; }
    DeclareChoice > ChoiceList { height: auto; max-height: 14; border: none; padding: 0; }
    DeclareChoice > #declare-note { height: auto; color: $text-muted; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.actions: list[Action] = []
        self.stamp: tuple[int, str] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="declare-title")
        yield ChoiceList(id="declare-list")
        yield Static(id="declare-note")

    def show(self, view: SeatView, rules: Rules, stamp: int) -> None:
        """Offer the person's choices (rebuilt only when the decision changes)."""
        key = (stamp, view.phase)
        if key == self.stamp:
            return
        self.stamp = key
        title, choices, keys = declare_choices(view, rules)
        self.query_one("#declare-title", Static).update(title)
        options = self.query_one(ChoiceList)
        options.clear_options()
        options.add_options([Option(label, id=str(i)) for i, (_, label) in enumerate(choices)])
        options.hotkeys = keys
        options.highlighted = 0 if choices else None
        self.actions = [a for a, _ in choices]
        note = ""
        if view.phase == "contract" and view.seat is not None and view.declared[view.seat]:
            done = ", ".join(_p("contract", rules.contract(c).title) for c in view.declared[view.seat])
            note = _("Already declared: {contracts}", contracts=done)
        self.query_one("#declare-note", Static).update(note)

    def point_at(self, action: Action) -> None:
        """Highlight ``action`` (a hint)."""
        if action in self.actions:
            self.query_one(ChoiceList).highlighted = self.actions.index(action)

    def focus_choices(self) -> None:
        """Give the keyboard to the list."""
        self.query_one(ChoiceList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        index = event.option_index
        if 0 <= index < len(self.actions):
            self.post_message(Intent(self.actions[index]))


__all__ = ["ChoiceList", "DeclareChoice", "declare_choices"]
