"""The BattleScribe search of the page: units of the installed data by name, a faction's units,
the factions. They need :mod:`mathhammer.data.army`; an install without it answers
:class:`~mathhammer.app.lists.Unavailable`.

>>> search_json("x")  # fewer than two letters and no faction: nothing
[]
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

from ..app.lists import Unavailable
from ..app.lists import army_module as _army_module
from ..app.setup import editions
from ..errors import InputError

if TYPE_CHECKING:
    from ..data.store.data_folder import Edition

#: Names a search answers at most.
SEARCH_LIMIT = 50


def _edition(edition: str | None) -> Edition | None:
    if edition is not None and edition not in editions():
        raise InputError(f"rules: expected one of {', '.join(editions())}, got {edition!r}")
    return cast("Edition | None", edition)  # checked: one of the editions


def search_datasheets(text: str = "", edition: Edition | None = None,
                      data: str | os.PathLike | None = None, faction: str | None = None
                      ) -> list[Any]:
    """The datasheets of the installed data that ``text`` finds, best first (see
    :meth:`mathhammer.data.store.compiled.Store.search`; every datasheet for an empty text), from
    ``edition`` or every installed edition; each is one
    :class:`~mathhammer.data.store.compiled.Datasheet` with its factions."""
    from ..data.store.compiled import open_store
    from ..data.store.data_folder import installed_editions

    out: list[Any] = []
    for ed in [edition] if edition else installed_editions(data):
        out += open_store(ed, data).search(text, faction)
    return out


def search_names(text: str, edition: Edition | None = None,
                 data: str | os.PathLike | None = None, limit: int = 50) -> list[str]:
    """``Faction:Unit`` names for a search box, best first (:func:`search_datasheets`), each
    named with its first faction, or with the one typed (``Space Marines:Devastator``)."""
    from ..data.store.index import split_faction_unit
    from ..data.typed.names import name_key

    typed, rest = split_faction_unit(text) or ("", "")
    hits = search_datasheets(rest, edition, data, faction=typed) if rest else []
    own = {d.id: [f for f in d.factions if name_key(f) == name_key(typed)] for d in hits}
    if not any(own.values()):  # not a faction's name: the text is searched whole
        hits, own = search_datasheets(text, edition, data), {}
    out: list[str] = []
    for d in hits:
        first = (own.get(d.id) or d.factions or ("",))[0]
        name = f"{first}:{d.name}" if first else d.name
        if name not in out:
            out.append(name)
        if len(out) >= limit:
            break
    return out


def search_json(query: str, edition: str | None = None, faction: str | None = None
                ) -> list[str]:
    """Units of the installed BattleScribe data whose name matches (``Faction:Unit``), of one
    faction if given (then an empty query lists all its units). Without a faction it is the
    compiled catalogue's ranked search (:func:`search_names`: the
    exact name first, one row per datasheet)."""
    edition = _edition(edition)
    army = _army_module()
    q = query.strip()
    if len(q) < 2 and not faction:
        return []
    if not faction:
        return search_names(q, edition=edition)[:SEARCH_LIMIT]
    # a faction's units: read from the unit index by their "Faction:" (every installed edition
    # unless one is given), not through the whole search
    from ..data.store.data_folder import installed_editions
    from ..data.store.index import unit_index
    from ..data.typed.names import name_key

    del army  # the module's presence is checked; the names are the index's
    key = name_key(q)
    found: dict[str, None] = {}
    for ed in [edition] if edition else installed_editions():
        names = sorted({u for c in unit_index(ed).catalogues if c.label == faction
                        for u, _key, _own in c.units}, key=name_key)
        found.update((f"{faction}:{u}", None) for u in names if key in name_key(u))
    return list(found)


def factions_json(edition: str | None = None) -> list[str]:
    """The factions of the installed BattleScribe data (of ``edition``, default 10e) a player
    picks from: the catalogues with units, not the libraries they share ("Aeldari Library":
    its units are in the factions that use them, and found by name)."""
    from ..data.store.data_folder import installed_editions
    from ..data.store.index import unit_index

    edition = _edition(edition) or "10e"
    if edition not in installed_editions():
        return []
    return sorted({c.label for c in unit_index(edition).catalogues
                   if c.units and not c.library})


__all__ = ["SEARCH_LIMIT", "Unavailable", "factions_json", "search_datasheets", "search_json",
           "search_names"]
