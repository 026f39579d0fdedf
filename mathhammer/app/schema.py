"""The JSON schema (draft 2020-12) of each query's JSON (:mod:`mathhammer.app.queries`), read
from the values' fields and the options' metadata (:func:`~mathhammer.app.setup.setup_fields`)
so that it cannot drift from them: the input schema of a tool server's tools, and what the
page sends. It describes what a face that reads no files sends (no list's ``path``, no
``reach_file``: the command line's only).

>>> sorted(json_schema("salvo")["required"])
['target', 'units']
"""

from __future__ import annotations

from typing import Any

from ..engine.plan import Objective
from ..errors import InputError
from .grids import METRICS, RowsBy
from .parts import PER_UNIT
from .queries import QUERIES, VARY_KEYS, ArmyRead, Compare, Kills, Odds, Plan, Salvo
from .scenario import Ask, Counter
from .setup import json_keys, setup_fields

_TYPES: dict[str, dict[str, Any]] = {"bool": {"type": "boolean"}, "int": {"type": "integer"},
          "threshold": {"type": "integer"}, "text": {"type": "string"},
          "list": {"type": "array", "items": {"type": "string"}}}


def _option_schema(o: dict[str, Any]) -> dict[str, Any]:
    out = dict(_TYPES.get(o["kind"], {}))
    if o["kind"] == "choice":
        out = {"enum": [*([None] if o["default"] is None else []), *o["choices"]]}
    if "min" in o:
        out |= {"minimum": o["min"], "maximum": o["max"]}
    if o["name"] in ("models", "target_models", "turns", "leader", "detachment", "rules",
                     "reanimation"):
        out = {"anyOf": [out, {"type": "null"}]}
    return out | {"description": o["help"], "default": o["default"]}


def setup_schema(keys: tuple[str, ...] | None = None) -> dict[str, dict[str, Any]]:
    """The JSON schema of a setup's keys (``keys``: those a query takes)."""
    return {o["name"]: _option_schema(o) for o in setup_fields()
            if keys is None or o["name"] in keys}


_UNIT = {"type": "string", "description": "A unit's name (a unique prefix is enough), "
         "\"Faction:Unit\" of the BattleScribe data, an inline profile (\"5x T4 Sv3+ W2\") or "
         "weapon rows (\"10x 2 | 3+ | 4 | -1 | 1\"), or army:<row> of the army list"}
_ARMY = {"anyOf": [{"type": "string", "description": "the list's text"},
                   {"type": "object", "properties": {"base64": {"type": "string"}},
                    "required": ["base64"], "additionalProperties": False}],
         "description": "An army list: its text, or an uploaded file as {\"base64\": ...}"}
_NAMES = {"type": "array", "items": {"type": "string"}}
_ATTACH = {"type": "array", "items": {"anyOf": [
    {"type": "string", "description": "LEADER=UNIT (army: or vs: before it: which list)"},
    {"type": "object", "properties": {"leader": {"type": "string"}, "unit": {"type": "string"},
                                      "side": {"enum": ["army", "vs"]}},
     "required": ["leader", "unit"], "additionalProperties": False}]}}
_REACH = {"type": "array", "items": {"anyOf": [
    {"type": "string", "description": "UNIT=T1,T2@half"},
    {"type": "object", "properties": {"unit": {"type": "string"}, "targets": _NAMES,
                                      "half": _NAMES},
     "required": ["unit"], "additionalProperties": False}]}}


def _orders_schema() -> dict[str, Any]:
    return {"type": "array", "items": {"anyOf": [_UNIT, {
        "type": "object", "properties": {"unit": _UNIT, **setup_schema(PER_UNIT)},
        "required": ["unit"], "additionalProperties": False}]},
        "description": "The attacking units in order, each a name or {\"unit\": name, and its "
                       "own options}"}


def _variant_schema(keys: tuple[str, ...]) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "object", "properties": {
        "label": {"type": "string"}, **setup_schema(keys)}, "additionalProperties": False}}


def json_schema(kind: str) -> dict[str, Any]:
    """The JSON schema (draft 2020-12) of a query's JSON: what ``from_json`` takes. Read from
    the values' fields and the options' metadata (:func:`~mathhammer.app.setup.setup_fields`),
    so it cannot drift from them.

    >>> s = json_schema("kills")
    >>> s["required"], s["properties"]["half_range"]["type"]
    (['target'], 'boolean')
    >>> sorted(json_schema("odds")["properties"])
    ['ask', 'counter', 'k', 'kills', 'salvo']
    """
    def obj(props: dict[str, Any], required: list[str], doc: str) -> dict[str, Any]:
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": kind,
                "description": doc, "type": "object", "properties": props,
                "required": required, "additionalProperties": False}

    def doc(cls: type) -> str:
        return " ".join((cls.__doc__ or "").split())

    if kind == "kills":
        return obj({"attacker": _UNIT, "target": _UNIT, "army": _ARMY,
                    "explain": {"type": "boolean", "default": False}, **setup_schema()},
                   ["target"], doc(Kills))
    if kind == "salvo":
        return obj({"units": _orders_schema(), "target": _UNIT,
                    "until": {"type": "string", "description": "0.9, 90% or 9/10"},
                    **setup_schema(tuple(k for k in json_keys()
                                         if k not in ("turns", "reanimation")))},
                   ["units", "target"], doc(Salvo))
    if kind == "odds":
        inner = {k: {key: v for key, v in json_schema(k).items() if key != "$schema"}
                 for k in ("kills", "salvo")}
        return obj({**inner, "ask": {"enum": [a.value for a in Ask], "default": "at least"},
                    "k": {"type": "integer", "minimum": 0, "default": 1},
                    "counter": {"enum": [c.value for c in Counter], "default": "kills"}},
                   [], doc(Odds) + " Give one of kills or salvo.")
    if kind == "compare":
        return obj({"attackers": _NAMES, "targets": _NAMES, "army": _ARMY, "vs_army": _ARMY,
                    "defence": {"type": "boolean"}, "attach": _ATTACH,
                    "allow_unresolved": {"type": "boolean"},
                    "metric": {"enum": list(METRICS), "default": "kills"},
                    "by": {"enum": [b.value for b in RowsBy], "default": "unit"},
                    "ranged": {"type": "boolean"}, "melee": {"type": "boolean"},
                    "variants": _variant_schema(VARY_KEYS), "title": {"type": "string"},
                    **setup_schema(Compare.SETUP)}, [], doc(Compare))
    if kind == "plan":
        return obj({"units": _orders_schema(), "targets": _NAMES, "army": _ARMY,
                    "vs_army": _ARMY, "allow_unresolved": {"type": "boolean"},
                    "objective": {"enum": [o.value for o in Objective]},
                    "points": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "destroy": {"type": "string"}, "probability": {"type": "string"},
                    "split": {"type": "boolean"}, "adaptive": {"type": "boolean"},
                    "budget": {"type": "integer", "minimum": 1, "maximum": 1_000_000},
                    "search_budget": {"type": "integer", "minimum": 1, "maximum": 10**9},
                    "tries": _variant_schema(PER_UNIT), "attach": _ATTACH, "reach": _REACH,
                    **setup_schema(Plan.SETUP)}, [], doc(Plan))
    if kind == "army":
        return obj({"army": _ARMY, "rules": {"enum": ["10e", "11e"]}, "attach": _ATTACH,
                    "fmt": {"type": "string"}}, ["army"], doc(ArmyRead))
    raise InputError(f"unknown query {kind!r}; expected one of {', '.join(QUERIES)}")



__all__ = ["json_schema", "setup_schema"]
