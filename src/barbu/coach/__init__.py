"""The coach: analysis of played games and advice on a hand, from the search bot's evaluation.

- :func:`analyse`: every decision of a record valued from its seat's view, losses marked,
  card decisions of the last tricks solved exactly once the hands are known
  (:mod:`barbu.coach.analysis`);
- :func:`advise`: the worth of each contract, trump or rank, double and redouble for a
  hand in a situation (:mod:`barbu.coach.advice`).

docs/coach.md describes both, the ``analysis`` extension of ``barbu-record/1`` and the
commands ``barbu analyse`` and ``barbu advise``.
"""

from __future__ import annotations

from barbu.coach.advice import AdviceError, advise, advise_view, situation
from barbu.coach.analysis import FORMAT, MARKS, AnalysisError, Settings, analyse

__all__ = [
    "FORMAT",
    "MARKS",
    "AdviceError",
    "AnalysisError",
    "Settings",
    "advise",
    "advise_view",
    "analyse",
    "situation",
]
