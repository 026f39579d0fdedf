"""The installed BattleScribe data of one edition compiled once into a SQLite store in the cache
folder, so that a datasheet is found and loaded in milliseconds.

The store is built on the first use of a data folder (and after ``data fetch``): every
datasheet of every catalogue is imported by :mod:`mathhammer.data.bsdata` (a process pool over
the catalogues) and kept as the compiled :class:`~mathhammer.data.units.unit.Unit` (a generic JSON
form of its attrs values, :func:`to_json`), the unit file the importer made (model groups,
statlines, weapons and profiles, wargear options and defaults, keywords, abilities, points per
size, Leader lists), the texts of its abilities, the names a roster can select in it and the
import's warnings; a datasheet that does not import is kept with its error (and its unit file
when only the unit could not be made of it). The same datasheet reached through several
catalogues (a Rhino in every chapter) is one row with its factions. What an army list reads is
kept with each catalogue: the datasheets a roster selects there (``army_entries``, with their
model entries and option names where that catalogue's differ) and every name a roster can
select in it and the files it links to (:func:`selectable_names`), so a list, like ``data
check``, opens no data file.

Each store is named by its fingerprint (:mod:`mathhammer.data.store.cache_files`): the schema
version, the content of the code that shapes it, the data folder and its files' content. A new
store is built when a data file is added, removed or edited, or that code or the schema
changes, and not otherwise (a file touched, mathhammer reinstalled: the same store); several
installs and data folders sharing one cache folder each find their own. A store is written to a
locked temporary file, checked, sealed and renamed, so an interrupted build leaves no part of
one (its temporary file is removed by the next build); a store damaged since (its file no
longer what its seal says, or a SQLite error that says so while reading) is built again. One
process builds a store while others wait for it; a web server's workers never build one
(:func:`compiled_elsewhere`: the server does, in the background).

Why one module: the tables, the build that fills them and the :class:`Store` that reads them
change together (a column added is written and read here, with ``SCHEMA_VERSION`` bumped).

>>> faction_label(Path("Imperium - Blood Angels.cat"))
'Blood Angels'
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs

from ...errors import BattleScribeWarning, InputError, one_line
from ..bsdata.formats import edition_of_file
from ..typed.names import name_key
from ..units.serial import from_json, to_json
from .cache_files import (
    STORE_ENV,  # noqa: F401 - where the stores live instead of the cache folder
    build_lock,
    code_digest,
    digests,
    fingerprint_of,
    is_damage,
    locked_temp,
    prune,
    remove_store,
    seal,
    sealed,
    stat_of,
    store_folder,
    sweep,
    unwritable,
)
from .data_folder import Edition, edition_dir, edition_files, is_game_system

#: Bump when the tables or what goes into them change: an older store is rebuilt.
SCHEMA_VERSION = 11  # 3: rule_texts, the texts the rule translator reads; 4: weapon counts and
# maxima by size (UnitWeapon.counts, .max); 5: what army lists read (army_entries, each
# catalogue's selectable names and source) and data check (the import's warnings); 6: shared
# slots (UnitWeapon.slot, .slot_max); 7: what a list reads of a whole catalogue (detachments,
# linked files, ability texts, weapon profiles); 8: each file's revision (a list that names
# what a file lacks names its revision); 9: an index on each datasheet table (a list's 32
# ability lookups scanned the whole table each); 10: each rule text's gate (the armies that
# have it: Templar Vows only a Black Templars army) and owner (the models that have it: a Wulfen
# with a Death Totem); 11: a unit's make-ups (Unit.compositions: how its model groups share its
# size)
_PREFIXES = ("Imperium - ", "Chaos - ", "Xenos - ", "Aeldari - ")

Progress = Callable[[int, int, str], None]


# ---------------------------------------------------------------- compiling one catalogue


def faction_label(path: Path) -> str:
    """The faction name used in ``Faction:Unit``: the file name without its grand alliance."""
    stem = path.stem
    for p in _PREFIXES:
        if stem.startswith(p):
            return stem[len(p):]
    return stem


def compile_datasheet(lib: Any, entry: Any) -> dict[str, Any]:
    """One datasheet of an open catalogue compiled: the importer's unit file (``raw``), the
    :class:`~mathhammer.data.units.unit.Unit` it makes (as :func:`to_json` data), the warnings
    a load gives, the model entries of each group, the names a roster can select in it and the texts
    of its abilities; or its ``error`` (with the unit file, model entries and names when only
    the unit could not be made of them: an army list reads those)."""
    from ..bsdata import unit_of_raw
    from ..bsdata.build import build_entry
    from ..bsdata.find import option_names
    from ..bsdata.texts import entry_rule_texts, entry_texts

    built: dict[str, Any] = {}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            raw, notes, members = build_entry(lib, entry)
            seen = len(caught)
            options = option_names(lib, entry)
            built = {"raw": raw, "notes": notes, "members": members, "options": options}
            where = f"{Path(lib.main.path).name}:{raw['name']}"
            before = len(caught)
            unit, said = unit_of_raw(raw, notes, where)
            # what an import of the unit warns (data check): building it and loading it
            checked = [str(w.message) for w in caught[:seen] + caught[before:]]
            texts = entry_texts(lib, entry)
            rules = entry_rule_texts(lib, entry)
    except (ValueError, RecursionError) as e:
        return {**built, "error": str(e) or type(e).__name__}
    told = [[w.category.__name__, str(w.message)] for w in caught] + \
        [["BattleScribeWarning", w] for w in said]
    return {**built, "texts": texts, "rules": rules, "unit": to_json(unit), "warnings": told,
            "checked": checked}


def selectable_names(lib: Any) -> list[tuple[str, str, int | None]]:
    """Every name a roster can select in a catalogue and the files it links to, in the order
    met, each once: ``(name, "weapon", None)`` for a weapon profile or an entry that has one (it
    overrides another kind of the same name), ``(name, "enhancement", cost)`` for an upgrade
    under an Enhancements group (``"upgrade"`` under an Upgrades one: an enhancement a unit
    without the CHARACTER keyword may take), ``(name, "wargear", None)`` for anything else (the
    first kind met stays)."""
    from ..bsdata.profiles import clean_name, is_weapon

    out: dict[tuple[str, str, int | None], None] = {}
    seen: set[int] = set()

    def cost(e: Any) -> int | None:
        for c in e.costs:
            if (c.name or "").strip().lower() == "pts":
                try:
                    return int(c.value)
                except (TypeError, ValueError):
                    return None
        return None

    def walk(e: Any, enh: bool, upgrade: bool = False) -> None:
        if id(e) in seen:
            return
        seen.add(id(e))
        enh = enh or "enhancement" in (e.name or "").lower()
        upgrade = upgrade or (enh and e.kind == "group" and "upgrade" in (e.name or "").lower())
        weapon = False
        for p in e.profiles:
            if is_weapon(p):
                weapon = True
                out[(clean_name(p.name), "weapon", None)] = None
        if e.name and e.kind != "group":
            if weapon:
                out[(e.name, "weapon", None)] = None
            elif enh and e.type == "upgrade":
                out[(e.name, "upgrade" if upgrade else "enhancement", cost(e))] = None
            else:
                out[(e.name, "wargear", None)] = None
        for c in e.children:
            walk(c, enh, upgrade)

    for cat in lib.catalogues():
        for kind in ("root_entries", "root_links", "shared_entries", "shared_groups"):
            for e in getattr(cat, kind, ()):
                walk(e, False)
        for p in getattr(cat, "shared_profiles", ()):
            if is_weapon(p):
                out[(clean_name(p.name), "weapon", None)] = None
    return list(out)


def _listing(what: Callable[[], Any]) -> Any:
    """A whole-catalogue value of :mod:`mathhammer.data.bsdata.listing`; None when the data
    cannot give it (read from the files again then, to say why)."""
    try:
        return what()
    except (ValueError, RecursionError):
        return None


def compile_catalogue(path: str) -> dict[str, Any]:
    """Every datasheet of one data file (a game system gives only its header), and what an
    army list reads of the whole file (:mod:`mathhammer.data.bsdata.listing`)."""
    from ..bsdata import listing
    from ..bsdata.files import load_file, open_library
    from ..bsdata.find import catalogue_units, is_datasheet

    p = Path(path)
    try:
        cat = load_file(p)
    except ValueError as e:
        return {"id": "", "name": p.stem, "library": False, "links": [], "units": [],
                "error": str(e)}
    head: dict[str, Any] = {
        "id": cat.id, "name": cat.name, "library": bool(cat.library), "revision": cat.revision,
        "links": [[c.target_id, c.name] for c in cat.catalogue_links], "units": []}
    if cat.kind != "catalogue" or is_game_system(p):
        return head
    head["abilities"] = _listing(lambda: listing.file_ability_texts(cat))
    try:
        lib = open_library(p)
        if cat.library:
            found = [(e.name, e) for e in cat.shared_entries if is_datasheet(e)]
        else:
            found = catalogue_units(lib)
    except ValueError as e:
        return {**head, "error": str(e)}
    head["missing"] = [c.name for c in cat.catalogue_links if lib.linked(c.target_id) is None]
    head["detachments"] = _listing(lambda: listing.catalogue_detachments(lib, p))
    head["linked"] = _listing(lambda: listing.linked_paths(lib))

    def compiled(name: str, e: Any) -> dict[str, Any]:
        key = e.target_id or e.id
        return {"name": name, "key": key, "own": cat.find(key) is not None,
                **compile_datasheet(lib, e)}

    at: dict[int, int] = {}
    for i, (name, entry) in enumerate(found):
        at[id(entry)] = i
        head["units"].append(compiled(name, entry))
    # what a roster selects in it (a library's own datasheets may differ from its shared ones)
    try:
        selectable = catalogue_units(lib) if cat.library else found
    except ValueError:
        selectable = []
    head["names"] = selectable_names(lib)
    head["weapons"] = _listing(lambda: listing.catalogue_weapon_profiles(lib))
    head["army"] = [{"name": name, "entry": e.name, "at": at[id(e)]} if id(e) in at else
                    {"name": name, "entry": e.name, "unit": compiled(name, e)}
                    for name, e in selectable]
    for a in head["army"]:
        u = head["units"][a["at"]] if "at" in a else a["unit"]
        a["key"], a["own"] = u["key"], u["own"]
    return head


# ---------------------------------------------------------------- building the store


def fingerprint(folder: Path, edition: Edition, files: list[Path] | None = None,
                stamps: list[tuple[int, int, int]] | None = None) -> str:
    """What a store of ``folder`` is built from, as one hash: the schema version, the code
    that shapes the store (by content), the data folder and its files' content (each file
    hashed once per content, :func:`mathhammer.data.store.cache_files.digests`)."""
    files = edition_files(folder, edition) if files is None else files
    return fingerprint_of({
        "schema": SCHEMA_VERSION, "code": code_digest(), "edition": edition,
        "folder": str(folder.resolve()),
        "files": [[p.name, d] for p, d in zip(files, digests(files, folder, stamps),
                                               strict=True)]})


def store_path(folder: Path, edition: Edition, files: list[Path] | None = None,
               stamps: list[tuple[int, int, int]] | None = None) -> Path:
    """Where the store of a data folder, as its files and mathhammer's code are now, lives:
    ``EDITION-FINGERPRINT.sqlite`` in ``catalogue/`` of the cache folder (or
    ``$MATHHAMMER_STORE``)."""
    return store_folder() / f"{edition}-{fingerprint(folder, edition, files, stamps)[:20]}.sqlite"


_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE catalogues (id INTEGER PRIMARY KEY, path TEXT, label TEXT, bs_id TEXT, name TEXT,
    library INTEGER, links TEXT, missing TEXT, error TEXT, source TEXT, names TEXT,
    detachments TEXT, linked TEXT, abilities TEXT, weapons TEXT, revision TEXT);
CREATE TABLE datasheets (id INTEGER PRIMARY KEY, name TEXT, key TEXT, faction TEXT,
    digest TEXT UNIQUE, raw TEXT, unit TEXT, notes TEXT, warnings TEXT, members TEXT,
    options TEXT, error TEXT, points TEXT, keywords TEXT, checked TEXT);
CREATE TABLE entries (catalogue INTEGER, datasheet INTEGER, name TEXT, key TEXT, own INTEGER,
    nkey TEXT, plain TEXT);
CREATE INDEX entries_datasheet ON entries(datasheet);
CREATE INDEX entries_nkey ON entries(nkey);
CREATE INDEX entries_plain ON entries(plain);
CREATE TABLE army_entries (catalogue INTEGER, datasheet INTEGER, name TEXT, entry TEXT,
    members TEXT, options TEXT, key TEXT, own INTEGER);
CREATE INDEX army_entries_catalogue ON army_entries(catalogue);
CREATE TABLE keywords (datasheet INTEGER, keyword TEXT, faction INTEGER);
CREATE TABLE abilities (datasheet INTEGER, kind TEXT, name TEXT, text TEXT);
CREATE TABLE rule_texts (datasheet INTEGER, name TEXT, text TEXT, gate TEXT, owner TEXT);
CREATE TABLE leads (datasheet INTEGER, unit TEXT);
CREATE TABLE points (datasheet INTEGER, models INTEGER, cost INTEGER);
CREATE TABLE model_groups (datasheet INTEGER, position INTEGER, name TEXT, min_models INTEGER,
    max_models INTEGER, statline TEXT);
CREATE TABLE weapons (datasheet INTEGER, model_group INTEGER, name TEXT, melee INTEGER,
    optional INTEGER, profile_of TEXT, profile TEXT);
CREATE INDEX keywords_datasheet ON keywords(datasheet);
CREATE INDEX abilities_datasheet ON abilities(datasheet);
CREATE INDEX rule_texts_datasheet ON rule_texts(datasheet);
CREATE INDEX leads_datasheet ON leads(datasheet);
CREATE INDEX points_datasheet ON points(datasheet);
CREATE INDEX model_groups_datasheet ON model_groups(datasheet);
CREATE INDEX weapons_datasheet ON weapons(datasheet);
"""
_FTS = "CREATE VIRTUAL TABLE search USING fts5(name, keywords, abilities, tokenize='unicode61')"


#: what a datasheet's unit file says of where it came from: one compiled datasheet serves every
#: file that holds the same one (a unit read from the store cites the file it is read for)
_WHERE_FROM = ("source", "origin")


def _digest(unit: dict[str, Any]) -> str:
    if "error" in unit:
        basis: Any = ["error", unit["name"], unit["error"],
                      {k: v for k, v in unit.get("raw", {}).items() if k not in _WHERE_FROM}]
    else:
        basis = {k: v for k, v in unit["raw"].items() if k not in _WHERE_FROM}
    return hashlib.sha1(json.dumps(basis, sort_keys=True, default=str).encode()).hexdigest()


def _insert_datasheet(db: Any, unit: dict[str, Any], fts: bool) -> int:
    digest = _digest(unit)
    row = db.execute("SELECT id FROM datasheets WHERE digest = ?", (digest,)).fetchone()
    if row is not None:
        return row[0]
    if "error" in unit:
        raw = unit.get("raw")  # it builds but makes no unit: an army list still reads it
        cur = db.execute(
            "INSERT INTO datasheets (name, key, digest, error, raw, notes, members, options) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (unit["name"], name_key(unit["name"]), digest, unit["error"],
             *([None] * 4 if raw is None else
               [json.dumps(raw), json.dumps(unit["notes"]), json.dumps(unit["members"]),
                json.dumps(unit["options"])])))
        ds = cur.lastrowid
        if fts:
            db.execute("INSERT INTO search (rowid, name, keywords, abilities) VALUES (?,?,?,?)",
                       (ds, unit["name"], "", ""))
        return ds
    raw = unit["raw"]
    compiled = from_json(unit["unit"])
    cur = db.execute(
        "INSERT INTO datasheets (name, key, faction, digest, raw, unit, notes, warnings, members,"
        " options, points, keywords, checked) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (raw["name"], name_key(raw["name"]), raw.get("faction", ""), digest, json.dumps(raw),
         json.dumps(unit["unit"]), json.dumps(unit["notes"]), json.dumps(unit["warnings"]),
         json.dumps(unit["members"]), json.dumps(unit["options"]),
         json.dumps(raw.get("points", [])), ", ".join(raw.get("keywords", [])),
         json.dumps(unit["checked"])))
    ds = cur.lastrowid
    db.executemany("INSERT INTO keywords VALUES (?, ?, ?)",
                   [(ds, k, 0) for k in raw.get("keywords", [])]
                   + [(ds, k, 1) for k in raw.get("faction_keywords", [])])
    texts = unit.get("texts", {})
    abilities = [(ds, kind, name, texts.get(name, ""))
                 for kind, names in raw.get("abilities", {}).items() for name in names]
    db.executemany("INSERT INTO abilities VALUES (?, ?, ?, ?)", abilities)
    db.executemany("INSERT INTO rule_texts VALUES (?, ?, ?, ?, ?)",
                   [(ds, *rule) for rule in unit.get("rules", [])])
    db.executemany("INSERT INTO leads VALUES (?, ?)", [(ds, u) for u in raw.get("leads", [])])
    db.executemany("INSERT INTO points VALUES (?, ?, ?)",
                   [(ds, p["models"], p["cost"]) for p in raw.get("points", [])])
    for i, g in enumerate(compiled.groups):
        db.execute("INSERT INTO model_groups VALUES (?, ?, ?, ?, ?, ?)",
                   (ds, i, g.name, g.min_models, g.max_models, g.statline()))
        db.executemany("INSERT INTO weapons VALUES (?, ?, ?, ?, ?, ?, ?)",
                       [(ds, i, w.name, int(w.melee), int(w.optional), w.profile_of,
                         json.dumps(to_json(w.weapon))) for w in g.weapons])
    if fts:
        db.execute("INSERT INTO search (rowid, name, keywords, abilities) VALUES (?, ?, ?, ?)",
                   (ds, raw["name"], " ".join(raw.get("keywords", [])
                                              + raw.get("faction_keywords", [])),
                    " ".join(f"{n} {t}" for _ds, _k, n, t in abilities)))
    return ds


def _insert_catalogue(db: Any, path: Path, c: dict[str, Any], fts: bool) -> None:
    """One compiled file: its row, its datasheets and entries, what a roster selects in it."""
    source = next((u["raw"]["source"] for u in c["units"] + [a["unit"] for a in
                   c.get("army", []) if "unit" in a] if "raw" in u), None)
    cur = db.execute(
        "INSERT INTO catalogues (path, label, bs_id, name, library, links, missing, error, "
        "source, names, detachments, linked, abilities, weapons, revision) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (str(path), faction_label(path), c["id"], c["name"], int(c["library"]),
         json.dumps(c["links"]), json.dumps(c.get("missing", [])), c.get("error"), source,
         json.dumps(c.get("names", [])),
         *(None if c.get(k) is None else json.dumps(c[k])
           for k in ("detachments", "linked", "abilities", "weapons")),
         c.get("revision") or ""))
    cid = cur.lastrowid
    ids = []
    for u in c["units"]:
        ids.append(ds := _insert_datasheet(db, u, fts))
        db.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (cid, ds, u["name"], u["key"], int(u["own"]), name_key(u["name"]),
                    name_key(re.sub(r"(?<!\s)\s*\[[^\[\]\n]*\]", "", u["name"]))))
    for a in c.get("army", []):
        u = c["units"][a["at"]] if "at" in a else a["unit"]
        ds = ids[a["at"]] if "at" in a else _insert_datasheet(db, u, fts)
        # the same compiled datasheet may have other option names in this catalogue
        have = db.execute("SELECT members, options FROM datasheets WHERE id = ?",
                          (ds,)).fetchone()
        mine = [None if "raw" not in u else json.dumps(u[k]) for k in ("members", "options")]
        db.execute("INSERT INTO army_entries VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (cid, ds, a["name"], a["entry"], *(m if m != h else None
                                                       for m, h in zip(mine, have,
                                                                       strict=True)),
                    a["key"], int(a["own"])))


def _orphan_guard(parent: int) -> None:
    """In a compiling worker: exit once ``parent`` is gone. A build killed midway (a web
    worker stopped by its time limit) would otherwise leave its workers waiting forever."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _compiled(files: list[Path], workers: int, progress: Progress | None
              ) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each file compiled, in the files' order (biggest first to a pool of ``workers``)."""
    total = len(files)
    if workers <= 1 or total <= 1:
        for i, p in enumerate(files):
            if progress is not None:
                progress(i, total, p.name)
            yield p, compile_catalogue(str(p))
        return
    import concurrent.futures as cf
    import multiprocessing

    order = sorted(files, key=lambda p: -p.stat().st_size)
    done: dict[Path, dict[str, Any]] = {}
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    pool = cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                  initializer=_orphan_guard, initargs=(os.getpid(),))
    try:
        futures = {pool.submit(compile_catalogue, str(p)): p for p in order}
        for n, fut in enumerate(cf.as_completed(futures)):
            p = futures[fut]
            done[p] = fut.result()
            if progress is not None:
                progress(n + 1, total, p.name)
    except BaseException:  # stopped (a signal, Ctrl-C): the workers are not waited for, and
        # killed (they hold the build's locks, inherited: a worker left would hold them)
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    for p in files:
        yield p, done[p]


def build_store(folder: Path, edition: Edition, dest: Path | None = None, *,
                workers: int | None = None, progress: Progress | None = None) -> Path:
    """Compile every data file of ``folder`` into the store ``dest`` (default: the store of
    the files as they are now, :func:`store_path`): written to a locked temporary file (no
    journal), checked (``PRAGMA quick_check``), sealed and renamed into place, so any failure
    leaves no part of it; then the temporary files of killed builds and old stores are
    removed (:func:`mathhammer.data.store.cache_files.sweep`,
    :func:`~mathhammer.data.store.cache_files.prune`). A full disk or a folder that cannot
    be written is one line naming the folder."""
    import sqlite3

    files = edition_files(folder, edition)
    stamps = [stat_of(p) for p in files]
    dest = dest or store_path(folder, edition, files, stamps)
    if workers is None:
        workers = min(2, os.cpu_count() or 1)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        sweep(dest.parent)
        with locked_temp(dest.parent, dest.stem) as (fd, tmp):
            db = sqlite3.connect(tmp)
            try:
                # the file is thrown away on any failure: no journal to roll back with
                db.execute("PRAGMA journal_mode = OFF")
                db.execute("PRAGMA synchronous = OFF")
                db.execute("PRAGMA temp_store = MEMORY")
                db.executescript(_SCHEMA)
                try:
                    db.execute(_FTS)
                    fts = True
                except sqlite3.OperationalError:  # a SQLite without FTS5
                    fts = False
                for p, c in _compiled(files, workers, progress):
                    _insert_catalogue(db, p, c, fts)
                db.executemany("INSERT INTO meta VALUES (?, ?)",
                               [("folder", str(folder)), ("edition", edition),
                                ("fts", "1" if fts else "")])
                db.commit()
                check = db.execute("PRAGMA quick_check").fetchall()
            finally:
                db.close()
            if check != [("ok",)]:
                raise InputError(f"the compiled store of the {edition} data in {dest.parent} "
                                 f"did not read back whole ({one_line(check[0][0])}): the disk "
                                 "may be failing")
            if [stat_of(p) for p in files] != stamps:
                raise InputError(f"the {edition} data files in {folder} changed while they "
                                 "were compiled; run the command again")
            os.fsync(fd)
            seal(tmp, dest, {"folder": str(folder.resolve()), "edition": edition,
                             "built": time.strftime("%Y-%m-%d %H:%M:%S")})
            os.replace(tmp, dest)
    except sqlite3.DatabaseError as e:
        raise unwritable(dest.parent, edition, e) from None
    except OSError as e:
        if getattr(e, "filename", None) and not str(e.filename).startswith(str(dest.parent)):
            raise
        raise unwritable(dest.parent, edition, e) from None
    with contextlib.suppress(OSError):
        prune(dest.parent)
    return dest


# ---------------------------------------------------------------- reading the store


@attrs.frozen
class Datasheet:
    """A datasheet row of the store: one compiled datasheet, wherever it was found."""

    id: int
    name: str
    factions: tuple[str, ...]
    error: str | None = None
    edition: str = ""


@attrs.frozen
class StoredCatalogue:
    """A data file as an army list reads it from the store: its row id, the ``source`` its
    datasheets cite, the catalogues it links to that are not in the folder, the ``error``
    it could not be read with and its ``revision`` (the file's own number, ``""`` when it
    gives none)."""

    id: int
    path: Path
    source: str | None = None
    missing: tuple[str, ...] = ()
    error: str | None = None
    library: bool = False
    revision: str = ""
    #: the file's catalogue name, as the data gives it ("Xenos - Necrons")
    name: str = ""


@attrs.frozen
class StoredEntry:
    """A datasheet a roster selects in one catalogue: its root entry's ``name``, the compiled
    ``datasheet`` and, when this catalogue's differ from the datasheet's, its model entries
    and option names (JSON)."""

    name: str
    datasheet: int
    catalogue: int
    members: str | None = None
    options: str | None = None
    #: the root entry's BattleScribe id (an entry link's target): what a roster's ``entryId``
    #: names
    key: str = ""


class _Rows(list):
    """A query's rows, all read (a cursor's ``fetchone``/``fetchall``)."""

    def fetchone(self) -> Any:
        return self[0] if self else None

    def fetchall(self) -> list:
        return list(self)


class _Reader:
    """A store's connection as its readers use it: ``execute(sql, params)`` gives all the
    rows at once (a damaged store is found by the query that reads it, and rebuilt before
    the query is asked again: :meth:`Store.query`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def execute(self, sql: str, params: Any = ()) -> _Rows:
        return self.store.query(sql, params)


@attrs.define
class Store:
    """An open store (read only)."""

    path: Path
    folder: Path
    edition: Edition
    built: bool = False
    checked: float = 0.0  # when its files were last compared with the store (monotonic)
    _db: Any = None
    _pid: int = 0

    @property
    def db(self) -> _Reader:
        """The store read as a connection: ``db.execute(sql, params).fetchall()``."""
        return _Reader(self)

    def _connection(self) -> Any:
        """The SQLite connection (read only; opened again in a forked process)."""
        if self._db is None or self._pid != os.getpid():
            import sqlite3

            self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                       check_same_thread=False)
            self._pid = os.getpid()
        return self._db

    def query(self, sql: str, params: Any = ()) -> _Rows:
        """The rows of one query. A SQLite error that says the file is damaged or gone
        rebuilds the store (the same file: the same data and code give the same rows and
        ids) and asks again, once; any other error is raised."""
        import sqlite3

        try:
            return _Rows(self._connection().execute(sql, params).fetchall())
        except sqlite3.DatabaseError as e:
            if not is_damage(e):
                raise
            self.close()
            _rebuild_damaged(self, e)
            return _Rows(self._connection().execute(sql, params).fetchall())

    def catalogues(self) -> list[tuple]:
        """(path, bs id, name, library, links, missing, id) of every file, in file order."""
        return self.db.execute("SELECT path, bs_id, name, library, links, missing, id "
                               "FROM catalogues ORDER BY id").fetchall()

    def entries(self) -> list[tuple[int, int, str, str, int, str, str]]:
        """(catalogue, datasheet, unit name, entry key, own, name key, name key without
        ``[Legends]``) of every datasheet of a file."""
        return self.db.execute("SELECT catalogue, datasheet, name, key, own, nkey, plain "
                               "FROM entries").fetchall()

    def record(self, ds: int) -> dict[str, Any]:
        """The compiled datasheet ``ds``: its unit file (``raw``), warnings, model entries per
        group (``members``), selectable names (``options``) and ``error``."""
        row = self.db.execute("SELECT name, raw, notes, warnings, members, options, error "
                              "FROM datasheets WHERE id = ?", (ds,)).fetchone()
        if row is None:
            raise InputError(f"compiled store {self.path}: no datasheet {ds}")
        name, raw, notes, warns, members, options, error = row
        if error is not None:
            return {"name": name, "error": error}
        return {"name": name, "raw": json.loads(raw), "notes": json.loads(notes),
                "warnings": json.loads(warns), "members": json.loads(members),
                "options": json.loads(options), "error": None}

    def catalogue(self, path: str | os.PathLike) -> StoredCatalogue | None:
        """The file at ``path`` (as the store names it: see :meth:`catalogues`)."""
        row = self.db.execute("SELECT id, source, missing, error, library, revision, name "
                              "FROM catalogues WHERE path = ?", (str(path),)).fetchone()
        if row is None:
            return None
        return StoredCatalogue(row[0], Path(path), row[1], tuple(json.loads(row[2] or "[]")),
                               row[3], bool(row[4]), row[5] or "", row[6] or "")

    def origin(self, lib: StoredCatalogue, entry: str) -> Any:
        """The :class:`~mathhammer.data.units.unit.Origin` of a datasheet ``entry`` read for the
        file ``lib`` of this store."""
        from ..units.unit import Origin

        return Origin(self.edition, lib.path.name, entry, lib.name, lib.revision)

    def listing(self, path: str | os.PathLike, what: str) -> Any:
        """What a list reads of the whole file at ``path`` (``what``: ``detachments``,
        ``linked``, ``abilities`` or ``weapons``, see :mod:`mathhammer.data.bsdata.listing`),
        as JSON data; None when the store does not hold it."""
        if what not in LISTINGS:
            raise ValueError(f"no listing {what!r}")
        row = self.db.execute(f"SELECT {what} FROM catalogues WHERE path = ?",
                              (str(path),)).fetchone()
        if row is None:  # the same file named another way (a link's resolved path)
            want = Path(path).resolve()
            row = next((r[1:] for r in self.db.execute(f"SELECT path, {what} FROM catalogues")
                        if Path(r[0]).resolve() == want), None)
        return None if row is None or row[0] is None else json.loads(row[0])

    def checks(self, catalogue: int) -> list[tuple[str, str, bool, int, str | None, list[str],
                                                   list[str]]]:
        """(unit name, entry key, defined in this file, datasheet, error, import notes, import
        warnings) of every datasheet a roster selects in a catalogue (``mathhammer data
        check``)."""
        return [(name, key, bool(own), ds, error, json.loads(notes or "[]"),
                 json.loads(checked or "[]"))
                for name, key, own, ds, error, notes, checked in self.db.execute(
                    "SELECT a.name, a.key, a.own, a.datasheet, d.error, d.notes, d.checked "
                    "FROM army_entries a JOIN datasheets d ON d.id = a.datasheet "
                    "WHERE a.catalogue = ? ORDER BY a.rowid", (catalogue,))]

    def homes(self) -> dict[str, tuple[str, bool]]:
        """Entry key -> (file name, is a library) of the first file that defines it."""
        out: dict[str, tuple[str, bool]] = {}
        for key, path, library in self.db.execute(
                "SELECT a.key, c.path, c.library FROM army_entries a JOIN catalogues c "
                "ON c.id = a.catalogue WHERE a.own ORDER BY c.id, a.rowid"):
            out.setdefault(key, (Path(path).name, bool(library)))
        return out

    def selectable(self, catalogue: int) -> list[tuple[str, StoredEntry]]:
        """(unit name, entry) of every datasheet a roster selects in a catalogue (see
        :func:`mathhammer.data.bsdata.find.catalogue_units`)."""
        return [(name, StoredEntry(entry, ds, catalogue, members, options, key or ""))
                for ds, name, entry, members, options, key in self.db.execute(
                    "SELECT datasheet, name, entry, members, options, key FROM army_entries "
                    "WHERE catalogue = ? ORDER BY rowid", (catalogue,))]

    def selectable_by_key(self, key: str) -> list[tuple[str, str, StoredEntry]]:
        """(file path, unit name, entry) of every datasheet a roster selects by the BattleScribe
        id ``key`` (a roster's ``entryId``), in file order."""
        return [(path, name, StoredEntry(entry, ds, catalogue, members, options, k))
                for path, ds, name, entry, members, options, k, catalogue in self.db.execute(
                    "SELECT c.path, a.datasheet, a.name, a.entry, a.members, a.options, a.key, "
                    "a.catalogue FROM army_entries a JOIN catalogues c ON c.id = a.catalogue "
                    "WHERE a.key = ? ORDER BY c.id, a.rowid", (key,))]

    def selectable_names(self, catalogue: int) -> list[tuple[str, str, int | None]]:
        """(name, kind, cost) of everything a roster selects in a catalogue and the files it
        links to (see :func:`selectable_names`)."""
        row = self.db.execute("SELECT names FROM catalogues WHERE id = ?",
                              (catalogue,)).fetchone()
        return [tuple(r) for r in json.loads(row[0] or "[]")] if row else []

    def army_unit(self, entry: StoredEntry, origin: Any = None
                  ) -> tuple[dict[str, Any], list[list[str]], list[str]]:
        """(unit file, model entries per group, option names) of a datasheet as a roster of
        the entry's catalogue selects it (its unit file citing ``origin``, an
        :class:`~mathhammer.data.units.unit.Origin`); a datasheet the data cannot build is its
        error."""
        row = self.db.execute("SELECT name, raw, members, options, error FROM datasheets "
                              "WHERE id = ?", (entry.datasheet,)).fetchone()
        if row is None:
            raise InputError(f"compiled store {self.path}: no datasheet {entry.datasheet}")
        name, raw, members, options, error = row
        if raw is None:
            raise InputError(error or f"{name}: cannot be built")
        unit = json.loads(raw)
        if origin is not None:
            unit["origin"], unit["source"] = origin.to_table(), origin.text()
        return (unit, json.loads(entry.members or members),
                json.loads(entry.options or options))

    def unit(self, ds: int, label: str = "", warn: bool = True) -> Any:
        """The :class:`~mathhammer.data.units.unit.Unit` of datasheet ``ds``; its import
        warnings are given again (as when it was imported) unless not ``warn``; a datasheet
        that did not import is the error."""
        row = self.db.execute("SELECT name, unit, warnings, error FROM datasheets WHERE id = ?",
                              (ds,)).fetchone()
        if row is None:
            raise InputError(f"compiled store {self.path}: no datasheet {ds}")
        name, unit, warns, error = row
        if error is not None:
            raise InputError(f"{label or name}: cannot be imported from the {self.edition} data: "
                             f"{error}")
        for category, text in json.loads(warns) if warn else ():
            cls = BattleScribeWarning if category == "BattleScribeWarning" else UserWarning
            warnings.warn(text, cls, stacklevel=3)
        return from_json(json.loads(unit))

    def groups(self, ds: int) -> Any:
        """The model groups (statlines and weapons) of a datasheet's unit; None if it did not
        import."""
        row = self.db.execute("SELECT unit FROM datasheets WHERE id = ?", (ds,)).fetchone()
        if row is None or row[0] is None:
            return None
        return from_json(json.loads(row[0])["groups"])

    def factions(self, ds: int) -> list[str]:
        """The faction labels of the catalogues that hold a datasheet."""
        return [r[0] for r in self.db.execute(
            "SELECT c.label FROM entries e JOIN catalogues c ON c.id = e.catalogue "
            "WHERE e.datasheet = ? ORDER BY c.id", (ds,))]

    def leaders_of(self, unit: str) -> list[str]:
        """The datasheets whose Leader ability names ``unit`` (its Bodyguard list), sorted."""
        q = name_key(unit)
        rows = self.db.execute("SELECT DISTINCT d.name, l.unit FROM leads l "
                               "JOIN datasheets d ON d.id = l.datasheet").fetchall()
        return sorted({name for name, led in rows if name_key(led) == q}, key=name_key)

    def rule_owners(self, ds: int) -> dict[tuple[str, str], str]:
        """(name, text) -> the model entries that have it, of a datasheet's abilities that only
        some of its models have."""
        return {(n, t): o for n, t, o in self.db.execute(
            "SELECT name, text, owner FROM rule_texts WHERE datasheet = ? AND owner != ''",
            (ds,))}

    def rule_texts(self, ds: int, catalogue: str | os.PathLike | None = None
                   ) -> list[tuple[str, str]]:
        """(name, text) of a datasheet's abilities as the rule translator reads them
        (:func:`mathhammer.data.bsdata.texts.ability_texts`); with ``catalogue`` (a file of
        the store), only those an army of that catalogue has."""
        from ..bsdata.texts import shown_in

        here = None
        if catalogue is not None:
            row = self.db.execute("SELECT bs_id FROM catalogues WHERE path = ?",
                                  (str(catalogue),)).fetchone()
            here = row[0] if row else None
        return [(name, text) for name, text, gate in self.db.execute(
            "SELECT name, text, gate FROM rule_texts WHERE datasheet = ? ORDER BY rowid", (ds,))
            if here is None or shown_in(gate or "", here)]

    def ability_texts(self, ds: int) -> list[tuple[str, str, str]]:
        """(kind, name, text) of a datasheet's abilities."""
        return self.db.execute("SELECT kind, name, text FROM abilities WHERE datasheet = ?",
                               (ds,)).fetchall()

    def datasheets(self, faction: str | None = None) -> list[Datasheet]:
        """Every datasheet (one row however many catalogues hold it), with its factions:
        those of the catalogues that are not libraries when there are any; first the one
        named as its faction, else the one that defines it (Space Marines' Devastator Squad,
        which every chapter lists) or whose library does, else in file order."""
        rows = self.db.execute(
            "SELECT d.id, d.name, d.error, d.faction, c.label, c.library, e.own "
            "FROM datasheets d JOIN entries e ON e.datasheet = d.id "
            "JOIN catalogues c ON c.id = e.catalogue ORDER BY c.id").fetchall()
        by: dict[int, list] = {}
        for ds, name, error, own_faction, label, library, own in rows:
            item = by.setdefault(ds, [name, error, [], [], name_key(own_faction or "")])
            (item[3] if library else item[2]).append(label)
            if own:
                item.append(name_key(label))
        out = []
        fq = name_key(faction) if faction else None
        for ds, (name, error, cats, libs, home, *lib_home) in by.items():
            def rank(label: str, home=home, lib_home=lib_home) -> tuple[bool, bool]:
                key = name_key(label)
                return (key != home, not any(h.startswith(key) for h in lib_home))
            factions = tuple(sorted(dict.fromkeys(cats or libs), key=rank))
            if fq is not None and not any(fq in name_key(f) for f in cats + libs):
                continue
            out.append(Datasheet(ds, name, factions, error, self.edition))
        return sorted(out, key=lambda d: (name_key(d.name), d.factions))

    def search(self, text: str, faction: str | None = None) -> list[Datasheet]:
        """The datasheets ``text`` finds, best first: the exact name, then names starting with
        it as a word, then whole-word matches, then names containing it, then a match in the
        keywords or abilities (full-text search)."""
        q = name_key(text)
        rows = self.datasheets(faction)
        if not q:
            return rows
        word = re.compile(rf"(?<!\w){re.escape(q)}(?!\w)")
        ranked = []
        for d in rows:
            n = name_key(d.name)
            plain = name_key(re.sub(r"(?<!\s)\s*\[[^\[\]\n]*\]", "", d.name))
            if n == q or plain == q:
                rank = 0
            elif n.startswith(q) and word.match(n):
                rank = 1
            elif word.search(n):
                rank = 2
            elif q in n:
                rank = 3
            else:
                continue
            ranked.append((rank, len(n), d))
        seen = {d.id for _r, _l, d in ranked}
        for ds in self._fts(text):
            if ds not in seen:
                hit = next((d for d in rows if d.id == ds), None)
                if hit is not None:
                    ranked.append((4, len(ranked), hit))
                    seen.add(ds)
        ranked.sort(key=lambda r: (r[0], r[1] if r[0] < 4 else 0))
        return [d for _r, _l, d in ranked]

    def _fts(self, text: str) -> list[int]:
        import sqlite3

        words = re.findall(r"\w+", text)
        if not words or not self.db.execute(
                "SELECT value FROM meta WHERE key = 'fts'").fetchone()[0]:
            return []
        query = " ".join('"' + w.replace('"', '') + '"' for w in words)
        try:
            return [r[0] for r in self.db.execute(
                "SELECT rowid FROM search WHERE search MATCH ? ORDER BY rank", (query,))]
        except sqlite3.OperationalError:
            return []

    def summaries(self, ids: list[int]) -> dict[int, tuple[list[tuple[int, int, str]],
                                                         list[tuple[int, int]]]]:
        """Datasheet id -> ((min, max, statline) of each model group, (models, cost) points)."""
        out: dict[int, tuple[list, list]] = {i: ([], []) for i in ids}
        marks = ",".join("?" * len(ids))
        for ds, lo, hi, line in self.db.execute(
                f"SELECT datasheet, min_models, max_models, statline FROM model_groups "
                f"WHERE datasheet IN ({marks}) ORDER BY datasheet, position", ids):
            out[ds][0].append((lo, hi, line))
        for ds, models, cost in self.db.execute(
                f"SELECT datasheet, models, cost FROM points WHERE datasheet IN ({marks}) "
                f"ORDER BY datasheet, models", ids):
            out[ds][1].append((models, cost))
        return out

    def close(self) -> None:
        db, self._db = self._db, None  # forgotten first: never a closed connection kept
        if db is not None:
            db.close()


#: the whole-catalogue values a store keeps per file (:meth:`Store.listing`)
LISTINGS = ("detachments", "linked", "abilities", "weapons")

_OPEN: dict[tuple[str, str], tuple[list, Store]] = {}
#: An open store is compared with its files again after this many seconds (a long-running
#: process, the web page, sees a changed file; one command checks once).
RECHECK_SECONDS = 2.0


class StoreCompiling(BaseException):  # noqa: N818 - not an error: the answer comes later
    """The store a query needs is not built, and is not built here (see
    :func:`compiled_elsewhere`): the web server compiles it in the background and the query is
    asked again once it is ready. A ``BaseException``, so that no handler of a query's own
    errors takes it for bad input."""

    def __init__(self, edition: str, folder: Path) -> None:
        super().__init__(f"compiling the game's data ({edition}), ready in about a minute")
        self.edition, self.folder = edition, folder


_BUILD_HERE = [True]


@contextlib.contextmanager
def compiled_elsewhere() -> Iterator[None]:
    """Within the block a store that is not built raises :class:`StoreCompiling` instead of
    being built (a web server's worker: the server builds it, outside any query's time
    limit)."""
    before = _BUILD_HERE[0]
    _BUILD_HERE[0] = False
    try:
        yield
    finally:
        _BUILD_HERE[0] = before


def _default_progress(edition: str, folder: Path) -> Progress:
    """Progress on stderr: a bar on a terminal, else one line when the build starts."""
    said: list[bool] = []

    def progress(done: int, total: int, name: str) -> None:
        if not said:
            said.append(True)
            print(f"compiling the {edition} data in {folder} into the store (once; "
                  f"{total} files)", file=sys.stderr, flush=True)
        if sys.stderr.isatty():
            width = 30
            filled = width * done // max(total, 1)
            print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                  f"{name[:40]:<40}", end="" if done < total else "\n", file=sys.stderr,
                  flush=True)

    return progress


def _stamped(folder: Path, edition: Edition) -> tuple[list[Path], list[tuple[int, int, int]]]:
    """The data files and their (size, time, inode), listed again if one went meanwhile."""
    for fresh in (False, True):
        files = edition_files(folder, edition, fresh=fresh)
        try:
            return files, [stat_of(p) for p in files]
        except FileNotFoundError:
            continue
    raise InputError(f"the {edition} data files in {folder} keep changing; run again later")


def open_store(edition: Edition, data: str | os.PathLike | None = None, *,
               progress: Progress | None = None, workers: int | None = None) -> Store:
    """The store of ``edition``'s data folder (see
    :func:`mathhammer.data.store.data_folder.edition_dir`) for its files and mathhammer's code as
    they are now, built first if there is none (or it is damaged). A data file whose time
    changed but not its content is hashed again, once; nothing is rebuilt."""
    folder = edition_dir(edition, data)
    key = (str(folder.resolve()), edition)
    memo = _OPEN.get(key)
    now = time.monotonic()
    if memo is not None and now - memo[1].checked < RECHECK_SECONDS:
        return memo[1]
    files, stamps = _stamped(folder, edition)
    stamp = [[p.name, *s] for p, s in zip(files, stamps, strict=True)]
    if memo is not None and memo[0] == stamp:
        memo[1].checked = now
        return memo[1]
    path = store_path(folder, edition, files, stamps)
    built = _ready(path, folder, edition, progress, workers)
    if memo is not None and memo[1].path == path and not built:
        memo[1].checked = time.monotonic()
        _OPEN[key] = (stamp, memo[1])
        return memo[1]
    store = Store(path, folder, edition, built, checked=time.monotonic())
    _OPEN[key] = (stamp, store)  # then the old one closed: an interrupted query (the page's
    if memo is not None:  # soft limit, mathhammer.jobs.soft) leaves no closed store kept
        memo[1].close()
    return store


def _ready(path: Path, folder: Path, edition: Edition, progress: Progress | None,
           workers: int | None) -> bool:
    """Make sure the store ``path`` is built and whole: True when it was built here."""
    state = sealed(path)
    if state == "ok":
        return False
    if state == "changed":
        warnings.warn(f"compiled store {path}: damaged (its content is not what was built); "
                      "compiling it again", stacklevel=3)
        remove_store(path)
    if not _BUILD_HERE[0]:
        raise StoreCompiling(edition, folder)
    said: list[bool] = []

    def waiting(pid: int) -> None:
        if not said:
            said.append(True)
            who = f"process {pid}" if pid else "another process"
            print(f"waiting for {who}, which is compiling the {edition} data in {folder} into "
                  "the store", file=sys.stderr, flush=True)

    with contextlib.ExitStack() as stack:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            stack.enter_context(build_lock(path, waiting))
        except OSError as e:
            raise unwritable(path.parent, edition, e) from None
        if sealed(path) == "ok":  # built by another process meanwhile
            return False
        build_store(folder, edition, path, workers=workers,
                    progress=progress or _default_progress(edition, folder))
    return True


def _rebuild_damaged(store: Store, error: Exception) -> None:
    """A query found ``store`` damaged: remove it and build it again (the same file, when the
    data files are as they were), or say that the data changed meanwhile."""
    warnings.warn(f"compiled store {store.path}: damaged ({one_line(error)}); compiling it "
                  "again", stacklevel=4)
    remove_store(store.path)
    files, stamps = _stamped(store.folder, store.edition)
    if store_path(store.folder, store.edition, files, stamps) != store.path:
        _OPEN.pop((str(store.folder.resolve()), store.edition), None)
        raise InputError(f"the {store.edition} data files in {store.folder} changed while a "
                         "query read them; run it again")
    store.built = _ready(store.path, store.folder, store.edition, None, None) or store.built


def store_ready(edition: Edition, data: str | os.PathLike | None = None) -> bool:
    """Whether the store of ``edition``'s data folder is built for its files and code as they
    are now (so opening it builds nothing)."""
    folder = edition_dir(edition, data)
    memo = _OPEN.get((str(folder.resolve()), edition))
    if memo is not None and time.monotonic() - memo[1].checked < RECHECK_SECONDS:
        return True
    files, stamps = _stamped(folder, edition)
    return sealed(store_path(folder, edition, files, stamps)) == "ok"


def listing_of(path: str | os.PathLike, what: str) -> Any:
    """What a list reads of a whole data file (see :mod:`mathhammer.data.bsdata.listing`): from
    the store of its folder when it is built and current, else read from the file itself."""
    stored = stored_listing(path, what)
    if stored is None:
        from ..bsdata.listing import read_listing

        stored = read_listing(Path(path), what)
    return stored


def stored_listing(path: str | os.PathLike, what: str) -> Any:
    """:meth:`Store.listing` of a data file, from the store of its folder when that store is
    built and up to date (None otherwise: the caller reads the file)."""
    p = Path(path)
    edition = edition_of_file(p) or "10e"  # a file of another suffix: no store has it
    try:
        folder = edition_dir(edition, p.parent)
        if (str(folder.resolve()), edition) not in _OPEN and not store_ready(edition, folder):
            return None
        return open_store(edition, folder).listing(p, what)
    except (InputError, OSError):
        return None


def compile_main(editions: list[str] | None = None) -> int:
    """Build the stores of ``editions`` (default: the command line's arguments) of the data
    folder (``$MATHHAMMER_DATA``, else the cache) that are not built: the web server's
    background build (:mod:`mathhammer.jobs.compiling`). A failure is one line on stderr and
    status 2; SIGTERM stops it (its temporary file removed).

    >>> compile_main([])
    0
    """
    import signal

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    if editions is None and hasattr(signal, "SIGTERM"):  # the command line's process
        signal.signal(signal.SIGTERM, stop)
    for edition in sys.argv[1:] if editions is None else editions:
        try:
            open_store(edition)  # type: ignore[arg-type]
        except (InputError, OSError) as e:
            print(f"mathhammer: error: {one_line(e)}", file=sys.stderr, flush=True)
            return 2
    return 0


def forget() -> None:
    """Close the stores this process opened (tests; after ``data fetch``)."""
    for _sig, store in _OPEN.values():
        store.close()
    _OPEN.clear()
