"""A bounded burst of mixed requests to a real ``mathhammer serve`` on 127.0.0.1: heavy
queries (several seconds each, past the quick lane) and cheap ones (a unit's card, a small
kills), all sent at once, each on its own connection. Prints the latency of the cheap requests
(p50, p95, max) and how many were answered 503 (busy), by kind.

The burst is bounded in count and time (every request has a deadline; the script stops by
itself) and goes only to this machine. ``tests/test_web_load.py`` runs a small burst and checks
that a cheap request's latency stays bounded.

    python tests/load_web.py                      # 75 heavy + 75 cheap, 2 workers
    python tests/load_web.py --heavy 40 --cheap 20 --tree /path/to/another/checkout
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import http.client
import json
import math
import os
import statistics
import sys
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parents[1]
#: A heavy query: 300 models of D6 damage into 100 models of 6 wounds (1 to 2 s of CPU, past
#: the quick lane's second); the attacking models vary so that no two are the same query.
HEAVY = ("/api/kills", {"attacker": "{n}x 2 | 3+ | 4 | 0 | D6", "target": "100x T4 Sv3+ W6"})
#: Cheap queries: a unit's card, and a small kills (a few milliseconds of work each).
CHEAP = (("/api/unit?name=MEQ", None),
         ("/api/kills", {"attacker": "Cronos", "target": "MEQ"}))


def _heavy(n: int) -> tuple[str, dict]:
    """:data:`HEAVY` with ``n`` attacking models."""
    path, body = HEAVY
    return path, {**body, "attacker": body["attacker"].format(n=n)}


@attrs.frozen
class Answer:
    """One request's outcome: its kind, HTTP status (0: no answer within the deadline or the
    connection failed), seconds from send to the whole answer, and Retry-After if any."""

    kind: str
    status: int
    seconds: float
    retry_after: str | None = None
    json: bool = True
    error: str = ""


def _one(url: str, kind: str, query: tuple[str, dict | None], deadline: float) -> Answer:
    """One request: a GET of the path, or a POST of its JSON query."""
    path, body = query
    u = urllib.parse.urlsplit(url)
    start = time.perf_counter()
    try:
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=deadline)
        if body is None:
            conn.request("GET", path)
        else:
            conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        res = conn.getresponse()
        body = res.read()
        conn.close()
    except OSError:
        return Answer(kind, 0, time.perf_counter() - start)
    try:
        data = json.loads(body)
        is_json = True
    except ValueError:
        data, is_json = {}, False
    error = data.get("error", "") if isinstance(data, dict) else ""
    return Answer(kind, res.status, time.perf_counter() - start, res.getheader("Retry-After"),
                  is_json, error)


def burst(url: str, heavy: int, cheap: int, deadline: float = 60.0,
          lead: int = 0) -> list[Answer]:
    """``heavy`` and ``cheap`` requests sent at once, each with ``deadline`` seconds to be
    answered: ``lead`` heavy ones first, then the rest interleaved (a cheap one after each
    heavy one); returns when every one has ended."""
    jobs = [("heavy", _heavy(300 + i % 200)) for i in range(min(lead, heavy))]
    for i in range(max(heavy - len(jobs), cheap)):
        if i < cheap:
            jobs.append(("cheap", CHEAP[i % len(CHEAP)]))
        if len(jobs) - min(i + 1, cheap) < heavy:
            jobs.append(("heavy", _heavy(300 + (lead + i) % 200)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(jobs)) as pool:
        futures = []
        for kind, path in jobs:
            futures.append(pool.submit(_one, url, kind, path, deadline))
            time.sleep(0.002)  # sent in this order
        return [f.result() for f in futures]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0 to 1) of ``values``, by the nearest rank.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    (2.0, 4.0)
    """
    ranked = sorted(values)
    return ranked[max(0, min(len(ranked) - 1, math.ceil(q * len(ranked)) - 1))]


def report(answers: list[Answer]) -> list[str]:
    """The summary lines: cheap latency p50/p95/max, and statuses by kind."""
    cheap = [a.seconds for a in answers if a.kind == "cheap"]
    lines = []
    if cheap:
        lines.append(f"cheap latency: p50 {percentile(cheap, 0.5):.2f} s, p95 "
                     f"{percentile(cheap, 0.95):.2f} s, max {max(cheap):.2f} s "
                     f"({len(cheap)} requests)")
    for kind in ("cheap", "heavy"):
        mine = [a for a in answers if a.kind == kind]
        counts: dict[int, int] = {}
        for a in mine:
            counts[a.status] = counts.get(a.status, 0) + 1
        said = ", ".join(f"{n}x {s or 'no answer'}" for s, n in sorted(counts.items()))
        busy = sum(a.status == 503 for a in mine)
        lines.append(f"{kind}: {len(mine)} requests: {said}; 503: {busy}")
    return lines


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tree), *filter(None, [env.get("PYTHONPATH")])])
    return env


@contextlib.contextmanager
def serve(tree: Path, workers: int, timeout: float, *options: str) -> Iterator[str]:
    """A real server of the checkout ``tree``, started in that folder (``python -c`` imports
    from its working folder first; the cache folder is the caller's), with more ``options``
    of ``mathhammer serve`` if given."""
    sys.path.insert(0, str(ROOT))
    from mathhammer.web.background import serving

    with contextlib.chdir(tree), serving("--workers", str(workers), "--timeout", str(timeout),
                                         *options, env=_env(tree), wait=60) as url:
        yield url


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heavy", type=int, default=75)
    ap.add_argument("--cheap", type=int, default=75)
    ap.add_argument("--lead", type=int, default=0,
                    help="heavy requests sent before the first cheap one")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--deadline", type=float, default=90,
                    help="seconds each request may take before it counts as no answer")
    ap.add_argument("--tree", type=Path, default=ROOT,
                    help="the checkout whose server is started (default: this one)")
    ap.add_argument("--url", help="a server already running (on this machine)")
    a = ap.parse_args(argv)
    if a.heavy + a.cheap > 400:
        ap.error("at most 400 requests in one burst")
    if a.url:
        host = urllib.parse.urlsplit(a.url).hostname or ""
        if host not in ("127.0.0.1", "localhost", "::1"):
            ap.error("--url: a server on this machine only (127.0.0.1, localhost, ::1)")
        answers = burst(a.url, a.heavy, a.cheap, a.deadline, a.lead)
    else:
        with serve(a.tree.resolve(), a.workers, a.timeout) as url:
            _one(url, "warm", CHEAP[1], 60)  # the workers have read what a query needs
            start = time.perf_counter()
            answers = burst(url, a.heavy, a.cheap, a.deadline, a.lead)
            took = time.perf_counter() - start
        print(f"burst of {len(answers)} requests ({a.heavy} heavy, {a.cheap} cheap) to "
              f"{a.workers} workers: {took:.1f} s")
    for line in report(answers):
        print(line)
    heavy = [a.seconds for a in answers if a.kind == "heavy" and a.status == 200]
    if heavy:
        print(f"heavy answered: median {statistics.median(heavy):.2f} s")


if __name__ == "__main__":
    main()
