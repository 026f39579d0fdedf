"""The BattleScribe importer's classes of problems, each on a small fixture catalogue
(``tests/fixtures/bsdata``), and the self-check ``mathhammer data check`` on the fixtures and on
the shared data (skipped when ``../shared/bsdata`` is not there).

Expected values are the ones written in the fixture files (quoted in the comments).
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from mathhammer.app.datacheck import Status, cause_of, check_data, kind_of
from mathhammer.data.bsdata import (
    BattleScribeWarning,
    catalogue_unit_dict,
    list_catalogue_units,
    load_catalogue_unit,
)
from mathhammer.data.bsdata.files import open_library
from mathhammer.data.bsdata.find import find_unit
from mathhammer.data.bsdata.walk import root_context
from mathhammer.engine.attack import attack, value_against

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


FIXTURES = Path(__file__).parent / "fixtures" / "bsdata"
FACTION = FIXTURES / "Fixture Faction.cat"
ROOT = Path(os.environ.get("MATHHAMMER_BSDATA", Path(__file__).resolve().parents[2] / "shared"
                           / "bsdata"))


def weapons(raw: dict) -> list[tuple]:
    """(name, optional, count, profile_of) of every weapon, group by group."""
    return [(w["name"], w.get("optional", False), w.get("count"), w.get("profile_of"))
            for g in raw["models"] for w in g.get("weapons", [])]


# ------------------------------------------------------------------ one class each


def test_links_to_entries_nested_in_other_entries_resolve():
    # the Sergeant's entry links target "Rifle" (fx-rifle) and "Plasma gun" (fx-plasma), both
    # nested inside other model entries; the Priest links to the same nested Rifle
    raw, notes = catalogue_unit_dict(FACTION, "Gun Squad")
    assert not [n for n in notes if "skipped" in n]
    assert {"Rifle", "Plasma gun - standard"} <= {w[0] for w in weapons(raw)}
    raw, notes = catalogue_unit_dict(FACTION, "Priest")
    assert weapons(raw) == [("Rifle", False, None, None)]


def test_a_catalogue_rule_resolves_and_a_rule_defined_nowhere_is_kept_by_name():
    raw, notes = catalogue_unit_dict(FACTION, "Gun Squad")
    # "Fixture Oath" is a <rule> of the catalogue (not in sharedRules); "Lost Oath" links to
    # fx-nowhere, which no file defines while no linked file is missing
    assert raw["abilities"]["faction"] == ["Fixture Oath", "Lost Oath"]
    assert notes == ["ability 'Lost Oath' has no text in the data (the rule it names is not "
                     "defined); kept by name"]
    assert kind_of(cause_of(notes[0])) == "note"


def test_default_loadout_never_has_more_of_a_weapon_than_its_slots():
    raw, _ = catalogue_unit_dict(FACTION, "Gun Squad")
    # group "Marines" min 4 max 9, default "Marine w/ Heavy Gun" (max 4); the Sergeant 1:
    # at 5 models, 4 heavy guns and the Sergeant's rifle; the riflemen have none yet (one
    # more rifle per model up to 10: tests/test_wargear_limits.py)
    assert raw["models"][0]["count"] == [5, 10]
    assert weapons(raw) == [
        ("Heavy gun", False, 4, None),
        ("Plasma gun - standard", True, None, "Plasma gun"),
        ("Plasma gun - supercharge", True, None, "Plasma gun"),
        ("Rifle", False, [1, 2, 3, 4, 5, 6], None),
    ]
    unit = load_catalogue_unit(f"{FACTION}:Gun Squad")
    assert [(w.name, n) for w, n in unit.as_profiles(score=VS_MEQ)] == [
        ("Heavy gun", 4), ("Rifle", 1)]


def test_a_unit_whose_guns_are_all_options_takes_the_first_and_says_so():
    raw, notes = catalogue_unit_dict(FACTION, "Monster")
    # group "Weapon" (1-1) defaults to Talons; Spine gun and Acid cannon are options
    assert weapons(raw) == [("Talons", False, None, None), ("Spine gun", False, None, None),
                            ("Acid cannon", True, None, None)]
    assert ("no ranged wargear by default in the data; the first option, 'Spine gun', is "
            "taken (pick another by name)") in notes


def test_a_default_that_names_no_option_falls_back_to_the_first():
    raw, notes = catalogue_unit_dict(FACTION, "Walker")
    # group "Arm" (1-1) names fx-gone, which is none of its options: Talons (first) is taken;
    # the ranged phase then has only an option, which is taken too (both said)
    assert weapons(raw) == [("Talons", False, None, None), ("Acid cannon", False, None, None)]
    assert notes == [
        "'Arm': the data's default is not one of its options; the first, 'Talons', is taken",
        "no points in the data",
        "no ranged wargear by default in the data; the first option, 'Acid cannon', is taken "
        "(pick another by name)"]


def test_weapon_profiles_name_their_weapon():
    raw, _ = catalogue_unit_dict(FACTION, "Gun Squad")
    assert {w[0]: w[3] for w in weapons(raw)}["Plasma gun - supercharge"] == "Plasma gun"
    unit = load_catalogue_unit(f"{FACTION}:Gun Squad")
    assert {w.name: w.profile_of for w in unit.weapons()} == {
        "Heavy gun": None, "Plasma gun - standard": "Plasma gun",
        "Plasma gun - supercharge": "Plasma gun", "Rifle": None}


def test_titanic_characteristics_fit_the_limits():
    with pytest.warns(BattleScribeWarning, match="'Zzap gun' left out: S '2D6'"):
        unit = load_catalogue_unit(f"{FACTION}:Titan")  # T16 W100 OC30, a gun of S32
    g = unit.groups[0]
    assert (g.toughness, g.wounds, g.oc) == (16, 100, 30)
    cannon = unit.as_profiles(score=VS_MEQ)[0][0]
    assert (cannon.strength, cannon.range) == (32, 120)
    # S32 against T16 wounds on 2+ (S >= 2T); 2+ to hit; AP-5 against Sv2+ is a 7+: no save;
    # D6 attacks (Blast: +0 against one model) of D12: the mean damage before allocation is
    # 3.5 attacks x 5/6 x 5/6 x 12 = 29 1/6, and no model of W100 dies
    r = attack(unit.as_profiles(score=VS_MEQ), unit.as_target())
    assert r.unsaved.mean() == Fraction(7, 2) * Fraction(5, 6) * Fraction(5, 6)
    assert r.kills.mean() == 0


def test_entries_without_a_statline_are_not_units():
    assert list_catalogue_units(FACTION) == ["Gun Squad", "Launcher Squad", "Monster", "Pack",
                                             "Priest", "Slot Squad", "Titan", "Walker"]


def test_a_statline_on_the_group_around_the_models_is_theirs():
    raw, notes = catalogue_unit_dict(FACTION, "Pack")
    g = raw["models"][0]
    assert (g["name"], g["count"], g["toughness"], g["save"], g["wounds"]) == (
        "Pack Beast", [5, 10], 6, "4+", 2)


def test_the_same_datasheet_twice_is_one_unit():
    # three root entries "Priest": fx-priest-other (W9) is hidden when this catalogue is the
    # roster's primary one; fx-priest (W3) comes next; fx-priest-again repeats it
    lib = open_library(FACTION)
    assert find_unit(lib, "Priest").id == "fx-priest"
    assert load_catalogue_unit(f"{FACTION}:Priest").groups[0].wounds == 3
    assert root_context(lib).primary == "fx-cat"


# ------------------------------------------------------------------ the self-check


def test_check_counts_every_class_on_the_fixtures():
    r = check_data("10e", FIXTURES, jobs=1)
    got = r.to_json(examples=0)
    assert (got["datasheets"], got["clean"], got["with_warnings"], got["failed_datasheets"],
            got["no_weapons"]) == (9, 7, 1, 0, 0)  # Slot Squad (test_wargear_limits) is clean
    # the Titan's Zzap gun (S "2D6") is left out; Far Unit links into "Missing Faction"
    assert got["warnings"] == {"weapon '…' left out: S '…' / AP '…' is not a number": 1}
    assert got["missing_files"] == {"Missing Faction.cat": 1}
    assert {s.name: s.status for s in r.sheets}["Far Unit"] is Status.MISSING_FILE


def test_data_check_command_json_and_text(cli):
    res = cli("data", "check", "--data", str(FIXTURES), "--json", "--jobs", "1")
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert {"edition", "datasheets", "clean", "warnings", "failed", "no_weapons",
            "missing_files"} <= set(got)
    assert (got["edition"], got["datasheets"], got["clean"]) == ("10e", 9, 7)
    res = cli("data", "check", "--data", str(FIXTURES), "--jobs", "1")
    assert res.exit_code == 0
    assert "9 datasheets from 2 catalogues" in res.stdout
    assert "1  Missing Faction.cat" in res.stdout


def test_data_check_bad_folder_is_one_line(cli, tmp_path):
    res = cli("data", "check", "--data", str(tmp_path / "none"))
    assert res.exit_code == 2
    assert res.stderr.strip().endswith("no such folder")


@pytest.mark.slow
@pytest.mark.skipif(not ROOT.is_dir(), reason=f"shared BattleScribe data not found at {ROOT}")
@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_data_check_on_the_shared_data(edition):
    # a representative subset (the whole data takes minutes; its numbers are in the report):
    # a faction with its own catalogue, a chapter that imports the Space Marines, a library user
    words = ["Necrons", "Space Wolves", "Drukhari"]
    r = check_data(edition, ROOT, jobs=2, catalogues=words)
    got = r.to_json(examples=0)
    assert got["failed"] == {}
    assert got["datasheets"] >= 250
    # every datasheet with weapons whose files are all there is clean but at most 1%
    assert got["clean"] >= 0.99 * got["armed"], got
    # the only missing files are the four the shared data's README names
    assert set(got["missing_files"]) <= {
        "Aeldari - Aeldari Library.json", "Chaos - Chaos Space Marines.json",
        "Imperium - Astra Militarum - Library.json", "Imperium - Space Marines.json"}


def test_weapon_values_read_as_printed_are_said():
    from mathhammer.data.bsdata.entries import Characteristic, Profile
    from mathhammer.data.bsdata.weapons import weapon_table

    said: list[str] = []
    chars = [("Range", "Melee"), ("A", "3"), ("WS", "3+"), ("S", "8+"), ("AP", "-"), ("D", "2"),
             ("Keywords", "Close-quarters")]
    p = Profile("p", "Maw", "t", "Melee Weapons", tuple(Characteristic(n, n, v) for n, v in chars))
    t = weapon_table(p, said.append)
    # S "8+" (a stray +) is 8, AP "-" is 0; 11e's [CLOSE-QUARTERS] is the Pistol rule
    assert (t["strength"], t["ap"], t["abilities"]) == (8, 0, ["pistol"])
    assert said == ["Maw: S '8+' read as 8", "Maw: AP '-' read as 0"]
    assert [kind_of(cause_of(s)) for s in said] == ["note", "note"]


def test_causes_keep_their_kind_whatever_the_names():
    assert kind_of(cause_of("Heavy Weapons Team: optional models (0-3); counted from 1")) == "note"
    assert kind_of(cause_of("weapon 'Zzap gun' left out: S '2D6' / AP '-3' is not a number")) \
        == "weapon"
    assert kind_of(cause_of("skipped 'Bolt Carbine': X.cat: info link 'Bolt Carbine' links to "
                            "id ba44-a36e-9207-a5e, which no given file defines")) == "link"
    assert kind_of(cause_of("X.cat:Titan: models[0].toughness: 31 is over the limit of 30 "
                            "(mathhammer.limits.MAX_TOUGHNESS)")) == "limit"


# ------------------------------------------------------------------ the issue's datasheets


@pytest.mark.slow
@pytest.mark.skipif(not ROOT.is_dir(), reason=f"shared BattleScribe data not found at {ROOT}")
def test_the_issues_datasheets_in_the_shared_data():
    e10, e11 = ROOT / "10e", ROOT / "11e"
    marines = e10 / "Imperium - Space Marines.cat"
    # 'Plasma Incinerator' is an entry link to bb24-ed3f-7468-4f61, nested in the catalogue
    raw, notes = catalogue_unit_dict(marines, "Hellblaster Squad")
    assert not [n for n in notes if "skipped" in n]
    # both profiles are carried: weapon choice fires one per model (mathhammer.model.loadout)
    assert ("Plasma Incinerator - Supercharge", False, None, "Plasma Incinerator") in weapons(raw)
    assert ("Plasma Incinerator - Standard", False, None, "Plasma Incinerator") in weapons(raw)
    # Devastators: group "Devastators" (4-9), default "w/ Heavy Weapon" (max 4; its weapon
    # group defaults to its first choice, the Heavy Bolter), and a Sergeant
    raw, _ = catalogue_unit_dict(marines, "Devastator Squad")
    assert ("Heavy Bolter", False, 4, None) in weapons(raw)
    with pytest.warns(BattleScribeWarning, match="5\\+ left out .* ranged attacks only"):
        unit = load_catalogue_unit(f"{e10 / 'Chaos - Chaos Daemons.cat'}:Warlord Titan")
    assert (unit.groups[0].toughness, unit.groups[0].wounds) == (16, 100)
    # the Sororitas' own Ministorum Priest (the Agents' copy is hidden for them): 4+ invulnerable
    priest = load_catalogue_unit(f"{e10 / 'Imperium - Adepta Sororitas.cat'}:Ministorum Priest")
    assert priest.groups[0].invuln == 4
    wulfen = load_catalogue_unit(f"{e10 / 'Imperium - Space Wolves.cat'}:Wulfen")
    assert wulfen.groups[0].statline() == "M9 T6 Sv4+ W2 Ld7+ OC0"
    raw, notes = catalogue_unit_dict(e11 / "Tyranids.json", "Hive Tyrant")
    assert ("Heavy venom cannon", False, None, None) in weapons(raw)
    assert any("the first option, 'Heavy venom cannon', is taken" in n for n in notes)
    assert "Searchlight" not in list_catalogue_units(e10 / "Necrons.cat")
