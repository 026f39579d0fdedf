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

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import attrs
import numpy as np

import mathhammer as mh

COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")
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

    @property
    def trials(self) -> int:
        return int(self.kills.shape[0])

    def mean(self, name: str) -> float:
        """Sample mean of a counter (or ``"destroyed"``)."""
        return float(getattr(self, name).mean())

    def stderr(self, name: str) -> float:
        """Standard error of :meth:`mean`."""
        values = getattr(self, name).astype(float)
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
    outcomes = tuple(int(o) for o, _ in pmf)
    probs = tuple(float(p) for _, p in pmf)
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


def _weapon_rolls(rng, weapon: mh.Weapon, count: int, target: mh.Target, o: mh.Options,
                  trials: int) -> dict[str, Any]:
    """Roll one weapon's attacks for every trial: counters plus damage packets."""
    ab = mh.parse_abilities(weapon.with_abilities(*o.abilities).abilities)
    ranged = not weapon.melee

    # --- attacks: each model rolls its own A (+ Blast, + Rapid Fire at half range) -----------
    per_model = _roll(rng, weapon.attacks, (trials, count))
    if ab.blast:
        per_model = per_model + target.models // 5
    if ab.rapid_fire is not None and o.half_range:
        per_model = per_model + _roll(rng, ab.rapid_fire, (trials, count))
    n_attacks = per_model.sum(axis=1)
    slots = int(n_attacks.max()) if trials else 0
    live = np.arange(slots)[None, :] < n_attacks[:, None]

    # --- hit roll ------------------------------------------------------------------------------
    if weapon.skill is None or ab.torrent:
        hit = live.copy()
        crit = np.zeros_like(live)
    else:
        skill = _clamp(weapon.skill - o.skill_mod, 2, 7)
        mod = o.hit_mod + (1 if ab.heavy and o.stationary and ranged else 0)
        mod -= 1 if target.stealth and ranged else 0
        mod = _clamp(mod, -1, 1)

        def judge(f):
            if o.overwatch:
                return f == 6, f == 6
            c = f >= o.crit_hit
            return (f != 1) & (c | (f + mod >= skill)), c

        first = rng.integers(1, 7, size=(trials, slots), dtype=np.int8)
        ok, c = judge(first)
        again = _reroll_mask(o.reroll_hits, first, ok, c)
        f = np.where(again, rng.integers(1, 7, size=(trials, slots), dtype=np.int8), first)
        ok, c = judge(f)
        hit = ok & live
        crit = c & live
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
    t = target.toughness
    if strength >= 2 * t:
        need = 2
    elif strength > t:
        need = 3
    elif strength == t:
        need = 4
    elif 2 * strength <= t:
        need = 6
    else:
        need = 5
    crit_at = o.crit_wound
    keywords = {k.upper() for k in target.keywords}
    for kw, x in ab.anti:
        if kw.upper() in keywords:
            crit_at = min(crit_at, x)
    wmod = o.wound_mod + (1 if ab.lance and o.charged else 0)
    wmod += o.wound_mod_if_stronger if strength > t else 0
    wmod = _clamp(wmod, -1, 1)

    def wjudge(f):
        c = f >= crit_at
        return (f != 1) & (c | (f + wmod >= need)), c

    policy = _broader(o.reroll_wounds, "failed" if ab.twin_linked else None)
    first = rng.integers(1, 7, size=(trials, width), dtype=np.int8)
    ok, c = wjudge(first)
    again = _reroll_mask(policy, first, ok, c)
    f = np.where(again, rng.integers(1, 7, size=(trials, width), dtype=np.int8), first)
    ok, c = wjudge(f)
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
    def damage(shape):
        d = _roll(rng, weapon.damage, shape)
        if o.halve_damage:
            d = (d + 1) // 2
        if ab.melta is not None and o.half_range:
            d = d + _roll(rng, ab.melta, shape)
        return np.maximum(d + o.damage_mod, 1)

    normal = _compact(unsaved, damage((trials, save_width)))
    devs = _compact(dev, damage((trials, width)))
    n_mortal = np.where(devs[0], devs[1], 0).sum(axis=1)
    return {
        "attacks": n_attacks, "hits": n_hits, "wounds": n_wounds, "unsaved": n_unsaved,
        "mortal": n_mortal, "normal": normal, "dev": devs,
    }


def _allocate(rng, packets, target: mh.Target, models, lost, damage, kills) -> None:
    """Apply damage packets (columns, vectorised over trials) in place; excess of each is lost."""
    mask, amount = packets
    w = target.wounds
    q = None if target.fnp is None else (target.fnp - 1) / 6  # P(a wound point gets through)
    for j in range(mask.shape[1]):
        active = mask[:, j] & (models > 0)
        if not active.any():
            if not (models > 0).any():
                return
            continue
        d = amount[:, j]
        if q is not None:
            d = rng.binomial(d, q)
        take = np.where(active, np.minimum(d, w - lost), 0)
        lost += take
        damage += take
        dead = active & (lost >= w)
        models -= dead
        kills += dead
        lost[dead] = 0


def simulate(profiles: mh.Weapon | tuple | Iterable, target: mh.Target, trials: int = 100_000,
             seed: int | None = 0, **options: Any) -> Simulation:
    """Simulate ``mh.attack(profiles, target, **options)`` ``trials`` times (10e rules only).

    >>> import mathhammer as mh
    >>> gun = mh.Weapon("gun", attacks=1, skill=None, strength=8, ap=0, damage=3)
    >>> sim = simulate(gun, mh.Target(models=2, toughness=4, save=7, wounds=2), trials=1000)
    >>> bool((sim.damage == 2 * sim.kills).all()), int(sim.hits.sum())  # excess damage is lost
    (True, 1000)
    """
    o = mh.Options.make(**options)
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
        _allocate(rng, r["normal"], target, models, lost, counts["damage"], counts["kills"])
    for r in rolled:
        _allocate(rng, r["dev"], target, models, lost, counts["damage"], counts["kills"])
    return {**counts, "destroyed": models == 0}
