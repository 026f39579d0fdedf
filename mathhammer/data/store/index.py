"""The index of the units of the installed BattleScribe data: every catalogue of an edition with
the datasheets it holds, read from the compiled store (:mod:`mathhammer.data.store.compiled`, built
once and again when a file changes). With it a unit name resolves across all factions without
parsing any catalogue; the data folder is :mod:`mathhammer.data.store.data_folder`.

>>> split_faction_unit("Necrons:Immortals")
('Necrons', 'Immortals')
>>> split_faction_unit("Immortals") is None
True
"""

from __future__ import annotations

import difflib
import json
import os
import warnings
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs

from ...errors import InputError
from ..typed.names import name_key
from ..units.unit import Origin
from .compiled import Store, faction_label, open_store
from .data_folder import EDITIONS, Edition, installed_editions, is_game_system


@attrs.frozen
class CatalogueInfo:
    """One catalogue file in the index."""

    path: Path
    id: str
    name: str
    library: bool
    units: tuple[tuple[str, str, bool], ...]  # (unit name, entry key, defined in this file)
    missing: tuple[str, ...] = ()  # the catalogues it links to that are not in the folder

    @property
    def label(self) -> str:
        """The faction name used in ``Faction:Unit``: the file name without its grand
        alliance (``Imperium - Blood Angels.cat`` -> ``Blood Angels``)."""
        return faction_label(self.path)


class _Datasheets(Mapping):
    """(catalogue path, unit name) -> the store's datasheet id, each asked of the store (one
    query) until the whole index is read."""

    def __init__(self, index: UnitIndex) -> None:
        self.index = index
        self.asked: dict[tuple[str, str], int | None] = {}

    def __getitem__(self, key: tuple[str, str]) -> int:
        if self.index._loaded is not None:
            return self.index._loaded[1][key]
        if key not in self.asked:
            row = self.index.store.db.execute(
                "SELECT e.datasheet FROM entries e JOIN catalogues c ON c.id = e.catalogue "
                "WHERE c.path = ? AND e.name = ? ORDER BY e.rowid DESC LIMIT 1",
                (key[0], key[1])).fetchone()
            self.asked[key] = None if row is None else row[0]
        got = self.asked[key]
        if got is None:
            raise KeyError(key)
        return got

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.index._load()[1])

    def __len__(self) -> int:
        return len(self.index._load()[1])


@attrs.define
class UnitIndex:
    """The units of every catalogue of one edition's folder, read from the store as they are
    asked: one name's lookup is a query or two; :attr:`catalogues` with all their units are
    read on first use."""

    folder: Path
    edition: Edition
    store: Any  # the compiled store it is read from
    built: int = 0  # how many files were compiled to make it (0: the store was up to date)
    missing: list[str] = attrs.field(factory=list)  # linked catalogues not in the folder
    #: catalogue id -> (path, id, name, library, missing) of every file that is no game system
    heads: dict[int, tuple] = attrs.field(factory=dict, repr=False)
    _loaded: tuple | None = attrs.field(default=None, repr=False)
    _infos: dict[int, CatalogueInfo] = attrs.field(factory=dict, repr=False)
    _all: list | None = attrs.field(default=None, repr=False)
    _names: dict[str, str] | None = attrs.field(default=None, repr=False)
    _words: dict[str, list[str]] = attrs.field(factory=dict, repr=False)  # word -> name keys
    _ds: Any = attrs.field(default=None, repr=False)

    def _load(self) -> tuple[list[CatalogueInfo], dict[tuple[str, str], int],
                             dict[str, tuple[str, str]]]:
        """Every catalogue with its units, the datasheet of each unit, each name's keys."""
        if self._loaded is None:
            units: dict[int, list] = {cid: [] for cid in self.heads}
            datasheet: dict[tuple[str, str], int] = {}
            keys: dict[str, tuple[str, str]] = {}
            for cid, ds, name, ekey, own, nkey, plain in self.store.entries():
                keys[name] = (nkey, plain)
                if cid in units:
                    units[cid].append((name, ekey, bool(own)))
                    datasheet[(self.heads[cid][0], name)] = ds
            infos = [self._info(cid, tuple(us)) for cid, us in units.items()]
            self._loaded = (infos, datasheet, keys)
        return self._loaded

    def _info(self, cid: int, units: tuple | None = None) -> CatalogueInfo:
        """The catalogue of row ``cid`` with its units (asked of the store when not given)."""
        if cid not in self._infos:
            if units is None:
                units = tuple((n, k, bool(o)) for n, k, o in self.store.db.execute(
                    "SELECT name, key, own FROM entries WHERE catalogue = ? ORDER BY rowid",
                    (cid,)))
            path, bs_id, name, library, lost = self.heads[cid]
            self._infos[cid] = CatalogueInfo(Path(path), bs_id, name, library, units, lost)
        return self._infos[cid]

    @property
    def catalogues(self) -> list[CatalogueInfo]:
        """Every catalogue (no game system) with its units, in file order."""
        return self._load()[0]

    @property
    def datasheets(self) -> Mapping[tuple[str, str], int]:
        """(catalogue path, unit name) -> the store's datasheet id."""
        if self._ds is None:
            self._ds = _Datasheets(self)
        return self._ds

    @property
    def keys(self) -> dict[str, tuple[str, str]]:
        """Unit name -> (its name_key, that of the name without "[Legends]")."""
        return self._load()[2]

    def datasheet(self, cat: CatalogueInfo, unit: str) -> int:
        """The store's datasheet id of a unit of a catalogue (the same id for the same
        compiled datasheet in every catalogue that holds it)."""
        return self.datasheets[(str(cat.path), unit)]

    def record(self, cat: CatalogueInfo, unit: str) -> dict[str, Any]:
        """The compiled datasheet of a unit of a catalogue (see
        :meth:`mathhammer.data.store.compiled.Store.record`)."""
        return self.store.record(self.datasheet(cat, unit))

    def find(self, name: str) -> list[tuple[CatalogueInfo, str]]:
        """The (catalogue, unit name) pairs a name means: ``Faction:Unit`` picks a faction;
        exact names first, then names without ``[Legends]``, then a unique prefix. The same
        datasheet reached through several catalogues counts once (the file defining it)."""
        faction = None
        parts = split_faction_unit(name)
        if parts is not None and self.catalogue(parts[0]) is not None:
            faction, name = parts
        q = name_key(name)
        only = self.catalogue(faction) if faction else None
        if self._loaded is None:  # a query per pass (entries in file order, as _rows)
            where = "" if only is None else " AND catalogue = ?"
            cid = [] if only is None else [self._cid(faction)]
            for test, args in (("nkey = ?", [q]), ("plain = ?", [q]),
                               ("substr(nkey, 1, ?) = ?", [len(q), q])):
                rows = [r for r in self.store.db.execute(
                    f"SELECT catalogue, name, key, own, datasheet FROM entries WHERE {test}"
                    f"{where} ORDER BY catalogue, rowid", [*args, *cid]) if r[0] in self.heads]
                if rows:
                    return self._same([(self._info(c), u, key, bool(own))
                                       for c, u, key, own, _ds in rows])
            return []
        rows = [r for r in self._rows() if only is None or r[0] is only]
        for hits in ([r[:4] for r in rows if r[4] == q], [r[:4] for r in rows if r[5] == q],
                     [r[:4] for r in rows if r[4].startswith(q)]):
            if hits:
                return self._same(hits)
        return []

    def _rows(self) -> list[tuple[CatalogueInfo, str, str, bool, str, str]]:
        """(catalogue, unit, entry key, own, name key, name key without [Legends]) of every
        unit of every catalogue, made once."""
        if self._all is None:
            keys = self.keys
            self._all = [(c, u, key, own, *keys[u]) for c in self.catalogues
                         for u, key, own in c.units]
        return self._all

    def _same(self, hits: list) -> list[tuple[CatalogueInfo, str]]:
        """One hit per compiled datasheet (the same Rhino in every chapter is one unit): not a
        library first, then the one defining it, its faction's (a Leman Russ is Astra
        Militarum's, not Brood Brothers'), its library's, then file order."""
        best: dict[Any, tuple] = {}
        homes: dict[Any, tuple[str, list[str]]] = {}
        for c, u, key, own in hits:
            ds = self.datasheets.get((str(c.path), u), key)
            home, defined = homes[ds] if ds in homes else homes.setdefault(ds, self._home(ds))
            label = name_key(c.label)
            rank = (c.library, not own, label != home,
                    not any(h.startswith(label) for h in defined))
            if ds not in best or rank < best[ds][0]:
                best[ds] = (rank, c, u)
        return [(c, u) for _rank, c, u in best.values()]

    def _home(self, ds: Any) -> tuple[str, list[str]]:
        """A datasheet's own faction (name key) and the labels of the libraries defining it."""
        if not isinstance(ds, int):
            return "", []
        row = self.store.db.execute("SELECT faction FROM datasheets WHERE id = ?", (ds,)).fetchone()
        defined = [name_key(r[0]) for r in self.store.db.execute(
            "SELECT c.label FROM entries e JOIN catalogues c ON c.id = e.catalogue "
            "WHERE e.datasheet = ? AND c.library AND e.own", (ds,)).fetchall()]
        return name_key((row[0] if row else None) or ""), defined

    def catalogue(self, faction: str | None) -> CatalogueInfo | None:
        """The catalogue a faction name means (its label, file name or catalogue name)."""
        cid = self._cid(faction)
        return None if cid is None else self._info(cid)

    def _cid(self, faction: str | None) -> int | None:
        if not faction:
            return None
        q = name_key(faction)
        for cid, (path, _bs_id, name, _library, _lost) in self.heads.items():
            p = Path(path)
            if q in {name_key(n) for n in (faction_label(p), p.stem, name, p.name)}:
                return cid
        return None

    def close(self, name: str, n: int = 5) -> list[str]:
        """The data's names closest to ``name``: among those sharing a word with it (a few
        dozen, not the game's thousands: a list's unknown names cost milliseconds), else all.

        The pool only narrows what difflib compares; a name sharing no word is still found
        when nothing else is close."""
        if self._names is None:  # both made whole, then kept (an interrupted query keeps none)
            made = {name_key(u): u for c in self.catalogues for u, _k, _o in c.units}
            words: dict[str, list[str]] = {}
            for k in made:
                for w in set(k.split()):
                    words.setdefault(w, []).append(k)
            self._words, self._names = words, made
        names, q = self._names, name_key(name)
        pool = list(dict.fromkeys(k for w in q.split() for k in self._words.get(w, ())))
        found = difflib.get_close_matches(q, pool, n, 0.5) if pool else []
        return [names[k] for k in (found or difflib.get_close_matches(q, list(names), n, 0.5))]

    def names(self) -> list[str]:
        """Every ``Faction:Unit`` name, sorted."""
        return sorted({f"{c.label}:{u}" for c in self.catalogues for u, _k, _o in c.units},
                      key=name_key)


def split_faction_unit(text: str) -> tuple[str, str] | None:
    """``"Faction:Unit"`` -> ``(faction, unit)``; None without a colon."""
    if ":" not in text:
        return None
    faction, unit = text.split(":", 1)
    if not faction.strip() or not unit.strip():
        return None
    return faction.strip(), unit.strip()


_MEMO: dict[tuple[str, str], tuple[Store, UnitIndex]] = {}


def unit_index(edition: Edition, data: str | os.PathLike | None = None,
               progress: Callable[[str], None] | None = None) -> UnitIndex:
    """The unit index of ``edition``, read from its compiled store (built first when it is
    missing or a data file changed; ``progress(file name)`` is called as files compile)."""
    report = None if progress is None else (lambda _done, _total, name: progress(name))
    store = open_store(edition, data, progress=report)
    key = (str(store.folder.resolve()), edition)
    memo = _MEMO.get(key)
    if memo is not None and memo[0] is store:
        return memo[1]
    heads: dict[int, tuple] = {}
    ids = set()
    missing: list[str] = []
    rows = store.catalogues()
    for path, bs_id, name, library, _links, lost, cid in rows:
        ids.add(bs_id)
        if not is_game_system(Path(path)):
            heads[cid] = (path, bs_id, name, bool(library), tuple(json.loads(lost)))
    for _path, _bs_id, _name, _library, links, _missing, _cid in rows:
        missing += [n for tid, n in json.loads(links) if tid not in ids and n not in missing]
    index = UnitIndex(store.folder, edition, store, len(rows) if store.built else 0,
                      sorted(missing), heads)
    _MEMO[key] = (store, index)
    return index


def other_edition_hint(name: str, edition: Edition, data: str | os.PathLike | None = None
                       ) -> str:
    """``"X is an 11e datasheet: add --rules 11e"`` when ``name`` is a datasheet of the other
    installed edition (and not of ``edition``); else empty."""
    for other in EDITIONS:
        if other == edition or other not in installed_editions(data):
            continue
        try:
            hits = unit_index(other, data).find(name)
        except ValueError:
            continue
        if hits:
            names = sorted({u for _c, u in hits}, key=name_key)
            return (f"{' / '.join(names[:3])} {'is' if len(names) == 1 else 'are'} "
                    f"{'an' if other == '11e' else 'a'} {other} datasheet"
                    f"{'' if len(names) == 1 else 's'}: add --rules {other}")
    return ""


def find_data_unit(name: str, edition: Edition, data: str | os.PathLike | None = None
                   ) -> tuple[CatalogueInfo, str]:
    """The (catalogue, unit name) of a datasheet name across every catalogue of the edition;
    an unknown or ambiguous name is a one-line ValueError (candidates as ``Faction:Unit``;
    a datasheet of the other installed edition is named with the option to use it)."""
    index = unit_index(edition, data)
    hits = index.find(name)
    if len(hits) == 1:
        return hits[0]
    if hits and (pick := _same_profiles(index, hits)) is not None:
        others = [f"{c.label}:{u}" for c, u in hits if (c, u) != pick]
        warnings.warn(f"{name!r} names {len(hits)} datasheets of the {edition} data with the "
                      f"same models and weapons; used {pick[0].label}:{pick[1]} (the one most "
                      f"factions have); the others' points or abilities differ: "
                      f"{', '.join(others)}", UserWarning, stacklevel=2)
        return pick
    if hits:
        shown = [f"{c.label}:{u}" for c, u in hits]
        raise InputError(f"unit {name!r} is ambiguous in the {edition} data: "
                         f"{', '.join(shown[:10])}{', ...' if len(shown) > 10 else ''}")
    other = other_edition_hint(name, edition, data)
    close = [] if other else index.close(name)
    hint = f"; {other}" if other else f"; closest: {', '.join(close)}" if close else ""
    if index.missing:
        hint += (f"; catalogues linked from others are missing there, which may hold it: "
                 f"{', '.join(index.missing)}")
    raise InputError(f"unknown unit {name!r} (not bundled, not in the {edition} data in "
                     f"{index.folder}){hint}")


def _same_profiles(index: UnitIndex, hits: list[tuple[CatalogueInfo, str]]
                   ) -> tuple[CatalogueInfo, str] | None:
    """The hit most factions hold when every hit has the same model groups (statlines and
    weapons: the same numbers in an attack); else None."""
    ids = [index.datasheet(c, u) for c, u in hits]
    groups = [_numbers(index.store.groups(ds)) for ds in ids]
    if any(g is None for g in groups) or any(g != groups[0] for g in groups[1:]):
        return None
    share = [len(index.store.factions(ds)) for ds in ids]
    return hits[share.index(max(share))]


def _numbers(groups: Any) -> Any:
    """Model groups compared by their numbers: weapons in name order, names in any case."""
    if groups is None:
        return None
    out = []
    for g in groups:
        weapons = sorted(((name_key(w.name), attrs.evolve(w.weapon, name=name_key(w.name)),
                           w.optional, w.count) for w in g.weapons), key=lambda t: t[0])
        out.append((attrs.evolve(g, name=name_key(g.name), weapons=()), weapons))
    return out


def load_data_unit(name: str, edition: Edition = "10e", data: str | os.PathLike | None = None):
    """A :class:`mathhammer.data.units.unit.Unit` by datasheet name (or ``Faction:Unit``) from the
    installed BattleScribe data of ``edition`` (read from the compiled store)."""
    cat, unit = find_data_unit(name, edition, data)
    index = unit_index(edition, data)
    found = index.store.unit(index.datasheet(cat, unit), f"{cat.path.name}:{unit}")
    # one compiled datasheet serves every catalogue that holds it: cite the one it came from
    origin = Origin(edition, cat.path.name, unit, cat.name)
    return attrs.evolve(found, origin=origin, source=origin.text())
