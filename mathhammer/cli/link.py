"""``--link``: the web page's address of a query (``kills``, ``odds``, ``table``, ``plan``),
printed instead of its answer, so a player can share it (docs/mcp.md, "Share links").

The address is the page's own state (:mod:`mathhammer.web.links`): opening it on a page served
by ``mathhammer serve`` runs the same query and shows the same numbers. An option the page has
no place for (a file it does not read, ``--vary``, ``--split``...) is refused with one line,
never dropped in silence. The page's base address is ``--page-url``, else
``$MATHHAMMER_PAGE_URL``, else :data:`DEFAULT_PAGE` (where ``mathhammer serve`` listens).

>>> from click.testing import CliRunner
>>> from mathhammer.cli import cli
>>> CliRunner().invoke(cli, ["kills", "Hexmark Destroyer", "MEQ", "--half-range", "--link"]
...                    ).output.strip()
'http://127.0.0.1:8000/#attacker=Hexmark+Destroyer&target=MEQ&half_range=true'
"""

from __future__ import annotations

import base64
import functools
import json
from typing import Any

import click
from click.core import ParameterSource

from ..errors import InputError, marked
from ..web.links import BUDGET, PLAN_TARGETS, PLAN_UNITS, address, page_calls, then_spec
from .params import ENGINE, Param

#: The environment variable of the page's base address.
PAGE_ENV = "MATHHAMMER_PAGE_URL"
#: The page's base address by default: where ``mathhammer serve`` listens.
DEFAULT_PAGE = "http://127.0.0.1:8000/"
_META = "mathhammer.link"


def _remember(ctx: click.Context, _param: Any, value: Any) -> None:
    if value:
        ctx.meta[_META] = True


def _remember_url(ctx: click.Context, _param: Any, value: Any) -> None:
    ctx.meta[f"{_META}.url"] = value


#: The options ``--link`` and ``--page-url`` (kept out of the query's values).
LINK_PARAMS: list[Param] = [
    (("--link",), {"is_flag": True, "expose_value": False, "callback": _remember,
                   "help": "Print the web page's address of this query instead of its answer "
                           "(opened on `mathhammer serve`, it shows the same numbers)."}),
    (("--page-url",), {"metavar": "URL", "envvar": PAGE_ENV, "default": DEFAULT_PAGE,
                       "show_default": True, "expose_value": False, "callback": _remember_url,
                       "help": f"With --link: the page's address (${PAGE_ENV} by default)."}),
]

#: Options about the output, not the query.
_OUTPUT = {"as_json", "full_fractions", "plot", "output", "force", "explain", "exact", "fmt",
           "details"}
#: Every command's attack options that the page's forms hold: the options form, the edition,
#: the named rules and abilities.
_COMMON = {field for _flag, field, _kw in ENGINE} | {"ruleset", "abilities", "named_rules"}
#: The options each command's part of the page holds, by click name.
_HELD = {
    "kills": _COMMON | {"ranged", "weapons", "pistols", "models", "target_models", "leader",
                        "turns", "reanimation", "target_unit", "until_p"},
    "odds": _COMMON | {"ranged", "weapons", "pistols", "models", "target_models", "leader",
                       "turns", "reanimation", "target_unit", "at_least", "destroy", "counter"},
    "table": _COMMON | {"targets", "metric", "by", "ranged", "melee", "army_file",
                        "allow_unresolved"},
    "plan": _COMMON | {"targets", "army_file", "vs_army", "objective", "adaptive", "ranged",
                       "allow_unresolved"},
}


def wants_link(ctx: click.Context) -> bool:
    """Whether the command was given ``--link``."""
    return bool(ctx.meta.get(_META))


#: The page's names in its address of the options that are not its form's (by click name).
_PAGE_NAMES = {"weapons": "weapon", "named_rules": "rule", "ruleset": "rules"}


def api_key(opt: click.Option) -> str:
    """The page's name in its address of an option: its form's name (an ``Options`` field,
    ``rules``, ``abilities``), ``weapon`` and ``rule`` for the first unit's picks, else the
    option's own name (``models``, ``target_models``, ``leader``, ``turns``...)."""
    return _PAGE_NAMES.get(opt.name, opt.name)


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT,
                                                  ParameterSource.DEFAULT_MAP)


def _flag_of(opt: click.Option) -> str:
    return "/".join(o for o in opt.opts if o.startswith("--"))


def _pairs(ctx: click.Context, opt: click.Option) -> list[tuple[str, str]]:
    key, value = api_key(opt), ctx.params[opt.name]
    if opt.is_flag:
        if opt.secondary_opts:
            return [(key, "true" if value else "false")]
        if opt.flag_value is False:
            return [(key, "false")] if value is False else []
        return [(key, "true")] if value else []
    if opt.multiple:
        return [(key, str(v)) for v in value]
    return [] if value is None else [(key, str(value))]


def _rule_name(name: str) -> str:
    """A named rule by its full name (the page's box for it), else as given (a datasheet's
    switch, which the page offers by the name the unit's data gives it).

    >>> _rule_name("Conquering Tyrant")
    'Protocol of the Conquering Tyrant'
    """
    from ..data.rules.named import find_rule

    try:
        return find_rule(name).name
    except (ValueError, LookupError):
        return name


def _army_text(path: str, key: str) -> tuple[str, str]:
    """An army list file as the page holds it: its text (``key``), or a file that is not
    text (a ``.rosz``) as base64 (``key`` + ``_file``)."""
    from ..limits import MAX_ARMY_FILE_BYTES, read_limited

    data = read_limited(path, MAX_ARMY_FILE_BYTES, "MAX_ARMY_FILE_BYTES", "army list")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = ""
    if text and "\0" not in text:
        return key, text
    return f"{key}_file", base64.b64encode(data).decode("ascii")


def link_state(command: str, ctx: click.Context) -> tuple[list[tuple[str, str]], list[str]]:
    """The page's state of the command's query, and what to warn of (the page's data, its
    bound on an adaptive plan). An option the page has no place for is an InputError."""
    p = ctx.params
    options = {o.name: o for o in ctx.command.params if isinstance(o, click.Option)}
    held = _HELD[command]
    for name, opt in options.items():
        if name in held or name in _OUTPUT or name in ("link", "page_url", "data"):
            continue
        if _given(ctx, name):
            raise InputError(f"--link: the page has no place for {_flag_of(opt)} in "
                             f"{'a plan' if command == 'plan' else f'`{command}`'}; drop it, or "
                             "share the command line")
    warnings = []
    if _given(ctx, "data"):
        warnings.append("--link: the page uses the data its server was started with "
                        "(`mathhammer serve --data DIR`), not --data")
    state: list[tuple[str, str]] = []
    units = list(p.get("units") or p.get("attackers") or ())
    if command in ("kills", "odds"):
        if p.get("target_unit"):  # several units into one target
            if not units:
                raise InputError("--link: expected the attacking units")
            state += _salvo_state(ctx, units)
        elif len(units) == 2:
            state += [("attacker", units[0]), ("target", units[1])]
        else:
            raise InputError(f"--link: expected ATTACKER TARGET, got {len(units)} units")
    rules = []
    for name, opt in options.items():
        if name not in held or name in ("target_unit", "until_p", "army_file", "vs_army",
                                        "targets") or not _given(ctx, name):
            continue
        if p.get("target_unit") and name in ("weapons", "models", "named_rules"):
            continue  # each unit's, in the salvo's state
        if command == "table" and name in ("ranged", "melee", "metric", "by"):
            continue
        if command == "odds" and name in ("at_least", "destroy", "counter"):
            continue
        if command == "plan" and name in ("objective", "adaptive", "named_rules"):
            if name == "named_rules":
                rules = [_rule_name(r) for r in p["named_rules"]]
            continue
        if name == "named_rules":
            state += [("rule", _rule_name(r)) for r in p["named_rules"]]
            continue
        state += _pairs(ctx, opt)
    if command == "odds":
        state += _odds_state(ctx)
    if command == "table":
        state += _table_state(ctx, units)
    if command == "plan":
        state += _plan_state(ctx, units, rules, warnings)
    return state, warnings


def _own(spec: str, what: str) -> tuple[str, dict[str, Any]]:
    """A unit as typed (``"NAME --models 5 --weapon X"``): its name and own options, those the
    page holds for one unit (models, weapons, named rules) only."""
    from .table import unit_order

    order = unit_order(spec)
    own = dict(order.changes)
    other = sorted(set(own) - {"models", "weapons", "named_rules"})
    if other:
        raise InputError(f"--link: {what} {spec!r}: the page's units take their own models, "
                         f"weapons and named rules, not {', '.join(other)}")
    return order.unit, own


def _salvo_state(ctx: click.Context, units: list[str]) -> list[tuple[str, str]]:
    """Several units into one target: the first unit's name and picks, then each other unit as
    the page holds it (its JSON); the command's --weapon, --models and --rule given to each."""
    p = ctx.params
    shared_rules = tuple(_rule_name(r) for r in p["named_rules"])
    out: list[tuple[str, str]] = []
    for i, spec in enumerate(units):
        name, own = _own(spec, "unit")
        weapons = tuple(own.get("weapons", ())) or tuple(p["weapons"])
        models = own.get("models", p.get("models"))
        rules = tuple(dict.fromkeys((*shared_rules, *map(_rule_name,
                                                         own.get("named_rules", ())))))
        if i == 0:
            out += [("attacker", name), ("target", p["target_unit"])]
            out += [("models", str(models))] if models is not None else []
            out += [("weapon", w) for w in weapons] + [("rule", r) for r in rules]
        else:
            out.append(("then", then_spec(name, models="" if models is None else str(models),
                                          weapons=weapons, rules=rules)))
    if p.get("until_p"):
        out.append(("until", p["until_p"]))
    return out


def _odds_state(ctx: click.Context) -> list[tuple[str, str]]:
    p = ctx.params
    if p["counter"] not in ("kills", "damage"):
        raise InputError(f"--link: the page's odds count kills or damage, not {p['counter']}")
    out = [("dist", p["counter"])] if p["counter"] != "kills" else []
    if p.get("at_least") is not None:
        out.append(("k", str(p["at_least"])))
    return out  # P(destroyed) is always shown; --exactly and --at-most are refused above


def _table_state(ctx: click.Context, units: list[str]) -> list[tuple[str, str]]:
    p = ctx.params
    if p["ranged"] and p["melee"]:
        raise InputError("--link: the page's comparison is of one phase: --ranged or --melee")
    out = [("ranged", "false")] if p["melee"] else []
    if p.get("army_file"):
        if units:
            raise InputError("--link: the page's comparison is of the army list or of named "
                             "attackers, not both")
        out.append(_army_text(p["army_file"], "army"))
    out += [("row", u) for u in units]
    out += [("vs", t) for t in p["targets"]]
    if p["metric"] != "kills":
        out.append(("metric", p["metric"]))
    if p["by"] != "unit":
        out.append(("by", p["by"]))
    return out


def _plan_state(ctx: click.Context, units: list[str], rules: list[str],
                warnings: list[str]) -> list[tuple[str, str]]:
    from ..engine.plan import ADAPTIVE_BUDGET

    p = ctx.params
    from .table import unit_order

    for u in units:
        order = unit_order(u)
        if order.changes or order.unit != u.strip():
            raise InputError(f"--link: unit {u!r}: the page's plan takes the units' names; "
                             "their options are the plan's (given once, for every unit)")
    for what, given, most in (("attacking units", units, PLAN_UNITS),
                              ("targets", p["targets"], PLAN_TARGETS)):
        if len(given) > most:
            raise InputError(f"--link: {len(given)} {what}; a plan on the page takes at most "
                             f"{most}")
    # the planner's choices (web/static/plan.js): the units named are picked by name, a list's
    # rows named are ticked, and with a list and none of its rows named, every row of it
    out = []
    choice: dict[str, Any] = {"picks": {"army": [], "vs": []}, "on": {}, "every": {}}
    for side, names, prefix, lst in (("army", units, "army:", p.get("army_file")),
                                     ("vs", p["targets"], "vs:", p.get("vs_army"))):
        names = [n.strip() for n in names]
        if lst:
            out.append(_army_text(lst, f"plan_{side}"))
            choice["every"][side] = not any(n.startswith(prefix) for n in names)
        for n in names:
            if lst and n.startswith(prefix):
                choice["on"][f"{side}:row:{n[len(prefix):].strip()}"] = True
            else:
                picks = choice["picks"][side]
                choice["on"][f"{side}:unit:{len(picks)}:{n}"] = True
                picks.append(n)
    if rules:
        choice["rules_all"] = list(rules)
    if p.get("objective"):
        choice["objective"] = p["objective"]
    if p.get("adaptive"):
        choice["adaptive"] = True
        if ADAPTIVE_BUDGET != BUDGET:
            warnings.append(f"--link: the page adapts within {BUDGET:,} joint target states, "
                            f"the command line within {p.get('budget', ADAPTIVE_BUDGET):,}: a "
                            "plan with more states adapts less far on the page")
    out.append(("plan", json.dumps(choice, separators=(",", ":"))))
    return out


def _check(url: str) -> None:
    """The page's queries of the address, read and checked as the page checks them (a file
    named as a unit, a rule set that is not bundled, the page's bounds): an InputError."""
    from ..app.queries import query_from_json
    from ..jobs.queries import check_query

    for _job, kind, body in page_calls(url).values():
        check_query(query_from_json(kind, body))


def print_link(command: str, ctx: click.Context) -> None:
    """Print the page's address of the query (its warnings on standard error)."""
    state, warnings = link_state(command, ctx)
    url = address(ctx.meta.get(f"{_META}.url") or DEFAULT_PAGE, state)
    try:
        _check(url)
    except ValueError as e:
        raise InputError(f"--link: {marked(e)}") from None
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(url)


def linked(name: str, command: click.Command) -> click.Command:
    """The command with ``--link`` and ``--page-url``: given ``--link`` it prints the page's
    address of its query instead of answering it."""
    command.params.extend(click.Option(list(decls), **kwargs) for decls, kwargs in LINK_PARAMS)
    answer = command.callback
    assert answer is not None  # every command of mathhammer has a callback

    @functools.wraps(answer)
    def callback(*args: Any, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        if wants_link(ctx):
            return print_link(name, ctx)
        return answer(*args, **kwargs)

    command.callback = callback
    return command


#: The commands with --link, by the module that defines each (``mathhammer.cli.main.COMMANDS``
#: names them here: each is imported when used, as the others are).
LINKED = {"kills": "attack", "odds": "attack", "table": "table", "plan": "plan"}


def __getattr__(name: str) -> click.Command:
    if name not in LINKED:
        raise AttributeError(name)
    import importlib

    command = linked(name, getattr(importlib.import_module(f"mathhammer.cli.{LINKED[name]}"),
                                   name))
    globals()[name] = command
    return command


__all__ = ["DEFAULT_PAGE", "LINKED", "LINK_PARAMS", "PAGE_ENV", "api_key", "link_state", "linked",
           "print_link", "wants_link"]
