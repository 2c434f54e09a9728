#!/usr/bin/env python3
"""A Barbu bot outside the barbu package, speaking the arena's JSON-lines protocol.

Run it in the arena:

    barbu arena "external:python3 examples/external_bot.py" random random random --games 10

For each decision the arena writes one line: a JSON object, the seat's view (its
``legal`` list names every legal action in record notation). The bot answers one line:
the action it takes. This one plays the lowest legal card, arranges Chinese poker from
high to low, and otherwise picks a legal action at random from the seed the arena gives
it in ``BARBU_BOT_SEED``. It needs nothing but the standard library, as a bot in any
other language would need nothing but a JSON reader.
"""

import json
import os
import random
import sys
from typing import Any

RANKS = "23456789TJQKA"


def rank(card: str) -> int:
    """The rank of a card written like ``QS`` or ``TH`` (0 = two … 12 = ace)."""
    return RANKS.index(card[0])


def decide(view: dict[str, Any], rng: random.Random) -> object:
    """The answer to one view: a string from ``legal``, or 13 cards to arrange."""
    if view["phase"] == "arrange":
        hand = sorted(view["hand"], key=rank, reverse=True)
        return hand  # back 5 (highest), middle 5, front 3 (lowest)
    legal = view["legal"]
    if view["phase"] == "play":
        cards = [c for c in legal if c != "pass"]
        return min(cards, key=rank) if cards else "pass"
    return rng.choice(legal)


def main() -> None:
    rng = random.Random(int(os.environ.get("BARBU_BOT_SEED", "0")))
    for line in sys.stdin:
        view = json.loads(line)
        print(json.dumps(decide(view, rng)), flush=True)


if __name__ == "__main__":
    main()
