"""``barbu simulate``: whole games between bots, with a score table and records.

>>> results = simulate(games=2, seed=3)
>>> len(results), [sum(r.totals) for r in results]
(2, [0, 0])
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, cast

from barbu.bots import LegalChooser, RandomBot, bot_levels, make_bot, parse_bot
from barbu.deal import Phase
from barbu.game import Game
from barbu.language import N_, _, _n, error_text, ordinal
from barbu.record import game_to_record
from barbu.rulesets import parse_options, rules
from barbu.server.heap import set_aside_startup_objects
from barbu.usage import CommandParser, UsageError, output_folder, whole_number
from barbu.usage.table import Column, Table, print_table

_PLAY = Phase.PLAY
_BEFORE_CARDS = (Phase.CONTRACT, Phase.TRUMP, Phase.RANK, Phase.CALL)


@dataclass(frozen=True, eq=False)
class GameResult:
    """One simulated game: its totals, ranking and record (made when first read: a run that
    writes no records makes none). Two results are equal when all four are."""

    seed: str
    totals: list[int]
    ranking: list[int]
    game: Game = field(repr=False)
    players: list[str] = field(repr=False)
    """The names of the seats' bots, as the record gives them."""

    @cached_property
    def record(self) -> dict[str, Any]:
        """The game's barbu-record/1 document."""
        return game_to_record(self.game, self.players)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameResult):
            return NotImplemented
        mine = (self.seed, self.totals, self.ranking, self.record)
        return mine == (other.seed, other.totals, other.ranking, other.record)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and mutable lists inside


def simulate(
    games: int = 1,
    seed: int = 0,
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
    bots: Sequence[str] = ("random",),
) -> list[GameResult]:
    """Play ``games`` whole games; game ``i`` is dealt from the seed ``"{seed}:{i}"``.

    ``bots`` names the bot of each seat, ``level`` or ``level:key=value,…`` (one: every
    seat); :func:`lineup` checks them first. A bot that decides from its legal actions alone
    (a :class:`~barbu.bots.LegalChooser`, such as ``random``) is given them without the rest of
    its view, which it would not read. When every seat is a ``random`` bot, each deal's
    contract choice and calls are drawn in one call to the core (:meth:`Game.call_random`) and
    the card play of each trick or domino deal is drawn and played in compiled code
    (:meth:`Game.play_random`): the same actions from the same generators. Otherwise a
    ``random`` bot's actions, one of the legal actions it is given, take the fast door
    (:meth:`Game.apply_unchecked`). The records are made when read (:attr:`GameResult.record`).
    """
    table = rules(variant, options)  # resolved once: every game shares its rules and what they cache
    levels = lineup(bots, table.players)
    names = [text.strip() for text in bots] * (len(levels) // len(bots))
    out = []
    chooses: dict[type, bool] = {}
    """Whether a bot type is a LegalChooser (a protocol check costs far more than a look-up)."""
    for i in range(games):
        game_seed = f"{seed}:{i}"
        game = Game.new(table, seed=game_seed)
        players = [
            make_bot(level, seed=(seed * 1_000_003 + i) * 8 + s, **settings)
            for s, (level, settings) in enumerate(levels)
        ]
        for p in players:
            if type(p) not in chooses:
                chooses[type(p)] = isinstance(p, LegalChooser)
        choosers = [cast(LegalChooser, p) if chooses[type(p)] else None for p in players]
        trusted = [type(p) is RandomBot for p in players]
        """A random bot picks one of the legal actions it is given: its action takes the fast door."""
        randoms = [p.rng for p in players if type(p) is RandomBot]
        all_random = len(randoms) == len(players)
        while not game.is_over:
            phase = game.deals[-1].phase
            if all_random:
                if phase in _BEFORE_CARDS:
                    game.call_random(randoms)  # the contract, trump or rank and calls, through the core
                    continue
                if phase is _PLAY and game.play_random(randoms):
                    continue  # the whole card play drawn in compiled code
            seat = game.to_act
            assert seat is not None
            chooser = choosers[seat]
            if chooser is not None:
                if trusted[seat]:
                    game.apply_unchecked(chooser.choose(game.legal_actions()))
                else:
                    game.apply(chooser.choose(game.legal_actions()), seat)
            else:
                from barbu.view import seat_view  # here: a run of random bots never imports the views

                game.apply(players[seat].act(seat_view(game, seat)), seat)
        out.append(GameResult(game_seed, list(game.totals), game.ranking(), game, names))
    return out


def lineup(bots: Sequence[str], players: int) -> list[tuple[str, dict[str, Any]]]:
    """The level and settings of each seat's bot, checked by making each bot once.

    >>> lineup(["random"], 4)[3]
    ('random', {})
    >>> lineup(["random", "random"], 4)
    Traceback (most recent call last):
    ...
    ValueError: 2 bots for 4 seats; give 1 bot for all the seats or 4, one per seat
    """
    if len(bots) not in (1, players):
        raise ValueError(
            _n(
                "{bots} bot for {players} seats; give 1 bot for all the seats or {players}, one per seat",
                "{bots} bots for {players} seats; give 1 bot for all the seats or {players}, one per seat",
                len(bots),
                bots=len(bots),
                players=players,
            )
        )
    parsed = [parse_bot(text) for text in bots]
    for level, settings in parsed:
        make_bot(level, seed=0, **settings)
    return parsed if len(parsed) == players else parsed * players


def simulate_main(argv: list[str]) -> int:
    """Run ``barbu simulate``; every argument is checked before the first game is played."""
    parser = CommandParser(prog="barbu simulate", description=N_("Play whole games between bots."))
    parser.add_argument("--games", type=whole_number(1), default=1, help=N_("number of games (default 1)"))
    parser.add_argument("--seed", type=int, default=0, help=N_("seed of the deals (default 0)"))
    parser.add_argument("--variant", default="classic", help=N_("rule set (default classic)"))
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE", help=N_("a rule option (JSON value)")
    )
    bots_option = parser.add_argument(
        "--bots",
        default="random",
        help=N_(
            "the bot of every seat, or one per seat separated by commas: %(levels)s, "
            "with settings as LEVEL:key=value (e.g. search:seconds=0.2)"
        ),
    )
    bots_option.levels = _LevelNames()  # type: ignore[attr-defined]  # read by --help's %(levels)s
    parser.add_argument("--records", help=N_("write each game as a barbu-record/1 file in this folder"))
    parser.add_language()
    args = parser.parse_args(argv)
    options = parse_options(args.option)
    bots = _split_bots(args.bots)
    players = rules(args.variant, options).players
    try:
        lineup(bots, players)
    except ValueError as e:
        option = f"--bots {args.bots}"
        raise UsageError(_("{where}: {why}", where=option, why=error_text(e))) from None
    if args.records:
        output_folder(args.records, "--records")
    # The games are long-lived containers (moves, deals, calls) made by the hundred thousand:
    # with the collector's default young threshold its passes walked them again and again (a
    # third of the games' time). The server sets the same (barbu.server.heap explains it).
    set_aside_startup_objects(collect=False)
    results = simulate(args.games, args.seed, args.variant, options, bots)
    n = len(results[0].totals)
    rows = [
        [str(i), *(f"{t} ({ordinal(k)})" for t, k in zip(r.totals, r.ranking, strict=True))]
        for i, r in enumerate(results, 1)
    ]
    means = [sum(r.totals[s] for r in results) / len(results) for s in range(n)]
    rows.append([_("mean"), *(f"{m:.1f}" for m in means)])
    columns = [Column(_("game")), *(Column(_("seat {n}", n=s)) for s in range(n))]
    title = _n(
        "{variant}: {n} game, seed {seed}",
        "{variant}: {n} games, seed {seed}",
        args.games,
        variant=args.variant,
        n=args.games,
        seed=args.seed,
    )
    print_table(Table(title, columns, rows))
    if args.records:
        from pathlib import Path  # here: a run that writes no records does not pay pathlib's import

        folder = Path(args.records)
        folder.mkdir(parents=True, exist_ok=True)
        for i, r in enumerate(results, 1):
            (folder / f"game-{args.seed}-{i}.json").write_text(json.dumps(r.record, indent=1) + "\n")
        print(
            _n(
                "wrote {n} record to {folder}",
                "wrote {n} records to {folder}",
                len(results),
                n=len(results),
                folder=folder,
            )
        )
    return 0


class _LevelNames:
    """The bot levels' names, listed when ``--help`` shows them: listing them looks up the
    levels other packages declare, which a run that names bundled levels does not need."""

    def __str__(self) -> str:
        return ", ".join(bot_levels())


def _split_bots(text: str) -> list[str]:
    """``--bots`` split into one bot per seat: commas separate bots, except inside settings
    (``search:seconds=0.2,iterations=50,random``: a word with ``=`` belongs to the bot before).

    >>> _split_bots("search:seconds=0.2,iterations=50,random")
    ['search:seconds=0.2,iterations=50', 'random']
    """
    bots: list[str] = []
    for part in text.split(","):
        if bots and "=" in part and ":" in bots[-1]:
            bots[-1] += "," + part
        else:
            bots.append(part.strip())
    return bots
