"""Rules from data that name keywords in title case (rules15): a multi-word keyword phrase
("War Walker", "Deathwing Infantry", "Orks Infantry and Orks Walker") is read whole against
the unit's real keywords, never as its last word, and a list of alternatives joined by "and"
reaches each. The keyword sets are the datasheets' own (10e store). Every number is worked
out by hand in a comment."""

from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer.data.rules.detachments import for_unit, has_keywords
from mathhammer.data.rules.sentences import normalize
from mathhammer.data.rules.translate import translate
from mathhammer.data.rules.unit_rules import qualifies

MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])
GUN = mh.Weapon("Gun", range=24, attacks=6, skill=4, strength=4, ap=0, damage=1)

# the datasheets' keywords (and faction keywords), as the 10e store holds them
GUARDIANS = {"AELDARI", "ASURYANI", "BATTLELINE", "GRENADES", "GUARDIAN DEFENDERS", "GUARDIANS",
             "INFANTRY", "YNNARI"}
DIRE_AVENGERS = {"AELDARI", "ASPECT WARRIOR", "ASURYANI", "DIRE AVENGERS", "GRENADES",
                 "INFANTRY", "YNNARI"}
WAR_WALKERS = {"AELDARI", "ASURYANI", "VEHICLE", "WALKER", "WAR WALKERS", "YNNARI"}
WRAITHLORD = {"AELDARI", "ASURYANI", "MONSTER", "WALKER", "WRAITH CONSTRUCT", "WRAITHLORD",
              "YNNARI"}
DEATHWING_KNIGHTS = {"ADEPTUS ASTARTES", "DARK ANGELS", "DEATHWING", "DEATHWING KNIGHTS",
                     "IMPERIUM", "INFANTRY", "TERMINATOR"}
INTERCESSORS = {"ADEPTUS ASTARTES", "BATTLELINE", "GRENADES", "IMPERIUM", "INFANTRY",
                "INTERCESSOR SQUAD", "TACTICUS"}
BOYZ = {"BATTLELINE", "BOYZ", "GRENADES", "INFANTRY", "MOB", "ORKS"}
DEFF_DREAD = {"DEFF DREAD", "ORKS", "VEHICLE", "WALKER"}
BATTLEWAGON = {"BATTLEWAGON", "ORKS", "TRANSPORT", "VEHICLE"}

# Defend at All Costs (10e Aeldari), as the data writes it
DEFEND = ("Each time a Dire Avenger, Guardian, Support Weapon or War Walker model from your army "
          "makes an attack, if that model's unit and/or the target unit are within range of one "
          "or more objective markers, add 1 to the Hit roll.")
# Dakka! Dakka! Dakka! (10e Orks), its first sentence
DAKKA = ("Ranged weapons equipped by **^^Orks Infantry^^** and **^^Orks Walker^^** models from "
         "your army have the **[ASSAULT]** ability.")


@pytest.mark.parametrize(("text", "want"), [
    ("a Dire Avenger, Guardian, Support Weapon or War Walker model from your army",
     "a DIRE AVENGER, GUARDIAN, SUPPORT WEAPON or WAR WALKER model from your army"),
    ("Each time a Deathwing Infantry unit from your army makes an attack",
     "Each time a DEATHWING INFANTRY unit from your army makes an attack"),
    ("one or more friendly Leagues of Votann Vehicle or Ironkin Steeljacks units",
     "one or more friendly LEAGUES OF VOTANN VEHICLE or IRONKIN STEELJACKS units"),
    # the words that open a phrase stay as written
    ("For Each ACOLYTE HYBRIDS and Neophyte Hybrid unit from your army",
     "For Each ACOLYTE HYBRIDS and NEOPHYTE HYBRID unit from your army"),
    ("That Vehicle model regains up to D3 lost wounds", "That VEHICLE model regains up to D3 "
                                                        "lost wounds"),
    # not keyword phrases: whose unit, an ability, a state, units not said to be yours
    ("this PSYKER's unit suffers D3 mortal wounds", "this PSYKER's unit suffers D3 mortal wounds"),
    ("an enemy unit (excluding Lone Operative units)", "an enemy unit (excluding Lone Operative "
                                                       "units)"),
    ("targets a VEHICLE or Battle-shocked unit", "targets a VEHICLE or Battle-shocked unit"),
    ("If units from your army have Fortify Takeover", "If units from your army have Fortify "
                                                      "Takeover"),
])
def test_a_title_case_keyword_phrase_is_read_whole(text, want):
    assert normalize(text) == want


def test_a_keyword_in_the_singular_is_the_plural_one():
    # the data's keywords are plural (WAR WALKERS, GUARDIANS), the texts name them singular
    assert has_keywords("WAR WALKER", frozenset(WAR_WALKERS))
    assert has_keywords("RIPPER SWARMS", frozenset({"RIPPER SWARM"}))
    # the longest keyword first, never the phrase's last word alone
    assert not has_keywords("WAR WALKER", frozenset(WRAITHLORD))
    assert not has_keywords("DEATHWING INFANTRY", frozenset(INTERCESSORS))
    assert has_keywords("DEATHWING INFANTRY", frozenset(DEATHWING_KNIGHTS))


@pytest.mark.parametrize(("keywords", "reached"), [
    (GUARDIANS, True), (DIRE_AVENGERS, True), (WAR_WALKERS, True), (WRAITHLORD, False)])
def test_defend_at_all_costs_reaches_the_units_it_names(keywords, reached):
    # before: read as "War WALKER model from your army", so a Wraithlord (WALKER) had it and
    # Guardians and Dire Avengers had not
    parts = for_unit(translate, "Defend at All Costs", DEFEND, frozenset(keywords), "",
                     kind="detachment rule")
    assert [(p.switch, p.rule.describe()) for p in parts] == \
        ([(True, "hit_mod=+1")] if reached else [])
    if reached:
        # switched on (objective in range): hit 4+ +1 -> 3+ 2/3; S4 v T4 wound 4+ 1/2; save 3+
        # fails 1/3: 6 x 2/3 x 1/2 x 1/3 = 2/3 (without: 6 x 1/2 x 1/2 x 1/3 = 1/2)
        assert mh.attack(GUN, MEQ, apply=[parts[0].rule]).unsaved.mean() == F(2, 3)
        assert mh.attack(GUN, MEQ).unsaved.mean() == F(1, 2)


@pytest.mark.parametrize(("keywords", "reached"), [
    (DEATHWING_KNIGHTS, True), (INTERCESSORS, False)])
def test_vowed_target_is_for_deathwing_infantry_only(keywords, reached):
    # before: "Deathwing INFANTRY unit from your army" reached every INFANTRY unit
    text = ("Each time a Deathwing Infantry unit from your army makes an attack that targets a "
            "unit within range of one or more of your Vowed objective markers, add 1 to the "
            "Wound roll.")
    parts = for_unit(translate, "Vowed Target", text, frozenset(keywords), "",
                     kind="detachment rule")
    assert [p.rule.describe() for p in parts] == (["wound_mod=+1"] if reached else [])


@pytest.mark.parametrize(("keywords", "reached"), [
    (BOYZ, True), (DEFF_DREAD, True), (BATTLEWAGON, False)])
def test_an_and_list_of_keyword_phrases_reaches_each(keywords, reached):
    # before: "ORKS INFANTRY and ORKS WALKER models": only the last phrase read, so Boyz had
    # nothing and a Deff Dread had a switch asserting "equipped by ORKS INFANTRY and models"
    parts = for_unit(translate, "Dakka! Dakka! Dakka!", DAKKA, frozenset(keywords), "",
                     kind="detachment rule")
    assert [(p.automatic, p.rule.describe()) for p in parts] == \
        ([(True, "if ranged attacks: abilities=[assault]")] if reached else [])


def test_a_friendly_aura_in_title_case_needs_the_whole_phrase():
    # Wisdom of the Ancients: "a friendly Adeptus Astartes Infantry unit" is both keywords
    [part] = translate("Wisdom of the Ancients", "While a friendly Adeptus Astartes Infantry "
                       "unit is within 6\" of this model, each time a model in that unit makes "
                       "an attack, re-roll a Hit roll of 1.")
    assert part.keywords == ("ADEPTUS ASTARTES INFANTRY",)
    assert qualifies(part, frozenset(INTERCESSORS))
    assert not qualifies(part, frozenset(BOYZ))


def test_a_rules_lower_ability_value_never_lowers_the_printed_one():
    # a weapon with [RAPID FIRE 2] given [RAPID FIRE 1] (Dead Shiny Shootas, 11e): the higher
    # value, as the player would choose (before: the rule's, last read: 1)
    gun = mh.Weapon("Shoota", range=18, attacks=2, skill=5, strength=4, ap=0, damage=1,
                    abilities=["rapid fire 2"])
    # half range: 2 + 2 = 4 attacks, with or without the rule (before: 2 + 1 = 3 with it)
    assert mh.attack(gun, MEQ, half_range=True).attacks.mean() == 4
    assert mh.attack(gun.with_abilities("rapid fire 1"), MEQ, half_range=True
                     ).attacks.mean() == 4
    sus = mh.Weapon("Gun", range=24, attacks=1, skill=4, strength=4, ap=0, damage=1,
                    abilities=["sustained hits D3"])
    assert sus.with_abilities("sustained hits 1").parsed.sustained == "D3"


def test_plus_one_to_an_abilitys_value_is_said_not_modelled():
    text = ("**ORKS INFANTRY** unit only. This unit’s ranged attacks have:\n- **[RAPID FIRE 1]**."
            "\n- <ins>Or:</ins> If that attack already has **[RAPID FIRE]**, +1 to the value of "
            "that **[RAPID FIRE]** (e.g. **[RAPID FIRE 1]** becomes **[RAPID FIRE 2]**).")
    parts = translate("Dead Shiny Shootas", text, kind="enhancement")
    assert [p.rule.describe() for p in parts if p.automatic][0].startswith(
        "if ranged attacks: abilities=[rapid fire 1]")
    [said] = [p.rule.not_modelled for p in parts if not p.rule.usable]
    assert said.startswith("raises the value of a weapon's ability (") and "+1 to the value" \
        in said
