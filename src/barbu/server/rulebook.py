"""The rules in words, per rule set and per contract, generated from the core's rule data.

:func:`rulebook` describes one rule set for the rules page (``GET /rules/{variant}``, from
``GET /api/rulebook/{variant}``): its deck, deals and doubling, then each contract with its
values, its total, how it is played (which cards are legal, from the contract's play facts and
the rule set's flags) and a worked example scored by the core itself. :func:`first_game` is the
short "how to play" of ``GET /rules``. Every sentence is in the language of the moment
(:mod:`barbu.language`); every number comes from the core.

>>> book = rulebook("classic")
>>> book["contracts"][2]["title"], book["contracts"][2]["values"]
('No queens', ['-6 per queen taken'])
>>> book["contracts"][2]["example"]["raw"], book["contracts"][2]["example"]["sum"]
([-18, -6, 0, 0], "Together: -24, the contract's total.")
"""

from __future__ import annotations

from typing import Any

from barbu.contracts import Contract
from barbu.doubling import Pair, settle
from barbu.errors import BarbuError
from barbu.language import N_, _, _n, _p, tally_label
from barbu.rulesets import CHOICE_HELP, FLAG_HELP, RULE_SETS, Rules, applicable_flags, rules
from barbu.tally import check_tally
from barbu.tally_keys import TALLY_KEYS, tally_table

VALUE_WORDS = {
    "per_trick": N_("{v} per trick won"),
    "per_heart": N_("{v} per heart taken"),
    "ace": N_("{v} for the ace of hearts (in place of its value as a heart)"),
    "per_queen": N_("{v} per queen taken"),
    "king": N_("{v} for the king of hearts"),
    "per_card": N_("{v} per jack or king taken"),
    "second_last": N_("{v} for the second-last trick (trick {n})"),
    "last": N_("{v} for the last trick (trick {n})"),
    "seventh": N_("{v} for trick 7"),
    "first": N_("{v} for the first trick"),
}
"""What each value field of a contract is worth, in words (``{v}`` the value)."""

EXAMPLE_SEATS = {"king_of_hearts": 2, "ace_of_hearts": 1, "first": 0, "seventh": 2, "second_last": 1, "last": 3}
"""Who takes what in the worked examples (seat numbers, reduced to the table's size)."""

SUITS_EXAMPLE = [[6, 3, 4, 3], [2, 4, 3, 3], [3, 4, 4, 5], [2, 2, 2, 2]]
"""The cards taken per suit in Ravage City's worked example (four players, 52 cards)."""


def signed(v: int) -> str:
    """A value with its sign: ``+5``, ``-2``, ``0``."""
    return f"{v:+d}" if v else "0"


def seat_name(seat: int) -> str:
    return _("Seat {n}", n=seat)


def _kind(contract: Contract, r: Rules) -> str:
    if r.ruleset.penalty_points:
        return _("Penalty points: every point counts against its taker; the lowest total wins.")
    if contract.doubling_class == "positive":
        return _("Positive contract: the points are gains; take as many as you can.")
    if contract.doubling_class == "negative":
        return _("Negative contract: the points are penalties; take as few as you can.")
    total = contract.total(r.shape)
    if total > 0:
        return _("Positive contract: the points are gains; take as many as you can.")
    return _("Negative contract: the points are penalties; take as few as you can.")


def _values(contract: Contract, r: Rules) -> list[str]:
    shape = r.shape
    out = []
    for name, value in contract.values().items():
        if name in VALUE_WORDS and isinstance(value, int) and (value or name != "second_last"):
            out.append(_(VALUE_WORDS[name], v=signed(value), n=shape.tricks if name == "last" else shape.tricks - 1))
    if contract.play == "domino":
        places = ", ".join(signed(v) for v in shape.domino_values)
        out.append(_("By finishing place, first out first: {places}", places=places))
    if contract.id in ("ravage-city",) or "ravage_city_total" in contract.reads_flags:
        out.append(
            _(
                "{v} shared equally by the players who took the most cards of one suit",
                v=signed(shape.ravage_city_total),
            )
        )
    if contract.play == "arrange":
        out.append(
            _("Each row is compared with the same row of every other player; the better row scores, four times over.")
        )
    return out


def _play(contract: Contract, r: Rules) -> list[str]:
    flags = r.flags
    out = []
    if contract.play == "tricks":
        out.append(_("Follow the suit led if you can; otherwise play any card. The highest card of the suit led wins."))
        if contract.names_trump:
            out.append(_("The declarer names the trump suit; a trump beats every card of the other suits."))
            for name in ("must_trump_when_void", "overtrump_required", "undertrump_required"):
                if getattr(flags, name):
                    out.append(_p("flag", FLAG_HELP[name]))
        if contract.heart_lead_rule:
            out.append(_("Hearts may be led {when}.", when=_p("flag", CHOICE_HELP[f"heart_lead={flags.heart_lead}"])))
        if flags.forced_penalty and contract.penalty_cards(r.deck):
            out.append(_p("flag", FLAG_HELP["forced_penalty"]))
        if contract.ends_early and flags.early_end:
            out.append(_p("flag", FLAG_HELP["early_end"]))
        elif contract.play == "tricks":
            out.append(_n("All {n} trick is played.", "All {n} tricks are played.", r.cards_each, n=r.cards_each))
    elif contract.play == "domino":
        out.append(
            _(
                "Cards are laid out in rows, one per suit, up and down from the starting rank; "
                "a player who cannot lay a card passes. The first to lay all their cards finishes first."
            )
        )
        start = _p("flag", CHOICE_HELP[f"domino_start={flags.domino_start}"])
        out.append(_("Start: {how}.", how=start))
        if flags.domino_ace_replays:
            out.append(_p("flag", FLAG_HELP["domino_ace_replays"]))
        if r.ruleset.removed.get(r.players):
            out.append(_p("flag", CHOICE_HELP[f"removed_card_rule={flags.removed_card_rule}"]).capitalize() + ".")
    else:
        out.append(
            _(
                "No trick is played: each player arranges their cards into three poker rows, "
                "5 at the back, 5 in the middle and 3 at the front, each row no stronger than the one behind it."
            )
        )
    return out


def _example_tally(contract: Contract, r: Rules) -> dict[str, Any] | None:
    n = r.players
    table = tally_table(r.deck, r.cards_each)
    tally: dict[str, Any] = {}
    for key in contract.tally_keys():
        kind = TALLY_KEYS[key].kind
        if kind == "count":
            total = table[key]["total"]
            weights = list(range(n, 0, -1))
            shares = [total * w // sum(weights) for w in weights]
            shares[0] += total - sum(shares)
            tally[key] = shares
        elif kind == "seat":
            tally[key] = EXAMPLE_SEATS[key] % n
        elif kind == "order":
            tally[key] = [(2 + i) % n for i in range(n)]
        elif kind == "suits" and n == 4 and r.deck.bit_count() == 52:
            tally[key] = SUITS_EXAMPLE
        else:
            return None
    return tally


def _tally_words(key: str, value: Any, r: Rules) -> str:
    label = tally_label(key, r.cards_each)
    kind = TALLY_KEYS[key].kind
    if kind == "count":
        shown = ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(value))
    elif kind == "seat":
        shown = seat_name(value)
    elif kind == "order":
        shown = ", ".join(seat_name(s) for s in value)
    else:
        shown = "; ".join(f"{seat_name(s)} {' '.join(str(c) for c in row)}" for s, row in enumerate(value))
    return f"{label}: {shown}"


def _example(contract: Contract, r: Rules) -> dict[str, Any] | None:
    tally = _example_tally(contract, r)
    if tally is None:
        return None
    try:
        checked = check_tally(tally, contract, r)
    except BarbuError:
        return None
    raw = contract.raw(checked, r.shape)
    return {
        "tally": [_tally_words(k, v, r) for k, v in tally.items()],
        "raw": raw,
        "scores": ", ".join(f"{seat_name(s)} {signed(v)}" for s, v in enumerate(raw)),
        "sum": _("Together: {total}, the contract's total.", total=signed(sum(raw))),
    }


def _doubling(r: Rules) -> dict[str, Any] | None:
    if not r.ruleset.doubling:
        return None
    flags = r.flags
    paragraphs = [
        _(
            "Before play, each other player in turn may double the declarer (contre): "
            "a bet that they will score better than the declarer on this deal. "
            "The declarer, who calls last, may redouble (surcontre) each player who doubled them."
        ),
        _p("flag", FLAG_HELP["negative_targets"])
        + " "
        + _p("flag", CHOICE_HELP[f"negative_targets={flags.negative_targets}"]).capitalize()
        + ".",
        _p("flag", FLAG_HELP["positive_targets"])
        + " "
        + _p("flag", CHOICE_HELP[f"positive_targets={flags.positive_targets}"]).capitalize()
        + ".",
        _(
            "Each pair settles on the deal's scores: the player who did better receives the difference "
            "from the other, twice over when redoubled."
        ),
        _(
            'Spoken calls: "maximum" doubles everyone one may and redoubles everyone one may; "flanks" doubles the '
            'other non-declarers; "pass" says nothing.'
        ),
    ]
    if flags.compulsory_doubles:
        paragraphs.append(
            _n(
                "Compulsory doubles: each other player must double each declarer at least {n} time during that "
                "declarer's set; when the deals left are just enough, the double is forced.",
                "Compulsory doubles: each other player must double each declarer at least {n} times during that "
                "declarer's set; when the deals left are just enough, the double is forced.",
                flags.compulsory_doubles,
                n=flags.compulsory_doubles,
            )
        )
    if flags.skip_undoubled_negative:
        paragraphs.append(_p("flag", FLAG_HELP["skip_undoubled_negative"]))
    contract = next(c for c in r.contracts if c.doubling_class == "negative")
    example = _example(contract, r)
    worked = None
    if example is not None and r.players >= 3:
        pairs = [Pair(1, 0, 1), Pair(2, 0, 2)]
        final = settle(example["raw"], pairs)
        worked = {
            "text": _(
                "{contract}, declarer {declarer}: {a} doubles the declarer, {b} doubles and is redoubled.",
                contract=_p("contract", contract.title),
                declarer=seat_name(0),
                a=seat_name(1),
                b=seat_name(2),
            ),
            "raw": example["scores"],
            "final": ", ".join(f"{seat_name(s)} {signed(v)}" for s, v in enumerate(final)),
        }
    return {"paragraphs": paragraphs, "example": worked}


def rulebook(variant: str, player_count: int | None = None) -> dict[str, Any]:
    """The rules of ``variant`` in words (see the module docstring), at ``player_count``
    players (the rule set's first count if not given)."""
    rs = RULE_SETS[variant]
    count = player_count if player_count in rs.player_counts else rs.player_counts[0]
    r = rules(variant, {"player_count": count} if len(rs.player_counts) > 1 else {})
    removed = r.ruleset.removed.get(r.players, ())
    facts = [
        _n("{n} player", "{n} players", r.players, n=r.players)
        + ", "
        + _n("{n} card each", "{n} cards each", r.cards_each, n=r.cards_each)
        + ", "
        + _n("{n} deal", "{n} deals", r.deal_count, n=r.deal_count)
        + ".",
    ]
    if removed:
        facts.append(_("Cards taken out of the deck: {cards}.", cards=", ".join(removed)))
    if r.ruleset.direction < 0:
        facts.append(_("Play goes anticlockwise."))
    facts.append(_("With doubling.") if r.ruleset.doubling else _("No doubling."))
    if r.ruleset.penalty_points:
        facts.append(_("Scores are penalty points: the lowest total wins."))
    else:
        facts.append(_("The highest total wins."))
    contracts = []
    for c in r.ruleset.all_contracts(r.players):
        contracts.append(
            {
                "id": c.id,
                "title": _p("contract", c.title),
                "kind": _kind(c, r),
                "values": _values(c, r),
                "total": _("All the points of one deal add up to {total}.", total=signed(c.total(r.shape))),
                "play": _play(c, r),
                "example": _example(c, r),
            }
        )
    flags = [
        {"name": f, "help": _p("flag", FLAG_HELP[f]), "value": _flag_value(f, getattr(r.flags, f, r.players))}
        for f in sorted(applicable_flags(r))
        if f in FLAG_HELP
    ]
    return {
        "variant": variant,
        "title": _p("variant", rs.title),
        "blurb": _p("variant", rs.blurb),
        "players": list(rs.player_counts),
        "player_count": r.players,
        "facts": facts,
        "contracts": contracts,
        "doubling": _doubling(r),
        "flags": flags,
    }


def _flag_value(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, str) and f"{name}={value}" in CHOICE_HELP:
        return _p("flag", CHOICE_HELP[f"{name}={value}"])
    if isinstance(value, tuple):
        return ", ".join(signed(v) for v in value)
    return str(value)


def first_game() -> dict[str, Any]:
    """The short "how to play" for a first game, with the classic game's numbers."""
    r = rules("classic")
    titles = [_p("contract", c.title) for c in r.contracts]
    negatives = [_p("contract", c.title) for c in r.contracts if c.doubling_class == "negative"]
    positives = [_p("contract", c.title) for c in r.contracts if c.doubling_class == "positive"]
    return {
        "title": _("How to play"),
        "steps": [
            _(
                "Barbu is played by {players} players with a 52-card deck, {cards} cards each. "
                "A game has {deals} deals: each player in turn is the declarer for {per} deals "
                "and chooses each time a contract they have not played yet.",
                players=r.players,
                cards=r.cards_each,
                deals=r.deal_count,
                per=len(titles),
            ),
            _("The contracts: {titles}.", titles=", ".join(titles)),
            _("In the negative contracts ({names}) you avoid what costs points.", names=", ".join(negatives)),
            _("In the positive contracts ({names}) you try to gain points.", names=", ".join(positives)),
            _(
                "Before each deal is played, the other players may double the declarer (contre), and the declarer may "
                "redouble (surcontre): two players who doubled each other compare their scores on that deal, and the "
                "better one takes the difference."
            ),
            _(
                "On your turn, the cards you may play are the ones offered; the others are greyed out. "
                "The score sheet keeps the running totals; the highest total after the last deal wins."
            ),
            _(
                "Your first game: sit with three bots at the Heuristic level, keep the rules page open, and watch who "
                "doubles whom."
            ),
        ],
        "variants": [
            {"name": name, "title": _p("variant", rs.title), "blurb": _p("variant", rs.blurb)}
            for name, rs in RULE_SETS.items()
        ],
    }


__all__ = ["first_game", "rulebook"]
