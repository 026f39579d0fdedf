"""The page on a phone (390x844, Chromium): no state of it scrolls sideways (after a query, a
second unit, a comparison and a plan), and the planner by clicking gives the command line's
plan, for bundled units and for the two shared 10e lists (skipped without /work/shared).

The browser, the server (with the shared BattleScribe data when it is there) and helpers are
those of ``tests/test_web_browser.py``: one browser and one server for the module.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest
import test_web_browser as web
from test_web_browser import BSDATA, DATA_10E, ROSTERS, cli_out, expect, open_page

# the browser of tests/test_web_browser.py
browser = web.browser


@pytest.fixture(scope="module")
def server():
    """The server of tests/test_web_browser.py (the shared data installed when it is there),
    with a time limit a loaded machine's first read of two lists stays within."""
    yield from web._serve("from mathhammer.cli import main; import sys; "
                          "sys.argv += ['--timeout', '120']; main()")

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
WIDTH = "document.documentElement.scrollWidth"
#: text of the page a player reads that is command-line syntax
SYNTAX = ("army:", "vs:", "--half-range", "--rule", "--attach", "--reach", "--objective")


def phone(chromium, base):
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.base = base
    return context, page


def no_syntax(page) -> None:
    text = page.evaluate("document.body.innerText")
    assert [s for s in SYNTAX if s in text] == []


def pick(page, side: str, name: str) -> None:
    """A unit added to the planner by name (the faction and name picker)."""
    if not page.is_visible("#phase-name"):
        page.click("#phase-pick summary")
    page.select_option("#phase-side", side)
    page.fill("#phase-name", name)
    page.click("#phase-add")


def test_every_state_of_the_page_fits_a_phone(cli, browser, server):
    context, page = phone(browser, server)
    open_page(page, "attacker=Hexmark+Destroyer&target=MEQ")
    expect()(page.locator("#odds-exact")).to_contain_text("P(kills >= 1)", timeout=20000)
    assert page.evaluate(WIDTH) <= 390  # was 423 (the steps' table, the chart)
    page.click("#add-unit")
    page.fill("#then0", "Cronos")
    expect()(page.locator("#turn-table tr[data-step^='2. ']")).to_have_count(1, timeout=20000)
    assert page.evaluate(WIDTH) <= 390  # was 480 (the table after each unit)
    page.fill("#row", "Hexmark Destroyer\nCronos")
    expect()(page.locator("#grid tbody tr")).to_have_count(2, timeout=20000)
    assert page.evaluate(WIDTH) <= 390  # was 830 (the grid of the standard targets)
    # a plan by clicking only: two bundled units into two targets
    units, targets = ["Hexmark Destroyer", "Cronos"], ["MEQ", "GEQ"]
    for u in units:
        pick(page, "army", u)
    for t in targets:
        pick(page, "vs", t)
    page.uncheck("#phase-reach-grid input[aria-label='Cronos can shoot GEQ']")
    page.select_option("#phase-objective", "models")
    code, out, err = cli_out(cli, "plan", *units, "-t", "MEQ", "-t", "GEQ", "--objective", "models",
                             "--reach", "Cronos=MEQ", "--json")
    assert code == 0, err
    plan = json.loads(out)
    expect()(page.locator("#plan-best [data-exact]")).to_have_attribute(
        "data-exact", plan["best"]["value"], timeout=30000)
    expect()(page.locator("#plan-list li")).to_have_text(
        [f"{x['unit']} → {x['target']}" for x in plan["plan"]])
    assert "Cronos → MEQ" in page.inner_text("#plan-list")
    assert page.evaluate(WIDTH) <= 390  # was 628 in issue 35 (the plan's tables, its menu)
    page.click("#plan-details summary")  # the details open, still within the phone
    assert page.evaluate(WIDTH) <= 390
    # a long exact value is short; a click shows the whole fraction
    best = page.locator("#plan-best [data-exact]")
    assert len(best.inner_text()) < 12
    best.click()
    assert best.inner_text() == plan["best"]["value"].removesuffix("/1")
    assert page.evaluate(WIDTH) <= 390  # the whole number wraps
    no_syntax(page)
    # a tie said as a tie (tests/test_web_phase.py derives it: two ways to split two guns
    # over two lone models, each worth 25/18 models), the plan's choices read from the address
    guns, lone = ["1x 1 | 2+ | 10 | -3 | 1", "1x 1 | 2+ | 10 | -4 | 1"], ["1x T4 Sv7+ W1",
                                                                          "1x T5 Sv7+ W1"]
    picks = {"army": guns, "vs": lone}
    choice = {"picks": picks, "objective": "models",
              "on": {f"{side}:unit:{k}:{n}": True for side in picks
                     for k, n in enumerate(picks[side])}}
    open_page(page, "plan=" + urllib.parse.quote(json.dumps(choice)))
    expect()(page.locator("#plan-best [data-exact]")).to_have_attribute("data-exact", "25/18",
                                                                        timeout=30000)
    expect()(page.locator("#plan-lead")).to_contain_text(
        "a tie: 2 plans are worth exactly the same")
    context.close()
    assert page.errors == []


ULTRAMARINES = ROSTERS / "ultramarines.10e.rosz"
BLOOD_ANGELS = ROSTERS / "blood-angels.10e.gwapp.txt"
#: the phase: Leaders attached on both sides, five units, four targets, who can shoot whom
ATTACH = {"army": [("Captain", "Assault Intercessor Squad")],
          "vs": [("Commander Dante", "Sanguinary Guard"),
                 ("Captain with Jump Pack", "Assault Intercessors with Jump Packs")]}
UNITS = ["Outrider Squad", "Captain + Assault Intercessor Squad", "Razorback",
         "Eliminator Squad", "Impulsor"]
TARGETS = ["Captain with Jump Pack + Assault Intercessors with Jump Packs", "Baal Predator",
           "Commander Dante + Sanguinary Guard", "Vindicator"]  # in the list's order
REACH = {"Outrider Squad": {"Baal Predator": "", "Vindicator": "x"},
         "Captain + Assault Intercessor Squad": {"Baal Predator": "", "Vindicator": ""},
         "Razorback": {"Captain with Jump Pack + Assault Intercessors with Jump Packs": "half",
                       "Commander Dante + Sanguinary Guard": ""},
         "Impulsor": {"Commander Dante + Sanguinary Guard": "half",
                      "Captain with Jump Pack + Assault Intercessors with Jump Packs": ""}}
OATH = "Oath of Moment (1)"


def reach_args(rows: list[str]) -> list[str]:
    """``--reach`` for every row of the army list: the units planned as :data:`REACH` says,
    the others none."""
    out = []
    for row in rows:
        if row not in UNITS:
            out += ["--reach", f"{row}="]
            continue
        cells = [t + ("@half" if REACH.get(row, {}).get(t) == "half" else "")
                 for t in TARGETS if REACH.get(row, {}).get(t, "x")]
        out += ["--reach", f"{row}={','.join(cells)}"]
    return out


# A known fault in CI's parallel run: "planning..." for 5 minutes with the server idle. One
# cause is fixed (a query the clicks abandoned gave its lane's turn back while its worker was
# busy, so the next waited unseen in the pool's queue with no bound; the lanes now hold a turn
# until the worker is free, and a job no worker answers is answered at a deadline:
# tests/test_web_lanes.py). Not yet shown reliable under load (on a machine at load 20 the
# plan was still computing at the 120 s wait), so not strict: a pass says so.
@pytest.mark.xfail(strict=False, reason="the page's plan of two full lists may outlast the "
                   "wait on a loaded machine")
def test_the_shared_lists_planned_by_clicking_are_the_command_lines_plan(cli, browser, server):
    if not (ULTRAMARINES.is_file() and BLOOD_ANGELS.is_file() and (BSDATA / "10e").is_dir()):
        pytest.skip(f"no shared army lists and data in {ROSTERS.parent}")
    context, page = phone(browser, server)
    open_page(page)
    page.set_input_files("#phase-army-file", str(ULTRAMARINES))
    page.fill("#phase-vs", BLOOD_ANGELS.read_text())
    expect()(page.locator("#phase-vs-units li")).to_have_count(16, timeout=120000)
    # the lists say no attachments: each Leader alone, said; then attached by choosing
    expect()(page.locator("#phase-attach-body")).to_contain_text("stand alone")
    for side, pairs in ATTACH.items():
        who = "your units" if side == "army" else "targets"
        for leader, unit in pairs:
            page.select_option(f"#phase-attach-body select[aria-label='{leader} leads ({who})']",
                               unit)
            expect()(page.locator(f"#phase-{side}-units")).to_contain_text(
                f"{leader} + {unit}", timeout=60000)
    for u in UNITS:
        page.check(f"#phase-army-units input[aria-label='unit {u}']")
        page.click(f"#phase-army-units li[data-key='army:row:{u}'] details summary")
        page.check(f"#phase-army-units input[aria-label='{OATH} ({u})']")
    for t in TARGETS:
        page.check(f"#phase-vs-units input[aria-label='target {t}']")
    for u, cells in REACH.items():
        for t, cell in cells.items():
            if cell == "":
                page.uncheck(f"#phase-reach-grid input[aria-label='{u} can shoot {t}']")
            elif cell == "half":
                page.check(f"#phase-reach-grid input[aria-label='{u} within half range of {t}']")
    from mathhammer.data.rules.leaders import AttachSpec, attach

    army = pytest.importorskip("mathhammer.data.army").load_army(ULTRAMARINES, data=DATA_10E)
    army = attach(army, [AttachSpec.parse(f"{a}={b}") for a, b in ATTACH["army"]])
    labels = [label for label, _ in army.rows()]  # the rows after the attachments
    assert set(UNITS) <= set(labels)
    args = ["plan", "--army", str(ULTRAMARINES), "--vs-army", str(BLOOD_ANGELS), "--rule", OATH,
            "--json", "--data", str(DATA_10E)]
    for side, pairs in ATTACH.items():
        args += [x for a, b in pairs for x in ("--attach", f"{side}:{a}={b}")]
    code, out, err = cli_out(cli, *args, *reach_args(labels))
    assert code == 0, err
    plan = json.loads(out)
    expect()(page.locator("#plan-best [data-exact]")).to_have_attribute(
        "data-exact", plan["best"]["value"], timeout=120000)
    expect()(page.locator("#plan-list li")).to_have_text(
        [f"{x['unit']} → {x['target']}" + (" (within half range)" if x["half_range"] else "")
         for x in plan["plan"]])
    for t in plan["per_target"]:  # each target shot: its value and P(destroyed), exactly
        if t["attackers"]:
            row = page.locator(f"#plan-targets tr[data-target='{t['target']['name']}']")
            expect()(row.locator("[data-exact]").nth(0)).to_have_attribute("data-exact",
                                                                           t["value"])
            expect()(row.locator("[data-exact]").nth(1)).to_have_attribute("data-exact",
                                                                           t["destroyed"])
    assert page.evaluate(WIDTH) <= 390
    no_syntax(page)
    context.close()
    assert page.errors == []
