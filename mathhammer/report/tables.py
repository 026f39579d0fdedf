"""Comparison grids (:mod:`mathhammer.app.grids`: attackers against targets, one metric per
cell) rendered as text, Markdown, CSV, HTML or JSON.

>>> import mathhammer as mh
>>> from mathhammer.app.grids import Column, Row, build_grid
>>> rifle = mh.Weapon("Rifle", attacks=1, skill=3, strength=4, ap=0, damage=1)
>>> geq = mh.Target(models=5, toughness=4, save=3, wounds=1, name="Five")
>>> grid = build_grid([Row("Rifles", ((rifle, 5),))], [Column("Five", geq)], "kills")
>>> grid.values[0][0]  # 5 attacks, each kills with 2/3 * 1/2 * 1/3 = 1/9
Fraction(5, 9)
>>> print(render(grid, "md").splitlines()[2])
| Rifles | 0.56 |

Why one module: a grid's five renderings change together (a new column field, a new
metric's format), and each rendering is a screenful.
"""

from __future__ import annotations

import csv
import html
import io
from enum import StrEnum
from fractions import Fraction

from ..app.grids import METRIC_TEXT, Column, Grid
from ..errors import InputError
from ..model.squad import describe_target
from ..prob.numbers import decimal, exact_and_float, percent, short_fraction, to_json


class Format(StrEnum):
    """The formats a comparison grid renders to."""

    TEXT = "text"
    MD = "md"
    CSV = "csv"
    HTML = "html"
    JSON = "json"


FORMATS = tuple(f.value for f in Format)


def format_value(value: Fraction | None, metric: str) -> str:
    """A cell as shown in text, Markdown and HTML.

    >>> format_value(Fraction(1, 3), "kills"), format_value(Fraction(1, 3), "destroyed")
    ('0.33', '33.3%')
    """
    if value is None:
        return "-"
    if metric == "destroyed":
        return percent(value, 1)
    return decimal(value, 2)


def render(grid: Grid, fmt: str, width: int | None = None) -> str:
    """The grid as ``text``, ``md``, ``csv``, ``html`` or ``json``; ``width``: the text's
    columns are wrapped into blocks that fit it (a terminal's width)."""
    renderers = {"text": render_text, "md": render_markdown, "csv": render_csv,
                 "html": render_html, "json": render_json}
    if fmt not in renderers:
        raise InputError(f"format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    return render_text(grid, width) if fmt == "text" else renderers[fmt](grid)


def _target_text(c: Column) -> str:
    """A column's target as the legend shows it, with its rules from data."""
    rules = [getattr(r, "name", str(r)) for r in c.rules]
    return describe_target(c.target) + (f"; its rules: {', '.join(rules)}" if rules else "")


def _legend(grid: Grid) -> list[str]:
    return [f"{c.label}: {_target_text(c)}" for c in grid.columns]


def render_text(grid: Grid, width: int | None = None) -> str:
    """A plain table, numbers right-aligned; wider than ``width``, its columns are wrapped into
    blocks that fit, each with the attackers again (at least one column a block)."""
    cells = [[format_value(v, grid.metric) for v in line] for line in grid.values]
    lw = max(len("attacker"), *(len(r.label) for r in grid.rows))
    widths = [max(len(c.label), *(len(line[j]) for line in cells))
              for j, c in enumerate(grid.columns)]
    blocks: list[list[int]] = [[]]
    used = lw
    for j, w in enumerate(widths):
        if blocks[-1] and width is not None and used + 2 + w > width:
            blocks.append([])
            used = lw
        blocks[-1].append(j)
        used += 2 + w
    out = [grid.caption]
    for block in blocks:
        out += ["", f"{'attacker':<{lw}}  " + "  ".join(
            f"{grid.columns[j].label:>{widths[j]}}" for j in block)]
        out.append("-" * len(out[-1]))
        for row, line in zip(grid.rows, cells, strict=True):
            out.append(f"{row.label:<{lw}}  " + "  ".join(f"{line[j]:>{widths[j]}}"
                                                        for j in block))
    out += ["", *_legend(grid)]
    return "\n".join(s.rstrip() for s in out) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def render_markdown(grid: Grid) -> str:
    """A GitHub Markdown table with the targets' profiles below it."""
    out = [f"| attacker | {' | '.join(_md_escape(c.label) for c in grid.columns)} |",
           "| --- |" + " ---: |" * len(grid.columns)]
    for row, line in zip(grid.rows, grid.values, strict=True):
        vals = " | ".join(format_value(v, grid.metric) for v in line)
        out.append(f"| {_md_escape(row.label)} | {vals} |")
    out += ["", f"*{_md_escape(grid.caption)}.*", ""]
    out += [f"- **{_md_escape(c.label)}**: {_md_escape(_target_text(c))}"
            for c in grid.columns]
    details = [r for r in grid.rows if r.detail]
    if details:
        out.append("")
        out += [f"- **{_md_escape(r.label)}**: {_md_escape(r.detail)}" for r in details]
    return "\n".join(out) + "\n"


def render_csv(grid: Grid) -> str:
    """CSV: one row per attacker; destroyed as a probability, the rest as numbers (6 places)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["attacker", *(c.label for c in grid.columns)])
    for row, line in zip(grid.rows, grid.values, strict=True):
        w.writerow([row.label, *("" if v is None else decimal(v, 6) for v in line)])
    return buf.getvalue()


def render_json(grid: Grid) -> str:
    """JSON: every cell exact (``"num/den"``) and as a float; null where it does not apply."""
    data = {
        "metric": grid.metric,
        "description": METRIC_TEXT[grid.metric],
        "title": grid.title,
        "columns": [{"label": c.label, "target": describe_target(c.target),
                     "rules": [getattr(r, "name", str(r)) for r in c.rules]}
                    for c in grid.columns],
        "rows": [{"label": r.label, "detail": r.detail, "points": r.points,
                  "options": r.options.describe(),
                  "named_rules": [getattr(n, "name", n) for n in r.named_rules],
                  "values": [None if v is None else exact_and_float(v) for v in line]}
                 for r, line in zip(grid.rows, grid.values, strict=True)],
    }
    return to_json(data)


_CSS = """\
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
th, td { padding: 0.35em 0.7em; border: 1px solid #ccc; }
th { background: #f3f3f3; }
td { text-align: right; font-variant-numeric: tabular-nums; }
th[scope=row] { text-align: left; font-weight: normal; }
td[title], th[title] { cursor: help; }
caption { caption-side: top; text-align: left; font-weight: bold; padding-bottom: 0.5em; }
.legend { color: #555; font-size: 0.9em; }
"""


def _shade(value: Fraction | None, lo: Fraction | None, hi: Fraction | None) -> str:
    """A background from white (the column's lowest) to green (its highest)."""
    if value is None or lo is None or hi is None or hi == lo:
        return ""
    t = float((value - lo) / (hi - lo))
    lightness = 97 - 47 * t
    return f' style="background: hsl(130, 55%, {lightness:.0f}%)' + \
        ('; color: #fff"' if lightness < 62 else '"')


def render_html(grid: Grid, title: str | None = None) -> str:
    """A self-contained page: the table shaded per column; hover a cell for its exact value."""
    esc = html.escape
    page_title = title or grid.caption
    head = "".join(f'<th scope="col" title="{esc(_target_text(c))}">{esc(c.label)}</th>'
                   for c in grid.columns)
    body = []
    columns = list(zip(*grid.values, strict=True)) if grid.values else []
    ranges = []
    for col in columns:
        present = [v for v in col if v is not None]
        ranges.append((min(present), max(present)) if present else (None, None))
    for row, line in zip(grid.rows, grid.values, strict=True):
        cells = []
        for v, (lo, hi) in zip(line, ranges, strict=True):
            tip = "" if v is None else f' title="{esc(short_fraction(v))}"'
            cells.append(f"<td{tip}{_shade(v, lo, hi)}>{esc(format_value(v, grid.metric))}</td>")
        rt = f' title="{esc(row.detail)}"' if row.detail else ""
        body.append(f'<tr><th scope="row"{rt}>{esc(row.label)}</th>{"".join(cells)}</tr>')
    legend = "".join(f"<li><b>{esc(c.label)}</b>: {esc(describe_target(c.target))}</li>"
                     for c in grid.columns)
    legend += "".join(f"<li><b>{esc(r.label)}</b>: {esc(r.detail)}</li>"
                      for r in grid.rows if r.detail)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{esc(page_title)}</title>
<style>
{_CSS}</style>
</head>
<body>
<table>
<caption>{esc(grid.caption)}</caption>
<thead><tr><th scope="col">attacker</th>{head}</tr></thead>
<tbody>
{chr(10).join(body)}
</tbody>
</table>
<p class="legend">Shading runs from the lowest (white) to the highest (green) value of each
column. Hover a cell for its exact value.</p>
<ul class="legend">{legend}</ul>
</body>
</html>
"""


