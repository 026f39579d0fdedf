"""Where the bundled ``rules/`` and ``units/`` folders are.

An installed wheel carries them inside the package (``mathhammer/rules``); a source checkout
or an editable install finds them beside the package folder.

>>> (data_dir("rules") / "core" / "10e.toml").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[0]  # mathhammer/


def data_dir(kind: str) -> Path:
    """The bundled folder ``kind`` (``"rules"`` or ``"units"``)."""
    inside = _PACKAGE / kind
    return inside if inside.is_dir() else _PACKAGE.parent / kind
