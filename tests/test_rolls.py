"""Hit roll, wound roll, saving throw, damage and Feel No Pain: hand-derived values."""

from fractions import Fraction as F

import pytest

from mathhammer import PMF, Options, Target, Weapon, load_ruleset
from mathhammer.mechanics.damage import damage_roll, feel_no_pain
from mathhammer.mechanics.rolls import (
    CRITICAL,
    FAIL,
    SUCCESS,
    d6_roll,
    hit_roll,
    saving_throw,
    wound_roll,
)

R10 = load_ruleset("10e")
MEQ = Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])


def gun(skill=3, strength=4, ap=0, damage=1, abilities=(), range=24):
    return Weapon("gun", attacks=1, skill=skill, strength=strength, ap=ap, damage=damage,
                  abilities=abilities, range=range)


def hit(weapon=None, target=MEQ, **options):
    return hit_roll(weapon or gun(), target, Options(**options), R10)


def wound(weapon=None, target=MEQ, **options):
    return wound_roll(weapon or gun(), target, Options(**options), R10)


def unsaved(weapon=None, target=MEQ, critical=False, **options):
    return saving_throw(weapon or gun(), target, Options(**options), R10, critical).prob(FAIL)


# --- hit roll ------------------------------------------------------------------------------
def test_bs3_plain():
    assert dict(hit()) == {FAIL: F(2, 6), SUCCESS: F(3, 6), CRITICAL: F(1, 6)}


def test_reroll_ones():
    # fail on a natural 2 (1/6) or a 1 re-rolled into a 1 or 2 (1/6 * 2/6)
    assert hit(reroll_hits="ones").prob(FAIL) == F(1, 6) + F(1, 6) * F(2, 6)


def test_reroll_failed():
    assert hit(reroll_hits="failed").prob(FAIL) == F(2, 6) * F(2, 6)


def test_reroll_noncrit_fishes_for_sixes():
    # everything but a 6 is re-rolled: crit 1/6 + 5/6 * 1/6; a hit needs the second die 3-5
    h = hit(reroll_hits="noncrit")
    assert h.prob(CRITICAL) == F(11, 36)
    assert h.prob(SUCCESS) == F(5, 6) * F(3, 6)


def test_modifiers_are_capped_at_plus_and_minus_one():
    assert hit(gun(skill=4), hit_mod=3).prob(FAIL) == F(2, 6)  # 4+ with +1 -> 3+
    assert hit(gun(skill=3), hit_mod=-3).prob(FAIL) == F(3, 6)  # 3+ with -1 -> 4+


def test_unmodified_one_fails_and_six_hits():
    assert hit(gun(skill=2), hit_mod=1).prob(FAIL) == F(1, 6)
    assert hit(gun(skill=6), hit_mod=-1).prob(SUCCESS) == 0
    assert hit(gun(skill=6), hit_mod=-1).prob(CRITICAL) == F(1, 6)


def test_heavy_needs_stationary_and_a_ranged_weapon():
    assert hit(gun(skill=4, abilities=["heavy"]), stationary=True).prob(FAIL) == F(2, 6)
    assert hit(gun(skill=4, abilities=["heavy"])).prob(FAIL) == F(3, 6)
    melee = gun(skill=4, abilities=["heavy"], range="melee")
    assert hit(melee, stationary=True).prob(FAIL) == F(3, 6)


def test_stealth_minus_one_ranged_only_and_inside_the_cap():
    sneaky = Target(models=5, toughness=4, save=3, wounds=2, abilities=["stealth"])
    assert hit(target=sneaky).prob(FAIL) == F(3, 6)
    assert hit(gun(range="melee"), target=sneaky).prob(FAIL) == F(2, 6)
    # Heavy +1 and Stealth -1 cancel
    assert hit(gun(abilities=["heavy"]), target=sneaky, stationary=True).prob(FAIL) == F(2, 6)


def test_overwatch_hits_only_on_six():
    assert dict(hit(gun(skill=2), overwatch=True, hit_mod=1)) == {FAIL: F(5, 6), CRITICAL: F(1, 6)}
    # a lower critical threshold does not let a 5 hit in Overwatch
    assert hit(overwatch=True, crit_hit=5).prob(FAIL) == F(5, 6)
    torrent = gun(abilities=["torrent"])
    assert hit(torrent, overwatch=True) == PMF.point(SUCCESS)


def test_overwatch_on_a_lower_roll():
    # Inescapable Death: hits on an unmodified 2+; 2-5 are ordinary hits, a 6 is critical
    h = hit(gun(skill=4), overwatch=True, overwatch_hits_on=2)
    assert dict(h) == {FAIL: F(1, 6), SUCCESS: F(4, 6), CRITICAL: F(1, 6)}


def test_torrent_and_no_skill_always_hit_never_crit():
    assert hit(gun(abilities=["torrent"])) == PMF.point(SUCCESS)
    assert hit(gun(skill=None)) == PMF.point(SUCCESS)


def test_critical_hit_on_5():
    assert hit(crit_hit=5).prob(CRITICAL) == F(2, 6)


def test_characteristic_changes_are_not_capped_but_bounded():
    assert hit(gun(skill=4), skill_mod=2).prob(FAIL) == F(1, 6)  # 4+ improved twice -> 2+
    assert hit(gun(skill=2), skill_mod=3).prob(FAIL) == F(1, 6)  # never better than 2+
    # 5+ worsened twice is 7+: only a Critical Hit (a 6) lands, a +1 modifier makes 6+ a hit
    assert hit(gun(skill=5), skill_mod=-2).prob(SUCCESS) == 0
    assert hit(gun(skill=5), skill_mod=-2, crit_hit=5, hit_mod=1).prob(CRITICAL) == F(2, 6)


# --- wound roll ----------------------------------------------------------------------------
@pytest.mark.parametrize("strength, need", [(8, 2), (9, 2), (5, 3), (4, 4), (3, 5), (2, 6), (1, 6)])
def test_wound_table_against_t4(strength, need):
    assert wound(gun(strength=strength)).prob(FAIL) == F(need - 1, 6)


def test_anti_keyword():
    anti = gun(strength=3, abilities=["anti-infantry 2+"])
    assert wound(anti).prob(CRITICAL) == F(5, 6)
    tank = Target(models=1, toughness=4, save=3, wounds=10, keywords=["VEHICLE"])
    assert wound(anti, target=tank).prob(CRITICAL) == F(1, 6)
    # several Anti abilities: the lowest X that matches wins; crit_wound=5 is beaten by Anti 3+
    both = gun(abilities=["anti-infantry 4+", "anti-infantry 3+"])
    assert wound(both, crit_wound=5).prob(CRITICAL) == F(4, 6)


def test_twin_linked_rerolls_failed_wounds():
    assert wound(gun(abilities=["twin-linked"])).prob(FAIL) == F(1, 2) * F(1, 2)
    # with "ones" the broader policy (failed) applies; "noncrit" is broader still
    assert wound(gun(abilities=["twin-linked"]), reroll_wounds="ones").prob(FAIL) == F(1, 4)
    twin = gun(abilities=["twin-linked"])
    assert wound(twin, reroll_wounds="noncrit").prob(CRITICAL) == F(11, 36)


def test_lance_on_the_charge():
    lance = gun(strength=4, abilities=["lance"], range="melee")
    t5 = Target(models=1, toughness=5, save=3, wounds=3)
    assert wound(lance, target=t5).prob(FAIL) == F(4, 6)  # 5+
    assert wound(lance, target=t5, charged=True).prob(FAIL) == F(3, 6)  # 4+


def test_minus_one_to_wound_only_when_stronger():
    assert wound(gun(strength=5), wound_mod_if_stronger=-1).prob(FAIL) == F(3, 6)  # 3+ -> 4+
    assert wound(gun(strength=4), wound_mod_if_stronger=-1).prob(FAIL) == F(3, 6)  # S = T: 4+
    assert wound(gun(strength=3), wound_mod_if_stronger=-1).prob(FAIL) == F(4, 6)  # 5+


def test_strength_change_moves_the_row():
    assert wound(gun(strength=4), strength_mod=1).prob(FAIL) == F(2, 6)  # S5 vs T4: 3+


# --- saving throw --------------------------------------------------------------------------
def test_ap_worsens_the_armour_save():
    assert unsaved(gun(ap=-1)) == F(1, 2)  # 3+ -> 4+
    assert unsaved(gun(ap=-4)) == 1  # 7+


def test_ap_mod_improves_and_worsens_never_above_zero():
    assert unsaved(gun(ap=-1), ap_mod=1) == F(4, 6)  # AP -2: 5+
    assert unsaved(gun(ap=-1), ap_mod=-1) == F(2, 6)  # AP 0: 3+
    assert unsaved(gun(ap=0), ap_mod=-2) == F(2, 6)  # still AP 0


def test_critical_wound_improves_ap():
    assert unsaved(gun(ap=-1), critical=True, crit_wound_ap=1) == F(4, 6)
    assert unsaved(gun(ap=-1), critical=False, crit_wound_ap=1) == F(3, 6)


def test_cover():
    assert unsaved(gun(ap=-1), cover=True) == F(2, 6)  # 4+ back to 3+
    assert unsaved(gun(ap=0), cover=True) == F(2, 6)  # Sv 3+ against AP 0: no cover
    geq = Target(models=10, toughness=3, save=5, wounds=1)
    assert unsaved(gun(ap=0), target=geq, cover=True) == F(3, 6)  # 5+ -> 4+
    assert unsaved(gun(ap=0, abilities=["ignores cover"]), target=geq, cover=True) == F(4, 6)
    assert unsaved(gun(ap=0, range="melee"), target=geq, cover=True) == F(4, 6)


def test_save_never_improved_by_more_than_one():
    geq = Target(models=10, toughness=3, save=5, wounds=1)
    assert unsaved(target=geq, cover=True, save_mod=1) == F(3, 6)  # +2 capped to +1: 4+
    assert unsaved(target=Target(models=1, toughness=4, save=2, wounds=1), save_mod=1) == F(1, 6)


def test_invulnerable_save_ignores_ap_and_defender_picks_the_better():
    teq = Target(models=5, toughness=5, save=2, wounds=3, invuln=4)
    assert unsaved(gun(ap=-1), target=teq) == F(2, 6)  # armour 3+ beats 4++
    assert unsaved(gun(ap=-3), target=teq) == F(3, 6)  # armour 5+, invulnerable 4+


def test_no_save():
    nothing = Target(models=1, toughness=3, save=7, wounds=1)
    assert unsaved(target=nothing) == 1
    assert unsaved(target=nothing, cover=True) == F(5, 6)  # cover turns 7+ into 6+


# --- damage and Feel No Pain ---------------------------------------------------------------
def test_damage_halved_rounding_up_then_melta_then_modifier():
    d6 = gun(damage="D6", abilities=["melta 2"])
    assert damage_roll(d6, Options(halve_damage=True)) == PMF.uniform([1, 1, 2, 2, 3, 3])
    assert damage_roll(d6, Options(halve_damage=True, half_range=True)).mean() == 4  # 2 + 2
    assert damage_roll(d6, Options(damage_mod=-1)) == PMF.uniform([1, 1, 2, 3, 4, 5])
    assert damage_roll(gun(damage="D3"), Options(damage_mod=-1)) == PMF.uniform([1, 1, 2])


def test_feel_no_pain_each_wound():
    # D3 damage, FNP 5+: each wound lost with 2/3
    lost = feel_no_pain(PMF.uniform([1, 2, 3]), 5)
    assert lost.prob(0) == F(1, 3) * (F(1, 3) + F(1, 9) + F(1, 27))
    assert lost.mean() == 2 * F(2, 3)
    assert feel_no_pain(PMF.point(3), None) == PMF.point(3)


def test_d6_roll_rejects_nothing_silently():
    # a 7+ roll with no critical threshold can never succeed
    assert d6_roll(7, 0, 7).prob(FAIL) == 1
