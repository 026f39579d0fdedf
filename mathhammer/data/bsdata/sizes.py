"""How many models a unit has and what it costs: each model entry's limits, what is selected by
default, a model group's smallest and largest count, and the points for every size.

Points: the unit's cost with the modifiers that depend on its model count, for every size from
the smallest to the largest; the file lists the largest size of each price band
(``5 -> 70, 10 -> 150``), as datasheets print them.

>>> from .entries import Constraint
>>> limits(Entry("entry", "e1", "Necron Warrior", type="model", constraints=(
...     Constraint("min", "selections", "parent", Fraction(10)),
...     Constraint("max", "selections", "parent", Fraction(20)))))
(10, 20)
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import attrs

from .entries import Entry, Profile
from .walk import Context, apply_number


@attrs.frozen
class Member:
    """One model entry of the unit."""

    entry: Entry
    ctx: Context
    parent: Entry
    statline: Profile
    invuln: str | None
    min: int
    max: int | None
    #: the selection groups around its parent, outermost first (a group of groups)
    above: tuple[Entry, ...] = ()
    #: the entries from the unit's down to its parent (groups, and entries holding models: a
    #: "Unit Composition" choice of "1 Runtherd and 10 Gretchin"); () for the unit itself
    path: tuple[Entry, ...] = ()


def limits(e: Entry) -> tuple[int, int | None]:
    """How many of ``e`` its parent may hold (min, max; max None if the data sets none)."""
    lo, hi = 0, None
    for c in e.constraints:
        if c.field != "selections" or c.scope != "parent":
            continue
        if c.type == "min":
            lo = max(lo, int(c.value))
        elif c.type == "max" and c.value >= 0:  # -1: no limit
            hi = int(c.value) if hi is None else min(hi, int(c.value))
    return lo, hi


def has_default(group: Entry) -> bool:
    """Whether a selection group names a default that is one of its options (the data
    sometimes names one that is not there any more)."""
    return bool(group.default_id) and any(
        group.default_id in (c.id, c.target_id) for c in group.children)


def takes_first(e: Entry, parent: Entry) -> bool:
    """Whether ``e`` is selected by default only as the first option of a group that must
    take one and names no default of its own (a choice the import makes, and says)."""
    if parent.kind != "group" or e.kind == "group" or limits(e)[0] >= 1:
        return False
    if has_default(parent) or limits(parent)[0] < 1:
        return False
    first = next(iter(parent.children), None)
    return first is not None and first.id in (e.id, e.link_id)


def is_standard(e: Entry, parent: Entry) -> bool:
    """Is ``e`` selected by default under ``parent``?"""
    if e.kind == "group":
        return limits(e)[1] != 0
    lo, _hi = limits(e)
    if lo >= 1:
        return True
    if parent.kind == "group":
        if has_default(parent):
            return parent.default_id in (e.id, e.link_id)
        return takes_first(e, parent)
    return False


def group_count(
    g: list[Member], unit: Entry, warn: Callable[[str], None]
) -> tuple[int, int]:
    """The group's smallest and largest count: its entries' own limits, clamped by each
    selection group around them and by the outermost group around groups (the Kasrkin's 9
    troopers: 2-9 plain ones and a group of special-weapon troopers, 9 in all)."""
    parents: dict[int, list[Member]] = {}
    for m in g:
        parents.setdefault(id(m.parent), []).append(m)
    ids = {i for m in g for i in (m.entry.id, m.entry.link_id) if i}
    outers: dict[int, list] = {}  # the outermost selection group around a parent -> buckets
    for ms in parents.values():
        p_lo = sum(m.min for m in ms)
        his = [m.max for m in ms]
        p_hi = None if None in his else sum(h for h in his if h is not None)
        parent = ms[0].parent
        if parent.kind == "group" and parent is not unit:
            g_lo, g_hi = limits(parent)
            if _only(parent, ids):
                p_lo = max(p_lo, g_lo)
            if g_hi is not None:
                p_hi = g_hi if p_hi is None else min(p_hi, g_hi)
        ring = [a for a in ms[0].above if a.kind == "group" and a is not unit]
        outer = ring[0] if ring else parent
        outers.setdefault(id(outer), [outer]).append((p_lo, p_hi, ms[0]))
    lo, hi = 0, 0
    for outer, *buckets in outers.values():
        p_lo = sum(b[0] for b in buckets)
        p_hi = None if any(b[1] is None for b in buckets) else sum(b[1] for b in buckets)
        if len(buckets) > 1 or buckets[0][2].parent is not outer:  # groups in a group
            g_lo, g_hi = limits(outer)
            if _only(outer, ids):
                p_lo = max(p_lo, g_lo)
            if g_hi is not None:
                p_hi = g_hi if p_hi is None else min(p_hi, g_hi)
        if p_hi is None:
            p_hi = max(p_lo, 1)
            warn(f"{buckets[0][2].entry.name}: no maximum model count in the data; "
                 f"using {p_hi}")
        lo, hi = lo + p_lo, hi + p_hi
    if lo < 1:
        warn(f"{g[0].entry.name}: optional models (0-{hi}); counted from 1")
        lo = 1
    return lo, max(lo, hi)


def _only(group: Entry, ids: set[str]) -> bool:
    """Whether every entry in a selection group (and the groups in it) is one of ``ids``:
    then the group's minimum is the model group's own."""
    for c in group.children:
        if c.kind == "group":
            if not _only(c, ids):
                return False
        elif c.id not in ids:
            return False
    return True


def points_by_size(
    unit: Entry, unit_ctx: Context, groups: list[list[Member]],
    counts: list[tuple[int, int]], warn: Callable[[str], None],
    made: dict[int, list[tuple[Member, int]]] | None = None,
) -> list[dict]:
    """The points of the unit (``unit`` in ``unit_ctx``) as the file lists them: the largest size
    of each price band; ``made``: the unit's model entries at each of its sizes (else every
    size from the smallest to the largest, as :func:`split_models` fills them)."""
    pts_type = next(
        (c.type_id for c in unit.costs if c.name.strip().lower() == "pts"), None
    )
    if pts_type is None:
        members = [m for g in groups for m in g]
        pts_type = next(
            (c.type_id for m in members for c in m.entry.costs
             if c.name.strip().lower() == "pts"),
            None,
        )
    if pts_type is None:
        warn("no points in the data")
        return []
    members = [m for g in groups for m in g]
    lo = sum(c[0] for c in counts)
    hi = sum(c[1] for c in counts)
    by_size = []
    if made is None:
        made = {n: split_models(n, members, groups, counts) for n in range(lo, hi + 1)}
    for n, split in made.items():
        ctx = attrs.evolve(unit_ctx, models=tuple((m.ctx.ancestry, k) for m, k in split))
        total = _cost(unit, pts_type, ctx)
        for m, k in split:
            if m.entry is not unit:
                total += _cost(m.entry, pts_type, ctx) * k
        by_size.append((n, total))
    out = []
    for i, (n, cost) in enumerate(by_size):
        if i + 1 == len(by_size) or by_size[i + 1][1] != cost:
            if cost.denominator != 1:
                warn(f"points {cost} for {n} models rounded down")
            out.append({"models": n, "cost": int(cost)})
    return out


def default_member(g: list[Member]) -> Member:
    """The group's default model entry: its selection group's default choice, else the entry
    with the largest minimum."""
    for m in g:
        default = m.parent.default_id if m.parent.kind == "group" else ""
        if default and default in (m.entry.id, m.entry.link_id):
            return m
    return max(g, key=lambda m: (m.min, m.max or 0))


def _cost(e: Entry, type_id: str, ctx: Context) -> Fraction:
    value = next((c.value for c in e.costs if c.type_id == type_id), Fraction(0))
    for m in e.modifiers:
        if m.field == type_id:
            value = apply_number(value, m, ctx)
    return value


def split_models(n: int, members: list[Member], groups: list[list[Member]],
           counts: list[tuple[int, int]]) -> list[tuple[Member, int]]:
    """How ``n`` models spread over the model entries: every group at its minimum, the rest
    added to the largest group first; inside a group, each entry at its minimum, the rest to
    its default entry up to that entry's maximum, then to the others up to theirs."""
    sizes = [lo for lo, _hi in counts]
    extra = n - sum(sizes)
    for i in sorted(range(len(groups)), key=lambda i: -counts[i][1]):
        add = min(extra, counts[i][1] - sizes[i])
        sizes[i] += add
        extra -= add
    out = []
    for g, size in zip(groups, sizes, strict=True):
        out += split_group(g, size)
    return out


def split_group(g: list[Member], size: int) -> list[tuple[Member, int]]:
    """How ``size`` models of one model group spread over its entries: each entry at its
    minimum, the rest to its default entry up to that entry's maximum, then to the others up
    to theirs, the entry that may have the most models first (the rest of the squad, not a
    special weapon's one model); past every maximum: to the default entry."""
    default = default_member(g)
    others = [m for m in g if m is not default]
    order = [default] + sorted(others, key=lambda m: -(m.max if m.max is not None else 10**9))
    given = {id(m): 0 for m in g}
    rest = size
    for m in order[1:] + order[:1]:  # every entry's minimum, the default's last
        k = min(m.min, rest)
        given[id(m)] += k
        rest -= k
    for m in order:  # the rest: the default first, each up to its maximum
        room = rest if m.max is None else max(0, min(rest, m.max - given[id(m)]))
        given[id(m)] += room
        rest -= room
    given[id(default)] += rest
    return [(m, given[id(m)]) for m in g]
