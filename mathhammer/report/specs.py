"""From the words a player types to profiles: the attacker (a unit by name or file, inline
weapon rows, a unit of an army list), the target (a unit, an inline profile, a Leader attached),
named rules sorted into attack rules and mortal-wound rolls, and the options that change nothing.

>>> a = attacker_of("10x 2 | 3+ | 4 | -1 | 1")
>>> a.label, a.profiles[0][1]
('10x A2 3+ S4 AP-1 D1', 10)
>>> target_of("MEQ", models=3)[1].models
3
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from ..data.inline import is_inline_target, is_inline_weapon, parse_squad, parse_weapons
from ..data.names import name_key
from ..errors import InputError
from ..model.loadout import Carried, LeftOut, Loadout, choose, fires_both
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import load_ruleset
from ..model.squad import Squad


@attrs.frozen
class Attacker:
    """A resolved attacker: its label, weapons (each with how many models fire it) and cost."""

    label: str
    profiles: tuple[tuple[Weapon, int], ...]
    points: int | None = None
    #: the unit's own profile (what its Hazardous weapons hurt), when it is a unit
    profile: Target | None = None
    #: the unit's faction and faction keywords (empty for inline weapons)
    factions: tuple[str, ...] = ()
    #: the weapons carried that do not fire, and why (:mod:`mathhammer.model.loadout`)
    left_out: tuple[LeftOut, ...] = ()
    #: the profiles that fire against another target (each choice is made against a target)
    retarget: Callable[[Target | Squad], tuple[tuple[Weapon, int], ...]] | None = attrs.field(
        default=None, eq=False, repr=False)


def attacker_of(spec: str | Any | None, weapons: Iterable[str] = (), *, melee: bool = False,
                models: int | None = None, every_weapon: bool = False, rules: str = "10e",
                data: str | os.PathLike | None = None, target: Target | Squad | None = None,
                options: Options | None = None, named_rules: tuple[str, ...] = (),
                pistols: bool = False, keywords: Iterable[str] = ()) -> Attacker:
    """The attacker a player names: a unit (see :func:`mathhammer.data.lookup.find_unit`),
    inline weapon rows, or a unit value (a :class:`~mathhammer.data.units.Unit`, a unit of an
    army list); ``weapons`` adds inline rows and picks the unit's weapons by name, ``models``
    sizes the unit, ``every_weapon`` takes its optional wargear too.

    Which of them fire follows :mod:`mathhammer.model.loadout`, each choice the best against
    ``target`` under ``options`` and ``named_rules`` (MEQ without a target); ``pistols``: the
    unit is within Engagement Range; ``keywords`` are inline weapons' attacker keywords
    (``VEHICLE`` or ``MONSTER`` fire Pistols with their other guns).

    >>> a = attacker_of("Cronos", ["spirit vortex"], models=2)
    >>> a.label, [(w.name, n) for w, n in a.profiles], a.points  # two models: 100 points
    ('Cronos', [('Spirit vortex', 2)], 100)
    """
    if not (spec is None or isinstance(spec, str) or hasattr(spec, "as_profiles")):
        raise TypeError(f"spec: expected a unit's name, inline weapon rows or a unit, got "
                        f"{type(spec).__name__}")
    if isinstance(weapons, str) or not isinstance(weapons, Iterable):
        raise TypeError("weapons: expected weapon names or inline rows (a list of strings)")
    weapons = tuple(weapons)
    if not all(isinstance(w, str) for w in weapons):
        raise TypeError("weapons: expected weapon names or inline rows (a list of strings)")
    names = [w for w in weapons if not is_inline_weapon(w)]
    inline = [p for row in weapons if is_inline_weapon(row)
              for p in parse_weapons(row, melee=melee)]
    _check_phase(inline, melee)
    if spec is None or isinstance(spec, str) and is_inline_weapon(spec):
        if names:
            raise InputError(f"--weapon {names[0]!r}: picking weapons by name needs a unit as "
                             "ATTACKER")
        if models is not None:
            raise InputError("--models: give inline weapons their models in the row, e.g. "
                             '"10x 2 | 3+ | 4 | -1 | 1"')
        own = parse_weapons(spec, melee=melee) if spec else []
        _check_phase(own, melee)

        def rows(t: Target | Squad | None) -> Loadout:
            return _inline_loadout(own + inline, melee=melee, target=t, options=options,
                                   named_rules=named_rules, pistols=pistols,
                                   keywords=keywords)

        chosen = rows(target)
        profiles = list(chosen.fired)
        label = spec.strip() if spec and len(own) == 1 and not inline else "inline weapons"
        if len(profiles) == 1 and len(own + inline) == 1:
            w, n = profiles[0]
            label = f"{n}x {w.name}"
        return Attacker(label, tuple(profiles), left_out=chosen.left_out,
                        retarget=lambda t: rows(t).fired)
    if isinstance(spec, str):
        from ..data.lookup import find_unit

        unit = find_unit(spec, rules=rules, data=data)
    else:
        unit = spec
    if tuple(keywords):
        raise InputError(f"--attacker-keyword: only for inline weapon rows; {unit.name} has "
                         "its own keywords")
    every = every_weapon and not names and not inline
    if every:
        names = list(dict.fromkeys(w.name for w in unit.weapons(melee=melee)))
        if not names:
            raise InputError(f"{unit.name} has no {'melee' if melee else 'ranged'} weapons")

    def fire(t: Target | Squad | None) -> Loadout:
        choice = {"target": t, "options": options, "named_rules": tuple(named_rules),
                  "pistols": pistols}
        if not names and inline:
            return Loadout(())
        if not hasattr(unit, "loadout"):  # a unit value of another kind: its own choice
            return Loadout(tuple(unit.as_profiles(melee=melee, weapons=names or None,
                                                  models=models)))
        if every:  # one row per weapon: each weapon fires as if alone
            alone = [unit.loadout(melee, [n], models, **choice) for n in names]
            return Loadout(tuple(p for a in alone for p in a.fired))
        return unit.loadout(melee, names or None, models, **choice)

    chosen = fire(target)
    own = list(chosen.fired)
    try:
        profile = unit.as_target(models=models)
    except ValueError:
        profile = None
    if isinstance(profile, Squad):
        profile = None
    faction = getattr(unit, "faction", "")
    factions = (faction, *getattr(unit, "faction_keywords", ())) if faction else ()
    return Attacker(unit.name, tuple(own + inline), unit.cost(models), profile, factions,
                    chosen.left_out, retarget=lambda t: (*fire(t).fired, *inline))


def _inline_loadout(profiles: list[tuple[Weapon, int]], *, melee: bool,
                    target: Target | Squad | None, options: Options | None,
                    named_rules: Iterable[str], pistols: bool,
                    keywords: Iterable[str]) -> Loadout:
    """Inline rows by the same rules: Pistols or the other rows (both for a VEHICLE or
    MONSTER); each row fights (a row is its own models' weapon).

    >>> pistol = parse_weapons("5x 1 | 3+ | 4 | 0 | 1 | pistol")
    >>> rifle = parse_weapons("5x 2 | 3+ | 4 | -1 | 1")
    >>> [n for _, n in _inline_loadout(pistol + rifle, melee=False, target=None, options=None,
    ...                                named_rules=(), pistols=True, keywords=()).fired]
    [5]
    """
    from ..data.unit import value_against

    carried = [Carried(w, n) for w, n in profiles]
    # the rows are the weapons of one group of models: as many as the largest row when
    # shooting (a model shoots its Pistols or its other rows), every row's own when fighting
    counts = [n for _, n in profiles] or [0]
    return choose(carried, [sum(counts) if melee else max(counts)],
                  value_against(target, options, tuple(named_rules)), melee=melee,
                  both=fires_both(tuple(keywords)), pistols=pistols)


def _check_phase(profiles: list[tuple[Weapon, int]], melee: bool) -> None:
    """An inline weapon with a range cannot fight in melee."""
    for w, _n in profiles:
        if melee and not w.melee:
            raise InputError(f'weapon "{w.name}" has a range of {w.range}" but --melee asks for '
                             'melee weapons: write Melee as its range, or drop --melee')


def target_of(spec: str, models: int | None = None, leader: str | None = None, *,
              rules: str = "10e", data: str | os.PathLike | None = None
              ) -> tuple[str, Target | Squad]:
    """The target a player names, with its name: a unit (name or file) or an inline profile
    ``"5x T4 Sv3+ W2 INFANTRY"`` (model groups joined by `` + ``); ``models`` sizes its first
    group, ``leader`` attaches a Leader (:meth:`mathhammer.model.squad.Squad.attach`).

    >>> name, unit = target_of("MEQ", leader="5x T4 Sv2+ W5 CHARACTER")
    >>> name, [g.models for g in unit.groups]
    ('MEQ + 5x T4 Sv2+ W5 CHARACTER', [5, 5])
    """
    for key, value in (("spec", spec), ("leader", leader)):
        if not (isinstance(value, str) or key == "leader" and value is None):
            raise TypeError(f"{key}: expected a unit's name or an inline profile, got "
                            f"{type(value).__name__}")
    if is_inline_target(spec):
        name, target = spec.strip(), parse_squad(spec)
        if models is not None:
            target = _resize(target, models)
    else:
        from ..data.lookup import find_unit

        unit = find_unit(spec, rules=rules, data=data)
        name, target = unit.name, unit.as_target(models=models)
    if leader is None:
        return name, target
    lname, lead = target_of(leader, rules=rules, data=data)
    _check_leader(leader, lname, lead)
    own = target if isinstance(target, Squad) else attrs.evolve(target, name=name)
    lead = lead if isinstance(lead, Squad) else attrs.evolve(lead, name=lead.name or lname)
    unit = Squad.attach(own, lead, name=f"{name} + {lname}")
    return unit.name, unit


def _check_leader(spec: str, name: str, lead: Target | Squad) -> None:
    """Only CHARACTER models lead: a unit whose datasheet lacks the keyword is refused; an
    inline profile without it is attached as one, with a warning (no silent guess).

    >>> target_of("Necron Warriors", leader="MEQ")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --leader 'MEQ': MEQ is not a CHARACTER, so it cannot lead a ...
    """
    import warnings

    groups = lead.groups if isinstance(lead, Squad) else (lead,)
    if all("CHARACTER" in g.keywords for g in groups):
        return
    if not is_inline_target(spec):
        raise InputError(f"--leader {spec!r}: {name} is not a CHARACTER, so it cannot lead a "
                         "unit; give a CHARACTER unit, or an inline profile such as "
                         '"1x T4 Sv3+ W4 CHARACTER"')
    warnings.warn(f"--leader {spec!r}: the profile has no CHARACTER keyword; attached as a "
                  "Leader, its models are CHARACTERs (allocated last)", UserWarning,
                  stacklevel=3)


def _resize(target: Target | Squad, models: int) -> Target | Squad:
    if isinstance(target, Squad):
        first = attrs.evolve(target.groups[0], models=models)
        return attrs.evolve(target, groups=(first, *target.groups[1:]))
    return attrs.evolve(target, models=models)


def split_rules(names: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Named rules that change the attack (``apply=``), and those that are mortal-wound rolls
    (steps after the attack), each by its full name.

    >>> split_rules(["enslaved", "disintegration"])
    (('Enslaved Artifice',), ('Disintegration Beams',))
    """
    from ..data.named_rules import find_rule

    rules = [find_rule(n) for n in names]
    return (tuple(r.name for r in rules if r.mortal_wounds is None),
            tuple(r.name for r in rules if r.mortal_wounds is not None))


def option_warnings(options: Options, named_rules: Iterable[str], attacker: Attacker,
                    lethal_asked: bool = False) -> list[str]:
    """Options that change nothing: 11e-only Lethal Hits choices under another rule set
    (``lethal_asked``: the player chose one), a named rule of another faction than the
    attacking unit's.

    >>> a = attacker_of("Necron Warriors")
    >>> option_warnings(Options(), ["Dark Harvest"], a)  # doctest: +ELLIPSIS
    ["--rule 'Dark Harvest' is a Drukhari rule, but Necron Warriors is Necrons"]
    """
    from ..data.named_rules import find_rule

    out = []
    if lethal_asked and not load_ruleset(options.rules).lethal_optional:
        out.append(f"--lethal-hits {options.lethal_hits} has no effect with --rules "
                   f"{options.rules}: Lethal Hits always wound automatically there (11e lets "
                   "the attacker decline)")
    mine = {name_key(f) for f in attacker.factions}
    if not mine or mine & {"archetypes", ""}:
        return out
    for name in named_rules:
        rule = find_rule(name)
        if name_key(rule.faction) not in mine:
            out.append(f"--rule {rule.name!r} is a {rule.faction} rule, but {attacker.label} is "
                       f"{attacker.factions[0]}")
    return out


def check_work(profiles: Iterable[tuple[Weapon, int]], target: Target | Squad,
               rules: str) -> None:
    """Refuse at once an attack that may roll more dice than the limits allow
    (:func:`mathhammer.engine.work.check_attack_dice`)."""
    from ..engine.work import check_attack_dice

    models = sum(g.models for g in target.groups) if isinstance(target, Squad) else \
        target.models
    check_attack_dice(profiles, models, load_ruleset(rules))
