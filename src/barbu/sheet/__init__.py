"""The score sheet: Barbu scores kept for a game played with real cards.

The model (:mod:`barbu.sheet.model`) is built on the rules core: a sheet is a
``barbu-record/1`` document of tallied deals, replayed through the core's checked door.
"""

from barbu.sheet.doubles import Double, SheetError, fill, fill_all
from barbu.sheet.model import DealEntry, DealRow, LaterDealError, NextDeal, Sheet, tally_totals

__all__ = [
    "DealEntry",
    "DealRow",
    "Double",
    "LaterDealError",
    "NextDeal",
    "Sheet",
    "SheetError",
    "fill",
    "fill_all",
    "score_main",
    "tally_totals",
]


def score_main(argv: list[str]) -> int:
    """Run ``barbu score`` (see :mod:`barbu.sheet.command`); return the exit code."""
    from barbu.sheet.command import score_main as main

    return main(argv)
