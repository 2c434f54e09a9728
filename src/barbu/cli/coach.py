"""``barbu analyse RECORD`` and ``barbu advise HAND``: the coach on the command line (docs/coach.md).

The work is :mod:`barbu.coach`'s; this module reads the arguments, refuses bad ones
before any long work (exit 2), shows progress on a terminal and prints the answer as
text or JSON.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from barbu.coach import AdviceError, AnalysisError, Settings, advise, analyse
from barbu.coach.words import action_words, text
from barbu.language import N_, _, error_text
from barbu.usage import CommandParser, UsageError, name_seats, read_text, whole_number


def _thresholds(value: str) -> tuple[float, float, float]:
    parts = value.split(",")
    try:
        a, b, c = (float(p) for p in parts)
    except ValueError:
        raise UsageError(
            _(
                "--thresholds {value}: give three numbers of points, inaccuracy,mistake,blunder, e.g. 4,10,20",
                value=repr(value),
            )
        ) from None
    return (a, b, c)


def _where(e: dict[str, Any]) -> str:
    return text(e["kind"], index=e["index"]) if e["index"] is not None else text(e["kind"])


def _action(a: object) -> str:
    return action_words(a)


def analysis_text(doc: dict[str, Any]) -> str:
    """The analysis of a record for a person: the marked decisions of each deal, then a summary."""
    a = doc["analysis"]
    players = doc.get("players")
    names = list(players) if isinstance(players, list) else None

    def who(seat: int) -> str:
        return name_seats(text("seat", seat=seat), names) if names else text("seat", seat=seat)

    lines: list[str] = []
    for d in a["deals"]:
        if not d["analysed"]:
            lines.append(text("tallied", deal=d["deal"]))
            continue
        lines.append(text("deal_head", deal=d["deal"], contract=d["contract"], who=who(d["declarer"])))
        shown = 0
        for e in d["decisions"]:
            exact = e["exact"]
            if e["mark"] is None and (exact is None or exact["mark"] is None):
                continue
            shown += 1
            mark = f" ({text(e['mark'])})" if e["mark"] else ""
            lines.append(
                "   "
                + text(
                    "decision",
                    where=_where(e),
                    who=who(e["seat"]),
                    action=_action(e["action"]),
                    value=f"{e['value']:+.1f}",
                    best=_action(e["best"]),
                    best_value=f"{e['best_value']:+.1f}",
                    loss=f"{e['loss']:.1f}",
                    mark=mark,
                )
            )
            if exact is not None:
                xmark = f" ({text(exact['mark'])})" if exact["mark"] else ""
                lines.append(
                    text(
                        "exact",
                        action=_action(e["action"]),
                        value=f"{exact['value']:+.1f}",
                        best=_action(exact["best"]),
                        best_value=f"{exact['best_value']:+.1f}",
                        loss=f"{exact['loss']:.1f}",
                        mark=xmark,
                    )
                )
        if not shown:
            lines.append(text("clean"))
    t = a["settings"]["thresholds"]
    lines.append("")
    lines.append(text("summary", a=t["inaccuracy"], b=t["mistake"], c=t["blunder"]))
    head = [text(k) for k in ("player", "decisions", "loss", "exact_loss", "accuracy")]
    head += [text(m) for m in ("inaccuracy", "mistake", "blunder")]
    rows = [head]
    for p in a["players"]:
        acc = "-" if p["accuracy"] is None else f"{p['accuracy']:.1f}%"
        rows.append(
            [who(p["seat"]), str(p["decisions"]), f"{p['loss']:.1f}", f"{p['exact_loss']:.1f}", acc]
            + [str(p["marks"][m]) for m in ("inaccuracy", "mistake", "blunder")]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        lines.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))))
    lines.append("")
    lines.append(text("by_contract") + ":")
    for p in a["players"]:
        parts = ", ".join(f"{c} {v:.1f}" for c, v in sorted(p["loss_by_contract"].items(), key=lambda kv: -kv[1]))
        lines.append(f"  {who(p['seat'])}: {parts or '-'}")
    return "\n".join(lines)


def analyse_main(argv: list[str]) -> int:
    """Run ``barbu analyse RECORD``; return the exit code (2: bad arguments or a record that does not replay)."""
    parser = CommandParser(prog="barbu analyse", description=N_("Value every decision of a recorded game."))
    parser.add_argument("file", help=N_("the record (barbu-record/1 JSON); - reads standard input"))
    parser.add_argument("--json", action="store_true", help=N_("print the record with its analysis (docs/coach.md)"))
    parser.add_argument("--output", "-O", help=N_("also write the record with its analysis to this file"))
    parser.add_argument(
        "--iterations",
        type=whole_number(1, 10000),
        default=Settings.iterations,
        help=N_("worlds per decision (default %(default)s)"),
    )
    parser.add_argument(
        "--exact-tricks",
        type=whole_number(0, 6),
        default=Settings.exact_tricks,
        help=N_("tricks left from which cards are solved exactly (default %(default)s)"),
    )
    parser.add_argument(
        "--thresholds",
        type=_thresholds,
        default=Settings.thresholds,
        help=N_("points lost from which a decision is an inaccuracy, a mistake, a blunder (default 4,10,20)"),
    )
    parser.add_argument("--seed", type=whole_number(0), default=0, help=N_("seed of the worlds (default 0)"))
    parser.add_argument(
        "--workers",
        type=whole_number(0, 256),
        default=1,
        help=N_("processes side by side (default 1; 0: one per core)"),
    )
    parser.add_language()
    args = parser.parse_args(argv)
    raw = read_text(args.file, N_("record"))
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError as e:
        raise UsageError(
            _(
                "{file} is not JSON ({why} at line {line}); a record is a JSON object",
                file=args.file,
                why=e.msg,
                line=e.lineno,
            )
        ) from None
    if not isinstance(doc, dict):
        raise UsageError(_("{file} is not a record: a record is a JSON object", file=args.file))
    settings = Settings(
        iterations=args.iterations, exact_tricks=args.exact_tricks, thresholds=args.thresholds, seed=args.seed
    )
    try:
        out = _run(doc, settings, args.workers or min(256, os.cpu_count() or 1))
    except AnalysisError as e:
        raise UsageError(_("{file}: {why}", file=args.file, why=error_text(e))) from None
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
            f.write("\n")
    if args.json:
        print(json.dumps(out))
    else:
        print(analysis_text(out))
    return 0


def _run(doc: dict[str, Any], settings: Settings, workers: int) -> dict[str, Any]:
    """The analysis, with a progress bar on standard error when it is a terminal."""
    if not sys.stderr.isatty():
        return analyse(doc, settings, workers)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(text("progress"), total=None)

        def hook(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyse(doc, settings, workers, progress=hook)


def _doubled(value: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for part in filter(None, value.split(",")):
        seat, eq, count = part.partition("=")
        if not eq or not seat.strip().isdigit() or not count.strip().isdigit():
            raise UsageError(_("--doubled {value}: write SEAT=COUNT pairs, e.g. 1=0,2=1,3=2", value=repr(value)))
        out[int(seat)] = int(count)
    return out


def _scores(value: str) -> list[int]:
    try:
        return [int(v) for v in value.split(",")]
    except ValueError:
        raise UsageError(
            _("--scores {value}: give whole numbers separated by commas, one per seat", value=repr(value))
        ) from None


def advice_text(out: dict[str, Any]) -> str:
    """Advice for a person: each choice with its value, best first."""
    key = {"contract": "advice_contract", "call": "advice_call"}.get(out["phase"], "advice_choice")
    lines = [text(key)]
    for c in out["choices"]:
        lines.append(f"  {_action(c['action']):<20} {c['value']:+8.1f}")
        for x in c.get("choices", [])[:4]:
            lines.append(f"      {_action(x['action']):<16} {x['value']:+8.1f}")
    for seat, gain in out.get("gains", {}).get("double", {}).items():
        lines.append(text("advice_gain_double", seat=seat, gain=f"{gain:+.1f}"))
    for seat, gain in out.get("gains", {}).get("redouble", {}).items():
        lines.append(text("advice_gain_redouble", seat=seat, gain=f"{gain:+.1f}"))
    lines.append(text("advice_best", action=_action(out["choices"][0]["action"])))
    return "\n".join(lines)


def advise_main(argv: list[str]) -> int:
    """Run ``barbu advise HAND``; return the exit code (2: a hand or situation the rules do not allow)."""
    parser = CommandParser(prog="barbu advise", description=N_("What each contract, trump, double is worth to a hand."))
    parser.add_argument("hand", help=N_("the hand in the record's notation, S.H.D.C, e.g. AK32.QJ5.T98.876"))
    parser.add_argument("--variant", default="classic", help=N_("the rule set (default classic)"))
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help=N_("a rule flag; repeat for more")
    )
    parser.add_argument("--seat", type=whole_number(0), default=0, help=N_("the seat holding the hand (default 0)"))
    parser.add_argument("--declarer", type=whole_number(0), help=N_("the declarer (default: the seat)"))
    parser.add_argument(
        "--declared", default="", help=N_("contracts the declarer has already named, by id, comma-separated")
    )
    parser.add_argument(
        "--doubled", type=_doubled, default={}, help=N_("SEAT=COUNT: doubles of the declarer so far this set")
    )
    parser.add_argument("--contract", help=N_("the contract declared (advice on the trump, rank or calls)"))
    parser.add_argument("--choice", help=N_("the trump suit or domino rank named"))
    parser.add_argument(
        "--calls",
        default="[]",
        help=N_('the calls so far as in a record, e.g. \'[{"seat": 1, "double": [0]}]\''),
    )
    parser.add_argument("--scores", type=_scores, help=N_("the scores so far, one per seat"))
    parser.add_argument("--iterations", type=whole_number(1, 1000), default=16, help=N_("worlds (default 16)"))
    parser.add_argument("--seed", type=whole_number(0), default=0, help=N_("seed of the worlds (default 0)"))
    parser.add_argument("--json", action="store_true", help=N_("print one JSON object"))
    parser.add_language()
    args = parser.parse_args(argv)
    from barbu.rulesets import parse_options

    try:
        calls = json.loads(args.calls)
    except json.JSONDecodeError:
        raise UsageError(
            _("--calls {calls} is not JSON; write a list of calls as in a record", calls=repr(args.calls))
        ) from None
    if not isinstance(calls, list):
        raise UsageError(_("--calls must be a JSON list of calls as in a record"))
    try:
        out = advise(
            args.variant,
            args.hand,
            options=parse_options(args.option),
            seat=args.seat,
            declarer=args.declarer,
            declared=[c.strip() for c in args.declared.split(",") if c.strip()],
            doubled=args.doubled,
            contract=args.contract,
            choice=args.choice,
            calls=calls,
            scores=args.scores,
            iterations=args.iterations,
            seed=args.seed,
        )
    except AdviceError as e:
        raise UsageError(error_text(e)) from None
    print(json.dumps(out) if args.json else advice_text(out))
    return 0
