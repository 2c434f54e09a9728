"""The bot levels described in words, in one place, for the lobby, the terminal setup and the docs.

:data:`LEVELS` maps each level name to a :class:`LevelText`: a short line (``summary``,
for a menu or a tooltip) and a longer one (``details``, a sentence or two for a help
page), in English; these are the source strings the translation catalogues translate.
:func:`level_text` gives the text of a level, and a plain fallback for a level that
has none (a bot level added without a description still shows its name).

>>> level_text("heuristic").summary
'Rules of thumb that read the play; answers at once (the default)'
>>> level_text("oracle").summary
'oracle'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "LevelText", "level_text"]


@dataclass(frozen=True)
class LevelText:
    """What a person reads about a bot level: a short ``summary`` and longer ``details``."""

    summary: str
    details: str


LEVELS: dict[str, LevelText] = {
    "random": LevelText(
        summary="Plays any legal card at random; for testing",
        details=(
            "Chooses uniformly among the legal actions: contracts, doubles and cards alike. "
            "It knows no strategy and loses heavily; useful to try the table or to test."
        ),
    ),
    "heuristic": LevelText(
        summary="Rules of thumb that read the play; answers at once (the default)",
        details=(
            "Plays like a sound club player who keeps count: it chooses contracts, trumps and "
            "doubles by the strength of its hand, remembers who has shown a void or thrown a "
            "penalty card, sheds its dangerous cards while tricks are free and plays the last "
            "tricks exactly. Each decision takes a few milliseconds."
        ),
    ),
    "search": LevelText(
        summary="Looks ahead over possible deals; strong, thinks up to a second",
        details=(
            "Deals the unseen cards many ways consistent with what it has seen, plays each "
            "choice to the end of the deal in every one of them and keeps the best on average. "
            "It times its penalty cards and doubles well; each decision takes up to about a second."
        ),
    ),
    "expert": LevelText(
        summary="The strongest level; thinks longest",
        details=(
            "Searches deeper than the search level, weighing the possible deals by what the "
            "calls and the play have shown. The strongest and slowest level."
        ),
    ),
}
"""Every bundled level's words, by level name (a level not offered by this build is ignored)."""


def level_text(level: str) -> LevelText:
    """The words for ``level``; a level without a description is shown by its name."""
    return LEVELS.get(level, LevelText(summary=level, details=level))
