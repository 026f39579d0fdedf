"""The text of a datasheet's abilities (its rules and ability profiles), for the rule
translator (:mod:`mathhammer.data.rules.translate`): the same entries the importer reads names from
(:func:`mathhammer.data.bsdata.abilities.abilities_of`), with their descriptions.

>>> from .files import Library
>>> from .entries import Catalogue, Characteristic, Profile, Rule
>>> ability = Profile("p1", "Fury", "t1", "Abilities",
...                   (Characteristic("Description", "d", "Add 1 to the Hit roll."),))
>>> stats = Profile("p2", "Berserker", "t2", "Unit", tuple(Characteristic(c, c, v) for c, v in
...                   (("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", "2"))))
>>> unit = Entry("entry", "u1", "Berserkers", type="unit", profiles=(ability, stats))
>>> ability_texts(Library(Catalogue("c", "Cat", "catalogue", "Cat.cat", root_entries=(unit,))),
...               "Berserkers")
[('Fury', 'Add 1 to the Hit roll.')]

:func:`entry_texts` gives the same for a root entry already found, with core abilities also
under their printed spelling (the compiled catalogue keeps them):

>>> unit = Entry("entry", "u1", "Boyz", type="unit", rules=(Rule("r1", "Waaagh!", "Roll."),))
>>> entry_texts(Library(Catalogue("c", "Orks", "catalogue", "Orks.cat")), unit)
{'Waaagh!': 'Roll.'}
"""

from __future__ import annotations

import contextlib

from ..typed.names import name_key
from .entries import ConditionGroup, Entry, Link, Rule
from .files import Library
from .find import catalogue_units, find_unit
from .walk import Context, Walker, ancestry_of, hidden


def ability_texts(lib: Library, name: str) -> list[tuple[str, str]]:
    """(name, text) of the abilities of the datasheet ``name``: the unit's and its models'
    rules and ability profiles, each once, in the order found (core rules and Leader lists
    left out)."""
    same = [e for n, e in catalogue_units(lib) if name_key(n) == name_key(name)]
    # several datasheets of one name (a copy in a library...): the first one's abilities
    return entry_ability_texts(lib, same[0] if same else find_unit(lib, name))


def entry_ability_texts(lib: Library, entry: Entry) -> list[tuple[str, str]]:
    """:func:`ability_texts` of a datasheet's root entry already found, as the catalogue read
    (``lib.main``) shows them (a rule another catalogue's army has only is left out)."""
    here = lib.main.id
    return [(name, text) for name, text, gate, _owner in entry_rule_texts(lib, entry)
            if shown_in(gate, here)]


def shown_in(gate: str, catalogue: str) -> bool:
    """Whether a rule with this gate (:func:`entry_rule_texts`) shows in a roster whose primary
    catalogue has the id ``catalogue``.

    >>> shown_in("", "a"), shown_in("+a b", "a"), shown_in("+a b", "c"), shown_in("-a", "a")
    (True, True, False, False)
    """
    if not gate:
        return True
    listed = catalogue in gate[1:].split()
    return listed if gate[0] == "+" else not listed


def _gate(rule: Rule, link: Link | None) -> str:
    """The catalogues a rule shows in, when its (or its link's) ``hidden`` modifiers look at
    the roster's primary catalogue (Templar Vows: a rule of the Space Marines library that only
    a Black Templars army has): ``"+ID ..."`` only in those, ``"-ID ..."`` in all but those,
    ``""`` in every one."""
    mods = [m for thing in (rule, link) if thing is not None for m in thing.modifiers
            if m.field == "hidden" and m.when is not None]

    def ids(c: ConditionGroup) -> set[str]:
        return {x.child_id for x in c.conditions if x.scope == "primary-catalogue"} | {
            i for g in c.groups for i in ids(g)}

    named = {i for m in mods if m.when is not None for i in ids(m.when)} - {""}
    if not named:
        return ""
    known = frozenset(named | {"?"})

    def seen(primary: str) -> bool:
        ctx = Context(primary=primary, catalogue_ids=known)
        return not hidden(rule, ctx) and (link is None or not hidden(link, ctx))

    shown = sorted(i for i in named if seen(i))
    if seen("?"):  # a catalogue it does not name
        hid = sorted(named - set(shown))
        return "-" + " ".join(hid) if hid else ""
    return "+" + " ".join(shown)


def entry_rule_texts(lib: Library, entry: Entry) -> list[tuple[str, str, str, str]]:
    """(name, text, gate, owner) of the abilities of a datasheet's root entry (what the
    compiled catalogue keeps for the translator): ``gate`` says which armies have it
    (:func:`shown_in`), ``owner`` which of its models ("" when the unit's or every model's:
    the model entries that have it, joined by "; ", when only some of them do: a Wulfen with
    a Death Totem)."""
    w = Walker(lib)
    unit = w.resolve(entry)
    ctx = Context(ancestry=ancestry_of(unit), unit_id=unit.id)
    entries: list[tuple[Entry, Context]] = [(unit, ctx)]
    if unit.type != "model":
        entries += [(x, c) for x, c, _path in w.walk(unit, ctx, lambda x: x.type == "model")
                    if x.type == "model"]
    models = {e.name.strip() for e, _c in entries[1:] if e is not unit}
    system = lib.system()
    found: dict[tuple[str, str, str], set[str]] = {}
    links = {link.target_id: link for e, _c in entries for link in e.info_links}
    for e, c in entries:
        who = "*" if e is unit else e.name.strip()
        for rname, rule in w.rules(e, c):
            core = system is not None and system.find(rule.id) is rule
            if rule.description.strip() and not core:
                key = (rname.strip(), rule.description.strip(), _gate(rule, links.get(rule.id)))
                found.setdefault(key, set()).add(who)
        for p in w.profiles(e, c):
            text = p.get("Description").strip()
            if p.type_name.lower() == "abilities" and text and \
                    "can be attached to" not in text.lower():
                found.setdefault((p.name.strip(), text, ""), set()).add(who)
    return [(name, text, gate, "" if "*" in who or who >= models or len(models) < 2
             else "; ".join(sorted(who)))
            for (name, text, gate), who in found.items()]


def entry_texts(lib: Library, entry: Entry) -> dict[str, str]:
    """Ability name -> its text, for a datasheet's root entry and the entries below it (its
    models and wargear); core abilities also under their printed spelling
    (``Feel No Pain 6+``)."""
    from ..units.unit import canonical_core

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


__all__ = ["ability_texts", "entry_ability_texts", "entry_rule_texts", "entry_texts",
           "shown_in"]
