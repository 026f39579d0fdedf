"""The work a query implies, checked against :mod:`mathhammer.model.limits` before it starts.

>>> from mathhammer.model.profiles import Weapon
>>> attack_dice([(Weapon("g", attacks="D3", skill=3, strength=4, ap=0, damage=1), 5)], 5)
15
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model.limits import MAX_ATTACK_DICE, over
from ..model.profiles import Weapon
from ..prob.dice import parse_dice


def attack_dice(profiles: Iterable[tuple[Weapon, int]], target_models: int,
                blast_per_models: int = 5) -> int:
    """The most attack dice ``profiles`` (``(Weapon, models)`` pairs) can roll at a target of
    ``target_models`` models: every dice expression at its highest, Rapid Fire included, Blast
    counted for the whole target.

    >>> gun = Weapon("g", attacks="D6", skill=3, strength=4, ap=0, damage=1,
    ...              abilities=["blast", "rapid fire 1"])
    >>> attack_dice([(gun, 10)], 20)  # 10 models x (6 + 1 + 20 // 5)
    110
    """

    def most(text: str | None) -> int:
        if not text:
            return 0
        n, sides, plus = parse_dice(text)
        return n * sides + plus

    total = 0
    for weapon, models in profiles:
        a = weapon.parsed
        per_model = most(weapon.attacks) + most(a.rapid_fire)
        per_model += a.blast * (target_models // max(1, blast_per_models))
        total += models * per_model
    return total


def check_attack_dice(profiles: Iterable[tuple[Weapon, int]], target_models: int,
                      blast_per_models: int = 5) -> None:
    """Refuse a query that may roll more than MAX_ATTACK_DICE attack dice, before any work.

    >>> gun = Weapon("g", attacks=10, skill=3, strength=4, ap=0, damage=1, abilities=["blast 9"])
    >>> check_attack_dice([(gun, 1000)], 1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: attack dice: up to 1810000 is over the limit of 20000 (...MAX_...
    """
    n = attack_dice(profiles, target_models, blast_per_models)
    if n > MAX_ATTACK_DICE:
        raise over("attack dice", f"up to {n}", MAX_ATTACK_DICE, "MAX_ATTACK_DICE")
