"""The BattleScribe importer on the shared data files (10th-edition XML, 11th-edition JSON).

The expected numbers are the ones printed in the files (quoted in the comments as
``characteristic`` values); the tests skip when ``../shared/bsdata`` is not there.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import bsjson
import pytest

from mathhammer.data.bsdata import (
    catalogue_unit_dict,
    import_catalogue,
    list_catalogue_units,
    load_catalogue_unit,
    load_file,
    map_keyword,
    split_keywords,
    write_catalogue_unit,
)
from mathhammer.data.bsdata.profiles import is_weapon
from mathhammer.data.units.bundled import load_unit
from mathhammer.data.units.file import loads_unit
from mathhammer.engine.attack import value_against

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


ROOT = Path(os.environ.get("MATHHAMMER_BSDATA", Path(__file__).resolve().parents[2] / "shared"
                           / "bsdata"))
if not ROOT.is_dir():
    pytest.skip(f"shared BattleScribe data not found at {ROOT}", allow_module_level=True)

E10, E11 = ROOT / "10e", ROOT / "11e"
NECRONS, ADMECH = E10 / "Necrons.cat", E10 / "Imperium - Adeptus Mechanicus.cat"
DRUKHARI, MARINES = E10 / "Aeldari - Drukhari.cat", E10 / "Imperium - Space Marines.cat"
NECRONS11, ADMECH11 = E11 / "Necrons.json", E11 / "Imperium - Adeptus Mechanicus.json"
DRUKHARI11 = E11 / "Aeldari - Drukhari.json"


def imported(path: Path, name: str):
    return load_catalogue_unit(f"{path}:{name}")


def weapon_map(unit) -> dict[str, tuple]:
    """lower-case name -> (range, A, skill, S, AP, D, abilities as a set, optional)."""
    out = {}
    for g in unit.groups:
        for w in g.weapons:
            x = w.weapon
            key = (x.name.lower(), x.melee)
            out[key] = (x.range, x.attacks, x.skill, x.strength, x.ap, x.damage,
                        frozenset(x.abilities), w.optional)
    return out


def differences(a, b) -> dict[str, tuple]:
    """Every field where two units differ (order-insensitive where the order means nothing)."""
    fields = {
        "name": lambda u: u.name.lower(),
        "faction": lambda u: u.faction,
        "keywords": lambda u: frozenset(u.keywords),
        "faction_keywords": lambda u: frozenset(u.faction_keywords),
        "core": lambda u: frozenset(u.core),
        "faction_abilities": lambda u: frozenset(u.faction_abilities),
        "datasheet_abilities": lambda u: frozenset(u.datasheet_abilities),
        "leads": lambda u: frozenset(u.leads),
        "points": lambda u: u.points,
        "groups": lambda u: len(u.groups),
        "weapons": weapon_map,
    }
    for attr in ("min_models", "max_models", "move", "toughness", "save", "wounds", "leadership",
                 "oc", "invuln", "fnp"):
        fields[attr] = lambda u, attr=attr: getattr(u.groups[0], attr)
    return {k: (f(a), f(b)) for k, f in fields.items() if f(a) != f(b)}


# ------------------------------------------------------------------ the seed datasheets, 10e


def test_hexmark_destroyer_matches_the_bundled_file_but_for_the_points():
    got = imported(NECRONS, "Hexmark Destroyer")
    # Necrons.cat: <cost name="pts" ... value="75"/>; the seed page (units/) prints 70.
    assert differences(got, load_unit("Hexmark Destroyer")) == {
        "points": (((1, 75),), ((1, 70),)),
    }
    assert got.groups[0].statline() == "M8 T5 Sv3+ W5 Ld6+ OC1"
    assert got.reanimation and not got.leader


def test_skitarii_marshal_matches_the_bundled_file():
    got = imported(ADMECH, "Skitarii Marshal")
    assert differences(got, load_unit("Skitarii Marshal")) == {}
    # The pistol prints BS 4+ with a modifier "set 3+ if an ancestor is a CHARACTER".
    pistol = got.as_profiles(weapons=["Mechanicus pistol"], score=VS_MEQ)[0][0]
    assert (pistol.skill, pistol.parsed.devastating_wounds) == (3, True)
    assert got.groups[0].invuln == 5 and got.leads == ("Skitarii Rangers", "Skitarii Vanguard")


def test_cronos_matches_the_bundled_file_where_the_data_agrees_with_the_seed():
    got = imported(DRUKHARI, "Cronos")  # an entry link into Aeldari - Aeldari Library.cat
    assert differences(got, load_unit("Cronos")) == {
        # modifier: set pts 110 when the unit has more than 1 model; the seed page prints 100
        "points": (((1, 55), (2, 110)), ((1, 55), (2, 100))),
        # ability profile "Invulnerable Save": "This unit has a 6+ Invulnerable save"
        "invuln": (6, None),
        # the data's datasheet abilities; the bundled file lists none
        "datasheet_abilities": (frozenset({"Pain Engine (Aura)", "Pain Parasite (Pain)"}),
                                frozenset()),
    }
    assert (got.deadly_demise, got.groups[0].fnp) == ("1", 5)
    # Spirit vortex has only a max 1 constraint: optional wargear, as in the bundled file.
    assert [w.name for w, _ in got.as_profiles(score=VS_MEQ)] == ["Spirit Syphon"]


def test_necron_warriors_standard_target_matches_the_10e_data():
    got = imported(NECRONS, "Necron Warriors")
    # two model entries (w/ gauss flayer, the group's default; w/ gauss reaper) share the
    # statline: one group of 10-20 with the reaper optional, as in the bundled file
    assert differences(got, load_unit("Necron Warriors")) == {}
    assert got.points == ((10, 90), (20, 200))
    assert [(w.name, w.optional) for w in got.groups[0].weapons] == [
        ("Gauss flayer", False), ("Close combat weapon", False), ("Gauss reaper", True)]


# ------------------------------------------------------------------ 11th edition (JSON)


def test_11e_hexmark_destroyer():
    got = imported(NECRONS11, "Hexmark Destroyer")
    assert got.groups[0].statline() == "M8 T5 Sv3+ W5 Ld6+ OC1"  # InSv is empty
    assert got.points == ((1, 75),)
    assert set(got.core) == {"Deep Strike", "Lone Operative"} and got.reanimation
    assert weapon_map(got)[("enmitic disintegrator pistols", False)] == (
        18, "6", 2, 6, -2, "1", frozenset({"pistol", "ignores cover"}), False)


def test_11e_skitarii_marshal_support_is_the_leader_ability():
    got = imported(ADMECH11, "Skitarii Marshal")
    # 11e: characteristic InSv "5+"; the "Support" profile lists the units it can lead
    assert got.groups[0].invuln == 5
    assert got.leader and got.leads == ("Skitarii Rangers", "Skitarii Vanguard")
    assert "Support" not in got.datasheet_abilities
    assert got.as_profiles(weapons=["mech"], score=VS_MEQ)[0][0].skill == 3


def test_11e_points_differ_from_10e():
    # Necrons.json: Necron Warriors 80 pts, set 190 at 11+ models; Immortals 70 / 140
    assert imported(NECRONS11, "Necron Warriors").points == ((10, 80), (20, 190))
    assert imported(NECRONS11, "Immortals").points == ((5, 70), (10, 140))
    assert imported(NECRONS, "Immortals").points == ((5, 70), (10, 150))


def test_11e_cronos_needs_the_aeldari_library_which_is_not_given():
    with pytest.raises(ValueError) as e:
        imported(DRUKHARI11, "Cronos")
    msg = str(e.value)
    assert "\n" not in msg and "Aeldari - Drukhari.json" in msg
    assert "'Aeldari - Aeldari Library' (id dfcf-1214-b57-2205;" in msg
    assert "missing file 'Aeldari - Aeldari Library.json'" in msg


# ------------------------------------------------------------------ ten more datasheets


def _group(unit, i=0):
    g = unit.groups[i]
    return (g.min_models, g.max_models, g.move, g.toughness, g.save, g.wounds, g.leadership,
            g.oc, g.invuln, g.fnp)


@pytest.mark.parametrize(
    "path, name, group, points, weapon, stats",
    [
        # Necrons.cat "Immortals": M 5" T 5 SV 3+ W 1 LD 7+ OC 2; 5-10 Immortals; 70, set 150
        # at 6+; Gauss blaster 24" A2 BS3+ S5 AP-1 D1 Lethal Hits
        (NECRONS, "Immortals", (5, 10, 5, 5, 3, 1, 7, 2, None, None), ((5, 70), (10, 150)),
         ("gauss blaster", False), (24, "2", 3, 5, -1, "1", frozenset({"lethal hits"}), False)),
        # "Canoptek Reanimator": M8 T6 SV3+ W6 LD8+ OC3, Feel No Pain 4+; 75 pts;
        # Atomiser beam 12" A3 BS4+ S6 AP-2 D1
        (NECRONS, "Canoptek Reanimator", (1, 1, 8, 6, 3, 6, 8, 3, None, 4), ((1, 75),),
         ("atomiser beam", False), (12, "3", 4, 6, -2, "1", frozenset(), False)),
        # "Skorpekh Destroyers": M8 T6 SV3+ W3 LD7+ OC2, 3-6 models, 90 / 180;
        # Skorpekh hyperphase weapons Melee A4 WS3+ S7 AP-2 D2
        (NECRONS, "Skorpekh Destroyers", (3, 6, 8, 6, 3, 3, 7, 2, None, None),
         ((3, 90), (6, 180)), ("skorpekh hyperphase weapons", True),
         ("melee", "4", 3, 7, -2, "2", frozenset(), False)),
        # AdMech "Skitarii Rangers": M6 T3 SV4+ W1 LD7+ OC2, 5+ invulnerable, 10 models 85;
        # Galvanic rifle 30" A2 BS4+ S4 AP0 D1
        (ADMECH, "Skitarii Rangers", (10, 10, 6, 3, 4, 1, 7, 2, 5, None), ((10, 85),),
         ("galvanic rifle", False), (30, "2", 4, 4, 0, "1", frozenset(), False)),
        # "Kataphron Destroyers": M5 T6 SV3+ W3 LD7+ OC1, 6+ invulnerable, 3-6, 105 / 210;
        # Heavy grav-cannon 30" A4 BS4+ S6 AP-1 D2 Anti-Vehicle 2+
        (ADMECH, "Kataphron Destroyers", (3, 6, 5, 6, 3, 3, 7, 1, 6, None),
         ((3, 105), (6, 210)), ("heavy grav-cannon", False),
         (30, "4", 4, 6, -1, "2", frozenset({"anti-vehicle 2+"}), False)),
        # Aeldari Library "Kabalite Warriors": M7 T3 SV4+ W1 LD7+ OC2, 6+ invulnerable, 10
        # models 115; Splinter Rifle 24" A2 BS3+ S2 AP0 D1 Anti-Infantry 3+, Assault
        (DRUKHARI, "Kabalite Warriors", (10, 10, 7, 3, 4, 1, 7, 2, 6, None), ((10, 115),),
         ("splinter rifle", False),
         (24, "2", 3, 2, 0, "1", frozenset({"anti-infantry 3+", "assault"}), False)),
        # "Talos": M7 T7 SV3+ W7 LD7+ OC2, 6+ invulnerable, Feel No Pain 5+, 1-2, 80 / 160;
        # Macro-Scalpel Melee A5 WS3+ S7 AP-2 D2
        (DRUKHARI, "Talos", (1, 2, 7, 7, 3, 7, 7, 2, 6, 5), ((1, 80), (2, 160)),
         ("macro-scalpel", True), ("melee", "5", 3, 7, -2, "2", frozenset(), False)),
        # Space Marines "Intercessor Squad": M6 T4 SV3+ W2 LD6+ OC2, 5-10, 80, set 160 when
        # the Intercessors group has 6+; Bolt Rifle 24" A2 BS3+ S4 AP-1 D1 Assault, Heavy
        (MARINES, "Intercessor Squad", (5, 10, 6, 4, 3, 2, 6, 2, None, None),
         ((5, 80), (10, 160)), ("bolt rifle", False),
         (24, "2", 3, 4, -1, "1", frozenset({"assault", "heavy"}), False)),
        # "Terminator Squad": M5 T5 SV2+ W3 LD6+ OC1, 4+ invulnerable, 5-10, 170 / 340;
        # Storm bolter 24" A2 BS3+ S4 AP0 D1 Rapid Fire 2
        (MARINES, "Terminator Squad", (5, 10, 5, 5, 2, 3, 6, 1, 4, None),
         ((5, 170), (10, 340)), ("storm bolter", False),
         (24, "2", 3, 4, 0, "1", frozenset({"rapid fire 2"}), False)),
        # "Redemptor Dreadnought": M8 T10 SV2+ W12 LD6+ OC4, Deadly Demise D3, 205 pts;
        # Heavy Onslaught Gatling Cannon 24" A12 BS3+ S6 AP0 D1 Devastating Wounds
        (MARINES, "Redemptor Dreadnought", (1, 1, 8, 10, 2, 12, 6, 4, None, None), ((1, 205),),
         ("heavy onslaught gatling cannon", False),
         (24, "12", 3, 6, 0, "1", frozenset({"devastating wounds"}), False)),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_datasheets_spot_checked_against_the_files(path, name, group, points, weapon, stats):
    unit = imported(path, name)
    assert _group(unit) == group
    assert unit.points == points
    assert weapon_map(unit)[weapon] == stats


def test_redemptor_and_talos_abilities():
    assert imported(MARINES, "Redemptor Dreadnought").deadly_demise == "D3"
    talos = imported(DRUKHARI, "Talos")
    assert talos.deadly_demise == "1" and "Feel No Pain 5+" in talos.core


def test_weapon_with_two_profiles_fires_one_mode_by_default():
    unit = imported(MARINES, "Redemptor Dreadnought")
    w = weapon_map(unit)
    # "Macro Plasma Incinerator - Standard" / "- Supercharge": an option, and both optional
    assert w[("macro plasma incinerator - supercharge", False)][-1] is True
    assert w[("heavy onslaught gatling cannon", False)][-1] is False


# ------------------------------------------------------------------ weapon keywords


def _all_weapon_keywords() -> set[str]:
    out = set()
    for path in sorted(E10.glob("*.cat")) + sorted(E10.glob("*.gst")) + sorted(E11.glob("*.json")):
        cat = load_file(path)
        todo = list(cat.shared_entries + cat.shared_groups + cat.root_entries + cat.root_links)
        profiles = list(cat.shared_profiles)
        while todo:
            e = todo.pop()
            profiles += e.profiles
            todo += e.children
        for p in profiles:
            if is_weapon(p):
                out.update(split_keywords(p.get("Keywords")))
    return out


# Weapon keywords that name a core ability mathhammer models: each must map, whatever the
# faction. Faction-specific keywords (Hooked, Plasma Warhead...) may stay unmapped: the importer
# keeps and reports them (next test), and the closing notes list them.
_CORE_ABILITY_WORDS = (
    "anti", "assault", "blast", "cleave", "devastating", "extra attacks", "hazardous", "heavy",
    "ignores cover", "indirect", "lance", "lethal", "melta", "pistol", "precision",
    "rapid fire", "sustained", "torrent", "twin",
)


@pytest.mark.slow  # reads every file of both editions
def test_every_weapon_keyword_in_the_shared_files_is_mapped_or_reported():
    keywords = _all_weapon_keywords()
    assert len(keywords) > 60
    core = {k for k in keywords if k.lower().startswith(_CORE_ABILITY_WORDS)}
    assert len(core) > 30
    assert {k for k in core if map_keyword(k) is None} == set()
    assert map_keyword("Anti Vehicle 3+") == "anti-vehicle 3+"
    assert map_keyword("Anti-FLY 2") == "anti-fly 2+"  # the + left out in the data
    assert map_keyword("Twin Linked") == "twin-linked"
    assert map_keyword("Anti-Epic Hero 2+") == "anti-epic hero 2+"
    assert map_keyword("Defensive Array") is None and map_keyword("Sonic Devastation") is None


def test_unmapped_keywords_are_kept_in_the_file_and_warned_about():
    raw, warnings = catalogue_unit_dict(MARINES, "Hammerfall Bunker")
    weapons = [w for g in raw["models"] for w in g.get("weapons", [])]
    kept = [w for w in weapons if "unmapped" in w]
    assert kept and all(w["unmapped"] == ["Defensive Array"] for w in kept)
    assert any("unmapped keywords: Defensive Array" in w for w in warnings)
    text, _ = import_catalogue(MARINES, "Hammerfall Bunker")
    assert 'unmapped = [\n    "Defensive Array",\n]' in text
    assert "# Check: weapon" in text


# ------------------------------------------------------------------ one model, two formats

_BOY = (("M", '6"'), ("T", "5"), ("SV", "5+"), ("W", "1"), ("LD", "7+"), ("OC", "2"))
_SLUGGA = bsjson.weapon("wp1", "Slugga", "1", "5+", "4", "0", "1", range='12"',
                        keywords="Pistol, Sonic Devastation")
#: 10 to 20 Boyz, 80 points (160 at 11 models or more), Feel No Pain 6+ by a rule link
_BOYZ_UNIT = bsjson.unit("u1", "Boyz", 10, ["Infantry"], [], _SLUGGA, _BOY, points=80,
                         faction="Orks", model="Boy", most=20)
_BOYZ_UNIT["modifiers"] = [{"type": "set", "field": "pts", "value": 160, "conditions": [
    {"type": "atLeast", "value": 11, "field": "selections", "scope": "u1", "childId": "model"}]}]
_BOYZ_UNIT["infoLinks"] = [{"id": "i1", "name": "Feel No Pain", "targetId": "r1", "type": "rule",
                            "modifiers": [{"type": "append", "field": "name", "value": "6+"}]}]
_BOYZ = {
    "id": "c1", "name": "Test - Orks", "gameSystemId": "gs1",
    "sharedSelectionEntries": [_BOYZ_UNIT],
    "entryLinks": [{"id": "el1", "name": "Boyz", "targetId": "u1", "type": "selectionEntry"}],
}
_SYSTEM = {"id": "gs1", "name": "Test system",
           "sharedRules": [{"id": "r1", "name": "Feel No Pain", "description": "Roll a D6."}]}
_SINGULAR = {"sharedSelectionEntries": "selectionEntry", "selectionEntries": "selectionEntry",
             "costs": "cost", "modifiers": "modifier", "conditions": "condition",
             "categoryLinks": "categoryLink", "infoLinks": "infoLink", "profiles": "profile",
             "characteristics": "characteristic", "constraints": "constraint",
             "entryLinks": "entryLink", "sharedRules": "rule"}


def _xml(tag: str, data: dict) -> str:
    """The same BattleScribe data as XML: lists become wrapper elements, strings attributes."""
    from xml.sax.saxutils import escape, quoteattr

    attrs = "".join(f" {k}={quoteattr(str(v))}" for k, v in data.items()
                    if not isinstance(v, list) and k not in ("$text", "description"))
    inner = escape(data.get("$text", ""))
    if "description" in data:
        inner += f"<description>{escape(data['description'])}</description>"
    for k, v in data.items():
        if isinstance(v, list):
            inner += f"<{k}>" + "".join(_xml(_SINGULAR[k], x) for x in v) + f"</{k}>"
    return f"<{tag}{attrs}>{inner}</{tag}>"


def test_xml_and_json_give_the_same_unit(tmp_path):
    (tmp_path / "xml").mkdir()
    (tmp_path / "json").mkdir()
    (tmp_path / "xml" / "Orks.cat").write_text(_xml("catalogue", _BOYZ), encoding="utf-8")
    (tmp_path / "xml" / "System.gst").write_text(_xml("gameSystem", _SYSTEM), encoding="utf-8")
    (tmp_path / "json" / "Orks.json").write_text(json.dumps({"catalogue": _BOYZ}),
                                                  encoding="utf-8")
    (tmp_path / "json" / "System.json").write_text(json.dumps({"gameSystem": _SYSTEM}),
                                                    encoding="utf-8")
    from_xml, warn_xml = catalogue_unit_dict(tmp_path / "xml" / "Orks.cat", "boyz")
    from_json, warn_json = catalogue_unit_dict(tmp_path / "json" / "Orks.json", "Boyz")
    assert from_xml.pop("source").startswith("BattleScribe data: Orks.cat (Test - Orks")
    assert from_json.pop("source").startswith("BattleScribe data: Orks.json (Test - Orks")
    # where each came from: the edition of its file's format, the file, the entry
    assert [{k: o[k] for k in ("edition", "file", "entry")} for o in (
        from_xml.pop("origin"), from_json.pop("origin"))] == [
        {"edition": "10e", "file": "Orks.cat", "entry": "Boyz"},
        {"edition": "11e", "file": "Orks.json", "entry": "Boyz"}]
    assert from_xml == from_json and warn_xml == warn_json
    assert from_json["points"] == [{"models": 10, "cost": 80}, {"models": 20, "cost": 160}]
    assert from_json["abilities"] == {"core": ["Feel No Pain 6+"]}
    assert from_json["models"] == [{
        "name": "Boy", "count": [10, 20], "move": 6, "toughness": 5, "save": "5+", "wounds": 1,
        "leadership": "7+", "oc": 2,
        "weapons": [{"name": "Slugga", "range": 12, "attacks": 1, "skill": "5+", "strength": 4,
                     "ap": 0, "damage": 1, "abilities": ["pistol"],
                     "unmapped": ["Sonic Devastation"]}]}]
    assert warn_json == ["weapon 'Slugga': unmapped keywords: Sonic Devastation"]
    unit = load_catalogue_unit(f"{tmp_path / 'xml' / 'Orks.cat'}:Boyz")
    assert (unit.groups[0].fnp, unit.faction, unit.keywords) == (6, "Orks", ("INFANTRY",))


# ------------------------------------------------------------------ files, listing, writing


def test_import_writes_a_loadable_unit_file(tmp_path):
    out, warnings = write_catalogue_unit(NECRONS, "hexmark", tmp_path)
    assert out == tmp_path / "hexmark-destroyer.toml" and warnings == []
    unit = loads_unit(out.read_text(encoding="utf-8"), str(out))
    assert differences(unit, imported(NECRONS, "Hexmark Destroyer")) == {}
    with pytest.raises(ValueError, match="already exists; overwrite it with force"):
        write_catalogue_unit(NECRONS, "Hexmark Destroyer", out)
    again, _ = write_catalogue_unit(NECRONS, "Hexmark Destroyer", out, force=True)
    assert again == out


def test_list_catalogue_units():
    names = list_catalogue_units(NECRONS)
    assert "Hexmark Destroyer" in names and "Immortals" in names
    assert "Detachment" not in names  # an upgrade, not a datasheet
    assert list_catalogue_units(NECRONS, search="destroyer") == [
        n for n in names if "destroyer" in n.lower()]
    assert "Lokhust Heavy Destroyers" in list_catalogue_units(NECRONS, search="DESTROYER")
    # the 11e Drukhari catalogue only links into the library: its names are listed anyway
    assert "Cronos" in list_catalogue_units(DRUKHARI11)


def test_parsed_files_are_cached_by_path_and_mtime(tmp_path):
    assert load_file(NECRONS) is load_file(NECRONS)
    copy = tmp_path / "Necrons.cat"
    shutil.copy(NECRONS, copy)
    first = load_file(copy)
    st = copy.stat()
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert load_file(copy) is not first and load_file(copy).id == first.id


def test_the_largest_catalogue_imports():
    # its speed is measured in tests/benchmark_army.py, never asserted here
    unit = imported(MARINES, "Intercessor Squad")
    assert unit.name == "Intercessor Squad" and unit.groups[0].toughness == 4


# ------------------------------------------------------------------ bad input


def one_line(excinfo) -> str:
    msg = str(excinfo.value)
    assert "\n" not in msg
    return msg


def test_unknown_unit_names_the_closest_ones():
    with pytest.raises(ValueError) as e:
        imported(NECRONS, "Immortls")
    assert one_line(e) == "Necrons.cat: no unit 'Immortls'; closest: Immortals"


def test_ambiguous_prefix():
    with pytest.raises(ValueError) as e:
        imported(NECRONS, "Lokhust")
    assert "is ambiguous: matches Lokhust Destroyers, Lokhust Heavy Destroyers" in one_line(e)


def test_truncated_xml(tmp_path):
    bad = tmp_path / "Necrons.cat"
    bad.write_bytes(NECRONS.read_bytes()[:50_000])
    with pytest.raises(ValueError) as e:
        import_catalogue(bad, "Immortals")
    msg = one_line(e)
    assert msg.startswith(f"{bad}: not a well-formed XML file (")


def test_malformed_json(tmp_path):
    bad = tmp_path / "Necrons.json"
    bad.write_text('{"catalogue": {"id": "x", ', encoding="utf-8")
    with pytest.raises(ValueError) as e:
        list_catalogue_units(bad)
    assert one_line(e).startswith(f"{bad}: not a well-formed JSON file (")


def test_not_a_catalogue(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text(json.dumps({"roster": {}}), encoding="utf-8")
    with pytest.raises(ValueError) as e:
        list_catalogue_units(bad)
    assert "not a BattleScribe data file" in one_line(e)
    with pytest.raises(ValueError) as e:
        list_catalogue_units(E10 / "Warhammer 40,000.gst")
    assert "this is a game system file, not a catalogue" in one_line(e)


def test_entity_expansion_is_refused(tmp_path):
    bomb = tmp_path / "bomb.cat"
    bomb.write_text(
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
        '<catalogue id="x" name="&lol2;"/>', encoding="utf-8")
    with pytest.raises(ValueError) as e:
        list_catalogue_units(bomb)
    assert one_line(e) == f"{bomb}: refused unsafe XML (DTDForbidden)"


def test_external_entity_is_refused(tmp_path):
    evil = tmp_path / "evil.cat"
    evil.write_text('<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                    '<catalogue id="x" name="&x;"/>', encoding="utf-8")
    with pytest.raises(ValueError, match="refused unsafe XML"):
        list_catalogue_units(evil)


def test_missing_game_system(tmp_path):
    lone = tmp_path / "Necrons.cat"
    shutil.copy(NECRONS, lone)  # no Warhammer 40,000.gst beside it
    with pytest.raises(ValueError) as e:
        imported(lone, "Hexmark Destroyer")
    msg = one_line(e)
    assert "which is in a file not given" in msg
    assert "its game system (id sys-352e-adc2-7639-d6a9)" in msg
    # given explicitly, it works
    unit = load_catalogue_unit(f"{lone}:Hexmark Destroyer",
                               gamesystem=E10 / "Warhammer 40,000.gst")
    assert unit.points == ((1, 75),)


def test_wrong_game_system_is_refused(tmp_path):
    with pytest.raises(ValueError) as e:
        list_catalogue_units(NECRONS, gamesystem=E11 / "Warhammer 40,000.json")
    assert "needs id sys-352e-adc2-7639-d6a9" in one_line(e)


def test_bad_unit_specs():
    with pytest.raises(ValueError, match="expected CATALOGUE.cat:Unit name"):
        load_catalogue_unit("Necrons:Immortals")
    with pytest.raises(ValueError) as e:
        load_catalogue_unit(f"{E10}/Nope.cat:Immortals")
    assert one_line(e) == f"{E10}/Nope.cat: no such file"
    with pytest.raises(ValueError, match="unknown BattleScribe file type"):
        list_catalogue_units(E10.parent / "README.md")


def test_a_model_without_a_statline_takes_the_units_one_and_warns_only_when_it_has_several():
    # a unit whose second model entry carries no statline: with one statline in the unit,
    # that one is the model's (no guess, no warning); with two, the first is a guess and said
    from mathhammer.data.bsdata import build_raw
    from mathhammer.data.bsdata.entries import Catalogue, Characteristic, Entry, Profile
    from mathhammer.data.bsdata.files import Library

    def line(pid, name, wounds):
        return Profile(pid, name, "t1", "Unit", tuple(Characteristic(n, n, v) for n, v in (
            ("M", '6"'), ("T", "4"), ("SV", "3+"), ("W", wounds), ("LD", "6+"), ("OC", "2"))))

    def unit(*models):
        squad = Entry("entry", "u1", "Squad", type="unit", entries=models)
        return Library(Catalogue("c", "Test", "catalogue", "Test.cat", root_entries=(squad,)))

    boss = Entry("entry", "m1", "Boss", type="model", profiles=(line("p1", "Boss", "2"),))
    plain = Entry("entry", "m2", "Trooper w/ axe", type="model")
    _raw, warnings = build_raw(unit(boss, plain), "Squad")
    assert not any("no statline" in w for w in warnings)
    other = Entry("entry", "m3", "Trooper", type="model", profiles=(line("p3", "Trooper", "1"),))
    _raw, warnings = build_raw(unit(boss, other, plain), "Squad")
    assert "model 'Trooper w/ axe' has no statline; using 'Boss'" in warnings
