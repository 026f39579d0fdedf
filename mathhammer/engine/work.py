"""The work a query implies, checked against :mod:`mathhammer.limits` before it starts.

>>> from mathhammer.model.profiles import Weapon
>>> attack_dice([(Weapon("g", attacks="D3", skill=3, strength=4, ap=0, damage=1), 5)], 5)
15
"""

from __future__ import annotations

from collections.abc import Iterable

from ..limits import MAX_ATTACK_DICE, over
from ..model.options import Options
from ..model.profiles import Weapon
from ..model.ruleset import RuleSet, load_ruleset
from ..prob.dice import EVERYDAY, parse_dice

_ANYWHERE = Options(half_range=True)  # the options under which a weapon makes the most attacks

#: Turns one sequence may have (``turns(..., n)``, ``--turns``): a game has five.
MAX_TURNS = 20


def attack_dice(profiles: Iterable[tuple[Weapon, int]], target_models: int,
                rules: RuleSet | None = None) -> int:
    """The most attack dice ``profiles`` (``(Weapon, models)`` pairs) can roll at a target of
    ``target_models`` models: each model's attacks
    (``mechanics.rolls.attacks_roll``) at their highest, at half range.

    >>> gun = Weapon("g", attacks="D6", skill=3, strength=4, ap=0, damage=1,
    ...              abilities=["blast", "rapid fire 1"])
    >>> attack_dice([(gun, 10)], 20)  # 10 models x (6 + 1 + 20 // 5)
    110
    """
    rules = rules or load_ruleset()
    total = 0
    for weapon, models in profiles:
        total += models * _most_attacks(weapon, rules, target_models)
    return total


def _most_attacks(weapon: Weapon, rules: RuleSet, target_models: int) -> int:
    """The highest outcome of :func:`~mathhammer.mechanics.rolls.attacks_roll` at half range
    (``_ANYWHERE``), from the dice expressions' highest values: no distribution is built
    (a test checks it against ``attacks_roll``).

    >>> from mathhammer.mechanics.rolls import attacks_roll
    >>> gun = Weapon("g", attacks="2D6", skill=3, strength=4, ap=0, damage=1,
    ...              abilities=["blast", "rapid fire D3"])
    >>> _most_attacks(gun, load_ruleset(), 10) == max(attacks_roll(
    ...     gun, _ANYWHERE, load_ruleset(), 10).outcomes())  # 12 + 3 + 2
    True
    """
    most = _highest(weapon.attacks)
    if not weapon.abilities:  # nothing adds attacks
        return most
    a = weapon.parsed
    if a.rapid_fire:
        most += _highest(a.rapid_fire)
    if a.blast or a.cleave:
        most += (a.blast + a.cleave) * (target_models // rules.blast_per_models)
    return most


def _highest(value: str) -> int:
    n, sides, plus = parse_dice(value)
    return n * sides + plus


def check_attack_dice(profiles: Iterable[tuple[Weapon, int]], target_models: int,
                      rules: RuleSet | None = None) -> None:
    """Refuse a query that may roll more than MAX_ATTACK_DICE attack dice, before any work.

    >>> gun = Weapon("g", attacks=10, skill=3, strength=4, ap=0, damage=1, abilities=["blast 9"])
    >>> check_attack_dice([(gun, 1000)], 1000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: attack dice: up to 1810000 is over the limit of 20000 (...MAX_...
    """
    if type(profiles) is tuple and len(profiles) == 1:  # one weapon without abilities: at once
        weapon, models = profiles[0]
        found = EVERYDAY.get(weapon.attacks)
        if (found is not None and not weapon.abilities
                and models * (found[0] * found[1] + found[2]) <= MAX_ATTACK_DICE):
            return
    n = attack_dice(profiles, target_models, rules)
    if n > MAX_ATTACK_DICE:
        raise over("attack dice", f"up to {n}", MAX_ATTACK_DICE, "MAX_ATTACK_DICE")


def check_turns(n: object) -> int:
    """``n`` if it is a number of turns from 1 to :data:`MAX_TURNS`, else a one-line error.

    >>> check_turns(10**9)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: turns: 1000000000 is over the limit of 20 (mathhammer.engine...
    """
    from ..errors import InputError

    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"turns: expected an integer, got {type(n).__name__}")
    if n < 1:
        raise InputError(f"turns: expected an integer >= 1, got {n!r}")
    if n > MAX_TURNS:
        raise InputError(f"turns: {n} is over the limit of {MAX_TURNS} "
                         "(mathhammer.engine.work.MAX_TURNS)")
    return n
