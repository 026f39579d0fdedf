"""The text exports, one reader per format sharing one pipeline (:mod:`.lines`): the head (title,
faction, points), sections, units, their models and wargear, enhancements and attached pairs.

Formats (:data:`FORMATS`, each registered with its signs and style: :func:`text_format`;
recognised by content by the registry, :mod:`.formats`, or forced):

- ``gwapp``: the Warhammer 40,000 app (10e app v1.x, 11e app v2.x; any language's headers);
- ``newrecruit-gw``: New Recruit's GW-style text (``+ FACTION KEYWORD:`` head, app-like units);
- ``newrecruit-wtc``: New Recruit's WTC and WTC-compact (``Char1: 1x Unit (80 pts): wargear``,
  ``5 with ...`` model lines, ``Leading X[1]`` / ``Attached to Y[2]``);
- ``newrecruit-nr``: New Recruit's default text (``# ++ Army Roster ++``, ``Unit [95 pts]: ...``);
- ``newrecruit-short``: New Recruit's short text (``Unit (95pts): wargear``, no head);
- ``listforge``: ListForge (``Epic Hero:`` sections, ``E: X`` enhancements);
- ``warorgan``: WarOrgan's two styles (a bullet tree like the app's, or flat lines
  ``• 1 Sister Superior with Bolt pistol and Chainsword``).

A line's wargear, models and counts are read the same way in every format; which lines are models
is settled against the datasheet (:mod:`.resolve`), so a list whose indentation was lost reads
as well as one that kept it. A line is never wargear when it is structural: in the app's words
in any language (:mod:`.words`), or by its place (a line between units that no format writes
wargear as: not bulleted, counted or priced, followed by a unit or a section; said).

Each format's edition is what the list says (its ``edition`` in the registry); a
list that says none has ``edition`` None and is read where it resolves best, said so.

Why one module over 400 lines: the readers are one pass over the lines sharing one state (the
unit being read, the attached-unit group, the head's title, faction, detachments and edition);
split by format, each would repeat the pass and carry the whole state.

>>> p = parse_text("My list (100 points)\\n\\nNecrons\\nIncursion (1000 points)\\n\\n"
...     "Immortals (100 points)\\n  • 5x Immortal\\n    • 5x Gauss blaster\\n", "x.txt")
>>> p.format, p.declared_points, p.units[0].name, [(i.name, i.count) for i in p.units[0].items]
('gwapp', 100, 'Immortals', [('Immortal', 5), ('Gauss blaster', 5)])
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import attrs

from ...errors import InputError
from . import formats
from . import lines as L
from . import words as W
from .formats import ListFormat, Sign, register
from .values import Item, ParsedList, ParsedUnit

#: how much of a list's text its signs look at
HEAD = 200_000

#: the battle sizes, in the app's languages (compared folded: "Incursión" is "incursion")
_SIZES = ("combat patrol", "incursion", "strike force", "onslaught", "battle size",
          "patrouille", "force de frappe", "assaut", "kampfpatrouille", "einsatzverband",
          "angriffsstreitmacht", "patrulla", "fuerza de ataque", "asalto", "pattuglia",
          "forza d'attacco", "assalto", "patrulha", "forca de ataque")
_REF = re.compile(r"(leading|attached to)\s{1,3}(.{1,200}?)(?:\[(\d{1,4})\])?\s{0,3}$", re.I)
#: the app's version in its footer, any language ("App Version: v2.6.0 (144)", "Version de
#: l'Appli : v2.0.0"): v1.x is the 10th edition's app, v2.x the 11th's
_APP = re.compile(r"\bv(\d{1,3})\.\d{1,3}")
_VERSION_WORDS = ("version", "versión", "versione", "versão")
_APP_EDITION = {"1": "10e", "2": "11e"}
_WO_MODEL = re.compile(r"(\d{1,6})\s{1,3}(\S.{0,200}?)\s{1,3}with\s{1,3}(\S.*)$", re.I)


@attrs.frozen
class TextStyle:
    """What a text format writes that the others do not (the one pass over the lines reads
    these, never a format's name)."""

    #: the title names the detachment last (ListForge's "List - Faction - Detachment")
    title_detachment: bool = False
    #: "Leading X[1]" / "Attached to Y[2]" lines, and a bulleted count at no indent is a model
    #: line ("• 9x Khorne Berzerker"): New Recruit's WTC texts
    wtc_lines: bool = False
    #: "1 Sister Superior with Bolt pistol and Chainsword" model lines (WarOrgan)
    with_models: bool = False
    #: "+ ..." and "& ..." lines are the head (New Recruit)
    plus_head: bool = False
    #: the app's version in its footer says the edition; the detachment is a line of its own
    #: after the faction(s) (the Warhammer 40,000 app)
    app: bool = False


@functools.lru_cache(maxsize=2)
def _plain_head(head: str) -> str:
    return L.plain(head[:HEAD])


def _nr_head(head: str) -> bool:
    return re.search(r"^\+ ?(faction keyword|total army points|detachment)", head,
                     re.M | re.I) is not None


def _signs_gwapp(head: str) -> bool:
    return "app version" in head.lower() or re.search(
        r"^\s{0,8}[•◦]?\s{0,3}(attached as|attach[ée]e? en tant|angeschlossen als|"
        r"angegliedert als|acoplad[oa] como|associat[oa] come|aggregat[oa] come)", head,
        re.M | re.I) is not None or re.search(r"^(export|esport)\S{0,8} \S.{0,60}\bv[12]\.\d",
                                              head, re.M | re.I) is not None


def _signs_wtc(head: str) -> bool:
    return re.search(r"^[A-Za-z]{2,8}\d{1,4}:\s{0,3}\d{1,6}x\s", head, re.M) is not None or (
        _nr_head(head) and re.search(r"^\s{0,8}\d{1,6} with ", head, re.M) is not None)


def _signs_warorgan_layout(head: str) -> bool:
    return re.search(r"^(battle size|detachments):", head, re.M | re.I) is not None or \
        re.search(r"^\s{0,8}•\s{0,3}\d{1,6} \S.{0,200} with ", head, re.M) is not None or \
        re.search(r"\[\d[\d,. ]{0,12} points\]\s*$", head, re.M | re.I) is not None


def _signs_short(head: str) -> bool:
    first = next((ln for ln in head.splitlines() if ln.strip()), "")
    h = L.unit_header(first) if len(first) < L.MAX_LINE else None
    return h is not None and bool(h.rest or h.count) and not h.upgrade


def _signs_listforge_sections(head: str) -> bool:
    return re.search(r"^\S.{0,200}\(\d[\d,. ]{0,12}pts\)\s*$", head, re.M) is not None and \
        re.search(r"^\w[\w ]{0,30}:\s*$", head, re.M) is not None


#: the style of each text format (this module's)
_STYLES: dict[str, TextStyle] = {}


def _on_plain_head(test: Callable[[str], bool], text: str) -> bool:
    return test(_plain_head(text))


def text_format(name: str, style: TextStyle, signs: tuple[tuple[int, Callable[[str], bool]],
                                                         ...], *, listed: int, edition: str,
                reads: str, fallback: bool = False) -> ListFormat:
    """Register a text format: read by :func:`parse_text` in its ``style``; each sign
    ``(order, test)`` is tried on the list's plain head (:func:`~.lines.plain`) in the
    registry's order; ``reads``: what it reads, for the manual."""
    _STYLES[name] = style
    return register(ListFormat(
        name, lambda text, source: parse_text(str(text), source, name),
        signs=tuple(Sign(order, functools.partial(_on_plain_head, t)) for order, t in signs),
        listed=listed, edition=edition, reads=reads, fallback=fallback))


# recognised in the order of the signs (the first that matches): a text no sign claims is the
# app's (the fallback)
_NR_11E = 'New Recruit says 11e by "+ FORCE DISPOSITION:" or several detachments; nothing ' \
    "says 10e"
text_format("gwapp", TextStyle(app=True), ((50, _signs_gwapp),), listed=10, fallback=True,
            edition='the app says it by its version in the footer, "App Version: v1.x" (10e) '
                    'or "v2.x" (11e) in any language, or by lines only 11e has: "(N '
                    'Detachment Points)", "Force Dispositions:", several detachments',
            reads="the Warhammer 40,000 app's text (10th-edition app v1.x, 11th-edition app "
                  'v2.x with its "Attached Units"), its structural lines in any language it '
                  "exports (`Unité 2 Attachée`, `Attachée en tant que : Gardes du Corps`, "
                  "`Optimisation : X`, `(3 Points de Détachement)`, `Dispositions des Forces "
                  ":`; German, Spanish, Italian, Portuguese alike; the unit names stay "
                  "English), also pasted with its blank lines, indentation and brackets lost "
                  "(`Brotherhood Librarian125 Points`)")
text_format("newrecruit-gw", TextStyle(plus_head=True), ((30, _nr_head),), listed=11,
            edition=_NR_11E, reads="New Recruit's GW-style text (`+ FACTION KEYWORD:` head, "
                                   "`X (+15 pts)` enhancements)")
text_format("newrecruit-wtc", TextStyle(wtc_lines=True, plus_head=True),
            ((20, _signs_wtc),), listed=12, edition=_NR_11E,
            reads="New Recruit's WTC and WTC-compact text (`Char1: 1x Unit (80 pts): ...`, "
                  "`5 with ...`, `Leading X[1]` / `Attached to Y[2]`)")
text_format("newrecruit-nr", TextStyle(plus_head=True), (
    (10, lambda h: "++ army roster ++" in h.lower()),), listed=13,
    edition="New Recruit says 11e by several detachments; nothing says 10e",
    reads="New Recruit's default text (`# ++ Army Roster ++`, `Unit [95 pts]: wargear`)")
text_format("newrecruit-short", TextStyle(), ((80, _signs_short),), listed=14,
            edition="New Recruit's short text never says it",
            reads="New Recruit's short text (`Unit (95pts): wargear`, no head)")
text_format("listforge", TextStyle(title_detachment=True), (
    (60, lambda h: re.search(r"^\s{0,8}•?\s{0,3}E: ", h, re.M) is not None
     or "listforge" in h.lower()),
    (90, _signs_listforge_sections)), listed=15, edition="ListForge's text never says it",
    reads="ListForge (`Name - Faction - Detachment (N Points)` title, `Epic Hero:` sections, "
          "`E: X` enhancements, `World Eaters Rhino`: the faction before a datasheet's name)")
text_format("warorgan", TextStyle(with_models=True), (
    (40, lambda h: "created with warorgan" in h.lower() or "warorgan.com" in h.lower()),
    (70, _signs_warorgan_layout)), listed=16,
    edition='WarOrgan says 11e by "Force Disposition:", "(N Detachment Points)" or several '
            "detachments; nothing says 10e",
    reads="WarOrgan's two styles (a bullet tree; flat `• 1 Sister Superior with Bolt pistol "
          "and Chainsword`, `• Palatine blade, Plasma pistol and Sanctified amulet [+25 "
          "points]`)")

#: the text formats (this module's)
FORMATS = tuple(_STYLES)


def detect(text: str) -> str:
    """The format of a list's text, from its content (the registry's recognition:
    :func:`mathhammer.data.army.formats.detect`).

    >>> detect("+ FACTION KEYWORD: Chaos - World Eaters\\nChar1: 1x Angron (415 pts)")
    'newrecruit-wtc'
    >>> detect("Commander Farsight (95pts): Dawn Blade")
    'newrecruit-short'
    """
    return formats.detect(text).name


@attrs.define
class _Unit:
    header: L.Header
    line: int
    items: list[Item] = attrs.field(factory=list)
    enh: list[str] = attrs.field(factory=list)
    enh_pts: list[int | None] = attrs.field(factory=list)
    extras: list[str] = attrs.field(factory=list)
    role: str = ""
    group: int = 0
    refs: list[tuple[str, str, int]] = attrs.field(factory=list)
    model_count: int = 1  # the count of the last explicit model line (for "N with" lines)


@attrs.define
class _State:
    fmt: str
    source: str
    style: TextStyle
    units: list[_Unit] = attrs.field(factory=list)
    head: list[tuple[int, str]] = attrs.field(factory=list)
    factions: list[str] = attrs.field(factory=list)
    declared: int | None = None
    limit: int | None = None
    name: str = ""
    edition: str | None = None
    edition_from: str = ""  # what in the list says its edition
    group: int = 0
    warnings: list[str] = attrs.field(factory=list)
    detachments: list[str] = attrs.field(factory=list)
    bare: list[str] = attrs.field(factory=list)  # head lines that are only a name


def _next_line(lines: list[str], i: int) -> str:
    for ln in lines[i + 1:i + 40]:
        if ln.strip():
            return ln
    return ""


def _starts_unit(st: _State, h: L.Header, raw: str, nxt: str) -> bool:
    """Whether a header line in the head is the first unit (not the title or battle size)."""
    if st.units:
        return True
    if h.count is not None or h.rest or (raw.strip()[:1].isalpha() and raw.strip().split(
            ":", 1)[0][-1:].isdigit() and ":" in raw):
        return True
    if _is_size(h.name):
        return False
    _i, bullet, body = L.strip_bullet(nxt)
    if bullet and body:
        return True
    return bool(L.count_name(body)[0] is not None or W.attached_role(body)
                or L.per_model(body))


def _is_size(name: str) -> bool:
    return W.fold(name).startswith(_SIZES)


def _says(st: _State, edition: str, why: str) -> None:
    """The list says its edition (``why``: the words that say so); a list that says both is
    read as the first and said to be unsure."""
    if st.edition is None:
        st.edition, st.edition_from = edition, why
    elif st.edition != edition and not any("says both" in w for w in st.warnings):
        st.warnings.append(f"{st.source}: the list says both {st.edition} ({st.edition_from}) "
                           f"and {edition} ({why}): read as {st.edition}")


def _detachments(st: _State, value: str, n: int) -> None:
    """A detachment line's detachments; several ("A, B") say the 11th edition (the 10th has
    one)."""
    value = value.strip()
    if not value:
        return
    st.detachments.append(value)
    named = [p for p in re.split(r",", re.sub(r"\([^()]*\)\s*$", "", value)) if p.strip()]
    if len(named) > 1:
        _says(st, "11e", f"line {n}: {len(named)} detachments")


def _head_line(st: _State, n: int, s: str) -> None:
    """A line before the first unit (or between sections): title, faction, points, NR keys."""
    if s.startswith("+"):
        key, _sep, value = s.strip("+ ").partition(":")
        key = key.strip().upper()
        if key == "FACTION KEYWORD" and value.strip():
            st.factions.insert(0, value.strip())
        elif key == "TOTAL ARMY POINTS" and value.strip():
            st.declared = L.number(value.strip().lower().removesuffix("pts").removesuffix(
                "points"), st.source, n)
        elif key == "FORCE DISPOSITION":
            _says(st, "11e", f"line {n}: FORCE DISPOSITION")
        elif key == "DETACHMENT":
            _detachments(st, value, n)
        return
    if s.startswith("&"):
        return
    if W.force_disposition(s) is not None:  # any language: an 11e list's
        _says(st, "11e", f"line {n}: {s.partition(':')[0].strip()}")
        return
    det = W.detachment_line(s)
    if det is not None:  # "A and B (3 Detachment Points)", any language
        _says(st, "11e", f"line {n}: Detachment Points")
        st.detachments.append(det)
        return
    m = L.points_group(s, bare=True)
    if m is not None and not m.group(1):
        name = s[:m.start()].strip(" -–:")
        pts = L.number(m.group(2), st.source, n)
        if name.lower().startswith("#"):
            if st.declared is None and "army roster" in name.lower():
                st.declared = pts
            return
        if _is_size(name) or W.fold(name).startswith("battle size"):
            st.limit = pts
            return
        if st.declared is None and not st.name:
            st.name, st.declared = name, pts
            parts = _parts(name)
            st.factions += parts
            # ListForge: "List name - Faction - Detachment (1995 Points)"
            if st.style.title_detachment and parts:
                whole = [p.strip() for p in re.split(r"\s[-–—|]\s", name) if p.strip()]
                st.detachments.append(whole[-1])
        return
    if s.startswith("#") or W.fold(s).startswith(("battle size", "show/hide")):
        return
    key, sep, value = s.partition(":")
    if sep and key.strip().lower() in ("faction", "army", "faction keyword", "catalogue"):
        st.factions.insert(0, value.strip())
        return
    if sep and key.strip().lower().startswith("detachment"):
        _detachments(st, value, n)
        return
    st.bare.append(s)
    st.factions += [s] + _parts(s)


def _parts(s: str) -> list[str]:
    """A title's parts that may be a faction: ``A - Chaos Daemons - B`` -> each part and each
    pair of neighbours (``Xenos - T'au Empire``)."""
    parts = [p.strip() for p in re.split(r"\s[-–—|]\s", s) if p.strip()]
    if len(parts) < 2:
        return []
    return parts + [f"{a} - {b}" for a, b in zip(parts, parts[1:], strict=False)]


def _add(st: _State, u: _Unit, name: str, count: int, n: int, times: int = 1,
         parent: bool = False) -> None:
    """A wargear name of a line: an enhancement the line names so, a note or an item (a cost
    it ends with, ``[+10 points]``, goes with the item: :mod:`.resolve` reads it against the
    data); ``parent``: the list has lines indented under it."""
    if (e := L.named_enhancement(name, st.source, n)) is not None:
        u.enh.append(e[0])
        u.enh_pts.append(e[1])
    elif L.is_note(name):
        u.extras.append(name)
    else:
        cost = None
        if (p := L.priced(name, st.source, n)) is not None:
            name, cost = p
        u.items.append(Item(name, count, n, times=times, parent=parent, cost=cost))


def _per_model_items(st: _State, u: _Unit, n: int, times: int, rest: str) -> None:
    """``5 with Chainblades, 2x Bolt pistol``: each count times the models."""
    for part in L.split_names(rest):
        c, name = L.count_name(part, st.source, n)
        _add(st, u, name, (c or 1) * times, n, times)


def _unit_line(st: _State, u: _Unit, n: int, raw: str, nxt: str = "") -> None:
    """One line inside a unit (``nxt``: the next line, which may be indented under it)."""
    indent, _bullet, s = L.strip_bullet(raw)
    nested = L.nested_under(raw, nxt)
    if not s:
        return
    role = W.attached_role(s)
    if role is not None:
        u.role = role
        return
    ref = _REF.match(s)
    if ref and st.style.wtc_lines:
        u.refs.append((ref.group(1).lower(), ref.group(2).strip(),
                       int(ref.group(3)) if ref.group(3) else 1))
        return
    e = L.named_enhancement(s, st.source, n)
    if e is not None:
        u.enh.append(e[0])
        u.enh_pts.append(e[1])
        return
    with_ = L.per_model(s)
    if with_ is not None:
        _per_model_items(st, u, n, *with_)
        return
    if st.style.with_models:
        wm = _WO_MODEL.match(s)
        if wm:
            times = L.number(wm.group(1), st.source, n, "count")
            u.items.append(Item(wm.group(2), times, n, model=True))
            _per_model_items(st, u, n, times, wm.group(3))
            return
    if L.is_note(s):
        u.extras.append(s)
        return
    c, body = L.count_name(s, st.source, n)
    if c is not None and st.style.wtc_lines and _bullet and indent == 0 \
            and ":" not in body:
        u.items.append(Item(body, c, n, model=True))  # "• 9x Khorne Berzerker"
        return
    if c is not None and ":" in body:
        model, _sep, rest = body.partition(":")
        u.items.append(Item(model, c, n, model=True))
        u.model_count = c
        with_ = L.per_model(rest)
        if with_ is not None:
            _per_model_items(st, u, n, *with_)
            return
        for part in L.split_names(rest):
            pc, name = L.count_name(part, st.source, n)
            _add(st, u, name, c if pc is None else pc, n)
        return
    parts = L.split_names(s)
    for part in parts:
        pc, name = L.count_name(part, st.source, n)
        _add(st, u, name, 1 if pc is None else pc, n, parent=nested and len(parts) == 1)


def parse_text(text: str, source: str, fmt: str | None = None) -> ParsedList:
    """A text list read in its format (``fmt``: one of :data:`FORMATS`, else the one
    :func:`detect` finds)."""
    L.check_text(text, source)
    text = L.plain(text)
    if fmt is None:
        fmt = detect(text)
    if fmt not in _STYLES:
        raise InputError(f"{source}: --format {fmt}: not a text format (the text formats: "
                         f"{', '.join(FORMATS)})")
    lines = text.split("\n")
    L.check_lines(lines, source)
    st = _State(fmt, source, _STYLES[fmt])
    unit: _Unit | None = None
    for i, raw in enumerate(lines):
        n = i + 1
        s = raw.strip()
        if not s or s == ".":
            continue
        if len(st.units) > L.MAX_ARMY_UNITS:
            raise InputError(f"{source}:{n}: more than {L.MAX_ARMY_UNITS} units in one list "
                             "(mathhammer.limits.MAX_ARMY_UNITS)")
        app = _APP.search(s) if st.style.app else None
        if app is not None and app.group(1) in _APP_EDITION and any(
                w in s.lower() for w in _VERSION_WORDS):
            _says(st, _APP_EDITION[app.group(1)], f"line {n}: app version {app.group(0)}")
        if L.is_footer(s):
            unit = None
            continue
        _indent, bullet, body = L.strip_bullet(raw)
        if s.startswith(("+", "&")) and not bullet and st.style.plus_head:
            _head_line(st, n, s)
            unit = None
            continue
        h = None if bullet or s.startswith("#") else L.unit_header(s, source, n)
        if h is not None and not h.upgrade and (unit is not None or _starts_unit(
                st, h, raw, _next_line(lines, i))):
            unit = _Unit(h, n, group=st.group)
            st.units.append(unit)
            if h.rest:
                _unit_line(st, unit, n, h.rest)
            continue
        heading = not bullet and L.is_heading(s) and not (
            unit is not None and L.count_name(s)[0])
        if not heading and _between_units(st, s, bullet, h, lines, i):
            heading = True
            st.warnings.append(f"{source}:{n}: '{s[:80]}' read as a heading, not wargear (a "
                               "line of its own between units)")
        if heading:
            g = W.attached_heading(s)
            if g:  # "Attached Unit 2", "Unité 2 Attachée": the units of one attached unit
                st.group = g
            elif g is None:  # "ATTACHED UNITS" keeps its groups; any other section ends them
                st.group = 0
            unit = None
            if not st.units and s.startswith("#"):
                _head_line(st, n, s)
            continue
        if unit is None:
            if not st.units or h is None and not bullet:
                _head_line(st, n, s)
            continue
        _unit_line(st, unit, n, raw, lines[i + 1] if i + 1 < len(lines) else "")
    if not st.units:
        raise InputError(f"{source}: no units found (expected lines like 'Unit name "
                         f"(85 points)' followed by its wargear, read as {fmt})")
    return _finish(st)


def _between_units(st: _State, s: str, bullet: bool, h: L.Header | None, lines: list[str],
                   i: int) -> bool:
    """A line that is no wargear by its place: after a unit, not bulleted, no count, no points,
    and the next line starts a unit or a section (``Unité 2 Attachée`` in a language the
    words of :mod:`.lines` miss). A unit's wargear lines are bulleted, counted or indented
    under it in every format."""
    if bullet or h is not None or not st.units or L.count_name(s)[0] is not None or \
            L.per_model(s) or L.lead_count(s) or L.named_enhancement(s) or L.is_note(s) or \
            W.attached_role(s) or _REF.match(s):
        return False
    nxt = _next_line(lines, i)
    if not nxt.strip() or L.strip_bullet(nxt)[1]:
        return False
    return L.unit_header(nxt) is not None or L.is_heading(nxt.strip())


def _finish(st: _State) -> ParsedList:
    units = tuple(ParsedUnit(
        u.header.name, u.line, u.header.points, (), tuple(u.items), tuple(u.enh),
        tuple(u.extras), size=u.header.count, role=u.role, group=u.group,
        enhancement_points=tuple(u.enh_pts)) for u in st.units)
    attached: list[tuple[int, int]] = []
    # the app: Leader(s) and Bodyguard of one "Attached Unit N" group
    groups: dict[int, list[int]] = {}
    for k, u in enumerate(units):
        if u.role and u.group:
            groups.setdefault(u.group, []).append(k)
    if not groups:  # roles without group headings: Leaders, then their Bodyguard
        leaders: list[int] = []
        for k, u in enumerate(units):
            if u.role in ("leader", "support"):
                leaders.append(k)
            elif u.role == "bodyguard":
                attached += [(li, k) for li in leaders]
                leaders = []
            else:
                leaders = []
    for idx in groups.values():
        bodies = [i for i in idx if units[i].role == "bodyguard"]
        for li in (i for i in idx if units[i].role in ("leader", "support")):
            if bodies and (li, bodies[0]) not in attached:
                attached.append((li, bodies[0]))
    # New Recruit WTC: "Leading Eightbound[2]" / "Attached to Slaughterbound[1]"
    def nth(name: str, k: int) -> int | None:
        hits = [i for i, u in enumerate(units) if u.name.lower() == name.lower()]
        return hits[k - 1] if 0 < k <= len(hits) else None
    for k, read in enumerate(st.units):
        for kind, name, number in read.refs:
            other = nth(name, number)
            if other is None:
                st.warnings.append(f"{st.source}:{read.line}: {read.header.name}: "
                                   f"{kind} {name}[{number}]: no such unit in the list")
                continue
            pair = (k, other) if kind == "leading" else (other, k)
            if pair not in attached:
                attached.append(pair)
    # a 10e app list names its detachment on a line of its own, after its faction(s)
    detachments = st.detachments or (st.bare[-1:] if st.style.app and len(st.bare) > 1
                                     else [])
    if not st.detachments and detachments and "," in detachments[0]:
        _says(st, "11e", f"{len(detachments[0].split(','))} detachments")
    return ParsedList(st.fmt, st.source, st.name, tuple(dict.fromkeys(st.factions)),
                      st.edition, st.declared, units, tuple(attached), tuple(st.warnings),
                      st.limit, tuple(dict.fromkeys(detachments)), st.edition_from)
