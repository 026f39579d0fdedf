"""The text of a datasheet's abilities (its rules and ability profiles), for the rule
translator (:mod:`mathhammer.data.translate`): the same entries the importer reads names from
(:func:`mathhammer.data.bsdata.abilities.abilities_of`), with their descriptions.

>>> from .files import Library
>>> from .model import Catalogue, Characteristic, Profile
>>> ability = Profile("p1", "Fury", "t1", "Abilities",
...                   (Characteristic("Description", "d", "Add 1 to the Hit roll."),))
>>> unit = Entry("entry", "u1", "Berserkers", type="unit", profiles=(ability,))
>>> ability_texts(Library(Catalogue("c", "Cat", "catalogue", "Cat.cat", root_entries=(unit,))),
...               "Berserkers")
[('Fury', 'Add 1 to the Hit roll.')]
"""

from __future__ import annotations

from ..names import name_key
from .files import Library
from .find import catalogue_units, find_unit
from .model import Entry
from .walk import Context, Walker, ancestry_of


def ability_texts(lib: Library, name: str) -> list[tuple[str, str]]:
    """(name, text) of the abilities of the datasheet ``name``: the unit's and its models'
    rules and ability profiles, each once, in the order found (core rules and Leader lists
    left out)."""
    w = Walker(lib)
    same = [e for n, e in catalogue_units(lib) if name_key(n) == name_key(name)]
    # several datasheets of one name (a copy in a library...): the first one's abilities
    unit = w.resolve(same[0] if same else find_unit(lib, name))
    ctx = Context(ancestry=ancestry_of(unit), unit_id=unit.id)
    entries: list[tuple[Entry, Context]] = [(unit, ctx)]
    if unit.type != "model":
        entries += [(x, c) for x, c, _path in w.walk(unit, ctx, lambda x: x.type == "model")
                    if x.type == "model"]
    system = lib.system()
    out: list[tuple[str, str]] = []
    for e, c in entries:
        for rname, rule in w.rules(e, c):
            core = system is not None and system.find(rule.id) is rule
            if rule.description.strip() and not core:
                out.append((rname.strip(), rule.description.strip()))
        for p in w.profiles(e, c):
            text = p.get("Description").strip()
            if p.type_name.lower() == "abilities" and text and \
                    "can be attached to" not in text.lower():
                out.append((p.name.strip(), text))
    return list(dict.fromkeys(out))


__all__ = ["ability_texts"]
