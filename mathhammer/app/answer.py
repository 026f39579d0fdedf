"""Every query answered: a query value (:mod:`mathhammer.app.queries`) resolved against the
data (``data``: a BattleScribe folder, None for the default) and answered by the engine, as
values; rendering them (text, and the JSON of ``--json`` and the page,
:mod:`mathhammer.report.answer_json`) is :mod:`mathhammer.report`'s.

>>> from mathhammer.app.queries import Kills, Odds
>>> q = Odds(Kills(attacker="1x 1 | 3+ | 4 | 0 | 1", target="1x T4 Sv7+ W1"), "destroyed")
>>> odds_of(q).p  # 2/3 to hit, 1/2 to wound, no save
Fraction(1, 3)
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs

from ..data.rules.attached import defending_rules, target_rules
from ..errors import InputError, field
from . import planning
from .grids import Column, Grid, Row, build_grid, phases, standard_targets
from .lists import (
    ARMY_REF,
    army_module,
    army_unit,
    query_lists,
    read_list,
)
from .plans import PlanAnswers, plan_answers
from .queries import ArmyRead, Compare, Kills, Odds, Salvo
from .resolve import (
    army_switches,
    attacker,
    attacker_rows,
    shooter,
    switch_on,
    switches_off,
    target_and_rules,
    warn,
    warn_options,
)
from .scenario import Query
from .specs import check_work, split_rules, target_of

# --- kills ---------------------------------------------------------------------------------------


def kills_scenario(q: Kills, data: str | None = None) -> Query:
    """The exact question of a kills query (:class:`~mathhammer.app.scenario.Query`): its
    units resolved, each side's rules from data, the named rules sorted into attack rules and
    mortal-wound rolls, the options that change nothing said."""
    from ..data.typed.inline import is_inline_weapon

    s = q.setup.with_rules(data)
    if q.attacker is None and not any(is_inline_weapon(w) for w in s.weapons):
        raise InputError("attacker: expected a unit's name or inline weapon rows (or inline "
                         "rows in weapons)")
    if s.reanimation is not None and s.turns is None:
        raise InputError(f"{field('reanimation', s.reanimation)}: only with {field('turns')} N")
    army = None
    refs = [x for x in (q.attacker, q.target) if x is not None and x.startswith(ARMY_REF)]
    if q.army is not None:
        army = read_list(q.army, data)
        if q.setup.rules is None and getattr(army, "edition", None):  # the list's edition
            s = attrs.evolve(s, rules=army.edition)
    elif refs:
        raise InputError(f"{'attacker' if refs[0] == q.attacker else 'target'} {refs[0]!r}: "
                         "a unit of an army list; give the list (army)")
    spec: Any = q.attacker
    label = None
    if army is not None and spec is not None and spec.startswith(ARMY_REF):
        label, spec = army_unit(army, "attacker", spec)
    if army is not None and q.target.startswith(ARMY_REF):
        if s.leader:
            raise InputError(f"{field('leader')}: a unit of an army list has the Leader the list "
                             "gives it")
        name, unit = army_unit(army, "target", q.target)
        defending = unit.as_target(models=s.target_models)
        against = defending_rules(unit, data)
    else:
        name, defending = target_of(q.target, s.target_models, s.leader, rules=s.ruleset,
                                    data=data)
        against = target_rules(q.target, s.leader, rules=s.ruleset, data=data)
    attacking = attacker(spec, s, melee=not s.ranged, against=defending, data=data)
    if label is not None:
        attacking = attrs.evolve(attacking, label=label)
    found, rest = switch_on(attacking.rules + against, s.named_rules,
                            army_switches(army, data) if army is not None else None)
    named, mortal = split_rules(rest)
    options = s.options()
    if attacking.led:
        options = attrs.evolve(options, led=True)
    if s.pistols and not s.ranged:
        warn(f"{field('pistols')} has no effect with {field('ranged', False)}: Pistols are ranged "
             "weapons")
    if not attacking.profiles and attacking.left_out:
        raise InputError(f"{attacking.label}: no weapon fires: "
                         + "; ".join(x.text for x in attacking.left_out))
    warn_options(s, options, attacking, rest)
    check_work(attacking.profiles, defending, s.ruleset)
    return Query(attacking.label, attacking.profiles, name, defending, options, named,
                 attacking.profile, mortal, s.turns, s.reanimation,
                 left_out=attacking.left_out, unit_rules=found.applied,
                 not_modelled=found.not_modelled, switches_off=switches_off(found))


# --- several units into one target ---------------------------------------------------------------


def salvo_of(q: Salvo, data: str | None = None) -> planning.SalvoScenario:
    """The units of a salvo resolved in order against its target (each with its own options
    added to the query's)."""
    s = q.setup.with_rules(data)
    name, defending, rules = target_and_rules(q.target, s, data)
    shooters = tuple(shooter(o.unit, o.setup(s), data=data) for o in q.units)
    for sh in shooters:
        check_work(sh.profiles, defending, s.ruleset)
    return planning.SalvoScenario(name, defending, shooters, rules)


# --- odds ----------------------------------------------------------------------------------------


@attrs.frozen
class OddsAnswer:
    """The probability asked (``what``: of what, in words), with what it was asked of."""

    what: str
    p: Fraction
    scenario: Query | planning.SalvoScenario
    answer: Any


def odds_of(q: Odds, data: str | None = None) -> OddsAnswer:
    """One exact probability of a kills query or a salvo."""
    if isinstance(q.query, Salvo):
        s = salvo_of(q.query, data)
        timeline = s.run()
        what, p = s.odds(q.ask, q.k, q.counter, timeline)
        return OddsAnswer(what, p, s, timeline)
    query = kills_scenario(q.query, data)
    answer = query.answer()  # resolved once, for the probability and the JSON
    what, p = query.odds(q.ask, q.k, q.counter, answer)
    return OddsAnswer(what, p, query, answer)


# --- a comparison --------------------------------------------------------------------------------


def _target_specs(values: tuple[str, ...]) -> list[str]:
    """The targets named (names split at commas; an inline profile whole), else the standard
    targets."""
    from ..data.typed.inline import is_inline_target
    from ..limits import check_values

    if not values:
        return standard_targets()
    out = []
    for v in values:
        if is_inline_target(v):
            out.append(v)
        else:
            out += [x.strip() for x in v.split(",") if x.strip()]
    if not out:
        raise InputError(f"{field('targets')}: expected at least one target")
    check_values(field("targets"), len(out))
    return out


def _army_columns(army: Any, data: str | None) -> list[Column]:
    """One column per unit of the army (an attached pair is one target), with the rules from
    data that change attacks against it."""
    return [Column(label, unit.as_target(), defending_rules(unit, data).applied)
            for label, unit in army.rows()]


def compare_cells(q: Compare, data: str | None = None) -> tuple[list[Row], list[Column], Any]:
    """The rows and columns of a comparison (each cell's work checked), and the army list of
    its rows."""
    mine, theirs, s = query_lists(q, data)
    if q.defence:
        columns = _army_columns(mine, data)
    elif theirs is not None:
        columns = _army_columns(theirs, data)
    else:
        columns = [Column(*target_and_rules(t, s, data)) for t in _target_specs(q.targets)]
    listed = theirs if q.defence else mine
    asked = phases(q.ranged, q.melee)
    variants: list[tuple[str, dict[str, Any]]] = [("", {})] + [
        (v.label, dict(v.changes)) for v in q.variants]
    elsewhere = army_switches(listed, data) if listed else None

    def rows_of(label: str | None, unit: Any, melee: bool, text: str, extra: dict) -> list[Row]:
        return attacker_rows(label, unit, s.merged(extra), by_weapon=q.by == "weapon",
                             vary_text=text,
                             melee=not extra["ranged"] if "ranged" in extra else melee,
                             both=len(asked) > 1,
                             elsewhere=elsewhere if label is not None else None, data=data)

    rows: list[Row] = []
    # an army list's units phase by phase; then each attacker named, with all its rows
    for melee in asked:
        for text, extra in variants:
            for label, unit in listed.rows() if listed else []:
                rows += rows_of(label, unit, melee, text, extra)
    for spec in q.attackers:
        for melee in asked:
            for text, extra in variants:
                rows += rows_of(None, spec, melee, text, extra)
    for row in rows:
        for column in columns:
            check_work(row.profiles_against(column.target), column.target, row.options.rules)
    return rows, columns, mine


def compare_grid(q: Compare, data: str | None = None,
                 progress: Callable[[int], Any] | None = None) -> Grid:
    """Every cell of a comparison computed (``progress(1)`` after each)."""
    rows, columns, _ = compare_cells(q, data)
    return build_grid(rows, columns, q.metric, title=q.title, progress=progress)


# --- an army list read -----------------------------------------------------------------------


def army_read(q: ArmyRead, data: str | None = None, *, source: str | None = None
              ) -> tuple[Any, list[dict[str, Any]]]:
    """An army list read (its unresolved lines kept) and each row's rules from data
    (``source``: how a list's text is named in messages, ``<text>`` by default)."""
    from ..data.rules.attached import army_rules

    module = army_module()
    if q.army.path is not None:
        a = module.load_army(q.army.path, data=data, rules=q.rules, attach=q.attach, fmt=q.fmt)
    else:
        text = q.army.text if q.army.text is not None else base64.b64decode(q.army.base64 or "")
        a = module.parse_army(text, data=data, source=source or "<text>", rules=q.rules,
                              attach=q.attach, fmt=q.fmt)
    return a, army_rules(a, data)


__all__ = ["OddsAnswer", "PlanAnswers", "army_read", "compare_cells", "compare_grid",
           "kills_scenario", "odds_of", "plan_answers", "salvo_of"]
