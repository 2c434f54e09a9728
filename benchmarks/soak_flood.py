"""Flood soak: honest tables' round trips, quiet and beside hostile clients, on loopback.

Starts ``barbu serve`` (SQLite, default limits) in a subprocess on 127.0.0.1 and prepares a
long table (``--long`` actions played, one watcher left at it). Honest tables (four seats
each, client-side bots from 127.0.0.2 that think ``--think`` seconds ± 50 % and play a random
legal action) measure every action's round trip (send → ``ack``, which follows the commit).
First for ``--seconds`` of quiet, then for as long again while a second process runs the
hostile clients, each from its own loopback address:

- 8 sync flooders (127.0.0.10): watchers of the long table asking, again and again without
  waiting, for the last 64 events and for everything from sequence 0; reconnecting when closed;
- a hello flood (127.0.0.11): hellos to tables that do not exist and to the long table;
- a join flood (127.0.0.12): connections joining an honest table as watchers, then leaving;
- 4 slow readers (127.0.0.13): watchers of the long table that ask for catch-ups and never read.

The hostile process runs at the lowest priority (``nice 19``), as if the attacker were on
another machine: what is measured is the server's own work for the flood, not the attacker's
CPU taking the machine. It prints the honest p50/p99 quiet and under attack and their ratio
(the goal: p99 under attack below twice the quiet p99), the server's resident memory and CPU
time, and what the hostile clients got (frames, refusals, closes), and the load average. Bounded:
a fixed number of clients, a fixed time, loopback only.

``--probe`` also times the server from inside (``benchmarks/flood_probe/sitecustomize.py``,
loaded in the server process alone): its garbage-collector passes, the journal's commits, each
action's wait for its commit, and the event loop's lag, per phase. That is how the round trip's
tail was taken apart: full GC passes of 40-170 ms under attack (none quiet) were the server's
own share, and are gone since the objects of its start are set aside (``barbu.server.heap``);
what is left is the database's commit (an fsync on a shared disk) and the machine's scheduler,
which stall quiet phases as often as attacked ones.

Method. On a shared machine one run proves little: a quiet phase during another process's
burst looks worse than an attacked one. Run several times, alternating the code compared (the
old tree first on ``PYTHONPATH``), and compare runs whose load averages match; to separate the
attacker's CPU from the server's work, pin the soak (server and honest clients) to one core
with ``taskset -c 0`` and move the ``--hostile`` process to the other (``taskset -apc 1 PID``).

    python benchmarks/soak_flood.py [--tables 4] [--think 0.3] [--seconds 20] [--long 400] [--probe]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets
from bench_server import Load, cpu_seconds, percentile, rss_mib

from barbu.server.client import SeatClient, ServerProcess

HONEST = "127.0.0.2"
PREPARE = "127.0.0.3"


async def connect(url: str, source: str) -> SeatClient:
    """A seat client whose connection comes from the loopback address ``source``."""
    c = SeatClient(url, keep_frames=False)
    c.ws = await websockets.connect(url, max_size=2**22, local_addr=(source, 0))
    return c


async def act_acked(client: SeatClient, intent: dict[str, Any]) -> dict[str, Any]:
    """Send an intent until it is not refused for its rate; the ack or error."""
    while True:
        answer = await client.answer(await client.act(intent), timeout=120)
        if answer.get("code") != "rate_limited":
            return answer
        await asyncio.sleep(answer.get("retry_after", 0.5))


# -- the honest side ---------------------------------------------------------------------------


class Honest(Load):
    """Tables of four client-side bots (the load of bench_server.py), connected from the honest
    loopback address, and the round trips they measured."""

    async def seat_client(self) -> SeatClient:
        return await connect(self.server.ws, HONEST)


async def long_table(server: ServerProcess, http: httpx.AsyncClient, actions: int) -> tuple[str, SeatClient]:
    """A table with ``actions`` actions played quickly, its players gone and one watcher left."""
    r = await http.post("/api/tables", json={"variant": "classic", "seats": [{"kind": "human"}] * 4})
    made = r.json()
    clients = []
    for seat in made["seats"]:
        c = await connect(server.ws, PREPARE)
        await c.hello(made["table"], seat["link"].split("key=")[1])
        clients.append(c)
    watcher = await connect(server.ws, PREPARE)
    await watcher.hello(made["table"])
    everyone = [*clients, watcher]
    for _ in range(actions):
        actor = next(c for c in clients if c.my_turn())
        assert actor.view is not None
        answer = await act_acked(actor, actor.view["legal_actions"][0])
        assert "ack" in answer, answer
        for c in everyone:
            while (c.seq or 0) < answer["seq"]:
                await c.recv(timeout=60)
    await asyncio.gather(*(c.close() for c in clients))
    return made["table"], watcher


# -- the hostile side (its own process) ---------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def frame(self, who: str, text: str | bytes) -> None:
        frame = json.loads(text)
        kind = frame.get("type")
        self.counts[f"{who} {frame['code'] if kind == 'error' else kind}"] += 1


async def sync_flooder(url: str, table: str, seq: int, stop: float, tally: Tally) -> None:
    while time.monotonic() < stop:
        try:
            async with websockets.connect(url, max_size=2**22, local_addr=("127.0.0.10", 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "table": table}))

                async def read() -> None:
                    with contextlib.suppress(websockets.WebSocketException):
                        async for text in ws:
                            tally.frame("sync-flood", text)

                reader = asyncio.ensure_future(read())
                i = 0
                while time.monotonic() < stop and not reader.done():
                    last = 0 if i % 2 else max(0, seq - 64)
                    await ws.send(json.dumps({"type": "sync", "last_seq": last}))
                    i += 1
                    await asyncio.sleep(0.005)
                reader.cancel()
        except (OSError, websockets.WebSocketException) as e:
            tally.counts[f"sync-flood closed {getattr(getattr(e, 'rcvd', None), 'code', 'abruptly')}"] += 1
        else:
            tally.counts["sync-flood closed"] += 1
        await asyncio.sleep(0.05)


async def hello_flooder(url: str, table: str, stop: float, tally: Tally) -> None:
    n = 0
    while time.monotonic() < stop:
        try:
            async with websockets.connect(url, max_size=2**22, local_addr=("127.0.0.11", 0)) as ws:
                for _ in range(40):
                    n += 1
                    target = table if n % 3 == 0 else f"no-such-table-{n}"
                    await ws.send(json.dumps({"type": "hello", "table": target}))
                    with contextlib.suppress(TimeoutError):
                        tally.frame("hello-flood", await asyncio.wait_for(ws.recv(), 0.2))
        except websockets.InvalidStatus as e:
            tally.counts[f"hello-flood refused {e.response.status_code}"] += 1
        except (OSError, websockets.WebSocketException):
            tally.counts["hello-flood closed"] += 1
        await asyncio.sleep(0.01)


async def join_flooder(url: str, table: str, stop: float, tally: Tally) -> None:
    while time.monotonic() < stop:
        try:
            async with websockets.connect(url, max_size=2**22, local_addr=("127.0.0.12", 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "table": table}))
                with contextlib.suppress(TimeoutError):
                    tally.frame("join-flood", await asyncio.wait_for(ws.recv(), 1.0))
        except websockets.InvalidStatus as e:
            tally.counts[f"join-flood refused {e.response.status_code}"] += 1
        except (OSError, websockets.WebSocketException):
            tally.counts["join-flood closed"] += 1


async def slow_reader(port: int, url: str, table: str, seq: int, stop: float, tally: Tally) -> None:
    while time.monotonic() < stop:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind(("127.0.0.13", 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        try:
            ws = await websockets.connect(url, sock=sock, max_size=2**22, max_queue=1)
            await ws.send(json.dumps({"type": "hello", "table": table}))
            while time.monotonic() < stop:
                await ws.send(json.dumps({"type": "sync", "last_seq": max(0, seq - 64)}))
                await asyncio.sleep(0.5)
        except (OSError, websockets.WebSocketException):
            tally.counts["slow-reader dropped"] += 1
        else:
            with contextlib.suppress(Exception):
                ws.transport.abort()
        await asyncio.sleep(0.1)


async def hostile(port: int, long_id: str, seq: int, honest_id: str, seconds: float, attacks: str) -> None:
    os.nice(19)  # as if the attacker ran elsewhere: its own CPU should not slow the server or the honest clients
    url = f"ws://127.0.0.1:{port}/ws"
    stop = time.monotonic() + seconds
    tally = Tally()
    tasks: list[Any] = []
    if "sync" in attacks:
        tasks += [sync_flooder(url, long_id, seq, stop, tally) for _ in range(8)]
    if "hello" in attacks:
        tasks += [hello_flooder(url, long_id, stop, tally)]
    if "join" in attacks:
        tasks += [join_flooder(url, honest_id, stop, tally) for _ in range(4)]
    if "slow" in attacks:
        tasks += [slow_reader(port, url, long_id, seq, stop, tally) for _ in range(4)]
    await asyncio.wait([asyncio.ensure_future(t) for t in tasks], timeout=seconds + 10)
    print(json.dumps(dict(sorted(tally.counts.items()))), flush=True)


# -- the run -------------------------------------------------------------------------------------


PROBE = Path(__file__).parent / "flood_probe"


def probe_summary(path: Path, phases: list[tuple[str, float, float]]) -> list[str]:
    """The server's own timings (see ``flood_probe/sitecustomize.py``), per phase: p50, p99, max, count."""
    if not path.exists():
        return ["probe: the server wrote no timings"]
    rows = [line.split() for line in path.read_text().splitlines()]
    out = ["server inside  phase          n   p50 ms   p99 ms   max ms  (gc: total ms, full passes ms)"]
    for kind in ("act", "write", "commit", "lag", "gc"):
        for name, begin, end in phases:
            ms = [float(r[2]) for r in rows if r[0] == kind and begin <= float(r[1]) < end]
            if not ms:
                out.append(f"{kind:<14} {name:<13} {0:5d}")
                continue
            p50, p99 = percentile(ms, 0.5), percentile(ms, 0.99)
            text = f"{kind:<14} {name:<13} {len(ms):5d} {p50:8.2f} {p99:8.2f} {max(ms):8.1f}"
            if kind == "gc":
                full = [
                    f"{float(r[2]):.0f}" for r in rows if r[0] == "gc" and r[3] == "gen2" and begin <= float(r[1]) < end
                ]
                text += f"  ({sum(ms):.0f}; {', '.join(full) or 'none'})"
            out.append(text)
    return out


async def measure(honest: Honest, pid: int, seconds: float) -> tuple[list[float], float, float]:
    """Round trips completed in the next ``seconds``; the server's peak memory and CPU share meanwhile."""
    start = time.perf_counter()
    cpu = cpu_seconds(pid)
    peak = 0.0
    while time.perf_counter() - start < seconds:
        peak = max(peak, rss_mib(pid))
        await asyncio.sleep(0.25)
    share = (cpu_seconds(pid) - cpu) / (time.perf_counter() - start)
    return [rtt for when, rtt in honest.rtts if when >= start], peak, share


def line(name: str, rtts: list[float], peak: float, cpu: float) -> str:
    if not rtts:
        return f"{name:<13} no action completed"
    p50 = statistics.median(rtts) * 1000
    p99 = percentile(rtts, 0.99) * 1000
    return f"{name:<13} {len(rtts):8d} {p50:8.1f} {p99:8.1f} {peak:9.0f} {cpu * 100:9.0f}"


async def run(tables: int, think: float, seconds: float, actions: int, attacks: str, probe: bool) -> None:
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        timings = Path(tmp) / "probe.txt"
        if probe:  # only the server's environment: the probe loads in that process alone
            os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROBE), os.environ.get("PYTHONPATH")]))
            os.environ["BARBU_FLOOD_PROBE"] = str(timings)
        server = stack.enter_context(ServerProcess(f"sqlite:///{tmp}/soak.db"))
        if probe:
            del os.environ["BARBU_FLOOD_PROBE"]
        assert server.process is not None
        pid = server.process.pid
        await asyncio.sleep(1.0)
        empty = rss_mib(pid)
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
            long_id, watcher = await long_table(server, http, actions)
            honest = Honest(server, think)
            for _ in range(tables):
                await honest.add_table(http)
        print(f"server {empty:.0f} MiB empty; long table of {actions} actions; {tables} honest tables, think {think} s")
        await asyncio.sleep(2.0)
        quiet_at = time.time()
        quiet, quiet_peak, quiet_cpu = await measure(honest, pid, seconds)
        attack = subprocess.Popen(
            [
                *(sys.executable, __file__, "--seconds", str(seconds), "--attacks", attacks),
                *("--hostile", f"{server.port},{long_id},{actions},{honest.table_ids[0]}"),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        await asyncio.sleep(1.0)  # the flood is under way
        loud_at = time.time()
        loud, loud_peak, loud_cpu = await measure(honest, pid, seconds)
        out, _ = attack.communicate(timeout=seconds + 60)
        print("phase         actions   p50 ms   p99 ms  peak MiB  server CPU %")
        print(line("quiet", quiet, quiet_peak, quiet_cpu))
        print(line("under attack", loud, loud_peak, loud_cpu))
        if quiet and loud:
            ratio = percentile(loud, 0.99) / percentile(quiet, 0.99)
            print(f"p99 under attack / quiet: {ratio:.2f} (goal < 2); honest failures: {honest.failures}")
        print(f"hostile clients got: {out.strip()}")
        print(f"load average (1, 5, 15 min) at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if probe:
            await asyncio.sleep(2.5)  # the probe's last rewrite
            phases = [("quiet", quiet_at, quiet_at + seconds), ("under attack", loud_at, loud_at + seconds)]
            print("\n".join(probe_summary(timings, phases)))
        for task in honest.tasks:
            task.cancel()
        await asyncio.gather(*honest.tasks, return_exceptions=True)
        await watcher.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=4, help="honest tables (default 4)")
    p.add_argument("--think", type=float, default=0.3, help="seconds an honest seat thinks (default 0.3)")
    p.add_argument("--seconds", type=float, default=20.0, help="seconds of each phase (default 20)")
    p.add_argument("--long", type=int, default=400, help="actions played at the long table (default 400)")
    p.add_argument("--attacks", default="sync,hello,join,slow", help="hostile clients to run (default all four)")
    p.add_argument(
        "--probe",
        action="store_true",
        help="time the server from inside (GC passes, commits, event-loop lag) and print them per phase",
    )
    p.add_argument("--hostile", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.hostile:
        port, long_id, seq, honest_id = args.hostile.split(",")
        asyncio.run(hostile(int(port), long_id, int(seq), honest_id, args.seconds, args.attacks))
        return
    asyncio.run(run(args.tables, args.think, args.seconds, args.long, args.attacks, args.probe))


if __name__ == "__main__":
    main()
