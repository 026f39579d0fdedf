"""Two beneficiary classes of the rules from data (issue 30, rules8d): a -1 to Hit or Wound
for an enemy's attacks read as the bearer's own penalty, and a rule for the bearer's unit
given to the bearer alone (or the other way round). Every number is worked out by hand in a
comment."""

from fractions import Fraction as F

import mathhammer as mh
from mathhammer.data.rules.parts import Scope
from mathhammer.data.rules.translate import translate
from mathhammer.data.typed.inline import parse_squad, parse_weapon


def parts(text, name="Ability"):
    return translate(name, text, "test")


def reading(text, name="Ability"):
    """(scope, side, switch, describe) of each usable part."""
    return [(p.scope, p.rule.side, p.switch, p.rule.describe()) for p in parts(text, name)
            if p.rule.usable]


# -- a debuff on an enemy's attacks ------------------------------------------------------------

INDISCRIMINATE = ("In your Shooting phase, when this unit has resolved its attacks, select one "
                  "enemy unit hit by one or more of those attacks. That enemy unit is "
                  "**suppressed** until the start of your next Command phase. (While a unit is "
                  "**suppressed**, it has \u20111 to **hit rolls**.)")


def test_a_suppressed_unit_that_has_minus_one_to_hit_is_the_enemy():
    """Indiscriminate Detonations (11e Orks): "(While a unit is suppressed, it has -1 to hit
    rolls.)": "it" is the enemy unit selected, its attacks on the bearer's side are hindered,
    never the bearer's own."""
    assert reading(INDISCRIMINATE, "Indiscriminate Detonations") == [
        (Scope.ENEMY, "defender", True, "hit_mod=-1")]
    [p] = [p for p in parts(INDISCRIMINATE) if p.rule.usable]
    gun = [parse_weapon("Gun | 24 | 6 | 3+ | 4 | 0 | 1")]
    # the bearer's own shooting is not hindered (the switch is the defender's): 6 x hit 2/3 x
    # wound S4 v T4 1/2 x Sv4+ fails 1/2 = 1
    r = mh.attack(gun, parse_squad("5x T4 Sv4+ W1"), apply=[], rules="11e")
    assert r.unsaved.mean() == F(1)
    # the suppressed enemy's attack on the bearer's unit: hit 3+ -1 -> 4+ = 1/2:
    # 6 x 1/2 x 1/2 x 1/2 = 3/4
    r = mh.attack(gun, parse_squad("5x T4 Sv4+ W1"), apply=[p.rule], rules="11e")
    assert r.unsaved.mean() == F(3, 4)


def test_an_enemy_model_near_this_model_that_makes_an_attack_is_the_enemy():
    """Anathematic Diadem (Aura): "When an enemy model within 12\" of this model makes an attack
    with a Psychic weapon, subtract 1 from the Wound roll": "when", as "each time", names who
    makes the attack; the bearer's own psychic attacks keep their Wound roll."""
    assert reading("When an enemy model within 12\" of this model makes an attack with a "
                   "Psychic weapon, subtract 1 from the Wound roll.") == [
        (Scope.ENEMY, "defender", True, "if weapons with psychic: wound_mod=-1")]


def test_that_attack_of_a_sentence_before_keeps_its_side():
    """Lightning-fast Manoeuvres: "Each time a ranged attack targets this model, subtract 1 from
    the Hit roll. If that attack was made by a model that can Fly, subtract 1 from the Wound
    roll as well": that attack is the one made against this model; the -1 to Wound is the
    defender's too (a switch: the attacker's FLY), not this model's own penalty."""
    assert reading("Each time a ranged attack targets this model, subtract 1 from the Hit "
                   "roll. If that attack was made by a model that can Fly, subtract 1 from the "
                   "Wound roll as well.") == [
        (Scope.MODEL, "defender", False, "if ranged attacks: hit_mod=-1"),
        (Scope.MODEL, "defender", True, "if ranged attacks: wound_mod=-1")]
    # Bastion Shield (audit 2468-a, 10e-031): the 1YP version, "... of that attack by 1
    # instead", worsens the AP of the attacks on the bearer's unit as the first does
    assert [r[:2] for r in reading(
        "Each time a ranged attack targets the bearer's unit, if the attacking model is within "
        "12\" of the bearer's unit, worsen the Armour Penetration characteristic of that attack "
        "by 1. If you spend 1YP, until the end of the phase, if the attacking model is within "
        "18\" of the bearer's unit, worsen the Armour Penetration characteristic of that attack "
        "by 1 instead.")] == [(Scope.UNIT, "defender"), (Scope.UNIT, "defender")]


def test_an_attack_allocated_the_bearer_is_an_attack_on_it():
    """Adamantine Mantle (10e): the data's "Each time an attack is allocated the bearer" (no
    "to") is an attack on the bearer: -1 Damage to the attacks it takes, not to its own."""
    [p] = [p for p in parts("Each time an attack is allocated the bearer, subtract 1 from the "
                            "Damage characteristic of that attack.") if p.rule.usable]
    assert (p.scope, p.rule.side, p.automatic, p.rule.describe()) == (
        Scope.MODEL, "defender", True, "damage_mod=-1")
    # a D2 attack on a W2 model: 6 attacks, hit 3+ 2/3, wound 1/2, Sv4+ fails 1/2 = 1 unsaved,
    # each 2 - 1 = 1 damage: mean damage 1 (without the rule: 2)
    r = mh.attack([parse_weapon("Gun | 24 | 6 | 3+ | 4 | 0 | 2")], parse_squad("1x T4 Sv4+ W9"),
                  apply=[p.rule], rules="10e")
    assert r.damage.mean() == F(1)


def test_friendly_keyword_units_attacks_that_have_plus_one_to_hit_are_theirs():
    """Eye of the Hunt, Annihilate the Unworthy (audit 2468-c, 11e): "Friendly HERNKYN units'
    ranged attacks that target a unit within 12\" have +1 to hit rolls": for friendly HERNKYN
    units (the bearer's own when it is one), not any unit that has the rule."""
    [p] = [p for p in parts("Friendly HERNKYN units' ranged attacks that target a unit within "
                            "12\" have +1 to hit rolls.") if p.rule.usable]
    assert (p.scope, p.keywords, p.rule.side, p.rule.describe()) == (
        Scope.FRIENDLY, ("HERNKYN",), "attacker", "if ranged attacks: hit_mod=+1")
    # a longer subject: "Friendly IMPERIAL KNIGHTS DOMINUS units' attacks that target a unit in a
    # terrain area have +1 to hit rolls" (Rain of Devastation, 11e)
    [q] = [p for p in parts("Friendly IMPERIAL KNIGHTS DOMINUS units' attacks that target a unit "
                            "in a terrain area have +1 to hit rolls.") if p.rule.usable]
    assert (q.scope, q.keywords) == (Scope.FRIENDLY, ("IMPERIAL KNIGHTS DOMINUS",))


# -- the bearer or the bearer's unit -----------------------------------------------------------

def test_weapons_equipped_in_the_bearers_unit_are_the_units():
    """A Chink in Their Armour (GSC enhancement): "Each time the bearer is set up ... ranged
    weapons equipped in the bearer's unit have the [LETHAL HITS] ability": every model of the
    unit, not the bearer alone (a switch: set up as Reinforcements)."""
    text = ("**^^Genestealer Cults^^** model only. Each time the bearer is set up on the "
            "battlefield as Reinforcements, until the end of your next Fight phase, ranged "
            "weapons equipped in the bearer's unit have the **[LETHAL HITS]** ability.")
    assert reading(text, "A Chink in Their Armour") == [
        (Scope.UNIT, "attacker", True, "if ranged attacks: abilities=[lethal hits]")]


def test_the_bearers_unit_targeted_with_fire_overwatch_shoots_as_a_unit():
    """Protector of the Paths: "you can target the bearer's unit with the Fire Overwatch
    Stratagem ..., hits are scored on unmodified Hit rolls of 5+": the unit's Overwatch."""
    text = ("Asuryani model only. While the bearer is leading a Dire Avengers or Guardians unit, "
            "once per battle round, you can target the bearer's unit with the Fire Overwatch "
            "Stratagem for 0CP, and while resolving that Stratagem, hits are scored on "
            "unmodified Hit rolls of 5+, or unmodified Hit rolls of 4+ instead if the bearer's "
            "unit is within range of an objective marker you control.")
    assert {(r[0], r[3]) for r in reading(text)} == {
        (Scope.UNIT, "overwatch_hits_on=5"), (Scope.UNIT, "overwatch_hits_on=4")}


def test_when_the_unit_is_selected_to_fight_the_bearers_weapons_are_the_bearers():
    """Eye of Spite, Pious Fervour: "Each time the bearer's unit is selected to fight, ...
    improve ... of the bearer's melee weapons by 2 instead": the unit's selection is when, the
    weapons are the bearer's own (the model), as the first sentence's +1."""
    eye = ("SUCCUBUS model only. Improve the Attacks and Armour Penetration characteristics of "
           "the bearer's melee weapons by 1. Each time the bearer's unit is selected to fight, "
           "you can spend 1 Pain token; if you do, until the end of the phase, improve the "
           "Attacks and Armour Penetration characteristics of the bearer's melee weapons by 2 "
           "instead.")
    assert [(r[0], r[2], r[3]) for r in reading(eye)] == [
        (Scope.MODEL, False, "if melee attacks: attacks_mod=+1, ap_mod=+1"),
        (Scope.MODEL, True, "if melee attacks: attacks_mod=+2, ap_mod=+2")]
    pious = ("Each time this model's unit is selected to fight, until the end of the phase, add "
             "1 to the Attacks characteristic of this model's Master-Crafted Power Weapon for "
             "each enemy unit within 6\" of this model (to a maximum of +3)")
    assert {r[0] for r in reading(pious)} == {Scope.MODEL}
    # the unit's own weapons after "each time this unit is selected to fight" stay the unit's
    assert [(r[0], r[3]) for r in reading(
        "Each time this unit is selected to fight, until the end of the phase, melee weapons "
        "equipped by models in this unit have the [LETHAL HITS] ability.")] == [
        (Scope.UNIT, "if melee attacks: abilities=[lethal hits]")]


def test_weapons_equipped_by_the_model_and_those_weapons_are_the_models():
    """Divine Deliverance (audit 2468-b, 11e-004): "add 3 to the Attacks characteristic of melee
    weapons equipped by the model and those weapons have the [DEVASTATING WOUNDS] ability": the
    subject ends where the next clause ("and those weapons") begins: the model's own."""
    assert reading("Once per battle, at the start of the Fight phase, this model can use this "
                   "ability. If it does, until the end of the phase, add 3 to the Attacks "
                   "characteristic of melee weapons equipped by the model and those weapons have "
                   "the [DEVASTATING WOUNDS] ability") == [
        (Scope.MODEL, "attacker", True,
         "if melee attacks: attacks_mod=+3, abilities=[devastating wounds]")]


def test_models_in_the_bearers_unit_given_an_ability_of_this_model_are_the_unit():
    """Bionik Workshop: "models in the bearer's unit have that bioniks ability. ... 2. Bionik
    Arms: Add 1 to the Strength characteristic of melee weapons equipped by this model": "this
    model" is each model of the unit (one option each: a switch)."""
    text = ("BIG MEK or PAINBOY model only. At the start of the battle, roll one D3 and compare "
            "the result to the list below. Until the end of the battle, models in the bearer's "
            "unit have that bioniks ability. 1. Bionik Legs: Add 2\" to the Move characteristic "
            "of this model. 2. Bionik Arms: Add 1 to the Strength characteristic of melee "
            "weapons equipped by this model. 3. Bionik Bonce: Improve the Weapon Skill "
            "characteristic of melee weapons equipped by this model by 1.")
    assert [(r[0], r[3]) for r in reading(text)] == [
        (Scope.UNIT, "if melee attacks: strength_mod=+1"),
        (Scope.UNIT, "if melee attacks: skill_mod=+1")]


def test_all_other_models_in_the_bearers_unit_are_said_not_modelled():
    """The Imperium's Sword, Champion of the Feast, Spiritus Ferrum (10e): "add 1 to the Attacks
    characteristic of melee weapons equipped by all other models in the bearer's unit": the
    unit but the bearer (who has its own +1 already); not other friendly units, and not the
    whole unit (the bearer +2): said not modelled, the bearer's own +1 still applied."""
    text = ("ADEPTUS ASTARTES model only. Add 1 to the Attacks characteristic of the bearer's "
            "melee weapons. Once per battle, at the start of any phase, the bearer can use this "
            "Enhancement. If it does, until the end of the phase, add 1 to the Attacks "
            "characteristic of melee weapons equipped by all other models in the bearer's unit.")
    ps = parts(text, "The Imperium's Sword")
    assert [(p.scope, p.automatic, p.rule.describe()) for p in ps if p.rule.usable] == [
        (Scope.MODEL, True, "if melee attacks: attacks_mod=+1")]
    [rest] = [p for p in ps if not p.rule.usable]
    assert rest.rule.not_modelled.startswith("for the other models of the bearer's unit (")
    assert "all other models in the bearer's unit" in rest.rule.not_modelled


def test_those_attacks_of_the_unit_the_sentence_brings_in_are_that_units():
    """Dauntless Champions (11e): "When a friendly PALADIN SQUAD unit is selected to fight, if
    the S of those attacks is lower than the T of the target, those attacks have +1 to wound
    rolls": the attacks of the PALADIN SQUAD unit, not any unit with the rule."""
    [p] = [p for p in parts("When a friendly PALADIN SQUAD unit is selected to fight, if the S "
                            "of those attacks is lower than the T of the target, those attacks "
                            "have +1 to wound rolls.") if p.rule.usable]
    assert (p.scope, p.keywords, p.rule.side, p.rule.describe()) == (
        Scope.FRIENDLY, ("PALADIN SQUAD",), "attacker", "if melee attacks: wound_mod=+1")


def test_attacks_made_by_this_model_in_a_condition_are_not_the_subject():
    """Inspirational Fighter (10e): "if one or more CHARACTER models were destroyed as a result
    of attacks made by this model this phase, ..., while a friendly ADEPTUS ASTARTES unit is
    within 6\" of this model, add 1 to the Attacks characteristic of melee weapons equipped by
    models in that unit": for the friendly ADEPTUS ASTARTES units, not this model."""
    [p] = [p for p in parts(
        "Each time this model's unit has fought, if one or more CHARACTER models were destroyed "
        "as a result of attacks made by this model this phase, until the end of the phase, while "
        "a friendly ADEPTUS ASTARTES unit is within 6\" of this model, add 1 to the Attacks "
        "characteristic of melee weapons equipped by models in that unit.") if p.rule.usable]
    assert (p.scope, p.keywords, p.switch, p.rule.describe()) == (
        Scope.FRIENDLY, ("ADEPTUS ASTARTES",), True, "if melee attacks: attacks_mod=+1")


# -- a rule for the unit's models of one keyword ------------------------------------------------

def test_character_models_in_this_unit_are_the_groups_that_have_the_keyword():
    """Dour Survivalist (11e): "CHARACTER models in this unit have the Feel No Pain 5+
    ability": read for a unit whose groups are known, only the CHARACTER group has it."""
    from types import SimpleNamespace

    from mathhammer.data.rules.unit_rules import resolve, side_rules

    text = ("**^^Character^^** models in this unit have the Feel No Pain 5+ ability and you can "
            "re-roll Out of Action tests taken for this unit.")
    unit = parse_squad("1x T4 Sv3+ W30 + 1x T4 Sv3+ W30 CHARACTER")
    read = resolve(parts(text, "Dour Survivalist"), SimpleNamespace(
        keywords=("CHARACTER",), groups=unit.groups))
    rules = list(side_rules(read, "defender").applied)
    gun = [parse_weapon("Gun | 24 | 6 | 3+ | 4 | 0 | 1")]
    # the attacks go to the W30 model without CHARACTER first, which has no Feel No Pain:
    # 6 x hit 2/3 x wound 1/2 x Sv3+ fails 1/3 = 2/3 damage (with FNP 5+ on it: 2/3 x 2/3 = 4/9)
    assert mh.attack(gun, unit, apply=rules).damage.mean() == F(2, 3)
    # a unit of CHARACTER models alone has it on every model: 4/9
    alone = parse_squad("2x T4 Sv3+ W30 CHARACTER")
    read = resolve(parts(text, "Dour Survivalist"), SimpleNamespace(
        keywords=("CHARACTER",), groups=alone.groups if hasattr(alone, "groups") else (alone,)))
    rules = list(side_rules(read, "defender").applied)
    assert mh.attack(gun, alone, apply=rules).damage.mean() == F(4, 9)
