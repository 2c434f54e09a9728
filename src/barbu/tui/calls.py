"""The doubling: the calls made so far and, at the person's turn, what they may say.

Each seat the person may double or redouble now (read from the core's legal calls) is
a line with a tick box; a compulsory double is ticked in advance and explained. Keys:
``↑`` ``↓`` move, ``Space`` ticks, ``Enter`` calls what is ticked (nothing ticked is a
pass), ``p`` passes, ``m`` says *maximum*, ``f`` says *flanks*; the line under the boxes
shows what each shorthand would mean now, as the core expands it.

>>> call_words((0, 1, (2,), ()), ["You", "West", "North", "East"])
'double North'
>>> call_words((3, 2, (), (1,)), ["You", "West", "North", "East"])
'redouble West (late)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widget import Widget

from barbu.actions import Call
from barbu.language import _, _p, ordinal
from barbu.rulesets import Rules
from barbu.tui.intents import Intent
from barbu.view import SeatView


def call_words(call: tuple[int, int, tuple[int, ...], tuple[int, ...]], names: Sequence[str]) -> str:
    """One call of the view in words."""
    _seat, rnd, doubles, redoubles = call
    parts = []
    if doubles:
        parts.append(_("double {names}", names=", ".join(names[s] for s in doubles)))
    if redoubles:
        parts.append(_("redouble {names}", names=", ".join(names[s] for s in redoubles)))
    text = "; ".join(parts) or _p("call", "pass")
    return text + (_(" (late)") if rnd == 2 else "")


@dataclass
class Box:
    """One tick box: double or redouble ``seat``."""

    kind: str
    seat: int
    ticked: bool
    note: str


def compulsory_reason(view: SeatView, rules: Rules, names: Sequence[str]) -> str:
    """Why the person must double the declarer now (RULES.md §2.7), in numbers."""
    d = view.declarer
    assert d is not None and view.seat is not None
    need = rules.flags.compulsory_doubles
    k = len(view.declared[d])
    done = sum(1 for h in view.history if h.declarer == d and any(a == view.seat and b == d for a, b, _ in h.pairs))
    who = names[d]
    return _(
        "Compulsory: {need} doubles of {name} are due in {name}'s set of {count}; "
        "at its {k} contract you have made {done}: double {name} now.",
        need=need,
        name=who,
        count=rules.contracts_per_declarer,
        k=ordinal(k),
        done=done,
    )


class CallsPanel(Widget, can_focus=True):
    """The calls; see the module docstring."""

    DEFAULT_CSS = """
    CallsPanel { height: 1fr; padding: 0 0 0 1; }
    """

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("space", "tick", "tick", show=False),
        Binding("enter", "call", "call", show=False),
        Binding("p", "word('pass')", "pass", show=False),
        Binding("m", "word('maximum')", "maximum", show=False),
        Binding("f", "word('flanks')", "flanks", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: SeatView | None = None
        self.names: Sequence[str] = ()
        self.rules: Rules | None = None
        self.boxes: list[Box] = []
        self.cursor = 0
        self.shorthands: dict[str, str] = {}
        self.middle = ""
        self.stamp = -1

    def show(
        self,
        view: SeatView,
        rules: Rules,
        names: Sequence[str],
        stamp: int,
        shorthands: dict[str, str] | None = None,
        middle: str = "",
    ) -> None:
        """Show the calls of ``view``; when the person is to call, offer the boxes.

        ``shorthands`` maps each word to what it would mean now (or why it is refused).
        """
        self.view, self.rules, self.names, self.middle = view, rules, names, middle
        self.shorthands = shorthands or {}
        if stamp != self.stamp:
            self.stamp = stamp
            self.cursor = 0
            self.boxes = self._boxes(view, names)
        self.refresh()

    def _boxes(self, view: SeatView, names: Sequence[str]) -> list[Box]:
        if view.to_act != view.seat or view.phase != "call":
            return []
        calls = [a for a in view.legal_actions if isinstance(a, Call)]
        doubles = sorted({s for c in calls for s in c.double})
        redoubles = sorted({s for c in calls for s in c.redouble})
        boxes = []
        for s in doubles:
            note = _("declarer") if s == view.declarer else ""
            if s in view.must_double:
                note = _("compulsory")
            boxes.append(Box("double", s, s in view.must_double, note))
        for s in redoubles:
            boxes.append(Box("redouble", s, False, _("doubled you")))
        return boxes

    @property
    def call(self) -> Call:
        """The call the ticked boxes make."""
        return Call(
            double=tuple(b.seat for b in self.boxes if b.kind == "double" and b.ticked),
            redouble=tuple(b.seat for b in self.boxes if b.kind == "redouble" and b.ticked),
        )

    def point_at(self, call: Call) -> None:
        """Tick the boxes of ``call`` (a hint)."""
        for b in self.boxes:
            b.ticked = b.seat in (call.double if b.kind == "double" else call.redouble)
        self.refresh()

    def render(self) -> Text:
        view = self.view
        if view is None or self.rules is None:
            return Text()
        names = self.names
        out = Text()
        contract = self.rules.contract(view.contract) if view.contract else None
        title = _("Doubling · {contract}", contract=_p("contract", contract.title) if contract else "")
        if contract is not None and contract.doubling_class:
            title += " (" + (_("negative") if contract.doubling_class == "negative" else _("positive")) + ")"
        out.append(title + "\n", style="bold")
        if not view.calls:
            out.append(_("No calls yet.") + "\n", style="dim")
        said: dict[int, list[str]] = {}
        for call in view.calls:  # a late redouble goes on the line of the seat's first call
            said.setdefault(call[0], []).append(call_words(call, names))
        for seat, words in said.items():
            out.append(f"{names[seat]:<11}", style="bold")
            out.append("; ".join(words) + "\n")
        if not self.boxes and view.to_act == view.seat and view.phase == "call":
            out.append("\n" + _("You may only pass: Enter or p.") + "\n", style="bold")
        if self.boxes:
            if view.players < 5:
                out.append("\n")
            out.append(_("Your call"), style="bold")
            out.append(" " + _("(Space ticks, Enter calls)") + "\n", style="dim")
            for i, b in enumerate(self.boxes):
                mark = "x" if b.ticked else " "
                kind = _("double") if b.kind == "double" else _("redouble")
                line = Text(f"{'>' if i == self.cursor else ' '} [{mark}] {kind} {names[b.seat]}")
                if b.note:
                    line.append(f"  {b.note}", style="italic")
                if i == self.cursor and self.has_focus:
                    line.stylize("reverse", 0, len(line.plain.split("  ")[0]))
                out.append_text(line)
                out.append("\n")
        if view.to_act == view.seat and view.phase == "call":
            shorthands = [("m", "maximum")] if view.seat == view.declarer else [("m", "maximum"), ("f", "flanks")]
            for key, word in shorthands:
                meaning = self.shorthands.get(word)
                if meaning is not None:
                    out.append(f"{key} ", style="bold")
                    dim = meaning == _("not now: a compulsory double") or meaning.startswith("not ")
                    out.append(f"{_p('call', word)}: {meaning}\n", style="dim" if dim else "")
            if view.must_double:
                out.append(compulsory_reason(view, self.rules, names) + "\n", style="italic")
        if self.middle:
            out.append("\n" + self.middle, style="italic")
        out.rstrip()
        return out

    def action_move(self, step: int) -> None:
        if self.boxes:
            self.cursor = (self.cursor + step) % len(self.boxes)
            self.refresh()

    def action_tick(self) -> None:
        if self.boxes:
            box = self.boxes[self.cursor]
            box.ticked = not box.ticked
            self.refresh()

    def action_call(self) -> None:
        if self.view is not None and self.view.to_act == self.view.seat:
            self.post_message(Intent(self.call))

    def action_word(self, word: str) -> None:
        if self.view is not None and self.view.to_act == self.view.seat:
            self.post_message(Intent(Call() if word == "pass" else Call(word=word)))

    def on_click(self, event: events.Click) -> None:
        # The boxes start after the title, the calls, the pairs line and two lines.
        view = self.view
        if view is None or not self.boxes:
            return
        first = 1 + max(len({c[0] for c in view.calls}), 1) + (2 if view.players < 5 else 1)
        index = event.y - first
        if 0 <= index < len(self.boxes):
            self.cursor = index
            self.action_tick()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


__all__ = ["Box", "CallsPanel", "call_words", "compulsory_reason"]
