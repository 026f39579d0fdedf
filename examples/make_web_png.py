"""Draw ``examples/web.png``: the web page of ``mathhammer serve`` in the system's Chromium;
and, with the shared BattleScribe data (``../shared/bsdata/10e`` beside the checkout, or
``MATHHAMMER_SHARED``), ``web-390.png`` and ``web-1280.png``: a unit of the data with its
wargear and a Leader on each side, on a phone (the answer first) and a laptop;
``web-then-390.png`` and ``web-then-1280.png``: three units into one target, in order; and
``web-plan.png``: the plan of a phase (three units, three targets, adaptive).

Run ``python examples/make_web_png.py`` (needs ``pip install ".[webtest]"`` and Chromium;
``MATHHAMMER_CHROMIUM`` names its binary if it is not the Debian package's).
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.parse
from pathlib import Path

from playwright.sync_api import sync_playwright

from mathhammer.web.background import serving

OUT = Path(__file__).resolve().parent / "web.png"
STATE = ("attacker=Hexmark+Destroyer&target=MEQ&half_range=true&k=2"
         "&row=Hexmark+Destroyer&row=Cronos&row=Necron+Warriors&vs=GEQ&vs=MEQ&vs=TEQ&vs=Knight")


SHARED = Path(os.environ.get("MATHHAMMER_SHARED",
                            Path(__file__).resolve().parents[2] / "shared"))
DATA_STATE = ("attacker=Space+Marines%3ADevastator+Squad&attacker_leader=Space+Marines%3A"
              "Apothecary&weapon=4x+Lascannon&weapon=Bolt+pistol&target=MEQ&leader=Space+Marines"
              "%3ACaptain&stationary=true&faction=Space+Marines")


#: The units after the first are the page's "then" entries, each its JSON (mathhammer.app).
THEN_STATE = urllib.parse.urlencode([
    ("attacker", "Space Marines:Predator Annihilator"),
    ("then", json.dumps({"unit": "Space Marines:Devastator Squad", "leader": "", "models": "",
                         "weapons": ["4x Lascannon", "Bolt pistol"], "rules": []})),
    ("then", json.dumps({"unit": "Space Marines:Intercessor Squad",
                         "leader": "Space Marines:Lieutenant", "models": "", "weapons": [],
                         "rules": []})),
    ("target", "Space Marines:Land Raider"), ("until", "50%")])
#: the planner's choices (plan.js keeps them in the address as JSON): three units and three
#: targets picked by name, adaptive
_PICKS = {"army": ["Space Marines:Predator Annihilator", "Space Marines:Devastator Squad",
                   "Space Marines:Intercessor Squad"],
          "vs": ["Space Marines:Land Raider", "Space Marines:Intercessor Squad",
                 "Space Marines:Rhino"]}
PLAN_STATE = ("attacker=Space+Marines%3ADevastator+Squad&target=MEQ&plan=" + urllib.parse.quote(
    json.dumps({"picks": _PICKS, "adaptive": True,
                "on": {f"{side}:unit:{k}:{n}": True for side in _PICKS
                       for k, n in enumerate(_PICKS[side])}})))


def data_pictures(chromium: str) -> None:
    """``web-390.png`` and ``web-1280.png``, from a server on the shared data."""
    data = SHARED / "bsdata" / "10e"
    if not data.is_dir():
        print(f"no shared BattleScribe data at {data}: web-390.png and web-1280.png not drawn")
        return
    with serving("--data", str(data), "--timeout", "300") as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium)
        for width, height in ((390, 844), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/#{DATA_STATE}")
            page.wait_for_selector("body[data-ready=true]", state="attached", timeout=300_000)
            out = OUT.with_name(f"web-{width}.png")
            page.screenshot(path=str(out))
            print(f"wrote {out}")
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{base}/#{THEN_STATE}")
            page.wait_for_selector("body[data-ready=true]", state="attached", timeout=300_000)
            out = OUT.with_name(f"web-then-{width}.png")
            page.screenshot(path=str(out))
            print(f"wrote {out}")
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{base}/#{PLAN_STATE}")
        page.wait_for_selector("body[data-ready=true]", state="attached", timeout=300_000)
        page.wait_for_selector("#plan-best", timeout=300_000)
        out = OUT.with_name("web-plan.png")
        page.locator("#plan").screenshot(path=str(out))
        print(f"wrote {out}")
        browser.close()


def main() -> None:
    chromium = next(p for p in (os.environ.get("MATHHAMMER_CHROMIUM"),
                                "/usr/lib/chromium/chromium", shutil.which("chromium"))
                    if p and Path(p).is_file())
    with serving() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/#{STATE}")
        page.wait_for_selector("body[data-ready=true]", state="attached")
        page.hover("#chart rect.hit[data-k='2']")
        page.screenshot(path=str(OUT), full_page=True)
        browser.close()
    print(f"wrote {OUT}")
    data_pictures(chromium)


if __name__ == "__main__":
    main()
