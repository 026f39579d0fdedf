"""What an army list reads of a whole catalogue besides its datasheets, computed from the open
files: the detachments its army can take (:func:`catalogue_detachments`), the catalogues it
links to (:func:`linked_paths`), every ability text of one file (:func:`file_ability_texts`)
and every weapon profile of each catalogue (:func:`catalogue_weapon_profiles`). The compiled
store (:mod:`mathhammer.data.store.compiled`) keeps these per file, so that a list opens no data
file; :mod:`mathhammer.data.rules.detachments`, :mod:`mathhammer.data.rules.unit_rules` and
:func:`mathhammer.data.army.datasheets.catalogue_weapon` read them from there.

>>> from .entries import Catalogue
>>> file_ability_texts(Catalogue(id="c", name="Empty", path="empty.cat", kind="catalogue"))
[]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..typed.names import name_key


def catalogue_detachments(lib: Any, path: str | Path
                          ) -> tuple[list[tuple[str, str, str, list[tuple[str, str]]]], list[str]]:
    """The detachments the army of an open catalogue (``lib``: its library) can take, its own
    and its linked catalogues': ``(name key, name, file name, [(rule name, text)])`` each once
    (the first met), and the file names of the linked catalogues that are missing."""
    from .entries import Entry, Rule

    cats = [lib.main]
    missing: list[str] = []
    for _cat, link in lib.links():
        other = lib.linked(link.target_id)
        if other is None:
            missing.append(f"{link.name}{Path(path).suffix}")
        elif other.kind == "catalogue":
            cats.append(other)
    found: dict[str, tuple[str, str, str, list[tuple[str, str]]]] = {}

    def find(target_id: str) -> Any:
        for cat in cats:
            hit = cat.find(target_id)
            if hit is not None:
                return hit
        return None

    def resolve(e: Any) -> Any:
        return find(e.target_id) if getattr(e, "kind", "") == "link" else e

    def rules_of(e: Entry) -> list[tuple[str, str]]:
        out: dict[tuple[str, str], None] = {}
        for r in e.rules:
            if r.description.strip():
                out[(r.name.strip(), r.description.strip())] = None
        for link in e.info_links:
            found = find(link.target_id) if link.type == "rule" else None
            if isinstance(found, Rule) and found.description.strip():
                out[(found.name.strip(), found.description.strip())] = None
        for prof in e.profiles:
            text = prof.get("Description").strip()
            if text and prof.type_name.lower() == "abilities":
                out[(prof.name.strip(), text)] = None
        return list(out)

    def walk(e: Any, cat: Any, depth: int, under: bool) -> None:
        e = resolve(e)
        if not isinstance(e, Entry) or depth > 12:
            return
        if under and e.kind == "entry" and e.type == "upgrade":
            key = name_key(e.name)
            if key not in found:
                found[key] = (key, e.name.strip(), Path(cat.path).name, rules_of(e))
            return
        here = e.kind == "group" and "detachment" in e.name.lower()
        for c in e.children:
            walk(c, cat, depth + 1, here)

    for cat in cats:
        for e in cat.root_entries + cat.root_links + cat.shared_entries + cat.shared_groups:
            walk(e, cat, 0, False)
    return list(found.values()), missing


def linked_paths(lib: Any) -> list[str]:
    """The paths of the catalogue files an open catalogue links to that are installed (an
    Imperial Knights library holding the enhancements), nearest first."""
    out: list[str] = []
    for _cat, link in lib.links():
        other = lib.linked(link.target_id)
        if other is not None and other.kind == "catalogue" and str(other.path) not in out:
            out.append(str(other.path))
    return out


def file_ability_texts(cat: Any) -> list[tuple[str, str]]:
    """Every distinct (name, text) ability of one loaded file: its rules and ability profiles
    (Leader lists left out)."""
    found: dict[tuple[str, str], None] = {}

    def profile(p: Any) -> None:
        text = p.get("Description").strip()
        if p.type_name.lower() == "abilities" and text and \
                "can be attached to" not in text.lower():
            found[(p.name.strip(), text)] = None

    def rule(r: Any) -> None:
        if r.description.strip():
            found[(r.name.strip(), r.description.strip())] = None

    def group(g: Any) -> None:
        for p in g.profiles:
            profile(p)
        for r in g.rules:
            rule(r)
        for x in g.info_groups:
            group(x)

    def entry(e: Any) -> None:
        group(e)
        for c in e.children:
            entry(c)

    for p in cat.shared_profiles:
        profile(p)
    for r in cat.shared_rules:
        rule(r)
    for g in cat.shared_info_groups:
        group(g)
    for e in cat.root_entries + cat.root_links + cat.shared_entries + cat.shared_groups:
        entry(e)
    return list(found)


def catalogue_weapon_profiles(lib: Any) -> list[list[tuple[str, dict]]]:
    """Every weapon profile of each catalogue of an open library (the main one first, then
    those it links to, in order): ``(weapon name, weapon table)`` in the order met, a table
    without its ``unmapped`` and ``optional`` keys; a profile reached twice, or the same in
    several entries of a catalogue, is listed once."""
    import json

    from .profiles import clean_name, is_weapon
    from .weapons import weapon_table

    list(lib.links())  # every linked catalogue loaded, so that the order is the links'
    seen: set[int] = set()
    out: list[list[tuple[str, dict]]] = []
    had: set[str] = set()

    def add(found: list[tuple[str, dict]], p: Any) -> None:
        t = weapon_table(p)
        if t is not None:
            item = (clean_name(p.name),
                    {k: v for k, v in t.items() if k not in ("unmapped", "optional")})
            key = json.dumps([len(out), item], sort_keys=True)
            if key not in had:  # the same profile in many datasheets: once
                had.add(key)
                found.append(item)

    def walk(found: list[tuple[str, dict]], e: Any) -> None:
        if id(e) in seen:
            return
        seen.add(id(e))
        for p in e.profiles:
            if is_weapon(p):
                add(found, p)
        for c in e.children:
            walk(found, c)

    for cat in lib.catalogues():
        found: list[tuple[str, dict]] = []
        for kind in ("root_entries", "root_links", "shared_entries", "shared_groups"):
            for e in getattr(cat, kind, ()):
                walk(found, e)
        for p in getattr(cat, "shared_profiles", ()):
            if is_weapon(p):
                add(found, p)
        out.append(found)
    return out


__all__ = ["catalogue_detachments", "catalogue_weapon_profiles", "file_ability_texts",
           "linked_paths"]


def read_listing(path: str | Path, what: str) -> Any:
    """One of the listings above (``detachments``, ``linked``, ``abilities``, ``weapons``)
    computed from the file itself, as the store compiles it: for a file the store does not
    hold (a game system, a folder not compiled yet)."""
    from .files import load_file, open_library

    if what == "abilities":
        return file_ability_texts(load_file(path))
    lib = open_library(Path(path))
    if what == "detachments":
        return catalogue_detachments(lib, path)
    if what == "linked":
        return linked_paths(lib)
    if what == "weapons":
        return catalogue_weapon_profiles(lib)
    raise ValueError(f"no listing {what!r}")
