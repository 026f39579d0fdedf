"""A command's answer to a file or standard output, and the checks of an output file (the
questions themselves are built and answered by :mod:`mathhammer.app`).

>>> SUFFIX_FORMAT[".md"]
'md'
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import InputError
from .output import warn

#: What an output file's suffix asks for.
SUFFIX_FORMAT = {".txt": "text", ".md": "md", ".csv": "csv", ".html": "html", ".htm": "html",
                 ".json": "json"}


def check_output(path: str, force: bool, option: str = "--output") -> Path:
    """The file an option names, refused when it exists (without ``--force``) or is a
    folder."""
    if not path.strip():
        raise InputError(f"{option}: expected a file name, got {path!r}")
    out = Path(path)
    if out.exists() and not force:
        raise InputError(f"{path}: already exists; use --force to overwrite it")
    if out.is_dir():
        raise InputError(f"{path}: is a folder, expected a file name")
    return out


def check_suffix(path: Path | None, fmt: str) -> None:
    """Warn when the output file's suffix names another format than the one written."""
    named = SUFFIX_FORMAT.get(path.suffix.lower()) if path is not None else None
    if named is not None and named != fmt:
        hint = " (add --json)" if named == "json" and fmt == "text" else ""
        warn(f"--output {str(path)!r}: writing {fmt}, though the suffix says {named}{hint}")


def emit(text: str, path: Path | None) -> None:
    """Print ``text``, or write it to ``path`` and say so on stderr."""
    if path is None:
        click.echo(text, nl=False)
        return
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    click.echo(f"wrote {path}", err=True)


