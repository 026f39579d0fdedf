"""The ``table`` command: attackers (rows) against targets (columns), one number per cell, as
text, Markdown, CSV, HTML or JSON. The grid is built and rendered by
:mod:`mathhammer.report.tables`; this module reads the options, the ``--vary`` strings and the
army lists.

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

from ..data.inline import is_inline_target
from ..errors import InputError, NotCarried
from ..model.limits import check_values
from ..report.specs import Attacker, attacker_of, check_work, split_rules
from ..report.tables import (
    FORMATS,
    METRIC_TEXT,
    METRICS,
    Column,
    Row,
    RowsBy,
    build_grid,
    phase_suffix,
    phases,
    render,
    rows_for,
    standard_targets,
)
from .army import current_data
from .output import CONTEXT, full_fractions_option, given, only_with, refuse_repeats
from .params import as_options, attack_params, options_of, with_params
from .phase import attach_option, with_attachments
from .resolve import (
    SUFFIX_FORMAT,
    attacker,
    check_output,
    check_suffix,
    emit,
    file_rules,
    lists_ruleset,
    switch_on,
    target_and_rules,
    warn_options,
)

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
ALLOW_UNRESOLVED = (("--allow-unresolved",), {
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
    if allow_unresolved and not (army_file or vs_army):
        raise click.UsageError("--allow-unresolved: give the army list with --army FILE (or "
                               "--vs-army FILE)")
    mine = listed_army(army_file, allow_unresolved=allow_unresolved) if army_file else None
    theirs = listed_army(vs_army, allow_unresolved=allow_unresolved) if vs_army else None
    mine, theirs = with_attachments(mine, theirs, attach)
    lists_ruleset(ctx, p, (f"--army {army_file}", mine), (f"--vs-army {vs_army}", theirs))
    if defence:
        columns = _army_columns(mine)
    elif theirs is not None:
        columns = _army_columns(theirs)
    else:
        columns = [Column(*target_and_rules(t, p)) for t in _target_specs(targets)]
    # the attackers: army units (label, unit), then those named on the command line
    listed = theirs if defence else mine
    asked = phases(p["ranged"], p["melee"])
    variants = [("", {})] + [(v, vary_params(v)) for v in vary]

    elsewhere = army_switches(listed) if listed else None

    def rows_of(label: str | None, unit: Any, melee: bool, text: str, extra: dict) -> list[Row]:
        return attacker_rows(label, unit, merged(p, extra), by_weapon=by == RowsBy.WEAPON,
                             vary_text=text,
                             melee=not extra["ranged"] if "ranged" in extra else melee,
                             both=len(asked) > 1,
                             elsewhere=elsewhere if label is not None else None)

    rows: list[Row] = []
    # an army list's units phase by phase; then each attacker named, with all its rows
    for melee in asked:
        for text, extra in variants:
            for label, unit in listed.rows() if listed else []:
                rows += rows_of(label, unit, melee, text, extra)
    for spec in attackers:
        for melee in asked:
            for text, extra in variants:
                rows += rows_of(None, spec, melee, text, extra)
    for row in rows:
        for column in columns:
            check_work(row.profiles_against(column.target), column.target, row.options.rules)
    cells = len(rows) * len(columns)
    if cells >= PROGRESS_CELLS and stderr_is_tty():
        with click.progressbar(length=cells, label="computing", file=sys.stderr) as bar:
            grid = build_grid(rows, columns, metric, title=title or "", progress=bar.update)
    else:
        grid = build_grid(rows, columns, metric, title=title or "")
    emit(render(grid, fmt), out_path)


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


def _target_specs(values: tuple[str, ...]) -> list[str]:
    """The targets of ``--target`` (names split at commas), else the standard targets."""
    if not values:
        return standard_targets()
    out = []
    for v in values:
        if is_inline_target(v):
            out.append(v)
        else:
            out += [s.strip() for s in v.split(",") if s.strip()]
    if not out:
        raise click.UsageError("--target: expected at least one target")
    check_values("--target", len(out))
    return out


def merged(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """The options of a ``--vary`` row: repeatable options add to the command's."""
    p = dict(base)
    for key, value in extra.items():
        p[key] = p[key] + value if key in ("weapons", "named_rules", "abilities",
                                           "enhancements") else value
    return p


def army_switches(army: Any) -> Any:
    """Every switch of an army list's units (``--rule NAME`` switches one on in the rows
    that have it; the others go without it)."""
    from ..data.unit_rules import UnitRules, side_rules, unit_rules

    found = UnitRules()
    for u in army.units:
        found += side_rules(unit_rules(u, current_data()), "attacker", leading=True,
                            bearer=u.name)
    return found


def attacker_rows(label: str | None, unit: Any, p: dict[str, Any], *, melee: bool,
                  by_weapon: bool, both: bool, vary_text: str, elsewhere: Any = None
                  ) -> list[Row]:
    """The rows of one attacker: ``unit`` is a name, file or weapon rows from the command
    line, or a unit of an army list (``label`` its row's name; no weapons for the phase make
    an empty row; ``elsewhere``: the switches of the list's other units, which this row goes
    without)."""
    if label is None:
        try:
            attacking = attacker(unit, p, melee=melee, every_weapon=by_weapon)
        except NotCarried as e:
            raise InputError(f"{e}; if {unit!r} is meant as a target, give each target with "
                             f"-t (-t {unit} -t ..., or -t {unit},...)") from None
    else:  # the army list's unit as listed: its wargear, its models
        try:
            attacking = attrs.evolve(attacker_of(
                unit, melee=melee, data=current_data(), options=options_of(p),
                named_rules=file_rules(p["named_rules"]), pistols=bool(p.get("pistols")),
                detachment=p.get("detachment"), enhancements=p.get("enhancements", ())),
                label=label)
        except NotCarried:
            attacking = Attacker(label, (), unit.cost())
    found, rest = switch_on(attacking.rules, p["named_rules"], elsewhere)
    named, mortal = split_rules(rest)
    named += found.applied
    options = options_of(p)
    if attacking.led:
        options = attrs.evolve(options, led=True)
    warn_options(p, options, attacking, tuple(rest))
    if mortal:
        raise InputError(f"--rule {mortal[0]!r} is a mortal-wound roll: `mathhammer kills` and "
                         "`mathhammer odds` roll it after the attack; `table` compares attacks")
    suffix = phase_suffix(melee, both and not by_weapon)
    if vary_text:
        suffix += f" [{vary_text}]"
    return rows_for(attacking.label, attacking.profiles, by_weapon=by_weapon,
                    options=options, named_rules=named, points=attacking.points,
                    suffix=suffix, per_target=attacking.retarget)


def listed_army(path: str, attach: tuple[str, ...] = (), allow_unresolved: bool = False
                ) -> Any:
    """An army list for the table, with the Leaders ``attach`` names attached; its warnings
    said on standard error. A line that does not resolve is an error, unless
    ``allow_unresolved``: then each is said as left out, with the points read."""
    from ..data.army import load_army
    from .army import points_read, unresolved_lines

    army = load_army(path, data=current_data(), attach=attach)
    for w in army.warnings:
        click.echo(f"warning: {w}", err=True)
    if army.unresolved and not allow_unresolved:
        lines = "; ".join(f"{u.line}: {u.describe()}" for u in army.unresolved[:20])
        more = f" and {len(army.unresolved) - 20} more" if len(army.unresolved) > 20 else ""
        total = army.declared_points if army.declared_points is not None else "?"
        raise InputError(f"{path}: {army.points} / {total} points read; unresolved lines "
                         f"{lines}{more}; see `mathhammer army {path}` (--allow-unresolved "
                         "to use the units read)")
    if army.unresolved:
        for ln in unresolved_lines(army):
            click.echo(f"warning: {ln} (left out)", err=True)
        n = len(army.unresolved)
        click.echo(f"warning: {army.source}: {points_read(army)}; {n} line{'s' * (n != 1)} "
                   "left out (--allow-unresolved)", err=True)
    return army


def _army_columns(army: Any) -> list[Column]:
    """One column per unit of the army (an attached pair is one target), with the rules from
    data that change attacks against it (its own, its Leader's, its detachment's)."""
    from ..data.attached import defending_rules

    return [Column(label, unit.as_target(), defending_rules(unit, current_data()).applied)
            for label, unit in army.rows()]


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
