"""The army endpoints: a pasted army list as a table against targets, or its units in a
``kills`` query (``army:`` and a row's label); and the search of BattleScribe units.

They need :mod:`mathhammer.data.army`; an install without it answers :class:`Unavailable`.

>>> army_table("Hexmark Destroyer", {"attacker": "Cronos"})
Traceback (most recent call last):
...
mathhammer.errors.InputError: attacker: a table of an army list takes no attacker
"""

from __future__ import annotations

import base64
import importlib
import json
from collections.abc import Mapping
from typing import Any

import attrs

from ..cache import cached
from ..cli.army import current_data
from ..cli.params import options_of
from ..cli.resolve import file_rules, switch_on, switches_off
from ..cli.table import army_switches, attacker_rows
from ..data.attached import defending_rules, target_rules
from ..errors import InputError
from ..report.specs import attacker_of, split_rules, target_of
from ..report.tables import (
    Column,
    build_grid,
    phases,
    render_json,
    standard_targets,
)
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


#: Names a search answers at most.
SEARCH_LIMIT = 50


def _edition(edition: str | None) -> str | None:
    from .command import editions

    if edition is not None and edition not in editions():
        raise InputError(f"rules: expected one of {', '.join(editions())}, got {edition!r}")
    return edition


def search_json(query: str, edition: str | None = None, faction: str | None = None
                ) -> list[str]:
    """Units of the installed BattleScribe data whose name matches (``Faction:Unit``), of one
    faction if given (then an empty query lists all its units). Without a faction it is the
    compiled catalogue's ranked search (:func:`mathhammer.data.unit_index.search_names`: the
    exact name first, one row per datasheet)."""
    from ..data.unit_index import search_names

    edition = _edition(edition)
    army = _army_module()
    q = query.strip()
    if len(q) < 2 and not faction:
        return []
    if not faction:
        return search_names(q, edition=edition)[:SEARCH_LIMIT]
    # a faction's units: read from the unit index by their "Faction:" (every installed edition
    # unless one is given), not through the whole search
    from ..data.datastore import installed_editions
    from ..data.names import name_key
    from ..data.unit_index import unit_index

    del army  # the module's presence is checked; the names are the index's
    key = name_key(q)
    found: dict[str, None] = {}
    for ed in [edition] if edition else installed_editions():
        names = sorted({u for c in unit_index(ed).catalogues if c.label == faction
                        for u, _key, _own in c.units}, key=name_key)
        found.update((f"{faction}:{u}", None) for u in names if key in name_key(u))
    return list(found)


def factions_json(edition: str | None = None) -> list[str]:
    """The factions of the installed BattleScribe data (of ``edition``, default 10e)."""
    from ..data.datastore import installed_editions
    from ..data.unit_index import unit_index

    edition = _edition(edition) or "10e"
    if edition not in installed_editions():
        return []
    return sorted({n.split(":", 1)[0] for n in unit_index(edition).names()})


def army_table(text: str, params: Mapping[str, Any]) -> str:
    """A pasted army list against targets, as ``table --format json`` prints a grid (one row
    per unit of the army, attached units as one), plus ``army`` (the parsed list).

    ``params`` are those of the ``table`` call (targets, metric, options, named rules), except
    ``attacker`` and ``by``."""
    params = dict(params)
    for key in ("attacker", "by", "vary"):
        if params.pop(key, None):
            raise InputError(f"{key}: a table of an army list takes no {key}")
    p = parsed_params("table", {**params, "attacker": ["army"]})
    army = read_army(text)
    if "rules" not in params and getattr(army, "edition", None):  # as `table --army`
        p["ruleset"] = army.edition
    columns = [Column(*target_of(t, p["target_models"], p["leader"], rules=p["ruleset"]))
               for t in p["targets"] or standard_targets()]
    asked = phases(p["ranged"], p["melee"])
    elsewhere = army_switches(army)
    rows = []
    for label, unit in army.rows():  # each with its rules from data, as `table --army`
        for melee in asked:
            rows += attacker_rows(label, unit, p, melee=melee, by_weapon=False,
                                  both=len(asked) > 1, vary_text="", elsewhere=elsewhere)
    grid = build_grid(rows, columns, p["metric"], title=p.get("title") or "")
    data = json.loads(render_json(grid))
    data["army"] = army.to_json()
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@cached(maxsize=16)
def _parsed(content: str | bytes, module: Any) -> Any:
    return module.parse_army(content)


def read_army(text: Any) -> Any:
    """The army of a pasted list (its text), or of an uploaded file (``{"base64": ...}``: a
    ``.ros``, ``.rosz`` or text file read in memory by the page). A list is read once per
    content (the cache is keyed on the text)."""
    if isinstance(text, dict) and isinstance(text.get("base64"), str):
        try:
            content: str | bytes = base64.b64decode(text["base64"], validate=True)
        except ValueError:
            raise InputError("army: the uploaded file is not valid base64") from None
    elif isinstance(text, str) and text.strip():
        content = text
    else:
        raise InputError("army: expected the text of an army list, or an uploaded file")
    return _parsed(content, _army_module())


#: How the page names a unit of a pasted army list: ``army:`` and the row's label.
ARMY_REF = "army:"


def army_unit(army: Any, key: str, ref: str, prefix: str = ARMY_REF) -> tuple[str, Any]:
    """The row's label and unit that ``ref`` (``prefix`` and a row's label) names in ``army``."""
    label = ref[len(prefix):].strip()
    rows = army.rows()
    for name, unit in rows:
        if name == label:
            return name, unit
    known = ", ".join(name for name, _ in rows)
    raise InputError(f"{key} {ref!r}: the army list has no unit {label!r}; it has: {known}")


def army_kills(text: str, params: Mapping[str, Any]) -> str:
    """``kills --json`` where the attacker and/or the target is a unit of a pasted army list
    (``army:`` and its row's label), each used as a bundled unit is."""
    from ..report.jsonout import kills_json, sequence_json
    from ..report.scenario import Query

    if params.get("then"):
        raise InputError("then: a unit of an army list does not join several units into one "
                         "target yet; name the units (or plan the list: /api/plan)")
    p = parsed_params("kills", params)  # checked before the list is read
    army = read_army(text)
    if "rules" not in params and getattr(army, "edition", None):  # as `table --army`
        p["ruleset"] = army.edition
    units = list(p["units"])
    if len(units) not in (1, 2):
        raise InputError("target: expected a unit's name or an inline profile")
    spec, target_spec = (None, units[0]) if len(units) == 1 else units
    label = None
    if spec is not None and spec.startswith(ARMY_REF):
        label, spec = army_unit(army, "attacker", spec)
    # each side with its rules from data (its own, its Leader's, its list's detachment's and
    # enhancements'), switches on when --rule names them: as `kills` and `table --army`
    attacker = attacker_of(spec, p["weapons"], melee=not p["ranged"], models=p["models"],
                           rules=p["ruleset"], data=current_data(), options=options_of(p),
                           named_rules=file_rules(p["named_rules"]))
    if label is not None:
        attacker = attrs.evolve(attacker, label=label)
    if target_spec.startswith(ARMY_REF):
        if p["leader"]:
            raise InputError("--leader: a unit of an army list has the Leader the list gives it")
        name, unit = army_unit(army, "target", target_spec)
        target = unit.as_target(models=p["target_models"])
        against = defending_rules(unit, current_data())
    else:
        name, target = target_of(target_spec, p["target_models"], p["leader"],
                                 rules=p["ruleset"])
        against = target_rules(target_spec, p["leader"], rules=p["ruleset"],
                               data=current_data())
    found, rest = switch_on(attacker.rules + against, p["named_rules"], army_switches(army))
    named, mortal = split_rules(rest)
    if p.get("reanimation") is not None and p.get("turns") is None:
        raise InputError(f"--{'' if p['reanimation'] else 'no-'}reanimation: only with --turns N")
    options = options_of(p)
    if attacker.led:
        options = attrs.evolve(options, led=True)
    query = Query(attacker.label, attacker.profiles, name, target, options, named,
                  attacker.profile, mortal, p.get("turns"), p.get("reanimation"),
                  unit_rules=found.applied, not_modelled=found.not_modelled,
                  switches_off=switches_off(found))
    result = query.run()
    if query.is_sequence:
        data = sequence_json(query, query.run_sequence(), result)
    else:
        data = kills_json(query, result)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


__all__ = ["ARMY_REF", "SEARCH_LIMIT", "Unavailable", "army_kills", "army_table", "army_unit",
           "factions_json", "read_army", "search_json"]
