"""An army list's units with their rules from data in every reader of a list: ``plan --army``
and ``plan --vs-army`` (as ``table --army`` and ``table --vs-army``), and the page's army
table, army units and plan (issue 21)."""

import json
from fractions import Fraction as F

from tests.test_army_detachments import folder  # noqa: F401  (the small catalogue)

HEAD = "Test list (50 points)\n\nTesters\nStrike Force (2000 points)\n{}\n\n"
SQUAD = "Squad (50 points)\n  • 5x Squad\n    • 5x Bolt rifle\n"
TANK = "Tank (50 points)\n  • 1x Tank\n    • 1x Bolt rifle\n"


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _plan(cli, *args):
    return json.loads(cli.ok("plan", *args, "--objective", "models", "--json").stdout)


# 10 bolt rifle attacks (5 models, A2) against 10 one-wound MEQ models: hit 3+ (2/3), S4 v T4
# wounds on 4+ (1/2), AP-1 makes the 3+ save 4+: fails 1/2. Each unsaved wound (D1) destroys
# a model, and 10 attacks never run out of the 10 models:
#   E[models] = 10 * 2/3 * 1/2 * 1/2 = 5/3.
# Storm Doctrine (the list's detachment: "re-roll a Wound roll of 1") makes the wound roll
# 1/2 + 1/6 * 1/2 = 7/12:  10 * 2/3 * 7/12 * 1/2 = 35/18, 5/18 more.
ONES = "10x T4 Sv3+ W1"


def test_plan_army_applies_the_lists_detachment_rule(cli, tmp_path, folder):  # noqa: F811
    storm = _write(tmp_path, "storm.txt", HEAD.format("Storm Host") + SQUAD)
    bare = _write(tmp_path, "bare.txt", HEAD.format("").rstrip() + "\n\n" + SQUAD)
    got = _plan(cli, "--army", storm, "-t", ONES, "--data", folder)
    plain = _plan(cli, "--army", bare, "-t", ONES, "--data", folder)
    assert F(got["best"]["value"]) == F(35, 18) and F(plain["best"]["value"]) == F(5, 3)
    assert F(got["best"]["value"]) - F(plain["best"]["value"]) == F(5, 18)
    assert got["attackers"][0]["named_rules"] == ["Storm Doctrine"]
    # the same number as `table --army` of the same list (E[damage] = E[models] here)
    table = json.loads(cli.ok("table", "--army", storm, "-t", ONES, "--format", "json",
                            "--data", folder).stdout)
    assert F(table["rows"][0]["values"][0]["exact"]) == F(35, 18)


# One attack "1x 1 | 2+ | 8 | -4 | 12" at the list's Tank (1 model, T4 Sv3+ W12): hit 2+
# (5/6), S8 v T4 wounds on 2+ (5/6), AP-4 leaves no armour save (fails 1), D12 destroys it:
#   E[models] = 5/6 * 5/6 = 25/36.
# The list's Iron Host gives its VEHICLE models a 5+ invulnerable save (Iron Plating): it fails
# 2/3,  5/6 * 5/6 * 2/3 = 25/54, 25/108 less.
GUN = "1x 1 | 2+ | 8 | -4 | 12"


def test_plan_vs_army_applies_the_targets_detachment_rule(cli, tmp_path, folder):  # noqa: F811
    iron = _write(tmp_path, "iron.txt", HEAD.format("Iron Host") + TANK)
    storm = _write(tmp_path, "storm.txt", HEAD.format("Storm Host") + TANK)
    got = _plan(cli, GUN, "--vs-army", iron, "--data", folder)
    plain = _plan(cli, GUN, "--vs-army", storm, "--data", folder)
    assert F(got["best"]["value"]) == F(25, 54) and F(plain["best"]["value"]) == F(25, 36)
    assert F(plain["best"]["value"]) - F(got["best"]["value"]) == F(25, 108)
    assert got["per_target"][0]["rules"] == ["Iron Plating"]
    assert plain["per_target"][0]["rules"] == []
    table = json.loads(cli.ok("table", GUN, "--vs-army", iron, "--metric", "kills",
                            "--format", "json", "--data", folder).stdout)
    assert F(table["rows"][0]["values"][0]["exact"]) == F(25, 54)


def test_plan_army_offers_a_lists_switch_with_try(cli, tmp_path, folder):  # noqa: F811
    # Iron Fury (Iron Host: INFANTRY, a target within 12") is a switch: off unless named.
    # With it, +1 to hit: 3+ becomes 2+ (5/6):  10 * 5/6 * 1/2 * 1/2 = 25/12 (plain: 5/3)
    iron = _write(tmp_path, "iron.txt", HEAD.format("Iron Host") + SQUAD)
    got = _plan(cli, "--army", iron, "-t", ONES, "--data", folder, "--try", "--rule Iron Fury")
    assert F(got["best"]["value"]) == F(5, 3) and got["attackers"][0]["named_rules"] == []
    [tried] = got["tries"]
    assert F(tried["best"]["value"]) == F(25, 12)
    assert tried["attackers"][0]["named_rules"] == ["Iron Fury"]


def test_the_pages_army_units_have_their_rules_as_the_command_line(cli,
        tmp_path, folder, monkeypatch):  # noqa: F811
    import importlib.util

    import pytest

    pytest.importorskip("starlette")
    pytest.importorskip("pebble")
    if not any(importlib.util.find_spec(m) for m in ("httpx2", "httpx")):
        pytest.skip("Starlette's test client needs httpx2")
    from starlette.testclient import TestClient

    from mathhammer.web.app import create_app

    text = HEAD.format("Storm Host") + SQUAD
    path = _write(tmp_path, "storm.txt", text)
    cli_table = json.loads(cli.ok("table", "--army", path, "-t", ONES, "-t", "MEQ", "--format",
                                "json", "--data", folder).stdout)
    monkeypatch.setenv("MATHHAMMER_DATA", folder)
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        res = c.post("/api/compare", json={"army": text, "targets": [ONES, "MEQ"]})
        assert res.status_code == 200, res.text
        page = res.json()
        plan = c.post("/api/plan", json={"army": text, "targets": [ONES],
                                         "objective": "models"})
        assert plan.status_code == 200, plan.text
        kills = c.post("/api/kills", json={"attacker": "army:Squad", "target": ONES,
                                           "army": text})
        assert kills.status_code == 200, kills.text
    # the page's army table: the command line's cells (Storm Doctrine applied: 35/18 against
    # ONES, see above)
    assert [r["values"] for r in page["rows"]] == [r["values"] for r in cli_table["rows"]]
    assert F(page["rows"][0]["values"][0]["exact"]) == F(35, 18)
    # the page's plan of the list, and the list's unit in a kills query: the same 35/18
    assert F(plan.json()["best"]["value"]) == F(35, 18)
    assert plan.json()["attackers"][0]["named_rules"] == ["Storm Doctrine"]
    assert F(kills.json()["mean"]["kills"]) == F(35, 18)
    assert kills.json()["unit_rules"] == ["Storm Doctrine"]


# -- two wordings of the translator, read from the shared 11e data ------------------------------

def _ability(file, name):
    """The text of one ability of an installed 11e catalogue (skip without the shared data)."""
    import pytest

    from mathhammer.data.rules.unit_rules import file_abilities
    from tests.army_corpus import SHARED

    path = SHARED / "bsdata" / "11e" / file
    if not path.is_file():
        pytest.skip(f"the shared 11e BattleScribe data ({file}) is not here")
    return [t for n, t in file_abilities(path) if n == name]


def _mean(rules, row, target, melee, **options):
    import mathhammer as mh
    from mathhammer.app.specs import attacker_of
    from mathhammer.data.typed.inline import parse_target

    return mh.attack(attacker_of(row, melee=melee).profiles, parse_target(target),
                     apply=list(rules), rules="11e", **options).unsaved.mean()


def test_a_charge_move_until_the_end_of_the_turn_is_the_charged_condition():
    from mathhammer.data.rules.translate import translate

    [text] = _ability("Imperium - Agents of the Imperium.json", "Hammerhand (Psychic)")
    assert text.startswith("Each time this unit makes a Charge move, until the end of the turn")
    [part] = translate("Hammerhand (Psychic)", text)
    # applied whenever the attack is made after charging (--charged): no switch to name
    assert part.automatic and part.rule.describe() == (
        "if melee attacks, after charging: abilities=[lethal hits]")
    # 10 melee attacks at 4+ (1/2), S4 v T4 wound on 4+ (1/2), the 3+ save fails 1/3:
    #   10 * 1/2 * 1/2 * 1/3 = 5/6;  after a charge, [LETHAL HITS]: a 6 to hit (1/6) wounds,
    #   2+..5 hit (1/3) and wound half the time:  10 * (1/6 + 1/3 * 1/2) * 1/3 = 10/9
    row, target = "10x 1 | 4+ | 4 | 0 | 1", "10x T4 Sv3+ W1"
    assert _mean([part.rule], row, target, True) == F(5, 6)
    assert _mean([part.rule], row, target, True, charged=True) == F(10, 9)
    assert _mean([], row, target, True, charged=True) == F(5, 6)


def test_a_second_sentence_about_that_attack_keeps_its_ranged_condition():
    from mathhammer.data.rules.detachments import for_unit
    from mathhammer.data.rules.translate import translate

    [text] = _ability("T'au Empire.json", "Bonded Heroes")
    assert "If that attack targets a unit within 9\"" in text
    parts = for_unit(translate, "Bonded Heroes", text, frozenset({"T'AU EMPIRE", "BATTLESUIT"}),
                     "")
    assert [(p.rule.name, p.rule.describe(), p.switch) for p in parts] == [
        ("Bonded Heroes (1)", "if ranged attacks: strength_mod=+1", True),
        ("Bonded Heroes (2)", "if ranged attacks: ap_mod=+1", True)]
    ap = parts[1].rule
    # 10 attacks at 4+ (1/2), S5 v T5 wound on 4+ (1/2), AP0 v Sv3+ fails 1/3: 5/6; within 9"
    # (the AP switch) a ranged attack's AP-1 makes the save 4+, failing 1/2: 10/4 * 1/2 = 5/4;
    # a melee attack is not "that attack" of the first sentence (a ranged one): still 5/6
    row, target = "10x 1 | 4+ | 5 | 0 | 1", "10x T5 Sv3+ W1"
    assert _mean([ap], row, target, False) == F(5, 4)
    assert _mean([ap], row, target, True) == F(5, 6)
