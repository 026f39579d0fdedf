"""Time the compiled store of the BattleScribe data (issue 19) on the shared data, as whole
processes: building the store of each edition, then a data unit's ``kills``, ``army FILE`` for
three lists, ``units --search`` and (with ``--atlas``) ``atlas`` of each edition.

Run ``python tests/benchmark_store.py [SHARED] [--atlas]`` (default ``../shared`` beside the
checkout). Prints a Markdown table (wall-clock and CPU seconds, the CPU of the process and its
workers: on a shared machine the CPU time is the steadier number); always exits 0. Uses a
temporary cache folder, so the stores are built from scratch.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LISTS = ("ultramarines.10e.rosz", "blood-angels.10e.gwapp.txt", "tau.11e.gwapp.txt")


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    shared = Path(args[0]) if args else Path(__file__).resolve().parents[2] / "shared"
    data, rosters = shared / "bsdata", shared / "rosters"
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache, "PYTHONPATH": str(root)}
        env.pop("MATHHAMMER_DATA", None)
        env.pop("MATHHAMMER_STORE", None)

        def run(label: str, *cmd: str) -> None:
            t = time.perf_counter()
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, *cmd], env=env, capture_output=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            ok = "" if done.returncode == 0 else f" (exit {done.returncode})"
            print(f"| {label} | {time.perf_counter() - t:.2f}{ok} | {cpu:.2f} |", flush=True)

        print("| what (whole process) | seconds | CPU seconds (user + system) |\n"
              "| --- | --- | --- |")
        for edition in ("10e", "11e"):
            run(f"store build {edition}", "-c", "from mathhammer.data.catalogue import "
                f"open_store; open_store({edition!r}, {str(data)!r})")
        mh = ("-m", "mathhammer")
        for _ in range(2):
            run('kills Lieutenant "Intercessor Squad"', *mh, "kills", "Lieutenant",
                "Intercessor Squad", "--data", str(data / "10e"))
        run("kills \"Hexmark Destroyer\" MEQ (a bundled unit)", *mh, "kills",
            "Hexmark Destroyer", "MEQ")
        for name in LISTS:
            run(f"army {name}", *mh, "army", str(rosters / name), "--data", str(data))
        run("units --search captain", *mh, "units", "--search", "captain", "--data", str(data))
        if "--atlas" in sys.argv:
            for edition in ("10e", "11e"):
                run(f"atlas {edition}", *mh, "atlas", "--rules", edition, "--data", str(data),
                    "-o", os.devnull)
    return 0


if __name__ == "__main__":
    sys.exit(main())
