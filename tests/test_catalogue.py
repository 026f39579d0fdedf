"""The compiled store of the BattleScribe data (mathhammer.data.store.compiled): built once, rebuilt
when a file changes and not otherwise, kept when a build fails; lookups, search, the other
edition's hint, and every datasheet's round trip. The data here is a small made-up folder of
both editions (written by this module); the whole shared data is read by the slow tests."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import attrs
import pytest
from bsjson import ability, character, weapon

from mathhammer.data.bsdata import load_catalogue_unit
from mathhammer.data.store import compiled as catalogue
from mathhammer.data.store import index as unit_index
from mathhammer.data.typed.lookup import find_unit
from mathhammer.data.units import serial
from mathhammer.engine.attack import value_against
from mathhammer.jobs.search import search_names

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


SHARED = Path(os.environ.get("MATHHAMMER_SHARED",
                             Path(__file__).resolve().parents[2] / "shared")) / "bsdata"


# ------------------------------------------------------------------ a small data folder

def _weapon(wid: str, name: str, melee: bool = False) -> dict:
    """A2 BS/WS 3+ S4 AP-1 D1."""
    return weapon(wid, name, "2", "3+", "4", "-1", "1", melee=melee)


def _unit(uid: str, name: str, faction: str, t: str = "4", pts: int = 80,
          keyword: str = "Infantry", ability: tuple[str, str] | None = None,
          more: tuple[dict, ...] = ()) -> dict:
    """A one-model datasheet with a bolt rifle and a close combat weapon (and ``more``)."""
    line = (("M", '6"'), ("T", t), ("SV", "3+"), ("W", "5"), ("LD", "6+"), ("OC", "1"))
    guns = [_weapon(f"{uid}r", "Bolt rifle"), _weapon(f"{uid}m", "Close combat weapon", True),
            *more]
    return character(uid, name, line, guns, [ability] if ability else [], [keyword], pts,
                     faction)


#: the chapter's detachment (its rule an ability profile) and an enhancement of it
_DETACHMENTS = {
    "id": "dets", "name": "Detachment", "type": "upgrade", "selectionEntryGroups": [
        {"id": "detg", "name": "Detachment", "selectionEntries": [
            {"id": "gtf", "name": "Gladius Task Force", "type": "upgrade", "profiles": [
                ability("gtfa", "Combat Doctrines",
                         "Each time this model makes an attack, add 1 to the Hit roll.")]}]},
        {"id": "enhg", "name": "Enhancements", "selectionEntries": [
            {"id": "aa", "name": "Artificer Armour", "type": "upgrade",
             "costs": [{"name": "pts", "typeId": "pts", "value": 10}], "profiles": [
                 ability("aaa", "Artificer Armour",
                          "Each time an attack targets the bearer, add 1 to the Wound roll.")]}]}
    ]}


def _link(lid: str, name: str, target: str) -> dict:
    return {"id": lid, "name": name, "targetId": target, "type": "selectionEntry"}


_SYSTEM = {"id": "gs1", "name": "Test system", "sharedRules": []}
_LIBRARY = {"id": "lib", "name": "Imperium - Library", "gameSystemId": "gs1", "library": "true",
            "sharedSelectionEntries": [_unit("rh", "Rhino", "Adeptus Astartes", t="9",
                                             keyword="Vehicle")]}


def _chapter(cid: str, name: str, units: list[dict]) -> dict:
    return {"id": cid, "name": name, "gameSystemId": "gs1",
            "catalogueLinks": [{"id": f"{cid}cl", "name": "Imperium - Library",
                                "targetId": "lib", "type": "catalogue"}],
            "sharedSelectionEntries": units,
            "entryLinks": [_link(f"{cid}-{u['id']}", u["name"], u["id"]) for u in units]
            + [_link(f"{cid}-rh", "Rhino", "rh")]}


_MARINES = _chapter("sm", "Imperium - Space Marines", [
    _unit("cap", "Captain", "Adeptus Astartes", ability=("Rites of Battle", "Once per round.")),
    _unit("capt", "Captain in Terminator Armour", "Adeptus Astartes", pts=95),
    _unit("bc", "Blade Champion", "Adeptus Astartes", ability=(
        "Leader", "This model can be attached to the following unit:\n- ^^**Blood Angels "
                  "Captain**^^"), more=(_weapon("bcb", "Master-crafted blade", True),)),
    _unit("bad", "Broken Bunker", "Adeptus Astartes", t="99"),  # over MAX_TOUGHNESS: no import
])
_MARINES["sharedSelectionEntries"].append(_DETACHMENTS)
_ANGELS = _chapter("ba", "Imperium - Blood Angels", [
    _unit("bac", "Blood Angels Captain", "Blood Angels"),
])
_TAU = {"id": "tau", "name": "Xenos - T'au Empire", "gameSystemId": "gs1",
        "sharedSelectionEntries": [_unit("cs", "Crisis Sunforge Battlesuits", "T'au Empire")],
        "entryLinks": [_link("tau-cs", "Crisis Sunforge Battlesuits", "cs")]}
_SINGULAR = {"sharedSelectionEntries": "selectionEntry", "selectionEntries": "selectionEntry",
             "costs": "cost", "categoryLinks": "categoryLink", "profiles": "profile",
             "characteristics": "characteristic", "constraints": "constraint",
             "entryLinks": "entryLink", "sharedRules": "rule",
             "catalogueLinks": "catalogueLink", "selectionEntryGroups": "selectionEntryGroup"}


def _xml(tag: str, data: dict) -> str:
    """BattleScribe XML of the same data: lists become wrapper elements, strings attributes."""
    from xml.sax.saxutils import escape, quoteattr

    attrs_ = "".join(f" {k}={quoteattr(str(v))}" for k, v in data.items()
                     if not isinstance(v, list) and k != "$text")
    inner = escape(data.get("$text", ""))
    for k, v in data.items():
        if isinstance(v, list):
            inner += f"<{k}>" + "".join(_xml(_SINGULAR[k], x) for x in v) + f"</{k}>"
    return f"<{tag}{attrs_}>{inner}</{tag}>"


def make_data(root: Path) -> Path:
    """``root/10e`` (XML: a library with a Rhino, Space Marines and Blood Angels) and
    ``root/11e`` (JSON: T'au with the Crisis Sunforge Battlesuits)."""
    e10, e11 = root / "10e", root / "11e"
    e10.mkdir(parents=True)
    e11.mkdir()
    (e10 / "Warhammer 40,000.gst").write_text(_xml("gameSystem", _SYSTEM), encoding="utf-8")
    for cat in (_LIBRARY, _MARINES, _ANGELS):
        (e10 / f"{cat['name']}.cat").write_text(_xml("catalogue", cat), encoding="utf-8")
    (e11 / "Warhammer 40,000.json").write_text(json.dumps({"gameSystem": _SYSTEM}),
                                               encoding="utf-8")
    (e11 / "Xenos - T'au Empire.json").write_text(json.dumps({"catalogue": _TAU}),
                                                  encoding="utf-8")
    return root


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch, request):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    if request.node.get_closest_marker("slow") is None:  # the shared data's stores are kept
        monkeypatch.delenv("MATHHAMMER_STORE", raising=False)
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    catalogue.forget()
    unit_index._MEMO.clear()
    yield tmp_path
    catalogue.forget()
    unit_index._MEMO.clear()


@pytest.fixture
def data(tmp_path) -> Path:
    return make_data(tmp_path / "bsdata")


def _reopen(edition: str, folder: Path, **kw) -> catalogue.Store:
    """The store as a new process would open it."""
    catalogue.forget()
    return catalogue.open_store(edition, folder, workers=1, **kw)


# ------------------------------------------------------------------ building

def _edit(path: Path) -> None:
    """A data file's content changed (a new line at its end: it reads the same)."""
    path.write_bytes(path.read_bytes() + b"\n")


def test_the_store_is_built_once_and_again_when_a_file_changes(data):
    compiled: list[str] = []
    progress = lambda _done, _total, name: compiled.append(name)  # noqa: E731
    first = _reopen("10e", data, progress=progress)
    assert first.built and len(compiled) == 4  # the game system, the library, two chapters
    built_at = first.path.stat().st_mtime_ns
    compiled.clear()
    again = _reopen("10e", data, progress=progress)
    assert not again.built and compiled == [] and again.path.stat().st_mtime_ns == built_at
    # touching a file (same content, a new modification time) keeps the store
    cat = data / "10e" / "Imperium - Blood Angels.cat"
    later = time.time() + 5
    os.utime(cat, (later, later))
    touched = _reopen("10e", data, progress=progress)
    assert not touched.built and compiled == [] and touched.path == first.path
    # a file's content changed: a new store
    _edit(cat)
    changed = _reopen("10e", data, progress=progress)
    assert changed.built and len(compiled) == 4 and changed.path != first.path


def test_an_open_store_is_compared_with_its_files_after_a_while(data, monkeypatch):
    first = _reopen("10e", data)
    _edit(data / "10e" / "Imperium - Blood Angels.cat")
    monkeypatch.setattr(catalogue, "RECHECK_SECONDS", 3600)
    assert catalogue.open_store("10e", data, workers=1) is first  # one command checks once
    monkeypatch.setattr(catalogue, "RECHECK_SECONDS", 0)
    assert catalogue.open_store("10e", data, workers=1).built  # a server sees the change


def test_an_upgrade_rebuilds(data, monkeypatch):
    assert _reopen("10e", data).built
    monkeypatch.setattr(catalogue, "SCHEMA_VERSION", catalogue.SCHEMA_VERSION + 1)
    assert _reopen("10e", data).built
    assert not _reopen("10e", data).built


def test_a_failed_build_keeps_the_old_store(data, monkeypatch):
    old = _reopen("10e", data)
    path, names = old.path, [d.name for d in old.datasheets()]
    catalogue.forget()
    real = catalogue.compile_catalogue
    seen = []

    def failing(p: str):
        seen.append(p)
        if len(seen) == 3:  # mid-build: two files compiled, the third fails
            raise KeyboardInterrupt
        return real(p)

    monkeypatch.setattr(catalogue, "compile_catalogue", failing)
    _edit(data / "10e" / "Imperium - Blood Angels.cat")
    with pytest.raises(KeyboardInterrupt):
        catalogue.open_store("10e", data, workers=1)
    assert len(seen) == 3
    stores = sorted(p.name for p in path.parent.iterdir() if p.suffix in (".sqlite", ".tmp"))
    assert stores == [path.name]  # no temporary file left, no new store
    monkeypatch.setattr(catalogue, "compile_catalogue", real)
    kept = catalogue.Store(path, data / "10e", "10e")
    assert [d.name for d in kept.datasheets()] == names
    kept.close()
    assert _reopen("10e", data).built  # the next use builds the store of the edited file


def test_a_datasheet_that_does_not_import_is_kept_with_its_error(data):
    store = _reopen("10e", data)
    broken = [d for d in store.datasheets() if d.name == "Broken Bunker"]
    assert len(broken) == 1 and "99 is over the limit of 30" in broken[0].error
    with pytest.raises(ValueError, match=r"Broken Bunker.*cannot be imported from the 10e data"
                                         r".*99 is over the limit of 30"):
        find_unit("Broken Bunker", data=data)


def test_the_store_holds_what_the_importer_gives(data):
    store = _reopen("10e", data)
    index = unit_index.unit_index("10e", data)
    (cat, name), = index.find("Captain")
    ds = index.datasheet(cat, name)
    db = store.db
    assert db.execute("SELECT models, cost FROM points WHERE datasheet = ?", (ds,)).fetchall() \
        == [(1, 80)]
    assert db.execute("SELECT keyword, faction FROM keywords WHERE datasheet = ? ORDER BY 2",
                      (ds,)).fetchall() == [("INFANTRY", 0), ("ADEPTUS ASTARTES", 1)]
    assert store.ability_texts(ds) == [("datasheet", "Rites of Battle", "Once per round.")]
    assert db.execute("SELECT name, melee, optional FROM weapons WHERE datasheet = ?",
                      (ds,)).fetchall() == [("Bolt rifle", 0, 0), ("Close combat weapon", 1, 0)]
    assert db.execute("SELECT statline FROM model_groups WHERE datasheet = ?",
                      (ds,)).fetchall() == [("M6 T4 Sv3+ W5 Ld6+ OC1",)]
    assert store.leaders_of("blood angels captain") == ["Blade Champion"]
    assert store.leaders_of("Captain") == []


# ------------------------------------------------------------------ round trip

def _all_round_trip(folder: Path, edition: str) -> int:
    """Every datasheet of the store equals the importer's unit of the same catalogue."""
    import warnings

    index = unit_index.unit_index(edition, folder)
    n = 0
    for cat in index.catalogues:
        for name, _key, _own in cat.units:
            ds = index.datasheet(cat, name)
            record = index.store.record(ds)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if record["error"] is not None:
                    continue
                stored = index.store.unit(ds)
                if index.store.factions(ds)[0] != cat.label:
                    continue  # compared in the first catalogue that holds it
                try:
                    direct = load_catalogue_unit(f"{cat.path}:{name}")
                except ValueError:
                    continue  # a name two datasheets of the file share: not one by name
            assert attrs.evolve(stored, source="") == attrs.evolve(direct, source=""), name
            n += 1
    return n


def test_every_datasheet_round_trips(data):
    assert _all_round_trip(data / "10e", "10e") == 5  # Rhino, three marines, one angel
    assert _all_round_trip(data / "11e", "11e") == 1


def test_values_round_trip_through_json():
    from mathhammer.data.units.bundled import list_units

    for unit in list_units():
        assert serial.from_json(json.loads(json.dumps(serial.to_json(unit)))) == unit
    with pytest.raises(ValueError, match="not one of mathhammer's"):
        serial.from_json({"@": "os:system"})


# ------------------------------------------------------------------ lookups and search

def test_the_same_datasheet_in_several_catalogues_is_one(data):
    index = unit_index.unit_index("10e", data)
    assert [c.label for c, _u in index.find("Rhino")] == ["Blood Angels"]
    assert find_unit("Rhino", data=data).groups[0].toughness == 9
    rows = catalogue.open_store("10e", data).search("rhino")
    assert [(d.name, d.factions) for d in rows] == [("Rhino", ("Blood Angels", "Space Marines"))]


def test_search_ranks_the_exact_name_first(data):
    found = [d.name for d in catalogue.open_store("10e", data).search("captain")]
    # exact, then starting with the word, then the word inside a name, then a datasheet whose
    # ability text has it (the Blade Champion leads the Blood Angels Captain)
    assert found == ["Captain", "Captain in Terminator Armour", "Blood Angels Captain",
                     "Blade Champion"]
    assert [d.name for d in catalogue.open_store("10e", data).search("champ")] == \
        ["Blade Champion"]
    # a keyword is found by the full-text search, after the names
    assert [d.name for d in catalogue.open_store("10e", data).search("vehicle")] == ["Rhino"]
    assert search_names("captain", "10e", data)[:2] == [
        "Space Marines:Captain", "Space Marines:Captain in Terminator Armour"]


def test_a_search_that_names_a_faction_finds_its_units_named_with_it(data):
    # the Rhino is Blood Angels' and Space Marines': typed with either, it is named with it;
    # the datasheet's first faction otherwise
    assert search_names("Space Marines:rhi", "10e", data) == ["Space Marines:Rhino"]
    assert search_names("blood angels:Rhino", "10e", data) == ["Blood Angels:Rhino"]
    assert search_names("rhino", "10e", data) == ["Blood Angels:Rhino"]
    assert search_names("Necrons:Rhino", "10e", data) == []  # not one of its factions


def test_units_lists_datasheets_once_with_their_factions(cli, data):
    res = cli("units", "--rules", "10e", "--search", "rhino",
                                   "--data", str(data))
    assert res.exit_code == 0, res.output
    assert res.stdout == ("Rhino  [10e] Blood Angels, Space Marines  1 x M6 T9 Sv3+ W5 Ld6+ OC1"
                          "  (80 pts)\n")
    res = cli("units", "--faction", "blood angels", "--rules", "10e",
                                   "--data", str(data))
    assert [line.split("  ")[0] for line in res.stdout.splitlines()] == [
        "Blood Angels Captain", "Rhino"]


def test_a_datasheet_of_the_other_edition_is_named(cli, data):
    res = cli("kills", "Crisis Sunforge Battlesuits", "MEQ",
                                   "--data", str(data))
    assert res.exit_code == 2
    line = res.stderr.splitlines()[-1]
    assert line.startswith("mathhammer: error: unknown unit 'Crisis Sunforge Battlesuits' (not "
                           "bundled, not in the 10e data in ")
    assert line.endswith("; Crisis Sunforge Battlesuits is an 11e datasheet: add --rules 11e")
    ok = cli("kills", "Crisis Sunforge Battlesuits", "MEQ", "--rules",
                                  "11e", "--data", str(data))
    assert ok.exit_code == 0, ok.output
    res = cli("units", "--search", "crisis sunforge", "--rules", "10e",
                                   "--data", str(data))
    assert res.exit_code == 2 and "is an 11e datasheet: add --rules 11e" in res.stderr


def test_with_only_the_other_edition_installed_the_hint_is_given(cli, data):
    only = data / "11e"
    with pytest.raises(ValueError, match=r"no 10e data installed\); Crisis Sunforge "
                                         r"Battlesuits is an 11e datasheet: add --rules 11e"):
        find_unit("Crisis Sunforge Battlesuits", data=only)
    res = cli("units", "--search", "crisis", "--data", str(only))
    assert res.exit_code == 0 and res.stdout.startswith("Crisis Sunforge Battlesuits  [11e]")


def test_the_web_search_reads_the_store(data, monkeypatch):
    from mathhammer.jobs.search import search_json

    monkeypatch.setenv("MATHHAMMER_DATA", str(data))
    # a part of a word: the shortest names first
    assert search_json("capt", "10e") == [
        "Space Marines:Captain", "Blood Angels:Blood Angels Captain",
        "Space Marines:Captain in Terminator Armour"]
    assert search_json("crisis") == ["T'au Empire:Crisis Sunforge Battlesuits"]  # every edition
    assert search_json("c") == []


# ------------------------------------------------------------------ atlas

def test_the_atlas_of_a_small_data_folder(cli, data):
    from fractions import Fraction

    res = cli("atlas", "--rules", "10e", "-t", "MEQ", "--format", "json",
                                   "--workers", "1", "--data", str(data))
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["rows"]
    # every datasheet that imports, ranged and melee, by faction then name
    assert [(r["factions"][0], r["datasheet"], r["phase"]) for r in rows][:4] == [
        ("Blood Angels", "Blood Angels Captain", "ranged"),
        ("Blood Angels", "Blood Angels Captain", "melee"), ("Blood Angels", "Rhino", "ranged"),
        ("Blood Angels", "Rhino", "melee")]
    assert len(rows) == 10  # five datasheets import (not the Broken Bunker), two phases each
    cap = next(r for r in rows if r["datasheet"] == "Captain in Terminator Armour")
    cell = cap["values"][0]
    # bolt rifle, 2 attacks: hit 2/3, wound 1/2, save 3+ at AP-1 fails 1/2 -> 1/6 unsaved each:
    # damage 2/6 = 1/3; a W2 model dies only when both go through: 1/36; 95 points
    assert (Fraction(cell["kills"]["exact"]), Fraction(cell["damage"]["exact"])) == \
        (Fraction(1, 36), Fraction(1, 3))
    assert Fraction(cell["kills_per_100_pts"]["exact"]) == Fraction(1, 36) * 100 / 95
    assert Fraction(cell["damage_per_model"]["exact"]) == Fraction(1, 3)
    md = cli("atlas", "--rules", "10e", "-t", "MEQ", "--format", "md",
                                  "--workers", "1", "--data", str(data)).stdout
    # 1/36 = 0.03 per model, 100/3420 = 0.03 per 100 points
    assert "| Captain in Terminator Armour | ranged | 1 | 95 | 0.03 / 0.03 |" in md
    csv = cli("atlas", "--rules", "10e", "-t", "MEQ", "--format", "csv",
                                   "--workers", "2", "--data", str(data)).stdout
    assert csv.splitlines()[1].startswith(
        "Blood Angels,Blood Angels,Blood Angels Captain,ranged,1,80,MEQ,0.027778,0.333333,")
    html = cli("atlas", "--rules", "10e", "--data", str(data)).stdout
    assert html.count('<table class="atlas">') == 2 and 'title="5/144"' in html  # 1/36*100/80


# ------------------------------------------------------------------ army lists

_LIST = """Fixture list (255 points)

Space Marines
Strike Force (2000 points)

CHARACTERS

Captain (80 points)
  • 1x Bolt rifle
    1x Close combat weapon

Captain in Terminator Armour (95 points)
  • 1x Bolt rifle

OTHER DATASHEETS

Rhino (80 points)
  • 1x Bolt rifle
"""


def _raw_build(lib, entry):
    """What the catalogue itself gives for an entry (the importer, no store): (unit file,
    model entries, option names), or the error."""
    from mathhammer.data.bsdata.build import build_entry
    from mathhammer.data.bsdata.find import option_names

    try:
        raw, _notes, members = build_entry(lib, entry)
        return raw, members, option_names(lib, entry)
    except ValueError as e:
        return str(e)


def _stored_build(d, path, entry):
    try:
        return d.built(d.lib(path), entry)
    except ValueError as e:
        return str(e)


def test_what_a_list_selects_is_compiled_as_the_catalogue_gives_it(data):
    from mathhammer.data.army.datasheets import ArmyData
    from mathhammer.data.bsdata.files import open_library
    from mathhammer.data.bsdata.find import catalogue_units
    from mathhammer.data.typed.names import name_key

    d = ArmyData(unit_index.unit_index("10e", data))
    for name in ("Imperium - Space Marines", "Imperium - Blood Angels", "Imperium - Library"):
        path = data / "10e" / f"{name}.cat"
        lib = open_library(path)
        units = catalogue_units(lib)
        stored = d.entries(path)
        assert sorted(stored) == sorted(name_key(n) for n, _e in units)
        for n, e in units:
            assert _stored_build(d, path, stored[name_key(n)]) == _raw_build(lib, e), n
    marines = data / "10e" / "Imperium - Space Marines.cat"
    assert sorted(d.entries(marines)) == ["blade champion", "broken bunker", "captain",
                                          "captain in terminator armour", "rhino"]
    # T99 is over the limit: no unit, but the unit file a list reads is kept
    assert d.built(d.lib(marines), d.entries(marines)["broken bunker"])[0]["name"] == \
        "Broken Bunker"
    names = d.names(marines)  # the chapter's and its library's names
    assert names["bolt rifle"] == names["close combat weapon"] == ("weapon", None)
    assert names["captain"] == names["rhino"] == ("wargear", None)
    assert d.lib(marines).missing == ()


def test_an_army_list_reads_the_store_and_opens_no_data_file(data, monkeypatch):
    import mathhammer.data.bsdata as bsdata
    from mathhammer.data.army import parse_army
    from mathhammer.data.bsdata import files

    _reopen("10e", data)  # the store exists

    def refuse(*_a, **_k):
        raise AssertionError("a data file was opened")

    for module in (files, bsdata):
        monkeypatch.setattr(module, "open_library", refuse)
        monkeypatch.setattr(module, "load_file", refuse)
    army = parse_army(_LIST, data=data / "10e", rules="10e")
    assert [(u.name, u.points, u.models, u.catalogue) for u in army.units] == [
        ("Captain", 80, 1, "Space Marines"),
        ("Captain in Terminator Armour", 95, 1, "Space Marines"),
        ("Rhino", 80, 1, "Space Marines")]
    assert (army.points, army.unresolved) == (80 + 95 + 80, ())
    # the unit file cites the catalogue the list selected it in
    assert army.units[2].unit.source.startswith("BattleScribe data: Imperium - Space Marines.cat")


def test_every_unit_of_the_data_has_its_origin(data):
    # a datasheet from the store, from a list and from its catalogue: the edition, the data
    # file it is read for and the entry; its source is that origin's text
    from mathhammer.data.army import parse_army
    from mathhammer.data.bsdata import load_catalogue_unit
    from mathhammer.data.rules.unit_rules import _catalogue_of
    from mathhammer.data.units.unit import Origin

    crisis = unit_index.load_data_unit("Crisis Sunforge Battlesuits", "11e", data)
    assert crisis.origin == Origin("11e", "Xenos - T'au Empire.json",
                                   "Crisis Sunforge Battlesuits", crisis.origin.catalogue)
    assert crisis.source == crisis.origin.text() and crisis.origin.catalogue
    assert _catalogue_of(crisis, data) == data / "11e" / "Xenos - T'au Empire.json"
    rhino = parse_army(_LIST, data=data / "10e", rules="10e").units[2]
    assert (rhino.origin.edition, rhino.origin.file, rhino.origin.entry) == (
        "10e", "Imperium - Space Marines.cat", "Rhino")
    assert rhino.unit.source == rhino.origin.text()
    direct = load_catalogue_unit(f"{data / '10e' / 'Imperium - Space Marines.cat'}:Captain")
    assert (direct.origin.edition, direct.origin.file, direct.origin.entry) == (
        "10e", "Imperium - Space Marines.cat", "Captain")
    # the edition is the origin's, whatever a file is called: a 10e unit named as of a .json
    # file is not found in the 11e data
    moved = attrs.evolve(direct, origin=attrs.evolve(direct.origin,
                                                     file="Xenos - T'au Empire.json"))
    assert _catalogue_of(moved, data) is None


_LIST_MORE = """Fixture list (90 points)

Space Marines
Strike Force (2000 points)
Gladius Task Force

CHARACTERS

Captain (90 points)
  • 1x Bolt rifle
    1x Close combat weapon
    1x Master-crafted blade
  • Enhancements: Artificer Armour
"""


def test_a_detachment_an_enhancement_and_another_datasheets_weapon_read_the_store(
        data, monkeypatch):
    """What a list reads of the whole catalogue (its detachments, another datasheet's weapon,
    an enhancement's text) comes from the store too."""
    import mathhammer.data.bsdata as bsdata
    from mathhammer.data.army import parse_army
    from mathhammer.data.bsdata import files
    from mathhammer.data.rules.unit_rules import unit_rules

    _reopen("10e", data)

    def refuse(*_a, **_k):
        raise AssertionError("a data file was opened")

    for module in (files, bsdata):
        monkeypatch.setattr(module, "open_library", refuse)
        monkeypatch.setattr(module, "load_file", refuse)
    army = parse_army(_LIST_MORE, data=data / "10e", rules="10e")
    assert army.detachments == ("Gladius Task Force",)
    (captain,) = army.units
    assert (captain.name, captain.points, army.unresolved) == ("Captain", 80 + 10, ())
    # the Blade Champion's weapon: A2 WS3+ S4 AP-1 D1 (the fixture's _weapon)
    blade = [w for g in captain.unit.groups for w in g.weapons
             if w.name == "Master-crafted blade"]
    assert len(blade) == 1 and blade[0].melee
    assert (blade[0].weapon.attacks, blade[0].weapon.strength, blade[0].weapon.ap) == \
        ("2", 4, -1)
    assert any("'Master-crafted blade' is not a weapon of Captain" in w for w in army.warnings)
    rules = {r.rule.name: r.rule for r in unit_rules(captain, data / "10e")}
    assert sorted(rules) == ["Artificer Armour", "Combat Doctrines"]
    assert (rules["Combat Doctrines"].kind, rules["Combat Doctrines"].describe()) == \
        ("detachment rule", "hit_mod=+1")
    assert rules["Artificer Armour"].kind == "enhancement"


# ------------------------------------------------------------------ the whole shared data

@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared BattleScribe data not at {SHARED}")
def test_the_shared_data_round_trips(tmp_path):
    """Every datasheet of two real catalogues (with the library they link to)."""
    import shutil

    folder = tmp_path / "d"
    folder.mkdir()
    for n in ("Warhammer 40,000.gst", "Necrons.cat", "Imperium - Adeptus Mechanicus.cat",
              "Imperium - Agents of the Imperium.cat"):
        shutil.copy(SHARED / "10e" / n, folder / n)
    assert _all_round_trip(folder, "10e") > 60


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared BattleScribe data not at {SHARED}")
@pytest.mark.parametrize("edition", ["10e", "11e"])
def test_the_atlas_of_the_shared_data(edition, tmp_path):
    """Every datasheet of an edition against two targets: the HTML page (looked at in Chromium
    when it is installed) and the JSON agree with a single query of the same unit."""
    import shutil
    import warnings
    from fractions import Fraction

    from mathhammer.app.atlas import atlas
    from mathhammer.app.specs import target_of
    from mathhammer.engine.attack import attack
    from mathhammer.report.atlas import render_atlas

    # the atlas is worked out once and rendered both ways (the command's own path, formats and
    # output file are tested on the small data: test_the_atlas_of_a_small_data_folder)
    page = tmp_path / "atlas.html"
    named = [target_of(t, rules=edition, data=SHARED) for t in ("MEQ", "Knight")]
    done = atlas(edition, named, SHARED)
    labels = [n for n, _t in named]
    page.write_text(render_atlas(done, labels, "html"), encoding="utf-8")
    rows = json.loads(render_atlas(done, labels, "json"))["rows"]
    store = catalogue.open_store(edition, SHARED)
    sheets = [d for d in store.datasheets() if d.error is None]
    assert len({(r["datasheet"], r["factions"][0]) for r in rows}) > 0.8 * len(sheets)
    # a row is the exact answer of the same query
    name = "Intercessor Squad" if edition == "10e" else "Hexmark Destroyer"
    row = next(r for r in rows if r["datasheet"] == name and r["phase"] == "ranged")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        unit = find_unit(f"{row['factions'][0]}:{name}", rules=edition, data=SHARED)
    want = attack(unit.as_profiles(False, score=VS_MEQ), target_of("MEQ")[1], rules=edition)
    assert Fraction(row["values"][0]["kills"]["exact"]) == want.kills.mean()
    assert Fraction(row["values"][0]["kills_per_100_pts"]["exact"]) == \
        want.kills.mean() * 100 / unit.cost()
    factions = {r["factions"][0] for r in rows}
    text = page.read_text(encoding="utf-8")
    assert text.count('<table class="atlas">') == len(factions)
    chromium = shutil.which("chromium")
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright not installed")
    if chromium is None:
        pytest.skip("Chromium is not installed")
    with playwright.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium)
        view = browser.new_page(viewport={"width": 1280, "height": 900})
        view.goto(page.as_uri())
        # the first row's MEQ cell shows kills per 100 points, its exact value on hover
        cell = view.locator("table.atlas").first.locator("tbody tr").first.locator("td").nth(4)
        exact = rows[0]["values"][0]["kills_per_100_pts"]
        if exact is None:
            assert cell.inner_text() == "-"
        else:
            assert Fraction(cell.get_attribute("title")) == Fraction(exact["exact"])
            assert cell.inner_text() == f"{float(Fraction(exact['exact'])):.2f}"
        view.click("text=damage per model")
        view.locator("table.atlas").first.locator("th").nth(4).click()  # sort by MEQ
        shown = [float(x) for x in view.locator("table.atlas").first.locator(
            "tbody tr td:nth-child(5)").all_inner_texts() if x != "-"]
        assert shown == sorted(shown) and len(shown) > 1
        view.screenshot(path=str(tmp_path / "atlas.png"))
        browser.close()


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared BattleScribe data not at {SHARED}")
@pytest.mark.parametrize("name, points, units", [
    ("tau.11e.gwapp.txt", 2000, 19), ("blood-angels.10e.gwapp.txt", 2000, 16),
    ("ultramarines.10e.rosz", 810, 10)])
def test_a_shared_list_reads_from_the_store_as_from_its_catalogues(name, points, units):
    """Each datasheet the list selects is what its catalogue gives (unit file, model entries,
    option names), and the list adds up to its stated total (the counts of its own text)."""
    from mathhammer.data.army import load_army, read_list
    from mathhammer.data.army.datasheets import ArmyData, find_datasheet, homes_of
    from mathhammer.data.bsdata.files import open_library
    from mathhammer.data.bsdata.find import catalogue_units
    from mathhammer.data.typed.names import name_key

    path = SHARED.parent / "rosters" / name
    army = load_army(path, data=SHARED)
    assert (army.points, army.declared_points, len(army.units), army.unresolved) == (
        points, points, units, ())
    parsed = read_list(path)
    index = unit_index.unit_index(army.edition, SHARED)
    d = ArmyData(index)
    homes, _ = homes_of(index, parsed)
    libs: dict = {}
    for pu in parsed.units:
        cat, entry, _note = find_datasheet(d, homes, pu.name)
        if cat.path not in libs:
            lib = open_library(cat.path)
            libs[cat.path] = (lib, {name_key(n): e for n, e in catalogue_units(lib)})
        lib, raw_entries = libs[cat.path]
        key = next(k for k, e in d.entries(cat.path).items() if e is entry)
        assert _stored_build(d, cat.path, entry) == _raw_build(lib, raw_entries[key]), pu.name


def test_a_guessed_default_loadout_is_said_at_every_query():
    # a datasheet whose ranged weapons are all options: the import takes the first and says so
    # in its notes; a query of the unit (unit_of_raw, as the store compiles it) says it again
    from mathhammer.data.bsdata import unit_of_raw

    cannon = {"name": "Cannon", "range": 36, "attacks": 2, "skill": "2+", "strength": 7,
              "ap": -1, "damage": 2}
    raw = {"name": "Beast", "faction": "Test", "models": [
        {"name": "Beast", "count": 1, "toughness": 9, "save": "2+", "wounds": 10,
         "weapons": [cannon]}]}
    notes = ["no ranged wargear by default in the data; the first option, 'Cannon', is taken "
             "(pick another by name)", "Beast: move '20+' written as 20"]
    _unit, said = unit_of_raw(raw, notes, "Test.cat:Beast")
    assert said == ["Test.cat:Beast: no ranged wargear by default in the data; the first "
                    "option, 'Cannon', is taken (pick another by name)"]
