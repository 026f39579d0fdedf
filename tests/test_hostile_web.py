"""Hostile requests to a real ``mathhammer serve`` (uvicorn on 127.0.0.1, an ephemeral port,
started and stopped here): the page reads no files a request names, answers only requests
addressed to an allowed host, and ends every bad request in one line.

Each test is a hostile input and the exact line it gets (issue 24)."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("pebble")
pytest.importorskip("uvicorn")

from mathhammer.web.background import free_port, serving  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return {**env, **extra}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server started in a folder holding a secret TOML file and notes, which it must never
    read on a request's behalf."""
    folder = tmp_path_factory.mktemp("cwd")
    (folder / "secret.toml").write_text('[secret]\nkey = "hunter2"\n')
    (folder / "notes.txt").write_text("line one\nmy secret line\n")
    old = Path.cwd()
    os.chdir(folder)
    try:
        with serving("--workers", "2", env=_env()) as url:
            yield url, folder
    finally:
        os.chdir(old)


def _get(url: str, path: str, params: dict | list | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, str]:
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    query = "?" + urllib.parse.urlencode(params, doseq=True) if params else ""
    conn.request("GET", path + query, headers=headers or {})
    res = conn.getresponse()
    body = res.read().decode()
    conn.close()
    return res.status, body


def _post_json(url: str, path: str, body: dict) -> tuple[int, str]:
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    conn.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    res = conn.getresponse()
    text = res.read().decode()
    conn.close()
    return res.status, text


def _error(url: str, path: str, params: dict | list) -> str:
    """The error line of a request: a JSON query POSTed, a listing asked with GET."""
    status, body = (_get(url, path, params) if path in ("/api/unit", "/api/search") else
                    _post_json(url, path, params))
    assert status == 400, body
    return json.loads(body)["error"]


# --- 1. the page names no files ----------------------------------------------------------------

NO_DATA = ("data: the web page reads no files; it uses the data the server was started with "
           "(mathhammer serve --data DIR)")
NO_LIST = "the web page reads no files; paste the list's text"
NO_FILE = "the web page reads no files; give a unit's name or an inline profile"


@pytest.mark.parametrize(("path", "params", "line"), [
    ("/api/compare", {"attackers": ["Cronos"], "vs_army": {"path": "/home/me/notes.txt"}},
     f"mathhammer: error: vs_army: {NO_LIST}"),
    ("/api/compare", {"attackers": ["Cronos"], "army": {"path": "notes.txt"}},
     f"mathhammer: error: army: {NO_LIST}"),
    ("/api/plan", {"units": ["Cronos"], "targets": ["MEQ"], "reach_file": "notes.txt"},
     "mathhammer: error: reach_file: the web page reads no files; give the reach (reach)"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "data": "/etc"},
     f"mathhammer: error: {NO_DATA}"),
    ("/api/odds", {"kills": {"attacker": "Cronos", "target": "MEQ", "data": "."}},
     f"mathhammer: error: {NO_DATA}"),
    ("/api/compare", {"attackers": ["Cronos"], "data": "/tmp"}, f"mathhammer: error: {NO_DATA}"),
    ("/api/compare", {"attackers": ["Cronos"], "targets": ["secret.toml,MEQ"]},
     f"mathhammer: error: targets 'secret.toml': {NO_FILE}"),
    ("/api/compare", {"attackers": ["Cronos"], "targets": ["MEQ, ./secret"]},
     f"mathhammer: error: targets './secret': {NO_FILE}"),
    ("/api/compare", {"attackers": ["Cronos"], "variants": [{"label": "v",
                                                              "rules": "house.toml"}]},
     "mathhammer: error: variant 'v': rules: expected one of 10e, 11e, got 'house.toml'"),
    ("/api/compare", {"attackers": ["Cronos"], "variants": [{"leader": "secret.toml"}]},
     "mathhammer: error: unknown option 'leader'; did you mean "),
    ("/api/salvo", {"units": ["Cronos", {"unit": "Cronos", "leader": "secret.toml"}],
                    "target": "MEQ"},
     "mathhammer: error: attacker 'Cronos': leader is the query's, not one unit's; give it "
     "once, outside the attacker"),
    ("/api/kills", {"attacker": "Cronos", "target": "secret.toml"},
     f"mathhammer: error: target 'secret.toml': {NO_FILE}"),
    ("/api/kills", {"attacker": "Cronos", "target": "x/secret | 3+ | 4 | 0 | 1"},
     f"mathhammer: error: target 'x/secret | 3+ | 4 | 0 | 1': {NO_FILE}"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "leader": "secret.toml"},
     f"mathhammer: error: leader 'secret.toml': {NO_FILE}"),
    ("/api/kills", {"attacker": "Cronos", "target": "MEQ", "rules": "secret.toml"},
     "mathhammer: error: rules: expected one of 10e, 11e, got 'secret.toml'"),
    ("/api/unit", {"name": "secret.toml"},
     "mathhammer: error: unit 'secret.toml': the web page reads no files; give a unit's name "
     "or an inline profile"),
])
def test_a_request_names_no_file(server, path, params, line):
    url, _ = server
    error = _error(url, path, params)
    assert error.startswith(line)
    assert "hunter2" not in error and "secret line" not in error


def test_the_army_endpoints_name_no_file(server):
    url, _ = server
    for path, body in [
        ("/api/compare", {"army": "Hexmark Destroyer (100 points)", "vs_army": "notes.txt"}),
        ("/api/compare", {"army": "Hexmark Destroyer (100 points)",
                          "targets": ["MEQ,secret.toml"]}),
        ("/api/army", {"army": "notes.txt"}),
        ("/api/army", {"army": {"path": "notes.txt"}}),
        ("/api/kills", {"army": "Hexmark Destroyer (100 points)",
                        "attacker": "army:Hexmark Destroyer", "target": "secret.toml"}),
    ]:
        status, text = _post_json(url, path, body)
        # a list's text "notes.txt" is a list of one line that names no unit: never a file
        assert status in (200, 400, 501), text
        assert "hunter2" not in text and "secret line" not in text


def test_serve_data_is_the_servers(tmp_path):
    """``serve --data DIR``: a folder that is not there is one line at start, exit 2."""
    r = subprocess.run([sys.executable, "-m", "mathhammer", "serve", "--port",
                        str(free_port()), "--data", str(tmp_path / "nowhere")],
                       capture_output=True, text=True, env=_env(), timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip() == f"mathhammer: error: --data {tmp_path / 'nowhere'}: no such folder"


@pytest.mark.slow
def test_the_page_uses_the_data_the_server_was_started_with(tmp_path):
    """``serve --data DIR``: a BattleScribe unit resolves in the server's data, which no
    request names (the shared 10e game system and Necrons)."""
    bsdata = Path(os.environ.get("MATHHAMMER_SHARED", ROOT.parent / "shared")) / "bsdata" / "10e"
    if not bsdata.is_dir():
        pytest.skip("the shared BattleScribe data is not here")
    (tmp_path / "10e").mkdir()
    for name in ("Warhammer 40,000.gst", "Necrons.cat"):
        (tmp_path / "10e" / name).write_bytes((bsdata / name).read_bytes())
    env = _env(XDG_CACHE_HOME=str(tmp_path / "cache"), MATHHAMMER_STORE=str(tmp_path / "st"))
    with serving("--workers", "1", "--timeout", "60", "--data", str(tmp_path), env=env,
                 wait=60) as url:
        # a fresh cache: the server compiles the store in the background (503 meanwhile)
        end = time.monotonic() + 120
        while True:
            status, body = _post_json(url, "/api/kills", {"attacker": "Immortals",
                                                          "target": "MEQ"})
            if status != 503 or "compiling the game's data" not in body or \
                    time.monotonic() > end:
                break
            time.sleep(0.5)
    assert status == 200, body
    assert json.loads(body)["attacker"] == "Immortals"


# --- 2. binding beyond loopback is explicit ----------------------------------------------------


@pytest.mark.parametrize(("host", "status"), [
    ("evil.example", 400), ("evil.example:80", 400), ("127.0.0.1.nip.io", 400),
    ("localhost", 200), ("127.0.0.1", 200), ("[::1]:80", 200), ("LOCALHOST", 200),
])
def test_the_host_header_is_checked(server, host, status):
    url, _ = server
    got, body = _get(url, "/api/health", headers={"Host": host})
    assert got == status
    if status == 400:
        assert body == "Invalid host header"


def test_a_wide_host_warns_and_still_checks_the_host_header():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "mathhammer", "serve", "--port", str(port),
                             "--host", "0.0.0.0", "--allow-host", "mybox.lan"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env())
    try:
        warning = proc.stderr.readline().strip()
        serving_line = proc.stdout.readline().strip()
        url = f"http://127.0.0.1:{port}"
        import time

        for _ in range(100):
            try:
                status, _ = _get(url, "/api/health", headers={"Host": "evil.example"})
                break
            except OSError:
                time.sleep(0.1)
        assert status == 400
        assert _get(url, "/api/health", headers={"Host": "mybox.lan"})[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=20)
        proc.stdout.close()
        proc.stderr.close()
    assert warning == (
        f"mathhammer: warning: --host 0.0.0.0 serves the page, with no password and no "
        f"encryption, to every machine that can reach this one (http://127.0.0.1:{port}/ here; "
        f"from other machines http://NAME:{port}/ once --allow-host NAME is given); requests "
        f"are answered only when addressed to 127.0.0.1, localhost, [::1], mybox.lan")
    assert serving_line == (f"mathhammer: serving http://127.0.0.1:{port}/ (listening on every "
                            f"address, port {port}) (Ctrl-C stops)")


# --- 4. one line for every bad request; ordinary requests answered during heavy ones -----------


def _post(conn: http.client.HTTPConnection, path: str, body: bytes | str) -> tuple[int, str]:
    conn.request("POST", path, body, {"Content-Type": "application/json"})
    res = conn.getresponse()
    return res.status, res.read().decode()


def test_deep_json_is_400_and_the_connection_goes_on(server):
    url, _ = server
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    for body in ("[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000):
        assert _post(conn, "/api/kills", body) == (
            400, '{"error":"mathhammer: error: the request body is nested too deeply",'
                 '"message":"the request body is nested too deeply"}')
        conn.request("GET", "/api/health")  # the same connection still answers
        res = conn.getresponse()
        assert res.status == 200 and json.loads(res.read())["timeout"] == 10
    conn.close()


def test_a_request_body_is_limited(server):
    url, _ = server
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    army = json.dumps({"army": "Cronos\n" * 800_000})  # 5.6 MB
    assert _post(conn, "/api/army", army) == (
        413, '{"error":"mathhammer: error: the request body is over the limit of 5000000 bytes '
             '(mathhammer.web.app.MAX_BODY_BYTES)","message":"the request body is over the '
             'limit of 5000000 bytes (mathhammer.web.app.MAX_BODY_BYTES)"}')
    conn.close()


def test_deeply_nested_army_text_is_one_line(server):
    url, _ = server
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    status, body = _post(conn, "/api/army", json.dumps({"army": "<roster>" * 50_000}))
    conn.close()
    assert status == 400, body
    line = json.loads(body)["error"]
    assert line.startswith("mathhammer: error: ") and "\n" not in line


def test_an_error_that_echoes_a_huge_input_is_cut(server):
    url, _ = server
    line = _error(url, "/api/kills", {"attacker": "A" * 100_000, "target": "MEQ"})
    assert len(line) < 1000 and "\n" not in line
    assert line.startswith('mathhammer: error: unknown unit "AAAA')
    assert line.endswith("… [100170 characters in all]")


def test_an_unknown_parameter_lists_only_what_the_page_takes(server):
    url, _ = server
    line = _error(url, "/api/kills", {"attacker": "Cronos", "target": "MEQ", "half_rnage": 1})
    assert line.startswith("mathhammer: error: unknown parameter 'half_rnage' for kills; did "
                           "you mean half_range")
    line = _error(url, "/api/kills", {"attacker": "Cronos", "target": "MEQ", "zzz": "x"})
    assert line.startswith("mathhammer: error: unknown parameter 'zzz' for kills; known: "
                           "attacker, target, army, explain, ranged, weapons, ")
    assert "data" not in line.split("known: ")[1].split(", ")


def test_an_unknown_edition_in_search_is_400(server):
    url, _ = server
    assert _error(url, "/api/search", {"q": "necron", "rules": "12e"}) == (
        "mathhammer: error: rules: expected one of 10e, 11e, got '12e'")


HEAVY = {"attacker": "60x 3 | 3+ | 5 | -1 | D3", "target": "20x T4 Sv4+ W6 + 10x T5 Sv3+ W4",
         "turns": 20}  # minutes of work: thousands of squad states over 20 turns


@pytest.mark.slow
def test_ordinary_requests_are_answered_during_a_flood_of_heavy_ones():
    """One worker per lane, 3 s per query: six heavy queries at once fill both lanes; an
    ordinary query and a unit asked after them are answered while they still run, and heavy
    ones beyond what the lanes hold are refused at once."""
    import threading

    with serving("--workers", "1", "--timeout", "3", env=_env()) as url:
        u = urllib.parse.urlsplit(url)
        heavy: list[tuple[int, str]] = []

        def ask_heavy() -> None:
            try:
                heavy.append(_post_json(url, "/api/kills", HEAVY))
            except OSError as e:  # the server stopped at the end of the test
                heavy.append((0, str(e)))

        threads = [threading.Thread(target=ask_heavy, daemon=True) for _ in range(6)]
        for t in threads:
            t.start()
        import time

        time.sleep(1.5)  # the first heavy queries are computing (ordering, not a timing)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
        conn.request("POST", "/api/odds", json.dumps(
            {"kills": {"attacker": "Cronos", "target": "MEQ"}, "ask": "destroyed"}),
            {"Content-Type": "application/json"})
        res = conn.getresponse()
        odds = res.status, json.loads(res.read())
        conn.request("GET", "/api/unit?name=MEQ")
        res = conn.getresponse()
        unit = res.status, json.loads(res.read())
        done_by_then = len(heavy)
        for t in threads:
            t.join(timeout=60)
    assert odds == (200, odds[1]) and odds[1]["query"] == "P(destroyed)"
    assert unit[0] == 200 and unit[1]["statline"] == "T4 Sv3+ W2"
    assert done_by_then < 6  # answered while heavy queries were still running
    lines = sorted(json.loads(body)["error"] for status, body in heavy if status == 503)
    assert len(lines) == 6  # every heavy one: stopped at the limit, or refused at once
    assert "mathhammer: error: the query took longer than 3 s and was stopped; ask for fewer " \
           "turns, models or targets (or start `mathhammer serve --timeout` with more seconds)" \
           in lines
    # the rest refused at once: by the quick lane (1 running + QUICK_WAITING waiting) or by the
    # long lane (1 running + LONG_WAITING waiting) -- which one depends on how fast a stopped
    # worker is replaced on this machine; the lanes' own limits are tests/test_web_edges.py's
    assert any(x.startswith("mathhammer: error: the server is busy") for x in lines)
