"""The web page's lanes: turns at a few worker processes, first come first served, with a
bound on those waiting (one more is refused at once, :class:`LaneFull`) and a way out when the
server stops (:class:`Stopped`).

>>> import asyncio
>>> async def two():
...     lane = Lane(1, limit=0)
...     async with lane.turn():
...         try:
...             async with lane.turn():
...                 return "ran"
...         except LaneFull:
...             return "full"
>>> asyncio.run(two())
'full'
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds between checks that the client of a running query is still there (and that the
#: server is not stopping).
POLL = 0.2


class LaneFull(Exception):
    """A lane's queue is full."""


class Stopped(Exception):
    """The server is stopping."""


class NoAnswer(Exception):
    """A job that did not end within its deadline from the moment it was scheduled (it never
    got a worker, or its worker never answered): it is cancelled and the request answered."""


async def outcome(future: concurrent.futures.Future[T], gone: Callable[[], Awaitable[bool]],
                  *, deadline: float, stop_on_gone: bool,
                  stopping: threading.Event | None = None) -> T | None:
    """The result of a worker's ``future``; None if the client has gone (``gone()``).

    The caller's turn of its lane lasts until the worker is free again, so a lane's count
    of free turns is its workers' truth and no job waits unseen behind an abandoned one in
    the pool's own queue: when the client goes, the job is cancelled (``stop_on_gone``: the
    pool stops its worker) or left to end, and either way this returns only once the future
    is done. Past ``deadline`` (``time.monotonic()``) the job is cancelled and
    :class:`NoAnswer` raised: a request never waits forever. ``stopping`` set raises
    :class:`Stopped`.

    >>> import asyncio
    >>> async def never_answered():
    ...     async def here():
    ...         return False
    ...     try:
    ...         await outcome(concurrent.futures.Future(), here, deadline=0, stop_on_gone=True)
    ...     except NoAnswer:
    ...         return "no answer"
    >>> asyncio.run(never_answered())
    'no answer'
    """
    waiting = asyncio.wrap_future(future)
    waiting.add_done_callback(lambda f: f.cancelled() or f.exception())  # read, here or not
    left = False
    try:
        while not freed(future):
            if future.done():  # cancelled: the pool has not stopped its worker yet
                await asyncio.sleep(POLL)
            else:
                await asyncio.wait({waiting}, timeout=POLL)
            if freed(future):
                break
            if stopping is not None and stopping.is_set():
                future.cancel()
                raise Stopped
            if time.monotonic() > deadline:
                future.cancel()
                if left:
                    return None
                raise NoAnswer
            if not left and await gone():  # the page asked something else since
                left = True
                if stop_on_gone:
                    future.cancel()  # the pool stops its worker and starts another
        if left or future.cancelled():
            return None
        return await waiting
    except asyncio.CancelledError:  # the server is stopping
        future.cancel()
        raise


def freed(future: concurrent.futures.Future) -> bool:
    """Whether the worker of ``future`` is free: it has answered, or it was cancelled and the
    pool has since let it go (a pool marks a cancelled job *notified*,
    ``set_running_or_notify_cancel``, once its worker is stopped or the job dropped).

    >>> f = concurrent.futures.Future()
    >>> f.cancel(), freed(f), f.set_running_or_notify_cancel(), freed(f)
    (True, False, False, True)
    """
    if not future.done():
        return False
    return not future.cancelled() or getattr(future, "_state", None) == "CANCELLED_AND_NOTIFIED"


class Lane:
    """Turns at ``size`` workers, first come first served: :meth:`turn` waits for a free one,
    at most ``limit`` waiting (one more raises :class:`LaneFull` at once); a waiter is let go
    (:class:`Stopped`) when ``stopping`` is set. ``waiting`` counts those not yet running."""

    def __init__(self, size: int, *, limit: int,
                 stopping: threading.Event | None = None) -> None:
        self.free, self.limit = size, limit
        self.stopping = stopping or threading.Event()
        self.queue: collections.deque[asyncio.Future[None]] = collections.deque()

    @property
    def waiting(self) -> int:
        return sum(not f.done() for f in self.queue)

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        if self.stopping.is_set():
            raise Stopped
        if self.free > 0 and not self.queue:
            self.free -= 1
        else:
            if self.waiting >= self.limit:
                raise LaneFull
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.queue.append(waiter)
            try:
                while not (await asyncio.wait({waiter}, timeout=POLL))[0]:
                    if self.stopping.is_set():
                        raise Stopped
            except (asyncio.CancelledError, Stopped):
                if waiter.done() and not waiter.cancelled():  # woken, then let go
                    self._next()
                else:
                    waiter.cancel()
                raise
            finally:
                with contextlib.suppress(ValueError):
                    self.queue.remove(waiter)
        try:
            yield
        finally:
            self._next()

    def _next(self) -> None:
        while self.queue:
            waiter = self.queue.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self.free += 1


__all__ = ["POLL", "Lane", "LaneFull", "NoAnswer", "Stopped", "outcome"]
