"""Named rules applied to one attack (docs/rules.md, section 12): every rule whose conditions
hold folds its effect into the weapon, the target and the options. The effects combine in a set
way (modifiers add up, the lowest critical threshold and the broadest re-roll win, switches only
turn on), so the order of the rules does not matter.

The rules are values (:mod:`mathhammer.model.named`); finding them by name is
:func:`mathhammer.data.rules.named.find_rule`, and ``mathhammer.apply_rules`` takes names too.

>>> from mathhammer.model.named import Conditions
>>> artifice = NamedRule("Enslaved Artifice", "Necrons", "stratagem", "attacker", "...",
...                      effects=(Effect((("crit_hit", 5),)),))
>>> fields = NamedRule("Disruption Fields", "Necrons", "stratagem", "attacker", "...",
...                    requires=Conditions(attack="melee"),
...                    effects=(Effect((("strength_mod", 1),)),))
>>> claws = Weapon("Claws", attacks=4, skill=3, strength=5, ap=-1, damage=1, range="melee")
>>> meq = Target(models=5, toughness=4, save=3, wounds=2)
>>> _, _, opts = apply_rules([artifice, fields], claws, meq, Options(), below_half=False)
>>> opts.crit_hit, opts.strength_mod
(5, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import attrs

from ..errors import InputError
from ..model.named import (
    ADDITIVE,
    FIELD_OF,
    LOWEST,
    REROLL_FIELDS,
    SWITCHES,
    TARGET_XPLUS,
    Effect,
    NamedRule,
)
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..prob.dice import dice

_PARAM = re.compile(r"^(sustained hits|rapid fire|melta) (.+)$")



def _param(ability: str) -> tuple[str, str | None]:
    m = _PARAM.match(ability)
    return (m.group(1), m.group(2)) if m else (ability, None)


def _add_ability(current: tuple[str, ...], ability: str) -> tuple[str, ...]:
    """Add ``ability`` to a weapon's abilities. A weapon has each ability once: of two Sustained
    Hits (Melta, Rapid Fire) the one with the higher mean is kept.

    >>> _add_ability(("sustained hits 2", "lance"), "sustained hits 1")
    ('sustained hits 2', 'lance')
    >>> _add_ability(("sustained hits 1", "lance"), "sustained hits D3")
    ('lance', 'sustained hits D3')
    """
    kind, value = _param(ability)
    if value is not None:
        new = dice(value).mean()
        for a in current:
            k, v = _param(a)
            if k == kind and v is not None and dice(v).mean() >= new:
                return current
        current = tuple(a for a in current if _param(a)[0] != kind)
    return current if ability in current else current + (ability,)


def _apply_effect(
    effect: Effect, weapon: Weapon, target: Target, options: Options
) -> tuple[Weapon, Target, Options]:
    opts: dict[str, Any] = {}
    tgt: dict[str, Any] = {}
    for key, value in effect.changes:
        if key in ADDITIVE:
            old = opts.get(key, getattr(options, key))
            if key in effect.not_cumulative and old > 0:
                opts[key] = max(old, value)
            else:
                opts[key] = old + value
        elif key in LOWEST:
            opts[key] = min(getattr(options, key), value)
        elif key in REROLL_FIELDS:  # none < ones < failed < noncrit (none < ones < any)
            opts[key] = FIELD_OF[key].broadest(getattr(options, key), value)
        elif key in SWITCHES:
            opts[key] = True
        elif key == "abilities":
            current = weapon.abilities
            for ability in value:
                current = _add_ability(current, ability)
            weapon = attrs.evolve(weapon, abilities=current)
        elif key in TARGET_XPLUS:
            old = getattr(target, key)
            tgt[key] = value if old is None else min(old, value)
        elif key == "target_abilities":
            tgt["abilities"] = target.abilities + tuple(
                a for a in value if a not in target.abilities
            )
    return weapon, attrs.evolve(target, **tgt), attrs.evolve(options, **opts)


def apply_rules(
    rules: Iterable[NamedRule],
    weapon: Weapon,
    target: Target,
    options: Options,
    *,
    below_half: bool,
    below_starting: bool | None = None,
) -> tuple[Weapon, Target, Options]:
    """The weapon, target and options of one attack with every rule whose conditions hold.

    Rules are applied in order. ``below_starting`` (target below its Starting Strength)
    defaults to ``below_half``, which implies it. Characteristic changes go into the options
    (``strength_mod``, ``ap_mod``, ``skill_mod``...); granted abilities are added to the returned
    weapon (its other fields stay as printed). Conditions are judged on the weapon and options
    as given. A rule that is a mortal-wound roll or changes no numbers is a ValueError.

    >>> from mathhammer.model.named import Conditions, MortalWoundsRoll
    >>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> t = Target(models=5, toughness=4, save=3, wounds=2)
    >>> tyrant = NamedRule("Conquering Tyrant", "Necrons", "stratagem", "attacker", "...",
    ...                    requires=Conditions(attack="ranged", half_range=True),
    ...                    effects=(Effect((("reroll_hits", "ones"),)),))
    >>> _, _, o = apply_rules([tyrant], bolt, t, Options(half_range=True), below_half=False)
    >>> o.reroll_hits.value
    'ones'
    >>> art = NamedRule("Poisoner's Art", "Drukhari", "stratagem", "attacker", "...",
    ...                 mortal_wounds=MortalWoundsRoll("D6", ((4, 6, "D3"),)))
    >>> apply_rules([art], bolt, t, Options(), below_half=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: Poisoner's Art is a mortal-wound roll (D6: 4+ -> D3), not yet ...
    """
    resolved = list(rules)
    for rule in resolved:
        if isinstance(rule, str):
            raise TypeError(f"rules: expected NamedRule values, got the name {rule!r} "
                            "(mathhammer.apply_rules looks names up)")
        if rule.mortal_wounds is not None:
            raise InputError(
                f"{rule.name} is a mortal-wound roll ({rule.mortal_wounds.describe()}), "
                "not yet usable in attack"
            )
        if rule.no_effect:
            raise InputError(f"{rule.name} changes no numbers of an attack: {rule.no_effect}")
        if rule.not_modelled:
            raise InputError(f"{rule.name} is not modelled: {rule.not_modelled}")
    starting = below_half if below_starting is None else below_starting
    state: dict[str, Any] = {"below_half": below_half, "below_starting": starting,
                             "target": target}
    given, given_options = weapon, options
    active = [
        (rule, effect)
        for rule in resolved if rule.requires.holds(given, given_options, **state)
        for effect in rule.effects if effect.requires.holds(given, given_options, **state)
    ]
    # not-cumulative improvements go last, so they see every other modifier whatever the order
    active.sort(key=lambda pair: bool(pair[1].not_cumulative))
    for rule, effect in active:
        try:
            weapon, target, options = _apply_effect(effect, weapon, target, options)
        except ValueError as e:
            raise InputError(f"{rule.name}: {e}") from None
    return weapon, target, options


__all__ = ["apply_rules"]
