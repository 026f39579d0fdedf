"""Weapon abilities as printed on datasheets, parsed into what the engine needs.

>>> a = parse_abilities(("Sustained Hits D3", "anti-infantry 4+", "lethal hits"))
>>> a.sustained, a.anti, a.lethal_hits
('D3', (('INFANTRY', 4),), True)
"""

from __future__ import annotations

import re

import attrs

from ..cache import cached
from ..errors import InputError
from ..limits import MAX_ABILITY_VALUE, over, shorten
from ..prob.dice import format_dice, parse_dice

#: Abilities that change the numbers, with their fixed spelling (no parameter).
FLAGS = {
    "lethal hits": "lethal_hits",
    "devastating wounds": "devastating_wounds",
    "twin-linked": "twin_linked",
    "torrent": "torrent",
    "blast": "blast",
    "lance": "lance",
    "heavy": "heavy",
    "ignores cover": "ignores_cover",
    "precision": "precision",
    "hazardous": "hazardous",
}
#: Abilities with a parameter: ``sustained hits X``, ``rapid fire X``, ``melta X`` (X dice) and
#: ``anti-KEYWORD X+``.
PARAMETRISED = ("sustained hits X", "rapid fire X", "melta X", "anti-KEYWORD X+", "blast X",
                "cleave X")
#: Abilities that do not change the numbers of an attack.
NO_EFFECT = (
    "assault", "pistol", "one shot", "psychic", "extra attacks", "indirect fire",
    "conversion", "linked fire",
)
KNOWN = tuple(FLAGS) + PARAMETRISED + NO_EFFECT

_WITH_VALUE = re.compile(r"^(sustained hits|rapid fire|melta)\s+(.+)$")
_FIELD_OF = {"sustained hits": "sustained", "rapid fire": "rapid_fire", "melta": "melta"}
_BLAST = re.compile(r"^blast\s+([1-9])$")
_CLEAVE = re.compile(r"^cleave\s+([1-9])$")  # 11e: always [CLEAVE X]
_ANTI = re.compile(r"^anti-(.+?)\s+([2-6])\+$")


@attrs.frozen
class Abilities:
    """The parsed abilities of one weapon."""

    lethal_hits: bool = False
    devastating_wounds: bool = False
    twin_linked: bool = False
    torrent: bool = False
    blast: int = 0  # X of [BLAST X]; plain Blast is 1
    cleave: int = 0  # X of 11e [CLEAVE X]: X more attacks per five target models, as Blast
    lance: bool = False
    heavy: bool = False
    ignores_cover: bool = False
    precision: bool = False
    hazardous: bool = False
    sustained: str | None = None  # dice expression, e.g. "1" or "D3"
    rapid_fire: str | None = None
    melta: str | None = None
    anti: tuple[tuple[str, int], ...] = ()  # (KEYWORD, X) pairs

    @property
    def per_target_models(self) -> int:
        """Attacks added for every five models of the target: Blast's and Cleave's X.

        >>> parse_abilities(("blast 2", "cleave 1")).per_target_models
        3
        """
        return self.blast + self.cleave


def normalize(text: str) -> str:
    """Lower-case, single spaces, no brackets: ``" [Lethal  Hits]"`` -> ``"lethal hits"``."""
    return " ".join(str(text).strip().strip("[]").lower().split())


def canonical(text: str) -> str:
    """Check one ability and return its canonical spelling.

    >>> canonical("Sustained Hits d3"), canonical("ANTI-Infantry 2+")
    ('sustained hits D3', 'anti-infantry 2+')
    >>> canonical("fast")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown ability 'fast'; known: lethal hits, devastating wounds...
    """
    t = normalize(text)
    text = shorten(text)
    if t in FLAGS or t in NO_EFFECT:
        return t
    m = _WITH_VALUE.match(t)
    if m:
        try:
            value = format_dice(m.group(2))
        except ValueError as e:
            if "over the limit" in str(e):
                raise over(f"bad ability {text!r}: {m.group(1)} X", shorten(m.group(2), 20),
                           MAX_ABILITY_VALUE, "MAX_ABILITY_VALUE") from None
            raise InputError(
                f"bad ability {text!r}: {m.group(1)} needs a number or dice expression"
            ) from None
        n, sides, plus = parse_dice(value)
        if n * sides + plus > MAX_ABILITY_VALUE:
            raise over(f"bad ability {text!r}: {m.group(1)} X", value, MAX_ABILITY_VALUE,
                       "MAX_ABILITY_VALUE")
        return f"{m.group(1)} {value}"
    if _ANTI.match(t) or _BLAST.match(t) or _CLEAVE.match(t):
        return t
    if t.startswith("anti-"):
        raise InputError(f"bad ability {text!r}: expected anti-KEYWORD X+ with X from 2 to 6")
    raise InputError(f"unknown ability {text!r}; known: {', '.join(KNOWN)}")


@cached(maxsize=1024)
def parse_abilities(abilities: tuple[str, ...]) -> Abilities:
    """Parse canonical or printed ability strings into :class:`Abilities`."""
    fields: dict[str, object] = {}
    anti: dict[str, int] = {}
    for text in abilities:
        t = canonical(text)
        if t == "blast" or (m := _BLAST.match(t)) is not None:
            fields["blast"] = 1 if t == "blast" else int(m.group(1))
        elif (m := _CLEAVE.match(t)) is not None:
            fields["cleave"] = int(m.group(1))
        elif t in FLAGS:
            fields[FLAGS[t]] = True
        elif (m := _WITH_VALUE.match(t)) is not None:
            key = _FIELD_OF[m.group(1)]
            parse_dice(m.group(2))
            fields[key] = m.group(2)
        elif (m := _ANTI.match(t)) is not None:
            kw = m.group(1).upper()
            anti[kw] = min(anti.get(kw, 7), int(m.group(2)))
    return Abilities(**fields, anti=tuple(sorted(anti.items())))
