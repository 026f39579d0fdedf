"""Where an army list's names are looked up: the catalogues of the list's faction (else the one
holding most of its units), each read once per list from the compiled store
(:class:`ArmyData`), and how a list's name is compared with the data's (:func:`match_key`,
:func:`singular`, :func:`close_key`). Lookups across every catalogue go through the public unit
index (:mod:`mathhammer.data.store.index`).

Why one module over 400 lines: finding a list's datasheet (by its BattleScribe id, by its
name, by a faction's name before it, in another catalogue) is one search over the same
catalogues and name keys; split, each part would import the others.

>>> singular("Pathfinders w/ rifles")
'pathfinder w/ rifle'
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import attrs

from ...cache import cached
from ...errors import InputError
from ..bsdata.formats import EDITION_SUFFIXES
from ..store.compiled import StoredCatalogue, StoredEntry
from ..store.data_folder import Edition
from ..store.index import CatalogueInfo, UnitIndex
from ..typed.names import name_key
from .values import DataFile, ParsedList

__all__ = ["ArmyData", "catalogue_weapon", "close_key", "cost_for", "data_file",
           "datasheet_by_id", "find_datasheet", "homes_of", "known_name", "lacking_datasheet",
           "match_key", "missing_links", "singular", "standard_first", "weapon_tables"]


@cached(maxsize=1 << 16)
def singular(text: str) -> str:
    """Each word without a plural ``s`` (``Pathfinders w/ rifles`` ~ ``Pathfinder w/ rifle``)."""
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                    for w in name_key(text).split())


@attrs.define
class ArmyData:
    """The catalogues of one army as the compiled store has them (each read once): no data
    file is opened (:mod:`mathhammer.data.store.compiled`)."""

    index: UnitIndex
    lookups: int = 0  # names looked up beyond the list's catalogues
    libs: dict[str, Any] = attrs.field(factory=dict)
    units: dict[Any, Any] = attrs.field(factory=dict)

    def lib(self, path: Path) -> StoredCatalogue:
        """The catalogue file at ``path`` (a file the data could not read is its error)."""
        key = str(path)
        if key not in self.libs:
            self.libs[key] = self.index.store.catalogue(path)
        got = self.libs[key]
        if got is None:
            raise InputError(f"{path}: not in the compiled {self.index.edition} data of "
                             f"{self.index.folder}")
        if got.error:
            raise InputError(got.error)
        return got

    def names(self, path: Path) -> dict[str, tuple[str, int | None]]:
        """Every selectable name of a catalogue and the files it links to, by
        :func:`match_key`: ``("weapon", None)`` for a weapon, ``("enhancement", cost)`` for an
        entry under an Enhancements group (``"upgrade"`` under its Upgrades), ``("wargear",
        None)`` for anything else."""
        key = "names:" + str(path)
        if key not in self.units:
            out: dict[str, tuple[str, int | None]] = {}
            for name, kind, cost in self.index.store.selectable_names(self.lib(path).id):
                k = match_key(name)
                if kind == "weapon":  # a weapon of that name wins over any other kind
                    out[k] = ("weapon", None)
                else:
                    out.setdefault(k, (kind, cost))
            self.units[key] = out
        return self.units[key]

    def keyed(self, path: Path) -> dict[str, tuple[str, StoredEntry]]:
        """:func:`match_key` -> (data name, root entry), for one catalogue."""
        key = "keyed:" + str(path)
        if key not in self.units:
            self.units[key] = {match_key(k): (k, v) for k, v in self.entries(path).items()}
        return self.units[key]

    def built(self, lib: StoredCatalogue, entry: StoredEntry) -> tuple[dict, list, list[str]]:
        """(raw unit, model members, option names) of a datasheet, read once per army (a
        list repeats datasheets)."""
        if entry not in self.units:
            try:
                store = self.index.store
                self.units[entry] = store.army_unit(entry, store.origin(lib, entry.name))
            except InputError as e:
                self.units[entry] = e
        got = self.units[entry]
        if isinstance(got, Exception):
            raise got
        return got

    def entries(self, path: Path) -> dict[str, StoredEntry]:
        """Normalised unit name -> root entry, for one catalogue."""
        key = str(path)
        if key not in self.units:
            self.units[key] = {name_key(n): e for n, e in
                               self.index.store.selectable(self.lib(path).id)}
        return self.units[key]


def edition_of(index: UnitIndex) -> Edition:
    return index.edition


def _without_brackets(name: str) -> str:
    """A faction line without the bracketed words it ends with (from its first bracket).

    >>> _without_brackets("Space Marines (Blood Angels) "), _without_brackets("Necrons")
    ('Space Marines', 'Necrons')
    """
    s = name.rstrip()
    i = s.find("(")
    return s[:i].rstrip() if s.endswith(")") and 0 <= i < len(s) - 1 else name


def homes_of(index: UnitIndex, parsed: ParsedList) -> tuple[list, list[str]]:
    """The catalogues the list's faction lines name (most specific first) and warnings. A
    faction whose catalogue another file links to but the folder lacks is an error naming it."""
    found: list = []
    for f in parsed.factions:
        for q in (f, re.sub(r"^\w+ - ", "", f), _without_brackets(f)):
            c = index.catalogue(q)
            if c is not None and c not in found:
                found.append(c)
    if not found:  # a translated faction with the same words in another order ("Empire T'au")
        by_words = {tuple(sorted(name_key(c.label).split())): c for c in index.catalogues
                    if not c.library}
        for f in parsed.factions:
            c = by_words.get(tuple(sorted(name_key(f).split())))
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
            ext = EDITION_SUFFIXES[edition_of(index)][0]
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


def missing_links(d: ArmyData, home) -> list[str]:
    """A warning per catalogue the list's catalogue links to that is not in the folder."""
    return [f"{home.path.name} links to catalogue {name!r}, which is not in "
            f"{home.path.parent}: its units and wargear cannot be read"
            for name in d.lib(home.path).missing]


#: names of one list looked up in every catalogue, and given closest names (each lookup reads
#: the whole index; a list of a thousand unknown names must not take minutes)
_MAX_LOOKUPS = 40
_MAX_CLOSEST = 10


@cached(maxsize=1 << 16)  # a list asks it ten thousand times, of a few hundred names
def match_key(text: str) -> str:
    """A name as a list's name is compared with the data's: :func:`name_key` without a
    ``[Legends]`` tag, a leading article or a trailing full stop.

    >>> match_key("The Axe Morkai") == match_key("Axe Morkai [Legends]")
    True
    """
    k = name_key(re.sub(r"(?<!\s)\s*\[[^\]]{0,40}\]", "", text).strip().rstrip("."))
    for suffix in (" (legends)", " legends", " (forge world)"):  # a known suffix
        k = k.removesuffix(suffix)
    return k[4:] if k.startswith("the ") else k


def close_key(q: str, keys, cutoff: float = 0.9) -> str | None:
    """The one key ``q`` is a spelling of (same words but a letter or two, punctuation)."""
    best = difflib.get_close_matches(q, list(keys), 2, cutoff)
    if len(best) == 1 or (len(best) == 2 and difflib.SequenceMatcher(None, q, best[0]).ratio()
                          > difflib.SequenceMatcher(None, q, best[1]).ratio()):
        return best[0]
    return None


def find_datasheet(d: ArmyData, homes: list, name: str, notes: tuple[str, ...] = ()
                   ) -> tuple[Any, Any, str]:
    """(catalogue info, root entry, warning) of a unit name: the list's catalogues first, then
    every catalogue of the edition. The same name, or the same name but for punctuation, an
    article or ``[Legends]``; a datasheet the data splits by a choice the list names on a note
    of the unit (``Soul Grinder`` with ``Daemonic Allegiance: Tzeentch`` is the data's
    ``Tzeentch Soul Grinder``), a renamed datasheet (the list's name ends with the data's,
    "Primaris Captain" -> "Captain") or a spelling a letter away is taken with a warning naming
    both; a name the data only has longer ("Land Speeder" for "Land Speeder Vengeance") never
    is. Unresolved: (None, closest names, "")."""
    q = match_key(name)
    for cat in homes:
        kv = d.keyed(cat.path).get(q)
        if kv is not None:
            return cat, kv[1], ""
    for cat in homes:  # "World Eaters Rhino": the faction, then a datasheet's name
        got = _after_faction(d, cat, name, q)
        if got is not None:
            return got
    for note in notes:  # "Daemonic Allegiance: Tzeentch"
        key, sep, value = note.partition(":")
        value = value.strip()
        if not sep or not value:
            continue
        for cat in homes:
            entries = d.keyed(cat.path)
            for k in (match_key(f"{value} {name}"), match_key(f"{name} ({value})"),
                      match_key(f"{name} - {value}")):
                if k in entries:
                    return cat, entries[k][1], (f"'{name}' read as '{entries[k][1].name}' (the "
                                                f"data's datasheet for its {note.strip()})")
    for cat in homes:
        entries = d.keyed(cat.path)
        near = [kv for k, kv in entries.items() if len(k) > 3 and q.endswith(" " + k)]
        if len(near) == 1:
            return cat, near[0][1], f"'{name}' read as '{near[0][1].name}' (the data's name)"
        spelt = close_key(q, entries)
        if spelt is not None:
            return cat, entries[spelt][1], f"'{name}' read as '{entries[spelt][1].name}' " \
                "(closest spelling in the data)"
    d.lookups += 1
    if d.lookups > _MAX_LOOKUPS:  # a list of hundreds of unknown names: no closest names
        return None, [], ""
    hits = [(c, u) for c, u in d.index.find(name) if match_key(u) == q]
    by_cat: dict[str, tuple[CatalogueInfo, str]] = {}
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


def datasheet_by_id(d: ArmyData, homes: list, ids: tuple[str, ...], name: str
                    ) -> tuple[Any, Any, str] | None:
    """(catalogue info, root entry, warning) of the datasheet a list names by its BattleScribe
    id (a roster's ``entryId``, a saved army's ``datasheet_id``): the list's catalogues first,
    then any other that selects it; None when no catalogue has the id (the name is looked
    up then). A data name other than the list's is said (a datasheet renamed since the list
    was written)."""
    if d.index.store is None:
        return None
    for ident in ids:
        hits = d.index.store.selectable_by_key(ident)
        if not hits:
            continue
        where = {str(c.path): c for c in homes}
        order = [h for h in hits if h[0] in where] or hits
        path, uname, entry = order[0]
        cat = where.get(path) or next((c for c in d.index.catalogues if str(c.path) == path),
                                      None)
        if cat is None:
            continue
        note = "" if match_key(uname) == match_key(name) else (
            f"'{name}' read as '{uname}' (the data's datasheet of its BattleScribe id {ident})")
        if homes and cat not in homes:
            note = note or f"'{name}' is not in {homes[0].label}: read as {cat.label}:{uname} " \
                f"(its BattleScribe id {ident})"
        return cat, entry, note
    return None


def _after_faction(d: ArmyData, cat, name: str, q: str) -> tuple[Any, Any, str] | None:
    """A unit name that starts with its faction's ("World Eaters Rhino"): the datasheet the rest
    names, else the shortest of that faction's whose name holds it as whole words ("Chaos
    Rhino"; "Daemon Prince of Khorne", not "... with wings"), said."""
    prefix = match_key(cat.label) + " "
    if not q.startswith(prefix) or len(q) == len(prefix):
        return None
    rest = q[len(prefix):]
    entries = d.keyed(cat.path)
    if rest in entries:
        return cat, entries[rest][1], (f"'{name}' read as '{entries[rest][1].name}' (the "
                                       f"faction's name, {cat.label}, before the datasheet's)")
    holds = sorted((kv for k, kv in entries.items()
                    if k.startswith(rest + " ") or k.endswith(" " + rest) or f" {rest} " in k),
                   key=lambda kv: (len(kv[0]), kv[0]))
    if not holds:
        return None
    others = [kv[1].name for kv in holds[1:4]]
    return cat, holds[0][1], (f"'{name}' read as '{holds[0][1].name}' (the faction's name, "
                              f"{cat.label}, then a shorter name of the datasheet"
                              + (f"; also named so: {', '.join(others)}" if others else "") + ")")


def data_file(d: ArmyData, cat) -> DataFile:
    """The data file of ``cat`` as a report names it, with its revision (``Orks.json
    (revision 2)``)."""
    return DataFile(cat.path.name, d.lib(cat.path).revision)


#: how alike two names must be to be possibly one name spelt two ways: a name with one this
#: close in the data is not one the data lacks
NEAR = 0.85


def lacking_datasheet(d: ArmyData, homes: list, name: str, closest) -> DataFile | None:
    """The list's data file when it lacks a datasheet called ``name`` (that
    :func:`find_datasheet` did not find, giving ``closest``) and nothing else explains it: the
    file links to no file the folder lacks, no datasheet there is spelt nearly so and no other
    file of the edition has a datasheet of that name. None otherwise (no file is named)."""
    if not homes or d.lookups > _MAX_LOOKUPS:  # other files were not searched
        return None
    if any(d.lib(h.path).missing for h in homes):  # it may be in the file the folder lacks
        return None
    q = match_key(name)
    if any(match_key(str(c).split(":", 1)[-1]) == q for c in closest):  # another file's
        return None
    if any(difflib.get_close_matches(q, list(d.keyed(h.path)), 1, NEAR) for h in homes):
        return None
    return data_file(d, homes[0])


def weapon_tables(groups: list[dict], gi: int, name: str, near: bool = True) -> list[dict]:
    """The weapon tables a wargear name means: the same name (but for punctuation, an article
    or a plural), or its profiles (``Plasma pistol - standard``/``- supercharge``, or every
    profile sharing the named one's ``profile_of``: the Cerastus shock lance's shot, strike and
    sweep); the given group first."""
    q = match_key(name)
    qs = singular(q)
    order = [gi] + [i for i in range(len(groups)) if i != gi]
    for i in order:
        ws = groups[i].get("weapons", [])
        exact = [w for w in ws if match_key(w["name"]) == q] or [
            w for w in ws if singular(match_key(w["name"])) == qs]
        if exact:
            family = exact[0].get("profile_of")
            if family:  # one profile of a weapon of several: the weapon is all of them
                return exact[:1] + [w for w in ws if w.get("profile_of") == family
                                    and w is not exact[0]]
            return exact[:1]
        prof = [w for w in ws if match_key(w["name"]).startswith(q + " ")]
        if prof:
            return standard_first(prof)
    # a name the list writes longer or shorter ("Perdition Pistol" for "Perdition"): one weapon
    for i in order if near else ():
        ends = [w for w in groups[i].get("weapons", [])
                if q.startswith(match_key(w["name"]) + " ")
                or q.endswith(" " + match_key(w["name"]))
                or match_key(w["name"]).startswith(q + " ")]
        if len({w["name"] for w in ends}) == 1:
            return ends[:1]
    return []


def standard_first(tables: list[dict]) -> list[dict]:
    """The profile that fires by default first: one without Hazardous, else the first."""
    safe = [t for t in tables if "hazardous" not in t.get("abilities", [])]
    first = safe[0] if safe else tables[0]
    return [first] + [t for t in tables if t is not first]


def known_name(groups: list[dict], gi: int, name: str, option_keys: dict[str, str]) -> bool:
    k = match_key(name)
    return bool(weapon_tables(groups, gi, name)) or k in option_keys or singular(k) in {
        singular(o) for o in option_keys}


def cost_for(points: list[dict], n: int) -> int:
    """The data's cost for ``n`` models: the first band that reaches ``n``."""
    for p in sorted(points, key=lambda p: p["models"]):
        if p["models"] >= n:
            return int(p["cost"])
    return int(points[-1]["cost"]) if points else 0


def catalogue_weapon(d: ArmyData, path: Path, name: str) -> list[dict]:
    """The weapon tables the catalogue gives ``name`` on any datasheet (else a catalogue it
    links to, in order), when they are one weapon: one profile, or one set of profiles (``X -
    standard``, ``X - supercharge``); ``[]`` when the name has no weapon profile or several
    that differ (each unit's "Close combat weapon"). For a weapon a list gives a unit whose
    datasheet in the data lacks it ("Heirloom weapon" on the data's Thunderwolf Cavalry)."""
    key = "weapons:" + str(path)
    if key not in d.units:
        stored = d.index.store.listing(path, "weapons") if d.index.store is not None else None
        if stored is None:  # not compiled: read from the files
            from ..bsdata.files import open_library
            from ..bsdata.listing import catalogue_weapon_profiles

            d.lib(path)  # a file the data could not read is its error
            stored = catalogue_weapon_profiles(open_library(path))
        per_cat: list[dict[str, list[dict]]] = []
        for profiles in stored:
            found: dict[str, list[dict]] = {}
            for wname, t in profiles:
                same = found.setdefault(match_key(wname), [])
                if t not in same:
                    same.append(t)
            per_cat.append(found)
        d.units[key] = per_cat
    q = match_key(name)
    for found in d.units[key]:
        if q in found:
            return found[q][:1] if len(found[q]) == 1 else []
        family = {k: ts for k, ts in found.items() if k.startswith(q + " - ")}
        if family:
            if not all(len(ts) == 1 for ts in family.values()):
                return []
            return standard_first([dict(ts[0], profile_of=name) for ts in family.values()])
    return []
