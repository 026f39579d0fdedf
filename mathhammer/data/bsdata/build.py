"""Build a unit file (the units/ schema, see ``units/README.md``) from a catalogue's datasheet.

The same builder serves both formats: it only sees :mod:`mathhammer.data.bsdata.entries` values.
It finds the unit (:mod:`.find`), reads its model entries' statlines (:mod:`.profiles`) and
weapons (:mod:`.weapons`), its keywords and abilities (:mod:`.abilities`), and its model counts
and points (:mod:`.sizes`).

Decisions where the data leaves room:

- Model entries that share one statline (and invulnerable save) form one model group; its
  count is the sum of theirs, clamped by the selection group around them.
- A weapon is standard wargear when every entry on its path is selected by default (a minimum
  of 1, or the group's default choice); anything else is ``optional``. In a model group merged
  from several model entries, the weapons of the default entry are standard. A weapon with
  several profiles (``➤ Heat ray - dispersed`` / ``- focused``) keeps its first profile
  standard and the others optional, so one mode fires unless the player picks another.
- Points: listed for each price band (:mod:`.sizes`).
- An invulnerable save that holds only against ranged or melee attacks is not put in the
  statline (a warning says so).

>>> from .entries import Catalogue, Characteristic, Cost
>>> line = Profile("p1", "Necron Warrior", "t1", "Unit", tuple(Characteristic(n, n, v) for n, v in
...     (("M", '5"'), ("T", "4"), ("SV", "4+"), ("W", "1"), ("LD", "7+"), ("OC", "2"))))
>>> warrior = Entry("entry", "e1", "Necron Warrior", type="model", profiles=(line,),
...                 costs=(Cost("pts", "pts", 10),))
>>> lib = Library(Catalogue("n", "Necrons", "catalogue", "Necrons.cat", root_entries=(warrior,)))
>>> raw, warnings = build_raw(lib, "Necron Warrior")
>>> raw["models"], raw["points"], warnings  # doctest: +NORMALIZE_WHITESPACE
([{'name': 'Necron Warrior', 'count': 1, 'move': 5, 'toughness': 4, 'save': '4+', 'wounds': 1,
   'leadership': '7+', 'oc': 2}], [{'models': 1, 'cost': 10}], [])
"""

from __future__ import annotations

import difflib
import re
from typing import Any

import attrs

from ...errors import InputError
from ..typed.names import name_key
from ..units.unit import Origin
from .abilities import abilities_of, keywords_of
from .entries import Entry, Profile
from .files import Library
from .find import find_unit
from .formats import edition_of_file
from .makeup import Composition, compositions, split_at
from .options import Carry, loadout_by_size
from .profiles import (
    clean_name,
    int_of,
    invuln_of,
    is_statline,
    is_weapon,
    profile_bases,
    xplus_of,
)
from .sizes import (
    Member,
    default_member,
    group_count,
    is_standard,
    limits,
    points_by_size,
    takes_first,
)
from .walk import Context, Walker, modified_profile, unit_context
from .weapons import weapon_table


class _Builder:
    def __init__(self, lib: Library, root: Entry):
        self.lib = lib
        self.w = Walker(lib)
        self.warnings: list[str] = []
        self.unmapped: dict[str, list[str]] = {}  # weapon name -> keywords not mapped
        self.weapon_rules: set[str] = set()  # rules on the entries of those weapons
        self.unit = self.w.resolve(root)
        self.ctx = unit_context(lib, self.unit)
        self.where = f"{lib.main.path.rsplit('/', 1)[-1]}: {self.unit.name!r}"

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    # -- models ----------------------------------------------------------------------------

    def members(self) -> list[Member]:
        u = self.unit
        if u.type == "model":
            found: list[tuple[Entry, Context, tuple[Entry, ...]]] = [(u, self.ctx, (u,))]
        else:
            found = [
                (x, c, path)
                for x, c, path in self.w.walk(u, self.ctx, lambda x: x.type == "model")
                if x.type == "model"
            ]
        unit_lines = [p for p in self.w.profiles(u, self.ctx) if is_statline(p)]
        if not found and unit_lines:
            found = [(u, self.ctx, (u,))]  # a unit entry that is its own single model
        if not found:  # models typed otherwise in the data: the entries with a statline
            found = [
                (x, c, path)
                for x, c, path in self.w.walk(u, self.ctx, lambda x: False)
                if x.kind == "entry" and any(is_statline(p) for p in self.w.profiles(x, c))
            ]
            for x, _c, _path in found:
                self.warn(f"{x.name!r} is typed {x.type!r} in the data but has a statline: "
                          "read as a model")
        if not found:
            raise InputError(f"{self.where} has no models")
        any_lines = unit_lines or [
            p for e, c, _ in found for p in self.w.profiles(e, c) if is_statline(p)
        ]
        unit_inv = self.invulns(u, self.ctx)
        out = []
        for e, ctx, path in found:
            parent = path[-1]
            lines = [p for p in self.w.profiles(e, ctx) if is_statline(p)] if e is not u else []
            for outer in reversed(path[1:]):  # a statline on a group (or entry) around it
                lines = lines or [p for p in self.w.profiles(outer, ctx) if is_statline(p)]
            lines = lines or unit_lines
            if not lines and any_lines:
                if len({p.name for p in any_lines}) > 1:  # the unit's one statline: no guess
                    self.warn(f"model {e.name!r} has no statline; using {any_lines[0].name!r}")
                lines = any_lines[:1]
            if not lines:
                raise InputError(f"{self.where}: model {e.name!r} has no statline (M, T, Sv, W)")
            if len(lines) > 1:
                names = [p.name for p in lines]
                best = difflib.get_close_matches(e.name, names, 1, 0.0)
                line = lines[names.index(best[0])] if best else lines[0]
            else:
                line = lines[0]
            own_inv = self.invulns(e, ctx) if e is not u else {}
            inv = own_inv.get("", None) or unit_inv.get(e.name.lower()) or unit_inv.get("")
            inv = inv or xplus_of(line.get("InSv"))
            lo, hi = (1, 1) if e is u else limits(e)
            above = tuple(x for x in path[1:-1] if x.kind == "group")
            out.append(Member(e, ctx, parent, modified_profile(line, ctx), inv, lo, hi, above,
                              path[1:] if e is not u else ()))
        return out

    def invulns(self, e: Entry, ctx: Context) -> dict[str, str]:
        """Invulnerable saves from ability profiles: '' for all models, else the model name."""
        out: dict[str, str] = {}
        for p in self.w.profiles(e, ctx):
            if not p.name.lower().startswith("invulnerable save") or is_statline(p):
                continue
            text = p.get("Description")
            value, always = invuln_of(text)
            if value is None:
                value, always = invuln_of(p.name.split("(", 1)[-1])
            if value is None:
                self.warn(f"invulnerable save not understood: {p.name}: {text!r}")
                continue
            if not always:
                self.warn(f"invulnerable save {value} left out (not against every attack): {text}")
                continue
            i, j = p.name.find("("), p.name.rfind(")")  # "(...)": first "(" to last ")"
            inner = p.name[i + 1:j] if 0 <= i < j - 1 and "\n" not in p.name[i:j] else None
            key = inner.lower() if inner and not xplus_of(inner.strip("*")) else ""
            out.setdefault(key, value)
        return out

    def statline(self, m: Member) -> dict[str, Any]:
        p = m.statline
        out: dict[str, Any] = {}
        move = p.get("M")
        if int_of(move) is not None:
            out["move"] = int_of(move)
        elif move.strip() not in ("", "-"):
            n = re.match(r"\s*(\d+)", move)
            if n:
                out["move"] = int(n.group(1))
            self.warn(f"{p.name}: move {move!r} written as {out.get('move', 'nothing')}")
        for key, name, parse in (
            ("toughness", "T", int_of), ("save", "SV", xplus_of), ("wounds", "W", int_of),
        ):
            v = parse(p.get(name))
            if v is None and name == "SV" and p.get(name).strip() in ("", "-", "–"):
                v = "7+"  # no armour save printed (the model has only an invulnerable one)
                self.warn(f"{p.name}: SV {p.get(name)!r} read as 7+ (no armour save)")
            if v is None:
                raise InputError(f"{self.where}: {p.name}: {name} {p.get(name)!r} is not a number")
            out[key] = v
        for key, name, parse in (("leadership", "LD", xplus_of), ("oc", "OC", int_of)):
            v = parse(p.get(name))
            if v is not None:
                out[key] = v
            elif p.get(name).strip() not in ("", "-"):
                self.warn(f"{p.name}: {name} {p.get(name)!r} left out")
        if m.invuln:
            out["invuln"] = m.invuln
        return out

    # -- weapons ---------------------------------------------------------------------------

    def weapons_of(self, e: Entry, ctx: Context, below: bool) -> list[Carry]:
        """The weapons on ``e`` (if ``below``, under it), each with the entries from below
        ``e`` down to the weapon's own (:func:`.options.per_model` reads their limits)."""
        out: list[Carry] = []
        items: list[tuple[Entry, Context, bool, tuple[Entry, ...]]] = []
        if below:
            std: dict[int, bool] = {id(e): True}
            for x, c, path in self.w.walk(e, ctx, lambda x: x.type == "model" and x is not e):
                if x.type == "model":
                    continue
                parent = path[-1]
                std[id(x)] = std.get(id(parent), False) and is_standard(x, parent)
                if std[id(x)] and parent.default_id and takes_first(x, parent):
                    self.warn(f"{parent.name!r}: the data's default is not one of its options; "
                              f"the first, {x.name!r}, is taken")
                items.append((x, c, std[id(x)], path[1:] + (x,)))
        else:
            items.append((e, ctx, True, ()))
        for x, c, standard, below_e in items:
            profiles = [p for p in self.w.profiles(x, c) if is_weapon(p)]
            bases = profile_bases(x, [p.name for p in profiles])
            for p, base in zip(profiles, bases, strict=True):
                table = self.weapon(modified_profile(p, c))
                if table is None:
                    continue
                if table.get("unmapped"):  # a keyword may be a rule of the weapon's entry
                    self.weapon_rules.update(name_key(n) for n, _r in self.w.rules(x, c))
                # every profile of a weapon with several is carried; weapon choice fires one
                # per model (the best against the target, mathhammer.model.loadout)
                if base is not None:
                    table["profile_of"] = base
                out.append(Carry(table, standard, x, c, below_e))
        return out

    def weapon(self, p: Profile) -> dict | None:
        def warn(text: str) -> None:
            if ": unmapped keywords: " not in text:  # said once the abilities are known
                self.warn(text)

        table = weapon_table(p, warn)
        if table is not None and table.get("unmapped"):
            self.unmapped.setdefault(table["name"], table["unmapped"])
        return table

    def say_unmapped(self, abilities: dict[str, list[str]]) -> None:
        """Weapon keywords mathhammer cannot map: a keyword that names one of the unit's own
        abilities, or a rule written on the weapon's entry, is that rule (kept as a name, as
        every datasheet ability: not modelled); any other is a warning."""
        own = {name_key(a) for k in ("core", "faction", "datasheet") for a in abilities[k]}
        own |= self.weapon_rules
        for weapon, keys in self.unmapped.items():
            named = [k for k in keys if name_key(k) in own]
            other = [k for k in keys if k not in named]
            if other:
                self.warn(f"weapon {weapon!r}: unmapped keywords: {', '.join(other)}")
            for k in named:
                self.warn(f"weapon {weapon!r}: keyword {k!r} is a rule of the unit or the weapon "
                          "written in the data (kept by name, not modelled)")

    def loadout(self, gi: int, groups: list[list[Member]], counts: list[tuple[int, int]],
                unit_level: list[Carry], made: list[Composition]) -> list[dict]:
        """The weapons of model group ``gi``: each with how many of its models carry it by
        default and at most, at every size of the group (:func:`.options.loadout_by_size`),
        the group's models and the others' as the unit's make-up with that many in the group
        has them (``made``: :func:`.makeup.compositions`)."""
        g = groups[gi]
        default = default_member(g)
        found = [(m, self.weapons_of(m.entry, m.ctx, True))
                 for m in [default] + [x for x in g if x is not default]]
        return loadout_by_size(self.unit, g, counts[gi], found,
                               lambda n: split_at(made, groups, counts, gi, n), unit_level)

    def default_options(self, groups: list[dict]) -> None:
        """A phase with weapons none of which the unit carries by default (its guns are all
        options): the first option fires, and a warning says so."""
        for melee in (False, True):
            ws = [w for g in groups for w in g.get("weapons", [])
                  if (w["range"] == "melee") == melee]
            if not ws or any(not w.get("optional") for w in ws):
                continue
            pick = ws[0]
            chosen = [w for w in ws if w is pick or (
                pick.get("profile_of") and w.get("profile_of") == pick["profile_of"])]
            for w in chosen:
                w.pop("optional", None)  # every profile of the weapon: one fires per model
            phase = "melee" if melee else "ranged"
            name = pick.get("profile_of") or pick["name"]
            self.warn(f"no {phase} wargear by default in the data; the first option, "
                      f"{name!r}, is taken (pick another by name)")

    # -- everything ------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        members = self.members()
        # model groups: members with the same statline and invulnerable save
        keyed: dict[tuple, list[Member]] = {}
        for m in members:
            key = (tuple((c.name.lower(), c.value) for c in m.statline.characteristics), m.invuln)
            keyed.setdefault(key, []).append(m)
        groups = list(keyed.values())
        members = [m for g in groups for m in g]  # the order of the make-ups' entries
        group_of = [i for i, g in enumerate(groups) for _m in g]
        made = compositions(members, group_of, self.unit, self.ctx, self.warn)
        if made:
            counts = [(min(c.groups[i] for c in made), max(c.groups[i] for c in made))
                      for i in range(len(groups))]
        else:
            self.warn("the data's model counts do not make one unit together (a minimum no "
                      "entry meets): each model group's counted on its own")
            counts = [group_count(g, self.unit, self.warn) for g in groups]
        tables = []
        unit_level: list[Carry] = []
        if self.unit.type != "model":
            for x, c, path in self.w.walk(self.unit, self.ctx, lambda x: x.type == "model"):
                if x.type != "model" and not any(p.type == "model" for p in path):
                    std = all(is_standard(a, b) for a, b in zip(path[1:] + (x,), path, strict=True))
                    unit_level += [attrs.evolve(i, standard=i.standard and std,
                                                path=path[1:] + (x,))
                                   for i in self.weapons_of(x, c, False)]
        for gi, (g, (lo, hi)) in enumerate(zip(groups, counts, strict=True)):
            weapons = self.loadout(gi, groups, counts, unit_level, made)
            # named for its entry that may have the most models (no maximum of its own: as
            # many as the selection group around it allows)
            room = sorted((10**6 if m.max is None else m.max, k) for k, m in enumerate(g))[::-1]
            if len(g) == 1 or room[0][0] > room[1][0]:
                name = g[room[0][1]].entry.name
            else:
                name = g[0].statline.name
            group: dict[str, Any] = {"name": clean_name(name)}
            group["count"] = lo if lo == hi else [lo, hi]
            group.update(self.statline(g[0]))
            if weapons:
                group["weapons"] = weapons
            tables.append((hi, group))
        order = sorted(range(len(tables)), key=lambda i: -tables[i][0])
        self.group_members = [[m.entry.name for m in groups[i]] for i in order]
        entries = [(self.unit, self.ctx)] + [
            (m.entry, m.ctx) for m in members if m.entry is not self.unit
        ]
        faction, keywords, faction_keywords = keywords_of(self.lib, entries)
        ab = abilities_of(self.lib, self.w, entries, self.warn)
        self.say_unmapped(ab)
        raw: dict[str, Any] = {
            "name": self.unit.name,
            "faction": faction,
            "keywords": keywords,
            "faction_keywords": faction_keywords,
        }
        if ab["leads"]:
            raw["leads"] = ab["leads"]
        if ab["joins"]:
            raw["joins"] = ab["joins"]
        cat = self.lib.main
        origin = Origin(edition_of_file(cat.path) or "", cat.path.rsplit("/", 1)[-1],
                        self.unit.name, cat.name, str(cat.revision))
        raw["origin"] = origin.to_table()
        raw["source"] = origin.text()
        # the unit of each size: its make-up nearest the data's defaults
        by_size: dict[int, list[tuple[Member, int]]] = {}
        for comp in made:
            by_size.setdefault(comp.size, [(m, comp.members[j]) for j, m in enumerate(members)])
        pts = points_by_size(self.unit, self.ctx, [groups[i] for i in order],
                             [counts[i] for i in order], self.warn,
                             dict(sorted(by_size.items())) if made else None)
        if pts:
            raw["points"] = pts
        abilities = {k: ab[k] for k in ("core", "faction", "datasheet") if ab[k]}
        if abilities:
            raw["abilities"] = abilities
        raw["models"] = [tables[i][1] for i in order]
        sizes = sorted(by_size)
        if made and (len(groups) > 1 or sizes != list(range(sizes[0], sizes[-1] + 1))):
            raw["compositions"] = [[c.groups[i] for i in order] for c in made]
        self.default_options(raw["models"])
        for name, reason in self.w.skipped.items():
            self.warn(f"skipped {name!r}: {reason}")
        for name in self.w.dangling:
            self.warn(f"ability {name!r} has no text in the data (the rule it names is not "
                      "defined); kept by name")
        return raw


def build_raw(lib: Library, name: str) -> tuple[dict[str, Any], list[str]]:
    """The unit file (as a dict in the units/ schema) and the import's warnings."""
    raw, warnings, _members = build_entry(lib, find_unit(lib, name))
    return raw, warnings


def build_entry(lib: Library, entry: Entry) -> tuple[dict[str, Any], list[str], list[list[str]]]:
    """Like :func:`build_raw` for a root entry already found, also giving the names of the
    model entries in each model group (in the order of ``raw["models"]``)."""
    b = _Builder(lib, entry)
    try:
        raw = b.build()
    except RecursionError:
        raise InputError(f"{lib.main.path}: {entry.name!r}: links nest too deeply") from None
    return raw, b.warnings, b.group_members


__all__ = ["build_entry", "build_raw"]
