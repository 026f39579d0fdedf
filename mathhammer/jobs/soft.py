"""A soft time limit inside a worker process: the computation is interrupted where it is, and
the process lives on with what it had finished reading (the page's quick lane,
:mod:`mathhammer.web.app`; its worker stays warm where stopping it would replace it with one
that starts cold).

:func:`within` arms ``signal.setitimer(ITIMER_REAL)``; when it rings, the handler raises
:class:`SoftLimit` in the computation, a ``BaseException`` that no handler of a query's own
errors (``except Exception``) takes. Where the computation is when it rings matters: an
exception raised in the middle of a module's import (its ``<module>`` code or importlib's
own) leaves behind what that module had registered elsewhere, and one raised in a context
manager's ``__enter__`` or ``__exit__`` (or a finaliser, ``__del__``) leaves the state it guards
half set or half restored (the warnings' filters, the store's "build elsewhere" flag); a second
one raised while the first is on its way out would cut short the ``finally`` blocks it passes.
There the handler does not raise. It rings every :data:`AGAIN` seconds until the computation
has stopped, so one lost on the way (raised in a callback of the garbage collector, which only
reports it, or in a ``__hash__`` a C function calls and then clears) is raised again. The rest
of the code builds a cache or a table whole and then assigns it, so an interrupted one is
simply not kept (:func:`mathhammer.cache.cached` keeps only returned values).

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
import sys
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


def _unwinding() -> bool:
    """Whether a :class:`SoftLimit` raised before is on its way out (a ``finally`` block or an
    ``except`` clause runs as it passes: ``sys.exc_info`` is it, or one raised in its wake)."""
    exc = sys.exc_info()[1]
    while exc is not None:
        if isinstance(exc, SoftLimit):
            return True
        exc = exc.__context__
    return False


def _ring(_signum: int, frame: FrameType | None) -> None:
    if not _ARMED[0]:  # rang as the computation ended: nothing to interrupt
        return
    # it rings again until the computation has stopped: an exception raised in a weakref
    # callback or a finaliser that the garbage collector ran, or in a __hash__ or __eq__ a C
    # function calls and clears after, never reaches the computation
    signal.setitimer(signal.ITIMER_REAL, AGAIN)
    if _guarded(frame) or _unwinding():
        return
    raise SoftLimit


def _swallowed(hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``sys.unraisablehook`` that says nothing of a :class:`SoftLimit` lost in a callback of
    the garbage collector (the alarm rings again), and passes any other to ``hook``."""
    def unraisable(info: Any) -> Any:
        if not isinstance(info.exc_value, SoftLimit):
            return hook(info)
        return None

    return unraisable


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
    before, hook = signal.signal(signal.SIGALRM, _ring), sys.unraisablehook
    sys.unraisablehook = _swallowed(hook)
    try:
        return True, _limited(seconds, fn, args)
    except SoftLimit:
        return False, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        sys.unraisablehook = hook


__all__ = ["AGAIN", "SoftLimit", "within"]
