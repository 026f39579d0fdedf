"""A unit's rules from data, sorted for one side of an attack: the text of its abilities
(from the catalogue it was imported from), translated by :mod:`mathhammer.data.rules.translate`,
then applied, offered as switches or named as not modelled, with a Leader's "while leading"
rules reaching the unit it leads (docs/rules.md, section 12). Each rule reaches its
beneficiary only (:func:`resolve`): a rule for friendly units is the unit's own when it is one
of them, a debuff its own switch when attacked, a rule of one named model that model's group;
the rules for other units are refused on their bearer and offered to the units they name
(:class:`Offer`). Also every ability of a catalogue or of the installed data
(:func:`edition_abilities`, which :func:`~mathhammer.data.rules.coverage.data_coverage` counts).

Why one module: a unit's rules are read, resolved for the unit, sorted for a side and offered
to other units in one place, so whom each rule reaches is decided once.

>>> from .translate import translate
>>> parts = translate("Tactical Precision", "While this model is leading a unit, weapons "
...                   "equipped by models in that unit have the [LETHAL HITS] ability.")
>>> side_rules(parts, "attacker").applied, len(side_rules(parts, "attacker", leading=True).applied)
((), 1)
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from ...cache import cached
from ...errors import InputError
from ...model.named import TARGET_XPLUS, NamedRule
from ..typed.names import name_key
from .detachments import for_unit, has_keywords, linked_files, unit_keywords
from .parts import DataRule, Scope
from .stratagems import stratagem_rules
from .translate import translate
from .whom import ONE_MODEL, is_keyword_model

if TYPE_CHECKING:
    from ..store.data_folder import Edition
    from ..units.unit import Origin

# -- a unit's rules ----------------------------------------------------------------------------

def origin_of(unit: Any) -> Origin:
    """Where a unit came from (an army list's unit: its datasheet's;
    :class:`~mathhammer.data.units.unit.Origin`)."""
    from ..units.unit import Origin  # the unit values, when a unit is asked about

    origin = getattr(unit, "origin", None)
    return origin if isinstance(origin, Origin) else Origin()


def _catalogue_of(unit: Any, data: str | os.PathLike | None) -> Path | None:
    """The installed catalogue file a data unit was imported from (None: not a data unit)."""
    origin = origin_of(unit)
    if not origin.of_data:
        return None
    from ..store.data_folder import edition_dir

    try:
        path = edition_dir(origin.edition, data) / origin.file  # type: ignore[arg-type]
    except InputError:
        return None
    return path if path.is_file() else None


@cached(maxsize=64)
def _texts(path: str, _mtime: int, name: str) -> tuple[tuple[str, str], ...]:
    from ..bsdata.files import open_library
    from ..bsdata.texts import ability_texts

    return tuple(ability_texts(open_library(path), name))


def _stored_texts(edition: str, path: Path, name: str, data: str | os.PathLike | None
                  ) -> tuple[tuple[str, str], ...] | None:
    """The texts the compiled catalogue keeps for a datasheet of ``path`` (None: not there)."""
    from ..store.index import unit_index

    index = unit_index(edition, data)  # type: ignore[arg-type]
    ds = index.datasheets.get((str(path), name))
    if ds is None or index.store is None:
        return None
    return tuple(index.store.rule_texts(ds, path))  # those an army of that catalogue has


def _owners(unit: Any, data: str | os.PathLike | None) -> dict[tuple[str, str], str]:
    """(name, text) -> the model entries that have it, of the abilities of a data unit that
    only some of its models have (``{}`` when the store does not say)."""
    path = _catalogue_of(unit, data)
    if path is None:
        return {}
    from ..store.index import unit_index

    index = unit_index(origin_of(unit).edition, data)  # type: ignore[arg-type]
    ds = index.datasheets.get((str(path), unit.name))
    if ds is None or index.store is None:
        return {}
    return index.store.rule_owners(ds)


def unit_abilities(unit: Any, data: str | os.PathLike | None = None
                   ) -> tuple[tuple[str, str], ...]:
    """(name, text) of a data unit's abilities, from the compiled catalogue (or the catalogue
    it came from, read again when the store does not hold it; ``()`` for a bundled unit or
    when the catalogue is not installed)."""
    path = _catalogue_of(unit, data)
    if path is None:
        return ()
    stored = _stored_texts(origin_of(unit).edition, path, unit.name, data)
    if stored is not None:
        return stored
    return _texts(str(path), path.stat().st_mtime_ns, unit.name)


def unit_rules(unit: Any, data: str | os.PathLike | None = None) -> tuple[DataRule, ...]:
    """Every rule a data unit's abilities make (see :func:`translate`), each citing the
    catalogue and datasheet it came from; an army list's unit adds its enhancements (their
    text found by name in the same catalogue)."""
    path = _catalogue_of(unit, data)
    kept = tuple(getattr(unit, "ability_texts", ()) or ())
    faction = getattr(unit, "faction", "")
    factions = {a.lower() for a in getattr(unit, "faction_abilities", ())}
    out: list[DataRule] = []
    if kept:  # a unit file keeps its abilities' text: read from there, as a data unit's
        shown = unit.path.name if getattr(unit, "path", None) else "its unit file"
        where = f"{getattr(unit, 'source', '') or 'unit file'}, {unit.name} (text in {shown})"
        for name, text in kept:
            out += translate(name, text, where, faction=faction, kind="army rule"
                             if name.lower() in factions else "datasheet ability")
    if path is None:
        return resolve(out, unit)
    edition = origin_of(unit).edition
    where = f"BattleScribe {edition}: {path.name}, {unit.name}"
    try:
        abilities = () if kept else unit_abilities(unit, data)
    except InputError as e:  # said in the report, never a failed query
        return (DataRule(NamedRule(f"{unit.name}'s abilities", faction, "datasheet ability",
                                   "attacker", "", source=where,
                                   not_modelled=f"not read: {e}")),)
    owners = _owners(unit, data) if abilities else {}
    for name, text in abilities:
        kind = "army rule" if name.lower() in factions else "datasheet ability"
        parts = translate(name, text, where, faction=faction, kind=kind)
        owner = owners.get((name, text))
        if owner:  # a rule of some of its models (a Wulfen with a Death Totem): theirs only
            parts = tuple(attrs.evolve(p, model=f"@{owner}")
                          if p.scope is Scope.MODEL and not p.model else p for p in parts)
        out += parts
    keywords = unit_keywords(unit)
    for det in getattr(unit, "detachments", ()) or ():
        here = f"BattleScribe {edition}: {det.file}, detachment {det.name}"
        for name, text in det.rules:
            out += for_unit(translate, name, text, keywords, here, faction=faction,
                            kind="detachment rule")
    out += stratagem_rules(unit)  # the stratagems it can use (the 40kdc data, 11e)
    enhancements = getattr(unit, "enhancements", ()) or ()
    if enhancements:
        texts: dict[str, tuple[str, str]] = {}
        for file in (path, *linked_files(path)):  # the catalogue's own first, then a library's
            for name, text in file_abilities(file):
                texts.setdefault(name_key(name), (name, text))
        for wanted in enhancements:
            key = name_key(re.sub(r"(?<!\s)\s*\((?:upgrade|aura)\)\s*$", "", wanted, flags=re.I))
            name, text = texts.get(key, (wanted, ""))
            here = f"BattleScribe {edition}: {path.name}, enhancement of {unit.name}"
            if text:
                out += translate(name, text, here, faction=faction, kind="enhancement")
            else:
                out.append(DataRule(NamedRule(
                    wanted, faction, "enhancement", "attacker", wanted, source=here,
                    not_modelled=f"no text for it in {path.name}")))
    return resolve(out, unit)


def offered_to(unit: Any, side: str, data: str | os.PathLike | None = None) -> UnitRules:
    """Where the rules the other datasheets of a unit's catalogue give it are found
    (:class:`Offer`: Fire Focus of a Razorback for a unit that disembarked from it), read when
    ``--rule`` asks for one; nothing for a unit not of the data."""
    path = _catalogue_of(getattr(unit, "unit", unit), data)
    if path is None:
        return UnitRules()
    edition = origin_of(getattr(unit, "unit", unit)).edition
    return UnitRules(offers=(Offer(side, unit_keywords(unit), getattr(unit, "name", ""),
                                   lambda: _catalogue_rules(edition, str(path), data),
                                   model_count(unit)),))


def army_offers(units: Iterable[Any], unit: Any, side: str,
                data: str | os.PathLike | None = None) -> UnitRules:
    """Where the rules the other units of an army list give ``unit`` are found (the list's
    units only)."""
    pairs = tuple((u.name, part) for u in units for part in unit_rules(u, data)
                  if not part.scope.own and part.rule.usable)
    return UnitRules(offers=(Offer(side, unit_keywords(unit), getattr(unit, "name", ""),
                                   lambda: pairs, model_count(unit)),))


def _catalogue_rules(edition: str, path: str, data: str | os.PathLike | None
                     ) -> tuple[tuple[str, DataRule], ...]:
    """(bearer, rule) of every rule the datasheets a catalogue's army can take give other
    units (friendly units with their keywords, other units, the enemy's attacks, cover)."""
    from ..store.index import unit_index

    store = unit_index(edition, data).store  # type: ignore[arg-type]
    if store is None:
        return ()
    key = (str(store.path), path, store.path.stat().st_mtime_ns)
    if key not in _FOR_OTHERS:
        rows = store.db.execute(
            "SELECT DISTINCT e.name, e.datasheet FROM entries e JOIN catalogues c ON "
            "c.id = e.catalogue WHERE c.path = ? ORDER BY e.rowid", (path,)).fetchall()
        name = Path(path).name
        out: list[tuple[str, DataRule]] = []
        for bearer, ds in rows:
            where = f"BattleScribe {edition}: {name}, {bearer}"
            for rule, text in store.rule_texts(ds, path):
                out += [(bearer, part) for part in translate(rule, text, where)
                        if not part.scope.own and part.rule.usable]
        _FOR_OTHERS.clear()  # one catalogue's at a time: a query asks of one army
        _FOR_OTHERS[key] = tuple(out)
    return _FOR_OTHERS[key]


_FOR_OTHERS: dict[tuple[str, str, int], tuple[tuple[str, DataRule], ...]] = {}


def named_rules_of(unit: Any, names: Iterable[str], kind: str,
                   data: str | os.PathLike | None = None) -> tuple[DataRule, ...]:
    """The rules of a detachment rule or enhancement given by name (``kind``), their text
    found in the catalogue ``unit`` came from. An unknown name is an InputError with the
    closest names.

    >>> named_rules_of(object(), ["Combat Doctrines"], "detachment rule")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --detachment 'Combat Doctrines': needs a unit from the ...
    """
    names = list(names)
    if not names:
        return ()
    flag = "--detachment" if kind == "detachment rule" else "--enhancement"
    path = _catalogue_of(unit, data)
    if path is None:
        raise InputError(f"{flag} {names[0]!r}: needs a unit from the BattleScribe data (its "
                         "catalogue has the text)")
    texts: dict[str, tuple[str, str]] = {}
    for file in (path, *linked_files(path)):
        for name, text in file_abilities(file):
            texts.setdefault(name_key(name), (name, text))
    edition = origin_of(unit).edition
    out: list[DataRule] = []
    if kind == "detachment rule":  # a detachment's name: its rules (else a rule's name)
        from .detachments import detachments

        found, _missing = detachments(path)
        for wanted in [n for n in names if name_key(n) in found]:
            names.remove(wanted)
            det = found[name_key(wanted)]
            for name, text in det.rules:
                out += _named(unit, name, text, kind,
                              f"BattleScribe {edition}: {det.file}, detachment {det.name}")
    for wanted in names:
        key = name_key(re.sub(r"(?<!\s)\s*\((?:upgrade|aura)\)\s*$", "", wanted, flags=re.I))
        if key not in texts:
            close = difflib.get_close_matches(key, list(texts), n=3, cutoff=0.6)
            hint = f"closest: {', '.join(texts[c][0] for c in close)}" if close else \
                "no close name"
            raise InputError(f"{flag} {wanted!r}: not in {path.name}; {hint}")
        name, text = texts[key]
        out += _named(unit, name, text, kind,
                      f"BattleScribe {edition}: {path.name}, {kind} {name}")
    return tuple(out)


def _named(unit: Any, name: str, text: str, kind: str, where: str) -> tuple[DataRule, ...]:
    """A rule named on the command line, read for ``unit``
    (:func:`~mathhammer.data.rules.detachments.for_unit`); one whose "X units from your army" names
    another unit is read as written (a switch)."""
    faction = getattr(unit, "faction", "")
    return resolve(for_unit(translate, name, text, unit_keywords(unit), where, faction=faction,
                            kind=kind) or translate(name, text, where, faction=faction,
                                                    kind=kind), unit)


# -- whom each rule is for (its beneficiary), on one unit -------------------------------------


def qualifies(part: DataRule, keywords: frozenset[str]) -> bool:
    """Whether a unit with these keywords is one a rule for friendly units names: it has every
    keyword of one of the rule's alternatives ("ADEPTUS ASTARTES INFANTRY") and none it
    excludes.

    >>> from .translate import translate
    >>> [part] = translate("Aura", "While a friendly ADEPTUS ASTARTES INFANTRY unit is within "
    ...                    "6 inches of this model, each time a model in that unit makes an "
    ...                    "attack, re-roll a Hit roll of 1.")
    >>> qualifies(part, frozenset({"ADEPTUS ASTARTES", "INFANTRY"})), qualifies(part,
    ...     frozenset({"ADEPTUS ASTARTES", "VEHICLE"}))
    (True, False)
    """
    if part.excluding and any(has_keywords(k, keywords) for k in part.excluding):
        return False
    return not part.keywords or any(has_keywords(k, keywords) for k in part.keywords)


def resolve(parts: Iterable[DataRule], unit: Any) -> tuple[DataRule, ...]:
    """A unit's translated rules read for that unit: a rule for friendly units it is one of
    (its keywords) is its own too (a unit is always within range of its own aura), a debuff on
    an enemy's attacks is its own switch when attacked, and a rule of one model named by name
    ("A Warlock has a 4+ invulnerable save") reaches that model's group only. Each rule for
    others stays as it is, for the units it names (:class:`Offer`)."""
    keywords = unit_keywords(unit)
    base = getattr(unit, "unit", unit)
    groups = tuple(getattr(base, "groups", ()) or ())
    out: list[DataRule] = []
    for part in parts:
        mine = part.scope is Scope.FRIENDLY and qualifies(part, keywords)
        if mine and part.model == ONE_MODEL:  # one model it selects: a unit of one model
            out.append(_one_selected(part, model_count(unit)))
        elif mine or part.scope is Scope.ENEMY and part.rule.usable:
            out.append(attrs.evolve(part, scope=Scope.UNIT))
        if part.scope in (Scope.FRIENDLY, Scope.ENEMY):
            part = attrs.evolve(part, resolved=True)  # for the others from now on
        if part.scope.own and is_keyword_model(part.model):  # its CHARACTER (OFFICER) models
            holders = [g for g in groups if has_keywords(
                part.model, frozenset(getattr(g, "keywords", ()) or ()))]
            if has_keywords(part.model, keywords) and 0 < len(holders) < len(groups):
                out.append(_on_groups(part, holders))  # the groups that have it, alone
            elif has_keywords(part.model, keywords):
                out.append(attrs.evolve(part, model=""))
            else:
                out.append(part)  # its Leader's, when one is attached (attached_rules)
            continue
        if part.scope.own and part.model:
            out.append(_on_model(part, groups, getattr(unit, "name", "")))
            continue
        out.append(part)
    return tuple(out)


def model_count(unit: Any) -> int | None:
    """How many models a unit has: an army list's its size, a datasheet's its largest, a
    target's its groups'; None when not known.

    >>> from types import SimpleNamespace
    >>> model_count(SimpleNamespace(size=(1, 1))), model_count(SimpleNamespace(groups=()))
    (1, None)
    """
    if isinstance(getattr(unit, "models", None), int):
        return unit.models
    base = getattr(unit, "unit", unit)
    size = getattr(base, "size", None)
    if isinstance(size, tuple):
        return size[1]
    groups = tuple(getattr(base, "groups", ()) or ())
    if groups and all(isinstance(getattr(g, "models", None), int) for g in groups):
        return sum(g.models for g in groups)
    return None


def _one_selected(part: DataRule, models: int | None) -> DataRule:
    """A rule for one model its bearer selects, read for a unit: its own when the unit is that
    one model; for a unit of several (or of a size not known), not modelled, said."""
    if models == 1:
        return attrs.evolve(part, scope=Scope.UNIT, model="")
    size = f"a unit of {models} models" if models else "a unit whose size is not known"
    said = part.rule.assumes or part.rule.text
    return attrs.evolve(part, scope=Scope.UNIT, model="", rule=attrs.evolve(
        part.rule, effects=(), assumes="", not_modelled=part.rule.not_modelled or
        f"for the one model selected, not every model of {size} (\"{said}\")"))


def _on_model(part: DataRule, groups: tuple[Any, ...], unit: str) -> DataRule:
    """A rule of one model of the unit, named by name, on that model's group: its weapons
    (attacking), its group (attacked). A name the unit's only group does not match is that
    group's (the text names the datasheet's model another way); with several groups and no
    match the rule is not modelled, said."""
    carried = part.model.startswith("@")  # the data's own model entries, not a text's name
    names = part.model.lstrip("@").split("; ")
    keys = [name_key(re.sub(r"^(?:an?|the)\s+", "", n, flags=re.I)) for n in names]
    found = [g for g in groups if any(name_key(g.name) == key or key in name_key(g.name)
                                      for key in keys)]
    if not found and len(groups) <= 1 and not carried:
        return attrs.evolve(part, model="", scope=Scope.MODEL if part.scope is Scope.MODEL
                            else part.scope)
    if not found or not part.rule.usable:
        return attrs.evolve(part, model="", rule=attrs.evolve(
            part.rule, effects=(), assumes="", not_modelled=part.rule.not_modelled or
            f"for the {' or '.join(names)} only, a model {unit or 'the unit'} has no group of "
            "(its weapons fire with the others')"))
    return _on_groups(part, found)


def _on_groups(part: DataRule, found: list[Any]) -> DataRule:
    """``part`` on the unit's groups ``found`` alone: their weapons (attacking), the attacks
    allocated to them (attacked)."""
    rule = part.rule
    if rule.side == "attacker":
        weapons = tuple(dict.fromkeys(w.name for g in found for w in g.weapons))
        rule = attrs.evolve(rule, requires=attrs.evolve(rule.requires, weapons=weapons))
    else:
        rule = attrs.evolve(rule, requires=attrs.evolve(
            rule.requires, groups=tuple(g.name for g in found)))
    return attrs.evolve(part, rule=rule, scope=Scope.MODEL)


@attrs.frozen
class Offer:
    """Where the rules other units give this one are found (``--rule NAME`` takes one): the
    side, the asking unit's keywords and name (its own rules are not offered to it again), and
    the rules, (bearer, rule) pairs, read when first asked."""

    side: str
    keywords: frozenset[str]
    asker: str
    source: Any = attrs.field(eq=False, repr=False)
    #: the asking unit's models (None: not known): a rule for one model its bearer selects
    #: is offered to a unit of one model only
    models: int | None = None

    def _takes(self, part: DataRule) -> bool:
        return part.model != ONE_MODEL or self.models == 1

    def _given(self) -> Iterator[tuple[str, DataRule]]:
        """(bearer, part) of each rule another unit gives this one: usable, for this side, for
        a unit of these keywords (and of one model where the rule says so)."""
        for bearer, part in self.source():
            if bearer == self.asker or not part.rule.usable or not _for_side(part, self.side):
                continue
            if part.scope in (Scope.FRIENDLY, Scope.OTHERS) and not qualifies(part,
                                                                             self.keywords):
                continue
            if self._takes(part):
                yield bearer, part

    def names(self) -> tuple[str, ...]:
        """The names (``NAME (BEARER's)``) of every rule other units give this one, each once."""
        return tuple(dict.fromkeys(f"{part.rule.name} ({bearer}'s)"
                                   for bearer, part in self._given()))

    def find(self, name: str) -> NamedRule | None:
        """The rule called ``name`` (or ``NAME (BEARER's)``) another unit gives this one, as
        this unit's switch named after its bearer; None if none."""
        key = " ".join(name.lower().split())
        found = []
        for bearer, part in self._given():
            rule = part.rule
            label = f"{rule.name} ({bearer}'s)"
            names = (" ".join(rule.name.lower().split()), label.lower())
            if key in names or any(n.startswith(key) for n in names):
                found.append((key not in names, bearer, part, label))
        if not found:
            return None
        _inexact, bearer, part, label = min(found, key=lambda f: f[0])
        rule = part.rule
        said = f"{bearer}'s {rule.name} is for {part.whom or part.scope.value}"
        return attrs.evolve(rule, name=label, assumes="; ".join(
            w for w in (said, rule.assumes) if w))


def _for_side(part: DataRule, side: str) -> bool:
    """Whether a rule for others changes this side of an attack (a debuff: the attacks
    against the friendly unit)."""
    return part.rule.side == side


@attrs.frozen
class UnitRules:
    """The rules from data of one side of an attack: those applied, the switches (off unless
    named with ``--rule``), the rules not modelled, and the switches of the stratagems the
    unit can use (:mod:`mathhammer.data.rules.stratagems`; off unless named with ``--rule``)."""

    applied: tuple[NamedRule, ...] = ()
    switches: tuple[NamedRule, ...] = ()
    not_modelled: tuple[NamedRule, ...] = ()
    stratagems: tuple[NamedRule, ...] = ()
    #: this unit's rules for other units (bearer, rule): refused when asked of it
    elsewhere: tuple[tuple[str, DataRule], ...] = ()
    #: where the rules other units give this one are found
    offers: tuple[Offer, ...] = ()

    def __add__(self, other: UnitRules) -> UnitRules:
        return UnitRules(self.applied + other.applied, self.switches + other.switches,
                         self.not_modelled + other.not_modelled,
                         self.stratagems + tuple(r for r in other.stratagems
                                                 if r not in self.stratagems),
                         self.elsewhere + tuple(e for e in other.elsewhere
                                                if e not in self.elsewhere),
                         self.offers + tuple(o for o in other.offers if o not in self.offers))

    def offered(self, name: str) -> NamedRule | None:
        """The rule called ``name`` another unit gives this one (see :class:`Offer`)."""
        for offer in self.offers:
            found = offer.find(name)
            if found is not None:
                return found
        return None

    def refusal(self, name: str) -> str | None:
        """Why ``--rule NAME`` is not this unit's when it names one of its rules for other
        units (whose rule it is, and for whom); None otherwise."""
        key = " ".join(name.lower().split())
        for bearer, part in self.elsewhere:
            rule = part.rule
            low = " ".join(rule.name.lower().split())
            if low == key or low.startswith(key):
                whom = part.whom or part.scope.value
                if part.scope is Scope.ENEMY:
                    return (f"--rule {name!r}: {rule.name} is {bearer}'s debuff on an enemy "
                            f"unit's attacks ({whom}): it changes the attacks that enemy makes "
                            f"against {bearer}'s army; name it when that unit attacks "
                            f"({bearer} or a friendly unit as the target)")
                return (f"--rule {name!r}: {rule.name} is {bearer}'s rule for {whom}, not "
                        f"for {bearer} itself; name it on that unit")
        return None

    def switch(self, name: str) -> NamedRule | None:
        """The switch called ``name`` (case-insensitive; a unique start of it is enough): the
        unit's own switches first, then its stratagems."""
        found = self.named(name)
        return found[0] if found else None

    def named(self, name: str) -> tuple[NamedRule, ...]:
        """The switches ``--rule NAME`` switches on: the one called ``name``, or every part of
        the rule called so (its aliases: Oath of Moment (1) and (2)), else the first whose name
        starts with it; the unit's own switches first, then its stratagems."""
        key = " ".join(name.lower().split())
        for rules in (self.switches, self.stratagems):
            found = [r for r in rules if " ".join(r.name.lower().split()) == key]
            found = found or [r for r in rules
                              if any(" ".join(a.lower().split()) == key for a in r.aliases)]
            found = found or [r for r in rules if r.name.lower().startswith(key)][:1]
            if found:
                return tuple(found)
        return ()


def side_rules(parts: Iterable[DataRule], side: str, *, own: tuple[str, ...] | None = None,
               leading: bool = False, whole: bool = True, bearer: str = "",
               led: frozenset[str] | None = None) -> UnitRules:
    """Sort one unit's translated rules for one side (``"attacker"`` or ``"defender"``).

    ``leading``: the unit is a Leader attached to another (its "while leading" rules apply,
    to the whole attached unit). ``own``: the names of the unit's own weapons (attacker) or
    model group (defender) when it is part of an attached unit: its "this model" rules then
    apply to those only, and so do a Bodyguard's "this unit" rules when attacking (an attack
    against the attached unit targets the whole unit). ``whole``: "this unit" rules of a
    Leader reach its Bodyguard too (the Leader's unit is the attached unit). ``led``: the
    keywords of the unit it leads ("while this model is leading a BLOOD CLAWS unit" applies
    only when they are known and match).
    """
    applied: list[NamedRule] = []
    switches: list[NamedRule] = []
    missing: list[NamedRule] = []
    stratagems: list[NamedRule] = []
    elsewhere: list[tuple[str, DataRule]] = []
    for part in parts:
        rule = part.rule
        if not part.scope.own:  # for other units (offered to them), or a debuff's bearer
            if rule.usable and (rule.side == side or part.scope is Scope.ENEMY):
                elsewhere.append((bearer or "this unit", part))
            elif rule.not_modelled and rule.side == side and part.scope is not Scope.ENEMY:
                missing.append(rule)
            # not read for a bearer (translate alone): a debuff is the bearer's own switch when
            # attacked, a rule for any friendly unit its own too; one for friendly X units
            # waits for the bearer's keywords (resolve)
            if part.resolved or not (part.scope is Scope.ENEMY or (
                    part.scope is Scope.FRIENDLY and not part.keywords)):
                continue
            part = _one_selected(part, None) if part.model == ONE_MODEL else \
                attrs.evolve(part, scope=Scope.UNIT)
            rule = part.rule
        if rule.side != side and not rule.not_modelled:
            continue
        if rule.kind == "stratagem":  # used on the whole (attached) unit; listed apart
            if part.switch:
                stratagems.append(rule)
            continue
        if part.scope is Scope.LED and not leading:
            continue
        if part.scope is Scope.LED and part.keywords and (led is None or not qualifies(part,
                                                                                    led)):
            continue  # for a led unit of other keywords (or of keywords not known)
        if is_keyword_model(part.model):
            continue  # a rule of the CHARACTER leading the unit (the OFFICER models of an
            # attached unit): none is attached (attached_rules places it)
        if part.model and not (rule.requires.groups or rule.requires.weapons):
            continue  # one named model's, not read for a unit (resolve places it)
        # a Bodyguard's "this unit" rules reach its own weapons only, but every attack
        # against the attached unit; "this model" rules only the model's weapons or group
        limited = own is not None and (part.scope is Scope.MODEL or (
            side == "attacker" and part.scope is Scope.UNIT and not (leading and whole)))
        if rule.not_modelled:
            if rule.side == side:
                missing.append(rule)
            continue
        if limited and getattr(rule.requires, "weapons" if side == "attacker" else "groups"):
            limited = False  # already one named model's (its own weapons or group)
        if limited and side == "attacker":
            rule = attrs.evolve(rule, requires=attrs.evolve(rule.requires, weapons=own))
        elif limited:
            if any(k not in TARGET_XPLUS for e in rule.effects for k, _ in e.changes):
                missing.append(attrs.evolve(
                    rule, effects=(), not_modelled="applies to one model group of an "
                    "attached unit"))
                continue
            rule = attrs.evolve(rule, requires=attrs.evolve(rule.requires, groups=own))
        (switches if part.switch else applied).append(rule)
    return UnitRules(tuple(applied), tuple(switches), tuple(missing), tuple(stratagems),
                     tuple(elsewhere))


def file_abilities(path: str | os.PathLike) -> list[tuple[str, str]]:
    """Every distinct (name, text) ability of one catalogue file: its rules and ability
    profiles (Leader lists left out)."""
    p = Path(path)
    return list(_file_abilities(str(p), p.stat().st_mtime_ns))


@cached(maxsize=64)
def _file_abilities(path: str, _mtime: int) -> tuple[tuple[str, str], ...]:
    from ..store.compiled import listing_of

    return tuple((name, text) for name, text in listing_of(path, "abilities"))


def edition_abilities(edition: Edition, data: str | os.PathLike | None = None
                      ) -> list[tuple[str, str]]:
    """Every distinct (name, text) ability of the installed data of ``edition``: the rules
    and ability profiles of every catalogue (Leader lists and the game system's core rules
    left out)."""
    from ..store.data_folder import edition_dir, edition_files, is_game_system

    found: dict[tuple[str, str], None] = {}
    for path in edition_files(edition_dir(edition, data), edition):
        if not is_game_system(path):  # the core rules are the engine's own
            found.update(dict.fromkeys(file_abilities(path)))
    return list(found)


__all__ = [
    "Offer", "UnitRules", "army_offers", "edition_abilities", "file_abilities",
    "named_rules_of", "offered_to", "qualifies", "resolve", "side_rules", "unit_abilities",
    "unit_rules",
]
