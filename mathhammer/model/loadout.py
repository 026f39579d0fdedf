"""Which weapons a unit's models use in a phase, as the core rules allow (docs/rules.md,
section 1, "Which weapons fire").

- **Pistols**: a model that is not a MONSTER or VEHICLE shoots either with its Pistols or with
  all of its other ranged weapons; MONSTER and VEHICLE models fire both.
- **Melee**: each model fights with one melee weapon, plus every [EXTRA ATTACKS] weapon.
- **Several profiles** (``UnitWeapon.profile_of``, or names ``X - standard``/``X - supercharge``
  in one model group): a model uses one profile of such a weapon, never two.

Every choice left to the player is made for the higher value of ``score`` (one model's exact
E[damage] against the target, given by the caller), ties to the first in the datasheet's order
(for Pistols: to the other ranged weapons). Without a per-model loadout the models of a group
are taken as alike: the models without another ranged weapon (the group's models less its
other ranged weapons) fire Pistols, the best first; the others fire their Pistols or their
other ranged weapons as a whole; and the group makes at most as many melee weapon-uses
(besides Extra Attacks) as it has models, the best first. Inline rows are one such group, as
many models as the largest row (:func:`choose_rows`).

>>> from fractions import Fraction
>>> rifle = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> pistol = Weapon("Bolt pistol", attacks=1, skill=3, strength=4, ap=0, damage=1,
...                 abilities=["pistol"], range=12)
>>> value = {"Bolt rifle": Fraction(1, 3), "Bolt pistol": Fraction(1, 9)}
>>> out = choose([Carried(rifle, 5), Carried(pistol, 5)], [5], lambda w: value[w.name])
>>> [(w.name, n) for w, n in out.fired], [x.text for x in out.left_out]
([('Bolt rifle', 5)], ['5x Bolt pistol not fired: the models fire their other ranged weapons'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction

import attrs

from .profiles import Weapon

#: One model's value of a weapon profile (mathhammer compares exact E[damage]).
Score = Callable[[Weapon], Fraction]

#: The keywords whose models fire their Pistols and their other ranged weapons together.
FIRE_BOTH = ("MONSTER", "VEHICLE")

#: "Weapon - profile": the first separator is the one (atomic: linear in a long name)
_PROFILE = re.compile(r"^\s*+(?:➤\s*+)?(?>(?P<weapon>.*?\S)\s+[-–—]\s+)"
                      r"(?P<profile>\S(?:.*\S)?)\s*$")


@attrs.frozen
class Carried:
    """A weapon profile carried by ``models`` models of model group ``group``; ``family`` is
    the weapon it is one profile of (None: a weapon of its own)."""

    weapon: Weapon
    models: int
    group: int = 0
    family: str | None = None


@attrs.frozen
class LeftOut:
    """A weapon profile that does not fire, and why."""

    weapon: str
    models: int
    reason: str

    @property
    def text(self) -> str:
        return f"{self.models}x {self.weapon} not fired: {self.reason}"


@attrs.frozen
class Loadout:
    """What fires (``(weapon, models)`` pairs, in the datasheet's order) and what does not."""

    fired: tuple[tuple[Weapon, int], ...]
    left_out: tuple[LeftOut, ...] = ()


def is_pistol(weapon: Weapon) -> bool:
    """Whether the weapon has [PISTOL]."""
    return "pistol" in weapon.abilities


def is_one_shot(weapon: Weapon) -> bool:
    """Whether the weapon has [ONE SHOT]: it fires once per battle, so in a sequence of turns
    only in the first (:func:`mathhammer.engine.sequence.later_turn`)."""
    return "one shot" in weapon.abilities


def is_extra(weapon: Weapon) -> bool:
    """Whether the weapon has [EXTRA ATTACKS]."""
    return "extra attacks" in weapon.abilities


def fires_both(keywords: Sequence[str]) -> bool:
    """Whether a model with these keywords fires Pistols with its other ranged weapons.

    >>> fires_both(["VEHICLE", "WALKER"]), fires_both(["INFANTRY"])
    (True, False)
    """
    return any(k.upper() in FIRE_BOTH for k in keywords)


def profile_families(names: Sequence[str]) -> dict[str, str]:
    """The weapon each name is a profile of, where two or more names of one model group read
    ``X - a``, ``X - b`` (a leading ``➤`` ignored); names not in such a pair are left out.

    >>> profile_families(["Plasma pistol - standard", "➤ Plasma pistol - supercharge",
    ...                   "Chainsword", "Bolt rifle - heavy"])
    {'Plasma pistol - standard': 'Plasma pistol', '➤ Plasma pistol - supercharge': 'Plasma pistol'}
    """
    split = {n: m.group("weapon") for n in names if (m := _PROFILE.match(n))}
    keys: dict[str, int] = {}
    for weapon in split.values():
        keys[weapon.casefold()] = keys.get(weapon.casefold(), 0) + 1
    return {n: w for n, w in split.items() if keys[w.casefold()] > 1}


def choose(carried: Sequence[Carried], group_models: Sequence[int], score: Score, *,
           melee: bool = False, both: bool = False, pistols: bool = False) -> Loadout:
    """The weapons that fire, by the rules above. ``group_models`` is the number of models in
    each group; ``both``: the models are MONSTER or VEHICLE; ``pistols``: the unit is within
    Engagement Range, so its other models shoot only their Pistols.

    >>> from fractions import Fraction
    >>> claws = Weapon("Claws", attacks=4, skill=4, strength=7, ap=-1, damage=2, range="melee")
    >>> talons = Weapon("Talons", attacks=5, skill=4, strength=7, ap=-2, damage=2, range="melee")
    >>> extra = Weapon("Extra talons", attacks=1, skill=4, strength=7, ap=-2, damage=2,
    ...                abilities=["extra attacks"], range="melee")
    >>> out = choose([Carried(claws, 1), Carried(talons, 1), Carried(extra, 1)], [1],
    ...              lambda w: Fraction(w.attacks), melee=True)
    >>> [(w.name, n) for w, n in out.fired]
    [('Talons', 1), ('Extra talons', 1)]
    """
    fired: list[tuple[Carried, int]] = []
    left: list[LeftOut] = []
    for g, models in enumerate(group_models):
        items = [c for c in carried if c.group == g]
        if not items:
            continue
        weapons = _one_profile_each(items, score, left)
        if melee:
            fired += _melee(weapons, models, score, left)
        else:
            fired += _ranged(weapons, models, score, left, both=both, pistols=pistols)
    order = {id(c): i for i, c in enumerate(carried)}
    fired.sort(key=lambda cn: order[id(cn[0])])
    merged: dict[int, list] = {}  # a weapon fired by two sorts of models is one entry
    for c, n in fired:
        merged.setdefault(id(c), [c, 0])[1] += n
    return Loadout(tuple((c.weapon, n) for c, n in merged.values()), tuple(left))


def choose_rows(rows: Sequence[tuple[Weapon, int]], score: Score, *, melee: bool = False,
                both: bool = False, pistols: bool = False) -> Loadout:
    """Inline weapon rows (``(weapon, models)``, no datasheet) by the same rules: the rows are
    the weapons of one group of models, as many as the largest row. Shooting, the models fire
    their Pistols or their other rows; fighting, each model fights with one melee weapon (the
    best against the target), plus every [EXTRA ATTACKS] row.

    >>> sword = Weapon("Sword", attacks=3, skill=3, strength=4, ap=0, damage=1, range="melee")
    >>> axe = Weapon("Axe", attacks=2, skill=3, strength=5, ap=-1, damage=1, range="melee")
    >>> out = choose_rows([(sword, 5), (axe, 5)], lambda w: Fraction(w.attacks), melee=True)
    >>> [(w.name, n) for w, n in out.fired], [x.models for x in out.left_out]
    ([('Sword', 5)], [5])
    """
    carried = [Carried(w, n) for w, n in rows]
    return choose(carried, [max((n for _, n in rows), default=0)], score, melee=melee,
                  both=both, pistols=pistols)


def _one_profile_each(items: list[Carried], score: Score, left: list[LeftOut]) -> list[Carried]:
    """Each weapon of several profiles reduced to its best profile (the first on a tie)."""
    out: list[Carried] = []
    seen: dict[str, Carried] = {}
    for c in items:
        if c.family is None:
            out.append(c)
            continue
        key = c.family.casefold()
        best = seen.get(key)
        if best is None:
            seen[key] = c
            out.append(c)
        elif score(c.weapon) > score(best.weapon):
            out[out.index(best)] = seen[key] = c
            left.append(_profile_left(best, c))
        else:
            left.append(_profile_left(c, best))
    return out


def _profile_left(lost: Carried, kept: Carried) -> LeftOut:
    return LeftOut(lost.weapon.name, lost.models,
                   f"one profile of {lost.family} per model: {kept.weapon.name} is better "
                   "against this target")


def _ranged(weapons: list[Carried], models: int, score: Score, left: list[LeftOut], *,
            both: bool, pistols: bool) -> list[tuple[Carried, int]]:
    """A group's Pistols or its other ranged weapons (all of them for MONSTER, VEHICLE).

    When the group's other ranged weapons are fewer than its models, the models without one
    fire their Pistols (the best first); the others fire the side with the higher total."""
    guns = [c for c in weapons if not is_pistol(c.weapon)]
    side = [c for c in weapons if is_pistol(c.weapon)]
    if both:
        return [(c, c.models) for c in weapons]
    if pistols:
        reason = "--pistols: within Engagement Range the models shoot only their Pistols"
        left += [LeftOut(c.weapon.name, c.models, reason) for c in guns]
        return [(c, c.models) for c in side]
    if not side or not guns:
        return [(c, c.models) for c in weapons]
    gunless = models - sum(c.models for c in guns)
    alone: list[tuple[Carried, int]] = []  # pistols of the models without another gun
    rest: list[tuple[Carried, int]] = []
    for c in sorted(side, key=lambda c: -score(c.weapon)):
        n = min(c.models, max(gunless, 0))
        gunless -= n
        if n:
            alone.append((c, n))
        if c.models > n:
            rest.append((c, c.models - n))

    def total(cs: list[tuple[Carried, int]]) -> Fraction:
        return sum((n * score(c.weapon) for c, n in cs), Fraction(0))

    shots = [(c, c.models) for c in guns]
    if rest and total(rest) > total(shots):
        reason = "the models fire their Pistols, better against this target"
        left += [LeftOut(c.weapon.name, c.models, reason) for c in guns]
        return alone + rest
    reason = "the models fire their other ranged weapons"
    left += [LeftOut(c.weapon.name, n, reason) for c, n in rest]
    return alone + shots


def _melee(weapons: list[Carried], models: int, score: Score,
           left: list[LeftOut]) -> list[tuple[Carried, int]]:
    """Every Extra Attacks weapon, and one melee weapon per model, the best first."""
    out = [(c, c.models) for c in weapons if is_extra(c.weapon)]
    main = sorted((c for c in weapons if not is_extra(c.weapon)),
                  key=lambda c: -score(c.weapon))
    free = models
    for c in main:
        if free <= 0:
            left.append(LeftOut(c.weapon.name, c.models,
                                "each model fights with one melee weapon (and its Extra "
                                "Attacks weapons); a better one is used"))
        elif c.models > free:
            out.append((c, free))
            left.append(LeftOut(c.weapon.name, c.models - free,
                                "each model fights with one melee weapon; the others use a "
                                "better one"))
            free = 0
        else:
            out.append((c, c.models))
            free -= c.models
    return out
