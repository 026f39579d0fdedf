"""The army-list formats, a registry: each reader module of this package registers its formats
(:func:`register`): a name (``--format``), how a list of it is recognised, how one is read,
and how it says its edition. :func:`mathhammer.data.army.parse_list` asks the registry, so
adding a format is one reader module here (its ``register`` calls run when the registry first
imports the package's modules) and a fixture; nothing else names the formats (the manual's
tables of them are made from the registry).

Recognition: the list's bytes first by the formats that read bytes as they are (a zipped
roster), then its text by every format's signs (:class:`Sign`), all formats' signs in one
``order`` (lower first); the first sign that matches names the format, and a text no sign
claims is read by the ``fallback`` format.

>>> get("gwapp").fallback, detect("Commander Farsight (95pts): Dawn Blade").name
(True, 'newrecruit-short')
>>> get("excel")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mathhammer.errors.InputError: --format 'excel': expected one of gwapp, newrecruit-gw, ...
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from ...errors import InputError

if TYPE_CHECKING:
    from .values import ParsedList


@attrs.frozen
class Sign:
    """A mark of a format in a list's text: ``test(text)``, tried at ``order`` among every
    format's signs (a format may have several, at different places of the order)."""

    order: int
    test: Callable[[str], bool] = attrs.field(eq=False)


@attrs.frozen
class ListFormat:
    """One army-list format.

    ``read(text, source)`` reads a list of it (``bytes`` when ``recognise_bytes`` is given and
    the list came as bytes); ``signs`` recognise its text (none: read only when asked for by
    name, or as the ``fallback``); ``listed`` is its place in the lists of formats
    (``--format``); ``edition`` says how a list of it gives its edition (said when it does
    not); ``reads`` says what it reads, for the manual (``docs/lists.md``'s tables of the
    formats are made from it and ``edition``: ``python -m mathhammer.cli.reference``)."""

    name: str
    read: Callable[[str | bytes, str], ParsedList] = attrs.field(eq=False)
    signs: tuple[Sign, ...] = ()
    listed: int = 50
    edition: str = ""
    reads: str = ""
    #: the list's bytes it reads as they are (a zip), before any decoding
    recognise_bytes: Callable[[bytes], bool] | None = attrs.field(default=None, eq=False)
    #: read a text list no format recognises (one format only)
    fallback: bool = False


_REGISTERED: dict[str, ListFormat] = {}
_FOUND = False


def register(fmt: ListFormat) -> ListFormat:
    """Add a format (a reader module calls it at import); a name registered twice is an
    error, as is a second fallback."""
    if fmt.name in _REGISTERED and _REGISTERED[fmt.name] is not fmt:
        raise ValueError(f"army list format {fmt.name!r} registered twice")
    if fmt.fallback and any(f.fallback and f.name != fmt.name for f in _REGISTERED.values()):
        raise ValueError(f"army list format {fmt.name!r}: a second fallback format")
    _REGISTERED[fmt.name] = fmt
    return fmt


def unregister(name: str) -> None:
    """Remove a format (a test's own)."""
    _REGISTERED.pop(name, None)


def formats() -> tuple[ListFormat, ...]:
    """Every registered format, in the order of the lists of formats; the package's reader
    modules are imported on first use (each registers its own)."""
    global _FOUND
    if not _FOUND:
        package = __name__.rsplit(".", 1)[0]
        for m in pkgutil.iter_modules(importlib.import_module(package).__path__):
            importlib.import_module(f"{package}.{m.name}")
        _FOUND = True
    return tuple(sorted(_REGISTERED.values(), key=lambda f: (f.listed, f.name)))


def names() -> tuple[str, ...]:
    """The formats' names (``--format``)."""
    return tuple(f.name for f in formats())


def get(name: str) -> ListFormat:
    """The format of that name; any other is an error naming them."""
    for f in formats():
        if f.name == name:
            return f
    raise InputError(f"--format {name!r}: expected one of {', '.join(names())}")


def detect_bytes(data: bytes) -> ListFormat | None:
    """The format that reads a list's bytes as they are (a roster, a zip), if any."""
    return next((f for f in formats() if f.recognise_bytes is not None
                 and f.recognise_bytes(data)), None)


def detect(text: str) -> ListFormat:
    """The format of a list's text: that of the first sign it has, else the fallback."""
    signs = sorted(((s.order, f.name, s, f) for f in formats() for s in f.signs),
                   key=lambda t: t[:2])
    for _order, _name, sign, f in signs:
        if sign.test(text):
            return f
    return next(f for f in formats() if f.fallback)


def edition_sign(name: str) -> str:
    """How a list of format ``name`` gives its edition (``""`` for a format not registered)."""
    return next((f.edition for f in formats() if f.name == name), "")
