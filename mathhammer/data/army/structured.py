"""Army lists as structured data, recognised by their content beside the text exports: the
formats registered below (``newrecruit-json``, ``listforge-json``, ``listforge-link``,
``mathhammer-json``), each with what it reads.

The roster trees are walked by the same code as a ``.ros`` roster
(:func:`mathhammer.data.army.roster.read_tree`); a unit's ``entryId`` (and a saved army's
``datasheet_id``) is its datasheet's BattleScribe id, which the list is resolved by before the
name. Limits (:mod:`mathhammer.limits`): ``MAX_ARMY_FILE_BYTES`` (a share link's JSON too),
``MAX_JSON_DEPTH``, ``MAX_ROSTER_DEPTH``, ``MAX_LINE``, ``MAX_ARMY_UNITS``.

>>> kind_of('{"roster": {"forces": []}, "generatedBy": "https://newrecruit.eu"}')
'json'
>>> kind_of("https://example.app/#/listforge/H4sIAAAAAAAAA6uuBQBDv6ajAgAAAA=="), kind_of("x")
('link', None)
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
import urllib.parse
import zlib
from collections.abc import Callable
from typing import Any

from ...errors import InputError
from ...limits import MAX_ARMY_FILE_BYTES, MAX_ARMY_UNITS, MAX_JSON_DEPTH, MAX_LINE
from ..bsdata.formats import JsonNode
from .formats import ListFormat, Sign, register
from .roster import read_tree
from .values import Item, ParsedList, ParsedModel, ParsedUnit

NEWRECRUIT_XMLNS = "http://www.battlescribe.net/schema/rosterSchema"
#: the path ListForge's share links carry their payload after
LISTFORGE_MARKER = "/listforge/"
#: a gzip stream's first bytes in base64 (``1f 8b 08``): every share payload starts so
GZIP_BASE64 = "H4sI"
_B64 = re.compile(r"[A-Za-z0-9+/=_%-]+")


def kind_of(text: str) -> str | None:
    """``"json"`` for a JSON object, ``"link"`` for a ListForge share link or payload, else
    None (a text list)."""
    s = text.strip()
    if s.startswith("{"):
        return "json"
    if "\n" not in s and (LISTFORGE_MARKER in s or s.startswith(GZIP_BASE64)):
        return "link"
    return None


def is_share_link(text: str) -> bool:
    """Whether ``text`` (a command-line argument) is a ListForge share link or payload."""
    return len(text) <= MAX_ARMY_FILE_BYTES and kind_of(text) == "link"


def _read_link(text: str | bytes, source: str) -> ParsedList:
    """A ListForge share link or its payload."""
    return _roster(loads(decode_link(str(text), source), source), source, "listforge-link")


def _read_json(fmt: str) -> Callable[[str | bytes, str], ParsedList]:
    """The reader of one JSON format: a file of another JSON format is an error (a New
    Recruit and a ListForge roster are the same tree, either read as the other)."""
    def read(text: str | bytes, source: str) -> ParsedList:
        text = str(text)
        if kind_of(text) != "json":
            raise InputError(f"{source}: not a JSON army list (read as {fmt}: expected a JSON "
                             "object)")
        data = loads(text, source)
        found = format_of(data)
        if found is None:
            raise InputError(f"{source}: a JSON file that is not an army list (expected a New "
                             "Recruit or ListForge roster with roster.forces, or what "
                             "`mathhammer army --json` writes)")
        if found != fmt and not {fmt, found} <= set(_ROSTER_TREES):
            raise InputError(f"{source}: --format {fmt}: the file is {found}")
        return saved_army(data, source) if found == fmt and fmt not in _ROSTER_TREES \
            else _roster(data, source, fmt)
    return read


@functools.lru_cache(maxsize=2)
def _json_kind(text: str) -> str:
    """The JSON format a text is (New Recruit's when it is none of them or not JSON at all:
    its reader says why it is no list)."""
    try:
        return format_of(loads(text, "<text>")) or "newrecruit-json"
    except InputError:
        return "newrecruit-json"


#: the formats that are a BattleScribe roster tree in JSON
_ROSTER_TREES = ("newrecruit-json", "listforge-json")
_READERS = {"newrecruit-json": _read_json("newrecruit-json"),
            "listforge-json": _read_json("listforge-json"),
            "listforge-link": _read_link, "mathhammer-json": _read_json("mathhammer-json")}
for _k, (_name, _edition, _reads) in enumerate((  # a link first, then JSON by its own format
        ("newrecruit-json", "New Recruit's JSON says it by the roster's game system",
         "New Recruit's JSON export, the roster tree (`roster.forces[].selections`, `costs`, "
         "categories, `catalogueName`; `generatedBy: https://newrecruit.eu` or its `xmlns`)"),
        ("listforge-json", "ListForge's JSON says it by its game system",
         "ListForge's share JSON: the same tree without New Recruit's marks; a selection "
         "without profiles is a weapon by its `Ranged Weapon`/`Melee Weapon` category, else "
         "the data says what it is"),
        ("listforge-link", "a ListForge share link says it by its game system",
         "a ListForge share link (`https://.../#/listforge/H4sI...`) or its payload alone, "
         "pasted as is (base64, standard or URL-safe, percent-encoded or not, of the gzipped "
         "share JSON); `mathhammer army LINK` takes the link itself as FILE"),
        ("mathhammer-json", "a saved army says it by its 'edition'",
         "what `mathhammer army --json` writes, read back: each unit by its datasheet's id "
         "(`datasheet_id`, else its name), its model groups, weapons and counts, wargear, "
         "enhancements, points, attached pairs; a list fixed by hand is saved and reloaded so"))):
    register(ListFormat(_name, _READERS[_name], listed=30 + _k, edition=_edition, reads=_reads,
                        signs=(
        Sign(1, lambda text: kind_of(text) == "link") if _name == "listforge-link" else
        Sign(2, functools.partial(lambda n, text: kind_of(text) == "json"
                                  and _json_kind(text) == n, _name)),)))
#: the structured formats (this module's)
FORMATS = tuple(_READERS)


def loads(text: str | bytes, source: str) -> Any:
    """JSON, as one line of error when it is not (or nests deeper than
    :data:`~mathhammer.limits.MAX_JSON_DEPTH`)."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise InputError(f"{source}: the JSON nests deeper than {MAX_JSON_DEPTH} levels "
                         "(mathhammer.limits.MAX_JSON_DEPTH)") from None
    except (ValueError, UnicodeDecodeError) as e:
        raise InputError(f"{source}: not well-formed JSON ({e})") from None
    depth = _depth(data)
    if depth > MAX_JSON_DEPTH:
        raise InputError(f"{source}: the JSON nests {depth} levels deep (the limit is "
                         f"{MAX_JSON_DEPTH}, mathhammer.limits.MAX_JSON_DEPTH)")
    return data


def _depth(data: Any) -> int:
    """How deep a JSON value nests (without recursion: a deep value is what is measured)."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict | list):
            deepest = max(deepest, d)
            if d > MAX_JSON_DEPTH:
                return d
            todo += [(x, d + 1) for x in (v.values() if isinstance(v, dict) else v)]
    return deepest


def decode_link(text: str, source: str) -> bytes:
    """The JSON of a ListForge share link (``.../#/listforge/PAYLOAD``) or its bare payload:
    base64 (standard or URL-safe, padding optional, percent-encoded or not) of gzipped JSON,
    unpacked up to :data:`~mathhammer.limits.MAX_ARMY_FILE_BYTES`.

    >>> import gzip, base64
    >>> decode_link(base64.b64encode(gzip.compress(b'{"a": 1}')).decode(), "x")
    b'{"a": 1}'
    """
    s = text.strip()
    i = s.find(LISTFORGE_MARKER)
    payload = s[i + len(LISTFORGE_MARKER):] if i >= 0 else s
    payload = payload.split("?", 1)[0].strip().strip("/")
    payload = urllib.parse.unquote(payload)
    if not payload or not _B64.fullmatch(payload):
        raise InputError(f"{source}: not a ListForge share link (the text after "
                         f"{LISTFORGE_MARKER!r} is not base64)")
    payload = payload.replace("-", "+").replace("_", "/").rstrip("=")
    try:
        packed = base64.b64decode(payload + "=" * (-len(payload) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InputError(f"{source}: not a ListForge share link (damaged base64)") from None
    if packed[:2] != b"\x1f\x8b":
        raise InputError(f"{source}: not a ListForge share link (its payload is not gzipped)")
    z = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = z.decompress(packed, MAX_ARMY_FILE_BYTES + 1)
    except zlib.error as e:
        raise InputError(f"{source}: a damaged ListForge share link ({e})") from None
    if len(out) > MAX_ARMY_FILE_BYTES or z.unconsumed_tail:
        raise InputError(f"{source}: the share link unpacks to over the limit of "
                         f"{MAX_ARMY_FILE_BYTES} bytes "
                         "(mathhammer.limits.MAX_ARMY_FILE_BYTES)")
    if not z.eof:
        raise InputError(f"{source}: a truncated ListForge share link (its gzip data ends "
                         "early)")
    return out


def format_of(data: Any) -> str | None:
    """Which structured format a JSON value is (None: none of them)."""
    if not isinstance(data, dict):
        return None
    roster = _roster_of(data)
    if roster is not None:
        gen = str(data.get("generatedBy") or roster.get("generatedBy") or "")
        nr = roster.get("xmlns") == NEWRECRUIT_XMLNS or gen.lower().startswith(
            "https://newrecruit") or "newrecruit" in gen.lower()
        return "newrecruit-json" if nr else "listforge-json"
    if isinstance(data.get("units"), list) and "edition" in data and (
            "faction" in data or "points" in data):
        return "mathhammer-json"
    return None


def _roster_of(data: dict) -> dict | None:
    """The roster of an export: ``data["roster"]``, or the value itself when it is one."""
    inner = data.get("roster")
    roster = inner if isinstance(inner, dict) else data
    return roster if isinstance(roster.get("forces"), list) else None


class _Node(JsonNode):
    """A JSON roster's object; a child list may also be written as XML converters write it
    (``{"selections": {"selection": [...]}}``)."""

    __slots__ = ()

    def children(self, plural: str) -> list[JsonNode]:  # each a _Node
        v = self.d.get(plural)
        if isinstance(v, dict):  # {"selections": {"selection": [...] or {...}}}
            v = v.get(plural[:-1])
            v = [v] if isinstance(v, dict) else v
        return [_Node(x) for x in v if isinstance(x, dict)] if isinstance(v, list) else []


def _roster(data: dict, source: str, fmt: str) -> ParsedList:
    """A New Recruit or ListForge roster tree read by the roster walk."""
    roster = _roster_of(data) if isinstance(data, dict) else None
    if roster is None:
        raise InputError(f"{source}: not a roster (no roster.forces list)")
    system = str(data.get("gameSystemName") or "")
    name = str(data.get("name") or "")[:MAX_LINE]
    return read_tree(_Node(roster), source, fmt, system=system, name=name,
                     profiles=_has_profiles(roster))


def _has_profiles(roster: dict) -> bool:
    """Whether the roster gives its selections' profiles (New Recruit's export does; a
    ListForge payload need not): the first force's first selections say."""
    todo = [s for f in roster.get("forces") or [] if isinstance(f, dict)
            for s in (f.get("selections") or []) if isinstance(s, dict)]
    for _ in range(10_000):
        if not todo:
            return False
        s = todo.pop()
        if s.get("profiles"):
            return True
        kids = s.get("selections")
        todo += [c for c in kids if isinstance(c, dict)] if isinstance(kids, list) else []
    return False


# ---------------------------------------------------------------- `army --json` read back


_ABSENT = object()


def _field(obj: dict, key: str, kind: type | tuple, where: str, default: Any = _ABSENT) -> Any:
    """``obj[key]`` when it is of ``kind`` (``default`` when absent; a string no longer than
    :data:`~mathhammer.limits.MAX_LINE`), else a one-line error naming it."""
    if key not in obj:
        if default is not _ABSENT:
            return default
        if isinstance(kind, tuple) and type(None) in kind:
            return None
        raise InputError(f"{where}: no {key!r}")
    v = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if not isinstance(v, kinds) or (isinstance(v, bool) and bool not in kinds):
        want = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
        raise InputError(f"{where}: {key!r} is {json.dumps(v)[:40]}, expected {want}")
    if isinstance(v, str) and len(v) > MAX_LINE:
        raise InputError(f"{where}: {key!r} is {len(v)} characters long (the limit is "
                         f"{MAX_LINE}, mathhammer.limits.MAX_LINE)")
    return v


def _count(obj: dict, key: str, where: str, lowest: int = 0) -> int:
    v = _field(obj, key, int, where)
    if not lowest <= v <= 10_000_000:
        raise InputError(f"{where}: {key!r} is {v}, expected {lowest} to 10000000")
    return v


def saved_army(data: dict, source: str) -> ParsedList:
    """What ``mathhammer army --json`` wrote, as a list to resolve again: the same units
    (each by its datasheet's id, else its name), model groups, weapons with their counts,
    other wargear, enhancements, points, edition, detachments and attached pairs. The lines
    the saved army had not read are said as warnings."""
    edition = _field(data, "edition", (str, type(None)), source)
    if edition not in (None, "10e", "11e"):
        raise InputError(f"{source}: 'edition' is {edition!r}, expected 10e or 11e")
    units_raw = data["units"]
    if len(units_raw) > MAX_ARMY_UNITS:
        raise InputError(f"{source}: more than {MAX_ARMY_UNITS} units in one list "
                         "(mathhammer.limits.MAX_ARMY_UNITS)")
    units = [_saved_unit(u, f"{source}: units[{k}]") for k, u in enumerate(units_raw)]
    attached = []
    for k, pair in enumerate(_field(data, "attached", list, source, []) or []):
        where = f"{source}: attached[{k}]"
        if not isinstance(pair, dict):
            raise InputError(f"{where}: expected an object with leader_index, bodyguard_index")
        i, j = (_count(pair, key, where) for key in ("leader_index", "bodyguard_index"))
        if i >= len(units) or j >= len(units) or i == j:
            raise InputError(f"{where}: leader_index {i}, bodyguard_index {j}: not two units "
                             f"of the {len(units)}")
        attached.append((i, j))
    # the lines the saved army had not read: a whole unit is read again (after the others:
    # the attached pairs' indexes stay), a wargear line is said
    warnings = []
    for k, u in enumerate(_field(data, "unresolved", list, source, []) or []):
        text = u.get("text") if isinstance(u, dict) else None
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_LINE:
            continue
        pts = u.get("points")
        if u.get("unit") is True and isinstance(pts, int | type(None)) and not isinstance(
                pts, bool) and (pts is None or 0 <= pts < 10_000_000):
            units.append(ParsedUnit(text, 0, pts))
        else:
            warnings.append(f"{source}: the saved army had not read {text[:200]!r} "
                            f"(unresolved[{k}]): it is not in this list either")
    if len(units) > MAX_ARMY_UNITS:
        raise InputError(f"{source}: more than {MAX_ARMY_UNITS} units in one list "
                         "(mathhammer.limits.MAX_ARMY_UNITS)")
    if not units:
        raise InputError(f"{source}: the saved army has no units")
    faction = _field(data, "faction", (str, type(None)), source) or ""
    dets = [d for d in _field(data, "detachments", list, source, []) or []
            if isinstance(d, str) and len(d) <= MAX_LINE]
    declared = _field(data, "declared_points", (int, type(None)), source)
    return ParsedList("mathhammer-json", source, _field(data, "name", (str, type(None)),
                                                        source) or "",
                      (faction,) if faction else (), edition, declared, tuple(units),
                      tuple(attached), tuple(warnings), detachments=tuple(dets))


def _weapons(raw: Any, where: str) -> list[Item]:
    """A saved group's (or unit's) weapons: ``name``, ``count`` and, when saved, the weapon's
    ``profiles`` (used when the data has no weapon of that name, as a roster's are)."""
    if not isinstance(raw, list):
        raise InputError(f"{where}: expected a list of {{name, count}}")
    out = []
    for k, w in enumerate(raw):
        at = f"{where}[{k}]"
        if not isinstance(w, dict):
            raise InputError(f"{at}: expected an object with name and count")
        name = _field(w, "name", str, at)
        if not name.strip():
            raise InputError(f"{at}: no 'name'")
        tables = _field(w, "profiles", list, at, [])
        if not all(isinstance(t, dict) for t in tables):
            raise InputError(f"{at}: 'profiles' is not a list of weapon profiles")
        out.append(Item(name, _count(w, "count", at, 1), tables=tuple(tables)))
    return out


def _saved_unit(u: Any, where: str) -> ParsedUnit:
    if not isinstance(u, dict):
        raise InputError(f"{where}: expected a unit object")
    name = _field(u, "name", str, where)
    if not name.strip():
        raise InputError(f"{where}: no 'name'")
    points = _count(u, "points", where)
    models = _count(u, "models", where, 1)
    groups = _field(u, "groups", list, where, [])
    parsed_models = []
    items: list[Item] = []
    if groups:
        for k, g in enumerate(groups):
            at = f"{where}: groups[{k}]"
            if not isinstance(g, dict):
                raise InputError(f"{at}: expected an object with name, models, weapons")
            gname = _field(g, "name", str, at) or ""
            parsed_models.append(ParsedModel(gname, _count(g, "models", at, 1), 0, tuple(
                _weapons(g.get("weapons", []), f"{at}: weapons"))))
        said = sum(m.count for m in parsed_models)
        if said != models:
            raise InputError(f"{where}: 'models' is {models}, its groups' models add up to "
                             f"{said}")
    else:  # an army --json of before the groups were written: the unit's weapons
        items = _weapons(u.get("weapons", []), f"{where}: weapons")
    wargear = _field(u, "wargear", list, where, []) or []
    items += [Item(w, 1, weapon=False) for w in wargear if isinstance(w, str) and w.strip()
              and len(w) <= MAX_LINE]
    enh = [e for e in _field(u, "enhancements", list, where, []) or []
           if isinstance(e, str) and len(e) <= MAX_LINE]
    enh_pts = _field(u, "enhancement_points", list, where, []) or []
    enh_pts = [p if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < 10_000_000
               else None for p in enh_pts][:len(enh)]
    ident = _field(u, "datasheet_id", (str, type(None)), where)
    return ParsedUnit(name, 0, points, tuple(parsed_models), tuple(items), tuple(enh),
                      size=models, enhancement_points=tuple(enh_pts),
                      ids=(ident,) if ident else ())
