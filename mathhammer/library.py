"""The library's face over the engine: :func:`attack`, :func:`turns` and :func:`loadout` as
``mathhammer.attack``, ``mathhammer.turns`` and ``mathhammer.loadout``, which also take named
rules by their names (the engine takes :class:`~mathhammer.model.named.NamedRule` values only;
finding a rule by name reads the rule files, a layer above it). :func:`loadout` is where the
engine's weapon scoring meets a unit's choice of weapons: the data scores nothing itself.

>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> meq = mh.Target(models=5, toughness=4, save=3, wounds=2)
>>> attack((bolt, 5), meq, apply=["enslaved artifice"]).named_rules
('Enslaved Artifice',)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .data.rules.named import resolve_rules
from .engine.attack import Result, value_against
from .engine.attack import attack as engine_attack
from .engine.sequence import Timeline
from .engine.sequence import turns as engine_turns
from .model.loadout import Loadout
from .model.named import NamedRule
from .model.options import Options


def attack(profiles: Any, target: Any, *, apply: Iterable[str | NamedRule] | str = (),
           **options: Any) -> Result:
    """:func:`mathhammer.engine.attack.attack`, with ``apply`` naming rules from ``rules/``
    (found by :func:`~mathhammer.data.rules.named.find_rule`) or giving their values."""
    named = () if apply == () else resolve_rules([apply] if isinstance(apply, str) else apply)
    return engine_attack(profiles, target, apply=named, **options)


def turns(profiles: Any, target: Any, n: int, *,
          apply: Iterable[str | NamedRule] | str = (), **options: Any) -> Timeline:
    """:func:`mathhammer.engine.sequence.turns`, with ``apply`` naming rules from ``rules/`` or
    giving their values.

    >>> import mathhammer as mh
    >>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> meq = mh.Target(models=5, toughness=4, save=3, wounds=2)
    >>> by_name = turns((bolt, 5), meq, 2, apply=["enslaved artifice"])
    >>> by_name.kills == engine_turns((bolt, 5), meq, 2, apply=resolve_rules(
    ...     ["Enslaved Artifice"])).kills
    True
    """
    return engine_turns(profiles, target, n, apply=resolve_rules(
        [apply] if isinstance(apply, str) else apply), **options)


def loadout(unit: Any, melee: bool = False, weapons: Iterable[str] | None = None,
            models: int | None = None, *, target: Any = None,
            apply: Iterable[str | NamedRule] | str = (), pistols: bool = False,
            **options: Any) -> Loadout:
    """What ``unit`` fires in the shooting (or fight) phase, each choice of weapons made for
    the higher E[damage] against ``target`` (MEQ when None) under ``options`` (keywords, as
    :func:`attack` takes them) and the rules ``apply`` names: the unit's
    :meth:`~mathhammer.data.units.unit.Unit.loadout` given the engine's score
    (:func:`~mathhammer.engine.attack.value_against`). ``weapons``, ``models`` and
    ``pistols`` are the unit's.

    >>> import mathhammer as mh
    >>> cronos = mh.load_unit("Cronos")
    >>> [(w.name, n) for w, n in loadout(cronos, weapons=["spirit v"], models=2).fired]
    [('Spirit vortex', 2)]
    >>> loadout(cronos, target=mh.load_unit("GEQ").as_target()) == cronos.loadout(
    ...     score=value_against(mh.load_unit("GEQ").as_target()))
    True
    """
    named = () if apply == () else resolve_rules([apply] if isinstance(apply, str) else apply)
    score = value_against(target, Options.make(**options) if options else None, named)
    return unit.loadout(melee, weapons, models, score=score, pistols=pistols)
