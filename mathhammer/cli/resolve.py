"""From the command line's words to library values: attackers and targets (bundled units, unit
files, BattleScribe names, inline rows), the query they make, and output files.

>>> resolve_target("5x T4 Sv3+ W2")[1].models
5
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs
import click

from ..data.inline import is_inline_target, is_inline_weapon, parse_squad, parse_weapons
from ..errors import InputError
from ..model.profiles import Target, Weapon
from ..model.squad import Squad
from ..report.core import (
    Query,
)
from .output import warn

#: A grid with at least this many cells shows a progress bar (when stderr is a terminal).
from .params import options_of

_CATALOGUE = re.compile(r"^.+?\.(?:cat|json)\s*:\s*\S", re.I)




def _load_unit(spec: str) -> Any:
    """A unit from the bundled units, a unit file, or ``CATALOGUE.cat:Unit name``."""
    from ..data.units import load_unit

    if _CATALOGUE.match(spec) and not Path(spec).is_file():
        from ..data.bsdata import load_catalogue_unit

        return load_catalogue_unit(spec)
    try:
        return load_unit(spec)
    except ValueError as bundled:
        if spec.endswith(".toml") or "/" in spec or "\\" in spec:
            raise
        return _data_unit(spec, bundled)


def _data_unit(spec: str, bundled: ValueError) -> Any:
    """A datasheet by name from the installed BattleScribe data (of the --rules edition)."""
    from ..data.datastore import installed_editions, load_data_unit
    from .army import current_data

    ctx = click.get_current_context(silent=True)
    edition = (ctx.params.get("ruleset") if ctx is not None else None) or "10e"
    edition = edition if edition in ("10e", "11e") else "10e"
    data = current_data()
    if edition not in installed_editions(data):
        raise bundled
    return load_data_unit(spec, edition, data)


@attrs.frozen
class Attacker:
    """A resolved attacker: its label, weapons and cost."""

    label: str
    profiles: tuple[tuple[Weapon, int], ...]
    points: int | None = None
    #: the unit's own profile (for Hazardous), when it is a unit
    profile: Target | None = None
    #: the unit's faction and faction keywords (empty for inline weapons)
    factions: tuple[str, ...] = ()


def _split_weapons(values: Iterable[str]) -> tuple[list[str], list[str]]:
    names, rows = [], []
    for v in values:
        (rows if is_inline_weapon(v) else names).append(v)
    return names, rows


def resolve_attacker(spec: str | None, p: dict[str, Any], *, melee: bool,
                     every_weapon: bool = False) -> Attacker:
    """The attacker of a query: a unit (by name or file) or inline weapon rows, plus the inline
    rows and weapon picks of ``--weapon``; ``every_weapon`` includes optional wargear."""
    names, rows = _split_weapons(p["weapons"])
    inline = [w for r in rows for w in parse_weapons(r, melee=melee)]
    _check_phase(inline, melee)
    if spec is None or is_inline_weapon(spec):
        if names:
            raise InputError(f"--weapon {names[0]!r}: picking weapons by name needs a unit as "
                             "ATTACKER")
        if p["models"] is not None:
            raise InputError("--models: give inline weapons their models in the row, e.g. "
                             '"10x 2 | 3+ | 4 | -1 | 1"')
        own = parse_weapons(spec, melee=melee) if spec else []
        _check_phase(own, melee)
        profiles = own + inline
        label = spec.strip() if spec and len(own) == 1 and not inline else "inline weapons"
        if len(profiles) == 1:
            w, n = profiles[0]
            label = f"{n}x {w.name}"
        return Attacker(label, tuple(profiles))
    unit = _load_unit(spec)
    if every_weapon and not names and not inline:
        names = list(dict.fromkeys(w.name for w in unit.weapons(melee=melee)))
        if not names:
            raise InputError(f"{unit.name} has no {'melee' if melee else 'ranged'} weapons")
    if names or not inline:
        own = unit.as_profiles(melee=melee, weapons=names or None, models=p["models"])
    else:
        own = []
    try:
        profile = unit.as_target(models=p["models"])
    except ValueError:
        profile = None
    if isinstance(profile, Squad):
        profile = None
    factions = (unit.faction, *getattr(unit, "faction_keywords", ()))
    return Attacker(unit.name, tuple(own + inline), unit.cost(p["models"]), profile,
                    factions)


def _check_phase(profiles: list[tuple[Weapon, int]], melee: bool) -> None:
    """An inline weapon with a range cannot fight in melee (``--melee``)."""
    for w, _n in profiles:
        if melee and not w.melee:
            raise InputError(f'weapon "{w.name}" has a range of {w.range}" but --melee asks for '
                             'melee weapons: write Melee as its range, or drop --melee')


def check_options(p: dict[str, Any], attacker: Attacker) -> None:
    """Warn about options that have no effect: an 11e-only option under another rule set, a
    named rule of another faction than the attacking unit's."""
    from ..data.named_rules import find_rule
    from ..model.ruleset import load_ruleset

    if p.get("lethal_hits") is not None and not load_ruleset(p["ruleset"]).lethal_optional:
        warn(f"--lethal-hits {p['lethal_hits']} has no effect with --rules {p['ruleset']}: "
              "Lethal Hits always wound automatically there (11e lets the attacker decline)")
    mine = {_norm_faction(f) for f in attacker.factions}
    if not mine or mine & {"archetypes", ""}:
        return
    for name in p["named_rules"]:
        rule = find_rule(name)
        if _norm_faction(rule.faction) not in mine:
            warn(f"--rule {rule.name!r} is a {rule.faction} rule, but {attacker.label} is "
                  f"{attacker.factions[0]}")


def check_work(profiles: Iterable[tuple[Weapon, int]], target: Target | Squad,
                rules: str) -> None:
    """Refuse at once an attack that may roll more dice than the limits allow."""
    from ..engine.work import check_attack_dice
    from ..model.ruleset import load_ruleset

    models = sum(g.models for g in target.groups) if isinstance(target, Squad) else target.models
    check_attack_dice(profiles, models, load_ruleset(rules).blast_per_models)


def _norm_faction(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").split())


def resolve_target(spec: str, models: int | None = None,
                   leader: str | None = None) -> tuple[str, Target | Squad]:
    """A target by unit name or file, or an inline profile ``"5x T4 Sv3+ W2 INFANTRY"`` (model
    groups joined by `` + ``); ``models`` sizes its first group, ``leader`` attaches a Leader."""
    if is_inline_target(spec):
        name, target = spec.strip(), parse_squad(spec)
        if models is not None:
            target = _resize(target, models)
    else:
        unit = _load_unit(spec)
        name, target = unit.name, unit.as_target(models=models)
    if leader is None:
        return name, target
    lname, lead = resolve_target(leader)
    own = target if isinstance(target, Squad) else attrs.evolve(target, name=name)
    lead = lead if isinstance(lead, Squad) else attrs.evolve(lead, name=lead.name or lname)
    unit = Squad.attach(own, lead, name=f"{name} + {lname}")
    return unit.name, unit


def _resize(target: Target | Squad, models: int) -> Target | Squad:
    if isinstance(target, Squad):
        first = attrs.evolve(target.groups[0], models=models)
        return attrs.evolve(target, groups=(first, *target.groups[1:]))
    return attrs.evolve(target, models=models)


def build_query(args: tuple[str, ...], p: dict[str, Any]) -> Query:
    has_rows = any(is_inline_weapon(w) for w in p["weapons"])
    if len(args) == 2:
        attacker_spec, target_spec = args
    elif len(args) == 1 and has_rows:
        attacker_spec, target_spec = None, args[0]
    else:
        raise click.UsageError(f"expected ATTACKER and TARGET, got {len(args)} argument"
                               f"{'s' * (len(args) != 1)}")
    melee = not p["ranged"]
    attacker = resolve_attacker(attacker_spec, p, melee=melee)
    name, target = resolve_target(target_spec, p["target_models"], p["leader"])
    named, mortal = split_rules(p["named_rules"])
    check_options(p, attacker)
    check_work(attacker.profiles, target, p["ruleset"])
    if p.get("reanimation") is not None and p.get("turns") is None:
        flag = "--reanimation" if p["reanimation"] else "--no-reanimation"
        raise click.UsageError(f"{flag}: only with --turns N")
    return Query(attacker.label, attacker.profiles, name, target, options_of(p), named,
                 attacker.profile, mortal, p.get("turns"), p.get("reanimation"))


def split_rules(names: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Named rules for ``apply=``, and those that are mortal-wound rolls (steps after the
    attack)."""
    from ..data.named_rules import find_rule

    rules = [find_rule(n) for n in names]
    return (tuple(r.name for r in rules if r.mortal_wounds is None),
            tuple(r.name for r in rules if r.mortal_wounds is not None))


def check_output(path: str, force: bool, option: str = "--output") -> Path:
    if not path.strip():
        raise InputError(f"{option}: expected a file name, got {path!r}")
    out = Path(path)
    if out.exists() and not force:
        raise InputError(f"{path}: already exists; use --force to overwrite it")
    if out.is_dir():
        raise InputError(f"{path}: is a folder, expected a file name")
    return out


def emit(text: str, path: Path | None) -> None:
    """Print ``text``, or write it to ``path`` and say so on stderr."""
    if path is None:
        click.echo(text, nl=False)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    click.echo(f"wrote {path}", err=True)


def stderr_is_tty() -> bool:
    return sys.stderr.isatty()
