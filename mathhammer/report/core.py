"""The reports of one query: the ``kills``, ``odds`` and ``mortal`` text and JSON, for one
attack and for sequences of steps (turns, mortal-wound rolls).

Why one module: the text and the JSON of a query are built from the same query types and the
same steps, side by side, so that the two never say different things. Exact values are
formatted by :mod:`mathhammer.report.numbers`, comparison grids are in
:mod:`mathhammer.report.tables`.

>>> import mathhammer as mh
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> q = Query("Rifles", ((rifle, 5),), "GEQ", mh.Target(5, 3, 5, 1))
>>> kills_json(q, q.run())["mean"]["kills"]  # 5 attacks * 2/3 hit * 2/3 wound * 2/3 unsaved
'40/27'
"""

from __future__ import annotations

import textwrap
from fractions import Fraction
from typing import Any

import attrs

from ..data.inline import describe_target, describe_weapon
from ..engine.attack import Result, attack, character_destroyed, models_alive
from ..engine.sequence import (
    Attack,
    MortalWounds,
    Reanimate,
    Timeline,
    rule_roll,
    sequence,
    sequence_demise,
)
from ..mechanics.effects import crushing_impact
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import load_ruleset
from ..model.squad import Squad
from ..prob.pmf import PMF
from .numbers import (
    FRACTION_WIDTH,
    as_float,
    decimal,
    fraction,
    percent,
    pmf_json,
    readable_fraction,
)

COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")
_COUNTER_TEXT = {"unsaved": "unsaved wounds", "mortal": "mortal wounds"}


# --- the kills report --------------------------------------------------------------------------


@attrs.frozen
class Query:
    """What was asked: who attacks with which weapons, what is hit, under which rules; with
    ``turns`` or ``mortal_rules`` it is a sequence of steps (see :meth:`steps`)."""

    attacker: str
    profiles: tuple[tuple[Weapon, int], ...]
    target_name: str
    target: Target | Squad
    options: Options = Options()
    named_rules: tuple[str, ...] = ()
    #: the attacking unit's own profile (what Hazardous weapons hurt), when known
    attacker_profile: Target | None = None
    #: named rules that are mortal-wound rolls, rolled after each attack
    mortal_rules: tuple[str, ...] = ()
    #: turns of the same attack (None: one attack)
    turns: int | None = None
    #: reanimation between turns (None: if the target has Reanimation Protocols)
    reanimation: bool | None = None

    def run(self) -> Result:
        """Resolve the attack exactly (one attack from full strength, without the steps)."""
        opts = attrs.asdict(self.options, recurse=False)
        return attack(list(self.profiles), self.target, apply=self.named_rules,
                      attacker=self.attacker_profile, **opts)

    @property
    def is_sequence(self) -> bool:
        """Several steps: turns, or mortal-wound rolls after the attack."""
        return self.turns is not None or bool(self.mortal_rules)

    @property
    def attacks(self) -> int:
        return self.turns or 1

    @property
    def reanimates(self) -> bool:
        """Whether the target reanimates between turns."""
        if self.reanimation is not None:
            return self.reanimation
        return any(g.reanimation for g in _groups(self.target))

    def steps(self) -> list[Any]:
        """The steps of :func:`mathhammer.engine.sequence.sequence`: each turn's attack, then the
        mortal-wound rolls; Reanimation Protocols between turns when the target reanimates.

        >>> import mathhammer as mh
        >>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
        >>> t = mh.Target(models=5, toughness=4, save=4, wounds=1,
        ...               abilities=["reanimation protocols"])
        >>> q = Query("Rifles", ((rifle, 5),), "Five", t, turns=2,
        ...           mortal_rules=("Disintegration Beams",))
        >>> [s.label for s in q.steps()]
        ['attack 1', 'Disintegration Beams', 'reanimate', 'attack 2', 'Disintegration Beams']
        """
        opts = attrs.asdict(self.options, recurse=False)
        out: list[Any] = []
        for i in range(1, self.attacks + 1):
            if i > 1 and self.reanimates:
                out.append(Reanimate())
            label = "attack" if self.turns is None else f"attack {i}"
            out.append(Attack.make(list(self.profiles), apply=self.named_rules, label=label,
                                   **opts))
            out += [MortalWounds(rule_roll(r), label=r) for r in self.mortal_rules]
        return out

    def describe_steps(self) -> str:
        """The turns and mortal-wound rolls in a few words ("" for one plain attack).

        >>> import mathhammer as mh
        >>> t = mh.Target(models=5, toughness=4, save=4, wounds=1)
        >>> Query("A", (), "T", t, turns=3, mortal_rules=("Poisoner's Art",)).describe_steps()
        "3 turns, no reanimation; then: Poisoner's Art (every turn)"
        """
        parts = []
        if self.turns is not None:
            parts.append(f"{self.turns} turn{'s' * (self.turns != 1)}, "
                         + ("reanimation between turns" if self.reanimates else
                            "no reanimation"))
        if self.mortal_rules:
            each = " (every turn)" if self.attacks > 1 else ""
            parts.append(f"then: {', '.join(self.mortal_rules)}{each}")
        return "; ".join(parts)

    def run_sequence(self) -> Timeline:
        """Resolve every step exactly, carrying the target's state."""
        return sequence(self.target, self.steps())


def _mortal_text(name: str) -> str:
    from ..data.named_rules import find_rule

    rule = find_rule(name)
    return f"{rule.name}, mortal wounds {rule.mortal_wounds.describe()}"


def _groups(target: Target | Squad) -> tuple[Target, ...]:
    return target.groups if isinstance(target, Squad) else (target,)


def wounds_lost(target: Target | Squad, state: Any) -> int:
    """Wounds the target has lost from full strength in ``state`` (destroyed models count
    their every wound).

    >>> from mathhammer import TargetState
    >>> wounds_lost(Target(models=3, toughness=4, save=3, wounds=2), TargetState(2, 1))
    3
    """
    parts = state if isinstance(target, Squad) else (state,)
    return sum((g.models - s.models) * g.wounds + s.wounds_lost
               for g, s in zip(_groups(target), parts, strict=True))


def _group_kills(target: Squad, final: PMF) -> list[PMF]:
    return [final.map(lambda s, i=i, g=g: g.models - s[i].models)
            for i, g in enumerate(target.groups)]


def header_lines(query: Query) -> list[str]:
    """Who attacks what, with every rule and option in force."""
    rs = load_ruleset(query.options.rules)
    lines = [f"{query.attacker} -> {query.target_name}",
             f"rule set:    {rs.name}" + (f" ({rs.description})" if rs.description else ""),
             f"options:     {query.options.describe()}",
             f"named rules: {', '.join(query.named_rules) or 'none'}"]
    if query.turns is not None:
        lines.append(f"turns:       {query.turns}; {_reanimation_text(query)}")
    label = "each turn:" if query.attacks > 1 else "then:"  # after the attack
    lines += [f"{label:<13}{_mortal_text(r)}" for r in query.mortal_rules]
    for i, (w, n) in enumerate(query.profiles):
        line = f"{'weapons:' if i == 0 else '':<13}{n}x {describe_weapon(w)}"
        if len(line) > 80 and w.abilities:  # abilities on a line of their own
            line = f"{line[:line.rindex(' | ')]}\n{'':<16}[{', '.join(w.abilities)}]"
        lines += line.split("\n")
    lines.append(f"target:      {describe_target(query.target)}")
    return [w for line in lines for w in textwrap.wrap(line, 80, subsequent_indent=" " * 16,
                                                         break_on_hyphens=False)]


def _reanimation_text(query: Query) -> str:
    if query.reanimation is None:
        return ("reanimation between turns: on (Reanimation Protocols, D3)" if query.reanimates
                else "no reanimation (no Reanimation Protocols)")
    return ("reanimation between turns: on (D3, switched on)" if query.reanimation
            else "no reanimation (switched off)")


def _value_line(label: str, value: Fraction, indent: int = 2) -> str:
    return (f"{' ' * indent}{label:<{18 - indent}}{decimal(value):>10}  "
            f"{readable_fraction(value)}")


def _prob_line(label: str, p: Fraction, indent: int = 0) -> str:
    return f"{' ' * indent}{label:<{18 - indent}}{percent(p):>10}  {readable_fraction(p)}"


def _expected_lines(query: Query, result: Result, title: str = "expected") -> list[str]:
    out = [f"{title:<18}{'value':>10}  exact"]
    means = result.summary()
    for name in COUNTERS:
        out.append(_value_line(_COUNTER_TEXT.get(name, name), means[name]))
    if isinstance(query.target, Squad):
        for i, pmf in enumerate(result.group_kills, 1):  # groups in the target line's order
            out.append(_value_line(f"group {i}", pmf.mean(), 4))
    out.append(_prob_line("P(destroyed)", result.destroyed))
    if isinstance(query.target, Squad) and any(query.target.characters):
        out.append(_prob_line("P(CHARACTER dead)", result.character_destroyed))
    return out


def kills_text(query: Query, result: Result, width: int = 80) -> str:
    """The ``mathhammer kills`` report: header, expected values, the kill distribution.

    The distribution table lists k, the exact P(kills = k), its percentage, P(kills >= k) and
    a bar; when the fractions are too long for ``width`` columns they move to the end.
    """
    out = header_lines(query)
    out += ["", *_expected_lines(query, result)]
    out += _effects_lines(result)
    out += ["", *distribution_table(result.kills, "kills", width)]
    return "\n".join(out) + "\n"


def step_table(timeline: Timeline) -> list[str]:
    """P(destroyed) and the expected models left after each step of a sequence.

    >>> import mathhammer as mh
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
        for i, pmf in enumerate(_group_kills(target, final), 1):
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


def _effects_lines(result: Result) -> list[str]:
    """Deadly Demise of the target and Hazardous tests of the attacker, when they apply."""
    return (_demise_lines(getattr(result, "deadly_demise", None))
            + _hazard_lines(getattr(result, "hazard", None)))


def _demise_lines(demise: PMF | None) -> list[str]:
    if demise is None:
        return []
    return ["", "deadly demise (mortal wounds to each unit within 6\"):",
            _value_line("expected", demise.mean()),
            _prob_line("P(at least 1)", demise.at_least(1), 2)]


def _hazard_lines(hazard: Any, each: bool = False) -> list[str]:
    if hazard is None:
        return []
    p = hazard.failed.at_least(1)
    tests = f"{hazard.tests} test{'s' * (hazard.tests != 1)}" + (" each attack" if each else "")
    out = ["", f"hazardous ({tests}, to the attacking unit):",
           _prob_line("P(any failed)", p, 2),
           _value_line("mortal wounds", hazard.mortal.mean())]
    if hazard.kills is not None:
        out.append(_value_line("models lost", hazard.kills.mean()))
    return out


def _state_json(state: Any, p: Fraction) -> dict[str, Any]:
    if state and isinstance(state[0], tuple):  # a squad: one TargetState per group
        return {"groups": [{"models": s.models, "wounds_lost": s.wounds_lost} for s in state],
                "p": fraction(p)}
    return {"models": state.models, "wounds_lost": state.wounds_lost, "p": fraction(p)}


def _target_json(name: str, target: Target | Squad) -> dict[str, Any]:
    out = {"name": name, "profile": describe_target(target)}
    if isinstance(target, Squad):
        return out | {"groups": [attrs.asdict(g) for g in target.groups]}
    return out | attrs.asdict(target)


def distribution_table(pmf: PMF, what: str, width: int = 80) -> list[str]:
    """A distribution as rows of k, exact fraction, percent, P(>= k) and a text bar.

    >>> print("\\n".join(distribution_table(PMF({0: 1, 1: 3}), "kills", 60)))
    kills  exact    P(=k)  P(>=k)
        0    1/4   25.00% 100.00%  #########
        1    3/4   75.00%  75.00%  ############################
    """
    rows = list(pmf)
    exact = [readable_fraction(p) for _, p in rows]
    fw = max(5, *(len(e) for e in exact))
    kw = max(len(what), *(len(str(k)) for k, _ in rows))
    top = max(p for _, p in rows)
    inline = kw + 2 + fw + 2 + 7 + 1 + 7 + 2 + 10 <= width
    bar_w = max(10, width - (kw + 2 + 7 + 1 + 7 + 2) - ((fw + 2) if inline else 0) - 1)
    if not inline:
        bar_w = min(bar_w, 30)
    head = f"{what:>{kw}}"
    head += f"  {'exact':>{fw}}  {'P(=k)':>7} {'P(>=k)':>7}" if inline else \
        f"  {'P(=k)':>7} {'P(>=k)':>7}  {'':<{bar_w}}  exact"
    lines = [head.rstrip()]
    for (k, p), e in zip(rows, exact, strict=True):
        bar = "#" * round(bar_w * p / top) if p else ""
        if p and not bar:
            bar = "."
        row = f"{k:>{kw}}"
        if inline:
            row += f"  {e:>{fw}}  {percent(p):>7} {percent(pmf.at_least(k)):>7}  {bar}"
        else:
            row += f"  {percent(p):>7} {percent(pmf.at_least(k)):>7}  {bar:<{bar_w}}  {e}"
        lines.append(row.rstrip())
    if any(e.startswith("[") for e in exact):
        lines.append(f"(exact fractions longer than {FRACTION_WIDTH} characters show their "
                     "digits; --json has them all)")
    return lines


def _mean_json(pmf: PMF) -> dict[str, Any]:
    return {"pmf": pmf_json(pmf), "mean": fraction(pmf.mean()),
            "mean_float": as_float(pmf.mean())}


def _query_json(query: Query) -> dict[str, Any]:
    return {
        "attacker": query.attacker,
        "target": _target_json(query.target_name, query.target),
        "weapons": [{"models": n, "profile": describe_weapon(w), **attrs.asdict(w)}
                    for w, n in query.profiles],
        "rules": query.options.rules,
        "options": attrs.asdict(query.options),
        "named_rules": list(query.named_rules),
    }


def _hazard_json(hazard: Any) -> dict[str, Any]:
    return {"tests": hazard.tests, "failed": pmf_json(hazard.failed),
            "mortal": pmf_json(hazard.mortal),
            "kills": None if hazard.kills is None else pmf_json(hazard.kills)}


def _counters_json(result: Result) -> dict[str, Any]:
    means = result.summary()
    return {
        "pmf": {name: pmf_json(getattr(result, name)) for name in COUNTERS},
        "mean": {name: fraction(means[name]) for name in COUNTERS},
        "mean_float": {name: as_float(means[name]) for name in COUNTERS},
        "destroyed": fraction(result.destroyed),
        "destroyed_float": as_float(result.destroyed),
    }


def kills_json(query: Query, result: Result) -> dict[str, Any]:
    """The whole result as JSON-ready data: every PMF as ``{"k": "num/den"}``, means exact and
    as floats, and what was asked.

    ``state`` (the target afterwards) is a list of ``{"models", "wounds_lost", "p"}`` (for a
    squad ``{"groups": [{"models", "wounds_lost"}, ...], "p"}``, with ``group_kills`` and
    ``character_destroyed`` too).
    """
    extra: dict[str, Any] = {}
    if isinstance(query.target, Squad):
        extra["group_kills"] = [
            {"name": g.name, **_mean_json(pmf)}
            for g, pmf in zip(query.target.groups, result.group_kills, strict=True)]
        if any(query.target.characters):
            extra["character_destroyed"] = fraction(result.character_destroyed)
            extra["character_destroyed_float"] = as_float(result.character_destroyed)
    demise = getattr(result, "deadly_demise", None)
    if demise is not None:
        extra["deadly_demise"] = _mean_json(demise)
    hazard = getattr(result, "hazard", None)
    if hazard is not None:
        extra["hazard"] = _hazard_json(hazard)
    return {
        **_query_json(query),
        **_counters_json(result),
        "state": [_state_json(s, p) for s, p in result.state],
        **extra,
    }


def _timeline_json(timeline: Timeline) -> dict[str, Any]:
    """The steps and the end of a sequence (shared by ``kills --turns`` and ``mortal``)."""
    target, final = timeline.target, timeline.final
    kills, left = timeline.kills, timeline.models_left
    lost = final.map(lambda s: wounds_lost(target, s))
    steps = []
    for step, d, state in zip(timeline.steps, timeline.destroyed, timeline.states[1:],
                              strict=True):
        models = state.map(models_alive)
        steps.append({"label": step.label, "destroyed": fraction(d),
                      "destroyed_float": as_float(d),
                      "models_left": pmf_json(models), "models_left_mean":
                      fraction(models.mean()), "models_left_mean_float": as_float(models.mean())})
    out: dict[str, Any] = {
        "steps": steps,
        "pmf": {"kills": pmf_json(kills), "models_left": pmf_json(left),
                "wounds_lost": pmf_json(lost)},
        "mean": {"kills": fraction(kills.mean()), "models_left": fraction(left.mean()),
                 "wounds_lost": fraction(lost.mean())},
        "mean_float": {"kills": as_float(kills.mean()), "models_left": as_float(left.mean()),
                       "wounds_lost": as_float(lost.mean())},
        "destroyed": fraction(timeline.destroyed[-1]),
        "destroyed_float": as_float(timeline.destroyed[-1]),
        "state": [_state_json(s, p) for s, p in final],
    }
    if isinstance(target, Squad):
        out["group_kills"] = [{"name": g.name, **_mean_json(pmf)} for g, pmf in
                              zip(target.groups, _group_kills(target, final), strict=True)]
        if any(target.characters):
            c = character_destroyed(target, final)
            out["character_destroyed"] = fraction(c)
            out["character_destroyed_float"] = as_float(c)
    demise = sequence_demise(timeline)
    if demise is not None:
        out["deadly_demise"] = _mean_json(demise)
    return out


def sequence_json(query: Query, timeline: Timeline, first: Result | None = None
                  ) -> dict[str, Any]:
    """A sequence (``kills --turns N``, mortal-wound rules) as JSON-ready data: what was
    asked, ``steps`` (each with P(destroyed) and the models left), then at the end ``pmf`` and
    ``mean`` of ``kills`` (from Starting Strength), ``models_left`` and ``wounds_lost``,
    ``destroyed`` and ``state``. With one attack, ``attack`` holds its own counters; ``hazard``
    is each attack's from full strength."""
    from ..data.named_rules import find_rule

    rules = [find_rule(r) for r in query.mortal_rules]
    out = {
        **_query_json(query),
        "mortal_wound_rules": [{"name": r.name, "roll": r.mortal_wounds.describe(),
                                **_mean_json(r.mortal_wounds.pmf())} for r in rules],
        "turns": query.turns,
        "reanimation": query.reanimates if query.turns is not None else None,
        **_timeline_json(timeline),
    }
    if first is not None and query.attacks == 1:
        out["attack"] = _counters_json(first)
    if first is not None and first.hazard is not None:
        out["hazard"] = _hazard_json(first.hazard)
    return out


@attrs.frozen
class MortalQuery:
    """Mortal wounds on a target (``mathhammer mortal``): Crushing Impact of a charging model
    of Toughness ``crushing_impact`` first, then each roll in order.

    >>> q = MortalQuery("Two", Target(models=2, toughness=4, save=3, wounds=1), (("D3", "D3"),))
    >>> q.run().kills.mean()  # min(D3, 2): (1 + 2 + 2) / 3
    Fraction(5, 3)
    """

    target_name: str
    target: Target | Squad
    #: (label, dice expression or the name of a mortal-wound rule)
    rolls: tuple[tuple[str, str], ...] = ()
    crushing_impact: int | None = None

    @property
    def crushing(self) -> PMF | None:
        """Crushing Impact: PMF over (mortal wounds to the target, to the charging model)."""
        return None if self.crushing_impact is None else crushing_impact(self.crushing_impact)

    def amounts(self) -> list[tuple[str, str, PMF]]:
        """(label, what is rolled, mortal wounds) of every step, in order."""
        from ..data.named_rules import find_rule
        from ..prob.dice import dice

        out = []
        if self.crushing is not None:
            t = self.crushing_impact
            out.append(("Crushing Impact", f"T{t}: {t} D6, 5+ -> 1 each, at most 6",
                        self.crushing.map(lambda x: x[0])))
        for label, roll in self.rolls:
            try:
                out.append((label, roll, dice(roll)))
            except ValueError:
                rule = find_rule(roll)
                out.append((label, rule.mortal_wounds.describe(), rule_roll(roll)))
        return out

    def run(self) -> Timeline:
        return sequence(self.target, [MortalWounds(pmf, label=label)
                                      for label, _, pmf in self.amounts()])

    def total(self) -> PMF:
        """Mortal wounds rolled in all (before Feel No Pain; some may be lost)."""
        out = PMF.point(0)
        for _, _, pmf in self.amounts():
            out = out + pmf
        return out


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
    if any(g.wounds > 1 for g in _groups(query.target)):
        lost = timeline.final.map(lambda s: wounds_lost(query.target, s))
        out += ["", *distribution_table(lost, "wounds lost", width)]
    return "\n".join(out) + "\n"


def mortal_json(query: MortalQuery, timeline: Timeline) -> dict[str, Any]:
    """``mathhammer mortal --json``: the target, each roll (``rolls``), ``mortal_wounds`` (the
    total rolled), Crushing Impact (``crushing_impact``: to the target and to the charging
    model), then the steps and the end as for :func:`sequence_json`."""
    crushing = None
    if query.crushing is not None:
        crushing = {"toughness": query.crushing_impact,
                    "to_target": _mean_json(query.crushing.map(lambda x: x[0])),
                    "to_charger": _mean_json(query.crushing.map(lambda x: x[1]))}
    return {
        "target": _target_json(query.target_name, query.target),
        "rolls": [{"label": label, "roll": text, **_mean_json(pmf)}
                  for label, text, pmf in query.amounts()],
        "mortal_wounds": _mean_json(query.total()),
        "crushing_impact": crushing,
        **_timeline_json(timeline),
    }


