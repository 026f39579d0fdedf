"""Frozen attrs values (a :class:`~mathhammer.data.units.unit.Unit` and what it holds) as plain JSON
data and back, generically: every init field of every class is kept, so fields added later are
kept too; only mathhammer's own classes are rebuilt. The compiled store
(:mod:`mathhammer.data.store.compiled`) keeps its units this way.

>>> from mathhammer.model.profiles import Weapon
>>> w = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> from_json(to_json(w)) == w
True
"""

from __future__ import annotations

import enum
import importlib
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from ...errors import InputError


def to_json(value: Any) -> Any:
    """A frozen attrs value (and what it holds) as plain JSON data; :func:`from_json` reverses
    it. Every init field is kept, so fields added to the classes later are kept too.

    >>> to_json((1, Fraction(1, 3)))
    {'@t': [1, {'@q': '1/3'}]}
    """
    if attrs.has(type(value)):
        cls = type(value)
        out: dict[str, Any] = {"@": f"{cls.__module__}:{cls.__qualname__}"}
        for f in attrs.fields(cls):
            if f.init:
                out[f.name] = to_json(getattr(value, f.name))
        return out
    if isinstance(value, enum.Enum):
        cls = type(value)
        return {"@e": f"{cls.__module__}:{cls.__qualname__}", "v": to_json(value.value)}
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, tuple):
        return {"@t": [to_json(v) for v in value]}
    if isinstance(value, list):
        return [to_json(v) for v in value]
    if isinstance(value, frozenset):
        return {"@s": [to_json(v) for v in sorted(value, key=repr)]}
    if isinstance(value, Fraction):
        return {"@q": str(value)}
    if isinstance(value, Path):
        return {"@p": str(value)}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"@d": {k: to_json(v) for k, v in value.items()}}
    raise TypeError(f"cannot store a {type(value).__name__} value: {value!r}")


def _class(ref: str) -> type:
    module, _, name = ref.partition(":")
    if not module.startswith("mathhammer."):
        raise InputError(f"compiled store: class {ref!r} is not one of mathhammer's")
    obj: Any = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def from_json(data: Any) -> Any:
    """The value :func:`to_json` made (only mathhammer's own classes are rebuilt)."""
    if isinstance(data, list):
        return [from_json(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "@" in data:
        cls = _class(data["@"])
        return cls(**{k: from_json(v) for k, v in data.items() if k != "@"})
    if "@t" in data:
        return tuple(from_json(v) for v in data["@t"])
    if "@e" in data:
        return _class(data["@e"])(from_json(data["v"]))
    if "@s" in data:
        return frozenset(from_json(v) for v in data["@s"])
    if "@q" in data:
        return Fraction(data["@q"])
    if "@p" in data:
        return Path(data["@p"])
    if "@d" in data:
        return {k: from_json(v) for k, v in data["@d"].items()}
    raise InputError(f"compiled store: unreadable value {str(data)[:60]}")
