"""Inline profiles for a quick question without unit files.

Why one module: weapon rows and target profiles share one tokenizer and one set of error
messages.

A weapon row as printed on a datasheet, with ``Nx`` in front for the models carrying it
(name and range are optional, abilities follow D, in brackets after the name or both)::

    10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1
    5x Bolt rifle [heavy] | 24" | 2 | 3+ | 4 | -1 | 1
    Multi-melta | 18" | 2 | 4+ | 9 | -4 | D6 | melta 2

A target as a list of tokens: ``Nx`` models, ``T``, ``Sv``, ``W``, an invulnerable save
``4++`` (or ``Inv4+``), Feel No Pain ``FNP5+`` (or ``5+++``), ``Stealth``, and keywords
(``M``, ``Ld`` and ``OC`` may be pasted and are ignored)::

    5x T4 Sv3+ W2 4++ FNP5+ INFANTRY

Every error is a one-line ``ValueError`` naming the bad token.

>>> w, n = parse_weapon("10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1")
>>> n, w.attacks, w.skill, w.strength, w.ap, w.damage, w.abilities
(10, '2', 3, 4, -1, '1', ('sustained hits 1',))
>>> t = parse_target("5x T4 Sv3+ W2 4++ FNP5+ INFANTRY")
>>> t.models, t.toughness, t.save, t.wounds, t.invuln, t.fnp, t.keywords
(5, 4, 3, 2, 4, 5, ('INFANTRY',))
>>> parse_weapon("2 | 3 | 4 | -1 | 1")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: weapon "2 | 3 | 4 | -1 | 1": BS/WS "3" (column 2): expected 2+ to ...
"""

from __future__ import annotations

import re

from ...errors import InputError
from ...limits import (
    MAX_MODELS,
    MAX_RANGE,
    MAX_STRENGTH,
    MAX_TOUGHNESS,
    MAX_WOUNDS,
    over,
    shorten,
)
from ...model.abilities import canonical
from ...model.profiles import TARGET_ABILITIES, Target, Weapon
from ...model.squad import Squad
from ...model.squad import describe_target as describe_target  # its place: beside Squad
from ...prob.dice import ACCEPTED, format_dice

_COUNT = re.compile(r"^\s*(\d+)\s*[x×]\s*(?=\S)", re.I)
_SKILL = re.compile(r"^(?:([2-6])\s*\+|N/?A|-|–)$", re.I)
_RANGE = re.compile(r"^(?:(\d+)\s*(?:\"|”|''|in)?|melee)$", re.I)
#: A cell that is meant as a range but is not one (``-5"``, ``12-24"``, ``∞"``).
_LOOKS_LIKE_RANGE = re.compile(r"^(?:.*(?:\"|”|''|\d\s*in)|[\d\s.,+\-–/∞]+)$", re.I)
_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_MINUS = str.maketrans({"−": "-", "–": "-", "—": "-"})


def is_inline_weapon(text: str) -> bool:
    """Whether ``text`` is meant as a weapon row (it has ``|`` columns).

    >>> is_inline_weapon("2 | 3+ | 4 | 0 | 1"), is_inline_weapon("Hexmark Destroyer")
    (True, False)
    """
    return "|" in text


def _fail(text: str, message: str) -> ValueError:
    return InputError(f'weapon "{shorten(text.strip(), 80)}": {message}')


def _int(digits: str, limit: int) -> int:
    """``digits`` as an int, or ``limit + 1`` when longer than any value under the limit (a
    thousand-digit number is not converted)."""
    digits = digits.lstrip("0") or "0"
    return limit + 1 if len(digits) > len(str(limit)) else int(digits)


def _split_abilities(text: str) -> list[str]:
    return [a.strip() for a in re.split(r"[,;]", text) if a.strip()]


def parse_weapon(text: str, *, melee: bool = False) -> tuple[Weapon, int]:
    """One weapon row: ``(Weapon, models carrying it)``; the count defaults to 1.

    Without a range column the weapon is a 24" ranged weapon, or a melee weapon if ``melee``.

    >>> w, n = parse_weapon('3x Mechanicus pistol [devastating wounds, pistol] | 12" | 1 | 3+ '
    ...                     '| 6 | -1 | 1')
    >>> n, w.name, w.range, w.abilities
    (3, 'Mechanicus pistol', 12, ('devastating wounds', 'pistol'))
    >>> parse_weapon("Claws | Melee | 4 | 3+ | 5 | -1 | 1")[0].melee
    True
    >>> parse_weapon("2 | 3+ | 4 | -1 | 1 | fast")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: weapon "2 | 3+ | 4 | -1 | 1 | fast": ability "fast" (column 6)...
    """
    cells = [c.strip().translate(_MINUS) for c in text.split("|")]
    # Datasheet rows start and end with a bar: drop the empty outer cells.
    while cells and not cells[0]:
        cells.pop(0)
    while cells and not cells[-1]:
        cells.pop()
    count = 1
    if cells and (m := _COUNT.match(cells[0])):
        count = _int(m.group(1), MAX_MODELS)
        cells[0] = cells[0][m.end():].strip()
        if count < 1:
            raise _fail(text, f'models "{m.group(0).strip()}": expected at least 1x')
        if count > MAX_MODELS:
            raise _fail(text, str(over("models", shorten(m.group(0).strip()), MAX_MODELS,
                                       "MAX_MODELS")))
        if not cells[0]:
            cells.pop(0)
    if len(cells) < 5:
        raise _fail(text, f"expected the columns A | BS/WS | S | AP | D (then abilities), "
                          f"got {len(cells)} column{'s' * (len(cells) != 1)}")
    skill_at = next((i for i, c in enumerate(cells) if _SKILL.match(c)), None)
    if skill_at is not None and skill_at > 3:
        raise _fail(text, f'"{cells[2]}" (column 3): expected at most a name and a range '
                          "before A")
    if skill_at is None or skill_at == 0:
        skill_at = _guess_skill_column(cells)
        raise _fail(text, f'BS/WS "{cells[skill_at]}" (column {skill_at + 1}): '
                          "expected 2+ to 6+ or N/A")
    if len(cells) < skill_at + 4:
        raise _fail(text, f"expected S | AP | D after BS/WS (column {skill_at + 1})")
    prefix = cells[:skill_at - 1]
    name, rng, abilities = "", None, []
    if len(prefix) == 2:
        name, rng = prefix
    elif len(prefix) == 1:
        if _RANGE.match(prefix[0]) or _LOOKS_LIKE_RANGE.match(prefix[0]):
            rng = prefix[0]
        else:
            name = prefix[0]
    if rng is not None and not _RANGE.match(rng):
        raise _fail(text, f'range "{shorten(rng)}" (column {len(prefix)}): expected "melee" or '
                          'inches like 24"')
    for m in _BRACKETS.finditer(name):
        abilities += [(a, 1) for a in _split_abilities(m.group(1))]
    name = _BRACKETS.sub("", name).strip()
    if "[" in name or "]" in name:
        raise _fail(text, f'name "{shorten(name)}" (column 1): a "[" without its "]" (abilities '
                          'go in brackets, e.g. Bolter [lethal hits])')
    def cell(offset: int) -> tuple[str, int]:
        return cells[skill_at + offset], skill_at + offset + 1

    a_text, a_col = cell(-1)
    s_text, s_col = cell(0)
    st_text, st_col = cell(1)
    ap_text, ap_col = cell(2)
    d_text, d_col = cell(3)
    for i in range(skill_at + 4, len(cells)):
        abilities += [(a, i + 1) for a in _split_abilities(cells[i])]

    def dice_of(what: str, value: str, col: int) -> str:
        try:
            out = format_dice(value)
        except ValueError as e:
            why = (str(e).split(": ", 1)[-1] if "over the limit" in str(e)
                   else f"expected {ACCEPTED}")
            raise _fail(text, f'{what} "{shorten(value)}" (column {col}): {why}') from None
        if out == "0":
            raise _fail(text, f'{what} "{value}" (column {col}): expected at least 1')
        return out

    attacks = dice_of("A", a_text, a_col)
    sm = _SKILL.match(s_text)
    skill = int(sm.group(1)) if sm and sm.group(1) else None
    if not re.fullmatch(r"\d+", st_text) or not 1 <= _int(st_text, MAX_STRENGTH) <= MAX_STRENGTH:
        raise _fail(text, f'S "{shorten(st_text)}" (column {st_col}): expected an integer from 1 '
                          f"to {MAX_STRENGTH}")
    ap_ok = re.fullmatch(r"[-+]?\s*\d{1,3}", ap_text)
    if not ap_ok or not -6 <= int(ap_text.replace(" ", "")) <= 0:
        raise _fail(text, f'AP "{shorten(ap_text)}" (column {ap_col}): expected 0 or -1 to -6')
    damage = dice_of("D", d_text, d_col)
    canon = []
    for a, col in abilities:
        try:
            canon.append(canonical(a))
        except ValueError as e:
            why = re.sub(r"^(unknown|bad) ability '.*?'[;:]?\s*", "", str(e))
            kind = "unknown ability; " if str(e).startswith("unknown") else ""
            raise _fail(text, f'ability "{a}" (column {col}): {kind}{why}') from None
    if skill is None and "torrent" not in canon:
        raise _fail(text, f'BS/WS "{s_text}" (column {s_col}): N/A is only for torrent weapons')
    if rng is None:
        rng_value: int | str = "melee" if melee else 24
    elif rng.lower() == "melee":
        rng_value = "melee"
    else:
        digits = re.match(r"\d+", rng)
        assert digits is not None  # _RANGE matched it above: "melee" or inches
        rng_value = _int(digits.group(0), MAX_RANGE)
        if not 1 <= rng_value <= MAX_RANGE:
            raise _fail(text, f'range "{shorten(rng)}": expected "melee" or inches from 1 to '
                              f"{MAX_RANGE}")
    if not name:
        def stat(letter: str, value: str) -> str:  # "A2", but "A:D6" for dice
            return f"{letter}{value}" if value.isdigit() else f"{letter}:{value}"

        name = " ".join([stat("A", attacks), s_text.upper(), f"S{st_text}",
                         f"AP{int(ap_text.replace(' ', ''))}", stat("D", damage)])
    weapon = Weapon(name, attacks=attacks, skill=skill, strength=int(st_text),
                    ap=int(ap_text.replace(" ", "")), damage=damage, abilities=canon,
                    range=rng_value)
    return weapon, count


def _guess_skill_column(cells: list[str]) -> int:
    """Where BS/WS should be when no cell looks like it (for the error message)."""
    if format_ok(cells[0]):
        return 1
    return 3 if len(cells) > 1 and _RANGE.match(cells[1]) else 2


def format_ok(text: str) -> bool:
    """Whether ``text`` is a dice expression.

    >>> format_ok("D6+1"), format_ok("Bolt rifle")
    (True, False)
    """
    try:
        format_dice(text)
    except ValueError:
        return False
    return True


def parse_weapons(text: str, *, melee: bool = False) -> list[tuple[Weapon, int]]:
    """Several weapon rows separated by ``;`` or new lines.

    >>> [(w.name, n) for w, n in parse_weapons("4x 2|3+|4|-1|1; 1x Melta | 2|4+|9|-4|D6")]
    [('A2 3+ S4 AP-1 D1', 4), ('Melta', 1)]
    """
    rows = [r for r in re.split(r"[;\n]", text) if r.strip()]
    if not rows:
        raise InputError("weapon: expected a row like \"10x 2 | 3+ | 4 | -1 | 1\", got nothing")
    return [parse_weapon(r, melee=melee) for r in rows]


# --- targets -----------------------------------------------------------------------------------

_TARGET_TOKENS = [
    ("models", re.compile(r"^(\d+)\s*[x×]$", re.I)),
    ("toughness", re.compile(r"^T(\d+)$", re.I)),
    ("save", re.compile(r"^Sv(\d)\+$", re.I)),
    ("wounds", re.compile(r"^W(\d+)$", re.I)),
    ("invuln", re.compile(r"^(?:(\d)\+\+|Inv(?:uln)?(\d)\+\+?)$", re.I)),
    ("fnp", re.compile(r"^(?:(\d)\+\+\+|FNP(\d)\+)$", re.I)),
    ("ignored", re.compile(r"^(?:M\d+(?:\"|”|'')?|Ld\d+\+|OC\d+)$", re.I)),
]
#: What each stat token should look like (for error messages).
_SHAPES = {"models": "5x", "toughness": "T4", "save": "Sv3+", "wounds": "W2",
           "invuln": "4++", "fnp": "FNP5+"}
_LIMITS = {"models": (1, MAX_MODELS), "toughness": (1, MAX_TOUGHNESS), "save": (2, 7),
           "wounds": (1, MAX_WOUNDS), "invuln": (2, 6), "fnp": (2, 6)}
_LIMIT_NAMES = {"models": "MAX_MODELS", "wounds": "MAX_WOUNDS", "toughness": "MAX_TOUGHNESS"}
_STAT_START = re.compile(r"^(\d|T\d|Sv|W\d|FNP|Inv)", re.I)


def is_inline_target(text: str) -> bool:
    """Whether ``text`` looks like an inline target (it has a ``T`` or ``W`` token).

    >>> is_inline_target("5x T4 Sv3+ W2"), is_inline_target("MEQ")
    (True, False)
    """
    return any(re.fullmatch(r"(T|W)\d+|Sv\d\+?|\d+x", t, re.I) for t in _tokens(text))


def _tokens(text: str) -> list[str]:
    text = re.sub(r"(\d)\s+([x×])(?=\s|$)", r"\1\2", text.strip())
    return [t for t in re.split(r"[\s,]+", text) if t]


def parse_target(text: str) -> Target:
    """A target from tokens like ``"5x T4 Sv3+ W2 4++ FNP5+ INFANTRY"`` (models default to 1).

    >>> parse_target("T12 Sv2+ W16 VEHICLE").models
    1
    >>> parse_target("5x T4 Sv3 W2")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: target "5x T4 Sv3 W2": "Sv3" (token 3): expected a save like Sv3+
    """
    values: dict[str, int] = {}
    keywords: list[str] = []
    where = f'target "{shorten(text.strip(), 80)}"'
    abilities, rest = _target_abilities(text)
    tokens = _tokens(rest)
    for i, tok in enumerate(tokens, 1):
        field, m = next(((f, rx.match(tok)) for f, rx in _TARGET_TOKENS if rx.match(tok)),
                        ("", None))
        if m is None:
            if re.fullmatch(r"[A-Za-z][A-Za-z'’-]*", tok) and not _STAT_START.match(tok):
                keywords.append(tok.upper())
                continue
            raise InputError(f'{where}: "{tok}" (token {i}): {_expected(tok)}')
        if field == "ignored":
            continue
        if field in values:
            raise InputError(f'{where}: "{tok}" (token {i}): {field} given twice')
        lo, hi = _LIMITS[field]
        values[field] = _int(next(g for g in m.groups() if g is not None), hi)
        if values[field] > hi and field in _LIMIT_NAMES:
            raise InputError(f'{where}: "{shorten(tok)}" (token {i}): '
                             f"{over(field, shorten(tok), hi, _LIMIT_NAMES[field])}")
        if not lo <= values[field] <= hi:
            shape, digit = _SHAPES[field], _digits(field)
            top = " or more" if hi > 99 else f" to {shape.replace(digit, str(hi))}"
            raise InputError(f'{where}: "{tok}" (token {i}): expected '
                             f"{shape.replace(digit, str(lo))}{top}")
    for field in ("toughness", "save", "wounds"):
        if field not in values:
            raise InputError(f"{where}: missing {field} (e.g. {_SHAPES[field]})")
    try:
        return Target(models=values.get("models", 1), toughness=values["toughness"],
                      save=values["save"], wounds=values["wounds"], invuln=values.get("invuln"),
                      fnp=values.get("fnp"), keywords=keywords, abilities=abilities,
                      name=text.strip())
    except ValueError as e:
        raise InputError(f"{where}: {e}") from None


def _digits(field: str) -> str:
    digit = re.search(r"\d", _SHAPES[field])
    assert digit is not None  # every shape shows a digit
    return digit.group(0)


def _ability_pattern(ability: str) -> re.Pattern:
    words = [r"(\d*D[36](?:\+\d+)?|\d+)" if w == "X" else re.escape(w) for w in ability.split()]
    return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])", re.I)


def _target_abilities(text: str) -> tuple[list[str], str]:
    """The target abilities in ``text`` (``Stealth``, ``Deadly Demise D3``...) and the rest."""
    found = []
    for ability in TARGET_ABILITIES:
        rx = _ability_pattern(ability)
        found += [(m.start(), " ".join(m.group(0).lower().split())) for m in rx.finditer(text)]
        text = rx.sub(lambda m: " " * len(m.group(0)), text)
    return [a for _, a in sorted(found)], text


def parse_squad(text: str) -> Target | Squad:
    """A target of one model group, or several joined by `` + `` (a :class:`Squad`, e.g. a
    Bodyguard unit and its CHARACTER Leader, who is allocated to last).

    >>> s = parse_squad("10x T3 Sv5+ W1 INFANTRY + 1x T3 Sv4+ W3 5++ INFANTRY CHARACTER")
    >>> [g.models for g in s.groups], s.characters
    ([10, 1], (False, True))
    >>> parse_squad("5x T4 Sv3+ W2").models
    5
    """
    parts = [p for p in re.split(r"\s\+\s", f" {text} ") if p.strip()]
    if len(parts) < 2:
        return parse_target(text)
    return Squad(tuple(parse_target(p) for p in parts), name=text.strip())


def _expected(tok: str) -> str:
    t = tok.lower()
    if t.startswith("sv"):
        return "expected a save like Sv3+"
    if t.startswith("fnp") or t.endswith("+++"):
        return "expected Feel No Pain like FNP5+ or 5+++"
    if t.startswith("inv") or t.endswith("++"):
        return "expected an invulnerable save like 4++"
    if t.startswith("t"):
        return "expected Toughness like T4"
    if t.startswith("w"):
        return "expected Wounds like W2"
    if t[:1].isdigit():
        return "expected a model count like 5x, an invulnerable save like 4++ or FNP5+"
    return "expected T4, Sv3+, W2, 5x, 4++, FNP5+, Stealth or a KEYWORD"


def describe_weapon(weapon: Weapon) -> str:
    """A weapon as one datasheet-like row.

    >>> describe_weapon(parse_weapon('Bolt rifle | 24" | 2 | 3+ | 4 | -1 | 1 | heavy')[0])
    'Bolt rifle | 24" | 2 | 3+ | 4 | -1 | 1 | heavy'
    """
    rng = "Melee" if weapon.melee else f'{weapon.range}"'
    skill = "N/A" if weapon.skill is None else f"{weapon.skill}+"
    cols = [weapon.name, rng, weapon.attacks, skill, str(weapon.strength), str(weapon.ap),
            weapon.damage]
    if weapon.abilities:
        cols.append(", ".join(weapon.abilities))
    return " | ".join(cols)
