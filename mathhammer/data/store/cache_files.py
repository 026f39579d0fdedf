"""The files of the compiled stores (:mod:`mathhammer.data.store.compiled`) in the cache folder:
where they live, the fingerprint that names each, the seal that vouches for it, the lock of a
build, the temporary files of a build and which old stores are removed.

A store is named by its **fingerprint**: the schema version, the content of the code that
shapes it (:data:`SHAPING`, hashed: not the files' times, so a reinstall of the same code keeps
it), the data folder and the content of its data files. Hashing is done once per file content:
each file's (size, modification time, inode) is kept with its hash in a small memo beside the
stores, and a file is read again only when those change. Several installs and data folders
share one cache folder without rebuilding each other's stores: each has its own file.

Beside each store its **seal** (``NAME.json``) records the store's size, time, inode and
SHA-256 as built, and the data folder it is of; a store whose file no longer matches its seal
(written into since) is damaged and is built again. The seal's modification time is when the
store was last used; :func:`prune` removes the stores unused for :data:`UNUSED_DAYS` days, those
past the :data:`KEEP_PER_FOLDER` most recently used of one data folder and edition, and those of
data folders that are gone.

>>> fingerprint_of({"schema": 9, "files": []})[:12]
'488ae81dbd49'
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ...cache import cached
from ...errors import InputError

#: The folder of the stores instead of ``catalogue/`` in the cache folder.
STORE_ENV = "MATHHAMMER_STORE"
#: The code a store's content depends on (folders and files under the package): what a build
#: imports (``tests/test_store.py`` checks that a build reads no other module of mathhammer).
SHAPING = ("*.py", "data/**/*.py", "model/**/*.py", "prob/**/*.py")
#: A store not used for this many days is removed by the next build.
UNUSED_DAYS = 30
#: Stores kept per data folder and edition (the most recently used): other versions of the
#: code or of the data files; older ones are removed by the next build.
KEEP_PER_FOLDER = 3
#: A file changed this recently is hashed again at its next use even if its size and time stay
#: (a file system's clock may not have ticked between two writes).
RACY_NS = 2_000_000_000
#: A store's seal is touched (its use recorded) at most this often.
TOUCH_SECONDS = 3600.0

_SQLITE_DAMAGE = {10, 11, 14, 26}  # SQLITE_IOERR, _CORRUPT, _CANTOPEN, _NOTADB


def store_folder() -> Path:
    """The folder of the stores: ``$MATHHAMMER_STORE``, else ``catalogue/`` in the cache."""
    from .data_folder import cache_dir

    base = os.environ.get(STORE_ENV, "").strip()
    return Path(base).expanduser() if base else cache_dir() / "catalogue"


def fingerprint_of(basis: Any) -> str:
    """The SHA-256 of a JSON value (the fingerprint of what a store is built from)."""
    return hashlib.sha256(json.dumps(basis, sort_keys=True).encode()).hexdigest()


def stat_of(path: Path) -> tuple[int, int, int]:
    """(size, modification time in ns, inode): what the memo compares before hashing."""
    st = path.stat()
    return st.st_size, st.st_mtime_ns, st.st_ino


def sha256_of(path: Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_json(path: Path, value: Any) -> bool:
    """Write a small JSON file atomically (a temporary file renamed); False where the folder
    cannot be written (a memo or a touch is then simply not kept)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked_temp(path.parent, path.stem) as (fd, tmp):
            os.write(fd, json.dumps(value).encode())
            os.replace(tmp, path)
    except OSError:
        return False
    return True


def digests(files: Sequence[Path], folder: Path,
            stamps: Sequence[tuple[int, int, int]] | None = None) -> list[str]:
    """The SHA-256 of each file under ``folder``: read from the folder's memo when a file's
    (size, time, inode) is as recorded there (``stamps``, given when already known), else
    hashed (and the memo written again, when the folder of the stores can be written)."""
    if not files:
        return []
    stamps = [stat_of(p) for p in files] if stamps is None else stamps
    memo = store_folder() / f"files-{_key(folder)}.json"
    kept = _read_json(memo)
    known = kept.get("files", {}) if isinstance(kept, dict) else {}
    out: list[str] = []
    fresh: dict[str, list] = {}
    changed = False
    now = time.time_ns()
    for p, stamp in zip(files, stamps, strict=True):
        name = p.name if p.parent == folder else str(p.relative_to(folder))
        got = known.get(name)
        if isinstance(got, list) and len(got) == 4 and tuple(got[:3]) == tuple(stamp):
            out.append(got[3])
            fresh[name] = got
            continue
        digest = sha256_of(p)
        out.append(digest)
        if now - stamp[1] > RACY_NS:
            fresh[name] = [*stamp, digest]
        changed = True
    if changed or len(fresh) != len(known):
        write_json(memo, {"folder": str(folder.resolve()), "files": fresh})
    return out


def _key(folder: Path) -> str:
    return hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:16]


@cached(maxsize=1)
def code_digest() -> str:
    """The fingerprint of the code that shapes a store (:data:`SHAPING`, by content; once per
    process: a process runs the code it imported)."""
    root = Path(__file__).resolve().parents[2]
    files = sorted({p for pattern in SHAPING for p in root.glob(pattern)
                    if "__pycache__" not in p.parts})
    rel = [str(p.relative_to(root)) for p in files]
    return fingerprint_of(list(zip(rel, digests(files, root), strict=True)))


# ---------------------------------------------------------------- seals


def seal_path(store: Path) -> Path:
    return store.with_suffix(".json")


def seal(tmp: Path, store: Path, info: dict[str, Any]) -> None:
    """Write the seal of ``store`` for its content built in ``tmp`` (renamed to ``store`` next:
    a rename keeps the size, time and inode)."""
    size, mtime, ino = stat_of(tmp)
    value = {**info, "store": store.name, "size": size, "mtime_ns": mtime, "ino": ino,
             "sha256": sha256_of(tmp)}
    with locked_temp(store.parent, store.stem) as (fd, part):
        os.write(fd, json.dumps(value).encode())
        os.fsync(fd)
        os.replace(part, seal_path(store))


def sealed(store: Path) -> str:
    """Whether ``store`` is a complete store as its build wrote it: ``"ok"``; ``"missing"``
    (no store, or no seal); ``"changed"`` (its content differs from its seal's: damaged). A
    store whose time changed but not its content is sealed again. Records its use."""
    info = _read_json(seal_path(store))
    try:
        stamp = stat_of(store)
    except OSError:
        return "missing"
    if not isinstance(info, dict) or "sha256" not in info:
        return "missing"
    if [info.get("size"), info.get("mtime_ns"), info.get("ino")] != list(stamp):
        if stamp[0] != info.get("size") or sha256_of(store) != info["sha256"]:
            return "changed"
        write_json(seal_path(store), {**info, "size": stamp[0], "mtime_ns": stamp[1],
                                      "ino": stamp[2]})
    _touch(seal_path(store))
    return "ok"


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):
        if time.time() - path.stat().st_mtime > TOUCH_SECONDS:
            os.utime(path)


def remove_store(store: Path) -> None:
    """Delete a store and its seal (a process reading it keeps its open file)."""
    for p in (store, seal_path(store)):
        with contextlib.suppress(OSError):
            p.unlink()


def is_damage(e: Exception) -> bool:
    """Whether a SQLite error says the store's file is damaged or gone (not a wrong query)."""
    code = getattr(e, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _SQLITE_DAMAGE:
        return True
    text = str(e).lower()
    return any(w in text for w in ("malformed", "not a database", "unable to open"))


# ---------------------------------------------------------------- locks and temporary files


try:
    import fcntl
except ImportError:  # Windows: no locks (one build at a time is not enforced there)
    fcntl = None  # type: ignore[assignment]


def _try_lock(fd: int) -> bool:
    if fcntl is None:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextlib.contextmanager
def locked_temp(folder: Path, stem: str) -> Iterator[tuple[int, Path]]:
    """A new temporary file ``.STEM-PID-XXXX.tmp`` in ``folder``, locked while the block runs
    (:func:`sweep` leaves it alone), removed after unless renamed."""
    fd, name = tempfile.mkstemp(dir=folder, prefix=f".{stem}-{os.getpid()}-", suffix=".tmp")
    tmp = Path(name)
    try:
        _try_lock(fd)
        yield fd, tmp
    finally:
        os.close(fd)
        for p in (tmp, Path(f"{tmp}-journal")):
            with contextlib.suppress(OSError):
                p.unlink()


def sweep(folder: Path) -> list[Path]:
    """Remove the temporary files of builds that ended without removing theirs (a killed
    process): ``.*.tmp`` (and SQLite's ``-journal``) that no live process holds locked."""
    removed = []
    for p in sorted(folder.glob(".*.tmp")):
        try:
            fd = os.open(p, os.O_RDONLY)
        except OSError:
            continue
        try:
            if not _try_lock(fd):
                continue  # being written
            for q in (p, Path(f"{p}-journal")):
                with contextlib.suppress(FileNotFoundError):
                    q.unlink()
                    removed.append(q)
        except OSError:
            continue
        finally:
            os.close(fd)
    for j in folder.glob(".*.tmp-journal"):  # a journal whose file is gone
        if not Path(str(j)[: -len("-journal")]).exists():
            with contextlib.suppress(OSError):
                j.unlink()
                removed.append(j)
    return removed


@contextlib.contextmanager
def build_lock(store: Path, waiting: Any = None) -> Iterator[None]:
    """Hold the lock of building ``store`` (``NAME.lock``): one process builds a store, the
    others wait (``waiting(pid)`` is called once before waiting, with the builder's pid as its
    lock file says) and then find it built."""
    lock = store.with_suffix(".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(fd):
            if waiting is not None:
                try:
                    pid = int(os.read(fd, 20).split()[0])
                except (OSError, ValueError, IndexError):
                    pid = 0
                waiting(pid)
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        os.close(fd)


def is_building(store: Path) -> bool:
    """Whether a process holds the lock of building ``store`` now."""
    lock = store.with_suffix(".lock")
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        return not _try_lock(fd)
    finally:
        os.close(fd)


_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_DENIED = {errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOTDIR}
_SQLITE_FULL, _SQLITE_DENIED = {13}, {3, 8, 14}  # SQLITE_FULL; _PERM, _READONLY, _CANTOPEN


def unwritable(folder: Path, edition: str, e: BaseException) -> InputError:
    """The one line of a store that cannot be written (a full disk, a read-only folder)."""
    code = e.errno if isinstance(e, OSError) else None
    sqlite = getattr(e, "sqlite_errorcode", None)
    sqlite = sqlite & 0xFF if isinstance(sqlite, int) else None
    why = os.strerror(code) if code else str(e) or type(e).__name__
    if code in _FULL or sqlite in _SQLITE_FULL:
        hint = "free some space there"
    elif code in _DENIED or sqlite in _SQLITE_DENIED:
        hint = "make it writable"
    else:
        hint = "check that the disk there has room and works"
    return InputError(f"cannot write the compiled store of the {edition} data in {folder}: "
                      f"{why}; {hint}, or set ${STORE_ENV} to another folder")


# ---------------------------------------------------------------- old stores


def prune(folder: Path, now: float | None = None) -> list[Path]:
    """Remove the stores of data folders that are gone, those not used for
    :data:`UNUSED_DAYS` days, and those past the :data:`KEEP_PER_FOLDER` most recently used of
    one data folder and edition (never one being built); stores of an older mathhammer (no
    seal) once unused that long, and memos of folders that are gone. Returns what was
    removed."""
    now = time.time() if now is None else now
    old = now - UNUSED_DAYS * 86400
    removed: list[Path] = []
    groups: dict[tuple[str, str], list[tuple[float, Path]]] = {}
    for store in folder.glob("*.sqlite"):
        info = _read_json(seal_path(store))
        try:
            used = (seal_path(store) if isinstance(info, dict) else store).stat().st_mtime
        except OSError:
            continue
        if is_building(store):
            continue
        where = info.get("folder") if isinstance(info, dict) else None
        if used < old or (where is not None and not Path(where).is_dir()):
            remove_store(store)
            removed.append(store)
        elif where is not None:
            groups.setdefault((where, str(info.get("edition"))), []).append((used, store))
    for stores in groups.values():
        for _used, store in sorted(stores, reverse=True)[KEEP_PER_FOLDER:]:
            remove_store(store)
            removed.append(store)
    for seal_file in folder.glob("*.json"):  # a seal without its store
        if seal_file.name.startswith("files-"):
            info = _read_json(seal_file)
            where = info.get("folder") if isinstance(info, dict) else None
            if where is None or not Path(where).is_dir():
                seal_file.unlink(missing_ok=True)
                removed.append(seal_file)
        elif not seal_file.with_suffix(".sqlite").exists():
            seal_file.unlink(missing_ok=True)
            removed.append(seal_file)
    for lock in folder.glob("*.lock"):
        if not lock.with_suffix(".sqlite").exists() and not is_building(lock):
            lock.unlink(missing_ok=True)
    return removed


__all__ = ["KEEP_PER_FOLDER", "SHAPING", "STORE_ENV", "UNUSED_DAYS", "build_lock", "code_digest",
           "digests", "fingerprint_of", "is_building", "is_damage", "locked_temp", "prune",
           "remove_store", "seal", "sealed", "store_folder", "sweep", "unwritable"]
