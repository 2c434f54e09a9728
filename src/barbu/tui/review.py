"""Looking back at the table: this deal's calls and tricks, and the deal just finished.

``F4`` opens the review over the table: the calls of the deal being played (they leave the
screen once play starts), its tricks in order with their takers, and the deal just finished:
its last trick, every hand it showed face up (every seat's Chinese-poker rows), the domino
finishing order, the scores and the doubling settled pair by pair, with the numbers the core
computed. ``F5`` shows only the last trick.

>>> from barbu.game import Game
>>> from barbu.view import seat_view
>>> game = Game.new("classic", seed=3)
>>> while len(game.deals) < 2:
...     game.apply(game.legal_actions()[-1])
>>> lines = finished_lines(seat_view(game, 0).history[-1], ["You", "West", "North", "East"])
>>> lines[0].plain
'Deal 1: Domino by West'
>>> [line.plain for line in lines if line.plain.startswith("Out")]
['Out, first to last: North, East, West, You']
>>> [line.plain.strip() for line in lines if "pays" in line.plain][0]
'You doubled West ×2: -5 against 5, so You pays West 20.'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from barbu.language import _, _p
from barbu.rulesets import rules
from barbu.tui.card_faces import card_text, cards_text, signed
from barbu.view import DealSummary, SeatView, TrickView


def call_line(call: tuple[int, int, tuple[int, ...], tuple[int, ...]], names: Sequence[str]) -> str:
    """One call in words."""
    seat, _round, doubles, redoubles = call
    d = ", ".join(names[s] for s in doubles)
    r = ", ".join(names[s] for s in redoubles)
    if d and r:
        return _("{name} doubles {doubled} and redoubles {redoubled}", name=names[seat], doubled=d, redoubled=r)
    if d:
        return _("{name} doubles {doubled}", name=names[seat], doubled=d)
    if r:
        return _("{name} redoubles {redoubled}", name=names[seat], redoubled=r)
    return _("{name} passes", name=names[seat])


def trick_line(number: int, trick: TrickView, names: Sequence[str]) -> Text:
    """A trick on one line: who played what, and who took it."""
    out = Text(f"{number:>2}. ")
    for i, (seat, c) in enumerate(zip(trick.seats, trick.cards, strict=True)):
        if i:
            out.append("  ")
        out.append(f"{names[seat][:8]} ")
        out.append_text(card_text(c))
    if trick.winner is not None:
        out.append(" → ")
        out.append(names[trick.winner], style="bold")
    return out


def pair_line(pair: tuple[int, int, int, int], raw: Sequence[int], names: Sequence[str]) -> str:
    """A business pair's settlement in words, with the core's amount."""
    a, b, m, amount = pair
    p = {"doubler": names[a], "doubled": names[b], "m": m, "a": raw[a], "b": raw[b], "amount": abs(amount)}
    if amount == 0:
        return _("{doubler} doubled {doubled} ×{m}: both scored the same, nothing changes hands.", **p)
    if amount > 0:
        return _("{doubler} doubled {doubled} ×{m}: {a} against {b}, so {doubled} pays {doubler} {amount}.", **p)
    return _("{doubler} doubled {doubled} ×{m}: {a} against {b}, so {doubler} pays {doubled} {amount}.", **p)


def finished_lines(deal: DealSummary, names: Sequence[str], variant: str = "classic") -> list[Text]:
    """The review of a finished deal, line by line."""
    title = _p("contract", rules(variant).contract(deal.contract).title)
    out = [
        Text(
            _("Deal {n}: {contract} by {name}", n=deal.number, contract=title, name=names[deal.declarer]), style="bold"
        )
    ]
    if not deal.played:
        out.append(Text(_("Nobody doubled: the deal was not played and its points were divided.")))
    if deal.tricks:
        out.append(Text(_("Last trick")))
        out.append(trick_line(len(deal.tricks), deal.tricks[-1], names))
    if deal.domino_order:
        out.append(Text(_("Out, first to last: {names}", names=", ".join(names[s] for s in deal.domino_order))))
    hands: list[list[int]] = [[] for _ in names]
    if deal.arrangements:
        for s, a in enumerate(deal.arrangements):
            hands[s] = list(a)
    for t in deal.tricks:
        for s, c in zip(t.seats, t.cards, strict=True):
            hands[s].append(c)
    if not deal.tricks and not deal.arrangements:
        for s, played in deal.plays:
            if played is not None:
                hands[s].append(played)
    if any(hands):
        out.append(Text(_("Every seat's rows") if deal.arrangements else _("The hands, face up")))
        for s, cards in enumerate(hands):
            line = Text(f"  {names[s][:10]:<10} ")
            if deal.arrangements:
                for i in range(0, len(cards), 5):
                    line.append_text(cards_text(cards[i : i + 5]))
                    line.append(" | ")
            else:
                line.append_text(cards_text(sorted(cards, key=lambda c: (c // 13, -c))))
            out.append(line)
    out.append(Text(_("scored") + "  " + "  ".join(f"{names[s][:6]} {signed(v)}" for s, v in enumerate(deal.raw))))
    out.append(Text(_("deal") + "  " + "  ".join(f"{names[s][:6]} {signed(v)}" for s, v in enumerate(deal.final))))
    if deal.settlement:
        out.append(Text(_("Doubles, pair by pair")))
        out.extend(Text("  " + pair_line(p, deal.raw, names)) for p in deal.settlement)
    return out


def review_lines(view: SeatView, names: Sequence[str]) -> list[Text]:
    """This deal's calls and tricks, then the deal just finished."""
    out = [Text(_("Deal {n}", n=view.deal_number), style="bold underline")]
    if view.calls:
        out.append(Text(_("Calls")))
        out.extend(Text("  " + call_line(c, names)) for c in view.calls)
    if view.tricks:
        out.append(Text(_("Tricks")))
        out.extend(trick_line(i + 1, t, names) for i, t in enumerate(view.tricks))
    if len(out) == 1:
        out.append(Text(_("Nothing played yet in this deal.")))
    if view.history:
        out.append(Text(""))
        out.extend(finished_lines(view.history[-1], names, view.variant))
    return out


def last_trick_lines(view: SeatView, names: Sequence[str]) -> list[Text]:
    """The last trick taken, in this deal or (before its first) the deal just finished."""
    if view.tricks:
        return [Text(_("Last trick")), trick_line(len(view.tricks), view.tricks[-1], names)]
    if view.history and view.history[-1].tricks:
        last = view.history[-1]
        return [Text(_("Last trick of deal {n}", n=last.number)), trick_line(len(last.tricks), last.tricks[-1], names)]
    return [Text(_("No trick has been played yet."))]


class ReviewScreen(ModalScreen[None]):
    """Lines of review over the table; ``Esc`` (or the key that opened it) closes it."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > VerticalScroll { width: 100%; max-width: 100; height: auto; max-height: 100%;
                                    border: round $primary; background: $surface; padding: 0 1; }
    """

    BINDINGS = [  # noqa: RUF012 - Textual reads this class attribute
        Binding("escape", "close", "close"),
        Binding("f4", "close", show=False),
        Binding("f5", "close", show=False),
        Binding("enter", "close", show=False),
    ]

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        body = Text("\n").join(self.lines)
        body.append("\n")
        body.append(_("Esc closes"), style="dim")
        with VerticalScroll():
            yield Static(body)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["ReviewScreen", "call_line", "finished_lines", "last_trick_lines", "pair_line", "review_lines", "trick_line"]
