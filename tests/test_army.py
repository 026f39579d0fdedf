"""Army lists: every shared export read and resolved against the shared BattleScribe data, each
checked against its own text (unit count, points, model counts, weapon counts).

The shared files are found beside the checkout (``../shared``); the tests skip without them.
The unit index is written to a temporary cache folder, never to the user's.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import zipfile
from collections import Counter
from fractions import Fraction

import pytest
from army_corpus import (
    cache,  # noqa: F401  (a private cache folder, module-wide)
    find_shared,
)

import mathhammer as mh
from mathhammer.data.army import load_army, parse_army, parse_list, search_units
from mathhammer.engine.attack import value_against
from mathhammer.model.squad import Squad

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


SHARED = find_shared()
ROSTERS = SHARED / "rosters"
BSDATA = SHARED / "bsdata"
if not (ROSTERS.is_dir() and BSDATA.is_dir()):
    pytest.skip(f"shared rosters or data not found at {SHARED}", allow_module_level=True)

pytestmark = pytest.mark.slow  # the first use indexes both editions (a few seconds each)

ALL = sorted(p.name for p in ROSTERS.iterdir() if p.suffix in (".txt", ".rosz", ".ros"))
# The 11e Dark Angels list needs 'Imperium - Space Marines.json', left out of ../shared/bsdata
# on purpose (see its README): it must say so, not resolve.
NEEDS_MISSING_FILE = {"dark-angels.11e.gwapp.txt"}
TEXT = [n for n in ALL if n.endswith(".txt") and "wtc" not in n]
WTC = [n for n in ALL if "wtc" in n]
ROSZ = [n for n in ALL if n.endswith(".rosz")]




@functools.cache
def army(name: str):
    """A shared roster resolved (once: the armies are frozen values)."""
    return load_army(ROSTERS / name, data=BSDATA)


# ------------------------------------------------------------------ what the files say


_HEAD = re.compile(r"^(?P<name>\S.*?)\s*\((?P<pts>\d[\d,]*)\s*(?:points|pts)\)\s*$", re.I)
_SIZES = ("combat patrol", "incursion", "strike force", "onslaught")
_NX = re.compile(r"^(\d+)x\s+(.+)$")


def text_blocks(text: str) -> list[dict]:
    """Each unit of an app / New Recruit GW-style export: its name, points and lines."""
    lines = text.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.strip())
    blocks: list[dict] = []
    for i, ln in enumerate(lines):
        m = _HEAD.match(ln)
        if m and (i != first or lines[first].startswith("+")) and not ln.lower().startswith(
                _SIZES):
            blocks.append({"name": m["name"], "points": int(m["pts"].replace(",", "")),
                           "lines": []})
            continue
        if blocks and ln.startswith((" ", "•", "◦")):
            blocks[-1]["lines"].append(ln)
    return blocks


def _entries(line: str) -> list[tuple[int, str]]:
    """The ``(count, name)`` entries of a wargear line (comma lists split)."""
    body = line.strip().lstrip("•◦").strip()
    out = []
    for part in body.split(","):
        m = _NX.match(part.strip())
        out.append((int(m[1]), m[2].strip()) if m else (1, part.strip()))
    return out


def model_lines(block: dict) -> list[tuple[int, str]]:
    """Lines followed by a deeper bullet line: the model lines."""
    out = []
    ls = block["lines"]
    for a, b in zip(ls, ls[1:], strict=False):
        ia, ib = len(a) - len(a.lstrip()), len(b) - len(b.lstrip())
        if ib > ia and b.strip()[:1] in "•◦" and _NX.match(a.strip().lstrip("•◦").strip()):
            out.append(_entries(a)[0])
    return out


# ------------------------------------------------------------------ every roster


@pytest.mark.parametrize("name", ALL)
def test_every_roster_resolves_and_adds_up_to_its_own_total(name):
    a = army(name)
    if name in NEEDS_MISSING_FILE:
        assert a.unresolved
        assert any("'Imperium - Space Marines'" in w and "not in" in w for w in a.warnings)
        return
    assert a.unresolved == ()
    assert a.declared_points is not None
    assert a.points == a.declared_points == sum(u.points for u in a.units)
    assert a.edition == re.search(r"\.(1[01]e)\.", name)[1]


@pytest.mark.parametrize("name", [n for n in TEXT if n not in NEEDS_MISSING_FILE])
def test_text_exports_match_their_own_text(name):
    blocks = text_blocks((ROSTERS / name).read_text(encoding="utf-8"))
    a = army(name)
    assert len(a.units) == len(blocks)
    for u, b in zip(a.units, blocks, strict=True):
        assert u.points == b["points"], b["name"]
        counts = Counter()
        for ln in b["lines"]:
            for n, item in _entries(ln):
                counts[item] += n
        for w in u.weapons:
            assert w.count == counts[w.name], (b["name"], w.name)
        models = model_lines(b)
        assert u.models == (sum(n for n, _ in models) if models else 1), b["name"]
        known = ({w.name for w in u.weapons} | set(u.wargear) | {m for _, m in models}
                 | set(u.enhancements))
        for item in counts:
            low = item.lower()
            if low in ("warlord", "epic hero") or low.startswith(("enhancement", "attached as")):
                continue
            assert item in known or re.sub(r"\s*\(\+.*\)$", "", item) in known, (b["name"], item)


@pytest.mark.parametrize("name", WTC)
def test_wtc_exports_match_their_unit_lines(name):
    text = (ROSTERS / name).read_text(encoding="utf-8")
    heads = re.findall(r"^(?:\w+\d+:\s*)?(\d+)x (.+?) \((\d+) pts\)", text, re.M)
    a = army(name)
    assert [(u.models, u.name, u.points) for u in a.units] == [
        (int(n), unit, int(p)) for n, unit, p in heads]


def _units(a):
    return Counter(json.dumps({**u.to_json(), "weapons": sorted(
        (w["name"], w["count"]) for w in u.to_json()["weapons"]),
        "profiles": sorted(json.dumps(p, sort_keys=True) for p in u.to_json()["profiles"]),
        "wargear": sorted(u.wargear),
        # a group's weapons in the order the list names them
        "groups": [g | {"weapons": sorted(g["weapons"], key=lambda w: w["name"])}
                   for g in u.to_json()["groups"]]}, sort_keys=True) for u in a.units)


def test_the_same_list_in_both_new_recruit_styles_is_the_same_army():
    gw, wtc = army("tau.11e.newrecruit-gw.txt"), army("tau.11e.newrecruit-wtc.txt")
    assert _units(gw) == _units(wtc)
    assert len(gw.units) == 18


def _roster_xml(name: str):
    import defusedxml.ElementTree as SafeET

    with zipfile.ZipFile(ROSTERS / name) as z:
        return SafeET.fromstring(z.read(z.namelist()[0]))


def _tag(e) -> str:
    return e.tag.rsplit("}", 1)[-1]


def _kids(e, plural):
    return [x for c in e if _tag(c) == plural for x in c if _tag(x) == plural[:-1]]


@pytest.mark.parametrize("name", ROSZ)
def test_rosters_match_their_selections(name):
    root = _roster_xml(name)
    units = [s for f in _kids(root, "forces") for s in _kids(f, "selections")
             if s.get("type") in ("unit", "model")]
    a = army(name)
    assert len(a.units) == len(units)

    def walk(sel):
        yield sel
        for c in _kids(sel, "selections"):
            yield from walk(c)

    for u, sel in zip(a.units, units, strict=True):
        everything = list(walk(sel))
        pts = sum(Fraction(c.get("value")) for s in everything for c in _kids(s, "costs")
                  if c.get("name") == "pts")
        assert u.points == pts
        models = [s for s in everything[1:] if s.get("type") == "model"]
        assert u.models == (sum(int(s.get("number")) for s in models) if models else 1)
        weapons = Counter()
        for s in everything[1:]:
            if any("Weapons" in (p.get("typeName") or "") for p in _kids(s, "profiles")):
                # "2 Fragstorm Grenade Launchers" (number 1) is 2 launchers (issue 20)
                name = s.get("name").rstrip("*").strip()
                m = re.match(r"(\d+)x? (\D.*)", name)
                n, name = (int(m.group(1)), m.group(2)) if m else (1, name)
                weapons[name] += n * int(s.get("number"))
        got = {w.name: w.count for w in u.weapons}
        for name in [n for n in weapons if " and " in n and n not in got]:
            # one selection of two weapons ("L7 missile launcher and Sagitaur missile
            # launcher") is read as both (issue 20: names joined by "and")
            n = weapons.pop(name)
            for part in name.split(" and "):
                weapons[part] += n
        assert got == dict(weapons)


# ------------------------------------------------------------------ the units work as units


@pytest.mark.parametrize("name", [n for n in ALL if n not in NEEDS_MISSING_FILE])
def test_every_listed_weapon_fires_once_with_its_count(name):
    """Each weapon of the list is carried by exactly its count, in each phase it has profiles
    for (a weapon of several profiles: one profile per model, the others left out as
    alternatives): it fires, or weapon choice leaves it out and says why (Pistols or the other
    guns, one melee weapon per model)."""
    for u in army(name).units:
        carried = [w for g in u.unit.groups for w in g.weapons if not w.optional]
        for melee in (False, True):
            families: dict[str, int] = {}
            for w in carried:
                if w.melee == melee:
                    families[w.profile_of or w.name] = max(families.get(w.profile_of or w.name,
                                                                        0), w.count or 0)
            fired = 0
            with contextlib.suppress(ValueError):
                out = u.loadout(melee=melee, score=VS_MEQ)
                fired = sum(n for _w, n in out.fired) + sum(
                    x.models for x in out.left_out if not x.reason.startswith("one profile"))
            assert fired == sum(families.values()), (u.name, melee)
        # the weapons of the list are the weapons carried, each with its count (a weapon of
        # several profiles once)
        per_group: dict[tuple[int, str], int] = {}
        for i, g in enumerate(u.unit.groups):
            for w in g.weapons:
                if not w.optional:
                    key = (i, w.profile_of or w.name)
                    per_group[key] = max(per_group.get(key, 0), w.count or 0)
        assert sum(per_group.values()) == sum(w.count for w in u.weapons), u.name


def test_an_army_unit_attacks_and_defends_with_exact_numbers():
    a = army("necron-combat-patrol.10e.rosz")
    warriors = next(u for u in a.units if u.name == "Necron Warriors")
    assert warriors.models == 10
    (flayer, n), = warriors.as_profiles(score=VS_MEQ)
    assert (flayer.name, n, flayer.attacks, flayer.skill, flayer.strength, flayer.ap) == (
        "Gauss flayer", 10, "1", 4, 4, 0)
    # vs 10 GEQ (T3 Sv5+ W1): hit 4+ with Lethal Hits: a 6 (1/6) wounds; 4-5 (2/6) wound on
    # 3+ (2/3): 1/6 + 2/9 = 7/18; the 5+ save fails 4/6: 7/18 * 2/3 = 7/27 per attack, x10
    geq = mh.Target(models=10, toughness=3, save=5, wounds=1)
    assert mh.attack(warriors, geq).unsaved.mean() == Fraction(70, 27)
    t = warriors.as_target()
    assert (t.models, t.toughness, t.save, t.wounds) == (10, 4, 4, 1)
    # the rest of the Unit interface is the datasheet's, sized as the list says
    assert warriors.groups == warriors.unit.groups and warriors.size == (10, 10)
    assert warriors.reanimation and warriors.describe().startswith("Necron Warriors (Necrons)")


def test_attached_units_are_one_row_and_one_target():
    a = army("world-eaters.11e.gwapp.txt")
    assert len(a.attached) == 3
    assert [(a.units[i].name, a.units[j].name) for i, j in a.attached] == [
        ("Slaughterbound", "Exalted Eightbound"), ("Khârn the Betrayer", "Khorne Berzerkers"),
        ("Master of Executions", "Khorne Berzerkers")]
    rows = a.rows()
    assert len(rows) == len(a.units) - 3
    label, pair = rows[1]
    assert label == "Khârn the Betrayer + Khorne Berzerkers"
    target = pair.as_target()
    assert isinstance(target, Squad) and target.attached
    assert [g.models for g in target.groups] == [10, 1]
    assert "CHARACTER" in target.groups[1].keywords
    own = sum(n for _, n in a.units[a.attached[1][0]].as_profiles(score=VS_MEQ))
    body = sum(n for _, n in a.units[a.attached[1][1]].as_profiles(score=VS_MEQ))
    assert sum(n for _, n in pair.as_profiles(score=VS_MEQ)) == own + body
    j = a.to_json()
    assert j["attached"][1] == {"leader": "Khârn the Betrayer", "bodyguard": "Khorne Berzerkers",
                                "leader_index": a.attached[1][0],
                                "bodyguard_index": a.attached[1][1]}


def test_attach_option_pairs_units_of_a_list_without_attachments():
    plain = army("world-eaters.10e.gwapp.txt")
    assert plain.attached == ()
    a = load_army(ROSTERS / "world-eaters.10e.gwapp.txt", data=BSDATA,
                  attach=("Khârn the Betrayer=Khorne Berzerkers",))
    (i, j), = a.attached
    assert (a.units[i].name, a.units[j].name) == ("Khârn the Betrayer", "Khorne Berzerkers")
    with pytest.raises(ValueError, match="no Leader 'Nobody' in the list"):
        load_army(ROSTERS / "world-eaters.10e.gwapp.txt", data=BSDATA, attach=("Nobody=Jakhals",))


def test_json_shape():
    j = army("imperial-knights.11e.gwapp.txt").to_json()
    assert list(j) == ["name", "faction", "edition", "detachments", "points",
                       "declared_points", "units", "attached", "unresolved", "points_read",
                       "format", "warnings", "lacking"]
    assert (j["name"], j["faction"], j["edition"], j["points"]) == ("QC", "Imperial Knights",
                                                                    "11e", 1995)
    assert j["detachments"] == ["Questoris Companions"]  # the list's detachment line
    u = j["units"][1]
    assert (u["name"], u["points"], u["models"], u["weapons"], u["enhancements"]) == (
        "Cerastus Knight Lancer", 430, 1, [{"name": "Cerastus shock lance", "count": 1}],
        ["Pennant of Silvered Fury"])
    assert {"name", "points", "models", "weapons", "keywords"} <= set(u)


# ------------------------------------------------------------------ variations and errors


APP = """Test (1,990 Points)

Necrons
Incursion (1000 points)

CHARACTERS

Overlord (85 Points)
◦ Warlord
◦ 1x Overlord's blade
  1x Tachyon arrow

BATTLELINE

Necron Warriors (90 points)
 1x Necron Warriors
  10x Gauss flayer
  10x Necron Warrior
"""


def test_app_text_variations_parse():
    p = parse_list(APP, "v.txt")
    assert p.declared_points == 1990 and p.factions == ("Necrons",)
    assert [(u.name, u.points) for u in p.units] == [("Overlord", 85), ("Necron Warriors", 90)]
    assert [(i.name, i.count) for i in p.units[0].items] == [("Overlord's blade", 1),
                                                             ("Tachyon arrow", 1)]
    assert p.units[0].extras == ("Warlord",)


def test_a_truncated_export_is_noticed():
    text = (ROSTERS / "world-eaters.10e.gwapp.txt").read_text(encoding="utf-8")
    cut = text[:text.index("DEDICATED TRANSPORTS")]
    a = parse_army(cut, data=BSDATA, source="cut.txt")
    assert a.unresolved == () and a.points < a.declared_points == 1995
    assert any("the units add up to" in w and "truncated" in w for w in a.warnings)


def test_a_unit_without_wargear_lines_still_counts():
    p = parse_list(APP.replace("Necron Warriors (90 points)", "Lychguard (85 points)\n\n"
                                                                "Necron Warriors (90 points)"))
    assert [(u.name, u.points) for u in p.units] == [
        ("Overlord", 85), ("Lychguard", 85), ("Necron Warriors", 90)]


def test_an_unknown_name_is_listed_with_its_line_and_closest_names(cli):
    text = APP.replace("Overlord (85 Points)", "Overlady (85 Points)")
    a = parse_army(text, data=BSDATA, rules="10e")
    (u,), = [a.unresolved]
    assert (u.line, u.text) == (8, "Overlady")
    assert "Overlord" in u.closest
    # a spelling a letter away is read, with a warning naming both names
    typo = parse_army(APP.replace("Overlord (85 Points)", "Overlrd (85 Points)"), data=BSDATA,
                      rules="10e")
    assert typo.unresolved == () and typo.units[0].name == "Overlord"
    assert any("'Overlrd' read as 'Overlord'" in w for w in typo.warnings)
    r = cli("army", "-", "--data", str(BSDATA), input=text)
    assert r.exit_code == 2


@pytest.mark.parametrize("content, message", [
    ("", "empty army list"),
    ("hello\nworld\n", "no units found"),
    (b"PK\x03\x04broken", "damaged or truncated zip"),
])
def test_bad_lists_are_one_line_errors(tmp_path, content, message):
    f = tmp_path / "list.txt"
    (f.write_bytes if isinstance(content, bytes) else f.write_text)(content)
    with pytest.raises(ValueError, match=message) as e:
        load_army(f, data=BSDATA)
    assert "\n" not in str(e.value) and str(f) in str(e.value)


def test_a_zip_that_is_not_a_roster(tmp_path):
    f = tmp_path / "x.rosz"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.txt", "hi")
    f.write_bytes(buf.getvalue())
    with pytest.raises(ValueError, match="a zip without a .ros roster inside"):
        load_army(f, data=BSDATA)
    truncated = tmp_path / "t.rosz"
    truncated.write_bytes((ROSTERS / ROSZ[0]).read_bytes()[:200])
    with pytest.raises(ValueError, match="damaged or truncated zip"):
        load_army(truncated, data=BSDATA)


def test_a_faction_without_data_says_how_to_get_it(tmp_path):
    with pytest.raises(ValueError, match=r"run `mathhammer data fetch --edition 11e`"):
        parse_army(APP, data=tmp_path, rules="11e")
    with pytest.raises(ValueError, match=r"faction 'Necrons' has no 10e catalogue"):
        only = tmp_path / "10e"
        only.mkdir()
        for f in ("Warhammer 40,000.gst", "Imperium - Imperial Knights.cat"):
            (only / f).write_bytes((BSDATA / "10e" / f).read_bytes())
        parse_army(APP, data=tmp_path, rules="10e")


# ------------------------------------------------------------------ names across catalogues


def test_search_units_gives_faction_unit_names():
    found = search_units("immortals", data=BSDATA, edition="10e")
    assert "Necrons:Immortals" in found
    assert all(":" in n and "immortal" in n.lower() for n in found)


def test_units_by_name_across_catalogues_on_the_command_line(cli):
    r = cli("kills", "Immortals", "MEQ", "--data", str(BSDATA / "10e"), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["attacker"] == "Immortals"
    # two Land Raiders with the same models and weapons (their points differ): the one most
    # factions have, with a warning naming the other
    r = cli("kills", "Land Raider", "MEQ", "--data", str(BSDATA))
    assert r.exit_code == 0, r.output
    assert "used Space Marines:Land Raider" in r.stderr and "Grey Knights:Land Raider" in r.stderr
    r = cli("kills", "Grey Knights:Land Raider", "MEQ", "--data", str(BSDATA))
    assert r.exit_code == 0, r.output
    # 11e Space Marine units live in a file left out of the shared data: the error says so
    r = cli("kills", "Assault Intercessors with Jump Packs", "MEQ", "--rules", "11e",
                  "--data", str(BSDATA))
    assert r.exit_code == 2 and "missing there, which may hold it" in r.output
    assert "Imperium - Space Marines" in r.output and "Traceback" not in r.output


def test_library_catalogues_list_their_units(cli):
    r = cli("catalogue", str(BSDATA / "10e" / "Aeldari - Aeldari Library.cat"),
                                 "--search", "cronos")
    assert r.exit_code == 0 and r.output == "Cronos\n"
    cronos = mh.load_catalogue_unit(f"{BSDATA / '10e' / 'Aeldari - Aeldari Library.cat'}:Cronos")
    assert (cronos.name, cronos.size) == ("Cronos", (1, 2))  # a library's datasheet imports


def test_a_weapon_of_several_profiles_keeps_them_all(cli):
    # "1x Cerastus shock lance": a shot, a strike and a sweep in the data, all three carried
    a = army("imperial-knights.11e.gwapp.txt")
    [lancer] = [u for u in a.to_json()["units"] if u["name"] == "Cerastus Knight Lancer"]
    assert {(p["name"], p["melee"]) for p in lancer["profiles"]} == {
        ("Cerastus shock lance", False), ("Cerastus shock lance - strike", True),
        ("Cerastus shock lance - sweep", True)}
    # in the fight it makes one profile's attacks, the better against the target
    r = cli("table", "--army", str(ROSTERS / "imperial-knights.11e.gwapp.txt"),
                                 "-t", "MEQ", "--melee", "--data", str(BSDATA), "--format",
                                 "json")
    assert r.exit_code == 0, r.output
    cells = {row["label"]: row["values"][0]["exact"] for row in json.loads(r.stdout)["rows"]}
    unit = next(u for u in a.units if u.name == "Cerastus Knight Lancer").unit
    meq = mh.find_unit("MEQ").as_target()
    alone = [mh.attack([(w.weapon, 1)], meq, melee=True, rules="11e").kills.mean()
             for g in unit.groups for w in g.weapons if w.melee]
    assert len(alone) == 2 and Fraction(cells["Cerastus Knight Lancer"]) == max(alone)


def test_table_army_rows_and_empty_rows(cli):
    path = str(ROSTERS / "necron-combat-patrol.10e.rosz")
    r = cli("table", "--army", path, "--targets", "MEQ", "--data", str(BSDATA),
                  "--format", "json")
    assert r.exit_code == 0, r.output
    grid = json.loads(r.stdout)
    labels = [row["label"] for row in grid["rows"]]
    assert labels == ["Overlord", "Necron Warriors", "Skorpekh Destroyers",
                      "Canoptek Scarab Swarms"]
    cells = {row["label"]: row["values"][0] for row in grid["rows"]}
    assert cells["Skorpekh Destroyers"] is None  # no ranged weapons: an empty row
    r = cli("table", "--army", path, "--defence", "--data", str(BSDATA), "Immortals",
                  "--format", "json")
    assert r.exit_code == 0, r.output
    grid = json.loads(r.stdout)
    assert [c["label"] for c in grid["columns"]] == labels


def test_army_command_json_and_text(cli):
    path = str(ROSTERS / "world-eaters.11e.gwapp.txt")
    r = cli("army", path, "--json", "--data", str(BSDATA))
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["points"] == 1975
    r = cli("army", path, "--data", str(BSDATA))
    assert r.exit_code == 0 and "[leads Exalted Eightbound]" in r.output
