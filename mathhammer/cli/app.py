"""The attack commands ``kills``, ``odds``, ``mortal`` and ``table``. Their shared options are
in :mod:`mathhammer.cli.params`, attackers and targets are resolved by
:mod:`mathhammer.cli.resolve`, the group, its errors and ``--version`` are in
:mod:`mathhammer.cli.main`, and the reports are built by :mod:`mathhammer.report`.

Why one module: the four commands share their help texts' conventions, the ``table`` grid
and ``--vary`` machinery, and the output of one query in three forms (text, JSON, exact).

>>> from click.testing import CliRunner
>>> from mathhammer.cli import cli
>>> r = CliRunner().invoke(cli, ["odds", "2 | 2+ | 4 | 0 | 1", "T4 Sv7+ W1", "--at-least", "1",
...                              "--exact"])
>>> r.output  # each attack kills with 5/6 * 1/2 = 5/12; P(>= 1 of 1 model) = 1 - (7/12)**2
'95/144\\n'
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
from ..engine.sequence import mortal_roll
from ..errors import InputError
from ..report.core import (
    MortalQuery,
    kills_json,
    kills_text,
    mortal_json,
    mortal_text,
    sequence_json,
    sequence_text,
)
from ..report.numbers import (
    as_float,
    fraction,
    is_long,
    percent,
    readable_fraction,
    short_fraction,
    to_json,
)
from ..report.tables import FORMATS, METRIC_TEXT, METRICS, Column, Row, build_grid, render
from .army import data_option
from .output import CONTEXT, warn

#: A grid with at least this many cells shows a progress bar (when stderr is a terminal).
from .params import Count, as_options, attack_params, options_of, sequence_params, with_params
from .resolve import (
    Attacker,
    build_query,
    check_options,
    check_output,
    check_work,
    emit,
    resolve_attacker,
    resolve_target,
    split_rules,
    stderr_is_tty,
)

PROGRESS_CELLS = 40
_SUFFIX_FORMAT = {".txt": "text", ".md": "md", ".csv": "csv", ".html": "html", ".htm": "html",
                  ".json": "json"}



# --- the commands --------------------------------------------------------------------------------


_KILLS_HELP = """Expected hits, wounds, damage and kills of ATTACKER against TARGET, with the
exact distribution of models destroyed.

ATTACKER is a unit name (a unique prefix is enough; see `mathhammer units`), a unit file,
"CATALOGUE.cat:Unit name" (BattleScribe data), or inline weapon rows as printed on a
datasheet, models first and rows separated by ';'.
TARGET is a unit name or file, or an inline profile like "5x T4 Sv3+ W2 4++ FNP5+ INFANTRY".

With --turns N the same attack is made N times, the target's state carried (Reanimation
Protocols between turns for a target that has them): the report gives P(destroyed) after each
step and the kills counted from Starting Strength. A --rule that is a mortal-wound roll
(e.g. "Disintegration Beams") is rolled after the attack (after each attack, with --turns).

\b
Examples:
  mathhammer kills "Hexmark Destroyer" MEQ --half-range
  mathhammer kills "Hexmark Destroyer" "Necron Warriors" --turns 3
  mathhammer kills "Necron Warriors" MEQ --rule "Disintegration Beams"
  mathhammer kills Cronos GEQ --weapon "spirit vortex" --models 2 --rule "Dark Harvest"
  mathhammer kills "10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1" "5x T4 Sv3+ W2 INFANTRY"
  mathhammer kills "Skitarii Marshal" TEQ --melee --json
"""


@click.command(context_settings=CONTEXT, help=_KILLS_HELP)
@click.argument("units", nargs=-1, metavar="ATTACKER TARGET")
@with_params(attack_params(table=False) + sequence_params())
@click.option("--json", "as_json", is_flag=True,
              help="Print every distribution as JSON (exact fractions and floats).")
@click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE.png|.svg",
              help="Draw the kill distribution (needs matplotlib: pip install 'mathhammer[plot]').")
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the --plot or --output file if it exists.")
def kills(units: tuple[str, ...], as_json: bool, plot: str | None, output: str | None,
          force: bool, **p: Any) -> None:
    query = build_query(units, p)
    plot_path = check_output(plot, force, "--plot") if plot is not None else None
    out_path = check_output(output, force) if output is not None else None
    _check_suffix(out_path, "json" if as_json else "text")
    if plot_path is not None and out_path is not None and \
            plot_path.resolve() == out_path.resolve():
        raise InputError(f"--plot and --output are the same file {plot!r}: the report would "
                         "overwrite the plot")
    if plot_path is not None:
        from ..report.plot import check_matplotlib, check_suffix

        check_suffix(plot_path)
        check_matplotlib()
    result = query.run()
    timeline = query.run_sequence() if query.is_sequence else None
    if plot_path is not None:
        from ..report.plot import plot_kills

        plot_kills(query, result if timeline is None else _Kills(timeline.kills), plot_path)
        click.echo(f"wrote {plot}", err=True)
    if timeline is not None:
        text = (to_json(sequence_json(query, timeline, result)) if as_json
                else sequence_text(query, timeline, result))
    else:
        text = to_json(kills_json(query, result)) if as_json else kills_text(query, result)
    emit(text, out_path)


@attrs.frozen
class _Kills:
    """What the plot draws: a kill distribution."""

    kills: Any


_ODDS_HELP = """One exact probability: of at least K kills (or exactly K, at most K, or the
target unit destroyed), as a fraction and a percentage.

ATTACKER and TARGET are as for `mathhammer kills`. With --turns N (or a --rule that is a
mortal-wound roll) the probability is of the state at the end: P(destroyed by the end), P(at
least K models destroyed from Starting Strength by the end).

\b
Examples:
  mathhammer odds "Hexmark Destroyer" MEQ --half-range --at-least 2
  mathhammer odds "Hexmark Destroyer" "Necron Warriors" --turns 3 --at-least 5
  mathhammer odds Cronos "Necron Warriors" --destroy --target-models 10
  mathhammer odds Cronos MEQ --of damage --at-least 4 --exact
"""


@click.command(context_settings=CONTEXT, help=_ODDS_HELP)
@click.argument("units", nargs=-1, metavar="ATTACKER TARGET")
@click.option("--at-least", type=click.IntRange(0), metavar="K", help="P(at least K).")
@click.option("--kills", "--exactly", "exactly", type=click.IntRange(0), metavar="K",
              help="P(exactly K).")
@click.option("--at-most", type=click.IntRange(0), metavar="K", help="P(at most K).")
@click.option("--destroy", is_flag=True, help="P(the target unit is destroyed).")
@click.option("--of", "counter", default="kills", show_default=True,
              type=click.Choice(["kills", "damage", "hits", "wounds", "unsaved", "mortal",
                                 "attacks"]),
              help="What K counts.")
@click.option("--exact", is_flag=True, help="Print only the fraction (for scripts).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@with_params(attack_params(table=False) + sequence_params())
def odds(units: tuple[str, ...], at_least: int | None, exactly: int | None,
         at_most: int | None, destroy: bool, counter: str, exact: bool, as_json: bool,
         **p: Any) -> None:
    asked = [(n, v) for n, v in (("--at-least", at_least), ("--kills", exactly),
                                 ("--at-most", at_most), ("--destroy", destroy or None))
             if v is not None]
    if len(asked) != 1:
        raise click.UsageError("give exactly one of --at-least K, --kills K, --at-most K, "
                               f"--destroy (got {', '.join(n for n, _ in asked) or 'none'})")
    if destroy and counter != "kills":
        raise click.UsageError("--destroy is about the whole unit; drop --of")
    query = build_query(units, p)
    if query.is_sequence:
        if counter != "kills":
            raise click.UsageError(f"--of {counter}: with --turns or a mortal-wound rule only "
                                   "kills (from Starting Strength) are counted")
        timeline = query.run_sequence()
        pmf, destroyed, end = timeline.kills, timeline.destroyed[-1], " by the end"
    else:
        result = query.run()
        pmf, destroyed, end = getattr(result, counter), result.destroyed, ""
    if destroy:
        prob, what = destroyed, "destroyed"
    elif at_least is not None:
        prob, what = pmf.at_least(at_least), f"{counter} >= {at_least}"
    elif at_most is not None:
        prob, what = pmf.at_most(at_most), f"{counter} <= {at_most}"
    else:
        prob, what = pmf.prob(exactly), f"{counter} = {exactly}"
    what += end
    if as_json:
        data = {"query": f"P({what})", "p": fraction(prob), "p_float": as_float(prob)}
        if query.is_sequence:
            data |= sequence_json(query, timeline, query.run())
        else:
            data |= kills_json(query, result)
        click.echo(to_json(data), nl=False)
    elif exact:
        click.echo(short_fraction(prob))
    else:
        steps = f"; {query.describe_steps()}" if query.is_sequence else ""
        if is_long(prob):
            click.echo(f"P({what}) = {percent(prob)} (exact: a fraction of "
                       f"{readable_fraction(prob)[1:-1]}; --exact or --json prints it)")
        else:
            click.echo(f"P({what}) = {short_fraction(prob)} = {percent(prob)}")
        click.echo(f"  {query.attacker} -> {query.target_name}; rules {query.options.rules}; "
                   f"options: {query.options.describe()}; named rules: "
                   f"{', '.join(query.named_rules) or 'none'}{steps}")


_MORTAL_HELP = """Mortal wounds on TARGET: the distribution of models destroyed and wounds lost.

Each ROLL is a dice expression ("D3", "2", "D6+1") or a named rule that is a mortal-wound roll
(e.g. "Disintegration Beams", "Poisoner's Art"; see `mathhammer rules --search mortal`);
several ROLLs apply in order, the target's state carried (Feel No Pain for each mortal wound,
spilling over to the next model). --crushing-impact T adds the 11e Crushing Impact stratagem
of a charging model with Toughness T (first): a D6 per point of T, each 5+ one mortal wound to
TARGET (at most 6), each 1 one to the charging model.

\b
Examples:
  mathhammer mortal "Necron Warriors" "Disintegration Beams"
  mathhammer mortal MEQ D3 D3 "Blood-fuelled Cruelty"
  mathhammer mortal "Necron Warriors" --crushing-impact 10 --json
"""


@click.command(context_settings=CONTEXT, help=_MORTAL_HELP)
@click.argument("target")
@click.argument("rolls", nargs=-1, metavar="[ROLL]...")
@click.option("--crushing-impact", type=click.IntRange(1, 30), metavar="T",
              help="Crushing Impact (11e) by a charging model with Toughness T, first.")
@click.option("--target-models", type=Count(),
              help="Models in the target (its first model group).")
@click.option("--leader", metavar="UNIT",
              help="Attach this CHARACTER unit to the target as its Leader.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every distribution as JSON (exact fractions and floats).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the --output file if it exists.")
@data_option
def mortal(target: str, rolls: tuple[str, ...], crushing_impact: int | None,
           target_models: int | None, leader: str | None, as_json: bool, output: str | None,
           force: bool) -> None:
    if not rolls and crushing_impact is None:
        raise click.UsageError("give at least one ROLL (e.g. D3, \"Disintegration Beams\") or "
                               "--crushing-impact T")
    out_path = check_output(output, force) if output is not None else None
    _check_suffix(out_path, "json" if as_json else "text")
    parsed = [mortal_roll(r) for r in rolls]
    name, profile = resolve_target(target, target_models, leader)
    query = MortalQuery(name, profile, tuple(parsed), crushing_impact)
    timeline = query.run()
    emit(to_json(mortal_json(query, timeline)) if as_json else mortal_text(query, timeline),
          out_path)


class _TableCommand(click.Command):
    """``--targets A B C`` takes every value up to the next option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(args):
            a = args[i]
            if a == "--":
                out += args[i:]
                break
            if a in ("--targets", "-t"):
                i += 1
                taken = 0
                while i < len(args) and not args[i].startswith("-"):
                    out += ["--targets", args[i]]
                    i += 1
                    taken += 1
                if not taken:
                    raise click.UsageError("--targets: expected at least one target", ctx)
                continue
            out.append(a)
            # an option's value may start with "--" (--vary "--rule X"): copy it unchanged
            if a in _TAKES_VALUE and i + 1 < len(args):
                out.append(args[i + 1])
                i += 1
            i += 1
        return super().parse_args(ctx, out)


_TABLE_HELP = """Compare attackers (rows) against targets (columns): expected kills, damage,
P(destroyed) or kills per 100 points.

ATTACKERS are unit names, unit files or inline weapon rows; --targets takes unit names, files
or inline profiles (default: the standard targets, those marked archetype in units/). With --vary
each attacker gets one more row per variant: a string of the options below, e.g.
--vary "--rule Enslaved Artifice" --vary "--reroll-hits ones".

\b
Examples:
  mathhammer table "Hexmark Destroyer" Cronos "Skitarii Marshal" --targets GEQ MEQ TEQ
  mathhammer table Cronos --by weapon --ranged --melee --metric damage --format md
  mathhammer table "Hexmark Destroyer" --half-range --vary "--rule Enslaved Artifice"
      --vary "--rule Conquering Tyrant" --format html -o hexmark.html
"""


@click.command(cls=_TableCommand, context_settings=CONTEXT, help=_TABLE_HELP)
@click.argument("attackers", nargs=-1)
@click.option("--army", "army_file", metavar="FILE",
              help="Rows: every unit of this army list (an attached pair is one row).")
@click.option("--vs-army", "vs_army", metavar="FILE",
              help="Columns: every unit of this army list (instead of --targets).")
@click.option("--defence", is_flag=True,
              help="Turn it around: the --army units are the columns, ATTACKERS (or the "
                   "--vs-army units) the rows.")
@click.option("--targets", "-t", "targets", multiple=True, metavar="TARGET...",
              help="Targets (columns); names may also be comma-separated.")
@click.option("--metric", default="kills", show_default=True, type=click.Choice(METRICS),
              help="What each cell shows: " + "; ".join(f"{k}: {v}" for k, v in
                                                         METRIC_TEXT.items()) + ".")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format (default: from the -o suffix, else text).")
@click.option("--by", type=click.Choice(["unit", "weapon"]), default="unit", show_default=True,
              help="One row per attacker, or one per weapon (optional wargear included).")
@click.option("--vary", multiple=True, metavar="OPTIONS",
              help='An extra row per attacker with these options, e.g. "--rule Enslaved '
                   'Artifice" (repeatable).')
@click.option("--title", help="A caption for the table.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
@with_params(attack_params(table=True))
def table(attackers: tuple[str, ...], targets: tuple[str, ...], metric: str, fmt: str | None,
          by: str, vary: tuple[str, ...], title: str | None, output: str | None, force: bool,
          army_file: str | None, vs_army: str | None, defence: bool, **p: Any) -> None:
    from .army import army_columns, load_for_table

    out_path = check_output(output, force) if output is not None else None
    if fmt is None:
        fmt = _format_of(out_path)
    _check_suffix(out_path, fmt)
    if defence and army_file is None:
        raise click.UsageError("--defence: give the defending army with --army FILE")
    if not attackers and army_file is None and not (defence and vs_army):
        raise click.UsageError("expected ATTACKERS, or --army FILE")
    mine = load_for_table(army_file) if army_file else None
    theirs = load_for_table(vs_army) if vs_army else None
    ctx = click.get_current_context()
    if ctx.get_parameter_source("ruleset") == ParameterSource.DEFAULT and (mine or theirs):
        p["ruleset"] = (mine or theirs).edition  # the army's edition unless --rules says
    if defence:
        columns = army_columns(mine)
    elif theirs is not None:
        columns = army_columns(theirs)
    else:
        columns = [Column(*resolve_target(t, p["target_models"], p["leader"]))
                   for t in _target_specs(targets)]
    phases = [m for m, on in ((False, p["ranged"]), (True, p["melee"])) if on] or [False]
    variants = [("", {})] + [(v, _vary_params(v)) for v in vary]
    rows: list[Row] = []
    for melee in phases:
        for text, extra in variants:
            for army in ([theirs] if defence and theirs else [] if defence else [mine]):
                if army is not None:
                    rows += army_rows(army, p, extra, melee=melee, by_weapon=by == "weapon",
                                      both=len(phases) > 1, vary_text=text)
    for spec in attackers:
        for melee in phases:
            for text, extra in variants:
                rows += _rows(spec, p, extra, melee=melee, by_weapon=by == "weapon",
                              both=len(phases) > 1, vary_text=text)
    for row in rows:
        for column in columns:
            check_work(row.profiles, column.target, row.options.rules)
    cells = len(rows) * len(columns)
    if cells >= PROGRESS_CELLS and stderr_is_tty():
        err = sys.stderr
        with click.progressbar(length=cells, label="computing", file=err) as bar:
            grid = build_grid(rows, columns, metric, title=title or "", progress=bar.update)
    else:
        grid = build_grid(rows, columns, metric, title=title or "")
    emit(render(grid, fmt), out_path)


def _check_suffix(path: Path | None, fmt: str) -> None:
    """Warn when the output file's suffix names another format than the one written."""
    named = _SUFFIX_FORMAT.get(path.suffix.lower()) if path is not None else None
    if named is not None and named != fmt:
        hint = " (add --json)" if named == "json" and fmt == "text" else ""
        warn(f"--output {str(path)!r}: writing {fmt}, though the suffix says {named}{hint}")


def _format_of(path: Path | None) -> str:
    """The format an output file's suffix asks for (text without a suffix or a file)."""
    if path is None or not path.suffix:
        return "text"
    fmt = _SUFFIX_FORMAT.get(path.suffix.lower())
    if fmt is None:
        known = ", ".join(_SUFFIX_FORMAT)
        raise InputError(f"--output {str(path)!r}: no format writes {path.suffix!r} files "
                         f"(known: {known}); give --format to write it anyway")
    return fmt


def _target_specs(values: tuple[str, ...]) -> list[str]:
    if not values:
        from ..data.units import list_units

        std = list_units(archetype=True)
        std.sort(key=lambda u: (u.groups[0].toughness, -u.groups[0].save, u.name))
        return [u.name for u in std]
    out = []
    for v in values:
        if is_inline_target(v):
            out.append(v)
        else:
            out += [s.strip() for s in v.split(",") if s.strip()]
    if not out:
        raise click.UsageError("--targets: expected at least one target")
    return out


def _rows(spec: str, base: dict[str, Any], extra: dict[str, Any], *, melee: bool,
          by_weapon: bool, both: bool, vary_text: str, attacker: Attacker | None = None
          ) -> list[Row]:
    """The rows of one attacker (``spec``, or an already resolved ``attacker``)."""
    p = dict(base)
    for key, value in extra.items():
        p[key] = p[key] + value if key in ("weapons", "named_rules", "abilities") else value
    if "ranged" in extra:
        melee = not extra["ranged"]
    if attacker is None:
        attacker = resolve_attacker(spec, p, melee=melee, every_weapon=by_weapon)
    options = options_of(p)
    named, mortal = split_rules(p["named_rules"])
    check_options(p, attacker)
    if mortal:
        raise InputError(f"--rule {mortal[0]!r} is a mortal-wound roll: `mathhammer kills` and "
                         "`mathhammer odds` roll it after the attack; `table` compares attacks")
    suffix = (" (melee)" if melee else " (ranged)") if both and not by_weapon else ""
    if vary_text:
        suffix += f" [{vary_text}]"
    detail = "; ".join(x for x in (
        f"options: {options.describe()}" if options.describe() != "none" else "",
        f"rules: {', '.join(named)}" if named else "",
        f"rule set {options.rules}" if options.rules != "10e" else "") if x)
    from ..report.tables import rows_for

    return rows_for(attacker.label, attacker.profiles, by_weapon=by_weapon, options=options,
                    named_rules=named, points=attacker.points, suffix=suffix, detail=detail)


table_rows = _rows

_VARY = click.Command("--vary", params=as_options(attack_params(table=False)),
                      add_help_option=False)
_TAKES_VALUE = {"--vary", "--title", "--output", "-o", "--metric", "--format", "--by"} | {
    o for prm in as_options(attack_params(table=False)) if not prm.is_flag
    for o in prm.opts}


def _vary_params(text: str) -> dict[str, Any]:
    """The options a ``--vary`` string gives, e.g. ``"--rule Enslaved Artifice"``: words after
    an option up to the next ``--option`` are its value.

    >>> _vary_params("--rule Enslaved Artifice --reroll-hits ones --half-range")
    {'named_rules': ('Enslaved Artifice',), 'reroll_hits': 'ones', 'half_range': True}
    """
    try:
        tokens = shlex.split(text)
    except ValueError as e:
        raise InputError(f"--vary {text!r}: {e}") from None
    if not tokens:
        raise InputError("--vary: expected options, e.g. \"--rule Enslaved Artifice\", got ''")
    args: list[str] = []
    i = 0
    while i < len(tokens):
        opt = tokens[i]
        if not opt.startswith("-"):
            raise InputError(f"--vary {text!r}: expected an option like --rule, got {opt!r}")
        value = []
        if "=" in opt:
            opt, first = opt.split("=", 1)
            value.append(first)
        i += 1
        while i < len(tokens) and not tokens[i].startswith("--"):
            value.append(tokens[i])
            i += 1
        args += [opt, " ".join(value)] if value else [opt]
    try:
        ctx = _VARY.make_context("--vary", args)
    except click.UsageError as e:
        raise InputError(f"--vary {text!r}: {e.format_message()}") from None
    return {k: v for k, v in ctx.params.items()
            if ctx.get_parameter_source(k) == ParameterSource.COMMANDLINE}


def army_rows(army, p: dict, extra: dict, *, melee: bool, by_weapon: bool, both: bool,
              vary_text: str) -> list:
    """One row per unit of the army; a unit without weapons for the phase gets an empty
    row."""
    from .army import labelled_units

    rows = []
    for label, unit in labelled_units(army):
        try:
            profiles = tuple(unit.as_profiles(melee=melee))
        except ValueError:
            profiles = ()
        attacker = Attacker(label, profiles, unit.points)
        rows += table_rows(label, p, extra, melee=melee, by_weapon=by_weapon, both=both,
                           vary_text=vary_text, attacker=attacker)
    return rows


__all__ = ["Attacker", "resolve_attacker", "resolve_target", "table_rows"]
