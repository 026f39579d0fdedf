"""The Starlette application of ``mathhammer serve``: the page and its JSON API.

Every computation runs in worker processes (pebble) in two lanes. A request first gets
:data:`QUICK` seconds in the quick lane, first come first served, at most :data:`QUICK_WAITING`
per worker waiting (more get a JSON 503 with ``Retry-After`` at once); one that needs longer
moves to the long lane (its own workers, a time limit, at most :data:`LONG_WAITING` per worker
waiting, more get 503 at once). So a burst of heavy queries delays a cheap one by at most
``QUICK_WAITING`` seconds, or it is told to come back.

The quick lane's limit is soft, kept inside the worker (:func:`mathhammer.jobs.soft.within`,
counted from when the worker starts the job): the computation is interrupted and the worker
answers :data:`~mathhammer.jobs.run.MOVED`, and lives on, warm, with what it had read (a
replaced worker would start cold, and its first query, slower, could pass the limit in turn).
The pool's own time limit stays behind it, :data:`QUICK_BACKSTOP` seconds later (a call that
does not return): that stops the worker and replaces it, and the query moves too. An answer
that moved says so in its ``Server-Timing`` header (``moved;dur=``: its milliseconds in the
quick lane).

A query that runs past the long lane's limit is stopped (its worker is replaced) and answered
with one line; a query whose client has gone (the page aborts a query it no longer needs) is
stopped too in the long lane, and left to end in the quick lane (within :data:`QUICK` seconds;
its worker stays warm). Listings that are already in memory (bundled units, named rules, the
options) are answered in the server process. Request bodies are limited to
:data:`MAX_BODY_BYTES`; what a connection may send, and how the server stops, is
:mod:`mathhammer.web.edges`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import webbrowser
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pebble import ProcessPool
from pebble.common import ProcessExpired
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..app.grids import METRICS
from ..app.queries import QUERIES
from ..app.schema import json_schema
from ..app.setup import editions
from ..errors import InputError, one_line
from ..jobs.choices import options_schema, rules_json, units_json
from ..jobs.compiling import Compiler
from ..jobs.queries import PLAN_LIMITS, page_words
from ..jobs.run import MOVED, job, warm
from .edges import RETRY_AFTER, STOPPING
from .lanes import Lane, LaneFull, NoAnswer, Stopped, outcome

STATIC = Path(__file__).resolve().parent / "static"
#: Seconds a request may compute before it is stopped.
TIMEOUT = 10.0
#: Host names a request may be addressed to by default (the Host header; guards against DNS
#: rebinding): this machine's loopback names.
LOOPBACK = ["127.0.0.1", "localhost", "[::1]"]
#: Seconds a query computes in the quick lane before it moves to the long lane (a soft limit:
#: the worker interrupts it and stays warm).
QUICK = 1.0
#: Seconds past :data:`QUICK` after which the quick lane's pool stops a job that has not
#: stopped itself (a call that does not return, a stuck worker), replacing its worker.
QUICK_BACKSTOP = 5.0
#: Queries waiting for the long lane, per worker, before more are refused (HTTP 503).
LONG_WAITING = 2
#: Queries waiting for the quick lane, per worker, before more are refused (HTTP 503): a
#: query waits for at most this many seconds of others' quick work.
QUICK_WAITING = 4
#: Seconds a job may wait for a worker to take it (a worker stopped for an abandoned query is
#: replaced and reads the data first) before the request is answered 503 instead.
START_GRACE = 30.0
#: Bytes of a request body (a JSON object; an army list's text is at most 5 MB too).
MAX_BODY_BYTES = 5_000_000


class _TooLarge(Exception):
    """A request body over :data:`MAX_BODY_BYTES`."""


class _Gone(Exception):
    """The client went away (or was too slow: :mod:`mathhammer.web.edges`) before its request
    body arrived whole."""


#: The header of a 503: when to try again.
RETRY = {"Retry-After": str(RETRY_AFTER)}

#: Characters of an error line the page is sent (one that echoes a huge input is cut).
MAX_ERROR_CHARS = 1000


def _error(status: int, line: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """``{"error": the command line's line, "message": the same in the page's words}``."""
    if len(line) > MAX_ERROR_CHARS:
        line = f"{line[:MAX_ERROR_CHARS - 40]}… [{len(line)} characters in all]"
    return JSONResponse({"error": line, "message": page_words(line)}, status_code=status,
                        headers=headers)


async def _body(request: Request) -> bytes:
    """The request body, refused past :data:`MAX_BODY_BYTES` without reading further."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY_BYTES:
        raise _TooLarge
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise _TooLarge
            chunks.append(chunk)
    except ClientDisconnect:
        raise _Gone from None
    return b"".join(chunks)


async def _query(request: Request) -> Any:
    """The JSON query object of a POST."""
    raw = await _body(request)
    try:
        return json.loads(raw)
    except ValueError:
        raise InputError("the request body is not JSON") from None
    except RecursionError:
        raise InputError("the request body is nested too deeply") from None


def _warm() -> None:
    """Load what every query reads, so forked workers start with it: the bundled units, named
    rules and rule sets, and the modules a look at the data imports (the data itself is read
    by each worker as it starts, :func:`mathhammer.jobs.run.warm`)."""
    import importlib

    from ..data.rules.named import list_rules
    from ..model.ruleset import load_ruleset

    units_json()
    list_rules()
    for name in editions():
        load_ruleset(name)
    for module in ("mathhammer.data.store.index", "mathhammer.data.rules.unit_rules",
                   "mathhammer.data.army", "mathhammer.report.answer_json"):
        with contextlib.suppress(ImportError):
            importlib.import_module(module)


def create_app(*, timeout: float = TIMEOUT, workers: int = 2,
               allowed_hosts: list[str] | None = None, open_url: str | None = None,
               stopping: threading.Event | None = None) -> Starlette:
    """The application. ``allowed_hosts`` guards against DNS rebinding (default: loopback
    names only); ``open_url`` is opened in a browser once the server is up; once
    ``stopping`` is set every query waiting or computing is answered 503 "stopping"."""
    state: dict[str, Any] = {}
    stopping = stopping or threading.Event()
    quick = Lane(workers, limit=QUICK_WAITING * workers, stopping=stopping)
    long = Lane(workers, limit=LONG_WAITING * workers, stopping=stopping)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        state["compiler"] = Compiler()  # the game's data compiled in the background, not in a query
        state["compiler"].start()
        _warm()
        # every worker reads the data once as it starts (api.warm); the quick lane's workers
        # start at once, in the background: the page itself is answered from memory meanwhile
        state["quick"] = ProcessPool(max_workers=workers)
        state["long"] = ProcessPool(max_workers=workers, initializer=warm)
        for _ in range(workers):
            state["quick"].schedule(job, args=("warm",), timeout=60)
        if open_url:
            asyncio.get_running_loop().call_later(0.3, webbrowser.open, open_url)
        try:
            yield
        finally:
            state["compiler"].stop()
            for pool in (state["quick"], state["long"]):
                pool.stop()
            for pool in (state["quick"], state["long"]):
                pool.join(timeout=5)

    async def compute(request: Request, pool: str, seconds: float, kind: str,
                      args: tuple, soft: float | None = None) -> tuple[int, str] | None:
        """The job in a worker of ``pool`` (stopped by the pool past ``seconds``; MOVED past
        ``soft``); None if the client went away. The lane's turn lasts until the worker is
        free (lanes.outcome): in the long lane an abandoned job is stopped, in the quick lane
        left to end (within QUICK seconds; its worker stays warm)."""
        if await request.is_disconnected():  # while it waited for its turn
            return None
        future = state[pool].schedule(job, args=(kind, *args), timeout=seconds,
                                      kwargs={} if soft is None else {"soft": soft})
        return await outcome(future, request.is_disconnected, stop_on_gone=pool == "long",
                             deadline=time.monotonic() + seconds + START_GRACE,
                             stopping=stopping)

    async def run(request: Request, kind: str, *args: Any) -> Response:
        start = time.perf_counter()
        # a time limit of QUICK or less: the quick lane is the only one, its limit the pool's
        soft = QUICK if timeout > QUICK else None
        moved = None  # milliseconds in the quick lane of a query that moved
        try:
            try:
                async with quick.turn():
                    answer = await compute(request, "quick", timeout if soft is None else
                                           soft + QUICK_BACKSTOP, kind, args, soft)
            except LaneFull:
                return _error(503, f"mathhammer: error: the server is busy: {quick.waiting} "
                                   "queries are waiting; try again in a moment (or start "
                                   "`mathhammer serve` with more --workers)", RETRY)
            except TimeoutError:  # the backstop stopped it (its worker replaced)
                if soft is None:
                    raise
                answer = MOVED
            if answer == MOVED:
                moved = (time.perf_counter() - start) * 1000
                try:
                    async with long.turn():
                        answer = await compute(request, "long", timeout, kind, args)
                except LaneFull:
                    return _error(503, f"mathhammer: error: the server is busy with "
                                       f"{long.waiting + workers} long queries; try again when "
                                       "one has ended (or start `mathhammer serve` with more "
                                       "--workers)", RETRY)
        except Stopped:
            return _error(503, STOPPING, RETRY)
        except TimeoutError:
            return _error(503, f"mathhammer: error: the query took longer than {timeout:g} s and "
                               "was stopped; ask for fewer turns, models or targets (or start "
                               "`mathhammer serve --timeout` with more seconds)")
        except NoAnswer:
            return _error(503, "mathhammer: error: no worker answered the query in time (the "
                               "server is overloaded or a worker is stuck); try again")
        except ProcessExpired as e:
            return _error(500, f"mathhammer: error: the worker computing the query stopped "
                               f"({e}); try a smaller query")
        if answer is None:
            return Response(status_code=499)
        status, body = answer
        ms = (time.perf_counter() - start) * 1000
        headers = {"Server-Timing": f"compute;dur={ms:.1f}"
                                    + ("" if moved is None else f", moved;dur={moved:.1f}")}
        if status == 503:  # a store it needs is being compiled (mathhammer.jobs.compiling)
            status, body, headers = state["compiler"].answer(body, headers)
        if status != 200:
            return _error(status, body, headers)
        return Response(body, media_type="application/json", headers=headers)

    def query(kind: str):
        async def endpoint(request: Request) -> Response:
            try:
                body = await _query(request)
            except ValueError as e:
                return _error(400, f"mathhammer: error: {e}")
            return await run(request, "query", kind, body)

        return endpoint

    async def index(_request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def health(_request: Request) -> Response:
        return JSONResponse({"mathhammer": __version__, "timeout": timeout})

    async def options(_request: Request) -> Response:
        return JSONResponse({"options": options_schema(), "editions": editions(),
                             "metrics": list(METRICS), "plan_limits": PLAN_LIMITS})

    async def units(_request: Request) -> Response:
        return JSONResponse({"units": units_json()})

    async def rules(request: Request) -> Response:
        return JSONResponse({"rules": rules_json(request.query_params.getlist("faction"))})

    async def unit(request: Request) -> Response:
        q = request.query_params
        return await run(request, "unit", q.get("name", ""), q.get("rules") or None)

    async def search(request: Request) -> Response:
        q = request.query_params
        return await run(request, "search", q.get("q", ""), q.get("rules") or None,
                         q.get("faction") or None)

    async def factions(request: Request) -> Response:
        return await run(request, "factions", request.query_params.get("rules") or None)

    async def schema(request: Request) -> Response:
        kind = request.query_params.get("query", "")
        if kind not in QUERIES:
            return _error(400, f"mathhammer: error: query: expected one of "
                               f"{', '.join(QUERIES)}, got {kind!r}")
        return JSONResponse(json_schema(kind))

    routes = [
        Route("/", index),
        Route("/api/health", health),
        Route("/api/options", options),
        Route("/api/units", units),
        Route("/api/unit", unit),
        Route("/api/rules", rules),
        Route("/api/search", search),
        Route("/api/factions", factions),
        Route("/api/schema", schema),
        *(Route(f"/api/{kind}", query(kind), methods=["POST"]) for kind in QUERIES),
        Route("/api/plan/lists", query("plan_lists"), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    async def too_large(_request: Request, _exc: Exception) -> Response:
        return _error(413, f"mathhammer: error: the request body is over the limit of "
                           f"{MAX_BODY_BYTES} bytes (mathhammer.web.app.MAX_BODY_BYTES)")

    async def gone(_request: Request, _exc: Exception) -> Response:
        return Response(status_code=499)  # nobody reads it: the connection is closed

    async def too_deep(_request: Request, _exc: Exception) -> Response:
        return _error(400, "mathhammer: error: the request is nested too deeply")

    async def failed(_request: Request, exc: Exception) -> Response:
        if isinstance(exc, ValueError | TypeError):
            return _error(400, f"mathhammer: error: {one_line(exc)}")
        return _error(500, f"mathhammer: internal error: {type(exc).__name__}: "
                           f"{one_line(exc)}")

    hosts = LOOPBACK if allowed_hosts is None else allowed_hosts
    handlers = {_TooLarge: too_large, _Gone: gone, RecursionError: too_deep, Exception: failed}
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers,
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])


def is_loopback(host: str) -> bool:
    """Whether a ``--host`` address is this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False,
          timeout: float = TIMEOUT, workers: int = 2, allow_hosts: list[str] | None = None
          ) -> None:
    """Run the server until Ctrl-C. Requests must be addressed (Host header) to a loopback
    name or one of ``allow_hosts``, wherever it listens."""
    import sys

    from . import edges

    hosts = [*LOOPBACK, *(allow_hosts or [])]
    wildcard = host in ("0.0.0.0", "::", "")
    shown = host if ":" not in host else f"[{host.strip('[]')}]"
    if not wildcard and not is_loopback(host):
        hosts.append(shown)  # the address asked for explicitly ("[addr]" for IPv6)
    if not is_loopback(host):
        where = (f"http://127.0.0.1:{port}/ here; from other machines http://NAME:{port}/ "
                 "once --allow-host NAME is given" if wildcard else f"http://{shown}:{port}/")
        print(f"mathhammer: warning: --host {host} serves the page, with no password and no "
              f"encryption, to every machine that can reach this one ({where}); requests are "
              f"answered only when addressed to {', '.join(dict.fromkeys(hosts))}",
              file=sys.stderr, flush=True)
    url = f"http://{'127.0.0.1' if wildcard else shown}:{port}/"
    stopping = threading.Event()
    app = create_app(timeout=timeout, workers=workers, allowed_hosts=hosts,
                     open_url=url if open_browser else None, stopping=stopping)
    listening = f" (listening on every address, port {port})" if wildcard else ""
    print(f"mathhammer: serving {url}{listening} (Ctrl-C stops)", flush=True)
    # on Ctrl-C or SIGTERM, queries still waiting or computing answer 503 "stopping" at once
    edges.StoppingServer(edges.config(app, host, port), stopping).run()


__all__ = ["LOOPBACK", "LONG_WAITING", "MAX_BODY_BYTES", "QUICK", "QUICK_BACKSTOP",
           "QUICK_WAITING", "STATIC", "TIMEOUT", "Lane", "LaneFull", "Stopped", "create_app",
           "is_loopback", "serve"]
