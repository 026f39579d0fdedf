"""Several attacking units as questions: into one target in order (:class:`SalvoScenario`,
``kills A B -t T``), and the plan of a phase (:func:`solve` gives its :class:`PlanAnswer`,
``mathhammer plan``); their text, Markdown and JSON are :mod:`mathhammer.report.plan_report`.
The exact work is :mod:`mathhammer.engine.plan`.

Why one module: the several-unit question and the plan share the attacking units
(:func:`shooter_of`) and the probability a player types (:func:`parse_probability`).

>>> from mathhammer.app.specs import attacker_of, target_of
>>> a = attacker_of("1x 1 | 2+ | 8 | -3 | 1")
>>> name, one = target_of("1x T4 Sv7+ W1")
>>> s = SalvoScenario(name, one, (shooter_of(a), shooter_of(a)))
>>> s.run().destroyed  # 25/36 each (5/6 * 5/6): 1 - (11/36)**2 after the second
[Fraction(25, 36), Fraction(1175, 1296)]
>>> s.until(Fraction(9, 10)), s.until(Fraction(19, 20))
(2, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..data.rules.named import mortal_roll, resolve_rules
from ..engine.plan import (
    ADAPTIVE_BUDGET,
    NO_OPTIONS,
    Adaptive,
    Aim,
    Assignment,
    Best,
    Fewest,
    Objective,
    Planner,
    Shooter,
    after_each,
    salvo,
    until,
)
from ..engine.search import BUDGET as SEARCH_BUDGET
from ..engine.sequence import Timeline
from ..errors import InputError, field
from ..model.named import NamedRule
from ..model.options import Options
from ..prob.pmf import PMF
from .scenario import Ask, Counter
from .specs import Attacker


def shooter_of(attacker: Attacker, options: Options = NO_OPTIONS,
               named: Sequence[str | NamedRule] = (),
               mortal: Sequence[str] = ()) -> Shooter:
    """An attacking unit of a plan from a resolved attacker, its options and named rules
    (``mortal``: the names of mortal-wound rolls after its attack)."""
    return Shooter.of(attacker.label, attacker.profiles, options, resolve_rules(named),
                      [(r, mortal_roll(r).pmf) for r in mortal], attacker.points)


def parse_probability(text: str) -> Fraction:
    """A probability as a player writes it: ``0.9``, ``90%`` or ``9/10``.

    >>> parse_probability("90%"), parse_probability("2/3"), parse_probability("0.5")
    (Fraction(9, 10), Fraction(2, 3), Fraction(1, 2))
    """
    t = text.strip()
    try:
        p = Fraction(t[:-1]) / 100 if t.endswith("%") else Fraction(t)
    except (ValueError, ZeroDivisionError):
        p = Fraction(-1)
    if not 0 < p <= 1 or len(t) > 40:
        raise InputError(f"probability {text!r}: expected a number in (0, 1], a percentage "
                         "or a fraction, e.g. 0.9, 90% or 9/10")
    return p


@attrs.frozen
class SalvoScenario:
    """Several units into one target, in the given order, its state carried exactly: a
    :class:`mathhammer.app.queries.Salvo` resolved (the values the engine takes), as
    :class:`mathhammer.app.scenario.Query` is a ``Kills`` query resolved."""

    target_name: str
    target: Any = attrs.field(eq=False)
    shooters: tuple[Shooter, ...]
    #: the target's rules from data (its own, its Leader's) that change the attacks against it
    rules: tuple[Any, ...] = attrs.field(default=(), eq=False)

    def run(self) -> Timeline:
        return salvo(self.target, self.shooters, against=self.rules)

    def until(self, p: Fraction, timeline: Timeline | None = None) -> int | None:
        """The fewest of the units, in order, that destroy the target with probability >= p."""
        return until(timeline or self.run(), self.shooters, p)

    def after_units(self, timeline: Timeline) -> list[PMF]:
        """The target's states after each unit."""
        return [timeline.states[i] for i in after_each(timeline, self.shooters)]

    def odds(self, ask: Ask, k: int = 0, counter: Counter = Counter.KILLS,
             timeline: Timeline | None = None) -> tuple[str, Fraction]:
        """One probability of the end (kills counted from Starting Strength)."""
        if Counter(counter) != Counter.KILLS:
            raise InputError(f"{field('counter')} {counter}: with several attacking units only "
                             "kills are counted")
        tl = timeline or self.run()
        ask = Ask(ask)
        if ask == Ask.DESTROYED:
            return "destroyed by the end", tl.destroyed[-1]
        prob, sign = {Ask.AT_LEAST: (tl.kills.at_least(k), ">="),
                      Ask.AT_MOST: (tl.kills.at_most(k), "<="),
                      Ask.EXACTLY: (tl.kills.prob(k), "=")}[ask]
        return f"kills {sign} {k} by the end", prob

    def describe(self) -> str:
        return f"{' then '.join(s.label for s in self.shooters)} -> {self.target_name}"


# -- plans ---------------------------------------------------------------------------------


@attrs.frozen
class PlanAnswer:
    """A plan's answer: the best fixed plan and the next best different one as the search
    found them (``found``: values, proved bounds, steps), the fewest units for a target
    (``fewest``), the adaptive policy (``adaptive``)."""

    planner: Any = attrs.field(eq=False)
    found: Best
    fewest: Fewest | None = None
    destroy: tuple[int, Fraction] | None = None
    adaptive: Adaptive | None = None
    #: with ``fewest``: the rest of the army planned against the other targets
    rest: tuple[Any, Best] | None = attrs.field(default=None, eq=False)
    #: the units and targets left out of the plan, each with why (out of reach)
    left_out: tuple[tuple[str, str], ...] = ()
    #: the reach the plan used (``Reach.to_json`` of its units and targets), None: all
    reach: Any = attrs.field(default=None, eq=False)

    @property
    def best(self) -> Assignment:
        return self.found.best

    @property
    def runner_up(self) -> Assignment | None:
        """The best different plan (:meth:`~mathhammer.engine.plan.Planner.plan_key`: not
        the best with interchangeable units or targets swapped); None: there is none."""
        return self.found.runner_up

    @property
    def lead(self) -> Fraction | None:
        """How far the best assignment is ahead of the next best different plan (None:
        there is none)."""
        return None if self.runner_up is None else self.best.value - self.runner_up.value


def in_reach(shooters: Sequence[Shooter], aims: Sequence[Aim], objective: Objective, *,
             split: bool = False, reach: Any = None
             ) -> tuple[Planner, tuple[tuple[str, str], ...]]:
    """The planner of the units and targets within reach of one another (``reach``: a
    :class:`~mathhammer.data.typed.reach.Reach` of ``shooters`` and ``aims``; None: every unit can
    shoot every target), and those left out with why."""
    if reach is None:
        return Planner(shooters, aims, objective, split=split), ()
    units = [i for i, c in enumerate(reach.candidates) if c]
    kept = sorted({t for i in units for t in reach.candidates[i]})
    left = tuple((sh.label, "can shoot no target") for i, sh in enumerate(shooters)
                 if i not in units) + tuple((a.name, "no unit can shoot it")
                                            for t, a in enumerate(aims) if t not in kept)
    if not units:
        raise InputError("plan: no unit can shoot any target (the reach given)")
    where = {t: k for k, t in enumerate(kept)}
    planner = Planner([shooters[i] for i in units], [aims[t] for t in kept], objective,
                      split=split,
                      candidates=[[where[t] for t in reach.candidates[i]] for i in units],
                      half=[(k, where[t]) for k, i in enumerate(units)
                            for t in reach.candidates[i] if (i, t) in reach.half])
    return planner, left


def solve(planner: Planner, *, adaptive: bool = False, budget: int | None = None,
          destroy: tuple[int, Fraction] | None = None,
          left_out: tuple[tuple[str, str], ...] = (), search_budget: int = SEARCH_BUDGET
          ) -> PlanAnswer:
    """Plan: the best fixed assignment and the next best different one (the exact search,
    within ``search_budget`` steps), the fewest units that destroy ``destroy = (target, p)``
    and the rest of the army's plan against the other targets, the best adaptive policy
    (``left_out``: the units and targets out of reach, for the report)."""
    fewest = planner.fewest(*destroy) if destroy is not None else None
    rest = None
    if fewest is not None and fewest.units is not None and destroy is not None:
        # the other units that reach another target, against the other targets
        others = [i for i in range(len(planner.shooters)) if i not in fewest.units
                  and set(planner.candidates[i]) - {destroy[0]}]
        if others:
            sub = planner.only(others, [t for t in range(len(planner.aims))
                                        if t != destroy[0]])
            rest = (sub, sub.best(search_budget))
    found = planner.best(search_budget)
    ad = None
    if adaptive:
        budget = ADAPTIVE_BUDGET if budget is None else budget
        ad = planner.adaptive(budget, follow=found.best)
    reach = [{"unit": sh.label, "targets": [planner.aims[t].name for t in c],
              "half_range": [planner.aims[t].name for t in c if (i, t) in planner.half]}
             for i, (sh, c) in enumerate(zip(planner.shooters, planner.reach, strict=True))]
    return PlanAnswer(planner, found, fewest, destroy, ad, rest, left_out, reach)


def aims_of(targets: Sequence[tuple[Any, ...]]) -> list[Aim]:
    """The targets of a plan: (name, profile, points) or (name, profile, points, rules from
    data); names made unique (``#2``)."""
    seen: dict[str, int] = {}
    out = []
    for name, target, points, *rules in targets:
        seen[name] = seen.get(name, 0) + 1
        out.append(Aim(name if seen[name] == 1 else f"{name} #{seen[name]}", target, points,
                       tuple(rules[0]) if rules else ()))
    return out


def find_aim(aims: Sequence[Aim], name: str) -> int:
    """The index of the target called ``name`` (exactly, else a unique prefix, any case)."""
    key = name.strip().lower()
    if not key:
        raise InputError(f"{field('destroy')} {name!r}: expected a target's name (one of "
                         f"{', '.join(a.name for a in aims)})")
    exact = [i for i, a in enumerate(aims) if a.name.lower() == key]
    if exact:
        return exact[0]
    pre = [i for i, a in enumerate(aims) if a.name.lower().startswith(key)]
    if len(pre) == 1:
        return pre[0]
    raise InputError(f"{field('destroy')} {name!r}: not one of the targets ("
                     f"{', '.join(a.name for a in aims)})")
