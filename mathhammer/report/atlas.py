"""The whole game in one table: every datasheet of an edition's installed data, ranged and
melee, against the standard targets, as exact expected kills and damage per model and per 100
points (:func:`atlas`), rendered as HTML (a section per faction, sortable, a metric switch,
the exact value on hover), CSV, JSON or Markdown (:func:`render_atlas`).

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

import csv
import html
import io
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from ..errors import InputError
from ..prob.numbers import decimal, exact_and_float, fraction, short_fraction, to_json

FORMATS = ("html", "csv", "json", "md")
#: The four numbers of a cell: (label, kills or damage, per model or per 100 points).
METRICS = (("kills per model", 0, "model"), ("kills per 100 pts", 0, "100pts"),
           ("damage per model", 1, "model"), ("damage per 100 pts", 1, "100pts"))


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


# ---------------------------------------------------------------- rendering


def render_atlas(rows: Sequence[AtlasRow], labels: Sequence[str], fmt: str, *,
                 title: str = "", targets_text: Sequence[str] = ()) -> str:
    """The atlas as ``html``, ``csv``, ``json`` or ``md``."""
    if fmt == "csv":
        return _csv(rows, labels)
    if fmt == "json":
        return _json(rows, labels, title, targets_text)
    if fmt == "md":
        return _md(rows, labels, title, targets_text)
    if fmt == "html":
        return _html(rows, labels, title, targets_text)
    raise InputError(f"--format {fmt!r}: expected one of {', '.join(FORMATS)}")


def _by_faction(rows: Sequence[AtlasRow]) -> dict[str, list[AtlasRow]]:
    out: dict[str, list[AtlasRow]] = {}
    for r in rows:
        out.setdefault(r.factions[0] if r.factions else "", []).append(r)
    return out


def _cells(r: AtlasRow, j: int) -> list[Fraction | None]:
    v = r.values[j]
    if v is None:
        return [None] * len(METRICS)
    return [r.per(v[which], per) for _label, which, per in METRICS]


def _csv(rows: Sequence[AtlasRow], labels: Sequence[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["faction", "factions", "datasheet", "phase", "models", "points", "target",
                "kills", "damage", *(m[0].replace(" ", "_") for m in METRICS)])
    for r in rows:
        for j, label in enumerate(labels):
            v = r.values[j]
            if v is None:
                continue
            w.writerow([r.factions[0] if r.factions else "", "; ".join(r.factions), r.name,
                        r.phase, r.models, "" if r.points is None else r.points, label,
                        decimal(v[0], 6), decimal(v[1], 6),
                        *("" if x is None else decimal(x, 6) for x in _cells(r, j))])
    return buf.getvalue()


def _json(rows: Sequence[AtlasRow], labels: Sequence[str], title: str,
          targets_text: Sequence[str]) -> str:
    data = {
        "title": title,
        "targets": [{"label": lab, "target": txt} for lab, txt in
                    zip(labels, list(targets_text) or [""] * len(labels), strict=True)],
        "rows": [{
            "datasheet": r.name, "factions": list(r.factions), "phase": r.phase,
            "models": r.models, "points": r.points, "note": r.note,
            "values": [None if (v := r.values[j]) is None else {
                "kills": exact_and_float(v[0]),
                "damage": exact_and_float(v[1]),
                **{m[0].replace(" ", "_"): None if x is None else exact_and_float(x)
                   for m, x in zip(METRICS, _cells(r, j), strict=True)}}
                for j in range(len(labels))]}
            for r in rows],
    }
    return to_json(data)


def _md(rows: Sequence[AtlasRow], labels: Sequence[str], title: str,
        targets_text: Sequence[str]) -> str:
    esc = lambda t: t.replace("|", "\\|")  # noqa: E731
    out = [f"# {esc(title)}", "",
           "Each cell: expected kills per model / per 100 points (exact values: "
           "`--format json`).", ""]
    out += [f"- **{esc(lab)}**: {esc(txt)}" for lab, txt in zip(labels, targets_text,
                                                                  strict=False)]
    for faction, items in _by_faction(rows).items():
        out += ["", f"## {esc(faction)}", "",
                "| datasheet | phase | models | pts | " + " | ".join(map(esc, labels)) + " |",
                "| --- | --- | ---: | ---: |" + " ---: |" * len(labels)]
        for r in items:
            cells = []
            for j in range(len(labels)):
                c = _cells(r, j)
                cells.append("-" if c[0] is None else
                             f"{decimal(c[0], 2)} / {'-' if c[1] is None else decimal(c[1], 2)}")
            out.append(f"| {esc(r.name)} | {r.phase} | {r.models} | "
                       f"{'-' if r.points is None else r.points} | {' | '.join(cells)} |")
    return "\n".join(out) + "\n"


_CSS = """\
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { padding: 0.3em 0.6em; border: 1px solid #ccc; }
th { background: #f3f3f3; cursor: pointer; user-select: none; }
th.sorted-asc::after { content: " \\25B2"; } th.sorted-desc::after { content: " \\25BC"; }
td { text-align: right; font-variant-numeric: tabular-nums; }
td.name, td.phase { text-align: left; }
td[title] { cursor: help; }
nav a { margin-right: 0.8em; white-space: nowrap; }
.metric button { margin-right: 0.4em; } .metric button.on { font-weight: bold; }
.legend { color: #555; font-size: 0.9em; }
"""

_JS = """\
const METRICS = [[0, 'model'], [0, '100pts'], [1, 'model'], [1, '100pts']];
function frac(s) { const [n, d] = s.split('/'); return [BigInt(n), BigInt(d || '1')]; }
function gcd(a, b) { a = a < 0n ? -a : a; while (b) { [a, b] = [b, a % b]; } return a; }
function show(n, d) { const g = gcd(n, d) || 1n; n /= g; d /= g;
  return d === 1n ? n.toString() : n + '/' + d; }
function setMetric(m) {
  const [which, per] = METRICS[m];
  document.querySelectorAll('.metric button').forEach(
    (b, i) => b.classList.toggle('on', i === m));
  document.querySelectorAll('table.atlas').forEach(table => {
    const rows = [...table.tBodies[0].rows];
    const cols = rows.length ? rows[0].cells.length : 0;
    const lo = [], hi = [];
    rows.forEach(tr => {
      const models = BigInt(tr.dataset.models), pts = tr.dataset.points;
      [...tr.cells].forEach((td, j) => {
        if (!td.dataset.v) return;
        let [n, d] = frac(td.dataset.v.split(' ')[which]);
        if (per === 'model') { d *= models; }
        else if (pts) { n *= 100n; d *= BigInt(pts); }
        else { td.textContent = '-'; td.removeAttribute('title'); td.dataset.f = '';
               td.style.background = ''; td.style.color = ''; return; }
        const f = Number(n * 1000000n / d) / 1000000;
        td.dataset.f = f; td.textContent = f.toFixed(2); td.title = show(n, d);
        lo[j] = Math.min(lo[j] ?? f, f); hi[j] = Math.max(hi[j] ?? f, f);
      });
    });
    rows.forEach(tr => [...tr.cells].forEach((td, j) => {
      if (!td.dataset.f) return;
      const t = hi[j] > lo[j] ? (td.dataset.f - lo[j]) / (hi[j] - lo[j]) : 0;
      const l = 97 - 47 * t;
      td.style.background = hi[j] > lo[j] ? `hsl(130, 55%, ${l.toFixed(0)}%)` : '';
      td.style.color = l < 62 ? '#fff' : '';
    }));
  });
}
function sortBy(th) {
  const table = th.closest('table'), j = th.cellIndex, body = table.tBodies[0];
  const asc = !th.classList.contains('sorted-desc') && th.classList.contains('sorted-asc')
    ? false : !th.classList.contains('sorted-asc');
  table.querySelectorAll('th').forEach(h => h.classList.remove('sorted-asc', 'sorted-desc'));
  th.classList.add(asc ? 'sorted-asc' : 'sorted-desc');
  const key = tr => { const td = tr.cells[j];
    if (td.dataset.f !== undefined) return td.dataset.f === '' ? -Infinity : +td.dataset.f;
    const n = Number(td.textContent); return isNaN(n) ? td.textContent.toLowerCase() : n; };
  const rows = [...body.rows].sort((a, b) => { const x = key(a), y = key(b);
    return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1); });
  rows.forEach(tr => body.appendChild(tr));
}
document.querySelectorAll('table.atlas th').forEach(th => th.onclick = () => sortBy(th));
setMetric(1);
"""


def _html(rows: Sequence[AtlasRow], labels: Sequence[str], title: str,
          targets_text: Sequence[str]) -> str:
    esc = html.escape
    groups = _by_faction(rows)
    nav = " ".join(f'<a href="#f{i}">{esc(f or "(none)")}</a>' for i, f in enumerate(groups))
    buttons = "".join(f'<button type="button" onclick="setMetric({i})">{esc(m[0])}</button>'
                      for i, m in enumerate(METRICS))
    tips = list(targets_text) or [""] * len(labels)
    head = ("<th>datasheet</th><th>phase</th><th>models</th><th>pts</th>"
            + "".join(f'<th title="{esc(t)}">{esc(lab)}</th>'
                      for lab, t in zip(labels, tips, strict=True)))
    sections = []
    for i, (faction, items) in enumerate(groups.items()):
        body = []
        for r in items:
            cells = []
            for j in range(len(labels)):
                v = r.values[j]
                if v is None:
                    cells.append('<td data-f="">-</td>')
                    continue
                per100 = r.per(v[0], "100pts")
                shown = "-" if per100 is None else decimal(per100, 2)
                tip = "" if per100 is None else f' title="{esc(short_fraction(per100))}"'
                cells.append(f'<td data-v="{fraction(v[0])} {fraction(v[1])}"{tip}>'
                             f"{shown}</td>")
            others = ", ".join(r.factions[1:])
            name_tip = f' title="also: {esc(others)}"' if others else ""
            note = f' title="{esc(r.note)}"' if r.note else ""
            body.append(
                f'<tr data-models="{r.models}" data-points="{r.points or ""}">'
                f'<td class="name"{name_tip}>{esc(r.name)}</td><td class="phase"{note}>'
                f'{r.phase}</td><td>{r.models}</td><td>{r.points or "-"}</td>'
                f'{"".join(cells)}</tr>')
        sections.append(f'<h2 id="f{i}">{esc(faction or "(none)")}</h2>\n'
                        f'<table class="atlas"><thead><tr>{head}</tr></thead><tbody>\n'
                        + "\n".join(body) + "\n</tbody></table>")
    legend = "".join(f"<li><b>{esc(lab)}</b>: {esc(t)}</li>"
                     for lab, t in zip(labels, tips, strict=True))
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{esc(title)}</title>
<style>
{_CSS}</style>
</head>
<body>
<h1>{esc(title)}</h1>
<p class="legend">Every datasheet at its smallest size with its standard wargear, each phase's
weapons at once, against each target: exact expected values (hover a cell for the fraction);
click a column to sort; shading runs from the lowest (white) to the highest (green) value of
each column of a faction.</p>
<p class="metric">{buttons}</p>
<ul class="legend">{legend}</ul>
<nav>{nav}</nav>
{chr(10).join(sections)}
<script>
{_JS}</script>
</body>
</html>
"""

