"""The data folder, `data fetch` against a local HTTP server (no other network), and the unit
index. The archives are built here from the shared BattleScribe data."""

from __future__ import annotations

import functools
import http.server
import io
import json
import os
import shutil
import threading
import zipfile
from pathlib import Path

import pytest

from mathhammer.data.store import compiled as catalogue
from mathhammer.data.store import data_folder as datastore
from mathhammer.data.store import index as unit_index

BSDATA = Path(os.environ.get("MATHHAMMER_SHARED",
                             Path(__file__).resolve().parents[2] / "shared")) / "bsdata"
if not BSDATA.is_dir():
    pytest.skip(f"shared BattleScribe data not found at {BSDATA}", allow_module_level=True)

FILES_10E = ("Warhammer 40,000.gst", "Necrons.cat")


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """A clean home: the cache folder is empty and $MATHHAMMER_DATA unset."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    unit_index._MEMO.clear()
    catalogue.forget()
    monkeypatch.setattr(catalogue, "RECHECK_SECONDS", 0)  # a changed file is seen at once
    return tmp_path


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


def _repo_zip(names=FILES_10E, top="wh40k-10e-main") -> bytes:
    files = {f"{top}/{n}": (BSDATA / "10e" / n).read_bytes() for n in names}
    files[f"{top}/README.md"] = b"# BSData"
    return _zip(files)


@pytest.fixture()
def server(tmp_path):
    """A static HTTP server on 127.0.0.1 serving ``tmp_path/www``."""
    www = tmp_path / "www"
    www.mkdir()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # quiet
            pass

    handler = functools.partial(Handler, directory=str(www))

    class Quiet(http.server.ThreadingHTTPServer):
        def handle_error(self, request, client_address):  # a test closing early is fine
            pass

    httpd = Quiet(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield www, f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}


def test_fetch_installs_atomically_and_reports_progress(server, tmp_path):
    www, url = server
    archive = _repo_zip()
    (www / "good.zip").write_bytes(archive)
    seen = []
    info = datastore.fetch("10e", url=f"{url}/good.zip", root=tmp_path / "data",
                           progress=lambda done, total: seen.append((done, total)))
    assert (info.edition, info.catalogues) == ("10e", 1)  # Necrons.cat (the .gst is no catalogue)
    assert sorted(p.name for p in info.folder.iterdir()) == sorted([".mathhammer.json", *FILES_10E])
    assert seen[-1] == (len(archive), len(archive))
    (status,) = datastore.status(tmp_path / "data")
    assert status.source == f"{url}/good.zip" and status.date
    assert not [p for p in (tmp_path / "data").iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("name, body, message", [
    ("missing.zip", None, "download failed"),
    ("notzip.zip", b"<html>not a zip</html>", "not a zip archive"),
    ("nogst.zip", "nogst", "no 10e game system file"),
])
def test_a_failed_fetch_leaves_the_installed_data(server, tmp_path, name, body, message):
    www, url = server
    (www / "good.zip").write_bytes(_repo_zip())
    datastore.fetch("10e", url=f"{url}/good.zip", root=tmp_path / "data")
    before = _snapshot(tmp_path / "data" / "10e")
    if body == "nogst":
        body = _repo_zip(names=("Necrons.cat",))
    if body is not None:
        (www / name).write_bytes(body)
    with pytest.raises(ValueError, match=message) as e:
        datastore.fetch("10e", url=f"{url}/{name}", root=tmp_path / "data")
    assert "\n" not in str(e.value)
    assert _snapshot(tmp_path / "data" / "10e") == before
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["10e"]


def test_fetch_and_names_from_a_clean_home(cli, server, home):
    www, url = server
    (www / "main.zip").write_bytes(_repo_zip())
    r = cli("data", "status")
    assert r.exit_code == 0 and "no BattleScribe data" in r.output
    r = cli("data", "fetch", "--edition", "10e", "--url", f"{url}/main.zip")
    assert r.exit_code == 0, r.output
    target = home / "cache" / "mathhammer" / "bsdata" / "10e"
    assert f"1 catalogues installed in {target}" in r.output
    r = cli("data")
    assert r.exit_code == 0 and r.output.startswith(f"10e: 1 catalogues in {target}, from ")
    r = cli("kills", "Immortals", "MEQ", "--json")  # from the cache, no --data
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["attacker"] == "Immortals"
    r = cli("kills", "Necrons:Lychguard", "MEQ", "--melee", "--json")
    assert r.exit_code == 0, r.output
    r = cli("kills", "Lychgard", "MEQ")
    assert r.exit_code == 2 and "closest: Lychguard" in r.output


def test_data_folder_from_option_environment_or_cache(tmp_path, monkeypatch):
    assert datastore.data_root() == tmp_path / "cache" / "mathhammer" / "bsdata"
    monkeypatch.setenv("MATHHAMMER_DATA", str(BSDATA))
    assert datastore.data_root() == BSDATA
    assert datastore.edition_dir("11e") == BSDATA / "11e"
    assert datastore.edition_dir("10e", BSDATA / "10e") == BSDATA / "10e"
    with pytest.raises(ValueError, match="--data nowhere: no such folder"):
        datastore.data_root("nowhere")
    with pytest.raises(ValueError, match=r"no 11e BattleScribe data in .*data fetch --edition 11e"):
        datastore.edition_dir("11e", BSDATA / "10e")


def test_the_index_is_read_again_when_a_file_changes(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    for n in FILES_10E:
        shutil.copy(BSDATA / "10e" / n, folder / n)
    first = unit_index.unit_index("10e", folder)
    assert first.built == 2
    assert [(c.label, u) for c, u in first.find("immortals")] == [("Necrons", "Immortals")]
    unit_index._MEMO.clear()
    catalogue.forget()  # as a new process
    again = unit_index.unit_index("10e", folder)
    assert again.built == 0 and again.names() == first.names()
    cat = folder / "Necrons.cat"
    cat.write_bytes(cat.read_bytes().replace(b'name="Lychguard"', b'name="Lychguards"', 1))
    changed = unit_index.unit_index("10e", folder)
    assert changed.built == 2  # the store is compiled again
    assert [u for _c, u in changed.find("Lychguards")] == ["Lychguards"]


def test_a_missing_linked_file_is_named(tmp_path):
    for n in ("Warhammer 40,000.json", "Aeldari - Drukhari.json"):
        shutil.copy(BSDATA / "11e" / n, tmp_path / n)
    with pytest.raises(ValueError, match=r"missing file 'Aeldari - Aeldari Library.json'"):
        unit_index.load_data_unit("Drukhari:Cronos", "11e", tmp_path)
