"""A phase that can happen, on the command line: the army lists of ``plan`` and ``table``
with ``--attach "LEADER=UNIT"`` (each to the list that has both units, or ``army:``/``vs:``
first), the lone CHARACTERs that could be leading said out loud, and a plan's reach
(``--reach``, ``--reach-file``) read against its units and targets (docs/rules.md, section 11).

>>> sides([AttachSpec.parse("vs:A=B")], None, object())[1][0].leader
'A'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from ..data.leaders import AttachSpec, attach, lone_leaders, unit_labels
from ..data.names import name_key
from ..data.reach import Reach, parse_reach, read_reach_file, resolve_reach
from ..errors import InputError
from .output import warn

ATTACH_HELP = ('Attach a Leader to a unit of the --army or --vs-army list that does not say '
               'it, e.g. "Captain=Intercessor Squad" (repeatable; "vs:..." or "army:..." says '
               "which list when both have the units). Checked against the data's Leader "
               "lists; a list's own attachments stay.")


def attach_option(f: Any) -> Any:
    return click.option("--attach", multiple=True, metavar="LEADER=UNIT", help=ATTACH_HELP)(f)


def reach_options(f: Any) -> Any:
    f = click.option("--reach-file", "reach_file", metavar="FILE",
                     type=click.Path(dir_okay=False),
                     help="The reach as a CSV grid: a line per unit, a column per target, "
                          "each cell x, half or empty (docs/rules.md, section 11).")(f)
    return click.option("--reach", "reach", multiple=True, metavar="UNIT=T1,T2@half",
                        help="The targets UNIT can shoot (in range and sight; @half: within "
                             "half range), repeatable; UNIT=* every target, UNIT= none. A "
                             "unit not named can shoot every target.")(f)


def _has(army: Any, name: str) -> bool:
    if army is None:
        return False
    key = name_key(name.split(" #")[0])
    return any(name_key(u.name) == key for u in army.units)


def sides(specs: Sequence[AttachSpec], mine: Any, theirs: Any
          ) -> tuple[list[AttachSpec], list[AttachSpec]]:
    """The ``--attach`` specs for each list: its ``army:``/``vs:`` side, else the list that
    has both units (an error when both lists or neither have them)."""
    out: tuple[list[AttachSpec], list[AttachSpec]] = ([], [])
    for s in specs:
        if s.side:
            if (mine if s.side == "army" else theirs) is None:
                flag = "--army" if s.side == "army" else "--vs-army"
                raise InputError(f"--attach {s.text!r}: no {flag} list given")
            out[0 if s.side == "army" else 1].append(s)
            continue
        here = [k for k, a in enumerate((mine, theirs)) if _has(a, s.leader) and
                _has(a, s.unit)]
        if len(here) == 2:
            raise InputError(f"--attach {s.text!r}: both lists have {s.leader} and {s.unit}; "
                             f'say which: "army:{s.text}" or "vs:{s.text}"')
        if not here:
            lists = [a for a in (mine, theirs) if a is not None]
            where = next((a for a in lists if _has(a, s.leader)), None)
            if where is None:
                labels = [x for a in lists for x in unit_labels(a.units)]
                raise InputError(f"--attach {s.text!r}: no unit {s.leader!r} in "
                                 f"{'either list' if len(lists) > 1 else 'the list'}"
                                 + _closest(s.leader, labels))
            raise InputError(f"--attach {s.text!r}: no unit {s.unit!r} in the list that has "
                             f"{s.leader}" + _closest(s.unit, unit_labels(where.units)))
        out[here[0]].append(s)
    return out


def _closest(name: str, labels: Sequence[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(dict.fromkeys(labels)), 3, 0.5)
    return f" (closest: {', '.join(close)})" if close else ""


def with_attachments(mine: Any, theirs: Any, given: Sequence[str]) -> tuple[Any, Any]:
    """The two lists (either may be None) with ``--attach`` applied, each checked; then the
    lone CHARACTERs that could lead a unit of a list that states no attachments, said."""
    specs = [AttachSpec.parse(a) for a in given]
    if specs and mine is None and theirs is None:
        raise click.UsageError("--attach: give the army list with --army FILE (or "
                               "--vs-army FILE)")
    ours, others = sides(specs, mine, theirs)
    out = []
    for army, own, prefix in ((mine, ours, "army:"), (theirs, others, "vs:")):
        if army is None:
            out.append(None)
            continue
        stated = bool(army.attached)
        army = attach(army, own)
        for w in army.warnings:
            if w.startswith("--attach "):
                warn(w)
        if not stated:
            for lone in lone_leaders(army):
                s = AttachSpec.parse(lone.spec)
                both = all(_has(a, s.leader) and _has(a, s.unit) for a in (mine, theirs))
                warn(f"{army.source}: {lone.text(prefix if both else '')}")
        out.append(army)
    return out[0], out[1]


def reach_of(given: Sequence[str], path: str | None, units: Sequence[str],
             targets: Sequence[str]) -> Reach | None:
    """A plan's reach from ``--reach`` and ``--reach-file`` (None: neither given), its notes
    said."""
    rows = [parse_reach(r) for r in given]
    if path is not None:
        rows += read_reach_file(path)
    if not given and path is None:
        return None
    reach = resolve_reach(rows, units, targets)
    for note in reach.notes:
        warn(note)
    return reach


__all__ = ["attach_option", "reach_of", "reach_options", "sides", "with_attachments"]
