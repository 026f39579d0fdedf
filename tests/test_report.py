"""Reports: the kills text and JSON, comparison grids and their five renderers."""

import csv
import io
import json
import re
from fractions import Fraction
from html.parser import HTMLParser

import pytest

import mathhammer as mh
from mathhammer.app.grids import Column, Grid, Row, build_grid, metric_value, rows_for
from mathhammer.app.scenario import Query
from mathhammer.data.typed.inline import parse_target, parse_weapon
from mathhammer.prob.numbers import fraction, percent, pmf_json
from mathhammer.report.jsonout import kills_json
from mathhammer.report.tables import format_value, render
from mathhammer.report.text import distribution_table, kills_text

# Enmitic disintegrator pistols: 6 attacks, BS2+, S6, AP-2, D1.
PISTOLS = mh.Weapon("Enmitic disintegrator pistols", attacks=6, skill=2, strength=6, ap=-2,
                    damage=1, abilities=["pistol", "ignores cover"], range=18)
MEQ = mh.Target(models=5, toughness=4, save=3, wounds=2, keywords=["INFANTRY"], name="MEQ")
GEQ = mh.Target(models=10, toughness=3, save=5, wounds=1, keywords=["INFANTRY"], name="GEQ")
ONE = mh.Target(models=1, toughness=4, save=7, wounds=1)


def hexmark_query(**options) -> Query:
    return Query("Hexmark Destroyer", ((PISTOLS, 1),), "MEQ", MEQ, mh.Options(**options))


def test_numbers():
    assert fraction(Fraction(10, 3)) == "10/3" and fraction(0) == "0/1"
    assert percent(Fraction(1, 8)) == "12.50%"
    assert percent(Fraction(1, 10**6)) == "<0.01%" and percent(Fraction(0)) == "0.00%"
    assert percent(1 - Fraction(1, 10**6)) == ">99.99%" and percent(Fraction(1)) == "100.00%"
    assert percent(Fraction(1, 10**4), 1) == "<0.1%"
    assert pmf_json(mh.PMF({0: 1, 3: 2})) == {"0": "1/3", "3": "2/3"}


def test_kills_text_hexmark_meq():
    # Per attack: hit 5/6 (2+), wound 2/3 (S6 vs T4: 3+), save fails 2/3 (Sv3+ at AP-2: 5+),
    # so unsaved ~ Binomial(6, 10/27) and kills = unsaved // 2 (W2 models):
    # P(3 kills) = (10/27)**6 = 1000000/387420489.
    q = hexmark_query(half_range=True)
    text = kills_text(q, q.run())
    lines = text.splitlines()
    assert lines[0] == "Hexmark Destroyer -> MEQ"
    assert lines[1].startswith("rule set:    10e (")
    assert lines[2] == "options:     half_range"
    assert lines[3] == "named rules: none"
    assert "1x Enmitic disintegrator pistols | 18\" | 6 | 2+ | 6 | -2 | 1" in lines[4]
    assert "[pistol, ignores cover]" in lines[5]  # abilities wrapped below, within 80 columns
    assert lines[6] == "target:      5x T4 Sv3+ W2 INFANTRY"
    assert re.search(r"^  hits +5\.000  5$", text, re.M)
    assert re.search(r"^  wounds +3\.333  10/3$", text, re.M)
    assert re.search(r"^  unsaved wounds +2\.222  20/9$", text, re.M)
    assert re.search(r"^P\(destroyed\) +0\.00%  0$", text, re.M)
    row3 = next(line for line in lines if line.startswith("    3 "))
    assert "1000000/387420489" in row3 and "0.26%" in row3
    assert all(len(line) <= 80 for line in lines)


def test_kills_text_shows_every_option_and_rule():
    q = Query("A", ((PISTOLS, 1),), "T", MEQ,
              mh.Options(half_range=True, hit_mod=-1, reroll_wounds="ones", rules="11e"),
              ("Enslaved Artifice",))
    lines = kills_text(q, q.run()).splitlines()
    assert lines[1].startswith("rule set:    11e")
    assert "options:     half_range, hit_mod=-1, reroll_wounds=ones" in lines
    assert "named rules: Enslaved Artifice" in lines


def test_distribution_table_layouts():
    pmf = mh.PMF({0: 1, 1: 2, 2: 1})
    lines = distribution_table(pmf, "kills", 80)
    assert lines[0].split() == ["kills", "exact", "P(=k)", "P(>=k)"]
    assert lines[1].split()[:4] == ["0", "1/4", "25.00%", "100.00%"]
    assert lines[2].split()[:4] == ["1", "1/2", "50.00%", "75.00%"]
    assert lines[3].split()[:4] == ["2", "1/4", "25.00%", "25.00%"]
    bars = [line.split()[-1] for line in lines[1:]]
    assert len(bars[1]) == 2 * len(bars[0]) == 2 * len(bars[2])  # bars scale with P
    # fractions too long for 40 columns move to the end of each row (1/3**20 has 12 characters)
    big = mh.PMF({0: 3**20 - 1, 1: 1})
    lines = distribution_table(big, "kills", 40)
    assert lines[0].split()[-1] == "exact"
    assert lines[2].endswith(f"1/{3**20}") and lines[2].split()[1] == "<0.01%"
    # fractions over 30 characters show their digits (3**80 has 39) and a note says so
    huge = mh.PMF({0: 3**80 - 1, 1: 1})
    lines = distribution_table(huge, "kills", 80)
    assert lines[2].split()[:3] == ["1", "[1/39", "digits]"]
    assert lines[1].split()[:3] == ["0", "[39/39", "digits]"]
    assert lines[-1].startswith("(exact fractions longer than 30 characters")


def test_kills_json_matches_the_library():
    q = hexmark_query(half_range=True)
    r = q.run()
    data = json.loads(json.dumps(kills_json(q, r)))
    for name in ("attacks", "hits", "wounds", "unsaved", "mortal", "damage", "kills"):
        pmf = getattr(r, name)
        assert {int(k): Fraction(v) for k, v in data["pmf"][name].items()} == dict(pmf)
        assert Fraction(data["mean"][name]) == pmf.mean()
        assert data["mean_float"][name] == float(pmf.mean())
    assert data["pmf"]["kills"]["3"] == "1000000/387420489"
    assert data["mean"]["unsaved"] == "20/9"
    assert Fraction(data["destroyed"]) == r.destroyed == 0
    assert sum(Fraction(s["p"]) for s in data["state"]) == 1
    assert data["options"]["half_range"] is True and data["rules"] == "10e"
    assert data["weapons"][0]["models"] == 1 and data["weapons"][0]["ap"] == -2


def test_metric_values():
    # One attack at 2+ with torrent (auto-hit), S8 vs T4 (2+), no save: P(kill) = 5/6.
    gun = mh.Weapon("Gun", attacks=1, skill=2, strength=8, ap=-6, damage=1, abilities=["torrent"])
    r = mh.attack(gun, ONE)
    assert metric_value(r, "kills") == metric_value(r, "damage") == Fraction(5, 6)
    assert metric_value(r, "destroyed") == Fraction(5, 6)
    assert metric_value(r, "kills-per-100pts", points=40) == Fraction(5, 6) * 100 / 40
    assert metric_value(r, "kills-per-100pts") is None
    with pytest.raises(ValueError, match="metric: expected one of kills, damage"):
        metric_value(r, "wins")


@pytest.fixture(scope="module")
def grid() -> Grid:
    rows = [Row("Hexmark Destroyer", ((PISTOLS, 1),), points=70),
            Row("2 | 3+ | 4 | 0 | 1", (parse_weapon("2 | 3+ | 4 | 0 | 1"),))]
    return build_grid(rows, [Column("GEQ", GEQ), Column("one", ONE)], "kills-per-100pts")


def test_build_grid_values(grid):
    # Pistols vs GEQ: each of 6 attacks kills with 5/6 (2+) * 5/6 (S6 vs T3: 2+) * 1 (no save
    # at AP-2 against Sv5+) = 25/36: 25/6 kills, per 70 points * 100 = 125/21.
    assert grid.values[0][0] == Fraction(125, 21)
    # vs one T4 model, no save: 1 - (1 - 5/6 * 2/3)**6 = 1 - (4/9)**6, per 70 points
    assert grid.values[0][1] == (1 - Fraction(4, 9) ** 6) * 100 / 70
    assert grid.values[1] == (None, None)  # inline weapons have no points


def test_build_grid_progress_counts_cells():
    calls = []
    build_grid([Row("a", ((PISTOLS, 1),))] * 2, [Column("one", ONE)] * 3, "damage",
               progress=calls.append)
    assert calls == [1] * 6


def test_render_text(grid):
    lines = render(grid, "text").splitlines()
    assert lines[0].startswith("kills-per-100pts: expected models destroyed per 100 points")
    assert lines[2].split() == ["attacker", "GEQ", "one"]
    assert lines[4].split() == ["Hexmark", "Destroyer", "5.95", f"{float(grid.values[0][1]):.2f}"]
    assert lines[5].startswith("2 | 3+ | 4 | 0 | 1") and lines[5].split()[-2:] == ["-", "-"]
    assert "GEQ: 10x T3 Sv5+ W1 INFANTRY" in lines


def test_render_markdown_escapes_bars(grid):
    md = render(grid, "md").splitlines()
    assert md[0] == "| attacker | GEQ | one |"
    assert md[1] == "| --- | ---: | ---: |"
    assert md[2] == f"| Hexmark Destroyer | 5.95 | {float(grid.values[0][1]):.2f} |"
    assert md[3] == r"| 2 \| 3+ \| 4 \| 0 \| 1 | - | - |"


def test_render_csv(grid):
    rows = list(csv.reader(io.StringIO(render(grid, "csv"))))
    assert rows[0] == ["attacker", "GEQ", "one"]
    assert rows[1][0] == "Hexmark Destroyer" and float(rows[1][1]) == pytest.approx(125 / 21)
    assert rows[2] == ["2 | 3+ | 4 | 0 | 1", "", ""]


def test_render_json_is_exact(grid):
    data = json.loads(render(grid, "json"))
    assert data["metric"] == "kills-per-100pts"
    assert [c["label"] for c in data["columns"]] == ["GEQ", "one"]
    cell = data["rows"][0]["values"][0]
    assert Fraction(cell["exact"]) == Fraction(125, 21) and cell["float"] == 125 / 21
    assert data["rows"][0]["points"] == 70 and data["rows"][1]["values"] == [None, None]


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.external = [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td":
            self.cells.append(a)
        if tag in ("script", "link", "img") or any(
                str(v).startswith(("http:", "https:", "//")) for v in a.values()):
            self.external.append(tag)


def test_render_html_is_self_contained_and_shaded():
    g = build_grid([Row("weak", (parse_weapon("1 | 4+ | 3 | 0 | 1"),)),
                    Row("mid", (parse_weapon("2 | 4+ | 3 | 0 | 1"),)),
                    Row("strong", (parse_weapon("4 | 4+ | 3 | 0 | 1"),))],
                   [Column("one", ONE), Column("same", parse_target("T4 Sv2+ W1 2++"))],
                   "damage")
    page = render(g, "html")
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    p = _Cells()
    p.feed(page)
    assert p.external == []
    # One attack: hit 1/2, wound 1/3 (S3 vs T4: 5+), no save: 1/6 per attack, one W1 model.
    assert [c["title"] for c in p.cells[::2]] == ["1/6", "11/36", str(1 - Fraction(5, 6) ** 4)]
    styles = [c.get("style", "") for c in p.cells[::2]]
    lightness = [int(re.search(r"(\d+)%\)", s).group(1)) for s in styles]
    assert lightness[0] == 97 and lightness[2] == 50 and 50 < lightness[1] < 97
    # Against a 2++ target: each attack does 1/2 * 1/3 * 1/6 = 1/36; shading per column.
    assert p.cells[1]["title"] == "1/36" and p.cells[5]["title"] == str(1 - Fraction(35, 36) ** 4)


def test_format_value():
    assert format_value(Fraction(2, 3), "kills") == "0.67"
    assert format_value(Fraction(2, 3), "destroyed") == "66.7%"
    assert format_value(None, "kills") == "-"


def test_render_rejects_unknown_format(grid):
    with pytest.raises(ValueError, match="format: expected one of text, md, csv, html, json"):
        render(grid, "pdf")


def test_rows_for_by_weapon():
    w2 = mh.Weapon("B", attacks=1, skill=3, strength=4, ap=0, damage=1)
    rows = rows_for("Unit", [(PISTOLS, 2), (w2, 3)], by_weapon=True, points=90, suffix=" [x]")
    assert [r.label for r in rows] == ["Unit: 2x Enmitic disintegrator pistols [x]",
                                       "Unit: 3x B [x]"]
    assert [r.profiles for r in rows] == [((PISTOLS, 2),), ((w2, 3),)]
    assert all(r.points == 90 for r in rows)
    assert rows_for("Unit", [(PISTOLS, 2), (w2, 3)], by_weapon=False)[0].profiles == (
        (PISTOLS, 2), (w2, 3))
