"""What every command prints besides its answer: one-line errors and warnings on stderr.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(click.Command("x", callback=lambda: warn("two   spaces")), []).stderr
'warning: two spaces\\n'
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click

from ..errors import one_line

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def fail(message: str, where: str = "mathhammer") -> None:
    """Print ``where: error: message`` on one line and exit with status 2."""
    message = message.replace("(see list_rules())", "(see `mathhammer rules`)")
    click.echo(f"{where}: error: {one_line(message)}", err=True)
    sys.exit(2)


def warn(message: str) -> None:
    """One warning line on stderr, once per command."""
    ctx = click.get_current_context(silent=True)
    seen = ctx.find_root().meta.setdefault("mathhammer.warned", set()) if ctx else set()
    if message not in seen:
        seen.add(message)
        click.echo(f"warning: {one_line(message)}", err=True)


def show_warning(message: Any, category: Any, *_args: Any, **_kwargs: Any) -> None:
    """``warnings.showwarning`` for the command line: a library warning is one line."""
    warn(str(message))


def closed_pipe() -> None:
    """The reader of standard output went away (``| head``): stop quietly with status 0."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)


def _full_fractions(ctx: click.Context, _param: Any, value: bool) -> bool:
    if value:
        from ..report.numbers import full_fractions

        ctx.with_resource(full_fractions())  # until the command ends
    return value


def full_fractions_option(f: Any) -> Any:
    """``--full-fractions``: JSON output with every digit of every exact value."""
    return click.option(
        "--full-fractions", is_flag=True, expose_value=False, callback=_full_fractions,
        help="With --json: every digit of every exact value (by default one longer than "
             "1000 characters is given by its size, e.g. \"[9044/9542 digits]\")."
    )(f)
