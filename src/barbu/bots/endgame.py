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
from barbu.cards import HEARTS, cards_of, fold
from barbu.contracts import Contract, TrickResult
from barbu.rulesets import Rules
from barbu.tricks import TrickPlay

__all__ = ["Positions", "distinct_cards", "solve"]

Positions = dict[tuple[object, ...], dict[tuple[object, ...], tuple[int, ...]]]
"""Tables of positions kept from solve to solve, one per context (see :func:`solve`)."""
POSITIONS_KEPT = 200_000
"""Positions a :data:`Positions` holds at most, all contexts together: past that, it is emptied
(the pure path's memory; the compiled table has a fixed size)."""


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


def solve(
    t: TrickPlay, contract: Contract, table: Rules, guide: PlayGuide, root: int, kept: Positions | None = None
) -> list[float]:
    """Each seat's final score (own points) when everyone plays the rest of ``t`` perfectly.

    ``t`` is left as it was. The search keeps its own compact position (hands,
    cards taken and trick winners, played and taken back card by card) and asks
    ``t``'s rule code which cards are legal (:meth:`~barbu.tricks.TrickPlay.legal_for`)
    and who takes a trick (:meth:`~barbu.tricks.TrickPlay.taker`). The scores of a
    finished deal are worked out once per distinct outcome (cards taken and trick
    winners).

    A position at a trick boundary is searched once (a table of positions), where the
    contract's raw scores are a linear model of the cards and tricks taken
    (:func:`barbu.accel.score_model`): what the rest of the deal adds to each seat's raw
    score from there depends on the position only (its second-last trick may be the
    previous one, whose winner is the leader), and as care and sign are whole numbers every
    choice within it is the same however it was reached. Two positions are the same when
    the cards still held, suit by suit from the lowest, have the same holders and the same
    class (cost, score, forced penalty card, card that ends the deal), with a card out of
    play between the same two of them, the same leader and the same answer to "a heart was
    played": the rules the search applies read nothing else. The table keeps what the rest
    adds to the raw scores of the line chosen, and the values are worked out from the full
    raw scores as for any finished line.

    Everything else the search reads (the trick rules, the score model, the care, sign and
    costs, ``root`` and the cards out of play) is the solve's *context*: two solves in the
    same context value a position of the same key alike, so the positions of one stay good
    for the next (a decision's candidates in one world, and its other worlds). ``kept``
    holds them from solve to solve by context (the caller's, empty at first); without it
    each solve starts afresh. The values are the same either way. With the compiled
    accelerator (:mod:`barbu.accel`) the same search runs in compiled code, with the same
    result, keeping its own table from solve to solve the same way (``kept`` unused).
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
    outcomes: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[list[float], tuple[int, ...]]] = {}
    model = accel.score_model(contract, shape)
    hearts = t.rules.suits[HEARTS]
    in_play = t.played
    for c in t.trick:
        in_play |= 1 << c
    for h in hands:
        in_play |= h
    out_of_play = ((1 << 52) - 1) & ~in_play
    positions: dict[tuple[object, ...], tuple[int, ...]] = {}
    if kept is not None and model is not None:
        if sum(len(p) for p in kept.values()) > POSITIONS_KEPT:
            kept.clear()
        context = (t.rules, total, n, model, tuple(map(tuple, care)), sign, tuple(cost), root, out_of_play)
        positions = kept.setdefault(context, positions)
    penalty = t.rules.penalty
    kind = [(cost[c], model[c], penalty >> c & 1, early_end >> c & 1) for c in range(52)] if model is not None else []
    # Raw scores of the tricks played so far in the line searched, by ``model``: the cards
    # taken, the tricks won and the first trick (not the last ones, which the rest decides).
    prefix = [0] * n

    def value_of(raw: tuple[int, ...]) -> list[float]:
        v = scored.get(raw)
        if v is None:
            v = scored[raw] = [sign * sum(care[p][q] * raw[q] for q in seats) for p in seats]
        return v

    def values() -> tuple[list[float], tuple[int, ...]]:
        # Lines of play often end with the same cards taken by the same seats.
        outcome = (tuple(captured), tuple(winners))
        found = outcomes.get(outcome)
        if found is None:
            result = TrickResult(captured=outcome[0], winners=outcome[1])
            raw = tuple(contract.raw(contract.tally_from_tricks(result), shape))
            found = outcomes[outcome] = (value_of(raw), raw)
        return found

    def last_trick(leader: int) -> tuple[list[float], tuple[int, ...]]:
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
        found = values()
        winners.pop()
        captured[winner] ^= mask
        return found

    def position(leader: int, played: int) -> tuple[object, ...]:
        """The key of the position at a trick boundary (see above)."""
        key: list[object] = [leader, played & hearts != 0]
        prev = -1
        for c in cards_of(sum(hands)):
            owner = 0
            while not hands[owner] >> c & 1:
                owner += 1
            apart = prev // 13 == c // 13 and out_of_play & ((1 << c) - 1) & ~((2 << prev) - 1) != 0
            key.append((c // 13, owner, kind[c], apart))
            prev = c
        return tuple(key)

    def boundary(leader: int, played: int) -> tuple[list[float], tuple[int, ...]]:
        """The value of the position where ``leader`` leads after the tricks of ``played``,
        from the table when the same position was searched before (with a linear ``model``)."""
        if model is None:
            return search(leader, leader, (), 0, played)
        key = position(leader, played)
        rest = positions.get(key)
        if rest is not None:
            raw = tuple(p + r for p, r in zip(prefix, rest, strict=True))
            return value_of(raw), raw
        found = search(leader, leader, (), 0, played)
        positions[key] = tuple(r - p for r, p in zip(found[1], prefix, strict=True))
        return found

    def search(
        seat: int, leader: int, trick: tuple[int, ...], in_trick: int, played: int
    ) -> tuple[list[float], tuple[int, ...]]:
        """The value (and raw scores) of the position where ``seat`` plays to ``trick``
        (its cards ``in_trick``, led by ``leader``) after the tricks of ``played``."""
        hand = hands[seat]
        legal = legal_for(hand, trick, played)
        cards = distinct_cards(legal, played | hand, cost) if legal & (legal - 1) else (legal.bit_length() - 1,)
        best: list[float] | None = None
        best_raw: tuple[int, ...] = ()
        for c in cards:
            bit = 1 << c
            hands[seat] = hand ^ bit
            now = (*trick, c)
            mask = in_trick | bit
            if len(now) < n:
                v, raw = search(nxt[seat], leader, now, mask, played)
            else:
                winner = taker(now, mask, leader)
                captured[winner] |= mask
                winners.append(winner)
                gain = 0
                if model is not None:
                    gain = model[52] + (model[53] if len(winners) == 1 else 0) + sum(model[k] for k in now)
                    prefix[winner] += gain
                after = played | mask
                if len(winners) == total or (early_end and after & early_end == early_end):
                    v, raw = values()
                elif len(winners) == total - 1:
                    v, raw = last_trick(winner)
                else:
                    v, raw = boundary(winner, after)
                prefix[winner] -= gain
                winners.pop()
                captured[winner] ^= mask
            if best is None or v[seat] > best[seat] + 1e-9 or (v[seat] > best[seat] - 1e-9 and v[root] < best[root]):
                best, best_raw = v, raw
        hands[seat] = hand
        assert best is not None
        return best, best_raw

    if t.finished:
        return values()[0]
    if not t.trick and len(winners) == total - 1:
        return last_trick(t.leader)[0]
    if model is not None:
        for s in seats:
            prefix[s] = sum(model[k] for k in cards_of(captured[s]))
        for w in winners:
            prefix[w] += model[52]
        if winners:
            prefix[winners[0]] += model[53]
    trick = tuple(t.trick)
    in_trick = 0
    for c in trick:
        in_trick |= 1 << c
    return search(t.turn, t.leader, trick, in_trick, t.played)[0]
