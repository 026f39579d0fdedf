"""The parts of a query's JSON: an army list as a player gives it (:class:`ArmyList`), one
attacking unit with its own options (:class:`Order`), a variant of a comparison or a plan
(:class:`Variant`), and the checked readers of a JSON object's fields that every query uses
(each error one line naming the field and the value).

>>> Order.from_json({"unit": "Cronos", "half_range": True}).changes
(('half_range', True),)
>>> flag_of({"adaptive": "yes"}, "adaptive")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: adaptive: expected true or false, got 'yes'
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from ..errors import InputError, marked, suggest
from ..limits import check_values
from .setup import Setup, changes_of, json_keys

# --- helpers of the JSON forms -----------------------------------------------------------------


def object_of(data: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InputError(f"{what}: expected a JSON object, got {type(data).__name__}")
    return data


def text_of(data: Mapping[str, Any], key: str, default: Any = None, *, required: bool = False
         ) -> Any:
    value = data.get(key, default)
    if value is None:
        if required:
            raise InputError(f"{key}: expected a unit's name or an inline profile")
        return default
    if not isinstance(value, str):
        raise InputError(f"{key}: expected text, got {value!r}")
    if required and not value.strip():
        raise InputError(f"{key}: expected a unit's name or an inline profile, got ''")
    return value.strip() if required else value


def flag_of(data: Mapping[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if value is not True and value is not False:
        raise InputError(f"{key}: expected true or false, got {value!r}")
    return value


def number_of(data: Mapping[str, Any], key: str, default: Any, lo: int, hi: int) -> Any:
    value = data.get(key, default)
    if value is None or value is default:
        return value
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise InputError(f"{key}: expected a whole number from {lo} to {hi}, got {value!r}")
    return value


def names_of(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, ())
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list | tuple) or not all(isinstance(v, str) for v in values):
        raise InputError(f"{key}: expected a list of names, got {value!r}")
    check_values(key, len(values))
    return tuple(v.strip() for v in values if v.strip())


def _name_in(value: Any, key: str, marks: str) -> str:
    """A name of a structured entry, refused when it holds a character of the text form it is
    written into (``marks``) rather than read wrong."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{key}: expected a unit's name, got {value!r}")
    for c in marks:
        if c in value:
            raise InputError(f"{key}: {value.strip()!r}: a name with {c!r} cannot be given as a "
                             "field; give the entry as text")
    return value.strip()


def _entries(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key, ())
    values = [value] if isinstance(value, str | Mapping) else value
    if not isinstance(values, list | tuple):
        raise InputError(f"{key}: expected a list, got {value!r}")
    check_values(key, len(values))
    return list(values)


def attach_of(data: Mapping[str, Any], key: str = "attach") -> tuple[str, ...]:
    """The Leaders attached: each ``"LEADER=UNIT"`` (``army:`` or ``vs:`` before it: which
    list), or as fields ``{"leader": ..., "unit": ..., "side": "army" | "vs"}``.

    >>> attach_of({"attach": [{"leader": "Captain", "unit": "Intercessor Squad", "side": "vs"}]})
    ('vs:Captain=Intercessor Squad',)
    """
    out = []
    for k, v in enumerate(_entries(data, key)):
        if isinstance(v, str):
            out.append(v.strip())
            continue
        v = object_of(v, f"{key}[{k}]")
        check_keys(v, ("leader", "unit", "side"), f"{key}[{k}]", setup=())
        side = v.get("side", "")
        if side not in ("", "army", "vs"):
            raise InputError(f"{key}[{k}].side: expected army or vs, got {side!r}")
        leader = _name_in(v.get("leader"), f"{key}[{k}].leader", "=")
        unit = _name_in(v.get("unit"), f"{key}[{k}].unit", "")
        out.append(f"{side + ':' if side else ''}{leader}={unit}")
    return tuple(x for x in out if x)


def reach_of(data: Mapping[str, Any], key: str = "reach") -> tuple[str, ...]:
    """Which targets each unit can shoot: each ``"UNIT=T1,T2@half"`` (mathhammer.data.typed.reach),
    or as fields ``{"unit": ..., "targets": [...], "half": [...]}`` (``half``: the targets it
    is within half range of, which it can shoot too; no targets: none).

    >>> reach_of({"reach": [{"unit": "Razorback", "targets": ["Captain"], "half": ["Rhino"]}]})
    ('Razorback=Captain,Rhino@half',)
    """
    out = []
    for k, v in enumerate(_entries(data, key)):
        if isinstance(v, str):
            out.append(v.strip())
            continue
        v = object_of(v, f"{key}[{k}]")
        check_keys(v, ("unit", "targets", "half"), f"{key}[{k}]", setup=())
        unit = _name_in(v.get("unit"), f"{key}[{k}].unit", "=")
        half = [_name_in(t, f"{key}[{k}].half", ",@") for t in _entries(v, "half")]
        can = [_name_in(t, f"{key}[{k}].targets", ",@") for t in _entries(v, "targets")]
        cells = [t for t in can if t not in half] + [f"{t}@half" for t in half]
        out.append(f"{unit}={','.join(cells)}")
    return tuple(out)


def check_keys(data: Mapping[str, Any], own: tuple[str, ...], what: str,
          setup: tuple[str, ...] | None = None) -> None:
    """Every key of ``data`` is one of the query's own or of its setup's (``setup``: those a
    query takes, default all)."""
    known = [*own, *(json_keys() if setup is None else setup)]
    for key in data:
        if key not in known:
            raise InputError(f"unknown parameter {key!r} for {what}; {suggest(key, known)}")


def setup_of(data: Mapping[str, Any], own: tuple[str, ...],
              setup: tuple[str, ...] | None = None) -> Setup:
    return Setup.from_json({k: v for k, v in data.items() if k not in own}, only=setup)


def fraction_of(value: Any, key: str) -> Fraction:
    from .planning import parse_probability

    if isinstance(value, Fraction):
        return value
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise InputError(f"{key}: expected a probability (0.9, 90% or 9/10), got {value!r}")
    try:
        return parse_probability(str(value))
    except ValueError as e:
        raise InputError(f"{key}: {marked(e)}") from None


def no_turns(s: Setup, what: str) -> None:
    for key in ("turns", "reanimation"):
        if getattr(s, key) is not None:
            raise InputError(f"{key}: not for {what}")


# --- an army list, as a player gives it ----------------------------------------------------------


@attrs.frozen
class ArmyList:
    """An army list: its text (pasted), an uploaded file's bytes in base64 (``.ros``, ``.rosz``
    or text) or a file's path (the command line only: the page reads no files)."""

    text: str | None = None
    base64: str | None = None
    path: str | None = None

    def __attrs_post_init__(self) -> None:
        given = [k for k in ("text", "base64", "path") if getattr(self, k) is not None]
        if len(given) != 1:
            raise InputError("army: expected the text of an army list, or an uploaded file")
        value = getattr(self, given[0])
        if not isinstance(value, str) or not value.strip():
            raise InputError("army: expected the text of an army list, or an uploaded file")

    @property
    def where(self) -> str:
        """How the list is named in messages: its path, or how it was given."""
        return self.path if self.path is not None else "army"

    def to_json(self) -> Any:
        if self.text is not None:
            return self.text
        return {"base64": self.base64} if self.base64 is not None else {"path": self.path}

    @classmethod
    def from_json(cls, data: Any) -> ArmyList:
        """``"text"``, ``{"base64": ...}`` or ``{"path": ...}``.

        >>> ArmyList.from_json({"base64": "QQ=="}).base64
        'QQ=='
        """
        if isinstance(data, str):
            return cls(text=data)
        if isinstance(data, Mapping) and len(data) == 1 and next(iter(data)) in (
                "base64", "path") and isinstance(next(iter(data.values())), str):
            return cls(**data)
        raise InputError("army: expected the text of an army list, or an uploaded file")


def army_of(data: Mapping[str, Any], key: str) -> ArmyList | None:
    return None if data.get(key) is None else ArmyList.from_json(data[key])


# --- one unit's own options ------------------------------------------------------------------

#: Options of one unit of a salvo or a plan can not be: they are the query's (the target's).
NOT_PER_UNIT = ("rules", "target_models", "leader", "turns", "reanimation")
PER_UNIT = tuple(k for k in json_keys() if k not in NOT_PER_UNIT)


@attrs.frozen
class Order:
    """One attacking unit of a salvo or a plan: its name (a unit, inline rows, or ``army:`` and
    a row of the army list) and its own options, added to the query's.

    >>> o = Order.from_json({"unit": "Devastator Squad", "half_range": True})
    >>> o.to_json(), Order.from_json("Cronos").to_json()
    ({'unit': 'Devastator Squad', 'half_range': True}, 'Cronos')
    """

    unit: str
    changes: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=lambda v: tuple(
        sorted((k, tuple(x) if isinstance(x, list) else x) for k, x in dict(v).items())))

    def setup(self, shared: Setup) -> Setup:
        """The unit's setup: the query's with its own options."""
        return shared.merged(dict(self.changes))

    def to_json(self) -> Any:
        if not self.changes:
            return self.unit
        return {"unit": self.unit} | {k: list(v) if isinstance(v, tuple) else v
                                      for k, v in self.changes}

    @classmethod
    def from_json(cls, data: Any) -> Order:
        if isinstance(data, str):
            if not data.strip():
                raise InputError("units: expected a unit's name or an inline profile, got ''")
            return cls(data.strip())
        data = object_of(data, "units")
        unit = text_of(data, "unit", required=True)
        rest = {k: v for k, v in data.items() if k != "unit"}
        for key in rest:
            if key in NOT_PER_UNIT:
                raise InputError(f"attacker {unit!r}: {key} is the query's, not one unit's; "
                                 "give it once, outside the attacker")
        changes = changes_of(rest, only=PER_UNIT)
        Setup().merged(changes)  # every value checked now
        return cls(unit, changes)


def orders_of(data: Mapping[str, Any], key: str) -> tuple[Order, ...]:
    value = data.get(key, ())
    if not isinstance(value, list | tuple):
        value = [value]
    check_values(key, len(value))
    return tuple(Order.from_json(v) for v in value)


@attrs.frozen
class Variant:
    """A variant of a comparison's rows or a plan (``--vary``, ``--try``): its label and the
    options it adds.

    >>> Variant.from_json({"label": "+1 to hit", "hit_mod": 1}).changes
    (('hit_mod', 1),)
    """

    label: str
    changes: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=lambda v: tuple(
        sorted((k, tuple(x) if isinstance(x, list) else x) for k, x in dict(v).items())))

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label} | {k: list(v) if isinstance(v, tuple) else v
                                        for k, v in self.changes}

    @classmethod
    def from_json(cls, data: Any, only: tuple[str, ...] | None = None) -> Variant:
        data = object_of(data, "variant")
        rest = {k: v for k, v in data.items() if k != "label"}
        changes = changes_of(rest, only=only)
        Setup().merged(changes)
        label = data.get("label")
        if label is None:
            label = ", ".join(f"{k}={v}" for k, v in sorted(changes.items()))
        if not isinstance(label, str):
            raise InputError(f"variant: label: expected text, got {label!r}")
        return cls(label, changes)


__all__ = ["NOT_PER_UNIT", "PER_UNIT", "ArmyList", "Order", "Variant", "army_of", "check_keys",
           "flag_of", "fraction_of", "names_of", "no_turns", "number_of", "object_of",
           "orders_of", "setup_of", "text_of"]
