"""Load BattleScribe files (cached by path and modification time) and follow links between them.

A catalogue names the catalogues it links to and its game system by id; :func:`open_library`
finds those files beside it (or takes them as arguments) and :meth:`Library.find` resolves a
link target id through all of them, loading linked files only when a link needs them.

>>> load_file("nowhere/Necrons.cat")
Traceback (most recent call last):
...
mathhammer.errors.InputError: nowhere/Necrons.cat: no such file
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path
from typing import Any

import attrs

from ...cache import cached
from ...errors import BattleScribeWarning, InputError
from ...limits import MAX_CATALOGUE_BYTES, read_limited
from .entries import Catalogue
from .formats import JSON_SUFFIXES, XML_SUFFIXES
from .parse import read_catalogue_text


class MissingFileError(InputError):
    """A link into a catalogue (or game system) that is not in the data: ``files`` names the
    files that would hold it."""

    def __init__(self, message: str, files: tuple[str, ...] = ()):
        super().__init__(message)
        self.files = files




def _stat(path: Path) -> os.stat_result:
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    if not path.is_file():
        raise InputError(f"{path}: not a file")
    return st


@cached(maxsize=32)
def _load(path: str, mtime_ns: int, size: int) -> Catalogue:
    data = read_limited(path, MAX_CATALOGUE_BYTES, "MAX_CATALOGUE_BYTES", "BattleScribe file")
    if not data.strip():
        raise InputError(f"{path}: empty file")
    return read_catalogue_text(data, path)


def load_file(path: str | os.PathLike) -> Catalogue:
    """Read one ``.cat``/``.gst``/``.json`` file; parsed files are cached by path and mtime."""
    p = Path(path)
    if not p.name.lower().endswith(XML_SUFFIXES + JSON_SUFFIXES):
        raise InputError(
            f"{p}: unknown BattleScribe file type {p.suffix!r} (expected .cat, .gst or .json)"
        )
    st = _stat(p)
    return _load(str(p.resolve()), st.st_mtime_ns, st.st_size)


@cached(maxsize=4096)
def _xml_header(path: str, mtime_ns: int, size: int) -> tuple[str, str, str]:
    """(root tag, id, name) of an XML file, reading only its first element."""
    import defusedxml.ElementTree as SafeET

    try:
        for _event, el in SafeET.iterparse(path, events=("start",), forbid_dtd=True):
            return el.tag.rsplit("}", 1)[-1], el.get("id") or "", el.get("name") or ""
    except Exception:  # noqa: BLE001 - an unreadable neighbour is simply not a candidate
        pass
    return "", "", ""


# The top-level scalars of a pretty-printed BSData JSON file: one level inside the root object.
_JSON_TOP = re.compile(rb'^    "(id|name|type)": "([^"\\]*)"', re.M)


@cached(maxsize=4096)
def _json_header(path: str, mtime_ns: int, size: int) -> tuple[str, str, str]:
    """(kind, id, name) of a JSON file without building its model: the top-level fields are
    found by their indentation; a file laid out otherwise is parsed as plain JSON."""
    try:
        data = read_limited(path, MAX_CATALOGUE_BYTES, "MAX_CATALOGUE_BYTES")
    except ValueError:
        return "", "", ""
    found = {k.decode(): v.decode() for k, v in _JSON_TOP.findall(data)}
    if not {"id", "type"} <= found.keys():
        try:
            root = json.loads(data)
            found = next(iter(root.values())) if isinstance(root, dict) and root else {}
        except (ValueError, RecursionError):
            return "", "", ""
        if not isinstance(found, dict):
            return "", "", ""
    kind = str(found.get("type") or "")
    return kind, str(found.get("id") or ""), str(found.get("name") or "")


def _header(path: Path) -> tuple[str, str, str]:
    try:
        st = path.stat()
    except OSError:
        return "", "", ""
    read = _json_header if path.name.lower().endswith(JSON_SUFFIXES) else _xml_header
    return read(str(path.resolve()), st.st_mtime_ns, st.st_size)


def _family(path: Path) -> tuple[str, ...]:
    return JSON_SUFFIXES if path.name.lower().endswith(JSON_SUFFIXES) else XML_SUFFIXES


@attrs.define
class Library:
    """A catalogue with the files it links to: linked catalogues and the game system."""

    main: Catalogue
    candidates: tuple[Path, ...] = ()  # files that may hold linked catalogues
    loaded: dict[str, Catalogue] = attrs.field(factory=dict)  # id -> catalogue
    game_system: Catalogue | None = None
    _found: dict[str, Any] = attrs.field(factory=dict, repr=False)

    def catalogues(self) -> list[Catalogue]:
        return [self.main, *(c for c in self.loaded.values() if c is not self.main)]

    def linked(self, cat_id: str) -> Catalogue | None:
        """The catalogue with this id, loading it from the candidates if needed."""
        if cat_id in self.loaded:
            return self.loaded[cat_id]
        if self.game_system is not None and self.game_system.id == cat_id:
            return self.game_system
        for path in self.candidates:
            kind, fid, _name = _header(path)
            if fid == cat_id:
                try:
                    cat = load_file(path)
                except ValueError as e:  # a broken neighbour is not a candidate after all
                    warnings.warn(f"skipped {path.name}: {e}", BattleScribeWarning,
                                  stacklevel=2)
                    continue
                if cat.kind == "gameSystem":
                    self.game_system = cat
                else:
                    self.loaded[cat_id] = cat
                return cat
        return None

    def links(self):
        """(catalogue, catalogue link) of every catalogue reached by links, breadth first."""
        return self._links()

    def _links(self):
        seen = set()
        todo = [self.main]
        while todo:
            cat = todo.pop(0)
            for link in cat.catalogue_links:
                if link.target_id in seen:
                    continue
                seen.add(link.target_id)
                yield cat, link
                other = self.linked(link.target_id)
                if other is not None:
                    todo.append(other)

    def find(self, target_id: str, what: str) -> Any:
        """Resolve a link target; ``what`` names the link in the error if it is missing."""
        if target_id not in self._found:
            self._found[target_id] = self._find(target_id, what)
        return self._found[target_id]

    def _find(self, target_id: str, what: str) -> Any:
        for cat in self.catalogues():
            hit = cat.find(target_id)
            if hit is not None:
                return hit
        missing = []
        for _cat, link in self._links():
            other = self.linked(link.target_id)
            if other is None:
                missing.append(link)
                continue
            hit = other.find(target_id)
            if hit is not None:
                return hit
        gs = self.system()
        if gs is not None:
            hit = gs.find(target_id)
            if hit is not None:
                return hit
        where = Path(self.main.path).name
        suffix = Path(self.main.path).suffix
        parts = [f"linked catalogue {link.name!r} (id {link.target_id}; missing file "
                 f"'{link.name}{suffix}')" for link in missing]
        if gs is None:
            parts.append(f"its game system (id {self.main.game_system_id})")
        if parts:
            files = tuple(f"{link.name}{suffix}" for link in missing)
            raise MissingFileError(
                f"{where}: {what} links to id {target_id}, which is in a file not given; "
                f"not found beside it in {Path(self.main.path).parent}: {', '.join(parts)}",
                files,
            )
        raise InputError(f"{where}: {what} links to id {target_id}, which no given file defines")

    def system(self) -> Catalogue | None:
        """The game system file, found by id beside the catalogue (or given)."""
        if self.game_system is None and self.main.game_system_id:
            self.linked(self.main.game_system_id)
        return self.game_system

    def root_entries(self) -> list[tuple[Catalogue, Any]]:
        """What a roster can select from this catalogue: its root entries and links, and the root
        entries of linked catalogues that import them (when those files are here)."""
        out = [(self.main, e) for e in self.main.root_entries + self.main.root_links]
        for _cat, link in self._links():
            if link.import_root_entries:
                other = self.linked(link.target_id)
                if other is not None:
                    out += [(other, e) for e in other.root_entries + other.root_links]
        return out


def open_library(
    path: str | os.PathLike,
    *,
    gamesystem: str | os.PathLike | None = None,
    catalogues: tuple[str | os.PathLike, ...] = (),
) -> Library:
    """Load ``path`` and prepare to follow its links into the files beside it.

    ``gamesystem`` and ``catalogues`` name files to use instead of (before) the neighbours.
    """
    p = Path(path)
    main = load_file(p)
    if main.kind != "catalogue":
        raise InputError(f"{p}: this is a game system file, not a catalogue")
    explicit = [Path(c) for c in catalogues]
    for c in explicit:
        load_file(c)  # fail early on a bad explicit file
    family = _family(p)
    try:
        neighbours = sorted(
            q for q in p.parent.iterdir()
            if q.is_file() and q.name.lower().endswith(family) and q.resolve() != p.resolve()
        )
    except OSError:
        neighbours = []
    lib = Library(main=main, candidates=tuple(explicit + neighbours))
    lib.loaded[main.id] = main
    if gamesystem is not None:
        gs = load_file(gamesystem)
        if gs.kind != "gameSystem":
            raise InputError(f"{gamesystem}: not a game system file (it is catalogue {gs.name!r})")
        if main.game_system_id and gs.id != main.game_system_id:
            raise InputError(
                f"{gamesystem}: game system {gs.name!r} has id {gs.id}, but {p.name} needs "
                f"id {main.game_system_id}"
            )
        lib.game_system = gs
    else:
        # Prefer a neighbour whose name looks like a game system, but any with the id will do.
        lib.candidates = tuple(
            sorted(lib.candidates, key=lambda q: not q.name.lower().endswith(".gst"))
        )
    return lib
