"""How weapon choice is scored: one model's exact E[damage] with a weapon against the target,
worked out by :func:`~mathhammer.engine.attack.attack`. The engine owns it and passes it into
the choice (:func:`mathhammer.model.loadout.choose`, through
:meth:`mathhammer.data.unit.Unit.loadout`'s ``score``), so the model and the data import no
engine.

>>> from mathhammer.model.profiles import Weapon
>>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> value_against(None)(bolt)  # against MEQ: 2 x 2/3 hit x 1/2 wound x 1/2 unsaved
Fraction(1, 3)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from ..cache import cached
from ..model.loadout import Score
from ..model.options import Options
from ..model.profiles import Target, Weapon

#: The target weapons are chosen against when none is given (MEQ).
REFERENCE = Target(models=5, toughness=4, save=3, wounds=2, keywords=("INFANTRY",), name="MEQ")


def value_against(target: Target | Any | None, options: Options | None = None,
                  named_rules: tuple[str, ...] = ()) -> Score:
    """The score weapon choice compares: :func:`weapon_value` against ``target`` (MEQ when
    None)."""
    target = REFERENCE if target is None else target
    rules = tuple(named_rules)
    return lambda w: weapon_value(w, target, options, rules)


@cached(maxsize=4096)
def weapon_value(weapon: Weapon, target: Target | Any, options: Options | None = None,
                 named_rules: tuple[str, ...] = ()) -> Fraction:
    """One model's exact E[damage] (wounds the target loses, after saves, Feel No Pain and lost
    excess) with ``weapon`` against ``target``, under ``options`` and ``named_rules``: what
    weapon choice compares.

    >>> w = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> weapon_value(w, REFERENCE)  # 2 x 2/3 hit x 1/2 wound x 1/2 unsaved
    Fraction(1, 3)
    """
    from .attack import attack  # the attack module scores its units' weapons with this one

    opts = attrs.asdict(options, recurse=False) if options is not None else {}
    return attack([(weapon, 1)], target, apply=named_rules, **opts).damage.mean()
