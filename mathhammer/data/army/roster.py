"""BattleScribe rosters: ``.ros`` (XML) and ``.rosz`` (a zip holding one ``.ros``).

Each force names its catalogue (``catalogueName``); its top-level selections of type unit or
model are the units. Selection numbers are totals (4 chainswords for 4 models), and each
selection carries its own cost, so a unit's points are the sum over its selections.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from fractions import Fraction

from ...errors import InputError
from ...model.limits import MAX_ARMY_FILE_BYTES
from .lines import MAX_ARMY_UNITS
from .model import Item, ParsedList, ParsedModel, ParsedUnit


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _kids(el, plural: str) -> list:
    for c in el:
        if _local(c.tag) == plural:
            return [x for x in c if _local(x.tag) == plural[:-1]]
    return []


_COST = re.compile(r"-?\d{1,7}(?:\.\d{1,6})?")


def _pts(el) -> Fraction:
    """The points of one selection (its ``pts`` costs); a value that is not a plain number of
    at most seven digits (``1e999999999``) is an error."""
    total = Fraction(0)
    for c in _kids(el, "costs"):
        if (c.get("name") or "").strip().lower() == "pts":
            value = (c.get("value") or "0").strip()
            if not _COST.fullmatch(value):
                raise InputError(f"roster: selection {el.get('name') or '?'!r}: cost "
                                 f"{value[:30]!r} is not a number of points")
            total += Fraction(value)
    return total


def _subtree_pts(sel) -> Fraction:
    return _pts(sel) + sum((_subtree_pts(s) for s in _kids(sel, "selections")), Fraction(0))


def _is_weapon(sel) -> bool:
    return any("weapon" in (p.get("typeName") or "").lower() for p in _kids(sel, "profiles"))


_NAMED_COUNT = re.compile(r"(\d{1,3})x?\s(?=\D)")


def _number(sel) -> int:
    """A selection's number (``number="3"``), times a count its name starts with ("2 Fragstorm
    Grenade Launchers")."""
    text = (sel.get("number") or "1").strip()
    whole = text.split(".")[0] if text.endswith((".0", ".00")) else text
    n = int(whole) if whole.isdigit() and len(whole) <= 6 else 1
    m = _NAMED_COUNT.match(sel.get("name") or "")
    return max(1, n) * (int(m.group(1)) if m and sel.get("type") != "unit" else 1)


def _name(sel) -> str:
    """A selection's name without the count it starts with."""
    name = sel.get("name") or ""
    m = _NAMED_COUNT.match(name)
    return name[m.end():].strip() if m and sel.get("type") != "unit" else name


def _tables(sel) -> tuple[dict, ...]:
    """The weapon tables of a selection's own profiles."""
    from ..bsdata.model import Characteristic, Profile
    from ..bsdata.weapons import weapon_table

    out = []
    for p in _kids(sel, "profiles"):
        if "weapon" not in (p.get("typeName") or "").lower():
            continue
        chars = tuple(Characteristic(c.get("name") or "", c.get("typeId") or "",
                                     (c.text or "").strip())
                      for c in _kids(p, "characteristics"))
        prof = Profile(p.get("id") or "", p.get("name") or "", p.get("typeId") or "",
                       p.get("typeName") or "", chars)
        table = weapon_table(prof)
        if table is not None:
            table.pop("unmapped", None)
            out.append(table)
    return tuple(out)


def read_roster_bytes(data: bytes, source: str) -> bytes:
    """The ``.ros`` XML of a ``.rosz`` (or the bytes themselves when they are XML)."""
    if data[:2] == b"PK":
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                names = [n for n in z.namelist() if n.lower().endswith(".ros")]
                if not names:
                    raise InputError(f"{source}: a zip without a .ros roster inside")
                info = z.getinfo(names[0])
                if info.file_size > MAX_ARMY_FILE_BYTES:
                    raise InputError(f"{source}: the roster inside is over the limit of "
                                     f"{MAX_ARMY_FILE_BYTES} bytes "
                                     "(mathhammer.model.limits.MAX_ARMY_FILE_BYTES)")
                if info.flag_bits & 0x1:
                    raise InputError(f"{source}: the roster inside the zip is encrypted")
                with z.open(info) as f:
                    return f.read(MAX_ARMY_FILE_BYTES + 1)
        except InputError:
            raise
        except NotImplementedError:
            raise InputError(f"{source}: the roster inside the zip uses a compression method "
                             "this reader does not know") from None
        except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, ValueError) as e:
            raise InputError(f"{source}: a damaged or truncated zip file ({e})") from None
    return data


def parse_roster(data: bytes, source: str) -> ParsedList:
    """Read a ``.ros``/``.rosz`` roster."""
    from xml.etree.ElementTree import ParseError

    import defusedxml.ElementTree as SafeET

    xml = read_roster_bytes(data, source)
    from defusedxml import DefusedXmlException

    try:
        root = SafeET.fromstring(xml, forbid_dtd=True)
    except ParseError as e:
        raise InputError(f"{source}: not a well-formed roster ({e})") from None
    except DefusedXmlException:
        raise InputError(f"{source}: a roster with a DTD or entities (refused)") from None
    except (LookupError, ValueError) as e:
        raise InputError(f"{source}: not a readable roster ({e})") from None
    if _local(root.tag) != "roster":
        raise InputError(f"{source}: not a BattleScribe roster (root <{_local(root.tag)}>)")
    system = (root.get("gameSystemName") or "").lower()
    edition = "11e" if "11th" in system else "10e" if "10th" in system else None
    factions: list[str] = []
    units: list[ParsedUnit] = []
    detachments: list[str] = []

    def force(f) -> None:
        name = f.get("catalogueName") or ""
        if name and name not in factions:
            factions.append(name)
        for sel in _kids(f, "selections"):
            if (sel.get("name") or "").lower().startswith("detachment"):  # "Detachment Choice"
                detachments.extend(c.get("name") or "" for c in _kids(sel, "selections"))
            if sel.get("type") not in ("unit", "model"):
                continue
            units.append(_unit(sel, name))
        for sub in _kids(f, "forces"):
            force(sub)

    try:
        for f in _kids(root, "forces"):
            force(f)
        declared = _pts(root)
    except InputError as e:
        raise InputError(f"{source}: {e}") from None
    if len(units) > MAX_ARMY_UNITS:
        raise InputError(f"{source}: more than {MAX_ARMY_UNITS} units in one roster "
                         "(mathhammer.model.limits.MAX_ARMY_UNITS)")
    if not units:
        raise InputError(f"{source}: the roster has no units")
    return ParsedList("battlescribe", source, root.get("name") or "", tuple(factions), edition,
                      int(declared) if declared else None, tuple(units),
                      detachments=tuple(d for d in dict.fromkeys(detachments) if d))


def _unit(sel, catalogue: str) -> ParsedUnit:
    models: list[ParsedModel] = []
    items: list[Item] = []
    enh: list[str] = []

    def walk(s, into: list[Item]) -> None:
        for c in _kids(s, "selections"):
            if c.get("type") == "model":
                sub: list[Item] = []
                walk(c, sub)
                models.append(ParsedModel(_name(c), _number(c), 0, tuple(sub)))
                continue
            if _is_weapon(c):
                into.append(Item(_name(c), _number(c), 0, _tables(c)))
            elif _pts(c) > 0:
                enh.append(c.get("name") or "")
            else:
                into.append(Item(_name(c), _number(c), 0, weapon=False))
            walk(c, into)

    walk(sel, items)
    pts = _subtree_pts(sel)
    if pts.denominator != 1:
        raise InputError(f"roster: unit {sel.get('name') or '?'!r} costs {float(pts):g} "
                         "points: points are whole numbers")
    size = _number(sel) if sel.get("type") == "model" else None
    return ParsedUnit(sel.get("name") or "", 0, int(pts), tuple(models), tuple(items),
                      tuple(enh), size=size, role="", group=0)
