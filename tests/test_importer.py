"""The datasheet-text importer on the three seed pages and on small hand-made pages."""

from __future__ import annotations

import tomllib
from pathlib import Path

import attrs
import pytest

from mathhammer.data.units.bundled import load_unit
from mathhammer.data.units.file import loads_unit
from mathhammer.data.units.importer import import_datasheet, parse_statline, split_name, write_unit
from mathhammer.engine.attack import value_against

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="shared/seeds not beside the repo")

# Statlines from shared/statlines.md, written as the importer's --statline option.
PAGES = {
    "000_54ab22f9a0343292.txt": ("Hexmark Destroyer", "M8 T5 Sv3+ W5 Ld6+ OC1"),
    "001_779a18d8a7e7efd2.txt": ("Cronos", "M7 T7 Sv3+ W7 Ld7+ OC2"),
    "002_1af2d8e4210c7fd9.txt": ("Skitarii Marshal", 'M6" T3 Sv4+ W3 Ld6+ OC1 5++'),
}
# Every weapon row of each page as a unit-file table (the seeds print each row twice).
PAGE_WEAPONS = {
    "Hexmark Destroyer": [
        {"name": "Enmitic disintegrator pistols", "range": 18, "attacks": 6, "skill": "2+",
         "strength": 6, "ap": -2, "damage": 1, "abilities": ["pistol", "ignores cover"]},
        {"name": "Close combat weapon", "range": "melee", "attacks": 4, "skill": "3+",
         "strength": 5, "ap": 0, "damage": 1},
    ],
    "Cronos": [
        {"name": "Spirit syphon", "range": 12, "attacks": "D6", "skill": "N/A", "strength": 5,
         "ap": -1, "damage": 1, "abilities": ["ignores cover", "torrent"]},
        {"name": "Spirit vortex", "range": 18, "attacks": "D6", "skill": "3+", "strength": 5,
         "ap": -1, "damage": 1, "abilities": ["blast", "ignores cover"], "optional": True},
        {"name": "Spirit-leech tentacles", "range": "melee", "attacks": 6, "skill": "3+",
         "strength": 5, "ap": -1, "damage": 1, "abilities": ["anti-infantry 2+"]},
    ],
    "Skitarii Marshal": [
        {"name": "Mechanicus pistol", "range": 12, "attacks": 1, "skill": "3+", "strength": 6,
         "ap": -1, "damage": 1, "abilities": ["devastating wounds", "pistol"]},
        {"name": "Control stave", "range": "melee", "attacks": 4, "skill": "3+", "strength": 6,
         "ap": -1, "damage": 1},
    ],
}
NO_STATLINE = 'no statline given: M, T, Sv, W, Ld and OC are "?" placeholders'


def seed(name: str) -> str:
    return (SEEDS / name).read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The seed pages


@needs_seeds
@pytest.mark.parametrize("page", sorted(PAGES))
def test_seed_page_weapons(page):
    name, statline = PAGES[page]
    text, _ = import_datasheet(seed(page), statline=statline)
    raw = tomllib.loads(text)
    assert raw["name"] == name
    assert raw["models"][0]["weapons"] == PAGE_WEAPONS[name]


@needs_seeds
@pytest.mark.parametrize("page", sorted(PAGES))
def test_seed_page_imports_to_the_bundled_unit(page):
    """Given the statline, the imported file loads to the bundled unit's weapons and stats."""
    name, statline = PAGES[page]
    text, _ = import_datasheet(seed(page), statline=statline)
    imported, bundled = loads_unit(text), load_unit(name)
    assert imported.groups == bundled.groups  # statline, counts, every weapon, optional flags
    for field in ("name", "faction", "keywords", "core", "faction_abilities",
                  "datasheet_abilities", "points", "archetype"):
        assert getattr(imported, field) == getattr(bundled, field), field
    assert imported.as_profiles(score=VS_MEQ) == bundled.as_profiles(score=VS_MEQ)
    assert imported.as_profiles(melee=True, score=VS_MEQ) == bundled.as_profiles(
        melee=True, score=VS_MEQ)
    assert imported.as_target() == bundled.as_target()


@needs_seeds
def test_seed_page_warnings_name_what_the_page_lacks():
    _, w0 = import_datasheet(seed("000_54ab22f9a0343292.txt"), statline=PAGES[
        "000_54ab22f9a0343292.txt"][1])
    assert w0 == ["no faction keywords on the page (FACTION KEYWORDS is empty)"]
    _, w1 = import_datasheet(seed("001_779a18d8a7e7efd2.txt"), statline="M7 T7 Sv3+ W7 Ld7+ OC2")
    assert w1 == []  # the Cronos page has its faction keyword (DRUKHARI, printed twice)
    text, w2 = import_datasheet(seed("002_1af2d8e4210c7fd9.txt"))
    assert w2[0].startswith(NO_STATLINE)
    assert w2[1:] == ["no faction keywords on the page (FACTION KEYWORDS is empty)",
                      "Leader: the page lists no units this model can be attached to; "
                      "fill in leads"]
    raw = tomllib.loads(text)
    assert raw["leads"] == [] and raw["abilities"]["core"] == ["Leader"]
    assert "# Check: Leader: the page lists no units" in text


@needs_seeds
@pytest.mark.parametrize("page", sorted(PAGES))
def test_seed_page_without_statline_writes_placeholders(page):
    text, warnings = import_datasheet(seed(page))
    assert warnings[0].startswith(NO_STATLINE)
    assert text.splitlines()[1].startswith('# PLACEHOLDERS: the page has no statline.')
    group = tomllib.loads(text)["models"][0]
    assert [group[k] for k in ("move", "toughness", "save", "wounds", "leadership", "oc")] == [
        "?"] * 6
    with pytest.raises(ValueError, match=r'^<text>: models\[0\]\.toughness: placeholder "\?": '
                                         r"fill in the value from the datasheet$"):
        loads_unit(text)
    # filling the placeholders in by hand gives the bundled unit's statline
    name, _ = PAGES[page]
    g = load_unit(name).groups[0]
    filled = text
    for key, value in (("move", g.move), ("toughness", g.toughness), ("save", f'"{g.save}+"'),
                       ("wounds", g.wounds), ("leadership", f'"{g.leadership}+"'), ("oc", g.oc)):
        filled = filled.replace(f'{key} = "?"', f"{key} = {value}", 1)
    assert loads_unit(filled).groups[0].toughness == g.toughness


@needs_seeds
def test_page_without_a_datasheet():
    with pytest.raises(ValueError, match=r"^no datasheet found: expected a RANGED WEAPONS or "
                                         r"MELEE WEAPONS table$"):
        import_datasheet(seed("003_823ec307bad1c097.txt"))


# ---------------------------------------------------------------------------------------------
# Weapon names and abilities


@pytest.mark.parametrize(("cell", "name", "abilities"), [
    ("Enmitic disintegrator pistols [pistol, Ignores Cover]", "Enmitic disintegrator pistols",
     ["pistol", "ignores cover"]),
    ("Spirit syphon ignores cover torrent", "Spirit syphon", ["ignores cover", "torrent"]),
    ("Spirit vortex blast ignores cover", "Spirit vortex", ["blast", "ignores cover"]),
    ("Spirit-leech tentacles anti-infantry 2+", "Spirit-leech tentacles", ["anti-infantry 2+"]),
    ("Close combat weapon", "Close combat weapon", []),
    ("Heavy bolter sustained hits 1", "Heavy bolter", ["sustained hits 1"]),
    ("Gauss flayer lethal hits rapid fire 1", "Gauss flayer", ["lethal hits", "rapid fire 1"]),
    ("Bolt pistol pistol", "Bolt pistol", ["pistol"]),  # no ability twice: the name keeps one
    ("Plasma gun [HAZARDOUS] [RAPID FIRE 1]", "Plasma gun", ["hazardous", "rapid fire 1"]),
    ("Torrent", "Torrent", []),  # a name is never empty
])
def test_split_name(cell, name, abilities):
    assert split_name(cell) == (name, abilities)


def test_unknown_bracketed_ability_is_an_error():
    with pytest.raises(ValueError, match=r"^unknown ability 'dread foe'"):
        split_name("Claws [dread foe]")


# ---------------------------------------------------------------------------------------------
# Statlines


def test_parse_statline_forms():
    assert parse_statline("m 8 t5 sv 3+ w5 ld6+ oc1") == {
        "move": 8, "toughness": 5, "save": "3+", "wounds": 5, "leadership": "6+", "oc": 1}
    full = parse_statline('M6", T3, Sv4+, W3, Ld6+, OC1, InvSv5+, FNP6+')
    assert (full["invuln"], full["fnp"]) == ("5+", "6+")
    assert parse_statline("M6 T3 Sv4+ W3 Ld6+ OC1 4++")["invuln"] == "4+"


@pytest.mark.parametrize(("statline", "message"), [
    ("M8 T31 Sv3+ W5 Ld6+ OC1", "statline: T: 31 is over the limit of 30 "
                               "(mathhammer.limits.MAX_TOUGHNESS)"),
    ("M8 T5 Sv1+ W5 Ld6+ OC1", 'statline: Sv: expected 2+ to 7+ (e.g. "3+"), got 1'),
    ("M8 T5 Sv3+ W0 Ld6+ OC1", "statline: W: expected an integer >= 1, got 0"),
    ("M8 T5 T6 Sv3+ W5 Ld6+ OC1", 'statline: T: given twice in "M8 T5 T6 Sv3+ W5 Ld6+ OC1"'),
    ("M8 T5 Sv3 W5 Ld6+ OC1", 'statline: cannot read "Sv3"; expected e.g. "M8 T5 Sv3+ W5 Ld6+ '
                              'OC1" (optionally "4++" and "FNP5+")'),
    ("T5 Sv3+ W5 Ld6+ OC1", 'statline: missing M; expected e.g. "M8 T5 Sv3+ W5 Ld6+ OC1" '
                            '(optionally "4++" and "FNP5+")'),
    ("M8 T5 Sv3+ W5 Ld6+ OC1 1++", 'statline: Inv: expected 2+ to 6+ (e.g. "3+"), got 1'),
])
def test_bad_statline(statline, message):
    with pytest.raises(ValueError) as info:
        import_datasheet(PAGE, statline=statline)
    assert str(info.value) == message


# ---------------------------------------------------------------------------------------------
# Hand-made pages

PAGE = """Testers – Gun Squad
RANGED WEAPONS | RANGE | A | BS | S | AP | D | |
| Lasgun rapid fire 1 | |||||||
| Lasgun rapid fire 1 | 24" | 1 | 4+ | 3 | 0 | 1 | |
| Lasgun rapid fire 1 | 24" | 1 | 4+ | 3 | 0 | 1 | |
| Plasma gun [hazardous, rapid fire 1] | 24" | 1 | 4+ | 8 | -3 | 2 | |
MELEE WEAPONS | RANGE | A | WS | S | AP | D | |
| Close combat weapon | Melee | 1 | 4+ | 3 | 0 | 1 | |
WARGEAR OPTIONS
- 1 Trooper's lasgun can be replaced with 1 plasma gun.
ABILITIES
CORE: Stealth, Scouts 6"
FACTION: Voice of Command
Drilled: Once per turn, reroll stuff.Brave: This unit is brave.
UNIT COMPOSITION
- 1 Sergeant
- 4-9 Troopers
| 5 models | 60 |
| 10 models | 120 |
| 5 models | 60 |
KEYWORDS: INFANTRY; BATTLELINE
FACTION KEYWORDS:
TESTERS
STRATAGEMS
CORE: Fights First
| Fake gun | 12" | 9 | 2+ | 9 | -9 | 9 | |
"""


def test_hand_made_page():
    text, warnings = import_datasheet(PAGE, statline="M6 T3 Sv5+ W1 Ld7+ OC2")
    raw = tomllib.loads(text)
    assert raw["faction"] == "Testers" and raw["faction_keywords"] == ["TESTERS"]
    assert raw["keywords"] == ["INFANTRY", "BATTLELINE"]
    assert raw["abilities"] == {"core": ["Stealth", 'Scouts 6"'], "faction": ["Voice of Command"],
                                "datasheet": ["Drilled", "Brave"]}  # not the rules text after
    assert raw["points"] == [{"models": 5, "cost": 60}, {"models": 10, "cost": 120}]
    groups = raw["models"]
    assert [(g["name"], g["count"]) for g in groups] == [("Sergeant", 1), ("Troopers", [4, 9])]
    weapons = groups[0]["weapons"]
    assert [w["name"] for w in weapons] == ["Lasgun", "Plasma gun", "Close combat weapon"]
    assert weapons[0]["abilities"] == ["rapid fire 1"] and "optional" not in weapons[0]
    assert weapons[1]["optional"] is True and weapons[1]["ap"] == -3 and weapons[1]["damage"] == 2
    assert warnings == ["every weapon is put on the first model group (Sergeant); move each to "
                        "the group that carries it"]
    unit = loads_unit(text)
    assert unit.stealth and unit.size == (5, 10)
    target = unit.as_target()  # both groups, in the file's order: Sergeant 1, Troopers 4
    assert [(g.name, g.models, g.abilities) for g in target.groups] == [
        ("Sergeant", 1, ("stealth",)), ("Troopers", 4, ("stealth",))]


@pytest.mark.parametrize(("row", "message"), [
    ('| Gun | 24" | 1 | 4+ | 3 | +1 | 1 |', 'line 3 (Gun): AP: expected 0 or a negative integer, '
                                         'got "+1"'),
    ('| Gun | 24" | D7 | 4+ | 3 | 0 | 1 |', "line 3 (Gun): A: expected an integer >= 1 or a dice "
                                          'expression (D3, D6, 2D6, D6+3, 2D3+1), got "D7"'),
    ('| Gun | 24" | 1 | 7+ | 3 | 0 | 1 |', 'line 3 (Gun): BS/WS: expected 2+ to 6+ (e.g. "3+"), '
                                         'got "7+"'),
    ('| Gun | 24" | 1 | N/A | 3 | 0 | 1 |', 'line 3 (Gun): BS/WS: N/A is only for [torrent] '
                                          'weapons, got "N/A"'),
    ('| Gun | far | 1 | 4+ | 3 | 0 | 1 |', 'line 3 (Gun): range: expected "Melee" or a range in '
                                         'inches such as 18", got "far"'),
    ('| Gun | 24" | 1 | 4+ | x | 0 | 1 |', 'line 3 (Gun): S: expected an integer >= 1, got "x"'),
    ('| Gun [speedy] | 24" | 1 | 4+ | 3 | 0 | 1 |', '''line 3: "Gun [speedy]": unknown ability \
'speedy'; known: lethal hits'''),
])
def test_bad_weapon_row_names_the_line(row, message):
    page = f"Testers – Gun Squad\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n{row}\n"
    with pytest.raises(ValueError) as info:
        import_datasheet(page, statline="M6 T3 Sv5+ W1 Ld7+ OC2")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith(message)


def test_bad_core_ability_names_the_line():
    page = "X – Y\nMELEE WEAPONS | RANGE | A | WS | S | AP | D | |\nCORE: Sneaky\n"
    with pytest.raises(ValueError, match=r'^line 3: CORE: unknown core ability "Sneaky"; known: '):
        import_datasheet(page)


def test_leader_lists_inline_or_as_bullets():
    head = ("X – Boss\nMELEE WEAPONS | RANGE | A | WS | S | AP | D | |\n"
            "| Axe | Melee | 4 | 3+ | 5 | -1 | 1 |\nABILITIES\nCORE: Leader\n"
            "UNIT COMPOSITION\n- 1 Boss\n| 1 model | 50 |\nLEADER\n")
    inline = head + "This model can be attached to the following units: Ladz, Big Ladz\n"
    bullets = head + "This model can be attached to the following units:\n- Ladz\n- Big Ladz\n"
    for page in (inline, bullets):
        text, warnings = import_datasheet(page, statline="M6 T4 Sv4+ W4 Ld6+ OC1")
        assert loads_unit(text).leads == ("Ladz", "Big Ladz")
        assert not any("Leader" in w for w in warnings)


def test_two_profiles_with_one_name_are_kept_with_a_warning():
    page = ("X – Y\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
            '| Gun | 24" | 1 | 4+ | 3 | 0 | 1 |\n| Gun | 24" | 2 | 4+ | 3 | 0 | 1 |\n'
            "UNIT COMPOSITION\n- 1 Y\n")
    text, warnings = import_datasheet(page, statline="M6 T3 Sv5+ W1 Ld7+ OC2")
    assert [w["attacks"] for w in tomllib.loads(text)["models"][0]["weapons"]] == [1, 2]
    assert "line 4: Gun has two different profiles; both kept, check which is right" in warnings
    assert "no points rows (\"| 1 model | 70 |\") on the page" in warnings


def test_run_in_split_that_may_be_wrong_is_warned():
    page = ("X – Y\nRANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
            '| Frag blast pistol | 12" | 1 | 4+ | 3 | 0 | 1 |\nUNIT COMPOSITION\n- 1 Y\n'
            "| 1 model | 10 |\nKEYWORDS: INFANTRY\nFACTION KEYWORDS: X\n")
    text, warnings = import_datasheet(page, statline="M6 T3 Sv5+ W1 Ld7+ OC1")
    assert tomllib.loads(text)["models"][0]["weapons"][0]["name"] == "Frag"
    assert warnings == ['line 3: read "Frag blast pistol" as the weapon "Frag" with blast, pistol; '
                        "check where the name ends"]


def test_page_with_no_title_or_composition_uses_placeholders():
    page = ("MELEE WEAPONS | RANGE | A | WS | S | AP | D | |\n"
            "| Claws | Melee | 3 | 3+ | 5 | -1 | 1 |\n")
    text, warnings = import_datasheet(page, statline="M6 T3 Sv5+ W1 Ld7+ OC1")
    raw = tomllib.loads(text)
    assert (raw["name"], raw["faction"], raw["models"][0]["count"]) == ("?", "?", "?")
    assert warnings[:3] == ["no unit name on the page; the name is a placeholder",
                            'no faction in the page title ("Faction – Unit"); the faction is a '
                            "placeholder",
                            'no UNIT COMPOSITION lines ("- 1-2 Cronos"); the model count is a '
                            "placeholder"]
    with pytest.raises(ValueError, match=r'^<text>: name: placeholder "\?"'):
        loads_unit(text)


# ---------------------------------------------------------------------------------------------
# Writing files


def test_write_unit_refuses_to_overwrite(tmp_path):
    out = tmp_path / "units" / "gun-squad.toml"
    path, warnings = write_unit(PAGE, out, statline="M6 T3 Sv5+ W1 Ld7+ OC2")
    assert path == out and out.is_file() and len(warnings) == 1
    assert load_unit(out).name == "Gun Squad"
    out.write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match=r"gun-squad\.toml: already exists; overwrite it with "
                                         r"force$"):
        write_unit(PAGE, out, statline="M6 T3 Sv5+ W1 Ld7+ OC2")
    assert out.read_text(encoding="utf-8") == "mine"
    write_unit(PAGE, out, statline="M6 T3 Sv5+ W1 Ld7+ OC2", force=True)
    assert load_unit(out).groups[0].toughness == 3


def test_write_unit_into_a_folder_and_nothing_on_error(tmp_path):
    path, _ = write_unit(PAGE, tmp_path, statline="M6 T3 Sv5+ W1 Ld7+ OC2")
    assert path == tmp_path / "gun-squad.toml"
    bad = tmp_path / "bad.toml"
    with pytest.raises(ValueError, match="statline: T: 31 is over the limit of 30"):
        write_unit(PAGE, bad, statline="M6 T31 Sv5+ W1 Ld7+ OC2")
    with pytest.raises(ValueError, match="no datasheet found"):
        write_unit("just some text", bad)
    assert not bad.exists()


@needs_seeds
def test_write_unit_from_seed_page_loads_like_the_bundled_file(tmp_path):
    path, _ = write_unit(seed("001_779a18d8a7e7efd2.txt"), tmp_path / "cronos.toml",
                         statline="M7 T7 Sv3+ W7 Ld7+ OC2")
    bundled = load_unit("Cronos")
    assert attrs.evolve(load_unit(path), source=bundled.source) == bundled
