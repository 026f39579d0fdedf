"""A command's answer to a file or standard output, and the checks of an output file (the
questions themselves are built and answered by :mod:`mathhammer.app`).

>>> SUFFIX_FORMAT[".md"]
'md'
"""

from __future__ import annotations

from pathlib import Path

from .output import (  # check_output, emit: in .output (cli.army uses them), imported from here
    check_output,  # noqa: F401
    emit,  # noqa: F401
    warn,
)

#: What an output file's suffix asks for.
SUFFIX_FORMAT = {".txt": "text", ".md": "md", ".csv": "csv", ".html": "html", ".htm": "html",
                 ".json": "json"}


def check_suffix(path: Path | None, fmt: str) -> None:
    """Warn when the output file's suffix names another format than the one written."""
    named = SUFFIX_FORMAT.get(path.suffix.lower()) if path is not None else None
    if named is not None and named != fmt:
        hint = " (add --json)" if named == "json" and fmt == "text" else ""
        warn(f"--output {str(path)!r}: writing {fmt}, though the suffix says {named}{hint}")
