"""The planner by clicking, server side: a plan given as structured JSON (the reach and the
Leaders as fields, no command-line syntax) answers what ``mathhammer plan`` answers for the same
units, targets, reach and rules; ``/api/plan/lists`` offers each list's Leaders, rows and rules
(:mod:`mathhammer.app.planner`); a bad field is one line naming it."""

from __future__ import annotations

import base64
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from mathhammer.app.planner import PlanLists, plan_lists_json
from mathhammer.errors import InputError
from mathhammer.jobs.run import job

SHARED = Path(os.environ.get("MATHHAMMER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
ULTRAMARINES = SHARED / "rosters" / "ultramarines.10e.rosz"
BLOOD_ANGELS = SHARED / "rosters" / "blood-angels.10e.gwapp.txt"


def page_plan(body: dict) -> dict:
    status, out = job("query", "plan", body)
    assert status == 200, out
    return json.loads(out)


def cli_plan(cli, *args: str) -> dict:
    r = cli("plan", *args, "--json")
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


def test_a_plan_by_fields_is_the_command_lines_plan(cli):
    # Necron Warriors' gauss flayers are Rapid Fire 1: within half range of GEQ they gain
    # attacks; Cronos cannot shoot GEQ; the Warriors take a named rule of their own
    body = {"units": [{"unit": "Necron Warriors", "named_rules": ["Conquering Tyrant"]},
                      "Cronos"],
            "targets": ["MEQ", "GEQ"], "objective": "models",
            "reach": [{"unit": "Necron Warriors", "targets": ["MEQ"], "half": ["GEQ"]},
                      {"unit": "Cronos", "targets": ["MEQ"]}]}
    page = page_plan(body)
    want = cli_plan(cli, "Necron Warriors --rule Conquering Tyrant", "Cronos", "-t", "MEQ",
                    "-t", "GEQ", "--objective", "models", "--reach",
                    "Necron Warriors=MEQ,GEQ@half", "--reach", "Cronos=MEQ")
    for key in ("best", "plan", "per_target", "ties", "proved", "reach"):
        assert page[key] == want[key], key
    assert {"unit": "Necron Warriors", "target": "GEQ", "weapons": None,
            "half_range": True} in page["plan"]
    assert page["reach"][1] == {"unit": "Cronos", "targets": ["MEQ"], "half_range": []}
    # the half range counts: Rapid Fire 1 doubles the Warriors' shots within it, so the same
    # plan without it is worth less
    body["reach"][0] = {"unit": "Necron Warriors", "targets": ["MEQ", "GEQ"]}
    assert Fraction(page_plan(body)["best"]["value"]) < Fraction(page["best"]["value"])


def test_ties_are_said_as_ties():
    # two guns of one attack, 2+ to hit, S10 (wounds T4 and T5 on 2+), against two lone models
    # with no save: each shot kills with 5/6 x 5/6 = 25/36. Split, 25/36 + 25/36 = 25/18
    # models; together on one, at most 1. The two ways to split them are worth exactly the
    # same (the guns differ only in AP, which no save reads): a tie of two plans
    guns = ["1x 1 | 2+ | 10 | -3 | 1", "1x 1 | 2+ | 10 | -4 | 1"]
    data = page_plan({"units": guns, "targets": ["1x T4 Sv7+ W1", "1x T5 Sv7+ W1"],
                      "objective": "models"})
    assert Fraction(data["best"]["value"]) == Fraction(25, 18)
    assert data["ties"]["count"] == 2 and Fraction(data["ties"]["value"]) == Fraction(25, 18)
    assert {x["target"] for p in data["ties"]["plans"] for x in p if "AP-3" in x["unit"]} == {
        "1x T4 Sv7+ W1", "1x T5 Sv7+ W1"}


@pytest.mark.parametrize(("body", "said"), [
    ({"units": ["Cronos"], "targets": ["MEQ"], "reach": [{"unit": "Cronos",
                                                          "targets": ["MEQ, GEQ"]}]},
     "reach[0].targets: 'MEQ, GEQ': a name with ',' cannot be given as a field"),
    ({"units": ["Cronos"], "targets": ["MEQ"], "reach": [{"unit": "Cronos", "near": []}]},
     "unknown parameter 'near' for reach[0]"),
    ({"units": ["Cronos"], "targets": ["MEQ"], "reach": [{"targets": ["MEQ"]}]},
     "reach[0].unit: expected a unit's name, got None"),
    ({"units": ["Cronos"], "targets": ["MEQ"], "reach": [{"unit": "Cronos",
                                                          "targets": ["Rhino"]}]},
     "no target 'Rhino' in the plan"),
    ({"units": ["Cronos"], "targets": ["MEQ"],
      "attach": [{"leader": "Captain", "unit": "Intercessor Squad", "side": "left"}]},
     "attach[0].side: expected army or vs, got 'left'"),
    ({"units": ["Cronos"], "targets": ["MEQ"],
      "attach": [{"leader": "Captain", "unit": "Intercessor Squad"}]},
     "give the army list"),
])
def test_a_bad_field_is_one_line_naming_it(body, said):
    status, line = job("query", "plan", body)
    assert status == 400
    assert said in line and "\n" not in line


def test_the_lists_offer_needs_a_list_and_reads_no_file():
    assert job("query", "plan_lists", {})[1] == ("mathhammer: error: army: give the army "
                                                 "list, or the enemy's (vs_army)")
    status, line = job("query", "plan_lists", {"army": {"path": "secret.ros"}})
    assert status == 400 and "reads no files" in line


@pytest.fixture(scope="module")
def shared_lists():
    if not (ULTRAMARINES.is_file() and BLOOD_ANGELS.is_file()
            and (SHARED / "bsdata" / "10e").is_dir()):
        pytest.skip(f"no shared lists and data in {SHARED}")
    mp = pytest.MonkeyPatch()
    mp.setenv("MATHHAMMER_DATA", str(SHARED / "bsdata"))
    yield {"army": {"base64": base64.b64encode(ULTRAMARINES.read_bytes()).decode()},
           "vs_army": BLOOD_ANGELS.read_text()}
    mp.undo()


def test_the_lists_offer_their_leaders_and_rows_after_the_attachments(shared_lists):
    got = plan_lists_json(PlanLists.from_json(shared_lists))
    vs = got["vs"]
    assert vs["stated"] == [] and vs["attached"] == []  # a 10e app export says none
    leads = {u["label"]: u["leads"] for u in vs["units"] if u["leads"]}
    # the data's Leader lists: Dante leads Sanguinary Guard, the Captains do not
    assert "Sanguinary Guard" in leads["Commander Dante"]
    assert "Sanguinary Guard" not in leads["Captain with Jump Pack"]
    assert {x["leader"] for x in vs["lone"]} == set(leads)  # each stands alone, said
    after = plan_lists_json(PlanLists.from_json({**shared_lists, "attach": [
        {"leader": "Commander Dante", "unit": "Sanguinary Guard", "side": "vs"}]}))
    labels = [r["label"] for r in after["vs"]["rows"]]
    assert "Commander Dante + Sanguinary Guard" in labels and "Commander Dante" not in labels
    assert len(labels) == len(vs["rows"]) - 1
    assert after["vs"]["attached"] == [["Commander Dante", "Sanguinary Guard"]]
    rows = {r["label"]: r for r in got["army"]["rows"]}
    # a Razorback's twin heavy bolter is not Rapid Fire, its storm bolter is (Rapid Fire 2)
    assert rows["Razorback"]["half"] and not rows["Eliminator Squad"]["half"]
    assert "Oath of Moment (1)" in [r["name"] for r in rows["Razorback"]["switches"]]
    # a Leader that cannot lead the unit: one line
    with pytest.raises(InputError, match=r"Commander Dante.*Baal Predator.*\n?") as e:
        plan_lists_json(PlanLists.from_json({**shared_lists, "attach": [
            {"leader": "Commander Dante", "unit": "Baal Predator", "side": "vs"}]}))
    assert "\n" not in str(e.value)


def test_the_factions_offered_are_not_libraries(shared_lists):
    from mathhammer.jobs.search import factions_json, search_json

    factions = factions_json("10e")
    assert "Space Marines" in factions and "Craftworlds" in factions
    # the shared catalogues ("Aeldari Library", "Library - Tyranids") are no faction to pick;
    # their units are the factions' that use them (a Farseer is in the Aeldari Library)
    assert [f for f in factions if "library" in f.lower()] == []
    assert "Craftworlds:Farseer" in search_json("", "10e", "Craftworlds")
