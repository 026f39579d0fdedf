"""Rule sets (``rules/10e.toml``, ``rules/11e.toml``): the edition parameters the engine reads.

A rule set file may say ``extends = "10e"`` and override tables of its parent key by key.

>>> r = load_ruleset("10e")
>>> r.hit_modifier_cap, r.wound_table["equal"], r.cover_effect
(1, 4, 'save')
>>> load_ruleset("11e").cover_effect
'skill'
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import attrs

from .cache import cached
from .data import data_dir


@attrs.frozen
class RuleSet:
    """The parameters of one rule set, read from its TOML file."""

    name: str
    description: str
    hit_modifier_cap: int
    unmodified_fail: int
    overwatch_hits_on: int
    overwatch_rerolls: bool
    wound_modifier_cap: int
    wound_table: dict[str, int] = attrs.field(hash=False)  # compared, but a dict can't hash
    save_improve_cap: int
    cover_effect: str
    cover_exempt_save: int
    stealth_effect: str
    blast_per_models: int
    lethal_optional: bool
    devastating_excess_lost: bool
    hazard_fails_on: int
    hazard_mortal_wounds: int
    hazard_mortal_wounds_monster_vehicle: int
    toughness_mixed: str
    data: dict[str, Any] = attrs.field(eq=False, hash=False, repr=False)

    def required_wound_roll(self, strength: int, toughness: int) -> int:
        """The Wound roll needed for Strength against Toughness.

        >>> [load_ruleset("10e").required_wound_roll(s, 4) for s in (2, 3, 4, 5, 8)]
        [6, 5, 4, 3, 2]
        """
        t = self.wound_table
        if strength >= 2 * toughness:
            return t["double"]
        if strength > toughness:
            return t["greater"]
        if strength == toughness:
            return t["equal"]
        if 2 * strength <= toughness:
            return t["half"]
        return t["lesser"]


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _path(name_or_path: str) -> Path:
    path = Path(name_or_path)
    if not path.suffix:
        path = data_dir("rules") / f"{name_or_path}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in data_dir("rules").glob("*.toml") if is_ruleset_file(p))
        raise ValueError(f"unknown rule set {name_or_path!r}; known: {', '.join(known)}")
    return path.resolve()


@cached(maxsize=64)
def _parse(path: Path, _mtime_ns: int, _size: int) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: cannot read rule set: {e}") from None


def _chain(name_or_path: str) -> tuple[tuple[Path, int, int], ...]:
    """The file of a rule set and those it extends: (path, mtime, size), child first."""
    out: list[tuple[Path, int, int]] = []
    current: Any = name_or_path
    while current is not None:
        path = _path(current) if not out else _path_from(out[-1][0], current)
        if any(path == p for p, _m, _s in out):
            raise ValueError(f"{out[-1][0]}: extends: circular reference to {current!r}")
        st = path.stat()
        out.append((path, st.st_mtime_ns, st.st_size))
        current = _parse(*out[-1]).get("extends")
    return tuple(out)


def _path_from(child: Path, parent: Any) -> Path:
    if not isinstance(parent, str):
        raise ValueError(f"{child}: extends: expected a rule set name or path, got {parent!r}")
    relative = child.parent / parent
    return relative.resolve() if Path(parent).suffix and relative.is_file() else _path(parent)


def is_ruleset_file(path: Path) -> bool:
    try:
        head = path.read_text(encoding="utf-8")
    except OSError:
        return False
    return "\n[hit]" in head or "\nextends" in head


_FIELDS = {
    "hit_modifier_cap": ("hit", "modifier_cap", int),
    "unmodified_fail": ("hit", "unmodified_fail", int),
    "overwatch_hits_on": ("hit", "overwatch_hits_on", int),
    "overwatch_rerolls": ("hit", "overwatch_rerolls", bool),
    "wound_modifier_cap": ("wound", "modifier_cap", int),
    "wound_table": ("wound", "table", dict),
    "save_improve_cap": ("save", "improve_cap", int),
    "cover_effect": ("cover", "effect", ("save", "skill")),
    "cover_exempt_save": ("cover", "exempt_save", int),
    "stealth_effect": ("stealth", "effect", ("hit", "cover")),
    "blast_per_models": ("blast", "per_models", int),
    "lethal_optional": ("lethal_hits", "optional", bool),
    "devastating_excess_lost": ("devastating_wounds", "excess_lost", bool),
    "hazard_fails_on": ("hazardous", "fails_on", int),
    "hazard_mortal_wounds": ("hazardous", "mortal_wounds", int),
    "hazard_mortal_wounds_monster_vehicle": ("hazardous", "mortal_wounds_monster_vehicle", int),
    "toughness_mixed": ("toughness", "mixed", ("bodyguard", "highest")),
}


def load_ruleset(name_or_path: str = "10e") -> RuleSet:
    """Load a rule set by name (``"10e"``, ``"11e"``) or by path to a TOML file. Cached on the
    content of the files (an edited file is read again)."""
    return _build(_chain(name_or_path))


@cached(maxsize=16)
def _build(chain: tuple[tuple[Path, int, int], ...]) -> RuleSet:
    raw: dict = {}
    for entry in reversed(chain):
        raw = _merge(raw, {k: v for k, v in _parse(*entry).items() if k != "extends"})
    path = chain[0][0]
    values: dict[str, Any] = {}
    for field, (table, key, kind) in _FIELDS.items():
        value = raw.get(table, {}).get(key)
        where = f"{path}: {table}.{key}"
        if value is None:
            raise ValueError(f"{where}: missing")
        if isinstance(kind, tuple):
            if value not in kind:
                raise ValueError(f"{where}: expected one of {', '.join(kind)}, got {value!r}")
        elif kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{where}: expected an integer, got {value!r}")
        elif not isinstance(value, kind):
            raise ValueError(f"{where}: expected {kind.__name__}, got {value!r}")
        values[field] = value
    table = values["wound_table"]
    for key in ("double", "greater", "equal", "lesser", "half"):
        if not isinstance(table.get(key), int) or not 2 <= table[key] <= 6:
            raise ValueError(f"{path}: wound.table.{key}: expected 2 to 6, got {table.get(key)!r}")
    return RuleSet(
        # a file that extends another is named by its own name (or file name), not its parent's
        name=_parse(*chain[0]).get("name", path.stem), description=raw.get("description", ""),
        data=raw, **values
    )
