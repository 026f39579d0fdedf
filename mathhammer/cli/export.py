"""``--to unitcrunch -o FILE``: the profiles UnitCrunch imports, written by ``army`` and
``kills`` (:mod:`mathhammer.report.unitcrunch`).

>>> import click
>>> TO[0], TO[1]["type"].choices
(('--to', 'to'), ('unitcrunch',))
"""

from __future__ import annotations

from typing import Any

import click

from ..errors import InputError
from .output import warn

#: ``--to FORMAT``: write another program's file instead of the report
TO: tuple[tuple[str, ...], dict[str, Any]] = (
    ("--to", "to"), {"type": click.Choice(["unitcrunch"]), "metavar": "unitcrunch",
                     "help": "Write UnitCrunch's import file (MessagePack; needs "
                             "`pip install 'mathhammer[unitcrunch]'`) to --output FILE "
                             "instead of the report."})


def check_to(to: str | None, output: str | None, others: dict[str, Any]) -> bool:
    """Whether ``--to`` is given (then the caller checks ``--output`` as any output file):
    ``--to`` needs ``--output`` and the msgpack package, and excludes the options of
    ``others`` (name -> value given)."""
    if to is None:
        return False
    from ..report.unitcrunch import MISSING

    if output is None:
        raise click.UsageError("--to unitcrunch: give the file to write with --output FILE")
    for name, value in others.items():
        if value:
            raise click.UsageError(f"--to unitcrunch: writes no report ({name} is for the "
                                   "report)")
    try:
        import msgpack  # noqa: F401
    except ImportError:
        raise InputError(MISSING) from None
    return True


def write_unitcrunch(profiles: list, path: Any) -> None:
    """Write the import file of ``profiles`` to ``path`` (nothing is written when it cannot be
    made) and say on stderr what it holds and what it leaves out."""
    from ..report.unitcrunch import APP_VERSION, dumps, left_out

    data = dumps(profiles)
    missing = left_out(profiles)
    if missing:
        warn("UnitCrunch has no ability for " + ", ".join(
            f"{a} ({n} weapon{'s' * (n != 1)})" for a, n in sorted(missing.items()))
             + ": left out of the file")
    try:
        path.write_bytes(data)
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    units = sum(len(p.units) for p in profiles)
    click.echo(f"wrote {path}: {len(profiles)} UnitCrunch profile{'s' * (len(profiles) != 1)} "
               f"({units} unit{'s' * (units != 1)}; UnitCrunch {APP_VERSION}'s layout)",
               err=True)
