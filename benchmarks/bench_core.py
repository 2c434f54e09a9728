"""Random full deals per second: barbu's checked API and fast door vs OpenSpiel's hearts.

A "full deal" is everything from the deal of the cards to the score: for barbu the
contract choice, trump or rank, the calls and the card play of one classic deal; for
OpenSpiel's hearts (through ``pyspiel``) the chance deal, the pass and the 52 cards.
Every action is chosen uniformly among the legal ones, from seeded generators.

    python benchmarks/bench_core.py [--seconds 5]

Prints deals per second for each (the best of alternating rounds, so that a busy machine
hurts every contender alike) and the ratios against hearts measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from barbu.deal import Deal
from barbu.game import Dealer, Game
from barbu.rulesets import rules


def checked_deals(seconds: float) -> float:
    """Whole games through Game.legal_actions / Game.apply (every action checked)."""
    rng = random.Random(1)
    deals = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        game = Game.new("classic", seed=seed)
        seed += 1
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        deals += len(game.deals)
    return deals / (time.perf_counter() - start)


def fast_deals(seconds: float) -> float:
    """Single deals through the fast door: unchecked apply and legal masks on compact state."""
    r = rules("classic")
    contracts = r.contracts
    dealer = Dealer(2)
    rng = random.Random(2)
    rand = rng.random
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            declarer = deals & 3
            deal = Deal(r, 0, declarer, dealer.deal(r, declarer), contracts)
            while deal.phase != "play" and not deal.finished:
                actions = deal.legal_actions()
                deal.apply_unchecked(actions[int(rand() * len(actions))])
            play = deal.tricks if deal.tricks is not None else deal.domino
            while play is not None and not play.finished:
                mask = play.legal_mask()
                if not mask:
                    play.play(None)  # type: ignore[arg-type]
                    continue
                k = int(rand() * mask.bit_count())
                while k:
                    mask &= mask - 1
                    k -= 1
                play.play((mask & -mask).bit_length() - 1)
            deals += 1
    return deals / (time.perf_counter() - start)


def hearts_deals(seconds: float) -> float:
    """OpenSpiel's hearts through pyspiel, random legal actions and chance outcomes."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(3)
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(rng.random() * len(actions))])
        deals += 1
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds; the best of each is kept")
    args = parser.parse_args()
    runs: list[tuple[str, Callable[[float], float]]] = [
        ("OpenSpiel hearts (pyspiel)", hearts_deals),
        ("barbu checked API", checked_deals),
        ("barbu fast door", fast_deals),
    ]
    results = {name: 0.0 for name, _ in runs}
    for _ in range(args.rounds):
        for name, fn in runs:
            results[name] = max(results[name], fn(args.seconds))
    reference = results["OpenSpiel hearts (pyspiel)"]
    print(f"{'':28} {'deals/s':>10} {'vs hearts':>10}")
    for name, rate in results.items():
        print(f"{name:28} {rate:10.0f} {rate / reference:9.2f}x")


if __name__ == "__main__":
    main()
