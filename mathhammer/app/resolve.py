"""From what a player names to what the engine takes: the attacker and the target of a
:class:`~mathhammer.app.setup.Setup`, the rules from data of both sides with the switches a
``named_rules`` entry names switched on, an army list's rows and columns, a plan's shooters and
targets. Every face (the command line, the page, a tool server) resolves here; a guess is a
``UserWarning`` (the command line prints it as ``warning: ...``, the page lists it).

>>> name, t = target("5x T4 Sv3+ W2", Setup(rules="10e"))
>>> name, t.models
('5x T4 Sv3+ W2', 5)
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import attrs

from ..data.rules.attached import target_rules
from ..data.rules.unit_rules import UnitRules
from ..engine.plan import Shooter
from ..errors import InputError, InputWarning, NotCarried, field, marked
from ..model.named import NamedRule
from ..model.options import Options
from ..model.profiles import Target
from ..model.squad import Squad
from .grids import Row, phase_suffix, rows_for
from .planning import shooter_of
from .setup import Setup
from .specs import (
    Attacker,
    attacker_of,
    check_work,
    option_warnings,
    split_rules,
    target_of,
)


def warn(text: str) -> None:
    """Say a guess out loud (a ``UserWarning``; each face shows it as one line)."""
    warnings.warn(InputWarning(text), stacklevel=2)


def file_rules(names: Iterable[str]) -> tuple[str, ...]:
    """The named rules from files among ``names`` that change the attack (what weapon choice
    weighs); a unit's own switch or an unknown name is left to :func:`switch_on` and
    :func:`~mathhammer.app.specs.split_rules`, which say so."""
    from ..data.rules.named import find_rule

    out = []
    for name in names:
        try:
            rule = find_rule(name)
        except InputError:
            continue
        if rule.mortal_wounds is None:
            out.append(rule.name)
    return tuple(out)


def attacker(spec: str | None, s: Setup, *, melee: bool, every_weapon: bool = False,
             against: Target | Squad | None = None, data: str | None = None) -> Attacker:
    """The attacker ``spec`` names, with the weapons, models and pistols of ``s``; its weapons
    chosen against the target ``against`` (MEQ when None)."""
    return attacker_of(spec, s.weapons, melee=melee, models=s.models,
                       every_weapon=every_weapon, rules=s.ruleset, data=data, target=against,
                       options=s.options(), named_rules=file_rules(s.named_rules),
                       pistols=s.pistols, keywords=s.attacker_keywords,
                       detachment=s.detachment, enhancements=s.enhancements)


def target(spec: str, s: Setup, data: str | None = None) -> tuple[str, Target | Squad]:
    """The target ``spec`` names, with the target models and Leader of ``s``."""
    return target_of(spec, s.target_models, s.leader, rules=s.ruleset, data=data)


def target_and_rules(spec: str, s: Setup, data: str | None = None
                     ) -> tuple[str, Target | Squad, tuple[Any, ...]]:
    """:func:`target` with the target's rules from data that change attacks against it (its
    own, its Leader's: as a kills query applies them)."""
    name, profile = target(spec, s, data)
    found = target_rules(spec, s.leader, rules=s.ruleset, data=data)
    return name, profile, found.applied


def warn_options(s: Setup, options: Options, attacking: Attacker,
                 named: tuple[str, ...] | None = None) -> None:
    """Warn about the options of ``s`` (made into ``options``) that change nothing for this
    attacker (``named``: the named rules from files, when some names a unit's switch), and
    what the attacker's notes say (a Leader that cannot lead this unit)."""
    for text in option_warnings(options, s.named_rules if named is None else named,
                                attacking, lethal_asked=s.given("lethal_hits")):
        warn(text)
    for text in attacking.notes:
        warn(text)


def switch_on(found: UnitRules, names: Iterable[str], elsewhere: UnitRules | None = None
              ) -> tuple[UnitRules, tuple[str, ...]]:
    """The rules from data ``found`` with the switches ``names`` name switched on (as
    ``applied``), and the other names (named rules from files; a switch of ``elsewhere``,
    another unit of the same list, is left out: this unit goes without it)."""
    switched, rest = [], []
    for name in names:
        rules = found.named(name)
        if not rules:
            why = found.refusal(name)
            if why is not None:
                if elsewhere is None:  # one unit: it is another unit's rule, said
                    raise InputError(why)
                continue  # a list's row: this unit goes without it
            offered = found.offered(name)  # a rule another unit gives this one
            rules = (offered,) if offered is not None else ()
        if not rules and (elsewhere is None or (elsewhere.switch(name) is None and
                                                elsewhere.refusal(name) is None and
                                                elsewhere.offered(name) is None)):
            rest.append(name)
        switched += [r for r in rules if r not in switched]
    return attrs.evolve(found, applied=found.applied + tuple(switched)), tuple(rest)


def switches_off(found: UnitRules) -> tuple[str, ...]:
    """The names of the switches of a query's units not switched on (its own, its target's,
    then their stratagems), each once."""
    on = {r.name for r in found.applied}
    return tuple(dict.fromkeys(r.name for r in found.switches + found.stratagems
                               if r.name not in on))


def army_switches(army: Any, data: str | None = None) -> UnitRules:
    """Every switch of an army list's units (a named rule switches one on in the rows that
    have it; the others go without it)."""
    from ..data.rules.unit_rules import side_rules, unit_rules

    found = UnitRules()
    for u in army.units:
        found += side_rules(unit_rules(u, data), "attacker", leading=True, bearer=u.name)
    return found


def listed_attacker(label: str, unit: Any, s: Setup, *, melee: bool,
                    data: str | None = None) -> Attacker:
    """A unit of an army list as listed (its wargear, its models), labelled by its row; one
    without weapons for the phase has none (a row left empty, a shooter left out)."""
    try:
        a = attacker_of(unit, melee=melee, data=data, options=s.options(),
                        named_rules=file_rules(s.named_rules), pistols=s.pistols,
                        detachment=s.detachment, enhancements=s.enhancements)
    except NotCarried:
        return Attacker(label, (), unit.cost())
    return attrs.evolve(a, label=label)


def attacker_rows(label: str | None, unit: Any, s: Setup, *, melee: bool, by_weapon: bool,
                  both: bool, vary_text: str, elsewhere: Any = None, data: str | None = None
                  ) -> list[Row]:
    """The rows of a comparison for one attacker: ``unit`` is a name, file or weapon rows, or
    a unit of an army list (``label`` its row's name; no weapons for the phase make an empty
    row; ``elsewhere``: the switches of the list's other units, which this row goes
    without)."""
    if label is None:
        try:
            attacking = attacker(unit, s, melee=melee, every_weapon=by_weapon, data=data)
        except NotCarried as e:
            t = field("targets")
            raise InputError(f"{marked(e)}; if {unit!r} is meant as a target, give each target "
                             f"with {t} ({t} {unit} {t} ..., or {t} {unit},...)") from None
    else:
        attacking = listed_attacker(label, unit, s, melee=melee, data=data)
    found, rest = switch_on(attacking.rules, s.named_rules, elsewhere)
    names, mortal = split_rules(rest)
    named: tuple[str | NamedRule, ...] = (*names, *found.applied)
    options = s.options()
    if attacking.led:
        options = attrs.evolve(options, led=True)
    warn_options(s, options, attacking, tuple(rest))
    if mortal:
        raise InputError(f"{field('named_rules')} {mortal[0]!r} is a mortal-wound roll: "
                         "`mathhammer kills` and `mathhammer odds` roll it after the attack; "
                         "`table` compares attacks")
    suffix = phase_suffix(melee, both and not by_weapon)
    if vary_text:
        suffix += f" [{vary_text}]"
    return rows_for(attacking.label, attacking.profiles, by_weapon=by_weapon,
                    options=options, named_rules=named, points=attacking.points,
                    suffix=suffix, per_target=attacking.retarget)


def shooter(spec: str | Any, s: Setup, label: str | None = None, elsewhere: Any = None,
            data: str | None = None) -> Shooter:
    """One attacking unit of a salvo or a plan: a name, file or inline rows (``s`` has its own
    options merged already), or a unit of an army list (``label`` its row), with its rules
    from data applied as a comparison of the list does; its switches only when a named rule
    names them (``elsewhere``: the switches of the list's other units)."""
    if label is None:
        a = attacker(spec, s, melee=not s.ranged, data=data)
    else:
        a = listed_attacker(label, spec, attrs.evolve(s, detachment=None, enhancements=()),
                            melee=not s.ranged, data=data)
    found, rest = switch_on(a.rules, s.named_rules, elsewhere)
    named, mortal = split_rules(rest)
    options = s.options()
    if a.led:
        options = attrs.evolve(options, led=True)
    warn_options(s, options, a, rest)
    return shooter_of(a, options, (*named, *found.applied), mortal)


def firing(shooters: list[Shooter], aims: list[Any], s: Setup) -> list[Shooter]:
    """The units of a plan that have weapons for the phase (the others are left out, with a
    warning), each checked against every target (the work it asks is bounded); a repeated
    label is numbered (``#2``), as an army list's are."""
    out: list[Shooter] = []
    seen: dict[str, int] = {}
    for sh in shooters:
        if sh.profiles:
            seen[sh.label] = seen.get(sh.label, 0) + 1
            out.append(sh if seen[sh.label] == 1 else
                       attrs.evolve(sh, label=f"{sh.label} #{seen[sh.label]}"))
    for sh in shooters:
        if not sh.profiles:
            warn(f"{sh.label}: no {'ranged' if s.ranged else 'melee'} weapons; left out")
    for sh in out:
        for a in aims:
            check_work(sh.profiles, a.target, s.ruleset)
    if not out:
        raise InputError("plan: no attacking unit has weapons for this phase")
    return out


def unit_points(spec: str, s: Setup, data: str | None = None) -> int | None:
    """The points of a target named: a unit's, or with its Leader (``"UNIT + LEADER"`` or the
    setup's ``leader``) both units' (None for an inline profile, or when either's points are
    not known)."""
    from ..data.rules.attached import split_attached
    from ..data.typed.inline import is_inline_target
    from ..data.typed.lookup import find_unit

    if is_inline_target(spec):
        return None
    pair = split_attached(spec)
    body, lead = pair if pair is not None else (spec, s.leader)
    if lead is not None and is_inline_target(lead):
        return None
    total = 0
    for name, models in ((body, s.target_models), (lead, None)):
        if name is None:
            continue
        try:
            cost = find_unit(name, rules=s.ruleset, data=data).cost(models)
        except (ValueError, InputError):
            return None
        if cost is None:
            return None
        total += cost
    return total


def army_aim(label: str, unit: Any, data: str | None = None
             ) -> tuple[str, Any, int | None, tuple[Any, ...]]:
    """A target of a plan from an army list's row: its name, profile, points and the rules
    from data that change attacks against it."""
    from ..data.rules.attached import defending_rules

    return label, unit.as_target(), unit.points, defending_rules(unit, data).applied


def named_aim(spec: str, s: Setup, data: str | None = None
              ) -> tuple[str, Any, int | None, tuple[Any, ...]]:
    """A target of a plan named, with its rules from data (its own, its Leader's)."""
    name, profile, rules = target_and_rules(spec, s, data)
    return name, profile, unit_points(spec, s, data), rules


def check_leader(named: int, listed: int, s: Setup) -> None:
    """The setup's ``leader`` attaches to the one target of a plan, named (``named`` of them;
    ``listed``: units of the enemy's list, which have the Leaders their list gives them);
    with several targets each is given its Leader in its name."""
    leader = s.leader
    if not leader:
        return
    if listed:
        raise InputError(f"{field('leader')} {leader!r}: a unit of an army list has the Leader "
                         "the list gives it; for a target of your own, give it its Leader in its "
                         f'name: {field("targets")} "UNIT + {leader}"')
    if named != 1:
        raise InputError(f"{field('leader')} {leader!r}: a plan with {named} targets; give the "
                         "target it leads its Leader in its name instead: "
                         f'{field("targets")} "UNIT + {leader}"')


def one_edition(*lists: tuple[str, Any]) -> str | None:
    """The edition of the army lists given as ``(how it was given, army)`` pairs (None when
    there is none); lists of two editions are an error: one game is played under one
    edition's rules.

    >>> from types import SimpleNamespace as List
    >>> one_edition(("army a.txt", List(edition="10e")), ("vs_army b.txt", None))
    '10e'
    >>> one_edition(("army a.txt", List(edition="10e")), ("vs_army b.txt",
    ...                                                   List(edition="11e")))
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: army a.txt is a 10e list and vs_army b.txt an 11e list: a ...
    """
    listed = [(how, a) for how, a in lists if getattr(a, "edition", None) is not None]
    if not listed:
        return None
    editions = {a.edition for _how, a in listed}
    if len(editions) > 1:
        (h1, a1), (h2, a2) = listed[:2]

        def an(e: str) -> str:
            return f"{'an' if e.startswith(('11', '8')) else 'a'} {e}"

        raise InputError(f"{h1} is {an(a1.edition)} list and {h2} {an(a2.edition)} list: a "
                         "game is played under one edition's rules; give lists of one edition")
    return listed[0][1].edition


def lists_ruleset(s: Setup, rules_given: bool, *lists: tuple[str, Any]) -> Setup:
    """The setup of a query given army lists (:func:`one_edition`): the lists' edition unless
    ``rules`` was given (then a warning when it is another: the units are the list's
    edition's datasheets, played under the other core rules)."""
    from ..data.store.data_folder import EDITIONS

    edition = one_edition(*lists)
    if edition is None:
        return s
    if not rules_given:
        return attrs.evolve(s, rules=edition)
    if s.rules in EDITIONS and s.rules != edition:  # (a rule-set file: as given)
        how = next(h for h, a in lists if getattr(a, "edition", None) == edition)
        warn(f"{field('rules')} {s.rules}: {how} is a list of {edition}; its units are {edition} "
             f"datasheets, played under the {s.rules} core rules")
    return s


__all__ = ["army_aim", "army_switches", "attacker", "attacker_rows", "check_leader",
           "file_rules", "firing", "listed_attacker", "lists_ruleset", "named_aim",
           "one_edition", "shooter", "switch_on", "switches_off", "target", "target_and_rules",
           "unit_points", "warn", "warn_options"]
