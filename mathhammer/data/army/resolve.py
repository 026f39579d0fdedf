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
from pathlib import Path
from typing import Any

import attrs

from ...errors import InputError
from ..datastore import EDITIONS, installed_editions
from ..names import name_key
from ..unit_file import build_unit
from ..unit_index import UnitIndex, unit_index
from .lines import count_name
from .model import (
    Army,
    ArmyUnit,
    Item,
    ParsedList,
    ParsedUnit,
    Unresolved,
    Weapon,
)

__all__ = ["match_key", "resolve"]

_NOTES = {"warlord", "epic hero"}


def _singular(text: str) -> str:
    """Each word without a plural ``s`` (``Pathfinders w/ rifles`` ~ ``Pathfinder w/ rifle``)."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in name_key(text).split())


@attrs.define
class _Data:
    """Catalogues opened for one army (each once)."""

    index: UnitIndex
    lookups: int = 0  # names looked up beyond the list's catalogues
    libs: dict[str, Any] = attrs.field(factory=dict)
    units: dict[str, dict[str, Any]] = attrs.field(factory=dict)

    def lib(self, path: Path):
        from ..bsdata.files import open_library

        key = str(path)
        if key not in self.libs:
            self.libs[key] = open_library(path)
        return self.libs[key]

    def names(self, path: Path) -> dict[str, tuple[str, int | None]]:
        """Every selectable name of a catalogue and the files it links to, by
        :func:`match_key`: ``("weapon", None)`` for a weapon, ``("enhancement", cost)`` for an
        entry under an Enhancements group, ``("wargear", None)`` for anything else."""
        from ..bsdata.profiles import clean_name, is_weapon

        key = "names:" + str(path)
        if key in self.units:
            return self.units[key]
        out: dict[str, tuple[str, int | None]] = {}
        seen: set[int] = set()

        def cost(e) -> int | None:
            for c in e.costs:
                if (c.name or "").strip().lower() == "pts":
                    try:
                        return int(c.value)
                    except (TypeError, ValueError):
                        return None
            return None

        def walk(e, enh: bool) -> None:
            if id(e) in seen:
                return
            seen.add(id(e))
            enh = enh or "enhancement" in (e.name or "").lower()
            weapon = False
            for p in e.profiles:
                if is_weapon(p):
                    weapon = True
                    out[match_key(clean_name(p.name))] = ("weapon", None)
            if e.name and e.kind != "group":
                k = match_key(e.name)
                if weapon:
                    out[k] = ("weapon", None)
                elif enh and e.type == "upgrade":
                    out.setdefault(k, ("enhancement", cost(e)))
                else:
                    out.setdefault(k, ("wargear", None))
            for c in e.children:
                walk(c, enh)

        lib = self.lib(path)
        for cat in lib.catalogues():
            for kind in ("root_entries", "root_links", "shared_entries", "shared_groups"):
                for e in getattr(cat, kind, ()):
                    walk(e, False)
            for p in getattr(cat, "shared_profiles", ()):
                if is_weapon(p):
                    out[match_key(clean_name(p.name))] = ("weapon", None)
        self.units[key] = out  # type: ignore[assignment]
        return out

    def keyed(self, path: Path) -> dict[str, tuple[str, Any]]:
        """:func:`match_key` -> (data name, root entry), for one catalogue."""
        key = "keyed:" + str(path)
        if key not in self.units:
            self.units[key] = {match_key(k): (k, v) for k, v in self.entries(path).items()}
        return self.units[key]

    def built(self, lib, entry) -> tuple[dict, list, list[str]]:
        """(raw unit, model members, option names) of a datasheet, built once per army (a
        list repeats datasheets)."""
        from ..bsdata.build import build_entry
        from ..bsdata.find import option_names

        key = f"built:{lib.main.path}:{entry.id}:{getattr(entry, 'target_id', '')}"
        if key not in self.units:
            try:
                raw, _warnings, members = build_entry(lib, entry)
                self.units[key] = (raw, members, option_names(lib, entry))  # type: ignore
            except (InputError, ValueError, KeyError, TypeError) as e:
                self.units[key] = e  # type: ignore[assignment]
        got = self.units[key]
        if isinstance(got, Exception):
            raise got
        return got  # type: ignore[return-value]

    def entries(self, path: Path) -> dict[str, Any]:
        """Normalised unit name -> root entry, for one catalogue."""
        from ..bsdata.find import catalogue_units

        key = str(path)
        if key not in self.units:
            self.units[key] = {name_key(n): e for n, e in catalogue_units(self.lib(path))}
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


def edition_of(index: UnitIndex) -> str:
    return str(index.edition)


def _homes(index: UnitIndex, parsed: ParsedList) -> tuple[list, list[str]]:
    """The catalogues the list's faction lines name (most specific first) and warnings. A
    faction whose catalogue another file links to but the folder lacks is an error naming it."""
    found: list = []
    for f in parsed.factions:
        for q in (f, re.sub(r"^\w+ - ", "", f), re.sub(r"\s*\(.*\)\s*$", "", f)):
            c = index.catalogue(q)
            if c is not None and c not in found:
                found.append(c)
    if found:
        # "Space Marines" and "Blood Angels": the chapter (the later, non-library line) first
        found.sort(key=lambda c: (c.library, -parsed.factions.index(
            next((f for f in parsed.factions if index.catalogue(f) is c
                  or index.catalogue(re.sub(r"^\w+ - ", "", f)) is c), parsed.factions[0]))))
        return found, []
    missing = {name_key(re.sub(r"^\w+ - ", "", m)): m for m in getattr(index, "missing", ())}
    for f in parsed.factions:
        m = missing.get(name_key(re.sub(r"^\w+ - ", "", f)))
        if m is not None:
            ext = ".json" if edition_of(index) == "11e" else ".cat"
            raise InputError(f"{parsed.source}: faction {f!r} is in the catalogue {m!r} "
                             f"(missing file '{m}{ext}'), which is not in {index.folder}; "
                             "other catalogues link to it")
    # "Aeldari": the catalogues of that grand alliance
    for f in parsed.factions:
        q = name_key(f)
        near = [c for c in index.catalogues if not c.library
                and name_key(c.path.stem).startswith(q + " ")]
        if near and len(q) > 3:
            return near, []
    if parsed.factions:
        return [], [f"{parsed.source}: no catalogue of {index.edition} matches the list's "
                    f"faction lines ({', '.join(repr(f) for f in parsed.factions[:3])}); units "
                    "are looked up in every catalogue"]
    return [], []


def _resolve(parsed: ParsedList, edition: str, data, attach: tuple[str, ...]) -> Army:
    index = unit_index(edition, data)
    d = _Data(index)
    homes, warnings = _homes(index, parsed)
    if not homes:
        # no faction line: the catalogue that has the most of the list's units
        votes: dict[str, list] = {}
        for pu in parsed.units[:12]:  # a dozen units say where a list comes from
            for c, u in index.find(pu.name):
                if match_key(u) == match_key(pu.name) and not c.library:
                    votes.setdefault(str(c.path), [c, 0])[1] += 1
        if votes:
            homes = [max(votes.values(), key=lambda v: v[1])[0]]
    home = homes[0] if homes else None
    warnings = list(parsed.warnings) + warnings
    units: list[ArmyUnit] = []
    unresolved: list[Unresolved] = []
    where: dict[int, int] = {}  # parsed index -> army index
    for h in homes[:1]:
        warnings += _missing_links(d, h)
    for k, pu in enumerate(parsed.units):
        try:
            au, bad, notes = _unit(d, homes, pu, parsed.source)
        except _Unresolved as e:
            unresolved.append(e.args[0])
            continue
        except (InputError, ValueError, KeyError, TypeError) as e:
            # a datasheet the data cannot build costs that unit, not the list
            unresolved.append(Unresolved(pu.line, pu.name, (), str(e).splitlines()[0][:300]))
            continue
        unresolved += bad
        warnings += notes
        where[k] = len(units)
        units.append(au)
    if home is None and parsed.factions and not units:
        raise InputError(f"{parsed.source}: faction {parsed.factions[0]!r} has no {edition} "
                         f"catalogue in {index.folder}; run `mathhammer data fetch --edition "
                         f"{edition}` (or give --data DIR)")
    pairs = []
    for i, j in parsed.attached:
        if i not in where or j not in where:
            continue
        lead = units[where[i]]
        if parsed.units[i].role == "leader" and "CHARACTER" not in {
                k.upper() for k in lead.keywords}:
            warnings.append(f"{parsed.source}:{lead.line}: {lead.name} is 'Attached as: Leader' "
                            "but has no CHARACTER keyword: not attached")
            continue
        pairs.append((where[i], where[j]))
    pairs += _attach_specs(units, attach, pairs)
    total = sum(u.points for u in units)
    if parsed.declared_points is not None and total != parsed.declared_points and not unresolved:
        warnings.append(f"{parsed.source}: the units add up to {total} points, the list says "
                        f"{parsed.declared_points} (a truncated export?)")
    faction = home.label if home is not None else (parsed.factions[0] if parsed.factions
                                                   else "")
    return Army(parsed.name, faction, edition, total,
                parsed.declared_points, tuple(units), tuple(pairs), tuple(unresolved),
                parsed.source, parsed.format, tuple(dict.fromkeys(warnings)))


def _missing_links(d: _Data, home) -> list[str]:
    """A warning per catalogue the list's catalogue links to that is not in the folder."""
    lib = d.lib(home.path)
    out = []
    for link in lib.main.catalogue_links:
        if lib.linked(link.target_id) is None:
            out.append(f"{home.path.name} links to catalogue {link.name!r}, which is not in "
                       f"{home.path.parent}: its units and wargear cannot be read")
    return out


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


#: names of one list looked up in every catalogue, and given closest names (each lookup reads
#: the whole index; a list of a thousand unknown names must not take minutes)
_MAX_LOOKUPS = 40
_MAX_CLOSEST = 10


class _Unresolved(Exception):
    pass


def match_key(text: str) -> str:
    """A name as a list's name is compared with the data's: :func:`name_key` without a
    ``[Legends]`` tag, a leading article or a trailing full stop.

    >>> match_key("The Axe Morkai") == match_key("Axe Morkai [Legends]")
    True
    """
    k = name_key(re.sub(r"\s*\[[^\]]{0,40}\]", "", text).strip().rstrip("."))
    return k[4:] if k.startswith("the ") else k


def _close(q: str, keys, cutoff: float = 0.9) -> str | None:
    """The one key ``q`` is a spelling of (same words but a letter or two, punctuation)."""
    best = difflib.get_close_matches(q, list(keys), 2, cutoff)
    if len(best) == 1 or (len(best) == 2 and difflib.SequenceMatcher(None, q, best[0]).ratio()
                          > difflib.SequenceMatcher(None, q, best[1]).ratio()):
        return best[0]
    return None


def _find(d: _Data, homes: list, name: str) -> tuple[Any, Any, str]:
    """(catalogue info, root entry, warning) of a unit name: the list's catalogues first, then
    every catalogue of the edition. The same name, or the same name but for punctuation, an
    article or ``[Legends]``; a renamed datasheet (the list's name ends with the data's, "Primaris
    Captain" -> "Captain") or a spelling a letter away is taken with a warning naming both; a
    name the data only has longer ("Land Speeder" for "Land Speeder Vengeance") never is.
    Unresolved: (None, closest names, "")."""
    q = match_key(name)
    for cat in homes:
        e = d.keyed(cat.path).get(q)
        if e is not None:
            return cat, e[1], ""
    for cat in homes:
        entries = d.keyed(cat.path)
        near = [kv for k, kv in entries.items() if len(k) > 3 and q.endswith(" " + k)]
        if len(near) == 1:
            return cat, near[0][1], f"'{name}' read as '{near[0][1].name}' (the data's name)"
        c = _close(q, entries)
        if c is not None:
            return cat, entries[c][1], f"'{name}' read as '{entries[c][1].name}' (closest " \
                "spelling in the data)"
    d.lookups += 1
    if d.lookups > _MAX_LOOKUPS:  # a list of hundreds of unknown names: no closest names
        return None, [], ""
    hits = [(c, u) for c, u in d.index.find(name) if match_key(u) == q]
    by_cat = {}
    for c, u in hits:
        by_cat.setdefault(str(c.path), (c, u))
    if len(by_cat) == 1 or (hits and len({match_key(u) for _c, u in hits}) == 1
                            and not homes):
        cat, uname = hits[0]
        e = d.entries(cat.path).get(name_key(uname))
        if e is not None:
            note = "" if not homes else (f"'{name}' is not in {homes[0].label}: read as "
                                         f"{cat.label}:{uname}")
            return cat, e, note
    close = [f"{c.label}:{u}" for c, u in hits] or (
        d.index.close(name) if d.lookups <= _MAX_CLOSEST else [])
    return None, close, ""


@attrs.frozen
class _Seq:
    """One entry of a unit's lines in order: a model line or wargear."""

    item: Item
    model: bool  # the list says it is a model line


def _sequence(pu: ParsedUnit) -> list[_Seq]:
    out: list[_Seq] = []
    for pm in pu.models:
        out.append(_Seq(Item(pm.name, pm.count, pm.line), True))
        out += [_Seq(i, False) for i in pm.items]
    out += [_Seq(i, i.model) for i in pu.items]
    return out


_WITH = re.compile(r"\s(?:w/|with)\s", re.I)
_AND = re.compile(r"\s(?:and|&)\s", re.I)
_GLUE = re.compile(r"(?<=[a-z\)])(?=[A-Z])")


def _unit(d: _Data, homes: list, pu: ParsedUnit, source: str
          ) -> tuple[ArmyUnit, list[Unresolved], list[str]]:
    cat, entry, note = _find(d, homes, pu.name)
    if cat is None:
        raise _Unresolved(Unresolved(pu.line, pu.name, tuple(entry[:5])))
    notes = [f"{source}:{pu.line}: {note}"] if note else []
    raw, members, options = d.built(d.lib(cat.path), entry)
    option_keys = {match_key(o): o for o in options}
    bad: list[Unresolved] = []
    groups = raw["models"]
    counts = [0] * len(groups)
    items_by_group: list[list[Item]] = [[] for _ in groups]
    wargear: list[str] = []
    model_names = [[_singular(match_key(n)) for n in ms + [g.get("name", "")]]
                   for ms, g in zip(members, groups, strict=True)]
    model_bases = [[_singular(match_key(_WITH.split(n)[0])) for n in ms + [g.get("name", "")]]
                   for ms, g in zip(members, groups, strict=True)]
    weapon_keys = {match_key(w["name"]) for g in groups for w in g.get("weapons", [])}

    def model_group(name: str, said: bool) -> int | None:
        """The model group a name means (None: not a model of this unit)."""
        s = _singular(match_key(name))
        for gi, names in enumerate(model_names):
            if s in names:
                return gi
        for gi, names in enumerate(model_bases):  # "Skitarii Ranger w/ arc rifle"
            if s in names:
                return gi
        if not said:
            return None
        base = _singular(match_key(_WITH.split(name)[0]))
        for gi, names in enumerate(model_names):
            if base in names or any(n.startswith(base + " ") for n in names):
                return gi
        flat = [(n, gi) for gi, names in enumerate(model_names) for n in names]
        best = difflib.get_close_matches(s, [n for n, _ in flat], 1, 0.75)
        if best:
            return next(gi for n, gi in flat if n == best[0])
        unit_key = _singular(match_key(pu.name))
        if len(groups) == 1 and (unit_key in (s, base) or s.startswith(unit_key + " ")
                                 or unit_key.startswith(base + " ")
                                 or s.startswith(unit_key.split(" ")[0] + " ")):
            return 0
        return None

    current: int | None = None
    loose: list[Item] = []
    seq = _sequence(pu)
    explicit = any(e.model for e in seq)  # the list says which lines are models
    for entry_ in seq:
        it = entry_.item
        if it.count == 0:
            bad.append(Unresolved(it.line or pu.line, f"{pu.name}: 0x {it.name}", (),
                                  "a count of 0"))
            continue
        is_weapon = match_key(it.name) in weapon_keys
        gi = model_group(it.name, entry_.model or it.parent) if (
            entry_.model or not (is_weapon or explicit)) else None
        if gi is not None:
            counts[gi] += it.count
            current = gi
            continue
        if entry_.model:
            bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.count}x {it.name}",
                                  tuple(dict.fromkeys(n for ms in members for n in ms))[:5],
                                  f"no model '{it.name}' in {raw['name']}"))
            current = -1  # its wargear goes with it
            continue
        if current == -1:
            continue
        if current is None:
            loose.append(it)
        else:
            items_by_group[current].append(it)
    if sum(counts) == 0:
        counts = [g["count"] if isinstance(g["count"], int) else g["count"][0] for g in groups]
        if pu.size is not None and pu.size > sum(counts):
            counts[0] += pu.size - sum(counts)
    elif pu.size is not None and pu.size != sum(counts):
        notes.append(f"{source}:{pu.line}: {pu.name}: the list says {pu.size} models, its "
                     f"model lines {sum(counts)}")
    items_by_group[0 if counts[0] else counts.index(max(counts))] = \
        loose + items_by_group[0 if counts[0] else counts.index(max(counts))]
    out_groups = []
    weapons: dict[str, int] = {}
    known = d.names(cat.path)
    enh = list(pu.enhancements)
    enh_pts = list(pu.enhancement_points) + [None] * (len(enh) - len(pu.enhancement_points))

    def split(gi: int, it: Item, chosen: dict[str, dict]) -> bool:
        """Two names the exporter ran together ("MV15 Gun DroneTwin pulse blaster") or joined
        ("Gorechild and Plasma pistol"): each part taken when every part is known."""
        for splitter in (_GLUE, _AND):
            parts = [p.strip() for p in splitter.split(it.name) if p.strip()]
            if len(parts) < 2 or not all(_known(groups, gi, count_name(p)[1], option_keys)
                                         for p in parts):
                continue
            for k, p in enumerate(parts):
                c, name = count_name(p)
                n = it.count if k == 0 else (c or 1) * it.times
                take(gi, attrs.evolve(it, name=name, count=n), chosen)
            return True
        return False

    def take(gi: int, it: Item, chosen: dict[str, dict]) -> bool:
        exact = [] if it.weapon is False else _tables(groups, gi, it.name, near=False)
        if not exact and it.weapon is not False and (_AND.search(it.name) or _GLUE.search(
                it.name)) and split(gi, it, chosen):
            return True
        tables = [] if it.weapon is False else (exact or _tables(groups, gi, it.name)
                                                or list(it.tables))
        if tables:
            if it.count > 4 * max(1, sum(counts)) and it.count > 4:
                bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.count}x {it.name}",
                                      (), f"{it.count} for {sum(counts)} model"
                                      f"{'s' * (sum(counts) != 1)}"))
                return True
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
            return True
        k = match_key(it.name)
        hit = option_keys.get(k) or option_keys.get(_singular(k)) or next(
            (o for ok, o in option_keys.items() if _singular(ok) == _singular(k)), None)
        if it.weapon is False or hit is not None:
            if it.name not in wargear:
                wargear.append(it.name)
            return True
        c = _close(k, option_keys, 0.85)
        if c is not None:
            notes.append(f"{source}:{it.line or pu.line}: {pu.name}: '{it.name}' read as "
                         f"'{option_keys[c]}' (closest spelling in the data)")
            return take(gi, attrs.evolve(it, name=option_keys[c]), chosen)
        kind = known.get(k) or known.get(_singular(k))
        if kind is not None and kind[0] == "enhancement":
            enh.append(it.name)
            enh_pts.append(None)
            return True
        if kind is not None and kind[0] == "wargear":
            notes.append(f"{source}:{it.line or pu.line}: {pu.name}: '{it.name}' is not an "
                         f"option of {raw['name']} in the data: kept as wargear (not a weapon)")
            if it.name not in wargear:
                wargear.append(it.name)
            return True
        if it.name.endswith(")") and "(" in it.name:  # "Recon drone (Drone burst cannon)"
            return take(gi, attrs.evolve(it, name=it.name[:it.name.rindex("(")].strip()),
                        chosen)
        return False

    for gi, g in enumerate(groups):
        if counts[gi] == 0:
            continue
        chosen: dict[str, dict] = {}
        for it in items_by_group[gi]:
            if take(gi, it, chosen):
                continue
            close = difflib.get_close_matches(it.name, options, 3, 0.4)
            bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.name}", tuple(close)))
        ng = {k: v for k, v in g.items() if k != "weapons"}
        ng["count"] = counts[gi]
        if chosen:
            ng["weapons"] = list(chosen.values())
        out_groups.append(ng)
    keywords = tuple(raw.get("keywords", ()))
    for i, e in enumerate(enh):
        kind = known.get(match_key(e))
        if kind is not None and kind[0] == "enhancement":
            enh_pts[i] = enh_pts[i] if enh_pts[i] is not None else kind[1]
        elif kind is None:
            notes.append(f"{source}:{pu.line}: {pu.name}: enhancement '{e}' is not in the data "
                         f"of {cat.label}")
    if enh and "CHARACTER" not in {k.upper() for k in keywords}:
        notes.append(f"{source}:{pu.line}: {raw['name']} has no CHARACTER keyword but the list "
                     f"gives it {', '.join(enh)} (only an Upgrade goes on such a "
                     "unit)")
    total = sum(counts)
    points = pu.points if pu.points is not None else _cost_for(raw.get("points", []), total)
    unit_raw = copy.deepcopy({k: v for k, v in raw.items() if k not in ("points", "models")})
    unit_raw["models"] = out_groups
    unit_raw["points"] = [{"models": total, "cost": max(0, points)}]
    unit = build_unit(unit_raw, f"{source}: {pu.name}")
    return ArmyUnit(
        name=raw["name"], unit=unit, points=points, models=total,
        weapons=tuple(Weapon(n, c) for n, c in weapons.items()),
        keywords=keywords, wargear=tuple(wargear),
        enhancements=tuple(enh), enhancement_points=tuple(enh_pts), line=pu.line,
        catalogue=cat.label,
        data_points=_cost_for(raw["points"], total) if raw.get("points") else None,
    ), bad, notes


def _known(groups: list[dict], gi: int, name: str, option_keys: dict[str, str]) -> bool:
    k = match_key(name)
    return bool(_tables(groups, gi, name)) or k in option_keys or _singular(k) in {
        _singular(o) for o in option_keys}


def _cost_for(points: list[dict], n: int) -> int:
    """The data's cost for ``n`` models: the first band that reaches ``n``."""
    for p in sorted(points, key=lambda p: p["models"]):
        if p["models"] >= n:
            return int(p["cost"])
    return int(points[-1]["cost"]) if points else 0


_SEP = re.compile(r"^\s*(?:[-–—:(]|\s)")


def _tables(groups: list[dict], gi: int, name: str, near: bool = True) -> list[dict]:
    """The weapon tables a wargear name means: the same name (but for punctuation, an article
    or a plural), or its profiles (``Plasma pistol - standard``/``- supercharge``); the given
    group first."""
    q = match_key(name)
    qs = _singular(q)
    order = [gi] + [i for i in range(len(groups)) if i != gi]
    for i in order:
        ws = groups[i].get("weapons", [])
        exact = [w for w in ws if match_key(w["name"]) == q] or [
            w for w in ws if _singular(match_key(w["name"])) == qs]
        if exact:
            return exact[:1]
        prof = [w for w in ws if match_key(w["name"]).startswith(q + " ")]
        if prof:
            return _standard_first(prof)
    # a name the list writes longer or shorter ("Perdition Pistol" for "Perdition"): one weapon
    for i in order if near else ():
        near = [w for w in groups[i].get("weapons", [])
                if q.startswith(match_key(w["name"]) + " ")
                or q.endswith(" " + match_key(w["name"]))
                or match_key(w["name"]).startswith(q + " ")]
        if len({w["name"] for w in near}) == 1:
            return near[:1]
    return []


def _standard_first(tables: list[dict]) -> list[dict]:
    """The profile that fires by default first: one without Hazardous, else the first."""
    safe = [t for t in tables if "hazardous" not in t.get("abilities", [])]
    first = safe[0] if safe else tables[0]
    return [first] + [t for t in tables if t is not first]
