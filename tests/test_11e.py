"""The 11e rule set: for each difference of RULES.md section 9, the number that changes and one
that does not."""

from fractions import Fraction as F

import mathhammer as mh
from mathhammer import PMF, Squad, Target, Weapon
from mathhammer.mechanics.effects import hazardous, mortal_wounds

RIFLE = Weapon("Rifle", attacks=1, skill=3, strength=4, ap=-1, damage=1)
MEQ = Target(models=5, toughness=4, save=3, wounds=2)


def both(weapon, target, metric, **options):
    return tuple(getattr(mh.attack(weapon, target, rules=r, **options), metric).mean()
                 for r in ("10e", "11e"))


def test_cover_improves_the_save_in_10e_and_worsens_bs_in_11e():
    assert both(RIFLE, MEQ, "hits", cover=True) == (F(2, 3), F(1, 2))  # 11e: 3+ becomes 4+
    # 10e: AP -1 save 4+ back to 3+: 2/3 * 1/2 * 1/3; 11e: 1/2 * 1/2 * 1/2
    assert both(RIFLE, MEQ, "unsaved", cover=True) == (F(1, 9), F(1, 8))
    melee = Weapon("Blade", attacks=1, skill=3, strength=4, ap=-1, damage=1, range="melee")
    assert both(melee, MEQ, "unsaved", cover=True) == (F(1, 6), F(1, 6))  # no cover in melee


def test_stealth_is_a_capped_modifier_in_10e_and_cover_in_11e():
    sneaky = Target(models=5, toughness=4, save=3, wounds=2, abilities=["stealth"])
    # with another -1: 10e caps the total at -1 (4+); 11e worsens BS to 4+ and then -1 (5+)
    assert both(RIFLE, sneaky, "hits", hit_mod=-1) == (F(1, 2), F(1, 3))
    assert both(RIFLE, sneaky, "hits") == (F(1, 2), F(1, 2))  # alone: the same
    # 11e: Stealth is cover, so not cumulative with cover
    assert mh.attack(RIFLE, sneaky, rules="11e", cover=True).hits.mean() == F(1, 2)


def test_lethal_hits_can_be_declined_in_11e():
    gun = Weapon("x", attacks=6, skill=3, strength=4, ap=0, damage=3,
                 abilities=["lethal hits", "devastating wounds"])
    t = Target(3, 4, 2, 3, invuln=4)
    # mortal wounds come from rolled 6s to wound, 3 each. 10e: only the 6 * 1/2 ordinary hits
    # roll: 3 * 1/6 * 3 = 3/2. 11e declining: all 6 * 2/3 hits roll: 4 * 1/6 * 3 = 2
    assert both(gun, t, "mortal", lethal_hits="decline") == (F(3, 2), 2)
    assert both(gun, t, "mortal", lethal_hits="always") == (F(3, 2), F(3, 2))
    best = mh.attack(gun, t, rules="11e", lethal_hits="best").damage.mean()
    never = mh.attack(gun, t, rules="11e", lethal_hits="never").damage.mean()
    always = mh.attack(gun, t, rules="11e", lethal_hits="always").damage.mean()
    assert best == max(never, always) and never > always
    # without Devastating Wounds "decline" keeps the automatic wound
    plain = Weapon("y", attacks=6, skill=3, strength=4, ap=0, damage=1, abilities=["lethal hits"])
    # 6 * (1/6 automatic + 1/2 * 1/2 rolled) = 5/2 in both
    assert both(plain, t, "wounds", lethal_hits="decline") == (F(5, 2), F(5, 2))


def test_blast_x():
    blast2 = Weapon("b", attacks=1, skill=3, strength=4, ap=0, damage=1, abilities=["blast 2"])
    ten = Target(models=10, toughness=3, save=5, wounds=1)
    assert both(blast2, ten, "attacks") == (5, 5)  # 1 + 2 per five models
    plain = Weapon("p", attacks=1, skill=3, strength=4, ap=0, damage=1, abilities=["blast"])
    assert both(plain, ten, "attacks") == (3, 3)


def test_hazard_roll():
    marines = Target(models=5, toughness=4, save=3, wounds=2)
    assert hazardous(6, marines).failed.mean() == 1  # 10e: fails on a 1
    assert hazardous(6, marines, rules="11e").failed.mean() == 2  # 11e: on 1-2
    assert hazardous(6, marines).mortal.mean() == 3
    assert hazardous(6, marines, rules="11e").mortal.mean() == 2  # 1 mortal wound each


def test_snap_shooting_cannot_be_rerolled_in_11e():
    assert both(RIFLE, MEQ, "hits", overwatch=True, reroll_hits="failed") == (F(11, 36), F(1, 6))
    assert both(RIFLE, MEQ, "hits", overwatch=True) == (F(1, 6), F(1, 6))


def test_toughness_of_an_attached_unit():
    boss = Target(1, 3, 4, 3, keywords=["CHARACTER"])
    squad = Squad((Target(4, 4, 4, 1), Target(1, 5, 4, 2), boss))
    s4 = Weapon("s4", attacks=1, skill=None, strength=4, ap=0, damage=1)
    # 10e: the main Bodyguard group's T4 (4+); 11e: the highest Bodyguard T5 (5+)
    assert both(s4, squad, "wounds") == (F(1, 2), F(1, 3))
    mixed = Squad((Target(4, 4, 4, 1), Target(1, 5, 4, 2)))  # not attached: highest in both
    assert both(s4, mixed, "wounds") == (F(1, 3), F(1, 3))


def test_mortal_wound_order_and_save_groups_give_the_same_numbers():
    guard = Target(models=2, toughness=4, save=3, wounds=2)
    boss = Target(models=1, toughness=4, save=3, wounds=3, keywords=["CHARACTER"])
    squad = Squad((guard, boss))
    # wounded non-CHARACTER first, then non-CHARACTER, then CHARACTER: the same in both
    assert mortal_wounds(squad, None, 5) == PMF.point(((0, 0), (1, 1)))
    gun = Weapon("g", attacks=3, skill=3, strength=5, ap=-1, damage="D3")
    split = Squad((Target(2, 4, 3, 2), Target(3, 4, 3, 2)))
    assert both(gun, split, "damage") == both(gun, Target(5, 4, 3, 2), "damage")


def test_crushing_impact_as_mortal_wounds():
    # T7 charger: 7 dice, each 5+ is a mortal wound to the enemy (at most 6)
    to_enemy = mh.crushing_impact(7).map(lambda t: t[0])
    assert to_enemy.mean() < F(7, 3)  # the cap at 6 takes a little off 7 * 1/3
    geq = Target(models=10, toughness=3, save=5, wounds=1)
    assert mortal_wounds(geq, None, to_enemy).map(lambda s: 10 - s.models).mean() == to_enemy.mean()
