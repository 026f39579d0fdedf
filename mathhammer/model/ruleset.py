"""Rule sets (``rules/core/10e.toml``, ``rules/core/11e.toml``): the edition parameters the
engine reads.

A rule set file may say ``extends = "10e"`` and override tables of its parent key by key.

>>> r = load_ruleset("10e")
>>> r.hit_modifier_cap, r.wound_table["equal"], r.cover_effect
(1, 4, <CoverEffect.SAVE: 'save'>)
>>> load_ruleset("11e").cover_effect == "skill"  # the enums are strings too
True
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Any

import attrs

from ..errors import InputError
from ..limits import MAX_FLAT, MAX_MODELS, MAX_RULES_FILE_BYTES, read_toml, shorten
from ..resources import data_dir


class CoverEffect(StrEnum):
    """What the Benefit of Cover does: +1 to the saving throw (10e), or -1 to the attacker's
    BS (11e)."""

    SAVE = "save"
    SKILL = "skill"


class StealthEffect(StrEnum):
    """What Stealth does: -1 to ranged Hit rolls (10e), or the Benefit of Cover (11e)."""

    HIT = "hit"
    COVER = "cover"


class ToughnessMixed(StrEnum):
    """The Toughness of an attached unit whose models differ: the Bodyguard's (10e), or the
    highest (11e)."""

    BODYGUARD = "bodyguard"
    HIGHEST = "highest"


@attrs.frozen(cache_hash=True)  # built once per process, a key of every cached step
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
    cover_effect: CoverEffect
    cover_exempt_save: int
    stealth_effect: StealthEffect
    blast_per_models: int
    lethal_optional: bool
    devastating_excess_lost: bool
    hazard_fails_on: int
    hazard_mortal_wounds: int
    hazard_mortal_wounds_monster_vehicle: int
    toughness_mixed: ToughnessMixed
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
        path = data_dir("rules") / "core" / f"{name_or_path}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in (data_dir("rules") / "core").glob("*.toml"))
        raise InputError(f"unknown rule set {shorten(name_or_path)!r}; known: {', '.join(known)}")
    return path.resolve()


#: Kept for the process, like the imported modules: each rule-set file is parsed once per
#: process (read again when its modification time or size changes: every load looks), and the
#: rule set built from a chain of files once. :func:`mathhammer.clear_caches` forgets the
#: results computed from them, not these; at most :data:`_KEPT` of each.
_BUNDLED: dict[str, Path] = {}
_FILES: dict[tuple[Path, int, int], dict] = {}
_BUILT: dict[tuple[tuple[Path, int, int], ...], RuleSet] = {}
_KEPT = 64


def _kept(store: dict, key: Any, make: Any) -> Any:
    """``store[key]``, made by ``make(key)`` the first time (the oldest entry dropped past
    :data:`_KEPT`)."""
    if key not in store:
        value = make(key)
        if len(store) >= _KEPT:
            del store[next(iter(store))]
        store[key] = value
    return store[key]


def _found(name: str) -> Path:
    """:func:`_path` of a bundled rule set's name (letters and digits), remembered for the
    process: resolving a path costs a system call per folder; the file's own modification
    time and size are still read at every load. A path is resolved each time (a relative one
    depends on the current folder)."""
    return _kept(_BUNDLED, name, _path)


def _parse(path: Path, mtime_ns: int, size: int) -> dict:
    """The tables of one rule-set file, parsed once per process for its modification time and
    size."""
    return _kept(_FILES, (path, mtime_ns, size), lambda key: read_toml(
        key[0], MAX_RULES_FILE_BYTES, "MAX_RULES_FILE_BYTES", "rule set"))


def _chain(name_or_path: str) -> tuple[tuple[Path, int, int], ...]:
    """The file of a rule set and those it extends: (path, mtime, size), child first. A cycle
    is found by resolved path."""
    out: list[tuple[Path, int, int]] = []
    current: Any = name_or_path
    while current is not None:
        path = (_path_from(out[-1][0], current) if out else _found(current)
                if isinstance(current, str) and current.isalnum() else _path(current))
        if any(path == p for p, _m, _s in out):
            chain = " -> ".join(p.name for p in (*(p for p, _m, _s in out), path))
            raise InputError(f"{out[-1][0]}: extends: circular reference ({chain})")
        try:
            st = path.stat()
        except OSError:  # a file found before is gone: look again (an error names it)
            path = _path(current) if not out else _path_from(out[-1][0], current)
            st = path.stat()
        out.append((path, st.st_mtime_ns, st.st_size))
        current = _parse(*out[-1]).get("extends")
    return tuple(out)


def _path_from(child: Path, parent: Any) -> Path:
    """The file a rule set extends: a relative path is read beside the file naming it."""
    if not isinstance(parent, str) or not parent.strip():
        raise InputError(f"{child}: extends: expected the name or path of a rule set, got "
                         f"{shorten(repr(parent))}")
    beside = child.parent / parent
    if Path(parent).suffix and not Path(parent).is_absolute() and beside.is_file():
        return beside.resolve()
    return _path(parent)


#: RuleSet field: (table, key, kind); kind is a (lowest, highest) range of integers, ``bool``,
#: ``dict`` or the enum of the allowed strings.
_FIELDS: dict[str, tuple[str, str, Any]] = {
    "hit_modifier_cap": ("hit", "modifier_cap", (0, 6)),
    "unmodified_fail": ("hit", "unmodified_fail", (1, 5)),
    "overwatch_hits_on": ("hit", "overwatch_hits_on", (2, 6)),
    "overwatch_rerolls": ("hit", "overwatch_rerolls", bool),
    "wound_modifier_cap": ("wound", "modifier_cap", (0, 6)),
    "wound_table": ("wound", "table", dict),
    "save_improve_cap": ("save", "improve_cap", (0, 6)),
    "cover_effect": ("cover", "effect", CoverEffect),
    "cover_exempt_save": ("cover", "exempt_save", (2, 7)),
    "stealth_effect": ("stealth", "effect", StealthEffect),
    "blast_per_models": ("blast", "per_models", (1, MAX_MODELS)),
    "lethal_optional": ("lethal_hits", "optional", bool),
    "devastating_excess_lost": ("devastating_wounds", "excess_lost", bool),
    "hazard_fails_on": ("hazardous", "fails_on", (0, 6)),
    "hazard_mortal_wounds": ("hazardous", "mortal_wounds", (0, MAX_FLAT)),
    "hazard_mortal_wounds_monster_vehicle": ("hazardous", "mortal_wounds_monster_vehicle",
                                             (0, MAX_FLAT)),
    "toughness_mixed": ("toughness", "mixed", ToughnessMixed),
}


#: Keys the bundled files state that the engine does not read: it applies these values in its
#: code (docs/rules.md), so a rule-set file may repeat them but not change them.
_FIXED: dict[tuple[str, str], Any] = {
    ("devastating_wounds", "after_normal_damage"): True,
    ("reanimation", "wounds"): "D3",
    ("mortal_wounds", "order"): ["wounded non-character", "non-character", "wounded character",
                                 "character"],
    ("save_groups", "group_by"): ["wounds", "save", "invuln"],
    ("save_groups", "wounded_first"): True,
    ("save_groups", "characters_last"): True,
    ("crushing_impact", "dice"): "toughness",
    ("crushing_impact", "enemy_on"): 5,
    ("crushing_impact", "enemy_max"): 6,
    ("crushing_impact", "self_on"): 1,
}
_TOP = ("name", "description", "extends")
_TABLE_KEYS = ("double", "greater", "equal", "lesser", "half")


def _check_keys(path: Path, raw: dict) -> None:
    """Every key of one rule-set file is one the engine reads, or one of :data:`_FIXED` with
    the value the engine applies: an unknown key is an error with the closest known one."""
    import difflib

    known: dict[str, set[str]] = {}
    for table, key in [(t, k) for t, k, _ in _FIELDS.values()] + list(_FIXED):
        known.setdefault(table, set()).add(key)

    def unknown(what: str, name: str, choices: list[str], prefix: str = "") -> InputError:
        close = difflib.get_close_matches(name, choices, 1, 0.6)
        hint = (f"did you mean {prefix}{close[0]}?" if close
                else f"known: {', '.join(prefix + c for c in sorted(choices))}")
        return InputError(f"{path}: {what}: not a rule-set key; {hint}")

    for name, value in raw.items():
        if name in _TOP:
            continue
        if name not in known:
            raise unknown(f"[{name}]" if isinstance(value, dict) else name, name,
                          [*known, *_TOP])
        if not isinstance(value, dict):
            continue  # "expected a table" is said where the table is read
        for key, v in value.items():
            if key not in known[name]:
                raise unknown(f"{name}.{key}", key, sorted(known[name]), f"{name}.")
            fixed = _FIXED.get((name, key))
            if (name, key) in _FIXED and (v != fixed or type(v) is not type(fixed)):
                raise InputError(f"{path}: {name}.{key}: mathhammer always applies "
                                 f"{shorten(repr(fixed), 80)} (docs/rules.md); it does not "
                                 f"read another value, got {shorten(repr(v))}")
        if name == "wound" and isinstance(value.get("table"), dict):
            for key in value["table"]:
                if key not in _TABLE_KEYS:
                    raise unknown(f"wound.table.{key}", key, list(_TABLE_KEYS), "wound.table.")


def _check(path: Path, table: str, key: str, kind: Any, value: Any) -> None:
    where = f"{path}: {table}.{key}"
    if value is None:
        raise InputError(f"{where}: missing")
    if kind is bool or kind is dict:
        if not isinstance(value, kind):
            what = "true or false" if kind is bool else "a table"
            raise InputError(f"{where}: expected {what}, got {shorten(repr(value))}")
    elif isinstance(kind, type) and issubclass(kind, StrEnum):
        if value not in [k.value for k in kind]:
            raise InputError(f"{where}: expected one of {', '.join(kind)}, got "
                             f"{shorten(repr(value))}")
    else:
        lo, hi = kind
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise InputError(f"{where}: expected an integer from {lo} to {hi}, got "
                             f"{shorten(repr(value))}")


def load_ruleset(name_or_path: str = "10e") -> RuleSet:
    """Load a rule set by name (``"10e"``, ``"11e"``) or by path to a TOML file; every field is
    checked (type and range), errors name the file and the field. Cached on the files' content
    (an edited file is read again).

    >>> load_ruleset("nowhere.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown rule set 'nowhere.toml'; known: 10e, 11e
    """
    if not isinstance(name_or_path, str):
        raise TypeError(f"rules: expected a rule set name or path, got "
                        f"{shorten(repr(name_or_path))}")
    last = _LAST.get(name_or_path)
    if last is not None and _unchanged(last[0]):
        return last[1]
    chain = _chain(name_or_path)
    built = _kept(_BUILT, chain, _build)
    if name_or_path.isalnum():  # a bundled name (a relative path depends on the folder)
        if len(_LAST) >= _KEPT:
            del _LAST[next(iter(_LAST))]
        _LAST[name_or_path] = (tuple((str(p), m, z) for p, m, z in chain), built)
    return built


#: A bundled rule set's name: its chain of files (path, modification time, size) when last
#: loaded and the rule set built from them, given again while no file of the chain changed
#: (each file's modification time and size are still read at every load).
_LAST: dict[str, tuple[tuple[tuple[str, int, int], ...], RuleSet]] = {}


def _unchanged(chain: tuple[tuple[str, int, int], ...]) -> bool:
    """Whether every file of ``chain`` has the modification time and size it had."""
    for path, mtime_ns, size in chain:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_mtime_ns != mtime_ns or st.st_size != size:
            return False
    return True


def _build(chain: tuple[tuple[Path, int, int], ...]) -> RuleSet:
    raw: dict = {}
    for entry in reversed(chain):
        _check_keys(entry[0], _parse(*entry))
        raw = _merge(raw, {k: v for k, v in _parse(*entry).items() if k != "extends"})
    path = chain[0][0]
    values: dict[str, Any] = {}
    for table in {t for t, _, _ in _FIELDS.values()}:
        if not isinstance(raw.get(table, {}), dict):
            raise InputError(f"{path}: {table}: expected a table [{table}], got "
                             f"{shorten(repr(raw[table]))}")
    for field, (table, key, kind) in _FIELDS.items():
        value = raw.get(table, {}).get(key)
        _check(path, table, key, kind, value)
        values[field] = kind(value) if isinstance(kind, type) and issubclass(kind, StrEnum) \
            else value
    table = values["wound_table"]
    for key in ("double", "greater", "equal", "lesser", "half"):
        _check(path, "wound.table", key, (2, 6), table.get(key))
    for key in ("name", "description"):
        if not isinstance(raw.get(key, ""), str):
            raise InputError(f"{path}: {key}: expected a string, got {shorten(repr(raw[key]))}")
    return RuleSet(
        # a file that extends another is named by its own name (or file name), not its parent's
        name=_parse(*chain[0]).get("name", path.stem), description=raw.get("description", ""),
        data=raw, **values
    )
