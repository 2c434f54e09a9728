"""The arena: bots measured against each other on duplicate deals (``barbu arena``).

:mod:`barbu.arena.play` plays the duplicate games, :mod:`barbu.arena.stats` turns them into
estimates with confidence intervals, :mod:`barbu.arena.report` draws tables and plots and
:mod:`barbu.arena.command` is ``barbu arena``.
docs/arena.md describes it.
"""

from barbu.arena.play import (
    ArenaResult,
    ArenaSetup,
    BotSpec,
    default_workers,
    play_duplicate,
    play_game,
    run_arena,
    seat_entries,
)

__all__ = [
    "ArenaResult",
    "ArenaSetup",
    "BotSpec",
    "default_workers",
    "play_duplicate",
    "play_game",
    "run_arena",
    "seat_entries",
]
