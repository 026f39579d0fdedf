"""Write and run ``examples/notebook.ipynb``, the library in Jupyter, and draw
``examples/notebook.png`` (its displays, in the system's Chromium).

    python examples/make_notebook.py            # rewrites the notebook (run) and the picture
    python examples/make_notebook.py --no-png   # the notebook only

Needs ``pip install ".[test]"`` (nbformat, nbclient, ipykernel); the army-list cell runs when
the BattleScribe data is installed (``mathhammer data fetch --edition 11e`` or
``$MATHHAMMER_DATA``) and the DataFrame cell when pandas is (``pip install ".[notebook]"``),
else they say so. ``tests/test_notebook.py`` runs the notebook and compares every other cell's
output with the committed one (the army list's too when the shared BattleScribe data is there).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NOTEBOOK = HERE / "notebook.ipynb"
PICTURE = HERE / "notebook.png"
#: tags of the cells whose output depends on what is installed (run, compared only with it)
NEEDS_DATA, NEEDS_PANDAS = "needs-data", "needs-pandas"

ARMY = '''QC (1995 points)

Imperial Knights
Strike Force (2000 points)
Questoris Companions (3 Detachment Points)


CHARACTERS

Cerastus Knight Lancer (430 points)
  • 1x Cerastus shock lance

Knight Warden (375 points)
  • Warlord
  • 1x Avenger gatling cannon
    1x Heavy flamer
    1x Questoris heavy stubber
    1x Stormspear rocket pod
    1x Thunderstrike gauntlet


OTHER DATASHEETS

Armiger Warglaive (140 points)
  • 1x Meltagun
    1x Reaper chain-cleaver
    1x Thermal spear

Exported with App Version: v2.0.0 (121), Data Version: v867
'''

#: (kind, source[, tags]) of each cell
CELLS: list[tuple] = [
    ("markdown", """# mathhammer in a notebook

Every answer is exact: a `PMF` maps each outcome to its probability as a `Fraction`, and a
`Result` holds one for every step of the attack. Both display as tables in Jupyter.""", []),
    ("code", """import mathhammer as mh

hexmark = mh.load_unit("Hexmark Destroyer")
meq = mh.load_unit("MEQ")
r = mh.attack(hexmark, meq, half_range=True)
r""", []),
    ("markdown", """The display is the `mathhammer kills` report; `repr(r)` is one line, and
`r.to_dict()` is the `--json` data."""),
    ("code", """print(repr(r))
r.to_dict()["mean"]["kills"], r.to_dict()["pmf"]["kills"]["3"]""", []),
    ("markdown", """## A PMF is a mapping

`kills[k]` is the exact probability of k (0 outside the support), `k in kills` asks whether k
can happen, iterating gives the outcomes in order, `.items()` the pairs."""),
    ("code", """kills = r.kills
kills""", []),
    ("code", """kills[2], 2 in kills, kills[9], 9 in kills, list(kills), sum(kills.values())""",
     []),
    ("code", """print(f"mean {float(kills.mean()):.3f}, std {kills.std():.3f}, "
      f"median {kills.median()}, 90% quantile {kills.quantile(0.9)}")
print("P(at least 2) =", kills.at_least(2))
{k: f"{float(p):.2%}" for k, p in kills.items()}""", []),
    ("markdown", """## A comparison

The seed units against the standard targets (expected kills), then the Hexmark's kills with
1s re-rolled to hit."""),
    ("code", """attackers = ["Hexmark Destroyer", "Cronos", "Skitarii Marshal"]
targets = ["GEQ", "MEQ", "TEQ"]
means = {a: {t: mh.attack(mh.load_unit(a), mh.load_unit(t)).kills.mean() for t in targets}
         for a in attackers}
print(f"{'expected kills':<18}" + "".join(f"{t:>7}" for t in targets))
for a, row in means.items():
    print(f"{a:<18}" + "".join(f"{float(m):>7.2f}" for m in row.values()))""", []),
    ("code", """mh.attack(hexmark, meq, half_range=True, reroll_hits="ones").kills""", []),
    ("markdown", """## Over turns

Two turns of the Hexmark's pistols into five Necron Warriors, who reanimate (D3) in between:
P(destroyed) after each step, then the kills at the end (from Starting Strength)."""),
    ("code", """warriors = mh.load_unit("Necron Warriors").as_target(models=5)
t = mh.turns(hexmark, warriors, 2)
for step, p in zip(t.steps, t.destroyed, strict=True):
    print(f"{step.label:<10} P(destroyed) {float(p):7.2%}")
t.kills""", []),
    ("markdown", """## An army list

Each unit of a list against MEQ (needs the BattleScribe data: `mathhammer data fetch
--edition 11e`; without it the cell says so)."""),
    ("code", f'''from mathhammer.data.store.data_folder import installed_editions

LIST = """{ARMY}"""
if "11e" not in installed_editions():
    print("No BattleScribe data for 11e: run `mathhammer data fetch --edition 11e` "
          "(or set MATHHAMMER_DATA), then this cell again.")
else:
    army = mh.parse_army(LIST)
    print(f"{{army.name}} ({{army.faction}}, {{army.edition}}): {{army.points}} points")
    for label, unit in army.rows():
        k = mh.attack(unit, meq, rules=army.edition).kills
        print(f"{{label:<24}} {{float(k.mean()):5.2f}} MEQ killed, "
              f"P(2+) {{float(k.at_least(2)):6.1%}}")''',
     [NEEDS_DATA]),
    ("markdown", """## DataFrames

With pandas (`pip install "mathhammer[notebook]"`), `to_dataframe()` keeps the exact values
as Fractions beside float columns."""),
    ("code", """import importlib.util

if importlib.util.find_spec("pandas") is None:
    print('pandas is not installed: pip install "mathhammer[notebook]"')
else:
    df = r.to_dataframe()
    display(df.loc["kills"])""", [NEEDS_PANDAS]),
]


def build() -> object:
    """The notebook, not yet run."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    for kind, source, *tags in CELLS:
        make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        cell = make(source)
        if tags and tags[0]:
            cell.metadata["tags"] = tags[0]
        nb.cells.append(cell)
    return nb


def run(nb: object, cwd: Path = HERE, timeout: int = 120) -> object:
    """Run every cell in a fresh kernel (this Python), in ``cwd``; an error stops it."""
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=timeout, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(cwd)}}).execute()
    for i, cell in enumerate(nb.cells):  # reproducible files: ids by position ...
        cell["id"] = f"cell-{i}"
        merged: list = []  # ... and a cell's printed text as one output, however it was flushed
        for o in cell.get("outputs", ()):
            if (o["output_type"] == "stream" and merged
                    and merged[-1]["output_type"] == "stream" and merged[-1]["name"] == o["name"]):
                merged[-1]["text"] += o["text"]
            else:
                merged.append(o)
        if "outputs" in cell:
            cell["outputs"] = merged
    return nb


def picture(nb: object, out: Path = PICTURE) -> Path:
    """Screenshot the first cell's display (the Result) in headless Chromium."""
    html = next(o["data"]["text/html"] for c in nb.cells if c.cell_type == "code"
                for o in c.get("outputs", ()) if "text/html" in o.get("data", {}))
    chromium = next(p for p in (os.environ.get("MATHHAMMER_CHROMIUM"), shutil.which("chromium"),
                                shutil.which("chromium-browser")) if p)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "display.html"
        page.write_text('<!doctype html><meta charset="utf-8"><body style="font: 13px '
                        'system-ui, sans-serif; margin: 16px">' + html + "</body>",
                        encoding="utf-8")
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--window-size=700,400",
                        f"--screenshot={out}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
    return out


def main(argv: list[str]) -> None:
    import nbformat

    nb = run(build())
    nbformat.write(nb, NOTEBOOK)
    print(f"wrote {NOTEBOOK}")
    if "--no-png" not in argv:
        print(f"wrote {picture(nb)}")


if __name__ == "__main__":
    main(sys.argv[1:])
