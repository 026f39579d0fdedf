"""The page on a phone, as pictures: ``python examples/make_screenshots.py`` serves the page,
drives Chromium at 390x844 through four states (a query, a second unit, a comparison, a plan
by clicking: its choices, ``page-390-planner.png``, and its answer; with the shared data, a
weapon's choice of profile, ``page-390-profiles.png``) and saves each as
``examples/page-390-*.png``, printing the page's width
(``document.documentElement.scrollWidth``) in each.

The plan is of the two shared 10e lists (``$MATHHAMMER_SHARED``, default ``/work/shared``:
``rosters/ultramarines.10e.rosz`` against ``rosters/blood-angels.10e.gwapp.txt``, their Leaders
attached) when they are there, else of bundled units picked by name. Needs the ``webtest``
extra (Playwright) and Chromium (``$MATHHAMMER_CHROMIUM``, else ``/usr/bin/chromium``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("MATHHAMMER_SHARED", "/work/shared"))
ROSTERS, BSDATA = SHARED / "rosters", SHARED / "bsdata"
PHONE = {"width": 390, "height": 844}
ATTACH = {"army": [("Captain", "Assault Intercessor Squad")],
          "vs": [("Commander Dante", "Sanguinary Guard"),
                 ("Captain with Jump Pack", "Assault Intercessors with Jump Packs")]}
UNITS = ["Outrider Squad", "Captain + Assault Intercessor Squad", "Razorback", "Impulsor"]
TARGETS = ["Captain with Jump Pack + Assault Intercessors with Jump Packs", "Baal Predator",
           "Commander Dante + Sanguinary Guard", "Vindicator"]


def _shot(page, name: str, anchor: str) -> tuple[str, int]:
    page.evaluate(f"document.querySelector({anchor!r}).scrollIntoView(); scrollBy(0, -24)")
    page.wait_for_timeout(300)
    path = HERE / f"page-390-{name}.png"
    page.screenshot(path=str(path))
    return str(path.relative_to(HERE.parent)), page.evaluate(
        "document.documentElement.scrollWidth")


def _plan_of_lists(page) -> None:
    page.set_input_files("#phase-army-file", str(ROSTERS / "ultramarines.10e.rosz"))
    page.fill("#phase-vs", (ROSTERS / "blood-angels.10e.gwapp.txt").read_text())
    page.wait_for_selector("#phase-vs-units li", timeout=120000)
    page.wait_for_selector("#phase-army-units li", timeout=120000)
    for side, pairs in ATTACH.items():
        who = "your units" if side == "army" else "targets"
        for leader, unit in pairs:
            page.select_option(f"#phase-attach-body select[aria-label='{leader} leads ({who})']",
                               unit)
            row = f"{side}:row:{leader} + {unit}"
            page.wait_for_selector(f"#phase-{side}-units li[data-key='{row}']", timeout=120000)
    for u in UNITS:
        page.check(f"#phase-army-units input[aria-label='unit {u}']")
    for t in TARGETS:
        page.check(f"#phase-vs-units input[aria-label='target {t}']")
    page.uncheck("#phase-reach-grid input[aria-label='Razorback can shoot Baal Predator']")
    page.check("#phase-reach-grid input[aria-label='Impulsor within half range of Vindicator']")


def _plan_of_names(page) -> None:
    page.click("#phase-pick summary")
    for side, name in (("army", "Hexmark Destroyer"), ("army", "Cronos"), ("vs", "MEQ"),
                       ("vs", "GEQ")):
        page.select_option("#phase-side", side)
        page.fill("#phase-name", name)
        page.click("#phase-add")


def main() -> int:
    from playwright.sync_api import sync_playwright

    from mathhammer.web.background import serving

    env = dict(os.environ)
    lists = (ROSTERS / "ultramarines.10e.rosz").is_file() and (BSDATA / "10e").is_dir()
    options: list[str] = []
    if lists:
        env["MATHHAMMER_DATA"] = str(BSDATA)
        options = ["--data", str(BSDATA / "10e"), "--timeout", "300"]
        from mathhammer.data.store.compiled import open_store

        for edition in ("10e", "11e"):  # compiled here, once (a server compiles in the background)
            open_store(edition, BSDATA, progress=lambda *_: None)
    chromium = os.environ.get("MATHHAMMER_CHROMIUM", "/usr/bin/chromium")
    made = []
    with serving(*options, env=env, wait=300) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium)
        page = browser.new_context(viewport=PHONE).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/#attacker=Hexmark+Destroyer&target=MEQ")
        page.wait_for_selector("body[data-ready=true]", state="attached", timeout=120000)
        page.wait_for_selector("#answer:not([hidden])", timeout=120000)
        made.append(_shot(page, "query", "#result"))
        page.click("#add-unit")
        page.fill("#then0", "Cronos")
        page.wait_for_selector("#turn-table tr[data-step^='2. ']", timeout=120000)
        made.append(_shot(page, "second-unit", "#turns-box"))
        page.fill("#row", "Hexmark Destroyer\nCronos")
        page.wait_for_selector("#grid tbody tr", timeout=120000)
        made.append(_shot(page, "comparison", "#compare"))
        (_plan_of_lists if lists else _plan_of_names)(page)
        page.wait_for_selector("#plan-targets", timeout=300000)
        made.append(_shot(page, "planner", "#phase-attach" if lists else "#phase-reach"))
        made.append(_shot(page, "plan", "#plan-answer"))
        if lists:  # a weapon of two profiles: one box, one choice of profile
            page.fill("#attacker", "Space Marines:Hellblaster Squad")
            choice = "#weapons select[aria-label='profile of Plasma Incinerator']"
            page.wait_for_selector(choice, timeout=120000)
            page.select_option(choice, label="Supercharge")
            page.wait_for_timeout(1500)
            made.append(_shot(page, "profiles", "#weapons"))
        browser.close()
    for path, width in made:
        print(f"{path}: scrollWidth {width} px at 390 px")
    if errors:
        print("script errors on the page:", *errors, sep="\n  ", file=sys.stderr)
    return 1 if errors or any(w > PHONE["width"] for _, w in made) else 0


if __name__ == "__main__":
    sys.exit(main())
