"""The ``mathhammer`` command group: errors, ``--version``, and commands loaded when used.

Each command lives in the module that :data:`COMMANDS` names and is imported only when it runs
(or when ``--help`` lists them), so ``mathhammer --version`` and ``mathhammer units`` start
quickly. Every error is one line on stderr with exit status 2 (:mod:`mathhammer.errors`);
anything else is a bug, reported as one with status 1 (``--debug`` shows the traceback).

>>> from click.testing import CliRunner
>>> CliRunner().invoke(cli, ["--version"]).output.strip()
'mathhammer 0.1.0'
"""

from __future__ import annotations

import importlib
import sys
import warnings
from typing import Any

import click

from .. import __version__
from ..errors import InputError, one_line
from .output import CONTEXT, StrictGroup, closed_pipe, fail, said, show_warning

#: command name -> "module:attribute" of the click command
COMMANDS = {
    "army": "mathhammer.cli.army:army",
    "atlas": "mathhammer.cli.atlas:atlas",
    "catalogue": "mathhammer.cli.browse:catalogue",
    "data": "mathhammer.cli.army:data",
    "import": "mathhammer.cli.browse:import_",
    "kills": "mathhammer.cli.link:kills",
    "mcp": "mathhammer.cli.mcp:mcp",
    "mortal": "mathhammer.cli.attack:mortal",
    "odds": "mathhammer.cli.link:odds",
    "plan": "mathhammer.cli.link:plan",
    "rules": "mathhammer.cli.browse:rules",
    "serve": "mathhammer.cli.serve:serve",
    "table": "mathhammer.cli.link:table",
    "units": "mathhammer.cli.browse:units",
}


class MainGroup(StrictGroup):
    """The main group: commands imported on first use; errors as one line; a repeated
    option refused (:func:`~mathhammer.cli.output.refuse_repeats`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        where = COMMANDS.get(name)
        if where is None:
            return None
        module, attr = where.split(":")
        return getattr(importlib.import_module(module), attr)

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        prog_name = prog_name or "mathhammer"
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else prog_name
            hint = f" (see {where} --help)" if e.ctx is not None else ""
            fail(f"{e.format_message()}{hint}", where)
        except click.ClickException as e:
            fail(e.format_message())
        except click.Abort:
            fail("aborted")
        except BrokenPipeError:  # e.g. `mathhammer table ... | head`: stop quietly
            closed_pipe()
        except (InputError, OSError, RecursionError) as e:  # bad input: one line, status 2
            fail(str(e) if not isinstance(e, RecursionError) else "input nested too deeply")
        except Exception as e:  # anything else is a bug: say so, status 1
            if "--debug" in (args if args is not None else sys.argv[1:]):
                raise
            click.echo(f"{prog_name}: internal error: {type(e).__name__}: {one_line(str(e))} "
                       "(a bug in mathhammer; run again with --debug for the traceback)",
                       err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        # click turns a closed pipe into exit status 1: catch it first, flush while caught
        try:
            with warnings.catch_warnings():
                # a library warning (data left out) is one line on stderr
                warnings.simplefilter("always", UserWarning)
                warnings.showwarning = show_warning
                rv = super().invoke(ctx)
            sys.stdout.flush()
        except BrokenPipeError:
            closed_pipe()
        except InputError as e:  # the fields it names said as the command's flags
            name = ctx.invoked_subcommand
            text = said(e, self, self.get_command(ctx, name) if name else None)
            if text == str(e):
                raise
            raise InputError(text) from None
        return rv


@click.group("mathhammer", cls=MainGroup, context_settings=CONTEXT)
@click.version_option(__version__, "--version", "-V", prog_name="mathhammer",
                      message="%(prog)s %(version)s")
@click.option("--debug", is_flag=True, help="Show the traceback of an internal error (a bug).")
def cli(debug: bool) -> None:
    """Exact probabilities for Warhammer 40,000 attacks.

    \b
    Examples:
      mathhammer kills "Hexmark Destroyer" MEQ --half-range
      mathhammer odds Cronos GEQ --at-least 5
      mathhammer table "Hexmark Destroyer" Cronos -t GEQ,MEQ,TEQ
      mathhammer plan "Hexmark Destroyer" Cronos -t GEQ -t MEQ --objective models
      mathhammer units --search vehicle
    """


def main(argv: list[str] | None = None) -> None:
    """The console script ``mathhammer``."""
    cli.main(args=argv, prog_name="mathhammer")
