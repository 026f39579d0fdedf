"""Time the exact engine against the numpy Monte Carlo oracle on fixed scenarios (issue 2).

Run ``python tests/benchmark.py`` (``--quick`` for fewer repeats, ``--only TEXT`` for the
scenarios whose name holds TEXT). Prints Markdown tables and a PASS/FAIL line per speed target;
always exits 0. Speed numbers live only here, never in tests.

"engine ms" is the median over repeats with every cache (``cache_clear()``) of the ``mathhammer``
modules cleared before each repeat (a cold call: the imports warm), "engine CPU ms" the same in
this process's CPU time (steadier when other work shares the machine); "warm ms" is the median of
repeated calls with the caches left filled. The Monte Carlo (``tests/montecarlo.py``, 100k
trials of the same query) is timed the same way in the same run, and "MC/engine" is the ratio of
the CPU times (the wall-clock ratio beside it).

Main against a branch: ``PYTHONPATH=/path/to/main python tests/benchmark.py --save main.json``
times main's engine with this file's scenarios and Monte Carlo; then ``python tests/benchmark.py
--compare main.json`` adds main's CPU ms to every row. ``--instructions`` counts the instructions
of one cold query of the headline scenarios under valgrind (callgrind), collecting inside the
query alone.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mathhammer as mh  # noqa: E402

MC_TRIALS = 100_000


def simulate(*args, **kwargs):
    """The Monte Carlo of ``tests/montecarlo.py`` (numpy imported on first use: a query counted
    under valgrind runs without it)."""
    from montecarlo import simulate as run

    return run(*args, **kwargs)

#: every distribution of a Result (a Result works each out when first asked: a query is timed
#: with all of them, as the command line shows them)
LAWS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "state",
        "group_kills", "deadly_demise", "hazard")


def solve(*args, **kwargs):
    """``mh.attack(*args, **kwargs)`` with every distribution of its Result worked out."""
    result = mh.attack(*args, **kwargs)
    for name in LAWS:
        getattr(result, name)
    return result


def scenarios() -> list[tuple[str, list, mh.Target, dict, float]]:
    """``(name, profiles, target, options, target ms)`` for each fixed scenario of issue 2."""
    w = mh.Weapon
    return [
        ("1. 10x2 BS3+ S4 AP-1 D1 vs 10x T4 Sv3+ W2",
         [(w("bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1), 10)],
         mh.Target(models=10, toughness=4, save=3, wounds=2), {}, 10.0),
        ("2. 20 att Sustained 1 + Lethal vs 10x T3 Sv5+ W1",
         [(w("gun", attacks=20, skill=3, strength=4, ap=-1, damage=1,
             abilities=["sustained hits 1", "lethal hits"]), 1)],
         mh.Target(models=10, toughness=3, save=5, wounds=1), {}, 10.0),
        ("3. 10 att Dev Wounds D3 S5 AP-2 vs 5x T5 Sv2+ 4++ W3 FNP5+",
         [(w("dev gun", attacks=10, skill=3, strength=5, ap=-2, damage="D3",
             abilities=["devastating wounds"]), 1)],
         mh.Target(models=5, toughness=5, save=2, wounds=3, invuln=4, fnp=5), {}, 10.0),
        ("4. 20x3 Sustained 2 BS4+ S4 vs 30x T4 Sv4+ W1",
         [(w("gun", attacks=3, skill=4, strength=4, ap=0, damage=1,
             abilities=["sustained hits 2"]), 20)],
         mh.Target(models=30, toughness=4, save=4, wounds=1), {}, 100.0),
        ("5. 10x D6 Blast BS3+ S5 vs 20x T3 Sv5+ W1",
         [(w("blast gun", attacks="D6", skill=3, strength=5, ap=0, damage=1,
             abilities=["blast"]), 10)],
         mh.Target(models=20, toughness=3, save=5, wounds=1), {}, 100.0),
        ("6. 3x multi-melta (half range) vs T10 Sv3+ W12",
         [(w("multi-melta", attacks=2, skill=4, strength=9, ap=-4, damage="D6",
             abilities=["melta 2"]), 3)],
         mh.Target(models=1, toughness=10, save=3, wounds=12), {"half_range": True}, 100.0),
    ]


def heavy_scenarios() -> list[tuple[str, list, object, dict, float]]:
    """The heavy queries of the engine issue: random attack counts, random damage, Devastating
    Wounds, Feel No Pain, multi-wound models, a Leader attached."""
    w = mh.Weapon
    gun = w("gun", attacks="2D6", skill=3, strength=8, ap=-2, damage="D6+1",
            abilities=["devastating wounds"])
    bodyguard = mh.Target(models=20, toughness=5, save=3, invuln=4, wounds=4, fnp=6)
    leader = mh.Target(models=1, toughness=5, save=2, invuln=4, wounds=6, keywords=["CHARACTER"])
    cli = w("gun", attacks="2D6", skill=3, strength=8, ap=-2, damage="D6+1",
            abilities=["sustained hits D3", "lethal hits", "devastating wounds"])
    ap3 = w("gun", attacks="2D6", skill=3, strength=8, ap=-3, damage="D6+1",
            abilities=["devastating wounds"])
    apart = mh.Target(models=1, toughness=5, save=2, wounds=6, fnp=5, keywords=["CHARACTER"])
    return [
        ("H1. 10x 2D6 S8 AP-2 D6+1 dev wounds vs 20x T5 Sv3+ 4++ W4 FNP6+", [(gun, 10)],
         bodyguard, {}, 220.0),
        ("H2. the same into that unit with a W6 Leader (Sv2+ 4++)", [(gun, 10)],
         mh.Squad((bodyguard, leader)), {}, 290.0),
        ("H3. 20x3 D3 dev wounds vs 10x TEQ FNP5+",
         [(w("gun", attacks=3, skill=3, strength=5, ap=-1, damage="D3",
             abilities=["devastating wounds"]), 20)],
         mh.Target(models=10, toughness=5, save=2, invuln=4, wounds=3, fnp=5), {}, 88.0),
        ("H4. 10x 2D6 sustained D3 + lethal + dev wounds vs 20x W4 FNP6+ + W6 Leader",
         [(cli, 10)], mh.Squad((bodyguard, leader)), {}, 1000.0),
        ("H5. 10x 2D6 AP-3 dev wounds vs 20x Sv3+ 4++ W4 FNP6+ + Sv2+ W6 FNP5+ Leader "
         "(groups save differently)", [(ap3, 10)], mh.Squad((bodyguard, apart)), {}, 1000.0),
    ]


def shapes() -> list[tuple[str, object, tuple[int, ...], int]]:
    """The shapes of issue 33, each ``(name, build, sizes, headline)``: ``build(n)`` gives
    ``(profiles, target, options)`` for ``n`` attacking models; the growth in attacks runs over
    ``sizes``, the headline size joins the main table."""
    w, t = mh.Weapon, mh.Target

    def three_groups(n: int):  # the 26x regression of issue 33
        gun = w("gun", attacks=2, skill=3, strength=4, ap=-1, damage=2,
                abilities=["sustained hits 1", "devastating wounds"])
        unit = mh.Squad((t(models=10, toughness=4, save=3, wounds=2),
                         t(models=5, toughness=4, save=2, invuln=4, wounds=3),
                         t(models=1, toughness=4, save=2, invuln=4, wounds=5, fnp=5,
                           keywords=["CHARACTER"])))
        return [(gun, n)], unit, {}

    def dev_2d6(n: int):
        gun = w("gun", attacks="2D6", skill=3, strength=8, ap=-2, damage="D6+1",
                abilities=["devastating wounds"])
        return [(gun, n)], t(models=20, toughness=5, save=3, invuln=4, wounds=4, fnp=6), {}

    def bolt_leader(n: int):
        bolt = w("bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1,
                 abilities=["sustained hits 1"])
        unit = mh.Squad((t(models=10, toughness=4, save=3, wounds=2),
                         t(models=1, toughness=4, save=3, invuln=4, wounds=5,
                           keywords=["CHARACTER"])))
        return [(bolt, n)], unit, {}

    def mixed_bodyguard(n: int):
        plasma = w("plasma", attacks=2, skill=3, strength=8, ap=-3, damage=2)
        unit = mh.Squad((t(models=5, toughness=4, save=3, wounds=2),
                         t(models=4, toughness=4, save=3, invuln=4, wounds=3),
                         t(models=1, toughness=4, save=2, invuln=4, wounds=5,
                           keywords=["CHARACTER"])))
        return [(plasma, n)], unit, {}

    def sustained_lethal_dev(n: int):
        gun = w("gun", attacks=3, skill=3, strength=5, ap=-2, damage=2,
                abilities=["sustained hits 1", "lethal hits", "devastating wounds"])
        unit = mh.Squad((t(models=10, toughness=4, save=3, wounds=2),
                         t(models=1, toughness=4, save=3, invuln=4, wounds=5,
                           keywords=["CHARACTER"])))
        return [(gun, n)], unit, {}

    def fnp_leader(n: int):
        gun = w("gun", attacks=3, skill=3, strength=5, ap=-1, damage=2,
                abilities=["devastating wounds"])
        unit = mh.Squad((t(models=10, toughness=4, save=3, wounds=2),
                         t(models=1, toughness=4, save=3, wounds=5, fnp=4,
                           keywords=["CHARACTER"])))
        return [(gun, n)], unit, {}

    def fnp_bodyguard(n: int):
        gun = w("gun", attacks=2, skill=3, strength=5, ap=-2, damage="D3",
                abilities=["devastating wounds"])
        unit = mh.Squad((t(models=10, toughness=5, save=3, wounds=2, fnp=5),
                         t(models=1, toughness=5, save=2, invuln=4, wounds=5,
                           keywords=["CHARACTER"])))
        return [(gun, n)], unit, {}

    def knight_warden(n: int):  # the slowest one-unit step of a whole-army plan (issue 33)
        dev = "devastating wounds"
        guns = [(w("avenger gatling cannon", attacks=18, skill=3, strength=6, ap=-2, damage=2,
                   abilities=[dev]), n),
                (w("heavy flamer", attacks="D6", skill=None, strength=5, ap=-1, damage=1,
                   abilities=["torrent", dev]), n),
                (w("heavy stubber", attacks=3, skill=3, strength=4, ap=-1, damage=1,
                   abilities=[dev]), n),
                (w("rocket pod", attacks=3, skill=3, strength=8, ap=-2, damage="D6",
                   abilities=[dev]), n)]
        unit = mh.Squad((t(models=10, toughness=4, save=3, wounds=2),
                         t(models=1, toughness=4, save=3, invuln=4, wounds=5,
                           keywords=["CHARACTER"])))
        return guns, unit, {}

    return [
        ("I1. Nx2 Sustained 1 + dev wounds D2 vs 10x W2 Sv3+, 5x W3 Sv2+ 4++, 1x W5 Sv2+ 4++ "
         "FNP5+ (three groups save differently)", three_groups, (15, 30, 60, 120), 30),
        ("I2. Nx 2D6 dev wounds D6+1 vs 20x W4 Sv3+ 4++ FNP6+", dev_2d6, (5, 10, 20, 40), 10),
        ("I3. Nx2 bolt Sustained 1 vs 10x W2 + a W5 4++ Leader", bolt_leader,
         (20, 40, 80, 160), 40),
        ("I4. Nx2 plasma AP-3 D2 vs a Leader (Sv2+ 4++ W5) with 5x Sv3+ W2 and 4x Sv3+ 4++ W3",
         mixed_bodyguard, (5, 10, 20, 40), 10),
        ("I5. Nx3 Sustained 1 + Lethal + dev wounds D2 AP-2 vs 10x Sv3+ W2 + Sv3+ 4++ W5 Leader",
         sustained_lethal_dev, (5, 10, 20, 40), 10),
        ("I6. Nx3 dev wounds D2 AP-1 vs 10x Sv3+ W2 + W5 Leader with FNP4+ (FNP on one group)",
         fnp_leader, (5, 10, 20, 40), 10),
        ("I7. Nx2 dev wounds D3 AP-2 vs 10x Sv3+ W2 FNP5+ + Sv2+ 4++ W5 Leader (FNP on the "
         "Bodyguard only, saves differ)", fnp_bodyguard, (5, 10, 20, 40), 10),
        ("I8. Nx Knight Warden: four dev wounds weapons (18 D2, D6 torrent D1, 3 D1, 3 D6) vs "
         "10x W2 Sv3+ + a W5 4++ Leader (several Devastating weapons)", knight_warden,
         (1, 2, 3), 1),
    ]


def shape_scenarios() -> list[tuple[str, list, object, dict, float]]:
    """The headline size of every shape, as a scenario of the main table (no ms target: the
    targets are 10x the Monte Carlo and no slower than main)."""
    out = []
    for name, build, _sizes, headline in shapes():
        profiles, target, options = build(headline)
        out.append((name.replace("Nx", f"{headline}x", 1), profiles, target, options,
                    float("inf")))
    return out


def shape_growth(results: dict, repeats: int, only: str | None = None) -> list[str]:
    """The growth in attacks of every shape, each size against the Monte Carlo (one run)."""
    lines = ["| shape | models | engine ms | engine CPU ms | MC ms | MC CPU ms | MC/engine (CPU) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, build, sizes, _headline in shapes():
        if only is not None and only not in name:
            continue
        for n in sizes:
            profiles, target, options = build(n)
            wall, cpu, _r = timed_ms(lambda p=profiles, t=target, o=options: solve(p, t, **o),
                                     repeats, before=clear_caches)
            mc_wall, mc_cpu, _sim = timed_ms(
                lambda p=profiles, t=target, o=options: simulate(p, t, trials=MC_TRIALS, seed=1,
                                                                 **o), 1)
            key = f"{name.split('.')[0]} n={n}"
            results[key] = {"wall": wall, "cpu": cpu, "mc_wall": mc_wall, "mc_cpu": mc_cpu}
            lines.append(f"| {name.split('.')[0]} | {n} | {wall:.1f} | {cpu:.1f} | {mc_wall:.0f} "
                         f"| {mc_cpu:.0f} | {mc_cpu / cpu:.0f}x |")
    return lines


def growth(results: dict) -> list[str]:
    """How the time of one cold query grows with attacks and with the target's size."""
    w = mh.Weapon
    plain = w("plain", attacks=1, skill=3, strength=4, ap=-1, damage=1)
    dev = w("dev", attacks=1, skill=3, strength=5, ap=-2, damage="D6+1",
            abilities=["devastating wounds"])
    lines = ["ms (CPU ms in brackets)", "",
             "| attacks | plain vs 10x MEQ ms | D6+1 dev wounds vs 10x W3 FNP6+ ms "
             "| D6+1 dev wounds vs 10x W3 + Leader (saves differ) ms |",
             "| ---: | ---: | ---: | ---: |"]
    meq = mh.Target(models=10, toughness=4, save=3, wounds=2)
    w3 = mh.Target(models=10, toughness=5, save=3, wounds=3, fnp=6)
    led = mh.Squad((w3, mh.Target(models=1, toughness=5, save=2, wounds=5,
                                  keywords=["CHARACTER"])))
    for n in (10, 40, 160, 640):
        times = [timed_ms(lambda p=p, t=t, n=n: solve((p, n), t), 1, before=clear_caches)
                 for p, t in ((plain, meq), (dev, w3), (dev, led))]
        for column, (wall, cpu, _r) in zip(("plain", "dev", "dev led"), times, strict=True):
            results[f"G {column} n={n}"] = {"wall": wall, "cpu": cpu}
        lines.append(f"| {n} | " + " | ".join(f"{x:.0f} ({c:.0f})" for x, c, _ in times) + " |")
        if n == 640:
            verdict = "PASS" if times[2][1] < 1000 else "FAIL"
            verdict_line = (f"{verdict}  640 D6+1 Devastating attacks into a unit with a Leader "
                            f"that saves differently: CPU {times[2][1]:.0f} ms < 1000 ms "
                            f"(issue 23)")
    lines += ["", verdict_line, "", "| target (40 attacks) | plain ms | D6+1 dev wounds ms |",
              "| --- | ---: | ---: |"]
    for models in (1, 10, 30):
        for groups in (1, 3):
            sizes = [models] if groups == 1 else [max(1, models - 2), 1, 1]
            unit = mh.Squad(tuple(
                mh.Target(models=m, toughness=5, save=3 + i, wounds=3, fnp=6,
                          keywords=["CHARACTER"] if i == 2 else [])
                for i, m in enumerate(sizes)))
            times = [timed_ms(lambda p=p, u=unit: solve((p, 40), u), 1, before=clear_caches)
                     for p in (plain, dev)]
            label = f"{sum(sizes)} models, {groups} group{'s' if groups > 1 else ''}"
            for column, (wall, cpu, _r) in zip(("plain", "dev"), times, strict=True):
                results[f"T {label} {column}"] = {"wall": wall, "cpu": cpu}
            lines.append(f"| {label} | " + " | ".join(f"{x:.0f} ({c:.0f})" for x, c, _ in times)
                         + " |")
    return lines


def stateful_scenarios() -> list[tuple[str, object, float]]:
    """``(name, thunk, target ms)`` for the stateful scenarios of issue 5 (no Monte Carlo)."""
    bolt = mh.Weapon("bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    warriors = mh.Target(models=20, toughness=4, save=4, wounds=1,
                         abilities=["reanimation protocols"])
    bodyguard = mh.Target(models=10, toughness=4, save=3, wounds=2, name="Bodyguard")
    leader = mh.Target(models=1, toughness=4, save=3, wounds=5, invuln=4,
                       keywords=["CHARACTER"], name="Leader")
    sniper = mh.Weapon("sniper", attacks=1, skill=3, strength=5, ap=-2, damage=3,
                       abilities=["precision", "devastating wounds"])
    return [
        ("7. 3 turns of 10x bolt rifles vs 20 Necron Warriors, reanimating between",
         lambda: mh.turns((bolt, 10), warriors, 3), 200.0),
        ("8. 20x bolt rifles + 5 precision dev snipers vs Leader + 10 Bodyguard",
         lambda: solve([(bolt, 20), (sniper, 5)], mh.Squad((bodyguard, leader))), 200.0),
    ]


def plan_units() -> tuple[list, list]:
    """Eight attacking units and six targets with points, for the plan scenarios (issue 23)."""
    from mathhammer.engine.plan import Aim, Shooter

    w = mh.Weapon
    shooters = [
        Shooter.of("10x bolt rifles", [(w("bolt rifle", attacks=2, skill=3, strength=4, ap=-1,
                                          damage=1), 10)]),
        Shooter.of("2x multi-melta", [(w("multi-melta", attacks=2, skill=4, strength=9, ap=-4,
                                         damage="D6", abilities=["melta 2"]), 2)]),
        Shooter.of("lascannon", [(w("lascannon", attacks=1, skill=3, strength=12, ap=-3,
                                    damage="D6+1"), 2)]),
        Shooter.of("5x plasma", [(w("plasma", attacks=1, skill=3, strength=8, ap=-3,
                                    damage=2), 5)]),
        Shooter.of("heavy bolters", [(w("heavy bolter", attacks=3, skill=4, strength=5, ap=-1,
                                        damage=2, abilities=["sustained hits 1"]), 3)]),
        Shooter.of("dev snipers", [(w("sniper", attacks=1, skill=3, strength=5, ap=-2, damage=3,
                                      abilities=["devastating wounds", "precision"]), 5)]),
        Shooter.of("flamers", [(w("flamer", attacks="D6", skill=None, strength=4, ap=0,
                                  damage=1, abilities=["torrent"]), 3)]),
        Shooter.of("autocannons", [(w("autocannon", attacks=2, skill=3, strength=9, ap=-1,
                                      damage=3), 3)]),
    ]
    t = mh.Target
    aims = [
        Aim("10x MEQ", t(models=10, toughness=4, save=3, wounds=2), 180),
        Aim("Rhino", t(models=1, toughness=9, save=3, wounds=10), 75),
        Aim("5x TEQ", t(models=5, toughness=5, save=2, wounds=3, invuln=4), 200),
        Aim("10x GEQ", t(models=10, toughness=3, save=5, wounds=1), 60),
        Aim("Leader + 5 MEQ", mh.Squad((t(models=5, toughness=4, save=3, wounds=2),
                                         t(models=1, toughness=4, save=3, wounds=5, invuln=4,
                                           keywords=["CHARACTER"]))), 160),
        Aim("Monster", t(models=1, toughness=10, save=2, wounds=14, invuln=4), 240),
    ]
    return shooters, aims


def plan_army(n: int, m: int) -> tuple[list, list]:
    """``n`` attacking units and ``m`` targets for the growth of a whole army's plan (issue
    33): the units and targets of :func:`plan_units` again and again, each round with more
    models (units) or fewer models and more wounds (targets), so that no two are alike."""
    from mathhammer.engine.plan import Aim, Shooter

    shooters, aims = plan_units()
    out_s = []
    for i in range(n):
        base, j = shooters[i % len(shooters)], i // len(shooters)
        out_s.append(base if not j else Shooter.of(
            f"{base.label} #{j + 1}", [(w, c + j * max(1, c // 2)) for w, c in base.profiles]))
    out_a = []
    for i in range(m):
        base, j = aims[i % len(aims)], i // len(aims)
        if not j:
            out_a.append(base)
            continue
        parts = base.target.groups if isinstance(base.target, mh.Squad) else (base.target,)
        again = [attrs.evolve(p, models=max(1, p.models - 2 * j)) if p.models > 1 else
                 attrs.evolve(p, wounds=p.wounds + 2 * j) for p in parts]
        target = mh.Squad(tuple(again)) if len(again) > 1 else again[0]
        out_a.append(Aim(f"{base.name} #{j + 1}", target, base.points - 10 * j))
    return out_s, out_a


def plan_lines() -> list[str]:
    """The plan scenarios (6 units x 4 targets: fixed, adaptive) and the growth of a fixed
    plan with attackers x targets, cold (caches cleared) each."""
    from mathhammer.engine.plan import Objective, Planner

    shooters, aims = plan_units()
    lines = ["| plan (points destroyed, cold) | assignments | transitions | ms | value |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for n, m in ((4, 3), (6, 4)):
        clear_caches()
        t0 = time.perf_counter()
        pl = Planner(shooters[:n], aims[:m], Objective.POINTS)
        best = pl.fixed()[0]
        ms = (time.perf_counter() - t0) * 1000
        lines.append(f"| fixed, {n} units x {m} targets | {pl.count()} | {len(pl._moves)} "
                     f"| {ms:.0f} | {float(best.value):.3f} |")
        t0 = time.perf_counter()
        ad = pl.adaptive()
        ms2 = (time.perf_counter() - t0) * 1000
        kind = "exact" if ad.exact else f"adapts {ad.depth} of {ad.units}"
        lines.append(f"| adaptive ({kind}; states {'/'.join(map(str, ad.states))}), after "
                     f"the fixed | - | {len(pl._moves)} | {ms2:.0f} | {float(ad.value):.3f} |")
    lines += ["", "| attackers \\ targets (fixed plan ms, cold) | 2 | 4 | 6 |",
              "| ---: | ---: | ---: | ---: |"]
    for n in (2, 4, 6, 8):
        row = []
        for m in (2, 4, 6):
            if m ** n > 300_000:
                row.append("over limit")
                continue
            clear_caches()
            t0 = time.perf_counter()
            Planner(shooters[:n], aims[:m], Objective.POINTS).fixed()
            row.append(f"{(time.perf_counter() - t0) * 1000:.0f}")
        lines.append(f"| {n} | " + " | ".join(row) + " |")
    return lines + [""] + search_growth()


def search_growth(sizes: tuple[int, ...] = (5, 10, 15, 20)) -> list[str]:
    """The growth of a whole army's plan (issue 33): the exact search (``Planner.best``, the
    default budget) of attackers x targets of :func:`plan_army`, cold: wall ms, CPU ms, and
    the gap (exact bound - value) where the search stopped before its proof."""
    from mathhammer.engine.plan import Objective, Planner

    lines = ["| attackers \\ targets (best plan searched, cold: wall ms / CPU ms; proved, "
             "or the gap) | " + " | ".join(map(str, sizes)) + " |",
             "| ---: | " + " | ".join("---:" for _ in sizes) + " |"]
    for n in sizes:
        row = []
        for m in sizes:
            shooters, aims = plan_army(n, m)
            clear_caches()
            t0, c0 = time.perf_counter(), time.process_time()
            found = Planner(shooters, aims, Objective.POINTS).best()
            wall, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
            said = "proved" if found.proved else \
                f"gap {float(found.gap):.3f} of {float(found.best.value):.1f}"
            row.append(f"{wall:.0f} / {cpu:.0f}, {said}")
        lines.append(f"| {n} | " + " | ".join(row) + " |")
    return lines


def clear_caches() -> int:
    """Call ``cache_clear()`` on every cache (functools or alike) in the mathhammer modules.

    Returns how many distinct caches were cleared. The caches are found by a walk over every
    mathhammer module and class, made again only when a module has been imported since: the
    walk touches every object of the package, so running it before each timed call evicted
    the processor's caches and charged that to the query timed next (2-3x on the smallest
    cold queries of ``benchmark_dice.py``, measured 2026-12-04).
    """
    mh.clear_caches()
    found = _CLEARS.get(len(sys.modules))
    if found is None:
        _CLEARS.clear()
        found = _CLEARS[len(sys.modules)] = _cache_clears()
    for clear in found:
        clear()
    return len(found)


#: the ``cache_clear`` methods :func:`clear_caches` calls, by the number of modules imported
_CLEARS: dict[int, list] = {}


def _cache_clears() -> list:
    cleared: set[int] = set()
    out = []
    for name, module in list(sys.modules.items()):
        if not (name == "mathhammer" or name.startswith("mathhammer.")) or module is None:
            continue
        for obj in list(vars(module).values()):
            members = list(vars(obj).values()) if isinstance(obj, type) else []
            for fn in (obj, *(getattr(m, "__func__", m) for m in members)):
                clear = getattr(fn, "cache_clear", None)
                if callable(clear) and not isinstance(fn, type) and id(fn) not in cleared:
                    out.append(clear)
                    cleared.add(id(fn))
    return out


def median_ms(fn, repeats: int, before=None) -> tuple[float, object]:
    return timed_ms(fn, repeats, before)[0::2]


def timed_ms(fn, repeats: int, before=None) -> tuple[float, float, object]:
    """Median wall-clock ms, median CPU ms of this process (steadier on a shared machine) and
    the last result."""
    times, cpu, out = [], [], None
    for _ in range(repeats):
        if before is not None:
            before()
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(times), statistics.median(cpu), out


#: the scenarios whose instructions ``--instructions`` counts unless ``--only`` says otherwise
HEADLINE = ("I1.", "I2.", "I3.", "H4.", "H5.")


def all_scenarios() -> list[tuple[str, list, object, dict, float]]:
    return scenarios() + heavy_scenarios() + shape_scenarios()


def run_counted(names: list[str]) -> None:
    """For callgrind: each scenario once (imports, first-use imports), the caches cleared, then
    once more inside ``functools.reduce`` (a C function mathhammer never calls): callgrind
    collects inside it alone and writes one profile per call (``instructions``)."""
    from functools import reduce

    by_name = {s[0]: s for s in all_scenarios()}
    for name in names:
        _n, profiles, target, options, _l = by_name[name]
        solve(profiles, target, **options)
        clear_caches()
        reduce(lambda _a, _b: solve(profiles, target, **options), (0, 1))


def instructions(names: list[str]) -> dict[str, int]:
    """Instructions of one cold query of each scenario (valgrind's callgrind, collecting inside
    the call alone: :func:`run_counted`), {} without valgrind."""
    if shutil.which("valgrind") is None:
        return {}
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
               "--collect-atstart=no", "--toggle-collect=functools_reduce",
               "--dump-after=functools_reduce", sys.executable, __file__, "--counted",
               *names]
        subprocess.run(cmd, env=env, capture_output=True, text=True)
        counts = []
        for part in sorted(Path(tmp).glob("out.*"), key=lambda p: int(p.suffix[1:])):
            found = re.search(r"^(?:summary|totals): (\d+)", part.read_text(), re.MULTILINE)
            counts.append(int(found.group(1)) if found else 0)
    return dict(zip(names, counts, strict=False))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    parser.add_argument("--plan", action="store_true", help="only the plan scenarios")
    parser.add_argument("--search", action="store_true",
                        help="only the growth of the plan search (issue 33)")
    parser.add_argument("--only", metavar="TEXT",
                        help="only the scenarios (and shapes) whose name holds TEXT")
    parser.add_argument("--save", metavar="FILE", help="write every row's times as JSON")
    parser.add_argument("--compare", metavar="FILE",
                        help="a --save file of another checkout (main): its CPU ms beside ours")
    parser.add_argument("--instructions", action="store_true",
                        help="count the instructions of one cold query (valgrind) of the "
                             "headline scenarios (or those --only names)")
    parser.add_argument("--counted", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    before = None
    if args.compare:
        try:
            before = json.loads(Path(args.compare).read_text())
        except (OSError, ValueError) as e:
            parser.error(f"--compare {args.compare}: not a --save file ({e})")
    if args.counted:
        run_counted(args.counted)
        return 0
    if args.plan:
        print("\n".join(plan_lines()))
        return 0
    if args.search:
        print("\n".join(search_growth()))
        return 0
    engine_repeats, mc_repeats = (3, 1) if args.quick else (9, 3)
    chosen = [s for s in all_scenarios() if args.only is None or args.only in s[0]]
    results: dict[str, dict] = {}
    if args.instructions:
        names = [s[0] for s in chosen if args.only or s[0].startswith(HEADLINE)]
        print("| scenario | instructions (one cold query) |\n| --- | ---: |")
        for name, count in instructions(names).items():
            results[name] = {"instructions": count}
            print(f"| {name} | {count / 1e6:.1f}M |")
        _save(args.save, results)
        return 0

    rows, checks = [], []
    for name, profiles, target, options, limit in chosen:
        cold, cpu, result = timed_ms(
            lambda p=profiles, t=target, o=options: solve(p, t, **o), engine_repeats,
            before=clear_caches)
        warm, _ = median_ms(lambda p=profiles, t=target, o=options: solve(p, t, **o),
                            engine_repeats)
        mc_ms, mc_cpu, sim = timed_ms(
            lambda p=profiles, t=target, o=options: simulate(p, t, trials=MC_TRIALS, seed=1, **o),
            mc_repeats)
        results[name] = {"wall": cold, "cpu": cpu, "warm": warm, "mc_wall": mc_ms,
                         "mc_cpu": mc_cpu}
        exact = float(result.kills.mean())
        mc_mean, mc_se = sim.mean("kills"), sim.stderr("kills")
        rows.append(f"| {name} | {cold:.2f} | {cpu:.2f} | {warm:.2f} | {mc_ms:.0f} | {mc_cpu:.0f} "
                    f"| {mc_cpu / cpu:.0f}x ({mc_ms / cold:.0f}x) "
                    f"| {exact:.4f} | {mc_mean:.4f} ± {mc_se:.4f} |")
        checks.append((name, cpu, limit, mc_cpu, abs(exact - mc_mean) <= 4.5 * max(mc_se, 1e-12)))

    print(f"engine: {engine_repeats} repeats (cold = {clear_caches()} caches cleared before each); "
          f"Monte Carlo: {MC_TRIALS:,} trials, {mc_repeats} repeat(s); medians\n")
    print(f"load average before: {os.getloadavg()[0]:.2f} (the machine may be shared)\n")
    print("| scenario | engine ms | engine CPU ms | warm ms | MC ms | MC CPU ms "
          "| MC/engine CPU (wall) | exact mean kills | MC mean kills ± se |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print("\n".join(rows))
    print()
    for name, cpu, limit, mc_cpu, agrees in checks:
        fast = cpu < limit
        beats = cpu * 10 <= mc_cpu
        verdict = "PASS" if fast and beats and agrees else "FAIL"
        bound = f"engine CPU {cpu:.2f} ms < {limit:g} ms: {fast}; " if limit < float("inf") \
            else ""
        print(f"{verdict}  {name}: {bound}10x faster than MC (CPU): {beats}; "
              f"MC agrees (4.5 se): {agrees}")
    if args.only is None:
        print("\n| stateful scenario (issue 5) | engine ms | engine CPU ms | warm ms | target ms |")
        print("| --- | ---: | ---: | ---: | ---: |")
        verdicts = []
        for name, thunk, limit in stateful_scenarios():
            cold, cpu, _ = timed_ms(thunk, engine_repeats, before=clear_caches)
            warm, _ = median_ms(thunk, engine_repeats)
            results[name] = {"wall": cold, "cpu": cpu, "warm": warm}
            print(f"| {name} | {cold:.2f} | {cpu:.2f} | {warm:.2f} | {limit:g} |")
            verdict = "PASS" if cpu < limit else "FAIL"
            verdicts.append(f"{verdict}  {name}: CPU {cpu:.2f} ms < {limit:g} ms")
        print("\n" + "\n".join(verdicts))
        print("\n## Growth (one cold query each)\n")
        print("\n".join(growth(results)))
    print("\n## Growth in attacks of the shapes of issue 33 (cold, against the Monte Carlo)\n")
    print("\n".join(shape_growth(results, 1 if args.quick else 3, args.only)))
    if args.only is None:
        print("\n## Plans (issue 23)\n")
        print("\n".join(plan_lines()))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\npeak memory (ru_maxrss): {peak / 1024:.0f} MiB")
    if before is not None:
        print("\n" + "\n".join(compared(before, results)))
    _save(args.save, results)
    return 0


def _save(path: str | None, results: dict) -> None:
    if path:
        Path(path).write_text(json.dumps(results, indent=1))


def compared(before: dict, now: dict) -> list[str]:
    """Every row timed in both runs: CPU ms before (main) and now, and the speed-up."""
    lines = ["## Against the saved run (main)\n",
             "| row | main CPU ms | CPU ms | main / this | MC CPU ms | MC / this |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    slower = []
    for key, row in now.items():
        if key not in before or "cpu" not in row:
            continue
        old, new = before[key]["cpu"], row["cpu"]
        mc = row.get("mc_cpu")
        lines.append(f"| {key} | {old:.2f} | {new:.2f} | {old / new:.2f}x "
                     f"| {'' if mc is None else f'{mc:.0f}'} "
                     f"| {'' if mc is None else f'{mc / new:.0f}x'} |")
        if new > old * 1.10 and new - old > 0.5:
            slower.append(key)
    verdict = "PASS" if not slower else "FAIL"
    lines.append(f"\n{verdict}  no row slower than the saved run by over 10% and 0.5 ms CPU"
                 + (f": {', '.join(slower)}" if slower else ""))
    return lines


if __name__ == "__main__":
    main()
    sys.exit(0)
