"""Where the BattleScribe data lives, fetching it, and an index of units per catalogue.

Why one module: data location, fetch, install and the unit index share the same folder layout
and its locking.

The data folder is ``--data DIR``, else ``$MATHHAMMER_DATA``, else ``bsdata/`` in the user's
cache folder (``platformdirs``). A data folder holds either the files of one edition (``.cat``
and ``.gst`` for 10e, ``.json`` for 11e) or one folder per edition (``10e/``, ``11e/``), which
is how ``mathhammer data fetch`` installs them.

The unit index lists the units of every catalogue of an edition, keyed on each file's path,
modification time and size, and is kept as JSON in the cache folder; a file that changes is
read again on the next use. With it a unit name resolves across all factions without parsing
any catalogue.

>>> edition_of_files(["Necrons.cat", "Warhammer 40,000.gst"])
'10e'
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
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

import attrs

from ..errors import InputError
from .names import name_key

Edition = Literal["10e", "11e"]
EDITIONS: tuple[Edition, ...] = ("10e", "11e")
SUFFIXES: dict[str, tuple[str, ...]] = {"10e": (".cat", ".gst"), "11e": (".json",)}
REPOSITORY = "https://github.com/BSData/wh40k-{edition}/archive/refs/heads/main.zip"
ENV = "MATHHAMMER_DATA"
_INDEX_VERSION = 2
_PREFIXES = ("Imperium - ", "Chaos - ", "Xenos - ", "Aeldari - ")


def cache_dir() -> Path:
    """The user's cache folder for mathhammer (platform convention)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("mathhammer", appauthor=False))


def default_root() -> Path:
    """Where ``data fetch`` installs the data: ``bsdata/`` in the cache folder."""
    return cache_dir() / "bsdata"


def data_root(data: str | os.PathLike | None = None) -> Path:
    """The data folder: ``data``, else ``$MATHHAMMER_DATA``, else the cache's ``bsdata/``."""
    if data is not None and str(data) != "":
        root = Path(data).expanduser()
        if not root.is_dir():
            raise InputError(f"--data {data}: no such folder")
        return root
    env = os.environ.get(ENV, "").strip()
    if env:
        root = Path(env).expanduser()
        if not root.is_dir():
            raise InputError(f"${ENV} {env}: no such folder")
        return root
    return default_root()


def edition_of_files(names: Iterable[str]) -> Edition | None:
    """The edition a set of file names belongs to (``.json`` is 11e, ``.cat``/``.gst`` 10e)."""
    names = [n.lower() for n in names]
    if any(n.endswith(".json") for n in names):
        return "11e"
    if any(n.endswith((".cat", ".gst")) for n in names):
        return "10e"
    return None


def _files(folder: Path, edition: Edition) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir()
                      if p.is_file() and p.name.lower().endswith(SUFFIXES[edition])
                      and not p.name.startswith("."))
    except OSError:
        return []


def edition_dir(edition: Edition, data: str | os.PathLike | None = None) -> Path:
    """The folder holding the files of ``edition``: the data folder itself when it holds that
    edition's files, else its ``10e``/``11e`` subfolder.

    Raises ValueError (one line, saying how to get the data) when there is none.
    """
    root = data_root(data)
    for folder in (root, root / edition):
        if folder.is_dir() and _files(folder, edition):
            return folder
    raise InputError(f"no {edition} BattleScribe data in {root}; run `mathhammer data fetch "
                     f"--edition {edition}` (or give --data DIR)")


def installed_editions(data: str | os.PathLike | None = None) -> list[Edition]:
    """The editions with files in the data folder."""
    out: list[Edition] = []
    for ed in EDITIONS:
        try:
            edition_dir(ed, data)
        except ValueError:
            continue
        out.append(ed)
    return out


# --------------------------------------------------------------------------- status and fetch


@attrs.frozen
class Installed:
    """What ``data status`` reports for one edition."""

    edition: Edition
    folder: Path
    catalogues: int
    source: str = ""
    date: str = ""


def status(data: str | os.PathLike | None = None) -> list[Installed]:
    """The installed editions with their source, date and number of catalogues."""
    out = []
    for ed in installed_editions(data):
        folder = edition_dir(ed, data)
        files = _files(folder, ed)
        info: dict = {}
        meta = folder / ".mathhammer.json"
        if meta.is_file():
            try:
                info = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                info = {}
        cats = [f for f in files if not _is_game_system_name(f)]
        out.append(Installed(ed, folder, len(cats), str(info.get("source", "")),
                             str(info.get("date", ""))))
    return out


def _is_game_system_name(path: Path) -> bool:
    return path.suffix.lower() == ".gst" or path.stem == "Warhammer 40,000"


def fetch(edition: Edition, url: str | None = None, root: str | os.PathLike | None = None,
          progress: Callable[[int, int | None], None] | None = None,
          timeout: float = 60.0) -> Installed:
    """Download the BSData repository archive of ``edition`` and install it atomically in
    ``root/edition`` (default: the cache's ``bsdata/``).

    The archive is downloaded and unpacked in a temporary folder beside the target, checked
    (it must hold the edition's game system and catalogues), then renamed into place; on any
    error the installed data is left as it was. ``progress(done, total)`` is called as bytes
    arrive.
    """
    import urllib.error
    import urllib.request

    if edition not in EDITIONS:
        raise InputError(f"--edition {edition!r}: expected one of {', '.join(EDITIONS)}")
    url = url or REPOSITORY.format(edition=edition)
    base = Path(root).expanduser() if root is not None else data_root(None)
    base.mkdir(parents=True, exist_ok=True)
    target = base / edition
    tmp = Path(tempfile.mkdtemp(prefix=f".{edition}-fetch-", dir=base))
    try:
        archive = tmp / "archive.zip"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response, \
                    archive.open("wb") as out:
                total = response.headers.get("Content-Length")
                total_n = int(total) if total and total.isdigit() else None
                done = 0
                while chunk := response.read(1 << 16):
                    out.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, total_n)
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", None) or e
            raise InputError(f"{url}: download failed ({reason})") from None
        unpacked = tmp / edition
        _unpack(archive, unpacked, edition, url)
        (unpacked / ".mathhammer.json").write_text(json.dumps({
            "edition": edition, "source": url,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }), encoding="utf-8")
        old = tmp / "old"
        if target.exists():
            target.rename(old)
        try:
            unpacked.rename(target)
        except OSError:
            if old.exists():
                old.rename(target)
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return next(i for i in status(base) if i.edition == edition)


def _unpack(archive: Path, dest: Path, edition: Edition, url: str) -> None:
    """Extract the data files of the archive (flattened: GitHub archives hold one top folder)
    and check that they are the edition's data."""
    try:
        with zipfile.ZipFile(archive) as z:
            members = [m for m in z.infolist()
                       if not m.is_dir() and m.filename.lower().endswith(SUFFIXES[edition])
                       and "/." not in "/" + m.filename]
            dest.mkdir()
            for m in members:
                name = Path(m.filename).name
                if not name or name.startswith("."):
                    continue
                with z.open(m) as src, (dest / name).open("wb") as out:
                    shutil.copyfileobj(src, out)
    except zipfile.BadZipFile:
        raise InputError(f"{url}: not a zip archive") from None
    files = _files(dest, edition)
    if not any(_is_game_system_name(f) for f in files):
        raise InputError(f"{url}: the archive holds no {edition} game system file "
                         f"({' or '.join(SUFFIXES[edition])}); is it the {edition} data?")
    if len(files) < 2:
        raise InputError(f"{url}: the archive holds no {edition} catalogues")


# --------------------------------------------------------------------------- the unit index


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
    files = _files(folder, edition)
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
            if not _is_game_system_name(Path(path))]
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
