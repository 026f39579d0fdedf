"""The page's quick lane under a busy processor: a real ``mathhammer serve`` on the shared
BattleScribe data, two busy loops (``python -c "while 1: pass"``, started and stopped here)
competing for the processor, and a page-like sequence of API requests sent one after another
(for each round a unit's card, then its attack into a target, as the page asks when a unit is
picked; every fifth round a heavy query, past the quick lane's second). Prints how many
workers were replaced during the run (on the server as it was, a quick-lane worker stopped at
the quick lane's limit is replaced, and its replacement starts cold), how many queries moved
to the long lane (the ``moved`` metric of ``Server-Timing``, on a server that sends it), and
the median and largest latency of each kind.

Linux only (the server's workers are read from ``/proc``); every request and loop is bounded
and goes only to this machine.

    python tests/churn_web.py --data ../shared/bsdata           # this checkout
    python tests/churn_web.py --data ../shared/bsdata --tree /path/to/another/checkout --log
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_web  # noqa: E402

#: Datasheets of the shared 10e data the rounds pick, in turn.
UNITS = ("Space Marines:Devastator Squad", "Space Marines:Intercessor Squad", "Drukhari:Cronos",
         "Necrons:Necron Warriors", "Astra Militarum:Leman Russ Battle Tank", "Orks:Boyz",
         "Tyranids:Termagants", "Craftworlds:Wraithguard", "Adeptus Custodes:Custodian Guard",
         "Adeptus Mechanicus:Skitarii Rangers", "Space Marines:Aggressor Squad",
         "Necrons:Lokhust Destroyers", "Drukhari:Kabalite Warriors", "Orks:Gretchin",
         "Space Marines:Predator Destructor")
#: The targets of the rounds' attacks, in turn.
TARGETS = ("MEQ", "GEQ", "TEQ", "HEQ")
#: Every :data:`HEAVY_EVERY` rounds a query past the quick lane's second (about a second of
#: CPU alone, more beside the busy loops; well within the time limit), each of its own size.
HEAVY: dict[str, Any] = {"attacker": "{n}x 3 | 3+ | 5 | -1 | D3", "target": "20x T4 Sv4+ W6",
                         "turns": 3}
HEAVY_EVERY = 5


@attrs.frozen
class Asked:
    """One request: what, its final HTTP status (0: none), seconds to the final answer (a
    503 with Retry-After asked again, as the page does), retries, and whether the server said
    it moved to the long lane."""

    what: str
    status: int
    seconds: float
    retries: int = 0
    moved: bool = False
    start: float = 0.0  # perf_counter when it was sent


def ask(url: str, what: str, path: str, body: dict | None, deadline: float = 120.0) -> Asked:
    """``path`` asked (a GET, or a POST of ``body``) until it is not a 503 with Retry-After."""
    u = urllib.parse.urlsplit(url)
    start, retries = time.perf_counter(), 0
    while True:
        try:
            conn = http.client.HTTPConnection(u.hostname or "", u.port, timeout=deadline)
            if body is None:
                conn.request("GET", path)
            else:
                conn.request("POST", path, json.dumps(body),
                             {"Content-Type": "application/json"})
            res = conn.getresponse()
            res.read()
            conn.close()
        except OSError:
            return Asked(what, 0, time.perf_counter() - start, retries)
        again = res.getheader("Retry-After")
        if res.status == 503 and again and time.perf_counter() - start < deadline:
            retries += 1
            time.sleep(float(again))
            continue
        timing = res.getheader("Server-Timing") or ""
        moved = any(m.strip().split(";")[0] == "moved" for m in timing.split(","))
        return Asked(what, res.status, time.perf_counter() - start, retries, moved, start)


def rounds(n: int, heavy: int = 40) -> Iterator[tuple[str, str, dict | None]]:
    """(what, path, body) of ``n`` rounds: a unit's card, then its attack (and every
    :data:`HEAVY_EVERY` rounds a heavy query, of ``heavy`` attacking models and one more each
    time)."""
    for i in range(n):
        unit = UNITS[i % len(UNITS)]
        yield "unit", f"/api/unit?{urllib.parse.urlencode({'name': unit})}", None
        yield "kills", "/api/kills", {"attacker": unit, "target": TARGETS[i % len(TARGETS)]}
        if i % HEAVY_EVERY == HEAVY_EVERY - 1:
            yield "heavy", "/api/kills", {**HEAVY, "attacker": HEAVY["attacker"].format(
                n=heavy + i // HEAVY_EVERY)}


def _kin(pid: int) -> Iterator[tuple[int, bytes]]:
    """``(pid, command line)`` of each process whose parent is ``pid``."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{entry}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            if ppid == pid:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    yield int(entry), f.read()


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` and whose command line is its own (forked
    workers; a store's build, a process of its own, is not one)."""
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        mine = f.read()
    return {child for child, line in _kin(pid) if line == mine}


class Workers:
    """Every worker process of a server seen while the block runs (sampled every 20 ms)."""

    def __init__(self, server: int) -> None:
        self.server, self.seen = server, _children(server)
        self.first = set(self.seen)
        self.born: list[tuple[float, int]] = []  # (perf_counter, pid) of each new one
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self.done.wait(0.02):
            now = _children(self.server)
            self.born += [(time.perf_counter(), pid) for pid in sorted(now - self.seen)]
            self.seen |= now

    def __enter__(self) -> Workers:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.done.set()
        self.thread.join()

    def replaced(self, workers: int) -> int:
        """Workers started since the block began to replace one stopped: those started but
        the long lane's first ones (a pool starts its ``workers`` when first asked; both
        lanes together have ``2 * workers``)."""
        return len(self.seen - self.first) - max(0, 2 * workers - len(self.first))


def _server_pid(port: int) -> int:
    """The pid of the ``mathhammer serve --port PORT`` this process started."""
    for child, line in _kin(os.getpid()):
        args = line.split(b"\0")
        if b"serve" in args and str(port).encode() in args:
            return child
    raise RuntimeError(f"no server of port {port} among this process's children")


@contextlib.contextmanager
def busy(loops: int) -> Iterator[None]:
    """``loops`` processes spinning while the block runs (stopped after)."""
    procs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(loops)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def report(answers: list[Asked], replaced: int) -> list[str]:
    """The summary lines."""
    cheap = [a.seconds for a in answers if a.what != "heavy"]
    statuses: dict[int, int] = {}
    for a in answers:
        statuses[a.status] = statuses.get(a.status, 0) + 1
    lines = [f"{len(answers)} requests: "
             + ", ".join(f"{n}x {s or 'no answer'}" for s, n in sorted(statuses.items()))
             + f"; {sum(a.retries for a in answers)} asked again after a 503",
             f"workers replaced during the run: {replaced} (a worker stopped at the quick "
             "lane's limit, or the long lane's; the latter answer 503)",
             "moved to the long lane (Server-Timing): "
             f"{sum(a.moved for a in answers if a.what == 'heavy')} heavy, "
             f"{sum(a.moved for a in answers if a.what != 'heavy')} cards and attacks; "
             f"cards and attacks answered after more than 1 s: {sum(t > 1 for t in cheap)}"]
    for what in ("unit", "kills", "heavy"):
        mine = [a.seconds for a in answers if a.what == what]
        if mine:
            lines.append(f"{what}: median {statistics.median(mine) * 1000:.0f} ms, max "
                         f"{max(mine) * 1000:.0f} ms ({len(mine)} requests)")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, type=Path, help="the BattleScribe data folder")
    ap.add_argument("--rounds", type=int, default=30, help="unit cards and attacks asked")
    ap.add_argument("--loops", type=int, default=2, help="busy loops while they are asked")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30,
                    help="the server's --timeout (more than the default 10 s: no heavy query "
                         "of the rounds is stopped beside the busy loops)")
    ap.add_argument("--tree", type=Path, default=load_web.ROOT,
                    help="the checkout whose server is started (default: this one)")
    ap.add_argument("--log", action="store_true",
                    help="also print each request and each worker started, in time order")
    a = ap.parse_args(argv)
    if not 1 <= a.rounds <= 200 or not 0 <= a.loops <= 8:
        ap.error("--rounds from 1 to 200, --loops from 0 to 8")
    with load_web.serve(a.tree.resolve(), a.workers, a.timeout, "--data",
                        str(a.data.resolve())) as url:
        server = _server_pid(int(url.rsplit(":", 1)[1]))
        # the stores are built, and both lanes have started their workers (the long lane's
        # start when it is first asked), as on a page that has asked a heavy query before
        for what, path, body in rounds(HEAVY_EVERY, heavy=39):  # (not one of the run's)
            first = ask(url, what, path, body, deadline=600)
            if first.status != 200:
                raise SystemExit(f"the warm-up {what} was answered {first.status}")
        time.sleep(2)  # a worker that started meanwhile has read the data
        answers = []
        with busy(a.loops), Workers(server) as seen:
            start = time.perf_counter()
            for what, path, body in rounds(a.rounds):
                answers.append(ask(url, what, path, body))
            took = time.perf_counter() - start
    print(f"{a.tree.resolve()}: {a.rounds} rounds under {a.loops} busy loops, "
          f"{a.workers} workers per lane: {took:.1f} s")
    for line in report(answers, seen.replaced(a.workers)):
        print(line)
    if a.log:
        events = [(x.start, f"{x.what:5} {x.status} {x.seconds * 1000:6.0f} ms"
                   f"{' moved' if x.moved else ''}") for x in answers]
        events += [(t, f"worker {pid} started") for t, pid in seen.born]
        for t, line in sorted(events):
            print(f"{t - start:7.2f} s  {line}")


if __name__ == "__main__":
    main()
