"""Time the web API: a real ``mathhammer serve`` in a subprocess, typical queries over HTTP.

Run ``python tests/benchmark_web.py`` (needs ``pip install ".[web]"``). For each query it
prints the median server time (the ``Server-Timing`` header: from scheduling the query on a
worker process to its answer) and the median round trip seen by the client, over 30 calls
after a first call (also shown). The target is a typical query under 100 ms of server time. Speed
numbers live only here and in reports, never in tests.
"""

from __future__ import annotations

import statistics
import time
import urllib.parse
import urllib.request

from mathhammer.web.background import serving

QUERIES = [
    ("kills Hexmark vs MEQ half range", "/api/kills",
     {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": "true"}),
    ("odds Hexmark vs MEQ >= 2", "/api/odds",
     {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": "true", "at_least": "2"}),
    ("kills 20 Warriors vs 10 Warriors, 3 turns", "/api/kills",
     {"attacker": "Necron Warriors", "models": "20", "target": "Necron Warriors",
      "target_models": "10", "turns": "3", "rule": "Conquering Tyrant"}),
    ("kills Cronos melee vs MEQ + Leader", "/api/kills",
     {"attacker": "Cronos", "target": "MEQ", "ranged": "false", "leader": "Skitarii Marshal"}),
    ("table 3 attackers x 9 standard targets", "/api/table",
     {"attacker": ["Hexmark Destroyer", "Cronos", "Necron Warriors"]}),
]
REPEATS = 30


def main() -> None:
    with serving() as base:
        print("| query | first call server ms | server ms (median) | round trip ms (median) |")
        print("| --- | ---: | ---: | ---: |")
        for name, path, params in QUERIES:
            url = f"{base}{path}?{urllib.parse.urlencode(params, doseq=True)}"
            with urllib.request.urlopen(url) as res:  # warm-up: a worker loads the units
                res.read()
                first = float(res.headers["Server-Timing"].split("dur=")[1])
            server, trip = [], []
            for _ in range(REPEATS):
                t = time.perf_counter()
                with urllib.request.urlopen(url) as res:
                    res.read()
                    timing = res.headers["Server-Timing"]
                trip.append((time.perf_counter() - t) * 1000)
                server.append(float(timing.split("dur=")[1]))
            print(f"| {name} | {first:.1f} | {statistics.median(server):.1f} | "
                  f"{statistics.median(trip):.1f} |")


if __name__ == "__main__":
    main()
