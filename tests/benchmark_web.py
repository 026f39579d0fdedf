"""Time the web API: a real ``mathhammer serve`` in a subprocess, typical queries over HTTP.

Run ``python tests/benchmark_web.py [SHARED]`` (needs ``pip install ".[web]"``). For each query
it prints the median server time (the ``Server-Timing`` header: from scheduling the query on a
worker process to its answer) and the median round trip seen by the client, over 30 calls
after a first call (also shown). The target is a typical query under 100 ms of server time. Speed
numbers live only here and in reports, never in tests.

With the shared BattleScribe data (``SHARED/bsdata/10e``, default ``../shared`` beside the
checkout) it then times each interaction of the page for a unit from the data, on a server
started with ``--data``: the faction list, a faction's units, a name search, the unit's card,
its default attack, 4 lascannons, a modifier, a Leader on each side, and a pasted list (its
first reading, then the same text again: read once per content), several units into one target,
and plans of a phase (POST /api/plan, up to the page's bound of 6 units and 4 targets: their
time is stated). The target is under 300 ms each (plans aside); the first call (the unit
index and catalogue read into a worker) is shown apart.
A fresh server's first look at the data is timed too (``cold``; ``--cold`` times only it).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from mathhammer.web.background import serving

QUERIES = [
    ("kills Hexmark vs MEQ half range", "/api/kills",
     {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True}),
    ("odds Hexmark vs MEQ >= 2", "/api/odds",
     {"kills": {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True},
      "ask": "at least", "k": 2}),
    ("kills 20 Warriors vs 10 Warriors, 3 turns", "/api/kills",
     {"attacker": "Necron Warriors", "models": 20, "target": "Necron Warriors",
      "target_models": 10, "turns": 3, "named_rules": ["Conquering Tyrant"]}),
    ("kills Cronos melee vs MEQ + Leader", "/api/kills",
     {"attacker": "Cronos", "target": "MEQ", "ranged": False, "leader": "Skitarii Marshal"}),
    ("table 3 attackers x 9 standard targets", "/api/compare",
     {"attackers": ["Hexmark Destroyer", "Cronos", "Necron Warriors"]}),
]
REPEATS = 30
DEV = "Space Marines:Devastator Squad"
#: The page's interactions for a unit of the data: (what, path, parameters, POST body or None).
DATA_QUERIES = [
    ("factions", "/api/factions", {}, None),
    ("a faction's units", "/api/search", {"q": "", "faction": "Space Marines"}, None),
    ("search 'captain'", "/api/search", {"q": "captain"}, None),
    ("the unit's card", "/api/unit", {"name": DEV}, None),
    ("its default attack", "/api/kills", {}, {"attacker": DEV, "target": "MEQ"}),
    ("4 lascannons", "/api/kills", {},
     {"attacker": DEV, "target": "MEQ", "weapons": ["4x Lascannon", "Bolt pistol"]}),
    ("+ stationary, hit +1", "/api/kills", {},
     {"attacker": DEV, "target": "MEQ", "weapons": ["4x Lascannon", "Bolt pistol"],
      "stationary": True, "hit_mod": 1}),
    ("+ a Leader on each side", "/api/kills", {},
     {"attacker": f"{DEV} + Space Marines:Lieutenant", "target": "MEQ",
      "leader": "Space Marines:Captain", "weapons": ["4x Lascannon", "Bolt pistol"]}),
]
INTERCESSORS = "Space Marines:Intercessor Squad"
DATA_QUERIES += [
    ("the unit's card (its Leader list)", "/api/unit", {"name": INTERCESSORS}, None),
    ("then the Devastators (2 units into MEQ)", "/api/salvo", {},
     {"units": [f"{INTERCESSORS} + Space Marines:Captain",
                {"unit": DEV, "weapons": ["4x Lascannon", "Bolt pistol"]}],
      "target": "MEQ", "until": "90%"}),
]
#: Plans on the page (POST /api/plan): heavier, their time is stated, not held to 300 ms.
PLANS = [
    ("plan 2 units x 2 targets, adaptive",
     {"units": [DEV, INTERCESSORS], "targets": ["MEQ", "Space Marines:Rhino"],
      "adaptive": True}),
    ("plan 3 units x 3 targets, adaptive",
     {"units": ["Space Marines:Predator Annihilator", {"unit": DEV, "weapons": ["4x Lascannon"]},
                INTERCESSORS],
      "targets": ["Space Marines:Land Raider", INTERCESSORS, "Space Marines:Rhino"],
      "adaptive": True}),
    ("plan 6 units x 4 targets (the page's bound), adaptive",
     {"units": ["Space Marines:Predator Annihilator", {"unit": DEV, "weapons": ["4x Lascannon"]},
                INTERCESSORS, "Hexmark Destroyer", "Necron Warriors", "Cronos"],
      "targets": ["Space Marines:Land Raider", INTERCESSORS, "Space Marines:Rhino", "MEQ"],
      "adaptive": True}),
]
DATA_REPEATS = 10
PLAN_REPEATS = 3


def _call(base: str, path: str, params: dict, body: Any = None) -> tuple[float, float]:
    """(server ms, round trip ms) of one call: a GET of ``params``, or a POST of the JSON
    query ``body``."""
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
    url = f"{base}{path}?{urllib.parse.urlencode(params, doseq=True)}"
    req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
    t = time.perf_counter()
    with urllib.request.urlopen(req, timeout=300) as res:
        res.read()
        timing = res.headers["Server-Timing"]
    compute = timing.split(",")[0]  # (a query that moved lanes says so after it: moved;dur=)
    return float(compute.split("dur=")[1]), (time.perf_counter() - t) * 1000


def _row(base: str, name: str, path: str, params: dict, body: bytes | None, repeats: int
         ) -> None:
    first, _ = _call(base, path, params, body)  # warm-up: a worker loads the units
    server, trip = zip(*(_call(base, path, params, body) for _ in range(repeats)), strict=True)
    print(f"| {name} | {first:.1f} | {statistics.median(server):.1f} | "
          f"{statistics.median(trip):.1f} |")


#: Seconds between a fresh server's start and its first look at the data (a page opening).
COLD_WAIT = 2.0
COLD_QUERIES: list[tuple] = [("the unit's card", "/api/unit", {"name": DEV}),
                ("its default attack", "/api/kills", {"attacker": DEV, "target": "MEQ"}, True)]


def cold(data: Path) -> None:
    """A fresh server's first looks at the data, each query twice (the two quick workers),
    :data:`COLD_WAIT` seconds after it started: each worker reads the data as it starts, in the
    background (``mathhammer.jobs.run.warm``), so these are as quick as the next ones."""
    print(f"\nA fresh server, {COLD_WAIT:g} s after it started (server ms of the first calls):\n")
    print("| query | 1st call | 2nd call |\n| --- | ---: | ---: |")
    with serving("--data", str(data), "--timeout", "300") as base:
        time.sleep(COLD_WAIT)
        for name, path, params, *post in COLD_QUERIES:
            times = [(_call(base, path, {}, params) if post else _call(base, path, params))[0]
                     for _ in range(2)]
            print(f"| {name} | {times[0]:.1f} | {times[1]:.1f} |")


def main() -> None:
    if "--cold" in sys.argv:  # only a fresh server's first looks at the data
        sys.argv.remove("--cold")
        shared = Path(sys.argv[1]) if len(sys.argv) > 1 else (
            Path(__file__).resolve().parents[2] / "shared")
        cold(shared / "bsdata" / "10e")
        return
    head = ("| query | first call server ms | server ms (median) | round trip ms (median) |\n"
            "| --- | ---: | ---: | ---: |")
    with serving() as base:
        print(head)
        for name, path, query in QUERIES:
            _row(base, name, path, {}, query, REPEATS)
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parents[2] / "shared")
    data = shared / "bsdata" / "10e"
    if not data.is_dir():
        print(f"\n(no shared BattleScribe data at {data}: the data unit's interactions skipped)")
        return
    cold(data)
    lists = sorted((shared / "rosters").glob("*.10e.gwapp.txt"))
    with serving("--data", str(data), "--timeout", "300") as base:
        print(f"\nA unit of the data ({data}):\n\n{head}")
        for name, path, params, body in DATA_QUERIES:
            _row(base, name, path, params, body, DATA_REPEATS)
        for name, body in PLANS:
            _row(base, name, "/api/plan", {}, json.dumps(body).encode(), PLAN_REPEATS)
        if lists:
            text = lists[0].read_text(encoding="utf-8")
            body = json.dumps({"army": text, "targets": ["MEQ"]}).encode()
            # the first call reads the list; the repeats find it in the worker's cache
            _row(base, f"army list {lists[0].name} vs MEQ", "/api/compare", {}, body,
                 DATA_REPEATS)


if __name__ == "__main__":
    main()
