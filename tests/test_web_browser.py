"""The web page in a real browser: Playwright drives the system's Chromium against
``mathhammer serve`` in a subprocess, and every number shown is checked against the command
line's answer for the same query.

Skipped where Playwright or Chromium is missing, except under CI (``CI`` set), where that is a
failure: ``.ci/run`` installs both.
"""

from __future__ import annotations

import colorsys
import json
import os
import shutil
import sys
import urllib.parse
from pathlib import Path

import pytest

from mathhammer.web.background import serving  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fake_army  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SHARED = Path(os.environ.get("MATHHAMMER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
ROSTERS = SHARED / "rosters"
BSDATA = ROSTERS.parent / "bsdata"


def chromium() -> str | None:
    """The system's Chromium: $MATHHAMMER_CHROMIUM, or the Debian package's binary."""
    for path in (os.environ.get("MATHHAMMER_CHROMIUM"), "/usr/lib/chromium/chromium",
                 shutil.which("chromium"), shutil.which("chromium-browser"),
                 shutil.which("google-chrome")):
        if path and Path(path).is_file():
            return path
    return None


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} (.ci/run installs it)")
    pytest.skip(what)


def cli_out(cli, *args: str) -> tuple[int, str, str]:
    r = cli(*args)
    return r.exit_code, r.stdout, r.stderr


def hsl(h: float, s: float, light: float) -> str:
    """An HSL colour as the browser reports it, ``rgb(r, g, b)``."""
    r, g, b = colorsys.hls_to_rgb(h / 360, light / 100, s / 100)
    return f"rgb({round(r * 255)}, {round(g * 255)}, {round(b * 255)})"


def _serve(code: str):
    try:
        import pebble  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        _missing(f"the web extra is not installed ({e.name})")
    env = dict(os.environ)
    if BSDATA.is_dir():  # the real army lists resolve against the shared BattleScribe data
        env["MATHHAMMER_DATA"] = str(BSDATA)
        from mathhammer.data.store.compiled import open_store

        for edition in ("10e", "11e"):  # compiled here (a server compiles in the background)
            open_store(edition, BSDATA, progress=lambda *_: None)
    with serving(env=env, launch=code) as url:
        yield url


@pytest.fixture(scope="module")
def server():
    yield from _serve("from mathhammer.cli import main; main()")


@pytest.fixture(scope="module")
def army_server():
    """A server with the stand-in of mathhammer.data.army (tests/fake_army.py)."""
    yield from _serve(fake_army.LAUNCH.format(folder=str(Path(__file__).resolve().parent)))


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright for Python is not installed")
    path = chromium()
    if path is None:
        _missing("Chromium is not installed (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path)
        expect().set_options(timeout=PAGE_MS)
        yield b
        b.close()


#: Milliseconds a test waits for the page to show an answer of the bundled units: a bound on
#: liveness, not speed (CI runs the page beside the rest of the suite on two cores).
PAGE_MS = 30000


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.base = server
    yield p
    context.close()
    assert errors == []  # no script error on the page


def open_page(page, state: str = "") -> None:
    page.goto(f"{page.base}/#{state}")
    page.wait_for_selector("body[data-ready=true]", state="attached", timeout=20000)


def expect():
    from playwright.sync_api import expect as _expect

    return _expect


def odds_line(cli, *args: str) -> tuple[str, str]:
    """(percent, exact fraction) of ``mathhammer odds ... --json``."""
    code, out, err = cli_out(cli, "odds", *args, "--json")
    assert code == 0, err
    data = json.loads(out)
    from mathhammer.prob.numbers import percent

    return percent(__import__("fractions").Fraction(data["p"])), data["p"]


def test_hexmark_against_meq_at_half_range(cli, page):
    open_page(page, "attacker=Hexmark+Destroyer&target=MEQ")
    page.check("#options input[name=half_range]")
    page.fill("#k", "2")
    pct, exact = odds_line(cli, "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "2")
    assert (pct, exact) == ("14.08%", "54550000/387420489")  # the figures
    expect()(page.locator("#odds")).to_have_text(pct)
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 2) = {exact}")
    # the chart: hover the column of k = 2 for P(=2) and P(>=2), exact
    page.hover("#chart rect.hit[data-k='2']")
    expect()(page.locator("#tooltip")).to_contain_text(f"P(>=2) = {pct} = {exact}")
    # every step's expected value, exact, as `kills --json` gives it
    _, out, _ = cli_out(cli, "kills", "Hexmark Destroyer", "MEQ", "--half-range", "--json")
    means = json.loads(out)["mean"]
    for key, label in (("hits", "hits"), ("unsaved", "unsaved wounds"), ("kills", "kills")):
        cell = page.locator(f"#steps tr[data-step='{label}'] td.exact")
        expect()(cell).to_have_attribute("data-exact", means[key].removesuffix("/1"))
    assert "half_range=true" in page.url


def test_changing_an_option_updates_the_numbers(cli, page):
    open_page(page, "attacker=Hexmark+Destroyer&target=MEQ&half_range=true&k=2")
    expect()(page.locator("#odds")).to_have_text("14.08%")
    page.select_option("#options select[name=reroll_hits]", "ones")
    pct, exact = odds_line(cli, "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "2",
                           "--reroll-hits", "ones")
    assert pct != "14.08%"
    expect()(page.locator("#odds")).to_have_text(pct)
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 2) = {exact}")
    assert "reroll_hits=ones" in page.url
    page.uncheck("#options input[name=half_range]")
    pct, exact = odds_line(cli, "Hexmark Destroyer", "MEQ", "--at-least", "2", "--reroll-hits",
                           "ones")
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 2) = {exact}")


def test_a_bad_inline_profile_shows_its_error(cli, page):
    open_page(page, "attacker=Hexmark+Destroyer&target=MEQ")
    page.fill("#target", "5x T4 Sv3+ Q2")
    code, _, err = cli_out(cli, "kills", "Hexmark Destroyer", "5x T4 Sv3+ Q2", "--json")
    assert code == 2
    from mathhammer.jobs.queries import page_words

    expect()(page.locator("#error")).to_have_text(page_words(err.strip()))  # the page's words
    expect()(page.locator("#answer")).to_be_hidden()
    page.fill("#target", "5x T4 Sv3+ W2")  # fixed: the error goes, the answer comes back
    expect()(page.locator("#error")).to_be_hidden()
    expect()(page.locator("#answer")).to_be_visible()


def test_turns_show_p_destroyed_by_step(cli, page):
    open_page(page, "attacker=Hexmark+Destroyer&target=Necron+Warriors&target_models=5&turns=2")
    _, out, _ = cli_out(cli, "kills", "Hexmark Destroyer", "Necron Warriors", "--target-models",
                        "5", "--turns", "2", "--json")
    steps = json.loads(out)["steps"]
    assert [s["label"] for s in steps] == ["attack 1", "reanimate", "attack 2"]
    for s in steps:
        cell = page.locator(f"#turn-table tr[data-step='{s['label']}'] td.exact")
        expect()(cell).to_have_attribute("data-exact", s["destroyed"])


def test_the_comparison_is_the_table_command(cli, page):
    open_page(page, "attacker=Hexmark+Destroyer&target=MEQ")
    page.fill("#row", "Hexmark Destroyer\nCronos")
    page.fill("#vs", "GEQ\nMEQ\nTEQ")
    _, out, _ = cli_out(cli, "table", "Hexmark Destroyer", "Cronos", "-t", "GEQ,MEQ,TEQ",
                        "--format", "json")
    data = json.loads(out)
    rows = page.locator("#grid tbody tr")
    expect()(rows).to_have_count(2)
    for i, row in enumerate(data["rows"]):
        cells = rows.nth(i).locator("td")
        for j, v in enumerate(row["values"]):
            expect()(cells.nth(j)).to_have_text(f"{v['float']:.2f}")
            expect()(cells.nth(j)).to_have_attribute("title", v["exact"].removesuffix("/1"))
    # shaded per column as `table --format html`: the top of a column hsl(130, 55%, 50%), the
    # bottom hsl(130, 55%, 97%); Hexmark kills more of every target than Cronos
    for j in range(3):
        assert data["rows"][0]["values"][j]["float"] > data["rows"][1]["values"][j]["float"]
        top = rows.nth(0).locator("td").nth(j).get_attribute("style")
        low = rows.nth(1).locator("td").nth(j).get_attribute("style")
        assert f"background: {hsl(130, 55, 50)}" in top and "color: rgb(255, 255, 255)" in top
        assert low == f"background: {hsl(130, 55, 97)};"


def test_a_pasted_army_list_fills_the_comparison(page):
    army = pytest.importorskip("mathhammer.data.army")
    files = sorted(ROSTERS.glob("*.10e.gwapp.txt")) if ROSTERS.is_dir() else []
    if not files:
        pytest.skip("no shared army lists")
    text = files[0].read_text(encoding="utf-8")
    rows = army.parse_army(text, data=BSDATA).rows()
    open_page(page, "attacker=Hexmark+Destroyer&target=MEQ")
    page.fill("#vs", "MEQ\nTEQ")
    page.fill("#army", text)
    expect()(page.locator("#grid tbody tr")).to_have_count(len(rows), timeout=20000)
    labels = page.locator("#grid tbody th").all_inner_texts()
    assert labels == [label for label, _ in rows]


def test_the_shared_address_reproduces_the_view(cli, page, browser):
    open_page(page, "attacker=Hexmark+Destroyer&target=Necron+Warriors")
    page.fill("#target_models", "10")
    page.check("#options input[name=half_range]")
    page.select_option("#options select[name=crit_hit]", "5")
    page.check("#rules input[value='Protocol of the Conquering Tyrant']")
    page.fill("#turns", "2")
    page.fill("#k", "3")
    page.fill("#row", "Hexmark Destroyer\nNecron Warriors")
    page.fill("#vs", "MEQ\nGEQ")
    page.select_option("#metric", "destroyed")
    _, exact = odds_line(cli, "Hexmark Destroyer", "Necron Warriors", "--target-models", "10",
                         "--half-range", "--crit-hit", "5", "--rule", "Conquering Tyrant",
                         "--turns", "2", "--at-least", "3")
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 3) = {exact}")
    expect()(page.locator("#grid tbody tr")).to_have_count(2)
    expect()(page.locator("#grid caption")).to_have_text(
        "destroyed: probability the target unit is destroyed")
    expect()(page.locator("#grid thead th")).to_have_text(["attacker", "MEQ", "GEQ"])
    shown = {s: page.inner_text(s) for s in ("#answer", "#grid")}
    url = page.url
    other = browser.new_context().new_page()
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]", state="attached", timeout=20000)
    for selector, text in shown.items():
        assert other.inner_text(selector) == text
    assert other.input_value("#turns") == "2" and other.input_value("#k") == "3"
    assert other.is_checked("#rules input[value='Protocol of the Conquering Tyrant']")
    other.context.close()


def test_army_list_and_search_with_the_agreed_interface(cli, browser, army_server):
    """The page against the stand-in of mathhammer.data.army: a pasted list fills the comparison,
    typing a name offers the BattleScribe units that search_units finds."""
    context = browser.new_context()
    page = context.new_page()
    page.base = army_server
    open_page(page, "attacker=Cronos&target=MEQ&vs=MEQ&vs=TEQ")
    page.fill("#army", "Hexmark Destroyer\nNecron Warriors\nCronos")
    rows = page.locator("#grid tbody tr")
    expect()(rows).to_have_count(3)
    expect()(page.locator("#grid tbody th")).to_have_text(["Hexmark Destroyer", "Necron Warriors",
                                                           "Cronos"])
    _, out, _ = cli_out(cli, "table", "Hexmark Destroyer", "Necron Warriors", "Cronos", "-t",
                        "MEQ,TEQ", "--format", "json")
    want = [[v["exact"].removesuffix("/1") for v in r["values"]] for r in json.loads(out)["rows"]]
    for i, line in enumerate(want):
        for j, exact in enumerate(line):
            expect()(rows.nth(i).locator("td").nth(j)).to_have_attribute("title", exact)
    assert "army=Hexmark" in page.url  # the list is part of the shared address
    # its units are offered as attacker and target, and answer as the same units do
    expect()(page.locator("#target-list option[value='army:Hexmark Destroyer']")).to_have_count(1)
    page.fill("#attacker", "army:Necron Warriors")
    page.fill("#target", "army:Hexmark Destroyer")
    page.fill("#k", "1")
    _, exact = odds_line(cli, "Necron Warriors", "Hexmark Destroyer", "--at-least", "1")
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
    expect()(page.locator("#title")).to_have_text("Necron Warriors → Hexmark Destroyer")
    url = page.url
    other = browser.new_context().new_page()  # the shared address brings the list along
    other.goto(url)
    other.wait_for_selector("body[data-ready=true]", state="attached", timeout=20000)
    expect()(other.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
    other.context.close()
    page.fill("#army", "Nobody")
    expect()(page.locator("#compare-error")).to_contain_text("Nobody")
    page.fill("#attacker", "hexmark")
    options = page.locator("#attacker-list option")
    if BSDATA.is_dir():
        # the bundled unit, and the compiled store's "Faction:Unit" (the shared data)
        expect()(options).to_have_count(2)
        assert options.nth(1).get_attribute("value") == "Necrons:Hexmark Destroyer"
    else:
        # no data, nothing found: the page's own names, every bundled unit (the browser filters
        # them as typed; the list "Nobody" offers none), none of a data folder
        import mathhammer as mh

        names = [u.name for u in mh.list_units()]
        expect()(options).to_have_count(len(names))
        assert sorted(options.nth(i).get_attribute("value") for i in range(len(names))) == \
            sorted(names)
    context.close()


def test_weapons_models_phase_leader_and_edition(cli, page):
    open_page(page, "attacker=Cronos&target=MEQ&k=1")
    boxes = page.locator("#weapons input[type=checkbox]")
    # ranged: the two guns, the optional spirit vortex not picked by default
    expect()(boxes).to_have_count(2)
    assert [boxes.nth(i).is_checked() for i in range(2)] == [True, False]
    page.check("#weapons input[value='Spirit vortex']")
    page.fill("#models", "2")
    args = ["Cronos", "MEQ", "--weapon", "Spirit syphon", "--weapon", "Spirit vortex",
            "--models", "2", "--at-least", "1"]
    exact = odds_line(cli, *args)[1]
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
    assert "weapon=Spirit+vortex" in page.url and "models=2" in page.url
    # melee, with a Leader attached to the target and the 11e rules
    page.check("input[name=phase][value=melee]")
    expect()(boxes).to_have_count(1)
    expect()(page.locator("#weapons label .wname")).to_have_text(" Spirit-leech tentacles")
    page.fill("#leader", "Skitarii Marshal")
    page.select_option("#options select[name=rules]", "11e")
    args = ["Cronos", "MEQ", "--melee", "--models", "2", "--leader", "Skitarii Marshal",
            "--rules", "11e", "--at-least", "1"]
    exact = odds_line(cli, *args)[1]
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
    expect()(page.locator("#title")).to_have_text("Cronos → MEQ + Skitarii Marshal")
    # an inline attacker lists its rows
    page.fill("#attacker", "10x 2 | 3+ | 4 | -1 | 1 | lethal hits")
    page.check("input[name=phase][value=ranged]")
    from mathhammer.data.typed.inline import describe_weapon, parse_weapons

    [(weapon, n)] = parse_weapons("10x 2 | 3+ | 4 | -1 | 1 | lethal hits")
    expect()(page.locator("#weapons .note")).to_have_text(f"{n}x {describe_weapon(weapon)}")


#: The page's fetch with the look-ups of one unit (``{name}``) answered ``{ms}`` ms late: a slow
#: server, as CI's loaded one is.
SLOW_LOOKUP = """(() => {{ const f = window.fetch; window.fetch = (url, o) =>
  String(url).includes("/api/unit?name={name}&")
    ? new Promise((r) => setTimeout(r, {ms})).then(() => f(url, o)) : f(url, o); }})()"""


def test_a_late_answer_is_not_drawn_over_a_newer_one(page):
    """Hexmark's card asked, then Cronos' (known already, drawn at once), then Hexmark's
    answer comes: the form stays Cronos' (the newest drawing wins)."""
    page.add_init_script(SLOW_LOOKUP.format(name="Hexmark%20Destroyer", ms=1500))
    open_page(page, "attacker=Cronos&target=MEQ")
    with page.expect_response(lambda r: "name=Hexmark" in r.url, timeout=20000):
        page.fill("#attacker", "Hexmark Destroyer")
        page.wait_for_timeout(600)  # its look-up is asked (the form waits 250 ms to ask)
        page.fill("#attacker", "Cronos")
        expect()(page.locator("#attacker-info")).to_contain_text("Cronos (")
    page.wait_for_timeout(300)  # what the late answer would draw, drawn by now
    expect()(page.locator("#attacker-info")).to_contain_text("Cronos (")
    expect()(page.locator("#weapons input[type=checkbox]")).to_have_count(2)  # Cronos' guns
    assert page.input_value("#attacker") == "Cronos"


def test_leaving_the_units_box_keeps_its_wargear_picks(cli, page):
    """The change event of the unit's name box as it loses focus is not a new unit: the
    weapons picked since stay picked, and the answer is the command line's for them."""
    open_page(page, "target=MEQ")
    page.fill("#attacker", "Cronos")
    expect()(page.locator("#weapons input[type=checkbox]")).to_have_count(2)
    page.check("#weapons input[value='Spirit vortex']")
    page.locator("#attacker").dispatch_event("change")  # as when the box loses focus
    exact = odds_line(cli, "Cronos", "MEQ", "--weapon", "Spirit syphon", "--weapon",
                      "Spirit vortex", "--at-least", "1")[1]
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
    assert page.is_checked("#weapons input[value='Spirit vortex']")
    assert "weapon=Spirit+vortex" in page.url


# --- a unit of the installed data, at a phone's and a laptop's size ------------------------------

DATA_10E = BSDATA / "10e"
DEVASTATORS = "Space Marines:Devastator Squad"
LIEUTENANT, CAPTAIN = "Space Marines:Lieutenant", "Space Marines:Captain"
#: Every form control must have an accessible name (a <label>, or aria-label).
UNLABELLED = """() => [...document.querySelectorAll('input, select, textarea')]
  .filter((e) => e.type !== 'hidden' && !e.labels.length && !e.getAttribute('aria-label'))
  .map((e) => e.outerHTML.slice(0, 80))"""


#: Milliseconds the tests on the shared data wait for the page to show an answer: a bound on
#: liveness (the answer comes, and is the command line's), not on speed. CI runs them beside
#: the rest of the suite on two cores, where one answer of the real data (a lookup, its rules,
#: the attack, behind the page's earlier queries) has taken 27 s; speed is tests/benchmark.py's.
ANSWER_MS = 90000
#: ... and for a plan picked by clicks: each click asks again and the page aborts the plan it no
#: longer needs, which stops a long-lane worker; its replacement reads the data before the next
#: plan starts (`mathhammer serve`'s lanes). Under CI's load a clean clone waited past 90 s twice.
PLAN_MS = 240000


@pytest.fixture(scope="module")
def data_server():
    """A server on the shared 10e BattleScribe data (``serve --data``); its first look-up
    builds the unit index, hence the long time limit."""
    if not DATA_10E.is_dir():
        pytest.skip(f"no shared BattleScribe data at {DATA_10E}")
    import urllib.parse
    import urllib.request

    for url in _serve("from mathhammer.cli import main; import sys; sys.argv += ['--data', "
                      f"{str(DATA_10E)!r}, '--timeout', '300']; main()"):
        # the first look-up builds the unit index and reads the catalogue (cached after)
        for name in (DEVASTATORS, DEVASTATORS, LIEUTENANT, LIEUTENANT):  # both workers
            with urllib.request.urlopen(f"{url}/api/unit?name={urllib.parse.quote(name)}",
                                        timeout=300):
                pass
        expect().set_options(timeout=ANSWER_MS)  # every wait for an answer of the data
        try:
            yield url
        finally:
            expect().set_options(timeout=PAGE_MS)  # the other tests' bound


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_a_unit_of_the_data_its_wargear_rules_and_list(cli, browser, data_server, width, height):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = data_server
    open_page(page, "attacker=Cronos&target=MEQ&models=2")
    assert page.evaluate(UNLABELLED) == []  # every control has a label
    if width < 800:  # results first on a phone: the answer above the form
        box = {s: page.locator(s).bounding_box()["y"] for s in ("#result", "#form")}
        assert box["#result"] < box["#form"]
    # faction, then unit: the faction's units are offered (one search call)
    page.focus("#faction")  # the factions are listed when the picker is first used
    page.select_option("#faction", "Space Marines")
    expect()(page.locator(f"#attacker-list option[value='{DEVASTATORS}']")).to_have_count(
        1, timeout=ANSWER_MS)
    page.fill("#attacker", DEVASTATORS)
    expect()(page.locator("#attacker-info")).to_contain_text("M6 T4 Sv3+ W2", timeout=ANSWER_MS)
    expect()(page.locator("#attacker-info")).to_contain_text("5 models 120 pts")
    assert page.input_value("#models") == ""  # Cronos' 2 models do not carry over
    # the unit's card is drawn to the end (its rules' boxes too) before the form is touched: a
    # slow answer would otherwise draw its boxes again under the clicks below
    expect()(page.locator("#rules input[value='Oath of Moment (1)']")).to_have_count(
        1, timeout=ANSWER_MS)
    # its wargear: 4 lascannons instead of the heavy bolter
    page.uncheck("#weapons input[value='Heavy Bolter']")
    page.check("#weapons input[value='Lascannon']")
    page.fill("#weapons input[aria-label='how many Lascannon']", "4")
    data = ["--data", str(DATA_10E)]
    # the picks differ from the defaults: every ticked weapon is sent (the page's address
    # says which), and the page's answer is the command line's for the same picks
    expect()(page.locator("#odds-exact")).to_contain_text("P(kills >= 1) = ", timeout=ANSWER_MS)
    page.wait_for_function("() => decodeURIComponent(location.href).includes('4x')")
    parts = urllib.parse.urlsplit(page.url)
    sent = urllib.parse.parse_qs(parts.query or parts.fragment)["weapon"]
    assert "4x Lascannon" in sent and "Heavy Bolter" not in sent
    picks = [x for w in sent for x in ("-w", w)]
    _, exact = odds_line(cli, DEVASTATORS, "MEQ", *picks, "--at-least", "1", *data)
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}",
                                                        timeout=ANSWER_MS)
    # a conditional rule of its datasheet is a switch with the named rules (Oath of Moment:
    # re-roll the Hit rolls against the chosen target; the answer changes)
    oath = "Oath of Moment (1)"
    page.check(f"#rules input[value='{oath}']")
    _, with_oath = odds_line(cli, DEVASTATORS, "MEQ", *picks, "--rule", oath, "--at-least", "1",
                             *data)
    assert with_oath != exact
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {with_oath}",
                                                        timeout=ANSWER_MS)
    expect()(page.locator("#attacker-info")).to_contain_text("not modelled: Armorium Cherub")
    page.uncheck(f"#rules input[value='{oath}']")
    # a modifier from its phase group, then a named rule: only the attacker's faction's
    page.check("#options input[name=stationary]")
    page.fill("#attacker", "Hexmark Destroyer")
    expect()(page.locator("#rules .faction")).to_have_text(["Necrons"], timeout=ANSWER_MS)
    page.check("#rules input[value='Protocol of the Conquering Tyrant']")
    _, exact = odds_line(cli, "Hexmark Destroyer", "MEQ", "--stationary", "--rule",
                         "Conquering Tyrant", "--at-least", "1", *data)
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
    if width >= 800:  # the shared address reproduces the view (once is enough)
        page.fill("#attacker", DEVASTATORS)
        page.check("#weapons input[value='Lascannon']", timeout=ANSWER_MS)
        page.fill("#weapons input[aria-label='how many Lascannon']", "4")
        page.uncheck("#weapons input[value='Heavy Bolter']")
        # a Leader on each side: the attacker's is "UNIT + LEADER", the target's --leader
        page.fill("#attacker_leader", LIEUTENANT)
        page.fill("#leader", CAPTAIN)
        _, exact = odds_line(cli, f"{DEVASTATORS} + {LIEUTENANT}", "MEQ", "--leader", CAPTAIN,
                             *picks, "--stationary", "--at-least", "1", *data)
        expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}",
                                                            timeout=ANSWER_MS)
        expect()(page.locator("#title")).to_have_text("Devastator Squad + Lieutenant → MEQ + "
                                                      "Captain")
        # kills by unit name; the Lieutenant's datasheet does not list Devastators: said
        expect()(page.locator("#steps tr[data-step='  kills of Captain']")).to_have_count(1)
        expect()(page.locator("#warnings")).to_contain_text("Lieutenant cannot lead Devastator")
        other = context.new_page()
        other.goto(page.url)
        other.wait_for_selector("body[data-ready=true]", state="attached", timeout=ANSWER_MS)
        expect()(other.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {exact}")
        assert other.input_value("#weapons input[aria-label='how many Lascannon']") == "4"
        assert not other.is_checked("#weapons input[value='Heavy Bolter']")
        assert other.input_value("#attacker_leader") == LIEUTENANT
        other.close()
    # a pasted list with a line the data does not have: shown, with points read / list total
    army = pytest.importorskip("mathhammer.data.army")
    text = ("Test list (200 points)\n\nSpace Marines\nStrike Force (2000 points)\n\n"
            "CHARACTERS\n\nCaptain with Jump Pack (75 points)\n  • 1x Hand flamer\n"
            "    1x Power fist\n\nGrand Warlord Nobody (125 points)\n  • 1x Bolt pistol\n")
    parsed = army.parse_army(text, data=DATA_10E)
    [bad] = parsed.unresolved
    page.fill("#vs", "MEQ")
    page.fill("#army", text)
    expect()(page.locator("#army-info li.unresolved")).to_contain_text(
        f"line {bad.line}: {bad.text}", timeout=ANSWER_MS)
    expect()(page.locator("#army-info .points")).to_contain_text(
        f"{parsed.points} / {parsed.declared_points}")
    # the line names the list's faction file and its revision, and a note says the file lacks it
    [lacks] = parsed.lacking_files()
    expect()(page.locator("#army-info li.unresolved")).to_contain_text(
        f"not a datasheet in {lacks}")
    expect()(page.locator("#army-info .lacking")).to_contain_text(f"what {lacks} does not have")
    rosz = ROSTERS / "necron-combat-patrol.10e.rosz"
    if width >= 800 and rosz.is_file():  # an upload, read in the browser and sent as content
        page.set_input_files("#army-file", str(rosz))
        rows = army.load_army(rosz, data=DATA_10E).rows()
        expect()(page.locator("#grid tbody th")).to_have_text([label for label, _ in rows],
                                                              timeout=ANSWER_MS)
        assert page.input_value("#army") == "" and "army_file=" in page.url
    context.close()
    assert errors == []


INTERCESSORS = "Space Marines:Intercessor Squad"


def _sent(page, key: str) -> list[str]:
    """The values of ``key`` in the page's address (its state after ``#``)."""
    parts = urllib.parse.urlsplit(page.url)
    return urllib.parse.parse_qs(parts.fragment).get(key, [])


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_several_units_a_plan_and_the_listed_leaders(cli, browser, data_server, width, height):
    from mathhammer.data.store.compiled import open_store

    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = data_server
    data = ["--data", str(DATA_10E)]
    open_page(page, f"attacker={urllib.parse.quote(INTERCESSORS)}&target=MEQ")
    # the Leaders offered are those of the unit's datasheet Leader list (the store's), its
    # faction's first
    listed = "#attacker_leader-list option"
    expect()(page.locator(f"{listed}[value='{CAPTAIN}']")).to_have_count(1, timeout=ANSWER_MS)
    offered = page.eval_on_selector_all(listed, "os => os.map((o) => o.value)")
    want = open_store("10e", DATA_10E).leaders_of("Intercessor Squad")
    assert sorted(n.split(":", 1)[1] for n in offered) == sorted(want)
    assert offered[0].startswith("Space Marines:")
    page.fill("#attacker_leader", CAPTAIN)
    # then the Devastators with 4 lascannons, into the same target; until P >= 90%
    page.click("#add-unit")
    page.fill("#then0", DEVASTATORS)
    who = " (unit 2)"
    page.check(f"#then input[aria-label='Lascannon{who}']", timeout=ANSWER_MS)
    page.fill(f"#then input[aria-label='how many Lascannon{who}']", "4")
    page.uncheck(f"#then input[aria-label='Heavy Bolter{who}']")
    page.fill("#until", "90%")
    page.wait_for_function("() => decodeURIComponent(location.href).includes('4x+Lascannon')")
    [then] = _sent(page, "then")  # the unit as JSON, never command-line syntax
    unit = json.loads(then)
    assert unit["unit"] == DEVASTATORS and "4x Lascannon" in unit["weapons"]
    assert "Heavy Bolter" not in then and "--" not in then
    then = " ".join([unit["unit"], *(f"--weapon {w}" for w in unit["weapons"])])
    first = f"{INTERCESSORS} + {CAPTAIN}"
    code, out, err = cli_out(cli, "kills", first, then, "-t", "MEQ", "--until", "90%", "--json",
                             *data)
    assert code == 0, err
    want = json.loads(out)
    rows = "#turn-table tr[data-step^='{}. '] td.exact"
    for i, unit in enumerate(want["after_units"], 1):
        expect()(page.locator(rows.format(i))).to_have_attribute(
            "data-exact", unit["destroyed"].removesuffix("/1"), timeout=ANSWER_MS)
    expect()(page.locator("#title")).to_have_text(
        "Intercessor Squad + Captain then Devastator Squad → MEQ")
    k = want["until"]["units"]
    expect()(page.locator("#until-line")).to_contain_text(
        f"the first {k} unit" if k else "not reached")
    if width >= 800:  # the shared address reproduces it
        other = context.new_page()
        other.goto(page.url)
        other.wait_for_selector("body[data-ready=true]", state="attached", timeout=ANSWER_MS)
        expect()(other.locator(rows.format(2))).to_have_attribute(
            "data-exact", want["after_units"][1]["destroyed"].removesuffix("/1"), timeout=ANSWER_MS)
        assert other.input_value("#then0") == DEVASTATORS
        assert other.input_value(f"#then input[aria-label='how many Lascannon{who}']") == "4"
        other.close()
    # a plan by clicking: two units, two targets picked by name, adaptive; the command line's
    # best and lead, exactly
    units, targets = [DEVASTATORS, "Hexmark Destroyer"], ["MEQ", "Heavy vehicle"]
    page.click("#phase-pick summary")
    for side, names in (("army", units), ("vs", targets)):
        for name in names:
            page.select_option("#phase-side", side)
            page.fill("#phase-name", name)
            page.click("#phase-add")
    page.select_option("#phase-objective", "models")
    page.check("#phase-adaptive")
    code, out, err = cli_out(cli, "plan", *units, *(x for t in targets for x in ("-t", t)),
                             "--objective", "models", "--adaptive", "--budget", "2000",
                             "--json", *data)
    assert code == 0, err
    plan = json.loads(out)
    expect()(page.locator("#plan-best [data-exact]")).to_have_attribute(
        "data-exact", plan["best"]["value"], timeout=PLAN_MS)
    expect()(page.locator("#plan-lead [data-exact]")).to_have_attribute(
        "data-exact", plan["lead"])
    expect()(page.locator("#plan-adaptive [data-exact]").first).to_have_attribute(
        "data-exact", plan["adaptive"]["value"])
    best = [f"{t['unit']} → {t['target']}" for t in plan["plan"]]
    expect()(page.locator("#plan-list li")).to_have_text(best)
    expect()(page.locator("#plan-details")).to_contain_text("searched exactly")
    rosz = ROSTERS / "necron-combat-patrol.10e.rosz"
    if width >= 800 and rosz.is_file():  # the enemy's list uploaded: its units are targets
        for name in targets:
            page.click(f"#phase-vs-units button[aria-label='remove {name}']")
        page.set_input_files("#phase-vs-file", str(rosz))
        rows = [label for label, _ in
                pytest.importorskip("mathhammer.data.army").load_army(rosz, data=DATA_10E).rows()]
        for label in rows:
            page.check(f"#phase-vs-units input[aria-label='target {label}']", timeout=ANSWER_MS)
        code, out, err = cli_out(cli, "plan", *units, "--vs-army", str(rosz), "--objective",
                                 "models", "--adaptive", "--budget", "2000", "--json", *data)
        assert code == 0, err
        plan = json.loads(out)
        expect()(page.locator("#plan-best [data-exact]")).to_have_attribute(
            "data-exact", plan["best"]["value"], timeout=PLAN_MS)
        expect()(page.locator("#plan-targets tr[data-target]")).to_have_count(
            sum(bool(t["attackers"]) for t in plan["per_target"]))
    assert page.evaluate(UNLABELLED) == []  # the new controls have labels too
    context.close()
    assert errors == []


HELLBLASTERS = "Space Marines:Hellblaster Squad"


def test_a_weapons_profiles_are_one_choice_answered_as_the_command_line(cli, browser,
                                                                         data_server):
    """A plasma incinerator's standard and supercharge profiles are one box with one choice
    of profile; each choice is sent as the command line's -w of the weapon (the better
    profile for each model) or of the profile, and answers the command line's numbers."""
    import urllib.parse

    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = data_server
    open_page(page, f"attacker={urllib.parse.quote(HELLBLASTERS)}&target=MEQ")
    choice = page.locator("#weapons select[aria-label='profile of Plasma Incinerator']")
    expect()(choice).to_have_count(1, timeout=ANSWER_MS)
    # one box for the weapon, none per profile
    assert page.locator("#weapons input[value*='Standard']").count() == 0
    expect()(choice.locator("option")).to_have_text(
        ["the better for the target", "Standard", "Supercharge"])
    data = ["--data", str(DATA_10E), "--at-least", "1"]
    _, better = odds_line(cli, HELLBLASTERS, "MEQ", *data)  # the datasheet's loadout
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {better}",
                                                        timeout=ANSWER_MS)
    seen = {}
    for label, profile in (("Supercharge", "Plasma Incinerator - Supercharge"),
                           ("Standard", "Plasma Incinerator - Standard")):
        choice.select_option(label=label)
        page.wait_for_function("(p) => decodeURIComponent(location.href.replace(/[+]/g, ' '))"
                               ".includes(p)", arg=profile)
        parts = urllib.parse.urlsplit(page.url)
        sent = urllib.parse.parse_qs(parts.query or parts.fragment)["weapon"]
        assert profile in sent and "Plasma Incinerator" not in sent  # the profile, by name
        _, seen[label] = odds_line(cli, HELLBLASTERS, "MEQ",
                                   *[x for w in sent for x in ("-w", w)], *data)
        expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {seen[label]}",
                                                            timeout=ANSWER_MS)
    # against MEQ (W2) supercharge (D2) kills a model per unsaved wound, standard (D1) does
    # not: the two differ, and the better profile is supercharge's
    assert seen["Supercharge"] != seen["Standard"]
    assert better == seen["Supercharge"]
    choice.select_option(label="the better for the target")
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 1) = {better}",
                                                        timeout=ANSWER_MS)
    context.close()
    assert errors == []
