"""UnitCrunch's import file: an army's units (or a query's attacker and target) as the profiles
UnitCrunch reads, and a reader of that file (what the tests round-trip through).

Why one module over 400 lines: the writer and the reader are one layout (and UnitCrunch's
abilities one table), kept together so that they cannot drift apart.

The file is MessagePack (the ``msgpack`` package: ``pip install 'mathhammer[unitcrunch]'``) of
the layout UnitCrunch's own "Export data" writes and its "Import data" reads, as of UnitCrunch
:data:`APP_VERSION` (the community's data packs of 2025 are in it)::

    {"appVersion": "0.72.3", "exported": <ms since 1970>,
     "profiles": [{"name", "units": [{"name", "points", "leader", "abilities",
                                     "abilities_selected", "id",
                                     "model_types": [{"name", "modelCount", "toughness",
                                                      "save", "invuln", "ignore" (Feel No
                                                      Pain), "wounds", "keywords", "id",
                                                      "weapons": [{"name", "nameUnique",
                                                                   "countPerUnit", "type",
                                                                   "attacks", "bs"/"ws",
                                                                   "strength", "ap", "damage",
                                                                   "abilities", "id"}]}]}],
                   "weapons_selected_ranged", "weapons_selected_melee" (weapon ids),
                   "computed_*", "order_slain_auto", "order_slain_model_types",
                   "created", "updated"}]}

One profile per row of an army (a Leader and its Bodyguard: one profile of two units, the
Leader's marked ``leader``). A weapon's abilities are UnitCrunch's own ("reserved") abilities:
the weapon keywords UnitCrunch has (:data:`WEAPON_ABILITIES`); the others are left out and said
(:func:`left_out`). The selected weapons are those mathhammer's loadout fires in each phase
(one profile of a weapon of several, Pistols or the other guns), chosen against MEQ.

Not written: the rules from data (datasheet, army, detachment, enhancement and Leader
abilities) but Stealth, a Feel No Pain (``ignore``) and an invulnerable save; weapon ranges
(UnitCrunch has none: half range and the like are switches there); ability ids are stable
(the same army gives the same file but for ``exported``).

>>> w = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1,
...            abilities=("heavy", "assault"))
>>> p = CrunchProfile("Intercessors", (CrunchUnit("Intercessors", 80, (CrunchModelType(
...     "Intercessor", 5, 4, 3, 2, weapons=(CrunchWeapon(w, 5, selected=True),)),)),))
>>> [p2] = loads(dumps([p], exported=0))
>>> [(x.name, x.count, x.weapon.abilities) for x in p2.units[0].model_types[0].weapons]
[('Bolt rifle', 5, ('heavy',))]
"""

from __future__ import annotations

import re
import time
import uuid
from typing import Any, Literal, overload

import attrs

from ..errors import InputError
from ..limits import MAX_ARMY_FILE_BYTES
from ..model.abilities import canonical
from ..model.profiles import Weapon

#: the UnitCrunch version whose export layout this writes (its ``appVersion``)
APP_VERSION = "0.72.3"
MISSING = ("--to unitcrunch needs the msgpack package: pip install 'mathhammer[unitcrunch]'")
#: the namespace of the ids written (uuid5 of a profile's, unit's, weapon's name)
_IDS = uuid.UUID("5b7f0e0a-36a8-4c44-9d7e-6a1c2f3e4d51")


# ---------------------------------------------------------------- value types
# (named Crunch*: UnitCrunch's layout, not mathhammer's Unit and UnitWeapon)


@attrs.frozen
class CrunchWeapon:
    """A weapon of a model type: how many of it the models carry and whether it is selected
    (fires when UnitCrunch runs the profile)."""

    weapon: Weapon
    count: int
    selected: bool = False

    @property
    def name(self) -> str:
        return self.weapon.name


@attrs.frozen
class CrunchModelType:
    """Models of one profile in a unit (X+ values as ints, None: none)."""

    name: str
    models: int
    toughness: int
    save: int
    wounds: int
    invuln: int | None = None
    fnp: int | None = None
    keywords: tuple[str, ...] = ()
    weapons: tuple[CrunchWeapon, ...] = ()


@attrs.frozen
class CrunchUnit:
    """A unit of a profile; ``leader``: a Leader attached to the profile's other unit."""

    name: str
    points: int | None
    model_types: tuple[CrunchModelType, ...]
    leader: bool = False
    stealth: bool = False


@attrs.frozen
class CrunchProfile:
    """One UnitCrunch profile: a unit, or a Leader and its Bodyguard."""

    name: str
    units: tuple[CrunchUnit, ...]


# ---------------------------------------------------------------- from mathhammer's values


def _statline(name: str, models: int, g: Any, keywords: tuple[str, ...],
              weapons: tuple[CrunchWeapon, ...]) -> CrunchModelType:
    return CrunchModelType(name, models, g.toughness, g.save, g.wounds, g.invuln, g.fnp,
                     tuple(k.upper() for k in keywords), weapons)


def _fired(unit: Any) -> set[str]:
    """The names of the weapon profiles ``unit``'s loadout fires in either phase."""
    from ..engine.attack import value_against  # the engine scores the loadout's choice

    out: set[str] = set()
    for melee in (False, True):
        try:
            out |= {w.name for w, _n in unit.loadout(melee=melee, score=value_against(None)).fired}
        except (InputError, ValueError):
            continue  # no weapons of that phase
    return out


def army_unit(unit: Any, fired: set[str] | None = None, leader: bool = False) -> CrunchUnit:
    """An army unit (:class:`~mathhammer.data.army.values.ArmyUnit`) or a datasheet
    (:class:`~mathhammer.data.units.unit.Unit`, at its smallest size) as a UnitCrunch unit: each
    model group a model type with the weapons it carries (``fired``: the selected ones)."""
    fired = _fired(unit) if fired is None else fired
    inner = getattr(unit, "unit", unit)
    types = []
    for g in inner.groups:
        weapons = tuple(CrunchWeapon(w.weapon, w.default_at(g.min_models, g.min_models),
                                   w.name in fired)
                        for w in g.weapons if not w.optional)
        types.append(_statline(g.name, g.min_models, g, inner.keywords,
                               tuple(w for w in weapons if w.count > 0)))
    points = unit.points if isinstance(getattr(unit, "points", None), int) else inner.cost()
    return CrunchUnit(unit.name, points, tuple(types), leader, inner.stealth)


def army_profiles(army: Any) -> list[CrunchProfile]:
    """One profile per row of an army (:meth:`~mathhammer.data.army.values.Army.rows`): a unit,
    or a Leader and its Bodyguard as two units (the Leader's marked ``leader``)."""
    out = []
    for label, row in army.rows():
        units: tuple[CrunchUnit, ...]
        if hasattr(row, "leader") and hasattr(row, "bodyguard"):  # an AttachedUnit
            fired = _fired(row)
            units = (army_unit(row.bodyguard, fired), army_unit(row.leader, fired, True))
        else:
            units = (army_unit(row),)
        out.append(CrunchProfile(label, units))
    return out


def query_profiles(query: Any) -> list[CrunchProfile]:
    """A query's attacker (the weapons that fire, each carried by as many models as fire it,
    on one model type of the attacker's own profile) and its target (one model type per model
    group, a Leader's groups as a ``leader`` unit)."""
    me = query.attacker_profile
    if me is None:
        raise InputError("--to unitcrunch: the attacker is weapons without a unit (UnitCrunch "
                         "needs its models' toughness, save and wounds): name a unit")
    weapons = tuple(CrunchWeapon(w, n, True) for w, n in query.profiles)
    attacker = CrunchProfile(query.attacker, (CrunchUnit(query.attacker, None, (_statline(
        me.name or query.attacker, me.models, me, me.keywords, weapons),),
        stealth=me.stealth),))
    groups = getattr(query.target, "groups", (query.target,))
    body = [g for g in groups if not (len(groups) > 1 and "CHARACTER" in g.keywords)] or groups
    lead = [g for g in groups if g not in body]
    units = []
    for gs, leader in ((body, False), (lead, True)):
        if gs:
            types = tuple(_statline(g.name or query.target_name, g.models, g, g.keywords, ())
                          for g in gs)
            units.append(CrunchUnit(gs[0].name or query.target_name, None, types, leader,
                              any(g.stealth for g in gs)))
    return [attacker, CrunchProfile(query.target_name, tuple(units))]


# ---------------------------------------------------------------- weapon abilities

#: UnitCrunch's reserved weapon abilities that mathhammer's weapon keywords map to (the
#: others are left out: :func:`left_out`)
WEAPON_ABILITIES = ("lethal hits", "devastating wounds", "twin-linked", "torrent", "blast",
                    "lance", "heavy", "ignores cover", "psychic", "extra attacks", "conversion",
                    "sustained hits X", "rapid fire X", "melta X", "anti-KEYWORD X+")
_WITH_X = re.compile(r"^(sustained hits|rapid fire|melta) (\S+)$")
_ANTI = re.compile(r"^anti-(.+) ([2-6])\+$")


def _crit(step: str) -> dict[str, Any]:
    title = "Critical hit" if step == "hitRoll" else "Critical wound"
    return {"text": "Critical hit/wound", "type": "crit", "data": {"crit": {
        "title": title, "key": step}}, "description": 'Require a hit or wound to be '
            '"critical".', "preselected": False}


def _range(key: str) -> dict[str, Any]:
    title = "Within half range" if key == "withinHalfRange" else "Over half range"
    return {"text": "Range", "type": "range", "data": {"range": {"title": title,
                                                                  "key": key}},
            "description": "Check attack range.", "preselected": False}


def _roll(step: str, value: int) -> dict[str, Any]:
    title = "Hit roll" if step == "hitRoll" else "Wound roll"
    return {"text": "Attack step roll", "type": "attackStepRoll", "data": {
        "attackStep": {"title": title, "key": step},
        "rollReq": {"title": "Specific roll", "key": "specificRoll"},
        "rollState": {"title": "Unmodified", "key": "unmodified"},
        "rollTarget": {"title": "Or greater", "key": "orGreater"}, "rollValue": str(value)},
        "description": "Require a specific roll value in the attack sequence.",
        "preselected": False}


def _override(outcome: str, crit: bool | None) -> dict[str, Any]:
    data: dict[str, Any] = {"irrespective": False, "outcome": {"title": outcome.title(),
                                                                "key": outcome},
                            "type": {"title": "Always", "key": "always"}}
    if crit is not None:
        data["crit"] = crit
    return {"text": "Override requirements", "type": "overrideReqs", "data": data}


def _modify(step: str, title: str, value: Any, operator: str = "add") -> dict[str, Any]:
    return {"text": "Modify (relative)", "type": "modifyRelative", "data": {
        "application": {"title": title, "key": step},
        "operator": {"title": operator.title(), "key": operator}, "relativeValue": value}}


def _special(key: str, title: str) -> dict[str, Any]:
    return {"text": "Special", "type": "special", "data": {"option": {"title": title,
                                                                      "key": key}}}


def weapon_ability(text: str) -> tuple[str, list, str, dict] | None:
    """(alias, conditions, description, effect) of UnitCrunch's reserved ability for one of
    mathhammer's canonical weapon abilities; None when UnitCrunch has none.

    >>> weapon_ability("sustained hits D3")[0], weapon_ability("precision")
    ('Sustained hits D3', None)
    """
    t = canonical(text)
    fixed = {
        "lethal hits": ("Lethal hits", [_crit("hitRoll")], "Critical hit : always wound",
                        _override("wound", None)),
        "devastating wounds": ("Devastating wounds", [_crit("woundRoll")],
                               "Critical wound : mortal wounds equal to weapon damage (attack "
                               "sequence ends) (no spill over)", {
                                   "text": "Mortal wounds", "type": "mortalWounds", "data": {
                                       "attackSequenceEnds": True, "cap": None,
                                       "matchWeaponDamage": True, "mortalWoundsValue": None,
                                       "noSpillOver": True}}),
        "twin-linked": ("Twin-linked", [], "Re-roll all possible failed wound rolls", {
            "text": "Re-roll", "type": "reRoll", "data": {
                "application": {"title": "Wound roll", "key": "woundRoll"},
                "limit": {"title": "None", "key": "none"},
                "resultToReRoll": {"title": "AllPossibleFailures",
                                   "key": "allPossibleFailures"},
                "valueRange": [], "valueSingle": None}}),
        "torrent": ("Torrent", [], "Always hit", _override("hit", False)),
        "blast": ("Blast", [], "Blast", _special("blast", "Blast")),
        "lance": ("Lance", [{"text": "Attacker charged", "type": "attackerCharged", "data": {
            "attackerCharged": {"title": "Attacker charged", "key": "attackerCharged"}},
            "description": "Whether the attacker charged.", "preselected": False}],
            "+1 to wound roll (if attacker charged)", _modify("woundRoll", "Wound roll", "1")),
        "heavy": ("Heavy", [{"text": "Remained stationary", "type": "remainedStationary",
                             "data": {"remainedStationary": {
                                 "title": "Attacker remained stationary",
                                 "key": "attackerStationary"}},
                             "description": "Whether the attacker remained stationary.",
                             "preselected": False}],
                  "+1 to hit roll (if attacker remained stationary)",
                  _modify("hitRoll", "Hit roll", 1)),
        "ignores cover": ("Ignores cover", [], "Ignore cover",
                          _special("ignoreCover", "Ignore cover")),
        "psychic": ("Psychic", [], "Psychic", _special("psychic", "Psychic")),
        "extra attacks": ("Extra attacks", [], "Extra attacks",
                          _special("extraAttacks", "Extra attacks")),
        "conversion": ("Conversion", [_range("overHalfRange"), _roll("hitRoll", 4)],
                       "Hit roll of 4+ (unmodified) : critical hit (over half range)",
                       _override("hit", True)),
    }
    if t in fixed:
        return fixed[t]
    if m := _WITH_X.match(t):
        kind, x = m.groups()
        if kind == "sustained hits":
            return (f"Sustained hits {x}", [_crit("hitRoll")],
                    f"Critical hit : {x} extra hit{'s' * (x != '1')}", {
                        "text": "Generate extras", "type": "generateExtras", "data": {
                            "extrasValue": x, "option": {"title": "Extra hits",
                                                         "key": "extraHits"}}})
        if kind == "rapid fire":
            return (f"Rapid fire {x}", [_range("withinHalfRange")],
                    f"Increase attacks by {x} (within half range)", {
                        "text": "Increase weapon attacks", "type": "increaseWeaponAttacks",
                        "data": {"applyToExtraAttacks": False,
                                 "increaseWeaponAttacksValue": x}})
        value: Any = int(x) if x.isdigit() else x
        return (f"Melta {x}", [_range("withinHalfRange")], f"+{x} to damage (within half "
                "range)", _modify("damage", "Damage", value))
    if m := _ANTI.match(t):
        keyword, x = m.group(1).upper(), int(m.group(2))
        return (f"Anti-{keyword} {x}+", [_roll("woundRoll", x), {
            "text": "Keywords (only)", "type": "keywordsOnly", "data": {"keywords": [keyword]},
            "description": "Require one or more keywords.", "preselected": False}],
            f"Wound roll of {x}+ (unmodified) : critical wound ({keyword} only)",
            _override("wound", True))
    return None


def left_out(profiles: list[CrunchProfile]) -> dict[str, int]:
    """Each weapon ability UnitCrunch has no ability for, with how many weapons have it."""
    out: dict[str, int] = {}
    for p in profiles:
        for u in p.units:
            for m in u.model_types:
                for w in m.weapons:
                    for a in w.weapon.abilities:
                        if weapon_ability(a) is None:
                            out[a] = out.get(a, 0) + 1
    return out


def _stealth(ident: str) -> dict[str, Any]:
    return {"aliases": [{"name": "Stealth", "type": "reserved"}], "aliasActive": True,
            "conditions": [
                {"text": "Profile role", "type": "profileRole", "data": {
                    "profileRole": "Defender"}, "description": "Require the current profile "
                    "to be set as the attacker or defender.", "preselected": True},
                {"text": "Attack type", "type": "attackType", "data": {"attackType": "Ranged"},
                 "description": "Restrict to just melee attacks or ranged attacks.",
                 "preselected": False}],
            "description": "-1 to hit roll (ranged only) (if defender)",
            "effect": _modify("hitRoll", "Hit roll", 1, "subtract"), "scope": ["profile"],
            "sharedWithAllUnits": False, "id": ident}


# ---------------------------------------------------------------- the file


def _id(*parts: object) -> str:
    return str(uuid.uuid5(_IDS, "\x1f".join(str(p) for p in parts)))


def _value(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _weapon(p: CrunchProfile, w: CrunchWeapon, unique: str, where: tuple[str, ...]
            ) -> dict[str, Any]:
    """One weapon (``where``: its unit's and model type's names, which its ids are of)."""
    v = w.weapon
    skill: int | str | None = "" if v.skill is None else v.skill
    abilities = []
    for a in v.abilities:
        found = weapon_ability(a)
        if found is None:
            continue
        alias, conditions, description, effect = found
        abilities.append({"aliases": [{"name": alias, "type": "reserved"}], "aliasActive": True,
                          "conditions": conditions, "description": description,
                          "effect": effect, "scope": ["weapon"], "sharedWithAllUnits": False,
                          "id": _id(p.name, "ability", *where, v.name, alias)})
    return {"name": v.name, "nameUnique": unique, "countPerUnit": w.count,
            "type": "Melee" if v.melee else "Ranged", "attacks": _value(v.attacks),
            "bs": None if v.melee else skill, "ws": skill if v.melee else None,
            "strength": v.strength, "ap": v.ap, "damage": _value(v.damage),
            "abilities": abilities, "id": _id(p.name, "weapon", *where, v.name)}


def profile_data(p: CrunchProfile, stamp: str) -> dict[str, Any]:
    """One profile as UnitCrunch's export writes it (``stamp``: its created/updated time)."""
    # a weapon name in several model types: "nameUnique" says whose
    shared: dict[str, set[tuple[str, str]]] = {}
    for u in p.units:
        for m in u.model_types:
            for w in m.weapons:
                shared.setdefault(w.name, set()).add((u.name, m.name))
    units: list[dict[str, Any]] = []
    selected: dict[str, list[str]] = {"Ranged": [], "Melee": []}
    for u in p.units:
        uid = _id(p.name, "unit", u.name, u.leader)
        abilities = [_stealth(_id(p.name, "stealth", u.name))] if u.stealth else []
        types = []
        for m in u.model_types:
            weapons = []
            for w in m.weapons:
                unique = f"{w.name} ({m.name})" if len(shared[w.name]) > 1 else w.name
                data = _weapon(p, w, unique, (u.name, str(u.leader), m.name))
                weapons.append(data)
                if w.selected and data["id"] not in selected[data["type"]]:
                    selected[data["type"]].append(data["id"])
            types.append({"id": _id(p.name, "model", u.name, m.name), "ignore": m.fnp,
                          "invuln": m.invuln, "keywords": list(m.keywords),
                          "modelCount": m.models, "name": m.name, "save": m.save,
                          "toughness": m.toughness, "weapons": weapons, "wounds": m.wounds})
        units.append({"abilities": abilities, "abilities_selected": [a["id"] for a in abilities],
                      "id": uid, "leader": u.leader, "name": u.name, "points": u.points,
                      "model_types": types})
    every = [(u, units[i], m) for i, u in enumerate(p.units) for m in units[i]["model_types"]]
    body = [x for x in every if not x[0].leader] or every
    kinds = {w["type"] for _u, _d, m in every for w in m["weapons"]}
    roles = [r for r, k in (("Attacker: Melee", "Melee"), ("Attacker: Ranged", "Ranged"))
             if k in kinds] + ["Defender"]
    points = [u.points for u in p.units if u.points is not None]
    return {
        "name": p.name, "units": units,
        "computed_keywords": sorted({k for _u, _d, m in every for k in m["keywords"]}),
        "computed_leaders": [{"unitId": d["id"], "unitName": u.name}
                             for u, d in zip(p.units, units, strict=True) if u.leader],
        "computed_model_count": sum(m["modelCount"] for _u, _d, m in every),
        "computed_points": sum(points) if points else None,
        "computed_roles": roles,
        "computed_toughness": body[0][2]["toughness"],
        "computed_wounds": sum(m["modelCount"] * m["wounds"] for _u, _d, m in every),
        "order_slain_auto": True,
        "order_slain_model_types": [{"modelTypeId": m["id"], "modelTypeName": m["name"],
                                     "unitId": d["id"]} for _u, d, m in
                                    [x for x in every if not x[0].leader]
                                    + [x for x in every if x[0].leader]],
        "weapons_selected_melee": selected["Melee"],
        "weapons_selected_ranged": selected["Ranged"],
        "created": stamp, "updated": stamp,
    }


def dumps(profiles: list[CrunchProfile], exported: int | None = None) -> bytes:
    """The import file of ``profiles`` (``exported``: its time, ms since 1970; default now)."""
    try:
        import msgpack
    except ImportError:
        raise InputError(MISSING) from None
    ms = int(time.time() * 1000) if exported is None else int(exported)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + \
        f".{ms % 1000:03d}Z"
    return msgpack.packb({"appVersion": APP_VERSION, "exported": ms,
                          "profiles": [profile_data(p, stamp) for p in profiles]},
                         use_bin_type=True)


# ---------------------------------------------------------------- reading one back


@overload
def _int(v: Any, where: str, lowest: int, highest: int, none: Literal[False] = False) -> int: ...
@overload
def _int(v: Any, where: str, lowest: int, highest: int, none: Literal[True]) -> int | None: ...
def _int(v: Any, where: str, lowest: int, highest: int, none: bool = False) -> int | None:
    if v is None and none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lowest <= v <= highest:
        raise InputError(f"{where}: {v!r} is not a number from {lowest} to {highest}")
    return v


def _str(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise InputError(f"{where}: {v!r} is not text")
    return v


def _list(d: dict, key: str, where: str) -> list:
    v = d.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, dict) for x in v):
        raise InputError(f"{where}: {key!r} is not a list of objects")
    return v


def _read_weapon(w: dict, where: str) -> CrunchWeapon:
    melee = w.get("type") == "Melee"
    if w.get("type") not in ("Melee", "Ranged"):
        raise InputError(f"{where}: type {w.get('type')!r} is not Melee or Ranged")
    skill = w.get("ws" if melee else "bs")
    abilities = []
    for a in _list(w, "abilities", where):
        for alias in a.get("aliases") or ():
            if isinstance(alias, dict) and alias.get("type") == "reserved":
                try:
                    abilities.append(canonical(_str(alias.get("name"), where)))
                except InputError as e:
                    raise InputError(f"{where}: abilities: {e}"[:300]) from None
    try:
        weapon = Weapon(_str(w.get("name"), where).strip(), attacks=str(w.get("attacks")),
                        skill=None if skill in ("", None) else skill,
                        # the file's values as read (None where absent), for Weapon's
                        # validators to check: mypy sees only their post-check types
                        strength=w.get("strength"), ap=w.get("ap"),  # type: ignore[arg-type]
                        damage=str(w.get("damage")), abilities=tuple(abilities),
                        range="melee" if melee else 24)
    except (TypeError, ValueError) as e:
        raise InputError(f"{where}: {str(e).splitlines()[0]}") from None
    return CrunchWeapon(weapon, _int(w.get("countPerUnit"), where, 0, 100_000), False)


def loads(data: bytes, source: str = "<unitcrunch>") -> tuple[CrunchProfile, ...]:
    """The profiles of a UnitCrunch import file (this layout: :data:`APP_VERSION`), each
    weapon ``selected`` as the profile selects it; its size bounded by
    :data:`~mathhammer.limits.MAX_ARMY_FILE_BYTES`."""
    try:
        import msgpack
    except ImportError:
        raise InputError(MISSING) from None
    if len(data) > MAX_ARMY_FILE_BYTES:
        raise InputError(f"{source}: over the limit of {MAX_ARMY_FILE_BYTES} bytes "
                         "(mathhammer.limits.MAX_ARMY_FILE_BYTES)")
    try:
        top = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, TypeError, msgpack.exceptions.ExtraData,
            msgpack.exceptions.StackError, msgpack.exceptions.FormatError) as e:
        raise InputError(f"{source}: not a UnitCrunch file ({type(e).__name__})") from None
    if not isinstance(top, dict) or not isinstance(top.get("profiles"), list):
        raise InputError(f"{source}: not a UnitCrunch file (no profiles)")
    out = []
    for i, p in enumerate(_list(top, "profiles", source)):
        at = f"{source}: profiles[{i}]"
        selected = {x for k in ("weapons_selected_ranged", "weapons_selected_melee")
                    for x in (p.get(k) or ()) if isinstance(x, str)}
        units = []
        for j, u in enumerate(_list(p, "units", at)):
            types = []
            for k, m in enumerate(_list(u, "model_types", f"{at}: units[{j}]")):
                where = f"{at}: units[{j}]: model_types[{k}]"
                weapons = tuple(attrs.evolve(_read_weapon(w, f"{where}: weapons[{n}]"),
                                             selected=w.get("id") in selected)
                                for n, w in enumerate(_list(m, "weapons", where)))
                types.append(CrunchModelType(
                    _str(m.get("name"), where), _int(m.get("modelCount"), where, 1, 100_000),
                    _int(m.get("toughness"), where, 1, 100), _int(m.get("save"), where, 2, 7),
                    _int(m.get("wounds"), where, 1, 100_000),
                    _int(m.get("invuln"), where, 2, 6, True),
                    _int(m.get("ignore"), where, 2, 6, True),
                    tuple(_str(x, where) for x in m.get("keywords") or ()), weapons))
            stealth = any(isinstance(a, dict) and any(
                isinstance(x, dict) and x.get("name") == "Stealth" for x in a.get("aliases")
                or ()) for a in u.get("abilities") or ())
            units.append(CrunchUnit(_str(u.get("name"), f"{at}: units[{j}]"),
                              _int(u.get("points"), f"{at}: units[{j}]", 0, 10_000_000, True),
                              tuple(types), u.get("leader") is True, stealth))
        out.append(CrunchProfile(_str(p.get("name"), at), tuple(units)))
    return tuple(out)
