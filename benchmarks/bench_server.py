"""Load on the web app: many bot-only tables over real WebSockets on loopback.

Starts ``barbu serve`` (SQLite, WAL, full synchronous commits) in a subprocess, then adds
tables in steps. Every table has four seats, each played by a client-side bot on its own
WebSocket: when the seat's view says it is to act, the bot "thinks" for ``--think`` seconds
(± 50 %, like a person or the server's bot delay), picks a legal action at random and
sends it. The round trip of an action is the time from sending it to receiving its
acknowledgement (the event it made, with ``ack``), which the server sends only once the
action is committed to the database.

At each step it prints the tables held, the actions per second the server accepted, the
p50/p99 round trip, the round trip as a ratio of the one-table reference measured in the
same run, the server's memory per table (resident memory over the empty server's,
divided by the tables), the server's CPU time per accepted action (with the part spent in
the kernel: sockets and disk writes; it bounds the actions per second one core can serve,
whatever else the machine runs) and how much of the time some task waited for a CPU (Linux
PSI: the machine may be shared) with the load average, the actions each of the journal's
commits held and the server's event loop lag at p50/p99 and its worst (from the server's
``/metrics``: a timer looked at ten times a second; the upper bound of the histogram's bucket),
the CPU this benchmark's own client bots used per action (they share the machine's cores
with the server) and their own loop's lag (p99 and worst, measured the same way), and the garbage
collector's passes in each process (how many over each generation, and the longest of each:
the server's from ``barbu_gc_pause_seconds``, a bucket's upper bound, ``nan`` for none; the
client's timed through ``gc.callbacks``). It stops
after the last step, or when p99 passes ``--limit-ms``.

    python benchmarks/bench_server.py [--steps 1,100,200,300,400,500] [--think 1.0] [--seconds 20]

``--server-cpus 0 --client-cpus 1`` pins the server (every thread) to the first CPUs and this
process, the client bots, to the others, so the server's CPU per action is read apart from the
clients' (the machine's other work may still share either core).

The client bots' process uses the server's heap policy (``barbu.server.heap``: what it holds
at start frozen, young objects given 20,000 allocations to die) and, besides, collects its two
younger generations every 0.1 s. With CPython's defaults its 2,000 connections and their bots'
states were walked by full collections of up to a second, on the loop that times every round
trip. The threshold alone is not enough: CPython 3.11 counts allocations minus deallocations
of any generation, and a bot's view replaced by the next one allocates young objects as it
frees old ones, so young passes came seldom and walked far more than 20,000 objects (up to
170 ms of CPU for one). Collected every 0.1 s, each pass holds 0.1 s of survivors.
Full passes are left to CPython's rule, which at this pace seldom fires (none in most 20-s
steps at 500 tables, one in some). This is part of the harness, not of the server.

``--profile FILE`` runs the server under cProfile (its main thread: the event loop) and writes
its statistics to FILE when the benchmark stops it (``python -m pstats FILE`` reads them).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import math
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from barbu.server.client import SeatClient, ServerProcess
from barbu.server.heap import CollectorPauses, set_aside_startup_objects
from barbu.server.tables import watch_loop_lag


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system (kernel: sockets, disk) CPU time a process has used, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


def cpu_pressure() -> str:
    """The share of the last 10 s in which some task waited for a CPU (Linux PSI), e.g. ``12%``."""
    try:
        line = Path("/proc/pressure/cpu").read_text().splitlines()[0]
        return line.split("avg10=")[1].split()[0] + "%"
    except (OSError, IndexError):
        return "n/a"


def rss_mib(pid: int) -> float:
    """Resident memory of a process, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Load:
    """The client side: tables of four bot seats, and the round trips they measured."""

    def __init__(self, server: ServerProcess, think: float) -> None:
        self.server = server
        self.think = think
        self.rtts: list[tuple[float, float]] = []  # (when, seconds)
        self.tasks: list[asyncio.Task[None]] = []
        self.clients: list[SeatClient] = []
        self.table_ids: list[str] = []
        self.failures = 0
        self.stopping = False
        self.lags: list[tuple[float, float]] = []  # (when, seconds): this process's own loop lag
        self.collections: list[tuple[float, int, float]] = []  # (when, generation, seconds): its GC passes
        self.pauses = CollectorPauses(
            lambda generation, pause: self.collections.append((time.perf_counter(), generation, pause))
        )

    async def watch_lag(self, every: float = 0.1) -> None:
        """How much later than asked a timer fires on this process's loop, every ``every`` seconds
        (the client bots' part of a round trip when they are short of CPU), as the server
        measures its own."""
        await watch_loop_lag(every, lambda lag: self.lags.append((time.perf_counter(), lag)))

    async def collect_young(self, every: float = 0.1) -> None:
        """Every ``every`` seconds, a pass over the two younger generations of this process's
        collector, so each stays small (see the module's docstring)."""
        while not self.stopping:
            await asyncio.sleep(every)
            gc.collect(1)

    @property
    def tables(self) -> int:
        """How many tables play."""
        return len(self.table_ids)

    async def seat_client(self) -> SeatClient:
        """A connection for one seat (another load may open it from elsewhere)."""
        client = await SeatClient(self.server.ws, keep_frames=False).connect()
        self.clients.append(client)
        return client

    async def add_table(self, http: httpx.AsyncClient) -> None:
        spec = {"variant": "classic", "seats": [{"kind": "human"}] * 4}
        try:
            r = await http.post("/api/tables", json=spec)
        except (httpx.ReadError, httpx.RemoteProtocolError):  # a kept-alive connection the server closed meanwhile
            r = await http.post("/api/tables", json=spec)
        r.raise_for_status()
        made = r.json()
        for seat in made["seats"]:
            client = await self.seat_client()
            await client.hello(made["table"], seat["link"].split("key=")[1])
            rng = random.Random(f"{made['table']}/{seat['seat']}")
            self.tasks.append(asyncio.create_task(self.play(client, rng)))
        self.table_ids.append(made["table"])

    async def play(self, client: SeatClient, rng: random.Random) -> None:
        try:
            while not self.stopping and (client.view is None or not client.view["game_over"]):
                if not client.my_turn():
                    await client.recv(timeout=600)
                    continue
                await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))
                while True:  # read what arrived while thinking (it may be a newer state)
                    try:
                        await client.recv(timeout=0)
                    except TimeoutError:
                        break
                view = client.view
                if not client.my_turn() or view is None:
                    continue
                start = time.perf_counter()
                ref = await client.act(rng.choice(view["legal_actions"]))
                answer = await client.answer(ref, timeout=600)
                if "ack" in answer:  # the event it made, acknowledged
                    self.rtts.append((time.perf_counter(), time.perf_counter() - start))
                else:
                    self.failures += 1
        except (TimeoutError, OSError, asyncio.CancelledError):
            return
        except Exception:  # a closed connection ends that seat's load
            if not self.stopping:
                self.failures += 1

    async def stop(self) -> None:
        """End every seat's play and close its connection, however far each got.

        Cancelling alone is not enough: on Python 3.11, ``asyncio.wait_for`` loses a
        cancellation that arrives as the frame it waits for does, and that seat would go on
        waiting for frames (up to ten minutes) on a server still up. The flag and the closed
        connections end such a seat at its next step."""
        self.stopping = True
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*(asyncio.wait_for(c.close(), 5) for c in self.clients), return_exceptions=True)
        _done, pending = await asyncio.wait(self.tasks, timeout=30) if self.tasks else (set(), set())
        for task in pending:
            task.cancel()
        if pending:
            print(f"{len(pending)} seats did not stop in 30 s")


LAG_BUCKET = 'barbu_loop_lag_seconds_bucket{le="'
GC_PAUSE = 'barbu_gc_pause_seconds_bucket{generation="'


async def server_counts(
    http: httpx.AsyncClient,
) -> tuple[float, float, dict[float, float], list[dict[float, float]]]:
    """The journal's commits and the actions they held so far, the loop lag's histogram (looks
    at or under each bucket's upper bound) and the collector's, one per generation (passes at
    or under each bound), from the server's metrics."""
    counts = {"barbu_journal_commits_total": 0.0, "barbu_journal_actions_total": 0.0}
    lag: dict[float, float] = {}
    passes: list[dict[float, float]] = [{}, {}, {}]
    for line in (await http.get("/metrics")).text.splitlines():
        name, _, value = line.partition(" ")
        if name in counts:
            counts[name] = float(value)
        elif name.startswith(LAG_BUCKET):
            lag[float(name[len(LAG_BUCKET) :].split('"')[0])] = float(value)
        elif name.startswith(GC_PAUSE):
            generation, bound = name[len(GC_PAUSE) :].split('"')[0:3:2]
            passes[int(generation)][float(bound)] = float(value)
    return counts["barbu_journal_commits_total"], counts["barbu_journal_actions_total"], lag, passes


def passes_between(before: dict[float, float], after: dict[float, float]) -> float:
    """How many passes a generation's histogram counted between two readings."""
    return after.get(float("inf"), 0.0) - before.get(float("inf"), 0.0)


def bucket_quantile(before: dict[float, float], after: dict[float, float], q: float) -> float:
    """The upper bound of the bucket holding quantile ``q`` of the looks between two readings
    of a cumulative histogram (``inf``: beyond the last bound); NaN without looks.

    >>> bucket_quantile({0.001: 0, 0.01: 0, float("inf"): 0}, {0.001: 90, 0.01: 99, float("inf"): 100}, 0.99)
    0.01
    """
    bounds = sorted(after)
    if not bounds:  # a labelled histogram not observed yet
        return float("nan")
    total = after[bounds[-1]] - before.get(bounds[-1], 0.0)
    if total <= 0:
        return float("nan")
    for bound in bounds:
        if after[bound] - before.get(bound, 0.0) >= q * total:
            return bound
    return bounds[-1]


def pin(pid: int, cpus: set[int]) -> None:
    """Pin every thread of process ``pid`` to ``cpus``: threads it starts later inherit them."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        os.sched_setaffinity(int(task.name), cpus)


def cpu_list(text: str | None) -> set[int] | None:
    """CPU numbers from ``0,1`` (None when not given)."""
    return None if text is None else {int(c) for c in text.split(",")}


def client_cpu() -> float:
    """CPU seconds (user and system) this process, the client bots, has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0 when there are none: a window without a look)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def run(
    steps: list[int],
    think: float,
    seconds: float,
    limit_ms: float,
    profile: str | None,
    cpus: tuple[set[int] | None, set[int] | None] = (None, None),
) -> None:
    server_cpus, client_cpus = cpus
    set_aside_startup_objects()  # the client bots' process collects as the server does (see below)
    if client_cpus is not None:
        pin(os.getpid(), client_cpus)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as tmp:
        options = (
            "--tables-per-client",
            "100000",
            "--connections-per-client",
            "100000",
            "--messages-per-second",
            "100000",
        )
        with ServerProcess(f"sqlite:///{tmp}/bench.db", *options, profile=profile) as server:
            assert server.process is not None
            if server_cpus is not None:
                pin(server.process.pid, server_cpus)
            await asyncio.sleep(1.0)
            base = rss_mib(server.process.pid)
            load = Load(server, think)
            watching = asyncio.create_task(load.watch_lag())
            collecting = asyncio.create_task(load.collect_young())
            load.pauses.start()
            print(f"think {think:.2f} s per action (±50 %), {seconds:.0f} s per step, empty server {base:.0f} MiB")
            print(
                "tables  actions/s  p50 ms  p99 ms  p99/ref  MiB/table  cpu ms/action  (kernel)"
                "  cpu wait  load avg  failures  actions/commit  lag p50/p99/max ms  client cpu ms/action"
                "  client lag p99/max ms  server gc 0/1/2 max0/1/2 ms  client gc 0/1/2 max0/1/2 ms"
            )
            reference: float | None = None
            try:
                async with httpx.AsyncClient(base_url=server.http, timeout=60) as http:
                    for target in steps:
                        while load.tables < target:
                            await load.add_table(http)
                        await asyncio.sleep(min(5.0, seconds / 4))  # settle
                        start = time.perf_counter()
                        cpu_start = cpu_seconds(server.process.pid)
                        *journal_start, lag_start, passes_start = await server_counts(http)
                        clients_start = client_cpu()
                        await asyncio.sleep(seconds)
                        user, system = (b - a for a, b in zip(cpu_start, cpu_seconds(server.process.pid), strict=True))
                        clients = client_cpu() - clients_start
                        *journal_end, lag_end, passes_end = await server_counts(http)
                        commits, written = (b - a for a, b in zip(journal_start, journal_end, strict=True))
                        lags = "/".join(f"{bucket_quantile(lag_start, lag_end, q) * 1000:g}" for q in (0.5, 0.99, 1.0))
                        cpu = user + system
                        server_gc = "/".join(
                            f"{passes_between(a, b):.0f}" for a, b in zip(passes_start, passes_end, strict=True)
                        )
                        server_gc += " " + "/".join(
                            "-" if math.isnan(worst := bucket_quantile(a, b, 1.0)) else f"{worst * 1000:g}"
                            for a, b in zip(passes_start, passes_end, strict=True)
                        )
                        client_passes = [(g, pause) for when, g, pause in load.collections if when >= start]
                        client_gc = "/".join(str(sum(1 for g, _ in client_passes if g == n)) for n in range(3))
                        client_gc += " " + "/".join(
                            f"{max((p for g, p in client_passes if g == n), default=0.0) * 1000:.0f}" for n in range(3)
                        )
                        window = [rtt for when, rtt in load.rtts if when >= start]
                        client_lags = [lag for when, lag in load.lags if when >= start]
                        if not window:
                            print(f"{load.tables:6d}  no action completed")
                            break
                        p50 = statistics.median(window) * 1000
                        p99 = percentile(window, 0.99) * 1000
                        if reference is None:
                            reference = p99
                        per_table = (rss_mib(server.process.pid) - base) / load.tables
                        print(
                            f"{load.tables:6d}  {len(window) / seconds:9.1f}  {p50:6.1f}  {p99:6.1f}  "
                            f"{p99 / reference:7.2f}  {per_table:9.3f}  {cpu * 1000 / len(window):13.2f}  "
                            f"{system * 1000 / len(window):8.2f}  "
                            f"{cpu_pressure():>8}  {os.getloadavg()[0]:8.1f}  {load.failures:8d}  "
                            f"{written / max(commits, 1):14.2f}  {lags:>18}  {clients * 1000 / len(window):20.2f}  "
                            f"{percentile(client_lags, 0.99) * 1000:8.0f}/{max(client_lags, default=0.0) * 1000:.0f}"
                            f"  {server_gc:>14}  {client_gc:>14}",
                            flush=True,
                        )
                        if p99 > limit_ms:
                            print(f"p99 passed {limit_ms:.0f} ms at {load.tables} tables")
                            break
            finally:  # the seats stop, whatever ended the run
                await load.stop()
                watching.cancel()
                collecting.cancel()
                load.pauses.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", default="1,100,200,300,400,500", help="tables held at each step")
    p.add_argument("--think", type=float, default=1.0, help="seconds a seat thinks before it acts")
    p.add_argument("--seconds", type=float, default=20.0, help="measuring time per step")
    p.add_argument("--limit-ms", type=float, default=100.0, help="stop once p99 passes this")
    p.add_argument("--profile", metavar="FILE", help="run the server under cProfile, its statistics written to FILE")
    p.add_argument("--server-cpus", metavar="LIST", help="pin the server to these CPUs (e.g. 0)")
    p.add_argument("--client-cpus", metavar="LIST", help="pin the client bots to these CPUs (e.g. 1)")
    args = p.parse_args()
    steps = [int(s) for s in args.steps.split(",")]
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass

    async def until_stopped() -> None:
        """The run, cancelled by SIGTERM or SIGINT: the cancellation unwinds it as a normal
        end does (the seats stop, then the server is stopped and waited for)."""
        task = asyncio.current_task()
        assert task is not None
        for signum in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(signum, task.cancel)
        await run(
            steps,
            args.think,
            args.seconds,
            args.limit_ms,
            args.profile,
            (cpu_list(args.server_cpus), cpu_list(args.client_cpus)),
        )

    try:
        asyncio.run(until_stopped())
    except asyncio.CancelledError:
        sys.exit("bench_server: stopped by a signal; the server was stopped")


if __name__ == "__main__":
    main()
