"""The plan of a phase on the page: who shoots what (``mathhammer plan``), bounded so that it
answers within the page's time limit.

The attacking units are names (each may carry its own options, as on the command line:
``"Devastator Squad --half-range"``) or units of the pasted army list (``army:<row>``); the
targets are names or units of the enemy's list (``vs:<row>``); with no units named, every unit
of the list. The work is :func:`mathhammer.report.planning.solve` (the best assignment by the
exact search, proved or with its gap within :data:`SEARCH_BUDGET` steps, the adaptive policy
within a budget of states), the answer its JSON
(:func:`~mathhammer.report.plan_report.plan_answer_json`) with the page's bounds and the
warnings.

>>> plan_page({"units": ["Hexmark Destroyer"] * 21, "targets": ["MEQ"]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: units: 21 attacking units; a plan on the page takes at most 20 ...
"""

from __future__ import annotations

import contextlib
import io
import json
import time
import warnings
from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from ..model.limits import check_values
from .army import army_unit, read_army
from .command import as_bool, check_spec, check_unit, parameters, parsed_params, value_list

#: Attacking units and targets a plan on the page takes at most (the command line takes
#: more): a whole army into a whole army, searched (mathhammer.engine.search).
MAX_UNITS, MAX_TARGETS = 20, 20
#: Joint target states the page's adaptive plan may visit (beyond: the stated heuristic).
BUDGET = 2_000
#: Steps the page's search of the best plan may take (beyond: the best found and its gap):
#: a 20 x 20 plan within the page's time limit.
SEARCH_BUDGET = 1_000_000
#: How the page names a unit of the enemy's list: ``vs:`` and its row's label.
VS_REF = "vs:"
LIMITS = (f"a plan on the page takes at most {MAX_UNITS} attacking units and {MAX_TARGETS} "
          f"targets, searches the best plan within {SEARCH_BUDGET:,} steps (beyond: the best "
          f"found and its gap), and adapts within {BUDGET:,} joint target states (mathhammer "
          "plan on the command line takes more)")


#: The parameters of a plan on the page besides the options of its attacks.
_PAGE_KEYS = ("units", "targets", "army", "vs_army", "objective", "adaptive", "attach",
              "reach")


def plan_parameters() -> list[str]:
    """The options of the attacks of a plan on the page: those of ``/api/kills`` that
    ``mathhammer plan`` takes too (not ``then``, ``until``, ``turns``: a plan is one phase
    of units each choosing a target).

    >>> "half_range" in plan_parameters(), "then" in plan_parameters()
    (True, False)
    """
    from ..cli.main import cli

    plan = {p.name for p in cli.get_command(None, "plan").params}
    return [k for k, opt in parameters("kills").items() if opt.name in plan]


def _names(raw: Any) -> list[str]:
    return [str(v).strip() for v in value_list(raw) if str(v).strip()]


def _one(raw: Any) -> Any:
    """A value given once (a query string gives lists)."""
    got = value_list(raw)
    return got[0] if len(got) == 1 else (None if not got else raw)


def _listed(army: Any, key: str, ref: str, what: str) -> list[str]:
    """Every unit of a list, as ``ref<row>``, when it is within the page's bound."""
    rows = [f"{ref}{label}" for label, _ in army.rows()]
    limit = MAX_UNITS if key == "units" else MAX_TARGETS
    if len(rows) > limit:
        raise InputError(f"{key}: {what} has {len(rows)} units; {LIMITS}: name those to plan "
                         f"with, one per line ({', '.join(rows)})")
    return rows


def plan_page(params: Mapping[str, Any]) -> str:
    """A plan from the page's parameters: ``units`` (attacking units, or ``army:<row>``),
    ``targets`` (or ``vs:<row>``), ``army`` and ``vs_army`` (the lists' texts, or uploaded
    files as ``{"base64": ...}``), ``objective`` (``points``, ``model-points``, ``models``;
    default: points when every target's are known), ``adaptive``, ``attach`` (Leaders to
    attach, ``LEADER=UNIT`` as ``--attach``), ``reach`` (``UNIT=T1,T2@half`` as ``--reach``,
    by the rows' labels), and the options of ``/api/kills`` (shared by every unit). The
    answer is :func:`~mathhammer.report.plan_report.plan_answer_json`."""
    from ..cli.output import show_warning
    from ..cli.phase import reach_of, with_attachments
    from ..cli.plan import army_aim, check_leader, firing, named_aim, shooter
    from ..cli.resolve import one_edition
    from ..cli.table import army_switches
    from ..engine.plan import Objective
    from ..report.plan_report import plan_answer_json
    from ..report.planning import aims_of, in_reach, solve

    rest = dict(params)
    for key, raw in rest.items():  # every array bounded before any value is read
        check_values(key, len(value_list(raw)))
    units, targets = _names(rest.pop("units", None)), _names(rest.pop("targets", None))
    army_text, vs_text = (_one(rest.pop(k, None)) for k in ("army", "vs_army"))
    objective = str(_one(rest.pop("objective", None)) or "")
    adaptive = as_bool("adaptive", _one(rest.pop("adaptive", None)) or False)
    attach, reach = _names(rest.pop("attach", None)), _names(rest.pop("reach", None))
    if objective and objective not in {o.value for o in Objective}:
        raise InputError(f"objective: expected one of {', '.join(o.value for o in Objective)}, "
                         f"got {objective!r}")
    for key, given, limit in (("units", units, MAX_UNITS), ("targets", targets, MAX_TARGETS)):
        if len(given) > limit:
            raise InputError(f"{key}: {len(given)} {'attacking units' if key == 'units' else key}"
                             f"; {LIMITS}")
    for u in units:
        if not u.startswith("army:"):
            check_unit("units", u)
    for t in targets:
        if not t.startswith(VS_REF):
            check_spec("targets", t)
    unknown = sorted(set(rest) - set(plan_parameters()))
    if unknown:
        known = ", ".join(sorted({*plan_parameters(), *_PAGE_KEYS}))
        raise InputError(f"unknown parameter {unknown[0]!r} for plan; known: {known}")
    p = parsed_params("kills", {**rest, "attacker": "MEQ", "target": "MEQ"})  # the options
    mine = read_army(army_text) if army_text else None
    theirs = read_army(vs_text) if vs_text else None
    err = io.StringIO()
    if any(hasattr(a, "attached") for a in (mine, theirs)):  # a list module that attaches
        with contextlib.redirect_stderr(err):
            mine, theirs = with_attachments(mine, theirs, attach)
    elif attach:
        raise InputError("attach: this install reads no attachments of army lists")
    listed = one_edition(("army", mine), ("vs_army", theirs))
    if "rules" not in rest and listed:
        p["ruleset"] = listed
    if not units:
        if mine is None:
            raise InputError("units: expected the attacking units (names, one per line), or an "
                             "army list")
        units = _listed(mine, "units", "army:", "the army list")
    if not targets:
        if theirs is None:
            raise InputError("targets: expected the targets (names, one per line), or the "
                             "enemy's list")
        targets = _listed(theirs, "targets", VS_REF, "the enemy's list")
    check_leader(sum(not t.startswith(VS_REF) for t in targets),
                 sum(t.startswith(VS_REF) for t in targets), p)
    start = time.perf_counter()
    with warnings.catch_warnings(), contextlib.redirect_stderr(err):
        warnings.simplefilter("always", UserWarning)
        warnings.showwarning = show_warning
        specs = []
        for t in targets:
            if t.startswith(VS_REF):
                if theirs is None:
                    raise InputError(f"targets {t!r}: paste the enemy's list first")
                specs.append(army_aim(*army_unit(theirs, "targets", t, VS_REF)))
            else:
                specs.append(named_aim(t, p))
        aims = aims_of(specs)
        shooters = []
        elsewhere = army_switches(mine) if mine is not None else None
        for u in units:
            if u.startswith("army:"):
                if mine is None:
                    raise InputError(f"units {u!r}: paste the army list first")
                label, unit = army_unit(mine, "units", u)
                shooters.append(shooter(unit, p, label, elsewhere))
            else:
                shooters.append(shooter(u, p))
        goal = Objective(objective) if objective else (
            Objective.POINTS if all(a.points is not None for a in aims) else Objective.MODELS)
        shooters = firing(shooters, aims, p)
        within = reach_of(reach, None, [sh.label for sh in shooters], [a.name for a in aims])
        planner, left = in_reach(shooters, aims, goal, reach=within)
        answer = solve(planner, adaptive=adaptive, budget=BUDGET, left_out=left,
                       search_budget=SEARCH_BUDGET)
    data = plan_answer_json(answer)
    data["targets"] = [{"name": a.name, "points": a.points} for a in aims]
    data["seconds"] = round(time.perf_counter() - start, 3)
    data["limits"] = LIMITS
    said = [x.strip() for x in err.getvalue().splitlines() if "warning:" in x]
    if said:
        data["warnings"] = said
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


__all__ = ["BUDGET", "LIMITS", "MAX_TARGETS", "MAX_UNITS", "SEARCH_BUDGET", "VS_REF",
           "plan_page"]
