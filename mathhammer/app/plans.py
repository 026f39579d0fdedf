"""A plan answered: which of a :class:`~mathhammer.app.queries.Plan`'s units shoots which
target, every assignment evaluated exactly (:func:`mathhammer.app.planning.solve`), its
units and targets resolved from what a player names and from army lists' rows.

>>> from mathhammer.app.queries import Order, Plan
>>> gun, lone = "1x 1 | 2+ | 8 | -3 | 1", "1x T4 Sv7+ W1"
>>> plan_answers(Plan(units=(Order(gun), Order(gun)), targets=(lone,))).best.best.value
Fraction(1175, 1296)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ..engine.plan import Objective
from ..errors import InputError, field
from ..limits import check_plan
from . import planning
from .lists import ARMY_REF, VS_REF, army_unit, query_lists
from .queries import Plan
from .resolve import (
    army_aim,
    army_switches,
    check_leader,
    firing,
    named_aim,
    shooter,
    warn,
)
from .setup import Setup

# --- a plan --------------------------------------------------------------------------------------


@attrs.frozen
class PlanAnswers:
    """A plan's answer, the answer of each of its ``tries``, and its targets."""

    best: planning.PlanAnswer
    tries: tuple[tuple[str, planning.PlanAnswer], ...]
    aims: tuple[Any, ...]


def _rows_of(army: Any, refs: list[str], prefix: str) -> list[str]:
    """The units named, or every row of the list when none of them is one of its rows."""
    if army is None or any(r.startswith(prefix) for r in refs):
        return refs
    return [f"{prefix}{label}" for label, _ in army.rows()] + refs


def _bound(units: list[str], targets: list[str]) -> None:
    check_plan(len(units), len(targets))


def plan_answers(q: Plan, data: str | None = None, *,
                 bound: Callable[[list[str], list[str]], None] = _bound) -> PlanAnswers:
    """Every assignment of a plan evaluated exactly (``bound(units, targets)``, given the
    names of its units and targets (``army:<row>``, ``vs:<row>`` for a list's), refuses a
    plan too big to answer: the command line's limits, or the page's)."""
    mine, theirs, s = query_lists(q, data)
    listed = mine is not None and not any(o.unit.startswith(ARMY_REF) for o in q.units)
    units: list[tuple[str, Any]] = [(f"{ARMY_REF}{label}", None) for label, _ in mine.rows()] \
        if listed else []
    units += [(o.unit, o) for o in q.units]
    targets = _rows_of(theirs, list(q.targets), VS_REF)
    bound([u for u, _ in units], targets)
    check_leader(sum(not t.startswith(VS_REF) for t in targets),
                 sum(t.startswith(VS_REF) for t in targets), s)
    given = {name.lower(): n for name, n in q.points}
    specs = []
    for t in targets:
        if t.startswith(VS_REF) and theirs is not None:
            specs.append(army_aim(*army_unit(theirs, "targets", t, VS_REF), data))
        elif t.startswith(VS_REF):
            raise InputError(f"targets {t!r}: give the enemy's list first (vs_army)")
        else:
            specs.append(named_aim(t, s, data))
    aims = planning.aims_of([(n, prof, given.pop(n.lower(), pts), rules)
                             for n, prof, pts, rules in specs])
    if given:
        raise InputError(f"{field('points')} {next(iter(given))!r}: not one of the targets ("
                         f"{', '.join(a.name for a in aims)})")
    objective = q.objective or (Objective.POINTS if all(a.points is not None for a in aims)
                                else Objective.MODELS)
    destroy_at = (planning.find_aim(aims, q.destroy), q.probability) \
        if q.destroy is not None else None
    elsewhere = army_switches(mine, data) if mine is not None else None

    def shooters_of(shared: Setup) -> list[Any]:
        out = []
        for u, order in units:
            own = shared if order is None else order.setup(shared)
            if u.startswith(ARMY_REF):
                if mine is None:
                    raise InputError(f"units {u!r}: give the army list first (army)")
                label, unit = army_unit(mine, "units", u)
                out.append(shooter(unit, own, label, elsewhere, data=data))
            else:
                out.append(shooter(u, own, data=data))
        return firing(out, aims, shared)

    def answer(shared: Setup) -> planning.PlanAnswer:
        from ..data.typed.reach import parse_reach, read_reach_file, resolve_reach

        shooters = shooters_of(shared)
        within = None
        if q.reach or q.reach_file is not None:
            rows = [parse_reach(r) for r in q.reach]
            if q.reach_file is not None:
                rows += read_reach_file(q.reach_file)
            within = resolve_reach(rows, [sh.label for sh in shooters], [a.name for a in aims])
            for note in within.notes:
                warn(note)
        planner, left = planning.in_reach(shooters, aims, Objective(objective), split=q.split,
                                          reach=within)
        at = None
        if destroy_at is not None:
            name = aims[destroy_at[0]].name
            if name not in [a.name for a in planner.aims]:
                raise InputError(f"{field('destroy')} {q.destroy!r}: no unit can shoot {name} "
                                 "(the reach given)")
            at = ([a.name for a in planner.aims].index(name), destroy_at[1])
        return planning.solve(planner, adaptive=q.adaptive, budget=q.budget, destroy=at,
                              left_out=left, search_budget=q.search_budget)

    base = answer(s)
    tries = tuple((t.label, answer(s.merged(dict(t.changes)))) for t in q.tries)
    return PlanAnswers(base, tries, tuple(aims))


__all__ = ["PlanAnswers", "plan_answers"]
