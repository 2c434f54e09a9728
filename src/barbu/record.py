"""Reading and writing game records, ``barbu-record/1`` (RECORD.md).

:func:`game_from_record` replays a record through the checked door of the core and
returns the game it describes, or raises :class:`~barbu.errors.RecordError` located
as RECORD.md says (deal, kind, index, seat). :func:`game_to_record` writes a game in
exactly the notation writers must use.

>>> doc = {"format": "barbu-record/1", "variant": "classic", "deals": [
...     {"declarer": 0, "contract": "no-queens",
...      "calls": [{"seat": 1, "double": [0]}, {"seat": 2, "double": [0, 1]}, {"seat": 3},
...                {"seat": 0, "redouble": [1]}, {"seat": 1}],
...      "tally": {"queens": [0, 2, 1, 1]}}]}
>>> game = game_from_record(doc)
>>> game.deals[0].final, game.phase
([30, -42, -6, -6], 'contract')
>>> game_to_record(game)["deals"][0]["score"]
[30, -42, -6, -6]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from barbu.actions import Action, Arrange, Call, Declare, EnterTally, NameRank, NameTrump, Pass, Play
from barbu.cards import RANKS, SUITS, card, card_name, fold, parse_pbn, parse_rank, parse_suit, pbn
from barbu.deal import Deal, Phase
from barbu.errors import N_, IllegalAction, NotationError, OptionsError, RecordError, RecordUsageError, Text
from barbu.game import Game
from barbu.rulesets import rules
from barbu.tally import tally_json

FORMAT = "barbu-record/1"
CALL_KEYS = ("seat", "double", "redouble", "call")
_ROTATIONS = {"block": N_("block rotation"), "quick": N_("quick rotation")}
"""The rotations (the values of the flag) in words, for a declarer out of turn."""


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _nonempty(v: object) -> bool:
    return isinstance(v, list) and len(v) > 0


# -- reading -------------------------------------------------------------------


def check_document(doc: object) -> None:
    """Refuse what is not a record at all (exit 2 of ``barbu replay``)."""
    if not isinstance(doc, Mapping):
        raise RecordUsageError(
            N_('the file is not a JSON object: a record is an object with "format": "{format}"', format=FORMAT)
        )
    if "format" not in doc:
        raise RecordUsageError(N_('"format" is missing; a record has "format": "{format}"', format=FORMAT))
    if doc.get("format") != FORMAT:
        found = json.dumps(doc["format"], ensure_ascii=False)
        raise RecordUsageError(N_('"format" is {found}; a record has "format": "{format}"', found=found, format=FORMAT))


def game_from_record(doc: object) -> Game:
    """Replay a record and return its game; raise :class:`RecordError` at the first fault."""
    check_document(doc)
    assert isinstance(doc, Mapping)
    if "variant" not in doc:
        raise RecordError("record", N_('the record has no variant: name a rule set, e.g. "classic"'))
    try:
        r = rules(doc["variant"], _options(doc))
    except OptionsError as e:
        raise RecordError("record", e.text) from None
    players = doc.get("players")
    if players is not None and (
        not isinstance(players, list) or len(players) != r.players or not all(isinstance(p, str) for p in players)
    ):
        raise RecordError("record", N_("players must be a list of {n} names, one per seat", n=r.players))
    first = doc.get("first_declarer", 0)
    if not _is_int(first) or not 0 <= first < r.players:
        raise RecordError(
            "record",
            N_("first_declarer must be a seat from 0 to {last}, not {found}", last=r.players - 1, found=repr(first)),
        )
    deals = doc.get("deals")
    if not isinstance(deals, list):
        raise RecordError("record", N_("deals must be a list of deals (it may be empty)"))
    if len(deals) > r.deal_count:
        raise RecordError(
            "record",
            N_(
                "the record has {n} deals but a game of {variant} has {count}",
                n=len(deals),
                variant=r.name,
                count=r.deal_count,
            ),
            deal=r.deal_count + 1,
        )
    game = Game(r, first)
    for i, raw in enumerate(deals):
        _DealReader(game, i, raw, is_last=i == len(deals) - 1).read()
    return game


def _options(doc: Mapping[str, Any]) -> dict[str, Any]:
    opts = doc.get("options", {})
    if not isinstance(opts, Mapping):
        raise RecordError(
            "record", N_("options must be an object of flags, e.g. {example}", example='{"rotation": "quick"}')
        )
    return dict(opts)


class _DealReader:
    """Replays one deal of a record, in RECORD.md's checking order."""

    def __init__(self, game: Game, index: int, raw: object, is_last: bool) -> None:
        self.game = game
        self.index = index
        self.number = index + 1
        self.is_last = is_last
        if not isinstance(raw, Mapping):
            raise RecordError("record", N_("deal {n} must be an object", n=self.number), deal=self.number)
        self.raw = raw
        deal = game.current
        assert deal is not None
        self.deal: Deal = deal

    def fail(self, kind: str, message: str | Text, index: int | None = None, seat: int | None = None) -> RecordError:
        """The error of this deal, its message led by where it is (RECORD.md)."""
        n = self.number
        if kind == "call" and index is not None:
            where = N_("deal {n}, call {index}", n=n, index=index)
        elif kind == "play" and index is not None and self._arranging():
            where = N_("deal {n}, arrangement {index}", n=n, index=index)
        elif kind == "play" and index is not None:
            where = N_("deal {n}, card {index}", n=n, index=index)
        else:
            where = N_("deal {n}", n=n)
        if seat is not None:
            where = N_("{where} (seat {seat})", where=where, seat=seat)
        return RecordError(kind, N_("{where}: {why}", where=where, why=message), deal=n, index=index, seat=seat)

    def _arranging(self) -> bool:
        c = self.deal.contract
        return c is not None and c.play == "arrange"

    def _later(self, *keys: str) -> bool:
        """Whether any later-phase key among ``keys`` is present (RECORD.md)."""
        raw = self.raw
        for k in keys:
            if k in ("calls", "play"):
                if _nonempty(raw.get(k)):
                    return True
            elif k in raw:
                return True
        return False

    def _waiting(self, kind: str, index: int | None = None, seat: int | None = None) -> None:
        """The deal stops here: fine for the last deal, a fault otherwise."""
        if not self.is_last:
            raise self.fail(
                kind, N_("the deal is unfinished ({kind} missing) but another deal follows", kind=kind), index, seat
            )

    def read(self) -> None:
        """Replay the deal; a deal that stops early (the last one) is simply unfinished."""
        self._declarer()
        self._hands()
        if self._contract() and self._trump_and_rank() and self._calls():
            if self.deal.skipped:
                self._skipped()
            else:
                self._play_or_tally()
        self._score()

    def _declarer(self) -> None:
        d = self.raw.get("declarer")
        expected = self.deal.declarer
        if not _is_int(d) or d != expected:
            r = self.game.rules
            how = N_("its rotation") if r.ruleset.fixed_rotation else _ROTATIONS[r.flags.rotation]
            raise self.fail(
                "declarer",
                N_(
                    "the declarer must be seat {seat} ({how} from first declarer {first}), not {found}",
                    seat=expected,
                    how=how,
                    first=self.game.first_declarer,
                    found=repr(d),
                ),
            )

    def _hands(self) -> None:
        if "hands" not in self.raw:
            return
        r = self.game.rules
        hands = self.raw["hands"]
        if not isinstance(hands, list) or len(hands) != r.players or not all(isinstance(h, str) for h in hands):
            raise self.fail("hands", N_("hands must be a list of {n} PBN hands (S.H.D.C), one per seat", n=r.players))
        masks = []
        taken = r.removed
        for seat, h in enumerate(hands):
            try:  # two decks: each card is the first deck's copy unless removed or dealt already
                m = parse_pbn(h, taken) if r.twin else parse_pbn(h)
                taken |= m
            except NotationError as e:
                raise self.fail("hands", N_("hand of seat {seat}: {why}", seat=seat, why=e.text)) from None
            if m.bit_count() != r.cards_each:
                raise self.fail(
                    "hands",
                    N_("seat {seat} holds {n} cards; each holds {each}", seat=seat, n=m.bit_count(), each=r.cards_each),
                )
            masks.append(m)
        union = 0
        for m in masks:
            if union & m:
                dup = card_name((union & m).bit_length() - 1)
                raise self.fail("hands", N_("{card} is dealt twice", card=dup))
            union |= m
        if union != r.deck:
            extra = union & ~r.deck
            if extra:
                raise self.fail(
                    "hands",
                    N_(
                        "{card} is not in the deck of {variant}", card=card_name(extra.bit_length() - 1), variant=r.name
                    ),
                )
            raise self.fail("hands", N_("the hands do not hold the whole deck"))
        self.game.give_hands(masks)

    def _contract(self) -> bool:
        deal = self.deal
        scheduled = self.game.rules.scheduled_contract(self.index)
        raw = self.raw
        if "contract" not in raw:
            if scheduled is not None:
                raise self.fail(
                    "contract",
                    N_("the contract must be written: the fixed order gives {contract}", contract=scheduled.id),
                    seat=deal.declarer,
                )
            if self._later("trump", "rank", "calls", "play", "tally"):
                raise self.fail("contract", N_("the contract is missing"), seat=deal.declarer)
            self._waiting("contract", seat=deal.declarer)
            return False
        c = raw["contract"]
        if scheduled is not None:
            if c != scheduled.id:
                raise self.fail(
                    "contract",
                    N_(
                        "the contract of this deal is {contract} (fixed order), not {found}",
                        contract=scheduled.id,
                        found=repr(c),
                    ),
                    seat=deal.declarer,
                )
            return True
        if not isinstance(c, str):
            raise self.fail(
                "contract", N_("the contract must be a contract id, not {found}", found=repr(c)), seat=deal.declarer
            )
        self._apply(Declare(c), "contract")
        return True

    def _apply(self, action: Action, kind: str, index: int | None = None) -> None:
        seat = self.deal.to_act
        try:
            self.game.apply(action)
        except IllegalAction as e:
            raise self.fail(kind, e.text, index, seat) from None

    def _trump_and_rank(self) -> bool:
        deal = self.deal
        contract = deal.contract
        assert contract is not None
        raw = self.raw
        seat = deal.declarer
        if not contract.names_trump and "trump" in raw:
            raise self.fail(
                "trump", N_("{contract} has no trump suit: remove the trump", contract=contract.id), seat=seat
            )
        if contract.play != "domino" and "rank" in raw:
            raise self.fail(
                "rank", N_("{contract} has no domino rank: remove the rank", contract=contract.id), seat=seat
            )
        if deal.phase is Phase.TRUMP:
            if "trump" not in raw:
                if self._later("calls", "play", "tally"):
                    raise self.fail("trump", N_("the trump suit is missing"), seat=seat)
                self._waiting("trump", seat=seat)
                return False
            t = raw["trump"]
            if not isinstance(t, str) or t.strip().upper() not in SUITS:
                raise self.fail(
                    "trump", N_("the trump must be one of S, H, D, C, not {found}", found=repr(t)), seat=seat
                )
            self._apply(NameTrump(parse_suit(t)), "trump")
        elif deal.phase is Phase.RANK:
            if "rank" not in raw:
                if self._later("calls", "play", "tally"):
                    raise self.fail("rank", N_("the domino rank is missing"), seat=seat)
                self._waiting("rank", seat=seat)
                return False
            self._apply(NameRank(self._rank(raw["rank"])), "rank")
        elif contract.play == "domino" and "rank" in raw:
            rank = self._rank(raw["rank"])
            play = raw.get("play")
            if _nonempty(play) and isinstance(play, list) and isinstance(play[0], str):
                try:
                    first = card(play[0])
                except NotationError:
                    return True
                if first % 13 != rank:
                    raise self.fail(
                        "rank",
                        N_(
                            "the rank {rank} does not match the opening card {card}",
                            rank=RANKS[rank],
                            card=card_name(first),
                        ),
                        seat=seat,
                    )
        return True

    def _rank(self, value: object) -> int:
        try:
            if not isinstance(value, str):
                raise NotationError(repr(value))
            return parse_rank(value)
        except NotationError:
            names = " ".join(RANKS[r] for r in self.game.rules.domino_ranks)
            raise self.fail(
                "rank",
                N_("the domino rank must be one of {names}, not {found}", names=names, found=repr(value)),
                seat=self.deal.declarer,
            ) from None

    def _calls(self) -> bool:
        deal = self.deal
        calls = self.raw.get("calls", [])
        if calls is None:
            calls = []
        if not isinstance(calls, list):
            raise self.fail("call", N_("calls must be a list of call objects"), 1, None)
        if not self.game.rules.doubling:
            if calls:
                raise self.fail(
                    "call", N_("{variant} has no doubling: remove the calls", variant=self.game.rules.name), 1, None
                )
            return True
        for i, raw_call in enumerate(calls, 1):
            if deal.phase is not Phase.CALL:
                raise self.fail("call", N_("the calls are over"), i, None)
            seat = deal.to_act
            call = self._call(raw_call, i, seat)
            if call[0] != seat:
                raise self.fail(
                    "call", N_("it is seat {seat}'s call, not seat {other}'s", seat=seat, other=call[0]), i, seat
                )
            self._apply(call[1], "call", i)
        if deal.phase is Phase.CALL:
            assert deal.doubling is not None
            later = self._later("play", "tally") or not self.is_last
            if later and deal.doubling.round == 2:
                while deal.phase is Phase.CALL:
                    self.game.apply(Call())
            elif later:
                raise self.fail("call", N_("round 1 of the calls is incomplete"), len(calls) + 1, deal.to_act)
            else:
                return False
        return True

    def _call(self, raw: object, index: int, seat: int | None) -> tuple[int, Call]:
        if not isinstance(raw, Mapping) or not _is_int(raw.get("seat")):
            raise self.fail(
                "call", N_('a call is an object with a "seat" and optional double/redouble/call'), index, seat
            )
        unknown = [k for k in raw if k not in CALL_KEYS]
        if unknown:
            raise self.fail(
                "call",
                N_("unknown key {key} in a call (keys: seat, double, redouble, call)", key=repr(unknown[0])),
                index,
                seat,
            )
        lists = []
        for key in ("double", "redouble"):
            v = raw.get(key, [])
            if not isinstance(v, list) or not all(_is_int(s) for s in v):
                raise self.fail("call", N_("{key} must be a list of seats", key=key), index, seat)
            if len(set(v)) != len(v):
                raise self.fail("call", N_("{key} names a seat twice", key=key), index, seat)
            lists.append(tuple(v))
        word = raw.get("call")
        if word is not None and not isinstance(word, str):
            raise self.fail("call", N_("call must be a word: pass, maximum, table, flanks or family"), index, seat)
        return raw["seat"], Call(double=lists[0], redouble=lists[1], word=word)

    def _skipped(self) -> None:
        if _nonempty(self.raw.get("play")):
            raise self.fail("play", N_("an undoubled negative deal is not played (no pair was made)"), 1, None)
        if "tally" in self.raw:
            raise self.fail("tally", N_("an undoubled negative deal is not played: it has no tally"))

    def _play_or_tally(self) -> bool:
        raw = self.raw
        deal = self.deal
        play = raw.get("play", [])
        if play is None:
            play = []
        if "tally" in raw:
            if "hands" in raw or _nonempty(play):
                raise self.fail("tally", N_("a deal has either a tally or hands and play, not both"))
            assert deal.contract is not None
            try:
                self.game.apply(EnterTally(raw["tally"]))
            except IllegalAction as e:
                raise self.fail("tally", e.text) from None
            return True
        if not isinstance(play, list):
            raise self.fail("play", N_("play must be a list"), 1, deal.to_act)
        if play and "hands" not in raw:
            raise self.fail("hands", N_("the deal has play but no hands: write the four hands"))
        if "hands" not in raw:
            self._waiting("tally")
            return False
        for i, entry in enumerate(play, 1):
            if deal.finished:
                raise self.fail("play", N_("the deal is over: this entry comes after its end"), i, None)
            self._play_entry(entry, i)
        if not deal.finished:
            self._waiting("play", len(play) + 1, deal.to_act)
            return False
        return True

    def _play_entry(self, entry: object, index: int) -> None:
        deal = self.deal
        if self._arranging():
            seat = deal.to_act
            if not isinstance(entry, list) or not all(isinstance(c, str) for c in entry):
                raise self.fail(
                    "play", N_("an arrangement is a list of 13 cards: back 5, middle 5, front 3"), index, seat
                )
            try:
                cards = tuple(card(c) for c in entry)
            except NotationError as e:
                raise self.fail("play", e.text, index, seat) from None
            self._apply(Arrange(cards), "play", index)
            return
        if not isinstance(entry, str):
            raise self.fail(
                "play",
                N_('a play entry is a card such as "QS" or "pass", not {found}', found=repr(entry)),
                index,
                deal.to_act,
            )
        try:
            action: Play | Pass = Pass() if entry.strip().lower() == "pass" else Play(card(entry))
        except NotationError as e:
            raise self.fail("play", e.text, index, deal.to_act) from None
        if deal.domino is not None and isinstance(action, Play):
            # Readers accept records that leave forced passes out.
            while (
                not deal.finished
                and not deal.legal_mask()
                and not fold(deal.domino.hands[deal.domino.turn]) >> action.card & 1
            ):
                self.game.apply(Pass())
            if deal.finished:
                raise self.fail("play", N_("the deal is over: this entry comes after its end"), index, None)
        self._apply(action, "play", index)

    def _score(self) -> None:
        if "score" not in self.raw:
            return
        deal = self.deal
        score = self.raw["score"]
        n = self.game.rules.players
        if not deal.finished:
            raise self.fail("score", N_("the deal is unfinished, so it cannot have a score"))
        if not isinstance(score, list) or len(score) != n or not all(_is_int(v) for v in score):
            raise self.fail("score", N_("score must be a list of {n} integers, one per seat", n=n))
        if score != deal.final:
            raise self.fail("score", N_("the score should be {right}, not {found}", right=deal.final, found=score))


# -- writing -------------------------------------------------------------------


def call_json(seat: int, said: Call) -> dict[str, Any]:
    """A call as writers write it: ``{"seat": s}`` plus its lists or its word."""
    out: dict[str, Any] = {"seat": seat}
    if said.word is not None and said.word != "pass":
        out["call"] = said.word
        return out
    if said.double:
        out["double"] = sorted(said.double)
    if said.redouble:
        out["redouble"] = sorted(said.redouble)
    return out


def deal_json(deal: Deal) -> dict[str, Any]:
    """One deal as a record writes it."""
    out: dict[str, Any] = {"declarer": deal.declarer}
    if deal.contract is not None:
        out["contract"] = deal.contract.id
    if deal.trump is not None:
        out["trump"] = SUITS[deal.trump]
    if deal.rank is not None and deal.rules.flags.domino_start == "named":
        out["rank"] = RANKS[deal.rank]
    if deal.doubling is not None and deal.doubling.calls:
        out["calls"] = [call_json(c.seat, c.said) for c in deal.doubling.calls]
    if deal.dealt is not None:
        out["hands"] = [pbn(h) for h in deal.dealt]
        if deal.contract is not None and deal.contract.play == "arrange":
            if deal.arrangements:
                out["play"] = [[card_name(c) for c in a] for a in deal.arrangements if a is not None]
        elif not deal.skipped and deal.phase in (Phase.PLAY, Phase.DONE):
            out["play"] = [card_name(c) if c is not None else "pass" for c in deal.plays]
    elif deal.tally is not None and not deal.skipped:
        out["tally"] = tally_json(deal.tally)
    if deal.final is not None:
        out["score"] = list(deal.final)
    return out


def game_to_record(game: Game, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``game`` (every deal so far, the one in progress included).

    The dealer's seed is never written; unplayed hands are (a record is for after the game,
    or for the server's own storage).
    """
    doc: dict[str, Any] = {"format": FORMAT, "variant": game.rules.name}
    options = game.rules.as_options()
    if options:
        doc["options"] = options
    if players is not None:
        doc["players"] = list(players)
    doc["first_declarer"] = game.first_declarer
    doc["deals"] = [deal_json(d) for d in game.deals if d.started or d.finished or d.dealt is not None]
    return doc


__all__ = ["FORMAT", "call_json", "check_document", "deal_json", "game_from_record", "game_to_record"]
