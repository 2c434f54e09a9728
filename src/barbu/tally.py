"""Tallies: what each seat took in a deal, as a scorekeeper writes it (RECORD.md).

:func:`check_tally` turns a tally as written in a record (JSON values, card names
for Chinese-poker arrangements) into the engine's form, refusing missing or extra
keys, wrong types and sums that do not add up; each key is checked by its kind in
:data:`barbu.tally_keys.TALLY_KEYS`. :func:`tally_json` goes back.

>>> from barbu.rulesets import rules
>>> r = rules("classic")
>>> check_tally({"queens": [0, 2, 1, 1]}, r.contract("no-queens"), r)
{'queens': [0, 2, 1, 1]}
>>> check_tally({"queens": [0, 2, 1, 0]}, r.contract("no-queens"), r)
Traceback (most recent call last):
...
barbu.errors.TallyError: tally: queens must add up to 4 (the queens in the deck), not 3
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from barbu.cards import SUIT_MASKS, card, card_name, mask_of
from barbu.contracts import Contract, Tally
from barbu.errors import N_, NotationError, TallyError, fact
from barbu.rulesets import Rules
from barbu.tally_keys import TALLY_KEYS


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _per_seat(key: str, value: Any, n: int) -> list[int]:
    if not isinstance(value, list) or len(value) != n or not all(_is_int(v) and v >= 0 for v in value):
        raise TallyError(
            N_(
                "tally: {key} must be a list of {n} whole numbers >= 0, one per seat, not {value}",
                key=key,
                n=n,
                value=repr(value),
            )
        )
    return list(value)


def _seat(key: str, value: Any, n: int) -> int:
    if not _is_int(value) or not 0 <= value < n:
        raise TallyError(
            N_("tally: {key} must be a seat from 0 to {last}, not {value}", key=key, last=n - 1, value=repr(value))
        )
    return int(value)


def _sum(key: str, values: list[int], expected: int, what: str) -> None:
    if sum(values) != expected:
        raise TallyError(
            N_(
                "tally: {key} must add up to {expected} ({what}), not {got}",
                key=key,
                expected=expected,
                what=fact("tally", what),
                got=sum(values),
            )
        )


def check_tally(tally: Any, contract: Contract, rules: Rules) -> Tally:
    """Check a written tally against the contract and rule set; return the engine's form."""
    if not isinstance(tally, Mapping):
        raise TallyError(N_("tally: must be an object with the keys {keys}", keys=", ".join(contract.tally_keys())))
    keys = contract.tally_keys()
    missing = [k for k in keys if k not in tally]
    extra = [k for k in tally if k not in keys]
    if missing or extra:
        known = ", ".join(keys)
        if missing and extra:
            raise TallyError(
                N_(
                    "tally of {contract}: missing {missing}; unexpected {extra} (its keys are {keys})",
                    contract=contract.id,
                    missing=", ".join(missing),
                    extra=", ".join(str(k) for k in extra),
                    keys=known,
                )
            )
        if missing:
            raise TallyError(
                N_(
                    "tally of {contract}: missing {missing} (its keys are {keys})",
                    contract=contract.id,
                    missing=", ".join(missing),
                    keys=known,
                )
            )
        raise TallyError(
            N_(
                "tally of {contract}: unexpected {extra} (its keys are {keys})",
                contract=contract.id,
                extra=", ".join(str(k) for k in extra),
                keys=known,
            )
        )
    n = rules.players
    out: Tally = {}
    for key in keys:
        value = tally[key]
        kind = TALLY_KEYS[key].kind
        if kind == "count":
            out[key] = v = _per_seat(key, value, n)
            total = TALLY_KEYS[key].total(rules.deck, rules.cards_each)
            assert isinstance(total, int)
            _sum(key, v, total, TALLY_KEYS[key].counted)
        elif kind == "seat":
            out[key] = _seat(key, value, n)
        elif kind == "order":
            if not isinstance(value, list) or sorted(value) != list(range(n)) or not all(_is_int(s) for s in value):
                raise TallyError(
                    N_(
                        "tally: order must list every seat 0-{last} once, first out first, not {value}",
                        last=n - 1,
                        value=repr(value),
                    )
                )
            out[key] = list(value)
        elif kind == "suits":
            out[key] = _check_suits(value, rules)
        elif kind == "arrangements":
            out[key] = _check_arrangements(value, rules)
    if "ace_of_hearts" in out and out["hearts"][out["ace_of_hearts"]] < 1:
        raise TallyError(
            N_(
                "tally: seat {seat} took the ace of hearts, so its hearts count must be at least 1",
                seat=out["ace_of_hearts"],
            )
        )
    return out


def _check_suits(value: Any, rules: Rules) -> list[list[int]]:
    n = rules.players
    if not isinstance(value, list) or len(value) != n:
        raise TallyError(
            N_("tally: suits must be {n} rows [S, H, D, C], one per seat, not {value}", n=n, value=repr(value))
        )
    rows = []
    for seat, row in enumerate(value):
        if not isinstance(row, list) or len(row) != 4 or not all(_is_int(v) and v >= 0 for v in row):
            raise TallyError(
                N_(
                    "tally: suits of seat {seat} must be 4 whole numbers [S, H, D, C], not {row}",
                    seat=seat,
                    row=repr(row),
                )
            )
        if sum(row) % n:
            raise TallyError(
                N_(
                    "tally: seat {seat} took {took} cards, which is not a whole number of tricks of {n} cards",
                    seat=seat,
                    took=sum(row),
                    n=n,
                )
            )
        rows.append(list(row))
    for s in range(4):
        expected = (rules.deck & SUIT_MASKS[s]).bit_count()
        got = sum(r[s] for r in rows)
        if got != expected:
            raise TallyError(
                N_(
                    "tally: suits column {suit} must add up to {expected}, not {got}",
                    suit="SHDC"[s],
                    expected=expected,
                    got=got,
                )
            )
    return rows


def _check_arrangements(value: Any, rules: Rules) -> list[list[int]]:
    n = rules.players
    each = rules.cards_each
    if not isinstance(value, list) or len(value) != n:
        raise TallyError(N_("tally: arrangements must be {n} lists of {each} cards, one per seat", n=n, each=each))
    out = []
    for seat, arr in enumerate(value):
        if not isinstance(arr, list) or len(arr) != each or not all(isinstance(c, str) for c in arr):
            raise TallyError(
                N_(
                    "tally: the arrangement of seat {seat} must be {each} cards (back 5, middle 5, front 3)",
                    seat=seat,
                    each=each,
                )
            )
        try:
            out.append([card(c) for c in arr])
        except NotationError as e:
            raise TallyError(N_("tally: arrangement of seat {seat}: {why}", seat=seat, why=str(e))) from None
    flat = [c for arr in out for c in arr]
    if len(set(flat)) != len(flat) or mask_of(flat) != rules.deck:
        raise TallyError(N_("tally: the arrangements must hold every card of the deck exactly once"))
    return out


def tally_json(tally: Tally) -> dict[str, Any]:
    """A tally as a record writes it (card names for arrangements)."""
    out: dict[str, Any] = {}
    for k, v in tally.items():
        if TALLY_KEYS[k].kind == "arrangements":
            out[k] = [[card_name(c) for c in arr] for arr in v]
        elif isinstance(v, list):
            out[k] = [list(x) if isinstance(x, list) else x for x in v]
        else:
            out[k] = v
    return out
