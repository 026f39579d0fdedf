"""The one error type for bad input: a file, a field or a value mathhammer cannot use.

Every such error is an :class:`InputError` (a ``ValueError``) with a one-line message that names
the file, field and value; the command line prints it as ``mathhammer: error: ...`` with exit
status 2. Any other exception is a bug.

>>> raise InputError("units/meq.toml: wounds: expected an integer >= 1, got 0")
Traceback (most recent call last):
...
mathhammer.errors.InputError: units/meq.toml: wounds: expected an integer >= 1, got 0

A message about a query names its fields with :func:`field`, and each face says a field in its
words (:func:`words`): the command line its flag, the page, the tool server and the library
the field itself (the query's attribute, its JSON key):

>>> e = InputError(f"{field('pistols')} has no effect with {field('ranged', False)}")
>>> str(e)
'pistols has no effect with ranged=false'
>>> words(marked(e), lambda name, value: "--" + name if value is None else "--melee")
'--pistols has no effect with --melee'
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["BattleScribeWarning", "InputError", "InputWarning", "NotCarried", "field",
           "marked", "one_line", "suggest", "words"]

#: What marks a field in a message (a control character no message or value writes).
MARK = "\x1f"

#: How a face says a field: ``(name, value)`` -> its words (``value``: a switch's side, or None).
Say = Callable[[str, "bool | None"], str]


def field(name: str, value: bool | None = None) -> str:
    """A query's field ``name`` in a message, marked for each face to say in its words
    (``value``: which side of a switch, e.g. ``ranged`` false: the command line's ``--melee``).

    >>> words(f"{field('turns')}: expected 1 to 20")
    'turns: expected 1 to 20'
    """
    side = "" if value is None else "=true" if value else "=false"
    return f"{MARK}{name}{side}{MARK}"


def field_words(name: str, value: bool | None) -> str:
    """A field as the query names it: ``name``, or ``name=true`` / ``name=false``."""
    return name if value is None else f"{name}={'true' if value else 'false'}"


def words(text: str, say: Say = field_words) -> str:
    """``text`` with its marked fields (:func:`field`) said by ``say`` (default: the field's
    name, as the page, the tool server and the library say it).

    >>> words("no fields"), words(f"{field('reanimation', True)}: only with {field('turns')}")
    ('no fields', 'reanimation=true: only with turns')
    """
    parts = text.split(MARK)
    if len(parts) % 2 == 0:  # a stray mark: the text as it is
        return text
    out = parts[::2]
    for i, ref in enumerate(parts[1::2]):
        name, _, side = ref.partition("=")
        out[i] += say(name, None if not side else side == "true")
    return "".join(out)


def marked(e: BaseException | str) -> str:
    """An error's or a warning's message with its fields still marked, for a face to say in
    its words (:func:`words`); any other exception's message as it is."""
    return e if isinstance(e, str) else getattr(e, "marked", None) or str(e)


class _Marked(Exception):
    """A message whose fields are marked: said in the fields' own words (``str``), and kept
    marked (``marked``) for a face that says them otherwise."""

    def __init__(self, *args: Any) -> None:
        if args and isinstance(args[0], str) and MARK in args[0]:
            self.marked = args[0]
            args = (words(args[0]), *args[1:])
        super().__init__(*args)


class InputError(_Marked, ValueError):
    """Bad input, said in one line."""


class InputWarning(_Marked, UserWarning):
    """A guess said out loud about a query, in one line (its fields marked: :func:`field`)."""


class NotCarried(InputError):
    """A unit does not carry what was asked: no weapons for the phase, or no weapon of the name
    picked. The one error a unit's resolution may pass over (the other unit of an attached pair
    may carry it; an army list's unit with no weapons for the phase is an empty row); any other
    error in a unit's resolution reaches the player.

    >>> isinstance(NotCarried("Cronos has no melee weapons"), InputError)
    True
    """


class BattleScribeWarning(UserWarning):
    """Something in BattleScribe data was left out (a neighbour file that cannot be read, a
    weapon the importer cannot read); the message says what. (Defined here, not in
    :mod:`mathhammer.data.bsdata`, so that a unit read from the compiled store warns without
    importing the BattleScribe reader.)"""


def one_line(text: Any) -> str:
    """A message on one line: new lines and runs of spaces become one space.

    >>> one_line("two  lines,\\n   one line")
    'two lines, one line'
    """
    return " ".join(str(text).split())


def suggest(word: str, known: Iterable[str], n: int = 3) -> str:
    """The hint after an unknown ``word``: the closest of ``known`` (up to ``n``), else all of
    them.

    >>> suggest("hitmod", ["hit_mod", "wound_mod"]), suggest("zzz", ["hit_mod", "wound_mod"])
    ('did you mean hit_mod?', 'known: hit_mod, wound_mod')
    """
    known = list(known)
    close = difflib.get_close_matches(word, known, n=n)
    return f"did you mean {', '.join(close)}?" if close else f"known: {', '.join(known)}"
