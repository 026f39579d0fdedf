"""Several steps against one target, carrying its exact state: attacks by one or more units,
Reanimation Protocols, mortal wounds (dice, a PMF or a named rule's roll), and
whole turns; Deadly Demise over a sequence (:func:`sequence_demise`).

>>> import mathhammer as mh
>>> warriors = mh.Target(models=10, toughness=4, save=4, wounds=1,
...                      abilities=["reanimation protocols"])
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> t = turns((bolt, 10), warriors, 2)
>>> [step.label for step in t.steps]
['attack 1', 'reanimate', 'attack 2']
>>> t.destroyed[0] <= t.destroyed[-1]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..errors import InputError
from ..mechanics.effects import deadly_demise_wounds, mortal_wounds, reanimate
from ..model.loadout import is_one_shot
from ..model.named import NamedRule
from ..model.profiles import Target, Weapon
from ..model.squad import Squad, initial_state, models_alive, unit_weights
from ..prob.dice import dice
from ..prob.pmf import PMF
from .attack import attack, fired_weapons, own_profile
from .work import check_turns


@attrs.frozen
class Attack:
    """A step: ``attack(profiles, target, **options)`` from the current state."""

    profiles: Any = attrs.field(eq=False)
    options: tuple[tuple[str, Any], ...] = ()
    apply: tuple[NamedRule, ...] = ()
    label: str = "attack"

    @classmethod
    def make(cls, profiles: Any, *, apply: Sequence[NamedRule] = (), label: str = "attack",
             **options: Any) -> Attack:
        return cls(profiles, tuple(sorted(options.items())), tuple(apply), label)

    def __call__(self, target: Target | Squad, state: PMF) -> PMF:
        return attack(self.profiles, target, state=state, apply=self.apply,
                      **dict(self.options)).state


@attrs.frozen
class Spent:
    """A step where nothing attacks: every weapon was One Shot and has fired (a turn after
    the first, see :func:`later_turn`); the state is unchanged."""

    label: str = "attack"

    def __call__(self, target: Target | Squad, state: PMF) -> PMF:
        return state


def later_turn(profiles: Sequence[tuple[Weapon, int]]) -> list[tuple[Weapon, int]]:
    """The weapons that fire in a turn after the first: all but the One Shot ones (fired once
    per battle, in the first turn). The choice of weapons is not made again.

    >>> gun = Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
    >>> arrow = Weapon("Arrow", attacks=1, skill=2, strength=16, ap=-5, damage="D6+2",
    ...                abilities=["one shot"])
    >>> [w.name for w, _ in later_turn([(arrow, 1), (gun, 1)])]
    ['Gun']
    """
    return [(w, n) for w, n in profiles if not is_one_shot(w)]


def turn_step(profiles: Sequence[tuple[Weapon, int]], turn: int, *, label: str,
              apply: Sequence[Any] = (), **options: Any) -> Attack | Spent:
    """Turn ``turn`` (from 1) of a sequence of the same attack: :class:`Attack` with the
    weapons of that turn (:func:`later_turn` after the first), or :class:`Spent` when none
    is left."""
    fired = list(profiles) if turn == 1 else later_turn(list(profiles))
    if not fired:
        return Spent(label)
    return Attack.make(fired, apply=apply, label=label, **options)


@attrs.frozen
class Reanimate:
    """A step: Reanimation Protocols (``wounds`` reanimated, D3 by default)."""

    wounds: str = "D3"
    label: str = "reanimate"

    def __call__(self, target: Target | Squad, state: PMF) -> PMF:
        return reanimate(target, state, self.wounds)


@attrs.frozen
class MortalWounds:
    """A step: ``amount`` mortal wounds (a dice expression, a PMF or a named rule that is a
    mortal-wound roll, e.g. ``find_rule("Disintegration Beams")``)."""

    amount: Any
    excess_lost: bool = False
    label: str = "mortal wounds"

    def __call__(self, target: Target | Squad, state: PMF) -> PMF:
        amount = self.amount
        if isinstance(amount, str):
            try:
                amount = dice(amount)
            except ValueError as e:
                raise InputError(f"ROLL {amount!r}: {e}") from None
        elif isinstance(amount, NamedRule):
            if amount.mortal_wounds is None:
                raise InputError(f"ROLL {amount.name!r}: {amount.name} is not a mortal-wound "
                                 f"roll ({amount.describe()})")
            amount = amount.mortal_wounds.pmf()
        return mortal_wounds(target, state, amount, self.excess_lost)


@attrs.frozen
class Timeline:
    """The target's state after each step of a sequence."""

    target: Target | Squad
    steps: tuple[Any, ...]
    states: tuple[PMF, ...]  # the start, then one per step

    @property
    def final(self) -> PMF:
        return self.states[-1]

    @property
    def destroyed(self) -> list[Fraction]:
        """P(the target is destroyed) after each step (a destroyed unit stays destroyed)."""
        return [st.map(models_alive).prob(0) for st in self.states[1:]]

    @property
    def models_left(self) -> PMF:
        return self.final.map(models_alive)

    @property
    def kills(self) -> PMF:
        """Models destroyed at the end, counted from the target's starting strength."""
        full = models_alive(initial_state(self.target))
        return self.final.map(lambda s: full - models_alive(s))


def sequence(target: Target | Squad | Any, steps: Sequence[Any],
             state: PMF | None = None) -> Timeline:
    """Run ``steps`` (each a callable ``(target, state) -> state``) against ``target``."""
    if hasattr(target, "as_target"):
        target = target.as_target()
    if not isinstance(target, Target | Squad):
        raise TypeError(f"target: expected a Target, a Squad or a unit, got "
                        f"{type(target).__name__}")
    if isinstance(steps, str) or not isinstance(steps, Sequence):
        raise TypeError(f"steps: expected a list of steps, got {type(steps).__name__}")
    start = state if state is not None else PMF.point(initial_state(target))
    unit_weights(target, start)  # checks the state
    states = [start]
    for step in steps:
        states.append(step(target, states[-1]))
    return Timeline(target, tuple(steps), tuple(states))


def turns(profiles: Any, target: Target | Squad | Any, n: int, *, reanimation: bool | None = None,
          apply: Sequence[NamedRule] = (), **options: Any) -> Timeline:
    """``n`` turns of the same attack; a target with Reanimation Protocols reanimates between
    them (``reanimation`` forces it on or off). A One Shot weapon fires in the first turn
    only (:func:`later_turn`).

    >>> import mathhammer as mh
    >>> arrow = mh.Weapon("Arrow", attacks=1, skill=2, strength=16, ap=-5, damage="D6+2",
    ...                   abilities=["one shot"])
    >>> t = turns((arrow, 1), mh.Target(models=5, toughness=4, save=3, wounds=2), 3)
    >>> [type(s).__name__ for s in t.steps], t.kills.mean()  # hit 5/6 * wound 5/6, no save
    (['Attack', 'Spent', 'Spent'], Fraction(25, 36))
    """
    check_turns(n)
    if hasattr(target, "as_target"):
        target = target.as_target()
    groups = target.groups if isinstance(target, Squad) else (target,)
    if reanimation is None:
        reanimation = any(g.reanimation for g in groups)
    fired = fired_weapons(profiles, target, apply=apply,
                          **{k: v for k, v in options.items() if k != "attacker"})
    one_shot = any(is_one_shot(w) for w, _ in fired)
    if one_shot and options.get("attacker") is None:  # a unit's weapons: chosen once
        options = {**options, "attacker": own_profile(profiles)}
    steps: list[Any] = []
    for i in range(1, n + 1):
        if i > 1 and reanimation:
            steps.append(Reanimate())
        label = f"attack {i}"
        steps.append(turn_step(fired, i, apply=apply, label=label, **options) if one_shot
                     else Attack.make(profiles, apply=apply, label=label, **options))
    return sequence(target, steps)


def sequence_demise(timeline: Timeline) -> PMF | None:
    """Deadly Demise over a whole sequence: the mortal wounds a unit within 6" suffers from
    every model destroyed at any step (a reanimated model can die again), or None if the target
    has no Deadly Demise. Exact: the state and the wounds so far are carried together.

    >>> import mathhammer as mh
    >>> t = mh.Target(models=1, toughness=9, save=3, wounds=3, abilities=["deadly demise 2"])
    >>> tl = mh.sequence(t, [MortalWounds("D3"), MortalWounds("D3")])
    >>> sequence_demise(tl).prob(2)  # destroyed unless both roll 1: 8/9, then a 6 on 1/6
    Fraction(4, 27)
    """
    target = timeline.target
    groups = target.groups if isinstance(target, Squad) else (target,)
    if not any(g.deadly_demise for g in groups):
        return None
    joint = timeline.states[0].map(lambda s: (s, 0))
    for step in timeline.steps:
        after: dict[Any, PMF] = {}
        demise: dict[tuple[Any, Any], PMF] = {}

        def go(pair: tuple[Any, int], step: Any = step, after: dict = after,
               demise: dict = demise) -> PMF:
            s, so_far = pair
            if s not in after:
                after[s] = step(target, PMF.point(s))

            def wounds(a: Any) -> PMF:
                if (s, a) not in demise:
                    demise[(s, a)] = deadly_demise_wounds(target, s, PMF.point(a))
                return demise[(s, a)].map(lambda d: (a, so_far + d))

            return after[s].bind(wounds)

        joint = joint.bind(go)
    return joint.map(lambda pair: pair[1])


@attrs.frozen
class Roll:
    """A mortal-wound roll: its label, what is rolled, and the mortal wounds it inflicts."""

    label: str
    what: str
    pmf: PMF
