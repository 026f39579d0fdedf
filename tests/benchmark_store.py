"""Time the compiled store of the BattleScribe data (issue 19) on the shared data, as whole
processes: building the store of each edition, then (the store built) a data unit's ``kills``,
``army FILE`` for four lists, ``units --search``, and with ``--check`` ``data check`` and with
``--atlas`` ``atlas`` of each edition.

With ``--serve``, a fresh server on an empty cache (``mathhammer serve --data DIR``, 10e): the
seconds until it is up, until a data query's first answer (the JSON 503 "compiling the game's
data" while its background build runs) and until the query's answer (200).

Run ``python tests/benchmark_store.py [SHARED] [--check] [--atlas] [--serve]`` (default
``../shared`` beside the checkout). Prints a Markdown table: each scenario's median of three
runs (one run for a build, a check or an atlas), wall-clock and CPU seconds (the CPU of the
process and its workers: on a shared machine the CPU time is the steadier number); always exits
0. Uses a temporary cache folder, so the stores are built from scratch; the bytecode is written
(as an installed package has it), so the first run of each command compiles Python once,
untimed.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: (list, edition): the lists the issue's targets name (under 0.5 s each, the store built)
LISTS = (("tau.11e.gwapp.txt", "11e"), ("dark-angels.11e.gwapp.txt", "11e"),
         ("blood-angels.10e.gwapp.txt", "10e"), ("ultramarines.10e.rosz", "10e"))


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    shared = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "shared"
    data, rosters = shared / "bsdata", shared / "rosters"
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache, "PYTHONPATH": str(root)}
        for k in ("MATHHAMMER_DATA", "MATHHAMMER_STORE", "PYTHONDONTWRITEBYTECODE"):
            env.pop(k, None)

        def once(*cmd: str) -> tuple[float, float, int]:
            t = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, *cmd], env=env, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            return time.perf_counter() - t, cpu, done.returncode

        def run(label: str, *cmd: str, times: int = 3) -> None:
            got = [once(*cmd) for _ in range(times)]
            wall = statistics.median(g[0] for g in got)
            cpu = statistics.median(g[1] for g in got)
            codes = {g[2] for g in got} - {0}
            ok = f" (exit {', '.join(map(str, sorted(codes)))})" if codes else ""
            print(f"| {label} | {wall:.2f}{ok} | {cpu:.2f} |", flush=True)

        print("| what (whole process) | seconds | CPU seconds (user + system) |\n"
              "| --- | --- | --- |")
        for edition in ("10e", "11e"):
            run(f"store build {edition}", "-c", "from mathhammer.data.store.compiled import "
                f"open_store; open_store({edition!r}, {str(data)!r})", times=1)
        mh = ("-m", "mathhammer")
        once(*mh, "kills", "MEQ", "MEQ")  # Python's bytecode written, untimed
        run("python -c pass", "-c", "pass")
        run('kills "Intercessor Squad" MEQ', *mh, "kills", "Intercessor Squad", "MEQ",
            "--data", str(data / "10e"))
        run('kills Lieutenant "Intercessor Squad"', *mh, "kills", "Lieutenant",
            "Intercessor Squad", "--data", str(data / "10e"))
        run('kills "Hexmark Destroyer" MEQ (a bundled unit)', *mh, "kills",
            "Hexmark Destroyer", "MEQ")
        for name, edition in LISTS:
            run(f"army {name} ({edition} data)", *mh, "army", str(rosters / name), "--data",
                str(data / edition))
        run("units --search captain", *mh, "units", "--search", "captain", "--data", str(data))
        for edition in ("10e", "11e") if "--check" in sys.argv else ():
            run(f"data check {edition}", *mh, "data", "check", "--edition", edition, "--data",
                str(data), "--json", times=1)
        for edition in ("10e", "11e") if "--atlas" in sys.argv else ():
            run(f"atlas {edition}", *mh, "atlas", "--rules", edition, "--data", str(data),
                "-o", os.devnull, times=1)
    if "--serve" in sys.argv:
        fresh_server(data / "10e", root)
    return 0


def fresh_server(data: Path, root: Path) -> None:
    """A server on an empty cache: seconds until it is up, until a data query's first answer
    (503 while the store is compiled) and until the query is answered (200)."""
    import json
    import urllib.error
    import urllib.request

    sys.path.insert(0, str(root))
    from mathhammer.web.background import serving

    def status(url: str) -> tuple[int, str]:
        query = {"attacker": "Intercessor Squad", "target": "MEQ"}  # a JSON query, POSTed
        req = urllib.request.Request(url, data=json.dumps(query).encode(),
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, ""
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read()).get("message", "")

    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache, "PYTHONPATH": str(root)}
        for k in ("MATHHAMMER_DATA", "MATHHAMMER_STORE"):
            env.pop(k, None)
        start = time.perf_counter()
        with serving("--data", str(data), env=env, wait=120) as url:
            up = time.perf_counter() - start
            query = f"{url}/api/kills"
            first, said = None, ""
            while time.perf_counter() - start < 900:
                code, message = status(query)
                if first is None:
                    first, said = (time.perf_counter() - start, code), message
                if code == 200:
                    break
                time.sleep(0.5)
            done = time.perf_counter() - start
        print(f"\n| fresh server, 10e data | seconds |\n| --- | --- |\n| up | {up:.2f} |\n"
              f"| first answer to a data query (HTTP {first[1]}: {said or 'the answer'}) | "
              f"{first[0]:.2f} |\n| the query answered (HTTP {code}) | {done:.2f} |",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
