"""What a datasheet is: a :class:`Unit` of model groups that carry weapons, as frozen values.

A :class:`Unit` is what ``mh.attack`` accepts on either side: :meth:`Unit.as_profiles` gives
the weapons that fire in a phase with how many models carry each, :meth:`Unit.as_target` the
defending profile. Unit files are read into these values by :mod:`mathhammer.data.units.file`
and found by name by :mod:`mathhammer.data.units.bundled`.

>>> from mathhammer.model.profiles import Weapon
>>> bolt = UnitWeapon(Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1))
>>> meq = Unit("MEQ", "Archetypes", (ModelGroup("MEQ", 5, 10, toughness=4, save=3, wounds=2,
...                                             weapons=(bolt,)),))
>>> from mathhammer.engine.attack import value_against  # the engine scores weapon choice
>>> [(w.name, n) for w, n in meq.as_profiles(models=10, score=value_against(None))]
[('Bolt rifle', 10)]
>>> meq.as_target().models
5
>>> meq.describe()
'MEQ (Archetypes): 5-10 x T4 Sv3+ W2'

Why one module over 400 lines: a :class:`Unit` is one value read on both sides of an attack,
and its size (:meth:`Unit.composition`: how its groups share it out), the weapons it fires
(:meth:`Unit.loadout`), its cost and its target profile (:meth:`Unit.as_target`) all read the
same make-up of its groups; split apart, each part would take the others' rules again.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from ...errors import InputError, NotCarried
from ...model.loadout import Carried, Loadout, Score, choose, fires_both, profile_families
from ...model.profiles import Target, Weapon
from ...model.squad import Squad
from ...prob.dice import format_dice
from .picks import TooMany, picked


def show(value: Any) -> str:
    """A value as it would be written in TOML: strings in double quotes.

    >>> show("3+"), show(True), show(3)
    ('"3+"', 'true', '3')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | list | dict):
        return json.dumps(value, ensure_ascii=False)
    return repr(value)


# ---------------------------------------------------------------------------------------------
# Core and faction abilities of a unit (weapon abilities are mathhammer.model.abilities)

#: The core abilities of the 10th edition without a parameter, in their printed spelling.
CORE_FLAGS = ("Deep Strike", "Fights First", "Hover", "Infiltrators", "Leader", "Lone Operative",
              "Stealth")
#: Core abilities with a parameter.
CORE_PARAMETRISED = ("Deadly Demise X", "Feel No Pain X+", "Firing Deck X", 'Scouts X"')
_CORE_FLAG = {c.lower(): c for c in CORE_FLAGS}
_DEADLY = re.compile(r"^deadly demise\s+(.+)$")
_FNP = re.compile(r"^feel no pain\s+(\d+)\+$")
_FIRING = re.compile(r"^firing deck\s+(\d+)$")
_SCOUTS = re.compile(r"^scouts\s+(\d+)\s*(?:\"|”|'')?$")
#: Faction abilities that change the numbers (any other faction ability is kept as a name).
REANIMATION = "Reanimation Protocols"


def canonical_core(text: str) -> str:
    """Check one core ability and return its printed spelling.

    >>> canonical_core("feel no pain 5+"), canonical_core("DEADLY DEMISE d3")
    ('Feel No Pain 5+', 'Deadly Demise D3')
    >>> canonical_core("Sneaky")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown core ability "Sneaky"; known: Deep Strike, Fights Firs...
    """
    t = " ".join(str(text).lower().split())
    if t in _CORE_FLAG:
        return _CORE_FLAG[t]
    if m := _DEADLY.match(t):
        try:
            return f"Deadly Demise {format_dice(m.group(1))}"
        except ValueError:
            raise InputError(f"bad core ability {show(text)}: Deadly Demise needs a number "
                             f"or dice expression") from None
    if (m := _FNP.match(t)) and 2 <= int(m.group(1)) <= 6:
        return f"Feel No Pain {int(m.group(1))}+"
    if m := _FIRING.match(t):
        return f"Firing Deck {int(m.group(1))}"
    if m := _SCOUTS.match(t):
        return f'Scouts {int(m.group(1))}"'
    known = ", ".join(CORE_FLAGS + CORE_PARAMETRISED)
    if t.startswith("feel no pain"):
        raise InputError(f"bad core ability {show(text)}: "
                         "expected Feel No Pain X+ with X from 2 to 6")
    raise InputError(f"unknown core ability {show(text)}; known: {known}")


# ---------------------------------------------------------------------------------------------
# Value types

def _by_size(values: tuple[int, ...], models: int, smallest: int) -> int | None:
    """Of values per size from the smallest (the last for larger sizes), ``models``'s."""
    return values[min(max(models - smallest, 0), len(values) - 1)] if values else None


@attrs.frozen
class UnitWeapon:
    """A weapon a model group carries; ``optional`` wargear fires only when picked by name."""

    weapon: Weapon
    optional: bool = False
    #: how many of the group's models carry it (an army list's exact wargear); None: all
    count: int | None = None
    #: the weapon this is one profile of ("Plasma incinerator" for its standard and
    #: supercharge profiles, the lines under a ➤ weapon): a model uses one profile of it at a
    #: time; None: a weapon of its own
    profile_of: str | None = None
    #: how many models carry it by default at each size of the group from its smallest (the
    #: datasheet's loadout, when it does not follow ``count``); (): ``count`` scaled
    counts: tuple[int, ...] = ()
    #: the most models that may carry it (each its number of it) as the datasheet's options
    #: allow, one value for every size or one per size from the smallest; (): no limit
    max: tuple[int, ...] = ()
    #: its shared slot (a selection group: a Devastator's heavy weapon), and at most how many
    #: weapons of it the group's models take together (as ``max``)
    slot: str | None = None
    slot_max: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        return self.weapon.name

    def slot_max_at(self, models: int, smallest: int) -> int | None:
        """At most how many weapons of its slot ``models`` models carry; None: no slot.

        >>> w = UnitWeapon(Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3,
        ...                       damage="D6+1"), slot="Weapon Option", slot_max=(4,))
        >>> w.slot_max_at(5, 5), w.slot_max_at(10, 5)
        (4, 4)
        """
        return None if self.slot is None else _by_size(self.slot_max, models, smallest)

    def max_at(self, models: int, smallest: int) -> int | None:
        """The most of it a group of ``models`` models (``smallest`` at its smallest) may
        carry, as the datasheet's options allow; None: no limit but the models.

        >>> w = UnitWeapon(Weapon("Grenade launcher", attacks=1, skill=3, strength=9, ap=-2,
        ...                       damage=2), optional=True, max=(1, 1, 1, 1, 1, 2))
        >>> w.max_at(5, 5), w.max_at(10, 5), UnitWeapon(w.weapon).max_at(10, 5)
        (1, 2, None)
        """
        return _by_size(self.max, models, smallest)

    def default_at(self, models: int, smallest: int) -> int:
        """How many of ``models`` models carry it by default (``optional``: as many as may):
        its count at that size, else ``count`` scaled to the size, never above :meth:`max_at`.

        >>> hb = UnitWeapon(Weapon("Heavy bolter", attacks=3, skill=4, strength=5, ap=-1,
        ...                        damage=2), count=4, max=(4,))
        >>> hb.default_at(5, 5), hb.default_at(10, 5)  # 4 heavy-weapon slots at any size
        (4, 4)
        """
        most = self.max_at(models, smallest)
        if self.optional and not self.counts and self.count is None:
            return models if most is None else most
        if self.counts:
            n = self.counts[min(max(models - smallest, 0), len(self.counts) - 1)]
        elif self.count is None:
            n = models
        elif not smallest:
            n = min(self.count, models)
        else:
            n = max(1, self.count * models // smallest) if models else 0
        return n if most is None else min(n, most)

    @property
    def melee(self) -> bool:
        return self.weapon.melee


@attrs.frozen
class ModelGroup:
    """Models of one profile in a unit: ``min_models``-``max_models`` of them, X+ values as ints."""

    name: str
    min_models: int
    max_models: int
    toughness: int
    save: int
    wounds: int
    move: int | None = None
    leadership: int | None = None
    oc: int | None = None
    invuln: int | None = None
    fnp: int | None = None
    weapons: tuple[UnitWeapon, ...] = ()

    def statline(self) -> str:
        """The characteristics as printed, e.g. ``"M8 T5 Sv3+ W5 Ld6+ OC1"``."""
        parts = [f"M{self.move}" if self.move is not None else "",
                 f"T{self.toughness}", f"Sv{self.save}+",
                 f"{self.invuln}++" if self.invuln else "", f"W{self.wounds}",
                 f"Ld{self.leadership}+" if self.leadership is not None else "",
                 f"OC{self.oc}" if self.oc is not None else "",
                 f"FNP{self.fnp}+" if self.fnp else ""]
        return " ".join(p for p in parts if p)


@attrs.frozen
class Origin:
    """Where a unit came from: the BattleScribe data of an ``edition`` (``"10e"``, ``"11e"``),
    its data ``file`` by name, the datasheet's ``entry`` there, the file's ``catalogue`` name
    and ``revision``; a unit file has only its ``file`` and ``entry``; a unit built in code
    none. Set by every reader of units (unit files, the BattleScribe import, the compiled
    store, army lists); the rules from data find the unit's catalogue by it.

    >>> o = Origin("10e", "Necrons.cat", "Immortals", "Xenos - Necrons", "5")
    >>> o.of_data, o.text()
    (True, 'BattleScribe data: Necrons.cat (Xenos - Necrons, revision 5)')
    >>> Origin(file="cronos.toml", entry="Cronos").of_data
    False
    """

    edition: str = ""
    file: str = ""
    entry: str = ""
    catalogue: str = ""
    revision: str = ""

    @property
    def of_data(self) -> bool:
        """Whether it is a unit of the BattleScribe data (an edition and a data file)."""
        return bool(self.edition and self.file)

    def text(self) -> str:
        """As a unit's ``source`` shows a unit of the data (``""`` for any other)."""
        if not self.of_data:
            return ""
        rev = f", revision {self.revision}" if self.revision else ""
        return f"BattleScribe data: {self.file} ({self.catalogue}{rev})"

    @classmethod
    def of(cls, raw: Any) -> Origin:
        """An origin from its table (a unit file's ``[origin]``, a store's JSON)."""
        return raw if isinstance(raw, Origin) else cls(**raw) if raw else cls()

    def to_table(self) -> dict[str, str]:
        """Its table, without the empty fields (a unit file's ``[origin]``)."""
        return {k: v for k, v in attrs.asdict(self).items() if v}


@attrs.frozen
class Unit:
    """One datasheet (or a standard target when ``archetype`` is true).

    ``groups`` are the model groups, the first one the main group; ``points`` pairs a unit
    size with its cost; ``core``, ``faction_abilities`` and ``datasheet_abilities`` hold the
    ability names as printed; ``joins`` the Leaders it may join ("even if one X ...")."""

    name: str
    faction: str
    groups: tuple[ModelGroup, ...]
    keywords: tuple[str, ...] = ()
    faction_keywords: tuple[str, ...] = ()
    core: tuple[str, ...] = ()
    faction_abilities: tuple[str, ...] = ()
    datasheet_abilities: tuple[str, ...] = ()
    leads: tuple[str, ...] = ()
    joins: tuple[str, ...] = ()
    points: tuple[tuple[int, int], ...] = ()
    archetype: bool = False
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: where it came from as shown (a unit of the data: its :attr:`origin`'s text)
    source: str = ""
    path: Path | None = attrs.field(default=None, eq=False, repr=False)
    #: (name, text) of its abilities, as a unit file imported from data keeps them (the rules
    #: from data are read from them: :func:`mathhammer.data.rules.unit_rules.unit_rules`)
    ability_texts: tuple[tuple[str, str], ...] = ()
    #: the make-ups the datasheet allows, each the models of every group, the first of each
    #: size its unit of that size and the first of all its unit by default (the data's
    #: constraints: :func:`mathhammer.data.bsdata.makeup.compositions`); (): every group at
    #: its smallest, ``models=`` sizing the first
    compositions: tuple[tuple[int, ...], ...] = ()
    #: where it came from (:class:`Origin`: the data file and entry of a unit of the data)
    origin: Origin = Origin()

    # -- abilities that change the numbers ------------------------------------------------

    @property
    def stealth(self) -> bool:
        return "Stealth" in self.core

    @property
    def leader(self) -> bool:
        return "Leader" in self.core

    @property
    def reanimation(self) -> bool:
        """The unit has Reanimation Protocols (it reanimates D3 wounds each Command phase)."""
        return any(a.lower() == REANIMATION.lower() for a in self.faction_abilities)

    @property
    def deadly_demise(self) -> str | None:
        """The X of Deadly Demise X (a dice expression), or None."""
        for c in self.core:
            if c.startswith("Deadly Demise "):
                return c.removeprefix("Deadly Demise ")
        return None

    @property
    def size(self) -> tuple[int, int]:
        """The smallest and largest number of models in the unit."""
        if self.compositions:
            sizes = self.sizes
            return sizes[0], sizes[-1]
        return sum(g.min_models for g in self.groups), sum(g.max_models for g in self.groups)

    @property
    def sizes(self) -> tuple[int, ...]:
        """Every number of models ``models=`` may give the unit, smallest first (without
        :attr:`compositions`: its first group from 1 model to its most, the others at their
        smallest).

        >>> from mathhammer.data.units.bundled import load_unit
        >>> load_unit("Necron Warriors").sizes[:3]
        (1, 2, 3)
        """
        if self.compositions:
            return tuple(sorted({sum(c) for c in self.compositions}))
        others = sum(g.min_models for g in self.groups[1:])
        return tuple(range(others + 1, others + self.groups[0].max_models + 1))

    def composition(self, models: int | None = None) -> tuple[int, ...]:
        """How many models each group has in the unit of ``models`` models (its default
        size when None): the datasheet's make-up of that size, as :attr:`compositions` gives
        it; without them, every group at its smallest and the first group the rest. A size the
        unit cannot have is an error naming the sizes it can.

        >>> from mathhammer.data.units.bundled import load_unit
        >>> load_unit("Necron Warriors").composition(12)
        (12,)
        """
        if models is not None and (isinstance(models, bool) or not isinstance(models, int)
                                   or models not in self.sizes):
            sizes = self.sizes
            want = _sizes_text(sizes) if self.compositions else \
                f"an integer from {sizes[0]} to {sizes[-1]}"
            raise InputError(f"models: expected {want} for {self.name}, got {show(models)}")
        if self.compositions:
            if models is None:
                return self.compositions[0]
            return next(c for c in self.compositions if sum(c) == models)
        counts = [g.min_models for g in self.groups]
        if models is not None:
            counts[0] = models - sum(counts[1:])
        return tuple(counts)

    def makeups(self, models: int | None = None) -> tuple[tuple[int, ...], ...]:
        """Every make-up of the unit's size (``models``, else its default size), the
        datasheet's first: the others a player may choose (a Custodian with a blade and a
        shield in place of one with a spear)."""
        first = self.composition(models)
        others = tuple(c for c in self.compositions if sum(c) == sum(first) and c != first)
        return (first, *others)

    def made_of(self, counts: Iterable[int]) -> str:
        """A make-up in words: ``"9 Boy w/ Slugga and choppa and 1 Boss Nob"``."""
        parts = [f"{n} {g.name}" for n, g in zip(counts, self.groups, strict=True) if n]
        return " and ".join(parts) if len(parts) < 3 else \
            ", ".join(parts[:-1]) + f" and {parts[-1]}"

    # -- what the engine reads ------------------------------------------------------------

    def weapons(self, melee: bool | None = None) -> list[UnitWeapon]:
        """All weapons in file order, optionally only the melee (True) or ranged (False) ones."""
        return [w for g in self.groups for w in g.weapons if melee is None or w.melee == melee]

    def as_profiles(self, melee: bool = False, weapons: Iterable[str] | None = None,
                    models: int | None = None, **choice: Any) -> list[tuple[Weapon, int]]:
        """The ``(weapon, models firing it)`` pairs that fire in the shooting (or fight) phase:
        :meth:`loadout`'s ``fired`` (``choice`` is its keyword arguments: ``score`` and
        ``pistols``).

        >>> from mathhammer.data.units.bundled import load_unit
        >>> from mathhammer.engine.attack import value_against
        >>> hexmark = load_unit("Hexmark Destroyer")
        >>> [(w.name, n) for w, n in hexmark.as_profiles(melee=True, score=value_against(None))]
        [('Close combat weapon', 1)]
        """
        return list(self.loadout(melee, weapons, models, **choice).fired)

    def loadout(self, melee: bool = False, weapons: Iterable[str] | None = None,
                models: int | None = None, *, score: Score | None = None,
                pistols: bool = False) -> Loadout:
        """What fires in the shooting (or fight) phase and what is left out, by the rules of
        :mod:`mathhammer.model.loadout` (one choice of Pistols or other guns per model, one
        melee weapon plus Extra Attacks, one profile per weapon), each choice the one of the
        highest ``score``: one model's E[damage] against the target, which the caller that
        runs the engine passes in (:func:`mathhammer.engine.attack.value_against`; the
        library's :func:`mathhammer.loadout` against a target, MEQ by default). The data
        scores nothing itself: without a score this is a TypeError.

        Without ``weapons`` every non-optional weapon of the phase is carried; ``weapons``
        picks by name (case-insensitive, a unique prefix is enough; optional wargear too), in
        the order given; ``"2x Lascannon"`` or a name given twice asks for two of them.
        ``models`` is the unit's size (its groups as :meth:`composition` shares it out); when
        the weapons picked need models of another make-up of that size (two blades: two
        Custodians with a blade and a shield for two with a spear), the first that carries
        them is taken, and a warning names it. ``pistols`` is a unit within Engagement Range
        (only Pistols shoot, for models that are not MONSTER or VEHICLE).

        >>> from mathhammer.data.units.bundled import load_unit
        >>> from mathhammer.engine.attack import value_against
        >>> out = load_unit("Cronos").loadout(weapons=["spirit v", "spirit s"], models=2,
        ...                                   score=value_against(None))
        >>> [(w.name, n) for w, n in out.fired], out.left_out
        ([('Spirit vortex', 2), ('Spirit syphon', 2)], ())
        """
        if score is None:
            raise TypeError(f"{self.name}: weapon choice needs a score (score=value_against("
                            "target), from mathhammer.engine.attack; or mathhammer.loadout("
                            "unit, target=...))")
        if weapons is not None:
            weapons = [weapons] if isinstance(weapons, str) else list(weapons)
        choices = self.makeups(models) if weapons is not None else (self._counts(models),)
        first: InputError | None = None
        for counts in choices:
            try:
                out = self._loadout(list(counts), melee, weapons, score=score,
                                    pistols=pistols)
            except InputError as e:  # too many of a weapon: the make-up that carries the most
                if first is None or isinstance(e, TooMany) and isinstance(first, TooMany) \
                        and e.most > first.most:
                    first = e
                continue
            if tuple(counts) != tuple(choices[0]):
                warnings.warn(f"{self.name}: the weapons picked need another make-up of its "
                              f"{sum(counts)} models: {self.made_of(counts)} (the datasheet's "
                              f"is {self.made_of(choices[0])})", UserWarning, stacklevel=2)
            return out
        assert first is not None
        raise first

    def _loadout(self, counts: list[int], melee: bool, weapons: Iterable[str] | None, *,
                 score: Score, pistols: bool) -> Loadout:
        """:meth:`loadout` with each group's models given."""
        carried = [(w, w.default_at(counts[i], g.min_models), i)
                   for i, g in enumerate(self.groups) for w in g.weapons
                   if w.melee == bool(melee)]
        phase = "melee" if melee else "ranged"
        if not carried:
            raise NotCarried(f"{self.name} has no {phase} weapons")
        if weapons is None:
            chosen = [c for c in carried if not c[0].optional and c[1] > 0]
        else:
            chosen = picked(self, weapons, carried, phase, melee, sum(counts), counts)
        families = [profile_families([w.name for w in g.weapons]) for g in self.groups]
        wanted = [Carried(w.weapon, n, i, w.profile_of or families[i].get(w.name))
                  for w, n, i in chosen]
        return choose(wanted, counts, score,
                      melee=bool(melee), both=fires_both(self.keywords), pistols=pistols)

    def cost(self, models: int | None = None) -> int | None:
        """The unit's points at ``models`` models (its default size by default); None when
        the datasheet gives no cost for that size.

        >>> from mathhammer.data.units.bundled import load_unit
        >>> load_unit("Necron Warriors").cost(20) > load_unit("Necron Warriors").cost()
        True
        """
        table = dict(self.points or ())
        if not table:
            return None
        return table.get(models if models is not None else sum(self.composition()))

    def as_target(self, models: int | None = None) -> Target | Squad:
        """The defending unit at ``models`` models (its default size by default): each model
        group with models in it, with its own statline, saves and Feel No Pain and the unit's
        keywords, in the order of the groups (the rank and file first); one group is a plain
        :class:`Target` named as the unit, several a :class:`~mathhammer.model.squad.Squad`.
        A size of a unit of several groups says how it is shared out (a warning).

        >>> from mathhammer.data.units.bundled import load_unit
        >>> t = load_unit("Cronos").as_target(models=2)
        >>> (t.models, t.toughness, t.save, t.wounds, t.fnp, t.keywords[0])
        (2, 7, 3, 7, 5, 'MONSTER')
        """
        counts = self._counts(models)
        parts = [Target(models=n, toughness=g.toughness, save=g.save, wounds=g.wounds,
                        invuln=g.invuln, fnp=g.fnp, keywords=self.keywords,
                        abilities=self._target_abilities(), name=g.name)
                 for n, g in zip(counts, self.groups, strict=True) if n]
        if len(parts) == 1:
            return attrs.evolve(parts[0], name=self.name)
        if models is not None and len(self.groups) > 1:
            warnings.warn(f"{self.name}: {models} models taken as {self.made_of(counts)} (the "
                          "datasheet's make-up of that size)", UserWarning, stacklevel=2)
        return Squad(tuple(parts), name=self.name)

    def _target_abilities(self) -> list[str]:
        """The unit's abilities that change the numbers of attacks against it."""
        out = ["stealth"] if self.stealth else []
        if self.reanimation:
            out.append("reanimation protocols")
        if self.deadly_demise:
            out.append(f"deadly demise {self.deadly_demise}")
        return out

    def _counts(self, models: int | None) -> list[int]:
        return list(self.composition(models))

    def describe(self) -> str:
        """One line: ``"Cronos (Drukhari): 1-2 x M7 T7 Sv3+ W7 Ld7+ OC2 FNP5+"``; a unit whose
        groups share its size says its sizes first (``"4-5 models: 0-5 x ...; 0-5 x ..."``)."""
        parts = []
        for g in self.groups:
            n = f"{g.min_models}-{g.max_models}" if g.min_models < g.max_models else g.min_models
            parts.append(f"{n} x {g.statline()}")
        head = f"{_sizes_text(self.sizes, short=True)} models: " if self.compositions else ""
        return f"{self.name} ({self.faction}): {head}{'; '.join(parts)}"


def _sizes_text(sizes: tuple[int, ...], short: bool = False) -> str:
    """The sizes a unit may have in words (``short``: for a unit's description).

    >>> _sizes_text((10, 11, 12)), _sizes_text((10, 11, 12), short=True), _sizes_text((11, 22))
    ('an integer from 10 to 12', '10-12', '11 or 22')
    """
    if len(sizes) > 2 and sizes == tuple(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}-{sizes[-1]}" if short else f"an integer from {sizes[0]} to {sizes[-1]}"
    return " or ".join(map(str, sizes)) if len(sizes) < 3 else \
        ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}"

