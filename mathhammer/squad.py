"""Target units of several model groups: mixed units and Leader + Bodyguard (RULES.md 7).

A :class:`Squad` lists its model groups in allocation order; groups whose keywords include
CHARACTER are allocated to last (a Leader), except by Precision attacks. The state of a squad
is a tuple with one :class:`TargetState` per group, and the attack runs as a Markov chain over
it, one wound roll at a time, because the save and Feel No Pain depend on the model hit.

>>> import mathhammer as mh
>>> guards = mh.Target(models=2, toughness=4, save=7, wounds=1, name="Guards")
>>> boss = mh.Target(models=1, toughness=4, save=7, wounds=1, keywords=["CHARACTER"], name="Boss")
>>> sniper = mh.Weapon("Sniper", attacks=1, skill=None, strength=8, ap=0, damage=1,
...                    abilities=["precision"])
>>> r = mh.attack(sniper, mh.Squad((guards, boss)))  # wounds on 2+, no save: the Boss dies on 5/6
>>> r.character_destroyed
Fraction(5, 6)
"""

from __future__ import annotations

from collections.abc import Iterable
from math import lcm

import attrs

from .allocation import TargetState
from .damage import damage_roll, feel_no_pain
from .dice import dice
from .options import Options
from .pmf import PMF
from .profiles import Target, Weapon
from .rolls import CRITICAL, FAIL, SUCCESS, hit_roll, lethal_hits, saving_throw, wound_roll
from .ruleset import RuleSet

SquadState = tuple[TargetState, ...]


def _groups(values: Iterable[Target]) -> tuple[Target, ...]:
    groups = tuple(values)
    if not groups or not all(isinstance(g, Target) for g in groups):
        raise ValueError(f"groups: expected one or more Target model groups, got {values!r}")
    return groups


@attrs.frozen
class Squad:
    """A target unit of several model groups, listed in allocation order."""

    groups: tuple[Target, ...] = attrs.field(converter=_groups)
    name: str = ""

    @property
    def characters(self) -> tuple[bool, ...]:
        """Which groups are CHARACTER models."""
        return tuple("CHARACTER" in g.keywords for g in self.groups)

    @property
    def attached(self) -> bool:
        """Leader + Bodyguard: some groups are CHARACTERs and some are not."""
        return any(self.characters) and not all(self.characters)

    @property
    def models(self) -> int:
        return sum(g.models for g in self.groups)

    def toughness(self, rules: RuleSet | None = None) -> int:
        """The T attacks use. An attached unit uses its Bodyguard's: in 10e the main (first)
        Bodyguard group's, in 11e the highest among them. Any other unit: the highest T."""
        if not self.attached:
            return max(g.toughness for g in self.groups)
        bodyguard = [g.toughness for g, c in zip(self.groups, self.characters, strict=True)
                     if not c]
        highest = rules is not None and rules.toughness_mixed == "highest"
        return max(bodyguard) if highest else bodyguard[0]

    def rolls_target(self, rules: RuleSet | None = None) -> Target:
        """One profile for the rolls that do not depend on the model hit (hit and wound rolls):
        the unit's Toughness, every group's keywords, Stealth only if every group has it."""
        first = self.groups[0]
        keywords = dict.fromkeys(k for g in self.groups for k in g.keywords)
        stealth = all(g.stealth for g in self.groups)
        return attrs.evolve(first, models=self.models, toughness=self.toughness(rules),
                            keywords=tuple(keywords), abilities=("stealth",) if stealth else (),
                            name=self.name or first.name)

    def start(self) -> SquadState:
        return tuple(TargetState(g.models, 0) for g in self.groups)


def next_group(state: SquadState, characters: tuple[bool, ...], precision: bool) -> int | None:
    """Which group takes the next wound: Precision picks a CHARACTER while one stands; otherwise
    a wounded non-CHARACTER model, else the first non-CHARACTER group, then the CHARACTERs (a
    wounded one first). ``None`` when every model is destroyed.

    >>> s = (TargetState(0, 0), TargetState(3, 1), TargetState(1, 0))
    >>> next_group(s, (False, False, True), False), next_group(s, (False, False, True), True)
    (1, 2)
    """
    def pick(wanted: bool) -> int | None:
        alive = [i for i, s in enumerate(state) if s.models and characters[i] == wanted]
        wounded = [i for i in alive if state[i].wounds_lost]
        return (wounded or alive or [None])[0]

    if precision:
        first = pick(True)
        if first is not None:
            return first
    first = pick(False)
    return first if first is not None else pick(True)


@attrs.frozen
class _Group:
    """What one weapon does to one model group: failing save faces and wounds lost."""

    wounds: int
    fails: int  # faces of 6 on which the save fails
    crit_fails: int  # the same for a Critical Wound (critical-wound AP)
    loss: tuple[tuple[int, int], ...]  # (wounds lost, weight) after Feel No Pain
    loss_total: int


def _group_profile(weapon: Weapon, group: Target, options: Options, rules: RuleSet) -> _Group:
    fails = saving_throw(weapon, group, options, rules).prob(FAIL)
    crit = saving_throw(weapon, group, options, rules, critical=True).prob(FAIL)
    loss = feel_no_pain(damage_roll(weapon, options), group.fnp)
    return _Group(group.wounds, int(fails * 6), int(crit * 6), tuple(loss.weights().items()),
                  loss.total)


def _lose(state: SquadState, g: int, e: int, wounds: int) -> SquadState:
    """Group ``g``'s next model loses ``e`` wounds, excess lost."""
    s = state[g]
    if e == 0:
        return state
    new = TargetState(s.models - 1, 0) if s.wounds_lost + e >= wounds else TargetState(
        s.models, s.wounds_lost + e)
    return state[:g] + (new,) + state[g + 1:]


class _Weapon:
    """The per-state transitions of one weapon's wounds against a squad."""

    def __init__(self, weapon: Weapon, squad: Squad, options: Options, rules: RuleSet,
                 dev_index: int | None, precision: bool):
        self.profiles = [_group_profile(weapon, g, options, rules) for g in squad.groups]
        self.scale = lcm(*(p.loss_total for p in self.profiles))
        self.wound = wound_roll(weapon, squad.rolls_target(rules), options, rules).weights()
        self.wound_total = sum(self.wound.values())
        self.characters = squad.characters
        self.dev_index = dev_index
        self.precision = precision
        self.cache: dict[tuple, list] = {}

    def _damage(self, state: SquadState, g: int, fails: int, weight: int) -> list:
        """A wound on group ``g``: saved, or its damage; weights over 6 * scale."""
        p = self.profiles[g]
        out = [(state, 0, weight * (6 - fails) * self.scale)]
        unit = self.scale // p.loss_total
        for e, w in p.loss:
            out.append((_lose(state, g, e, p.wounds), 1, weight * fails * w * unit))
        return out

    def transitions(self, state: SquadState, kind: str) -> list[tuple[SquadState, int, int, int]]:
        """``(new state, unsaved +, devastating +, weight)``; ``kind`` is ``"roll"`` (a hit
        that rolls to wound) or ``"lethal"`` (an automatic wound)."""
        key = (state, kind)
        if key in self.cache:
            return self.cache[key]
        g = next_group(state, self.characters, self.precision)
        total = 6 * self.scale * (self.wound_total if kind == "roll" else 1)
        if g is None:
            out = [(state, 0, 0, total)]
        elif kind == "lethal":
            out = [(s, u, 0, w) for s, u, w in self._damage(state, g, self.profiles[g].fails, 1)]
        else:
            fail, hit, crit = (self.wound.get(k, 0) for k in (FAIL, SUCCESS, CRITICAL))
            out = [(state, 0, 0, fail * 6 * self.scale)]
            out += [(s, u, 0, w) for s, u, w in self._damage(state, g, self.profiles[g].fails, hit)]
            if self.dev_index is not None:
                out.append((state, 0, 1, crit * 6 * self.scale))
            else:
                p = self.profiles[g]
                out += [(s, u, 0, w) for s, u, w in self._damage(state, g, p.crit_fails, crit)]
        out = [t for t in out if t[3]]  # drop impossible outcomes (a save that never fails...)
        self.cache[key] = out
        return out


# Chain keys: (squad state, pending devastating wounds per weapon, unsaved so far).
Key = tuple[SquadState, tuple[int, ...], int]


def _step(weights: dict[Key, int], tw: _Weapon, kind: str) -> dict[Key, int]:
    out: dict[Key, int] = {}
    get = out.get
    for (state, pending, unsaved), w in weights.items():
        for s, du, dd, wt in tw.transitions(state, kind):
            if dd:
                i = tw.dev_index
                p = pending[:i] + (pending[i] + 1,) + pending[i + 1:]
            else:
                p = pending
            k = (s, p, unsaved + du)
            out[k] = get(k, 0) + w * wt
    return out


def _events(weapon: Weapon, squad: Squad, options: Options, rules: RuleSet, count: int,
            target_models: int) -> PMF:
    """The (hits that roll to wound, automatic wounds) of one weapon's attacks."""
    from .engine import attacks_roll

    a = weapon.parsed
    hit = hit_roll(weapon, squad.rolls_target(rules), options, rules).weights()
    extra = dice(a.sustained) if a.sustained else PMF.point(0)
    lethal = lethal_hits(weapon, options, rules)
    critical = extra.map(lambda x: (x, 1) if lethal else (x + 1, 0))
    per_attack = PMF.mix([(hit.get(FAIL, 0), PMF.point((0, 0))),
                          (hit.get(SUCCESS, 0), PMF.point((1, 0))),
                          (hit.get(CRITICAL, 0), critical)])
    n = attacks_roll(weapon, options, rules, target_models)

    def add(x: tuple, y: tuple) -> tuple:
        return (x[0] + y[0], x[1] + y[1])

    return per_attack.random_sum(n, op=add, zero=(0, 0)).repeat(count, op=add, zero=(0, 0))


def _apply_events(weights: dict[Key, int], tw: _Weapon, events: PMF) -> dict[Key, int]:
    """Mix the chain over the weapon's (rolls, lethal) counts: lethal wounds first."""
    by_lethal: dict[int, dict[int, int]] = {}
    for (rolls, lethal), w in events.weights().items():
        by_lethal.setdefault(lethal, {})[rolls] = w
    roll_total = 6 * tw.scale * tw.wound_total
    lethal_total = 6 * tw.scale
    top_l = max(by_lethal)
    top_r = max(max(d) for d in by_lethal.values())
    out: dict[Key, int] = {}
    cur_l = weights
    for lethal in range(top_l + 1):
        if lethal:
            cur_l = _step(cur_l, tw, "lethal")
        if lethal not in by_lethal:
            continue
        counts = by_lethal[lethal]
        scale_l = lethal_total ** (top_l - lethal)
        cur = cur_l
        for rolls in range(max(counts) + 1):
            if rolls:
                cur = _step(cur, tw, "roll")
            if rolls in counts:
                s = counts[rolls] * scale_l * roll_total ** (top_r - rolls)
                for k, w in cur.items():
                    out[k] = out.get(k, 0) + w * s
    return out


def squad_attack(entries: list[tuple[Weapon, Squad, Options, int]], rules: RuleSet,
                 start: SquadState) -> dict[tuple[tuple[int, ...], int], dict[SquadState, int]]:
    """The chain of a whole attack's normal damage against a squad: state weights by
    (devastating wounds pending per weapon, unsaved wounds), over one common denominator.

    ``entries`` are (weapon, squad, options, models) with any named rules already applied."""
    dev_weapons = [i for i, (w, *_rest) in enumerate(entries) if w.parsed.devastating_wounds]
    weights: dict[Key, int] = {(start, tuple(0 for _ in dev_weapons), 0): 1}
    for i, (weapon, squad, options, count) in enumerate(entries):
        dev_index = dev_weapons.index(i) if i in dev_weapons else None
        precision = weapon.parsed.precision and options.precision
        tw = _Weapon(weapon, squad, options, rules, dev_index, precision)
        events = _events(weapon, squad, options, rules, count, sum(s.models for s in start))
        weights = _apply_events(weights, tw, events)
    out: dict[tuple[tuple[int, ...], int], dict[SquadState, int]] = {}
    for (state, pending, unsaved), w in weights.items():
        group = out.setdefault((pending, unsaved), {})
        group[state] = group.get(state, 0) + w
    return out

