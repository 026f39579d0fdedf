"""Datasheets as data: ``units/**/*.toml`` loaded into small, validated, frozen values.

Why one module: the unit-file schema, its validation and the Unit value are one format, read
and written by the same field table.

The schema is documented in ``units/README.md``. A :class:`Unit` is what ``mh.attack`` accepts
on either side: :meth:`Unit.as_profiles` gives the weapons that fire in a phase with how many
models carry each, :meth:`Unit.as_target` the defending profile.

>>> cronos = load_unit("cronos")
>>> [(w.name, n) for w, n in cronos.as_profiles(weapons=["spirit v", "spirit s"], models=2)]
[('Spirit vortex', 2), ('Spirit syphon', 2)]
>>> t = load_unit("TEQ").as_target()
>>> (t.models, t.toughness, t.save, t.invuln, t.wounds)
(5, 5, 2, 4, 3)
"""

from __future__ import annotations

import difflib
import json
import os
import re
import tomllib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import attrs

from ..cache import cached
from ..errors import InputError
from ..model.abilities import canonical
from ..model.limits import (
    MAX_MODELS,
    MAX_UNIT_FILE_BYTES,
    MAX_WEAPONS,
    MAX_WOUNDS,
    check_bytes,
    over,
    read_limited,
)
from ..model.profiles import Target, Weapon
from ..prob.dice import format_dice
from .paths import data_dir

#: What an imported file carries where the page gave no number; loading it is an error.
PLACEHOLDER = "?"
DICE = "an integer >= 1 or a dice expression (D3, D6, 2D6, D6+3, 2D3+1)"

# ---------------------------------------------------------------------------------------------
# Core and faction abilities of a unit (weapon abilities are mathhammer.model.abilities)

#: The core abilities of the 10th edition without a parameter, in their printed spelling.
CORE_FLAGS = ("Deep Strike", "Fights First", "Hover", "Infiltrators", "Leader", "Lone Operative",
              "Stealth")
#: Core abilities with a parameter.
CORE_PARAMETRISED = ("Deadly Demise X", "Feel No Pain X+", "Firing Deck X", 'Scouts X"')
_CORE_FLAG = {c.lower(): c for c in CORE_FLAGS}
_DEADLY = re.compile(r"^deadly demise\s+(.+)$")
_FNP = re.compile(r"^feel no pain\s+(\d+)\+$")
_FIRING = re.compile(r"^firing deck\s+(\d+)$")
_SCOUTS = re.compile(r"^scouts\s+(\d+)\s*(?:\"|”|'')?$")
#: Faction abilities that change the numbers (any other faction ability is kept as a name).
REANIMATION = "Reanimation Protocols"


def canonical_core(text: str) -> str:
    """Check one core ability and return its printed spelling.

    >>> canonical_core("feel no pain 5+"), canonical_core("DEADLY DEMISE d3")
    ('Feel No Pain 5+', 'Deadly Demise D3')
    >>> canonical_core("Sneaky")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown core ability "Sneaky"; known: Deep Strike, Fights Firs...
    """
    t = " ".join(str(text).lower().split())
    if t in _CORE_FLAG:
        return _CORE_FLAG[t]
    if m := _DEADLY.match(t):
        try:
            return f"Deadly Demise {format_dice(m.group(1))}"
        except ValueError:
            raise InputError(f"bad core ability {show(text)}: Deadly Demise needs a number "
                             f"or dice expression") from None
    if (m := _FNP.match(t)) and 2 <= int(m.group(1)) <= 6:
        return f"Feel No Pain {int(m.group(1))}+"
    if m := _FIRING.match(t):
        return f"Firing Deck {int(m.group(1))}"
    if m := _SCOUTS.match(t):
        return f'Scouts {int(m.group(1))}"'
    known = ", ".join(CORE_FLAGS + CORE_PARAMETRISED)
    if t.startswith("feel no pain"):
        raise InputError(f"bad core ability {show(text)}: "
                         "expected Feel No Pain X+ with X from 2 to 6")
    raise InputError(f"unknown core ability {show(text)}; known: {known}")


# ---------------------------------------------------------------------------------------------
# Value types


@attrs.frozen
class UnitWeapon:
    """A weapon a model group carries; ``optional`` wargear fires only when picked by name."""

    weapon: Weapon
    optional: bool = False
    #: how many of the group's models carry it (an army list's exact wargear); None: all
    count: int | None = None

    @property
    def name(self) -> str:
        return self.weapon.name

    @property
    def melee(self) -> bool:
        return self.weapon.melee


@attrs.frozen
class ModelGroup:
    """Models of one profile in a unit: ``min_models``-``max_models`` of them, X+ values as ints."""

    name: str
    min_models: int
    max_models: int
    toughness: int
    save: int
    wounds: int
    move: int | None = None
    leadership: int | None = None
    oc: int | None = None
    invuln: int | None = None
    fnp: int | None = None
    weapons: tuple[UnitWeapon, ...] = ()

    def statline(self) -> str:
        """The characteristics as printed, e.g. ``"M8 T5 Sv3+ W5 Ld6+ OC1"``."""
        parts = [f"M{self.move}" if self.move is not None else "",
                 f"T{self.toughness}", f"Sv{self.save}+",
                 f"{self.invuln}++" if self.invuln else "", f"W{self.wounds}",
                 f"Ld{self.leadership}+" if self.leadership is not None else "",
                 f"OC{self.oc}" if self.oc is not None else "",
                 f"FNP{self.fnp}+" if self.fnp else ""]
        return " ".join(p for p in parts if p)


@attrs.frozen
class Unit:
    """One datasheet (or a standard target when ``archetype`` is true).

    ``groups`` are the model groups, the first one the main group; ``points`` pairs a unit
    size with its cost; ``core``, ``faction_abilities`` and ``datasheet_abilities`` hold the
    ability names as printed.
    """

    name: str
    faction: str
    groups: tuple[ModelGroup, ...]
    keywords: tuple[str, ...] = ()
    faction_keywords: tuple[str, ...] = ()
    core: tuple[str, ...] = ()
    faction_abilities: tuple[str, ...] = ()
    datasheet_abilities: tuple[str, ...] = ()
    leads: tuple[str, ...] = ()
    points: tuple[tuple[int, int], ...] = ()
    archetype: bool = False
    aliases: tuple[str, ...] = ()
    description: str = ""
    source: str = ""
    path: Path | None = attrs.field(default=None, eq=False, repr=False)

    # -- abilities that change the numbers ------------------------------------------------

    @property
    def stealth(self) -> bool:
        return "Stealth" in self.core

    @property
    def leader(self) -> bool:
        return "Leader" in self.core

    @property
    def reanimation(self) -> bool:
        """The unit has Reanimation Protocols (it reanimates D3 wounds each Command phase)."""
        return any(a.lower() == REANIMATION.lower() for a in self.faction_abilities)

    @property
    def deadly_demise(self) -> str | None:
        """The X of Deadly Demise X (a dice expression), or None."""
        for c in self.core:
            if c.startswith("Deadly Demise "):
                return c.removeprefix("Deadly Demise ")
        return None

    @property
    def size(self) -> tuple[int, int]:
        """The smallest and largest number of models in the unit."""
        return sum(g.min_models for g in self.groups), sum(g.max_models for g in self.groups)

    # -- what the engine reads ------------------------------------------------------------

    def weapons(self, melee: bool | None = None) -> list[UnitWeapon]:
        """All weapons in file order, optionally only the melee (True) or ranged (False) ones."""
        return [w for g in self.groups for w in g.weapons if melee is None or w.melee == melee]

    def as_profiles(self, melee: bool = False, weapons: Iterable[str] | None = None,
                    models: int | None = None) -> list[tuple[Weapon, int]]:
        """The ``(weapon, models carrying it)`` pairs that fire in the shooting (or fight) phase.

        Without ``weapons`` every non-optional weapon of the phase fires, in file order;
        ``weapons`` picks by name (case-insensitive, a unique prefix is enough; optional wargear
        too), in the order given. ``models`` overrides the size of the first (main) group.

        >>> [(w.name, n) for w, n in load_unit("Hexmark Destroyer").as_profiles(melee=True)]
        [('Close combat weapon', 1)]
        """
        counts = self._counts(models)
        carried = [(w, counts[i] if w.count is None
                     else max(1, w.count * counts[i] // g.min_models))
                   for i, g in enumerate(self.groups) for w in g.weapons
                   if w.melee == bool(melee)]
        phase = "melee" if melee else "ranged"
        if not carried:
            raise InputError(f"{self.name} has no {phase} weapons")
        if weapons is None:
            chosen = [(w, n) for w, n in carried if not w.optional]
        else:
            if isinstance(weapons, str):
                weapons = [weapons]
            chosen = []
            for query in weapons:
                others = [w.name for w in self.weapons(not melee)]
                for pick in _pick(str(query), carried, phase, self.name, others):
                    if pick not in chosen:
                        chosen.append(pick)
        return [(w.weapon, n) for w, n in chosen]

    def cost(self, models: int | None = None) -> int | None:
        """The unit's points with ``models`` in its main group (its smallest size by default);
        None when the datasheet gives no cost for that size.

        >>> load_unit("Necron Warriors").cost(20) > load_unit("Necron Warriors").cost()
        True
        """
        table = dict(self.points or ())
        if not table:
            return None
        first = self.groups[0]
        return table.get(self.size[0] - first.min_models
                         + (models if models is not None else first.min_models))

    def as_target(self, models: int | None = None) -> Target:
        """The defending profile: the first (main) model group with the unit's keywords.

        >>> t = load_unit("Cronos").as_target(models=2)
        >>> (t.models, t.toughness, t.save, t.wounds, t.fnp, t.keywords[0])
        (2, 7, 3, 7, 5, 'MONSTER')
        """
        g = self.groups[0]
        return Target(models=self._counts(models)[0], toughness=g.toughness, save=g.save,
                      wounds=g.wounds, invuln=g.invuln, fnp=g.fnp, keywords=self.keywords,
                      abilities=self._target_abilities(), name=self.name)

    def _target_abilities(self) -> list[str]:
        """The unit's abilities that change the numbers of attacks against it."""
        out = ["stealth"] if self.stealth else []
        if self.reanimation:
            out.append("reanimation protocols")
        if self.deadly_demise:
            out.append(f"deadly demise {self.deadly_demise}")
        return out

    def _counts(self, models: int | None) -> list[int]:
        counts = [g.min_models for g in self.groups]
        if models is not None:
            top = self.groups[0].max_models
            if isinstance(models, bool) or not isinstance(models, int) or not 1 <= models <= top:
                raise InputError(f"models: expected an integer from 1 to {top} for {self.name}, "
                                 f"got {show(models)}")
            counts[0] = models
        return counts

    def describe(self) -> str:
        """One line: ``"Cronos (Drukhari): 1-2 x M7 T7 Sv3+ W7 Ld7+ OC2 FNP5+"``."""
        parts = []
        for g in self.groups:
            n = f"{g.min_models}-{g.max_models}" if g.min_models < g.max_models else g.min_models
            parts.append(f"{n} x {g.statline()}")
        return f"{self.name} ({self.faction}): {'; '.join(parts)}"


def _pick(query: str, carried: list, phase: str, unit: str, others: list[str]) -> list:
    """The carried weapons a name picks: exact names first, else a unique prefix."""
    q = _norm(query)
    exact = [(w, n) for w, n in carried if _norm(w.name) == q]
    found = exact or [(w, n) for w, n in carried if _norm(w.name).startswith(q)]
    names = sorted({w.name for w, _ in found})
    if len(names) == 1:
        return found
    known = list(dict.fromkeys(w.name for w, _ in carried))
    if names:
        raise InputError(f"weapons: {show(query)} is ambiguous for {unit}: "
                         f"matches {', '.join(names)}")
    other = [n for n in others if _norm(n).startswith(q)]
    hint = f"{phase} weapons: {', '.join(known)}"
    if other:
        hint += f" ({other[0]} is a {'ranged' if phase == 'melee' else 'melee'} weapon)"
    raise InputError(f"weapons: {unit} has no {phase} weapon {show(query)}; {hint}")


# ---------------------------------------------------------------------------------------------
# Validation of the raw TOML


def show(value: Any) -> str:
    """A value as it would be written in TOML: strings in double quotes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | list | dict):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


class Reader:
    """Checks raw TOML values; every error is one line ``source: field.path: message``."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, message: str) -> ValueError:
        return InputError(f"{self.source}: {path}: {message}" if path
                          else f"{self.source}: {message}")

    def bad(self, path: str, expected: str, value: Any) -> ValueError:
        if value == PLACEHOLDER:
            return self.fail(path, f"placeholder {show(value)}: "
                                   "fill in the value from the datasheet")
        return self.fail(path, f"expected {expected}, got {show(value)}")

    def table(self, path: str, value: Any, required: tuple[str, ...],
              optional: tuple[str, ...]) -> dict:
        if not isinstance(value, dict):
            raise self.bad(path, "a table", value)
        known = required + optional
        for key in value:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f"did you mean {show(close[0])}?" if close else f"known: {', '.join(known)}"
                raise self.fail(_join(path, key), f"unknown key {show(key)}; {hint}")
        for key in required:
            if key not in value:
                raise self.fail(_join(path, key), "missing")
        return value

    def integer(self, path: str, value: Any, lo: int, hi: int | None = None,
                limit: str = "") -> int:
        """An int from ``lo`` to ``hi``; ``limit`` names the constant of mathhammer.model.limits
        that ``hi`` is."""
        if limit and isinstance(value, int) and not isinstance(value, bool) and value > hi:
            raise self.fail(path, str(over("", value, hi, limit))[2:])
        if isinstance(value, bool) or not isinstance(value, int) or value < lo or (
                hi is not None and value > hi):
            rng = (f"an integer from {lo} to {hi}" if hi is not None and not limit
                   else f"an integer >= {lo}")
            raise self.bad(path, rng, value)
        return value

    def xplus(self, path: str, value: Any, lo: int, hi: int, na: bool = False) -> int | None:
        """An X+ characteristic: ``"3+"`` or ``3``; ``"N/A"`` (None) where ``na``."""
        if na and isinstance(value, str) and value.strip().upper() == "N/A":
            return None
        n = value
        if isinstance(value, str) and re.fullmatch(r"\s*\d+\+\s*", value):
            n = int(value.strip()[:-1])
        if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
            raise self.bad(path, f'{lo}+ to {hi}+ (e.g. "{lo + 1}+"){" or N/A" if na else ""}',
                           value)
        return n

    def inches(self, path: str, value: Any) -> int:
        if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*(\"|”|'')?\s*", value):
            value = int(re.sub(r"\D", "", value))
        return self.integer(path, value, 0)

    def dice(self, path: str, value: Any) -> str:
        try:
            text = format_dice(value)
        except ValueError:
            text = "0"
        if text == "0":
            raise self.bad(path, DICE, value)
        return text

    def text(self, path: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip() or value.strip() == PLACEHOLDER:
            raise self.bad(path, "a non-empty string", value)
        return value.strip()

    def texts(self, path: str, value: Any, item: Callable[[str, Any], str] | None = None
              ) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.bad(path, "a list of strings", value)
        item = item or self.text
        out: list[str] = []
        for i, v in enumerate(value):
            t = item(f"{path}[{i}]", v)
            if t not in out:
                out.append(t)
        return tuple(out)

    def boolean(self, path: str, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.bad(path, "true or false", value)
        return value

    def via(self, path: str, value: Any, check: Callable[[str], str]) -> str:
        """A string checked by ``check`` (which raises ValueError with its own message)."""
        self.text(path, value)
        try:
            return check(value)
        except ValueError as e:
            raise self.fail(path, str(e)) from None


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


_UNIT_REQUIRED = ("name", "faction", "models")
_UNIT_OPTIONAL = ("keywords", "faction_keywords", "aliases", "archetype", "description", "source",
                  "leads", "abilities", "points")
_ABILITY_KEYS = ("core", "faction", "datasheet")
_GROUP_REQUIRED = ("count", "toughness", "save", "wounds")
_GROUP_OPTIONAL = ("name", "move", "leadership", "oc", "invuln", "fnp", "weapons")
_WEAPON_REQUIRED = ("name", "range", "attacks", "skill", "strength", "ap", "damage")
_WEAPON_OPTIONAL = ("abilities", "optional", "unmapped", "count")


def _weapon(r: Reader, path: str, raw: Any) -> UnitWeapon:
    raw = r.table(path, raw, _WEAPON_REQUIRED, _WEAPON_OPTIONAL)
    name = r.text(f"{path}.name", raw["name"])
    rng = raw["range"]
    if isinstance(rng, str) and rng.strip().lower() == "melee":
        rng = "melee"
    else:
        try:
            rng = r.inches(f"{path}.range", rng)
            if rng < 1:
                raise ValueError
        except ValueError:
            raise r.bad(f"{path}.range", '"melee" or inches >= 1', raw["range"]) from None
    attacks = r.dice(f"{path}.attacks", raw["attacks"])
    skill = r.xplus(f"{path}.skill", raw["skill"], 2, 6, na=True)
    strength = r.integer(f"{path}.strength", raw["strength"], 1)
    ap = raw["ap"]
    if isinstance(ap, bool) or not isinstance(ap, int) or not -6 <= ap <= 0:
        raise r.bad(f"{path}.ap", "0 or a negative integer", ap)
    damage = r.dice(f"{path}.damage", raw["damage"])
    abilities = r.texts(f"{path}.abilities", raw.get("abilities", []),
                        lambda p, v: r.via(p, v, canonical))
    if skill is None and "torrent" not in abilities:
        raise r.fail(f"{path}.skill", 'N/A is only for [torrent] weapons, got "N/A"')
    optional = r.boolean(f"{path}.optional", raw.get("optional", False))
    count = r.integer(f"{path}.count", raw["count"], 1) if "count" in raw else None
    # keywords an importer could not map: kept for the player to read, no effect on numbers
    r.texts(f"{path}.unmapped", raw.get("unmapped", []), lambda p, v: v)
    try:
        weapon = Weapon(name, attacks=attacks, skill=skill, strength=strength, ap=ap,
                        damage=damage, abilities=abilities, range=rng)
    except ValueError as e:  # pragma: no cover - the checks above are stricter
        raise r.fail(path, str(e)) from None
    return UnitWeapon(weapon, optional, count)


def _group(r: Reader, path: str, raw: Any, unit_name: str, core_fnp: int | None) -> ModelGroup:
    raw = r.table(path, raw, _GROUP_REQUIRED, _GROUP_OPTIONAL)
    count = raw["count"]
    if isinstance(count, list):
        if len(count) != 2:
            raise r.bad(f"{path}.count", "a number of models or [min, max]", count)
        lo = r.integer(f"{path}.count[0]", count[0], 1, MAX_MODELS, "MAX_MODELS")
        hi = r.integer(f"{path}.count[1]", count[1], lo, MAX_MODELS, "MAX_MODELS")
    else:
        lo = hi = r.integer(f"{path}.count", count, 1, MAX_MODELS, "MAX_MODELS")

    def opt(key: str, read: Callable[[str, Any], int | None]) -> int | None:
        return read(f"{path}.{key}", raw[key]) if key in raw else None

    fnp = opt("fnp", lambda p, v: r.xplus(p, v, 2, 6))
    weapons = raw.get("weapons", [])
    if not isinstance(weapons, list):
        raise r.bad(f"{path}.weapons", "a list of weapon tables", weapons)
    if len(weapons) > MAX_WEAPONS:
        raise r.fail(f"{path}.weapons", str(over("", f"{len(weapons)} weapons", MAX_WEAPONS,
                                                 "MAX_WEAPONS"))[2:])
    return ModelGroup(
        name=r.text(f"{path}.name", raw["name"]) if "name" in raw else unit_name,
        min_models=lo, max_models=hi,
        toughness=r.integer(f"{path}.toughness", raw["toughness"], 1, 14),
        save=r.xplus(f"{path}.save", raw["save"], 2, 7),
        wounds=r.integer(f"{path}.wounds", raw["wounds"], 1, MAX_WOUNDS, "MAX_WOUNDS"),
        move=opt("move", r.inches),
        leadership=opt("leadership", lambda p, v: r.xplus(p, v, 2, 12)),
        oc=opt("oc", lambda p, v: r.integer(p, v, 0)),
        invuln=opt("invuln", lambda p, v: r.xplus(p, v, 2, 6)),
        fnp=fnp if fnp is not None else core_fnp,
        weapons=tuple(_weapon(r, f"{path}.weapons[{i}]", w) for i, w in enumerate(weapons)),
    )


def build_unit(raw: dict, source: str = "<unit>", path: Path | None = None) -> Unit:
    """Validate a parsed unit file (a dict) and build the :class:`Unit`.

    >>> build_unit({"name": "X", "faction": "F", "models": [{"count": 1, "toughness": 15,
    ...             "save": "3+", "wounds": 1}]}, "x.toml")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: models[0].toughness: expected an integer from 1 to 14,...
    """
    r = Reader(source)
    raw = r.table("", raw, _UNIT_REQUIRED, _UNIT_OPTIONAL)
    name = r.text("name", raw["name"])
    abilities = r.table("abilities", raw.get("abilities", {}), (), _ABILITY_KEYS)
    core = r.texts("abilities.core", abilities.get("core", []),
                   lambda p, v: r.via(p, v, canonical_core))
    fnps = [int(c.split()[-1][:-1]) for c in core if c.startswith("Feel No Pain ")]
    if len(fnps) > 1:
        raise r.fail("abilities.core", f"more than one Feel No Pain, got {show(list(core))}")
    groups = raw["models"]
    if not isinstance(groups, list) or not groups:
        raise r.bad("models", "a non-empty list of model groups ([[models]])", groups)
    unit = Unit(
        name=name,
        faction=r.text("faction", raw["faction"]),
        groups=tuple(_group(r, f"models[{i}]", g, name, fnps[0] if fnps else None)
                     for i, g in enumerate(groups)),
        keywords=r.texts("keywords", raw.get("keywords", []), lambda p, v: r.text(p, v).upper()),
        faction_keywords=r.texts("faction_keywords", raw.get("faction_keywords", []),
                                 lambda p, v: r.text(p, v).upper()),
        core=core,
        faction_abilities=r.texts("abilities.faction", abilities.get("faction", [])),
        datasheet_abilities=r.texts("abilities.datasheet", abilities.get("datasheet", [])),
        leads=r.texts("leads", raw.get("leads", [])),
        archetype=r.boolean("archetype", raw.get("archetype", False)),
        aliases=r.texts("aliases", raw.get("aliases", [])),
        description=r.text("description", raw["description"]) if "description" in raw else "",
        source=r.text("source", raw["source"]) if "source" in raw else "",
        path=path,
    )
    if unit.leads and not unit.leader:
        raise r.fail("leads", f'only a unit with the core ability "Leader" leads units, '
                              f"got {show(list(unit.leads))}")
    return attrs.evolve(unit, points=_points(r, raw.get("points", []), unit.size))


def _points(r: Reader, raw: Any, size: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    if not isinstance(raw, list):
        raise r.bad("points", "a list of {models = N, cost = P} tables", raw)
    out: dict[int, int] = {}
    for i, entry in enumerate(raw):
        entry = r.table(f"points[{i}]", entry, ("models", "cost"), ())
        n = entry["models"]
        if isinstance(n, bool) or not isinstance(n, int) or not size[0] <= n <= size[1]:
            sizes = f"{size[0]}" if size[0] == size[1] else f"{size[0]} to {size[1]}"
            raise r.bad(f"points[{i}].models", f"a unit size ({sizes} models)", n)
        if n in out:
            raise r.fail(f"points[{i}].models", f"{n} models listed twice")
        out[n] = r.integer(f"points[{i}].cost", entry["cost"], 0)
    return tuple(sorted(out.items()))


def loads_unit(text: str, source: str = "<text>", path: Path | None = None) -> Unit:
    """Parse and validate the TOML text of a unit file.

    >>> loads_unit('name = "X"\\nfaction = 3', "x.toml")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: models: missing
    >>> loads_unit('name = "X" faction = "F"', "x.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: invalid TOML: Expected newline ... (at line 1, column 12)
    """
    check_bytes(text, MAX_UNIT_FILE_BYTES, "MAX_UNIT_FILE_BYTES", f"{source}: unit file")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{source}: invalid TOML: {e}") from None
    except RecursionError:
        raise InputError(f"{source}: invalid TOML: nested too deeply") from None
    return build_unit(raw, source, path)


# ---------------------------------------------------------------------------------------------
# Finding unit files


def _display(path: Path) -> str:
    """How a file is named in messages: ``units/...`` for bundled files, else as relative."""
    path = path.resolve()
    bundled = data_dir("units").resolve()
    if path.is_relative_to(bundled):
        return f"units/{path.relative_to(bundled).as_posix()}"
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


@cached(maxsize=512)
def _load_cached(path: Path, _mtime: int, _size: int) -> Unit:
    data = read_limited(path, MAX_UNIT_FILE_BYTES, "MAX_UNIT_FILE_BYTES", "unit file",
                        _display(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{_display(path)}: cannot read unit file: {e}") from None
    return loads_unit(text, _display(path), path)


def _load_path(path: Path) -> Unit:
    if not path.is_file():
        raise InputError(f"{_display(path)}: no such unit file")
    st = path.stat()
    return _load_cached(path.resolve(), st.st_mtime_ns, st.st_size)


def unit_files() -> list[Path]:
    """The bundled unit files, sorted."""
    return sorted(data_dir("units").rglob("*.toml"))


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[-_]", " ", str(text)).lower().split())


def _index() -> list[tuple[str, Unit]]:
    """(normalised name, unit) for every bundled unit's name, aliases and file name."""
    out = []
    for path in unit_files():
        unit = _load_path(path)
        for key in (unit.name, *unit.aliases, path.stem):
            out.append((_norm(key), unit))
    return out


def load_unit(path_or_name: str | Path | Unit) -> Unit:
    """A unit by file path (``.toml``) or by name or alias (case-insensitive, unique prefix ok).

    >>> load_unit("hexmark").name, load_unit("meq").name
    ('Hexmark Destroyer', 'MEQ')
    >>> load_unit("Hexmrk Destroyer")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown unit "Hexmrk Destroyer"; did you mean Hexmark Destroyer?
    """
    if isinstance(path_or_name, Unit):
        return path_or_name
    if not isinstance(path_or_name, str | os.PathLike):
        raise TypeError(f"path_or_name: expected a unit name or file path, got "
                        f"{show(path_or_name)}")
    text = str(path_or_name)
    if isinstance(path_or_name, Path) or text.endswith(".toml") or "/" in text or "\\" in text:
        return _load_path(Path(path_or_name))
    q = _norm(text)
    if not q:
        raise InputError(f"unknown unit {show(text)}: give a name or a .toml path")
    index = _index()
    for matches in ([u for k, u in index if k == q], [u for k, u in index if k.startswith(q)]):
        names = sorted({u.name for u in matches}, key=str.lower)
        if len(names) == 1:
            return matches[0]
        if names:
            raise InputError(f"ambiguous unit {show(text)}: matches {', '.join(names)}")
    keys = {k: u.name for k, u in index}
    close = list(dict.fromkeys(keys[k] for k in difflib.get_close_matches(q, keys, 5, 0.5)))
    hint = (f"did you mean {', '.join(close)}?" if close
            else f"known: {', '.join(sorted({u.name for _, u in index}))}")
    raise InputError(f"unknown unit {show(text)}; {hint}")


def list_units(faction: str | None = None, search: str | None = None,
               archetype: bool | None = None) -> list[Unit]:
    """The bundled units, sorted by faction and name; filters are case-insensitive.

    ``faction`` matches the faction name (``"adeptus-mechanicus"`` works), ``search`` a part of
    the name or an alias, ``archetype`` picks standard targets (True) or datasheets (False).

    >>> [u.name for u in list_units(faction="necrons")]
    ['Hexmark Destroyer', 'Necron Warriors']
    >>> [u.name for u in list_units(search="vehicle")]
    ['Heavy vehicle', 'Light vehicle']
    """
    units = {id(u): u for _, u in _index()}.values()
    out = []
    for u in units:
        if faction is not None and _norm(u.faction) != _norm(faction):
            continue
        if search is not None and not any(_norm(search) in _norm(k) for k in (u.name, *u.aliases)):
            continue
        if archetype is not None and u.archetype != archetype:
            continue
        out.append(u)
    return sorted(out, key=lambda u: (_norm(u.faction), _norm(u.name)))
