"""Every text of the coach a person reads, in English and in French, gathered in one place.

The commands pick the language from ``--lang``, else from ``BARBU_LANG`` or ``LANG``
(French when it starts with ``fr``). Contract ids and cards stay in the record's notation.

>>> text("fr", "loss")
'perte'
>>> text("en", "deal_head", deal=3, contract="no-king", who="seat 1")
'deal 3: no-king, declared by seat 1'
"""

from __future__ import annotations

import os
from typing import Any

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        "deal_head": "deal {deal}: {contract}, declared by {who}",
        "tallied": "deal {deal}: tallied, no cards to analyse",
        "decision": "{where} ({who}): {action}, {value}; better {best}, {best_value}; loss {loss}{mark}",
        "exact": "   exact, all hands known: {action} {value}, best {best} {best_value}, loss {loss}{mark}",
        "clean": "   no decision marked",
        "contract": "contract",
        "trump": "trump",
        "rank": "rank",
        "call": "call {index}",
        "play": "card {index}",
        "seat": "seat {seat}",
        "summary": "summary (points lost from each seat's own view; marks from {a}, {b}, {c} points)",
        "player": "player",
        "decisions": "decisions",
        "loss": "loss",
        "exact_loss": "exact loss",
        "accuracy": "accuracy",
        "inaccuracy": "inaccuracy",
        "mistake": "mistake",
        "blunder": "blunder",
        "by_contract": "loss by contract",
        "progress": "analysing",
        "advice_contract": "contracts for the declarer (edge: points over keeping the contract for later)",
        "advice_choice": "trump or rank (expected points)",
        "advice_call": "calls (expected points of the deal)",
        "advice_gain_double": "doubling seat {seat}: {gain:+.1f} points",
        "advice_gain_redouble": "redoubling seat {seat}: {gain:+.1f} points",
        "advice_best": "best: {action}",
        "advice_own_turn": "Values are for your own turn.",
        "advice_asking": "Valuing your choices…",
        "advice_values": "Values ({measure}): {items}",
        "edge": "edge over keeping it",
        "points": "expected points",
    },
    "fr": {
        "deal_head": "donne {deal} : {contract}, annoncé par {who}",
        "tallied": "donne {deal} : marquée sans les cartes, rien à analyser",
        "decision": "{where} ({who}) : {action}, {value} ; mieux {best}, {best_value} ; perte {loss}{mark}",
        "exact": "   exact, toutes les mains connues : {action} {value}, mieux {best} {best_value}, perte {loss}{mark}",
        "clean": "   aucune décision marquée",
        "contract": "contrat",
        "trump": "atout",
        "rank": "rang",
        "call": "annonce {index}",
        "play": "carte {index}",
        "seat": "place {seat}",
        "summary": "bilan (points perdus vus de chaque place ; marques à partir de {a}, {b}, {c} points)",
        "player": "joueur",
        "decisions": "décisions",
        "loss": "perte",
        "exact_loss": "perte exacte",
        "accuracy": "précision",
        "inaccuracy": "imprécision",
        "mistake": "erreur",
        "blunder": "gaffe",
        "by_contract": "perte par contrat",
        "progress": "analyse",
        "advice_contract": "contrats pour le déclarant (avantage : points de plus que si le contrat attendait)",
        "advice_choice": "atout ou rang (points espérés)",
        "advice_call": "annonces (points espérés de la donne)",
        "advice_gain_double": "contrer la place {seat} : {gain:+.1f} points",
        "advice_gain_redouble": "surcontrer la place {seat} : {gain:+.1f} points",
        "advice_best": "meilleur : {action}",
        "advice_own_turn": "Les valeurs sont pour votre tour.",
        "advice_asking": "Calcul de la valeur de vos choix…",
        "advice_values": "Valeurs ({measure}) : {items}",
        "edge": "avantage sur l'attente",
        "points": "points espérés",
    },
}
"""The texts by language, then by key."""


def language(asked: str | None = None) -> str:
    """The language to speak: ``asked``, else from the environment (``en`` by default)."""
    if asked in CATALOGUE:
        return asked
    env = os.environ.get("BARBU_LANG") or os.environ.get("LANG") or ""
    return "fr" if env.lower().startswith("fr") else "en"


def text(lang: str, key: str, **values: object) -> str:
    """The text ``key`` in ``lang``, filled with ``values``."""
    return CATALOGUE[lang][key].format(**values)


def advice_line(out: dict[str, Any], lang: str, best: int = 4) -> str:
    """One line of advice (:func:`barbu.coach.advise_view`'s answer): the best choices and their values.

    >>> advice_line({"measure": "points", "choices": [{"action": "QS", "value": 2.5}]}, "en")
    'Values (expected points): QS +2.5'
    """
    items = " · ".join(
        f"{' '.join(c['action']) if isinstance(c['action'], list) else c['action']} {c['value']:+.1f}"
        for c in out["choices"][:best]
    )
    return text(lang, "advice_values", measure=text(lang, out["measure"]), items=items)
