"""The army endpoints: a pasted army list as a table against targets, or its units in a
``kills`` query (``army:`` and a row's label); and the search of BattleScribe units.

They need :mod:`mathhammer.data.army`; an install without it answers :class:`Unavailable`.

>>> army_table("Hexmark Destroyer", {"attacker": "Cronos"})
Traceback (most recent call last):
...
mathhammer.errors.InputError: attacker: a table of an army list takes no attacker
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any

import attrs

from ..cli.resolve import resolve_attacker, resolve_target
from ..data.inline import is_inline_weapon
from ..errors import InputError
from ..model.options import Options
from ..report.tables import Column, Grid, Row, metric_value, render_json
from .command import parsed_params


class Unavailable(Exception):
    """A feature this install lacks (HTTP 501), with a one-line message."""


def _army_module() -> Any:
    try:
        return importlib.import_module("mathhammer.data.army")
    except ModuleNotFoundError as e:
        if e.name != "mathhammer.data.army":
            raise
        raise Unavailable("army lists and BattleScribe search need mathhammer.data.army, which "
                          "this install of mathhammer does not have") from None


def search_json(query: str, edition: str | None = None) -> list[str]:
    """Units of the installed BattleScribe data whose name matches (``Faction:Unit``)."""
    army = _army_module()
    if len(query.strip()) < 2:
        return []
    return list(army.search_units(query.strip(), edition=edition))[:50]


def _points(unit: Any) -> int | None:
    pts = getattr(unit, "points", None)
    if isinstance(pts, int) and not isinstance(pts, bool):
        return pts
    table = dict(pts or ())
    size = getattr(unit, "size", None)
    return table.get(size[0]) if size else None


def _rules_of(p: Mapping[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(named rules that change the attack, named rules that are mortal-wound rolls)."""
    from ..data.named_rules import find_rule

    rules = [find_rule(n) for n in p["named_rules"]]
    return (tuple(r.name for r in rules if r.mortal_wounds is None),
            tuple(r.name for r in rules if r.mortal_wounds is not None))


def _options_of(p: Mapping[str, Any]) -> Options:
    fields = {f.name for f in attrs.fields(Options)} - {"rules", "abilities"}
    return Options.make(rules=p["ruleset"], abilities=p["abilities"],
                        **{k: v for k, v in p.items() if k in fields and v is not None})


def army_table(text: str, params: Mapping[str, Any]) -> str:
    """A pasted army list against targets, as ``table --format json`` prints a grid (one row
    per unit of the army, attached units as one), plus ``army`` (the parsed list).

    ``params`` are those of the ``table`` call (targets, metric, options, named rules), except
    ``attacker`` and ``by``."""
    army_mod = _army_module()
    params = dict(params)
    for key in ("attacker", "by", "vary"):
        if params.pop(key, None):
            raise InputError(f"{key}: a table of an army list takes no {key}")
    p = parsed_params("table", {**params, "attacker": ["army"]})
    army = army_mod.parse_army(text)
    named, mortal = _rules_of(p)
    if mortal:
        raise InputError(f"--rule {mortal[0]!r} is a mortal-wound roll; a table compares attacks")
    options = _options_of(p)
    opts = attrs.asdict(options, recurse=False)
    targets = p["targets"] or _standard_targets()
    columns = [Column(*resolve_target(t, p["target_models"], p["leader"])) for t in targets]
    phases = [m for m, on in ((False, p["ranged"]), (True, p["melee"])) if on] or [False]
    from ..engine.attack import attack

    rows, values = [], []
    for label, unit in army.rows():
        for melee in phases:
            suffix = (" (melee)" if melee else " (ranged)") if len(phases) > 1 else ""
            points = _points(unit)
            line = []
            for col in columns:
                try:
                    r = attack(unit, col.target, melee=melee, apply=named, **opts)
                except ValueError as e:
                    if "no " in str(e) and "weapons" in str(e):  # e.g. no melee weapons
                        line.append(None)
                        continue
                    raise
                line.append(metric_value(r, p["metric"], points))
            rows.append(Row(label + suffix, (), options, named, points))
            values.append(tuple(line))
    grid = Grid(p["metric"], tuple(rows), tuple(columns), tuple(values), p.get("title") or "")
    data = json.loads(render_json(grid))
    data["army"] = army.to_json()
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


#: How the page names a unit of a pasted army list: ``army:`` and the row's label.
ARMY_REF = "army:"


def _army_unit(army: Any, key: str, ref: str) -> tuple[str, Any]:
    label = ref[len(ARMY_REF):].strip()
    rows = army.rows()
    for name, unit in rows:
        if name == label:
            return name, unit
    known = ", ".join(name for name, _ in rows)
    raise InputError(f"{key} {ref!r}: the army list has no unit {label!r}; it has: {known}")


def army_kills(text: str, params: Mapping[str, Any]) -> str:
    """``kills --json`` where the attacker and/or the target is a unit of a pasted army list
    (``army:`` and its row's label), each used as a bundled unit is."""
    from ..data.inline import parse_weapons
    from ..report.core import Query, kills_json, sequence_json

    army = _army_module().parse_army(text)
    p = parsed_params("kills", params)
    melee = not p["ranged"]
    units = list(p["units"])
    if len(units) not in (1, 2):
        raise InputError("target: expected a unit's name or an inline profile")
    spec, target_spec = (None, units[0]) if len(units) == 1 else units
    if spec is not None and spec.startswith(ARMY_REF):
        label, unit = _army_unit(army, "attacker", spec)
        names = [w for w in p["weapons"] if not is_inline_weapon(w)]
        rows = [x for w in p["weapons"] if is_inline_weapon(w)
                for x in parse_weapons(w, melee=melee)]
        extra = {"weapons": names} if names else {}
        if p["models"] is not None:
            extra["models"] = p["models"]
        profiles = list(unit.as_profiles(melee=melee, **extra)) if names or not rows else []
        try:
            own = unit.as_target(**({"models": p["models"]} if p["models"] else {}))
        except (ValueError, TypeError):
            own = None
        from ..model.profiles import Target

        attacker = (label, tuple(profiles + rows), own if isinstance(own, Target) else None)
    else:
        a = resolve_attacker(spec, p, melee=melee)
        attacker = (a.label, a.profiles, a.profile)
    spec = target_spec
    if spec.startswith(ARMY_REF):
        if p["leader"]:
            raise InputError("--leader: a unit of an army list has the Leader the list gives it")
        name, unit = _army_unit(army, "target", spec)
        target = unit.as_target(**({"models": p["target_models"]} if p["target_models"] else {}))
    else:
        name, target = resolve_target(spec, p["target_models"], p["leader"])
    named, mortal = _rules_of(p)
    if p.get("reanimation") is not None and p.get("turns") is None:
        raise InputError(f"--{'' if p['reanimation'] else 'no-'}reanimation: only with --turns N")
    query = Query(attacker[0], attacker[1], name, target, _options_of(p), named, attacker[2],
                  mortal, p.get("turns"), p.get("reanimation"))
    result = query.run()
    if query.is_sequence:
        data = sequence_json(query, query.run_sequence(), result)
    else:
        data = kills_json(query, result)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _standard_targets() -> list[str]:
    from ..data.units import list_units

    std = list_units(archetype=True)
    std.sort(key=lambda u: (u.groups[0].toughness, -u.groups[0].save, u.name))
    return [u.name for u in std]


__all__ = ["ARMY_REF", "Unavailable", "army_kills", "army_table", "search_json"]
