"""Sequences of steps and turns against one target."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer import PMF, Target, TargetState, Weapon
from mathhammer.data.rules.named import find_rule
from mathhammer.engine.sequence import Attack, MortalWounds, Reanimate, sequence, turns
from mathhammer.mechanics.effects import reanimate

AUTO = Weapon("Auto", attacks=1, skill=None, strength=8, ap=0, damage=1)  # wounds T4 on 2+
WARRIORS = Target(models=20, toughness=4, save=4, wounds=1, abilities=["reanimation protocols"])
BOLT = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)


def test_two_turns_against_a_lone_model():
    # no save: each turn destroys it with 5/6; after two turns 1 - (1/6)^2
    lone = Target(models=1, toughness=4, save=7, wounds=1)
    t = turns(AUTO, lone, 2)
    assert t.destroyed == [F(5, 6), 1 - F(1, 36)]
    assert [s.label for s in t.steps] == ["attack 1", "attack 2"]


def test_turns_match_the_steps_composed_by_hand():
    t = turns((BOLT, 10), WARRIORS, 3)
    assert [s.label for s in t.steps] == ["attack 1", "reanimate", "attack 2", "reanimate",
                                          "attack 3"]
    state = mh.attack((BOLT, 10), WARRIORS).state
    state = reanimate(WARRIORS, state)
    state = mh.attack((BOLT, 10), WARRIORS, state=state).state
    assert t.states[3] == state


def test_reanimation_can_be_switched_off():
    with_rp = turns((BOLT, 10), WARRIORS, 2)
    without = turns((BOLT, 10), WARRIORS, 2, reanimation=False)
    assert len(without.steps) == 2
    # reanimation never lowers the models left
    assert with_rp.models_left.mean() > without.models_left.mean()
    assert with_rp.destroyed[-1] <= without.destroyed[-1]


def test_mortal_wound_steps_by_dice_or_by_rule():
    geq = Target(models=10, toughness=3, save=5, wounds=1)
    by_dice = sequence(geq, [MortalWounds("D3")])
    assert by_dice.kills.mean() == 2
    by_rule = sequence(geq, [MortalWounds(find_rule("Disintegration Beams"))])
    assert by_rule.kills.mean() == F(7, 6)  # D6: 2-4 -> 1, 5+ -> 2: 3/6 * 1 + 2/6 * 2
    with pytest.raises(ValueError, match="is not a mortal-wound roll"):
        sequence(geq, [MortalWounds(find_rule("Enslaved Artifice"))])
    with pytest.raises(ValueError, match="ROLL 'Disintegration Beams'"):  # a name: find_rule
        sequence(geq, [MortalWounds("Disintegration Beams")])


def test_sequence_starts_from_a_given_state():
    t = sequence(WARRIORS, [Reanimate("1")], state=PMF.point(TargetState(5, 0)))
    assert t.final == PMF.point(TargetState(6, 0))
    assert t.kills == PMF.point(14)


@settings(max_examples=25, deadline=None)
@given(attacks=st.integers(1, 4), models=st.integers(1, 8), skill=st.integers(2, 6),
       n=st.integers(1, 3), rp=st.booleans())
def test_more_steps_never_lower_p_destroyed(attacks, models, skill, n, rp):
    gun = Weapon("g", attacks=attacks, skill=skill, strength=5, ap=-1, damage=1)
    target = Target(models=5, toughness=4, save=4, wounds=1,
                    abilities=["reanimation protocols"] if rp else [])
    d = turns((gun, models), target, n).destroyed
    assert all(a <= b for a, b in zip(d, d[1:], strict=False))
    assert all(sum(s.values()) == 1 for s in turns((gun, models), target, n).states)


def test_bad_turns():
    with pytest.raises(ValueError, match="turns: expected an integer >= 1, got 0"):
        turns(AUTO, WARRIORS, 0)


def test_attack_step_carries_options():
    step = Attack.make((BOLT, 10), half_range=True, apply=[find_rule("Enslaved Artifice")])
    direct = mh.attack((BOLT, 10), WARRIORS, half_range=True, apply=["Enslaved Artifice"])
    assert step(WARRIORS, PMF.point(TargetState(20, 0))) == direct.state


# --- One Shot: fired once per battle, so in the first turn of a sequence only ---------------

ARROW = Weapon("Tachyon arrow", attacks=1, skill=2, strength=16, ap=-5, damage="D6+2",
               abilities=["one shot"], range=72)
GUN = Weapon("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
#: 20 models, so no turn's kills are capped: kills add up turn by turn
HORDE = Target(models=20, toughness=3, save=7, wounds=1)


def test_one_shot_fires_in_the_first_turn_only():
    # the arrow: 5/6 hit x 5/6 wound (S16 v T3), no save, D6+2 kills a W1 model: 25/36; the
    # gun: 2/3 hit x 2/3 wound (S4 v T3), no save: 4/9 = 16/36 each turn.
    # 3 turns: 25/36 + 3 x 16/36 = 73/36 (every turn firing the arrow would be 3 x 41/36)
    t = turns([(ARROW, 1), (GUN, 1)], HORDE, 3)
    assert t.kills.mean() == F(73, 36)
    assert [s.label for s in t.steps] == ["attack 1", "attack 2", "attack 3"]
    assert [[w.name for w, _ in s.profiles] for s in t.steps] == [
        ["Tachyon arrow", "Gun"], ["Gun"], ["Gun"]]
    # one turn: unchanged, the arrow fires
    assert turns([(ARROW, 1), (GUN, 1)], HORDE, 1).kills.mean() == F(41, 36)


def test_one_shot_alone_then_nothing_fires():
    # the QA case (Overlord -> MEQ --turns 3): 5/6 x 5/6, no save (AP-5 v 3+), D6+2 >= 3 kills
    # a W2 model: 25/36 kills in all, the later turns change nothing
    meq = Target(models=5, toughness=4, save=3, wounds=2)
    t = turns((ARROW, 1), meq, 3)
    assert t.kills.mean() == F(25, 36)
    assert t.states[1] == t.states[2] == t.states[3]
    assert [type(s).__name__ for s in t.steps] == ["Attack", "Spent", "Spent"]


def test_one_shot_of_a_unit_over_turns():
    # a unit's weapons are chosen once (against the target), then the arrow is spent
    from mathhammer.data.units.unit import ModelGroup, Unit, UnitWeapon

    lord = Unit("Lord", "Test", (ModelGroup("Lord", 1, 1, 5, 3, 6, weapons=(
        UnitWeapon(ARROW), UnitWeapon(GUN))),))
    assert turns(lord, HORDE, 3).kills.mean() == F(73, 36)  # as above
    assert turns(lord, HORDE, 2).kills.mean() == F(25 + 2 * 16, 36)


def test_one_shot_in_a_query_and_its_reports():
    from mathhammer.app.scenario import Query

    q = Query("Lord", ((ARROW, 1), (GUN, 1)), "Horde", HORDE, turns=3)
    assert q.run_sequence().kills.mean() == F(73, 36)
    assert q.one_shot == "One Shot, fired in turn 1 only: Tachyon arrow"
    assert q.describe_steps() == ("3 turns, no reanimation; One Shot, fired in turn 1 only: "
                                  "Tachyon arrow")
    assert Query("Lord", ((ARROW, 1),), "Horde", HORDE).one_shot == ""  # one attack: all fire
    assert Query("Lord", ((GUN, 1),), "Horde", HORDE, turns=2).one_shot == ""


def test_one_shot_on_the_command_line(cli):
    import json

    row = '1x Tachyon arrow | 72" | 1 | 2+ | 16 | -5 | D6+2 | one shot'
    out = cli("kills", row, "MEQ", "--turns", "3", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["first_turn_only"] == ["Tachyon arrow"]
    assert data["mean"]["kills"] == "25/36"  # as above: one arrow, not three
    text = cli("kills", row, "MEQ", "--turns", "3").output
    assert "One Shot, fired in turn 1 only: Tachyon arrow" in " ".join(text.split())
    odds = cli("odds", row, "MEQ", "--turns", "3", "--at-least", "1",
                                    "--exact")
    assert odds.output.strip() == "25/36"  # a kill needs the arrow's one shot: 5/6 x 5/6


# --- an attacker of several model groups (an attached Leader and Bodyguard) ----------------


def test_an_army_rows_attached_pair_attacks():
    import fake_army

    from mathhammer.data.army.values import ArmyUnit, AttachedUnit

    def army_unit(name):
        unit = mh.load_unit(name)
        return ArmyUnit(name, unit, 0, unit.groups[0].min_models, ())

    pair = AttachedUnit(army_unit("Hexmark Destroyer"), army_unit("Necron Warriors"))
    label, unit = fake_army.Army((pair,)).rows()[0]
    meq = mh.find_unit("MEQ").as_target()
    r = mh.attack(unit, meq, melee=True)  # was: TypeError "attacker: expected a Target"
    both = [*mh.loadout(pair.bodyguard, melee=True, target=meq).fired,
            *mh.loadout(pair.leader, melee=True, target=meq).fired]
    assert r.kills == mh.attack(both, meq).kills
    assert r.attacker_name == label == "Hexmark Destroyer + Necron Warriors"
    # 10 Warriors (A1 WS4+ S4 AP0): 10 x 1/2 x 1/2 x 1/3 (Sv3+) = 5/6 unsaved; the Destroyer
    # (A4 WS3+ S5 AP0): 4 x 2/3 x 2/3 x 1/3 = 16/27; in all 45/54 + 32/54 = 77/54
    assert r.attacks.mean() == 14 and r.unsaved.mean() == F(77, 54)
    # over turns as well (the same attack twice: no One Shot), and the pair as a target
    assert mh.turns(unit, meq, 2, melee=True).steps[1].profiles is unit
    assert mh.attack((GUN, 5), unit).attacks.mean() == 5
    # the caller's own wrong `attacker` is still named as theirs
    with pytest.raises(TypeError, match="^attacker: expected a Target, got Squad$"):
        mh.attack((GUN, 1), meq, attacker=pair.as_target())


def test_an_attached_pair_with_a_hazardous_weapon():
    # an attacker of several model groups: its Hazardous tests are counted; which model takes
    # the mortal wounds is not modelled (no kills); a unit of one group keeps its own profile
    from mathhammer.data.army.values import ArmyUnit, AttachedUnit
    from mathhammer.data.units.unit import ModelGroup, Unit, UnitWeapon
    from mathhammer.engine.attack import own_profile

    hot = Weapon("Hot gun", attacks=1, skill=3, strength=4, ap=0, damage=1,
                 abilities=["hazardous"])
    boss = Unit("Boss", "Test", (ModelGroup("Boss", 1, 1, 4, 3, 3, weapons=(UnitWeapon(hot),)),))
    guns = Unit("Gunners", "Test", (ModelGroup("Gunner", 4, 4, 4, 3, 1,
                                               weapons=(UnitWeapon(GUN, count=4),)),))
    pair = AttachedUnit(ArmyUnit("Boss", boss, 0, 1, ()), ArmyUnit("Gunners", guns, 0, 4, ()))
    r = mh.attack(pair, HORDE)
    assert r.attacks.mean() == 5 and r.kills.mean() == 5 * F(4, 9)  # 2/3 x 2/3 each, no save
    assert r.hazard.failed.mean() == F(1, 6) and r.hazard.kills is None  # 10e: fails on a 1
    assert own_profile(pair) is None and own_profile(boss) == boss.as_target()
    # alone, the Boss takes them: a failed test (1/6) is 3 mortal wounds, its 3 wounds
    assert mh.attack(boss, HORDE).hazard.kills.mean() == F(1, 6)
