"""Weapons a player picks by name for a unit (``--weapon``): a unique prefix is enough, the
profiles of one weapon are picked together, and ``2x Lascannon`` (or a name given twice) asks
for two, never more than the unit carries.

>>> from mathhammer.data.units.bundled import load_unit
>>> cronos = load_unit("Cronos")
>>> carried = [(w, 2, 0) for w in cronos.groups[0].weapons if not w.melee]
>>> [(w.name, n) for w, n, _ in picked(cronos, ["1x spirit v"], carried, "ranged", False)]
[('Spirit vortex', 1)]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ...errors import InputError, NotCarried
from ...model.loadout import profile_families
from ..typed.names import name_key

#: ``2x Lascannon``: a count before a weapon's name
_COUNTED = re.compile(r"^\s*(\d+)\s*[x×]\s+(?=\S)", re.I)


class TooMany(InputError):
    """More of a weapon picked than the unit carries (``most``: how many it does)."""

    def __init__(self, message: str, most: int):
        super().__init__(message)
        self.most = most


class _NoneCarried(NotCarried, TooMany):
    """A weapon picked that the unit carries none of at its size."""


def picked(unit: Any, weapons: Iterable[str], carried: list, phase: str,
           melee: bool, models: int = 0, group_models: Sequence[int] = ()) -> list:
    """The carried weapons the player names, each with how many of them fire (``models``:
    the unit's size, for errors; ``group_models``: each model group's, for the shared slots
    of :func:`check_slots`)."""
    if isinstance(weapons, str):
        weapons = [weapons]
    asked: dict[str, list] = {}  # name_key -> [query, count or None, times named]
    for query in weapons:
        text = str(query)
        m = _COUNTED.match(text)
        count = int(m.group(1)) if m else None
        text = text[m.end():] if m else text
        entry = asked.setdefault(name_key(text), [text, None, 0])
        entry[2] += 1
        if count is not None:
            entry[1] = (entry[1] or 0) + count
    chosen: list = []
    others = [w.name for w in unit.weapons(not melee)]
    for text, count, times in asked.values():
        picks = pick(text, [(w, n) for w, n, _ in carried], phase, unit.name, others)
        found = [c for c in carried if any(c[0] is w for w, _ in picks)]
        if count is None and times > 1:
            count = times
        if count is not None:
            found = counted(unit, text, found, count, models)
        elif found and not any(n for _w, n, _i in found):
            counted(unit, text, found, 1, models)
        chosen += [c for c in found if c not in chosen]
    if group_models:
        check_slots(unit, chosen, group_models)
    return chosen


def check_slots(unit: Any, chosen: list, group_models: Sequence[int]) -> None:
    """An error when the weapons picked for one shared slot (:attr:`UnitWeapon.slot`, the
    datasheet's selection group: a Devastator Squad's four heavy weapons) are more than the
    slot allows at the group's size. A weapon the unit also carries in another model group
    is not counted (which group's models take it is not known).

    >>> from mathhammer.data.units.unit import ModelGroup, Unit, UnitWeapon
    >>> from mathhammer.model.profiles import Weapon
    >>> def gun(name):
    ...     return UnitWeapon(Weapon(name, attacks=1, skill=3, strength=9, ap=-2, damage=3),
    ...                       optional=True, max=(4,), slot="Heavy weapon", slot_max=(4,))
    >>> g = ModelGroup("Marine", 5, 10, toughness=4, save=3, wounds=2,
    ...                weapons=(gun("Lascannon"), gun("Heavy bolter")))
    >>> unit = Unit("Squad", "Space Marines", (g,))
    >>> check_slots(unit, [(g.weapons[0], 2, 0), (g.weapons[1], 2, 0)], [5])
    >>> five = [(g.weapons[0], 4, 0), (g.weapons[1], 1, 0)]
    >>> check_slots(unit, five, [5])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: weapons: Squad has 4 'Heavy weapon' slots ... = 5 were picked
    """
    names = [{name_key(weapon_of(unit, w, i)) for w in g.weapons}
             for i, g in enumerate(unit.groups)]
    slots: dict[tuple[int, str], dict[str, int]] = {}
    for w, n, i in chosen:
        if w.slot is None or any(name_key(weapon_of(unit, w, i)) in other
                                 for j, other in enumerate(names) if j != i):
            continue
        got = slots.setdefault((i, w.slot), {})
        name = weapon_of(unit, w, i)
        got[name] = max(got.get(name, 0), n)
    for (i, slot), got in slots.items():
        w = next(w for w in unit.groups[i].weapons if w.slot == slot)
        most = w.slot_max_at(group_models[i], unit.groups[i].min_models)
        if most is None or sum(got.values()) <= most:
            continue
        parts = " + ".join(f"{name} {n}" for name, n in got.items())
        raise InputError(f"weapons: {unit.name} has {most} {slot!r} slot{'s' * (most != 1)} in "
                         f"{group_models[i]} model{'s' * (group_models[i] != 1)} (the datasheet's "
                         "wargear options), but "
                         f"{parts} = {sum(got.values())} were picked")


def weapon_of(unit: Any, w: Any, group: int) -> str:
    """The weapon a carried profile belongs to (its own name for a weapon of one profile)."""
    names = [x.name for x in unit.groups[group].weapons]
    return w.profile_of or profile_families(names).get(w.name, w.name)


def counted(unit: Any, text: str, found: list, count: int, models: int = 0) -> list:
    """``count`` of the weapons found (the profiles of one weapon count once), the first
    model groups first; more than the models carry, or than the datasheet's options allow
    (``models``: the unit's size, named in the error), is an error."""
    slots: dict[tuple[int, str], int] = {}
    for w, n, i in found:
        key = (i, name_key(weapon_of(unit, w, i)))
        slots[key] = max(slots.get(key, 0), n)
    total = sum(slots.values())
    if count < 1:
        raise InputError(f"weapons: {count}x {text}: expected a count of at least 1 (to leave "
                         "a weapon out, do not name it)")
    if count > total:
        name = weapon_of(unit, found[0][0], found[0][2])
        error = _NoneCarried if total == 0 else TooMany  # none at this size: not carried
        if any(w.max for w, _n, _i in found):
            size = f" in {models} models" if models else ""
            raise error(f"weapons: {count}x {text}: {unit.name} may take at most {total} "
                        f"{name}{size} (the datasheet's wargear options)", total)
        raise error(f"weapons: {count}x {text}: {unit.name} carries {total} "
                    f"{name} at its size, so at most {total} can fire", total)
    left, give = count, {}
    for key, n in slots.items():
        give[key] = min(n, left)
        left -= give[key]
    return [(w, give[(i, name_key(weapon_of(unit, w, i)))], i) for w, _n, i in found
            if give[(i, name_key(weapon_of(unit, w, i)))]]


def pick(query: str, carried: list, phase: str, unit: str, others: list[str]) -> list:
    """The carried weapons a name picks: exact names first, else a unique prefix (the
    profiles of one weapon, ``Plasma pistol`` for its ``- standard`` and ``- supercharge``,
    are picked together)."""
    q = name_key(query)
    exact = [(w, n) for w, n in carried if name_key(w.name) == q]
    found = (exact or [(w, n) for w, n in carried if name_key(w.name).startswith(q)]
             or [(w, n) for w, n in carried if name_key(w.profile_of or "") == q])
    names = sorted({w.name for w, _ in found})
    families = profile_families(names)
    weapons = {name_key(w.profile_of or families.get(w.name, w.name)) for w, _ in found}
    if len(names) == 1 or (names and len(weapons) == 1):
        return found
    known = list(dict.fromkeys(w.name for w, _ in carried))
    if names:
        raise InputError(f"weapons: {_quoted(query)} is ambiguous for {unit}: "
                         f"matches {', '.join(names)}")
    other = [n for n in others if name_key(n).startswith(q)]
    hint = f"{phase} weapons: {', '.join(known)}"
    if other:
        hint += f" ({other[0]} is a {'ranged' if phase == 'melee' else 'melee'} weapon)"
    raise NotCarried(f"weapons: {unit} has no {phase} weapon {_quoted(query)}; {hint}")


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)

