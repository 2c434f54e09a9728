"""Hypothesis state machines over the table protocol, against the real app in this process.

Each run makes a table of one rule set with four people, seats a connection on every seat
and one watcher, then interleaves legal actions with stale, duplicate, out-of-turn,
malformed and hostile frames (random JSON, deep nesting, huge values, every message
type) from any connection. After every step:

- no connection ever received an ``internal`` error;
- a message that was refused (answered with an ``error``, acknowledged by no frame) left the table
  byte-identical: its sequence number, every seat's view and the stored log;
- every connection's view (the ``state`` frames with every patch merged in) is exactly
  what the core shows its seat (``seat_view``), so no seat ever holds another seat's
  unplayed cards, and no frame carries the deck's seed;
- the stored log, replayed through the core, gives the live game.

Each step is made synchronous by a ``ping``: frames before its ``pong`` answer what was sent
(a hostile frame that is itself a ping has a pong of its own).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from starlette.testclient import TestClient

from barbu.rulesets import RULE_SETS
from barbu.server.app import create_app
from barbu.server.limits import Limits
from barbu.server.protocol import ProtocolError, parse_message
from barbu.server.tables import LiveTable, Settings, replay
from barbu.view import seat_view
from conftest import QUICK_GATHER

OPEN = Limits(
    actions_per_second=1e6,
    action_burst=10**6,
    messages_per_second=1e6,
    message_burst=10**6,
    address_per_second=1e6,
    address_burst=10**6,
    table_per_second=1e6,
    table_burst=10**6,
    refusal_burst=10**6,
    tables_per_client=10**6,
    connections_per_client=10**6,
)
"""No rate limit here: the machine sends as fast as it can, and limits are tested elsewhere."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz-protocol") / "barbu.db"
    app = create_app(
        f"sqlite:///{db}", Settings(commit_gather=QUICK_GATHER, bot_delay=3600, takeover_after=3600, limits=OPEN)
    )
    with TestClient(app) as c:
        yield c


def json_values() -> st.SearchStrategy[Any]:
    """JSON values, including the ones parsers trip on."""
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=12),
        st.sampled_from(["QS", "qs", "10H", "S", "7", "pass", "maximum", "no-queens", "\x00", "<b>x</b>", "A" * 5000]),
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=10,
    )


INTENT_KEYS = ("type", "card", "suit", "rank", "contract", "call", "double", "redouble", "cards")
TYPES = ("play", "call", "declare", "trump", "rank", "pass", "arrange", "PLAY", "")


def hostile_intents() -> st.SearchStrategy[Any]:
    """Intents with the right shape and wrong contents, or no shape at all."""
    shaped = st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={k: json_values() for k in INTENT_KEYS[1:]},
    )
    cards = st.sampled_from([f"{r}{s}" for r in "23456789TJQKA" for s in "SHDC"])
    plays = st.builds(lambda c: {"type": "play", "card": c}, cards)
    seats = st.lists(st.integers(min_value=-1, max_value=5), max_size=4)
    calls = st.builds(lambda d, r: {"type": "call", "double": d, "redouble": r}, seats, seats)
    return st.one_of(shaped, plays, calls, json_values())


def raw_frames() -> st.SearchStrategy[str]:
    """Text sent as a frame: any message type with random fields, deep nesting, long text, not JSON."""
    message = st.fixed_dictionaries(
        {"type": st.sampled_from(["hello", "act", "sync", "ping", "say", "hints", "HELLO", "welcome", "", "error"])},
        optional={
            k: json_values()
            for k in ("table", "key", "name", "seat", "last_seq", "id", "seq", "action", "phrase", "agree")
        },
    ).map(json.dumps)
    deep = st.integers(min_value=500, max_value=4000).map(lambda n: '{"type": "act", "action": ' + "[" * n + "]" * n)
    junk = st.sampled_from(["", "{", "null", "[]", '"ping"', "{" * 9000, '{"type": "ping"}' + " " * 9000])
    return st.one_of(message, deep, junk, json_values().map(json.dumps))


class Connection:
    """One WebSocket of the test client, with the view it was sent (patches merged)."""

    def __init__(self, client: TestClient, seat: int | None) -> None:
        self.context = client.websocket_connect("/ws")
        self.ws = self.context.__enter__()
        self.seat = seat
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.frames: list[dict[str, Any]] = []

    def send(self, text: str) -> list[dict[str, Any]]:
        """Send a frame, then read up to the answer of a ``ping`` sent after it (and the frame's own pong)."""
        self.ws.send_text(text)
        try:
            pings = 2 if parse_message(text, OPEN)["type"] == "ping" else 1
        except ProtocolError:
            pings = 1
        return self.drain(pings)

    def drain(self, pongs: int = 1) -> list[dict[str, Any]]:
        """Everything sent to this connection so far (up to the answer of a ``ping``)."""
        self.ws.send_text('{"type": "ping"}')
        got = []
        while True:
            frame = json.loads(self.ws.receive_text())
            if frame["type"] == "pong":
                pongs -= 1
                if pongs == 0:
                    return got
                continue
            got.append(frame)
            self.frames.append(frame)
            if frame["type"] in ("state", "event"):
                self.seq = frame["seq"]
                if "view" in frame:
                    self.view = frame["view"]
                else:
                    assert self.view is not None, "a patch came before any whole view"
                    self.view = {**self.view, **frame["patch"]}

    def close(self) -> None:
        self.context.__exit__(None, None, None)


class ProtocolMachine(RuleBasedStateMachine):
    """Seats and a watcher at one table, sending what a client may and may not send."""

    client: TestClient

    def __init__(self) -> None:
        super().__init__()
        self.conns: list[Connection] = []
        self.table = ""
        self.refs = 0
        self.acked: list[tuple[int, str, dict[str, Any]]] = []
        self.internal: list[dict[str, Any]] = []

    @initialize(variant=st.sampled_from(sorted(RULE_SETS)))
    def make_table(self, variant: str) -> None:
        players = RULE_SETS[variant].player_counts[0]
        r = self.client.post("/api/tables", json={"variant": variant, "seats": [{"kind": "human"}] * players})
        assert r.status_code == 200, r.text
        body = r.json()
        self.table = body["table"]
        keys = [s["link"].split("key=")[1] for s in body["seats"]]
        for seat, key in enumerate(keys):
            conn = Connection(self.client, seat)
            self.conns.append(conn)
            conn.send(json.dumps({"type": "hello", "table": self.table, "key": key, "name": f"P{seat}"}))
        watcher = Connection(self.client, None)
        watcher.send(json.dumps({"type": "hello", "table": self.table}))
        self.conns.append(watcher)
        self.drain_all()

    # -- the table as the server holds it ------------------------------------------

    def live(self) -> LiveTable:
        table = self.client.app.state.service.live[self.table]  # type: ignore[attr-defined]
        assert isinstance(table, LiveTable)
        return table

    def snapshot(self) -> str:
        """The table's sequence number, every seat's view and the stored log, as text."""
        table = self.live()
        stored = self.client.app.state.store.load_table(self.table)  # type: ignore[attr-defined]
        views = [seat_view(table.game, s).as_json() for s in [*range(len(table.seats)), None]]
        log = [(a.seq, a.seat, a.intent, a.action_id) for a in stored.actions]
        return json.dumps([table.seq, table.status, views, log], sort_keys=True)

    def drain_all(self) -> None:
        for c in self.conns:
            c.drain()

    def note(self, frames: list[dict[str, Any]]) -> None:
        self.internal += [f for f in frames if f.get("type") == "error" and f.get("code") == "internal"]

    def attempt(self, conn: Connection, text: str, ref: str | None = None) -> list[dict[str, Any]]:
        """Send a frame; if it was refused, the table must be exactly as before."""
        before = self.snapshot()
        frames = conn.send(text)
        self.note(frames)
        acked = any(f.get("ack") == ref for f in frames) if ref is not None else False
        if not acked and any(f["type"] == "error" for f in frames):
            assert self.snapshot() == before, f"a refused frame changed the table: {text[:200]}"
        self.drain_all()
        return frames

    def next_ref(self) -> str:
        self.refs += 1
        return f"r{self.refs}"

    def to_act(self) -> Connection | None:
        seat = self.live().game.to_act
        return None if seat is None else self.conns[seat]

    # -- rules -----------------------------------------------------------------------

    @precondition(lambda self: self.table and not self.live().game.is_over)
    @rule(choice=st.integers(min_value=0, max_value=10**6))
    def legal_action(self, choice: int) -> None:
        conn = self.to_act()
        assert conn is not None and conn.view is not None
        legal = conn.view["legal_actions"]
        intent = legal[choice % len(legal)]
        ref = self.next_ref()
        frames = self.attempt(conn, json.dumps({"type": "act", "id": ref, "seq": conn.seq, "action": intent}), ref)
        assert [f["type"] for f in frames if f.get("ack") == ref] == ["event"], frames
        self.acked.append((conn.seat or 0, ref, intent))

    @precondition(lambda self: self.table)
    @rule(who=st.integers(min_value=0, max_value=5), intent=hostile_intents(), seq_shift=st.sampled_from([0, 0, -1, 1]))
    def hostile_action(self, who: int, intent: Any, seq_shift: int) -> None:
        conn = self.conns[who % len(self.conns)]
        ref = self.next_ref()
        frame = {"type": "act", "id": ref, "seq": max(0, conn.seq + seq_shift), "action": intent}
        self.attempt(conn, json.dumps(frame), ref)

    @precondition(lambda self: self.table and self.acked)
    @rule(which=st.integers(min_value=0, max_value=10**6))
    def resend_an_acknowledged_action(self, which: int) -> None:
        seat, ref, intent = self.acked[which % len(self.acked)]
        conn = self.conns[seat]
        frames = self.attempt(conn, json.dumps({"type": "act", "id": ref, "seq": conn.seq, "action": intent}))
        if ref in dict(self.live().recent):
            assert any(f["type"] == "ack" and f["ack"] == ref and f.get("duplicate") for f in frames), frames

    @precondition(lambda self: self.table)
    @rule(who=st.integers(min_value=0, max_value=5), text=raw_frames())
    def hostile_frame(self, who: int, text: str) -> None:
        self.attempt(self.conns[who % len(self.conns)], text)

    @precondition(lambda self: self.table)
    @rule(who=st.integers(min_value=0, max_value=5), back=st.integers(min_value=-3, max_value=100))
    def sync(self, who: int, back: int) -> None:
        conn = self.conns[who % len(self.conns)]
        self.attempt(conn, json.dumps({"type": "sync", "last_seq": max(0, conn.seq - back)}))

    @precondition(lambda self: self.table)
    @rule(who=st.integers(min_value=0, max_value=5), key=st.sampled_from(["", "x" * 64, "not a key"]))
    def hello_again_or_elsewhere(self, who: int, key: str) -> None:
        conn = self.conns[who % len(self.conns)]
        self.attempt(conn, json.dumps({"type": "hello", "table": self.table, "key": key}))
        self.attempt(conn, json.dumps({"type": "hello", "table": "no-such-table"}))

    # -- invariants ----------------------------------------------------------------------

    @invariant()
    def no_internal_error(self) -> None:
        assert not self.internal, self.internal

    @invariant()
    def every_connection_sees_its_own_view_and_nothing_else(self) -> None:
        if not self.table:
            return
        table = self.live()
        seed = table.row.seed
        for conn in self.conns:
            if conn.view is None:
                continue
            assert conn.seq == table.seq, (conn.seat, conn.seq, table.seq)
            assert conn.view == seat_view(table.game, conn.seat).as_json()
            assert not any(seed in json.dumps(f) for f in conn.frames[-20:])

    @invariant()
    def the_stored_log_replays_to_the_live_game(self) -> None:
        if not self.table:
            return
        table = self.live()
        stored = self.client.app.state.store.load_table(self.table)  # type: ignore[attr-defined]
        game = replay(stored.table, stored.actions)
        assert len(stored.actions) == table.seq
        for s in [*range(len(table.seats)), None]:
            assert seat_view(game, s).as_json() == seat_view(table.game, s).as_json()

    def teardown(self) -> None:
        for c in self.conns:
            c.close()


def test_the_protocol_holds_under_hostile_clients(client: TestClient) -> None:
    ProtocolMachine.client = client
    run = ProtocolMachine.TestCase
    run.settings = settings(
        phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failure is shown as found: shrinking takes minutes
        max_examples=16,
        stateful_step_count=25,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    run().runTest()
