"""The engine against the independent die-by-die oracle (``tests/bruteforce.py``), exactly.

Every marginal PMF (attacks, hits, wounds, unsaved, mortal, damage, kills) and the final
target state must be equal as Fractions, for hand-picked cases that cover each ability and
option (alone and in combination) and for random tiny scenarios. The hand-derived tests at
the end check both the oracle and the engine against arithmetic done by hand.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from bruteforce import brute_force, engine_dicts
from hypothesis import HealthCheck, given, settings
from strategies import tiny_scenarios

import mathhammer as mh

W, T = mh.Weapon, mh.Target


def weapon(attacks=1, skill=3, strength=4, ap=0, damage=1, abilities=(), range=24, name="w"):
    return W(name, attacks=attacks, skill=skill, strength=strength, ap=ap, damage=damage,
             abilities=list(abilities), range=range)


def target(models=1, toughness=4, save=4, wounds=1, **kw):
    return T(models=models, toughness=toughness, save=save, wounds=wounds, **kw)


def assert_same(profiles, tgt, start=None, **options):
    """The engine's result equals the oracle's, distribution by distribution."""
    oracle = brute_force(profiles, tgt, start=start, **options)
    state = None if start is None else mh.PMF.point(mh.TargetState(*start))
    result = mh.attack(profiles, tgt, state=state, **options)
    got, want = engine_dicts(result), oracle.dicts()
    for name in want:
        assert got[name] == want[name], f"{name}: engine {got[name]} != oracle {want[name]}"
    assert result.destroyed == oracle.destroyed
    return oracle


MEQ = target(models=2, toughness=4, save=3, wounds=2)
GEQ = target(models=3, toughness=3, save=5, wounds=1, keywords=["INFANTRY"])
TANK = target(models=1, toughness=9, save=3, wounds=6, keywords=["VEHICLE"], invuln=5)

CASES = {
    # --- hit roll -----------------------------------------------------------------------
    "plain": ([(weapon(attacks=2), 1)], MEQ, {}),
    "dice attacks": ([(weapon(attacks="D3"), 1)], GEQ, {}),
    "skill none": ([(weapon(attacks=2, skill=None), 1)], GEQ, {}),
    "torrent": ([(weapon(attacks="D3", skill=4, abilities=["torrent"]), 1)], GEQ, {}),
    "hit mod +2 capped": ([(weapon(attacks=2, skill=4), 1)], GEQ, {"hit_mod": 2}),
    "hit mod -2 capped": ([(weapon(attacks=2, skill=3), 1)], GEQ, {"hit_mod": -2}),
    "skill_mod uncapped": ([(weapon(attacks=2, skill=5), 1)], GEQ, {"skill_mod": 2}),
    "skill worse to 7+": ([(weapon(attacks=2, skill=6), 1)], GEQ,
                          {"skill_mod": -1, "abilities": ["sustained hits 1"]}),
    "crit hit 5 sustained": ([(weapon(attacks=2, abilities=["sustained hits 1"]), 1)], GEQ,
                             {"crit_hit": 5}),
    "sustained D3": ([(weapon(attacks=1, abilities=["sustained hits D3"]), 1)], GEQ, {}),
    "sustained 2 + lethal": ([(weapon(attacks=2, strength=3, abilities=[
        "sustained hits 2", "lethal hits"]), 1)], target(models=2, toughness=6, save=4,
                                                       wounds=2), {}),
    "lethal vs dev (lethal is no crit wound)": ([(weapon(
        attacks=2, abilities=["lethal hits", "devastating wounds"]), 1)], MEQ, {}),
    "unmodified 1 misses at 2+ with +1": ([(weapon(attacks=2, skill=2), 1)], GEQ,
                                          {"hit_mod": 1}),
    "reroll hits ones": ([(weapon(attacks=2), 1)], GEQ, {"reroll_hits": "ones"}),
    "reroll hits failed": ([(weapon(attacks=2), 1)], GEQ, {"reroll_hits": "failed"}),
    "reroll hits noncrit + sustained": ([(weapon(attacks=2, abilities=["sustained hits 1"]),
                                          1)], GEQ, {"reroll_hits": "noncrit"}),
    "reroll failed with -1": ([(weapon(attacks=2, skill=3), 1)], GEQ,
                              {"reroll_hits": "failed", "hit_mod": -1}),
    "overwatch": ([(weapon(attacks=3, skill=2), 1)], GEQ, {"overwatch": True}),
    "overwatch crit 5 lethal": ([(weapon(attacks=2, skill=2, abilities=["lethal hits"]), 1)],
                                GEQ, {"overwatch": True, "crit_hit": 5}),
    "overwatch reroll": ([(weapon(attacks=2, skill=3), 1)], GEQ,
                         {"overwatch": True, "reroll_hits": "failed"}),
    "overwatch torrent": ([(weapon(attacks=2, abilities=["torrent"]), 1)], GEQ,
                          {"overwatch": True}),
    "stealth": ([(weapon(attacks=2), 1)], target(models=2, abilities=["stealth"]), {}),
    "stealth melee": ([(weapon(attacks=2, range="melee"), 1)],
                      target(models=2, abilities=["stealth"]), {}),
    "heavy stationary": ([(weapon(attacks=2, skill=4, abilities=["heavy"]), 1)], GEQ,
                         {"stationary": True}),
    "heavy moved": ([(weapon(attacks=2, skill=4, abilities=["heavy"]), 1)], GEQ, {}),
    "heavy + stealth cancel": ([(weapon(attacks=2, skill=4, abilities=["heavy"]), 1)],
                               target(models=2, abilities=["stealth"]), {"stationary": True}),
    "heavy melee": ([(weapon(attacks=2, skill=4, abilities=["heavy"], range="melee"), 1)], GEQ,
                    {"stationary": True}),
    "unmodified 2+ hits at BS5+ -1": ([(weapon(attacks=2, skill=5), 1)], GEQ,
                                      {"unmodified_hits_on": 2, "hit_mod": -1}),
    "unmodified 4+ + reroll failed": ([(weapon(attacks=2, skill=6), 1)], GEQ,
                                      {"unmodified_hits_on": 4, "reroll_hits": "failed",
                                       "crit_hit": 5}),
    "ignore hit penalties": ([(weapon(attacks=2, skill=4, abilities=["heavy"]), 1)],
                             target(models=2, abilities=["stealth"]),
                             {"ignore_hit_modifiers": True, "hit_mod": -1, "stationary": True}),
    "ignore hit modifiers keeps a bonus": ([(weapon(attacks=2, skill=4), 1)], GEQ,
                                           {"ignore_hit_modifiers": True, "hit_mod": 1}),
    "ignore skill penalties": ([(weapon(attacks=2, skill=3), 1)], GEQ,
                               {"ignore_skill_modifiers": True, "skill_mod": -2}),
    "ignore wound penalties": ([(weapon(attacks=2, strength=5, abilities=["lance"]), 1)], MEQ,
                               {"ignore_wound_modifiers": True, "wound_mod": -1,
                                "wound_mod_if_stronger": -1, "charged": True}),
    "unmodified 3+ overwatch": ([(weapon(attacks=2, skill=2, abilities=["lethal hits"]), 1)],
                                GEQ, {"unmodified_hits_on": 3, "overwatch": True}),
    # --- number of attacks --------------------------------------------------------------
    "rapid fire half": ([(weapon(attacks=1, abilities=["rapid fire 1"]), 2)], GEQ,
                        {"half_range": True}),
    "rapid fire far": ([(weapon(attacks=1, abilities=["rapid fire 1"]), 2)], GEQ, {}),
    "rapid fire D3": ([(weapon(attacks=1, abilities=["rapid fire D3"]), 1)], GEQ,
                      {"half_range": True}),
    "blast vs 4": ([(weapon(attacks=1, abilities=["blast"]), 1)], target(models=4), {}),
    "blast vs 5": ([(weapon(attacks=1, abilities=["blast"]), 1)], target(models=5), {}),
    "blast vs 9": ([(weapon(attacks=1, abilities=["blast"]), 1)], target(models=9), {}),
    "blast vs 10": ([(weapon(attacks=1, skill=5, abilities=["blast"]), 1)],
                    target(models=10), {}),
    "blast 2 vs 5": ([(weapon(attacks=1, skill=5, abilities=["blast 2"]), 1)],
                     target(models=5), {}),
    "cleave 1 vs 10": ([(weapon(attacks=1, skill=5, abilities=["cleave 1"], range="melee"), 1)],
                       target(models=10), {}),
    "cleave 2 vs 4": ([(weapon(attacks=1, abilities=["cleave 2"], range="melee"), 1)],
                      target(models=4), {}),
    "double attacks D3": ([(weapon(attacks="D3", skill=5), 1)], GEQ, {"double_attacks": True}),
    "halve attacks D3 + 1": ([(weapon(attacks="D3"), 2)], GEQ,
                             {"halve_attacks": True, "attacks_mod": 1}),
    "halve and double": ([(weapon(attacks=3, skill=5), 1)], GEQ,
                         {"halve_attacks": True, "double_attacks": True}),
    "double with -1 and rapid fire": ([(weapon(attacks=1, abilities=["rapid fire 1"]), 1)], GEQ,
                                      {"double_attacks": True, "attacks_mod": -1,
                                       "half_range": True}),
    # --- wound roll ---------------------------------------------------------------------
    "S vs T table": ([(weapon(attacks=1, strength=s), 1) for s in (1, 2, 3, 4, 5, 8)],
                     target(models=3, toughness=4, save=7), {}),
    "strength_mod": ([(weapon(attacks=2, strength=4), 1)], GEQ, {"strength_mod": 4}),
    "wound mod capped": ([(weapon(attacks=2, strength=4), 1)], MEQ, {"wound_mod": 2}),
    "wound mod if stronger": ([(weapon(attacks=2, strength=5), 1)], MEQ,
                              {"wound_mod_if_stronger": -1}),
    "wound mod if not stronger": ([(weapon(attacks=2, strength=4), 1)], MEQ,
                                  {"wound_mod_if_stronger": -1}),
    "unmodified 1 fails at 2+ with +1": ([(weapon(attacks=2, strength=8), 1)], MEQ,
                                         {"wound_mod": 1}),
    "reroll wounds ones": ([(weapon(attacks=2), 1)], MEQ, {"reroll_wounds": "ones"}),
    "reroll wounds failed": ([(weapon(attacks=2), 1)], MEQ, {"reroll_wounds": "failed"}),
    "reroll wounds noncrit + dev": ([(weapon(attacks=2, abilities=["devastating wounds"]), 1)],
                                    MEQ, {"reroll_wounds": "noncrit"}),
    "twin-linked": ([(weapon(attacks=2, abilities=["twin-linked"]), 1)], MEQ, {}),
    "twin-linked + reroll ones": ([(weapon(attacks=2, abilities=["twin-linked"]), 1)], MEQ,
                                  {"reroll_wounds": "ones"}),
    "twin-linked + noncrit dev": ([(weapon(attacks=2, abilities=[
        "twin-linked", "devastating wounds"]), 1)], MEQ, {"reroll_wounds": "noncrit"}),
    "lance charged": ([(weapon(attacks=2, abilities=["lance"], range="melee"), 1)], MEQ,
                      {"charged": True}),
    "lance not charged": ([(weapon(attacks=2, abilities=["lance"]), 1)], MEQ, {}),
    "lance + wound_mod capped": ([(weapon(attacks=2, abilities=["lance"]), 1)], MEQ,
                                 {"charged": True, "wound_mod": 1}),
    "anti matches": ([(weapon(attacks=2, strength=3, abilities=["anti-infantry 4+"]), 1)],
                     target(models=2, toughness=6, keywords=["Infantry"]), {}),
    "anti no match": ([(weapon(attacks=2, strength=3, abilities=["anti-vehicle 2+"]), 1)],
                      GEQ, {}),
    "anti + dev": ([(weapon(attacks=2, strength=3, damage=2, abilities=[
        "anti-vehicle 4+", "devastating wounds"]), 1)], TANK, {}),
    "anti lowest wins": ([(weapon(attacks=2, abilities=["anti-infantry 5+", "anti-infantry 3+"]),
                           1)], GEQ, {}),
    "anti vs crit_wound 5": ([(weapon(attacks=2, abilities=["anti-infantry 4+"]), 1)], GEQ,
                             {"crit_wound": 5}),
    "crit wound 5 dev": ([(weapon(attacks=2, damage=2, abilities=["devastating wounds"]), 1)],
                         MEQ, {"crit_wound": 5}),
    # --- saves --------------------------------------------------------------------------
    "AP": ([(weapon(attacks=2, ap=-2), 1)], MEQ, {}),
    "ap_mod improves": ([(weapon(attacks=2, ap=-1), 1)], MEQ, {"ap_mod": 1}),
    "ap_mod worsens never above 0": ([(weapon(attacks=2, ap=-1), 1)], MEQ, {"ap_mod": -2}),
    "cover AP0 vs 3+": ([(weapon(attacks=2), 1)], MEQ, {"cover": True}),
    "cover AP0 vs 4+": ([(weapon(attacks=2), 1)], target(models=2, save=4), {"cover": True}),
    "cover AP-1 vs 3+": ([(weapon(attacks=2, ap=-1), 1)], MEQ, {"cover": True}),
    "cover ignored": ([(weapon(attacks=2, ap=-1, abilities=["ignores cover"]), 1)], MEQ,
                      {"cover": True}),
    "cover melee": ([(weapon(attacks=2, ap=-1, range="melee"), 1)], MEQ, {"cover": True}),
    "cover capped with save_mod": ([(weapon(attacks=2, ap=0), 1)], target(models=2, save=5),
                                   {"cover": True, "save_mod": 1}),
    "cover after ap_mod": ([(weapon(attacks=2, ap=-1), 1)], MEQ,
                           {"cover": True, "ap_mod": -1}),
    "save 7+": ([(weapon(attacks=2), 1)], target(models=2, save=7), {"save_mod": 1}),
    "save 2+ can't improve to 1+": ([(weapon(attacks=2), 1)], target(models=2, save=2),
                                    {"save_mod": 2}),
    "invuln better than armour": ([(weapon(attacks=2, ap=-3), 1)],
                                  target(models=2, save=3, invuln=4), {}),
    "armour better than invuln": ([(weapon(attacks=2, ap=-1), 1)],
                                  target(models=2, save=2, invuln=5), {}),
    "invuln with save_mod -1": ([(weapon(attacks=2, ap=-4), 1)],
                                target(models=2, save=3, invuln=4), {"save_mod": -1}),
    "invuln with save_mod +2": ([(weapon(attacks=2, ap=-4), 1)],
                                target(models=2, save=3, invuln=5), {"save_mod": 2}),
    "crit_wound_ap": ([(weapon(attacks=2, ap=0), 1)], MEQ, {"crit_wound_ap": 2}),
    "crit_wound_ap + cover": ([(weapon(attacks=2, ap=0), 1)], MEQ,
                              {"crit_wound_ap": 1, "cover": True}),
    "crit_wound_ap + lethal (no crit wound)": ([(weapon(attacks=2, strength=2, abilities=[
        "lethal hits"]), 1)], MEQ, {"crit_wound_ap": 2, "crit_hit": 5}),
    "invuln 2+ with save_mod +1": ([(weapon(attacks=2, ap=-2), 1)],
                                   target(models=2, save=3, invuln=2), {"save_mod": 1}),
    "crit_wound_ap + anti": ([(weapon(attacks=2, abilities=["anti-infantry 4+"]), 1)],
                             target(models=2, save=3, keywords=["INFANTRY"]),
                             {"crit_wound_ap": 1}),
    # --- damage -------------------------------------------------------------------------
    "damage D3 multi-wound": ([(weapon(attacks=2, ap=-1, damage="D3"), 1)],
                              target(models=2, save=3, wounds=3), {}),
    "damage D6 FNP": ([(weapon(attacks=2, strength=8, ap=-2, damage="D6"), 1)],
                      target(models=2, toughness=4, save=3, wounds=4, fnp=5), {}),
    "damage 2 vs W3 FNP 6": ([(weapon(attacks=3, damage=2), 1)],
                             target(models=2, save=5, wounds=3, fnp=6), {}),
    "melta half": ([(weapon(attacks=2, strength=9, ap=-4, damage="D6",
                            abilities=["melta 2"]), 1)], TANK, {"half_range": True}),
    "melta far": ([(weapon(attacks=2, strength=9, ap=-4, damage="D6",
                           abilities=["melta 2"]), 1)], TANK, {}),
    "melta D3 + halve": ([(weapon(attacks=2, strength=9, ap=-4, damage="D6",
                                  abilities=["melta D3"]), 1)], TANK,
                         {"half_range": True, "halve_damage": True}),
    "halve + damage_mod floor 1": ([(weapon(attacks=2, damage="D3"), 1)],
                                   target(models=2, wounds=3), {"halve_damage": True,
                                                                "damage_mod": -1}),
    "damage_mod +1": ([(weapon(attacks=2, damage="D3"), 1)], target(models=2, wounds=3),
                      {"damage_mod": 1}),
    "reroll damage ones D3": ([(weapon(attacks=2, damage="D3"), 1)], target(models=2, wounds=3),
                              {"reroll_damage": "ones"}),
    "reroll damage ones D6+1": ([(weapon(attacks=2, strength=8, damage="D6+1"), 1)],
                                target(models=2, wounds=5), {"reroll_damage": "ones"}),
    "reroll damage ones 2D3 (never 1)": ([(weapon(attacks=1, strength=8, damage="2D3"), 1)],
                                         target(models=2, wounds=4), {"reroll_damage": "ones"}),
    "reroll damage any D6 vs W3": ([(weapon(attacks=2, strength=8, damage="D6"), 1)],
                                   target(models=2, save=5, wounds=3), {"reroll_damage": "any"}),
    "reroll damage any D6 FNP5 W4": ([(weapon(attacks=2, strength=8, ap=-2, damage="D6"), 1)],
                                     target(models=2, save=3, wounds=4, fnp=5),
                                     {"reroll_damage": "any"}),
    "reroll damage any melta halved": ([(weapon(attacks=2, strength=9, ap=-4, damage="D6",
                                                abilities=["melta D3"]), 1)], TANK,
                                       {"reroll_damage": "any", "half_range": True,
                                        "halve_damage": True}),
    "reroll damage any fixed D": ([(weapon(attacks=2, damage=2), 1)], MEQ,
                                  {"reroll_damage": "any"}),
    "reroll damage any + dev": ([(weapon(attacks=2, damage="D3", abilities=[
        "devastating wounds", "sustained hits 1"]), 1)], target(models=2, save=3, wounds=3),
        {"reroll_damage": "any", "crit_wound": 5}),
    "fnp mortal vs dev": ([(weapon(attacks=2, damage="D3", abilities=["devastating wounds"]),
                            1)], target(models=2, save=3, wounds=2, fnp=6, fnp_mortal=4),
                          {"crit_wound": 4}),
    "fnp mortal worse than fnp": ([(weapon(attacks=2, damage=2, abilities=[
        "devastating wounds"]), 1)], target(models=2, save=3, wounds=2, fnp=4, fnp_mortal=6),
        {"crit_wound": 5}),
    "fnp psychic vs psychic weapon": ([(weapon(attacks=2, damage="D3", abilities=[
        "psychic", "devastating wounds"]), 1)], target(models=2, wounds=2, fnp_psychic=4,
                                                       fnp_mortal=5), {}),
    "fnp psychic vs other weapon": ([(weapon(attacks=2, damage="D3"), 1)],
                                    target(models=2, wounds=2, fnp_psychic=4), {}),
    # --- devastating wounds and allocation ----------------------------------------------
    "dev + FNP": ([(weapon(attacks=2, damage="D3", abilities=["devastating wounds"]), 1)],
                  target(models=2, save=2, wounds=2, fnp=5), {"crit_wound": 5}),
    "dev excess lost vs W1": ([(weapon(attacks=2, damage=3, abilities=["devastating wounds"]),
                                1)], target(models=3, save=2, wounds=1), {"crit_wound": 4}),
    "dev after normal damage": ([(weapon(attacks=1, skill=None, damage=1, abilities=[
        "anti-infantry 2+", "devastating wounds"], name="a"), 1),
        (weapon(attacks=1, skill=None, strength=8, damage=2, name="b"), 1)],
        target(models=2, save=7, wounds=2, keywords=["INFANTRY"]), {}),
    "two weapons dev on both": ([(weapon(attacks=1, damage=2, abilities=[
        "devastating wounds"], name="a"), 1), (weapon(attacks=1, strength=8, damage="D3",
                                                      abilities=["devastating wounds"],
                                                      name="b"), 1)],
        target(models=3, save=3, wounds=2, fnp=6), {"crit_wound": 5}),
    "weapon order carries state": ([(weapon(attacks=1, damage=2, name="a"), 2),
                                    (weapon(attacks=1, damage=1, name="b"), 1)],
                                   target(models=2, save=5, wounds=3), {}),
    "sustained + dev + lethal": ([(weapon(attacks=2, damage=2, abilities=[
        "sustained hits 1", "lethal hits", "devastating wounds"]), 1)],
        target(models=2, save=3, wounds=2), {}),
    "options abilities": ([(weapon(attacks=2), 1)], MEQ,
                          {"abilities": ["lethal hits", "sustained hits 1"]}),
    "wipe out, counters go on": ([(weapon(attacks=3, skill=2, strength=8, ap=-3, damage=2,
                                          abilities=["devastating wounds"]), 1)],
                                 target(models=1, save=4, wounds=1), {}),
    "melee vs ranged options": ([(weapon(attacks=2, ap=-1, range="melee",
                                         abilities=["heavy"]), 1)],
                                target(models=2, save=4, abilities=["stealth"]),
                                {"cover": True, "stationary": True}),
    "everything at once": ([(weapon(attacks="D3", skill=4, strength=5, ap=-1, damage="D3",
                                    abilities=["sustained hits 1", "twin-linked", "melta 1",
                                               "anti-infantry 5+", "devastating wounds"]), 1)],
                           target(models=2, toughness=4, save=3, wounds=3, invuln=5, fnp=6,
                                  keywords=["INFANTRY"]),
                           {"half_range": True, "reroll_hits": "ones", "cover": True,
                            "crit_wound_ap": 1, "damage_mod": -1}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_engine_matches_brute_force(name):
    profiles, tgt, options = CASES[name]
    assert_same(profiles, tgt, **options)


@pytest.mark.parametrize("start", [(2, 1), (1, 2), (3, 0)])
def test_engine_matches_brute_force_from_a_damaged_state(start):
    assert_same([(weapon(attacks=2, ap=-1, damage="D3", abilities=["devastating wounds",
                                                                    "blast"]), 1)],
                target(models=5, save=4, wounds=3, fnp=6), start=start, crit_wound=5)


@pytest.mark.parametrize("start", [(2, 1), (1, 2), (3, 3)])
def test_damage_rerolls_match_brute_force_from_a_damaged_state(start):
    # the re-roll is decided against the model in front, with the wounds it has left
    assert_same([(weapon(attacks=2, strength=8, ap=-1, damage="D6", abilities=[
        "devastating wounds"]), 1)], target(models=3, save=4, wounds=4, fnp_mortal=5),
        start=start, crit_wound=5, reroll_damage="any")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_scenarios())
def test_engine_matches_brute_force_on_random_tiny_scenarios(scenario):
    profiles, tgt, options = scenario
    assert_same(profiles, tgt, **options)


# --- hand-derived values (checked against both the oracle and the engine) ------------------


def both(profiles, tgt, **options):
    return assert_same(profiles, tgt, **options)


def test_five_bolter_shots_at_one_wound_models():
    # BS3+ S4 vs T4 AP0 vs Sv3+ D1: each attack kills with 2/3 * 1/2 * 1/3 = 1/9.
    o = both([(weapon(attacks=5), 1)], target(models=5, save=3))
    assert sum(k * p for k, p in o.kills.items()) == F(5, 9)
    assert o.kills[0] == F(8, 9) ** 5
    assert o.kills[5] == F(1, 9) ** 5
    assert o.hits[5] == F(2, 3) ** 5


def test_sustained_hits_one_at_bs4():
    # 1, 2, 3 miss (1/2); 4, 5 hit (1/3); 6 is a Critical Hit: 1 + 1 hits (1/6).
    o = both([(weapon(skill=4, abilities=["sustained hits 1"]), 1)], GEQ)
    assert o.hits == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}


def test_hit_rerolls_at_bs3():
    # failed: 2/3 + 1/3 * 2/3 = 8/9; ones: 2/3 + 1/6 * 2/3 = 7/9;
    # noncrit re-rolls 2-5 too: 1/6 + 5/6 * 2/3 = 13/18 hits, 1/6 + 5/6 * 1/6 = 11/36 crits.
    for policy, p in (("failed", F(8, 9)), ("ones", F(7, 9)), ("noncrit", F(13, 18))):
        assert both([(weapon(), 1)], GEQ, reroll_hits=policy).hits[1] == p
    o = both([(weapon(abilities=["sustained hits 1"]), 1)], GEQ, reroll_hits="noncrit")
    assert o.hits[2] == F(11, 36)


def test_lethal_hits_against_a_six_to_wound():
    # S1 vs T10 wounds on 6+. BS4+: a 6 (1/6) wounds automatically, a 4 or 5 (1/3) wounds
    # on a 6: 1/6 + 1/3 * 1/6 = 2/9 wounds.
    o = both([(weapon(skill=4, strength=1, abilities=["lethal hits"]), 1)],
             target(toughness=10, save=7))
    assert o.wounds == {0: F(7, 9), 1: F(2, 9)}


def test_devastating_wounds_destroy_one_model_each():
    # Torrent S4 vs T4 vs Sv2+, 2 models of W1: a 6 to wound (1/6) is D3 mortal wounds that
    # destroy one model at most; a 4 or 5 (1/3) fails its 2+ save on a 1 (1/6).
    # P(1 kill) = 1/6 + 1/3 * 1/6 = 2/9.
    o = both([(weapon(skill=None, damage="D3", abilities=["devastating wounds"]), 1)],
             target(models=2, save=2))
    assert o.kills == {0: F(7, 9), 1: F(2, 9)}
    assert o.mortal == {0: F(5, 6), 1: F(1, 18), 2: F(1, 18), 3: F(1, 18)}
    assert o.unsaved == {0: F(17, 18), 1: F(1, 18)}


def test_feel_no_pain_per_wound():
    # Torrent S8 vs T4 (2+ to wound: 5/6), no save, D3 vs W3, FNP 5+: each point is lost
    # with 2/3, so the model dies with 5/6 * (2/3)**3 = 20/81.
    o = both([(weapon(skill=None, strength=8, damage=3), 1)], target(save=7, wounds=3, fnp=5))
    assert o.kills[1] == F(20, 81)
    # damage 1: 5/6 * 3 * 2/3 * (1/3)**2 = 5/27
    assert o.damage[1] == F(5, 27)


def test_cover():
    # Torrent S8 (5/6 to wound). AP0 vs Sv3+: no cover, fails 1/3 -> 5/18. Sv4+: 3+ in cover,
    # 5/18. AP-1 vs Sv3+: cover makes it 3+ again, 5/18.
    for ap, save in ((0, 3), (0, 4), (-1, 3)):
        o = both([(weapon(skill=None, strength=8, ap=ap), 1)], target(save=save), cover=True)
        assert o.unsaved[1] == F(5, 18)


def test_invulnerable_save_taken_when_better():
    # AP-4 vs Sv3+ (7+: no armour save) with a 4+ invulnerable: fails 1/2, 5/6 * 1/2 = 5/12.
    o = both([(weapon(skill=None, strength=8, ap=-4), 1)], target(save=3, invuln=4))
    assert o.unsaved[1] == F(5, 12)


def test_melta_after_halving():
    # D6 halved rounding up is 1, 2, 3 (1/3 each); + Melta 2 is 3, 4, 5. S8 vs T4 wounds 5/6,
    # no save, W4: destroyed with 5/6 * 2/3 = 5/9.
    o = both([(weapon(skill=None, strength=8, damage="D6", abilities=["melta 2"]), 1)],
             target(save=7, wounds=4), half_range=True, halve_damage=True)
    assert o.kills[1] == F(5, 9)


def test_blast_adds_one_attack_per_five_models():
    for models, attacks in ((4, 2), (5, 3), (9, 3), (10, 4)):
        o = both([(weapon(attacks=2, skill=6, abilities=["blast"]), 1)], target(models=models))
        assert o.attacks == {attacks: 1}


def test_overwatch_hits_only_on_six():
    # BS2+ with +1 and critical hits on 5+: still only a 6 hits.
    o = both([(weapon(attacks=2, skill=2), 1)], GEQ, overwatch=True, hit_mod=1, crit_hit=5)
    assert o.hits == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}


def test_twin_linked_with_reroll_ones_rerolls_failures():
    # S4 vs T4 torrent: 1/2 + 1/2 * 1/2 = 3/4.
    o = both([(weapon(skill=None, abilities=["twin-linked"]), 1)], MEQ, reroll_wounds="ones")
    assert o.wounds[1] == F(3, 4)


def test_lance_on_the_charge():
    # S4 vs T4 torrent: 3+ with Lance on the charge (2/3), 4+ otherwise.
    w = weapon(skill=None, abilities=["lance"], range="melee")
    assert both([(w, 1)], MEQ, charged=True).wounds[1] == F(2, 3)
    assert both([(w, 1)], MEQ).wounds[1] == F(1, 2)


def test_critical_wound_ap():
    # S4 vs T4, Sv4+ AP0, a Critical Wound gets AP-2: a 6 (1/6) then fails its 6+ save 5/6;
    # a 4 or 5 (1/3) fails its 4+ save 1/2: 5/36 + 6/36 = 11/36.
    o = both([(weapon(skill=None), 1)], target(save=4), crit_wound_ap=2)
    assert o.unsaved[1] == F(11, 36)


def test_devastating_wounds_after_all_normal_damage():
    # Two W2 models. Weapon a (torrent, Anti 2+, Dev, D1) makes a Devastating Wound on 2+ (5/6);
    # weapon b (torrent S8, D2, no save) wounds on 2+ (5/6). b's damage goes first, so with both
    # the first model is destroyed and the second loses 1: state (1, 1) with 25/36.
    o = both(*CASES["dev after normal damage"][:2])
    assert o.state == {(1, 1): F(25, 36), (2, 1): F(5, 36), (1, 0): F(5, 36), (2, 0): F(1, 36)}


def test_double_and_halved_attacks_follow_the_modifier_order():
    # Division, then multiplication, then addition (the core rules' order): A3 doubled with +1
    # is 3 * 2 + 1 = 7; A3 halved is 3 / 2 = 1.5, rounded up 2, + 1 = 3; halved and doubled
    # it stays 3 (the fraction is gone before it is rounded).
    w = weapon(attacks=3, skill=6)
    assert both([(w, 1)], GEQ, double_attacks=True, attacks_mod=1).attacks == {7: 1}
    assert both([(w, 1)], GEQ, halve_attacks=True, attacks_mod=1).attacks == {3: 1}
    assert both([(w, 1)], GEQ, halve_attacks=True, double_attacks=True).attacks == {3: 1}
    # A D6 halved: 1, 1, 2, 2, 3, 3 (each 1/3 of 1, 2 and 3)
    o = both([(weapon(attacks="D6", skill=6), 1)], GEQ, halve_attacks=True)
    assert o.attacks == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}


def test_cleave_adds_attacks_per_five_models():
    # The 11e rule's example: [CLEAVE 1], A3, a unit of 16 models: 3 + 16 // 5 = 6 attacks.
    w = weapon(attacks=3, skill=6, abilities=["cleave 1"], range="melee")
    assert both([(w, 1)], target(models=16)).attacks == {6: 1}
    # [CLEAVE 2] and [BLAST 1] against 10 models: 3 + 2 * 2 + 2 = 9
    w = weapon(attacks=3, skill=6, abilities=["cleave 2", "blast"])
    assert both([(w, 1)], target(models=10)).attacks == {9: 1}


def test_an_unmodified_hit_roll_of_two_plus_always_hits():
    # BS5+ with -1 would hit on a 6 only; "scores a hit on an unmodified Hit roll of 2+" hits
    # on 2-5 (4/6) and the 6 is a Critical Hit (1/6): only the 1 misses.
    o = both([(weapon(skill=5), 1)], GEQ, hit_mod=-1, unmodified_hits_on=2)
    assert o.hits == {0: F(1, 6), 1: F(5, 6)}


def test_ignoring_hit_and_wound_penalties():
    # BS4+ with -1 and Stealth: -2, capped to -1, so it hits on 5+ (1/3); ignoring the
    # penalties it hits on 4+ (1/2).
    w = weapon(skill=4)
    stealthy = target(abilities=["stealth"])
    assert both([(w, 1)], stealthy, hit_mod=-1).hits[1] == F(1, 3)
    assert both([(w, 1)], stealthy, hit_mod=-1, ignore_hit_modifiers=True).hits[1] == F(1, 2)
    # S5 vs T4 (3+) with -1 and -1 if stronger (capped -1: 4+): ignored, 3+ again (2/3)
    o = both([(weapon(skill=None, strength=5), 1)], MEQ, wound_mod=-1, wound_mod_if_stronger=-1,
             ignore_wound_modifiers=True)
    assert o.wounds[1] == F(2, 3)


def test_damage_rerolls():
    # Torrent S8 (5/6 to wound), no save, D6 into one W3 model. Kept, it dies on 3+ (4/6):
    # 5/6 * 2/3 = 5/9. Re-rolling a 1 or a 2 (a fresh roll takes (1 + 2 + 3 * 4) / 6 = 5/2
    # wounds, more than 1 or 2; 3+ takes all 3): 4/6 + 2/6 * 4/6 = 8/9, so 5/6 * 8/9 = 20/27.
    w = weapon(skill=None, strength=8, damage="D6")
    assert both([(w, 1)], target(save=7, wounds=3)).kills[1] == F(5, 9)
    assert both([(w, 1)], target(save=7, wounds=3), reroll_damage="any").kills[1] == F(20, 27)
    # With 1 wound lost (2 left) only the 1 is worth re-rolling: 5/6 + 1/6 * 5/6 = 35/36
    o = both([(w, 1)], target(save=7, wounds=3), start=(1, 1), reroll_damage="any")
    assert o.kills[1] == F(5, 6) * F(35, 36)
    # "re-roll a Damage roll of 1" on a D3 into W3: 1 with 1/3 * 1/3, 2 and 3 with 4/9 each;
    # the damage averages 5/6 * (1/9 + 8/9 + 12/9) = 5/6 * 7/3 = 35/18.
    o = both([(weapon(skill=None, strength=8, damage="D3"), 1)], target(save=7, wounds=3),
             reroll_damage="ones")
    assert o.damage == {0: F(1, 6), 1: F(5, 54), 2: F(20, 54), 3: F(20, 54)}


def test_feel_no_pain_against_mortal_wounds_and_psychic_attacks():
    # Torrent Anti-INFANTRY 2+ Devastating D1 into a W1 INFANTRY model with a 4+ Feel No Pain
    # against mortal wounds: a Critical Wound on 2+ (5/6), then lost on 1-3: 5/6 * 1/2 = 5/12.
    dev = weapon(skill=None, abilities=["anti-infantry 2+", "devastating wounds"])
    tgt = target(save=7, keywords=["INFANTRY"], fnp_mortal=4)
    assert both([(dev, 1)], tgt).kills[1] == F(5, 12)
    # normal damage does not get it: torrent S8, no save: 5/6
    assert both([(weapon(skill=None, strength=8), 1)], tgt).kills[1] == F(5, 6)
    # a Psychic weapon's attacks get the Feel No Pain against Psychic Attacks: 5/6 * 1/2
    psychic = weapon(skill=None, strength=8, abilities=["psychic"])
    assert both([(psychic, 1)], target(save=7, fnp_psychic=4)).kills[1] == F(5, 12)
