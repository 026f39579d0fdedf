"""One attack's outcome after its hit and wound rolls: Sustained Hits, Lethal Hits, Devastating
Wounds and critical-wound AP, in one place (docs/rules.md, "Critical hits and wounds").

An attack becomes a tuple of *wounds* in the order they are resolved: the hit's own wound (an
automatic one for Lethal Hits) first, then those of its Sustained Hits. Each wound is
``NORMAL`` (saved with the weapon's AP: a rolled wound or a Lethal Hits automatic wound),
``CRITICAL`` (a Critical Wound: saved with the critical-wound AP) or ``DEVASTATING`` (no save:
mortal wounds after all normal damage).

>>> from mathhammer import Weapon, Target, Options, load_ruleset
>>> gun = Weapon("Gun", attacks=1, skill=4, strength=4, ap=0, damage=1,
...              abilities=["lethal hits", "devastating wounds"])
>>> meq = Target(models=5, toughness=4, save=3, wounds=2)
>>> law = attack_wounds(gun, meq, Options(), load_ruleset())
>>> n, d = (1, (Wound.NORMAL,)), (1, (Wound.DEVASTATING,))
>>> law.prob(n), law.prob(d)  # 1/6 lethal + 2/6 * 2/6; 2/6 * 1/6
(Fraction(5, 18), Fraction(1, 18))
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from ..cache import cached
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import RuleSet
from ..prob.dice import dice
from ..prob.pmf import PMF
from .rolls import CRITICAL as ROLL_CRITICAL
from .rolls import FAIL as ROLL_FAIL
from .rolls import SUCCESS as ROLL_SUCCESS
from .rolls import hit_roll, lethal_hits, saving_throw, wound_roll


class Wound(StrEnum):
    """The kinds of wound an attack makes."""

    NORMAL = "normal"  # saved with the weapon's AP: a rolled wound or a Lethal Hits automatic one
    CRITICAL = "critical"  # a Critical Wound: saved with the critical-wound AP
    DEVASTATING = "devastating"  # no save: mortal wounds after all normal damage


NORMAL, CRITICAL, DEVASTATING = Wound


def _cat(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1])


@cached(maxsize=256)
def attack_wounds(weapon: Weapon, target: Target, options: Options, rules: RuleSet,
                  ordered: bool = True) -> PMF:
    """One attack's ``(hits, wounds)``: the hits it scores and its wounds in order.

    ``target`` is the profile the hit and wound rolls use. With ``ordered=False`` the wounds
    are sorted (a multiset), for targets where their order cannot matter."""
    a = weapon.parsed
    crit_wound = DEVASTATING if a.devastating_wounds else CRITICAL
    w = wound_roll(weapon, target, options, rules).weights()
    rolled = PMF({(): w.get(ROLL_FAIL, 0), (NORMAL,): w.get(ROLL_SUCCESS, 0),
                  (crit_wound,): w.get(ROLL_CRITICAL, 0)})
    one_hit = rolled.map(lambda ws: (1, ws))
    own = PMF.point((1, (NORMAL,))) if lethal_hits(weapon, options, rules) else one_hit
    critical = own
    if a.sustained:
        extra = one_hit.random_sum(dice(a.sustained), op=_cat, zero=(0, ()))
        critical = own.convolve(extra, _cat)
    h = hit_roll(weapon, target, options, rules).weights()
    out = PMF.mix([(h.get(ROLL_FAIL, 0), PMF.point((0, ()))), (h.get(ROLL_SUCCESS, 0), one_hit),
                   (h.get(ROLL_CRITICAL, 0), critical)])
    return out if ordered else out.map(lambda o: (o[0], tuple(sorted(o[1]))))


def save_fails(weapon: Weapon, group: Target, options: Options, rules: RuleSet) -> dict[str, int]:
    """Faces of 6 on which the save against each kind of wound fails (a devastating wound has
    no save)."""
    normal = saving_throw(weapon, group, options, rules).prob(ROLL_FAIL)
    crit = saving_throw(weapon, group, options, rules, critical=True).prob(ROLL_FAIL)
    return {NORMAL: int(normal * 6), CRITICAL: int(crit * 6), DEVASTATING: 6}


def unsaved_count(wounds: Sequence[str], fails: dict[str, int]) -> PMF:
    """Unsaved wounds among ``wounds`` (devastating ones excluded: they are not saved, they
    are mortal wounds).

    >>> unsaved_count((NORMAL, NORMAL), {NORMAL: 3, CRITICAL: 3, DEVASTATING: 6}).mean()
    Fraction(1, 1)
    """
    return _unsaved(wounds.count(NORMAL), wounds.count(CRITICAL), fails[NORMAL],
                    fails[CRITICAL])


@cached(maxsize=1024)
def _unsaved(normal: int, critical: int, fail_normal: int, fail_critical: int) -> PMF:
    """Unsaved among ``normal`` and ``critical`` wounds whose saves fail on so many faces."""
    out = PMF.point(0)
    for n, f in ((normal, fail_normal), (critical, fail_critical)):
        if n:
            out = out + PMF({1: f, 0: 6 - f}).repeat(n)
    return out
