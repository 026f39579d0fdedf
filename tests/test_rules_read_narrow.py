"""Rules from data read no wider than their text (issue 30, the classes of the seed-4242 audit):
a clause's own condition, the weapons named by an ability or counted besides one, the bearer's
chosen weapon, a led unit's keywords, an "instead" alternative's conditions, a Feel No Pain
against Damage 1 attacks only, a count of the unit's own models, a Bondsman's Armiger and an
Afflicted enemy. Every number is worked out by hand in a comment."""

from fractions import Fraction as F

import pytest
from bruteforce import brute_force
from montecarlo import simulate

import mathhammer as mh
from mathhammer.data.rules.parts import Scope
from mathhammer.data.rules.translate import translate
from mathhammer.data.rules.unit_rules import side_rules
from mathhammer.model.named import Conditions, Effect, NamedRule

MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])


def described(text: str) -> list[str]:
    return [p.rule.describe() if p.rule.usable else f"not modelled: {p.rule.not_modelled}"
            for p in translate("Rule", text)]


@pytest.mark.parametrize(("text", "want"), [
    # an invulnerable save's own "against ranged attacks" is not the Feel No Pain's
    ("This model has a 4+ invulnerable save against ranged attacks, and the Feel No Pain 6+ "
     "ability.", ["fnp=6; if ranged attacks: invuln=4"]),
    # Psychic attacks that hit the target earlier are no condition on the bearer's weapons
    ("Each time this model makes a ranged attack that targets a MONSTER unit that was hit by one "
     "or more Psychic attacks made by a THOUSAND SONS PSYKER unit from your army this turn, you "
     "can re-roll the Hit roll.", ["if ranged attacks, target MONSTER: reroll_hits=failed"]),
    # "all [HEAVY] weapons": the weapons with that ability
    ("All [HEAVY] weapons equipped by models in this unit have the [LETHAL HITS] ability.",
     ["if weapons with heavy: abilities=[lethal hits]"]),
    # a verb left out of the second change: a clause (and switch) of its own
    ("Each time this model makes an attack, add 1 to the Hit roll if this model is leading a "
     "unit of 5 or more models, and 1 to the Wound roll as well if this model is leading a unit "
     "of 10 or more models.", ["hit_mod=+1", "wound_mod=+1"]),
    # a second change of an attack that is not read is said, never dropped
    ("That weapon is now a Crusade Relic; it has the [HAZARDOUS] ability, and you can improve "
     "either its Strength or its Damage characteristic by 1.",
     ["not modelled: one weapon of several (\"that weapon\")",  # the guard: one weapon
      "not modelled: wording not recognised (\"you can improve either its Strength or its "
      "Damage characteristic by 1\")"]),
    # "improve its X and Y characteristics by 1" (the chosen weapon's) is read
    ("That weapon is now a Crusade Relic; improve its Strength, Armour Penetration and Damage "
     "characteristics by 1, and that weapon has the [HAZARDOUS] ability.",
     # read (strength_mod=+1, ap_mod=+1, damage_mod=+1, abilities=[hazardous]), but one weapon
     # of several: the guard says it not modelled (mathhammer/data/rules/guard.py)
     ["not modelled: one weapon of several (\"that weapon\")"]),
    # two grants, each on its own weapons (not two options both on melee weapons)
    ("Weapons equipped by models in this unit have the [LETHAL HITS] ability, and melee weapons "
     "equipped by models in this unit have the [LANCE] ability.",
     ["abilities=[lethal hits]", "if melee attacks: abilities=[lance]"]),
    # a characteristic "is improved by 1" (passive) is read, not dropped
    ("Ranged weapons equipped by models in this unit have the [SUSTAINED HITS 1] ability and the "
     "Armour Penetration characteristic of those weapons is improved by 1.",
     ["if ranged attacks: ap_mod=+1, abilities=[sustained hits 1]"]),
])
def test_a_clause_reads_no_wider_than_its_text(text, want):
    assert described(text) == want


def test_an_instead_alternative_keeps_the_condition_it_replaces():
    parts = translate("Ferocity", "Each time a unit is selected to fight, if that unit made a "
                      "Charge move this turn, until the end of the phase, add 1 to the Attacks "
                      "characteristic of melee weapons equipped by models in that unit. If your "
                      "unit is Battle-shocked, add 2 to the Attacks characteristic of melee "
                      "weapons equipped by models in that unit instead.")
    assert [p.rule.requires.charged or p.rule.effects[0].requires.charged for p in parts] == \
        [True, True]


def test_the_chosen_weapon_is_the_bearers_of_that_kind():
    [part] = translate("Blasta", "Select one Torrent weapon equipped by the bearer. That weapon "
                       "gains the [DEVASTATING WOUNDS] ability.")
    assert part.scope is Scope.MODEL
    assert part.rule.describe() == "if weapons with torrent: abilities=[devastating wounds]"


def test_weapons_counted_besides_one_are_every_other_of_that_kind():
    [part] = translate("Frenzy", "If this model is equipped with two melee weapons in addition "
                       "to its close combat weapon, add 2 to the Attacks characteristic of those "
                       "two weapons.")
    rule = attrs_on(part.rule)
    fist = mh.Weapon("Helbrute fist", range="melee", attacks=4, skill=3, strength=12, ap=-2,
                     damage=3)
    ccw = mh.Weapon("Close combat weapon", range="melee", attacks=4, skill=3, strength=6, ap=0,
                    damage=1)
    # the fist: 4 + 2 = 6 attacks; the close combat weapon stays at 4
    assert mh.attack(fist, MEQ, apply=[rule]).attacks.mean() == 6
    assert mh.attack(ccw, MEQ, apply=[rule]).attacks.mean() == 4


def attrs_on(rule: NamedRule) -> NamedRule:
    """A switch as the player switches it on (its assumes asserted)."""
    import attrs

    return attrs.evolve(rule, assumes="")


def test_a_led_units_keywords_decide_a_rule_for_it():
    parts = translate("War Howl", "While this model is leading a BLOOD CLAWS unit, each time a "
                      "model in that unit makes a melee attack, you can re-roll the Wound roll.")
    assert [(p.scope, p.keywords) for p in parts] == [(Scope.LED, ("BLOOD CLAWS",))]
    names = [[r.name for r in side_rules(parts, "attacker", leading=True, led=led).applied]
             for led in (None, frozenset({"WOLF GUARD HEADTAKERS", "INFANTRY"}),
                         frozenset({"BLOOD CLAWS", "INFANTRY"}))]
    assert names == [[], [], ["War Howl"]]


def test_feel_no_pain_against_damage_1_attacks_only():
    [part] = translate("Father", "Each time an attack with a Damage characteristic of 1 is "
                       "allocated to a model in this unit, that model has the Feel No Pain 4+ "
                       "ability against that attack.")
    rule = attrs_on(part.rule)
    assert rule.describe() == "if Damage 1 attacks: fnp=4" and rule.side == "defender"
    bolt = mh.Weapon("Bolt rifle", attacks=6, skill=3, strength=4, ap=0, damage=1)
    heavy = attrs_evolve(bolt, damage=2)
    # D1: 6 x hit 2/3 x wound 1/2 x fail 1/3 = 2/3 unsaved, FNP 4+ lets 1/2 through: 1/3 damage
    assert mh.attack(bolt, MEQ, apply=[rule]).damage.mean() == F(1, 3)
    # D2: no FNP: 2/3 unsaved x 2 = 4/3 damage (10 W2 models: none of the 12 points at most
    # is lost)
    ten = mh.Target(models=10, toughness=4, save=3, wounds=2)
    assert mh.attack(heavy, ten, apply=[rule]).damage.mean() == F(4, 3)
    # a +1 Damage option makes the D1 weapon D2: no FNP either
    assert mh.attack(bolt, ten, apply=[rule], damage_mod=1).damage.mean() == F(4, 3)
    # D3 dice is no fixed characteristic of 1
    assert not Conditions(damage=1).holds(attrs_evolve(bolt, damage="D3"), mh.Options(),
                                          below_half=False, below_starting=False)
    # an unmodified Damage of 1 is as printed, whatever the option
    assert Conditions(damage=1, unmodified_damage=True).holds(
        bolt, mh.Options(damage_mod=1), below_half=False, below_starting=False)


def attrs_evolve(weapon, **changes):
    import attrs

    return attrs.evolve(weapon, **changes)


def test_feel_no_pain_against_damage_1_agrees_with_both_oracles():
    """The D1 weapon against the unit with FNP 4+ (the rule's effect once its condition
    holds): the engine, the brute force and the Monte Carlo give the same answer."""
    rule = NamedRule("Father", "", "datasheet ability", "defender", "...", effects=(Effect(
        (("fnp", 4),), Conditions(damage=1)),))
    bolt = mh.Weapon("Bolt rifle", attacks=3, skill=3, strength=4, ap=0, damage=1)
    target = mh.Target(models=2, toughness=4, save=3, wounds=2)
    got = mh.attack(bolt, target, apply=[rule])
    with_fnp = mh.Target(models=2, toughness=4, save=3, wounds=2, fnp=4)
    exact = brute_force(bolt, with_fnp)
    assert got.kills.mean() == sum(k * p for k, p in exact.kills.items())
    assert got.damage.mean() == sum(d * p for d, p in exact.damage.items())
    runs = simulate(bolt, with_fnp, trials=20_000, seed=3).kills
    assert abs(float(got.kills.mean()) - runs.mean()) <= 4.5 * runs.std() / len(runs) ** 0.5
    # and a D2 weapon meets no FNP: the oracles without it
    heavy = attrs_evolve(bolt, damage=2)
    plain = brute_force(heavy, target)
    assert mh.attack(heavy, target, apply=[rule]).kills.mean() == sum(
        k * p for k, p in plain.kills.items())


def test_a_count_of_the_units_own_models_reaches_21_models():
    parts = translate("Channel", "Each time this model attacks with a Psychic weapon, until the "
                      "end of the phase, improve the Attacks characteristic of that weapon by 1 "
                      "for every 5 models in this unit. While this unit contains 10 or more "
                      "models, those weapons have the [HAZARDOUS] ability.")
    names = [p.rule.name for p in parts]
    assert names[:6] == [f"Channel (x{k})" for k in range(1, 7)]
    # the Hazardous switch keeps the Psychic weapons of the sentence before
    assert parts[-1].rule.describe() == "if weapons with psychic: abilities=[hazardous]"


def test_a_condition_after_but_is_its_own_clause():
    parts = translate("Energy", "While this model is leading a unit, add 2 to the Attacks "
                      "characteristic of this model's Eyez of Mork weapon for every 5 models in "
                      "that unit (rounding down), but while that unit contains 10 or more models, "
                      "that weapon has the [HAZARDOUS] ability.")
    # x1 (5-9 models) is +2 Attacks without Hazardous; Hazardous is a switch of its own, on
    # that weapon
    assert parts[0].rule.describe() == "if with eyez of mork: attacks_mod=+2"
    assert parts[-1].rule.describe() == "if with eyez of mork: abilities=[hazardous]"


def test_a_bondsman_ability_is_for_the_armiger():
    [part] = translate("Duty (Bondsman)", "While a model is affected by this ability, each time "
                       "that model makes a ranged attack, add 1 to the Hit roll.")
    assert (part.scope, part.keywords) == (Scope.OTHERS, ("ARMIGER",))
    assert side_rules([part], "attacker").applied == ()  # never the Knight's own


def test_the_plague_of_an_afflicted_enemy_is_a_debuff_on_it():
    parts = translate("Gift", "While an enemy unit is within 6\" of this unit, it is Afflicted. "
                      "While an enemy unit is Afflicted, subtract 1 from the Toughness "
                      "characteristic of models in that unit, and that unit has the effect of "
                      "your chosen Plague. Skullsquirm Blight: Each time a model in this unit "
                      "makes an attack, subtract 1 from the Hit roll.")
    usable = [p for p in parts if p.rule.usable]
    assert [(p.scope, p.rule.side, p.rule.describe()) for p in usable] == \
        [(Scope.ENEMY, "defender", "hit_mod=-1")]


def test_models_of_that_unit_are_the_unit_brought_in_before():
    parts = translate("Protocols", "In your Command phase, if this model is leading a KASTELAN "
                      "ROBOTS unit, you can select one protocol for that unit to enter. Protector "
                      "Protocol: Add 2 to the Attacks characteristic of ranged weapons equipped by "
                      "KASTELAN ROBOT models in that unit.")
    assert [(p.scope, p.keywords) for p in parts] == [(Scope.LED, ("KASTELAN ROBOTS",))]
    # the Datasmith alone (not leading them) gets nothing; leading Kastelan Robots, the switch
    assert side_rules(parts, "attacker").switches == ()
    assert [r.name for r in side_rules(parts, "attacker", leading=True, led=frozenset(
        {"KASTELAN ROBOTS", "VEHICLE"})).switches] == ["Protocols"]
