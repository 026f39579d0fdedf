"""New Recruit's WTC-style text: a ``+ FACTION KEYWORD:`` header, then units as
``Char1: 1x Name (80 pts): wargear, ...`` with model lines ``• 2x Model: 2 with a, b``.

>>> p = parse_wtc_text("+ FACTION KEYWORD: Xenos - Necrons\\n+ TOTAL ARMY POINTS: 100pts\\n\\n"
...     "5x Immortals (100 pts)\\n• 5x Immortal: 5 with Gauss blaster\\n", "x.txt")
>>> p.factions, p.units[0].size, [(i.name, i.count) for i in p.units[0].models[0].items]
(('Xenos - Necrons',), 5, [('Gauss blaster', 5)])
"""

from __future__ import annotations

import re

import attrs

from ...errors import InputError
from .model import Item, ParsedList, ParsedModel, ParsedUnit
from .text import BULLETS, read_header, split_items

_UNIT = re.compile(r"^(?:(?P<tag>[A-Za-z]+\d+):\s*)?(?P<n>\d+)x\s+(?P<name>.+?)\s*"
                   r"\((?P<pts>\d[\d,]*)\s*pts\)\s*(?::\s*(?P<rest>.*))?$", re.I)
_WITH = re.compile(r"^(?P<n>\d+)\s+with\s+(?P<rest>.+)$", re.I)
_ENH = re.compile(r"^Enhancement:\s*(?P<name>.+?)\s*(?:\(\+\s*\d+\s*pts\))?\s*$", re.I)
_MODEL = re.compile(r"^(?P<n>\d+)x\s+(?P<name>[^:]+?)\s*(?::\s*(?P<rest>.*))?$", re.I)


def is_wtc(text: str) -> bool:
    return bool(re.search(r"^(?:[A-Za-z]+\d+:\s*)?\d+x\s+.+\(\d[\d,]*\s*pts\)", text, re.M)) \
        and "FACTION KEYWORD" in text


def _items(rest: str, line: int) -> list[Item]:
    m = _WITH.match(rest.strip())
    if m:
        return split_items(m.group("rest"), line, int(m.group("n")))
    return split_items(rest, line)


def parse_wtc_text(text: str, source: str) -> ParsedList:
    """Read a WTC-style New Recruit export."""
    factions: list[str] = []
    declared = None
    units: list[dict] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("&"):
            continue
        if line.startswith("+"):
            declared = read_header(line, factions, declared)
            continue
        m = _UNIT.match(line)
        if m and not raw.startswith((" ", *BULLETS)):
            units.append({"name": m.group("name"), "line": number, "size": int(m.group("n")),
                          "points": int(m.group("pts").replace(",", "")), "models": [],
                          "items": _items(m.group("rest") or "", number), "enh": [],
                          "extras": []})
            continue
        if not units or (line.isupper() and not re.search(r"\d", line)):
            continue  # before the first unit, or a section heading (CHARACTER, BATTLELINE)
        u = units[-1]
        if e := _ENH.match(line):
            u["enh"].append(e.group("name"))
            continue
        bullet = line[:1] in BULLETS and line[1:2] == " "
        body = line[1:].strip() if bullet else line
        if body.lower() in ("warlord", "epic hero"):
            u["extras"].append(body)
            continue
        indent = len(raw) - len(raw.lstrip())
        mm = _MODEL.match(body)
        if bullet and indent == 0 and mm:
            u["models"].append({"name": mm.group("name").strip(), "count": int(mm.group("n")),
                                "line": number, "items": _items(mm.group("rest") or "", number)})
            continue
        target = u["models"][-1]["items"] if u["models"] else u["items"]
        target += _items(body, number)
    if not units:
        raise InputError(f"{source}: no units found (expected WTC lines like "
                         f"'Char1: 1x Unit name (80 pts): wargear')")
    parsed = tuple(
        ParsedUnit(u["name"], u["line"], u["points"],
                   tuple(ParsedModel(m["name"], m["count"], m["line"], tuple(m["items"]))
                         for m in u["models"]),
                   tuple(u["items"]), tuple(u["enh"]), tuple(u["extras"]), size=u["size"])
        for u in units)
    return attrs.evolve(ParsedList("newrecruit-wtc", source), factions=tuple(factions),
                        declared_points=declared, units=parsed)
