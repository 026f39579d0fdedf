"""Weapon abilities as printed on datasheets, parsed into what the engine needs.

>>> a = parse_abilities(("Sustained Hits D3", "anti-infantry 4+", "lethal hits"))
>>> a.sustained, a.anti, a.lethal_hits
('D3', (('INFANTRY', 4),), True)
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

import attrs

from ..cache import cached
from ..errors import InputError
from ..limits import MAX_ABILITY_VALUE, over, shorten
from ..prob.dice import EVERYDAY, format_dice, parse_dice


class Form(StrEnum):
    """How a weapon keyword is spelled: its name alone, or with a value."""

    FLAG = "flag"  # its name alone: "lethal hits"
    DICE = "dice"  # "NAME X", X a number or dice expression: "sustained hits D3"
    NUMBER = "number"  # "NAME X", X from 1 to 9: "blast 2"
    ANTI = "anti"  # "anti-KEYWORD X+", X from 2 to 6: "anti-infantry 4+"
    NO_EFFECT = "no effect"  # its name alone, changing no number of an attack: "assault"


@attrs.frozen
class Keyword:
    """One spelling of a weapon keyword: its name, its form and the field of
    :class:`Abilities` it sets. The parser (:func:`canonical`, :func:`parse_abilities`), the
    lists shown in errors and the fuzzers' spellings (``tests/strategies.py``) are made from
    :data:`KEYWORDS`; ``tests/test_oracles.py`` fails until both oracles play its field.

    >>> kw = Keyword("melta", Form.DICE, "melta", examples=("melta 2",))
    >>> kw.shown, kw.spellings
    ('melta X', ('melta 2',))
    """

    name: str
    form: Form
    #: the field of :class:`Abilities` it sets (None: it sets none)
    field: str | None = None
    #: the value a :attr:`Form.FLAG` spelling gives its field
    value: object = True
    #: spellings drawn by the fuzzers (a flag's is its name)
    examples: tuple[str, ...] = ()

    @property
    def shown(self) -> str:
        """Its spelling in a list of the known abilities: ``"sustained hits X"``."""
        if self.form is Form.ANTI:
            return "anti-KEYWORD X+"
        return f"{self.name} X" if self.form in (Form.DICE, Form.NUMBER) else self.name

    @property
    def spellings(self) -> tuple[str, ...]:
        """Canonical spellings of it for tests: the name of a flag, else the examples."""
        return (self.name,) if self.form in (Form.FLAG, Form.NO_EFFECT) else self.examples

    @property
    def pattern(self) -> re.Pattern[str] | None:
        """The canonical text of a keyword with a value (group 1 the name or KEYWORD, group 2
        the value); None for a fixed spelling."""
        if self.form is Form.ANTI:
            return re.compile(r"^anti-(.+?)\s+([2-6])\+$")
        if self.form is Form.DICE:
            return re.compile(rf"^({re.escape(self.name)})\s+(.+)$")
        if self.form is Form.NUMBER:
            return re.compile(rf"^({re.escape(self.name)})\s+([1-9])$")
        return None


#: Every weapon keyword mathhammer reads, in the order the errors list them: the one place a
#: new keyword is declared (the rule step that plays it is in :mod:`mathhammer.mechanics`).
KEYWORDS = (
    Keyword("lethal hits", Form.FLAG, "lethal_hits"),
    Keyword("devastating wounds", Form.FLAG, "devastating_wounds"),
    Keyword("twin-linked", Form.FLAG, "twin_linked"),
    Keyword("torrent", Form.FLAG, "torrent"),
    Keyword("blast", Form.FLAG, "blast", value=1),  # plain Blast is [BLAST 1]
    Keyword("lance", Form.FLAG, "lance"),
    Keyword("heavy", Form.FLAG, "heavy"),
    Keyword("ignores cover", Form.FLAG, "ignores_cover"),
    Keyword("precision", Form.FLAG, "precision"),
    Keyword("hazardous", Form.FLAG, "hazardous"),
    Keyword("sustained hits", Form.DICE, "sustained",
            examples=("sustained hits 1", "sustained hits 2", "sustained hits D3")),
    Keyword("rapid fire", Form.DICE, "rapid_fire", examples=("rapid fire 1",)),
    Keyword("melta", Form.DICE, "melta", examples=("melta 2", "melta D3")),
    Keyword("anti", Form.ANTI, "anti",
            examples=("anti-infantry 4+", "anti-infantry 2+", "anti-vehicle 5+")),
    Keyword("blast", Form.NUMBER, "blast"),
    Keyword("cleave", Form.NUMBER, "cleave", examples=("cleave 1",)),  # 11e: always [CLEAVE X]
    *(Keyword(name, Form.NO_EFFECT) for name in (
        "assault", "pistol", "one shot", "psychic", "extra attacks", "indirect fire",
        "conversion", "linked fire")),
)
#: Abilities that change the numbers, with their fixed spelling (no parameter), by field.
FLAGS = {k.name: k.field for k in KEYWORDS if k.form is Form.FLAG}
#: Abilities with a parameter: ``sustained hits X``, ``rapid fire X``, ``melta X`` (X dice) and
#: ``anti-KEYWORD X+``.
PARAMETRISED = tuple(k.shown for k in KEYWORDS if k.pattern is not None)
#: Abilities that do not change the numbers of an attack.
NO_EFFECT = tuple(k.name for k in KEYWORDS if k.form is Form.NO_EFFECT)
KNOWN = tuple(FLAGS) + PARAMETRISED + NO_EFFECT

_FIXED = {k.name: k for k in KEYWORDS if k.pattern is None}
_VALUED = tuple((k, p) for k in KEYWORDS if (p := k.pattern) is not None)


#: The canonical spellings of the flags and of the keywords with a value whose value is one
#: of the everyday dice expressions (:mod:`mathhammer.prob.dice`) within the limit: a
#: constant table made at import (a few hundred strings), which :func:`canonical` returns as
#: they are.
_CANONICAL = frozenset(
    [k.name for k in KEYWORDS if k.pattern is None]
    + [f"{k.name} {x}" for k in KEYWORDS if k.form is Form.DICE for x, (n, sides, plus)
       in EVERYDAY.items() if n * sides + plus <= MAX_ABILITY_VALUE]
    + [f"{k.name} {x}" for k in KEYWORDS if k.form is Form.NUMBER for x in range(1, 10)])
#: :data:`_CANONICAL` for other modules (a Weapon's quick constructor)
CANONICAL = _CANONICAL


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
    if text in _CANONICAL:  # already canonical (a Weapon's own abilities): at once
        return text
    t = normalize(text)
    text = shorten(text)
    if t in _FIXED:
        return t
    for kw, pattern in _VALUED:
        m = pattern.match(t)
        if m is None:
            continue
        if kw.form is not Form.DICE:
            return t
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
    if t.startswith("anti-"):
        raise InputError(f"bad ability {text!r}: expected anti-KEYWORD X+ with X from 2 to 6")
    raise InputError(f"unknown ability {text!r}; known: {', '.join(KNOWN)}")


def _mean(value: str | None) -> float:
    """A dice expression's mean ("D3": 2), -1 for none."""
    if value is None:
        return -1.0
    n, sides, plus = parse_dice(value)
    return n * (sides + 1) / 2 + plus if sides else n + plus


@cached(maxsize=1024)
def parse_abilities(abilities: tuple[str, ...]) -> Abilities:
    """Parse canonical or printed ability strings into :class:`Abilities`."""
    fields: dict[str, Any] = {}
    anti: dict[str, int] = {}
    for text in abilities:
        t = canonical(text)
        if (fixed := _FIXED.get(t)) is not None:
            if fixed.field is not None:
                fields[fixed.field] = fixed.value
            continue
        for kw, pattern in _VALUED:
            if (m := pattern.match(t)) is None:
                continue
            if kw.form is Form.ANTI:
                keyword = m.group(1).upper()
                anti[keyword] = min(anti.get(keyword, 7), int(m.group(2)))
            elif kw.form is Form.NUMBER:
                fields[str(kw.field)] = max(int(m.group(2)), fields.get(str(kw.field), 0))
            elif _mean(m.group(2)) > _mean(fields.get(str(kw.field))):
                # the same ability twice (printed, and given by a rule): the higher value, as
                # the player would choose; a rule's [RAPID FIRE 1] never lowers RAPID FIRE 2
                fields[str(kw.field)] = m.group(2)
            break
    return Abilities(**fields, anti=tuple(sorted(anti.items())))
