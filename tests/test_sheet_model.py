"""The score sheet model: scoring agrees with ``barbu replay``, refusals, edits, history."""

from __future__ import annotations

import copy
import functools
from typing import Any

import pytest

from barbu.cli.simulate import simulate
from barbu.record import deal_json, game_from_record
from barbu.replay import replay_json
from barbu.rulesets import RULE_SETS, rules
from barbu.sheet import DealEntry, Double, LaterDealError, Sheet, SheetError, fill, fill_all
from barbu.sheet.doubles import calls_of_grid
from barbu.sheet.history import SheetHistory
from barbu.tally import tally_json

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
E = DealEntry


@functools.cache
def played_record(variant: str, seed: int = 11, options: tuple[tuple[str, Any], ...] = ()) -> dict[str, Any]:
    """A whole simulated game of ``variant`` (hands and play recorded)."""
    doc = simulate(games=1, seed=seed, variant=variant, options=dict(options))[0].record
    doc["players"] = NAMES[: len(doc["players"])]
    return doc


def tallied(doc: dict[str, Any]) -> dict[str, Any]:
    """The same game as a tallied record, each played deal replaced by its tally (by the core)."""
    game = game_from_record(doc)
    out = {k: copy.deepcopy(v) for k, v in doc.items() if k != "deals"}
    out["deals"] = []
    for deal in game.deals:
        if not deal.finished:
            continue
        d = deal_json(deal)
        d.pop("hands", None)
        d.pop("play", None)
        d.pop("score", None)
        if not deal.skipped:
            d["tally"] = tally_json(deal.tally)
        out["deals"].append(d)
    return out


@pytest.mark.parametrize("variant", list(RULE_SETS))
def test_sheet_scores_agree_with_replay(variant: str) -> None:
    played = played_record(variant)
    doc = tallied(played)
    expected = replay_json(doc)
    assert expected["valid"] and expected["complete"]
    assert expected["totals"] == replay_json(played)["totals"]
    sheet = Sheet.from_record(doc)
    assert sheet.complete and sheet.totals == expected["totals"]
    assert sheet.ranking == expected["ranking"]
    for row, d in zip(sheet.rows, expected["deals"], strict=True):
        assert (row.contract, row.declarer, row.played) == (d["contract"], d["declarer"], d["played"])
        assert (row.raw, row.adjustments, row.final) == (d["raw"], d["adjustments"], d["final"])
        assert sorted(p.to_json()["seats"] for p in row.pairs) == [p["seats"] for p in d["pairs"]]
    # The sheet's own record replays to the same scores.
    again = replay_json(sheet.record())
    assert again["totals"] == expected["totals"] and again["deals"] == expected["deals"]


@pytest.mark.parametrize("variant", ["classic", "chinese-poker", "five-player", "french", "king"])
def test_entering_every_deal_through_the_model_gives_the_same_sheet(variant: str) -> None:
    source = Sheet.from_record(tallied(played_record(variant)))
    sheet = Sheet.new(variant, source.options, source.players, source.first_declarer)
    for row in source.rows:
        entry = DealEntry.from_json(row.entry.to_json())  # as a web page would send it
        assert sheet.preview(entry).final == row.final
        sheet = sheet.add(entry)
    assert sheet.totals == source.totals and sheet.complete
    assert replay_json(sheet.record())["totals"] == replay_json(played_record(variant))["totals"]


def classic_sheet() -> Sheet:
    return Sheet.new("classic", players=NAMES[:4])


def test_worked_examples_of_the_rules() -> None:
    sheet = classic_sheet()
    # W2: no queens, a redouble and a pair between non-declarers.
    sheet = sheet.add(
        E("no-queens", doubles=(Double(1, 0, True), Double(2, 0), Double(2, 1)), tally={"queens": [0, 2, 1, 1]})
    )
    assert sheet.rows[-1].final == [30, -42, -6, -6]
    # W3: no tricks, all three double the declarer.
    sheet = sheet.add(
        E("no-tricks", doubles=(Double(1, 0), Double(2, 0), Double(3, 0)), tally={"tricks": [2, 5, 3, 3]})
    )
    assert sheet.rows[-1].final == [6, -16, -8, -8]
    # W4: trumps with a redouble.
    sheet = sheet.add(
        E("trumps", trump="S", doubles=(Double(1, 0), Double(3, 0, True)), tally={"tricks": [6, 3, 2, 2]})
    )
    assert sheet.rows[-1].final == [85, 0, 10, -30]
    # W5: domino with doubles.
    sheet = sheet.add(E("domino", rank="7", doubles=(Double(1, 0), Double(2, 0)), tally={"order": [2, 0, 3, 1]}))
    assert sheet.rows[-1].final == [20, -30, 70, 5]
    # W1: skip splits of the undoubled negatives.
    sheet = sheet.add(E("no-king"))
    assert sheet.rows[-1].status == "skipped" and sheet.rows[-1].final == [1, -7, -7, -7]
    assert sheet.rows[-1].shortcut is not None and not sheet.rows[-1].played
    assert sheet.totals == [142, -95, 59, -46]


def test_skip_shortcut_shows_in_preview_before_any_tally() -> None:
    row = classic_sheet().preview(E("no-last-two"))
    assert row.status == "skipped" and row.final == [0, -10, -10, -10] and row.tally is None
    pending = classic_sheet().preview(E("no-last-two", doubles=(Double(2, 3),)))
    assert pending.status == "pending" and pending.final is None


def refused(sheet: Sheet, entry: DealEntry, kind: str, words: str) -> SheetError:
    before = sheet.record()
    with pytest.raises(SheetError) as info:
        sheet.add(entry)
    assert info.value.kind == kind, info.value.message
    assert words in info.value.message, info.value.message
    assert sheet.record() == before  # nothing changed
    return info.value


def test_refusals_say_what_is_wrong() -> None:
    sheet = classic_sheet().add(E("no-queens", doubles=(Double(1, 0),), tally={"queens": [1, 1, 1, 1]}))
    # Tallies that do not add up, or do not fit the contract.
    refused(sheet, E("no-tricks", doubles=(Double(1, 0),), tally={"tricks": [4, 4, 4, 4]}), "tally", "add up to 13")
    refused(
        sheet,
        E("no-hearts", doubles=(Double(1, 0),), tally={"hearts": [13, 0, 0, 0], "ace_of_hearts": 1}),
        "tally",
        "at least 1",
    )
    refused(
        sheet,
        E("no-hearts", doubles=(Double(1, 0),), tally={"hearts": [13, 0, 0, 0]}),
        "tally",
        "missing ace_of_hearts",
    )
    refused(sheet, E("domino", rank="7", doubles=(Double(1, 0),), tally={"order": [0, 1, 1, 2]}), "tally", "every seat")
    refused(sheet, E("no-king", tally={"king_of_hearts": 1}), "tally", "not played")
    # A double the rules do not allow.
    refused(
        sheet,
        E("trumps", trump="H", doubles=(Double(2, 1),), tally={"tricks": [4, 3, 3, 3]}),
        "call",
        "only the declarer (seat 0) may be doubled",
    )
    refused(
        sheet, E("no-king", doubles=(Double(0, 1),), tally={"king_of_hearts": 1}), "call", "declarer and never doubles"
    )
    refused(sheet, E("no-king", doubles=(Double(1, 0), Double(0, 1))), "call", "at most one pair")
    refused(sheet, E("no-king", doubles=(Double(1, 7),)), "call", "not at this table")
    # The contract already used by this declarer, or not given.
    error = refused(sheet, E("no-queens", tally={"queens": [1, 1, 1, 1]}), "contract", "cannot declare 'no-queens'")
    assert error.deal == 2 and error.seat == 0
    refused(sheet, E(None), "contract", "the contracts left are no-tricks")
    refused(sheet, E("trumps", doubles=(Double(1, 0),), tally={"tricks": [4, 3, 3, 3]}), "trump", "needs its trump")
    refused(sheet, E("no-king", trump="S"), "trump", "has no trump suit")
    refused(sheet, E("trumps", trump="X"), "trump", "one of S, H, D, C")
    refused(sheet, E("domino", doubles=(Double(1, 0),)), "rank", "needs its starting rank")


def test_a_missing_compulsory_double_is_refused() -> None:
    sheet = classic_sheet()
    contracts = ["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two"]
    tallies = [
        {"tricks": [4, 3, 3, 3]},
        {"hearts": [1, 4, 4, 4], "ace_of_hearts": 1},
        {"queens": [1, 1, 1, 1]},
        {"king_of_hearts": 2},
        {"second_last": 1, "last": 2},
    ]
    for i, (c, t) in enumerate(zip(contracts, tallies, strict=True)):
        doubles = (Double(1, 0), Double(3, 0)) if i == 0 else (Double(1, 0),)
        sheet = sheet.add(E(c, doubles=doubles, tally=t))
    nxt = sheet.next
    assert nxt is not None and nxt.number == 6 and nxt.forced == (2,)
    refused(
        sheet,
        E("trumps", trump="C", doubles=(Double(1, 0), Double(3, 0)), tally={"tricks": [4, 3, 3, 3]}),
        "call",
        "seat 2 must double the declarer (seat 0)",
    )
    sheet = sheet.add(E("trumps", trump="C", doubles=(Double(2, 0),), tally={"tricks": [4, 3, 3, 3]}))
    assert sheet.next is not None and sheet.next.forced == (2, 3)
    # Editing deal 1 so that Dan never doubled makes deal 6 miss Dan's compulsory double.
    with pytest.raises(LaterDealError) as info:
        sheet.edit(1, E("no-tricks", doubles=(Double(1, 0),), tally={"tricks": [4, 3, 3, 3]}))
    assert info.value.deal == 6 and info.value.changed == 1 and "seat 3 must double" in info.value.message


def test_late_redouble_needs_the_flag() -> None:
    grid = (Double(3, 1, True),)
    calls = calls_of_grid(grid, rules("classic"), declarer=0)
    assert [(s, str(c)) for s, c in calls][-1] == (1, "redouble P3")
    sheet = Sheet.new("classic", {"late_redouble": False})
    with pytest.raises(SheetError, match="late redoubles are off"):
        sheet.add(E("no-king", doubles=grid))
    assert (
        sheet.add(E("no-king", doubles=(Double(3, 1),), tally={"king_of_hearts": 1})).rows[0].pairs[0].multiplier == 1
    )


def test_fill_words_match_the_core() -> None:
    r = rules("classic")
    everyone = fill_all((), "max", r, 0, "no-tricks")
    assert all(d.redoubled for d in everyone) and len(everyone) == 6
    sheet = classic_sheet().add(E("no-tricks", doubles=everyone, tally={"tricks": [4, 3, 3, 3]}))
    assert [p.multiplier for p in sheet.rows[0].pairs] == [2] * 6
    flanks = fill((), 1, "flanks", r, 0, "no-tricks")
    assert [str(d) for d in flanks] == ["1>2", "1>3"]
    assert fill(fill((), 1, "max", r, 0, "no-tricks"), 1, "pass", r, 0, "no-tricks") == ()
    with pytest.raises(SheetError, match="flanks is not allowed"):
        fill((), 1, "flanks", r, 0, "trumps")
    with pytest.raises(SheetError, match="never doubles"):
        fill((), 0, "flanks", r, 0, "no-tricks")


def full_classic(seed: int = 11) -> Sheet:
    return Sheet.from_record(tallied(played_record("classic", seed)))


def test_edit_an_early_deal_recomputes_everything_after() -> None:
    sheet = full_classic()
    doc = tallied(played_record("classic"))
    old = sheet.rows[1]
    tally = old.tally
    assert tally is not None and old.status == "scored"
    key = next(k for k, v in tally.items() if isinstance(v, list) and not isinstance(v[0], list))
    changed = {**tally, key: tally[key][1:] + tally[key][:1]}  # the same counts, moved one seat
    edited = sheet.edit(2, DealEntry(old.contract, old.trump, old.rank, old.doubles, changed))
    doc["deals"][1]["tally"] = changed
    expected = replay_json(doc)
    assert expected["valid"]
    assert edited.totals == expected["totals"] != sheet.totals
    assert [r.totals for r in edited.rows][-1] == expected["totals"]
    assert edited.rows[5].final == sheet.rows[5].final  # later deals are kept
    assert sheet.totals == replay_json(tallied(played_record("classic")))["totals"]  # the old sheet is unchanged


def test_an_edit_that_breaks_a_later_deal_is_refused_or_drops_it() -> None:
    sheet = full_classic()
    first = sheet.rows[0]
    later = next(r for r in sheet.rows[1:] if r.declarer == first.declarer and r.status == "scored")
    e1, e2 = first.entry, later.entry
    with pytest.raises(LaterDealError) as info:
        sheet.edit(1, e2)
    assert info.value.deal == later.number and "cannot declare" in info.value.message
    assert info.value.as_json()["later"] is True
    # Two contracts entered the wrong way round are fixed together ...
    swapped = sheet.edit_many({1: e2, later.number: e1})
    assert swapped.rows[0].contract == later.contract and len(swapped.rows) == 28
    assert swapped.edit_many({1: e1, later.number: e2}) == sheet
    # ... or the edit is kept and the deals from the broken one on are dropped.
    dropped = sheet.edit(1, e2, drop_later=True)
    assert len(dropped.rows) == later.number - 1 and dropped.rows[0].final == later.final


def test_delete_and_insert_move_the_later_deals() -> None:
    sheet = classic_sheet()
    sheet = sheet.add(E("no-king"))
    sheet = sheet.add(E("no-queens", doubles=(Double(2, 0),), tally={"queens": [0, 0, 4, 0]}))
    sheet = sheet.add(E("no-tricks"))
    deleted = sheet.delete(2)
    assert [r.contract for r in deleted.rows] == ["no-king", "no-tricks"]
    assert deleted.insert(2, sheet.entry(2)) == sheet
    with pytest.raises(SheetError, match="there is no deal 9"):
        sheet.delete(9)
    # A seventh deal of a set moved into the next declarer's set no longer fits.
    full = full_classic()
    with pytest.raises(LaterDealError) as info:
        full.insert(3, E("no-king"))
    assert "inserting deal 3" in info.value.message


def test_pending_tally_and_history() -> None:
    history = SheetHistory(classic_sheet())
    history.add(E("trumps", trump="D", doubles=(Double(2, 0),)))
    assert history.sheet.pending is not None and history.sheet.next is None
    with pytest.raises(SheetError, match="waits for its tally"):
        history.add(E("no-king"))
    history.enter_tally({"tricks": [5, 3, 3, 2]})
    assert history.sheet.rows[0].final == [35, 15, 5, 10]
    history.edit({1: E("trumps", trump="D", tally={"tricks": [5, 3, 3, 2]})})
    assert history.sheet.rows[0].final == [25, 15, 15, 10]
    history.undo()
    assert history.sheet.rows[0].final == [35, 15, 5, 10]
    history.rename(["A", "B", "C", "D"])  # a new change after an undo drops the redo
    assert not history.can_redo and history.sheet.players == ("A", "B", "C", "D")
    again = SheetHistory.from_json(history.to_json())
    assert again.sheet == history.sheet and again.position == history.position
    again.undo()
    again.undo()
    assert again.sheet.pending is not None
    with pytest.raises(SheetError, match="nothing to redo"):
        SheetHistory(classic_sheet()).redo()


def test_french_and_king_entries() -> None:
    french = Sheet.new("french", players=NAMES[:4])
    assert french.next is not None and french.next.fixed and french.next.contracts[0].id == "no-tricks"
    with pytest.raises(SheetError, match="fixed order"):
        french.add(E("no-hearts", tally={"hearts": [13, 0, 0, 0]}))
    with pytest.raises(SheetError, match="entered whole"):
        french.add(E())
    french = french.add(E(tally={"tricks": [13, 0, 0, 0]}))
    assert french.rows[0].final == [65, 0, 0, 0] and french.ranking == [4, 1, 1, 1]
    king = Sheet.new("king", players=NAMES[:4], first_declarer=2)
    with pytest.raises(SheetError, match="no doubling"):
        king.add(E("king-no-queens", doubles=(Double(1, 2),), tally={"queens": [1, 1, 1, 1]}))
    king = king.add(E("king-trumps", trump="S", tally={"tricks": [1, 2, 3, 7]}))
    assert king.next is not None and king.next.declarer == 1  # anticlockwise


def test_state_is_json_for_a_web_page() -> None:
    import json

    sheet = classic_sheet().add(E("trumps", trump="S", doubles=(Double(1, 0),), tally={"tricks": [6, 3, 2, 2]}))
    state = json.loads(json.dumps(sheet.state()))
    assert state["deals"][0]["pairs"] == [{"seats": [0, 1], "doubler": 1, "doubled": 0, "multiplier": 1, "delta": -15}]
    nxt = state["next"]
    assert nxt["number"] == 2 and "trumps" not in [c["id"] for c in nxt["contracts"]]
    no_tricks = next(c for c in nxt["contracts"] if c["id"] == "no-tricks")
    assert no_tricks["may_double"]["1"] == [0, 2, 3] and no_tricks["tally_keys"] == ["tricks"]
    assert state["tally_totals"]["tricks"] == 13 and state["players"] == NAMES[:4]
    with pytest.raises(SheetError) as info:
        DealEntry.from_json({"contract": "trumps", "colour": "red"})
    assert info.value.as_json()["kind"] == "deal"


def test_players_must_be_distinct_names() -> None:
    with pytest.raises(SheetError, match="two players are called"):
        Sheet.new("classic", players=["Ann", "ann", "Cat", "Dan"])
    with pytest.raises(SheetError, match="numbers mean seats"):
        Sheet.new("classic", players=["Ann", "2", "Cat", "Dan"])
    with pytest.raises(SheetError, match="give 4 player names"):
        Sheet.new("classic", players=["Ann"])
