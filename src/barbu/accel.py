"""The compiled accelerator (``barbu._native``) behind the same interface as the pure path.

:data:`NATIVE` is True when the extension was built by ``pip install`` and the
environment variable ``BARBU_PURE`` is not ``1``. Every function here takes the
core's own objects (a :class:`~barbu.tricks.TrickPlay`, a :class:`~barbu.deal.Deal`,
a :class:`~barbu.contracts.Contract`), packs them, and gives back what the pure
path gives; callers ask :func:`score_model` (None: this contract has no compiled
scoring) before using them. The rules stay in the core: the compiled kernels repeat
:class:`~barbu.tricks.TrickPlay`'s facts, and a contract's scores reach them as a
:func:`score_model` read from the contract's own :meth:`~barbu.contracts.Contract.raw`;
``tests/test_native.py`` proves both paths identical. See docs/native.md.

>>> from barbu.tricks import TrickPlay, TrickRules
>>> from barbu.cards import parse_pbn
>>> t = TrickPlay([parse_pbn(h) for h in ("A2...", "K3...", "Q4...", "J5...")], leader=0, rules=TrickRules())
>>> pack(t)[15] == tuple(t.hands)
True
>>> not NATIVE or legal_mask(t) == t.legal_mask()
True
"""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from barbu.contracts import Contract, DealShape, TrickResult

if TYPE_CHECKING:
    from barbu.deal import Deal
    from barbu.domino import DominoPlay
    from barbu.doubling import Pair
    from barbu.rulesets import Rules
    from barbu.tricks import PureTrickPlay, TrickPlay, TrickRules

__all__ = [
    "NATIVE",
    "choose",
    "deal_drawn",
    "domino_core",
    "final_points",
    "finish",
    "legal_mask",
    "line",
    "pack",
    "pack_guide",
    "picker",
    "play_random",
    "playouts",
    "score_model",
    "shuffler",
    "solve",
    "status",
    "step",
    "supports",
    "trick_batch",
    "trick_core",
]


class PlayGuide(Protocol):
    """What the compiled rules of thumb and searches read of a
    :class:`barbu.bots.card_play.PlayGuide` (the core does not import the bots)."""

    card_cost: list[float]
    trick_cost: list[float]
    kind: str
    costly: int
    positive: int
    later_trick_costs: list[bool]
    deck: int
    tricks: int
    care: list[list[float]]
    sign: float


T = TypeVar("T")

Packed = tuple[int | tuple[int, ...], ...]
"""A trick-play state as the compiled kernels read it (see :func:`pack`)."""


def _load() -> ModuleType | None:
    if os.environ.get("BARBU_PURE") == "1":
        return None
    try:
        return importlib.import_module("barbu._native")
    except ImportError:  # not built: ``pip install`` said so in one line
        return None


_native = _load()
NATIVE = _native is not None
"""Whether the compiled kernels are in use."""
_CORES: tuple[type, ...] = () if _native is None else (_native.TrickCore, _native.DominoCore)
"""The compiled states of trick and domino play (none on the pure path)."""


def status() -> str:
    """One line saying whether the compiled accelerator is in use, and if not why.

    >>> status().startswith("barbu: compiled accelerator")
    True
    """
    if NATIVE:
        return "barbu: compiled accelerator in use"
    if os.environ.get("BARBU_PURE") == "1":
        return "barbu: compiled accelerator switched off by BARBU_PURE=1; the pure-Python path is used"
    return "barbu: compiled accelerator not built (no C compiler at install?); the pure-Python path is used"


def pack(t: TrickPlay | PureTrickPlay) -> Packed:
    """``t``'s state as a tuple of plain ints (the compiled kernels' input)."""
    r = t.rules
    return (
        t.players,
        r.direction,
        -1 if r.trump is None else r.trump,
        int(r.heart_lead != "free"),
        int(r.heart_lead == "broken"),
        r.penalty,
        r.early_end,
        int(r.must_trump_when_void),
        int(r.overtrump_required),
        int(r.undertrump_required),
        t.tricks_total,
        t.leader,
        t.turn,
        t.played,
        int(t.finished),
        tuple(t.hands),
        tuple(t.trick),
        tuple(t.captured),
        tuple(t.winners),
    )


def supports(rules: Rules | TrickRules) -> bool:
    """Whether the compiled kernels may play the trick deals of ``rules`` (a rule set or a
    deal's :class:`~barbu.tricks.TrickRules`): the accelerator is in use and the deck is one
    of 52 distinct cards. Two decks (``rules.twin``) always run on the pure path.

    >>> from barbu.rulesets import rules
    >>> supports(rules("french-two-decks"))
    False
    >>> supports(rules("classic")) == NATIVE
    True
    """
    return _native is not None and not rules.twin


def trick_batch(rules: Rules, contract: Contract, n: int, actions: int, unit: float) -> object | None:
    """``n`` compiled deals of ``contract`` stepped together from their seeded deal to their
    scores (``TrickBatch``, used by :class:`barbu.research.batch.BatchEnv`, which gives it the
    core's calls as it meets them), or None when there is no compiled path: the pure path, two
    decks, a contract without a :func:`score_model`, or the chooser's adjustment
    (``contract_choice: "chooser_doubled"``), which the compiled final scores do not add.
    ``actions`` is the size of the action encoding, ``unit`` what points are divided by to give
    rewards; the deal is :class:`barbu.game.Dealer`'s, from the rules' deck and direction.

    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> (trick_batch(r, r.contract("no-tricks"), 4, 141, 65.0) is None) == (not NATIVE)
    True
    """
    if _native is None or not supports(rules) or rules.flags.contract_choice == "chooser_doubled":
        return None
    model = score_model(contract, rules.shape)
    if model is None:
        return None
    batch: object = _native.TrickBatch(
        n, rules.players, model, actions, rules.cards_each, float(rules.sign), unit, rules.direction, rules.deck_cards
    )
    return batch


def shuffler(rules: Rules, seed: int) -> Callable[[int], list[int]] | None:
    """``barbu.game.Dealer(seed)``'s deals of ``rules`` in compiled code (``Shuffler``, the
    batch simulator's mirror of ``random.Random`` and of ``Dealer.deal``): the function of a
    declarer giving the next deal's hands, or None where there is no compiled path (the pure
    path, two decks, a seed that is not an int below ``2**64`` in size).

    >>> from barbu.game import Dealer
    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> dealer, deal = Dealer(11), shuffler(r, 11)
    >>> deal is None or [deal(1), deal(3)] == [dealer.deal(r, 1), dealer.deal(r, 3)]
    True
    """
    if _native is None or not supports(rules) or type(seed) is not int or not -(1 << 64) < seed < 1 << 64:
        return None
    return partial(_native.Shuffler(seed).deal, rules.players, rules.deck_cards, rules.direction)


def deal_drawn(rng: random.Random, rules: Rules, declarer: int) -> list[int] | None:
    """:meth:`barbu.game.Dealer.deal` in compiled code: ``rng.random()`` drawn once per card of
    the deck in its order, the deck sorted by the draws and dealt one card at a time from the
    declarer; the same hands, the generator advanced as Dealer.deal advances it (its own
    ``random`` is called). None where there is no compiled path: the pure path, two decks.

    >>> from barbu.game import Dealer
    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> hands = deal_drawn(random.Random(5), r, 2)
    >>> hands is None or hands == Dealer(5).deal(r, 2)
    True
    """
    if _native is None or rules.twin:
        return None
    hands: list[int] = _native.deal_drawn(rng.random, rules.players, rules.deck_cards, rules.direction, declarer)
    return hands


def final_points(t: TrickPlay, model: tuple[int, ...], pairs: tuple[Pair, ...]) -> list[int]:
    """Each seat's final points of a trick deal played out (``t`` finished), in compiled code:
    the raw scores of ``model`` (the contract's :func:`score_model`) and the ``pairs``'
    settlement, as :func:`barbu.doubling.settle` adds it to ``contract.raw``. Only with the
    accelerator in use, and without the chooser's adjustment (``chooser_doubled``), which it
    does not add."""
    return list(_require().final(t.captured, t.winners, model, pairs))


def trick_core() -> type | None:
    """The compiled trick-play state (``TrickCore``) :class:`barbu.tricks.TrickPlay` is
    built on, or None on the pure path.

    >>> trick_core() is None or trick_core().__name__ == "TrickCore"
    True
    """
    return None if _native is None else getattr(_native, "TrickCore", None)


def domino_core() -> type | None:
    """The compiled domino-play state (``DominoCore``) :class:`barbu.domino.DominoPlay` is
    built on, or None on the pure path.

    >>> domino_core() is None or domino_core().__name__ == "DominoCore"
    True
    """
    return None if _native is None else getattr(_native, "DominoCore", None)


def picker(table: tuple[T, ...]) -> Callable[[int], list[T]] | None:
    """A compiled ``lambda mask: [table[c] for c in cards_of(mask)]`` (None on the pure path).

    >>> pick = picker(tuple("abcdef"))
    >>> pick is None or pick(0b101001) == ["a", "d", "f"]
    True
    """
    return None if _native is None else partial(_native.pick, table)


def hand_sampler() -> Callable[..., tuple[list[int] | None, list[int]]] | None:
    """The compiled greedy deals of :func:`barbu.unseen.sample_hands` (None on the pure path):
    ``sampler(rng.getrandbits, seat, hand, counts, unseen, seat_masks, tries)`` gives the hands,
    or None if every try got stuck, and the cards in the order they were tried; it draws from
    ``getrandbits`` as ``random.Random``'s ``shuffle`` and ``randrange`` draw in the Python code.

    >>> sampler = hand_sampler()
    >>> rng = random.Random(3)
    >>> sampler is None or sampler(rng.getrandbits, 0, 0b11, (2, 1, 1), (2, 3), (0b110, 0b110), 8)[0][0] == 3
    True
    """
    return None if _native is None else getattr(_native, "sample_hands", None)


def deal_order() -> Callable[..., list[int]] | None:
    """The compiled dealing order of a resampled world (None on the pure path):
    ``order(rng.getrandbits, hands, declarer, direction, cards)`` shuffles each seat's cards
    (ascending, seat 0 first) as ``random.Random.shuffle`` would, then deals ``cards`` cards one
    at a time from the declarer round the table, each the last of its seat's pile.

    >>> order = deal_order()
    >>> order is None or sorted(order(random.Random(1).getrandbits, [0b11, 0b1100], 0, 1, 4)) == [0, 1, 2, 3]
    True
    """
    return None if _native is None else getattr(_native, "deal_order", None)


def play_writer() -> Callable[..., None] | None:
    """The compiled :func:`barbu.research.encoding.write_play_pure` (None on the pure path): a
    seat's observation vector brought up to date in place during a trick deal's card play.

    >>> play_writer() is None or play_writer().__name__ == "write_play"
    True
    """
    return None if _native is None else getattr(_native, "write_play", None)


def play_observer() -> Callable[..., int] | None:
    """The compiled :func:`barbu.research.encoding.play_observed_pure` (None on the pure path):
    a card played and the next seat's observation written, in one call.

    >>> play_observer() is None or play_observer().__name__ == "play_observed"
    True
    """
    return None if _native is None else getattr(_native, "play_observed", None)


def lay_observer() -> Callable[..., int] | None:
    """The compiled :func:`barbu.research.encoding.lay_observed_pure` (None on the pure path):
    a domino lay or pass and the next seat's observation written, in one call.

    >>> lay_observer() is None or lay_observer().__name__ == "lay_observed"
    True
    """
    return None if _native is None else getattr(_native, "lay_observed", None)


def game_writer() -> Callable[..., None] | None:
    """The compiled :func:`barbu.research.encoding.write_game_pure` (None on the pure path): a
    seat's observation vector at a deal's start, from the deal's hands and the game's facts.

    >>> game_writer() is None or game_writer().__name__ == "write_game"
    True
    """
    return None if _native is None else getattr(_native, "write_game", None)


def calls_writer() -> Callable[..., int] | None:
    """The compiled :func:`barbu.research.encoding.write_calls_pure` (None on the pure path): a
    deal's public facts and calls in a seat's observation vector, in place.

    >>> calls_writer() is None or calls_writer().__name__ == "write_calls"
    True
    """
    return None if _native is None else getattr(_native, "write_calls", None)


def _require() -> ModuleType:
    if _native is None:
        raise RuntimeError("the compiled accelerator is not in use (not built, or BARBU_PURE=1)")
    return _native


def legal_mask(t: TrickPlay | PureTrickPlay) -> int:
    """The compiled :meth:`~barbu.tricks.TrickPlay.legal_mask` of ``t`` (0 once finished)."""
    return int(_require().legal(pack(t)))


def step(state: Packed, card: int) -> Packed:
    """The packed state after the seat to act plays ``card`` (which must be legal)."""
    return tuple(_require().step(state, card))


def _outcome_raw(contract: Contract, shape: DealShape, captured: list[int], winners: list[int]) -> list[int]:
    return contract.raw(contract.tally_from_tricks(TrickResult(captured=captured, winners=winners)), shape)


@lru_cache(maxsize=256)
def score_model(contract: Contract, shape: DealShape) -> tuple[int, ...] | None:
    """The contract's raw scores of a trick deal as a linear model, or None if they are not linear.

    The model is ``52`` values per card taken, then the value of a trick won, of the
    first trick, of the second-last and of the last (each added to its winner's raw
    score). It is read from ``contract.raw`` itself, by moving one card or one trick at
    a time from seat 0 to seat 1, then checked against ``contract.raw`` on random
    outcomes (full deals and deals ended early): a contract whose scores do not fit,
    such as Ravage City's longest suit, gets None and stays on the pure path.

    >>> from barbu.rulesets import rules
    >>> r = rules("classic")
    >>> score_model(r.contract("no-queens"), r.shape)[:13]
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6, 0, 0)
    >>> score_model(r.contract("no-last-two"), r.shape)[52:]
    (0, 0, -10, -20)
    """
    if contract.play != "tricks" or shape.players < 2 or shape.deck >> 52:
        return None  # two decks (cards from 52 up): the kernels hold one deck, the pure path plays them
    n, tricks, deck = shape.players, shape.tricks, shape.deck
    if tricks < 3:
        return None
    everything = [deck] + [0] * (n - 1)
    try:
        base = _outcome_raw(contract, shape, everything, [0] * tricks)
        cards = []
        for c in range(52):
            if not deck >> c & 1:
                cards.append(0)
                continue
            moved = _outcome_raw(contract, shape, [deck & ~(1 << c), 1 << c] + [0] * (n - 2), [0] * tricks)
            cards.append(moved[1] - base[1])
        middle = [0] * tricks
        middle[1] = 1
        per_trick = _outcome_raw(contract, shape, everything, middle)[1] - base[1]
        firsts = [1] + [0] * (tricks - 1)
        first = _outcome_raw(contract, shape, everything, firsts)[1] - base[1] - per_trick
        seconds = [0] * tricks
        seconds[-2] = 1
        second_last = _outcome_raw(contract, shape, everything, seconds)[1] - base[1] - per_trick
        lasts = [0] * tricks
        lasts[-1] = 1
        last = _outcome_raw(contract, shape, everything, lasts)[1] - base[1] - per_trick
        model = (*cards, per_trick, first, second_last, last)
        rng = random.Random(0)
        deck_cards = [c for c in range(52) if deck >> c & 1]
        for trial in range(40):
            captured = [0] * n
            for c in deck_cards:
                captured[rng.randrange(n)] |= 1 << c
            played = tricks if trial % 2 else rng.randrange(2, tricks + 1)
            winners = [rng.randrange(n) for _ in range(played)]
            if _outcome_raw(contract, shape, captured, winners) != _model_raw(model, n, captured, winners):
                return None
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return model


def _model_raw(model: tuple[int, ...], n: int, captured: list[int], winners: list[int]) -> list[int]:
    raw = [sum(model[c] for c in range(52) if m >> c & 1) for m in captured]
    for w in winners:
        raw[w] += model[52]
    raw[winners[0]] += model[53]
    raw[winners[-2]] += model[54]
    raw[winners[-1]] += model[55]
    return raw


def pack_guide(guide: PlayGuide) -> tuple[object, ...] | None:
    """A :class:`~barbu.bots.card_play.PlayGuide` as the compiled rules of thumb read it
    (None for the kinds they do not play: Ravage City, domino, arrangements)."""
    if guide.kind not in ("avoid", "take"):
        return None
    return (
        int(guide.kind == "take"),
        tuple(guide.card_cost),
        tuple(guide.trick_cost),
        guide.costly,
        guide.positive,
        tuple(guide.later_trick_costs),
        guide.deck,
        guide.tricks,
    )


def choose(t: TrickPlay, guide: PlayGuide) -> int:
    """The compiled :func:`~barbu.bots.card_play.choose_card` for the seat to act of ``t``."""
    packed = pack_guide(guide)
    if packed is None:
        raise ValueError(f"the compiled rules of thumb do not play {guide.kind!r} deals")
    return int(_require().choose(pack(t), packed))


def _guided_inputs(
    deal: Deal, guide: PlayGuide
) -> tuple[ModuleType, Packed, tuple[int, ...], tuple[object, ...]] | None:
    """What the compiled finish of ``deal`` by the rules of thumb reads (the kernels, the
    packed trick play, the scoring model, the packed guide), or None when it has no compiled
    path (not built, not in trick play, or a contract or guide the kernels do not cover)."""
    t, contract = deal.tricks, deal.contract
    if _native is None or t is None or contract is None:
        return None
    model = score_model(contract, deal.rules.shape)
    policy = pack_guide(guide)
    if model is None or policy is None:
        return None
    return _native, pack(t), model, policy


def finish(deal: Deal, guide: PlayGuide, me: int, endgame: int) -> float | None:
    """``me``'s value of finishing ``deal``'s trick play by the rules of thumb for every
    seat, the last ``endgame`` tricks solved exactly (0: never), as
    :meth:`barbu.bots.search.SearchBot.finish` works it out; ``deal`` is not changed.
    None when there is no compiled path for it (not built, or a contract the compiled
    scoring or rules of thumb do not cover)."""
    inputs = _guided_inputs(deal, guide)
    if inputs is None:
        return None
    native, state, model, packed = inputs
    pairs = tuple((p.doubler, p.doubled, p.multiplier) for p in deal.pairs())
    care = tuple(tuple(row) for row in guide.care)
    return float(native.finish(state, model, pairs, packed, care, guide.sign, endgame, me))


def line(deal: Deal, guide: PlayGuide) -> tuple[int, ...] | None:
    """The cards the rules of thumb play, for every seat, from ``deal``'s position to its end
    (:func:`~barbu.bots.card_play.choose_card` at each turn), worked out in compiled code;
    ``deal`` is not changed. None when there is no compiled path for it."""
    inputs = _guided_inputs(deal, guide)
    if inputs is None:
        return None
    native, state, model, policy = inputs
    [(_, cards)] = native.playouts(state, model, (), 1, 0, True, policy)
    return tuple(cards)


def playouts(
    deal: Deal, count: int, seed: int, record: bool = False, guide: PlayGuide | None = None
) -> list[tuple[int, ...]] | list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Final scores (raw plus doubling adjustments) of ``count`` completions of ``deal``.

    ``deal`` must be in trick play with a contract that has a :func:`score_model`. With
    no ``guide`` each seat to act plays a legal card drawn uniformly (the compiled
    generator, seeded by ``seed``); with one, the rules of thumb of
    :func:`~barbu.bots.card_play.choose_card`. With ``record`` each result is
    ``(scores, cards played)``, so that the pure path can replay it.
    """
    t = deal.tricks
    contract = deal.contract
    if t is None or contract is None:
        raise ValueError("playouts need a deal in trick play")
    model = score_model(contract, deal.rules.shape)
    if model is None:
        raise ValueError(f"{contract.id} has no compiled scoring: play it through the pure path")
    pairs = tuple((p.doubler, p.doubled, p.multiplier) for p in deal.pairs())
    policy = None if guide is None else pack_guide(guide)
    if guide is not None and policy is None:
        raise ValueError(f"the compiled rules of thumb do not play {guide.kind!r} deals")
    return list(_require().playouts(pack(t), model, pairs, count, seed & (2**64 - 1), record, policy))


def play_random(
    play: TrickPlay | DominoPlay, rngs: Sequence[random.Random], cards: list[int | None], seats: list[int]
) -> bool:
    """Play ``play`` to the end of its deal in compiled code as random bots would: the seat
    to act always plays ``legal[rngs[seat].randrange(len(legal))]`` of its legal cards in
    ascending order, or of a domino deal's legal lays, passing when it has none, as
    :class:`barbu.bots.RandomBot` does with the deal's legal actions. Each card (None: a
    pass) is appended to ``cards`` and its seat to ``seats``, as the deal logs its cards.
    The generators advance exactly as they would card by card (the compiled code draws each
    word through their own ``getrandbits``). False, with nothing played, when there is no
    compiled path: the pure path, two decks, or a generator that is not a plain
    ``random.Random``.

    >>> from barbu.tricks import TrickPlay, TrickRules
    >>> from barbu.cards import parse_pbn
    >>> t = TrickPlay([parse_pbn(h) for h in ("A2...", "K3...", "Q4...", "J5...")], leader=0, rules=TrickRules())
    >>> cards, seats = [], []
    >>> play_random(t, [random.Random(s) for s in range(4)], cards, seats) == NATIVE
    True
    >>> not NATIVE or (t.finished, len(cards), seats[:4]) == (True, 8, [0, 1, 2, 3])
    True
    """
    if _native is None or not isinstance(play, _CORES) or any(type(r) is not random.Random for r in rngs):
        return False
    compiled: Any = play  # one of _CORES, whose play_random the type checker cannot see
    compiled.play_random(tuple(r.getrandbits for r in rngs), cards, seats)
    return True


def solve(t: TrickPlay, contract: Contract, table: Rules, guide: PlayGuide, root: int) -> list[float] | None:
    """:func:`barbu.bots.endgame.solve` in compiled code, or None when it has no compiled path
    (not built, or a contract with no :func:`score_model`)."""
    if _native is None:
        return None
    model = score_model(contract, table.shape)
    if model is None:
        return None
    care = tuple(tuple(row) for row in guide.care)
    return list(_native.solve(pack(t), model, care, guide.sign, tuple(guide.card_cost), root))
