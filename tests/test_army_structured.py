"""Structured army lists (issue 36): New Recruit's JSON export, ListForge's share JSON and share
link, what ``army --json`` writes read back; and the UnitCrunch export, round-tripped through
:func:`mathhammer.report.unitcrunch.loads`.

The fixtures of ``fixtures/army/structured/`` are one hand-written World Eaters roster (the
435-point list every text fixture of ``fixtures/army/`` holds) and the forms
``tests/roster_json.py`` makes of it. The real rosters of ``../shared/rosters`` are turned into
the same forms here, at test time (never copied into the project).
"""

from __future__ import annotations

import base64
import copy
import functools
import gzip
import json
import urllib.parse
from pathlib import Path

import attrs
import pytest
from army_corpus import (
    cache,  # noqa: F401  (a private cache folder, module-wide)
    find_shared,
)
from click.testing import CliRunner
from roster_json import listforge_json, newrecruit_json, share_link, write_fixtures

from mathhammer.cli import cli
from mathhammer.data.army import load_army, parse_army, parse_list, read_list
from mathhammer.data.army.structured import decode_link, kind_of
from mathhammer.errors import InputError
from mathhammer.limits import (
    MAX_ARMY_FILE_BYTES,
    MAX_ARMY_UNITS,
    MAX_JSON_DEPTH,
    MAX_LINE,
    MAX_ROSTER_DEPTH,
)

FIXTURES = Path(__file__).parent / "fixtures" / "army"
FOLDER = FIXTURES / "structured"
ROS = FOLDER / "world-eaters.10e.ros"
FORMAT_OF = {
    "world-eaters.10e.newrecruit-json.json": "newrecruit-json",
    "world-eaters.10e.listforge-json.json": "listforge-json",
    "world-eaters.10e.listforge-link.txt": "listforge-link",
    "world-eaters.10e.mathhammer-json.json": "mathhammer-json",
}
#: the text exports of the same list (fixtures/army/), each read to the same units
TEXTS = ("gwapp-10e.txt", "newrecruit-gw.txt", "newrecruit-nr.txt", "listforge.txt",
         "warorgan-tree.txt")
UNITS = [("Khârn the Betrayer", 85, 1), ("Master of Executions", 85, 1),
         ("Khorne Berzerkers", 180, 10), ("Chaos Rhino", 85, 1)]
SHARED = find_shared()
ROSTERS = SHARED / "rosters"
BSDATA = SHARED / "bsdata"
_skip = pytest.mark.skipif(not (BSDATA / "10e").is_dir(),
                           reason=f"shared BattleScribe data not found at {BSDATA}")
_shared = pytest.mark.skipif(not ROSTERS.is_dir(), reason=f"shared rosters not at {ROSTERS}")


def needs_data(f):
    """Resolved against ../shared/bsdata (skipped without it; slow: the first use indexes an
    edition)."""
    return pytest.mark.slow(_skip(f))


def real_rosters() -> list[Path]:
    """The real BattleScribe rosters of ../shared/rosters and its corpus (none without it)."""
    if not ROSTERS.is_dir():
        return []
    return sorted(p for d in (ROSTERS, ROSTERS / "corpus") if d.is_dir()
                  for p in d.iterdir() if p.suffix in (".ros", ".rosz"))


def _saved(a) -> list[tuple]:
    """What a resolved army holds as its saved JSON does: name, models, points, each model
    group with the weapons and profiles it carries (as the data names them), the other wargear
    and the enhancements."""
    return [(u.name, u.models, u.points, json.dumps(
        [g | {"weapons": sorted(g["weapons"], key=lambda w: w["name"])} for g in u.group_json()],
        sort_keys=True), tuple(sorted(u.wargear)), u.enhancements) for u in a.units]


def _units(a) -> list[tuple]:
    """What a resolved army holds, unit by unit, as a player checks it: name, models, points,
    each weapon and its count, the other wargear, the enhancements (in list order)."""
    return [(u.name, u.models, u.points, tuple(sorted((w.name, w.count) for w in u.weapons)),
             tuple(sorted(u.wargear)), u.enhancements) for u in a.units]


def _parsed(p, profiles: bool = True) -> list:
    """A parsed list's units, without where each was read from (``profiles``: with the weapon
    profiles the list gives; ListForge's JSON gives none, so whether a selection is a weapon
    is the data's to say there)."""
    def item(i):
        return i if profiles else attrs.evolve(i, tables=(), weapon=i.weapon or None)

    return [attrs.evolve(u, line=0, items=tuple(map(item, u.items)), models=tuple(
        attrs.evolve(m, items=tuple(map(item, m.items))) for m in u.models)) for u in p.units]


@functools.cache
def army(path: str, fmt: str | None = None):
    return load_army(path, data=BSDATA, rules="10e", fmt=fmt)


# ------------------------------------------------------------------ the fixtures


def test_the_fixtures_are_what_roster_json_writes(tmp_path):
    (tmp_path / ROS.name).write_bytes(ROS.read_bytes())
    for p in write_fixtures(tmp_path):
        assert p.read_bytes() == (FOLDER / p.name).read_bytes(), p.name


@pytest.mark.parametrize("name", sorted(FORMAT_OF))
def test_each_structured_format_is_recognised_and_read_without_data(name):
    p = read_list(FOLDER / name)
    assert p.format == FORMAT_OF[name]
    assert [(u.name, u.points) for u in p.units] == [(n, pts) for n, pts, _ in UNITS]
    assert p.declared_points == 435 and p.edition == "10e"
    assert p.detachments == ("Berzerker Warband",)
    moe = p.units[1]
    assert moe.enhancements == ("Berzerker Glaive",)
    # the models each unit's selections give: 1 champion + 9 (7 and 2 in the roster)
    assert [sum(m.count for m in u.models) or 1 for u in p.units] == [n for *_, n in UNITS]


@pytest.mark.parametrize("name", sorted(set(FORMAT_OF)
                                         - {"world-eaters.10e.mathhammer-json.json"}))
def test_the_roster_trees_read_as_the_roster_itself(name):
    ros, other = read_list(ROS), read_list(FOLDER / name)
    profiles = other.format == "newrecruit-json"
    assert _parsed(other, profiles) == _parsed(ros, profiles)
    # the BattleScribe ids (entryId: link id::target id, the target's first) are kept
    assert other.units[0].ids == ("3449-7dac-6ac8-5d51", "1cfc-2dc0-2a7a-28fe")


def test_a_share_link_pasted_as_players_paste_it():
    lf = read_list(FOLDER / "world-eaters.10e.listforge-json.json")
    link = (FOLDER / "world-eaters.10e.listforge-link.txt").read_text().strip()
    payload = link.split("#/listforge/", 1)[1]
    assert payload.startswith("H4sI") and kind_of(link) == kind_of(payload) == "link"
    urlsafe = payload.replace("+", "-").replace("/", "_").rstrip("=")
    for form in (link, payload, f"  {link}\n", urllib.parse.quote(payload, safe=""), urlsafe,
                 link.replace("https://example.app", "https://listforge.app") + "?share=1"):
        got = parse_list(form, "<link>")
        assert got.format == "listforge-link" and _parsed(got) == _parsed(lf), form[:60]


def test_a_format_can_be_forced_and_a_wrong_one_is_said():
    nr = (FOLDER / "world-eaters.10e.newrecruit-json.json").read_text(encoding="utf-8")
    assert parse_list(nr, "x.json", fmt="listforge-json").format == "listforge-json"
    with pytest.raises(InputError, match="x.json: --format mathhammer-json: the file is "
                                         "newrecruit-json"):
        parse_list(nr, "x.json", fmt="mathhammer-json")
    with pytest.raises(InputError, match="x.txt: not a JSON army list"):
        parse_list("Khorne Berzerkers (180 points)", "x.txt", fmt="newrecruit-json")


# ------------------------------------------------------------------ hostile input


def _nr(mutate) -> str:
    tree = json.loads((FOLDER / "world-eaters.10e.newrecruit-json.json").read_text("utf-8"))
    mutate(tree)
    return json.dumps(tree)


def _deep_selections(tree, depth: int) -> None:
    sel = tree["roster"]["forces"][0]["selections"][2]  # Khârn
    for _ in range(depth):
        sel["selections"] = [{"name": "x", "type": "upgrade", "selections": []}]
        sel = sel["selections"][0]


def _gzip_link(raw: bytes) -> str:
    return "https://x.app/#/listforge/" + base64.b64encode(gzip.compress(raw)).decode()


HOSTILE = [
    # (what, text, the error's words)
    ("JSON nested past the limit", '{"roster": ' + "[" * 150 + "]" * 150 + "}",
     f"the JSON nests {MAX_JSON_DEPTH + 1} levels deep .* mathhammer.limits.MAX_JSON_DEPTH"),
    ("JSON nested past Python's own limit", '{"roster": ' + "[" * 5000 + "]" * 5000 + "}",
     f"the JSON nests deeper than {MAX_JSON_DEPTH} levels .*limits.MAX_JSON_DEPTH"),
    ("selections nested past the limit", _nr(lambda t: _deep_selections(t, MAX_ROSTER_DEPTH + 5)),
     "selections nest deeper than 32 levels .*mathhammer.limits.MAX_ROSTER_DEPTH"),
    ("a name past the line limit",
     _nr(lambda t: t["roster"]["forces"][0]["selections"][2].update(name="K" * (MAX_LINE + 1))),
     f"a selection name of {MAX_LINE + 1} characters .*mathhammer.limits.MAX_LINE"),
    ("more units than the limit", _nr(lambda t: t["roster"]["forces"][0]["selections"].extend(
        [copy.deepcopy(t["roster"]["forces"][0]["selections"][2])] * MAX_ARMY_UNITS)),
     f"more than {MAX_ARMY_UNITS} units in one roster .*mathhammer.limits.MAX_ARMY_UNITS"),
    ("a roster without units", _nr(lambda t: t["roster"]["forces"][0].update(selections=[])),
     "the roster has no units"),
    ("damaged JSON", '{"roster": {"forces": [', "not well-formed JSON"),
    ("JSON of something else", '{"players": [1, 2]}', "a JSON file that is not an army list"),
    ("a share link that is not base64", "https://x.app/#/listforge/H4sI***", "is not base64"),
    ("a share link that is not gzip", "https://x.app/#/listforge/"
     + base64.b64encode(b'{"roster": {}}').decode(), "its payload is not gzipped"),
    ("a truncated share link", _gzip_link(b'{"roster": {"forces": []}}')[:-12],
     "truncated ListForge share link|damaged"),
    ("a share link that unpacks past the file limit",
     _gzip_link(b'{"name": "' + b"x" * (MAX_ARMY_FILE_BYTES + 10) + b'"}'),
     f"unpacks to over the limit of {MAX_ARMY_FILE_BYTES} bytes"),
    ("a share link of JSON that is no roster", _gzip_link(b'{"a": 1}'),
     r"not a roster \(no roster.forces list\)"),
]


@pytest.mark.parametrize(("what", "text", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_structured_input_is_one_line_naming_the_limit(what, text, words):
    with pytest.raises(InputError, match=words) as e:
        parse_list(text, "list.json")
    assert "\n" not in str(e.value) and str(e.value).startswith("list.json: ")


def test_a_bad_list_on_the_command_line_is_one_line_and_exit_2(tmp_path):
    for k, (what, text, _words) in enumerate(HOSTILE[:8]):
        f = tmp_path / f"bad{k}.json"
        f.write_text(text, encoding="utf-8")
        r = CliRunner().invoke(cli, ["army", str(f)])
        assert r.exit_code == 2, what
        assert "Traceback" not in r.output and len(r.stderr.strip().splitlines()) == 1, what
        assert str(f) in r.stderr, what


SAVED_ARMY = json.loads((FOLDER / "world-eaters.10e.mathhammer-json.json").read_text("utf-8"))


def _edited(path: str, value) -> str:
    out = copy.deepcopy(SAVED_ARMY)
    *head, last = path.split(".")
    at = out
    for k in head:
        at = at[int(k)] if k.isdigit() else at[k]
    at[int(last) if last.isdigit() else last] = value
    return json.dumps(out)


@pytest.mark.parametrize(("path", "value", "words"), [
    ("units.0.points", "85", r"units\[0\]: 'points' is \"85\", expected int"),
    ("units.0.points", True, r"units\[0\]: 'points' is true, expected int"),
    ("units.2.models", 11, r"units\[2\]: 'models' is 11, its groups' models add up to 10"),
    ("units.2.groups.0.weapons.0.count", -1, r"groups\[0\]: weapons\[0\]: 'count' is -1"),
    ("units.1.name", "", r"units\[1\]: no 'name'"),
    ("edition", "9e", "'edition' is '9e', expected 10e or 11e"),
    ("attached", [{"leader_index": 0, "bodyguard_index": 9}],
     r"attached\[0\]: leader_index 0, bodyguard_index 9: not two units of the 4"),
    ("units.0.name", "x" * (MAX_LINE + 1), f"'name' is {MAX_LINE + 1} characters long"),
])
def test_a_saved_army_edited_wrongly_names_the_field_and_value(path, value, words):
    with pytest.raises(InputError, match="saved.json: .*" + words):
        parse_list(_edited(path, value), "saved.json")


# ------------------------------------------------------------------ resolved


@needs_data
@pytest.mark.parametrize("name", sorted(FORMAT_OF))
def test_each_structured_format_reads_as_the_text_exports_of_the_list(name):
    a = army(str(FOLDER / name))
    assert a.unresolved == () and a.points == 435
    assert [(u.name, u.points, u.models) for u in a.units] == UNITS
    for text in TEXTS:  # the same units, models, points, weapons, wargear and enhancements
        t = army(str(FIXTURES / text))
        assert sorted(_units(a)) == sorted(_units(t)), text
    got = {u.name: u for u in a.units}
    # champion: chainblade, plasma pistol; 7 with bolt pistol and chainblade; 2 with
    # eviscerator and plasma pistol: 8 chainblades, 3 plasma pistols, 7 bolt pistols
    assert {w.name: w.count for w in got["Khorne Berzerkers"].weapons} == {
        "Chainblade": 8, "Plasma pistol": 3, "Bolt pistol": 7, "Khornate eviscerator": 2}
    assert got["Khorne Berzerkers"].wargear == ("Icon of Khorne",)
    assert got["Khârn the Betrayer"].datasheet_id == "3449-7dac-6ac8-5d51"


@needs_data
def test_a_datasheet_is_matched_by_its_battlescribe_id_before_its_name():
    def rename(t):
        sels = t["roster"]["forces"][0]["selections"]
        sels[2]["name"] = "Kharn the Renamed"   # the id is Khârn's: Khârn, said
        sels[5]["entryId"] = "0000-0000-0000-0000"  # an id no catalogue has: the name decides

    a = parse_army(_nr(rename), data=BSDATA, source="x.json", rules="10e")
    assert [(u.name, u.points, u.models) for u in a.units] == UNITS
    assert any("'Kharn the Renamed' read as 'Khârn the Betrayer' (the data's datasheet of "
               "its BattleScribe id 3449-7dac-6ac8-5d51)" in w for w in a.warnings), a.warnings
    # without the id, the name is not found
    def no_id(t):
        rename(t)
        t["roster"]["forces"][0]["selections"][2].pop("entryId")

    b = parse_army(_nr(no_id), data=BSDATA, source="x.json", rules="10e")
    assert [u.text for u in b.unresolved if u.unit] == ["Kharn the Renamed"]


@needs_data
def test_a_saved_army_reads_back_by_its_datasheet_id():
    saved = copy.deepcopy(SAVED_ARMY)
    saved["units"][0]["name"] = "Kharn, fixed by hand"
    a = parse_army(json.dumps(saved), data=BSDATA, source="saved.json")
    assert [(u.name, u.points, u.models) for u in a.units] == UNITS
    assert any("'Kharn, fixed by hand' read as 'Khârn the Betrayer'" in w for w in a.warnings)


def _round_trip(a, tmp_path: Path, name: str):
    """``a`` as ``army --json`` writes it, read back."""
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(a.to_json(), ensure_ascii=False), encoding="utf-8")
    return load_army(f, data=BSDATA)


@needs_data
def test_army_json_reads_back_as_the_same_army(tmp_path):
    for name in TEXTS:
        a = army(str(FIXTURES / name))
        b = _round_trip(a, tmp_path, name)
        assert b.format == "mathhammer-json"
        assert _units(b) == _units(a) and b.points == a.points == 435, name
        assert b.attached == a.attached and b.detachments == a.detachments, name
        assert [u.datasheet_id for u in b.units] == [u.datasheet_id for u in a.units]


@needs_data
@_shared
@pytest.mark.parametrize("name", ["world-eaters.10e.gwapp.txt", "blood-angels.10e.gwapp.txt",
                                  "tau.11e.gwapp.txt", "world-eaters.11e.gwapp.txt",
                                  "wtc.10e.newrecruit-wtc.txt", "ultramarines.10e.rosz",
                                  "votann-leviathan.10e.rosz"])
def test_army_json_of_a_real_list_reads_back_as_the_same_army(tmp_path, name):
    a = load_army(ROSTERS / name, data=BSDATA)
    assert a.unresolved == ()
    b = _round_trip(a, tmp_path, name)
    assert b.unresolved == () and b.edition == a.edition
    # the weapons as the data names them (the list's own spelling, 'Perdition Pistol' for the
    # data's 'Perdition', is not saved: the profile is)
    assert _saved(b) == _saved(a) and b.points == a.points, name
    assert b.attached == a.attached


@needs_data
@_shared
@pytest.mark.parametrize("path", real_rosters(), ids=lambda p: p.name)
def test_a_real_roster_as_new_recruit_json_listforge_json_and_a_link(path):
    ros = read_list(path)
    raw = path.read_bytes()
    forms = {"newrecruit-json": json.dumps(newrecruit_json(raw)),
             "listforge-json": json.dumps(listforge_json(raw)),
             "listforge-link": share_link(listforge_json(raw))}
    a = load_army(path, data=BSDATA)
    for fmt, text in forms.items():
        p = parse_list(text, path.name)
        profiles = fmt == "newrecruit-json"
        assert p.format == fmt and _parsed(p, profiles) == _parsed(ros, profiles), fmt
        b = parse_army(text, data=BSDATA, source=path.name)
        assert [u[:3] for u in _units(b)] == [u[:3] for u in _units(a)], fmt
        assert b.points == a.points, fmt
        if profiles:  # the weapons too
            assert _units(b) == _units(a) and b.unresolved == a.unresolved, fmt
        else:
            # without the roster's profiles the data says what each name is: a name the data
            # lacks (a Medipack, the Silent King's close combat weapon) is a line not read,
            # naming the data file that lacks it, never a guess
            extra = [u for u in b.unresolved if u not in a.unresolved]
            assert all(u.lacks is not None and not u.unit for u in extra), fmt


@needs_data
@_shared
@pytest.mark.parametrize("name", ["world-eaters.10e.gwapp.txt", "blood-angels.10e.gwapp.txt",
                                  "tau.11e.gwapp.txt", "wtc.10e.newrecruit-wtc.txt"])
def test_another_tools_new_recruit_json_reads_as_the_text_it_was_made_from(name):
    # wh40kdc (40kdc-data's importer and exporter) reads the app's text and writes New Recruit's
    # JSON export of it: weapons marked by a Ranged Weapon category, no profiles, no ids
    from wh40kdc.export import export_roster
    from wh40kdc.imports import try_import_roster

    text = (ROSTERS / name).read_text(encoding="utf-8")
    got = try_import_roster(text)
    assert got["ok"], got.get("message")
    nr = export_roster(got["roster"], "newrecruit-json")
    assert parse_list(nr, name).format == "newrecruit-json"
    a, t = parse_army(nr, data=BSDATA, source=name), load_army(ROSTERS / name, data=BSDATA)
    assert [(u.name, u.models, u.points, sorted((w.name, w.count) for w in u.weapons))
            for u in a.units] == [(u.name, u.models, u.points, sorted(
                (w.name, w.count) for w in u.weapons)) for u in t.units]
    assert a.points == t.points and a.unresolved == () and a.edition == t.edition


def test_another_tool_reads_the_fixtures_as_the_formats_they_are():
    from wh40kdc.imports import try_import_roster

    for name, fmt in (("world-eaters.10e.newrecruit-json.json", "newrecruit-json"),
                      ("world-eaters.10e.listforge-json.json", "listforge"),
                      ("world-eaters.10e.listforge-link.txt", "listforge")):
        got = try_import_roster((FOLDER / name).read_text(encoding="utf-8"))
        assert got["ok"] and got["format"] == fmt, name
        assert [(u["ref"]["raw_name"], u["model_count"]) for u in got["roster"]["units"]] == [
            (n, m) for n, _pts, m in UNITS], name


@needs_data
def test_army_takes_a_share_link_as_its_file():
    link = (FOLDER / "world-eaters.10e.listforge-link.txt").read_text().strip()
    r = CliRunner().invoke(cli, ["army", link, "--json", "--data", str(BSDATA / "10e")])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["points"] == 435 and [u["name"] for u in out["units"]] == [n for n, *_ in UNITS]
    r = CliRunner().invoke(cli, ["army", "https://x.app/#/listforge/H4sI%%%", "--data",
                                 str(BSDATA / "10e")])
    assert r.exit_code == 2 and "not a ListForge share link" in r.stderr
    assert "Traceback" not in r.output


def test_decode_link_stops_at_the_limit_without_unpacking_everything():
    bomb = gzip.compress(b"0" * (MAX_ARMY_FILE_BYTES * 4))
    with pytest.raises(InputError, match="unpacks to over the limit"):
        decode_link(base64.b64encode(bomb).decode(), "x")


@needs_data
def test_what_army_json_writes_to_a_file_is_read_back(tmp_path):
    saved = tmp_path / "list.json"
    args = ["--data", str(BSDATA / "10e")]
    r = CliRunner().invoke(cli, ["army", str(FIXTURES / "gwapp-10e.txt"), "--json", "-o",
                                 str(saved), *args])
    assert r.exit_code == 0 and r.stdout == "", r.output
    r = CliRunner().invoke(cli, ["army", str(saved), "--json", *args])
    assert r.exit_code == 0, r.output
    back = json.loads(r.stdout)
    assert back["format"] == "mathhammer-json" and back["points"] == 435
    assert [(u["name"], u["points"], u["models"]) for u in back["units"]] == UNITS
    # an existing file is kept without --force
    r = CliRunner().invoke(cli, ["army", str(FIXTURES / "gwapp-10e.txt"), "-o", str(saved),
                                 *args])
    assert r.exit_code == 2 and "exists" in r.stderr
    assert json.loads(saved.read_text(encoding="utf-8"))["points"] == 435
