"""How a :class:`~mathhammer.prob.pmf.PMF` shows itself in a notebook: an HTML table (Jupyter's
``_repr_html_``) and a pandas DataFrame (the ``notebook`` extra); a result's displays
(:mod:`mathhammer.report.display`) lay their distributions out with these.

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
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .numbers import fraction, percent, readable_fraction

if TYPE_CHECKING:
    from .pmf import PMF

PANDAS_MISSING = ("DataFrames need pandas: pip install 'mathhammer[notebook]' "
                  "(or pip install pandas)")
#: a distribution with more outcomes than this hides its tails under 0.01% (said below it)
MAX_ROWS = 40
#: an exact fraction is in a cell's tooltip when it has at most this many characters
TOOLTIP_CHARS = 2000
BAR = "#4c72b0"
CELL = "padding:1px 8px;text-align:right;font-variant-numeric:tabular-nums"
LEFT = "padding:1px 8px;text-align:left"


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


def exact_cell(p: Fraction, style: str = CELL) -> str:
    """A probability's table cell: readable, its exact fraction in the tooltip."""
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

    >>> from mathhammer.prob.pmf import PMF
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
           "<thead><tr>" + "".join(f'<th style="{CELL}">{escape(h)}</th>' for h in head)
           + "</tr></thead>", "<tbody>"]
    for k, p, ge in shown_rows:
        width = float(100 * p / top)
        bar = (f'<div style="background:{BAR};height:0.8em;width:{width:.1f}%;'
               f'min-width:{1 if p else 0}px"></div>')
        cells = [f'<td style="{CELL}">{escape(str(k))}</td>', exact_cell(p),
                 f'<td style="{CELL}">{percent(p)}</td>']
        if ordered:
            cells.append(f'<td style="{CELL}">{percent(ge)}</td>')
        cells.append(f'<td style="{LEFT};width:12em">{bar}</td>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    if note:
        out.append(f'<caption style="caption-side:bottom;{LEFT}">{escape(note)}</caption>')
    out.append("</table>")
    return "".join(out)


def pandas_module() -> Any:
    """pandas, or the one-line error that says how to install it."""
    try:
        import pandas
    except ImportError:
        raise InputError(PANDAS_MISSING) from None
    return pandas


def frame_rows(pmf: PMF) -> list[dict[str, Any]]:
    """A DataFrame's rows of a distribution: the exact values beside floats."""
    return [{"k": k, "p_exact": p, "p": float(p), "at_least_exact": ge,
             "at_least": None if ge is None else float(ge)} for k, p, ge in pmf_rows(pmf)]


def pmf_frame(pmf: PMF) -> Any:
    """A pandas DataFrame indexed by outcome ``k``: ``p_exact`` and ``at_least_exact``
    (Fractions, object columns) beside the floats ``p`` and ``at_least``."""
    pd = pandas_module()
    return pd.DataFrame(frame_rows(pmf)).set_index("k")
