"""One attack's outcome after its hit and wound rolls: Sustained Hits, Lethal Hits, Devastating
Wounds and critical-wound AP, in one place (docs/rules.md, "Critical hits and wounds").

An attack becomes a tuple of *wounds* in the order they are resolved: the hit's own wound (an
automatic one for Lethal Hits) first, then those of its Sustained Hits. Each wound is
``NORMAL`` (saved with the weapon's AP: a rolled wound or a Lethal Hits automatic wound),
``CRITICAL`` (a Critical Wound: saved with the critical-wound AP) or ``DEVASTATING`` (no save:
mortal wounds after all normal damage).

>>> from mathhammer import Weapon, Target, Options, load_ruleset
>>> gun = Weapon("Gun", attacks=1, skill=4, strength=4, ap=0, damage=1,
...              abilities=["lethal hits", "devastating wounds"])
>>> meq = Target(models=5, toughness=4, save=3, wounds=2)
>>> law = attack_wounds(gun, meq, Options(), load_ruleset())
>>> n, d = (1, (Wound.NORMAL,)), (1, (Wound.DEVASTATING,))
>>> law.prob(n), law.prob(d)  # 1/6 lethal + 2/6 * 2/6; 2/6 * 1/6
(Fraction(5, 18), Fraction(1, 18))
"""

from __future__ import annotations

from enum import StrEnum
from math import comb, gcd

from ..cache import cached
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import RuleSet
from ..prob.dice import dice
from ..prob.pmf import PMF
from .rolls import CRITICAL as ROLL_CRITICAL
from .rolls import FAIL as ROLL_FAIL
from .rolls import SUCCESS as ROLL_SUCCESS
from .rolls import hit_roll, lethal_hits, saved_faces, wound_roll


class Wound(StrEnum):
    """The kinds of wound an attack makes."""

    NORMAL = "normal"  # saved with the weapon's AP: a rolled wound or a Lethal Hits automatic one
    CRITICAL = "critical"  # a Critical Wound: saved with the critical-wound AP
    DEVASTATING = "devastating"  # no save: mortal wounds after all normal damage


NORMAL, CRITICAL, DEVASTATING = Wound


def _cat(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1])


@cached(maxsize=256)
def attack_wounds(weapon: Weapon, target: Target, options: Options, rules: RuleSet,
                  ordered: bool = True) -> PMF:
    """One attack's ``(hits, wounds)``: the hits it scores and its wounds in order.

    ``target`` is the profile the hit and wound rolls use. With ``ordered=False`` the wounds
    are sorted (a multiset), for targets where their order cannot matter."""
    a = weapon.parsed
    crit_wound = DEVASTATING if a.devastating_wounds else CRITICAL
    w = wound_roll(weapon, target, options, rules).weights()
    if not a.sustained:  # at most one wound: the mixture below on integer weights at once
        return _one_wound(w, hit_roll(weapon, target, options, rules).weights(), crit_wound,
                          lethal_hits(weapon, options, rules))
    if not ordered:  # the wounds as a multiset: counted at once, on integer weights
        return _sustained(w, hit_roll(weapon, target, options, rules).weights(), crit_wound,
                          lethal_hits(weapon, options, rules), dice(a.sustained))
    rolled = PMF({(): w.get(ROLL_FAIL, 0), (NORMAL,): w.get(ROLL_SUCCESS, 0),
                  (crit_wound,): w.get(ROLL_CRITICAL, 0)})
    one_hit = rolled.map(lambda ws: (1, ws))
    own = PMF.point((1, (NORMAL,))) if lethal_hits(weapon, options, rules) else one_hit
    extra = one_hit.random_sum(dice(a.sustained), op=_cat, zero=(0, ()))
    critical = own.convolve(extra, _cat)
    h = hit_roll(weapon, target, options, rules).weights()
    return PMF.mix([(h.get(ROLL_FAIL, 0), PMF.point((0, ()))),
                    (h.get(ROLL_SUCCESS, 0), one_hit), (h.get(ROLL_CRITICAL, 0), critical)])


def _one_wound(w: dict[int, int], h: dict[int, int], crit_wound: Wound, lethal: bool) -> PMF:
    """:func:`attack_wounds` of an attack without Sustained Hits, from the weights of its
    wound roll ``w`` and hit roll ``h``: a miss, a hit that fails to wound, a wound, a
    critical one; a Critical Hit with Lethal Hits is a wound (over the wound roll's total).

    >>> law = _one_wound({0: 1, 1: 1}, {0: 1, 2: 1}, CRITICAL, True)  # 4+ to wound; 6s hit
    >>> law.prob((1, (NORMAL,))), law.prob((0, ()))
    (Fraction(1, 2), Fraction(1, 2))
    """
    total = sum(w.values())
    hit, crit = h.get(ROLL_SUCCESS, 0), h.get(ROLL_CRITICAL, 0)
    scored = hit + (0 if lethal else crit)  # the hits that roll to wound
    normal = scored * w.get(ROLL_SUCCESS, 0) + (crit * total if lethal else 0)
    # in the outcomes' order: a miss, a hit without a wound, then the wounds ("critical" <
    # "devastating" < "normal"); reduced by their gcd, made without a sort
    ws = (h.get(ROLL_FAIL, 0) * total, scored * w.get(ROLL_FAIL, 0),
          scored * w.get(ROLL_CRITICAL, 0), normal)
    keys = ((0, ()), (1, ()), (1, (crit_wound,)), (1, (NORMAL,)))
    g = gcd(*ws)
    return PMF._reduced({k: x // g for k, x in zip(keys, ws, strict=True) if x},
                        sum(ws) // g)


def _sustained(w: dict[int, int], h: dict[int, int], crit_wound: Wound, lethal: bool,
               extra: PMF) -> PMF:
    """:func:`attack_wounds` (``ordered=False``) of an attack with Sustained Hits, from the
    weights of its wound roll ``w`` and hit roll ``h`` and the law of its extra hits
    ``extra``: a Critical Hit makes ``x`` more hits and rolls ``r`` wounds (theirs, and its
    own unless Lethal Hits makes that a wound), ``a`` of which succeed and ``b`` are critical
    with the multinomial weight ``r! / (a! b! c!) wn^a wc^b wf^c``. Every weight is over
    ``h.total * extra.total * w.total ** (max x + 1)``.

    >>> law = _sustained({0: 1, 1: 1}, {0: 1, 2: 1}, CRITICAL, True, PMF.point(1))
    >>> law.prob((2, (NORMAL, NORMAL))), law.prob((0, ()))  # a 6, then its extra hit wounds
    (Fraction(1, 4), Fraction(1, 2))
    """
    wf, wn, wc = w.get(ROLL_FAIL, 0), w.get(ROLL_SUCCESS, 0), w.get(ROLL_CRITICAL, 0)
    t = wf + wn + wc
    counts = extra.weights()
    top = max(counts)
    scale = extra.total * t ** top
    def wounds(normal: int, crit: int) -> tuple:  # as the sorted tuple of their kinds:
        return (crit_wound,) * crit + (NORMAL,) * normal  # "critical", "devastating" < "normal"

    rolls = [(n, c, x) for n, c, x in ((0, 0, wf), (1, 0, wn), (0, 1, wc)) if x]
    out: dict[tuple[int, tuple], int] = {}
    if h.get(ROLL_FAIL, 0):
        out[0, ()] = h[ROLL_FAIL] * scale * t
    if h.get(ROLL_SUCCESS, 0):
        for n, c, x in rolls:
            out[1, wounds(n, c)] = h[ROLL_SUCCESS] * x * scale
    hc = h.get(ROLL_CRITICAL, 0)
    # a Critical Hit's wound rolls: its extra hits', and its own unless Lethal Hits makes it
    # a wound (weight t over t)
    most = top + (not lethal)
    pn, pc, pf = ([x ** i for i in range(most + 1)] for x in (wn, wc, wf))
    for hits, px in counts.items() if hc else ():
        base = hc * px * t ** (top - hits) * (t if lethal else 1)
        rolled = hits + (not lethal)
        for a in range(rolled + 1):
            if not (part := comb(rolled, a) * pn[a] * base):
                continue
            rest = rolled - a
            for b in range(rest + 1):
                if m := part * comb(rest, b) * pc[b] * pf[rest - b]:
                    key = (1 + hits, wounds(a + lethal, b))
                    out[key] = out.get(key, 0) + m
    return PMF._trusted(out)


def save_fails(weapon: Weapon, group: Target, options: Options, rules: RuleSet) -> dict[str, int]:
    """Faces of 6 on which the save against each kind of wound fails (a devastating wound has
    no save)."""
    return dict(_save_fails(weapon, group, options, rules))


@cached(maxsize=1024)
def _save_fails(weapon: Weapon, group: Target, options: Options,
                rules: RuleSet) -> tuple[tuple[str, int], ...]:
    normal = 6 - saved_faces(weapon, group, options, rules)
    crit = 6 - saved_faces(weapon, group, options, rules, critical=True) \
        if options.crit_wound_ap else normal  # no critical-wound AP: the same save
    return (NORMAL, normal), (CRITICAL, crit), (DEVASTATING, 6)


def _single_unsaved(per: PMF, fails: dict[str, int]) -> PMF | None:
    """:func:`packets_per_attack` of the unsaved counter (Devastating Wounds left out) when
    every attack makes at most one wound (else None): each wound is unsaved on its kind's
    ``fails`` faces of 6, every weight over the same 6.

    >>> law = PMF({(1, (NORMAL,)): 1, (0, ()): 1, (1, (DEVASTATING,)): 1})
    >>> _single_unsaved(law, {NORMAL: 2, CRITICAL: 2, DEVASTATING: 6}).prob(1)  # 1/3 * 2/6
    Fraction(1, 9)
    """
    kept = lost = 0  # the weights of no unsaved wound, and of one
    for (_hits, wounds), w in per.weights().items():
        if not wounds:
            kept += 6 * w
            continue
        if len(wounds) > 1:
            return None
        kind = wounds[0]
        if kind == DEVASTATING:
            kept += 6 * w
        else:
            f = fails[kind]
            kept += (6 - f) * w
            lost += f * w
    return PMF._trusted({0: kept, 1: lost} if lost and kept else {1: lost} if lost
                        else {0: kept})


#: :func:`save_fails` as the ``(kind, faces)`` pairs it is made of (remembered; no dict made)
save_fail_pairs = _save_fails


#: ``(Devastating, normal, critical)`` wounds of the wound tuples of at most one wound
_ONE_WOUND = {(): (0, 0, 0), (NORMAL,): (0, 1, 0), (CRITICAL,): (0, 0, 1),
              (DEVASTATING,): (1, 0, 0)}


def packets_per_attack(per: PMF, fails: dict[str, int] | None, base: int | None) -> PMF:
    """One attack's packets from its ``(hits, wounds)`` law ``per``: its unsaved wounds (each
    wound of a kind fails its save on ``fails[kind]`` faces of 6; ``fails`` None: every wound
    that is not Devastating counts, its save rolled later), and its Devastating Wounds: left
    out (``base`` None), counted as packets too (``base`` 0), or coded as ``packets * base +
    devastating`` (``base`` > 0). Computed on integer weights in one pass, each attack's
    saves a binomial row.

    >>> law = PMF({(1, (NORMAL,)): 1, (0, ()): 1})  # a wound half the time, saved on 3+
    >>> packets_per_attack(law, {NORMAL: 2, CRITICAL: 2, DEVASTATING: 6}, None).prob(1)
    Fraction(1, 6)
    """
    if fails is not None and base is None:  # the unsaved counter
        single = _single_unsaved(per, fails)
        if single is not None:
            return single
    rows: dict[tuple[int, int], list[int]] = {}

    def row(k: int, f: int) -> list[int]:  # Binomial(k, f/6) over 6^k
        if (k, f) not in rows:
            rows[k, f] = [comb(k, j) * f ** j * (6 - f) ** (k - j) for j in range(k + 1)]
        return rows[k, f]

    # (dev, normal, critical) -> weight; where normal and critical wounds fail alike (no
    # critical-wound AP, or no save rolled here) only their number matters: counted as normal
    same = fails is None or fails[NORMAL] == fails[CRITICAL]
    kinds: dict[tuple[int, int, int], int] = {}
    for (_hits, wounds), w in per.weights().items():
        if same:
            dev = wounds.count(DEVASTATING) if wounds else 0
            key = (dev, len(wounds) - dev, 0)
        else:
            key = _ONE_WOUND.get(wounds) or (wounds.count(DEVASTATING), wounds.count(NORMAL),
                                             wounds.count(CRITICAL))
        kinds[key] = kinds.get(key, 0) + w
    saved = 0 if fails is None else max(n + c for _d, n, c in kinds)
    out: dict[int, int] = {}
    for (dev, normal, critical), w in kinds.items():
        if fails is None or not normal + critical:
            law = {normal + critical: w * 6 ** saved}
        elif normal + critical == 1:  # one wound: saved or not
            f = fails[NORMAL] if normal else fails[CRITICAL]
            scale = w * 6 ** (saved - 1)
            law = {u: x * scale for u, x in ((0, 6 - f), (1, f)) if x}
        elif not critical:  # one binomial row
            scale = w * 6 ** (saved - normal)
            law = {i: x * scale for i, x in enumerate(row(normal, fails[NORMAL])) if x}
        else:
            a, b = row(normal, fails[NORMAL]), row(critical, fails[CRITICAL])
            scale = w * 6 ** (saved - normal - critical)
            law = {}
            for i, x in enumerate(a):
                for j, y in enumerate(b):
                    if x and y:
                        law[i + j] = law.get(i + j, 0) + x * y * scale
        for u, x in law.items():
            packet = u if base is None else u + dev if base == 0 else u * base + dev
            out[packet] = out.get(packet, 0) + x
    return PMF._trusted(out)
