"""The guard (mathhammer/data/rules/guard.py): each check turns a part whose text carries a sign
its reading does not account for into a said not-modelled part, and leaves the near miss
applied. The texts are the wrong cases the rules audit's readers found (tests/fixtures/
rules_audit), each beside a wording that must stay applied."""

from __future__ import annotations

import attrs
import pytest

from mathhammer.data.rules.guard import CHECKS, STATES, state_keyword
from mathhammer.data.rules.parts import DataRule, Scope
from mathhammer.data.rules.sentences import normalize
from mathhammer.data.rules.translate import translate
from mathhammer.model.named import Conditions, Effect, NamedRule


def _Part(**requires: object) -> DataRule:  # noqa: N802
    """A part read the wide way: +1 to Hit for the bearer's whole unit, every weapon."""
    effect = Effect((("hit_mod", 1),), Conditions(**requires))
    return DataRule(NamedRule("Rule", faction="", kind="datasheet ability", side="attacker",
                              text="", effects=(effect,)))


def _flags(text: str) -> list[str]:
    """The not-modelled reasons the guard gives the parts of ``text`` (the translator's own
    left out)."""
    return [p.rule.not_modelled for p in translate("Rule", text)
            if p.rule.not_modelled and not p.rule.name.endswith("(rest)")]


def _applied(text: str) -> bool:
    return any(p.rule.usable for p in translate("Rule", text))


#: (check, a text that trips it, the words its reason quotes, a near miss that stays applied)
CASES = [
    ("one weapon",
     "Select one melee weapon equipped by the bearer. That weapon gains the [DEVASTATING "
     "WOUNDS] ability.", "select one melee weapon",
     "Melee weapons equipped by the bearer have the [DEVASTATING WOUNDS] ability."),
    ("one weapon",  # a wargear ability's own weapon
     "Each time an attack is made with this weapon, if the target is more than 12\" from the "
     "bearer, an unmodified successful Hit roll of 4+ scores a Critical Hit.", "this weapon",
     # a debuff on a unit this weapon hit: the enemy's attacks, not this weapon's
     "Each time a unit is hit by this weapon, it is blinded until the start of your next turn. "
     "While a unit is blinded, each time a model in that units makes an attack, subtract 1 "
     "from the Hit roll."),
    ("named weapon",
     "For each model embarked within this TRANSPORT, add 1 to the Attacks characteristic of "
     "this model’s butcha boyz weapon (to a maximum of +6).", "butcha boyz weapon",
     "For each model embarked within this TRANSPORT, add 1 to the Attacks characteristic of "
     "this model’s melee weapons (to a maximum of +6)."),
    ("named weapon",
     "If this model is equipped with 2 Telemon caestus weapons in addition to its armoured "
     "feet weapon, add 2 to the Attacks characteristic of those Telemon caestus weapons.",
     "those Telemon caestus weapons",
     # the weapon that picked the target, not the one the effect changes
     "In your Shooting phase, after this model has shot, select one enemy unit hit by one or "
     "more attacks made with its exterminator autocannon. Until the end of the phase, each "
     "time a friendly ASTRA MILITARUM model makes a ranged attack that targets that unit, "
     "improve the Armour Penetration characteristic of that attack by 1."),
    ("exception",
     "While an enemy unit is only within Engagement Range of one or more FORTIFICATIONS from "
     "your army, each time a ranged attack targets that unit, unless it is made with a "
     "Pistol, subtract 1 from the Hit roll.", "unless it is made with a Pistol",
     "While an enemy unit is only within Engagement Range of one or more FORTIFICATIONS from "
     "your army, each time a ranged attack targets that unit, subtract 1 from the Hit roll."),
    ("exception",
     "While Empowered, weapons equipped by models in this unit (excluding blast pistols, "
     "blasters and dark lances) have the [LETHAL HITS] ability.", "excluding blast pistols",
     # an exclusion of units, not of weapons
     "Each time a model in this unit (excluding Battle-shocked units) makes an attack, add 1 "
     "to the Hit roll."),
    ("such weapon",
     "Ranged weapons equipped by ADEPTUS ASTARTES models from your army have the [ASSAULT] "
     "ability, and each time an attack made such a weapon targets a unit within 12\", add 1 "
     "to the Strength characteristic of that attack.", "such a weapon",
     "Ranged weapons equipped by ADEPTUS ASTARTES models from your army have the [ASSAULT] "
     "ability."),
    ("table",
     "Each time this unit is selected to shoot, you can roll one D6; on a 1, until the end of "
     "the phase, ranged weapons equipped by models in this unit have the [HAZARDOUS] ability; "
     "on a 2-5, until the end of the phase, improve the Ballistic Skill characteristic of "
     "ranged weapons equipped by models in this unit by 1; on a 6, until the end of the phase, "
     "improve the Ballistic Skill characteristic of ranged weapons equipped by models in this "
     "unit by 1 and those weapons have the [IGNORES COVER] ability.", "on a 1",
     # one result that changes an attack: its switch is the result's own
     "At the start of your opponent's Shooting phase, select one enemy unit within 12\" of "
     "this model and roll one D6: on a 1, this model suffers D3 mortal wounds; on a 2-5, "
     "until the end of the phase, each time a model in that enemy unit makes an attack, "
     "subtract 1 from the Hit roll; on a 6, that enemy unit is not eligible to shoot this "
     "phase."),
    ("table",
     "EMPEROR'S CHILDREN units from your army gain a bonus depending on how many Pact points "
     "you have gained (these are all cumulative).\n1+: Each time a model in this unit makes "
     "an attack, re-roll a Hit roll of 1.\n5+: Melee weapons equipped by models in this unit "
     "have the [LETHAL HITS] ability.", "1+",
     "Each time a model in this unit makes an attack, re-roll a Hit roll of 1. Melee weapons "
     "equipped by models in this unit have the [LETHAL HITS] ability."),
    ("beneficiary",
     "Ranged weapons equipped by the bearer and Battleline models in the bearer’s unit have "
     "the [PRECISION] ability", "the bearer and BATTLELINE models in the bearer's unit",
     "Ranged weapons equipped by the bearer have the [PRECISION] ability"),
    ("beneficiary",
     "Once per battle, when the bearer is selected to fight, it can activate the Mortis Gyre. "
     "If it does, until that fight is resolved, melee attacks made by the model that target "
     "an INFANTRY unit have the [DEVASTATING WOUNDS] ability.", "attacks made by the model",
     "Once per battle, when the bearer is selected to fight, it can activate the Mortis Gyre. "
     "If it does, until that fight is resolved, melee attacks made by models in the bearer's "
     "unit that target an INFANTRY unit have the [DEVASTATING WOUNDS] ability."),
    ("beneficiary",
     "Each time a model affected by this ability makes an attack that targets this model's "
     "quarry, you can re-roll the Wound roll.", "a model affected by this ability",
     "Each time this model makes an attack that targets an INFANTRY unit, you can re-roll the "
     "Wound roll."),
    ("beneficiary",
     "In your Command phase, you can select one friendly ADEPTUS ASTARTES VEHICLE model within "
     "3\" of this model. Until the start of your next Command phase, select one ranged weapon "
     "equipped by that model to have the [RAPID FIRE 1] ability.",
     "equipped by that model",
     # a model of this unit it is allocated to: that model is the unit's
     "Each time a melee attack with a Damage characteristic of 1 is allocated to a model in "
     "this unit, that model has the Feel No Pain 5+ ability against that attack."),
    ("beneficiary",  # Bound Creation: the CRYPTEK's own, not the Cryptothralls' (rules7)
     "While this unit is in the same unit as a CRYPTEK model, that CRYPTEK model has the Feel "
     "No Pain 4+ ability.", "that CRYPTEK model has the Feel No Pain",
     "While this unit is in the same unit as a CRYPTEK model, models in this unit have the "
     "Feel No Pain 4+ ability."),
    ("beneficiary",  # Prism of Echoes: the Aspiring Sorcerer's weapons are left out (rules8a)
     "While a friendly RUBRICAE unit is within 6\" of the bearer, add 1 to the Attacks "
     "characteristic of weapons equipped by non-PSYKER models in that unit.",
     "equipped by non-PSYKER models",
     "While a friendly RUBRICAE unit is within 6\" of the bearer, add 1 to the Attacks "
     "characteristic of weapons equipped by models in that unit."),
]


@pytest.mark.parametrize(("check", "trips", "quoted", "near"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_check_says_its_sign_and_leaves_the_near_miss(check: str, trips: str, quoted: str,
                                                        near: str) -> None:
    assert check in CHECKS
    wide = _Part()  # the text read for the whole unit and every weapon: the check says why not
    if "the bearer and" in trips:  # kept to the bearer: the narrow misreading
        wide = attrs.evolve(wide, scope=Scope.MODEL)
    said = CHECKS[check](normalize(trips), wide, (wide,))
    assert quoted.lower() in said.lower(), said  # the sign quoted

    assert not _flags(near), near
    assert _applied(near)


def test_a_flagged_part_quotes_its_own_text() -> None:
    """Every quote a reason gives is words of the rule's text (so a reader finds it)."""
    for check, trips, _quoted, _near in CASES:
        clean = " ".join(normalize(trips).split()).lower()
        for reason in [*_flags(trips), CHECKS[check](normalize(trips), _Part(), (_Part(),))]:
            if not reason:
                continue
            for said in reason.split("; "):
                quote = said.split('("', 1)[1].rsplit('")', 1)[0].lower().removesuffix(": ...")
                assert quote in clean, (quote, trips)


def test_a_game_state_read_as_a_keyword() -> None:
    # "Against SPOTTED targets": a state a rule gives the target, no datasheet's keyword
    assert state_keyword("", _Part(target_keywords=("SPOTTED",))) == \
        'a game state read as a keyword ("SPOTTED")'
    assert state_keyword("", _Part(target_keywords=("MONSTER", "VEHICLE"))) == ""
    assert "SPOTTED" in STATES and "VEHICLE" not in STATES


def test_a_table_of_results_each_its_own_part_is_left() -> None:
    """Two results that change attacks, each its own switch (no change said twice): the
    translator's reading stands."""
    text = ("Each time the bearer's unit is selected to shoot, roll one D6: on a 1, ranged "
            "weapons equipped by the bearer have the [HAZARDOUS] ability; on a 2+, ranged "
            "weapons equipped by the bearer have the [SUSTAINED HITS 1] ability.")
    assert _applied(text)
    assert not _flags(text)


def test_that_weapon_of_any_weapon_is_left() -> None:
    """"That weapon" pointing back to "an attack with a ranged weapon" names no one weapon."""
    text = ("Each time a model in this unit makes an attack with a ranged weapon, you can "
            "ignore any or all modifiers to the Hit roll and any or all modifiers to the "
            "Ballistic Skill characteristic of that weapon.")
    assert _applied(text)
    assert not _flags(text)


def test_such_a_weapon_of_another_sentence_is_left() -> None:
    """The sentence before "such a weapon" is read as it says: only the one that points back is
    said not modelled. (Daemonic Empowerment's "If such a weapon already has that ability" is
    read by the translator since rules14: a filter on the weapons with it printed.)"""
    text = ("While a unit from your army is Empowered, weapons equipped by models in that unit "
            "have the [SUSTAINED HITS 1] ability. Each time an attack is made with such a weapon "
            "against a unit that is Battle-shocked, an unmodified Hit roll of 5+ scores a "
            "Critical Hit.")
    parts = translate("Rule", text)
    kept = [p.rule.describe() for p in parts if p.rule.usable]
    assert kept == ["abilities=[sustained hits 1]"], kept
    assert any("such a weapon" in p.rule.not_modelled for p in parts)


def test_all_keyword_models_of_the_unit_include_the_bearer() -> None:
    """Huskarl to the Jarl (rules8b): "while this model is attached to a unit that contains
    another CHARACTER model, all CHARACTER models in that unit have the Feel No Pain 4+
    ability": this model too, not only the other CHARACTER (the translator's reading, for other
    units): said not modelled; a rule for other CHARACTER models alone stays applied."""
    trips = ("While this model is attached to a unit that\u00a0contains another CHARACTER model, "
             "all CHARACTER models in\u00a0that unit have the Feel No Pain 4+ ability.")
    assert _flags(trips) == ['another beneficiary ("all CHARACTER models in that unit")']
    assert _applied("While this model is leading a unit, other CHARACTER models attached to "
                    "that unit have the Feel No Pain 4+ ability.")
