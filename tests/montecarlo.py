"""A seeded, vectorised numpy Monte Carlo of ``mh.attack`` (10e rules): a test oracle only.

Written from RULES.md 1-6 and the README "Rules decisions", independently of the engine's rule
modules: it uses only ``mh.Weapon``, ``mh.Target``, ``mh.Options``, ``mh.parse_abilities`` and
``mh.dice`` (for the distribution of a dice expression). Every trial is one full attack
sequence; dice are drawn as ``(trials, slots)`` arrays and allocation loops over damage packets
while staying vectorised over trials.

>>> import mathhammer as mh
>>> bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
>>> meq = mh.Target(models=5, toughness=4, save=3, wounds=2)
>>> sim = simulate((bolt, 5), meq, trials=20_000, seed=1)
>>> int(sim.attacks.min()), int(sim.attacks.max())
(10, 10)
>>> abs(sim.mean("unsaved") - 5 / 3) < 4.5 * sim.stderr("unsaved")  # 10 * 2/3 * 1/2 * 1/2
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import attrs
import numpy as np

import mathhammer as mh

COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")
#: The fields of ``mathhammer.model.abilities.Abilities`` this oracle simulates, each read below as
#: ``ab.FIELD``, and those it does not, with why (``tests/test_oracles.py``: together every field).
PLAYED_ABILITIES = frozenset({
    "lethal_hits", "devastating_wounds", "twin_linked", "torrent", "blast", "cleave", "lance",
    "heavy", "ignores_cover", "precision", "sustained", "rapid_fire", "melta", "anti",
})
NOT_PLAYED = {
    "hazardous": "mortal wounds to the attacker, not the target (tests/test_effects.py)",
}
#: The options of an attack (``mh.Options``, a named rule's effect fields among them) this oracle
#: simulates, each read below as ``o.FIELD``, and those it does not, with why
#: (``tests/test_oracles.py``: together every option).
PLAYED_OPTIONS = frozenset({
    "rules", "half_range", "charged", "stationary", "cover", "overwatch", "double_attacks",
    "halve_attacks", "attacks_mod", "hit_mod", "wound_mod", "wound_mod_if_stronger", "save_mod",
    "damage_mod", "ap_mod", "skill_mod", "strength_mod", "crit_hit", "crit_wound",
    "unmodified_hits_on", "overwatch_hits_on", "crit_wound_ap", "ignore_hit_modifiers",
    "ignore_skill_modifiers", "ignore_wound_modifiers", "reroll_hits", "reroll_wounds",
    "reroll_damage", "halve_damage", "lethal_hits", "precision", "abilities",
})
NOT_PLAYED_OPTIONS = {
    "led": "only a named rule's conditions read it, never an attack's dice",
}
#: trials simulated together; bounds the memory of the (trials x dice) arrays
CHUNK = 10_000
_REROLL_ORDER = {None: 0, "ones": 1, "failed": 2, "noncrit": 3}


@attrs.frozen(eq=False)
class Simulation:
    """Per-trial integer arrays (numpy, shape ``(trials,)``) of every counter of an attack.

    ``unsaved`` counts wounds that went to a saving throw and failed it; ``wounds`` counts every
    successful wound (rolled, Lethal Hits automatic and Devastating alike); ``mortal`` counts
    devastating mortal wounds before Feel No Pain and before excess is lost.
    """

    attacks: Any
    hits: Any
    wounds: Any
    unsaved: Any
    mortal: Any
    damage: Any
    kills: Any
    destroyed: Any  # bool array
    models: int
    #: per-group kills (one array per group of a Squad target; empty for a plain Target)
    group_kills: tuple = ()
    #: every CHARACTER model destroyed (bool array; None unless a Squad with a CHARACTER group)
    character_destroyed: Any = None

    @property
    def trials(self) -> int:
        return int(self.kills.shape[0])

    def values(self, name: str) -> Any:
        """The per-trial array of a counter, ``"destroyed"``, ``"character_destroyed"`` or
        ``"group_kills[i]"``."""
        m = re.fullmatch(r"group_kills\[(\d+)\]", name)
        values = self.group_kills[int(m.group(1))] if m else getattr(self, name)
        if values is None:
            raise ValueError(f"{name}: not simulated for this target")
        return values

    def mean(self, name: str) -> float:
        """Sample mean of a counter (or ``"destroyed"``, ...; see :meth:`values`)."""
        return float(self.values(name).mean())

    def stderr(self, name: str) -> float:
        """Standard error of :meth:`mean`."""
        values = self.values(name).astype(float)
        return float(values.std(ddof=1) / values.shape[0] ** 0.5)

    def summary(self) -> dict[str, tuple[float, float]]:
        """``{name: (mean, standard error)}`` for every counter and ``destroyed``."""
        return {n: (self.mean(n), self.stderr(n)) for n in (*COUNTERS, "destroyed")}


def _profiles(profiles) -> list[tuple[mh.Weapon, int]]:
    if isinstance(profiles, mh.Weapon):
        return [(profiles, 1)]
    if isinstance(profiles, tuple) and len(profiles) == 2 and isinstance(profiles[0], mh.Weapon):
        return [profiles]
    out = []
    for p in profiles:
        out.extend(_profiles(p))
    return out


@lru_cache(maxsize=256)
def _dice_table(expr: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
    pmf = mh.dice(expr)
    outcomes = tuple(int(o) for o in pmf)
    probs = tuple(float(p) for p in pmf.values())
    return outcomes, probs


def _roll(rng, expr: str | None, shape) -> Any:
    """Independent draws of a dice expression (``None`` is 0)."""
    if expr is None:
        return np.zeros(shape, dtype=np.int64)
    outcomes, probs = _dice_table(expr)
    if len(outcomes) == 1:
        return np.full(shape, outcomes[0], dtype=np.int64)
    return rng.choice(np.array(outcomes, dtype=np.int64), size=shape, p=np.array(probs))


def _clamp(x: int, lo: int, hi: int) -> int:
    return max(lo, min(hi, x))


def _broader(a: str | None, b: str | None) -> str | None:
    return a if _REROLL_ORDER[a] >= _REROLL_ORDER[b] else b


def _reroll_mask(policy: str | None, first, success, crit) -> Any:
    if policy is None:
        return np.zeros(first.shape, dtype=bool)
    if policy == "ones":
        return first == 1
    if policy == "failed":
        return ~success
    return ~crit  # "noncrit"


def _compact(mask, *arrays):
    """Move the True slots of each row to the front (stable); return the arrays reordered."""
    order = np.argsort(~mask, axis=1, kind="stable")
    width = int(mask.sum(axis=1).max()) if mask.size else 0
    order = order[:, :width]
    return (np.take_along_axis(mask, order, axis=1),
            *(np.take_along_axis(a, order, axis=1) for a in arrays))


def _attack_dice(rng, weapon: mh.Weapon, ab: Any, o: mh.Options, count: int, models: int,
                 trials: int) -> tuple[Any, Any]:
    """Each model rolls its own A (+ Blast for ``models``, + Rapid Fire at half range): the
    attacks per trial and the (trials, slots) mask of live attack slots."""
    per_model = _roll(rng, weapon.attacks, (trials, count))
    if o.halve_attacks and not o.double_attacks:  # halved then doubled is A again
        per_model = (per_model + 1) // 2
    elif o.double_attacks and not o.halve_attacks:
        per_model = per_model * 2
    if o.attacks_mod:
        per_model = np.maximum(1, per_model + o.attacks_mod)
    per_model = per_model + (ab.blast + ab.cleave) * (models // 5)
    if ab.rapid_fire is not None and o.half_range:
        per_model = per_model + _roll(rng, ab.rapid_fire, (trials, count))
    n_attacks = per_model.sum(axis=1)
    slots = int(n_attacks.max()) if trials else 0
    return n_attacks, np.arange(slots)[None, :] < n_attacks[:, None]


def _hit_dice(rng, weapon: mh.Weapon, ab: Any, o: mh.Options, stealth: bool, live) -> tuple:
    """The hit roll of every live slot: (hit, critical hit) masks."""
    if weapon.skill is None or ab.torrent:
        return live.copy(), np.zeros_like(live)
    ranged = not weapon.melee
    skill = _clamp(weapon.skill - (max(0, o.skill_mod) if o.ignore_skill_modifiers
                                   else o.skill_mod), 2, 7)
    mod = (max(0, o.hit_mod) if o.ignore_hit_modifiers else o.hit_mod) + (
        1 if ab.heavy and o.stationary and ranged else 0)
    mod -= 1 if stealth and ranged and not o.ignore_hit_modifiers else 0
    mod = _clamp(mod, -1, 1)

    def judge(f):
        if o.overwatch:
            on = min(6, o.overwatch_hits_on, o.unmodified_hits_on)
            return f >= on, f >= max(on, o.crit_hit)
        c = f >= o.crit_hit
        return (f != 1) & (c | (f >= o.unmodified_hits_on) | (f + mod >= skill)), c

    first = rng.integers(1, 7, size=live.shape, dtype=np.int8)
    ok, c = judge(first)
    again = _reroll_mask(o.reroll_hits, first, ok, c)
    f = np.where(again, rng.integers(1, 7, size=live.shape, dtype=np.int8), first)
    ok, c = judge(f)
    return ok & live, c & live


def _wound_need(strength: int, t: int) -> int:
    if strength >= 2 * t:
        return 2
    if strength > t:
        return 3
    if strength == t:
        return 4
    if 2 * strength <= t:
        return 6
    return 5


def _wound_dice(rng, ab: Any, o: mh.Options, strength: int, t: int, keywords: set[str],
                shape: tuple[int, int]) -> tuple[Any, Any]:
    """One wound roll per slot of ``shape``: (success, critical wound) masks."""
    need = _wound_need(strength, t)
    crit_at = o.crit_wound
    for kw, x in ab.anti:
        if kw.upper() in keywords:
            crit_at = min(crit_at, x)
    def kept(m: int) -> int:  # ignored when it is a penalty and the rule ignores them
        return max(0, m) if o.ignore_wound_modifiers else m

    wmod = kept(o.wound_mod) + (1 if ab.lance and o.charged else 0)
    wmod += kept(o.wound_mod_if_stronger) if strength > t else 0
    wmod = _clamp(wmod, -1, 1)

    def wjudge(f):
        c = f >= crit_at
        return (f != 1) & (c | (f + wmod >= need)), c

    policy = _broader(o.reroll_wounds, "failed" if ab.twin_linked else None)
    first = rng.integers(1, 7, size=shape, dtype=np.int8)
    ok, c = wjudge(first)
    again = _reroll_mask(policy, first, ok, c)
    f = np.where(again, rng.integers(1, 7, size=shape, dtype=np.int8), first)
    return wjudge(f)


def _one_die(expr: str) -> tuple[int, int] | None:
    """(sides, plus) of a Damage of one die (``"D6+1"``), else None."""
    m = re.fullmatch(r"D([36])(?:\+(\d+))?", expr)
    return (int(m.group(1)), int(m.group(2) or 0)) if m else None


def _finish(rng, ab: Any, o: mh.Options, d) -> Any:
    """A rolled D characteristic finished: halved, Melta at half range, modifier, at least 1."""
    if o.halve_damage:
        d = (d + 1) // 2
    if ab.melta is not None and o.half_range:
        d = d + _roll(rng, ab.melta, d.shape)
    return np.maximum(d + o.damage_mod, 1)


def _damage_dice(rng, weapon: mh.Weapon, ab: Any, o: mh.Options, shape) -> Any:
    """One Damage roll per slot: a die showing 1 rolled again under ``reroll_damage="ones"``
    (under "any": when the Damage would be below a fresh roll's average), then halved, Melta
    at half range, modifier, never below 1."""
    d = _roll(rng, weapon.damage, shape)
    single = _one_die(weapon.damage)
    if o.reroll_damage == "ones" and single is not None:
        d = np.where(d - single[1] == 1, _roll(rng, weapon.damage, shape), d)
    if o.reroll_damage == "any":
        average = _finished_mean(weapon, ab, o)
        means = _finished_means(weapon, ab, o)
        low = np.vectorize(lambda r: means[int(r)] < average, otypes=[bool])(d)
        d = np.where(low, _roll(rng, weapon.damage, shape), d)
    return _finish(rng, ab, o, d)


def _melta(ab: Any, o: mh.Options) -> tuple[tuple[int, ...], tuple[float, ...]]:
    return _dice_table(ab.melta) if ab.melta is not None and o.half_range else ((0,), (1.0,))


def _finished_means(weapon: mh.Weapon, ab: Any, o: mh.Options) -> dict[int, float]:
    """The mean finished Damage of each rolled value of the D characteristic."""
    out = {}
    for r in _dice_table(weapon.damage)[0]:
        base = (r + 1) // 2 if o.halve_damage else r
        out[r] = sum(p * max(1, base + m + o.damage_mod)
                     for m, p in zip(*_melta(ab, o), strict=True))
    return out


def _finished_mean(weapon: mh.Weapon, ab: Any, o: mh.Options) -> float:
    values, probs = _dice_table(weapon.damage)
    means = _finished_means(weapon, ab, o)
    return sum(p * means[v] for v, p in zip(values, probs, strict=True))


def _model_rerolls(weapon: mh.Weapon, ab: Any, o: mh.Options, wounds: int,
                   fnp: int | None) -> Any:
    """``reroll_damage="any"``: a (rolled value, wounds left) table, True where a fresh roll
    is expected to take more wounds from the model than the roll kept, after Feel No Pain."""
    from math import comb

    q = 1.0 if fnp is None else (fnp - 1) / 6

    def worth_of(d: int, left: int) -> float:  # E[min(Binomial(d, q), left)]
        return sum(comb(d, k) * q ** k * (1 - q) ** (d - k) * min(k, left)
                   for k in range(d + 1))

    values, probs = _dice_table(weapon.damage)
    melta = _melta(ab, o)

    def kept(r: int, left: int) -> float:
        base = (r + 1) // 2 if o.halve_damage else r
        return sum(p * worth_of(max(1, base + m + o.damage_mod), left)
                   for m, p in zip(*melta, strict=True))

    table = np.zeros((max(values) + 1, wounds + 1), dtype=bool)
    for left in range(1, wounds + 1):
        fresh = sum(p * kept(v, left) for v, p in zip(values, probs, strict=True))
        for v in values:
            table[v, left] = kept(v, left) < fresh - 1e-12
    return table


def _weapon_rolls(rng, weapon: mh.Weapon, count: int, target: mh.Target, o: mh.Options,
                  trials: int) -> dict[str, Any]:
    """Roll one weapon's attacks for every trial: counters plus damage packets."""
    ab = mh.parse_abilities(weapon.with_abilities(*o.abilities).abilities)
    ranged = not weapon.melee

    n_attacks, live = _attack_dice(rng, weapon, ab, o, count, target.models, trials)
    slots = live.shape[1]
    hit, crit = _hit_dice(rng, weapon, ab, o, target.stealth, live)
    sustained = np.where(crit, _roll(rng, ab.sustained, (trials, slots)), 0)
    auto_wound = crit & ab.lethal_hits
    rolled_hits = (hit & ~auto_wound).astype(np.int64) + sustained
    n_hits = hit.sum(axis=1) + sustained.sum(axis=1)
    n_auto = auto_wound.sum(axis=1)

    # --- wound roll (one D6 per hit that is not an automatic wound) ------------------------
    to_roll = rolled_hits.sum(axis=1)
    width = int(to_roll.max()) if trials else 0
    wlive = np.arange(width)[None, :] < to_roll[:, None]
    strength = weapon.strength + o.strength_mod
    keywords = {k.upper() for k in target.keywords}
    ok, c = _wound_dice(rng, ab, o, strength, target.toughness, keywords, (trials, width))
    wounded = ok & wlive
    wcrit = c & wlive
    dev = wcrit & ab.devastating_wounds
    n_wounds = wounded.sum(axis=1) + n_auto

    # --- saving throws: rolled wounds that are not devastating, plus Lethal auto-wounds ----
    save_width = width + slots
    goes_to_save = np.concatenate([wounded & ~dev, auto_wound], axis=1)
    is_crit = np.concatenate([wcrit & ~dev, np.zeros_like(auto_wound)], axis=1)
    base_ap = min(0, weapon.ap - o.ap_mod)
    ap = np.where(is_crit, base_ap - o.crit_wound_ap, base_ap)
    cover_ok = o.cover and ranged and not ab.ignores_cover
    cover = np.where(cover_ok & ~((target.save <= 3) & (ap == 0)), 1, 0)
    f = rng.integers(1, 7, size=(trials, save_width), dtype=np.int8)
    armour = (f >= 2) & (f + np.minimum(ap + o.save_mod + cover, 1) >= target.save)
    saved = armour
    if target.invuln is not None:
        saved = saved | ((f >= 2) & (f + min(o.save_mod, 1) >= target.invuln))
    unsaved = goes_to_save & ~saved
    n_unsaved = unsaved.sum(axis=1)

    # --- damage per unsaved wound and per devastating wound -------------------------------
    psychic = "psychic" in weapon.abilities
    fnp = _best(target.fnp, target.fnp_psychic if psychic else None)
    mortal_fnp = _best(fnp, target.fnp_mortal)
    if o.reroll_damage == "any" and len(_dice_table(weapon.damage)[0]) > 1:
        # the roll and its re-roll, finished; which one counts is decided against the model
        def pair(shape):
            first, again = (_roll(rng, weapon.damage, shape) for _ in range(2))
            return first, _finish(rng, ab, o, first), _finish(rng, ab, o, again)

        normal = _compact(unsaved, *pair((trials, save_width)))
        devs = _compact(dev, *pair((trials, width)))
        counted = _compact(dev, _damage_dice(rng, weapon, ab, o, (trials, width)))
        n_mortal = np.where(counted[0], counted[1], 0).sum(axis=1)
        rerolls = (_model_rerolls(weapon, ab, o, target.wounds, fnp),
                   _model_rerolls(weapon, ab, o, target.wounds, mortal_fnp))
    else:
        normal = _compact(unsaved, _damage_dice(rng, weapon, ab, o, (trials, save_width)))
        devs = _compact(dev, _damage_dice(rng, weapon, ab, o, (trials, width)))
        n_mortal = np.where(devs[0], devs[1], 0).sum(axis=1)
        rerolls = (None, None)
    return {
        "attacks": n_attacks, "hits": n_hits, "wounds": n_wounds, "unsaved": n_unsaved,
        "mortal": n_mortal, "normal": normal, "dev": devs, "fnp": (fnp, mortal_fnp),
        "rerolls": rerolls,
    }


def _best(*values: int | None) -> int | None:
    """The best (lowest) Feel No Pain of those that apply."""
    found = [v for v in values if v is not None]
    return min(found) if found else None


def _allocate(rng, packets, target: mh.Target, models, lost, damage, kills,
              fnp: int | None = None, rerolls: Any = None) -> None:
    """Apply damage packets (columns, vectorised over trials) in place; excess of each is lost.
    ``rerolls``: a (rolled value, wounds left) table of Damage re-rolls; the packets then hold
    the rolled value, the Damage kept and the Damage re-rolled."""
    mask, *columns = packets
    w = target.wounds
    q = None if fnp is None else (fnp - 1) / 6  # P(a wound point gets through)
    for j in range(mask.shape[1]):
        active = mask[:, j] & (models > 0)
        if not active.any():
            if not (models > 0).any():
                return
            continue
        if rerolls is None:
            d = columns[0][:, j]
        else:
            again = rerolls[columns[0][:, j], w - lost]
            d = np.where(again, columns[2][:, j], columns[1][:, j])
        if q is not None:
            d = rng.binomial(d, q)
        take = np.where(active, np.minimum(d, w - lost), 0)
        lost += take
        damage += take
        dead = active & (lost >= w)
        models -= dead
        kills += dead
        lost[dead] = 0


def simulate(profiles: mh.Weapon | tuple | Iterable, target: mh.Target | mh.Squad,
             trials: int = 100_000, seed: int | None = 0, **options: Any) -> Simulation:
    """Simulate ``mh.attack(profiles, target, **options)`` ``trials`` times.

    A plain Target: 10e rules only. A Squad (several model groups, see :func:`_simulate_squad`):
    10e, or 11e where it differs from 10e only in the unit's Toughness.

    >>> import mathhammer as mh
    >>> gun = mh.Weapon("gun", attacks=1, skill=None, strength=8, ap=0, damage=3)
    >>> sim = simulate(gun, mh.Target(models=2, toughness=4, save=7, wounds=2), trials=1000)
    >>> bool((sim.damage == 2 * sim.kills).all()), int(sim.hits.sum())  # excess damage is lost
    (True, 1000)
    """
    o = mh.Options.make(**options)
    if isinstance(target, mh.Squad):
        return _simulate_squad(profiles, target, trials, seed, o)
    if o.rules != "10e":
        raise ValueError(f"rules: the Monte Carlo oracle only knows '10e', got {o.rules!r}")
    rng = np.random.default_rng(seed)
    parts = [_chunk(rng, _profiles(profiles), target, o, min(CHUNK, trials - start))
             for start in range(0, trials, CHUNK)]
    joined = {k: np.concatenate([p[k] for p in parts]) for k in (*COUNTERS, "destroyed")}
    return Simulation(**joined, models=target.models)


def _chunk(rng, profiles: list[tuple[mh.Weapon, int]], target: mh.Target, o: mh.Options,
           trials: int) -> dict[str, Any]:
    """Simulate ``trials`` attack sequences at once (memory grows with trials x dice)."""
    counts = {k: np.zeros(trials, dtype=np.int64) for k in COUNTERS}
    rolled = []
    for weapon, n in profiles:
        r = _weapon_rolls(rng, weapon, n, target, o, trials)
        rolled.append(r)
        for k in ("attacks", "hits", "wounds", "unsaved", "mortal"):
            counts[k] += r[k]
    models = np.full(trials, target.models, dtype=np.int64)
    lost = np.zeros(trials, dtype=np.int64)
    for r in rolled:
        _allocate(rng, r["normal"], target, models, lost, counts["damage"], counts["kills"],
                  r["fnp"][0], r["rerolls"][0])
    for r in rolled:
        _allocate(rng, r["dev"], target, models, lost, counts["damage"], counts["kills"],
                  r["fnp"][1], r["rerolls"][1])
    return {**counts, "destroyed": models == 0}


# ================================================================ Squads (several model groups)
# From RULES.md 6, 7 and 9 and the README "Squads" decision: hit and wound rolls use one profile
# for the unit (its Toughness, every group's keywords, Stealth only if every group has it); each
# wound is then allocated to a model in attack order (an attack's own wound, then the wounds of
# its Sustained Hits' extra hits) and takes that model's save, wounds and Feel No Pain.


def _characters(squad: mh.Squad) -> list[bool]:
    return ["CHARACTER" in {k.upper() for k in g.keywords} for g in squad.groups]


def _squad_toughness(squad: mh.Squad, rules: str) -> int:
    """Attached unit: 10e the first Bodyguard group's T, 11e the highest Bodyguard T; any other
    unit the highest T in it."""
    chars = _characters(squad)
    bodyguard = [g.toughness for g, c in zip(squad.groups, chars, strict=True) if not c]
    if any(chars) and bodyguard:
        return max(bodyguard) if rules == "11e" else bodyguard[0]
    return max(g.toughness for g in squad.groups)


def _check_squad_rules(profiles: list[tuple[mh.Weapon, int]], squad: mh.Squad,
                       o: mh.Options) -> None:
    """11e is only simulated where it differs from 10e in the unit's Toughness alone; Damage
    re-rolls decided against the model ("any") only against a plain Target."""
    if o.reroll_damage == "any":
        raise ValueError("the Monte Carlo oracle simulates reroll_damage='any' against a "
                         "plain Target only")
    if o.rules == "10e":
        return
    if o.rules != "11e":
        raise ValueError(f"rules: the Monte Carlo oracle only knows '10e' and '11e', got "
                         f"{o.rules!r}")
    bad = []
    if o.reroll_damage == "any":
        bad.append("reroll_damage='any'")
    if o.cover or o.overwatch or o.lethal_hits != "always":
        bad.append("cover / overwatch / lethal_hits choice")
    if all(g.stealth for g in squad.groups):
        bad.append("Stealth")
    if any(mh.parse_abilities(w.with_abilities(*o.abilities).abilities).blast
           for w, _ in profiles):
        bad.append("Blast")
    seen = set()
    for g, c in zip(squad.groups, _characters(squad), strict=True):
        key = (g.wounds, g.save, g.invuln, c)
        if key in seen:
            bad.append("two groups of the same (W, Sv, invulnerable) (11e merges them)")
        seen.add(key)
    if bad:
        raise ValueError(f"rules='11e': the Monte Carlo oracle does not model {', '.join(bad)}")


def _squad_weapon_rolls(rng, weapon: mh.Weapon, count: int, squad: mh.Squad, o: mh.Options,
                        trials: int) -> dict[str, Any]:
    """Roll one weapon's attacks against a Squad for every trial: counters, plus the wounds in
    attack order as packets for allocation."""
    ab = mh.parse_abilities(weapon.with_abilities(*o.abilities).abilities)
    ranged = not weapon.melee
    toughness = _squad_toughness(squad, o.rules)
    keywords = {k.upper() for g in squad.groups for k in g.keywords}
    stealth = all(g.stealth for g in squad.groups)

    # Blast counts every model of the unit at the start
    n_attacks, live = _attack_dice(rng, weapon, ab, o, count, squad.models, trials)
    slots = live.shape[1]
    hit, crit = _hit_dice(rng, weapon, ab, o, stealth, live)
    sustained = np.where(crit, _roll(rng, ab.sustained, (trials, slots)), 0)
    n_hits = hit.sum(axis=1) + sustained.sum(axis=1)

    # --- wound events in attack order: (trials, slots, 1 + most extra hits) flattened --------
    extra = max(_dice_table(ab.sustained)[0]) if ab.sustained is not None else 0
    k = np.arange(1 + extra)[None, None, :]
    event = np.where(k == 0, hit[..., None], k <= sustained[..., None]).reshape(trials, -1)
    auto = ((k == 0) & (crit & ab.lethal_hits)[..., None]).reshape(trials, -1)
    to_roll = event & ~auto
    width = event.shape[1]

    strength = weapon.strength + o.strength_mod
    ok, c = _wound_dice(rng, ab, o, strength, toughness, keywords, (trials, width))
    wcrit = c & to_roll
    dev = wcrit & ab.devastating_wounds
    wounded = (ok & to_roll) | auto  # a Lethal Hits automatic wound is not a Critical Wound

    # --- one save die and one Damage roll per wound (judged once the model is known) --------
    d = _damage_dice(rng, weapon, ab, o, (trials, width))
    save_die = rng.integers(1, 7, size=(trials, width), dtype=np.int8)
    normal = _compact(wounded & ~dev, wcrit & ~dev, save_die, d)
    devs = _compact(dev, d)
    n_mortal = np.where(devs[0], devs[1], 0).sum(axis=1)
    return {
        "attacks": n_attacks, "hits": n_hits, "wounds": wounded.sum(axis=1),
        "mortal": n_mortal, "normal": normal, "dev": devs,
        "precision": bool(ab.precision and o.precision),
        "psychic": "psychic" in weapon.abilities,
        "ap": min(0, weapon.ap - o.ap_mod),
        "cover": bool(o.cover and ranged and not ab.ignores_cover),
    }


class _UnitState:
    """The target unit in every trial: models left and wounds lost per group, (groups, trials)."""

    def __init__(self, squad: mh.Squad, trials: int):
        self.groups = squad.groups
        self.chars = _characters(squad)
        self.models = np.array([[g.models] * trials for g in self.groups], dtype=np.int64)
        self.lost = np.zeros_like(self.models)
        self.kills = np.zeros_like(self.models)
        self.damage = np.zeros(trials, dtype=np.int64)
        self.unsaved = np.zeros(trials, dtype=np.int64)

    def choose(self, precision: bool) -> Any:
        """The group each trial's next wound goes to (-1: none left)."""
        char = [g for g, c in enumerate(self.chars) if c]
        other = [g for g, c in enumerate(self.chars) if not c]
        order = [(g, True) for g in char] + [(g, False) for g in char] if precision else []
        order += [(g, True) for g in other] + [(g, False) for g in other]
        order += [(g, True) for g in char] + [(g, False) for g in char]
        choice = np.full(self.models.shape[1], -1, dtype=np.int64)
        for g, wounded in order:
            has = self.lost[g] > 0 if wounded else self.models[g] > 0
            choice = np.where((choice < 0) & has, g, choice)
        return choice

    def apply(self, rng, packets, precision: bool, o: mh.Options, ap: int | None = None,
              cover: bool = False, psychic: bool = False) -> None:
        """Allocate packets column by column; normal wounds (``ap`` given) take a save first,
        devastating ones (mortal wounds) do not. Excess damage of each packet is lost."""
        mask, *cols = packets
        amount = cols[-1]
        for j in range(mask.shape[1]):
            alive = self.models.sum(axis=0) > 0
            active = mask[:, j] & alive
            if not active.any():
                if not alive.any():
                    return
                continue
            choice = self.choose(precision)
            for g, grp in enumerate(self.groups):
                sel = active & (choice == g)
                if not sel.any():
                    continue
                if ap is not None:
                    is_crit, die = cols[0][:, j], cols[1][:, j].astype(np.int64)
                    a = np.where(is_crit, ap - o.crit_wound_ap, ap)
                    cov = np.where(cover & ~((grp.save <= 3) & (a == 0)), 1, 0)
                    saved = (die >= 2) & (die + np.minimum(a + o.save_mod + cov, 1) >= grp.save)
                    if grp.invuln is not None:
                        saved |= (die >= 2) & (die + min(o.save_mod, 1) >= grp.invuln)
                    sel = sel & ~saved
                    self.unsaved += sel
                d = amount[:, j]
                fnp = _best(grp.fnp, grp.fnp_psychic if psychic else None,
                            grp.fnp_mortal if ap is None else None)
                if fnp is not None:
                    d = rng.binomial(d, (fnp - 1) / 6)
                take = np.where(sel, np.minimum(d, grp.wounds - self.lost[g]), 0)
                self.lost[g] += take
                self.damage += take
                dead = sel & (self.lost[g] >= grp.wounds)
                self.models[g] -= dead
                self.kills[g] += dead
                self.lost[g][dead] = 0


def _squad_chunk(rng, profiles: list[tuple[mh.Weapon, int]], squad: mh.Squad, o: mh.Options,
                 trials: int) -> dict[str, Any]:
    counts = {k: np.zeros(trials, dtype=np.int64) for k in COUNTERS}
    rolled = []
    for weapon, n in profiles:
        r = _squad_weapon_rolls(rng, weapon, n, squad, o, trials)
        rolled.append(r)
        for k in ("attacks", "hits", "wounds", "mortal"):
            counts[k] += r[k]
    unit = _UnitState(squad, trials)
    for r in rolled:  # all normal damage, weapon by weapon, in attack order
        unit.apply(rng, r["normal"], r["precision"], o, ap=r["ap"], cover=r["cover"],
                   psychic=r["psychic"])
    for r in rolled:  # then every weapon's devastating wounds, in weapon order
        unit.apply(rng, r["dev"], r["precision"], o, psychic=r["psychic"])
    chars = [g for g, c in enumerate(unit.chars) if c]
    return {
        **counts, "unsaved": unit.unsaved, "damage": unit.damage, "kills": unit.kills.sum(axis=0),
        "destroyed": unit.models.sum(axis=0) == 0, "group_kills": list(unit.kills),
        "character_destroyed": (unit.models[chars].sum(axis=0) == 0) if chars else None,
    }


def _simulate_squad(profiles, squad: mh.Squad, trials: int, seed: int | None,
                    o: mh.Options) -> Simulation:
    """:func:`simulate` against a Squad: 10e, or 11e where only the Toughness differs.

    A squad's ``unsaved`` counts failed saves of wounds allocated to a model (none once the unit
    is destroyed); ``group_kills`` and ``character_destroyed`` are filled in.
    """
    profiles = _profiles(profiles)
    _check_squad_rules(profiles, squad, o)
    rng = np.random.default_rng(seed)
    parts = [_squad_chunk(rng, profiles, squad, o, min(CHUNK, trials - start))
             for start in range(0, trials, CHUNK)]
    joined = {k: np.concatenate([p[k] for p in parts]) for k in (*COUNTERS, "destroyed")}
    groups = tuple(np.concatenate([p["group_kills"][i] for p in parts])
                   for i in range(len(squad.groups)))
    chars = (None if parts[0]["character_destroyed"] is None
             else np.concatenate([p["character_destroyed"] for p in parts]))
    return Simulation(**joined, models=squad.models, group_kills=groups,
                      character_destroyed=chars)
