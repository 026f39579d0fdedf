"""Several attacking units: ``kills A B C -t TARGET`` and ``odds`` (into one target, in order;
:func:`salvo_query`) and ``mathhammer plan`` (who shoots what). Each attacker named on the
command line may carry its own options after its name: ``"Devastator Squad --half-range"``.

>>> unit_order("Devastator Squad --half-range --rule Oath").to_json()
{'unit': 'Devastator Squad', 'half_range': True, 'named_rules': ['Oath']}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import click

from ..app.answer import plan_answers
from ..app.planning import PlanAnswer, SalvoScenario, parse_probability
from ..app.queries import ArmyList, Plan
from ..engine.plan import ADAPTIVE_BUDGET, Objective
from ..engine.search import BUDGET as SEARCH_BUDGET
from ..errors import InputError
from ..prob.numbers import decimal, readable_fraction, to_json
from ..report.answer_json import plan_answers_json
from ..report.plan_report import plan_md, plan_text
from .army import current_data
from .output import CONTEXT, given, only_with
from .params import attack_params, setup_of, with_params
from .phase import attach_option, check_list_options, reach_options
from .resolve import check_output, check_suffix, emit
from .table import allow_unresolved_option, unit_order, variant_of

_PLAN_HELP = """The best plan for a phase: which of ATTACKERS shoots which target (each -t
TARGET, or every unit of --vs-army FILE), every assignment evaluated exactly.

ATTACKERS are units, files or inline rows as for `mathhammer kills`, each optionally followed
by its own options ("Devastator Squad --half-range"), or every unit of --army FILE. A target
with its Leader is -t "UNIT + LEADER" (--leader only with one target). Units that
shoot the same target resolve in the order given, the target's state carried exactly. The
objective is expected points destroyed (a unit's points when it is destroyed: `points`, or per
model destroyed: `model-points`) or expected models destroyed (`models`; the default when a
target's points are not known). --destroy TARGET --probability P adds the fewest units that
destroy TARGET with probability at least P. --adaptive adds the best policy when each unit
picks its target after seeing what the earlier ones did. --try OPTIONS plans again with those
options for every unit and says which is best. The next best plan differs in what each target
receives: units that attack alike, and alike targets, are interchangeable.

\b
Examples:
  mathhammer plan "Hexmark Destroyer" Cronos "Necron Warriors" -t MEQ -t "Light vehicle" \\
      --objective models --adaptive
  mathhammer plan --army mine.txt --vs-army theirs.txt
  mathhammer plan "Necron Warriors" "Hexmark Destroyer" -t GEQ -t MEQ --objective models \\
      --try "--rule Enslaved Artifice" --try "--rule Conquering Tyrant"
"""


@click.command(context_settings=CONTEXT, help=_PLAN_HELP)
@click.argument("attackers", nargs=-1)
@click.option("--target", "-t", "targets", multiple=True, metavar="TARGET",
              help="A target (repeatable).")
@click.option("--army", "army_file", metavar="FILE", help="Attackers: every unit of this list.")
@click.option("--vs-army", "vs_army", metavar="FILE", help="Targets: every unit of this list.")
@allow_unresolved_option
@click.option("--objective", type=click.Choice([o.value for o in Objective]),
              help="What to maximise (default: points when every target's points are known, "
                   "else models).")
@click.option("--points", "points", multiple=True, metavar="TARGET=N",
              help="A target's points (repeatable), for targets without them.")
@click.option("--destroy", metavar="TARGET",
              help="Also: the fewest units that destroy TARGET with --probability P.")
@click.option("--probability", metavar="P", default="0.9", show_default=True,
              help="For --destroy: 0.9, 90% or 9/10.")
@click.option("--split", is_flag=True,
              help="Each weapon of a unit picks its own target (the rules allow it).")
@click.option("--adaptive", is_flag=True,
              help="Also the best policy when units pick targets after seeing earlier "
                   "results.")
@click.option("--search-budget", "search_budget", type=click.IntRange(1, 10**9),
              default=SEARCH_BUDGET, show_default=True, metavar="STEPS",
              help="Steps of the exact search for the best plan; beyond, the best plan found "
                   "and a stated bound on its gap to the optimum.")
@click.option("--budget", type=click.IntRange(1, 1_000_000), default=ADAPTIVE_BUDGET,
              show_default=True, help="Joint target states the adaptive plan may visit.")
@click.option("--try", "tries", multiple=True, metavar="OPTIONS",
              help='Plan again with these options for every unit, e.g. "--rule X" '
                   "(repeatable); the report says which is best.")
@attach_option
@reach_options
@click.option("--details", is_flag=True,
              help="Also the units' options, the targets' profiles, the next best plans and "
                   "the distribution of the total.")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json"]),
              help="Output format (default: from the -o suffix, else text).")
@click.option("--json", "as_json", is_flag=True, help="Print the plan as JSON (--format json).")
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the --output file if it exists.")
@with_params(attack_params(table=False))
def plan(attackers: tuple[str, ...], targets: tuple[str, ...], army_file: str | None,
         vs_army: str | None, objective: str | None, points: tuple[str, ...],
         destroy: str | None, probability: str, split: bool, adaptive: bool, budget: int,
         search_budget: int,
         tries: tuple[str, ...], attach: tuple[str, ...], reach: tuple[str, ...],
         reach_file: str | None, details: bool, fmt: str | None, as_json: bool,
         output: str | None, force: bool, allow_unresolved: bool, **p: Any) -> None:
    ctx = click.get_current_context()
    only_with(ctx, {"probability": ("destroy",), "budget": ("adaptive",),
                    "force": ("output",)})
    out_path = check_output(output, force) if output is not None else None
    if as_json and fmt not in (None, "json"):
        raise click.UsageError(f"--json and --format {fmt}: give one")
    fmt = "json" if as_json else fmt or _plan_format(out_path)
    check_suffix(out_path, fmt)
    if not attackers and army_file is None:
        raise click.UsageError("expected ATTACKERS, or --army FILE")
    if not targets and vs_army is None:
        raise click.UsageError("expected -t TARGET (repeatable), or --vs-army FILE")
    check_list_options(army_file, vs_army, allow_unresolved=allow_unresolved, attach=attach)
    setup = setup_of(p)
    if not given(ctx, "ruleset"):
        setup = attrs.evolve(setup, rules=None)  # an army list's edition, else the default
    q = Plan(units=tuple(unit_order(a) for a in attackers), targets=targets, setup=setup,
             army=ArmyList(path=army_file) if army_file else None,
             vs_army=ArmyList(path=vs_army) if vs_army else None,
             allow_unresolved=allow_unresolved, objective=objective,
             points=tuple(_points(points).items()), destroy=destroy,
             probability=parse_probability(probability), split=split, adaptive=adaptive,
             budget=budget, search_budget=search_budget,
             tries=tuple(variant_of(t, "--try") for t in tries), attach=attach,
             reach=reach, reach_file=reach_file)
    a = plan_answers(q, current_data())
    if fmt == "json":
        text = to_json(plan_answers_json(a))
    else:
        text = plan_md(a.best, details) if fmt == "md" else plan_text(a.best, details)
        if a.tries:
            lines = _tries_lines(a.best, list(a.tries))
            text += "\n" + ("\n".join(["```text", *lines, "```"]) if fmt == "md" else
                            "\n".join(lines)) + "\n"
    emit(text, out_path)


def _plan_format(path: Any) -> str:
    """The format an ``-o`` file's suffix asks for (``.json``, ``.md``), else text."""
    suffix = path.suffix.lower() if path is not None else ""
    return {".json": "json", ".md": "md"}.get(suffix, "text")


def _tries_lines(base: PlanAnswer, variants: list[tuple[str, PlanAnswer]]) -> list[str]:
    """Which --try is best, by the value of its best plan (the adaptive value alongside)."""
    rows = [("(as given)", base)] + variants
    out = try_lines([(t, a.best.value) for t, a in rows], decimal, "best plan")
    if base.adaptive is not None:
        out.insert(-1, "adaptive: " + ", ".join(f"{t} {decimal(a.adaptive.value)}"
                                                for t, a in rows if a.adaptive is not None))
    return out


def try_lines(rows: list[tuple[str, Fraction]], show: Any, what: str = "value") -> list[str]:
    """A table of the ``--try`` variants (the first row is the query as given) and the best,
    with its exact lead over the next best.

    >>> print("\\n".join(try_lines([("(as given)", Fraction(1, 2)), ("--x", Fraction(2, 3))],
    ...                             str)))
    --try       value  vs given
    (as given)  1/2    0
    --x         2/3    1/6
    best: --x, ahead of the next by 1/6 (exact 1/6)
    """
    w = max(len("--try"), *(len(t) for t, _ in rows))
    vw = max(len(what), *(len(show(v)) for _, v in rows))
    base = rows[0][1]
    out = [f"{'--try':<{w}}  {what:<{vw}}  vs given"]
    out += [f"{t:<{w}}  {show(v):<{vw}}  {show(v - base)}" for t, v in rows]
    ranked = sorted(rows, key=lambda r: -r[1])
    lead = ranked[0][1] - ranked[1][1] if len(ranked) > 1 else Fraction(0)
    tie = " (a tie)" if lead == 0 else ""
    out.append(f"best: {ranked[0][0]}{tie}, ahead of the next by {show(lead)} (exact "
               f"{readable_fraction(lead)})")
    return out


def _points(items: tuple[str, ...]) -> dict[str, int]:
    """``--points TARGET=N`` by target (any case); a target given two different values is an
    error (which would count?).

    >>> _points(("MEQ=100", "meq=100"))
    {'meq': 100}
    >>> _points(("MEQ=5", "MEQ=6"))
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --points 'MEQ=6': MEQ's points are given twice (5, then 6)
    """
    out: dict[str, int] = {}
    for item in items:
        name, sep, n = item.rpartition("=")
        if not sep or not name.strip() or not n.strip().isdigit() or int(n) > 100_000:
            raise InputError(f"--points {item!r}: expected TARGET=N, e.g. \"MEQ=100\"")
        key = name.strip().lower()
        if out.get(key, int(n)) != int(n):
            raise InputError(f"--points {item!r}: {name.strip()}'s points are given twice "
                             f"({out[key]}, then {int(n)})")
        out[key] = int(n)
    return out


def odds_line(s: SalvoScenario) -> str:
    """The odds answer's second line for several units: who, in order, with which options."""
    return (f"  {s.describe()}; rules {s.shooters[0].options.rules}; "
            + "; ".join(f"{sh.label}: options: {sh.options.describe()}; named rules: "
                        f"{', '.join(sh.rule_names) or 'none'}" for sh in s.shooters))
