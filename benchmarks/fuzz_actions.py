"""Actions fuzz at scale: seeded random games over every rule set, with hostile input at every decision.

Each game is dealt from a seed under one rule set (the rule sets take turns). At every
decision, before the seat to act plays a random legal action, the fuzzer tries
``--tries`` hostile inputs through the doors a client's input goes through:

- **intents**: JSON values for the server's intent parser (:func:`barbu.actions.action_from_json`),
  mutated from the legal intents (wrong case, extra keys, wrong types, a card of another
  hand, a seat named twice, ...) or random JSON (huge numbers, NaN, lone surrogates,
  deep nesting, long strings, markup); what parses is then applied through ``Game.apply``
  by a random seat (the seat to act, another one, or no seat at all);
- **actions**: action objects with fields no parser would make (cards -1 or 52, a card as
  text, a suit 9, a bool, a 12-card arrangement, a tally outside a scorekept game) by
  seats out of range, through ``Game.apply``;
- **frames**: text for the table protocol's parser (:func:`barbu.server.protocol.parse_message`):
  mutated messages, random JSON, bytes that are not UTF-8, deep nesting.

Invariants: only the project's typed errors come out (``BarbuError``, ``ActionNotationError``,
``ProtocolError``): anything else is a crash, which the server would answer
``internal``; an input that is refused leaves the game byte-identical (its current deal,
history length, last move and totals pickled before and after; the whole game pickled on
every ``--full-every``-th refusal); every legal action written as an intent and read back
is the same action. At the end of every game the log, written as intents and read back,
replays through the checked door to the live game, byte for byte.

    python benchmarks/fuzz_actions.py --games 40 --seed 1        # about 10^6 inputs
    python benchmarks/fuzz_actions.py --games 2 --tries 3 --json  # a short run

It prints the counts (intents, actions, frames, refusals, accepted), the crashes (each
with its seed and input, to reproduce) and the wall time; the exit code is 1 if
anything crashed or a refusal changed the game.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from barbu.actions import (
    Action,
    Arrange,
    Call,
    Declare,
    EnterTally,
    NameRank,
    NameTrump,
    Pass,
    Play,
    action_from_json,
    action_to_json,
)
from barbu.errors import ActionNotationError, BarbuError
from barbu.game import Game
from barbu.record import game_to_record
from barbu.rulesets import RULE_SETS, rules
from barbu.server.protocol import Limits, ProtocolError, parse_message
from barbu.view import seat_view

TYPED = (BarbuError, ActionNotationError, ProtocolError)
"""What the doors may raise: anything else would be answered ``internal`` by the server."""

STRINGS = (
    "",
    " ",
    "QS",
    "qs",
    "10H",
    "Q♠",
    "AS ",
    "S",
    "h",
    "x",
    "7",
    "T",
    "0",
    "pass",
    "maximum",
    "no-queens",
    "barbu",
    "trumps",
    "domino",
    "NO-QUEENS",
    "\x00",
    "\ud800",
    "x\udfff",
    "\u202eSQ",
    "ＱＳ",
    "<img src=x onerror=alert(1)>",
    "'; DROP TABLE actions; --",
    "${jndi:ldap://x}",
    "%s%s%n",
    "../../etc/passwd",
    "A" * 10_000,
    "__proto__",
    "constructor",
)
"""Text values: names that almost name something, control and surrogate characters, markup, very long text."""

NUMBERS: tuple[Any, ...] = (
    0,
    1,
    -1,
    3,
    4,
    5,
    13,
    51,
    52,
    2**31,
    -(2**63),
    10**40,
    True,
    False,
    0.0,
    -0.0,
    1.5,
    float("nan"),
    float("inf"),
    float("-inf"),
    1e308,
)

FRAME_TYPES = ("hello", "act", "sync", "ping", "HELLO", "", "welcome", "error", "state")
FRAME_KEYS = ("type", "table", "key", "name", "seat", "last_seq", "id", "seq", "action", "__proto__")


def nested(depth: int, rng: random.Random) -> Any:
    """A list or object nested ``depth`` deep (built iteratively: no recursion limit on our side)."""
    value: Any = rng.choice([0, "QS", None])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"type": value}
    return value


def hostile_value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON-like value, biased towards values that break parsers."""
    r = rng.random()
    if r < 0.3:
        return rng.choice(STRINGS)
    if r < 0.55:
        return rng.choice(NUMBERS)
    if r < 0.6:
        return None
    if r < 0.63:
        return nested(rng.choice([10, 100, 1000, 5000]), rng)
    if depth > 3:
        return rng.choice(STRINGS)
    if r < 0.8:
        return [hostile_value(rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 3, 13, 14]))]
    keys = [*FRAME_KEYS, "card", "suit", "rank", "contract", "call", "double", "redouble", "cards", *STRINGS[:8]]
    return {rng.choice(keys): hostile_value(rng, depth + 1) for _ in range(rng.randrange(0, 5))}


def mutate_intent(intent: dict[str, Any], rng: random.Random) -> Any:
    """A legal intent, changed in one or two ways a careless or hostile client might."""
    out: dict[str, Any] = dict(intent)
    for _ in range(rng.randint(1, 2)):
        r = rng.random()
        keys = list(out)
        if r < 0.25 and keys:
            out[rng.choice(keys)] = hostile_value(rng)
        elif r < 0.4:
            out[rng.choice(["card", "suit", "rank", "contract", "call", "double", "redouble", "cards", "x"])] = (
                hostile_value(rng)
            )
        elif r < 0.5 and keys:
            del out[rng.choice(keys)]
        elif r < 0.6:
            out["type"] = rng.choice(["play", "call", "declare", "trump", "rank", "pass", "arrange", "PLAY", 1, None])
        elif r < 0.75 and isinstance(out.get("double"), list) and out["double"]:
            out["double"] = [*out["double"], rng.choice([*out["double"], rng.randrange(-2, 7)])]
        elif r < 0.85 and isinstance(out.get("cards"), list) and out["cards"]:
            cards = list(out["cards"])
            rng.shuffle(cards)
            out["cards"] = cards[: rng.choice([0, 3, 12, 13])] + rng.choice([[], [cards[0]], ["ZZ"]])
        else:
            return [out] if rng.random() < 0.5 else shown(out)
    return out


def other_seat_intent(game: Game, rng: random.Random) -> dict[str, Any]:
    """A well-formed play of a card the seat to act does not hold (another hand's, or one played)."""
    return {"type": "play", "card": rng.choice([f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"])}


def hostile_action(game: Game, rng: random.Random) -> Action:
    """An action object with fields no parser makes: out of range, wrong type, wrong phase."""
    bad: tuple[Any, ...] = (-1, 52, 99, 4, 13, True, "QS", None, 1.5, 2**64)
    choice = rng.randrange(9)
    if choice == 0:
        return Play(rng.choice(bad))
    if choice == 1:
        return NameTrump(rng.choice(bad))
    if choice == 2:
        return NameRank(rng.choice(bad))
    if choice == 3:
        return Declare(rng.choice([*STRINGS[:20], 7, None]))
    if choice == 4:
        seats = tuple(rng.choice([0, 1, 2, 3, 4, -1, 9, True]) for _ in range(rng.randrange(0, 4)))
        return Call(double=seats, redouble=tuple(rng.sample(range(-1, 6), rng.randrange(0, 3))))
    if choice == 5:
        return Call(word=rng.choice(["pass", "maximum", "table", "flanks", "family", "bogus", "", 3, None, ["pass"]]))
    if choice == 6:
        n = rng.choice([0, 3, 12, 13, 14])
        return Arrange(tuple(rng.choice([rng.randrange(52), -1, 52, 0]) for _ in range(n)))
    if choice == 7:
        return EnterTally({rng.choice(["tricks", "queens", "hearts", "x"]): hostile_value(rng)})
    return Pass()


def hostile_seat(game: Game, rng: random.Random) -> Any:
    """The seat to act, another seat, no seat, or one that is not a seat."""
    n = game.rules.players
    return rng.choice([game.to_act, game.to_act, None, rng.randrange(n), -1, n, 99, True, "0"])


def hostile_frame(game: Game, legal_intent: dict[str, Any], rng: random.Random) -> str | bytes:
    """Text for the table protocol's parser."""
    r = rng.random()
    if r < 0.3:
        msg: Any = {"type": "act", "id": "a1", "seq": len(game.history), "action": legal_intent}
        msg = mutate_intent(msg, rng)
    elif r < 0.5:
        msg = {rng.choice(FRAME_KEYS): hostile_value(rng) for _ in range(rng.randrange(1, 5))}
        msg["type"] = rng.choice(FRAME_TYPES)
    elif r < 0.6:
        depth = rng.choice([100, 1000, 3000, 4000])
        return "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "0" + "}" * depth
    elif r < 0.7:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
    elif r < 0.75:
        return '{"type": "ping"' + " " * rng.randrange(0, 9000)
    else:
        msg = hostile_value(rng)
    try:
        return json.dumps(msg, allow_nan=rng.random() < 0.5)
    except (ValueError, RecursionError):  # too deep for our own encoder: send deep text instead
        return '{"type": "act", "action": ' + "[" * 3000 + "]" * 3000 + "}"


def shown(value: Any) -> str:
    """A short, safe description of an input for the report (deep values have no repr)."""
    try:
        return repr(value)[:300]
    except RecursionError:
        return f"<{type(value).__name__} nested too deep to print>"


def public_state(game: Game) -> str:
    """Everything the game shows: its record and every seat's view and the spectator's, as JSON text."""
    seats: list[int | None] = [*range(game.rules.players), None]
    views = [seat_view(game, s).as_json() for s in seats]
    return json.dumps([game_to_record(game), views, game.totals], sort_keys=True)


def state_key(game: Game) -> bytes:
    """What a refused input must leave as it was: the current deal, the history's length and end, the totals."""
    return pickle.dumps((len(game.deals), game.deals[-1], len(game.history), game.history[-1:], game.totals))


@dataclass
class Figures:
    """Counts of one run."""

    games: int = 0
    decisions: int = 0
    intents: int = 0
    actions: int = 0
    frames: int = 0
    refused: int = 0
    accepted: int = 0
    replays: int = 0
    crash_count: int = 0
    crash_kinds: dict[str, int] = field(default_factory=dict)
    crashes: list[dict[str, Any]] = field(default_factory=list)
    """The first input of each kind of crash."""
    changed: list[dict[str, Any]] = field(default_factory=list)
    by_variant: dict[str, int] = field(default_factory=dict)

    @property
    def inputs(self) -> int:
        """Fuzzed actions and frames."""
        return self.intents + self.actions + self.frames

    def as_json(self) -> dict[str, Any]:
        """The figures as JSON (crashes and changes capped at 20 each)."""
        return {
            "games": self.games,
            "decisions": self.decisions,
            "inputs": self.inputs,
            "intents": self.intents,
            "actions": self.actions,
            "frames": self.frames,
            "refused": self.refused,
            "accepted": self.accepted,
            "replays": self.replays,
            "crashes": self.crash_count,
            "crash_kinds": self.crash_kinds,
            "changed_by_refusal": len(self.changed),
            "by_variant": self.by_variant,
            "crash_examples": self.crashes[:20],
            "change_examples": self.changed[:20],
        }


class Fuzzer:
    """Plays and attacks games; see the module's docstring."""

    def __init__(self, seed: int, tries: int = 20, full_every: int = 50, decisions: int | None = None) -> None:
        self.seed = seed
        self.decisions = decisions
        """Decisions played per game (None: whole games)."""
        self.tries = tries
        self.full_every = full_every
        self.figures = Figures()
        self.limits = Limits()

    def _crash(self, where: str, game_seed: str, payload: Any, e: BaseException) -> None:
        """Count a crash; keep the first input of each kind (where, exception, line) to reproduce it."""
        self.figures.crash_count += 1
        frame = traceback.extract_tb(e.__traceback__)[-1]
        kind = f"{where}: {type(e).__name__} at {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno}"
        if kind not in self.figures.crash_kinds:
            self.figures.crashes.append(
                {"kind": kind, "game": game_seed, "input": shown(payload), "error": str(e)[:200]}
            )
        self.figures.crash_kinds[kind] = self.figures.crash_kinds.get(kind, 0) + 1

    def _refused(self, game: Game, before: bytes, full: bytes | None, game_seed: str, payload: Any) -> None:
        self.figures.refused += 1
        changed = state_key(game) != before
        if full is not None and not changed:
            changed = pickle.dumps(game) != full
        if changed:
            self.figures.changed.append({"game": game_seed, "input": shown(payload)})

    def _apply(self, game: Game, action: Any, seat: Any, game_seed: str, payload: Any, where: str) -> bool:
        """Try one input on the game; True if it was accepted (the game moved on)."""
        before = state_key(game)
        full = pickle.dumps(game) if self.figures.refused % self.full_every == 0 else None
        try:
            game.apply(action, seat)
        except TYPED:
            self._refused(game, before, full, game_seed, payload)
            return False
        except Exception as e:
            self._crash(where, game_seed, payload, e)
            return False
        self.figures.accepted += 1
        return True

    def attack(self, game: Game, rng: random.Random, game_seed: str) -> None:
        """Hostile inputs at one decision (some may happen to be legal and move the game on)."""
        for _ in range(self.tries):
            if game.is_over or game.to_act is None:
                return
            legal = game.legal_actions()
            legal_intent = action_to_json(legal[rng.randrange(len(legal))])
            r = rng.random()
            if r < 0.45:
                self.figures.intents += 1
                q = rng.random()
                payload = (
                    mutate_intent(legal_intent, rng)
                    if q < 0.6
                    else other_seat_intent(game, rng)
                    if q < 0.8
                    else hostile_value(rng)
                )
                try:
                    action = action_from_json(payload)
                except ActionNotationError:
                    self.figures.refused += 1
                    continue
                except Exception as e:
                    self._crash("intent", game_seed, payload, e)
                    continue
                self._apply(game, action, hostile_seat(game, rng), game_seed, payload, "apply(intent)")
            elif r < 0.75:
                self.figures.actions += 1
                action = hostile_action(game, rng)
                seat = hostile_seat(game, rng)
                self._apply(game, action, seat, game_seed, (action, seat), "apply(action)")
            else:
                self.figures.frames += 1
                text = hostile_frame(game, legal_intent, rng)
                try:
                    msg = parse_message(text, self.limits)
                except ProtocolError:
                    self.figures.refused += 1
                    continue
                except Exception as e:
                    self._crash("frame", game_seed, text, e)
                    continue
                if msg.get("type") == "act":
                    self.figures.intents += 1
                    try:
                        action = action_from_json(msg["action"])
                    except ActionNotationError:
                        self.figures.refused += 1
                        continue
                    except Exception as e:
                        self._crash("frame intent", game_seed, text, e)
                        continue
                    self._apply(game, action, game.to_act, game_seed, text, "apply(frame)")

    def play(self, variant: str, game_seed: str, rng: random.Random) -> None:
        """One whole game, attacked at every decision, then checked against its own log."""
        first = rng.randrange(rules(variant).players)
        game = Game.new(variant, None, game_seed, first)
        played = 0
        while not game.is_over and (self.decisions is None or played < self.decisions):
            played += 1
            if game.to_act is None:
                raise AssertionError(f"game {game_seed} ({variant}) waits with nobody to act")
            self.figures.decisions += 1
            self.attack(game, rng, game_seed)
            if game.is_over:
                break
            legal = game.legal_actions()
            action = legal[rng.randrange(len(legal))]
            back = action_from_json(json.loads(json.dumps(action_to_json(action))))
            if back != action:
                raise AssertionError(f"{action!r} comes back from its intent as {back!r}")
            game.apply(action, game.to_act)
        replayed = Game.new(variant, None, game_seed, game.first_declarer)
        for move in game.history:
            replayed.apply(action_from_json(json.loads(json.dumps(action_to_json(move.action)))), move.seat)
        if public_state(replayed) != public_state(game):
            raise AssertionError(f"game {game_seed} ({variant}): the log does not replay to the live game")
        self.figures.replays += 1
        self.figures.games += 1
        self.figures.by_variant[variant] = self.figures.by_variant.get(variant, 0) + 1

    def run(self, games: int, variants: tuple[str, ...] = tuple(RULE_SETS)) -> Figures:
        """``games`` games, the rule sets taking turns."""
        for n in range(games):
            variant = variants[n % len(variants)]
            rng = random.Random(f"{self.seed}/{n}")
            self.play(variant, f"fuzz-{self.seed}-{n}", rng)
        return self.figures


def main(argv: list[str] | None = None) -> int:
    """Run the fuzzer from the command line; exit 1 on a crash or a refusal that changed a game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="games to play (the rule sets take turns)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tries", type=int, default=20, help="hostile inputs at each decision")
    parser.add_argument("--full-every", type=int, default=50, help="pickle the whole game every N refusals")
    parser.add_argument("--decisions", type=int, default=None, help="stop each game after N decisions")
    parser.add_argument("--variants", default=",".join(RULE_SETS), help="rule sets, comma-separated")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    variants = tuple(v for v in args.variants.split(",") if v)
    unknown = [v for v in variants if v not in RULE_SETS]
    if unknown or args.games < 1 or args.tries < 0 or args.full_every < 1:
        parser.error(f"--variants must name rule sets ({', '.join(RULE_SETS)}); --games ≥ 1, --tries ≥ 0")
    start = time.monotonic()
    figures = Fuzzer(args.seed, args.tries, args.full_every, args.decisions).run(args.games, variants)
    out = figures.as_json() | {"seed": args.seed, "seconds": round(time.monotonic() - start, 1)}
    if args.json:
        print(json.dumps(out, default=lambda v: None if isinstance(v, float) and math.isnan(v) else str(v)))
    else:
        for k, v in out.items():
            if k not in ("crash_examples", "change_examples"):
                print(f"{k}: {v}")
        for c in out["crash_examples"] + out["change_examples"]:
            print(c)
    return 1 if figures.crash_count or figures.changed else 0


if __name__ == "__main__":
    sys.exit(main())
