"""Army lists as values: what a list file says (:class:`ParsedList`) and what it resolves to
(:class:`Army`, whose units work everywhere a unit does).

Why one module over 400 lines: the values of a list, as read and as resolved, and the JSON they
write (which :mod:`mathhammer.data.army.structured` reads back) are one vocabulary that the
readers, the resolver and the reports share.

>>> Item("Bolt pistol", 2, 7).name
'Bolt pistol'
"""

from __future__ import annotations

from typing import Any

import attrs

from ...errors import NotCarried, words
from ...model.loadout import Loadout
from ...model.profiles import Target
from ...model.squad import Squad
from ..units.unit import Unit


@attrs.frozen
class Item:
    """A wargear line: ``count`` of ``name`` (a weapon or any other option), at ``line``."""

    name: str = attrs.field(converter=lambda s: str(s).strip().rstrip("*").strip())
    count: int = 1
    line: int = 0
    #: weapon tables the file itself gives (a roster's profiles), used when the data has none
    tables: tuple = attrs.field(default=(), eq=False)
    #: False when the file itself says it is not a weapon (a roster selection without one)
    weapon: bool | None = None
    #: True when the list says this line is a model (``• 1x Long-quill: ...``)
    model: bool = False
    #: the list has lines indented under this one (a model line, most likely)
    parent: bool = False
    #: the models the count was multiplied by (``5 with Bolt pistol and Chainblade``)
    times: int = 1
    #: the cost the line gives (``Sanctified amulet [+25 points]``): an enhancement's when the
    #: data names one, else the wargear's own
    cost: int | None = None


@attrs.frozen
class ParsedModel:
    """``count`` models called ``name`` with their wargear."""

    name: str
    count: int
    line: int
    items: tuple[Item, ...] = ()


@attrs.frozen
class ParsedUnit:
    """One unit as the list writes it."""

    name: str
    line: int
    points: int | None = None
    models: tuple[ParsedModel, ...] = ()
    items: tuple[Item, ...] = ()  # wargear not under a model line
    enhancements: tuple[str, ...] = ()
    extras: tuple[str, ...] = ()  # Warlord and other non-wargear notes
    size: int | None = None  # a model count the list states for the whole unit
    role: str = ""  # "leader", "support" or "bodyguard" in an attached unit
    group: int = 0  # the attached unit it belongs to (0: none)
    enhancement_points: tuple[int | None, ...] = ()  # per enhancement, when the list says
    #: the BattleScribe ids the list gives its datasheet (a roster's ``entryId``), tried before
    #: its name
    ids: tuple[str, ...] = ()


@attrs.frozen
class ParsedList:
    """A list file read, before its names are looked up in the data."""

    format: str
    source: str
    name: str = ""
    factions: tuple[str, ...] = ()
    edition: str | None = None
    declared_points: int | None = None
    units: tuple[ParsedUnit, ...] = ()
    attached: tuple[tuple[int, int], ...] = ()  # (leader index, bodyguard index)
    warnings: tuple[str, ...] = ()
    limit: int | None = None  # the battle size's points limit
    #: the detachment lines as the list writes them ("A and B (3 Detachment Points)"); they
    #: are read against the data's detachments when the list is resolved
    detachments: tuple[str, ...] = ()
    #: what in the list says its edition ("App Version: v2.6.0", "Detachment Points"); empty
    #: when it says none (``edition`` is then None)
    edition_from: str = ""


@attrs.frozen
class WeaponCount:
    """A weapon of an army unit and how many the unit has."""

    name: str
    count: int


@attrs.frozen
class ArmyUnit:
    """A unit of the army: its datasheet sized and armed as the list says."""

    name: str
    unit: Unit
    points: int
    models: int
    weapons: tuple[WeaponCount, ...]
    keywords: tuple[str, ...] = ()
    wargear: tuple[str, ...] = ()  # chosen options that are not weapons
    enhancements: tuple[str, ...] = ()
    line: int = 0
    catalogue: str = ""
    #: each enhancement's points: the list's, else the data's (None: neither says)
    enhancement_points: tuple[int | None, ...] = ()
    data_points: int | None = None  # the data's cost for this many models
    #: the list's detachments (:class:`mathhammer.data.rules.detachments.Detachment`): their rules
    #: are this unit's rules from data too
    detachments: tuple = ()
    #: the datasheet's BattleScribe id (its root entry's; "" when unknown)
    datasheet_id: str = ""

    # the unit protocol, so an ArmyUnit goes wherever a Unit goes
    def __getattr__(self, name: str):
        """Everything else a :class:`Unit` has (``groups``, ``describe()``...) comes from
        ``unit``."""
        if name.startswith("_") or name == "unit":
            raise AttributeError(name)
        return getattr(self.unit, name)

    def as_profiles(self, melee: bool = False, weapons=None, models=None, **choice):
        return self.unit.as_profiles(melee=melee, weapons=weapons, models=models, **choice)

    def loadout(self, melee: bool = False, weapons=None, models=None, **choice):
        return self.unit.loadout(melee=melee, weapons=weapons, models=models, **choice)

    def as_target(self, models: int | None = None):
        return self.unit.as_target(models=models)

    def cost(self, models: int | None = None) -> int | None:
        """The list's points; for another number of models, the data's."""
        return self.points if models in (None, self.models) else self.unit.cost(models)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name, "points": self.points, "models": self.models,
            "weapons": [{"name": w.name, "count": w.count} for w in self.weapons],
            # the datasheet's profiles those weapons carry (a weapon of several profiles: each
            # one, of which weapon choice fires one per model)
            "profiles": [{"name": w.name, "count": w.count, "profile_of": w.profile_of,
                          "melee": w.melee}
                         for g in self.unit.groups for w in g.weapons if not w.optional],
            "keywords": list(self.keywords),
            # each model group with its weapons as the list names them (a weapon of several
            # profiles once, by its name): what reading this JSON back resolves again
            "groups": self.group_json(),
        }
        if self.datasheet_id:
            out["datasheet_id"] = self.datasheet_id
        if self.wargear:
            out["wargear"] = list(self.wargear)
        if self.enhancements:
            out["enhancements"] = list(self.enhancements)
            out["enhancement_points"] = list(self.enhancement_points)
        return out

    def group_json(self) -> list[dict[str, Any]]:
        """Each model group: its name, models and weapons (``name``, ``count`` and the
        weapon's ``profiles`` as unit files write them), a weapon of several profiles
        (``profile_of``) once under that name."""
        out = []
        for g in self.unit.groups:
            weapons: dict[str, dict[str, Any]] = {}
            for w in g.weapons:
                if w.optional:
                    continue
                name = w.profile_of or w.name
                got = weapons.setdefault(name, {"name": name, "count": 0, "profiles": []})
                got["count"] = max(got["count"], w.count or g.min_models)
                got["profiles"].append(weapon_table(w))
            out.append({"name": g.name, "models": g.min_models,
                        "weapons": list(weapons.values())})
        return out


def weapon_table(w: Any) -> dict[str, Any]:
    """A unit's weapon (:class:`~mathhammer.data.units.unit.UnitWeapon`) as a unit file's weapon
    table (what :func:`~mathhammer.data.units.file.build_unit` reads).

    >>> from mathhammer.data.units.unit import UnitWeapon
    >>> from mathhammer.model.profiles import Weapon
    >>> weapon_table(UnitWeapon(Weapon("Flamer", attacks="D6", skill=None, strength=4, ap=0,
    ...                                damage=1, abilities=("torrent",), range=12)))
    {'name': 'Flamer', 'range': 12, 'attacks': 'D6', 'skill': 'N/A', 'strength': 4, \
'ap': 0, 'damage': 1, 'abilities': ['torrent']}
    """
    v = w.weapon
    out: dict[str, Any] = {
        "name": v.name, "range": v.range,
        "attacks": int(v.attacks) if v.attacks.isdigit() else v.attacks,
        "skill": "N/A" if v.skill is None else v.skill, "strength": v.strength, "ap": v.ap,
        "damage": int(v.damage) if v.damage.isdigit() else v.damage,
    }
    if v.abilities:
        out["abilities"] = list(v.abilities)
    if w.profile_of:
        out["profile_of"] = w.profile_of
    return out


@attrs.frozen
class AttachedUnit:
    """A Leader attached to its Bodyguard: one unit that attacks with the weapons of both and
    is attacked as one :class:`Squad` (Bodyguard models first, the Leader as CHARACTER)."""

    leader: ArmyUnit
    bodyguard: ArmyUnit
    #: the other Leaders of the unit, when the rules let two lead it (a Leader whose ability
    #: lets it join one already attached: docs/rules.md, section 11)
    also: tuple[ArmyUnit, ...] = ()

    @property
    def leaders(self) -> tuple[ArmyUnit, ...]:
        return (self.leader, *self.also)

    @property
    def name(self) -> str:
        return " + ".join(u.name for u in (*self.leaders, self.bodyguard))

    @property
    def points(self) -> int:
        return sum(u.points for u in self.leaders) + self.bodyguard.points

    def cost(self, models: int | None = None) -> int | None:
        """The list's points; ``models`` sizes the Bodyguard."""
        body = self.bodyguard.cost(models)
        return None if body is None else sum(u.points for u in self.leaders) + body

    def as_profiles(self, melee: bool = False, weapons=None, models=None, **choice):
        return list(self.loadout(melee, weapons, models, **choice).fired)

    def loadout(self, melee: bool = False, weapons=None, models=None, **choice) -> Loadout:
        """What the Bodyguard and the Leader fire (each chooses by its own rules)."""
        fired: tuple = ()
        left: tuple = ()
        for u in (self.bodyguard, *self.leaders):
            try:
                out = u.loadout(melee=melee, weapons=weapons,
                                models=models if u is self.bodyguard else None, **choice)
            except NotCarried:  # the other unit of the pair may carry it
                continue
            fired += out.fired
            left += out.left_out
        if not fired:
            raise NotCarried(f"{self.name} has no {'melee' if melee else 'ranged'} weapons")
        return Loadout(fired, left)

    def as_target(self, models: int | None = None) -> Target | Squad:
        unit = attrs.evolve(self.bodyguard.unit.as_target(models=models),
                            name=self.bodyguard.name)
        for lead in self.leaders:
            unit = Squad.attach(unit, attrs.evolve(lead.unit.as_target(), name=lead.name))
        return attrs.evolve(unit, name=self.name)


@attrs.frozen
class DataFile:
    """A data file as a report names it: its file name and its own revision number.

    >>> str(DataFile("Orks.json", "2")), DataFile("Orks.json", "2").to_json()
    ('Orks.json (revision 2)', {'file': 'Orks.json', 'revision': 2})
    """

    name: str
    revision: str = ""  # "" when the file gives none

    def __str__(self) -> str:
        return f"{self.name} (revision {self.revision})" if self.revision else self.name

    def to_json(self) -> dict[str, Any]:
        rev = self.revision
        return {"file": self.name, "revision": int(rev) if rev.isdigit() else (rev or None)}


@attrs.frozen
class Unresolved:
    """A name of the list that matches nothing in the data."""

    line: int
    text: str
    closest: tuple[str, ...] = ()
    reason: str = ""  # why, when it is not just an unknown name (a datasheet the data lacks)
    #: the data file that was searched and does not have the name (for a wargear line: not for
    #: that datasheet), when nothing else explains the line (not a count, a model line, a file
    #: the folder lacks, a near spelling or a name another file has)
    lacks: DataFile | None = None
    points: int | None = None  # a whole unit's line: the list's points for it
    unit: bool = False  # the line is a whole unit (its datasheet is not read)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"line": self.line, "text": self.text,
                               "closest": list(self.closest)}
        if self.reason:
            out["reason"] = self.reason
        if self.lacks is not None:
            out["lacks"] = self.lacks.to_json()
        if self.unit:
            out["unit"] = True
            out["points"] = self.points
        return out

    def describe(self) -> str:
        """``Land Speeder (closest: ...)`` or ``Wulfen: <why>``.

        >>> Unresolved(4, "Trukk: Rokkit", ("Big shoota",), "not in Orks.json (revision 2)",
        ...            DataFile("Orks.json", "2")).describe()
        'Trukk: Rokkit: not in Orks.json (revision 2) (closest: Big shoota)'
        """
        if self.reason:
            close = f" (closest: {', '.join(self.closest)})" if self.closest and \
                self.lacks is not None else ""
            return f"{self.text}: {self.reason}{close}"
        return self.text + (f" (closest: {', '.join(self.closest)})" if self.closest else "")


def lacking_notes(unresolved) -> list[str]:
    """One sentence per data file that lacks names of the list (:attr:`Unresolved.lacks`).

    >>> f = DataFile("Orks.json", "2")
    >>> [note] = lacking_notes([Unresolved(3, "Runtherd", lacks=f), Unresolved(9, "X", lacks=f)])
    >>> note.split(":")[0]
    '2 lines name what Orks.json (revision 2) does not have'
    """
    count: dict[DataFile, int] = {}
    for u in unresolved:
        if u.lacks is not None:
            count[u.lacks] = count.get(u.lacks, 0) + 1
    return [f"{n} line{'s' * (n != 1)} name{'s' * (n == 1)} what {f} does not have: the list "
            "may be from a newer release of that file" for f, n in count.items()]


@attrs.frozen
class Army:
    """A resolved army list."""

    name: str
    faction: str
    edition: str
    points: int
    declared_points: int | None
    units: tuple[ArmyUnit, ...]
    attached: tuple[tuple[int, int], ...] = ()  # (leader index, bodyguard index)
    unresolved: tuple[Unresolved, ...] = ()
    source: str = ""
    format: str = ""
    warnings: tuple[str, ...] = ()
    #: the detachments the list names that the data has (their rules reach every unit)
    detachments: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The army as the issue's JSON shape."""
        return {
            "name": self.name, "faction": self.faction, "edition": self.edition,
            "detachments": list(self.detachments),
            "points": self.points, "declared_points": self.declared_points,
            "units": [u.to_json() for u in self.units],
            "attached": [{"leader": self.units[i].name, "bodyguard": self.units[j].name,
                          "leader_index": i, "bodyguard_index": j} for i, j in self.attached],
            "unresolved": [u.to_json() for u in self.unresolved],
            "points_read": self.points, "format": self.format,
            "warnings": [words(w) for w in self.warnings],  # each field as the query names it
            # per data file that lacks names of the list: which lines, and the sentence saying so
            "lacking": [f.to_json() | {"lines": [u.line for u in self.unresolved
                                                  if u.lacks == f], "note": note}
                        for f, note in zip(self.lacking_files(),
                                           lacking_notes(self.unresolved), strict=True)],
        }

    def lacking_files(self) -> list[DataFile]:
        """The data files that lack names of the list (each once, in the order of the lines)."""
        return list(dict.fromkeys(u.lacks for u in self.unresolved if u.lacks is not None))

    @property
    def only_lacking(self) -> bool:
        """Every unresolved line is a name a data file lacks (none a matcher or a reader could
        have read), and there is at least one."""
        return bool(self.unresolved) and all(u.lacks is not None for u in self.unresolved)

    def rows(self) -> list[tuple[str, ArmyUnit | AttachedUnit]]:
        """(label, unit) per unit of the army, an attached Leader and Bodyguard as one row; a
        repeated name gets a number (``Baal Predator #2``)."""
        lead_of: dict[int, list[int]] = {}
        for i, j in self.attached:
            lead_of.setdefault(j, []).append(i)
        leaders = {i for i, _j in self.attached}
        out: list[tuple[str, ArmyUnit | AttachedUnit]] = []
        seen: dict[str, int] = {}
        for k, u in enumerate(self.units):
            if k in leaders:
                continue
            lead = [self.units[i] for i in lead_of.get(k, ())]
            unit = AttachedUnit(lead[0], u, tuple(lead[1:])) if lead else u
            seen[unit.name] = seen.get(unit.name, 0) + 1
            n = seen[unit.name]
            out.append((unit.name if n == 1 else f"{unit.name} #{n}", unit))
        return out
