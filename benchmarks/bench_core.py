"""Random full deals per second: barbu's doors and accelerator vs OpenSpiel's hearts.

A "full deal" is everything from the deal of the cards to the score: for barbu the
contract choice, trump or rank, the calls and the card play of one classic deal; for
OpenSpiel's hearts (through ``pyspiel``) the chance deal, the pass and the 52 cards.
Every action is chosen uniformly among the legal ones, from seeded generators.

- **checked API**: whole games through ``Game.legal_actions`` / ``Game.apply``;
- **fast door**: Python-driven, one unchecked action at a time on compact state
  (:mod:`barbu.fastdeal`: the hands dealt in compiled code, a contract choice or call a
  look-up in the table of calls, a card and the next legal mask in one call, ``play_next``),
  to the final points;
- **native playouts**: the compiled accelerator's batch API (:func:`barbu.accel.playouts`),
  100 random card plays of whole trick deals per dealt position (the deal and the
  auction are played in Python once per 100);
- **fast door loop alone**: the fast door's Python card loop over recorded legal masks, the
  game taken out (the ceiling of any Python-driven fast door);
- **barbu simulate**: the whole ``barbu simulate --games 40 --seed 1`` process with
  random bots (start-up included).

    python benchmarks/bench_core.py [--seconds 5]

Prints deals per CPU second for each (CPU time of this process, or of the ``barbu
simulate`` child, so that other work on the machine counts less; the best of alternating
rounds), the ratios against hearts measured in the same run, and
the bytes one stored search world takes.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial

from barbu import accel
from barbu.cards import cards_of
from barbu.deal import Deal, Phase
from barbu.fastdeal import CallTable, FastDeal, FastDealer
from barbu.game import Dealer, Game
from barbu.rulesets import rules
from barbu.tricks import TrickPlay


def checked_deals(seconds: float) -> float:
    """Whole games through Game.legal_actions / Game.apply (every action checked)."""
    rand = random.Random(1).random
    deals = 0
    start = time.process_time()
    seed = 0
    while time.process_time() - start < seconds:
        game = Game.new("classic", seed=seed)
        seed += 1
        while not game.is_over:
            actions = game.legal_actions()
            game.apply(actions[int(rand() * len(actions))])  # picked as hearts_deals picks its actions
        deals += len(game.deals)
    return deals / (time.process_time() - start)


FAST_RULES = rules("classic")
"""The fast door's rules, kept from round to round: their table of calls (kept with them) fills
up over the first round, as it would over any long simulation."""


def fast_deals(seconds: float) -> float:
    """Single deals through the fast door on compact state (:mod:`barbu.fastdeal`): the hands
    dealt as :class:`Dealer` deals them, one call per contract choice or call (a look-up in
    the table of calls), one per card (the card and the next legal mask), the final points."""
    r = FAST_RULES
    table = CallTable.of(r, r.contracts)
    dealer = FastDealer(r, 2)
    rng = random.Random(2)
    rand = rng.random
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for _ in range(100):
            declarer = deals & 3
            deal = FastDeal(table, declarer, dealer.deal(declarer))
            actions = deal.legal_actions()
            while actions:
                actions = deal.apply(actions[int(rand() * len(actions))])
            play = deal.cardplay
            mask = -1 if play is None else play.legal_mask()
            while mask >= 0:  # play_next: the card played, the next legal mask (-1: the play is over)
                if not mask:
                    mask = play.play_next(None)  # type: ignore[arg-type, union-attr]
                    continue
                k = int(rand() * mask.bit_count())
                while k:
                    mask &= mask - 1
                    k -= 1
                mask = play.play_next((mask & -mask).bit_length() - 1)  # type: ignore[union-attr]
            deal.final()
            deals += 1
    return deals / (time.process_time() - start)


class _Replay:
    """Stands for a card play in :func:`fast_loop_alone`: C builtins hand back recorded masks."""

    __slots__ = ("legal_mask", "play_next")

    def __init__(self, masks: list[int]) -> None:
        self.legal_mask = [masks[0] if masks else -1].pop
        self.play_next = partial(next, iter([*masks[1:], -1]))  # next(masks, card): the next mask


def fast_loop_alone(seconds: float) -> float:
    """The fast door's card loop with the game taken out: the same Python driving (legal mask,
    a random legal bit, play) over legal masks recorded from real deals, with ``legal_mask``
    and ``play_next`` builtins that do nothing else. No Python-driven fast door can pass this."""
    r = rules("classic")
    dealer = Dealer(2)
    rng = random.Random(2)
    rand = rng.random
    recorded: list[list[int]] = []
    for n in range(2000):
        deal = Deal(r, 0, n & 3, dealer.deal(r, n & 3), r.contracts)
        while deal.phase != "play" and not deal.finished:
            actions = deal.legal_actions()
            deal.apply_unchecked(actions[int(rand() * len(actions))])
        masks = []
        while deal.cardplay is not None and not deal.finished:
            mask = deal.legal_mask()
            masks.append(mask)
            cards = cards_of(mask)
            deal.play_unchecked(cards[int(rand() * len(cards))] if cards else None)
        recorded.append(masks)
    deals = 0
    elapsed = 0.0
    while elapsed < seconds:
        plays = [_Replay(m) for m in recorded]
        start = time.process_time()
        for play in plays:
            mask = play.legal_mask()
            while mask >= 0:
                if not mask:
                    mask = play.play_next(None)
                    continue
                k = int(rand() * mask.bit_count())
                while k:
                    mask &= mask - 1
                    k -= 1
                mask = play.play_next((mask & -mask).bit_length() - 1)
        elapsed += time.process_time() - start
        deals += len(plays)
    return deals / elapsed


def native_playouts(seconds: float) -> float:
    """Whole random card plays of trick deals in compiled code, 100 per dealt position."""
    if not accel.NATIVE:
        return 0.0
    r = rules("classic")
    tricks = [c for c in r.contracts if c.play == "tricks"]
    dealer = Dealer(4)
    rng = random.Random(4)
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        declarer = deals & 3
        deal = Deal(r, 0, declarer, dealer.deal(r, declarer), tricks)
        while deal.phase is not Phase.PLAY and not deal.finished:
            actions = deal.legal_actions()
            deal.apply_unchecked(actions[int(rng.random() * len(actions))])
        if deal.finished:  # an undoubled negative contract, not played (RULES.md §2.8)
            continue
        deals += len(accel.playouts(deal, 100, seed=deals))
    return deals / (time.process_time() - start)


SIMULATE_GAMES = 40


def simulate_process(seconds: float) -> float:
    """``barbu simulate --games 40 --seed 1`` (random bots) as a whole process, start-up included."""
    # As after ``pip install``, the child reads compiled bytecode instead of compiling the package
    # at each start (the best of the rounds is kept, so the first one fills the cache).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-m", "barbu", "simulate", "--games", str(SIMULATE_GAMES), "--seed", "1"],
        check=True,
        stdout=subprocess.DEVNULL,
        env=env,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return SIMULATE_GAMES * rules("classic").deal_count / cpu


def world_bytes() -> dict[str, int]:
    """Bytes one stored search world takes: a Python deal copy (deep), and the compiled state."""
    r = rules("classic")
    game = Game.new("classic", seed=9)
    rng = random.Random(9)
    while game.current is not None and game.current.phase is not Phase.PLAY:
        actions = game.legal_actions()
        game.apply(actions[rng.randrange(len(actions))])
    deal = game.current
    assert deal is not None and deal.tricks is not None
    for _ in range(20):
        deal.play_unchecked(rng.choice([c for c in range(52) if deal.legal_mask() >> c & 1]))
    copy = deal.copy()
    seen: set[int] = set()
    shared = {id(r), id(deal.rules), id(deal.contract)} | {id(c) for c in deal.available}

    def size(o: object) -> int:
        if id(o) in seen or id(o) in shared or isinstance(o, type):
            return 0
        seen.add(id(o))
        total = sys.getsizeof(o)
        if isinstance(o, dict):
            total += sum(size(k) + size(v) for k, v in o.items())
        elif isinstance(o, list | tuple | set | frozenset):
            total += sum(size(x) for x in o)
        elif hasattr(o, "__dict__"):
            total += size(vars(o))
        names = [a for k in type(o).__mro__ for a in getattr(k, "__slots__", ())]
        if isinstance(o, TrickPlay):  # the compiled state keeps these lists in C fields, not slots
            names += ["hands", "trick", "captured", "winners"]
        total += sum(size(getattr(o, a)) for a in names if hasattr(o, a))
        return total

    out = {"Python deal copy (deep, shared rules excluded)": size(copy)}
    seen.clear()
    out["packed state tuple (compiled kernels' input)"] = size(accel.pack(deal.tricks))
    if accel.NATIVE:
        out["compiled state (C struct)"] = int(accel._require().STATE_BYTES)
    return out


def hearts_deals(seconds: float) -> float:
    """OpenSpiel's hearts through pyspiel, random legal actions and chance outcomes."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(3)
    deals = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
        deals += 1
    return deals / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each is kept")
    args = parser.parse_args()
    runs: list[tuple[str, Callable[[float], float], float]] = [
        ("OpenSpiel hearts (pyspiel)", hearts_deals, 1.0),
        ("barbu checked API", checked_deals, 1.0),
        ("barbu fast door", fast_deals, 3.0),
        ("barbu native playouts", native_playouts, 10.0),
        ("barbu simulate (process)", simulate_process, 1.0),
    ]
    results = {name: 0.0 for name, _, _ in runs}
    for _ in range(args.rounds):
        for name, fn, _ in runs:
            results[name] = max(results[name], fn(args.seconds))
    reference = results["OpenSpiel hearts (pyspiel)"]
    print(accel.status())
    print(f"{'':28} {'deals/s':>10} {'vs hearts':>10} {'goal':>6}")
    for name, fn, goal in runs:
        rate = results[name]
        mark = "" if fn is hearts_deals else ("met" if rate >= goal * reference else "gap")
        print(f"{name:28} {rate:10.0f} {rate / reference:9.2f}x {goal:5.0f}x {mark}")
    floor = fast_loop_alone(args.seconds)
    print(f"{'fast door loop alone':28} {floor:10.0f} {floor / reference:9.2f}x  (its ceiling: the driving loop)")
    print()
    for what, n in world_bytes().items():
        print(f"bytes per stored world, {what}: {n}")


if __name__ == "__main__":
    main()
