"""An attached unit (``"UNIT + LEADER"``) and the rules from data of each side of an attack:
a unit's own, its Leader's while leading, an army list's rows (docs/rules.md, section 12).

>>> split_attached("Intercessor Squad + Lieutenant")
('Intercessor Squad', 'Lieutenant')
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...errors import InputError
from ..typed.inline import is_inline_target, is_inline_weapon
from .detachments import unit_keywords
from .unit_rules import UnitRules, offered_to, side_rules, unit_rules
from .whom import is_keyword_model


def rules_folder(spec: str, data: str | os.PathLike | None) -> str | os.PathLike | None:
    """Where the rules from data of ``spec`` are read: the folder of a ``CATALOGUE:Unit``
    spec's file, else ``data``."""
    if ":" not in spec:  # no file named: the BattleScribe reader is not needed
        return data
    from ..bsdata import split_unit_spec

    parts = split_unit_spec(spec)
    return str(Path(parts[0]).parent) if parts is not None else data


def split_attached(spec: str) -> tuple[str, str] | None:
    """``"UNIT + LEADER"`` as (unit, leader); None for one unit or an inline profile.

    >>> split_attached("MEQ") is None
    True
    """
    if " + " not in spec or is_inline_target(spec) or is_inline_weapon(spec):
        return None
    body, lead = (part.strip() for part in spec.split(" + ", 1))
    if not body or not lead:
        raise InputError(f"{spec!r}: expected UNIT + LEADER")
    return body, lead


def leader_notes(body: Any, lead: Any) -> tuple[str, ...]:
    """What is wrong with attaching ``lead`` to ``body`` (said as warnings, not refused);
    nothing for a standard target of no faction (MEQ stands for any unit of its kind)."""
    if getattr(body, "archetype", False) and not getattr(body, "faction_keywords", ()):
        return ()
    from .leaders import can_lead

    if not getattr(lead, "leader", False):
        return (f"{lead.name} has no Leader ability; attached to {body.name} anyway",)
    if can_lead(lead, body) is False:
        return (f"{lead.name} cannot lead {body.name} (its Leader ability lists "
                f"{', '.join(lead.leads)}); attached anyway",)
    return ()


def attached_rules(body: Any, lead: Any, side: str, body_own: tuple[str, ...],
                   lead_own: tuple[str, ...], data: str | os.PathLike | None,
                   lead_data: str | os.PathLike | None = None) -> UnitRules:
    """The rules from data of a Bodyguard and its Leader (or Leaders: a tuple) on one side:
    a Leader's "while leading" and "this model's unit" rules reach the whole unit, each
    unit's other rules its own weapons (``*_own``: weapon names) or model group (group
    names). An ability several have (Oath of Moment) applies to the whole unit once."""
    leads = tuple(lead) if isinstance(lead, tuple | list) else (lead,)

    def key(p: Any) -> tuple[str, str]:
        return p.rule.name, p.rule.text

    body_parts = [_on_leader(p, side, lead_own) if p.model == "CHARACTER" else p
                  for p in unit_rules(body, data)]
    lead_folder = data if lead_data is None else lead_data
    theirs: list[Any] = []  # each Leader's, but one another Leader has given already
    for one in leads:
        known = {key(p) for p in theirs}
        theirs += [p for p in unit_rules(one, lead_folder) if key(p) not in known]
    # "those OFFICER models": on the parts of the attached unit that have the keyword
    body_parts = [_on_keyword(p, side, body, leads, body_own, lead_own)
                  if is_keyword_model(p.model) else p for p in body_parts]
    theirs = [_on_keyword(p, side, body, leads, body_own, lead_own)
              if is_keyword_model(p.model) else p for p in theirs]
    shared = {key(p) for p in body_parts} & {key(p) for p in theirs}
    both = [p for p in body_parts if key(p) in shared]
    theirs = [p for p in theirs if key(p) not in shared]
    lead_name = " + ".join(u.name for u in leads)
    return (side_rules(both, side, bearer=body.name)
            + side_rules([p for p in body_parts if p not in both], side, own=body_own,
                         bearer=body.name)
            + side_rules(theirs, side, own=lead_own, leading=True, bearer=lead_name,
                         led=unit_keywords(body))
            + offered_to(body, side, data)
            + sum((offered_to(u, side, lead_folder) for u in leads[1:]),
                  offered_to(leads[0], side, lead_folder)))


def _on_leader(part: Any, side: str, lead_own: tuple[str, ...]) -> Any:
    """A Bodyguard's rule for "the CHARACTER model leading this unit" on its Leader: the
    Leader's weapons (attacking) or model group (attacked)."""
    import attrs

    from .parts import Scope

    key = "weapons" if side == "attacker" else "groups"
    rule = part.rule
    return attrs.evolve(part, model="", scope=Scope.MODEL, rule=attrs.evolve(
        rule, requires=attrs.evolve(rule.requires, **{key: lead_own})))


def _on_keyword(part: Any, side: str, body: Any, leads: tuple[Any, ...],
                body_own: tuple[str, ...], lead_own: tuple[str, ...]) -> Any:
    """A rule for the models of an attached unit with a keyword ("those OFFICER models") on
    the units of it that have the keyword: their weapons (attacking) or model groups
    (attacked); not modelled, said, when the weapons of one Leader of several cannot be told
    apart or none has the keyword."""
    import attrs

    from .detachments import has_keywords, unit_keywords
    from .parts import Scope

    key = "weapons" if side == "attacker" else "groups"
    names: list[str] = []
    if has_keywords(part.model, unit_keywords(body)):
        names += body_own
    having = [u for u in leads if has_keywords(part.model, unit_keywords(u))]
    mixed = 0 < len(having) < len(leads)  # some Leaders have it: their groups, by name
    if having:
        names += [u.name for u in having] if mixed and side == "defender" else lead_own
    rule = part.rule
    if not names or not rule.usable or (mixed and side == "attacker"):
        return attrs.evolve(part, model="", rule=attrs.evolve(
            rule, effects=(), assumes="", not_modelled=rule.not_modelled or
            f"for the {part.model} models of the attached unit only, which mathhammer cannot "
            "tell apart here"))
    return attrs.evolve(part, model="", scope=Scope.MODEL, rule=attrs.evolve(
        rule, requires=attrs.evolve(rule.requires, **{key: tuple(dict.fromkeys(names))})))


def defending_rules(unit: Any, data: str | os.PathLike | None = None) -> UnitRules:
    """The rules from data that change the attacks against one row of an army list (a unit,
    or an attached pair: its own, its Leader's, its detachment's and enhancements')."""
    if hasattr(unit, "bodyguard"):
        return attached_rules(unit.bodyguard, unit.leaders, "defender",
                              (unit.bodyguard.name,), tuple(u.name for u in unit.leaders), data)
    return side_rules(unit_rules(unit, data), "defender", bearer=unit.name) + \
        offered_to(unit, "defender", data)


def army_rules(army: Any, data: str | os.PathLike | None = None) -> list[dict[str, Any]]:
    """The rules from data of each row of an army list (an attached pair is one row): those
    applied and the switches when it attacks and when it is attacked, and those not modelled
    (``army --json`` prints them as ``"rules"``)."""
    def names(part: Any) -> tuple[str, ...]:  # an army unit's datasheet weapons
        return tuple(dict.fromkeys(w.name for w in getattr(part, "unit", part).weapons()))

    out = []
    for label, unit in army.rows():
        lead_only: set[str] = set()
        if hasattr(unit, "bodyguard"):
            body, leads = unit.bodyguard, unit.leaders
            attacking = attached_rules(body, leads, "attacker", names(body),
                                       tuple(n for u in leads for n in names(u)), data)
            lead_only = {p.rule.name for u in leads for p in unit_rules(u, data)} - {
                p.rule.name for p in unit_rules(body, data)}
        else:
            attacking = side_rules(unit_rules(unit, data), "attacker", bearer=unit.name)
        defending = defending_rules(unit, data)
        missing = {r.name: r for r in attacking.not_modelled + defending.not_modelled}
        every = attacking.applied + attacking.switches + defending.applied + \
            defending.switches + tuple(missing.values())
        out.append({
            "unit": label,
            "attacking": {"applied": [r.name for r in attacking.applied],
                          "switches": [r.name for r in attacking.switches]},
            "defending": {"applied": [r.name for r in defending.applied],
                          "switches": [r.name for r in defending.switches]},
            "not_modelled": [{"name": r.name, "reason": r.not_modelled}
                             for r in missing.values()],
            "from": {r.name: rule_from(r, r.name in lead_only) for r in every},
        })
    return out


def rule_from(rule: Any, leader: bool = False) -> str:
    """Where a unit's rule from data comes from: ``"detachment"``, ``"enhancement"``,
    ``"army rule"``, ``"leader"`` (its attached Leader's ability) or ``"datasheet"``.

    >>> from ...model.named import NamedRule
    >>> rule_from(NamedRule("Relentless Rage", "", "detachment rule", "attacker", ""))
    'detachment'
    """
    kinds = {"detachment rule": "detachment", "enhancement": "enhancement",
             "army rule": "army rule"}
    return kinds.get(rule.kind, "leader" if leader else "datasheet")


def target_rules(spec: str, leader: str | None = None, *, rules: str = "10e",
                 data: str | os.PathLike | None = None) -> UnitRules:
    """The rules from data of the target a player names (``UNIT + LEADER`` or ``leader``):
    what changes the attacks against it. Nothing for an inline profile."""
    from ..typed.lookup import find_unit

    if is_inline_target(spec):
        return UnitRules()
    pair = split_attached(spec)
    if pair is not None:
        spec, leader = pair
    body = find_unit(spec, rules=rules, data=data)
    if leader is None or is_inline_target(leader):
        here = rules_folder(spec, data)
        return side_rules(unit_rules(body, here), "defender", bearer=body.name) + \
            offered_to(body, "defender", here)
    lead = find_unit(leader, rules=rules, data=data)
    return attached_rules(body, lead, "defender", (body.name,), (lead.name,),
                          rules_folder(spec, data), rules_folder(leader, data))


__all__ = ["army_rules", "attached_rules", "defending_rules", "leader_notes", "rule_from",
           "rules_folder", "split_attached", "target_rules"]
