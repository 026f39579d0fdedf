"""Share links: the web page's address of a query, and the JSON queries the page asks when it
opens one.

The page keeps its whole state in the address after ``#``, as a query string
(``static/app.js``: ``readForm``/``writeForm``): the attack (``attacker``, ``target``, the
options by their names, ``weapon`` and ``rule`` for the first unit's picks, each unit after the
first as a ``then`` of its JSON), the comparison (``row`` and ``vs``, one per line of its boxes,
``metric``, ``by``, the army list's text as ``army`` or an uploaded file as ``army_file``) and
the plan (``plan``: the planner's choices as JSON, ``plan.js``; the two lists as ``plan_army``
and ``plan_vs``, or uploaded as ``plan_army_file`` and ``plan_vs_file``). Opening an address
runs each part it holds. :func:`page_calls` is what the page then asks of the API (as
``killsQuery``, ``compareQuery`` and ``phaseBody`` make it), so
a test can check that a link answers as the command line does.

>>> url = address("http://127.0.0.1:8000/", [("attacker", "Hexmark Destroyer"),
...                                          ("target", "MEQ"), ("half_range", "true")])
>>> url
'http://127.0.0.1:8000/#attacker=Hexmark+Destroyer&target=MEQ&half_range=true'
>>> page_calls(url)["kills"]
('query', 'kills', {'target': 'MEQ', 'attacker': 'Hexmark Destroyer', 'half_range': True})
"""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

from ..jobs.queries import BUDGET, PLAN_TARGETS, PLAN_UNITS, check_spec

State = list[tuple[str, str]]


def address(base: str, state: State) -> str:
    """The page's address of a state: ``base`` and ``#`` and the state as a query string
    (spaces as ``+``, as the page's ``URLSearchParams`` writes it)."""
    return f"{base.split('#', 1)[0]}#{urllib.parse.urlencode(state)}"


def state_of(url: str) -> State:
    """The state an address holds (its part after ``#``), in order."""
    fragment = url.split("#", 1)[1] if "#" in url else ""
    return urllib.parse.parse_qsl(fragment, keep_blank_values=True)


def _get(state: State, key: str) -> str | None:
    return next((v for k, v in state if k == key), None)


def _all(state: State, key: str) -> list[str]:
    return [v for k, v in state if k == key]


def form_options() -> list[dict[str, Any]]:
    """The page's options form (:func:`mathhammer.jobs.choices.options_schema`)."""
    from ..jobs.choices import options_schema

    return options_schema()


def _value(o: dict[str, Any], state: State) -> Any:
    """An option of the form as its JSON value (``optionValue``); None when not given."""
    v = _get(state, o["key"])
    if v is None:
        return None
    if o["kind"] == "list":
        return _all(state, o["key"])
    if o["kind"] == "bool":
        return v == "true"
    if o["kind"] in ("int", "threshold"):
        return int(v)
    return v or None


def _setup(state: State, own: bool = True) -> dict[str, Any]:
    """How the attack is made (``setupObject``)."""
    out: dict[str, Any] = {}
    for o in form_options():
        v = _value(o, state)
        if v is not None:
            out[o["key"]] = v
    if _get(state, "ranged") == "false":
        out["ranged"] = False
    if _get(state, "pistols") == "true":
        out["pistols"] = True
    if _get(state, "leader"):
        out["leader"] = _get(state, "leader")
    if n := _get(state, "target_models"):
        out["target_models"] = int(n)
    if own:
        if n := _get(state, "models"):
            out["models"] = int(n)
        if _all(state, "weapon"):
            out["weapons"] = _all(state, "weapon")
        if _all(state, "rule"):
            out["named_rules"] = _all(state, "rule")
    return out


def _army(state: State, text: str, upload: str) -> Any:
    if _get(state, text):
        return _get(state, text)
    return {"base64": _get(state, upload)} if _get(state, upload) else None


def then_of(spec: str) -> dict[str, Any]:
    """A unit after the first as the address holds it (``parseSpec``): its JSON, or a bare
    name."""
    out: dict[str, Any] = {"unit": "", "leader": "", "models": "", "weapons": [], "rules": []}
    try:
        u = json.loads(spec)
    except ValueError:
        u = None
    if isinstance(u, dict):
        out.update({k: u[k] for k in ("unit", "leader", "models") if isinstance(u.get(k), str)})
        out.update({k: [str(x) for x in u[k]] for k in ("weapons", "rules")
                    if isinstance(u.get(k), list)})
    else:
        out["unit"] = spec.strip()
    return out


def then_spec(unit: str, leader: str = "", models: str = "", weapons: tuple[str, ...] = (),
              rules: tuple[str, ...] = ()) -> str:
    """A unit after the first as the page writes it (``makeSpec``)."""
    return json.dumps({"unit": unit, "leader": leader, "models": models,
                       "weapons": list(weapons), "rules": list(rules)}, separators=(",", ":"))


def _order(u: dict[str, Any]) -> dict[str, Any]:
    """A unit of a salvo as its JSON (``unitOrder``)."""
    out: dict[str, Any] = {"unit": u["unit"] + (f" + {u['leader']}" if u["leader"] else "")}
    if u["models"]:
        out["models"] = int(u["models"])
    if u["weapons"]:
        out["weapons"] = u["weapons"]
    if u["rules"]:
        out["named_rules"] = u["rules"]
    return out


def page_calls(url: str) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """The JSON queries the page asks as it opens ``url``: ``("query", kind, its JSON)`` of
    :func:`mathhammer.jobs.run.job`, for the attack (``kills``: a kills or a salvo query, when
    it names a target and an attacker), the comparison (``compare``, of rows or an army list)
    and the plan (``plan``, when it has units and targets, or lists)."""
    state = state_of(url)
    calls: dict[str, tuple[str, str, dict[str, Any]]] = {}
    attacker = _get(state, "attacker") or ""
    target = _get(state, "target") or ""
    thens = [u for u in map(then_of, _all(state, "then")) if u["unit"]]
    army = _army(state, "army", "army_file")
    if thens and attacker:  # several units into one target, in order
        first = {"unit": attacker, "leader": _get(state, "attacker_leader") or "",
                 "models": _get(state, "models") or "", "weapons": _all(state, "weapon"),
                 "rules": _all(state, "rule")}
        q: dict[str, Any] = {"units": [_order(u) for u in [first, *thens]], "target": target,
                             **_setup(state, own=False)}
        if _get(state, "until"):
            q["until"] = _get(state, "until")
        kind = "salvo"
    else:
        q = {"target": target}
        if attacker:
            leader = _get(state, "attacker_leader")
            q["attacker"] = attacker + (f" + {leader}" if leader else "")
        q.update(_setup(state))
        if n := _get(state, "turns"):
            q["turns"] = int(n)
        if _get(state, "reanimation"):
            q["reanimation"] = _get(state, "reanimation") == "true"
        if army is not None and any(v.startswith("army:") for v in (attacker, target) if v):
            q["army"] = army
        kind = "kills"
    if target and (attacker or any("|" in w for w in _all(state, "weapon"))):
        calls["kills"] = ("query", kind, q)
    rows = _all(state, "row")
    if army is not None or rows:
        c: dict[str, Any] = {}
        for o in form_options():
            v = _value(o, state)
            if v is not None:
                c[o["key"]] = v
        if _all(state, "rule"):
            c["named_rules"] = _all(state, "rule")
        if _get(state, "ranged") == "false":
            c["melee"] = True
        if _get(state, "metric"):
            c["metric"] = _get(state, "metric")
        if _all(state, "vs"):
            c["targets"] = _all(state, "vs")
        if army is not None:
            c["army"] = army
        else:
            c["attackers"] = rows
            if _get(state, "by"):
                c["by"] = _get(state, "by")
        calls["compare"] = ("query", "compare", c)
    plan = _plan_body(state)
    if plan is not None:
        calls["plan"] = ("query", "plan", plan)
    return calls


def _label(key: str, side: str) -> str:
    """A unit's label in a plan from its key in the planner's choices (``plan.js``)."""
    kind, _, rest = key[len(side) + 1:].partition(":")
    if kind == "row":
        return rest
    name = rest.partition(":")[2]
    head, colon, tail = name.partition(":")
    return tail if colon and tail[:1].strip() and len(head) <= 80 else name


def _plan_body(state: State) -> dict[str, Any] | None:
    """The plan the planner asks (``phaseBody`` of ``plan.js``) of its choices (``plan``, JSON)
    and lists (``plan_army``, ``plan_vs``, or uploaded ``*_file``); a list with ``every`` is
    sent whole (a plan takes every row of it), as ``mathhammer plan --link`` writes it."""
    try:
        choice = json.loads(_get(state, "plan") or "{}")
    except ValueError:
        return None
    if not isinstance(choice, dict):
        return None
    on, every = choice.get("on") or {}, choice.get("every") or {}
    picks = choice.get("picks") or {}
    rules, rules_all = choice.get("rules") or {}, choice.get("rules_all") or []
    lists = {"army": _army(state, "plan_army", "plan_army_file"),
             "vs": _army(state, "plan_vs", "plan_vs_file")}
    chosen: dict[str, list[str]] = {}
    for side in ("army", "vs"):
        keys = [k for k, v in on.items() if v and k.startswith(f"{side}:row:")] \
            if lists[side] is not None else []
        keys += [f"{side}:unit:{k}:{n}" for k, n in enumerate(picks.get(side) or [])
                 if on.get(f"{side}:unit:{k}:{n}")]
        chosen[side] = keys
    whole = {side: bool(every.get(side)) and lists[side] is not None for side in lists}
    if not (chosen["army"] or whole["army"]) or not (chosen["vs"] or whole["vs"]):
        return None

    def named(key: str, side: str) -> str:
        kind, _, rest = key[len(side) + 1:].partition(":")
        return f"{side}:{rest}" if kind == "row" else rest.partition(":")[2]

    units: list[Any] = []
    for key in chosen["army"]:
        own = rules.get(key, rules_all)
        units.append({"unit": named(key, "army"), "named_rules": own} if own
                     else named(key, "army"))
    body: dict[str, Any] = {"units": units,
                            "targets": [named(k, "vs") for k in chosen["vs"]]}
    for side, key in (("army", "army"), ("vs", "vs_army")):
        if lists[side] is not None and (whole[side] or any(
                k.startswith(f"{side}:row:") for k in chosen[side])):
            body[key] = lists[side]
    if "army" in body or "vs_army" in body:
        body["allow_unresolved"] = True
    attach = [{"leader": lead, "unit": unit, "side": side}
              for side, key in (("army", "army"), ("vs", "vs_army")) if key in body
              for lead, unit in (choice.get("attach") or {}).get(side) or []]
    if attach:
        body["attach"] = attach
    reach = []
    labels = {side: _numbered([_label(k, side) for k in chosen[side]]) for side in chosen}
    for i, key in enumerate(chosen["army"]):
        cells = [(choice.get("reach") or {}).get(key, {}).get(t, "x") for t in chosen["vs"]]
        if not whole["vs"] and any(c != "x" for c in cells):
            pairs = list(zip(labels["vs"], cells, strict=True))
            reach.append({"unit": labels["army"][i],
                          "targets": [t for t, c in pairs if c == "x"],
                          "half": [t for t, c in pairs if c == "half"]})
    if reach:
        body["reach"] = reach
    shared = _setup(state, own=False)
    shared.pop("leader", None)
    shared.pop("target_models", None)
    body.update(shared)
    if choice.get("objective"):
        body["objective"] = choice["objective"]
    if choice.get("adaptive"):
        body["adaptive"] = True
    return body


def _numbered(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n} #{seen[n]}")
    return out


def shown_odds(url: str) -> tuple[str, int]:
    """What the page's odds line counts and from how many: ``(dist, k)`` (``P(kills >= 1)`` by
    default).

    >>> shown_odds("http://127.0.0.1:8000/#attacker=Cronos&target=MEQ&k=3&dist=damage")
    ('damage', 3)
    """
    state = state_of(url)
    return _get(state, "dist") or "kills", int(_get(state, "k") or 1)


__all__ = ["BUDGET", "PLAN_TARGETS", "PLAN_UNITS", "address", "check_spec", "form_options",
           "page_calls", "shown_odds", "state_of", "then_of", "then_spec"]
