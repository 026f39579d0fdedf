"""Memoised functions, all clearable at once with :func:`clear_caches`.

Every cache in mathhammer is a :func:`cached` function, keyed on its arguments: functions of
files take the file's path *and* its modification time and size (or its content), so an edited
file is read again.

>>> calls = []
>>> @cached(maxsize=4)
... def square(x):
...     calls.append(x)
...     return x * x
>>> square(3), square(3), calls
(9, 9, [3])
>>> clear_caches(); square(3), calls
(9, [3, 3])
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_CACHES: list[Any] = []


def cached(maxsize: int = 256) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered for :func:`clear_caches`."""
    def wrap(f: F) -> F:
        memo = lru_cache(maxsize=maxsize)(f)
        _CACHES.append(memo)
        return memo  # type: ignore[return-value]

    return wrap


def clear_caches() -> None:
    """Forget every memoised result (parsed files, dice, rolls, named rules...). The parsed
    rule-set files are kept for the process, as the imported modules are, and read again only
    when one changes (:mod:`mathhammer.model.ruleset`)."""
    for memo in _CACHES:
        memo.cache_clear()
