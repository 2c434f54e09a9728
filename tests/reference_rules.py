"""An independent reading of RULES.md's card play and scoring, used as an oracle.

Written from the text of RULES.md (§2.9.1 pseudo-code, §2.9.2, §2.9.3, §3, §4, §5)
with plain sets and tuples, sharing no rule code with :mod:`barbu`. The tests run the
engine and these models side by side and demand the same turns, the same legal cards
and the same raw scores. Flags are read from the engine's resolved ``Rules.flags``,
which is configuration (checked on its own in test_rulesets.py), not rule code.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

HEARTS = 1
TWO, SEVEN, NINE, TEN, JACK, QUEEN, KING, ACE = 0, 5, 7, 8, 9, 10, 11, 12
KING_OF_HEARTS = HEARTS * 13 + KING
ACE_OF_HEARTS = HEARTS * 13 + ACE


def suit(c: int) -> int:
    return c // 13


def rank(c: int) -> int:
    return c % 13


def cards_in(mask: int) -> set[int]:
    return {c for c in range(52) if mask >> c & 1}


# -- §2.9.1 -----------------------------------------------------------------------------------

HEART_LEAD_CONTRACTS = {"no-hearts", "no-king", "salad", "king-no-hearts", "king-no-king"}
TRUMP_CONTRACTS = {"trumps", "king-trumps"}


def penalty_cards(contract: str, deck: set[int]) -> set[int]:
    """RULES.md §2.9.1 item 5."""
    hearts = {c for c in deck if suit(c) == HEARTS}
    queens = {c for c in deck if rank(c) == QUEEN}
    if contract in ("no-hearts", "king-no-hearts"):
        return hearts
    if contract in ("no-queens", "king-no-queens"):
        return queens
    if contract in ("no-king", "king-no-king"):
        return {KING_OF_HEARTS} & deck
    if contract == "king-no-boys":
        return {c for c in deck if rank(c) in (JACK, KING)}
    if contract == "salad":
        return hearts | queens
    return set()


def early_end_cards(contract: str, deck: set[int]) -> set[int] | None:
    """RULES.md §2.9.2: the cards whose capture ends the deal, or None."""
    if contract in ("no-queens", "king-no-queens", "no-king", "king-no-king", "king-no-boys", "king-no-hearts"):
        return penalty_cards(contract, deck)
    return None


def legal_cards(
    hand: set[int],
    trick: Sequence[int],
    contract: str,
    trump: int | None,
    flags: Any,
    heart_played_earlier: bool,
    deck: set[int],
) -> set[int]:
    """The pseudo-code of RULES.md §2.9.1, line by line."""
    if not trick:
        if contract in HEART_LEAD_CONTRACTS and flags.heart_lead != "free":
            others = {c for c in hand if suit(c) != HEARTS}
            if others and not (flags.heart_lead == "broken" and heart_played_earlier):
                return others
        return set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    if contract not in TRUMP_CONTRACTS:
        penalty = penalty_cards(contract, deck)
        if flags.forced_penalty and penalty:
            if follow:
                high = max(rank(c) for c in trick if suit(c) == led)
                forced = {c for c in follow if c in penalty and rank(c) < high}
                return forced or follow
            forced = {c for c in hand if c in penalty}
            return forced or set(hand)
        return follow or set(hand)
    assert trump is not None
    trumps_in_trick = [rank(c) for c in trick if suit(c) == trump]
    top = max(trumps_in_trick) if trumps_in_trick else None
    mine = {c for c in hand if suit(c) == trump}
    if led == trump:
        if not follow:
            return set(hand)
        assert top is not None
        higher = {c for c in follow if rank(c) > top}
        return higher if (flags.overtrump_required and higher) else follow
    if follow:
        return follow
    if not mine:
        return set(hand)
    if top is None:
        return mine if flags.must_trump_when_void else set(hand)
    if flags.overtrump_required:
        higher = {c for c in mine if rank(c) > top}
        if higher:
            return higher
    return mine if flags.undertrump_required else set(hand)


def trick_winner(cards: Sequence[int], seats: Sequence[int], trump: int | None) -> int:
    """RULES.md §2.9.1 item 3."""
    led = suit(cards[0])
    if trump is not None and any(suit(c) == trump for c in cards):
        best = max((c for c in cards if suit(c) == trump), key=rank)
    else:
        best = max((c for c in cards if suit(c) == led), key=rank)
    return seats[list(cards).index(best)]


@dataclass
class TrickModel:
    """Trick play of one deal, per RULES.md."""

    hands: list[set[int]]
    declarer: int
    contract: str
    trump: int | None
    flags: Any
    deck: set[int]
    direction: int = 1
    turn: int = 0
    trick: list[int] = field(default_factory=list)
    trick_seats: list[int] = field(default_factory=list)
    tricks: list[tuple[list[int], list[int], int]] = field(default_factory=list)
    finished: bool = False

    def __post_init__(self) -> None:
        self.turn = self.declarer
        self.n = len(self.hands)
        self.total_tricks = len(self.hands[0])

    def heart_played_earlier(self) -> bool:
        return any(suit(c) == HEARTS for cards, _, _ in self.tricks for c in cards)

    def legal(self) -> set[int]:
        return legal_cards(
            self.hands[self.turn],
            self.trick,
            self.contract,
            self.trump,
            self.flags,
            self.heart_played_earlier(),
            self.deck,
        )

    def play(self, c: int) -> None:
        self.hands[self.turn].remove(c)
        self.trick.append(c)
        self.trick_seats.append(self.turn)
        if len(self.trick) < self.n:
            self.turn = (self.turn + self.direction) % self.n
            return
        winner = trick_winner(self.trick, self.trick_seats, self.trump)
        self.tricks.append((self.trick, self.trick_seats, winner))
        self.trick, self.trick_seats = [], []
        self.turn = winner
        end = early_end_cards(self.contract, self.deck) if self.flags.early_end else None
        taken = {c for cards, _, _ in self.tricks for c in cards}
        if len(self.tricks) == self.total_tricks or (end is not None and end <= taken):
            self.finished = True

    def captured(self) -> list[set[int]]:
        out: list[set[int]] = [set() for _ in range(self.n)]
        for cards, _, winner in self.tricks:
            out[winner] |= set(cards)
        return out

    def winners(self) -> list[int]:
        return [w for _, _, w in self.tricks]


@dataclass
class DominoModel:
    """Domino of one deal, per RULES.md §2.9.3 and §5."""

    hands: list[set[int]]
    declarer: int
    rank: int | None
    low_rank: int
    laid: set[int]
    ace_replays: bool
    openers: set[int]
    """Ranks the first card may have when ``rank`` is None (first_card start)."""
    direction: int = 1
    turn: int = 0
    order: list[int] = field(default_factory=list)
    finished: bool = False

    def __post_init__(self) -> None:
        self.turn = self.declarer
        self.n = len(self.hands)

    def _fits(self, c: int) -> bool:
        assert self.rank is not None
        s, r = suit(c), rank(c)
        if s * 13 + self.rank not in self.laid:
            return r == self.rank
        lo = hi = self.rank
        while lo - 1 >= self.low_rank and s * 13 + lo - 1 in self.laid:
            lo -= 1
        while hi + 1 <= ACE and s * 13 + hi + 1 in self.laid:
            hi += 1
        return r in (lo - 1, hi + 1) and self.low_rank <= r <= ACE

    def legal(self) -> set[int]:
        hand = self.hands[self.turn]
        if self.rank is None:
            return {c for c in hand if rank(c) in self.openers}
        return {c for c in hand if self._fits(c)}

    def _next_seat(self, seat: int) -> int:
        nxt = (seat + self.direction) % self.n
        while nxt in self.order:
            nxt = (nxt + self.direction) % self.n
        return nxt

    def play(self, c: int | None) -> None:
        seat = self.turn
        if c is not None:
            self.hands[seat].remove(c)
            self.laid.add(c)
            if self.rank is None:
                self.rank = rank(c)
            if not self.hands[seat]:
                self.order.append(seat)
                if len(self.order) == self.n - 1:
                    self.order += [s for s in range(self.n) if s not in self.order]
                    self.finished = True
                    return
            elif self.ace_replays and rank(c) == ACE and self.legal():
                return
        self.turn = self._next_seat(seat)


# -- §3, §4: raw scores -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Values:
    """The per-unit values of one column of RULES.md §4."""

    no_tricks: int
    per_heart: int
    ace_of_hearts: int
    per_queen: int
    king: int
    second_last: int
    last: int
    trumps: int = 0


CLASSIC = Values(-2, -2, -6, -6, -20, -10, -20, 5)
RAVAGE = Values(-3, -2, -6, -8, -21, -10, -20, 7)
SALAD = Values(-5, -10, -10, -20, -50, 0, -30)
FRENCH = Values(5, 5, 5, 20, 80, 0, 0)
VALUES = {
    "classic": CLASSIC,
    "ravage-city": RAVAGE,
    "chinese-poker": RAVAGE,
    "five-player": CLASSIC,
    "thirty-two": CLASSIC,
    "salad": SALAD,
    "french": FRENCH,
}


def _count(captured: list[set[int]], pred: Any) -> list[int]:
    return [sum(1 for c in cs if pred(c)) for cs in captured]


def _holder(captured: list[set[int]], c: int) -> int:
    return next(s for s, cs in enumerate(captured) if c in cs)


def trick_raw(
    variant: str, contract: str, captured: list[set[int]], winners: list[int], n: int, ravage_total: int
) -> list[int]:
    """Raw scores of a played trick deal, from RULES.md §3 and the values of §4."""
    tricks = [winners.count(s) for s in range(n)]
    hearts = _count(captured, lambda c: suit(c) == HEARTS)
    queens = _count(captured, lambda c: rank(c) == QUEEN)
    out = [0] * n
    if variant == "king":
        per = {
            "king-no-queens": (queens, -100),
            "king-no-boys": (_count(captured, lambda c: rank(c) in (JACK, KING)), -60),
            "king-no-hearts": (hearts, -30),
            "king-no-tricks": (tricks, -50),
            "king-trumps": (tricks, 50),
        }
        if contract in per:
            counts, value = per[contract]
            return [value * k for k in counts]
        if contract == "king-no-king":
            out[_holder(captured, KING_OF_HEARTS)] = -320
            return out
        if contract == "king-no-last-two":
            out[winners[-2]] += -180
            out[winners[-1]] += -180
            return out
        raise AssertionError(contract)
    v = VALUES[variant]
    if contract == "no-tricks":
        return [v.no_tricks * t for t in tricks]
    if contract == "trumps":
        return [v.trumps * t for t in tricks]
    if contract == "more-tricks":
        return [-5 * t for t in tricks]
    if contract == "first-and-last":
        out[winners[0]] += 40
        out[winners[-1]] += 40
        return out
    if contract == "no-hearts":
        out = [v.per_heart * h for h in hearts]
        out[_holder(captured, ACE_OF_HEARTS)] += v.ace_of_hearts - v.per_heart
        return out
    if contract == "no-queens":
        return [v.per_queen * q for q in queens]
    if contract == "no-king":
        out[_holder(captured, KING_OF_HEARTS)] = v.king
        return out
    if contract == "no-last-two":
        out[winners[-2]] += v.second_last
        out[winners[-1]] += v.last
        return out
    if contract == "salad":
        # every part at once: tricks, hearts (K and Q of hearts count as hearts too),
        # queens (the Q of hearts too), the K of hearts, and (salad rule set) the last trick
        out = [
            v.no_tricks * t + v.per_heart * h + v.per_queen * q for t, h, q in zip(tricks, hearts, queens, strict=True)
        ]
        out[_holder(captured, KING_OF_HEARTS)] += v.king
        if variant == "salad":
            out[winners[-1]] += v.last
        return out
    if contract == "ravage-city":
        longest = [max(sum(1 for c in cs if suit(c) == s) for s in range(4)) for cs in captured]
        top = max(longest)
        leaders = [s for s in range(n) if longest[s] == top]
        assert ravage_total % len(leaders) == 0
        return [ravage_total // len(leaders) if s in leaders else 0 for s in range(n)]
    raise AssertionError(contract)


def domino_raw(order: Sequence[int], values: Sequence[int]) -> list[int]:
    out = [0] * len(order)
    for placing, seat in enumerate(order):
        out[seat] = values[placing]
    return out


def skip_raw(total: int, n: int, declarer: int) -> list[int]:
    """RULES.md §2.8."""
    share = total // (n - 1)
    out = [share] * n
    out[declarer] = total - (n - 1) * share
    return out


def settle(raw: Sequence[int], pairs: Iterable[tuple[int, int, int]]) -> list[int]:
    """RULES.md §2.10 step 2, from (doubler, doubled, multiplier)."""
    adj = [0] * len(raw)
    for a, b, m in pairs:
        delta = m * (raw[a] - raw[b])
        adj[a] += delta
        adj[b] -= delta
    return adj


def clone_tricks(m: TrickModel) -> TrickModel:
    """An independent copy, for counting play sequences."""
    other = TrickModel.__new__(TrickModel)
    other.__dict__.update(m.__dict__)
    other.hands = [set(h) for h in m.hands]
    other.trick = list(m.trick)
    other.trick_seats = list(m.trick_seats)
    other.tricks = list(m.tricks)
    return other


def clone_domino(m: DominoModel) -> DominoModel:
    """An independent copy, for counting play sequences."""
    other = DominoModel.__new__(DominoModel)
    other.__dict__.update(m.__dict__)
    other.hands = [set(h) for h in m.hands]
    other.laid = set(m.laid)
    other.order = list(m.order)
    return other


# -- §2.2, §2.4, 4.6, 4.7: who declares, and what -----------------------------------------------------------


def declarer_of(i: int, first: int, n: int, k: int, variant: str, rotation: str) -> int:
    """RULES.md §2.2 (block or quick), 4.6 (french: left every deal), 4.7 (king: right every deal)."""
    if variant == "king":
        return (first - i) % n
    if variant == "french" or rotation == "quick":
        return (first + i) % n
    return (first + i // k) % n


KING_NEGATIVES = (
    "king-no-king",
    "king-no-queens",
    "king-no-boys",
    "king-no-hearts",
    "king-no-last-two",
    "king-no-tricks",
)


def contract_choices(
    variant: str, table: Sequence[str], declared: Sequence[tuple[int, str]], declarer: int
) -> list[str]:
    """RULES.md §2.4 and 4.7: the contracts ``declarer`` may name, in table order.

    ``declared`` lists (declarer, contract) of the earlier deals of the game."""
    own = [c for d, c in declared if d == declarer]
    if variant == "king":
        negatives = sum(1 for c in own if c != "king-trumps")
        trumps = own.count("king-trumps")
        per_game = [c for _, c in declared]
        return [
            c
            for c in table
            if (c == "king-trumps" and trumps < 2) or (c != "king-trumps" and negatives < 3 and per_game.count(c) < 2)
        ]
    return [c for c in table if c not in own]


# -- §2.6, §2.7: the calls -----------------------------------------------------------------------------------------


@dataclass
class CallsModel:
    """One deal's calls per RULES.md §2.6 and §2.7, as sets of seats."""

    n: int
    declarer: int
    negative: bool
    flags: Any
    forced: set[int]
    pairs: dict[frozenset[int], tuple[int, int, int]] = field(default_factory=dict)
    queue: list[int] = field(default_factory=list)
    round: int = 1

    def __post_init__(self) -> None:
        self.order = [(self.declarer + i) % self.n for i in range(1, self.n)] + [self.declarer]
        self.queue = list(self.order)

    def may_double(self, p: int) -> set[int]:
        if self.round == 2 or p == self.declarer:
            return set()
        scope = self.flags.negative_targets if self.negative else self.flags.positive_targets
        targets = {self.declarer} if scope == "declarer_only" else {s for s in range(self.n) if s != p}
        return {t for t in targets if frozenset((p, t)) not in self.pairs}

    def may_redouble(self, p: int) -> set[int]:
        out = set()
        for doubler, doubled, m in self.pairs.values():
            if doubled == p and m == 1:
                if self.round == 2 and self.order.index(doubler) < self.order.index(p):
                    continue
                out.add(doubler)
        return out

    def legal(self) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every legal call of the seat to act, as (doubles, redoubles), sorted tuples."""
        p = self.queue[0]
        out = set()
        dbl_ok, rdbl_ok = sorted(self.may_double(p)), sorted(self.may_redouble(p))
        for dmask in range(1 << len(dbl_ok)):
            dbl = tuple(t for i, t in enumerate(dbl_ok) if dmask >> i & 1)
            if self.round == 1 and p in self.forced and self.declarer not in dbl:
                continue
            for rmask in range(1 << len(rdbl_ok)):
                out.add((dbl, tuple(t for i, t in enumerate(rdbl_ok) if rmask >> i & 1)))
        return out

    def call(self, dbl: Iterable[int], rdbl: Iterable[int]) -> None:
        p = self.queue.pop(0)
        for t in dbl:
            self.pairs[frozenset((p, t))] = (p, t, 1)
        for t in rdbl:
            self.pairs[frozenset((p, t))] = (t, p, 2)
        if not self.queue and self.round == 1:
            self.round = 2
            if self.flags.late_redouble:
                # non-declarers doubled (at x1) by seats calling after them, in round-1 order
                self.queue = [
                    q
                    for q in self.order
                    if q != self.declarer
                    and any(
                        doubled == q and m == 1 and self.order.index(doubler) > self.order.index(q)
                        for doubler, doubled, m in self.pairs.values()
                    )
                ]

    @property
    def finished(self) -> bool:
        return not self.queue


def forced_seats(n: int, declarer: int, need: int, k_total: int, earlier_doublers: Sequence[set[int]]) -> set[int]:
    """RULES.md §2.7: ``earlier_doublers`` holds, for each earlier deal of the declarer's set,
    the seats whose round-1 call doubled the declarer; the current contract is the next one."""
    k = len(earlier_doublers) + 1
    out = set()
    for p in range(n):
        if p != declarer and need > 0:
            c = sum(1 for s in earlier_doublers if p in s)
            if need - c >= k_total - k + 1:
                out.add(p)
    return out


def spoken(model: CallsModel, word: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """RULES.md §2.6 shorthands: the (doubles, redoubles) a word means for the seat to act,
    or None where the word is illegal."""
    p = model.queue[0]
    d, r = model.may_double(p), model.may_redouble(p)
    forced = model.round == 1 and p in model.forced
    if word == "pass":
        out: tuple[set[int], set[int]] = (set(), set())
    elif word in ("maximum", "table"):
        out = (d, r)
    elif word in ("flanks", "family"):
        scope = model.flags.negative_targets if model.negative else model.flags.positive_targets
        if model.round == 2 or p == model.declarer or scope == "declarer_only":
            return None
        non_declarers = {s for s in range(model.n) if s != model.declarer}
        out = (d & non_declarers, (r & non_declarers) if model.flags.flanks_redoubles else set())
    else:
        return None
    if forced and model.declarer not in out[0]:
        return None
    return tuple(sorted(out[0])), tuple(sorted(out[1]))
