"""The situational options of an attack: range, movement, modifiers, re-rolls.

Signs: ``hit_mod``, ``wound_mod`` and ``save_mod`` are added to the roll (then capped);
``ap_mod=1`` improves AP by one (-1 becomes -2); ``skill_mod=1`` improves BS/WS by one
(3+ becomes 2+, not capped); ``damage_mod=-1`` subtracts 1 from each attack's Damage.

>>> Options(half_range=True, reroll_hits="ones").reroll_hits
'ones'
>>> Options(reroll_hits="some")
Traceback (most recent call last):
...
ValueError: reroll_hits: expected one of None, 'ones', 'failed', 'noncrit', got 'some'
"""

from __future__ import annotations

import difflib
from typing import Any

import attrs

from .abilities import canonical

REROLLS = (None, "ones", "failed", "noncrit")
LETHAL = ("always", "decline", "never", "best")


def _canonical_all(values: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(canonical(a) for a in ([values] if isinstance(values, str) else values))


def _int(lo: int, hi: int):
    def check(_inst, attr, value):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"{attr.name}: expected an integer from {lo} to {hi}, got {value!r}")

    return check


def _bool(_inst, attr, value):
    if not isinstance(value, bool):
        raise ValueError(f"{attr.name}: expected true or false, got {value!r}")


def _text(_inst, attr, value):
    if not isinstance(value, str):
        raise TypeError(f"{attr.name}: expected a rule set name or path, got {value!r}")


def _one_of(values: tuple):
    def check(_inst, attr, value):
        if value not in values:
            known = ", ".join(map(repr, values))
            raise ValueError(f"{attr.name}: expected one of {known}, got {value!r}")

    return check


_reroll = _one_of(REROLLS)


@attrs.frozen(kw_only=True)
class Options:
    """Everything about one attack besides the weapon and the target."""

    rules: str = attrs.field(default="10e", validator=_text)
    half_range: bool = attrs.field(default=False, validator=_bool)
    charged: bool = attrs.field(default=False, validator=_bool)
    stationary: bool = attrs.field(default=False, validator=_bool)
    cover: bool = attrs.field(default=False, validator=_bool)
    overwatch: bool = attrs.field(default=False, validator=_bool)
    #: the attacking unit is led by a CHARACTER (some named rules need it)
    led: bool = attrs.field(default=False, validator=_bool)
    hit_mod: int = attrs.field(default=0, validator=_int(-6, 6))
    wound_mod: int = attrs.field(default=0, validator=_int(-6, 6))
    #: added to the Wound roll only when the attack's Strength is greater than the Toughness
    wound_mod_if_stronger: int = attrs.field(default=0, validator=_int(-6, 6))
    save_mod: int = attrs.field(default=0, validator=_int(-6, 6))
    damage_mod: int = attrs.field(default=0, validator=_int(-6, 6))
    ap_mod: int = attrs.field(default=0, validator=_int(-6, 6))
    skill_mod: int = attrs.field(default=0, validator=_int(-5, 5))
    strength_mod: int = attrs.field(default=0, validator=_int(-20, 20))
    crit_hit: int = attrs.field(default=6, validator=_int(2, 6))
    crit_wound: int = attrs.field(default=6, validator=_int(2, 6))
    #: Fire Overwatch hits on this unmodified roll or more (never higher than the rule set's)
    overwatch_hits_on: int = attrs.field(default=6, validator=_int(2, 6))
    #: a Critical Wound improves the AP of that attack by this much
    crit_wound_ap: int = attrs.field(default=0, validator=_int(0, 6))
    reroll_hits: str | None = attrs.field(default=None, validator=_reroll)
    reroll_wounds: str | None = attrs.field(default=None, validator=_reroll)
    halve_damage: bool = attrs.field(default=False, validator=_bool)
    #: 11e optional Lethal Hits: "always" auto-wound, "decline" when the weapon also has
    #: Devastating Wounds, "never", or "best" (more expected damage, weapon by weapon)
    lethal_hits: str = attrs.field(default="always", validator=_one_of(LETHAL))
    #: Precision attacks are allocated to a CHARACTER while one stands (False: not used)
    precision: bool = attrs.field(default=True, validator=_bool)
    #: abilities every weapon of the attack gains (e.g. from a stratagem)
    abilities: tuple[str, ...] = attrs.field(default=(), converter=lambda v: _canonical_all(v))

    @classmethod
    def make(cls, **kwargs: Any) -> Options:
        """Like ``Options(**kwargs)`` but an unknown name is a ValueError naming the closest.

        >>> Options.make(half_rnage=True)
        Traceback (most recent call last):
        ...
        ValueError: unknown option 'half_rnage'; did you mean half_range, halve_damage?
        """
        names = [a.name for a in attrs.fields(cls)]
        for key in kwargs:
            if key not in names:
                close = difflib.get_close_matches(key, names, n=3)
                known = ", ".join(close or names)
                hint = f"did you mean {known}?" if close else f"known: {known}"
                raise ValueError(f"unknown option {key!r}; {hint}")
        return cls(**kwargs)

    def describe(self) -> str:
        """The options that differ from the defaults, e.g. ``"half_range, hit_mod=+1"``."""
        parts = []
        for a in attrs.fields(type(self)):
            v = getattr(self, a.name)
            if v == a.default or a.name == "rules":
                continue
            if v is True:
                parts.append(a.name)
            elif isinstance(v, int) and not isinstance(v, bool):
                parts.append(f"{a.name}={v:+d}" if a.name.endswith("_mod") else f"{a.name}={v}")
            elif isinstance(v, tuple):
                parts.append(f"{a.name}=[{', '.join(v)}]")
            else:
                parts.append(f"{a.name}={v}")
        return ", ".join(parts) or "none"
