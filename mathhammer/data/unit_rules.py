"""A unit's rules from data, sorted for one side of an attack: the text of its abilities
(from the catalogue it was imported from), translated by :mod:`mathhammer.data.translate`,
then applied, offered as switches or named as not modelled, with a Leader's "while leading"
rules reaching the unit it leads (docs/rules.md, section 12). Also the coverage of the whole
installed data (:func:`data_coverage`, for ``data check``).

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
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from ..cache import cached
from ..errors import InputError
from ..model.named import NamedRule
from .detachments import for_unit, linked_files, unit_keywords
from .names import name_key
from .stratagems import stratagem_rules
from .translate import DataRule, Scope, coverage, translate

# -- a unit's rules ----------------------------------------------------------------------------

_SOURCE = re.compile(r"^BattleScribe data: (.+?\.(?:cat|json)) \(")


def _catalogue_of(unit: Any, data: str | os.PathLike | None) -> Path | None:
    """The installed catalogue file a data unit was imported from (None: not a data unit)."""
    m = _SOURCE.match(getattr(unit, "source", "") or "")
    if not m:
        return None
    from .datastore import edition_dir

    edition = "11e" if m.group(1).endswith(".json") else "10e"
    try:
        path = edition_dir(edition, data) / m.group(1)
    except InputError:
        return None
    return path if path.is_file() else None


@cached(maxsize=64)
def _texts(path: str, _mtime: int, name: str) -> tuple[tuple[str, str], ...]:
    from .bsdata.files import open_library
    from .bsdata.texts import ability_texts

    return tuple(ability_texts(open_library(path), name))


def _stored_texts(path: Path, name: str, data: str | os.PathLike | None
                  ) -> tuple[tuple[str, str], ...] | None:
    """The texts the compiled catalogue keeps for a datasheet of ``path`` (None: not there)."""
    from .unit_index import unit_index

    edition = "11e" if path.suffix == ".json" else "10e"
    index = unit_index(edition, data)
    ds = index.datasheets.get((str(path), name))
    if ds is None or index.store is None:
        return None
    return tuple(index.store.rule_texts(ds))


def unit_abilities(unit: Any, data: str | os.PathLike | None = None
                   ) -> tuple[tuple[str, str], ...]:
    """(name, text) of a data unit's abilities, from the compiled catalogue (or the catalogue
    it came from, read again when the store does not hold it; ``()`` for a bundled unit or
    when the catalogue is not installed)."""
    path = _catalogue_of(unit, data)
    if path is None:
        return ()
    stored = _stored_texts(path, unit.name, data)
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
        return tuple(out)
    edition = "11e" if path.suffix == ".json" else "10e"
    where = f"BattleScribe {edition}: {path.name}, {unit.name}"
    try:
        abilities = () if kept else unit_abilities(unit, data)
    except InputError as e:  # said in the report, never a failed query
        return (DataRule(NamedRule(f"{unit.name}'s abilities", faction, "datasheet ability",
                                   "attacker", "", source=where,
                                   not_modelled=f"not read: {e}")),)
    for name, text in abilities:
        kind = "army rule" if name.lower() in factions else "datasheet ability"
        out += translate(name, text, where, faction=faction, kind=kind)
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
    return tuple(out)


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
    edition = "11e" if path.suffix == ".json" else "10e"
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
    (:func:`~mathhammer.data.detachments.for_unit`); one whose "X units from your army" names
    another unit is read as written (a switch)."""
    faction = getattr(unit, "faction", "")
    return for_unit(translate, name, text, unit_keywords(unit), where, faction=faction,
                    kind=kind) or translate(name, text, where, faction=faction, kind=kind)


@attrs.frozen
class UnitRules:
    """The rules from data of one side of an attack: those applied, the switches (off unless
    named with ``--rule``), the rules not modelled, and the switches of the stratagems the
    unit can use (:mod:`mathhammer.data.stratagems`; off unless named with ``--rule``)."""

    applied: tuple[NamedRule, ...] = ()
    switches: tuple[NamedRule, ...] = ()
    not_modelled: tuple[NamedRule, ...] = ()
    stratagems: tuple[NamedRule, ...] = ()

    def __add__(self, other: UnitRules) -> UnitRules:
        return UnitRules(self.applied + other.applied, self.switches + other.switches,
                         self.not_modelled + other.not_modelled,
                         self.stratagems + tuple(r for r in other.stratagems
                                                 if r not in self.stratagems))

    def switch(self, name: str) -> NamedRule | None:
        """The switch called ``name`` (case-insensitive; a unique start of it is enough): the
        unit's own switches first, then its stratagems."""
        key = " ".join(name.lower().split())
        for rules in (self.switches, self.stratagems):
            found = [r for r in rules if " ".join(r.name.lower().split()) == key]
            found = found or [r for r in rules if r.name.lower().startswith(key)]
            if found:
                return found[0]
        return None


def side_rules(parts: Iterable[DataRule], side: str, *, own: tuple[str, ...] | None = None,
               leading: bool = False, whole: bool = True) -> UnitRules:
    """Sort one unit's translated rules for one side (``"attacker"`` or ``"defender"``).

    ``leading``: the unit is a Leader attached to another (its "while leading" rules apply,
    to the whole attached unit). ``own``: the names of the unit's own weapons (attacker) or
    model group (defender) when it is part of an attached unit: its "this model" rules then
    apply to those only, and so do a Bodyguard's "this unit" rules when attacking (an attack
    against the attached unit targets the whole unit). ``whole``: "this unit" rules of a
    Leader reach its Bodyguard too (the Leader's unit is the attached unit).
    """
    applied, switches, missing, stratagems = [], [], [], []
    for part in parts:
        rule = part.rule
        if rule.side != side and not rule.not_modelled:
            continue
        if rule.kind == "stratagem":  # used on the whole (attached) unit; listed apart
            if part.switch:
                stratagems.append(rule)
            continue
        if part.scope is Scope.LED and not leading:
            continue
        # a Bodyguard's "this unit" rules reach its own weapons only, but every attack
        # against the attached unit; "this model" rules only the model's weapons or group
        limited = own is not None and (part.scope is Scope.MODEL or (
            side == "attacker" and part.scope is Scope.UNIT and not (leading and whole)))
        if rule.not_modelled:
            if rule.side == side:
                missing.append(rule)
            continue
        if limited:
            key = "weapons" if side == "attacker" else "groups"
            if key == "groups" and any(k not in ("invuln", "fnp")
                                       for e in rule.effects for k, _ in e.changes):
                missing.append(attrs.evolve(
                    rule, effects=(), not_modelled="applies to one model group of an "
                    "attached unit"))
                continue
            rule = attrs.evolve(rule, requires=attrs.evolve(rule.requires, **{key: own}))
        (switches if part.switch else applied).append(rule)
    return UnitRules(tuple(applied), tuple(switches), tuple(missing), tuple(stratagems))


def file_abilities(path: str | os.PathLike) -> list[tuple[str, str]]:
    """Every distinct (name, text) ability of one catalogue file: its rules and ability
    profiles (Leader lists left out)."""
    p = Path(path)
    return list(_file_abilities(str(p), p.stat().st_mtime_ns))


@cached(maxsize=64)
def _file_abilities(path: str, _mtime: int) -> tuple[tuple[str, str], ...]:
    from .catalogue import listing_of

    return tuple((name, text) for name, text in listing_of(path, "abilities"))


def edition_abilities(edition: str, data: str | os.PathLike | None = None
                      ) -> list[tuple[str, str]]:
    """Every distinct (name, text) ability of the installed data of ``edition``: the rules
    and ability profiles of every catalogue (Leader lists and the game system's core rules
    left out)."""
    from .datastore import edition_dir, edition_files, is_game_system

    found: dict[tuple[str, str], None] = {}
    for path in edition_files(edition_dir(edition, data), edition):
        if not is_game_system(path):  # the core rules are the engine's own
            found.update(dict.fromkeys(file_abilities(path)))
    return list(found)


def data_coverage(edition: str, data: str | os.PathLike | None = None) -> dict[str, Any]:
    """:func:`coverage` of every ability in the installed data of ``edition`` (what
    ``data check`` reports)."""
    return coverage(edition_abilities(edition, data))


__all__ = [
    "UnitRules", "data_coverage", "edition_abilities", "file_abilities", "named_rules_of",
    "side_rules", "unit_abilities", "unit_rules",
]
