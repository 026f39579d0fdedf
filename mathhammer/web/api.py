"""The JSON API's work for the worker processes of the web page, free of any web framework.

Every request the server does not answer from memory is one :func:`job` in a worker process:
an API call (a command of the command line, :mod:`mathhammer.web.command`), a unit
(:mod:`mathhammer.web.catalog`), a BattleScribe search or an army list
(:mod:`mathhammer.web.army`), a plan (:mod:`mathhammer.web.plan`), or a worker's warm-up
(:func:`warm`). A job answers an HTTP status with the body or a one-line error.

>>> job("call", "kills", {"attacker": "Cronos"})
(400, "mathhammer kills: error: target: expected a unit's name or an inline profile")
"""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import InputError, one_line
from .army import Unavailable, army_kills, army_table, factions_json, search_json
from .catalog import unit_info
from .command import call


def job(kind: str, *args: Any) -> tuple[int, str]:
    """One unit of work for a worker process: ``(HTTP status, body or one-line error)``.

    >>> job("unit", "MEQ")[0], json.loads(job("unit", "MEQ")[1])["statline"]
    (200, 'T4 Sv3+ W2')
    """
    try:
        if kind == "call":
            return call(*args)
        if kind == "unit":
            return 200, json.dumps(unit_info(*args))
        if kind == "factions":
            return 200, json.dumps({"factions": factions_json(*args)})
        if kind == "search":
            return 200, json.dumps({"units": search_json(*args)})
        if kind == "army":
            return 200, army_table(*args)
        if kind == "army_kills":
            return 200, army_kills(*args)
        if kind == "plan":
            from .plan import plan_page

            return 200, plan_page(*args)
        if kind == "warm":
            return 200, json.dumps({"warm": warm()})
    except Unavailable as e:
        return 501, f"mathhammer: error: {one_line(e)}"
    except click.UsageError as e:
        return 400, f"mathhammer table: error: {one_line(e.format_message())}"
    except (ValueError, TypeError, OSError) as e:
        return 400, f"mathhammer: error: {one_line(e)}"
    except RecursionError:
        return 400, "mathhammer: error: input nested too deeply"
    except Exception as e:  # a bug: one line, no traceback to the page
        return 500, f"mathhammer: internal error: {type(e).__name__}: {one_line(e)}"
    raise InputError(f"unknown job {kind!r}")


def _store_ready(edition: str) -> bool:
    """Whether the compiled store of ``edition``'s data is built and up to date (its meta
    signature is that of the files now), so opening it builds nothing."""
    import sqlite3

    from ..data.catalogue import signature, store_path
    from ..data.datastore import edition_dir, edition_files

    folder = edition_dir(edition)
    path = store_path(folder, edition)
    if not path.is_file():
        return False
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'signature'").fetchone()
    finally:
        db.close()
    return row is not None and row[0] == signature(edition_files(folder, edition))


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

    start = time.perf_counter()
    with contextlib.suppress(Exception), warnings.catch_warnings(), \
            contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        from ..data.datastore import installed_editions
        from ..data.unit_index import unit_index

        for edition in installed_editions():
            if not _store_ready(edition):  # building a store is a request's work, not a warm-up
                continue
            index = unit_index(edition)
            name = next((f"{c.label}:{u}" for c in index.catalogues if not c.library
                         for u, _k, _own in c.units), None)
            if name is not None:
                unit_info(name, edition)
                call("kills", {"attacker": name, "target": "MEQ", "rules": edition})
    return time.perf_counter() - start


__all__ = ["job", "warm"]
