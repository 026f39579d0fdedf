"""Hypothesis strategies for the input types: ``Weapon``, ``Target``, ``Options`` and PMFs.

Sizes are kept small so that the exact engine (and the brute-force oracle) stay fast.
``option_kwargs`` draws keyword arguments for ``mh.attack``; ``options`` builds ``mh.Options``.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.model.abilities import KEYWORDS as ABILITY_KEYWORDS
from mathhammer.model.abilities import Form

#: Fields of ``mathhammer.model.abilities.Abilities`` no fuzzer draws: they need something a tiny
#: scenario lacks. Every other field is drawn from the model's own keywords
#: (``mathhammer.model.abilities.KEYWORDS``: a flag's name, a keyword with a value's examples),
#: so a keyword added there is fuzzed (``tests/test_oracles.py`` checks it).
NOT_DRAWN = {
    "hazardous": "it hurts the attacker: checked by hand in tests/test_effects.py",
    "precision": "it needs a CHARACTER in the target (tests/test_montecarlo_squads.py)",
}
#: Abilities that change no number but that the oracles must ignore as the engine does.
WITHOUT_EFFECT = ("assault", "psychic")
#: Abilities that change the numbers of one attack against one target.
WEAPON_ABILITIES = (
    *(spelling for kw in ABILITY_KEYWORDS if kw.form is not Form.NO_EFFECT
      and kw.field not in NOT_DRAWN for spelling in kw.spellings),
    *WITHOUT_EFFECT,
)
#: keywords spelled with a dice value: at most one of each on a weapon (a second replaces it)
_ONE_OF = tuple(kw.name for kw in ABILITY_KEYWORDS if kw.form is Form.DICE)
KEYWORDS = ("INFANTRY", "VEHICLE", "MONSTER")
REROLLS = (None, "ones", "failed", "noncrit")


def dice_values(flat: tuple[int, ...] = (1, 2, 3), rolled: tuple[str, ...] = ("D3",)):
    """A characteristic that is a number or a dice expression."""
    return st.sampled_from(flat + rolled)


def abilities(pool: tuple[str, ...] = WEAPON_ABILITIES, max_size: int = 3):
    """A few distinct weapon abilities (at most one Sustained Hits, one Melta...)."""

    def one_of_each(values: list[str]) -> bool:
        return all(sum(v.startswith(k) for v in values) <= 1 for k in _ONE_OF)

    return st.lists(st.sampled_from(pool), max_size=max_size, unique=True).filter(one_of_each)


@st.composite
def weapons(draw, attacks=None, damage=None, ability_pool: tuple[str, ...] = WEAPON_ABILITIES,
            max_abilities: int = 3) -> mh.Weapon:
    """A weapon profile, ranged or melee."""
    return mh.Weapon(
        draw(st.sampled_from(["Gun", "Blade", "Cannon"])),
        attacks=draw(attacks if attacks is not None else dice_values((1, 2, 3), ("D3",))),
        skill=draw(st.sampled_from([None, 2, 3, 4, 5, 6])),
        strength=draw(st.integers(1, 12)),
        ap=draw(st.integers(-4, 0)),
        damage=draw(damage if damage is not None else dice_values((1, 2, 3), ("D3", "D6"))),
        abilities=draw(abilities(ability_pool, max_abilities)),
        range=draw(st.sampled_from([24, 12, "melee"])),
    )


@st.composite
def targets(draw, models=None, wounds=None) -> mh.Target:
    """A target unit of identical models."""
    return mh.Target(
        models=draw(models if models is not None else st.integers(1, 6)),
        toughness=draw(st.integers(2, 10)),
        save=draw(st.integers(2, 7)),
        wounds=draw(wounds if wounds is not None else st.integers(1, 4)),
        invuln=draw(st.sampled_from([None, None, 3, 4, 5, 6])),
        fnp=draw(st.sampled_from([None, None, 4, 5, 6])),
        keywords=draw(st.lists(st.sampled_from(KEYWORDS), max_size=2, unique=True)),
        abilities=draw(st.sampled_from([(), (), ("stealth",)])),
        fnp_mortal=draw(st.sampled_from([None, None, None, 3, 5])),
        fnp_psychic=draw(st.sampled_from([None, None, None, 4])),
    )


#: How the fuzzers draw the options of ``mh.Options`` (small values, so that the oracles stay
#: fast); an option not listed here nor in ``NOT_DRAWN_OPTIONS`` is drawn from its metadata
#: (:func:`_from_metadata`), so a new option is fuzzed (``tests/test_oracles.py``).
_CHOSEN_DRAWS = {
    "half_range": st.booleans(),
    "charged": st.booleans(),
    "stationary": st.booleans(),
    "cover": st.booleans(),
    "overwatch": st.booleans(),
    "attacks_mod": st.integers(-1, 1),
    "hit_mod": st.integers(-2, 2),
    "wound_mod": st.integers(-2, 2),
    "wound_mod_if_stronger": st.integers(-1, 1),
    "save_mod": st.integers(-1, 2),
    "damage_mod": st.integers(-1, 1),
    "ap_mod": st.integers(-1, 2),
    "skill_mod": st.integers(-1, 1),
    "strength_mod": st.integers(-1, 1),
    "crit_hit": st.integers(5, 6),
    "crit_wound": st.integers(5, 6),
    "crit_wound_ap": st.integers(0, 2),
    "reroll_hits": st.sampled_from(REROLLS),
    "reroll_wounds": st.sampled_from(REROLLS),
    "halve_damage": st.booleans(),
    "reroll_damage": st.sampled_from([None, "ones", "any"]),
    "double_attacks": st.booleans(),
    "halve_attacks": st.booleans(),
    "unmodified_hits_on": st.sampled_from([2, 4, 7]),
    "overwatch_hits_on": st.integers(5, 6),
    "ignore_hit_modifiers": st.booleans(),
    "ignore_skill_modifiers": st.booleans(),
    "ignore_wound_modifiers": st.booleans(),
    "abilities": st.lists(st.sampled_from(["lethal hits", "sustained hits 1",
                                           "devastating wounds", "ignores cover"]),
                          max_size=1),
}
NOT_DRAWN_OPTIONS = {
    "rules": "the fuzzers play 10e; the 11e rule set has its own tests (tests/test_11e*.py)",
    "led": "only a named rule's conditions read it (tests/test_named_rules.py)",
    "lethal_hits": "an 11e choice; the fuzzers play 10e",
    "precision": "it needs a CHARACTER in the target (tests/test_montecarlo_squads.py)",
}




def _from_metadata(field: attrs.Attribute) -> st.SearchStrategy:
    """A switch either way; a number its default or one step from it, within its range; a
    choice any of them; abilities one of the drawn ones."""
    meta = field.metadata
    if isinstance(field.default, bool):
        return st.booleans()
    if "range" in meta:
        lo, hi = meta["range"]
        return st.sampled_from(sorted({max(lo, min(hi, field.default + d)) for d in (-1, 0, 1)}))
    if "choices" in meta:
        return st.sampled_from([*([None] if field.default is None else []), *meta["choices"]])
    return st.lists(st.sampled_from(WEAPON_ABILITIES), max_size=1)


#: How the fuzzers draw each option they draw: every option but ``NOT_DRAWN_OPTIONS``.
OPTION_DRAWS = {
    **{f.name: _from_metadata(f) for f in attrs.fields(mh.Options)
       if f.name not in _CHOSEN_DRAWS and f.name not in NOT_DRAWN_OPTIONS},
    **_CHOSEN_DRAWS,
}


@st.composite
def option_kwargs(draw, max_changes: int = 6) -> dict[str, Any]:
    """Keyword arguments for ``mh.attack`` / ``mh.Options`` (10e), a few at a time."""
    choices = OPTION_DRAWS
    names = draw(st.lists(st.sampled_from(sorted(choices)), max_size=max_changes, unique=True))
    return {name: draw(choices[name]) for name in names}


def options(max_changes: int = 6):
    """An ``mh.Options``."""
    return option_kwargs(max_changes).map(lambda kw: mh.Options(**kw))


def pmfs(outcomes=None, max_size: int = 5):
    """A small PMF over integers, with integer weights."""
    outcomes = outcomes if outcomes is not None else st.integers(-3, 8)
    return st.dictionaries(outcomes, st.integers(1, 6), min_size=1, max_size=max_size).map(mh.PMF)


def max_attacks(weapon: mh.Weapon, target_models: int, half_range: bool,
                double: bool = False) -> int:
    """The most attacks one model can make with ``weapon`` (to keep brute force tiny);
    ``double``: its Attacks are doubled."""
    ab = weapon.parsed
    top = max(mh.dice(weapon.attacks).outcomes()) * (2 if double else 1)
    if ab.rapid_fire and half_range:
        top += max(mh.dice(ab.rapid_fire).outcomes())
    top += ab.per_target_models * (target_models // 5)
    return top


@st.composite
def tiny_scenarios(draw, max_total_attacks: int = 3):
    """``(profiles, target, options)`` small enough to brute-force die by die: at most
    ``max_total_attacks`` attacks in all, one or two weapons, small Damage."""
    kwargs = draw(option_kwargs())
    target = draw(targets(models=st.integers(1, 6), wounds=st.integers(1, 3)))
    n_weapons = draw(st.integers(1, 2))
    profiles = []
    for _ in range(n_weapons):
        weapon = draw(weapons(attacks=st.sampled_from([1, 1, 2, "D3"]),
                              damage=st.sampled_from([1, 2, "D3"]), max_abilities=3))
        profiles.append((weapon, draw(st.integers(1, 2))))
    half = kwargs.get("half_range", False)
    double = kwargs.get("double_attacks", False) and not kwargs.get("halve_attacks", False)
    total = sum(n * max_attacks(w, target.models, half, double) for w, n in profiles)
    if total > max_total_attacks:
        profiles = profiles[:1]
        weapon, _ = profiles[0]
        if max_attacks(weapon, target.models, half, double) > max_total_attacks:
            weapon = mh.Weapon(weapon.name, attacks=1, skill=weapon.skill,
                               strength=weapon.strength, ap=weapon.ap, damage=weapon.damage,
                               abilities=[a for a in weapon.abilities
                                          if not a.startswith(("rapid fire", "blast", "cleave"))],
                               range=weapon.range)
        profiles = [(weapon, 1)]
    return profiles, target, kwargs
