"""A unit's make-ups: how many models each of its model groups may have together, as the
data's constraints allow (:func:`compositions`), and the one nearest the data's defaults for
each size; the builder (:mod:`.build`) reads a datasheet's sizes, points and weapons by size
from them.

BattleScribe writes a unit's models as a tree: model entries with their own limits, in
selection groups with limits on the selections below them (``4-5 Custodian Guard``: a spear,
or a blade and a shield, for each), and entries holding models (a "Unit Composition" choice of
``1 Runtherd and 10 Gretchin`` or ``2 Runtherds and 20 Gretchin``). Limits may depend on other
choices of the unit (``9 Recon Troopers``, 8 when the unit takes a weapons team): those are
checked once every choice is made. Model entries with one statline are one model group
(:mod:`.build`), so a group's count is not its own: the spear and the shield Custodians share
the unit's 4-5.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

import attrs

from .entries import Constraint, Entry, Modifier
from .sizes import Member, has_default, split_group, takes_first
from .walk import Context, apply_number, decide


@attrs.frozen
class Composition:
    """One make-up of a unit that the data allows: how many models each model group has
    (``groups``) and each model entry (``members``, in the order of the entries); ``odd``
    counts the models in entries the data does not select by default (0: the datasheet's own
    models, as a roster builder adds them).

    >>> Composition((4, 0), (4, 0), 0).size
    4
    """

    groups: tuple[int, ...]
    members: tuple[int, ...]
    odd: int

    @property
    def size(self) -> int:
        return sum(self.groups)


#: the most partial make-ups kept while one datasheet's are counted (a guard: the largest in
#: both editions' data is far below it); over it, :func:`compositions` gives none
MAX_STATES = 50_000

#: more models than any datasheet has: how far a limit that grows with the unit's size may go
#: before the size is known
_MOST_MODELS = 60

#: the scopes a model count is constrained in that are not the unit's own
_OUTSIDE = ("roster", "force", "primary-catalogue")

#: a partial make-up: (selections counted for the parent's constraint, models per group, the
#: counts the data's conditions look at, the selections of each node whose limits depend on
#: other choices) -> models per model entry
_Options = dict[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], tuple[int, ...]]


class _Counts:
    """What a condition on the unit's own choices counts, in one make-up: its models (in
    all) and each watched entry's selections; the rest as the unit's context decides."""

    def __init__(self, ctx: Context, total: int, watched: dict[str, int]):
        self.ctx, self.total, self.watched = ctx, total, watched

    def count(self, c: Any) -> int | None:
        n = self.ctx.count(c)
        if n is not None or c.field != "selections" or c.scope in _OUTSIDE:
            return n
        if c.type in ("instanceOf", "notInstanceOf"):
            return None
        if c.child_id in ("model", "any", ""):
            return self.total
        return self.watched.get(c.child_id)


def _conditions(when: Any) -> list[Any]:
    if when is None:
        return []
    return [*when.conditions, *(c for g in when.groups for c in _conditions(g))]


def _bounds(e: Entry, ctx: Context, scopes: set[str]
            ) -> tuple[int, int | None, list[Constraint], int]:
    """The least and most selections of ``e`` in its parent (also a constraint scoped to one
    of ``scopes``, the ids around it) as far as the unit's context decides their modifiers,
    each as low (high) as a modifier that depends on the unit's own choices may make it; the
    constraints that have such modifiers (checked once the choices are made); and the least
    as written (before those modifiers: whether the data selects it by default)."""
    lo, hi, later, written = 0, None, [], 0
    for c in e.constraints:
        if c.field != "selections" or not (c.scope == "parent" or c.scope in scopes):
            continue
        value, low, high, open_ = c.value, c.value, c.value, False
        for m in e.modifiers:
            if m.field != c.id or not c.id:
                continue
            held = decide(m.when, ctx)
            if held is True and not m.repeats:
                value = low = high = apply_number(value, m, ctx)
            elif held is not False:
                open_ = True
                alt = apply_number(value, unconditional(m), ctx)
                if m.repeats and m.type == "decrement":
                    alt = Fraction(0)  # as many times as the unit's choices say
                elif m.repeats and m.type == "increment":
                    alt = value + Fraction(m.value) * _MOST_MODELS
                low, high = min(low, alt, value), max(high, alt, value)
        if open_:
            later.append(c)
        if c.type == "min":
            lo, written = max(lo, int(low)), max(written, int(value))
        elif c.type == "max" and high >= 0:
            hi = int(high) if hi is None else min(hi, int(high))
    return lo, hi, later, written


def unconditional(m: Modifier) -> Modifier:
    """The modifier as if its conditions held."""
    return Modifier(m.type, m.field, m.value, None, m.repeats, m.join, m.affects)


def _holds(e: Entry, later: list[Constraint], n: int, counts: _Counts) -> bool:
    """Whether ``n`` selections of ``e`` meet its constraints whose modifiers depend on the
    unit's own choices, with those choices' ``counts``."""
    for c in later:
        value = c.value
        for m in e.modifiers:
            if m.field == c.id:
                value = apply_number(value, m, counts)
        if c.type == "min" and n < value or c.type == "max" and 0 <= value < n:
            return False
    return True


def compositions(members: list[Member], group_of: list[int], unit: Entry,
                 ctx: Context | None = None, warn: Callable[[str], None] = lambda _t: None
                 ) -> list[Composition]:
    """Every make-up of the unit the data's constraints allow, one per count of models in
    each model group (``group_of``: each member's group): each model entry between its own
    limits, each selection group around entries between its limits (counting the selections
    below it: a group of groups counts its groups' models), an entry that holds models (one
    choice of a "Unit Composition" group: "1 Runtherd and 10 Gretchin") taken whole, and the
    limits that depend on other choices of the unit (9 troopers, 8 with a weapons team; 2
    Dishonoured in 20 Jakhals) checked with those choices. Of the make-ups with the same
    group counts, the one nearest the data's defaults: fewest models in entries not selected
    by default, then the most in the entries that may have the most (the rest of the squad
    before its sergeant). Ordered nearest the defaults first, then by size: the first is
    the datasheet's unit at its smallest size, the first of each size its unit of that size.
    Empty when the data gives none (a minimum no entry can meet) or too many to count.

    >>> from .entries import Constraint
    >>> def entry(name, lo, hi, kind="entry", default="", entries=()):
    ...     cs = tuple(Constraint(t, "selections", "parent", Fraction(v))
    ...                for t, v in (("min", lo), ("max", hi)) if v is not None)
    ...     return Entry(kind, name, name, type="model" if kind == "entry" else "",
    ...                  constraints=cs, default_id=default, entries=entries)
    >>> spear, shield = entry("spear", 0, None), entry("shield", 0, None)
    >>> pool = entry("4-5", 4, 5, "group", default="spear", entries=(spear, shield))
    >>> unit = Entry("entry", "u", "Custodian Guard", type="unit")
    >>> ms = [Member(e, Context(), pool, None, None, 0, None, (), (pool,)) for e in (spear, shield)]
    >>> made = compositions(ms, [0, 1], unit)
    >>> [(c.groups, c.odd) for c in made]  # doctest: +NORMALIZE_WHITESPACE
    [((4, 0), 0), ((5, 0), 0), ((3, 1), 1), ((4, 1), 1), ((2, 2), 2), ((3, 2), 2),
     ((1, 3), 3), ((2, 3), 3), ((0, 4), 4), ((1, 4), 4), ((0, 5), 5)]
    """
    ids = {id(m.entry) for m in members}
    if any(id(x) in ids for m in members for x in m.path):
        return []  # a model entry inside another: not a tree of entries around models
    tree = _Tree(members, group_of, unit, Context(unit_id=unit.id) if ctx is None else ctx,
                 warn)
    try:
        found = tree.together([tree.options(*c) for c in tree.kids[id(unit)]], None)
    except OverflowError:
        return []
    best: dict[tuple[int, ...], tuple[int, ...]] = {}
    for (_s, g, w, p), m in found.items():
        if sum(g) >= 1 and tree.holds(g, w, p) and (g not in best
                                                     or tree.rank(m) < tree.rank(best[g])):
            best[g] = m
    out = [Composition(g, m, tree.rank(m)[0]) for g, m in best.items()]
    return sorted(out, key=lambda c: (c.odd, c.size, tree.rank(c.members)))


def _vec(n: int, at: Iterable[int], value: int) -> tuple[int, ...]:
    at = set(at)
    return tuple(value if i in at else 0 for i in range(n))


def _add(a: tuple[int, ...], b: tuple[int, ...], times: int = 1) -> tuple[int, ...]:
    return tuple(x + times * y for x, y in zip(a, b, strict=True))


class _Tree:
    """The entries around a unit's model entries, with each one's limits, counted bottom up
    (:meth:`options`): every partial make-up of a subtree, the one nearest the defaults for
    each key (:data:`_Options`)."""

    def __init__(self, members: list[Member], group_of: list[int], unit: Entry, ctx: Context,
                 warn: Callable[[str], None]):
        self.members, self.group_of, self.unit, self.ctx = members, group_of, unit, ctx
        self.n_groups = max(group_of, default=-1) + 1
        self.kids: dict[int, list[tuple[str, Any]]] = {id(unit): []}
        self.nodes: dict[int, Entry] = {id(unit): unit}
        around: dict[int, tuple[Entry, ...]] = {}  # a node -> the entries around it
        for j, m in enumerate(members):
            up = id(unit)
            for k, x in enumerate(m.path):
                if id(x) not in self.kids:
                    self.kids[id(x)], self.nodes[id(x)] = [], x
                    self.kids[up].append(("node", x))
                    around[id(x)] = (unit, *m.path[:k])
                up = id(x)
            self.kids[up].append(("leaf", j))
        self.chains = [(unit, *m.path, m.entry) for m in members]
        self.nodes |= {id(m.entry): m.entry for m in members}
        self.bounds: dict[int, tuple[int, int | None, list[Constraint], int]] = {}
        for ch, m in zip(self.chains, members, strict=True):
            self.bounds[id(m.entry)] = (1, 1, [], 1) if m.entry is unit else \
                _bounds(m.entry, ctx, _scopes(ch[:-1]))
        for key, outer in around.items():
            self.bounds[key] = _bounds(self.nodes[key], ctx, _scopes(outer))
        # the entries whose limits wait for the unit's other choices, and what they count
        self.pending = [k for k, b in self.bounds.items() if b[2]]
        self.watched: list[str] = []
        for k in self.pending:
            x = self.nodes[k]
            for c in self.bounds[k][2]:
                for cond in (c2 for m in x.modifiers if m.field == c.id
                             for c2 in _conditions(m.when) + list(m.repeats)):
                    if cond.child_id not in ("", "model", "any", *self.watched):
                        self.watched.append(cond.child_id)
        self.around = {i for m in members for x in m.path for i in (x.id, x.link_id) if i}
        self.standard = [self.standard_of(j) for j in range(len(members))]
        self.highest = [self.most(m, warn) for m in members]
        self.order = sorted(range(len(members)),
                            key=lambda j: (not self.standard[j], -self.highest[j], j))
        self.zero = (0, (0,) * self.n_groups, (0,) * len(self.watched),
                     (0,) * len(self.pending))
        self.zero_m = (0,) * len(members)

    def standard_of(self, j: int) -> bool:
        """Whether the data selects model entry ``j`` by default: every entry on its way
        down is taken (a minimum, its group's default, one of a choice of the unit's sizes)."""
        ch = self.chains[j]
        if self.members[j].entry is self.unit:
            return True
        for p, c in zip(ch, ch[1:], strict=False):
            if c.kind == "group":
                ok = self.bounds[id(c)][1] != 0
            elif self.bounds[id(c)][3] >= 1:
                ok = True
            elif p.kind != "group":
                ok = False
            elif c.type != "model" and self.bounds[id(p)][0] >= 1:
                ok = True  # one of the unit's sizes ("10 models" or "20 models"), none odd
            else:
                ok = (p.default_id in (c.id, c.link_id)) if has_default(p) else takes_first(c, p)
            if not ok:
                return False
        return True

    def most(self, m: Member, warn: Callable[[str], None]) -> int:
        """The most models of entry ``m``: its own maximum, else the groups' around it up to
        an entry holding it."""
        lo, hi, _later, _written = self.bounds[id(m.entry)]
        inner = m.path[max((k + 1 for k, x in enumerate(m.path) if x.kind != "group"),
                           default=0):]
        caps = [b[1] for x in inner if (b := self.bounds[id(x)])[1] is not None]
        if hi is not None or caps:
            return min([h for h in (hi, *caps) if h is not None])
        warn(f"{m.entry.name}: no maximum model count in the data; using {max(lo, 1)}")
        return max(lo, 1)

    def rank(self, counts: tuple[int, ...]) -> tuple:
        """How far a make-up is from the data's defaults (smaller is nearer)."""
        return (sum(c for c, s in zip(counts, self.standard, strict=True) if not s),
                tuple(-counts[j] for j in self.order))

    def keep(self, out: _Options, key: tuple, counts: tuple[int, ...]) -> None:
        old = out.get(key)
        if old is None or self.rank(counts) < self.rank(old):
            out[key] = counts
        if len(out) > MAX_STATES:
            raise OverflowError

    def together(self, parts: list[_Options], cap: int | None) -> _Options:
        """The make-ups of several subtrees side by side, at most ``cap`` selections."""
        out: _Options = {self.zero: self.zero_m}
        for part in parts:
            nxt: _Options = {}
            for (s1, g1, w1, p1), m1 in out.items():
                for (s2, g2, w2, p2), m2 in part.items():
                    if cap is None or s1 + s2 <= cap:
                        self.keep(nxt, (s1 + s2, _add(g1, g2), _add(w1, w2), _add(p1, p2)),
                                  _add(m1, m2))
            out = nxt
        return out

    def marks(self, x: Entry, leaf: Member | None) -> list[int]:
        """The watched counts ``x``'s selections count in (a model entry's also for its
        categories)."""
        out = [i for i, w in enumerate(self.watched) if w in (x.id, x.link_id)]
        if leaf is not None:
            out += [i for i, w in enumerate(self.watched) if i not in out
                    and w not in self.around and w in leaf.ctx.ancestry]
        return out

    def own(self, key: tuple, x: Entry, n: int, leaf: Member | None) -> tuple:
        """``key`` with ``x``'s ``n`` selections counted where it is watched and pending."""
        s, g, w, p = key
        w = _add(w, _vec(len(self.watched), self.marks(x, leaf), n))
        if id(x) in self.pending:  # its selections + 1 (0: not in the unit, its holder not taken)
            p = _add(p, _vec(len(self.pending), [self.pending.index(id(x))], n + 1))
        return (s, g, w, p)

    def options(self, kind: str, x: Any) -> _Options:
        """The partial make-ups of a model entry (``"leaf"``, its index) or of an entry or
        group around them (``"node"``)."""
        if kind == "leaf":
            m = self.members[x]
            lo = self.bounds[id(m.entry)][0]
            out: _Options = {}
            for k in range(lo, max(lo, self.highest[x]) + 1):
                key = (k, _vec(self.n_groups, [self.group_of[x]], k), self.zero[2], self.zero[3])
                self.keep(out, self.own(key, m.entry, k, m), _vec(len(self.members), [x], k))
            return out
        lo, hi, _later, _written = self.bounds[id(x)]
        inner = self.together([self.options(*c) for c in self.kids[id(x)]],
                              hi if x.kind == "group" else None)
        if x.kind == "group":
            return {self.own(k, x, k[0], None): v for k, v in inner.items() if k[0] >= lo}
        out = {self.own(self.zero, x, 0, None): self.zero_m} if lo == 0 else {}
        for t in range(max(lo, 1), (hi if hi is not None else max(lo, 1)) + 1):
            for (_s, g, w, p), m in inner.items():
                # t alike copies: the models and watched counts t times, each copy's limits
                key = (t, _add(self.zero[1], g, t), _add(self.zero[2], w, t), p)
                self.keep(out, self.own(key, x, t, None), _add(self.zero_m, m, t))
        return out

    def holds(self, g: tuple[int, ...], w: tuple[int, ...], p: tuple[int, ...]) -> bool:
        """Whether the limits that wait for the unit's choices hold in a whole make-up."""
        if not self.pending:
            return True
        counts = _Counts(self.ctx, sum(g), dict(zip(self.watched, w, strict=True)))
        return all(_holds(self.nodes[k], self.bounds[k][2], p[i] - 1, counts)
                   for i, k in enumerate(self.pending) if p[i])


def _scopes(around: tuple[Entry, ...]) -> set[str]:
    """The scopes a constraint of an entry counts in its parent: ``parent``, ``unit`` and the
    ids of the entries around it (a constraint scoped to its group's own id)."""
    return {i for x in around for i in (x.id, x.link_id) if i} | {"unit"}


def split_at(made: list[Composition], groups: list[list[Member]],
             counts: list[tuple[int, int]], gi: int, n: int
             ) -> tuple[list[tuple[Member, int]], list[tuple[Member, int]]]:
    """How ``n`` models of model group ``gi`` fill its entries, and how many the unit's other
    model entries have then: as the make-up nearest the defaults with ``n`` models in the
    group (of ``made``, in the order of the groups' entries); a count the group never has: the
    nearest make-up's others, the group's ``n`` as :func:`.sizes.split_group` fills them;
    without make-ups, the other groups at their smallest (``counts``)."""
    g = groups[gi]
    if not made:
        return split_group(g, n), [mk for j, (o, c) in enumerate(zip(groups, counts,
                                                                      strict=True))
                                   if j != gi for mk in split_group(o, c[0])]
    members = [m for o in groups for m in o]
    where = {id(m): j for j, m in enumerate(members)}
    at = next((c for c in made if c.groups[gi] == n), None)
    near = at or min(made, key=lambda c: (abs(c.groups[gi] - n), c.groups[gi] > n))
    own = [(m, near.members[where[id(m)]]) for m in g] if at else split_group(g, n)
    mine = {id(m) for m in g}
    return own, [(m, near.members[where[id(m)]]) for m in members if id(m) not in mine]


__all__ = ["Composition", "compositions", "split_at", "unconditional"]
