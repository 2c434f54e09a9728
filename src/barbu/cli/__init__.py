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
from barbu.rulesets import RULE_SETS, Flags, Rules, applicable_flags, parse_options, rules
from barbu.usage import CommandParser, UsageError


def rules_text(r: Rules) -> str:
    """A rule set described from its data: players, deck, contracts, values, flags."""
    rs = r.ruleset
    shape = r.shape
    lines = [f"{rs.title} ({rs.name})", rs.blurb, ""]
    removed = ", ".join(rs.removed.get(r.players, ())) or "none"
    lines.append(
        f"players: {r.players} (allowed: {', '.join(map(str, sorted(rs.player_counts)))}); "
        f"deck: {r.deck.bit_count()} cards (removed: {removed}); {r.cards_each} cards each"
    )
    rotation = "every deal (fixed)" if rs.fixed_rotation else r.flags.rotation
    direction = "clockwise" if r.direction == 1 else "anticlockwise"
    scores = "penalty points (lowest wins)" if rs.penalty_points else "points (highest wins)"
    lines.append(
        f"deals: {r.deal_count} ({r.contracts_per_declarer} per declarer); rotation: {rotation}; "
        f"play {direction}; doubling: {'yes' if r.doubling else 'no'}; scores: {scores}"
    )
    lines.append("")
    lines.append("contracts:")
    width = max(16, *(len(c.id) for c in r.contracts))
    for c in r.contracts:
        klass = c.doubling_class if r.doubling else "-"
        values = c.values()
        if c.id == "domino":
            values = {"placings": list(r.flags.domino_values)}
        if c.id == "ravage-city":
            values = {"shared": r.flags.ravage_city_total}
        detail = ", ".join(f"{k} {v}" for k, v in values.items()) or "see RULES.md"
        lines.append(f"  {c.id:<{width}} {c.title:<28} {klass or '-':<9} T = {c.total(shape):>5}   ({detail})")
    set_total = r.set_total()
    game_total = r.game_total()
    if set_total == 0:
        zero = "yes: each declarer's set sums to 0"
    elif set_total is None and game_total == 0:
        zero = "over the whole game only (sets differ)"
    else:
        zero = f"no (one set sums to {set_total}, a game to {game_total})"
    lines.append("")
    lines.append(f"zero-sum: {zero}")
    lines.append("")
    lines.append("flags (those that have an effect in this rule set):")
    applicable = applicable_flags(r)
    for name, value in vars(r.flags).items():
        if name not in applicable:
            continue
        default = getattr(Flags(), name)
        mark = "" if value == default else "   (differs from classic)"
        shown = list(value) if isinstance(value, tuple) else value
        lines.append(f"  {name:<24} {json.dumps(shown)}{mark}")
    return "\n".join(lines)


def _rules_main(argv: list[str]) -> int:
    parser = CommandParser(prog="barbu rules", description="Print a rule set, derived from its data.")
    parser.add_argument("variant", nargs="?", help=f"one of {', '.join(RULE_SETS)}; all when omitted")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    names = [args.variant] if args.variant else list(RULE_SETS)
    texts = [rules_text(rules(name, parse_options(args.option))) for name in names]
    print("\n\n".join(texts))
    return 0


COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("barbu.server:serve_main", "serve the web app: lobby, tables against bots and friends, score sheets"),
    "play": ("barbu.tui:play_main", "play a whole game in the terminal against three bots"),
    "score": ("barbu.sheet:score_main", "keep the score sheet of a game played with real cards"),
    "replay": ("barbu.cli.replay:replay_main", "check a barbu-record/1 file and derive its scores"),
    "simulate": ("barbu.cli.simulate:simulate_main", "play whole games between bots and print the score table"),
    "arena": ("barbu.arena.command:arena_main", "measure bots against each other on duplicate deals"),
    "analyse": (
        "barbu.cli.coach:analyse_main",
        "value every decision of a recorded game: losses, marks, exact last tricks",
    ),
    "advise": (
        "barbu.cli.coach:advise_main",
        "what each contract, trump or rank, double and redouble is worth to a hand",
    ),
    "rules": ("barbu.cli:_rules_main", "print a rule set: players, deck, contracts, values, flags"),
}
"""Each subcommand: ``module:function`` taking the arguments after the command name, and its help line.
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

    >>> import contextlib, io
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     status = main(["simulate", "--games", "0"])
    >>> status, err.getvalue()
    (2, "barbu simulate: error: argument --games: '0' is out of range; give a whole number 1 or more\\n")
    """
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-V", "--version"):
        print(f"barbu {__version__}")
        print(accel.status())
        return 0
    if not args or args[0] in ("-h", "--help"):
        print("usage: barbu COMMAND [ARGS], or barbu --version\n\ncommands:")
        for name, (_, text) in COMMANDS.items():
            print(f"  {name:<10} {text}")
        print("\nbarbu COMMAND --help for a command's options")
        return 0 if args else 2
    name, rest = args[0], args[1:]
    try:
        if name not in COMMANDS:
            raise UsageError(f"unknown command {name!r}; commands are: {', '.join(COMMANDS)}", "barbu")
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
    except BrokenPipeError:  # the reader went away (barbu rules | head)
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:  # Ctrl+C: stopped on purpose, not a fault
        print(f"barbu {name}: interrupted", file=sys.stderr)
        return 130
