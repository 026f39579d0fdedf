"""Share links in a real browser: the address ``--link`` prints, opened on ``mathhammer serve``,
shows the command line's numbers (an attack, a comparison, a plan). Fixtures and skips as in
tests/test_web_browser.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_web_browser as wb  # noqa: E402

# its fixtures: a server, the browser, a fresh page
server, browser, page = wb.server, wb.browser, wb.page
cli_out, expect = wb.cli_out, wb.expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def opened(cli, page, *args: str) -> None:
    """Open the page at the address of ``mathhammer ARGS --link`` (on the test's server)."""
    code, out, err = cli_out(cli, *args, "--link", "--page-url", f"{page.base}/")
    assert code == 0, err
    page.goto(out.strip())
    page.wait_for_selector("body[data-ready=true]", state="attached", timeout=20000)


def cli_json(cli, *args: str) -> dict:
    code, out, err = cli_out(cli, *args)
    assert code == 0, err
    return json.loads(out)


def test_an_odds_link_shows_the_odds(cli, page):
    args = ["Hexmark Destroyer", "Necron Warriors", "--target-models", "10", "--half-range",
            "--crit-hit", "5", "--rule", "Conquering Tyrant", "--turns", "2", "--at-least", "3"]
    opened(cli, page, "odds", *args)
    p = cli_json(cli, "odds", *args, "--json")["p"]
    expect()(page.locator("#odds-exact")).to_have_text(f"P(kills >= 3) = {p}")
    assert page.is_checked("#rules input[value='Protocol of the Conquering Tyrant']")


def test_a_comparison_link_shows_the_table(cli, page):
    args = ["Hexmark Destroyer", "Cronos", "-t", "GEQ,MEQ", "-t", "TEQ", "--metric",
            "destroyed", "--half-range"]
    opened(cli, page, "table", *args)
    want = cli_json(cli, "table", *args, "--format", "json")
    rows = page.locator("#grid tbody tr")
    expect()(rows).to_have_count(2)
    for i, row in enumerate(want["rows"]):
        for j, v in enumerate(row["values"]):
            expect()(rows.nth(i).locator("td").nth(j)).to_have_attribute(
                "title", v["exact"].removesuffix("/1"))
    assert page.locator("#answer").is_hidden()  # no attack asked


def test_a_plan_link_shows_the_plan(cli, page):
    args = ["Hexmark Destroyer", "Cronos", "-t", "GEQ", "-t", "MEQ", "--objective", "models",
            "--half-range", "--rule", "Conquering Tyrant"]
    opened(cli, page, "plan", *args)
    want = cli_json(cli, "plan", *args, "--json")
    best = page.locator("#plan-best [data-exact]")
    expect()(best).to_have_attribute("data-exact", want["best"]["value"], timeout=20000)
    for t in want["per_target"]:  # each target shot: its value, exactly
        if t["attackers"]:
            row = page.locator(f"#plan-targets tr[data-target='{t['target']['name']}']")
            expect()(row.locator("[data-exact]").nth(0)).to_have_attribute("data-exact",
                                                                           t["value"])
    # the rule given once is each unit's, ticked in its boxes
    assert page.is_checked("#phase-army-units input[aria-label='Protocol of the Conquering "
                           "Tyrant (Cronos)']")
