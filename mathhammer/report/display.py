"""How a :class:`~mathhammer.prob.pmf.PMF` and a :class:`~mathhammer.engine.attack.Result`
show themselves in a notebook: HTML tables (Jupyter's ``_repr_html_``), the ``--json`` data
(``Result.to_dict()``) and pandas DataFrames (the ``notebook`` extra).

The value types call these functions lazily, from their display methods only: the displays sit
on top of the reports (:mod:`mathhammer.report.text` gives the words and numbers, this module
only lays them out as HTML).

>>> from fractions import Fraction
>>> from mathhammer.prob.pmf import PMF
>>> rows = pmf_rows(PMF({0: 1, 1: 2, 2: 1}))
>>> [(k, p, ge) for k, p, ge in rows] == [(0, Fraction(1, 4), 1), (1, Fraction(1, 2),
...     Fraction(3, 4)), (2, Fraction(1, 4), Fraction(1, 4))]
True
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from numbers import Real
from typing import Any

from ..engine.attack import Result
from ..errors import InputError
from ..prob.numbers import fraction, percent, readable_fraction
from ..prob.pmf import PMF
from .jsonout import kills_json
from .scenario import Counter, Query
from .text import Section, header_rows, kills_sections, shown

PANDAS_MISSING = ("DataFrames need pandas: pip install 'mathhammer[notebook]' "
                  "(or pip install pandas)")
#: a distribution with more outcomes than this hides its tails under 0.01% (said below it)
MAX_ROWS = 40
#: an exact fraction is in a cell's tooltip when it has at most this many characters
TOOLTIP_CHARS = 2000
_BAR = "#4c72b0"
_CELL = "padding:1px 8px;text-align:right;font-variant-numeric:tabular-nums"
_LEFT = "padding:1px 8px;text-align:left"


def pmf_rows(pmf: PMF) -> list[tuple[Any, Fraction, Fraction | None]]:
    """``(outcome, P(= k), P(>= k))`` in order; P(>= k) is None when the outcomes are not
    numbers (a distribution of target states)."""
    pairs = list(pmf.items())
    numeric = all(isinstance(k, Real) for k, _ in pairs)
    out, tail = [], Fraction(1)
    for k, p in pairs:
        out.append((k, p, tail if numeric else None))
        tail -= p
    return out


def _exact_cell(p: Fraction, style: str = _CELL) -> str:
    text = fraction(p) if p.denominator != 1 else str(p.numerator)
    tip = f' title="{escape(text)}"' if len(text) <= TOOLTIP_CHARS else ""
    return f'<td style="{style}"{tip}>{escape(readable_fraction(p))}</td>'


def _shown_rows(rows: list) -> tuple[list, str]:
    """The rows to show and a note on any hidden: tails under 0.01% of a long distribution."""
    if len(rows) <= MAX_ROWS:
        return rows, ""
    small = Fraction(1, 10_000)
    lo, hi = 0, len(rows)
    while hi - lo > MAX_ROWS and rows[lo][1] < small:
        lo += 1
    while hi - lo > MAX_ROWS and rows[hi - 1][1] < small:
        hi -= 1
    hidden = rows[:lo] + rows[hi:]
    if not hidden:
        return rows, ""
    mass = sum((p for _, p, _ in hidden), Fraction(0))
    return rows[lo:hi], (f"{len(hidden)} outcomes under 0.01% not shown (together "
                         f"{percent(mass)}); dict(pmf) has them all")


def pmf_html(pmf: PMF, what: str = "k") -> str:
    """A distribution as an HTML table: outcome, exact P(= k), P(= k) and P(>= k) as
    percentages, and a bar for P(= k).

    >>> html = pmf_html(PMF({0: 1, 1: 3}), "kills")
    >>> html.count("<tr>"), "<td" + html.split("<td")[2].split(">")[0], "75.00%" in html
    (3, '<td style="padding:1px 8px;text-align:right;font-variant-numeric:tabular-nums" \
title="1/4"', True)
    """
    rows = pmf_rows(pmf)
    ordered = rows[0][2] is not None
    top = max(p for _, p, _ in rows)
    shown_rows, note = _shown_rows(rows)
    head = [what, "exact", "P(=k)", *(["P(\u2265k)"] if ordered else []), ""]
    out = ['<table class="mathhammer-pmf" style="border-collapse:collapse">',
           "<thead><tr>" + "".join(f'<th style="{_CELL}">{escape(h)}</th>' for h in head)
           + "</tr></thead>", "<tbody>"]
    for k, p, ge in shown_rows:
        width = float(100 * p / top)
        bar = (f'<div style="background:{_BAR};height:0.8em;width:{width:.1f}%;'
               f'min-width:{1 if p else 0}px"></div>')
        cells = [f'<td style="{_CELL}">{escape(str(k))}</td>', _exact_cell(p),
                 f'<td style="{_CELL}">{percent(p)}</td>']
        if ordered:
            cells.append(f'<td style="{_CELL}">{percent(ge)}</td>')
        cells.append(f'<td style="{_LEFT};width:12em">{bar}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    if note:
        out.append(f'<caption style="caption-side:bottom;{_LEFT}">{escape(note)}</caption>')
    out.append("</table>")
    return "".join(out)


def query_of(result: Result) -> Query:
    """The question a result answers, as the reports take it (its attacker, weapons, target,
    options and named rules)."""
    return Query(result.attacker_name, result.profiles, result.target_name, result.target,
                 result.options, result.named_rules)


def _section_html(section: Section) -> str:
    head = (f'<tr><th style="{_LEFT}">{escape(section.title)}</th>'
            f'<th style="{_CELL}">value</th><th style="{_LEFT}">exact</th></tr>'
            if section.columns else
            f'<tr><th colspan="3" style="{_LEFT}">{escape(section.title)}</th></tr>')
    rows = []
    for row in section.rows:
        pad = f"padding-left:{0.5 + row.indent / 2:.1f}em"
        exact = _exact_cell(row.value, _LEFT)
        rows.append(f'<tr><td style="{_LEFT};{pad}">{escape(row.label)}</td>'
                    f'<td style="{_CELL}">{escape(shown(row))}</td>{exact}</tr>')
    return ('<table class="mathhammer-values" style="border-collapse:collapse;'
            'margin-top:0.6em">' + head + "".join(rows) + "</table>")


def result_html(result: Result) -> str:
    """The ``mathhammer kills`` report of a result as HTML: who attacks what under which
    rules, the expected values with their exact fractions, P(destroyed), Deadly Demise and
    Hazardous when they apply, and the kill distribution.

    >>> import mathhammer as mh
    >>> gun = mh.Weapon("<Gun>", attacks=1, skill=2, strength=4, ap=0, damage=1)
    >>> html = result_html(mh.attack((gun, 2), mh.Target(2, 4, 7, 1, name="Grots")))
    >>> html[html.index("<h4"):html.index("</h4>") + 5]  # names are escaped
    '<h4 style="margin:0.2em 0">2x &lt;Gun&gt; → Grots</h4>'
    """
    query = query_of(result)
    head = "".join(f'<tr><th style="{_LEFT};vertical-align:top">'
                   f'{escape(label + ":" if label else "")}</th>'
                   f'<td style="{_LEFT}">{escape(text)}</td></tr>'
                   for label, text in header_rows(query))
    parts = [f'<div class="mathhammer-result"><h4 style="margin:0.2em 0">'
             f"{escape(query.attacker)} \u2192 {escape(query.target_name)}</h4>",
             f'<table class="mathhammer-header" style="border-collapse:collapse">{head}</table>',
             *(_section_html(s) for s in kills_sections(query, result)),
             '<div style="margin-top:0.6em">', pmf_html(result.kills, "kills"), "</div></div>"]
    return "".join(parts)


def result_dict(result: Result) -> dict[str, Any]:
    """``mathhammer kills --json``'s data for a result (:func:`~.jsonout.kills_json`)."""
    return kills_json(query_of(result), result)


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise InputError(PANDAS_MISSING) from None
    return pandas


def _frame_rows(pmf: PMF) -> list[dict[str, Any]]:
    return [{"k": k, "p_exact": p, "p": float(p), "at_least_exact": ge,
             "at_least": None if ge is None else float(ge)} for k, p, ge in pmf_rows(pmf)]


def pmf_frame(pmf: PMF) -> Any:
    """A pandas DataFrame indexed by outcome ``k``: ``p_exact`` and ``at_least_exact``
    (Fractions, object columns) beside the floats ``p`` and ``at_least``."""
    pd = _pandas()
    return pd.DataFrame(_frame_rows(pmf)).set_index("k")


def result_frame(result: Result) -> Any:
    """Every counter of a result (attacks ... kills) as one DataFrame indexed by
    ``(counter, k)``, with the columns of :func:`pmf_frame`."""
    pd = _pandas()
    rows = [{"counter": c.value, **row} for c in Counter
            for row in _frame_rows(getattr(result, c.value))]
    return pd.DataFrame(rows).set_index(["counter", "k"])
