"""Unit files: every shipped file loads to the seed statlines, the engine contract, validation."""

from __future__ import annotations

import doctest
import re
from fractions import Fraction
from pathlib import Path

import attrs
import pytest

import mathhammer as mh
from mathhammer.data.units.bundled import list_units, load_unit, unit_files
from mathhammer.data.units.file import loads_unit
from mathhammer.data.units.unit import ModelGroup, Unit
from mathhammer.engine.attack import value_against
from mathhammer.resources import data_dir

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "units"
STATLINES_MD = ROOT.parent / "shared" / "statlines.md"

# From shared/statlines.md: M, T, Sv, W, Ld, OC, invulnerable, Feel No Pain, models, points.
STATLINES = {
    "Hexmark Destroyer": (8, 5, 3, 5, 6, 1, None, None, (1, 1), ((1, 70),)),
    "Cronos": (7, 7, 3, 7, 7, 2, None, 5, (1, 2), ((1, 55), (2, 100))),
    "Skitarii Marshal": (6, 3, 4, 3, 6, 1, 5, None, (1, 1), ((1, 35),)),
}
# From shared/statlines.md ("weapons as printed in the seeds"): name, range, A, BS/WS, S, AP, D,
# abilities; plus whether the weapon is optional wargear.
WEAPONS = {
    "Hexmark Destroyer": [
        ("Enmitic disintegrator pistols", 18, "6", 2, 6, -2, "1", ("pistol", "ignores cover"),
         False),
        ("Close combat weapon", "melee", "4", 3, 5, 0, "1", (), False),
    ],
    "Cronos": [
        ("Spirit syphon", 12, "D6", None, 5, -1, "1", ("ignores cover", "torrent"), False),
        ("Spirit vortex", 18, "D6", 3, 5, -1, "1", ("blast", "ignores cover"), True),
        ("Spirit-leech tentacles", "melee", "6", 3, 5, -1, "1", ("anti-infantry 2+",), False),
    ],
    "Skitarii Marshal": [
        ("Mechanicus pistol", 12, "1", 3, 6, -1, "1", ("devastating wounds", "pistol"), False),
        ("Control stave", "melee", "4", 3, 6, -1, "1", (), False),
    ],
}
# The standard targets the issue asks for: models, T, Sv, invuln, W, FNP, a keyword.
ARCHETYPES = {
    "GEQ": ((10, 10), 3, 5, None, 1, None, "INFANTRY"),
    "MEQ": ((5, 5), 4, 3, None, 2, None, "INFANTRY"),
    "TEQ": ((5, 5), 5, 2, 4, 3, None, "INFANTRY"),
    "HEQ": ((5, 5), 6, 3, None, 3, 5, "INFANTRY"),
    "Necron Warriors": ((10, 20), 4, 4, None, 1, None, "INFANTRY"),
    "Light vehicle": ((1, 1), 9, 3, None, 10, None, "VEHICLE"),
    "Heavy vehicle": ((1, 1), 12, 2, None, 16, None, "VEHICLE"),
    "Monster": ((1, 1), 10, 2, 4, 14, None, "MONSTER"),
    "Knight": ((1, 1), 11, 3, 5, 22, None, "VEHICLE"),
}


def weapon_rows(unit: Unit) -> list[tuple]:
    return [(w.name, w.weapon.range, w.weapon.attacks, w.weapon.skill, w.weapon.strength,
             w.weapon.ap, w.weapon.damage, w.weapon.abilities, w.optional)
            for w in unit.weapons()]


def group_stats(g: ModelGroup) -> tuple:
    return (g.move, g.toughness, g.save, g.wounds, g.leadership, g.oc, g.invuln, g.fnp,
            (g.min_models, g.max_models))


# ---------------------------------------------------------------------------------------------
# The shipped files


def test_every_shipped_file_loads_and_is_usable():
    files = unit_files()
    assert len(files) >= 12  # 3 seed datasheets + 9 standard targets
    for path in files:
        unit = load_unit(path)
        assert unit.path == path.resolve()
        t = unit.as_target()
        assert t.models == unit.groups[0].min_models and t.toughness == unit.groups[0].toughness
        for melee in (False, True):
            if unit.weapons(melee):
                pairs = unit.as_profiles(melee=melee, score=VS_MEQ)
                assert pairs and all(w.melee == melee and n >= 1 for w, n in pairs)
        # round trip: loading by name finds the same unit
        assert load_unit(unit.name) == unit


def test_names_and_aliases_are_unique():
    seen: dict[str, str] = {}
    for path in unit_files():
        unit = load_unit(path)
        for key in (unit.name, *unit.aliases, path.stem):
            k = " ".join(key.lower().replace("-", " ").split())
            assert seen.setdefault(k, unit.name) == unit.name, (key, seen[k], unit.name)


@pytest.mark.parametrize("name", sorted(STATLINES))
def test_seed_datasheet_statline(name):
    unit = load_unit(name)
    m, t, sv, w, ld, oc, inv, fnp, size, points = STATLINES[name]
    assert unit.name == name and not unit.archetype
    assert len(unit.groups) == 1
    assert group_stats(unit.groups[0]) == (m, t, sv, w, ld, oc, inv, fnp, size)
    assert unit.points == points


@pytest.mark.parametrize("name", sorted(WEAPONS))
def test_seed_datasheet_weapons(name):
    assert weapon_rows(load_unit(name)) == WEAPONS[name]


def test_seed_datasheet_abilities():
    hexmark, cronos, marshal = (load_unit(n) for n in STATLINES)
    assert hexmark.core == ("Deep Strike", "Lone Operative") and hexmark.reanimation
    assert hexmark.keywords == ("INFANTRY", "CHARACTER", "DESTROYER CULT", "HEXMARK DESTROYER")
    assert cronos.deadly_demise == "1" and cronos.groups[0].fnp == 5 and not cronos.reanimation
    assert "MONSTER" in cronos.keywords and cronos.faction_keywords == ("DRUKHARI",)
    assert marshal.leader and marshal.leads == ("Skitarii Rangers", "Skitarii Vanguard")
    assert marshal.groups[0].invuln == 5 and not marshal.stealth
    assert [u.faction for u in (hexmark, cronos, marshal)] == [
        "Necrons", "Drukhari", "Adeptus Mechanicus"]


def _md_table(text: str, header: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(header))
    rows = []
    for ln in lines[start + 2:]:
        if not ln.startswith("|"):
            break
        rows.append([c.strip() for c in ln.strip().strip("|").split("|")])
    return rows


def _xplus(cell: str) -> int | None:
    return None if cell in ("–", "-", "N/A", "") else int(cell.rstrip("+"))


@pytest.mark.skipif(not STATLINES_MD.is_file(), reason="shared/statlines.md not beside the repo")
def test_tables_here_match_statlines_md():
    """The tables above are statlines.md; the bundled files equal them (checked above)."""
    text = STATLINES_MD.read_text(encoding="utf-8")
    for row in _md_table(text, "| unit | M |"):
        m, t, sv, w, ld, oc, inv = row[1:8]
        expect = STATLINES[row[0]]
        assert (int(m.rstrip('"')), int(t), _xplus(sv), int(w), _xplus(ld), int(oc),
                _xplus(inv)) == expect[:7]
        fnp = re.search(r"Feel No Pain (\d)\+", row[8])
        assert (int(fnp.group(1)) if fnp else None) == expect[7]
        costs = [int(c) for c in re.findall(r"(\d+)(?: /|\s*pts)", row[8])]
        assert costs == [cost for _, cost in expect[9]]
    rows = _md_table(text, "| unit | weapon |")
    assert len(rows) == sum(len(v) for v in WEAPONS.values())
    for unit, name, rng, a, skill, s, ap, d, abilities in rows:
        mine = next(r for r in WEAPONS[unit] if r[0] == name)
        printed = (name, "melee" if rng == "Melee" else int(rng.rstrip('"')), a, _xplus(skill),
                   int(s), int(ap), d, tuple(x.strip() for x in abilities.split(",") if x.strip()))
        assert printed == mine[:8]


@pytest.mark.parametrize("name", sorted(ARCHETYPES))
def test_standard_targets(name):
    unit = load_unit(name)
    size, t, sv, inv, w, fnp, keyword = ARCHETYPES[name]
    g = unit.groups[0]
    assert unit.archetype
    assert ((g.min_models, g.max_models), g.toughness, g.save, g.invuln, g.wounds, g.fnp) == (
        size, t, sv, inv, w, fnp)
    target = unit.as_target()
    assert (target.models, target.toughness, target.save, target.invuln, target.wounds,
            target.fnp) == (size[0], t, sv, inv, w, fnp)
    assert keyword in target.keywords and target.name == name


def test_necron_warriors_reanimate_and_have_a_datasheet():
    warriors = load_unit("necron warriors")
    assert warriors.reanimation and warriors.points == ((10, 90), (20, 200))
    # the reaper is optional
    assert [w.name for w, _ in warriors.as_profiles(score=VS_MEQ)] == ["Gauss flayer"]
    assert warriors.as_profiles(weapons=["gauss r"], score=VS_MEQ) == [
        (warriors.weapons()[1].weapon, 10)]


# ---------------------------------------------------------------------------------------------
# Finding units


def test_load_by_prefix_alias_stem_and_path():
    assert load_unit("hex").name == "Hexmark Destroyer"
    assert load_unit("SKITARII").name == "Skitarii Marshal"
    assert load_unit("guardsmen").name == "GEQ"
    assert load_unit("hexmark-destroyer").name == "Hexmark Destroyer"  # the file name
    assert load_unit("knight-sized").name == "Knight"
    path = data_dir("units") / "drukhari" / "cronos.toml"
    assert load_unit(path).name == load_unit(str(path)).name == "Cronos"
    unit = load_unit("MEQ")
    assert load_unit(unit) is unit


def test_exact_name_beats_prefix():
    # "Monster" is a name and also a prefix of the alias "Monster equivalent" of the same unit;
    # "MEQ" is exact while "m" is a prefix of several units
    assert load_unit("monster").name == "Monster"
    assert load_unit("meq").name == "MEQ"


def test_unknown_and_ambiguous_names():
    with pytest.raises(ValueError,
                       match=r'^unknown unit "Hexmrk"; did you mean Hexmark Destroyer\?$'):
        load_unit("Hexmrk")
    with pytest.raises(ValueError, match=r'^ambiguous unit "m": matches MEQ, Monster$'):
        load_unit("m")
    with pytest.raises(ValueError, match=r'^ambiguous unit "heavy": matches Heavy vehicle, HEQ$'):
        load_unit("heavy")
    with pytest.raises(ValueError, match=r"^unknown unit \"zzzz\"; known: .*Cronos.*TEQ"):
        load_unit("zzzz")
    with pytest.raises(ValueError, match=r"nope\.toml: no such unit file$"):
        load_unit("nope.toml")


def test_list_units_filters():
    assert [u.name for u in list_units(faction="adeptus-mechanicus")] == ["Skitarii Marshal"]
    assert [u.name for u in list_units(faction="NECRONS")] == ["Hexmark Destroyer",
                                                              "Necron Warriors"]
    assert [u.name for u in list_units(search="eq")] == ["GEQ", "HEQ", "Knight", "Light vehicle",
                                                        "MEQ", "Monster", "TEQ"]
    assert [u.name for u in list_units(archetype=False)] == ["Skitarii Marshal", "Cronos",
                                                            "Hexmark Destroyer"]
    assert len(list_units(archetype=True)) == 9
    assert len(list_units()) == len(unit_files())
    assert list_units(faction="Orks") == []


# ---------------------------------------------------------------------------------------------
# The engine contract


def test_as_profiles_default_selection_and_order():
    cronos = load_unit("Cronos")
    syphon, vortex, tentacles = (w.weapon for w in cronos.weapons())
    assert cronos.as_profiles(score=VS_MEQ) == [(syphon, 1)]  # the optional vortex is left out
    assert cronos.as_profiles(melee=True, models=2, score=VS_MEQ) == [(tentacles, 2)]
    assert cronos.as_profiles(weapons=["SPIRIT V", "spirit syphon"], score=VS_MEQ) == [
        (vortex, 1), (syphon, 1)]
    # a name given twice asks for two: one Cronos carries one vortex, two carry two
    assert cronos.as_profiles(weapons=["spirit vortex", "Spirit vortex"], models=2,
                              score=VS_MEQ) == [
        (vortex, 2)]
    assert cronos.as_profiles(weapons=["1x spirit vortex"], models=2, score=VS_MEQ) == [(vortex, 1)]
    assert cronos.as_profiles(weapons="spirit s", score=VS_MEQ) == [(syphon, 1)]


def test_as_profiles_errors():
    cronos = load_unit("Cronos")
    with pytest.raises(ValueError, match=r'^weapons: "spirit" is ambiguous for Cronos: '
                                         r"matches Spirit syphon, Spirit vortex$"):
        cronos.as_profiles(weapons=["spirit"], score=VS_MEQ)
    with pytest.raises(ValueError, match=r'^weapons: Cronos has no ranged weapon "Spirit-leech"; '
                                         r"ranged weapons: Spirit syphon, Spirit vortex "
                                         r"\(Spirit-leech tentacles is a melee weapon\)$"):
        cronos.as_profiles(weapons=["Spirit-leech"], score=VS_MEQ)
    with pytest.raises(ValueError, match=r'^weapons: Cronos has no melee weapon "claws"; '
                                         r"melee weapons: Spirit-leech tentacles$"):
        cronos.as_profiles(melee=True, weapons=["claws"], score=VS_MEQ)
    with pytest.raises(ValueError, match=r"^models: expected an integer from 1 to 2 for Cronos, "
                                         r"got 3$"):
        cronos.as_profiles(models=3, score=VS_MEQ)
    with pytest.raises(ValueError, match=r"^weapons: 2x Spirit vortex: Cronos carries 1 Spirit "
                                         r"vortex at its size, so at most 1 can fire$"):
        cronos.as_profiles(weapons=["Spirit vortex", "Spirit vortex"], score=VS_MEQ)
    with pytest.raises(ValueError, match=r"^GEQ has no melee weapons$"):
        load_unit("GEQ").as_profiles(melee=True, score=VS_MEQ)


def test_as_target_models_and_keywords():
    warriors = load_unit("Necron Warriors")
    assert warriors.as_target().models == 10
    assert warriors.as_target(models=20).total_wounds == 20
    assert warriors.as_target(models=3).models == 3  # a unit that has lost models
    with pytest.raises(ValueError, match="expected an integer from 1 to 20"):
        warriors.as_target(models=21)
    assert warriors.as_target().keywords == ("INFANTRY", "BATTLELINE", "NECRON WARRIORS")


def test_attack_with_units_on_both_sides():
    hexmark, meq = load_unit("Hexmark Destroyer"), load_unit("MEQ")
    r = mh.attack(hexmark, meq)
    # 6 attacks BS2+: 6 * 5/6 = 5 hits; S6 vs T4 wounds on 3+: 10/3; AP-2 vs Sv3+ saves on 5+
    assert r.hits.mean() == 5
    assert r.wounds.mean() == Fraction(10, 3)
    assert r.unsaved.mean() == Fraction(20, 9)
    r = mh.attack(hexmark, meq, melee=True)
    assert r.hits.mean() == Fraction(8, 3)  # 4 attacks WS3+


def test_attack_uses_anti_keyword_from_the_target_file():
    cronos = load_unit("Cronos")
    # 6 tentacle attacks WS3+ = 4 hits; S5 vs T4 would wound on 3+, Anti-INFANTRY 2+ on 2+
    assert mh.attack(cronos, load_unit("Necron Warriors"), melee=True).wounds.mean() == Fraction(
        10, 3)
    # against a VEHICLE the Anti ability does nothing: S5 vs T9 wounds on 5+
    assert mh.attack(cronos, load_unit("Light vehicle"), melee=True).wounds.mean() == Fraction(
        4, 3)


def test_attack_against_feel_no_pain_and_invuln_from_files():
    gun = mh.Weapon("Gun", attacks=6, skill=3, strength=7, ap=0, damage=1)
    # vs Cronos: 4 hits, S7 = T7 wounds on 4+: 2, Sv3+ fails 1/3: 2/3 unsaved; FNP 5+ lets
    # 2/3 of them through: 4/9 damage (at most 6 damage, below the 7 wounds: no cap)
    assert mh.attack(gun, load_unit("Cronos")).damage.mean() == Fraction(4, 9)
    melta = mh.Weapon("Melta", attacks=1, skill=2, strength=9, ap=-4, damage=1)
    # vs the Marshal: Sv4+ at AP-4 is impossible, the 5+ invulnerable save fails 2/3:
    # 5/6 hit * 5/6 (S9 vs T3 wounds on 2+) * 2/3 = 25/54
    assert mh.attack(melta, load_unit("Skitarii Marshal")).unsaved.mean() == Fraction(25, 54)


def test_stealth_and_fnp_from_core_abilities(tmp_path):
    path = tmp_path / "sneaks.toml"
    path.write_text('name = "Sneaks"\nfaction = "Testers"\n[abilities]\n'
                    'core = ["Stealth", "feel no pain 6+", "Deadly Demise D3"]\n'
                    '[[models]]\ncount = [5, 10]\ntoughness = 3\nsave = 5\nwounds = 1\n'
                    '[[models]]\nname = "Boss"\ncount = 1\ntoughness = 3\nsave = "4+"\n'
                    'wounds = 2\nfnp = "5+"\n', encoding="utf-8")
    unit = load_unit(path)
    assert unit.core == ("Stealth", "Feel No Pain 6+", "Deadly Demise D3")
    assert [g.fnp for g in unit.groups] == [6, 5]  # core FNP, overridden by the group's own
    assert unit.deadly_demise == "D3" and unit.size == (6, 11)
    target = unit.as_target()  # both model groups: 5 (FNP 6+ of the core) and the Boss (5+)
    assert [(g.models, g.wounds, g.fnp) for g in target.groups] == [(5, 1, 6), (1, 2, 5)]
    assert all(g.abilities == ("stealth", "deadly demise D3") and g.deadly_demise == "D3"
               for g in target.groups)
    bolt = mh.Weapon("Bolt", attacks=6, skill=3, strength=4, ap=0, damage=1)
    assert mh.attack(bolt, unit).hits.mean() == 3  # Stealth: 6 * 3/6 instead of 6 * 4/6


def test_describe():
    assert load_unit("Cronos").describe() == "Cronos (Drukhari): 1-2 x M7 T7 Sv3+ W7 Ld7+ OC2 FNP5+"
    assert load_unit("Knight").describe() == "Knight (Archetypes): 1 x T11 Sv3+ 5++ W22"


# ---------------------------------------------------------------------------------------------
# Malformed files: one fixture per error kind, one line each

MALFORMED = {
    "ap-positive": 'models[0].weapons[0].ap: expected 0 or a negative integer, got "+1"',
    "toughness-range": "models[0].toughness: 31 is over the limit of 30 "
                       "(mathhammer.limits.MAX_TOUGHNESS)",
    "save-range": 'models[0].save: expected 2+ to 7+ (e.g. "3+"), got "1+"',
    "wounds-zero": "models[0].wounds: expected an integer >= 1, got 0",
    "count-zero": "models[0].count: expected an integer >= 1, got 0",
    "count-range": "models[0].count[1]: expected an integer >= 10, got 5",
    "skill-range": 'models[0].weapons[0].skill: expected 2+ to 6+ (e.g. "3+") or N/A, got "7+"',
    "skill-na-not-torrent": 'models[0].weapons[0].skill: N/A is only for [torrent] weapons, '
                            'got "N/A"',
    "attacks-dice": "models[0].weapons[0].attacks: expected an integer >= 1 or a dice expression "
                    '(D3, D6, 2D6, D6+3, 2D3+1), got "D7"',
    "range-bad": 'models[0].weapons[0].range: expected "melee" or inches >= 1, got "far"',
    "ability-unknown": "models[0].weapons[0].abilities[1]: unknown ability 'fast'; known: "
                       "lethal hits, ",
    "core-unknown": 'abilities.core[0]: unknown core ability "Sneaky"; known: Deep Strike, ',
    "invuln-range": 'models[0].invuln: expected 2+ to 6+ (e.g. "3+"), got "1+"',
    "unknown-key": 'models[0].toughnes: unknown key "toughnes"; did you mean "toughness"?',
    "missing-key": "models[0].wounds: missing",
    "placeholder": 'models[0].toughness: placeholder "?": fill in the value from the datasheet',
    "points-negative": "points[0].cost: expected an integer >= 0, got -10",
    "points-size": "points[0].models: expected a unit size (5 models), got 6",
    "leads-without-leader": 'leads: only a unit with the core ability "Leader" leads units, '
                            'got ["Skitarii Rangers"]',
    "keywords-type": 'keywords: expected a list of strings, got "INFANTRY"',
    "bad-toml": "invalid TOML: Expected newline or end of document after a statement "
                "(at line 19, column 14)",
}


def test_every_fixture_has_a_case():
    names = {p.stem for p in FIXTURES.glob("*.toml")} - {"valid"}
    assert names == set(MALFORMED)


def test_valid_fixture_loads():
    unit = load_unit(FIXTURES / "valid.toml")
    assert unit.as_profiles(score=VS_MEQ) == [(mh.Weapon(
        "Gun", attacks=2, skill=3, strength=4, ap=-1, damage=1, abilities=["heavy"]), 5)]


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_file_gives_one_line(name):
    path = FIXTURES / f"{name}.toml"
    with pytest.raises(ValueError) as info:
        load_unit(path)
    message = str(info.value)
    assert "\n" not in message
    where, detail = message.split(": ", 1)
    assert where.endswith(f"fixtures/units/{name}.toml")
    assert detail.startswith(MALFORMED[name]), detail
    if not MALFORMED[name].endswith(", "):
        assert detail == MALFORMED[name]


def test_loads_unit_names_the_source():
    with pytest.raises(ValueError, match=r"^<text>: models: expected a non-empty list of model "
                                         r"groups \(\[\[models\]\]\), got \[\]$"):
        loads_unit('name = "X"\nfaction = "F"\nmodels = []\n')


def test_units_readme_examples():
    readme = data_dir("units") / "README.md"
    if not readme.is_file():
        pytest.skip("units/README.md is not shipped in the installed package")
    result = doctest.testfile(str(readme), module_relative=False)
    assert result.attempted >= 3 and result.failed == 0


ORIGIN_UNIT = '''name = "Boyz"
faction = "Orks"
source = "my notes"
[origin]
edition = "11e"
file = "Orks.json"
entry = "Boyz"
catalogue = "Xenos - Orks"
[[models]]
count = [10, 20]
toughness = 5
save = "5+"
wounds = 1
'''


def test_a_unit_file_says_where_it_came_from_in_its_origin(tmp_path):
    from mathhammer.data.rules.unit_rules import origin_of
    from mathhammer.data.units.unit import Origin

    u = loads_unit(ORIGIN_UNIT)
    assert u.origin == Origin("11e", "Orks.json", "Boyz", "Xenos - Orks")
    assert u.origin.of_data and u.source == "my notes"  # the source is shown as written
    # without a source, the origin's text is shown
    bare = loads_unit(ORIGIN_UNIT.replace('source = "my notes"\n', ""))
    assert bare.source == "BattleScribe data: Orks.json (Xenos - Orks)"
    # a unit file read from a path is its own origin: no edition, not of the data
    path = tmp_path / "boyz.toml"
    path.write_text(ORIGIN_UNIT.split("[origin]")[0] + "[[models]]" +
                    ORIGIN_UNIT.split("[[models]]")[1], encoding="utf-8")
    mine = load_unit(path)
    assert mine.origin == Origin(file="boyz.toml", entry="Boyz") and not mine.origin.of_data
    # a source that reads like the data's is text, never parsed back into an origin
    fake = attrs.evolve(mine, source="BattleScribe data: Orks.json (Xenos - Orks)")
    assert not origin_of(fake).of_data
    assert load_unit("Cronos").origin == Origin(file="cronos.toml", entry="Cronos")


@pytest.mark.parametrize(("change", "words"), [
    ('edition = "11e"', 'edition = "12e"', ),
    ('file = "Orks.json"\n', ""),
    ('entry = "Boyz"', 'entry = 3'),
    ('catalogue = "Xenos - Orks"', 'shelf = "top"'),
])
def test_a_bad_origin_is_one_line_naming_the_field(change, words):
    with pytest.raises(ValueError) as e:
        loads_unit(ORIGIN_UNIT.replace(change, words))
    message = str(e.value)
    assert "\n" not in message and message.startswith("<text>: origin")
