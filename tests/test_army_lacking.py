"""A list that names what its faction's data file does not have (a datasheet, a weapon of a
datasheet that is there, an enhancement): the line is reported naming that file and its
revision, never read as something else; a summary says the list may be from a newer release of
that file; the command exits 2 without ``--allow-unresolved``. Kept apart from a file the
folder lacks (a catalogue that links into a missing file). Hand-made catalogues, not the
corpus."""

import json

import bsjson
import pytest

from mathhammer.data.army import parse_army
from mathhammer.data.army.values import DataFile
from tests.army_corpus import Expect, check


def _unit(uid, name, count, cost, weapons, keyword="Infantry"):
    """A datasheet of ``count`` models called ``name``, each with every weapon of ``weapons``
    ((name, attacks, strength, melee) each)."""
    guns = [bsjson.weapon(f"{uid}w{i}p", w[0], w[1], "3+", w[2], "0", "1", *w[3:])
            for i, w in enumerate(weapons)]
    return bsjson.unit(uid, name, count, [keyword], [], guns, bsjson.STATS, points=cost)


def _catalogue(**more):
    # "Close combat weapon" is on two datasheets with different profiles (A1 S4, A3 S6)
    units = [_unit("u1", "Squad", 5, 50, [("Bolt rifle", "2", "4"),
                                          ("Close combat weapon", "1", "4", True)]),
             _unit("u2", "Tank", 1, 100, [("Lascannon", "1", "12"),
                                          ("Close combat weapon", "3", "6", True)], "Vehicle"),
             _unit("u3", "Scout", 1, 20, [("Sniper rifle", "1", "4")])]
    return {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1", "revision": 3,
            "sharedSelectionEntries": units,
            "entryLinks": [{"id": f"e{u['id']}", "name": u["name"], "targetId": u["id"],
                            "type": "selectionEntry"} for u in units], **more}


def _folder(here, **more):
    return str(bsjson.write_folder(here, _catalogue(**more)).parent)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return _folder(tmp_path_factory.mktemp("lacking"))


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    """The same catalogue linking to a library the folder does not have."""
    return _folder(tmp_path_factory.mktemp("linked"), catalogueLinks=[{
        "id": "l1", "name": "Test - Library", "targetId": "lib-nowhere", "type": "catalogue",
        "importRootEntries": True}])


HEAD = "Test list ({points} points)\n\nTesters\nStrike Force (2000 points)\n\n"
SQUAD = ("Squad (50 points)\n  • 5x Squad\n    • 5x Bolt rifle\n"
         "    • 5x Close combat weapon\n")
FILE = DataFile("Testers.json", "3")
NOTE = ("name{s} what Testers.json (revision 3) does not have: the list may be from a newer "
        "release of that file")


def _text(*units, points=None):
    total = points if points is not None else 50 * len(units)
    return HEAD.format(points=total) + "\n".join(units)


def test_a_datasheet_the_file_lacks_is_named_with_the_files_revision(folder):
    a = parse_army(_text(SQUAD, "Gunship (100 points)\n  • 1x Twin lascannon\n", points=150),
                   data=folder)
    # the Gunship is not read as anything else: the Squad alone is read, 50 of 150 points
    assert [u.name for u in a.units] == ["Squad"] and (a.points, a.declared_points) == (50, 150)
    [u] = a.unresolved
    assert u.describe() == "Gunship: not a datasheet in Testers.json (revision 3)"
    assert (u.lacks, u.points, u.unit, a.only_lacking) == (FILE, 100, True, True)
    assert f"<text>: 1 line {NOTE.format(s='s')}" in a.warnings
    j = a.to_json()
    assert j["unresolved"][0]["lacks"] == {"file": "Testers.json", "revision": 3}
    assert j["lacking"] == [{"file": "Testers.json", "revision": 3, "lines": [u.line],
                             "note": f"1 line {NOTE.format(s='s')}"}]


def test_a_weapon_the_datasheet_lacks_is_named_and_not_replaced(folder):
    squad = SQUAD + "    • 5x Plasma rifle\n"
    a = parse_army(_text(squad), data=folder)
    [u] = a.unresolved
    assert u.describe() == ("Squad: Plasma rifle: not in Testers.json (revision 3) (closest: "
                            "Bolt rifle)")
    assert (u.lacks, u.unit) == (FILE, False)
    # the squad keeps its bolt rifles, and nothing else
    assert {w.name: w.count for w in a.units[0].weapons} == {"Bolt rifle": 5,
                                                             "Close combat weapon": 5}
    # the weapon only other datasheets have, with profiles that differ: not guessed
    scout = "Scout (20 points)\n  • 1x Scout\n    • 1x Sniper rifle\n    • 1x Close combat weapon\n"
    a = parse_army(_text(scout, points=20), data=folder)
    [u] = a.unresolved
    assert u.describe() == ("Scout: Close combat weapon: not a weapon of Scout in Testers.json "
                            "(revision 3) (the file's other datasheets have different profiles "
                            "of that name)")
    assert u.lacks == FILE and {w.name for w in a.units[0].weapons} == {"Sniper rifle"}


def test_a_model_the_file_does_not_know_is_its_lack_one_it_knows_otherwise_is_not(folder):
    # New Recruit's model lines ("• 1x Gunner: ...") say they are models
    head = "+ FACTION KEYWORD: Testers\n+ TOTAL ARMY POINTS: 50pts\n\n5x Squad (50 pts)\n"
    squad = head + "• 4x Squad: 4 with Bolt rifle, Close combat weapon\n"
    a = parse_army(squad + "• 1x Gunner: Plasma rifle\n", data=folder)
    [u] = a.unresolved  # its wargear goes with it
    assert u.describe() == ("Squad: 1x Gunner: no model 'Gunner' in Squad of Testers.json "
                            "(revision 3) (closest: Squad)")
    assert u.lacks == FILE and a.units[0].models == 4
    # "Scout" is a datasheet of the file: the line may be a unit the reader put in the Squad
    a = parse_army(squad + "• 1x Scout: Sniper rifle\n", data=folder)
    [u] = a.unresolved
    assert (u.describe(), u.lacks) == ("Squad: 1x Scout: no model 'Scout' in Squad", None)
    # the app's lines under a unit are models or wargear as the datasheet says: an unknown
    # name there is a line the file lacks, and so is its wargear
    a = parse_army(_text(SQUAD + "  • 1x Gunner\n    • 1x Plasma rifle\n"), data=folder)
    assert [(u.text, u.lacks) for u in a.unresolved] == [("Squad: Gunner", FILE),
                                                         ("Squad: Plasma rifle", FILE)]


def test_a_renamed_weapon_is_read_only_with_a_warning_naming_both_and_the_file(folder):
    # the one weapon of the Scout the list does not name: read as it, said with both names
    a = parse_army(_text("Scout (20 points)\n  • 1x Scout\n    • 1x Longshot rifle\n", points=20),
                   data=folder)
    assert a.unresolved == () and {w.name for w in a.units[0].weapons} == {"Sniper rifle"}
    assert any("'Longshot rifle' is not in Testers.json (revision 3): read as 'Sniper rifle'"
               in w for w in a.warnings)


def test_an_enhancement_the_file_lacks_is_said_naming_it(folder):
    a = parse_army(_text(SQUAD + "  • Enhancement: Relic of Nowhere\n"), data=folder)
    assert a.unresolved == () and a.units[0].enhancements == ("Relic of Nowhere",)
    assert any(w.endswith("Squad: enhancement 'Relic of Nowhere' is not in Testers.json "
                          "(revision 3)") for w in a.warnings)


def test_the_command_exits_2_naming_the_file_and_says_it_in_json(cli, folder, tmp_path):
    f = tmp_path / "list.txt"
    text = _text(SQUAD, "Gunship (100 points)\n  • 1x Twin lascannon\n", points=150)
    f.write_text(text, encoding="utf-8")
    at = text.splitlines().index("Gunship (100 points)") + 1
    r = cli("army", str(f), "--data", folder)
    assert r.exit_code == 2
    assert f"{f}:{at}: unresolved: Gunship: not a datasheet in Testers.json (revision 3)" \
        in r.output
    assert f"warning: {f}: 1 line {NOTE.format(s='s')}" in r.stderr
    assert "50 / 150 points read; 1 line not read (--allow-unresolved to exit 0)" in r.stderr
    r = cli("army", str(f), "--data", folder, "--json", "--allow-unresolved")
    j = json.loads(r.stdout)
    assert r.exit_code == 0 and j["lacking"][0]["file"] == "Testers.json"
    assert j["lacking"][0]["revision"] == 3 and j["units"][0]["name"] == "Squad"


def test_a_file_the_folder_lacks_is_not_an_older_file(linked):
    # the catalogue links into a library the folder does not have: the Gunship may be there
    a = parse_army(_text(SQUAD, "Gunship (100 points)\n  • 1x Twin lascannon\n", points=150),
                   data=linked)
    [u] = a.unresolved
    assert u.lacks is None and not a.only_lacking and "Testers.json" not in u.describe()
    assert any("which is not in" in w for w in a.warnings)
    assert not any("does not have" in w for w in a.warnings)


def test_a_line_only_a_reader_or_a_count_explains_is_not_the_files_lack(folder):
    a = parse_army(_text(SQUAD.replace("5x Bolt rifle", "0x Bolt rifle")), data=folder)
    [u] = a.unresolved
    assert (u.describe(), u.lacks, a.only_lacking) == ("Squad: 0x Bolt rifle: a count of 0",
                                                       None, False)


def test_the_corpus_check_has_a_third_outcome(folder, linked, tmp_path):
    def outcome(text, data, points, units, name="l.txt"):
        (tmp_path / name).write_text(text, encoding="utf-8")
        return check(Expect(tmp_path / name, "11e", "gwapp", points, units), data)[0]

    gunship = "Gunship (100 points)\n  • 1x Twin lascannon\n"
    assert outcome(_text(SQUAD), folder, 50, 1) == "full"
    # every line not read is the file's lack, and they make up the points and units stated
    assert outcome(_text(SQUAD, gunship, points=150), folder, 150, 2) == "older"
    assert outcome(_text(SQUAD + "    • 5x Plasma rifle\n"), folder, 50, 1) == "older"
    # not when the points or units stated are not made up, or a line is a count's problem
    assert outcome(_text(SQUAD, gunship, points=150), folder, 160, 2) == "fail"
    assert outcome(_text(SQUAD, gunship, points=150), folder, 150, 3) == "fail"
    assert outcome(_text(SQUAD.replace("5x Bolt", "0x Bolt")), folder, 50, 1) == "fail"
    # a file the folder lacks: the other outcome
    assert outcome(_text(SQUAD, gunship, points=150), linked, 150, 2) == "data"
