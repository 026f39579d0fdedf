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
>>> from .entries import Constraint, Modifier
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
from collections.abc import Callable, Sequence

import attrs

from .entries import Constraint, Entry
from .makeup import unconditional
from .sizes import Member
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
            when_true = apply_number(value, unconditional(m), ctx)
            value = max(value, when_true)
    return int(value)


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


def model_cap(e: Entry, ctx: Context, model_id: str) -> int | None:
    """The most of ``e`` one model may take however many of its option groups offer it: its
    maxima in scope ``model`` (or the model entry's own id); None when it sets none.

    >>> from fractions import Fraction
    >>> from .entries import Constraint
    >>> model_cap(Entry("entry", "v", "Heavy venom cannon", constraints=(
    ...     Constraint("max", "selections", "model", Fraction(1)),)), Context(), "t")
    1
    """
    caps = [constraint_value(c, e, ctx) for c in e.constraints
            if c.type == "max" and c.field == "selections" and c.scope in ("model", model_id)]
    caps = [c for c in caps if c >= 0]
    return min(caps) if caps else None


def most_of(each: dict[int, int], entries: Sequence[int], models: int) -> int:
    """The most of one weapon ``models`` models may carry, ``each[k]`` being the most one
    model of entry ``k`` carries and ``entries[k]`` the most models that entry may have: the
    models go to the entries whose models carry the most (an upper bound: the entries' least
    numbers are not reserved).

    >>> most_of({0: 2, 1: 1}, [1, 9, 1], 10)  # a Superior's 2, then nine others' 1
    11
    """
    total, free = 0, models
    for k in sorted(each, key=lambda k: -each[k]):
        take = min(entries[k], free)
        total += take * each[k]
        free -= take
    return total


def combined_most(paths: Sequence[tuple[Sequence[Entry], Context, int]], depth: int = 0) -> int:
    """The most of one weapon one model carries when the options offer it by several paths
    (each: the entries from below the model down to the weapon, its context and the most it
    gives, :func:`per_model`): where two paths part under a group with a maximum they are
    choices of that group (the larger counts), elsewhere each adds its own (a Leman Russ's hull
    heavy bolter and its sponsons' two: 3).

    >>> from fractions import Fraction
    >>> from .entries import Constraint
    >>> one = (Constraint("max", "selections", "parent", Fraction(1)),)
    >>> opts = Entry("group", "o", "Wargear Options")
    >>> hull = Entry("group", "h", "Hull", constraints=one)
    >>> sponsons = Entry("group", "s", "Sponsons", constraints=one)
    >>> pair, bolter = Entry("entry", "p", "2 Heavy Bolters"), Entry("entry", "b", "Heavy bolter")
    >>> combined_most([((opts, hull, bolter), Context(), 1),
    ...                ((opts, sponsons, pair, bolter), Context(), 2)])
    3
    >>> combined_most([((hull, bolter), Context(), 1), ((hull, pair, bolter), Context(), 2)])
    2
    """
    if len(paths) == 1:
        return paths[0][2]
    ends = [p for p in paths if len(p[0]) <= depth]
    if ends:  # a path that ends here: no finer parting to read
        return max(p[2] for p in paths)
    parts: dict[str, list] = {}
    for p in paths:
        parts.setdefault(p[0][depth].id, []).append(p)
    if len(parts) == 1:
        return combined_most(paths, depth + 1)
    here = [combined_most(ps, depth + 1) for ps in parts.values()]
    node = paths[0][0][depth - 1] if depth else None
    choice = node is not None and node.kind == "group" \
        and limits_at(node, paths[0][1])[1] is not None
    return max(here) if choice else sum(here)


@attrs.frozen
class Carry:
    """A weapon profile found on an entry: its table (the units/ schema), whether it is
    standard wargear, the entry holding it (in its context) and the entries from below the
    model (or the unit) down to it."""

    table: dict
    standard: bool
    entry: Entry
    ctx: Context
    path: tuple[Entry, ...]


def loadout_by_size(unit: Entry, g: list[Member], count: tuple[int, int],
                    found: list[tuple[Member, list[Carry]]],
                    split_at: Callable[[int], tuple[list[tuple[Member, int]],
                                                    list[tuple[Member, int]]]],
                    unit_level: list[Carry]) -> list[dict]:
    """The weapon tables of model group ``g`` (``count``: its smallest and largest size; the
    weapons ``found`` on each of its model entries; ``split_at(n)``: how ``n`` models of the
    group fill its entries and how many models the unit's other entries have then; the
    unit's own weapons): each with ``count`` (how many of its models carry it by default,
    when not all: a number at the smallest size that scales with the group, or one per size),
    ``optional`` when none do, and ``max`` when the options allow other than one per model
    (one number, or one per size); a default never exceeds the maximum."""
    lo, hi = count
    tables: dict[tuple, dict] = {}
    carried: dict[tuple, list[int]] = {}
    most: dict[tuple, list[int]] = {}
    slots = _Slots(hi - lo + 1)

    def row(rows: dict[tuple, list[int]], key: tuple) -> list[int]:
        return rows.setdefault(key, [0] * (hi - lo + 1))

    for n in range(lo, hi + 1):
        split, others = split_at(n)
        every = split + others
        models = tuple((m.ctx.ancestry, k) for m, k in every)
        unit_n = sum(k for _m, k in every)
        caps: dict[tuple, int] = {}
        per_hi: dict[tuple, int] = {}
        given = {id(m): k for m, k in split}
        entries: list[int] = []  # each model entry's most models
        each: dict[tuple, dict[int, int]] = {}  # a weapon: its most on one model of an entry
        for k, (m, items) in enumerate(found):
            if m.entry is unit:
                m_hi = 1
            else:
                mctx = attrs.evolve(m.ctx, models=models)
                m_caps = [limits_at(m.entry, mctx)[1], unit_cap(m.entry, mctx, unit_n)]
                m_hi = min([n] + [c for c in m_caps if c is not None])
            entries.append(m_hi)
            offers: dict[tuple, list[tuple[tuple[Entry, ...], Context, int]]] = {}
            for item in items:
                key = _keep(tables, item.table)
                ctx = attrs.evolve(item.ctx, models=models)
                one, top = per_model(item.path, ctx)
                row(carried, key)[n - lo] += given[id(m)] * one if item.standard else 0
                row(most, key)[n - lo] += m_hi * top
                per_hi[key] = max(per_hi.get(key, 0), top)
                offers.setdefault(key, []).append((item.path, ctx, top))
                slots.add(key, m.entry, m_hi, item.path, ctx, unit_n, n - lo)
                cap = unit_cap(item.entry, ctx, unit_n)
                if cap is not None:
                    caps[key] = min(caps.get(key, cap), cap)
            for key, paths in offers.items():  # one model's most: its paths combined, no
                # more than a maximum the weapon's entry sets on the whole model (a Hive
                # Tyrant's heavy venom cannon, offered for either arm: 1)
                whole = [model_cap(pp[-1], c, m.entry.id) for pp, c, _t in paths]
                most_here = combined_most(paths)
                if len(paths) > 1 and any(w is not None for w in whole):
                    most_here = min([most_here] + [w for w in whole if w is not None])
                each.setdefault(key, {})[k] = most_here
        # a model offered one weapon in two option groups (a Leman Russ's hull heavy bolter
        # and its sponsons' two) carries both: at most as many as the models, given to the
        # entries whose models carry the most, may take (never less than one model's most
        # per model)
        spread = {key: most_of(on, entries, n) for key, on in each.items()}
        for item in unit_level:  # the unit's own wargear: every model's unless limited
            key = _keep(tables, item.table)
            ctx = attrs.evolve(item.ctx, models=models)
            _one, top = per_model(item.path, ctx)
            limited = any(limits_at(x, ctx)[1] is not None for x in item.path)
            every_model = n if item.standard else 0
            row(carried, key)[n - lo] = max(row(carried, key)[n - lo], every_model)
            row(most, key)[n - lo] = max(row(most, key)[n - lo], top if limited else n,
                                         every_model)
            per_hi[key] = max(per_hi.get(key, 0), top if limited else 1)
            slots.add(key, unit, 1, item.path, ctx, unit_n, n - lo)
        for key, values in most.items():
            values[n - lo] = min(values[n - lo], max(n * per_hi.get(key, 1), spread.get(key, 0)),
                                 caps.get(key, values[n - lo]))
    sizes = list(range(lo, hi + 1))
    out = []
    for key, table in tables.items():
        t = dict(table)
        tops = [max(0, m) for m in most[key]]
        have = [min(c, m) for c, m in zip(carried[key], tops, strict=True)]
        if not any(have):
            t["optional"] = True
        elif have != sizes:
            scaled = [min(max(1, have[0] * n // lo), m) if lo else -1
                      for n, m in zip(sizes, tops, strict=True)]
            t["count"] = have[0] if have == scaled and have[0] else have
        if tops != sizes:
            t["max"] = tops[0] if len(set(tops)) == 1 else tops
        out.append(t)
    for name, slot_cap, keys in slots.shared(tables, most):
        for key, t in zip(tables, out, strict=True):
            if key in keys and "slot" not in t:  # in two slots: the outer one
                t["slot"] = name
                t["slot_max"] = slot_cap[0] if len(set(slot_cap)) == 1 else slot_cap
    return out


class _Slots:
    """The selection groups that hold weapons (a shared slot: the Devastators' heavy weapon,
    one of six per model, four models at most), collected over the sizes of a model group.

    A group with a maximum caps the selections of its entries: at each size, the models that
    may take it times the group's maximum (times the maxima of the levels above it in the
    model, and no more than its caps on the whole unit), in weapons when each choice gives
    the same number of its weapon (a Predator's sponsons: "2 Lascannons" or "2 Heavy Bolters",
    one choice: 2 weapons). A weapon belongs to the slot only when every entry it comes from
    is under one of the group's choices that gives that one weapon: a weapon the unit may also
    take elsewhere (a sergeant's bolt pistol, an option offered in two groups) or in a package
    of several (a Captain's "Bolt pistol, master-crafted bolter, melee weapon") is left out of
    the slot, so the slot's maximum bounds only what it alone gives."""

    def __init__(self, sizes: int):
        self.sizes = sizes
        self.cap: dict[str, list[int]] = {}
        self.name: dict[str, str] = {}
        self.seen: set[tuple] = set()
        self.unit_cap: dict[str, list[int | None]] = {}
        self.member: dict[tuple, set[str]] = {}
        self.via: dict[tuple, set[tuple[str, int]]] = {}  # (weapon, group): (choice, each)
        self.gives: dict[str, set[tuple]] = {}  # a choice of a group: the weapons under it

    def add(self, key: tuple, model: Entry, models: int, path: Sequence[Entry], ctx: Context,
            unit_n: int, i: int) -> None:
        found: set[str] = set()
        above = 1
        for k, e in enumerate(path):
            most = limits_at(e, ctx)[1]
            if e.kind == "group" and most is not None and k < len(path) - 1:
                found.add(e.id)
                self.name.setdefault(e.id, e.name)
                each = 1  # how many of the weapon one choice of the group gives
                for x in path[k + 2:]:
                    each *= limits_at(x, ctx)[1] or 1
                self.via.setdefault((key, e.id), set()).add((path[k + 1].id, each))
                self.gives.setdefault(path[k + 1].id, set()).add(key)
                where = (e.id, id(model), tuple(x.id for x in path[:k + 1]), i)
                if where not in self.seen:
                    self.seen.add(where)
                    self.cap.setdefault(e.id, [0] * self.sizes)[i] += models * above * most
                    whole = unit_cap(e, ctx, unit_n)
                    caps = self.unit_cap.setdefault(e.id, [None] * self.sizes)
                    if whole is not None:
                        now = caps[i]
                        caps[i] = whole if now is None else min(now, whole)
            above *= most if most is not None else 1
        self.member[key] = self.member.get(key, found) & found

    def shared(self, tables: dict[tuple, dict], most: dict[tuple, list[int]]
               ) -> list[tuple[str, list[int], set[tuple]]]:
        """Each slot that binds (at some size its maximum is below the sum of its weapons'
        own): its name (the group's, numbered when two share one), its maximum at each size
        and the keys of its weapons (two weapons at least; the profiles of one count once)."""
        out = []
        names: dict[str, int] = {}

        def weapon(k: tuple) -> str:
            return str(tables[k].get("profile_of") or tables[k]["name"]).casefold()

        for gid, cap in self.cap.items():
            keys = {k for k, ids in self.member.items() if gid in ids
                    and all(len({weapon(w) for w in self.gives[c]}) == 1
                            for c, _each in self.via[(k, gid)])}
            each = {n for k in keys for _c, n in self.via[(k, gid)]}
            if len(each) != 1:
                continue  # choices giving 1 and 2 of a weapon: no one maximum of weapons
            per_choice = each.pop()
            cap = [c * per_choice for c in cap]
            weapons: dict[str, list[int]] = {}
            for k in keys:
                w = weapon(k)
                weapons[w] = [max(a, b) for a, b in zip(weapons.get(w, [0] * self.sizes),
                                                        most[k], strict=True)]
            if len(weapons) < 2:
                continue
            cap = [c if u is None else min(c, u)
                   for c, u in zip(cap, self.unit_cap[gid], strict=True)]
            total = [sum(col) for col in zip(*weapons.values(), strict=True)]
            if all(c >= t for c, t in zip(cap, total, strict=True)):
                continue
            name = self.name[gid]
            names[name] = names.get(name, 0) + 1
            out.append((name if names[name] == 1 else f"{name} ({names[name]})", cap, keys))
        return out


def _keep(tables: dict[tuple, dict], table: dict) -> tuple:
    """The key of a weapon table (the same weapon from several entries is one)."""
    key = tuple((k, str(v)) for k, v in table.items())
    tables.setdefault(key, table)
    return key


__all__ = ["Carry", "constraint_value", "loadout_by_size", "limits_at", "per_model", "unit_cap"]
