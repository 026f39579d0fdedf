"""Rules from data: the translator's leftovers of the last hand readings (rules16), each a class
of texts: a switch offered twice, a switch's condition text quoting another clause (another
bullet's, another head's), a stratagem's text saying less than its effect tree, and keyword
phrases in title case that are no keywords (or a keyword the rule itself gives). The texts are
the data's own (10e and 11e BattleScribe data, 40kdc stratagems); every number is worked out
by hand in a comment."""

from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer.data.rules.detachments import for_unit, granted
from mathhammer.data.rules.effect_tree import translate_effect
from mathhammer.data.rules.parts import Scope
from mathhammer.data.rules.renderings import tree_note
from mathhammer.data.rules.sentences import normalize
from mathhammer.data.rules.translate import translate

MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])
#: 6 shots, BS 4+, S4 AP0 D1: against MEQ hit 1/2, wound 1/2, save 3+ failed 1/3
GUN = mh.Weapon("Gun", range=24, attacks=6, skill=4, strength=4, ap=0, damage=1)


def _switches(parts):
    return [p for p in parts if p.switch]


# -- a switch offered twice is offered once ------------------------------------------------

SHEPHERDS = ("Each time an Asuryani Psyker model from your army is destroyed by an enemy unit, "
             "that unit gains a Vengeful Dead token. Each time a Wraith Construct model from "
             "your army makes an attack that targets a unit with one or more Vengeful Dead "
             "tokens, add 1 to the Hit roll and add 1 to the Wound roll.\nAsuryani Psyker "
             "models from your army have the following ability:\nSpirit Guides (Aura): while a "
             "Wraithblades, Wraithguard or Wraithlord unit from your army is within 12\" of this "
             "model, that unit has the Battle Focus ability.\n\n\nWraithblades and Wraithguard "
             "units from your army gains the Battleline keyword.")
SPIRITSEER = frozenset({"AELDARI", "ASURYANI", "CHARACTER", "INFANTRY", "PSYKER", "SPIRITSEER"})
WRAITHLORD = frozenset({"AELDARI", "ASURYANI", "MONSTER", "WALKER", "WRAITH CONSTRUCT",
                        "WRAITHLORD"})


@pytest.mark.parametrize(("keywords", "scope"), [(SPIRITSEER, Scope.FRIENDLY),
                                                 (WRAITHLORD, Scope.MODEL)])
def test_shepherds_of_the_dead_offers_its_switch_once(keywords, scope):
    # before: read for the Spiritseer, "ASURYANI PSYKER models from your army have" became
    # "models have", run into the sentence before: the +1/+1 repeated under each bullet below
    [part] = _switches(for_unit(translate, "Shepherds of the Dead", SHEPHERDS, keywords, "",
                                kind="detachment rule"))
    assert (part.rule.name, part.scope, part.rule.describe()) == (
        "Shepherds of the Dead", scope, "hit_mod=+1, wound_mod=+1")
    assert "Spirit Guides" not in part.rule.assumes and "Battleline" not in part.rule.assumes
    # switched on: hit 4+ +1 -> 3+ 2/3, wound 4+ +1 -> 3+ 2/3, save 3+ failed 1/3:
    # 6 x 2/3 x 2/3 x 1/3 = 8/9 (without: 6 x 1/2 x 1/2 x 1/3 = 1/2)
    assert mh.attack(GUN, MEQ, apply=[part.rule]).unsaved.mean() == F(8, 9)


DREADED = ("TITANIC CHAOS KNIGHTS units from your army have the following abilities:\xa0\n\n"
           "Dread Tyrants (Aura): While a friendly DAMNED unit is within 9\" of this unit, each "
           "time a model in that unit makes an attack, re‑roll a Hit roll of 1 and re‑roll a "
           "Wound roll of 1.\xa0\n\nCHAOS KNIGHTS units from your army have the following "
           "abilities:\xa0\n\nDark Sacrifice: Each time a CHAOS KNIGHTS unit with this ability is "
           "selected to shoot or fight, it can make a Dark Sacrifice. If it does, select one "
           "friendly DAMNED unit within 6\". That DAMNED unit must take a Leadership test: if "
           "passed, destroy D3 models in that DAMNED unit; if failed, destroy D3+3 models in "
           "that DAMNED unit. In either case, then select one of the following abilities for "
           "your Chaos Knights unit’s weapons to have until the end of the phase: [LETHAL HITS]; "
           "[SUSTAINED HITS 1].")


@pytest.mark.parametrize("keywords", [
    frozenset({"CHAOS", "CHAOS KNIGHTS", "TITANIC", "VEHICLE", "KNIGHT ABOMINANT"}),
    frozenset({"CHAOS", "CHAOS KNIGHTS", "VEHICLE", "WALKER", "WAR DOG", "BRIGAND"})])
def test_dreaded_masters_offers_the_damned_aura_once_and_its_own_choice(keywords):
    # before: the aura's re-roll was offered three times, once under each sentence of Dark
    # Sacrifice; and a War Dog's choice was read as the TITANIC units' (the frame before)
    parts = _switches(for_unit(translate, "Dreaded Masters", DREADED, keywords, "",
                               kind="detachment rule"))
    assert [(p.scope, p.rule.describe()) for p in parts] == [
        (Scope.FRIENDLY, "reroll_hits=ones, reroll_wounds=ones"),
        (Scope.UNIT, "abilities=[lethal hits]"), (Scope.UNIT, "abilities=[sustained hits 1]")]
    assert parts[0].keywords == ("DAMNED",)
    # Lethal Hits: a 6 to hit (1/6) wounds, the other hits (2/6) wound on 4+:
    # 6 x (1/6 + 2/6 x 1/2) x 1/3 = 2/3 (without: 1/2)
    assert mh.attack(GUN, MEQ, apply=[parts[1].rule]).unsaved.mean() == F(2, 3)


def test_adaptive_defence_is_one_switch():
    # before: Adaptive Defence (1), (2), (3), one per ENTRENCHED bullet
    text = ("Each time an ^^**Adeptus Astartes**^^ model from your army makes an attack, if that "
            "model’s unit is within a terrain feature, re‑roll a Hit roll of 1 and re‑roll a "
            "Wound roll of 1.\xa0\n\n\n^^**Adeptus Astartes**^^ units from your army gain the "
            "^^**Entrenched**^^ keyword while all of the following are true:\xa0\n- That unit is "
            "within a terrain feature.\n- That unit was not set up on the battlefield this turn."
            "\n- No model in that unit has moved more than 3” this turn.")
    [part] = _switches(for_unit(translate, "Adaptive Defence", text,
                                frozenset({"ADEPTUS ASTARTES", "INFANTRY"}), "",
                                kind="detachment rule"))
    assert part.rule.name == "Adaptive Defence"
    assert part.rule.assumes == ("Each time a model makes an attack, if that model's unit is "
                                 "within a terrain feature, re-roll a Hit roll of 1 and re-roll "
                                 "a Wound roll of 1")
    # hit 4+ re-rolling 1s: 1/2 + 1/6 x 1/2 = 7/12, the same to wound: 6 x 7/12 x 7/12 x 1/3
    # = 49/72
    assert mh.attack(GUN, MEQ, apply=[part.rule]).unsaved.mean() == F(49, 72)


ARTILLERY = (
    "At the start of the battle round, select one of the following types of artillery support."
    "\n\n- **Creeping Barrage:** Roll one D6 for each enemy unit that is more than 12\" from "
    "every model from your army that is on the battlefield: On a 5+ until the end of the battle "
    "round, that unit is shaken. While a unit is shaken, subtract 2\" from its Move "
    "characteristic and subtract 2 from Charge rolls made for it.\n\n- **Incendiary "
    "Bombardment:** Select a number of enemy units more than 12\" from every model from your "
    "army that is on the battlefield. Until the end of the battle round, those enemy units are "
    "scattered. While a unit is scattered, it cannot have the Benefit of Cover.\n\n- **Smoke "
    "Shells:** Select a number of units from your army. Until the end of the battle round, "
    "those units have the Stealth ability.")


def test_artillery_support_offers_each_option_once_under_its_own_name():
    # before: Creeping Barrage's "Roll one D6 for each enemy unit ...:" was the head of the
    # bullets after it: each option offered three times (x1, x2, x3: a count of enemy units)
    parts = _switches(translate("Artillery Support", ARTILLERY))
    assert [(p.rule.name, p.rule.describe()) for p in parts] == [
        ("Artillery Support (1)", "abilities=[ignores cover]"),
        ("Artillery Support (2)", "target_abilities=[stealth]")]
    assert not any("Roll one D6" in p.rule.assumes for p in parts)
    assert parts[0].rule.assumes.endswith("Incendiary Bombardment, While a unit is scattered, "
                                          "it cannot have the Benefit of Cover")
    # an AP-1 gun against MEQ in cover: save 4+ -> 3+ (fails 1/3); ignoring cover 1/2:
    # 6 x 1/2 x 1/2 x 1/2 = 3/4 (in cover: 6 x 1/2 x 1/2 x 1/3 = 1/2)
    ap1 = mh.Weapon("Gun", range=24, attacks=6, skill=4, strength=4, ap=-1, damage=1)
    assert mh.attack(ap1, MEQ, cover=True).unsaved.mean() == F(1, 2)
    assert mh.attack(ap1, MEQ, cover=True, apply=[parts[0].rule]).unsaved.mean() == F(3, 4)


# -- a switch's condition text quotes the clause it stands for ----------------------------

TIDECRYSTAL = (
    "Once per battle, at the start of your Command phase, if the bearer is on the battlefield, "
    "you can do one of the following:\n■ Select one objective marker you do not control. Until "
    "the start of your next Command phase, each time a T’au Empire unit from your Crusade army "
    "makes a ranged attack that targets a unit within range of that objective marker, that "
    "T’au Empire unit is considered to be a Guided unit and that target unit is considered to "
    "be that T’au Empire unit’s Spotted unit.\n■ Select one objective marker you control. "
    "Until the start of your next Command phase, each time an enemy unit makes an attack that "
    "targets a T’au Empire unit from your Crusade army that is within range of that objective "
    "marker, subtract 1 from the Wound roll.")


def test_the_tidecrystal_quotes_its_own_options_objective_marker():
    # before: the second option's switch asserted the first's "objective marker you do not
    # control" (the first setup of the text)
    [part] = _switches(translate("The Tidecrystal", TIDECRYSTAL))
    assert "Select one objective marker you control." in part.rule.assumes
    assert "you do not control" not in part.rule.assumes
    assert part.rule.side == "defender" and part.keywords == ("T'AU EMPIRE",)
    # attacks on the T'au unit: wound 4+ -1 -> 5+ 1/3: 6 x 1/2 x 1/3 x 1/3 = 1/3 (without 1/2)
    assert mh.attack(GUN, MEQ, apply=[part.rule]).unsaved.mean() == F(1, 3)


def test_singular_purpose_quotes_its_own_options_setup():
    text = ("At the start of the first battle round, select one of the following:\n- Select one "
            "enemy unit. Until the end of the battle, each time this model makes an attack that "
            "targets that unit you can re-roll the Hit roll and you can re-roll the Wound "
            "roll\n- Select one objective marker. Until the end of the battle, while this model "
            "is within range of that objective marker, it has the Feel No Pain 5+ ability and "
            "an Objective Control characteristic of 15.")
    first, second = _switches(translate("Singular Purpose", text))
    assert "Select one enemy unit." in first.rule.assumes
    assert "Select one objective marker." in second.rule.assumes
    assert "enemy unit" not in second.rule.assumes  # before: the first option's
    # Feel No Pain 5+ on the model: 6 x 1/2 x 1/2 x 1/3 x 2/3 = 1/3 damage (without 1/2)
    assert mh.attack(GUN, MEQ, apply=[second.rule]).damage.mean() == F(1, 3)


AURIC = ("■ While an ^^**Adeptus Custodes Vehicle^^** unit from your army is at Starting\xa0"
         "Strength, unless that unit is an ^^**Aircraft^^** or it is Battle‑shocked, add 2\xa0to "
         "the Objective Control characteristic\xa0of models in that unit.\n\n■ While an "
         "^^**Adeptus Custodes Vehicle^^** unit from your army is below Starting\xa0Strength, "
         "each time a model in that\xa0unit makes an attack, re‑roll a Hit roll\xa0of 1.\n\n■ "
         "While an ^^**Adeptus Custodes Vehicle^^** unit from your army is Below\xa0"
         "Half‑strength, each time a model in\xa0that unit makes an attack, re‑roll a Hit\xa0"
         "roll of 1 and re‑roll a Wound roll of 1.")


def test_auric_armours_bullets_quote_their_own_condition():
    # before: both re-rolls asserted the first bullet's "at Starting Strength ... add 2 to the
    # Objective Control characteristic" (and below Starting Strength too: a contradiction)
    below, half = _switches(translate("Auric Armour", AURIC))
    assert below.rule.assumes == ("While an ADEPTUS CUSTODES VEHICLE unit from your army is "
                                  "below Starting Strength, each time a model in that unit "
                                  "makes an attack, re-roll a Hit roll of 1")
    assert "Objective Control" not in half.rule.assumes
    # re-rolling hit 1s: 6 x 7/12 x 1/2 x 1/3 = 7/12
    assert mh.attack(GUN, MEQ, apply=[below.rule]).unsaved.mean() == F(7, 12)


def test_a_bullet_that_is_a_condition_only_is_the_next_ones_condition():
    # Star Engines: the trigger (no clause after it) is still said for the effect
    text = ("■ Trigger:\xa0When an eligible ^^Vehicle^^ unit from your army is selected to make "
            "an Advance move.\n■ Effect:\xa0Until the end of the turn, Ranged weapons equipped "
            "by this unit have the ^^**[Assault]**^^ ability.")
    [part] = _switches(translate("Star Engines", text))
    assert part.rule.assumes == ("Trigger, When an eligible VEHICLE unit from your army is "
                                 "selected to make an Advance move. Effect, Until the end of "
                                 "the turn, Ranged weapons equipped by this unit have the "
                                 "[ASSAULT] ability")
    assert part.rule.describe() == "if ranged attacks: abilities=[assault]"


def test_a_bullet_read_under_its_head_is_read_whole():
    # Assisted Targeting (11e): "ranged attacks have:\n- +1 BS.\n- [HEAVY]": both bullets read
    # (before: "[HEAVY]" said not recognised, the +1 BS lost with it)
    text = ("While a friendly **ADEPTUS MECHANICUS**\xa0unit is within 6\" of this model, that "
            "**ADEPTUS MECHANICUS** unit’s\xa0ranged attacks have:\n- +1 **BS**.\n- **[HEAVY]**")
    [part] = translate("Assisted Targeting (Aura)", text)
    assert part.automatic and part.keywords == ("ADEPTUS MECHANICUS",)
    assert part.rule.describe() == ("if ranged attacks: skill_mod=+1; if ranged attacks: "
                                    "abilities=[heavy]")
    # BS 4+ -> 3+ (2/3); Remained Stationary, Heavy +1 -> 2+ (5/6):
    # 6 x 5/6 x 1/2 x 1/3 = 5/6; moving 6 x 2/3 x 1/2 x 1/3 = 2/3
    assert mh.attack(GUN, MEQ, apply=[part.rule], stationary=True).unsaved.mean() == F(5, 6)
    assert mh.attack(GUN, MEQ, apply=[part.rule]).unsaved.mean() == F(2, 3)


def test_war_form_mantles_feel_no_pain_is_every_attacks():
    # 11e: "Friendly TECH-PRIEST models have:\n- 4+ InSv.\n- Feel No Pain 5+." (before: the
    # Feel No Pain was a switch against ranged attacks, the next bullet's Shooting phase)
    text = ("Friendly TECH-PRIEST models have:\xa0\n- 4+ InSv.\xa0\n- Feel No Pain 5+.\xa0\n\n"
            "Friendly TECH-PRIEST models have the following ability:\n**Baffling Data Screed**: "
            "In your Shooting phase, when this unit is **selected to shoot**, if this unit is "
            "not **battle-shocked**, you can use this ability. If you do, roll one D6:\xa0\n- On "
            "a 2+, select one enemy **VEHICLE** unit within 12\" of this unit.")
    [part] = [p for p in for_unit(translate, "War-form Mantles", text,
                                  frozenset({"ADEPTUS MECHANICUS", "CHARACTER", "TECH-PRIEST"}),
                                  "", kind="enhancement") if p.rule.usable]
    assert part.automatic and part.rule.describe() == "invuln=4; fnp=5"
    # a melee AP-3 blade: save 3+ -> 6+, the 4+ invulnerable instead (fails 1/2), Feel No
    # Pain 5+ (2/3 of the damage left): 6 x 1/2 x 1/2 x 1/2 x 2/3 = 1/2
    blade = mh.Weapon("Blade", range="melee", attacks=6, skill=4, strength=4, ap=-3, damage=1)
    assert mh.attack(blade, MEQ, apply=[part.rule]).damage.mean() == F(1, 2)


# -- a stratagem's text says what its effect tree says --------------------------------------

DELIGHT = {"modifier": {"applies_when": "attacker-strength-greater-than-target-toughness",
                        "incoming": True, "operation": "subtract", "roll": "wound", "value": 1},
           "target": "unit", "type": "roll-modifier"}
#: the 40kdc data's rendering of that tree
DELIGHT_TEXT = ("Until the end of the phase, the unit gets -1 to Wound rolls.\nApplies to: units "
                "with Emperor's Children, Terminator.")


def test_delight_in_agonys_text_says_its_condition_and_whose_rolls():
    # the rendering drops the tree's "incoming" and "applies_when": the text said the unit's
    # own Wound rolls, always; the parts say the attacks on it, when S > T
    note = tree_note(DELIGHT)
    assert note == ("\nThe effect tree also says (the text above leaves it out): the -1 to "
                    "Wound rolls is to the attacks that target the unit, only when the attack's "
                    "Strength is greater than the unit's Toughness.")
    [part] = translate_effect("Delight in Agony", DELIGHT, DELIGHT_TEXT + note)
    assert (part.rule.side, part.rule.describe()) == ("defender", "wound_mod_if_stronger=-1")
    # an S5 gun on T4: wound 3+ (2/3) -1 -> 4+ (1/2): 6 x 1/2 x 1/2 x 1/3 = 1/2 (without 2/3);
    # an S4 gun is not stronger: 1/2 either way
    s5 = mh.Weapon("Gun", range=24, attacks=6, skill=4, strength=5, ap=0, damage=1)
    assert mh.attack(s5, MEQ, apply=[part.rule]).unsaved.mean() == F(1, 2)
    assert mh.attack(s5, MEQ).unsaved.mean() == F(2, 3)
    assert mh.attack(GUN, MEQ, apply=[part.rule]).unsaved.mean() == F(1, 2)


@pytest.mark.parametrize(("tree", "said"), [
    ({"type": "stat-modifier", "target": "unit", "modifier": {
        "incoming": True, "operation": "add", "stat": "AP", "value": 1}},
     "the change to the Armour Penetration characteristic is to the attacks that target the "
     "unit"),
    ({"type": "re-roll", "target": "unit", "modifier": {
        "roll": "damage", "subset": "all-failures", "vs_keywords": ["Monster", "Vehicle"]}},
     "the Damage re-roll is only for attacks that target a MONSTER or VEHICLE unit"),
    ({"type": "roll-modifier", "target": "unit", "modifier": {
        "incoming": True, "operation": "add", "roll": "hit", "value": -1}},
     "the -1 to Hit rolls is to the attacks that target the unit"),
])
def test_each_field_the_rendering_drops_is_said(tree, said):
    # Armour of Contempt, Threat-cogitation Targeters, Sulphurous Veil
    assert tree_note(tree) == f"\nThe effect tree also says (the text above leaves it out): " \
        f"{said}."
    assert tree_note({"type": "roll-modifier", "target": "unit", "modifier": {
        "operation": "add", "roll": "hit", "value": 1}}) == ""  # nothing left out


def test_scriptural_prognosis_worsens_the_attacks_on_the_unit():
    # its tree: "applies_to": "incoming-attacks", AP "add -1"; before: read as its own attacks'
    # AP improved by 1 (the field was not read)
    tree = {"modifier": {"applies_to": "incoming-attacks", "operation": "add", "stat": "AP",
                         "value": -1}, "target": "unit", "type": "stat-modifier"}
    [part] = translate_effect("Scriptural Prognosis", tree, "...")
    assert (part.rule.side, part.rule.describe()) == ("defender", "ap_mod=-1")
    # an AP-1 gun on MEQ: save 4+ (fails 1/2) worsened to AP0, 3+ (1/3):
    # 6 x 1/2 x 1/2 x 1/3 = 1/2 (without: 6 x 1/2 x 1/2 x 1/2 = 3/4)
    ap1 = mh.Weapon("Gun", range=24, attacks=6, skill=4, strength=4, ap=-1, damage=1)
    assert mh.attack(ap1, MEQ, apply=[part.rule]).unsaved.mean() == F(1, 2)
    assert "to the attacks that target the unit" in tree_note(tree)


# -- keyword phrases in title case that are no keywords, and keywords a rule gives ---------

@pytest.mark.parametrize(("text", "want"), [
    # a verb, a game state, a role: as written (before: EMPOWER, OBSERVER, RESERVES, WARLORD)
    ("If your Army Faction is DRUKHARI, you can Empower units from your army with Pain",
     "If your Army Faction is DRUKHARI, you can Empower units from your army with Pain"),
    ("for each Observer unit from your army that has not been selected to shoot",
     "for each Observer unit from your army that has not been selected to shoot"),
    ("set up one **^^Grey Knights^^** Reserves unit from your army",
     "set up one GREY KNIGHTS Reserves unit from your army"),
    ("must be your Warlord, and **^^Astra Militarum^^** models from your army lose",
     "must be your Warlord, and ASTRA MILITARUM models from your army lose"),
    # a list of commas only is its last phrase (before: MORALE, TITHE POOL, GRAVIS VETERAN)
    ("While you have a surplus in Morale, **^^Artillery^^** units from your Crusade army",
     "While you have a surplus in Morale, ARTILLERY units from your Crusade army"),
    ("embark within a TRANSPORT, Gravis Veteran models take up the space",
     "embark within a TRANSPORT, Gravis Veteran models take up the space"),
    # a sentence's first word is no part of the phrase (before: RED CORSAIRS RAIDERS THIS)
    ("CHOSEN, LEGIONARIES, RED CORSAIRS RAIDERS This unit cannot join an Attached unit",
     "CHOSEN, LEGIONARIES, RED CORSAIRS RAIDERS This unit cannot join an Attached unit"),
    # the data's typo (The Blade Driven Deep)
    ("Adpetus Astartes INFANTRY model only.", "ADEPTUS ASTARTES INFANTRY model only."),
    # still keywords: a list with "and"/"or" and a phrase from your army
    ("Heavy Intercessor Squad, Infernus Squad and Terminator Squad units from your army",
     "HEAVY INTERCESSOR SQUAD, INFERNUS SQUAD and TERMINATOR SQUAD units from your army"),
])
def test_a_title_case_phrase_that_is_no_keyword_stays_as_written(text, want):
    assert normalize(text) == want


TANK_ACE = (
    "Each time a Tank Ace unit from your army (see below) Advances, do not make an Advance roll "
    "for it. Instead, until the end of the phase, add 6\" to the Move characteristic of models "
    "in that unit. Each time a Tank Ace unit from your\narmy shoots in your Shooting phase, if "
    "that unit did not Advance this turn, you can re‑roll the Damage roll.\n\n\nAdeptus "
    "Astartes Vehicle units from your army (excluding Fortifications, Drop Pods, Walkers and "
    "units that can Fly)\nhave the Tank Ace keyword.")
PREDATOR = frozenset({"ADEPTUS ASTARTES", "IMPERIUM", "VEHICLE", "SMOKE", "PREDATOR"})
DREADNOUGHT = frozenset({"ADEPTUS ASTARTES", "IMPERIUM", "VEHICLE", "WALKER", "DREADNOUGHT"})


def test_the_tank_ace_keyword_the_rule_gives_is_the_units():
    # before: TANK ACE, a keyword no datasheet has, reached no unit: the re-roll was silently
    # nobody's; the rule gives it to ADEPTUS ASTARTES VEHICLE units but those it keeps out
    assert "TANK ACE" in granted(normalize(TANK_ACE), PREDATOR)
    assert "TANK ACE" not in granted(normalize(TANK_ACE), DREADNOUGHT)
    [part] = _switches(for_unit(translate, "Target Sighted", TANK_ACE, PREDATOR, "",
                                kind="detachment rule"))
    assert (part.scope, part.rule.describe()) == (Scope.UNIT, "if ranged attacks: "
                                                              "reroll_damage=any")
    assert "did not Advance this turn" in part.rule.assumes
    assert not any(p.rule.usable and p.scope.own for p in for_unit(
        translate, "Target Sighted", TANK_ACE, DREADNOUGHT, "", kind="detachment rule"))


def test_the_soul_forge_keyword_the_rule_gives_brings_its_invulnerable_save():
    text = ("^^**Heretic Astartes Vehicle^^** units from your army gain the ^^**Daemon^^** "
            "keyword.\xa0\n^^**Heretic Astartes Vehicle, Lord Discordant^^** and ^^**Vashtorr "
            "the Arkifane^^** units from your army gain the ^^**Soul Forge^^** keyword.\xa0\n"
            "^^**Soul Forge^^** units from your army have a 5+ invulnerable save.")
    heldrake = frozenset({"CHAOS", "HERETIC ASTARTES", "VEHICLE", "AIRCRAFT", "FLY", "HELDRAKE"})
    [part] = for_unit(translate, "Soul Forge Boons", text, heldrake, "", kind="detachment rule")
    assert part.automatic and (part.scope, part.rule.describe()) == (Scope.UNIT, "invuln=5")
    # an AP-3 gun: save 3+ -> 6+ (fails 5/6), the 5+ invulnerable instead (2/3):
    # 6 x 1/2 x 1/2 x 2/3 = 1 (without: 6 x 1/2 x 1/2 x 5/6 = 5/4)
    ap3 = mh.Weapon("Gun", range=24, attacks=6, skill=4, strength=4, ap=-3, damage=1)
    assert mh.attack(ap3, MEQ, apply=[part.rule]).unsaved.mean() == 1
    assert mh.attack(ap3, MEQ).unsaved.mean() == F(5, 4)
