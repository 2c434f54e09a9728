"""Exact play of the last tricks of a deal whose hands are all known (one sampled world).

:func:`solve` searches every distinct line of play to the end of the deal (max^n:
each seat picks the card best for its own final score, raw plus its pairs'
adjustments; ties go against the seat the search is for). Cards that touch in a
suit once the cards already played are set aside, and cost the same, are one
choice: only one of them is tried (:func:`distinct_cards`).

>>> from barbu.cards import parse_pbn, card
>>> from barbu.rulesets import rules
>>> from barbu.tricks import TrickPlay, TrickRules
>>> from barbu.bots.card_play import PlayGuide
>>> r = rules("classic")
>>> hands = [parse_pbn(h) for h in ("A2...", "K3...", "Q4...", "J5...")]
>>> t = TrickPlay(hands, leader=0, rules=TrickRules())
>>> contract = r.contract("no-last-two")
>>> solve(t, contract, r, PlayGuide(contract, r), root=0)
[-10.0, 0.0, 0.0, -20.0]
"""

from __future__ import annotations

from barbu import accel
from barbu.bots.card_play import PlayGuide
from barbu.cards import fold
from barbu.contracts import Contract, TrickResult
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay

__all__ = ["distinct_cards", "solve"]


def distinct_cards(legal: int, gone: int, cost: list[float]) -> list[int]:
    """One card of each group of equivalent legal cards, lowest first.

    Two cards of a suit are equivalent when every card between them is in ``gone``
    (played to an earlier trick, or in the same hand) and they cost the same: which one
    is played changes no trick's winner. A card of the current trick is not gone: it may
    fall between two cards, one that beats it and one that does not.

    >>> from barbu.cards import parse_pbn, card, card_name
    >>> hand = parse_pbn("KQ9...")
    >>> [card_name(c) for c in distinct_cards(hand, hand | (1 << card("TS")), [0.0] * 52)]
    ['9S', 'QS']
    """
    if len(cost) > 52:  # two decks: a card and its copy (c + 52) are one move
        gone_both = gone & gone >> 52 & ((1 << 52) - 1)
        return [c if legal >> c & 1 else c + 52 for c in distinct_cards(fold(legal), gone_both, cost[:52])]
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

    ``t`` is left as it was. The search keeps its own compact position (hands,
    cards taken and trick winners, played and taken back card by card) and asks
    ``t``'s rule code which cards are legal (:meth:`~barbu.tricks.TrickPlay.legal_for`)
    and who takes a trick (:meth:`~barbu.tricks.TrickPlay.taker`). The scores of a
    finished deal are worked out once per distinct outcome (cards taken and trick
    winners). With the compiled accelerator (:mod:`barbu.accel`) the same search runs
    in compiled code, with the same result.
    """
    compiled = accel.solve(t, contract, table, guide, root)
    if compiled is not None:
        return compiled
    shape = table.shape
    cost = guide.card_cost
    care = guide.care
    sign = guide.sign
    n = t.players
    seats = range(n)
    nxt = [(s + t.direction) % n for s in seats]
    legal_for = t.legal_for
    taker = t.taker
    total = t.tricks_total
    early_end = t.rules.early_end
    hands = list(t.hands)
    captured = list(t.captured)
    winners = list(t.winners)
    scored: dict[tuple[int, ...], list[float]] = {}
    outcomes: dict[tuple[tuple[int, ...], tuple[int, ...]], list[float]] = {}

    def values() -> list[float]:
        # Lines of play often end with the same cards taken by the same seats.
        outcome = (tuple(captured), tuple(winners))
        v = outcomes.get(outcome)
        if v is None:
            result = TrickResult(captured=outcome[0], winners=outcome[1])
            raw = contract.raw(contract.tally_from_tricks(result), shape)
            key = tuple(raw)
            v = scored.get(key)
            if v is None:
                v = scored[key] = [sign * sum(care[p][q] * raw[q] for q in seats) for p in seats]
            outcomes[outcome] = v
        return v

    def last_trick(leader: int) -> list[float]:
        """The value once every seat holds one card: each plays it, ``leader`` first."""
        now = []
        mask = 0
        seat = leader
        for _ in seats:
            hand = hands[seat]
            now.append(hand.bit_length() - 1)
            mask |= hand
            seat = nxt[seat]
        winner = taker(now, mask, leader)
        captured[winner] |= mask
        winners.append(winner)
        v = values()
        winners.pop()
        captured[winner] ^= mask
        return v

    def search(seat: int, leader: int, trick: tuple[int, ...], in_trick: int, played: int) -> list[float]:
        """The value of the position where ``seat`` plays to ``trick`` (its cards
        ``in_trick``, led by ``leader``) after the tricks of ``played``."""
        hand = hands[seat]
        legal = legal_for(hand, trick, played)
        cards = distinct_cards(legal, played | hand, cost) if legal & (legal - 1) else (legal.bit_length() - 1,)
        best: list[float] | None = None
        for c in cards:
            bit = 1 << c
            hands[seat] = hand ^ bit
            now = (*trick, c)
            mask = in_trick | bit
            if len(now) < n:
                v = search(nxt[seat], leader, now, mask, played)
            else:
                winner = taker(now, mask, leader)
                captured[winner] |= mask
                winners.append(winner)
                after = played | mask
                if len(winners) == total or (early_end and after & early_end == early_end):
                    v = values()
                elif len(winners) == total - 1:
                    v = last_trick(winner)
                else:
                    v = search(winner, winner, (), 0, after)
                winners.pop()
                captured[winner] ^= mask
            if best is None or v[seat] > best[seat] + 1e-9 or (v[seat] > best[seat] - 1e-9 and v[root] < best[root]):
                best = v
        hands[seat] = hand
        assert best is not None
        return best

    if t.finished:
        return values()
    if not t.trick and len(winners) == total - 1:
        return last_trick(t.leader)
    trick = tuple(t.trick)
    in_trick = 0
    for c in trick:
        in_trick |= 1 << c
    return search(t.turn, t.leader, trick, in_trick, t.played)
