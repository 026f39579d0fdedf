"""Import datasheets from BattleScribe data: 10th-edition XML (``.cat``/``.gst``) and
11th-edition JSON (``.json``), the files list builders read.

Both formats (:mod:`.formats`) are parsed (:mod:`.parse`) into the same values (:mod:`.entries`);
links are followed into the linked catalogues and the game system file found beside the
catalogue (:mod:`.files`), and through a unit's selection tree (:mod:`.walk`). A datasheet is
found by name (:mod:`.find`) and one builder turns it into a unit file in the ``units/`` schema
(:mod:`.build`), reading statlines (:mod:`.profiles`), weapons (:mod:`.weapons`), keywords and
abilities (:mod:`.abilities`), model counts and points (:mod:`.sizes`), make-ups
(:mod:`.makeup`) and wargear options (:mod:`.options`); :mod:`.texts` gives the translator a
datasheet's ability texts and :mod:`.listing` what an army list reads of a whole catalogue.

>>> split_unit_spec("data/Necrons.cat:Immortals")
('data/Necrons.cat', 'Immortals')
>>> split_unit_spec("Immortals") is None
True
>>> import_catalogue("nowhere/Necrons.cat", "Immortals")
Traceback (most recent call last):
...
mathhammer.errors.InputError: nowhere/Necrons.cat: no such file
"""

from __future__ import annotations

import copy
import os
import re
import warnings
from pathlib import Path
from typing import Any

import tomli_w

from ...errors import InputError
from ..typed.names import name_key
from .build import build_raw
from .entries import Catalogue, Entry, Profile
from .files import BattleScribeWarning, Library, load_file, open_library
from .find import catalogue_units, find_unit
from .weapons import map_keyword, split_keywords

PathLike = str | os.PathLike

__all__ = [
    "BattleScribeWarning", "Catalogue", "Entry", "Library", "Profile", "catalogue_unit_dict",
    "import_catalogue",
    "list_catalogue_units", "load_catalogue_unit", "load_file", "map_keyword", "open_library",
    "split_keywords", "split_unit_spec", "unit_of_entry", "unit_of_raw",
    "write_catalogue_unit",
]

_SPEC = re.compile(r"^(?P<path>.+?\.(?:cat|json))\s*:\s*(?P<name>.+)$", re.I)


def split_unit_spec(spec: str) -> tuple[str, str] | None:
    """``"path/Necrons.cat:Immortals"`` -> ``(path, unit name)``; None if it is not one."""
    m = _SPEC.match(str(spec).strip())
    if m is None or not m.group("name").strip():
        return None
    return m.group("path"), m.group("name").strip()


def _library(path: PathLike, gamesystem: PathLike | None, catalogues) -> Library:
    return open_library(path, gamesystem=gamesystem, catalogues=tuple(catalogues))


def list_catalogue_units(
    path: PathLike, search: str | None = None, *, gamesystem: PathLike | None = None,
    catalogues: tuple[PathLike, ...] = (),
) -> list[str]:
    """The names of the datasheets in a catalogue, sorted; ``search`` keeps the names that
    contain it (compared by :func:`~mathhammer.data.typed.names.name_key`)."""
    lib = _library(path, gamesystem, catalogues)
    names = [name for name, _entry in catalogue_units(lib)]
    if search:
        q = name_key(search)
        names = [n for n in names if q in name_key(n)]
    return names


def catalogue_unit_dict(
    path: PathLike, name: str, *, gamesystem: PathLike | None = None,
    catalogues: tuple[PathLike, ...] = (),
) -> tuple[dict[str, Any], list[str]]:
    """The unit (a dict in the units/ schema, with its abilities' text) and the import's
    warnings."""
    from .texts import ability_texts

    lib = _library(path, gamesystem, catalogues)
    raw, warnings = build_raw(lib, name)
    texts = ability_texts(lib, raw.get("name", name))
    if texts:
        raw.setdefault("abilities", {})["text"] = [{"name": n, "text": t} for n, t in texts]
    return raw, warnings


def import_catalogue(
    path: PathLike, name: str, *, gamesystem: PathLike | None = None,
    catalogues: tuple[PathLike, ...] = (),
) -> tuple[str, list[str]]:
    """The unit file (TOML text) for the datasheet ``name`` of a catalogue, and warnings.

    Linked catalogues and the game system are found beside ``path`` (``gamesystem`` and
    ``catalogues`` name them explicitly). Weapon keywords mathhammer cannot map are kept in
    the weapon's ``unmapped`` list and named in the warnings. Bad input is a one-line
    ValueError.
    """
    raw, warnings = catalogue_unit_dict(
        path, name, gamesystem=gamesystem, catalogues=catalogues
    )
    _check(raw)
    head = [
        "# Imported by mathhammer from BattleScribe data; see units/README.md for the schema.",
        f"# Source: {raw.get('source', Path(path).name)}",
    ]
    head += [f"# Check: {w}" for w in warnings]
    return "\n".join(head) + "\n" + tomli_w.dumps(raw), warnings


def write_catalogue_unit(
    path: PathLike, name: str, out: PathLike, *, gamesystem: PathLike | None = None,
    catalogues: tuple[PathLike, ...] = (), force: bool = False,
) -> tuple[Path, list[str]]:
    """Import a datasheet and write its unit file; returns ``(path written, warnings)``.

    ``out`` may be a folder (the file is then named after the unit). An existing file is only
    overwritten with ``force``; on any error nothing is written.
    """
    from ..units.importer import save_unit_file

    text, warnings = import_catalogue(path, name, gamesystem=gamesystem, catalogues=catalogues)
    raw_name = re.search(r'^name = "(.*)"$', text, re.M)
    return save_unit_file(text, out, raw_name.group(1) if raw_name else name, force), warnings


def _loadable(raw: dict[str, Any]) -> dict[str, Any]:
    """A copy without the fields the units schema keeps only for the reader (``unmapped``)."""
    raw = copy.deepcopy(raw)
    for group in raw.get("models", []):
        for weapon in group.get("weapons", []):
            weapon.pop("unmapped", None)
    return raw


def _check(raw: dict[str, Any]):
    from ..units.file import build_unit

    return build_unit(_loadable(raw), f"{raw.get('name', 'unit')} (imported)")


def unit_of_entry(lib: Library, entry: Entry):
    """A :class:`mathhammer.data.units.unit.Unit` from a datasheet's root entry already found, and
    every warning of its import; a unit whose every weapon is left out is a ValueError."""
    from .build import build_entry

    raw, notes, _members = build_entry(lib, entry)
    unit, _said = unit_of_raw(raw, notes, f"{Path(lib.main.path).name}:{raw['name']}")
    return unit, notes


def load_catalogue_unit(
    spec: str, *, gamesystem: PathLike | None = None, catalogues: tuple[PathLike, ...] = ()
):
    """A :class:`mathhammer.data.units.unit.Unit` straight from a catalogue:
    ``"Necrons.cat:Immortals"``.

    What the import leaves out (a weapon it cannot read, a link into a file not given) is a
    :class:`BattleScribeWarning` naming the file, the unit and the weapon, each time a unit is
    loaded; a unit whose every weapon is left out is a ValueError."""
    parts = split_unit_spec(spec)
    if parts is None:
        raise InputError(
            f"unit spec {spec!r}: expected CATALOGUE.cat:Unit name (or .json for 11th edition)"
        )
    path, name = parts
    lib = _library(path, gamesystem, catalogues)
    unit, notes = unit_of_entry(lib, find_unit(lib, name))
    where = f"{Path(path).name}:{unit.name}"
    for note in notes:
        if "left out" in note or note.startswith("skipped"):
            warnings.warn(f"{where}: {note}", BattleScribeWarning, stacklevel=2)
    return unit


def unit_of_raw(raw: dict[str, Any], notes: list[str], where: str) -> tuple[Any, list[str]]:
    """The :class:`mathhammer.data.units.unit.Unit` of an imported unit file (``raw``, with the
    import's ``notes``) and the warnings a load gives (what the import left out, each naming
    ``where``, and each guess it made: a default the data does not give, taken); a unit whose
    every weapon is left out is a ValueError."""
    from ..units.file import build_unit

    dropped = [n for n in notes if "left out" in n or n.startswith("skipped")]
    guessed = [n for n in notes if n not in dropped and (
        "is taken" in n or "; using " in n or "not modelled" in n)]
    if not any(g.get("weapons") for g in raw.get("models", [])) and \
            any(n.startswith("weapon ") for n in dropped):
        raise InputError(f"{where}: no weapon mathhammer can read ({'; '.join(dropped)})")
    return build_unit(_loadable(raw), where), [f"{where}: {note}" for note in dropped + guessed]
