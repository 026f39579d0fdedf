"""``mathhammer mcp`` with the SDK's own client, in process: the tools and their schemas (made
from the same option metadata as the command line and the page), one call per tool with the
same exact numbers as the command line, bad arguments and bounds answered as tool errors."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("mcp")
pytest.importorskip("pebble")

import anyio  # noqa: E402
from mcp import Client  # noqa: E402

from mathhammer.mcp.server import make_server  # noqa: E402
from mathhammer.mcp.tools import TOOLS  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))

HEXMARK = {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True}


def ask(*calls: tuple[str, dict], **server: object) -> list:
    """Each call's result, over one connection of the SDK's client to a fresh server."""
    server = {"workers": 1, "compile_data": False, **server}

    async def main() -> list:
        async with Client(make_server(**server)) as client:
            out = [await client.list_tools()]
            for name, args in calls:
                out.append(await client.call_tool(name, args))
            return out

    return anyio.run(main)


def cli_json(cli, *args: str) -> tuple[dict, str]:
    r = cli.ok(*args)
    return json.loads(r.stdout), r.stderr


def warnings_of(stderr: str) -> list[str]:
    return list(dict.fromkeys(x.strip() for x in stderr.splitlines() if "warning:" in x))


def exact(data):
    """The answer without the floats (those the tools add, and the command line's own)."""
    if isinstance(data, dict):
        return {k: exact(v) for k, v in data.items() if not k.endswith("_float")}
    return [exact(v) for v in data] if isinstance(data, list) else data


def ok(result) -> dict:
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    assert json.loads(result.content[0].text) == data  # the text is the same JSON
    return data


def test_the_tools_and_their_schemas_are_the_options_of_the_command_line_and_the_page():
    import jsonschema

    from mathhammer.jobs.choices import options_schema

    listed = ask()[0].tools
    assert [t.name for t in listed] == ["kills", "odds", "table", "salvo", "plan", "army",
                                        "search_units", "unit_rules"]
    assert [t.name for t in listed] == [t.name for t in TOOLS]
    for t in listed:
        jsonschema.Draft202012Validator.check_schema(t.input_schema)
        assert t.description and t.annotations.read_only_hint
    kills = next(t for t in listed if t.name == "kills").input_schema["properties"]
    # every control of the page's options form is an argument of kills, with the same range,
    # choices and default (both read from the options' metadata, app.setup.setup_fields)
    for o in options_schema():
        p = kills[o["key"]]
        if o["kind"] in ("int", "threshold"):
            assert (p["minimum"], p["maximum"], p["default"]) == (
                o["min"], o["max"], o["default"]), o
        elif o["kind"] == "bool":
            assert (p["type"], p["default"]) == ("boolean", o["default"]), o
        elif o["kind"] == "choice" and o["key"] != "rules":  # rules: a name, checked by the page
            assert [c for c in p["enum"] if c] == [c for c in o["choices"] if c], o
        assert p["description"], o
    # and every option of a setup (the command line's options of an attack)
    from mathhammer.app.setup import setup_fields

    assert {f["name"] for f in setup_fields()} <= set(kills)


def test_kills_odds_and_a_salvo_are_the_command_lines_numbers(cli):
    (_, kills, odds, quarter, salvo) = ask(
        ("kills", HEXMARK),
        ("odds", {"kills": HEXMARK, "ask": "at least", "k": 2}),
        # one attack that hits on 4+, wounds on 4+ (S4 vs T4), no save: P(kill) = 1/2 * 1/2
        ("odds", {"kills": {"attacker": "1x 1 | 4+ | 4 | 0 | 1", "target": "1x T4 Sv7+ W1"},
                  "k": 1}),
        ("salvo", {"units": ["Hexmark Destroyer", "Cronos"], "target": "MEQ",
                   "half_range": True, "until": "50%"}))
    want, _ = cli_json(cli, "kills", "Hexmark Destroyer", "MEQ", "--half-range", "--json")
    got = ok(kills)
    for key in ("pmf", "mean", "destroyed", "state", "weapons"):
        assert exact(got[key]) == exact(want[key]), key
    assert got["pmf"]["kills"]["3"] == "1000000/387420489"  # (1/6 * 5/9... as the CLI says)
    # the float beside each exact value
    for k, p in got["pmf"]["kills"].items():
        assert got["pmf"]["kills_float"][k] == float(Fraction(p))
    assert got["mean_float"] == {k: float(Fraction(v)) for k, v in want["mean"].items()}
    want_odds, _ = cli_json(cli, "odds", "Hexmark Destroyer", "MEQ", "--half-range",
                            "--at-least", "2", "--json")
    assert ok(odds)["p"] == want_odds["p"] == "54550000/387420489"
    assert ok(odds)["p_float"] == float(Fraction("54550000/387420489"))
    assert (ok(quarter)["p"], ok(quarter)["p_float"]) == ("1/4", 0.25)
    want_salvo, _ = cli_json(cli, "kills", "Hexmark Destroyer", "Cronos", "-t", "MEQ",
                             "--half-range", "--until", "50%", "--json")
    got_salvo = ok(salvo)
    assert exact(got_salvo["pmf"]) == want_salvo["pmf"]
    assert got_salvo["mean"] == want_salvo["mean"]
    assert exact(got_salvo["until"]) == exact(want_salvo["until"])
    assert [a["attacker"] for a in got_salvo["attackers"]] == ["Hexmark Destroyer", "Cronos"]


def test_a_table_a_plan_and_a_unit_are_the_command_lines(cli):
    (_, table, plan, unit, search) = ask(
        ("table", {"attackers": ["Hexmark Destroyer", "Cronos"], "targets": ["GEQ,MEQ"],
                   "metric": "destroyed"}),
        ("plan", {"units": ["Hexmark Destroyer", "Cronos"], "targets": ["GEQ", "MEQ"],
                  "objective": "models"}),
        ("unit_rules", {"name": "Cronos"}),
        ("search_units", {"query": "destroyer"}))
    want, _ = cli_json(cli, "table", "Hexmark Destroyer", "Cronos", "-t", "GEQ,MEQ",
                       "--metric", "destroyed", "--format", "json")
    got = ok(table)
    assert [r["values"] for r in got["rows"]] == [r["values"] for r in want["rows"]]
    assert got["rows"][0]["values"][0]["exact"] == want["rows"][0]["values"][0]["exact"]
    want_plan, _ = cli_json(cli, "plan", "Hexmark Destroyer", "Cronos", "-t", "GEQ", "-t", "MEQ",
                            "--objective", "models", "--json")
    got_plan = ok(plan)
    assert got_plan["plan"] == want_plan["plan"]
    assert exact(got_plan["per_target"]) == exact(want_plan["per_target"])
    assert got_plan["best"] == want_plan["best"]
    assert exact(got_plan["ties"]) == exact(want_plan["ties"])
    assert got_plan["ties"]["value_float"] == float(Fraction(want_plan["best"]["value"]))
    card = ok(unit)
    assert (card["name"], card["statline"], card["points"]) == (
        "Cronos", "M7 T7 Sv3+ W7 Ld7+ OC2 FNP5+", [[1, 55], [2, 100]])
    assert ok(search)["bundled"] == ["Hexmark Destroyer"]


LIST = """My list (95 points)

Space Marines
Strike Force (2000 points)
Gladius Task Force

CHARACTERS

Blade Champion (95 points)
  • Warlord
  • 1x Master-crafted blade
"""


def test_an_army_list_and_the_datas_search_are_the_command_lines(cli, small_data):
    path = small_data / "list.txt"
    path.write_text(LIST, encoding="utf-8")
    (_, army, read, search, card) = ask(
        ("table", {"army": LIST, "melee": True, "targets": ["MEQ"]}),
        ("army", {"army": LIST}),
        ("search_units", {"query": "captain"}),
        ("unit_rules", {"name": "Space Marines:Blade Champion"}))
    want, stderr = cli_json(cli, "table", "--army", str(path), "--melee", "-t", "MEQ",
                            "--format", "json")
    got = ok(army)
    assert [(r["label"], r["points"], r["values"]) for r in got["rows"]] == [
        (r["label"], r["points"], r["values"]) for r in want["rows"]]
    # the blade: A2 WS3+ S4 AP-1 D1 with the detachment's doctrine (+1 to hit): each attack
    # hits on 2+ (5/6), wounds T4 on 4+ (1/2), MEQ saves 4+ against AP-1 (fails 1/2): 5/24;
    # a kill of a W2 model takes both: (5/24)**2 = 25/576
    assert got["rows"][0]["values"][0] == {"exact": "25/576", "float": 25 / 576}
    assert ok(read)["points"] == 95
    # the warnings of the command line (here: the list does not say its edition), path aside
    said = [w.replace(str(path), "<text>") for w in warnings_of(stderr)]
    assert said and got["warnings"] == said
    names = ok(search)["units"]
    assert names == ["Space Marines:Captain", "Space Marines:Captain in Terminator Armour",
                     "Blood Angels:Blood Angels Captain", "Space Marines:Blade Champion"]
    assert [w["name"] for w in ok(card)["weapons"]][-1] == "Master-crafted blade"


def test_bad_arguments_are_tool_errors_and_the_server_goes_on():
    calls = [
        ("kills", {**HEXMARK, "hit_mod": 9}),
        ("kills", {**HEXMARK, "half_range": "yes"}),
        ("kills", {"attacker": "Hexmark Destroyer"}),
        ("kills", {**HEXMARK, "half_rnage": True}),
        ("kills", {"attacker": "Hexmark Destroyer", "target": "Nobody Known"}),
        ("kills", {"attacker": "Hexmark Destroyer", "target": "../secret.toml"}),
        ("odds", {"kills": HEXMARK, "ask": "never"}),
        ("plan", {"units": ["Hexmark Destroyer"] * 21, "targets": ["MEQ"]}),
        ("army", {"army": "x" * 500_001}),
        ("no_such_tool", {}),
        ("kills", HEXMARK),
    ]
    _, *results = ask(*calls)
    lines = [r.content[0].text for r in results]
    assert [r.is_error for r in results] == [True] * 10 + [False]
    assert lines[0] == "hit_mod: 9 is greater than the maximum of 6"
    assert lines[1] == "half_range: 'yes' is not of type 'boolean'"
    assert lines[2] == "'target' is a required property"
    assert lines[3].startswith("Additional properties are not allowed ('half_rnage'")
    assert lines[4].startswith('unknown unit "Nobody Known"')
    assert "reads no files" in lines[5]
    assert lines[6] == "ask: 'never' is not one of ['at least', 'exactly', 'at most', 'destroyed']"
    assert lines[7].startswith("units: 21 attacking units; a plan on the page takes at most 20")
    assert lines[8] == ("<text>: an army list of 500,001 characters is over the limit of 500,000 "
                        "(mathhammer.limits.MAX_ARMY_TEXT_BYTES)")
    assert lines[9].startswith("unknown tool 'no_such_tool'; the tools are kills, odds")
    assert ok(results[-1])["pmf"]["kills"]["3"] == "1000000/387420489"


def test_a_call_over_the_time_limit_is_stopped_and_the_next_is_answered():
    heavy = {"attacker": "60x 3 | 3+ | 5 | -1 | D3",
             "target": "20x T4 Sv4+ W6 + 10x T5 Sv3+ W4", "turns": 20}
    _, slow, quick = ask(("kills", heavy), ("odds", {"kills": HEXMARK, "k": 2}), timeout=1.0)
    assert slow.is_error
    assert slow.content[0].text.startswith("the query took longer than 1 s and was stopped")
    assert ok(quick)["p"] == "54550000/387420489"


@pytest.mark.slow
def test_mathhammer_mcp_over_stdio():
    # the command itself, as an assistant starts it: nothing but the protocol on stdout
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "mathhammer", "mcp", "--timeout", "30"])

    async def main():
        async with Client(params) as client:
            tools = await client.list_tools()
            return tools, await client.call_tool("odds", {"kills": HEXMARK, "k": 2})

    tools, odds = anyio.run(main)
    assert len(tools.tools) == len(TOOLS)
    assert ok(odds)["p"] == "54550000/387420489"


def test_mcp_without_the_extra_is_one_line(cli, monkeypatch):
    monkeypatch.setitem(sys.modules, "mcp", None)  # as if not installed
    assert cli.fails("mcp") == ('mathhammer: error: mcp needs the mcp extra (mcp is missing): '
                                'pip install ".[mcp]"')



def test_a_worker_says_a_library_warning_in_one_line(monkeypatch):
    # a job's library warning (a guess said out loud) is the answer's "warnings", one line as
    # the command line says it (no click in a worker: mathhammer.mcp imports no cli module),
    # once however often it is said
    import warnings

    import mathhammer.jobs.run
    from mathhammer.mcp.answers import run_job

    def job(kind, *args):
        for _ in range(2):
            warnings.warn("a guess\n  said out loud", UserWarning, stacklevel=1)
        return 200, json.dumps({"kind": kind, "args": list(args)})

    monkeypatch.setattr(mathhammer.jobs.run, "job", job)
    status, body = run_job("unit", "MEQ")
    assert (status, json.loads(body)) == (200, {"kind": "unit", "args": ["MEQ"],
                                                "warnings": ["warning: a guess said out loud"]})
