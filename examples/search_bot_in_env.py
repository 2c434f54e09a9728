# %% [markdown]
# # The search bot, playing through the PettingZoo environment
#
# barbu's bots decide from a seat's view (`barbu.view.seat_view`), the same view the
# environment encodes into its observation vectors. This notebook-style script (cells
# are marked `# %%`; run it whole with `python examples/search_bot_in_env.py`) puts the
# `search` bot in seat 0 of the environment, lets uniformly random agents play the
# other seats from their action masks, and compares the bot with a random player on
# the same deals.
#
# The bot level is read from `barbu.bots.bot_level` when the script runs: `search` when
# it is registered, else `heuristic` (the rules-of-thumb bot), so the script runs on any
# version of the package.

# %%
from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from barbu.bots import Bot, bot_level, bot_levels, make_bot
from barbu.research.env import BarbuEnv

LEVEL = "search" if bot_level("search") is not None else "heuristic"
QUICK: dict[str, dict[str, Any]] = {
    "search": {"iterations": 8, "seconds": None},
    "expert": {"worlds": 8, "ms": None},
}
"""Eight worlds a decision and no time cap: a quick bot, reproducible from its seed
(``--level expert`` tries the top level, which reads the play as well)."""
SETTINGS: dict[str, Any] = QUICK.get(LEVEL, {})

# %% [markdown]
# ## One deal, step by step
#
# `env.view(agent)` gives the bot its seat's view; `env.indexes_of(action)` turns the
# core action it chooses into indexes of the environment's action space (one index, or
# ten `place` actions for a Chinese-poker arrangement). Random agents only see their
# observation dict: the vector and the action mask.


# %%
def play_deal(e: BarbuEnv, seed: int, bot: Bot | None, show: bool = False) -> dict[str, float]:
    """One deal: seat 0 played by ``bot`` (None: at random), the others at random; the deal's rewards."""
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    queued: list[int] = []
    rewards = {agent: 0.0 for agent in e.possible_agents}
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        if agent == "player_0" and bot is not None:
            if not queued:
                action = bot.act(e.view(agent))
                queued = e.indexes_of(action)
                if show:
                    print(f"{bot.name} bot, seat 0: {action}")
            e.step(queued.pop(0))
        else:
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return rewards


# %%
def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description="The search bot in the PettingZoo environment")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--deals", type=int, default=10, help="deals to compare on (default 10)")
    parser.add_argument("--iterations", type=int, default=None, help="search worlds per decision")
    parser.add_argument("--level", default=LEVEL, choices=list(bot_levels()), help=f"bot level (default {LEVEL})")
    args = parser.parse_args(argv)
    level = args.level
    settings = dict(QUICK.get(level, {}))
    if args.iterations is not None and level in QUICK:
        settings["iterations" if level == "search" else "worlds"] = args.iterations

    e = BarbuEnv(args.variant, episode="deal", render_mode="ansi")
    bot = make_bot(level, seed=1, **settings)
    print(f"bot level: {level} {settings}\n")

    # %% One deal, shown: the bot's decisions, then seat 0's last observation in words.
    rewards = play_deal(e, seed=7, bot=bot, show=True)
    print()
    print(e.observations.text(e.view("player_0")))
    print(f"\nrewards of the deal: {rewards}\n")

    # %% The bot and a random player in seat 0, on the same deals.
    start = time.perf_counter()
    with_bot, at_random = [], []
    for k in range(args.deals):
        with_bot.append(play_deal(e, seed=100 + k, bot=bot)["player_0"])
        at_random.append(play_deal(e, seed=100 + k, bot=None)["player_0"])
    gain = np.array(with_bot) - np.array(at_random)
    result = {
        "level": level,
        "deals": args.deals,
        "bot": float(np.mean(with_bot)) if with_bot else float("nan"),
        "random": float(np.mean(at_random)) if at_random else float("nan"),
        "gain": float(gain.mean()) if len(gain) else float("nan"),
        "seconds": time.perf_counter() - start,
    }
    print(
        f"seat 0 over {args.deals} deals: {result['bot']:+.1f} a deal with the {level} bot, "
        f"{result['random']:+.1f} at random (gain {result['gain']:+.1f}); {result['seconds']:.0f} s"
    )
    return result


# %%
if __name__ == "__main__":
    main()
