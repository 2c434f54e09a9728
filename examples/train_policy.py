"""Train a small policy on one contract through the PettingZoo environment, and show it beats random.

The learner holds seat 0 (``player_0``) in single-deal episodes of one contract
(``barbu.research.env`` with ``episode="deal"`` and ``contract=...``); the three other seats play
uniformly at random. Undoubled negative deals are played out
(``skip_undoubled_negative: false``) so that every deal has card play to learn from, and
every seat passes in the calls whenever it may (a compulsory double aside): the calls
are not what is learned here, and the deal scores are the card play's alone.

The policy is small: eight weights. Each legal card gets a few numbers read from the
observation vector (:meth:`~barbu.research.encoding.ObservationEncoding.part` gives its
sections): its rank, whether the seat leads, follows above or below the highest card of
the suit led so far, discards, or plays a trump. A card's logit is the weights times its
numbers, and the policy is the soft-max over the legal cards (the action mask). It learns
by REINFORCE, the policy gradient, in NumPy: after each deal every card the learner
played is pushed towards being played again in proportion to how much better than usual
the rest of the deal went. In ``no-tricks`` and ``trumps`` every trick is worth the same,
so "the rest of the deal" is the deal score shared out over the tricks the seat took
from that card on, counted in the observation's ``captured`` section.

At the end, the learned policy (greedy) and a random player take seat 0 on the same
evaluation deals, and the mean deal scores of seat 0 are compared.

    python examples/train_policy.py [--contract no-tricks|trumps] [--deals 1500] [--eval 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np

from barbu.research.encoding import score_unit
from barbu.research.env import BarbuEnv

LEARNER = "player_0"
FEATURES = ("rank", "lead", "lead rank", "over", "under", "under rank", "discard rank", "trump")


def card_features(e: BarbuEnv, observation: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """One row of :data:`FEATURES` per card, read from the seat's observation vector."""
    encoding = e.observations
    players = e.table_rules.players
    plays = encoding.part(observation, "plays")[:, :52]
    laid = int(plays.sum())
    trick = [int(np.flatnonzero(row)[0]) for row in plays[laid - laid % players : laid]]
    trump_part = np.flatnonzero(encoding.part(observation, "trump"))
    trump = int(trump_part[0]) if len(trump_part) else None
    led = trick[0] // 13 if trick else None
    top = max((c for c in trick if c // 13 == led), default=-1)
    rank = (cards % 13) / 12.0
    suit = cards // 13
    lead = np.full(len(cards), 1.0 if not trick else 0.0)
    follow = (suit == led).astype(float)
    over = follow * (cards > top)
    under = follow * (cards < top)
    discard = 1.0 - follow - lead
    trumps = (suit == trump).astype(float) if trump is not None else np.zeros(len(cards))
    return np.stack([rank, lead, lead * rank, over, under, under * rank, discard * rank, trumps], axis=1)


class CardPolicy:
    """Soft-max over the legal cards of ``card_features @ weights``."""

    def __init__(self) -> None:
        self.weights = np.zeros(len(FEATURES))

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """The policy over the cards whose feature rows are given."""
        logits = features @ self.weights
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def push(self, features: np.ndarray, chosen: int, step: float) -> None:
        """Move the log-probability of card ``chosen`` up by ``step`` times its gradient."""
        p = self.probabilities(features)
        self.weights += step * (features[chosen] - p @ features)


def choose(
    e: BarbuEnv,
    agent: str,
    policy: CardPolicy | None,
    observation: dict[str, np.ndarray],
    rng: np.random.Generator,
    greedy: bool,
) -> tuple[int, np.ndarray | None, int | None]:
    """An action index; for the learner's card plays also the cards' features and the choice."""
    mask = observation["action_mask"]
    legal = np.flatnonzero(mask)
    calls = e.actions.sections["call"]
    if calls.start <= legal[0] and legal[-1] < calls.stop:
        no_call = e.actions.call_index([], [], e.agent_name_mapping[agent])
        return (no_call if mask[no_call] else int(legal[0])), None, None
    if policy is None or agent != LEARNER or legal[-1] >= 52:
        return int(rng.choice(legal)), None, None
    features = card_features(e, observation["observation"], legal)
    p = policy.probabilities(features)
    position = int(np.argmax(p)) if greedy else int(rng.choice(len(legal), p=p))
    return int(legal[position]), features, position


def tricks_won(e: BarbuEnv, observation: np.ndarray) -> int:
    """How many tricks the observing seat has taken so far (its captured cards)."""
    return int(e.observations.part(observation, "captured")[0].sum()) // e.table_rules.players


def play_deal(
    e: BarbuEnv, seed: int, policy: CardPolicy | None, rng: np.random.Generator, greedy: bool = False
) -> tuple[float, list[tuple[np.ndarray, int, float]]]:
    """One deal: seat 0's score and its card plays (features, choice, score from that card on)."""
    e.reset(seed=seed)
    played: list[tuple[np.ndarray, int, int]] = []
    score = 0.0
    final_tricks = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        if agent == LEARNER:
            score += reward
        if terminated or truncated:
            if agent == LEARNER:
                final_tricks = tricks_won(e, observation["observation"])
            e.step(None)
            continue
        action, features, position = choose(e, agent, policy, observation, rng, greedy)
        if features is not None and position is not None:
            played.append((features, position, tricks_won(e, observation["observation"])))
        e.step(action)
    per_trick = score / final_tricks if final_tricks else 0.0
    return score, [(f, position, per_trick * (final_tricks - before)) for f, position, before in played]


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--contract", default="no-tricks", choices=("no-tricks", "trumps"))
    parser.add_argument("--deals", type=int, default=1500, help="training deals (default 1500)")
    parser.add_argument("--eval", type=int, default=300, help="evaluation deals for each player (default 300)")
    parser.add_argument("--rate", type=float, default=0.5, help="learning rate (default 0.5)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    e = BarbuEnv("classic", {"skip_undoubled_negative": False}, episode="deal", contract=args.contract)
    unit = score_unit(e.table_rules)
    policy = CardPolicy()
    rng = np.random.default_rng(args.seed)
    cards = e.table_rules.cards_each
    baselines, seen = np.zeros(cards), np.zeros(cards)
    start = time.perf_counter()
    for k in range(args.deals):
        _, decisions = play_deal(e, seed=args.seed * 1_000_003 + k, policy=policy, rng=rng)
        for t, (features, chosen, future) in enumerate(decisions):
            seen[t] += 1
            baselines[t] += (future - baselines[t]) / min(seen[t], 200)
            policy.push(features, chosen, args.rate * (future - baselines[t]) / unit)
        if args.deals >= 10 and (k + 1) % max(1, args.deals // 5) == 0:
            print(f"trained on {k + 1:5} deals · expected score of seat 0 from its first card: {baselines[0]:+.2f}")
    trained_in = time.perf_counter() - start
    print("weights: " + ", ".join(f"{name} {w:+.2f}" for name, w in zip(FEATURES, policy.weights, strict=True)))

    learned, random_scores = [], []
    for k in range(args.eval):
        seed = 10**9 + args.seed * 100_003 + k
        learned.append(play_deal(e, seed, policy, np.random.default_rng(k), greedy=True)[0])
        random_scores.append(play_deal(e, seed, None, np.random.default_rng(k))[0])
    gain = np.array(learned) - np.array(random_scores)
    error = float(gain.std(ddof=1) / math.sqrt(len(gain))) if len(gain) > 1 else float("nan")
    result = {
        "contract": args.contract,
        "deals": args.deals,
        "seconds": trained_in,
        "weights": dict(zip(FEATURES, policy.weights.tolist(), strict=True)),
        "learned": float(np.mean(learned)) if learned else float("nan"),
        "random": float(np.mean(random_scores)) if random_scores else float("nan"),
        "gain": float(gain.mean()) if len(gain) else float("nan"),
        "error": error,
    }
    print(
        f"{args.contract}: seat 0 scores {result['learned']:+.2f} a deal with the learned policy, "
        f"{result['random']:+.2f} playing at random on the same {args.eval} deals "
        f"(gain {result['gain']:+.2f} ± {1.96 * error:.2f}, 95%); trained in {trained_in:.0f} s"
    )
    return result


if __name__ == "__main__":
    main()
