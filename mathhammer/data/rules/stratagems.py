"""Stratagems as switches, from the 40kdc data (docs/rules.md, section 12).

The BattleScribe data holds no stratagems. The 40kdc data (the ``wh40kdc`` package on the
package index: code MIT, its rules data CC BY 4.0, "Powered by 40kdc-data",
https://40kdc.alpacasoft.dev) has every 11e stratagem — the ten core ones and those of each
detachment — with when it is used (phases, whose turn, CP, the keywords a unit needs) and what
it does as a tree of effects, but no rule text (only an English rendering of the tree). It is
an optional extra (``pip install mathhammer[stratagems]``), never bundled: without it a unit
has no stratagems from data (the hand-written named rules in ``rules/factions`` still serve).

Each stratagem goes through the one translator (:func:`~mathhammer.data.rules.translate.
translate_effect`) into named-rule switches, off by default: ``--rule NAME`` switches one on
where a unit's switches are switched on, ``mathhammer rules --for UNIT`` lists the ones the
unit can use (by its faction and keywords), and what cannot be modelled is named.

>>> st = Stratagem("Storm of Fire", "Adeptus Astartes", "Gladius Task Force", 1,
...                ("shooting",), "your turn", (), (), "...")
>>> st.when()
'1CP, shooting phase, your turn'
>>> st.usable_by({"INFANTRY"}), Stratagem("Tank Shock", "", "", 1, ("charge",), "your turn",
...     (), ("MONSTER", "VEHICLE"), "...").usable_by({"INFANTRY"})
(True, False)
"""

from __future__ import annotations

import json
import os
import textwrap
from collections import Counter
from collections.abc import Iterable
from typing import Any

import attrs

from ...cache import cached
from ..typed.names import name_key
from .effect_tree import translate_effect
from .parts import DataRule
from .renderings import tree_note

#: the optional extra that brings the 40kdc data
EXTRA = "mathhammer[stratagems]"
#: the attribution its licence asks for
CREDIT = "Powered by 40kdc-data (https://40kdc.alpacasoft.dev), data CC BY 4.0"
_TURNS = {"your-turn": "your turn", "opponent-turn": "opponent's turn", "either": "either turn"}
_SMALL = {"of", "the", "and", "a", "an", "to", "in", "on", "for", "from", "by", "with", "at"}


@attrs.frozen
class Stratagem:
    """One stratagem: when it is used, which units can use it, and its named rules."""

    name: str
    #: its faction ("" for a core stratagem)
    faction: str
    #: its detachment ("" for a core stratagem)
    detachment: str
    cp: int | None
    phases: tuple[str, ...]
    turn: str
    #: keywords a unit needs, all of them / one of them (upper case)
    keywords: tuple[str, ...]
    any_keywords: tuple[str, ...]
    #: the 40kdc data's English rendering of its effect (not the published text)
    text: str
    #: the translated rules: switches, and a not-modelled part
    parts: tuple[DataRule, ...] = ()
    source: str = ""
    #: the effect tree still to translate (``_translated`` does it once, for the stratagems
    #: a unit can use: translating all 1,434 costs a query about 0.3 s)
    pending: Any = attrs.field(default=None, eq=False, repr=False)

    def usable_by(self, keywords: Iterable[str]) -> bool:
        """Whether a unit with these keywords (upper case; or a set of their name keys) can be
        its target."""
        have = keywords if isinstance(keywords, frozenset) else \
            frozenset(name_key(k) for k in keywords)
        return all(name_key(k) in have for k in self.keywords) and (
            not self.any_keywords or any(name_key(k) in have for k in self.any_keywords))

    @property
    def switches(self) -> tuple[DataRule, ...]:
        return tuple(p for p in self.parts if p.rule.usable)

    @property
    def not_modelled(self) -> str:
        """Why (part of) it is not modelled ("" when every part that changes an attack is)."""
        return "; ".join(p.rule.not_modelled for p in self.parts if p.rule.not_modelled)

    def when(self) -> str:
        """CP, phases, whose turn and the keywords a unit needs, in words."""
        phases = "/".join(self.phases)
        out = f"{self.cp}CP, {phases} phase{'s' * (len(self.phases) > 1)}, {self.turn}"
        need = list(self.keywords) + ([" or ".join(self.any_keywords)] if self.any_keywords
                                      else [])
        return out + (f"; units with {' and '.join(need)}" if need else "")


def available() -> bool:
    """Whether the 40kdc data is installed (the optional extra)."""
    return _version() is not None


@cached(maxsize=1)
def _version() -> str | None:
    """The installed wh40kdc's version (found without importing it), None without it; kept in
    the cache folder by its ``__init__.py``'s path, size and time (``importlib.metadata``'s
    import costs ~35 ms of a command's start)."""
    import importlib.util

    from ..store.data_folder import cache_dir

    try:
        spec = importlib.util.find_spec("wh40kdc")
        st = os.stat(spec.origin) if spec is not None and spec.origin else None
    except (ImportError, ValueError, OSError):
        return None
    if st is None or spec is None:
        return None
    stamp = [st.st_size, st.st_mtime_ns]
    path = cache_dir() / "40kdc-version.json"  # {__init__.py's path: [size, mtime, version]}
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        kept = kept if isinstance(kept, dict) else {}
    except (OSError, ValueError):
        kept = {}
    found = kept.get(spec.origin)
    if isinstance(found, list) and found[:2] == stamp and isinstance(found[-1], str):
        return found[-1]
    import importlib.metadata

    try:
        version = importlib.metadata.version("wh40kdc")
    except (ValueError, importlib.metadata.PackageNotFoundError):
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(".part")
        kept[spec.origin] = [*stamp, version]
        part.write_text(json.dumps(kept), encoding="utf-8")
        part.replace(path)
    except OSError:
        pass
    return version


def _title(name: str) -> str:
    """A name in capitals as a title ("STORM OF FIRE" -> "Storm of Fire").

    >>> _title("STORM OF FIRE"), _title("Armour of Contempt"), _title("RIDE HARD, RIDE FAST")
    ('Storm of Fire', 'Armour of Contempt', 'Ride Hard, Ride Fast')
    """
    if name != name.upper():
        return name.strip()
    words = name.strip().lower().split()
    return " ".join(w if i and w in _SMALL else w[:1].upper() + w[1:]
                    for i, w in enumerate(words))


def _attack(phases: Iterable[str]) -> str | None:
    """A stratagem used only in the Shooting (Fight) phase changes ranged (melee) attacks."""
    fighting = {p for p in phases if p in ("shooting", "fight")}
    if fighting == {"shooting"}:
        return "ranged"
    if fighting == {"fight"}:
        return "melee"
    return None


def all_stratagems() -> tuple[Stratagem, ...]:
    """Every stratagem of the installed 40kdc data, translated (``()`` without it)."""
    version = _version()
    return tuple(map(_translated, _load(version))) if version is not None else ()


def _records(version: str) -> dict[str, Any]:
    """What mathhammer reads of the 40kdc data: its factions, and each stratagem with its
    detachment, keywords, the English rendering and the effect tree. Reading the dataset takes
    about 1.5 s, so the records are kept in the cache folder, one file per wh40kdc version
    (rebuilt when missing or unreadable; not kept when the folder cannot be written)."""
    from ..store.data_folder import cache_dir

    path = cache_dir() / f"40kdc-stratagems-{version}.json"
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(found, dict) and isinstance(found.get("stratagems"), list) and \
                isinstance(found.get("factions"), list):
            return found
    except (OSError, ValueError):
        pass
    records = _read_dataset()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(".part")
        part.write_text(json.dumps(records), encoding="utf-8")
        part.replace(path)
    except OSError:
        pass
    return records


def _read_dataset() -> dict[str, Any]:
    from wh40kdc import Dataset, describe_ability

    ds = Dataset.embedded()
    factions = {f.id: f.raw for f in ds.factions.all}
    detachments = {d["id"]: d for d in ds.detachments.all}
    out = []
    for s in ds.stratagems.all:
        det = detachments.get(s.get("detachment_id") or "")
        view = ds.abilities.get(s["ability_id"]) if s.get("ability_id") else None
        ability = view.raw if view is not None else None
        limits = s.get("target_restrictions") or {}
        applies = (ability or {}).get("applies_to") or {}
        text = ""
        if ability is not None:
            try:
                text = describe_ability(ability)
            except Exception:  # noqa: BLE001 - their renderer; the tree is still read
                text = ""
            text = text or f"(no rendering of {s['id']} in the 40kdc data)"
        out.append({
            "id": s["id"], "name": s["name"], "cp": s.get("cp_cost"),
            "faction": factions.get(det["faction_id"], {}).get("name", "") if det else "",
            "detachment": det["name"] if det else "",
            "phases": list(s.get("phases") or ()), "turn": s.get("player_turn") or "",
            "keywords": [*limits.get("required_keywords", ()),
                         *applies.get("required_keywords", ())],
            "any_keywords": list(limits.get("required_keywords_any", ())),
            "text": text, "effect": (ability or {}).get("effect") if ability else None,
        })
    return {"stratagems": out, "factions": [
        {"name": f["name"], "id": f["id"], "aliases": list(f.get("aliases") or ()),
         "parent": f.get("parent_faction_id")} for f in factions.values()]}


@cached(maxsize=16)
def _load(version: str, factions: frozenset[str] | None = None) -> tuple[Stratagem, ...]:
    """Every stratagem of the data (the core ones and those of ``factions``, by name key,
    when given), its effect tree not yet translated (``pending``)."""
    records = _records(version)["stratagems"]
    named = Counter(name_key(r["name"]) for r in records)
    out = []
    for r in records:
        faction, detachment = r["faction"], r["detachment"]
        if factions is not None and faction and name_key(faction) not in factions:
            continue
        name = _title(r["name"])
        if named[name_key(r["name"])] > 1 and detachment:
            name = f"{name} ({detachment})"
        phases = tuple(r["phases"])
        where = (f"40kdc-data (wh40kdc {version}), stratagem {r['id']}"
                 + (f", {faction}: {detachment}" if detachment else ", core") + f"; {CREDIT}")
        pending = None if r["effect"] is None else (
            r["effect"] or {}, _attack(phases),
            f"{name} is used on the unit ({'/'.join(phases)} phase)")
        out.append(Stratagem(name, faction, detachment, r["cp"], phases,
                             _TURNS.get(r["turn"], "either turn"),
                             tuple(str(k).upper() for k in r["keywords"]),
                             tuple(str(k).upper() for k in r["any_keywords"]),
                             r["text"] + tree_note(r["effect"]), (), where, pending))
    return tuple(out)


@cached(maxsize=4096)
def _translated(s: Stratagem) -> Stratagem:
    """The stratagem with its effect tree translated by the one translator."""
    if s.pending is None:
        return s
    effect, attack, assumes = s.pending
    parts = translate_effect(s.name, effect, s.text, s.source, faction=s.faction,
                             detachment=s.detachment or None, cp=s.cp, attack=attack,
                             assumes=assumes)
    return attrs.evolve(s, parts=parts, pending=None)


@cached(maxsize=64)
def _factions_of(faction: str, faction_keywords: tuple[str, ...]) -> frozenset[str]:
    """The 40kdc factions (by name key) a unit's stratagems come from: its faction, its
    faction keywords, and their parent factions (a Blood Angels unit uses Space Marine
    detachments)."""
    raw = {f["id"]: f for f in _records(_version() or "")["factions"]}
    own = {name_key(faction)} | {name_key(k) for k in faction_keywords}
    found = set()
    for f in raw.values():
        if name_key(f["name"]) in own or any(name_key(k) in own for k in f["aliases"]):
            found.add(name_key(f["name"]))
            parent = raw.get(f["parent"] or "")
            if parent:
                found.add(name_key(parent["name"]))
    return frozenset(found)


def _is_11e(unit: Any) -> bool:
    """Whether a unit is of the 11th edition's BattleScribe data (its origin says)."""
    origin = getattr(unit, "origin", None)
    return bool(getattr(origin, "of_data", False)) and origin is not None \
        and origin.edition == "11e"


def unit_stratagems(unit: Any, detachment: str | None = None) -> tuple[Stratagem, ...]:
    """The stratagems an 11e data unit can use: the core ones and those of its faction's
    detachments (or of ``detachment`` only), by its keywords. ``()`` for a 10e or bundled
    unit, or without the 40kdc data."""
    if not _is_11e(unit) or not available():
        return ()
    faction = getattr(unit, "faction", "") or ""
    faction_keywords = tuple(getattr(unit, "faction_keywords", ()) or ())
    keywords = tuple(sorted({*getattr(unit, "keywords", ()), *faction_keywords, faction}))
    return _eligible(faction, faction_keywords, keywords, detachment)


@cached(maxsize=256)
def _eligible(faction: str, faction_keywords: tuple[str, ...], keywords: tuple[str, ...],
              detachment: str | None) -> tuple[Stratagem, ...]:
    factions = _factions_of(faction, faction_keywords)
    want = name_key(detachment) if detachment else None
    version = _version()
    have = frozenset(name_key(k) for k in keywords)  # keyed once, not per stratagem
    return tuple(
        _translated(s) for s in (_load(version, factions) if version is not None else ())
        if (not s.faction or want is None or name_key(s.detachment) == want)
        and s.usable_by(have))


def stratagem_rules(unit: Any) -> tuple[DataRule, ...]:
    """The switches of every stratagem a unit can use (see :func:`unit_stratagems`)."""
    return tuple(p for s in unit_stratagems(unit) for p in s.switches)


def stratagem_lines(units: Iterable[Any], *, rules: str = "11e", full: bool = False,
                    detachment: str | None = None) -> list[str]:
    """``rules --for UNIT``'s stratagems: those the units can use, each with its detachment,
    CP, phase, turn and the keywords it needs, its switches by side (``--rule NAME``) or why
    it is not modelled; the ones that change no attack by name.

    >>> stratagem_lines([]) if available() else ["stratagems: none"]  # doctest: +ELLIPSIS
    ['stratagems: none...']
    """
    if not available():
        return [f"stratagems: none from data (install {EXTRA} for the 11e stratagems of the "
                "40kdc data); named rules from files: mathhammer rules --faction NAME"]
    units = list(units)
    found = list(dict.fromkeys(s for u in units for s in unit_stratagems(u, detachment)))
    if not found:
        why = "no stratagem of its faction" + (f" and detachment {detachment!r}" if
                                              detachment else "") + " in the 40kdc data"
        if not any(_is_11e(u) for u in units):
            why = ("the 40kdc data is 11e: a unit of the 11e BattleScribe data has them"
                   + ("; give --rules 11e" if rules != "11e" else ", not a bundled unit")
                   + "; the 10e core ones are named rules: mathhammer rules --faction "
                   "\"core stratagems (10e)\"")
        return [f"stratagems: none ({why})"]
    changing = [s for s in found if s.parts]
    other = [s.name for s in found if not s.parts and s.text]
    blank = [s.name for s in found if not s.text]
    out = [f"stratagems it can use ({len(found)}; {len(changing)} change an attack; "
           f"switches: --rule NAME; {CREDIT}):"]
    for s in changing:
        where = f"{s.detachment}; " if s.detachment else "core; "
        out.append(f"  {s.name} [{where}{s.when()}]")
        for part in s.parts:
            r = part.rule
            head = "not modelled" if r.not_modelled else \
                "attacking" if r.side == "attacker" else "defending"
            label = f"{r.name}: " if r.name != s.name else ""
            out.append(f"    {head}: {label}{r.not_modelled or r.describe()}")
        if full:
            out += textwrap.wrap(s.text.replace("\n", " "), 80, initial_indent="      ",
                                 subsequent_indent="      ")
    if other:
        out.append(f"  change no attack ({len(other)}): " + ", ".join(other))
    if blank:
        out.append(f"  no effect in the 40kdc data, not read ({len(blank)}): "
                   + ", ".join(blank))
    return out


def stratagem_coverage(stratagems: Iterable[Stratagem] | None = None) -> dict[str, Any]:
    """How many stratagems there are, how many change an attack, how many of those are
    applied (every part modelled) or partly applied, and the largest not-modelled reasons."""
    rows = tuple(all_stratagems() if stratagems is None else stratagems)
    relevant = [s for s in rows if s.parts]
    applied = [s for s in relevant if not s.not_modelled]
    partly = [s for s in relevant if s.not_modelled and s.switches]
    reasons: Counter[str] = Counter()
    for s in relevant:
        for reason in filter(None, s.not_modelled.split("; ")):
            reasons[reason] += 1
    return {"stratagems": len(rows), "with_effect": sum(bool(s.text) for s in rows),
            "attack_relevant": len(relevant), "applied": len(applied),
            "partly_applied": len(partly), "not_modelled": dict(reasons.most_common())}


__all__ = [
    "CREDIT", "EXTRA", "Stratagem", "all_stratagems", "available", "stratagem_coverage",
    "stratagem_lines", "stratagem_rules", "unit_stratagems",
]
