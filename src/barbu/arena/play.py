"""``barbu arena``: bots against each other on duplicate deals, on all cores.

A *duplicate game* is one set of deals (one seeded :class:`~barbu.game.Game`) played once
per rotation of the lineup through the seats, so every bot sits in every seat on the same
cards and the luck of the deal cancels. Duplicate games run in worker processes, one task
each; the numbers depend only on the seed, never on the number of workers.

A lineup names one bot per seat with a spec: a level of :func:`barbu.bots.bot_levels`
(``random``, ``heuristic``…), optionally with settings (``search:seconds=0.2``), or
``external:COMMAND`` for a program speaking the JSON-lines protocol of docs/arena.md.
Repeated specs are one bot in the report.

>>> result = run_arena(["random", "random", "random", "random"], variant="king", games=2, seed=1, workers=1)
>>> [(bot.bot, bot.seats, bot.illegal) for bot in result.bots]
[('random', 4, 0)]
>>> result.games, result.games_played, round(result.bots[0].points_per_game.mean, 6)
(2, 8, 0.0)
>>> sorted(result.as_json())[:4]
['bots', 'contracts', 'duplicates', 'format']
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing
import os
import random
import shlex
import shutil
import signal
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from barbu import errors as core
from barbu.actions import Arrange, Call, Declare, EnterTally, NameRank, NameTrump, Pass, Play, action_text, random_pick
from barbu.arena.stats import BotReport, DuplicateResult, EntryTally, report_bots
from barbu.bots import Bot, bot_level, bot_levels, legal_choices, make_bot, parse_bot
from barbu.bots.errors import BotError
from barbu.bots.external import DEFAULT_TIMEOUT_S, BotFailure, ExternalBot
from barbu.errors import BarbuError
from barbu.game import Game
from barbu.rulesets import rules
from barbu.view import seat_view

FORMAT = "barbu-arena/1"
"""The ``format`` of the arena's JSON report."""

_ACTION_TYPES = (Declare, NameTrump, NameRank, Call, Play, Pass, Arrange, EnterTally)


# -- bot specs -----------------------------------------------------------------------


@dataclass(frozen=True)
class BotSpec:
    """A bot as the arena names it: ``level``, ``level:key=value,…`` or ``external:COMMAND``."""

    text: str
    level: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    command: tuple[str, ...] = ()
    """The program and its arguments of an ``external`` bot."""

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read a spec; values of settings are JSON (``0.2``, ``true``) or bare words.

        >>> BotSpec.parse("search:iterations=20,seconds=null").settings
        {'iterations': 20, 'seconds': None}
        >>> BotSpec.parse("external:python3 examples/external_bot.py").command
        ('python3', 'examples/external_bot.py')
        """
        level, _, rest = text.strip().partition(":")
        level = level.strip()
        if level == "external":
            command = tuple(shlex.split(rest))
            if not command:
                raise BotError(core.N_("external needs a command: external:python3 examples/external_bot.py"))
            return cls(text, level, {}, command)
        if bot_level(level) is None:
            raise BotError(
                core.N_(
                    "unknown bot {level} in {spec}; levels are: {levels}, external:COMMAND",
                    level=repr(level),
                    spec=repr(text),
                    levels=", ".join(bot_levels()),
                )
            )
        level, settings = parse_bot(text)
        return cls(text, level, settings)

    def make(self, seed: int, timeout: float = DEFAULT_TIMEOUT_S, log: str | None = None) -> Bot:
        """A fresh bot of this spec with ``seed``."""
        if self.level == "external":
            return ExternalBot(self.command, seed=seed, timeout=timeout, name=self.text, log=log)
        return make_bot(self.level, seed=seed, **self.settings)

    def check(self) -> None:
        """Raise :class:`~barbu.bots.errors.BotError` (a ValueError) if the bot cannot be made (a
        bad setting value, a missing program); its ``text`` is translated where it is shown."""
        if self.level == "external":
            if shutil.which(self.command[0]) is None:
                raise BotError(
                    core.N_(
                        "cannot find the program {program} of {spec}",
                        program=repr(self.command[0]),
                        spec=repr(self.text),
                    )
                )
            return
        try:
            self.make(seed=0)
        except ValueError as e:
            why = getattr(e, "text", None)
            raise BotError(
                core.N_(
                    "bad settings in {spec}: {why}",
                    spec=repr(self.text),
                    why=why if isinstance(why, core.Text) else str(e),
                )
            ) from None


# -- playing ------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaSetup:
    """Everything a worker needs to play one duplicate game."""

    lineup: tuple[str, ...]
    variant: str = "classic"
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    timeout: float = DEFAULT_TIMEOUT_S
    """Seconds an external bot has per decision."""
    external_log: str | None = None


def seat_entries(rotation: int, players: int) -> list[int]:
    """The lineup entry in each seat for a rotation: seat ``s`` holds entry ``(s + rotation) % n``.

    Over the ``n`` rotations every entry sits once in every seat.

    >>> [seat_entries(r, 4) for r in range(2)]
    [[0, 1, 2, 3], [1, 2, 3, 0]]
    """
    return [(s + rotation) % players for s in range(players)]


def derived_seed(*parts: object) -> int:
    """A 63-bit seed from the arena's seed and a position (same on every machine).

    >>> derived_seed(0, 1, 2) == derived_seed(0, 1, 2) != derived_seed(0, 2, 1)
    True
    """
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def play_duplicate(setup: ArenaSetup, index: int, keep_records: bool = False) -> DuplicateResult:
    """Play duplicate game ``index``: deals from seed ``"{seed}:{index}"``, one game per rotation."""
    specs = [BotSpec.parse(text) for text in setup.lineup]
    n = len(specs)
    tallies = [EntryTally() for _ in range(n)]
    records: list[dict[str, Any]] = []
    with ExitStack() as stack:
        external: dict[int, Bot] = {}
        for e, spec in enumerate(specs):
            if spec.level == "external":
                bot = spec.make(derived_seed(setup.seed, index, "external", e), setup.timeout, setup.external_log)
                assert isinstance(bot, ExternalBot)
                external[e] = stack.enter_context(bot)
        for rotation in range(n):
            game = Game.new(setup.variant, setup.options, seed=f"{setup.seed}:{index}")
            if game.rules.players != n:
                raise ValueError(f"{setup.variant} has {game.rules.players} players: the lineup names {n} bots")
            entries = seat_entries(rotation, n)
            players = [
                external[e] if e in external else specs[e].make(derived_seed(setup.seed, index, rotation, e))
                for e in entries
            ]
            fallback = random.Random(f"arena-fallback:{setup.seed}:{index}:{rotation}")
            play_game(game, players, [tallies[e] for e in entries], fallback)
            for seat, e in enumerate(entries):
                tallies[e].points.append(game.totals[seat])
            for deal in game.deals:
                if deal.contract is not None and deal.final is not None:
                    for seat, e in enumerate(entries):
                        tallies[e].add_deal(deal.contract.id, deal.final[seat])
            if keep_records:
                from barbu.record import game_to_record

                records.append(game_to_record(game, [setup.lineup[e] for e in entries]))
    return DuplicateResult(index, tallies, records)


def play_game(game: Game, players: Sequence[Bot], tallies: Sequence[EntryTally], fallback: random.Random) -> None:
    """Play ``game`` to the end, one bot per seat, timing each decision.

    An exception from a bot, an answer that is not an action, or an illegal action is
    counted in the seat's tally and replaced by a random legal action from ``fallback``,
    so the game goes on.
    """
    clock = time.perf_counter
    while not game.is_over:
        seat = game.to_act
        if seat is None:
            raise ValueError("the arena plays dealt games only; this one waits for a tally")
        view = seat_view(game, seat)
        tally = tallies[seat]
        start = clock()
        try:
            action: object = players[seat].act(view)
            error = None
        except BotFailure as e:
            error = str(e)
        except Exception as e:  # a bot's bug must not stop the arena: it is counted and shown
            error = f"{type(e).__name__}: {e}"
        tally.times.add(clock() - start)
        if error is None:
            if isinstance(action, _ACTION_TYPES):
                try:
                    game.apply(action, seat)
                    continue
                except BarbuError as e:
                    error = f"illegal {action_text(action)!r}: {e}"
            else:
                error = f"{action!r} is not an action"
        tally.add_illegal(f"deal {view.deal_number}, {view.phase}, seat {seat}: {error}")
        choices = legal_choices(view)
        game.apply(random_pick(choices, fallback), seat)


# -- running ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ArenaResult:
    """The arena's report: one :class:`~barbu.arena.stats.BotReport` per distinct bot."""

    lineup: tuple[str, ...]
    variant: str
    options: Mapping[str, Any]
    players: int
    seed: int
    games: int
    """Duplicate games (deal sets); each was played once per rotation."""
    workers: int
    seconds: float
    higher_is_better: bool
    """False for penalty-point rule sets (``french``), where the lowest total wins."""
    contracts: tuple[str, ...]
    bots: list[BotReport]
    duplicates: list[list[float]]
    """Each duplicate game's points per game of each bot, in the order of ``bots``."""

    @property
    def games_played(self) -> int:
        """Whole games played: duplicate games times rotations."""
        return self.games * self.players

    @property
    def illegal(self) -> int:
        """Illegal actions of all bots together."""
        return sum(b.illegal for b in self.bots)

    def bot(self, name: str) -> BotReport:
        """The report of the bot with this spec."""
        for b in self.bots:
            if b.bot == name:
                return b
        raise KeyError(f"no bot {name!r} in this arena; bots: {', '.join(b.bot for b in self.bots)}")

    def as_json(self) -> dict[str, Any]:
        """The JSON report (schema in docs/arena.md)."""
        return {
            "format": FORMAT,
            "variant": self.variant,
            "options": dict(self.options),
            "players": self.players,
            "lineup": list(self.lineup),
            "seed": self.seed,
            "games": self.games,
            "games_played": self.games_played,
            "higher_is_better": self.higher_is_better,
            "contracts": list(self.contracts),
            "workers": self.workers,
            "seconds": self.seconds,
            "games_per_second": self.games_played / self.seconds if self.seconds > 0 else None,
            "bots": [b.as_json() for b in self.bots],
            "duplicates": [list(row) for row in self.duplicates],
        }


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_arena(
    bots: Sequence[str],
    variant: str = "classic",
    options: Mapping[str, Any] | None = None,
    games: int = 100,
    seed: int = 0,
    workers: int | None = None,
    timeout: float = DEFAULT_TIMEOUT_S,
    external_log: str | None = None,
    progress: bool = False,
    records: str | os.PathLike[str] | None = None,
    ray: str | None = None,
) -> ArenaResult:
    """Play ``games`` duplicate games between ``bots`` (one spec per seat) and report.

    ``workers`` processes (default: every core) play the duplicate games; the result is
    the same for any number of workers. ``progress`` shows a rich progress bar on
    standard error; ``records`` writes every game as a barbu-record/1 file in that folder.
    ``ray`` plays the duplicate games as tasks of a Ray cluster instead (:data:`RAY_LOCAL`
    starts one on this machine, any other value is the address of a running one, as
    ``ray.init(address=...)`` takes it; a Ray connection already open in the process is
    used as it is); ``workers`` then caps the duplicate games in flight (default: all).

    >>> r = run_arena(["random"] * 3, variant="french", options={"player_count": 3}, games=2, workers=1)
    >>> r.players, r.higher_is_better, r.illegal
    (3, False, 0)
    >>> run_arena(["random", "random"], variant="classic", games=1)
    Traceback (most recent call last):
    ...
    ValueError: classic has 4 players: name 4 bots, not 2
    """
    table_rules = rules(variant, options)
    lineup = tuple(bots)
    if len(lineup) != table_rules.players:
        raise ValueError(
            f"{variant} has {table_rules.players} players: name {table_rules.players} bots, not {len(lineup)}"
        )
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if timeout <= 0:
        raise ValueError(f"timeout must be positive seconds, not {timeout}")
    for text in dict.fromkeys(lineup):
        BotSpec.parse(text).check()
    if ray is not None:
        ray_module()
    setup = ArenaSetup(lineup, variant, dict(options or {}), seed, timeout, external_log)
    keep = records is not None
    results: list[DuplicateResult] = []
    start = time.perf_counter()
    if ray is not None:
        stream_of = _ray_duplicates(setup, games, workers, keep, ray)
        count = workers or games
    else:
        count = max(1, min(workers or default_workers(), games))
        stream_of = _duplicates(setup, games, count, keep)
    with stream_of as stream, _progress_bar(progress, games) as advance:
        for result in stream:
            results.append(result)
            advance()
    seconds = time.perf_counter() - start
    results.sort(key=lambda r: r.index)
    if records is not None:
        _write_records(Path(records), seed, results)
    contracts = tuple(c.id for c in table_rules.contracts)
    reports, per_duplicate = report_bots(lineup, results, contracts)
    return ArenaResult(
        lineup=lineup,
        variant=variant,
        options=table_rules.as_options(),
        players=table_rules.players,
        seed=seed,
        games=games,
        workers=count,
        seconds=seconds,
        higher_is_better=not table_rules.ruleset.penalty_points,
        contracts=contracts,
        bots=reports,
        duplicates=per_duplicate,
    )


def _play_task(task: tuple[ArenaSetup, int, bool]) -> DuplicateResult:
    return play_duplicate(*task)


@contextmanager
def _duplicates(setup: ArenaSetup, games: int, workers: int, keep: bool) -> Iterator[Iterator[DuplicateResult]]:
    tasks = [(setup, i, keep) for i in range(games)]
    if workers == 1:
        yield (_play_task(t) for t in tasks)
        return
    with multiprocessing.get_context().Pool(workers, initializer=_quiet_worker) as pool:
        yield pool.imap_unordered(_play_task, tasks)


RAY_LOCAL = "local"
"""The ``ray`` address that starts a Ray cluster on this machine for the run."""


def ray_module() -> Any:
    """The ``ray`` package, or a ValueError saying how to install it (the ``cluster`` extra)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs the Ray package: pip install 'barbu[cluster]'") from None
    return ray


@contextmanager
def _ray_duplicates(
    setup: ArenaSetup, games: int, workers: int | None, keep: bool, address: str
) -> Iterator[Iterator[DuplicateResult]]:
    """The duplicate games played as Ray tasks, at most ``workers`` in flight (None: all).

    Every node of the cluster needs barbu installed (the same version); each task is one
    :func:`play_duplicate`, so the results are those of the local pool whatever the cluster.
    """
    ray = ray_module()
    started = False
    if not ray.is_initialized():
        if address == RAY_LOCAL:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
        else:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
        started = True
    task = ray.remote(num_cpus=1, max_retries=0)(_play_task)

    def results() -> Iterator[DuplicateResult]:
        waiting = [(setup, i, keep) for i in reversed(range(games))]
        running: list[Any] = []
        limit = workers or games
        while waiting or running:
            while waiting and len(running) < limit:
                running.append(task.remote(waiting.pop()))
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                yield ray.get(ref)

    try:
        yield results()
    finally:
        if started:
            ray.shutdown()


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the main process, which stops the pool."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _progress_bar(show: bool, total: int) -> Iterator[Callable[[], None]]:
    if not show:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from barbu.language import _

    columns = (
        TextColumn(_("duplicate games")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("arena", total=total)
        yield lambda: bar.advance(task)


def _write_records(folder: Path, seed: int, results: Sequence[DuplicateResult]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for r in results:
        for rotation, record in enumerate(r.records):
            path = folder / f"arena-{seed}-{r.index + 1}-{rotation + 1}.json"
            path.write_text(json.dumps(record, indent=1) + "\n")
