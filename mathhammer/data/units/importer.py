"""Read a datasheet as copied from a rules website and write a unit file (``units/README.md``).

Why one module: the datasheet-page reader is one line-by-line parser whose states share the
page's context.

The page format is the one of ``shared/seeds``: weapon rows ``| name [abilities] | range | A |
BS | S | AP | D |`` (each printed twice, after a row with empty cells), abilities in brackets or
run into the name, ``CORE:``/``FACTION:`` ability lines, ``UNIT COMPOSITION`` with the points
rows, ``LEADER`` and ``KEYWORDS``. The pages carry no statline: pass one (``"M8 T5 Sv3+ W5
Ld6+ OC1"``) or the file gets ``"?"`` placeholders that must be filled in before it loads.

>>> page = '''Necrons – Example Lord
... RANGED WEAPONS | RANGE | A | BS | S | AP | D | |
... | Staff of light [sustained hits 1] | 18" | 3 | 2+ | 5 | -2 | 1 | |
... UNIT COMPOSITION
... - 1 Example Lord
... | 1 model | 80 |
... KEYWORDS: INFANTRY, CHARACTER'''
>>> text, warnings = import_datasheet(page, statline="M5 T5 Sv2+ W4 Ld6+ OC1 4++")
>>> from mathhammer.data.units.file import loads_unit
>>> unit = loads_unit(text)
>>> unit.describe()
'Example Lord (Necrons): 1 x M5 T5 Sv2+ 4++ W4 Ld6+ OC1'
>>> unit.weapons()[0].weapon.abilities
('sustained hits 1',)
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import tomli_w

from ...errors import InputError
from ...limits import (
    MAX_PAGE_BYTES,
    MAX_PAGE_LINES,
    MAX_TOUGHNESS,
    MAX_WEAPONS,
    check_bytes,
    over,
)
from ...model.abilities import canonical
from .file import PLACEHOLDER, Reader, build_unit
from .unit import canonical_core, show

#: Lines that end the datasheet part of a page (rules text follows).
_PAGE_END = {"STRATAGEMS", "DETACHMENT ABILITY", "DETACHMENT RULE", "DETACHMENT RULES",
             "ENHANCEMENTS"}
#: Section headings inside a datasheet.
_SECTIONS = {"ABILITIES", "WARGEAR OPTIONS", "UNIT COMPOSITION", "LEADER", "WARGEAR ABILITIES",
             "DAMAGED"} | _PAGE_END
_WEAPONS_HEADER = re.compile(r"^(RANGED|MELEE)\s+WEAPONS\b", re.I)
_COMPOSITION = re.compile(r"^[-•*]\s*(\d+)(?:\s*[-–]\s*(\d+))?\s+(.+?)\s*$")
_POINTS = re.compile(r"^\|\s*(\d+)\s+models?\s*\|\s*(\d+)\s*(?:pts)?\s*\|?\s*$", re.I)
_ABILITY_NAME = re.compile(r"(?:^|(?<=[.!?]))\s*([A-Z][^.:!?|]{1,40}?):\s")
_NOT_ABILITIES = ("designer", "example", "note")
_STATLINE_EXAMPLE = '"M8 T5 Sv3+ W5 Ld6+ OC1" (optionally "4++" and "FNP5+")'
_STATS = ("move", "toughness", "save", "wounds", "leadership", "oc")


def parse_statline(text: str) -> dict[str, Any]:
    """Read a statline into unit-file values (X+ values as ``"3+"`` strings).

    >>> parse_statline('M8" T5 Sv3+ W5 Ld6+ OC1 Inv4+')  # doctest: +NORMALIZE_WHITESPACE
    {'move': 8, 'toughness': 5, 'save': '3+', 'wounds': 5, 'leadership': '6+', 'oc': 1,
     'invuln': '4+'}
    >>> parse_statline("M8 T5 Sv3+ W5 OC1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: statline: missing Ld; expected e.g. "M8 T5 Sv3+ W5 Ld6+ OC1" (...
    """
    r = Reader("statline")
    if not isinstance(text, str):
        raise r.bad("", f"a statline such as {_STATLINE_EXAMPLE}", text)
    flat = re.sub(r"(?i)\b(M|T|Sv|W|Ld|OC|Inv|InvSv|FNP)\s*[:=]?\s+(?=\d)", r"\1", text)
    tokens = [t for t in re.split(r"[\s,;]+", flat) if t]
    patterns = [
        ("M", "move", r"m(\d+)(?:\"|”|''|in)?"), ("T", "toughness", r"t(\d+)"),
        ("Sv", "save", r"sv(\d+)\+"), ("W", "wounds", r"w(\d+)"),
        ("Ld", "leadership", r"ld(\d+)\+"), ("OC", "oc", r"oc(\d+)"),
        ("Inv", "invuln", r"(?:inv|invsv|invuln)?(\d+)\+\+|(?:inv|invsv|invuln)(\d+)\+"),
        ("FNP", "fnp", r"fnp(\d+)\+"),
    ]
    found: dict[str, int] = {}
    for tok in tokens:
        for label, key, pat in patterns:
            m = re.fullmatch(pat, tok, re.I)
            if m:
                if key in found:
                    raise r.fail(label, f"given twice in {show(text)}")
                found[key] = int(next(g for g in m.groups() if g is not None))
                break
        else:
            raise r.fail("", f"cannot read {show(tok)}; expected e.g. {_STATLINE_EXAMPLE}")
    for label, key, _ in patterns[:6]:
        if key not in found:
            raise r.fail("", f"missing {label}; expected e.g. {_STATLINE_EXAMPLE}")
    out: dict[str, Any] = {
        "move": r.integer("M", found["move"], 0),
        "toughness": r.integer("T", found["toughness"], 1, MAX_TOUGHNESS, "MAX_TOUGHNESS"),
        "save": f"{r.xplus('Sv', found['save'], 2, 7)}+",
        "wounds": r.integer("W", found["wounds"], 1),
        "leadership": f"{r.xplus('Ld', found['leadership'], 2, 12)}+",
        "oc": r.integer("OC", found["oc"], 0),
    }
    if "invuln" in found:
        out["invuln"] = f"{r.xplus('Inv', found['invuln'], 2, 6)}+"
    if "fnp" in found:
        out["fnp"] = f"{r.xplus('FNP', found['fnp'], 2, 6)}+"
    return out


# ---------------------------------------------------------------------------------------------
# Weapon rows


def _segment(tokens: list[str]) -> list[str] | None:
    """Split words into a sequence of known abilities (``None`` if they are not all abilities)."""
    if not tokens:
        return []
    for size in (3, 2, 1):
        if size > len(tokens):
            continue
        try:
            first = canonical(" ".join(tokens[:size]))
        except ValueError:
            continue
        rest = _segment(tokens[size:])
        if rest is not None and first not in rest:
            return [first, *rest]
    return None


def _is_ability(word: str) -> bool:
    try:
        canonical(word)
    except ValueError:
        return False
    return True


def split_name(cell: str) -> tuple[str, list[str]]:
    """A weapon cell's name and abilities: bracketed, or run into the end of the name.

    >>> split_name("Mechanicus pistol [devastating wounds, pistol]")
    ('Mechanicus pistol', ['devastating wounds', 'pistol'])
    >>> split_name("Spirit syphon ignores cover torrent")
    ('Spirit syphon', ['ignores cover', 'torrent'])
    >>> split_name("Spirit-leech tentacles anti-infantry 2+")
    ('Spirit-leech tentacles', ['anti-infantry 2+'])
    >>> split_name("Bolt pistol pistol")
    ('Bolt pistol', ['pistol'])
    """
    groups = re.findall(r"\[([^\[\]]*)\]", cell)
    if groups:
        name = " ".join(re.sub(r"\[[^\[\]]*\]", " ", cell).split())
        abilities: list[str] = []
        for group in groups:
            for a in group.split(","):
                if a.strip() and canonical(a) not in abilities:
                    abilities.append(canonical(a))
        return name, abilities
    words = cell.split()
    for i in range(1, len(words)):
        found = _segment(words[i:])
        if found:
            return " ".join(words[:i]), found
    return " ".join(words), []


def _weapon(cells: list[str], melee: bool, line: int, warnings: list[str]) -> dict[str, Any]:
    """One weapon row's cells (name, range, A, BS/WS, S, AP, D) as a unit-file weapon table."""
    try:
        name, abilities = split_name(cells[0])
    except ValueError as e:
        raise InputError(f"line {line}: {show(cells[0])}: {e}") from None
    r = Reader(f"line {line} ({name})")
    rng_cell, a_cell, skill_cell, s_cell, ap_cell, d_cell = cells[1:7]
    if rng_cell.strip().lower() == "melee":
        rng: int | str = "melee"
    else:
        m = re.fullmatch(r"\s*(\d+)\s*(?:\"|”|''|in)?\s*", rng_cell)
        if not m or int(m.group(1)) < 1:
            raise r.bad("range", '"Melee" or a range in inches such as 18"', rng_cell)
        rng = int(m.group(1))
    if melee != (rng == "melee"):
        warnings.append(f"line {line}: {name}: range {rng_cell!s} in the "
                        f"{'melee' if melee else 'ranged'} weapons table; kept as printed")
    skill = skill_cell.strip()
    skill = "N/A" if skill.upper() == "N/A" else f"{r.xplus('BS/WS', skill, 2, 6)}+"
    if skill == "N/A" and "torrent" not in abilities:
        raise r.fail("BS/WS", 'N/A is only for [torrent] weapons, got "N/A"')
    ap_text = ap_cell.strip().replace("−", "-").replace("–", "-")
    if not re.fullmatch(r"-?\d+", ap_text) or int(ap_text) > 0 or int(ap_text) < -6:
        raise r.bad("AP", "0 or a negative integer", ap_cell.strip())
    s_text = s_cell.strip()
    if not s_text.isdigit():
        raise r.bad("S", "an integer >= 1", s_text)
    out: dict[str, Any] = {
        "name": name,
        "range": rng,
        "attacks": _dice_value(r.dice("A", a_cell.strip())),
        "skill": skill,
        "strength": r.integer("S", int(s_text), 1),
        "ap": int(ap_text),
        "damage": _dice_value(r.dice("D", d_cell.strip())),
    }
    if abilities:
        out["abilities"] = abilities
        words = name.split()
        if "[" not in cells[0] and (_is_ability(words[-1]) or (
                len(words) == 1 and len(abilities[0].split()) == 1)):
            warnings.append(f"line {line}: read {show(cells[0])} as the weapon {show(name)} "
                            f"with {', '.join(abilities)}; check where the name ends")
    return out


def _dice_value(text: str) -> int | str:
    return int(text) if text.isdigit() else text


def _cells(line: str) -> list[str]:
    cells = [c.strip() for c in line.strip().split("|")]
    if cells and cells[0] == "":
        cells = cells[1:]
    while cells and cells[-1] == "":
        cells.pop()
    return cells


# ---------------------------------------------------------------------------------------------
# The page


def _split_list(text: str) -> list[str]:
    return [t.strip() for t in re.split(r"[,;]", text) if t.strip()]


def _parse_page(text: str, warnings: list[str]) -> dict[str, Any]:
    check_bytes(text, MAX_PAGE_BYTES, "MAX_PAGE_BYTES", "datasheet page")
    lines = text.splitlines()
    if len(lines) > MAX_PAGE_LINES:
        raise over("datasheet page", f"{len(lines)} lines", MAX_PAGE_LINES, "MAX_PAGE_LINES")
    start = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if start is None or not any(_WEAPONS_HEADER.match(ln.strip()) for ln in lines):
        raise InputError("no datasheet found: expected a RANGED WEAPONS or MELEE WEAPONS table")
    end = next((i for i, ln in enumerate(lines) if i > start and ln.strip().upper() in _PAGE_END),
               len(lines))
    page: dict[str, Any] = {"weapons": [], "core": [], "faction": [], "datasheet": [],
                            "groups": [], "points": [], "keywords": [], "faction_keywords": [],
                            "leads": None, "wargear": [], "name": None, "faction_name": None}
    title = lines[start].strip()
    if not _WEAPONS_HEADER.match(title):
        parts = re.split(r"(?<!\s)\s+[–—-]\s+", title, maxsplit=1)
        if len(parts) == 2:
            page["faction_name"], page["name"] = parts[0].strip(), parts[1].strip()
        else:
            page["name"] = title
    melee: bool | None = None
    section = None
    seen: dict[tuple, int] = {}
    names: set[tuple] = set()
    for i in range(start, end):
        line = lines[i].strip()
        n = i + 1
        upper = line.upper()
        if m := _WEAPONS_HEADER.match(line):
            melee, section = m.group(1).upper() == "MELEE", "weapons"
            continue
        if line.startswith("|"):
            if section == "weapons":
                cells = _cells(line)
                if len(cells) <= 1:
                    continue  # the row with empty cells before each weapon row
                if len(cells) != 7:
                    warnings.append(f"line {n}: skipped a weapon row with {len(cells)} cells "
                                    f"(expected 7: name, range, A, BS/WS, S, AP, D)")
                    continue
                w = _weapon(cells, bool(melee), n, warnings)
                key = (w["name"].lower(), w["range"] == "melee")
                same = (key, tuple(str(v) for v in w.values()))
                if same in seen:
                    continue  # the page prints every row twice
                if key in names:
                    warnings.append(f"line {n}: {w['name']} has two different profiles; "
                                    f"both kept, check which is right")
                seen[same] = n
                names.add(key)
                page["weapons"].append(w)
                if len(page["weapons"]) > MAX_WEAPONS:
                    raise over(f"line {n}: weapons", f"more than {MAX_WEAPONS}", MAX_WEAPONS,
                               "MAX_WEAPONS")
            elif m := _POINTS.match(line):
                page["points"].append((int(m.group(1)), int(m.group(2)), n))
            continue
        if upper in _SECTIONS:
            section = upper
            continue
        if upper.startswith("CORE:"):
            for a in _split_list(line[5:]):
                try:
                    core = canonical_core(a)
                except ValueError as e:
                    raise InputError(f"line {n}: CORE: {e}") from None
                if core not in page["core"]:
                    page["core"].append(core)
            section = "ABILITIES"
            continue
        if upper.startswith("FACTION KEYWORDS:"):
            page["faction_keywords"] += _split_list(line[len("FACTION KEYWORDS:"):])
            section = "FACTION KEYWORDS"
            continue
        if upper.startswith("FACTION:"):
            page["faction"] += [a for a in _split_list(line[8:]) if a not in page["faction"]]
            section = "ABILITIES"
            continue
        if upper.startswith("KEYWORDS:"):
            page["keywords"] += [k.upper() for k in _split_list(line[9:])]
            section = "KEYWORDS"
            continue
        if section == "FACTION KEYWORDS" and line and line == upper:
            page["faction_keywords"] += _split_list(line)
        elif section == "ABILITIES":
            for m in _ABILITY_NAME.finditer(line):
                name = m.group(1).strip()
                if (not name.lower().startswith(_NOT_ABILITIES) and len(name.split()) <= 6
                        and name not in page["datasheet"]):
                    page["datasheet"].append(name)
        elif section == "WARGEAR OPTIONS" and line.startswith(("-", "•", "*")):
            page["wargear"].append(line.lstrip("-•* "))
        elif section == "UNIT COMPOSITION" and (m := _COMPOSITION.match(line)):
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            page["groups"].append((m.group(3), lo, hi, n))
        elif section == "LEADER":
            if page["leads"] is None:
                page["leads"] = []
            if line.startswith(("-", "•", "*")):
                page["leads"] += _split_list(line.lstrip("-•* "))
            elif "following units:" in line:
                page["leads"] += _split_list(line.split("following units:", 1)[1])
        if section == "weapons" and line:
            section = None
    return page


def _optional_weapons(wargear: list[str], names: list[str]) -> set[str]:
    """Weapons that a wargear option adds or swaps in (``... equipped with 1 spirit vortex``)."""
    out = set()
    for option in wargear:
        low = option.lower()
        m = re.search(r"(?:equipped with|replaced with|replaced by|exchanged for)(.*)$", low)
        if m:
            out |= {n for n in names if n.lower() in m.group(1)}
    return out


def _unit_dict(page: dict[str, Any], statline: dict[str, Any] | None,
               warnings: list[str]) -> dict[str, Any]:
    groups = page["groups"]
    name = page["name"] or (groups[0][0] if groups else None)
    if not name:
        warnings.append("no unit name on the page; the name is a placeholder")
    if not page["faction_name"]:
        warnings.append("no faction in the page title (\"Faction – Unit\"); the faction is a "
                        "placeholder")
    if not groups:
        warnings.append("no UNIT COMPOSITION lines (\"- 1-2 Cronos\"); the model count is a "
                        "placeholder")
        groups = [(name or PLACEHOLDER, PLACEHOLDER, PLACEHOLDER, 0)]
    if len(groups) > 1:
        warnings.append("every weapon is put on the first model group "
                        f"({groups[0][0]}); move each to the group that carries it")
    stats = statline or dict.fromkeys(_STATS, PLACEHOLDER)
    optional = _optional_weapons(page["wargear"], [w["name"] for w in page["weapons"]])
    weapons = [dict(w, optional=True) if w["name"] in optional else w for w in page["weapons"]]
    models = []
    for k, (gname, lo, hi, _) in enumerate(groups):
        count: Any = lo if lo == hi else [lo, hi]
        group: dict[str, Any] = {"name": gname, "count": count, **stats}
        if k == 0 and weapons:
            group["weapons"] = weapons
        models.append(group)
    if not page["weapons"]:
        warnings.append("no weapon rows on the page")
    out: dict[str, Any] = {
        "name": name or PLACEHOLDER,
        "faction": page["faction_name"] or PLACEHOLDER,
        "keywords": list(dict.fromkeys(page["keywords"])),
        "faction_keywords": list(dict.fromkeys(k.upper() for k in page["faction_keywords"])),
    }
    if not out["keywords"]:
        warnings.append("no KEYWORDS line on the page")
    if not out["faction_keywords"]:
        warnings.append("no faction keywords on the page (FACTION KEYWORDS is empty)")
    if "Leader" in page["core"]:
        out["leads"] = page["leads"] or []
        if not out["leads"]:
            warnings.append("Leader: the page lists no units this model can be attached to; "
                            "fill in leads")
    out["source"] = "imported from datasheet text" + (
        "; statline given" if statline else "; statline placeholders")
    total = (sum(g[1] for g in groups if g[1] != PLACEHOLDER),
             sum(g[2] for g in groups if g[2] != PLACEHOLDER))
    points: list[dict[str, int]] = []
    for n_models, cost, line in page["points"]:
        known = [p["cost"] for p in points if p["models"] == n_models]
        if known:
            if known[0] != cost:
                warnings.append(f"line {line}: a second cost for {n_models} models ({cost}); "
                                f"kept {known[0]}")
            continue
        if page["groups"] and not total[0] <= n_models <= total[1]:
            warnings.append(f"line {line}: points for {n_models} models, but the unit has "
                            f"{total[0]}-{total[1]}; skipped")
            continue
        points.append({"models": n_models, "cost": cost})
    if not points:
        warnings.append("no points rows (\"| 1 model | 70 |\") on the page")
    out["points"] = points
    abilities = {key: page[key] for key in ("core", "faction", "datasheet") if page[key]}
    if abilities:
        out["abilities"] = abilities
    out["models"] = models
    return out


def _without_placeholders(raw: Any) -> Any:
    """A copy with every placeholder replaced by a valid stand-in, to check the rest."""
    stand_in = {"count": 1, "move": 1, "toughness": 1, "save": "2+", "wounds": 1,
                "leadership": "2+", "oc": 1, "name": "x", "faction": "x"}
    if isinstance(raw, dict):
        return {k: (stand_in.get(k, 1) if v == PLACEHOLDER else _without_placeholders(v))
                for k, v in raw.items()}
    if isinstance(raw, list):
        return [_without_placeholders(v) for v in raw]
    return raw


def import_datasheet(text: str, statline: str | None = None) -> tuple[str, list[str]]:
    """The unit file (TOML text) for a datasheet page, and warnings about what to check.

    ``statline`` (``"M8 T5 Sv3+ W5 Ld6+ OC1"``, optionally ``4++`` and ``FNP5+``) fills in the
    characteristics the pages do not carry; without it they are ``"?"`` placeholders.
    Bad input is a one-line ValueError naming the page line.
    """
    _, toml_text, warnings = _import(text, statline)
    return toml_text, warnings


def _import(text: str, statline: str | None) -> tuple[dict[str, Any], str, list[str]]:
    if not isinstance(text, str):
        raise InputError(f"datasheet: expected the page text, got {type(text).__name__}")
    warnings: list[str] = []
    stats = parse_statline(statline) if statline is not None else None
    page = _parse_page(text, warnings)
    raw = _unit_dict(page, stats, warnings)
    if stats is None:
        warnings.insert(0, 'no statline given: M, T, Sv, W, Ld and OC are "?" placeholders; '
                           "fill them in (and add an invulnerable save if the datasheet has one) "
                           f"or pass a statline such as {_STATLINE_EXAMPLE}")
    build_unit(_without_placeholders(raw), "imported datasheet")
    head = ["# Imported by mathhammer from datasheet text; see units/README.md for the schema."]
    if stats is None:
        head.append('# PLACEHOLDERS: the page has no statline. Replace every "?" with the value '
                    "from the datasheet;")
        head.append("# the file does not load until then.")
    else:
        head.append(f"# Statline given: {(statline or '').strip()}")  # given: stats is not None
    head += [f"# Check: {w}" for w in warnings]
    return raw, "\n".join(head) + "\n" + tomli_w.dumps(raw), warnings


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"


def save_unit_file(toml_text: str, path: str | os.PathLike, unit_name: str, force: bool
                   ) -> Path:
    """Write a unit file to ``path`` (a folder: named after the unit); an existing file is only
    overwritten with ``force``; on any error nothing is written."""
    target = Path(path)
    if target.is_dir():
        target = target / f"{_slug(unit_name)}.toml"
    if target.exists() and not force:
        raise InputError(f"{target}: already exists; overwrite it with force")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(toml_text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"{target}: cannot write: {e}") from None
    return target


def write_unit(text: str, path: str | Path, statline: str | None = None,
               force: bool = False) -> tuple[Path, list[str]]:
    """Import a datasheet page and write the unit file; returns ``(path written, warnings)``.

    ``path`` may be a folder (the file is then named after the unit). An existing file is
    only overwritten with ``force``; on any error nothing is written.
    """
    raw, toml_text, warnings = _import(text, statline)
    return save_unit_file(toml_text, path, raw["name"], force), warnings
