"""The shared army lists (``../shared/rosters`` and its ``corpus/``) and what each should read as.

Run ``python tests/army_corpus.py [SHARED] [-v]`` for the table format x edition -> lists read
fully (their units' points equal the stated total, where known the unit count matches, and
the edition read is the one the file name gives),
lists that name a data file the shared data lacks, lists that name the data file that lacks
what they need (the file is there, an older release of it: every line not read is a name it
lacks, and those lines make up the points and units the list states), and lists that fail
(``-v``: each failure's first causes), and how many of the units read have a default target of
the models their list gives (every model group of the unit). ``tests/test_army_corpus.py``
makes each corpus list a test with the same check. Each roster is also read as New Recruit's
JSON export, ListForge's share JSON and its share link (:func:`structured_forms`), and each
list that loads as what ``army --json`` writes of it, read back: the table's structured rows.

A list's name says its faction, edition and format (``tau-empire.10e.newrecruit-gw.2.txt``);
``corpus/SOURCES.md`` gives its stated total and unit count. The lists directly in ``rosters/``
have no such table: their own stated total is the check.

>>> name_parts("tau-empire.10e.newrecruit-gw.2.txt")
('10e', 'newrecruit-gw')
>>> expected_points("(none stated; unit lines sum to 1990); Strike Force 2000")
1990
>>> expected_points("2,000; Strike Force 2000")
2000
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import attrs
import pytest


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory):
    """A private cache folder (the unit index goes there) and no $MATHHAMMER_DATA."""
    old = {k: os.environ.get(k) for k in ("XDG_CACHE_HOME", "MATHHAMMER_DATA")}
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    os.environ.pop("MATHHAMMER_DATA", None)
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def find_shared() -> Path:
    """``$MATHHAMMER_SHARED``, else the first ``shared`` folder beside the checkout or beside
    one of its parents (``../shared`` from a clone, ``../../shared`` from a worktree)."""
    if os.environ.get("MATHHAMMER_SHARED"):
        return Path(os.environ["MATHHAMMER_SHARED"])
    here = Path(__file__).resolve().parents[1]
    for up in here.parents:
        if (up / "shared" / "rosters").is_dir():
            return up / "shared"
    return here.parent / "shared"


SHARED = find_shared()
SUFFIXES = (".txt", ".ros", ".rosz")


@attrs.frozen
class Expect:
    """What a shared list should read as: its stated total and unit count (None: unknown)."""

    path: Path
    edition: str
    format: str
    points: int | None
    units: int | None


def name_parts(name: str) -> tuple[str, str]:
    """(edition, format) from a shared list's file name."""
    parts = name.split(".")
    return parts[1], parts[2]


def expected_points(cell: str) -> int | None:
    """The points a list's units add up to, from SOURCES.md's 'stated total points' cell."""
    m = re.search(r"sum to (\d[\d,]*)", cell) or re.search(r"\d[\d,]*", cell)
    return int(m.group(1 if m.lastindex else 0).replace(",", "")) if m else None


def corpus(shared: Path = SHARED) -> list[Expect]:
    """Every list of ``corpus/`` with its SOURCES.md row."""
    folder = shared / "rosters" / "corpus"
    rows: dict[str, list[str]] = {}
    sources = folder / "SOURCES.md"
    if sources.is_file():
        for line in sources.read_text(encoding="utf-8").splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) > 4 and cells[0].endswith(SUFFIXES):
                rows[cells[0]] = cells
    out = []
    for p in sorted(folder.iterdir()) if folder.is_dir() else []:
        if p.suffix not in SUFFIXES:
            continue
        edition, fmt = name_parts(p.name)
        row = rows.get(p.name)
        points = expected_points(row[3]) if row else None
        units = int(row[4]) if row and row[4].isdigit() else None
        out.append(Expect(p, edition, fmt, points, units))
    return out


def top_level(shared: Path = SHARED) -> list[Expect]:
    """The lists directly in ``rosters/`` (their own stated total is the check)."""
    folder = shared / "rosters"
    out = []
    for p in sorted(folder.iterdir()) if folder.is_dir() else []:
        if p.suffix in SUFFIXES:
            edition, fmt = name_parts(p.name)
            out.append(Expect(p, edition, fmt.replace("rosz", "rosz"), None, None))
    return out


_MISSING = re.compile(r"'?([^':]+\.(?:json|cat|gst))'?,? (?:which )?is not in|needs '([^']+)'"
                      r"|missing data file '([^']+)'")


#: what a list reads as: fully, naming a data file the folder lacks, naming the data file (there)
#: that lacks what it needs, or neither
OUTCOMES = {"full": "read fully", "data": "name a missing data file",
            "older": "name the data file that lacks what they need", "fail": "fail"}


def check(e: Expect, data: Path) -> tuple[str, str]:
    """(an :data:`OUTCOMES` key, why) for one list read against ``data``."""
    from mathhammer.data.army import load_army
    from mathhammer.errors import InputError

    try:
        a = load_army(e.path, data=data)
    except (InputError, ValueError) as err:
        msg = str(err)
        kind = "data" if re.search(r"\.(json|cat)\b.*(not in|missing|lacks)|missing.*\.(json|cat)",
                                   msg) else "fail"
        return kind, msg.splitlines()[0][:300]
    want = e.points if e.points is not None else a.declared_points
    why = []
    # the edition read is the list's (its file name says which; "unknown": the list does not)
    if e.edition in ("10e", "11e") and a.edition != e.edition:
        why.append(f"edition {a.edition} != {e.edition}")
    if a.unresolved:
        why.append(f"{len(a.unresolved)} unresolved: " + "; ".join(
            u.text for u in a.unresolved[:3]))
    if want is not None and a.points != want:
        why.append(f"points {a.points} != {want}")
    if e.units is not None and len(a.units) != e.units:
        why.append(f"units {len(a.units)} != {e.units}")
    if not why:
        return "full", ""
    # a warning that names a data file the folder lacks (not one naming a file that lacks a
    # name: "detachment 'Runt Swarm' is not in Orks.json")
    missing = [w for w in a.warnings if re.search(r"which is not in|missing (data )?file", w)]
    # the data lacks a file: whole datasheets (not just a wargear line) are not found
    if missing and any(":" not in u.text for u in a.unresolved):
        return "data", "; ".join(why) + " | " + missing[0][:200]
    # the file is there but lacks names of the list (a newer release of it has them): each line
    # not read is such a name, and the whole units among them make up the points and units
    if a.only_lacking:
        lost = [u for u in a.unresolved if u.unit]
        points = a.points + sum(u.points or 0 for u in lost)
        if all(u.points is not None for u in lost) and (want is None or points == want) and (
                e.units is None or len(a.units) + len(lost) == e.units):
            return "older", "; ".join(why) + " | " + "; ".join(
                w for w in a.warnings if "does not have" in w)[:300]
    return "fail", "; ".join(why)


def model_counts(e: Expect, data: Path) -> tuple[int, list[str]]:
    """(units read, those whose default target has other than the list's models) of one list:
    each unit's target (every model group) against the models its list lines give."""
    from mathhammer.data.army import load_army
    from mathhammer.errors import InputError

    try:
        a = load_army(e.path, data=data)
    except (InputError, ValueError):
        return 0, []
    bad = []
    for u in a.units:
        t = u.as_target()
        have = sum(g.models for g in getattr(t, "groups", (t,)))
        if have != u.models:
            bad.append(f"{u.name}: target {have} models, list {u.models}")
    return len(a.units), bad


#: the structured forms a roster is also read as (issue 36): New Recruit's JSON export and
#: ListForge's share JSON and share link of each ``.ros``/``.rosz`` (made by
#: ``tests/roster_json.py``), and what ``army --json`` writes of each list that loads, read back
STRUCTURED = ("newrecruit-json", "listforge-json", "listforge-link", "mathhammer-json")


def structured_forms(e: Expect, data: Path, folder: Path) -> list[Expect]:
    """The structured forms of one list, written to ``folder``, each expected to read as the
    list itself (its stated total and unit count)."""
    import json

    from roster_json import listforge_json, newrecruit_json, share_link

    from mathhammer.data.army import load_army
    from mathhammer.errors import InputError

    stem = e.path.name.replace(".", "_")
    out = []
    if e.path.suffix in (".ros", ".rosz"):
        raw = e.path.read_bytes()
        lf = listforge_json(raw)
        for fmt, text in (("newrecruit-json", json.dumps(newrecruit_json(raw))),
                          ("listforge-json", json.dumps(lf)),
                          ("listforge-link", share_link(lf))):
            f = folder / f"{stem}.{fmt}.txt"
            f.write_text(text, encoding="utf-8")
            out.append(attrs.evolve(e, path=f, format=fmt))
    try:
        a = load_army(e.path, data=data)
    except (InputError, ValueError):
        return out
    f = folder / f"{stem}.mathhammer-json.json"
    f.write_text(json.dumps(a.to_json(), ensure_ascii=False), encoding="utf-8")
    return [*out, attrs.evolve(e, path=f, format="mathhammer-json")]


def said_edition(e: Expect) -> bool:
    """Whether the list itself says its edition (not read by which edition fits it best)."""
    from mathhammer.data.army import read_list
    from mathhammer.errors import InputError

    try:
        return read_list(e.path).edition is not None
    except (InputError, ValueError):
        return False


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    shared = Path(args[0]) if args else SHARED
    data = shared / "bsdata"
    lists = top_level(shared) + corpus(shared)
    table: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    details = []
    t0 = time.perf_counter()
    counted: list = [0, []]  # units read, those whose target has other than the list's models
    with tempfile.TemporaryDirectory() as cache:
        os.environ.setdefault("XDG_CACHE_HOME", cache)
        os.environ.pop("MATHHAMMER_DATA", None)
        forms = Path(cache) / "structured"
        forms.mkdir()
        lists += [f for e in list(lists) for f in structured_forms(e, data, forms)]
        for e in lists:
            kind, why = check(e, data)
            cell = table[(e.format, e.edition)]
            cell[kind] += 1
            cell["all"] += 1
            cell["said"] += said_edition(e)
            if kind != "full":
                where = e.path.relative_to(shared / "rosters") if e.format not in STRUCTURED \
                    else e.path.name
                details.append(f"{where}: {kind}: {why}")
            n, bad = model_counts(e, data)
            counted[0] += n
            counted[1] += [f"{e.path.name}: {b}" for b in bad]
    print("| format | edition | lists | " + " | ".join(OUTCOMES.values())
          + " | edition said by the list |")
    print("| --- | --- | --- |" + " --- |" * (len(OUTCOMES) + 1))
    tot: dict[str, int] = defaultdict(int)
    for (fmt, ed), c in sorted(table.items()):
        print(f"| {fmt} | {ed} | {c['all']} | " + " | ".join(str(c[k]) for k in OUTCOMES)
              + f" | {c['said']} |")
        for k in ("all", "said", *OUTCOMES):
            tot[k] += c[k]
    print(f"| **all** | | {tot['all']} | " + " | ".join(str(tot[k]) for k in OUTCOMES)
          + f" | {tot['said']} |")
    print(f"\nunits whose target has the list's models: {counted[0] - len(counted[1])} of "
          f"{counted[0]}")
    print(f"\n({time.perf_counter() - t0:.1f} s)")
    if verbose:
        print("\n" + "\n".join(details + counted[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
