"""The ``barbu`` command: one entry point, one subcommand per job.

>>> main(["rules", "classic"])  # doctest: +ELLIPSIS
Classic Barbu (classic)...
0
>>> main(["--version"])  # doctest: +ELLIPSIS
barbu 0.2.0
barbu: ...
0
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable

from barbu import __version__, accel
from barbu.errors import OptionsError
from barbu.language import N_, _, _p, from_environment, speaking, use
from barbu.rulesets import RULE_SETS, Flags, Rules, applicable_flags, parse_options, rules
from barbu.usage import CommandParser, Phrase, UsageError, spoken_language


def rules_text(r: Rules) -> str:
    """A rule set described from its data: players, deck, contracts, values, flags, in the
    language of the moment (flag names and values stay as ``--option`` writes them)."""
    rs = r.ruleset
    shape = r.shape
    lines = [f"{_p('variant', rs.title)} ({rs.name})", _p("variant", rs.blurb), ""]
    removed = ", ".join(rs.removed.get(r.players, ())) or _("none")
    lines.append(
        _(
            "players: {players} (allowed: {allowed}); deck: {cards} cards (removed: {removed}); {each} cards each",
            players=r.players,
            allowed=", ".join(map(str, sorted(rs.player_counts))),
            cards=r.deck.bit_count(),
            removed=removed,
            each=r.cards_each,
        )
    )
    rotation = _("every deal (fixed)") if rs.fixed_rotation else r.flags.rotation
    direction = _("clockwise") if r.direction == 1 else _("anticlockwise")
    scores = _("penalty points (lowest wins)") if rs.penalty_points else _("points (highest wins)")
    lines.append(
        _(
            "deals: {deals} ({each} per declarer); rotation: {rotation}; play {direction}; doubling: {doubling}; "
            "scores: {scores}",
            deals=r.deal_count,
            each=r.contracts_per_declarer,
            rotation=rotation,
            direction=direction,
            doubling=_("yes") if r.doubling else _("no"),
            scores=scores,
        )
    )
    lines.append("")
    lines.append(_("contracts:"))
    width = max(16, *(len(c.id) for c in r.contracts))
    for c in r.contracts:
        klass = _(c.doubling_class) if r.doubling and c.doubling_class else "-"
        values = c.values()
        if c.id == "domino":
            values = {"placings": list(r.flags.domino_values)}
        if c.id == "ravage-city":
            values = {"shared": r.flags.ravage_city_total}
        detail = ", ".join(f"{k} {v}" for k, v in values.items()) or _("see RULES.md")
        title = _p("contract", c.title)
        lines.append(f"  {c.id:<{width}} {title:<28} {klass:<9} T = {c.total(shape):>5}   ({detail})")
    set_total = r.set_total()
    game_total = r.game_total()
    if set_total == 0:
        zero = _("yes: each declarer's set sums to 0")
    elif set_total is None and game_total == 0:
        zero = _("over the whole game only (sets differ)")
    else:
        zero = _("no (one set sums to {set_total}, a game to {game_total})", set_total=set_total, game_total=game_total)
    lines.append("")
    lines.append(_("zero-sum: {zero}", zero=zero))
    lines.append("")
    lines.append(_("flags (those that have an effect in this rule set):"))
    applicable = applicable_flags(r)
    for name, value in vars(r.flags).items():
        if name not in applicable:
            continue
        default = getattr(Flags(), name)
        mark = "" if value == default else "   " + _("(differs from classic)")
        shown = list(value) if isinstance(value, tuple) else value
        lines.append(f"  {name:<24} {json.dumps(shown)}{mark}")
    return "\n".join(lines)


DOUBLING_CLASSES = (N_("negative"), N_("positive"))
"""The doubling classes of contracts, as ``barbu rules`` names them (marked for the catalogues)."""


def _rules_main(argv: list[str]) -> int:
    parser = CommandParser(prog="barbu rules", description=N_("Print a rule set, derived from its data."))
    parser.add_argument(
        "variant", nargs="?", help=Phrase("one of {variants}; all when omitted", variants=", ".join(RULE_SETS))
    )
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help=N_("a rule flag; repeat for more")
    )
    parser.add_language()
    args = parser.parse_args(argv)
    names = [args.variant] if args.variant else list(RULE_SETS)
    texts = [rules_text(rules(name, parse_options(args.option))) for name in names]
    print("\n\n".join(texts))
    return 0


COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("barbu.server:serve_main", N_("serve the web app: lobby, tables against bots and friends, score sheets")),
    "play": ("barbu.tui:play_main", N_("play a whole game in the terminal against three bots")),
    "score": ("barbu.sheet:score_main", N_("keep the score sheet of a game played with real cards")),
    "replay": ("barbu.cli.replay:replay_main", N_("check a barbu-record/1 file and derive its scores")),
    "simulate": ("barbu.cli.simulate:simulate_main", N_("play whole games between bots and print the score table")),
    "arena": ("barbu.arena.command:arena_main", N_("measure bots against each other on duplicate deals")),
    "analyse": (
        "barbu.cli.coach:analyse_main",
        N_("value every decision of a recorded game: losses, marks, exact last tricks"),
    ),
    "advise": (
        "barbu.cli.coach:advise_main",
        N_("what each contract, trump or rank, double and redouble is worth to a hand"),
    ),
    "rules": ("barbu.cli:_rules_main", N_("print a rule set: players, deck, contracts, values, flags")),
}
"""Each subcommand: ``module:function`` taking the arguments after the command name, and its help line
(marked for the catalogues, shown in the language of the moment).
The module is imported only when its command runs, so ``barbu replay`` does not load the web app."""


def _command(name: str) -> Callable[[list[str]], int]:
    """The entry function of subcommand ``name``, imported on demand."""
    module, _, function = COMMANDS[name][0].partition(":")
    entry: Callable[[list[str]], int] = getattr(importlib.import_module(module), function)
    return entry


def main(argv: list[str] | None = None) -> int:
    """Run the ``barbu`` command; return its exit code.

    This is the one place where a mistake on the command line becomes a message: every
    subcommand raises :class:`~barbu.usage.UsageError` (or, for rule options,
    :class:`~barbu.errors.OptionsError`) before any long work, and it is printed here as
    one line, ``barbu COMMAND: error: what is wrong; what is allowed``, with exit status 2.

    Every text speaks the language of the environment (:func:`~barbu.language.from_environment`),
    or that of ``--lang`` for a command that has the option (its parser chooses it before
    parsing: :class:`~barbu.usage.CommandParser`) and for ``barbu --help --lang fr``.

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = main(["simulate", "--games", "0"])
    >>> status, err.getvalue()
    (2, "barbu simulate: error: argument --games: '0' is out of range; give a whole number 1 or more\\n")
    """
    args = sys.argv[1:] if argv is None else argv
    try:
        with speaking(from_environment()):
            return _main(args)
    except BrokenPipeError:  # the reader went away (barbu rules | head, barbu --help | head)
        sys.stderr.close()
        return 0


def _main(args: list[str]) -> int:
    if args and args[0] in ("-V", "--version"):
        print(f"barbu {__version__}")
        print(accel.status())
        return 0
    if not args or args[0] in ("-h", "--help", "--lang") or args[0].startswith("--lang="):
        use(spoken_language(args))
        print(_("usage: barbu COMMAND [ARGS], or barbu --version") + "\n\n" + _("commands:"))
        for name, (_entry, text) in COMMANDS.items():
            print(f"  {name:<10} {_(text)}")
        print("\n" + _("barbu COMMAND --help for a command's options"))
        print(
            _(
                "The texts are in French or English: --lang fr or --lang en after a command that has the option "
                "(play, score, rules, replay, analyse, advise; barbu --help --lang fr for this list), "
                "else the language of LANGUAGE, LC_ALL, LC_MESSAGES or LANG."
            )
        )
        return 0 if args and args[0] in ("-h", "--help") else 2
    name, rest = args[0], args[1:]
    try:
        if name not in COMMANDS:
            raise UsageError(
                _("unknown command {name}; commands are: {commands}", name=repr(name), commands=", ".join(COMMANDS)),
                "barbu",
            )
        if name == "arena" and rest[:1] == ["--leaderboard"]:  # ranks on a research task: above the arena
            from barbu.cli.leaderboard import leaderboard_main

            return leaderboard_main(rest[1:])
        return _command(name)(rest)
    except (UsageError, OptionsError) as e:
        if isinstance(e, UsageError):
            refusal = e
        else:  # in the language the command speaks (barbu play --lang fr)
            from barbu.language import error_text

            refusal = UsageError(error_text(e))
        print(refusal.line(f"barbu {name}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl+C: stopped on purpose, not a fault
        print(_("{command}: interrupted", command="barbu " + name), file=sys.stderr)
        return 130
