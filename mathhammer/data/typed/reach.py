"""Reach: which targets each attacking unit of a plan can shoot (in range and in sight), and
which of them it is within half range of, as a player gives it (docs/rules.md, section 11):

- ``--reach "UNIT=T1,T2@half"`` (repeatable): the unit can shoot T1 and T2, T2 within half
  range; ``UNIT=*`` every target, ``UNIT=*@half`` every target within half range, ``UNIT=``
  none (the unit is left out of the plan);
- ``--reach-file FILE``: the same as a CSV grid, a row per unit and a column per target, each
  cell ``x`` (can shoot it), ``half`` (can shoot it within half range) or empty (cannot)::

      unit,           Captain, Vindicator
      Eliminator Squad, x,     half
      Razorback,        ,      x

Units are named as the plan names them (``Baal Predator #2``, an attached unit by its whole
name or by the name of its Bodyguard or Leader when that is one unit's); a unit the reach does
not name can shoot every target (said).

>>> parse_reach("Eliminator Squad=Captain, Vindicator@half").targets
(('Captain', False), ('Vindicator', True))
>>> r = resolve_reach([parse_reach("B=Y@half")], ["A", "B"], ["X", "Y"])
>>> r.candidates, sorted(r.half)
(((0, 1), (1,)), [(1, 1)])
"""

from __future__ import annotations

import csv
import difflib
import io
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from ...errors import InputError
from .names import name_key

#: what a cell of a reach file may say, and what it means: None cannot shoot, False can
#: shoot, True can shoot within half range
CELLS: dict[str, bool | None] = {
    "": None, "-": None, "no": None, "n": None, "0": None,
    "x": False, "yes": False, "y": False, "1": False, "\u2713": False, "\u2714": False,
    "half": True, "h": True, "\u00bd": True,
}
#: the most rows and columns a reach file may have (a plan has at most 100 units, 100 targets)
MAX_ROWS = MAX_COLUMNS = 200
#: the largest reach file read (bytes)
MAX_BYTES = 200_000
EVERY = "*"


@attrs.frozen
class ReachRow:
    """One unit's reach as given: the targets it can shoot, each with whether it is within half
    range of it (``"*"``: every target), and where it was given (for errors)."""

    unit: str
    targets: tuple[tuple[str, bool], ...]
    where: str


@attrs.frozen
class Reach:
    """A plan's reach by index: each unit's targets (``candidates``), the (unit, target) pairs
    within half range, and what a player should be told (units not named, units that reach
    nothing, targets nobody reaches)."""

    candidates: tuple[tuple[int, ...], ...]
    half: frozenset[tuple[int, int]] = frozenset()
    notes: tuple[str, ...] = ()

    def to_json(self, units: Sequence[str], targets: Sequence[str]) -> list[dict]:
        """Per unit: the targets it can shoot and those within half range (by name)."""
        return [{"unit": u, "targets": [targets[t] for t in c],
                 "half_range": [targets[t] for t in c if (i, t) in self.half]}
                for i, (u, c) in enumerate(zip(units, self.candidates, strict=True))]


def _target(text: str, where: str) -> tuple[str, bool]:
    name, at, rest = text.strip().rpartition("@")
    if not at:
        return text.strip(), False
    if rest.strip().lower() != "half":
        raise InputError(f"{where}: {text.strip()!r}: expected TARGET or TARGET@half")
    return name.strip(), True


def parse_reach(spec: str) -> ReachRow:
    """``UNIT=T1,T2@half`` as a :class:`ReachRow`.

    >>> parse_reach("Razorback")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --reach 'Razorback': expected "UNIT=TARGET,TARGET@half" ...
    """
    where = f"--reach {spec!r}"
    unit, eq, rest = spec.partition("=")
    if not eq or not unit.strip():
        raise InputError(f'{where}: expected "UNIT=TARGET,TARGET@half" (UNIT=* for every '
                         "target, UNIT= for none)")
    parts = [p for p in rest.split(",") if p.strip()]
    targets = tuple(_target(p, where) for p in parts)
    for name, _half in targets:
        if not name:
            raise InputError(f"{where}: a target without a name")
    return ReachRow(unit.strip(), targets, where)


def read_reach_file(path: str | os.PathLike) -> list[ReachRow]:
    """The rows of a reach file (a CSV grid: module docstring); every error names the file,
    its line and the value."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise InputError(f"--reach-file {str(p)!r}: larger than {MAX_BYTES:,} bytes")
        text = p.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise InputError(f"--reach-file {str(p)!r}: cannot read it ({e.strerror})") from None
    except UnicodeDecodeError:
        raise InputError(f"--reach-file {str(p)!r}: not UTF-8 text") from None
    return reach_rows(text, str(p))


def reach_rows(text: str, source: str = "<reach>") -> list[ReachRow]:
    """The rows of a reach grid's text (see :func:`read_reach_file`).

    >>> [(r.unit, r.targets) for r in reach_rows("unit,X,Y\\nA,x,half\\nB,,x\\n")]
    [('A', (('X', False), ('Y', True))), ('B', (('Y', False),))]
    >>> reach_rows("unit,X\\nA,maybe\\n", "r.csv")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: r.csv:2: unit 'A', target 'X': 'maybe': expected x, half or empty
    """
    delimiter = ";" if text.split("\n", 1)[0].count(";") > text.split("\n", 1)[0].count(",") \
        else ","
    lines = [(n, row) for n, row in enumerate(csv.reader(io.StringIO(text), delimiter=delimiter),
                                              1)
             if any(c.strip() for c in row) and not row[0].lstrip().startswith("#")]
    if not lines:
        raise InputError(f"{source}: empty; expected a header line (unit, then the targets) "
                         "and a line per unit")
    (hn, header), body = lines[0], lines[1:]
    columns = [c.strip() for c in header[1:]]
    if len(columns) > MAX_COLUMNS or len(body) > MAX_ROWS:
        raise InputError(f"{source}: more than {MAX_ROWS} units or {MAX_COLUMNS} targets")
    for k, c in enumerate(columns):
        if not c:
            raise InputError(f"{source}:{hn}: column {k + 2} of the header has no target name")
        if name_key(c) in {name_key(x) for x in columns[:k]}:
            raise InputError(f"{source}:{hn}: target {c!r} is a column twice")
    out = []
    for n, row in body:
        unit = row[0].strip()
        if not unit:
            raise InputError(f"{source}:{n}: a line without a unit name in its first column")
        cells = [c.strip() for c in row[1:]]
        if len(cells) > len(columns) and any(cells[len(columns):]):
            raise InputError(f"{source}:{n}: unit {unit!r}: {len(cells)} cells for "
                             f"{len(columns)} targets")
        targets = []
        for col, cell in zip(columns, cells, strict=False):
            key = cell.lower()
            if key not in CELLS:
                raise InputError(f"{source}:{n}: unit {unit!r}, target {col!r}: {cell!r}: "
                                 "expected x, half or empty")
            if CELLS[key] is not None:
                targets.append((col, bool(CELLS[key])))
        out.append(ReachRow(unit, tuple(targets), f"{source}:{n}"))
    return out


def _find(name: str, labels: Sequence[str], what: str, where: str) -> int:
    """The index of the unit or target ``name``: its label (any case), else the one attached
    unit that has a part of that name (``Captain + Intercessor Squad`` by ``Intercessor
    Squad``)."""
    key = name_key(name)
    exact = [i for i, lb in enumerate(labels) if name_key(lb) == key]
    if exact:
        return exact[0]
    part = [i for i, lb in enumerate(labels)
            if key in {name_key(x) for x in lb.split(" + ")}]
    if len(part) == 1:
        return part[0]
    if len(part) > 1:
        raise InputError(f"{where}: {what} {name!r} is a part of several: "
                         f"{', '.join(labels[i] for i in part)}; give one of them")
    close = difflib.get_close_matches(name, labels, 3, 0.5)
    raise InputError(f"{where}: no {what} {name!r} in the plan"
                     + (f" (closest: {', '.join(close)})" if close else
                        f" ({what}s: {', '.join(labels[:12])}"
                        + (", ..." if len(labels) > 12 else "") + ")"))


def resolve_reach(rows: Iterable[ReachRow], units: Sequence[str], targets: Sequence[str]
                  ) -> Reach:
    """The reach of a plan's ``units`` against its ``targets`` (their labels) from the rows
    given: each unit named once; a unit not named can shoot every target."""
    named: dict[int, ReachRow] = {}
    every = tuple(range(len(targets)))
    cand: list[tuple[int, ...]] = [every] * len(units)
    half: set[tuple[int, int]] = set()
    for row in rows:
        i = _find(row.unit, units, "unit", row.where)
        if i in named:
            raise InputError(f"{row.where}: the reach of {units[i]} is given twice (also "
                             f"{named[i].where})")
        named[i] = row
        mine: dict[int, bool] = {}
        for name, near in row.targets:
            for t in every if name.strip() == EVERY else (_find(name, targets, "target",
                                                                row.where),):
                mine[t] = mine.get(t, False) or near
        cand[i] = tuple(sorted(mine))
        half.update((i, t) for t, near in mine.items() if near)
    notes = []
    if named:
        rest = [u for i, u in enumerate(units) if i not in named]
        if rest:
            notes.append(f"reach: {_names(rest)} {'is' if len(rest) == 1 else 'are'} not in "
                         "the reach given: can shoot every target")
        alone = [u for u, c in zip(units, cand, strict=True) if not c]
        if alone:
            notes.append(f"reach: {_names(alone)} can shoot no target: left out of the plan")
        seen = {t for c in cand for t in c}
        missed = [t for k, t in enumerate(targets) if k not in seen]
        if missed:
            notes.append(f"reach: no unit can shoot {_names(missed)}: left out of the plan")
    return Reach(tuple(cand), frozenset(half), tuple(notes))


def _names(items: Sequence[str], most: int = 6) -> str:
    shown = ", ".join(items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


__all__ = ["Reach", "ReachRow", "parse_reach", "reach_rows", "read_reach_file",
           "resolve_reach"]
