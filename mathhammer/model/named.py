"""What a named rule is (docs/rules.md, section 12): a stratagem, detachment rule,
enhancement or ability as frozen values, and the tables saying how each effect field combines.

A rule has conditions (:class:`Conditions`) and one or more effect clauses (:class:`Effect`)
made of :class:`~mathhammer.model.options.Options` fields and target changes, or a one-off
mortal-wound roll (:class:`MortalWoundsRoll`). Reading rules from files is
:mod:`mathhammer.data.rules.named`; applying them to an attack is
:mod:`mathhammer.mechanics.named`.

>>> rule = NamedRule("Enslaved Artifice", faction="Necrons", kind="stratagem",
...                  side="attacker", text="An unmodified Hit roll of 5+ is a Critical Hit.",
...                  effects=(Effect((("crit_hit", 5),)),))
>>> rule.describe(), rule.usable
('crit_hit=5', True)
>>> "crit_hit" in LOWEST  # of two critical thresholds, the lowest wins
True
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from ..prob.dice import dice
from ..prob.pmf import PMF
from .options import Combine, Options, show
from .profiles import Target, Weapon

KINDS = ("stratagem", "detachment rule", "enhancement", "datasheet ability", "army rule")
SIDES = ("attacker", "defender")
@attrs.frozen
class EffectField:
    """One field of a named rule's effect: its name, how rules combine it, and its help.

    The fields are declared once: an option of an attack is an effect field when its
    :class:`~mathhammer.model.options.Options` field's metadata says how rules set it
    (``effect``); the changes to the target are :data:`TARGET_EFFECTS`. The tables below, the
    rule files' validation (:mod:`mathhammer.data.rules.named_schema`), the describer and the
    rule step that applies them (:func:`mathhammer.mechanics.named.apply_rules`) are made from
    :data:`EFFECTS`; ``tests/test_oracles.py`` fails until both oracles play a new option.

    >>> FIELD_OF["hit_mod"].combine, FIELD_OF["hit_mod"].show(1)
    (<Combine.ADD: 'add'>, 'hit_mod=+1')
    >>> FIELD_OF["reroll_damage"].choices, FIELD_OF["reroll_damage"].broadest(None, "ones")
    (('ones', 'any'), 'ones')
    """

    name: str
    combine: Combine
    help: str = ""
    #: shown with its sign (a modifier: ``hit_mod=+1``)
    signed: bool = False
    #: a change to the target unit, not to the attack's options
    on_target: bool = False
    #: the values a rule may give it, from the narrowest to the broadest (a re-roll policy:
    #: its choices' values; the broadest wins)
    choices: tuple[str, ...] = ()

    def show(self, value: Any) -> str:
        """The field set to ``value``, as text."""
        return show(self.name, value, signed=self.signed)

    def broadest(self, *values: str | None) -> str | None:
        """The broadest of values of a field with ``choices`` (None, no value, is narrowest)."""
        order = (None, *self.choices)
        return max(values, key=order.index)


#: The changes to the target a rule can make: the better save / Feel No Pain wins, abilities
#: are added.
TARGET_EFFECTS = (
    EffectField("invuln", Combine.BETTER, "An invulnerable save of X+.", on_target=True),
    EffectField("fnp", Combine.BETTER, "Feel No Pain X+.", on_target=True),
    EffectField("fnp_mortal", Combine.BETTER, "Feel No Pain X+ against mortal wounds.",
                on_target=True),
    EffectField("fnp_psychic", Combine.BETTER, "Feel No Pain X+ against Psychic attacks.",
                on_target=True),
    EffectField("target_abilities", Combine.TARGET_ABILITIES, "Abilities the target gains.",
                on_target=True),
)
#: Every effect field, in the order the tables below list them: the options a rule can set
#: (from :class:`Options`' metadata), the target's changes, and the one-off mortal wounds.
EFFECTS: tuple[EffectField, ...] = (
    *(EffectField(f.name, f.metadata["effect"], f.metadata.get("help", ""),
                  f.metadata.get("signed", False),
                  choices=tuple(c.value for c in f.metadata.get("choices", ())))
      for f in attrs.fields(Options) if f.metadata.get("effect") is not None),
    *TARGET_EFFECTS,
    EffectField("mortal_wounds", Combine.ROLL, "A one-off roll mapped to mortal wounds."),
)
FIELD_OF = {f.name: f for f in EFFECTS}


def _of(*combine: Combine) -> tuple[str, ...]:
    return tuple(f.name for f in EFFECTS if f.combine in combine)


#: Options fields whose values add up when several rules change them.
ADDITIVE = _of(Combine.ADD)
#: Options fields where the lowest value wins (critical thresholds).
LOWEST = _of(Combine.LOWEST)
#: Options fields that hold a re-roll policy; the broadest wins.
REROLL_FIELDS = _of(Combine.BROADEST)
#: Options fields that are switches; a rule can only switch them on.
SWITCHES = _of(Combine.SWITCH)
#: Changes to the target: the better save / Feel No Pain wins, abilities are added.
TARGET_FIELDS = tuple(f.name for f in TARGET_EFFECTS)
#: the target's X+ values a rule can give: the better (lower) one wins
TARGET_XPLUS = _of(Combine.BETTER)
EFFECT_FIELDS = (
    ADDITIVE + LOWEST + REROLL_FIELDS + SWITCHES + _of(Combine.ABILITIES) + TARGET_FIELDS
    + _of(Combine.ROLL)
)


@attrs.frozen
class Conditions:
    """When a rule (or one clause of its effect) applies; ``None`` means "either way".

    ``attack`` is ``"ranged"`` or ``"melee"``; ``weapon_ability`` needs the printed weapon to
    have that ability; the others compare with the option or keyword of the same name.

    >>> Conditions(attack="melee", led=True).describe()
    'melee attacks, led by a CHARACTER'
    """

    attack: str | None = None
    led: bool | None = None
    half_range: bool | None = None
    charged: bool | None = None
    stationary: bool | None = None
    below_half: bool | None = None
    below_starting: bool | None = None
    weapon_ability: str | None = None
    #: the target has one of these keywords (upper case)
    target_keywords: tuple[str, ...] | None = None
    #: the target has none of these keywords ("targets a unit (excluding MONSTERS)")
    target_not_keywords: tuple[str, ...] | None = None
    #: only these weapons (by name): a rule of one model of an attached unit
    weapons: tuple[str, ...] | None = None
    #: only these model groups of the target (by name): a rule of one model of an attached unit
    groups: tuple[str, ...] | None = None
    #: only weapons the text names ("its doomsday cannon", "reaper chain-cleaver / strike": a
    #: profile), matched loosely on the weapon's name (:func:`names_weapon`)
    weapon_names: tuple[str, ...] | None = None
    #: only weapons with one of these abilities printed ("Torrent or Melta weapons")
    weapon_abilities: tuple[str, ...] | None = None
    #: only weapons without these abilities printed ("all other ranged weapons")
    without_abilities: tuple[str, ...] | None = None
    #: only weapons not named so ("2 melee weapons in addition to its close combat weapon":
    #: every melee weapon but the close combat weapon), matched as ``weapon_names``
    without_names: tuple[str, ...] | None = None
    #: only an attack whose Damage characteristic is this number ("an attack with a Damage
    #: characteristic of 1"): the printed Damage, fixed (a dice Damage never is), with the
    #: options' ``damage_mod`` (``unmodified``: as printed)
    damage: int | None = None
    unmodified_damage: bool = False

    def holds(
        self, weapon: Weapon, options: Options, *, below_half: bool, below_starting: bool,
        target: Target | None = None,
    ) -> bool:
        """Whether every condition holds for this weapon, options, target and its strength
        (a keyword condition without a target does not hold)."""
        if self.attack is not None and (self.attack == "melee") != weapon.melee:
            return False
        if self.weapon_ability is not None and self.weapon_ability not in weapon.abilities:
            return False
        if self.weapons is not None and weapon.name not in self.weapons:
            return False
        if self.weapon_names is not None and not any(names_weapon(n, weapon.name)
                                                     for n in self.weapon_names):
            return False
        if self.weapon_abilities is not None and not any(
                _has_ability(weapon, a) for a in self.weapon_abilities):
            return False
        if self.without_abilities is not None and any(
                _has_ability(weapon, a) for a in self.without_abilities):
            return False
        if self.without_names is not None and any(names_weapon(n, weapon.name)
                                                  for n in self.without_names):
            return False
        if self.damage is not None:
            printed = weapon.damage.strip()
            if not printed.isdigit():
                return False  # a dice Damage is no fixed characteristic
            modified = int(printed) + (0 if self.unmodified_damage else options.damage_mod)
            if max(1, modified) != self.damage:
                return False
        if self.groups is not None and (target is None or target.name not in self.groups):
            return False
        if self.target_keywords is not None and (
                target is None or not set(self.target_keywords) & set(target.keywords)):
            return False
        if self.target_not_keywords is not None and (
                target is None or set(self.target_not_keywords) & set(target.keywords)):
            return False
        actual = {
            "led": options.led, "half_range": options.half_range, "charged": options.charged,
            "stationary": options.stationary, "below_half": below_half,
            "below_starting": below_starting,
        }
        return all(
            getattr(self, key) is None or getattr(self, key) == value
            for key, value in actual.items()
        )

    def describe(self) -> str:
        words = {
            "led": "led by a CHARACTER", "half_range": "within half range",
            "charged": "after charging", "stationary": "remained stationary",
            "below_half": "target below half strength",
            "below_starting": "target below starting strength",
        }
        parts = [f"{self.attack} attacks"] if self.attack else []
        for key, text in words.items():
            value = getattr(self, key)
            if value is not None:
                parts.append(text if value else f"not {text}")
        if self.weapon_ability:
            parts.append(f"weapons with {self.weapon_ability}")
        if self.target_keywords:
            parts.append(f"target {' or '.join(self.target_keywords)}")
        if self.target_not_keywords:
            parts.append(f"target not {' or '.join(self.target_not_keywords)}")
        if self.weapons:
            parts.append(f"with {', '.join(self.weapons)}")
        if self.weapon_names:
            parts.append(f"with {' or '.join(self.weapon_names)}")
        if self.weapon_abilities:
            parts.append(f"weapons with {' or '.join(self.weapon_abilities)}")
        if self.without_abilities:
            parts.append(f"weapons without {' or '.join(self.without_abilities)}")
        if self.without_names:
            parts.append(f"not with {' or '.join(self.without_names)}")
        if self.damage is not None:
            parts.append(f"{'unmodified ' if self.unmodified_damage else ''}Damage "
                         f"{self.damage} attacks")
        if self.groups:
            parts.append(f"against {', '.join(self.groups)}")
        return ", ".join(parts)


def _has_ability(weapon: Weapon, ability: str) -> bool:
    """Whether a weapon has an ability printed, of this kind ("rapid fire" is "rapid fire 1",
    "anti" any "anti-vehicle 4+")."""
    return any(a == ability or a.startswith(ability + " ") or ability == "anti" and
               a.startswith("anti-") for a in weapon.abilities)


def _squash(text: str) -> str:
    """A name without case, spaces, punctuation or a plural's s on each word."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "".join(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                   for w in words)


def names_weapon(phrase: str, name: str) -> bool:
    """Whether a weapon's name is one a text names: every part of the phrase (``/`` joins a
    weapon and its profile) in the name, without case, spaces or plurals; "A and B" names either.

    >>> names_weapon("reaper chain-cleaver / strike", "Reaper chaincleaver - strike")
    True
    >>> names_weapon("bolt rifles", "Bolt rifle"), names_weapon("Tyrnak and Fenrir", "Fenrir")
    (True, True)
    >>> names_weapon("doomsday cannon", "Gauss flayer array")
    False
    """
    have = _squash(name)
    if all(_squash(part) in have for part in phrase.split("/")):
        return True
    parts = re.split(r",\s*(?:and |or )?|(?<!\s)\s+(?:and|or)\s+", phrase)
    return len(parts) > 1 and any(p.strip() and _squash(p) in have for p in parts)


@attrs.frozen
class MortalWoundsRoll:
    """A one-off roll mapped to mortal wounds, e.g. D6: 2-4 -> 1, 5+ -> 2.

    >>> mw = MortalWoundsRoll(roll="D6", table=((2, 4, "1"), (5, 6, "2")))
    >>> mw.pmf().mean(), mw.describe()
    (Fraction(7, 6), 'D6: 2-4 -> 1, 5+ -> 2')
    """

    roll: str
    table: tuple[tuple[int, int, str], ...]

    def wounds_on(self, face: int) -> str:
        """The mortal wounds (a dice expression) for one result of the roll; ``"0"`` if none."""
        return next((w for lo, hi, w in self.table if lo <= face <= hi), "0")

    def pmf(self) -> PMF:
        """The distribution of mortal wounds the roll inflicts."""
        return dice(self.roll).bind(lambda face: dice(self.wounds_on(face)))

    def describe(self) -> str:
        top = max(dice(self.roll).outcomes())

        def faces(lo: int, hi: int) -> str:
            return str(lo) if lo == hi else f"{lo}+" if hi == top else f"{lo}-{hi}"

        return f"{self.roll}: " + ", ".join(f"{faces(lo, hi)} -> {w}" for lo, hi, w in self.table)


@attrs.frozen
class Effect:
    """One clause of a rule's effect: changes that apply when ``requires`` holds."""

    changes: tuple[tuple[str, Any], ...]
    requires: Conditions = Conditions()
    #: additive fields that do not stack with other improvements (e.g. Hungry Void's AP)
    not_cumulative: tuple[str, ...] = ()

    def describe(self) -> str:
        return ", ".join(FIELD_OF[key].show(value) for key, value in self.changes)


@attrs.frozen
class NamedRule:
    """A stratagem, detachment rule, enhancement or ability that changes the numbers."""

    name: str
    faction: str
    kind: str
    side: str
    text: str
    detachment: str | None = None
    cp: int | None = None
    aliases: tuple[str, ...] = ()
    #: what the player asserts by switching the rule on (not checked by the engine)
    assumes: str = ""
    note: str = ""
    requires: Conditions = Conditions()
    effects: tuple[Effect, ...] = ()
    mortal_wounds: MortalWoundsRoll | None = None
    #: why the rule changes no numbers of an attack (then it cannot be applied)
    no_effect: str = ""
    #: why a rule that changes an attack is not modelled (then it cannot be applied)
    not_modelled: str = ""
    #: the seed page the rule was taken from
    source: str = ""
    #: the file the rule was loaded from
    file: str = ""

    @property
    def usable(self) -> bool:
        """Whether :func:`~mathhammer.mechanics.named.apply_rules` can use it (not a mortal-wound
        roll, not effect-free)."""
        return self.mortal_wounds is None and not self.no_effect and not self.not_modelled

    def describe(self) -> str:
        """A one-line summary of the conditions and effect.

        >>> tyrant = NamedRule(
        ...     "Protocol of the Conquering Tyrant", "Necrons", "stratagem", "attacker", "...",
        ...     requires=Conditions(attack="ranged", half_range=True),
        ...     effects=(Effect((("reroll_hits", "ones"),)),
        ...              Effect((("reroll_hits", "failed"),), Conditions(led=True))))
        >>> print(tyrant.describe())  # doctest: +ELLIPSIS
        ranged attacks, within half range: reroll_hits=ones; if led by a CHARACTER: ...=failed
        """
        if self.no_effect:
            return f"no effect on an attack: {self.no_effect}"
        if self.not_modelled:
            return f"not modelled: {self.not_modelled}"
        if self.mortal_wounds is not None:
            return f"mortal wounds {self.mortal_wounds.describe()}"
        clauses = []
        for effect in self.effects:
            cond = effect.requires.describe()
            clauses.append(f"if {cond}: {effect.describe()}" if cond else effect.describe())
        head = self.requires.describe()
        return f"{head}: {'; '.join(clauses)}" if head else "; ".join(clauses)


__all__ = [
    "ADDITIVE", "Conditions", "EFFECTS", "EFFECT_FIELDS", "Effect", "EffectField", "FIELD_OF",
    "KINDS", "LOWEST", "MortalWoundsRoll", "NamedRule", "REROLL_FIELDS", "SIDES", "SWITCHES",
    "TARGET_EFFECTS", "TARGET_FIELDS", "TARGET_XPLUS", "names_weapon",
]
