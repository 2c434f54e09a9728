"""Every text of the coach a person reads, through the translation layer (docs/i18n.md).

The message ids are English; their French lives in the catalogues. The commands choose
the language with ``--lang`` or from the environment (:func:`barbu.language.use`).
Contract ids and cards stay in the record's notation.

>>> from barbu.language import speaking
>>> with speaking("fr"):
...     text("loss"), text("deal_head", deal=3, contract="no-king", who="Place 1")
('perte', 'donne 3 : no-king, annoncé par Place 1')
>>> text("deal_head", deal=3, contract="no-king", who="seat 1")
'deal 3: no-king, declared by seat 1'
"""

from __future__ import annotations

from typing import Any

from barbu.language import N_, _

MESSAGES: dict[str, str] = {
    "deal_head": N_("deal {deal}: {contract}, declared by {who}"),
    "tallied": N_("deal {deal}: tallied, no cards to analyse"),
    "decision": N_("{where} ({who}): {action}, {value}; better {best}, {best_value}; loss {loss}{mark}"),
    "exact": N_("   exact, all hands known: {action} {value}, best {best} {best_value}, loss {loss}{mark}"),
    "clean": N_("   no decision marked"),
    "contract": N_("contract"),
    "trump": N_("trump"),
    "rank": N_("rank"),
    "call": N_("call {index}"),
    "play": N_("card {index}"),
    "seat": N_("seat {seat}"),
    "summary": N_("summary (points lost from each seat's own view; marks from {a}, {b}, {c} points)"),
    "player": N_("player"),
    "decisions": N_("decisions"),
    "loss": N_("loss"),
    "exact_loss": N_("exact loss"),
    "accuracy": N_("accuracy"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
    "by_contract": N_("loss by contract"),
    "progress": N_("analysing"),
    "advice_contract": N_("contracts for the declarer (edge: points over keeping the contract for later)"),
    "advice_choice": N_("trump or rank (expected points)"),
    "advice_call": N_("calls (expected points of the deal)"),
    "advice_gain_double": N_("doubling seat {seat}: {gain} points"),
    "advice_gain_redouble": N_("redoubling seat {seat}: {gain} points"),
    "advice_best": N_("best: {action}"),
    "advice_own_turn": N_("Values are for your own turn."),
    "advice_asking": N_("Valuing your choices…"),
    "advice_values": N_("Values ({measure}): {items}"),
    "edge": N_("edge over keeping it"),
    "call_pass": N_("pass"),
    "call_double": N_("double {seats}"),
    "call_redouble": N_("redouble {seats}"),
    "points": N_("expected points"),
}
"""The coach's texts by key, as English message ids."""


def text(key: str, **values: object) -> str:
    """The text ``key`` in the language of the moment, filled with ``values``."""
    return _(MESSAGES[key], **values)


def action_words(label: object) -> str:
    """An action label of the coach's answers for a person: calls in words, cards as written.

    >>> from barbu.language import speaking
    >>> with speaking("fr"):
    ...     action_words("double 1 2, redouble 3"), action_words("pass"), action_words(["AS", "KS"])
    ('contre 1 2, surcontre 3', 'passe', 'AS KS')
    """
    if isinstance(label, list):
        return " ".join(map(str, label))
    words = str(label)
    if words == "pass":
        return text("call_pass")
    parts = []
    for part in words.split(", "):
        head, _space, seats = part.partition(" ")
        if head in ("double", "redouble") and seats:
            parts.append(text(f"call_{head}", seats=seats))
        else:
            parts.append(part)
    return ", ".join(parts)


def advice_line(out: dict[str, Any], best: int = 4) -> str:
    """One line of advice (:func:`barbu.coach.advise_view`'s answer): the best choices and their values.

    >>> advice_line({"measure": "points", "choices": [{"action": "QS", "value": 2.5}]})
    'Values (expected points): QS +2.5'
    """
    items = " · ".join(f"{action_words(c['action'])} {c['value']:+.1f}" for c in out["choices"][:best])
    return text("advice_values", measure=text(out["measure"]), items=items)
