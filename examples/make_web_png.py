"""Draw ``examples/web.png``: the web page of ``mathhammer serve`` in the system's Chromium.

Run ``python examples/make_web_png.py`` (needs ``pip install ".[webtest]"`` and Chromium;
``MATHHAMMER_CHROMIUM`` names its binary if it is not the Debian package's).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

from mathhammer.web.background import serving

OUT = Path(__file__).resolve().parent / "web.png"
STATE = ("attacker=Hexmark+Destroyer&target=MEQ&half_range=true&k=2"
         "&row=Hexmark+Destroyer&row=Cronos&row=Necron+Warriors&vs=GEQ&vs=MEQ&vs=TEQ&vs=Knight")


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


if __name__ == "__main__":
    main()
