"""A soft time limit inside a worker process: the computation is interrupted where it is, and
the process lives on with what it had finished reading (the page's quick lane,
:mod:`mathhammer.web.app`; its worker stays warm where stopping it would replace it with one
that starts cold).

:func:`within` arms ``signal.setitimer(ITIMER_REAL)``; when it rings, the handler raises
:class:`SoftLimit` in the computation, a ``BaseException`` that no handler of a query's own
errors (``except Exception``) takes. Where the computation is when it rings matters: an
exception raised in the middle of a module's import (its ``<module>`` code or importlib's
own) leaves behind what that module had registered elsewhere, and one raised in a context
manager's ``__enter__`` or ``__exit__`` (or a finaliser, ``__del__``, where it would be
swallowed) leaves the state it guards half set or half restored (the warnings' filters, the
store's "build elsewhere" flag). There the handler does not raise but rings again
:data:`AGAIN` seconds later, until the computation is out of them. The rest of the code builds
a cache or a table whole and then assigns it, so an interrupted one is simply not kept
(:func:`mathhammer.cache.cached` keeps only returned values).

A worker's jobs run in its main thread (pebble's ``process_tasks``); anywhere else (another
thread, a platform without ``setitimer``) :func:`within` runs the computation without a limit.

>>> import time
>>> within(0.05, time.sleep, 5)
(False, None)
>>> within(5.0, sum, [1, 2])
(True, 3)
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")

#: Seconds before the alarm rings again when it rang in an import or a context's enter/exit.
AGAIN = 0.02
#: Code whose frames the alarm never interrupts (see the module's docstring).
_GUARDED_NAMES = frozenset({"<module>", "__enter__", "__exit__", "__del__"})
_IMPORTLIB = "<frozen importlib"


class SoftLimit(BaseException):  # noqa: N818 - not an error: the query moves on
    """The soft limit of :func:`within` has passed."""


#: Whether the alarm may interrupt: set while a computation of :func:`within` runs only.
_ARMED = [False]


def _guarded(frame: FrameType | None) -> bool:
    """Whether ``frame`` or one that called it, up to :func:`_limited`'s, runs guarded code."""
    while frame is not None and frame.f_code is not _limited.__code__:
        code = frame.f_code
        if code.co_name in _GUARDED_NAMES or code.co_filename.startswith(_IMPORTLIB):
            return True
        frame = frame.f_back
    return False


def _ring(_signum: int, frame: FrameType | None) -> None:
    if not _ARMED[0]:  # rang as the computation ended: nothing to interrupt
        return
    if _guarded(frame):
        signal.setitimer(signal.ITIMER_REAL, AGAIN)
        return
    _ARMED[0] = False
    raise SoftLimit


def _limited(seconds: float, fn: Callable[..., T], args: tuple) -> T:
    _ARMED[0] = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn(*args)
    finally:
        _ARMED[0] = False  # from here on the alarm interrupts nothing
        signal.setitimer(signal.ITIMER_REAL, 0)


def within(seconds: float, fn: Callable[..., T], *args: Any) -> tuple[bool, T | None]:
    """``(True, fn(*args))``, or ``(False, None)`` when it ran past ``seconds`` (counted from
    this call) and was interrupted. An exception of ``fn`` is raised as it is."""
    if (_ARMED[0] or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()):
        return True, fn(*args)
    before = signal.signal(signal.SIGALRM, _ring)
    try:
        return True, _limited(seconds, fn, args)
    except SoftLimit:
        return False, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


__all__ = ["AGAIN", "SoftLimit", "within"]
