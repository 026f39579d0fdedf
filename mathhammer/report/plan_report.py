"""Several attacking units as a player reads them: into one target in order
(:func:`salvo_text`, :func:`salvo_json`, of a :class:`~mathhammer.app.planning.SalvoScenario`),
and the answer of ``mathhammer plan`` (of a :class:`~mathhammer.app.planning.PlanAnswer`): the
plan first (each unit -> its target, then each target's expected value and P(destroyed)), ties
said as ties, the objective in one line; the targets' profiles, the next best plans and the
distribution of the total on request (``details``). As text, Markdown or JSON (every exact value).

Why one module: the plan's three answers show the same things in the same order (the plan, the
targets, the verdict, the details), from the same helpers, and the several-unit report shares
the attacking units' header lines and their JSON.

>>> import mathhammer as mh
>>> from mathhammer.app.planning import solve
>>> from mathhammer.engine.plan import Aim, Objective, Planner, Shooter
>>> gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-3, damage=1)
>>> one = mh.Target(models=1, toughness=4, save=7, wounds=1)
>>> a, b = Shooter.of("A", [(gun, 1)]), Shooter.of("B", [(gun, 1)])
>>> ans = solve(Planner([a, b], [Aim("X", one, 10), Aim("Y", one, 20)], Objective.POINTS))
>>> print("\\n".join(plan_text(ans).splitlines()[:3]))
best plan: 20.833 expected points destroyed (exact 125/6)
  A -> X
  B -> Y
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs

from ..app.planning import PlanAnswer, SalvoScenario
from ..data.typed.inline import describe_weapon
from ..engine.plan import Adaptive, Assignment, Best, Fewest, Objective, Planner, Shooter
from ..engine.sequence import Timeline
from ..model.ruleset import load_ruleset
from ..model.squad import describe_target, models_alive
from ..prob.numbers import as_float, decimal, fraction, percent, pmf_json, readable_fraction
from ..prob.pmf import PMF
from .jsonout import mean_json, target_json, timeline_json
from .text import distribution_table, final_lines

#: the different plans the details list after the best, and the ties the answer names
ALTERNATIVES, TIES_SHOWN = 5, 3

#: each objective in a line: what it counts, and what it leaves out
OBJECTIVE_LINES = {
    Objective.POINTS: "points: a target counts its points only when the plan destroys it "
                      "(every model); a target no plan is likely to destroy counts little "
                      "however hurt (--objective model-points counts each model destroyed)",
    Objective.MODEL_POINTS: "model-points: each model destroyed counts its share of its "
                            "unit's points (points / models), destroyed or not",
    Objective.MODELS: "models: each model destroyed counts 1, whatever it costs "
                      "(--objective points or model-points weighs them by points)",
}


def _what(objective: Objective) -> str:
    return ("expected models destroyed" if objective == Objective.MODELS
            else "expected points destroyed")


def small(value: Fraction) -> str:
    """A difference as a player reads it: 3 decimals, or 2 significant digits when that
    rounds it to nothing (never "0.000" for a lead that is not a tie).

    >>> small(Fraction(1, 3)), small(Fraction(1, 2500)), small(Fraction(0))
    ('0.333', '0.0004', '0')
    """
    if value == 0:
        return "0"
    if abs(value) >= Fraction(1, 1000):
        return decimal(value)
    places = 3
    while abs(round(value * 10**places)) < 10 and places < 40:
        places += 1
    return decimal(value, places + 1).rstrip("0")


def _ranked(ans: PlanAnswer) -> list[Assignment]:
    """The assignments the answer holds, best first: the best and the next best different
    one (the search's)."""
    return [a for a in (ans.best, ans.runner_up) if a is not None]


def exact(value: Fraction, before: str = " (", after: str = ")") -> str:
    """`` (exact 125/6)`` when the exact value is short enough to read, else nothing (JSON
    has every digit).

    >>> exact(Fraction(125, 6)), exact(Fraction(1, 3**80))
    (' (exact 125/6)', '')
    """
    text = readable_fraction(value)
    return "" if text.startswith("[") else f"{before}exact {text}{after}"


def distinct_plans(ans: PlanAnswer, most: int | None = None,
                   ranked: Sequence[Assignment] | None = None) -> list[Assignment]:
    """The different plans of the answer (or of ``ranked``), best first: of plans that only
    swap alike units or targets, the first; at most ``most``."""
    ranked = _ranked(ans) if ranked is None else list(ranked)
    pl = ans.planner
    if not pl.alike():
        return ranked[:most]
    key = (lambda a: a.plan) if all(a.plan is not None for a in ranked) else pl.plan_key
    seen: set[Any] = set()
    out = []
    for a in ranked:
        if key(a) not in seen:
            seen.add(key(a))
            out.append(a)
            if most is not None and len(out) >= most:
                break
    return out


def ties(ans: PlanAnswer) -> list[Assignment]:
    """The different plans worth exactly what the best is (the best first)."""
    best = ans.best.value
    return distinct_plans(ans, ranked=[a for a in _ranked(ans) if a.value == best])


def _order(pl: Planner, a: Assignment) -> list[tuple[int, int]]:
    """(unit, target) of the plan, grouped by target in the targets' order, each target's
    units in the order they shoot; a unit that splits its weapons once per target."""
    return [(i, t) for t in range(len(pl.aims)) for i, _ws in a.parts(t)]


def _unit_line(pl: Planner, a: Assignment, i: int, t: int, width: int) -> list[str]:
    label = pl.shooters[i].label
    where = pl.aims[t].name if not pl.split or len(set(a.targets[i])) == 1 else \
        choice_text(pl, i, a.targets[i])
    if pl.split and len(set(a.targets[i])) > 1 and t != min(a.targets[i]):
        return []
    half = " (within half range)" if (i, t) in pl.half else ""
    w = min(max(len(pl.shooters[k].label) for k in range(len(pl.shooters))), 34)
    return textwrap.wrap(f"{label:<{w}} -> {where}{half}", width, initial_indent="  ",
                         subsequent_indent=" " * 6, break_on_hyphens=False)


def plan_lines(pl: Planner, a: Assignment, width: int = 80) -> list[str]:
    """Each unit -> its target, grouped by target."""
    return [line for i, t in _order(pl, a) for line in _unit_line(pl, a, i, t, width)]


def target_rows(pl: Planner, a: Assignment) -> list[dict[str, Any]]:
    """Per target of the plan: its name, points, the units that shoot it (in order), the
    objective's expected value, P(destroyed) and the expected models destroyed."""
    out = []
    for t, aim in enumerate(pl.aims):
        parts = a.parts(t)
        alive = pl.after(t, parts).map(models_alive)
        out.append({"target": aim.name, "points": aim.points, "models": aim.models,
                    "units": [pl.shooters[i].label for i, _ in parts],
                    "value": pl.expected(t, parts),
                    "destroyed": alive.prob(0),
                    "kills": aim.models - alive.mean()})
    return out


def _table(rows: list[list[str]], right: Sequence[bool], width: int) -> list[str]:
    """Rows of cells as aligned columns, the first column (a name) wrapped to fit ``width``."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    rest = sum(widths[1:]) + 2 * (len(widths) - 1)
    widths[0] = max(12, min(widths[0], width - rest - 2))
    out = []
    for r in rows:
        names = textwrap.wrap(r[0], widths[0], break_on_hyphens=False) or [""]
        cells = [f"{c:>{w}}" if right[k] else f"{c:<{w}}"
                 for k, (c, w) in enumerate(zip(r, widths, strict=True)) if k]
        out.append(("  " + f"{names[0]:<{widths[0]}}  " + "  ".join(cells)).rstrip())
        out += ["  " + n for n in names[1:]]
    return out


def _names(items: Sequence[str], most: int = 6) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def differences(pl: Planner, best: Assignment, other: Assignment) -> str:
    """What ``other`` does that ``best`` does not: ``Razorback -> Vindicator, ...``."""
    moved = [f"{pl.shooters[i].label} -> {choice_text(pl, i, other.targets[i])}"
             for i in range(len(pl.shooters)) if other.targets[i] != best.targets[i]]
    return ", ".join(moved) or "the same targets in another order"


def verdict_lines(ans: PlanAnswer, width: int = 80) -> list[str]:
    """Ties said as ties (``3 plans tie at 41.250 expected points destroyed: ...``), else how
    far ahead the best is of the next best different plan, and what that one does."""
    pl, what = ans.planner, _what(ans.planner.objective)
    level = ties(ans)
    if len(level) > 1:
        if ans.best.value == 0:
            text = (f"every plan is worth 0 {what}: nothing these units can do counts under "
                    "this objective (" + ("--objective models or model-points count each "
                                          "model destroyed)" if pl.objective ==
                                          Objective.POINTS else "they cannot destroy a "
                                          "model)"))
            return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)
        moved = [pl.shooters[i].label for i in range(len(pl.shooters))
                 if any(a.targets[i] != ans.best.targets[i] for a in level)]
        shown = [differences(pl, ans.best, a) for a in level[1:TIES_SHOWN]]
        more = len(level) - 1 - len(shown)
        text = (f"{len(level)} plans tie at {decimal(ans.best.value)} {what}; they differ in "
                f"what {_names(moved)} shoot{'s' * (len(moved) == 1)}: the one above, "
                + "; ".join(f"or with {d}" for d in shown)
                + (f"; and {more} more" + (" (--details lists the next)"
                                            if len(level) <= ALTERNATIVES + 1 else "")
                   if more > 0 else ""))
        return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)
    if ans.runner_up is None or ans.lead is None:
        return ["the only plan: every unit has one target it can shoot"]
    text = (f"ahead of the next best plan by {small(ans.lead)}{exact(ans.lead)}, which has "
            f"{differences(pl, ans.best, ans.runner_up)}")
    if not ans.found.runner_proved and ans.found.runner_bound is not None:
        text += (" (the next best found, not proved the next best: a different plan is worth "
                 f"at most {decimal(ans.found.runner_bound)})")
    return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)


def _fewest_lines(ans: PlanAnswer, f: Fewest, destroy: tuple[int, Fraction],
                  width: int) -> list[str]:
    """The fewest units ``f`` that destroy target ``destroy[0]`` with P >= ``destroy[1]``."""
    pl = ans.planner
    t, p = destroy
    name = pl.aims[t].name
    if f.units is None and not f.complete:
        text = (f"destroy {name} with P >= {percent(p)}: not found within the first {f.tried} "
                f"sets of units (the limit; with every unit that can shoot it P = "
                f"{percent(f.destroyed)})")
    elif f.units is None:
        text = (f"destroy {name} with P >= {percent(p)}: not reached even with every unit "
                f"that can shoot it (P = {percent(f.destroyed)})")
    else:
        pts = sum(pl.shooters[i].points or 0 for i in f.units)
        who = ", ".join(pl.shooters[i].label for i in f.units)
        text = (f"destroy {name} with P >= {percent(p)}: the fewest units, in order "
                f"({f.tried} sets tried): {who}" + (f" ({pts} pts)" if pts else "")
                + f"; P(destroyed) = {percent(f.destroyed)} "
                  f"(exact {readable_fraction(f.destroyed)})")
    out = textwrap.wrap(text, width, subsequent_indent="  ")
    if f.units is not None and ans.rest is not None:
        sub, got = ans.rest
        a = got.best
        how = "proved optimal" if got.proved else f"the best found; at most {decimal(got.bound)}"
        out.append(f"the rest of the army on the other targets: {decimal(a.value)} "
                   f"(exact {readable_fraction(a.value)}; {how})")
        out += plan_lines(sub, a, width)
    return out


def plan_text(ans: PlanAnswer, details: bool = False, width: int = 80) -> str:
    """The ``mathhammer plan`` answer as text (see the module docstring)."""
    pl, best = ans.planner, ans.best
    what = _what(pl.objective)
    out = [f"best plan: {decimal(best.value)} {what}{exact(best.value)}"
           + ("" if ans.found.proved else f"; not proved optimal: at most {small(ans.found.gap)}"
              " below the best (below)"),
           *plan_lines(pl, best, width)]
    rows = target_rows(pl, best)
    shot = [r for r in rows if r["units"]]
    priced = any(r["points"] is not None for r in shot)
    head = ["target", *(["points"] if priced else []), "value", "P(destroyed)",
            "models destroyed"]
    cells = [head] + [[r["target"], *([str(r["points"] or "")] if priced else []),
                       decimal(r["value"]), percent(r["destroyed"]),
                       f"{decimal(r['kills'])} of {r['models']}"] for r in shot]
    out += ["", *_table(cells, (False, *[True] * (len(head) - 1)), width)]
    idle = [r["target"] for r in rows if not r["units"]]
    if idle:
        out += textwrap.wrap(f"not shot: {_names(idle)}", width, subsequent_indent="  ")
    if ans.left_out:
        out += textwrap.wrap("left out: " + "; ".join(f"{n} ({why})" for n, why in
                                                     ans.left_out), width,
                             subsequent_indent="  ")
    out += ["", *textwrap.wrap("objective: " + OBJECTIVE_LINES[pl.objective], width,
                               subsequent_indent="  "),
            *verdict_lines(ans, width)]
    rs = load_ruleset(pl.shooters[0].options.rules)
    scope = (f"rule set {rs.name}; {len(pl.shooters)} attacking units, {len(pl.aims)} targets; "
             "units that shoot one target resolve in the order above")
    out += textwrap.wrap(scope, width, subsequent_indent="  ")
    out += [w for line in search_lines(ans.found, pl.count())
            for w in textwrap.wrap(line, width, subsequent_indent="  ")]
    if ans.fewest is not None and ans.destroy is not None:
        out += ["", *_fewest_lines(ans, ans.fewest, ans.destroy, width)]
    if ans.adaptive is not None:
        out += ["", *adaptive_lines(pl, ans.adaptive, best.value)]
    if details:
        out += ["", *detail_lines(ans, width)]
    else:
        out += textwrap.wrap("(--details: the units' options, the targets' profiles, the next "
                             "best plans and the distribution of the total)", width)
    return "\n".join(out) + "\n"


def detail_lines(ans: PlanAnswer, width: int = 80) -> list[str]:
    """What ``--details`` adds: the units' options, the targets' profiles, the alike units
    and targets, the next best different plans and the distribution of the total."""
    pl = ans.planner
    out = ["attacking units:"]
    for sh in pl.shooters:
        text = (f"{sh.label}" + (f" ({sh.points} pts)" if sh.points else "")
                + f": options {sh.options.describe()}; named rules "
                  f"{', '.join(sh.rule_names) or 'none'}")
        out += textwrap.wrap(text, width, initial_indent="  ", subsequent_indent=" " * 6)
    out.append("targets:")
    for a in pl.aims:
        pts = f" ({a.points} pts)" if a.points is not None else ""
        rules = f"; its rules: {', '.join(r.name for r in a.rules)}" if a.rules else ""
        out += textwrap.wrap(f"{a.name}{pts}: {describe_target(a.target)}{rules}", width,
                             initial_indent="  ", subsequent_indent=" " * 6)
    alike = alike_groups(pl)
    if alike:
        out += textwrap.wrap("alike: " + "; ".join(" = ".join(g) for g in alike)
                             + " (interchangeable: plans that only swap them are one plan)",
                             width, subsequent_indent="  ")
    plans = distinct_plans(ans, ALTERNATIVES + 1)
    if len(plans) > 1:
        out += ["", "the next best different plans:"]
        for k, a in enumerate(plans[1:], 2):
            out += textwrap.wrap(f"{k}. {decimal(a.value)} ({exact(a.value, '', '; ')}"
                                 f"{small(ans.best.value - a.value)} less): "
                                 f"{differences(pl, ans.best, a)}", width,
                                 initial_indent="  ", subsequent_indent="     ")
    dist = total_points(pl, ans.best)
    out += ["", f"the total of the best plan ({_what(pl.objective)}):",
            *distribution_table(dist, unit_word(pl.objective), width)]
    return out


def _md(text: str) -> str:
    return str(text).replace("|", "\\|")


def plan_md(ans: PlanAnswer, details: bool = False) -> str:
    """The answer as GitHub Markdown: the plan, the targets' table, the objective and the
    verdict; with ``details`` the profiles, the next best plans and the distribution."""
    pl, best = ans.planner, ans.best
    out = [f"**Best plan: {decimal(best.value)} {_what(pl.objective)}**{exact(best.value)}",
           "",
           "| unit | target |", "| --- | --- |"]
    for i, t in _order(pl, best):
        if pl.split and len(set(best.targets[i])) > 1 and t != min(best.targets[i]):
            continue
        half = " (within half range)" if (i, t) in pl.half else ""
        out.append(f"| {_md(pl.shooters[i].label)} | "
                   f"{_md(choice_text(pl, i, best.targets[i]))}{half} |")
    out += ["", "| target | points | value | P(destroyed) | models destroyed |",
            "| --- | ---: | ---: | ---: | ---: |"]
    rows = target_rows(pl, best)
    for r in rows:
        if r["units"]:
            out.append(f"| {_md(r['target'])} | {r['points'] if r['points'] is not None else ''}"
                       f" | {decimal(r['value'])} | {percent(r['destroyed'])} | "
                       f"{decimal(r['kills'])} of {r['models']} |")
    idle = [r["target"] for r in rows if not r["units"]]
    out.append("")
    if idle:
        out.append(f"Not shot: {_md(', '.join(idle))}.")
    if ans.left_out:
        out.append("Left out: " + _md("; ".join(f"{n} ({why})" for n, why in ans.left_out))
                   + ".")
    out += ["", f"*Objective: {_md(OBJECTIVE_LINES[pl.objective])}.*", "",
            _md(" ".join(verdict_lines(ans, 10_000))) + ".", "",
            _md(" ".join(search_lines(ans.found, pl.count()))) + "."]
    if details:
        out += ["", "```text", *detail_lines(ans), "```"]
    return "\n".join(out) + "\n"


def plan_answer_json(ans: PlanAnswer) -> dict[str, Any]:
    """:func:`plan_json` and what a player reads first: ``plan``
    (each unit's target, in the order they shoot; ``per_target`` has each target's value,
    P(destroyed) and kills), ``ties`` (the different plans worth the best's value),
    ``alternatives`` (the next best different plans), ``objective_text``, ``left_out`` and
    ``reach`` (per unit: the targets it can shoot, those within half range). Every exact
    value as ``"num/den"``."""
    pl, best = ans.planner, ans.best
    out = plan_json(ans)

    def plan(a: Assignment) -> list[dict[str, Any]]:
        return [{"unit": pl.shooters[i].label, "target": pl.aims[t].name,
                 "weapons": [pl.shooters[i].weapons[w] for w, x in enumerate(a.targets[i])
                             if x == t] if pl.split else None,
                 "half_range": (i, t) in pl.half}
                for i, t in _order(pl, a)]

    level = ties(ans)
    for row, r in zip(out["per_target"], target_rows(pl, best), strict=True):
        row.update({"models": r["models"], "value_float": as_float(r["value"]),
                    "destroyed": fraction(r["destroyed"]),
                    "destroyed_float": as_float(r["destroyed"])})
    out.update({
        "plan": plan(best),
        "objective_text": OBJECTIVE_LINES[pl.objective],
        "ties": {"count": len(level), "value": fraction(best.value),
                 "plans": [plan(a) for a in level[:TIES_SHOWN]]},
        "alternatives": [{"value": fraction(a.value), "value_float": as_float(a.value),
                          "behind": fraction(best.value - a.value), "plan": plan(a)}
                         for a in distinct_plans(ans, ALTERNATIVES + 1)[1:]],
        "left_out": [{"name": n, "why": why} for n, why in ans.left_out],
        "reach": ans.reach,
    })
    return out




def _unit_lines(i: int, sh: Shooter) -> list[str]:
    lines = [f"{i}. {sh.label}" + (f" ({sh.points} pts)" if sh.points else ""),
             f"   options: {sh.options.describe()}; named rules: "
             f"{', '.join(sh.rule_names) or 'none'}"
             + (f"; then: {', '.join(label for label, _ in sh.mortal)}" if sh.mortal else "")]
    lines += [f"   {n}x {describe_weapon(w)}" for w, n in sh.profiles]
    return [w for line in lines for w in textwrap.wrap(line, 80, subsequent_indent=" " * 6,
                                                         break_on_hyphens=False)]


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


__all__ = ["OBJECTIVE_LINES", "adaptive_lines", "alike_groups", "choice_text", "detail_lines",
           "distinct_plans", "plan_answer_json", "plan_json", "plan_md", "plan_text",
           "salvo_json", "salvo_text", "search_lines", "small", "target_rows", "ties",
           "total_points", "unit_word", "verdict_lines"]
