"""Resolve a parsed list against the BattleScribe data: each unit's datasheet, its exact model
count, the weapons it carries with their counts, and its points.

Decisions where the lists are silent:

- A unit's points are the list's own (they include its enhancements); a list without them
  gets the data's cost for the unit's size.
- A wargear name that is a weapon in the datasheet becomes that weapon with the list's count
  (a weapon with several profiles: every profile, of which weapon choice fires one per model,
  the best against the target); any other name the datasheet knows (a banner, a drone, a
  shield) is kept as wargear (so is a name found elsewhere in the catalogue that is no weapon,
  with a warning); a name the data does not know is unresolved.
- Without an edition in the file or ``rules``, the list is read against every installed
  edition and the one where it resolves best is kept (fewest unresolved names, then most unit
  costs equal to the data's).

Why one module over 400 lines: reading one unit (:func:`_unit`) is one pass over its lines
whose steps (model lines, weapons, wargear the data lacks, enhancements) share that unit's
state (model counts, the weapons taken, the names left unnamed, its warnings); split apart,
each step would carry all of it.
"""

from __future__ import annotations

import copy
import difflib
import re
from typing import cast

import attrs

from ...errors import InputError
from ..rules.detachments import with_detachments
from ..rules.leaders import AttachSpec
from ..rules.leaders import attach as attach_units
from ..store.data_folder import EDITIONS, Edition, installed_editions
from ..store.index import unit_index
from ..units.file import build_unit, make_up
from .datasheets import (
    NEAR,
    ArmyData,
    catalogue_weapon,
    close_key,
    cost_for,
    data_file,
    datasheet_by_id,
    find_datasheet,
    homes_of,
    known_name,
    lacking_datasheet,
    match_key,
    missing_links,
    singular,
    weapon_tables,
)
from .formats import edition_sign
from .lines import count_name, lead_count
from .values import (
    Army,
    ArmyUnit,
    Item,
    ParsedList,
    ParsedUnit,
    Unresolved,
    WeaponCount,
    lacking_notes,
)

__all__ = ["match_key", "resolve"]



def resolve(parsed: ParsedList, data=None, rules: str | None = None,
            attach: tuple[str, ...] = ()) -> Army:
    """The :class:`Army` a parsed list means, resolved against the data of its edition."""
    if rules is not None and rules not in EDITIONS:
        raise InputError(f"--rules {rules!r}: expected one of {', '.join(EDITIONS)}")
    # rules is checked above; a list says 10e or 11e
    edition = cast("Edition | None", rules or parsed.edition)
    if edition is not None:
        army = _resolve(parsed, edition, data, attach)
        if rules is not None and parsed.edition not in (None, rules):
            army = _said(army, f"{parsed.source}: the list says {parsed.edition} "
                               f"({parsed.edition_from}); read in {rules}, as --rules says")
        return army
    have = installed_editions(data)
    if not have:
        # the error of the newest edition says where to get the data
        unit_index("11e", data)
    armies = []
    errors = []
    for ed in have:
        try:
            armies.append(_resolve(parsed, ed, data, attach))
        except ValueError as e:
            errors.append(e)
    if not armies:
        raise errors[0]
    best = min(armies, key=lambda a: (len(a.unresolved), _mismatches(a),
                                      -EDITIONS.index(a.edition)))
    why = (f"the only edition of the data in {installed_root(data)}" if len(have) == 1 else
           "the edition it resolves best in (" + "; ".join(
               f"{a.edition}: {len(a.unresolved)} line{'s' * (len(a.unresolved) != 1)} not "
               f"read, {_mismatches(a)} unit cost{'s' * (_mismatches(a) != 1)} unlike the "
               "data's" for a in armies) + ")" if len(armies) > 1 else
           f"the only edition whose data reads it ({errors[0]})" if errors else "")
    sign = edition_sign(parsed.format)
    return _said(best, f"{parsed.source}: the list does not say its edition"
                       + (f" ({sign})" if sign else "")
                       + f": read in {best.edition}, {why}; give --rules to choose")


def _said(army: Army, warning: str) -> Army:
    return attrs.evolve(army, warnings=(*army.warnings, warning))


def installed_root(data) -> str:
    from ..store.data_folder import data_root

    return str(data_root(data))


def _mismatches(army: Army) -> int:
    return sum(1 for u in army.units if not u.enhancements and u.data_points is not None
               and u.data_points != u.points)


def _resolve(parsed: ParsedList, edition: Edition, data, attach: tuple[str, ...]) -> Army:
    index = unit_index(edition, data)
    d = ArmyData(index)
    homes, warnings = homes_of(index, parsed)
    if not homes:
        # no faction line: the catalogue that has the most of the list's units
        votes: dict[str, list] = {}
        for pu in parsed.units[:12]:  # a dozen units say where a list comes from
            for c, u in index.find(pu.name):
                if match_key(u) == match_key(pu.name) and not c.library:
                    votes.setdefault(str(c.path), [c, 0])[1] += 1
        if votes:
            homes = [max(votes.values(), key=lambda v: v[1])[0]]
    home = homes[0] if homes else None
    warnings = list(parsed.warnings) + warnings
    units: list[ArmyUnit] = []
    unresolved: list[Unresolved] = []
    where: dict[int, int] = {}  # parsed index -> army index
    for h in homes[:1]:
        warnings += missing_links(d, h)
    for k, pu in enumerate(parsed.units):
        try:
            au, bad, notes = _unit(d, homes, pu, parsed.source)
        except _Unresolved as e:
            unresolved.append(e.args[0])
            continue
        except (InputError, ValueError, KeyError, TypeError) as e:
            # a datasheet the data cannot build costs that unit, not the list
            unresolved.append(Unresolved(pu.line, pu.name, (), str(e).splitlines()[0][:300],
                                         points=pu.points, unit=True))
            continue
        unresolved += bad
        warnings += notes
        where[k] = len(units)
        units.append(au)
    if home is None and parsed.factions and not units:
        raise InputError(f"{parsed.source}: faction {parsed.factions[0]!r} has no {edition} "
                         f"catalogue in {index.folder}; run `mathhammer data fetch --edition "
                         f"{edition}` (or give --data DIR)")
    pairs = []
    for i, j in parsed.attached:
        if i not in where or j not in where:
            continue
        lead = units[where[i]]
        if parsed.units[i].role == "leader" and "CHARACTER" not in {
                k.upper() for k in lead.keywords}:
            warnings.append(f"{parsed.source}:{lead.line}: {lead.name} is 'Attached as: Leader' "
                            "but has no CHARACTER keyword: not attached")
            continue
        pairs.append((where[i], where[j]))
    total = sum(u.points for u in units)
    if parsed.declared_points is not None and total != parsed.declared_points and not unresolved:
        warnings.append(f"{parsed.source}: the units add up to {total} points, the list says "
                        f"{parsed.declared_points} (a truncated export?)")
    faction = home.label if home is not None else (parsed.factions[0] if parsed.factions
                                                   else "")
    units, dets, notes = with_detachments(units, home, parsed, faction)  # on every unit
    # the data files that lack names of the list, said once each (a newer release of them?)
    notes += [f"{parsed.source}: {n}" for n in lacking_notes(unresolved)]
    army = Army(parsed.name, faction, edition, total,
                parsed.declared_points, tuple(units), tuple(pairs), tuple(unresolved),
                parsed.source, parsed.format, tuple(dict.fromkeys(warnings + notes)), dets)
    # --attach: after the list's own attachments, checked against the data's Leader lists
    return attach_units(army, [AttachSpec.parse(a) for a in attach])


class _Unresolved(Exception):
    pass


@attrs.frozen
class _Seq:
    """One entry of a unit's lines in order: a model line or wargear."""

    item: Item
    model: bool  # the list says it is a model line


def _sequence(pu: ParsedUnit) -> list[_Seq]:
    out: list[_Seq] = []
    for pm in pu.models:
        out.append(_Seq(Item(pm.name, pm.count, pm.line), True))
        out += [_Seq(i, False) for i in pm.items]
    out += [_Seq(i, i.model) for i in pu.items]
    return out


def _words(key: str) -> list[str]:
    """A name's words (``'s`` dropped): ``"paladin with ancient's banner"`` ->
    ``['paladin', 'with', 'ancient', 'banner']``."""
    return [w.removesuffix("'s") for w in re.split(r"[\s/]+", key) if w]


#: words too common in weapon names to say two names are one weapon
_GENERIC = {"weapon", "weapons", "close", "combat", "twin", "heavy", "light", "pistol", "with"}
_WITH = re.compile(r"\s(?:w/|with)\s", re.I)
_AND = re.compile(r"\s(?:and|&)\s", re.I)
_GLUE = re.compile(r"(?<=[a-z\)])(?=[A-Z])")
#: where a line naming several items divides them ("A, B and C", "A & B")
_SEP = re.compile(r"\s(?:and|&)\s|,\s?", re.I)
#: a word that is only a number: no weapon's name ("Unité 3 Attachée")
_NUMBER_WORD = re.compile(r"(?<!\S)\d{1,6}(?!\S)")


def _counted(name: str) -> tuple[int, str] | None:
    """A count written before a name, ``2x Inferno Pistols`` or ``2 Inferno pistols``:
    (count, name); None for a name without one."""
    c, rest = count_name(name)
    if c is not None:
        return c, rest
    return lead_count(name)


def _unit(d: ArmyData, homes: list, pu: ParsedUnit, source: str
          ) -> tuple[ArmyUnit, list[Unresolved], list[str]]:
    by_id = datasheet_by_id(d, homes, pu.ids, pu.name) if pu.ids else None
    cat, entry, note = by_id or find_datasheet(d, homes, pu.name, pu.extras)
    if cat is None:
        lacks = lacking_datasheet(d, homes, pu.name, entry)
        # a name the list's catalogue has, but not as a datasheet (11e's Runtherd is a model of
        # the data's Gretchin)
        inside = [h for h in homes[:1] if match_key(pu.name) in d.names(h.path)]
        where = str(lacks) if lacks is not None else (
            f"{inside[0].label}'s data" if inside else "")
        why = (f"not a datasheet in {where} (only a model or wargear of another unit there)"
               if inside else f"not a datasheet in {where}" if lacks is not None else "")
        close = tuple(entry[:5])
        if lacks is not None:  # the closest names of that file, not of every faction's
            keyed = d.keyed(homes[0].path)
            close = () if inside else tuple(keyed[k][1].name for k in difflib.get_close_matches(
                match_key(pu.name), list(keyed), 3, 0.6))
        raise _Unresolved(Unresolved(pu.line, pu.name, close, why, lacks, pu.points, True))
    notes = [f"{source}:{pu.line}: {note}"] if note else []
    raw, members, options = d.built(d.lib(cat.path), entry)
    # the datasheet's abilities the app lists as wargear ("Advanced Guardian Drone")
    abilities = raw.get("abilities") or {}
    listed = abilities.get("datasheet", []) if isinstance(abilities, dict) else []
    option_keys = {match_key(o): o for o in [*options, *(a for a in listed
                                                          if isinstance(a, str))]}
    bad: list[Unresolved] = []
    groups = raw["models"]
    counts = [0] * len(groups)
    items_by_group: list[list[Item]] = [[] for _ in groups]
    wargear: list[str] = []
    model_names = [[singular(match_key(n)) for n in ms + [g.get("name", "")]]
                   for ms, g in zip(members, groups, strict=True)]
    model_bases = [[singular(match_key(_WITH.split(n)[0])) for n in ms + [g.get("name", "")]]
                   for ms, g in zip(members, groups, strict=True)]
    weapon_keys = {match_key(w["name"]) for g in groups for w in g.get("weapons", [])}

    def model_group(name: str, said: bool) -> int | None:
        """The model group a name means (None: not a model of this unit)."""
        s = singular(match_key(name))
        for gi, names in enumerate(model_names):
            if s in names:
                return gi
        for gi, names in enumerate(model_bases):  # "Skitarii Ranger w/ arc rifle"
            if s in names:
                return gi
        # the data's name ends with the list's ("Boss Nob" for "1x Nob") or goes on after it
        # ("Boy w/ Big shoota and close combat weapon" for "Boy w/ Big Shoota"): one group
        ends = {gi for gi, names in enumerate(model_names) for n in names
                if n.endswith(" " + s) or " w/ " in s and n.startswith(s + " ")}
        if len(ends) == 1 and match_key(name) not in option_keys:
            return ends.pop()
        if not said:
            return None
        base = singular(match_key(_WITH.split(name)[0]))
        for gi, names in enumerate(model_names):
            if base in names or any(n.startswith(base + " ") for n in names):
                return gi
        flat = [(n, gi) for gi, names in enumerate(model_names) for n in names]
        best = difflib.get_close_matches(s, [n for n, _ in flat], 1, 0.75)
        if best:
            return next(gi for n, gi in flat if n == best[0])
        # the list's model name and the data's share their words: "Nob" is "Boss Nob", "Gun
        # Servitor" is "Servitor w/ multi-melta"
        words = set(_words(s))
        by_words = {gi for gi, names in enumerate(model_bases) for n in names
                    if n and (words <= set(_words(n)) or set(_words(n)) <= words)}
        if len(by_words) == 1:
            return by_words.pop()
        # one kind of model in the datasheet, named like the unit ("Paladin Ancient" in a
        # Paladin Squad); an unknown name ("Ork Boy" in Khorne Berzerkers) is not
        unit_key = singular(match_key(pu.name))
        if len(groups) == 1 and (unit_key in (s, base) or s.startswith(unit_key + " ")
                                 or unit_key.startswith(base + " ")
                                 or s.startswith(unit_key.split(" ")[0] + " ")):
            return 0
        return None

    # the data file the datasheet is read from, with its revision: named when it lacks a name;
    # a line is the file's lack only for a datasheet read by its own name from a file whose
    # links all resolve, with no name of the datasheet spelt nearly like the line's
    here = data_file(d, cat)
    sure = not note and not d.lib(cat.path).missing
    known = d.names(cat.path)
    current: int | None = None
    loose: list[Item] = []
    seq = _sequence(pu)
    explicit = any(e.model for e in seq)  # the list says which lines are models
    for entry_ in seq:
        it = entry_.item
        if it.count == 0:
            bad.append(Unresolved(it.line or pu.line, f"{pu.name}: 0x {it.name}", (),
                                  "a count of 0"))
            continue
        is_weapon = match_key(it.name) in weapon_keys
        gi = model_group(it.name, entry_.model or it.parent) if (
            entry_.model or not (is_weapon or explicit)) else None
        if gi is not None:
            counts[gi] += it.count
            current = gi
            continue
        if entry_.model:
            # a model the file does not know at all (not a weapon or another unit's model the
            # line may mean): the file's lack
            mk = singular(match_key(it.name))
            lacks = here if sure and not (known.get(match_key(it.name)) or known.get(mk)) and \
                not difflib.get_close_matches(mk, [n for ns in model_names for n in ns], 1,
                                              NEAR) else None
            kinds = list(dict.fromkeys(n for ms in members for n in ms))
            bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.count}x {it.name}",
                                  tuple(difflib.get_close_matches(it.name, kinds, 3, 0.4)
                                        or kinds[:3]),
                                  f"no model '{it.name}' in {raw['name']}"
                                  + (f" of {here}" if lacks else ""), lacks))
            current = -1  # its wargear goes with it
            continue
        if current == -1:
            continue
        if current is None:
            loose.append(it)
        else:
            items_by_group[current].append(it)
    if sum(counts) == 0 and (made := make_up(raw, pu.size)) is not None:  # the datasheet's
        counts = made  # make-up
    elif sum(counts) == 0:
        counts = make_up(raw) or [g["count"] if isinstance(g["count"], int) else g["count"][0]
                                  for g in groups]
        if pu.size is not None and pu.size > sum(counts):
            counts[0] += pu.size - sum(counts)
        elif pu.size is not None and 0 < pu.size < sum(counts) and all(
                e.item.count <= pu.size for e in seq):
            # fewer than the data's default ("10x Gretchin" for a datasheet of 30 Gretchin and
            # 3 Runtherds) and no line says more: that many, the data's first models first
            # (said when a kind of model is left out)
            left, was = pu.size, list(counts)
            for gi, c in enumerate(was):
                counts[gi] = min(c, left)
                left -= counts[gi]
            if sum(1 for c in counts if c) < sum(1 for c in was if c):
                notes.append(f"{source}:{pu.line}: {pu.name}: the list says {pu.size} models and "
                             f"names none, the data's unit has {sum(was)}: read as " + ", ".join(
                                 f"{c} {g.get('name', '?')}" for c, g in zip(counts, groups,
                                                                             strict=True) if c))
    elif pu.size is not None and pu.size != sum(counts):
        notes.append(f"{source}:{pu.line}: {pu.name}: the list says {pu.size} models, its "
                     f"model lines {sum(counts)}")
    items_by_group[0 if counts[0] else counts.index(max(counts))] = \
        loose + items_by_group[0 if counts[0] else counts.index(max(counts))]
    out_groups = []
    weapons: dict[str, int] = {}
    enh = list(pu.enhancements)
    enh_pts = list(pu.enhancement_points) + [None] * (len(enh) - len(pu.enhancement_points))

    def split(gi: int, it: Item, chosen: dict[str, dict]) -> bool:
        """Two names the exporter ran together ("MV15 Gun DroneTwin pulse blaster"), joined
        ("Gorechild and Plasma pistol", "2 Inferno pistols and Close combat weapon") or gave
        as a drone and its gun ("Gun drone with twin pulse carbine"): each part taken, its
        count times the line's, when the data knows every part (else the line is one name)."""
        # one option of the data that holds them all ("Plasma Pistol and Power Weapon"): the
        # line's count is each one's; else the count written first is the first name's
        # ("2x Combi-bolter and Havoc launcher"), each other one is once per model
        whole = match_key(it.name) in option_keys
        for splitter in (_GLUE, _AND, _WITH):
            parts = [p.strip() for p in splitter.split(it.name) if p.strip()]
            named = [_counted(p) or (1, p) for p in parts]
            if len(parts) < 2 or not all(known_name(groups, gi, name, option_keys) or close_key(
                    match_key(name), sheet_names, 0.85) for _c, name in named):
                continue
            for k, (c, name) in enumerate(named):
                n = (it.count if whole or k == 0 else it.times) * c
                take(gi, attrs.evolve(it, name=weapon_name(gi, name) if c > 1 else name,
                                      count=n), chosen)
            return True
        return False

    def weapon_name(gi: int, name: str) -> str:
        """The data's name of the weapon a plural names ("Bolt pistols"), else the name."""
        tables = weapon_tables(groups, gi, name, near=False)
        return (tables[0].get("profile_of") or tables[0]["name"]) if tables else name

    def priced(gi: int, it: Item, chosen: dict[str, dict]) -> bool:
        """A line with a cost (``Palatine blade, Plasma pistol and Sanctified amulet [+25
        points]``, read in parts at its commas): the enhancement the data names (the cost is
        the last name's: ``Hunter-killer missile and Symphonic payload``), else the wargear it
        costs, else an enhancement the data lacks (said below)."""
        k = match_key(it.name)
        kind = known.get(k) or known.get(singular(k))
        if kind is not None and kind[0] in ("enhancement", "upgrade"):
            enh.append(it.name)
            enh_pts.append(it.cost)
            return True
        for m in reversed(list(_SEP.finditer(it.name))):
            tail = it.name[m.end():].strip()
            kt = known.get(match_key(tail)) or known.get(singular(match_key(tail)))
            if kt is not None and kt[0] in ("enhancement", "upgrade"):
                one(gi, attrs.evolve(it, name=it.name[:m.start()].strip(), cost=None), chosen)
                enh.append(tail)
                enh_pts.append(it.cost)
                return True
        plain = attrs.evolve(it, cost=None)
        if weapon_tables(groups, gi, it.name, near=not _AND.search(it.name)) or option_keys.get(
                k) or option_keys.get(singular(k)) or (kind is not None and kind[0] in (
                    "weapon", "wargear")):
            return take(gi, plain, chosen)  # wargear with a cost of its own
        # the names before the last the data knows: they are the wargear, the last (the one
        # the cost follows) an enhancement the data lacks (said below)
        for m in reversed(list(_SEP.finditer(it.name))):
            head, tail = it.name[:m.start()].strip(), it.name[m.end():].strip()
            if tail and all(known_name(groups, gi, (_counted(p) or (1, p))[1], option_keys)
                            for p in _SEP.split(head) if p.strip()):
                one(gi, attrs.evolve(plain, name=head), chosen)
                enh.append(tail)
                enh_pts.append(it.cost)
                return True
        enh.append(it.name)
        enh_pts.append(it.cost)
        return True

    def take(gi: int, it: Item, chosen: dict[str, dict]) -> bool:
        if it.cost is not None:
            return priced(gi, it, chosen)
        exact = [] if it.weapon is False else weapon_tables(groups, gi, it.name, near=False)
        if not exact and it.weapon is not False and (_AND.search(it.name) or _GLUE.search(
                it.name) or _WITH.search(it.name)) and split(gi, it, chosen):
            return True
        # "2 magma cutters", "5x 2 Bolt Pistols": that many of the weapon (a line with lines
        # under it names the option whose lines say the weapons)
        counted = None if exact or it.parent or it.weapon is False else _counted(it.name)
        if counted is not None and weapon_tables(groups, gi, counted[1]):
            return take(gi, attrs.evolve(it, name=weapon_name(gi, counted[1]),
                                         count=it.count * counted[0]), chosen)
        # no weapon of that name: one whose name the line's starts or ends with, a guess; never
        # for a line naming two things the data does not both know ("Bolt pistol and
        # Chirurgeon's tools" is not the bolt pistol)
        near = [] if exact or it.weapon is False or _AND.search(it.name) else weapon_tables(
            groups, gi, it.name)
        if near:
            notes.append(f"{source}:{it.line or pu.line}: {pu.name}: '{it.name}' read as "
                         f"'{near[0].get('profile_of') or near[0]['name']}' (the weapon of "
                         f"{raw['name']} of the nearest name in the data)")
        tables = [] if it.weapon is False else (exact or near or list(it.tables))
        if tables:
            if it.count > 4 * max(1, sum(counts)) and it.count > 4:
                bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.count}x {it.name}",
                                      (), f"{it.count} for {sum(counts)} model"
                                      f"{'s' * (sum(counts) != 1)}"))
                return True
            for t in tables:  # every profile is carried; weapon choice fires one per model
                key = t["name"]
                if key in chosen:
                    chosen[key]["count"] += it.count
                    continue
                t = {k: v for k, v in t.items()
                     if k not in ("unmapped", "optional", "max", "slot", "slot_max")}
                t["count"] = it.count
                chosen[key] = t
            weapons[it.name] = weapons.get(it.name, 0) + it.count
            return True
        k = match_key(it.name)
        hit = option_keys.get(k) or option_keys.get(singular(k)) or next(
            (o for ok, o in option_keys.items() if singular(ok) == singular(k)), None)
        if it.weapon is False or hit is not None:
            if it.name not in wargear:
                wargear.append(it.name)
            return True
        c = close_key(k, option_keys, 0.85)
        if c is not None:
            notes.append(f"{source}:{it.line or pu.line}: {pu.name}: '{it.name}' read as "
                         f"'{option_keys[c]}' (closest spelling in the data)")
            return take(gi, attrs.evolve(it, name=option_keys[c]), chosen)
        kind = known.get(k) or known.get(singular(k))
        if kind is not None and kind[0] in ("enhancement", "upgrade"):
            enh.append(it.name)
            enh_pts.append(None)
            return True
        if kind is not None and kind[0] == "wargear":
            notes.append(f"{source}:{it.line or pu.line}: {pu.name}: '{it.name}' is not an "
                         f"option of {raw['name']} in the data: kept as wargear (not a weapon)")
            if it.name not in wargear:
                wargear.append(it.name)
            return True
        if it.name.endswith(")") and "(" in it.name:  # "Recon drone (Drone burst cannon)"
            return take(gi, attrs.evolve(it, name=it.name[:it.name.rindex("(")].strip()),
                        chosen)
        at = f"{source}:{it.line or pu.line}: {pu.name}: '{it.name}'"
        if kind is not None and kind[0] == "weapon" and not it.tables:
            # a weapon the catalogue gives other datasheets, not this one: its profile, said
            tables = catalogue_weapon(d, cat.path, it.name)
            if tables:
                other = tables[0].get("profile_of") or tables[0]["name"]
                notes.append(f"{at} is not a weapon of {raw['name']} in the data: its profile "
                             f"read from {cat.label}'s '{other}' (another datasheet's)")
                return take(gi, attrs.evolve(it, tables=tuple(tables)), chosen)
            failed[:] = [f"not a weapon of {raw['name']} in {here} (the file's other "
                         "datasheets have different profiles of that name)", k]
            return False
        if kind is None:  # a name the data does not know: the weapon it renamed?
            other = renamed(gi, it.name)
            if other is not None:
                used.add(other)
                notes.append(f"{at} is not in {here}: read as '{other}', the one weapon of "
                             f"{raw['name']} the list does not name (the data's name for it; its "
                             "profile is the data's)")
                return take(gi, attrs.evolve(it, name=other), chosen)
            failed[:] = [f"not in {here}", k]
        return False

    used: set[str] = set()  # data weapons taken for a renamed one
    named: set[str] = set()  # the data weapons the list's lines name
    # why the last take() left a line out, when the datasheet lacks its name: [why, its key]
    failed: list[str] = []
    sheet_names = list(dict.fromkeys([*option_keys, *weapon_keys]))

    def renamed(gi: int, name: str) -> str | None:
        """The one weapon of model group ``gi`` that the data gives by default and no line of
        the unit names (else the one of several that shares a word with ``name``)."""
        if not named:
            for items in items_by_group:
                for it in items:
                    for gj in range(len(groups)):
                        for t in weapon_tables(groups, gj, it.name):
                            named.update((t["name"], t.get("profile_of") or t["name"]))
            named.add("")
        if _NUMBER_WORD.search(name) or _AND.search(name):
            return None  # "Unité 3 Attachée" is a heading, "A and B" two things: no one weapon
        free = list(dict.fromkeys(
            w.get("profile_of") or w["name"] for w in groups[gi].get("weapons", [])
            if not w.get("optional") and w["name"] not in named
            and (w.get("profile_of") or w["name"]) not in named | used))
        if len(free) == 1:
            return free[0]
        words = {w for w in _words(match_key(name)) if len(w) > 3} - _GENERIC
        shared = [f for f in free if words & set(_words(match_key(f)))]
        return shared[0] if len(shared) == 1 else None

    def one(gi: int, it: Item, chosen: dict[str, dict]) -> None:
        """One wargear line taken, or unresolved."""
        failed.clear()
        if take(gi, it, chosen):
            return
        close = difflib.get_close_matches(it.name, options, 3, 0.4)
        lacks = here if failed and sure and not difflib.get_close_matches(
            failed[1], sheet_names, 1, NEAR) else None
        bad.append(Unresolved(it.line or pu.line, f"{pu.name}: {it.name}", tuple(close),
                              failed[0] if lacks else "", lacks))

    for gi, g in enumerate(groups):
        if counts[gi] == 0:
            continue
        chosen: dict[str, dict] = {}
        for it in items_by_group[gi]:
            one(gi, it, chosen)
        ng = {k: v for k, v in g.items() if k != "weapons"}
        ng["count"] = counts[gi]
        if chosen:
            ng["weapons"] = list(chosen.values())
        out_groups.append(ng)
    keywords = tuple(raw.get("keywords", ()))
    for i, e in enumerate(enh):
        kind = known.get(match_key(e))
        if kind is not None and kind[0] in ("enhancement", "upgrade"):
            enh_pts[i] = enh_pts[i] if enh_pts[i] is not None else kind[1]
        elif kind is None:
            notes.append(f"{source}:{pu.line}: {pu.name}: enhancement '{e}' is not in {here}")
    # an Upgrade (the data's Enhancements - Upgrades) may go on a unit without CHARACTER; one
    # the data lacks is said above
    not_upgrades = [e for e in enh if (known.get(match_key(e)) or ("",))[0] == "enhancement"]
    if not_upgrades and "CHARACTER" not in {k.upper() for k in keywords}:
        notes.append(f"{source}:{pu.line}: {raw['name']} has no CHARACTER keyword but the list "
                     f"gives it {', '.join(not_upgrades)} (only an Upgrade goes on such a "
                     "unit)")
    total = sum(counts)
    points = pu.points if pu.points is not None else cost_for(raw.get("points", []), total)
    unit_raw = copy.deepcopy({k: v for k, v in raw.items()
                              if k not in ("points", "models", "compositions")})
    unit_raw["models"] = out_groups
    unit_raw["points"] = [{"models": total, "cost": max(0, points)}]
    unit = build_unit(unit_raw, f"{source}: {pu.name}")
    return ArmyUnit(
        name=raw["name"], unit=unit, points=points, models=total,
        weapons=tuple(WeaponCount(n, c) for n, c in weapons.items()),
        keywords=keywords, wargear=tuple(wargear),
        enhancements=tuple(enh), enhancement_points=tuple(enh_pts), line=pu.line,
        catalogue=cat.label,
        data_points=cost_for(raw["points"], total) if raw.get("points") else None,
        datasheet_id=getattr(entry, "key", ""),
    ), bad, notes



