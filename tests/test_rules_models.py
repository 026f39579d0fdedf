"""Rules from data for some models of a unit only (issue 30, seed 6161's wrong cases): the
OFFICER models of an attached unit, a detachment's "friendly X models", one model its bearer
selects, this model's weapons after a choice of abilities, and "ranged and melee weapons".
Every number is worked out by hand in a comment."""

from fractions import Fraction as F
from types import SimpleNamespace

import attrs

import mathhammer as mh
from mathhammer.data.rules.attached import _on_keyword
from mathhammer.data.rules.detachments import for_unit
from mathhammer.data.rules.parts import Scope
from mathhammer.data.rules.translate import translate
from mathhammer.data.rules.unit_rules import Offer, model_count, resolve, side_rules
from mathhammer.data.rules.whom import ONE_MODEL
from mathhammer.data.typed.inline import parse_weapon

MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])


def unsaved(weapon, rules, target=MEQ):
    return mh.attack([weapon], target, apply=list(rules), rules="10e").unsaved.mean()


# -- "ranged and melee weapons" ----------------------------------------------------------------

MINDLOCK = ("While a TECH-PRIEST model is leading this unit, improve the Ballistic Skill and "
            "Weapon Skill characteristics of ranged and melee weapons equipped by SERVITOR "
            "models in this unit by 1.")


def test_ranged_and_melee_weapons_name_both_kinds():
    [part] = translate("Mindlock", MINDLOCK)
    assert part.switch and part.rule.describe() == "skill_mod=+1"  # no ranged/melee condition
    gun = parse_weapon('heavy bolter | 24" | 6 | 3+ | 4 | 0 | 1')
    fist = parse_weapon('fist | melee | 6 | 3+ | 4 | 0 | 1')
    # BS/WS 3+ -> 2+: hit 5/6, S4 v T4 wound 1/2, Sv3+ fails 1/3: 6 x 5/6 x 1/2 x 1/3 = 5/6
    # (without: 6 x 2/3 x 1/2 x 1/3 = 2/3), for the gun and the fist alike
    assert unsaved(gun, [part.rule]) == F(5, 6) == unsaved(fist, [part.rule])
    assert unsaved(gun, []) == F(2, 3)


# -- "friendly X models" (a detachment rule) ---------------------------------------------------

KILLERS = ("Friendly **KILLER** models' attacks can:\n- Re-roll **hit rolls** of 1.\n"
           "- Re-roll **wound rolls** of 1.")


def test_friendly_x_models_are_the_models_that_are_x_in_an_attached_unit():
    parts = for_unit(translate, "Killer Reputation", KILLERS, frozenset({"KILLER"}), "")
    assert [p.scope for p in parts] == [Scope.MODEL]
    # a Locus (KILLER) leading Neophytes: its rules reach its own weapons only
    ur = side_rules(parts, "attacker", own=("Locus blades",), leading=True)
    [rule] = ur.applied
    assert rule.requires.weapons == ("Locus blades",)
    autogun = parse_weapon('Autogun | 24" | 6 | 3+ | 4 | 0 | 1')
    blades = parse_weapon('Locus blades | melee | 6 | 3+ | 4 | 0 | 1')
    # the Neophytes' autoguns: 6 x 2/3 x 1/2 x 1/3 = 2/3, the rule not theirs
    assert unsaved(autogun, [rule]) == F(2, 3)
    # the Locus's blades: hit 2/3 + 1/6 x 2/3 = 7/9, wound 1/2 + 1/6 x 1/2 = 7/12, fail 1/3:
    # 6 x 7/9 x 7/12 x 1/3 = 49/54
    assert unsaved(blades, [rule]) == F(49, 54)
    # a unit of KILLERs alone: every weapon
    [alone] = side_rules(parts, "attacker").applied
    assert unsaved(autogun, [alone]) == F(49, 54)


# -- this model's weapons have the selected ability --------------------------------------------

TOUCH = ("Each time this model's unit is selected to fight, select one of the following "
         "abilities: **[LETHAL HITS]**; **[SUSTAINED HITS 1]**. Until the end of the phase, "
         "this model's melee weapons have the selected ability.")


def test_the_selected_ability_of_this_models_weapons_is_the_models():
    parts = translate("Touch of Vicissitude", TOUCH)
    assert [p.scope for p in parts] == [Scope.MODEL, Scope.MODEL]
    ur = side_rules(parts, "attacker", own=("Force stave",), leading=True)
    lethal = ur.switch("Touch of Vicissitude (1)")
    assert lethal.requires.weapons == ("Force stave",)
    blade = parse_weapon('Rubric blade | melee | 6 | 3+ | 4 | 0 | 1')
    stave = parse_weapon('Force stave | melee | 6 | 3+ | 4 | 0 | 1')
    # a Rubric's blade: 6 x 2/3 x 1/2 x 1/3 = 2/3, unchanged
    assert unsaved(blade, [lethal]) == F(2, 3)
    # the Sorcerer's stave, Lethal Hits: a 6 (1/6) wounds, a 3-5 (1/2) wounds on 4+:
    # 6 x (1/6 + 1/2 x 1/2) x 1/3 = 6 x 5/12 x 1/3 = 5/6
    assert unsaved(stave, [lethal]) == F(5, 6)


# -- "those OFFICER models" ----------------------------------------------------------------------

BODYGUARD = ("While one or more **^^Officer^^** models are in the same unit as this model, "
             "those **^^Officer^^** models have the Feel No Pain 4+ ability")


def test_those_officer_models_are_the_officers_not_the_bearer():
    [part] = translate("Ogryn Bodyguard", BODYGUARD)
    assert part.model == "OFFICER" and part.automatic
    # Nork alone: not an OFFICER, the rule is not his
    nork = SimpleNamespace(name="Nork Deddog", keywords=("OGRYN", "CHARACTER"), groups=())
    assert side_rules(resolve([part], nork), "defender").applied == ()
    # attached beside a Castellan (an OFFICER) to a Command Squad: on the Castellan's group
    squad = SimpleNamespace(name="Cadian Command Squad", keywords=("INFANTRY",))
    castellan = SimpleNamespace(name="Cadian Castellan", keywords=("OFFICER", "CHARACTER"))
    placed = _on_keyword(part, "defender", squad, (nork, castellan), ("Cadian Command Squad",),
                         ("Nork Deddog", "Cadian Castellan"))
    assert placed.rule.requires.groups == ("Cadian Castellan",)
    [rule] = side_rules([placed], "defender").applied
    shot = parse_weapon('gun | 24" | 6 | 3+ | 4 | 0 | 1')
    officer = mh.Target(models=1, toughness=3, save=5, wounds=10, name="Cadian Castellan")
    ogryn = mh.Target(models=1, toughness=6, save=4, wounds=6, name="Nork Deddog")
    # at the Castellan (W10: no wound lost to the cap): hit 2/3, S4 v T3 wound 2/3, Sv5+
    # fails 2/3, FNP 4+ keeps 1/2: 6 x 2/3 x 2/3 x 2/3 x 1/2 = 8/9 damage (without: 16/9)
    assert mh.attack([shot], officer, apply=[rule]).damage.mean() == F(8, 9)
    # at Nork: hit 2/3, S4 v T6 wound 1/3, Sv4+ fails 1/2: 6 x 2/3 x 1/3 x 1/2 = 2/3
    assert mh.attack([shot], ogryn, apply=[rule]).damage.mean() == F(2, 3)
    # attacking, with two Leaders of whom only one is an OFFICER: not modelled, said
    mixed = _on_keyword(part, "attacker", squad, (nork, castellan), ("lasgun",),
                        ("Nork's gun", "Castellan's pistol"))
    assert not mixed.rule.usable and "OFFICER" in mixed.rule.not_modelled


# -- one model its bearer selects ----------------------------------------------------------------

BLESSING = ("In your Command phase, select one friendly ^^**Adeptus Mechanicus**^^ model "
            "within 3\" of this model. That model regains up to D3 lost wounds and, if it is a "
            "^^**Vehicle**^^ model, until the start of your next Command phase, that model has "
            "the Feel No Pain 5+ ability.")


def test_one_selected_model_is_a_unit_of_one_model_only():
    [part] = translate("Omnissiah's Blessing", BLESSING)
    assert part.scope is Scope.FRIENDLY and part.model == ONE_MODEL
    keywords = ("ADEPTUS MECHANICUS", "VEHICLE")
    one = SimpleNamespace(keywords=keywords, groups=(mh.Target(models=1, toughness=6, save=4,
                                                               wounds=1),))
    two = SimpleNamespace(keywords=keywords, groups=(mh.Target(models=2, toughness=6, save=4,
                                                               wounds=1),))
    assert model_count(one) == 1 and model_count(two) == 2
    [switch] = side_rules(resolve([part], one), "defender").switches
    gun = parse_weapon('gun | 24" | 2 | 2+ | 12 | -6 | 1')
    # p = hit 5/6 x wound 5/6 x no save = 25/36 per attack, FNP 5+ lets 2/3 through: a wound
    # lost 25/54 per attack; one model of W1 loses at most 1: 1 - (29/54)^2 = 2075/2916
    assert mh.attack([gun], one.groups[0], apply=[switch]).damage.mean() == F(2075, 2916)
    ur = side_rules(resolve([part], two), "defender")
    assert ur.switches == () and ur.applied == ()
    [said] = ur.not_modelled
    assert "not every model of a unit of 2 models" in said.not_modelled
    assert "select one friendly ADEPTUS MECHANICUS model" in said.not_modelled  # quoted
    # offered to another unit: to a unit of one model only
    offer = Offer("defender", frozenset(keywords), "Kastelan Robots", lambda: [("Tech-Priest",
                                                                                part)], 2)
    assert offer.names() == () and offer.find("Omnissiah's Blessing") is None
    single = attrs.evolve(offer, models=1)
    assert single.names() == ("Omnissiah's Blessing (Tech-Priest's)",)
