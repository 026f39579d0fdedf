"""Damage, its re-rolls and Feel No Pain (docs/rules.md, section 6).

>>> from mathhammer import Weapon, Options
>>> melta = Weapon("Multi-melta", attacks=2, skill=4, strength=9, ap=-4, damage="D6",
...                abilities=["melta 2"])
>>> damage_roll(melta, Options(half_range=True)).mean()  # 3.5 + 2
Fraction(11, 2)
>>> feel_no_pain(PMF.point(2), 5) == PMF({0: 1, 1: 4, 2: 4})  # each wound lost on 1-4
True
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb

from ..cache import cached
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..prob.dice import dice, parse_dice
from ..prob.pmf import PMF

#: the wounds one packet of damage takes from a model: one law, or one per wounds the model
#: has left (index ``r - 1`` for ``r`` wounds left), when the Damage re-roll is decided
#: against the model (``reroll_damage="any"``)
Loss = PMF | tuple[PMF, ...]


def _finish(weapon: Weapon, options: Options) -> Callable[[int], PMF]:
    """From the rolled D characteristic to the attack's Damage: halved (rounding up), plus
    Melta at half range, plus ``damage_mod``, never below 1."""
    melta = weapon.parsed.melta if options.half_range else None
    bonus = dice(melta) if melta else PMF.point(0)

    def finish(rolled: int) -> PMF:
        base = -(-rolled // 2) if options.halve_damage else rolled
        return (bonus + base).map(lambda d: max(1, d + options.damage_mod))

    return finish


def _rolled(weapon: Weapon, options: Options) -> PMF:
    """The D characteristic as rolled, a Damage roll of 1 re-rolled under
    ``reroll_damage="ones"`` (the die's own result: a D3's 1, not a D6+1's 2; the dice of 2D6
    never show a total of 1)."""
    n, sides, plus = parse_dice(weapon.damage)
    if options.reroll_damage != "ones" or n != 1:
        return dice(weapon.damage)
    die = dice(f"D{sides}")
    return die.bind(lambda face: die if face == 1 else PMF.point(face)) + plus


@cached(maxsize=1024)
def damage_roll(weapon: Weapon, options: Options) -> PMF:
    """The Damage of one attack: the roll, halved if a rule halves (rounding up), plus Melta at
    half range and ``damage_mod``; never below 1. ``reroll_damage``: ``"ones"`` re-rolls a
    roll of 1; ``"any"`` here re-rolls a roll whose Damage is below the average of a fresh
    roll (the mortal wounds counted, and mortal wounds that spill over; the damage to a model
    uses :func:`packet_losses`, which decides against that model).

    >>> gun = Weapon("Gun", attacks=1, skill=3, strength=6, ap=0, damage="D3")
    >>> damage_roll(gun, Options(reroll_damage="ones")).mean()  # 1/3 * 2 + 2/3 * 5/2
    Fraction(7, 3)
    >>> damage_roll(gun, Options(reroll_damage="any")).mean()  # the 1 again: the same here
    Fraction(7, 3)
    """
    melta = weapon.parsed.melta if options.half_range else None
    if not (options.reroll_damage or options.halve_damage or options.damage_mod):
        # the roll as it is (never below 1), plus Melta: the common case, at once
        return dice(weapon.damage) + dice(melta) if melta else dice(weapon.damage)
    bonus = dice(melta) if melta else PMF.point(0)

    def modify(rolled: int) -> int:
        return -(-rolled // 2) if options.halve_damage else rolled

    rolled = _rolled(weapon, options) if options.reroll_damage else dice(weapon.damage)
    kept = (rolled.map(modify) + bonus).map(lambda d: max(1, d + options.damage_mod))
    if options.reroll_damage != "any" or not parse_dice(weapon.damage)[0]:
        return kept
    finish = _finish(weapon, options)
    average = kept.mean()
    return rolled.bind(lambda r: kept if finish(r).mean() < average else finish(r))


def packet_losses(weapon: Weapon, options: Options, fnp: int | None, wounds: int) -> Loss:
    """The wounds one of this weapon's attacks takes from a model of ``wounds`` W with Feel No
    Pain ``fnp`` (before excess is lost). With ``reroll_damage="any"`` the player re-rolls
    the Damage roll when a fresh roll is expected to take more wounds from the model, as many
    as it has left, after Feel No Pain (a tie keeps the roll): one law per wounds left.

    >>> gun = Weapon("Gun", attacks=1, skill=3, strength=6, ap=0, damage="D6")
    >>> one, two, three = packet_losses(gun, Options(reroll_damage="any"), None, 3)
    >>> one == dice("D6")  # any roll kills a model with 1 wound left: none is re-rolled
    True
    >>> three.at_least(3)  # against 3 wounds left, 1s and 2s re-rolled: 4/6 + 2/6 * 4/6
    Fraction(8, 9)
    """
    if options.reroll_damage != "any" or not parse_dice(weapon.damage)[0]:
        return feel_no_pain(damage_roll(weapon, options), fnp)
    return _by_wounds_left(weapon, options, fnp, wounds)


@cached(maxsize=256)
def _by_wounds_left(weapon: Weapon, options: Options, fnp: int | None,
                    wounds: int) -> tuple[PMF, ...]:
    finish = _finish(weapon, options)
    rolled = dice(weapon.damage)
    kept = {r: feel_no_pain(finish(r), fnp) for r in rolled.outcomes()}
    fresh = rolled.bind(lambda r: kept[r])  # the wounds a re-rolled Damage takes

    def worth(loss: PMF, left: int) -> Fraction:
        return sum((p * min(e, left) for e, p in loss.items()), Fraction(0))

    out = []
    for left in range(1, wounds + 1):
        again = worth(fresh, left)

        def better(r: int, left: int = left, again: Fraction = again) -> PMF:
            return fresh if worth(kept[r], left) < again else kept[r]

        out.append(rolled.bind(better))
    return tuple(out)


def is_psychic(weapon: Weapon) -> bool:
    """Whether the weapon's attacks are Psychic Attacks (its [PSYCHIC] ability)."""
    return "psychic" in weapon.abilities


def wound_fnp(group: Target, weapon: Weapon, mortal: bool = False) -> int | None:
    """The Feel No Pain roll of a wound ``weapon`` inflicts on a model of ``group``: mortal
    wounds (Devastating Wounds) and Psychic Attacks also get ``fnp_mortal`` and
    ``fnp_psychic``, the best one applying.

    >>> t = Target(models=1, toughness=4, save=3, wounds=2, fnp_mortal=4)
    >>> gun = Weapon("Gun", attacks=1, skill=3, strength=6, ap=0, damage=1)
    >>> wound_fnp(t, gun), wound_fnp(t, gun, mortal=True)
    (None, 4)
    """
    if group.fnp_mortal is None and group.fnp_psychic is None:
        return group.fnp
    return group.fnp_against(mortal=mortal, psychic=is_psychic(weapon))


@cached(maxsize=256)
def feel_no_pain(damage: PMF, fnp: int | None) -> PMF:
    """Wounds actually lost from ``damage``: each one is ignored on a D6 roll of ``fnp``+."""
    if fnp is None:
        return damage
    # d wounds of which j are lost: C(d, j) (fnp - 1)^j (7 - fnp)^(d - j) over 6^d, all over
    # 6^(most d) (integer weights at once)
    weights = damage.weights()
    top = max(weights)
    out: dict[int, int] = {}
    for d, w in weights.items():
        scale = w * 6 ** (top - d)
        for j in range(d + 1):
            out[j] = out.get(j, 0) + scale * comb(d, j) * (fnp - 1) ** j * (7 - fnp) ** (d - j)
    return PMF._in_order(out)  # j = 0, 1, ... met in order (d ascending)
