"""Whom each rule from data is for (issue 30): a beneficiary on every rule (this model, this
unit, the unit it leads, friendly units with their keywords, other units, an enemy's attacks,
the units in cover of a terrain feature), weapons and profiles named, counts, every clause
said, and the conditions the engine checks. Every number is worked out by hand in a comment."""

import os
from fractions import Fraction as F
from pathlib import Path

import pytest
from bsjson import STATS, ability, datasheet, model, unit, weapon, write_folder

import mathhammer as mh
from mathhammer.data.rules.attached import target_rules
from mathhammer.data.rules.parts import Scope
from mathhammer.data.rules.translate import translate
from mathhammer.data.rules.unit_rules import qualifies
from mathhammer.model.named import names_weapon

SHARED = Path(os.environ.get("MATHHAMMER_BSDATA", Path(__file__).resolve().parents[2]
                             / "shared" / "bsdata"))
MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])

FIRE_FOCUS = ("In your Shooting phase, after this model has shot, select one enemy unit hit by "
              "one or more of those attacks. Until the end of the turn, each time a friendly "
              "model that disembarked from this TRANSPORT this turn makes an attack that "
              "targets that enemy unit, improve the Armour Penetration characteristic of that "
              "attack by 1. The same enemy unit can only be affected by this ability once per "
              "turn.")
MISFORTUNE = ("At the end of your Movement phase, select one enemy unit within 18\" of and "
              "visible to this model. Until the start of your next Command phase, each time a "
              "model in that unit makes an attack, subtract 1 from the Wound roll. Each unit "
              "can only be selected for this ability once per turn.")


def parts(text, name="Ability"):
    return translate(name, text, "test")


def reading(text):
    """(scope, side, automatic, describe) of each part."""
    return [(p.scope, p.rule.side, p.automatic, p.rule.describe()) for p in parts(text)]


# -- whom a sentence is for --------------------------------------------------------------------

def test_a_rule_for_the_models_that_disembarked_is_for_other_units():
    [p] = parts(FIRE_FOCUS, "Fire Focus")
    # "Until the end of the turn": their melee attacks that turn too, not ranged ones only
    assert (p.scope, p.rule.side, p.switch, p.rule.describe()) == (
        Scope.OTHERS, "attacker", True, "ap_mod=+1")
    assert "disembarked from this TRANSPORT" in p.whom


def test_a_debuff_on_an_enemy_unit_is_the_defenders():
    # "each time a model in that (enemy) unit makes an attack, subtract 1 from the Wound roll":
    # the attacks against the bearer's side, never the bearer's own penalty
    [p] = parts(MISFORTUNE, "Misfortune")
    assert (p.scope, p.rule.side, p.switch, p.rule.describe()) == (
        Scope.ENEMY, "defender", True, "wound_mod=-1")


@pytest.mark.parametrize(("text", "scope", "keywords"), [
    ("While a friendly WAR DOG model is within 6\" of this model, ranged weapons equipped by "
     "that WAR DOG model have the [ASSAULT] ability.", Scope.FRIENDLY, ("WAR DOG",)),
    ("In your Command phase, select one other friendly ADEPTUS ASTARTES INFANTRY unit within 6\" "
     "of this model. Until the start of your next Command phase, each time a model in that unit "
     "makes an attack, add 1 to the Hit roll.", Scope.OTHERS, ("ADEPTUS ASTARTES INFANTRY",)),
    # after it has shot, its own attacks are made: the other TYRANIDS (audit 3030, 10e-012)
    ("In your Shooting phase, after this model has shot, select one enemy unit hit by one or "
     "more of those attacks. Until the end of the phase, each time a friendly TYRANIDS model "
     "makes an attack that targets that unit, re-roll a Hit roll of 1.", Scope.OTHERS,
     ("TYRANIDS",)),
    ("Each time a ranged attack is allocated to a model, if that model is not fully visible to "
     "every model in the attacking unit because of this Fortification, that model has the "
     "Benefit of Cover against that attack.", Scope.TERRAIN, ()),
])
def test_rules_for_other_units_name_them(text, scope, keywords):
    [p] = parts(text)
    assert (p.scope, p.keywords) == (scope, keywords)


def test_an_aura_reaches_its_own_unit_only_when_it_has_the_keywords():
    [p] = parts("While a friendly ADEPTUS ASTARTES INFANTRY unit is within 6\" of this model, "
                "each time a model in that unit makes an attack, re-roll a Hit roll of 1.")
    # the range is no condition for the bearer's own unit: automatic when it is one of them
    assert p.automatic and p.scope is Scope.FRIENDLY
    assert qualifies(p, frozenset({"ADEPTUS ASTARTES", "INFANTRY", "CAPTAIN"}))
    assert not qualifies(p, frozenset({"ADEPTUS ASTARTES", "VEHICLE"}))


def test_a_named_model_has_its_own_rule():
    [p] = parts("A Warlock has a 4+ invulnerable save.")
    assert (p.scope, p.model, p.rule.describe()) == (Scope.MODEL, "Warlock", "invuln=4")


# -- weapons, profiles and counts ------------------------------------------------------------

def test_named_weapons_and_profiles():
    text = ("Each time this model makes a charge move, until the end of the turn, add 1 to the "
            "Attacks characteristic of this model's reaper chain-cleaver - strike profile, and "
            "add 2 to the Attacks characteristic of this model's reaper chain-cleaver - sweep "
            "profile.")
    [p] = parts(text)
    strike, sweep = p.rule.effects
    assert strike.changes == (("attacks_mod", 1),) and sweep.changes == (("attacks_mod", 2),)
    assert names_weapon(strike.requires.weapon_names[0], "Reaper chaincleaver - strike")
    assert not names_weapon(strike.requires.weapon_names[0], "Reaper chaincleaver - sweep")
    # the strike profile (A3) gets +1, the sweep (A4) +2, a gun none: 4, 6 and 2 attacks
    strike_w = mh.Weapon("Reaper chaincleaver - strike", attacks=3, skill=3, strength=8,
                         ap=-2, damage=2, range="melee")
    sweep_w = mh.Weapon("Reaper chaincleaver - sweep", attacks=4, skill=3, strength=5, ap=-1,
                        damage=1, range="melee")
    gun = mh.Weapon("Storm bolter", attacks=2, skill=3, strength=4, ap=0, damage=1)
    for w, attacks in ((strike_w, 4), (sweep_w, 6), (gun, 2)):
        assert mh.attack(w, MEQ, apply=[p.rule], charged=True).attacks.mean() == attacks


def test_weapons_with_an_ability_and_all_other_weapons():
    [p] = parts("While the bearer is leading a unit, add 1 to the Attacks characteristic of "
                "Torrent weapons equipped by models in that unit, and all other ranged weapons "
                "equipped by models that unit have the [SUSTAINED HITS 1] ability.")
    torrent, others = p.rule.effects
    assert torrent.requires.weapon_abilities == ("torrent",)
    assert others.requires.without_abilities == ("torrent",)
    flamer = mh.Weapon("Flamer", attacks="D6", skill=None, strength=4, ap=0, damage=1,
                       abilities=["torrent"], range=12)
    rifle = mh.Weapon("Rifle", attacks=2, skill=3, strength=4, ap=0, damage=1)
    # D6 + 1 attacks: 3.5 + 1 = 9/2; the rifle keeps 2 attacks and gains Sustained Hits 1:
    # hits 2 x (2/3 + 1/6) = 5/3
    assert mh.attack(flamer, MEQ, apply=[p.rule]).attacks.mean() == F(9, 2)
    assert mh.attack(rifle, MEQ, apply=[p.rule]).hits.mean() == F(5, 3)


def test_a_count_is_a_switch_per_step():
    ps = parts("Each time this model fights, add 1 to the Attacks characteristic of this "
               "model's Blood Reaver for every 5 enemy models within 6\" of this model.")
    assert [(p.rule.name, p.switch, p.rule.describe()) for p in ps] == [
        ("Ability (x1)", True, "if melee attacks, with blood reaver: attacks_mod=+1"),
        ("Ability (x2)", True, "if melee attacks, with blood reaver: attacks_mod=+2"),
        ("Ability (x3)", True, "if melee attacks, with blood reaver: attacks_mod=+3")]
    assert "2 times: 10-14 enemy models" in ps[1].rule.assumes


# -- every clause said ---------------------------------------------------------------------

def test_two_conditions_are_two_parts():
    # +1 to Hit always, +1 to Wound only against a unit below half strength (checked)
    assert reading("Each time a model in this unit makes an attack, add 1 to the Hit roll, and "
                   "add 1 to the Wound roll as well if the target is Below Half-strength.") == [
        (Scope.UNIT, "attacker", True,
         "hit_mod=+1; if target below half strength: wound_mod=+1")]


def test_an_improved_save_against_psychic_attacks_is_kept():
    [p] = parts("This model has a 5+ invulnerable save. This invulnerable save is improved to "
                "4+ against Psychic Attacks.")
    assert p.automatic and p.rule.describe() == "invuln=5; if weapons with psychic: invuln=4"


def test_strength_above_toughness_is_the_condition():
    [p] = parts("Each time an attack targets this unit, if the Strength characteristic of that "
                "attack is greater than the Toughness characteristic of this unit, subtract 1 "
                "from the Wound roll.")
    assert p.automatic and p.rule.describe() == "wound_mod_if_stronger=-1"


def test_a_clause_not_modelled_is_quoted_and_the_rest_applied():
    ps = parts("If you do, until the end of the phase, double the Strength characteristic of "
               "this model's melee weapons and those weapons have the [DEVASTATING WOUNDS] "
               "ability.")
    assert [p.rule.describe() for p in ps] == [
        "if melee attacks: abilities=[devastating wounds]",
        "not modelled: doubles or halves a characteristic (\"If you do, until the end of the "
        "phase, double the Strength characteristic of this model's melee weapons and those "
        "weapons have the [DEVASTATING WOUNDS] ability\")"]


@pytest.mark.parametrize(("text", "described"), [
    ("Each time a model in this unit makes an attack, subtract 1 form the Hit roll.",
     "hit_mod=-1"),
    ("Each time a model in this unit makes an attack, you can re roll the Wound roll.",
     "reroll_wounds=failed"),
    ("Each time a model in this unit makes an attack that targets a MONSTERor VEHICLEunit, add 1 "
     "to the Wound roll.", "if target MONSTER or VEHICLE: wound_mod=+1"),
])
def test_the_datas_typos_are_read(text, described):
    [p] = parts(text)
    assert p.automatic and p.rule.describe() == described


def test_cannot_have_the_benefit_of_cover_is_ignores_cover_for_the_attackers():
    [p] = parts("In your Shooting phase, after this model has shot, select one enemy unit hit "
                "by one or more of those attacks. Until the end of the phase, that enemy unit "
                "cannot have the Benefit of Cover.")
    # for the units shooting after it (audit 4242, 10e-012/017)
    assert (p.scope, p.rule.side, p.switch, p.rule.describe()) == (
        Scope.OTHERS, "attacker", True, "if ranged attacks: abilities=[ignores cover]")


def test_overwatch_on_4_instead_is_a_switch_of_its_own():
    assert reading("Each time you target this unit with the Fire Overwatch Stratagem, while "
                   "resolving that Stratagem, hits are scored on unmodified Hit rolls of 5+, or "
                   "unmodified Hit rolls of 4+ instead if this unit is within range of an "
                   "objective marker that you control.") == [
        (Scope.UNIT, "attacker", True, "overwatch_hits_on=5"),
        (Scope.UNIT, "attacker", False, "overwatch_hits_on=4")]


# -- what the engine can check --------------------------------------------------------------

def test_a_target_model_keyword_is_checked():
    [p] = parts("Each time a ranged attack made by a model in this unit targets a "
                "MONSTER or VEHICLE model, you can re-roll the Hit roll, you can re-roll "
                "the Wound roll and you can re-roll the Damage roll.")
    assert p.automatic and p.rule.describe() == (
        "if ranged attacks, target MONSTER or VEHICLE: reroll_damage=any, reroll_hits=failed, "
        "reroll_wounds=failed")


def test_a_targets_excluded_keywords_are_checked():
    [p] = parts("Each time a model in this unit makes a melee attack that targets a unit "
                "(excluding MONSTERS and VEHICLES), add 1 to the Hit roll.")
    assert p.automatic and p.rule.describe() == (
        "if melee attacks, target not MONSTER or VEHICLE: hit_mod=+1")


def test_an_unconditional_enhancement_is_automatic():
    [p] = parts("Add 1 to the Attacks and Damage characteristics of melee weapons (excluding "
                "Extra Attacks weapons) equipped by the bearer.")
    assert p.automatic and p.rule.describe() == (
        "if melee attacks, weapons without extra attacks: attacks_mod=+1, damage_mod=+1")


# -- a small catalogue: rules for other units offered to them, refused on the bearer ---------

TANK = (("M", '10"'), ("T", "10"), ("SV", "3+"), ("W", "12"), ("LD", "7+"), ("OC", "3"))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    units = [
        unit("u1", "Transport", 1, ["Vehicle", "Transport"], [("Fire Focus", FIRE_FOCUS)],
             weapon("w1", "Twin gun", "4", "3+", "4", "0", "1"), STATS),
        unit("u2", "Squad", 5, ["Infantry"], [],
             weapon("w2", "Bolt rifle", "2", "3+", "4", "-1", "1"), STATS),
        unit("u3", "Seer", 1, ["Infantry", "Character", "Psyker"],
             [("Misfortune", MISFORTUNE)], weapon("w3", "Staff", "2", "3+", "4", "0", "1"),
             STATS),
        unit("u4", "Killers", 3, ["Infantry"], [
            ("Total Obliteration", "Each time a ranged attack made by a model in this unit "
             "targets a MONSTER or VEHICLE model, you can re-roll the Hit roll and you can "
             "re-roll the Wound roll."),
            ("Hunters", "Each time a model in this unit makes an attack that targets a unit "
             "within range of an objective marker, re-roll a Hit roll of 1.")],
            weapon("w4", "Rifle", "2", "3+", "8", "-2", "1"), STATS),
        unit("u5", "Tank", 1, ["Vehicle"], [], weapon("w5", "Cannon", "1", "4+", "9", "-2", "3"),
             TANK),
        unit("u6", "Warlock", 1, ["Infantry", "Character"], [
            ("Leader", "This model can be attached to the following unit:\n- Squad"),
            ("Rune Armour", "A Warlock has a 4+ invulnerable save.")],
            weapon("w6", "Pistol", "1", "3+", "4", "0", "1"), STATS),
        unit("u7", "Champion", 1, ["Infantry", "Character"], [],
             weapon("w7", "Axe", "3", "3+", "5", "-1", "1", melee=True), STATS),
    ]
    cat = {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1",
           "sharedSelectionEntries": units,
           "sharedProfiles": [ability("e1", "Glaive", "Add 1 to the Attacks and Damage "
                                      "characteristics of melee weapons (excluding Extra "
                                      "Attacks weapons) equipped by the bearer.")],
           "entryLinks": [{"id": f"e{u['id']}", "name": u["name"], "targetId": u["id"],
                           "type": "selectionEntry"} for u in units]}
    return write_folder(tmp_path_factory.mktemp("cat"), cat)


def test_a_rule_for_other_units_is_refused_on_its_bearer(cli, folder):
    # the Transport's own attacks are not changed: 4 shots hit 2/3, wound 1/2, a 3+ save at
    # AP0 fails 1/3: 4 x 2/3 x 1/2 x 1/3 = 4/9 unsaved
    data = cli.json("kills", f"{folder}:Transport", "MEQ", "--json")
    assert data["mean"]["unsaved"] == "4/9" and data["unit_rules"] == []
    r = cli("kills", f"{folder}:Transport", "MEQ", "--rule", "Fire Focus")
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1
    assert "Fire Focus is Transport's rule for a friendly model that disembarked from this " \
        "TRANSPORT this turn, not for Transport itself" in r.stderr


def test_a_rule_for_other_units_is_offered_to_them_named_as_its_bearers(cli, folder):
    # 10 bolt rifle shots: hit 2/3, wound 1/2; AP-1 makes the 3+ save 4+ (fails 1/2):
    # 10 x 2/3 x 1/2 x 1/2 = 5/3; Fire Focus improves AP by 1: 5+ fails 2/3: 20/9
    assert cli.json("kills", f"{folder}:Squad", "MEQ", "--json")["mean"]["unsaved"] == "5/3"
    data = cli.json("kills", f"{folder}:Squad", "MEQ", "--rule", "Fire Focus", "--json")
    assert data["mean"]["unsaved"] == "20/9"
    assert data["unit_rules"] == ["Fire Focus (Transport's)"]


def test_a_debuff_changes_the_enemys_attacks_not_the_bearers(cli, folder):
    # the Seer's own 2 shots: hit 2/3, wound 1/2: 2/3 wounds, with or without Misfortune
    assert cli.json("kills", f"{folder}:Seer", "MEQ", "--json")["mean"]["wounds"] == "2/3"
    r = cli("kills", f"{folder}:Seer", "MEQ", "--rule", "Misfortune")
    assert r.exit_code == 2 and "debuff on an enemy unit's attacks" in r.stderr
    # the Squad attacking the Seer: 10 shots hit 2/3, wound 1/2 (10/3 wounds); Misfortune
    # subtracts 1 from the Wound roll: 5+ wounds 1/3: 10 x 2/3 x 1/3 = 20/9
    data = cli.json("kills", f"{folder}:Squad", f"{folder}:Seer", "--json")
    assert data["mean"]["wounds"] == "10/3"
    data = cli.json("kills", f"{folder}:Squad", f"{folder}:Seer", "--rule", "Misfortune", "--json")
    assert data["mean"]["wounds"] == "20/9" and data["unit_rules"] == ["Misfortune"]


def test_a_target_keyword_condition_is_automatic(cli, folder):
    # 6 rifle shots at the Tank (a VEHICLE): hit 2/3 re-rolled: 2/3 + 1/3 x 2/3 = 8/9; S8 v T10
    # wounds on 5+ (1/3) re-rolled: 1/3 + 2/3 x 1/3 = 5/9; the 3+ save at AP-2 fails 2/3:
    # 6 x 8/9 x 5/9 x 2/3 = 160/81
    data = cli.json("kills", f"{folder}:Killers", f"{folder}:Tank", "--json")
    assert data["mean"]["unsaved"] == "160/81"
    assert data["unit_rules"] == ["Total Obliteration"]
    # against MEQ (no VEHICLE) no re-roll: 6 x 2/3 x 5/6 (S8 v T4) x 2/3 = 20/9
    assert cli.json("kills", f"{folder}:Killers", "MEQ", "--json")["mean"]["unsaved"] == "20/9"


def test_the_report_lists_the_switches_available_and_off(cli, folder):
    # its own switch, then the stratagems it can use (11e, with the 40kdc data)
    data = cli.json("kills", f"{folder}:Killers", "MEQ", "--json")
    assert data["switches_off"][0] == "Hunters"
    r = cli("kills", f"{folder}:Killers", "MEQ")
    assert "switches:    off: Hunters" in r.stdout and "(--rule NAME)" in r.stdout
    on = cli.json("kills", f"{folder}:Killers", "MEQ", "--rule", "Hunters", "--json")
    assert "Hunters" not in on["switches_off"] and "Hunters" in on["unit_rules"]


def test_a_models_own_save_stays_on_its_group(folder):
    found = target_rules(f"{folder}:Squad + {folder}:Warlock")
    [rune] = [r for r in found.applied if r.name == "Rune Armour"]
    assert rune.requires.groups == ("Warlock",)
    gun = mh.Weapon("Gun", attacks=6, skill=3, strength=4, ap=-3, damage=1)
    # AP-3 makes the 3+ save 6+: the Squad's models fail 5/6, the Warlock's 4++ fails 1/2:
    # 6 x 2/3 x 1/2 x 5/6 = 5/3 unsaved against the Squad, 6 x 2/3 x 1/2 x 1/2 = 1 against it
    squad = mh.Target(models=5, toughness=4, save=3, wounds=2, name="Squad")
    warlock = mh.Target(models=1, toughness=4, save=3, wounds=2, name="Warlock")
    assert mh.attack(gun, squad, apply=[rune]).unsaved.mean() == F(5, 3)
    assert mh.attack(gun, warlock, apply=[rune]).unsaved.mean() == 1


def test_an_unconditional_enhancement_is_applied_when_named(cli, folder):
    # the Axe: 3 attacks hit 2/3, S5 v T4 wounds 3+ (2/3), AP-1 makes the save 4+ (fails 1/2),
    # D1: 3 x 2/3 x 2/3 x 1/2 = 2/3 damage; with the Glaive 4 attacks at D2: 16/9
    plain = cli.json("kills", f"{folder}:Champion", "MEQ", "--melee", "--json")
    assert plain["mean"]["damage"] == "2/3"
    data = cli.json("kills", f"{folder}:Champion", "MEQ", "--melee", "--enhancement", "Glaive",
                    "--json")
    assert data["mean"]["damage"] == "16/9" and data["unit_rules"] == ["Glaive"]


def test_rules_for_lists_the_rules_for_other_units(cli, folder):
    r = cli("rules", "--for", f"{folder}:Transport")
    assert r.exit_code == 0, r.output
    assert ("for other units (--rule NAME on a unit it names):\n  Fire Focus: for a friendly "
            "model that disembarked from this TRANSPORT this turn (attacking): "
            "ap_mod=+1") in r.stdout
    given = cli("rules", "--for", f"{folder}:Squad").stdout
    assert "rules other units of its army give it (--rule NAME): Fire Focus (Transport's)" \
        in " ".join(given.split())


# -- the shared data (the examples) -----------------------------------------------

def _shared(edition):
    if not (SHARED / edition).is_dir():
        pytest.skip("shared BattleScribe data not found")
    return str(SHARED / edition)


@pytest.mark.slow
def test_fire_focus_of_the_grey_knights_razorback(cli):
    data = _shared("10e")
    # the Razorback's own kills stay as without the rule (1.111); asked of it, it is refused
    own = cli.json("kills", "Grey Knights:Razorback", "MEQ", "--data", data, "--json")
    assert own["mean"]["kills"] == "15942718/14348907"
    r = cli("kills", "Grey Knights:Razorback", "MEQ", "--rule", "Fire Focus",
                "--data", data)
    assert r.exit_code == 2 and "Razorback's rule for a friendly model" in r.stderr
    # a Strike Squad that disembarked from it takes it: 0.326 -> 0.588 kills
    plain = cli.json("kills", "Strike Squad", "MEQ", "--data", data, "--json")
    taken = cli.json("kills", "Strike Squad", "MEQ", "--rule", "Fire Focus", "--data", data,
                     "--json")
    assert (plain["mean"]["kills"], taken["mean"]["kills"]) == (
        "1136025157/3486784401", "138805/236196")
    assert taken["unit_rules"] == ["Fire Focus (Razorback's)"]


@pytest.mark.slow
def test_misfortune_no_longer_lowers_the_farseers_own_wounds(cli):
    data = _shared("10e")
    # 3.000 wounds (2.241 when Misfortune was read as its own penalty)
    got = cli.json("kills", "Farseer Skyrunner", "MEQ", "--data", data, "--json")
    assert got["mean"]["wounds"] == "3/1" and got["unit_rules"] == []


@pytest.mark.slow
def test_eradicators_against_a_leman_russ_re_roll_automatically(cli):
    data = _shared("10e")
    got = cli.json("kills", "Eradicator Squad", "Leman Russ Battle Tank", "--half-range",
                "--data", data, "--json")
    assert got["unit_rules"] == ["Total Obliteration"]
    # P(destroyed) at half range 2.9% -> 14.6% (Hit and Wound rolls re-rolled) -> 22.9% (the
    # Damage roll re-rolled too, since the re-rolled Damage is modelled)
    assert got["destroyed"] == "265841875/1162261467"


@pytest.mark.slow
def test_templar_vows_only_in_a_black_templars_army(cli):
    data = _shared("10e")
    for spec, has in (("Space Wolves:Intercessor Squad", False),
                      ("Space Marines:Intercessor Squad", False),
                      ("Black Templars:Intercessor Squad", True)):
        r = cli("rules", "--for", spec, "--data", data)
        assert r.exit_code == 0, r.output
        assert ("Templar Vows" in r.stdout) is has, spec


# -- a rule of some of a unit's models (a wargear's "the bearer") ------------------------------

def _pack(uid):
    """Five Wulfen-like models, one of them with a Death Totem (its own model entry), each
    with a claw (A3 WS3+ S5 AP-1 D1)."""
    claw = weapon(f"{uid}c", "Claws", "3", "3+", "5", "-1", "1", melee=True)
    return datasheet(uid, "Pack", entries=[
        model(f"{uid}m1", "Wolf", STATS, [claw], lo=4, hi=4, profile="Wulfen"),
        model(f"{uid}m2", "Wolf w/Death Totem", STATS, [claw], lo=1, hi=1, profile="Wulfen",
              abilities=[("Death Totem", "Each time the bearer makes a melee attack, re-roll a "
                          "Hit roll of 1.")])])


@pytest.fixture(scope="module")
def pack(tmp_path_factory):
    u = _pack("p1")
    cat = {"id": "c2", "name": "Test - Testers", "gameSystemId": "gs1",
           "sharedSelectionEntries": [u],
           "entryLinks": [{"id": "ep1", "name": "Pack", "targetId": "p1",
                           "type": "selectionEntry"}]}
    return write_folder(tmp_path_factory.mktemp("pack"), cat)


def test_a_wargear_bearers_rule_reaches_only_the_model_that_carries_it(cli, pack):
    from mathhammer.data.rules.unit_rules import unit_rules
    from mathhammer.data.typed.lookup import find_unit

    unit = find_unit(f"{pack}:Pack")
    [totem] = [p for p in unit_rules(unit, str(pack.parent)) if p.rule.name == "Death Totem"]
    groups = [g.name for g in unit.groups]
    if any("death totem" in g.lower() for g in groups):  # its own group: its claws only
        assert totem.rule.usable and totem.rule.requires.weapons
        return
    # one group of five: the claws are one row, so the one model's re-roll is not applied to
    # the five, and is said: 15 attacks hit 2/3 (10), as without the Death Totem
    assert totem.rule.not_modelled.startswith("for the Wolf w/Death Totem only")
    data = cli.json("kills", f"{pack}:Pack", "MEQ", "--melee", "--json")
    assert data["mean"]["hits"] == "10" or data["mean"]["hits"] == "10/1"
    assert [r["name"] for r in data["not_modelled"]] == ["Death Totem"]


# -- an effect that lasts past the phase its setup names (audit 4242: 10e-001, 10e-026) --------

def test_an_effect_lasting_past_its_phase_is_not_limited_to_that_phases_attacks():
    """ "In your Shooting phase, after this unit has shot, ... Until the start of your next
    turn, ... that enemy unit is suppressed": the suppressed unit's melee attacks take the -1
    too (its Fight phase comes before your next turn); the phase limits them only when the
    effect ends with it."""
    lasting = ("In your Shooting phase, after this unit has shot, select one enemy unit hit by "
               "one or more of those attacks. Until the start of your next turn, that enemy "
               "unit is suppressed. While a unit is suppressed, each time a model in that unit "
               "makes an attack, subtract 1 from the Hit roll.")
    [p] = parts(lasting)
    assert (p.scope, p.rule.side, p.rule.describe()) == (Scope.ENEMY, "defender", "hit_mod=-1")
    # the enemy's melee attack on the bearer: 6 attacks, WS 3+ -1 -> 4+ = 1/2, S4 v T4 1/2,
    # Sv4+ fails 1/2: 6 x 1/2 x 1/2 x 1/2 = 3/4 (ranged only, the melee attack kept 3+: 1)
    from mathhammer.data.typed.inline import parse_squad, parse_weapon

    r = mh.attack([parse_weapon("Axe | melee | 6 | 3+ | 4 | 0 | 1")],
                  parse_squad("5x T4 Sv4+ W1"), apply=[p.rule], rules="10e")
    assert r.unsaved.mean() == F(3, 4)
    # ended with the phase, the Shooting phase's attacks only
    [q] = parts(lasting.replace("Until the start of your next turn", "Until the end of the "
                                "phase"))
    assert q.rule.describe() == "if ranged attacks: hit_mod=-1"


def test_attacks_made_by_keyword_models_on_an_enemy_unit_keep_the_keywords():
    """Virulent Blessing (audit 3030, 11e-004): "each time an attack made by a PLAGUE LEGIONS
    model is allocated to a model in that [enemy] unit" is for friendly PLAGUE LEGIONS units,
    not any friendly unit."""
    [p] = parts("At the start of the Fight phase, you can select one enemy unit within 24\" of "
                "and visible to this model. Until the end of the phase, each time an attack made "
                "by a ^^**Plague Legions^^** model is allocated to a model in that unit, add 1 to "
                "the Damage characteristic of that attack.")
    assert (p.scope, p.keywords, p.rule.side) == (Scope.FRIENDLY, ("PLAGUE LEGIONS",), "attacker")
    assert not qualifies(p, frozenset({"CHAOS", "NURGLE", "INFANTRY"}))
    assert qualifies(p, frozenset({"CHAOS", "PLAGUE LEGIONS"}))


def test_a_keyword_opened_with_one_caret_is_still_a_keyword():
    """Deadly Unity (audit 3030, 11e-022): the data's "^Anathema Psykana^^" is the keyword, so
    the +1 to Hit is for the ANATHEMA PSYKANA units near the bearer, not any friendly unit."""
    [p] = parts("While an **^Anathema Psykana^^** unit is within 6\" of this unit, each time a "
                "model in that ^^**Anathema Psykana^^** unit makes an attack, add 1 to the Hit "
                "roll.")
    assert (p.scope, p.keywords) == (Scope.FRIENDLY, ("ANATHEMA PSYKANA",))


def test_numbered_options_with_a_label_in_brackets_are_read_apart():
    """Harbingers of Dread (audit 3030, 10e-023): "3 - Darkness ... subtract 1 from the Hit
    roll. 4 - Dismay (Aura) In the Battle-shock step ..., for each enemy unit ...": the next
    option's "for each enemy unit" is not a count of Darkness's -1 (no x1-x3 switches)."""
    text = ("3 - Darkness Each time an attack is made against this model, if the attacking "
            "model's unit is Battle-shocked, subtract 1 from the Hit roll. 4 - Dismay (Aura) In "
            "the Battle-shock step of your opponent's Command phase, for each enemy unit that is "
            "below its Starting Strength and within 9\" of this model, that enemy unit must take "
            "a Battle-shock test.")
    assert [(p.rule.side, p.rule.describe()) for p in parts(text) if p.rule.usable] == [
        ("defender", "hit_mod=-1")]


def test_after_this_unit_has_shot_the_effect_is_for_the_later_shooters():
    """Target Acquisition, Auspex Surveyor, Survey Augur (audit 4242: 10e-012, 10e-017,
    11e-030): "after this unit has shot, select one enemy unit hit ... Until the end of the
    phase, that enemy unit cannot have the Benefit of Cover": the bearer's attacks are made;
    the rule is for the other units that shoot after it, never the bearer's own."""
    [p] = parts("In your Shooting phase, after this unit has shot, select one enemy unit hit by "
                "one or more of those attacks. Until the end of the phase, that enemy unit "
                "cannot have the Benefit of Cover.")
    assert (p.scope, p.rule.side) == (Scope.OTHERS, "attacker")
    # the bearer's own ranged attack on MEQ in cover: 6 x hit 2/3 x wound 1/2 x Sv3+ AP-1 in
    # cover (3+) fails 1/3 = 2/3: the rule is not among its own (ignoring cover, 4+ fails 1/2: 1)
    from mathhammer.data.rules.unit_rules import side_rules
    from mathhammer.data.typed.inline import parse_weapon

    own = side_rules([p], "attacker")
    r = mh.attack([parse_weapon("6 | 3+ | 4 | -1 | 1")], mh.load_unit("MEQ").as_target(),
                  apply=list(own.applied) + list(own.switches), rules="10e", cover=True)
    assert r.unsaved.mean() == F(2, 3)


# -- a Fortification's rule for the models on it (rules8b) -----------------------------------

SKYSHIELD = ("Friendly Infantry models and friendly units that can Fly can be set up or end any "
             "type of move on top of the platform section of this Fortification. While such a "
             "model is on the platform section of this Fortification, that model has a 5+ "
             "invulnerable save against ranged attacks")


@pytest.mark.parametrize(("text", "side", "keywords", "described"), [
    # Skyshield (audit 5151, 10e-002): "such a model" is each friendly unit named before
    (SKYSHIELD, "defender", ("INFANTRY", "FLY"), "if ranged attacks: invuln=5"),
    # Defence Line (audit 5151, 11e-010): the INFANTRY in its cover
    ("When this FORTIFICATION is set up, all parts of it must be set up within 1\" of another "
     "part. While an INFANTRY model has the Benefit of Cover as a result of this FORTIFICATION "
     "(see below), that model has a 4+ invulnerable save.", "defender", ("INFANTRY",),
     "cover; invuln=4"),
    ("While an **^^Astra Militarum Infantry^^** model has the Benefit of Cover as a result of "
     "this terrain feature, that model has a 4+ invulnerable save", "defender",
     ("ASTRA MILITARUM INFANTRY",), "cover; invuln=4"),
    # Vantage Point: any model on its roof
    ("While a model is on top of the tower roof of this FORTIFICATION, improve the Armour "
     "Penetration characteristic of ranged weapons equipped by that model by 1.", "attacker",
     (), "if ranged attacks: ap_mod=+1"),
    ("One friendly **^^Monolith, Obelisk, Tesseract Vault**^^ or **^^Sentry Pylon**^^ model can "
     "start the battle on top of this Fortification's ziggurat platform. While such a model is "
     "on this platform, that model's ranged weapons have the [HEAVY] ability.", "attacker",
     ("MONOLITH", "OBELISK", "TESSERACT VAULT", "SENTRY PYLON"),
     "if ranged attacks: abilities=[heavy]"),
])
def test_a_fortifications_rule_for_the_models_on_it_is_for_other_units(text, side, keywords,
                                                                      described):
    """A Fortification's benefit for the models on it (or in its cover) is for other friendly
    units of the keywords the text names, a switch (where they stand is the player's); the
    Fortification itself never has it."""
    [p] = parts(text)
    assert (p.scope, p.rule.side, p.switch, p.keywords, p.rule.describe()) == (
        Scope.OTHERS, side, True, keywords, described)


def test_skyshield_is_offered_to_infantry_on_the_platform_not_kept_by_the_fortification():
    from mathhammer.data.rules.unit_rules import side_rules
    from mathhammer.data.typed.inline import parse_weapon

    [p] = parts(SKYSHIELD, "Skyshield")
    assert qualifies(p, frozenset({"AELDARI", "INFANTRY"})) and qualifies(p, frozenset({"FLY"}))
    assert not qualifies(p, frozenset({"FORTIFICATION", "VEHICLE"}))
    own = side_rules([p], "defender")
    assert not own.applied and not own.switches  # refused on its bearer
    # on an INFANTRY unit on the platform: 6 shots hit 2/3, wound 1/2, AP-3 v Sv3+ is 6+, the
    # 5+ invulnerable fails 2/3: 6 x 2/3 x 1/2 x 2/3 = 4/3 (without it 5/6 fail: 5/3)
    gun = [parse_weapon("Gun | 24 | 6 | 3+ | 4 | -3 | 1")]
    assert mh.attack(gun, MEQ, apply=[p.rule], rules="10e").unsaved.mean() == F(4, 3)
    assert mh.attack(gun, MEQ, rules="10e").unsaved.mean() == F(5, 3)


def test_other_units_than_one_selected_before_include_the_bearer():
    """Deadly Crossfire (audits 2468 11e-040, 5151 11e-038): "select a CROSSFIRE unit to shoot,
    ... select up to two other CROSSFIRE units ... each time one of those selected CROSSFIRE
    units makes a ranged attack": other than the first one selected, so every CROSSFIRE unit
    (the bearer's own when it is one), not other than the bearer."""
    text = ("In your Shooting phase, each time you select a **^^Crossfire^^** unit to shoot, you "
            "can select up to two other **^^Crossfire^^** units from your Crusade army that are "
            "eligible to shoot to perform a Deadly Crossfire, Then, you can select one enemy unit "
            "that would be an eligible target. Each time one of those selected **^^Crossfire^^** "
            "units makes a ranged attack, add 1 to the Hit roll.")
    [p] = parts(text)
    assert (p.scope, p.keywords, p.switch, p.rule.describe()) == (
        Scope.FRIENDLY, ("CROSSFIRE",), True, "if ranged attacks: hit_mod=+1")
    assert qualifies(p, frozenset({"GENESTEALER CULTS", "CROSSFIRE"}))
    # "select one other friendly X unit" with no X selected before is still other than the bearer
    [q] = parts("In your Command phase, select one other friendly CROSSFIRE unit within 6\" of "
                "this model. Until the start of your next Command phase, each time a model in "
                "that unit makes an attack, add 1 to the Hit roll.")
    assert (q.scope, q.keywords) == (Scope.OTHERS, ("CROSSFIRE",))


# -- a model's rule stays the model's (rules8b) ------------------------------------------------

@pytest.mark.parametrize(("text", "side", "described"), [
    # Divine Deliverance (audit 2468, 11e-004): "melee weapons equipped by the model and those
    # weapons have ...": the model's, not the unit it leads
    ("Once per battle, at the start of the Fight phase, this model can use this ability. If it "
     "does, until the end of the phase, add 3 to the Attacks characteristic of melee weapons "
     "equipped by the model and those weapons have the [DEVASTATING WOUNDS] ability",
     "attacker", "if melee attacks: attacks_mod=+3, abilities=[devastating wounds]"),
    # "it" / "its" in a later sentence: the model named before
    ("Each time this model is selected to shoot, it can use this ability. If it does, until the "
     "end of the phase, its ranged weapons have the [DEVASTATING WOUNDS] and [HAZARDOUS] "
     "abilities.", "attacker", "if ranged attacks: abilities=[devastating wounds, hazardous]"),
    ("Once per turn when an attack is allocated to the bearer, it can use this Crusade Relic. If "
     "it does, it has the Feel No Pain 4+ ability against that attack.", "defender", "fnp=4"),
    # the chosen ability is the model's weapon's: "this model's Black Sword has that ability"
    ("Each time this model's unit is selected to fight, select the [LETHAL HITS] or [SUSTAINED "
     "HITS 1] ability. Until the end of the phase, this model's Black Sword has that ability.",
     "attacker", "with black sword: if melee attacks: abilities=[lethal hits]"),
    ("At the start of the Fight phase, select one of the following abilities: - [LETHAL HITS] - "
     "[PRECISION] Until the end of the phase, this model's melee weapons have that ability.",
     "attacker", "if melee attacks: abilities=[lethal hits]"),
])
def test_a_models_own_rule_is_the_models(text, side, described):
    p = parts(text)[0]
    assert (p.scope, p.rule.side, p.switch, p.rule.describe()) == (
        Scope.MODEL, side, True, described)
    assert all(q.scope is Scope.MODEL for q in parts(text))


def test_divine_deliverance_reaches_the_canoness_blade_only_when_she_leads():
    from mathhammer.data.rules.unit_rules import side_rules
    from mathhammer.data.typed.inline import parse_squad, parse_weapon

    [p] = parts("Once per battle, at the start of the Fight phase, this model can use this "
                "ability. If it does, until the end of the phase, add 3 to the Attacks "
                "characteristic of melee weapons equipped by the model and those weapons have "
                "the [DEVASTATING WOUNDS] ability")
    own = side_rules([p], "attacker", own=("Canoness blade",), leading=True)
    blades = [parse_weapon("Canoness blade | melee | 6 | 3+ | 4 | 0 | 1"),
              parse_weapon("Seraphim blade | melee | 6 | 3+ | 4 | 0 | 1")]
    # the W60 target takes all the damage: the Canoness's 9 attacks, each hit 2/3 x (a 6 to
    # wound: 1 mortal, 1/6; 4-5: 1/3 x Sv3+ failed 1/3) = 2/3 x 5/18 = 5/27, x 9 = 5/3; the
    # Seraphim's 6: 6 x 2/3 x 1/2 x 1/3 = 2/3; together 7/3 (both blades changed: 10/3)
    r = mh.attack(blades, parse_squad("1x T4 Sv3+ W60"), apply=list(own.switches), rules="11e")
    assert r.damage.mean() == F(7, 3)


# -- a defence stays the defender's, a debuff the enemy's (rules8b) --------------------------

@pytest.mark.parametrize(("text", "scope", "side", "described"), [
    # Bastion Shield (audit 2468, 10e-031): "that attack" of the sentence before, against the
    # bearer's unit: the 1YP version hinders the enemy too, never the bearer's own attacks
    ("Each time a ranged attack targets the bearer's unit, if the attacking model is within 12\" "
     "of the bearer's unit, worsen the Armour Penetration characteristic of that attack by 1. If "
     "you spend 1YP, until the end of the phase, if the attacking model is within 18\" of the "
     "bearer's unit, worsen the Armour Penetration characteristic of that attack by 1 instead.",
     Scope.UNIT, "defender", "if ranged attacks: ap_mod=-1"),
    ("Each time a ranged attack targets this model, subtract 1 from the Hit roll. If that attack "
     "was made by a model that can Fly, subtract 1 from the Wound roll as well.", Scope.MODEL,
     "defender", "if ranged attacks: wound_mod=-1"),
    # "When an enemy model ... makes an attack": the enemy's attacks, a debuff
    ("When an enemy model within 12\" of this model makes an attack with a Psychic weapon, "
     "subtract 1 from the Wound roll.", Scope.ENEMY, "defender",
     "if weapons with psychic: wound_mod=-1"),
    # the data's "allocated the bearer"
    ("Each time an attack is allocated the bearer, subtract 1 from the Damage characteristic of "
     "that attack.", Scope.MODEL, "defender", "damage_mod=-1"),
    # "it" is the enemy unit selected before
    ("In your Shooting phase, when this unit has resolved its attacks, select one enemy unit hit "
     "by one or more of those attacks. That enemy unit is **suppressed** until the start of your "
     "next Command phase. (While a unit is **suppressed**, it has -1 to **hit rolls**.)",
     Scope.ENEMY, "defender", "hit_mod=-1"),
])
def test_a_defence_or_a_debuff_is_not_the_bearers_own_penalty(text, scope, side, described):
    p = [q for q in parts(text) if q.rule.usable][-1]
    assert (p.scope, p.rule.side, p.rule.describe()) == (scope, side, described)


def test_purge_sweep_protocols_is_the_tempestus_units_own_attack():
    """Purge-sweep Protocols (audit 8484, 10e-026): "select one enemy unit ... ranged weapons
    equipped by models in that unit have [LETHAL HITS] while targeting that enemy unit":
    "that unit" is the MILITARUM TEMPESTUS unit selected to shoot, not the enemy."""
    from mathhammer.data.rules.detachments import for_unit

    text = ("Each time a **^^Militarum Tempestus^^** unit from your army is selected to shoot, if "
            "one or more models in that unit are within 1\" of an open Hatchway and every model "
            "in that unit is on the same side of that Hatchway, select one enemy unit on the "
            "opposite side of that Hatchway from that unit. Until the end of the phase, ranged "
            "weapons equipped by models in that unit have the **[LETHAL HITS]** ability while "
            "targeting that enemy unit.")
    [p] = for_unit(translate, "Purge-sweep Protocols", text,
                   frozenset({"MILITARUM TEMPESTUS", "INFANTRY"}), "")
    assert (p.scope, p.rule.side, p.switch, p.rule.describe()) == (
        Scope.UNIT, "attacker", True, "if ranged attacks: abilities=[lethal hits]")
    [q] = parts(text)
    assert (q.scope, q.keywords, q.rule.side) == (Scope.FRIENDLY, ("MILITARUM TEMPESTUS",),
                                                  "attacker")


# -- every clause applied or said (rules8b) ----------------------------------------------------

def test_a_condition_of_two_alternatives_is_two_parts():
    """Legendary Slayers (audit 8484, 10e-027): "if that attack targets a CHARACTER, MONSTER or
    VEHICLE unit or if your Saga is completed, that attack has [LETHAL HITS]": the target's
    keywords are checked; the Saga is a switch of its own (not dropped)."""
    from mathhammer.data.rules.detachments import for_unit
    from mathhammer.data.typed.inline import parse_weapon

    text = ("Each time an ^^**Adeptus Astartes**^^ model from your army makes an attack, if that "
            "attack targets a **^^Character, Monster**^^ or **^^Vehicle**^^ unit or if your Saga "
            "is completed(see below), that attack has the [LETHAL HITS] ability.")
    one, two = for_unit(translate, "Legendary Slayers", text, frozenset({"ADEPTUS ASTARTES"}), "")
    # (the first a switch too: "if that attack targets ..." is left to the player as the
    # translator reads any "if" of that wording)
    assert one.rule.describe() == ("if target CHARACTER or MONSTER or VEHICLE: "
                                   "abilities=[lethal hits]")
    assert (two.switch, two.rule.describe()) == (True, "abilities=[lethal hits]")
    assert "Saga is completed" in two.rule.assumes
    # the Saga completed, at MEQ: per attack a 6 wounds (1/6) + hit 3-5 (1/2) x wound 1/2 =
    # 5/12, Sv3+ fails 1/3: 6 x 5/12 x 1/3 = 5/6 (the keywords' part alone: 2/3)
    gun = [parse_weapon("6 | 3+ | 4 | 0 | 1")]
    meq = mh.load_unit("MEQ").as_target()
    assert mh.attack(gun, meq, apply=[one.rule, two.rule], rules="10e").unsaved.mean() == F(5, 6)
    assert mh.attack(gun, meq, apply=[one.rule], rules="10e").unsaved.mean() == F(2, 3)


def test_alternatives_of_one_condition_do_not_add_up():
    # "if A or if B, add 1 to the Hit roll": both switched on, still +1 (not +2)
    one, two = parts("Each time a model in this unit makes an attack, if this unit is within "
                     "range of an objective marker, or if you spend 1CP, add 1 to the Hit roll.")
    assert one.rule.describe() == two.rule.describe() == "hit_mod=+1"
    assert one.switch and two.switch and not one.rule.aliases and not two.rule.aliases
    from mathhammer.data.typed.inline import parse_weapon

    # BS 4+ with +1: 3+ hits 2/3; 6 x 2/3 x 1/2 x 1/3 = 2/3 (with +2 it would be 5/6 hits: 5/6)
    r = mh.attack([parse_weapon("6 | 4+ | 4 | 0 | 1")], mh.load_unit("MEQ").as_target(),
                  apply=[one.rule, two.rule], rules="10e")
    assert r.unsaved.mean() == F(2, 3)


def test_a_rule_given_by_name_is_said_not_dropped():
    """Blood Tithe (audit 6161, 10e-027): "BLOOD LEGIONS units from your army gain the
    Blessings of Khorne ability" (whose Warp Blades give [LETHAL HITS]) is another rule, not
    read here: said not modelled with its clause, beside the options that are read; a core
    ability (Deadly Demise, Stealth) or a weapon ability given so is no such gap."""
    from mathhammer.data.rules.detachments import for_unit

    text = ("At the start of the Command phase, you can spend 1 or more of your BTP to activate "
            "one of the following abilities until the end of the battle.\n\n**Boon of Blood "
            "[4BTP]**\n^^**Blood Legions^^** units from your army have a 4+ invulnerable save.\n\n"
            "**Might of Khorne [5BTP]**\n^^**Blood Legions^^** units from your army gain the "
            "Blessings of Khorne ability.")
    got = for_unit(translate, "Blood Tithe", text, frozenset({"BLOOD LEGIONS"}), "")
    assert [p.rule.describe() for p in got if p.rule.usable] == ["invuln=4"]
    [said] = [p.rule.not_modelled for p in got if not p.rule.usable]
    assert said.startswith("gains another ability by name (Blessings of Khorne), not read here")
    assert "gain the Blessings of Khorne ability" in said
    assert all(p.rule.usable for p in parts(
        "The bearer has the Deadly Demise D3 ability. Add 1 to the Attacks characteristic of "
        "the bearer's melee weapons."))


def test_a_unit_made_guided_by_another_rule_is_said():
    """The Tidecrystal (audit 8484, 10e-052): its first option makes T'AU EMPIRE units Guided at
    a Spotted unit (For the Greater Good's +1 BS, another rule): said not modelled beside the
    second option's -1 to Wound, not silently dropped."""
    text = ("Once per battle, at the start of your Command phase, if the bearer is on the "
            "battlefield, you can do one of the following:\n■ Select one objective marker you do "
            "not control. Until the start of your next Command phase, each time a T’au Empire unit "
            "from your Crusade army makes a ranged attack that targets a unit within range of that "
            "objective marker, that T’au Empire unit is considered to be a Guided unit and that "
            "target unit is considered to be that T’au Empire unit’s Spotted unit.\n■ Select one "
            "objective marker you control. Until the start of your next Command phase, each time "
            "an enemy unit makes an attack that targets a T’au Empire unit from your Crusade army "
            "that is within range of that objective marker, subtract 1 from the Wound roll.")
    got = parts(text)
    assert [(p.rule.side, p.rule.describe()) for p in got if p.rule.usable] == [
        ("defender", "wound_mod=-1")]
    [said] = [p.rule.not_modelled for p in got if not p.rule.usable]
    assert said.startswith("makes a unit Guided or Spotted (For the Greater Good)")
    assert "each time a T'au Empire unit from your Crusade army makes a ranged attack" in said


FORWARD_OBSERVERS = ("Each time this unit is an Observer unit, until the end of the phase, "
                     "each time a model in its Guided unit makes an attack that targets their "
                     "Spotted unit, you can re-roll the Hit roll.")
UNITY = ("**^^T’au Empire^^** model only (excluding **^^Kroot Shaper^^** models). While this "
         "model is leading a unit, each time that unit is an Observer unit, until the end of the "
         "phase, ranged weapons equipped by models in a Guided unit have the **[LETHAL HITS]** "
         "ability while targeting their Spotted unit.")


def test_a_guided_unit_s_benefit_is_not_its_observer_s():
    """Through Unity, Devastation (audits 8181 and 9191, 10e-016 and 10e-014), Forward Observers:
    the bearer (or the unit it leads) is the Observer unit, and "models in a Guided unit" are
    another unit's (Observer units are never Guided): a switch for other friendly units, offered
    to the Guided unit by name, never the Observer's own."""
    from mathhammer.data.rules.unit_rules import Offer, side_rules

    gun = mh.Weapon("Gun", attacks=6, skill=4, strength=4, ap=0, damage=1)
    [fo] = parts(FORWARD_OBSERVERS, "Forward Observers")
    assert (fo.scope, fo.switch, fo.rule.describe()) == (Scope.OTHERS, True, "reroll_hits=failed")
    assert "Guided unit" in fo.whom
    ur = side_rules([fo], "attacker")
    assert ur.applied == () and ur.switches == () and len(ur.elsewhere) == 1
    # offered to the Guided unit and switched on there: BS4+ hits 1/2, a failed Hit re-rolled
    # 1/2 + 1/2 x 1/2 = 3/4: 6 x 3/4 = 9/2 hits (3 without)
    offer = Offer("attacker", frozenset({"T'AU EMPIRE", "BATTLESUIT"}), "Crisis Suits",
                  lambda: [("Pathfinder Team", fo)])
    assert offer.names() == ("Forward Observers (Pathfinder Team's)",)
    rule = offer.find("Forward Observers")
    assert rule is not None and "Guided unit" in rule.assumes
    assert mh.attack(gun, MEQ, apply=[rule]).hits.mean() == F(9, 2)
    assert mh.attack(gun, MEQ).hits.mean() == 3
    # the enhancement: the led unit is the Observer; leading, its own attacks change nothing
    [unity] = translate("Through Unity, Devastation", UNITY, kind="enhancement")
    assert (unity.scope, unity.rule.describe()) == (
        Scope.OTHERS, "if ranged attacks: abilities=[lethal hits]")
    led = side_rules([unity], "attacker", leading=True)
    assert led.applied == () and led.switches == ()
    # the Guided unit's lethal hits, against MEQ with a BS3+ gun: 6 x (1/6 + 1/2 x 1/2) x 1/3
    # = 5/6 unsaved (6 x 2/3 x 1/2 x 1/3 = 2/3 without)
    bs3 = mh.Weapon("Gun", attacks=6, skill=3, strength=4, ap=0, damage=1)
    assert mh.attack(bs3, MEQ, apply=[unity.rule]).unsaved.mean() == F(5, 6)
    assert mh.attack(bs3, MEQ).unsaved.mean() == F(2, 3)
    # the Guided unit's own rule, and For the Greater Good's (any unit that may be Guided),
    # are still the bearer's: no Observer is named
    [own] = parts("While this model is a Guided unit, each time it makes an attack that "
                  "targets its Spotted unit, re-roll a Hit roll of 1.")
    assert own.scope is Scope.MODEL
    [good] = parts("Until the end of the phase, each time a model from your army in a Guided "
                   "unit makes an attack that targets a Spotted unit, improve the Ballistic "
                   "Skill characteristic of that attack by 1.")
    assert (good.scope, good.keywords) == (Scope.FRIENDLY, ())


INFERNAL_PACTS = ("^^**Scintillating Legions^^** units from your army have the following "
                  "ability:\n\n**Daemonic Illusions (Aura)**: While a friendly ^^**Thousand Sons "
                  "Psyker^^** unit is within 6\" of and visible to this unit, models in that unit "
                  "have a 4+ invulnerable save against ranged attacks.")


def test_a_detachment_s_aura_reaches_the_bearer_only_when_it_has_the_keywords():
    """Infernal Pacts (audit 8181, 10e-011): SCINTILLATING LEGIONS units have an aura for a
    friendly THOUSAND SONS PSYKER unit: read for a unit (``for_unit``) the aura stays a rule
    for friendly THOUSAND SONS PSYKER units, whatever keywords the unit reading it has; its
    own only when it has them (``resolve``), never a SCINTILLATING LEGIONS daemon's."""
    from types import SimpleNamespace

    from mathhammer.data.rules.detachments import for_unit
    from mathhammer.data.rules.unit_rules import resolve, side_rules

    gun = mh.Weapon("Gun", attacks=6, skill=3, strength=4, ap=-3, damage=1)

    def defending(keywords):
        kws = frozenset(keywords)
        got = for_unit(translate, "Infernal Pacts", INFERNAL_PACTS, kws, "",
                       kind="detachment rule")
        unit = SimpleNamespace(keywords=tuple(kws), groups=())
        return got, side_rules(resolve(got, unit), "defender").switches

    daemon = {"SCINTILLATING LEGIONS", "DAEMON", "INFANTRY"}
    [p], switches = defending(daemon)
    assert (p.scope, p.keywords) == (Scope.FRIENDLY, ("THOUSAND SONS PSYKER",))
    assert switches == ()
    # read for a unit of both keywords the part is the same (it was the bearer's own, scope
    # unit, before: any unit reading it so had the 4+)
    [both], mine = defending(daemon | {"THOUSAND SONS", "PSYKER", "THOUSAND SONS PSYKER"})
    assert (both.scope, both.keywords) == (Scope.FRIENDLY, ("THOUSAND SONS PSYKER",))
    # its own then: Sv3+ at AP-3 is 6+ (fails 5/6), the 4+ invulnerable fails 1/2:
    # 6 x 2/3 x 1/2 x 1/2 = 1 unsaved (6 x 2/3 x 1/2 x 5/6 = 5/3 without)
    [rule] = mine
    assert mh.attack(gun, MEQ, apply=[rule]).unsaved.mean() == 1
    assert mh.attack(gun, MEQ).unsaved.mean() == F(5, 3)
    # the bearer's own TRANSPORT is not the LEAGUES OF VOTANN INFANTRY its aura is for
    relays = ("^^**Leagues of Votann Transport^^** units from your army have the following "
              "ability:\n\n**Firebase Control (Aura):** While a friendly ^^**Leagues of Votann "
              "Infantry^^** unit is wholly within 6\" of this ^^**Transport^^**, ranged weapons "
              "equipped by models in that ^^**Infantry^^** unit have the [^^**sustained hits "
              "1^^**] ability.")
    transport = frozenset({"LEAGUES OF VOTANN", "TRANSPORT", "VEHICLE", "LEAGUES OF VOTANN "
                           "TRANSPORT"})
    [fc] = for_unit(translate, "Mobile Sensor Relays", relays, transport, "",
                    kind="detachment rule")
    assert (fc.scope, fc.keywords) == (Scope.FRIENDLY, ("LEAGUES OF VOTANN INFANTRY",))
    # a unit named as within range of others ("within 6\" of one or more friendly X units")
    # is the one the rule is for: still its own
    empowered = ("- While an ^^**Emperor's Children^^** unit from your army is within 6\" of "
                 "one or more friendly ^^**Legions of Excess**^^ units, it is Empowered.\n\n"
                 "While a unit from your army is Empowered, weapons equipped by models in that "
                 "unit have the [^^Sustained Hits 1^^] ability.")
    [ec] = for_unit(translate, "Daemonic Empowerment", empowered,
                    frozenset({"EMPEROR'S CHILDREN"}), "", kind="detachment rule")
    # (any Empowered unit from your army: its own too, whatever its keywords)
    assert (ec.scope, ec.keywords, ec.switch, ec.rule.describe()) == (
        Scope.FRIENDLY, (), True, "abilities=[sustained hits 1]")
    assert "While a unit is within 6\" of one or more friendly LEGIONS" in ec.rule.assumes


def test_a_rule_for_friendly_units_excluding_the_bearer_s_keywords_is_not_its_own():
    """Integrated Command Structure (10e, practice reader of seed 1717): KROOT and VESPID
    units have an aura for "a friendly T'AU EMPIRE model (excluding KROOT, VESPID STINGWINGS
    and TITANIC models)": read for a KROOT unit it is for the other units only (the
    exclusion kept, though a comma of its brackets cuts the clause), for a BATTLESUIT its own."""
    from types import SimpleNamespace

    from mathhammer.data.rules.detachments import for_unit
    from mathhammer.data.rules.unit_rules import resolve

    text = ("KROOT and VESPID STINGWINGS units from your army have the following ability:\n\n"
            "**Targeting Triangulation (Aura):** While an enemy unit is within 9\" of and visible "
            "to this unit, each time a ranged attack made by a friendly T'AU EMPIRE model "
            "(excluding KROOT, VESPID STINGWINGS and TITANIC models) targets that enemy unit, "
            "improve the Armour Penetration characteristic of that attack by 1.\n\n"
            "**^^T’au Empire^^** units (excluding **^^Kroot^^** and **^^Vespid Stingwings^^** "
            "units) from your army have the following ability:\n\n**Localised Stealth "
            "Projectors (Aura):** While a friendly **^^Kroot^^** or **^^Vespid Stingwings^^** "
            "unit is wholly within 6\" of and visible to this unit, that **^^Kroot^^** or "
            "**^^Vespid Stingwings^^** unit can only be selected as the target of a ranged "
            "attack if the attacking model is within 18\".")
    kroot = frozenset({"KROOT", "T'AU EMPIRE"})
    [p] = for_unit(translate, "Integrated Command Structure", text, kroot, "",
                   kind="detachment rule")
    assert (p.scope, p.keywords, p.excluding) == (
        Scope.FRIENDLY, ("T'AU EMPIRE",), ("KROOT", "VESPID STINGWINGS", "TITANIC"))
    assert not qualifies(p, kroot) and qualifies(p, frozenset({"T'AU EMPIRE", "BATTLESUIT"}))
    [r] = resolve([p], SimpleNamespace(keywords=tuple(kroot), groups=()))
    assert r.resolved and not r.scope.own  # offered to the others, not the Kroot's own
    [b] = for_unit(translate, "Integrated Command Structure", text,
                   frozenset({"T'AU EMPIRE", "BATTLESUIT"}), "", kind="detachment rule")
    assert (b.scope.own, b.rule.describe()) == (True, "if ranged attacks: ap_mod=+1")


def test_bullets_continuing_a_head_s_have_keep_their_own_ability():
    """Fusillade (audit 2929, 10e-011): "... have the [ANTI-MONSTER 5+] and [ANTI-VEHICLE 5+]
    abilities, and: ■ The [SUSTAINED HITS 1] ability if the Pyromancy Discipline is active":
    the head's abilities always, the bullet's its own (a switch for its condition)."""
    auto, sh = translate("Fusillade", "Ranged weapons equipped by models in the bearer's unit "
                         "have the [ANTI-MONSTER 5+] and [ANTI-VEHICLE 5+] abilities, and: "
                         "■ The [SUSTAINED HITS 1] ability if the Pyromancy Discipline is "
                         "active for your army. ■ Add 6\" to the Range characteristic of those "
                         "weapons if the Telekinesis Discipline is active for your army",
                         kind="enhancement")
    assert (auto.automatic, auto.rule.describe()) == (
        True, "if ranged attacks: abilities=[anti-monster 5+, anti-vehicle 5+]")
    assert (sh.switch, sh.rule.describe()) == (
        True, "if ranged attacks: abilities=[sustained hits 1]")
    # switched on, against MEQ: hits 6 x (2/3 + 1/6) = 5, x 1/2 x 1/3 = 5/6 (without it 2/3)
    from mathhammer.data.typed.inline import parse_weapon

    r = mh.attack([parse_weapon("6 | 3+ | 4 | 0 | 1")], mh.load_unit("MEQ").as_target(),
                  apply=[auto.rule, sh.rule], rules="10e")
    assert r.unsaved.mean() == F(5, 6)


def test_an_exclusion_names_keywords_not_the_noun():
    """Phasal Subjugator (10e, 11e), and 9 texts more ("(excluding MONSTER and TITANIC units)",
    "(excluding TITANIC models)"): the noun after the keywords is not one of them, so a
    CHARACTER unit is kept out (read as "CHARACTER UNITS" it never was)."""
    [p] = translate("Phasal Subjugator (Aura)", "NECRONS model only. While a friendly NECRONS "
                    "unit (excluding CHARACTER units) is within 6\" of the bearer, each time a "
                    "model in that unit makes an attack, add 1 to the hit roll.")
    assert (p.scope, p.keywords, p.excluding) == (Scope.FRIENDLY, ("NECRONS",), ("CHARACTER",))
    assert not qualifies(p, frozenset({"NECRONS", "CHARACTER", "INFANTRY"}))
    assert qualifies(p, frozenset({"NECRONS", "INFANTRY"}))
