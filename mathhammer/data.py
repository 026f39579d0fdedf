"""Where the bundled ``rules/`` and ``units/`` folders are.

An installed wheel carries them inside the package (``mathhammer/rules``); a source checkout
or an editable install finds them beside the package folder.

>>> (data_dir("rules") / "10e.toml").is_file()
True
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def data_dir(kind: str) -> Path:
    """The bundled folder ``kind`` (``"rules"`` or ``"units"``)."""
    inside = _HERE / kind
    return inside if inside.is_dir() else _HERE.parent / kind
