"""Ratings per rule set: Weng-Lin (Plackett-Luce) through ``openskill``, and the anti-farming policy.

A player is an account (``a:ID``) or a bot level (``bot:LEVEL``: every bot of a level is one
player, so a person sees where they stand against ``heuristic`` or ``search``). A rating is
``mu`` and ``sigma``; the ladder orders by ``mu - 3 sigma``, the conservative estimate, and a
player with fewer than :data:`PROVISIONAL_GAMES` rated games in a rule set is marked provisional.

**The policy** (:func:`verdict`), applied when a rated game ends:

1. a table is rated only if it was created rated, and every person's seat belongs to an account
   (a guest cannot sit at a rated table), each account at one seat only;
2. a game where a stand-in bot played more than :data:`ABANDONED_SHARE` of a person's actions
   (the person left) is unrated: nobody gains from a seat left to a bot;
3. the same group of two or more accounts counts for at most :data:`REPEATS_PER_DAY` rated games
   together in 24 hours; later games of that group that day are unrated.

An unrated game keeps its reason (*My games* shows it, in the reader's language: a
:class:`Reason` is stored as its English message and numbers); nothing is ever rated twice.

>>> [c.player for c in rate_game({}, ["a:x", "bot:random", "bot:random", "a:y"], [1, 3, 4, 2])]
['a:x', 'bot:random', 'a:y']
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from barbu.language import N_, _
from barbu.storage.club import Change, ClubStore, Rating

PROVISIONAL_GAMES = 10
"""Rated games before a player's rating in a rule set loses its provisional mark."""
ABANDONED_SHARE = 0.10
"""The share of a person's actions a stand-in may play before the game is unrated."""
REPEATS_PER_DAY = 3
"""Rated games the same group of accounts may play together in 24 hours."""

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The conservative estimate the ladder sorts by.

    >>> ordinal(25.0, 25 / 3)
    0.0
    """
    return mu - 3 * sigma


def rate_game(known: Mapping[str, Rating], players: Sequence[str], ranks: Sequence[int]) -> list[Change]:
    """The new rating of each player after one game (``ranks``: 1 = best, per seat).

    A player at several seats (bots of one level) is rated at each and takes the mean.
    """
    priors = []
    for p in players:
        r = known.get(p)
        priors.append(MODEL.rating(mu=r.mu, sigma=r.sigma) if r is not None else MODEL.rating())
    teams = MODEL.rate([[r] for r in priors], ranks=[float(x) for x in ranks])
    by_player: dict[str, list[tuple[float, float, int]]] = {}
    for p, team, rank in zip(players, teams, ranks, strict=True):
        by_player.setdefault(p, []).append((float(team[0].mu), float(team[0].sigma), rank))
    out = []
    for p, got in by_player.items():
        n = len(got)
        out.append(Change(p, min(g[2] for g in got), sum(g[0] for g in got) / n, sum(g[1] for g in got) / n))
    return out


NO_ACCOUNT = N_("seat {seat} had no account (a guest cannot sit at a rated table)")
TWO_SEATS = N_("one account sat at two seats")
ABANDONED = N_(
    "seat {seat} was left to a stand-in bot for {share} % of its actions (more than {limit} % make the game unrated)"
)
GIVEN_UP = N_("the table was abandoned before the end of its game")
REPEATED = N_("these players already played {games} rated games together in 24 hours (at most {limit} count)")


@dataclass(frozen=True)
class Reason:
    """Why a game is unrated: one of the policy's messages (its English text) and its numbers.

    >>> from barbu.language import speaking
    >>> why = Reason(NO_ACCOUNT, {"seat": 2})
    >>> Reason.read(why.stored()) == why
    True
    >>> with speaking("fr"):
    ...     why.text() != str(why)
    True
    """

    message: str
    params: dict[str, int] = field(default_factory=dict)

    def text(self) -> str:
        """The reason in the language of the moment."""
        return _(self.message, **self.params)

    def __str__(self) -> str:
        return self.message.format(**self.params)

    def stored(self) -> str:
        """The form kept in ``club_tables.reason`` (JSON), read back by :meth:`read`."""
        return json.dumps({"message": self.message, "params": self.params})

    @staticmethod
    def read(stored: str) -> Reason | None:
        """The reason kept by :meth:`stored`; None for another text."""
        try:
            data = json.loads(stored)
        except ValueError:
            return None
        if not isinstance(data, dict) or not isinstance(data.get("message"), str):
            return None
        return Reason(data["message"], dict(data.get("params") or {}))


def reason_text(stored: str | None) -> str | None:
    """A stored reason in the language of the moment (a text kept before reasons were messages: as it was).

    >>> reason_text(Reason(TWO_SEATS).stored()), reason_text("as it was"), reason_text(None)
    ('one account sat at two seats', 'as it was', None)
    """
    if stored is None:
        return None
    reason = Reason.read(stored)
    return reason.text() if reason is not None else stored


def verdict(
    seated: Mapping[int, str],
    people: Sequence[int],
    actors: Mapping[int, tuple[int, int]],
    together: int,
) -> Reason | None:
    """Why a finished rated game is unrated under the policy, or None if it counts.

    ``seated``: the account at each seat that has one; ``people``: the seats of persons;
    ``actors``: per seat, (actions by the person, actions by a stand-in); ``together``: rated
    games the same accounts played together in the last 24 hours.

    >>> print(verdict({0: "a"}, [0, 1], {}, 0))
    seat 1 had no account (a guest cannot sit at a rated table)
    >>> print(verdict({0: "a", 1: "b"}, [0, 1], {0: (80, 20)}, 0))
    seat 0 was left to a stand-in bot for 20 % of its actions (more than 10 % make the game unrated)
    >>> print(verdict({0: "a", 1: "b"}, [0, 1], {}, 3))
    these players already played 3 rated games together in 24 hours (at most 3 count)
    >>> verdict({0: "a", 1: "b"}, [0, 1], {0: (99, 1)}, 2) is None
    True
    """
    for s in people:
        if s not in seated:
            return Reason(NO_ACCOUNT, {"seat": s})
    ids = [seated[s] for s in people]
    if len(set(ids)) != len(ids):
        return Reason(TWO_SEATS)
    for s in people:
        human, bot = actors.get(s, (0, 0))
        if human + bot and bot / (human + bot) > ABANDONED_SHARE:
            share = round(100 * bot / (human + bot))
            return Reason(ABANDONED, {"seat": s, "share": share, "limit": round(100 * ABANDONED_SHARE)})
    if len(set(ids)) >= 2 and together >= REPEATS_PER_DAY:
        return Reason(REPEATED, {"games": together, "limit": REPEATS_PER_DAY})
    return None


def settle_table(club: ClubStore, table_id: str, variant: str, kinds: Sequence[str], ranks: Sequence[int]) -> str:
    """Rate a finished club table once (blocking): ``rated``, ``unrated: REASON``, or ``-`` if not a rated table.

    ``kinds`` is ``human`` or ``bot`` per seat; ``ranks`` the game's ranking (1 = best).
    """
    outcome = club.table_outcome(table_id)
    if outcome is None or not outcome[0] or outcome[1] != "pending":
        return "-"
    seated = club.table_seats(table_id)
    people = [s for s, k in enumerate(kinds) if k == "human"]
    bots = club.bot_seats(table_id)
    ids = sorted({seated[s] for s in people if s in seated})
    together = club.games_together(ids, time.time() - 86400) if len(ids) >= 2 else 0
    why = verdict(seated, people, club.actors(table_id), together)
    if why is not None:
        club.settle(table_id, variant, None, why.stored())
        return f"unrated: {why}"
    players = [f"a:{seated[s]}" if k == "human" else f"bot:{bots.get(s, 'random')}" for s, k in enumerate(kinds)]
    changes = rate_game(club.ratings_of(variant, players), players, ranks)
    club.settle(table_id, variant, changes, None)
    return "rated"


async def settle_async(club: ClubStore, table_id: str, variant: str, kinds: Sequence[str], ranks: Sequence[int]) -> str:
    """:func:`settle_table` on a worker thread."""
    return await asyncio.to_thread(settle_table, club, table_id, variant, kinds, ranks)


def rating_json(r: Rating, games: int | None = None) -> dict[str, Any]:
    """A rating as the API gives it.

    >>> rating_json(Rating("bot:random", "classic", 25.0, 8.0, 3, 0.0))["provisional"]
    True
    """
    return {
        "player": r.player,
        "variant": r.variant,
        "mu": round(r.mu, 3),
        "sigma": round(r.sigma, 3),
        "rating": round(ordinal(r.mu, r.sigma), 3),
        "games": r.games if games is None else games,
        "provisional": r.games < PROVISIONAL_GAMES,
    }


__all__ = [
    "ABANDONED_SHARE",
    "MODEL",
    "PROVISIONAL_GAMES",
    "REPEATS_PER_DAY",
    "Reason",
    "ordinal",
    "rate_game",
    "rating_json",
    "reason_text",
    "settle_async",
    "settle_table",
    "verdict",
]
