"""What a scorekeeper types: players by name or seat, doubles in a line, tally answers.

These readers turn short typed text into the model's values, for the terminal (and any
other text front end). They know no rule: what they produce is checked by the core.

>>> from barbu import rules
>>> names = ("Ann", "Bob", "Cat", "Dan")
>>> [str(d) for d in parse_doubles("bob>ann c>>a", names, rules("classic"), 0, "no-queens")]
['1>0', '2>>0']
>>> [str(d) for d in parse_doubles("max", names, rules("classic"), 0, "trumps")]
['1>>0', '2>>0', '3>>0']
>>> parse_counts("6 3 2", 4, 13, "tricks")
[6, 3, 2, 2]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from barbu.cards import card, card_name
from barbu.errors import NotationError
from barbu.language import _, error_text
from barbu.rulesets import Rules
from barbu.sheet.doubles import (
    WORDS,
    Double,
    Grid,
    SheetError,
    check_grid,
    fill,
    fill_all,
    not_a_double,
    not_at_the_table,
)

NONE_WORDS = ("-", "none", "no", "nothing", "pass", "0")
"""Answers meaning "nobody doubled"."""


def parse_player(text: str, names: Sequence[str]) -> int:
    """A seat from its number, or from a name or the unique start of one (case aside).

    >>> parse_player("2", ["Ann", "Bob", "Cat"]), parse_player("bo", ["Ann", "Bob", "Cat"])
    (2, 1)
    """
    t = text.strip()
    if t.isdigit():
        seat = int(t)
        if 0 <= seat < len(names):
            return seat
        raise SheetError("players", not_at_the_table(seat, len(names)))
    exact = [s for s, n in enumerate(names) if n.casefold() == t.casefold()]
    if exact:
        return exact[0]
    found = [s for s, n in enumerate(names) if n.casefold().startswith(t.casefold())] if t else []
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{s} {n}" for s, n in enumerate(names))
    if not found:
        raise SheetError(
            "players",
            _(
                "{text} is not a player: name one of {listed} (a name or its seat number)",
                text=repr(text),
                listed=listed,
            ),
        )
    could = ", ".join(names[s] for s in found)
    raise SheetError("players", _("{text} could be {names}: type more of the name", text=repr(text), names=could))


def parse_players(text: str, names: Sequence[str]) -> list[int]:
    """Several players separated by spaces or commas."""
    return [parse_player(t, names) for t in re.split(r"[\s,;]+", text.strip()) if t]


def parse_doubles(text: str, names: Sequence[str], rules: Rules, declarer: int, contract: str) -> Grid:
    """A doubles grid from a line such as ``bob>ann cat>>ann`` or ``max`` or ``bob max, dan flanks``.

    ``a>b``: a doubled b; ``a>>b``: a doubled b and b redoubled. A call word alone
    (``max``/``maximum``/``table``, ``flanks``/``family``) is said by everyone in speaking
    order; after a player it is that player's call (``bob max``, ``cat pass``). ``-`` or
    ``none`` (or nothing) means nobody doubled. Parts apply left to right, so ``max bob>ann``
    is everyone's maximum except that Ann did not redouble Bob.
    """
    t = text.strip().casefold()
    if not t or t in NONE_WORDS:
        return ()
    tokens = [x for x in re.split(r"[\s,;]+", text.strip()) if x]
    cells: Grid = ()
    written: set[tuple[int, int]] = set()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        low = tok.casefold()
        if ">" in tok:
            a, sep, b = tok.partition(">>") if ">>" in tok else tok.partition(">")
            if not a or not b:
                raise SheetError("call", not_a_double(tok))
            d = Double(parse_player(a, names), parse_player(b, names), sep == ">>")
            if d.seats in written:
                x, y = d.seats
                raise SheetError(
                    "call", _("{a} and {b} appear twice: two seats have at most one pair", a=names[x], b=names[y])
                )
            written.add(d.seats)
            cells = check_grid([*(c for c in cells if c.seats != d.seats), d], rules.players)
            i += 1
        elif low in WORDS and low != "pass":
            cells = fill_all(cells, low, rules, declarer, contract)
            i += 1
        else:
            seat = parse_player(tok, names)
            if i + 1 >= len(tokens) or tokens[i + 1].casefold() not in WORDS:
                raise SheetError(
                    "call",
                    _("after {name}, say a call word (max, flanks, pass) or write {name}>someone", name=names[seat]),
                )
            cells = fill(cells, seat, tokens[i + 1], rules, declarer, contract)
            i += 2
    return cells


def doubles_words(grid: Grid, names: Sequence[str]) -> str:
    """A grid in words, for a scorekeeper to check.

    >>> doubles_words((Double(1, 0, True), Double(2, 0)), ["Ann", "Bob", "Cat", "Dan"])
    'Bob doubled Ann, redoubled; Cat doubled Ann'
    """
    if not grid:
        return _("no doubles")
    return "; ".join(
        _("{doubler} doubled {doubled}, redoubled", doubler=names[d.doubler], doubled=names[d.doubled])
        if d.redoubled
        else _("{doubler} doubled {doubled}", doubler=names[d.doubler], doubled=names[d.doubled])
        for d in grid
    )


def parse_counts(text: str, players: int, total: int | None, key: str) -> list[int]:
    """Whole numbers, one per seat; with ``total`` known, the last may be left out (it is the rest)."""
    parts = [p for p in re.split(r"[\s,;/]+", text.strip()) if p]
    if not all(p.isdigit() for p in parts):
        raise SheetError(
            "tally",
            _(
                "{key}: write {players} whole numbers, one per seat in seat order, e.g. 6 3 2 2",
                key=key,
                players=players,
            ),
        )
    values = [int(p) for p in parts]
    if total is not None and len(values) == players - 1 and sum(values) <= total:
        values.append(total - sum(values))
    if len(values) != players:
        if total is None:
            why = _("{key}: write {players} numbers, one per seat, not {n}", key=key, players=players, n=len(values))
        else:
            why = _(
                "{key}: write {players} numbers, one per seat (or {fewer}: the last is the rest of {total}), not {n}",
                key=key,
                players=players,
                fewer=players - 1,
                total=total,
                n=len(values),
            )
        raise SheetError("tally", why)
    return values


def parse_order(text: str, names: Sequence[str]) -> list[int]:
    """A finishing order, first out first; the last player may be left out."""
    seats = parse_players(text, names)
    if len(seats) == len(names) - 1 and len(set(seats)) == len(seats):
        seats += [s for s in range(len(names)) if s not in seats]
    return seats


def parse_cards(text: str) -> list[str]:
    """Cards in record notation (``AS KH 10d``), refused one by one if not cards."""
    out = []
    for t in re.split(r"[\s,;|]+", text.strip()):
        if not t:
            continue
        try:
            out.append(card(t))
        except NotationError as e:
            raise SheetError("tally", error_text(e)) from None
    return [card_name(c) for c in out]


__all__ = [
    "NONE_WORDS",
    "doubles_words",
    "parse_cards",
    "parse_counts",
    "parse_doubles",
    "parse_order",
    "parse_player",
    "parse_players",
]
