"""The situational options of an attack: range, movement, modifiers, re-rolls.

Signs: ``hit_mod``, ``wound_mod`` and ``save_mod`` are added to the roll (then capped);
``ap_mod=1`` improves AP by one (-1 becomes -2); ``skill_mod=1`` improves BS/WS by one
(3+ becomes 2+, not capped); ``damage_mod=-1`` subtracts 1 from each attack's Damage.

>>> Options(half_range=True, reroll_hits="ones").reroll_hits
<Reroll.ONES: 'ones'>
>>> Options(reroll_hits="ones").reroll_hits == "ones"  # the enums are strings too
True
>>> Options(reroll_hits="some")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: reroll_hits: expected one of None, 'ones', 'failed', 'noncrit', go...
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import attrs

from ..cache import cached
from ..errors import InputError, suggest
from .abilities import canonical


class Reroll(StrEnum):
    """What a re-roll lets you re-roll: unmodified 1s, failed rolls (after modifiers), or
    everything that is not a critical result ("fishing" for Critical Hits)."""

    ONES = "ones"
    FAILED = "failed"
    NONCRIT = "noncrit"


class DamageReroll(StrEnum):
    """What a rule lets you re-roll of the Damage roll: a roll of 1, or any roll (mathhammer
    then re-rolls whenever a fresh roll is expected to take more wounds from the model the
    attack is allocated to; docs/rules.md, section 6)."""

    ONES = "ones"
    ANY = "any"


class LethalHits(StrEnum):
    """11e optional Lethal Hits: always auto-wound, decline when the weapon also has
    Devastating Wounds, never, or whichever makes the weapon inflict more expected damage."""

    ALWAYS = "always"
    DECLINE = "decline"
    NEVER = "never"
    BEST = "best"


class Combine(StrEnum):
    """How a named rule sets an effect field, and how two rules' values of it combine
    (docs/rules.md, section 12): an option's field metadata ``effect``, and the target changes
    of :data:`mathhammer.model.named.TARGET_EFFECTS`."""

    ADD = "add"  # a non-zero integer; the values add up
    LOWEST = "lowest"  # an X+ threshold; the lowest wins (critical thresholds)
    BROADEST = "broadest"  # a re-roll policy; the broadest wins
    SWITCH = "switch"  # a rule can only switch it on
    ABILITIES = "abilities"  # weapon abilities, added
    BETTER = "better"  # the target's X+ (save, Feel No Pain); the better (lower) wins
    TARGET_ABILITIES = "target abilities"  # the target's abilities, added
    ROLL = "roll"  # a one-off mortal-wound roll, the rule's only effect


#: Re-roll policies from the narrowest to the broadest (None: no re-roll).
REROLLS = (None, *Reroll)
#: Damage re-roll policies from the narrowest to the broadest.
DAMAGE_REROLLS = (None, *DamageReroll)
LETHAL = tuple(LethalHits)


def _canonical_all(values: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    if values == ():
        return ()
    return tuple(canonical(a) for a in ([values] if isinstance(values, str) else values))


def _checked(name: str, value: Any, lo: int | None, hi: int | None) -> None:
    """A flag (``lo`` None) must be true or false, a number an integer from ``lo`` to ``hi``."""
    if lo is None:
        if value is not True and value is not False:
            raise InputError(f"{name}: expected true or false, got {value!r}")
    elif isinstance(value, bool) or not isinstance(value, int) or hi is None or \
            not lo <= value <= hi:  # a number has both bounds
        raise InputError(f"{name}: expected an integer from {lo} to {hi}, got {value!r}")


def _choice(name: str, kind: type[StrEnum], optional: bool = False):
    """A converter to the enum ``kind`` (``None`` allowed when ``optional``), naming the field
    and the choices in its error."""
    def convert(value):
        if value is None and optional:
            return None
        try:
            return kind(value)
        except ValueError:
            known = ", ".join(["None"] * optional + [repr(k.value) for k in kind])
            raise InputError(f"{name}: expected one of {known}, got {value!r}") from None

    return convert


def _text(_inst, attr, value):
    if not isinstance(value, str):
        raise TypeError(f"{attr.name}: expected a rule set name or path, got {value!r}")


def _flag(help: str, default: bool = False, *, effect: Combine | None = Combine.SWITCH) -> Any:
    """A switch (checked with the numbers, after init: :data:`_CHECKS`); a named rule can
    switch it on unless ``effect`` is None."""
    return attrs.field(default=default, metadata={"help": help, "effect": effect})


def _number(default: int, lo: int, hi: int, help: str, *, threshold: bool = False,
            effect: Combine | None = None) -> Any:
    """An integer option from ``lo`` to ``hi``; a ``threshold`` is an X+ roll; ``effect``: how
    a named rule sets it (a modifier, :attr:`Combine.ADD`, is shown with its sign)."""
    return attrs.field(default=default, metadata={
        "help": help, "range": (lo, hi), "threshold": threshold, "effect": effect,
        "signed": effect is Combine.ADD and not threshold and default == 0 and lo < 0})


def _modifier(lo: int, hi: int, help: str) -> Any:
    """A modifier from ``lo`` to ``hi`` (0: none), which named rules add up."""
    return _number(0, lo, hi, help, effect=Combine.ADD)


def _pick(name: str, kind: type[StrEnum], default: Any, help: str, *,
          effect: Combine | None = None) -> Any:
    return attrs.field(default=default, converter=_choice(name, kind, default is None),
                       metadata={"help": help, "choices": kind, "effect": effect})


def show(name: str, value: Any, *, signed: bool) -> str:
    """One option or effect field as text: ``hit_mod=+1``, ``half_range``, ``abilities=[...]``.

    >>> show("hit_mod", 1, signed=True), show("cover", True, signed=False)
    ('hit_mod=+1', 'cover')
    """
    if value is True:
        return name
    if isinstance(value, tuple):
        return f"{name}=[{', '.join(value)}]"
    if signed and isinstance(value, int):
        return f"{name}={value:+d}"
    return f"{name}={value}"


@attrs.frozen(kw_only=True, cache_hash=True)  # a key of every cached step
class Options:
    """Everything about one attack besides the weapon and the target.

    Each field's metadata (``help``, ``range``, ``choices``, ``threshold``) is what the command
    line and the web page build their options from.
    """

    rules: str = attrs.field(default="10e", validator=_text)
    half_range: bool = _flag("Target within half range (Rapid Fire, Melta, some rules).")
    charged: bool = _flag("The attacker charged (Lance).")
    stationary: bool = _flag("The attacker Remained Stationary (Heavy).")
    cover: bool = _flag("The target has the Benefit of Cover.")
    overwatch: bool = _flag("Fire Overwatch: hits only on an unmodified 6.")
    led: bool = _flag("The attacking unit is led by a CHARACTER (some named rules need it).")
    double_attacks: bool = _flag("Double each model's Attacks (before any +N Attacks).")
    halve_attacks: bool = _flag("Halve each model's Attacks, rounding up (before doubling and "
                                "any +N Attacks).")
    attacks_mod: int = _modifier(-6, 6, "Add to each model's Attacks (never below 1).")
    hit_mod: int = _modifier(-6, 6, "Add to Hit rolls.")
    wound_mod: int = _modifier(-6, 6, "Add to Wound rolls.")
    wound_mod_if_stronger: int = _modifier(-6, 6, "Add to Wound rolls when S > T.")
    save_mod: int = _modifier(-6, 6, "Add to saving throws.")
    damage_mod: int = _modifier(-6, 6, "Add to each attack's Damage (never below 1).")
    ap_mod: int = _modifier(-6, 6, "Improve AP by this much (1 turns -1 into -2).")
    skill_mod: int = _modifier(-5, 5, "Improve BS/WS by this much (1 turns 3+ into 2+).")
    strength_mod: int = _modifier(-20, 20, "Add to the weapons' Strength.")
    crit_hit: int = _number(6, 2, 6, "Critical Hit on this unmodified roll (default 6+).",
                            threshold=True, effect=Combine.LOWEST)
    crit_wound: int = _number(6, 2, 6, "Critical Wound on this unmodified roll (default 6+).",
                              threshold=True, effect=Combine.LOWEST)
    unmodified_hits_on: int = _number(
        7, 2, 7, "An unmodified Hit roll of X+ always hits, whatever the BS and the modifiers "
        "(default off).", threshold=True, effect=Combine.LOWEST)
    overwatch_hits_on: int = _number(
        6, 2, 6, "Fire Overwatch hits on this unmodified roll (default 6+; never higher than "
        "the rule set's).", threshold=True, effect=Combine.LOWEST)
    crit_wound_ap: int = _number(0, 0, 6, "A Critical Wound improves AP by this much.",
                                 effect=Combine.ADD)
    ignore_hit_modifiers: bool = _flag(
        "Ignore the modifiers that worsen the Hit roll (hit_mod below 0, 10e Stealth).")
    ignore_skill_modifiers: bool = _flag(
        "Ignore what worsens the BS/WS (skill_mod below 0, 11e Benefit of Cover).")
    ignore_wound_modifiers: bool = _flag(
        "Ignore the modifiers that worsen the Wound roll (wound_mod below 0, and "
        "wound_mod_if_stronger).")
    reroll_hits: Reroll | None = _pick("reroll_hits", Reroll, None, "Re-roll Hit rolls.",
                                       effect=Combine.BROADEST)
    reroll_wounds: Reroll | None = _pick("reroll_wounds", Reroll, None, "Re-roll Wound rolls.",
                                         effect=Combine.BROADEST)
    reroll_damage: DamageReroll | None = _pick(
        "reroll_damage", DamageReroll, None,
        "Re-roll Damage rolls: 'ones' a roll of 1; 'any' whenever a fresh roll is expected to "
        "take more wounds from the model.", effect=Combine.BROADEST)
    halve_damage: bool = _flag("Halve each attack's Damage (rounding up).")
    lethal_hits: LethalHits = _pick(
        "lethal_hits", LethalHits, LethalHits.ALWAYS,
        "11e: when Lethal Hits auto-wound (default always; decline: not with Devastating "
        "Wounds; best: whichever does more damage).")
    precision: bool = attrs.field(default=True, metadata={
        "help": "Allocate Precision attacks to a CHARACTER (a Leader) while one stands.",
        "off_flag": "--no-precision",
        "off_help": "Do not allocate Precision attacks to a CHARACTER (a Leader)."})
    #: abilities every weapon of the attack gains (e.g. from a stratagem)
    abilities: tuple[str, ...] = attrs.field(default=(), converter=lambda v: _canonical_all(v),
                                             metadata={"effect": Combine.ABILITIES})

    def __attrs_post_init__(self) -> None:
        # every flag and number in one pass (one validator call each costs more, and an
        # Options is made for every attack)
        for name, lo, hi in _CHECKS:
            value = getattr(self, name)
            if (value is not True and value is not False) if lo is None else (
                    type(value) is not int or not lo <= value <= hi):
                _checked(name, value, lo, hi)

    @classmethod
    def make(cls, **kwargs: Any) -> Options:
        """Like ``Options(**kwargs)`` but an unknown name is a ValueError naming the closest.

        >>> Options.make(half_rnage=True)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        mathhammer.errors.InputError: unknown option 'half_rnage'; did you mean half_range, halv...
        """
        if cls is Options:  # an option at its default (same value, same type) is no option
            for k, v in kwargs.items():  # every one at its default (the most common): at once
                if k not in _DEFAULTS or type(v) is not type(_DEFAULTS[k]) or v != _DEFAULTS[k]:
                    break
            else:
                return _DEFAULT
            kwargs = {k: v for k, v in kwargs.items() if not (
                k in _DEFAULTS and type(v) is type(_DEFAULTS[k]) and v == _DEFAULTS[k])}
            if not kwargs:
                return _DEFAULT
        try:  # each value's type in the key: 1 is not True (an option's value is checked)
            return _made(cls, tuple(sorted((k, type(v), v) for k, v in kwargs.items())))
        except TypeError:  # a value that cannot be a key (a list): made afresh
            return _make(cls, kwargs)

    def describe(self) -> str:
        """The options that differ from the defaults, e.g. ``"half_range, hit_mod=+1"``."""
        parts = []
        for a in attrs.fields(type(self)):
            v = getattr(self, a.name)
            if v == a.default or a.name == "rules":
                continue
            parts.append(show(a.name, v, signed=a.metadata.get("signed", False)))
        return ", ".join(parts) or "none"


#: (field, lowest, highest) of every number and (field, None, None) of every flag of
#: :class:`Options`, in field order: what ``__attrs_post_init__`` checks
_CHECKS: tuple[tuple[str, Any, Any], ...] = tuple(
    (f.name, *f.metadata["range"]) if "range" in f.metadata else (f.name, None, None)
    for f in attrs.fields(Options) if "range" in f.metadata or isinstance(f.default, bool))


def _make(cls: type[Options], kwargs: dict[str, Any]) -> Options:
    if not _NAMES.keys() >= kwargs.keys():
        names = list(_NAMES)
        for key in kwargs:
            if key not in _NAMES:
                raise InputError(f"unknown option {key!r}; {suggest(key, names)}")
    if cls is Options and _PLAIN.keys() >= kwargs.keys():
        return _from_default(kwargs)
    return cls(**kwargs)


def _from_default(kwargs: dict[str, Any]) -> Options:
    """``Options(**kwargs)`` of flags, numbers and choices: the default Options' values in
    every slot, then each one given, converted and checked as ``__init__`` does (its ~45
    fields' Python steps are what a query with one option spent); a value refused there is
    refused by ``Options(**kwargs)`` itself, with its own error."""
    out = _new(Options)
    for put, value in _DEFAULT_SLOTS:
        put(out, value)
    for key, value in kwargs.items():
        convert, lo, hi = _PLAIN[key]
        if convert is not None:
            try:
                value = convert(value)
            except InputError:
                return Options(**kwargs)
        elif ((value is not True and value is not False) if lo is None else (
                type(value) is not int or not lo <= value <= hi)):
            return Options(**kwargs)
        _PUT[key](out, value)
    return out


_NAMES = dict.fromkeys(a.name for a in attrs.fields(Options))  # in order
#: every option's default, and the Options of them all (made once: most queries change few)
_DEFAULTS: dict[str, Any] = {a.name: a.default for a in attrs.fields(Options)}
_DEFAULT = Options()

_new = object.__new__
#: each field's slot setter, by name, and the default Options' value of every slot (with its
#: cached hash, None: it is the hash of the fields set)
_PUT = {a.name: Options.__dict__[a.name].__set__ for a in attrs.fields(Options)}
_DEFAULT_SLOTS = tuple((_PUT[a.name], getattr(_DEFAULT, a.name)) for a in attrs.fields(Options)
                       ) + ((Options.__dict__["_attrs_cached_hash"].__set__, None),)
#: the fields :func:`_from_default` sets: a flag or number (checked as ``_CHECKS`` says), or a
#: choice (its converter); not the rule set's name nor the abilities
_RANGES = {name: (lo, hi) for name, lo, hi in _CHECKS}
_PLAIN: dict[str, tuple[Any, Any, Any]] = {
    a.name: (a.converter, None, None) if a.name not in _RANGES else (None, *_RANGES[a.name])
    for a in attrs.fields(Options) if a.validator is None and a.name != "abilities"
    and (a.name in _RANGES or a.converter is not None)}


@cached(maxsize=256)
def _made(cls: type[Options], items: tuple[tuple[str, type, Any], ...]) -> Options:
    """:meth:`Options.make` of the same options, remembered (a query's options are checked
    once).

    >>> Options.make(half_range=True) is Options.make(half_range=True)
    True
    >>> Options.make(half_range=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: half_range: expected true or false, got 1
    """
    return _make(cls, {k: v for k, _t, v in items})
