"""Exact play of the last tricks of a deal whose hands are all known (one sampled world).

:func:`solve` searches every distinct line of play to the end of the deal (max^n:
each seat picks the card best for its own final score, raw plus its pairs'
adjustments; ties go against the seat the search is for). Cards that touch in a
suit once the cards already played are set aside, and cost the same, are one
choice: only one of them is tried (:func:`distinct_cards`).

>>> from barbu.cards import parse_pbn, card
>>> from barbu.rulesets import rules
>>> from barbu.tricks import TrickPlay
>>> from barbu.bots.card_play import PlayGuide
>>> r = rules("classic")
>>> hands = [parse_pbn(h) for h in ("A2...", "K3...", "Q4...", "J5...")]
>>> t = TrickPlay(hands, leader=0, trump=None)
>>> contract = r.contract("no-last-two")
>>> solve(t, contract, r, PlayGuide(contract, r), root=0)
[-10.0, 0.0, 0.0, -20.0]
"""

from __future__ import annotations

from barbu.bots.card_play import PlayGuide
from barbu.contracts import Contract
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay

__all__ = ["distinct_cards", "solve"]


def distinct_cards(legal: int, gone: int, cost: list[float]) -> list[int]:
    """One card of each group of equivalent legal cards, lowest first.

    Two cards of a suit are equivalent when every card between them is in ``gone``
    (played, or in the same hand) and they cost the same: which one is played changes
    no trick's winner.

    >>> from barbu.cards import parse_pbn, card, card_name
    >>> hand = parse_pbn("KQ9...")
    >>> [card_name(c) for c in distinct_cards(hand, hand | (1 << card("TS")), [0.0] * 52)]
    ['9S', 'QS']
    """
    out: list[int] = []
    prev = -1
    while legal:
        low = legal & -legal
        c = low.bit_length() - 1
        legal ^= low
        if prev >= 0 and prev // 13 == c // 13 and cost[prev] == cost[c]:
            between = ((1 << c) - 1) & ~((2 << prev) - 1)
            if between & ~gone == 0:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


def solve(t: TrickPlay, contract: Contract, table: Rules, guide: PlayGuide, root: int) -> list[float]:
    """Each seat's final score (own points) when everyone plays the rest of ``t`` perfectly.

    ``t`` is left as it was. The search plays forced cards (a single legal card, or
    a single distinct one) in place and copies the state only where a seat has a
    real choice, the last choice reusing the state itself; the scores of a finished
    deal are worked out once per distinct raw score.
    """
    shape = table.shape
    cost = guide.card_cost
    care = guide.care
    sign = guide.sign
    seats = range(t.players)
    scored: dict[tuple[int, ...], list[float]] = {}

    def values(node: TrickPlay) -> list[float]:
        raw = contract.raw(contract.tally_from_tricks(node.result()), shape)
        key = tuple(raw)
        v = scored.get(key)
        if v is None:
            v = scored[key] = [sign * sum(care[p][q] * raw[q] for q in seats) for p in seats]
        return v

    def search(node: TrickPlay) -> list[float]:
        # ``node`` belongs to this call: it is played on in place.
        while True:
            if node.finished:
                return values(node)
            legal = node.legal_mask()
            if legal & (legal - 1):
                seat = node.turn
                gone = node.played | node.hands[seat]
                for c in node.trick:
                    gone |= 1 << c
                cards = distinct_cards(legal, gone, cost)
                if len(cards) > 1:
                    break
                node.play(cards[0])
            else:
                node.play(legal.bit_length() - 1)
        best: list[float] | None = None
        last = cards[-1]
        for c in cards:
            child = node if c == last else node.copy()
            child.play(c)
            v = search(child)
            if best is None or v[seat] > best[seat] + 1e-9 or (v[seat] > best[seat] - 1e-9 and v[root] < best[root]):
                best = v
        assert best is not None
        return best

    return search(t.copy())
