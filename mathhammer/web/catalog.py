"""What the web page offers, as JSON values: the options form, the units and the named rules.

>>> [o["name"] for o in options_schema()][:3]
['rules', 'half_range', 'charged']
>>> unit_info("MEQ")["statline"], unit_info("3x 2 | 3+ | 4 | 0 | 1")["inline"]
('T4 Sv3+ W2', 'weapons')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs
import click

from ..data.inline import describe_target, describe_weapon, is_inline_target, is_inline_weapon
from ..data.lookup import find_unit
from ..errors import InputError
from ..model.options import Options
from ..report.specs import target_of
from .command import check_spec, editions, parameters


def options_schema() -> list[dict[str, Any]]:
    """Every :class:`~mathhammer.model.options.Options` field as a form control: its API name, flag,
    kind (``bool``, ``int``, ``threshold``, ``choice``, ``list``), default, range and help,
    read from the fields and the ``kills`` command's options (no hand-kept list).

    >>> [o["name"] for o in options_schema()][:3]
    ['rules', 'half_range', 'charged']
    >>> next(o for o in options_schema() if o["name"] == "hit_mod")["max"]
    6
    """
    by_field = {p.name: (k, p) for k, p in parameters("kills").items()}
    by_field["rules"] = ("rules", by_field.pop("ruleset")[1])
    by_field["abilities"] = ("ability", by_field["abilities"][1])
    out = []
    for field in attrs.fields(Options):
        if field.name not in by_field:
            continue
        key, opt = by_field[field.name]
        default = field.default
        entry: dict[str, Any] = {"name": field.name, "key": key,
                                 "flag": (opt.secondary_opts or opt.opts)[0]
                                 if opt.flag_value is False else opt.opts[0],
                                 "help": opt.help or ""}
        if field.name == "rules":
            entry |= {"kind": "choice", "choices": editions(), "default": default}
        elif field.name == "abilities":
            entry |= {"kind": "list", "default": []}
        elif opt.is_flag:
            entry |= {"kind": "bool", "default": default}
        elif isinstance(opt.type, click.Choice):
            none = [""] if default is None else []  # "" stands for None (no re-roll)
            entry |= {"kind": "choice", "choices": [*none, *opt.type.choices],
                      "default": "" if default is None else default}
        elif isinstance(opt.type, click.IntRange):
            entry |= {"kind": "int", "min": opt.type.min, "max": opt.type.max,
                      "default": default}
        else:  # an X+ threshold
            entry |= {"kind": "threshold", "min": 2, "max": 6, "default": default}
        out.append(entry)
    return out


def _weapon_json(w: Any, group: Any) -> dict[str, Any]:
    """A weapon as the page offers it: ``count`` is how many models carry it (None: every
    model, or none for optional wargear), ``max`` the most of it the group may take at its
    largest size (the datasheet's options; else how many models it may have), ``slot`` and
    ``slot_max`` the shared choice it is one of (the most of that choice, all weapons in it
    together; the server refuses picks over it)."""
    size, least = group.max_models, group.min_models
    own = w.max_at(size, least) if hasattr(w, "max_at") else None
    slot = getattr(w, "slot", None)
    return {"name": w.name, "profile": describe_weapon(w.weapon), "melee": w.melee,
            "optional": w.optional, "profile_of": w.profile_of,
            "pistol": "pistol" in describe_weapon(w.weapon).rsplit("|", 1)[-1],
            "count": w.count, "max": size if own is None else own,
            "group": group.name, "slot": slot,
            "slot_max": w.slot_max_at(size, least) if slot is not None else None}


def unit_json(unit: Any) -> dict[str, Any]:
    """A unit as the page shows it: name, faction, sizes, points, statline, weapons (with
    counts), the abilities of its datasheet and the units it may lead.

    >>> w = unit_json(find_unit("Cronos"))["weapons"][0]
    >>> w["name"], w["count"], w["max"]
    ('Spirit syphon', None, 2)
    """
    return {
        "name": unit.name, "faction": unit.faction, "size": list(unit.size),
        "points": [list(p) for p in unit.points], "archetype": unit.archetype,
        "leader": unit.leader, "leads": list(getattr(unit, "leads", ()) or ()),
        "keywords": list(getattr(unit, "keywords", ()) or ()),
        "abilities": [str(a) for a in getattr(unit, "datasheet_abilities", ()) or ()],
        "statline": "; ".join(g.statline() for g in unit.groups),
        "weapons": [_weapon_json(w, g) for g in unit.groups for w in g.weapons],
        "rules": _data_rules(unit),
    }


def _data_rules(unit: Any) -> dict[str, list[dict[str, str]]]:
    """The rules a data unit's abilities make, by side (``attacker``: its attacks,
    ``defender``: attacks against it): those always applied, the switches (conditional, off
    unless named as a ``rule``) and those not modelled (``[]`` for a bundled unit)."""
    from ..data.unit_rules import side_rules, unit_rules

    parts = unit_rules(unit)
    out: dict[str, list[dict[str, str]]] = {}
    for side in ("attacker", "defender"):
        found = side_rules(parts, side)
        out[side] = [{"name": r.name, "state": state, "text": r.text,
                      "why": r.not_modelled or ""}
                     for state, rules in (("applied", found.applied),
                                          ("switch", found.switches),
                                          ("not modelled", found.not_modelled))
                     for r in rules]
        # its rules for other units (they take them by name): said, never offered to it
        out[side] += [{"name": p.rule.name, "state": "for others", "text": p.rule.text,
                       "why": "", "whom": p.whom or p.scope.value}
                      for _bearer, p in found.elsewhere if p.rule.side == side]
    return out


def units_json() -> list[dict[str, Any]]:
    """The bundled units (as :func:`unit_json`)."""
    from ..data.units import list_units

    return [unit_json(u) for u in list_units()]


def unit_info(name: str, rules: str | None = None) -> dict[str, Any]:
    """One unit by name (bundled, or a datasheet of the installed data of the edition of
    ``rules``, ``Faction:Unit``, as :func:`~mathhammer.data.lookup.find_unit` finds it), or an
    inline profile (``{"inline": ..., "profile": ...}``)."""
    text = check_spec("unit", name)
    if is_inline_weapon(text):
        from ..data.inline import parse_weapons

        return {"inline": "weapons",
                "weapons": [{"name": w.name, "profile": describe_weapon(w), "models": n,
                             "melee": w.melee, "optional": False}
                            for w, n in parse_weapons(text)]}
    if is_inline_target(text):
        return {"inline": "target", "profile": describe_target(target_of(text)[1])}
    if rules is not None and rules not in editions():
        raise InputError(f"rules: expected one of {', '.join(editions())}, got {rules!r}")
    unit = find_unit(text, rules=rules or "10e")
    return unit_json(unit) | {"led_by": led_by(text, unit, rules or "10e")}


def led_by(name: str, unit: Any, rules: str = "10e") -> list[str]:
    """The Leaders that may lead ``unit`` (found as ``name``), from the datasheets' Leader
    lists: for a unit of the data, every datasheet of its edition whose Leader ability names it
    (:meth:`mathhammer.data.catalogue.Store.leaders_of`), as ``Faction:Unit`` in the faction
    it was named from (else the first faction that has it); for a bundled unit, the bundled
    Leaders whose ``leads`` names it.

    >>> led_by("MEQ", find_unit("MEQ"))  # no bundled Leader lists MEQ
    []
    """
    from ..data.names import name_key
    from ..data.units import list_units

    key = name_key(unit.name)
    bundled = {u.name for u in list_units()}
    if unit.name in bundled and ":" not in name:
        return [u.name for u in list_units()
                if u.leader and any(name_key(x) == key for x in getattr(u, "leads", ()) or ())]
    from ..data.unit_index import split_faction_unit, unit_index

    index = unit_index("11e" if rules == "11e" else "10e")
    if index.store is None:
        return []
    pair = split_faction_unit(name)
    home = pair[0] if pair else None
    by_unit: dict[str, list[str]] = {}  # a datasheet's name -> the factions that hold it
    for cat in index.catalogues:
        for leader, _key, _own in cat.units:
            by_unit.setdefault(leader, []).append(cat.label)
    out = []
    for leader in index.store.leaders_of(unit.name):
        factions = by_unit.get(leader, [])
        if factions:
            out.append(f"{home if home in factions else factions[0]}:{leader}")
    # those of the faction it was named from first (the others: allies, other chapters)
    out.sort(key=lambda n: n.split(":", 1)[0] != home)
    return out


def rules_json(factions: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The named rules (of these factions, or all), with what each does; a faction without
    named rules (the standard targets) has none.

    >>> [r["name"] for r in rules_json(["Archetypes", "necrons"])][:1]
    ['Inescapable Death']
    """
    from ..data.named_rules import list_rules

    wanted = {f.casefold() for f in factions if f}
    found = [r for r in list_rules() if not wanted or r.faction.casefold() in wanted]
    return [{"name": r.name, "faction": r.faction, "kind": r.kind, "side": r.side,
             "detachment": r.detachment, "describe": r.describe(),
             "mortal_wounds": r.mortal_wounds is not None, "usable": r.usable or
             r.mortal_wounds is not None}
            for r in found]


__all__ = ["led_by", "options_schema", "rules_json", "unit_info", "unit_json", "units_json"]
