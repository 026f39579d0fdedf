"""Several attacking units: ``kills A B C -t TARGET`` and ``odds`` (into one target, in order;
:func:`salvo_query`) and ``mathhammer plan`` (who shoots what). Each attacker named on the
command line may carry its own options after its name: ``"Devastator Squad --half-range"``.
Why one module: ``kills``/``odds`` and ``plan`` share how an attacker is named and resolved
(:func:`split_spec`, :func:`shooter`) and the ``--try`` table.

>>> split_spec("Devastator Squad --half-range --rule Oath")
('Devastator Squad', '--half-range --rule Oath')
>>> split_spec("10x 2 | 3+ | 4 | -1 | 1")
('10x 2 | 3+ | 4 | -1 | 1', '')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs
import click

from ..engine.plan import ADAPTIVE_BUDGET, Objective, Shooter
from ..engine.search import BUDGET as SEARCH_BUDGET
from ..errors import InputError, NotCarried
from ..model.limits import check_plan
from ..report.numbers import decimal, readable_fraction, to_json
from ..report.plan_report import plan_answer_json, plan_md, plan_text
from ..report.planning import (
    PlanAnswer,
    Salvo,
    aims_of,
    find_aim,
    in_reach,
    parse_probability,
    shooter_of,
    solve,
)
from ..report.specs import Attacker, attacker_of, check_work, split_rules
from .army import current_data
from .output import CONTEXT, only_with, warn
from .params import attack_params, options_of, with_params
from .phase import attach_option, reach_of, reach_options, with_attachments
from .resolve import (
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
from .table import allow_unresolved_option, army_switches, listed_army, merged, vary_params


def split_spec(spec: str) -> tuple[str, str]:
    """An attacker as typed, and the options written after it (from the first `` --``)."""
    i = spec.find(" --")
    return (spec, "") if i < 0 else (spec[:i].strip(), spec[i:].strip())


def shooter(spec: str | Any, p: dict[str, Any], label: str | None = None,
            elsewhere: Any = None) -> Shooter:
    """One attacking unit: a name, file or inline rows with its own options, or a unit of an
    army list (``label`` its row), with its rules from data applied as ``table --army`` does
    (:func:`~mathhammer.report.specs.attacker_of`: its own, its Leader's, its detachment's and
    enhancements'); its switches only when ``--rule`` names them (``elsewhere``: the switches
    of the list's other units, which this unit goes without)."""
    if label is None:
        name, extra = split_spec(spec)
        own = vary_params(extra, f"attacker {name!r}") if extra else {}
        for key, flag in (("ruleset", "--rules"), ("target_models", "--target-models"),
                          ("leader", "--leader")):
            if key in own:
                raise InputError(f"attacker {spec!r}: {flag} is the command's, not one "
                                 "unit's; give it once, outside the attacker")
        q = merged(p, own)
        a = attacker(name, q, melee=not q["ranged"])
    else:
        q = p
        try:
            a = attacker_of(spec, melee=not p["ranged"], data=current_data(),
                            options=options_of(p), named_rules=file_rules(p["named_rules"]),
                            pistols=bool(p.get("pistols")))
        except NotCarried:  # no weapons for the phase: left out by firing(), with a warning
            a = Attacker(label, (), spec.cost())
        a = attrs.evolve(a, label=label)
    found, rest = switch_on(a.rules, q["named_rules"], elsewhere)
    named, mortal = split_rules(rest)
    options = options_of(q)
    if a.led:
        options = attrs.evolve(options, led=True)
    warn_options(q, options, a, rest)
    return shooter_of(a, options, named + found.applied, mortal)


def army_aim(label: str, unit: Any) -> tuple[str, Any, int | None, tuple[Any, ...]]:
    """A target of a plan from an army list's row: its name, profile, points and the rules
    from data that change attacks against it (as ``table --vs-army``)."""
    from ..data.attached import defending_rules

    return label, unit.as_target(), unit.points, defending_rules(unit, current_data()).applied


def named_aim(spec: str, p: dict[str, Any]) -> tuple[str, Any, int | None, tuple[Any, ...]]:
    """A target of a plan named on the command line, with its rules from data (as
    ``kills``: its own, its Leader's)."""
    name, profile, rules = target_and_rules(spec, p)
    return name, profile, unit_points(spec, p), rules


def firing(shooters: list[Shooter], aims: list[Any], q: dict[str, Any]) -> list[Shooter]:
    """The units of a plan that have weapons for the phase (the others are left out, with a
    warning), each checked against every target (the work it asks is bounded); a repeated
    label is numbered (``#2``), as an army list's are."""
    out, seen = [], {}
    for sh in shooters:
        if sh.profiles:
            seen[sh.label] = seen.get(sh.label, 0) + 1
            out.append(sh if seen[sh.label] == 1 else
                       attrs.evolve(sh, label=f"{sh.label} #{seen[sh.label]}"))
    for sh in shooters:
        if not sh.profiles:
            warn(f"{sh.label}: no {'ranged' if q['ranged'] else 'melee'} weapons; left out")
    for sh in out:
        for a in aims:
            check_work(sh.profiles, a.target, q["ruleset"])
    if not out:
        raise InputError("plan: no attacking unit has weapons for this phase")
    return out


def salvo_query(attackers: tuple[str, ...], target_spec: str, p: dict[str, Any]) -> Salvo:
    """``kills A B C -t TARGET``: the units in order into one target."""
    if not attackers:
        raise click.UsageError("with -t TARGET give at least one ATTACKER")
    if p.get("turns") is not None or p.get("reanimation") is not None:
        raise click.UsageError("--turns: one attacking unit only (several units into one "
                               "target are one sequence already)")
    name, defending, rules = target_and_rules(target_spec, p)
    shooters = tuple(shooter(a, p) for a in attackers)
    for sh in shooters:
        check_work(sh.profiles, defending, p["ruleset"])
    return Salvo(name, defending, shooters, rules)


_PLAN_HELP = """The best plan for a phase: which of ATTACKERS shoots which target (each -t
TARGET, or every unit of --vs-army FILE), found by an exact search that proves it optimal
(or, past --search-budget, the best plan found with a proved bound on its gap).

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
@click.option("--budget", type=click.IntRange(1, 1_000_000), default=ADAPTIVE_BUDGET,
              show_default=True, help="Joint target states the adaptive plan may visit.")
@click.option("--search-budget", "search_budget", type=click.IntRange(1, 10**9),
              default=SEARCH_BUDGET, show_default=True, metavar="STEPS",
              help="Steps the exact search of the best plan may take (each a subset valued "
                   "or a state visited); past them, the best plan found and its gap to the "
                   "optimum.")
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
         search_budget: int, tries: tuple[str, ...], attach: tuple[str, ...],
         reach: tuple[str, ...], reach_file: str | None, details: bool, fmt: str | None,
         as_json: bool,
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
    if allow_unresolved and not (army_file or vs_army):
        raise click.UsageError("--allow-unresolved: give the army list with --army FILE (or "
                               "--vs-army FILE)")
    p_destroy = parse_probability(probability)
    mine = listed_army(army_file, allow_unresolved=allow_unresolved) if army_file else None
    theirs = listed_army(vs_army, allow_unresolved=allow_unresolved) if vs_army else None
    mine, theirs = with_attachments(mine, theirs, attach)
    lists_ruleset(ctx, p, (f"--army {army_file}", mine), (f"--vs-army {vs_army}", theirs))
    check_plan(len(attackers) + (len(mine.rows()) if mine else 0),
               len(targets) + (len(theirs.rows()) if theirs else 0))
    check_leader(len(targets), len(theirs.rows()) if theirs else 0, p)
    given = _points(points)
    specs = [army_aim(label, unit) for label, unit in theirs.rows()] if theirs else []
    specs += [named_aim(t, p) for t in targets]
    aims = aims_of([(n, prof, given.pop(n.lower(), pts), rules)
                    for n, prof, pts, rules in specs])
    if given:
        raise InputError(f"--points {next(iter(given))!r}: not one of the targets ("
                         f"{', '.join(a.name for a in aims)})")
    if objective is None:
        objective = Objective.POINTS if all(a.points is not None for a in aims) \
            else Objective.MODELS
    destroy_at = (find_aim(aims, destroy), p_destroy) if destroy is not None else None

    elsewhere = army_switches(mine) if mine else None

    def shooters_of(q: dict[str, Any]) -> list[Shooter]:
        out = [shooter(unit, q, label, elsewhere) for label, unit in mine.rows()] if mine \
            else []
        out += [shooter(a, q) for a in attackers]
        return firing(out, aims, q)

    def answer(q: dict[str, Any]) -> PlanAnswer:
        shooters = shooters_of(q)
        within = reach_of(reach, reach_file, [sh.label for sh in shooters],
                          [a.name for a in aims])
        planner, left = in_reach(shooters, aims, Objective(objective), split=split,
                                 reach=within)
        at = None
        if destroy_at is not None:
            name = aims[destroy_at[0]].name
            if name not in [a.name for a in planner.aims]:
                raise InputError(f"--destroy {destroy!r}: no unit can shoot {name} (the reach "
                                 "given)")
            at = ([a.name for a in planner.aims].index(name), destroy_at[1])
        return solve(planner, adaptive=adaptive, budget=budget, destroy=at, left_out=left,
                     search_budget=search_budget)

    base = answer(p)
    variants = [(t, answer(merged(p, vary_params(t, "--try")))) for t in tries]
    if fmt == "json":
        data = plan_answer_json(base)
        if variants:
            data["tries"] = [{"options": t, **plan_answer_json(a)} for t, a in variants]
        text = to_json(data)
    else:
        text = plan_md(base, details) if fmt == "md" else plan_text(base, details)
        if variants:
            lines = _tries_lines(base, variants)
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
    unproved = [t for t, a in rows if not a.found.proved]
    if unproved:
        out.insert(-1, "not proved optimal (the best found, within its gap): "
                   + ", ".join(unproved))
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


def unit_points(spec: str, p: dict[str, Any]) -> int | None:
    """The points of a target named on the command line: a unit's, or with its Leader
    (``"UNIT + LEADER"`` or ``--leader``) both units' (None for an inline profile, or when
    either's points are not known)."""
    from ..data.attached import split_attached
    from ..data.inline import is_inline_target
    from ..data.lookup import find_unit

    if is_inline_target(spec):
        return None
    pair = split_attached(spec)
    body, lead = pair if pair is not None else (spec, p.get("leader"))
    if lead is not None and is_inline_target(lead):
        return None
    total = 0
    for name, models in ((body, p.get("target_models")), (lead, None)):
        if name is None:
            continue
        try:
            cost = find_unit(name, rules=p["ruleset"], data=current_data()).cost(models)
        except (ValueError, InputError):
            return None
        if cost is None:
            return None
        total += cost
    return total


def check_leader(named: int, listed: int, p: dict[str, Any]) -> None:
    """``--leader`` attaches to the one target of a plan, named on the command line
    (``named`` of them; ``listed``: units of the enemy's list, which have the Leaders their
    list gives them); with several targets each is given its Leader in its name (README,
    "Plans")."""
    if not (leader := p.get("leader")):
        return
    if listed:
        raise InputError(f"--leader {leader!r}: a unit of an army list has the Leader the list "
                         "gives it; for a target of your own, give it its Leader in its name: "
                         f'-t "UNIT + {leader}"')
    if named != 1:
        raise InputError(f"--leader {leader!r}: a plan with {named} targets; give the target "
                         f'it leads its Leader in its name instead: -t "UNIT + {leader}"')


def odds_line(s: Salvo) -> str:
    """The odds answer's second line for several units: who, in order, with which options."""
    return (f"  {s.describe()}; rules {s.shooters[0].options.rules}; "
            + "; ".join(f"{sh.label}: options: {sh.options.describe()}; named rules: "
                        f"{', '.join(sh.rule_names) or 'none'}" for sh in s.shooters))
