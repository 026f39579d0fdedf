"""The one error type for bad input: a file, a field or a value mathhammer cannot use.

Every such error is an :class:`InputError` (a ``ValueError``) with a one-line message that names
the file, field and value; the command line prints it as ``mathhammer: error: ...`` with exit
status 2. Any other exception is a bug.

>>> raise InputError("units/meq.toml: wounds: expected an integer >= 1, got 0")
Traceback (most recent call last):
...
mathhammer.errors.InputError: units/meq.toml: wounds: expected an integer >= 1, got 0
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

__all__ = ["BattleScribeWarning", "InputError", "NotCarried", "one_line", "suggest"]


class InputError(ValueError):
    """Bad input, said in one line."""


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
