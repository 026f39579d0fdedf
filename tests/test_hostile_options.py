"""Issue 32, items 2 and 3: no answer for a unit that is not the one asked, no option ignored
without a word, no crash on an odd objective. Each test is an input of a class and the one
line it now gets (each failed before: an answer for another unit, the option silently dropped
or the last repeat kept, or an internal error)."""

from __future__ import annotations

import bsjson
import pytest

import mathhammer as mh

PAIR = "Necron Warriors + Hexmark Destroyer"  # Necron Warriors: 10 to 20 models (bundled)


# --- an error in a unit's or a pair's resolution reaches the player -------------------------

SIZE = "mathhammer: error: models: expected an integer from 1 to 20 for Necron Warriors, got 25"


@pytest.mark.parametrize("args", [
    ("kills", PAIR, "MEQ", "--models", "25"),  # before: the Leader's pistols alone, exit 0
    ("kills", PAIR, "MEQ", "--models", "25", "-w", "gauss flayer"),
    ("odds", PAIR, "MEQ", "--models", "25", "--at-least", "1"),
    ("table", PAIR, "-t", "MEQ", "--models", "25"),
    ("plan", f"{PAIR} --models 25", "-t", "MEQ"),
])
def test_a_pair_sized_past_its_bodyguard_is_refused(cli, args):
    assert cli.fails(*args, one_line=False) == SIZE


def test_the_library_refuses_the_size_too():
    with pytest.raises(ValueError) as e:
        mh.attacker_of(PAIR, models=25)
    assert str(e.value) == SIZE.removeprefix("mathhammer: error: ")
    # within the size both units fire: 20 gauss flayers and the Leader's pistols
    a = mh.attacker_of(PAIR, models=20)
    assert sorted((w.name, n) for w, n in a.profiles) == [
        ("Enmitic disintegrator pistols", 1), ("Gauss flayer", 20)]


def test_every_weapon_of_a_unit_sized_past_its_datasheet_is_refused(cli):
    # before: an internal error (TypeError), each weapon's size error passed over
    assert cli.fails("table", "Cronos", "-t", "MEQ", "--by", "weapon", "--models", "3",
                     one_line=False) == (
        "mathhammer: error: models: expected an integer from 1 to 2 for Cronos, got 3")


def test_a_count_of_zero_says_so(cli):
    # before: "Cronos carries 1 Spirit vortex at its size, so at most 1 can fire"
    assert cli.fails("kills", "Cronos", "MEQ", "-w", "0x Spirit vortex", one_line=False) == (
        "mathhammer: error: weapons: 0x Spirit vortex: expected a count of at least 1 (to leave "
        "a weapon out, do not name it)")


def _tank_list(folder, wargear: str):
    from mathhammer.data.army import parse_army

    gun = bsjson.weapon("w1", "Armoured tracks", "3", "4+", "6", "0", "1", True)
    tank = bsjson.unit("u1", "Tank", 1, ["Vehicle"], [], gun, bsjson.STATS, points=100)
    cat = {"id": "c1", "name": "Test - Testers", "gameSystemId": "gs1", "revision": 1,
           "sharedSelectionEntries": [tank],
           "entryLinks": [{"id": "eu1", "name": "Tank", "targetId": "u1",
                           "type": "selectionEntry"}]}
    data = str(bsjson.write_folder(folder, cat).parent)
    text = ("Test list (100 points)\n\nTesters\nStrike Force (2000 points)\n\n"
            f"Tank (100 points)\n  • {wargear}\n")
    return parse_army(text, data=data)


def test_a_wargear_name_read_as_the_nearest_weapon_is_said(tmp_path):
    # before: read as the tracks without a word
    army = _tank_list(tmp_path, "1x Armoured tracks Armoured tracks Armoured tracks")
    assert [w.count for w in army.units[0].weapons] == [1]
    assert ("<text>:7: Tank: 'Armoured tracks Armoured tracks Armoured tracks' read as "
            "'Armoured tracks' (the weapon of Tank of the nearest name in the data)"
            in army.warnings)
    # the name itself is read without a word
    assert not any("read as" in w for w in _tank_list(tmp_path, "1x Armoured tracks").warnings)


# --- options: a repeat that would be dropped, an option that means nothing alone ------------


@pytest.mark.parametrize(("args", "line"), [
    (("kills", "Cronos", "MEQ", "-m", "1", "--models", "2"),
     "mathhammer kills: error: --models: given 2 times; give it once"),
    (("kills", "Cronos", "MEQ", "--rules", "10e", "--rules", "11e"),
     "mathhammer kills: error: --rules: given 2 times; give it once"),
    (("kills", "Cronos", "MEQ", "--ranged", "--melee"),
     "mathhammer kills: error: --ranged/--melee: given 2 times; give one of them once"),
    (("odds", "Cronos", "MEQ", "--at-least", "1", "--at-least", "2"),
     "mathhammer odds: error: --at-least: given 2 times; give it once"),
    (("table", "Cronos", "-t", "MEQ", "--by", "weapon", "--by", "unit"),
     "mathhammer table: error: --by: given 2 times; give it once"),
    (("plan", "Cronos", "-t", "MEQ", "--objective", "models", "--objective", "points"),
     "mathhammer plan: error: --objective: given 2 times; give it once"),
    (("data", "status", "--data", "a", "--data", "b"),
     "mathhammer data status: error: --data: given 2 times; give it once"),
])
def test_an_option_of_one_value_given_twice_is_refused(cli, args, line):
    command = " ".join(args[:2] if args[0] == "data" else args[:1])
    assert cli.fails(*args, one_line=False) == f"{line} (see mathhammer {command} --help)"


@pytest.mark.parametrize(("args", "line"), [
    (("table", "Cronos", "-t", "MEQ", "--vary", "--hit-mod 1 --hit-mod 2"),
     "mathhammer: error: --vary '--hit-mod 1 --hit-mod 2': --hit-mod: given 2 times; give it "
     "once"),
    (("plan", "Cronos", "-t", "MEQ", "--try", "--cover --cover"),
     "mathhammer: error: --try '--cover --cover': --cover: given 2 times; give it once"),
    (("plan", "Cronos --hit-mod 1 --hit-mod 2", "-t", "MEQ"),
     "mathhammer: error: attacker 'Cronos' '--hit-mod 1 --hit-mod 2': --hit-mod: given 2 "
     "times; give it once"),
    (("plan", "Cronos", "-t", "MEQ", "-t", "GEQ", "--points", "MEQ=5", "--points", "meq=6"),
     "mathhammer: error: --points 'meq=6': meq's points are given twice (5, then 6)"),
])
def test_options_inside_options_given_twice_are_refused(cli, args, line):
    assert cli.fails(*args, one_line=False) == line


@pytest.mark.parametrize(("args", "line"), [
    (("plan", "Cronos", "-t", "MEQ", "--probability", "0.5"),
     "mathhammer plan: error: --probability: only with --destroy"),
    (("plan", "Cronos", "-t", "MEQ", "--budget", "5"),
     "mathhammer plan: error: --budget: only with --adaptive"),
    (("plan", "Cronos", "-t", "MEQ", "--force"),
     "mathhammer plan: error: --force: only with --output"),
    (("kills", "Cronos", "MEQ", "--full-fractions"),
     "mathhammer kills: error: --full-fractions: only with --json"),
    (("kills", "Cronos", "MEQ", "--force"),
     "mathhammer kills: error: --force: only with --output or --plot"),
    (("odds", "Cronos", "MEQ", "--at-least", "1", "--full-fractions"),
     "mathhammer odds: error: --full-fractions: only with --json"),
    (("odds", "Cronos", "MEQ", "--at-least", "1", "--exact", "--json"),
     "mathhammer odds: error: --exact: not with --json (it prints one fraction; the JSON has it "
     "as p)"),
    (("table", "Cronos", "-t", "MEQ", "--full-fractions"),
     "mathhammer table: error: --full-fractions: only with --format json (the table is text)"),
    (("table", "Cronos", "-t", "MEQ", "--force"),
     "mathhammer table: error: --force: only with --output"),
    (("mortal", "MEQ", "D3", "--force"),
     "mathhammer mortal: error: --force: only with --output"),
    (("mortal", "MEQ", "D3", "--full-fractions"),
     "mathhammer mortal: error: --full-fractions: only with --json"),
])
def test_an_option_that_means_nothing_alone_is_refused(cli, args, line):
    assert cli.fails(*args, one_line=False) == f"{line} (see mathhammer {args[0]} --help)"


def test_an_empty_target_to_destroy_is_refused(cli):
    # before: "" is a prefix of every name, so the one target was taken without a word
    assert cli.fails("plan", "Cronos", "-t", "MEQ", "--destroy", "", one_line=False) == (
        "mathhammer: error: --destroy '': expected a target's name (one of MEQ)")


def test_a_plan_says_its_rule_set(cli):
    r = cli("plan", "Cronos", "-t", "MEQ", "--rules", "11e")
    assert r.exit_code == 0, r.output
    assert any(line.startswith("rule set 11e;") for line in r.stdout.splitlines())
    r = cli("plan", "Cronos", "-t", "MEQ", "--json")
    assert r.exit_code == 0 and '"rules": "10e"' in r.stdout


def test_lists_of_two_editions_are_refused():
    from types import SimpleNamespace

    from mathhammer.app.resolve import one_edition

    with pytest.raises(ValueError) as e:
        one_edition(("--army a.txt", SimpleNamespace(edition="10e")),
                    ("--vs-army b.txt", SimpleNamespace(edition="11e")))
    assert str(e.value) == ("--army a.txt is a 10e list and --vs-army b.txt an 11e list: a game "
                            "is played under one edition's rules; give lists of one edition")


# --- a distribution of points per model destroyed (a Fraction) is printed on Python 3.11 ----


def test_model_points_of_a_fraction_per_model_is_printed(cli):
    # MEQ at 7 points for 5 models: 7/5 per model; before, Python 3.11 could not format it
    r = cli("plan", "Cronos", "-t", "MEQ", "--objective", "model-points", "--points", "MEQ=7",
            "--details")
    assert r.exit_code == 0, r.output
    rows = r.stdout.split("points      exact")[1].splitlines()[1:]
    assert [row.split()[0] for row in rows if row.strip()] == ["0", "7/5", "14/5", "21/5"]


# --- the same on the web API: a pair's size, options a plan does not take, arrays bounded ---

web = pytest.importorskip("starlette")


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from mathhammer.web.app import create_app

    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        yield c


def test_the_api_refuses_a_pair_sized_past_its_bodyguard(client):
    res = client.post("/api/kills", json={"attacker": PAIR, "target": "MEQ", "models": 25})
    assert res.status_code == 400 and res.json()["error"] == SIZE


@pytest.mark.parametrize(("key", "value"), [("then", ["Cronos"]), ("until", "0.5"),
                                            ("turns", 3), ("reanimation", True)])
def test_a_plan_on_the_api_refuses_what_a_plan_does_not_take(client, key, value):
    # before: then, until and turns were read as kills options and dropped without a word
    res = client.post("/api/plan", json={"units": ["Cronos"], "targets": ["MEQ"], key: value})
    assert res.status_code == 400
    assert res.json()["error"].startswith(f"mathhammer: error: unknown parameter {key!r} for "
                                          "plan; ")


def test_a_plan_on_the_api_says_its_rule_set(client):
    res = client.post("/api/plan", json={"units": ["Cronos"], "targets": ["MEQ"],
                                         "rules": "11e"})
    assert res.status_code == 200 and res.json()["rules"] == "11e"


@pytest.mark.parametrize(("path", "body"), [
    ("/api/plan", {"units": ["Cronos"] * 100_000, "targets": ["MEQ"]}),
    ("/api/plan", {"units": ["Cronos"], "targets": ["MEQ"], "named_rules": ["x"] * 100_000}),
    ("/api/compare", {"army": "Cronos", "targets": ["MEQ"] * 100_000}),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "abilities": ["x"] * 100_000}),
])
def test_an_array_past_the_bound_is_refused_at_once(client, path, body):
    import time

    start = time.process_time()
    res = client.post(path, json=body)
    key = next(k for k, v in body.items() if isinstance(v, list) and len(v) > 1)
    assert res.status_code == 400, res.text
    assert res.json()["error"].endswith(
        f"{key}: 100000 values is over the limit of 100 "
        "(mathhammer.limits.MAX_OPTION_VALUES)")
    assert time.process_time() - start < 5  # the server's own work: parse and refuse


def test_an_army_list_past_its_bound_is_refused_at_once(cli, client, tmp_path):
    # a 1 MB list (5 MB is over the request body's limit): refused before it is read
    text = "Necrons\n\n" + "Necron Warriors (90 points)\n  • 10x Gauss flayer\n" * 20_000
    res = client.post("/api/army", json={"army": text})
    assert res.status_code == 400
    assert res.json()["error"] == (
        f"mathhammer: error: <text>: an army list of {len(text):,} characters is over the "
        "limit of 500,000 (mathhammer.limits.MAX_ARMY_TEXT_BYTES)")
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    assert cli.fails("army", str(path), one_line=False) == (
        f"mathhammer: error: {path}: an army list of {len(text):,} characters is over the "
        "limit of 500,000 (mathhammer.limits.MAX_ARMY_TEXT_BYTES)")


def test_a_plan_past_its_bound_is_refused_before_any_unit_is_read(cli):
    # 200 attacking units against 200 targets: refused naming the bound
    rows = ["1x 1 | 3+ | 4 | 0 | 1"] * 200
    assert cli.fails("plan", *rows, *[a for _ in range(200) for a in ("-t", "MEQ")],
                     one_line=False) == (
        "mathhammer: error: ATTACKERS: 200 values is over the limit of 100 "
        "(mathhammer.limits.MAX_OPTION_VALUES)")
    assert cli.fails("plan", *rows[:60], *[a for _ in range(60) for a in ("-t", "MEQ")],
                     one_line=False) == (
        "mathhammer: error: plan: 60 attacking units x 60 targets = 3,600 pairs is over the "
        "limit of 2,500 (mathhammer.limits.MAX_PLAN_PAIRS)")
