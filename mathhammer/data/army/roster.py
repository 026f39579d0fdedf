"""BattleScribe rosters: ``.ros`` (XML) and ``.rosz`` (a zip holding one ``.ros``), and the
walk of a roster tree that the JSON forms of it share (New Recruit's and ListForge's JSON:
:mod:`.structured`).

Each force names its catalogue (``catalogueName``); its top-level selections of type unit or
model are the units. Selection numbers are totals (4 chainswords for 4 models), and each
selection carries its own cost, so a unit's points are the sum over its selections. A unit's
``entryId`` (``link id::target id``) names its datasheet's BattleScribe ids, which the list is
resolved by before its name (:func:`entry_ids`).

The tree is read through :class:`~mathhammer.data.bsdata.formats.Node` (an XML element or a
JSON object alike); selections nested deeper than
:data:`~mathhammer.limits.MAX_ROSTER_DEPTH` are refused.
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections.abc import Sequence
from fractions import Fraction

from ...errors import InputError
from ...limits import MAX_ARMY_FILE_BYTES, MAX_ARMY_UNITS, MAX_LINE, MAX_ROSTER_DEPTH
from ..bsdata.formats import Node, XmlNode, local_name
from .formats import ListFormat, Sign, register
from .lines import is_note
from .values import Item, ParsedList, ParsedModel, ParsedUnit


def _kids(el: Node, plural: str) -> Sequence[Node]:
    return el.children(plural)


def _text(el: Node) -> str:
    """An element's text (a JSON roster's ``$text`` may be a number)."""
    return (el.own_text() or el.get("$text") or "").strip()


def _deeper(depth: int, el: Node) -> int:
    if depth >= MAX_ROSTER_DEPTH:
        raise InputError(f"roster: selection {el.get('name') or '?'!r}: selections nest deeper "
                         f"than {MAX_ROSTER_DEPTH} levels "
                         "(mathhammer.limits.MAX_ROSTER_DEPTH)")
    return depth + 1


def entry_ids(sel: Node) -> tuple[str, ...]:
    """The BattleScribe ids a selection's ``entryId`` names, the entry's own first: a
    roster writes ``link id::target id`` for an entry selected through a link.

    >>> from mathhammer.data.bsdata.formats import JsonNode
    >>> entry_ids(JsonNode({"entryId": "da66-4d12::b5e8-c34b"}))
    ('b5e8-c34b', 'da66-4d12')
    """
    raw = (sel.get("entryId") or "").strip()[:400]
    return tuple(reversed([p for p in raw.split("::") if p]))


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


def _subtree_pts(sel: Node, depth: int = 0) -> Fraction:
    depth = _deeper(depth, sel)
    return _pts(sel) + sum((_subtree_pts(s, depth) for s in _kids(sel, "selections")),
                           Fraction(0))


def _is_weapon(sel: Node, profiles: bool = True) -> bool | None:
    """Whether a selection is a weapon: it has a weapon profile, or (a JSON roster) a
    ``Ranged Weapon``/``Melee Weapon`` category. ``profiles``: the roster gives its
    selections' profiles, so a selection without a weapon profile is no weapon; without
    them (a ListForge payload) None: the data decides."""
    if any("weapon" in (p.get("typeName") or "").lower() for p in _kids(sel, "profiles")):
        return True
    if any((c.get("name") or "").strip().lower().endswith(" weapon")
           for c in _kids(sel, "categories")):
        return True
    if profiles or _kids(sel, "profiles"):
        return False
    # no profiles: a selection holding others ("Overlord's blade and tachyon arrow" over its
    # two weapons) is their choice, not a weapon; the others are the data's to say
    return False if _kids(sel, "selections") else None


def _is_enhancement(sel: Node) -> bool:
    """A selection with a cost, or (a JSON roster) one from an ``Enhancements`` group."""
    return _pts(sel) > 0 or (sel.get("group") or "").strip().lower().startswith("enhancement")


_NAMED_COUNT = re.compile(r"(\d{1,3})x?\s(?=\D)")


def _number(sel) -> int:
    """A selection's number (``number="3"``), times a count its name starts with ("2 Fragstorm
    Grenade Launchers")."""
    text = (sel.get("number") or "1").strip()
    whole = text.split(".")[0] if text.endswith((".0", ".00")) else text
    n = int(whole) if whole.isdigit() and len(whole) <= 6 else 1
    m = _NAMED_COUNT.match(sel.get("name") or "")
    return max(1, n) * (int(m.group(1)) if m and sel.get("type") != "unit" else 1)


def _label(sel: Node) -> str:
    """A selection's name as the roster writes it (one over
    :data:`~mathhammer.limits.MAX_LINE` characters is an error, as a text list's
    line is)."""
    name = sel.get("name") or ""
    if len(name) > MAX_LINE:
        raise InputError(f"roster: a selection name of {len(name)} characters (the limit is "
                         f"{MAX_LINE}, mathhammer.limits.MAX_LINE)")
    return name


def _name(sel) -> str:
    """A selection's name without the count it starts with."""
    name = _label(sel)
    m = _NAMED_COUNT.match(name)
    return name[m.end():].strip() if m and sel.get("type") != "unit" else name


def _tables(sel) -> tuple[dict, ...]:
    """The weapon tables of a selection's own profiles."""
    from ..bsdata.entries import Characteristic, Profile
    from ..bsdata.weapons import weapon_table

    out = []
    for p in _kids(sel, "profiles"):
        if "weapon" not in (p.get("typeName") or "").lower():
            continue
        chars = tuple(Characteristic(c.get("name") or "", c.get("typeId") or "", _text(c))
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
                                     "(mathhammer.limits.MAX_ARMY_FILE_BYTES)")
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
    if local_name(root.tag) != "roster":
        raise InputError(f"{source}: not a BattleScribe roster (root <{local_name(root.tag)}>)")
    return read_tree(XmlNode(root), source, "battlescribe")


def edition_of_system(name: str) -> str | None:
    """The edition a game system's name says (``Warhammer 40,000 10th Edition``), if any.

    >>> edition_of_system("Warhammer 40,000 11th Edition"), edition_of_system("Warhammer 40,000")
    ('11e', None)
    """
    system = name.lower()
    return "11e" if "11th" in system else "10e" if "10th" in system else None


def read_tree(root: Node, source: str, fmt: str, system: str = "", name: str = "",
              profiles: bool = True) -> ParsedList:
    """A roster tree (``root``: the roster, with ``forces``) read as a list of format ``fmt``
    (``system``, ``name``: the game system and list name when the roster itself does not say
    them; ``profiles``: the tree gives its selections' profiles, see :func:`_is_weapon`)."""
    edition = edition_of_system(root.get("gameSystemName") or system)
    factions: list[str] = []
    units: list[ParsedUnit] = []
    detachments: list[str] = []

    def force(f: Node, depth: int) -> None:
        depth = _deeper(depth, f)
        name = f.get("catalogueName") or ""
        if name and name not in factions:
            factions.append(name)
        for sel in _kids(f, "selections"):
            if (sel.get("name") or "").lower().startswith("detachment"):  # "Detachment Choice"
                detachments.extend(c.get("name") or "" for c in _kids(sel, "selections"))
            if sel.get("type") not in ("unit", "model"):
                continue
            if not name:  # a force without its catalogue (ListForge): "Faction: X" categories
                for c in _kids(sel, "categories"):
                    cat = (c.get("name") or "")[:200]
                    if cat.lower().startswith("faction:") and cat[8:].strip() not in factions:
                        factions.append(cat[8:].strip())
            units.append(_unit(sel, name, profiles))
            if len(units) > MAX_ARMY_UNITS:
                raise InputError(f"more than {MAX_ARMY_UNITS} units in one roster "
                                 "(mathhammer.limits.MAX_ARMY_UNITS)")
        for sub in _kids(f, "forces"):
            force(sub, depth)

    try:
        for f in _kids(root, "forces"):
            force(f, 0)
        declared = _pts(root)
    except InputError as e:
        raise InputError(f"{source}: {e}") from None
    if not units:
        raise InputError(f"{source}: the roster has no units")
    return ParsedList(fmt, source, root.get("name") or name, tuple(factions), edition,
                      int(declared) if declared else None, tuple(units),
                      detachments=tuple(d for d in dict.fromkeys(detachments) if d))


def _unit(sel: Node, catalogue: str, profiles: bool = True) -> ParsedUnit:
    models: list[ParsedModel] = []
    items: list[Item] = []
    enh: list[str] = []
    notes: list[str] = []  # Warlord and the like: said about the unit, not wargear

    def walk(s: Node, into: list[Item], depth: int) -> None:
        depth = _deeper(depth, s)
        for c in _kids(s, "selections"):
            if c.get("type") == "model":
                sub: list[Item] = []
                walk(c, sub, depth)
                models.append(ParsedModel(_name(c), _number(c), 0, tuple(sub)))
                continue
            weapon = _is_weapon(c, profiles)
            if weapon:
                into.append(Item(_name(c), _number(c), 0, _tables(c)))
            elif _is_enhancement(c):
                enh.append(_label(c))
            elif is_note(_label(c)) and not _kids(c, "selections"):
                notes.append(_label(c))
            else:
                into.append(Item(_name(c), _number(c), 0, weapon=weapon))
            walk(c, into, depth)

    walk(sel, items, 0)
    pts = _subtree_pts(sel)
    if pts.denominator != 1:
        raise InputError(f"roster: unit {sel.get('name') or '?'!r} costs {float(pts):g} "
                         "points: points are whole numbers")
    size = _number(sel) if sel.get("type") == "model" else None
    return ParsedUnit(_label(sel), 0, int(pts), tuple(models), tuple(items),
                      tuple(enh), tuple(notes), size=size, role="", group=0, ids=entry_ids(sel))


def _read(data: str | bytes, source: str) -> ParsedList:
    return parse_roster(data if isinstance(data, bytes) else data.encode("utf-8"), source)


register(ListFormat(
    "battlescribe", _read, signs=(Sign(0, lambda text: text.lstrip().startswith("<")),),
    listed=20, recognise_bytes=lambda data: data[:2] == b"PK" or data.lstrip()[:200]
    .startswith(b"<"),
    edition='a roster says it by its game system ("... 10th Edition", "... 11th Edition")',
    reads="BattleScribe rosters (`.ros`, `.rosz`)"))
