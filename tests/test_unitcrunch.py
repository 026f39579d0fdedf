"""``--to unitcrunch``: UnitCrunch's MessagePack import file, written by ``army`` and ``kills``
and read back by :func:`mathhammer.report.unitcrunch.loads` (the round trip), and its bad
input (one line, exit 2, nothing written)."""

from __future__ import annotations

import sys
from pathlib import Path

import msgpack
import pytest
from army_corpus import (
    cache,  # noqa: F401  (a private cache folder, module-wide)
    find_shared,
)

from mathhammer.data.army import load_army
from mathhammer.errors import InputError
from mathhammer.limits import MAX_ARMY_FILE_BYTES
from mathhammer.model.profiles import Weapon
from mathhammer.report.unitcrunch import (
    APP_VERSION,
    CrunchModelType,
    CrunchProfile,
    CrunchUnit,
    CrunchWeapon,
    dumps,
    left_out,
    loads,
    weapon_ability,
)

FIXTURE = Path(__file__).parent / "fixtures" / "army" / "structured" / \
    "world-eaters.10e.newrecruit-json.json"
BSDATA = find_shared() / "bsdata"
needs_data = pytest.mark.skipif(not (BSDATA / "10e").is_dir(),
                                reason=f"shared BattleScribe data not found at {BSDATA}")

BOLTER = Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1,
                abilities=("rapid fire 1", "assault", "heavy"))
FIST = Weapon("Power fist", attacks=3, skill=3, strength=8, ap=-2, damage=2,
              abilities=("lethal hits", "anti-vehicle 4+", "precision"), range="melee")
SQUAD = CrunchProfile("Intercessors", (
    CrunchUnit("Intercessors", 90, (
        CrunchModelType("Intercessor Sergeant", 1, 4, 3, 2,
                        weapons=(CrunchWeapon(FIST, 1, True),)),
        CrunchModelType("Intercessor", 4, 4, 3, 2, None, 6, ("INFANTRY", "IMPERIUM"),
                        (CrunchWeapon(BOLTER, 4, True),))), stealth=True),
    CrunchUnit("Lieutenant", 65, (CrunchModelType("Lieutenant", 1, 4, 3, 5, 4, weapons=(
        CrunchWeapon(BOLTER, 1, False),)),), leader=True)))


def test_a_profile_reads_back_as_it_was_written():
    [back] = loads(dumps([SQUAD], exported=0))
    assert back.name == SQUAD.name and len(back.units) == 2
    want = [(u.name, u.points, u.leader, u.stealth,
             [(m.name, m.models, m.toughness, m.save, m.wounds, m.invuln, m.fnp, m.keywords,
               [(w.name, w.count, w.selected) for w in m.weapons]) for m in u.model_types])
            for u in SQUAD.units]
    got = [(u.name, u.points, u.leader, u.stealth,
            [(m.name, m.models, m.toughness, m.save, m.wounds, m.invuln, m.fnp, m.keywords,
              [(w.name, w.count, w.selected) for w in m.weapons]) for m in u.model_types])
           for u in back.units]
    assert got == want
    fist = back.units[0].model_types[0].weapons[0].weapon
    # the abilities UnitCrunch has come back; Precision (it has none) is left out
    assert fist.abilities == ("lethal hits", "anti-vehicle 4+")
    assert (fist.attacks, fist.skill, fist.strength, fist.ap, fist.damage, fist.melee) == (
        "3", 3, 8, -2, "2", True)
    bolter = back.units[0].model_types[1].weapons[0].weapon
    assert bolter.abilities == ("rapid fire 1", "heavy") and not bolter.melee
    assert left_out([SQUAD]) == {"assault": 2, "precision": 1}


def test_the_file_is_unitcrunchs_layout():
    top = msgpack.unpackb(dumps([SQUAD], exported=1_750_000_000_123), raw=False)
    assert list(top) == ["appVersion", "exported", "profiles"]
    assert top["appVersion"] == APP_VERSION and top["exported"] == 1_750_000_000_123
    [p] = top["profiles"]
    assert p["created"] == p["updated"] == "2025-06-15T15:06:40.123Z"
    assert p["computed_model_count"] == 6 and p["computed_points"] == 155
    assert p["computed_wounds"] == 1 * 2 + 4 * 2 + 5  # the sergeant, four marines, the leader
    assert p["computed_roles"] == ["Attacker: Melee", "Attacker: Ranged", "Defender"]
    assert p["computed_leaders"] == [{"unitId": p["units"][1]["id"], "unitName": "Lieutenant"}]
    # the bodyguard's models are slain first, then the leader's
    assert [m["modelTypeName"] for m in p["order_slain_model_types"]] == [
        "Intercessor Sergeant", "Intercessor", "Lieutenant"]
    u = p["units"][0]
    assert list(u) == ["abilities", "abilities_selected", "id", "leader", "name", "points",
                       "model_types"]
    m = u["model_types"][1]
    assert list(m) == ["id", "ignore", "invuln", "keywords", "modelCount", "name", "save",
                       "toughness", "weapons", "wounds"]
    w = m["weapons"][0]
    assert list(w) == ["name", "nameUnique", "countPerUnit", "type", "attacks", "bs", "ws",
                       "strength", "ap", "damage", "abilities", "id"]
    # a weapon two model types carry is told apart by its model type
    assert w["nameUnique"] == "Bolt rifle (Intercessor)" and (w["bs"], w["ws"]) == (3, None)
    assert [a["aliases"][0]["name"] for a in w["abilities"]] == ["Rapid fire 1", "Heavy"]
    assert u["abilities"][0]["aliases"] == [{"name": "Stealth", "type": "reserved"}]
    # the selected weapons: the sergeant's fist and the marines' bolt rifles, not the leader's
    assert p["weapons_selected_ranged"] == [w["id"]] and len(p["weapons_selected_melee"]) == 1
    # every unit, model type, weapon and ability has an id of its own (the Lieutenant's bolt
    # rifle is not the Intercessors')
    ids = [x["id"] for x in p["units"]] + [m["id"] for x in p["units"] for m in x["model_types"]]
    ids += [w["id"] for x in p["units"] for m in x["model_types"] for w in m["weapons"]]
    ids += [a["id"] for x in p["units"] for m in x["model_types"] for w in m["weapons"]
            for a in w["abilities"]]
    assert len(ids) == len(set(ids)) == 2 + 3 + 3 + 6
    # the same profiles are the same file (but for the time it was exported)
    assert dumps([SQUAD], exported=5) == dumps([SQUAD], exported=5)


def test_unitcrunchs_own_abilities():
    # as UnitCrunch's reserved abilities write them (UnitCrunch 0.72.3's data packs)
    alias, conditions, description, effect = weapon_ability("sustained hits D3")
    assert alias == "Sustained hits D3" and description == "Critical hit : D3 extra hits"
    assert conditions[0]["data"]["crit"]["key"] == "hitRoll"
    assert effect["data"] == {"extrasValue": "D3", "option": {"title": "Extra hits",
                                                              "key": "extraHits"}}
    alias, conditions, description, _effect = weapon_ability("anti-monster 3+")
    assert (alias, description) == ("Anti-MONSTER 3+", "Wound roll of 3+ (unmodified) : "
                                    "critical wound (MONSTER only)")
    assert [c["type"] for c in conditions] == ["attackStepRoll", "keywordsOnly"]
    assert weapon_ability("melta 2")[3]["data"]["relativeValue"] == 2
    assert [weapon_ability(a) for a in ("precision", "hazardous", "pistol", "assault")] == [
        None] * 4


@pytest.mark.parametrize(("data", "words"), [
    (b"\xc1", "not a UnitCrunch file"),
    (msgpack.packb([1, 2]), r"not a UnitCrunch file \(no profiles\)"),
    (msgpack.packb({"profiles": [{"name": "x", "units": [{"name": "u", "model_types": [
        {"name": "m", "modelCount": 0, "toughness": 4, "save": 3, "wounds": 1}]}]}]}),
     r"profiles\[0\]: units\[0\]: model_types\[0\]: 0 is not a number from 1 to 100000"),
    (msgpack.packb({"profiles": [{"name": "x", "units": [{"name": "u", "model_types": [
        {"name": "m", "modelCount": 1, "toughness": 4, "save": 3, "wounds": 1, "weapons": [
            {"name": "w", "type": "Psychic"}]}]}]}]}),
     r"weapons\[0\]: type 'Psychic' is not Melee or Ranged"),
    (b"\x00" * (MAX_ARMY_FILE_BYTES + 1), "over the limit"),
])
def test_a_bad_unitcrunch_file_is_one_line(data, words):
    with pytest.raises(InputError, match=words) as e:
        loads(data, "x.txt")
    assert "\n" not in str(e.value)


def test_kills_writes_the_attacker_and_the_target(cli, tmp_path):
    out = tmp_path / "q.txt"
    r = cli("kills", "Necron Warriors", "MEQ", "--to", "unitcrunch",
            "-o", str(out))
    assert r.exit_code == 0, r.output
    me, target = loads(out.read_bytes())
    [m] = me.units[0].model_types
    assert (m.name, m.models, m.toughness, m.save, m.wounds) == ("Necron Warriors", 10, 4, 4, 1)
    assert [(w.name, w.count, w.selected, w.weapon.abilities) for w in m.weapons] == [
        ("Gauss flayer", 10, True, ("lethal hits", "rapid fire 1"))]
    [t] = target.units[0].model_types
    assert (target.name, t.models, t.toughness, t.save, t.wounds, t.weapons) == (
        "MEQ", 5, 4, 3, 2, ())
    assert f"wrote {out}: 2 UnitCrunch profiles" in r.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["--to", "unitcrunch"], "give the file to write with --output FILE"),
    (["--to", "unitcrunch", "-o", "OUT", "--json"], "writes no report (--json is for"),
    (["--to", "unitcrunch", "-o", "OUT", "-t", "GEQ"], "one attacking unit"),
    (["--to", "excel", "-o", "OUT"], "Invalid value for '--to'"),
])
def test_kills_to_unitcrunch_bad_options(cli, tmp_path, args, words):
    args = [str(tmp_path / "o.txt") if a == "OUT" else a for a in args]
    r = cli("kills", "Necron Warriors", "MEQ", *args)
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output
    assert not (tmp_path / "o.txt").exists()


def test_an_existing_file_is_kept_without_force(cli, tmp_path):
    out = tmp_path / "q.txt"
    out.write_text("mine")
    r = cli("kills", "Necron Warriors", "MEQ", "--to", "unitcrunch",
            "-o", str(out))
    assert r.exit_code == 2 and "exists" in r.stderr and out.read_text() == "mine"
    r = cli("kills", "Necron Warriors", "MEQ", "--to", "unitcrunch",
            "-o", str(out), "--force")
    assert r.exit_code == 0 and loads(out.read_bytes())[0].name == "Necron Warriors"


def test_without_msgpack_it_says_how_to_install_it(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "msgpack", None)  # `import msgpack` fails
    out = tmp_path / "q.txt"
    r = cli("kills", "Necron Warriors", "MEQ", "--to", "unitcrunch",
            "-o", str(out))
    assert r.exit_code == 2 and "pip install 'mathhammer[unitcrunch]'" in r.stderr
    assert "Traceback" not in r.output and not out.exists()


@pytest.mark.slow
@needs_data
def test_army_to_unitcrunch_round_trips_every_unit(cli, tmp_path):
    out = tmp_path / "army.txt"
    r = cli("army", str(FIXTURE), "--data", str(BSDATA / "10e"),
            "--to", "unitcrunch", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "UnitCrunch has no ability for hazardous (2 weapons), pistol (6 weapons), " \
           "precision (1 weapon): left out of the file" in r.stderr
    a = load_army(FIXTURE, data=BSDATA / "10e")
    back = loads(out.read_bytes())
    assert [p.name for p in back] == [label for label, _ in a.rows()]
    for p, u in zip(back, a.units, strict=True):
        [cu] = p.units
        assert (cu.name, cu.points) == (u.name, u.points)
        assert sum(m.models for m in cu.model_types) == u.models
        for m, g in zip(cu.model_types, u.unit.groups, strict=True):
            assert (m.name, m.models, m.toughness, m.save, m.wounds, m.invuln) == (
                g.name, g.min_models, g.toughness, g.save, g.wounds, g.invuln)
            assert {w.name: w.count for w in m.weapons} == {
                w.name: w.count or g.min_models for w in g.weapons if not w.optional}
    berzerkers = {w.name: (w.count, w.selected) for w in back[2].units[0].model_types[0].weapons}
    # 8 chainblades, 3 plasma pistols (one profile of the two fires: supercharge against MEQ),
    # 7 bolt pistols, 2 eviscerators, as the list says
    assert berzerkers == {"Chainblade": (8, True), "Plasma pistol - standard": (3, False),
                          "Plasma pistol - supercharge": (3, True), "Bolt pistol": (7, True),
                          "Khornate eviscerator": (2, True)}
    assert back[0].units[0].model_types[0].invuln == 4  # Khârn's 4+ invulnerable save
