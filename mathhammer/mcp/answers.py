"""What a call of ``mathhammer mcp`` answers: the job run in a worker (the JSON API's,
:func:`mathhammer.jobs.run.job`) with the warnings it printed, its JSON with a float beside each
exact value, and its error in the arguments' words.

>>> with_floats({"p": "1/4"})
{'p': '1/4', 'p_float': 0.25}
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import warnings
from fractions import Fraction
from typing import Any

_FRACTION = re.compile(r"-?\d+/\d+")


def _float(text: str) -> float:
    return float(Fraction(text))


def with_floats(value: Any) -> Any:
    """The answer with a float beside each exact value that has none: ``"p": "1/6"`` gains
    ``"p_float"``, a distribution ``{"0": "5/6", "1": "1/6"}`` under ``"kills"`` gains
    ``"kills_float"``.

    >>> with_floats({"p": "1/4", "pmf": {"kills": {"0": "3/4", "1": "1/4"}}})["pmf"]
    {'kills': {'0': '3/4', '1': '1/4'}, 'kills_float': {'0': 0.75, '1': 0.25}}
    >>> with_floats({"exact": "1/2", "float": 0.5})
    {'exact': '1/2', 'float': 0.5}
    """
    if isinstance(value, list):
        return [with_floats(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for k, v in value.items():
        out[k] = v if isinstance(v, dict) and _distribution(v) else with_floats(v)
        twin = f"{k}_float"
        if twin in value or (k == "exact" and "float" in value):
            continue
        if isinstance(v, str) and _FRACTION.fullmatch(v):
            out[twin] = _float(v)
        elif isinstance(v, dict) and _distribution(v):
            out[twin] = {kk: _float(x) for kk, x in v.items()}
    return out


def _distribution(value: dict[str, Any]) -> bool:
    """Whether a dict is exact values only (a PMF, the means of every counter)."""
    return bool(value) and all(isinstance(x, str) and _FRACTION.fullmatch(x)
                               for x in value.values())


def search_answer(query: str, rules: str | None = None, faction: str | None = None
                  ) -> dict[str, Any]:
    """The bundled units whose name holds the query, and the BattleScribe search's names (none
    when this install or the server has no data).

    >>> search_answer("marine")["bundled"][:1]
    ['MEQ']
    """
    from ..data.typed.names import name_key
    from ..data.units.bundled import list_units
    from ..jobs.search import Unavailable, search_json

    key = name_key(query)
    bundled = [u.name for u in list_units()
               if not faction and len(key) >= 2 and (key in name_key(u.name) or any(
                   key in name_key(a) for a in getattr(u, "aliases", ()) or ()))]
    try:
        found = search_json(query, rules, faction)
        note = None
    except Unavailable as e:
        found, note = [], str(e)
    out: dict[str, Any] = {"bundled": bundled, "units": found}
    if note:
        out["note"] = note
    return out


def _show_warning(message: Any, *_args: Any, **_kwargs: Any) -> None:
    """``warnings.showwarning`` in a worker: a library warning is one line on stderr, as the
    command line says it."""
    from ..errors import one_line

    print(f"warning: {one_line(str(message))}", file=sys.stderr)


def run_job(kind: str, *args: Any) -> tuple[int, str]:
    """A call's job in this process (a worker's): :func:`mathhammer.jobs.run.job`, with the
    warnings it printed (a guess said out loud, a rule not modelled) as ``warnings`` of the
    answer, and nothing printed on standard output (the protocol's stream under stdio).

    >>> status, body = run_job("unit", "MEQ")
    >>> status, json.loads(body)["statline"]
    (200, 'T4 Sv3+ W2')
    """
    from ..jobs.run import job

    err = io.StringIO()
    with contextlib.redirect_stdout(sys.stderr), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        warnings.simplefilter("always", UserWarning)
        warnings.showwarning = _show_warning
        if kind == "mcp_search":
            try:
                status, body = 200, json.dumps(search_answer(*args))
            except ValueError as e:
                from ..errors import one_line

                status, body = 400, f"mathhammer: error: {one_line(e)}"
        else:
            status, body = job(kind, *args)
    said = [x.strip() for x in err.getvalue().splitlines() if "warning:" in x]
    if status == 200:  # what the army lists' readers said, as the command line says it
        said += [f"warning: {w}" for w in _list_warnings(kind, args, body)]
    said = list(dict.fromkeys(said))
    if status != 200 or not said:
        return status, body
    data = json.loads(body)
    if isinstance(data, dict):
        data["warnings"] = list(dict.fromkeys([*data.get("warnings", []), *said]))
        body = json.dumps(data, ensure_ascii=False)
    return status, body


def _list_warnings(kind: str, args: tuple[Any, ...], body: str) -> list[str]:
    """The warnings of the army lists a job read that its answer does not say already."""
    return []


def answer(body: str) -> dict[str, Any]:
    """A job's JSON answer as the tool's structured result: with the floats
    (:func:`with_floats`); an answer that is not an object is ``{"answer": ...}``."""
    data = json.loads(body)
    return with_floats(data if isinstance(data, dict) else {"answer": data})


def error_text(line: str) -> str:
    """A job's one-line error in the API's words (the argument's name, not the flag).

    >>> error_text("mathhammer: error: models: expected a whole number from 1 to 1000, got 0")
    'models: expected a whole number from 1 to 1000, got 0'
    """
    from ..jobs.queries import page_words

    return page_words(line)


__all__ = ["answer", "error_text", "run_job", "search_answer", "with_floats"]
