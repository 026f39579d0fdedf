"""Time the BattleScribe unit index and army-list reading (issue 12) on the shared data.

Run ``python tests/benchmark_army.py [SHARED]`` (default ``../shared`` beside the checkout).
Prints a Markdown table; always exits 0. Uses a temporary cache folder, so the index is built
from scratch: "index" is building it for all catalogues of an edition, "lookup" resolving one
name across every catalogue afterwards (index read from the cache), "army" the whole process of
``mathhammer army FILE`` with the index in place.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parents[2] / "shared")
    data, rosters = shared / "bsdata", shared / "rosters"
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        env.pop("MATHHAMMER_DATA", None)
        print("| what | seconds |\n| --- | --- |")
        for edition in ("10e", "11e"):
            code = (f"from mathhammer.data.unit_index import unit_index; "
                    f"unit_index({edition!r}, {str(data)!r})")
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            print(f"| index {edition} (whole process) | {time.perf_counter() - t:.2f} |")
            code = ("import time; from mathhammer.data.unit_index import find_data_unit; "
                    "t = time.perf_counter(); "
                    f"find_data_unit('Immortals', {edition!r}, {str(data)!r}); "
                    "print(time.perf_counter() - t)")
            out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                 capture_output=True, text=True).stdout
            print(f"| lookup 'Immortals' {edition} (in process) | {float(out):.3f} |")
        for f in sorted(rosters.iterdir()):
            if f.suffix not in (".txt", ".rosz", ".ros"):
                continue
            t = time.perf_counter()
            cmd = [sys.executable, "-c", "from mathhammer.cli import main; main()", "army",
                   str(f), "--data", str(data)]
            subprocess.run(cmd, env=env, capture_output=True)
            print(f"| army {f.name} (whole process) | {time.perf_counter() - t:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
