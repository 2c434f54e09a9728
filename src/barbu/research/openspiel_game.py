"""Barbu as an OpenSpiel game (optional extra: ``pip install barbu[openspiel]``).

Importing this module registers ``python_barbu`` with ``pyspiel``. Its parameters:

============ ========== ===============================================================
parameter    default    meaning
============ ========== ===============================================================
``variant``  classic    the rule set (RULES.md §4)
``options``  ``{}``     its flags (RULES.md §6) as JSON text
``episode``  game       ``game`` (every deal) or ``deal`` (the first deal only)
``contract`` (empty)    ``deal`` episodes: the declarer declares this contract at once
============ ========== ===============================================================

Chance nodes draw the first declarer, then deal each deal's cards one at a time from
the declarer round the table (a seat sees its hand once all cards are dealt). Actions
are the indexes of :class:`~barbu.research.encoding.ActionEncoding`; observation and
information-state tensors are :class:`~barbu.research.encoding.ObservationEncoding` vectors
of :func:`barbu.view.seat_view`, and the strings are their text. Within a deal the
observation is perfect recall, so it is also the information state; in ``game`` episodes
the information-state string adds what the seat saw of the earlier deals. Rewards come
at the end of each deal (the deal's final scores, negated in ``french``, whose penalty
points count against); returns are their sums.

``resample_from_infostate`` deals the cards a seat has not seen again, consistently
with everything it saw, through the core's sampler (:mod:`barbu.unseen`): how many cards
each seat holds, and every card played (the core is asked, card by card, which cards a
seat could not have held when it played as it did). Earlier deals of a ``game`` episode
are kept as they were: they are scored and cannot change what happens next.

A clone shares the game with its original (neither changes it in place any more): during a
trick deal's card play, a state sharing its game plays the cards on its own copy of the
deal's trick play, one call a card, and gives them to the game (a copy, through the core's
checked door) only when something else is asked of it, so that a search's playouts copy no
game; a single deal's last card is scored from that play. An action applied from Python
(:meth:`BarbuState.apply_action`) does not cross into C++: it is written into OpenSpiel's
history, which pyspiel keeps in C++, when the history is read from Python or an action is
applied through C++ after it. So is a resampled world's whole history. Every answer is the
one the state its history replays to gives (tests/test_openspiel.py). C++ code reading
``History()``, ``HistoryString()`` or ``MoveNumber()`` of a state played from Python (its
pyspiel methods called on the base class alike) must first call ``state.history()`` (or
``state.serialize()``) from Python: until then it reads an empty or short history.

>>> import pyspiel
>>> game = pyspiel.load_game("python_barbu", {"variant": "classic", "episode": "deal"})
>>> state = game.new_initial_state()
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.current_player(), state.observation_string(0).splitlines()[0]
(0, 'P0 · deal 1 of 28 · contract · to act P0 · declarer P0')
>>> [state.action_to_string(0, a) for a in state.legal_actions()][:2]
['no-tricks', 'no-hearts']
"""

from __future__ import annotations

import copy
import json
import operator
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel

from barbu import accel
from barbu.actions import PLAYS, Declare
from barbu.cards import card_name, cards_of
from barbu.deal import Deal, Phase
from barbu.errors import OptionsError
from barbu.fastdeal import compiled_scores
from barbu.game import Game
from barbu.research.encoding import (
    ActionEncoding,
    ObservationEncoding,
    PartialArrangement,
    Place,
    TextFrame,
    score_unit,
    seat_text,
    trick_words,
)
from barbu.rulesets import Rules, rules
from barbu.tricks import TrickPlay
from barbu.unseen import HiddenCards, hidden_cards, sample_hands
from barbu.view import SeatView, seat_view

GAME_NAME = "python_barbu"
DEFAULTS: dict[str, Any] = {"variant": "classic", "options": "{}", "episode": "game", "contract": "", "players": -1}
"""The parameters and their defaults; ``players`` -1 stands for the rule set's own number of players."""


_TEXTS = 4096
"""The most observation texts a game remembers (a search meets a few hundred)."""

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_DEAL_ORDER = accel.deal_order()
"""The compiled :func:`_dealing_order` (None on the pure path)."""

_cards = accel.picker(tuple(range(52))) or cards_of
"""``cards_of`` of a one-deck mask, compiled when the accelerator is in use."""


def _outcome_picker(count: int) -> Callable[[int], list[tuple[int, float]]]:
    """The chance outcomes of a one-deck mask of ``count`` cards: each card with probability
    ``1.0 / count``, the same tuples every time (compiled when the accelerator is in use)."""
    table = tuple((c, 1.0 / count) for c in range(52))
    return accel.picker(table) or (lambda mask: [table[c] for c in cards_of(mask)])


def _in_deck(t: _Table, action: int) -> bool:
    """Whether ``action`` is a card of the table's deck (which chance may deal)."""
    return action >= 0 and bool(t.static.deck >> action & 1)


_DEALT = tuple((_CHANCE, c) for c in range(104))
"""Chance's action dealing each card, with its player, as a history holds it (the same tuples every time)."""

_OUTCOMES = [_outcome_picker(count) for count in range(1, 53)]
""":func:`_outcome_picker` of 1 to 52 cards, by count - 1."""


def _game_type(utility: Any, reward_model: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Barbu (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=reward_model,
        max_num_players=5,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


class _Static:
    """What never changes during a game: shared by every state and every clone."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.variant = str(params["variant"])
        try:
            options = json.loads(params["options"] or "{}")
        except json.JSONDecodeError as e:
            raise OptionsError(f'options must be JSON text such as \'{{"rotation": "quick"}}\': {e}') from None
        if not isinstance(options, dict):
            raise OptionsError(f"options must be a JSON object of flags, not {params['options']!r}")
        players = int(params["players"])
        if players != -1 and players != rules(self.variant, options).players:
            options = {**options, "player_count": players}  # rules() says which counts the rule set allows
        self.options = options
        self.rules: Rules = rules(self.variant, options)
        self.episode = str(params["episode"])
        if self.episode not in ("game", "deal"):
            raise OptionsError(f"episode must be 'game' or 'deal', not {self.episode!r}")
        self.contract = str(params["contract"]) or None
        if self.contract is not None:
            if self.episode != "deal":
                raise OptionsError(
                    "contract needs episode='deal': in a whole game each contract is declared once a set"
                )
            if not self.rules.schedule.declarer_chooses:
                raise OptionsError(f"{self.variant} plays its contracts in a fixed order: contract cannot choose one")
            self.rules.contract(self.contract)
        self.players = self.rules.players
        self.sign = self.rules.sign
        self.actions = ActionEncoding(self.rules)
        self.observations = ObservationEncoding(self.rules)
        self.deck = self.rules.deck
        self.deck_size = self.deck.bit_count()
        self.deals = 1 if self.episode == "deal" else self.rules.deal_count
        """Blocks of the information-state tensor: one observation per deal of the episode."""
        self._first_views: dict[int, SeatView] = {}
        self.texts: dict[tuple[object, ...], str] = {}
        """Observation texts by what the seat has seen (:meth:`BarbuState._seen`), shared by every
        state of the game; emptied when it holds :data:`_TEXTS`."""
        self.frames: dict[tuple[tuple[int, ...], tuple[int, ...]], TextFrame] = {}
        """The lines fixed during a trick deal's card play (:class:`~barbu.research.encoding.TextFrame`)
        by the public history before the play; emptied when it holds :data:`_TEXTS`."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Static:
        return self

    def first_view(self, seat: int) -> SeatView:
        """A seat's view before the first declarer is drawn: nothing but its seat and the rules."""
        view = self._first_views.get(seat)
        if view is None:
            blank = seat_view(Game(self.rules, first_declarer=0), seat)
            view = replace(
                blank,
                phase="deal",
                declarer=None,
                contract=None,
                declared=((),) * self.players,
                to_act=None,
                hand=(),
                legal_actions=[],
                legal=[],
            )
            self._first_views[seat] = view
        return view

    def reward_model(self) -> Any:
        """``TERMINAL`` for single deals (the only reward is at the end), ``REWARDS`` for games (one per deal)."""
        if self.episode == "deal":
            return pyspiel.GameType.RewardModel.TERMINAL
        return pyspiel.GameType.RewardModel.REWARDS

    def utility(self) -> tuple[Any, float | None]:
        """OpenSpiel's utility kind and the sum of the returns, where it is fixed."""
        r = self.rules
        total: int | None
        if self.episode == "game":
            total = r.game_total()
        else:
            if self.contract is not None:
                first = [r.contract(self.contract)]
            elif (scheduled := r.scheduled_contract(0)) is not None:
                first = [scheduled]
            else:
                first = list(r.contracts)
            totals = {r.total(c) for c in first}
            total = totals.pop() if len(totals) == 1 else None
        if total is None or not r.adjustments_add_up_to_zero:
            return pyspiel.GameType.Utility.GENERAL_SUM, None
        if total == 0:
            return pyspiel.GameType.Utility.ZERO_SUM, 0.0
        return pyspiel.GameType.Utility.CONSTANT_SUM, float(self.sign * total)

    def bounds(self) -> tuple[float, float, int]:
        """Loose but safe bounds: smallest and largest return, longest history."""
        r = self.rules
        n = self.players
        raw = max(score_unit(r), *(abs(v) for v in r.flags.domino_values), 72)
        per_deal = raw * (1 + 4 * (n - 1))
        deals = 1 if self.episode == "deal" else r.deal_count
        moves = 1 + deals * (1 + self.deck_size + 2 + 2 * n + 10 * n + (self.deck_size + 1) * (n + 1))
        return -float(per_deal * deals), float(per_deal * deals), moves


class BarbuGame(pyspiel.Game):
    """The ``python_barbu`` game; see the module docstring for its parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = dict(DEFAULTS)
        full.update(params or {})
        unknown = set(full) - set(DEFAULTS)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise OptionsError(f"unknown parameter(s) {names}; parameters are {', '.join(DEFAULTS)}")
        static = _Static(full)
        utility, total = static.utility()
        low, high, moves = static.bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=static.actions.size,
            max_chance_outcomes=52,
            num_players=static.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=moves,
        )
        full["players"] = static.players
        super().__init__(_game_type(utility, static.reward_model()), info, full)
        self.static = static

    def new_initial_state(self) -> BarbuState:
        """The start of a game: the chance node that draws the first declarer."""
        return BarbuState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BarbuObserver:
        """An observer for one seat's information (perfect recall or not)."""
        return BarbuObserver(self.static, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def make_observation_buffer(self) -> BarbuObserver:
        """The zero-copy observer: ``set_from(state, player)`` writes the seat's vector into ``tensor`` in place.

        The same as ``open_spiel.python.observation.make_observation(game)``.
        """
        return self.make_py_observer()


class _Table:
    """Everything a state changes, in one object that copies itself cheaply for clones.

    Its fields are slots: a table copied for a clone reads them as fast as a new one (a copied
    instance dictionary is read several times slower than one built field by field)."""

    __slots__ = (
        "deal_start",
        "dealing_views",
        "dealt",
        "ended",
        "finals",
        "fixed",
        "game",
        "hands",
        "known",
        "moves",
        "over",
        "owed",
        "pending",
        "placing",
        "play",
        "player",
        "records",
        "replaying",
        "returns",
        "rewards",
        "shared",
        "static",
        "tail",
        "tricks_text",
        "world",
    )

    def __init__(self, static: _Static) -> None:
        self.static = static
        self.game: Game | None = None
        self.ended: Game | None = None
        self.hands: list[int] | None = None
        """The hands being dealt (None once the current deal is dealt)."""
        self.dealt = 0
        self.deal_start = 1
        """Index in the history of the current deal's first card."""
        self.moves = 0
        self.placing: PartialArrangement | None = None
        self.rewards = [0.0] * static.players
        self.returns = [0.0] * static.players
        self.owed: list[float] | None = None
        """A finished deal's scores, until the next deal is dealt (``game`` episodes)."""
        self.over = False
        self.records: tuple[tuple[str, ...], ...] = ((),) * static.players
        """Per seat, what it saw of each finished deal (information-state strings of games)."""
        self.finals: tuple[tuple[np.ndarray, ...], ...] = ((),) * static.players
        """Per seat, its observation vector at the end of each finished deal (information-state
        tensors). Like :attr:`rewards`, :attr:`returns` and :attr:`records`, replaced and never
        changed in place, so that clones share it."""
        self.dealing_views: dict[int, SeatView] = {}
        """Per seat, its view while the current deal is dealt (it does not change until the last card)."""
        self.player: int | None = None
        """The player to act, once worked out (None: not yet, since the last action)."""
        self.shared = False
        """Whether :attr:`game` may be another table's too (clones share it): it is then never
        changed in place, but copied first (:meth:`BarbuState._own`)."""
        self.play: TrickPlay | None = None
        """During a trick deal's card play, a table sharing its game plays the cards on its own
        copy of the deal's trick play (one call a card, no game to copy for a clone) and
        :attr:`game` stays as it was when this began: the cards are in :attr:`pending`, given to
        the game the first time anything else is asked (:meth:`BarbuState._game`)."""
        self.pending: list[int] = []
        """The cards played on :attr:`play` and not yet on :attr:`game`."""
        self.world: tuple[tuple[int, ...], list[int]] | None = None
        """A resampled world not yet given to :attr:`game`: the cards dealt and the cards held
        when :attr:`game` was left (:meth:`BarbuState._world`)."""
        self.known: dict[Any, Any] = {}
        """What was worked out of this state (texts, what a seat knows of the hidden cards,
        the players of the history), until the next action: replaced then, never changed in
        place, so that clones may share it."""
        self.fixed: dict[str, Any] = {}
        """What stays the same during the current deal's card play, once worked out: every
        seat's lines of text (``"frame"``, :meth:`BarbuState._play_text`) and how the deal is
        scored (``"scoring"``, :meth:`BarbuState._play_over`). Filled only during that play,
        shared by the clones and worlds of the table, and replaced by an empty dict at every
        action but a card, so that the tables sharing it have the same public history before
        the play."""
        self.tricks_text: tuple[int, str] = (0, "")
        """How many tricks of the current deal are done, and those tricks in words, as the
        texts show them (replaced, never changed in place: clones share it)."""
        self.tail: list[tuple[int, int]] = []
        """The actions not yet in OpenSpiel's history, which pyspiel keeps in C++, each with its
        player, written there when the history is asked for (:meth:`BarbuState._flush`): every
        action applied from Python (:meth:`BarbuState.apply_action`) and a resampled world's
        whole history (:meth:`BarbuState._world`)."""
        self.replaying = False
        """Whether :attr:`tail` is being written into OpenSpiel's history (the cards are played already)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return self.copy()

    def copy(self) -> _Table:
        """A copy for a clone or a world: what is changed in place copied, the rest shared."""
        other = _Table.__new__(_Table)
        # Every slot, spelled out.
        other.deal_start = self.deal_start
        other.dealt = self.dealt
        other.ended = self.ended
        other.finals = self.finals
        other.fixed = self.fixed
        other.game = self.game
        other.known = self.known
        other.moves = self.moves
        other.over = self.over
        other.owed = self.owed
        other.player = self.player
        other.records = self.records
        other.replaying = self.replaying
        other.returns = self.returns
        other.rewards = self.rewards
        other.static = self.static
        other.tricks_text = self.tricks_text
        other.world = self.world
        other.shared = self.shared
        if self.play is not None:
            other.play = self.play.copy()
            other.pending = self.pending[:]
        else:
            other.play = None
            other.pending = self.pending
            if self.game is not None:  # the two tables share the game from now on
                self.shared = other.shared = True
        other.tail = self.tail[:]  # appended to in place
        if self.hands is not None:
            other.hands = self.hands[:]
            other.dealing_views = self.dealing_views.copy()
        else:
            other.hands = None
            other.dealing_views = self.dealing_views
        placing = self.placing
        other.placing = PartialArrangement(placing.hand, placing.placed) if placing else None
        return other


class BarbuState(pyspiel.State):
    """A state of ``python_barbu``."""

    def __init__(self, game: BarbuGame) -> None:
        super().__init__(game)
        self._t = _Table(game.static)

    # -- whose turn, what may be done ---------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's chance or terminal player."""
        t = self._t
        player = t.player
        if player is None:  # worked out once per action: OpenSpiel asks several times a step
            if t.over:
                player = _TERMINAL
            elif t.game is None or t.hands is not None:
                player = _CHANCE
            else:
                play = t.play
                seat = play.turn if play is not None else t.game.deals[-1].to_act  # the deal in play
                assert seat is not None
                player = seat
            t.player = player
        return player

    # OpenSpiel's C++ reaches the state through ``current_player``, ``_legal_actions``,
    # ``is_terminal``, ``_apply_action`` ...; the public methods below answer a Python caller
    # (a search, a learning loop) as pyspiel's own would, without the crossings into C++ and
    # back (``legal_actions`` asks Python four times from C++). They give the same results:
    # tests/test_openspiel.py compares them with pyspiel's on every state of random games.

    def is_chance_node(self) -> bool:
        """Whether chance acts next (pyspiel's ``is_chance_node``)."""
        player = self._t.player  # worked out already: every step of a playout asks
        return (self.current_player() if player is None else player) == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (the player to act by default), the chance outcomes'
        actions at a chance node, none at the end (pyspiel's ``legal_actions``)."""
        t = self._t
        play = t.play
        if play is not None and not t.over and (player is None or player == play.turn):
            return play.legal_cards()  # a card of a trick play apart from the game: a playout's step
        current = self.current_player()
        if current == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]  # whichever player is named, as in pyspiel
        if current == _TERMINAL:
            return []
        if player is None or player == current:
            return self._actions_of(current)
        if player >= 0:
            return []
        return list(super().legal_actions(player))  # pyspiel's error for a pseudo-player

    def information_state_string(self, player: int | None = None) -> str:
        """The seat's information state in words (pyspiel's ``information_state_string``)."""
        seat = self.current_player() if player is None else player
        if 0 <= seat < self._t.static.players:
            return self.information_text(seat) if self._t.static.deals > 1 else self.observation_text(seat)
        return str(super().information_state_string(seat))  # pyspiel's error for a pseudo-player

    def observation_string(self, player: int | None = None) -> str:
        """The seat's observation in words (pyspiel's ``observation_string``)."""
        seat = self.current_player() if player is None else player
        if 0 <= seat < self._t.static.players:
            return self.observation_text(seat)
        return str(super().observation_string(seat))  # pyspiel's error for a pseudo-player

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0 or player != self.current_player():
            return []
        return self._actions_of(player)

    def _actions_of(self, player: int) -> list[int]:
        """The legal actions of ``player``, the seat to act."""
        t = self._t
        if t.play is not None:
            return t.play.legal_cards()
        game = t.game
        assert game is not None
        actions = t.static.actions
        deal = game.deals[-1]
        tricks = deal.tricks
        if tricks is not None and deal.phase is Phase.PLAY:
            return _cards(tricks.legal_mask())  # a card's action is the card itself (one deck: one_deck)
        if game.phase == Phase.ARRANGE:
            placing = t.placing or PartialArrangement(self._dealt(player))
            return [actions.index(Place(c), player) for c in placing.cards()]
        return actions.indexes(game.legal_actions(), player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The first declarer (uniform over the seats), then the next card dealt (uniform)."""
        t = self._t
        if t.game is None:
            n = t.static.players
            return [(s, 1.0 / n) for s in range(n)]
        assert t.hands is not None
        left = t.static.deck & ~_mask(t.hands)
        if left >> 52:  # two decks
            cards = _cards(left)
            return [(c, 1.0 / len(cards)) for c in cards]
        return _OUTCOMES[left.bit_count() - 1](left)

    # -- acting ----------------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """pyspiel's ``apply_action``, without crossing into C++ (pyspiel asks Python for the
        player, then to apply the action, to keep the history in C++): the action waits in
        :attr:`_Table.tail` until the history is asked for, and a playout thrown away at its end
        never writes it. A card played apart from the shared game (see :attr:`_Table.play`), the
        common case of a search's playouts, is one call of the trick play (``play_tail``)."""
        t = self._t
        play = t.play
        if play is not None:
            turn = play.play_tail(action, t.tail, t.pending)
            if turn is not None:
                t.moves += 1
                if t.known:
                    t.known = {}
                if turn < 0:  # the play is over
                    t.player = None
                    self._play_over()
                else:
                    t.player = turn
                return
        if type(action) is not int:
            action = operator.index(action)  # as pyspiel takes it: an integer, not a float
        elif play is None and t.hands is not None and t.game is not None and not t.over and _in_deck(t, action):
            # a card of the deck dealt: as _act (anything else goes the general way, and is refused there)
            t.moves += 1
            t.player = None
            if t.known:
                t.known = {}
            if any(t.rewards):
                t.rewards = [0.0] * t.static.players
            t.fixed = {}
            self._deal_card(action)
            t.tail.append((_CHANCE, action))
            return
        if action == pyspiel.INVALID_ACTION:
            pyspiel.State.apply_action(self, action)  # pyspiel's error
            return
        seat = self.current_player()
        self._act(action)
        t.tail.append((seat, action))

    def clone(self) -> BarbuState:
        """pyspiel's ``clone``. A state whose whole history waits in :attr:`_Table.tail` (one
        played from Python, a world, their clones: every state of a search) is copied without
        crossing into C++ (pyspiel's copies the history and the table through ``copy.deepcopy``)."""
        if self._t.tail and not pyspiel.State.move_number(self):
            other: BarbuState = BarbuState.__new__(BarbuState)
            pyspiel.State.__init__(other, self.get_game())
            other._t = self._t.copy()
            return other
        same: BarbuState = pyspiel.State.clone(self)
        return same

    def _flush(self) -> None:
        """Write the actions of :attr:`_Table.tail` into OpenSpiel's history, each with its player."""
        t = self._t
        if not t.tail:
            return
        tail, t.tail = t.tail, []
        player = t.player
        t.replaying = True  # pyspiel asks the player, then applies: both answered from the tail
        done = 0
        try:
            for seat, card in tail:
                t.player = seat
                pyspiel.State.apply_action(self, card)
                done += 1
        finally:
            t.replaying = False
            t.player = player
            t.tail = tail[done:]  # those not written, should one be refused: still waiting, in order

    def _card(self, play: TrickPlay, action: int) -> None:
        """Play a card on the table's own trick play; the last action was such a card, so no reward is to clear."""
        t = self._t
        t.moves += 1
        if t.known:
            t.known = {}
        t.pending.append(action)
        if play.play_next(action) < 0:  # the play is over
            t.player = None
            self._play_over()
        else:
            t.player = play.turn

    def _pairs(self) -> list[tuple[int, int]]:
        """Each action of the history with its player, those of :attr:`_Table.tail` included,
        without writing them into OpenSpiel's history (a world's whole history waits there)."""
        pairs = [(p.player, p.action) for p in pyspiel.State.full_history(self)]
        return pairs + self._t.tail

    def _actions(self) -> list[int]:
        """The history's actions, as :meth:`_pairs` reads them (remembered until the next
        action: a search resamples the same state again and again); not to be changed."""
        t = self._t
        tail = t.tail
        if not tail:
            done: list[int] = pyspiel.State.history(self)
            return done
        known = t.known.get("actions")
        if known is None:
            known = pyspiel.State.history(self) + [a for _, a in tail]
            t.known = {**t.known, "actions": known}
        actions: list[int] = known
        return actions

    # OpenSpiel's history, with the cards of the tail: read from Python, each writes them first.

    def history(self) -> list[int]:
        """pyspiel's ``history``."""
        self._flush()
        return list(super().history())

    def full_history(self) -> list[Any]:
        """pyspiel's ``full_history``."""
        self._flush()
        return list(super().full_history())

    def history_str(self) -> str:
        """pyspiel's ``history_str``."""
        self._flush()
        return str(super().history_str())

    def move_number(self) -> int:
        """pyspiel's ``move_number``."""
        self._flush()
        return int(super().move_number())

    def is_initial_state(self) -> bool:
        """pyspiel's ``is_initial_state``."""
        self._flush()
        return bool(super().is_initial_state())

    def serialize(self) -> str:
        """pyspiel's ``serialize``."""
        self._flush()
        return str(super().serialize())

    def undo_action(self, player: int, action: int) -> None:
        """pyspiel's ``undo_action``."""
        self._flush()
        super().undo_action(player, action)

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.replaying:  # an action of the tail, applied already
            return
        if t.tail:  # applied from C++ after actions applied from Python: they come first in the history
            self._flush()
        self._act(action)

    def _act(self, action: int) -> None:
        """Apply an action to the table (whichever way it came: see :meth:`apply_action`)."""
        t = self._t
        play = t.play
        if play is not None and 0 <= action < 52 and play.legal_mask() >> action & 1:
            self._card(play, action)
            return
        static = t.static
        if t.hands is not None and t.game is not None and not _in_deck(t, action):
            raise ValueError(f"{action} is not a card of the deck: chance deals a card")
        seat = t.player  # OpenSpiel asked whose action it is just before
        t.moves += 1
        t.player = None
        if t.known:
            t.known = {}
        if any(t.rewards):
            t.rewards = [0.0] * static.players
        game = t.game
        if game is None or t.hands is not None or not 0 <= action < 52:  # not a card played
            t.fixed = {}
        if game is None:
            t.game = Game(static.rules, first_declarer=int(action))
            self._start_dealing()
            return
        if t.hands is not None:
            self._deal_card(int(action))
            return
        if 0 <= action < 52 and t.shared and play is None:  # the first card apart from the shared game
            deal = game.deals[-1]
            if (
                type(deal.cardplay) is TrickPlay
                and deal.phase is Phase.PLAY
                and deal.cardplay.legal_mask() >> action & 1
            ):
                play = t.play = deal.cardplay.copy()
                t.pending = [action]
                play.play(action)
                if play.finished:
                    self._play_over()
                return
        game = self._own()
        deals_before = len(game.deals)
        deal = game.deals[-1]
        if seat is None or seat < 0:
            seat = deal.to_act
            assert seat is not None
        if 0 <= action < 52:  # a card, the common case
            game.apply(PLAYS[action], seat)
            if deal.phase is not Phase.DONE:
                return
            self._deal_over(game, deal, deals_before)
            return
        chosen = static.actions.action(int(action), seat)
        if isinstance(chosen, Place):
            if game.phase != Phase.ARRANGE:
                raise ValueError(f"{chosen} is not legal: it is the {game.phase} phase")
            if t.placing is None:
                t.placing = PartialArrangement(self._dealt(seat))
            arrangement = t.placing.place(chosen.card)
            if arrangement is None:
                return
            t.placing = None
            game.apply(arrangement, seat)
        else:
            game.apply(chosen, seat)
        if deal.phase is not Phase.DONE:  # the deal goes on
            return
        self._deal_over(game, deal, deals_before)

    def _deal_over(self, game: Game, deal: Deal, deals_before: int) -> None:
        """Pay a deal just finished, and end the episode or start dealing the next deal."""
        t = self._t
        static = t.static
        assert deal.final is not None
        scores = [float(static.sign * f) for f in deal.final]
        if game.is_over or static.episode == "deal":
            self._pay(scores)
            t.over = True
            if not game.is_over:
                t.ended = _ended(game, deals_before)
            return
        ended = _ended(game, deals_before)
        t.records = tuple((*r, _deal_record(deal, s)) for s, r in enumerate(t.records))
        t.finals = tuple((*f, static.observations.encode(seat_view(ended, s))) for s, f in enumerate(t.finals))
        t.owed = scores
        self._start_dealing()

    def _play_over(self) -> None:
        """The last card of a deal played on the table's own trick play (:attr:`_Table.play`):
        a single deal is scored by the core from that play, without giving the cards to the
        game; in a whole game, the game takes them and goes on."""
        t = self._t
        static = t.static
        assert t.game is not None and t.play is not None
        if static.episode == "deal":
            deal = t.game.deals[-1]
            scoring = t.fixed.get("scoring")
            if scoring is None:  # for every table sharing the dict (see _Table.fixed)
                scoring = t.fixed["scoring"] = (compiled_scores(deal), tuple(deal.pairs()))
            model, pairs = scoring
            if model is not None:
                final = accel.final_points(t.play, model, pairs)
            else:  # the core scores a copy of the deal holding the play
                scored = copy.copy(deal)
                scored.tricks = scored.cardplay = t.play
                scored.end_play()
                assert scored.final is not None
                final = scored.final
            self._pay([float(static.sign * f) for f in final])
            t.over = True
            return
        deals_before = len(t.game.deals)
        game = self._game()
        self._deal_over(game, game.deals[deals_before - 1], deals_before)

    def _game(self) -> Game:
        """The game, up to date: the cards played on the table's own trick play and a
        resampled world's cards given to it first (see :attr:`_Table.play`)."""
        t = self._t
        if t.play is None:
            assert t.game is not None
            return t.game
        assert t.game is not None
        game = t.game.copy()
        deals_before = len(game.deals)
        deal = game.deals[-1]
        if t.world is not None:
            deal.dealt, held = t.world
            assert deal.cardplay is not None
            deal.cardplay.set_hands(held)
        for card in t.pending:
            game.apply(PLAYS[card])
        t.game, t.play, t.pending, t.world, t.shared = game, None, [], None, False
        if t.over and not game.is_over:  # a single deal scored from the trick play
            t.ended = _ended(game, deals_before)
        return game

    def _own(self) -> Game:
        """The game, up to date and this table's own, to change."""
        t = self._t
        game = self._game()
        if t.shared:
            game = t.game = game.copy()
            t.shared = False
        return game

    def _pay(self, scores: list[float]) -> None:
        t = self._t
        t.rewards = scores
        t.returns = [r + f for r, f in zip(t.returns, scores, strict=True)]

    def _start_dealing(self) -> None:
        t = self._t
        t.hands = [0] * t.static.players
        t.dealt = 0
        t.deal_start = t.moves
        t.dealing_views = {}
        t.fixed = {}
        t.tricks_text = (0, "")

    def _deal_card(self, card: int) -> None:
        t = self._t
        assert t.game is not None and t.hands is not None
        deal = t.game.current
        assert deal is not None
        n = t.static.players
        seat = (deal.declarer + t.static.rules.direction * t.dealt) % n
        t.hands[seat] |= 1 << card
        t.dealt += 1
        if t.dealt < t.static.deck_size:
            return
        hands, t.hands = t.hands, None
        game = self._own()
        game.give_hands(hands)
        if t.owed is not None:  # the previous deal's scores, paid on the transition into the next decision
            self._pay(t.owed)
            t.owed = None
        if t.static.contract is not None:
            game.apply(Declare(t.static.contract))

    def _dealt(self, seat: int) -> int:
        t = self._t
        if t.world is not None:
            return t.world[0][seat]
        game = t.game
        assert game is not None and game.current is not None and game.current.dealt is not None
        return game.current.dealt[seat]

    # -- results ---------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        """True once the episode (deal or game) is over."""
        return self._t.over

    def returns(self) -> list[float]:
        """Each seat's sum of rewards so far (points; negated penalty points in ``french``)."""
        return list(self._t.returns)

    def rewards(self) -> list[float]:
        """The rewards of the last transition: a deal's final scores if it ended the deal, else zeros.

        Their sum over every transition of an episode is :meth:`returns` (spiel.h's
        invariant). In ``game`` episodes a deal's last action is followed by the chance
        nodes that deal the next deal: its scores are paid on the transition that deals the
        last card, the one into the next decision, so that loops reading rewards only at
        decisions (``random_sim_test``, ``rl_environment``) see each deal once, and so do
        loops summing over every transition.
        """
        return list(self._t.rewards)

    # -- words -------------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        t = self._t
        if player == pyspiel.PlayerId.CHANCE:
            if t.game is None:
                return f"first declarer P{action}"
            return f"deal {card_name(action)}"
        return t.static.actions.describe(action, player)

    def __str__(self) -> str:
        t = self._t
        if t.game is None:
            return "drawing the first declarer"
        game = self._game()
        game = t.ended or game
        deal = game.deals[-1]
        lines = [f"deal {deal.index + 1} · {'dealing' if t.hands is not None else game.phase} · totals {game.totals}"]
        for s in range(t.static.players):
            held = t.hands[s] if t.hands is not None else deal.hand(s)
            lines.append(f"P{s} " + (" ".join(card_name(c) for c in cards_of(held)) or "-"))
        lines.append("plays " + " ".join("pass" if c is None else card_name(c) for c in deal.plays))
        return "\n".join(lines)

    # -- what a seat knows -------------------------------------------------------------------

    def view(self, player: int) -> tuple[SeatView, list[int]]:
        """The seat's view (through :func:`barbu.view.seat_view`) and its arrangement so far."""
        t = self._t
        if t.game is None:
            return t.static.first_view(player), []
        game = self._game()
        game = t.ended or game
        if t.hands is not None:
            dealing = t.dealing_views.get(player)
            if dealing is None:
                blank = seat_view(game, player)
                dealing = replace(blank, phase="deal", to_act=None, hand=(), legal_actions=[], legal=[], must_double=())
                t.dealing_views[player] = dealing
            return dealing, []
        view = seat_view(game, player)
        placed = t.placing.placed if t.placing is not None and game.to_act == player else []
        return view, placed

    def observation_text(self, player: int) -> str:
        """The seat's observation in words (OpenSpiel's observation string)."""
        t = self._t
        known = t.known.get(("text", player))
        if known is None and t.hands is None and not t.over and t.game is not None:
            known = self._play_text(player)
            if known is not None:
                t.known = {**t.known, ("text", player): known}
        if known is None:
            seen = self._seen(player)
            texts = t.static.texts
            known = texts.get(seen) if seen is not None else None
            if known is None:
                view, placed = self.view(player)
                known = t.static.observations.text(view, placed)
                if seen is not None:
                    if len(texts) >= _TEXTS:
                        texts.clear()
                    texts[seen] = known
            t.known = {**t.known, ("text", player): known}
        text: str = known
        return text

    def _play_text(self, player: int) -> str | None:
        """The seat's text during a trick deal's card play, written from the trick play itself
        (None in any other phase): what changes card by card (the seat to act, the hand, the
        tricks, the cards taken and left) between the lines that stay the same during the play,
        read once a deal from a view (:class:`~barbu.research.encoding.TextFrame`), written by
        the view's text's own writer (:func:`~barbu.research.encoding.seat_text`). The same
        text as the view's (tests/test_openspiel.py), without a view or a copy of the game."""
        t = self._t
        frame = t.fixed.get("frame")
        if frame is None:
            game = t.game
            assert game is not None
            deal = game.deals[-1]
            if t.play is None and (type(deal.cardplay) is not TrickPlay or deal.phase is not Phase.PLAY):
                return None
            # the public history before the play: the same frame in every world of a search
            history = self._actions()
            after = t.deal_start + t.static.deck_size
            before_play = len(history) - len(deal.plays) - len(t.pending)
            key = (tuple(history[: t.deal_start]), tuple(history[after:before_play]))
            frames = t.static.frames
            found = frames.get(key)
            if found is None:
                view, placed = self.view(player)
                found = t.static.observations.frame(view, placed)
                if len(frames) >= _TEXTS:
                    frames.clear()
                frames[key] = found
            frame = t.fixed["frame"] = found  # for every table sharing the dict (see _Table.fixed)
        game = t.game
        assert game is not None
        deal = game.deals[-1]
        cardplay = deal.cardplay  # the game's: the table's own trick play began there
        assert isinstance(cardplay, TrickPlay)
        play = t.play if t.play is not None else cardplay
        plays = deal.plays
        done = len(play.winners)
        n = len(play.hands)
        have, shown = t.tricks_text
        if have != done:
            if have > done:  # not this table's tricks: read again from the first
                have, shown = 0, ""
            logged = len(plays)
            pending = t.pending

            def card(i: int) -> int:
                c = plays[i] if i < logged else pending[i - logged]
                assert c is not None
                return c

            direction = play.rules.direction
            leader = (deal.play_seats[0] if logged else cardplay.leader) if have == 0 else play.winners[have - 1]
            more = []
            for k in range(have, done):
                seats = tuple((leader + direction * j) % n for j in range(n))
                winner = play.winners[k]
                more.append(trick_words(seats, tuple(card(k * n + j) for j in range(n)), winner))
                leader = winner
            shown = " | ".join([shown, *more]) if shown else " | ".join(more)
            t.tricks_text = (done, shown)
        if play.trick:
            current = trick_words(tuple(play.trick_seats()), tuple(play.trick), None)
            shown = f"{shown} | {current}" if shown else current
        hands = play.hands
        return seat_text(frame, player, play.turn, hands[player], shown, play.captured, list(map(int.bit_count, hands)))

    def _seen(self, player: int) -> tuple[object, ...] | None:
        """Everything ``player`` has seen, once the deal in play is dealt (None before, and at the
        end, when the cards left may be shown): the history without the other seats' cards of
        this deal, and its own. Two states that agree on it show the seat the same text (the
        search meets the same one in many worlds): the key of :attr:`_Static.texts`."""
        t = self._t
        if t.game is None or t.hands is not None or t.over:
            return None
        history = self._actions()
        start = t.deal_start
        after = start + t.static.deck_size
        return (player, self._dealt(player), tuple(history[:start]), tuple(history[after:]))

    def information_text(self, player: int) -> str:
        """The observation, after what the seat saw of each earlier deal of the episode."""
        earlier = self._t.records[player]
        now = self.observation_text(player)
        return "\n".join([*earlier, now]) if earlier else now

    # -- search ------------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BarbuState:
        """A state the seat cannot tell from this one, with the unseen cards dealt again.

        Its history is :meth:`resampled_history` of one draw of ``probability_sampler``; the
        state is built without replaying that history through the game (:meth:`_world`).
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        t = self._t
        if t.game is None or t.over:
            same: BarbuState = self.clone()
            return same
        history, dealt = self._resampled(player_id, rng)
        return self._world(history, player_id, dealt)

    def resampled_history(self, player_id: int, rng: random.Random) -> list[int]:
        """The history of a world ``player_id`` cannot tell from this one: the current deal's
        cards it has not seen dealt again from ``rng`` (:mod:`barbu.unseen`), earlier deals and
        every public action kept."""
        return self._resampled(player_id, rng)[0]

    def _resampled(self, player_id: int, rng: random.Random) -> tuple[list[int], list[int] | None]:
        """:meth:`resampled_history`, and each seat's cards of the deal in it once it is dealt."""
        t = self._t
        history = self._actions()
        static = t.static
        start = t.deal_start
        if t.hands is not None:
            cards = list(cards_of(static.deck))
            rng.shuffle(cards)
            return history[:start] + cards[: len(history) - start], None
        game = self._game()
        deal = game.current
        assert deal is not None and deal.dealt is not None
        hidden = t.known.get(("hidden", player_id))
        if hidden is None:
            hidden = _hidden(game, player_id, static)
            t.known = {**t.known, ("hidden", player_id): hidden}
        hands = [h | p for h, p in zip(sample_hands(hidden, rng), hidden.played, strict=True)]
        new = history[:start] + _dealing_order(hands, deal.declarer, static, rng)
        return new + _replace_places(history[start + static.deck_size :], deal, hands, player_id, static, rng), hands

    def _world(self, history: list[int], player: int, hands: list[int] | None = None) -> BarbuState:
        """The state of ``history``, which differs from this state's only in the current deal's
        cards (``hands``, each seat's cards of the deal, when it is dealt), and in Chinese poker
        in other seats' placings: a copy of this state's table holding those cards, its history
        written without replaying the game. In the arrange phase, where other seats' placings
        change, the history is replayed."""
        t = self._t
        static = t.static
        game = self._game()
        deal = game.deals[-1]
        if t.hands is None and deal.phase is Phase.ARRANGE:
            state: BarbuState = self.get_game().new_initial_state()
            for a in history:
                state.apply_action(a)
            return state
        table = t.copy()
        start = t.deal_start
        after = start + static.deck_size
        dealt = hands
        if dealt is None:
            n = static.players
            direction = static.rules.direction
            dealt = [0] * n
            for k, card in enumerate(history[start:after]):
                dealt[(deal.declarer + direction * k) % n] |= 1 << card
        if table.hands is not None:
            table.hands = dealt
        else:
            played = t.known.get("played")
            if played is None:  # each seat's cards played so far, the same in every world
                assert deal.dealt is not None
                played = [d & ~deal.hand(s) for s, d in enumerate(deal.dealt)]
                t.known = {**t.known, "played": played}
            held = [h & ~p for h, p in zip(dealt, played, strict=True)]
            if type(deal.cardplay) is TrickPlay and deal.phase is Phase.PLAY:  # the world plays on, shared game
                table.play = deal.cardplay.copy()
                table.play.set_hands(held)
                table.pending = []
                table.world = (tuple(dealt), held)
            else:
                copied_game = table.game = game.copy()
                table.shared = False
                copied = copied_game.deals[-1]
                copied.dealt = tuple(dealt)
                if copied.cardplay is not None:
                    copied.cardplay.set_hands(held)
        # The history is this state's but for the cards dealt (chance's actions): the actions
        # before and after them, each with its player, are read once for every world drawn from
        # this state.
        shared = t.known.get("shared")
        if shared is None:
            pairs = self._pairs()
            shared = (pairs[:start], pairs[after:])
            t.known = {**t.known, "shared": shared}
        head, rest = shared
        # The seat cannot tell the world from this state: its text is the same.
        known: dict[Any, Any] = {"shared": shared}
        text = t.known.get(("text", player))
        if text is not None:
            known[("text", player)] = text
        table.known = known
        table.player = None
        # pyspiel keeps the history in C++; the world's is written there only when it is read
        # (:meth:`_flush`, as a playout's cards are): a search reads none of it.
        table.tail = [*head, *map(_DEALT.__getitem__, history[start:after]), *rest]
        world: BarbuState = BarbuState.__new__(BarbuState)
        pyspiel.State.__init__(world, self.get_game())
        world._t = table
        return world


class BarbuObserver:
    """OpenSpiel's observer of one seat: the vector of its view, and its text."""

    def __init__(self, static: _Static, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"python_barbu observers take no parameters, not {params!r}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("python_barbu observes for one seat: its private cards and the public information")
        self.static = static
        self.perfect_recall = bool(iig_obs_type.perfect_recall) and static.deals > 1
        size = static.observations.size
        blocks = static.deals if self.perfect_recall else 1
        self.tensor = np.zeros(size * blocks, np.float32)
        self._now = self.tensor[(blocks - 1) * size :]
        # pyspiel reads the sections of ``dict`` in order: they tile ``tensor`` from its start.
        self.dict: dict[str, np.ndarray] = {}
        if self.perfect_recall:
            self.dict["earlier_deals"] = self.tensor[: (blocks - 1) * size].reshape(blocks - 1, size)
        self.dict.update({name: static.observations.part(self._now, name) for name in static.observations.sections})

    def set_from(self, state: BarbuState, player: int) -> None:
        """Write the seat's vector into ``tensor``, in place.

        Without perfect recall (and for single deals, where the observation is perfect
        recall) it is the observation vector. With perfect recall in ``game`` episodes, the
        tensor has one block per deal of the game: first the seat's observation at the end
        of each finished deal (``earlier_deals``, zeros for deals not yet played), then the
        current observation in the last block.
        """
        view, placed = state.view(player)
        self.static.observations.encode_into(self._now, view, placed)
        if self.perfect_recall:
            earlier = self.dict["earlier_deals"]
            finals = state._t.finals[player]
            earlier[len(finals) :] = 0.0
            for k, vector in enumerate(finals):
                earlier[k] = vector

    def string_from(self, state: BarbuState, player: int) -> str:
        """The seat's information state (perfect recall) or observation, in words."""
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


def _ended(game: Game, deals_before: int) -> Game:
    """A copy of ``game`` as it was when its deal ``deals_before`` ended (the next one not yet open)."""
    return game.ended(deals_before)


# -- what a seat saw of a finished deal --------------------------------------------------------


def _deal_record(deal: Deal, seat: int) -> str:
    """One line: the seat's hand, the public actions and the scores of a finished deal."""
    assert deal.dealt is not None and deal.contract is not None and deal.final is not None
    parts = [f"deal {deal.index + 1} declarer P{deal.declarer} {deal.describe_choice()}"]
    parts.append("hand " + " ".join(card_name(c) for c in cards_of(deal.dealt[seat])))
    if deal.doubling is not None:
        parts.append("calls " + " ".join(f"P{c.seat}:{c.said}" for c in deal.doubling.calls))
    if deal.arrangements:
        parts.append("arrangements " + " / ".join(" ".join(card_name(c) for c in a or ()) for a in deal.arrangements))
    plays = zip(deal.play_seats, deal.plays, strict=True)
    parts.append("plays " + " ".join(f"P{s}:{'pass' if c is None else card_name(c)}" for s, c in plays))
    parts.append("final " + " ".join(str(f) for f in deal.final))
    return " · ".join(parts)


# -- dealing the unseen cards again ---------------------------------------------------------------


def _mask(hands: list[int]) -> int:
    out = 0
    for h in hands:
        out |= h
    return out


def _hidden(game: Game, player: int, static: _Static) -> HiddenCards:
    """What ``player`` knows of the cards of the current deal it has not seen (:mod:`barbu.unseen`)."""
    deal = game.current
    assert deal is not None
    # The seat knows its own cards, also once its arrangement is set and the view shows none.
    view = replace(seat_view(game, player), hand=tuple(cards_of(deal.hand(player))))
    return hidden_cards(view, static.rules)


def _dealing_order(hands: list[int], declarer: int, static: _Static, rng: random.Random) -> list[int]:
    """Chance outcomes dealing ``hands``: one card at a time from the declarer round the table
    (in compiled code with the accelerator, drawing from ``rng`` as this code does)."""
    n = static.players
    if _DEAL_ORDER is not None and type(rng) is random.Random and not static.deck >> 64:  # one deck
        return _DEAL_ORDER(rng.getrandbits, hands, declarer, static.rules.direction, static.deck_size)
    piles = []
    for h in hands:
        pile = _cards(h)
        rng.shuffle(pile)
        piles.append(pile)
    return [piles[(declarer + static.rules.direction * k) % n].pop() for k in range(static.deck_size)]


def _replace_places(
    actions: list[int], deal: Deal, hands: list[int], player: int, static: _Static, rng: random.Random
) -> list[int]:
    """The deal's actions, with other seats' Chinese-poker placings chosen from their new hands."""
    place = static.actions.sections["place"]
    if not place or deal.phase is not Phase.ARRANGE:
        return actions
    order = deal._arrange_order()
    back, middle, _ = PartialArrangement(hands[order[0]]).sizes
    out: list[int] = []
    piles: dict[int, list[int]] = {}
    placed = 0
    for a in actions:
        if a not in place:
            out.append(a)
            continue
        seat = order[placed // (back + middle)]
        placed += 1
        if seat == player:
            out.append(a)
            continue
        if seat not in piles:
            piles[seat] = cards_of(hands[seat])
            rng.shuffle(piles[seat])
        out.append(place.start + piles[seat].pop())
    return out


def load(variant: str = "classic", options: dict[str, Any] | None = None, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("python_barbu", ...)`` with ``options`` given as a dict.

    >>> load("king", episode="deal").num_players()
    4
    """
    return pyspiel.load_game(GAME_NAME, {"variant": variant, "options": json.dumps(options or {}), **params})


_DEFAULT = _Static(DEFAULTS)
pyspiel.register_game(_game_type(_DEFAULT.utility()[0], _DEFAULT.reward_model()), BarbuGame)

__all__ = ["DEFAULTS", "GAME_NAME", "BarbuGame", "BarbuObserver", "BarbuState", "load"]
