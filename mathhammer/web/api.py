"""The JSON API of the web page, free of any web framework.

Why one module: every endpoint is a thin translation of a request into the command line's
arguments, and they share one parser, one worker pool and one error mapping.

An API call is a command of the command line: its parameters (a query string or a JSON
object) become the command's arguments, checked by the same click parser, and the command runs
with ``--json``. So ``/api/kills?attacker=Hexmark+Destroyer&target=MEQ&half_range=true``
answers exactly what ``mathhammer kills "Hexmark Destroyer" MEQ --half-range --json``
prints, and a bad value gets the same one-line message.

>>> argv = to_argv("odds", {"attacker": ["Hexmark Destroyer"], "target": ["MEQ"],
...                         "half_range": ["true"], "at_least": ["2"]})
>>> argv
['odds', '--json', '--half-range', '--at-least=2', '--', 'Hexmark Destroyer', 'MEQ']
>>> status, body = run_command(argv)
>>> status, json.loads(body)["p"]
(200, '54550000/387420489')
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import click

from ..cli.main import cli
from ..data.inline import describe_target, describe_weapon, is_inline_target, is_inline_weapon
from ..data.paths import data_dir
from ..errors import InputError
from ..model.options import Options
from ..report.specs import attacker_of, target_of
from ..report.tables import METRICS, Column, Grid, Row, metric_value, render_json

#: The commands the API runs, each with the output flag that makes it print JSON.
COMMANDS = {"kills": "--json", "odds": "--json", "table": "--format=json"}
#: Options of those commands that the API does not take (files, output shapes).
_HIDDEN = {"as_json", "plot", "output", "force", "exact", "fmt", "help", "version"}
_FILEISH = re.compile(r"[/\\]|\.(?:toml|cat|gst|json)\s*(?::|$)", re.I)
_TRUE = {"true", "1", "on", "yes"}
_FALSE = {"false", "0", "off", "no"}


class Unavailable(Exception):
    """A feature this install lacks (HTTP 501), with a one-line message."""


def _command(name: str) -> click.Command:
    if name not in COMMANDS:
        raise InputError(f"unknown command {name!r}; expected one of {', '.join(COMMANDS)}")
    return cli.get_command(None, name)


def _key(opt: click.Option) -> str:
    """The API name of an option: a boolean pair or a negative flag by its field name
    (``ranged``, ``precision``), any other by its long flag (``--half-range``: ``half_range``)."""
    if opt.is_flag and (opt.secondary_opts or opt.flag_value is False):
        return opt.name
    longs = [o for o in opt.opts if o.startswith("--")]
    return longs[0][2:].replace("-", "_")


def parameters(command: str) -> dict[str, click.Option]:
    """The API parameters of a command besides the units, by API name.

    >>> sorted(parameters("kills"))[:4]
    ['ability', 'ap_mod', 'charged', 'cover']
    """
    return {_key(p): p for p in _command(command).params
            if isinstance(p, click.Option) and p.name not in _HIDDEN}


def _positional(command: str) -> dict[str, bool]:
    """The unit parameters of a command: name -> may be repeated."""
    return {"attacker": True} if command == "table" else {"attacker": False, "target": False}


def _values(raw: Any) -> list[Any]:
    if raw is None:
        return []
    return list(raw) if isinstance(raw, list | tuple) else [raw]


def _bool(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE or text == "":
        return True
    if text in _FALSE:
        return False
    raise InputError(f"{key}: expected true or false, got {value!r}")


def check_spec(key: str, spec: str) -> str:
    """A unit as the page may name it: a bundled or BattleScribe unit or an inline profile; the
    server reads no files on a page's behalf.

    >>> check_spec("target", "../secret.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: target '../secret.toml': the web page reads no files; give a u...
    """
    text = str(spec).strip()
    if not text:
        raise InputError(f"{key}: expected a unit's name or an inline profile, got ''")
    if not (is_inline_weapon(text) or is_inline_target(text)) and _FILEISH.search(text):
        raise InputError(f"{key} {text!r}: the web page reads no files; give a unit's name or "
                         "an inline profile")
    return text


def editions() -> list[str]:
    """The bundled core rule sets (``--rules``), oldest first.

    >>> editions()
    ['10e', '11e']
    """
    return sorted(p.stem for p in (data_dir("rules") / "core").glob("*.toml"))


def to_argv(command: str, params: Mapping[str, Any]) -> list[str]:
    """The command line for an API call: ``params`` maps API names to a value or a list of
    values (strings as in a query string, or JSON values). Units go after ``--`` and option
    values after ``=``, so no value is read as an option."""
    opts = parameters(command)
    units = _positional(command)
    argv = [command, COMMANDS[command]]
    tail: list[str] = []
    for key, raw in params.items():
        values = _values(raw)
        if key in units:
            if len(values) > 1 and not units[key]:
                raise InputError(f"{key}: given {len(values)} times, expected once")
            tail += [check_spec(key, v) for v in values if str(v).strip()]
            continue
        opt = opts.get(key)
        if opt is None:
            known = ", ".join(sorted([*units, *opts]))
            raise InputError(f"unknown parameter {key!r} for {command}; known: {known}")
        if not values:
            continue
        if len(values) > 1 and not opt.multiple:
            raise InputError(f"{key}: given {len(values)} times, expected once")
        flag = next(o for o in opt.opts if o.startswith("--"))
        if opt.is_flag:
            on = _bool(key, values[0])
            if opt.secondary_opts:
                argv.append(flag if on else opt.secondary_opts[0])
            elif on != (opt.flag_value is False):
                argv.append(flag)
            continue
        for v in values:
            text = str(v)
            if key in ("leader", "targets"):
                text = check_spec(key, text)
            if key == "rules" and text not in editions():
                raise InputError(f"rules: expected one of {', '.join(editions())}, got {text!r}")
            argv.append(f"{flag}={text}")
    if command == "table" and not tail:
        raise InputError("attacker: expected at least one attacker")
    if command != "table" and "target" not in params:
        raise InputError("target: expected a unit's name or an inline profile")
    if command != "table" and len(tail) == 1 and "attacker" in params:
        raise InputError("target: expected a unit's name or an inline profile")
    return argv + ["--", *tail]


def one_line(text: Any) -> str:
    """A message on one line (new lines and runs of spaces become one space)."""
    return " ".join(str(text).split())


def run_command(argv: list[str]) -> tuple[int, str]:
    """Run a command line in this process: ``(200, its output)``, or ``(400, the one-line
    error)`` as the command prints it, or ``(500, one line)`` for a fault of mathhammer.

    Output is captured by swapping ``sys.stdout``, so call it where nothing else prints (a
    worker process)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main(argv, prog_name="mathhammer", standalone_mode=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except (ValueError, TypeError) as e:
        return 400, f"mathhammer {argv[0]}: error: {one_line(e)}"
    except Exception as e:  # a bug: one line, no traceback to the page
        return 500, f"mathhammer {argv[0]}: internal error: {type(e).__name__}: {one_line(e)}"
    if code == 0:
        return 200, out.getvalue()
    lines = [x for x in err.getvalue().splitlines() if x.strip()]
    return 400, (lines[-1] if lines else f"mathhammer {argv[0]}: error (exit status {code})")


def call(command: str, params: Mapping[str, Any]) -> tuple[int, str]:
    """An API call from its parameters (see :func:`to_argv`, :func:`run_command`)."""
    try:
        argv = to_argv(command, params)
    except ValueError as e:
        return 400, f"mathhammer {command}: error: {one_line(e)}"
    return run_command(argv)


# --- what the page offers ----------------------------------------------------------------------


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


def _weapon_json(w: Any) -> dict[str, Any]:
    return {"name": w.name, "profile": describe_weapon(w.weapon), "melee": w.melee,
            "optional": w.optional}


def unit_json(unit: Any) -> dict[str, Any]:
    """A unit as the page shows it: name, faction, sizes, points, statline, weapons."""
    return {
        "name": unit.name, "faction": unit.faction, "size": list(unit.size),
        "points": [list(p) for p in unit.points], "archetype": unit.archetype,
        "leader": unit.leader,
        "statline": "; ".join(g.statline() for g in unit.groups),
        "weapons": [_weapon_json(w) for w in unit.weapons()],
    }


def units_json() -> list[dict[str, Any]]:
    """The bundled units (as :func:`unit_json`)."""
    from ..data.units import list_units

    return [unit_json(u) for u in list_units()]


def unit_info(name: str) -> dict[str, Any]:
    """One unit by name (bundled, or a BattleScribe unit's ``Faction:Unit``), or an inline
    profile (``{"inline": ..., "profile": ...}``)."""
    text = check_spec("unit", name)
    if is_inline_weapon(text):
        from ..data.inline import parse_weapons

        return {"inline": "weapons",
                "weapons": [{"name": w.name, "profile": describe_weapon(w), "models": n,
                             "melee": w.melee, "optional": False}
                            for w, n in parse_weapons(text)]}
    if is_inline_target(text):
        return {"inline": "target", "profile": describe_target(target_of(text)[1])}
    from ..data.units import load_unit

    return unit_json(load_unit(text))


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


def _parsed(command: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The command's options as click parses them (the same checks and messages)."""
    argv = to_argv(command, params)
    return cli.get_command(None, command).make_context(command, argv[1:]).params


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
    p = _parsed("table", {**params, "attacker": ["army"]})
    army = army_mod.parse_army(text)
    named, mortal = _rules_of(p)
    if mortal:
        raise InputError(f"--rule {mortal[0]!r} is a mortal-wound roll; a table compares attacks")
    options = _options_of(p)
    opts = attrs.asdict(options, recurse=False)
    targets = p["targets"] or _standard_targets()
    columns = [Column(*target_of(t, p["target_models"], p["leader"], rules=p["ruleset"]))
               for t in targets]
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
    from ..report.jsonout import kills_json, sequence_json
    from ..report.scenario import Query

    army = _army_module().parse_army(text)
    p = _parsed("kills", params)
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
        a = attacker_of(spec, p["weapons"], melee=melee, models=p["models"], rules=p["ruleset"])
        attacker = (a.label, a.profiles, a.profile)
    spec = target_spec
    if spec.startswith(ARMY_REF):
        if p["leader"]:
            raise InputError("--leader: a unit of an army list has the Leader the list gives it")
        name, unit = _army_unit(army, "target", spec)
        target = unit.as_target(**({"models": p["target_models"]} if p["target_models"] else {}))
    else:
        name, target = target_of(spec, p["target_models"], p["leader"], rules=p["ruleset"])
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


def job(kind: str, *args: Any) -> tuple[int, str]:
    """One unit of work for a worker process: ``(HTTP status, body or one-line error)``.

    >>> job("unit", "MEQ")[0], json.loads(job("unit", "MEQ")[1])["statline"]
    (200, 'T4 Sv3+ W2')
    """
    try:
        if kind == "call":
            return call(*args)
        if kind == "unit":
            return 200, json.dumps(unit_info(*args))
        if kind == "search":
            return 200, json.dumps({"units": search_json(*args)})
        if kind == "army":
            return 200, army_table(*args)
        if kind == "army_kills":
            return 200, army_kills(*args)
    except Unavailable as e:
        return 501, f"mathhammer: error: {one_line(e)}"
    except click.UsageError as e:
        return 400, f"mathhammer table: error: {one_line(e.format_message())}"
    except (ValueError, TypeError, OSError) as e:
        return 400, f"mathhammer: error: {one_line(e)}"
    except Exception as e:  # a bug: one line, no traceback to the page
        return 500, f"mathhammer: internal error: {type(e).__name__}: {one_line(e)}"
    raise InputError(f"unknown job {kind!r}")


__all__ = ["ARMY_REF", "COMMANDS", "METRICS", "Unavailable", "army_kills", "army_table", "call",
           "check_spec", "editions", "one_line",
           "job", "options_schema", "parameters", "rules_json", "run_command", "search_json",
           "to_argv", "unit_info", "unit_json", "units_json"]
