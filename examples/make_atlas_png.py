"""Draw ``examples/atlas.png``: the page of ``mathhammer atlas`` (every 10e datasheet against the
standard targets) in the system's Chromium, sorted by kills per 100 points against MEQ.

Run ``python examples/make_atlas_png.py [BSDATA]`` (default ``../shared/bsdata`` beside the
checkout; needs ``pip install ".[webtest]"`` and Chromium; ``MATHHAMMER_CHROMIUM`` names its
binary if it is not the Debian package's).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner
from playwright.sync_api import sync_playwright

from mathhammer.cli import cli

OUT = Path(__file__).resolve().parent / "atlas.png"


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parents[2] / "shared" / "bsdata"
    chromium = next(p for p in (os.environ.get("MATHHAMMER_CHROMIUM"),
                                "/usr/lib/chromium/chromium", shutil.which("chromium"))
                    if p and Path(p).is_file())
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "atlas.html"
        res = CliRunner().invoke(cli, ["atlas", "--rules", "10e", "--data", str(data),
                                       "-o", str(page_file)])
        if res.exit_code != 0:
            raise SystemExit(res.output)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(page_file.as_uri())
            page.click("a[href='#f1']")  # the second faction's section
            table = page.locator("table.atlas").nth(1)
            table.locator("th").nth(6).click()
            table.locator("th").nth(6).click()  # MEQ, highest first
            table.locator("tbody tr").first.locator("td").nth(6).hover()
            page.screenshot(path=str(OUT))
            browser.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
