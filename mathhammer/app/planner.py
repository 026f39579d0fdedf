"""What a planner by clicking offers for two army lists (a :class:`PlanLists` query): each
list's units with the units each of its Leaders may lead (the data's Leader lists), the
attachments the list states and those the query adds (``attach``, as a plan's), the rows a
plan names after them, and of the attacking list each row's own rules (its datasheet's
switches, which a plan's ``named_rules`` switch on), whether half range changes its attacks
and whether it has weapons for the phase. The plan itself is a :class:`~.queries.Plan` of the
same lists, rows and attachments (:func:`mathhammer.app.plans.plan_answers`).

>>> PlanLists.from_json({"attach": ["Captain=Intercessor Squad"]})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: army: give the army list, or the enemy's (vs_army)
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from ..errors import InputError
from .parts import ArmyList, army_of, attach_of, check_keys, object_of, setup_of
from .setup import Setup


@attrs.frozen
class PlanLists:
    """The two lists of a plan (either may be absent), the Leaders ``attach`` attaches (as a
    :class:`~.queries.Plan`'s ``attach``) and the shared options that change what a row fires
    (``ranged``, the edition ``rules``)."""

    KIND: ClassVar[str] = "plan_lists"
    OWN: ClassVar[tuple[str, ...]] = ("army", "vs_army", "attach")
    SETUP: ClassVar[tuple[str, ...]] = ("rules", "ranged", "pistols")

    army: ArmyList | None = None
    vs_army: ArmyList | None = None
    attach: tuple[str, ...] = ()
    setup: Setup = Setup()
    #: every line of the lists read is used (those not read are said), as a plan's
    allow_unresolved: ClassVar[bool] = True

    def __attrs_post_init__(self) -> None:
        if self.army is None and self.vs_army is None:
            raise InputError("army: give the army list, or the enemy's (vs_army)")

    @classmethod
    def from_json(cls, data: Any) -> PlanLists:
        data = object_of(data, "plan_lists")
        check_keys(data, cls.OWN, "plan_lists", setup=cls.SETUP)
        return cls(army_of(data, "army"), army_of(data, "vs_army"), attach_of(data),
                   setup_of(data, cls.OWN, cls.SETUP))


def half_matters(profiles: Any, rules: Any) -> bool:
    """Whether being within half range changes a unit's attacks: a weapon with Rapid Fire or
    Melta, or one of its rules (applied or a switch) that asks for half range.

    >>> import mathhammer as mh
    >>> gun = mh.Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1,
    ...                 abilities=("rapid fire 1",))
    >>> half_matters([(gun, 1)], ()), half_matters([(attrs.evolve(gun, abilities=()), 1)], ())
    (True, False)
    """
    if any(w.parsed.rapid_fire or w.parsed.melta for w, _ in profiles):
        return True
    for rule in rules:
        needs = [getattr(rule, "requires", None),
                 *(getattr(e, "requires", None) for e in getattr(rule, "effects", ()))]
        if any(c is not None and getattr(c, "half_range", None) is not None for c in needs):
            return True
    return False


def _is_character(unit: Any) -> bool:
    return "CHARACTER" in {k.upper() for k in getattr(unit, "keywords", ())}


def _units(army: Any) -> list[dict[str, Any]]:
    """Each unit of a list by its label, with the labels of the units it may lead (a
    CHARACTER with the Leader ability: those its Leader list names, or every one that is not a
    CHARACTER when the data lists none mathhammer reads)."""
    from ..data.rules.leaders import can_lead, unit_labels

    labels = unit_labels(army.units)
    out = []
    for i, u in enumerate(army.units):
        leads = [labels[j] for j, b in enumerate(army.units)
                 if _is_character(u) and getattr(u, "leader", False) and j != i
                 and can_lead(u, b) is not False and not _is_character(b)]
        out.append({"label": labels[i], "name": u.name, "points": u.points, "leads": leads})
    return out


def _rows(army: Any, s: Setup, attacking: bool, data: str | None) -> list[dict[str, Any]]:
    from .resolve import listed_attacker

    rows = []
    for label, unit in army.rows():
        row: dict[str, Any] = {"label": label, "points": unit.points,
                               "models": unit.as_target().models}
        if attacking:  # its rules from data as a plan reads them (a Leader's too)
            a = listed_attacker(label, unit, attrs.evolve(s, detachment=None, enhancements=()),
                                melee=not s.ranged, data=data)
            switches = a.rules.switches if a.rules is not None else ()
            row["switches"] = [{"name": n, "text": t} for n, t in
                               dict((r.name, r.text) for r in switches).items()]
            row["half"] = half_matters(a.profiles, (*a.rules.applied, *switches)) \
                if a.rules is not None else half_matters(a.profiles, ())
            row["weapons"] = bool(a.profiles)
            row["faction"] = getattr(getattr(unit, "bodyguard", unit), "faction", None)
        rows.append(row)
    return rows


def _side(army: Any, stated: Any, s: Setup, attacking: bool, data: str | None
          ) -> dict[str, Any]:
    from ..data.rules.leaders import lone_leaders, unit_labels
    from .lists import points_read

    labels = unit_labels(army.units)
    return {
        "source": army.source,
        "edition": getattr(army, "edition", None),
        "points": army.points,
        "points_read": points_read(army),
        "units": _units(army),
        "stated": [[labels[i], labels[j]] for i, j in stated],
        "attached": [[labels[i], labels[j]] for i, j in army.attached],
        "rows": _rows(army, s, attacking, data),
        "lone": [{"leader": x.leader, "bodies": list(x.bodies)} for x in lone_leaders(army)]
        if not stated else [],
        "unresolved": len(getattr(army, "unresolved", ()) or ()),
    }


def plan_lists_json(q: PlanLists, data: str | None = None) -> dict[str, Any]:
    """Per side (``army``, ``vs``; None for a list not given) what :func:`_side` says."""
    from .lists import query_lists, read_list

    mine, theirs, s = query_lists(q, data)
    out: dict[str, Any] = {}
    for side, lst, army in (("army", q.army, mine), ("vs", q.vs_army, theirs)):
        out[side] = None if army is None or lst is None else _side(
            army, read_list(lst, data).attached, s, side == "army", data)
    return out


__all__ = ["PlanLists", "half_matters", "plan_lists_json"]
