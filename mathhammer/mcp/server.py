"""The Model Context Protocol server of ``mathhammer mcp``: the tools of
:mod:`mathhammer.mcp.tools` with the official SDK (``mcp``, the ``mcp`` extra), over stdio.

Each call is checked against its tool's schema, then computed in a worker process (pebble)
that is stopped past the time limit (as the page's queries are, :data:`TIMEOUT` seconds), so
a query too big for it is a tool error, never a stuck server. Bad arguments, a unit not found,
a bound exceeded: a tool error (``isError``) with the one line the command line prints, in the
arguments' words. The SDK is imported by :func:`make_server`, so this module is importable
without it.

>>> stopped_line(10)  # doctest: +ELLIPSIS
'the query took longer than 10 s and was stopped; ask for fewer turns, models or targets (...'
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from .. import __version__
from ..errors import InputError, one_line
from .answers import answer, error_text, run_job
from .tools import TIMEOUT, TOOLS, check_arguments, tool

#: What the server tells an assistant about itself as it connects.
INSTRUCTIONS = (
    "mathhammer: exact probabilities for Warhammer 40,000 attacks. Name units as a player "
    "would (bundled: MEQ, GEQ, TEQ, Cronos...; search_units finds datasheets of the data); "
    "every probability is an exact fraction with its float; read 'warnings' (a guess, a rule "
    "not modelled) and say them to the player.")


def stopped_line(timeout: float) -> str:
    """The error of a call stopped at the time limit."""
    return (f"the query took longer than {timeout:g} s and was stopped; ask for fewer turns, "
            "models or targets (or start `mathhammer mcp --timeout` with more seconds)")


class Workers:
    """The worker processes computing calls (pebble), each call stopped past ``timeout``
    seconds (its worker is replaced), and the build of the game's data outside any call
    (:class:`mathhammer.jobs.compiling.Compiler`)."""

    def __init__(self, timeout: float = TIMEOUT, workers: int = 1, compile_data: bool = True
                 ) -> None:
        from pebble import ProcessPool

        from ..jobs.compiling import Compiler
        from ..jobs.run import warm

        self.timeout = timeout
        self.compiler = Compiler() if compile_data else None
        if self.compiler is not None:
            self.compiler.start()
        self.pool = ProcessPool(max_workers=workers)
        for _ in range(workers):  # each reads the data once, in the background
            self.pool.schedule(warm, timeout=60)

    async def run(self, kind: str, *args: Any) -> tuple[int, str]:
        """``(status, body or one-line error)`` of a job (:func:`~.tools.run_job`)."""
        import anyio
        from pebble.common import ProcessExpired

        future = self.pool.schedule(run_job, args=(kind, *args), timeout=self.timeout)
        try:
            status, body = await anyio.to_thread.run_sync(future.result)
        except TimeoutError:
            return 503, stopped_line(self.timeout)
        except ProcessExpired as e:
            return 500, f"the worker computing the query stopped ({e}); try a smaller query"
        except anyio.get_cancelled_exc_class():  # the client cancelled the call
            future.cancel()
            raise
        if status == 503 and self.compiler is not None:  # a store is being compiled
            _status, body, _headers = self.compiler.answer(body, {})
        return status, body

    def close(self) -> None:
        if self.compiler is not None:
            self.compiler.stop()
        self.pool.stop()
        self.pool.join(timeout=5)


def make_server(*, timeout: float = TIMEOUT, workers: int = 1, compile_data: bool = True
                ) -> Any:
    """The SDK's low-level server with the tools; its worker processes start with each
    connection (the server's lifespan) and stop with it."""
    from mcp import types
    from mcp.server.lowlevel import Server

    @contextlib.asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[dict[str, Any]]:
        pool = Workers(timeout, workers, compile_data)
        try:
            yield {"workers": pool}
        finally:
            pool.close()

    listed = [types.Tool(name=t.name, description=t.description, input_schema=t.schema,
                         annotations=types.ToolAnnotations(read_only_hint=True,
                                                           destructive_hint=False,
                                                           idempotent_hint=True,
                                                           open_world_hint=False))
              for t in TOOLS]

    async def list_tools(_ctx: Any, _params: Any) -> Any:
        return types.ListToolsResult(tools=listed)

    def failed(line: str) -> Any:
        return types.CallToolResult(content=[types.TextContent(text=line)], is_error=True)

    async def call_tool(ctx: Any, params: Any) -> Any:
        try:
            t = tool(params.name)
            args = check_arguments(t, params.arguments)
            job = t.job(args)
        except (InputError, ValueError) as e:
            return failed(one_line(e))
        status, body = await ctx.lifespan_context["workers"].run(*job)
        if status != 200:
            return failed(error_text(body))
        try:
            data = answer(body)
        except Exception as e:  # a bug: one line, as the command line says it
            return failed(f"mathhammer: internal error: {type(e).__name__}: {one_line(e)} (a "
                          "bug in mathhammer)")
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(data, ensure_ascii=False))],
            structured_content=data)

    return Server("mathhammer", version=__version__, instructions=INSTRUCTIONS,
                  lifespan=lifespan, on_list_tools=list_tools, on_call_tool=call_tool)


def serve_stdio(*, timeout: float = TIMEOUT, workers: int = 1) -> None:
    """Serve the tools on standard input and output until the client closes them."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = make_server(timeout=timeout, workers=workers)

    async def main() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(main)


__all__ = ["INSTRUCTIONS", "Workers", "make_server", "serve_stdio", "stopped_line"]
