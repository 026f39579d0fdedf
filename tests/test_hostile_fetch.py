"""Hostile archives and HTTP for ``mathhammer data fetch`` (issue 24): each ends in one line
(exit status 2 on the command line) and leaves the installed data as it was, with no
temporary folder behind. The HTTP server is a socket on 127.0.0.1 in a thread here; it answers a
bounded number of requests and stops by itself. The archives are built in memory."""

from __future__ import annotations

import io
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from mathhammer.data.store import data_folder as datastore

ROOT = Path(__file__).resolve().parents[1]
BSDATA = Path(os.environ.get("MATHHAMMER_SHARED", ROOT.parent / "shared")) / "bsdata"
if not (BSDATA / "10e").is_dir():
    BSDATA = Path("/work/shared/bsdata")
GST, CAT = "Warhammer 40,000.gst", "Necrons.cat"
TOP = "wh40k-10e-main"


def _zip(files: list[tuple[str, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a duplicate name is the point of one test
        for name, data in files:
            z.writestr(name, data)
    return buf.getvalue()


def _real(name: str) -> bytes:
    return (BSDATA / "10e" / name).read_bytes()


def _good() -> list[tuple[str, bytes]]:
    return [(f"{TOP}/{GST}", _real(GST)), (f"{TOP}/{CAT}", _real(CAT)),
            (f"{TOP}/README.md", b"# BSData")]


class Server:
    """HTTP/1.1 on 127.0.0.1: ``routes`` maps a path to a function writing the raw response to
    the socket. At most ``requests`` connections, then (or after ``idle`` seconds without one)
    it stops."""

    def __init__(self, routes: dict[str, Callable[[socket.socket], None]], requests: int = 4,
                 idle: float = 20.0):
        self.routes = routes
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(idle)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, args=(requests,), daemon=True)
        self.thread.start()

    def _serve(self, requests: int) -> None:
        with self.sock:
            for _ in range(requests):
                try:
                    conn, _ = self.sock.accept()
                except OSError:
                    return
                with conn:
                    conn.settimeout(10)
                    try:
                        head = b""
                        while b"\r\n\r\n" not in head and len(head) < 65536:
                            head += conn.recv(4096) or b"\r\n\r\n"
                        path = head.split(b" ", 2)[1].decode()
                        self.routes.get(path, _not_found)(conn)
                    except (OSError, IndexError):  # the client gave up or sent nonsense
                        pass


def _not_found(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


def _body(data: bytes) -> Callable[[socket.socket], None]:
    def send(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: "
                     + str(len(data)).encode() + b"\r\nConnection: close\r\n\r\n" + data)
    return send


def _raw(data: bytes) -> Callable[[socket.socket], None]:
    return lambda conn: conn.sendall(data)


def _trickle(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\n")
    for _ in range(60):  # a byte every 0.1 s: never stalled, never done (bounded: 6 s)
        conn.sendall(b"P")
        time.sleep(0.1)


def _stall(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\nConnection: close\r\n\r\nPK")
    time.sleep(3)


def _zeros(conn: socket.socket) -> None:  # no length, no end (bounded: 8 MB)
    conn.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
    for _ in range(128):
        conn.sendall(bytes(1 << 16))


@pytest.fixture()
def installed(tmp_path):
    """A data folder with the real 10e game system and Necrons installed; yields the folder
    and a snapshot check that nothing in it changed."""
    if not (BSDATA / "10e").is_dir():
        pytest.skip(f"shared BattleScribe data not found at {BSDATA}")
    root = tmp_path / "data"
    (root / "10e").mkdir(parents=True)
    for name in (GST, CAT):
        shutil.copy(BSDATA / "10e" / name, root / "10e" / name)

    def snapshot() -> dict[str, tuple[int, int]]:
        return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.stat().st_size)
                for p in root.rglob("*")}

    before = snapshot()
    yield root
    assert snapshot() == before  # nothing changed, no temporary folder left


def _fails(root: Path, url: str, **kwargs) -> str:
    with pytest.raises(ValueError) as e:
        datastore.fetch("10e", url=url, root=root, **kwargs)
    line = str(e.value)
    assert "\n" not in line
    return line


def _bomb(size: int) -> bytes:
    """A member of ``size`` zero bytes: the zip is about a thousandth of it."""
    return _zip([*_good()[:1], (f"{TOP}/Bomb.cat", bytes(size))])


# --- archives ----------------------------------------------------------------------------------


def test_a_zip_bomb_is_refused(installed):
    archive = _bomb(65_000_000)
    assert len(archive) < 200_000  # 65 MB from a zip of a few dozen KB
    srv = Server({"/bomb.zip": _body(archive)}, requests=1)
    assert _fails(installed, f"{srv.url}/bomb.zip") == (
        f"{srv.url}/bomb.zip: '{TOP}/Bomb.cat' unpacks to 65000000 bytes, over the limit of "
        "64000000 (mathhammer.limits.MAX_CATALOGUE_BYTES)")


def test_a_member_that_lies_about_its_size_is_stopped_while_unpacking(installed, monkeypatch):
    monkeypatch.setattr("mathhammer.limits.MAX_CATALOGUE_BYTES", 1_000_000)
    archive = bytearray(_bomb(3_000_000))
    # the central directory says 3,000,000 bytes: say 1,000 (offset 24 of the entry)
    entry = archive.rindex(b"PK\x01\x02")
    archive[entry + 24:entry + 28] = (1000).to_bytes(4, "little")
    srv = Server({"/lie.zip": _body(bytes(archive))}, requests=1)
    line = _fails(installed, f"{srv.url}/lie.zip")
    assert line.startswith(f"{srv.url}/lie.zip: ")
    assert ("unpacks to more than 1000000 bytes" in line  # counted while writing
            or "not a zip archive, or a damaged one" in line)  # or zipfile saw the lie


def test_the_total_unpacked_size_is_bounded(installed, monkeypatch):
    monkeypatch.setattr(datastore, "MAX_EXTRACTED_BYTES", 1_000_000)
    archive = _zip([*_good(), *((f"{TOP}/Pad{i}.cat", bytes(400_000)) for i in range(3))])
    srv = Server({"/big.zip": _body(archive)}, requests=1)
    assert _fails(installed, f"{srv.url}/big.zip") == (
        f"{srv.url}/big.zip: the archive unpacks to more than 1000000 bytes "
        "(mathhammer.data.store.data_folder.MAX_EXTRACTED_BYTES)")


@pytest.mark.parametrize(("second", "shown"), [
    (f"{TOP}/Necrons.cat", f"'{TOP}/Necrons.cat' and '{TOP}/Necrons.cat'"),
    (f"{TOP}/old/Necrons.cat", f"'{TOP}/Necrons.cat' and '{TOP}/old/Necrons.cat'"),
    (f"{TOP}/NECRONS.CAT", f"'{TOP}/Necrons.cat' and '{TOP}/NECRONS.CAT'"),
])
def test_two_members_with_one_name_are_refused(installed, second, shown):
    impostor = b'<catalogue id="x" name="Necrons" gameSystemId="sys-352e-adc2-7639-d6a9"/>'
    archive = _zip([*_good(), (second, impostor)])
    srv = Server({"/dup.zip": _body(archive)}, requests=1)
    assert _fails(installed, f"{srv.url}/dup.zip") == (
        f"{srv.url}/dup.zip: the archive has two data files named "
        f"{Path(second).name!r} ({shown})")


def test_an_archive_of_junk_is_refused(installed):
    srv = Server({"/junk.zip": _body(_zip([("x.gst", b"junk"), ("a.cat", b"junk")]))},
                 requests=1)
    line = _fails(installed, f"{srv.url}/junk.zip")
    assert line.startswith(f"{srv.url}/junk.zip: a.cat is not BattleScribe data (not a "
                           "well-formed XML file (syntax error: line 1, column 0))")


def test_a_catalogue_of_another_kind_is_refused(installed):
    srv = Server({"/kind.zip": _body(_zip([*_good()[:1], (
        "a.cat", b'<gameSystem id="y" name="Impostor"/>')]))}, requests=1)
    assert _fails(installed, f"{srv.url}/kind.zip") == (
        f"{srv.url}/kind.zip: a.cat is a gameSystem, expected a catalogue")


def _patched(method: int | None = None, flags: int | None = None, corrupt: bool = False
             ) -> bytes:
    """The good archive, stored, with its first member's compression method or flags changed
    (local header and central directory) or its data damaged."""
    data = bytearray(_zip(_good(), zipfile.ZIP_STORED))
    local, central = 0, data.index(b"PK\x01\x02")
    if method is not None:
        data[local + 8:local + 10] = data[central + 10:central + 12] = method.to_bytes(2, "little")
    if flags is not None:
        data[local + 6:local + 8] = data[central + 8:central + 10] = flags.to_bytes(2, "little")
    if corrupt:
        start = local + 30 + int.from_bytes(data[local + 26:local + 28], "little")
        data[start + 100:start + 110] = b"\x00" * 10
    return bytes(data)


@pytest.mark.parametrize(("archive", "line"), [
    (_patched(method=99), "'{TOP}/{GST}' is compressed with a method zipfile cannot unpack "
                          "(method 99)"),
    (_patched(flags=1), "'{TOP}/{GST}' is encrypted"),
    (_patched(corrupt=True), "not a zip archive, or a damaged one (Bad CRC-32 for file "
                             "'{TOP}/{GST}')"),
], ids=["method", "encrypted", "corrupt"])
def test_a_member_that_cannot_be_unpacked(installed, archive, line):
    srv = Server({"/m.zip": _body(archive)}, requests=1)
    assert _fails(installed, f"{srv.url}/m.zip") == (f"{srv.url}/m.zip: "
                                                       + line.format(TOP=TOP, GST=GST))


# --- HTTP --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("route", "line"), [
    (_raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100\r\nPK\x03\x04"),
     "download failed (a malformed HTTP response: IncompleteRead: IncompleteRead(0 bytes "
     "read))"),
    (_raw(b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 65536 + b"\r\n\r\n"),
     "download failed (a malformed HTTP response: LineTooLong: got more than 65536 bytes when "
     "reading header line)"),
    (_raw(b"HTTP/1.1 200 OK\r\nContent-Length: 900000000\r\n\r\n"),
     "the archive is 900000000 bytes, over the limit of 200000000 "
     "(mathhammer.data.store.data_folder.MAX_DOWNLOAD_BYTES)"),
    (_raw(b"HTTP/1.1 302 Found\r\nLocation: file:///dev/zero\r\nContent-Length: 0\r\n\r\n"),
     "download failed (Found - Redirection to url 'file:///dev/zero' is not allowed)"),
    (_raw(b"garbage\r\n\r\n"),
     "download failed (a malformed HTTP response: BadStatusLine: garbage)"),
], ids=["truncated-chunked", "long-header", "huge-length", "redirect-to-file", "garbage"])
def test_malformed_http_is_one_line(installed, route, line):
    srv = Server({"/x.zip": route}, requests=1)
    got = _fails(installed, f"{srv.url}/x.zip")
    assert got == (line if line.startswith("--url") else f"{srv.url}/x.zip: {line}")


def test_an_endless_download_stops_at_the_limit(installed, monkeypatch):
    monkeypatch.setattr(datastore, "MAX_DOWNLOAD_BYTES", 1_000_000)
    srv = Server({"/zero": _zeros}, requests=1)
    assert _fails(installed, f"{srv.url}/zero") == (
        f"{srv.url}/zero: the download is over the limit of 1000000 bytes "
        "(mathhammer.data.store.data_folder.MAX_DOWNLOAD_BYTES)")


def test_a_trickle_stops_at_the_deadline(installed):
    srv = Server({"/slow.zip": _trickle}, requests=1)
    start = time.monotonic()
    assert _fails(installed, f"{srv.url}/slow.zip", deadline=1.0) == (
        f"{srv.url}/slow.zip: the fetch took longer than 1 s "
        "(mathhammer.data.store.data_folder.FETCH_SECONDS)")
    assert time.monotonic() - start < 3


def test_a_stalled_download_stops(installed):
    srv = Server({"/stall.zip": _stall}, requests=1)
    assert _fails(installed, f"{srv.url}/stall.zip", timeout=0.5) == (
        f"{srv.url}/stall.zip: download failed (no data for 0.5 s; "
        "mathhammer.data.store.data_folder.STALL_SECONDS)")


@pytest.mark.parametrize(("url", "line"), [
    ("file:///dev/zero", "--url 'file:///dev/zero': expected an http:// or https:// URL"),
    ("http://127.0.0.1:1/x\r\nHost: evil", "--url 'http://127.0.0.1:1/x\\r\\nHost: evil': a "
                                           "URL has no spaces or control characters"),
    ("ftp://example.com/x.zip", "--url 'ftp://example.com/x.zip': expected an http:// or "
                                "https:// URL"),
    ("http://127.0.0.1:99999/x", "--url 'http://127.0.0.1:99999/x': Port out of range "
                                 "0-65535"),
])
def test_a_bad_url_is_one_line_on_the_command_line(installed, url, line):
    r = subprocess.run([sys.executable, "-m", "mathhammer", "data", "fetch", "--url", url,
                        "--data", str(installed)], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (r.returncode, r.stderr, r.stdout) == (2, f"mathhammer: error: {line}\n", "")


def test_a_truncated_body_is_one_line_on_the_command_line(installed):
    srv = Server({"/t.zip": _raw(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\nPK\x03")},
                 requests=1)
    r = subprocess.run([sys.executable, "-m", "mathhammer", "data", "fetch", "--url",
                        f"{srv.url}/t.zip", "--data", str(installed)], capture_output=True,
                       text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (r.returncode, r.stderr, r.stdout) == (
        2, f"mathhammer: error: {srv.url}/t.zip: download failed (the connection closed after 3 "
           "of 5000 bytes)\n", "")


# --- temporary folders -------------------------------------------------------------------------


def test_a_killed_fetchs_folder_is_swept_and_a_signal_cleans_up(installed):
    dead = installed / ".10e-fetch-999999999-abc"  # no such process
    dead.mkdir()
    (dead / "archive.zip").write_bytes(b"PK")
    srv = Server({"/slow.zip": _trickle}, requests=1)
    code = ("import sys; from mathhammer.data.store import data_folder as datastore\n"
            f"datastore.fetch('10e', url='{srv.url}/slow.zip', root=sys.argv[1])")
    proc = subprocess.Popen([sys.executable, "-c", code, str(installed)],
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    for _ in range(100):  # until its own temporary folder exists (the dead one is gone)
        mine = [p for p in installed.iterdir() if p.name.startswith(f".10e-fetch-{proc.pid}-")]
        if mine and not dead.exists():
            break
        time.sleep(0.05)
    assert mine and not dead.exists()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 1  # an uncaught InputError in a bare script
    assert err.strip().splitlines()[-1] == (
        f"mathhammer.errors.InputError: {srv.url}/slow.zip: fetch stopped by signal 15; the "
        "installed data is unchanged")
    assert not mine[0].exists()


def test_a_good_archive_still_installs(tmp_path):
    if not (BSDATA / "10e").is_dir():
        pytest.skip(f"shared BattleScribe data not found at {BSDATA}")
    srv = Server({"/good.zip": _body(_zip(_good()))}, requests=1)
    info = datastore.fetch("10e", url=f"{srv.url}/good.zip", root=tmp_path / "data")
    assert (info.edition, info.catalogues) == ("10e", 1)
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["10e"]
