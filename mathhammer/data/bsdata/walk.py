"""Walk a unit's selection tree: resolve links, decide what is hidden, count models and points.

BattleScribe data switches options on and off with modifiers whose conditions look at the
roster. A datasheet import has no roster, so conditions are decided three-valued: about the
roster and its forces (empty apart from this unit, no Crusade force, the catalogue read as its
primary catalogue) they are decided, about choices inside the unit they are unknown, and an
unknown condition never hides anything.

>>> c = ConditionGroup("or", (Condition("lessThan", "forces", "roster", Fraction(1), "crusade"),))
>>> decide(c, Context())
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Protocol

import attrs

from ...errors import InputError
from ...limits import MAX_LINK_EXPANSIONS
from .entries import Condition, ConditionGroup, Entry, InfoGroup, Link, Modifier, Profile, Rule
from .files import Library, MissingFileError

_ROSTER_SCOPES = ("roster", "force", "primary-catalogue")


class Counts(Protocol):
    """What a condition is decided with: a :class:`Context`, or a make-up's counts
    (:mod:`mathhammer.data.bsdata.makeup`); None where the count is unknown."""

    def count(self, c: Condition) -> int | None: ...


class LinkLimitError(InputError):
    """A datasheet's links expand more often than the limit allows."""


@attrs.frozen
class Context:
    """What a condition can know: ids on the path to the entry (entries and their categories)
    and, when counting points, how many models of each model entry the unit has."""

    ancestry: frozenset[str] = frozenset()
    models: tuple[tuple[frozenset[str], int], ...] | None = None  # (ids on its path, count)
    unit_id: str = ""
    #: the roster's primary catalogue (the one read) and the ids known to be catalogues
    primary: str = ""
    catalogue_ids: frozenset[str] = frozenset()

    def count(self, c: Condition) -> int | None:
        if c.type in ("instanceOf", "notInstanceOf"):
            if c.scope == "primary-catalogue" and self.primary and \
                    c.child_id in self.catalogue_ids:
                return int(c.child_id == self.primary)
            if c.scope in _ROSTER_SCOPES:
                return None
            return int(c.child_id in self.ancestry)
        if c.field == "forces":
            return 0
        if c.field != "selections":
            return None
        if c.scope in _ROSTER_SCOPES:
            return None if c.child_id in self.ancestry else 0
        if self.models is not None and c.scope in ("self", "parent", "unit", self.unit_id):
            if c.child_id in ("model", "any", ""):
                return sum(n for _ids, n in self.models)
            return sum(n for ids, n in self.models if c.child_id in ids)
        return None


def _test(c: Condition, n: int) -> bool | None:
    v = c.value
    return {
        "lessThan": n < v,
        "greaterThan": n > v,
        "equalTo": n == v,
        "notEqualTo": n != v,
        "atLeast": n >= v,
        "atMost": n <= v,
        "instanceOf": n > 0,
        "notInstanceOf": n == 0,
    }.get(c.type)


def decide(c: ConditionGroup | None, ctx: Counts) -> bool | None:
    """True, False, or None when the context cannot tell."""
    if c is None:
        return True
    results: list[bool | None] = []
    for x in c.conditions:
        n = ctx.count(x)
        results.append(None if n is None else _test(x, n))
    results += [decide(g, ctx) for g in c.groups]
    if c.type == "or":
        if any(r is True for r in results):
            return True
        return False if all(r is False for r in results) else None
    if any(r is False for r in results):
        return False
    return True if all(r is True for r in results) else None


def hidden(entry: Entry | Profile | Rule | Link | InfoGroup, ctx: Context) -> bool:
    """Is this hidden when nothing is known about the unit's choices?"""
    h = entry.hidden
    for m in entry.modifiers:
        if m.field == "hidden" and m.type == "set" and decide(m.when, ctx) is True:
            h = m.value.lower() == "true"
    return h


def modified_name(thing: Entry | Profile | Rule | Link, ctx: Context) -> str:
    """The name after the name modifiers that hold (``Feel No Pain`` + ``5+``)."""
    name = thing.name
    for m in thing.modifiers:
        if m.field != "name" or decide(m.when, ctx) is not True:
            continue
        if m.type == "append":
            name = f"{name}{m.join}{m.value}" if name else m.value
        elif m.type == "set":
            name = m.value
        elif m.type == "prepend":
            name = f"{m.value}{m.join}{name}"
    return name


def ancestry_of(e: Entry) -> frozenset[str]:
    return frozenset({e.id} | {c.target_id for c in e.category_links})


def root_context(lib: Library) -> Context:
    """What is known before any entry: the catalogue read is the roster's primary catalogue."""
    ids = {c.id for c in lib.catalogues()} | {link.target_id for _c, link in lib.links()}
    return Context(primary=lib.main.id, catalogue_ids=frozenset(ids))


def unit_context(lib: Library, unit: Entry) -> Context:
    """The context of a datasheet's own entry."""
    return attrs.evolve(root_context(lib), ancestry=ancestry_of(unit), unit_id=unit.id)


@attrs.define
class Walker:
    """Walks entries of one library. A link below the unit into a linked catalogue that is not
    given (an Imperial Knights enhancement in an AdMech catalogue) is skipped and remembered in
    ``skipped``; the unit's own link, and any link when the game system is missing, is an
    error."""

    lib: Library
    skipped: dict[str, str] = attrs.field(factory=dict)  # link name -> reason
    #: rule links whose target no file defines (none missing): kept by the link's name
    dangling: list[str] = attrs.field(factory=list)
    #: links resolved so far; at most MAX_LINK_EXPANSIONS (links may fan out without a cycle)
    expansions: int = 0

    def resolve(self, e: Entry) -> Entry:
        """An entry link merged with its target (the link's own children add to the target's)."""
        if e.kind != "link":
            return e
        self._expand()
        lib = self.lib
        target = lib.find(e.target_id, f"entry link {e.name!r}")
        if not isinstance(target, Entry):
            raise InputError(
                f"{lib.main.path}: entry link {e.name!r} points to id {e.target_id}, which is a "
                f"{type(target).__name__.lower()}, not a selection entry"
            )
        target = self.resolve(target)
        own = {x.type_id for x in e.costs}
        return attrs.evolve(
            target,
            link_id=e.id,
            hidden=e.hidden or target.hidden,
            profiles=target.profiles + e.profiles,
            rules=target.rules + e.rules,
            info_links=target.info_links + e.info_links,
            info_groups=target.info_groups + e.info_groups,
            category_links=target.category_links + e.category_links,
            costs=e.costs + tuple(c for c in target.costs if c.type_id not in own),
            constraints=target.constraints + e.constraints,
            modifiers=target.modifiers + e.modifiers,
            entries=target.entries + e.entries,
            groups=target.groups + e.groups,
            links=target.links + e.links,
            order=target.order,
        )

    def _expand(self) -> None:
        self.expansions += 1
        if self.expansions > MAX_LINK_EXPANSIONS:
            raise LinkLimitError(
                f"{self.lib.main.path}: links expand more than {MAX_LINK_EXPANSIONS} times for "
                "one datasheet (mathhammer.limits.MAX_LINK_EXPANSIONS): links that fan out?"
            )

    def children(self, e: Entry, ctx: Context) -> Iterator[tuple[Entry, Context]]:
        """Visible children of ``e``, resolved, each with its context."""
        for child in e.children:
            if child.kind == "link" and hidden(child, ctx):
                continue
            try:
                r = self.resolve(child)
            except LinkLimitError:
                raise
            except ValueError as err:
                self._skip(child.name, err)
                continue
            cctx = attrs.evolve(ctx, ancestry=ctx.ancestry | ancestry_of(r))
            if hidden(r, cctx):
                continue
            yield r, cctx

    def _skip(self, name: str, err: ValueError) -> None:
        """Skip a link below the unit into a linked catalogue that is not here; without the
        game system nothing is skipped (every datasheet needs its core rules)."""
        if self.lib.system() is None:
            raise err
        self.skipped.setdefault(name, str(err).split("; ", 1)[-1])

    def _target(self, link: Link) -> object | None:
        self._expand()
        try:
            return self.lib.find(link.target_id, f"info link {link.name!r}")
        except MissingFileError as err:
            self._skip(link.name, err)
            return None
        except ValueError as err:
            if link.type == "rule" and link.name and self.lib.system() is not None:
                # a rule that no file defines, though every linked file is here: a dangling
                # reference in the data; the rule is kept by its name
                if link.name not in self.dangling:
                    self.dangling.append(link.name)
                return Rule(link.target_id, link.name)
            self._skip(link.name, err)
            return None

    def profiles(self, e: Entry | InfoGroup, ctx: Context) -> Iterator[Profile]:
        """The visible profiles of ``e`` itself: its own, its info groups' and linked ones."""
        for p in e.profiles:
            if not hidden(p, ctx):
                yield p
        for g in e.info_groups:
            if not hidden(g, ctx):
                yield from self.profiles(g, ctx)
        for link in e.info_links:
            if hidden(link, ctx) or link.type not in ("profile", "infoGroup"):
                continue
            target = self._target(link)
            if isinstance(target, Profile) and not hidden(target, ctx):
                yield target
            elif isinstance(target, InfoGroup) and not hidden(target, ctx):
                yield from self.profiles(target, ctx)

    def rules(self, e: Entry | InfoGroup, ctx: Context) -> Iterator[tuple[str, Rule]]:
        """The visible rules of ``e`` itself as (name after modifiers, rule)."""
        for r in e.rules:
            if not hidden(r, ctx):
                yield modified_name(r, ctx), r
        for g in e.info_groups:
            if not hidden(g, ctx):
                yield from self.rules(g, ctx)
        for link in e.info_links:
            if hidden(link, ctx) or link.type not in ("rule", "infoGroup"):
                continue
            target = self._target(link)
            if isinstance(target, Rule):
                yield modified_name(attrs.evolve(link, name=target.name), ctx), target
            elif isinstance(target, InfoGroup) and not hidden(target, ctx):
                yield from self.rules(target, ctx)

    def walk(
        self, e: Entry, ctx: Context, stop: Callable[[Entry], bool]
    ) -> Iterator[tuple[Entry, Context, tuple[Entry, ...]]]:
        """Depth-first over visible descendants of ``e`` (not below entries where ``stop``
        holds), yielding (entry, context, path of entries from ``e`` down to its parent)."""

        def go(node: Entry, nctx: Context, path: tuple[Entry, ...]):
            if len(path) > 40:
                raise InputError(
                    f"{self.lib.main.path}: links under {e.name!r} nest too deep (a cycle?)"
                )
            for child, cctx in self.children(node, nctx):
                yield child, cctx, path
                if not stop(child):
                    yield from go(child, cctx, path + (child,))

        yield from go(e, ctx, (e,))


def point_modifiers(e: Entry, cost_type: str) -> list[Modifier]:
    return [m for m in e.modifiers if m.field == cost_type]


def apply_number(value: Fraction, m: Modifier, ctx: Counts) -> Fraction:
    """Apply one numeric modifier (set/increment/decrement, with repeats) if it applies."""
    if decide(m.when, ctx) is not True:
        return value
    try:
        amount = Fraction(m.value)
    except (ValueError, ZeroDivisionError):
        return value
    times = 1
    if m.repeats:
        times = 0
        for r in m.repeats:
            n = ctx.count(Condition("atLeast", r.field, r.scope, Fraction(0), r.child_id))
            if n is None or not r.value:
                return value
            q = Fraction(n) / r.value
            times += (int(q) if not r.round_up or q == int(q) else int(q) + 1) * r.repeats
    if m.type == "set":
        return amount
    if m.type == "increment":
        return value + amount * times
    if m.type == "decrement":
        return value - amount * times
    return value


def modified_profile(p: Profile, ctx: Context) -> Profile:
    """The profile after its own characteristic modifiers whose conditions hold.

    >>> from .entries import Characteristic
    >>> bs = Characteristic("BS", "bs", "4+")
    >>> m = Modifier("set", "bs", "3+", ConditionGroup("and", (Condition("instanceOf", "selections",
    ...     "ancestor", Fraction(1), "character"),)))
    >>> p = Profile("p", "Pistol", "w", "Ranged Weapons", (bs,), modifiers=(m,))
    >>> modified_profile(p, Context(ancestry=frozenset({"character"}))).get("BS")
    '3+'
    >>> modified_profile(p, Context()).get("BS")
    '4+'
    """
    if not p.modifiers:
        return p
    chars = list(p.characteristics)
    for m in p.modifiers:
        i = next((i for i, c in enumerate(chars) if m.field in (c.type_id, c.name)), None)
        if i is None or decide(m.when, ctx) is not True:
            continue
        old = chars[i].value
        if m.type == "set":
            new = m.value
        elif m.type == "append":
            new = f"{old}{m.join}{m.value}" if old and old != "-" else m.value
        elif m.type in ("increment", "decrement"):
            num = re.match(r"^(-?\d+)(.*)$", old.strip())
            try:
                step = int(m.value)
            except ValueError:
                continue
            if num is None:
                continue
            n = int(num.group(1)) + (step if m.type == "increment" else -step)
            new = f"{n}{num.group(2)}"
        else:
            continue
        chars[i] = attrs.evolve(chars[i], value=new)
    return attrs.evolve(p, characteristics=tuple(chars))
