"""The bundled unit files (``units/**/*.toml``), found by name, alias or file name.

:func:`load_unit` also reads a unit file by path; files are read once until they change.

>>> cronos = load_unit("cronos")
>>> [(w.name, w.optional) for w in cronos.weapons(melee=False)]
[('Spirit syphon', False), ('Spirit vortex', True)]
>>> t = load_unit("TEQ").as_target()
>>> (t.models, t.toughness, t.save, t.invuln, t.wounds)
(5, 5, 2, 4, 3)
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from ...cache import cached
from ...errors import InputError
from ...resources import data_dir
from ..typed.names import name_key
from .file import read_unit_file
from .unit import Unit, show


def _display(path: Path) -> str:
    """How a file is named in messages: ``units/...`` for bundled files, else as relative."""
    path = path.resolve()
    bundled = data_dir("units").resolve()
    if path.is_relative_to(bundled):
        return f"units/{path.relative_to(bundled).as_posix()}"
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


@cached(maxsize=512)
def _load_cached(path: Path, _mtime: int, _size: int) -> Unit:
    return read_unit_file(path, _display(path))


def _load_path(path: Path) -> Unit:
    if not path.is_file():
        raise InputError(f"{_display(path)}: no such unit file")
    st = path.stat()
    return _load_cached(path.resolve(), st.st_mtime_ns, st.st_size)


def unit_files() -> list[Path]:
    """The bundled unit files, sorted."""
    return sorted(data_dir("units").rglob("*.toml"))


def _index() -> list[tuple[str, Unit]]:
    """(normalised name, unit) for every bundled unit's name, aliases and file name."""
    out = []
    for path in unit_files():
        unit = _load_path(path)
        for key in (unit.name, *unit.aliases, path.stem):
            out.append((name_key(key), unit))
    return out


def load_unit(path_or_name: str | Path | Unit) -> Unit:
    """A unit by file path (``.toml``) or by name or alias (case-insensitive, unique prefix ok).

    >>> load_unit("hexmark").name, load_unit("meq").name
    ('Hexmark Destroyer', 'MEQ')
    >>> load_unit("Hexmrk Destroyer")
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: unknown unit "Hexmrk Destroyer"; did you mean Hexmark Destroyer?
    """
    if isinstance(path_or_name, Unit):
        return path_or_name
    if not isinstance(path_or_name, str | os.PathLike):
        raise TypeError(f"path_or_name: expected a unit name or file path, got "
                        f"{show(path_or_name)}")
    text = str(path_or_name)
    if isinstance(path_or_name, Path) or text.endswith(".toml") or "/" in text or "\\" in text:
        return _load_path(Path(path_or_name))
    q = name_key(text)
    if not q:
        raise InputError(f"unknown unit {show(text)}: give a name or a .toml path")
    index = _index()
    for matches in ([u for k, u in index if k == q], [u for k, u in index if k.startswith(q)]):
        names = sorted({u.name for u in matches}, key=str.lower)
        if len(names) == 1:
            return matches[0]
        if names:
            raise InputError(f"ambiguous unit {show(text)}: matches {', '.join(names)}")
    keys = {k: u.name for k, u in index}
    close = list(dict.fromkeys(keys[k] for k in difflib.get_close_matches(q, keys, 5, 0.5)))
    hint = (f"did you mean {', '.join(close)}?" if close
            else f"known: {', '.join(sorted({u.name for _, u in index}))}")
    raise InputError(f"unknown unit {show(text)}; {hint}")


def list_units(faction: str | None = None, search: str | None = None,
               archetype: bool | None = None) -> list[Unit]:
    """The bundled units, sorted by faction and name; filters are case-insensitive.

    ``faction`` matches the faction name (``"adeptus-mechanicus"`` works), ``search`` a part of
    the name or an alias, ``archetype`` picks standard targets (True) or datasheets (False).

    >>> [u.name for u in list_units(faction="necrons")]
    ['Hexmark Destroyer', 'Necron Warriors']
    >>> [u.name for u in list_units(search="vehicle")]
    ['Heavy vehicle', 'Light vehicle']
    """
    units = {id(u): u for _, u in _index()}.values()
    out = []
    for u in units:
        if faction is not None and name_key(u.faction) != name_key(faction):
            continue
        if search is not None and not any(name_key(search) in name_key(k)
                                          for k in (u.name, *u.aliases)):
            continue
        if archetype is not None and u.archetype != archetype:
            continue
        out.append(u)
    return sorted(out, key=lambda u: (name_key(u.faction), name_key(u.name)))
