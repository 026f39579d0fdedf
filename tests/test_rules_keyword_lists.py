"""Rules from data that name a list of keywords or a weapon's own ability (rules14, the classes
of the seed-9191 audit): a target's keywords in title case or with an Oxford comma are every
one a condition (the target has any of them), a list that goes on past the keywords read is
no half condition but a switch, an army rule for "X, Y, or Z models" reaches each, and "if such
a weapon already has this ability" is the weapons with it printed. Every number is worked out
by hand in a comment."""

from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer.data.rules.detachments import for_unit
from mathhammer.data.rules.translate import translate

MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])


def described(text: str) -> list[str]:
    return [("switch: " if p.switch else "") + p.rule.describe() if p.rule.usable
            else f"not modelled: {p.rule.not_modelled}" for p in translate("Rule", text)]


@pytest.mark.parametrize(("text", "want"), [
    # Siege-breaker Protocols (10e-003): a core keyword in title case after "or"
    ("Each time this model makes a melee attack that targets a Vehicle or Fortification unit, "
     "add 1 to the Hit roll and add 1 to the Wound roll",
     ["if melee attacks, target VEHICLE or FORTIFICATION: hit_mod=+1, wound_mod=+1"]),
    # Siege Captain: title case and an Oxford comma (it kept MONSTER only)
    ("Each time this model makes an attack that targets a Monster, Vehicle, or Fortification "
     "unit, improve the Strength, Armour Penetration and Damage characteristics of that attack "
     "by 2.", ["if target MONSTER or VEHICLE or FORTIFICATION: strength_mod=+2, ap_mod=+2, "
               "damage_mod=+2"]),
    # Annihilator Protocols: "when targeting" (it kept MONSTER or VEHICLE)
    ("Melee weapons equipped by models in this unit have the [SUSTAINED HITS 2] ability when "
     "targeting Monster, Vehicle or Fortification units",
     ["if melee attacks, target MONSTER or VEHICLE or FORTIFICATION: "
      "abilities=[sustained hits 2]"]),
    # Angel's Fang: the list broken over two lines (it was a switch, "Character" not read)
    ("Adeptus Astartes model only. Each time the bearer makes a melee attack that targets a "
     "Character,\nMonster or Vehicle unit, that attack has the [SUSTAINED HITS 2] ability.",
     ["if melee attacks, target CHARACTER or MONSTER or VEHICLE: abilities=[sustained hits 2]"]),
    # keywords in capitals: two, three, and an Oxford comma
    ("Each time this model makes an attack that targets an INFANTRY or SWARM unit, add 1 to the "
     "Hit roll.", ["if target INFANTRY or SWARM: hit_mod=+1"]),
    ("Each time this model makes an attack that targets a CHARACTER, MONSTER, or VEHICLE unit, "
     "add 1 to the Wound roll.", ["if target CHARACTER or MONSTER or VEHICLE: wound_mod=+1"]),
    # a list that goes on past the keywords: never half of it as a condition, a switch
    # asserting the text (the target condition is the player's)
    ("Each time this model makes an attack that targets a VEHICLE or Battle-shocked unit, add 1 "
     "to the Hit roll.", ["switch: hit_mod=+1"]),
    ("Each time this model makes an attack that targets a MONSTER or VEHICLE unit or a unit "
     "that is Battle-shocked, add 1 to the Hit roll.", ["switch: hit_mod=+1"]),
])
def test_a_target_keyword_list_is_read_whole(text, want):
    assert described(text) == want


def test_siege_breaker_against_a_fortification_and_an_infantry_target():
    rules = [p.rule for p in translate(
        "Siege-breaker Protocols", "Each time this model makes a melee attack that targets a "
        "Vehicle or Fortification unit, add 1 to the Hit roll and add 1 to the Wound roll")]
    fist = mh.Weapon("Fist", range="melee", attacks=4, skill=3, strength=4, ap=0, damage=1)
    fort = mh.Target(models=1, toughness=10, save=3, wounds=12, keywords=["FORTIFICATION"])
    wall = mh.Target(models=1, toughness=10, save=3, wounds=12, keywords=["INFANTRY"])
    # FORTIFICATION: hit 3+ +1 -> 2+ 5/6; S4 vs T10 wound 6+ +1 -> 5+ 1/3; save 3+ fails 1/3:
    # 4 x 5/6 x 1/3 x 1/3 = 10/27
    assert mh.attack(fist, fort, apply=rules).unsaved.mean() == F(10, 27)
    # neither keyword: 4 x 2/3 x 1/6 x 1/3 = 4/27
    assert mh.attack(fist, wall, apply=rules).unsaved.mean() == F(4, 27)


@pytest.mark.parametrize(("keywords", "reached"), [
    ({"MONSTER"}, True), ({"VEHICLE"}, True), ({"TITANIC"}, True), ({"INFANTRY"}, False)])
def test_an_army_rule_for_a_list_with_an_oxford_comma_reaches_each(keywords, reached):
    # "a MONSTER, VEHICLE, or TITANIC model from your army": before, only TITANIC (the list
    # read from its last keyword), and for it a switch with "MONSTER, VEHICLE, or" left over
    text = ("Each time a MONSTER, VEHICLE, or TITANIC model from your army makes an attack, add "
            "1 to the Hit roll.")
    parts = for_unit(translate, "Rage", text, frozenset(keywords), "", kind="detachment rule")
    assert [(p.automatic, p.rule.describe()) for p in parts] == \
        ([(True, "hit_mod=+1")] if reached else [])


SHIELD = ("Ranged weapons equipped by **^^Adeptus Astartes^^** models from your army have the "
          "**[HEAVY]** ability. If such a weapon already has this ability, each time an attack is "
          "made with that weapon, if the attacking model's unit Remained Stationary this turn, "
          "add 1 to the Wound roll.")


def test_already_has_this_ability_is_the_weapons_with_it_printed():
    parts = for_unit(translate, "Shield of the Imperium", SHIELD,
                     frozenset({"ADEPTUS ASTARTES", "INFANTRY"}), "", kind="detachment rule")
    assert [p.rule.describe() for p in parts] == [
        "if ranged attacks: abilities=[heavy]",
        "if ranged attacks, remained stationary, weapons with heavy: wound_mod=+1"]
    rules = [p.rule for p in parts]  # the switch on: the unit Remained Stationary
    bolter = mh.Weapon("Bolter", range=24, attacks=2, skill=3, strength=4, ap=0, damage=1)
    # it gains Heavy only: hit 3+ +1 -> 2+ 5/6; wound 4+ 1/2; save 3+ fails 1/3:
    # 2 x 5/6 x 1/2 x 1/3 = 5/18 (with the wound bonus it would be 2 x 5/6 x 2/3 x 1/3 = 10/27)
    assert mh.attack(bolter, MEQ, apply=rules, stationary=True).unsaved.mean() == F(5, 18)
    heavy = mh.Weapon("Heavy bolter", range=36, attacks=3, skill=4, strength=5, ap=-1, damage=2,
                      abilities=["heavy"])
    # Heavy printed: hit 4+ +1 -> 3+ 2/3; S5 vs T4 wound 3+ +1 -> 2+ 5/6; save 3+ AP-1 -> 4+
    # fails 1/2: 3 x 2/3 x 5/6 x 1/2 = 5/6 (without the bonus 3 x 2/3 x 2/3 x 1/2 = 2/3)
    assert mh.attack(heavy, MEQ, apply=rules, stationary=True).unsaved.mean() == F(5, 6)


@pytest.mark.parametrize(("text", "want"), [
    # the seeds' Omni-targeters wording: "one or more of those weapons already have this ability"
    ("Until the end of the phase, ranged weapons equipped by models in this unit have the "
     "[PISTOL] ability. If one or more of those weapons already have this ability, then until "
     "the end of the phase, each time an attack is made with such a weapon, add 1 to the Hit "
     "roll.", ["switch: if ranged attacks: abilities=[pistol]",  # "until the end of the phase"
               "switch: if ranged attacks, weapons with pistol: hit_mod=+1"]),
    # the ability named again: that one
    ("Melee weapons equipped by models in this unit have the [LANCE] ability. If such a weapon "
     "already has the [LANCE] ability, add 1 to the Wound roll of attacks made with it.",
     ["if melee attacks: abilities=[lance]; if melee attacks, weapons with lance: "
      "wound_mod=+1"]),
    # Daemonic Empowerment: "that ability" is the one given, [SUSTAINED HITS 1] (docs/rules.md)
    ("While a unit from your army is Empowered, weapons equipped by models in that unit have the "
     "[SUSTAINED HITS 1] ability. If such a weapon already has that ability, each time an attack "
     "is made with that weapon, an unmodified Hit roll of 5+ scores a Critical Hit.",
     ["abilities=[sustained hits 1]; if weapons with sustained hits 1: crit_hit=5"]),
    # two abilities given: which one "this ability" is cannot be told: said, never every weapon
    ("Ranged weapons equipped by models in this unit have the [HEAVY] and [ASSAULT] abilities. "
     "If such a weapon already has this ability, add 1 to the Wound roll.",
     ["if ranged attacks: abilities=[heavy, assault]",
      "not modelled: for the weapons that already have an ability not read (\"If such a weapon "
      "already has this ability, add 1 to the Wound roll\")"]),
])
def test_already_has_an_ability_filters_the_weapons(text, want):
    assert described(text) == want


def test_a_weapon_given_the_ability_by_the_same_rule_has_it_not_already():
    [part] = translate("Rule", "Melee weapons equipped by models in this unit have the [LANCE] "
                       "ability. If such a weapon already has the [LANCE] ability, add 1 to the "
                       "Wound roll of attacks made with it.")
    blade = mh.Weapon("Blade", range="melee", attacks=2, skill=3, strength=4, ap=0, damage=1)
    lance = mh.Weapon("Lance", range="melee", attacks=2, skill=3, strength=4, ap=0, damage=1,
                      abilities=["lance"])
    # the blade gains Lance (no charge: no change): 2 x 2/3 x 1/2 x 1/3 = 2/9
    assert mh.attack(blade, MEQ, apply=[part.rule]).unsaved.mean() == F(2, 9)
    # Lance printed: wound 4+ +1 -> 3+ 2/3: 2 x 2/3 x 2/3 x 1/3 = 8/27
    assert mh.attack(lance, MEQ, apply=[part.rule]).unsaved.mean() == F(8, 27)


def test_an_ability_of_a_rules_mortal_wounds_is_not_the_attacks():
    # Digital Weapons (seed 1414, 11e-011): "[PRECISION]" is how the Enhancement's own mortal
    # wounds are allocated, said not modelled with them; the unit's attacks gain nothing
    from mathhammer.data.rules.translate import translate

    text = ("Each time the bearer is selected to fight, roll three D6; for each 4+, one enemy "
            "unit within Engagement Range of the bearer suffers 1 mortal wound. Mortal wounds "
            "inflicted by this Enhancement are allocated as if they have the [PRECISION] "
            "ability.")
    parts = translate("Digital Weapons", text, kind="enhancement")
    assert not any(p.rule.usable for p in parts)
    assert "allocated as if they have the [PRECISION]" in parts[0].rule.not_modelled
    # an attack's own [PRECISION] is still granted
    [part] = translate("Blade", "Each time the bearer makes an attack, that attack has the "
                       "[PRECISION] ability.", kind="enhancement")
    assert part.rule.usable and "precision" in part.rule.describe()
