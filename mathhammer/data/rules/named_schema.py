"""Validating the tables of a named-rule file (docs/rules.md, section 12; the schema is
``rules/README.md``) into the values of :mod:`mathhammer.model.named`. Any problem is one line
that names the file, the rule and the field.

>>> raw = {"faction": "Necrons", "rule": [{"name": "Enslaved Artifice", "kind": "stratagem",
...        "side": "attacker", "text": "...", "effect": {"crit_hit": 5}}]}
>>> validate_rule_file(raw, "necrons.toml")[0].describe()
'crit_hit=5'
>>> raw["rule"][0]["effect"] = {"crithit": 5}
>>> validate_rule_file(raw, "necrons.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: necrons.toml: rule 'Enslaved Artifice': effect.crithit: unknown ...
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ...errors import InputError, suggest
from ...model.abilities import canonical
from ...model.named import (
    ADDITIVE,
    EFFECT_FIELDS,
    FIELD_OF,
    KINDS,
    LOWEST,
    REROLL_FIELDS,
    SIDES,
    SWITCHES,
    TARGET_XPLUS,
    Conditions,
    Effect,
    MortalWoundsRoll,
    NamedRule,
)
from ...model.options import Options
from ...model.profiles import TARGET_ABILITIES
from ...prob.dice import dice, parse_dice

FILE_KEYS = ("faction", "source", "rule")
RULE_KEYS = (
    "name", "aliases", "kind", "detachment", "cp", "side", "text", "assumes", "note",
    "requires", "effect", "no_effect", "not_modelled",
)
CONDITION_KEYS = (
    "attack", "led", "half_range", "charged", "stationary", "below_half", "below_starting",
    "weapon_ability", "target_keywords",
)
_EFFECT_KEYS = EFFECT_FIELDS + ("requires", "not_cumulative")

_RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:(\+)|-\s*(\d+))?\s*$")


class _Bad(Exception):
    """A validation failure at ``field`` (joined into one line by the loader)."""

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def _unknown(what: str, where: str, known: Iterable[str]) -> _Bad:
    return _Bad(where, f"unknown {what}; {suggest(where.rsplit('.', 1)[-1], known)}")


def _text(field: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Bad(field, f"expected a non-empty string, got {value!r}")
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
        elif key == "target_keywords":
            value = tuple(v.upper() for v in _strings(where, value))
        elif not isinstance(value, bool):
            raise _Bad(where, f"expected true or false, got {value!r}")
        values[key] = value
    return Conditions(**values)


def _mortal_wounds(field: str, raw: Any) -> MortalWoundsRoll:
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
    return MortalWoundsRoll(roll=text_roll, table=tuple(sorted(rows)))


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
        choices = FIELD_OF[key].choices
        if value not in choices:
            raise _Bad(where, f"expected one of {', '.join(map(repr, choices))}, got {value!r}")
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
    if key in TARGET_XPLUS:
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


def _effect(field: str, raw: Any) -> tuple[Effect | None, MortalWoundsRoll | None]:
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
    for key in ("detachment", "assumes", "note", "no_effect", "not_modelled"):
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
    if sum(key in raw for key in ("effect", "no_effect", "not_modelled")) != 1:
        raise _Bad("effect", "expected exactly one of effect, no_effect or not_modelled")
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


def validate_rule_file(raw: dict, where: str) -> tuple[NamedRule, ...]:
    """The rules of one named-rule file's TOML tables; any problem is a one-line InputError
    starting with ``where`` (the file as shown to the player)."""
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


__all__ = ["CONDITION_KEYS", "FILE_KEYS", "RULE_KEYS", "validate_rule_file"]
