"""The lobby's table settings: any JSON at all is either accepted or refused with ``bad_request``."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from barbu.bots import bot_levels
from barbu.rulesets import RULE_SETS
from barbu.server.lobby import check_spec
from barbu.server.protocol import ProtocolError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
seat = st.fixed_dictionaries(
    {"kind": st.sampled_from(["human", "bot"]) | json_values},
    optional={"level": st.sampled_from(list(bot_levels())) | json_values, "name": st.text(max_size=50) | json_values},
)
spec = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.sampled_from(list(RULE_SETS)) | json_values,
        "options": st.dictionaries(
            st.sampled_from(["rotation", "player_count", "domino_values", "colour"]), json_values
        )
        | json_values,
        "seats": st.lists(seat, min_size=3, max_size=5) | json_values,
    },
)


def _accepted_or_refused(raw: Any) -> None:
    try:
        variant, options, seats = check_spec(raw)
    except ProtocolError as e:
        assert e.code == "bad_request" and str(e)
        return
    assert variant in RULE_SETS and isinstance(options, dict) and seats


@settings(max_examples=300, deadline=None)
@given(spec)
def test_any_settings_are_accepted_or_refused_as_a_bad_request(raw: dict[str, Any]) -> None:
    _accepted_or_refused(raw)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["classic", "king", "chinese-poker"]), st.lists(seat, min_size=4, max_size=4))
def test_any_seat_settings_are_accepted_or_refused_as_a_bad_request(variant: str, seats: list[Any]) -> None:
    """Four seats for a four-player rule set, so that every seat is looked at."""
    _accepted_or_refused({"variant": variant, "seats": seats})
