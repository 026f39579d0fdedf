"""The mechanics added for issue 30 item 5, beyond the oracles (``test_bruteforce.py``,
``test_montecarlo*.py``): 11e [CLEAVE X] read from the data, Feel No Pain against mortal wounds
outside an attack, 11e cover and ignored BS modifiers, the effect language (rule files) and the
translator's wordings, each with a value derived by hand.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import bsjson
import pytest

import mathhammer as mh
from mathhammer.data.bsdata.weapons import map_keyword
from mathhammer.data.rules.effect_tree import translate_effect
from mathhammer.data.rules.named import read_named_rule_file
from mathhammer.data.rules.translate import translate
from mathhammer.errors import InputError
from mathhammer.mechanics.effects import hazardous, mortal_wounds
from mathhammer.model.abilities import canonical

W, T = mh.Weapon, mh.Target


# -- 11e [CLEAVE X] ----------------------------------------------------------------------------

def test_cleave_is_a_weapon_ability_with_a_number():
    assert map_keyword("Cleave 1") == "cleave 1" and map_keyword("[CLEAVE 2]") == "cleave 2"
    assert mh.parse_abilities(("cleave 2", "blast")).per_target_models == 3
    with pytest.raises(InputError, match="unknown ability 'cleave'"):
        canonical("cleave")  # the rule always takes the form [CLEAVE X]


def test_cleave_in_11e_is_the_rules_example():
    # "a [CLEAVE 1] weapon with an A characteristic of 3 targets one unit containing 16 models:
    # three additional attack dice (a total of six)"
    axe = W("Axe", attacks=3, skill=3, strength=4, ap=0, damage=1, abilities=["cleave 1"],
            range="melee")
    r = mh.attack((axe, 1), T(models=16, toughness=4, save=7, wounds=1), rules="11e")
    assert r.attacks == mh.PMF.point(6)


@pytest.fixture(scope="module")
def cleaving_boyz(tmp_path_factory) -> Path:
    """An 11e data folder with one datasheet whose melee weapon has the Cleave keyword."""
    choppa = bsjson.weapon("w1", "Choppa", "3", "3+", "4", "-1", "1", melee=True)
    choppa["characteristics"][-1]["$text"] = "Cleave 1"
    boyz = bsjson.unit("u1", "Boyz", 10, ["Infantry"], [], choppa, bsjson.STATS)
    cat = {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1",
           "sharedSelectionEntries": [boyz],
           "entryLinks": [{"id": "e1", "name": "Boyz", "targetId": "u1",
                           "type": "selectionEntry"}]}
    return bsjson.write_folder(tmp_path_factory.mktemp("cleave"), cat)


def test_cleave_from_the_data_is_read_without_a_warning(cli, cleaving_boyz):
    r = cli("data", "check", "--data", str(cleaving_boyz.parent),
                                 "--edition", "11e", "--jobs", "1", "--json")
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert (report["clean"], report["with_warnings"]) == (1, 0), report["warnings"]
    # 10 Boyz, A3 + 16 // 5 = 6 attacks each against 16 models: 60 attacks
    r = cli("kills", f"{cleaving_boyz}:Boyz", "16x T3 Sv7+ W1", "--melee",
                                 "--rules", "11e", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["mean"]["attacks"] == "60/1"


# -- Feel No Pain against mortal wounds, outside an attack -------------------------------------

def test_mortal_wounds_and_hazard_rolls_get_the_feel_no_pain_against_mortal_wounds():
    # 2 mortal wounds into W1 models with a 4+ against mortal wounds: each lost with 1/2
    warriors = T(models=3, toughness=4, save=4, wounds=1, fnp_mortal=4)
    left = mortal_wounds(warriors, None, 2).map(lambda s: s.models)
    assert left == mh.PMF({3: 1, 2: 2, 1: 1})
    # 10e hazard: a 1 (1/6) is 3 mortal wounds on one W3 model, each lost with 1/2: 1/6 * 1/8
    h = hazardous(1, T(models=2, toughness=4, save=3, wounds=3, fnp_mortal=4))
    assert h.kills.prob(1) == F(1, 48)


# -- ignored modifiers in 11e: the Benefit of Cover worsens BS ----------------------------------

def test_ignoring_bs_modifiers_ignores_11e_cover():
    # 11e: cover worsens BS 3+ to 4+ (1/2 hits); ignoring BS modifiers it stays 3+ (2/3)
    gun = W("Gun", attacks=1, skill=3, strength=4, ap=0, damage=1)
    tgt = T(models=1, toughness=4, save=4, wounds=1)
    assert mh.attack(gun, tgt, rules="11e", cover=True).hits.prob(1) == F(1, 2)
    hits = mh.attack(gun, tgt, rules="11e", cover=True, ignore_skill_modifiers=True).hits
    assert hits.prob(1) == F(2, 3)
    # ignoring Hit roll modifiers alone does not: cover is a BS change in 11e
    hits = mh.attack(gun, tgt, rules="11e", cover=True, ignore_hit_modifiers=True).hits
    assert hits.prob(1) == F(1, 2)


# -- the effect language ----------------------------------------------------------------------

def test_rule_files_take_the_new_effect_fields(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('faction = "Testers"\n[[rule]]\nname = "Everything"\nkind = "stratagem"\n'
                    'side = "attacker"\ntext = "t"\neffect = { reroll_damage = "any", '
                    'double_attacks = true, unmodified_hits_on = 2, ignore_hit_modifiers = true'
                    ' }\n[[rule]]\nname = "Wards"\nkind = "stratagem"\nside = "defender"\n'
                    'text = "t"\neffect = { fnp_mortal = 4, fnp_psychic = 5 }\n',
                    encoding="utf-8")
    attack, wards = read_named_rule_file(path)
    assert attack.describe() == ("reroll_damage=any, double_attacks, unmodified_hits_on=2, "
                                 "ignore_hit_modifiers")
    # torrent S8 (5/6), no save, D1 into one W1 model: a plain gun kills with 5/6 (neither
    # Feel No Pain applies); a Psychic one with 5/6 * 4/6 = 5/9 (lost on 1-4 against 5+)
    gun = W("Gun", attacks=1, skill=None, strength=8, ap=0, damage=1)
    one = T(models=1, toughness=4, save=7, wounds=1)
    assert mh.attack(gun, one, apply=[wards]).kills.prob(1) == F(5, 6)
    psychic = gun.with_abilities("psychic")
    assert mh.attack(psychic, one, apply=[wards]).kills.prob(1) == F(5, 9)
    bad = tmp_path / "bad.toml"
    bad.write_text(path.read_text(encoding="utf-8").replace('"any"', '"some"'), encoding="utf-8")
    with pytest.raises(InputError, match="effect.reroll_damage: expected one of 'ones', 'any', "
                                         "got 'some'"):
        read_named_rule_file(bad)


def test_the_broadest_damage_reroll_wins():
    from mathhammer.mechanics.named import apply_rules
    from mathhammer.model.named import Effect, NamedRule

    ones = NamedRule("Ones", "T", "stratagem", "attacker", "t",
                     effects=(Effect((("reroll_damage", "ones"),)),))
    anything = NamedRule("Any", "T", "stratagem", "attacker", "t",
                         effects=(Effect((("reroll_damage", "any"),)),))
    gun = W("Gun", attacks=1, skill=3, strength=4, ap=0, damage="D6")
    tgt = T(models=1, toughness=4, save=3, wounds=3)
    for order in ([ones, anything], [anything, ones]):
        _, _, o = apply_rules(order, gun, tgt, mh.Options(), below_half=False)
        assert o.reroll_damage == "any"


# -- the translator's wordings ----------------------------------------------------------------

@pytest.mark.parametrize(("text", "reading"), [
    ("Each time a model in this unit makes a ranged attack that targets a MONSTER or VEHICLE "
     "unit, you can re-roll the Wound roll and you can re-roll the Damage roll.",
     "if ranged attacks, target MONSTER or VEHICLE: reroll_damage=any, reroll_wounds=failed"),
    ("Each time this model makes a ranged attack that targets a MONSTER or VEHICLE unit, "
     "re-roll a Damage roll of 1.",
     "if ranged attacks, target MONSTER or VEHICLE: reroll_damage=ones"),
    ("While this model has 1-6 wounds remaining, the Attacks characteristics of all of its "
     "weapons are halved.", "halve_attacks"),
    ("Models in this unit have the Feel No Pain 4+ ability against Psychic Attacks and mortal "
     "wounds.", "fnp_psychic=4, fnp_mortal=4"),
    ("This model has the Feel No Pain 6+ (this is improved to Feel No Pain 4+ against Psychic "
     "Attacks and mortal wounds).", "fnp_psychic=4, fnp_mortal=4, fnp=6"),
    ("Each time this model makes an attack, that attack scores a hit on an unmodified Hit roll "
     "of 2+.", "unmodified_hits_on=2"),
    ("Each time a model in this unit makes a ranged attack, you can ignore any or all "
     "modifiers to that attack's Ballistic Skill characteristic and/or to the Hit roll.",
     "if ranged attacks: ignore_hit_modifiers, ignore_skill_modifiers"),
    ("Each time a model in the bearer's unit makes an attack, a Critical Hit is scored on an "
     "unmodified Hit roll of 5+, instead of only a 6.", "crit_hit=5"),
    ("This unit's melee attacks have: \n- +1 AP. \n- [CLEAVE 1].",  # both items (rules5)
     "if melee attacks: ap_mod=+1; if melee attacks: abilities=[cleave 1]"),
])
def test_the_wordings_of_the_mechanics_are_read(text, reading):
    assert [p.rule.describe() for p in translate("Ability", text)] == [reading]


@pytest.mark.parametrize(("text", "reason"), [
    # only some models' weapons: not every weapon of the unit it leads
    ("While this model is leading a unit, double the Attacks characteristic of weapons "
     "equipped by Daemonhost models in that unit.", "doubles or halves a characteristic"),
    # a Feel No Pain against more than mortal wounds
    ("Models in this unit have the Feel No Pain 6+ ability against mortal wounds and attacks "
     "with an unmodified Damage characteristic of 1.", "Feel No Pain against some attacks only"),
    # modifiers the engine has no option for (AP)
    ("Each time a model in this unit makes a melee attack, you can ignore any or all modifiers "
     "to the Hit roll, to the Wound roll and to the Armour Penetration characteristic.",
     "ignores modifiers"),
])
def test_what_the_mechanics_do_not_cover_stays_not_modelled(text, reason):
    parts = translate("Ability", text)
    # the reason, then the clause it is read from, quoted
    assert [p.rule.not_modelled.split(' ("')[0] for p in parts] == [reason]
    assert all(p.rule.not_modelled.endswith('")') for p in parts)


def test_a_condition_the_engine_cannot_check_makes_a_switch():
    # "allocated to a Monster or Vehicle model" and "roll one D6: on a 4+" are not checked
    for text in ("Each time a ranged attack made by this model is allocated to a Monster or "
                 "Vehicle model, you can re-roll the Damage roll.",
                 "Each time this unit is selected to shoot, roll one D6: on a 4+, you can "
                 "re-roll the Damage roll of its attacks."):
        [part] = translate("Ability", text)
        assert part.switch and "reroll_damage=any" in part.rule.describe()


def test_a_translated_feel_no_pain_against_mortal_wounds_gives_its_number():
    # Torrent Anti-INFANTRY 2+ Devastating D1 into one W1 INFANTRY model: a Critical Wound on
    # 2+ (5/6), then the 4+ against mortal wounds: 5/6 * 1/2 = 5/12
    [part] = translate("Wards", "This model has the Feel No Pain 4+ ability against mortal "
                                "wounds.")
    gun = W("Gun", attacks=1, skill=None, strength=4, ap=0, damage=1,
            abilities=["anti-infantry 2+", "devastating wounds"])
    tgt = T(models=1, toughness=4, save=7, wounds=1, keywords=["INFANTRY"])
    assert mh.attack(gun, tgt, apply=[part.rule]).kills.prob(1) == F(5, 12)


def test_effect_trees_scope_feel_no_pain_and_reroll_damage():
    fnp = {"type": "feel-no-pain", "target": "unit",
           "modifier": {"scope": "psychic-and-mortal", "threshold": 4}}
    [part] = translate_effect("Wards", fnp, "t")
    assert part.rule.describe() == "fnp_psychic=4, fnp_mortal=4"
    reroll = {"type": "re-roll", "target": "unit",
              "modifier": {"roll": "damage", "vs_keywords": ["Monster", "Vehicle"]}}
    [part] = translate_effect("Targeters", reroll, "t", attack="ranged")
    assert part.rule.describe() == "ranged attacks: if target MONSTER or VEHICLE: reroll_damage=any"


# -- the command line -------------------------------------------------------------------------

def test_the_options_are_flags_of_the_command_line(cli):
    # D6 into one W3 model, torrent S8 (5/6), no save: re-rolling 1s and 2s kills with
    # 5/6 * 8/9 = 20/27; doubled Attacks make it two attacks
    r = cli("kills", "1x T4 Sv7+ W3", "-w", "1x Gun | 12\" | 1 | N/A | 8 | "
                                 "0 | D6 | torrent", "--reroll-damage", "any", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["mean"]["kills"] == "20/27"
    r = cli("kills", "1x T4 Sv7+ W3", "-w", "1x Gun | 12\" | 1 | N/A | 8 | "
                                 "0 | D6 | torrent", "--double-attacks", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["mean"]["attacks"] == "2/1"
