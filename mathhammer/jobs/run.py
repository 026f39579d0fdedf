"""The JSON API's work for the worker processes of the web page, free of any web framework.

Every request the server does not answer from memory is one :func:`job` in a worker process:
a JSON query (:mod:`mathhammer.jobs.queries`: kills, salvo, odds, compare, plan, army, and
the planner's offer of two lists, plan_lists), a unit
(:mod:`mathhammer.jobs.choices`), a BattleScribe search (:mod:`mathhammer.jobs.search`), or a
worker's warm-up (:func:`warm`). A job answers an HTTP status with the body or a one-line
error, or :data:`MOVED` past its soft time limit (the page's quick lane).

>>> job("query", "kills", {"attacker": "Cronos"})
(400, "mathhammer: error: target: expected a unit's name or an inline profile")
"""

from __future__ import annotations

import json
from typing import Any

from ..app.lists import Unavailable
from ..errors import InputError, one_line
from .choices import unit_info
from .queries import answer
from .search import factions_json, search_json
from .soft import within

#: What :func:`job` answers for a job that ran past its ``soft`` limit (interrupted, its worker
#: warm): the server asks the long lane instead. Status 0: no answer to send as it is.
MOVED = (0, "moved: past the soft time limit")


def job(kind: str, *args: Any, soft: float | None = None) -> tuple[int, str]:
    """One unit of work for a worker process: ``(HTTP status, body or one-line error)``; with
    ``soft`` seconds, :data:`MOVED` once it has computed that long, counted from when the
    worker starts it (:func:`mathhammer.jobs.soft.within`: interrupted, the process lives
    on with what it had read).

    >>> job("unit", "MEQ")[0], json.loads(job("unit", "MEQ")[1])["statline"]
    (200, 'T4 Sv3+ W2')
    """
    from ..data.store.compiled import StoreCompiling, compiled_elsewhere

    try:
        with compiled_elsewhere():  # a store is built by the server, never in a query's time
            if soft is None:
                return _job(kind, *args)
            done, answer = within(soft, _job, kind, *args)
            return answer if done and answer is not None else MOVED
    except StoreCompiling as e:  # the page asks again after Retry-After
        return 503, f"mathhammer: error: {e}"


def _job(kind: str, *args: Any) -> tuple[int, str]:
    try:
        if kind == "query":
            return answer(*args)
        if kind == "unit":
            return 200, json.dumps(unit_info(*args))
        if kind == "factions":
            return 200, json.dumps({"factions": factions_json(*args)})
        if kind == "search":
            return 200, json.dumps({"units": search_json(*args)})
        if kind == "warm":
            return 200, json.dumps({"warm": warm()})
    except Unavailable as e:
        return 501, f"mathhammer: error: {one_line(e)}"
    except (ValueError, TypeError, OSError) as e:
        return 400, f"mathhammer: error: {one_line(e)}"
    except RecursionError:
        return 400, "mathhammer: error: input nested too deeply"
    except Exception as e:  # a bug: one line, no traceback to the page
        return 500, f"mathhammer: internal error: {type(e).__name__}: {one_line(e)}"
    raise InputError(f"unknown job {kind!r}")


def warm() -> float:
    """Read what a worker's first look at the data needs, so its first answer is as quick as
    the next: each installed edition's compiled store and unit index, one datasheet's card and
    one attack of it (its rules translated). Run in the background as a worker starts (the
    page is answered from memory meanwhile); it never fails (a worker without data skips it).
    Returns the seconds it took.

    >>> warm() >= 0
    True
    """
    import contextlib
    import io
    import time
    import warnings

    from ..data.store.compiled import StoreCompiling, compiled_elsewhere

    start = time.perf_counter()
    with contextlib.suppress(Exception, StoreCompiling), compiled_elsewhere(), \
            warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()), \
            contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        from ..data.store.compiled import store_ready
        from ..data.store.data_folder import installed_editions
        from ..data.store.index import unit_index

        for edition in installed_editions():
            if not store_ready(edition):  # the server builds it (mathhammer.jobs.compiling)
                continue
            index = unit_index(edition)
            name = next((f"{c.label}:{u}" for c in index.catalogues if not c.library
                         for u, _k, _own in c.units), None)
            if name is not None:
                unit_info(name, edition)
                answer("kills", {"attacker": name, "target": "MEQ", "rules": edition})
    return time.perf_counter() - start


__all__ = ["MOVED", "job", "warm"]
