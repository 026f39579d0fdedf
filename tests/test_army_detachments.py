"""A list's detachment: read from each format's head, found among the data's detachments, its
rules applied to every unit of the list (those for "X units from your army" where the unit is
X); the shared 11e rosters get their detachment rules, enhancements and Leader abilities."""

import json
from fractions import Fraction as F

import bsjson
import pytest

import mathhammer as mh
from mathhammer.app.specs import attacker_of
from mathhammer.data.army import load_army, parse_list
from mathhammer.data.rules.detachments import detachment_names
from mathhammer.data.rules.unit_rules import unit_rules
from mathhammer.data.typed.inline import parse_target
from mathhammer.engine.attack import value_against
from tests.army_corpus import SHARED

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


# -- a small catalogue with two detachments ---------------------------------------------------


def _squad(uid="u1", name="Squad", count=5, keyword="Infantry", wounds="2"):
    stats = tuple((k, wounds if k == "W" else v) for k, v in bsjson.STATS)
    return bsjson.unit(uid, name, count, [keyword], [],
                       bsjson.weapon(f"{uid}p", "Bolt rifle", "2", "3+", "4", "-1", "1"), stats)


def _detachment(uid, name, rule, text, *more):
    rules = [(rule, text), *more]
    return {"id": uid, "name": name, "type": "upgrade",
            "rules": [{"id": f"{uid}r{i}", "name": n, "description": t}
                      for i, (n, t) in enumerate(rules)]}


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    cat = {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1",
           "sharedSelectionEntries": [_squad(), _squad("u2", "Tank", 1, "Vehicle", "12"), {
               "id": "d0", "name": "Detachment", "type": "upgrade",
               "selectionEntryGroups": [{"id": "dg", "name": "Detachment", "selectionEntries": [
                   _detachment("d1", "Storm Host", "Storm Doctrine",
                               "Each time a ^^**Testers^^** model from your army makes a ranged "
                               "attack, re-roll a Wound roll of 1."),
                   _detachment("d2", "Iron Host", "Iron Plating",
                               "^^**Testers Vehicle^^** models from your army have a 5+ "
                               "invulnerable save.",
                               ("Iron Fury", "Each time a ^^**Testers Infantry^^** model from "
                                "your army makes an attack that targets a unit within 12\", "
                                "add 1 to the Hit roll."))]}]}],
           # an enhancement for CHARACTER models, and an Upgrade (any unit may take one)
           "sharedSelectionEntryGroups": [
               {"id": "g1", "name": "Enhancements", "selectionEntries": [
                   {"id": "n1", "name": "Fury Blade", "type": "upgrade",
                    "costs": [{"name": "pts", "typeId": "pts", "value": 15}]}]},
               {"id": "g2", "name": "Enhancements - Upgrades", "selectionEntries": [
                   {"id": "n2", "name": "Targeting Array", "type": "upgrade",
                    "costs": [{"name": "pts", "typeId": "pts", "value": 10}]}]}],
           "entryLinks": [{"id": "e1", "name": "Squad", "targetId": "u1",
                           "type": "selectionEntry"},
                          {"id": "e2", "name": "Tank", "targetId": "u2",
                           "type": "selectionEntry"}]}
    return str(bsjson.write_folder(tmp_path_factory.mktemp("cat"), cat).parent)


def _list(tmp_path, head, name="list.txt"):
    path = tmp_path / name
    path.write_text(f"{head}\n\nSquad (50 points)\n  • 5x Squad\n    • 5x Bolt rifle\n",
                    encoding="utf-8")
    return str(path)


# 10 bolt rifle attacks against MEQ: hit 3+ (2/3), S4 v T4 wound 4+ (1/2), save 3+ at AP-1 fails
# 1/2: 10 * 2/3 * 1/2 * 1/2 = 5/3. Storm Doctrine re-rolls a Wound roll of 1: the wound roll
# succeeds 1/2 + 1/6 * 1/2 = 7/12, so 10 * 2/3 * 7/12 * 1/2 = 35/18 (one damage each: E[damage]).
PLAIN, STORM = "5/3", "35/18"

APP_10E = "Test list (50 points)\n\nTesters\nStrike Force (2000 points)\nStorm Host"
APP_11E = ("Test list (50 points)\n\nTesters\nStorm Host and Iron Host (3 Detachment Points)\n"
           "Purge the Foe\nStrike Force (2000 points)")
NR = ("+++++\n+ FACTION KEYWORD: Testers\n+ DETACHMENT: Iron Host, Storm Host (Storm "
      "Doctrine)\n+ TOTAL ARMY POINTS: 50pts\n+++++\n\nChar1: 1x Squad (50 pts): 5x Bolt rifle")


def _damage(cli, path, folder):
    data = json.loads(cli("table", "--army", path, "-t", "MEQ", "--metric", "damage",
                           "--format", "json", "--data", folder, code=0).stdout)
    return [r["values"][0]["exact"] for r in data["rows"]]


def test_each_reader_finds_the_detachment_line(tmp_path):
    assert parse_list(APP_10E + "\n\nSquad (50 points)\n  • 5x Squad\n").detachments == (
        "Storm Host",)
    # an 11e line's "(N Detachment Points)" is dropped, in any language, and its word for
    # "and" read as "and"
    assert parse_list(APP_11E + "\n\nSquad (50 points)\n  • 5x Squad\n").detachments == (
        "Storm Host and Iron Host",)
    french = ("Liste (50 points)\n\nTesters\nStorm Host et Iron Host (3 Points de "
              "Détachement)\nForce de Frappe (2 000 points)\n\nSquad (50 points)\n  • 5x Squad\n")
    assert parse_list(french).detachments == ("Storm Host and Iron Host",)
    assert parse_list(NR).detachments == ("Iron Host, Storm Host (Storm Doctrine)",)
    nr_default = ("# ++ Army Roster ++ [50 pts]\n## Testers\nDetachment: Storm Host\n\n"
                  "Squad [50 pts]: 5x Bolt rifle\n")
    assert parse_list(nr_default).detachments == ("Storm Host",)
    # an app list without a detachment line: its only name line is the faction
    assert parse_list("L (50 points)\n\nTesters\nStrike Force (2000 points)\n\n"
                      "Squad (50 points)\n  • 5x Squad\n").detachments == ()
    roster = ('<roster name="R" gameSystemName="Warhammer 40,000 10th Edition"><forces>'
              '<force catalogueName="Test - Testers"><selections>'
              '<selection name="Detachment Choice" type="upgrade" number="1"><selections>'
              '<selection name="Storm Host" type="upgrade" number="1"/></selections>'
              '</selection><selection name="Squad" type="unit" number="1"/>'
              '</selections></force></forces></roster>')
    assert parse_list(roster.encode()).detachments == ("Storm Host",)


def test_detachment_names_split_where_the_data_names_end():
    known = ["storm host", "iron host", "host of iron and steel"]
    assert detachment_names("Host of Iron and Steel and Storm Host (3 Detachment Points)",
                            known) == ["Host of Iron and Steel", "Storm Host"]
    assert detachment_names("Storm Host, Iron Host and Nowhere (Doctrine)", known) == [
        "Storm Host", "Iron Host", "Nowhere"]


def test_a_lists_detachment_rule_reaches_its_units(cli, tmp_path, folder):
    for head in (APP_10E, APP_11E):
        path = _list(tmp_path, head)
        army = load_army(path, data=folder)
        assert army.detachments[0] == "Storm Host" and not [
            w for w in army.warnings if "detachment '" in w]
        [unit] = army.units
        # the stratagems it can use (the 40kdc data's core ones, when installed) are listed
        # apart from the list's rules
        rules = {p.rule.name: p for p in unit_rules(unit, folder) if p.rule.kind != "stratagem"}
        # Storm Doctrine is the Testers model's own; Iron Plating is for VEHICLE models only;
        # Iron Fury (the 11e list's second detachment) for INFANTRY within 12": a switch
        assert set(rules) == {"Storm Doctrine"} | ({"Iron Fury"} if head == APP_11E else set())
        assert rules["Storm Doctrine"].automatic
        assert head == APP_10E or rules["Iron Fury"].switch
        assert rules["Storm Doctrine"].rule.kind == "detachment rule"
        assert rules["Storm Doctrine"].rule.source == \
            "BattleScribe 11e: Testers.json, detachment Storm Host"
        assert _damage(cli, path, folder) == [STORM]
    # the same list without a detachment line: the plain numbers
    assert _damage(cli, _list(tmp_path, "Test list (50 points)\n\nTesters\nStrike Force (2000 "
                                   "points)"), folder) == [PLAIN]


def test_new_recruits_detachment_rule_choice(cli, tmp_path, folder):
    path = tmp_path / "nr.txt"
    path.write_text(NR, encoding="utf-8")
    army = load_army(str(path), data=folder)
    assert army.detachments == ("Iron Host", "Storm Host")
    assert _damage(cli, str(path), folder) == [STORM]
    # the rule the list names in brackets is the one it uses: Iron Plating's detachment only
    path.write_text(NR.replace("(Storm Doctrine)", "(Iron Plating)"), encoding="utf-8")
    assert _damage(cli, str(path), folder) == [PLAIN]


def test_an_unknown_detachment_is_a_warning_naming_it(cli, tmp_path, folder):
    path = _list(tmp_path, APP_10E.replace("Storm Host", "Storm Hots"))
    r = cli("army", path, "--data", folder, code=0)
    assert "warning: " in r.stderr and "detachment 'Storm Hots' is not in Testers.json " \
        "(closest: Storm Host): its rules are not applied" in r.stderr
    assert load_army(path, data=folder).detachments == ()
    assert _damage(cli, path, folder) == [PLAIN]


def test_army_output_lists_the_detachment_and_each_rules_source(cli, tmp_path, folder):
    path = _list(tmp_path, APP_10E)
    data = json.loads(cli("army", path, "--json", "--data", folder, code=0).stdout)
    assert data["detachments"] == ["Storm Host"]
    assert data["rules"] == [{
        "unit": "Squad", "attacking": {"applied": ["Storm Doctrine"], "switches": []},
        "defending": {"applied": [], "switches": []}, "not_modelled": [],
        "from": {"Storm Doctrine": "detachment"}}]
    text = cli("army", path, "--data", folder, code=0).stdout
    assert "Detachment: Storm Host\n" in text
    assert "  Squad\n    attacking, applied: Storm Doctrine (detachment)" in text


def test_detachment_by_name_on_the_command_line(cli, folder):
    cat = f"{folder}/Testers.json:Squad"
    # --detachment takes the detachment's name as well as its rule's
    for name in ("Storm Host", "Storm Doctrine"):
        got = json.loads(cli("kills", cat, "MEQ", "--detachment", name, "--json", code=0).stdout)
        assert got["mean"]["unsaved"] == STORM
    a = attacker_of(cat, detachment="Storm Host")
    assert [r.name for r in a.rules.applied] == ["Storm Doctrine"]


# -- the shared 11e rosters ---------------------------------------------------------------------

ROSTERS = SHARED / "rosters"
DATA = SHARED / "bsdata"
needs_shared = pytest.mark.skipif(not (ROSTERS.is_dir() and (DATA / "11e").is_dir()),
                                  reason="shared rosters or 11e BattleScribe data not found")


def _unsaved(unit, target, rules=(), melee=False, weapons=None):
    return mh.attack(unit.as_profiles(melee=melee, weapons=weapons, score=VS_MEQ), target,
                     apply=list(rules), rules="11e").unsaved.mean()


def _rules(unit, side="attacker"):
    from mathhammer.data.rules.unit_rules import side_rules

    return side_rules(unit_rules(unit, str(DATA)), side)


def _army(name):
    return load_army(ROSTERS / name, data=str(DATA))


@pytest.mark.slow
@needs_shared
def test_world_eaters_11e_berzerker_warband():
    army = _army("world-eaters.11e.gwapp.txt")
    assert army.detachments == ("Berzerker Warband",)
    # Relentless Rage is every WORLD EATERS unit's, applied after a charge ("makes a Charge
    # move, until the end of the turn": the charged condition, --charged)
    for unit in army.units:
        assert [r.name for r in _rules(unit).applied if r.kind == "detachment rule"] == [
            "Relentless Rage"]
    spawn = next(u for u in army.units if u.name == "Chaos Spawn")
    [rage] = [r for r in _rules(spawn).applied if r.name == "Relentless Rage"]
    meq = parse_target("10x T4 Sv3+ W2")
    # 2 Chaos Spawn, hideous mutations: D6+4 attacks each (mean 15/2) at WS 4+ (1/2), S5 v T4
    # wounds on 3+ (2/3), AP-1: save 3+ becomes 4+, fails 1/2: 2 * 15/2 * 1/2 * 2/3 * 1/2
    #   = 5/2
    assert _unsaved(spawn, meq, melee=True) == F(5, 2)
    # after a charge (Relentless Rage): +1 Attack (17/2) and S7 v T4 wounds on 3+ still:
    #   2 * 17/2 * 1/2 * 2/3 * 1/2 = 17/6
    assert _unsaved(spawn, meq, [rage], melee=True) == F(5, 2)  # no charge: no change
    assert mh.attack(spawn.as_profiles(melee=True, score=VS_MEQ), meq, apply=[rage], rules="11e",
                     charged=True).unsaved.mean() == F(17, 6)
    # Khârn's Legendary Killer reaches the Berzerkers he leads (a Leader's ability)
    rows = {label: u for label, u in army.rows()}
    pair = rows["Khârn the Betrayer + Khorne Berzerkers"]
    a = attacker_of(pair, melee=True, rules="11e", data=str(DATA))
    assert "Legendary Killer" in [r.name for r in a.rules.applied]


@pytest.mark.slow
@needs_shared
def test_tau_11e_app_list_retaliation_cadre():
    army = _army("tau.11e.gwapp.txt")
    assert army.detachments == ("Advanced Acquisition Cadre", "Retaliation Cadre")
    bonded = {u.name for u in army.units
              if any(r.name.startswith("Bonded Heroes") for r in _rules(u).switches)}
    # T'AU EMPIRE BATTLESUIT models only: not the Kroot, the Vespid or the Pathfinders
    assert "Stealth Battlesuits" in bonded and "Crisis Sunforge Battlesuits" in bonded
    assert not bonded & {"Kroot Carnivores", "Vespid Stingwings", "Pathfinder Team"}
    stealth = next(u for u in army.units if u.name == "Stealth Battlesuits")
    [strength] = [r for r in _rules(stealth).switches if r.name == "Bonded Heroes (1)"]
    t5 = parse_target("10x T5 Sv3+ W2")
    # 3 burst cannons: 4 attacks each at BS 4+ (1/2), S5 v T5 wounds on 4+ (1/2), AP0: save
    # 3+ fails 1/3:  12 * 1/2 * 1/2 * 1/3 = 1
    assert _unsaved(stealth, t5, weapons=["Burst cannon"]) == 1
    # within 12" (Bonded Heroes): S6 v T5 wounds on 3+ (2/3):  12 * 1/2 * 2/3 * 1/3 = 4/3
    assert _unsaved(stealth, t5, [strength], weapons=["Burst cannon"]) == F(4, 3)


@pytest.mark.slow
@needs_shared
@pytest.mark.parametrize("name", ["tau.11e.newrecruit-gw.txt", "tau.11e.newrecruit-wtc.txt"])
def test_tau_11e_new_recruit_lists_use_the_rule_they_name(name):
    army = _army(name)
    assert army.detachments == ("Advanced Acquisition Cadre", "Retaliation Cadre")
    # "(Expert Fieldcraft)": the list uses that rule (it changes no attack), not Bonded Heroes
    assert not any(r.kind == "detachment rule" for u in army.units
                   for r in _rules(u).applied + _rules(u).switches)
    fireknife = next(u for u in army.units if u.name == "Crisis Fireknife Battlesuits")
    rules = _rules(fireknife)
    # re-roll a Hit roll of 1; the datasheet's own Weapon Support System (ignore the Hit
    # roll's modifiers: none here)
    assert [r.name for r in rules.applied] == ["Fireknife", "Weapon Support System"]
    meq = parse_target("10x T4 Sv3+ W2")
    # 6 missile pods: 2 attacks each at BS 4+, S7 v T4 wounds on 3+ (2/3), AP-1: save 4+
    # fails 1/2: 12 * 1/2 * 2/3 * 1/2 = 2;  re-rolling 1s to hit: 1/2 + 1/6 * 1/2 = 7/12,
    #   12 * 7/12 * 2/3 * 1/2 = 7/3
    assert _unsaved(fireknife, meq, weapons=["Missile pod"]) == 2
    assert _unsaved(fireknife, meq, rules.applied, weapons=["Missile pod"]) == F(7, 3)


@pytest.mark.slow
@needs_shared
def test_imperial_knights_11e_questoris_companions():
    army = _army("imperial-knights.11e.gwapp.txt")
    assert army.detachments == ("Questoris Companions",)
    # its rules (Heroes of Legend, Valour's Reward) change no attack: nothing from it
    assert not any(r.kind == "detachment rule" for u in army.units
                   for r in _rules(u).applied + _rules(u).switches + _rules(u).not_modelled)
    destrier = next(u for u in army.units if u.name == "Knight Destrier")
    rules = _rules(destrier, "defender")
    assert [r.name for r in rules.applied] == ["Invulnerable Save (5+*)"]
    # 6 shots at 3+ (2/3), S8 v T11 wound on 5+ (1/3), AP-3 against Sv3+: 6+ fails 5/6;
    #   6 * 2/3 * 1/3 * 5/6 = 10/9;  with the 5+ invulnerable save against ranged attacks it
    #   fails 2/3:  6 * 2/3 * 1/3 * 2/3 = 8/9
    gun = [(mh.Weapon("Gun", attacks=1, skill=3, strength=8, ap=-3, damage=1), 6)]
    target = destrier.as_target()
    assert mh.attack(gun, target, rules="11e").unsaved.mean() == F(10, 9)
    assert mh.attack(gun, target, apply=list(rules.applied), rules="11e").unsaved.mean() \
        == F(8, 9)
    # the Lancer's enhancement is found in the Imperial Knights library
    lancer = next(u for u in army.units if u.name == "Cerastus Knight Lancer")
    pennant = [p.rule for p in unit_rules(lancer, str(DATA))
               if p.rule.name == "Pennant of Silvered Fury"]
    assert pennant and all("no text" not in r.not_modelled for r in pennant)


@pytest.mark.slow
@needs_shared
def test_dark_angels_11e_detachments_in_a_missing_file():
    army = _army("dark-angels.11e.gwapp.txt")
    assert army.detachments == ()
    for name in ("Darkflight Pursuit", "Inner Circle Task Force"):
        assert any(f"detachment {name!r} is not in Imperium - Dark Angels.json or the missing "
                   "Imperium - Space Marines.json" in w for w in army.warnings)
    knights = next(u for u in army.units if u.name == "Deathwing Knights")
    rules = _rules(knights, "defender")
    assert [r.name for r in rules.applied] == ["Inner Circle"]  # -1 Damage
    # 6 shots at 3+ (2/3), S8 v T5 wound on 3+ (2/3), AP-1 against Sv2+: 3+ fails 1/3 (the
    # 4+ invulnerable save is worse): E[unsaved] 6 * 2/3 * 2/3 * 1/3 = 8/9, unchanged by Inner
    # Circle; Damage 2 (W4 models, nothing lost) gives E[damage] 16/9, with Inner Circle 8/9
    gun = [(mh.Weapon("Gun", attacks=1, skill=3, strength=8, ap=-1, damage=2), 6)]
    target = knights.as_target()
    plain = mh.attack(gun, target, rules="11e")
    inner = mh.attack(gun, target, apply=list(rules.applied), rules="11e")
    assert plain.unsaved.mean() == inner.unsaved.mean() == F(8, 9)
    assert (plain.damage.mean(), inner.damage.mean()) == (F(16, 9), F(8, 9))


def test_table_army_switches_a_detachment_rule_on_where_the_unit_has_it(cli, tmp_path, folder):
    path = tmp_path / "two.txt"
    path.write_text(APP_11E + "\n\nSquad (50 points)\n  • 5x Squad\n    • 5x Bolt rifle\n\n"
                    "Tank (50 points)\n  • 1x Tank\n    • 1x Bolt rifle\n", encoding="utf-8")
    data = json.loads(cli("table", "--army", str(path), "-t", "MEQ", "--metric", "damage",
                           "--format", "json", "--rule", "Iron Fury", "--data",
                           folder, code=0).stdout)
    got = {r["label"]: r["values"][0]["exact"] for r in data["rows"]}
    # the Squad, INFANTRY, within 12": hits on 2+ (5/6), Storm Doctrine's re-rolled wounds:
    #   10 * 5/6 * 7/12 * 1/2 = 175/72.  The Tank (a VEHICLE) has no Iron Fury: 2 attacks,
    #   2 * 2/3 * 7/12 * 1/2 = 7/18
    assert got == {"Squad": "175/72", "Tank": "7/18"}
    # the list as targets: the Tank (a TESTERS VEHICLE) has Iron Plating's 5+ invulnerable
    # save. 6 attacks at 3+ (2/3), S4 v T4 (1/2), AP-3 against Sv3+: 6+ fails 5/6, the 5+
    # invulnerable save fails 2/3: the Squad takes 6 * 2/3 * 1/2 * 5/6 = 5/3, the Tank 4/3
    data = json.loads(cli("table", "6x 1 | 3+ | 4 | -3 | 1", "--vs-army", str(path),
                           "--metric", "damage", "--format", "json", "--data", folder,
                           code=0).stdout)
    assert [c["exact"] for c in data["rows"][0]["values"]] == ["5/3", "4/3"]


def test_an_upgrade_goes_on_a_unit_without_character_an_enhancement_is_warned(cli, tmp_path,
                                                                             folder):
    def warnings_of(enhancement, points):
        path = tmp_path / "upgrade.txt"
        path.write_text(f"{APP_11E}\n\nSquad ({points} points)\n  • Enhancement: "
                        f"{enhancement}\n  • 5x Squad\n    • 5x Bolt rifle\n", encoding="utf-8")
        r = cli("army", str(path), "--data", folder, code=0)
        return [line for line in r.stderr.splitlines() if "CHARACTER" in line]

    # the data's Enhancements - Upgrades: any unit may take it, nothing to say
    assert warnings_of("Targeting Array (Upgrade)", 60) == []
    # a plain enhancement on a unit without the CHARACTER keyword is said
    [line] = warnings_of("Fury Blade", 65)
    assert line.endswith("Squad has no CHARACTER keyword but the list gives it Fury Blade (only "
                         "an Upgrade goes on such a unit)")
