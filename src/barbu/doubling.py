"""The doubling: calls, business pairs, compulsory doubles and the settlement.

RULES.md §2.6-2.8 and §2.10. A :class:`Doubling` follows one deal's calls: round 1
(one call each, from the declarer's left round to the declarer), then round 2 (late
redoubles for non-declarers doubled by later callers). It says who may double and
redouble whom, expands the spoken shorthands and checks compulsory doubles.

>>> d = Doubling(players=4, declarer=0, negative=True, flags=Flags(), forced=frozenset())
>>> d.to_act, d.may_double(1)
(1, [0, 2, 3])
>>> d.call(1, Call(double=(0,)))
>>> d.call(2, Call(double=(0, 1)))
>>> d.call(3, Call())
>>> d.may_redouble(0)
[1, 2]
>>> d.call(0, Call(redouble=(1,)))
>>> d.round, d.to_act
(2, 1)
>>> d.call(1, Call())
>>> d.finished, [(p.seats, p.multiplier) for p in d.pairs()]
(True, [((0, 1), 2), ((0, 2), 1), ((1, 2), 1)])
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import NamedTuple

from barbu.actions import CALL_WORDS, Call, random_pick
from barbu.errors import N_, IllegalAction, OutOfTurn, Text
from barbu.rulesets import Flags


class Pair(NamedTuple):
    """A business pair: ``doubler`` doubled ``doubled``; ``multiplier`` 1 or 2."""

    doubler: int
    doubled: int
    multiplier: int

    @property
    def seats(self) -> tuple[int, int]:
        """The two seats, ascending."""
        return (min(self.doubler, self.doubled), max(self.doubler, self.doubled))


class SpokenCall(NamedTuple):
    """A call as made: who, in which round, what was said and what it meant."""

    seat: int
    round: int
    said: Call
    doubles: tuple[int, ...]
    redoubles: tuple[int, ...]


_new_tuple = tuple.__new__
"""Makes a Pair or SpokenCall from its fields without NamedTuple's Python ``__new__`` (hot in playouts)."""

_Options = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
"""(may double, may redouble, must double) of a caller."""


def round_one_order(players: int, declarer: int, direction: int = 1) -> list[int]:
    """The round-1 calling order: declarer's left first, declarer last."""
    return [(declarer + direction * i) % players for i in range(1, players)] + [declarer]


class Doubling:
    """The calls of one deal. See the module docstring."""

    def __init__(
        self,
        players: int,
        declarer: int,
        negative: bool,
        flags: Flags,
        forced: frozenset[int],
        direction: int = 1,
    ) -> None:
        self.players = players
        self.declarer = declarer
        self.negative = negative
        self.flags = flags
        self.forced = forced
        self.order = round_one_order(players, declarer, direction)
        self.calls: list[SpokenCall] = []
        self._pairs: dict[tuple[int, int], Pair] = {}
        self._queue: list[int] = list(self.order)
        self.round = 1
        scope = flags.negative_targets if negative else flags.positive_targets
        self._setting = _SETTINGS.setdefault((players, declarer, tuple(self.order), scope), len(_SETTINGS))
        """What a caller's options depend on besides the calls, as a number (:data:`_SETTINGS`)."""
        self._calls_code = 1
        """The calls so far, two bits a seat each (the seats doubled, then those redoubled): with the
        setting, they say who made each call, hence every pair (the key of :data:`_OPTIONS`)."""
        self._declarer_doublers: frozenset[int] = frozenset()
        """The seats that doubled the declarer in round 1 so far (:attr:`doubled_declarer`)."""
        self._stamp: tuple[int, int] = (-1, -1)
        self._options: _Options = ((), (), ())
        """The last options given (of the seat and after the calls of ``_stamp``)."""
        self._listed: tuple[_Options | None, _Listing | None] = (None, None)
        """The last listing of legal calls given, with the options it was made from (:meth:`_listing`)."""

    def copy(self) -> Doubling:
        """An independent copy (pairs and calls are immutable values)."""
        other = Doubling.__new__(Doubling)
        other.__dict__.update(self.__dict__)
        other.calls = list(self.calls)
        other._pairs = dict(self._pairs)
        other._queue = list(self._queue)
        other._listed = (None, None)  # a cache: a copy (a search's world) does not keep the listing alive
        return other

    # -- what may be said ---------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat to call next, or None when the calls are over."""
        return self._queue[0] if self._queue else None

    @property
    def finished(self) -> bool:
        """True once round 1 and any round 2 are over."""
        return not self._queue

    def pair(self, a: int, b: int) -> Pair | None:
        """The pair between seats ``a`` and ``b``, if any."""
        return self._pairs.get((a, b) if a < b else (b, a))

    def pairs(self) -> list[Pair]:
        """The business pairs, sorted by seats."""
        return [self._pairs[k] for k in sorted(self._pairs)]

    def _targets(self, seat: int) -> list[int]:
        """Seats ``seat`` may double under the flags, pairs aside."""
        if seat == self.declarer:
            return []
        scope = self.flags.negative_targets if self.negative else self.flags.positive_targets
        if scope == "declarer_only":
            return [self.declarer]
        return [s for s in range(self.players) if s != seat]

    def may_double(self, seat: int) -> list[int]:
        """``D(p)``: the seats ``seat`` may double now (none in round 2)."""
        if self.round != 1:
            return []
        pairs = self._pairs
        return [t for t in self._targets(seat) if ((seat, t) if seat < t else (t, seat)) not in pairs]

    def may_redouble(self, seat: int) -> list[int]:
        """``Rcv(p)``: the seats whose double on ``seat`` it may redouble now."""
        out = []
        for p in self._pairs.values():
            if p.doubled == seat and p.multiplier == 1:
                if self.round == 2 and not self._called_after(p.doubler, seat):
                    continue
                out.append(p.doubler)
        return sorted(out) if len(out) > 1 else out

    def must_double(self, seat: int) -> list[int]:
        """``[declarer]`` when ``seat`` is forced to double it now (§2.7), else ``[]``."""
        if self.round == 1 and seat in self.forced and seat != self.declarer:
            return [self.declarer]
        return []

    def options(self, seat: int) -> _Options:
        """(may double, may redouble, must double) of ``seat`` now, remembered for every
        doubling in the same situation (:data:`_OPTIONS`)."""
        stamp = (seat, len(self.calls))
        if self._stamp == stamp:  # asked again before the next call (legal calls, then the call)
            return self._options
        found = self._situation(seat)
        self._stamp, self._options = stamp, found
        return found

    def _situation(self, seat: int) -> _Options:
        """:meth:`options` looked up in :data:`_OPTIONS` (worked out the first time), without
        remembering them for the next question (for a caller that asks each seat once)."""
        key = (self._setting, seat, seat in self.forced, self.round, self._calls_code)
        found = _OPTIONS.get(key)
        if found is None:
            if len(_OPTIONS) >= _OPTIONS_KEPT:
                _OPTIONS.clear()
            found = _OPTIONS[key] = (
                tuple(self.may_double(seat)),
                tuple(self.may_redouble(seat)),
                tuple(self.must_double(seat)),
            )
        return found

    def _listing(self, seat: int) -> _Listing:
        """:func:`_legal_calls` of ``seat``'s :meth:`options`, remembered with them (a call is
        listed, then taken: the second look costs no hashing of the options)."""
        options = self.options(seat)
        of, listing = self._listed
        if of is not options or listing is None:
            listing = _legal_calls(options)
            self._listed = (options, listing)
        return listing

    def _called_after(self, a: int, b: int) -> bool:
        return self.order.index(a) > self.order.index(b)

    def _can_ever_double_flanks(self, seat: int) -> bool:
        return any(t != self.declarer for t in self._targets(seat))

    # -- checking and applying ---------------------------------------------

    def expand(self, seat: int, call: Call) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Check ``call`` by ``seat`` and return its (doubles, redoubles).

        Raises :class:`IllegalAction` (or :class:`OutOfTurn`) saying what is wrong.
        """
        if self.finished:
            raise IllegalAction("call", N_("the calls are over"), seat)
        if seat != self.to_act:
            raise OutOfTurn(
                "call", N_("seat {seat} cannot call now: it is seat {actor}'s call", seat=seat, actor=self.to_act), seat
            )
        word = call.word
        double, redouble = call.double, call.redouble
        if (
            word is None
            and type(double) is tuple
            and type(redouble) is tuple
            and (double, redouble) in self._listing(seat)[1]
            and all(type(t) is int for t in (*double, *redouble))
        ):  # one of the listed legal calls, as listed: nothing more to check
            return double, redouble
        if word is not None and (call.double or call.redouble):
            raise IllegalAction(
                "call",
                N_("seat {seat}: a call is either a word ({word}) or lists of seats, not both", seat=seat, word=word),
                seat,
            )
        if word is not None and word not in CALL_WORDS:
            raise IllegalAction(
                "call",
                N_(
                    "seat {seat}: {word} is not a call; say one of {words}",
                    seat=seat,
                    word=repr(word),
                    words=", ".join(CALL_WORDS),
                ),
                seat,
            )
        for t in (*call.double, *call.redouble):
            if not isinstance(t, int) or isinstance(t, bool):
                raise IllegalAction(
                    "call",
                    N_("seat {seat}: calls name seats 0-{last}, not {t}", seat=seat, last=self.players - 1, t=repr(t)),
                    seat,
                )
        for name, seats in (("double", call.double), ("redouble", call.redouble)):
            repeated = sorted({t for t in seats if seats.count(t) > 1})
            if repeated:
                raise IllegalAction(
                    "call",
                    N_(
                        "seat {seat}: {name} names seat {twice} twice; name each seat once",
                        seat=seat,
                        name=name,
                        twice=repeated[0],
                    ),
                    seat,
                )
        options = self.options(seat)
        dbl_ok, rdbl_ok, must = options
        if word is None or word == "pass":
            dbl, rdbl = tuple(sorted(set(call.double))), tuple(sorted(set(call.redouble)))
            if (dbl, rdbl) in _legal_calls(options)[1]:
                return dbl, rdbl
        elif word in ("maximum", "table"):
            dbl, rdbl = tuple(dbl_ok), tuple(rdbl_ok)
        else:  # flanks / family
            if self.round != 1:
                raise IllegalAction(
                    "call",
                    N_("seat {seat}: {word} is not allowed in round 2 (redoubles only)", seat=seat, word=word),
                    seat,
                )
            if seat == self.declarer:
                raise IllegalAction(
                    "call",
                    N_("seat {seat}: the declarer cannot say {word}; it never doubles", seat=seat, word=word),
                    seat,
                )
            if not self._can_ever_double_flanks(seat):
                raise IllegalAction(
                    "call",
                    N_(
                        "seat {seat}: {word} is not allowed here: only the declarer may be doubled in this contract",
                        seat=seat,
                        word=word,
                    ),
                    seat,
                )
            dbl = tuple(t for t in dbl_ok if t != self.declarer)
            rdbl = tuple(t for t in rdbl_ok if t != self.declarer) if self.flags.flanks_redoubles else ()
        for t in dbl:
            if t not in dbl_ok:
                raise IllegalAction("call", self._why_not_double(seat, t), seat)
        for t in rdbl:
            if t not in rdbl_ok:
                raise IllegalAction("call", self._why_not_redouble(seat, t), seat)
        if must and must[0] not in dbl:
            raise IllegalAction(
                "call",
                N_(
                    "seat {seat} must double the declarer (seat {declarer}) now: "
                    "its compulsory doubles of this set are due",
                    seat=seat,
                    declarer=self.declarer,
                ),
                seat,
            )
        return dbl, rdbl

    def _why_not_double(self, seat: int, target: int) -> Text:
        if self.round != 1:
            return N_("seat {seat} cannot double in round 2: only late redoubles are allowed", seat=seat)
        if seat == self.declarer:
            return N_("seat {seat} is the declarer and never doubles; it may only redouble", seat=seat)
        if not 0 <= target < self.players or target == seat:
            return N_(
                "seat {seat} cannot double {target}: doubles name another seat 0-{last}",
                seat=seat,
                target=repr(target),
                last=self.players - 1,
            )
        if self.pair(seat, target) is not None:
            return N_("seat {seat} cannot double seat {target}: they already have a pair", seat=seat, target=target)
        return N_(
            "seat {seat} cannot double seat {target}: in this contract only the declarer "
            "(seat {declarer}) may be doubled",
            seat=seat,
            target=target,
            declarer=self.declarer,
        )

    def _why_not_redouble(self, seat: int, target: int) -> Text:
        p = self.pair(seat, target) if isinstance(target, int) else None
        if p is None or p.doubled != seat:
            return N_(
                "seat {seat} cannot redouble seat {target}: seat {target} did not double it", seat=seat, target=target
            )
        if p.multiplier == 2:
            return N_("seat {seat} cannot redouble seat {target} again: x2 is the maximum", seat=seat, target=target)
        return N_(
            "seat {seat} cannot redouble seat {target} in round 2: that double came before its call",
            seat=seat,
            target=target,
        )

    def apply(self, seat: int, doubles: Sequence[int], redoubles: Sequence[int], said: Call) -> None:
        """Record a call already checked by :meth:`expand` (no checks here)."""
        pairs = self._pairs
        bits = 0
        for t in doubles:
            pairs[(seat, t) if seat < t else (t, seat)] = _new_tuple(Pair, (seat, t, 1))
            bits |= 1 << t
            if t == self.declarer and self.round == 1:
                self._declarer_doublers |= {seat}
        for t in redoubles:
            pairs[(seat, t) if seat < t else (t, seat)] = _new_tuple(Pair, (t, seat, 2))
            bits |= 1 << (self.players + t)
        self._calls_code = self._calls_code << (2 * self.players) | bits
        self.calls.append(_new_tuple(SpokenCall, (seat, self.round, said, tuple(doubles), tuple(redoubles))))
        self._queue.pop(0)
        if not self._queue and self.round == 1:
            self.round = 2
            if self.flags.late_redouble:
                self._queue = [p for p in self.order if p != self.declarer and self.may_redouble(p)]

    def take_listed(self, call: Call, seat: object) -> int | None:
        """The checked door's call as listed: if ``call`` is one of the very objects
        :meth:`legal_calls` lists for the seat to act and ``seat`` is None or that seat, apply
        it and return the seat; otherwise change nothing and return None (:meth:`expand`
        checks any other call, one equal to a listed one included).

        >>> d = Doubling(players=4, declarer=0, negative=True, flags=Flags(), forced=frozenset())
        >>> listed = d.legal_calls()[-1]
        >>> d.take_listed(listed, 2), d.take_listed(Call(double=listed.double), 1), d.take_listed(listed, 1)
        (None, None, 1)
        >>> d.to_act, d.pairs()[0].doubler
        (2, 1)
        """
        queue = self._queue
        if not queue:
            return None
        turn = queue[0]
        if (seat is None or seat == turn) and self._listing(turn)[2].get(id(call)) is call:
            self.apply(turn, call.double, call.redouble, call)
            return turn
        return None

    def call(self, seat: int, call: Call) -> None:
        """Check and apply ``call`` by ``seat``."""
        dbl, rdbl = self.expand(seat, call)
        self.apply(seat, dbl, rdbl, call)

    def call_random(self, rngs: Sequence[Random]) -> None:
        """Make the rest of the calls as random bots would: each caller takes
        :func:`~barbu.actions.random_pick` of its :meth:`legal_calls`, as
        :class:`barbu.bots.RandomBot` chooses among the legal actions it is given (the call
        taken as listed, as :meth:`take_listed` takes it).

        >>> from random import Random
        >>> d = Doubling(players=4, declarer=0, negative=True, flags=Flags(), forced=frozenset())
        >>> d.call_random([Random(s) for s in range(4)])
        >>> d.finished, [c.seat for c in d.calls][:4]
        (True, [1, 2, 3, 0])
        """
        while self._queue:
            seat = self._queue[0]
            calls = _legal_calls(self._situation(seat))[0]  # each caller is asked once: no listing kept
            call = random_pick(calls, rngs[seat])
            self.apply(seat, call.double, call.redouble, call)

    def legal_calls(self) -> list[Call]:
        """Every distinct legal call of the seat to act, as explicit lists."""
        return list(self.listed_calls())

    def listed_calls(self) -> tuple[Call, ...]:
        """:meth:`legal_calls` as the listing kept for the caller's situation: the same tuple,
        kept alive for good, whenever a caller has the same options, so that what a caller
        derives from it may be remembered by the tuple's identity."""
        if not self._queue:
            return ()
        return self._listing(self._queue[0])[0]

    @property
    def doubled_declarer(self) -> frozenset[int]:
        """Seats that doubled the declarer in round 1 (for compulsory doubles), noted as the
        calls come: each new deal reads it for every earlier deal of its declarer."""
        return self._declarer_doublers


_SETTINGS: dict[tuple[int, int, tuple[int, ...], str], int] = {}
"""A number for each setting of a doubling: seats, declarer, calling order, who may be doubled."""

_OPTIONS: dict[tuple[int, int, bool, int, int], _Options] = {}
"""A caller's options by everything they depend on: the doubling's setting, the seat, whether
it must double, the round and the calls so far (which, with the setting, give the pairs): the
options of a seat are a function of these. Flat keys of small numbers, quick to hash and compare."""
_OPTIONS_KEPT = 50_000
"""At most this many situations are remembered (random classic play reaches about 25,000)."""

_Listing = tuple[tuple[Call, ...], frozenset[tuple[tuple[int, ...], tuple[int, ...]]], dict[int, Call]]
"""The legal calls of a caller, as listed; their (doubles, redoubles); the same calls by their id."""

_LEGAL_CALLS: dict[_Options, _Listing] = {}
"""Kept for good: the calls listed stay alive, so an id in a listing is never another object's."""


def _legal_calls(options: _Options) -> _Listing:
    """The legal calls for (may double, may redouble, must double), remembered (calls are immutable)."""
    found = _LEGAL_CALLS.get(options)
    if found is None:
        dbl_ok, rdbl_ok, must = options
        calls = tuple(
            Call(double=dbl, redouble=rdbl)
            for dbl in _subsets(dbl_ok)
            if not must or must[0] in dbl
            for rdbl in _subsets(rdbl_ok)
        )
        found = _LEGAL_CALLS[options] = (
            calls,
            frozenset((c.double, c.redouble) for c in calls),
            {id(c): c for c in calls},
        )
    return found


def _subsets(items: Sequence[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for it in items:
        out += [(*s, it) for s in out]
    return sorted(out, key=lambda s: (len(s), s))


def settle(raw: Sequence[int], pairs: Sequence[Pair]) -> list[int]:
    """The doubling adjustments of RULES.md §2.10 from the deal's raw scores.

    >>> settle([0, -12, -6, -6], [Pair(1, 0, 2), Pair(2, 0, 1), Pair(2, 1, 1)])
    [30, -30, 0, 0]
    """
    adj = [0] * len(raw)
    for p in pairs:
        delta = pair_amount(raw, p)
        adj[p.doubler] += delta
        adj[p.doubled] -= delta
    return adj


def pair_amount(raw: Sequence[int], pair: Pair) -> int:
    """What one business pair moves to its doubler (taken from the doubled seat), RULES.md §2.10.

    >>> pair_amount([0, -12, -6, -6], Pair(1, 0, 2))
    -24
    >>> pair_amount([0, -12, -6, -6], Pair(2, 1, 1))
    6
    """
    return pair.multiplier * (raw[pair.doubler] - raw[pair.doubled])


def skip_split(total: int, players: int, declarer: int) -> list[int]:
    """The divided points of an undoubled negative deal (RULES.md §2.8).

    >>> skip_split(-26, 4, 0)
    [1, -9, -9, -9]
    """
    m = players - 1
    share = total // m
    out = [share] * players
    out[declarer] = total - m * share
    return out


def forced_doublers(
    players: int, declarer: int, need: int, k: int, per_set: int, earlier: Sequence[frozenset[int]]
) -> frozenset[int]:
    """Non-declarers forced to double the declarer at its ``k``-th contract (§2.7).

    ``earlier`` holds, for each earlier contract of the set, the seats that doubled the
    declarer in round 1.

    >>> sorted(forced_doublers(4, 0, 2, 6, 7, [frozenset({1})] * 5))
    [2, 3]
    """
    if need == 0:
        return frozenset()
    out = set()
    for p in range(players):
        if p == declarer:
            continue
        c = sum(1 for s in earlier if p in s)
        if need - c >= per_set - k + 1:
            out.add(p)
    return frozenset(out)
