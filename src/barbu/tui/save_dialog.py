"""The small dialogs: save the game under a file name, save before quitting, help."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from barbu.language import N_, _

HELP = N_("""\
[b]Barbu[/b] — you sit at the bottom; the bots sit round the table.

[b]Playing a card[/b]   ←→ choose (↑↓ jump a suit), Enter or a click plays it;
                 or type it: qs = Q♠, 10h or th = 10♥, as = A♠.
                 • under a card: it is legal (others are dimmed).
                 Domino: Enter (or p) passes when no card fits.
[b]Declaring[/b]        ↑↓ and Enter, or the number / suit letter / rank.
[b]Doubling[/b]         ↑↓ move, Space ticks a box, Enter calls what is ticked;
                 p pass, m maximum, f flanks. A compulsory double is ticked.
[b]Chinese poker[/b]    b/1 back, m/2 middle, f/3 front, u/0 take out, Enter sets.

F1 or ?  this help          F2 or o  score sheet
F3 or i  hint (the strongest bot says what it would do)
Ctrl+S   save (a barbu-record/1 file and its .barbu-seed file)
Ctrl+Q   quit (saves first when the game has a file)

Esc closes this help.""")


class HelpScreen(ModalScreen[None]):
    """The keys, on one page."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: 80; max-width: 100%; height: auto; max-height: 100%;
                          border: round $primary; background: $surface; padding: 0 1; }
    """

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("escape", "close", "close"),
        Binding("f1", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("enter", "close", show=False),
    ]

    def compose(self) -> ComposeResult:
        yield Static(_(HELP))

    def action_close(self) -> None:
        self.dismiss(None)


class SaveDialog(ModalScreen[str | None]):
    """Ask for a file name; ``Enter`` saves there, ``Esc`` cancels."""

    DEFAULT_CSS = """
    SaveDialog { align: center middle; }
    SaveDialog > Vertical { width: 64; max-width: 100%; height: auto; border: round $primary;
                            background: $surface; padding: 0 1; }
    SaveDialog Static { height: auto; }
    """

    BINDINGS = [Binding("escape", "cancel", "cancel")]  # noqa: RUF012 - Textual reads it

    def __init__(self, path: str, title: str = "Save the game as") -> None:
        super().__init__()
        self.path = path
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"[b]{self.title_text}[/b]")
            yield Input(self.path, id="save-path")
            yield Static("Enter save (over the file if it exists) · Esc cancel. FILE.barbu-seed goes next to it.")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class QuitDialog(ModalScreen[str]):
    """Before quitting a game with no file yet: save (``Enter``), quit anyway (``Ctrl+Q``
    again, which the app handles) or stay (``Esc``). Dismissed with ``save:PATH`` or ``""``.
    """

    DEFAULT_CSS = """
    QuitDialog { align: center middle; }
    QuitDialog > Vertical { width: 64; max-width: 100%; height: auto; border: round $warning;
                            background: $surface; padding: 0 1; }
    QuitDialog Static { height: auto; }
    """

    BINDINGS = [Binding("escape", "stay", "back to the game")]  # noqa: RUF012 - Textual reads it

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Save the game before quitting?[/b]")
            yield Input(self.path, id="quit-path")
            yield Static("Enter save and quit · Ctrl+Q quit without saving · Esc back to the game")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        path = event.value.strip()
        self.dismiss(f"save:{path}" if path else "")

    def action_stay(self) -> None:
        self.dismiss("")


__all__ = ["HELP", "HelpScreen", "QuitDialog", "SaveDialog"]
