"""Weapon and target profiles: small frozen values, validated on creation.

>>> Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1, abilities=["Heavy"])
... # doctest: +NORMALIZE_WHITESPACE
Weapon(name='Bolt rifle', attacks='2', skill=3, strength=4, ap=-1, damage='1',
       abilities=('heavy',), range=24)
>>> Target(models=5, toughness=4, save=3, wounds=2).total_wounds
10
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property

import attrs

from ..errors import InputError
from ..limits import (
    MAX_FLAT,
    MAX_MODELS,
    MAX_RANGE,
    MAX_STRENGTH,
    MAX_TOUGHNESS,
    MAX_WOUNDS,
    over,
    shorten,
)
from ..prob.dice import EVERYDAY, format_dice
from .abilities import CANONICAL, Abilities, canonical, parse_abilities

_NO_ABILITIES = Abilities()  # a weapon without abilities (most): made once


def _int_in(name: str, lo: int, hi: int | None = None, *, optional: bool = False,
            limit: str = ""):
    """A validator: an int from ``lo`` to ``hi``; ``limit`` names the constant of
    :mod:`mathhammer.limits` that ``hi`` is."""
    top = hi if hi is not None else float("inf")

    def check(_inst, _attr, value):
        if type(value) is int and lo <= value <= top:  # the common case, at once
            return
        if value is None and optional:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{name}: expected an integer, got {shorten(repr(value))}")
        if limit and hi is not None and value > hi:
            raise over(name, value if value < 10**12 else "a very large number", hi, limit)
        if value < lo or (hi is not None and value > hi):
            rng = f"from {lo} to {hi}" if hi is not None and not limit else f">= {lo}"
            raise InputError(f"{name}: expected {rng}, got {value!r}")

    return check


def _text(name: str):
    def check(_inst, _attr, value):
        if not isinstance(value, str):
            raise TypeError(f"{name}: expected a string, got {shorten(repr(value))}")

    return check


def _strings(name: str, values: object) -> list[str]:
    """``values`` as a list of strings (a string is split at commas)."""
    if isinstance(values, str):
        return values.split(",")
    try:
        out = list(values)  # type: ignore[call-overload]
    except TypeError:
        raise TypeError(f"{name}: expected a list of strings, got {shorten(repr(values))}"
                        ) from None
    for v in out:
        if not isinstance(v, str):
            raise TypeError(f"{name}: expected strings, got {shorten(repr(v))}")
    return out


def _dice_text(name: str, minimum: int, value: int | str) -> str:
    """``value`` spelled canonically (:func:`format_dice`), at least ``minimum``."""
    if type(value) is int and minimum <= value <= MAX_FLAT:  # the common case, at once
        return str(value)
    try:
        text = format_dice(value)
    except ValueError as e:
        raise InputError(f"{name}: {e}") from None
    if text.isdigit() and int(text) < minimum:
        raise InputError(f"{name}: expected at least {minimum}, got {value!r}")
    return text


def _attacks(value: int | str) -> str:  # attrs converters: named functions, for mypy
    return _dice_text("attacks", 1, value)


def _damage(value: int | str) -> str:
    return _dice_text("damage", 1, value)


def _none(values: object) -> bool:
    """An empty list or tuple: no values (checked at once)."""
    return type(values) in (tuple, list) and not values


def _abilities(values: Iterable[str] | str) -> tuple[str, ...]:
    if _none(values):
        return ()
    return tuple(canonical(v) for v in _strings("abilities", values) if v.strip())


def _keywords(values: Iterable[str] | str) -> tuple[str, ...]:
    if _none(values):
        return ()
    return tuple(v.strip().upper() for v in _strings("keywords", values) if v.strip())


def _range(value: int | str) -> int | str:
    if type(value) is int and 1 <= value <= MAX_RANGE:  # the common case, at once
        return value
    if isinstance(value, str):
        t = value.strip().strip('"').strip("”").strip().lower()
        if t == "melee":
            return "melee"
        if t.isdigit():
            value = int(t)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"range: expected 'melee' or a distance in inches, got "
                        f"{shorten(repr(value))}")
    if isinstance(value, str) or value < 1 or value > MAX_RANGE:
        raise InputError(f"range: expected 'melee' or a distance in inches from 1 to "
                         f"{MAX_RANGE}, got {shorten(repr(value))}")
    return value


#: The checks of a Weapon's plain fields, in field order (run when the quick test fails).
_WEAPON_CHECKS = (_text("name"), _int_in("skill", 2, 6, optional=True),
                  _int_in("strength", 1, MAX_STRENGTH, limit="MAX_STRENGTH"),
                  _int_in("ap", -6, 0))

#: The checks of a Target's plain fields, in field order.
_TARGET_CHECKS = (_int_in("models", 1, MAX_MODELS, limit="MAX_MODELS"),
                  _int_in("toughness", 1, MAX_TOUGHNESS, limit="MAX_TOUGHNESS"),
                  _int_in("save", 2, 7), _int_in("wounds", 1, MAX_WOUNDS, limit="MAX_WOUNDS"),
                  _int_in("invuln", 2, 6, optional=True), _int_in("fnp", 2, 6, optional=True),
                  _text("name"), _int_in("fnp_mortal", 2, 6, optional=True),
                  _int_in("fnp_psychic", 2, 6, optional=True))

@attrs.frozen(cache_hash=True)  # a key of every cached step
class Weapon:
    """One weapon profile. ``skill`` is BS/WS (3 means 3+), ``None`` for automatic hits.

    ``attacks`` and ``damage`` take an int or a dice expression; ``range`` is inches or ``"melee"``.
    """

    name: str
    attacks: str = attrs.field(converter=_attacks)
    skill: int | None
    strength: int
    ap: int
    damage: str = attrs.field(converter=_damage)
    abilities: tuple[str, ...] = attrs.field(default=(), converter=_abilities)
    range: int | str = attrs.field(default=24, converter=_range)

    def __attrs_post_init__(self) -> None:
        # every field in one pass (one validator call each costs more, and a query makes a
        # Weapon); a value out of range is refused by its own check, as before
        skill, strength, ap = self.skill, self.strength, self.ap
        if not (type(self.name) is str and (skill is None or type(skill) is int and 2 <= skill <= 6)
                and type(strength) is int and 1 <= strength <= MAX_STRENGTH
                and type(ap) is int and -6 <= ap <= 0):
            for check, value in zip(_WEAPON_CHECKS, (self.name, skill, strength, ap),
                                    strict=True):
                check(self, None, value)
        if not self.abilities:  # most weapons: parsed now (a slot asked first costs more)
            object.__setattr__(self, "parsed", _NO_ABILITIES)

    @property
    def melee(self) -> bool:
        return self.range == "melee"

    @cached_property
    def parsed(self) -> Abilities:
        """The abilities parsed for the engine (kept: a slot of the weapon once asked, as the
        engine asks at every step; set as it is made when it has none)."""
        return parse_abilities(self.abilities) if self.abilities else _NO_ABILITIES

    def with_abilities(self, *extra: str) -> Weapon:
        """A copy with more abilities (duplicates dropped)."""
        added = [canonical(a) for a in extra if canonical(a) not in self.abilities]
        return attrs.evolve(self, abilities=self.abilities + tuple(added))


@attrs.frozen(cache_hash=True)  # a key of every cached step
class Target:
    """A target unit of identical models. Saves, ``invuln`` and the Feel No Pain values are X+
    values: ``fnp`` against every wound, ``fnp_mortal`` against mortal wounds only (Devastating
    Wounds included), ``fnp_psychic`` against Psychic Attacks only (:meth:`fnp_against`)."""

    models: int
    toughness: int
    save: int
    wounds: int
    invuln: int | None = None
    fnp: int | None = None
    keywords: tuple[str, ...] = attrs.field(default=(), converter=_keywords)
    abilities: tuple[str, ...] = attrs.field(default=(), converter=lambda v: _target_abilities(v))
    name: str = ""
    fnp_mortal: int | None = None
    fnp_psychic: int | None = None

    def __attrs_post_init__(self) -> None:
        # every field in one pass, as Weapon's
        models, toughness, save, wounds = self.models, self.toughness, self.save, self.wounds
        invuln, fnp = self.invuln, self.fnp
        if not (type(models) is int and 1 <= models <= MAX_MODELS
                and type(toughness) is int and 1 <= toughness <= MAX_TOUGHNESS
                and type(save) is int and 2 <= save <= 7
                and type(wounds) is int and 1 <= wounds <= MAX_WOUNDS
                and type(self.name) is str
                and (invuln is None or type(invuln) is int and 2 <= invuln <= 6)
                and (fnp is None or type(fnp) is int and 2 <= fnp <= 6)
                and self.fnp_mortal is None and self.fnp_psychic is None):  # else: below
            for check, value in zip(_TARGET_CHECKS, (
                    models, toughness, save, wounds, self.invuln, self.fnp, self.name,
                    self.fnp_mortal, self.fnp_psychic), strict=True):
                check(self, None, value)

    def fnp_against(self, *, mortal: bool, psychic: bool) -> int | None:
        """The Feel No Pain roll a wound of this kind gets: the best of those that apply (a
        model rolls once per wound).

        >>> t = Target(models=1, toughness=4, save=3, wounds=3, fnp=6, fnp_mortal=4)
        >>> t.fnp_against(mortal=False, psychic=False), t.fnp_against(mortal=True, psychic=False)
        (6, 4)
        """
        if self.fnp_mortal is None and self.fnp_psychic is None:
            return self.fnp
        found = [v for v, applies in ((self.fnp, True), (self.fnp_mortal, mortal),
                                      (self.fnp_psychic, psychic)) if applies and v is not None]
        return min(found) if found else None

    @property
    def total_wounds(self) -> int:
        return self.models * self.wounds

    @property
    def stealth(self) -> bool:
        return "stealth" in self.abilities

    @property
    def reanimation(self) -> bool:
        return "reanimation protocols" in self.abilities

    @property
    def deadly_demise(self) -> str | None:
        """X of Deadly Demise X (a dice expression), or None."""
        found = [a.split()[-1] for a in self.abilities if a.startswith("deadly demise ")]
        return found[0] if found else None


#: Abilities of a target that change the numbers.
TARGET_ABILITIES = ("stealth", "reanimation protocols", "deadly demise X")


def _target_abilities(values: Iterable[str] | str) -> tuple[str, ...]:
    if _none(values):
        return ()
    out = []
    for v in _strings("abilities", values):
        t = " ".join(str(v).lower().split())
        if not t:
            continue
        if t.startswith("deadly demise "):
            try:
                t = f"deadly demise {format_dice(t.removeprefix('deadly demise '))}"
            except ValueError:
                raise InputError(f"bad target ability {v!r}: Deadly Demise needs a number or "
                                 "dice expression") from None
        elif t not in TARGET_ABILITIES:
            raise InputError(f"unknown target ability {v!r}; known: {', '.join(TARGET_ABILITIES)}")
        out.append(t)
    return tuple(out)


# ------------------------------------------------------------------ fast constructors
# A query makes a Weapon and a Target; the attrs __init__ calls a converter per field (a Python
# call each). These do the common case (every value plain and in range) in one call, exactly
# as the converters and checks would; anything else goes through attrs' own __init__.

#: the dice spellings that are canonical and at least 1 (every everyday one but "0")
_DICE_OK = frozenset(k for k in EVERYDAY if k != "0")
_weapon_init = Weapon.__init__
_target_init = Target.__init__
# each slot's own setter (``object.__setattr__`` finds the slot by its name first: about half
# again the cost of a field, and a query makes a Weapon and a Target)
_w_name, _w_attacks, _w_skill, _w_strength, _w_ap, _w_damage, _w_abilities, _w_range, \
    _w_parsed, _w_hash = (Weapon.__dict__[name].__set__ for name in (
        "name", "attacks", "skill", "strength", "ap", "damage", "abilities", "range", "parsed",
        "_attrs_cached_hash"))
_t_models, _t_toughness, _t_save, _t_wounds, _t_invuln, _t_fnp, _t_keywords, _t_abilities, \
    _t_name, _t_fnp_mortal, _t_fnp_psychic, _t_hash = (Target.__dict__[name].__set__ for name in (
        "models", "toughness", "save", "wounds", "invuln", "fnp", "keywords", "abilities",
        "name", "fnp_mortal", "fnp_psychic", "_attrs_cached_hash"))


def _fast_weapon_init(self: Weapon, name: str, attacks: int | str, skill: int | None,
                      strength: int, ap: int, damage: int | str,
                      abilities: Iterable[str] | str = (), range: int | str = 24) -> None:
    ta, td = type(attacks), type(damage)
    if not (type(name) is str
            and (ta is int and 1 <= attacks <= MAX_FLAT or ta is str and attacks in _DICE_OK)  # type: ignore[operator]
            and (td is int and 1 <= damage <= MAX_FLAT or td is str and damage in _DICE_OK)  # type: ignore[operator]
            and (skill is None or type(skill) is int and 2 <= skill <= 6)
            and type(strength) is int and 1 <= strength <= MAX_STRENGTH
            and type(ap) is int and -6 <= ap <= 0
            and type(range) is int and 1 <= range <= MAX_RANGE
            and type(abilities) in (tuple, list)
            and (not abilities  # (no generator made for none)
                 or all(type(a) is str and a in CANONICAL for a in abilities))):
        _weapon_init(self, name, attacks, skill, strength, ap, damage, abilities, range)
        return
    _w_name(self, name)
    _w_attacks(self, str(attacks) if ta is int else attacks)
    _w_skill(self, skill)
    _w_strength(self, strength)
    _w_ap(self, ap)
    _w_damage(self, str(damage) if td is int else damage)
    _w_abilities(self, tuple(abilities))
    _w_range(self, range)
    if not abilities:
        _w_parsed(self, _NO_ABILITIES)
    _w_hash(self, None)


def _fast_target_init(self: Target, models: int, toughness: int, save: int, wounds: int,
                      invuln: int | None = None, fnp: int | None = None,
                      keywords: Iterable[str] | str = (), abilities: Iterable[str] | str = (),
                      name: str = "", fnp_mortal: int | None = None,
                      fnp_psychic: int | None = None) -> None:
    if not (type(models) is int and 1 <= models <= MAX_MODELS
            and type(toughness) is int and 1 <= toughness <= MAX_TOUGHNESS
            and type(save) is int and 2 <= save <= 7
            and type(wounds) is int and 1 <= wounds <= MAX_WOUNDS
            and type(name) is str
            and (invuln is None or type(invuln) is int and 2 <= invuln <= 6)
            and (fnp is None or type(fnp) is int and 2 <= fnp <= 6)
            and fnp_mortal is None and fnp_psychic is None
            and type(keywords) in (tuple, list) and not keywords
            and type(abilities) in (tuple, list) and not abilities):
        _target_init(self, models, toughness, save, wounds, invuln, fnp, keywords, abilities,
                     name, fnp_mortal, fnp_psychic)
        return
    _t_models(self, models)
    _t_toughness(self, toughness)
    _t_save(self, save)
    _t_wounds(self, wounds)
    _t_invuln(self, invuln)
    _t_fnp(self, fnp)
    _t_keywords(self, ())
    _t_abilities(self, ())
    _t_name(self, name)
    _t_fnp_mortal(self, None)
    _t_fnp_psychic(self, None)
    _t_hash(self, None)


Weapon.__init__ = _fast_weapon_init  # type: ignore[method-assign]
Target.__init__ = _fast_target_init  # type: ignore[method-assign]
