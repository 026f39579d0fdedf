"""The options the attack commands share (``kills``, ``odds``, ``table`` and ``--vary``): those
of an attack are made from the :class:`~mathhammer.model.options.Options` fields' metadata.

>>> [f for f, field, _ in ENGINE][:3]
['--half-range', '--charged', '--stationary']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs
import click

from ..app.setup import Setup
from ..model.options import Options
from .army import DATA_PARAM


class _Threshold(click.ParamType):
    """An X+ value: ``5`` or ``5+``."""

    name = "X+"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        text = str(value).strip()
        m = re.fullmatch(r"([2-6])\+?", text)
        if not m:
            self.fail(f"expected 2+ to 6+, got {text!r}", param, ctx)
        return int(m.group(1))


class Count(click.ParamType):
    """A number of models: 1 to MAX_MODELS."""

    name = "N"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        from ..limits import MAX_MODELS, over

        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"\d+", text) or int(text[:9]) < 1:
                self.fail(f"expected a number of models >= 1, got {text!r}", param, ctx)
            n = MAX_MODELS + 1 if len(text.lstrip("0")) > 9 else int(text)
        if n > MAX_MODELS:
            self.fail(str(over("models", str(value).strip(), MAX_MODELS, "MAX_MODELS")), param,
                      ctx)
        return n


def _ruleset_name(ctx: Any, param: Any, value: str | None) -> str:
    from ..model.ruleset import load_ruleset

    if value is None:  # the only edition of the data, else 10e (--data is read first)
        from ..data.store.data_folder import default_edition

        value = default_edition(ctx.meta.get("mathhammer.resources") if ctx else None)
    try:
        load_ruleset(value)
    except ValueError as e:
        raise click.BadParameter(str(e), ctx, param) from None
    return value


def _ability(ctx: Any, param: Any, values: tuple[str, ...]) -> tuple[str, ...]:
    from ..model.abilities import canonical

    out = []
    for v in values:
        try:
            out.append(canonical(v))
        except ValueError as e:
            raise click.BadParameter(str(e), ctx, param) from None
    return tuple(out)


def _engine_options() -> list[tuple[str, str, dict[str, Any]]]:
    """(flag, Options field, click keywords) for every Options field that has a help text:
    the command line's attack options are made from the fields' metadata, not kept by hand."""
    out = []
    for f in attrs.fields(Options):
        meta = f.metadata
        if "help" not in meta:
            continue
        flag = "--" + f.name.replace("_", "-")
        if "choices" in meta:
            kwargs: dict[str, Any] = {"type": click.Choice([c.value for c in meta["choices"]])}
        elif "range" in meta:
            kwargs = {"type": _Threshold() if meta["threshold"] else click.IntRange(*meta["range"])}
        elif f.default is True:  # on by default: the flag switches it off
            flag = meta["off_flag"]
            kwargs = {"is_flag": True, "flag_value": False, "default": None}
        else:
            kwargs = {"is_flag": True}
        out.append((flag, f.name, {**kwargs, "help": meta.get("off_help", meta["help"])}))
    return out


#: click options that map one to one onto Options fields: (flag, field, click kwargs).
ENGINE = _engine_options()


#: A click option as declared: its flags and names, and its keyword arguments.
Param = tuple[tuple[str, ...], dict[str, Any]]


def _help(name: str) -> str:
    """The help of a setup's option (:class:`~mathhammer.app.setup.Setup`: one source for the
    command line, the page and a tool server), "(repeatable)" for a list."""
    f = attrs.fields_dict(Setup)[name]
    return f.metadata["help"][:-1] + " (repeatable)." if isinstance(f.default, tuple) else \
        f.metadata["help"]


def attack_params(*, table: bool) -> list[Param]:
    """The options that say how an attack is made (shared by kills, odds, table and --vary),
    their help the setup's (:func:`_help`)."""
    if table:
        phase: list[Param] = [
            (("--ranged",), {"is_flag": True, "help": "Rows for ranged weapons (default)."}),
            (("--melee",), {"is_flag": True,
                            "help": "Rows for melee weapons (with --ranged: both)."}),
        ]
    else:
        phase = [(("--ranged/--melee", "ranged"), {"default": True, "help": _help("ranged")})]
    params: list[Param] = [
        *phase,
        (("--weapon", "-w", "weapons"), {"multiple": True, "metavar": "NAME|ROW",
                                         "help": _help("weapons")}),
        (("--pistols",), {"is_flag": True, "help": _help("pistols")}),
        (("--attacker-keyword", "attacker_keywords"), {
            "multiple": True, "metavar": "KEYWORD", "help": _help("attacker_keywords")}),
        (("--models", "-m"), {"type": Count(), "help": _help("models")}),
        (("--target-models",), {"type": Count(), "help": _help("target_models")}),
        (("--leader",), {"metavar": "UNIT", "help": _help("leader")}),
        (("--detachment",), {"metavar": "NAME", "help": _help("detachment")}),
        (("--enhancement", "enhancements"), {"multiple": True, "metavar": "NAME",
                                             "help": _help("enhancements")}),
        (("--rule", "-r", "named_rules"), {"multiple": True, "metavar": "NAME",
                                           "help": _help("named_rules")}),
        (("--rules", "ruleset"), {"default": None, "callback": _ruleset_name,
                                  "metavar": "10e|11e", "help": _help("rules")}),
        (("--ability", "-a", "abilities"), {"multiple": True, "callback": _ability,
                                            "metavar": "ABILITY", "help": _help("abilities")}),
    ]
    params += [((flag, field), kwargs) for flag, field, kwargs in ENGINE]
    params.append(DATA_PARAM)
    return params


def sequence_params() -> list[Param]:
    """--turns and reanimation (kills and odds)."""
    return [
        (("--turns",), {"type": click.IntRange(1, 20), "metavar": "N",
                        "help": _help("turns")}),
        (("--reanimation/--no-reanimation", "reanimation"), {
            "default": None, "help": _help("reanimation")}),
    ]


def with_params(params: list[Param]) -> Callable:
    """Declare these options on a command, as ``click.option`` decorators would."""
    def decorate(f: Callable) -> Callable:
        for decls, kwargs in reversed(params):
            f = click.option(*decls, **kwargs)(f)
        return f

    return decorate


def as_options(params: list[Param]) -> list[click.Parameter]:
    """The options as click objects (for a command built without decorators)."""
    return [click.Option(list(decls), **kwargs) for decls, kwargs in params]


#: click names of the attack options that are named otherwise in a query's setup
_SETUP_NAMES = {"ruleset": "rules"}


def changes_of(given: dict[str, Any]) -> dict[str, Any]:
    """Options as click parsed them (those given), by their names in a query's setup
    (:class:`~mathhammer.app.setup.Setup`).

    >>> changes_of({"ruleset": "11e", "half_range": True})
    {'rules': '11e', 'half_range': True}
    """
    return {_SETUP_NAMES.get(k, k): v for k, v in given.items()}


def setup_of(p: dict[str, Any]) -> Setup:
    """The setup of a command's attack options, as click parsed them: the one place the
    command line's parameter dict becomes a query's value."""
    engine = {field: p[field] for _, field, _ in ENGINE if p.get(field) is not None}
    return Setup(ranged=p.get("ranged", True) is not False if "melee" not in p else True,
                 weapons=p["weapons"], pistols=bool(p.get("pistols")),
                 attacker_keywords=p.get("attacker_keywords") or (), models=p["models"],
                 target_models=p["target_models"], leader=p["leader"],
                 detachment=p.get("detachment"), enhancements=p.get("enhancements") or (),
                 named_rules=p["named_rules"], rules=p["ruleset"], abilities=p["abilities"],
                 turns=p.get("turns"), reanimation=p.get("reanimation"), engine=engine)
