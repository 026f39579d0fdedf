"""CPU time of each tool of ``mathhammer mcp``: one call of each (the calls of tests/test_mcp.py),
through the SDK's in-process client, warm (the second of two calls) and cold (the first in a
fresh process), and the CPU of the job itself in the worker (its process time).

    python tests/benchmark_mcp.py [LIST]     # a table: tool, schema bytes, job CPU ms, round trip

LIST is an army list's file for the ``army`` tool (with ``MATHHAMMER_DATA`` the data that reads
it); without one that call answers an error, and is marked so.

The job's CPU is measured in this process (:func:`mathhammer.mcp.tools.run_job`, as a worker
runs it); the round trip is wall time through the client and a worker process (noise on a
loaded machine: read the CPU column).
"""

from __future__ import annotations

import json
import sys
import time

from mathhammer.mcp.answers import run_job
from mathhammer.mcp.server import make_server
from mathhammer.mcp.tools import TOOLS, check_arguments, tool

CALLS = {
    "kills": {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True},
    "odds": {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True,
             "at_least": 2},
    "table": {"attacker": ["Hexmark Destroyer", "Cronos"], "targets": ["GEQ,MEQ,TEQ"]},
    "salvo": {"units": ["Hexmark Destroyer", "Cronos"], "target": "MEQ"},
    "plan": {"units": ["Hexmark Destroyer", "Cronos"], "targets": ["GEQ", "MEQ"]},
    "army": {"army": "Hexmark Destroyer\nCronos"},  # needs mathhammer.data.army and data
    "search_units": {"query": "destroyer"},
    "unit_rules": {"name": "Cronos"},
}


def job_cpu(name: str) -> tuple[float, float, bool]:
    """(first call's CPU ms, second call's CPU ms, answered) of the tool's job here."""
    t = tool(name)
    out = []
    ok = False
    for _ in range(2):
        start = time.process_time()
        status, _body = run_job(*t.job(check_arguments(t, CALLS[name])))
        out.append((time.process_time() - start) * 1000)
        ok = status == 200
    return out[0], out[1], ok


def round_trips() -> dict[str, float]:
    import anyio
    from mcp import Client

    async def main() -> dict[str, float]:
        out = {}
        async with Client(make_server(workers=1, compile_data=False)) as client:
            await client.list_tools()
            for name, args in CALLS.items():
                await client.call_tool(name, args)  # warm
                start = time.perf_counter()
                await client.call_tool(name, args)
                out[name] = (time.perf_counter() - start) * 1000
        return out

    return anyio.run(main)


def main() -> None:
    if len(sys.argv) > 1:
        with open(sys.argv[1], encoding="utf-8") as f:
            CALLS["army"] = {"army": f.read()}
    trips = round_trips()
    print(f"{len(TOOLS)} tools; schemas {sum(len(json.dumps(t.schema)) for t in TOOLS)} "
          "bytes of JSON in all")
    print(f"{'tool':14} {'args':>5} {'schema B':>9} {'cold CPU ms':>12} {'warm CPU ms':>12} "
          f"{'round trip ms':>14}")
    for t in TOOLS:
        cold, warm, ok = job_cpu(t.name)
        print(f"{t.name:14} {len(t.schema['properties']):5d} {len(json.dumps(t.schema)):9d} "
              f"{cold:12.1f} {warm:12.1f} {trips[t.name]:14.1f}{'' if ok else '  (error)'}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
