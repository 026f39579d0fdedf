"""Finding datasheets in a catalogue: the units a roster can select, one unit by name, and the
names of what can be selected inside it.

>>> from .entries import Catalogue, Characteristic, Profile
>>> line = (Profile("p", "Necron", "t", "Unit", tuple(Characteristic(c, c, "4") for c in "MTW")
...                 + (Characteristic("SV", "SV", "3+"),)),)
>>> lib = Library(Catalogue("n", "Necrons", "catalogue", "Necrons.cat", root_entries=(
...     Entry("entry", "e1", "Immortals", type="unit", profiles=line),
...     Entry("entry", "e2", "Necron Warriors", type="unit", profiles=line),
...     Entry("entry", "e3", "Searchlight", type="model"))))
>>> [name for name, _entry in catalogue_units(lib)], find_unit(lib, "immort").name
(['Immortals', 'Necron Warriors'], 'Immortals')
"""

from __future__ import annotations

import difflib
import re

import attrs

from ...errors import InputError
from ..typed.names import name_key
from .entries import Entry
from .files import Library
from .profiles import clean_name, is_statline, is_weapon
from .walk import Context, Walker, ancestry_of, hidden, root_context, unit_context


def is_datasheet(e: Entry) -> bool:
    """A library's shared entry that is a datasheet: a unit, or a model with a faction."""
    if e.type == "unit":
        return True
    return e.type == "model" and any(
        (c.name or "").lower().startswith("faction:") for c in e.category_links)


def has_statline(w: Walker, e: Entry, ctx: Context) -> bool:
    """Whether a unit entry has a statline (M, T, Sv, W) on itself or anywhere below it: an
    entry without one (a Searchlight, a terrain piece) is not a unit mathhammer can use."""
    if any(is_statline(p) for p in w.profiles(e, ctx)):
        return True
    return any(any(is_statline(p) for p in w.profiles(x, c))
               for x, c, _path in w.walk(e, ctx, lambda x: False))


def catalogue_units(lib: Library) -> list[tuple[str, Entry]]:
    """(name, root entry) of every unit and single-model datasheet a roster can select.

    Entries without a statline are left out. One name is one datasheet: of several entries
    with the same name (the same datasheet defined twice, or another catalogue's copy of one
    this catalogue defines), the one shown when this catalogue is the roster's primary one,
    else the first (the catalogue's own before a linked one's)."""
    w = Walker(lib)
    root = root_context(lib)
    seen: set[str] = set()
    best: dict[str, tuple[bool, int, str, Entry]] = {}  # name key -> (hidden, order, name, e)

    def add(key: str, name: str, e: Entry, is_hidden: bool) -> None:
        if key in seen:
            return
        seen.add(key)
        rank = (is_hidden, len(seen), name, e)
        old = best.get(name_key(name))
        if old is None or rank[:2] < old[:2]:
            best[name_key(name)] = rank

    found: list[Entry] = []
    if lib.main.library:  # a library's datasheets are its shared entries
        found += [e for e in lib.main.shared_entries if is_datasheet(e)]
    found += [e for _cat, e in lib.root_entries()]
    for e in found:
        try:
            r = w.resolve(e)
        except ValueError:  # its file is missing: importing it says so
            add(e.target_id or e.id, e.name, e, hidden(e, root))
            continue
        if r.type not in ("unit", "model"):
            continue
        ctx = attrs.evolve(root, ancestry=ancestry_of(r), unit_id=r.id)
        try:
            usable = has_statline(w, r, ctx)
        except ValueError:  # a link under it into a missing file: importing it says so
            usable = True
        if usable:
            add(r.id, r.name, e, hidden(e, root) or hidden(r, ctx))
    return sorted(((name, e) for _h, _o, name, e in best.values()), key=lambda x: name_key(x[0]))


def find_unit(lib: Library, name: str,
              units: list[tuple[str, Entry]] | None = None) -> Entry:
    """The root entry of the unit called ``name`` (case-insensitive; a unique prefix is enough);
    ``units`` is :func:`catalogue_units` of ``lib`` when already known."""
    units = catalogue_units(lib) if units is None else units
    q = name_key(name)
    where = lib.main.path.rsplit("/", 1)[-1]
    if not q:
        raise InputError(f"{where}: give a unit name")
    for matches in (
        [u for u in units if name_key(u[0]) == q],
        [u for u in units if name_key(re.sub(r"(?<!\s)\s*\[[^\[\]\n]*\]", "", u[0])) == q],
        [u for u in units if name_key(u[0]).startswith(q)],
    ):
        if len(matches) == 1:
            return matches[0][1]
        if len(matches) > 1:
            raise InputError(
                f"{where}: unit {name!r} is ambiguous: matches "
                + ", ".join(m[0] for m in matches[:8])
                + (", ..." if len(matches) > 8 else "")
            )
    names = {name_key(u[0]): u[0] for u in units}
    close = [names[k] for k in difflib.get_close_matches(q, list(names), 5, 0.5)]
    hint = f"closest: {', '.join(close)}" if close else f"it has {len(units)} units"
    raise InputError(f"{where}: no unit {name!r}; {hint}")


def option_names(lib: Library, entry: Entry) -> list[str]:
    """The names of everything a roster can select inside a unit (models, wargear, options,
    their groups) and of the weapon profiles below it."""
    w = Walker(lib)
    unit = w.resolve(entry)
    ctx = unit_context(lib, unit)
    names = [unit.name]
    for x, c, _path in w.walk(unit, ctx, lambda x: False):
        names.append(x.name)
        names += [clean_name(p.name) for p in w.profiles(x, c) if is_weapon(p)]
    names += [clean_name(p.name) for p in w.profiles(unit, ctx) if is_weapon(p)]
    return list(dict.fromkeys(n for n in names if n))
