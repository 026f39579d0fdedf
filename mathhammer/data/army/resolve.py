"""Resolve a parsed list against the BattleScribe data: each unit's datasheet, its exact model
count, the weapons it carries with their counts, and its points.

Decisions where the lists are silent:

- A unit's points are the list's own (they include its enhancements); a list without them
  gets the data's cost for the unit's size.
- A wargear name that is a weapon in the datasheet becomes that weapon with the list's count
  (a weapon with several profiles: its first profile fires by default, the others are
  optional picks); any other name the datasheet knows (a banner, a drone, a shield) is kept as
  wargear; a name the datasheet does not know is unresolved.
- Without an edition in the file or ``rules``, the list is read against every installed
  edition and the one where it resolves best is kept (fewest unresolved names, then most unit
  costs equal to the data's).
"""

from __future__ import annotations

import copy
import difflib
import re

import attrs

from ...errors import InputError
from ..datastore import EDITIONS, installed_editions
from ..names import name_key
from ..unit_file import build_unit
from ..unit_index import UnitIndex, unit_index
from .model import (
    Army,
    ArmyUnit,
    Item,
    ParsedList,
    ParsedUnit,
    Unresolved,
    Weapon,
)

_NOTES = {"warlord", "epic hero"}


def _singular(text: str) -> str:
    n = name_key(text)
    return n[:-1] if n.endswith("s") else n


@attrs.define
class _Data:
    """The compiled datasheets of one edition, through its unit index."""

    index: UnitIndex
    units: dict[str, dict[str, str]] = attrs.field(factory=dict)

    def entries(self, cat) -> dict[str, str]:
        """Normalised unit name -> unit name, for one catalogue."""
        key = str(cat.path)
        if key not in self.units:
            self.units[key] = {name_key(n): n for n, _k, _o in cat.units}
        return self.units[key]


def resolve(parsed: ParsedList, data=None, rules: str | None = None,
            attach: tuple[str, ...] = ()) -> Army:
    """The :class:`Army` a parsed list means, resolved against the data of its edition."""
    if rules is not None and rules not in EDITIONS:
        raise InputError(f"--rules {rules!r}: expected one of {', '.join(EDITIONS)}")
    edition = rules or parsed.edition
    if edition is not None:
        return _resolve(parsed, edition, data, attach)
    have = installed_editions(data)
    if not have:
        # the error of the newest edition says where to get the data
        unit_index("11e", data)
    armies = []
    errors = []
    for ed in have:
        try:
            armies.append(_resolve(parsed, ed, data, attach))
        except ValueError as e:
            errors.append(e)
    if not armies:
        raise errors[0]
    return min(armies, key=lambda a: (len(a.unresolved), _mismatches(a),
                                      -EDITIONS.index(a.edition)))


def _mismatches(army: Army) -> int:
    n = 0
    for u in army.units:
        if not u.enhancements and u.data_points is not None and u.data_points != u.points:
            n += 1
    return n + sum(1 for w in army.warnings if w.startswith("cost"))


def _resolve(parsed: ParsedList, edition: str, data, attach: tuple[str, ...]) -> Army:
    index = unit_index(edition, data)
    d = _Data(index)
    home = None
    for f in reversed(parsed.factions):
        home = index.catalogue(f) or index.catalogue(re.sub(r"^\w+ - ", "", f))
        if home is not None:
            break
    if home is None and parsed.factions:
        raise InputError(f"{parsed.source}: faction {parsed.factions[-1]!r} has no {edition} "
                         f"catalogue in {index.folder}; run `mathhammer data fetch --edition "
                         f"{edition}` (or give --data DIR)")
    units: list[ArmyUnit] = []
    unresolved: list[Unresolved] = []
    warnings: list[str] = []
    where: dict[int, int] = {}  # parsed index -> army index
    if home is not None:
        warnings += _missing_links(d, home)
    for k, pu in enumerate(parsed.units):
        try:
            au, bad = _unit(d, home, pu, parsed.source)
        except _Unresolved as e:
            unresolved.append(e.args[0])
            continue
        unresolved += bad
        where[k] = len(units)
        units.append(au)
    pairs = [(where[i], where[j]) for i, j in parsed.attached if i in where and j in where]
    pairs += _attach_specs(units, attach, pairs)
    total = sum(u.points for u in units)
    if parsed.declared_points is not None and total != parsed.declared_points and not unresolved:
        warnings.append(f"{parsed.source}: the units add up to {total} points, the list says "
                        f"{parsed.declared_points} (a truncated export?)")
    faction = home.label if home is not None else (parsed.factions[-1] if parsed.factions
                                                   else "")
    return Army(parsed.name, faction, edition, total,
                parsed.declared_points, tuple(units), tuple(pairs), tuple(unresolved),
                parsed.source, parsed.format, tuple(warnings))


def _missing_links(d: _Data, home) -> list[str]:
    """A warning per catalogue the list's catalogue links to that is not in the folder."""
    return [f"{home.path.name} links to catalogue {name!r}, which is not in "
            f"{home.path.parent}: its units and wargear cannot be read"
            for name in home.missing]


def _attach_specs(units: list[ArmyUnit], specs: tuple[str, ...],
                  taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    used = {i for p in taken for i in p}
    for spec in specs:
        if "=" not in spec:
            raise InputError(f'--attach {spec!r}: expected "Leader=Bodyguard"')
        lead, body = (s.strip() for s in spec.split("=", 1))
        pair = []
        for name in (lead, body):
            i = next((i for i, u in enumerate(units)
                      if i not in used and i not in pair
                      and name_key(u.name) == name_key(name)), None)
            if i is None:
                raise InputError(f"--attach {spec!r}: no unattached unit {name!r} in the army")
            pair.append(i)
        used.update(pair)
        out.append((pair[0], pair[1]))
    return out


class _Unresolved(Exception):
    pass


def _find(d: _Data, home, name: str):
    """(catalogue info, unit name) of a unit name: the list's faction first, then every
    catalogue of the edition."""
    q = name_key(name)
    tries = []
    if home is not None:
        tries.append(home)
    for cat in tries:
        entries = d.entries(cat)
        e = entries.get(q) or next(
            (v for k, v in entries.items() if name_key(re.sub(r"\s*\[.*?\]", "", k)) == q), None)
        if e is None:
            # a datasheet renamed since the list was made ("Primaris Captain" -> "Captain"):
            # the one name of the catalogue that the list's name ends or starts with
            near = [v for k, v in entries.items()
                    if len(k) > 3 and (q.endswith(" " + k) or q.startswith(k + " "))]
            e = near[0] if len(near) == 1 else None
        if e is not None:
            return cat, e
    hits = d.index.find(name)
    if len(hits) == 1:
        cat, uname = hits[0]
        e = d.entries(cat).get(name_key(uname))
        if e is not None:
            return cat, e
    return None, hits


def _unit(d: _Data, home, pu: ParsedUnit, source: str) -> tuple[ArmyUnit, list[Unresolved]]:
    cat, entry = _find(d, home, pu.name)
    if cat is None:
        hits = entry
        close = [f"{c.label}:{u}" for c, u in hits] if hits else d.index.close(pu.name)
        raise _Unresolved(Unresolved(pu.line, pu.name, tuple(close[:5])))
    compiled = d.index.record(cat, entry)
    if compiled["error"] is not None:
        raise InputError(f"{cat.path.name}: {entry!r}: {compiled['error']}")
    raw, members, options = compiled["raw"], compiled["members"], compiled["options"]
    bad: list[Unresolved] = []
    groups = raw["models"]
    # models -> groups
    counts = [0] * len(groups)
    items_by_group: list[list[Item]] = [[] for _ in groups]
    wargear: list[str] = []
    loose = [i for i in pu.items if name_key(i.name) not in _NOTES]
    model_names = [[_singular(n) for n in ms + [g.get("name", "")]]
                   for ms, g in zip(members, groups, strict=True)]

    def group_of(name: str) -> int | None:
        s = _singular(name)
        for gi, names in enumerate(model_names):
            if s in names:
                return gi
        if len(groups) == 1:
            return 0
        flat = [(n, gi) for gi, names in enumerate(model_names) for n in names]
        best = difflib.get_close_matches(s, [n for n, _ in flat], 1, 0.6)
        return next(gi for n, gi in flat if n == best[0]) if best else None

    listed_models = list(pu.models)
    if not listed_models:
        # a model line without wargear looks like wargear; a model name makes it a model
        keep = []
        for it in loose:
            gi = group_of(it.name) if any(_singular(it.name) in ns for ns in model_names) \
                else None
            if gi is not None:
                counts[gi] += it.count
            else:
                keep.append(it)
        loose = keep
    for pm in listed_models:
        gi = group_of(pm.name)
        if gi is None:
            close = difflib.get_close_matches(pm.name, [n for ms in members for n in ms], 3, 0.3)
            bad.append(Unresolved(pm.line, f"{pu.name}: {pm.name}", tuple(close)))
            continue
        counts[gi] += pm.count
        items_by_group[gi] += [i for i in pm.items if name_key(i.name) not in _NOTES]
    if sum(counts) == 0:
        lo = [g["count"] if isinstance(g["count"], int) else g["count"][0] for g in groups]
        counts = list(lo)
        if pu.size is not None and pu.size > sum(counts):
            counts[0] += pu.size - sum(counts)
    items_by_group[0 if counts[0] else counts.index(max(counts))] += loose
    # weapons
    out_groups = []
    weapons: dict[str, int] = {}
    for gi, g in enumerate(groups):
        if counts[gi] == 0:
            continue
        chosen: dict[str, dict] = {}
        for it in items_by_group[gi]:
            tables = [] if it.weapon is False else (_tables(groups, gi, it.name)
                                                    or list(it.tables))
            if tables:
                for t_i, t in enumerate(tables):
                    key = t["name"]
                    if key in chosen:
                        chosen[key]["count"] += it.count
                        continue
                    t = {k: v for k, v in t.items() if k not in ("unmapped", "optional")}
                    t["count"] = it.count
                    if t_i > 0:
                        t["optional"] = True
                    chosen[key] = t
                weapons[it.name] = weapons.get(it.name, 0) + it.count
            elif it.weapon is False or any(
                    name_key(it.name) == name_key(o) or _singular(it.name) == _singular(o)
                    for o in options):
                if it.name not in wargear:
                    wargear.append(it.name)
            else:
                close = difflib.get_close_matches(it.name, options, 3, 0.4)
                bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.name}",
                                      tuple(close)))
        ng = {k: v for k, v in g.items() if k != "weapons"}
        ng["count"] = counts[gi]
        if chosen:
            ng["weapons"] = list(chosen.values())
        out_groups.append(ng)
    total = sum(counts)
    points = pu.points if pu.points is not None else _cost_for(raw.get("points", []), total)
    unit_raw = copy.deepcopy({k: v for k, v in raw.items() if k not in ("points", "models")})
    unit_raw["models"] = out_groups
    unit_raw["points"] = [{"models": total, "cost": max(0, points)}]
    unit = build_unit(unit_raw, f"{source}: {pu.name}")
    return ArmyUnit(
        name=raw["name"], unit=unit, points=points, models=total,
        weapons=tuple(Weapon(n, c) for n, c in weapons.items()),
        keywords=tuple(raw.get("keywords", ())), wargear=tuple(wargear),
        enhancements=pu.enhancements, line=pu.line, catalogue=cat.label,
        data_points=_cost_for(raw["points"], total) if raw.get("points") else None,
    ), bad


def _cost_for(points: list[dict], n: int) -> int:
    """The data's cost for ``n`` models: the first band that reaches ``n``."""
    for p in sorted(points, key=lambda p: p["models"]):
        if p["models"] >= n:
            return int(p["cost"])
    return int(points[-1]["cost"]) if points else 0


_SEP = re.compile(r"^\s*(?:[-–—:(]|\s)")


def _tables(groups: list[dict], gi: int, name: str) -> list[dict]:
    """The weapon tables a wargear name means: the same name, or its profiles
    (``Plasma pistol - standard``/``- supercharge``); the given group first."""
    q = name_key(name)
    order = [gi] + [i for i in range(len(groups)) if i != gi]
    for i in order:
        ws = groups[i].get("weapons", [])
        exact = [w for w in ws if name_key(w["name"]) == q]
        if exact:
            return exact[:1]
        prof = [w for w in ws if name_key(w["name"]).startswith(q + " ")
                and _SEP.match(w["name"].replace("’", "'")[len(name):] or " ")]
        if prof:
            return _standard_first(prof)
    # a name the list writes longer or shorter ("Perdition Pistol" for "Perdition"): one weapon
    for i in order:
        near = [w for w in groups[i].get("weapons", [])
                if q.startswith(name_key(w["name"]) + " ")
                or name_key(w["name"]).startswith(q + " ")]
        if len({w["name"] for w in near}) == 1:
            return near[:1]
    return []


def _standard_first(tables: list[dict]) -> list[dict]:
    """The profile that fires by default first: one without Hazardous, else the first."""
    safe = [t for t in tables if "hazardous" not in t.get("abilities", [])]
    first = safe[0] if safe else tables[0]
    return [first] + [t for t in tables if t is not first]
