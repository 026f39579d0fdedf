"""Share links: the web page's address of a query, and the API calls the page makes when it
opens one.

The page keeps its whole state in the address after ``#``, as a query string
(``static/app.js``: ``readForm``/``writeForm``): the attack (``attacker``, ``target`` and the
API's own names of the options), the comparison (``row`` and ``vs``, one per line of its
boxes, ``metric``, ``by``, the army list's text as ``army`` or an uploaded file as
``army_file``) and the plan (``plan_units``, ``plan_targets``, ``plan_objective``,
``plan_adaptive``, the enemy's list as ``plan_vs``). Opening an address runs each part it
holds. :func:`page_calls` is what the page then asks of the API (as ``killsParams``,
``tableParams`` and ``runPlan`` make it), so a test can check that a link answers as the
command line does.

>>> url = address("http://127.0.0.1:8000/", [("attacker", "Hexmark Destroyer"),
...                                          ("target", "MEQ"), ("half_range", "true")])
>>> url
'http://127.0.0.1:8000/#attacker=Hexmark+Destroyer&target=MEQ&half_range=true'
>>> page_calls(url)["kills"]
('call', 'kills', {'attacker': 'Hexmark Destroyer', 'target': 'MEQ', 'half_range': 'true'})
"""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

from ..errors import InputError

#: A plan on the page takes at most this many attacking units and targets (a whole army into a
#: whole army, searched), and adapts within this many joint target states
#: (:mod:`mathhammer.web.plan`; the command line takes more).
PLAN_UNITS, PLAN_TARGETS, BUDGET = 20, 20, 2_000
_FILEISH = re.compile(r"[/\\]|\.(?:toml|cat|gst|json|rosz?|xml)\s*(?::|$)", re.I)


def check_spec(key: str, spec: str) -> str:
    """A unit as the page may name it: a bundled or BattleScribe unit or an inline profile (a
    weapon row for an attacker, a target profile for any other); the server reads no files on
    a page's behalf.

    >>> check_spec("target", "../secret.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: target '../secret.toml': the web page reads no files; give a u...
    """
    from ..data.inline import is_inline_target, is_inline_weapon

    text = str(spec).strip()
    if not text:
        raise InputError(f"{key}: expected a unit's name or an inline profile, got ''")
    inline = is_inline_weapon(text) if key in ("attacker", "unit") else False
    if not (inline or is_inline_target(text)) and _FILEISH.search(text):
        raise InputError(f"{key} {text!r}: the web page reads no files; give a unit's name or "
                         "an inline profile")
    return text

#: The keys of the address that are the page's own (not parameters of ``/api/kills``).
PLAN_KEYS = ("plan_units", "plan_targets", "plan_objective", "plan_adaptive", "plan_vs",
             "plan_vs_file")
PAGE_ONLY = ("no_weapon", "k", "dist", "row", "vs", "army", "army_file", "metric", "by",
             "faction", "attacker_leader", "then", "until", *PLAN_KEYS)
#: Keys the page sends as lists in a JSON body.
LISTS = ("weapon", "rule", "ability", "targets", "then")


def address(base: str, state: list[tuple[str, str]]) -> str:
    """The page's address of a state: ``base`` and ``#`` and the state as a query string
    (spaces as ``+``, as the page's ``URLSearchParams`` writes it)."""
    return f"{base.split('#', 1)[0]}#{urllib.parse.urlencode(state)}"


def state_of(url: str) -> list[tuple[str, str]]:
    """The state an address holds (its part after ``#``), in order."""
    fragment = url.split("#", 1)[1] if "#" in url else ""
    return urllib.parse.parse_qsl(fragment, keep_blank_values=True)


def _get(state: list[tuple[str, str]], key: str) -> str | None:
    return next((v for k, v in state if k == key), None)


def _all(state: list[tuple[str, str]], key: str) -> list[str]:
    return [v for k, v in state if k == key]


def _object(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """Pairs as the page's JSON (``paramsObject``): repeatable keys as lists."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in LISTS:
            out.setdefault(k, []).append(v)
        else:
            out.setdefault(k, v)
    return out


def _schema_keys() -> list[str]:
    """The keys of the page's options form (:func:`mathhammer.web.catalog.options_schema`):
    the :class:`~mathhammer.model.options.Options` fields a player sets, by their API names.

    >>> _schema_keys()[:3], _schema_keys()[-1]
    (['rules', 'half_range', 'charged'], 'ability')
    """
    import attrs

    from ..model.options import Options

    return [{"abilities": "ability"}.get(f.name, f.name) for f in attrs.fields(Options)
            if "help" in f.metadata or f.name in ("rules", "abilities")]


def _army(state: list[tuple[str, str]], text: str, upload: str) -> Any:
    if _get(state, text):
        return _get(state, text)
    return {"base64": _get(state, upload)} if _get(state, upload) else None


def page_calls(url: str) -> dict[str, tuple[Any, ...]]:
    """The API calls the page makes as it opens ``url``, as :func:`mathhammer.web.api.job`'s
    kind and arguments: ``kills`` (the attack, when it names a target and an attacker),
    ``table`` (the comparison, of rows or an army list) and ``plan`` (when it has units and
    targets, or lists)."""
    state = state_of(url)
    calls: dict[str, tuple[Any, ...]] = {}
    kills = [(k, v) for k, v in state if k not in PAGE_ONLY]
    thens = [t for t in _all(state, "then") if t.split(" --")[0].strip()]
    attacker = _get(kills, "attacker")
    if thens and attacker:  # several units into one target: as killsParams makes it
        kills = [(k, v) for k, v in kills if k not in ("then", "until")]
        kills += [("then", t) for t in thens]
        if _get(state, "until"):
            kills.append(("until", _get(state, "until")))
    elif _get(state, "attacker_leader") and attacker:
        kills = [(k, f"{v} + {_get(state, 'attacker_leader')}" if k == "attacker" else v)
                 for k, v in kills]
    if _get(kills, "target") and (attacker or any("|" in w for w in _all(kills, "weapon"))):
        army = _army(state, "army", "army_file")
        units = [v for k, v in kills if k in ("attacker", "target")]
        if army is not None and any(u.startswith("army:") for u in units):
            calls["kills"] = ("army_kills", army, _object(kills))
        else:
            calls["kills"] = ("call", "kills", _object(kills))
    shared = {*_schema_keys(), "rule"}
    table = [(k, v) for k, v in state if k in shared]
    if _get(state, "ranged") == "false":
        table.append(("melee", "true"))
    if _get(state, "metric"):
        table.append(("metric", _get(state, "metric")))
    table += [("targets", t) for t in _all(state, "vs")]
    army = _army(state, "army", "army_file")
    if army is not None:
        calls["table"] = ("army", army, _object(table))
    elif _all(state, "row"):
        if _get(state, "by"):
            table.append(("by", _get(state, "by")))
        calls["table"] = ("call", "table", {**_object(table),
                                            "attacker": _all(state, "row")})
    units, targets = _all(state, "plan_units"), _all(state, "plan_targets")
    vs = _army(state, "plan_vs", "plan_vs_file")
    if (units or army is not None) and (targets or vs is not None):
        body: dict[str, Any] = {"units": units, "targets": targets}
        for key in _schema_keys():  # the modifiers, shared by every unit
            got = _all(state, key)
            if got:
                body[key] = got if key == "ability" else got[0]
        if _get(state, "ranged") == "false":
            body["ranged"] = "false"
        if army is not None and (not units or any(u.startswith("army:") for u in units)):
            body["army"] = army
        if vs is not None:
            body["vs_army"] = vs
        if _get(state, "plan_objective"):
            body["objective"] = _get(state, "plan_objective")
        if _get(state, "plan_adaptive"):
            body["adaptive"] = True
        calls["plan"] = ("plan", body)
    return calls


def shown_odds(url: str) -> tuple[str, int]:
    """What the page's odds line counts and from how many: ``(dist, k)`` (``P(kills >= 1)`` by
    default).

    >>> shown_odds("http://127.0.0.1:8000/#attacker=Cronos&target=MEQ&k=3&dist=damage")
    ('damage', 3)
    """
    state = state_of(url)
    return _get(state, "dist") or "kills", int(_get(state, "k") or 1)


__all__ = ["BUDGET", "LISTS", "PAGE_ONLY", "PLAN_KEYS", "PLAN_TARGETS", "PLAN_UNITS", "address",
           "check_spec", "page_calls", "shown_odds", "state_of"]
