"""Rules from data (issue 21): the translator of ability text, a unit's rules applied on the
side where they count, an attached Leader on the attacking side, --explain and the coverage.
Every number is worked out by hand in a comment."""

import json
import os
from fractions import Fraction as F
from pathlib import Path

import attrs
import pytest
from bsjson import STATS, ability, unit, weapon, write_folder

import mathhammer as mh
from mathhammer.app.scenario import Query
from mathhammer.app.specs import attacker_of, target_of
from mathhammer.data.rules.attached import split_attached, target_rules
from mathhammer.data.rules.coverage import coverage
from mathhammer.data.rules.parts import Scope
from mathhammer.data.rules.sentences import is_attack_relevant
from mathhammer.data.rules.translate import translate
from mathhammer.errors import InputError
from mathhammer.model.named import Conditions, Effect, NamedRule

SHARED = Path(os.environ.get("MATHHAMMER_BSDATA", Path(__file__).resolve().parents[2]
                             / "shared" / "bsdata"))
MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])


def one(name, text):
    """The single rule a text makes."""
    parts = translate(name, text, "test")
    assert len(parts) == 1, parts
    return parts[0]


# -- the translator, wording by wording ------------------------------------------------------

@pytest.mark.parametrize(("text", "described"), [
    ("Each time a model in this unit makes an attack, re-roll a Hit roll of 1.",
     "reroll_hits=ones"),
    ("Each time a model in this unit makes an attack, you can re-roll the Hit roll.",
     "reroll_hits=failed"),
    ("Each time a model in this unit makes a melee attack, re-roll a Wound roll of 1.",
     "if melee attacks: reroll_wounds=ones"),
    ("Each time a model in this unit makes a ranged attack, add 1 to the Hit roll.",
     "if ranged attacks: hit_mod=+1"),
    ("Each time a model in this unit makes an attack, add 1 to the Wound roll.", "wound_mod=+1"),
    ("Weapons equipped by models in this unit have the [LETHAL HITS] ability.",
     "abilities=[lethal hits]"),
    ("Ranged weapons equipped by models in this unit have the [SUSTAINED HITS 1] ability.",
     "if ranged attacks: abilities=[sustained hits 1]"),
    ("Melee weapons equipped by this model have the [DEVASTATING WOUNDS] and [PRECISION] "
     "abilities.", "if melee attacks: abilities=[devastating wounds, precision]"),
    ("Weapons equipped by models in this unit have the [IGNORES COVER] ability.",
     "abilities=[ignores cover]"),
    ("Weapons equipped by models in this unit have the [ANTI-VEHICLE 4+] ability.",
     "abilities=[anti-vehicle 4+]"),
    ("Models in this unit have the Feel No Pain 5+ ability.", "fnp=5"),
    ("Models in this unit have a 4+ invulnerable save.", "invuln=4"),
    ("Models in this unit have a 5+ invulnerable save against ranged attacks.",
     "if ranged attacks: invuln=5"),
    ("Each time an attack is allocated to this model, subtract 1 from the Damage "
     "characteristic of that attack.", "damage_mod=-1"),
    ("Each time an attack is allocated to this model, subtract 1 from that attack’s Damage "
     "characteristic.", "damage_mod=-1"),  # the Overlord's Implacable Resilience
    # the state of the attacker the engine checks: --stationary, a Leader attached (led)
    ("Each time this unit Remains Stationary, until the start of your next Movement phase, "
     "ranged weapons equipped by models in this unit have the [DEVASTATING WOUNDS] ability.",
     "if ranged attacks, remained stationary: abilities=[devastating wounds]"),
    ("While a NECRONS CHARACTER model is leading this unit, each time a model in this unit "
     "makes an attack, add 1 to the Hit roll.", "if led by a CHARACTER: hit_mod=+1"),
    ("Melee weapons equipped by models in this unit have the [PRECISION] ability while "
     "targeting PSYKER units.", "if melee attacks, target PSYKER: abilities=[precision]"),
    ("Each time an attack targets this unit, subtract 1 from the Hit roll.", "hit_mod=-1"),
    ("Each time an attack targets this unit, subtract 1 from the Wound roll.", "wound_mod=-1"),
    ("Improve the Armour Penetration characteristic of melee weapons equipped by models in "
     "this unit by 1.", "if melee attacks: ap_mod=+1"),
    ("Add 1 to the Strength and Damage characteristics of the bearer's melee weapons.",
     "if melee attacks: strength_mod=+1, damage_mod=+1"),
    ("Each time a model in this unit makes an attack that targets a MONSTER or VEHICLE unit, "
     "add 1 to the Hit roll.", "if target MONSTER or VEHICLE: hit_mod=+1"),
    ("Each time a model in this unit makes an attack that targets a unit that is below its "
     "Starting Strength, add 1 to the Wound roll.", "if target below starting strength: "
     "wound_mod=+1"),
    ("In your Shooting phase, each time a model in this unit makes an attack, an unmodified "
     "Hit roll of 5+ scores a Critical Hit.", "if ranged attacks: crit_hit=5"),
    ("Each time a model in this unit makes a melee attack, if this unit made a Charge move "
     "this turn, add 1 to the Wound roll.", "if melee attacks, after charging: wound_mod=+1"),
    # 11e shorthand and other spellings of the same effects
    ("This model's ranged attacks have:\n- [DEVASTATING WOUNDS].\n- [HAZARDOUS].",
     "if ranged attacks: abilities=[devastating wounds]; if ranged attacks: "
     "abilities=[hazardous]"),
    ("This unit's attacks have [SUSTAINED HITS 1].", "abilities=[sustained hits 1]"),
    ("This model has a 5+ Feel No Pain", "fnp=5"),
    ("Models in this unit have an Invulnerable save of 4+.", "invuln=4"),
    ("The bearer's melee weapons have the **[ANTI-INFANTRY 3+]]** and **[LANCE]]** abilities.",
     "if melee attacks: abilities=[anti-infantry 3+, lance]"),
    ("Each time a Psychic Attack targets this unit, subtract 1 from the Hit roll.",
     "if weapons with psychic: hit_mod=-1"),
    ("Each time you target this unit with the Fire Overwatch Stratagem, hits are scored on "
     "unmodified Hit rolls of 5+ while resolving that Stratagem.", "overwatch_hits_on=5"),
    ("Each time a ranged attack targets this unit, if the Strength characteristic of that "
     "attack is greater than this unit's Toughness characteristic, subtract 1 from that "
     "attack's Wound roll.", "if ranged attacks: wound_mod_if_stronger=-1"),
    # a characteristic improved after "have their" (Markerlight Precision), and 11e's "+1 AP"
    # alone or as an item of a list (Howling Plate, Eye of the Hunter)
    ("Ranged weapons equipped by models in this unit have their Ballistic Skill characteristic "
     "improved by 1.", "if ranged attacks: skill_mod=+1"),
    ("This unit's ranged attacks have +1 AP.", "if ranged attacks: ap_mod=+1"),
    ("This unit's melee attacks have:\n- [LANCE].\n- +1 AP.",
     "if melee attacks: abilities=[lance]; if melee attacks: ap_mod=+1"),
])
def test_common_wordings_are_applied(text, described):
    rule = one("Ability", text)
    assert rule.automatic and rule.rule.describe() == described
    assert rule.rule.text == text and rule.rule.source == "test"


def test_sides_and_scopes():
    lead = one("Tactical Precision", "While this model is leading a unit, weapons equipped by "
               "models in that unit have the [LETHAL HITS] ability.")
    assert (lead.scope, lead.rule.side) == (Scope.LED, "attacker")
    fnp = one("Guard", "While this model is leading a unit, models in that unit have the Feel "
              "No Pain 4+ ability.")
    assert (fnp.scope, fnp.rule.side, fnp.rule.describe()) == (Scope.LED, "defender", "fnp=4")
    assert one("Halo", "This model has a 4+ invulnerable save.").scope is Scope.MODEL
    # an ability with a part for each side makes one rule per side
    both = translate("Augmentation", "Each time a model in this unit makes an attack, improve "
                     "the Armour Penetration characteristic of that attack by 1. Each time an "
                     "attack targets this unit, worsen the Armour Penetration characteristic "
                     "of that attack by 1.")
    assert [(p.rule.name, p.rule.side, p.rule.describe()) for p in both] == [
        ("Augmentation", "attacker", "ap_mod=+1"),
        ("Augmentation (when attacked)", "defender", "ap_mod=-1")]


@pytest.mark.parametrize("text", [
    # a condition the engine cannot check: a switch, off by default, that says what it assumes
    "Each time a model in this unit makes an attack that targets a unit within range of an "
    "objective marker, re-roll a Hit roll of 1.",
    "At the start of your Command phase, select one enemy unit. Each time a model in this "
    "unit makes an attack that targets that unit, you can re-roll the Hit roll.",
    "Once per battle, in your Shooting phase, this unit can use this ability. If it does, "
    "until the end of the phase, add 1 to the Wound roll.",
    # the attacker's keyword is not known to the defender's rules
    "Each time a MONSTER or VEHICLE unit makes an attack against this unit, subtract 1 from "
    "the Wound roll.",
    # the attacking model's own keyword
    "Each time a PSYKER model in this unit makes a melee attack, add 1 to the Hit roll.",
    # the state of the unit itself
    "While this model has 1-5 wounds remaining, each time this model makes an attack, "
    "subtract 1 from the Hit roll.",
])
def test_conditions_the_engine_cannot_check_make_switches(text):
    rule = one("Ability", text)
    assert rule.switch and not rule.automatic and rule.rule.assumes


@pytest.mark.parametrize("text", [
    "Weapons with [TWIN-LINKED] in their profile are known as Twin-linked weapons.",
])
def test_definitions_grant_nothing(text):
    assert not any(p.rule.usable for p in translate("Twin-linked", text))


def test_a_unit_that_cannot_have_cover_is_attacked_as_with_ignores_cover():
    # the negation is the defender's: attacks against this model ignore cover
    rule = one("Exposed", "This model cannot have the Benefit of Cover.")
    assert (rule.rule.side, rule.rule.describe(), rule.automatic) == (
        "defender", "abilities=[ignores cover]", True)


def test_a_second_sentence_instead_keeps_the_first_ones_attack():
    # Shock Assault: the re-roll of 1s is always on in melee; the full re-roll needs an
    # objective (a switch), and is a melee attack's too ("instead" of the first sentence's)
    parts = translate("Shock Assault", "Each time a model in this unit targets an enemy unit "
                      "with a melee attack, re-roll a Wound roll of 1. If that enemy unit is "
                      "within range of an objective marker, you can re-roll the Wound roll "
                      "instead.")
    assert [(p.rule.name, p.rule.describe(), p.switch) for p in parts] == [
        ("Shock Assault", "if melee attacks: reroll_wounds=ones", False),
        ("Shock Assault (1)", "if melee attacks: reroll_wounds=failed", True)]


def test_a_case_in_brackets_that_applies_instead_is_read_as_the_next_sentence():
    # Sunderer of Fortresses: +1 at a VEHICLE; the FORTIFICATION's +2 "instead" read as the
    # sentence after (a switch that replaces it), not with the +1 (which made every VEHICLE +2)
    parts = translate("Sunderer", "Each time this model makes an attack that targets a "
                      "VEHICLE, improve the Strength and Damage characteristic of that attack by "
                      "1 (if that attack targets a FORTIFICATION unit, improve the Strength and "
                      "Damage characteristics of that attack by 2 instead).")
    assert [(p.rule.describe(), p.switch) for p in parts] == [
        ("if target VEHICLE: strength_mod=+1, damage_mod=+1", False),
        ("if target FORTIFICATION: strength_mod=+2, damage_mod=+2", True)]
    # one that changes no attack makes no rule
    parts = translate("Hunter", "Each time this model makes an attack, re-roll a Hit roll of 1 "
                      "(if that CHARACTER unit was a PSYKER, this model regains up to 3 lost "
                      "wounds instead).")
    assert [p.rule.describe() for p in parts] == ["reroll_hits=ones"]
    # one inside a sentence is said not modelled, never read with the sentence's effect
    parts = translate("Mid", "Each time this model makes an attack, re-roll a Hit roll of 1 "
                      "(if that attack targets a PSYKER, re-roll the Hit roll instead) and add 1 "
                      "to the Wound roll.")
    assert [p.rule.not_modelled or p.rule.describe() for p in parts] == [
        "wound_mod=+1, reroll_hits=ones",
        'a case in brackets that applies instead ("if that attack targets a PSYKER, re-roll '
        'the Hit roll instead")']


def test_a_chosen_weapon_with_a_word_in_its_name_is_that_weapon_only():
    # Penitent's Roar: one bolt Pistol of the bearer; a plasma pistol gets nothing
    parts = translate("Roar", "Select one Pistol weapon equipped by the bearer that has the word "
                      "'bolt' in its name, e.g. bolt pistol. That weapon is now a Crusade Relic; "
                      "it has the [PRECISION] and [IGNORES COVER] abilities and improve its "
                      "Damage and Armour Penetration characteristics by 1.")
    assert [(p.rule.describe(), p.switch) for p in parts] == [
        ("if with bolt, weapons with pistol: damage_mod=+1, ap_mod=+1, "
         "abilities=[precision, ignores cover]", True)]
    when = parts[0].rule.effects[0].requires
    assert when.weapon_names == ("bolt",) and when.weapon_abilities == ("pistol",)


def test_an_options_title_in_bold_is_not_read_as_a_weapons_name():
    # Kindred Sorcery (Grand Coven): "**Wrath of the Immaterium**" on its own line, then
    # "Psychic weapons equipped by ...": the Psychic weapons, not a weapon "immaterium psychic"
    text = ("In your Command phase, you can select one of the abilities listed below.\n\n"
            "**Psychic Maelstrom**\nEach time a model from your army makes an attack with a "
            "Psychic weapon, add 1 to the Wound roll.\n\n**Wrath of the Immaterium**\n"
            "Psychic weapons equipped by models in your army have the [Devastating Wounds] "
            "ability.")
    parts = translate("Sorcery", text)
    assert [p.rule.describe() for p in parts] == [
        "if weapons with psychic: wound_mod=+1",
        "if weapons with psychic: abilities=[devastating wounds]"]
    assert all(not e.requires.weapon_names for p in parts for e in p.rule.effects)
    # a Psychic bolt: Critical Wounds 6 x 2/3 x 1/6 = 2/3 mortal wounds (before: none)
    bolt = mh.Weapon("Bolt", attacks=6, skill=3, strength=4, ap=0, damage=1,
                     abilities=("psychic",))
    assert mh.attack(bolt, MEQ, apply=[parts[1].rule]).mortal.mean() == F(2, 3)


def test_an_excluded_keyword_in_the_plural_is_a_core_keywords_only():
    # "(excluding MONSTERS and VEHICLES)" are the core keywords MONSTER and VEHICLE; GROTS is a
    # keyword of its own (Belligerent Boarders, Ramship Raiders): not read as GROT
    parts = translate("Boarders", "Each time an attack targets a unit (excluding GROTS units), "
                      "if the Strength characteristic of that attack is greater than the "
                      "Toughness characteristic of that unit, subtract 1 from the Wound roll.")
    assert [p.rule.describe() for p in parts] == [
        "if target not GROTS: wound_mod_if_stronger=-1"]
    assert one("Edge", "Each time a model in this unit makes a melee attack that targets a unit "
               "(excluding MONSTERS and VEHICLES), improve the Armour Penetration characteristic "
               "of that attack by 1.").rule.describe() == \
        "if melee attacks, target not MONSTER or VEHICLE: ap_mod=+1"
    gun = mh.Weapon("Gun", attacks=6, skill=3, strength=6, ap=0, damage=1)
    grots = mh.Target(models=10, toughness=2, save=6, wounds=1, keywords=["ORKS", "GROTS"])
    boyz = mh.Target(models=10, toughness=5, save=5, wounds=1, keywords=["ORKS", "INFANTRY"])
    rule = parts[0].rule
    # GROTS excluded: S6 v T2 2+ 5/6; hit 2/3; Sv6+ fails 5/6: 6 x 2/3 x 5/6 x 5/6 = 25/9
    assert mh.attack(gun, grots, apply=[rule]).unsaved.mean() == F(25, 9)
    # Boyz: S6 > T5, 3+ -1 -> 4+ 1/2; Sv5+ fails 2/3: 6 x 2/3 x 1/2 x 2/3 = 4/3
    assert mh.attack(gun, boyz, apply=[rule]).unsaved.mean() == F(4, 3)


def test_a_leader_as_one_branch_of_an_or_is_no_condition_of_its_own():
    # Blistering Fusillade: "Starting Strength of 5 or more, or ... a CHARACTER is leading": a
    # full unit of 5 not led has it, so the switch asserts either branch and 'led' is not checked
    parts = translate("Fusillade", "If this unit has a Starting Strength of 5 or more, or if a "
                      "CHARACTER is leading this unit, then each time a model in this unit makes "
                      "a ranged attack that targets an Afflicted unit, improve the Strength and "
                      "Armour Penetration characteristics of that attack by 1.")
    # (rules8b: "if A, or if B" is a switch per alternative; the Leader's one checks 'led')
    assert [(p.rule.describe(), p.switch) for p in parts] == [
        ("if ranged attacks: strength_mod=+1, ap_mod=+1", True),
        ("if ranged attacks, led by a CHARACTER: strength_mod=+1, ap_mod=+1", True)]
    # not led: S5 v T4 3+ 2/3; AP-2 v Sv3+ -> 5+ fails 2/3; hit 2/3: 6 x 2/3 x 2/3 x 2/3 = 16/9
    gun = mh.Weapon("Gun", attacks=6, skill=3, strength=4, ap=-1, damage=1)
    assert mh.attack(gun, MEQ, apply=[parts[0].rule]).unsaved.mean() == F(16, 9)
    # the Leader alone still is a condition: "while a CHARACTER is leading this unit"
    assert one("Led", "While a CHARACTER is leading this unit, each time a model in this unit "
               "makes an attack, add 1 to the Hit roll.").rule.describe() == \
        "if led by a CHARACTER: hit_mod=+1"


@pytest.mark.parametrize(("text", "described"), [
    ("This unit’s attacks have +1 **S**.", "strength_mod=+1"),  # Bane-forged weapons
    ("This model’s melee attacks have +1 S.", "if melee attacks: strength_mod=+1"),
    ("This unit’s melee attacks have +1 **WS**.", "if melee attacks: skill_mod=+1"),
    ("This unit’s ranged attacks have +2 **S**.", "if ranged attacks: strength_mod=+2"),
    ("This model’s attacks have +1 **D**.", "damage_mod=+1"),
    ("Friendly units’ attacks have +1 **BS** and **WS**.", "skill_mod=+1"),  # Holy Quest
    ("While a friendly ADEPTUS MECHANICUS unit is within 6\" of this model, that unit’s melee "
     "attacks have +1 **WS** and **AP**.", "if melee attacks: skill_mod=+1, ap_mod=+1"),
    ("While the Waaagh! is active for this unit, this model's melee weapons have +4 A.",
     "if melee attacks: attacks_mod=+4"),
])
def test_the_11e_short_characteristics_of_an_attack_are_read(text, described):
    # the 11e wording "+1 S", "+1 WS and AP", "+4 A": as "add 1 to the Strength ..."
    assert is_attack_relevant(text)
    assert [p.rule.describe() for p in translate("Short", text) if p.rule.usable] == [described]


def test_the_11e_short_toughness_and_save_are_said_not_modelled():
    # Mark of the Star Children: "+1 T" and "4+ Sv" change the unit's own characteristics
    parts = translate("Mark", "This unit has:\n- +1 **T**.\n- 4+ **Sv**.\n- This unit’s melee "
                      "attacks have +1 **S**.")
    assert [p.rule.not_modelled or p.rule.describe() for p in parts] == [
        "if melee attacks: strength_mod=+1",
        # each bullet read under its head (rules16: "This unit has:. +1 T", then "4+ Sv" alone)
        'changes the unit\'s own characteristics ("This unit has +1 T"); changes the unit\'s '
        'own characteristics ("This unit has 4+ Sv")']
    # S4 +1 = 5 v T4: 3+ = 2/3; hit 2/3; fail 1/3: 6 x 2/3 x 2/3 x 1/3 = 8/9 (without 2/3)
    blade = mh.Weapon("Blade", attacks=6, skill=3, strength=4, ap=0, damage=1, range="melee")
    assert mh.attack(blade, MEQ, apply=[parts[0].rule]).unsaved.mean() == F(8, 9)


def test_a_hit_of_1_is_a_hit_roll_of_1():
    # Enemy Spotted (both editions): "re-roll a Hit of 1" is the data's "re-roll a Hit roll of 1"
    parts = translate("Spotted", "Each time a model from your army makes a ranged attack that "
                      "targets an enemy unit that is within 9\" of and visible to any "
                      "Searchlights from your army, re-roll a Hit of 1 and, if the model making "
                      "that attack is a Sentry Gun, add 1 to the Hit roll as well.")
    assert [p.rule.describe() for p in parts] == [
        "if ranged attacks: reroll_hits=ones", "if ranged attacks: hit_mod=+1"]
    assert one("Ones", "Each time a model in this unit makes an attack, re-roll a Wound of 1."
               ).rule.describe() == "reroll_wounds=ones"


def test_the_leader_of_a_unit_said_by_what_it_holds_is_that_model_only():
    # Court of the Archon: FNP 4+ for the CHARACTER leading the Court, not the Court's models
    parts = translate("Court", "While a CHARACTER model is leading a unit that contains one or "
                      "more Lhamaean, Medusae, Sslyth and/or Ur-ghul models, that CHARACTER model "
                      "has the Feel No Pain 4+ ability.")
    assert [(p.rule.describe(), p.automatic, p.model) for p in parts] == [
        ("fnp=4", True, "CHARACTER")]


def test_either_or_grants_are_switches_one_each():
    parts = translate("Choice", "Weapons equipped by models in this unit have the "
                      "[LETHAL HITS] or [SUSTAINED HITS 1] ability.")
    assert [(p.rule.name, p.rule.describe(), p.switch) for p in parts] == [
        ("Choice (1)", "abilities=[lethal hits]", True),
        ("Choice (2)", "abilities=[sustained hits 1]", True)]


@pytest.mark.parametrize(("text", "reason"), [
    ("Models in this unit have the Feel No Pain 4+ ability against [PSYCHIC] attacks and "
     "against mortal wounds caused by [PSYCHIC] abilities.",
     "Feel No Pain against some attacks only"),
    ("Once per turn, you can re-roll one Damage roll made for this model.",
     "re-rolls a Damage roll"),
    # Templar Vows: the engine checks S > T only; the +1 is never given without its condition
    ("Each time a model in this unit makes a melee attack, if the Strength characteristic of "
     "that attack is less than or equal to the Toughness characteristic of the target, add 1 "
     "to the wound roll.", "a Wound roll rule for a Strength at most (or below) the Toughness"),
    ("At the end of the Fight phase, roll one D6 for each enemy unit within 6\": on a 4+, "
     "that unit suffers D3 mortal wounds and each time it makes an attack subtract 1 from "
     "the Hit roll.", ""),
])
def test_what_cannot_be_modelled_is_named(text, reason):
    parts = translate("Ability", text)
    missing = [p.rule.not_modelled for p in parts if p.rule.not_modelled]
    # each reason quotes the clause it is about
    if reason:
        assert missing == [f'{reason} ("{text.rstrip(".")}")']
        assert not any(p.rule.usable for p in parts)
    else:  # the Hit roll part is a switch; the mortal wounds are named as not modelled
        assert missing == ["mortal wounds outside the attack's rolls (\"At the end of the Fight "
                           "phase, roll one D6 for each enemy unit within 6\": on a 4+, that "
                           "unit suffers D3 mortal wounds and each time it makes an attack "
                           "subtract 1 from the Hit roll\")"]


def test_texts_that_change_no_attack_make_no_rule():
    assert translate("Scouts", "This unit has the Scouts 6\" ability.") == ()
    assert not is_attack_relevant("At the start of your Command phase, you gain 1CP.")


def test_coverage_counts_attack_relevant_and_applied():
    abilities = [("A", "Each time a model in this unit makes an attack, add 1 to the Hit "
                  "roll."),
                 ("B", "Models in this unit have the Feel No Pain 6+ ability against "
                  "mortal wounds and attacks with an unmodified Damage characteristic of 1."),
                 ("C", "This unit can Advance and charge."),
                 ("D", "Once per battle, this model can use this ability: until the end of "
                  "the phase, add 1 to the Wound roll.")]
    # A applied, D a switch (applied when named), B not modelled, C changes no attack
    assert coverage(abilities) == {"attack_relevant": 3, "applied": 2, "automatic": 1,
                                   "partly": 0, "by_beneficiary": {"unit": 2},
                                   "not_modelled": {"B": 1}}


# -- translated rules give the numbers of the options they stand for -------------------------

def test_a_translated_rule_gives_exactly_the_option_it_stands_for():
    rifle = mh.Weapon("Rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    for text, options in [
        ("Each time a model in this unit makes an attack, re-roll a Hit roll of 1.",
         {"reroll_hits": "ones"}),
        ("Each time an attack targets this unit, subtract 1 from the Hit roll.",
         {"hit_mod": -1}),
        ("Weapons equipped by models in this unit have the [LETHAL HITS] ability.",
         {"abilities": ["lethal hits"]}),
        ("Add 1 to the Attacks characteristic of ranged weapons equipped by models in this "
         "unit.", {"attacks_mod": 1}),
    ]:
        rule = one("Rule", text).rule
        assert mh.attack([(rifle, 5)], MEQ, apply=[rule]).kills == \
            mh.attack([(rifle, 5)], MEQ, **options).kills


def test_target_keyword_condition_checks_the_group_attacked():
    # +1 to hit against VEHICLE only: 1 attack at 4+ is 1/2, with +1 2/3
    rule = NamedRule("Hunter", "", "datasheet ability", "attacker", "...",
                     effects=(Effect((("hit_mod", 1),), Conditions(target_keywords=("VEHICLE",))),))
    gun = mh.Weapon("Gun", attacks=1, skill=4, strength=4, ap=0, damage=1)
    tank = mh.Target(models=1, toughness=4, save=7, wounds=5, keywords=["VEHICLE"])
    man = mh.Target(models=1, toughness=4, save=7, wounds=5, keywords=["INFANTRY"])
    assert mh.attack(gun, tank, apply=[rule]).hits.mean() == F(2, 3)
    assert mh.attack(gun, man, apply=[rule]).hits.mean() == F(1, 2)


def test_attacks_mod_adds_to_each_model_never_below_one():
    gun = mh.Weapon("Gun", attacks="D3", skill=None, strength=4, ap=0, damage=1)
    t = mh.Target(models=10, toughness=4, save=7, wounds=1)
    # D3 + 1: (2 + 3 + 4) / 3 = 3; D3 - 1 never below 1: (1 + 1 + 2) / 3 = 4/3
    assert mh.attack(gun, t, attacks_mod=1).attacks.mean() == 3
    assert mh.attack(gun, t, attacks_mod=-1).attacks.mean() == F(4, 3)


def test_explain_gives_each_rules_exact_contribution():
    # +1 to hit on 4+: 1/2 -> 2/3 hits; S4 v T4 wound 1/2; no save; one W1 model:
    # P(kill) 1/3 with, 1/4 without: the rule adds 1/12 to E[kills] and P(destroyed)
    plus = NamedRule("Plus", "", "datasheet ability", "attacker", "Add 1 to the Hit roll.",
                     effects=(Effect((("hit_mod", 1),)),))
    gun = mh.Weapon("Gun", attacks=1, skill=4, strength=4, ap=0, damage=1)
    q = Query("Gun", ((gun, 1),), "One", mh.Target(1, 4, 7, 1), unit_rules=(plus,))
    [c] = q.explain()
    assert (c.rule.name, c.kills, c.destroyed) == ("Plus", F(1, 12), F(1, 12))


# -- a unit's rules on the side where they count (a small catalogue) -------------------------

@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """A squad of five (bolt rifles, +1 to wound when shooting, -1 to be hit, an Oath-like
    switch) and a Leader (a pistol, re-roll hit rolls of 1 for itself, Lethal Hits for the
    unit it leads, a 4+ invulnerable save)."""
    squad = unit("u1", "Squad", 5, ["Infantry"], [
        ("Drilled", "Each time a model in this unit makes a ranged attack, add 1 to the Wound "
                    "roll."),
        ("Shield Wall", "Each time an attack targets this unit, subtract 1 from the Hit roll."),
        ("Oath", "At the start of your Command phase, select one enemy unit. Each time a "
                 "model in this unit makes an attack that targets that unit, you can re-roll "
                 "the Hit roll."),
        ("Rapid Reload", "Once per turn, when this unit is selected to shoot, you can "
                         "re-roll one Damage roll made for its attacks.")],
        weapon("w1", "Bolt rifle", "2", "3+", "4", "-1", "1"), STATS)
    leader = unit("u2", "Leader", 1, ["Infantry", "Character"], [
        ("Leader", "This model can be attached to the following unit:\n- Squad"),
        ("Tactical Precision", "While this model is leading a unit, weapons equipped by "
                               "models in that unit have the [LETHAL HITS] ability."),
        ("Marksman", "Each time this model makes an attack, re-roll a Hit roll of 1."),
        ("Iron Halo", "This model has a 4+ invulnerable save.")],
        weapon("w2", "Master pistol", "1", "3+", "4", "-1", "1"), STATS)
    cat = {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1",
           "sharedSelectionEntries": [squad, leader],
           "sharedProfiles": [ability("e1", "Fury Blade", "Add 1 to the Damage characteristic "
                                       "of the bearer's ranged weapons."),
                              ability("d1", "Storm Doctrine", "Each time a model in this unit "
                                       "makes a ranged attack, re-roll a Wound roll of 1.")],
           "entryLinks": [{"id": "e1", "name": "Squad", "targetId": "u1",
                           "type": "selectionEntry"},
                          {"id": "e2", "name": "Leader", "targetId": "u2",
                           "type": "selectionEntry"}]}
    return write_folder(tmp_path_factory.mktemp("cat"), cat)


def test_split_attached():
    assert split_attached("Squad + Leader") == ("Squad", "Leader")
    assert split_attached("10x T3 Sv5+ W1 + 1x T3 Sv4+ W3 CHARACTER") is None
    with pytest.raises(InputError, match="expected UNIT \\+ LEADER"):
        split_attached("Squad + ")


def test_an_attached_leaders_weapons_fire_with_the_unit_and_its_rules_apply(catalogue):
    a = attacker_of(f"{catalogue}:Squad + {catalogue}:Leader")
    assert a.label == "Squad + Leader" and a.led and a.points == 100 and a.notes == ()
    assert [(w.name, n) for w, n in a.profiles] == [("Bolt rifle", 5), ("Master pistol", 1)]
    applied = {r.name: r for r in a.rules.applied}
    assert set(applied) == {"Drilled", "Tactical Precision", "Marksman"}
    # the squad's own ability reaches its weapons, the Leader's own ability its pistol
    assert applied["Drilled"].requires.weapons == ("Bolt rifle",)
    assert applied["Marksman"].requires.weapons == ("Master pistol",)
    assert applied["Tactical Precision"].requires.weapons is None
    assert [r.name for r in a.rules.switches] == ["Oath"]
    assert [r.name for r in a.rules.not_modelled] == ["Rapid Reload"]
    q = Query(a.label, a.profiles, "MEQ", MEQ, unit_rules=a.rules.applied)
    # bolt rifles (10 attacks): hit 3+, a 6 (1/6) wounds automatically (Lethal Hits), other
    # hits (1/2) wound on 3+ with Drilled (2/3); save 4+ fails 1/2:
    #   1/6 * 1/2 + 1/2 * 2/3 * 1/2 = 1/4 each, 10/4 = 5/2
    # master pistol (1 attack): hit 3+ re-rolling 1s: hits 2/3 + 1/6 * 2/3 = 7/9, of which
    # 6s 1/6 + 1/6 * 1/6 = 7/36; S4 v T4 4+ without Drilled: 7/36 * 1/2 + 7/12 * 1/2 * 1/2
    #   = 35/144;  in all 5/2 + 35/144 = 395/144
    assert q.run().unsaved.mean() == F(395, 144)


def test_rules_of_the_target_and_its_leader(catalogue):
    gun = mh.Weapon("Gun", attacks=1, skill=4, strength=4, ap=-3, damage=1)
    found = target_rules(f"{catalogue}:Squad + {catalogue}:Leader")
    name, unit = target_of(f"{catalogue}:Squad + {catalogue}:Leader")
    assert name == "Squad + Leader" and [g.models for g in unit.groups] == [5, 1]
    assert {r.name: r.describe() for r in found.applied} == {
        "Shield Wall": "hit_mod=-1", "Iron Halo": "against Leader: invuln=4"}
    # Shield Wall against the whole attached unit: 12 attacks hitting on 5+ (1/3): 4 hits
    r = mh.attack([(gun, 12)], unit, apply=found.applied)
    assert r.hits.mean() == 4
    # the Leader alone: AP-3 makes its 3+ save 6+; the 4+ invulnerable save is better:
    # 1/2 hit * 1/2 wound * 1/2 failed save = 1/8 unsaved per attack
    alone = target_rules(f"{catalogue}:Leader")
    assert mh.attack(gun, target_of(f"{catalogue}:Leader")[1],
                     apply=alone.applied).unsaved.mean() == F(1, 8)


def test_kills_explain_and_switches_on_the_command_line(cli, catalogue):
    pair = f"{catalogue}:Squad + {catalogue}:Leader"
    data = json.loads(cli.ok("kills", pair, "MEQ", "--json", "--explain").stdout)
    assert data["mean"]["unsaved"] == "395/144" and data["options"]["led"] is True
    assert data["unit_rules"] == ["Drilled", "Tactical Precision", "Marksman"]
    assert data["not_modelled"][0]["name"] == "Rapid Reload"
    explained = {e["name"]: e for e in data["explain"]}
    base = F(data["mean"]["kills"])
    without = F(json.loads(cli.ok("kills", f"{catalogue}:Squad", "MEQ", "--json").stdout)
                ["mean"]["kills"])
    assert set(explained) == {"Drilled", "Tactical Precision", "Marksman"}
    for e in explained.values():
        assert e["source"].startswith("BattleScribe 11e: Testers.json")
    # Drilled alone removed: the same as the squad without its +1 to wound on rifles
    assert F(explained["Drilled"]["kills"]) > 0 and base > without
    text = cli.ok("kills", pair, "MEQ", "--explain").stdout
    assert "Tactical Precision (datasheet ability, attacker): abilities=[lethal hits]" in text
    assert "not modelled:\n  Rapid Reload: re-rolls a Damage roll" in text
    # the Oath switch by name: re-roll every failed Hit roll of the rifles (Drilled, Lethal):
    # hits 2/3 + 1/3 * 2/3 = 8/9, 6s 1/6 + 1/3 * 1/6 = 2/9, other hits 2/3:
    #   (2/9 * 1/2 + 2/3 * 2/3 * 1/2) * 10 = 1/3 * 10 = 10/3;  pistol as before: 35/144
    oath = json.loads(cli.ok("kills", pair, "MEQ", "--json", "--rule", "Oath").stdout)
    assert F(oath["mean"]["unsaved"]) == F(10, 3) + F(35, 144)
    listed = cli.ok("rules", "--for", pair).stdout
    assert ("attacking, switches (--rule NAME):\n  Oath: with Bolt rifle: "
            "reroll_hits=failed") in listed
    assert "defending, applied:\n  Shield Wall: hit_mod=-1" in listed


_LIST = """Test list (100 points)

Testers
Strike Force (2000 points)
{attached}
Leader (50 points)
{leader}  • 1x Master pistol
{enhancement}
Squad (50 points)
{bodyguard}  • 5x Squad
    • 5x Bolt rifle
"""


def _army(tmp_path, attached=True, enhancement=""):
    text = _LIST.format(
        attached="\nAttached Units\nAttached Unit 1\n" if attached else "",
        leader="• Attached as: Leader (Character)\n" if attached else "",
        bodyguard="• Attached as: Bodyguard\n" if attached else "",
        enhancement=f"  • Enhancement: {enhancement}\n" if enhancement else "")
    path = tmp_path / f"list-{attached}-{bool(enhancement)}.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _cell(cli, *args):
    data = json.loads(cli.ok("table", *args, "--format", "json").stdout)
    return [(r["label"], r["values"][0]["exact"]) for r in data["rows"]]


def test_an_army_lists_attached_pair_and_enhancement_get_their_rules(cli, catalogue, tmp_path):
    folder = str(catalogue.parent)
    t = "1x T4 Sv7+ W20"  # no save, no wound lost to overkill: E[damage] adds up
    # rifles: 10 attacks, each 1/6 (Lethal) + 1/2 * 2/3 (Drilled) = 1/2 -> 5
    # pistol: 7/36 + 7/12 * 1/2 = 35/72 (Marksman, Lethal, no Drilled)
    assert _cell(cli, "--army", _army(tmp_path), "-t", t, "--metric", "damage",
                 "--data", folder) == [("Leader + Squad", "395/72")]
    # the same pair attached with --attach, from a list that leaves them apart
    assert _cell(cli, "--army", _army(tmp_path, attached=False), "--attach", "Leader=Squad",
                 "-t", t, "--metric", "damage", "--data", folder) == \
        [("Leader + Squad", "395/72")]
    # army --json lists each row's rules from data
    rules = json.loads(cli.ok("army", _army(tmp_path, enhancement="Fury Blade"), "--json",
                            "--data", folder).stdout)["rules"]
    assert rules == [{"unit": "Leader + Squad",
                      "attacking": {"applied": ["Drilled", "Tactical Precision", "Marksman",
                                                "Fury Blade"], "switches": ["Oath"]},
                      "defending": {"applied": ["Shield Wall", "Iron Halo"], "switches": []},
                      "not_modelled": [{"name": "Rapid Reload",
                                        "reason": "re-rolls a Damage roll (\"Once per turn, "
                                        "when this unit is selected to shoot, you can re-roll "
                                        "one Damage roll made for its attacks\")"}],
                      # where each comes from: the squad's datasheet, its Leader's abilities
                      # (Marksman and Iron Halo are the Leader model's own), the enhancement
                      "from": {"Drilled": "datasheet", "Tactical Precision": "leader",
                               "Marksman": "leader", "Fury Blade": "enhancement",
                               "Oath": "datasheet", "Shield Wall": "datasheet",
                               "Iron Halo": "leader", "Rapid Reload": "datasheet"}}]
    # the text output says the same, row by row
    text = cli.ok("army", _army(tmp_path, enhancement="Fury Blade"), "--data", folder).stdout
    assert "Leader + Squad\n    attacking, applied: Drilled (datasheet), Tactical Precision " \
        "(leader), Marksman (leader), Fury Blade (enhancement)\n    attacking, switches: " \
        "Oath (datasheet)\n    attacked, applied: Shield Wall (datasheet), Iron Halo (leader)" \
        "\n    not modelled: Rapid Reload (re-rolls a Damage roll)" in text
    # Fury Blade: +1 Damage to the bearer's (the Leader's) ranged weapons only: 5 + 2 * 35/72
    assert _cell(cli, "--army", _army(tmp_path, enhancement="Fury Blade"), "-t", t, "--metric",
                 "damage", "--data", folder) == [("Leader + Squad", "215/36")]


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "10e").is_dir(), reason="shared BattleScribe data not found")
def test_intercessors_with_a_lieutenant_have_lethal_hits(cli):
    out = cli.ok("kills", "Intercessor Squad + Lieutenant", "MEQ", "-w", "Bolt Rifle",
               "--data", str(SHARED / "10e"), "--json", "--explain").stdout
    data = json.loads(out)
    # 10 bolt rifle attacks: hit 3+, a 6 wounds automatically (Tactical Precision: Lethal
    # Hits), other hits wound on 4+, save 3+ at AP-1 fails 1/2:
    #   10 * (1/6 * 1/2 + 1/2 * 1/2 * 1/2) = 25/12  (5/3 without the Lieutenant)
    assert data["mean"]["unsaved"] == "25/12"
    [tp] = [e for e in data["explain"] if e["name"] == "Tactical Precision"]
    plain = json.loads(cli.ok("kills", "Intercessor Squad", "MEQ", "-w", "Bolt Rifle",
                            "--data", str(SHARED / "10e"), "--json").stdout)
    assert plain["mean"]["unsaved"] == "5/3"
    # the only rule applied: its contribution is the whole difference
    assert F(tp["kills"]) == F(data["mean"]["kills"]) - F(plain["mean"]["kills"])
    assert tp["source"] == "BattleScribe 10e: Imperium - Space Marines.cat, Lieutenant"


@pytest.mark.slow
@pytest.mark.skipif(not (SHARED / "11e").is_dir(), reason="shared BattleScribe data not found")
def test_coverage_of_the_11e_data():
    from mathhammer.data.rules.coverage import data_coverage

    c = data_coverage("11e", SHARED)
    assert c["attack_relevant"] > 1000
    assert c["applied"] >= 0.8 * c["attack_relevant"]
    assert sum(c["not_modelled"].values()) == c["attack_relevant"] - c["applied"]


def test_an_attached_attacker_is_led_and_a_leader_that_cannot_lead_is_said(cli):
    r = cli("kills", "Necron Warriors + Skitarii Marshal", "MEQ", "--json",
                                 "--half-range", "--rule", "Conquering Tyrant")
    assert r.exit_code == 0
    assert "warning: Skitarii Marshal cannot lead Necron Warriors" in r.stderr
    data = json.loads(r.stdout)
    assert data["options"]["led"] is True
    # led by a CHARACTER, Conquering Tyrant re-rolls every failed Hit roll at half range:
    # 10 warriors x 2 shots (Rapid Fire 1) at 4+: 20 * (1/2 + 1/2 * 1/2) = 15;
    # the Marshal's pistol at 3+: 2/3 + 1/3 * 2/3 = 8/9
    assert F(data["mean"]["hits"]) == 15 + F(8, 9)
    alone = json.loads(cli.ok("kills", "Necron Warriors", "MEQ", "--json", "--half-range",
                            "--rule", "Conquering Tyrant").stdout)
    # not led: re-roll only 1s: 20 * (1/2 + 1/6 * 1/2) = 35/3
    assert F(alone["mean"]["hits"]) == F(35, 3)


def test_detachment_and_enhancement_by_name(cli, catalogue):
    pair = f"{catalogue}:Squad + {catalogue}:Leader"
    data = json.loads(cli.ok("kills", pair, "1x T4 Sv7+ W20", "--json", "--detachment",
                           "storm doctrine", "--enhancement", "Fury Blade").stdout)
    # rifles: 1/6 (Lethal) + 1/2 * (2/3 + 1/6 * 2/3) (Drilled, Storm Doctrine) = 5/9, x10;
    # pistol: 7/36 + 7/12 * (1/2 + 1/6 * 1/2) = 77/144 unsaved, 2 damage each (Fury Blade):
    #   50/9 + 77/72 = 53/8
    assert data["mean"]["damage"] == "53/8"
    assert data["unit_rules"] == ["Drilled", "Tactical Precision", "Marksman", "Storm Doctrine",
                                  "Fury Blade"]
    r = cli("kills", pair, "MEQ", "--detachment", "Storm Doctrines!")
    assert r.exit_code == 2
    assert "--detachment 'Storm Doctrines!': not in Testers.json; closest: Storm Doctrine" \
        in r.stderr
    r = cli("kills", "Necron Warriors", "MEQ", "--enhancement", "X")
    assert r.exit_code == 2 and "needs a unit from the BattleScribe data" in r.stderr


def test_data_check_reports_the_coverage_of_rules_from_data(cli, catalogue):
    # the fixture's abilities that change an attack: Drilled, Shield Wall, Oath (a switch),
    # Rapid Reload, Tactical Precision, Marksman, Iron Halo, Fury Blade, Storm Doctrine = 9
    # (the Leader list is not one); all but Rapid Reload (one re-rolled Damage roll) apply
    r = cli("data", "check", "--data", str(catalogue.parent), "--json",
                                 "--jobs", "1", "--edition", "11e")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)["abilities"]
    assert (got["attack_relevant"], got["applied"]) == (9, 8)
    assert sum(got["not_modelled"].values()) == 1


def test_a_lists_stated_attachment_is_undone_with_alone(cli, catalogue, tmp_path):
    """``--attach "LEADER=alone"`` undoes the attachment a list states (the page's "not
    attached" choice): the rows are the list's without it, each unit's own value."""
    folder = str(catalogue.parent)
    t = "1x T4 Sv7+ W20"
    stated, apart = _army(tmp_path), _army(tmp_path, attached=False)
    undone = _cell(cli, "--army", stated, "--attach", "Leader=alone", "-t", t, "--metric",
                   "damage", "--data", folder)
    assert [label for label, _ in undone] == ["Leader", "Squad"]
    assert undone == _cell(cli, "--army", apart, "-t", t, "--metric", "damage", "--data", folder)
    # the squad alone: 10 rifles, hit 2/3, wound 2/3 (Drilled; no Lethal Hits of its
    # Leader's Tactical Precision): 10 * 2/3 * 2/3 = 40/9
    assert dict(undone)["Squad"] == "40/9"
    # undone, then attached again: the pair as the list states it
    assert _cell(cli, "--army", stated, "--attach", "Leader=alone", "--attach", "Leader=Squad",
                 "-t", t, "--metric", "damage", "--data", folder) == [("Leader + Squad",
                                                                      "395/72")]
    # a Leader the list leaves alone has no attachment to undo: one line
    r = cli("table", "--army", apart, "--attach", "Leader=alone", "-t", t, "--data", folder)
    assert r.exit_code == 2 and "Leader leads no unit" in r.stderr
    # the page's query: the planner's offer of the list with the attachment undone
    from mathhammer.app.planner import PlanLists, plan_lists_json

    got = plan_lists_json(PlanLists.from_json({"army": {"path": stated}}), data=folder)
    assert got["army"]["stated"] == [["Leader", "Squad"]]
    assert [r["label"] for r in got["army"]["rows"]] == ["Leader + Squad"]
    off = plan_lists_json(PlanLists.from_json({"army": {"path": stated}, "attach": [
        {"leader": "Leader", "unit": "alone", "side": "army"}]}), data=folder)
    assert off["army"]["stated"] == [["Leader", "Squad"]] and off["army"]["attached"] == []
    assert [r["label"] for r in off["army"]["rows"]] == ["Leader", "Squad"]


def test_a_d6_tables_results_are_options_each_with_its_own_effect():
    # "roll one D6; on a 1, ...; on a 2-5, ...; on a 6, ...": three options, never merged (before,
    # the first cut came before any effect, so the whole table was one clause: +1 BS twice)
    parts = translate("Spirit of Gork", "At the start of the Fight phase, you can select one "
                      "friendly ORKS unit within 12\" of this model and roll one D6: on a 1, this "
                      "model suffers D3 mortal wounds; on a 2-5, until the end of the phase, add 1 "
                      "to the Strength characteristic of melee weapons equipped by models in that "
                      "unit; on a 6, until the end of the phase, add 1 to the Strength "
                      "characteristic of melee weapons equipped by models in that unit and those "
                      "weapons have the [LETHAL HITS] ability.")
    assert [p.rule.describe() for p in parts if p.rule.usable] == [
        "if melee attacks: strength_mod=+1",
        "if melee attacks: strength_mod=+1, abilities=[lethal hits]"]
    assert parts[-1].rule.not_modelled.startswith("mortal wounds outside the attack's rolls")


def test_the_weapons_a_rule_names_are_kept_by_its_later_clauses():
    # "If the target of that attack ... instead": the burna's re-roll, not every weapon's
    two = translate("Pyromaniaks", "Each time a model in this unit makes a ranged attack with a "
                    "burna that targets an enemy unit within 6\", re-roll a Wound roll of 1. If "
                    "the target of that attack is also within range of an objective marker, you "
                    "can re-roll the Wound roll instead.")
    assert [p.rule.describe() for p in two] == ["if ranged attacks, with burna: reroll_wounds=ones",
                                                "if ranged attacks, with burna: "
                                                "reroll_wounds=failed"]
    # "(excluding support turrets)": left out by name; "those Telemon caestus weapons"
    out, = translate("Merciless Marksmen", "Ranged weapons equipped by models in this unit "
                     "(excluding support turrets) have the [LETHAL HITS] ability.")
    assert out.rule.describe() == ("if ranged attacks, not with support turrets: "
                                   "abilities=[lethal hits]")
    rule, = translate("Devoted to Destruction", "If this model is equipped with 2 Telemon caestus "
                      "weapons in addition to its armoured feet weapon, add 2 to the Attacks "
                      "characteristic of those Telemon caestus weapons.")
    feet = mh.Weapon(name="Armoured feet", attacks=6, skill=3, strength=4, ap=0, damage=1)
    caestus = attrs.evolve(feet, name="Telemon caestus")
    # MEQ: hit 2/3, wound 1/2, fail 1/3 = 1/9 an attack: the feet 6 x 1/9 = 2/3 (no +2), the
    # caestus (6 + 2) x 1/9 = 8/9
    meq = mh.load_unit("MEQ").as_target()
    assert mh.attack([feet], meq, apply=[rule.rule]).unsaved.mean() == F(2, 3)
    assert mh.attack([caestus], meq, apply=[rule.rule]).unsaved.mean() == F(8, 9)


def test_a_rule_for_another_model_is_not_the_bearers():
    # a Bondsman's "model affected by this ability"; "that model" after "that CHARACTER model"
    mentor, = translate("Mentor (Bondsman)", "Each time a model affected by this ability makes "
                        "an attack that targets this model's quarry, you can re-roll the "
                        "Wound roll.")
    assert mentor.scope is Scope.OTHERS and mentor.keywords == ("ARMIGER",)
    fnp, = translate("U", "If that CHARACTER model is a MAGUS, PRIMUS, or ACOLYTE ICONWARD, that "
                     "model has the Feel No Pain 3+ ability while leading that unit.")
    assert (fnp.model, fnp.rule.describe()) == ("CHARACTER", "fnp=3")
    gyre, = translate("Mortis Gyre", "Once per battle, when the bearer is selected to fight, it "
                      "can activate the Mortis Gyre. If it does, until that fight is resolved, "
                      "melee attacks made by the model that target an INFANTRY unit have the "
                      "[DEVASTATING WOUNDS] ability.")
    assert gyre.scope is Scope.MODEL


def test_this_invulnerable_save_improved_keeps_the_saves_attacks_and_unit():
    # "... a 5+ invulnerable save against ranged attacks. (a setup) ... this invulnerable save
    # is improved to 4+": the same save, of the unit this model leads, against ranged attacks
    field = translate("Kustom Force Field", "While this model is leading a unit, models in that "
                      "unit have a 5+ invulnerable save against ranged attacks. Once per battle, "
                      "at the start of any phase, this model can overcharge its kustom force "
                      "field. If it does, until the end of the phase, this invulnerable save is "
                      "improved to 4+.")
    assert [(p.scope, p.switch, p.rule.describe()) for p in field] == [
        (Scope.LED, False, "if ranged attacks: invuln=5"),
        (Scope.LED, True, "if ranged attacks: invuln=4")]
    # a save of its own kind is kept ("... improved to 4+ against melee attacks")
    own, = translate("U", "This unit has a 5+ Invulnerable Save. This invulnerable save is "
                     "improved to 4+ against melee attacks.")
    assert own.rule.describe() == "invuln=5; if melee attacks: invuln=4"
    # 6 attacks at AP-3 into Sv3+ (6+): hit 2/3, wound 1/2; melee: fails 5/6 (no invulnerable):
    # 6 x 2/3 x 1/2 x 5/6 = 5/3; ranged: the 4+ invulnerable fails 1/2: 6 x 2/3 x 1/2 x 1/2 = 1
    meq = mh.load_unit("MEQ").as_target()
    klaw = mh.Weapon(name="Klaw", attacks=6, skill=3, strength=4, ap=-3, damage=1, range="melee")
    gun = attrs.evolve(klaw, name="Gun", range=24)
    rules = [p.rule for p in field]
    assert mh.attack([klaw], meq, apply=rules).unsaved.mean() == F(5, 3)
    assert mh.attack([gun], meq, apply=rules).unsaved.mean() == F(1)


def test_a_weapon_named_by_an_attack_made_with_it_or_by_its_ability_in_words():
    # "If that attack is made with a battle cannon ...": that weapon's, not every ranged one's
    bullets = translate("Automated Defences", "Each time this model makes a ranged attack that "
                        "targets the closest enemy unit:\n- If that attack is made with a "
                        "Punisher gatling cannon and the target is not a MONSTER or VEHICLE, add "
                        "1 to the Hit roll.\n- If that attack is made with a battle cannon and "
                        "the target is a MONSTER or VEHICLE, add 1 to the Hit roll.")
    assert [p.rule.describe() for p in bullets] == [
        "if ranged attacks, with punisher gatling cannon: hit_mod=+1",
        "if ranged attacks, with battle cannon: hit_mod=+1"]
    # "a ranged weapon that has the Anti ability": any [ANTI-KEYWORD X+] weapon
    racks, = translate("Splinter Racks", "While Empowered, each time this model makes an attack "
                       "with a ranged weapon that has the ^^**Anti**^^ ability, you can re-roll "
                       "the Hit roll.")
    assert racks.rule.describe() == "if ranged attacks, weapons with anti: reroll_hits=failed"
    # 6 shots into MEQ: hit 2/3, wound 1/2, fail 1/3 = 2/3; re-rolled hits 8/9: 6 x 8/9 x 1/2 x
    # 1/3 = 8/9 (its Anti-VEHICLE 4+ does not meet INFANTRY)
    meq = mh.load_unit("MEQ").as_target()
    lance = mh.Weapon(name="Dark lance", attacks=6, skill=3, strength=4, ap=0, damage=1, range=36)
    anti = attrs.evolve(lance, name="Splinter cannon", abilities=["anti-vehicle 4+"])
    assert mh.attack([lance], meq, apply=[racks.rule]).unsaved.mean() == F(2, 3)
    assert mh.attack([anti], meq, apply=[racks.rule]).unsaved.mean() == F(8, 9)
    cannon = attrs.evolve(lance, name="Battle cannon")  # +1 to hit (2+): 6 x 5/6 x 1/2 x 1/3
    assert mh.attack([cannon], meq, apply=[p.rule for p in bullets]).unsaved.mean() == F(5, 6)


def test_the_phase_of_the_last_setup_that_names_one():
    # a first setup with no phase (the YP gained), then "In your Shooting phase, ... selected to
    # shoot, you can spend 1YP. If you do, ...": the re-roll is for ranged attacks only
    rule, = translate("Optimal Application", "At the end of your Command phase, you gain 1YP for "
                      "each objective marker you control. In your Shooting phase, each time a "
                      "unit from your army is selected to shoot, you can spend 1YP. If you do, "
                      "until the end of the phase, each time a model in that unit makes an "
                      "attack, re-roll a Hit roll of 1.")
    assert rule.switch and rule.rule.describe() == "if ranged attacks: reroll_hits=ones"
    # 6 attacks into MEQ, fail 1/3 and wound 1/2: melee hits 2/3: 6 x 2/3 x 1/6 = 2/3; ranged
    # hits 2/3 + 1/6 x 2/3 = 7/9: 6 x 7/9 x 1/6 = 7/9
    meq = mh.load_unit("MEQ").as_target()
    blade = mh.Weapon(name="Blade", attacks=6, skill=3, strength=4, ap=0, damage=1, range="melee")
    gun = attrs.evolve(blade, name="Gun", range=24)
    assert mh.attack([blade], meq, apply=[rule.rule]).unsaved.mean() == F(2, 3)
    assert mh.attack([gun], meq, apply=[rule.rule]).unsaved.mean() == F(7, 9)


@pytest.mark.parametrize("text", [
    "While this model is leading a unit, each time a model in that unit makes an attack, if a "
    "Critical Hit is scored, that attack has the [PRECISION] ability.",
    "Each time a model in this unit makes a ranged attack that targets a CHARACTER unit, on a "
    "Critical Hit, that attach has the [PRECISION] ability.",  # the data's typo
    "Each time an attack made by such a weapon scores a Critical Wound, that attack has the "
    "[PRECISION] ability.",
])
def test_an_ability_on_a_critical_roll_only_is_said_not_modelled(text):
    # the engine gives an ability to every attack of a weapon, never to its critical rolls alone:
    # [PRECISION] on every attack would send all of them at the CHARACTER
    rule = one("Hive Predators", text)
    assert not rule.rule.usable
    assert rule.rule.not_modelled.startswith("an ability on a Critical Hit or Wound only (")


def test_an_order_is_the_players_a_switch():
    # "while ... under the effects of the Fix Bayonets! Order": an Order is issued by the player
    # (an Officer's choice), so the rule is a switch asserting it, never automatic
    rule, = translate("Veteran Guerrillas", "While a ^^Regiment^^ unit in your Crusade army is "
                      "under the effects of the Fix Bayonets! Order, melee weapons equipped by "
                      "models in that unit have the [PRECISION] ability.")
    assert rule.switch and rule.rule.describe() == "if melee attacks: abilities=[precision]"
    assert "Fix Bayonets! Order" in rule.rule.assumes


def test_ap_improved_on_a_critical_wound_only():
    # "on a Critical Wound, improve the Armour Penetration characteristic of that attack by 1":
    # the Critical Wound's AP (crit_wound_ap), not every attack's (ap_mod)
    rule = one("Piercing Talons", "Each time a model in the bearer's unit makes an attack, on a "
               "Critical Wound, improve the Armour Penetration characteristic of that attack by 1.")
    assert rule.automatic and rule.rule.describe() == "crit_wound_ap=1"
    checked = one("The Armoury's Artifice", "Each time a model in this unit makes an attack, if "
                  "a Critical Wound is scored, improve the Armour Penetration characteristic of "
                  "that attack by 1.")
    assert checked.automatic and checked.rule.describe() == "crit_wound_ap=1"
    # 6 attacks into MEQ, hit 2/3: a 6 to wound (1/6) at AP-1 fails 4+ 1/2, a 4-5 (1/3) fails
    # 3+ 1/3: 6 x 2/3 x (1/12 + 1/9) = 7/9 (every attack at AP-1 would give 1; none, 2/3)
    meq = mh.load_unit("MEQ").as_target()
    gun = mh.Weapon(name="Gun", attacks=6, skill=3, strength=4, ap=0, damage=1, range=24)
    assert mh.attack([gun], meq, apply=[rule.rule]).unsaved.mean() == F(7, 9)


def test_psychic_melee_weapons_and_a_duration_past_the_next_phase():
    # "Psychic melee weapons": melee weapons with [PSYCHIC] (the engine checks both: automatic)
    lance = one("Fires of Purgation", "Psychic melee weapons equipped by models in this unit "
                "have the [LANCE] ability.")
    assert lance.automatic
    assert lance.rule.describe() == "if melee attacks, weapons with psychic: abilities=[lance]"
    # "until the start of your next Shooting phase" says how long, not which attacks: the
    # suppressed enemy's melee attacks are hit worse too
    shells = translate("Starfall Shells", "In your Shooting phase, after the bearer has shot, "
                       "select one enemy unit hit by one or more of those attacks. Until the start "
                       "of your next Shooting phase, each time a model in that enemy unit makes "
                       "an attack, subtract 1 from the Hit roll.")
    assert [(p.scope, p.rule.describe()) for p in shells] == [(Scope.ENEMY, "hit_mod=-1")]
    ambush = one("A Perfect Ambush", "Each time a unit from your army is set up on the "
                 "battlefield as Reinforcements, until the end of your next Fight phase, weapons "
                 "equipped by models in that unit have the [IGNORES COVER] ability.")
    assert ambush.rule.describe() == "abilities=[ignores cover]"
    # [LANCE] after a charge: +1 to wound, S4 v T4 3+ (2/3) not 4+ (1/2); hit 2/3, MEQ fails
    # 1/3: a [PSYCHIC] sword 6 x 2/3 x 2/3 x 1/3 = 8/9, a plain one 6 x 2/3 x 1/2 x 1/3 = 2/3
    meq = mh.load_unit("MEQ").as_target()
    sword = mh.Weapon(name="Sword", attacks=6, skill=3, strength=4, ap=0, damage=1,
                      range="melee", abilities=["psychic"])
    plain = attrs.evolve(sword, abilities=[])
    assert mh.attack([sword], meq, apply=[lance.rule], charged=True).unsaved.mean() == F(8, 9)
    assert mh.attack([plain], meq, apply=[lance.rule], charged=True).unsaved.mean() == F(2, 3)


def test_a_prohibition_on_re_rolls_gives_none():
    # "you cannot re-roll the Hit roll" (Drawback, seed-6262-b 10e-046) was read as granting a
    # re-roll; a prohibition gives none, and the engine's re-rolls are the broadest any rule or
    # option gives, so one given elsewhere is not taken away: said not modelled, quoted
    drawback = one("Drawback", "Each time this model makes an attack with a Lethal Hits weapon, "
                   "you cannot re-roll the Hit roll.")
    assert not drawback.rule.usable and not drawback.rule.effects
    assert drawback.rule.not_modelled == (
        "forbids a re-roll, which a re-roll given by another rule or option still makes "
        '("you cannot re-roll the Hit roll")')
    # the passive wording, beside an effect of its own sentence: the +1 kept, the clause said
    both = translate("U", "Each time a model in this unit makes an attack, add 1 to the Hit "
                     "roll, and that Hit roll cannot be re-rolled.")
    assert [p.rule.describe() for p in both if p.rule.usable] == ["hit_mod=+1"]
    assert both[-1].rule.not_modelled.endswith('("that Hit roll cannot be re-rolled")')
    # a save the engine never re-rolls: forbidding it changes nothing (Makari's 2+ is all)
    makari = one("Invulnerable Save (2+*)", "This model has a 2+ invulnerable save. You cannot "
                 "re-roll invulnerable saving throws made for this model.")
    assert makari.automatic and makari.rule.describe() == "invuln=2"
    assert not is_attack_relevant("You cannot re-roll invulnerable saving throws made for this "
                                  "model.")
    # 6 attacks AP-4 at Sv3+ (7+): hit 2/3, wound 1/2, the 2+ invulnerable fails 1/6:
    # 6 x 2/3 x 1/2 x 1/6 = 1/3
    meq = mh.load_unit("MEQ").as_target()
    gun = mh.Weapon(name="Gun", attacks=6, skill=3, strength=4, ap=-4, damage=1, range=24)
    assert mh.attack([gun], meq, apply=[makari.rule]).unsaved.mean() == F(1, 3)


def test_a_designers_note_is_not_a_rule():
    # Delirium Cowl (seed-6262-b 10e-038): the Note's "it will have a 4+ invulnerable save",
    # joined to the once-per-battle redeploy, was a switch giving the bearer's unit a 4+; the
    # Note is commentary: the bearer's 4+ and its led unit's 5+ are all
    cowl = translate("Delirium Cowl", "- The bearer has a 4+ invulnerable save. While the bearer "
                     "is leading a unit, models in that unit have a 5+ invulnerable save.\n- Once "
                     "per battle, in your opponent's Shooting phase or the Fight phase, just after "
                     "an enemy unit has shot or fought, if the bearer's unit was the target of one "
                     "or more of those attacks, the bearer can use this Crusade Relic. If it does, "
                     "remove the bearer's unit from the battlefield and set it back up anywhere "
                     "on the battlefield that is more than 6\" horizontally away from all enemy "
                     "units.\n\n**Designer's Note:** *If an **^^Archon^^** has this Crusade "
                     "Relic, it will have a 4+ invulnerable save after the first time you fail "
                     "an invulnerable saving throw for it.*")
    assert [(p.scope, p.automatic, p.rule.describe()) for p in cowl] == [
        (Scope.MODEL, True, "invuln=4"), (Scope.LED, True, "invuln=5")]
    # a Note alone that restates another rule's re-roll changes no attack by itself
    tome = ("Once per battle, after you have selected your Oath of Moment target, the bearer can "
            "use this Enhancement. If it does, select a second enemy unit to be an Oath of Moment "
            "target.\n\n**Designer's Note:** *This means that each time a model with the Oath of "
            "Moment ability makes an attack that targets either of your Oath of Moment targets, "
            "you can re-roll the Hit roll.*")
    assert not is_attack_relevant(tome) and translate("The Tome of Ectoclades", tome) == ()
    # a Data Author Note too; the rule before it is read as before
    shard, = translate("Tôrek's Shard", "Once per battle, at the start of the Fight phase, the "
                       "bearer can unveil this Relic. If it does, until the end of the phase, add "
                       "1 to the Attacks characteristic of melee weapons equipped by models in the "
                       "bearer's unit.\n***Data Author Note: Judgement tokens were removed with "
                       "the release of the codex.***")
    assert shard.switch and shard.rule.describe() == "if melee attacks: attacks_mod=+1"
    assert "Note" not in shard.rule.assumes


def test_a_second_effect_clause_not_read_is_said():
    # Specialised Weapon System (seed-6262-a 10e-010): "... has the [IGNORES COVER] ability and
    # can ignore the penalty to their Hit rolls ...": the second clause was dropped silently;
    # the engine leaves the Indirect Fire penalty to the user's hit_mod, so it is said
    parts = translate("Specialised Weapon System", "Each time this model makes an attack that "
                      "targets the enemy unit you selected for the Oath of Moment ability, that "
                      "attack has the [IGNORES COVER] ability and can ignore the penalty to their "
                      "Hit rolls when making attacks with Indirect Fire weapons against targets "
                      "that are not visible to them.")
    assert [(p.switch, p.rule.describe()) for p in parts if p.rule.usable] == [
        (True, "abilities=[ignores cover]")]
    assert parts[-1].rule.not_modelled.startswith("a clause not read (")
    assert "can ignore the penalty to their Hit rolls" in parts[-1].rule.not_modelled
    # the switch on, an unseen Indirect Fire target in cover (hit -1): hit 3+ -1 = 1/2, wound
    # 1/2, Sv3+ AP-1 4+ (cover ignored) fails 1/2: 6 x 1/2 x 1/2 x 1/2 = 3/4
    meq = mh.load_unit("MEQ").as_target()
    gun = mh.Weapon(name="Missiles", attacks=6, skill=3, strength=4, ap=-1, damage=1, range=48,
                    abilities=["indirect fire"])
    assert mh.attack([gun], meq, apply=[parts[0].rule], cover=True,
                     hit_mod=-1).unsaved.mean() == F(3, 4)


def test_an_effect_while_resolving_fire_overwatch_is_said():
    # Visions of Heresy (seed-6262-c 11e-005): "While resolving that Strategem [Fire Overwatch],
    # ... you can re-roll the Hit roll" was a switch re-rolling every ranged attack's Hit roll
    # (at full BS too, 6 x 8/9 x 1/2 x 1/3 = 8/9 for 2/3), and the 11e Overwatch rule discards
    # it anyway; the engine's effects cannot be limited to Overwatch: said, the sentence quoted
    rule = one("Visions of Heresy", "Once per turn, you can target this unit with the Fire "
               "Overwatch Stratagem or the Heroic Intervention Stratagem for 0CP. While resolving "
               "that Strategem, each time a model in this unit makes a ranged attack you can "
               "re-roll the Hit roll, or you can re-roll the Charge roll made for this unit "
               "[whichever applies]")
    assert not rule.rule.usable
    assert rule.rule.not_modelled.startswith('an effect while resolving Fire Overwatch only '
                                             '("While resolving that Strategem, each time')
    # a better Overwatch roll is Overwatch's own field: still read
    cover = one("Covering Fire", "Each time you target this unit with the Fire Overwatch "
                "Stratagem, while resolving that Stratagem, hits are scored on unmodified Hit "
                "rolls of 5+.")
    assert cover.automatic and cover.rule.describe() == "overwatch_hits_on=5"


def test_a_rule_keeps_the_kind_it_is_read_as():
    # the sentence walk once reused the name ``kind`` for an improved save's attacks and for a
    # chosen weapon's kind: these rules came out as kind "ranged" (or None), not as the caller
    # said (23 parts of the shared data's ability texts; found by mypy, issue 34)
    force_field = ("While this model is leading a unit, models in that unit have a 5+ "
                   "invulnerable save against ranged attacks. Once per battle, at the start of "
                   "any phase, this model can overcharge its kustom force field. If it does, "
                   "until the end of the phase, this invulnerable save is improved to 4+.")
    parts = translate("Kustom Force Field", force_field, kind="enhancement")
    assert [(p.rule.kind, p.rule.describe(), p.scope, p.automatic) for p in parts] == [
        ("enhancement", "if ranged attacks: invuln=5", Scope.LED, True),
        ("enhancement", "if ranged attacks: invuln=4", Scope.LED, False)]
    save = ("This unit has a 5+ Invulnerable Save. This invulnerable save is improved to 4+ "
            "against melee attacks.")
    assert [(p.rule.kind, p.rule.describe()) for p in translate("Invulnerable Save", save)] == [
        ("datasheet ability", "invuln=5; if melee attacks: invuln=4")]
