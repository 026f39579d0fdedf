"""A weapon profile as a weapon table of the units/ schema, its keywords mapped to mathhammer
abilities (the ones mathhammer cannot map are kept in ``unmapped``).

>>> from .entries import Characteristic
>>> chars = [("Range", '24"'), ("A", "2"), ("BS", "4+"), ("S", "4"), ("AP", "-1"), ("D", "1"),
...          ("Keywords", "Lethal Hits, Sonic Devastation")]
>>> p = Profile("p1", "➤ Gauss flayer", "t1", "Ranged Weapons",
...             tuple(Characteristic(n, n, v) for n, v in chars))
>>> weapon_table(p)  # doctest: +NORMALIZE_WHITESPACE
{'name': 'Gauss flayer', 'range': 24, 'attacks': 2, 'skill': '4+', 'strength': 4, 'ap': -1,
 'damage': 1, 'abilities': ['lethal hits'], 'unmapped': ['Sonic Devastation']}
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...model.abilities import canonical
from ...prob.dice import format_dice
from .entries import Profile
from .profiles import clean_name, int_of, xplus_of

#: keywords printed otherwise than mathhammer spells them; 11e's [CLOSE-QUARTERS] is the
#: Pistol rule (a model shoots either with them or with its other ranged weapons)
_ALIASES = {"twin linked": "twin-linked", "close-quarters": "pistol", "close quarters": "pistol"}
_ANTI_LOOSE = re.compile(r"^anti[\s-]+(.+?)\s+([2-6])\+?$")  # "Anti-FLY 2" is 2+


def map_keyword(text: str) -> str | None:
    """A weapon keyword as printed in the data -> the mathhammer ability, or None.

    >>> map_keyword("Twin Linked"), map_keyword("Anti Vehicle 3+"), map_keyword("Sustained hits 1")
    ('twin-linked', 'anti-vehicle 3+', 'sustained hits 1')
    >>> map_keyword("Anti-FLY 2")
    'anti-fly 2+'
    >>> map_keyword("Sonic Devastation") is None
    True
    """
    t = " ".join(text.strip().strip("[]").lower().split())
    t = _ALIASES.get(t, t)
    if m := _ANTI_LOOSE.match(t):
        t = f"anti-{m.group(1)} {m.group(2)}+"
    try:
        return canonical(t)
    except ValueError:
        return None


def split_keywords(text: str) -> list[str]:
    """The keywords of a weapon profile (``-`` or empty is none)."""
    return [k.strip() for k in text.split(",") if k.strip() and k.strip() not in ("-", "–")]


def weapon_table(p: Profile, warn: Callable[[str], None] = lambda text: None) -> dict | None:
    """The weapon table (units/ schema) of a weapon profile; None (and a warning) if it
    cannot be one."""
    name = clean_name(p.name)
    rng_text = p.get("Range")
    if rng_text.strip().lower() == "melee":
        rng: int | str = "melee"
    else:
        rng = int_of(rng_text) or 0
        if rng < 1:
            warn(f"weapon {name!r} left out: range {rng_text!r} is not a distance")
            return None
    try:
        attacks = format_dice(p.get("A"))
        damage = format_dice(p.get("D"))
    except ValueError:
        warn(f"weapon {name!r} left out: A {p.get('A')!r} / D {p.get('D')!r} "
                  f"is not a dice expression")
        return None
    skill_text = p.get("BS") or p.get("WS")
    skill = xplus_of(skill_text)
    strength = int_of(p.get("S"))
    if strength is None and (m := re.fullmatch(r"\s*(\d+)\s*\+\s*", p.get("S"))):
        strength = int(m.group(1))  # a stray "+" (S "8+"): a typo in the data
        warn(f"{name}: S {p.get('S')!r} read as {strength}")
    ap_m = re.fullmatch(r"\s*(?:0|-\s*(\d))\s*", p.get("AP"))
    if ap_m is None and p.get("AP").strip() in ("-", "–", ""):
        ap_m = re.fullmatch(r"(0)?", "")  # no AP printed: 0
        warn(f"{name}: AP {p.get('AP')!r} read as 0")
    if strength is None or ap_m is None:
        warn(f"weapon {name!r} left out: S {p.get('S')!r} / AP {p.get('AP')!r} "
                  f"is not a number")
        return None
    abilities: list[str] = []
    unmapped: list[str] = []
    for k in split_keywords(p.get("Keywords")):
        a = map_keyword(k)
        if a is None:
            unmapped.append(k)
        elif a not in abilities:
            abilities.append(a)
    if skill is None:
        if skill_text.strip().upper() == "N/A" and "torrent" in abilities:
            skill = "N/A"
        else:
            warn(f"weapon {name!r} left out: BS/WS {skill_text!r} is not X+")
            return None
    table: dict[str, Any] = {
        "name": name,
        "range": rng,
        "attacks": int(attacks) if attacks.isdigit() else attacks,
        "skill": skill,
        "strength": strength,
        "ap": -int(ap_m.group(1)) if ap_m.group(1) else 0,
        "damage": int(damage) if damage.isdigit() else damage,
    }
    if abilities:
        table["abilities"] = abilities
    if unmapped:
        table["unmapped"] = unmapped
        warn(f"weapon {name!r}: unmapped keywords: {', '.join(unmapped)}")
    return table
