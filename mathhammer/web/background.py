"""``mathhammer serve`` in a child process on a free port of 127.0.0.1, for scripts and tests.

>>> with serving() as url:  # doctest: +SKIP
...     urllib.request.urlopen(f"{url}/api/health").status
200
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping

__all__ = ["free_port", "serving"]


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(*options: str, env: Mapping[str, str] | None = None, wait: float = 15.0,
            launch: str = "from mathhammer.cli import main; main()") -> Iterator[str]:
    """Run ``mathhammer serve OPTIONS`` until the block ends; yields its base URL once
    ``/api/health`` answers. ``launch`` is the Python code that runs the command line."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", launch, "serve", "--port", str(port),
                             *options], stdout=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/health", timeout=1)
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(f"mathhammer serve stopped with status {proc.returncode}"
                                       ) from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"mathhammer serve did not answer within {wait} s"
                                       ) from None
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # a server that will not stop is a failure too
            proc.kill()
            raise
