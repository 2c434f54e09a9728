"""Analysis of a played game: every decision valued from its seat's view, and exactly after the deal.

:func:`analyse` replays a ``barbu-record/1`` document and, for every decision a seat made
(contract, trump or rank, call, card, domino lay or pass, Chinese-poker arrangement), asks
the search bot's evaluation (:func:`barbu.bots.search.action_values`) for the expected
points of every legal action from that seat's view at that moment (its hand and the public
history, nothing more). The *loss* of a decision is the best action's value minus the value
of the action taken; losses at or above the thresholds are marked ``inaccuracy``,
``mistake`` or ``blunder``.

Once a deal is over all its hands are known: each card decision with few tricks left
(``exact_tricks``) is also solved exactly from the true hands (:func:`barbu.bots.endgame.solve`,
every seat playing the rest of the deal best for its own final score), which gives the
exact value of each card and the exact loss.

The result is the record itself with one more key, ``analysis`` (docs/coach.md gives its
schema): readers of records ignore unknown keys, so ``barbu replay`` still checks it.

>>> from barbu import Game
>>> from barbu.bots import make_bot
>>> from barbu.record import game_to_record
>>> from barbu.view import seat_view
>>> game = Game.new("classic", seed=4)
>>> bot = make_bot("heuristic", seed=1)
>>> while len(game.deals) < 2:
...     game.apply(bot.act(seat_view(game, game.to_act)), game.to_act)
>>> doc = analyse(game_to_record(game), settings=Settings(iterations=2))
>>> a = doc["analysis"]
>>> a["format"], len(a["deals"]), a["deals"][0]["decisions"][0]["kind"]
('barbu-analysis/1', 1, 'contract')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from barbu.actions import Action, Arrange, Call, Declare, NameRank, NameTrump, Pass, Play, action_text
from barbu.bots.card_play import PlayGuide
from barbu.bots.endgame import solve
from barbu.bots.search import action_values
from barbu.cards import card_name
from barbu.deal import Phase
from barbu.errors import N_, BarbuError, RecordError, Text
from barbu.game import Game, Move
from barbu.record import game_from_record
from barbu.view import seat_view

FORMAT = "barbu-analysis/1"
"""The ``format`` of the ``analysis`` object added to a record."""

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks of a decision's loss, from the smallest."""


class AnalysisError(BarbuError, ValueError):
    """The record cannot be analysed: it does not replay, or a setting is out of range.

    ``text`` is the message as a :class:`~barbu.errors.Text`, translated where the person's
    language is known (``barbu.language.error_text``), not in the process that analyses.
    """

    def __init__(self, message: str | Text) -> None:
        text = message if isinstance(message, Text) else Text(message)
        super().__init__(text)  # the text itself, so that it crosses to another process whole
        self.text = text
        """The message as a :class:`~barbu.errors.Text`, for the outer layers to translate."""


@dataclass(frozen=True)
class Settings:
    """How hard to look. Points are the rule set's own (French penalty points negated).

    ``iterations`` worlds per decision; ``exact_tricks`` tricks left at which card
    decisions are also solved exactly once the hands are known (0: never); ``endgame``
    tricks left at which the worlds' playouts are solved exactly; ``thresholds`` the
    losses in points from which a decision is an inaccuracy, a mistake, a blunder;
    ``seed`` fixes the worlds.
    """

    iterations: int = 24
    exact_tricks: int = 4
    endgame: int = 3
    thresholds: tuple[float, float, float] = (4.0, 10.0, 20.0)
    seed: int = 0

    def check(self) -> None:
        """Refuse settings out of range, naming what is allowed."""
        if not 1 <= self.iterations <= 10_000:
            raise AnalysisError(N_("iterations must be 1 to 10000 worlds, not {n}", n=self.iterations))
        if not 0 <= self.exact_tricks <= 6:
            raise AnalysisError(N_("exact tricks must be 0 to 6 (more takes too long), not {n}", n=self.exact_tricks))
        if not 0 <= self.endgame <= 4:
            raise AnalysisError(N_("endgame must be 0 to 4 tricks, not {n}", n=self.endgame))
        a, b, c = self.thresholds
        if not (0 < a <= b <= c and all(math.isfinite(x) for x in self.thresholds)):
            raise AnalysisError(
                N_(
                    "thresholds must be three increasing positive numbers of points (inaccuracy, mistake, blunder), "
                    "not {a}, {b}, {c}",
                    a=a,
                    b=b,
                    c=c,
                )
            )


def mark_of(loss: float, thresholds: tuple[float, float, float]) -> str | None:
    """The mark of a loss: None under the first threshold, else the largest reached.

    >>> mark_of(3.9, (4, 10, 20)), mark_of(10, (4, 10, 20)), mark_of(25, (4, 10, 20))
    (None, 'mistake', 'blunder')
    """
    out = None
    for name, at in zip(MARKS, thresholds, strict=True):
        if loss >= at - 1e-9:
            out = name
    return out


def _label(action: Action) -> str | list[str]:
    """An action in record notation (an arrangement as its 13 cards)."""
    if isinstance(action, Arrange):
        return [card_name(c) for c in action.cards]
    if isinstance(action, Call):
        parts = []
        if action.double:
            parts.append("double " + " ".join(map(str, action.double)))
        if action.redouble:
            parts.append("redouble " + " ".join(map(str, action.redouble)))
        return ", ".join(parts) or "pass"
    return action_text(action)


def _same(a: Action, b: Action) -> bool:
    if isinstance(a, Call) and isinstance(b, Call):
        return sorted(a.double) == sorted(b.double) and sorted(a.redouble) == sorted(b.redouble)
    if isinstance(a, Arrange) and isinstance(b, Arrange):
        return [sorted(r) for r in _rows(a)] == [sorted(r) for r in _rows(b)]
    return a == b


def _rows(a: Arrange) -> list[tuple[int, ...]]:
    c = a.cards
    return [c[:5], c[5:10], c[10:]]


KINDS: dict[type, str] = {
    Declare: "contract",
    NameTrump: "trump",
    NameRank: "rank",
    Call: "call",
    Play: "play",
    Pass: "play",
    Arrange: "play",
}
"""The record's kind of each action (the index counts within ``calls`` or ``play``)."""


def _walk(game: Game) -> Iterator[tuple[Game, Move]]:
    """The game replayed from its start: before each move, the game as it stood, and the move."""
    walker = Game(game.rules, game.first_declarer)
    for move in game.history:
        deal = walker.current
        assert deal is not None
        dealt = game.deals[move.deal].dealt
        if deal.dealt is None and dealt is not None and not deal.started:
            walker.give_hands(dealt)
        yield walker, move
        walker.apply_unchecked(move.action)


def _exact(game: Game, seat: int, legal: list[Action]) -> dict[int, float]:
    """The exact value of each card of ``legal`` (by index) from the true hands."""
    deal = game.current
    assert deal is not None and deal.contract is not None
    out: dict[int, float] = {}
    for i, a in enumerate(legal):
        d = deal.copy()
        d.apply_unchecked(a)
        guide = PlayGuide.of(d)
        if d.final is not None:
            out[i] = guide.sign * d.final[seat]
        else:
            assert d.tricks is not None
            out[i] = solve(d.tricks, deal.contract, d.rules, guide, seat)[seat]
    return out


def analyse_deal(game: Game, index: int, settings: Settings) -> dict[str, Any]:
    """The analysis of deal ``index`` (0-based) of a replayed game: its decisions, valued."""
    deal = game.deals[index]
    head: dict[str, Any] = {
        "deal": index + 1,
        "declarer": deal.declarer,
        "contract": deal.contract.id if deal.contract else None,
        "analysed": deal.dealt is not None,
        "decisions": [],
    }
    if deal.dealt is None:
        head["reason"] = "tallied"
        return head
    counts = {"contract": 0, "trump": 0, "rank": 0, "call": 0, "play": 0}
    thresholds = settings.thresholds
    for walker, move in _walk(game):
        if move.deal < index:
            continue
        if move.deal > index:
            break
        kind = KINDS[type(move.action)]
        counts[kind] += 1
        seat = move.seat
        assert seat is not None
        view = seat_view(walker, seat)
        taken = move.action
        current = walker.current
        assert current is not None
        if isinstance(taken, Call) and taken.word is not None and current.doubling is not None:
            double, redouble = current.doubling.expand(seat, taken)
            taken = Call(double=double, redouble=redouble)
        entry: dict[str, Any] = {
            "kind": kind,
            "index": counts[kind] if kind in ("call", "play") else None,
            "seat": seat,
            "action": _label(taken),
        }
        legal = list(view.legal_actions)
        if current.phase is not Phase.ARRANGE and len(legal) <= 1:
            entry.update(forced=True, value=None, best=None, best_value=None, loss=0.0, mark=None, alternatives=[])
            entry["exact"] = None
            head["decisions"].append(entry)
            continue
        values = action_values(
            view,
            iterations=settings.iterations,
            seed=f"{settings.seed}:{index}:{kind}:{counts[kind]}",
            endgame=settings.endgame,
            extra=(taken,) if isinstance(taken, Arrange) else (),
        )
        mine = next(v for a, v in values if _same(a, taken))
        ranked = sorted(values, key=lambda av: -av[1])
        best_action, best_value = ranked[0]
        if best_value - mine < 1e-9:
            best_action, best_value = taken, mine
        loss = max(0.0, best_value - mine)
        entry.update(
            forced=False,
            value=round(mine, 2),
            best=_label(best_action),
            best_value=round(best_value, 2),
            loss=round(loss, 2),
            mark=mark_of(loss, thresholds),
            alternatives=[{"action": _label(a), "value": round(v, 2)} for a, v in ranked[:3]],
        )
        entry["exact"] = None
        t = current.tricks
        if (
            settings.exact_tricks
            and t is not None
            and isinstance(taken, Play)
            and t.tricks_total - len(t.winners) <= settings.exact_tricks
        ):
            exact = _exact(walker, seat, legal)
            j = next(i for i, a in enumerate(legal) if a == taken)
            top = max(exact, key=lambda i: (exact[i], i == j))
            exact_loss = max(0.0, exact[top] - exact[j])
            entry["exact"] = {
                "value": round(exact[j], 2),
                "best": _label(legal[top]),
                "best_value": round(exact[top], 2),
                "loss": round(exact_loss, 2),
                "mark": mark_of(exact_loss, thresholds),
            }
        head["decisions"].append(entry)
    return head


def replay_record(doc: object) -> Game:
    """The game of a record, or :class:`AnalysisError` saying where it does not replay."""
    try:
        return game_from_record(doc)
    except RecordError as e:
        raise AnalysisError(N_("the record does not replay: {why}", why=e.text)) from None


def _deal_task(args: tuple[Mapping[str, Any], int, Settings]) -> dict[str, Any]:
    doc, index, settings = args
    return analyse_deal(replay_record(doc), index, settings)


def summary(deals: list[dict[str, Any]], players: int, thresholds: tuple[float, float, float]) -> list[dict[str, Any]]:
    """Per seat: decisions valued, points lost (in all and by contract), accuracy and marks.

    Accuracy is the share of a seat's decisions with a choice whose loss is under the
    first threshold (an inaccuracy or worse counts against it).
    """
    out = []
    for s in range(players):
        lost = 0.0
        exact_lost = 0.0
        by_contract: dict[str, float] = {}
        chosen = 0
        clean = 0
        marks = dict.fromkeys(MARKS, 0)
        for d in deals:
            for e in d["decisions"]:
                if e["seat"] != s or e["forced"]:
                    continue
                chosen += 1
                lost += e["loss"]
                key = d["contract"] or "?"
                by_contract[key] = round(by_contract.get(key, 0.0) + e["loss"], 2)
                if e["mark"] is None:
                    clean += 1
                else:
                    marks[e["mark"]] += 1
                if e["exact"] is not None:
                    exact_lost += e["exact"]["loss"]
        out.append(
            {
                "seat": s,
                "decisions": chosen,
                "loss": round(lost, 2),
                "loss_by_contract": by_contract,
                "exact_loss": round(exact_lost, 2),
                "accuracy": round(100.0 * clean / chosen, 1) if chosen else None,
                "marks": marks,
            }
        )
    return out


ProgressHook = Callable[[int, int], None]
"""Called with (decisions done, decisions in all) as deals are analysed."""


@dataclass
class _Plan:
    indexes: list[int] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


def analyse(
    doc: Mapping[str, Any],
    settings: Settings | None = None,
    workers: int = 1,
    progress: ProgressHook | None = None,
) -> dict[str, Any]:
    """The record ``doc`` with an ``analysis`` key added (the record itself is not changed).

    Raises :class:`AnalysisError` when the record does not replay or a setting is out
    of range, before any analysis. ``workers`` processes analyse deals side by side;
    the result is the same with any number of workers.
    """
    settings = settings or Settings()
    settings.check()
    if not isinstance(workers, int) or not 1 <= workers <= 256:
        raise AnalysisError(N_("workers must be 1 to 256 processes, not {n}", n=workers))
    game = replay_record(doc)
    plan = _Plan()
    for i in range(len(game.deals)):
        moves = sum(1 for m in game.history if m.deal == i)
        if moves:  # a deal with at least one action, finished or in progress
            plan.indexes.append(i)
            plan.sizes.append(moves)
    total = sum(plan.sizes)
    done = 0
    deals: list[dict[str, Any]] = []
    if progress is not None:
        progress(0, total)
    if workers == 1 or len(plan.indexes) <= 1:
        for i, size in zip(plan.indexes, plan.sizes, strict=True):
            deals.append(analyse_deal(game, i, settings))
            done += size
            if progress is not None:
                progress(done, total)
    else:
        tasks = [(doc, i, settings) for i in plan.indexes]
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for size, result in zip(plan.sizes, pool.map(_deal_task, tasks), strict=True):
                deals.append(result)
                done += size
                if progress is not None:
                    progress(done, total)
    out = dict(doc)
    out["analysis"] = {
        "format": FORMAT,
        "settings": {**asdict(settings), "thresholds": dict(zip(MARKS, settings.thresholds, strict=True))},
        "deals": deals,
        "players": summary(deals, game.rules.players, settings.thresholds),
    }
    return out
