"""Build a unit file (the units/ schema, see ``units/README.md``) from a catalogue's datasheet.

Why one module: one builder turns a datasheet (profiles, costs, modifiers, keywords) into the
units/ schema; its steps share the link resolution of one catalogue.

The same builder serves both formats: it only sees :mod:`mathhammer.data.bsdata.model` values.

Decisions where the data leaves room:

- Model entries that share one statline (and invulnerable save) form one model group; its
  count is the sum of theirs, clamped by the selection group around them.
- A weapon is standard wargear when every entry on its path is selected by default (a minimum
  of 1, or the group's default choice); anything else is ``optional``. In a model group merged
  from several model entries, the weapons of the default entry are standard. A weapon with
  several profiles (``➤ Heat ray - dispersed`` / ``- focused``) keeps its first profile
  standard and the others optional, so one mode fires unless the player picks another.
- Points: the unit's cost with the modifiers that depend on its model count, for every size
  from the smallest to the largest; the file lists the largest size of each price band
  (``5 -> 70, 10 -> 150``), as datasheets print them.
- An invulnerable save that holds only against ranged or melee attacks is not put in the
  statline (a warning says so).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from ...errors import InputError
from ...model.abilities import canonical
from ...prob.dice import format_dice
from ..names import name_key
from .files import Library
from .model import Entry, Profile
from .walk import Context, Walker, ancestry_of, apply_number, modified_profile

_WEAPON_CHARS = {"range", "a", "s", "ap", "d"}
_UNIT_CHARS = {"m", "t", "w"}


def is_weapon(p: Profile) -> bool:
    names = {c.name.lower() for c in p.characteristics}
    return names >= _WEAPON_CHARS and bool(names & {"bs", "ws"})


def is_statline(p: Profile) -> bool:
    names = {c.name.lower() for c in p.characteristics}
    return names >= _UNIT_CHARS and ("sv" in names)


# --------------------------------------------------------------------------- weapon keywords

_ALIASES = {"twin linked": "twin-linked"}
_ANTI_LOOSE = re.compile(r"^anti[\s-]+(.+?)\s+([2-6])\+?$")  # "Anti-FLY 2" is 2+


def map_keyword(text: str) -> str | None:
    """A weapon keyword as printed in the data -> the mathhammer ability, or None.

    >>> map_keyword("Twin Linked"), map_keyword("Anti Vehicle 3+"), map_keyword("Sustained hits 1")
    ('twin-linked', 'anti-vehicle 3+', 'sustained hits 1')
    >>> map_keyword("Anti-FLY 2")
    'anti-fly 2+'
    >>> map_keyword("Sonic Devastation") is None
    True
    """
    t = " ".join(text.strip().strip("[]").lower().split())
    t = _ALIASES.get(t, t)
    if m := _ANTI_LOOSE.match(t):
        t = f"anti-{m.group(1)} {m.group(2)}+"
    try:
        return canonical(t)
    except ValueError:
        return None


def split_keywords(text: str) -> list[str]:
    """The keywords of a weapon profile (``-`` or empty is none)."""
    return [k.strip() for k in text.split(",") if k.strip() and k.strip() not in ("-", "–")]


def weapon_table(p: Profile, warn: Callable[[str], None] = lambda text: None) -> dict | None:
    """The weapon table (units/ schema) of a weapon profile; None (and a warning) if it
    cannot be one."""
    name = _clean_name(p.name)
    rng_text = p.get("Range")
    if rng_text.strip().lower() == "melee":
        rng: int | str = "melee"
    else:
        rng = _int(rng_text) or 0
        if rng < 1:
            warn(f"weapon {name!r} left out: range {rng_text!r} is not a distance")
            return None
    try:
        attacks = format_dice(p.get("A"))
        damage = format_dice(p.get("D"))
    except ValueError:
        warn(f"weapon {name!r} left out: A {p.get('A')!r} / D {p.get('D')!r} "
                  f"is not a dice expression")
        return None
    skill_text = p.get("BS") or p.get("WS")
    skill = _xplus(skill_text)
    strength = _int(p.get("S"))
    ap_m = re.fullmatch(r"\s*(?:0|-\s*(\d))\s*", p.get("AP"))
    if strength is None or ap_m is None:
        warn(f"weapon {name!r} left out: S {p.get('S')!r} / AP {p.get('AP')!r} "
                  f"is not a number")
        return None
    abilities: list[str] = []
    unmapped: list[str] = []
    for k in split_keywords(p.get("Keywords")):
        a = map_keyword(k)
        if a is None:
            unmapped.append(k)
        elif a not in abilities:
            abilities.append(a)
    if skill is None:
        if skill_text.strip().upper() == "N/A" and "torrent" in abilities:
            skill = "N/A"
        else:
            warn(f"weapon {name!r} left out: BS/WS {skill_text!r} is not X+")
            return None
    table: dict[str, Any] = {
        "name": name,
        "range": rng,
        "attacks": int(attacks) if attacks.isdigit() else attacks,
        "skill": skill,
        "strength": strength,
        "ap": -int(ap_m.group(1)) if ap_m.group(1) else 0,
        "damage": int(damage) if damage.isdigit() else damage,
    }
    if abilities:
        table["abilities"] = abilities
    if unmapped:
        table["unmapped"] = unmapped
        warn(f"weapon {name!r}: unmapped keywords: {', '.join(unmapped)}")
    return table


# --------------------------------------------------------------------------- small parsers


def _int(text: str) -> int | None:
    m = re.fullmatch(r"\s*(\d+)\s*(?:\"|”|'')?\s*", text)
    return int(m.group(1)) if m else None


def _xplus(text: str) -> str | None:
    m = re.fullmatch(r"\s*(\d+)\s*\+?\s*", text)
    return f"{int(m.group(1))}+" if m else None


_INVULN = re.compile(r"(\d)\+\s*invulnerable save", re.I)
_PARTIAL = re.compile(
    r"against (ranged|melee|psychic)|ranged attacks|melee attacks|while|if ", re.I
)


def invuln_of(text: str) -> tuple[str | None, bool]:
    """(X+, holds always) from an ability text such as ``This model has a 4+ invulnerable save``.

    >>> invuln_of("This model has a 4+ invulnerable save."), invuln_of("5+")
    (('4+', True), ('5+', True))
    >>> invuln_of("Models in this unit have a 4+ invulnerable save against ranged attacks.")
    ('4+', False)
    """
    m = _INVULN.search(text) or re.fullmatch(r"\s*(\d)\+\s*", text)
    if not m:
        return None, False
    return f"{m.group(1)}+", not _PARTIAL.search(text)


_ATTACH = re.compile(r"can be attached to", re.I)
_LEADER_LINE = re.compile(r"^\s*[-•*■]\s*(.+?)\s*$")


def leads_of(text: str) -> list[str]:
    """Unit names from a Leader ability text (``- ^^**Skitarii Rangers^^**`` lines).

    >>> leads_of("This model can be attached to the following units:\\n- ^^**Skitarii Rangers^^**")
    ['Skitarii Rangers']
    """
    out = []
    for line in text.splitlines():
        m = _LEADER_LINE.match(line)
        if m:
            name = re.sub(r"[\^*_]", "", m.group(1)).strip().rstrip(".;,")
            name = re.sub(r"\s*\(see .*\)$", "", name, flags=re.I)
            if name and name not in out:
                out.append(name)
    return out


def _clean_name(name: str) -> str:
    return " ".join(name.lstrip("➤►> ").split())


# --------------------------------------------------------------------------- the unit


@attrs.frozen
class _Member:
    """One model entry of the unit."""

    entry: Entry
    ctx: Context
    parent: Entry
    statline: Profile
    invuln: str | None
    min: int
    max: int | None


def _limits(e: Entry) -> tuple[int, int | None]:
    lo, hi = 0, None
    for c in e.constraints:
        if c.field != "selections" or c.scope != "parent":
            continue
        if c.type == "min":
            lo = max(lo, int(c.value))
        elif c.type == "max":
            hi = int(c.value) if hi is None else min(hi, int(c.value))
    return lo, hi


def _standard(e: Entry, parent: Entry) -> bool:
    """Is ``e`` selected by default under ``parent``?"""
    if e.kind == "group":
        return _limits(e)[1] != 0
    lo, _hi = _limits(e)
    if lo >= 1:
        return True
    if parent.kind == "group":
        if parent.default_id and parent.default_id in (e.id, e.link_id):
            return True
        if not parent.default_id and _limits(parent)[0] >= 1:
            first = next(iter(parent.children), None)
            return first is not None and first.id in (e.id, e.link_id)
    return False


class _Builder:
    def __init__(self, lib: Library, root: Entry):
        self.lib = lib
        self.w = Walker(lib)
        self.warnings: list[str] = []
        self.unit = self.w.resolve(root)
        self.ctx = Context(ancestry=ancestry_of(self.unit), unit_id=self.unit.id)
        self.where = f"{lib.main.path.rsplit('/', 1)[-1]}: {self.unit.name!r}"

    def warn(self, text: str) -> None:
        if text not in self.warnings:
            self.warnings.append(text)

    # -- models ----------------------------------------------------------------------------

    def members(self) -> list[_Member]:
        u = self.unit
        if u.type == "model":
            found = [(u, self.ctx, u)]
        else:
            found = [
                (x, c, path[-1])
                for x, c, path in self.w.walk(u, self.ctx, lambda x: x.type == "model")
                if x.type == "model"
            ]
        unit_lines = [p for p in self.w.profiles(u, self.ctx) if is_statline(p)]
        if not found and unit_lines:
            found = [(u, self.ctx, u)]  # a unit entry that is its own single model
        if not found:
            raise InputError(f"{self.where} has no models")
        any_lines = unit_lines or [
            p for e, c, _ in found for p in self.w.profiles(e, c) if is_statline(p)
        ]
        unit_inv = self.invulns(u, self.ctx)
        out = []
        for e, ctx, parent in found:
            lines = [p for p in self.w.profiles(e, ctx) if is_statline(p)] if e is not u else []
            lines = lines or unit_lines
            if not lines and any_lines:
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
            inv = inv or _xplus(line.get("InSv"))
            lo, hi = (1, 1) if e is u else _limits(e)
            out.append(_Member(e, ctx, parent, modified_profile(line, ctx), inv, lo, hi))
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
            m = re.search(r"\((.+)\)", p.name)
            key = m.group(1).lower() if m and not _xplus(m.group(1).strip("*")) else ""
            out.setdefault(key, value)
        return out

    def statline(self, m: _Member) -> dict[str, Any]:
        p = m.statline
        out: dict[str, Any] = {}
        move = p.get("M")
        if _int(move) is not None:
            out["move"] = _int(move)
        elif move.strip() not in ("", "-"):
            n = re.match(r"\s*(\d+)", move)
            if n:
                out["move"] = int(n.group(1))
            self.warn(f"{p.name}: move {move!r} written as {out.get('move', 'nothing')}")
        for key, name, parse in (
            ("toughness", "T", _int), ("save", "SV", _xplus), ("wounds", "W", _int),
        ):
            v = parse(p.get(name))
            if v is None:
                raise InputError(f"{self.where}: {p.name}: {name} {p.get(name)!r} is not a number")
            out[key] = v
        for key, name, parse in (("leadership", "LD", _xplus), ("oc", "OC", _int)):
            v = parse(p.get(name))
            if v is not None:
                out[key] = v
            elif p.get(name).strip() not in ("", "-"):
                self.warn(f"{p.name}: {name} {p.get(name)!r} left out")
        if m.invuln:
            out["invuln"] = m.invuln
        return out

    # -- weapons ---------------------------------------------------------------------------

    def weapons_of(self, e: Entry, ctx: Context, below: bool) -> list[tuple[dict, bool]]:
        """(weapon table, standard) for the weapons on ``e`` (if ``below``, under it)."""
        out: list[tuple[dict, bool]] = []
        items: list[tuple[Entry, Context, bool]] = []
        if below:
            std: dict[int, bool] = {id(e): True}
            for x, c, path in self.w.walk(e, ctx, lambda x: x.type == "model" and x is not e):
                if x.type == "model":
                    continue
                parent = path[-1]
                std[id(x)] = std.get(id(parent), False) and _standard(x, parent)
                items.append((x, c, std[id(x)]))
        else:
            items.append((e, ctx, True))
        for x, c, standard in items:
            first = True
            for p in self.w.profiles(x, c):
                if not is_weapon(p):
                    continue
                table = self.weapon(modified_profile(p, c))
                if table is not None:
                    out.append((table, standard and first))
                    first = False
        return out

    def weapon(self, p: Profile) -> dict | None:
        return weapon_table(p, self.warn)

    # -- abilities and keywords ------------------------------------------------------------

    def keywords(self, entries: list[tuple[Entry, Context]]) -> tuple[str, list[str], list[str]]:
        faction, keywords, factions = "", [], []
        for e, _ctx in entries:
            for link in e.category_links:
                name = link.name
                if not name:
                    try:
                        cat = self.lib.find(link.target_id, f"category link {link.id}")
                    except ValueError:
                        continue
                    name = getattr(cat, "name", "")
                if not name:
                    continue
                if name.lower().startswith("faction:"):
                    f = name.split(":", 1)[1].strip()
                    faction = faction or f
                    if f.upper() not in factions:
                        factions.append(f.upper())
                elif name.upper() not in keywords:
                    keywords.append(name.upper())
        if not faction:
            faction = re.sub(r"^\w+ - ", "", self.lib.main.name)
        return faction, keywords, factions

    def abilities(self, entries: list[tuple[Entry, Context]]) -> dict[str, list[str]]:
        from ..unit import canonical_core

        core: list[str] = []
        faction: list[str] = []
        datasheet: list[str] = []
        leads: list[str] = []
        system = self.lib.system()
        # "Leader" (10e) or "Support" (11e): a profile that lists the units the model can lead
        leader_names = {
            p.name.strip().lower()
            for e, ctx in entries
            for p in self.w.profiles(e, ctx)
            if _ATTACH.search(p.get("Description"))
        }
        for e, ctx in entries:
            for name, rule in self.w.rules(e, ctx):
                if name.strip().lower() in leader_names:
                    _add(core, "Leader")
                    continue
                in_system = system is not None and system.find(rule.id) is rule
                try:
                    c = canonical_core(name)
                except ValueError:
                    c = None
                if c is not None:
                    _add(core, c)
                elif in_system:
                    self.warn(f"core ability {name!r} is not one mathhammer knows; kept as a "
                              f"datasheet ability")
                    _add(datasheet, name)
                else:
                    _add(faction, name)
            for p in self.w.profiles(e, ctx):
                if p.type_name.lower() != "abilities" and "description" not in {
                    c.name.lower() for c in p.characteristics
                }:
                    continue
                if p.name.lower().startswith("invulnerable save"):
                    continue
                if p.name.strip().lower() in leader_names:
                    _add(core, "Leader")
                    for n in leads_of(p.get("Description")):
                        _add(leads, n)
                    continue
                _add(datasheet, p.name.strip())
        return {"core": core, "faction": faction, "datasheet": datasheet, "leads": leads}

    # -- points ----------------------------------------------------------------------------

    def points(self, groups: list[list[_Member]], counts: list[tuple[int, int]]) -> list[dict]:
        pts_type = next(
            (c.type_id for c in self.unit.costs if c.name.strip().lower() == "pts"), None
        )
        if pts_type is None:
            members = [m for g in groups for m in g]
            pts_type = next(
                (c.type_id for m in members for c in m.entry.costs
                 if c.name.strip().lower() == "pts"),
                None,
            )
        if pts_type is None:
            self.warn("no points in the data")
            return []
        members = [m for g in groups for m in g]
        lo = sum(c[0] for c in counts)
        hi = sum(c[1] for c in counts)
        by_size = []
        for n in range(lo, hi + 1):
            split = _split(n, members, groups, counts)
            ctx = attrs.evolve(self.ctx, models=tuple((m.ctx.ancestry, k) for m, k in split))
            total = _cost(self.unit, pts_type, ctx)
            for m, k in split:
                if m.entry is not self.unit:
                    total += _cost(m.entry, pts_type, ctx) * k
            by_size.append((n, total))
        out = []
        for i, (n, cost) in enumerate(by_size):
            if i + 1 == len(by_size) or by_size[i + 1][1] != cost:
                if cost.denominator != 1:
                    self.warn(f"points {cost} for {n} models rounded down")
                out.append({"models": n, "cost": int(cost)})
        return out

    # -- everything ------------------------------------------------------------------------

    def build(self) -> dict[str, Any]:
        members = self.members()
        # model groups: members with the same statline and invulnerable save
        keyed: dict[tuple, list[_Member]] = {}
        for m in members:
            key = (tuple((c.name.lower(), c.value) for c in m.statline.characteristics), m.invuln)
            keyed.setdefault(key, []).append(m)
        groups = list(keyed.values())
        counts = [self.count(g) for g in groups]
        tables = []
        unit_level = []
        if self.unit.type != "model":
            for x, c, path in self.w.walk(self.unit, self.ctx, lambda x: x.type == "model"):
                if x.type != "model" and not any(p.type == "model" for p in path):
                    std = all(_standard(a, b) for a, b in zip(path[1:] + (x,), path, strict=True))
                    unit_level += [(t, s and std) for t, s in self.weapons_of(x, c, False)]
        for g, (lo, hi) in zip(groups, counts, strict=True):
            default = _default_member(g)
            weapons: list[dict] = []
            seen: dict[tuple, dict] = {}
            for m in [default] + [x for x in g if x is not default]:
                for table, standard in self.weapons_of(m.entry, m.ctx, True) + unit_level:
                    key = tuple((k, str(v)) for k, v in table.items())
                    std = standard and m is default
                    if key in seen:
                        if std:
                            seen[key].pop("optional", None)
                        continue
                    t = dict(table)
                    if not std:
                        t["optional"] = True
                    seen[key] = t
                    weapons.append(t)
            biggest = sorted(g, key=lambda m: -(m.max or 0))
            if len(g) == 1 or (biggest[0].max or 0) > (biggest[1].max or 0):
                name = biggest[0].entry.name
            else:
                name = g[0].statline.name
            group: dict[str, Any] = {"name": _clean_name(name)}
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
        faction, keywords, faction_keywords = self.keywords(entries)
        ab = self.abilities(entries)
        raw: dict[str, Any] = {
            "name": self.unit.name,
            "faction": faction,
            "keywords": keywords,
            "faction_keywords": faction_keywords,
        }
        if ab["leads"]:
            raw["leads"] = ab["leads"]
        cat = self.lib.main
        raw["source"] = (
            f"BattleScribe data: {cat.path.rsplit('/', 1)[-1]} ({cat.name}, revision "
            f"{cat.revision})"
        )
        pts = self.points([groups[i] for i in order], [counts[i] for i in order])
        if pts:
            raw["points"] = pts
        abilities = {k: ab[k] for k in ("core", "faction", "datasheet") if ab[k]}
        if abilities:
            raw["abilities"] = abilities
        raw["models"] = [tables[i][1] for i in order]
        for name, reason in self.w.skipped.items():
            self.warn(f"skipped {name!r}: {reason}")
        return raw

    def count(self, g: list[_Member]) -> tuple[int, int]:
        """The group's smallest and largest count: its entries' own limits, clamped by each
        selection group around them."""
        lo, hi = 0, 0
        parents: dict[int, list[_Member]] = {}
        for m in g:
            parents.setdefault(id(m.parent), []).append(m)
        for ms in parents.values():
            p_lo = sum(m.min for m in ms)
            his = [m.max for m in ms]
            p_hi = None if None in his else sum(h for h in his if h is not None)
            parent = ms[0].parent
            if parent.kind == "group" and parent is not self.unit:
                g_lo, g_hi = _limits(parent)
                if len(ms) == len(parent.children):
                    p_lo = max(p_lo, g_lo)
                if g_hi is not None:
                    p_hi = g_hi if p_hi is None else min(p_hi, g_hi)
            if p_hi is None:
                p_hi = max(p_lo, 1)
                self.warn(f"{ms[0].entry.name}: no maximum model count in the data; using {p_hi}")
            lo, hi = lo + p_lo, hi + p_hi
        if lo < 1:
            self.warn(f"{g[0].entry.name}: optional models (0-{hi}); counted from 1")
            lo = 1
        return lo, max(lo, hi)


def _add(items: list[str], item: str) -> None:
    if item not in items:
        items.append(item)


def _default_member(g: list[_Member]) -> _Member:
    for m in g:
        default = m.parent.default_id if m.parent.kind == "group" else ""
        if default and default in (m.entry.id, m.entry.link_id):
            return m
    return max(g, key=lambda m: (m.min, m.max or 0))


def _cost(e: Entry, type_id: str, ctx: Context) -> Fraction:
    value = next((c.value for c in e.costs if c.type_id == type_id), Fraction(0))
    for m in e.modifiers:
        if m.field == type_id:
            value = apply_number(value, m, ctx)
    return value


def _split(n: int, members: list[_Member], groups: list[list[_Member]],
           counts: list[tuple[int, int]]) -> list[tuple[_Member, int]]:
    """How ``n`` models spread over the model entries: every group at its minimum, the rest
    added to the largest group first; inside a group, to its default entry."""
    sizes = [lo for lo, _hi in counts]
    extra = n - sum(sizes)
    for i in sorted(range(len(groups)), key=lambda i: -counts[i][1]):
        add = min(extra, counts[i][1] - sizes[i])
        sizes[i] += add
        extra -= add
    out = []
    for g, size in zip(groups, sizes, strict=True):
        default = _default_member(g)
        rest = size
        for m in g:
            if m is not default:
                k = min(m.min, rest)
                out.append((m, k))
                rest -= k
        out.append((default, rest))
    return out


# --------------------------------------------------------------------------- finding units


_norm = name_key


def is_datasheet(e: Entry) -> bool:
    """A library's shared entry that is a datasheet: a unit, or a model with a faction."""
    if e.type == "unit":
        return True
    return e.type == "model" and any(
        (c.name or "").lower().startswith("faction:") for c in e.category_links)


def catalogue_units(lib: Library) -> list[tuple[str, Entry]]:
    """(name, root entry) of every unit and single-model datasheet a roster can select."""
    w = Walker(lib)
    out: dict[str, tuple[str, Entry]] = {}
    if lib.main.library:  # a library's datasheets are its shared entries
        for e in lib.main.shared_entries:
            if is_datasheet(e):
                out.setdefault(e.id, (e.name, e))
    for _cat, e in lib.root_entries():
        try:
            r = w.resolve(e)
        except ValueError:
            key = e.target_id or e.id  # its file is missing: importing it will say so
            out.setdefault(key, (e.name, e))
            continue
        if r.type in ("unit", "model"):
            out.setdefault(r.id, (r.name, e))
    return sorted(out.values(), key=lambda x: _norm(x[0]))


def find_unit(lib: Library, name: str) -> Entry:
    """The root entry of the unit called ``name`` (case-insensitive; a unique prefix is enough)."""
    units = catalogue_units(lib)
    q = _norm(name)
    where = lib.main.path.rsplit("/", 1)[-1]
    if not q:
        raise InputError(f"{where}: give a unit name")
    for matches in (
        [u for u in units if _norm(u[0]) == q],
        [u for u in units if _norm(re.sub(r"\s*\[.*?\]", "", u[0])) == q],
        [u for u in units if _norm(u[0]).startswith(q)],
    ):
        if len(matches) == 1:
            return matches[0][1]
        if len(matches) > 1:
            raise InputError(
                f"{where}: unit {name!r} is ambiguous: matches "
                + ", ".join(m[0] for m in matches[:8])
                + (", ..." if len(matches) > 8 else "")
            )
    names = {_norm(u[0]): u[0] for u in units}
    close = [names[k] for k in difflib.get_close_matches(q, list(names), 5, 0.5)]
    hint = f"closest: {', '.join(close)}" if close else f"it has {len(units)} units"
    raise InputError(f"{where}: no unit {name!r}; {hint}")


def build_raw(lib: Library, name: str) -> tuple[dict[str, Any], list[str]]:
    """The unit file (as a dict in the units/ schema) and the import's warnings."""
    b = _Builder(lib, find_unit(lib, name))
    try:
        raw = b.build()
    except RecursionError:
        raise InputError(f"{lib.main.path}: {name!r}: links nest too deeply (a cycle?)") from None
    return raw, b.warnings


def build_entry(lib: Library, entry: Entry) -> tuple[dict[str, Any], list[str], list[list[str]]]:
    """Like :func:`build_raw` for a root entry already found, also giving the names of the
    model entries in each model group (in the order of ``raw["models"]``)."""
    b = _Builder(lib, entry)
    raw = b.build()
    return raw, b.warnings, b.group_members


def option_names(lib: Library, entry: Entry) -> list[str]:
    """The names of everything a roster can select inside a unit (models, wargear, options,
    their groups) and of the weapon profiles below it."""
    w = Walker(lib)
    unit = w.resolve(entry)
    ctx = Context(ancestry=ancestry_of(unit), unit_id=unit.id)
    names = [unit.name]
    for x, c, _path in w.walk(unit, ctx, lambda x: False):
        names.append(x.name)
        names += [_clean_name(p.name) for p in w.profiles(x, c) if is_weapon(p)]
    names += [_clean_name(p.name) for p in w.profiles(unit, ctx) if is_weapon(p)]
    return list(dict.fromkeys(n for n in names if n))


__all__ = ["build_entry", "build_raw", "catalogue_units", "find_unit", "is_datasheet",
           "map_keyword", "option_names", "split_keywords", "weapon_table"]
