"""The ``serve`` command: the local web page (:mod:`mathhammer.web`, the ``web`` extra).

It lives apart from the other commands because the web page runs them: the page's modules
import :mod:`mathhammer.cli.main`, and only this command imports the page.

>>> {p.name: p.default for p in serve.params}["host"]  # only this machine, unless asked
'127.0.0.1'
"""

from __future__ import annotations

import click

from ..errors import InputError
from .output import CONTEXT, data_for_workers, missing_extra


@click.command(context_settings=CONTEXT)
@click.option("--port", "-p", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 opens the page to the "
                   "network: a warning says so).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests addressed to this host name (repeatable); by default "
                   "only 127.0.0.1, localhost and [::1], which guards against DNS rebinding.")
@click.option("--data", "data", metavar="DIR",
              help="The BattleScribe data folder the page uses (default $MATHHAMMER_DATA, "
                   "else the cache); requests never name one.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
@click.option("--timeout", type=click.FloatRange(0.1, 3600), default=10, show_default=True,
              metavar="SECONDS", help="Stop a query that computes longer than this.")
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Worker processes computing queries at the same time.")
def serve(port: int, host: str, allow_hosts: tuple[str, ...], data: str | None,
          open_browser: bool, timeout: float, workers: int) -> None:
    """Serve a local web page (and its JSON API) for kills, odds and tables.

    Needs the web extra: pip install ".[web]".

    \b
    Examples:
      mathhammer serve --open
      mathhammer serve --port 8080 --timeout 30
      mathhammer serve --data ~/bsdata
    """
    try:
        from ..web.app import serve as run
    except ImportError as e:
        raise missing_extra(e, "serve", "web") from None
    import socket

    data_for_workers(data)

    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        raise InputError(f"--host {host} --port {port}: cannot listen: {e.strerror or e}"
                         ) from None
    run(host, port, open_browser=open_browser, timeout=timeout, workers=workers,
        allow_hosts=list(allow_hosts))
