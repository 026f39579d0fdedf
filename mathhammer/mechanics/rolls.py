"""The rolls of the attack sequence: the number of attacks (Blast, Rapid Fire), then the D6
hit roll (with whether a Lethal Hit auto-wounds), wound roll and saving throw (with the Benefit
of Cover), and re-rolls (docs/rules.md, sections 1 to 5).

Each roll is a PMF over ``FAIL``, ``SUCCESS`` and ``CRITICAL`` (a Critical Hit or Wound).

>>> from mathhammer import Weapon, Target, Options, load_ruleset
>>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> meq = Target(models=5, toughness=4, save=3, wounds=2)
>>> dict(hit_roll(bolt, meq, Options(), load_ruleset()))  # 1-2 miss, 3-5 hit, 6 critical
{0: Fraction(1, 3), 1: Fraction(1, 2), 2: Fraction(1, 6)}
"""

from __future__ import annotations

from math import gcd

from ..cache import cached
from ..model.options import REROLLS, Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import CoverEffect, RuleSet, StealthEffect
from ..prob.dice import dice
from ..prob.pmf import PMF

FAIL, SUCCESS, CRITICAL = 0, 1, 2


def attacks_roll(weapon: Weapon, options: Options, rules: RuleSet, target_models: int) -> PMF:
    """The number of attacks of one model: A, halved (rounding up) and doubled as rules say,
    then changed by ``attacks_mod`` (never below 1), plus Rapid Fire at half range, Blast and
    11e Cleave. The order is the core rules' for modifiers: division, multiplication, then
    addition and subtraction, fractions rounded up at the end.

    >>> from mathhammer import load_ruleset
    >>> gun = Weapon("Gun", attacks="D6", skill=3, strength=5, ap=0, damage=1, abilities=["blast"])
    >>> attacks_roll(gun, Options(), load_ruleset(), target_models=10).mean()  # 3.5 + 2
    Fraction(11, 2)
    >>> axe = Weapon("Axe", attacks=3, skill=3, strength=5, ap=0, damage=1, range="melee")
    >>> attacks_roll(axe, Options(double_attacks=True, attacks_mod=1), load_ruleset(), 0)
    PMF({7: 1})  # /1
    """
    a = weapon.parsed
    if not (a.rapid_fire or a.blast or a.cleave or options.halve_attacks
            or options.double_attacks or options.attacks_mod):  # the dice alone (most):
        return dice(weapon.attacks)  # a table's law, found at once (no key to hash)
    return _attacks_roll(weapon, options, rules, target_models)


@cached(maxsize=1024)
def _attacks_roll(weapon: Weapon, options: Options, rules: RuleSet, target_models: int) -> PMF:
    """:func:`attacks_roll` of a weapon whose number of attacks something changes."""
    a = weapon.parsed
    per_model = dice(weapon.attacks)
    if options.halve_attacks or options.double_attacks:
        per_model = per_model.map(lambda n: _scaled(n, options.halve_attacks,
                                                    options.double_attacks))
    if options.attacks_mod:
        per_model = per_model.map(lambda n: max(1, n + options.attacks_mod))
    if a.rapid_fire and options.half_range:
        per_model = per_model + dice(a.rapid_fire)
    if a.blast or a.cleave:  # Blast X and Cleave X: X for every five target models
        per_model = per_model + (a.blast + a.cleave) * (target_models // rules.blast_per_models)
    return per_model


def _scaled(n: int, halve: bool, double: bool) -> int:
    """A halved (division first) then doubled, rounding up; at least 1.

    >>> _scaled(3, True, False), _scaled(3, True, True), _scaled(3, False, True)
    (2, 3, 6)
    """
    if halve and double:  # (n / 2) * 2: the fraction is gone before it is rounded
        return max(1, n)
    return max(1, -(-n // 2) if halve else 2 * n)


def broadest(*policies: str | None) -> str | None:
    """The broadest of several re-roll policies (None < ones < failed < noncrit).

    >>> broadest("ones", None, "failed")
    'failed'
    """
    return max(policies, key=REROLLS.index)


def _clamp(value: int, cap: int) -> int:
    return max(-cap, min(cap, value))


@cached(maxsize=4096)
def d6_roll(need: int, mod: int, crit: int, reroll: str | None = None,
            fail_below: int = 2, always_from: int = 7) -> PMF:
    """One D6 with at most one re-roll: fails below ``fail_below`` (unmodified), is critical
    on an unmodified ``crit``+, succeeds on an unmodified ``always_from``+ (a rule's "scores a
    hit on an unmodified Hit roll of 2+"), else succeeds when ``roll + mod >= need``.

    ``reroll``: ``"ones"`` re-rolls unmodified 1s, ``"failed"`` re-rolls failures (judged after
    modifiers), ``"noncrit"`` re-rolls everything that is not critical.

    >>> d6_roll(4, 0, 6).prob(FAIL), d6_roll(4, 0, 6, "failed").prob(FAIL)  # 1/2, then 1/2 * 1/2
    (Fraction(1, 2), Fraction(1, 4))
    >>> d6_roll(5, -1, 6, always_from=2).prob(FAIL)  # only the unmodified 1 fails
    Fraction(1, 6)
    """

    # the faces of each outcome (0, 1, 2: FAIL, SUCCESS, CRITICAL) by arithmetic: below
    # fail_below fail, from max(crit, fail_below) critical, from the lowest that succeeds to
    # below crit successes, the rest fail; a face re-rolled gives a sixth of one roll again
    succeeds_from = max(fail_below, min(always_from, need - mod), 1)
    critical = max(0, 7 - max(crit, fail_below, 1))
    success = max(0, min(crit, 7) - succeeds_from)
    once = [6 - critical - success, success, critical]
    kept = list(once)  # the faces kept, by outcome
    if reroll == "ones":  # the outcome of a 1
        kept[FAIL if fail_below > 1 else CRITICAL if crit <= 1 else SUCCESS
             if succeeds_from <= 1 else FAIL] -= 1
    elif reroll == "failed":
        kept[FAIL] = 0
    elif reroll == "noncrit":
        kept[FAIL] = kept[SUCCESS] = 0
    again = 6 - kept[0] - kept[1] - kept[2]
    if not again:  # nothing re-rolled: the faces themselves, over 6
        ws = once
    else:
        ws = [6 * kept[0] + again * once[0], 6 * kept[1] + again * once[1],
              6 * kept[2] + again * once[2]]
    g = gcd(*ws)  # reduced and in order (FAIL, SUCCESS, CRITICAL) here: made at once
    return PMF._reduced({o: w // g for o, w in enumerate(ws) if w}, (6 if not again else 36) // g)


#: The hit and wound rolls of every everyday roll (``(need, mod, crit, reroll, fail_below)``:
#: a need of 2+ to 7+, a modifier of -1 to +1, criticals on 5+ or 6+, any re-roll, an
#: unmodified 1 failing), made once at import: a constant table, as :mod:`mathhammer.prob.dice`
#: keeps the everyday dice (a query after :func:`mathhammer.clear_caches` still finds them).
_EVERYDAY_ROLLS: dict[tuple[int, int, int, str | None, int], PMF] = {
    (need, mod, crit, reroll, 2): d6_roll.__wrapped__(need, mod, crit, reroll, 2)  # type: ignore[attr-defined]
    for need in range(2, 8) for mod in (-1, 0, 1) for crit in (5, 6)
    for reroll in (None, "ones", "failed", "noncrit")}


def _roll(need: int, mod: int, crit: int, reroll: str | None, fail_below: int) -> PMF:
    """:func:`d6_roll` (its ``always_from`` 7), from :data:`_EVERYDAY_ROLLS` when it is one."""
    found = _EVERYDAY_ROLLS.get((need, mod, crit, reroll, fail_below))
    return found if found is not None else d6_roll(need, mod, crit, reroll, fail_below)


def lethal_hits(weapon: Weapon, options: Options, rules: RuleSet) -> bool:
    """Whether a Critical Hit of this weapon automatically wounds (11e lets the attacker
    decline; ``options.lethal_hits`` says when)."""
    a = weapon.parsed
    if not a.lethal_hits:
        return False
    if not rules.lethal_optional:
        return True
    if options.lethal_hits == "never":
        return False
    return not (options.lethal_hits == "decline" and a.devastating_wounds)


def has_cover(weapon: Weapon, target: Target, options: Options, rules: RuleSet) -> bool:
    """Whether the target has the Benefit of Cover against this (ranged) attack."""
    if weapon.melee or weapon.parsed.ignores_cover:
        return False
    return options.cover or (target.stealth and rules.stealth_effect == StealthEffect.COVER)


def hit_roll(weapon: Weapon, target: Target, options: Options, rules: RuleSet) -> PMF:
    """The Hit roll of one attack: Torrent, BS/WS, capped modifiers, Heavy, Stealth, Overwatch,
    critical threshold and re-rolls."""
    if weapon.skill is None or weapon.parsed.torrent:
        return PMF.point(SUCCESS)
    ranged = weapon.range != "melee"  # (Weapon.melee, without a property's call)
    ignore = options.ignore_hit_modifiers  # "ignore any or all modifiers": the penalties
    mod = max(0, options.hit_mod) if ignore else options.hit_mod
    if weapon.parsed.heavy and options.stationary and ranged:
        mod += 1
    if (target.abilities and target.stealth and ranged
            and rules.stealth_effect == StealthEffect.HIT and not ignore):
        mod -= 1
    worse = options.ignore_skill_modifiers
    skill = weapon.skill - (max(0, options.skill_mod) if worse else options.skill_mod)
    if (options.cover or target.abilities) and rules.cover_effect == CoverEffect.SKILL \
            and has_cover(weapon, target, options, rules) and not worse:
        skill += 1
    skill = max(2, min(7, skill))
    reroll = options.reroll_hits
    if options.overwatch:
        if not rules.overwatch_rerolls:
            reroll = None
        hits_on = min(options.overwatch_hits_on, rules.overwatch_hits_on,
                      options.unmodified_hits_on)
        crit = max(options.crit_hit, hits_on)  # a lower threshold cannot make a miss critical
        return d6_roll(hits_on, 0, crit, reroll, rules.unmodified_fail + 1)
    cap = rules.hit_modifier_cap
    roll = (skill, max(-cap, min(cap, mod)), options.crit_hit, reroll,
            rules.unmodified_fail + 1)
    if options.unmodified_hits_on < 7:  # else the same cached roll as a Wound roll's
        return d6_roll(*roll, options.unmodified_hits_on)
    return _roll(*roll)


def wound_roll(weapon: Weapon, target: Target, options: Options, rules: RuleSet) -> PMF:
    """The Wound roll of one hit: S vs T, capped modifiers, Lance, Anti-X, Twin-linked, re-rolls.

    >>> from mathhammer import load_ruleset
    >>> spear = Weapon("Spear", attacks=1, skill=3, strength=4, ap=0, damage=1,
    ...                abilities=["anti-infantry 4+"])
    >>> gant = Target(models=1, toughness=3, save=6, wounds=1, keywords=["infantry"])
    >>> wound_roll(spear, gant, Options(), load_ruleset()).prob(CRITICAL)  # 4, 5 or 6
    Fraction(1, 2)
    """
    strength = max(1, weapon.strength + options.strength_mod)
    need = rules.required_wound_roll(strength, target.toughness)
    a = weapon.parsed
    ignore = options.ignore_wound_modifiers  # the penalties only
    mod = options.wound_mod
    if ignore and mod < 0:
        mod = 0
    if a.lance and options.charged:
        mod += 1
    if strength > target.toughness:
        stronger = options.wound_mod_if_stronger
        mod += max(0, stronger) if ignore else stronger
    crit = options.crit_wound
    for keyword, x in a.anti:
        if keyword in target.keywords:
            crit = min(crit, x)
    reroll: str | None = options.reroll_wounds
    if a.twin_linked:
        reroll = broadest(reroll, "failed")
    cap = rules.wound_modifier_cap
    return _roll(need, max(-cap, min(cap, mod)), crit, reroll, rules.unmodified_fail + 1)


def saving_throw(weapon: Weapon, target: Target, options: Options, rules: RuleSet,
                 critical: bool = False) -> PMF:
    """Whether one wound is saved (``SUCCESS``) or not (``FAIL``): AP, cover, the +1 cap and
    the better of armour and invulnerable save. ``critical`` applies ``crit_wound_ap``.

    >>> from mathhammer import load_ruleset
    >>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> meq = Target(models=5, toughness=4, save=3, wounds=2)
    >>> saving_throw(bolt, meq, Options(), load_ruleset()).prob(FAIL)  # 3+ becomes 4+
    Fraction(1, 2)
    """
    saved = saved_faces(weapon, target, options, rules, critical)
    return PMF({SUCCESS: saved, FAIL: 6 - saved})


def saved_faces(weapon: Weapon, target: Target, options: Options, rules: RuleSet,
                critical: bool = False) -> int:
    """On how many faces of a D6 the :func:`saving_throw` succeeds.

    >>> from mathhammer import load_ruleset
    >>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> saved_faces(bolt, Target(models=5, toughness=4, save=3, wounds=2), Options(),
    ...             load_ruleset())  # 4, 5 or 6
    3
    """
    ap = min(0, weapon.ap - options.ap_mod) - (options.crit_wound_ap if critical else 0)
    armour = ap + options.save_mod
    if (
        (options.cover or target.abilities)  # else no cover (has_cover), known at once
        and rules.cover_effect == CoverEffect.SAVE
        and has_cover(weapon, target, options, rules)
        and not (target.save <= rules.cover_exempt_save and ap == 0)
    ):
        armour += 1
    armour = min(armour, rules.save_improve_cap)
    fails = rules.unmodified_fail + 1  # _saves, written out: a query asks this at least once
    saved = max(0, 7 - max(fails, target.save - armour))
    if target.invuln is not None:
        saved = max(saved, 7 - max(fails, target.invuln - min(options.save_mod,
                                                              rules.save_improve_cap)))
    return saved


def _saves(need: int, mod: int, unmodified_fail: int) -> int:
    """How many faces of a D6 pass a save of ``need``+ with modifier ``mod``: those from the
    lowest that passes to 6, none at or below ``unmodified_fail``.

    >>> _saves(3, -1, 1), _saves(2, 1, 1), _saves(7, 0, 1)  # 4+; 2+ (a 1 fails); none
    (3, 5, 0)
    """
    return max(0, 7 - max(unmodified_fail + 1, need - mod))

