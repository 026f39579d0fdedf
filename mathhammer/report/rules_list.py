"""``mathhammer rules --for UNIT``: a unit's rules from data as text, attacking and defending
(applied, switches, not modelled), its rules for other units and those other units give it,
then the stratagems it can use (docs/rules.md, section 12).
"""

from __future__ import annotations

import textwrap
from typing import Any


def unit_rules_lines(spec: str, *, rules: str = "10e", data: Any = None,
                     full: bool = False, detachment: str | None = None) -> list[str]:
    """``mathhammer rules --for UNIT``: a unit's rules from data, attacking and defending:
    applied, switches (off until named with ``--rule``), not modelled; then the stratagems it
    can use (:func:`stratagem_lines`)."""
    from ..app.specs import attacker_of
    from ..data.rules.attached import target_rules
    from ..errors import InputError

    try:
        attacking = attacker_of(spec, rules=rules, data=data, every_weapon=True)
    except InputError as ranged_error:  # a unit with melee weapons only
        try:
            attacking = attacker_of(spec, rules=rules, data=data, every_weapon=True,
                                    melee=True)
        except InputError:
            raise ranged_error from None
    sides = (("attacking", attacking.rules),
             ("defending", target_rules(spec, rules=rules, data=data)))
    out = [f"{attacking.label}: rules from data"]
    for side, found in sides:
        for title, items in (("applied", found.applied), ("switches (--rule NAME)",
                                                          found.switches),
                             ("not modelled", found.not_modelled)):
            if side == "defending" and title == "not modelled":
                continue  # listed once, with the attacking side's
            names = items if title != "not modelled" else found.not_modelled
            out.append(f"{side}, {title}:" + ("" if names else " none"))
            for r in names:
                what = r.not_modelled if r.not_modelled else r.describe()
                out.append(f"  {r.name}: {what}")
                if full:
                    out += textwrap.wrap(r.text, 80, initial_indent="      ",
                                         subsequent_indent="      ")
                    if r.assumes:
                        out += textwrap.wrap(f"assumes: {r.assumes}", 80,
                                             initial_indent="      ",
                                             subsequent_indent="      ")
    others = list(dict.fromkeys(e for _side, found in sides for e in found.elsewhere))
    out.append("for other units (--rule NAME on a unit it names):" + ("" if others else " none"))
    for _bearer, part in others:
        r = part.rule
        side = "attacking" if r.side == "attacker" else "attacked"
        out.append(f"  {r.name}: for {part.whom or part.scope.value} ({side}): {r.describe()}")
        if full:
            out += textwrap.wrap(r.text, 80, initial_indent="      ",
                                 subsequent_indent="      ")
    for side, found in sides:
        by: dict[str, list[str]] = {}
        for offer in found.offers:
            for n in offer.names():
                rule, bearer = n.rsplit(" (", 1)
                by.setdefault(rule, []).append(bearer[:-3])
        given = [f"{r} ({b[0]}'s)" if len(b) == 1 else f"{r} ({b[0]}'s and {len(b) - 1} more)"
                 for r, b in by.items()]
        if given:
            shown = ", ".join(given[:30]) + (f" and {len(given) - 30} more" if len(given) > 30
                                             else "")
            out += textwrap.wrap(f"{side}, rules other units of its army give it (--rule NAME): "
                                 f"{shown}", 80, subsequent_indent="  ")
    return out + stratagem_lines(spec, rules=rules, data=data, full=full,
                                 detachment=detachment)


def stratagem_lines(spec: str, *, rules: str = "10e", data: Any = None, full: bool = False,
                    detachment: str | None = None) -> list[str]:
    """The stratagems a unit (or both units of ``UNIT + LEADER``) can use
    (:func:`mathhammer.data.rules.stratagems.stratagem_lines`)."""
    from ..data.rules import stratagems
    from ..data.rules.attached import split_attached
    from ..data.typed.lookup import find_unit

    if not stratagems.available():
        return stratagems.stratagem_lines((), rules=rules)
    units = [find_unit(part, rules=rules, data=data) for part in (split_attached(spec)
                                                                  or (spec,))]
    return stratagems.stratagem_lines(units, rules=rules, full=full, detachment=detachment)


__all__ = ["stratagem_lines", "unit_rules_lines"]
