"""The compiled store survives (issue 32): named by the content of what it is built from, so a
touched data file, a reinstall or another data folder sharing the cache builds nothing; a
damaged store, a killed build, a full disk and a read-only cache each end in an answer or one
line; a fresh web server compiles the data in the background and says so until it is ready.
The data here is the small made-up folder of tests/test_catalogue.py."""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import select
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from mathhammer.data.store import cache_files as store_files
from mathhammer.data.store import compiled as catalogue
from mathhammer.data.store import index as unit_index

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_catalogue import make_data  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
QUERY = ["kills", "Captain", "MEQ", "--json"]  # a datasheet of the small data


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """An empty store folder of this test's own, and no store open."""
    monkeypatch.setenv("MATHHAMMER_STORE", str(tmp_path / "stores"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    catalogue.forget()
    unit_index._MEMO.clear()
    yield tmp_path
    catalogue.forget()
    unit_index._MEMO.clear()


@pytest.fixture
def data(tmp_path) -> Path:
    return make_data(tmp_path / "bsdata")


def _open(folder: Path, edition: str = "10e") -> catalogue.Store:
    """The store as a new process opens it."""
    catalogue.forget()
    unit_index._MEMO.clear()
    return catalogue.open_store(edition, folder, workers=1, progress=lambda *_: None)


def _files(folder: Path, pattern: str) -> list[str]:
    return sorted(p.name for p in folder.glob(pattern)) if folder.is_dir() else []


def _mh(*args: str, env: dict | None = None, prefix: tuple[str, ...] = (), **kw
        ) -> subprocess.CompletedProcess:
    """``mathhammer ARGS`` in a new process (this checkout's code)."""
    return subprocess.run([*prefix, sys.executable, "-m", "mathhammer", *args], cwd=ROOT,
                          env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=300, **kw)


def _answer(cli, data: Path, *args: str) -> dict:
    r = cli(*QUERY, "--data", str(data / "10e"), *args)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# ------------------------------------------------------------------ content, not times


def test_a_touched_data_file_keeps_its_store(data):
    first = _open(data / "10e")
    assert first.built
    cat = data / "10e" / "Imperium - Space Marines.cat"
    earlier = time.time() - 3600
    os.utime(cat, (earlier, earlier))  # a new time, the same content
    again = _open(data / "10e")
    assert not again.built and again.path == first.path
    # the file is hashed again once; its new time is kept beside the stores for the next use
    memos = [json.loads(p.read_text()) for p in first.path.parent.glob("files-*.json")]
    (memo,) = [m for m in memos if m["folder"] == str((data / "10e").resolve())]
    assert memo["files"][cat.name][1] == cat.stat().st_mtime_ns
    cat.write_bytes(cat.read_bytes().replace(b'name="Captain"', b'name="Kaptain"', 1))
    edited = _open(data / "10e")
    assert edited.built and edited.path != first.path
    assert [d.name for d in edited.search("kaptain")] == ["Kaptain"]


def _install(to: Path) -> Path:
    """A copy of mathhammer's package (new files: new times and inodes), as pip installs it."""
    if to.exists():
        shutil.rmtree(to)
    shutil.copytree(ROOT / "mathhammer", to / "mathhammer",
                    ignore=shutil.ignore_patterns("__pycache__"), copy_function=shutil.copy)
    for extra in ("rules", "units"):
        shutil.copytree(ROOT / extra, to / "mathhammer" / extra, copy_function=shutil.copy)
    return to


def _built_by(install: Path, data: Path) -> bool:
    code = ("import mathhammer, sys; from mathhammer.data.store import compiled as catalogue; "
            f"assert mathhammer.__file__.startswith({str(install)!r}), mathhammer.__file__; "
            f"print(catalogue.open_store('10e', {str(data)!r}, workers=1).built)")
    r = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(
        install), "PYTHONDONTWRITEBYTECODE": "1"}, cwd=install, capture_output=True, text=True,
        timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip() == "True"


def test_a_reinstall_or_another_install_of_the_same_code_keeps_the_store(data, tmp_path):
    a, b = tmp_path / "install-a", tmp_path / "install-b"
    assert _built_by(_install(a), data / "10e")
    assert not _built_by(_install(b), data / "10e")  # another install, same code: its store
    assert not _built_by(_install(a), data / "10e")  # reinstalled: new times, same code
    # an install whose importer differs has a store of its own; both are kept
    importer = b / "mathhammer" / "data" / "bsdata" / "build.py"
    importer.write_text(importer.read_text() + "\n# a change\n")
    assert _built_by(b, data / "10e")
    assert not _built_by(a, data / "10e") and not _built_by(b, data / "10e")
    # code that does not shape the store (the command line) changes nothing
    (a / "mathhammer" / "cli" / "main.py").write_text(
        (a / "mathhammer" / "cli" / "main.py").read_text() + "\n# a change\n")
    assert not _built_by(a, data / "10e")
    assert len(_files(tmp_path / "stores", "10e-*.sqlite")) == 2


def test_two_data_folders_alternating_keep_their_stores(data, tmp_path):
    other = make_data(tmp_path / "other")
    cat = other / "10e" / "Imperium - Blood Angels.cat"
    cat.write_bytes(cat.read_bytes().replace(b'"Blood Angels Captain"', b'"Sanguinary Priest"'))
    builds = [_open(folder / "10e").built for folder in (data, other) * 3]
    assert builds == [True, True, False, False, False, False]
    assert [d.name for d in _open(other / "10e").search("priest")] == ["Sanguinary Priest"]
    assert _open(data / "10e").search("priest") == []
    # and in a long-running process, switching without forgetting: the same stores
    catalogue.forget()
    for folder in (data, other, data, other):
        assert not catalogue.open_store("10e", folder / "10e", workers=1).built


def test_a_build_reads_no_module_outside_the_code_that_names_the_store(data, tmp_path):
    """Every module of mathhammer a build imports is hashed into the store's fingerprint
    (store_files.SHAPING), so a change to any of them builds a new store."""
    code = f"""
import sys
from mathhammer.data.store import compiled as catalogue
for edition in ("10e", "11e"):
    catalogue.open_store(edition, {str(data)!r}, workers=1)
print("\\n".join(sorted(str(getattr(m, "__file__", "")) for m in list(sys.modules.values()))))
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ), timeout=300)
    assert r.returncode == 0, r.stderr
    package = ROOT / "mathhammer"
    read = {Path(p).resolve() for p in r.stdout.splitlines() if p.endswith(".py")}
    shaping = {p.resolve() for pattern in store_files.SHAPING for p in package.glob(pattern)}
    ours = {p for p in read if p.is_relative_to(package)}
    assert len(ours) > 20 and ours <= shaping, sorted(map(str, ours - shaping))


# ------------------------------------------------------------------ damage


def _scramble(path: Path, keep_time: bool) -> None:
    """Random bytes over the middle half of a file (its first page, the header, kept)."""
    st = path.stat()
    size = st.st_size
    rng = random.Random(32)
    with path.open("r+b") as f:
        f.seek(size // 4)
        f.write(bytes(rng.getrandbits(8) for _ in range(size // 2)))
    if keep_time:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA quick_check").fetchall() != [("ok",)]  # really damaged
    except sqlite3.DatabaseError:
        pass
    finally:
        check.close()


@pytest.mark.parametrize("keep_time", [False, True], ids=["written", "time-kept"])
def test_a_store_with_random_bytes_in_its_middle_is_rebuilt(cli, data, keep_time):
    """Written into (its file no longer what its seal says), or even with its time put back
    (SQLite finds it malformed as a query reads it): compiled again, the answer right."""
    want = _answer(cli, data)
    store = _open(data / "10e").path
    _scramble(store, keep_time)
    catalogue.forget()
    unit_index._MEMO.clear()
    r = cli(*QUERY, "--data", str(data / "10e"))
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout) == want
    why = "database disk image is malformed" if keep_time else "its content is not what was built"
    assert f"compiled store {store}: damaged ({why}); compiling it again" in r.stderr, r.stderr
    assert _files(store.parent, "*.sqlite") == [store.name]
    check = sqlite3.connect(store)
    assert check.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    check.close()
    assert _answer(cli, data) == want and not _open(data / "10e").built  # and then it is kept


def test_a_truncated_or_missing_seal_is_a_store_to_build_again(data):
    store = _open(data / "10e").path
    with store.open("r+b") as f:
        f.truncate(store.stat().st_size // 3)
    with pytest.warns(UserWarning, match=r"compiled store .*: damaged \(its content is not"):
        assert _open(data / "10e").built
    store_files.seal_path(store).unlink()
    assert _open(data / "10e").built


# ------------------------------------------------------------------ killed, full, read-only


def _slow_build(data: Path) -> subprocess.Popen:
    """A build in a new process that stops in its second file (and says so): to be killed."""
    code = f"""
import sys, time
from mathhammer.data.store import compiled as catalogue
real = catalogue.compile_catalogue
seen = []
def slow(path):
    seen.append(path)
    if len(seen) == 2:
        print("compiling", flush=True)
        time.sleep(600)
    return real(path)
catalogue.compile_catalogue = slow
catalogue.open_store("10e", {str(data)!r}, workers=1)
"""
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=dict(os.environ))
    assert proc.stdout is not None and proc.stdout.readline().strip() == "compiling"
    return proc


def test_a_killed_build_leaves_a_temporary_file_the_next_build_removes(data, tmp_path):
    stores = tmp_path / "stores"
    proc = _slow_build(data / "10e")
    try:
        (tmp,) = _files(stores, ".*.tmp")
        assert f"-{proc.pid}-" in tmp  # the temporary file names its process
        # another build meanwhile (the other edition) leaves a live build's file alone
        assert _open(data, "11e").built
        assert _files(stores, ".*.tmp") == [tmp]
    finally:
        proc.kill()
        proc.wait()
    assert _files(stores, ".*.tmp") == [tmp]  # killed: nothing removed it
    assert _open(data / "10e").built  # the next build removes it
    assert _files(stores, ".*.tmp*") == []
    assert [d.name for d in _open(data / "10e").search("captain")][:1] == ["Captain"]


def test_a_process_waits_for_the_build_of_another_and_builds_nothing(cli, data, tmp_path):
    proc = _slow_build(data / "10e")
    try:
        waiting = subprocess.Popen(
            [sys.executable, "-m", "mathhammer", *QUERY, "--data", str(data / "10e")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ))
        assert waiting.stderr is not None
        ready, _, _ = select.select([waiting.stderr], [], [], 120)
        said = waiting.stderr.readline() if ready else ""
        assert said.startswith(f"waiting for process {proc.pid}, which is compiling the 10e "
                               "data"), said
        assert waiting.poll() is None  # it waits for the lock
    finally:
        proc.kill()
        proc.wait()
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, err
    assert json.loads(out) == _answer(cli, data)


def _userns() -> str | None:
    """``unshare`` when this machine lets a process make its own mounts (a user namespace)."""
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-rm", "true"],
                                         capture_output=True).returncode != 0:
        return None
    return unshare


def _no_bigger_files(limit: int):
    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limited


def test_a_full_disk_is_one_line_naming_the_folder_and_leaves_nothing(data, tmp_path):
    """A store folder on a full disk (a 64 kB file system of its own, where this machine
    allows one; else a limit on the size of a file): one line, no part of a store left."""
    stores, listing = tmp_path / "stores", tmp_path / "left.txt"
    stores.mkdir()
    unshare = _userns()
    query = (*QUERY, "--data", str(data / "10e"))
    if unshare is not None:
        script = ('mount -t tmpfs -o size=64k tmpfs "$0" && "$@"; rc=$?; ls -A "$0" > '
                  f'{listing}; exit $rc')
        r = _mh(*query, prefix=(unshare, "-rm", "sh", "-c", script, str(stores)))
        left = listing.read_text().split()
        why = "database or disk is full; free some space there"
    else:
        r = _mh(*query, preexec_fn=_no_bigger_files(40_000))
        left = [p.name for p in stores.iterdir()]
        why = "disk I/O error; check that the disk there has room and works"
    assert r.returncode == 2, r.stderr
    assert r.stderr.splitlines() == [
        f"mathhammer: error: cannot write the compiled store of the 10e data in {stores}: "
        f"{why}, or set $MATHHAMMER_STORE to another folder"]
    # no part of a store, no journal (the build's lock file and the data's hashes stay)
    assert [n for n in left if not n.startswith("files-") and not n.endswith(".lock")] == []
    assert _mh(*query).returncode == 0  # with room, it is built


def _read_only(folder: Path) -> tuple[str, ...]:
    """A command prefix under which ``folder`` cannot be written, even by root (a read-only
    bind mount in a user namespace); empty for another user (the folder's mode is enough)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return ()
    unshare = _userns()
    if unshare is None:
        pytest.skip("root, and no user namespace to make a folder read-only in")
    return (unshare, "-rm", "sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"',
            str(folder))


def test_a_read_only_cache_is_one_line_and_its_store_is_read(cli, data, tmp_path):
    stores, tmp = tmp_path / "stores", tmp_path / "tmp"
    stores.mkdir()
    tmp.mkdir()
    env = {"TMPDIR": str(tmp)}
    try:
        prefix = _read_only(stores)
        r = _mh(*QUERY, "--data", str(data / "10e"), env=env, prefix=prefix)
        assert r.returncode == 2, r.stderr
        (line,) = r.stderr.splitlines()
        assert line == (f"mathhammer: error: cannot write the compiled store of the 10e data in "
                        f"{stores}: Read-only file system; make it writable, or set "
                        "$MATHHAMMER_STORE to another folder") or (
            os.geteuid() != 0 and "Permission denied" in line), line
        assert list(stores.iterdir()) == [] and list(tmp.iterdir()) == []  # no store elsewhere
    finally:
        stores.chmod(0o755)
    want = _answer(cli, data)  # built where it can be written ...
    catalogue.forget()
    r = _mh(*QUERY, "--data", str(data / "10e"), env=env, prefix=_read_only(stores))
    stores.chmod(0o755)
    assert r.returncode == 0 and r.stderr == "", r.stderr  # ... then read where it cannot
    assert json.loads(r.stdout) == want and list(tmp.iterdir()) == []


# ------------------------------------------------------------------ old stores


def test_old_stores_are_removed_once_unused(tmp_path, data):
    stores = tmp_path / "stores"
    stores.mkdir()
    now = time.time()

    def fake(name: str, folder: Path, days: float) -> Path:
        store = stores / f"{name}.sqlite"
        store.write_bytes(b"")
        store_files.seal_path(store).write_text(json.dumps(
            {"folder": str(folder), "edition": "10e"}))
        when = now - days * 86400
        os.utime(store_files.seal_path(store), (when, when))
        return store

    recent = [fake(f"10e-recent{i}", data / "10e", i) for i in range(5)]
    unused = fake("10e-unused", tmp_path / "other", store_files.UNUSED_DAYS + 1)
    (tmp_path / "other").mkdir()
    gone = fake("10e-gone", tmp_path / "nowhere", 0)
    legacy = stores / "10e-0123456789abcdef.sqlite"  # an older mathhammer's, unused for long
    legacy.write_bytes(b"")
    os.utime(legacy, (now - 40 * 86400,) * 2)
    removed = store_files.prune(stores, now)
    kept = store_files.KEEP_PER_FOLDER
    assert set(removed) >= {*recent[kept:], unused, gone, legacy}
    assert _files(stores, "*.sqlite") == sorted(p.name for p in recent[:kept])
    assert _files(stores, "*.json") == sorted(f"{p.stem}.json" for p in recent[:kept])


# ------------------------------------------------------------------ the web server


def test_a_worker_never_builds_a_store(data, monkeypatch):
    from mathhammer.jobs.run import job

    monkeypatch.setenv("MATHHAMMER_DATA", str(data))
    status, line = job("unit", "Captain", "10e")
    assert (status, line) == (503, "mathhammer: error: compiling the game's data (10e), ready in "
                                   "about a minute")
    assert _files(Path(os.environ["MATHHAMMER_STORE"]), "*.sqlite") == []
    assert job("unit", "MEQ")[0] == 200  # a bundled unit needs no store
    assert catalogue.compile_main(["10e"]) == 0  # the server's background build
    status, body = job("unit", "Captain", "10e")
    assert status == 200 and json.loads(body)["name"] == "Captain"


def _get(url: str, body: dict | None = None) -> tuple[int, Any, dict]:
    """(status, headers, JSON body) of a GET, or of a POST of the JSON ``body``."""
    req = url if body is None else urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.headers, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, e.headers, json.loads(e.read())


@pytest.mark.slow
def test_a_fresh_server_compiles_the_data_at_start_and_says_so_until_it_is_ready(cli, data):
    """On an empty cache a data query answers the JSON 503 with Retry-After while the server's
    background build runs (here another process holds the build's lock first, so that the
    503 is seen however fast the build), then the answer, within two minutes."""
    pytest.importorskip("uvicorn")
    from mathhammer.web.background import serving

    folder = data / "10e"
    store = catalogue.store_path(folder, "10e")
    store.parent.mkdir(parents=True, exist_ok=True)
    lock = contextlib.ExitStack()
    lock.enter_context(store_files.build_lock(store))
    start = time.monotonic()
    try:
        with serving("--data", str(folder), env=dict(os.environ), wait=60) as url:
            query = (f"{url}/api/kills", {"attacker": "Captain", "target": "MEQ"})
            status, headers, body = _get(*query)
            assert status == 503 and headers.get("Retry-After") == "5", body
            assert body["message"] == "compiling the game's data (10e), ready in about a minute"
            bundled = {"attacker": "Hexmark Destroyer", "target": "MEQ"}
            assert _get(f"{url}/api/kills", bundled)[0] == 200  # a bundled unit: no wait
            lock.close()  # the server's build goes on
            while (status := _get(*query)[0]) == 503 and time.monotonic() - start < 120:
                time.sleep(0.5)
            status, _headers, body = _get(*query)
            assert status == 200, body
            assert time.monotonic() - start < 120
            r = cli("kills", "Captain", "MEQ", "--data", str(folder),
                                         "--json")
            want = json.loads(r.stdout)
            assert (body["pmf"], body["mean"]) == (want["pmf"], want["mean"])
            # a data file removed while the server runs: compiled again the same way
            (folder / "Imperium - Blood Angels.cat").unlink()
            time.sleep(catalogue.RECHECK_SECONDS + 0.5)
            status, headers, body = _get(*query)
            assert status == 503 and headers.get("Retry-After") == "5", body
            while (status := _get(*query)[0]) == 503 and time.monotonic() - start < 240:
                time.sleep(0.5)
            assert status == 200
    finally:
        lock.close()
    assert _files(store.parent, ".*.tmp*") == []


def test_a_build_that_cannot_be_written_is_the_pages_one_line(data, tmp_path, monkeypatch):
    from mathhammer.jobs.compiling import Compiler

    (tmp_path / "file").write_text("")
    monkeypatch.setenv("MATHHAMMER_STORE", str(tmp_path / "file" / "stores"))
    monkeypatch.setenv("MATHHAMMER_DATA", str(data))
    compiler = Compiler()
    assert compiler.start()
    assert compiler.proc is not None and compiler.proc.wait(timeout=300) == 2
    for _ in range(100):
        if compiler.failed():
            break
        time.sleep(0.05)
    status, line, headers = compiler.answer("mathhammer: error: compiling ...", {})
    assert status == 503 and "Retry-After" not in headers
    assert line == (f"mathhammer: error: cannot write the compiled store of the 10e data in "
                    f"{tmp_path / 'file' / 'stores'}: Not a directory; make it writable, or set "
                    "$MATHHAMMER_STORE to another folder")


@pytest.mark.slow
@pytest.mark.browser
def test_the_page_says_the_data_is_compiling_and_answers_once_it_is_ready(cli, data):
    """The page shows the server's "compiling" line and asks again by itself (Retry-After):
    the answer appears without a reload, the line goes."""
    pytest.importorskip("uvicorn")
    sync_api = pytest.importorskip("playwright.sync_api")
    from test_web_browser import chromium, odds_line

    from mathhammer.web.background import serving

    browser_path = chromium()
    if browser_path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is not installed (.ci/run installs it)")
        pytest.skip("Chromium is not installed")
    folder = data / "10e"
    store = catalogue.store_path(folder, "10e")
    store.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as lock:
        lock.enter_context(store_files.build_lock(store))
        with serving("--data", str(folder), env=dict(os.environ), wait=60) as url, \
                sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=browser_path)
            page = browser.new_page()
            page.goto(f"{url}/#attacker=Captain&target=MEQ&k=1")
            notice = page.locator("#notice")
            sync_api.expect(notice).to_have_text(
                "compiling the game's data (10e), ready in about a minute", timeout=30000)
            lock.close()  # the server's build goes on
            _, exact = odds_line(cli, "Captain", "MEQ", "--at-least", "1", "--data", str(folder))
            sync_api.expect(page.locator("#odds-exact")).to_have_text(
                f"P(kills >= 1) = {exact}", timeout=120000)
            sync_api.expect(notice).to_be_hidden()
            browser.close()
