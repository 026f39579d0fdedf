"""The index of the units of the installed BattleScribe data: every catalogue of an edition,
keyed on each file's path, modification time and size, kept as JSON in the cache folder (a file
that changes is read again on the next use). With it a unit name resolves across all factions
without parsing any catalogue; the data itself is :mod:`mathhammer.data.datastore`.

>>> split_faction_unit("Necrons:Immortals")
('Necrons', 'Immortals')
>>> split_faction_unit("Immortals") is None
True
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import attrs

from ..errors import InputError
from .datastore import Edition, cache_dir, edition_dir, edition_files, is_game_system
from .names import name_key

_INDEX_VERSION = 3  # 3: one entry per name, entries without a statline left out
_PREFIXES = ("Imperium - ", "Chaos - ", "Xenos - ", "Aeldari - ")


@attrs.frozen
class CatalogueInfo:
    """One catalogue file in the index."""

    path: Path
    id: str
    name: str
    library: bool
    units: tuple[tuple[str, str, bool], ...]  # (unit name, entry key, defined in this file)

    @property
    def label(self) -> str:
        """The faction name used in ``Faction:Unit``: the file name without its grand
        alliance (``Imperium - Blood Angels.cat`` -> ``Blood Angels``)."""
        stem = self.path.stem
        for p in _PREFIXES:
            if stem.startswith(p):
                return stem[len(p):]
        return stem


def _index_file(folder: Path) -> Path:
    key = hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:16]
    return cache_dir() / "index" / f"{key}.json"


def _catalogue_units(path: Path) -> tuple[str, str, bool, list[tuple[str, str, bool]],
                                           list[list[str]]]:
    """(id, name, library, units, links) of one catalogue, parsing it and its linked files."""
    from .bsdata.files import load_file, open_library
    from .bsdata.find import catalogue_units, is_datasheet

    cat = load_file(path)
    links = [[c.target_id, c.name] for c in cat.catalogue_links]
    if cat.kind != "catalogue":
        return cat.id, cat.name, False, [], links
    if cat.library:
        units = [(e.name, e.id, True) for e in cat.shared_entries if is_datasheet(e)]
    else:
        lib = open_library(path)
        units = []
        for name, e in catalogue_units(lib):
            key = e.target_id or e.id
            units.append((name, key, cat.find(key) is not None))
    return cat.id, cat.name, cat.library, units, links


@attrs.define
class UnitIndex:
    """The units of every catalogue of one edition's folder."""

    folder: Path
    edition: Edition
    catalogues: list[CatalogueInfo]
    built: int = 0  # how many files were (re)read to make it
    missing: list[str] = attrs.field(factory=list)  # linked catalogues not in the folder

    def find(self, name: str) -> list[tuple[CatalogueInfo, str]]:
        """The (catalogue, unit name) pairs a name means: ``Faction:Unit`` picks a faction;
        exact names first, then names without ``[Legends]``, then a unique prefix. The same
        datasheet reached through several catalogues counts once (the file defining it)."""
        faction = None
        parts = split_faction_unit(name)
        if parts is not None and self.catalogue(parts[0]) is not None:
            faction, name = parts
        q = name_key(name)
        cats = [self.catalogue(faction)] if faction else self.catalogues
        rows = [(c, u, key, own) for c in cats if c is not None for u, key, own in c.units]
        for test in (lambda n: name_key(n) == q,
                     lambda n: name_key(re.sub(r"\s*\[.*?\]", "", n)) == q,
                     lambda n: name_key(n).startswith(q)):
            hits = [r for r in rows if test(r[1])]
            if hits:
                return _dedupe(hits)
        return []

    def catalogue(self, faction: str | None) -> CatalogueInfo | None:
        """The catalogue a faction name means (its label, file name or catalogue name)."""
        if not faction:
            return None
        q = name_key(faction)
        for c in self.catalogues:
            if q in {name_key(n) for n in (c.label, c.path.stem, c.name, c.path.name)}:
                return c
        return None

    def close(self, name: str, n: int = 5) -> list[str]:
        names = {name_key(u): u for c in self.catalogues for u, _k, _o in c.units}
        return [names[k] for k in difflib.get_close_matches(name_key(name), list(names), n, 0.5)]

    def names(self) -> list[str]:
        """Every ``Faction:Unit`` name, sorted."""
        return sorted({f"{c.label}:{u}" for c in self.catalogues for u, _k, _o in c.units},
                      key=name_key)


def _dedupe(hits: list) -> list[tuple[CatalogueInfo, str]]:
    by_key: dict[str, tuple] = {}
    for c, u, key, own in hits:
        best = by_key.get(key)
        if best is None or (own and not best[3]) or (best[0].library and not c.library
                                                     and not best[3]):
            by_key[key] = (c, u, key, own)
    out = [(c, u) for c, u, _k, _o in by_key.values()]
    if any(not c.library for c, _u in out):
        out = [(c, u) for c, u in out if not c.library] or out
    return out


def split_faction_unit(text: str) -> tuple[str, str] | None:
    """``"Faction:Unit"`` -> ``(faction, unit)``; None without a colon."""
    if ":" not in text:
        return None
    faction, unit = text.split(":", 1)
    if not faction.strip() or not unit.strip():
        return None
    return faction.strip(), unit.strip()


_MEMO: dict[tuple[str, str], tuple[tuple, UnitIndex]] = {}


def unit_index(edition: Edition, data: str | os.PathLike | None = None,
               progress: Callable[[str], None] | None = None) -> UnitIndex:
    """The unit index of ``edition`` (read from the cache folder, files that changed since
    read again; the result saved back)."""
    folder = edition_dir(edition, data)
    files = edition_files(folder, edition)
    sig = tuple((str(p), *(lambda s: (s.st_mtime_ns, s.st_size))(p.stat())) for p in files)
    memo = _MEMO.get((str(folder.resolve()), edition))
    if memo is not None and memo[0] == sig:
        return memo[1]
    store = _index_file(folder)
    saved: dict = {}
    try:
        raw = json.loads(store.read_text(encoding="utf-8"))
        if raw.get("version") == _INDEX_VERSION:
            saved = raw.get("files", {})
    except (OSError, ValueError):
        saved = {}
    entries: dict[str, dict] = {}
    built = 0
    for (path, mtime, size), p in zip(sig, files, strict=True):
        old = saved.get(path)
        if old is not None and old.get("mtime") == mtime and old.get("size") == size:
            entries[path] = old
            continue
        if progress is not None:
            progress(p.name)
        try:
            cid, name, library, units, links = _catalogue_units(p)
        except ValueError:
            cid, name, library, units, links = "", p.stem, False, [], []
        built += 1
        entries[path] = {"mtime": mtime, "size": size, "id": cid, "name": name,
                         "library": library, "units": [list(u) for u in units],
                         "links": links}
    if built or set(saved) != set(entries):
        try:
            store.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=store.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"version": _INDEX_VERSION, "folder": str(folder), "files": entries},
                          out)
            os.replace(tmp, store)
        except OSError:
            pass  # a read-only cache only costs time
    cats = [CatalogueInfo(Path(path), e["id"], e["name"], e["library"],
                          tuple((u[0], u[1], bool(u[2])) for u in e["units"]))
            for path, e in entries.items()
            if not is_game_system(Path(path))]
    ids = {e["id"] for e in entries.values()}
    missing = sorted({name for e in entries.values() for tid, name in e.get("links", [])
                      if tid not in ids})
    index = UnitIndex(folder, edition, cats, built, missing)
    _MEMO[(str(folder.resolve()), edition)] = (sig, index)
    return index


def find_data_unit(name: str, edition: Edition, data: str | os.PathLike | None = None
                   ) -> tuple[CatalogueInfo, str]:
    """The (catalogue, unit name) of a datasheet name across every catalogue of the edition;
    an unknown or ambiguous name is a one-line ValueError (candidates as ``Faction:Unit``)."""
    index = unit_index(edition, data)
    hits = index.find(name)
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = [f"{c.label}:{u}" for c, u in hits]
        raise InputError(f"unit {name!r} is ambiguous in the {edition} data: "
                         f"{', '.join(shown[:10])}{', ...' if len(shown) > 10 else ''}")
    close = index.close(name)
    hint = f"; closest: {', '.join(close)}" if close else ""
    if index.missing:
        hint += (f"; catalogues linked from others are missing there, which may hold it: "
                 f"{', '.join(index.missing)}")
    raise InputError(f"unknown unit {name!r} (not bundled, not in the {edition} data in "
                     f"{index.folder}){hint}")


def load_data_unit(name: str, edition: Edition = "10e", data: str | os.PathLike | None = None):
    """A :class:`mathhammer.data.unit.Unit` by datasheet name (or ``Faction:Unit``) from the
    installed BattleScribe data of ``edition``."""
    from .bsdata import load_catalogue_unit

    cat, unit = find_data_unit(name, edition, data)
    return load_catalogue_unit(f"{cat.path}:{unit}")
