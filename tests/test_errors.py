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
    "barbu.server.limits._TooLarge": "a private signal that a streamed body passed its limit, answered 413 at once",
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


def test_the_core_refusals_reach_people_in_french() -> None:
    """Every refusal of an illegal action is a marked text (``N_``) the outer layers translate:
    a French reader gets it whole in French, placeholders and suit names included."""
    from barbu.actions import Call, Declare, NameTrump
    from barbu.errors import IllegalAction
    from barbu.language import error_text, speaking
    from table_setup import hands, plays, to_play

    deal = to_play(
        "no-queens",
        hands(
            "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 2H",
            "AD 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
            "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        ),
    )
    deal.apply(plays("2D")[0], 0)
    found: dict[str, str] = {}
    for action, seat in ((plays("5H")[0], 1), (plays("5H")[0], 2), (plays("2S")[0], 1)):
        with pytest.raises(IllegalAction) as refused:
            deal.apply(action, seat)
        with speaking("fr"):
            found[refused.value.message] = error_text(refused.value)
    assert found == {
        "5H is not legal: seat 1 must follow diamonds": "5H n'est pas permise : la place 1 doit fournir à carreau",
        "seat 2 cannot act now: it is seat 1's turn to play": (
            "la place 2 ne peut pas agir maintenant : c'est à la place 1 de jouer"
        ),
        "2S is not in seat 1's hand": "2S n'est pas dans la main de la place 1",
    }
    # Every refusal met while trying wrong actions through whole games is translated whole.
    english: set[str] = set()
    for seed in range(2):  # the second game meets the compulsory doubles' refusal; more games meet nothing new
        game = Game.new("classic", seed=seed)
        bot = make_bot("random", seed=seed)
        while not game.is_over and len(english) < 400:
            seat = game.to_act
            assert seat is not None
            wrong = [
                Declare("no-such-contract"),
                NameTrump(7),
                Call(double=(seat,)),
                Call(double=(0, 0)),
                Call(word="flanks"),
                *plays("AS KH 2C QD"),
            ]
            for action in wrong:
                for who in (seat, (seat + 1) % 4):
                    try:
                        game.copy().apply(action, who)
                    except IllegalAction as e:
                        with speaking("fr"):
                            french = error_text(e)
                        assert french != e.message, e.message
                        assert "seat " not in french and " must " not in french, french
                        english.add(e.text.template)
            game.apply(bot.act(seat_view(game, seat)), seat)
    assert len(english) >= 20  # many different rules were met, each in French


def test_a_refused_tally_reaches_the_score_keeper_in_french() -> None:
    from barbu.errors import TallyError
    from barbu.language import error_text, speaking
    from barbu.rulesets import rules
    from barbu.tally import check_tally

    r = rules("classic")
    with pytest.raises(TallyError) as refused:
        check_tally({"hearts": [4, 3, 3, 2], "ace_of_hearts": 0}, r.contract("no-hearts"), r)
    assert refused.value.message == "tally: hearts must add up to 13 (the hearts in the deck), not 12"
    with speaking("fr"):
        french = error_text(refused.value)
    assert french.startswith("décompte : hearts doit faire 13 au total (") and french.endswith("pas 12")
    assert "the hearts in the deck" not in french


def test_a_refused_record_is_read_in_french() -> None:
    from barbu.errors import RecordError
    from barbu.language import error_text, speaking
    from barbu.record import game_from_record
    from barbu.sheet.model import Sheet

    def refused(doc: dict[str, object]) -> RecordError:
        with pytest.raises(RecordError) as caught:
            game_from_record({"format": "barbu-record/1", "variant": "classic", **doc})
        return caught.value

    deal = {"declarer": 0, "contract": "no-queens"}
    cases = {
        # the document, a deal, a call with its seat, a rule of the core the record breaks
        "first_declarer must be a seat from 0 to 3, not 7": (
            refused({"first_declarer": 7, "deals": []}),
            "first_declarer doit être une place de 0 à 3, et non 7",
        ),
        "deal 1: the declarer must be seat 0 (block rotation from first declarer 0), not 2": (
            refused({"deals": [{**deal, "declarer": 2}]}),
            "donne 1 : le déclarant doit être la place 0 (rotation en bloc depuis le premier déclarant 0), et non 2",
        ),
        "deal 1, call 1 (seat 1): it is seat 1's call, not seat 2's": (
            refused({"deals": [{**deal, "calls": [{"seat": 2}]}]}),
            "donne 1, annonce 1 (place 1) : c'est à la place 1 d'annoncer, pas à la place 2",
        ),
        "deal 1 (seat 0): the contract must be a contract id, not 5": (
            refused({"deals": [{**deal, "contract": 5}]}),
            "donne 1 (place 0) : le contrat doit être un identifiant de contrat, et non 5",
        ),
    }
    for english, (error, french) in cases.items():
        assert error.message == english
        with speaking("fr"):
            assert error_text(error) == french
    # the score sheet's import of a record says it in the importer's language
    with speaking("fr"), pytest.raises(SheetError) as sheet_refused:
        Sheet.from_record({"format": "barbu-record/1", "variant": "classic", "first_declarer": 7, "deals": []})
    assert sheet_refused.value.message == "first_declarer doit être une place de 0 à 3, et non 7"


def test_a_bad_card_in_a_record_is_explained_in_french() -> None:
    """The card-notation cause inside a record's refusal (a card, a hand) is translated too."""
    from barbu.errors import RecordError
    from barbu.language import error_text, speaking
    from barbu.record import game_from_record

    hands = ["AKQJT98765432...", ".AKQJT98765432..", "..AKQJT98765432.", "...AKQJT98765432"]
    calls = [{"seat": 1, "double": [0]}, {"seat": 2}, {"seat": 3}, {"seat": 0}]
    deal = {"declarer": 0, "contract": "no-queens", "hands": hands, "calls": calls}
    cases = {
        "deal 1, card 1 (seat 0): 'Z9' is not a card: write rank then suit, e.g. QS, TH, 2C": (
            {"deals": [{**deal, "play": ["Z9"]}]},
            "donne 1, carte 1 (place 0) : 'Z9' n'est pas une carte : écrivez le rang puis la couleur, "
            "par exemple QS, TH, 2C",
        ),
        "deal 1: hand of seat 2: '..AKQJT98765X.' is not a hand: 'X' is not a rank": (
            {"deals": [{**deal, "hands": [*hands[:2], "..AKQJT98765X.", hands[3]]}]},
            "donne 1 : main de la place 2 : '..AKQJT98765X.' n'est pas une main : 'X' n'est pas un rang",
        ),
        "deal 1: hand of seat 0: 'AAKQJT9876543...' is not a hand: AS appears twice": (
            {"deals": [{**deal, "hands": ["AAKQJT9876543...", *hands[1:]]}]},
            "donne 1 : main de la place 0 : 'AAKQJT9876543...' n'est pas une main : AS y figure deux fois",
        ),
    }
    for english, (doc, french) in cases.items():
        with pytest.raises(RecordError) as refused:
            game_from_record({"format": "barbu-record/1", "variant": "classic", **doc})
        assert refused.value.message == english
        with speaking("fr"):
            assert error_text(refused.value) == french
