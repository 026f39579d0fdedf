"""The whole attack sequence: attacks, hits, wounds, saves, damage, allocation (RULES.md 1-6).

>>> import mathhammer as mh
>>> from fractions import Fraction
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> geq = mh.Target(models=5, toughness=4, save=3, wounds=1)
>>> r = mh.attack((rifle, 5), geq)  # each attack kills with 2/3 * 1/2 * 1/3 = 1/9
>>> r.kills.mean(), r.kills.prob(0) == Fraction(8, 9) ** 5
(Fraction(5, 9), True)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import Any

import attrs

from .allocation import TargetState, Weights, step
from .damage import damage_roll, feel_no_pain
from .dice import dice
from .effects import Hazard, deadly_demise_wounds, devastating_wounds, hazardous
from .options import Options
from .pmf import PMF
from .profiles import Target, Weapon
from .rolls import CRITICAL, FAIL, SUCCESS, hit_roll, lethal_hits, saving_throw, wound_roll
from .ruleset import RuleSet, load_ruleset
from .squad import Squad

# One attack's outcome: (hits, wounds, unsaved normal wounds, devastating wounds).
_NOTHING = (0, 0, 0, 0)


def _add4(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _add2(a: tuple, b: tuple) -> tuple:
    return (a[0] + b[0], a[1] + b[1])


@attrs.frozen
class Volley:
    """Everything one weapon's attacks roll, before any damage is allocated."""

    attacks: PMF
    hits: PMF
    wounds: PMF
    unsaved: PMF
    mortal: PMF
    packets: PMF  # unsaved normal wounds, or (unsaved, devastating) pairs when ``devastating``
    loss: PMF  # wounds lost from one packet, after Feel No Pain
    devastating: bool
    damage: PMF  # the Damage of one attack (before Feel No Pain)


def attacks_roll(weapon: Weapon, options: Options, rules: RuleSet, target_models: int) -> PMF:
    """The number of attacks of one model: A, plus Rapid Fire at half range and Blast.

    >>> from mathhammer import load_ruleset
    >>> gun = Weapon("Gun", attacks="D6", skill=3, strength=5, ap=0, damage=1, abilities=["blast"])
    >>> attacks_roll(gun, Options(), load_ruleset(), target_models=10).mean()  # 3.5 + 2
    Fraction(11, 2)
    """
    a = weapon.parsed
    per_model = dice(weapon.attacks)
    if a.rapid_fire and options.half_range:
        per_model = per_model + dice(a.rapid_fire)
    if a.blast:
        per_model = per_model + a.blast * (target_models // rules.blast_per_models)
    return per_model


def one_attack(weapon: Weapon, target: Target, options: Options, rules: RuleSet) -> PMF:
    """One attack's (hits, wounds, unsaved, devastating) after the hit, wound and save rolls:
    Sustained Hits, Lethal Hits, Devastating Wounds and critical-wound AP included."""
    a = weapon.parsed
    wound = wound_roll(weapon, target, options, rules).weights()
    fails = saving_throw(weapon, target, options, rules).prob(FAIL)
    crit_fails = saving_throw(weapon, target, options, rules, critical=True).prob(FAIL)

    def saved_or_not(p_unsaved: Fraction) -> PMF:
        return PMF.mix([(p_unsaved, PMF.point((1, 1, 1, 0))),
                        (1 - p_unsaved, PMF.point((1, 1, 0, 0)))])

    parts = [(wound.get(FAIL, 0), PMF.point((1, 0, 0, 0))),
             (wound.get(SUCCESS, 0), saved_or_not(fails))]
    if a.devastating_wounds:
        parts.append((wound.get(CRITICAL, 0), PMF.point((1, 1, 0, 1))))
    else:
        parts.append((wound.get(CRITICAL, 0), saved_or_not(crit_fails)))
    one_hit = PMF.mix(parts)
    lethal = saved_or_not(fails) if lethal_hits(weapon, options, rules) else one_hit
    critical = lethal
    if a.sustained:
        extra = one_hit.random_sum(dice(a.sustained), op=_add4, zero=_NOTHING)
        critical = lethal.convolve(extra, _add4)
    hit = hit_roll(weapon, target, options, rules).weights()
    return PMF.mix([(hit.get(FAIL, 0), PMF.point(_NOTHING)), (hit.get(SUCCESS, 0), one_hit),
                    (hit.get(CRITICAL, 0), critical)])


@lru_cache(maxsize=512)
def volley(weapon: Weapon, count: int, target: Target, options: Options, rules: RuleSet,
           target_models: int) -> Volley:
    """Roll one weapon's attacks (``count`` models) against the target.

    Each model's attacks are summed first, then ``count`` models by repeated squaring."""
    n = attacks_roll(weapon, options, rules, target_models)
    per_attack = one_attack(weapon, target, options, rules)

    def unit_total(per: PMF, op=operator.add, zero: Any = 0) -> PMF:
        return per.random_sum(n, op=op, zero=zero).repeat(count, op=op, zero=zero)

    hits, wounds, unsaved, dev = (unit_total(per_attack.map(itemgetter(i))) for i in range(4))
    damage = damage_roll(weapon, options)
    devastating = weapon.parsed.devastating_wounds
    if devastating:
        packets = unit_total(per_attack.map(itemgetter(2, 3)), _add2, (0, 0))
        mortal = damage.random_sum(dev)
    else:
        packets, mortal = unsaved, PMF.point(0)
    return Volley(n.repeat(count), hits, wounds, unsaved, mortal, packets,
                  feel_no_pain(damage, target.fnp), devastating, damage)


@attrs.frozen
class Result:
    """Exact distributions of one attack (see RULES.md 6 for what each counts)."""

    attacks: PMF
    hits: PMF
    wounds: PMF
    unsaved: PMF
    mortal: PMF
    damage: PMF
    kills: PMF
    state: PMF  # TargetState after the attack (a tuple of them for a Squad)
    target: Target | Squad
    options: Options
    group_kills: tuple[PMF, ...] = ()  # models destroyed in each group of a Squad
    #: mortal wounds a unit within 6" suffers from the target's Deadly Demise (None: no DD)
    deadly_demise: PMF | None = None
    #: what Hazardous weapons do to the attacking unit (None: no Hazardous weapon)
    hazard: Hazard | None = None

    @property
    def destroyed(self) -> Fraction:
        """P(every model of the target destroyed)."""
        return sum((p for s, p in self.state if models_alive(s) == 0), Fraction(0))

    @property
    def character_destroyed(self) -> Fraction:
        """P(every CHARACTER model of a Squad destroyed), e.g. the Leader of an attached unit."""
        return character_destroyed(self.target, self.state)

    def summary(self) -> dict[str, Fraction]:
        """Expected values of every counter, and P(destroyed)."""
        names = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")
        return {n: getattr(self, n).mean() for n in names} | {"destroyed": self.destroyed}


Profile = Weapon | tuple[Weapon, int]


def _entries(profiles: Any, melee: bool | None) -> list[tuple[Weapon, int]]:
    if hasattr(profiles, "as_profiles"):
        return list(profiles.as_profiles(melee=bool(melee)))
    if isinstance(profiles, Weapon) or (isinstance(profiles, tuple) and len(profiles) == 2
                                        and isinstance(profiles[0], Weapon)):
        profiles = [profiles]
    out = []
    for p in profiles:
        weapon, count = (p, 1) if isinstance(p, Weapon) else p
        if not isinstance(weapon, Weapon):
            raise ValueError(f"profiles: expected a Weapon or (Weapon, models), got {p!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(
                f"profiles: models carrying {weapon.name!r}: expected >= 1, got {count!r}"
            )
        out.append((weapon, count))
    if not out:
        raise ValueError("profiles: no weapons to attack with")
    return out


def _check_state(state: PMF, target: Target | Squad) -> None:
    groups = target.groups if isinstance(target, Squad) else (target,)
    for s in state.outcomes():
        parts = s if isinstance(target, Squad) else (s,)
        ok = isinstance(parts, tuple) and len(parts) == len(groups) and all(
            isinstance(p, tuple) and len(p) == 2 and 0 <= p[0] <= g.models
            and 0 <= p[1] < g.wounds and (p[0] > 0 or p[1] == 0)
            for p, g in zip(parts, groups, strict=False))
        if not ok:
            shape = ", ".join(f"{g.models} models of {g.wounds} wounds" for g in groups)
            raise ValueError(f"state: {s!r} is not a state of this target ({shape})")


def attack(profiles: Profile | Sequence[Profile] | Any, target: Target | Squad | Any, *,
           state: PMF | None = None, melee: bool | None = None, apply: Iterable[str] = (),
           attacker: Target | None = None, **options: Any) -> Result:
    """Resolve the attacks of ``profiles`` (in order) against ``target``, exactly.

    ``target`` is a :class:`Target`, a :class:`Squad` or a unit; ``state`` is the target's
    state to start from (default: unharmed); ``apply`` names rules from ``rules/`` to switch
    on; ``attacker`` is the attacking unit's profile for Hazardous (a unit's own by default);
    every other keyword is an :class:`Options` field.
    """
    opts = Options.make(**options)
    rules = load_ruleset(opts.rules)
    if attacker is None and hasattr(profiles, "as_target"):
        attacker = profiles.as_target()
    if hasattr(target, "as_target"):
        target = target.as_target()
    if not isinstance(target, Target | Squad):
        raise ValueError(f"target: expected a Target, a Squad or a unit, got {target!r}")
    entries = _entries(profiles, melee)
    named = _named_rules(apply)
    start = state if state is not None else PMF.point(initial_state(target))
    _check_state(start, target)
    runs = [(w, _attack_from(entries, target, opts, rules, s, named, attacker))
            for s, w in start.weights().items()]
    if len(runs) == 1:
        return runs[0][1]
    fields = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "state")
    mixed = {f: PMF.mix((w, getattr(r, f)) for w, r in runs) for f in fields}
    first = runs[0][1]
    groups = tuple(PMF.mix((w, r.group_kills[i]) for w, r in runs)
                   for i in range(len(first.group_kills)))
    demise = (PMF.mix((w, r.deadly_demise) for w, r in runs)
              if first.deadly_demise is not None else None)
    return Result(**mixed, target=target, options=opts, group_kills=groups,
                  deadly_demise=demise, hazard=first.hazard)


def initial_state(target: Target | Squad) -> TargetState | tuple[TargetState, ...]:
    """The state of an unharmed target."""
    return target.start() if isinstance(target, Squad) else TargetState(target.models, 0)


def models_alive(state: TargetState | tuple[TargetState, ...]) -> int:
    """Models left in a target state (a TargetState, or a tuple of them for a Squad)."""
    return state.models if isinstance(state, TargetState) else sum(s.models for s in state)


def character_destroyed(target: Target | Squad, states: PMF) -> Fraction:
    """P(every CHARACTER model of a Squad destroyed) in a distribution of its states."""
    if not isinstance(target, Squad) or not any(target.characters):
        raise ValueError("character_destroyed: the target has no CHARACTER model group")
    chars = target.characters
    return sum((p for s, p in states
                if all(g.models == 0 for g, c in zip(s, chars, strict=True) if c)), Fraction(0))


def _named_rules(names: Iterable[str]) -> list:
    names = [names] if isinstance(names, str) else list(names)
    if not names:
        return []
    from .named_rules import find_rule

    return [find_rule(n) for n in names]


def _strength(target: Target | Squad, start: Any) -> tuple[bool, bool]:
    """Whether the target is below half strength and below its Starting Strength."""
    groups = target.groups if isinstance(target, Squad) else (target,)
    parts = start if isinstance(target, Squad) else (start,)
    models = sum(g.models for g in groups)
    alive = sum(s.models for s in parts)
    if models == 1:
        left = groups[0].wounds - parts[0].wounds_lost if alive else 0
        return left * 2 < groups[0].wounds, left < groups[0].wounds
    return alive * 2 < models, alive < models


def _attack_from(entries: list[tuple[Weapon, int]], target: Target | Squad, opts: Options,
                 rules: RuleSet, start: Any, named: list, attacker: Target | None) -> Result:
    squad = target if isinstance(target, Squad) else None
    rolls_target = squad.rolls_target(rules) if squad else target
    below_half, below_starting = _strength(target, start)
    volleys, resolved, devs, hazard_tests = [], [], [], 0
    for weapon, count in entries:
        w, t, o = weapon.with_abilities(*opts.abilities), rolls_target, opts
        groups = squad.groups if squad else ()
        if named:
            from .named_rules import apply_rules

            def changed(group: Target, w: Weapon = w) -> tuple[Weapon, Target, Options]:
                return apply_rules(named, w, group, opts, below_half=below_half,
                                   below_starting=below_starting)

            w, t, o = changed(t)
            groups = tuple(changed(g)[1] for g in groups)
        if o.lethal_hits == "best" and rules.lethal_optional and w.parsed.lethal_hits:
            o = _best_lethal(w, count, attrs.evolve(squad, groups=groups) if squad else t, o,
                             start)
        blast_models = models_alive(start) if w.parsed.blast else 0  # cache volleys across states
        volleys.append(volley(w, count, t, o, rules, blast_models))
        hazard_tests += count if w.parsed.hazardous else 0
        if squad:
            resolved.append((w, attrs.evolve(squad, groups=groups), o, count))
        if w.parsed.devastating_wounds:
            devs.append((attrs.evolve(squad, groups=groups) if squad else t, volleys[-1].damage))

    def total(field: str) -> PMF:
        out = getattr(volleys[0], field)
        for v in volleys[1:]:
            out = out + getattr(v, field)
        return out

    counters = {f: total(f) for f in ("attacks", "hits", "wounds", "mortal")}
    if squad:
        from .squad import squad_attack

        joint = _devastating_phase(squad_attack(resolved, rules, start), devs, rules)
        final, unsaved = joint.map(itemgetter(0)), joint.map(itemgetter(1))
        parts, groups = start, squad.groups
    else:
        weights: Weights = {(start.models, start.wounds_lost, ()): 1}
        for v in volleys:
            weights = _normal_damage(weights, v, target.wounds)
        pending: dict[tuple, dict] = {}
        for (m, lost, tag), w in weights.items():
            pending.setdefault((tag, None), {})[TargetState(m, lost)] = w
        final = _devastating_phase(pending, devs, rules).map(itemgetter(0))
        unsaved = total("unsaved")
        parts, groups = (start,), (target,)

    def remaining(state: Any) -> int:
        states = state if squad else (state,)
        return sum(s.models * g.wounds - s.wounds_lost for s, g in zip(states, groups, strict=True))

    def killed(i: int) -> PMF:
        return final.map(lambda s: parts[i].models - (s[i] if squad else s).models)

    return Result(
        **counters, unsaved=unsaved,
        damage=final.map(lambda s: remaining(start) - remaining(s)),
        kills=final.map(lambda s: models_alive(start) - models_alive(s)),
        state=final, target=target, options=opts,
        group_kills=tuple(killed(i) for i in range(len(groups))),
        deadly_demise=deadly_demise_wounds(target, start, final),
        hazard=hazardous(hazard_tests, attacker, opts.rules) if hazard_tests else None,
    )


def _best_lethal(weapon: Weapon, count: int, target: Target | Squad, options: Options,
                 start: Any) -> Options:
    """11e: auto-wound with Lethal Hits or not, whichever makes this weapon alone inflict more
    expected damage (wounds lost) from ``start``."""
    def damage(mode: str) -> Fraction:
        opts = attrs.asdict(attrs.evolve(options, lethal_hits=mode))
        return attack((weapon, count), target, state=PMF.point(start), **opts).damage.mean()

    return attrs.evolve(options, lethal_hits="always" if damage("always") >= damage("never")
                        else "never")


def _devastating_phase(pending: dict[tuple[tuple[int, ...], Any], dict[Any, int]],
                       devs: list[tuple[Target | Squad, PMF]], rules: RuleSet) -> PMF:
    """After all normal damage: each weapon's Devastating Wounds, in order. ``pending`` maps
    (devastating wounds per weapon, anything else tracked) to state weights over one common
    denominator; the result is a PMF over (state, anything else)."""
    parts = []
    for (tag, extra), states in pending.items():
        if not any(states.values()):
            continue
        s = PMF(states)
        for (target, damage), n in zip(devs, tag, strict=True):
            if n:
                s = devastating_wounds(target, s, damage, n, rules.devastating_excess_lost)
        parts.append((sum(states.values()), s.map(lambda state, e=extra: (state, e))))
    return PMF.mix(parts)


def _normal_damage(weights: Weights, v: Volley, wounds: int) -> Weights:
    """Allocate one weapon's unsaved wounds; devastating wounds are counted into the tag.

    The result's weights share one denominator, so their sum is that denominator."""
    by_count: dict[int, list[tuple[int, int]]] = {}
    for o, w in v.packets.weights().items():
        u, dev = o if v.devastating else (o, 0)
        by_count.setdefault(u, []).append((dev, w))
    top = max(by_count)
    items, total = list(v.loss.weights().items()), v.loss.total
    out: Weights = {}
    get = out.get
    cur, done = weights, 0
    for u in range(top + 1):
        if u > done and any(k[0] for k in cur):
            cur, done = step(cur, items, total, wounds), u
        if u not in by_count:
            continue
        scale = total ** (top - done)
        for dev, w in by_count[u]:
            ws = w * scale
            for (m, lost, tag), wc in cur.items():
                key = (m, lost, tag + (dev,)) if v.devastating else (m, lost, tag)
                out[key] = get(key, 0) + wc * ws
    return out
