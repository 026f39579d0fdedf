"""The size of the game: limits on what mathhammer reads and computes.

Every input is checked against these limits where it is parsed, so a query either answers
quickly or is refused at once with one line naming the limit and its value. The limits are far
above what a real game uses (the biggest datasheets have 100 wounds, 4D6 attacks and units of
a few dozen models; a Warlord Titan has Toughness 16) but keep the work of one query bounded.

>>> MAX_MODELS, MAX_ATTACK_DICE
(1000, 20000)
>>> check_count("models", 1001, MAX_MODELS, "MAX_MODELS")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: models: 1001 is over the limit of 1000 (mathhammer.limits.MA...

Every TOML file (unit files, rule sets, named rules) is read by :func:`read_toml`.
"""

from __future__ import annotations

import os
import tomllib
from typing import TypeVar

from .errors import InputError, one_line

#: Models in one model group: an attacking row ``1000x ...``, a target, ``--models``,
#: ``--target-models``, a unit file's model counts.
MAX_MODELS = 1000
#: Wounds of one model (the biggest datasheets have 100; a model of many wounds is also a
#: handy sink to count damage without kills).
MAX_WOUNDS = 1000
#: The highest Toughness of a model (the biggest datasheets have 16: a Warlord Titan).
MAX_TOUGHNESS = 30
#: Dice in one dice expression: N of ``NdS+K`` (the biggest datasheet values are 4D6).
MAX_DICE = 20
#: A flat number, or K of ``NdS+K``, in a dice expression (attacks, damage, mortal wounds,
#: Deadly Demise...).
MAX_FLAT = 100
#: The largest value X of ``sustained hits X``, ``rapid fire X`` and ``melta X`` may reach.
MAX_ABILITY_VALUE = 10
#: Attack dice one query may roll (models x attacks, with Rapid Fire and Blast at their most):
#: 1000 models of 10 attacks each is allowed.
MAX_ATTACK_DICE = 20_000
#: The longest weapon range in inches (a battlefield is at most 44" by 90").
MAX_RANGE = 1000
#: The highest Strength of a weapon (the biggest datasheets have about 30).
MAX_STRENGTH = 100
#: Weapons (profiles) in one unit.
MAX_WEAPONS = 200
#: Bytes of a unit file (``units/*.toml``).
MAX_UNIT_FILE_BYTES = 1_000_000
#: Bytes of a rule-set file (``--rules FILE``) or a named-rules file.
MAX_RULES_FILE_BYTES = 1_000_000
#: Bytes of a datasheet page given to ``mathhammer import``.
MAX_PAGE_BYTES = 1_000_000
#: Lines of a datasheet page given to ``mathhammer import``.
MAX_PAGE_LINES = 5_000
#: Bytes of an army list (a file, standard input, or the roster inside a ``.rosz``; real lists
#: are a few kilobytes).
MAX_ARMY_FILE_BYTES = 5_000_000
#: Characters of an army list's text (a pasted list, a text file; a 2,000-point list has a
#: few thousand: longer text is refused before it is read, as is a roster of more units).
MAX_ARMY_TEXT_BYTES = 500_000
#: Lines of an army list's text (a real one has one to three hundred).
MAX_ARMY_LINES = 25_000
#: Characters on one line of an army list's text.
MAX_LINE = 20_000
#: Units in one army list (a real one has 5 to 30; an army of many small units 50).
MAX_ARMY_UNITS = 200
#: Levels selections (and forces) may nest in a roster (``.ros``, New Recruit's or ListForge's
#: JSON): a unit, its models, their wargear and the wargear's own choices are four or five.
MAX_ROSTER_DEPTH = 32
#: Levels a JSON army list may nest (a New Recruit export nests about 20).
MAX_JSON_DEPTH = 100
#: Attacking units and targets of one plan (``mathhammer plan``; the page takes fewer,
#: :data:`mathhammer.jobs.queries.MAX_UNITS`), and their pairs (each pair is an exact attack
#: before any assignment is weighed): two armies of 50 units are allowed.
MAX_PLAN_UNITS, MAX_PLAN_TARGETS, MAX_PLAN_PAIRS = 100, 100, 2_500
#: Values of one repeatable option (``--rule``, ``-t``, ``--weapon``...) or items of one array
#: of the web API: real queries give a few.
MAX_OPTION_VALUES = 100
#: Bytes of a BattleScribe file (the largest real catalogues have about 4 MB).
MAX_CATALOGUE_BYTES = 64_000_000
#: Links one BattleScribe datasheet import may expand (entry and info links resolved while
#: walking the unit's selection tree; the real datasheets need at most a few hundred). Links
#: that fan out (10 links per level, 9 levels deep) would otherwise mean 10**9 walks.
MAX_LINK_EXPANSIONS = 20_000


def shorten(text: object, width: int = 40) -> str:
    """``text`` cut to ``width`` characters (with an ellipsis), for error messages.

    >>> shorten("9" * 50, 10)
    '999999999…'
    """
    text = str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


def over(what: str, value: object, limit: int, name: str) -> ValueError:
    """The error for ``value`` over ``limit`` (``name`` is the constant in this module).

    >>> str(over("attacks", "30D6", MAX_DICE, "MAX_DICE"))
    'attacks: 30D6 is over the limit of 20 (mathhammer.limits.MAX_DICE)'
    """
    return InputError(f"{what}: {value} is over the limit of {limit} "
                      f"(mathhammer.limits.{name})")


def check_count(what: str, value: int, limit: int, name: str, unit: str = "") -> int:
    """``value`` if it is at most ``limit``, else the ValueError of :func:`over` (``unit``:
    what ``value`` counts, said after it)."""
    if value > limit:
        raise over(what, f"{value} {unit}" if unit else value, limit, name)
    return value


def check_plan(units: int, targets: int) -> None:
    """A plan of more attacking units, targets or pairs than the limits allow is refused before
    any unit is resolved.

    >>> check_plan(200, 200)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: plan: 200 attacking units is over the limit of 100 (...)
    >>> check_plan(60, 60)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: plan: 60 attacking units x 60 targets = 3,600 pairs is over ...
    """
    check_count("plan", units, MAX_PLAN_UNITS, "MAX_PLAN_UNITS", "attacking units")
    check_count("plan", targets, MAX_PLAN_TARGETS, "MAX_PLAN_TARGETS", "targets")
    if units * targets > MAX_PLAN_PAIRS:
        raise InputError(f"plan: {units} attacking units x {targets} targets = "
                         f"{units * targets:,} pairs is over the limit of {MAX_PLAN_PAIRS:,} "
                         "(mathhammer.limits.MAX_PLAN_PAIRS)")


def check_values(what: str, count: int) -> None:
    """More values of one option (or items of one API array) than :data:`MAX_OPTION_VALUES`
    are refused before any is read.

    >>> check_values("--rule", 100_000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --rule: 100000 values is over the limit of 100 (...)
    """
    check_count(what, count, MAX_OPTION_VALUES, "MAX_OPTION_VALUES", "values")


def read_limited(path: str | os.PathLike, limit: int, name: str, what: str = "file",
                 shown: str | None = None) -> bytes:
    """The bytes of a file (``-`` is not special), refusing more than ``limit`` of them without
    reading further (so ``/dev/zero`` stops at once). Errors are one-line ValueErrors.

    >>> read_limited("/dev/zero", 10, "MAX_PAGE_BYTES")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: /dev/zero: file is over the limit of 10 bytes (...MAX_PAGE_BYTES)
    """
    shown = str(path) if shown is None else shown
    try:
        with open(path, "rb") as f:  # any path-like, or a device such as /dev/zero
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"{shown}: cannot read: {e.strerror or e}") from None
    return check_bytes(data, limit, name, f"{shown}: {what}")


_Text = TypeVar("_Text", bytes, str)


def check_bytes(data: _Text, limit: int, name: str, what: str) -> _Text:
    """``data`` if it has at most ``limit`` bytes (characters for text)."""
    if len(data) > limit:
        raise InputError(f"{what} is over the limit of {limit} bytes "
                         f"(mathhammer.limits.{name})")
    return data



def loads_toml(text: str, source: str, what: str) -> dict:
    """TOML text parsed. Invalid TOML, or TOML nested too deeply for the parser (a
    RecursionError), is one line ``source: what: detail``.

    >>> loads_toml("x = [[1]]", "x.toml", "invalid TOML")
    {'x': [[1]]}
    >>> loads_toml("x = ", "x.toml", "invalid TOML")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: invalid TOML: Invalid value (at end of document)
    >>> loads_toml("x = " + "[" * 5000 + "]" * 5000, "x.toml", "cannot read rule set")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: x.toml: cannot read rule set: nested too deeply
    """
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{source}: {what}: {one_line(e)}") from None
    except RecursionError:
        raise InputError(f"{source}: {what}: nested too deeply") from None


def read_toml(path: str | os.PathLike, limit: int, name: str, what: str, shown: str | None = None,
              invalid: str | None = None) -> dict:
    """The TOML tables of a file of at most ``limit`` bytes (``name`` is the constant in this
    module), read as UTF-8. Every error is one line naming the file (``shown``, else the path)
    and ``what`` it is: ``... is over the limit``, ``cannot read {what}: ...`` for a file that
    is not UTF-8, and ``{invalid}: ...`` (by default ``cannot read {what}``) for invalid or too
    deeply nested TOML (:func:`loads_toml`).

    >>> read_toml("/dev/null", MAX_RULES_FILE_BYTES, "MAX_RULES_FILE_BYTES", "rule set")
    {}
    >>> read_toml("/dev/zero", 10, "MAX_RULES_FILE_BYTES", "rule set")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: /dev/zero: rule set is over the limit of 10 bytes (...)
    """
    shown = str(path) if shown is None else shown
    data = read_limited(path, limit, name, what, shown)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{shown}: cannot read {what}: {one_line(e)}") from None
    return loads_toml(text, shown, f"cannot read {what}" if invalid is None else invalid)
