"""A unit file (``units/**/*.toml``) read and validated into a
:class:`~mathhammer.data.units.unit.Unit`.

The schema is documented in ``units/README.md``; every error is one line that names the file,
the field and the value (:class:`Reader`).

>>> unit = loads_unit('''name = "Sentry"
... faction = "Example"
... [[models]]
... count = [1, 3]
... toughness = 5
... save = "3+"
... wounds = 4
... [[models.weapons]]
... name = "Gun"
... range = 24
... attacks = "D6"
... skill = "4+"
... strength = 5
... ap = -1
... damage = 2''', "sentry.toml")
>>> unit.describe(), unit.weapons()[0].weapon.attacks
('Sentry (Example): 1-3 x T5 Sv3+ W4', 'D6')

Why one module over 400 lines: it is the schema of ``units/README.md`` read table by table
(unit, model groups, weapons, make-ups, points, ability texts), every check one line through
one :class:`Reader`; split apart, each part would carry the Reader and the limits again.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import attrs

from ...errors import InputError
from ...limits import (
    MAX_MODELS,
    MAX_TOUGHNESS,
    MAX_UNIT_FILE_BYTES,
    MAX_WEAPONS,
    MAX_WOUNDS,
    check_bytes,
    loads_toml,
    over,
    read_toml,
)
from ...model.abilities import canonical
from ...model.profiles import Weapon
from ...prob.dice import format_dice
from ..store.data_folder import EDITIONS
from .unit import ModelGroup, Origin, Unit, UnitWeapon, canonical_core, show

#: What an imported file carries where the page gave no number; loading it is an error.
PLACEHOLDER = "?"
#: How a unit file that is not valid TOML is reported (``x.toml: invalid TOML: ...``).
INVALID = "invalid TOML"
DICE = "an integer >= 1 or a dice expression (D3, D6, 2D6, D6+3, 2D3+1)"


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
        """An int from ``lo`` to ``hi``; ``limit`` names the constant of mathhammer.limits
        that ``hi`` is."""
        if limit and hi is not None and isinstance(value, int) and not isinstance(value, bool) \
                and value > hi:
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


# ---------------------------------------------------------------------------------------------
# The unit-file schema

_UNIT_REQUIRED = ("name", "faction", "models")
_UNIT_OPTIONAL = ("keywords", "faction_keywords", "aliases", "archetype", "description", "source",
                  "leads", "joins", "abilities", "points", "compositions", "origin")
#: the fields of a unit file's ``[origin]`` (where a unit imported from the data came from)
_ORIGIN_KEYS = ("edition", "file", "entry", "catalogue", "revision")
#: the most make-ups a unit file may list (``compositions``)
MAX_COMPOSITIONS = 1000
_ABILITY_KEYS = ("core", "faction", "datasheet", "text")
#: the longest ability text a unit file may hold (characters)
MAX_ABILITY_TEXT = 20_000
_GROUP_REQUIRED = ("count", "toughness", "save", "wounds")
_GROUP_OPTIONAL = ("name", "move", "leadership", "oc", "invuln", "fnp", "weapons")
_WEAPON_REQUIRED = ("name", "range", "attacks", "skill", "strength", "ap", "damage")
_WEAPON_OPTIONAL = ("abilities", "optional", "unmapped", "count", "profile_of", "max",
                    "slot", "slot_max")


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
    counts = _by_size(r, f"{path}.count", raw.get("count", []), 0)
    count = counts[0] if len(counts) == 1 and counts[0] >= 1 else None
    if len(counts) == 1 and count is None:
        raise r.bad(f"{path}.count", "an integer >= 1", raw["count"])
    most = _by_size(r, f"{path}.max", raw.get("max", []), 0)
    profile_of = r.text(f"{path}.profile_of", raw["profile_of"]) if "profile_of" in raw else None
    slot = r.text(f"{path}.slot", raw["slot"]) if "slot" in raw else None
    slot_max = _by_size(r, f"{path}.slot_max", raw.get("slot_max", []), 0)
    if (slot is None) != (not slot_max):
        raise r.fail(path, "slot and slot_max go together (a shared slot and its maximum)")
    # keywords an importer could not map: kept for the player to read, no effect on numbers
    r.texts(f"{path}.unmapped", raw.get("unmapped", []), lambda p, v: v)
    try:
        weapon = Weapon(name, attacks=attacks, skill=skill, strength=strength, ap=ap,
                        damage=damage, abilities=abilities, range=rng)
    except ValueError as e:  # pragma: no cover - the checks above are stricter
        raise r.fail(path, str(e)) from None
    if len(counts) > 1:
        count = counts[0] or None
    return UnitWeapon(weapon, optional, count, profile_of,
                      counts if len(counts) > 1 else (), most, slot, slot_max)


def _by_size(r: Reader, path: str, value: Any, lo: int) -> tuple[int, ...]:
    """A number, or a list of numbers (one per size of the group from its smallest)."""
    if isinstance(value, list):
        if len(value) > MAX_MODELS:
            raise r.bad(path, f"at most {MAX_MODELS} numbers", f"{len(value)} numbers")
        return tuple(r.integer(f"{path}[{i}]", v, lo) for i, v in enumerate(value))
    return (r.integer(path, value, lo),)



def _group(r: Reader, path: str, raw: Any, unit_name: str, core_fnp: int | None,
           least: int = 1) -> ModelGroup:
    """One ``[[models]]`` table; ``least`` is the fewest models its count may give (0 in a unit
    whose ``compositions`` say how its groups share its size)."""
    raw = r.table(path, raw, _GROUP_REQUIRED, _GROUP_OPTIONAL)
    count = raw["count"]
    if isinstance(count, list):
        if len(count) != 2:
            raise r.bad(f"{path}.count", "a number of models or [min, max]", count)
        lo = r.integer(f"{path}.count[0]", count[0], least, MAX_MODELS, "MAX_MODELS")
        hi = r.integer(f"{path}.count[1]", count[1], max(lo, 1), MAX_MODELS, "MAX_MODELS")
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
    carried = tuple(_weapon(r, f"{path}.weapons[{i}]", w) for i, w in enumerate(weapons))
    return ModelGroup(
        name=r.text(f"{path}.name", raw["name"]) if "name" in raw else unit_name,
        min_models=lo, max_models=hi,
        toughness=r.integer(f"{path}.toughness", raw["toughness"], 1, MAX_TOUGHNESS,
                            "MAX_TOUGHNESS"),
        save=cast(int, r.xplus(f"{path}.save", raw["save"], 2, 7)),  # na=False: never None
        wounds=r.integer(f"{path}.wounds", raw["wounds"], 1, MAX_WOUNDS, "MAX_WOUNDS"),
        move=opt("move", r.inches),
        leadership=opt("leadership", lambda p, v: r.xplus(p, v, 2, 12)),
        oc=opt("oc", lambda p, v: r.integer(p, v, 0)),
        invuln=opt("invuln", lambda p, v: r.xplus(p, v, 2, 6)),
        fnp=fnp if fnp is not None else core_fnp,
        weapons=carried,
    )


def _origin(r: Reader, raw: Any, name: str, path: Path | None) -> Origin:
    """A unit file's ``[origin]`` (a unit imported from the data: its edition, data file and
    entry), else the unit file itself."""
    if raw is None:
        return Origin(file=path.name, entry=name) if path is not None else Origin()
    table = r.table("origin", raw, (), _ORIGIN_KEYS)
    got = {k: r.text(f"origin.{k}", v) for k, v in table.items()}
    if got.get("edition", "") not in ("", *EDITIONS):
        raise r.bad("origin.edition", f"one of {', '.join(EDITIONS)}", got["edition"])
    if got.get("edition") and not got.get("file"):
        raise r.fail("origin", "an edition needs the data file (origin.file)")
    return Origin(**got)


def build_unit(raw: dict, source: str = "<unit>", path: Path | None = None) -> Unit:
    """Validate a parsed unit file (a dict) and build the :class:`Unit`.

    >>> build_unit({"name": "X", "faction": "F", "models": [{"count": 1, "toughness": 31,
    ...             "save": "3+", "wounds": 1}]}, "x.toml")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: models[0].toughness: 31 is over the limit of 30 (mathha...
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
    least = 0 if "compositions" in raw else 1
    made = tuple(_group(r, f"models[{i}]", g, name, fnps[0] if fnps else None, least)
                 for i, g in enumerate(groups))
    origin = _origin(r, raw.get("origin"), name, path)
    unit = Unit(
        name=name,
        faction=r.text("faction", raw["faction"]),
        groups=made,
        compositions=_compositions(r, raw.get("compositions"), made),
        keywords=r.texts("keywords", raw.get("keywords", []), lambda p, v: r.text(p, v).upper()),
        faction_keywords=r.texts("faction_keywords", raw.get("faction_keywords", []),
                                 lambda p, v: r.text(p, v).upper()),
        core=core,
        faction_abilities=r.texts("abilities.faction", abilities.get("faction", [])),
        datasheet_abilities=r.texts("abilities.datasheet", abilities.get("datasheet", [])),
        leads=r.texts("leads", raw.get("leads", [])),
        joins=r.texts("joins", raw.get("joins", [])),
        archetype=r.boolean("archetype", raw.get("archetype", False)),
        aliases=r.texts("aliases", raw.get("aliases", [])),
        description=r.text("description", raw["description"]) if "description" in raw else "",
        source=r.text("source", raw["source"]) if "source" in raw else origin.text(),
        origin=origin,
        path=path,
        ability_texts=_ability_texts(r, abilities.get("text", [])),
    )
    if (unit.leads or unit.joins) and not unit.leader:
        key = "leads" if unit.leads else "joins"
        raise r.fail(key, f'only a unit with the core ability "Leader" leads units, '
                          f"got {show(list(getattr(unit, key)))}")
    return attrs.evolve(unit, points=_points(r, raw.get("points", []), unit.size))


def _compositions(r: Reader, raw: Any, groups: tuple[ModelGroup, ...]
                  ) -> tuple[tuple[int, ...], ...]:
    """``compositions``: the make-ups of the unit, each the models of every group (in the
    order of ``[[models]]``), within each group's count, the first of each size its unit of
    that size (the datasheet's, the first of all its unit by default).

    >>> boy = ModelGroup("Boy", 9, 19, toughness=5, save=5, wounds=1)
    >>> nob = ModelGroup("Boss Nob", 1, 1, toughness=5, save=5, wounds=2)
    >>> _compositions(Reader("boyz.toml"), [[9, 1], [19, 1]], (boy, nob))
    ((9, 1), (19, 1))
    >>> _compositions(Reader("boyz.toml"), [[9, 1], [10]], (boy, nob))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: boyz.toml: compositions[1]: expected 2 numbers (one per model...
    """
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw:
        raise r.bad("compositions", "a non-empty list of lists of model counts", raw)
    if len(raw) > MAX_COMPOSITIONS:
        raise r.fail("compositions", f"{len(raw)} make-ups is over the limit of "
                     f"{MAX_COMPOSITIONS} (mathhammer.data.units.file.MAX_COMPOSITIONS)")
    out: list[tuple[int, ...]] = []
    for i, counts in enumerate(raw):
        path = f"compositions[{i}]"
        if not isinstance(counts, list) or len(counts) != len(groups):
            raise r.bad(path, f"{len(groups)} numbers (one per model group)", counts)
        made = tuple(r.integer(f"{path}[{k}]", n, g.min_models, g.max_models)
                     for k, (n, g) in enumerate(zip(counts, groups, strict=True)))
        if not sum(made):
            raise r.bad(path, "at least one model", counts)
        if made in out:
            raise r.fail(path, f"{list(made)} listed twice")
        out.append(made)
    return tuple(out)


def make_up(raw: dict, models: int | None = None) -> list[int] | None:
    """The models of each group of a unit file's unit of ``models`` models (its default when
    None), as its ``compositions`` give it; None without them or without one of that size.

    >>> raw = {"compositions": [[9, 1], [10, 1], [19, 1]]}
    >>> make_up(raw), make_up(raw, 11), make_up(raw, 12), make_up({})
    ([9, 1], [10, 1], None, None)
    """
    made = raw.get("compositions") or []
    return next((list(c) for c in made if models is None or sum(c) == models), None)


def _ability_texts(r: Reader, raw: Any) -> tuple[tuple[str, str], ...]:
    """``[[abilities.text]]``: each ability's ``name`` and ``text`` (what the rules from data
    read).

    >>> _ability_texts(Reader("x.toml"), [{"name": "Fury", "text": ""}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: abilities.text[0].text: expected a non-empty string, ...
    """
    if not isinstance(raw, list):
        raise r.bad("abilities.text", "a list of {name = ..., text = ...} tables", raw)
    out: list[tuple[str, str]] = []
    for i, entry in enumerate(raw):
        path = f"abilities.text[{i}]"
        entry = r.table(path, entry, ("name", "text"), ())
        text = r.text(f"{path}.text", entry["text"])
        if len(text) > MAX_ABILITY_TEXT:
            raise r.fail(f"{path}.text", f"{len(text)} characters is over the limit of "
                         f"{MAX_ABILITY_TEXT} (mathhammer.data.units.file.MAX_ABILITY_TEXT)")
        pair = (r.text(f"{path}.name", entry["name"]), text)
        if pair not in out:
            out.append(pair)
    return tuple(out)


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
    return build_unit(loads_toml(text, source, INVALID), source, path)


def read_unit_file(path: Path, shown: str | None = None) -> Unit:
    """Read, parse and validate a unit file; errors name it as ``shown`` (else its path).

    >>> read_unit_file(Path("/dev/null"), "empty.toml")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: empty.toml: name: missing
    """
    shown = str(path) if shown is None else shown
    raw = read_toml(path, MAX_UNIT_FILE_BYTES, "MAX_UNIT_FILE_BYTES", "unit file", shown,
                    invalid=INVALID)
    return build_unit(raw, shown, path)
