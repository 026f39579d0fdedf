"""Every datasheet's default target against its datasheet's smallest unit, both editions.

Run ``python tests/model_check.py [SHARED] [-v]`` for the table edition -> datasheets, those
whose default target (``Unit.as_target()`` of the compiled store) has the models and the wounds
of the datasheet's smallest unit, and those that do not (``-v``: each one with what it has and
what the data gives). ``tests/test_model_check.py`` runs the same check on small folders.

The smallest unit is read from the data here, apart from the importer: the datasheet's model
entries (:meth:`mathhammer.data.bsdata.build._Builder.members`: each with its statline) and the
entries around them, every model entry at its minimum, every entry holding models (a "Unit
Composition" choice) taken when the data selects it by default (its minimum, its group's
default, else the first of a group that needs one), and a selection group whose minimum is not
met filled by its default entry (else the first), up to that entry's maximum, then the next.
A choice of entries holding models with no default (``6 Models`` or ``12 Models``) takes the
smallest. Limits as written: a modifier that depends on the unit's own choices is not applied.
``-k WORD`` checks only the catalogues whose file names contain WORD; ``--json FILE`` writes
every datasheet's row (to compare the runs of two versions).

>>> Tally("10e").add("X", (4, 12), (4, 12)).add("Y", (4, 12), (1, 3)).row()
'| 10e | 2 | 1 | 1 |'
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import attrs


def find_shared() -> Path:
    """``$MATHHAMMER_SHARED``, else the first ``shared`` folder beside a parent of the
    checkout (as :mod:`army_corpus`)."""
    if os.environ.get("MATHHAMMER_SHARED"):
        return Path(os.environ["MATHHAMMER_SHARED"])
    here = Path(__file__).resolve().parents[1]
    for up in here.parents:
        if (up / "shared" / "bsdata").is_dir():
            return up / "shared"
    return here.parent / "shared"


def _limits(e: Any) -> tuple[int, int | None]:
    """An entry's minimum and maximum in its parent, as written (scope ``parent``, or the id of
    a group around it; no modifiers)."""
    lo, hi = 0, None
    for c in e.constraints:
        if c.field != "selections" or c.scope in ("roster", "force", "primary-catalogue"):
            continue
        if c.type == "min":
            lo = max(lo, int(c.value))
        elif c.type == "max" and c.value >= 0:
            hi = int(c.value) if hi is None else min(hi, int(c.value))
    return lo, hi


def smallest(members: list[Any], unit: Any) -> list[int]:
    """The models of each model entry in the datasheet's smallest unit (see the module's doc);
    ``members`` have ``entry``, ``max`` and ``path`` (the entries from below the unit down to
    the entry's parent)."""
    kids: dict[int, list[tuple[str, Any]]] = {id(unit): []}
    for j, m in enumerate(members):
        up = id(unit)
        for x in m.path:
            if id(x) not in kids:
                kids[id(x)] = []
                kids[up].append(("node", x))
            up = id(x)
        kids[up].append(("leaf", j))
    counts = [0] * len(members)
    made: dict[int, int] = {}  # a group's selections

    def own(c: tuple[str, Any]) -> Any:
        return members[c[1]].entry if c[0] == "leaf" else c[1]

    def take(c: tuple[str, Any], chosen: bool) -> int:
        """Fill a subtree at its smallest (``chosen``: its holder takes it); the selections it
        makes in its parent."""
        kind, x = c
        if kind == "leaf":
            counts[x] = _limits(members[x].entry)[0] if chosen else 0
            return counts[x]
        lo, _hi = _limits(x)
        children = kids[id(x)]
        if x.kind != "group":  # an entry holding models: taken whole
            times = max(1, lo) if chosen else 0
            for k in children:
                take(k, times > 0 and _taken(k, own(k)))
            for j in _below(kids, x):
                counts[j] *= times
            return times
        default = next((k for k in children if x.default_id and x.default_id in
                        (own(k).id, own(k).link_id)), None)
        holders = [k for k in children if k[0] == "node" and k[1].kind != "group"]
        if default is None and holders and lo >= 1:  # a choice of sizes: the smallest
            sizes = []
            for k in holders:
                take(k, True)
                sizes.append(sum(counts[j] for j in _below(kids, k[1])))
                take(k, False)
            default = holders[sizes.index(min(sizes))]
        made[id(x)] = sum(take(k, chosen and (k is default or _taken(k, own(k))))
                          for k in children)
        if chosen and made[id(x)] < lo:
            grow(c, lo - made[id(x)])
        return made[id(x)] if chosen else 0

    def grow(c: tuple[str, Any], n: int) -> int:
        """Up to ``n`` more selections in a subtree: a model entry up to its maximum, a group
        through its default entry first, then the others, up to its own maximum."""
        kind, x = c
        if kind == "leaf":
            hi = _limits(members[x].entry)[1]
            add = n if hi is None else max(0, min(n, hi - counts[x]))
            counts[x] += add
            return add
        if x.kind != "group":
            return 0
        hi = _limits(x)[1]
        n = n if hi is None else max(0, min(n, hi - made[id(x)]))
        children = kids[id(x)]
        first = [k for k in children if x.default_id in (own(k).id, own(k).link_id)]
        added = 0
        for k in first + [k for k in children if k not in first
                          and (k[0] == "leaf" or k[1].kind == "group")]:
            added += grow(k, n - added)
        made[id(x)] += added
        return added

    for c in kids[id(unit)]:
        take(c, _taken(c, own(c)))
    return counts


def _taken(c: tuple[str, Any], e: Any) -> bool:
    """Whether a child is taken without a choice: a model entry (at its minimum), a group, or
    an entry with a minimum."""
    return c[0] == "leaf" or e.kind == "group" or _limits(e)[0] >= 1


def _below(kids: dict[int, list[tuple[str, Any]]], x: Any) -> list[int]:
    out = []
    for kind, y in kids[id(x)]:
        out += [y] if kind == "leaf" else _below(kids, y)
    return out


@attrs.frozen
class Sheet:
    """One datasheet: what the data's smallest unit has, what its default target has."""

    name: str
    want: tuple[int, int]  # (models, wounds)
    have: tuple[int, int]
    detail: str = ""


@attrs.define
class Tally:
    """The check of one edition."""

    edition: str
    sheets: list[Sheet] = attrs.field(factory=list)

    def add(self, name: str, want: tuple[int, int], have: tuple[int, int],
            detail: str = "") -> Tally:
        self.sheets.append(Sheet(name, want, have, detail))
        return self

    @property
    def failing(self) -> list[Sheet]:
        return [s for s in self.sheets if s.want != s.have]

    def row(self) -> str:
        n, bad = len(self.sheets), len(self.failing)
        return f"| {self.edition} | {n} | {n - bad} | {bad} |"


def _members(lib: Any, entry: Any) -> tuple[Any, list[Any], list[int]]:
    """(unit entry, model entries with their paths, each one's W) as the importer reads
    them; the paths walked here (the importer of another version may not keep them)."""
    from mathhammer.data.bsdata.build import _Builder
    from mathhammer.data.bsdata.profiles import int_of

    b = _Builder(lib, entry)
    ms = b.members()
    u = b.unit
    walked = [path[1:] for x, _c, path in b.w.walk(u, b.ctx, lambda x: x.type == "model")
              if x.type == "model"]
    if len(walked) != len(ms) or any(m.entry is u for m in ms):
        walked = [()] * len(ms)
    out = [attrs.evolve(m, path=p) if hasattr(m, "path") else _WithPath(m, p)
           for m, p in zip(ms, walked, strict=True)]
    return u, out, [int_of(m.statline.get("W")) or 0 for m in ms]


@attrs.frozen
class _WithPath:
    member: Any
    path: tuple[Any, ...]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.member, name)


def _target(store: Any, ds: int) -> tuple[int, int, str]:
    """(models, wounds, the groups) of a compiled datasheet's default target."""
    t = store.unit(ds, warn=False).as_target()
    groups = getattr(t, "groups", (t,))
    return (sum(g.models for g in groups), sum(g.models * g.wounds for g in groups),
            " + ".join(f"{g.models}x W{g.wounds}" for g in groups))


def check_edition(folder: Path, edition: str, word: str = "") -> Tally:
    """Every datasheet of one edition's data folder (once, through the first catalogue that
    is no library and holds it; ``word``: only the files whose names contain it)."""
    from mathhammer.data.bsdata.files import load_file, open_library
    from mathhammer.data.bsdata.find import catalogue_units, is_datasheet
    from mathhammer.data.store.compiled import open_store
    from mathhammer.data.store.data_folder import is_game_system

    store = open_store(edition, folder)  # type: ignore[arg-type]
    tally = Tally(edition)
    seen: set[str] = set()
    files = sorted((p for p in folder.iterdir() if p.suffix in (".cat", ".json")
                    and not is_game_system(p) and word.lower() in p.name.lower()),
                   key=lambda p: ("Library" in p.name, p.name))
    for path in files:
        try:
            cat = load_file(path)
            lib = open_library(path)
            found = ([(e.name, e) for e in cat.shared_entries if is_datasheet(e)]
                     if cat.library else catalogue_units(lib))
        except ValueError:
            continue
        for name, e in found:
            key = e.target_id or e.id
            if key in seen:
                continue
            try:
                ds = _datasheet(store, path, name)
                if ds is None:
                    continue
                unit, members, wounds = _members(lib, e)
                counts = smallest(members, unit) if members[0].entry is not unit else [1]
                have = _target(store, ds)
            except (ValueError, RecursionError):
                continue  # a datasheet that does not import: data check counts those
            seen.add(key)
            want = (sum(counts), sum(c * w for c, w in zip(counts, wounds, strict=True)))
            parts = [f"{c}x {m.entry.name} W{w}" for c, m, w in zip(counts, members, wounds,
                                                                     strict=True) if c]
            tally.add(f"{path.name}:{name}", want, have[:2],
                      f"target {have[2]}; data {' + '.join(parts)}")
    return tally


def _datasheet(store: Any, path: Path, name: str) -> int | None:
    row = store.db.execute(
        "SELECT e.datasheet, d.error FROM entries e JOIN catalogues c ON c.id = e.catalogue "
        "JOIN datasheets d ON d.id = e.datasheet WHERE c.path = ? AND e.name = ? "
        "ORDER BY e.rowid DESC LIMIT 1", (str(path), name)).fetchone()
    return None if row is None or row[1] is not None else row[0]


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    args = [a for a in argv if a != "-v"]
    word = dump = ""
    for flag in ("-k", "--json"):
        if flag in args:
            at = args.index(flag)
            if flag == "-k":
                word = args[at + 1]
            else:
                dump = args[at + 1]
            del args[at:at + 2]
    shared = Path(args[0]) if args else find_shared()
    t0 = time.perf_counter()
    tallies = []
    with tempfile.TemporaryDirectory() as cache, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        os.environ.setdefault("XDG_CACHE_HOME", cache)
        os.environ.pop("MATHHAMMER_DATA", None)
        for edition in ("10e", "11e"):
            folder = shared / "bsdata" / edition
            if folder.is_dir():
                tallies.append(check_edition(folder, edition, word))
    print("| edition | datasheets | default target = smallest unit | not |")
    print("| --- | --- | --- | --- |")
    for t in tallies:
        print(t.row())
    print(f"\n({time.perf_counter() - t0:.1f} s)")
    if dump:  # every datasheet's check, to compare two runs (two versions of mathhammer)
        Path(dump).write_text(json.dumps({t.edition: [attrs.asdict(x) for x in t.sheets]
                                          for t in tallies}, indent=0), encoding="utf-8")
    if verbose:
        for t in tallies:
            for s in t.failing:
                print(f"{t.edition} {s.name}: target {s.have[0]} models {s.have[1]} wounds, "
                      f"data {s.want[0]} models {s.want[1]} wounds ({s.detail})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
