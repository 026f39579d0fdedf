"""Comparison grids as a question: attackers (rows) against targets (columns), one metric per
cell, every cell computed exactly (:func:`build_grid`); the renderings (text, Markdown, CSV,
HTML, JSON) are :mod:`mathhammer.report.tables`.

>>> import mathhammer as mh
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> geq = mh.Target(models=5, toughness=4, save=3, wounds=1, name="Five")
>>> grid = build_grid([Row("Rifles", ((rifle, 5),))], [Column("Five", geq)], "kills")
>>> grid.values[0][0]  # 5 attacks, each kills with 2/3 * 1/2 * 1/3 = 1/9
Fraction(5, 9)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

import attrs

from ..data.rules.named import resolve_rules
from ..engine.attack import Result, attack
from ..errors import InputError
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.squad import Squad


class Metric(StrEnum):
    """What a comparison grid's cells hold."""

    KILLS = "kills"
    DAMAGE = "damage"
    DESTROYED = "destroyed"
    KILLS_PER_100PTS = "kills-per-100pts"


class RowsBy(StrEnum):
    """One row per attacker, or one per weapon of each attacker."""

    UNIT = "unit"
    WEAPON = "weapon"


METRICS = tuple(m.value for m in Metric)


#: What each metric means, for captions and ``--help``.
METRIC_TEXT = {
    "kills": "expected models destroyed",
    "damage": "expected wounds lost",
    "destroyed": "probability the target unit is destroyed",
    "kills-per-100pts": "expected models destroyed per 100 points of the attacker",
}


_NO_OPTIONS = Options()


@attrs.frozen
class Row:
    """One row of a grid: an attacker (or one of its weapons, or one variant of its options)."""

    label: str
    profiles: tuple[tuple[Weapon, int], ...]
    options: Options = Options()
    #: named rules by name, and rules from data (values)
    named_rules: tuple[Any, ...] = ()
    points: int | None = None
    detail: str = ""
    #: the profiles that fire against a column's target (a unit chooses its weapons against
    #: each target, :mod:`mathhammer.model.loadout`); None: ``profiles`` against every target
    per_target: Callable[[Target | Squad], tuple[tuple[Weapon, int], ...]] | None = attrs.field(
        default=None, eq=False, repr=False)

    def profiles_against(self, target: Target | Squad) -> tuple[tuple[Weapon, int], ...]:
        """The profiles that fire against ``target``."""
        if self.per_target is None or not self.profiles:
            return self.profiles
        return tuple(self.per_target(target))


@attrs.frozen
class Column:
    """One column of a grid: a target."""

    label: str
    target: Target | Squad
    #: the target's rules from data that change attacks against it (an army list's unit)
    rules: tuple[Any, ...] = ()


@attrs.frozen
class Grid:
    """A computed comparison: ``values[row][column]`` (None where a metric does not apply)."""

    metric: str
    rows: tuple[Row, ...]
    columns: tuple[Column, ...]
    values: tuple[tuple[Fraction | None, ...], ...]
    title: str = ""

    @property
    def caption(self) -> str:
        return self.title or f"{self.metric}: {METRIC_TEXT[self.metric]}"


def metric_value(result: Result, metric: str, points: int | None = None) -> Fraction | None:
    """One number of a result: kills, damage, destroyed or kills-per-100pts (None without
    points).

    >>> import mathhammer as mh
    >>> w = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-6, damage=1, abilities=["torrent"])
    >>> r = mh.attack(w, mh.Target(models=1, toughness=4, save=7, wounds=1))
    >>> metric_value(r, "kills-per-100pts", points=50)  # P(kill) = 5/6, per 50 pts
    Fraction(5, 3)
    """
    if metric == "kills":
        return result.kills.mean()
    if metric == "damage":
        return result.damage.mean()
    if metric == "destroyed":
        return result.destroyed
    if metric == "kills-per-100pts":
        return result.kills.mean() * 100 / points if points else None
    raise InputError(f"metric: expected one of {', '.join(METRICS)}, got {metric!r}")


def build_grid(rows: Sequence[Row], columns: Sequence[Column], metric: str, *, title: str = "",
               progress: Callable[[int], Any] | None = None) -> Grid:
    """Compute every cell (``progress(1)`` is called after each one); a row without weapons
    gets None in every cell."""
    if metric not in METRICS:
        raise InputError(f"metric: expected one of {', '.join(METRICS)}, got {metric!r}")
    values = []
    for row in rows:
        line: list[Any] = []
        opts = attrs.asdict(row.options, recurse=False)
        for col in columns:
            if not row.profiles:  # an attacker without weapons for the phase: an empty row
                line.append(None)
                if progress is not None:
                    progress(1)
                continue
            r = attack(list(row.profiles_against(col.target)), col.target,
                       apply=resolve_rules(tuple(row.named_rules) + col.rules), **opts)
            line.append(metric_value(r, metric, row.points))
            if progress is not None:
                progress(1)
        values.append(tuple(line))
    return Grid(metric, tuple(rows), tuple(columns), tuple(values), title)


def rows_for(attacker: str, profiles: Iterable[tuple[Weapon, int]], *, by_weapon: bool,
             options: Options = _NO_OPTIONS, named_rules: tuple[Any, ...] = (),
             points: int | None = None, suffix: str = "",
             per_target: Callable[[Target | Squad], Any] | None = None) -> list[Row]:
    """The grid rows of one attacker: one row for all its weapons (``per_target`` chooses
    them against each target), or one per weapon; each row's detail names the options and
    named rules in force.

    >>> import mathhammer as mh
    >>> a = mh.Weapon("A", attacks=1, skill=3, strength=4, ap=0, damage=1)
    >>> [r.label for r in rows_for("Squad", [(a, 5), (a, 1)], by_weapon=True)]
    ['Squad: 5x A', 'Squad: 1x A']
    >>> rows_for("Squad", [(a, 5)], by_weapon=False, options=Options(rules="11e"))[0].detail
    'rule set 11e'
    """
    profiles = tuple(profiles)
    detail = "; ".join(x for x in (
        f"options: {options.describe()}" if options.describe() != "none" else "",
        f"rules: {', '.join(getattr(n, 'name', n) for n in named_rules)}" if named_rules
        else "",
        f"rule set {options.rules}" if options.rules != "10e" else "") if x)
    if not by_weapon:
        return [Row(attacker + suffix, profiles, options, named_rules, points, detail,
                    per_target)]
    return [Row(f"{attacker}: {n}x {w.name}{suffix}", ((w, n),), options, named_rules, points,
                detail) for w, n in profiles]


def phases(ranged: bool, melee: bool) -> list[bool]:
    """The phases a table's rows are for, as ``melee`` flags: ranged unless melee alone is
    asked, both when both are.

    >>> phases(False, False), phases(True, True)
    ([False], [False, True])
    """
    return [m for m, on in ((False, ranged), (True, melee)) if on] or [False]


def phase_suffix(melee: bool, both: bool) -> str:
    """What a row's label says of its phase when a table has rows of both.

    >>> phase_suffix(True, both=True), phase_suffix(True, both=False)
    (' (melee)', '')
    """
    return (" (melee)" if melee else " (ranged)") if both else ""


def standard_targets() -> list[str]:
    """The names of the standard targets (the bundled units marked archetype), toughest and
    best-saved last.

    >>> standard_targets()[:3]
    ['GEQ', 'Necron Warriors', 'MEQ']
    """
    from ..data.units.bundled import list_units

    std = list_units(archetype=True)
    std.sort(key=lambda u: (u.groups[0].toughness, -u.groups[0].save, u.name))
    return [u.name for u in std]
