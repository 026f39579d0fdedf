"""Every answer of :mod:`mathhammer.app.answer` as the JSON the command line's ``--json`` prints
and the page reads: the query resolved there and answered by the engine, rendered here by
:mod:`mathhammer.report.jsonout`, :mod:`mathhammer.report.plan_report` and
:mod:`mathhammer.report.tables`.

>>> from mathhammer.app.queries import Kills, Odds
>>> q = Odds(Kills(attacker="1x 1 | 3+ | 4 | 0 | 1", target="1x T4 Sv7+ W1"), "destroyed")
>>> odds_json(q)["p"]  # 2/3 to hit, 1/2 to wound, no save
'1/3'
"""

from __future__ import annotations

import json
from typing import Any

from ..app.answer import OddsAnswer, army_read, compare_cells, kills_scenario, odds_of, salvo_of
from ..app.grids import build_grid
from ..app.planning import SalvoScenario
from ..app.plans import PlanAnswers, plan_answers
from ..app.queries import ArmyRead, Compare, Kills, Odds, Plan, Salvo
from ..app.scenario import Query
from ..prob.numbers import as_float, json_fraction
from .jsonout import explain_json, kills_json, sequence_json
from .plan_report import plan_answer_json, salvo_json
from .tables import render_json


def scenario_json(query: Query, explain: bool = False) -> dict[str, Any]:
    """``kills --json`` of a resolved question: the attack, or the steps of a sequence."""
    result = query.run()
    if query.is_sequence:
        data = sequence_json(query, query.run_sequence(), result)
    else:
        data = kills_json(query, result)
    if explain:
        data["explain"] = explain_json(query)
    return data


def kills_answer_json(q: Kills, data: str | None = None) -> dict[str, Any]:
    """``mathhammer kills --json``."""
    return scenario_json(kills_scenario(q, data), q.explain)


def salvo_answer_json(q: Salvo, data: str | None = None) -> dict[str, Any]:
    """``mathhammer kills A B -t T --json``."""
    s = salvo_of(q, data)
    return salvo_json(s, s.run(), q.until)


def odds_answer_json(a: OddsAnswer) -> dict[str, Any]:
    """``mathhammer odds --json`` of an answer."""
    data = {"query": f"P({a.what})", "p": json_fraction(a.p), "p_float": as_float(a.p)}
    if isinstance(a.scenario, SalvoScenario):
        return data | salvo_json(a.scenario, a.answer)
    if a.scenario.is_sequence:
        return data | sequence_json(a.scenario, a.answer, a.scenario.run())
    return data | kills_json(a.scenario, a.answer)


def odds_json(q: Odds, data: str | None = None) -> dict[str, Any]:
    """``mathhammer odds --json``."""
    return odds_answer_json(odds_of(q, data))


def compare_json(q: Compare, data: str | None = None) -> dict[str, Any]:
    """``mathhammer table --format json``, with ``army`` (the list read) for a list's rows."""
    rows, columns, mine = compare_cells(q, data)
    out = json.loads(render_json(build_grid(rows, columns, q.metric, title=q.title)))
    if mine is not None:
        out["army"] = mine.to_json()
    return out


def army_json(q: ArmyRead, data: str | None = None) -> dict[str, Any]:
    """``mathhammer army --json``."""
    a, found = army_read(q, data)
    return a.to_json() | {"rules": found}


def plan_answers_json(a: PlanAnswers) -> dict[str, Any]:
    """``mathhammer plan --json`` of an answer."""
    data = plan_answer_json(a.best)
    if a.tries:
        data["tries"] = [{"options": t, **plan_answer_json(x)} for t, x in a.tries]
    return data


def plan_json(q: Plan, data: str | None = None) -> dict[str, Any]:
    """``mathhammer plan --json``."""
    return plan_answers_json(plan_answers(q, data))


__all__ = ["army_json", "compare_json", "kills_answer_json", "odds_answer_json", "odds_json",
           "plan_answers_json", "plan_json", "salvo_answer_json", "scenario_json"]
