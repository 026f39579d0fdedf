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

from ..data.rules.attached import (
    attached_rules,
    leader_notes,
    rules_folder,
    split_attached,
)
from ..data.rules.unit_rules import UnitRules, named_rules_of, offered_to, side_rules, unit_rules
from ..data.typed.inline import is_inline_weapon, parse_weapons
from ..data.typed.names import name_key
from ..errors import InputError, NotCarried, field
from ..model.loadout import LeftOut, Loadout, Score, choose_rows, fires_both
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import load_ruleset
from ..model.squad import Squad
from .targets import target_of  # noqa: F401  (specs answers for both sides)


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
    #: the rules from data of the unit (and its Leader): applied, switches, not modelled
    rules: UnitRules = UnitRules()
    #: a Leader is attached (the attack is made by a unit led by a CHARACTER)
    led: bool = False
    #: what the player should know (a Leader that cannot lead this unit...)
    notes: tuple[str, ...] = ()


def attacker_of(spec: str | Any | None, weapons: Iterable[str] = (), *, melee: bool = False,
                models: int | None = None, every_weapon: bool = False, rules: str = "10e",
                data: str | os.PathLike | None = None, target: Target | Squad | None = None,
                options: Options | None = None, named_rules: tuple[str, ...] = (),
                pistols: bool = False, keywords: Iterable[str] = (),
                detachment: str | None = None, enhancements: Iterable[str] = ()) -> Attacker:
    """The attacker a player names: a unit (see :func:`mathhammer.data.typed.lookup.find_unit`),
    inline weapon rows, or a unit value (a :class:`~mathhammer.data.units.unit.Unit`, a unit of
    an army list); ``weapons`` adds inline rows and picks the unit's weapons by name, ``models``
    sizes the unit, ``every_weapon`` takes its optional wargear too; ``detachment`` and
    ``enhancements`` name rules whose text the unit's catalogue has (BattleScribe data).

    Which of them fire follows :mod:`mathhammer.model.loadout`, each choice the best against
    ``target`` under ``options`` and ``named_rules`` (MEQ without a target); ``pistols``: the
    unit is within Engagement Range; ``keywords`` are inline weapons' attacker keywords
    (``VEHICLE`` or ``MONSTER`` fire Pistols with their other guns).

    >>> a = attacker_of("Cronos", ["spirit vortex"], models=2)
    >>> a.label, [(w.name, n) for w, n in a.profiles], a.points  # two models: 100 points
    ('Cronos', [('Spirit vortex', 2)], 100)
    """
    from ..data.rules.named import resolve_rules
    from ..engine.attack import value_against  # the engine scores weapon choice

    if not (spec is None or isinstance(spec, str) or hasattr(spec, "as_profiles")):
        raise TypeError(f"spec: expected a unit's name, inline weapon rows or a unit, got "
                        f"{type(spec).__name__}")
    if isinstance(weapons, str) or not isinstance(weapons, Iterable):
        raise TypeError("weapons: expected weapon names or inline rows (a list of strings)")
    weapons, named = tuple(weapons), resolve_rules(named_rules)
    if not all(isinstance(w, str) for w in weapons):
        raise TypeError("weapons: expected weapon names or inline rows (a list of strings)")
    names = [w for w in weapons if not is_inline_weapon(w)]
    inline = [p for row in weapons if is_inline_weapon(row)
              for p in parse_weapons(row, melee=melee)]
    _check_phase(inline, melee)
    enhancements = tuple(enhancements)
    if (detachment or enhancements) and (spec is None or isinstance(spec, str)
                                         and is_inline_weapon(spec)):
        raise InputError(f"{field('detachment')} and {field('enhancements')} need a unit from "
                         "the BattleScribe data as ATTACKER")
    if spec is None or isinstance(spec, str) and is_inline_weapon(spec):
        if names:
            raise InputError(f"{field('weapons')} {names[0]!r}: picking weapons by name needs a "
                             "unit as ATTACKER")
        if models is not None:
            raise InputError(f"{field('models')}: give inline weapons their models in the row, "
                             'e.g. "10x 2 | 3+ | 4 | -1 | 1"')
        own = parse_weapons(spec, melee=melee) if spec else []
        _check_phase(own, melee)

        def rows(t: Target | Squad | None) -> Loadout:
            return _inline_loadout(own + inline, melee=melee, pistols=pistols, keywords=keywords,
                                   score=value_against(t, options, named))

        chosen = rows(target)
        profiles = list(chosen.fired)
        label = spec.strip() if spec and len(own) == 1 and not inline else "inline weapons"
        if len(profiles) == 1 and len(own + inline) == 1:
            w, n = profiles[0]
            label = f"{n}x {w.name}"
        return Attacker(label, tuple(profiles), left_out=chosen.left_out,
                        retarget=lambda t: rows(t).fired)
    choice = {"score": value_against(target, options, named), "pistols": pistols}
    if isinstance(spec, str) and (pair := split_attached(spec)) is not None:
        if tuple(keywords):
            raise InputError(f"{field('attacker_keywords')}: only for inline weapon rows; the "
                             "units have their own keywords")

        def led(t: Target | Squad | None) -> Attacker:
            return _attached_attacker(pair, names, inline, melee=melee, models=models,
                                      every_weapon=every_weapon, rules=rules, data=data,
                                      choice=choice | {"score": value_against(
                                          t, options, named)})

        found = led(target)
        return attrs.evolve(found, rules=found.rules + _extra_rules(
            pair, detachment, enhancements, rules, data, attached=found),
            retarget=lambda t: led(t).profiles)
    if isinstance(spec, str):
        from ..data.typed.lookup import find_unit

        unit = find_unit(spec, rules=rules, data=data)
    else:
        unit = spec
    check_size(unit, models)
    if tuple(keywords):
        raise InputError(f"{field('attacker_keywords')}: only for inline weapon rows; "
                         f"{unit.name} has its own keywords")
    every = every_weapon and not names and not inline
    if every:
        names = list(dict.fromkeys(w.name for w in unit.weapons(melee=melee)))
        if not names:
            raise NotCarried(f"{unit.name} has no {'melee' if melee else 'ranged'} weapons")

    def fire(t: Target | Squad | None) -> Loadout:
        choice = {"score": value_against(t, options, named), "pistols": pistols}
        if not names and inline:
            return Loadout(())
        if not hasattr(unit, "loadout"):  # a unit value of another kind: its own choice
            return Loadout(tuple(unit.as_profiles(melee=melee, weapons=names or None,
                                                  models=models)))
        if every:  # one row per weapon: each weapon fires as if alone (one the unit
            alone = []  # cannot carry at this size has no row)
            for n in names:
                try:
                    alone.append(unit.loadout(melee, [n], models, **choice))
                except NotCarried:  # none of it at this size (the size itself is checked)
                    if len(names) == 1:
                        raise
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
    if hasattr(unit, "leader") and hasattr(unit, "bodyguard"):  # an army list's attached pair
        def fired_names(part: Any) -> tuple[str, ...]:
            return tuple(w.name for w, _ in _profiles(part, [], melee=melee, models=None,
                                                      every_weapon=False, choice=choice)[0])

        leads = getattr(unit, "leaders", (unit.leader,))
        applied = attached_rules(unit.bodyguard, leads, "attacker", fired_names(unit.bodyguard),
                                 tuple(n for u in leads for n in fired_names(u)), data)
        applied += side_rules(named_rules_of(unit.leader, [detachment] if detachment else [],
                                             "detachment rule", data), "attacker",
                              bearer=unit.leader.name)
        if enhancements:
            raise InputError(f"{field('enhancements')}: {unit.name} is a unit of an army list, "
                             "which gives its enhancements")
        return Attacker(unit.name, tuple(own + inline), unit.cost(models), profile, factions,
                        chosen.left_out, retarget=lambda t: (*fire(t).fired, *inline),
                        rules=applied, led=True)
    here = rules_folder(spec, data) if isinstance(spec, str) else data
    extra = named_rules_of(unit, [detachment] if detachment else [], "detachment rule", here) \
        + named_rules_of(unit, enhancements, "enhancement", here)
    return Attacker(unit.name, tuple(own + inline), unit.cost(models), profile, factions,
                    chosen.left_out, retarget=lambda t: (*fire(t).fired, *inline),
                    rules=side_rules(unit_rules(unit, here) + extra, "attacker",
                                     bearer=unit.name) + offered_to(unit, "attacker", here))


def check_size(unit: Any, models: int | None) -> None:
    """``models`` the unit cannot have is an error before any weapon is chosen (so that no
    weapon of it is passed over as not carried).

    >>> from mathhammer.data.units.bundled import load_unit
    >>> check_size(load_unit("Cronos"), 3)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: models: expected an integer from 1 to 2 for Cronos, got 3
    """
    if models is not None and hasattr(unit, "as_target"):
        unit.as_target(models=models)


def _extra_rules(pair: tuple[str, str], detachment: str | None, enhancements: tuple[str, ...],
                 rules: str, data: str | os.PathLike | None, attached: Attacker) -> UnitRules:
    """A detachment rule (for the whole attached unit) and enhancements (on its Leader)."""
    from ..data.typed.lookup import find_unit

    if not detachment and not enhancements:
        return UnitRules()
    lead_spec = pair[1]
    lead = find_unit(lead_spec, rules=rules, data=data)
    here = rules_folder(lead_spec, data)
    lead_weapons = tuple(w.name for w, _ in attached.profiles
                         if w.name in {x.name for x in lead.weapons()}
                         or w.name.endswith(f" ({lead.name})"))
    return (side_rules(named_rules_of(lead, [detachment] if detachment else [],
                                      "detachment rule", here), "attacker", bearer=lead.name)
            + side_rules(named_rules_of(lead, enhancements, "enhancement", here), "attacker",
                         own=lead_weapons, leading=True, bearer=lead.name))


def _profiles(unit: Any, names: list[str], *, melee: bool, models: int | None,
              every_weapon: bool, choice: dict[str, Any]
              ) -> tuple[list[tuple[Weapon, int]], set[str], tuple[LeftOut, ...]]:
    """The weapons of one unit of an attached pair that fire (chosen by
    :mod:`mathhammer.model.loadout`), the names it matched, and what is left out."""

    def fired(picked: list[str] | None) -> Loadout:
        if hasattr(unit, "loadout"):
            return unit.loadout(melee, picked, models, **choice)
        return Loadout(tuple(unit.as_profiles(melee=melee, weapons=picked, models=models)))

    alone = every_weapon and not names  # one row per weapon: each fires as if alone
    if alone:
        names = list(dict.fromkeys(w.name for w in unit.weapons(melee=melee)))
        if not names:
            return [], set(), ()
    if not names:
        try:
            out = fired(None)
        except NotCarried:  # no weapons for the phase: the other unit of the pair fires
            return [], set(), ()
        return list(out.fired), set(), out.left_out
    profiles: list[tuple[Weapon, int]] = []
    found: set[str] = set()
    left: list[LeftOut] = []
    for n in names:  # the names this unit of the pair carries
        try:
            picked = fired([n])
        except NotCarried:  # the other unit of the pair carries it (or neither: said below)
            continue
        found.add(n)
        if alone:
            profiles += [p for p in picked.fired if p not in profiles]
            left += [x for x in picked.left_out if x not in left]
    if found and not alone:  # chosen together: the Pistol rule weighs them against each other
        together = fired([n for n in names if n in found])
        profiles, left = list(together.fired), list(together.left_out)
    return profiles, found, tuple(left)


def _attached_attacker(pair: tuple[str, str], names: list[str], inline: list, *, melee: bool,
                       models: int | None, every_weapon: bool, rules: str,
                       data: str | os.PathLike | None, choice: dict[str, Any]) -> Attacker:
    """An attacking unit with its Leader attached: the weapons of both fire; the Leader's
    "while leading" rules apply to every weapon, each unit's own rules to its own weapons."""
    from ..data.typed.lookup import find_unit

    body_spec, lead_spec = pair
    body = find_unit(body_spec, rules=rules, data=data)
    lead = find_unit(lead_spec, rules=rules, data=data)
    check_size(body, models)  # models sizes the Bodyguard
    mine, found, left = _profiles(body, names, melee=melee, models=models,
                                  every_weapon=every_weapon, choice=choice)
    theirs, found2, left2 = _profiles(lead, names, melee=melee, models=None,
                                      every_weapon=every_weapon, choice=choice)
    for n in names:
        if n not in found | found2:
            body.as_profiles(melee=melee, weapons=[n], **choice)  # says which weapons there are
    taken = {w.name for w, _ in mine}
    theirs = [(attrs.evolve(w, name=f"{w.name} ({lead.name})") if w.name in taken else w, k)
              for w, k in theirs]
    if not mine and not theirs and not inline:
        raise NotCarried(f"{body.name} + {lead.name} has no {'melee' if melee else 'ranged'} "
                         "weapons")
    rules_of = attached_rules(body, lead, "attacker",
                              tuple(dict.fromkeys(w.name for w, _ in mine)),
                              tuple(dict.fromkeys(w.name for w, _ in theirs)),
                              rules_folder(body_spec, data), rules_folder(lead_spec, data))
    cost = body.cost(models)
    cost = None if cost is None or lead.cost() is None else cost + lead.cost()
    try:
        profile = body.as_target(models=models)
    except ValueError:
        profile = None
    faction = getattr(body, "faction", "")
    factions = (faction, *getattr(body, "faction_keywords", ())) if faction else ()
    return Attacker(f"{body.name} + {lead.name}", tuple(mine + theirs + inline), cost,
                    profile if isinstance(profile, Target) else None, factions, left + left2,
                    rules=rules_of, led=True, notes=leader_notes(body, lead))


def _inline_loadout(profiles: list[tuple[Weapon, int]], *, melee: bool, score: Score,
                    pistols: bool, keywords: Iterable[str]) -> Loadout:
    """Inline rows by the same rules (:func:`~mathhammer.model.loadout.choose_rows`), each
    choice the higher ``score``: Pistols or the other rows (both for a VEHICLE or MONSTER); one
    melee row per model fights.

    >>> pistol = parse_weapons("5x 1 | 3+ | 4 | 0 | 1 | pistol")
    >>> rifle = parse_weapons("5x 2 | 3+ | 4 | -1 | 1")
    >>> [n for _, n in _inline_loadout(pistol + rifle, melee=False, score=lambda w: w.attacks,
    ...                                pistols=True, keywords=()).fired]
    [5]
    """
    return choose_rows(profiles, score, melee=melee, both=fires_both(tuple(keywords)),
                       pistols=pistols)


def _check_phase(profiles: list[tuple[Weapon, int]], melee: bool) -> None:
    """An inline weapon with a range cannot fight in melee."""
    for w, _n in profiles:
        if melee and not w.melee:
            raise InputError(f'weapon "{w.name}" has a range of {w.range}" but '
                             f"{field('ranged', False)} asks for melee weapons: write Melee as "
                             f"its range, or drop {field('ranged', False)}")


def split_rules(names: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Named rules that change the attack (``apply=``), and those that are mortal-wound rolls
    (steps after the attack), each by its full name.

    >>> split_rules(["enslaved", "disintegration"])
    (('Enslaved Artifice',), ('Disintegration Beams',))
    """
    from ..data.rules.named import find_rule

    rules = [find_rule(n) for n in names]
    return (tuple(r.name for r in rules if r.mortal_wounds is None),
            tuple(r.name for r in rules if r.mortal_wounds is not None))


def option_warnings(options: Options, named_rules: Iterable[str], attacker: Attacker,
                    lethal_asked: bool = False) -> list[str]:
    """Options that change nothing: 11e-only Lethal Hits choices under another rule set
    (``lethal_asked``: the player chose one), a named rule of another faction than the
    attacking unit's.

    >>> a = attacker_of("Necron Warriors")
    >>> from mathhammer.errors import words
    >>> [words(w) for w in option_warnings(Options(), ["Dark Harvest"], a)]
    ["named_rules 'Dark Harvest' is a Drukhari rule, but Necron Warriors is Necrons"]
    """
    from ..data.rules.named import find_rule

    out = []
    if lethal_asked and not load_ruleset(options.rules).lethal_optional:
        out.append(f"{field('lethal_hits')} {options.lethal_hits} has no effect with "
                   f"{field('rules')} {options.rules}: Lethal Hits always wound automatically "
                   "there (11e lets the attacker decline)")
    mine = {name_key(f) for f in attacker.factions}
    if not mine or mine & {"archetypes", ""}:
        return out
    for name in named_rules:
        rule = find_rule(name)
        if name_key(rule.faction) not in mine:
            out.append(f"{field('named_rules')} {rule.name!r} is a {rule.faction} rule, but "
                       f"{attacker.label} is {attacker.factions[0]}")
    return out


def check_work(profiles: Iterable[tuple[Weapon, int]], target: Target | Squad,
               rules: str) -> None:
    """Refuse at once an attack that may roll more dice than the limits allow
    (:func:`mathhammer.engine.work.check_attack_dice`)."""
    from ..engine.work import check_attack_dice

    models = sum(g.models for g in target.groups) if isinstance(target, Squad) else target.models
    check_attack_dice(profiles, models, load_ruleset(rules))
