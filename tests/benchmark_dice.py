"""mathhammer against a general exact dice engine (icepool) on 61 everyday queries (issue 23).

Run ``python tests/benchmark_dice.py`` (``--quick`` for fewer repeats; ``--cprofile`` to profile
the mathhammer side). Needs icepool (``pip install "mathhammer[bench]"``); the product never
imports it. Each query is computed by both engines, their exact answers are asserted equal (a
PMF's Fractions against icepool's integer quantities over its denominator), and each is timed:

- mathhammer **cold**: every cache cleared before each call (as ``tests/benchmark.py`` does);
- mathhammer **warm**: the same call repeated, caches left filled;
Times are CPU ms of this process (``time.process_time``; the machine is shared), medians;
the ratios are summed (the total) and per query (their geometric mean, the slowest query).

What "cold" means, exactly: a player's first query in a fresh process once the modules are
imported and the rule set loaded. Before each timed call ``benchmark.clear_caches`` empties
every memoised result (each :func:`mathhammer.cache.cached` function, the answers of whole
queries, the dice, rolls and laws included, and any other ``cache_clear`` in the mathhammer
modules). What stays is what an import makes and keeps: the code, the constant tables built
at import (the everyday dice expressions and their laws, :mod:`mathhammer.prob.dice`; the
default Options; a weapon's empty abilities) and the parsed rule-set files (parsed once per
process; each load still reads their modification time and size). The caches are found
once (``benchmark.clear_caches``), so that finding them does not evict the processor's
caches before each timed call (docs/speed.md). The timed call builds
its own Weapon and Target (``mh_query``), as a player's query does.

- icepool: each query builds its dice afresh (icepool caches sums per Die object, so a fresh
  object is a cold query for it too); median of the repeats.

A query to mathhammer is one ``mh.attack`` call (which computes every counter and the target's
state at once) and the counter asked for; to icepool it is the dice for that counter alone,
written from the rules (RULES.md) in icepool's own idiom: ``n @ die`` for sums of dice, ``map``
for re-rolls and mixtures, a chain of ``map`` steps over ``(models, wounds lost)`` where damage
is allocated model by model. Speed numbers live only here, never in tests.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from statistics import geometric_mean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchmark import clear_caches  # noqa: E402

import mathhammer as mh  # noqa: E402

FAIL, SUCCESS, CRITICAL = 0, 1, 2


@dataclass(frozen=True)
class Spec:
    """One attack as both engines read it: the weapon, how many carry it, the target, options."""

    name: str
    attacks: int | str
    models: int
    skill: int | None  # None: Torrent
    strength: int
    ap: int
    damage: int | str
    t_models: int
    toughness: int
    save: int
    wounds: int
    invuln: int | None = None
    fnp: int | None = None
    sustained: int | str = 0
    lethal: bool = False
    dev: bool = False
    twin: bool = False
    blast: bool = False
    melta: int = 0  # Melta X at half range
    reroll_hits: str | None = None
    reroll_wounds: str | None = None
    hit_mod: int = 0
    kinds: tuple[str, ...] = ()  # the queries asked of this attack
    extra: dict = field(default_factory=dict)

    # --- mathhammer ---------------------------------------------------------------------------
    def weapon(self) -> mh.Weapon:
        abilities = []
        if self.sustained:
            abilities.append(f"sustained hits {self.sustained}")
        flags = (("lethal hits", self.lethal), ("devastating wounds", self.dev),
                 ("twin-linked", self.twin), ("blast", self.blast),
                 (f"melta {self.melta}", self.melta))
        abilities += [a for a, on in flags if on]
        if self.skill is None:
            abilities.append("torrent")
        return mh.Weapon("gun", attacks=self.attacks, skill=self.skill, strength=self.strength,
                         ap=self.ap, damage=self.damage, abilities=abilities)

    def target(self) -> mh.Target:
        return mh.Target(models=self.t_models, toughness=self.toughness, save=self.save,
                         wounds=self.wounds, invuln=self.invuln, fnp=self.fnp)

    def options(self) -> dict:
        out: dict[str, Any] = {"half_range": bool(self.melta)}
        if self.reroll_hits:
            out["reroll_hits"] = self.reroll_hits
        if self.reroll_wounds:
            out["reroll_wounds"] = self.reroll_wounds
        if self.hit_mod:
            out["hit_mod"] = self.hit_mod
        return out


# --- icepool: the rules written afresh in its idiom (RULES.md sections 1-6) -------------------
def _ice():
    import icepool

    return icepool


def dice(value: int | str):
    """A datasheet dice expression as an icepool Die."""
    icepool = _ice()
    if isinstance(value, int):
        return icepool.Die([value])
    text = value.upper()
    plus = 0
    if "+" in text:
        text, p = text.split("+")
        plus = int(p)
    n, sides = text.split("D")
    return (int(n or 1) @ icepool.d(int(sides))) + plus


def d6_test(need: int, crit: int = 6, reroll: str | None = None, mod: int = 0):
    """One D6 test: FAIL, SUCCESS or CRITICAL (an unmodified 1 fails, an unmodified ``crit``+ is
    critical, else ``face + mod >= need`` succeeds), with at most one re-roll."""
    icepool = _ice()

    def judge(face: int) -> int:
        if face == 1:
            return FAIL
        if face >= crit:
            return CRITICAL
        return SUCCESS if face + mod >= need else FAIL

    def again(face: int) -> bool:
        o = judge(face)
        return ((reroll == "ones" and face == 1) or (reroll == "failed" and o == FAIL)
                or (reroll == "noncrit" and o != CRITICAL))

    once = icepool.d6.map(judge)
    return icepool.d6.map(lambda f: once if again(f) else judge(f))


def wound_need(s: int, t: int) -> int:
    return 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5


def save_fails(spec: Spec) -> int:
    """Faces of a D6 on which the save fails: the better of armour (worsened by AP) and invuln;
    an unmodified 1 always fails."""
    def passes(need: int, mod: int) -> int:
        return sum(1 for face in range(2, 7) if face + mod >= need)

    saved = passes(spec.save, spec.ap)
    if spec.invuln is not None:
        saved = max(saved, passes(spec.invuln, 0))
    return 6 - saved


def per_attack(spec: Spec, on_wound: Callable[[str], Any], on_hit: Any = 0, zero: Any = 0):
    """One attack's value: ``on_hit`` per hit plus ``on_wound(kind)`` per wound, kind ``n`` (a
    wound that is saved normally, Lethal Hits' included) or ``d`` (a Devastating Wound); ``zero``
    is the value of nothing."""
    icepool = _ice()
    wound = d6_test(wound_need(spec.strength, spec.toughness),
                    reroll="failed" if spec.twin else spec.reroll_wounds)
    crit_kind = "d" if spec.dev else "n"
    one_hit = wound.map(lambda w: zero if w == FAIL
                        else on_wound("n" if w == SUCCESS else crit_kind))
    one_hit = one_hit + on_hit
    if spec.skill is None:  # Torrent: every attack hits, never critically
        return one_hit
    critical = (icepool.Die([zero]) + on_wound("n") + on_hit) if spec.lethal else one_hit
    if spec.sustained:
        critical = critical + dice(spec.sustained) @ one_hit
    hit = d6_test(spec.skill, reroll=spec.reroll_hits, mod=max(-1, min(1, spec.hit_mod)))
    return hit.map(lambda h: zero if h == FAIL else one_hit if h == SUCCESS else critical)


def attacks_of_one(spec: Spec):
    a = dice(spec.attacks)
    return a + spec.t_models // 5 if spec.blast else a


def total(spec: Spec, each):
    """The sum of ``each`` over every attack of every model."""
    if isinstance(spec.attacks, int) and not spec.blast:
        return (spec.attacks * spec.models) @ each
    return spec.models @ (attacks_of_one(spec) @ each)


def fnp_loss(spec: Spec, amount):
    """Wounds lost from ``amount`` (a Die): each ignored on a D6 of ``fnp``+."""
    icepool = _ice()
    if spec.fnp is None:
        return amount
    lost = icepool.Die({1: spec.fnp - 1, 0: 7 - spec.fnp})
    return amount.map(lambda d: d @ lost)


def damage_die(spec: Spec):
    d = dice(spec.damage)
    return d + spec.melta if spec.melta else d


def ice_query(spec: Spec, kind: str):
    """The icepool answer to one query: a Die, or a Fraction."""
    icepool = _ice()
    unsaved = icepool.Die({1: save_fails(spec), 0: 6 - save_fails(spec)})
    if kind == "attacks":
        return spec.models @ attacks_of_one(spec)
    if kind == "hits":
        return total(spec, per_attack(spec, lambda k: 0, on_hit=1))
    if kind == "wounds":
        return total(spec, per_attack(spec, lambda k: 1))
    if kind in ("unsaved", "unsaved mean"):
        die = total(spec, per_attack(spec, lambda k: unsaved if k == "n" else 0))
        return die if kind == "unsaved" else die.mean()
    if kind == "mortal":
        dmg = damage_die(spec)
        return total(spec, per_attack(spec, lambda k: dmg if k == "d" else 0))
    lost = fnp_loss(spec, damage_die(spec))
    if spec.t_models == 1:  # one model: it loses the damage, up to its wounds
        each = per_attack(spec, lambda k: unsaved.map(lambda u: lost if u else 0) if k == "n"
                          else lost)
        dmg = total(spec, each).map(lambda x: min(x, spec.wounds))
        if kind == "damage":
            return dmg
        return (dmg.map(lambda x: int(x == spec.wounds)) if kind == "kills"
                else dmg.probability(spec.wounds))
    # a unit: damage allocated model by model, excess lost; first the normal packets, then the
    # Devastating ones (after all normal damage), each a step of the chain over (models, lost)
    kills_one = lost.map(lambda e: int(e > 0))
    if spec.wounds == 1:  # a packet that does any damage destroys one model
        each = per_attack(spec, lambda k: unsaved.map(lambda u: kills_one if u else 0)
                          if k == "n" else kills_one)
        kills = total(spec, each).map(lambda x: min(x, spec.t_models))
    else:
        vector = icepool.Vector
        each = per_attack(spec, lambda k: unsaved.map(lambda u: vector((u, 0))) if k == "n"
                          else vector((0, 1)), on_hit=vector((0, 0)), zero=vector((0, 0)))
        joint = total(spec, each)

        def step(state: tuple[int, int]):
            models, lost_now = state
            if not models:
                return state
            return lost.map(lambda e: state if not e else (models - 1, 0)
                            if lost_now + e >= spec.wounds else (models, lost_now + e))

        normal = [icepool.Die([(spec.t_models, 0)])]
        chains: dict[tuple[int, int], Any] = {}

        def after(uv) -> Any:
            u, v = uv
            while len(normal) <= u:
                normal.append(normal[-1].map(step))
            out = normal[u]
            for _ in range(v):
                out = out.map(step)
            return out.map(lambda s: spec.t_models - s[0])

        def final(uv):
            key = tuple(uv)
            if key not in chains:
                chains[key] = after(key)
            return chains[key]

        kills = joint.map(final)
    if kind == "kills":
        return kills
    return kills.probability(spec.t_models)


def mh_query(spec: Spec, kind: str):
    """mathhammer's answer to one query: a PMF, or a Fraction."""
    r = mh.attack((spec.weapon(), spec.models), spec.target(), **spec.options())
    if kind == "unsaved mean":
        return r.unsaved.mean()
    if kind == "destroyed":
        return r.destroyed
    return getattr(r, kind)


def as_dict(x) -> dict | Fraction:
    """A PMF or a Die as ``{outcome: Fraction}`` (positive only); a Fraction as itself."""
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, mh.PMF):
        return {k: p for k, p in x.items() if p}
    den = x.denominator()
    return {k: Fraction(q, den) for k, q in x.items() if q}


def specs() -> list[Spec]:
    """The fixed attacks of the comparison: the benchmark's scenarios and the everyday kind."""
    s = Spec
    return [
        s("10x2 bolt rifle BS3+ S4 AP-1 D1 vs 10 MEQ", 2, 10, 3, 4, -1, 1, 10, 4, 3, 2,
          kinds=("hits", "wounds", "unsaved", "unsaved mean", "kills")),
        s("20 att Sustained 1 + Lethal vs 10 GEQ", 20, 1, 3, 4, -1, 1, 10, 3, 5, 1,
          sustained=1, lethal=True, kinds=("hits", "wounds", "unsaved", "kills")),
        s("10 att Dev D3 S5 AP-2 vs 5x T5 Sv2+ 4++ W3 FNP5+", 10, 1, 3, 5, -2, "D3", 5, 5, 2, 3,
          invuln=4, fnp=5, dev=True, kinds=("unsaved", "mortal", "kills", "destroyed")),
        s("20x3 Sustained 2 BS4+ S4 vs 30x T4 Sv4+ W1", 3, 20, 4, 4, 0, 1, 30, 4, 4, 1,
          sustained=2, kinds=("hits", "unsaved", "kills")),
        s("10x D6 Blast BS3+ S5 vs 20x T3 Sv5+ W1", "D6", 10, 3, 5, 0, 1, 20, 3, 5, 1,
          blast=True, kinds=("attacks", "hits", "unsaved", "kills")),
        s("3x multi-melta half range vs T10 Sv3+ W12", 2, 3, 4, 9, -4, "D6", 1, 10, 3, 12,
          melta=2, kinds=("unsaved", "damage", "destroyed")),
        s("2x lascannon D6+1 vs Rhino T9 Sv3+ W10", 1, 2, 3, 12, -3, "D6+1", 1, 9, 3, 10,
          kinds=("unsaved", "damage", "destroyed")),
        s("5x plasma D2 vs 5 TEQ T5 Sv2+ 4++ W3", 1, 5, 3, 8, -3, 2, 5, 5, 2, 3, invuln=4,
          kinds=("unsaved", "kills")),
        s("3x3 heavy bolter Sustained 1 D2 vs 10 MEQ", 3, 3, 4, 5, -1, 2, 10, 4, 3, 2,
          sustained=1, kinds=("hits", "unsaved", "kills")),
        s("3x2 autocannon D3 vs 10 MEQ", 2, 3, 3, 9, -1, 3, 10, 4, 3, 2,
          kinds=("unsaved mean", "kills")),
        s("3x D6 flamer Torrent vs 10 GEQ", "D6", 3, None, 4, 0, 1, 10, 3, 5, 1,
          kinds=("attacks", "unsaved", "kills")),
        s("10x2 re-roll hit 1s vs T4 Sv4+ W1 FNP5+", 2, 10, 3, 4, 0, 1, 10, 4, 4, 1, fnp=5,
          reroll_hits="ones", kinds=("hits", "unsaved", "kills")),
        s("10 twin-linked S3 vs T6 Sv4+ W2 (wound on 5+)", 10, 1, 3, 3, 0, 1, 5, 6, 4, 2,
          twin=True, kinds=("wounds", "unsaved", "kills")),
        s("6 att re-roll failed hits, S8 D6 vs T5 Sv3+ W3 FNP6+", 6, 1, 4, 8, -2, "D6", 3, 5, 3,
          3, fnp=6, reroll_hits="failed", kinds=("unsaved", "kills", "destroyed")),
        s("4 att Lethal + Dev D6+1 vs 3x T10 Sv3+ W4", 4, 1, 3, 10, -2, "D6+1", 3, 10, 3, 4,
          lethal=True, dev=True, kinds=("mortal", "unsaved", "kills")),
        s("8 att Sustained D3 +1 to hit vs T4 Sv3+ W1", 8, 1, 4, 4, 0, 1, 10, 4, 3, 1,
          sustained="D3", hit_mod=1, kinds=("hits", "unsaved", "kills")),
        s("2D6 att S4 D1 vs a T4 Sv4+ W8 model FNP5+", "2D6", 1, 3, 4, 0, 1, 1, 4, 4, 8, fnp=5,
          kinds=("attacks", "unsaved", "damage", "destroyed")),
        s("5 att re-roll wounds noncrit D3 vs 5x T4 Sv6+ W2", 5, 1, 3, 4, 0, "D3", 5, 4, 6, 2,
          reroll_wounds="noncrit", kinds=("wounds", "unsaved", "kills")),
        s("2x4 Sustained 1 + Lethal S6 AP-1 D2 vs 4x T6 Sv3+ 5++ W3", 4, 2, 3, 6, -1, 2, 4, 6, 3,
          3, invuln=5, sustained=1, lethal=True, kinds=("hits", "unsaved", "kills")),
    ]


def queries() -> list[tuple[str, Spec, str]]:
    """``(label, spec, kind)`` for the 61 queries."""
    return [(f"{spec.name}: {kind}", spec, kind) for spec in specs() for kind in spec.kinds]


def timed(fn: Callable[[], Any], repeats: int, before: Callable[[], Any] | None = None
          ) -> tuple[float, Any]:
    """Median CPU ms of this process over ``repeats`` calls (``before`` run untimed before
    each): CPU time, not wall-clock, since other work shares the machine."""
    times, out = [], None
    for _ in range(repeats):
        if before is not None:
            before()
        t0 = time.process_time()
        out = fn()
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times), out


def compare(repeats: int) -> list[tuple[str, float, float, float]]:
    """``(label, mathhammer cold ms, warm ms, icepool ms)`` per query; raises when the exact
    answers differ."""
    rows = []
    for label, spec, kind in queries():
        ice_ms, ice = timed(lambda s=spec, k=kind: ice_query(s, k), repeats)
        cold, mine = timed(lambda s=spec, k=kind: mh_query(s, k), repeats, before=clear_caches)
        warm, _ = timed(lambda s=spec, k=kind: mh_query(s, k), repeats)
        if as_dict(mine) != as_dict(ice):
            raise AssertionError(f"{label}: mathhammer {as_dict(mine)} != icepool {as_dict(ice)}")
        rows.append((label, cold, warm, ice_ms))
    return rows


def cold_instructions(rounds: int = 2) -> float:
    """The mean instructions of one cold query (callgrind): ``rounds`` rounds of the 61 with
    the caches cleared before each, less the same rounds clearing the caches alone."""
    import re
    import subprocess

    def counted(part: str) -> int:
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                              sys.executable, __file__, "--counted", str(rounds), part],
                             capture_output=True, text=True, check=True)
        return int(re.findall(r"Collected : (\d+)", run.stderr)[-1])

    return (counted("queries") - counted("clear")) / (rounds * len(queries()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7")
    parser.add_argument("--cprofile", action="store_true",
                        help="profile 20 cold rounds of the mathhammer side instead")
    parser.add_argument("--instructions", action="store_true",
                        help="count a cold query's instructions under valgrind instead (the "
                             "mean over the 61; steady on a shared machine)")
    parser.add_argument("--counted", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.counted:  # under valgrind: warm the imports, then rounds of cold queries
        rounds, part = int(args.counted[0]), args.counted[1]
        for _label, spec, kind in queries():
            mh_query(spec, kind)
        for _ in range(rounds):
            for _label, spec, kind in queries():
                clear_caches()
                if part == "queries":
                    mh_query(spec, kind)
        return 0
    if args.instructions:
        print(f"a cold query, mean over the {len(queries())}: "
              f"{cold_instructions():,.0f} instructions (clearing the caches not counted)")
        return 0
    if args.cprofile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        for _ in range(20):
            for _label, spec, kind in queries():
                clear_caches()
                prof.runcall(mh_query, spec, kind)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
        return 0
    import icepool

    from mathhammer.model.ruleset import load_ruleset

    repeats = 3 if args.quick else 7
    load = os.getloadavg()[0]
    rows = compare(repeats)
    rules_ms, _ = timed(load_ruleset, repeats, before=clear_caches)
    print(f"{len(rows)} queries, exact answers equal in both engines; icepool "
          f"{icepool.__version__}; CPU ms, medians of {repeats} repeats; load average "
          f"{load:.2f} before, {os.getloadavg()[0]:.2f} after (2 cores, shared)\n")
    print("| query | mathhammer cold ms | warm ms | icepool ms | icepool / cold "
          "| icepool / warm |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for label, cold, warm, ice in rows:
        print(f"| {label} | {cold:.2f} | {warm:.3f} | {ice:.2f} | {ice / cold:.1f}x "
              f"| {ice / warm:.1f}x |")
    cold = [r[1] for r in rows]
    warm = [r[2] for r in rows]
    ice = [r[3] for r in rows]
    print(f"| **total** | {sum(cold):.1f} | {sum(warm):.2f} | {sum(ice):.0f} "
          f"| {sum(ice) / sum(cold):.1f}x | {sum(ice) / sum(warm):.1f}x |")
    ratios_cold = [i / c for i, c in zip(ice, cold, strict=True)]
    ratios_warm = [i / w for i, w in zip(ice, warm, strict=True)]
    print(f"| **median** | {statistics.median(cold):.2f} | {statistics.median(warm):.3f} "
          f"| {statistics.median(ice):.2f} | {statistics.median(ratios_cold):.1f}x "
          f"| {statistics.median(ratios_warm):.1f}x |")
    geo_cold, geo_warm = geometric_mean(ratios_cold), geometric_mean(ratios_warm)
    print(f"| **geometric mean** | | | | {geo_cold:.1f}x | {geo_warm:.1f}x |")
    slow_cold = min(range(len(rows)), key=lambda i: ratios_cold[i])
    slow_warm = min(range(len(rows)), key=lambda i: ratios_warm[i])
    print(f"\nslowest cold: {rows[slow_cold][0]} ({ratios_cold[slow_cold]:.1f}x); slowest "
          f"warm: {rows[slow_warm][0]} ({ratios_warm[slow_warm]:.1f}x)")
    print(f"of a cold query, loading the rule set (its file parsed once per process, its "
          f"modification time read) takes {rules_ms:.3f} ms")
    for name, mine in (("cold", sum(cold)), ("warm", sum(warm))):
        verdict = "PASS" if sum(ice) >= 30 * mine else "FAIL"
        print(f"{verdict}  icepool / mathhammer ({name}, total) >= 30x: "
              f"{sum(ice) / mine:.1f}x")
    for name, geo, target in (("warm", geo_warm, 30), ("cold", geo_cold, 10)):
        print(f"{'PASS' if geo >= target else 'FAIL'}  geometric mean of icepool / mathhammer "
              f"({name}) >= {target}x: {geo:.1f}x (issue 33)")
    for name, ratios in (("warm", ratios_warm), ("cold", ratios_cold)):
        low = min(ratios)
        print(f"{'PASS' if low >= 5 else 'FAIL'}  every query ({name}) >= 5x: the slowest "
              f"{low:.1f}x (issue 33)")
    return 0


if __name__ == "__main__":
    main()
    sys.exit(0)
