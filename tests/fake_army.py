"""A stand-in for ``mathhammer.data.army`` with the agreed interface (``parse_army``, ``Army.rows``,
``Army.to_json``, ``search_units``): an army list is one bundled unit per line. The web tests
use it to check the page against that interface where the real module is not installed.

>>> army = module().parse_army("Hexmark Destroyer\\nCronos")
>>> [label for label, _ in army.rows()], army.to_json()
(['Hexmark Destroyer', 'Cronos'], {'units': ['Hexmark Destroyer', 'Cronos']})
"""

from __future__ import annotations

import types

import attrs

import mathhammer as mh


@attrs.frozen
class Army:
    units: tuple

    def rows(self) -> list:
        return [(u.name, u) for u in self.units]

    def to_json(self) -> dict:
        return {"units": [u.name for u in self.units]}


def parse_army(text: str, data=None, source: str = "<text>") -> Army:
    names = [x.strip() for x in text.splitlines() if x.strip()]
    if not names:
        raise ValueError(f"{source}: no units")
    return Army(tuple(mh.load_unit(n) for n in names))


def search_units(query: str, data=None, edition=None, limit: int = 50) -> list[str]:
    return [f"{u.faction}:{u.name}" for u in mh.list_units(search=query)][:limit]


def module() -> types.ModuleType:
    """A module object named ``mathhammer.data.army`` with the three names (and the real
    ``FORMATS``, which the command line offers)."""
    from mathhammer.data.army import FORMATS  # the real formats: the command line offers them

    mod = types.ModuleType("mathhammer.data.army")
    mod.Army, mod.parse_army, mod.search_units = Army, parse_army, search_units
    mod.FORMATS = FORMATS
    return mod


#: ``python -c`` code that runs ``mathhammer`` with the stand-in installed
LAUNCH = ("import sys; sys.path.insert(0, {folder!r}); import fake_army; "
          "sys.modules['mathhammer.data.army'] = fake_army.module(); "
          "from mathhammer.cli import main; main()")
