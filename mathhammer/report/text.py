"""The ``kills``, ``odds`` and ``mortal`` reports as text: who attacks what, the expected
values with their exact fractions, P(destroyed) after each step, the kill distribution.
The same answers as JSON are :mod:`mathhammer.report.jsonout`.

>>> import mathhammer as mh
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> q = Query("Rifles", ((rifle, 5),), "GEQ", mh.Target(5, 3, 5, 1))
>>> print(kills_text(q, q.run()).splitlines()[14])  # 5 attacks x 2/3 hit x 2/3 wound x 2/3 fail
  kills                1.481  40/27
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any, NamedTuple

from ..app.scenario import Counter, MortalQuery, Query, group_kills, groups, wounds_lost
from ..data.typed.inline import describe_weapon
from ..engine.attack import Result, character_destroyed, models_alive
from ..engine.sequence import Timeline, sequence_demise
from ..model.ruleset import load_ruleset
from ..model.squad import Squad, describe_target
from ..prob.numbers import FRACTION_WIDTH, decimal, json_fraction, percent, readable_fraction
from ..prob.pmf import PMF


class ValueRow(NamedTuple):
    """One value of a report: a label, an exact value, shown as a decimal or a percentage."""

    label: str
    value: Fraction
    prob: bool = False  # a probability, shown as a percentage
    indent: int = 2


class Section(NamedTuple):
    """A titled block of rows; ``columns``: the title line also names the value columns."""

    title: str
    rows: list[ValueRow]
    columns: bool = False


def header_rows(query: Query) -> list[tuple[str, str]]:
    """Who attacks what, with every rule and option in force: ``(label, text)`` pairs (a
    label is "" on the lines after the first weapon)."""
    rs = load_ruleset(query.options.rules)
    rows = [("rule set", rs.name + (f" ({rs.description})" if rs.description else "")),
            ("options", query.options.describe()),
            ("named rules", ", ".join(query.named_rules) or "none")]
    if query.unit_rules:
        rows.append(("unit rules", ", ".join(r.name for r in query.unit_rules)))
    if query.not_modelled:
        rows.append(("not modelled", ", ".join(r.name for r in query.not_modelled)))
    if query.switches_off:
        rows.append(("switches", "off: " + ", ".join(query.switches_off) + " (--rule NAME)"))
    if query.turns is not None:
        rows.append(("turns", f"{query.turns}; {_reanimation_text(query)}"
                     + (f"; {query.one_shot}" if query.one_shot else "")))
    label = "each turn" if query.attacks > 1 else "then"  # after the attack
    rows += [(label, _mortal_text(r)) for r in query.mortal_rules]
    rows += [("weapons" if i == 0 else "", f"{n}x {describe_weapon(w)}")
             for i, (w, n) in enumerate(query.profiles)]
    rows += [("left out" if i == 0 else "", x.text) for i, x in enumerate(query.left_out)]
    rows.append(("target", describe_target(query.target)))
    return rows


def header_lines(query: Query) -> list[str]:
    """Who attacks what, with every rule and option in force."""
    lines = [f"{query.attacker} -> {query.target_name}"]
    weapons = iter(query.profiles)
    in_weapons = False
    for label, text in header_rows(query):
        line = f"{label + ':' if label else '':<12} {text}"
        in_weapons = label == "weapons" or (in_weapons and not label)
        if in_weapons:
            w = next(weapons)[0]
            if len(line) > 80 and w.abilities:  # abilities on a line of their own
                line = f"{line[:line.rindex(' | ')]}\n{'':<16}[{', '.join(w.abilities)}]"
        lines += line.split("\n")
    return [w for line in lines for w in textwrap.wrap(line, 80, subsequent_indent=" " * 16,
                                                         break_on_hyphens=False)]


def explain_lines(query: Query) -> list[str]:
    """``--explain``: every rule from data applied, with what it adds to E[kills] and to
    P(destroyed) (the answer with it minus without it alone), its source and text; then the
    units' rules that are not modelled, each with why."""
    out = ["", "rules applied (what each adds: E[kills], P(destroyed)):"]
    if not query.unit_rules:
        out.append("  none")
    for c in query.explain():
        r = c.rule
        out.append(f"  {r.name} ({r.kind}, {r.side}): {r.describe()}")
        out.append(f"    E[kills] {float(c.kills):+.3f} ({c.kills}), P(destroyed) "
                   f"{float(c.destroyed) * 100:+.2f}% ({c.destroyed})")
        out.append(f"    source: {r.source or r.file}")
        out += textwrap.wrap(f"text: {r.text}", 80, initial_indent="    ",
                             subsequent_indent="      ")
    if query.not_modelled:
        out.append("not modelled:")
        out += [f"  {r.name}: {r.not_modelled}" for r in query.not_modelled]
    return out


def _reanimation_text(query: Query) -> str:
    if query.reanimation is None:
        return ("reanimation between turns: on (Reanimation Protocols, D3)" if query.reanimates
                else "no reanimation (no Reanimation Protocols)")
    return ("reanimation between turns: on (D3, switched on)" if query.reanimation
            else "no reanimation (switched off)")


def _mortal_text(name: str) -> str:
    from ..data.rules.named import find_rule

    rule = find_rule(name)
    assert rule.mortal_wounds is not None, rule.name  # the caller's: a mortal-wound rule
    return f"{rule.name}, mortal wounds {rule.mortal_wounds.describe()}"


def shown(row: ValueRow) -> str:
    """A row's value as a report shows it: a percentage or a decimal."""
    return percent(row.value) if row.prob else decimal(row.value)


def _row_line(row: ValueRow) -> str:
    return (f"{' ' * row.indent}{row.label:<{18 - row.indent}}{shown(row):>10}  "
            f"{readable_fraction(row.value)}")


def _section_lines(section: Section) -> list[str]:
    title = f"{section.title:<18}{'value':>10}  exact" if section.columns else section.title
    return [title, *map(_row_line, section.rows)]


def _value_line(label: str, value: Fraction, indent: int = 2) -> str:
    return _row_line(ValueRow(label, value, False, indent))


def _prob_line(label: str, p: Fraction, indent: int = 0) -> str:
    return _row_line(ValueRow(label, p, True, indent))


def _expected_section(query: Query, result: Result, title: str = "expected") -> Section:
    means = result.summary()
    rows = [ValueRow(c.text, means[c]) for c in Counter]
    if isinstance(query.target, Squad):
        rows += [ValueRow(f"group {i}", pmf.mean(), indent=4)  # groups in the target line's order
                 for i, pmf in enumerate(result.group_kills, 1)]
    rows.append(ValueRow("P(destroyed)", result.destroyed, True, 0))
    if isinstance(query.target, Squad) and any(query.target.characters):
        rows.append(ValueRow("P(CHARACTER dead)", result.character_destroyed, True, 0))
    return Section(title, rows, columns=True)


def _expected_lines(query: Query, result: Result, title: str = "expected") -> list[str]:
    return _section_lines(_expected_section(query, result, title))


def kills_sections(query: Query, result: Result) -> list[Section]:
    """The values of the ``kills`` report between its header and its distribution: the
    expected values, then Deadly Demise and Hazardous tests when they apply."""
    return [_expected_section(query, result), *_effects_sections(result)]


def kills_text(query: Query, result: Result, width: int = 80) -> str:
    """The ``mathhammer kills`` report: header, expected values, the kill distribution.

    The distribution table lists k, the exact P(kills = k), its percentage, P(kills >= k) and
    a bar; when the fractions are too long for ``width`` columns they move to the end.
    """
    out = header_lines(query)
    for section in kills_sections(query, result):
        out += ["", *_section_lines(section)]
    out += ["", *distribution_table(result.kills, "kills", width)]
    return "\n".join(out) + "\n"


def step_table(timeline: Timeline) -> list[str]:
    """P(destroyed) and the expected models left after each step of a sequence.

    >>> import mathhammer as mh
    >>> from mathhammer.engine.sequence import MortalWounds
    >>> t = mh.Target(models=2, toughness=4, save=3, wounds=1)
    >>> steps = [MortalWounds("D3", label="D3"), MortalWounds(1, label="1")]
    >>> print("\\n".join(step_table(mh.sequence(t, steps))))  # D3 >= 2 on 2/3; then 1 more
    after step  P(destroyed)  models left  exact P(destroyed)
      D3              66.67%        0.333  2/3
      1              100.00%        0.000  1
    """
    labels = [step.label for step in timeline.steps]
    lw = max(len("after step"), *(len(label) + 2 for label in labels))
    out = [f"{'after step':<{lw}}  {'P(destroyed)':>12}  {'models left':>11}  exact P(destroyed)"]
    for label, d, state in zip(labels, timeline.destroyed, timeline.states[1:], strict=True):
        left = state.map(models_alive).mean()
        out.append(f"  {label:<{lw - 2}}  {percent(d):>12}  {decimal(left):>11}  "
                   f"{readable_fraction(d)}")
    return out


def _final_lines(timeline: Timeline, mortal: PMF | None = None) -> list[str]:
    target, final = timeline.target, timeline.final
    out = [f"{'at the end':<18}{'value':>10}  exact"]
    if mortal is not None:
        out.append(_value_line("mortal wounds", mortal.mean()))
    out.append(_value_line("wounds lost", final.map(lambda s: wounds_lost(target, s)).mean()))
    out.append(_value_line("kills", timeline.kills.mean()))
    if isinstance(target, Squad):
        for i, pmf in enumerate(group_kills(target, final), 1):
            out.append(_value_line(f"group {i}", pmf.mean(), 4))
    out.append(_value_line("models left", timeline.models_left.mean()))
    out.append(_prob_line("P(destroyed)", timeline.destroyed[-1]))
    if isinstance(target, Squad) and any(target.characters):
        out.append(_prob_line("P(CHARACTER dead)", character_destroyed(target, final)))
    return out


def sequence_text(query: Query, timeline: Timeline, first: Result | None = None,
                  width: int = 80) -> str:
    """The ``mathhammer kills --turns N`` report (also with a mortal-wound rule): header,
    P(destroyed) after each step, the expected values at the end, the kill distribution
    counted from Starting Strength. ``first`` (the attack from full strength) adds its
    expected values when there is one attack, and its Hazardous tests."""
    out = header_lines(query)
    if first is not None and query.attacks == 1:
        out += ["", *_expected_lines(query, first, "expected (attack)")]
    out += ["", *step_table(timeline), "", *_final_lines(timeline)]
    out += _demise_lines(sequence_demise(timeline))
    if first is not None:
        out += _hazard_lines(first.hazard, each=query.attacks > 1)
    out += ["", *distribution_table(timeline.kills, "kills", width)]
    return "\n".join(out) + "\n"


def _effects_sections(result: Result) -> list[Section]:
    """Deadly Demise of the target and Hazardous tests of the attacker, when they apply."""
    return (_demise_sections(getattr(result, "deadly_demise", None))
            + _hazard_sections(getattr(result, "hazard", None)))


def _demise_sections(demise: PMF | None) -> list[Section]:
    if demise is None:
        return []
    return [Section("deadly demise (mortal wounds to each unit within 6\"):",
                    [ValueRow("expected", demise.mean()),
                     ValueRow("P(at least 1)", demise.at_least(1), True, 2)])]


def _hazard_sections(hazard: Any, each: bool = False) -> list[Section]:
    if hazard is None:
        return []
    p = hazard.failed.at_least(1)
    tests = f"{hazard.tests} test{'s' * (hazard.tests != 1)}" + (" each attack" if each else "")
    rows = [ValueRow("P(any failed)", p, True, 2), ValueRow("mortal wounds", hazard.mortal.mean())]
    if hazard.kills is not None:
        rows.append(ValueRow("models lost", hazard.kills.mean()))
    return [Section(f"hazardous ({tests}, to the attacking unit):", rows)]


def _demise_lines(demise: PMF | None) -> list[str]:
    return [line for s in _demise_sections(demise) for line in ["", *_section_lines(s)]]


def _hazard_lines(hazard: Any, each: bool = False) -> list[str]:
    return [line for s in _hazard_sections(hazard, each) for line in ["", *_section_lines(s)]]


def distribution_table(pmf: PMF, what: str, width: int = 80) -> list[str]:
    """A distribution as rows of k, exact fraction, percent, P(>= k) and a text bar.

    >>> print("\\n".join(distribution_table(PMF({0: 1, 1: 3}), "kills", 60)))
    kills  exact    P(=k)  P(>=k)
        0    1/4   25.00% 100.00%  #########
        1    3/4   75.00%  75.00%  ############################
    """
    rows = list(pmf.items())
    exact = [readable_fraction(p) for _, p in rows]
    fw = max(5, *(len(e) for e in exact))
    keys = [str(k) for k, _ in rows]  # a Fraction (points per model) has no format spec
    kw = max(len(what), *(len(k) for k in keys))
    top = max(p for _, p in rows)
    inline = kw + 2 + fw + 2 + 7 + 1 + 7 + 2 + 10 <= width
    bar_w = max(10, width - (kw + 2 + 7 + 1 + 7 + 2) - ((fw + 2) if inline else 0) - 1)
    if not inline:
        bar_w = min(bar_w, 30)
    head = f"{what:>{kw}}"
    head += f"  {'exact':>{fw}}  {'P(=k)':>7} {'P(>=k)':>7}" if inline else \
        f"  {'P(=k)':>7} {'P(>=k)':>7}  {'':<{bar_w}}  exact"
    lines = [head.rstrip()]
    for (k, p), e, key in zip(rows, exact, keys, strict=True):
        bar = "#" * round(bar_w * p / top) if p else ""
        if p and not bar:
            bar = "."
        row = f"{key:>{kw}}"
        if inline:
            row += f"  {e:>{fw}}  {percent(p):>7} {percent(pmf.at_least(k)):>7}  {bar}"
        else:
            row += f"  {percent(p):>7} {percent(pmf.at_least(k)):>7}  {bar:<{bar_w}}  {e}"
        lines.append(row.rstrip())
    if any(e.startswith("[") for e in exact):
        every = ("--json --full-fractions" if any(json_fraction(p).startswith("[")
                                                   for _, p in rows) else "--json")
        lines.append(f"(exact fractions longer than {FRACTION_WIDTH} characters show their "
                     f"digits; {every} has them all)")
    return lines


def mortal_text(query: MortalQuery, timeline: Timeline, width: int = 80) -> str:
    """The ``mathhammer mortal`` report: the rolls, P(destroyed) after each, the expected
    values at the end, Crushing Impact's mortal wounds to the charger, the distributions of
    kills and (when a model has more than one wound) of wounds lost."""
    lines = [f"mortal wounds -> {query.target_name}",
             f"target:      {describe_target(query.target)}"]
    for i, (label, text, pmf) in enumerate(query.amounts()):
        what = label if text == label else f"{label}: {text}"
        lines.append(f"{'rolls:' if i == 0 else '':<13}{what} (expected "
                     f"{readable_fraction(pmf.mean())})")
    out = [w for line in lines for w in textwrap.wrap(line, 80, subsequent_indent=" " * 16,
                                                        break_on_hyphens=False)]
    out += ["", *step_table(timeline), "", *_final_lines(timeline, query.total())]
    if query.crushing is not None:
        hurt = query.crushing.map(lambda x: x[1])
        out += ["", "crushing impact (11e stratagem; mortal wounds to the charging model):",
                _value_line("expected", hurt.mean()),
                _prob_line("P(at least 1)", hurt.at_least(1), 2)]
    out += _demise_lines(sequence_demise(timeline))
    out += ["", *distribution_table(timeline.kills, "kills", width)]
    if any(g.wounds > 1 for g in groups(query.target)):
        lost = timeline.final.map(lambda s: wounds_lost(query.target, s))
        out += ["", *distribution_table(lost, "wounds lost", width)]
    return "\n".join(out) + "\n"


#: the end of a sequence, reused by :mod:`mathhammer.report.plan_report`
final_lines = _final_lines
