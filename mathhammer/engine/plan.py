"""Several attacking units and several targets: which unit shoots what, exactly.

Built on :mod:`mathhammer.engine.sequence`: the units that shoot one target resolve in the
given order through :func:`~mathhammer.engine.sequence.sequence`, the target's exact state
carried from one to the next. Targets are independent (different dice), so an expected value
over several targets is the sum of each target's, and each (target, ordered units) is
evaluated once (:class:`Planner` memoises the one-unit transition from each target state).

- :func:`salvo`: several units into one target, in order (``kills A B -t T``).
- :meth:`Planner.best`: the best assignment of units (or their weapons) to targets and the next
  best different one, each valued exactly and proved (:mod:`mathhammer.engine.search`: dynamic
  programming over the targets with branch and bound; within a budget, the best found with a
  proved bound on the gap). :meth:`Planner.fixed` enumerates every assignment, ranked.
- :meth:`Planner.fewest`: the fewest units, in order, that destroy a target with probability
  at least P.
- :meth:`Planner.adaptive`: units fire in order and each picks its target after seeing what
  the earlier ones did; dynamic programming over the joint state of the targets, exact up to a
  budget of states (beyond it: adapt for the first units, then a fixed plan chosen from what
  they did, itself evaluated exactly).

Why one module: the fixed plan, the fewest units and the adaptive plan share one memo of
transitions and partial sequences (:class:`Planner`), which is what makes a plan fast.

>>> import mathhammer as mh
>>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=1)
>>> one = mh.Target(models=1, toughness=4, save=7, wounds=1)
>>> a, b = Shooter.of("A", [(gun, 1)]), Shooter.of("B", [(gun, 1)])
>>> salvo(one, [a, b]).destroyed  # 5/6 to hit * 5/6 to wound, then again if it stands
[Fraction(25, 36), Fraction(1175, 1296)]
>>> p = Planner([a, b], [Aim("X", one, 10), Aim("Y", one, 20)], Objective.POINTS)
>>> best = p.best()
>>> best.best.value, best.best.targets, best.gap  # one each: (10 + 20) * 25/36
(Fraction(125, 6), ((0,), (1,)), Fraction(0, 1))
>>> best.runner_up.value  # both into Y: 20 * 1175/1296
Fraction(5875, 324)
>>> p.adaptive().value  # Y first; then X if Y fell (25/36), else Y again
Fraction(14875, 648)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

import attrs

from ..errors import InputError
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.squad import Squad, initial_state, models_alive
from ..prob.pmf import PMF
from .search import BUDGET, Piece, Problem, search
from .sequence import Attack, MortalWounds, Timeline, sequence

#: joint target states the adaptive plan may visit before it adapts for fewer units
ADAPTIVE_BUDGET = 20_000
#: units an adaptive plan that stops adapting still replans from what it saw (the best fixed
#: plan for them from each state, by dynamic programming over subsets: it grows as 3**units);
#: with more, they follow the best fixed plan made at the start
REPLAN_UNITS = 6
#: sets of units :meth:`Planner.fewest` may try before it stops
MAX_SUBSETS = 20_000
#: assignments :meth:`Planner.fixed` may enumerate (the search, :meth:`Planner.best`, has none)
MAX_ASSIGNMENTS = 300_000


NO_OPTIONS = Options()


class Objective(StrEnum):
    """What a plan maximises (each target's value of its final state, summed)."""

    POINTS = "points"  #: a target's points when it is destroyed
    MODEL_POINTS = "model-points"  #: a target's points per model destroyed (points / models)
    MODELS = "models"  #: models destroyed

    @property
    def text(self) -> str:
        return {"points": "expected points destroyed (a unit's points when it is destroyed)",
                "model-points": "expected points destroyed (a unit's points per model "
                                "destroyed)",
                "models": "expected models destroyed"}[self.value]


@attrs.frozen
class Shooter:
    """An attacking unit: its weapons (each with how many models fire it), its options and
    named rules (``apply``), mortal-wound rolls after its attack (``mortal``: (label, PMF)),
    and its points (for "the least of the army")."""

    label: str
    profiles: tuple[tuple[Weapon, int], ...] = attrs.field(eq=False)
    options: Options = Options()
    apply: tuple[Any, ...] = ()  # rule names, or NamedRule values (rules from data)
    mortal: tuple[tuple[str, PMF], ...] = attrs.field(default=(), eq=False)
    points: int | None = None

    @classmethod
    def of(cls, label: str, profiles: Iterable[tuple[Weapon, int]], options: Options = NO_OPTIONS,
           apply: Iterable[Any] = (), mortal: Iterable[tuple[str, PMF]] = (),
           points: int | None = None) -> Shooter:
        return cls(label, tuple(profiles), options, tuple(apply), tuple(mortal), points)

    @property
    def weapons(self) -> tuple[str, ...]:
        """The unit's weapons by name, in order (the profiles of one weapon share a target)."""
        return tuple(dict.fromkeys(w.name for w, _ in self.profiles))

    @property
    def rule_names(self) -> tuple[str, ...]:
        """The names of the rules applied to its attacks."""
        return tuple(getattr(r, "name", r) for r in self.apply)

    def steps(self, weapons: Sequence[int] | None = None,
              against: Sequence[Any] = ()) -> list[Any]:
        """The steps of :func:`~mathhammer.engine.sequence.sequence` for this unit: its attack
        (with only the ``weapons`` given by index in :attr:`weapons`; ``against``: the
        target's rules from data), then its mortal-wound rolls (which go with the unit's first
        weapon)."""
        names = self.weapons
        chosen = set(range(len(names))) if weapons is None else set(weapons)
        profiles = [(w, n) for w, n in self.profiles if names.index(w.name) in chosen]
        opts = attrs.asdict(self.options, recurse=False)
        out: list[Any] = [Attack.make(profiles, apply=(*self.apply, *against), label=self.label,
                                      **opts)]
        if 0 in chosen:
            out += [MortalWounds(pmf, label=label) for label, pmf in self.mortal]
        return out


@attrs.frozen
class Aim:
    """A target of a plan: its name, profile and points (None: not known), and its rules
    from data that change the attacks against it (an army list's unit)."""

    name: str
    target: Target | Squad = attrs.field(eq=False)
    points: int | None = None
    rules: tuple[Any, ...] = attrs.field(default=(), eq=False)

    @property
    def models(self) -> int:
        return models_alive(initial_state(self.target))


def same_unit(a: Shooter, b: Shooter) -> bool:
    """Whether two attacking units are interchangeable in a plan: they attack alike (the same
    weapons, options and rules; the label and points may differ, as ``Pathfinder Team #2``
    or a unit whose list prices it otherwise)."""
    return (a.profiles, a.options, a.apply, a.mortal) == (b.profiles, b.options, b.apply,
                                                          b.mortal)


def same_aim(a: Aim, b: Aim) -> bool:
    """Whether two targets are interchangeable in a plan: the same profile, points and rules
    from data (only the name differs, as ``Chaos Rhino #2``)."""
    return (a.target, a.points, a.rules) == (b.target, b.points, b.rules)


def kinds(items: Sequence[Any], same: Any) -> tuple[int, ...]:
    """For each item, the index of the first item ``same`` as it (itself when none before).

    >>> kinds("abab", str.__eq__)
    (0, 1, 0, 1)
    """
    out: list[int] = []
    for i, x in enumerate(items):
        out.append(next(j for j in range(i + 1) if j == i or same(items[j], x)))
    return tuple(out)


def salvo(target: Target | Squad, shooters: Sequence[Shooter],
          state: PMF | None = None, against: Sequence[Any] = ()) -> Timeline:
    """Several units into one target, in order: :func:`~mathhammer.engine.sequence.sequence`
    of each unit's steps (see :meth:`Shooter.steps`; ``against``: the target's rules from
    data, applied to every unit's attacks)."""
    return sequence(target, [s for sh in shooters for s in sh.steps(against=against)], state)


def after_each(timeline: Timeline, shooters: Sequence[Shooter]) -> list[int]:
    """The index in ``timeline.states`` of the state after each unit of a :func:`salvo`."""
    out, i = [], 0
    for sh in shooters:
        i += len(sh.steps())
        out.append(i)
    return out


def until(timeline: Timeline, shooters: Sequence[Shooter], p: Fraction) -> int | None:
    """The fewest units of a :func:`salvo`, in order, that destroy the target with probability
    at least ``p`` (None: not even all of them)."""
    for k, i in enumerate(after_each(timeline, shooters), 1):
        if timeline.states[i].map(models_alive).prob(0) >= p:
            return k
    return None


#: what one unit does: (unit index, indexes of its weapons that fire at this target)
Part = tuple[int, tuple[int, ...]]


@attrs.frozen
class Assignment:
    """One fixed plan: for each unit, the target (index into the aims) of each of its weapons
    (all the same without ``split``), and the exact value."""

    targets: tuple[tuple[int, ...], ...]
    value: Fraction
    #: which plan it is (:meth:`Planner.plan_key`, numbered by :meth:`Planner.fixed`): two
    #: assignments with one number differ only in which of alike units does what
    plan: int | None = attrs.field(default=None, eq=False, repr=False)

    def parts(self, aim: int) -> tuple[Part, ...]:
        """The units (and their weapons) that shoot aim ``aim``, in order."""
        return tuple((i, tuple(w for w, t in enumerate(ts) if t == aim))
                     for i, ts in enumerate(self.targets) if aim in ts)


@attrs.frozen
class Fewest:
    """The fewest units, in the given order, that destroy a target with probability >= p."""

    units: tuple[int, ...] | None  #: None: even all of them fall short (or none found)
    destroyed: Fraction  #: P(destroyed) with those units (with all, when none suffice)
    tried: int  #: sets of units evaluated (those of interchangeable units in one order: once)
    #: False: stopped after :data:`MAX_SUBSETS` sets without an answer
    complete: bool = True


@attrs.frozen
class Best:
    """The best fixed plan the search found (:meth:`Planner.best`), its exact value and a
    proved ``bound`` (no assignment is worth more: ``gap`` 0 when it is proved optimal), and
    the next best different plan likewise (``runner_up``, None when there is none:
    ``runner_bound`` bounds every plan that differs from the best)."""

    best: Assignment
    bound: Fraction
    runner_up: Assignment | None
    runner_bound: Fraction | None
    steps: int  #: the search's steps (a subset valued or a state of the targets visited)
    complete: bool  #: whether the search finished (False: it stopped at its budget)
    budget: int
    #: the Lagrange bound before any branching (docs/rules.md, section 11)
    root_bound: Fraction | None = None

    @property
    def gap(self) -> Fraction:
        """How much better than the best found the optimum can be (0: proved optimal)."""
        return self.bound - self.best.value

    @property
    def proved(self) -> bool:
        return self.gap == 0

    @property
    def runner_proved(self) -> bool:
        """Whether the next best different plan is proved to be the next best."""
        return self.runner_up is not None and self.runner_bound == self.runner_up.value


@attrs.frozen
class Adaptive:
    """The best adaptive policy found: its exact value, how many units it adapts for
    (``depth``; all of them: the optimum), the joint states at each level, and its first
    decisions."""

    value: Fraction
    depth: int
    units: int
    states: tuple[int, ...]  #: joint target states at each level 0..depth
    #: each first choice and its value, best first (of interchangeable targets the best one)
    first: tuple[tuple[tuple[int, ...], Fraction], ...]
    #: the second unit's best choice after each outcome of the first: (state of the first
    #: choice's targets, probability, choice)
    second: tuple[tuple[Any, Fraction, tuple[int, ...]], ...]
    #: what the units after ``depth`` do: "" (none left), "replanned" (the best fixed plan
    #: from what the first ones did) or "fixed" (the best fixed plan made at the start)
    rest: str = ""

    @property
    def exact(self) -> bool:
        """Whether this is the optimal policy (it adapts for every unit)."""
        return self.depth >= self.units


class Planner:
    """Plans for ``shooters`` against ``aims``: each unit's target (each weapon's with
    ``split``), valued by ``objective``; one-unit transitions from each target state are
    memoised, so each (target, state, unit) is resolved once."""

    def __init__(self, shooters: Sequence[Shooter], aims: Sequence[Aim],
                 objective: Objective = Objective.MODELS, *, split: bool = False,
                 candidates: Sequence[Sequence[int]] | None = None,
                 half: Iterable[tuple[int, int]] = ()):
        if not shooters or not aims:
            raise InputError("a plan needs at least one attacking unit and one target")
        self.shooters, self.aims = tuple(shooters), tuple(aims)
        self.objective, self.split = Objective(objective), split
        #: the targets each unit may pick, its reach (all by default): the search's candidates
        self.candidates = [tuple(range(len(self.aims)))] * len(self.shooters) \
            if candidates is None else [tuple(c) for c in candidates]
        #: the (unit, target) pairs where the unit is within half range of the target (its
        #: attacks at that target have ``half_range``)
        self.half = frozenset(half)
        #: the targets each unit can shoot (its candidates)
        self.reach = tuple(self.candidates)
        self._reach = tuple(frozenset(c) for c in self.candidates)
        if self.objective != Objective.MODELS:
            for a in self.aims:
                if a.points is None:
                    raise InputError(f"target {a.name!r}: its points are not known; give them "
                                     f"(--points \"{a.name}=N\") or plan for models destroyed")
        #: each unit's and target's first interchangeable one (:func:`same_unit`,
        #: :func:`same_aim`): plans that only swap them are one plan (:meth:`plan_key`)
        units, targets = range(len(self.shooters)), range(len(self.aims))
        # alike units reach alike (the same targets, within half range of the same ones), alike
        # targets are reached alike (by the same units, from as near)
        self.unit_kinds = kinds(units, lambda i, j: same_unit(self.shooters[i], self.shooters[
            j]) and self._reach[i] == self._reach[j] and all(
                ((i, t) in self.half) == ((j, t) in self.half) for t in targets))
        self.aim_kinds = kinds(targets, lambda s, t: same_aim(self.aims[s], self.aims[t]) and all(
            (s in self._reach[u]) == (t in self._reach[u]) and ((u, s) in self.half) == (
                (u, t) in self.half) for u in units))
        self._moves: dict[tuple[tuple[int, int], tuple[int, ...], Any], PMF] = {}
        self._kind: dict[tuple[int, int], tuple[int, int]] = {}
        self._kind_of: dict[tuple[Any, Any, Any], tuple[int, int]] = {}
        self._after: dict[tuple[int, Any, tuple[Part, ...]], PMF] = {}
        self._leaf: dict[Any, Any] = {}  # expected values, subset values, leaf values

    def only(self, units: Sequence[int], aims: Sequence[int]) -> Planner:
        """A planner for some of the units against some of the targets, each unit with its
        reach among them (a unit that reaches none of them stays, with no target to pick)."""
        where = {t: k for k, t in enumerate(aims)}
        return Planner([self.shooters[i] for i in units], [self.aims[t] for t in aims],
                       self.objective, split=self.split,
                       candidates=[[where[t] for t in sorted(self._reach[i]) if t in where]
                                   for i in units],
                       half=[(k, where[t]) for k, i in enumerate(units) for t in where
                             if (i, t) in self.half])

    # -- one target ------------------------------------------------------------------------

    def start(self, aim: int) -> Any:
        return initial_state(self.aims[aim].target)

    def move(self, unit: int, weapons: tuple[int, ...], aim: int, state: Any) -> PMF:
        """The target's states after ``unit`` (its ``weapons``) shoots it from ``state``: once
        for every unit that attacks alike (the same profiles and rules, as near) and every
        target of the same profile and rules (:meth:`move_kind`), whatever their points or
        names."""
        key = (self.move_kind(unit, aim), weapons, state)
        got = self._moves.get(key)
        if got is None:
            a = self.aims[aim]
            got = sequence(a.target, self.shooter(unit, aim).steps(weapons, a.rules),
                           PMF.point(state)).final
            self._moves[key] = got
        return got

    def move_kind(self, unit: int, aim: int) -> tuple[int, int]:
        """The first (unit, target) pair whose one-unit step is this pair's: the unit as it
        shoots the target (:meth:`shooter`: within half range or not) and the target's profile
        and rules (its points, name and reach aside) the same."""
        key = self._kind.get((unit, aim))
        if key is None:
            sh, a = self.shooter(unit, aim), self.aims[aim]
            key = self._kind_of.setdefault((sh, a.target, a.rules), (unit, aim))
            self._kind[(unit, aim)] = key
        return key

    def shooter(self, unit: int, aim: int) -> Shooter:
        """The unit as it shoots target ``aim``: within half range of it, with ``half_range``."""
        sh = self.shooters[unit]
        if (unit, aim) not in self.half or sh.options.half_range:
            return sh
        return attrs.evolve(sh, options=attrs.evolve(sh.options, half_range=True))

    def after(self, aim: int, parts: tuple[Part, ...], state: Any = None) -> PMF:
        """The target's states after ``parts`` shoot it in order, from ``state``."""
        state = self.start(aim) if state is None else state
        key = (aim, state, parts)
        if key not in self._after:
            if not parts:
                out = PMF.point(state)
            else:
                unit, weapons = parts[-1]
                out = self.after(aim, parts[:-1], state).bind(
                    lambda s: self.move(unit, weapons, aim, s))
            self._after[key] = out
        return self._after[key]

    def worth(self, aim: int, state: Any) -> Fraction:
        """What the objective counts for a target left in ``state``."""
        a = self.aims[aim]
        killed = a.models - models_alive(state)
        if self.objective == Objective.MODELS:
            return Fraction(killed)
        assert a.points is not None  # __init__ refused unknown points for these objectives
        if self.objective == Objective.MODEL_POINTS:
            return Fraction(a.points * killed, a.models)
        return Fraction(a.points if killed == a.models else 0)

    def expected(self, aim: int, parts: tuple[Part, ...], state: Any = None) -> Fraction:
        key = ("E", aim, state, parts)
        if key not in self._leaf:
            self._leaf[key] = sum((p * self.worth(aim, s)
                                   for s, p in self.after(aim, parts, state).items()), Fraction(0))
        return self._leaf[key]

    def timeline(self, aim: int, parts: tuple[Part, ...]) -> Timeline:
        """The exact :class:`Timeline` of a target under ``parts`` (through ``sequence``)."""
        steps = [s for i, w in parts for s in self.shooter(i, aim).steps(w, self.aims[aim].rules)]
        return sequence(self.aims[aim].target, steps)

    # -- fixed plans -----------------------------------------------------------------------

    def choices(self, unit: int) -> list[tuple[int, ...]]:
        """What a unit may do: a target for each of its weapons (``split``) or for all."""
        mine = self.candidates[unit]
        n = len(self.shooters[unit].weapons)
        if not self.split:
            return [(t,) * n for t in mine]
        return list(itertools.product(mine, repeat=n))

    def _parts(self, unit: int, choice: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        """aim -> the unit's weapons that fire at it, for one choice."""
        out: dict[int, list[int]] = {}
        for w, t in enumerate(choice):
            out.setdefault(t, []).append(w)
        return {t: tuple(ws) for t, ws in out.items()}

    def count(self) -> int:
        """Assignments a fixed plan enumerates."""
        n = 1
        for i in range(len(self.shooters)):
            n *= len(self.choices(i))
        return n

    def problem(self) -> Problem:
        """The plan as :mod:`~mathhammer.engine.search` takes it: each unit a piece (each of
        its weapons with ``split``), the candidate (piece, target) pairs from
        :attr:`candidates`, the exact one-unit step :meth:`move` and :meth:`worth`."""
        pieces: list[Piece] = []
        for u, sh in enumerate(self.shooters):
            n = len(sh.weapons)
            pieces += [Piece(u, (w,)) for w in range(n)] if self.split else \
                [Piece(u, tuple(range(n)))]
        pairs = frozenset((i, t) for i, pc in enumerate(pieces) for t in self.candidates[pc.unit])
        return Problem(tuple(pieces), len(self.aims), pairs, move=self.move, start=self.start,
                       worth=self.worth, unit_kinds=self.unit_kinds, target_kinds=self.aim_kinds)

    def best(self, budget: int = BUDGET) -> Best:
        """The best fixed plan and the next best different one (:meth:`plan_key`), each
        valued exactly, proved within ``budget`` steps of the search
        (:func:`~mathhammer.engine.search.search`), else the best found with a proved bound.
        Of alike assignments (interchangeable units or targets swapped), one is given."""
        problem = self.problem()
        found = search(problem, budget)

        def assignment(targets: tuple[int, ...], value: Fraction) -> Assignment:
            per: list[list[int]] = [[] for _ in self.shooters]
            for pc, t in zip(problem.pieces, targets, strict=True):
                per[pc.unit].append(t)
            if not self.split:
                per = [[ts[0]] * len(sh.weapons) for ts, sh in zip(per, self.shooters,
                                                                  strict=True)]
            return Assignment(tuple(tuple(ts) for ts in per), value)

        runner = None if found.runner_up is None or found.runner_value is None else \
            assignment(found.runner_up, found.runner_value)
        return Best(assignment(found.targets, found.value), found.bound, runner,
                    found.runner_bound, found.steps, found.complete, budget, found.root_bound)

    def fixed(self) -> list[Assignment]:
        """Every assignment, exactly valued, best first (ties in enumeration order): the
        exhaustive enumeration, up to :data:`MAX_ASSIGNMENTS` (:meth:`best` searches)."""
        if self.count() > MAX_ASSIGNMENTS:
            raise InputError(f"plan: {self.count()} assignments is over the limit of "
                             f"{MAX_ASSIGNMENTS} (mathhammer.engine.plan.MAX_ASSIGNMENTS); plan "
                             "fewer units or targets, or without --split")
        n_aims = len(self.aims)
        units = range(len(self.shooters))
        parts_of = [{c: self._parts(i, c) for c in self.choices(i)} for i in units]
        combos = list(itertools.product(*(self.choices(i) for i in units)))
        kind, aim_kind = self.unit_kinds, self.aim_kinds
        keys = []
        for combo in combos:
            per: list[list[Part]] = [[] for _ in range(n_aims)]
            for i, c in enumerate(combo):
                for t, ws in parts_of[i][c].items():
                    per[t].append((kind[i], ws))  # an interchangeable unit does the same
            keys.append(tuple((aim_kind[t], tuple(p)) for t, p in enumerate(per)))
        # each (target, parts) once, exactly; then sums of integers over one denominator
        values = {tp: self.expected(*tp) for k in keys for tp in k}
        den = math.lcm(*(v.denominator for v in values.values()))
        ints = {key: v.numerator * (den // v.denominator) for key, v in values.items()}
        scores = [sum(ints[tp] for tp in k) for k in keys]
        plans: dict[tuple[Any, ...], int] = {}  # each plan (:meth:`plan_key`): a number
        units_alike = kind != tuple(range(len(kind)))
        aims_alike = aim_kind != tuple(range(n_aims))
        ids = list(range(len(keys)))
        if units_alike or aims_alike:
            for j, k in enumerate(keys):
                if units_alike:  # what each target receives, in any order
                    k = tuple((t, tuple(sorted(p)) if len(p) > 1 else p) for t, p in k)
                ids[j] = plans.setdefault(tuple(sorted(k)) if aims_alike else k, len(plans))
        order = sorted(range(len(combos)), key=lambda j: -scores[j])  # stable: ties in order
        return [Assignment(combos[j], Fraction(scores[j], den), ids[j]) for j in order]

    def alike(self) -> bool:
        """Whether some units or targets are interchangeable (:func:`same_unit`,
        :func:`same_aim`)."""
        return self.unit_kinds != tuple(range(len(self.shooters))) or \
            self.aim_kinds != tuple(range(len(self.aims)))

    def plan_key(self, a: Assignment) -> tuple[Any, ...]:
        """What a plan does, up to interchangeable units and targets: which kinds of target
        receive which kinds of unit (and their weapons), in any order. Two assignments with
        one key differ only in which of two alike units (or targets) does (or takes) what."""
        per: list[list[Part]] = [[] for _ in self.aims]
        for i, choice in enumerate(a.targets):
            for t, ws in self._parts(i, choice).items():
                per[t].append((self.unit_kinds[i], ws))
        return tuple(sorted((self.aim_kinds[t], tuple(sorted(p))) for t, p in enumerate(per)))

    def runner_up(self, ranked: Sequence[Assignment]) -> Assignment | None:
        """The best of ``ranked`` (best first, from :meth:`fixed`) that is a different plan
        from the first (:meth:`plan_key`), not the same with alike units swapped."""
        if not self.alike():
            return ranked[1] if len(ranked) > 1 else None
        key = self._plan_of(ranked)
        first = key(ranked[0])
        return next((a for a in ranked[1:] if key(a) != first), None)

    def distinct(self, ranked: Sequence[Assignment]) -> int:
        """How many different plans ``ranked`` holds (:meth:`plan_key`)."""
        if not self.alike():
            return len(ranked)
        key = self._plan_of(ranked)
        return len({key(a) for a in ranked})

    def _plan_of(self, ranked: Sequence[Assignment]) -> Any:
        """The plan of each of ``ranked``: the number :meth:`fixed` gave, else its key."""
        if all(a.plan is not None for a in ranked):
            return lambda a: a.plan
        return self.plan_key

    def fewest(self, aim: int, p: Fraction) -> Fewest:
        """The fewest whole units, in the given order, that destroy aim ``aim`` with
        probability >= ``p``; among as many, the fewest points, then the likeliest (of the
        units that can reach it)."""
        reach = [i for i in range(len(self.shooters)) if aim in self._reach[i]]
        n, tried = len(reach), 0
        every = tuple(tuple(range(len(w.weapons))) for w in self.shooters)

        def destroyed(units: tuple[int, ...]) -> Fraction:
            return self.after(aim, tuple((i, every[i]) for i in units)).map(
                models_alive).prob(0)

        seen: set[tuple[Any, ...]] = set()
        for k in range(1, n + 1):
            found = []
            for units in itertools.combinations(reach, k):
                alike = tuple((self.unit_kinds[i], self.shooters[i].points) for i in units)
                if alike in seen:  # the same units (and points) as a set tried, in order
                    continue
                seen.add(alike)
                if tried >= MAX_SUBSETS:
                    return Fewest(None, destroyed(tuple(reach)), tried, complete=False)
                tried += 1
                d = destroyed(units)
                if d >= p:
                    pts = sum(self.shooters[i].points or 0 for i in units)
                    found.append((pts, -d, units))
            if found:
                pts, d, units = min(found)
                return Fewest(units, -d, tried)
        return Fewest(None, destroyed(tuple(reach)), tried)

    # -- adaptive plans --------------------------------------------------------------------

    def _outcomes(self, unit: int, choice: tuple[int, ...], joint: tuple[Any, ...]
                  ) -> list[tuple[tuple[Any, ...], Fraction]]:
        """The joint states after ``unit`` makes ``choice`` from ``joint``, with their
        probabilities (the targets it shoots are independent)."""
        out = [(joint, Fraction(1))]
        for aim, weapons in sorted(self._parts(unit, choice).items()):
            moves = list(self.move(unit, weapons, aim, joint[aim]).items())
            out = [(j[:aim] + (s,) + j[aim + 1:], p * q) for j, p in out for s, q in moves]
        return out

    def _best_rest(self, first: int, joint: tuple[Any, ...]) -> Fraction:
        """The best fixed plan for units ``first``.. from the joint state (a partition of them
        among the targets, by dynamic programming over subsets)."""
        key = ("rest", first, joint)
        if key in self._leaf:
            return self._leaf[key]
        rest = tuple(range(first, len(self.shooters)))
        if self.split:  # each unit's weapons: enumerate
            best: Fraction | None = None
            for combo in itertools.product(*(self.choices(i) for i in rest)):
                a = Assignment(((),) * first + tuple(combo), Fraction(0))
                value = sum((self.expected(t, a.parts(t), joint[t])
                             for t in range(len(self.aims))), Fraction(0))
                best = value if best is None or value > best else best
            assert best is not None  # every unit has a choice (a target it can reach)
            self._leaf[key] = best
            return best
        n_aims, full = len(self.aims), (1 << len(rest)) - 1
        values = [self._rest_values(first, t, joint[t]) for t in range(n_aims)]
        den = math.lcm(*(v.denominator for vs in values for v in vs.values()))
        ints = [{m: v.numerator * (den // v.denominator) for m, v in vs.items()}
                for vs in values]
        table = {0: 0}  # units used (a bit mask over ``rest``) -> the best total so far
        for t in range(n_aims):
            last = t == n_aims - 1
            nxt: dict[int, int] = {}
            for used, v in table.items():
                if last:  # the last target takes every unit left, if it may
                    sub = full ^ used
                    if sub in ints[t]:
                        w = v + ints[t][sub]
                        nxt[full] = max(w, nxt.get(full, w))
                    continue
                for sub, x in ints[t].items():
                    if sub & used:
                        continue
                    key2, w = used | sub, v + x
                    if key2 not in nxt or w > nxt[key2]:
                        nxt[key2] = w
            table = nxt
        self._leaf[key] = Fraction(table.get(full, 0), den)
        return self._leaf[key]

    def _rest_values(self, first: int, aim: int, state: Any) -> dict[int, Fraction]:
        """The value of each subset (a bit mask over units ``first``..) that may shoot
        ``aim``, shooting it in order from ``state``."""
        key = ("subsets", first, aim, state)
        if key not in self._leaf:
            rest = range(first, len(self.shooters))
            every = [tuple(range(len(s.weapons))) for s in self.shooters]
            out = {}
            for mask in range(1 << len(rest)):
                units = [u for k, u in enumerate(rest) if mask >> k & 1]
                if all(aim in self.candidates[u] for u in units):
                    out[mask] = self.expected(aim, tuple((u, every[u]) for u in units), state)
            self._leaf[key] = out
        return self._leaf[key]

    def _replans(self, first: int) -> bool:
        """Whether units ``first``.. can be replanned at each leaf of an adaptive plan."""
        rest = len(self.shooters) - first
        if self.split:
            n = 1
            for i in range(first, len(self.shooters)):
                n *= len(self.choices(i))
            return n <= 3 ** REPLAN_UNITS
        return rest <= REPLAN_UNITS

    def adaptive(self, budget: int = ADAPTIVE_BUDGET, follow: Assignment | None = None
                 ) -> Adaptive:
        """The best policy that adapts each unit's choice to what the earlier units did (in
        the given order), exact when the joint states reachable before the last unit stay
        within ``budget``. Else it adapts for the first ``depth`` units (as many as the budget
        allows), then the rest take the best fixed plan given what those did (when at most
        :data:`REPLAN_UNITS` are left), or else the best fixed plan made at the start
        (``follow``, by default ``best().best``). The value returned is that policy's exact
        value; it is never below the best fixed plan's."""
        n = len(self.shooters)
        start = tuple(self.start(t) for t in range(len(self.aims)))
        levels = [{start}]
        total = 1
        while len(levels) <= n:
            unit = len(levels) - 1
            if unit == n:
                break
            nxt: set[tuple[Any, ...]] = set()
            for joint in levels[-1]:
                for c in self.choices(unit):
                    nxt.update(j for j, _ in self._outcomes(unit, c, joint))
            if total + len(nxt) > budget and unit + 1 < n:
                break
            levels.append(nxt)
            total += len(nxt)
        depth = len(levels) - 1

        replan = depth < n and self._replans(depth)
        tail: tuple[tuple[int, ...], ...] = ()  # the fixed plan's targets after ``depth``
        if depth < n and not replan:
            tail = (self.best().best if follow is None else follow).targets[depth:]

        def leaf(joint: tuple[Any, ...]) -> Fraction:
            if depth == n:
                return sum((self.worth(t, s) for t, s in enumerate(joint)), Fraction(0))
            if replan:
                return self._best_rest(depth, joint)
            rest = Assignment(((),) * depth + tail, Fraction(0))
            return sum((self.expected(t, rest.parts(t), joint[t])
                        for t in range(len(self.aims))), Fraction(0))

        values = {j: leaf(j) for j in levels[depth]}
        policy: list[dict[tuple[Any, ...], tuple[int, ...]]] = []
        first: list[tuple[tuple[int, ...], Fraction]] = []
        for unit in range(depth - 1, -1, -1):
            here: dict[tuple[Any, ...], Fraction] = {}
            chosen: dict[tuple[Any, ...], tuple[int, ...]] = {}
            for joint in levels[unit]:
                best: tuple[Fraction, tuple[int, ...]] | None = None
                for c in self.choices(unit):
                    v = sum((p * values[j] for j, p in self._outcomes(unit, c, joint)),
                            Fraction(0))
                    if unit == 0:
                        first.append((c, v))
                    if best is None or v > best[0]:
                        best = (v, c)
                assert best is not None  # every unit has a choice
                here[joint], chosen[joint] = best
            values = here
            policy.insert(0, chosen)
        value = values[start]
        second: list[tuple[Any, Fraction, tuple[int, ...]]] = []
        if depth >= 2:
            c0 = policy[0][start]
            aims0 = sorted(self._parts(0, c0))
            for joint, p in self._outcomes(0, c0, start):
                second.append((tuple(joint[t] for t in aims0), p, policy[1][joint]))
        first.sort(key=lambda cv: -cv[1])
        distinct: dict[tuple[int, ...], tuple[tuple[int, ...], Fraction]] = {}
        for c, v in first:  # one choice of each kind: interchangeable targets are one
            distinct.setdefault(tuple(self.aim_kinds[t] for t in c), (c, v))
        first = list(distinct.values())
        rest = "" if depth == n else "replanned" if replan else "fixed"
        return Adaptive(value, depth, n, tuple(len(lv) for lv in levels), tuple(first),
                        tuple(second), rest)
