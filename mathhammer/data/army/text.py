"""Text exports: the Warhammer 40,000 app (10e app v1.x, 11e app v2.x) and New Recruit's
GW-style text, both bullet trees; New Recruit's WTC style is :mod:`.wtc`.

>>> p = parse_app_text("My list (100 points)\\n\\nNecrons\\nIncursion (1000 points)\\n\\n"
...     "Immortals (100 points)\\n  • 5x Immortal\\n    • 5x Gauss blaster\\n", "x.txt")
>>> p.declared_points, p.units[0].name, p.units[0].models[0].items[0].count
(100, 'Immortals', 5)
"""

from __future__ import annotations

import re

import attrs

from ...errors import InputError
from .model import Item, ParsedList, ParsedModel, ParsedUnit

BULLETS = "•◦▪●○■-*"
_HEADER = re.compile(r"^(?P<name>.+?)\s*\((?P<pts>\d[\d,.]*)\s*(?:points|pts|pt)\)\s*$", re.I)
_SIZES = ("combat patrol", "incursion", "strike force", "onslaught")
_COUNT = re.compile(r"^(?P<n>\d+)\s*x\s+(?P<name>.+)$", re.I)
_PLUS_PTS = re.compile(r"\s*\(\+\s*\d+\s*(?:pts|points)\)\s*$", re.I)
_APP = re.compile(r"App Version:\s*v?(\d+)", re.I)


def read_header(line: str, factions: list[str], declared: int | None) -> int | None:
    """A New Recruit ``+ KEY: value`` header line: a ``FACTION KEYWORD`` is added to
    ``factions``; returns the declared points (``TOTAL ARMY POINTS``, else ``declared``).

    >>> read_header("+ TOTAL ARMY POINTS: 1,990pts", [], None)
    1990
    """
    key, _, value = line.strip("+ ").partition(":")
    key = key.strip().upper()
    if key == "FACTION KEYWORD":
        factions.append(value.strip())
    elif key == "TOTAL ARMY POINTS":
        digits = re.sub(r"\D", "", value)
        return int(digits) if digits else None
    return declared


def points_of(text: str) -> int:
    """``"1,990"`` -> 1990."""
    return int(re.sub(r"[,.\s]", "", text))


@attrs.frozen
class _Node:
    text: str
    line: int
    col: int
    bullet: bool
    children: list = attrs.field(factory=list)


def _tree(lines: list[tuple[int, str]]) -> list[_Node]:
    """Lines (number, text) -> a forest by text column (the column after a bullet)."""
    roots: list[_Node] = []
    stack: list[_Node] = []
    for number, raw in lines:
        raw = raw.replace("\t", "    ")
        indent = len(raw) - len(raw.lstrip(" "))
        rest = raw.strip()
        bullet = rest[:1] in BULLETS and (len(rest) == 1 or rest[1] == " ")
        if bullet:
            rest = rest[1:].lstrip()
            col = indent + 2
        else:
            col = indent
        node = _Node(rest, number, col, bullet)
        while stack and stack[-1].col >= col:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)
    return roots


def split_items(text: str, line: int, times: int = 1) -> list[Item]:
    """``"2x Gun Drone, Shield Drone"`` -> items (each count multiplied by ``times``)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        m = _COUNT.match(part)
        if m:
            out.append(Item(m.group("name").strip(), int(m.group("n")) * times, line))
        else:
            out.append(Item(part, times, line))
    return out


def _enhancement(text: str) -> str | None:
    t = text.strip()
    if t.lower().startswith("enhancement:"):
        t = t.split(":", 1)[1].strip()
        return re.sub(r"\s*\((?:upgrade|\+\s*\d+\s*(?:pts|points))\)\s*$", "", t, flags=re.I)
    if _PLUS_PTS.search(t):
        return _PLUS_PTS.sub("", t)
    return None


_NOTES = {"warlord", "epic hero"}


def _unit(node: _Node) -> ParsedUnit:
    m = _HEADER.match(node.text)
    assert m is not None
    models: list[ParsedModel] = []
    items: list[Item] = []
    enh: list[str] = []
    extras: list[str] = []
    role = ""
    todo = list(node.children)
    while todo:
        child = todo.pop(0)
        low = child.text.lower()
        if low.startswith("attached as:"):
            role = "leader" if "leader" in low or "support" in low else "bodyguard"
            todo = list(child.children) + todo
            continue
        e = _enhancement(child.text)
        if e is not None:
            enh.append(e)
            continue
        if low in _NOTES:
            extras.append(child.text)
            continue
        if child.children:
            cm = _COUNT.match(child.text)
            count, name = (int(cm.group("n")), cm.group("name")) if cm else (1, child.text)
            sub: list[Item] = []
            for g in child.children:
                sub += _items_below(g, enh, extras)
            models.append(ParsedModel(name.strip(), count, child.line, tuple(sub)))
        else:
            items += split_items(child.text, child.line)
    return ParsedUnit(m.group("name").strip(), node.line, points_of(m.group("pts")),
                      tuple(models), tuple(items), tuple(enh), tuple(extras), role=role)


def _items_below(node: _Node, enh: list[str], extras: list[str]) -> list[Item]:
    e = _enhancement(node.text)
    if e is not None:
        enh.append(e)
        return []
    if node.text.lower() in _NOTES:
        extras.append(node.text)
        return []
    out = split_items(node.text, node.line)
    for c in node.children:
        out += _items_below(c, enh, extras)
    return out


def parse_app_text(text: str, source: str) -> ParsedList:
    """The Warhammer 40,000 app's export (and New Recruit's GW-style text)."""
    lines = text.splitlines()
    numbered = [(i + 1, ln.rstrip()) for i, ln in enumerate(lines)]
    body = [(n, ln) for n, ln in numbered if ln.strip() and ln.strip() != "."]
    if not body:
        raise InputError(f"{source}: empty army list")
    name, declared, factions, edition = "", None, [], None
    nr = body[0][1].startswith("+")
    if nr:
        for _n, ln in body:
            if ln.startswith("+"):
                declared = read_header(ln, factions, declared)
        body = [(n, ln) for n, ln in body if not ln.startswith(("+", "&"))]
        fmt = "newrecruit-gw"
    else:
        fmt = "gwapp"
        m = _HEADER.match(body[0][1].strip())
        if m is not None:
            name, declared = m.group("name"), points_of(m.group("pts"))
            body = body[1:]
        for _n, ln in body:
            s = ln.strip()
            if any(s.lower().startswith(z + " (") for z in _SIZES):
                break
            factions.append(s)
        else:
            factions = []
    app = _APP.search(text)
    if app:
        edition = "10e" if app.group(1) == "1" else "11e"
    units: list[ParsedUnit] = []
    groups: dict[int, list[int]] = {}
    group = 0
    nodes = _tree(body)
    started = nr  # past the list's head (title, factions, battle size)?
    for node in nodes:
        low = node.text.lower()
        if re.fullmatch(r"attached unit \d+", low):
            group = int(low.split()[-1])
            continue
        if any(low.startswith(z + " (") for z in _SIZES) or (
                node.text.isupper() and not re.search(r"\d", node.text)):
            started = True  # the battle size, or a heading (CHARACTERS, BATTLELINE...)
            continue
        if node.col == 0 and not node.bullet and _HEADER.match(node.text) and (
                started or node.children):
            u = _unit(node)
            if u.role:
                u = attrs.evolve(u, group=group)
                groups.setdefault(group, []).append(len(units))
            else:
                group = 0
            units.append(u)
    if not units:
        raise InputError(f"{source}: no units found (expected lines like "
                         f"'Unit name (85 points)' followed by its wargear)")
    attached = []
    for idx in groups.values():
        leaders = [i for i in idx if units[i].role == "leader"]
        bodyguards = [i for i in idx if units[i].role == "bodyguard"]
        for li in leaders:
            if bodyguards:
                attached.append((li, bodyguards[0]))
    return ParsedList(fmt, source, name, tuple(factions), edition, declared, tuple(units),
                      tuple(attached))
