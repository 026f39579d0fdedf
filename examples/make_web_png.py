"""Draw ``examples/web.png``: the web page of ``mathhammer serve`` in the system's Chromium.

Run ``python examples/make_web_png.py`` (needs ``pip install ".[webtest]"`` and Chromium;
``MATHHAMMER_CHROMIUM`` names its binary if it is not the Debian package's).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent / "web.png"
STATE = ("attacker=Hexmark+Destroyer&target=MEQ&half_range=true&k=2"
         "&row=Hexmark+Destroyer&row=Cronos&row=Necron+Warriors&vs=GEQ&vs=MEQ&vs=TEQ&vs=Knight")


def main() -> None:
    chromium = next(p for p in (os.environ.get("MATHHAMMER_CHROMIUM"),
                                "/usr/lib/chromium/chromium", shutil.which("chromium"))
                    if p and Path(p).is_file())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", "from mathhammer.cli import main; main()",
                             "serve", "--port", str(port)], stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/api/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{base}/#{STATE}")
            page.wait_for_selector("body[data-ready=true]", state="attached")
            page.hover("#chart rect.hit[data-k='2']")
            page.screenshot(path=str(OUT), full_page=True)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
