"""The ``table`` command: attackers (rows) against targets (columns), one number per cell, as
text, Markdown, CSV, HTML or JSON: the options and the ``--vary`` strings read into a
:class:`~mathhammer.app.queries.Compare`, answered by :mod:`mathhammer.app.answer`, rendered by
:mod:`mathhammer.report.tables`.

>>> vary_params("--rule Enslaved Artifice --reroll-hits ones --half-range")
{'named_rules': ('Enslaved Artifice',), 'reroll_hits': 'ones', 'half_range': True}
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import attrs
import click
from click.core import ParameterSource

from ..app.answer import compare_cells
from ..app.grids import METRIC_TEXT, METRICS, RowsBy, build_grid
from ..app.queries import ArmyList, Compare, Order, Variant
from ..errors import InputError
from ..report.tables import FORMATS, render
from .army import current_data
from .output import CONTEXT, full_fractions_option, given, only_with, refuse_repeats
from .params import as_options, attack_params, changes_of, setup_of, with_params
from .phase import attach_option, check_list_options
from .resolve import SUFFIX_FORMAT, check_output, check_suffix, emit

#: A grid with at least this many cells shows a progress bar (when stderr is a terminal).
PROGRESS_CELLS = 40

_TABLE_HELP = """Compare attackers (rows) against targets (columns): expected kills, damage,
P(destroyed) or kills per 100 points.

ATTACKERS are unit names, unit files or inline weapon rows; each --target (-t, repeatable, or
names separated by commas) is a unit name, file or inline profile (default: the standard
targets, those marked archetype in units/). With --vary each attacker gets one more row per
variant: a string of the options below, e.g.
--vary "--rule Enslaved Artifice" --vary "--reroll-hits ones".

\b
Examples:
  mathhammer table "Hexmark Destroyer" Cronos "Skitarii Marshal" -t GEQ,MEQ,TEQ
  mathhammer table Cronos --by weapon --ranged --melee --metric damage --format md
  mathhammer table "Hexmark Destroyer" --half-range --vary "--rule Enslaved Artifice"
      --vary "--rule Conquering Tyrant" --format html -o hexmark.html
"""


#: ``--allow-unresolved`` of ``table`` and ``plan``, as ``army`` has it
ALLOW_UNRESOLVED: tuple[tuple[str, ...], dict[str, Any]] = (("--allow-unresolved",), {
    "is_flag": True, "help": "Use an --army / --vs-army list whose lines do not all resolve: "
                             "its units without them (each line left out is said)."})


def allow_unresolved_option(f):
    """The ``--allow-unresolved`` option as a decorator."""
    return click.option(*ALLOW_UNRESOLVED[0], **ALLOW_UNRESOLVED[1])(f)


@click.command(context_settings=CONTEXT, help=_TABLE_HELP)
@click.argument("attackers", nargs=-1)
@click.option("--army", "army_file", metavar="FILE",
              help="Rows: every unit of this army list (an attached pair is one row).")
@click.option("--vs-army", "vs_army", metavar="FILE",
              help="Columns: every unit of this army list (instead of --target).")
@attach_option
@allow_unresolved_option
@click.option("--defence", is_flag=True,
              help="Turn it around: the --army units are the columns, ATTACKERS (or the "
                   "--vs-army units) the rows.")
@click.option("--targets", "--target", "-t", "targets", multiple=True, metavar="TARGET[,...]",
              help="A target (column): repeat it, or separate names with commas.")
@click.option("--metric", default="kills", show_default=True, type=click.Choice(METRICS),
              help="What each cell shows: " + "; ".join(f"{k}: {v}" for k, v in
                                                         METRIC_TEXT.items()) + ".")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format (default: from the -o suffix, else text).")
@click.option("--by", type=click.Choice([b.value for b in RowsBy]), default=RowsBy.UNIT.value,
              show_default=True,
              help="One row per attacker, or one per weapon (optional wargear included).")
@click.option("--vary", multiple=True, metavar="OPTIONS",
              help='An extra row per attacker with these options, e.g. "--rule Enslaved '
                   'Artifice" (repeatable).')
@click.option("--title", help="A caption for the table.")
@full_fractions_option
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@with_params(attack_params(table=True))
def table(attackers: tuple[str, ...], targets: tuple[str, ...], metric: str, fmt: str | None,
          by: str, vary: tuple[str, ...], title: str | None, output: str | None, force: bool,
          army_file: str | None, vs_army: str | None, attach: tuple[str, ...], defence: bool,
          allow_unresolved: bool, **p: Any) -> None:
    ctx = click.get_current_context()
    only_with(ctx, {"force": ("output",)})
    out_path = check_output(output, force) if output is not None else None
    if fmt is None:
        fmt = _format_of(out_path)
    if given(ctx, "full_fractions") and fmt != "json":
        raise click.UsageError(f"--full-fractions: only with --format json (the table is "
                               f"{fmt})")
    check_suffix(out_path, fmt)
    if defence and army_file is None:
        raise click.UsageError("--defence: give the defending army with --army FILE")
    if not attackers and army_file is None and not (defence and vs_army):
        raise click.UsageError("expected ATTACKERS, or --army FILE")
    check_list_options(army_file, vs_army, allow_unresolved=allow_unresolved, attach=attach)
    setup = setup_of(p)
    if not given(ctx, "ruleset"):
        setup = attrs.evolve(setup, rules=None)  # an army list's edition, else the default
    q = Compare(attackers=attackers, targets=targets, setup=setup,
                army=ArmyList(path=army_file) if army_file else None,
                vs_army=ArmyList(path=vs_army) if vs_army else None, defence=defence,
                attach=attach, allow_unresolved=allow_unresolved, metric=metric, by=by,
                ranged=p["ranged"], melee=p["melee"],
                variants=tuple(variant_of(v) for v in vary), title=title or "")
    rows, columns, _ = compare_cells(q, current_data())
    cells = len(rows) * len(columns)
    if cells >= PROGRESS_CELLS and stderr_is_tty():
        with click.progressbar(length=cells, label="computing", file=sys.stderr) as bar:
            grid = build_grid(rows, columns, metric, title=title or "", progress=bar.update)
    else:
        grid = build_grid(rows, columns, metric, title=title or "")
    emit(render(grid, fmt, width=None if out_path else terminal_width()), out_path)


def terminal_width() -> int | None:
    """The terminal's width when the table is shown on one ($COLUMNS, or standard output a
    terminal), else None: a table written to a pipe or a file keeps one block."""
    import os
    import shutil

    if os.environ.get("COLUMNS") or sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def stderr_is_tty() -> bool:
    """Whether stderr is a terminal (where a progress bar helps)."""
    return sys.stderr.isatty()


def _format_of(path: Path | None) -> str:
    """The format an output file's suffix asks for (text without a suffix or a file)."""
    if path is None or not path.suffix:
        return "text"
    fmt = SUFFIX_FORMAT.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(SUFFIX_FORMAT)
        raise InputError(f"--output {str(path)!r}: no format writes {path.suffix!r} files "
                         f"(known: {known}); give --format to write it anyway")
    return fmt


_VARY = click.Command("--vary", params=as_options(attack_params(table=False)),
                      add_help_option=False)


def _vary_tokens(text: str, option: str = "--vary") -> list[str]:
    """A ``--vary`` string as click arguments: words after an option up to the next
    ``--option`` are its value (so names need no inner quotes)."""
    try:
        tokens = shlex.split(text)
    except ValueError as e:
        raise InputError(f"{option} {text!r}: {e}") from None
    if not tokens:
        raise InputError(f"{option}: expected options, e.g. \"--rule Enslaved Artifice\", got ''")
    args: list[str] = []
    i = 0
    while i < len(tokens):
        opt = tokens[i]
        if not opt.startswith("-"):
            raise InputError(f"{option} {text!r}: expected an option like --rule, got {opt!r}")
        value = []
        if "=" in opt:
            opt, first = opt.split("=", 1)
            value.append(first)
        i += 1
        while i < len(tokens) and not tokens[i].startswith("--"):
            value.append(tokens[i])
            i += 1
        args += [opt, " ".join(value)] if value else [opt]
    return args


def vary_args(text: str) -> list[tuple[str | None, str, str | None]]:
    """The options of a ``--vary`` string before click reads them (no callback runs, so no
    file is read): ``(option name or None if unknown, flag as given, value or None)``.

    >>> vary_args("--rules house.toml --half-range")
    [('ruleset', '--rules', 'house.toml'), ('half_range', '--half-range', None)]
    """
    by_flag = {o: p for p in _VARY.params for o in [*p.opts, *p.secondary_opts]}
    out: list[tuple[str | None, str, str | None]] = []
    args = _vary_tokens(text)
    i = 0
    while i < len(args):
        flag = args[i]
        param = by_flag.get(flag) if flag.startswith("--") else None
        if param is None and not flag.startswith("--") and len(flag) > 2:
            param = by_flag.get(flag[:2])  # -wNAME: a short option and its value
            out.append((param.name if param else None, flag[:2], flag[2:]))
            i += 1
            continue
        param = by_flag.get(flag)
        takes_value = param is not None and not getattr(param, "is_flag", False)
        value = args[i + 1] if takes_value and i + 1 < len(args) else None
        out.append((param.name if param else None, flag, value))
        i += 2 if value is not None else 1
    return out


def vary_params(text: str, option: str = "--vary") -> dict[str, Any]:
    """The options a ``--vary`` string gives, e.g. ``"--rule Enslaved Artifice"``: words after
    an option up to the next ``--option`` are its value (so names need no inner quotes);
    ``option`` names the string in errors."""
    args = _vary_tokens(text, option)
    if any(a == "--data" or a.startswith("--data=") for a in args):
        raise InputError(f"{option} {text!r}: --data: a row cannot change the data folder; give "
                         "--data to the command")
    try:
        refuse_repeats(_VARY, args)
        ctx = _VARY.make_context(option, args)
    except click.UsageError as e:
        raise InputError(f"{option} {text!r}: {e.format_message()}") from None
    given = {k: v for k, v in ctx.params.items()
             if ctx.get_parameter_source(k) == ParameterSource.COMMANDLINE}
    for key, flag in (("leader", "--leader"), ("target_models", "--target-models")):
        if option == "--vary" and key in given:  # a table's rows share its columns
            raise InputError(f"{option} {text!r}: {flag} changes the targets (the columns), which "
                             "every row shares, so the row would be the same; give it to the "
                             "command")
    return given


def variant_of(text: str, option: str = "--vary") -> Variant:
    """A ``--vary`` (or ``--try``) string as a query's variant, labelled by the string.

    >>> variant_of("--rule Enslaved Artifice --half-range").changes
    (('half_range', True), ('named_rules', ('Enslaved Artifice',)))
    """
    return Variant(text, changes_of(vary_params(text, option)))


def split_spec(spec: str) -> tuple[str, str]:
    """An attacker as typed, and the options written after it (from the first `` --``)."""
    i = spec.find(" --")
    return (spec, "") if i < 0 else (spec[:i].strip(), spec[i:].strip())


def unit_order(spec: str) -> Order:
    """An attacker of ``kills A B -t T`` or ``plan`` as typed, with the options written after
    its name (``"Devastator Squad --half-range"``) as its own."""
    name, extra = split_spec(spec)
    own = changes_of(vary_params(extra, f"attacker {name!r}")) if extra else {}
    for key, flag in (("rules", "--rules"), ("target_models", "--target-models"),
                      ("leader", "--leader")):
        if key in own:
            raise InputError(f"attacker {spec!r}: {flag} is the command's, not one "
                             "unit's; give it once, outside the attacker")
    return Order(name, own)
