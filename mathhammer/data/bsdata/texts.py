"""The texts of a datasheet's abilities (rules and ability profiles), by the names
:func:`~mathhammer.data.bsdata.abilities.abilities_of` gives them.

>>> from .model import Catalogue, Entry, Rule
>>> unit = Entry("entry", "u1", "Boyz", type="unit", rules=(Rule("r1", "Waaagh!", "Roll."),))
>>> ability_texts(Library(Catalogue("c", "Orks", "catalogue", "Orks.cat")), unit)
{'Waaagh!': 'Roll.'}
"""

from __future__ import annotations

import contextlib

from .files import Library
from .model import Entry
from .walk import Context, Walker, ancestry_of


def ability_texts(lib: Library, entry: Entry) -> dict[str, str]:
    """Ability name -> its text, for a datasheet's root entry and the entries below it (its
    models and wargear); core abilities also under their printed spelling
    (``Feel No Pain 6+``)."""
    from ..unit import canonical_core

    w = Walker(lib)
    unit = w.resolve(entry)
    ctx = Context(ancestry=ancestry_of(unit), unit_id=unit.id)
    out: dict[str, str] = {}
    nodes = [(unit, ctx)] + [(x, c) for x, c, _path in w.walk(unit, ctx, lambda x: False)]
    for e, c in nodes:
        for name, rule in w.rules(e, c):
            name = name.strip()
            out.setdefault(name, rule.description.strip())
            with contextlib.suppress(ValueError):
                out.setdefault(canonical_core(name), rule.description.strip())
        for p in w.profiles(e, c):
            text = p.get("Description")
            if text and p.type_name.lower() not in ("unit", "model"):
                out.setdefault(p.name.strip(), text.strip())
    return out


__all__ = ["ability_texts"]
