"""What every text reader shares: the text made plain (line ends, no-break spaces and hyphens),
numbers as players write them, a unit's header line, wargear lines and their counts, and the
lines that are not wargear (enhancements, Warlord, "Attached as", footers) in the languages the
app exports. Every pattern here is linear in the line's length (no nested or adjacent
unbounded repeats), so a long line costs its length.

>>> unit_header("Char1: 2x Eightbound (1,200 pts): Chainblades")
Header(count=2, name='Eightbound', points=1200, rest='Chainblades', upgrade=False)
>>> unit_header("Kroot Carnivores [65 pts]:").points
65
>>> unit_header("• Plasma Accelerator Rifle (+10 pts)") is None
True
>>> number("2 000", "x.txt", 1)
2000
"""

from __future__ import annotations

import re

import attrs

from ...errors import InputError

# the bounds of a list (a bigger list is an error, not a long wait)
from ...limits import (
    MAX_ARMY_LINES,
    MAX_ARMY_TEXT_BYTES,
    MAX_ARMY_UNITS,  # noqa: F401  (lines.MAX_ARMY_UNITS for the readers)
    MAX_LINE,
)
from .words import ENHANCEMENT_KEYS, FOOTERS, NOTES, SECTIONS, attached_heading, fold

_MAX_DIGITS = 7  # points, counts: at most 9,999,999
_LONG_NUMBER = re.compile(r"\d{13}")  # longer than any count, cost or date in a list

BULLETS = "•◦▪●○■‣∙·*-–+>"
_PLAIN = str.maketrans({
    "\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u2009": " ", "\u200a": " ", "\u3000": " ",
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-", "\u00ad": None,
    "\u200b": None, "\u200c": None, "\u200d": None, "\ufeff": None, "\t": "    ",
})


def plain(text: str) -> str:
    """The text with ``\\n`` line ends, plain spaces for no-break and other spaces, ``-`` for
    no-break and other hyphens, and no zero-width characters.

    >>> plain("Jericho\\u2011class\\r\\nA\\u00a0B\\r")
    'Jericho-class\\nA B\\n'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n").translate(_PLAIN)


def check_text(text: str, source: str) -> None:
    """A list's text over :data:`MAX_ARMY_TEXT_BYTES` characters or :data:`MAX_ARMY_LINES`
    lines is an error, before any of it is read.

    >>> check_text("x\\n" * 30000, "<text>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: <text>: 30001 lines is over the limit of 25000 (...MAX_ARMY_LINES)
    """
    if len(text) > MAX_ARMY_TEXT_BYTES:
        raise InputError(f"{source}: an army list of {len(text):,} characters is over the limit "
                         f"of {MAX_ARMY_TEXT_BYTES:,} (mathhammer.limits."
                         "MAX_ARMY_TEXT_BYTES)")
    lines = text.count("\n") + 1
    if lines > MAX_ARMY_LINES:
        raise InputError(f"{source}: {lines} lines is over the limit of {MAX_ARMY_LINES} "
                         "(mathhammer.limits.MAX_ARMY_LINES)")


def check_lines(lines: list[str], source: str) -> None:
    """A line over :data:`MAX_LINE` characters, or with a number of more than 12 digits, is an
    error."""
    for n, ln in enumerate(lines, 1):
        if len(ln) > MAX_LINE:
            raise InputError(f"{source}:{n}: a line of {len(ln)} characters (the limit is "
                             f"{MAX_LINE}, mathhammer.limits.MAX_LINE)")
        m = _LONG_NUMBER.search(ln)
        if m:
            end = m.end()
            while end < len(ln) and ln[end].isdigit():
                end += 1
            raise InputError(f"{source}:{n}: a number of {end - m.start()} digits (at most "
                             f"{_MAX_DIGITS})")


def number(text: str, source: str, line: int, what: str = "points") -> int:
    """A whole number as lists write it: ``2000``, ``2,000``, ``2 000``, ``2.000``; a fraction
    (``8.5``) or a number of more than seven digits is an error naming the line."""
    t = text.strip().replace(" ", "")
    if not t or not t[0].isdigit():
        raise InputError(f"{source}:{line}: {what} {text.strip()!r}: not a number")
    groups = re.split(r"[,.]", t)
    if len(groups) > 1 and not all(len(g) == 3 and g.isdigit() for g in groups[1:]):
        raise InputError(f"{source}:{line}: {what} {text.strip()!r}: expected a whole number")
    digits = "".join(groups)
    if not digits.isdigit():
        raise InputError(f"{source}:{line}: {what} {text.strip()!r}: not a number")
    if len(digits.lstrip("0")) > _MAX_DIGITS:
        raise InputError(f"{source}:{line}: {what} {text.strip()[:20]}...: a number of "
                         f"{len(digits)} digits (at most {_MAX_DIGITS})")
    return int(digits)


# "(85 points)", "[95 pts]", "(+15 pts)", "(2,000 Points)", "(2 000 points)", "(8.5 points)"
_PTS = re.compile(r"[(\[]\s{0,3}(\+?)\s{0,3}(\d[\d,. ]{0,12}?)\s{0,3}"
                  r"(?:points?|pts?|punkte|puntos|punti)\.?\s{0,3}[)\]]", re.I)
#: the same without brackets, at the end of a line: "Brotherhood Librarian115 Points" (a list
#: pasted from a page that showed the points apart, its brackets and space lost)
_BARE_PTS = re.compile(r"()(\d[\d,. ]{0,12}?)\s{0,3}(?:points?|pts?|punkte|puntos|punti)"
                       r"\.?\s{0,3}$", re.I)
_COUNT = re.compile(r"(\d{1,12})\s{0,3}[x×]\s{1,3}(?=\S)", re.I)
#: a count written as a number and a space before a name: "2 Bolt pistols", "2 magma cutters"
_LEAD = re.compile(r"(\d{1,12})\s{1,3}(?=[^\W\d_])")
_TAG = re.compile(r"[A-Za-z]{2,8}\d{1,4}:\s{0,3}")


@attrs.frozen
class Header:
    """A unit's line: ``[Char1:] [2x] Name (120 pts) [: wargear]``."""

    count: int | None
    name: str
    points: int
    rest: str = ""
    upgrade: bool = False  # "(+15 pts)": an option's cost, not a unit


def points_group(line: str, bare: bool = False):
    """The first ``(N points)``-like group of a line (a regex match) or None; ``bare``: else
    ``N Points`` ending the line without brackets (``Strike Force2,000 Points``)."""
    m = _PTS.search(line)
    if m is None and bare:
        m = _BARE_PTS.search(line)
        if m is not None and not line[:m.start()].strip(" -–:"):
            return None
    return m


def priced(text: str, source: str = "<text>", line: int = 0) -> tuple[str, int] | None:
    """A name ending in its cost, ``X [+10 points]`` / ``X (+15 pts)``: (name, cost), else None.
    Whether the name is an enhancement or wargear with a cost is the data's to say.

    >>> priced("Hunter-killer missile and Symphonic payload [+10 points]")
    ('Hunter-killer missile and Symphonic payload', 10)
    >>> priced("Bolt pistol") is None
    True
    """
    t = text.strip()
    m = _PTS.search(t)
    if m is None or not m.group(1) or t[m.end():].strip() or not t[:m.start()].strip():
        return None
    return t[:m.start()].strip(), number(m.group(2), source, line)


def unit_header(line: str, source: str = "<text>", number_at: int = 0) -> Header | None:
    """A unit's header line read, or None (a bulleted line, or a line without points)."""
    s = line.strip()
    if not s or s[0] in BULLETS:
        return None
    m = points_group(s, bare=True)
    if m is None:
        return None
    after = s[m.end():].strip()
    if after and not after.startswith(":"):
        return None
    name = s[:m.start()].strip().rstrip(":-–").strip()
    t = _TAG.match(name)
    if t:
        name = name[t.end():]
    count = None
    c = _COUNT.match(name)
    if c:
        count = number(c.group(1), source, number_at, "count")
        name = name[c.end():]
    if not name:
        return None
    pts = number(m.group(2), source, number_at)
    return Header(count, name.strip(), pts, after[1:].strip(), bool(m.group(1)))


def strip_bullet(raw: str) -> tuple[int, bool, str]:
    """(indent, bulleted, text) of a line."""
    indent = len(raw) - len(raw.lstrip(" "))
    s = raw.strip()
    bullet = False
    while s and s[0] in BULLETS and (len(s) == 1 or s[1] == " " or s[0] in "•◦▪●○■‣∙·"):
        if s[0] in "-+*" and s[1:2] != " ":
            break
        s = s[1:].lstrip()
        bullet = True
    return indent, bullet, s


#: bullets by depth, as the app nests them (``•`` a model, ``◦`` its wargear, ``▪`` below)
_DEPTH = {"•": 0, "*": 0, "-": 0, "◦": 1, "○": 1, "–": 1, "▪": 2, "■": 2, "‣": 2, "∙": 2}


def nested_under(raw: str, nxt: str) -> bool:
    """Whether line ``nxt`` sits under line ``raw``: indented deeper, or at the same indent
    with a deeper bullet (a list whose indentation was lost keeps its ``•`` / ``◦``).

    >>> nested_under("• 1x Paladin Ancient", "◦ 1x Ancient's Banner")
    True
    >>> nested_under("• 1x Paragon", "• 8x Paladin"), nested_under("  • 1x A", "    • 1x B")
    (False, True)
    """
    if not nxt.strip():
        return False
    i, _b, _s = strip_bullet(raw)
    j, _b2, _s2 = strip_bullet(nxt)
    if j != i:
        return j > i
    a, b = _DEPTH.get(raw.strip()[:1]), _DEPTH.get(nxt.strip()[:1])
    return a is not None and b is not None and b > a


def count_name(text: str, source: str = "<text>", line: int = 0) -> tuple[int | None, str]:
    """``"2x Bolt pistol"`` -> ``(2, "Bolt pistol")``; ``"Bolt pistol"`` -> ``(None, ...)``."""
    t = text.strip()
    c = _COUNT.match(t)
    if c:
        return number(c.group(1), source, line, "count"), t[c.end():].strip()
    return None, t


def lead_count(text: str) -> tuple[int, str] | None:
    """A count written before a name without ``x`` (``"2 magma cutters"`` -> ``(2, "magma
    cutters")``), else None; whether the name after it is a weapon is the data's to say.

    >>> lead_count("2 Inferno pistols"), lead_count("2x Inferno pistols"), lead_count("MV15")
    ((2, 'Inferno pistols'), None, None)
    """
    t = text.strip()
    m = _LEAD.match(t)
    if m is None or len(m.group(1)) > _MAX_DIGITS:
        return None
    return int(m.group(1)), t[m.end():].strip()


_WITH = re.compile(r"(\d{1,12})\s{1,3}with\s", re.I)


def per_model(text: str) -> tuple[int, str] | None:
    """``"5 with Chainblades, Bolt pistol"`` -> ``(5, "Chainblades, Bolt pistol")``."""
    m = _WITH.match(text.strip())
    if m is None:
        return None
    return int(m.group(1)[:_MAX_DIGITS + 1]), text.strip()[m.end():]


def split_names(text: str) -> list[str]:
    """A wargear line's names: split at commas (not inside brackets)."""
    out: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [p for p in out if p]


# ------------------------------------------------------------- lines that are not wargear
# (the app's words for them, in every language it exports: :mod:`.words`)


def named_enhancement(text: str, source: str = "<text>", line: int = 0
                      ) -> tuple[str, int | None] | None:
    """A line that says it is an enhancement, in any language: ``Enhancement: X``,
    ``Enhancements: X (Upgrade)``, ``E: X``, ``Optimisation : X (+20 pts)``; (name, its points
    when the line gives them) or None.

    >>> named_enhancement("Enhancements: The Endless Gift (Upgrade)")
    ('The Endless Gift', None)
    >>> named_enhancement("Optimisation : Strike Swiftly"), named_enhancement("Gorechild")
    (('Strike Swiftly', None), None)
    """
    key, sep, value = text.strip().partition(":")
    if not sep or fold(key) not in ENHANCEMENT_KEYS or not value.strip():
        return None
    t = value.strip()
    pts = None
    got = priced(t, source, line)
    if got is not None:
        t, pts = got
    # "(Upgrade)", "(Aura)", "(on Char3: Slaughterbound)": notes of the line
    while t.endswith(")") and "(" in t:
        t = t[:t.rindex("(")].strip()
    return t, pts


def enhancement(text: str, source: str = "<text>", line: int = 0
                ) -> tuple[str, int | None] | None:
    """:func:`named_enhancement`, else a name with a cost (``X (+15 pts)``, :func:`priced`):
    the reading of a list that names enhancements so (New Recruit's WTC) before the data says.

    >>> enhancement("Favoured of Khorne (+15 pts)")
    ('Favoured of Khorne', 15)
    """
    return named_enhancement(text, source, line) or priced(text, source, line)


def is_note(name: str) -> bool:
    """Warlord, Epic Hero and lines like ``Daemonic Allegiance: Khorne`` or ``Houndpack Lance
    Keyword: Character``: said about a unit, not wargear."""
    low = fold(name)
    if low in NOTES or low.endswith((" character", " keyword")):
        return True
    key, sep, value = low.partition(":")
    return bool(sep) and not _COUNT.match(low) and bool(value.strip()) and " with " not in low


def is_footer(text: str) -> bool:
    low = fold(text)
    return low.startswith(FOOTERS) or low.startswith(("http://", "https://", "www."))


def is_heading(text: str) -> bool:
    """A section heading: ``CHARACTERS``, ``Epic Hero:``, ``## Infantry [465 pts]``,
    ``Attached Unit 2``, ``ATTACHED UNITS``, ``Unité 2 Attachée``, ``Autres fiches techniques``.
    """
    s = text.strip()
    if not s:
        return False
    if s.startswith("#"):
        return True
    if attached_heading(s) is not None or fold(s) in SECTIONS:
        return True
    letters = [c for c in s if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and not any(c.isdigit() for c in s) \
            and len(s) < 60:
        return True
    return s.endswith(":") and ":" not in s[:-1] and not _COUNT.match(s) and len(s) < 40
