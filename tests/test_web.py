"""The web page's JSON API over HTTP (Starlette's test client): the same answers and the same
one-line errors as the command line, a time limit that stops a long query without blocking
others, no files read on a page's behalf."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
pytest.importorskip("pebble")
if not any(importlib.util.find_spec(m) for m in ("httpx2", "httpx")):
    pytest.skip("Starlette's test client needs httpx2", allow_module_level=True)

from starlette.testclient import TestClient  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer.cli import cli  # noqa: E402
from mathhammer.errors import InputError  # noqa: E402
from mathhammer.model.options import Options  # noqa: E402
from mathhammer.web.app import create_app  # noqa: E402
from mathhammer.web.command import page_words  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fake_army  # noqa: E402

HEAVY = {"attacker": "60x 3 | 3+ | 5 | -1 | D3", "target": "20x T4 Sv4+ W6 + 10x T5 Sv3+ W4",
         "turns": "20"}  # minutes of work: thousands of squad states over 20 turns


def cli_out(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(cli, list(args))
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(allowed_hosts=["testserver"], workers=2)) as c:
        yield c


@pytest.fixture(scope="module")
def data_client():
    """A client whose worker processes have the shared BattleScribe data installed."""
    bsdata = Path(__file__).resolve().parents[2] / "shared" / "bsdata"
    mp = pytest.MonkeyPatch()
    if bsdata.is_dir():
        mp.setenv("MATHHAMMER_DATA", str(bsdata))
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        yield c
    mp.undo()


# --- the same answers as the command line ------------------------------------------------------


@pytest.mark.parametrize(("params", "args"), [
    ({"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": "true"},
     ["Hexmark Destroyer", "MEQ", "--half-range"]),
    ({"attacker": "Cronos", "target": "GEQ", "ranged": "false", "models": "2",
      "rule": "Dark Harvest", "reroll_hits": "ones", "crit_hit": "5"},
     ["Cronos", "GEQ", "--melee", "--models", "2", "--rule", "Dark Harvest",
      "--reroll-hits", "ones", "--crit-hit", "5+"]),
    ({"attacker": "Hexmark Destroyer", "target": "Necron Warriors", "target_models": "5",
      "turns": "2"},
     ["Hexmark Destroyer", "Necron Warriors", "--target-models", "5", "--turns", "2"]),
    ({"attacker": "10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1", "target": "MEQ",
      "leader": "Skitarii Marshal", "rules": "11e", "precision": "false"},
     ["10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1", "MEQ", "--leader", "Skitarii Marshal",
      "--rules", "11e", "--no-precision"]),
])
def test_kills_is_the_cli_json(client, params, args):
    res = client.get("/api/kills", params=params)
    code, out, _ = cli_out("kills", *args, "--json")
    assert res.status_code == 200 and code == 0
    assert res.json() == json.loads(out)
    assert res.headers["server-timing"].startswith("compute;dur=")


def test_odds_hexmark_at_half_range(client):
    params = {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": "true",
              "at_least": "2"}
    data = client.get("/api/odds", params=params).json()
    _, exact, _ = cli_out("odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "2",
                          "--exact")
    assert data["p"] == exact.strip()
    # the same P from the kill distribution: at most 3 kills (6 shots, D1 against W2), so
    # P(>= 2) = P(2) + P(3)
    pmf = {int(k): Fraction(v) for k, v in data["pmf"]["kills"].items()}
    assert max(pmf) == 3 and Fraction(data["p"]) == pmf[2] + pmf[3]


def test_post_json_body_is_the_same_as_the_query_string(client):
    params = {"attacker": "Hexmark Destroyer", "target": "MEQ", "rule": ["Conquering Tyrant"],
              "hit_mod": 1}
    got = client.post("/api/kills", json=params).json()
    assert got == client.get("/api/kills", params={**params, "hit_mod": "1"}).json()
    assert got["named_rules"] == ["Protocol of the Conquering Tyrant"]
    assert got["options"]["hit_mod"] == 1


def test_table_is_the_cli_json(client):
    params = {"attacker": ["Hexmark Destroyer", "Cronos"], "targets": ["GEQ", "MEQ", "TEQ"],
              "metric": "destroyed", "by": "weapon"}
    res = client.get("/api/table", params=params)
    code, out, _ = cli_out("table", "Hexmark Destroyer", "Cronos", "--targets", "GEQ,MEQ,TEQ",
                           "--metric", "destroyed", "--by", "weapon", "--format", "json")
    assert res.status_code == 200 and code == 0
    assert res.json() == json.loads(out)


# --- errors: the command line's one line, HTTP 400 ---------------------------------------------


@pytest.mark.parametrize(("params", "args"), [
    ({"attacker": "Hexmark Destroyer", "target": "5x T4 Sv3+ Q2"},
     ["Hexmark Destroyer", "5x T4 Sv3+ Q2"]),
    ({"attacker": "Hexmark Destroyer", "target": "MEQ", "hit_mod": "9"},
     ["Hexmark Destroyer", "MEQ", "--hit-mod", "9"]),
    ({"attacker": "Hexmark Destroyer", "target": "MEQ", "rule": "Enslaved Artiface"},
     ["Hexmark Destroyer", "MEQ", "--rule", "Enslaved Artiface"]),
    ({"attacker": "Hexmark Destroyr", "target": "MEQ"}, ["Hexmark Destroyr", "MEQ"]),
    ({"attacker": "2 | 2+ | 4 | 0 | 1 | lethal hitz", "target": "MEQ"},
     ["2 | 2+ | 4 | 0 | 1 | lethal hitz", "MEQ"]),
])
def test_bad_input_is_the_cli_line(client, params, args):
    res = client.get("/api/kills", params=params)
    code, _, err = cli_out("kills", *args, "--json")
    assert code == 2 and res.status_code == 400
    assert res.json() == {"error": err.strip(), "message": page_words(err.strip())}
    assert "\n" not in err.strip() and "Traceback" not in res.text
    # the page's words: the field, the value, what is allowed; no flags, no command
    assert "--" not in res.json()["message"] and "mathhammer" not in res.json()["message"]


@pytest.mark.parametrize(("path", "params", "words"), [
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "output": "x.txt"},
     "unknown parameter 'output' for kills"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "half_range": "maybe"},
     "half_range: expected true or false, got 'maybe'"),
    ("/api/kills", {"attacker": "Cronos", "target": "units/necrons/hexmark-destroyer.toml"},
     "the web page reads no files"),
    ("/api/kills", {"attacker": "Cronos", "target": "Necrons.cat:Immortals"},
     "the web page reads no files"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "rules": "/tmp/10e.toml"},
     "rules: expected one of 10e, 11e, got '/tmp/10e.toml'"),
    ("/api/kills", {"attacker": "Cronos"}, "target: expected a unit's name"),
    ("/api/table", {"targets": "MEQ"}, "attacker: expected at least one attacker"),
    ("/api/odds", {"attacker": "Cronos", "target": "MEQ"}, "give exactly one of --at-least K"),
])
def test_bad_request_is_one_line(client, path, params, words):
    res = client.get(path, params=params)
    assert res.status_code == 400
    line = res.json()["error"]
    assert words in line and "\n" not in line and line.startswith("mathhammer")


def test_a_value_starting_with_dashes_is_not_an_option(client, tmp_path):
    out = tmp_path / "x.txt"
    res = client.get("/api/kills", params={"attacker": f"--output={out}", "target": "MEQ"})
    assert res.status_code == 400 and not out.exists()
    res = client.get("/api/kills", params={"attacker": "Cronos", "target": "MEQ",
                                           "leader": f"--output={out}"})
    assert res.status_code == 400 and not out.exists()


def test_other_host_names_are_refused(client):
    """A page of another site that rebinds its name to 127.0.0.1 gets nothing."""
    res = client.get("/api/units", headers={"host": "evil.example"})
    assert res.status_code == 400


def test_post_body_must_be_an_object(client):
    res = client.post("/api/kills", content=b"[1, 2]", headers={"content-type":
                                                                 "application/json"})
    assert res.status_code == 400
    assert res.json()["error"] == ("mathhammer kills: error: the request body must be a JSON "
                                   "object")
    assert res.json()["message"] == "the request body must be a JSON object"


# --- what the page offers ----------------------------------------------------------------------


def test_options_are_every_options_field(client):
    data = client.get("/api/options").json()
    names = [o["name"] for o in data["options"]]
    assert names == [f.name for f in attrs.fields(Options)]  # in field order, none missing
    for o in data["options"]:
        default = attrs.fields_dict(Options)[o["name"]].default
        assert o["default"] == ("" if default is None else list(default) if o["kind"] == "list"
                                else default)
    assert data["editions"] == ["10e", "11e"]


def test_units_and_unit(client):
    names = [u["name"] for u in client.get("/api/units").json()["units"]]
    assert names == [u.name for u in mh.list_units()]
    hexmark = client.get("/api/unit", params={"name": "Hexmark"}).json()
    unit = mh.load_unit("Hexmark Destroyer")
    assert hexmark["name"] == unit.name and hexmark["size"] == list(unit.size)
    assert [w["name"] for w in hexmark["weapons"]] == [w.name for w in unit.weapons()]
    inline = client.get("/api/unit", params={"name": "3x 2 | 3+ | 4 | 0 | 1"}).json()
    assert inline["inline"] == "weapons" and inline["weapons"][0]["models"] == 3
    res = client.get("/api/unit", params={"name": "Nobody"})
    assert res.status_code == 400 and "Nobody" in res.json()["error"]


def test_rules_of_factions(client):
    got = client.get("/api/rules", params={"faction": ["Necrons", "Archetypes"]}).json()
    assert {r["name"] for r in got["rules"]} == {r.name for r in mh.list_rules("necrons")}
    assert len(client.get("/api/rules").json()["rules"]) == len(mh.list_rules())


def test_page_and_assets_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert "http" not in page.text.replace("http://www.w3.org", "")  # nothing from a CDN
    for asset in ("app.js", "app.css", "favicon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200


# --- a time limit per request ------------------------------------------------------------------


@pytest.mark.slow
def test_a_long_query_is_stopped_and_blocks_no_one():
    with TestClient(create_app(allowed_hosts=["testserver"], workers=2, timeout=2)) as c:
        answers: dict[str, object] = {}

        def heavy():
            answers["heavy"] = c.get("/api/kills", params=HEAVY)

        t = threading.Thread(target=heavy)
        t.start()
        time.sleep(0.5)  # let the long query reach its worker first (ordering, not a timing)
        quick = c.get("/api/odds", params={"attacker": "Cronos", "target": "MEQ",
                                           "destroy": "true"})
        assert "heavy" not in answers  # answered while the long query was running
        assert quick.status_code == 200
        t.join()
        res = answers["heavy"]
        assert res.status_code == 503
        assert res.json()["error"].startswith("mathhammer: error: the query took longer than 2 s")
        # the stopped worker was replaced
        again = c.get("/api/odds", params={"attacker": "Cronos", "target": "MEQ",
                                           "destroy": "true"})
        assert again.json() == quick.json()


# --- army lists: against the agreed interface of mathhammer.data.army ------------------------


def test_army_without_the_module_is_one_line(client):
    try:
        import mathhammer.data.army  # noqa: F401
    except ModuleNotFoundError:
        pass
    else:
        pytest.skip("mathhammer.data.army is installed")
    res = client.post("/api/army", json={"army": "Hexmark Destroyer"})
    assert res.status_code == 501
    assert res.json()["error"] == ("mathhammer: error: army lists and BattleScribe search need "
                                   "mathhammer.data.army, which this install of mathhammer does "
                                   "not have")
    assert client.get("/api/search", params={"q": "immortal"}).status_code == 501
    res = client.post("/api/kills", json={"attacker": "army:Cronos", "target": "MEQ",
                                          "army": "Cronos"})
    assert res.status_code == 501 and "need mathhammer.data.army" in res.json()["error"]


def test_army_table_with_the_agreed_interface(monkeypatch, tmp_path):
    from test_catalogue import make_data

    monkeypatch.setitem(sys.modules, "mathhammer.data.army", fake_army.module())
    # the search reads the compiled store of the data (a small made-up folder)
    monkeypatch.setenv("MATHHAMMER_DATA", str(make_data(tmp_path / "bsdata")))
    # a new app: its worker processes start (fork) after the stand-in is in place
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        res = c.post("/api/army", json={"army": "Hexmark Destroyer\nCronos",
                                        "targets": ["MEQ", "TEQ"], "half_range": True})
        assert res.status_code == 200, res.text
        data = res.json()
        assert data["army"] == {"units": ["Hexmark Destroyer", "Cronos"]}
        table = c.get("/api/table", params={"attacker": ["Hexmark Destroyer", "Cronos"],
                                             "targets": ["MEQ", "TEQ"],
                                             "half_range": "true"}).json()
        # the same cells as `table` of the same units (the points of a unit are its own)
        assert [r["values"] for r in data["rows"]] == [r["values"] for r in table["rows"]]
        assert data["columns"] == table["columns"]
        bad = c.post("/api/army", json={"army": "Nobody"})
        assert bad.status_code == 400 and "Nobody" in bad.json()["error"]
        found = c.get("/api/search", params={"q": "captain"}).json()
        assert found == {"units": ["Space Marines:Captain",
                                   "Space Marines:Captain in Terminator Armour",
                                   "Blood Angels:Blood Angels Captain",
                                   "Space Marines:Blade Champion"]}  # by its ability text


ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "rosters"


@pytest.mark.slow
def test_army_roster_with_the_real_module(data_client):
    client = data_client
    army = pytest.importorskip("mathhammer.data.army")
    files = sorted(ROSTERS.glob("*.10e.gwapp.txt")) if ROSTERS.is_dir() else []
    if not files:
        pytest.skip("no shared rosters")
    text = files[0].read_text(encoding="utf-8", errors="replace")
    rows = army.parse_army(text, data=ROSTERS.parent / "bsdata").rows()
    res = client.post("/api/army", json={"army": text, "targets": ["MEQ"]})
    assert res.status_code == 200, res.text
    assert [r["label"] for r in res.json()["rows"]] == [label for label, _ in rows]


@pytest.mark.slow
def test_a_unit_of_a_real_army_list_attacks_in_the_main_view(data_client):
    # a unit of a pasted list, as the page's attacker, gives the library's exact answer
    army = pytest.importorskip("mathhammer.data.army")
    path = ROSTERS / "world-eaters.10e.gwapp.txt"
    if not path.is_file():
        pytest.skip("no shared rosters")
    text = path.read_text(encoding="utf-8")
    label, unit = army.parse_army(text, data=ROSTERS.parent / "bsdata").rows()[0]
    res = data_client.post("/api/kills", json={"attacker": f"army:{label}", "target": "MEQ",
                                               "ranged": False, "army": text})
    assert res.status_code == 200, res.text
    want = mh.attack(list(unit.as_profiles(melee=True)), mh.load_unit("MEQ").as_target())
    assert Fraction(res.json()["mean"]["kills"]) == want.kills.mean()


# --- the command -------------------------------------------------------------------------------


def test_serve_without_the_extra_says_one_line(monkeypatch):
    monkeypatch.delitem(sys.modules, "mathhammer.web.app", raising=False)
    for name in [m for m in sys.modules if m == "starlette" or m.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, name, None)
    code, out, err = cli_out("serve")
    assert code == 2 and out == ""
    assert err == ('mathhammer: error: serve needs the web extra (starlette is missing): '
                   'pip install ".[web]"\n')


def test_serve_on_a_busy_port_says_one_line():
    import socket

    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
        code, _, err = cli_out("serve", "--port", str(port))
    assert code == 2 and err.startswith(f"mathhammer: error: --host 127.0.0.1 --port {port}: "
                                        "cannot listen:")
    assert err.count("\n") == 1


@pytest.mark.slow
def test_a_query_whose_client_left_is_stopped():
    """One worker, no time limit to speak of: a long query whose client hangs up must free the
    worker, or the next query would wait for it (the client gives up after a minute, ten times
    less than the limit)."""
    import socket
    import urllib.parse
    import urllib.request

    from mathhammer.web.background import serving

    with serving("--workers", "1", "--timeout", "600") as base:
        port = int(base.rsplit(":", 1)[1])
        query = urllib.parse.urlencode(HEAVY)
        with socket.create_connection(("127.0.0.1", port)) as c:
            c.sendall(f"GET /api/kills?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            time.sleep(1)  # the long query is on the only worker now
        quick = urllib.parse.urlencode({"attacker": "Cronos", "target": "MEQ", "destroy": "true"})
        with urllib.request.urlopen(f"{base}/api/odds?{quick}", timeout=60) as res:
            assert json.loads(res.read())["query"] == "P(destroyed)"


@pytest.mark.parametrize(("params", "plain"), [
    ({"attacker": "army:Hexmark Destroyer", "target": "MEQ", "half_range": "true"},
     {"attacker": "Hexmark Destroyer"}),
    ({"attacker": "Cronos", "target": "army:Necron Warriors", "target_models": "12",
      "turns": "2"}, {"target": "Necron Warriors"}),
    ({"attacker": "army:Cronos", "target": "army:Hexmark Destroyer", "ranged": "false",
      "models": "2"}, {"attacker": "Cronos", "target": "Hexmark Destroyer"}),
    ({"attacker": "army:Cronos", "target": "MEQ", "weapon": ["Spirit vortex"]},
     {"attacker": "Cronos"}),
])
def test_kills_of_army_units_are_those_of_the_same_units(monkeypatch, params, plain):
    monkeypatch.setitem(sys.modules, "mathhammer.data.army", fake_army.module())
    text = "Hexmark Destroyer\nCronos\nNecron Warriors"
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        got = c.post("/api/kills", json={**params, "army": text})
        want = c.get("/api/kills", params={**params, **plain})
        assert got.status_code == 200 == want.status_code, got.text
        assert got.json() == want.json()
        bad = c.post("/api/kills", json={**params, "army": "Cronos", "attacker": "army:Nobody"})
        assert bad.status_code == 400
        assert bad.json()["error"] == ("mathhammer: error: attacker 'army:Nobody': the army list "
                                       "has no unit 'Nobody'; it has: Cronos")


def test_open_starts_a_browser_on_the_page(monkeypatch):
    import mathhammer.web.app as web_app

    opened: list[str] = []
    monkeypatch.setattr(web_app.webbrowser, "open", opened.append)
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1,
                               open_url="http://127.0.0.1:8000/")) as c:
        for _ in range(100):  # the browser is opened once the server is up
            if opened:
                break
            c.get("/api/health")
            time.sleep(0.05)
    assert opened == ["http://127.0.0.1:8000/"]


# --- army lists: read once per content, uploads read in memory ---------------------------------

SHARED = Path(os.environ.get("MATHHAMMER_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def test_a_list_is_read_once_per_content(monkeypatch):
    from mathhammer.web.army import read_army

    monkeypatch.setitem(sys.modules, "mathhammer.data.army", fake_army.module())
    text = "Hexmark Destroyer\nCronos"
    first = read_army(text)
    assert read_army("".join(["Hexmark Destroyer\n", "Cronos"])) is first  # equal text: cached
    assert read_army(text + "\nCronos") is not first  # another list: read
    with pytest.raises(InputError, match="army: expected the text of an army list"):
        read_army("  ")
    with pytest.raises(InputError, match="not valid base64"):
        read_army({"base64": "%%%"})


@pytest.mark.slow
def test_an_uploaded_rosz_is_the_same_army_as_the_file(monkeypatch):
    import base64

    from mathhammer.web.army import read_army

    army = pytest.importorskip("mathhammer.data.army")
    path = SHARED / "rosters" / "necron-combat-patrol.10e.rosz"
    if not path.is_file():
        pytest.skip(f"no shared roster at {path}")
    monkeypatch.setenv("MATHHAMMER_DATA", str(SHARED / "bsdata"))
    got = read_army({"base64": base64.b64encode(path.read_bytes()).decode()})
    want = army.load_army(path)
    assert got.to_json() == want.to_json() and len(got.units) > 0
