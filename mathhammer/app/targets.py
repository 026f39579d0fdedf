"""The target a player names: a unit (name or file), an inline profile, or a unit with a
Leader attached (``"UNIT + LEADER"`` or ``leader=``); only CHARACTERs lead.

>>> target_of("MEQ", models=3)[1].models
3
"""

from __future__ import annotations

import os

import attrs

from ..data.rules.attached import leader_notes, split_attached
from ..data.typed.inline import is_inline_target, parse_squad
from ..errors import InputError, InputWarning, field
from ..model.profiles import Target
from ..model.squad import Squad


def target_of(spec: str, models: int | None = None, leader: str | None = None, *,
              rules: str = "10e", data: str | os.PathLike | None = None
              ) -> tuple[str, Target | Squad]:
    """The target a player names, with its name: a unit (name or file) or an inline profile
    ``"5x T4 Sv3+ W2 INFANTRY"`` (model groups joined by `` + ``); ``models`` is a unit's size
    (every model group of its datasheet, as its make-up of that size shares them out:
    :meth:`mathhammer.data.units.unit.Unit.as_target`) or an inline profile's first group;
    ``leader`` attaches a Leader (:meth:`mathhammer.model.squad.Squad.attach`).

    >>> name, unit = target_of("MEQ", leader="5x T4 Sv2+ W5 CHARACTER")
    >>> name, [g.models for g in unit.groups]
    ('MEQ + 5x T4 Sv2+ W5 CHARACTER', [5, 5])
    """
    for key, value in (("spec", spec), ("leader", leader)):
        if not (isinstance(value, str) or key == "leader" and value is None):
            raise TypeError(f"{key}: expected a unit's name or an inline profile, got "
                            f"{type(value).__name__}")
    body = None  # the unit from data, when one is named
    if is_inline_target(spec):
        name, target = spec.strip(), parse_squad(spec)
        if models is not None:
            target = _resize(target, models)
    else:
        from ..data.typed.lookup import find_unit

        pair = split_attached(spec)
        if pair is not None:
            if leader is not None:
                raise InputError(f"{spec!r} names a Leader already; drop {field('leader')} "
                                 f"{leader!r}")
            spec, leader = pair
        body = find_unit(spec, rules=rules, data=data)
        name, target = body.name, body.as_target(models=models)
    if leader is None:
        return name, target
    lname, lead = target_of(leader, rules=rules, data=data)
    _check_leader(leader, lname, lead)
    if body is not None and not is_inline_target(leader):
        _check_leads(body, leader, rules, data)
    own = target if isinstance(target, Squad) else attrs.evolve(target, name=name)
    lead = lead if isinstance(lead, Squad) else attrs.evolve(lead, name=lead.name or lname)
    unit = Squad.attach(own, lead, name=f"{name} + {lname}")
    return unit.name, unit


def _check_leader(spec: str, name: str, lead: Target | Squad) -> None:
    """Only CHARACTER models lead: a unit whose datasheet lacks the keyword is refused; an
    inline profile without it is attached as one, with a warning (no silent guess).

    >>> target_of("Necron Warriors", leader="MEQ")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: leader 'MEQ': MEQ is not a CHARACTER, so it cannot lead a ...
    """
    import warnings

    groups = lead.groups if isinstance(lead, Squad) else (lead,)
    if all("CHARACTER" in g.keywords for g in groups):
        return
    if not is_inline_target(spec):
        raise InputError(f"{field('leader')} {spec!r}: {name} is not a CHARACTER, so it cannot "
                         "lead a unit; give a CHARACTER unit, or an inline profile such as "
                         '"1x T4 Sv3+ W4 CHARACTER"')
    warnings.warn(InputWarning(f"{field('leader')} {spec!r}: the profile has no CHARACTER "
                               "keyword; attached as a Leader, its models are CHARACTERs "
                               "(allocated last)"), stacklevel=3)


def _check_leads(body: object, leader: str, rules: str,
                 data: str | os.PathLike | None) -> None:
    """A Leader whose Leader ability does not list ``body`` (or who has none) is attached
    with a warning, whichever way it is named (``"UNIT + LEADER"`` or ``leader=``), as for
    an attacking unit (:func:`mathhammer.data.rules.attached.leader_notes`: one place)."""
    import warnings

    from ..data.typed.lookup import find_unit

    for note in leader_notes(body, find_unit(leader, rules=rules, data=data)):
        warnings.warn(note, UserWarning, stacklevel=3)


def _resize(target: Target | Squad, models: int) -> Target | Squad:
    if isinstance(target, Squad):
        first = attrs.evolve(target.groups[0], models=models)
        return attrs.evolve(target, groups=(first, *target.groups[1:]))
    return attrs.evolve(target, models=models)


__all__ = ["target_of"]
