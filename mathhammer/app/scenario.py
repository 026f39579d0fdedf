"""What a player asks: an attacker's weapons against a target (a unit, a profile, an attached
unit) under some options, once, over turns, or as mortal wounds; resolved exactly.

The command line, the web page and the army tables build their questions here, from the words
a player types (:mod:`mathhammer.app.specs`); the reports of an answer are
:mod:`mathhammer.report.text` and :mod:`mathhammer.report.jsonout`.

>>> from mathhammer.app.specs import attacker_of, target_of
>>> a = attacker_of("10x 1 | 3+ | 4 | 0 | 1")
>>> name, t = target_of("5x T4 Sv5+ W1")
>>> q = Query(a.label, a.profiles, name, t)
>>> q.odds(Ask.AT_LEAST, 1)[1]  # each attack kills on 2/3 * 1/2 * 2/3 = 2/9; 1 - (7/9)**10
Fraction(3204309152, 3486784401)
"""

from __future__ import annotations

import functools
from enum import StrEnum
from fractions import Fraction
from typing import Any, cast

import attrs

from ..data.rules.named import mortal_roll, resolve_rules
from ..engine.attack import Result, attack
from ..engine.sequence import (
    MortalWounds,
    Reanimate,
    Timeline,
    sequence,
    turn_step,
)
from ..errors import InputError, field
from ..mechanics.effects import crushing_impact
from ..model.loadout import LeftOut, is_one_shot
from ..model.named import NamedRule
from ..model.options import Options
from ..model.profiles import Target, Weapon
from ..model.squad import Squad
from ..prob.pmf import PMF


class Counter(StrEnum):
    """What a query counts: each has a PMF on :class:`~mathhammer.engine.attack.Result`."""

    ATTACKS = "attacks"
    HITS = "hits"
    WOUNDS = "wounds"
    UNSAVED = "unsaved"
    MORTAL = "mortal"
    DAMAGE = "damage"
    KILLS = "kills"

    @property
    def text(self) -> str:
        """The counter in a report's words (``unsaved wounds``)."""
        return {"unsaved": "unsaved wounds", "mortal": "mortal wounds"}.get(self.value, self.value)


class Ask(StrEnum):
    """Which probability :meth:`Query.odds` gives."""

    AT_LEAST = "at least"
    EXACTLY = "exactly"
    AT_MOST = "at most"
    DESTROYED = "destroyed"


@attrs.frozen
class Contribution:
    """What one rule adds: E[kills] and P(destroyed) with it minus without it."""

    rule: NamedRule
    kills: Fraction
    destroyed: Fraction


@attrs.frozen
class Query:
    """What was asked: who attacks with which weapons, what is hit, under which rules; with
    ``turns`` or ``mortal_rules`` it is a sequence of steps (see :meth:`steps`)."""

    attacker: str
    profiles: tuple[tuple[Weapon, int], ...]
    target_name: str
    target: Target | Squad
    options: Options = Options()
    named_rules: tuple[str, ...] = ()
    #: the attacking unit's own profile (what Hazardous weapons hurt), when known
    attacker_profile: Target | None = None
    #: named rules that are mortal-wound rolls, rolled after each attack
    mortal_rules: tuple[str, ...] = ()
    #: turns of the same attack (None: one attack)
    turns: int | None = None
    #: reanimation between turns (None: if the target has Reanimation Protocols)
    reanimation: bool | None = None
    #: the attacker's weapons that do not fire, each with why (``.text``: "5x Bolt pistol not
    #: fired: the models fire their other ranged weapons"; :mod:`mathhammer.model.loadout`)
    left_out: tuple[LeftOut, ...] = ()
    #: rules from data applied (the units' own abilities, a Leader's, switches named)
    unit_rules: tuple[NamedRule, ...] = ()
    #: rules from data of the units that change an attack but are not modelled
    not_modelled: tuple[NamedRule, ...] = ()
    #: the switches of both sides the query could have named and did not (``--rule NAME``)
    switches_off: tuple[str, ...] = ()

    @property
    def applied(self) -> tuple[NamedRule, ...]:
        """Every rule the attack applies: the named rules, then the rules from data."""
        return resolve_rules(self.named_rules) + self.unit_rules

    def run(self) -> Result:
        """Resolve the attack exactly (one attack from full strength, without the steps)."""
        opts = attrs.asdict(self.options, recurse=False)
        return attack(list(self.profiles), self.target, apply=self.applied,
                      attacker=self.attacker_profile, **opts)

    def explain(self) -> list[Contribution]:
        """Each rule from data applied, with its exact contribution: how much E[kills] and
        P(destroyed) drop when that rule alone is removed (one attack from full strength, or
        the sequence's end).

        >>> from mathhammer.model.named import Effect
        >>> plus = NamedRule("Plus", "", "datasheet ability", "attacker", "Add 1 to the Hit "
        ...                  "roll.", effects=(Effect((("hit_mod", 1),)),))
        >>> rifle = Weapon("Rifle", attacks=1, skill=4, strength=4, ap=0, damage=1)
        >>> q = Query("Rifle", ((rifle, 1),), "One", Target(1, 4, 7, 1), unit_rules=(plus,))
        >>> [(c.rule.name, c.kills) for c in q.explain()]  # 2/3 * 1/2 - 1/2 * 1/2
        [('Plus', Fraction(1, 12))]
        """
        def measures(q: Query) -> tuple[Fraction, Fraction]:
            if q.is_sequence:
                t = q.run_sequence()
                return t.kills.mean(), t.destroyed[-1]
            r = q.run()
            return r.kills.mean(), r.destroyed

        kills, destroyed = measures(self)
        out = []
        for i, rule in enumerate(self.unit_rules):
            without = attrs.evolve(self, unit_rules=self.unit_rules[:i] + self.unit_rules[i + 1:])
            k, d = measures(without)
            out.append(Contribution(rule, kills - k, destroyed - d))
        return out

    @property
    def is_sequence(self) -> bool:
        """Several steps: turns, or mortal-wound rolls after the attack."""
        return self.turns is not None or bool(self.mortal_rules)

    @property
    def attacks(self) -> int:
        return self.turns or 1

    @property
    def reanimates(self) -> bool:
        """Whether the target reanimates between turns."""
        if self.reanimation is not None:
            return self.reanimation
        return any(g.reanimation for g in groups(self.target))

    def steps(self) -> list[Any]:
        """The steps of :func:`mathhammer.engine.sequence.sequence`: each turn's attack, then the
        mortal-wound rolls; Reanimation Protocols between turns when the target reanimates.

        >>> import mathhammer as mh
        >>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
        >>> t = mh.Target(models=5, toughness=4, save=4, wounds=1,
        ...               abilities=["reanimation protocols"])
        >>> q = Query("Rifles", ((rifle, 5),), "Five", t, turns=2,
        ...           mortal_rules=("Disintegration Beams",))
        >>> [s.label for s in q.steps()]
        ['attack 1', 'Disintegration Beams', 'reanimate', 'attack 2', 'Disintegration Beams']
        """
        opts = attrs.asdict(self.options, recurse=False)
        out: list[Any] = []
        for i in range(1, self.attacks + 1):
            if i > 1 and self.reanimates:
                out.append(Reanimate())
            label = "attack" if self.turns is None else f"attack {i}"
            out.append(turn_step(self.profiles, i, apply=self.applied, label=label, **opts))
            out += [MortalWounds(mortal_roll(r).pmf, label=r) for r in self.mortal_rules]
        return out

    @property
    def one_shot(self) -> str:
        """With several turns, what One Shot weapons do ("" if none fires): they fire once
        per battle, in the first turn only (:func:`mathhammer.engine.sequence.later_turn`).

        >>> import mathhammer as mh
        >>> arrow = mh.Weapon("Tachyon arrow", attacks=1, skill=2, strength=16, ap=-5,
        ...                   damage="D6+2", abilities=["one shot"])
        >>> Query("A", ((arrow, 1),), "T", mh.Target(5, 4, 3, 2), turns=3).one_shot
        'One Shot, fired in turn 1 only: Tachyon arrow'
        """
        names = dict.fromkeys(w.name for w, _ in self.profiles if is_one_shot(w))
        if self.attacks < 2 or not names:
            return ""
        return f"One Shot, fired in turn 1 only: {', '.join(names)}"

    def describe_steps(self) -> str:
        """The turns and mortal-wound rolls in a few words ("" for one plain attack).

        >>> import mathhammer as mh
        >>> t = mh.Target(models=5, toughness=4, save=4, wounds=1)
        >>> Query("A", (), "T", t, turns=3, mortal_rules=("Poisoner's Art",)).describe_steps()
        "3 turns, no reanimation; then: Poisoner's Art (every turn)"
        """
        parts = []
        if self.turns is not None:
            parts.append(f"{self.turns} turn{'s' * (self.turns != 1)}, "
                         + ("reanimation between turns" if self.reanimates else
                            "no reanimation"))
        if self.one_shot:
            parts.append(self.one_shot)
        if self.mortal_rules:
            each = " (every turn)" if self.attacks > 1 else ""
            parts.append(f"then: {', '.join(self.mortal_rules)}{each}")
        return "; ".join(parts)

    def run_sequence(self) -> Timeline:
        """Resolve every step exactly, carrying the target's state."""
        return sequence(self.target, self.steps())

    def answer(self) -> Result | Timeline:
        """The exact answer: :meth:`run_sequence` for a sequence, else :meth:`run`."""
        return self.run_sequence() if self.is_sequence else self.run()

    def odds(self, ask: Ask, k: int = 0, counter: Counter = Counter.KILLS,
             answer: Result | Timeline | None = None) -> tuple[str, Fraction]:
        """One probability and what it is of, e.g. ``("kills >= 2", Fraction(...))``. For a
        sequence it is of the state at the end, and only kills (from Starting Strength) count.
        ``answer`` is :meth:`answer` when already resolved (it is not resolved again).

        >>> import mathhammer as mh
        >>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
        >>> q = Query("Rifle", ((rifle, 1),), "One", mh.Target(1, 4, 7, 1))
        >>> q.odds(Ask.DESTROYED)  # 2/3 hit * 1/2 wound, no save
        ('destroyed', Fraction(1, 3))
        """
        counter, ask = Counter(counter), Ask(ask)
        if self.is_sequence and counter != Counter.KILLS:
            raise InputError(f"{field('counter')} {counter}: with {field('turns')} or a "
                             "mortal-wound rule only kills "
                             "(from Starting Strength) are counted")
        answer = self.answer() if answer is None else answer
        if self.is_sequence:
            answer = cast(Timeline, answer)  # a sequence's answer (run_sequence)
            pmf, destroyed, end = answer.kills, answer.destroyed[-1], " by the end"
        else:
            answer = cast(Result, answer)
            pmf, destroyed, end = getattr(answer, counter), answer.destroyed, ""
        if ask == Ask.DESTROYED:
            return "destroyed" + end, destroyed
        prob, sign = {Ask.AT_LEAST: (pmf.at_least(k), ">="), Ask.AT_MOST: (pmf.at_most(k), "<="),
                      Ask.EXACTLY: (pmf.prob(k), "=")}[ask]
        return f"{counter} {sign} {k}{end}", prob


@attrs.frozen
class MortalQuery:
    """Mortal wounds on a target (``mathhammer mortal``): Crushing Impact of a charging model
    of Toughness ``crushing_impact`` first, then each roll in order.

    >>> q = MortalQuery("Two", Target(models=2, toughness=4, save=3, wounds=1), ("D3",))
    >>> q.run().kills.mean()  # min(D3, 2): (1 + 2 + 2) / 3
    Fraction(5, 3)
    """

    target_name: str
    target: Target | Squad
    #: dice expressions or names of mortal-wound rules (see
    #: :func:`~mathhammer.data.rules.named.mortal_roll`)
    rolls: tuple[str, ...] = ()
    crushing_impact: int | None = None

    @property
    def crushing(self) -> PMF | None:
        """Crushing Impact: PMF over (mortal wounds to the target, to the charging model)."""
        return None if self.crushing_impact is None else crushing_impact(self.crushing_impact)

    def amounts(self) -> list[tuple[str, str, PMF]]:
        """(label, what is rolled, mortal wounds) of every step, in order."""
        out = []
        if self.crushing is not None:
            t = self.crushing_impact
            out.append(("Crushing Impact", f"T{t}: {t} D6, 5+ -> 1 each, at most 6",
                        self.crushing.map(lambda x: x[0])))
        return out + [(r.label, r.what, r.pmf) for r in map(mortal_roll, self.rolls)]

    def run(self) -> Timeline:
        return sequence(self.target, [MortalWounds(pmf, label=label)
                                      for label, _, pmf in self.amounts()])

    def total(self) -> PMF:
        """Mortal wounds rolled in all (before Feel No Pain; some may be lost)."""
        out = PMF.point(0)
        for _, _, pmf in self.amounts():
            out = out + pmf
        return out

def groups(target: Target | Squad) -> tuple[Target, ...]:
    """The model groups of a target (a plain :class:`Target` is one group)."""
    return target.groups if isinstance(target, Squad) else (target,)


def wounds_lost(target: Target | Squad, state: Any) -> int:
    """Wounds the target has lost from full strength in ``state`` (destroyed models count
    their every wound).

    >>> from mathhammer import TargetState
    >>> wounds_lost(Target(models=3, toughness=4, save=3, wounds=2), TargetState(2, 1))
    3
    """
    parts = state if isinstance(target, Squad) else (state,)
    return sum((g.models - s.models) * g.wounds + s.wounds_lost
               for g, s in zip(groups(target), parts, strict=True))


def group_kills(target: Squad, final: PMF) -> list[PMF]:
    """Models destroyed in each group of ``target``, from the PMF of its final states."""
    def lost(i: int, models: int, s: Any) -> int:
        return models - s[i].models

    return [final.map(functools.partial(lost, i, g.models)) for i, g in enumerate(target.groups)]
