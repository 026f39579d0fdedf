"""The whole attack sequence: attacks, hits, wounds, saves, damage and allocation, exactly
(docs/rules.md, sections 1-7), with named rules applied to each weapon, the 11e choice to
decline Lethal Hits, Devastating Wounds after all normal damage, and the Hazardous tests and
Deadly Demise an attack leads to.

Why one module: the attack is one algorithm (counters, the chain by count or by attack, the
Devastating Wounds phase) whose parts share private value types; splitting it would scatter one
rule sequence.

Every target is a unit of one or more model groups (:class:`Squad`; a plain :class:`Target` is
a unit of one group). Each weapon's attacks are turned into wounds by
:func:`~mathhammer.mechanics.criticals.attack_wounds`, the normal damage runs as one Markov
chain over the unit's state (:mod:`~mathhammer.mechanics.allocation`) with the Devastating
Wounds still to come carried along, and those are applied last, in Horner form.

The paths a weapon can take (:class:`Path`; every one gives the same exact answer, the tests
hold each to the attack-by-attack chain), and :func:`choose_path` takes the one whose estimated
work (:meth:`_Shape.cost`) is least among those that apply:

- ``PACKETS`` (every group saves alike): :func:`_by_count` over unsaved packets; Devastating
  Wounds of the last and only Devastating weapon are simply more packets;
- ``WOUNDS`` (groups save differently, but alike against every kind of wound the weapon
  makes, :func:`one_kind`): :func:`_by_count` over wounds, each saved against the model it
  reaches;
- ``SINGLE`` (a Devastating weapon whose attacks make at most one wound each, of one kind):
  :func:`_single_wounds`, conditioned on the number of Devastating Wounds, which applies them
  itself when the weapon is the attack's last and only Devastating one;
- ``FIRST`` (``SINGLE``, the attack's last and only Devastating weapon, whose Devastating
  Wounds cost what an unsaved wound does): :func:`_first_group`, as if every group saved like
  the one the wounds reach first (``PACKETS``), corrected on the states past that group;
- ``PHASES`` (the last and only Devastating weapon, its Devastating Wounds costing what an
  unsaved wound does, into groups past the first that save alike, from one state):
  :func:`_phases`, a chain over the packets of the first group counted until it falls, then
  the packets after it;
- ``ATTACKS`` (always): :func:`_by_attack`, attack by attack, the general chain.

A count path with Devastating Wounds still to come needs the joint law of (packets,
Devastating Wounds) and carries those wounds as digits of its weights through twice as many
steps as there are attacks when an attack can make two wounds: there the general chain is
cheaper (three groups that save differently, Sustained Hits and Devastating Wounds).

The :class:`Result` works each law out when first asked: the counters come from the dice
alone, the damage, kills and states from the chain.

>>> import mathhammer as mh
>>> from fractions import Fraction
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> geq = mh.Target(models=5, toughness=4, save=3, wounds=1)
>>> r = mh.attack((rifle, 5), geq)  # each attack kills with 2/3 * 1/2 * 1/3 = 1/9
>>> r.kills.mean(), r.kills.prob(0) == Fraction(8, 9) ** 5
(Fraction(5, 9), True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence, Set
from enum import StrEnum
from fractions import Fraction
from math import comb, gcd, lcm
from typing import Any

import attrs

from ..cache import cached
from ..errors import InputError
from ..mechanics.allocation import (
    lose,
    loss_at,
    loss_total,
    mortal_move,
    next_group,
    one_group_chain,
    packet_move,
    wound_move,
)
from ..mechanics.criticals import (
    DEVASTATING,
    NORMAL,
    attack_wounds,
    packets_per_attack,
    save_fail_pairs,
    save_fails,
)
from ..mechanics.damage import damage_roll, packet_losses, wound_fnp
from ..mechanics.effects import deadly_demise_wounds, hazardous
from ..mechanics.named import apply_rules
from ..mechanics.rolls import attacks_roll
from ..model.named import NamedRule
from ..model.options import LethalHits, Options
from ..model.profiles import Target, Weapon
from ..model.ruleset import RuleSet, load_ruleset
from ..model.squad import (
    Squad,
    character_destroyed,
    describe_target,
    initial_state,
    models_alive,
    public_states,
    unit_weights,
)
from ..model.state import Group, UnitState
from ..prob.bigint import big, digit_width, pack, unpack
from ..prob.dice import dice_sum
from ..prob.markov import Move, Weights, chain, horner, tallied_chain
from ..prob.markov import step as markov_step
from ..prob.pmf import PMF
from .tallies import packed_final, worth_packing
from .work import check_attack_dice

__all__ = ["Result", "attack", "character_destroyed", "initial_state", "models_alive"]


#: The laws of a :class:`Result`, each worked out when first asked.
LAWS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "state",
        "group_kills", "deadly_demise", "hazard")


class _Law:
    """A law of a :class:`Result`, worked out when first asked and kept: the counters need the
    dice alone, the damage, kills and states the chain over the target's states (the
    heavy-queries design note)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, result: Result | None, owner: type | None = None) -> Any:
        if result is None:
            return self
        known = result._known
        if self.name not in known:
            known[self.name] = result._laws(self.name)
        return known[self.name]


@attrs.frozen(eq=False)
class Result:
    """Exact distributions of one attack (docs/rules.md, "What is counted"): ``attacks``,
    ``hits``, ``wounds``, ``unsaved``, ``mortal``, ``damage``, ``kills`` and ``state`` (the
    target's state after the attack: a TargetState, a tuple of them for a Squad) are PMFs;
    ``group_kills`` the models destroyed in each group of a Squad; ``deadly_demise`` the
    mortal wounds a unit within 6" suffers from the target's Deadly Demise (None: no DD);
    ``hazard`` what Hazardous weapons do to the attacking unit (None: no Hazardous weapon).
    Each is worked out when first asked (a counter never runs the chain over the target's
    states); two Results are equal when every one of them is."""

    target: Target | Squad
    options: Options
    #: what was asked, for the displays: the weapons in order, the named rules applied, and
    #: the attacker's and target's names (a unit's name, else the weapons and the profile)
    profiles: tuple[tuple[Weapon, int], ...] = ()
    named_rules: tuple[str, ...] = ()
    attacker_name: str = ""
    #: the target's name as given (its profile is described when it has none)
    _target_name: str = attrs.field(default="", alias="target_name")
    #: works out a law by its name (one of :data:`LAWS`)
    _laws: Any = attrs.field(default=None, alias="laws", repr=False)
    _known: dict[str, Any] = attrs.field(factory=dict, init=False, repr=False)

    attacks = _Law("attacks")
    hits = _Law("hits")
    wounds = _Law("wounds")
    unsaved = _Law("unsaved")
    mortal = _Law("mortal")
    damage = _Law("damage")
    kills = _Law("kills")
    state = _Law("state")
    group_kills = _Law("group_kills")
    deadly_demise = _Law("deadly_demise")
    hazard = _Law("hazard")

    @property
    def target_name(self) -> str:
        """The target's name, else its profile (``5x T4 Sv3+ W2``), for the displays."""
        return self._target_name or describe_target(self.target)

    def _key(self) -> tuple:
        return (self.target, self.options, self.profiles, self.named_rules, self.attacker_name,
                self.target_name, *(getattr(self, name) for name in LAWS))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple:
        """Pickled with every law worked out."""
        known = {name: getattr(self, name) for name in LAWS}
        return (_settled, (self.target, self.options, self.profiles, self.named_rules,
                           self.attacker_name, self.target_name, known))

    def __repr__(self) -> str:
        """Who attacked what, and the expected value of every counter.

        >>> import mathhammer as mh
        >>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
        >>> mh.attack((rifle, 5), mh.Target(models=5, toughness=3, save=5, wounds=1))  # (8/27)**5
        <Result 5x Rifle -> 5x T3 Sv5+ W1: attacks 5, hits 3.333, wounds 2.222, unsaved 1.481, \
mortal 0, damage 1.481, kills 1.481; P(destroyed) 0.2284%>
        """
        means = ", ".join(f"{n} {float(v):.4g}" for n, v in self.summary().items()
                          if n != "destroyed")
        return (f"<Result {self.attacker_name} -> {self.target_name}: {means}; "
                f"P(destroyed) {float(self.destroyed) * 100:.4g}%>")

    # --- displays (mathhammer.report.display, imported only when asked) ----------------------
    def _repr_html_(self) -> str:
        """The ``mathhammer kills`` report as HTML, for Jupyter."""
        from ..report.display import result_html

        return result_html(self)

    def to_dict(self) -> dict[str, Any]:
        """The ``mathhammer kills --json`` data: every PMF as ``{"k": "num/den"}``, the means
        exact and as floats, what was asked."""
        from ..report.display import result_dict

        return result_dict(self)

    def to_dataframe(self) -> Any:
        """A pandas DataFrame of every counter (``pip install "mathhammer[notebook]"``): one
        row per counter and outcome, exact probabilities beside floats."""
        from ..report.display import result_frame

        return result_frame(self)

    @property
    def destroyed(self) -> Fraction:
        """P(every model of the target destroyed)."""
        state = self.state
        return Fraction(sum(w for s, w in state.weights().items() if models_alive(s) == 0),
                        state.total)

    @property
    def character_destroyed(self) -> Fraction:
        """P(every CHARACTER model of a Squad destroyed), e.g. the Leader of an attached unit."""
        return character_destroyed(self.target, self.state)

    def summary(self) -> dict[str, Fraction]:
        """Expected values of every counter, and P(destroyed)."""
        names = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")
        return {n: getattr(self, n).mean() for n in names} | {"destroyed": self.destroyed}


_new = object.__new__
_put_target, _put_options, _put_profiles, _put_named, _put_attacker, _put_name, _put_laws, \
    _put_known = (Result.__dict__[name].__set__ for name in (
        "target", "options", "profiles", "named_rules", "attacker_name", "_target_name", "_laws",
        "_known"))


def _result(target: Target | Squad, options: Options, laws: Any, profiles: tuple,
            named_rules: tuple, attacker_name: str, target_name: str) -> Result:
    """``Result(...)`` of these fields, each set in its slot as ``__init__`` sets it (one
    Python call fewer per field: a query makes a Result)."""
    out = _new(Result)
    _put_target(out, target)
    _put_options(out, options)
    _put_profiles(out, profiles)
    _put_named(out, named_rules)
    _put_attacker(out, attacker_name)
    _put_name(out, target_name)
    _put_laws(out, laws)
    _put_known(out, {})
    return out


def _settled(target: Target | Squad, options: Options, profiles: tuple, named_rules: tuple,
             attacker_name: str, target_name: str, known: dict[str, Any]) -> Result:
    """A :class:`Result` of laws already worked out (unpickled)."""
    return Result(target, options, profiles, named_rules, attacker_name, target_name,
                  laws=known.__getitem__)


Profile = Weapon | tuple[Weapon, int]


def _entries(profiles: Any, melee: bool | None, target: Target | Squad, options: Options,
             apply: Iterable[NamedRule]) -> list[tuple[Weapon, int]]:
    if (type(profiles) is tuple and len(profiles) == 2 and type(profiles[0]) is Weapon
            and type(profiles[1]) is int and profiles[1] >= 1):  # (Weapon, models), at once
        return [profiles]
    if hasattr(profiles, "as_profiles"):  # a unit: its weapons chosen against this target
        return list(profiles.as_profiles(melee=bool(melee),
                                         score=value_against(target, options, tuple(apply))))
    if isinstance(profiles, Weapon) or (isinstance(profiles, tuple) and len(profiles) == 2
                                        and isinstance(profiles[0], Weapon)):
        profiles = [profiles]
    if isinstance(profiles, str | bytes) or not isinstance(profiles, Iterable):
        raise TypeError(f"profiles: expected a Weapon, (Weapon, models), a list of them or a "
                        f"unit, got {type(profiles).__name__}")
    out = []
    for p in profiles:
        weapon, count = (p, 1) if isinstance(p, Weapon) else (
            p if isinstance(p, tuple) and len(p) == 2 else (p, None))
        if not isinstance(weapon, Weapon):
            raise TypeError(f"profiles: expected a Weapon or (Weapon, models), got {p!r}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InputError(
                f"profiles: models carrying {weapon.name!r}: expected >= 1, got {count!r}"
            )
        out.append((weapon, count))
    if not out:
        raise InputError("profiles: no weapons to attack with")
    return out


def _named_rule(rule: Any) -> NamedRule:
    if not isinstance(rule, NamedRule):
        raise TypeError(f"apply: expected NamedRule values (a rule by name: "
                        f"mathhammer.find_rule), got {rule!r}")
    return rule


def attack(profiles: Profile | Sequence[Profile] | Any, target: Target | Squad | Any, *,
           state: PMF | None = None, melee: bool | None = None,
           apply: Iterable[NamedRule] = (), attacker: Target | None = None,
           **options: Any) -> Result:
    """Resolve the attacks of ``profiles`` (in order) against ``target``, exactly.

    ``target`` is a :class:`Target`, a :class:`Squad` or a unit; ``state`` is the target's
    state to start from (default: unharmed); ``apply`` gives the
    :class:`~mathhammer.model.named.NamedRule` values to switch on (rules from ``rules/``
    found by :func:`~mathhammer.data.rules.named.find_rule`, or rules from data; the library's
    ``mathhammer.attack`` also takes their names);
    ``attacker`` is the attacking unit's profile for Hazardous (a unit's own by default);
    every other keyword is an :class:`Options` field.
    """
    opts = Options.make(**options)
    rules = load_ruleset(opts.rules)
    if attacker is not None and not isinstance(attacker, Target):
        raise TypeError(f"attacker: expected a Target, got {type(attacker).__name__}")
    if attacker is None and type(profiles) is not tuple:  # a (Weapon, models) has no profile
        attacker = own_profile(profiles)
    if type(target) is not Target and hasattr(target, "as_target"):  # (a failed hasattr
        target = target.as_target()  # costs an exception: a plain Target is known at once)
    if not isinstance(target, Target | Squad):
        raise TypeError(f"target: expected a Target, a Squad or a unit, got "
                        f"{type(target).__name__}")
    named = tuple(map(_named_rule, [apply] if isinstance(apply, str) else apply))
    entries = tuple(_entries(profiles, melee, target, opts, named))
    args = (entries, target, state, named, attacker, opts, rules,
            _attacker_name(profiles, entries))
    try:  # hashed once, by the memo (a Weapon's or a Target's hash is a Python call)
        return _answer(*args)
    except TypeError:
        try:
            hash(args)
        except TypeError:  # a value that cannot be a key (a rule from data holding a list...)
            # cached() types the memo as the function; an lru_cache, which has __wrapped__
            return _answer.__wrapped__(*args)  # type: ignore[attr-defined]
        raise  # raised by the work itself


@cached(maxsize=128)
def _answer(entries: tuple[tuple[Weapon, int], ...], target: Target | Squad, state: PMF | None,
            named: tuple[NamedRule, ...], attacker: Target | None, opts: Options,
            rules: RuleSet, attacker_name: str) -> Result:
    """:func:`attack` once its arguments are read, remembered: the answer depends on nothing
    else (the rule set and the named rules are the values read from their files). The work is
    checked first (an answer remembered was checked when it was made)."""
    unit = _unit(target)
    groups = unit.groups  # (its models: a property)
    check_attack_dice(entries, groups[0].models if len(groups) == 1 else unit.models, rules)
    asked: dict[str, Any] = {"profiles": entries,
             "named_rules": tuple(r.name for r in named) if named else (),
             "attacker_name": attacker_name,
             "target_name": target.name}  # else described when shown
    if state is None:  # from the unharmed unit (most): one run
        return _attack_from(list(entries), target, unit, opts, rules, unit.start(),
                            list(named), attacker, asked)
    starts = unit_weights(target, state)
    runs = [(w, _attack_from(list(entries), target, unit, opts, rules, s, list(named),
                             attacker, asked if len(starts) == 1 else {}))
            for s, w in starts.items()]
    if len(runs) == 1:
        return runs[0][1]

    def mixed(name: str) -> Any:  # each law mixed over the starting states
        first = runs[0][1]
        if name == "hazard":
            return first.hazard
        if name == "group_kills":
            return tuple(PMF.mix((w, r.group_kills[i]) for w, r in runs)
                         for i in range(len(first.group_kills)))
        if name == "deadly_demise" and first.deadly_demise is None:
            return None
        return PMF.mix((w, getattr(r, name)) for w, r in runs)

    return Result(target=target, options=opts, laws=mixed, **asked)


def own_profile(profiles: Any) -> Target | None:
    """The attacking unit's own profile, for Hazardous: a unit's (its one model group's), or
    None for weapons alone and for a unit of several groups (an attached Leader and
    Bodyguard: which model a failed test hurts is not modelled, the mortal wounds are counted).

    >>> own_profile(Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)) is None
    True
    """
    if not hasattr(profiles, "as_target"):
        return None
    own = profiles.as_target()
    if isinstance(own, Squad):
        return own.groups[0] if len(own.groups) == 1 else None
    return own if isinstance(own, Target) else None


def fired_weapons(profiles: Profile | Sequence[Profile] | Any, target: Target | Squad | Any, *,
                  melee: bool | None = None, apply: Iterable[NamedRule] = (),
                  **options: Any) -> list[tuple[Weapon, int]]:
    """The ``(weapon, models)`` pairs that :func:`attack` fires: the profiles given, or a unit's
    weapons chosen against ``target`` (:mod:`mathhammer.model.loadout`).

    >>> gun = Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
    >>> fired_weapons(gun, Target(models=1, toughness=4, save=3, wounds=1)) == [(gun, 1)]
    True
    """
    if hasattr(target, "as_target"):
        target = target.as_target()
    return _entries(profiles, melee, target, Options.make(**options),
                    tuple(map(_named_rule, apply)))


def _attacker_name(profiles: Any, entries: Sequence[tuple[Weapon, int]]) -> str:
    """A unit's name, else its weapons (``4x Bolt rifle + 1x Multi-melta``)."""
    if len(entries) == 1 and entries[0] is profiles:  # (Weapon, models)
        return f"{profiles[1]}x {profiles[0].name}"
    name = getattr(profiles, "name", None) if hasattr(profiles, "as_profiles") else None
    return name if isinstance(name, str) and name else " + ".join(
        f"{n}x {w.name}" for w, n in entries)


def _strength(unit: Squad, start: UnitState) -> tuple[bool, bool]:
    """Whether the target is below half strength and below its Starting Strength."""
    models = unit.models
    alive = models_alive(start)
    if models == 1:
        left = unit.groups[0].wounds - start[0].wounds_lost if alive else 0
        return left * 2 < unit.groups[0].wounds, left < unit.groups[0].wounds
    return alive * 2 < models, alive < models


@attrs.frozen(cache_hash=True)  # a key of the cached counters and packet laws
class _Volley:
    """One weapon's attacks against the unit, with any named rules applied."""

    weapon: Weapon
    count: int
    rolls: Target  # the profile the hit and wound rolls use
    groups: tuple[Target, ...]  # each model group, for saves and Feel No Pain
    options: Options
    precision: bool

    @property
    def devastating(self) -> bool:
        return self.weapon.parsed.devastating_wounds


def _volleys_of(entries: list[tuple[Weapon, int]], unit: Squad, opts: Options, rules: RuleSet,
                start: UnitState, named: list) -> list[_Volley]:
    """Each weapon's attacks against the unit, with the named rules applied."""
    rolls = _rolls_of(unit, rules, start)
    below_half, below_starting = _strength(unit, start) if named else (False, False)
    volleys: list[_Volley] = []
    for weapon, count in entries:
        w = weapon.with_abilities(*opts.abilities) if opts.abilities else weapon
        t, o, groups = rolls, opts, unit.groups
        if named:
            def changed(group: Target, w: Weapon = w) -> tuple[Weapon, Target, Options]:
                return apply_rules(named, w, group, opts, below_half=below_half,
                                   below_starting=below_starting)

            w, t, o = changed(t)
            groups = tuple(changed(g)[1] for g in groups)
        if o.lethal_hits == "best" and rules.lethal_optional and w.parsed.lethal_hits:
            o = _best_lethal(w, count, attrs.evolve(unit, groups=groups), o, start)
        volleys.append(_Volley(w, count, t, groups, o, bool(w.parsed.precision and o.precision)))
    return volleys


def _attack_from(entries: list[tuple[Weapon, int]], target: Target | Squad, unit: Squad,
                 opts: Options, rules: RuleSet, start: UnitState, named: list,
                 attacker: Target | None, asked: dict[str, Any]) -> Result:
    allocation = unit.allocation
    known: dict[str, Any] = {}
    if not named and not opts.abilities and opts.lethal_hits != "best":
        # each weapon as given: the attacks need no volley (the law asked most cheaply)
        target_models = models_alive(start)
        rolled = [attacks_roll(w, opts, rules, target_models if w.parsed.blast
                               or w.parsed.cleave else 0)  # (per_target_models: a property)
                  for w, _count in entries]
        volleys: list[_Volley] = []
    else:
        volleys = _volleys_of(entries, unit, opts, rules, start, named)
        target_models = models_alive(start)
        rolled = [attacks_roll(v.weapon, v.options, rules,
                               target_models if v.weapon.parsed.per_target_models else 0)
                  for v in volleys]

    def made() -> list[_Volley]:  # the volleys, made when a law past the attacks needs them
        if not volleys:
            volleys.extend(_volleys_of(entries, unit, opts, rules, start, named))
        return volleys

    def final() -> PMF:  # the target's states after every volley, Devastating Wounds last
        if "final" not in known:
            states = _final(made(), rolled, unit, start, rules)  # int weights (checked by
            # PMF() where one may be 0; else made at once, without its __init__'s checks)
            known["final"] = PMF(states) if 0 in states.values() else PMF._trusted(states)
        return known["final"]

    def losses() -> tuple[PMF, PMF, tuple[PMF, ...]]:
        if "losses" not in known:
            known["losses"] = _losses_of(unit, start, final())
        return known["losses"]

    def laws(name: str) -> Any:
        if name == "attacks":  # the dice's sum over the models, at once
            out = None
            for (_w, count), n in zip(entries, rolled, strict=True):
                law = dice_sum(n, count)
                out = law if out is None else out + law
            return out
        if name in _COUNTERS:
            out = None
            for v, n in zip(made(), rolled, strict=True):
                # the failing faces of the first group's save: for unsaved only
                faces: tuple[tuple[str, int], ...] = ()
                if name == "unsaved":
                    first = next_group(start, allocation, v.precision)
                    faces = save_fail_pairs(v.weapon, v.groups[first if first is not None
                                                               else 0], v.options, rules)
                law = _counter(v, n, faces, rules, name)
                out = law if out is None else out + law
            return out
        if name == "hazard":
            tests = sum(v.count for v in made() if v.weapon.parsed.hazardous)
            return hazardous(tests, attacker, opts.rules) if tests else None
        if name == "state":
            return public_states(target, final().weights())
        if name == "deadly_demise":
            return deadly_demise_wounds(unit, start, final())
        return losses()[("damage", "kills", "group_kills").index(name)]

    return _result(target, opts, laws, asked.get("profiles", ()), asked.get("named_rules", ()),
                   asked.get("attacker_name", ""), asked.get("target_name", ""))


#: The counters of an attack: from the dice alone, never from the target's states.
_COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal")


def _final(volleys: list[_Volley], rolled: list[PMF], unit: Squad, start: UnitState,
           rules: RuleSet) -> Weights:
    """The weights of the unit's states after every volley (each by the path
    :func:`choose_path` takes), the Devastating Wounds applied after all normal damage. With
    several Devastating weapons whose tallies make many keys, each volley's path runs once per
    state of the unit, the tallies packed (:func:`~mathhammer.engine.tallies.packed_final`)."""
    allocation = unit.allocation
    devs = [i for i, v in enumerate(volleys) if v.devastating]
    count = len(devs)
    if count > 1:
        slots = _slots(volleys, devs, rules)
        count = slots[devs[-1]] + 1
        if count > 1:
            most = [0] * count
            for i in devs:
                most[slots[i]] += _most_devastating(volleys[i], rolled[i], rules)
            if worth_packing(most):
                return _packed(volleys, rolled, allocation, slots, start, rules)
    else:
        slots = dict.fromkeys(devs, 0)
    keys: Weights = {(start, (0,) * count): 1}
    last = count == 1 and len(devs) == 1 and devs[0] == len(volleys) - 1  # the only one
    for i, (v, n) in enumerate(zip(volleys, rolled, strict=True)):
        keys = _volley_keys(keys, v, n, allocation, slots.get(i), last and i == devs[0], rules)
    if count:
        for slot, i in _firsts(slots).items():
            keys = _devastating(keys, slot, volleys[i], allocation, rules)
    states: Weights = {}
    for (s, _), w in keys.items():
        states[s] = states.get(s, 0) + w
    return states


def _firsts(slots: dict[int, int]) -> dict[int, int]:
    """Each slot's first weapon (by index), in slot order."""
    out: dict[int, int] = {}
    for i, slot in slots.items():
        out.setdefault(slot, i)
    return out


def _packed(volleys: list[_Volley], rolled: list[PMF], allocation: tuple[Group, ...],
            slots: dict[int, int], start: UnitState, rules: RuleSet) -> Weights:
    """:func:`_final` by :func:`~mathhammer.engine.tallies.packed_final`: each volley's path
    run once per state of the unit."""
    steps = []
    for i, (v, n) in enumerate(zip(volleys, rolled, strict=True)):
        def run(keys: Weights, v: _Volley = v, n: PMF = n, slot: int | None = slots.get(i)
                ) -> Weights:
            return _volley_keys(keys, v, n, allocation, slot, False, rules)

        steps.append((slots.get(i), run))
    firsts = _firsts(slots)
    return packed_final(start, steps, [_devastating_move(volleys[i], allocation, rules)
                                       for i in firsts.values()], len(firsts))


def _slots(volleys: list[_Volley], devs: list[int], rules: RuleSet) -> dict[int, int]:
    """The tally (slot) of each of several Devastating weapons' wounds still to come, by its
    index: one each, but a weapon whose Devastating Wounds move the unit as the one before it
    does (the same losses, Feel No Pain and Precision; a heavy flamer's and a heavy stubber's
    D1) shares its slot, since ``D^a D^b = D^(a + b)``: their wounds are applied in the same
    order, in one Horner chain, and the keys do not multiply."""
    out: dict[int, int] = {}
    before = None
    for i in devs:
        v = volleys[i]
        if rules.devastating_excess_lost:  # a loss past a model's wounds is all of them
            key: Any = (True, tuple(
                tuple(law.map(lambda e, w=g.wounds: min(e, w))
                      for law in (loss if isinstance(loss, tuple) else (loss,)))
                for loss, g in zip(_losses(v, True), v.groups, strict=True)), v.precision)
        else:
            key = (False, tuple(wound_fnp(g, v.weapon, True) for g in v.groups),
                   damage_roll(v.weapon, v.options), v.precision)
        out[i] = len(set(out.values())) - (key == before)
        before = key
    return out


def _most_devastating(v: _Volley, n: PMF, rules: RuleSet) -> int:
    """The most Devastating Wounds the volley may make."""
    per = attack_wounds(v.weapon, v.rolls, v.options, rules, ordered=False)
    return max(n.outcomes()) * v.count * max(w.count(DEVASTATING) for _h, w in per.outcomes())


def _volley_keys(keys: Weights, v: _Volley, n: PMF, allocation: tuple[Group, ...],
                 slot: int | None, last: bool, rules: RuleSet) -> Weights:
    """One volley's normal damage on the keys ``(state, pending)`` by the path
    :func:`choose_path` takes, its Devastating Wounds tallied in ``slot`` (or applied, when it
    is the ``last`` and only Devastating weapon and its path applies them)."""
    fails = [save_fails(v.weapon, g, v.options, rules) for g in v.groups]
    losses = _losses(v, False)
    per = attack_wounds(v.weapon, v.rolls, v.options, rules, ordered=False)
    alike = saves_alike(fails)
    packets = last and rules.devastating_excess_lost and _mortal_fnp_alike(v)
    merge = alike and packets
    if packets_first(alike, slot is not None):  # the shape not needed
        return _by_count(keys, v, n, per, tuple(fails[0].items()),
                         packet_move(allocation, losses, v.precision), slot, merge)
    kinds, single = _wound_kinds(per)
    faces = one_kind(fails, kinds)
    shape = _Shape.of(keys, v, n, per, losses, allocation, slot, merge, last, packets, faces)
    path = choose_path(shape, alike, faces is not None, single)
    if path is Path.FIRST:
        assert slot is not None and faces is not None  # FIRST: one Devastating weapon
        out = _first_group(keys, v, n, per, fails, faces, losses, allocation,
                           slot, _devastating_move(v, allocation, rules))
        if out is not None:
            return out
        path = Path.SINGLE
    if path is Path.PHASES:
        out = _phases(keys, v, n, per, faces, losses, allocation)  # type: ignore[arg-type]
        if out is not None:
            return out
        path = Path.ATTACKS
    if path is Path.SINGLE:
        assert slot is not None and faces is not None  # single wounds: one kind, faces known
        move = wound_move(allocation, faces, losses, v.precision)
        return _single_wounds(keys, v, n, per, move, slot,
                              _devastating_move(v, allocation, rules) if last else None)
    if path is Path.PACKETS:
        return _by_count(keys, v, n, per, tuple(fails[0].items()),
                         packet_move(allocation, losses, v.precision), slot, merge)
    if path is Path.WOUNDS:
        assert faces is not None  # the count over wounds: one set of failing faces
        return _by_count(keys, v, n, per, None,
                         wound_move(allocation, faces, losses, v.precision), slot, False)
    return _by_attack(keys, v, n, fails, losses, allocation, slot, rules)


class Path(StrEnum):
    """How one weapon's attacks run through the unit's states; every path gives the same exact
    answer, and :func:`choose_path` takes the cheapest that applies."""

    PACKETS = "packets"  # by the count of unsaved packets: every model group saves alike
    WOUNDS = "wounds"  # by the count of wounds, each saved against the model it reaches
    SINGLE = "single"  # single-wound Devastating weapons, conditioned on the Devastating count
    FIRST = "first"  # SINGLE, as if every group saved like the first, corrected past it
    PHASES = "phases"  # packets counted until the first group falls, then after it
    ATTACKS = "attacks"  # attack by attack: the general chain


@attrs.frozen
class _Shape:
    """What the work of each path grows with, for one weapon: a rough count of the big-integer
    steps each path takes (:meth:`cost`, in units of one step on a small weight)."""

    attacks: int  # the most attacks
    counts: int  # how many different numbers of attacks there may be
    wounds: int  # the most wounds one attack makes
    devastating: int  # the most Devastating Wounds one attack makes
    tallied: bool  # a Devastating weapon: its Devastating Wounds counted in the chain
    merged: bool  # its Devastating Wounds are simply more packets (:func:`_by_count`)
    last: bool  # the attack's last and only Devastating weapon
    states: int  # the unit's states: every model's wounds, group by group
    outcomes: int  # the most outcomes of one packet's loss
    bits: int  # of one attack's weights and of one packet's, together
    #: its Devastating Wounds cost what an unsaved wound does (excess lost, the same Feel No
    #: Pain), and it is the attack's last and only Devastating weapon
    packets: bool = False
    rest: int = 0  # the unit's states past the group its first wound goes to
    #: the states of :func:`_phases`' chain (the packets that group may take, standing, and
    #: the packets at which it may fall), 0 when it does not apply
    phases: int = 0

    @classmethod
    def of(cls, keys: Weights, v: _Volley, n: PMF, per: PMF, losses: list[PMF],
           allocation: tuple[Group, ...], slot: int | None, merge: bool, last: bool,
           packets: bool = False, faces: list[int] | None = None) -> _Shape:
        start = next(iter(keys))[0]
        states = 1 + sum(s.models * g.wounds for s, g in zip(start, allocation, strict=True))
        outcomes = per.outcomes()
        rest = phases = 0  # only where the first group's paths may apply
        g0 = next_group(start, allocation, v.precision) if packets else None
        if g0 is not None:
            rest = states - start[g0].models * allocation[g0].wounds
            most = max(n.outcomes()) * v.count * max(len(w) for _h, w in outcomes) + 1
            lost: Any = losses[g0]
            taken = [e for law in (lost if isinstance(lost, tuple) else (lost,))
                     for e in law.outcomes()]
            phases = 2 * most if _phased(keys, g0, faces) else 0
            if phases and min(taken):  # every packet takes a wound: it falls within so many
                wounds, models = allocation[g0].wounds, start[g0].models
                longest = min(models * -(-wounds // min(taken)), most)
                phases = longest + longest - min(models * -(-wounds // max(taken)), most) + 1
        # a group's loss: one law, or (re-rolled Damage) one law per wounds its model has left
        laws = [law for loss in losses for law in (loss if isinstance(loss, tuple) else (loss,))]
        return cls(
            attacks=max(n.outcomes()) * v.count,
            counts=(max(n.outcomes()) - min(n.outcomes())) * v.count + 1,
            wounds=max(len(w) for _h, w in outcomes),
            devastating=max(w.count(DEVASTATING) for _h, w in outcomes),
            tallied=slot is not None, merged=merge, last=last, states=states,
            outcomes=max(len(law) for law in laws),
            bits=per.total.bit_length() + lcm(*(law.total for law in laws)).bit_length() + 3,
            packets=packets, rest=rest, phases=phases)

    @property
    def pending(self) -> bool:
        """Its Devastating Wounds tallied for later (not merged into the packets)."""
        return self.tallied and not self.merged

    def cost(self, path: Path) -> float:
        """The estimated work of ``path`` (which must apply), in steps on a small weight:
        steps times states times moves, each move's cost growing with the size of the weights
        it moves (their Devastating Wounds to come packed as digits), and the joint law of
        packets and Devastating Wounds where a count path needs one (tests/benchmark.py
        measures the paths; the constants are read off it).

        >>> s = _Shape(60, 1, 2, 2, True, False, True, 41, 3, 15)
        >>> s.cost(Path.ATTACKS) < s.cost(Path.WOUNDS)  # three groups that save differently
        True
        """
        n, s, k, kd, losses = self.attacks, self.states, self.wounds, self.devastating, \
            self.outcomes
        width = n * k * self.bits / 64  # limbs of the largest weights
        digits = n * kd + 1  # Devastating Wounds to come, packed

        def move(limbs: float) -> float:  # one Python step and its big-integer work
            return 1 + limbs / 250

        if path is Path.PHASES:  # a chain over the packets of the first group, tallied,
            # then the packets after it over the unit's states (its weights smaller than
            # the general chain's, no loss in them: half the estimate, measured)
            digits = n * kd + n * k + 1
            return (n * self.phases * (k + 1) * (kd + 1) * move(width * digits / 4) / 2
                    + digits * s * losses * move(width / 2))
        if path is Path.ATTACKS:  # each attack's outcomes from every state
            outcomes = 1 + k * losses + kd
            memo = 4 * s * sum((losses + 1) ** j for j in range(k + 1))
            size = width * digits / 4 if self.tallied else width / 2
            return n * s * outcomes * move(size) + memo
        if path in (Path.SINGLE, Path.FIRST):  # chains of plain weights, the Devastating counts
            chain = n * s * (losses + 2) * move(width / 2)
            wide = width + 2 * n * max(n.bit_length() - 1, 1) / 64  # with factorials
            if path is Path.FIRST:  # one chain (two past the first group), the counts on
                # the states past it, and the packets of every wound as if each group saved
                # like it (the chains' steps cheaper than the estimate above for random
                # counts, measured; a fixed count's single-wound path needs no correlation)
                counting = wide / 2 + self.counts * wide / 250 if self.counts > 1 else 1
                cheaper = 0.4 if self.counts > 1 else 1
                return (cheaper * n * (s + self.rest) * (losses + 2) * move(width / 2)
                        + 2 * self.rest * n * counting
                        + cheaper * n * s * losses * move(width / 2))
            if self.counts == 1:
                return chain
            return chain + s * n * (wide / 2 + self.counts * wide / 250)
        # PACKETS (unsaved packets), WOUNDS (each saved later): a chain over their count
        steps, moves = n * k, losses + (path is Path.WOUNDS)
        if not (self.pending if path is Path.PACKETS else self.tallied):
            if moves == 1:  # a fixed loss: one state after each step, no chain to run
                return steps
            return steps * s * moves * move(width / 2)
        return steps * s * moves * move(width * digits / 4) + 15 * steps * digits


def choose_path(shape: _Shape, alike: bool, one_kind: bool, single: bool) -> Path:
    """The cheapest path for ``shape`` (:meth:`_Shape.cost`) of those that apply:
    :attr:`Path.PACKETS` when every group saves alike, :attr:`Path.WOUNDS` when each group
    saves alike against every kind of wound the weapon makes, :attr:`Path.SINGLE` for a
    Devastating weapon whose attacks make at most one wound each (and one kind),
    :attr:`Path.ATTACKS` always."""
    return min(reversed(paths_for(shape, alike, one_kind, single)), key=shape.cost)


def packets_first(alike: bool, tallied: bool) -> bool:
    """Whether :func:`choose_path` would take :attr:`Path.PACKETS` whatever the shape: every
    group saves alike and the weapon is not Devastating (:attr:`_Shape.tallied`), so
    :func:`_final` takes it without working out the shape. Its cost (:meth:`_Shape.cost`),
    ``k`` packet steps per attack over the states with ``losses`` moves each (``k`` steps for
    a fixed loss), is then at most each other path's that may apply: WOUNDS moves once more
    per step, ATTACKS has ``1 + k * losses`` outcomes per attack on weights as wide; SINGLE
    needs a Devastating weapon, FIRST and PHASES groups that save differently (a test holds
    :func:`choose_path` to it). A Devastating weapon's merged packets are not: the general
    chain's estimate may be lower."""
    return alike and not tallied


def paths_for(shape: _Shape, alike: bool, one_kind: bool, single: bool) -> list[Path]:
    """The paths that apply (see :func:`choose_path`), the general chain first."""
    paths = [Path.ATTACKS]
    if one_kind:
        paths.append(Path.WOUNDS)
    if alike:
        paths.append(Path.PACKETS)
    if shape.tallied and one_kind and single:
        paths.append(Path.SINGLE)
        if shape.packets and not alike:
            paths.append(Path.FIRST)
    if shape.phases and one_kind and not alike:
        paths.append(Path.PHASES)
    return paths


@cached(maxsize=256)
def _wound_kinds(per: PMF) -> tuple[frozenset[str], bool]:
    """The kinds of wound other than Devastating that one attack's law ``per`` makes, and
    whether every attack makes at most one wound."""
    kinds = frozenset(k for _h, wounds in per.outcomes() for k in wounds) - {DEVASTATING}
    return kinds, all(len(wounds) <= 1 for _h, wounds in per.outcomes())


@cached(maxsize=256)
def _unit(target: Target | Squad) -> Squad:
    """:meth:`Squad.of`, remembered (a new Squad is checked and hashed again)."""
    return Squad.of(target)


def _rolls_of(unit: Squad, rules: RuleSet, start: UnitState) -> Target:
    """The profile the hit and wound rolls use: one unharmed group's is (most often) its own,
    found at once (:meth:`Squad.rolls_target`) without hashing a key; else remembered."""
    if len(unit.groups) == 1 and start[0] == (unit.groups[0].models, 0):
        return unit.rolls_target(rules, start)
    return _rolls_target(unit, rules, start)


@cached(maxsize=256)
def _rolls_target(unit: Squad, rules: RuleSet, start: UnitState) -> Target:
    """The profile the hit and wound rolls use (cached: building it checks a new Target)."""
    return unit.rolls_target(rules, start)


def _losses_of(unit: Squad, start: UnitState, states: PMF) -> tuple[PMF, PMF, tuple[PMF, ...]]:
    """The laws of the wounds lost (damage), the models destroyed (kills) and the models
    destroyed in each group, from the start to ``states`` (one pass over the states)."""
    wounds = [g.wounds for g in unit.groups]
    left = sum(x.models * w - x.wounds_lost for x, w in zip(start, wounds, strict=True))
    damage: dict[int, int] = {}
    kills: dict[int, int] = {}
    if len(start) == 1:  # one group: its kills are the unit's
        (x,), w = start, wounds[0]
        for (y,), p in states.weights().items():
            d, k = left - y.models * w + y.wounds_lost, x.models - y.models
            damage[d] = damage.get(d, 0) + p
            kills[k] = kills.get(k, 0) + p
        killed = PMF._trusted(kills)
        return PMF._trusted(damage), killed, (killed,)
    groups: list[dict[int, int]] = [{} for _ in start]
    for s, p in states.weights().items():
        d = left
        k = 0
        for x, y, w, lost in zip(start, s, wounds, groups, strict=True):
            d -= y.models * w - y.wounds_lost
            k += x.models - y.models
            lost[x.models - y.models] = lost.get(x.models - y.models, 0) + p
        damage[d] = damage.get(d, 0) + p
        kills[k] = kills.get(k, 0) + p
    return PMF._trusted(damage), PMF._trusted(kills), tuple(PMF._trusted(g) for g in groups)


@cached(maxsize=1024)
def _counter(v: _Volley, n: PMF, faces: tuple[tuple[str, int], ...], rules: RuleSet,
             name: str) -> PMF:
    """One counter of one weapon (one of :data:`_COUNTERS` but the attacks, which the law
    sums at once), from the dice alone: every attack counts as if rolled, saves against the
    model group the first wound goes to (whose failing faces are ``faces``). Cached: every
    starting state of a sequence asks the same."""
    per = attack_wounds(v.weapon, v.rolls, v.options, rules, ordered=False)
    if name == "hits":
        return _unit_total(per.map(lambda o: o[0]), n, v.count)
    if name == "wounds":
        return _unit_total(per.map(lambda o: len(o[1])), n, v.count)
    if name == "unsaved":
        return _packet_law(v, n, per, faces, None)
    if not v.devastating:
        return PMF.point(0)
    damage = damage_roll(v.weapon, v.options)
    return _unit_total(per.bind(lambda o: damage.repeat(o[1].count(DEVASTATING))), n, v.count)


def _unit_total(x: PMF, n: PMF, models: int) -> PMF:
    """The sum of ``x`` over every attack of ``models`` models of ``n`` attacks each."""
    weights = n.weights()
    if len(weights) == 1:  # a fixed number of attacks per model
        (count,) = weights
        return x.repeat(count * models)
    return x.random_sum(n).repeat(models)


def _bump(pending: tuple[int, ...], slot: int | None, by: int) -> tuple[int, ...]:
    if slot is None or not by:
        return pending
    return pending[:slot] + (pending[slot] + by,) + pending[slot + 1:]


def saves_alike(fails: list[dict[str, int]]) -> bool:
    """Whether every model group fails its saves on the same faces (then only the number of
    wounds that get through matters, not which model they go to)."""
    return all(f == fails[0] for f in fails)


def one_kind(fails: list[dict[str, int]], kinds: Set[str]) -> list[int] | None:
    """The failing faces of each group's save when every kind of wound in ``kinds`` (normal
    and critical ones) fails on the same faces within each group, so that every wound that
    is not a Devastating Wound moves the unit the same way; else None."""
    out = []
    for f in fails:
        faces = {f[k] for k in kinds} or {f[NORMAL]}
        if len(faces) > 1:
            return None
        out.append(faces.pop())
    return out


def _by_count(keys: Weights, v: _Volley, n: PMF, per: PMF, faces: tuple | None, move: Move,
              slot: int | None, merge: bool) -> Weights:
    """Only how many packets reach the unit matters, not their order or which attack made
    them, and the chain runs over that count (with the Devastating Wounds still to come
    tallied per count). Two cases: every model group saves alike (one group, or groups with
    the same saves), where a packet is an unsaved wound (``faces``: the failing faces of the
    save; ``move``: :func:`packet_move`); or groups that save differently but on the same
    faces against every kind of wound the weapon makes, where a packet is a wound and its
    save is rolled against the model it goes to (``faces`` None: every wound that is not
    Devastating; ``move``: :func:`wound_move`). ``merge``: this weapon's Devastating Wounds
    are the last damage of the attack and move the state as an unsaved wound does, so they
    are simply more packets."""
    def moved(key: tuple) -> list[tuple[Any, int]]:  # the Devastating tally rides along
        return [((s2, key[1]), w) for s2, w in move(key[0])]

    if slot is None or merge:  # (without Devastating Wounds, the counter's law)
        law = _packet_law(v, n, per, faces, 0 if v.devastating else None)
        counted = one_group_chain(keys, law, move)  # W1 models or a single one: a sum
        return counted if counted is not None else chain(
            keys, law, moved, move.total)  # type: ignore[attr-defined]
    # The joint law of (packets, Devastating Wounds) as one integer u * base + dev, so sums of
    # attacks stay sums of integers; then the chain over packets in Horner form, with the
    # Devastating Wounds to come packed into each weight's digits.
    base = max(n.outcomes()) * v.count * max(len(o[1]) for o in per.outcomes()) + 1
    joint = _packet_law(v, n, per, faces, base)
    by_packets: dict[int, dict[int, int]] = {}
    for x, w in joint.weights().items():
        u, dev = divmod(x, base)
        by_packets.setdefault(u, {})[dev] = w
    top = max(by_packets)
    width = digit_width(sum(keys.values()) * joint.total * move.total ** top)  # type: ignore
    by_count = {u: {k: w0 * pack(devs, width) for k, w0 in keys.items()}
                for u, devs in by_packets.items()}
    out: Weights = {}
    for (s, pending), x in horner(by_count, moved, move.total).items():  # type: ignore
        for dev, w in unpack(x, width).items():
            k = (s, _bump(pending, slot, dev))
            out[k] = out.get(k, 0) + w
    return out


@cached(maxsize=256)
def _packet_law(v: _Volley, n: PMF, per: PMF, faces: tuple | None, base: int | None) -> PMF:
    """The law of the packets of one weapon (see :func:`_by_count`), its Devastating Wounds
    left out (``base`` None: the ``unsaved`` counter), counted as packets (``base`` 0) or
    coded as ``packets * base + devastating``
    (:func:`~mathhammer.mechanics.criticals.packets_per_attack`). Cached: every starting
    state of a sequence asks the same, and a weapon without Devastating Wounds asks the
    counter's law again for its packets."""
    if base == 0 and not v.devastating:
        return _packet_law(v, n, per, faces, None)
    law = packets_per_attack(per, None if faces is None else dict(faces), base)
    return _unit_total(law, n, v.count)


def _single_wounds(keys: Weights, v: _Volley, n: PMF, per: PMF, move: Move, slot: int,
                   then: Move | None) -> Weights:
    """A Devastating weapon whose every attack makes at most one wound (no Sustained Hits),
    where only the number of the other wounds matters (:func:`one_kind`; ``move`` is one such
    wound, its save included: :func:`wound_move`). With ``N`` attacks of which ``V`` make
    Devastating Wounds, the other ``N - V`` each make a wound or nothing, so the state after
    them is ``T^(N-V)`` of the start with ``T`` = "a wound with the probability an attack
    that is not Devastating has of one, else nothing". One chain of ``max N`` steps gives
    every ``T^k`` (k = 0, 1, ...), and each is added, weighted by ``P(N = k + v)`` times the
    binomial law of ``v`` Devastating Wounds among ``k + v`` attacks, to the states with ``v``
    Devastating Wounds to come (the heavy-queries design note).

    ``then``: the move of one Devastating Wound when this weapon is the attack's last and
    only Devastating one; its wounds are then applied here, in Horner form alongside the
    chain (those with ``v`` to come are complete once the chain reaches ``T^(max N - v)``),
    instead of tallied for :func:`_devastating`."""
    a, b, c = _split_single(per)
    count = n.repeat(v.count)
    counts = count.weights()
    top = max(counts)
    total = move.total  # type: ignore[attr-defined]
    step = _single_step(move, a, c)

    def devastate(key: tuple) -> list[tuple[Any, int]]:
        return [((s2, key[1]), w) for s2, w in then(key[0])]  # type: ignore[misc]

    if then is not None and len(counts) == 1:
        return _single_wounds_fixed(keys, top, b * total, step, devastate, then.total)  # type: ignore[attr-defined]
    if len(counts) > 1:
        return _single_wounds_random(keys, counts, count.total, (b, per.total), step, total,
                                     slot, devastate if then is not None else None,
                                     then.total if then is not None else 1)  # type: ignore
    # The piece with m attacks, d = m - k of them Devastating, is P(N = m) C(m, d) b^d
    # (a + c)^k / per.total^m times T^k, whose chain weights are over ((a + c) total)^k. Over
    # sum(keys) * N.total * per.total^(2 top) * total^top, its weight is P(N = m) C(m, d) times
    # (per.total total)^(top - k) T^k times b^d per.total^(top - d). Each T^k is packed into
    # one big integer (a digit per state), so adding it to every d costs one small product;
    # the factor of d is applied once per d (with then.total^(top - d) when ``then`` applies
    # the d Devastating Wounds: the result is over then.total^top more).
    extra = 1 if then is None else then.total  # type: ignore[attr-defined]
    width = digit_width(sum(keys.values()) * count.total * per.total ** (2 * top)
                        * total ** top * extra ** top)
    lift = _powers(per.total * total, top)
    settle = _powers(per.total * extra, top)
    index: dict[Any, int] = {}
    states: list[Any] = []
    by_devastating: dict[int, Any] = {}
    memo: dict[Any, list[tuple[Any, int]]] = {}
    then_memo: dict[Any, list[tuple[Any, int]]] = {}
    current = dict(keys)
    out: Weights = {}
    for k in range(top + 1):
        if k:
            current = markov_step(current, step, memo)
        for key in current:
            if key not in index:
                index[key] = len(states)
                states.append(key)
        packed = pack({index[key]: w for key, w in current.items()}, width) * lift[top - k]
        for m, pm in counts.items():
            d = m - k
            if d >= 0 and (b or not d):
                by_devastating[d] = by_devastating.get(d, 0) + packed * (pm * comb(m, d))
        if then is not None:
            if out:
                out = markov_step(out, devastate, then_memo)
            x = by_devastating.pop(top - k, None)
            if x is not None:
                _add(out, unpack(x * b ** (top - k) * settle[k], width), states, slot, 0)
    for d, x in by_devastating.items():
        _add(out, unpack(x * b ** d * settle[top - d], width), states, slot, d)
    return out


@cached(maxsize=256)
def _split_single(per: PMF) -> tuple[int, int, int]:
    """One attack's weights (over ``per.total``) of a wound that is not Devastating, of a
    Devastating Wound and of nothing, for a weapon whose attacks make at most one wound."""
    a = b = c = 0
    for (_hits, wounds), w in per.weights().items():
        if not wounds:
            c += w
        elif wounds[0] == DEVASTATING:
            b += w
        else:
            a += w
    return a, b, c


def _single_step(move: Move, a: int, c: int) -> Move:
    """One attack that is not Devastating: a wound (``move``, its save included) with weight
    ``a``, else nothing (``c``); the Devastating tally rides along. Weights sum to ``(a + c)
    move.total``."""
    stay = c * move.total  # type: ignore[attr-defined]

    def step(key: tuple) -> list[tuple[Any, int]]:
        s, pending = key
        out: dict[Any, int] = {key: stay} if stay else {}
        for s2, w in move(s):
            k2 = (s2, pending)
            out[k2] = out.get(k2, 0) + a * w
        return list(out.items())

    return step


def _single_wounds_random(keys: Weights, counts: dict[int, int], count_total: int,
                          devastating: tuple[int, int], step: Move, total: int, slot: int,
                          devastate: Move | None, then_total: int) -> Weights:
    """:func:`_single_wounds` for a random number of attacks ``N`` (``counts``: its weights
    over ``count_total``), ``devastating``: an attack's weight of a Devastating Wound and its
    total ``P``. The states with ``d`` Devastating Wounds to come weigh, over ``count_total *
    P^top * total^top``, ``sum over k of P(N = k + d) C(k + d, d) b^d P^(top - k - d)
    total^(top - k) X_k`` (``X_k`` the chain after ``k`` steps, ``top`` the most attacks): with
    ``C(k + d, d) = (k + d)! / (k! d!)`` that sum over ``k`` is a correlation of two sequences,
    ``A_k = X_k total^(top - k) top! / k!`` (per state) and ``Q_m = P(N = m) P^(top - m) m!``,
    read off one product of their packed polynomials per state (one big multiplication
    instead of one per pair ``(k, m)``), then divided exactly by ``top! d!``. ``devastate``:
    the Devastating Wounds applied here (in Horner form, over ``then_total^top`` more)."""
    top = max(counts)
    xs = [dict(keys)]
    memo: dict[Any, list[tuple[Any, int]]] = {}
    for _ in range(top):
        xs.append(markov_step(xs[-1], step, memo))
    by_count = _by_devastating(xs, sum(keys.values()), counts, count_total, devastating, total)
    if devastate is not None:
        return horner(by_count, devastate, then_total)
    out: Weights = {}
    for d, part in by_count.items():
        for (s, pending), w in part.items():
            k = (s, _bump(pending, slot, d))
            out[k] = out.get(k, 0) + w
    return out


def _by_devastating(xs: list[Weights], mass: int, counts: dict[int, int], count_total: int,
                    devastating: tuple[int, int], total: int) -> dict[int, Weights]:
    """The correlation of :func:`_single_wounds_random`: from the chain's states after each
    number of steps ``xs`` (whose weights sum to at most ``mass`` times ``total`` per step), the
    states with each number of Devastating Wounds to come."""
    b, per_total = devastating
    top = max(counts)
    if len(counts) == 1:  # exactly top attacks: one term for each d, C(top, d) b^d X_(top - d)
        (w,) = counts.values()
        by_count: dict[int, Weights] = {}
        scale = w
        for d in range(top + 1 if b else 1):
            by_count[d] = {key: x * scale * comb(top, d) for key, x in xs[top - d].items()}
            scale *= b * total
        return by_count
    fact = [1]
    for i in range(1, top + 1):
        fact.append(fact[-1] * i)
    # A_k's factor, and Q_m by position top - m (the product's digit top - d is the sum)
    lift = [fact[top] // fact[k] * t for k, t in enumerate(reversed(_powers(total, top)))]
    q = {top - m: w * per_total ** (top - m) * fact[m] for m, w in counts.items()}
    # the digits read (top - d, d = 0..top) must not carry: each is at most top! d! times the
    # weight of d Devastating Wounds to come over b^d, at most the total weight when b > 0, and
    # C(m, d) <= 2^top times it whatever b; higher digits may carry into each other, unread
    width = digit_width(mass * count_total * (2 * per_total) ** top
                       * total ** top * fact[top] ** 2)
    size = (top + 1) * width
    g = pack(q, width, bits=16 * size)
    zero = bytes(width)
    by_count = {}
    for key in {key for x in xs for key in x}:
        a = b"".join((x[key] * f).to_bytes(width, "little") if key in x else zero
                     for x, f in zip(xs, lift, strict=True))
        low = (big(int.from_bytes(a, "little"), bits=16 * size) * g).to_bytes(
            2 * size, "little")[:size]
        bd = 1
        for d in range(top + 1):
            coef = int.from_bytes(low[(top - d) * width:(top - d + 1) * width], "little")
            if coef:
                by_count.setdefault(d, {})[key] = int(big(coef) * bd // (fact[top] * fact[d]))
            if not b:
                break
            bd *= b
    return by_count


def _first_group(keys: Weights, v: _Volley, n: PMF, per: PMF, fails: list[dict[str, int]],
                 faces: list[int], losses: list[PMF], allocation: tuple[Group, ...], slot: int,
                 then: Move) -> Weights | None:
    """A single-wound Devastating weapon (:func:`_single_wounds`), the attack's last and only
    one, whose Devastating Wounds cost what an unsaved wound does (excess lost, the same Feel
    No Pain), into groups that save differently: as if every group saved like the group the
    wounds reach first (``g0``), then corrected on the states past that group.

    Where every group saves like ``g0`` the wounds and the Devastating Wounds all move the unit
    by packets, whatever their order, and :func:`_by_count` counts them (``A``). The true chain
    and that one agree on every state whose next wound goes to ``g0`` (a state past ``g0``
    never leads back to one), so the answer is ``A`` plus, on the states past ``g0`` alone, the
    difference of :func:`_single_wounds_random`'s two chains, with the Devastating Wounds
    applied to it: a few states instead of every one. None when some state past ``g0`` leads
    back to one whose wounds go to ``g0`` (a start of several wounded models)."""
    start = max(keys, key=keys.__getitem__)[0]
    g0 = next_group(start, allocation, v.precision)
    if g0 is None:
        return None
    first: dict[UnitState, bool] = {}

    def inside(s: UnitState) -> bool:
        if s not in first:
            first[s] = next_group(s, allocation, v.precision) == g0
        return first[s]

    a, b, c = _split_single(per)
    count = n.repeat(v.count)
    counts = count.weights()
    top = max(counts)
    # the true saves, and g0's for every group: the two chains differ past g0 alone, where
    # each runs on its own; the states whose wounds go to g0 move alike, once for both
    moves = [wound_move(allocation, seen, losses, v.precision)
             for seen in (faces, [faces[g0]] * len(faces))]
    total = moves[0].total  # type: ignore[attr-defined]  # the same for both
    steps = [_single_step(move, a, c) for move in moves]
    memos: list[dict[Any, list[tuple[Any, int]]]] = [{}, {}]
    inner = {k: w for k, w in keys.items() if inside(k[0])}
    pasts = [[{k: w for k, w in keys.items() if not inside(k[0])}] for _ in moves]
    for _ in range(top):
        moved = markov_step(inner, steps[0], memos[0])
        inner = {}
        into: Weights = {}
        for k, w in moved.items():
            (inner if inside(k[0]) else into)[k] = w
        for past, step, memo in zip(pasts, steps, memos, strict=True):
            nxt = markov_step(past[-1], step, memo)
            for k, w in into.items():
                nxt[k] = nxt.get(k, 0) + w
            past.append(nxt)
    if any(not inside(s) and any(inside(s2) for (s2, _p), _w in out)
           for memo in memos for (s, _p), out in memo.items()):
        return None
    true, alike = (_by_devastating(past, sum(keys.values()), counts, count.total,
                                   (b, per.total), total) if any(past) else {}
                   for past in pasts)
    diff: dict[int, Weights] = {}
    for d in true.keys() | alike.keys():
        t, f = true.get(d, {}), alike.get(d, {})
        part = {k: w for k in t.keys() | f.keys() if (w := t.get(k, 0) - f.get(k, 0))}
        if part:
            diff[d] = part

    def devastate(key: tuple) -> list[tuple[Any, int]]:
        return [((s2, key[1]), w) for s2, w in then(key[0])]

    then_total = then.total  # type: ignore[attr-defined]
    correction = horner(diff, devastate, then_total) if diff else {}
    # A (over its own total) and the correction (over the single-wound path's) on one scale
    packets = _by_count(keys, v, n, per, tuple(fails[g0].items()),
                        packet_move(allocation, losses, v.precision), slot, True)
    over = (sum(keys.values()) * count.total * per.total ** top * total ** top
            * then_total ** max(diff, default=0))
    mass = sum(packets.values())
    common = gcd(over, mass)
    out = {k: w * (over // common) for k, w in packets.items()}
    for k, w in correction.items():
        out[k] = out.get(k, 0) + w * (mass // common)
    return {k: w for k, w in out.items() if w}


def _phased(keys: Weights, g0: int | None, faces: list[int] | None) -> bool:
    """Whether :func:`_phases` may apply: one starting state, and the groups past ``g0`` (the
    one its wounds reach first) that have models fail their saves on the same faces."""
    if len(keys) != 1 or g0 is None or faces is None:
        return False
    start = next(iter(keys))[0]
    return len({faces[g] for g, s in enumerate(start) if g != g0 and s.models}) <= 1


def _phases(keys: Weights, v: _Volley, n: PMF, per: PMF, faces: list[int],
            losses: list[PMF], allocation: tuple[Group, ...]) -> Weights | None:
    """The attack's last and only Devastating weapon, whose Devastating Wounds cost what an
    unsaved wound does, into a unit whose first group (``g0``, the one the wounds reach
    first) saves on other faces than the rest, which save alike: every wound is a packet or
    nothing, and the packets move the unit by one chain ``P`` whatever made them, so only when
    ``g0`` falls matters, not the states on the way (its save then gives way to the rest's).

    With ``pi_k`` the unit after ``k`` packets while ``g0`` stands (the packet chain kept to
    those states) and ``h_t`` the weight of ``g0`` falling at packet ``t`` (into one state
    ``B``), a small chain over the attacks counts, for every ``k`` below the most ``t``, the
    packets of ``g0``'s saves (``k``, its saves failing) and the Devastating Wounds (tallied),
    and branches at each packet that may be the ``t``-th into a phase of its own that tallies
    every packet after it, the rest's saves failing: the answer is ``P^v pi_k`` for each
    ``(k, v)`` left in the first phase and ``h_t P^r B`` for each ``(t, r)`` in a second, in
    one Horner chain over ``v`` and ``r``. None when the shape is not that one (several
    starting states, a fall into more than one state, groups past ``g0`` that save
    differently)."""
    ((start, pending), mass), = keys.items()
    g0 = next_group(start, allocation, v.precision)
    if g0 is None or not _phased(keys, g0, faces):
        return None
    others = {faces[g] for g, s in enumerate(start) if g != g0 and s.models}
    f0 = faces[g0]
    f1 = others.pop() if others else f0
    packet = packet_move(allocation, losses, v.precision)
    p_total = packet.total  # type: ignore[attr-defined]
    per_attack: dict[tuple[int, int], int] = {}  # (wounds that are not Devastating, Devastating)
    for (_hits, wounds), w in per.weights().items():
        e = wounds.count(DEVASTATING)
        per_attack[len(wounds) - e, e] = per_attack.get((len(wounds) - e, e), 0) + w
    longest = max(j for j, _e in per_attack)
    count = n.repeat(v.count)
    most = max(count.outcomes()) * longest  # the most wounds that are not Devastating
    # the packet chain while g0 stands: pi_k, and the weight h_t of its fall at packet t
    pis: list[Weights] = [{start: 1}]
    falls: dict[int, int] = {}
    fallen: UnitState | None = None
    memo: dict[Any, list[tuple[Any, int]]] = {}
    while pis[-1] and len(pis) <= most:
        nxt: Weights = {}
        for s, w in pis[-1].items():
            if s not in memo:
                memo[s] = packet(s)
            for s2, w2 in memo[s]:
                if next_group(s2, allocation, v.precision) == g0:
                    nxt[s2] = nxt.get(s2, 0) + w * w2
                    continue
                if fallen is None:
                    fallen = s2
                if s2 != fallen or s2[g0].models:
                    return None
                falls[len(pis)] = falls.get(len(pis), 0) + w * w2
        pis.append(nxt)
    if not pis[-1]:
        pis.pop()
    first = len(pis)  # phase-one states: k packets of g0's saves, k < first

    def attack(key: tuple) -> list[tuple[Any, int, int]]:
        out: dict[tuple[Any, int], int] = {}
        for (j, e), w in per_attack.items():
            ways = [(key, e, w * 6 ** (longest - j))]
            for _ in range(j):
                after = []
                for (phase, k), d, x in ways:
                    if phase:  # after the fall: the rest's save
                        if f1 < 6:
                            after.append(((phase, k), d, x * (6 - f1)))
                        if f1:
                            after.append(((phase, k), d + 1, x * f1))
                        continue
                    if f0 < 6:
                        after.append(((0, k), d, x * (6 - f0)))
                    if f0:
                        if k + 1 in falls:  # this packet may be the t-th: g0 falls
                            after.append(((1, k + 1), d, x * f0))
                        if k + 1 < first:
                            after.append(((0, k + 1), d, x * f0))
                ways = after
            for s, d, x in ways:
                out[s, d] = out.get((s, d), 0) + x
        return [(s, d, x) for (s, d), x in out.items() if x]

    counted = tallied_chain({(0, 0): mass}, count, attack,
                            per.total * 6 ** longest)
    top = max(falls, default=0)
    top = max(top, first - 1)
    lift = _powers(p_total, top)
    by_count: dict[int, Weights] = {}
    for ((phase, k), d), w in counted.items():
        part = by_count.setdefault(d, {})
        if phase:
            x = w * falls[k] * lift[top - k]
            part[fallen, pending] = part.get((fallen, pending), 0) + x
        else:
            for s, y in pis[k].items():
                part[s, pending] = part.get((s, pending), 0) + w * y * lift[top - k]

    def moved(key: tuple) -> list[tuple[Any, int]]:
        return [((s2, key[1]), w) for s2, w in packet(key[0])]

    return {k: int(w) for k, w in horner(by_count, moved, p_total).items() if w}


def _single_wounds_fixed(keys: Weights, top: int, b_total: int, step: Move, devastate: Move,
                         then_total: int) -> Weights:
    """:func:`_single_wounds` for exactly ``top`` attacks, with the Devastating Wounds applied
    here: the result is ``sum over d of C(top, d) (b total)^d then.total^(top - d) D^d X_k``
    (k = top - d, X_k the chain after k steps), in Horner form without big scale factors:
    the chain's steps carry ``then.total`` and each Devastating Wound's step ``b total``."""
    def lifted(key: tuple) -> list[tuple[Any, int]]:
        return [(k2, w * then_total) for k2, w in step(key)]

    def scaled(key: tuple) -> list[tuple[Any, int]]:
        return [(k2, w * b_total) for k2, w in devastate(key)]

    memo: dict[Any, list[tuple[Any, int]]] = {}
    then_memo: dict[Any, list[tuple[Any, int]]] = {}
    current = {key: big(w) for key, w in keys.items()}  # GMP: faster on large weights
    out: Weights = {}
    for k in range(top + 1):
        if k:
            current = markov_step(current, lifted, memo)
        if out:
            out = markov_step(out, scaled, then_memo)
        scale = comb(top, k)  # C(top, d) = C(top, top - d)
        for key, w in current.items():
            out[key] = out.get(key, 0) + w * scale
    return {key: int(w) for key, w in out.items()}


def _powers(base: int, top: int) -> list[Any]:
    """``[1, base, base^2, ..., base^top]`` (GMP numbers)."""
    out = [big(1)]
    for _ in range(top):
        out.append(out[-1] * base)
    return out


def _add(out: Weights, digits: dict[int, int], states: list[Any], slot: int, d: int) -> None:
    """Add unpacked weights (digit i: ``states[i]``) to ``out``, ``d`` more Devastating
    Wounds to come in ``slot``."""
    for i, w in digits.items():
        s, pending = states[i]
        key = (s, _bump(pending, slot, d))
        out[key] = out.get(key, 0) + w


def _by_attack(keys: Weights, v: _Volley, n: PMF, fails: list[dict[str, int]],
               losses: list[PMF], allocation: tuple[Group, ...], slot: int | None,
               rules: RuleSet) -> Weights:
    """Groups that save differently: whether a wound gets through depends on the model it is
    allocated to, so the chain runs attack by attack, each attack's wounds in order
    (Devastating Wounds tallied for later)."""
    ordered = any(f["normal"] != f["critical"] for f in fails)
    per = attack_wounds(v.weapon, v.rolls, v.options, rules, ordered=ordered)
    sequences: dict[tuple, int] = {}
    for (_hits, wounds), w in per.weights().items():
        sequences[wounds] = sequences.get(wounds, 0) + w
    longest = max(len(s) for s in sequences)
    scale = loss_total(losses)
    each = 6 * scale  # the total weight of one wound's outcomes
    wound_memo: dict[tuple, list[tuple[Any, int, int]]] = {}

    def one_wound(state: UnitState, kind: str) -> list[tuple[UnitState, int, int]]:
        key = (state, kind)
        if key not in wound_memo:
            g = next_group(state, allocation, v.precision)
            if kind == DEVASTATING or g is None:
                out = [(state, 1 if kind == DEVASTATING else 0, each)]
            else:
                f = fails[g][kind]
                loss = loss_at(losses[g], allocation[g].wounds, state[g].wounds_lost)
                unit = scale // loss.total
                out = [(state, 0, (6 - f) * scale)] if f < 6 else []
                out += [(lose(state, g, e, allocation[g].wounds), 0, f * w * unit)
                        for e, w in loss.weights().items() if f]
            wound_memo[key] = out
        return wound_memo[key]

    attack_memo: dict[UnitState, list[tuple[UnitState, int, int]]] = {}

    def one_attack(state: UnitState) -> list[tuple[UnitState, int, int]]:
        if state not in attack_memo:
            acc: dict[tuple[UnitState, int], int] = {}
            for seq, w in sequences.items():
                cur = {(state, 0): w * each ** (longest - len(seq))}
                for kind in seq:
                    nxt: dict[tuple[UnitState, int], int] = {}
                    for (x, d), wx in cur.items():
                        for x2, d2, w2 in one_wound(x, kind):
                            k = (x2, d + d2)
                            nxt[k] = nxt.get(k, 0) + wx * w2
                    cur = nxt
                for k, wk in cur.items():
                    acc[k] = acc.get(k, 0) + wk
            attack_memo[state] = [(x, d, w) for (x, d), w in acc.items() if w]
        return attack_memo[state]

    total = sum(sequences.values()) * each ** longest
    count = n.repeat(v.count)
    if slot is None:
        def move(key: tuple) -> list[tuple[Any, int]]:
            return [((x, key[1]), w) for x, _d, w in one_attack(key[0])]

        return chain(keys, count, move, total)
    def tally(key: tuple) -> list[tuple[Any, int, int]]:
        return [((x, key[1]), d, w) for x, d, w in one_attack(key[0])]

    out: Weights = {}
    for ((s, pending), d), w in tallied_chain(keys, count, tally, total).items():
        k = (s, _bump(pending, slot, d))
        out[k] = out.get(k, 0) + w
    return out


def _devastating_move(v: _Volley, allocation: tuple[Group, ...], rules: RuleSet) -> Move:
    """One of the weapon's Devastating Wounds: mortal wounds equal to its Damage, Feel No Pain
    per wound; with the rule set's ``excess_lost`` a packet destroys at most one model."""
    if rules.devastating_excess_lost:
        return packet_move(allocation, _losses(v, True), v.precision)
    return mortal_move(allocation, [wound_fnp(g, v.weapon, True) for g in v.groups],
                       damage_roll(v.weapon, v.options), False, v.precision)


def _mortal_fnp_alike(v: _Volley) -> bool:
    """Whether the weapon's Devastating Wounds meet the Feel No Pain its other wounds meet
    (then they cost a model what an unsaved wound does)."""
    return all(wound_fnp(g, v.weapon, True) == wound_fnp(g, v.weapon) for g in v.groups)


def _losses(v: _Volley, mortal: bool) -> list[Any]:
    """What one packet of the weapon's damage takes from a model of each group (Feel No Pain
    against mortal wounds too when ``mortal``: a Devastating Wound's)."""
    return [packet_losses(v.weapon, v.options, wound_fnp(g, v.weapon, mortal), g.wounds)
            for g in v.groups]


def _devastating(keys: Weights, slot: int, v: _Volley, allocation: tuple[Group, ...],
                 rules: RuleSet) -> Weights:
    """Apply one weapon's Devastating Wounds (after all normal damage): each is mortal wounds
    equal to its Damage, Feel No Pain per wound; with the rule set's ``excess_lost`` a packet
    destroys at most one model. Precision lets them go to a CHARACTER."""
    inner = _devastating_move(v, allocation, rules)
    by_count: dict[int, Weights] = {}
    for (s, pending), w in keys.items():
        rest = pending[:slot] + (0,) + pending[slot + 1:]
        bucket = by_count.setdefault(pending[slot], {})
        bucket[(s, rest)] = bucket.get((s, rest), 0) + w

    def move(key: tuple) -> list[tuple[Any, int]]:
        s, rest = key
        return [((s2, rest), w) for s2, w in inner(s)]

    return horner(by_count, move, inner.total)  # type: ignore[attr-defined]


@cached(maxsize=256)
def _best_lethal_mode(weapon: Weapon, count: int, target: Squad, options: Options,
                      start: UnitState) -> LethalHits:
    def damage(mode: LethalHits) -> Fraction:
        opts = attrs.asdict(attrs.evolve(options, lethal_hits=mode))
        state = PMF.point(start)
        return attack((weapon, count), target, state=state, **opts).damage.mean()

    return LethalHits.ALWAYS if damage(LethalHits.ALWAYS) >= damage(
        LethalHits.NEVER) else LethalHits.NEVER


def _best_lethal(weapon: Weapon, count: int, target: Squad, options: Options,
                 start: UnitState) -> Options:
    """11e: auto-wound with Lethal Hits or not, whichever makes this weapon alone inflict more
    expected damage (wounds lost) from ``start``."""
    return attrs.evolve(options,
                        lethal_hits=_best_lethal_mode(weapon, count, target, options, start))


# -- how weapon choice is scored --------------------------------------------------------------
# the engine owns it and passes it into the choice (mathhammer.model.loadout.choose, through
# Unit.loadout's ``score``), so the model and the data import no engine

#: The target weapons are chosen against when none is given (MEQ).
REFERENCE = Target(models=5, toughness=4, save=3, wounds=2, keywords=("INFANTRY",), name="MEQ")


def value_against(target: Target | Any | None, options: Options | None = None,
                  named_rules: tuple[NamedRule, ...] = ()) -> Callable[[Weapon], Fraction]:
    """The score weapon choice compares: :func:`weapon_value` against ``target`` (MEQ when
    None).

    >>> bolt = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> value_against(None)(bolt)  # against MEQ: 2 x 2/3 hit x 1/2 wound x 1/2 unsaved
    Fraction(1, 3)
    """
    target = REFERENCE if target is None else target
    rules = tuple(named_rules)
    return lambda w: weapon_value(w, target, options, rules)


@cached(maxsize=4096)
def weapon_value(weapon: Weapon, target: Target | Any, options: Options | None = None,
                 named_rules: tuple[NamedRule, ...] = ()) -> Fraction:
    """One model's exact E[damage] (wounds the target loses, after saves, Feel No Pain and lost
    excess) with ``weapon`` against ``target``, under ``options`` and ``named_rules``: what
    weapon choice compares.

    >>> w = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    >>> weapon_value(w, REFERENCE)  # 2 x 2/3 hit x 1/2 wound x 1/2 unsaved
    Fraction(1, 3)
    """
    opts = attrs.asdict(options, recurse=False) if options is not None else {}
    return attack([(weapon, 1)], target, apply=named_rules, **opts).damage.mean()
