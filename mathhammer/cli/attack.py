"""The commands that answer one query: ``kills`` (the whole report), ``odds`` (one exact
probability) and ``mortal`` (mortal wounds on a target). They parse options
(:mod:`mathhammer.cli.params`), ask :mod:`mathhammer.app.scenario` and print
:mod:`mathhammer.report.text` or :mod:`mathhammer.report.jsonout`.

>>> from click.testing import CliRunner
>>> r = CliRunner().invoke(odds, ["2 | 2+ | 4 | 0 | 1", "T4 Sv7+ W1", "--at-least", "1",
...                               "--exact"])
>>> r.output  # each attack kills with 5/6 * 1/2 = 5/12; P(>= 1 of 1 model) = 1 - (7/12)**2
'95/144\\n'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import click

from ..app.answer import kills_scenario, odds_of, salvo_of
from ..app.planning import parse_probability
from ..app.queries import Kills, Odds, Salvo
from ..app.scenario import Ask, Counter, MortalQuery, Query
from ..app.targets import target_of
from ..data.rules.named import mortal_roll
from ..errors import InputError
from ..prob.numbers import (
    as_float,
    is_long,
    json_fraction,
    percent,
    readable_fraction,
    short_fraction,
    to_json,
)
from ..prob.pmf import PMF
from ..report.answer_json import odds_answer_json, scenario_json
from ..report.jsonout import mortal_json
from ..report.text import explain_lines, kills_text, mortal_text, sequence_text
from .army import current_data, data_option
from .export import TO, check_to, write_unitcrunch
from .output import CONTEXT, full_fractions_option, only_with, warn
from .params import Count, attack_params, sequence_params, setup_of, with_params
from .resolve import check_output, check_suffix, emit

_KILLS_HELP = """Expected hits, wounds, damage and kills of ATTACKER against TARGET, with the
exact distribution of models destroyed.

ATTACKER is a unit name (a unique prefix is enough; see `mathhammer units`), a unit file,
"CATALOGUE.cat:Unit name" (BattleScribe data), or inline weapon rows as printed on a
datasheet, models first and rows separated by ';'.
TARGET is a unit name or file, or an inline profile like "5x T4 Sv3+ W2 4++ FNP5+ INFANTRY".

With -t TARGET every argument is an attacking unit (each may carry its own options after its
name: "Devastator Squad --half-range"), resolved in order against TARGET, its state carried:
the report gives P(destroyed) and the models left after each unit; --until P names the fewest
units, in order, that destroy it with probability at least P.

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
  mathhammer kills "Hexmark Destroyer --half-range" "Necron Warriors" -t GEQ --until 50%
"""


_SEVERAL = (("--target", "-t", "target_unit"), {
    "metavar": "TARGET", "help": "Several units into one target: every argument is an "
    "ATTACKER (each may carry its own options: \"NAME --half-range\"), resolved in order "
    "against TARGET, its state carried."})


@click.command(context_settings=CONTEXT, help=_KILLS_HELP)
@click.argument("units", nargs=-1, metavar="ATTACKER TARGET")
@with_params([_SEVERAL] + attack_params(table=False) + sequence_params())
@click.option("--until", "until_p", metavar="P",
              help="With -t: the fewest of the units, in order, that destroy the target with "
                   "probability at least P (0.9, 90% or 9/10).")
@click.option("--json", "as_json", is_flag=True,
              help="Print every distribution as JSON (exact fractions and floats).")
@full_fractions_option
@click.option("--plot", type=click.Path(dir_okay=False), metavar="FILE.png|.svg",
              help="Draw the kill distribution (needs matplotlib: pip install 'mathhammer[plot]').")
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the --plot or --output file if it exists.")
@click.option("--explain", is_flag=True,
              help="List every rule from data applied with its exact contribution (E[kills] "
                   "and P(destroyed) without it), and the units' rules not modelled.")
@click.option(*TO[0], **(TO[1] | {"help": "Write UnitCrunch's import file of the attacker (the "
                                          "weapons that fire) and the target to --output FILE "
                                          "instead of the report (needs `pip install "
                                          "'mathhammer[unitcrunch]'`)."}))
def kills(units: tuple[str, ...], as_json: bool, plot: str | None, output: str | None,
          force: bool, explain: bool, target_unit: str | None, until_p: str | None,
          to: str | None, **p: Any) -> None:
    only_with(click.get_current_context(), {"full_fractions": ("as_json",),
                                            "force": ("output", "plot")})
    if to is not None:
        if target_unit is not None:
            raise click.UsageError("--to unitcrunch: one attacking unit (not with -t TARGET)")
        check_to(to, output, {"--json": as_json, "--plot": plot, "--explain": explain,
                              "--until": until_p})
        assert output is not None  # check_to refused --to without --output
        to_path = check_output(output, force)
        from ..report.unitcrunch import query_profiles

        query = kills_scenario(kills_value(units, p), current_data())
        write_unitcrunch(query_profiles(query), to_path)
        if query.applied or query.options != type(query.options)():
            warn("the query's rules and options (--rule, --half-range, ... and the rules from "
                 "data) are not in the UnitCrunch file: set them in UnitCrunch")
        return None
    if target_unit is not None:
        if explain:
            raise click.UsageError("--explain: with one attacking unit (not with -t TARGET)")
        if plot is not None:
            raise click.UsageError("--plot: one attacking unit only (drop -t)")
        return _several(salvo_value(units, target_unit, p, until_p), as_json, output, force)
    if until_p is not None:
        raise click.UsageError("--until: with several units into one target (-t TARGET)")
    query = kills_scenario(kills_value(units, p, explain), current_data())
    plot_path = check_output(plot, force, "--plot") if plot is not None else None
    out_path = check_output(output, force) if output is not None else None
    check_suffix(out_path, "json" if as_json else "text")
    if plot_path is not None and out_path is not None and \
            plot_path.resolve() == out_path.resolve():
        raise InputError(f"--plot and --output are the same file {plot!r}: the report would "
                         "overwrite the plot")
    if plot_path is not None:
        from ..report.plot import check_matplotlib
        from ..report.plot import check_suffix as check_plot_suffix

        check_plot_suffix(plot_path)
        check_matplotlib()
    if as_json:
        emit(to_json(scenario_json(query, explain)), out_path)
        return None
    result = query.run()
    timeline = query.run_sequence() if query.is_sequence else None
    if plot_path is not None:
        from ..report.plot import plot_kills

        plot_kills(query, result if timeline is None else _Kills(timeline.kills), plot_path)
        click.echo(f"wrote {plot}", err=True)
    text = kills_text(query, result) if timeline is None else \
        sequence_text(query, timeline, result)
    if explain:
        text += "\n".join(explain_lines(query)) + "\n"
    emit(text, out_path)


def kills_value(args: tuple[str, ...], p: dict[str, Any], explain: bool = False) -> Kills:
    """The kills query of ``kills`` and ``odds``: ATTACKER TARGET (or TARGET alone, with
    inline ``--weapon`` rows) and the options."""
    from ..data.typed.inline import is_inline_weapon

    if len(args) == 2:
        attacker_spec, target_spec = args
    elif len(args) == 1 and any(is_inline_weapon(w) for w in p["weapons"]):
        attacker_spec, target_spec = None, args[0]
    else:
        raise click.UsageError(f"expected ATTACKER and TARGET, got {len(args)} argument"
                               f"{'s' * (len(args) != 1)}")
    if p.get("reanimation") is not None and p.get("turns") is None:
        flag = "--reanimation" if p["reanimation"] else "--no-reanimation"
        raise click.UsageError(f"{flag}: only with --turns N")
    return Kills(target=target_spec, attacker=attacker_spec, setup=setup_of(p),
                 explain=explain)


def salvo_value(attackers: tuple[str, ...], target_spec: str, p: dict[str, Any],
                until: str | None = None) -> Salvo:
    """``kills A B C -t TARGET``: the units in order into one target, each with the options
    written after its name (``"Devastator Squad --half-range"``)."""
    from .table import unit_order

    if not attackers:
        raise click.UsageError("with -t TARGET give at least one ATTACKER")
    if p.get("turns") is not None or p.get("reanimation") is not None:
        raise click.UsageError("--turns: one attacking unit only (several units into one "
                               "target are one sequence already)")
    return Salvo(units=tuple(unit_order(a) for a in attackers), target=target_spec,
                 setup=setup_of(p), until=None if until is None else parse_probability(until))


def _several(q: Salvo, as_json: bool, output: str | None, force: bool) -> None:
    """``kills A B C -t TARGET``."""
    from ..report.plan_report import salvo_json, salvo_text

    out_path = check_output(output, force) if output is not None else None
    check_suffix(out_path, "json" if as_json else "text")
    s = salvo_of(q, current_data())
    timeline = s.run()
    emit(to_json(salvo_json(s, timeline, q.until)) if as_json else
         salvo_text(s, timeline, q.until), out_path)


@attrs.frozen
class _Kills:
    """What the plot draws: a kill distribution."""

    kills: PMF


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
              type=click.Choice([c.value for c in Counter]),
              help="What K counts.")
@click.option("--exact", is_flag=True, help="Print only the fraction (for scripts).")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--try", "tries", multiple=True, metavar="OPTIONS",
              help='Answer again with these options added, e.g. "--rule X" (repeatable), and '
                   "say which helps most.")
@full_fractions_option
@with_params([_SEVERAL] + attack_params(table=False) + sequence_params())
def odds(units: tuple[str, ...], at_least: int | None, exactly: int | None,
         at_most: int | None, destroy: bool, counter: str, exact: bool, as_json: bool,
         target_unit: str | None, tries: tuple[str, ...], **p: Any) -> None:
    asked = [(flag, ask, k) for flag, ask, k in (
        ("--at-least", Ask.AT_LEAST, at_least), ("--kills", Ask.EXACTLY, exactly),
        ("--at-most", Ask.AT_MOST, at_most), ("--destroy", Ask.DESTROYED, 0 if destroy else None))
        if k is not None]
    only_with(click.get_current_context(), {"full_fractions": ("as_json",)})
    if exact and as_json:
        raise click.UsageError("--exact: not with --json (it prints one fraction; the JSON has "
                               "it as p)")
    if len(asked) != 1:
        raise click.UsageError("give exactly one of --at-least K, --kills K, --at-most K, "
                               f"--destroy (got {', '.join(a[0] for a in asked) or 'none'})")
    if destroy and counter != "kills":
        raise click.UsageError("--destroy is about the whole unit; drop --of")
    if tries and exact:
        raise click.UsageError("--try: not with --exact (it prints one fraction)")
    _, ask, k = asked[0]
    query: Kills | Salvo = salvo_value(units, target_unit, p) if target_unit is not None \
        else kills_value(units, p)
    q = Odds(query, ask, k, Counter(counter))
    if tries:
        _try_odds(q, as_json, tries)
        return None
    a = odds_of(q, current_data())
    if as_json:
        click.echo(to_json(odds_answer_json(a)), nl=False)
    elif exact:
        click.echo(short_fraction(a.p))
    else:
        if is_long(a.p):
            click.echo(f"P({a.what}) = {percent(a.p)} (exact: a fraction of "
                       f"{readable_fraction(a.p)[1:-1]}; --exact or --json prints it)")
        else:
            click.echo(f"P({a.what}) = {short_fraction(a.p)} = {percent(a.p)}")
        sc = a.scenario
        if not isinstance(sc, Query):  # several units into one target: a salvo
            from .plan import odds_line

            click.echo(odds_line(sc))
            return None
        steps = f"; {sc.describe_steps()}" if sc.is_sequence else ""
        click.echo(f"  {sc.attacker} -> {sc.target_name}; rules {sc.options.rules}; "
                   f"options: {sc.options.describe()}; named rules: "
                   f"{', '.join(sc.named_rules) or 'none'}{steps}")
    return None


def _try_odds(q: Odds, as_json: bool, tries: tuple[str, ...]) -> None:
    """``odds ... --try OPTIONS``: the probability as asked and with each variant's options
    added; the best variant and its lead."""
    from .plan import try_lines
    from .table import variant_of

    def prob(changes: dict[str, Any]) -> tuple[str, Fraction]:
        query = attrs.evolve(q.query, setup=q.query.setup.merged(changes))
        a = odds_of(attrs.evolve(q, query=query), current_data())
        return a.what, a.p

    what, base = prob({})
    rows = [("(as given)", base)] + [(t, prob(dict(variant_of(t, "--try").changes))[1])
                                     for t in tries]
    if as_json:
        best = max(rows, key=lambda r: r[1])
        click.echo(to_json({"query": f"P({what})", "tries": [
            {"options": t, "p": json_fraction(v), "p_float": as_float(v)} for t, v in rows],
            "best": best[0]}), nl=False)
        return
    click.echo(f"P({what})")
    click.echo("\n".join(try_lines(rows, percent)))


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
@click.argument("target_unit", metavar="TARGET")
@click.argument("rolls", nargs=-1, metavar="[ROLL]...")
@click.option("--crushing-impact", type=click.IntRange(1, 30), metavar="T",
              help="Crushing Impact (11e) by a charging model with Toughness T, first.")
@click.option("--target-models", type=Count(),
              help="Models in the target (its first model group).")
@click.option("--leader", metavar="UNIT",
              help="Attach this CHARACTER unit to the target as its Leader.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every distribution as JSON (exact fractions and floats).")
@full_fractions_option
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the --output file if it exists.")
@data_option
def mortal(target_unit: str, rolls: tuple[str, ...], crushing_impact: int | None,
           target_models: int | None, leader: str | None, as_json: bool, output: str | None,
           force: bool) -> None:
    only_with(click.get_current_context(), {"full_fractions": ("as_json",),
                                            "force": ("output",)})
    if not rolls and crushing_impact is None:
        raise click.UsageError("give at least one ROLL (e.g. D3, \"Disintegration Beams\") or "
                               "--crushing-impact T")
    out_path = check_output(output, force) if output is not None else None
    check_suffix(out_path, "json" if as_json else "text")
    for roll in rolls:  # a bad roll is refused before the target is looked up
        mortal_roll(roll)
    name, profile = target_of(target_unit, target_models, leader, data=current_data())
    query = MortalQuery(name, profile, rolls, crushing_impact)
    timeline = query.run()
    emit(to_json(mortal_json(query, timeline)) if as_json else mortal_text(query, timeline),
          out_path)
