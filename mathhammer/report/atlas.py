"""The whole game in one table, rendered: the rows of :func:`mathhammer.app.atlas.atlas` (every
datasheet against the standard targets, exact expected kills and damage) per model and per 100
points, as HTML (a section per faction, sortable, a metric switch, the exact value on hover),
CSV, JSON or Markdown (:func:`render_atlas`).

>>> from fractions import Fraction
>>> from mathhammer.app.atlas import AtlasRow
>>> row = AtlasRow("Gun", ("Necrons",), "ranged", 2, 50, ((Fraction(3), Fraction(4)),))
>>> # kills, damage 3 and 4; per model 3/2 and 4/2; per 100 pts 3*100/50 = 6 and 4*100/50 = 8
>>> print(render_atlas([row], ["MEQ"], "csv").splitlines()[1])
Necrons,Necrons,Gun,ranged,2,50,MEQ,3.000000,4.000000,1.500000,6.000000,2.000000,8.000000
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from fractions import Fraction

from ..app.atlas import AtlasRow
from ..errors import InputError
from ..prob.numbers import decimal, exact_and_float, fraction, short_fraction, to_json

FORMATS = ("html", "csv", "json", "md")
#: The four numbers of a cell: (label, kills or damage, per model or per 100 points).
METRICS = (("kills per model", 0, "model"), ("kills per 100 pts", 0, "100pts"),
           ("damage per model", 1, "model"), ("damage per 100 pts", 1, "100pts"))


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

