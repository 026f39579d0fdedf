"""The page's questions: a JSON query object (:mod:`mathhammer.app.queries`) checked against
what the page may ask, answered by :mod:`mathhammer.app.answer` and rendered as JSON by
:mod:`mathhammer.report.answer_json`, free of any web framework.

The page reads no files on a request's behalf (a unit's name, an inline profile or a row of a
pasted list, never a path; the bundled rule sets only; a list's text, never its path) and asks
within bounds (at most :data:`MAX_UNITS` units into one target; a plan of at most
:data:`PLAN_UNITS` units and :data:`PLAN_TARGETS` targets, adapting within :data:`BUDGET`
states); ``plan_lists`` is what the page's planner offers for two lists
(:mod:`mathhammer.app.planner`). The warnings said while answering (a guess said out loud) are
the answer's ``warnings``.

>>> import json
>>> status, body = answer("odds", {"kills": {"attacker": "Hexmark Destroyer", "target": "MEQ",
...                                          "half_range": True}, "ask": "at least", "k": 2})
>>> status, json.loads(body)["p"]
(200, '54550000/387420489')
>>> answer("kills", {"attacker": "Cronos", "target": "../secret.toml"})[1]  # doctest: +ELLIPSIS
"mathhammer: error: target '../secret.toml': the web page reads no files; give a unit's ..."
"""

from __future__ import annotations

import json
import re
import time
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import attrs

from ..app import answer as app
from ..app.lists import ARMY_REF, VS_REF
from ..app.planner import PlanLists, plan_lists_json
from ..app.queries import (
    ArmyList,
    ArmyRead,
    Compare,
    Kills,
    Odds,
    Plan,
    Salvo,
    query_from_json,
)
from ..app.setup import Setup, editions
from ..data.typed.inline import is_inline_target, is_inline_weapon
from ..errors import InputError
from ..report import answer_json

#: How many attacking units the page sends into one target at most.
MAX_UNITS = 12
#: Attacking units and targets a plan on the page takes at most (the exact search,
#: proved or with its gap within :data:`SEARCH_BUDGET` steps; the command line takes more).
PLAN_UNITS, PLAN_TARGETS = 20, 20
#: The exact search's steps on the page (engine.search; the command line's default is more).
SEARCH_BUDGET = 1_000_000
#: Joint target states the page's adaptive plan may visit (beyond: the stated heuristic).
BUDGET = 2_000
PLAN_LIMITS = (f"a plan on the page takes at most {PLAN_UNITS} attacking units and "
               f"{PLAN_TARGETS} targets, searches the best plan within {SEARCH_BUDGET:,} steps "
               f"(beyond: the best found and its gap), and adapts within {BUDGET:,} joint target "
               "states "
               "(mathhammer plan on the command line takes more)")
_FILEISH = re.compile(r"[/\\]|\.(?:toml|cat|gst|json|rosz?|xml)\s*(?::|$)", re.I)
NO_FILES = ("the web page reads no files; it uses the data the server was started with "
            "(mathhammer serve --data DIR)")


def check_spec(key: str, spec: str | None, *, weapons: bool = False) -> None:
    """A unit as the page may name it: a bundled or BattleScribe unit or an inline profile
    (weapon rows where ``weapons``); the server reads no files on a page's behalf.

    >>> check_spec("target", "../secret.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: target '../secret.toml': the web page reads no files; give a u...
    """
    if spec is None:
        return
    text = spec.strip()
    inline = is_inline_weapon(text) if weapons else False
    if not (inline or is_inline_target(text)) and _FILEISH.search(text):
        raise InputError(f"{key} {text!r}: the web page reads no files; give a unit's name or "
                         "an inline profile")


def _check_setup(s: Setup, where: str = "") -> None:
    if s.rules is not None and s.rules not in editions():
        raise InputError(f"{where}rules: expected one of {', '.join(editions())}, got "
                         f"{s.rules!r}")
    check_spec(f"{where}leader", s.leader)


def _check_changes(changes: Iterable[tuple[str, Any]], where: str) -> None:
    own = dict(changes)
    if "rules" in own and own["rules"] not in editions():
        raise InputError(f"{where}rules: expected one of {', '.join(editions())}, got "
                         f"{own['rules']!r}")
    if own.get("leader") is not None:
        check_spec(f"{where}leader", own["leader"])


def _check_list(lst: ArmyList | None, key: str) -> None:
    if lst is not None and lst.path is not None:
        raise InputError(f"{key}: the web page reads no files; paste the list's text")


def _unit(key: str, name: str, prefix: str | None = None) -> None:
    if prefix is None or not name.startswith(prefix):
        check_spec(key, name, weapons=key in ("attacker", "units", "attackers"))


def check_query(q: Any) -> None:
    """What a query of the page may not ask: a file read, a rule-set file, more than the page's
    bounds (:mod:`mathhammer.jobs.queries`)."""
    if isinstance(q, Odds):
        return check_query(q.query)
    if isinstance(q, Kills):
        _unit("attacker", q.attacker or "", ARMY_REF if q.army else None)
        _unit("target", q.target, ARMY_REF if q.army else None)
        _check_setup(q.setup)
        _check_list(q.army, "army")
    elif isinstance(q, Salvo):
        if len(q.units) > MAX_UNITS:
            raise InputError(f"units: {len(q.units)} attacking units into one target; the page "
                             f"takes at most {MAX_UNITS}")
        for o in q.units:
            _unit("units", o.unit)
            _check_changes(o.changes, f"units {o.unit!r}: ")
        _unit("target", q.target)
        _check_setup(q.setup)
    elif isinstance(q, Compare):
        for a in q.attackers:
            _unit("attackers", a)
        for t in q.targets:
            for part in ([t] if is_inline_target(t) else t.split(",")):
                if part.strip():
                    _unit("targets", part.strip())
        for v in q.variants:
            _check_changes(v.changes, f"variant {v.label!r}: ")
        _check_setup(q.setup)
        _check_list(q.army, "army")
        _check_list(q.vs_army, "vs_army")
    elif isinstance(q, Plan):
        for key, n, most in (("units", len(q.units), PLAN_UNITS),
                             ("targets", len(q.targets), PLAN_TARGETS)):
            if n > most:
                raise InputError(f"{key}: {n} {'attacking units' if key == 'units' else key}; "
                                 f"{PLAN_LIMITS}")
        for o in q.units:
            _unit("units", o.unit, ARMY_REF)
            _check_changes(o.changes, f"units {o.unit!r}: ")
        for t in q.targets:
            _unit("targets", t, VS_REF)
        for v in q.tries:
            _check_changes(v.changes, f"tries {v.label!r}: ")
        if q.reach_file is not None:
            raise InputError("reach_file: the web page reads no files; give the reach (reach)")
        _check_setup(q.setup)
        _check_list(q.army, "army")
        _check_list(q.vs_army, "vs_army")
    elif isinstance(q, PlanLists):
        _check_list(q.army, "army")
        _check_list(q.vs_army, "vs_army")
    elif isinstance(q, ArmyRead):
        _check_list(q.army, "army")
        if q.rules is not None and q.rules not in editions():
            raise InputError(f"rules: expected one of {', '.join(editions())}, got {q.rules!r}")


def _plan_bound(units: list[str], targets: list[str]) -> None:
    """The page's bound of a plan; over it with a list's units, the rows to name are said."""
    from ..limits import check_plan

    for key, refs, most, prefix, what in (
            ("units", units, PLAN_UNITS, ARMY_REF, "the army list"),
            ("targets", targets, PLAN_TARGETS, VS_REF, "the enemy's list")):
        if len(refs) <= most:
            continue
        listed = [r for r in refs if r.startswith(prefix)]
        if not listed:
            raise InputError(f"{key}: {len(refs)} "
                             f"{'attacking units' if key == 'units' else key}; {PLAN_LIMITS}")
        raise InputError(f"{key}: {what} has {len(listed)} units; {PLAN_LIMITS}: name those to "
                         f"plan with, one per line ({', '.join(listed)})")
    check_plan(len(units), len(targets))


def _plan(q: Plan) -> dict[str, Any]:
    start = time.perf_counter()
    q = attrs.evolve(q, budget=min(q.budget, BUDGET),
                     search_budget=min(q.search_budget, SEARCH_BUDGET))
    a = app.plan_answers(q, bound=_plan_bound)
    data = answer_json.plan_answers_json(a)
    data["targets"] = [{"name": x.name, "points": x.points} for x in a.aims]
    data["seconds"] = round(time.perf_counter() - start, 3)
    data["limits"] = PLAN_LIMITS
    return data


#: Each query the page asks, answered as the command line's ``--json`` prints it.
ANSWERS: dict[str, Callable[[Any], Any]] = {
    "kills": answer_json.kills_answer_json,
    "salvo": answer_json.salvo_answer_json,
    "odds": answer_json.odds_json,
    "compare": answer_json.compare_json,
    "plan": _plan,
    "army": answer_json.army_json,
    "plan_lists": plan_lists_json,
}


def answer(kind: str, body: Any) -> tuple[int, str]:
    """A query of the page from its JSON: ``(200, the answer's JSON)`` with the warnings said
    (``warnings``, one line each), or ``(400, one line)`` for a query it may not ask.
    Errors of another kind are the caller's (:func:`mathhammer.jobs.run.job`)."""
    try:
        for part in (body, *(body.get(k) for k in ("kills", "salvo"))) \
                if isinstance(body, dict) else ():
            if isinstance(part, dict) and "data" in part:
                raise InputError(f"data: {NO_FILES}")
        q = PlanLists.from_json(body) if kind == "plan_lists" else query_from_json(kind, body)
        check_query(q)
    except (ValueError, TypeError) as e:
        from ..errors import one_line

        return 400, f"mathhammer: error: {one_line(e)}"
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", UserWarning)
        data = ANSWERS[kind](q)
    lines = list(dict.fromkeys(f"warning: {' '.join(str(w.message).split())}" for w in said
                               if issubclass(w.category, UserWarning)))
    if lines:
        data["warnings"] = lines
    return 200, json.dumps(data, indent=2, ensure_ascii=False) + "\n"


_PREFIX = re.compile(r"^mathhammer(?: \w+)?: error: ")
_SEE_HELP = re.compile(r"(?<!\s)\s*\(see mathhammer \w+ --help\)")
_FLAG = re.compile(r"(?<![\w-])--(?:no-)?([a-z][\w-]*)")


def page_words(line: str) -> str:
    """An error line in the page's words: the field as the form names it, the value and what
    is allowed, without flags or ``--help`` hints.

    >>> page_words("mathhammer: error: models: expected a whole number from 1 to 1000, got 0")
    'models: expected a whole number from 1 to 1000, got 0'
    >>> page_words("mathhammer: error: --pistols has no effect with --melee")
    'pistols has no effect with melee'
    """
    text = _SEE_HELP.sub("", _PREFIX.sub("", line.strip()))
    return _FLAG.sub(lambda m: m.group(1).replace("-", " "), text)


__all__ = ["ANSWERS", "BUDGET", "MAX_UNITS", "PLAN_LIMITS", "PLAN_TARGETS", "PLAN_UNITS",
           "SEARCH_BUDGET",
           "answer", "check_query", "check_spec", "page_words"]
