"""What every command prints besides its answer: one-line errors and warnings on stderr.

>>> from click.testing import CliRunner
>>> CliRunner().invoke(click.Command("x", callback=lambda: warn("two   spaces")), []).stderr
'warning: two spaces\\n'
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Any

import click

from ..errors import MARK, InputError, field_words, marked, one_line, words

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
    """``warnings.showwarning`` for the command line: a library warning is one line, the
    fields it names said as flags (:func:`said`)."""
    warn(said_here(message))


def said_here(e: BaseException | str) -> str:
    """:func:`said` as the running command declares its options."""
    ctx = click.get_current_context(silent=True)
    return said(e, ctx.find_root().command if ctx else None, ctx.command if ctx else None)


#: click names of the options a query names otherwise (its field: the query's attribute and
#: JSON key); every other option is named as its field
QUERY_NAMES = {"ruleset": "rules", "edition": "rules", "army_file": "army",
               "target_unit": "target", "until_p": "until"}


def _options(command: click.Command) -> Any:
    """The options of ``command`` and of its subcommands."""
    yield from (p for p in command.params if isinstance(p, click.Option))
    if isinstance(command, click.Group):
        for name in command.list_commands(click.Context(command)):
            sub = command.get_command(click.Context(command), name)
            if sub is not None:
                yield from _options(sub)


def flag_table(*commands: click.Command | None) -> dict[tuple[str, bool | None], str]:
    """The one table of a query's field -> its flag, from the commands' click options (the
    first command that declares a field names it): ``(field, None)`` its flag,
    ``(field, True/False)`` the flag that sets it so (``("ranged", False)``: ``--melee``).

    >>> t = flag_table(click.Command("x", params=[
    ...     click.Option(["--ranged/--melee", "ranged"]), click.Option(["--rules", "ruleset"]),
    ...     click.Option(["--no-precision", "precision"], is_flag=True, flag_value=False)]))
    >>> t["ranged", None], t["ranged", False], t["rules", None], t["precision", False]
    ('--ranged/--melee', '--melee', '--rules', '--no-precision')
    """
    out: dict[tuple[str, bool | None], str] = {}
    for command in commands:
        for p in _options(command) if command is not None else ():
            name = QUERY_NAMES.get(p.name or "", p.name or "")
            long = [o for o in p.opts if o.startswith("--")] or list(p.opts)
            out.setdefault((name, None), flags(p))
            if p.secondary_opts:
                out.setdefault((name, True), long[0])
                out.setdefault((name, False), p.secondary_opts[0])
            elif p.is_flag and isinstance(p.flag_value, bool):
                out.setdefault((name, p.flag_value), long[0])
    return out


def said(e: BaseException | str, root: click.Command | None,
         command: click.Command | None = None) -> str:
    """A message of the application in the command line's words: each field it names
    (:func:`~mathhammer.errors.field`) said as its flag, as ``command`` declares it, else as
    another command of ``root`` does, else as the field.

    >>> from mathhammer.errors import field
    >>> cmd = click.Command("x", params=[click.Option(["--weapon", "-w", "weapons"])])
    >>> said(InputError(f"{field('weapons')} 'X': no such weapon; {field('models')}"), cmd)
    "--weapon 'X': no such weapon; models"
    """
    text = marked(e)
    if MARK not in text:
        return text
    table = flag_table(command, root)

    def say(name: str, value: bool | None) -> str:
        # a field no command declares: its own name
        return table.get((name, value)) or table.get((name, None)) or field_words(name, value)

    return words(text, say)


def flags(param: click.Parameter) -> str:
    """An option as a player writes it: its long flag, or both of a pair (``--ranged/--melee``).

    >>> flags(click.Option(["--models", "-m"])), flags(click.Option(["--a/--b"]))
    ('--models', '--a/--b')
    """
    opts = [o for o in param.opts if o.startswith("--")] or list(param.opts)
    return "/".join([opts[0], *param.secondary_opts[:1]])


def refuse_repeats(command: click.Command, args: list[str],
                   parent: click.Context | None = None) -> None:
    """An option that takes one value (or a flag of a pair) given more than once is an error:
    click would keep the last without a word (``--models 5 --models 6``, ``--ranged
    --melee``). Options that take several values (``multiple``) may repeat.

    >>> cmd = click.Command("x", params=[click.Option(["--models", "-m"], type=int)])
    >>> refuse_repeats(cmd, ["-m", "5", "--models=6"])
    Traceback (most recent call last):
    ...
    click.exceptions.UsageError: --models: given 2 times; give it once
    """
    ctx = click.Context(command, parent=parent, info_name=command.name,
                        resilient_parsing=True)
    try:
        opts, _rest, order = command.make_parser(ctx).parse_args(list(args))
    except click.UsageError:
        return  # the command's own parse says what is wrong
    from ..limits import check_values

    for p in command.params:  # options given many times, arguments of many values: bounded
        got = opts.get(p.name)
        if isinstance(got, list | tuple) and (getattr(p, "multiple", False) or p.nargs == -1):
            check_values(flags(p) if isinstance(p, click.Option) else p.human_readable_name,
                         len(got))
    seen: dict[str, int] = {}
    for p in order:
        if isinstance(p, click.Option) and not p.multiple and not p.count and p.name:
            seen[p.name] = seen.get(p.name, 0) + 1
    for p in command.params:
        if seen.get(p.name or "", 0) > 1:
            once = "give one of them once" if p.secondary_opts else "give it once"
            raise click.UsageError(f"{flags(p)}: given {seen[p.name]} times; {once}", ctx)


class StrictGroup(click.Group):
    """A group whose commands refuse a repeated option (:func:`refuse_repeats`)."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if cmd is not None and not isinstance(cmd, click.Group):
            refuse_repeats(cmd, rest, ctx)
        return name, cmd, rest


def given(ctx: click.Context, name: str) -> bool:
    """Whether the option ``name`` was given (on the command line, or by the API's call)."""
    from click.core import ParameterSource

    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)


def only_with(ctx: click.Context, needs: dict[str, tuple[str, ...]]) -> None:
    """Options that mean nothing without another are errors when given alone: ``needs`` maps
    an option's name to the names of the options any one of which it needs.

    >>> cmd = click.Command("x", params=[click.Option(["--force"], is_flag=True),
    ...                                  click.Option(["--output"])])
    >>> only_with(cmd.make_context("x", ["--force"]), {"force": ("output",)})
    Traceback (most recent call last):
    ...
    click.exceptions.UsageError: --force: only with --output
    """
    by_name = {p.name: p for p in ctx.command.params}
    for name, others in needs.items():
        if given(ctx, name) and not any(given(ctx, o) for o in others):
            raise click.UsageError(f"{flags(by_name[name])}: only with "
                                   f"{' or '.join(flags(by_name[o]) for o in others)}", ctx)


def closed_pipe() -> None:
    """The reader of standard output went away (``| head``): stop quietly with status 0."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)


def _full_fractions(ctx: click.Context, _param: Any, value: bool) -> bool:
    if value:
        from ..prob.numbers import full_fractions

        ctx.with_resource(full_fractions())  # until the command ends
    return value


def full_fractions_option(f: Any) -> Any:
    """``--full-fractions``: JSON output with every digit of every exact value."""
    return click.option(
        "--full-fractions", is_flag=True, expose_value=False, callback=_full_fractions,
        help="With --json: every digit of every exact value (by default one longer than "
             "1000 characters is given by its size, e.g. \"[9044/9542 digits]\")."
    )(f)


def missing_extra(e: ImportError, command: str, extra: str) -> InputError:
    """The one-line error of a command whose optional extra is not installed."""
    missing = (e.name or "a module").split(".")[0]
    return InputError(f'{command} needs the {extra} extra ({missing} is missing): pip install '
                      f'".[{extra}]"')


def data_for_workers(data: str | None) -> None:
    """Point the worker processes a server starts at ``--data`` (they read it from the
    environment)."""
    if data is not None:
        from ..data.store.data_folder import ENV, data_root

        os.environ[ENV] = str(data_root(data).resolve())


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
