"""One unit from whatever a player types: a bundled unit's name (a unique prefix is enough), a
unit file, ``CATALOGUE.cat:Unit name`` (BattleScribe data), or a datasheet's name in the
installed BattleScribe data of the edition asked.

>>> find_unit("hexmark").name
'Hexmark Destroyer'
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import InputError

if TYPE_CHECKING:
    from ..store.data_folder import Edition

_CATALOGUE = re.compile(r"^.+?\.(?:cat|json)\s*:\s*\S", re.I)


def find_unit(spec: str, *, rules: str = "10e", data: str | os.PathLike | None = None) -> Any:
    """The :class:`~mathhammer.data.units.unit.Unit` that ``spec`` names.

    A name no bundled unit has is looked up in the installed BattleScribe data of the edition
    of ``rules`` (``"11e"``, else 10e), in the folder ``data`` (default: see
    :func:`mathhammer.data.store.data_folder.data_root`), read from its compiled store
    (:mod:`mathhammer.data.store.compiled`); when that edition is not installed, the bundled units'
    error stands, naming the other edition when the name is one of its datasheets.
    """
    from ..units.bundled import load_unit

    if _CATALOGUE.match(spec) and not Path(spec).is_file():
        from ..bsdata import load_catalogue_unit

        return load_catalogue_unit(spec)
    try:
        return load_unit(spec)
    except ValueError:
        if spec.endswith(".toml") or "/" in spec or "\\" in spec:
            raise
        from ..store.data_folder import installed_editions
        from ..store.index import load_data_unit, other_edition_hint

        edition: Edition = "11e" if rules == "11e" else "10e"
        if edition not in installed_editions(data):
            hint = other_edition_hint(spec, edition, data)
            if hint:
                raise InputError(f"unknown unit {spec!r} (not bundled, and no {edition} data "
                                 f"installed); {hint}") from None
            raise
        return load_data_unit(spec, edition, data)
