"""The answer of ``mathhammer plan`` as a player reads it: the plan first (each unit -> its
target, then each target's expected value and P(destroyed)), ties said as ties, the objective
in one line; the targets' profiles, the next best plans and the distribution of the total on
request (``details``). As text, Markdown or JSON (every exact value).

Why one module: the three answers show the same things in the same order (the plan, the
targets, the verdict, the details), from the same helpers.

>>> import mathhammer as mh
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

import textwrap
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ..engine.plan import Assignment, Fewest, Objective, Planner
from ..model.ruleset import load_ruleset
from ..model.squad import describe_target, models_alive
from ..prob.numbers import as_float, decimal, fraction, percent, readable_fraction
from .planning import (
    PlanAnswer,
    adaptive_lines,
    alike_groups,
    choice_text,
    plan_json,
    search_lines,
    solve,
    total_points,
    unit_word,
)
from .text import distribution_table

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
    """:func:`~mathhammer.report.planning.plan_json` and what a player reads first: ``plan``
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


__all__ = ["OBJECTIVE_LINES", "detail_lines", "distinct_plans", "plan_answer_json", "plan_md",
           "plan_text", "small", "solve", "target_rows", "ties", "verdict_lines"]
