"""Effects outside a single attack (docs/rules.md, section 10): mortal wounds, Reanimation
Protocols, Deadly Demise, Hazardous and Crushing Impact, each a transform on exact
distributions.

A target's state is a PMF over :class:`TargetState` (or tuples of them for a :class:`Squad`).

>>> import mathhammer as mh
>>> warriors = mh.Target(models=10, toughness=4, save=4, wounds=1)
>>> lost_two = mh.PMF.point(mh.TargetState(8, 0))
>>> reanimate(warriors, lost_two) == mh.PMF.uniform([(9, 0), (10, 0), (10, 0)])  # D3, at most 2
True
>>> mortal_wounds(warriors, lost_two, "D3").map(lambda s: s.models).mean()  # every one kills
Fraction(6, 1)
"""

from __future__ import annotations

from fractions import Fraction

import attrs

from ..errors import InputError
from ..model.profiles import Target
from ..model.ruleset import load_ruleset
from ..model.squad import Squad, as_unit_state, public_states, unit_weights
from ..model.state import TargetState, UnitState
from ..prob.dice import dice
from ..prob.markov import Move, Weights, chain
from ..prob.pmf import PMF
from .allocation import mortal_move


def _amount(amount: PMF | int | str) -> PMF:
    if isinstance(amount, PMF):
        return amount
    if isinstance(amount, bool) or not isinstance(amount, int | str):
        raise TypeError(f"amount: expected a dice expression, an int or a PMF, got {amount!r}")
    return dice(amount)


def _target(target: Target | Squad) -> Target | Squad:
    if hasattr(target, "as_target"):
        target = target.as_target()
    if not isinstance(target, Target | Squad):
        raise TypeError(f"target: expected a Target or a Squad, got {type(target).__name__}")
    return target


def _mortal_fnp(group: Target) -> int | None:
    """The Feel No Pain a model of ``group`` rolls against a mortal wound (its Feel No Pain
    against mortal wounds only, if better)."""
    return group.fnp_against(mortal=True, psychic=False)


def _run(target: Target | Squad, state: PMF | None, count: PMF, move: Move) -> PMF:
    weights: Weights = chain(unit_weights(target, state), count, move)
    return public_states(target, weights)


def mortal_wounds(target: Target | Squad, state: PMF | None, amount: PMF | int | str,
                  excess_lost: bool = False) -> PMF:
    """The target's state after ``amount`` mortal wounds, applied one at a time (Feel No Pain
    for each) and spilling over to the next model; ``excess_lost`` makes them one packet that
    destroys at most one model (Devastating Wounds, Hazardous).

    >>> t = Target(models=2, toughness=4, save=3, wounds=2)
    >>> mortal_wounds(t, None, 3).prob(TargetState(1, 1)), mortal_wounds(t, None, 3, True)
    (Fraction(1, 1), PMF({TargetState(models=1, wounds_lost=0): 1})  # /1)
    """
    target = _target(target)
    unit = Squad.of(target)
    move = mortal_move(unit.allocation, [_mortal_fnp(g) for g in unit.groups],
                       _amount(amount), excess_lost)
    return _run(target, state, PMF.point(1), move)


def devastating_wounds(target: Target | Squad, state: PMF | None, damage: PMF, n: int,
                       excess_lost: bool = True, precision: bool = False) -> PMF:
    """``n`` Devastating Wounds, each ``damage`` mortal wounds (Feel No Pain per wound). With
    ``excess_lost`` (10e) each destroys at most one model; otherwise they spill over.
    ``precision``: they may be allocated to a CHARACTER.

    >>> t = Target(models=3, toughness=4, save=3, wounds=1)
    >>> devastating_wounds(t, None, PMF.point(2), 1).map(lambda s: s.models)
    PMF({2: 1})  # /1
    >>> devastating_wounds(t, None, PMF.point(2), 1, excess_lost=False).map(lambda s: s.models)
    PMF({1: 1})  # /1
    """
    target = _target(target)
    unit = Squad.of(target)
    move = mortal_move(unit.allocation, [_mortal_fnp(g) for g in unit.groups], damage,
                       excess_lost, precision)
    return _run(target, state, PMF.point(n), move)


def reanimate(target: Target | Squad, state: PMF | None = None,
              wounds: PMF | int | str = "D3") -> PMF:
    """Reanimation Protocols: ``wounds`` (D3) reanimated one at a time. A model that has lost
    wounds regains one; otherwise, below Starting Strength, a destroyed model returns with 1
    wound (non-CHARACTER groups first). A destroyed unit does not reanimate, and neither does
    the destroyed part of an attached unit (its Leader, or its whole Bodyguard).

    >>> t = Target(models=2, toughness=4, save=3, wounds=3)
    >>> dict(reanimate(t, PMF.point(TargetState(1, 1)), 2))  # heal 1, then a model returns
    {TargetState(models=2, wounds_lost=2): Fraction(1, 1)}
    """
    target = _target(target)
    unit = Squad.of(target)
    chars = unit.characters
    order = [i for i, c in enumerate(chars) if not c] + [i for i, c in enumerate(chars) if c]

    def move(parts: UnitState) -> list[tuple[UnitState, int]]:
        standing = [i for i in order if i in unit.standing(parts)
                    and any(parts[j].models for j in _part_of(unit, i))]
        for i in standing:
            if parts[i].wounds_lost:
                s = parts[i]
                return [(parts[:i] + (TargetState(s.models, s.wounds_lost - 1),) + parts[i + 1:],
                         1)]
        for i in standing:
            s, g = parts[i], unit.groups[i]
            if s.models < g.models:
                back = TargetState(s.models + 1, g.wounds - 1)
                return [(parts[:i] + (back,) + parts[i + 1:], 1)]
        return [(parts, 1)]

    move.total = 1  # type: ignore[attr-defined]
    return _run(target, state, _amount(wounds), move)


def _part_of(unit: Squad, group: int) -> tuple[int, ...]:
    return next(p for p in unit.parts() if group in p)


def deadly_demise(kills: PMF, amount: PMF | int | str) -> PMF:
    """Mortal wounds a unit within 6" suffers from Deadly Demise X: a D6 for each model
    destroyed, on a 6 it suffers X.

    >>> deadly_demise(PMF.point(1), "D3").mean()  # 1/6 * 2
    Fraction(1, 3)
    """
    x = _amount(amount)
    each = PMF.mix([(5, PMF.point(0)), (1, x)])
    return each.random_sum(kills)


def deadly_demise_wounds(target: Target | Squad, start: TargetState | UnitState,
                         final: PMF) -> PMF | None:
    """Deadly Demise mortal wounds from the models destroyed between ``start`` and each
    ``final`` state, or None if no group of the target has Deadly Demise."""
    groups = Squad.of(target).groups
    start = as_unit_state(start)
    if not any(g.deadly_demise for g in groups):
        return None

    def wounds(after: UnitState) -> PMF:
        out = PMF.point(0)
        for g, b, a in zip(groups, start, as_unit_state(after), strict=True):
            if g.deadly_demise and b.models > a.models:
                out = out + deadly_demise(PMF.point(b.models - a.models), g.deadly_demise)
        return out

    return final.bind(wounds)


@attrs.frozen
class Hazard:
    """What Hazardous weapons do to the attacking unit."""

    tests: int  # hazard rolls made
    failed: PMF  # failed hazard rolls
    mortal: PMF  # mortal wounds suffered (before Feel No Pain)
    kills: PMF | None  # models of the attacking unit destroyed (None: no attacker profile)


def hazardous(tests: int, attacker: Target | None = None, rules: str = "10e") -> Hazard:
    """``tests`` hazard rolls (one per model firing a Hazardous weapon). 10e: each 1 makes a
    model suffer 3 mortal wounds; 11e: 1-2 fails, 1 mortal wound (3 for MONSTER/VEHICLE).
    Excess is lost; a wounded model takes the next one.

    >>> h = hazardous(2, Target(models=5, toughness=4, save=3, wounds=2))
    >>> h.failed.mean(), h.kills.prob(2)  # each fails on a 1; 3 mortal wounds kill a W2 model
    (Fraction(1, 3), Fraction(1, 36))
    """
    r = load_ruleset(rules)
    failed = PMF.binomial(tests, Fraction(r.hazard_fails_on, 6))
    per = r.hazard_mortal_wounds
    if attacker is not None and {"MONSTER", "VEHICLE"} & set(attacker.keywords):
        per = r.hazard_mortal_wounds_monster_vehicle
    mortal = failed.map(lambda n: n * per)
    if attacker is None:
        return Hazard(tests, failed, mortal, None)
    move = mortal_move(Squad.of(attacker).allocation, [_mortal_fnp(attacker)], PMF.point(per),
                       excess_lost=True)
    final = _run(attacker, None, failed, move)
    return Hazard(tests, failed, mortal, final.map(lambda s: attacker.models - s.models))


def crushing_impact(toughness: int) -> PMF:
    """Crushing Impact (11e core stratagem): roll D6s equal to T; each 5+ is 1 mortal wound to
    the enemy (at most 6), each 1 is 1 mortal wound to the charging model. A PMF over
    ``(to the enemy, to itself)``.

    >>> crushing_impact(1) == PMF({(0, 0): 3, (1, 0): 2, (0, 1): 1})
    True
    >>> crushing_impact(10**6)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: toughness: expected a Toughness from 1 to 30, got 1000000
    """
    if isinstance(toughness, bool) or not isinstance(toughness, int):
        raise TypeError(f"toughness: expected an integer, got {type(toughness).__name__}")
    if not 1 <= toughness <= 30:  # as `mathhammer mortal --crushing-impact T`
        raise InputError(f"toughness: expected a Toughness from 1 to 30, got {toughness}")
    die = PMF.uniform([(1 if f >= 5 else 0, 1 if f == 1 else 0) for f in range(1, 7)])
    rolls = die.repeat(toughness, op=lambda a, b: (a[0] + b[0], a[1] + b[1]), zero=(0, 0))
    return rolls.map(lambda t: (min(t[0], 6), t[1]))
