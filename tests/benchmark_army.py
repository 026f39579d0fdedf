"""Time reading army lists from the compiled store (issues 12 and 19) on the shared data.

Run ``python tests/benchmark_army.py [SHARED]`` (default ``../shared`` beside the checkout).
Prints a Markdown table; always exits 0. Uses a temporary cache folder: "store" is compiling
an edition's data (once), "lookup" resolving one name across every catalogue afterwards (in
process, the store built), "army" the whole process of ``mathhammer army FILE --data DIR`` for
every list of ``rosters/`` (the median of three runs, wall-clock and CPU seconds) and of its
``corpus/`` (one run each: the median and the slowest), and "every list" all
of them read in one process (what the army corpus test does). A list reads the store only: no
data file is opened.

``python tests/benchmark_army.py --plan [SHARED]`` times instead ``mathhammer plan --army A
--vs-army B`` (whole process, wall-clock and CPU seconds, proved or the gap) on a fixed sample:
``PLAN_PAIRS`` ordered pairs of each edition's lists of ``corpus/`` drawn with
``random.Random(PLAN_SEED)`` (an 11e list whose faction is in a file missing from the data
says so instead of a plan); with ``--every`` instead, every ordered pair of the lists of
``rosters/`` itself (both of one edition).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAN_SEED, PLAN_PAIRS = 33, 9  # pairs per edition


def plan_sample(corpus: Path, every: bool = False) -> list[tuple[Path, Path]]:
    """The fixed sample of ordered list pairs for ``--plan`` (same lists, same pairs, every run):
    ``PLAN_PAIRS`` of each edition, both lists of one edition (``every``: all of them)."""
    out = []
    for edition in ("10e", "11e"):
        lists = sorted(f for f in corpus.iterdir() if f.name.split(".")[1:2] == [edition]
                       and f.suffix in (".txt", ".rosz", ".ros", ".json"))
        pairs = [(a, b) for a in lists for b in lists if a != b]
        out += pairs if every else random.Random(PLAN_SEED).sample(pairs, PLAN_PAIRS)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shared", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared",
                        help="the folder with bsdata/ and rosters/ (default ../shared)")
    parser.add_argument("--plan", action="store_true",
                        help="time 'plan --army A --vs-army B' on the fixed sample of list pairs")
    parser.add_argument("--every", action="store_true",
                        help="with --plan: every ordered pair of the lists of rosters/ instead")
    args = parser.parse_args()
    shared, plan = args.shared, args.plan
    data, rosters = shared / "bsdata", shared / "rosters"
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache, "PYTHONPATH": str(root)}
        for k in ("MATHHAMMER_DATA", "MATHHAMMER_STORE", "PYTHONDONTWRITEBYTECODE"):
            env.pop(k, None)

        def once(cmd: list[str], **kw) -> tuple[float, float, str]:
            t = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run = subprocess.run([sys.executable, *cmd], env=env, capture_output=True,
                                 text=True, **kw)
            out = run.stdout or run.stderr  # a list that cannot be read says why (stderr)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            return time.perf_counter() - t, cpu, out

        # each edition's store built first (timed): a list's or a plan's time is then its own
        stores = {edition: once(["-c", "from mathhammer.data.store.compiled import open_store; "
                                 f"open_store({edition!r}, {str(data)!r})"], check=True)
                  for edition in ("10e", "11e")}
        if plan:
            print("| attacker | defender | seconds | CPU seconds | answer |\n"
                  "| --- | --- | --- | --- | --- |")
            pairs = plan_sample(rosters, every=True) if args.every else \
                plan_sample(rosters / "corpus")
            for a, b in pairs:
                wall, cpu, out = once(["-m", "mathhammer", "plan", "--army", str(a),
                                       "--vs-army", str(b), "--data", str(data)])
                head = next((ln for ln in out.splitlines() if "proved" in ln or "gap" in ln),
                            out.splitlines()[0] if out else "(no output)")
                print(f"| {a.name} | {b.name} | {wall:.2f} | {cpu:.2f} | {head.strip()[:80]} |",
                      flush=True)
            return 0
        print("| what | seconds | CPU seconds |\n| --- | --- | --- |")
        for edition, (wall, cpu, _) in stores.items():
            print(f"| store {edition} (whole process) | {wall:.2f} | {cpu:.2f} |")
            code = ("import time; from mathhammer.data.store.index import find_data_unit; "
                    "t = time.perf_counter(); "
                    f"find_data_unit('Immortals', {edition!r}, {str(data)!r}); "
                    "print(time.perf_counter() - t)")
            _w, _c, out = once(["-c", code], check=True)
            print(f"| lookup 'Immortals' {edition} (in process) | {float(out):.3f} | |")
        for f in sorted(rosters.iterdir()):
            if f.suffix not in (".txt", ".rosz", ".ros"):
                continue
            cmd = ["-m", "mathhammer", "army", str(f), "--data", str(data)]
            got = [once(cmd) for _ in range(3)]
            print(f"| army {f.name} (whole process) | "
                  f"{statistics.median(g[0] for g in got):.2f} | "
                  f"{statistics.median(g[1] for g in got):.2f} |", flush=True)
        corpus = sorted(f for f in (rosters / "corpus").iterdir()
                        if f.suffix in (".txt", ".rosz", ".ros", ".json"))
        runs = {f.name: once(["-m", "mathhammer", "army", str(f), "--data", str(data)])
                for f in corpus}
        if runs:
            walls = sorted((w, name) for name, (w, _c, _o) in runs.items())
            slow = [f"{name} {w:.2f}" for w, name in walls if w >= 0.5]
            print(f"| army, each of the {len(runs)} corpus lists (whole process, one run each): "
                  f"median / max{' (' + walls[-1][1] + ')'} | "
                  f"{statistics.median(w for w, _n in walls):.2f} / {walls[-1][0]:.2f} | "
                  f"{statistics.median(c for _w, c, _o in runs.values()):.2f} / "
                  f"{max(c for _w, c, _o in runs.values()):.2f} |")
            print(f"| corpus lists at 0.5 s or more | {len(slow)} | {'; '.join(slow)} |",
                  flush=True)
        code = ("import sys, time; sys.path.insert(0, 'tests'); "
                "from army_corpus import check, corpus, top_level; "
                f"from pathlib import Path; s = Path({str(shared)!r}); "
                "t = time.perf_counter(); "
                "[check(e, s / 'bsdata') for e in top_level(s) + corpus(s)]; "
                "print(time.perf_counter() - t)")
        wall, cpu, out = once(["-c", code], cwd=root)
        print(f"| every list of rosters/ and corpus/ (one process) | {wall:.2f} | {cpu:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
