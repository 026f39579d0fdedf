"""Army lists as a query gives them (:class:`~mathhammer.app.queries.ArmyList`): a file read
from its path, a pasted text or an uploaded file read in memory (once per content), the
Leaders ``attach`` names attached, the lone CHARACTERs that could be leading said out loud.

They need :mod:`mathhammer.data.army`; an install without it raises :class:`Unavailable`.
"""

from __future__ import annotations

import base64
import importlib
from collections.abc import Sequence
from typing import Any

from ..cache import cached
from ..data.rules.leaders import AttachSpec, attach, lone_leaders, unit_labels
from ..data.typed.names import name_key
from ..errors import InputError, field
from .queries import ArmyList
from .resolve import lists_ruleset, warn


class Unavailable(Exception):
    """A feature this install lacks (the page answers HTTP 501), with a one-line message."""


def army_module() -> Any:
    """:mod:`mathhammer.data.army`, or :class:`Unavailable`."""
    try:
        return importlib.import_module("mathhammer.data.army")
    except ModuleNotFoundError as e:
        if e.name != "mathhammer.data.army":
            raise
        raise Unavailable("army lists and BattleScribe search need mathhammer.data.army, which "
                          "this install of mathhammer does not have") from None


@cached(maxsize=16)
def _parsed(content: str | bytes, module: Any) -> Any:
    return module.parse_army(content)


def read_list(lst: ArmyList, data: str | None = None, attach: Sequence[str] = ()) -> Any:
    """The army of a list: its file (``path``, with the Leaders ``attach`` names), its text or
    its uploaded bytes (``base64``; read once per content)."""
    module = army_module()
    if lst.path is not None:
        return module.load_army(lst.path, data=data, attach=tuple(attach))
    if lst.base64 is not None:
        try:
            content: str | bytes = base64.b64decode(lst.base64, validate=True)
        except ValueError:
            raise InputError("army: the uploaded file is not valid base64") from None
    else:
        content = lst.text or ""
    return _parsed(content, module)


def checked_list(lst: ArmyList, data: str | None = None, *, allow_unresolved: bool = False,
                 attach: Sequence[str] = ()) -> Any:
    """An army list for a comparison or a plan, its warnings said. A line that does not
    resolve is an error, unless ``allow_unresolved``: then each is said as left out, with the
    points read."""
    army = read_list(lst, data, attach)
    for w in getattr(army, "warnings", ()):
        warn(w)
    unresolved = getattr(army, "unresolved", ())
    if unresolved and not allow_unresolved:
        lines = "; ".join(f"{u.line}: {u.describe()}" for u in unresolved[:20])
        more = f" and {len(unresolved) - 20} more" if len(unresolved) > 20 else ""
        total = army.declared_points if army.declared_points is not None else "?"
        raise InputError(f"{lst.where}: {army.points} / {total} points read; unresolved lines "
                         f"{lines}{more}; see `mathhammer army {lst.where}` "
                         f"({field('allow_unresolved')} to use the units read)")
    if unresolved:
        for ln in unresolved_lines(army):
            warn(f"{ln} (left out)")
        n = len(unresolved)
        warn(f"{army.source}: {points_read(army)}; {n} line{'s' * (n != 1)} left out "
             f"({field('allow_unresolved')})")
    return army


def points_read(army: Any) -> str:
    """``"1155 / 1995 points read"`` (or ``"1995 points"`` when the list's total is read
    whole)."""
    if army.declared_points is None or (army.declared_points == army.points
                                        and not army.unresolved):
        return f"{army.points} points"
    return f"{army.points} / {army.declared_points} points read"


def unresolved_lines(army: Any) -> list[str]:
    """One line per name of the list that was not read: ``file:line: unresolved: ...``."""
    out = []
    for u in army.unresolved:
        where = f"{army.source}:{u.line}" if u.line else army.source
        out.append(f"{where}: unresolved: {u.describe()}")
    return out


#: How a query names a unit of its army list, and of the enemy's: a prefix and a row's label.
ARMY_REF, VS_REF = "army:", "vs:"


def army_unit(army: Any, key: str, ref: str, prefix: str = ARMY_REF) -> tuple[str, Any]:
    """The row's label and unit that ``ref`` (``prefix`` and a row's label) names in ``army``."""
    label = ref[len(prefix):].strip()
    rows = army.rows()
    for name, unit in rows:
        if name == label:
            return name, unit
    known = ", ".join(name for name, _ in rows)
    raise InputError(f"{key} {ref!r}: the army list has no unit {label!r}; it has: {known}")


# --- Leaders attached by the query ------------------------------------------------------------


def _has(army: Any, name: str) -> bool:
    if army is None:
        return False
    key = name_key(name.split(" #")[0])
    return any(name_key(u.name) == key for u in army.units)


def sides(specs: Sequence[AttachSpec], mine: Any, theirs: Any
          ) -> tuple[list[AttachSpec], list[AttachSpec]]:
    """The ``attach`` specs for each list: its ``army:``/``vs:`` side, else the list that has
    both units (an error when both lists or neither have them).

    >>> sides([AttachSpec.parse("vs:A=B")], None, object())[1][0].leader
    'A'
    """
    out: tuple[list[AttachSpec], list[AttachSpec]] = ([], [])
    for s in specs:
        if s.side:
            if (mine if s.side == "army" else theirs) is None:
                side = field("army" if s.side == "army" else "vs_army")
                raise InputError(f"{field('attach')} {s.text!r}: no {side} list given")
            out[0 if s.side == "army" else 1].append(s)
            continue
        here = [k for k, a in enumerate((mine, theirs)) if _has(a, s.leader) and
                (s.alone or _has(a, s.unit))]
        if len(here) == 2:
            raise InputError(f"{field('attach')} {s.text!r}: both lists have {s.leader} and "
                             f'{s.unit}; say which: "army:{s.text}" or "vs:{s.text}"')
        if not here:
            lists = [a for a in (mine, theirs) if a is not None]
            where = next((a for a in lists if _has(a, s.leader)), None)
            if where is None:
                labels = [x for a in lists for x in unit_labels(a.units)]
                raise InputError(f"{field('attach')} {s.text!r}: no unit {s.leader!r} in "
                                 f"{'either list' if len(lists) > 1 else 'the list'}"
                                 + _closest(s.leader, labels))
            raise InputError(f"{field('attach')} {s.text!r}: no unit {s.unit!r} in the list "
                             f"that has {s.leader}" + _closest(s.unit, unit_labels(where.units)))
        out[here[0]].append(s)
    return out


def _closest(name: str, labels: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(dict.fromkeys(labels)), 3, 0.5)
    return f" (closest: {', '.join(close)})" if close else ""


def with_attachments(mine: Any, theirs: Any, given: Sequence[str]) -> tuple[Any, Any]:
    """The two lists (either may be None) with the ``attach`` specs applied, each checked;
    then the lone CHARACTERs that could lead a unit of a list that states no attachments,
    said."""
    specs = [AttachSpec.parse(a) for a in given]
    if specs and mine is None and theirs is None:
        raise InputError(f"{field('attach')}: give the army list with {field('army')} FILE (or "
                         f"{field('vs_army')} FILE)")
    if not specs and not any(hasattr(a, "attached") for a in (mine, theirs)):
        return mine, theirs  # a list module that attaches nothing (a stand-in)
    ours, others = sides(specs, mine, theirs)
    out: list[Any] = []
    for army, own, prefix in ((mine, ours, "army:"), (theirs, others, "vs:")):
        if army is None:
            out.append(None)
            continue
        stated, said = bool(army.attached), len(army.warnings)  # (said by checked_list)
        army = attach(army, own)
        for w in army.warnings[said:]:  # what the attachments add
            warn(w)
        if not stated:
            for lone in lone_leaders(army):
                s = AttachSpec.parse(lone.spec)
                both = all(_has(a, s.leader) and _has(a, s.unit) for a in (mine, theirs))
                warn(f"{army.source}: {lone.text(prefix if both else '')}")
        out.append(army)
    return out[0], out[1]


def query_lists(q: Any, data: str | None = None) -> tuple[Any, Any, Any]:
    """The army lists of a comparison or a plan (``q.army``, ``q.vs_army``; either may be
    None), read and attached as ``q.attach`` says, and ``q.setup`` with their edition."""
    mine = checked_list(q.army, data, allow_unresolved=q.allow_unresolved) if q.army else None
    theirs = checked_list(q.vs_army, data, allow_unresolved=q.allow_unresolved) \
        if q.vs_army else None
    mine, theirs = with_attachments(mine, theirs, q.attach)
    s = lists_ruleset(q.setup, q.setup.rules is not None,
                      (f"{field('army')} {q.army.where}" if q.army else "army", mine),
                      (f"{field('vs_army')} {q.vs_army.where}" if q.vs_army else "vs_army",
                       theirs))
    return mine, theirs, s.with_rules(data)


__all__ = ["ARMY_REF", "VS_REF", "Unavailable", "army_module", "army_unit", "checked_list",
           "points_read", "query_lists", "read_list", "sides", "unresolved_lines",
           "with_attachments"]
