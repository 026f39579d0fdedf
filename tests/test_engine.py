"""The whole attack sequence: hand-derived values, state carried between weapons, bad input."""

from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer import PMF, Target, Weapon
from mathhammer.model.state import TargetState


def gun(attacks=1, skill=3, strength=4, ap=0, damage=1, abilities=()):
    return Weapon("gun", attacks=attacks, skill=skill, strength=strength, ap=ap, damage=damage,
                  abilities=abilities)


def test_five_attacks_against_one_wound_models():
    # each attack kills with 2/3 (hit) * 1/2 (wound) * 1/3 (fails 3+ save) = 1/9
    r = mh.attack((gun(), 5), Target(models=5, toughness=4, save=3, wounds=1))
    assert r.kills.mean() == F(5, 9)
    assert r.kills.prob(0) == F(8, 9) ** 5
    assert r.kills.prob(5) == F(1, 9) ** 5
    assert r.destroyed == F(1, 9) ** 5
    assert r.attacks == PMF.point(5)
    assert r.hits.mean() == 5 * F(2, 3) and r.wounds.mean() == 5 * F(1, 3)


def test_every_pmf_sums_to_one():
    r = mh.attack((gun(attacks="D6", damage="D3", abilities=["sustained hits 1"]), 3),
                  Target(models=3, toughness=4, save=4, wounds=3, fnp=6))
    for name in ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills", "state"):
        assert sum(getattr(r, name).values()) == 1


def test_sustained_hits_d3():
    # BS3+: miss 1/3, hit 1/2, critical 1/6 scoring 1 + D3 hits: mean 1/2 + 1/6 * 3 = 1
    r = mh.attack(gun(abilities=["sustained hits D3"]), Target(1, 4, 3, 1))
    assert r.hits.mean() == 1
    assert dict(r.hits) == {0: F(1, 3), 1: F(1, 2), 2: F(1, 18), 3: F(1, 18), 4: F(1, 18)}


def test_lethal_hits_auto_wound_but_are_not_critical_wounds():
    # S1 vs T10 wounds on 6+: lethal crit 1/6 + hit 1/2 * wound 1/6 = 1/4
    weapon = gun(strength=1, abilities=["lethal hits", "devastating wounds"])
    r = mh.attack(weapon, Target(1, 10, 7, 5))
    assert r.wounds.mean() == F(1, 4)
    # only the rolled 6 to wound (1/2 * 1/6) is devastating: mortal = 1/12 * D1
    assert r.mortal.mean() == F(1, 12)
    assert r.unsaved.mean() == F(1, 6)  # the lethal wound takes its (7+) save and fails


def test_devastating_wounds_destroy_at_most_one_model_each():
    # torrent, S4 vs T4, D3: a 6 to wound (1/6) is devastating and kills one model; a 4-5
    # (2/6) is a normal wound with no save (7+) and kills one W1 model, excess lost
    weapon = gun(skill=None, damage="D3", abilities=["devastating wounds"])
    r = mh.attack(weapon, Target(models=2, toughness=4, save=7, wounds=1))
    assert dict(r.kills) == {0: F(1, 2), 1: F(1, 2)}
    assert r.mortal.mean() == F(1, 6) * 2
    assert r.unsaved.mean() == F(2, 6)


def test_devastating_wounds_come_after_all_normal_damage():
    # Every wound roll of 2+ is critical (crit_wound=2). Weapon A (listed first) is devastating
    # with D2; weapon B is a normal D1 wound against no save. Against 2 models of W2:
    # B's wound (5/6) lands first and leaves model 1 with one wound; A's 2 mortal wounds (5/6)
    # then destroy it and the excess is lost. Damage: 2 if A lands (5/6), else 1 if B lands.
    a = gun(skill=None, damage=2, abilities=["devastating wounds"])
    b = gun(skill=None, damage=1)
    r = mh.attack([(a, 1), (b, 1)], Target(models=2, toughness=4, save=7, wounds=2), crit_wound=2)
    assert dict(r.damage) == {0: F(1, 36), 1: F(5, 36), 2: F(30, 36)}
    assert r.kills.prob(1) == F(30, 36) and r.kills.prob(2) == 0


def test_damaged_model_takes_the_next_attack_and_excess_is_lost():
    # Two automatic hits, S8 vs T4 (wound on 2+: 5/6), no save, D3 damage, into 2 models of W2
    # whose first model has lost 1 wound. The first wound that lands always finishes the damaged
    # model (excess lost); a second one kills model 2 unless its D3 is a 1.
    weapon = gun(skill=None, strength=8, damage="D3")
    target = Target(models=2, toughness=4, save=7, wounds=2)
    r = mh.attack((weapon, 2), target, state=PMF.point(TargetState(2, 1)))
    both, one = F(25, 36), F(10, 36)
    assert dict(r.kills) == {0: F(1, 36), 1: one + both * F(1, 3), 2: both * F(2, 3)}
    # damage: 1 if one wound lands; 1 + min(2, D3) if both do
    assert dict(r.damage) == {0: F(1, 36), 1: one, 2: both * F(1, 3), 3: both * F(2, 3)}


def test_state_carries_from_weapon_to_weapon():
    w1 = gun(attacks=3, damage="D3", ap=-1)
    w2 = gun(attacks=2, strength=6, damage=2, abilities=["lethal hits"])
    target = Target(models=3, toughness=4, save=3, wounds=3, fnp=6)
    both = mh.attack([(w1, 2), (w2, 1)], target)
    first = mh.attack((w1, 2), target)
    then = mh.attack((w2, 1), target, state=first.state)
    assert both.state == then.state
    assert both.destroyed == then.destroyed


def test_result_from_a_distribution_of_states():
    target = Target(models=2, toughness=4, save=7, wounds=1)
    weapon = gun(skill=None, strength=8)  # wounds on 2+, no save: kills one model w.p. 5/6
    start = PMF.uniform([TargetState(2, 0), TargetState(1, 0)])
    r = mh.attack(weapon, target, state=start)
    assert dict(r.kills) == {0: F(1, 6), 1: F(5, 6)}
    assert r.destroyed == F(1, 2) * F(5, 6)  # only from the 1-model state


def test_blast_counts_models_at_the_start():
    blast = gun(attacks="D3", abilities=["blast"])
    assert mh.attack(blast, Target(10, 4, 3, 1)).attacks.mean() == 2 + 2
    assert mh.attack(blast, Target(4, 4, 3, 1)).attacks.mean() == 2
    started = PMF.point(TargetState(5, 0))
    assert mh.attack(blast, Target(10, 4, 3, 1), state=started).attacks.mean() == 3


def test_rapid_fire_and_melta_at_half_range():
    rf = gun(attacks=1, abilities=["rapid fire D3"])
    assert mh.attack((rf, 2), Target(1, 4, 3, 1), half_range=True).attacks.mean() == 2 * 3
    assert mh.attack((rf, 2), Target(1, 4, 3, 1)).attacks.mean() == 2


def test_options_give_every_weapon_abilities():
    plain = mh.attack(gun(), Target(1, 4, 3, 1))
    lethal = mh.attack(gun(), Target(1, 4, 3, 1), abilities=["lethal hits"])
    # wounds: 1/2 * 1/2 + 1/6 * 1/2 = 1/3 plain; 1/2 * 1/2 + 1/6 = 5/12 with Lethal Hits
    assert plain.wounds.mean() == F(1, 3) and lethal.wounds.mean() == F(5, 12)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: gun(skill=9), "skill: expected from 2 to 6, got 9"),
        (lambda: Target(models=0, toughness=4, save=3, wounds=1), "models: expected >= 1, got 0"),
        (lambda: mh.attack(gun(), Target(1, 4, 3, 1), reroll_hits="some"),
         "reroll_hits: expected one of None, 'ones', 'failed', 'noncrit', got 'some'"),
        (lambda: mh.attack(gun(), Target(1, 4, 3, 1), halfrange=True),
         "unknown option 'halfrange'"),
        (lambda: gun(abilities=["sustained hits D7"]), "sustained hits needs a number or dice"),
        (lambda: gun(abilities=["fast"]), "unknown ability 'fast'; known: lethal hits"),
        (lambda: gun(damage="D7"), "damage: bad dice expression 'D7'"),
        (lambda: gun(ap=1), "ap: expected from -6 to 0, got 1"),
        (lambda: mh.attack((gun(), -2), Target(1, 4, 3, 1)), "expected >= 1, got -2"),
        (lambda: mh.attack(gun(), Target(1, 4, 3, 1), state=PMF.point(TargetState(2, 0))),
         "state: TargetState(models=2, wounds_lost=0) is not a state of this target"),
        (lambda: mh.attack(gun(), Target(1, 4, 3, 1), rules="9e"), "unknown rule set '9e'"),
        (lambda: Target(1, 4, 3, 1, abilities=["flying"]), "unknown target ability 'flying'"),
    ],
)
def test_bad_input_is_a_one_line_value_error(call, message):
    with pytest.raises(ValueError) as e:
        call()
    assert message in str(e.value) and "\n" not in str(e.value)


def test_rule_set_file_decides_whether_devastating_excess_is_lost(tmp_path):
    # every wound roll of 2+ is critical (5/6); a devastating D2 into W1 models destroys one
    # model in 10e (excess lost) and two when a house rule set lets the excess spill over
    house = tmp_path / "house.toml"
    house.write_text('name = "house"\nextends = "10e"\n[devastating_wounds]\nexcess_lost = false\n')
    dev = Weapon("dev", attacks=1, skill=None, strength=8, ap=0, damage=2,
                 abilities=["devastating wounds"])
    target = Target(models=3, toughness=4, save=3, wounds=1)
    assert dict(mh.attack(dev, target, crit_wound=2).kills) == {0: F(1, 6), 1: F(5, 6)}
    assert dict(mh.attack(dev, target, crit_wound=2, rules=str(house)).kills) == {
        0: F(1, 6), 2: F(5, 6)}
