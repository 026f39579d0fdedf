"""The web server's builds of the compiled stores (:mod:`mathhammer.data.store.compiled`), outside
any query's time limit.

At start the server compiles, in a child process, the store of each installed edition that is
not built. A worker never builds one (:func:`~mathhammer.data.store.compiled.compiled_elsewhere`): a
query that needs a store that is not ready answers 503, and the server says so as JSON with
``Retry-After`` ("compiling the game's data (10e), ready in about a minute"), starting a build
again if none is running (a data file changed, or a damaged store was removed). The page shows
the line and asks again. A build that failed (a full disk, a cache folder that cannot be
written) is its one line instead, until a build is tried again :data:`RETRY_FAILED` seconds
later.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time

#: Seconds the page is told to wait before asking again while a store is compiled.
RETRY_AFTER = 5
#: Seconds after a failed build before a query starts another.
RETRY_FAILED = 30.0
_CODE = ("import sys; from mathhammer.data.store.compiled import compile_main; "
         "sys.exit(compile_main())")


class Compiler:
    """The server's build of the stores: one child process at a time."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.last = ""  # the last line the build wrote (its error, when it failed)
        self.ended = 0.0
        self.lock = threading.Lock()

    def start(self) -> bool:
        """Compile the installed editions' stores that are not built (the child checks; one
        that is built costs it a moment), unless a build is running. True when one started."""
        from ..data.store.data_folder import installed_editions

        with self.lock:
            if self.running():
                return False
            try:
                editions = installed_editions()
            except ValueError:
                return False
            if not editions:
                return False
            self.last = ""
            self.proc = subprocess.Popen([sys.executable, "-c", _CODE, *editions],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, text=True, errors="replace")
            threading.Thread(target=self._echo, args=(self.proc,), daemon=True).start()
            return True

    def _echo(self, proc: subprocess.Popen[str]) -> None:
        """The build's lines on the server's stderr ("compiling the 10e data ..."); the last
        kept."""
        assert proc.stderr is not None
        for line in proc.stderr:
            line = line.rstrip("\r\n").split("\r")[-1]
            if line.strip():
                self.last = line.strip()
                print(self.last, file=sys.stderr, flush=True)
        proc.wait()
        self.ended = time.monotonic()

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def failed(self) -> str | None:
        """The line of the last build, if it failed and is recent."""
        if self.proc is None or self.running() or self.proc.returncode == 0:
            return None
        if time.monotonic() - self.ended > RETRY_FAILED:
            return None
        return self.last or f"the build of the game's data stopped (status {self.proc.returncode})"

    def answer(self, line: str, headers: dict[str, str]) -> tuple[int, str, dict[str, str]]:
        """(status, line, headers) the page is told when a worker found a store not built (its
        ``line``): 503 with Retry-After while a build runs (one is started if none is); the
        line of a build that failed, without Retry-After."""
        failure = self.failed()
        if failure is not None:
            return 503, failure, headers
        self.start()
        return 503, line, {**headers, "Retry-After": str(RETRY_AFTER)}

    def stop(self) -> None:
        """Stop a build that is running (its temporary file is removed by it, or by the next
        build)."""
        proc = self.proc
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)


__all__ = ["RETRY_AFTER", "RETRY_FAILED", "Compiler"]
