"""The wargear options of a datasheet as the data limits them: how many of a weapon one model
carries by default and at most, and the caps the data puts on the whole unit, both editions.

BattleScribe writes a datasheet's options as constraints (a model entry's ``max 4``: four
Devastators may have a heavy weapon; a weapon's ``min 1``/``max 1`` per model; a weapon's
``max 2`` in scope ``unit``), modifiers on those constraints (``increment`` by 1 per 5 models
with a ``repeat``, ``set`` when the unit has at least 10 models) and error messages
(``Max 1 {this} per 5 models``, ``Cannot take {this} with less than 10 models in unit``). Here
they are read for a given unit size (the context's model counts); what the size cannot decide
(a modifier conditioned on another choice) is read as allowing the most, so that a count over
the maximum is one the data never allows. The data has no ``percentValue`` constraint (none
in either edition), so none is read.

>>> from fractions import Fraction
>>> from .model import Constraint
>>> lascannon = Entry("entry", "e1", "Lascannon", constraints=(
...     Constraint("min", "selections", "parent", Fraction(2)),
...     Constraint("max", "selections", "parent", Fraction(2))))
>>> per_model([lascannon], Context())
(2, 2)
>>> limits_at(Entry("entry", "e3", "Accursed weapon", constraints=(
...     Constraint("max", "selections", "parent", Fraction(1), "c1"),), modifiers=(
...     Modifier("set", "c1", "-1"),)), Context())  # set to -1: no limit
(0, None)
>>> unit_cap(Entry("entry", "e2", "Grenade launcher", modifiers=(
...     Modifier("add", "error", "Max 1 {this} per 5 models"),)), Context(), 10)
2
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .model import Constraint, Entry, Modifier
from .walk import Context, apply_number, decide

#: "Max 1 {this} per 5 models", "Max 2 X per 5 models", "Max 1 X per 10 models."
_PER = re.compile(r"\bmax\.?\s+(\d+)\b.*?\bper\s+(\d+)\s+models?\b", re.I)
#: "Cannot take {this} with less than 10 models in unit"
_BELOW = re.compile(r"\bcannot take\b.*?\bwith (?:less|fewer) than\s+(\d+)\s+models?\b", re.I)


def constraint_value(c: Constraint, owner: Entry, ctx: Context) -> int:
    """A constraint's value after the owner's modifiers on it: those that hold at this size,
    and those the size cannot decide when they raise it (the data allows the most)."""
    value = c.value
    for m in owner.modifiers:
        if m.field != c.id or not c.id:
            continue
        held = decide(m.when, ctx)
        if held is True:
            value = apply_number(value, m, ctx)
        elif held is None and m.type in ("increment", "set"):
            when_true = apply_number(value, _always(m), ctx)
            value = max(value, when_true)
    return int(value)


def _always(m: Modifier) -> Modifier:
    return Modifier(m.type, m.field, m.value, None, m.repeats, m.join, m.affects)


def limits_at(e: Entry, ctx: Context) -> tuple[int, int | None]:
    """How many of ``e`` its parent holds at least and at most in this context (max None: the
    data sets none, or sets -1, BattleScribe's "no limit")."""
    lo, hi = 0, None
    for c in e.constraints:
        if c.field != "selections" or c.scope != "parent":
            continue
        v = constraint_value(c, e, ctx)
        if c.type == "min":
            lo = max(lo, v)
        elif c.type == "max" and v >= 0:  # a maximum of -1 is no limit
            hi = v if hi is None else min(hi, v)
    return lo, hi


def per_model(path: Sequence[Entry], ctx: Context) -> tuple[int, int]:
    """How many of the last entry of ``path`` one model carries when it is taken, and at most,
    ``path`` being the entries from just below the model down to it: the product of each
    entry's minimum (at least 1: it is taken) and of each level's maximum (a level without one
    counts once)."""
    lo = hi = 1
    for e in path:
        a, b = limits_at(e, ctx)
        lo *= max(a, 1) if e.kind != "group" else 1
        hi *= b if b is not None else 1
    return lo, hi


def unit_cap(e: Entry, ctx: Context, models: int) -> int | None:
    """The most of ``e`` the whole unit of ``models`` models may take: its constraints in scope
    ``unit`` (or the unit's own id) and the error messages that cap it per N models; None
    when the data sets no such cap."""
    caps: list[int] = []
    for c in e.constraints:
        if c.type == "max" and c.field == "selections" and c.scope in ("unit", ctx.unit_id):
            v = constraint_value(c, e, ctx)
            if v >= 0:  # -1: no limit
                caps.append(v)
    for m in e.modifiers:
        if m.field != "error" or m.type not in ("add", "set", "append"):
            continue
        if per := _PER.search(m.value):
            caps.append(int(per.group(1)) * (models // int(per.group(2))))
        elif (below := _BELOW.search(m.value)) and models < int(below.group(1)):
            caps.append(0)
    return min(caps) if caps else None


__all__ = ["constraint_value", "limits_at", "per_model", "unit_cap"]
