"""Reading profiles: which profile is a unit statline or a weapon, and the values printed in
its characteristics (``5"``, ``3+``, an invulnerable save in an ability's text).

>>> xplus_of(" 3 "), int_of('6"'), clean_name("➤ Heat ray - focused")
('3+', 6, 'Heat ray - focused')
"""

from __future__ import annotations

import re

from .entries import Entry, Profile

_WEAPON_CHARS = {"range", "a", "s", "ap", "d"}
_UNIT_CHARS = {"m", "t", "w"}


def is_weapon(p: Profile) -> bool:
    """A weapon profile: Range, A, S, AP, D and BS or WS."""
    names = {c.name.lower() for c in p.characteristics}
    return names >= _WEAPON_CHARS and bool(names & {"bs", "ws"})


def is_statline(p: Profile) -> bool:
    """A unit statline: M, T, W and Sv."""
    names = {c.name.lower() for c in p.characteristics}
    return names >= _UNIT_CHARS and ("sv" in names)


def int_of(text: str) -> int | None:
    """A whole number, perhaps in inches (``6"``); None if the text is not one."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:\"|”|'')?\s*", text)
    return int(m.group(1)) if m else None


def xplus_of(text: str) -> str | None:
    """A roll to beat written ``X+`` (``3`` or ``3+``); None if the text is not one."""
    m = re.fullmatch(r"\s*(\d+)\s*\+?\s*", text)
    return f"{int(m.group(1))}+" if m else None


_INVULN = re.compile(r"(\d)\+\s*invulnerable save|invulnerable save of (\d)\+", re.I)
_PARTIAL = re.compile(
    r"against (ranged|melee|psychic)|ranged attacks|melee attacks|while|if ", re.I
)


def invuln_of(text: str) -> tuple[str | None, bool]:
    """(X+, holds always) from an ability text such as ``This model has a 4+ invulnerable save``.

    >>> invuln_of("This model has a 4+ invulnerable save."), invuln_of("5+")
    (('4+', True), ('5+', True))
    >>> invuln_of("Models in this unit have a 4+ invulnerable save against ranged attacks.")
    ('4+', False)
    >>> invuln_of("This model has an invulnerable save of 6+")
    ('6+', True)
    """
    m = _INVULN.search(text) or re.fullmatch(r"\s*(\d)\+\s*", text)
    if not m:
        return None, False
    return f"{next(g for g in m.groups() if g)}+", not _PARTIAL.search(text)


def clean_name(name: str) -> str:
    """A profile name without the ``➤`` of a weapon's modes and without extra spaces."""
    return " ".join(name.lstrip("➤►> ").split())


_MODE = re.compile(r"^(.*?\S)\s+[-–—]\s+[^-–—]+$")


def profile_bases(entry: Entry, names: list[str]) -> list[str | None]:
    """For each weapon profile of one selection entry, the weapon it is a profile of (None: a
    weapon of its own). Profiles of one weapon are ``➤`` lines or ``Name - mode`` lines that
    share their ``Name``; a profile named like that ``Name`` belongs with them.

    >>> e = Entry("entry", "e1", "Plasma incinerator", type="upgrade")
    >>> profile_bases(e, ["➤ Plasma incinerator - standard", "➤ Plasma incinerator - supercharge"])
    ['Plasma incinerator', 'Plasma incinerator']
    >>> profile_bases(e, ["Wailing Doom", "➤ Wailing Doom - Strike", "➤ Wailing Doom - Sweep"])
    ['Wailing Doom', 'Wailing Doom', 'Wailing Doom']
    >>> profile_bases(e, ["Bolt pistol", "Astartes chainsword"])
    [None, None]
    """
    if len(names) < 2:
        return [None] * len(names)
    marked = [n.lstrip().startswith(("➤", "►")) for n in names]
    bases = []
    for n in names:
        m = _MODE.match(clean_name(n))
        bases.append(m.group(1) if m else None)
    shared = {b for b in bases if b is not None and (bases.count(b) > 1 or any(
        mk and bb == b for mk, bb in zip(marked, bases, strict=True)))}
    out: list[str | None] = []
    for n, mk, b in zip(names, marked, bases, strict=True):
        if b in shared:
            out.append(b)
        elif clean_name(n) in shared:
            out.append(clean_name(n))
        elif mk and entry.type == "upgrade":
            out.append(clean_name(entry.name))  # a ➤ line without a mode name
        else:
            out.append(None)
    return out
