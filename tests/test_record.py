"""Records and ``barbu replay``: golden records, every fault located as RECORD.md says."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from barbu.cli.simulate import simulate
from barbu.record import game_from_record, game_to_record
from barbu.replay import replay_json

RECORDS = Path(__file__).parent / "records"
HANDS = ["AK73.QJ5.T9.8765", "T864.932.A43.KQJ", "Q9.T84.KQJ65.T94", "J52.AK76.872.A32"]


def doc(*deals: dict[str, Any], **top: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"format": "barbu-record/1", "variant": "classic", "deals": list(deals)}
    out.update(top)
    return out


def error(d: dict[str, Any]) -> dict[str, Any]:
    out = replay_json(d)
    assert out["valid"] is False, out
    assert set(out) == {"valid", "error"}
    return out["error"]  # type: ignore[no-any-return]


PASSES = [{"seat": 1}, {"seat": 2}, {"seat": 3}, {"seat": 0}]


# -- golden records -------------------------------------------------------------


@pytest.mark.parametrize(
    "name, totals",
    [("w2-no-queens-pairs.json", [30, -42, -6, -6]), ("w4-trumps-redouble.json", [85, 0, 10, -30])],
)
def test_shared_examples_replay_to_their_stated_totals(name: str, totals: list[int]) -> None:
    out = replay_json(json.loads((RECORDS / name).read_text()))
    assert out["valid"] and out["totals"] == totals
    assert out["deals"][0]["final"] == totals


def test_the_played_deal_of_record_md_gives_the_exact_documented_output() -> None:
    out = replay_json(json.loads((RECORDS / "recordmd-w4-played.json").read_text()))
    assert out == json.loads((RECORDS / "recordmd-w4-played.expected.json").read_text())


def test_w3_tallied_no_tricks_all_double() -> None:
    calls = [{"seat": 1, "double": [0]}, {"seat": 2, "double": [0]}, {"seat": 3, "double": [0]}, {"seat": 0}]
    out = replay_json(doc({"declarer": 0, "contract": "no-tricks", "calls": calls, "tally": {"tricks": [2, 5, 3, 3]}}))
    assert out["deals"][0]["raw"] == [-4, -10, -6, -6]
    assert out["deals"][0]["final"] == [6, -16, -8, -8]


def test_w5_domino_with_doubles() -> None:
    calls = [{"seat": 1, "double": [0]}, {"seat": 2, "double": [0]}, {"seat": 3}, {"seat": 0}]
    d = {"declarer": 0, "contract": "domino", "rank": "7", "calls": calls, "tally": {"order": [2, 0, 3, 1]}}
    out = replay_json(doc(d))
    assert out["deals"][0]["raw"] == [20, -5, 45, 5]
    assert out["deals"][0]["final"] == [20, -30, 70, 5]


@pytest.mark.parametrize(
    "contract, expected",
    [
        ("no-tricks", [1, -9, -9, -9]),
        ("no-hearts", [0, -10, -10, -10]),
        ("no-queens", [0, -8, -8, -8]),
        ("no-king", [1, -7, -7, -7]),
        ("no-last-two", [0, -10, -10, -10]),
    ],
)
def test_w1_undoubled_negative_is_skipped_and_divided(contract: str, expected: list[int]) -> None:
    out = replay_json(doc({"declarer": 0, "contract": contract, "calls": PASSES}))
    assert out["deals"][0] == {
        "declarer": 0,
        "contract": contract,
        "raw": expected,
        "adjustments": [0, 0, 0, 0],
        "final": expected,
        "pairs": [],
        "played": False,
    }


def test_w1_skip_with_the_declarer_elsewhere_and_five_players() -> None:
    calls = [{"seat": s} for s in (1, 2, 3, 4, 0)]
    out = replay_json(
        {
            "format": "barbu-record/1",
            "variant": "five-player",
            "deals": [{"declarer": 0, "contract": "no-last-two", "calls": calls}],
        }
    )
    assert out["deals"][0]["raw"] == [2, -8, -8, -8, -8]


# -- the document ----------------------------------------------------------------


def test_not_an_object_or_wrong_format_is_a_usage_error(tmp_path: Path) -> None:
    for text, in_json in (("[1, 2]", True), ('{"format": "pgn"}', True), ("{not json", True), ("[]", False)):
        f = tmp_path / "r.json"
        f.write_text(text)
        args = [sys.executable, "-m", "barbu", "replay", str(f)] + (["--json"] if in_json else [])
        done = subprocess.run(args, capture_output=True, text=True)
        assert done.returncode == 2, done
        if in_json:
            out = json.loads(done.stdout)
            assert out["valid"] is False and set(out) == {"valid", "usage"}
    done = subprocess.run(
        [sys.executable, "-m", "barbu", "replay", str(tmp_path / "missing.json"), "--json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2


def test_exit_codes_and_standard_input() -> None:
    """(The same without --json, printed as a table, is in test_cli.py.)"""
    good = json.dumps(doc({"declarer": 0, "contract": "no-tricks", "calls": PASSES}))
    done = subprocess.run(
        [sys.executable, "-m", "barbu", "replay", "-", "--json"],
        input=good,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and json.loads(done.stdout)["valid"] is True
    bad = json.dumps(doc({"declarer": 1}))
    done = subprocess.run(
        [sys.executable, "-m", "barbu", "replay", "-", "--json"], input=bad, capture_output=True, text=True
    )
    assert done.returncode == 1
    error = json.loads(done.stdout)["error"]
    assert (error["deal"], error["kind"]) == (1, "declarer")


@pytest.mark.parametrize(
    "top, fragment",
    [
        ({"variant": None}, "variant"),
        ({"variant": "bridge"}, "bridge"),
        ({"options": {"colour": "red"}}, "colour"),
        ({"options": {"compulsory_doubles": 8}}, "compulsory_doubles"),
        ({"options": {"first_five_only": True}}, "first_five_only"),
        ({"options": {"player_count": 4}}, "player_count"),
        ({"players": ["A", "B", "C"]}, "players"),
        ({"first_declarer": 4}, "first_declarer"),
        ({"first_declarer": True}, "first_declarer"),
        ({"deals": {}}, "deals"),
    ],
)
def test_document_faults_are_kind_record(top: dict[str, Any], fragment: str) -> None:
    d = doc()
    d.update(top)
    if top.get("variant", "") is None:
        del d["variant"]
    e = error(d)
    assert e["kind"] == "record" and e["deal"] is None and e["index"] is None and e["seat"] is None
    assert fragment in e["message"]


def test_doubling_flags_do_not_apply_to_king_and_french() -> None:
    for variant in ("king", "french"):
        e = error({"format": "barbu-record/1", "variant": variant, "options": {"rotation": "quick"}, "deals": []})
        assert e["kind"] == "record"
    e = error({"format": "barbu-record/1", "variant": "king", "options": {"late_redouble": False}, "deals": []})
    assert e["kind"] == "record"


def test_too_many_deals_is_reported_at_the_first_extra_deal() -> None:
    deals = [{"declarer": 0}] * 29
    e = error(doc(*deals))
    assert e["kind"] == "record" and e["deal"] == 29


# -- deal faults ----------------------------------------------------------------------


def test_wrong_declarer() -> None:
    first = {"declarer": 0, "contract": "no-tricks", "calls": PASSES}
    e = error(doc(first, {"declarer": 1}))
    assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("declarer", 2, None, None)
    quick = {
        "format": "barbu-record/1",
        "variant": "classic",
        "options": {"rotation": "quick"},
        "deals": [first, {"declarer": 1}],
    }
    assert replay_json(quick)["valid"] is True


def test_bad_hands() -> None:
    twice = ["AK73.QJ5.T9.8765", "AK73.QJ5.T9.8765", "Q9.T84.KQJ65.T94", "J52.AK76.872.A32"]
    e = error(doc({"declarer": 0, "hands": twice}))
    assert (e["kind"], e["deal"], e["seat"]) == ("hands", 1, None)
    short = ["AK73.QJ5.T9.876", *HANDS[1:]]
    assert error(doc({"declarer": 0, "hands": short}))["kind"] == "hands"
    assert error(doc({"declarer": 0, "hands": ["xyz", *HANDS[1:]]}))["kind"] == "hands"


def test_contract_faults_name_the_declarer() -> None:
    first = {"declarer": 0, "contract": "no-queens", "calls": PASSES}
    e = error(doc(first, {"declarer": 0, "contract": "no-queens", "calls": PASSES}))
    assert (e["kind"], e["deal"], e["seat"]) == ("contract", 2, 0)
    assert "no-queens" in e["message"]
    e = error(doc({"declarer": 0, "contract": "ravage-city"}))
    assert (e["kind"], e["seat"]) == ("contract", 0)
    e = error(doc({"declarer": 0, "calls": PASSES}))
    assert (e["kind"], e["seat"]) == ("contract", 0)


def test_trump_and_rank_faults() -> None:
    e = error(doc({"declarer": 0, "contract": "trumps", "calls": [{"seat": 1}]}))
    assert (e["kind"], e["seat"]) == ("trump", 0)
    e = error(doc({"declarer": 0, "contract": "trumps", "trump": "N"}))
    assert (e["kind"], e["seat"]) == ("trump", 0)
    e = error(doc({"declarer": 0, "contract": "no-tricks", "trump": "S"}))
    assert e["kind"] == "trump"
    e = error(doc({"declarer": 0, "contract": "no-tricks", "rank": "7"}))
    assert e["kind"] == "rank"
    e = error(doc({"declarer": 0, "contract": "domino", "rank": "1"}))
    assert (e["kind"], e["seat"]) == ("rank", 0)
    ok = replay_json(doc({"declarer": 0, "contract": "domino", "rank": "10"}))
    assert ok["next"]["phase"] == "call"


def test_call_out_of_turn_and_illegal_double() -> None:
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": [{"seat": 2}]}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 1, 1)
    calls = [{"seat": 1}, {"seat": 2, "double": [1]}]
    e = error(doc({"declarer": 0, "contract": "trumps", "trump": "S", "calls": calls}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 2, 2)
    calls = [{"seat": 1}, {"seat": 2}, {"seat": 3}, {"seat": 0, "double": [1]}]
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 4, 0)
    calls = [{"seat": 1, "double": [0]}, {"seat": 2}, {"seat": 3}, {"seat": 0, "redouble": [2]}]
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 4, 0)
    calls = [{"seat": 1, "call": "maximum", "double": [0]}]
    assert error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}))["kind"] == "call"


def test_calls_after_the_end_have_no_seat() -> None:
    calls = [*PASSES[:3], {"seat": 0}, {"seat": 1}]
    calls[0] = {"seat": 1, "double": [2]}
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 5, None)


def _set_of(contracts: list[str], declarer: int = 0) -> list[dict[str, Any]]:
    return [{"declarer": declarer, "contract": c, "calls": PASSES} for c in contracts]


def test_compulsory_double_is_enforced_at_the_sixth_contract() -> None:
    deals = _set_of(["no-tricks", "no-hearts", "no-queens", "no-king", "no-last-two"])
    sixth = {"declarer": 0, "contract": "trumps", "trump": "S", "calls": [{"seat": 1}]}
    e = error(doc(*deals, sixth))
    assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("call", 6, 1, 1)
    waiting = replay_json(doc(*deals))
    assert waiting["next"]["phase"] == "contract"
    sixth = {"declarer": 0, "contract": "trumps", "trump": "S"}
    out = replay_json(doc(*deals, sixth))
    assert out["next"] == {
        "deal": 6,
        "phase": "call",
        "seat": 1,
        "may_double": [0],
        "may_redouble": [],
        "must_double": [0],
    }


def test_round_one_incomplete_before_a_tally() -> None:
    calls = [{"seat": 1, "double": [0]}, {"seat": 2}]
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls, "tally": {"tricks": [2, 5, 3, 3]}}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 3, 3)


def test_missing_round_two_calls_are_declines_only_when_later_content_exists() -> None:
    calls = [{"seat": 1}, {"seat": 2, "double": [1]}, {"seat": 3}, {"seat": 0}]
    waiting = replay_json(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}))
    assert waiting["next"] == {
        "deal": 1,
        "phase": "call",
        "seat": 1,
        "may_double": [],
        "may_redouble": [2],
        "must_double": [],
    }
    tallied = replay_json(
        doc({"declarer": 0, "contract": "no-tricks", "calls": calls, "tally": {"tricks": [2, 5, 3, 3]}})
    )
    assert tallied["valid"] and tallied["deals"][0]["pairs"] == [{"seats": [1, 2], "multiplier": 1}]
    followed = replay_json(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}, {"declarer": 0}))
    assert followed["valid"] is False and followed["error"]["kind"] == "tally"


def test_late_redouble_in_round_two() -> None:
    calls = [
        {"seat": 1},
        {"seat": 2, "double": [1]},
        {"seat": 3},
        {"seat": 0},
        {"seat": 1, "call": "maximum"},
    ]
    out = replay_json(doc({"declarer": 0, "contract": "no-tricks", "calls": calls, "tally": {"tricks": [2, 5, 3, 3]}}))
    assert out["deals"][0]["pairs"] == [{"seats": [1, 2], "multiplier": 2}]
    calls[-1] = {"seat": 1, "double": [3]}
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls}))
    assert (e["kind"], e["index"], e["seat"]) == ("call", 5, 1)


def test_skipped_deal_faults() -> None:
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": PASSES, "tally": {"tricks": [2, 5, 3, 3]}}))
    assert e["kind"] == "tally"
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": PASSES, "hands": HANDS, "play": ["7S"]}))
    assert (e["kind"], e["index"], e["seat"]) == ("play", 1, None)
    ok = replay_json(doc({"declarer": 0, "contract": "no-tricks", "calls": PASSES, "hands": HANDS}))
    assert ok["valid"] and ok["deals"][0]["played"] is False


def test_tally_faults() -> None:
    calls = [{"seat": 1, "double": [0]}, {"seat": 2}, {"seat": 3}, {"seat": 0}]
    base = {"declarer": 0, "contract": "no-hearts", "calls": calls}
    for tally in (
        {"hearts": [3, 3, 3, 3], "ace_of_hearts": 0},
        {"hearts": [4, 3, 3, 3]},
        {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0, "queens": [1, 1, 1, 1]},
        {"hearts": [0, 4, 6, 3], "ace_of_hearts": 0},
        {"hearts": [4, 3, 3, 3], "ace_of_hearts": 4},
    ):
        e = error(doc({**base, "tally": tally}))
        assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("tally", 1, None, None), tally
    e = error(doc({**base, "tally": {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0}, "hands": HANDS}))
    assert e["kind"] == "tally"
    ok = replay_json(doc({**base, "tally": {"hearts": [4, 3, 3, 3], "ace_of_hearts": 0}}))
    assert ok["deals"][0]["raw"] == [-12, -6, -6, -6]


def test_play_without_hands() -> None:
    calls = [{"seat": 1, "double": [0]}, {"seat": 2}, {"seat": 3}, {"seat": 0}]
    e = error(doc({"declarer": 0, "contract": "no-tricks", "calls": calls, "play": ["7S"]}))
    assert (e["kind"], e["index"], e["seat"]) == ("hands", None, None)


def _w4(play: list[str]) -> dict[str, Any]:
    d = json.loads((RECORDS / "recordmd-w4-played.json").read_text())
    d["deals"][0]["play"] = play
    del d["deals"][0]["score"]
    return d  # type: ignore[no-any-return]


def test_illegal_cards_are_located_with_the_rule_broken() -> None:
    e = error(_w4(["7S", "6S"]))
    assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("play", 1, 2, 1)
    assert "6S is not legal" in e["message"] and "7S" in e["message"]
    e = error(_w4(["7S", "9H"]))
    assert "follow spades" in e["message"]
    e = error(_w4(["7S", "AS"]))
    assert (e["index"], e["seat"]) == (2, 1) and "not in seat 1's hand" in e["message"]
    e = error(_w4(["7S", "8S", "QS", "2S", "XX"]))
    assert (e["kind"], e["index"], e["seat"]) == ("play", 5, 2)


def test_entries_after_the_end_and_wrong_scores() -> None:
    full = json.loads((RECORDS / "recordmd-w4-played.json").read_text())
    extra = copy.deepcopy(full)
    extra["deals"][0]["play"].append("2D")
    e = error(extra)
    assert (e["kind"], e["index"], e["seat"]) == ("play", 53, None)
    wrong = copy.deepcopy(full)
    wrong["deals"][0]["score"] = [85, 0, 10, -29]
    e = error(wrong)
    assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("score", 1, None, None)
    partial = _w4(["7S"])
    partial["deals"][0]["score"] = [0, 0, 0, 0]
    assert error(partial)["kind"] == "score"


def test_next_lists_legal_cards_sorted() -> None:
    out = replay_json(_w4(["7S"]))
    assert out["next"] == {"deal": 1, "phase": "play", "seat": 1, "legal": ["8S", "TS"]}
    out = replay_json(_w4([]))
    assert out["next"]["legal"][:4] == ["3S", "7S", "KS", "AS"] and out["next"]["seat"] == 0


def test_unfinished_deal_followed_by_another_is_a_fault_of_its_phase() -> None:
    nxt = {"declarer": 0, "contract": "no-tricks", "calls": PASSES}
    e = error(doc({"declarer": 0}, nxt))
    assert (e["kind"], e["deal"], e["seat"]) == ("contract", 1, 0)
    e = error(doc({"declarer": 0, "contract": "trumps"}, nxt))
    assert (e["kind"], e["deal"]) == ("trump", 1)
    e = error(doc({"declarer": 0, "contract": "no-queens", "calls": [{"seat": 1}]}, nxt))
    assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("call", 1, 2, 2)
    e = error(_w4(["7S", "8S"]) | {"deals": [*_w4(["7S", "8S"])["deals"], nxt]})
    assert (e["kind"], e["deal"], e["index"], e["seat"]) == ("play", 1, 3, 2)


def test_domino_readers_accept_omitted_forced_passes() -> None:
    checked = 0
    for result in simulate(games=3, seed=4, variant="classic"):
        for i, deal in enumerate(result.record["deals"]):
            if deal.get("contract") != "domino" or "pass" not in deal.get("play", []):
                continue
            shortened = copy.deepcopy(result.record)
            shortened["deals"][i]["play"] = [c for c in deal["play"] if c != "pass"]
            out = replay_json(shortened)
            assert out["valid"], out
            assert out["totals"] == result.totals
            checked += 1
    assert checked >= 2


def test_a_voluntary_domino_pass_is_illegal() -> None:
    hands = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
    calls = [{"seat": 1}, {"seat": 2}, {"seat": 3}, {"seat": 0}]
    d = doc({"declarer": 0, "contract": "domino", "rank": "7", "calls": calls, "hands": hands, "play": ["pass"]})
    e = error(d)
    assert (e["kind"], e["index"], e["seat"]) == ("play", 1, 0)
    assert "7S" in e["message"]


def test_complete_game_reports_ranking_and_winners() -> None:
    for variant in ("classic", "king", "french"):
        (result,) = simulate(games=1, seed=11, variant=variant)
        out = replay_json(result.record)
        assert out["complete"] is True and "next" not in out
        assert out["ranking"] == result.ranking
        assert out["winners"] == [s for s, r in enumerate(result.ranking) if r == 1]
        assert ("winners_turkish" in out) == (variant == "king")


@pytest.mark.parametrize(
    "variant, options",
    [
        ("classic", {}),
        ("classic", {"rotation": "quick", "late_redouble": False}),
        ("ravage-city", {}),
        ("chinese-poker", {}),
        ("salad", {"player_count": 5}),
        ("five-player", {}),
        ("french", {"player_count": 3}),
        ("king", {}),
        ("thirty-two", {}),
    ],
)
def test_write_read_replay_is_the_identity(variant: str, options: dict[str, Any]) -> None:
    for result in simulate(games=1, seed=2, variant=variant, options=options):
        text = json.dumps(result.record)
        game = game_from_record(json.loads(text))
        assert game.totals == result.totals
        assert game_to_record(game, result.record.get("players")) == json.loads(text)
        assert replay_json(json.loads(text))["totals"] == result.totals
