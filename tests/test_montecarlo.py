"""The exact engine against a seeded numpy Monte Carlo on cases too large to brute-force.

Each case asserts that the exact mean of every counter (and P(destroyed)) lies within 4.5
standard errors of the simulated mean. The oracle itself is first checked against means derived
by hand, and shown to reject a wrong answer, so a pass here means something.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from montecarlo import simulate

import mathhammer as mh

TRIALS = 20_000
Z = 4.5
W = mh.Weapon

CASES = {
    # Devastating Wounds (D3, dev packets after normal damage, excess lost), 4++ invuln vs AP-2,
    # FNP on every wound point, multi-wound models.
    "devastating_fnp": (
        [(W("dev gun", attacks=10, skill=3, strength=5, ap=-2, damage="D3",
            abilities=["devastating wounds"]), 1)],
        mh.Target(models=5, toughness=5, save=2, wounds=3, invuln=4, fnp=5), {}),
    # Two weapons in order: Heavy bolt rifles (stationary) then multi-meltas at half range
    # (Melta D6+2), target in cover (Sv3+ keeps cover only against AP < 0), W2 models.
    "bolters_then_melta_cover": (
        [(W("bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1,
            abilities=["heavy"]), 10),
         (W("multi-melta", attacks=2, skill=4, strength=9, ap=-4, damage="D6",
            abilities=["melta 2"]), 2)],
        mh.Target(models=10, toughness=4, save=3, wounds=2, keywords=["INFANTRY"]),
        {"half_range": True, "stationary": True, "cover": True}),
    # Sustained Hits D3 fishing for criticals, Anti-INFANTRY 4+ with Critical Wounds improving AP,
    # Twin-linked, against a Stealth unit (hit -1) with a save modifier.
    "sustained_anti_twin": (
        [(W("splinter", attacks=3, skill=3, strength=3, ap=0, damage=1,
            abilities=["sustained hits D3", "anti-infantry 4+", "twin-linked"]), 8)],
        mh.Target(models=10, toughness=4, save=4, wounds=2, keywords=["Infantry"],
                  abilities=["stealth"]),
        {"reroll_hits": "noncrit", "crit_wound_ap": 1, "save_mod": 1}),
    # Blast D6 + Rapid Fire D3 at half range, D3 damage halved and -1, against 20 W2 models.
    "blast_rapid_fire_halved": (
        [(W("frag", attacks="D6", skill=4, strength=5, ap=-1, damage="D3",
            abilities=["blast", "rapid fire D3"]), 4)],
        mh.Target(models=20, toughness=4, save=5, wounds=2),
        {"half_range": True, "halve_damage": True, "damage_mod": -1, "hit_mod": -2}),
    # Melee Lance on the charge with a capped wound penalty when stronger, Lethal Hits with a
    # Critical Hit on 5+, re-rolled wound ones, against a 5++ monster unit with FNP.
    "melee_lance_lethal": (
        [(W("lance", attacks=4, skill=3, strength=7, ap=-2, damage=2,
            abilities=["lance", "lethal hits"], range="melee"), 5)],
        mh.Target(models=3, toughness=6, save=3, wounds=6, invuln=5, fnp=6),
        {"charged": True, "wound_mod_if_stronger": -1, "wound_mod": -1, "crit_hit": 5,
         "reroll_wounds": "ones"}),
    # Torrent auto-hits, and a Fire Overwatch volley (only 6s hit, re-rolling failures).
    "torrent_and_overwatch": (
        [(W("flamer", attacks="D6", skill=None, strength=5, ap=0, damage=1,
            abilities=["torrent", "ignores cover"]), 3),
         (W("storm bolter", attacks=4, skill=3, strength=4, ap=0, damage=1,
            abilities=["sustained hits 1"]), 5)],
        mh.Target(models=10, toughness=3, save=6, wounds=1),
        {"overwatch": True, "reroll_hits": "failed", "cover": True}),
    # Characteristic changes (BS, S, AP: not capped), hit +1 plus Heavy capped at +1, re-rolled
    # hit ones and failed wounds, and Devastating Wounds from two weapons after all normal damage.
    "characteristics_two_dev_weapons": (
        [(W("rifle", attacks=2, skill=4, strength=4, ap=0, damage=2,
            abilities=["heavy", "devastating wounds"]), 6),
         (W("cannon", attacks="D3", skill=4, strength=8, ap=-1, damage="D6+1",
            abilities=["devastating wounds", "anti-vehicle 5+"]), 2)],
        mh.Target(models=4, toughness=5, save=3, wounds=4, invuln=5, keywords=["VEHICLE"]),
        {"stationary": True, "hit_mod": 1, "skill_mod": 1, "strength_mod": 1, "ap_mod": 1,
         "reroll_hits": "ones", "reroll_wounds": "failed"}),
    # Damage re-rolled against the model's wounds left (FNP 6+ on every wound, 4+ against the
    # Devastating Wounds' mortal wounds), D6 into W6 models, Critical Wounds on 5+.
    "reroll_damage_fnp_mortal": (
        [(W("las", attacks=3, skill=3, strength=8, ap=-2, damage="D6",
            abilities=["devastating wounds"]), 4)],
        mh.Target(models=4, toughness=8, save=3, wounds=6, fnp=6, fnp_mortal=4),
        {"reroll_damage": "any", "crit_wound": 5}),
    # The same re-roll with Melta D3 at half range, halved Damage, into a W8 model.
    "reroll_damage_melta_halved": (
        [(W("melta", attacks=2, skill=3, strength=9, ap=-4, damage="D6",
            abilities=["melta D3"]), 3)],
        mh.Target(models=2, toughness=10, save=3, wounds=8, invuln=5),
        {"reroll_damage": "any", "half_range": True, "halve_damage": True}),
    # Doubled Attacks then +1, Cleave 1 against 12 models, an unmodified Hit roll of 3+ always
    # hitting through -1, re-rolled Damage rolls of 1, Psychic Attacks into FNP 5+ against them.
    "double_cleave_unmodified_psychic": (
        [(W("force axe", attacks="D3", skill=4, strength=5, ap=-1, damage="D3",
            abilities=["cleave 1", "psychic"], range="melee"), 3)],
        mh.Target(models=12, toughness=4, save=4, wounds=2, fnp_psychic=5),
        {"double_attacks": True, "attacks_mod": 1, "unmodified_hits_on": 3, "hit_mod": -1,
         "reroll_damage": "ones"}),
    # Halved Attacks (D6: 1, 1, 2, 2, 3, 3) with Blast 2 against 10 models.
    "halved_blast": (
        [(W("frag", attacks="D6", skill=3, strength=4, ap=0, damage=1,
            abilities=["blast 2"]), 5)],
        mh.Target(models=10, toughness=3, save=5, wounds=1), {"halve_attacks": True}),
}

COUNTERS = ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills")


def _within(exact: F, sim, name: str, variance: F | None = None) -> tuple[bool, str]:
    """Is the exact mean within Z standard errors of the simulated one?

    The standard error is the larger of the sample's and, when the exact variance is known, the
    one it implies (so an event too rare to show up in the sample is still judged fairly).
    """
    mean, se = sim.mean(name), sim.stderr(name)
    if variance is not None:
        se = max(se, (float(variance) / sim.trials) ** 0.5)
    ok = abs(float(exact) - mean) <= Z * se + 1e-9
    return ok, f"{name}: exact {float(exact):.4f}, MC {mean:.4f} ± {se:.4f}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_engine_means_agree_with_monte_carlo(case):
    profiles, target, options = CASES[case]
    exact = mh.attack(profiles, target, **options)
    sim = simulate(profiles, target, trials=TRIALS, seed=sorted(CASES).index(case) + 11,
                   **options)
    report = []
    for name in COUNTERS:
        pmf = getattr(exact, name)
        report.append(_within(pmf.mean(), sim, name, pmf.variance()))
    p = exact.destroyed
    report.append(_within(p, sim, "destroyed", p * (1 - p)))
    bad = [msg for ok, msg in report if not ok]
    assert not bad, "; ".join(bad)


def test_monte_carlo_matches_hand_derived_means():
    # 12 torrent attacks S4 vs T4 (4+), Devastating D2 against W1 Sv2+ models: per attack a
    # Critical Wound (1/6) is a mortal packet of 2; a normal wound (2/6) is unsaved on a 1 (1/6).
    gun = W("dev", attacks=12, skill=None, strength=4, ap=0, damage=2,
            abilities=["torrent", "devastating wounds"])
    sim = simulate(gun, mh.Target(models=10, toughness=4, save=2, wounds=1), trials=TRIALS, seed=3)
    assert _within(F(12, 2), sim, "wounds")[0]                      # 12 * 1/2
    assert _within(F(12, 6) * 2, sim, "mortal")[0]                  # 12 * 1/6 * 2 = 4
    assert _within(F(12, 18), sim, "unsaved")[0]                     # 12 * 2/6 * 1/6
    # every dev packet and unsaved wound kills exactly one W1 model (excess lost), so kills is
    # min(Binomial(12, 1/6 + 1/18), 10)
    kills = mh.PMF.binomial(12, F(2, 9)).map(lambda k: min(k, 10))
    assert _within(kills.mean(), sim, "kills", kills.variance())[0]
    p = kills.prob(10)  # about 1.4e-6
    assert _within(p, sim, "destroyed", p * (1 - p))[0]

    # 10 BS4+ attacks, fish for criticals with Sustained Hits 1: P(hit) = 1/6 + 5/6 * 1/2 = 7/12,
    # P(crit) = 1/6 + 5/6 * 1/6 = 11/36, hits = 10 * (7/12 + 11/36) = 80/9.
    # S8 vs T4 wounds on 2+ (5/6), no save (Sv7+), D6 halved (1,1,2,2,3,3: mean 2) + Melta 2 - 1
    # = 3 per wound, FNP 5+ lets 4/6 through: damage = 80/9 * 5/6 * 3 * 2/3.
    gun = W("g", attacks=10, skill=4, strength=8, ap=0, damage="D6",
            abilities=["sustained hits 1", "melta 2"])
    big = mh.Target(models=1, toughness=4, save=7, wounds=1000, fnp=5)
    sim = simulate(gun, big, trials=TRIALS, seed=4, reroll_hits="noncrit", half_range=True,
                   halve_damage=True, damage_mod=-1)
    assert _within(F(80, 9), sim, "hits")[0]
    assert _within(F(80, 9) * F(5, 6), sim, "wounds")[0]
    assert _within(F(80, 9) * F(5, 6) * 3 * F(2, 3), sim, "damage")[0]

    # Saves: Sv4+ AP0 in cover saves on 3+ (unsaved 1/3); Sv3+ AP0 gets no cover (1/3 too);
    # save_mod +1 with cover is +2, capped at +1 (Sv5+ AP0 saves on 4+, unsaved 1/2).
    for save, ap, mod, unsaved in ((4, 0, 0, F(1, 3)), (3, 0, 0, F(1, 3)), (5, 0, 1, F(1, 2))):
        gun = W("a", attacks=30, skill=None, strength=8, ap=ap, damage=1)
        sim = simulate(gun, mh.Target(models=1, toughness=4, save=save, wounds=999),
                       trials=TRIALS, seed=5, cover=True, save_mod=mod)
        assert _within(30 * F(5, 6) * unsaved, sim, "unsaved")[0], (save, ap, mod)
    # Blast against 20 models: +4 attacks per model, 2 models of attacks=1 -> exactly 10 attacks.
    one = W("b", attacks=1, skill=None, strength=8, ap=0, damage=1, abilities=["blast"])
    sim = simulate((one, 2), mh.Target(models=20, toughness=4, save=7, wounds=1), trials=100)
    assert sim.attacks.min() == sim.attacks.max() == 10


def test_monte_carlo_damage_rerolls_match_hand_derived_means():
    # Torrent S8 (5/6 to wound), no save, D6 into W3 models, re-rolled when a fresh roll takes
    # more (1s and 2s: a fresh one takes 5/2 wounds): the one wound kills with
    # 4/6 + 2/6 * 4/6 = 8/9.
    gun = W("g", attacks=1, skill=None, strength=8, ap=0, damage="D6")
    sim = simulate((gun, 1), mh.Target(models=1, toughness=4, save=7, wounds=3), trials=TRIALS,
                   seed=8, reroll_damage="any")
    assert _within(F(5, 6) * F(8, 9), sim, "kills")[0]
    # Re-rolled Damage rolls of 1 on a D3: 1/9 * 1 + 4/9 * 2 + 4/9 * 3 = 7/3 damage per wound.
    gun = W("g", attacks=6, skill=None, strength=8, ap=0, damage="D3")
    sim = simulate(gun, mh.Target(models=1, toughness=4, save=7, wounds=999), trials=TRIALS,
                   seed=9, reroll_damage="ones")
    assert _within(6 * F(5, 6) * F(7, 3), sim, "damage")[0]
    assert not _within(6 * F(5, 6) * 2, sim, "damage")[0]  # without the re-roll: 2 a wound


def test_monte_carlo_rejects_a_wrong_answer():
    # The exact mean of BS4+ (10 * 1/2 = 5 hits) must fall far outside the band of a BS3+ run.
    gun = W("g", attacks=10, skill=3, strength=4, ap=0, damage=1)
    sim = simulate(gun, mh.Target(models=5, toughness=4, save=4, wounds=1), trials=TRIALS, seed=7)
    assert _within(F(20, 3), sim, "hits")[0]
    assert not _within(F(5), sim, "hits")[0]
