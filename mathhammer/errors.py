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

from typing import Any

__all__ = ["InputError", "one_line"]


class InputError(ValueError):
    """Bad input, said in one line."""


def one_line(text: Any) -> str:
    """A message on one line: new lines and runs of spaces become one space.

    >>> one_line("two  lines,\\n   one line")
    'two lines, one line'
    """
    return " ".join(str(text).split())
