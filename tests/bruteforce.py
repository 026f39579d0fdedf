"""An independent brute-force oracle for tiny attacks (10e rules, RULES.md sections 1-6).

Written straight from ``RULES.md`` and the README's "Rules decisions", without the engine's rule
modules: only the input types (``Weapon``, ``Target``, ``Options``), ``parse_abilities`` and
``dice`` (the PMF of a dice expression) come from :mod:`mathhammer`.

It plays the attack die by die: every die is a branch of probability 1/6 (a re-roll is a second
die, Feel No Pain is one die per wound point). The state of a branch is everything that matters
afterwards -- the counters, the target's ``(models, wounds_lost)`` and the Devastating Wounds
still to inflict -- and equal states are merged after each step, which keeps tiny cases fast.

Two reorderings keep it small without changing any distribution, because the dice involved are
independent of everything rolled before them: an attack's Damage (and the Feel No Pain dice for
it) is rolled when the damage is applied, and a Devastating Wound's Damage is rolled when its
mortal wounds are inflicted, after all normal damage.

A Damage roll the player may re-roll (``reroll_damage``) is rolled there too, with the model in
front of the player: "ones" re-rolls a die showing 1; "any" re-rolls when the wounds a fresh
roll is expected to take from that model (as many as it has left, after its Feel No Pain) beat
those of the roll kept (README, "Rules decisions"). The ``mortal`` counter comes from the dice
alone, as the engine's: with "any" it counts a Devastating Wound's Damage re-rolled when below
the average of a fresh roll, drawn apart from the roll that hurts the model (so only the
marginals, not their joint law, are the engine's).

>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolter", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> o = brute_force((bolt, 1), mh.Target(models=1, toughness=4, save=3, wounds=1))
>>> o.kills  # 2/3 hit * 1/2 wound * 1/3 unsaved
{0: Fraction(8, 9), 1: Fraction(1, 9)}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

import attrs

import mathhammer as mh

Dist = dict[Hashable, Fraction]
FACES = range(1, 7)
SIXTH = Fraction(1, 6)
ONE = Fraction(1)
POLICY_ORDER = (None, "ones", "failed", "noncrit")
COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")
#: The fields of ``mathhammer.model.abilities.Abilities`` (a weapon's parsed abilities) that this
#: oracle plays, each read below as ``ab.FIELD``, and those it does not, with why.
#: ``tests/test_oracles.py`` checks that the two name every field, so an ability added to the
#: model fails there until the oracle plays it or says why not.
PLAYED_ABILITIES = frozenset({
    "lethal_hits", "devastating_wounds", "twin_linked", "torrent", "blast", "cleave", "lance",
    "heavy", "ignores_cover", "sustained", "rapid_fire", "melta", "anti",
})
NOT_PLAYED = {
    "precision": "the oracle's target is one group of models: there is no CHARACTER to pick",
    "hazardous": "mortal wounds to the attacker, not the target (tests/test_effects.py)",
}
#: The options of an attack (``mh.Options``, a named rule's effect fields among them) this oracle
#: plays, each read below as ``opt.FIELD``, and those it does not, with why
#: (``tests/test_oracles.py`` checks that the two name every option).
PLAYED_OPTIONS = frozenset({
    "half_range", "charged", "stationary", "cover", "overwatch", "double_attacks",
    "halve_attacks", "attacks_mod", "hit_mod", "wound_mod", "wound_mod_if_stronger", "save_mod",
    "damage_mod", "ap_mod", "skill_mod", "strength_mod", "crit_hit", "crit_wound",
    "unmodified_hits_on", "overwatch_hits_on", "crit_wound_ap", "ignore_hit_modifiers",
    "ignore_skill_modifiers", "ignore_wound_modifiers", "reroll_hits", "reroll_wounds",
    "reroll_damage", "halve_damage", "abilities",
})
NOT_PLAYED_OPTIONS = {
    "rules": "the oracle plays the 10e rules only (RULES.md sections 1-6)",
    "led": "only a named rule's conditions read it, never an attack's dice",
    "lethal_hits": "an 11e choice; Lethal Hits always auto-wound in 10e",
    "precision": "the oracle's target is one group of models: there is no CHARACTER to pick",
}


class World(NamedTuple):
    """Everything that matters after some dice have been rolled."""

    attacks: int
    hits: int
    wounds: int
    unsaved: int
    mortal: int
    models: int  # models left in the target unit
    lost: int  # wounds lost by the damaged model
    packets: tuple[int, ...]  # Devastating Wounds still to inflict, per weapon (weapon order)


class Hits(NamedTuple):
    """What one attack did up to the saving throws."""

    hits: int
    wounds: int
    unsaved: int  # normal wounds that failed their save (each then rolls Damage)
    packets: int  # Devastating Wounds


@attrs.frozen
class Oracle:
    """Exact distributions (outcome -> Fraction) found by brute force."""

    #: (attacks, hits, wounds, unsaved, mortal, damage, kills, models, wounds_lost) -> p
    joint: dict[tuple[int, ...], Fraction]
    attacks: dict[int, Fraction]
    hits: dict[int, Fraction]
    wounds: dict[int, Fraction]
    unsaved: dict[int, Fraction]
    mortal: dict[int, Fraction]
    damage: dict[int, Fraction]
    kills: dict[int, Fraction]
    state: dict[tuple[int, int], Fraction]  # (models, wounds_lost) -> p
    destroyed: Fraction

    def dicts(self) -> dict[str, dict]:
        """The marginals and the state, keyed by name."""
        return {name: getattr(self, name) for name in (*COUNTERS, "state")}


# --- distribution helpers -------------------------------------------------------------------


def add(out: Dist, key: Hashable, p: Fraction) -> None:
    out[key] = out.get(key, 0) + p


def bind(dist: Mapping[Any, Fraction], step: Callable[[Any], Mapping]) -> Dist:
    """Run ``step`` (state -> distribution) from every state of ``dist``; merge equal states."""
    out: Dist = {}
    for state, p in dist.items():
        for new, q in step(state).items():
            add(out, new, p * q)
    return out


def repeat(start: Any, times: int, step: Callable[[Any], Mapping]) -> Dist:
    """Apply ``step`` ``times`` times, starting from ``start``."""
    dist: Dist = {start: ONE}
    for _ in range(times):
        dist = bind(dist, step)
    return dist


def roll(expr: str) -> Dist:
    """The distribution of a dice expression (``"D3"``, ``"2"``...)."""
    return dict(mh.dice(expr))


def total(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Dist:
    """Distribution of the sum of two independent values."""
    return bind(a, lambda x: {x + y: q for y, q in b.items()})


def clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, x))


def one_die(judge: Callable[[int], str], policy: str | None, fail: str, crit: str) -> Dist:
    """Roll one D6, judge it, re-roll it once if ``policy`` asks, judge the final die."""
    out: Dist = {}
    for f in FACES:
        first = judge(f)
        again = (
            (policy == "ones" and f == 1)
            or (policy == "failed" and first == fail)
            or (policy == "noncrit" and first != crit)
        )
        if again:
            for g in FACES:
                add(out, judge(g), SIXTH * SIXTH)
        else:
            add(out, first, SIXTH)
    return out


def best_fnp(*values: int | None) -> int | None:
    """The best (lowest) of the Feel No Pain values that apply; None if none does."""
    found = [v for v in values if v is not None]
    return min(found) if found else None


def broader(a: str | None, b: str | None) -> str | None:
    """The broader of two re-roll policies (ones < failed < noncrit)."""
    return a if POLICY_ORDER.index(a) >= POLICY_ORDER.index(b) else b


@cache
def failures(points: int, fnp: int | None) -> Dist:
    """How many of ``points`` wound points get through Feel No Pain (one D6 each)."""
    if fnp is None:
        return {points: ONE}

    def fnp_die(n: int) -> Dist:
        out: Dist = {}
        for f in FACES:
            add(out, n if f >= fnp else n + 1, SIXTH)
        return out

    return repeat(0, points, fnp_die)


# --- the oracle -----------------------------------------------------------------------------


def _profiles(profiles: Any) -> list[tuple[mh.Weapon, int]]:
    if isinstance(profiles, mh.Weapon):
        return [(profiles, 1)]
    if isinstance(profiles, tuple) and len(profiles) == 2 and isinstance(profiles[0], mh.Weapon):
        return [profiles]
    return [p if isinstance(p, tuple) else (p, 1) for p in profiles]


def brute_force(
    profiles: Any,
    target: mh.Target,
    *,
    start: tuple[int, int] | None = None,
    **options: Any,
) -> Oracle:
    """Every die of the attack, exactly.

    ``profiles`` is a Weapon, a ``(Weapon, models)`` pair or a list of them (resolved in order);
    ``start`` is the target's ``(models, wounds_lost)`` before the attack; ``options`` are
    :class:`mathhammer.Options` fields.
    """
    opt = mh.Options(**options)
    models0, lost0 = start if start is not None else (target.models, 0)
    profiles = _profiles(profiles)
    weapons = [_Weapon(w, target, opt, blast_models=models0) for w, _ in profiles]

    @cache
    def apply(models: int, lost: int, points: int, fnp: int | None) -> Dist:
        """``points`` wounds (one attack's Damage, or one Devastating packet) to one model;
        Feel No Pain ``fnp`` for each point; what exceeds the model's wounds is lost."""
        if models == 0:
            return {(0, 0): ONE}
        remaining = target.wounds - lost
        out: Dist = {}
        for failed, p in failures(points, fnp).items():
            hurt = min(remaining, failed)
            add(out, (models - 1, 0) if hurt == remaining else (models, lost + hurt), p)
        return out

    def worth(models: int, lost: int, law: Mapping[int, Fraction], fnp: int | None) -> Fraction:
        """The wounds the model in front of the player expects to lose from Damage ``law``."""
        out = Fraction(0)
        for d, p in law.items():
            for (m, lost2), q in apply(models, lost, d, fnp).items():
                out += p * q * ((target.wounds - lost) if m < models else lost2 - lost)
        return out

    @cache
    def rolled_damage(models: int, lost: int, index: int, fnp: int | None) -> Dist:
        """The Damage of one attack of weapon ``index`` against the model in front: the
        characteristic rolled, re-rolled as the player would, then finished."""
        wpn = weapons[index]
        if wpn.reroll != "any" or len(wpn.rolled) == 1:
            return wpn.damage
        fresh = wpn.damage  # the law of a fresh roll, finished
        again = worth(models, lost, fresh, fnp)
        out: Dist = {}
        for r, p in wpn.rolled.items():
            kept = wpn.finish(r)
            for d, q in (fresh if worth(models, lost, kept, fnp) < again else kept).items():
                add(out, d, p * q)
        return out

    @cache
    def damage(models: int, lost: int, index: int) -> Dist:
        """One unsaved attack of weapon ``index``: roll its Damage, then apply it."""
        fnp = weapons[index].fnp
        return bind(rolled_damage(models, lost, index, fnp),
                    lambda d: apply(models, lost, d, fnp))

    def attack_once(index: int) -> Callable[[World], Dist]:
        weapon = weapons[index]

        def step(w: World) -> Dist:
            out: Dist = {}
            for h, p in weapon.hits.items():
                hit = w._replace(
                    attacks=w.attacks + 1, hits=w.hits + h.hits, wounds=w.wounds + h.wounds,
                    unsaved=w.unsaved + h.unsaved,
                    packets=_bump(w.packets, index, h.packets),
                )
                targets = repeat((hit.models, hit.lost), h.unsaved,
                                 lambda s: damage(s[0], s[1], index))
                for (models, lost), q in targets.items():
                    add(out, hit._replace(models=models, lost=lost), p * q)
            return out

        return step

    dist: Dist = {World(0, 0, 0, 0, 0, models0, lost0, (0,) * len(weapons)): ONE}
    for index, (_, carriers) in enumerate(profiles):
        step = attack_once(index)

        def one_model(w: World, step: Callable = step, index: int = index) -> Dist:
            return bind(weapons[index].count, lambda n: repeat(w, n, step))

        for _ in range(carriers):
            dist = bind(dist, one_model)

    def mortal_packet(index: int) -> Callable[[World], Dist]:
        # A Devastating Wound: mortal wounds equal to the attack's Damage, all on one model,
        # excess lost, Feel No Pain against mortal wounds too. ``mortal`` counts them before
        # Feel No Pain and excess (with "any" re-rolls, as counted from the dice alone).
        wpn = weapons[index]

        def step(w: World) -> Dist:
            out: Dist = {}
            counted = wpn.counted if wpn.reroll == "any" else None
            for d, p in rolled_damage(w.models, w.lost, index, wpn.mortal_fnp).items():
                for (models, lost), q in apply(w.models, w.lost, d, wpn.mortal_fnp).items():
                    for c, r in (counted or {d: ONE}).items():
                        add(out, w._replace(mortal=w.mortal + c, models=models, lost=lost),
                            p * q * r)
            return out

        return step

    def devastate(w: World) -> Dist:
        d = {w._replace(packets=()): ONE}
        for index, n in enumerate(w.packets):
            d = bind(d, lambda x, n=n, i=index: repeat(x, n, mortal_packet(i)))
        return d

    return _summarise(bind(dist, devastate), target, models0, lost0)


def _bump(packets: tuple[int, ...], index: int, n: int) -> tuple[int, ...]:
    if not n:
        return packets
    return packets[:index] + (packets[index] + n,) + packets[index + 1:]


class _Weapon:
    """One weapon against the target: its attack count, the outcome of one attack up to the
    saves (:class:`Hits`), and its Damage."""

    def __init__(self, weapon: mh.Weapon, target: mh.Target, opt: mh.Options, blast_models: int):
        ab = mh.parse_abilities(tuple(weapon.abilities) + tuple(opt.abilities))
        ranged = weapon.range != "melee"

        # Number of attacks of one model: A (halved rounding up, doubled; then + attacks_mod,
        # at least 1), + Rapid Fire X at half range, + Blast, + Cleave.
        count = roll(weapon.attacks)
        if opt.halve_attacks or opt.double_attacks:  # division, then multiplication, round up
            scaled: Dist = {}
            for n, p in count.items():
                x = Fraction(n, 2 if opt.halve_attacks else 1) * (2 if opt.double_attacks else 1)
                add(scaled, max(1, -(-x.numerator // x.denominator)), p)
            count = scaled
        if opt.attacks_mod:  # each model's A changed, never below 1
            moved: Dist = {}
            for n, p in count.items():
                moved[max(1, n + opt.attacks_mod)] = moved.get(max(1, n + opt.attacks_mod), 0) + p
            count = moved
        if ab.rapid_fire and opt.half_range:
            count = total(count, roll(ab.rapid_fire))
        if ab.blast:
            count = {n + ab.blast * (blast_models // 5): p for n, p in count.items()}
        if ab.cleave:
            count = {n + ab.cleave * (blast_models // 5): p for n, p in count.items()}
        self.count = count

        # Damage of one attack: roll (a die showing 1 rolled again for "ones"), halve
        # (rounding up), + Melta, + damage_mod, at least 1.
        melta = roll(ab.melta) if (ab.melta and opt.half_range) else {0: ONE}

        def finish(d: int) -> Dist:
            out: Dist = {}
            if opt.halve_damage:
                d = -(-d // 2)
            for m, q in melta.items():
                add(out, max(1, d + m + opt.damage_mod), q)
            return out

        single = re.fullmatch(r"D([36])(?:\+(\d+))?", weapon.damage)  # canonical: "D6+1"
        rolled = roll(weapon.damage)
        if opt.reroll_damage == "ones" and single:
            sides, plus = int(single.group(1)), int(single.group(2) or 0)
            rolled = {}
            for face in range(1, sides + 1):
                if face == 1:
                    for again in range(1, sides + 1):
                        add(rolled, again + plus, Fraction(1, sides * sides))
                else:
                    add(rolled, face + plus, Fraction(1, sides))
        self.rolled, self.finish, self.reroll = rolled, finish, opt.reroll_damage
        self.damage = bind(rolled, finish)
        # "any": the counter's re-roll, made when the Damage is below a fresh roll's average
        average = sum(d * p for d, p in self.damage.items())
        self.counted = bind(rolled, lambda r: self.damage if sum(
            d * p for d, p in finish(r).items()) < average else finish(r))
        # Feel No Pain: the best that applies to a wound of this weapon
        psychic = "psychic" in weapon.abilities
        self.fnp = best_fnp(target.fnp, target.fnp_psychic if psychic else None)
        self.mortal_fnp = best_fnp(self.fnp, target.fnp_mortal)

        # Hit roll of one attack: "miss" / "hit" / "crit".
        if ab.torrent or weapon.skill is None:
            hit_roll: Dist = {"hit": ONE}
        else:
            # "ignore any or all modifiers": the player ignores those that make it worse
            skill_mod = max(0, opt.skill_mod) if opt.ignore_skill_modifiers else opt.skill_mod
            skill = clamp(weapon.skill - skill_mod, 2, 7)
            mod = max(0, opt.hit_mod) if opt.ignore_hit_modifiers else opt.hit_mod
            mod += 1 if (ab.heavy and opt.stationary and ranged) else 0
            mod -= 1 if (target.stealth and ranged and not opt.ignore_hit_modifiers) else 0
            mod = clamp(mod, -1, 1)

            def judge_hit(f: int) -> str:
                if opt.overwatch:  # only a 6 hits, or what a rule lowers that to
                    hits_on = min(6, opt.overwatch_hits_on, opt.unmodified_hits_on)
                    return "crit" if f >= max(hits_on, opt.crit_hit) else (
                        "hit" if f >= hits_on else "miss")
                if f == 1:
                    return "miss"
                if f >= opt.crit_hit:
                    return "crit"
                if f >= opt.unmodified_hits_on:  # "scores a hit on an unmodified X+"
                    return "hit"
                return "hit" if f + mod >= skill else "miss"

            hit_roll = one_die(judge_hit, opt.reroll_hits, "miss", "crit")

        # Wound roll of one hit: "fail" / "wound" / "crit".
        s, t = weapon.strength + opt.strength_mod, target.toughness
        need = 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5
        keywords = {k.upper() for k in target.keywords}
        crit_wound = min([opt.crit_wound] + [x for kw, x in ab.anti if kw.upper() in keywords])
        penalty = (lambda m: max(0, m)) if opt.ignore_wound_modifiers else (lambda m: m)
        wmod = penalty(opt.wound_mod) + (1 if (ab.lance and opt.charged) else 0)
        wmod += penalty(opt.wound_mod_if_stronger) if s > t else 0
        wmod = clamp(wmod, -1, 1)

        def judge_wound(f: int) -> str:
            if f == 1:
                return "fail"
            if f >= crit_wound:
                return "crit"
            return "wound" if f + wmod >= need else "fail"

        policy = broader(opt.reroll_wounds, "failed") if ab.twin_linked else opt.reroll_wounds
        wound_roll = one_die(judge_wound, policy, "fail", "crit")

        # Saving throw of one wound: False (saved) / True (unsaved).
        def save_roll(critical: bool) -> Dist:
            ap = min(0, weapon.ap - opt.ap_mod) - (opt.crit_wound_ap if critical else 0)
            cover = (opt.cover and ranged and not ab.ignores_cover
                     and not (target.save <= 3 and ap == 0))
            armour = {f for f in FACES
                      if f >= 2 and f + min(ap + opt.save_mod + int(cover), 1) >= target.save}
            invuln = set() if target.invuln is None else {
                f for f in FACES if f >= 2 and f + min(opt.save_mod, 1) >= target.invuln}
            best = armour if len(armour) >= len(invuln) else invuln
            out: Dist = {}
            for f in FACES:
                add(out, f not in best, SIXTH)
            return out

        def saved(h: Hits, critical: bool) -> Dist:
            return {h._replace(unsaved=h.unsaved + u): p for u, p in save_roll(critical).items()}

        def wound(h: Hits) -> Dist:
            """The Wound roll of one hit (already counted) and what follows it."""
            out: Dist = {}
            for kind, p in wound_roll.items():
                if kind == "fail":
                    add(out, h, p)
                    continue
                h2 = h._replace(wounds=h.wounds + 1)
                if kind == "crit" and ab.devastating_wounds:  # no save: mortal wounds later
                    add(out, h2._replace(packets=h2.packets + 1), p)
                else:
                    for new, q in saved(h2, kind == "crit").items():
                        add(out, new, p * q)
            return out

        sustained = roll(ab.sustained) if ab.sustained else {0: ONE}
        hits: Dist = {}
        for kind, p in hit_roll.items():
            if kind == "miss":
                add(hits, Hits(0, 0, 0, 0), p)
            elif kind == "hit":
                for new, q in wound(Hits(1, 0, 0, 0)).items():
                    add(hits, new, p * q)
            else:  # Critical Hit: X extra ordinary hits; with Lethal Hits it wounds itself
                for extra, q in sustained.items():
                    h = Hits(1 + extra, 0, 0, 0)
                    # with Lethal Hits, an automatic wound (not a Critical Wound)
                    first = saved(h._replace(wounds=1), False) if ab.lethal_hits else wound(h)
                    then = bind(first, lambda h0, extra=extra: repeat(h0, extra, wound))
                    for new, r in then.items():
                        add(hits, new, p * q * r)
        self.hits = hits


def _marginal(joint: Mapping[tuple, Fraction], index: int) -> dict:
    out: Dist = {}
    for k, p in joint.items():
        add(out, k[index], p)
    return dict(sorted(out.items()))


def _summarise(dist: Dist, target: mh.Target, models0: int, lost0: int) -> Oracle:
    joint: Dist = {}
    for w, p in dist.items():
        kills = models0 - w.models
        damage = kills * target.wounds + w.lost - lost0  # every wound lost, in order
        key = (w.attacks, w.hits, w.wounds, w.unsaved, w.mortal, damage, kills, w.models, w.lost)
        add(joint, key, p)
    assert sum(joint.values()) == 1
    marginals = {name: _marginal(joint, i) for i, name in enumerate(COUNTERS)}
    state: Dist = {}
    for k, p in joint.items():
        add(state, (k[7], k[8]), p)
    return Oracle(joint=joint, state=dict(sorted(state.items())),
                  destroyed=state.get((0, 0), Fraction(0)), **marginals)


def engine_dicts(result: Any) -> dict[str, dict]:
    """The engine's result in the oracle's shape: marginals and state as plain dicts."""
    out = {name: dict(getattr(result, name)) for name in COUNTERS}
    out["state"] = {(s.models, s.wounds_lost): p for s, p in result.state.items()}
    return out
