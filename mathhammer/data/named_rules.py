"""Named rules (stratagems, detachment rules, enhancements...) as data, switched on by name.

Why one module: reading a named-rule file, validating its tables and finding rules by name
share the file schema's key tables and messages.

The rules live in ``rules/factions/<faction>.toml`` (schema: ``rules/README.md``) and are read
into the values of :mod:`mathhammer.model.named`. :func:`apply_rules` takes rules by name and
hands them to :func:`mathhammer.mechanics.named.apply_rules`, which folds the rules whose
conditions hold into the weapon, target and options of one attack.

>>> rule = find_rule("enslaved")
>>> rule.name, rule.kind, rule.describe()
('Enslaved Artifice', 'stratagem', 'crit_hit=5')
>>> from mathhammer.model.profiles import Target, Weapon
>>> claws = Weapon("Claws", attacks=4, skill=3, strength=5, ap=-1, damage=1, range="melee")
>>> meq = Target(models=5, toughness=4, save=3, wounds=2)
>>> _, _, opts = apply_rules([rule, "Disruption Fields"], claws, meq, Options(), below_half=False)
>>> opts.crit_hit, opts.strength_mod
(5, 1)
"""

from __future__ import annotations

import difflib
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..cache import cached
from ..errors import InputError
from ..mechanics import named as mechanics
from ..model.abilities import canonical
from ..model.named import (
    ADDITIVE,
    EFFECT_FIELDS,
    KINDS,
    LOWEST,
    REROLL_FIELDS,
    SIDES,
    SWITCHES,
    Conditions,
    Effect,
    MortalWounds,
    NamedRule,
)
from ..model.options import REROLLS, Options
from ..model.profiles import TARGET_ABILITIES, Target, Weapon
from ..prob.dice import dice, parse_dice
from .paths import data_dir

FILE_KEYS = ("faction", "source", "rule")
RULE_KEYS = (
    "name", "aliases", "kind", "detachment", "cp", "side", "text", "assumes", "note",
    "requires", "effect", "no_effect",
)
CONDITION_KEYS = (
    "attack", "led", "half_range", "charged", "stationary", "below_half", "below_starting",
    "weapon_ability",
)
_EFFECT_KEYS = EFFECT_FIELDS + ("requires", "not_cumulative")

_RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:(\+)|-\s*(\d+))?\s*$")


class _Bad(Exception):
    """A validation failure at ``field`` (joined into one line by the loader)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# --- loading and validation ------------------------------------------------------------------


def _unknown(what: str, where: str, known: Iterable[str]) -> _Bad:
    known = list(known)
    close = difflib.get_close_matches(where.rsplit(".", 1)[-1], known, n=3)
    hint = f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(known)}"
    return _Bad(where, f"unknown {what}; {hint}")


def _text(field: str, value: Any, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        raise _Bad(field, f"expected a {'' if empty else 'non-empty '}string, got {value!r}")
    return value.strip()


def _strings(field: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _Bad(field, f"expected a list of strings, got {value!r}")
    return tuple(v.strip() for v in value)


def _conditions(field: str, raw: Any) -> Conditions:
    if not isinstance(raw, dict):
        raise _Bad(field, f"expected a table of conditions, got {raw!r}")
    values: dict[str, Any] = {}
    for key, value in raw.items():
        where = f"{field}.{key}"
        if key not in CONDITION_KEYS:
            raise _unknown("condition", where, CONDITION_KEYS)
        if key == "attack":
            if value not in ("ranged", "melee"):
                raise _Bad(where, f"expected 'ranged' or 'melee', got {value!r}")
        elif key == "weapon_ability":
            try:
                value = canonical(_text(where, value))
            except ValueError as e:
                raise _Bad(where, str(e)) from None
        elif not isinstance(value, bool):
            raise _Bad(where, f"expected true or false, got {value!r}")
        values[key] = value
    return Conditions(**values)


def _mortal_wounds(field: str, raw: Any) -> MortalWounds:
    if not isinstance(raw, dict) or set(raw) != {"roll", "table"}:
        shape = '{ roll = "D6", table = { "2-4" = "1" } }'
        raise _Bad(field, f"expected {shape}, got {raw!r}")
    try:
        roll = dice(raw["roll"])
        parse_dice(raw["roll"])
    except ValueError as e:
        raise _Bad(f"{field}.roll", str(e)) from None
    lo_face, hi_face = min(roll.outcomes()), max(roll.outcomes())
    if not isinstance(raw["table"], dict) or not raw["table"]:
        raise _Bad(f"{field}.table", f"expected a table of results, got {raw['table']!r}")
    rows: list[tuple[int, int, str]] = []
    for key, wounds in raw["table"].items():
        where = f"{field}.table.{key!r}"
        m = _RANGE_KEY.match(key)
        if not m:
            raise _Bad(where, f"expected a result like \"6\", \"2-4\" or \"5+\", got {key!r}")
        lo = int(m.group(1))
        hi = hi_face if m.group(2) else int(m.group(3) or lo)
        if not lo_face <= lo <= hi <= hi_face:
            raise _Bad(where, f"expected results from {lo_face} to {hi_face}, got {key!r}")
        if any(lo <= b and a <= hi for a, b, _ in rows):
            raise _Bad(where, f"overlaps another result, got {key!r}")
        try:
            parse_dice(wounds)
            text = str(wounds).upper().replace(" ", "")
            dice(text)
        except ValueError as e:
            raise _Bad(where, str(e)) from None
        rows.append((lo, hi, text))
    text_roll = str(raw["roll"]).upper().replace(" ", "")
    return MortalWounds(roll=text_roll, table=tuple(sorted(rows)))


def _change(field: str, key: str, value: Any) -> Any:
    where = f"{field}.{key}"
    if key in ADDITIVE or key in LOWEST:
        try:
            Options(**{key: value})
        except ValueError as e:
            raise _Bad(where, str(e).split(": ", 1)[1]) from None
        if key in ADDITIVE and value == 0:
            raise _Bad(where, f"expected a non-zero integer, got {value!r}")
        return value
    if key in REROLL_FIELDS:
        if value not in REROLLS[1:]:
            raise _Bad(where, f"expected one of 'ones', 'failed', 'noncrit', got {value!r}")
        return value
    if key in SWITCHES:
        if value is not True:
            raise _Bad(where, f"expected true (a rule can only switch it on), got {value!r}")
        return True
    if key == "abilities":
        try:
            return tuple(canonical(a) for a in _strings(where, value))
        except ValueError as e:
            raise _Bad(where, str(e)) from None
    if key in ("invuln", "fnp"):
        if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 6:
            raise _Bad(where, f"expected an integer from 2 to 6 (X+), got {value!r}")
        return value
    if key == "target_abilities":
        values = tuple(v.lower() for v in _strings(where, value))
        for v in values:
            if v not in TARGET_ABILITIES:
                raise _Bad(where, f"expected one of {', '.join(TARGET_ABILITIES)}, got {v!r}")
        return values
    raise _unknown("effect field", where, EFFECT_FIELDS)  # pragma: no cover


def _effect(field: str, raw: Any) -> tuple[Effect | None, MortalWounds | None]:
    if not isinstance(raw, dict):
        raise _Bad(field, f"expected a table of effect fields, got {raw!r}")
    changes: list[tuple[str, Any]] = []
    requires = Conditions()
    not_cumulative: tuple[str, ...] = ()
    for key in raw:
        if key not in _EFFECT_KEYS:
            raise _unknown("effect field", f"{field}.{key}", _EFFECT_KEYS)
    if "mortal_wounds" in raw:
        if len(raw) > 1:
            raise _Bad(f"{field}.mortal_wounds", "must be the only field of the effect")
        return None, _mortal_wounds(f"{field}.mortal_wounds", raw["mortal_wounds"])
    for key, value in raw.items():
        if key == "requires":
            requires = _conditions(f"{field}.requires", value)
        elif key == "not_cumulative":
            not_cumulative = _strings(f"{field}.not_cumulative", value)
            for name in not_cumulative:
                if name not in ADDITIVE or name not in raw:
                    raise _Bad(
                        f"{field}.not_cumulative",
                        f"expected additive fields of this effect, got {name!r}",
                    )
        else:
            changes.append((key, _change(field, key, value)))
    if not changes:
        raise _Bad(field, "expected at least one effect field")
    return Effect(tuple(changes), requires, not_cumulative), None


def _rule(raw: Any, faction: str, source: str, file: str) -> NamedRule:
    if not isinstance(raw, dict):
        raise _Bad("rule", f"expected a table, got {raw!r}")
    for key in raw:
        if key not in RULE_KEYS:
            raise _unknown("key", key, RULE_KEYS)
    for key in ("name", "kind", "side", "text"):
        if key not in raw:
            raise _Bad(key, "missing")
    values: dict[str, Any] = {
        "name": _text("name", raw["name"]), "text": _text("text", raw["text"]),
        "faction": faction, "source": source, "file": file,
    }
    for key, choices in (("kind", KINDS), ("side", SIDES)):
        if raw[key] not in choices:
            raise _Bad(key, f"expected one of {', '.join(choices)}, got {raw[key]!r}")
        values[key] = raw[key]
    for key in ("detachment", "assumes", "note", "no_effect"):
        if key in raw:
            values[key] = _text(key, raw[key])
    if "aliases" in raw:
        values["aliases"] = _strings("aliases", raw["aliases"])
    if "cp" in raw:
        cp = raw["cp"]
        if isinstance(cp, bool) or not isinstance(cp, int) or not 0 <= cp <= 5:
            raise _Bad("cp", f"expected an integer from 0 to 5, got {cp!r}")
        values["cp"] = cp
    if "requires" in raw:
        values["requires"] = _conditions("requires", raw["requires"])
    if ("effect" in raw) == ("no_effect" in raw):
        raise _Bad("effect", "expected exactly one of effect or no_effect")
    if "effect" in raw:
        clauses = raw["effect"] if isinstance(raw["effect"], list) else [raw["effect"]]
        if not clauses:
            raise _Bad("effect", "expected at least one effect")
        effects = []
        for i, clause in enumerate(clauses):
            field = "effect" if len(clauses) == 1 else f"effect[{i}]"
            effect, mortal = _effect(field, clause)
            if mortal is not None:
                if len(clauses) > 1 or "requires" in raw:
                    raise _Bad(f"{field}.mortal_wounds", "must be the rule's only effect")
                values["mortal_wounds"] = mortal
            else:
                effects.append(effect)
        values["effects"] = tuple(effects)
    return NamedRule(**values)


def _display(path: Path) -> str:
    root = data_dir("rules").parent
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def _is_named_rule_file(raw: dict) -> bool:
    return "faction" in raw or "rule" in raw


def read_named_rule_file(path: str | Path) -> tuple[NamedRule, ...]:
    """Read and validate one named-rule file; any problem is a one-line ValueError.

    >>> len(read_named_rule_file(data_dir("rules") / "factions" / "necrons.toml")) > 10
    True
    """
    path = Path(path)
    where = _display(path)
    return _validate_file(_read_toml(path, where), where)


def _read_toml(path: Path, where: str) -> dict:
    """A named-rules file's TOML (at most MAX_RULES_FILE_BYTES, not nested too deeply)."""
    from ..model.limits import MAX_RULES_FILE_BYTES, read_limited

    data = read_limited(path, MAX_RULES_FILE_BYTES, "MAX_RULES_FILE_BYTES", "named rules",
                        where)
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"{where}: cannot read named rules: {e}") from None
    except RecursionError:
        raise InputError(f"{where}: cannot read named rules: nested too deeply") from None


def _validate_file(raw: dict, where: str) -> tuple[NamedRule, ...]:
    try:
        for key in raw:
            if key not in FILE_KEYS:
                raise _unknown("key", key, FILE_KEYS)
        if "faction" not in raw:
            raise _Bad("faction", "missing")
        faction = _text("faction", raw["faction"])
        source = _text("source", raw["source"]) if "source" in raw else ""
        rules = raw.get("rule")
        if not isinstance(rules, list) or not rules:
            raise _Bad("rule", "expected one or more [[rule]] tables")
    except _Bad as e:
        raise InputError(f"{where}: {e}") from None
    out = []
    for i, item in enumerate(rules):
        name = item.get("name") if isinstance(item, dict) else None
        label = f"rule {name!r}" if isinstance(name, str) and name.strip() else f"rule[{i}]"
        try:
            out.append(_rule(item, faction, source, where))
        except _Bad as e:
            raise InputError(f"{where}: {label}: {e}") from None
    return tuple(out)


def _norm(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").replace("\u2018", "'").lower().split())


@cached(maxsize=8)
def _load(directory: str, _files: tuple[tuple[str, int, int], ...]) -> tuple[NamedRule, ...]:
    """The named rules of a folder; ``_files`` (name, mtime, size of each file) keys the cache
    on the folder's content."""
    rules: list[NamedRule] = []
    seen: dict[str, NamedRule] = {}
    for path in sorted(Path(directory).glob("*.toml")):
        raw = _read_toml(path, _display(path))
        if not _is_named_rule_file(raw):
            continue
        for rule in _validate_file(raw, _display(path)):
            for key in (rule.name, *rule.aliases):
                other = seen.get(_norm(key))
                if other is not None:
                    raise InputError(
                        f"{rule.file}: rule {rule.name!r}: name {key!r} is already used by "
                        f"{other.name!r} in {other.file}"
                    )
                seen[_norm(key)] = rule
            rules.append(rule)
    return tuple(rules)


def load_named_rules(directory: str | Path | None = None) -> tuple[NamedRule, ...]:
    """Every named rule in the ``rules/`` folder (or ``directory``), validated.

    Rule-set files (``10e.toml``...) are skipped; a file with ``faction`` or ``[[rule]]`` is a
    named-rule file and must be valid.

    >>> sorted({r.faction for r in load_named_rules()})
    ['Adeptus Mechanicus', 'Drukhari', 'Necrons']
    """
    folder = Path(directory) if directory is not None else data_dir("rules") / "factions"
    try:
        files = tuple((p.name, st.st_mtime_ns, st.st_size)
                      for p in sorted(folder.glob("*.toml")) for st in [p.stat()])
    except OSError:
        files = ()
    return _load(str(folder), files)


def list_rules(
    faction: str | None = None,
    search: str | None = None,
    *,
    directory: str | Path | None = None,
) -> list[NamedRule]:
    """The named rules of a faction and/or whose name, detachment or text contains ``search``.

    >>> [r.name for r in list_rules("drukhari", search="lethal hits")][:2]
    ['Dark Harvest', 'Malicious Frenzy (Lethal Hits)']
    """
    rules = load_named_rules(directory)
    if faction is not None:
        factions = sorted({r.faction for r in rules})
        if _norm(faction) not in {_norm(f) for f in factions}:
            raise InputError(f"unknown faction {faction!r}; known: {', '.join(factions)}")
        rules = tuple(r for r in rules if _norm(r.faction) == _norm(faction))
    if search is not None:
        key = _norm(search)
        rules = tuple(
            r for r in rules
            if any(key in _norm(t) for t in (r.name, r.text, r.detachment or "", *r.aliases))
        )
    return list(rules)


def find_rule(name: str, *, directory: str | Path | None = None) -> NamedRule:
    """The rule called ``name`` (or an alias): case-insensitive; a unique prefix or part of a
    name is enough. An unknown name is a ValueError suggesting the closest names.

    >>> find_rule("spoor of frailty").name
    'The Spoor of Frailty'
    >>> find_rule("Enslaved Artiface")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown named rule 'Enslaved Artiface'; did you mean Enslaved ...
    """
    rules = load_named_rules(directory)
    key = _norm(str(name))
    if not key:
        raise InputError("named rule: expected a name, got an empty string")
    names = {_norm(n): r for r in rules for n in (r.name, *r.aliases)}
    if key in names:
        return names[key]
    for match in (str.startswith, str.__contains__):
        found = list(dict.fromkeys(r for n, r in names.items() if match(n, key)))
        if len(found) == 1:
            return found[0]
        if found:
            raise InputError(
                f"ambiguous named rule {name!r}: matches {', '.join(r.name for r in found)}"
            )
    display = {_norm(n): n for r in rules for n in (r.name, *r.aliases)}
    close = [display[c] for c in difflib.get_close_matches(key, list(display), n=3, cutoff=0.6)]
    by_detachment = [r.name for r in rules if r.detachment and _norm(r.detachment) == key]
    if by_detachment:
        return_hint = f"rules of the {name} detachment: {', '.join(by_detachment)}"
    elif close:
        return_hint = f"did you mean {', '.join(close)}?"
    else:
        return_hint = f"no close match among {len(rules)} named rules (see list_rules())"
    raise InputError(f"unknown named rule {name!r}; {return_hint}")


def apply_rules(
    rules: Iterable[NamedRule | str],
    weapon: Weapon,
    target: Target,
    options: Options,
    *,
    below_half: bool,
    below_starting: bool | None = None,
) -> tuple[Weapon, Target, Options]:
    """:func:`mathhammer.mechanics.named.apply_rules` with rules given by name too (looked up
    with :func:`find_rule`): the weapon, target and options of one attack with every rule whose
    conditions hold.

    >>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> t = Target(models=5, toughness=4, save=3, wounds=2)
    >>> _, _, o = apply_rules(["Conquering Tyrant"], bolt, t, Options(half_range=True),
    ...                       below_half=False)
    >>> o.reroll_hits.value
    'ones'
    >>> apply_rules(["Poisoner's Art"], bolt, t, Options(), below_half=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: Poisoner's Art is a mortal-wound roll (D6: 4+ -> D3), not yet ...
    """
    resolved = [find_rule(r) if isinstance(r, str) else r for r in rules]
    return mechanics.apply_rules(resolved, weapon, target, options, below_half=below_half,
                                 below_starting=below_starting)


__all__ = [
    "apply_rules", "find_rule", "list_rules", "load_named_rules", "read_named_rule_file",
]
