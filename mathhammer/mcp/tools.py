"""The tools ``mathhammer mcp`` offers an assistant, free of the SDK: each a name, a
description, a JSON Schema of its arguments and the job a call is.

The query tools are the application layer's queries (docs/app.md): each tool's input schema is
the query's :func:`~mathhammer.app.schema.json_schema` (read from the values' fields and the
options' metadata, :func:`~mathhammer.app.setup.setup_fields`, the same the command line's
options and the page's form are made from) and a call is the page's job of that query
(:func:`mathhammer.jobs.queries.answer`: the same checks, bounds, numbers and one-line errors as
the page). ``search_units`` and ``unit_rules`` are the page's search and unit card.

>>> [t.name for t in TOOLS]
['kills', 'odds', 'table', 'salvo', 'plan', 'army', 'search_units', 'unit_rules']
>>> s = tool("kills").schema
>>> s["required"], s["properties"]["hit_mod"]["maximum"], s["properties"]["crit_hit"]["default"]
(['target'], 6, 6)
>>> tool("table").job({"attackers": ["Cronos"], "targets": ["MEQ"]})
('query', 'compare', {'attackers': ['Cronos'], 'targets': ['MEQ']})
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from ..cache import cached
from ..errors import InputError
from ..limits import MAX_LINE

#: Bytes of one call's arguments as JSON (as the page's request bodies,
#: ``mathhammer.web.app.MAX_BODY_BYTES``).
MAX_ARGUMENT_BYTES = 5_000_000
#: Seconds a call may compute before it is stopped (as the page's, ``mathhammer serve``).
TIMEOUT = 10.0


@attrs.frozen
class Tool:
    """One tool: its name, what it answers, its arguments' JSON Schema, and the job a call's
    arguments are (the kind and arguments of :func:`mathhammer.jobs.run.job`)."""

    name: str
    description: str
    schema: dict[str, Any] = attrs.field(eq=False)
    job: Callable[[dict[str, Any]], tuple[Any, ...]] = attrs.field(eq=False)


_EXACT = ("Every probability and mean is exact: a fraction \"num/den\", each with its float "
          "beside it (\"..._float\"); \"warnings\" says what was guessed or not modelled.")

#: The query tools: (tool, query kind, what it answers).
QUERY_TOOLS = (
    ("kills", "kills", "The exact distributions of one unit attacking another: attacks, hits, "
     "wounds, unsaved wounds, mortal wounds, damage and models killed (a PMF of each), their "
     "means and P(target destroyed), as `mathhammer kills --json`."),
    ("odds", "odds", "One exact probability of an attack (kills) or of a salvo: of at least "
     "(exactly, at most) k kills or of another counter, or of the target destroyed, as "
     "`mathhammer odds --json`."),
    ("table", "compare", "A comparison table: each attacker (a row; by weapon with by=weapon), "
     "or each unit of a pasted army list, against each target (a column; default the standard "
     "targets GEQ, MEQ, TEQ...), by a metric (expected kills, damage, P(destroyed), kills per "
     "100 points), as `mathhammer table --format json`."),
    ("salvo", "salvo", "Several units attacking one target in order, the target's state "
     "carried from one to the next (as `mathhammer kills A B C -t TARGET --json`): the "
     "distributions after each unit (and with until, how many units it takes). Each unit may "
     "carry its own options ({\"unit\": NAME, \"half_range\": true, ...})."),
    ("plan", "plan", "The plan of a phase: which target each unit should shoot to make the most "
     "of the objective (points or models destroyed), every assignment weighed exactly, and with "
     "adaptive the best policy as units see what the others did. Units and targets by name, or "
     "every unit of a pasted list (army, vs_army; \"army:<row>\" and \"vs:<row>\" name one)."),
    ("army", "army", "Read an army list (its text as pasted from the app, New Recruit, "
     "ListForge or BattleScribe, or a file as {\"base64\": ...}): its units, models, points, "
     "the lines not resolved and the rules each unit has, as `mathhammer army FILE --json`. "
     "To compare its units against targets, give it to table as army."),
)


def _query_job(kind: str) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    def job(args: dict[str, Any]) -> tuple[Any, ...]:
        return ("query", kind, args)

    return job


def _search_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("mcp_search", args["query"], args.get("rules"), args.get("faction"))


def _unit_job(args: dict[str, Any]) -> tuple[Any, ...]:
    return ("unit", args["name"], args.get("rules"))


@cached(maxsize=1)
def tools() -> tuple[Tool, ...]:
    """The tools, the queries' schemas read from the application layer."""
    from ..app.schema import json_schema
    from ..app.setup import editions
    from ..jobs.search import SEARCH_LIMIT

    out = []
    for name, kind, what in QUERY_TOOLS:
        schema = {k: v for k, v in json_schema(kind).items() if k not in ("$schema", "title")}
        out.append(Tool(name, f"{what} {_EXACT}", schema, _query_job(kind)))
    edition = {"type": "string", "enum": editions(),
               "description": "The edition (core rule set) of the data to read (default 10e)."}
    unit = {"type": "string", "minLength": 1, "maxLength": MAX_LINE, "description":
            "A unit: a bundled unit's name (MEQ, Cronos...), a datasheet of the server's "
            "BattleScribe data (\"Faction:Unit\" or its name), or an inline profile."}
    out += [
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
             _object({"name": unit, "rules": edition}, ["name"]), _unit_job),
    ]
    return tuple(out)


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


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


__all__ = ["MAX_ARGUMENT_BYTES", "QUERY_TOOLS", "TIMEOUT", "TOOLS", "Tool", "check_arguments",
           "tool", "tools"]
