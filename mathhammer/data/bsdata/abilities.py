"""A datasheet's keywords (from category links) and abilities (from rules and ability
profiles): core abilities mathhammer knows, faction and datasheet abilities, and the units a
Leader can lead.

>>> from .files import Library
>>> from .entries import Catalogue, Link
>>> unit = Entry("entry", "u1", "Immortals", category_links=(
...     Link("l1", "Faction: Necrons", "c1", "category"), Link("l2", "Infantry", "c2", "category")))
>>> keywords_of(Library(Catalogue("n", "Necrons", "catalogue", "Necrons.cat")), [(unit, Context())])
('Necrons', ['INFANTRY'], ['NECRONS'])
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .entries import Entry
from .files import Library
from .walk import Context, Walker

_ATTACH = re.compile(r"can be attached to", re.I)
_LEADER_LINE = re.compile(r"^\s*[-•*■]\s*(.+?)\s*$")


def leads_of(text: str) -> list[str]:
    """Unit names from a Leader ability text (``- ^^**Skitarii Rangers^^**`` lines).

    >>> leads_of("This model can be attached to the following units:\\n- ^^**Skitarii Rangers^^**")
    ['Skitarii Rangers']
    """
    out = []
    for line in text.splitlines():
        m = _LEADER_LINE.match(line)
        if m:
            name = re.sub(r"[\^*_]", "", m.group(1)).strip().rstrip(".;,")
            name = re.sub(r"(?<!\s)\s*\(see .*\)$", "", name, flags=re.I)
            if name and name not in out:
                out.append(name)
    return out


#: "... even if one Captain or Chapter Master model has already been attached to it": the
#: Leaders a Leader may join a unit alongside (the text between "even if" and the verb)
_JOINS = re.compile(r"even\s{1,3}if\s{1,3}(.{1,200}?)\s{1,3}(?:has|have)\s{0,3}already\s{1,3}"
                    r"been\s{1,3}attached", re.I | re.S)
_JOIN_SPLIT = re.compile(r"(?<!\s)\s*,\s*(?:or\s+)?|(?<!\s)\s+or\s+", re.I)


def joins_of(text: str) -> list[str]:
    """The Leaders (names or keywords, as printed) a Leader ability lets this model join a unit
    alongside: its "even if one X or Y model has already been attached" clause; ``OTHER`` for
    "one other Leader unit" or "one other CHARACTER model" (any other Leader).

    >>> joins_of("You can attach this model to one of the above units even if one Captain, "
    ...          "Chapter Master or Lieutenant model has already been attached to it.")
    ['Captain', 'Chapter Master', 'Lieutenant']
    >>> joins_of("even if one ^^**Royal Warden^^** or ^^**Noble^^** model has already been "
    ...          "attached"), joins_of("even if one other Leader unit has already been attached")
    (['Royal Warden', 'Noble'], ['OTHER'])
    >>> joins_of("This model can be attached to the following units: Boyz")
    []
    """
    out: list[str] = []
    for m in _JOINS.finditer(text):
        what = re.sub(r"[\^*_]", "", m.group(1))
        what = re.sub(r"^(?:one or more|one|an?)\s+", "", what.strip(), flags=re.I)
        what = re.sub(r"(?<!\s)\s+(?:units?|models?)$", "", what, flags=re.I)
        if re.match(r"other\b", what, re.I) or what.lower() in ("character", "leader"):
            names = ["OTHER"]
        else:
            names = [n.strip() for n in _JOIN_SPLIT.split(what) if n.strip()]
        out += [n for n in names if n not in out]
    return out


def keywords_of(
    lib: Library, entries: list[tuple[Entry, Context]]
) -> tuple[str, list[str], list[str]]:
    """(faction, keywords, faction keywords) from the entries' category links."""
    faction, keywords, factions = "", [], []
    for e, _ctx in entries:
        for link in e.category_links:
            name = link.name
            if not name:
                try:
                    cat = lib.find(link.target_id, f"category link {link.id}")
                except ValueError:
                    continue
                name = getattr(cat, "name", "")
            if not name:
                continue
            if name.lower().startswith("faction:"):
                f = name.split(":", 1)[1].strip()
                faction = faction or f
                if f.upper() not in factions:
                    factions.append(f.upper())
            elif name.upper() not in keywords:
                keywords.append(name.upper())
    if not faction:
        faction = re.sub(r"^\w+ - ", "", lib.main.name)
    return faction, keywords, factions


def abilities_of(
    lib: Library, w: Walker, entries: list[tuple[Entry, Context]],
    warn: Callable[[str], None],
) -> dict[str, list[str]]:
    """Core, faction and datasheet abilities and the units a Leader leads, from the entries'
    rules and ability profiles."""
    from ..units.unit import canonical_core

    core: list[str] = []
    faction: list[str] = []
    datasheet: list[str] = []
    leads: list[str] = []
    joins: list[str] = []
    system = lib.system()
    # "Leader" (10e) or "Support" (11e): a profile that lists the units the model can lead
    leader_names = {
        p.name.strip().lower()
        for e, ctx in entries
        for p in w.profiles(e, ctx)
        if _ATTACH.search(p.get("Description"))
    }
    for e, ctx in entries:
        for name, rule in w.rules(e, ctx):
            if name.strip().lower() in leader_names:
                _add(core, "Leader")
                continue
            in_system = system is not None and system.find(rule.id) is rule
            try:
                c = canonical_core(name)
            except ValueError:
                c = None
            if c is not None:
                _add(core, c)
            elif in_system:
                warn(f"core ability {name!r} is not one mathhammer knows; kept as a "
                     f"datasheet ability")
                _add(datasheet, name)
            else:
                _add(faction, name)
        for p in w.profiles(e, ctx):
            if p.type_name.lower() != "abilities" and "description" not in {
                c.name.lower() for c in p.characteristics
            }:
                continue
            if p.name.lower().startswith("invulnerable save"):
                continue
            if p.name.strip().lower() in leader_names:
                _add(core, "Leader")
                for n in leads_of(p.get("Description")):
                    _add(leads, n)
                for n in joins_of(p.get("Description")):
                    _add(joins, n)
                continue
            _add(datasheet, p.name.strip())
    return {"core": core, "faction": faction, "datasheet": datasheet, "leads": leads,
            "joins": joins}


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)
