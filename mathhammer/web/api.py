"""The JSON API's work for the worker processes of the web page, free of any web framework.

Every request the server does not answer from memory is one :func:`job` in a worker process:
an API call (a command of the command line, :mod:`mathhammer.web.command`), a unit
(:mod:`mathhammer.web.catalog`), a BattleScribe search or an army list
(:mod:`mathhammer.web.army`). A job answers an HTTP status with the body or a one-line error.

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


__all__ = ["job"]
