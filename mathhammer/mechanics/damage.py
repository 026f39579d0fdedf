"""Damage and Feel No Pain (docs/rules.md, section 6).

>>> from mathhammer import Weapon, Options
>>> melta = Weapon("Multi-melta", attacks=2, skill=4, strength=9, ap=-4, damage="D6",
...                abilities=["melta 2"])
>>> damage_roll(melta, Options(half_range=True)).mean()  # 3.5 + 2
Fraction(11, 2)
>>> feel_no_pain(PMF.point(2), 5) == PMF({0: 1, 1: 4, 2: 4})  # each wound lost on 1-4
True
"""

from __future__ import annotations

from fractions import Fraction

from ..cache import cached
from ..model.options import Options
from ..model.profiles import Weapon
from ..prob.dice import dice
from ..prob.pmf import PMF


@cached(maxsize=1024)
def damage_roll(weapon: Weapon, options: Options) -> PMF:
    """The Damage of one attack: the roll, halved (rounding up), plus Melta at half range and
    ``damage_mod``; never below 1."""
    melta = weapon.parsed.melta if options.half_range else None
    bonus = dice(melta) if melta else PMF.point(0)

    def modify(rolled: int) -> int:
        return -(-rolled // 2) if options.halve_damage else rolled

    base = dice(weapon.damage).map(modify) + bonus
    return base.map(lambda d: max(1, d + options.damage_mod))


@cached(maxsize=256)
def feel_no_pain(damage: PMF, fnp: int | None) -> PMF:
    """Wounds actually lost from ``damage``: each one is ignored on a D6 roll of ``fnp``+."""
    if fnp is None:
        return damage
    lose = Fraction(fnp - 1, 6)
    return damage.bind(lambda d: PMF.binomial(d, lose))
