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

from .allocation import TargetState, Weights, step, step_many
from .damage import damage_roll, feel_no_pain
from .dice import dice
from .options import Options
from .pmf import PMF
from .profiles import Target, Weapon
from .rolls import CRITICAL, FAIL, SUCCESS, hit_roll, saving_throw, wound_roll
from .ruleset import RuleSet, load_ruleset

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
        per_model = per_model + target_models // rules.blast_per_models
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
    lethal = saved_or_not(fails) if a.lethal_hits else one_hit
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
                  feel_no_pain(damage, target.fnp), devastating)


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
    state: PMF  # TargetState after the attack
    target: Target
    options: Options

    @property
    def destroyed(self) -> Fraction:
        """P(every model of the target destroyed)."""
        return sum((p for s, p in self.state if s.models == 0), Fraction(0))

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


def _check_state(state: PMF, target: Target) -> None:
    for s in state.outcomes():
        ok = (isinstance(s, tuple) and len(s) == 2 and 0 <= s[0] <= target.models
              and 0 <= s[1] < target.wounds and (s[0] > 0 or s[1] == 0))
        if not ok:
            raise ValueError(f"state: {s!r} is not a TargetState of this target "
                             f"({target.models} models of {target.wounds} wounds)")


def attack(profiles: Profile | Sequence[Profile] | Any, target: Target | Any, *,
           state: PMF | None = None, melee: bool | None = None, apply: Iterable[str] = (),
           **options: Any) -> Result:
    """Resolve the attacks of ``profiles`` (in order) against ``target``, exactly.

    ``state`` is the target's state to start from (default: unharmed); ``apply`` names rules
    from ``rules/`` to switch on; every other keyword is an :class:`Options` field.
    """
    opts = Options.make(**options)
    rules = load_ruleset(opts.rules)
    if hasattr(target, "as_target"):
        target = target.as_target()
    if not isinstance(target, Target):
        raise ValueError(f"target: expected a Target or a unit, got {target!r}")
    entries = _entries(profiles, melee)
    named = _named_rules(apply)
    start = state if state is not None else PMF.point(TargetState(target.models, 0))
    _check_state(start, target)
    runs = [(w, _attack_from(entries, target, opts, rules, TargetState(*s), named))
            for s, w in start.weights().items()]
    if len(runs) == 1:
        return runs[0][1]
    fields = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "state")
    mixed = {f: PMF.mix((w, getattr(r, f)) for w, r in runs) for f in fields}
    return Result(**mixed, target=target, options=opts)


def _named_rules(names: Iterable[str]) -> list:
    names = [names] if isinstance(names, str) else list(names)
    if not names:
        return []
    from .named_rules import find_rule

    return [find_rule(n) for n in names]


def _attack_from(entries: list[tuple[Weapon, int]], target: Target, opts: Options,
                 rules: RuleSet, start: TargetState, named: list) -> Result:
    below_half = (start.models * 2 < target.models if target.models > 1
                  else (target.wounds - start.wounds_lost) * 2 < target.wounds)
    below_starting = start.models < target.models or (
        target.models == 1 and start.wounds_lost > 0)
    volleys = []
    for weapon, count in entries:
        w, t, o = weapon.with_abilities(*opts.abilities), target, opts
        if named:
            from .named_rules import apply_rules

            w, t, o = apply_rules(named, w, t, o, below_half=below_half,
                                  below_starting=below_starting)
        volleys.append(volley(w, count, t, o, rules, start.models))

    def total(field: str) -> PMF:
        out = getattr(volleys[0], field)
        for v in volleys[1:]:
            out = out + getattr(v, field)
        return out

    final = _allocate_all(volleys, start, target.wounds)
    remaining = start.models * target.wounds - start.wounds_lost
    return Result(
        attacks=total("attacks"), hits=total("hits"), wounds=total("wounds"),
        unsaved=total("unsaved"), mortal=total("mortal"),
        damage=final.map(lambda s: remaining - (s.models * target.wounds - s.wounds_lost)),
        kills=final.map(lambda s: start.models - s.models),
        state=final, target=target, options=opts,
    )


def _allocate_all(volleys: list[Volley], start: TargetState, wounds: int) -> PMF:
    """Normal damage weapon by weapon, then every devastating wound's mortal wounds."""
    weights: Weights = {(start.models, start.wounds_lost, ()): 1}
    for v in volleys:
        weights = _normal_damage(weights, v, wounds)
    dev_losses = [v.loss for v in volleys if v.devastating]
    if dev_losses:
        weights = _devastating_damage(weights, dev_losses, wounds)
    return PMF({TargetState(m, lost): w for (m, lost, _), w in weights.items()})


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


def _devastating_damage(weights: Weights, losses: list[PMF], wounds: int) -> Weights:
    """Each devastating wound's mortal wounds, weapon by weapon, excess lost."""
    groups: dict[tuple, Weights] = {}
    for (m, lost, tag), w in weights.items():
        g = groups.setdefault(tag, {})
        g[(m, lost, None)] = g.get((m, lost, None), 0) + w
    tops = [max(tag[i] for tag in groups) for i in range(len(losses))]
    full = 1
    for loss, top in zip(losses, tops, strict=True):
        full *= loss.total**top
    out: Weights = {}
    for tag, g in groups.items():
        factor = 1
        for loss, n in zip(losses, tag, strict=True):
            g, f = step_many(g, loss, wounds, n)
            factor *= f
        scale = full // factor
        for (m, lost, _), w in g.items():
            key = (m, lost, ())
            out[key] = out.get(key, 0) + w * scale
    return out
