"""The tools ``mathhammer mcp`` offers an assistant, free of the SDK: each a name, a
description, a JSON Schema of its arguments and the job a call is.

The schemas are not kept by hand: an attack's options are read from the click options of the
command (``kills``, ``odds``, ``table``), which are made from the
:class:`~mathhammer.model.options.Options` fields' metadata (:mod:`mathhammer.cli.params`), by
the same API names the web page uses (:func:`mathhammer.web.command.parameters`). A call is the
web API's job (:func:`mathhammer.web.api.job`): the same checks, bounds, numbers and one-line
errors as the page and the command line.

>>> names = [t.name for t in TOOLS]
>>> names
['kills', 'odds', 'table', 'salvo', 'plan', 'army', 'search_units', 'unit_rules']
>>> s = tool("kills").schema
>>> s["required"], s["properties"]["hit_mod"]["maximum"], s["properties"]["crit_hit"]["default"]
(['attacker', 'target'], 6, 6)
>>> s["properties"]["reroll_hits"]["enum"]
['ones', 'failed', 'noncrit']
>>> tool("kills").job({"attacker": "Cronos", "target": "MEQ", "half_range": True})
('call', 'kills', {'attacker': 'Cronos', 'target': 'MEQ', 'half_range': True})
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import click

from ..cache import cached
from ..errors import InputError
from ..model.limits import (
    MAX_ARMY_TEXT_BYTES,
    MAX_LINE,
    MAX_MODELS,
    MAX_OPTION_VALUES,
)
from ..model.options import Options

#: Bytes of one call's arguments as JSON (as the page's request bodies,
#: ``mathhammer.web.app.MAX_BODY_BYTES``).
MAX_ARGUMENT_BYTES = 5_000_000
#: Seconds a call may compute before it is stopped (as the page's, ``mathhammer serve``).
TIMEOUT = 10.0

#: Options of the commands that are about output, not the query (the JSON is the output).
_OUTPUT = {"explain"}
#: Options that read files or folders: an assistant names units, the server's data is its own
#: (``mathhammer mcp --data DIR``) and a list is given as its text.
_FILES = {"data", "army", "vs_army"}


def _edition_choices() -> list[str]:
    from ..web.command import editions

    return editions()


def _option_schema(key: str, opt: click.Option) -> dict[str, Any]:
    """The JSON Schema of one option of the command line, by its type and help; an attack's
    option has its :class:`Options` field's default."""
    from ..cli.params import ENGINE

    t = opt.type
    if opt.is_flag:
        item: dict[str, Any] = {"type": "boolean"}
    elif isinstance(t, click.Choice):
        item = {"type": "string", "enum": [str(c) for c in t.choices]}
    elif isinstance(t, click.IntRange):
        item = {"type": "integer"}
        if t.min is not None:
            item["minimum"] = t.min
        if t.max is not None:
            item["maximum"] = t.max
    elif t.name == "X+":  # an X+ threshold (cli.params._Threshold)
        item = {"type": "integer", "minimum": 2, "maximum": 6}
    elif t.name == "N":  # a number of models (cli.params.Count)
        item = {"type": "integer", "minimum": 1, "maximum": MAX_MODELS}
    else:
        item = {"type": "string", "maxLength": MAX_LINE}
    if key == "rules":
        item = {"type": "string", "enum": _edition_choices()}
    fields = {field for _flag, field, _kw in ENGINE}
    by_name = {f.name: f for f in attrs.fields(Options)}
    if opt.name in fields and not opt.multiple:
        item["default"] = _json_default(by_name[opt.name].default)
    elif isinstance(opt.default, bool | int | str) and not opt.multiple:
        item["default"] = opt.default
    help_text = opt.help or ""
    if opt.multiple:
        return {"type": "array", "items": item, "maxItems": MAX_OPTION_VALUES,
                "description": help_text}
    return {**item, "description": help_text}


def _json_default(value: Any) -> Any:
    return value.value if hasattr(value, "value") else value


def _unit(what: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": MAX_LINE, "description": what}


def _units(what: str, most: int, least: int = 1) -> dict[str, Any]:
    return {"type": "array", "items": _unit("a unit"), "minItems": least, "maxItems": most,
            "description": what}


_UNIT_HELP = ("A unit: a bundled unit's name (MEQ, Cronos...), a datasheet of the server's "
              "BattleScribe data (\"Faction:Unit\" or its name), or an inline profile")
_ATTACKER_HELP = (f"{_UNIT_HELP} (weapon rows: \"10x 2 | 3+ | 4 | -1 | 1 | sustained hits "
                  "1\"). \"UNIT + LEADER\" attaches a Leader.")
_TARGET_HELP = f"{_UNIT_HELP} (a target profile: \"10x T4 Sv3+ W2\")."


def _options(command: str, drop: set[str] = frozenset()) -> dict[str, dict[str, Any]]:
    from ..web.command import parameters

    return {key: _option_schema(key, opt) for key, opt in parameters(command).items()
            if key not in _FILES | _OUTPUT | drop}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


@attrs.frozen
class Tool:
    """One tool: its name, what it answers, its arguments' JSON Schema, and the job a call's
    arguments are (the kind and arguments of :func:`mathhammer.web.api.job`)."""

    name: str
    description: str
    schema: dict[str, Any] = attrs.field(eq=False)
    job: Callable[[dict[str, Any]], tuple[Any, ...]] = attrs.field(eq=False)


def _kills_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("call", "kills", args)


def _odds_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("call", "odds", args)


def _table_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("call", "table", args)


def _salvo_job(args: dict[str, Any]) -> tuple[Any, ...]:
    rest = dict(args)
    first, *then = rest.pop("units")
    return ("call", "kills", {"attacker": first, "then": then, **rest})


def _plan_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("plan", args)


def _army_job(args: dict[str, Any]) -> tuple[Any, ...]:
    rest = dict(args)
    return ("army", rest.pop("army"), rest)


def _search_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("mcp_search", args["query"], args.get("rules"), args.get("faction"))


def _unit_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("unit", args["name"], args.get("rules"))


_EXACT = ("Every probability and mean is exact: a fraction \"num/den\", each with its float "
          "beside it (\"..._float\"); \"warnings\" says what was guessed or not modelled.")


@cached(maxsize=1)
def tools() -> tuple[Tool, ...]:
    """The tools, their schemas read from the commands' options."""
    from ..web.army import SEARCH_LIMIT
    from ..web.command import MAX_UNITS as MAX_SALVO
    from ..web.plan import LIMITS, MAX_TARGETS, MAX_UNITS, plan_parameters

    kills = _options("kills", {"then", "until"})
    odds = _options("odds", {"then", "until"})
    table = _options("table")
    plan_opts = {k: v for k, v in kills.items() if k in plan_parameters()}
    army_opts = {k: v for k, v in table.items() if k not in ("by", "vary")}
    edition = {"type": "string", "enum": _edition_choices(),
               "description": "The edition (core rule set) of the data to read (default 10e)."}
    until = {"type": "string", "maxLength": 100, "description":
             "Also the fewest of the units, in order, that destroy the target with "
             "probability at least P (0.9, 90% or 9/10)."}
    return (
        Tool("kills", "The exact distributions of one unit attacking another: attacks, hits, "
             "wounds, unsaved wounds, mortal wounds, damage and models killed (a PMF of each), "
             f"their means and P(target destroyed), as `mathhammer kills --json`. {_EXACT}",
             _object({"attacker": _unit(_ATTACKER_HELP), "target": _unit(_TARGET_HELP), **kills},
                     ["attacker", "target"]), _kills_job),
        Tool("odds", "One exact probability of an attack: of at least (exactly, at most) K "
             "kills, or of something else counted (of), or of the target destroyed, as "
             f"`mathhammer odds --json`. {_EXACT}",
             _object({"attacker": _unit(_ATTACKER_HELP), "target": _unit(_TARGET_HELP), **odds},
                     ["attacker", "target"]), _odds_job),
        Tool("table", "A comparison table: each attacker (a row; by weapon with by=weapon) "
             "against each target (a column; default the standard targets GEQ, MEQ, TEQ...), "
             "by a metric (expected kills, damage, P(destroyed), kills per 100 points), as "
             f"`mathhammer table --format json`. {_EXACT}",
             _object({"attacker": _units(_ATTACKER_HELP, MAX_OPTION_VALUES), **table},
                     ["attacker"]), _table_job),
        Tool("salvo", "Several units attacking one target in order, the target's state carried "
             "from one to the next (as `mathhammer kills A B C -t TARGET --json`): the "
             "distributions after each unit (and with until, how many units it takes). Each "
             "unit may carry its own options (\"Devastator Squad --half-range --weapon 4x "
             f"Lascannon\"). {_EXACT}",
             _object({"units": _units(f"{_ATTACKER_HELP} In the order they attack.",
                                      MAX_SALVO, 2),
                      "target": _unit(_TARGET_HELP), "until": until, **kills},
                     ["units", "target"]), _salvo_job),
        Tool("plan", "The plan of a phase: which target each unit should shoot to make the most "
             "of the objective (points or models destroyed), every assignment weighed exactly, "
             f"and with adaptive the best policy as units see what the others did; {LIMITS}. "
             "Units and targets by name, or every unit of a pasted list (army, vs_army; then "
             f"\"army:<row>\" and \"vs:<row>\" name one). {_EXACT}",
             _object({"units": _units("The attacking units (each may carry its own options: "
                                      "\"NAME --half-range\"), or \"army:<row>\" of army.",
                                      MAX_UNITS),
                      "targets": _units("The targets, or \"vs:<row>\" of vs_army.", MAX_TARGETS),
                      "army": _army_text("The attacking army list's text (pasted)."),
                      "vs_army": _army_text("The enemy's army list's text (pasted)."),
                      "objective": {"type": "string",
                                    "enum": ["points", "model-points", "models"],
                                    "description": "What the plan makes the most of (default: "
                                                   "points when every target's are known)."},
                      "adaptive": {"type": "boolean", "default": False,
                                   "description": "Also the best policy when each unit sees "
                                                  "what the others did before it shoots."},
                      "attach": {"type": "array", "maxItems": MAX_OPTION_VALUES,
                                 "items": {"type": "string", "maxLength": MAX_LINE},
                                 "description": "Attach a Leader to a unit of a list: "
                                                "\"LEADER=UNIT\"."},
                      "reach": {"type": "array", "maxItems": MAX_OPTION_VALUES,
                                "items": {"type": "string", "maxLength": MAX_LINE},
                                "description": "The targets a unit can shoot: "
                                               "\"UNIT=T1,T2@half\" (default: every target)."},
                      **plan_opts}, []), _plan_job),
        Tool("army", "Read an army list (its text as pasted from the app, New Recruit, ListForge "
             "or BattleScribe) and compare its units against targets (default the standard "
             "targets): the units read, their points, the lines not resolved, and a table "
             f"(one row per unit) as `mathhammer table --army FILE --format json`. {_EXACT}",
             _object({"army": _army_text("The army list's text."), **army_opts}, ["army"]),
             _army_job),
        Tool("search_units", "Find units by name: the bundled units and the datasheets of the "
             f"server's BattleScribe data (\"Faction:Unit\", best first, at most {SEARCH_LIMIT}); "
             "with a faction, its units.",
             _object({"query": {"type": "string", "maxLength": 200,
                                "description": "Part of a unit's name (2 characters or more; "
                                               "empty with a faction: all its units)."},
                      "rules": edition,
                      "faction": {"type": "string", "maxLength": 200,
                                  "description": "Only the units of this faction."}},
                     ["query"]), _search_job),
        Tool("unit_rules", "One unit's card: statline, sizes, points, weapons (with how many "
             "models may take each), keywords, its datasheet's abilities and the rules they "
             "make for each side (applied, switches to name as a rule, not modelled with why), "
             "the units it may lead and the Leaders that may lead it.",
             _object({"name": _unit(_UNIT_HELP + "."), "rules": edition}, ["name"]),
             _unit_job),
    )


def _army_text(what: str) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": MAX_ARMY_TEXT_BYTES,
            "description": what}


#: The tools, in the order they are listed.
TOOLS = tools()


def tool(name: str) -> Tool:
    """The tool of this name (an unknown name: an InputError naming the tools)."""
    for t in TOOLS:
        if t.name == name:
            return t
    raise InputError(f"unknown tool {name!r}; the tools are {', '.join(t.name for t in TOOLS)}")


def check_arguments(t: Tool, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
    """The arguments of a call, checked against the tool's schema (``jsonschema``, a
    dependency of the SDK): an InputError naming the argument, what it expects and what it got.

    >>> check_arguments(tool("kills"), {"attacker": "Cronos", "target": "MEQ", "hit_mod": 9})
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: hit_mod: 9 is greater than the maximum of 6
    >>> check_arguments(tool("kills"), {"attacker": "Cronos"})
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: 'target' is a required property
    """
    import jsonschema

    args = dict(arguments or {})
    size = len(json.dumps(args, ensure_ascii=False).encode())
    if size > MAX_ARGUMENT_BYTES:
        raise InputError(f"the arguments are {size} bytes, over the limit of "
                         f"{MAX_ARGUMENT_BYTES} (mathhammer.mcp.tools.MAX_ARGUMENT_BYTES)")
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(t.schema).iter_errors(args))
    if error is None:
        return args
    where = ".".join(str(p) for p in error.absolute_path)
    sizes = {"maxItems": ("values", "at most"), "minItems": ("values", "at least"),
             "maxLength": ("characters", "at most"), "minLength": ("characters", "at least")}
    if error.validator in sizes:  # a bound: said by its size, never by echoing the value
        unit, bound = sizes[error.validator]
        message = f"{len(error.instance)} {unit}; expected {bound} {error.validator_value}"
    else:
        message = error.message if len(error.message) <= 300 else error.message[:300] + "…"
    raise InputError(f"{where}: {message}" if where else message)


__all__ = ["MAX_ARGUMENT_BYTES", "TIMEOUT", "TOOLS", "Tool", "check_arguments", "tool",
           "tools"]
