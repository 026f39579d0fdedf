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
import contextlib
import threading
from collections.abc import AsyncIterator

#: Seconds between checks that the client of a running query is still there (and that the
#: server is not stopping).
POLL = 0.2


class LaneFull(Exception):
    """A lane's queue is full."""


class Stopped(Exception):
    """The server is stopping."""


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


__all__ = ["POLL", "Lane", "LaneFull", "Stopped"]
