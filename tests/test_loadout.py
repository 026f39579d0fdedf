"""Weapon choice (mathhammer.model.loadout): Pistols or the other guns, one melee weapon plus
Extra Attacks, one profile per weapon, counts; through units, unit files, inline rows, the
command line and its JSON. Every value is derived by hand in the comments."""

import json
import os
import warnings
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

import mathhammer as mh
from mathhammer.app.specs import attacker_of
from mathhammer.data.units.file import loads_unit
from mathhammer.data.units.unit import ModelGroup, Unit, UnitWeapon
from mathhammer.engine.attack import value_against
from mathhammer.errors import InputError
from mathhammer.model.loadout import Carried, choose, profile_families

MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"])
GEQ = mh.Target(models=10, toughness=3, save=5, wounds=1, keywords=["INFANTRY"])

RIFLE = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
PISTOL = mh.Weapon("Bolt pistol", attacks=1, skill=3, strength=4, ap=0, damage=1,
                   abilities=["pistol"], range=12)


def unit(*weapons, models=5, keywords=("INFANTRY",), name="Squad"):
    carried = tuple(w if isinstance(w, UnitWeapon) else UnitWeapon(w) for w in weapons)
    return Unit(name, "Test", (ModelGroup(name, models, models, 4, 3, 2, weapons=carried),),
                keywords=keywords)


INTERCESSORS = unit(RIFLE, PISTOL)


def unsaved(attacker, target=MEQ, **kw):
    return mh.attack(list(mh.loadout(attacker, target=target, **kw).fired),
                     target).unsaved.mean()


# ---------------------------------------------------------------------------------- Pistols


def test_intercessors_fire_their_rifles_not_their_pistols():
    # rifles: 10 attacks x 2/3 hit x 1/2 wound (S4 v T4) x 1/2 fail (3+ with AP-1: 4+) = 5/3
    # (rifles and pistols together would be 5/3 + 5/9 = 20/9, what the issue saw)
    out = mh.loadout(INTERCESSORS, target=MEQ)
    assert out.fired == ((RIFLE, 5),)
    assert [x.text for x in out.left_out] == [
        "5x Bolt pistol not fired: the models fire their other ranged weapons"]
    assert unsaved(INTERCESSORS) == Fraction(5, 3)
    # the engine takes the unit itself and chooses against its target; 11e alike
    assert mh.attack(INTERCESSORS, MEQ).unsaved.mean() == Fraction(5, 3)
    assert mh.attack(INTERCESSORS, MEQ, rules="11e").unsaved.mean() == Fraction(5, 3)
    assert mh.loadout(INTERCESSORS, target=MEQ, rules="11e").fired == (
        (RIFLE, 5),)


def test_pistols_forced_in_engagement_range():
    # pistols: 5 attacks x 2/3 x 1/2 x 1/3 fail (3+ with AP0) = 5/9
    out = mh.loadout(INTERCESSORS, target=MEQ, pistols=True)
    assert out.fired == ((PISTOL, 5),)
    assert "--pistols" in out.left_out[0].reason
    assert unsaved(INTERCESSORS, pistols=True) == Fraction(5, 9)


def test_pistols_fire_when_they_are_better():
    # a plasma pistol (A1 S8 AP-3 D2) beats an autopistol-grade gun (A1 S3 AP0 D1) vs MEQ:
    # pistol 2/3 x 5/6 x 5/6 x 2 dmg = 50/54 per model; gun 2/3 x 1/3 x 1/3 = 2/27
    plasma = mh.Weapon("Plasma pistol", attacks=1, skill=3, strength=8, ap=-3, damage=2,
                       abilities=["pistol"], range=12)
    gun = mh.Weapon("Stubber", attacks=1, skill=3, strength=3, ap=0, damage=1)
    out = mh.loadout(unit(gun, plasma), target=MEQ)
    assert out.fired == ((plasma, 5),)
    assert out.left_out[0].reason == "the models fire their Pistols, better against this target"


def test_a_vehicle_fires_pistols_and_guns_together():
    # attacks 5 x 2 + 5 x 1 = 15; unsaved 5/3 + 5/9 = 20/9 (MONSTER and VEHICLE fire both)
    for keyword in ("VEHICLE", "MONSTER"):
        walker = unit(RIFLE, PISTOL, keywords=(keyword, "WALKER"))
        out = mh.loadout(walker, target=MEQ)
        assert out.fired == ((RIFLE, 5), (PISTOL, 5)) and out.left_out == ()
        assert unsaved(walker) == Fraction(20, 9)
        r = mh.attack(out.fired, MEQ)
        assert r.attacks.mean() == 15


def test_a_unit_of_pistols_only_fires_them():
    hexmark = mh.load_unit("Hexmark Destroyer")
    assert [w.name for w, _ in mh.loadout(hexmark, target=MEQ).fired] == [
        "Enmitic disintegrator pistols"]


# ------------------------------------------------------------------------------------ Melee

CLAWS = mh.Weapon("Chitinous claws", attacks=4, skill=4, strength=7, ap=-1, damage=2,
                  range="melee")
TALONS = mh.Weapon("Scything talons", attacks=5, skill=4, strength=7, ap=-2, damage=2,
                   range="melee")
EXTRA = mh.Weapon("Extra scything talons", attacks=1, skill=4, strength=7, ap=-2, damage=2,
                  abilities=["extra attacks"], range="melee")


def test_carnifex_fights_with_one_melee_weapon_and_its_extra_attacks():
    carnifex = unit(CLAWS, TALONS, EXTRA, models=1, keywords=("MONSTER",))
    out = mh.loadout(carnifex, melee=True, target=MEQ)
    # talons per attack: 1/2 hit x 2/3 wound (S7 > T4) x 2/3 fail (3+ with AP-2: 5+) = 2/9,
    # claws: 1/2 x 2/3 x 1/2 (4+) = 1/6; 5 x 2/9 > 4 x 1/6, so the talons, plus the extra ones
    assert out.fired == ((TALONS, 1), (EXTRA, 1))
    assert [x.weapon for x in out.left_out] == ["Chitinous claws"]
    r = mh.attack(out.fired, MEQ)
    # 5 + 1 attacks, not 4 + 5 + 1; unsaved 6 x 2/9 = 4/3
    assert r.attacks.mean() == 6
    assert r.unsaved.mean() == Fraction(4, 3)


def test_melee_weapon_uses_are_at_most_the_models_best_first():
    # 10 models: 2 eviscerators, 8 chainblades, a close combat weapon each: 10 uses in all
    evisc = mh.Weapon("Eviscerator", attacks=3, skill=3, strength=7, ap=-2, damage=2,
                      range="melee")
    blade = mh.Weapon("Chainblade", attacks=4, skill=3, strength=4, ap=-1, damage=1,
                      range="melee")
    ccw = mh.Weapon("Close combat weapon", attacks=3, skill=3, strength=4, ap=0, damage=1,
                    range="melee")
    squad = Unit("Berzerkers", "Test", (ModelGroup("Berzerker", 10, 10, 5, 3, 2, weapons=(
        UnitWeapon(ccw), UnitWeapon(blade, count=8), UnitWeapon(evisc, count=2))),))
    out = mh.loadout(squad, melee=True, target=MEQ)
    assert out.fired == ((blade, 8), (evisc, 2))
    assert [(x.weapon, x.models) for x in out.left_out] == [("Close combat weapon", 10)]
    # with one chainblade less, the tenth model falls back on its close combat weapon
    nine = Unit("Berzerkers", "Test", (ModelGroup("Berzerker", 10, 10, 5, 3, 2, weapons=(
        UnitWeapon(ccw), UnitWeapon(blade, count=7), UnitWeapon(evisc, count=2))),))
    out = mh.loadout(nine, melee=True, target=MEQ)
    assert out.fired == ((ccw, 1), (blade, 7), (evisc, 2))
    assert [(x.weapon, x.models) for x in out.left_out] == [("Close combat weapon", 9)]


# ----------------------------------------------------------------------- several profiles

STANDARD = mh.Weapon("Plasma incinerator - standard", attacks=2, skill=3, strength=7, ap=-2,
                     damage=1)
SUPER = mh.Weapon("Plasma incinerator - supercharge", attacks=2, skill=3, strength=8, ap=-3,
                  damage=2, abilities=["hazardous"])
HELLBLASTERS = unit(STANDARD, SUPER, PISTOL)


def test_a_weapon_of_several_profiles_fires_its_best_one():
    # vs MEQ per attack: standard 2/3 x 2/3 (S7 > T4) x 2/3 (5+) = 8/27, one damage;
    # supercharge 2/3 x 5/6 (S8 = 2T) x 5/6 (6+) = 25/54, two damage: supercharge is better
    out = mh.loadout(HELLBLASTERS, target=MEQ)
    assert out.fired == ((SUPER, 5),)
    reasons = {x.weapon: x.reason for x in out.left_out}
    assert reasons["Plasma incinerator - standard"].startswith(
        "one profile of Plasma incinerator per model")
    assert unsaved(HELLBLASTERS) == 10 * Fraction(25, 54)  # 125/27, never both profiles
    # vs GEQ both profiles do 10/9 damage per model (2 x 2/3 x 5/6, no save, 1 W): a tie goes
    # to the first in the datasheet's order
    assert mh.loadout(HELLBLASTERS, target=GEQ).fired == ((STANDARD, 5),)


def test_one_profile_picked_by_name():
    # -w "Plasma incinerator - standard": 10 x 8/27 = 80/27
    picked = mh.loadout(HELLBLASTERS, weapons=["Plasma incinerator - standard"], target=MEQ)
    assert picked.fired == ((STANDARD, 5),)
    assert unsaved(HELLBLASTERS, weapons=["plasma incinerator - standard"]) == Fraction(80, 27)
    # the weapon's own name picks it, and its best profile fires
    assert mh.loadout(HELLBLASTERS, weapons=["Plasma incinerator"], target=MEQ).fired == (
        (SUPER, 5),)


def test_profile_of_groups_profiles_whatever_their_names():
    strike = mh.Weapon("Strike", attacks=4, skill=3, strength=8, ap=-2, damage=2, range="melee")
    sweep = mh.Weapon("Sweep", attacks=8, skill=3, strength=5, ap=-1, damage=1, range="melee")
    lancer = unit(UnitWeapon(strike, profile_of="Shock lance"),
                  UnitWeapon(sweep, profile_of="Shock lance"), models=1)
    # damage per model vs GEQ (1 W): strike 4 x 2/3 hit x 5/6 wound (S8 >= 2T) x 1 (5+ with
    # AP-2: no save) = 60/27 < sweep 8 x 2/3 x 2/3 (S5 > T3) x 5/6 (6+) = 80/27: the sweep;
    # vs MEQ: strike 4 x 2/3 x 5/6 x 2/3 (5+) x 2 dmg = 80/27 > sweep 8 x 2/3 x 2/3 x 1/2 (4+)
    # = 48/27: the strike
    assert mh.loadout(lancer, melee=True, target=GEQ).fired == ((sweep, 1),)
    assert mh.loadout(lancer, melee=True, target=MEQ).fired == ((strike, 1),)


def test_profile_families_from_names():
    assert profile_families(["A - x", "A – y", "B - z", "C"]) == {"A - x": "A", "A – y": "A"}


# ---------------------------------------------------------------------------------- counts

LASCANNON = mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3, damage="D6+1",
                      range=48)
VS = value_against(MEQ)  # a lone tank's counts: no choice the score decides


def test_counts_on_the_command_line():
    tank = unit(UnitWeapon(LASCANNON, optional=True, count=2), models=1, keywords=("VEHICLE",))
    assert tank.as_profiles(weapons=["Lascannon"], score=VS) == [(LASCANNON, 2)]
    assert tank.as_profiles(weapons=["1x Lascannon"], score=VS) == [(LASCANNON, 1)]
    assert tank.as_profiles(weapons=["Lascannon", "lascannon"], score=VS) == [(LASCANNON, 2)]
    assert tank.as_profiles(weapons=["2x Lascannon"], score=VS) == [(LASCANNON, 2)]
    with pytest.raises(InputError, match=r"^weapons: 3x Lascannon: Squad carries 2 "
                                            r"Lascannon at its size, so at most 2 can fire$"):
        tank.as_profiles(weapons=["3x Lascannon"], score=VS)
    # a weapon of several profiles counts once
    assert mh.loadout(HELLBLASTERS, weapons=["2x Plasma incinerator"], target=MEQ).fired == (
        (SUPER, 2),)


# ------------------------------------------------------------------------------ inline rows


def test_inline_rows_follow_the_pistol_rule():
    rows = ["5x 2 | 3+ | 4 | -1 | 1", "5x 1 | 3+ | 4 | 0 | 1 | pistol"]
    a = attacker_of(rows[0], rows[1:], target=MEQ)
    assert [n for _, n in a.profiles] == [5] and a.profiles[0][0].attacks == "2"
    assert mh.attack(list(a.profiles), MEQ).unsaved.mean() == Fraction(5, 3)
    forced = attacker_of(rows[0], rows[1:], target=MEQ, pistols=True)
    assert mh.attack(list(forced.profiles), MEQ).unsaved.mean() == Fraction(5, 9)
    both = attacker_of(rows[0], rows[1:], target=MEQ, keywords=["VEHICLE"])
    assert mh.attack(list(both.profiles), MEQ).unsaved.mean() == Fraction(20, 9)


def test_choose_keeps_the_datasheet_order():
    value = {"A": Fraction(1), "B": Fraction(3), "X": Fraction(1)}
    a = mh.Weapon("A", attacks=1, skill=3, strength=4, ap=0, damage=1, range="melee")
    b = attrs.evolve(a, name="B")
    x = attrs.evolve(a, name="X", abilities=["extra attacks"])
    out = choose([Carried(x, 1), Carried(a, 1), Carried(b, 1)], [1], lambda w: value[w.name],
                 melee=True)
    assert [w.name for w, _ in out.fired] == ["X", "B"]


# ------------------------------------------------------------------------------- unit files

FILE = '''name = "Plasma Squad"
faction = "Test"
[[models]]
count = 5
toughness = 4
save = "3+"
wounds = 2
[[models.weapons]]
name = "Standard"
profile_of = "Plasma incinerator"
range = 24
attacks = 2
skill = "3+"
strength = 7
ap = -2
damage = 1
[[models.weapons]]
name = "Supercharge"
profile_of = "Plasma incinerator"
range = 24
attacks = 2
skill = "3+"
strength = 8
ap = -3
damage = 2
abilities = ["hazardous"]
'''


def test_unit_files_write_profile_of():
    squad = loads_unit(FILE, "plasma.toml")
    assert [w.profile_of for w in squad.weapons()] == ["Plasma incinerator"] * 2
    assert [w.name for w, _ in mh.loadout(squad, target=MEQ).fired] == ["Supercharge"]
    assert [w.name for w, _ in mh.loadout(squad, weapons=["plasma incinerator"],
                                          target=GEQ).fired] == ["Standard"]


@pytest.mark.parametrize("change, message", [
    (('profile_of = "Plasma incinerator"\nrange = 24\nattacks = 2\nskill = "3+"\nstrength = 8',
      'profile_of = 3\nrange = 24\nattacks = 2\nskill = "3+"\nstrength = 8'),
     r"^plasma.toml: models\[0\].weapons\[1\].profile_of: expected "),
])
def test_unit_file_profile_of_is_checked(change, message):
    with pytest.raises(InputError, match=message):
        loads_unit(FILE.replace(*change), "plasma.toml")


# ---------------------------------------------------------------------------- command line


def test_cli_says_what_is_left_out(cli, tmp_path):
    path = tmp_path / "plasma.toml"
    path.write_text(FILE, encoding="utf-8")
    out = cli.ok("kills", str(path), "MEQ").stdout
    assert "weapons:     5x Supercharge" in out
    assert "left out:    5x Standard not fired: one profile of Plasma incinerator per model" \
        in out
    data = json.loads(cli.ok("kills", str(path), "MEQ", "--json").stdout)
    assert [w["name"] for w in data["weapons"]] == ["Supercharge"]
    assert data["left_out"][0]["text"].startswith("5x Standard not fired: one profile")
    assert {k: v for k, v in data["left_out"][0].items() if k != "reason"} == {
        "weapon": "Standard", "models": 5,
        "text": "5x Standard not fired: " + data["left_out"][0]["reason"]}
    picked = json.loads(cli.ok("kills", str(path), "MEQ", "-w", "Standard", "--json").stdout)
    assert picked["left_out"] == []
    # 10 x 8/27 unsaved
    assert picked["mean"]["unsaved"] == "80/27"


def test_cli_pistols_and_table_per_target(cli):
    rows = ["-w", "5x Rifle | 24\" | 2 | 3+ | 4 | -1 | 1", "-w",
            "5x Pistol | 12\" | 1 | 3+ | 4 | 0 | 1 | pistol"]
    data = json.loads(cli.ok("kills", "MEQ", *rows, "--json").stdout)
    assert data["mean"]["unsaved"] == "5/3"
    assert [x["text"] for x in data["left_out"]] == [
        "5x Pistol not fired: the models fire their other ranged weapons"]
    forced = json.loads(cli.ok("kills", "MEQ", *rows, "--pistols", "--json").stdout)
    assert forced["mean"]["unsaved"] == "5/9"


def test_table_chooses_against_each_target(cli, tmp_path):
    path = tmp_path / "plasma.toml"
    path.write_text(FILE, encoding="utf-8")
    data = json.loads(cli.ok("table", str(path), "-t", "MEQ", "-t", "GEQ", "--format", "json",
                          "--metric", "damage").stdout)
    cells = [Fraction(c["exact"]) for c in data["rows"][0]["values"]]
    squad = loads_unit(FILE, "plasma.toml")
    want = [mh.attack([(squad.weapons()[i].weapon, 5)], t).damage.mean()
            for i, t in ((1, mh.load_unit("MEQ").as_target()),
                         (0, mh.load_unit("GEQ").as_target()))]
    assert cells == want


# ----------------------------------------------------------------- the real data (shared)


def _bsdata() -> Path | None:
    here = Path(__file__).resolve()
    for base in (os.environ.get("MATHHAMMER_SHARED"), here.parents[2] / "shared",
                 here.parents[3] / "shared"):
        if base and (Path(base) / "bsdata" / "10e").is_dir():
            return Path(base) / "bsdata" / "10e"
    return None


@pytest.mark.slow
@pytest.mark.skipif(_bsdata() is None, reason="../shared/bsdata/10e not found")
def test_real_intercessor_squad_fires_its_rifles(cli):
    data = json.loads(cli.ok("kills", "Intercessor Squad", "MEQ", "--data", str(_bsdata()),
                          "--json").stdout)
    assert data["mean"]["unsaved"] == "5/3"  # 10 x 2/3 x 1/2 x 1/2
    assert any("Bolt pistol not fired" in x["text"] for x in data["left_out"])
    forced = json.loads(cli.ok("kills", "Intercessor Squad", "MEQ", "--data", str(_bsdata()),
                            "--pistols", "--json").stdout)
    assert forced["mean"]["unsaved"] == "5/9"  # 5 x 2/3 x 1/2 x 1/3
    # the Carnifex fights with one melee weapon and its extra scything talons
    melee = json.loads(cli.ok("kills", "Tyranids:Carnifex", "MEQ", "--melee", "--data",
                           str(_bsdata()), "--json").stdout)
    fired = melee["weapons"]
    extra = [w for w in fired if "extra attacks" in w["abilities"]]
    assert len(extra) == 1 and len(fired) == 2
    assert Fraction(melee["mean"]["attacks"]) == sum(int(w["attacks"]) for w in fired)
    assert any("one melee weapon" in x["reason"] for x in melee["left_out"])


@pytest.mark.slow
@pytest.mark.skipif(_bsdata() is None, reason="../shared/bsdata/10e not found")
def test_an_attached_attacker_chooses_its_picks_together():
    # -w picks of a unit with its Leader are weighed together: 4 Devastators fire their
    # lascannons, so only the model without one (the sergeant) fires its bolt pistol
    from mathhammer.app.specs import attacker_of

    a = attacker_of("Devastator Squad + Lieutenant", ["4x Lascannon", "Bolt pistol"],
                    data=_bsdata())
    assert [(w.name, n) for w, n in a.profiles] == [
        ("Lascannon", 4), ("Bolt pistol", 1), ("Bolt pistol (Lieutenant)", 1)]
    assert [(x.weapon, x.models) for x in a.left_out] == [("Bolt pistol", 4)]


@pytest.mark.slow
@pytest.mark.skipif(_bsdata() is None, reason="../shared/bsdata/10e not found")
def test_a_weapon_offered_in_two_option_groups_adds_up(cli):
    # a Leman Russ's hull heavy bolter (its hull group: lascannon, heavy bolter or heavy
    # flamer) and its sponsons' "2 Heavy Bolters": 3 (the limit was the larger group's 2)
    data = json.loads(cli.ok("kills", "Leman Russ Battle Tank", "MEQ", "--data",
                             str(_bsdata()), "-w", "3x Heavy bolter", "--json").stdout)
    assert Fraction(data["mean"]["attacks"]) == 9  # 3 heavy bolters x 3 attacks
    r = cli("kills", "Leman Russ Battle Tank", "MEQ", "--data", str(_bsdata()),
            "-w", "4x Heavy bolter")
    assert r.exit_code == 2 and "may take at most 3 Heavy bolter" in r.stderr
    # the Vendetta's two wing twin lascannons (a choice of the data's group) and its hull one
    # (its own entry, 1): 3 fire by default, not 2
    vendetta = json.loads(cli.ok("kills", "Vendetta Gunship", "MEQ", "--data",
                                 str(_bsdata()), "--json").stdout)
    assert [(w["name"], w["models"]) for w in vendetta["weapons"]] == [
        ("Vendetta twin lascannon", 3)]
    # a Hive Tyrant's heavy venom cannon is offered for either arm, but its entry allows one
    # per model (scope model): two is an error
    r = cli("kills", "Hive Tyrant", "MEQ", "--data", str(_bsdata()), "-w", "2x Heavy venom")
    assert r.exit_code == 2 and "carries 1 Heavy venom cannon" in r.stderr


@pytest.mark.slow
@pytest.mark.skipif(_bsdata() is None, reason="../shared/bsdata/10e not found")
def test_a_datasheet_many_catalogues_reach_is_cited_from_its_own_faction():
    # a Leman Russ is reached from Genestealer Cults (Brood Brothers) and Astra Militarum, a
    # Knight Paladin from Adepta Sororitas and Imperial Knights: the lookup names the faction
    # the datasheet says it is (file order put Genestealer Cults and Adepta Sororitas first)
    from mathhammer.data.typed.lookup import find_unit

    for name, home in (("Leman Russ Battle Tank", "Imperium - Astra Militarum.cat"),
                       ("Knight Paladin", "Imperium - Imperial Knights.cat"),
                       ("Intercessor Squad", "Imperium - Space Marines.cat")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert find_unit(name, data=_bsdata().parent).origin.file == home


def test_cli_pistols_errors_and_warnings(cli):
    r = cli("kills", "Cronos", "MEQ", "--melee", "--pistols")
    assert r.exit_code == 0 and "--pistols has no effect with --melee" in r.stderr
    r = cli("kills", "Necron Warriors", "MEQ", "--pistols")
    assert r.exit_code == 2
    assert r.stderr.strip().endswith(
        "Necron Warriors: no weapon fires: 10x Gauss flayer not fired: --pistols: within "
        "Engagement Range the models shoot only their Pistols")
    r = cli("kills", "Cronos", "MEQ", "--attacker-keyword", "VEHICLE")
    assert r.exit_code == 2 and "--attacker-keyword: only for inline weapon rows" in r.stderr
    r = cli("kills", "Cronos", "MEQ", "-w", "3x Spirit vortex")
    assert r.exit_code == 2
    assert "weapons: 3x Spirit vortex: Cronos carries 1 Spirit vortex at its size" in r.stderr


def test_the_reference_target_is_the_bundled_meq():
    from mathhammer.engine.attack import REFERENCE

    assert attrs.evolve(mh.load_unit("MEQ").as_target(), name="MEQ") == REFERENCE
    # without a target the choice is made against it: the rifles (1/3 > 1/9 per model)
    assert mh.loadout(INTERCESSORS).fired == ((RIFLE, 5),)


def _imported(path: Path) -> set[str]:
    """Every module a file imports, at module level or inside a function (absolute names)."""
    import ast

    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if path.name == "__init__.py":
        package += ".__init__"
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            out |= {module} | {f"{module}.{a.name}" for a in node.names}
    return out


PACKAGE = Path(mh.__file__).resolve().parent


def test_the_units_and_the_model_import_no_engine_to_score_weapons():
    # the engine passes its scoring in (engine.attack.value_against); data.unit used to import
    # engine.attack to score weapons, inside weapon_value: attack -> as_profiles -> attack.
    # (The rest of data ranks above the engine, tests/test_layers.py: a rule file's mortal
    # wound roll is the engine's Roll.)
    files = [*(PACKAGE / "data" / "units").rglob("*.py"), *(PACKAGE / "model").rglob("*.py")]
    assert len(files) > 15
    up = {str(f.relative_to(PACKAGE)): sorted(m for m in _imported(f)
                                               if m.startswith("mathhammer.engine"))
          for f in files}
    assert {f: m for f, m in up.items() if m} == {}


@pytest.mark.parametrize("name", [u.name for u in mh.list_units()])
def test_the_librarys_loadout_is_the_engines_choice(name):
    # mh.loadout passes the engine's scoring in against its target (MEQ without one): the
    # same weapons as the unit's loadout given the engine's score, against any target, and
    # mh.attack of the unit is the attack of those weapons
    unit = mh.load_unit(name)
    geq = mh.load_unit("GEQ").as_target()
    for melee in (False, True):
        if not unit.weapons(melee=melee):
            continue
        for target in (None, geq, mh.load_unit("Heavy Vehicle").as_target()):
            chosen = mh.loadout(unit, melee, target=target)
            assert chosen == unit.loadout(melee, score=value_against(target)), (name, melee)
            if chosen.fired:
                assert mh.attack(unit, target or geq, melee=melee).damage == mh.attack(
                    list(unit.loadout(melee, score=value_against(target or geq)).fired),
                    target or geq, melee=melee).damage


def test_a_units_loadout_without_a_score_says_so():
    # the data scores nothing itself (no engine below it, no hook set from above): a loadout
    # asked without a score is a one-line TypeError naming the unit and the two ways to ask
    with pytest.raises(TypeError, match=r"^Squad: weapon choice needs a score \(score="
                                        r"value_against\(target\), .*mathhammer\.loadout"):
        INTERCESSORS.loadout()
    with pytest.raises(TypeError, match="^Squad: weapon choice needs a score"):
        INTERCESSORS.as_profiles(melee=False)


def test_the_units_import_no_engine():
    # importing the data's units (and reading a unit) loads no module of the engine, nor the
    # package root's curated API: nothing below the engine needs it
    import subprocess
    import sys

    code = ("import sys; from mathhammer.data.units.bundled import load_unit; "
            "load_unit('Cronos').weapons(); "
            "print(sorted(m for m in sys.modules if m.startswith(('mathhammer.engine', "
            "'mathhammer.mechanics', 'mathhammer.library', 'mathhammer.app'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)})
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_models_without_another_gun_fire_their_pistols():
    # 10 models: 9 bolt pistols and a plasma pistol; 7 ion blasters, a missile launcher and a
    # rail rifle: 9 guns, so one model has only a Pistol: it fires the plasma pistol (the best
    # first); the nine others fire their guns, not their bolt pistols
    plasma = mh.Weapon("Plasma pistol", attacks=1, skill=3, strength=8, ap=-3, damage=2,
                       abilities=["pistol"], range=12)
    blaster = mh.Weapon("Ion blaster", attacks=2, skill=4, strength=5, ap=-1, damage=1)
    rail = mh.Weapon("Rail rifle", attacks=1, skill=4, strength=9, ap=-4, damage=3)
    launcher = mh.Weapon("Missile launcher", attacks=1, skill=4, strength=9, ap=-2, damage="D6")
    squad = Unit("Warriors", "Test", (ModelGroup("Warrior", 10, 10, 4, 4, 1, weapons=(
        UnitWeapon(PISTOL, count=9), UnitWeapon(blaster, count=7), UnitWeapon(plasma, count=1),
        UnitWeapon(launcher, count=1), UnitWeapon(rail, count=1))),))
    out = mh.loadout(squad, target=MEQ)
    assert out.fired == ((blaster, 7), (plasma, 1), (launcher, 1), (rail, 1))
    assert [x.text for x in out.left_out] == [
        "9x Bolt pistol not fired: the models fire their other ranged weapons"]
    # with 8 guns two models have only Pistols: the plasma pistol and one bolt pistol fire
    fewer = attrs.evolve(squad, groups=(attrs.evolve(squad.groups[0], weapons=tuple(
        attrs.evolve(w, count=6) if w.weapon is blaster else w
        for w in squad.groups[0].weapons)),))
    out = mh.loadout(fewer, target=MEQ)
    assert out.fired == ((PISTOL, 1), (blaster, 6), (plasma, 1), (launcher, 1), (rail, 1))
    assert [x.text for x in out.left_out] == [
        "8x Bolt pistol not fired: the models fire their other ranged weapons"]


SWORD_ROW = "5x Sword | Melee | 3 | 3+ | 4 | 0 | 1"
AXE_ROW = "5x Axe | Melee | 2 | 3+ | 5 | -1 | 1"


def test_inline_melee_rows_are_one_group_one_weapon_each():
    # the QA case: 5 swords and 5 axes are the same 5 models' weapons, one fights per model.
    # Per model against GEQ (T3, Sv5+): Sword 3 x 2/3 hit x 2/3 wound (S4 v T3) x 2/3 unsaved
    # (5+) = 8/9; Axe 2 x 2/3 x 2/3 (S5 v T3) x 5/6 (AP-1: 6+) = 20/27 < 8/9: the swords fight
    a = attacker_of(SWORD_ROW, [AXE_ROW], melee=True, target=GEQ)
    assert [(w.name, n) for w, n in a.profiles] == [("Sword", 5)]
    assert [x.text for x in a.left_out] == [
        "5x Axe not fired: each model fights with one melee weapon (and its Extra Attacks "
        "weapons); a better one is used"]
    r = mh.attack(list(a.profiles), GEQ)
    assert r.attacks.mean() == 15 and r.unsaved.mean() == Fraction(40, 9)  # 5 x 3; 5 x 8/9
    # against MEQ (T4, Sv3+) the axes are better: Sword 3 x 2/3 x 1/2 x 1/3 = 1/3, Axe
    # 2 x 2/3 x 2/3 (S5 v T4) x 1/2 (AP-1: 4+) = 4/9
    a = attacker_of(SWORD_ROW, [AXE_ROW], melee=True, target=MEQ)
    assert [(w.name, n) for w, n in a.profiles] == [("Axe", 5)]
    assert [x.models for x in a.left_out] == [5]


def test_inline_melee_rows_of_other_sizes_fill_the_largest_row():
    # as for Pistols: one group as many as the largest row (5); a tie at 1/3 per model against
    # MEQ (5x: 3 x 2/3 x 1/2 x 1/3; 2x: 2 x 1/2 x 2/3 x 1/2) goes to the first row
    a = attacker_of("5x 3 | 3+ | 4 | 0 | 1", ["2x 2 | 4+ | 5 | -1 | 1"], melee=True, target=MEQ)
    assert [n for _, n in a.profiles] == [5] and [x.models for x in a.left_out] == [2]
    # a better small row (a sergeant's fist) takes its models, the others fill the rest:
    # fist 1 x 3 x 2/3 x 5/6 (S8 v T4) x 2/3 (AP-2: 5+) x D2 = 20/27 per model > 1/3
    a = attacker_of("5x 3 | 3+ | 4 | 0 | 1", ["1x Fist | Melee | 3 | 3+ | 8 | -2 | 2"],
                    melee=True, target=MEQ)
    assert [(w.name, n) for w, n in a.profiles] == [("A3 3+ S4 AP0 D1", 4), ("Fist", 1)]
    assert [(x.weapon, x.models) for x in a.left_out] == [("A3 3+ S4 AP0 D1", 1)]
    assert mh.attack(list(a.profiles), MEQ).attacks.mean() == 15  # 4 x 3 + 1 x 3


def test_inline_extra_attacks_rows_fight_besides():
    # an [extra attacks] row fights as well as each model's one melee weapon: 5 x 3 + 5 x 1
    a = attacker_of(SWORD_ROW, ["5x Jaws | Melee | 1 | 4+ | 4 | 0 | 1 | extra attacks"],
                    melee=True, target=GEQ)
    assert [(w.name, n) for w, n in a.profiles] == [("Sword", 5), ("Jaws", 5)]
    assert a.left_out == ()
    assert mh.attack(list(a.profiles), GEQ).attacks.mean() == 20


def test_inline_melee_rows_on_the_command_line(cli):
    result = cli("kills", "GEQ", "--melee", "-w", SWORD_ROW, "-w",
                                      AXE_ROW, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [(w["name"], w["models"]) for w in data["weapons"]] == [("Sword", 5)]
    assert [x["models"] for x in data["left_out"]] == [5]
    # 5 x 3 attacks x 2/3 hit x 2/3 wound (S4 v T3) x 2/3 unsaved (5+) = 40/9
    assert data["mean"]["attacks"] == "15/1" and data["mean"]["unsaved"] == "40/9"
