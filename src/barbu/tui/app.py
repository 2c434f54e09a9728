"""``barbu play``: the full-screen game. One person against bots, as at a card table.

The screen, from top to bottom: a title line (rule set, deal, declarer, contract);
the table in the middle (the trick, the domino rows, the declarer's choice, the calls,
the Chinese-poker rows or the end-of-deal summary) with the score board on its right;
the person's hand; two message lines (what to do now, and what just happened or why
an action was refused); the keys.

The app is the person's own server: :class:`~barbu.tui.table.Table` holds the game,
widgets send :class:`~barbu.tui.intents.Intent` messages, and the app applies them
through the core's checked door. Everything shown comes from the person's seat view.
Bots think in a worker thread; ``pace`` scales the pauses that let a person follow
their play (0 in tests).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher, Static

from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play
from barbu.bots import Bot, make_bot
from barbu.coach import advise_view
from barbu.coach.words import advice_line, text
from barbu.errors import IllegalAction
from barbu.game import Game
from barbu.language import N_, _, _p, error_text
from barbu.tui.arrangement import ArrangementPanel
from barbu.tui.calls import CallsPanel, call_words
from barbu.tui.card_faces import card_face
from barbu.tui.declaring import DeclareChoice
from barbu.tui.domino import DominoLayout
from barbu.tui.hand import Hand, sorted_hand
from barbu.tui.intents import Intent
from barbu.tui.message_line import action_words, in_words, message_lines
from barbu.tui.review import ReviewScreen, last_trick_lines, review_lines
from barbu.tui.save_dialog import HelpScreen, QuitDialog, SaveDialog
from barbu.tui.saved_game import SaveError, save_table, seed_path
from barbu.tui.score_sheet import ScoreSheet
from barbu.tui.scoreboard import Scoreboard
from barbu.tui.setup import GameChoice, SetupScreen
from barbu.tui.summary import SummaryPanel, deal_lines, ranking_lines
from barbu.tui.table import Table
from barbu.tui.trick import TrickArea
from barbu.view import DealSummary, SeatView

DEFAULT_SAVE = "barbu-game.json"

BOT_PAUSE = 0.5
"""Seconds before a bot acts, at pace 1."""
GAME_ACTIONS = ("help", "sheet", "hint", "advice", "pass_turn", "save")
"""The app's actions that need a game (off while the setup screen is open)."""
TRICK_PAUSE = 1.4
"""Seconds a finished trick stays on the table before a bot leads again, at pace 1."""


class BarbuApp(App[int]):
    """The terminal game; see the module docstring."""

    TITLE = "Barbu"

    CSS = """
    Screen { layout: vertical; }
    #header { height: 1; background: $primary-background; text-style: bold; padding: 0 1; }
    #main { height: 1fr; }
    #centre { width: 1fr; height: 1fr; border: round $primary; }
    #hand { height: 2; margin: 0 0; }
    #message { height: 2; padding: 0 1; }
    #keys { height: 1; color: $text-muted; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "help"),
        Binding("question_mark", "help", "help", show=False),
        Binding("f2", "sheet", "score sheet"),
        Binding("o", "sheet", "score sheet", show=False),
        Binding("f3", "hint", "hint"),
        Binding("i", "hint", "hint", show=False),
        Binding("f4", "review", "review"),
        Binding("f5", "last_trick", "last trick"),
        Binding("f6", "advice", "values"),
        Binding("v", "advice", "values", show=False),
        Binding("p", "pass_turn", "pass", show=False),
        Binding("ctrl+s", "save", "save", priority=True),
        Binding("ctrl+q", "leave", "quit", priority=True),
    ]

    def __init__(
        self,
        table: Table | None = None,
        save_path: str | None = None,
        pace: float = 1.0,
        notice: str = "",
        folder: str = ".",
    ) -> None:
        """``table`` None: the setup screen comes first (saved games looked for in ``folder``)."""
        super().__init__()
        self._table = table
        self.save_path = save_path
        self.pace = pace
        self.notice = notice
        self.folder = folder
        self.saved_to: str | None = None
        self.summary: DealSummary | None = None
        self.summary_trick: list[tuple[int, int | None]] = []
        self.summary_rows: list[Sequence[int] | None] = []
        self.seen_deals = len(table.view().history) if table is not None else 0
        self.bot_running = False
        self.hint_running = False

    @property
    def table(self) -> Table:
        """The game's table (there is none while the setup screen is open)."""
        if self._table is None:
            raise RuntimeError("no game yet: the setup screen is still open")
        return self._table

    @property
    def has_table(self) -> bool:
        """True once a game is on the table (from the arguments or the setup screen)."""
        return self._table is not None

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="main"):
            with ContentSwitcher(initial="trick", id="centre"):
                yield TrickArea(id="trick")
                yield DominoLayout(id="domino")
                yield DeclareChoice(id="declare")
                yield CallsPanel(id="calls")
                yield ArrangementPanel(id="arrange")
                yield SummaryPanel(id="summary")
            yield Scoreboard(id="board")
        yield Hand(id="hand")
        yield Static(id="message")
        yield Static(id="keys")

    def on_mount(self) -> None:
        if self._table is None:
            self.push_screen(SetupScreen(self.folder), self._begin)
        else:
            self.refresh_table()

    def _begin(self, chosen: tuple[Table, GameChoice] | None) -> None:
        """Sit down at the table the setup screen made."""
        if chosen is None:
            self.exit(0)
            return
        table, choice = chosen
        self._table = table
        self.seen_deals = len(table.view().history)
        if choice.resume:
            self.save_path = self.save_path or choice.resume
            self.notice = _("Resumed {file}.", file=choice.resume)
        else:
            self.notice = _(
                "New game of {title}, seed {seed}.", title=_p("variant", table.rules.ruleset.title), seed=table.seed
            )
        self.refresh_table()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys wait for a game: only quitting works on the setup screen."""
        return not (self._table is None and action in GAME_ACTIONS)

    # -- names -------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """Seat names as the person sees them."""
        return self.table.names

    def _who(self, seat: int | None) -> str:
        if seat is None:
            return _("nobody")
        return _("you") if seat == self.table.seat else self.names[seat]

    def _title(self, contract_id: str) -> str:
        return _p("contract", self.table.rules.contract(contract_id).title)

    # -- showing the state ---------------------------------------------------------

    def refresh_table(self) -> None:
        """Show the person's view everywhere, give the keyboard to the right widget, and
        let the bots play when it is their turn."""
        table = self.table
        view = table.view()
        rules = table.rules
        names = self.names
        self.query_one("#header", Static).update(self._header(view))
        self.query_one(Scoreboard).show(view, rules, names)
        switcher = self.query_one(ContentSwitcher)
        hand = self.query_one(Hand)
        mine = table.person_to_act and self.summary is None
        prompt = ""
        keys = _("F1 help · F2 score sheet · ^S save · ^Q quit")
        hand_mode = "idle"
        legal: list[int] | None = None
        marks: dict[int, str] = {}
        waiting = self._waiting(view)
        if self.summary is not None or view.game_over:
            self._show_summary(view)
            switcher.current = "summary"
            if self.summary is not None:
                prompt = _("Enter: go on to the next deal") if not view.game_over else _("Enter: the final ranking")
                keys = _("Enter go on · F2 score sheet · ^S save · ^Q quit · F1 help")
            else:
                prompt = _("The game is over. F2 shows the whole score sheet.")
        elif view.phase in ("contract", "trump", "rank") and mine:
            self.query_one(DeclareChoice).show(view, rules, table.actions)
            switcher.current = "declare"
            prompt = {
                "contract": _("You are the declarer: choose your contract"),
                "trump": _("You are the declarer: choose the trump suit"),
                "rank": _("You are the declarer: choose the rank domino starts from"),
            }[view.phase]
            keys = _("↑↓ choose · Enter take it · F3 hint · F2 sheet · ^S save · ^Q quit")
        elif view.phase == "call":
            panel = self.query_one(CallsPanel)
            panel.show(view, rules, names, table.actions, self._shorthands() if mine else None, waiting)
            switcher.current = "calls"
            if mine:
                prompt = _("Your call: tick whom to double or redouble, then Enter (p pass)")
                keys = _("↑↓ move · Space tick · Enter call · p pass · m max · f flanks · F3 hint")
        elif view.phase == "arrange":
            panel_a = self.query_one(ArrangementPanel)
            if mine:
                panel_a.start(view.hand, table.actions)
                hand_mode = "arrange"
                marks = panel_a.rows.marks()
                prompt = _("Arrange your cards: b, m or f puts the card under the cursor in a row")
                keys = _("←→ card · b m f row · u take out · Enter set · F3 hint · F2 sheet · ^S save")
            else:
                mine_set = view.arrangements[view.seat] if view.seat is not None and view.arrangements else None
                panel_a.wait(mine_set, waiting)
            switcher.current = "arrange"
        elif view.phase == "play" and view.domino_rows is not None:
            self.query_one(DominoLayout).show(view, names, rules.ruleset.low_rank, waiting)
            switcher.current = "domino"
            if mine:
                hand_mode = "play"
                legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
                if legal:
                    prompt = _(
                        "Your turn to lay a card: {cards}", cards=" ".join(card_face(c) for c in sorted_hand(legal))
                    )
                else:
                    prompt = _("No card fits: Enter (or p) passes")
                keys = _("←→ card · Enter lay · type qs · F3 hint · F2 sheet · ^S save · ^Q quit")
        else:
            self.query_one(TrickArea).show(view, names, self._tags(), waiting)
            switcher.current = "trick"
            if mine and view.phase == "play":
                hand_mode = "play"
                legal = [a.card for a in view.legal_actions if isinstance(a, Play)]
                leads = view.current_trick is None
                if len(legal) == len(view.hand):
                    prompt = _("Your turn to lead: any card") if leads else _("Your turn to play: any card")
                else:
                    cards = " ".join(card_face(c) for c in sorted_hand(legal))
                    prompt = (
                        _("Your turn to lead: {cards}", cards=cards)
                        if leads
                        else _("Your turn to play: {cards}", cards=cards)
                    )
                keys = _("←→ card · Enter play · type qs · F3 hint · F2 sheet · ^S save · ^Q quit")
        hand.show(view.hand, hand_mode, legal, marks, table.actions)
        self.query_one("#message", Static).update(message_lines(prompt, self.notice, self.size.width - 2))
        self.query_one("#keys", Static).update(keys)
        self._focus(switcher.current, hand_mode)
        self._schedule_bot()

    def _focus(self, pane: str | None, hand_mode: str) -> None:
        if hand_mode != "idle":
            self.query_one(Hand).focus()
        elif pane == "declare":
            self.query_one(DeclareChoice).focus_choices()
        elif pane == "calls":
            self.query_one(CallsPanel).focus()
        elif pane == "summary":
            self.query_one(SummaryPanel).focus()
        else:
            self.query_one(Hand).focus()

    def _header(self, view: SeatView) -> Text:
        rules = self.table.rules
        title = _p("variant", rules.ruleset.title)
        title = title if len(title) <= 24 else rules.name
        text = Text(_("{title} · deal {n} of {count}", title=title, n=view.deal_number, count=view.deals_total))
        if view.game_over:
            text.append(_(" · game over"))
            return text
        if view.declarer == view.seat:
            text.append(_(" · You declare"))
        else:
            text.append(_(" · {name} declares", name=self._who(view.declarer).capitalize()))
        if view.contract is not None:
            text.append(f" · {self._title(view.contract)}")
            if view.trump is not None:
                text.append(" " + "♠♥♦♣"["SHDC".index(view.trump)])
            if view.rank is not None:
                text.append(_(" from {rank}", rank=view.rank.replace("T", "10")))
        return text

    def _tags(self) -> list[str]:
        return [self.table.level_of(s) or "" for s in range(self.table.rules.players)]

    def _waiting(self, view: SeatView) -> str:
        if view.to_act is None or view.to_act == view.seat or view.game_over:
            return ""
        doing = {
            "contract": N_("{name} is choosing a contract…"),
            "trump": N_("{name} is choosing trumps…"),
            "rank": N_("{name} is choosing the domino rank…"),
            "call": N_("{name} is calling…"),
            "arrange": N_("{name} is arranging…"),
        }.get(
            view.phase,
            N_("{name} is playing…") if view.phase != "play" or view.domino_rows is None else N_("{name} is laying…"),
        )
        return _(doing, name=self.names[view.to_act])

    def _show_summary(self, view: SeatView) -> None:
        panel = self.query_one(SummaryPanel)
        rules = self.table.rules
        if self.summary is not None:
            totals = [0] * view.players
            for deal in view.history[: self.summary.number]:
                totals = [t + f for t, f in zip(totals, deal.final, strict=True)]
            lines = deal_lines(self.summary, rules, self.names, totals, self.summary_trick, self.summary_rows)
            panel.show(lines)
        else:
            ranking = self.table.game.ranking()
            lines = ranking_lines(ranking, view.totals, self.names, rules)
            panel.show(lines)

    def _shorthands(self) -> dict[str, str]:
        """What ``pass``, ``maximum`` and ``flanks`` would mean now, as the core expands them."""
        out = {}
        game = self.table.game
        for word in ("maximum", "flanks"):
            trial: Game = game.copy()
            try:
                trial.apply(Call(word=word), self.table.seat)
            except IllegalAction as e:
                if self.table.view().must_double:
                    out[word] = _("not now: a compulsory double")
                    continue
                reason = in_words(error_text(e), self.names, self.table.seat)
                reason = re.sub(rf"^(you: )?({word} is )?", "", reason)
                out[word] = reason
                continue
            # The what-if deal may have ended (an undoubled negative contract is skipped):
            # read the call from that deal itself, not from the view of the next one.
            doubling = trial.deals[len(game.deals) - 1].doubling
            assert doubling is not None
            said = doubling.calls[-1]
            out[word] = call_words((said.seat, said.round, said.doubles, said.redoubles), self.names)
        return out

    # -- the person's intents ---------------------------------------------------------

    def on_intent(self, message: Intent) -> None:
        message.stop()
        self.act(message.action)

    def act(self, action: Action) -> bool:
        """Apply the person's ``action``; on refusal show the core's reason. True when applied."""
        table = self.table
        if self.summary is not None or not table.person_to_act:
            self.notice = _("Not your turn: wait for your turn (or Enter after a summary).")
            self.refresh_table()
            return False
        before = table.view()
        try:
            table.act(action)
        except IllegalAction as e:
            self.notice = _("Refused: {why}", why=in_words(error_text(e), self.names, table.seat))
            self.bell()
            self.refresh_table()
            return False
        self.notice = ""
        self._after(before, table.seat, action)
        return True

    def on_hand_chosen(self, message: Hand.Chosen) -> None:
        message.stop()
        hand = self.query_one(Hand)
        if hand.mode == "arrange":
            rows = self.query_one(ArrangementPanel).rows
            action = rows.action()
            if action is None:
                self.notice = _("Not yet: {what}.", what=rows.missing())
                self.refresh_table()
                return
            self.summary_rows = [None] * self.table.rules.players
            self.summary_rows[self.table.seat] = action.cards
            self.act(action)
            return
        self.act(Play(message.card) if message.card is not None else Pass())

    def on_hand_typed(self, message: Hand.Typed) -> None:
        message.stop()
        self.act(Play(message.card))

    def on_hand_row_key(self, message: Hand.RowKey) -> None:
        message.stop()
        panel = self.query_one(ArrangementPanel)
        refusal = panel.rows.put(message.card, message.row)
        self.notice = _("Refused: {why}.", why=refusal) if refusal else ""
        self.refresh_table()

    def on_summary_panel_go_on(self, message: SummaryPanel.GoOn) -> None:
        message.stop()
        if self.summary is not None:
            self.summary = None
            self.summary_trick = []
            self.summary_rows = []
            self.notice = ""
            self.refresh_table()

    def action_pass_turn(self) -> None:
        view = self.table.view()
        if view.phase == "play" and self.table.person_to_act:
            self.act(Pass())

    # -- after an action -----------------------------------------------------------

    def _after(self, before: SeatView, seat: int, action: Action, show: bool = True) -> None:
        """Note what an applied action did (a finished deal gets its summary), then show it."""
        view = self.table.view()
        if len(view.history) > self.seen_deals:
            self.seen_deals = len(view.history)
            self.summary = view.history[-1]
            trick = before.current_trick
            self.summary_trick = []
            if isinstance(action, Play) and before.phase == "play" and before.domino_rows is None:
                if trick is not None:
                    self.summary_trick = list(zip(trick.seats, trick.cards, strict=True))
                self.summary_trick.append((seat, action.card))
        if seat != self.table.seat and isinstance(action, Arrange):
            self.notice = _("{name} has set their rows.", name=self.names[seat])
        elif seat != self.table.seat and not isinstance(action, Play | Pass):
            title = self._title(action.contract) if isinstance(action, Declare) else ""
            self.notice = f"{self.names[seat]}: {action_words(action, self.names, title)}"
        if show:
            self.refresh_table()

    def _bots_to_play(self) -> bool:
        table = self.table
        return (
            self.summary is None
            and not table.game.is_over
            and not table.person_to_act
            and table.game.to_act is not None
        )

    def _schedule_bot(self) -> None:
        if not self.bot_running and self._bots_to_play():
            self.bot_running = True
            self.run_worker(self._bots_play(), group="bots", exclusive=True)

    def _pause(self) -> float:
        """Seconds to wait before the next bot acts: longer while a finished trick is on show."""
        view = self.table.view()
        pause = BOT_PAUSE
        if view.phase == "play" and view.current_trick is None and view.tricks:
            pause = TRICK_PAUSE
        return pause * self.pace

    async def _bots_play(self) -> None:
        """The bots act, one after the other, until the person's turn or a summary.

        Each bot thinks in a thread; with ``pace`` 0 the screen is drawn only when they stop.
        """
        table = self.table
        try:
            while self._bots_to_play():
                delay = self._pause()
                if delay > 0:
                    await asyncio.sleep(delay)
                stamp = table.actions
                seat, bot, view = table.bot_turn()
                action = await asyncio.to_thread(bot.act, view)
                if table.actions != stamp:
                    break
                before = table.view()
                try:
                    table.apply_bot(seat, action)
                except IllegalAction as e:
                    action = make_bot("random", seed=table.actions).act(view)
                    table.apply_bot(seat, action)
                    who = self.names[seat]
                    self.notice = _(
                        "The {level} bot of {who} was refused ({why}); a random bot played.",
                        level=bot.name,
                        who=who,
                        why=error_text(e),
                    )
                self._after(before, seat, action, show=self.pace > 0)
        finally:
            self.bot_running = False
        self.refresh_table()

    # -- keys for the whole game ---------------------------------------------------------

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_sheet(self) -> None:
        view = self.table.view()
        self.push_screen(ScoreSheet(view.history, self.table.rules, self.names))

    def action_review(self) -> None:
        self.push_screen(ReviewScreen(review_lines(self.table.view(), self.names)))

    def action_last_trick(self) -> None:
        self.push_screen(ReviewScreen(last_trick_lines(self.table.view(), self.names)))

    def action_hint(self) -> None:
        table = self.table
        if self.summary is not None or not table.person_to_act:
            self.notice = _("A hint is for your own turn.")
            self.refresh_table()
            return
        if self.hint_running:
            return
        level, bot = table.hint_bot()
        self.hint_running = True
        self.notice = _("Asking the {level} bot…", level=level)
        self.refresh_table()
        self.run_worker(self._hint(level, bot, table.view(), table.actions), group="hint", exclusive=True)

    async def _hint(self, level: str, bot: Bot, view: SeatView, stamp: int) -> None:
        try:
            action: Action = await asyncio.to_thread(bot.act, view)
        finally:
            self.hint_running = False
        if self.table.actions != stamp:
            return
        title = self._title(action.contract) if isinstance(action, Declare) else ""
        self.notice = _(
            "Hint from the {level} bot: {action}", level=level, action=action_words(action, self.names, title)
        )
        if isinstance(action, Play):
            self.query_one(Hand).point_at(action.card)
        elif isinstance(action, Declare | NameTrump | NameRank):
            self.query_one(DeclareChoice).point_at(action)
        elif isinstance(action, Call):
            self.query_one(CallsPanel).point_at(action)
        elif isinstance(action, Arrange):
            self.query_one(ArrangementPanel).rows.fill(action.cards)
        self.refresh_table()

    def action_advice(self) -> None:
        """The coach's values of the person's choices now (barbu.coach.advise_view), best first."""
        table = self.table
        if self.summary is not None or not table.person_to_act:
            self.notice = text("advice_own_turn")
            self.refresh_table()
            return
        if self.hint_running:
            return
        self.hint_running = True
        self.notice = text("advice_asking")
        self.refresh_table()
        self.run_worker(self._advice(table.view(), table.actions), group="hint", exclusive=True)

    async def _advice(self, view: SeatView, stamp: int) -> None:
        try:
            out = await asyncio.to_thread(advise_view, view)
        finally:
            self.hint_running = False
        if self.table.actions != stamp:
            return
        self.notice = advice_line(out)
        self.refresh_table()

    def action_save(self) -> None:
        self.push_screen(SaveDialog(self.save_path or DEFAULT_SAVE), self._save_to)

    def _save_to(self, path: str | None) -> None:
        if not path:
            self.notice = _("Not saved.")
        elif self.save(path):
            self.notice = _("Saved to {path} (its seed in {seed}).", path=path, seed=seed_path(path).name)
        self.refresh_table()

    def save(self, path: str) -> bool:
        """Save the game at ``path`` (and its seed file); show why not when it fails."""
        try:
            save_table(self.table, path)
        except SaveError as e:
            self.notice = _("Not saved: {why}", why=error_text(e))
            return False
        self.save_path = path
        self.saved_to = path
        return True

    def action_leave(self) -> None:
        if self._table is None:  # still on the setup screen: nothing to save
            self.exit(0)
            return
        if isinstance(self.screen, QuitDialog):  # Ctrl+Q twice: quit without saving
            self.exit(0)
            return
        if self.save_path:
            if self.save(self.save_path):
                self.exit(0)
            else:
                self.refresh_table()
            return
        if self.table.game.is_over:
            self.exit(0)
            return
        self.push_screen(QuitDialog(DEFAULT_SAVE), self._leave_answer)

    async def action_quit(self) -> None:
        self.action_leave()

    def _leave_answer(self, answer: str | None) -> None:
        if answer and answer.startswith("save:"):
            if self.save(answer[5:]):
                self.exit(0)
            else:
                self.refresh_table()


__all__ = ["BarbuApp"]
