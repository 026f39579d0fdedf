"""How a :class:`~mathhammer.engine.attack.Result` shows itself in a notebook: HTML tables
(Jupyter's ``_repr_html_``), the ``--json`` data (``Result.to_dict()``) and pandas DataFrames
(the ``notebook`` extra); a PMF's own are :mod:`mathhammer.prob.display`.

A result calls these functions lazily, from its display methods only: the displays sit on top
of the reports (:mod:`mathhammer.report.text` gives the words and numbers, this module only lays
them out as HTML).
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..app.scenario import Counter, Query
from ..engine.attack import Result
from ..prob.display import CELL, LEFT, exact_cell, frame_rows, pandas_module, pmf_html
from .jsonout import kills_json
from .text import Section, header_rows, kills_sections, shown


def query_of(result: Result) -> Query:
    """The question a result answers, as the reports take it (its attacker, weapons, target,
    options and named rules)."""
    return Query(result.attacker_name, result.profiles, result.target_name, result.target,
                 result.options, result.named_rules)


def _section_html(section: Section) -> str:
    head = (f'<tr><th style="{LEFT}">{escape(section.title)}</th>'
            f'<th style="{CELL}">value</th><th style="{LEFT}">exact</th></tr>'
            if section.columns else
            f'<tr><th colspan="3" style="{LEFT}">{escape(section.title)}</th></tr>')
    rows = []
    for row in section.rows:
        pad = f"padding-left:{0.5 + row.indent / 2:.1f}em"
        exact = exact_cell(row.value, LEFT)
        rows.append(f'<tr><td style="{LEFT};{pad}">{escape(row.label)}</td>'
                    f'<td style="{CELL}">{escape(shown(row))}</td>{exact}</tr>')
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
    head = "".join(f'<tr><th style="{LEFT};vertical-align:top">'
                   f'{escape(label + ":" if label else "")}</th>'
                   f'<td style="{LEFT}">{escape(text)}</td></tr>'
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


def result_frame(result: Result) -> Any:
    """Every counter of a result (attacks ... kills) as one DataFrame indexed by
    ``(counter, k)``, with the columns of :func:`pmf_frame`."""
    pd = pandas_module()
    rows = [{"counter": c.value, **row} for c in Counter
            for row in frame_rows(getattr(result, c.value))]
    return pd.DataFrame(rows).set_index(["counter", "k"])
