"""Army lists: read the lists players share and resolve them against the BattleScribe data.

Formats (:data:`FORMATS`, a registry: :mod:`.formats`; recognised by content, or forced
with ``fmt``): the Warhammer
40,000 app's text export (10e and 11e apps, any language's headers), New Recruit's text exports
(GW, WTC, WTC-compact, default and short), ListForge, WarOrgan's two styles, BattleScribe
rosters (``.ros``, ``.rosz``), and the structured forms (:mod:`.structured`): New Recruit's
JSON export, ListForge's share JSON and share link, and what ``mathhammer army --json`` writes.

Modules: :mod:`.text` (every text format, one reader and its styles), :mod:`.lines` and
:mod:`.words` (what the text readers share: lines, numbers, the app's words in each language),
:mod:`.roster` (BattleScribe rosters), :mod:`.structured`, :mod:`.values` (``ParsedList``,
``Army``), :mod:`.resolve` (a parsed list against the data) and :mod:`.datasheets` (where its
names are looked up).

>>> parse_army("")
Traceback (most recent call last):
...
mathhammer.errors.InputError: <text>: empty army list
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ...errors import InputError
from ...limits import MAX_ARMY_FILE_BYTES, read_limited

if TYPE_CHECKING:
    from ..store.data_folder import Edition
    from .values import Army, ArmyUnit, AttachedUnit, ParsedList, Unresolved, WeaponCount

__all__ = ["EDITION_SIGNS", "FORMATS", "Army", "ArmyUnit", "AttachedUnit", "ParsedList",
           "Unresolved", "WeaponCount", "load_army", "parse_army", "parse_list", "read_list",
           "search_units"]

_MODEL = ("Army", "ArmyUnit", "AttachedUnit", "ParsedList", "Unresolved", "WeaponCount")


def __getattr__(name: str):
    """The list value types (:mod:`.values`) and the formats, imported on first use: a command
    that reads no list (``kills`` of a data unit) does not pay for them at start-up."""
    if name in _MODEL:
        from . import values

        return getattr(values, name)
    if name == "FORMATS":  # the formats a list may be read as (``--format``)
        from .formats import names

        return names()
    if name == "EDITION_SIGNS":  # how each format says its edition
        from .formats import formats

        return {f.name: f.edition for f in formats()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse_list(text: str | bytes, source: str = "<text>", fmt: str | None = None
               ) -> ParsedList:
    """Read a list in any supported format (``fmt``: force one of :data:`FORMATS`), without
    looking anything up.

    >>> parse_list(5)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: <text>: an army list is text or bytes, not int
    """
    from . import formats

    if not isinstance(text, (str, bytes, bytearray)):
        raise InputError(f"{source}: an army list is text or bytes, not {type(text).__name__}")
    forced = None if fmt is None else formats.get(fmt)
    if isinstance(text, (bytes, bytearray)):
        raw = bytes(text)
        as_is = forced if forced is not None and forced.recognise_bytes is not None \
            else formats.detect_bytes(raw) if forced is None else None
        if as_is is not None:
            return as_is.read(raw, source)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                text = raw.decode("utf-16") if raw[:2] in (b"\xff\xfe", b"\xfe\xff") \
                    else raw.decode("cp1252")
            except UnicodeDecodeError:
                raise InputError(f"{source}: not a text army list, a .ros or a .rosz") from None
    if not text.strip():
        raise InputError(f"{source}: empty army list")
    return (forced or formats.detect(text)).read(text, source)


def read_list(path: str | os.PathLike, fmt: str | None = None) -> ParsedList:
    """Read a list file (any supported format, or ``fmt``)."""
    p = Path(path)
    try:
        found = p.is_file() or p.exists()
    except (OSError, ValueError) as e:  # a name too long to be a file, a NUL in it
        raise InputError(f"{str(p)[:80]}: not a file ({getattr(e, 'strerror', None) or e})"
                         ) from None
    if not found:
        raise InputError(f"{p}: no such file")
    data = read_limited(p, MAX_ARMY_FILE_BYTES, "MAX_ARMY_FILE_BYTES", "army list")
    if p.suffix.lower() == ".rosz" and data[:2] != b"PK":
        raise InputError(f"{p}: not a zip file (a .rosz is a zipped roster)")
    return parse_list(data, str(p), fmt)


def parse_army(text: str | bytes, data=None, source: str = "<text>", rules: str | None = None,
               attach: tuple[str, ...] = (), fmt: str | None = None) -> Army:
    """The :class:`Army` of a list given as text (or roster bytes).

    >>> parse_army(5)
    Traceback (most recent call last):
    ...
    mathhammer.errors.InputError: <text>: an army list is text or bytes, not int
    """
    from .resolve import resolve

    return resolve(parse_list(text, source, fmt), data, rules, tuple(attach))


def load_army(path: str | os.PathLike, data=None, rules: str | None = None,
              attach: tuple[str, ...] = (), fmt: str | None = None) -> Army:
    """The :class:`Army` of a list file, resolved against the data (``data``: a folder, else
    ``$MATHHAMMER_DATA``, else the cache). Names that do not resolve are in
    ``army.unresolved``."""
    from .resolve import resolve

    return resolve(read_list(path, fmt), data, rules, tuple(attach))


def search_units(query: str, data=None, edition: Edition | None = None, limit: int = 50
                 ) -> list[str]:
    """``Faction:Unit`` names containing ``query`` (case-insensitive), for a search box;
    every installed edition unless ``edition`` is given."""
    from ..store.data_folder import installed_editions
    from ..store.index import unit_index
    from ..typed.names import name_key

    q = name_key(query)
    out: list[str] = []
    for ed in [edition] if edition else installed_editions(data):
        for name in unit_index(ed, data).names():
            if q in name_key(name.split(":", 1)[1]) and name not in out:
                out.append(name)
                if len(out) >= limit:
                    return out
    return out
