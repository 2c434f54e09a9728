"""Every error the package raises on purpose is a :class:`~barbu.BarbuError`.

``except BarbuError`` catches every refusal a user can cause, in every layer: the core's,
the store's, the web app's protocol and intents, the score sheet's, the bots' and the
external-bot protocol's. The walk over the whole package makes sure a new error class
cannot be added outside the family.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import barbu
from barbu import BarbuError, Game, seat_view
from barbu.actions import action_from_json
from barbu.bots import make_bot
from barbu.bots.errors import BotError
from barbu.bots.external import BotFailure, parse_answer
from barbu.errors import ActionNotationError, ViewError
from barbu.server.origin import OriginError, normalise_origin
from barbu.server.protocol import Limits, ProtocolError, parse_message
from barbu.server.sheets import AccessError, RequestError, Stale
from barbu.sheet.doubles import SheetError
from barbu.storage import StoreError

NOT_REFUSALS = {
    "barbu.sheet.terminal.Cancelled": "the scorekeeper typed cancel: a way out of a question, caught where it is asked",
    "barbu.sheet.store._Conflict": "a private signal to retry a write, never raised out of the store",
}
"""Exception classes of the package that are not refusals, and why."""


def package_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined in a module of the package, by its dotted name."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(barbu.__path__, "barbu."):
        if info.name.startswith("barbu.storage.migrations"):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == info.name:
                found[f"{info.name}.{name}"] = value
    return found


def test_every_error_class_of_the_package_is_a_barbu_error() -> None:
    found = package_exceptions()
    assert len(found) >= 15, sorted(found)
    outside = sorted(
        name for name, cls in found.items() if not issubclass(cls, BarbuError) and name not in NOT_REFUSALS
    )
    assert not outside, f"make these subclass barbu.errors.BarbuError (or a layer's base of it): {outside}"
    assert set(NOT_REFUSALS) <= set(found), f"gone, remove from NOT_REFUSALS: {set(NOT_REFUSALS) - set(found)}"


@pytest.mark.parametrize(
    "error",
    [
        StoreError,
        ProtocolError,
        ActionNotationError,
        ViewError,
        OriginError,
        RequestError,
        AccessError,
        Stale,
        SheetError,
        BotError,
        BotFailure,
    ],
)
def test_each_layers_error_is_a_barbu_error(error: type[Exception]) -> None:
    assert issubclass(error, BarbuError)


def test_refusals_from_each_layer_are_caught_as_barbu_errors() -> None:
    game = Game.new("classic", seed=2)
    view = seat_view(game, game.to_act)
    refusals = [
        lambda: action_from_json({"type": "play"}),
        lambda: parse_message('{"type": "nonsense"}', Limits()),
        lambda: normalise_origin("barbu.example"),
        lambda: make_bot("grandmaster"),
        lambda: make_bot("search", iterations=0),
        lambda: parse_answer(12, view),
    ]
    for refuse in refusals:
        with pytest.raises(BarbuError) as caught:
            refuse()
        assert str(caught.value), caught.value
