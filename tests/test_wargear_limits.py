"""Weapon counts that follow the unit's size and the datasheet's option limits
(:mod:`mathhammer.data.bsdata.options`, ``UnitWeapon.counts``/``.max``), on the fixture catalogue
(``tests/fixtures/bsdata``: Gun Squad is Devastator-like, Launcher Squad has two options of 1
per 5 models) and on the shared data (slow; skipped when ``../shared/bsdata`` is not there).

Hand arithmetic against MEQ (T4 Sv3+ W2), E[unsaved wounds] per attack:
- Heavy gun (BS4+ S5 AP-1): 1/2 hit x 2/3 wound (S5 vs T4: 3+) x 1/2 unsaved (4+) = 1/6
- Rifle (BS3+ S4 AP-1): 2/3 x 1/2 (4+) x 1/2 (4+) = 1/6
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from mathhammer.data.bsdata import catalogue_unit_dict, load_catalogue_unit
from mathhammer.data.units.file import loads_unit
from mathhammer.data.units.serial import from_json, to_json
from mathhammer.engine.attack import attack, value_against
from mathhammer.errors import InputError
from mathhammer.model.profiles import Target

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


FIXTURES = Path(__file__).parent / "fixtures" / "bsdata"
FACTION = FIXTURES / "Fixture Faction.cat"
ROOT = next((p for p in (Path(os.environ.get("MATHHAMMER_BSDATA", "/nonexistent")),
                         *(Path(__file__).resolve().parents[i] / "shared" / "bsdata"
                           for i in (2, 3))) if (p / "10e").is_dir()),
            Path("../shared/bsdata"))  # a clone at /work/main, or a worktree one level deeper
MEQ = Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])


def fired(unit, **kw) -> list[tuple[str, int]]:
    return [(w.name, n) for w, n in unit.as_profiles(**kw, score=VS_MEQ)]


def table(raw: dict) -> dict[str, tuple]:
    return {w["name"]: (w.get("count"), w.get("max"), w.get("optional", False))
            for g in raw["models"] for w in g.get("weapons", [])}


# ----------------------------------------------------------------------- what the data says


def test_slots_stay_and_the_rest_of_the_squad_grows():
    raw, notes = catalogue_unit_dict(FACTION, "Gun Squad")
    # "Marine w/ Heavy Gun" has max 4: 4 heavy guns at every size; the riflemen are the rest
    # (0 at 5 models, 5 at 10) and the Sergeant's rifle: 1..6 rifles from 5 to 10 models
    assert table(raw) == {
        "Heavy gun": (4, 4, False),
        "Plasma gun - standard": (None, 5, True),  # 4 heavy gunners and the Sergeant
        "Plasma gun - supercharge": (None, 5, True),
        "Rifle": ([1, 2, 3, 4, 5, 6], None, False),
    }
    unit = load_catalogue_unit(f"{FACTION}:Gun Squad")
    assert fired(unit) == [("Heavy gun", 4), ("Rifle", 1)]
    assert fired(unit, models=7) == [("Heavy gun", 4), ("Rifle", 3)]
    assert fired(unit, models=10) == [("Heavy gun", 4), ("Rifle", 6)]  # was 8 and 2


def test_ten_of_the_squad_against_meq_by_hand():
    unit = load_catalogue_unit(f"{FACTION}:Gun Squad")
    r = attack(unit.as_profiles(models=10, score=VS_MEQ), MEQ)
    # 4 heavy guns x 3 attacks x 1/6 + 6 rifles x 2 attacks x 1/6 = 2 + 2
    assert r.unsaved.mean() == 4
    assert r.attacks.mean() == 24
    # hits: 12 x 1/2 + 12 x 2/3 = 14
    assert r.hits.mean() == 14
    # before: 8 heavy guns and 2 rifles would have been 24/6 + 4/6 = 14/3
    assert Fraction(14, 3) != r.unsaved.mean()


def test_one_per_five_models_at_five_and_ten():
    raw, _ = catalogue_unit_dict(FACTION, "Launcher Squad")
    # Launcher: a unit-wide max of 2 and the error "Max 1 {this} per 5 models";
    # Flamer: its model's max 0 raised by 1 for every 5 models (a repeat)
    assert table(raw) == {"Rifle": (None, None, False),
                          "Launcher": (None, [1, 1, 1, 1, 1, 2], True),
                          "Flamer": (None, [1, 1, 1, 1, 1, 2], True)}
    unit = load_catalogue_unit(f"{FACTION}:Launcher Squad")
    assert fired(unit) == [("Rifle", 5)]
    assert fired(unit, weapons=["Launcher"]) == [("Launcher", 1)]  # as many as may: 1 at 5
    assert fired(unit, weapons=["Launcher"], models=9) == [("Launcher", 1)]
    assert fired(unit, weapons=["Launcher"], models=10) == [("Launcher", 2)]
    assert fired(unit, weapons=["2x Launcher", "2x Flamer"], models=10) == [
        ("Launcher", 2), ("Flamer", 2)]
    with pytest.raises(InputError, match=r"^weapons: 2x Launcher: Launcher Squad may take at "
                                         r"most 1 Launcher in 5 models \(the datasheet's "
                                         r"wargear options\)$"):
        unit.as_profiles(weapons=["2x Launcher"], score=VS_MEQ)
    with pytest.raises(InputError, match="may take at most 2 Flamer in 10 models"):
        unit.as_profiles(weapons=["Flamer", "Flamer", "Flamer"], models=10, score=VS_MEQ)


def test_over_the_max_on_the_command_line_is_one_line(cli):
    res = cli("kills", f"{FACTION}:Gun Squad", "MEQ",
                                   "-w", "5x Heavy gun")
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [
        "mathhammer: error: weapons: 5x Heavy gun: Gun Squad may take at most 4 Heavy gun in "
        "5 models (the datasheet's wargear options)"]
    res = cli("kills", f"{FACTION}:Gun Squad", "MEQ",
                                   "-w", "4x Heavy gun", "--json")
    assert res.exit_code == 0, res.output
    # 4 x 3 attacks x 1/6
    assert Fraction(json.loads(res.stdout)["mean"]["unsaved"]) == 2


def test_a_shared_slot_caps_the_sum_of_its_weapons():
    raw, _ = catalogue_unit_dict(FACTION, "Slot Squad")
    # the group "Special weapon" (max 1 per Slot Gunner) holds Melta gun and Grav gun; the
    # Gunner's max 0 is raised by 1 per 5 models: 1 slot at 5-9 models, 2 at 10; each gun
    # alone may also fill every slot, so its own max is the same
    slots = {w["name"]: (w.get("slot"), w.get("slot_max"), w.get("max"))
             for w in raw["models"][0]["weapons"]}
    by_size = [1, 1, 1, 1, 1, 2]
    assert slots == {"Rifle": (None, None, None),
                     "Melta gun": ("Special weapon", by_size, by_size),
                     "Grav gun": ("Special weapon", by_size, by_size)}
    unit = load_catalogue_unit(f"{FACTION}:Slot Squad")
    with pytest.raises(InputError, match=r"^weapons: Slot Squad has 1 'Special weapon' slot in 5 "
                                         r"models \(the datasheet's wargear options\), but "
                                         r"Melta gun 1 \+ Grav gun 1 = 2 were picked$"):
        unit.as_profiles(weapons=["Melta gun", "Grav gun"], score=VS_MEQ)
    with pytest.raises(InputError, match=r"2 'Special weapon' slots in 10 models.*Melta gun 2 "
                                         r"\+ Grav gun 1 = 3 were picked$"):
        unit.as_profiles(weapons=["2x Melta gun", "1x Grav gun"], models=10, score=VS_MEQ)
    assert fired(unit, weapons=["2x Melta gun"], models=10) == [("Melta gun", 2)]
    both = unit.as_profiles(weapons=["1x Melta gun", "1x Grav gun"], models=10, score=VS_MEQ)
    assert [(w.name, n) for w, n in both] == [("Melta gun", 1), ("Grav gun", 1)]
    # Melta gun (A1 BS3+ S9 AP-4): 2/3 hit x 5/6 wound (S9 >= 2 x T4: 2+) x 1 (no save left)
    # = 5/9; Grav gun (A2 BS3+ S5 AP-3): 2 x 2/3 x 2/3 (3+) x 5/6 (6+ save) = 20/27
    assert attack(both, MEQ).unsaved.mean() == Fraction(5, 9) + Fraction(20, 27)


def test_over_a_shared_slot_on_the_command_line_is_one_line(cli):
    res = cli("kills", f"{FACTION}:Slot Squad", "MEQ", "--models", "10",
                                   "-w", "2x Grav gun", "-w", "Melta gun")
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [
        "mathhammer: error: weapons: Slot Squad has 2 'Special weapon' slots in 10 models (the "
        "datasheet's wargear options), but Grav gun 2 + Melta gun 2 = 4 were picked"]


# ------------------------------------------------------------------ unit files and the store


def test_unit_files_carry_counts_and_maxima_by_size():
    text = """
name = "Squad"
faction = "Test"
[[models]]
count = [5, 10]
toughness = 4
save = "3+"
wounds = 2
[[models.weapons]]
name = "Heavy gun"
range = 36
attacks = 3
skill = "4+"
strength = 5
ap = -1
damage = 2
count = 4
max = 4
[[models.weapons]]
name = "Rifle"
range = 24
attacks = 2
skill = "3+"
strength = 4
ap = -1
damage = 1
count = [1, 2, 3, 4, 5, 6]
"""
    unit = loads_unit(text)
    assert fired(unit, models=10) == [("Heavy gun", 4), ("Rifle", 6)]
    assert from_json(json.loads(json.dumps(to_json(unit)))) == unit  # the store keeps them
    slotted = text.replace("max = 4",
                           'max = 4\nslot = "Heavy weapon"\nslot_max = [4, 4, 4, 4, 4, 5]')
    unit = loads_unit(slotted)
    assert unit.groups[0].weapons[0].slot_max_at(10, 5) == 5
    assert from_json(json.loads(json.dumps(to_json(unit)))) == unit
    with pytest.raises(InputError, match=r"slot and slot_max go together"):
        loads_unit(text.replace("max = 4", 'max = 4\nslot = "Heavy weapon"'))
    bad = text.replace("max = 4", "max = -1")
    with pytest.raises(InputError, match=r"max: expected an integer >= 0, got -1"):
        loads_unit(bad)
    bad = text.replace("count = [1, 2, 3, 4, 5, 6]", 'count = [1, "x"]')
    with pytest.raises(InputError, match=r"count\[1\]: expected an integer >= 0"):
        loads_unit(bad)


# ----------------------------------------------------------------------------- the real data


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "10e").is_dir(), reason=f"shared data not found at {ROOT}")
def test_ten_devastators_fire_four_heavy_bolters():
    marines = ROOT / "10e" / "Imperium - Space Marines.cat"
    unit = load_catalogue_unit(f"{marines}:Devastator Squad")
    shots = unit.as_profiles(models=10, score=VS_MEQ)
    assert [(w.name, n) for w, n in shots] == [("Heavy Bolter", 4), ("Boltgun", 6)]
    r = attack(shots, MEQ)
    # Heavy bolter (A3 BS4+ S5 AP-1 D2, Sustained Hits 1): hits 1/2 + 1/6 (a 6 adds one) =
    # 2/3, wounds 2/3, unsaved 1/2: 2/9 per attack, 12 attacks = 8/3; boltgun (A2 BS3+ S4 AP0):
    # 2/3 x 1/2 x 1/3 = 1/9 per attack, 12 attacks = 4/3; in all 4 (8 heavy bolters and 2
    # boltguns, as before, made 52/9)
    assert r.unsaved.mean() == 4
    with pytest.raises(InputError, match="5x Lascannon: Devastator Squad may take at most 4 "
                                         "Lascannon in 5 models"):
        unit.as_profiles(weapons=["5x Lascannon"], score=VS_MEQ)
    assert [(w.name, n) for w, n in unit.as_profiles(weapons=["Lascannon"], models=10,
                                                     score=VS_MEQ)] == [("Lascannon", 4)]
    # the heavy weapons share 4 slots ("Weapon Option", one per heavy gunner, 4 at most)
    with pytest.raises(InputError, match=r"^weapons: Devastator Squad has 4 'Weapon Option' "
                                         r"slots in 5 models .* Lascannon 4 \+ Heavy Bolter 4 = 8"):
        unit.as_profiles(weapons=["4x Lascannon", "4x Heavy Bolter"], score=VS_MEQ)
    two = unit.as_profiles(weapons=["2x Lascannon", "2x Heavy Bolter"], score=VS_MEQ)
    assert [(w.name, n) for w, n in two] == [("Lascannon", 2), ("Heavy Bolter", 2)]
    # Lascannon (A1 BS4+ S12 AP-3 D6+1): 1/2 x 5/6 (S12 >= 8: 2+) x 5/6 (6+ save) = 25/72;
    # two = 25/36; two heavy bolters (above: 2/9 per attack, 3 attacks) = 4/3; in all 73/36
    assert attack(two, MEQ).unsaved.mean() == Fraction(73, 36)
    # a Predator's sponsons: one choice of "2 Lascannons" or "2 Heavy Bolters": 2 weapons
    predator = load_catalogue_unit(f"{marines}:Predator Annihilator")
    with pytest.raises(InputError, match=r"2 'Sponson Weapons' slots in 1 model .* Lascannon 2 "
                                         r"\+ Heavy Bolter 2 = 4 were picked$"):
        predator.as_profiles(weapons=["2x Lascannon", "2x Heavy Bolter"], score=VS_MEQ)
    assert [(w.name, n) for w, n in predator.as_profiles(weapons=["2x Lascannon"],
                                                         score=VS_MEQ)] == [("Lascannon", 2)]
    intercessors = load_catalogue_unit(f"{marines}:Intercessor Squad")
    launcher = [w for w in intercessors.groups[0].weapons if w.name.startswith("Astartes gre")]
    assert [(w.max_at(5, 5), w.max_at(10, 5)) for w in launcher] == [(1, 2), (1, 2)]
