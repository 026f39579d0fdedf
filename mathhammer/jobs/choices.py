"""What the web page offers, as JSON values: the options form, the units and the named rules.

>>> [o["name"] for o in options_schema()][:3]
['rules', 'half_range', 'charged']
>>> unit_info("MEQ")["statline"], unit_info("3x 2 | 3+ | 4 | 0 | 1")["inline"]
('T4 Sv3+ W2', 'weapons')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..app.setup import ENGINE, editions, setup_fields
from ..app.specs import target_of
from ..data.typed.inline import describe_weapon, is_inline_target, is_inline_weapon
from ..data.typed.lookup import find_unit
from ..errors import InputError
from ..model.loadout import profile_families
from ..model.squad import describe_target
from .queries import check_spec


def options_schema() -> list[dict[str, Any]]:
    """The options of the page's form: ``rules``, every
    :class:`~mathhammer.model.options.Options` field a player sets and ``abilities``, each with
    its JSON name (``name`` and ``key``, the same), flag, kind (``bool``, ``int``,
    ``threshold``, ``choice``, ``list``), default, range and help: read from the query values'
    metadata (:func:`mathhammer.app.setup.setup_fields`; no hand-kept list).

    >>> [o["name"] for o in options_schema()][:3]
    ['rules', 'half_range', 'charged']
    >>> next(o for o in options_schema() if o["name"] == "hit_mod")["max"]
    6
    """
    by_name = {o["name"]: o for o in setup_fields()}
    out = []
    for name in ("rules", *ENGINE, "abilities"):
        o = dict(by_name[name])
        o["key"] = name
        if name == "rules":
            o |= {"kind": "choice", "choices": editions(), "default": "10e"}
        elif o["kind"] == "choice" and o["default"] is None:
            o |= {"choices": ["", *o["choices"]], "default": ""}  # "": None (no re-roll)
        out.append(o)
    return out


def _weapon_json(w: Any, group: Any) -> dict[str, Any]:
    """A weapon as the page offers it: ``weapon`` is the weapon it is a profile of (its own
    name for a weapon of one profile: the command line's ``-w`` picks every profile of a
    weapon by that name, one by its own), ``count`` is how many models carry it (None: every
    model, or none for optional wargear), ``max`` the most of it the group may take at its
    largest size (the datasheet's options; else how many models it may have), ``slot`` and
    ``slot_max`` the shared choice it is one of (the most of that choice, all weapons in it
    together; the server refuses picks over it)."""
    size, least = group.max_models, group.min_models
    own = w.max_at(size, least) if hasattr(w, "max_at") else None
    slot = getattr(w, "slot", None)
    families = profile_families([x.name for x in group.weapons])
    return {"name": w.name, "profile": describe_weapon(w.weapon), "melee": w.melee,
            "optional": w.optional, "profile_of": w.profile_of,
            "weapon": w.profile_of or families.get(w.name, w.name),
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
    from ..data.rules.unit_rules import side_rules, unit_rules

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
    from ..data.units.bundled import list_units

    return [unit_json(u) for u in list_units()]


def unit_info(name: str, rules: str | None = None) -> dict[str, Any]:
    """One unit by name (bundled, or a datasheet of the installed data of the edition of
    ``rules``, ``Faction:Unit``, as :func:`~mathhammer.data.typed.lookup.find_unit` finds it), or an
    inline profile (``{"inline": ..., "profile": ...}``)."""
    text = str(name).strip()
    if not text:
        raise InputError("unit: expected a unit's name or an inline profile, got ''")
    check_spec("unit", text, weapons=True)
    if is_inline_weapon(text):
        from ..data.typed.inline import parse_weapons

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
    (:meth:`mathhammer.data.store.compiled.Store.leaders_of`), as ``Faction:Unit`` in the faction
    it was named from (else the first faction that has it); for a bundled unit, the bundled
    Leaders whose ``leads`` names it.

    >>> led_by("MEQ", find_unit("MEQ"))  # no bundled Leader lists MEQ
    []
    """
    from ..data.typed.names import name_key
    from ..data.units.bundled import list_units

    key = name_key(unit.name)
    bundled = {u.name for u in list_units()}
    if unit.name in bundled and ":" not in name:
        return [u.name for u in list_units()
                if u.leader and any(name_key(x) == key for x in getattr(u, "leads", ()) or ())]
    from ..data.store.index import split_faction_unit, unit_index

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
    from ..data.rules.named import list_rules

    wanted = {f.casefold() for f in factions if f}
    found = [r for r in list_rules() if not wanted or r.faction.casefold() in wanted]
    return [{"name": r.name, "faction": r.faction, "kind": r.kind, "side": r.side,
             "detachment": r.detachment, "describe": r.describe(),
             "mortal_wounds": r.mortal_wounds is not None, "usable": r.usable or
             r.mortal_wounds is not None}
            for r in found]


__all__ = ["led_by", "options_schema", "rules_json", "unit_info", "unit_json", "units_json"]
