"""Share links: ``--link`` prints the page's address of a query; the calls the page makes when it
opens that address (:func:`mathhammer.web.links.page_calls`) are the same query, and the API
answers them with the command line's numbers. What the page cannot hold is refused."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from mathhammer.cli import cli as mathhammer
from mathhammer.jobs.run import job
from mathhammer.web.links import page_calls, shown_odds, state_of

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Output options: not part of the query.
OUTPUT = {"as_json", "fmt", "full_fractions", "exact"}


def run(cli, *args: str) -> tuple[int, str, str]:
    r = cli(*args)
    return r.exit_code, r.stdout, r.stderr


def link(cli, *args: str) -> str:
    code, out, err = run(cli, *args, "--link")
    assert code == 0, err
    assert out.count("\n") == 1
    return out.strip()


def parsed(command: str, argv: list[str]) -> dict:
    """The command's values as click parses a command line (the output options aside)."""
    ctx = mathhammer.get_command(None, command).make_context(command, list(argv))
    return {k: v for k, v in ctx.params.items() if k not in OUTPUT}


def kills_value(argv: list[str]):
    """The kills query of ``mathhammer kills ARGV``, as the command line builds it."""
    import attrs

    from mathhammer.cli.attack import kills_value

    p = parsed("kills", argv)
    q = kills_value(p.pop("units"), p)
    # the edition: the data's when --rules is not given (the page's query leaves it out)
    return q if "--rules" in argv else attrs.evolve(q, setup=attrs.evolve(q.setup, rules=None))


def given(data: dict) -> dict:
    """A query's JSON without the switches left off (the command line's flags are False when
    not given; the page's query leaves them out): the same query."""
    return {k: v for k, v in data.items() if v is not False}


def page_value(call: tuple):
    """The query value of one of the page's calls."""
    from mathhammer.app.queries import query_from_json

    return query_from_json(call[1], call[2])


def cli_json(cli, command: str, *args: str) -> dict:
    flag = "--format=json" if command == "table" else "--json"
    code, out, err = run(cli, command, *args, flag)
    assert code == 0, err
    return json.loads(out)


def answered(call: tuple) -> dict:
    status, body = job(*call)
    assert status == 200, body
    return json.loads(body)


KILLS = ["Hexmark Destroyer", "Necron Warriors", "--target-models", "10", "--half-range",
         "--crit-hit", "5", "--rule", "Protocol of the Conquering Tyrant", "--turns", "2"]


def test_a_kills_link_is_the_same_query_and_the_same_numbers(cli):
    url = link(cli, "kills", *KILLS)
    assert url.startswith("http://127.0.0.1:8000/#attacker=Hexmark+Destroyer&target=Necron+")
    calls = page_calls(url)
    assert list(calls) == ["kills"]  # the comparison and the plan are empty: not run
    assert calls["kills"][:2] == ("query", "kills")
    assert given(page_value(calls["kills"]).to_json()) == given(kills_value(KILLS).to_json())
    got, want = answered(calls["kills"]), cli_json(cli, "kills", *KILLS)
    assert got["pmf"] == want["pmf"] and got["mean"] == want["mean"]
    # a named rule by its full name: the page ticks its box of the faction's rules
    short = link(cli, "kills", "Hexmark Destroyer", "MEQ", "--rule", "Conquering Tyrant")
    assert ("rule", "Protocol of the Conquering Tyrant") in state_of(short)


def test_an_odds_link_shows_the_same_probability(cli):
    url = link(cli, "odds", *KILLS, "--at-least", "3")
    assert shown_odds(url) == ("kills", 3)
    pmf = answered(page_calls(url)["kills"])["pmf"]["kills"]
    # the page's P(kills >= 3): the sum of the distribution from 3 up
    shown = sum((Fraction(p) for k, p in pmf.items() if int(k) >= 3), Fraction(0))
    assert str(shown) == cli_json(cli, "odds", *KILLS, "--at-least", "3")["p"]
    url = link(cli, "odds", "Cronos", "MEQ", "--at-least", "4", "--of", "damage")
    assert shown_odds(url) == ("damage", 4)


def test_a_salvo_link_is_the_same_units_in_order(cli):
    args = ["Hexmark Destroyer", "Cronos --models 2", "-t", "MEQ", "--until", "50%"]
    url = link(cli, "kills", *args)
    assert state_of(url) == [("attacker", "Hexmark Destroyer"), ("target", "MEQ"),
                             ("then", '{"unit":"Cronos","leader":"","models":"2","weapons":[],'
                                      '"rules":[]}'), ("until", "50%")]
    call = page_calls(url)["kills"]
    assert call[:2] == ("query", "salvo")
    got, want = answered(call), cli_json(cli, "kills", *args)
    assert got["pmf"] == want["pmf"]


TABLE = ["Hexmark Destroyer", "Cronos", "-t", "GEQ,MEQ", "-t", "TEQ", "--metric", "destroyed",
         "--half-range"]


def test_a_comparison_link_is_the_same_table(cli):
    url = link(cli, "table", *TABLE)
    calls = page_calls(url)
    assert list(calls) == ["compare"]
    assert calls["compare"][2] == {"half_range": True, "metric": "destroyed",
                                   "targets": ["GEQ,MEQ", "TEQ"],
                                   "attackers": ["Hexmark Destroyer", "Cronos"]}
    got, want = answered(calls["compare"]), cli_json(cli, "table", *TABLE)
    assert [r["values"] for r in got["rows"]] == [r["values"] for r in want["rows"]]
    assert [c["label"] for c in got["columns"]] == ["GEQ", "MEQ", "TEQ"]
    melee = link(cli, "table", "Cronos", "--melee", "-t", "MEQ")
    assert ("ranged", "false") in state_of(melee)
    assert page_calls(melee)["compare"][2]["melee"] is True


PLAN = ["Hexmark Destroyer", "Cronos", "-t", "GEQ", "-t", "MEQ", "--objective", "models",
        "--half-range", "--rule", "Conquering Tyrant"]


def test_a_plan_link_is_the_same_plan(cli):
    url = link(cli, "plan", *PLAN)
    calls = page_calls(url)
    assert list(calls) == ["plan"]
    tyrant = ["Protocol of the Conquering Tyrant"]  # each unit's rules, as the planner's boxes
    assert calls["plan"] == ("query", "plan", {
        "units": [{"unit": "Hexmark Destroyer", "named_rules": tyrant},
                  {"unit": "Cronos", "named_rules": tyrant}], "targets": ["GEQ", "MEQ"],
        "half_range": True, "objective": "models"})
    got, want = answered(calls["plan"]), cli_json(cli, "plan", *PLAN)
    assert got["best"] == want["best"] and got["plan"] == want["plan"]
    assert got["per_target"] == want["per_target"]
    # an adaptive plan: the page's budget of states is said
    code, out, err = run(cli, "plan", *PLAN, "--adaptive", "--link")
    assert code == 0 and json.loads(dict(state_of(out.strip()))["plan"])["adaptive"] is True
    assert "warning: --link: the page adapts within 2,000 joint target states" in err


LIST = """My list (95 points)

Space Marines
Strike Force (2000 points)
Gladius Task Force

CHARACTERS

Blade Champion (95 points)
  • Warlord
  • 1x Master-crafted blade
"""


def test_an_army_list_link_holds_the_list(cli, small_data):
    tmp_path = small_data
    mine, theirs = tmp_path / "mine.txt", tmp_path / "theirs.txt"
    mine.write_text(LIST, encoding="utf-8")
    theirs.write_text(LIST.replace("My list", "Their list"), encoding="utf-8")
    url = link(cli, "table", "--army", str(mine), "--melee", "-t", "MEQ")
    assert dict(state_of(url))["army"] == LIST
    call = page_calls(url)["compare"]
    assert call[2]["army"] == LIST
    got = answered(call)
    want = cli_json(cli, "table", "--army", str(mine), "--melee", "-t", "MEQ")
    assert [r["values"] for r in got["rows"]] == [r["values"] for r in want["rows"]]
    assert got["rows"][0]["values"][0]["exact"] == "25/576"  # tests/test_mcp.py derives it
    # a plan of the list against the enemy's: both lists in the address
    url = link(cli, "plan", "--army", str(mine), "--vs-army", str(theirs), "--melee")
    state = dict(state_of(url))
    assert (state["plan_army"], state["plan_vs"]) == (LIST, theirs.read_text(encoding="utf-8"))
    assert json.loads(state["plan"])["every"] == {"army": True, "vs": True}  # every row of each
    got = answered(page_calls(url)["plan"])
    want = cli_json(cli, "plan", "--army", str(mine), "--vs-army", str(theirs), "--melee")
    assert got["best"] == want["best"] and got["per_target"] == want["per_target"]


def test_a_binary_list_is_held_as_base64(tmp_path):
    import base64

    from mathhammer.cli.link import _army_text

    path = tmp_path / "list.rosz"
    path.write_bytes(b"PK\x03\x04\x00\xff")
    assert _army_text(str(path), "army") == ("army_file", base64.b64encode(
        b"PK\x03\x04\x00\xff").decode())


@pytest.mark.parametrize(("args", "message"), [
    (["kills", "Cronos", "MEQ", "--detachment", "Foo"],
     "--link: the page has no place for --detachment in `kills`"),
    (["odds", "Cronos", "MEQ", "--exactly", "2"],
     "--link: the page has no place for --kills/--exactly in `odds`"),
    (["odds", "Cronos", "MEQ", "--at-least", "2", "--of", "hits"],
     "--link: the page's odds count kills or damage, not hits"),
    (["kills", "units/secret.toml", "MEQ"],
     "--link: attacker 'units/secret.toml': the web page reads no files"),
    (["kills", "Cronos", "Hexmark Destroyer --half-range", "-t", "MEQ"],
     "--link: unit 'Hexmark Destroyer --half-range': the page's units take their own models, "
     "weapons and named rules, not half_range"),
    (["table", "Cronos", "--vary", "--half-range"],
     "--link: the page has no place for --vary in `table`"),
    (["table", "Cronos", "--ranged", "--melee"],
     "--link: the page's comparison is of one phase: --ranged or --melee"),
    (["plan", "Cronos", "-t", "MEQ", "--split"],
     "--link: the page has no place for --split in a plan"),
    (["plan", *["Cronos"] * 21, "-t", "MEQ"],
     "--link: 21 attacking units; a plan on the page takes at most 20"),
    (["plan", "Cronos --half-range", "-t", "MEQ"],
     "--link: unit 'Cronos --half-range': the page's plan takes the units' names"),
])
def test_what_the_page_cannot_hold_is_refused(cli, args, message):
    code, out, err = run(cli, *args, "--link")
    assert (code, out) == (2, "")
    assert err.startswith(f"mathhammer: error: {message}") and err.count("\n") == 1


def test_the_pages_base_address(cli, monkeypatch):
    assert link(cli, "kills", "Cronos", "MEQ", "--page-url", "https://mh.example/x/").startswith(
                "https://mh.example/x/#attacker=Cronos&target=MEQ")
    monkeypatch.setenv("MATHHAMMER_PAGE_URL", "http://192.168.1.5:8080/")
    assert link(cli, "kills", "Cronos", "MEQ") == "http://192.168.1.5:8080/#attacker=Cronos&target=MEQ"
