"""Notebook displays: PMF and Result as HTML (parsed and checked value by value), Result's repr,
to_dict (the --json data) and DataFrames."""

import json
import re
import sys
from fractions import Fraction as F
from html.parser import HTMLParser

import pytest

import mathhammer as mh
from mathhammer.app.scenario import Query
from mathhammer.errors import InputError
from mathhammer.prob.display import MAX_ROWS
from mathhammer.prob.numbers import percent, readable_fraction
from mathhammer.report.text import kills_text


class Tables(HTMLParser):
    """Every <table> as {"class", "caption", "rows": [[(text, attrs), ...], ...]}; the text of
    an <h4> as ``title``; the inline style of each <div> inside a cell."""

    def __init__(self, html: str):
        super().__init__()
        self.tables, self.title, self._cell, self._in = [], "", None, None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append({"class": a.get("class"), "rows": [], "caption": ""})
        elif tag == "tr":
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self._cell = ["", a]
            self.tables[-1]["rows"][-1].append(self._cell)
        elif tag == "div" and self._cell is not None:
            self._cell[1]["div"] = a.get("style", "")
        self._in = tag if tag in ("h4", "caption") else self._in

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._cell = None
        if tag == self._in:
            self._in = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[0] += data
        elif self._in == "h4":
            self.title += data
        elif self._in == "caption":
            self.tables[-1]["caption"] += data


def rows_of(table: dict) -> list[list[str]]:
    return [[text for text, _ in row] for row in table["rows"]]


def hexmark() -> mh.Result:
    return mh.attack(mh.load_unit("Hexmark Destroyer"), mh.load_unit("MEQ"), half_range=True)


def test_pmf_html_has_every_value_of_the_distribution():
    r = hexmark()
    page = Tables(r.kills._repr_html_())
    (table,) = page.tables
    assert table["class"] == "mathhammer-pmf"
    head, *body = table["rows"]
    assert [t for t, _ in head] == ["k", "exact", "P(=k)", "P(\u2265k)", ""]
    assert [int(row[0][0]) for row in body] == [0, 1, 2, 3]
    top = max(r.kills.values())
    for (k, _), (exact, attrs), (eq, _), (ge, _), (_, bar) in body:
        p = r.kills[int(k)]
        assert F(attrs["title"]) == p and exact == readable_fraction(p)  # every digit on hover
        assert eq == percent(p) and ge == percent(r.kills.at_least(int(k)))
        width = float(re.search(r"width:([\d.]+)%", bar["div"]).group(1))
        assert width == pytest.approx(float(100 * p / top), abs=0.05)
    # the README's numbers: P(kills = 3) = (10/27)**6, P(kills >= 2) = 14.08%
    assert body[3][1][1]["title"] == "1000000/387420489" and body[2][3][0] == "14.08%"


def test_pmf_html_of_states_and_of_a_long_distribution():
    states = Tables(mh.PMF({(5, 0): 1, (4, 1): 3})._repr_html_()).tables[0]
    assert rows_of(states)[0] == ["k", "exact", "P(=k)", ""]  # no P(>=k) for non-numbers
    assert [r[:3] for r in rows_of(states)[1:]] == [["(4, 1)", "3/4", "75.00%"],
                                                    ["(5, 0)", "1/4", "25.00%"]]
    long = mh.PMF.binomial(100, F(1, 2))  # 101 outcomes: the tails under 0.01% are hidden
    table = Tables(long._repr_html_()).tables[0]
    ks = [int(r[0]) for r in rows_of(table)[1:]]
    assert len(ks) <= MAX_ROWS and ks == list(range(ks[0], ks[-1] + 1)) and 50 in ks
    hidden = [k for k in long if k not in ks]
    assert all(long[k] < F(1, 10**4) for k in hidden)
    assert table["caption"].startswith(f"{len(hidden)} outcomes under 0.01% not shown")


def test_result_html_is_the_kills_report():
    r = hexmark()
    page = Tables(r._repr_html_())
    assert page.title == "Hexmark Destroyer \u2192 MEQ"
    header, expected, kills = page.tables
    assert dict(rows_of(header))["options:"] == "half_range"
    assert dict(rows_of(header))["target:"] == "5x T4 Sv3+ W2 INFANTRY"
    assert rows_of(header)[3][1].startswith("1x Enmitic disintegrator pistols | 18\" | 6 | 2+")
    values = {row[0]: row[1:] for row in rows_of(expected)[1:]}
    means = r.summary()
    assert values["hits"] == ["5.000", "5"] and values["wounds"] == ["3.333", "10/3"]
    assert values["kills"] == ["0.861", readable_fraction(means["kills"])]
    assert values["P(destroyed)"] == ["0.00%", "0"]
    # the same words and numbers as the text report, line for line
    q = Query("Hexmark Destroyer", r.profiles, "MEQ", r.target, r.options)
    text = [" ".join(line.split()) for line in kills_text(q, r).splitlines()]
    for label, (value, exact) in values.items():
        assert f"{label} {value} {exact}" in text
    assert kills["class"] == "mathhammer-pmf" and len(kills["rows"]) == 5


def test_result_html_of_a_squad_with_hazard_and_demise():
    gun = mh.Weapon("Plasma", attacks=2, skill=3, strength=8, ap=-3, damage=2,
                    abilities=["hazardous"])
    guard = mh.Target(models=3, toughness=9, save=3, wounds=10, name="Tanks",
                      abilities=["deadly demise 1"])
    boss = mh.Target(models=1, toughness=4, save=3, wounds=5, keywords=["CHARACTER"],
                     name="Boss")
    r = mh.attack((gun, 5), mh.Squad((guard, boss)))
    tables = Tables(r._repr_html_()).tables
    titles = [t["rows"][0][0][0] for t in tables[1:-1]]
    assert titles == ["expected", "deadly demise (mortal wounds to each unit within 6\"):",
                      "hazardous (5 tests, to the attacking unit):"]
    values = {row[0]: row[2] for row in rows_of(tables[1])[1:]}
    assert F(values["group 1"]) == r.group_kills[0].mean()
    assert F(values["P(CHARACTER dead)"]) == r.character_destroyed
    hazard = {row[0]: row[2] for row in rows_of(tables[3])[1:]}
    assert F(hazard["P(any failed)"]) == 1 - F(5, 6) ** 5  # a 1 fails, 5 tests


def test_repr_names_attacker_target_and_means():
    r = hexmark()
    text = repr(r)
    assert text.startswith("<Result Hexmark Destroyer -> MEQ: attacks 6, hits 5, ")
    assert "kills 0.8612" in text and text.endswith("P(destroyed) 0%>")
    bolt = mh.Weapon("Bolt rifle", attacks=2, skill=3, strength=4, ap=-1, damage=1)
    melta = mh.Weapon("Multi-melta", attacks=2, skill=4, strength=9, ap=-4, damage="D6")
    r = mh.attack([(bolt, 4), (melta, 1)], mh.Target(5, 4, 3, 2))
    assert repr(r).startswith("<Result 4x Bolt rifle + 1x Multi-melta -> 5x T4 Sv3+ W2: ")


def test_to_dict_is_the_json_of_kills(cli):
    out = cli("kills", "Hexmark Destroyer", "MEQ", "--half-range",
                                   "--json")
    assert out.exit_code == 0, out.output
    # through JSON text, as the command line prints it (tuples become lists)
    assert json.loads(json.dumps(hexmark().to_dict())) == json.loads(out.stdout)


def test_dataframes_keep_exact_values():
    pd = pytest.importorskip("pandas", reason="pandas is the notebook extra")
    r = hexmark()
    df = r.kills.to_dataframe()
    assert list(df.index) == [0, 1, 2, 3] and df["p_exact"].dtype == object
    assert list(df["p_exact"]) == list(r.kills.values())
    # P(kills >= 2) = 5950000/43046721 + 1000000/387420489 (the README's 14.08%)
    assert df.loc[2, "at_least_exact"] == F(5950000 * 9 + 1000000, 387420489)
    assert df["p"].tolist() == [float(p) for p in r.kills.values()]
    whole = r.to_dataframe()
    assert whole.loc[("kills", 3), "p_exact"] == F(1000000, 387420489)
    assert whole.loc["hits"]["p_exact"].sum() == 1 and isinstance(whole, pd.DataFrame)


def test_dataframe_without_pandas_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    with pytest.raises(InputError, match=r"^DataFrames need pandas: pip install "
                                         r"'mathhammer\[notebook\]'"):
        mh.PMF({0: 1}).to_dataframe()
