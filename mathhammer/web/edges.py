"""The server at its edges: what ``mathhammer serve`` allows a connection before the page's
application sees a request, and how it stops.

- A connection has :data:`REQUEST_SECONDS` to send a whole request (line, headers and body)
  from its opening or from the end of the previous answer: one that sends a byte a second
  (slowloris) is closed then, whatever it has sent. An idle connection between requests is
  closed after :data:`KEEP_ALIVE_SECONDS` (uvicorn's ``timeout_keep_alive``).
- At most :data:`MAX_CONNECTIONS` connections are open at once: one more is answered 503 (a
  JSON line with ``Retry-After``) and closed, so the server never runs out of file
  descriptors; uvicorn's ``limit_concurrency`` is set just above it (its plain-text 503
  is never seen).
- A request's line and headers are at most :data:`MAX_HEADER_BYTES` (h11's
  ``max_incomplete_event_size``; more is a 400).
- On SIGTERM or Ctrl-C (:class:`StoppingServer`), every query still waiting or computing is
  answered at once with a JSON 503 "the server is stopping" before the workers stop; a query
  cancelled even so is answered the same (:class:`Stopping`), never with a traceback.

>>> REQUEST_SECONDS, KEEP_ALIVE_SECONDS, MAX_CONNECTIONS
(10.0, 5, 256)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a connection has to send a whole request (line, headers and body).
REQUEST_SECONDS = 10.0
#: Seconds an idle connection is kept open after an answer (uvicorn's timeout_keep_alive).
KEEP_ALIVE_SECONDS = 5
#: Connections open at once (more are answered 503 and closed); also uvicorn's
#: limit_concurrency.
MAX_CONNECTIONS = 256
#: Bytes of a request's line and headers (h11's max_incomplete_event_size).
MAX_HEADER_BYTES = 16_384
#: Seconds a client is asked to wait before trying again (``Retry-After`` of a 503).
RETRY_AFTER = 2
#: What a request gets while the server stops.
STOPPING = "mathhammer: error: the server is stopping; try again when it has started again"


def error_body(line: str) -> bytes:
    """The JSON of an error line as the page reads it (``error`` and ``message``)."""
    from ..jobs.queries import page_words

    return json.dumps({"error": line, "message": page_words(line)}).encode()


def _raw_503(line: str) -> bytes:
    body = error_body(line)
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"retry-after: %d\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
            % (RETRY_AFTER, len(body), body))


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request and a cap on connections."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS:
            transport.write(_raw_503(f"mathhammer: error: the server has {MAX_CONNECTIONS} "
                                     "connections open (the limit); try again in a moment"))
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The request did not arrive whole in time: the connection is closed (a query it
        started is stopped as for a client that went away)."""
        self._deadline = None
        if not self.transport.is_closing():
            if self.cycle is not None and not self.cycle.response_complete:
                self.cycle.disconnected = True
                self.cycle.message_event.set()
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR):
            self._disarm()  # the whole request is in: the answer may take its time

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class Stopping:
    """ASGI middleware: a request whose task is cancelled (the server stopping past its grace
    period) is answered with the JSON 503 "stopping" if no answer was started, and ends
    quietly (no traceback)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except asyncio.CancelledError:
            if not started:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await send({"type": "http.response.start", "status": 503, "headers": [
                        (b"content-type", b"application/json"),
                        (b"retry-after", str(RETRY_AFTER).encode()),
                        (b"connection", b"close")]})
                    await send({"type": "http.response.body", "body": error_body(STOPPING)})


class StoppingServer(uvicorn.Server):
    """uvicorn's server that says it is stopping (``stopping`` is set) before it waits for the
    queries still running, so that they answer the JSON 503 at once."""

    def __init__(self, config: uvicorn.Config, stopping: threading.Event) -> None:
        super().__init__(config)
        self.stopping = stopping

    async def shutdown(self, sockets: Any = None) -> None:
        self.stopping.set()
        await super().shutdown(sockets)


def config(app: Any, host: str, port: int) -> uvicorn.Config:
    """uvicorn's settings for the page: the h11 protocol with the deadlines and caps above;
    queries still computing at shutdown get a second (then their workers are stopped)."""
    return uvicorn.Config(Stopping(app), host=host, port=port, log_level="warning",
                          http=GuardedH11, timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          limit_concurrency=MAX_CONNECTIONS + 1,  # never before our 503
                          h11_max_incomplete_event_size=MAX_HEADER_BYTES,
                          timeout_graceful_shutdown=1, lifespan="on")


__all__ = ["KEEP_ALIVE_SECONDS", "MAX_CONNECTIONS", "MAX_HEADER_BYTES", "REQUEST_SECONDS",
           "RETRY_AFTER", "STOPPING", "GuardedH11", "Stopping", "StoppingServer", "config",
           "error_body"]
