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

pytest.importorskip("starlette")
pytest.importorskip("pebble")
if not any(importlib.util.find_spec(m) for m in ("httpx2", "httpx")):
    pytest.skip("Starlette's test client needs httpx2", allow_module_level=True)

from starlette.testclient import TestClient  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer.errors import InputError  # noqa: E402
from mathhammer.jobs.queries import SEARCH_BUDGET, page_words  # noqa: E402
from mathhammer.model.options import Options  # noqa: E402
from mathhammer.web.app import create_app  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fake_army  # noqa: E402

from mathhammer.engine.attack import value_against

#: weapon choice against MEQ (what mathhammer.loadout chooses without a target)
VS_MEQ = value_against(None)


HEAVY = {"attacker": "60x 3 | 3+ | 5 | -1 | D3", "target": "20x T4 Sv4+ W6 + 10x T5 Sv3+ W4",
         "turns": 20}  # minutes of work: thousands of squad states over 20 turns
QUICK = {"kills": {"attacker": "Cronos", "target": "MEQ"}, "ask": "destroyed"}


def cli_out(cli, *args: str) -> tuple[int, str, str]:
    r = cli(*args)
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
        from mathhammer.data.store.compiled import open_store

        for edition in ("10e", "11e"):  # compiled here, not in a worker's 10 s lane
            if (bsdata / edition).is_dir():
                open_store(edition, bsdata, progress=lambda *_: None)
    # a long time limit: these tests check answers, not the limit (tests/test_hostile_web.py),
    # and a loaded machine must not turn a plan of two real lists into a 503
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1, timeout=600)) as c:
        yield c
    mp.undo()


# --- the same answers as the command line ------------------------------------------------------


@pytest.mark.parametrize(("params", "args"), [
    ({"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True},
     ["Hexmark Destroyer", "MEQ", "--half-range"]),
    ({"attacker": "Cronos", "target": "GEQ", "ranged": False, "models": 2,
      "named_rules": ["Dark Harvest"], "reroll_hits": "ones", "crit_hit": 5},
     ["Cronos", "GEQ", "--melee", "--models", "2", "--rule", "Dark Harvest",
      "--reroll-hits", "ones", "--crit-hit", "5+"]),
    ({"attacker": "Hexmark Destroyer", "target": "Necron Warriors", "target_models": 5,
      "turns": 2},
     ["Hexmark Destroyer", "Necron Warriors", "--target-models", "5", "--turns", "2"]),
    ({"attacker": "10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1", "target": "MEQ",
      "leader": "Skitarii Marshal", "rules": "11e", "precision": False},
     ["10x 2 | 3+ | 4 | -1 | 1 | sustained hits 1", "MEQ", "--leader", "Skitarii Marshal",
      "--rules", "11e", "--no-precision"]),
])
def test_kills_is_the_cli_json(cli, client, params, args):
    res = client.post("/api/kills", json=params)
    code, out, _ = cli_out(cli, "kills", *args, "--json")
    assert res.status_code == 200 and code == 0
    assert res.json() == json.loads(out)
    assert res.headers["server-timing"].startswith("compute;dur=")


def test_odds_hexmark_at_half_range(cli, client):
    query = {"kills": {"attacker": "Hexmark Destroyer", "target": "MEQ", "half_range": True},
             "ask": "at least", "k": 2}
    data = client.post("/api/odds", json=query).json()
    _, exact, _ = cli_out(cli, "odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least",
                          "2", "--exact")
    assert data["p"] == exact.strip()
    # the same P from the kill distribution: at most 3 kills (6 shots, D1 against W2), so
    # P(>= 2) = P(2) + P(3)
    pmf = {int(k): Fraction(v) for k, v in data["pmf"]["kills"].items()}
    assert max(pmf) == 3 and Fraction(data["p"]) == pmf[2] + pmf[3]
    _, out, _ = cli_out(cli, "odds", "Hexmark Destroyer", "MEQ", "--half-range", "--at-least", "2",
                        "--json")
    assert data == json.loads(out)


def test_the_api_takes_json_queries_only(client):
    # a query is a JSON object of the query's fields (docs/app.md); a query string is not
    res = client.get("/api/kills", params={"attacker": "Cronos", "target": "MEQ"})
    assert res.status_code == 405
    got = client.post("/api/kills", json={"attacker": "Hexmark Destroyer", "target": "MEQ",
                                          "named_rules": ["Conquering Tyrant"], "hit_mod": 1})
    assert got.status_code == 200, got.text
    assert got.json()["named_rules"] == ["Protocol of the Conquering Tyrant"]
    assert got.json()["options"]["hit_mod"] == 1


def test_table_is_the_cli_json(cli, client):
    query = {"attackers": ["Hexmark Destroyer", "Cronos"], "targets": ["GEQ", "MEQ", "TEQ"],
             "metric": "destroyed", "by": "weapon"}
    res = client.post("/api/compare", json=query)
    code, out, _ = cli_out(cli, "table", "Hexmark Destroyer", "Cronos", "--targets", "GEQ,MEQ,TEQ",
                           "--metric", "destroyed", "--by", "weapon", "--format", "json")
    assert res.status_code == 200 and code == 0
    assert res.json() == json.loads(out)


# --- errors: the command line's one line, HTTP 400 ---------------------------------------------


@pytest.mark.parametrize(("params", "args"), [
    ({"attacker": "Hexmark Destroyer", "target": "5x T4 Sv3+ Q2"},
     ["Hexmark Destroyer", "5x T4 Sv3+ Q2"]),
    ({"attacker": "Hexmark Destroyer", "target": "MEQ", "named_rules": ["Enslaved Artiface"]},
     ["Hexmark Destroyer", "MEQ", "--rule", "Enslaved Artiface"]),
    ({"attacker": "Hexmark Destroyr", "target": "MEQ"}, ["Hexmark Destroyr", "MEQ"]),
    ({"attacker": "2 | 2+ | 4 | 0 | 1 | lethal hitz", "target": "MEQ"},
     ["2 | 2+ | 4 | 0 | 1 | lethal hitz", "MEQ"]),
])
def test_bad_input_is_the_cli_line(cli, client, params, args):
    res = client.post("/api/kills", json=params)
    code, _, err = cli_out(cli, "kills", *args, "--json")
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
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "hit_mod": 9},
     "hit_mod: expected an integer from -6 to 6, got 9"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "models": 0},
     "models: expected a whole number from 1 to 1000, got 0"),
    ("/api/kills", {"attacker": "Cronos", "target": "units/necrons/hexmark-destroyer.toml"},
     "the web page reads no files"),
    ("/api/kills", {"attacker": "Cronos", "target": "Necrons.cat:Immortals"},
     "the web page reads no files"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "rules": "/tmp/10e.toml"},
     "rules: expected one of 10e, 11e, got '/tmp/10e.toml'"),
    ("/api/kills", {"attacker": "Cronos"}, "target: expected a unit's name"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "army": {"path": "/etc/passwd"}},
     "army: the web page reads no files"),
    ("/api/compare", {"targets": ["MEQ"]}, "attackers: expected at least one attacker"),
    ("/api/odds", {"attacker": "Cronos", "target": "MEQ"}, "unknown parameter 'attacker'"),
    ("/api/odds", {"kills": {"attacker": "Cronos", "target": "MEQ"}, "ask": "most"},
     "ask: expected one of at least, exactly, at most, destroyed, got 'most'"),
])
def test_bad_request_is_one_line(client, path, params, words):
    res = client.post(path, json=params)
    assert res.status_code == 400
    line = res.json()["error"]
    assert words in line and "\n" not in line and line.startswith("mathhammer")


def test_a_value_starting_with_dashes_is_not_an_option(client, tmp_path):
    out = tmp_path / "x.txt"
    res = client.post("/api/kills", json={"attacker": f"--output={out}", "target": "MEQ"})
    assert res.status_code == 400 and not out.exists()
    res = client.post("/api/kills", json={"attacker": "Cronos", "target": "MEQ",
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
    assert res.json()["error"] == "mathhammer: error: kills: expected a JSON object, got list"
    assert res.json()["message"] == "kills: expected a JSON object, got list"


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
            answers["heavy"] = c.post("/api/kills", json=HEAVY)

        t = threading.Thread(target=heavy)
        t.start()
        time.sleep(0.5)  # let the long query reach its worker first (ordering, not a timing)
        quick = c.post("/api/odds", json=QUICK)
        assert "heavy" not in answers  # answered while the long query was running
        assert quick.status_code == 200
        t.join()
        res = answers["heavy"]
        assert res.status_code == 503
        assert res.json()["error"].startswith("mathhammer: error: the query took longer than 2 s")
        # the stopped worker was replaced
        again = c.post("/api/odds", json=QUICK)
        assert again.json() == quick.json()


# --- army lists: against the agreed interface of mathhammer.data.army ------------------------


def test_army_without_the_module_is_one_line(client):
    try:
        import mathhammer.data.army  # noqa: F401
    except ModuleNotFoundError:
        pass
    else:
        pytest.skip("mathhammer.data.army is installed")
    res = client.post("/api/compare", json={"army": "Hexmark Destroyer"})
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
    # the search reads the compiled store of the data (a small made-up folder), compiled here
    # (a server compiles it in the background, answering 503 meanwhile: tests/test_store.py)
    monkeypatch.setenv("MATHHAMMER_DATA", str(make_data(tmp_path / "bsdata")))
    from mathhammer.data.store.compiled import open_store

    for edition in ("10e", "11e"):
        open_store(edition, progress=lambda *_: None)
    # a new app: its worker processes start (fork) after the stand-in is in place
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        res = c.post("/api/compare", json={"army": "Hexmark Destroyer\nCronos",
                                            "targets": ["MEQ", "TEQ"], "half_range": True})
        assert res.status_code == 200, res.text
        data = res.json()
        assert data["army"] == {"units": ["Hexmark Destroyer", "Cronos"]}
        table = c.post("/api/compare", json={"attackers": ["Hexmark Destroyer", "Cronos"],
                                             "targets": ["MEQ", "TEQ"],
                                             "half_range": True}).json()
        # the same cells as `table` of the same units (the points of a unit are its own)
        assert [r["values"] for r in data["rows"]] == [r["values"] for r in table["rows"]]
        assert data["columns"] == table["columns"]
        bad = c.post("/api/compare", json={"army": "Nobody"})
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
    res = client.post("/api/compare", json={"army": text, "targets": ["MEQ"]})
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
    want = mh.attack(list(unit.as_profiles(melee=True, score=VS_MEQ)),
                     mh.load_unit("MEQ").as_target())
    assert Fraction(res.json()["mean"]["kills"]) == want.kills.mean()


# --- the command -------------------------------------------------------------------------------


def test_serve_without_the_extra_says_one_line(cli, monkeypatch):
    monkeypatch.delitem(sys.modules, "mathhammer.web.app", raising=False)
    for name in [m for m in sys.modules if m == "starlette" or m.startswith("starlette.")]:
        monkeypatch.setitem(sys.modules, name, None)
    code, out, err = cli_out(cli, "serve")
    assert code == 2 and out == ""
    assert err == ('mathhammer: error: serve needs the web extra (starlette is missing): '
                   'pip install ".[web]"\n')


def test_serve_on_a_busy_port_says_one_line(cli):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as s:
        port = s.getsockname()[1]
        code, _, err = cli_out(cli, "serve", "--port", str(port))
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
        body = json.dumps(HEAVY).encode()
        with socket.create_connection(("127.0.0.1", port)) as c:
            c.sendall(b"POST /api/kills HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                      b"application/json\r\nContent-Length: " + str(len(body)).encode()
                      + b"\r\n\r\n" + body)
            time.sleep(1)  # the long query is on the only worker now
        ask = urllib.request.Request(f"{base}/api/odds", data=json.dumps(QUICK).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(ask, timeout=60) as res:
            assert json.loads(res.read())["query"] == "P(destroyed)"


@pytest.mark.parametrize(("params", "plain"), [
    ({"attacker": "army:Hexmark Destroyer", "target": "MEQ", "half_range": True},
     {"attacker": "Hexmark Destroyer"}),
    ({"attacker": "Cronos", "target": "army:Necron Warriors", "target_models": 12,
      "turns": 2}, {"target": "Necron Warriors"}),
    ({"attacker": "army:Cronos", "target": "army:Hexmark Destroyer", "ranged": False,
      "models": 2}, {"attacker": "Cronos", "target": "Hexmark Destroyer"}),
    ({"attacker": "army:Cronos", "target": "MEQ", "weapons": ["Spirit vortex"]},
     {"attacker": "Cronos"}),
])
def test_kills_of_army_units_are_those_of_the_same_units(monkeypatch, params, plain):
    monkeypatch.setitem(sys.modules, "mathhammer.data.army", fake_army.module())
    text = "Hexmark Destroyer\nCronos\nNecron Warriors"
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        got = c.post("/api/kills", json={**params, "army": text})
        want = c.post("/api/kills", json={**params, **plain})
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
    from mathhammer.app.lists import read_list
    from mathhammer.app.queries import ArmyList

    def read_army(text):
        return read_list(ArmyList.from_json(text))

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

    from mathhammer.app.lists import read_list
    from mathhammer.app.queries import ArmyList

    army = pytest.importorskip("mathhammer.data.army")
    path = SHARED / "rosters" / "necron-combat-patrol.10e.rosz"
    if not path.is_file():
        pytest.skip(f"no shared roster at {path}")
    monkeypatch.setenv("MATHHAMMER_DATA", str(SHARED / "bsdata"))
    got = read_list(ArmyList(base64=base64.b64encode(path.read_bytes()).decode()))
    want = army.load_army(path)
    assert got.to_json() == want.to_json() and len(got.units) > 0


# --- several units into one target, a plan, Leaders from the data, the warm worker ---------------

GUN = "1x 1 | 2+ | 8 | -3 | 1"  # one shot, hits on 2+ (5/6), wounds T4 on 2+ (5/6), no save
LONE = "1x T4 Sv7+ W1"


def test_several_units_into_one_target_hand_derived(client):
    # each gun kills the lone model with 5/6 * 5/6 = 25/36; after the second: 1 - (11/36)**2
    res = client.post("/api/salvo", json={"units": [GUN, GUN], "target": LONE, "until": "90%"})
    assert res.status_code == 200, res.text
    data = res.json()
    assert [u["destroyed"] for u in data["after_units"]] == ["25/36", "1175/1296"]
    assert data["destroyed"] == "1175/1296" and data["pmf"]["kills"] == {
        "0": "121/1296", "1": "1175/1296"}
    assert data["until"] == {"p": "9/10", "units": 2}  # 25/36 < 9/10 <= 1175/1296


def test_several_units_are_the_cli_json(cli, client):
    # each unit with its own options, weapons and Leader, the modifiers shared: the command
    # line's kills A B -t T --json, exactly
    first = "Hexmark Destroyer --half-range"
    then = ["Necron Warriors --rule Enslaved Artifice --models 10", "Cronos --weapon Spirit syphon"]
    units = [{"unit": "Hexmark Destroyer", "half_range": True},
             {"unit": "Necron Warriors", "named_rules": ["Enslaved Artifice"], "models": 10},
             {"unit": "Cronos", "weapons": ["Spirit syphon"]}]
    res = client.post("/api/salvo", json={"units": units, "target": "GEQ",
                                          "leader": "Skitarii Marshal", "hit_mod": 1})
    assert res.status_code == 200, res.text
    code, out, _ = cli_out(cli, "kills", first, *then, "-t", "GEQ", "--leader", "Skitarii Marshal",
                           "--hit-mod", "1", "--json")
    assert code == 0
    assert res.json() == json.loads(out)
    odds = client.post("/api/odds", json={"salvo": {"units": units[:2], "target": "GEQ"},
                                          "ask": "at least", "k": 5})
    code, out, _ = cli_out(cli, "odds", first, then[0], "-t", "GEQ", "--at-least", "5", "--json")
    assert odds.status_code == 200 and odds.json() == json.loads(out)


@pytest.mark.parametrize(("params", "words"), [
    ({"units": [GUN, "units/x.toml"], "target": LONE}, "reads no files"),
    ({"units": [GUN, {"unit": "Cronos", "data": "/tmp"}], "target": LONE},
     "unknown option 'data'"),
    ({"units": [GUN, {"unit": "Cronos", "rules": "11e"}], "target": LONE},
     "rules is the query's, not one unit's"),
    ({"units": [GUN], "target": LONE, "rules": "house.toml"}, "expected one of"),
    ({"units": [GUN], "target": LONE, "turns": 2}, "turns: not for several units"),
    ({"units": [GUN] * 13, "target": LONE}, "at most 12"),
    ({"units": ["Cronos --rule Dark Harvest"], "target": LONE}, "unknown unit"),
])
def test_several_units_bad_input_is_one_line(client, params, words):
    res = client.post("/api/salvo", json=params)
    assert res.status_code == 400 and words in res.json()["message"], res.text


def test_a_plan_hand_derived(client):
    # two guns; targets X = a lone model of 1 wound, Y = of 2 wounds (no points: models
    # destroyed). Both on X: 1 - (11/36)**2 = 1175/1296; one each: X's 25/36 = 900/1296 (one
    # gun cannot kill Y); both on Y: (25/36)**2 = 625/1296. Best: both on X, ahead by
    # 275/1296. Adapting gains nothing: the first on X, then X again if it stands (else Y,
    # which one gun cannot kill): 25/36 + 11/36 * 25/36 = 1175/1296.
    two = "1x T4 Sv7+ W2"
    res = client.post("/api/plan", json={"units": [GUN, GUN], "targets": [LONE, two],
                                         "adaptive": True})
    assert res.status_code == 200, res.text
    data = res.json()
    assert data["objective"] == "models" and data["assignments"] == 4
    assert data["best"]["value"] == "1175/1296" and data["lead"] == "275/1296"
    assert [t["target"] for t in data["best"]["targets"]] == [[LONE], [LONE]]
    assert data["next_best"]["value"] == "25/36"
    assert data["adaptive"]["value"] == "1175/1296" and data["adaptive"]["gain"] == "0/1"
    assert data["seconds"] >= 0 and "at most 20 attacking units" in data["limits"]


def test_a_plan_is_the_cli_json(cli, client):
    units = ["Hexmark Destroyer", "Cronos --rule Dark Harvest", "Necron Warriors"]
    orders = ["Hexmark Destroyer", {"unit": "Cronos", "named_rules": ["Dark Harvest"]},
              "Necron Warriors"]
    targets = ["GEQ", "Skitarii Marshal", "MEQ"]
    res = client.post("/api/plan", json={"units": orders, "targets": targets, "adaptive": True,
                                         "objective": "models", "half_range": True})
    assert res.status_code == 200, res.text
    code, out, _ = cli_out(cli, "plan", *units, *(x for t in targets for x in ("-t", t)),
                           "--adaptive", "--objective", "models", "--half-range", "--json",
                           "--budget", "2000")
    assert code == 0
    want, got = json.loads(out), res.json()
    for key in ("best", "next_best", "lead", "per_target", "adaptive", "assignments"):
        assert got[key] == want[key], key


@pytest.mark.parametrize(("body", "words"), [
    ({"units": ["Cronos"] * 21, "targets": ["MEQ"]}, "at most 20 attacking units"),
    ({"units": ["Cronos"], "targets": ["MEQ"] * 21},
     "at most 20 attacking units and 20 targets"),
    ({"units": ["Cronos"], "targets": []}, "targets: expected the targets"),
    ({"units": ["army:Nobody"], "targets": ["MEQ"]}, "give the army list first"),
    ({"units": ["Cronos"], "targets": ["secret.toml"]}, "reads no files"),
    ({"units": ["Cronos"], "targets": ["MEQ"], "objective": "fun"}, "objective: expected one of"),
])
def test_a_plan_bad_input_is_one_line(client, body, words):
    res = client.post("/api/plan", json=body)
    assert res.status_code == 400 and words in res.json()["message"], res.text


def test_a_plan_of_army_lists(monkeypatch):
    # the stand-in army module: every unit of the list, or some by their rows (army:<row>)
    monkeypatch.setitem(sys.modules, "mathhammer.data.army", fake_army.module())
    with TestClient(create_app(allowed_hosts=["testserver"], workers=1)) as c:
        listed = "Hexmark Destroyer\nCronos"
        res = c.post("/api/plan", json={"army": listed, "targets": ["MEQ", "GEQ"],
                                        "objective": "models"})
        assert res.status_code == 200, res.text
        named = c.post("/api/plan", json={"army": listed, "objective": "models",
                                          "units": ["army:Hexmark Destroyer", "army:Cronos"],
                                          "targets": ["MEQ", "GEQ"]})
        plain = c.post("/api/plan", json={"units": ["Hexmark Destroyer", "Cronos"],
                                          "targets": ["MEQ", "GEQ"], "objective": "models"})
        assert res.json()["best"] == named.json()["best"] == plain.json()["best"]
        many = c.post("/api/plan", json={"army": "\n".join(["Cronos"] * 21),
                                         "targets": ["MEQ"]})
        assert many.status_code == 400
        assert "the army list has 21 units" in many.json()["message"]
        assert "army:Cronos" in many.json()["message"]  # the rows to name, said


@pytest.mark.slow
def test_a_plan_of_two_shared_lists(data_client):
    pytest.importorskip("mathhammer.data.army")
    mine, theirs = (ROSTERS / f"{n}.10e.gwapp.txt" for n in ("world-eaters", "blood-angels"))
    if not (mine.is_file() and theirs.is_file()):
        pytest.skip("no shared rosters")
    body = {"army": mine.read_text(encoding="utf-8"), "vs_army": theirs.read_text(encoding="utf-8")}
    res = data_client.post("/api/plan", json=body)  # every unit of each: within the bound
    assert res.status_code == 200, res.text
    data = res.json()
    # the best plan found, its exact value, and a proved bound: the gap, 0 when proved
    gap, bound = Fraction(data["gap"]), Fraction(data["bound"])
    assert gap >= 0 and data["proved"] == (gap == 0)
    assert bound == Fraction(data["best"]["value"]) + gap
    assert data["search"]["budget"] == SEARCH_BUDGET
    assert Fraction(data["best"]["value"]) >= Fraction(data["next_best"]["value"])


def test_the_leaders_a_data_unit_lists(data_client):
    from mathhammer.data.store.compiled import open_store
    from mathhammer.data.store.data_folder import installed_editions

    if "10e" not in installed_editions():
        pytest.skip("no shared 10e data")
    res = data_client.get("/api/unit", params={"name": "Space Marines:Intercessor Squad"})
    assert res.status_code == 200, res.text
    led = res.json()["led_by"]
    # every datasheet whose Leader list names Intercessor Squad, the Space Marines' first
    assert sorted(n.split(":", 1)[1] for n in led) == sorted(
        open_store("10e").leaders_of("Intercessor Squad"))
    assert "Space Marines:Captain" in led and "Space Marines:Lieutenant" in led
    home = [n.startswith("Space Marines:") for n in led]
    assert home == sorted(home, reverse=True)
    assert data_client.get("/api/unit", params={"name": "MEQ"}).json()["led_by"] == []


def test_a_worker_warms_without_building_or_printing(capsys, monkeypatch, tmp_path):
    from mathhammer.jobs.run import job

    monkeypatch.setenv("MATHHAMMER_DATA", str(tmp_path))  # no data: nothing to read
    status, body = job("warm")
    assert status == 200 and json.loads(body)["warm"] >= 0
    assert capsys.readouterr() == ("", "")


def test_a_factions_units_are_its_units_of_the_search(monkeypatch, tmp_path):
    # read from the unit index by faction: the same names, in the same order, as the whole
    # search filtered to the faction (which took seconds on the whole data)
    from test_catalogue import make_data

    army = pytest.importorskip("mathhammer.data.army")
    from mathhammer.data.store.index import unit_index
    from mathhammer.jobs.search import search_json

    monkeypatch.setenv("MATHHAMMER_DATA", str(make_data(tmp_path / "bsdata")))
    factions = {n.split(":", 1)[0] for n in unit_index("10e").names()}
    assert factions
    for faction in sorted(factions):
        for q in ("", "a", "zzz"):
            want = [n for n in army.search_units(q, limit=100_000)
                    if n.split(":", 1)[0] == faction]
            assert search_json(q, None, faction) == want, (faction, q)
    assert any(search_json("", None, f) for f in factions)


def test_a_unit_of_a_list_needs_the_list(client):
    res = client.post("/api/kills", json={"attacker": "army:Cronos", "target": "MEQ"})
    assert res.status_code == 400
    assert res.json()["message"] == ("attacker 'army:Cronos': a unit of an army list; give the "
                                     "list (army)")


def test_a_weapons_max_and_slot_as_the_page_offers_them():
    # a 5-10 model group whose heavy weapons share one slot of 4 (a Devastator Squad's): the
    # page's "how many" box stops at each weapon's own max, and names the shared slot
    from mathhammer.data.units.unit import ModelGroup, UnitWeapon
    from mathhammer.jobs.choices import _weapon_json

    las = UnitWeapon(mh.Weapon("Lascannon", attacks=1, skill=3, strength=12, ap=-3,
                               damage="D6+1"), optional=True, max=(4,), slot="Heavy",
                     slot_max=(4,))
    gun = UnitWeapon(mh.Weapon("Boltgun", attacks=2, skill=3, strength=4, ap=0, damage=1))
    group = ModelGroup("Marine", 5, 10, 4, 3, 2, weapons=(las, gun))
    got = [_weapon_json(w, group) for w in group.weapons]
    assert [(w["max"], w["slot"], w["slot_max"]) for w in got] == [(4, "Heavy", 4),
                                                                   (10, None, None)]
