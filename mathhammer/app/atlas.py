"""The whole game in one table, computed: every datasheet of an edition's installed data, ranged
and melee, against the standard targets, as exact expected kills and damage (:func:`atlas`,
one :class:`AtlasRow` per datasheet and phase); per model and per 100 points, and the
renderings (HTML, CSV, JSON, Markdown), are :mod:`mathhammer.report.atlas`.

Decisions: each datasheet attacks at its smallest size with its standard wargear (the
weapons it fires without picking optional ones), every weapon of the phase at once; per model
divides by that size, per 100 points by its cost at that size (none without a cost).

>>> import mathhammer as mh
>>> from mathhammer.data.units.bundled import load_unit
>>> meq = load_unit("MEQ").as_target()
>>> row = atlas_row(load_unit("Hexmark Destroyer"), ("Necrons",), [meq], "10e")[0]
>>> (row.phase, row.models, row.points > 0, row.values[0][0] > 0)
('ranged', 1, True, True)
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs


@attrs.frozen
class AtlasRow:
    """One datasheet in one phase: ``values[target] = (expected kills, expected damage)``
    (None: that target could not be attacked, with the reason in ``note``)."""

    name: str
    factions: tuple[str, ...]
    phase: str
    models: int
    points: int | None
    values: tuple[tuple[Fraction, Fraction] | None, ...]
    note: str = ""

    def per(self, value: Fraction, per: str) -> Fraction | None:
        """A value per model or per 100 points (None without points)."""
        if per == "model":
            return value / self.models
        return value * 100 / self.points if self.points else None


def atlas_row(unit: Any, factions: tuple[str, ...], targets: Sequence[Any],
              rules: str) -> list[AtlasRow]:
    """The rows (ranged, melee) of one unit against the targets."""
    from ..engine.attack import attack, value_against

    out = []
    models = sum(unit.composition())  # the datasheet's unit (its smallest, as fired)
    points = unit.cost()
    for melee in (False, True):
        try:
            profiles = unit.as_profiles(melee, score=value_against(None))
        except ValueError:
            continue  # no weapons in this phase
        if not profiles:
            continue  # only optional wargear: nothing fires without a pick
        values: list[tuple[Fraction, Fraction] | None] = []
        notes: list[str] = []
        for t in targets:
            try:
                r = attack(profiles, t, rules=rules)
                values.append((r.kills.mean(), r.damage.mean()))
            except ValueError as e:
                values.append(None)
                if str(e) not in notes:
                    notes.append(str(e))
        out.append(AtlasRow(unit.name, factions, "melee" if melee else "ranged", models,
                            points, tuple(values), "; ".join(notes)))
    return out


def _chunk(store_path: str, folder: str, edition: str, ids: list[tuple[int, tuple[str, ...]]],
           targets: Sequence[Any], rules: str) -> list[AtlasRow]:
    """The rows of some datasheets (run in a worker process)."""
    from ..data.store.compiled import Store

    store = Store(Path(store_path), Path(folder), edition)  # type: ignore[arg-type]
    out: list[AtlasRow] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for ds, factions in ids:
            try:
                unit = store.unit(ds, warn=False)  # its import's warnings: not here
            except ValueError:
                continue
            out += atlas_row(unit, factions, targets, rules)
    store.close()
    return out


def atlas(edition: str, targets: Sequence[tuple[str, Any]], data: str | os.PathLike | None = None,
          *, workers: int | None = None, progress: Callable[[int, int], None] | None = None
          ) -> list[AtlasRow]:
    """Every datasheet of ``edition``'s installed data against ``targets`` (``(label,
    target)`` pairs), in a pool of ``workers`` processes (default: every core); rows sorted
    by faction, then name, ranged before melee."""
    from ..data.store.compiled import open_store

    store = open_store(edition, data)  # type: ignore[arg-type]
    sheets = [(d.id, d.factions) for d in store.datasheets() if d.error is None]
    tlist = [t for _label, t in targets]
    rules = "11e" if edition == "11e" else "10e"
    size = 24
    chunks = [sheets[i:i + size] for i in range(0, len(sheets), size)]
    rows: list[AtlasRow] = []
    workers = workers or os.cpu_count() or 1
    args = (str(store.path), str(store.folder), edition)
    if workers <= 1 or len(chunks) <= 1:
        for n, chunk in enumerate(chunks):
            rows += _chunk(*args, chunk, tlist, rules)
            if progress is not None:
                progress(n + 1, len(chunks))
    else:
        import concurrent.futures as cf
        import multiprocessing

        ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            futures = [pool.submit(_chunk, *args, chunk, tlist, rules) for chunk in chunks]
            for n, fut in enumerate(cf.as_completed(futures)):
                rows += fut.result()
                if progress is not None:
                    progress(n + 1, len(chunks))
    order = {"ranged": 0, "melee": 1}
    rows.sort(key=lambda r: (r.factions[0].lower() if r.factions else "", r.name.lower(),
                             order[r.phase]))
    return rows
