"""Where the BattleScribe data lives, and fetching it; the index of its units is
:mod:`mathhammer.data.unit_index`.

The data folder is ``--data DIR``, else ``$MATHHAMMER_DATA``, else ``bsdata/`` in the user's
cache folder (``platformdirs``). A data folder holds either the files of one edition (``.cat``
and ``.gst`` for 10e, ``.json`` for 11e) or one folder per edition (``10e/``, ``11e/``), which
is how ``mathhammer data fetch`` installs them.

>>> edition_of_files(["Necrons.cat", "Warhammer 40,000.gst"])
'10e'
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

import attrs

from ..errors import InputError

Edition = Literal["10e", "11e"]
EDITIONS: tuple[Edition, ...] = ("10e", "11e")
SUFFIXES: dict[str, tuple[str, ...]] = {"10e": (".cat", ".gst"), "11e": (".json",)}
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
    """The edition a set of file names belongs to (``.json`` is 11e, ``.cat``/``.gst`` 10e)."""
    names = [n.lower() for n in names]
    if any(n.endswith(".json") for n in names):
        return "11e"
    if any(n.endswith((".cat", ".gst")) for n in names):
        return "10e"
    return None


def edition_files(folder: Path, edition: Edition) -> list[Path]:
    try:
        return sorted(p for p in folder.iterdir()
                      if p.is_file() and p.name.lower().endswith(SUFFIXES[edition])
                      and not p.name.startswith("."))
    except OSError:
        return []


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


def fetch(edition: Edition, url: str | None = None, root: str | os.PathLike | None = None,
          progress: Callable[[int, int | None], None] | None = None,
          timeout: float = 60.0) -> Installed:
    """Download the BSData repository archive of ``edition`` and install it atomically in
    ``root/edition`` (default: the cache's ``bsdata/``).

    The archive is downloaded and unpacked in a temporary folder beside the target, checked
    (it must hold the edition's game system and catalogues), then renamed into place; on any
    error the installed data is left as it was. ``progress(done, total)`` is called as bytes
    arrive.
    """
    import urllib.error
    import urllib.request

    if edition not in EDITIONS:
        raise InputError(f"--edition {edition!r}: expected one of {', '.join(EDITIONS)}")
    url = url or REPOSITORY.format(edition=edition)
    base = Path(root).expanduser() if root is not None else data_root(None)
    base.mkdir(parents=True, exist_ok=True)
    target = base / edition
    tmp = Path(tempfile.mkdtemp(prefix=f".{edition}-fetch-", dir=base))
    try:
        archive = tmp / "archive.zip"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as response, \
                    archive.open("wb") as out:
                total = response.headers.get("Content-Length")
                total_n = int(total) if total and total.isdigit() else None
                done = 0
                while chunk := response.read(1 << 16):
                    out.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done, total_n)
        except (urllib.error.URLError, OSError, ValueError) as e:
            reason = getattr(e, "reason", None) or e
            raise InputError(f"{url}: download failed ({reason})") from None
        unpacked = tmp / edition
        _unpack(archive, unpacked, edition, url)
        (unpacked / ".mathhammer.json").write_text(json.dumps({
            "edition": edition, "source": url,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }), encoding="utf-8")
        old = tmp / "old"
        if target.exists():
            target.rename(old)
        try:
            unpacked.rename(target)
        except OSError:
            if old.exists():
                old.rename(target)
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return next(i for i in status(base) if i.edition == edition)


def _unpack(archive: Path, dest: Path, edition: Edition, url: str) -> None:
    """Extract the data files of the archive (flattened: GitHub archives hold one top folder)
    and check that they are the edition's data."""
    try:
        with zipfile.ZipFile(archive) as z:
            members = [m for m in z.infolist()
                       if not m.is_dir() and m.filename.lower().endswith(SUFFIXES[edition])
                       and "/." not in "/" + m.filename]
            dest.mkdir()
            for m in members:
                name = Path(m.filename).name
                if not name or name.startswith("."):
                    continue
                with z.open(m) as src, (dest / name).open("wb") as out:
                    shutil.copyfileobj(src, out)
    except zipfile.BadZipFile:
        raise InputError(f"{url}: not a zip archive") from None
    files = edition_files(dest, edition)
    if not any(is_game_system(f) for f in files):
        raise InputError(f"{url}: the archive holds no {edition} game system file "
                         f"({' or '.join(SUFFIXES[edition])}); is it the {edition} data?")
    if len(files) < 2:
        raise InputError(f"{url}: the archive holds no {edition} catalogues")
