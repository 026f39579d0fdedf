"""The ``mcp`` command: the tool server for AI assistants (:mod:`mathhammer.mcp`, the ``mcp``
extra), on standard input and output.

>>> {p.name: p.default for p in mcp.params}["timeout"]
10.0
"""

from __future__ import annotations

import click

from .output import CONTEXT, data_for_workers, missing_extra


@click.command(context_settings=CONTEXT)
@click.option("--data", "data", metavar="DIR",
              help="The BattleScribe data folder the tools use (default $MATHHAMMER_DATA, "
                   "else the cache); calls never name one.")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=10.0, show_default=True,
              metavar="SECONDS", help="Stop a call that computes longer than this.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes computing calls at the same time.")
def mcp(data: str | None, timeout: float, workers: int) -> None:
    """Serve the calculator to an AI assistant over the Model Context Protocol (stdio).

    Tools: kills, odds, table, salvo, plan, army, search_units, unit_rules (docs/mcp.md).
    Needs the mcp extra: pip install ".[mcp]".

    \b
    Examples:
      mathhammer mcp
      mathhammer mcp --data ~/bsdata --timeout 30
    """
    try:
        import mcp as _sdk  # noqa: F401
        import pebble  # noqa: F401

        from ..mcp.server import serve_stdio
    except ImportError as e:
        raise missing_extra(e, "mcp", "mcp") from None
    data_for_workers(data)
    serve_stdio(timeout=timeout, workers=workers)
