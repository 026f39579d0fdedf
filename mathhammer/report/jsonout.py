"""The ``kills``, ``odds`` and ``mortal`` reports as JSON-ready data: every PMF as
``{"k": "num/den"}``, every mean exact and as a float, and what was asked (an exact value
longer than :data:`~mathhammer.prob.numbers.JSON_FRACTION_WIDTH` characters by its size,
``"[9044/9542 digits]"``, unless :func:`~mathhammer.prob.numbers.full_fractions`). The same
answers as text are :mod:`mathhammer.report.text`.

>>> import mathhammer as mh
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> q = Query("Rifles", ((rifle, 5),), "GEQ", mh.Target(5, 3, 5, 1))
>>> kills_json(q, q.run())["mean"]["kills"]  # 5 attacks * 2/3 hit * 2/3 wound * 2/3 unsaved
'40/27'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from ..app.scenario import Counter, MortalQuery, Query, group_kills, wounds_lost
from ..data.typed.inline import describe_weapon
from ..engine.attack import Result, character_destroyed, models_alive
from ..engine.sequence import Timeline, sequence_demise
from ..model.loadout import is_one_shot
from ..model.profiles import Target
from ..model.squad import Squad, describe_target
from ..prob.numbers import as_float, json_fraction, pmf_json
from ..prob.pmf import PMF


def _state_json(state: Any, p: Fraction) -> dict[str, Any]:
    if state and isinstance(state[0], tuple):  # a squad: one TargetState per group
        return {"groups": [{"models": s.models, "wounds_lost": s.wounds_lost} for s in state],
                "p": json_fraction(p)}
    return {"models": state.models, "wounds_lost": state.wounds_lost, "p": json_fraction(p)}


def _target_json(name: str, target: Target | Squad) -> dict[str, Any]:
    out = {"name": name, "profile": describe_target(target)}
    if isinstance(target, Squad):
        return out | {"groups": [attrs.asdict(g) for g in target.groups]}
    return out | attrs.asdict(target)


def _mean_json(pmf: PMF) -> dict[str, Any]:
    return {"pmf": pmf_json(pmf), "mean": json_fraction(pmf.mean()),
            "mean_float": as_float(pmf.mean())}


def _query_json(query: Query) -> dict[str, Any]:
    return {
        "attacker": query.attacker,
        "target": _target_json(query.target_name, query.target),
        "weapons": [{"models": n, "profile": describe_weapon(w), **attrs.asdict(w)}
                    for w, n in query.profiles],
        "left_out": [attrs.asdict(x) | {"text": x.text} for x in query.left_out],
        "rules": query.options.rules,
        "options": attrs.asdict(query.options),
        "named_rules": list(query.named_rules),
        "unit_rules": [r.name for r in query.unit_rules],
        "not_modelled": [{"name": r.name, "reason": r.not_modelled, "source": r.source}
                         for r in query.not_modelled],
        "switches_off": list(query.switches_off),
    }


def explain_json(query: Query) -> list[dict[str, Any]]:
    """``--explain --json``: each rule from data applied, with its exact contribution."""
    return [{"name": c.rule.name, "kind": c.rule.kind, "side": c.rule.side,
             "effect": c.rule.describe(), "source": c.rule.source, "text": c.rule.text,
             "kills": json_fraction(c.kills), "kills_float": as_float(c.kills),
             "destroyed": json_fraction(c.destroyed), "destroyed_float": as_float(c.destroyed)}
            for c in query.explain()]


def _hazard_json(hazard: Any) -> dict[str, Any]:
    return {"tests": hazard.tests, "failed": pmf_json(hazard.failed),
            "mortal": pmf_json(hazard.mortal),
            "kills": None if hazard.kills is None else pmf_json(hazard.kills)}


def _counters_json(result: Result) -> dict[str, Any]:
    means = result.summary()
    return {
        "pmf": {c.value: pmf_json(getattr(result, c)) for c in Counter},
        "mean": {c.value: json_fraction(means[c]) for c in Counter},
        "mean_float": {c.value: as_float(means[c]) for c in Counter},
        "destroyed": json_fraction(result.destroyed),
        "destroyed_float": as_float(result.destroyed),
    }


def kills_json(query: Query, result: Result) -> dict[str, Any]:
    """The whole result as JSON-ready data: every PMF as ``{"k": "num/den"}``, means exact and
    as floats, and what was asked.

    ``state`` (the target afterwards) is a list of ``{"models", "wounds_lost", "p"}`` (for a
    squad ``{"groups": [{"models", "wounds_lost"}, ...], "p"}``, with ``group_kills`` and
    ``character_destroyed`` too).
    """
    extra: dict[str, Any] = {}
    if isinstance(query.target, Squad):
        extra["group_kills"] = [
            {"name": g.name, **_mean_json(pmf)}
            for g, pmf in zip(query.target.groups, result.group_kills, strict=True)]
        if any(query.target.characters):
            extra["character_destroyed"] = json_fraction(result.character_destroyed)
            extra["character_destroyed_float"] = as_float(result.character_destroyed)
    demise = getattr(result, "deadly_demise", None)
    if demise is not None:
        extra["deadly_demise"] = _mean_json(demise)
    hazard = getattr(result, "hazard", None)
    if hazard is not None:
        extra["hazard"] = _hazard_json(hazard)
    return {
        **_query_json(query),
        **_counters_json(result),
        "state": [_state_json(s, p) for s, p in result.state.items()],
        **extra,
    }


def _timeline_json(timeline: Timeline) -> dict[str, Any]:
    """The steps and the end of a sequence (shared by ``kills --turns`` and ``mortal``)."""
    target, final = timeline.target, timeline.final
    kills, left = timeline.kills, timeline.models_left
    lost = final.map(lambda s: wounds_lost(target, s))
    steps = []
    for step, d, state in zip(timeline.steps, timeline.destroyed, timeline.states[1:],
                              strict=True):
        models = state.map(models_alive)
        steps.append({"label": step.label, "destroyed": json_fraction(d),
                      "destroyed_float": as_float(d),
                      "models_left": pmf_json(models),
                      "models_left_mean": json_fraction(models.mean()),
                      "models_left_mean_float": as_float(models.mean())})
    out: dict[str, Any] = {
        "steps": steps,
        "pmf": {"kills": pmf_json(kills), "models_left": pmf_json(left),
                "wounds_lost": pmf_json(lost)},
        "mean": {"kills": json_fraction(kills.mean()), "models_left": json_fraction(left.mean()),
                 "wounds_lost": json_fraction(lost.mean())},
        "mean_float": {"kills": as_float(kills.mean()), "models_left": as_float(left.mean()),
                       "wounds_lost": as_float(lost.mean())},
        "destroyed": json_fraction(timeline.destroyed[-1]),
        "destroyed_float": as_float(timeline.destroyed[-1]),
        "state": [_state_json(s, p) for s, p in final.items()],
    }
    if isinstance(target, Squad):
        out["group_kills"] = [{"name": g.name, **_mean_json(pmf)} for g, pmf in
                              zip(target.groups, group_kills(target, final), strict=True)]
        if any(target.characters):
            c = character_destroyed(target, final)
            out["character_destroyed"] = json_fraction(c)
            out["character_destroyed_float"] = as_float(c)
    demise = sequence_demise(timeline)
    if demise is not None:
        out["deadly_demise"] = _mean_json(demise)
    return out


def sequence_json(query: Query, timeline: Timeline, first: Result | None = None
                  ) -> dict[str, Any]:
    """A sequence (``kills --turns N``, mortal-wound rules) as JSON-ready data: what was
    asked, ``steps`` (each with P(destroyed) and the models left), then at the end ``pmf`` and
    ``mean`` of ``kills`` (from Starting Strength), ``models_left`` and ``wounds_lost``,
    ``destroyed`` and ``state``. With one attack, ``attack`` holds its own counters; ``hazard``
    is each attack's from full strength."""
    from ..data.rules.named import find_rule

    rules = [find_rule(r) for r in query.mortal_rules]
    out = {
        **_query_json(query),
        "mortal_wound_rules": [{"name": r.name, "roll": mw.describe(), **_mean_json(mw.pmf())}
                               for r in rules if (mw := r.mortal_wounds) is not None],
        "turns": query.turns,
        "reanimation": query.reanimates if query.turns is not None else None,
        "first_turn_only": list(dict.fromkeys(w.name for w, _ in query.profiles
                                              if is_one_shot(w))) if query.attacks > 1 else [],
        **_timeline_json(timeline),
    }
    if first is not None and query.attacks == 1:
        out["attack"] = _counters_json(first)
    if first is not None and first.hazard is not None:
        out["hazard"] = _hazard_json(first.hazard)
    return out


def mortal_json(query: MortalQuery, timeline: Timeline) -> dict[str, Any]:
    """``mathhammer mortal --json``: the target, each roll (``rolls``), ``mortal_wounds`` (the
    total rolled), Crushing Impact (``crushing_impact``: to the target and to the charging
    model), then the steps and the end as for :func:`sequence_json`."""
    crushing = None
    if query.crushing is not None:
        crushing = {"toughness": query.crushing_impact,
                    "to_target": _mean_json(query.crushing.map(lambda x: x[0])),
                    "to_charger": _mean_json(query.crushing.map(lambda x: x[1]))}
    return {
        "target": _target_json(query.target_name, query.target),
        "rolls": [{"label": label, "roll": text, **_mean_json(pmf)}
                  for label, text, pmf in query.amounts()],
        "mortal_wounds": _mean_json(query.total()),
        "crushing_impact": crushing,
        **_timeline_json(timeline),
    }


#: the parts the several-unit and plan reports (:mod:`mathhammer.report.plan_report`) reuse
timeline_json, query_json, target_json, mean_json = (_timeline_json, _query_json, _target_json,
                                                     _mean_json)
