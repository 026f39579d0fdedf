"""Where the BattleScribe data lives, and fetching it; the index of its units is
:mod:`mathhammer.data.store.index`.

The data folder is ``--data DIR``, else ``$MATHHAMMER_DATA``, else ``bsdata/`` in the user's
cache folder (``platformdirs``). A data folder holds either the files of one edition (``.cat``
and ``.gst`` for 10e, ``.json`` for 11e) or one folder per edition (``10e/``, ``11e/``), which
is how ``mathhammer data fetch`` installs them.

Why one module: what ``data fetch`` may install is what the rest of this module reads (the
edition layout, the game system, ``.mathhammer.json``); its limits and checks on a hostile
download (sizes, time, duplicate names, files that must parse, temporary folders swept) stay
beside that layout rather than in a second module that would have to know it too.

>>> edition_of_files(["Necrons.cat", "Warhammer 40,000.gst"])
'10e'
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal, cast

import attrs

from ...cache import cached
from ...errors import InputError
from ..bsdata.formats import EDITION_SUFFIXES, edition_of_file

Edition = Literal["10e", "11e"]
EDITIONS: tuple[Edition, ...] = ("10e", "11e")
#: the file suffixes of each edition's data
SUFFIXES: dict[Edition, tuple[str, ...]] = EDITION_SUFFIXES
REPOSITORY = "https://github.com/BSData/wh40k-{edition}/archive/refs/heads/main.zip"
ENV = "MATHHAMMER_DATA"


def cache_dir() -> Path:
    """The user's cache folder for mathhammer (platform convention)."""
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("mathhammer", appauthor=False))


def default_root() -> Path:
    """Where ``data fetch`` installs the data: ``bsdata/`` in the cache folder."""
    return cache_dir() / "bsdata"


def data_root(data: str | os.PathLike | None = None) -> Path:
    """The data folder: ``data``, else ``$MATHHAMMER_DATA``, else the cache's ``bsdata/``."""
    if data is not None and str(data) != "":
        root = Path(data).expanduser()
        if not root.is_dir():
            raise InputError(f"--data {data}: no such folder")
        return root
    env = os.environ.get(ENV, "").strip()
    if env:
        root = Path(env).expanduser()
        if not root.is_dir():
            raise InputError(f"${ENV} {env}: no such folder")
        return root
    return default_root()


def edition_of_files(names: Iterable[str]) -> Edition | None:
    """The edition a set of file names belongs to (``.json`` is 11e, ``.cat``/``.gst`` 10e;
    any 11e file makes it 11e)."""
    found = {edition_of_file(n) for n in names}
    return "11e" if "11e" in found else "10e" if "10e" in found else None


def edition_files(folder: Path, edition: Edition, fresh: bool = False) -> list[Path]:
    """The data files of ``edition`` in ``folder``, sorted (listed again when the folder's
    modification time changes: a file added, removed or renamed; a folder changed in the
    last two seconds is listed every time, as its time may not have ticked yet; ``fresh``:
    listed now)."""
    try:
        changed = folder.stat().st_mtime_ns
    except OSError:
        return []
    if fresh or time.time_ns() - changed < 2_000_000_000:
        return list(cast(Any, _edition_files).__wrapped__(folder, edition, changed))
    return list(_edition_files(folder, edition, changed))


@cached(maxsize=64)
def _edition_files(folder: Path, edition: Edition, _mtime: int) -> tuple[Path, ...]:
    try:
        return tuple(sorted(p for p in folder.iterdir()
                            if p.is_file() and p.name.lower().endswith(SUFFIXES[edition])
                            and not p.name.startswith(".")))
    except OSError:
        return ()


def edition_dir(edition: Edition, data: str | os.PathLike | None = None) -> Path:
    """The folder holding the files of ``edition``: the data folder itself when it holds that
    edition's files, else its ``10e``/``11e`` subfolder.

    Raises ValueError (one line, saying how to get the data) when there is none.
    """
    root = data_root(data)
    for folder in (root, root / edition):
        if folder.is_dir() and edition_files(folder, edition):
            return folder
    raise InputError(f"no {edition} BattleScribe data in {root}; run `mathhammer data fetch "
                     f"--edition {edition}` (or give --data DIR)")


def installed_editions(data: str | os.PathLike | None = None) -> list[Edition]:
    """The editions with files in the data folder."""
    out: list[Edition] = []
    for ed in EDITIONS:
        try:
            edition_dir(ed, data)
        except ValueError:
            continue
        out.append(ed)
    return out


def default_edition(data: str | os.PathLike | None = None) -> Edition:
    """The edition a command reads when none is given: the data's (``data``, else
    ``$MATHHAMMER_DATA``, else the cache) when it holds one edition, else 10e (a folder that is
    not there is said where the data is read)."""
    try:
        have = installed_editions(data)
    except (ValueError, OSError):
        return "10e"
    return have[0] if len(have) == 1 else "10e"


# --------------------------------------------------------------------------- status and fetch


@attrs.frozen
class Installed:
    """What ``data status`` reports for one edition."""

    edition: Edition
    folder: Path
    catalogues: int
    source: str = ""
    date: str = ""


def status(data: str | os.PathLike | None = None) -> list[Installed]:
    """The installed editions with their source, date and number of catalogues."""
    out = []
    for ed in installed_editions(data):
        folder = edition_dir(ed, data)
        files = edition_files(folder, ed)
        info: dict = {}
        meta = folder / ".mathhammer.json"
        if meta.is_file():
            try:
                info = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                info = {}
        cats = [f for f in files if not is_game_system(f)]
        out.append(Installed(ed, folder, len(cats), str(info.get("source", "")),
                             str(info.get("date", ""))))
    return out


def is_game_system(path: Path) -> bool:
    """Whether a data file is the game system (``.gst``, or the 11e ``Warhammer 40,000``)."""
    return path.suffix.lower() == ".gst" or path.stem == "Warhammer 40,000"


#: Limits of ``data fetch``, far above the real data (the whole 10e data is 47 files, 38 MB
#: unpacked, the largest file 3.8 MB; 11e 42 files, 43 MB; each repository's zip is a few MB).
MAX_DOWNLOAD_BYTES = 200_000_000
#: Bytes unpacked from one archive, all its data files together.
MAX_EXTRACTED_BYTES = 500_000_000
#: Members (files and folders) of one archive.
MAX_ARCHIVE_MEMBERS = 20_000
#: Seconds a download may go without receiving a byte.
STALL_SECONDS = 60.0
#: Seconds a whole fetch (download and unpacking) may take.
FETCH_SECONDS = 900.0
_TMP = "-fetch-"


class _Interrupted(BaseException):
    """A signal asked the fetch to stop (so its temporary folder is removed)."""


def check_url(url: str) -> str:
    """An http(s) URL without spaces or control characters (nothing else is fetched).

    >>> check_url("file:///dev/zero")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: --url 'file:///dev/zero': expected an http:// or https:// URL
    """
    from urllib.parse import urlsplit

    if not isinstance(url, str) or any(c.isspace() or ord(c) < 32 or ord(c) == 127
                                       for c in url):
        raise InputError(f"--url {url!r}: a URL has no spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a bad port is a ValueError here
    except ValueError as e:
        raise InputError(f"--url {url!r}: {e}") from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise InputError(f"--url {url!r}: expected an http:// or https:// URL")
    return url


def sweep(base: Path) -> list[Path]:
    """Remove the temporary folders of fetches that ended without removing theirs (killed):
    ``.EDITION-fetch-PID-*`` whose process is gone. Returns what was removed."""
    removed = []
    for edition in EDITIONS:
        for p in base.glob(f".{edition}{_TMP}*"):
            pid = p.name[len(edition) + 1 + len(_TMP):].split("-", 1)[0]
            alive = pid.isdigit() and _alive(int(pid))
            if p.is_dir() and not alive:
                shutil.rmtree(p, ignore_errors=True)
                removed.append(p)
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process
    return True


@contextlib.contextmanager
def _signals_raise() -> Iterator[None]:
    """SIGTERM and SIGHUP stop the fetch through its ``finally`` (the main thread only)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame: object) -> None:
        raise _Interrupted(signum)

    names = [n for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)]
    old = {n: signal.signal(getattr(signal, n), stop) for n in names}
    try:
        yield
    finally:
        for n, handler in old.items():
            signal.signal(getattr(signal, n), handler)


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGTERM and SIGHUP wait until the block ends (where the platform can hold them)."""
    import signal

    held = {getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def fetch(edition: Edition, url: str | None = None, root: str | os.PathLike | None = None,
          progress: Callable[[int, int | None], None] | None = None,
          timeout: float = STALL_SECONDS, deadline: float = FETCH_SECONDS) -> Installed:
    """Download the BSData repository archive of ``edition`` and install it atomically in
    ``root/edition`` (default: the cache's ``bsdata/``).

    The archive is downloaded and unpacked in a temporary folder beside the target (within
    :data:`MAX_DOWNLOAD_BYTES`, :data:`MAX_EXTRACTED_BYTES`, ``timeout`` seconds without a
    byte and ``deadline`` seconds in all), checked (the edition's game system and catalogues,
    every file parsed, no two with one name), then renamed into place; on any error or signal
    the installed data is left as it was and the temporary folder removed (one left by a
    killed fetch is removed by the next). ``progress(done, total)`` is called as bytes arrive.
    """
    if edition not in EDITIONS:
        raise InputError(f"--edition {edition!r}: expected one of {', '.join(EDITIONS)}")
    url = check_url(url or REPOSITORY.format(edition=edition))
    base = Path(root).expanduser() if root is not None else data_root(None)
    created = not base.exists()
    base.mkdir(parents=True, exist_ok=True)
    sweep(base)
    target = base / edition
    tmp: Path | None = None
    ok = False
    try:
        with _signals_raise():
            with _signals_held():  # a signal between making the folder and naming it waits
                tmp = Path(tempfile.mkdtemp(prefix=f".{edition}{_TMP}{os.getpid()}-", dir=base))
            end = time.monotonic() + deadline
            archive = tmp / "archive.zip"
            _download(url, archive, progress, timeout, end, deadline)
            unpacked = tmp / edition
            _unpack(archive, unpacked, edition, url, end, deadline)
            _check_parses(unpacked, edition, url)
            (unpacked / ".mathhammer.json").write_text(json.dumps({
                "edition": edition, "source": url,
                "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            }), encoding="utf-8")
            with _signals_held():  # the two renames are not interrupted between them
                old = tmp / "old"
                if target.exists():
                    target.rename(old)
                try:
                    unpacked.rename(target)
                except OSError:
                    if old.exists():
                        old.rename(target)
                    raise
                ok = True
    except _Interrupted as e:
        done = "the new data is installed" if ok else "the installed data is unchanged"
        raise InputError(f"{url}: fetch stopped by signal {e.args[0]}; {done}") from None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        if created and not ok:
            with contextlib.suppress(OSError):
                base.rmdir()
    return next(i for i in status(base) if i.edition == edition)


def _download(url: str, archive: Path, progress: Callable[[int, int | None], None] | None,
              timeout: float, end: float, deadline: float) -> None:
    """Write the archive at ``url`` to ``archive`` within the limits (one-line errors)."""
    import http.client
    import urllib.error
    import urllib.request

    class NoOtherSchemes(urllib.request.HTTPRedirectHandler):
        """Redirects to http(s) only (not ``file:`` or ``ftp:``)."""

        def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001
            check_url(newurl)
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    opener = urllib.request.build_opener(NoOtherSchemes)
    try:
        with opener.open(url, timeout=timeout) as response, archive.open("wb") as out:
            total = response.headers.get("Content-Length")
            total_n = int(total) if total and total.isdigit() else None
            if total_n is not None and total_n > MAX_DOWNLOAD_BYTES:
                raise InputError(f"{url}: the archive is {total_n} bytes, over the limit of "
                                 f"{MAX_DOWNLOAD_BYTES} (mathhammer.data.store.data_folder."
                                 "MAX_DOWNLOAD_BYTES)")
            done = 0
            while chunk := response.read1(1 << 16):
                done += len(chunk)
                if done > MAX_DOWNLOAD_BYTES:
                    raise InputError(f"{url}: the download is over the limit of "
                                     f"{MAX_DOWNLOAD_BYTES} bytes (mathhammer.data.store."
                                     "data_folder.MAX_DOWNLOAD_BYTES)")
                if time.monotonic() > end:
                    raise InputError(f"{url}: the fetch took longer than {deadline:g} s "
                                     "(mathhammer.data.store.data_folder.FETCH_SECONDS)")
                out.write(chunk)
                if progress is not None:
                    progress(done, total_n)
            if total_n is not None and done < total_n:
                raise InputError(f"{url}: download failed (the connection closed after {done} "
                                 f"of {total_n} bytes)")
    except InputError:
        raise
    except TimeoutError:
        raise InputError(f"{url}: download failed (no data for {timeout:g} s; "
                         "mathhammer.data.store.data_folder.STALL_SECONDS)") from None
    except http.client.HTTPException as e:
        raise InputError(f"{url}: download failed (a malformed HTTP response: "
                         f"{type(e).__name__}{': ' if str(e) else ''}{_short(e)})") from None
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        if isinstance(reason, TimeoutError):
            raise InputError(f"{url}: download failed (no data for {timeout:g} s; "
                             "mathhammer.data.store.data_folder.STALL_SECONDS)") from None
        raise InputError(f"{url}: download failed ({_short(reason)})") from None


def _short(e: object) -> str:
    text = " ".join(str(e).split())
    return text if len(text) <= 120 else text[:117] + "..."


def _unpack(archive: Path, dest: Path, edition: Edition, url: str, end: float,
            deadline: float) -> None:
    """Extract the data files of the archive (flattened: GitHub archives hold one top folder)
    within the limits, and check that they are the edition's data."""
    import zlib
    from pathlib import PurePosixPath

    from ...limits import MAX_CATALOGUE_BYTES

    try:
        with zipfile.ZipFile(archive) as z:
            infos = z.infolist()
            if len(infos) > MAX_ARCHIVE_MEMBERS:
                raise InputError(f"{url}: the archive has {len(infos)} members, over the limit "
                                 f"of {MAX_ARCHIVE_MEMBERS} (mathhammer.data.store.data_folder."
                                 "MAX_ARCHIVE_MEMBERS)")
            chosen: dict[str, tuple[str, zipfile.ZipInfo]] = {}
            for m in infos:
                path = PurePosixPath(m.filename.replace("\\", "/"))
                name = path.name
                if (m.is_dir() or not name.lower().endswith(SUFFIXES[edition])
                        or any(part.startswith(".") for part in path.parts)):
                    continue
                key = name.casefold()
                if key in chosen:
                    raise InputError(f"{url}: the archive has two data files named {name!r} "
                                     f"({chosen[key][1].filename!r} and {m.filename!r})")
                chosen[key] = (name, m)
            dest.mkdir()
            total = 0
            for name, m in chosen.values():
                if m.file_size > MAX_CATALOGUE_BYTES:
                    raise InputError(f"{url}: {m.filename!r} unpacks to {m.file_size} bytes, "
                                     f"over the limit of {MAX_CATALOGUE_BYTES} "
                                     "(mathhammer.limits.MAX_CATALOGUE_BYTES)")
                written = 0
                try:
                    src = z.open(m)
                except NotImplementedError:
                    raise InputError(f"{url}: {m.filename!r} is compressed with a method "
                                     f"zipfile cannot unpack (method {m.compress_type})"
                                     ) from None
                except RuntimeError:
                    raise InputError(f"{url}: {m.filename!r} is encrypted") from None
                with src, (dest / name).open("wb") as out:
                    while block := src.read(1 << 16):
                        written += len(block)
                        total += len(block)
                        if written > MAX_CATALOGUE_BYTES:
                            raise InputError(f"{url}: {m.filename!r} unpacks to more than "
                                             f"{MAX_CATALOGUE_BYTES} bytes "
                                             "(mathhammer.limits.MAX_CATALOGUE_BYTES)")
                        if total > MAX_EXTRACTED_BYTES:
                            raise InputError(f"{url}: the archive unpacks to more than "
                                             f"{MAX_EXTRACTED_BYTES} bytes (mathhammer.data."
                                             "store.data_folder.MAX_EXTRACTED_BYTES)")
                        if time.monotonic() > end:
                            raise InputError(f"{url}: the fetch took longer than {deadline:g} "
                                             "s (mathhammer.data.store.data_folder.FETCH_SECONDS)")
                        out.write(block)
    except InputError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError) as e:
        raise InputError(f"{url}: not a zip archive, or a damaged one ({_short(e)})") from None
    except (NotImplementedError, RuntimeError) as e:  # a method or encryption zipfile lacks
        raise InputError(f"{url}: a member of the archive cannot be unpacked ({_short(e)})"
                         ) from None
    files = edition_files(dest, edition)
    if not any(is_game_system(f) for f in files):
        raise InputError(f"{url}: the archive holds no {edition} game system file "
                         f"({' or '.join(SUFFIXES[edition])}); is it the {edition} data?")
    if len(files) < 2:
        raise InputError(f"{url}: the archive holds no {edition} catalogues")


def _check_parses(folder: Path, edition: Edition, url: str) -> None:
    """Every data file of a fetched folder parses as BattleScribe data of its kind: a game
    system, and catalogues of that game system."""
    from ..bsdata.files import load_file

    kinds: dict[str, str] = {}
    system_id = ""
    for f in edition_files(folder, edition):
        try:
            cat = load_file(f)
        except ValueError as e:
            raise InputError(f"{url}: {f.name} is not BattleScribe data "
                             f"({_short(str(e).removeprefix(str(f) + ': '))})") from None
        want = "gameSystem" if is_game_system(f) else "catalogue"
        if cat.kind != want:
            raise InputError(f"{url}: {f.name} is a {cat.kind or 'file of no kind'}, expected a "
                             f"{want}")
        kinds[f.name] = cat.game_system_id
        if want == "gameSystem":
            system_id = cat.id
    wrong = sorted(n for n, gid in kinds.items() if gid and gid != system_id)
    if wrong:
        raise InputError(f"{url}: {wrong[0]} is a catalogue of another game system")
