"""The target unit: one or more model groups in allocation order (docs/rules.md, "Attached units").

A plain unit is one group (a :class:`Target`); a mixed unit or a Leader with its Bodyguard is a
:class:`Squad` of several. Groups whose keywords include CHARACTER are allocated to last (a
Leader), except by Precision attacks. The engine turns every target into a Squad.

>>> import mathhammer as mh
>>> guards = mh.Target(models=2, toughness=4, save=7, wounds=1, name="Guards")
>>> boss = mh.Target(models=1, toughness=4, save=7, wounds=1, keywords=["CHARACTER"], name="Boss")
>>> sniper = mh.Weapon("Sniper", attacks=1, skill=None, strength=8, ap=0, damage=1,
...                    abilities=["precision"])
>>> r = mh.attack(sniper, mh.Squad((guards, boss)))  # wounds on 2+, no save: the Boss dies on 5/6
>>> r.character_destroyed
Fraction(5, 6)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

import attrs

from ..errors import InputError
from ..prob.pmf import PMF
from .profiles import Target
from .ruleset import RuleSet, ToughnessMixed
from .state import Group, TargetState, UnitState


def _groups(values: Iterable[Target]) -> tuple[Target, ...]:
    if type(values) is tuple and len(values) == 1 and type(values[0]) is Target:
        return values  # one group (every plain Target's unit), at once
    groups = tuple(values)
    if not groups or not all(isinstance(g, Target) for g in groups):
        raise InputError(f"groups: expected one or more Target model groups, got {values!r}")
    return groups


@attrs.frozen(cache_hash=True)  # a key of cached steps
class Squad:
    """A target unit of one or more model groups, listed in allocation order."""

    groups: tuple[Target, ...] = attrs.field(converter=_groups)
    name: str = ""
    #: which groups are CHARACTER models
    characters: tuple[bool, ...] = attrs.field(init=False, eq=False, repr=False)
    #: what allocation needs of each group (wounds, CHARACTER or not): the engine asks at
    #: every step
    allocation: tuple[Group, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # worked out once per unit, as it is made (a cached property of a slotted class costs
        # an AttributeError when first asked)
        chars = tuple(["CHARACTER" in g.keywords for g in self.groups])
        object.__setattr__(self, "characters", chars)
        object.__setattr__(self, "allocation", tuple(
            [Group(g.wounds, c) for g, c in zip(self.groups, chars, strict=True)]))

    @classmethod
    def of(cls, target: Target | Squad) -> Squad:
        """The unit a target stands for: a Squad as it is, a Target as a one-group unit."""
        if type(target) is Target and cls is Squad:  # a plain Target (most): made at once
            return _one_group(target)
        return target if isinstance(target, Squad) else cls((target,), target.name)

    @classmethod
    def attach(cls, bodyguard: Target | Squad, leader: Target | Squad, name: str = "") -> Squad:
        """A Leader attached to a Bodyguard unit: one target unit, the Leader's model groups
        last and CHARACTERs (whatever their keywords say).

        >>> guard = Target(models=5, toughness=4, save=3, wounds=2, name="Intercessors")
        >>> boss = Target(models=1, toughness=4, save=3, wounds=5, name="Captain")
        >>> unit = Squad.attach(guard, boss)
        >>> unit.name, unit.characters
        ('Intercessors + Captain', (False, True))
        """
        lead = []
        for g in cls.of(leader).groups:
            if "CHARACTER" not in g.keywords:
                g = attrs.evolve(g, keywords=(*g.keywords, "CHARACTER"))
            lead.append(attrs.evolve(g, name=g.name or leader.name))
        own = cls.of(bodyguard).groups
        name = name or f"{bodyguard.name} + {leader.name}"
        return cls((*own, *lead), name=name)

    @property
    def attached(self) -> bool:
        """Leader + Bodyguard: some groups are CHARACTERs and some are not."""
        return any(self.characters) and not all(self.characters)

    @property
    def models(self) -> int:
        groups = self.groups
        return groups[0].models if len(groups) == 1 else sum(g.models for g in groups)

    def start(self) -> UnitState:
        """The state of the unharmed unit."""
        groups = self.groups
        if len(groups) == 1:  # one group (most): its state at once
            return (_state(TargetState, (groups[0].models, 0)),)
        return tuple(TargetState(g.models, 0) for g in groups)

    def parts(self) -> tuple[tuple[int, ...], ...]:
        """The units this one is made of: Bodyguard and Leader groups of an attached unit (each a
        unit of its own once the other is destroyed), or all the groups together."""
        if not self.attached:
            return (tuple(range(len(self.groups))),)
        chars = self.characters
        return (tuple(i for i, c in enumerate(chars) if not c),
                tuple(i for i, c in enumerate(chars) if c))

    def standing(self, state: UnitState | None = None) -> tuple[int, ...]:
        """The groups of the unit the attacks are made against in ``state``: an attached unit
        whose Bodyguard (or Leader) is destroyed is the other part alone."""
        state = self.start() if state is None else state
        alive = [p for p in self.parts() if any(state[i].models for i in p)]
        return tuple(i for p in (alive or self.parts()) for i in p)

    def toughness(self, rules: RuleSet | None = None, state: UnitState | None = None) -> int:
        """The T attacks use, from the groups with models left. An attached unit uses its
        Bodyguard's: in 10e the first Bodyguard group's, in 11e the highest among them; once
        the Bodyguard is destroyed, the Leader's. Any other unit: the highest T."""
        state = self.start() if state is None else state
        alive = [i for i in self.standing(state) if state[i].models] or list(range(len(state)))
        if self.attached:
            bodyguard = [self.groups[i].toughness for i in self.parts()[0] if i in alive]
            if bodyguard:
                highest = rules is not None and rules.toughness_mixed == ToughnessMixed.HIGHEST
                return max(bodyguard) if highest else bodyguard[0]
        return max(self.groups[i].toughness for i in alive)

    def rolls_target(self, rules: RuleSet | None = None, state: UnitState | None = None) -> Target:
        """One profile for the rolls that do not depend on the model hit (hit and wound rolls):
        the unit's Toughness, the keywords of its groups, Stealth only if every group has it."""
        if len(self.groups) == 1:  # one group, unharmed: its own profile (as below, at once)
            first = self.groups[0]
            if (not first.abilities and not first.keywords and self.name == first.name
                    and (state is None or state[0] == (first.models, 0))):
                return first  # no keyword, no ability: the checks below all pass
            if ((state is None or state[0] == (first.models, 0))
                    and first.abilities == (("stealth",) if first.stealth else ())
                    and len(set(first.keywords)) == len(first.keywords)
                    and (not self.name or self.name == first.name)):
                return first
        state = self.start() if state is None else state
        standing = [self.groups[i] for i in self.standing(state)]
        first = standing[0]
        keywords = tuple(dict.fromkeys(k for g in standing for k in g.keywords))
        stealth = all(g.stealth for g in standing)
        models, toughness = sum(s.models for s in state) or 1, self.toughness(rules, state)
        abilities, name = ("stealth",) if stealth else (), self.name or first.name
        if (models, toughness, keywords, abilities, name) == (
                first.models, first.toughness, first.keywords, first.abilities, first.name):
            return first  # an unharmed unit of one group: its own profile
        return attrs.evolve(first, models=models, toughness=toughness, keywords=keywords,
                            abilities=abilities, name=name)


_new = object.__new__
_state = tuple.__new__  # a TargetState (or Group) made without its Python __new__ (NamedTuple)


def _one_group(target: Target) -> Squad:
    """``Squad((target,), target.name)``, its fields set as ``__init__`` and
    ``__attrs_post_init__`` set them, without the Python calls of its converter and checks."""
    unit = _new(Squad)
    character = "CHARACTER" in target.keywords
    _s_groups(unit, (target,))
    _s_name(unit, target.name)
    _s_characters(unit, (character,))
    _s_allocation(unit, (_state(Group, (target.wounds, character)),))
    _s_hash(unit, None)
    return unit


#: each slot's own setter (faster than ``object.__setattr__``, which finds it by name)
_s_groups, _s_name, _s_characters, _s_allocation, _s_hash = (
    Squad.__dict__[name].__set__ for name in ("groups", "name", "characters", "allocation",
                                              "_attrs_cached_hash"))


# ------------------------------------------------------------------ states at the boundary
# Inside the engine every state is a UnitState (a tuple of group states); a plain Target's
# states are handed in and out as its single TargetState, as they always were.

Targetish = Target | Squad


def initial_state(target: Targetish) -> TargetState | UnitState:
    """The state of an unharmed target (a TargetState for a Target, a tuple for a Squad)."""
    return target.start() if isinstance(target, Squad) else TargetState(target.models, 0)


def models_alive(state: TargetState | UnitState) -> int:
    """Models left in a target state (a TargetState, or a tuple of them for a Squad)."""
    if type(state) is tuple and len(state) == 1:  # a unit of one group (most): at once
        return state[0].models
    return state.models if isinstance(state, TargetState) else sum(s.models for s in state)


def as_unit_state(state: TargetState | UnitState) -> UnitState:
    """A state as a unit state: a plain Target's TargetState becomes a 1-tuple."""
    return (state,) if isinstance(state, TargetState) else state


def unit_weights(target: Targetish, state: PMF | None) -> dict[UnitState, int]:
    """A target's state distribution as integer weights over unit states (checked)."""
    unit = Squad.of(target)
    if state is None:
        return {unit.start(): 1}
    if not isinstance(state, PMF):
        raise TypeError(f"state: expected a PMF of target states, got {type(state).__name__}")
    out: dict[UnitState, int] = {}
    for s, w in state.weights().items():
        parts = s if isinstance(target, Squad) else (s,)
        ok = isinstance(parts, tuple) and len(parts) == len(unit.groups) and all(
            isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], int)
            and isinstance(p[1], int) and 0 <= p[0] <= g.models and 0 <= p[1] < g.wounds
            and (p[0] > 0 or p[1] == 0)
            for p, g in zip(parts, unit.groups, strict=False))
        if not ok:
            shape = ", ".join(f"{g.models} models of {g.wounds} wounds" for g in unit.groups)
            raise InputError(f"state: {s!r} is not a state of this target ({shape})")
        key = tuple(TargetState(*p) for p in parts)
        out[key] = out.get(key, 0) + w
    return out


def public_states(target: Targetish, weights: dict[UnitState, int]) -> PMF:
    """Unit-state weights as the PMF a caller sees (TargetStates for a plain Target)."""
    return PMF(weights if isinstance(target, Squad) else {s[0]: w for s, w in weights.items()})


def character_destroyed(target: Targetish, states: PMF) -> Fraction:
    """P(every CHARACTER model of a Squad destroyed) in a distribution of its states."""
    if not isinstance(target, Squad) or not any(target.characters):
        raise InputError("character_destroyed: the target has no CHARACTER model group")
    chars = target.characters
    return sum((p for s, p in states.items()
                if all(g.models == 0 for g, c in zip(s, chars, strict=True) if c)), Fraction(0))


def _title(ability: str) -> str:
    return " ".join(w if re.search(r"\d", w) else w.capitalize() for w in ability.split())


def describe_target(target: Target | Squad) -> str:
    """A target as inline tokens (model groups of a squad joined by ``+``).

    >>> describe_target(Target(5, 4, 3, 2, invuln=4, keywords=("INFANTRY",)))
    '5x T4 Sv3+ W2 4++ INFANTRY'
    """
    if isinstance(target, Squad):
        return " + ".join(describe_target(g) for g in target.groups)
    parts = [f"{target.models}x", f"T{target.toughness}", f"Sv{target.save}+",
             f"W{target.wounds}"]
    if target.invuln:
        parts.append(f"{target.invuln}++")
    if target.fnp:
        parts.append(f"FNP{target.fnp}+")
    parts += [_title(a) for a in target.abilities] + list(target.keywords)
    return " ".join(parts)
