"""Several attacking units: into one target in order (:class:`SalvoScenario`, ``kills A B -t
T``), and the plan of a phase (:class:`PlanAnswer`, ``mathhammer plan``), with their JSON; the
plan's text and Markdown answers are :mod:`mathhammer.report.plan_report`. The exact work is
:mod:`mathhammer.engine.plan`.

Why one module: the several-unit report and the plan report share the attacking units'
header lines, their JSON and the probability a player types; neither is used elsewhere.

>>> from mathhammer.report.specs import attacker_of, target_of
>>> a = attacker_of("1x 1 | 2+ | 8 | -3 | 1")
>>> name, one = target_of("1x T4 Sv7+ W1")
>>> s = SalvoScenario(name, one, (shooter_of(a), shooter_of(a)))
>>> s.run().destroyed  # 25/36 each (5/6 * 5/6): 1 - (11/36)**2 after the second
[Fraction(25, 36), Fraction(1175, 1296)]
>>> s.until(Fraction(9, 10)), s.until(Fraction(19, 20))
(2, None)
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..data.rules.named import mortal_roll, resolve_rules
from ..data.typed.inline import describe_weapon
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
from ..errors import InputError
from ..model.named import NamedRule
from ..model.options import Options
from ..model.squad import describe_target, models_alive
from ..prob.numbers import as_float, decimal, fraction, percent, pmf_json, readable_fraction
from ..prob.pmf import PMF
from .jsonout import mean_json, target_json, timeline_json
from .scenario import Ask, Counter
from .specs import Attacker
from .text import distribution_table, final_lines


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


def _unit_lines(i: int, sh: Shooter) -> list[str]:
    lines = [f"{i}. {sh.label}" + (f" ({sh.points} pts)" if sh.points else ""),
             f"   options: {sh.options.describe()}; named rules: "
             f"{', '.join(sh.rule_names) or 'none'}"
             + (f"; then: {', '.join(label for label, _ in sh.mortal)}" if sh.mortal else "")]
    lines += [f"   {n}x {describe_weapon(w)}" for w, n in sh.profiles]
    return [w for line in lines for w in textwrap.wrap(line, 80, subsequent_indent=" " * 6,
                                                         break_on_hyphens=False)]


@attrs.frozen
class SalvoScenario:
    """Several units into one target, in the given order, its state carried exactly: a
    :class:`mathhammer.app.queries.Salvo` resolved (the values the engine takes), as
    :class:`mathhammer.report.scenario.Query` is a ``Kills`` query resolved."""

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
            raise InputError(f"--of {counter}: with several attacking units only kills are "
                             "counted")
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


def salvo_text(s: SalvoScenario, timeline: Timeline, until_p: Fraction | None = None,
               width: int = 80) -> str:
    """``mathhammer kills A B C -t T``: the units in order, P(destroyed) and the models left
    after each, the end, the kill distribution; with ``until_p`` the fewest units that
    destroy the target with that probability."""
    out = [s.describe(), f"target:      {describe_target(s.target)}"]
    if s.rules:
        out.append(f"target rules: {', '.join(getattr(r, 'name', str(r)) for r in s.rules)}")
    out += [f"rule set:    {s.shooters[0].options.rules}", "in order:"]
    for i, sh in enumerate(s.shooters, 1):
        out += _unit_lines(i, sh)
    out += ["", f"{'after unit':<24}  {'P(destroyed)':>12}  {'models left':>11}  "
                f"exact P(destroyed)"]
    for i, (sh, st) in enumerate(zip(s.shooters, s.after_units(timeline), strict=True), 1):
        d = st.map(models_alive).prob(0)
        label = f"{i}. {sh.label}"[:24]
        out.append(f"{label:<24}  {percent(d):>12}  {decimal(st.map(models_alive).mean()):>11}"
                   f"  {readable_fraction(d)}")
    out += ["", *final_lines(timeline)]
    if until_p is not None:
        k = s.until(until_p, timeline)
        out += ["", f"P(destroyed) >= {percent(until_p)}: " + (
            f"the first {k} unit{'s' * (k != 1)} ({', '.join(x.label for x in s.shooters[:k])})"
            if k is not None else f"not reached even with all {len(s.shooters)} units")]
    out += ["", *distribution_table(timeline.kills, "kills", width)]
    return "\n".join(out) + "\n"


def _shooter_json(sh: Shooter) -> dict[str, Any]:
    return {"attacker": sh.label, "points": sh.points,
            "weapons": [{"models": n, "profile": describe_weapon(w), **attrs.asdict(w)}
                        for w, n in sh.profiles],
            "rules": sh.options.rules, "options": attrs.asdict(sh.options),
            "named_rules": list(sh.rule_names), "mortal_wound_rules": [lb for lb, _ in sh.mortal]}


def salvo_json(s: SalvoScenario, timeline: Timeline, until_p: Fraction | None = None
               ) -> dict[str, Any]:
    """The several-unit report as JSON-ready data: ``attackers`` in order, ``after_units``
    (P(destroyed) and models left after each), the steps and the end as for ``--turns``, and
    ``until`` (with ``until_p``)."""
    after = []
    for sh, st in zip(s.shooters, s.after_units(timeline), strict=True):
        left = st.map(models_alive)
        d = left.prob(0)
        after.append({"attacker": sh.label, "destroyed": fraction(d),
                      "destroyed_float": as_float(d), "models_left": pmf_json(left),
                      "models_left_mean": fraction(left.mean()),
                      "models_left_mean_float": as_float(left.mean())})
    out = {"attackers": [_shooter_json(sh) for sh in s.shooters],
           "target": target_json(s.target_name, s.target),
           "target_rules": [getattr(r, "name", str(r)) for r in s.rules], "after_units": after,
           **timeline_json(timeline)}
    if until_p is not None:
        out["until"] = {"p": fraction(until_p), "units": s.until(until_p, timeline)}
    return out


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


def search_lines(found: Best, assignments: int) -> list[str]:
    """What the search proved: the best plan optimal, or its gap to the optimum.

    >>> from mathhammer.engine.plan import Assignment, Best
    >>> best = Assignment(((0,),), Fraction(3))
    >>> search_lines(Best(best, Fraction(3), None, None, 10, True, 100), 4)
    ['4 assignments: the best proved optimal by the exact search (10 steps)']
    >>> search_lines(Best(best, Fraction(4), None, None, 100, False, 100), 4)[1]
    'gap: no plan is worth more than 4.000 (exact 4), 1.000 more (25.00% of the bound)'
    """
    if found.proved:
        return [f"{assignments:,} assignments: the best proved optimal by the exact search "
                f"({found.steps:,} steps)"]
    gap = found.gap
    share = f" ({percent(gap / found.bound)} of the bound)" if found.bound else ""
    return [f"{assignments:,} assignments: the best found, not proved optimal (the search "
            f"stopped at its budget of {found.budget:,} steps; --search-budget)",
            f"gap: no plan is worth more than {decimal(found.bound)}"
            f"{_exact(found.bound)}, {decimal(gap)} more{share}"]


def _exact(value: Fraction) -> str:
    text = readable_fraction(value)
    return "" if text.startswith("[") else f" (exact {text})"


def alike_groups(planner: Planner) -> tuple[tuple[str, ...], ...]:
    """The names of interchangeable units, then targets, in groups of two or more (plans that
    swap them are one plan)."""
    out = []
    for kinds, names in ((planner.unit_kinds, [s.label for s in planner.shooters]),
                         (planner.aim_kinds, [a.name for a in planner.aims])):
        groups: dict[int, list[str]] = {}
        for k, name in zip(kinds, names, strict=True):
            groups.setdefault(k, []).append(name)
        out += [tuple(g) for g in groups.values() if len(g) > 1]
    return tuple(out)


def choice_text(planner: Planner, unit: int, choice: tuple[int, ...]) -> str:
    names = [a.name for a in planner.aims]
    if not planner.split or len(set(choice)) == 1:
        return names[choice[0]]
    weapons = planner.shooters[unit].weapons
    return ", ".join(f"{w} -> {names[t]}" for w, t in zip(weapons, choice, strict=True))


def unit_word(objective: Objective) -> str:
    return "models" if objective == Objective.MODELS else "points"


def total_points(pl: Planner, a: Assignment) -> PMF:
    """The distribution of the objective's total over every target (independent targets)."""
    out = PMF.point(Fraction(0))
    for t in range(len(pl.aims)):
        out = out.convolve(pl.after(t, a.parts(t)).map(functools.partial(pl.worth, t)))
    return out.map(lambda v: int(v) if v.denominator == 1 else v)


def adaptive_lines(pl: Planner, ad: Adaptive, fixed: Fraction) -> list[str]:
    then = ("the best fixed plan for the rest given what they did" if ad.rest == "replanned"
            else "the rest as in the best fixed plan")
    kind = ("exact: the best policy" if ad.exact else
            f"heuristic: adapts for the first {ad.depth} of {ad.units} units, then {then}; "
            "the full state space is over the budget")
    out = [*textwrap.wrap(f"adaptive ({kind})", 80, subsequent_indent="  "),
           f"  joint target states per level: {', '.join(map(str, ad.states))}",
           f"  value {decimal(ad.value)} (exact {readable_fraction(ad.value)}); gain over the "
           f"fixed plan {decimal(ad.value - fixed)} (exact {readable_fraction(ad.value - fixed)})"]
    if ad.first:
        c, v = ad.first[0]
        out.append(f"  first: {pl.shooters[0].label} -> {choice_text(pl, 0, c)}"
                   f" (value {decimal(v)}" + (f"; next choice {decimal(ad.first[1][1])})"
                                              if len(ad.first) > 1 else ")"))
    if ad.second:
        out.append(f"  then {pl.shooters[1].label}, by what the first did:")
        for state, p, c in ad.second[:12]:
            left = ", ".join(_state_text(s) for s in state)
            out.append(f"    {percent(p):>8}  {left:<28} -> {choice_text(pl, 1, c)}")
        if len(ad.second) > 12:
            out.append(f"    ... {len(ad.second) - 12} more outcomes (--json has them all)")
    return out


def _state_text(state: Any) -> str:
    """A target's state in a few words: ``3 left, 1 wound lost``."""
    parts = state if isinstance(state, tuple) and state and isinstance(state[0], tuple) \
        else (state,)
    lost = sum(s.wounds_lost for s in parts)
    return f"{models_alive(state)} left" + (f", {lost} wound{'s' * (lost != 1)} lost"
                                             if lost else "")


def plan_json(ans: PlanAnswer) -> dict[str, Any]:
    """The plan as JSON-ready data (``proved``, ``gap``, ``bound``: what the search proved)."""
    pl, found = ans.planner, ans.found

    def assignment(a: Assignment, pl: Planner = pl) -> dict[str, Any]:
        return {"value": fraction(a.value), "value_float": as_float(a.value),
                "targets": [{"attacker": sh.label,
                             "target": [pl.aims[t].name for t in
                                        (a.targets[i] if pl.split else a.targets[i][:1])]}
                            for i, sh in enumerate(pl.shooters)]}

    per_target = []
    for t, a in enumerate(pl.aims):
        parts = ans.best.parts(t)
        tl = pl.timeline(t, parts)
        per_target.append({"target": target_json(a.name, a.target), "points": a.points,
                           "rules": [r.name for r in a.rules],  # its rules from data
                           "attackers": [pl.shooters[i].label for i, _ in parts],
                           "value": fraction(pl.expected(t, parts)),
                           "kills": mean_json(tl.kills),
                           "destroyed": fraction(tl.destroyed[-1]) if tl.steps else "0/1"})
    out: dict[str, Any] = {
        "rules": pl.shooters[0].options.rules,
        "objective": pl.objective.value, "split": pl.split,
        "attackers": [_shooter_json(sh) for sh in pl.shooters],
        "assignments": pl.count(),
        "alike": [list(g) for g in alike_groups(pl)],
        "best": assignment(ans.best),
        "proved": found.proved, "gap": fraction(found.gap), "bound": fraction(found.bound),
        "search": {"steps": found.steps, "budget": found.budget, "complete": found.complete,
                   "lagrange_bound": None if found.root_bound is None else
                   fraction(found.root_bound)},
        "next_best": assignment(ans.runner_up) if ans.runner_up is not None else None,
        "next_best_proved": found.runner_proved,
        "next_best_bound": None if found.runner_bound is None else
        fraction(found.runner_bound),
        "lead": fraction(ans.lead) if ans.lead is not None else None,
        "per_target": per_target,
        "total": mean_json(total_points(pl, ans.best)),
    }
    if ans.fewest is not None and ans.destroy is not None:
        f = ans.fewest
        out["destroy"] = {"target": pl.aims[ans.destroy[0]].name, "p": fraction(ans.destroy[1]),
                          "units": None if f.units is None else
                          [pl.shooters[i].label for i in f.units],
                          "destroyed": fraction(f.destroyed), "tried": f.tried,
                          "complete": f.complete,
                          "rest": None if ans.rest is None else
                          {**assignment(ans.rest[1].best, ans.rest[0]),
                           "proved": ans.rest[1].proved, "gap": fraction(ans.rest[1].gap)}}
    if ans.adaptive is not None:
        ad = ans.adaptive
        out["adaptive"] = {
            "exact": ad.exact, "depth": ad.depth, "states": list(ad.states), "rest": ad.rest,
            "value": fraction(ad.value), "value_float": as_float(ad.value),
            "gain": fraction(ad.value - ans.best.value),
            "first": [{"target": [pl.aims[t].name for t in (c if pl.split else c[:1])],
                       "value": fraction(v)} for c, v in ad.first],
            "second": [{"models_left": [models_alive(s) for s in st],
                        "state": [_state_text(s) for s in st], "p": fraction(p),
                        "target": [pl.aims[t].name for t in (c if pl.split else c[:1])]}
                       for st, p, c in ad.second]}
    return out


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
        raise InputError(f"--destroy {name!r}: expected a target's name (one of "
                         f"{', '.join(a.name for a in aims)})")
    exact = [i for i, a in enumerate(aims) if a.name.lower() == key]
    if exact:
        return exact[0]
    pre = [i for i, a in enumerate(aims) if a.name.lower().startswith(key)]
    if len(pre) == 1:
        return pre[0]
    raise InputError(f"--destroy {name!r}: not one of the targets ("
                     f"{', '.join(a.name for a in aims)})")
