"""``mathhammer data check``: import every datasheet of the installed BattleScribe data and ask
each phase against MEQ (:mod:`mathhammer.app.datacheck`); registered on the ``data`` group
by :mod:`mathhammer.cli.army`."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from .output import CONTEXT

if TYPE_CHECKING:
    from ..data.store.data_folder import Edition


@click.command(context_settings=CONTEXT)
@click.option("--edition", type=click.Choice(["10e", "11e"]),
              help="Which edition's data (default: the edition of the data when it holds one, "
                   "else 10e).")
@click.option("--data", "data", metavar="DIR",
              help="BattleScribe data folder (default $MATHHAMMER_DATA, else the cache).")
@click.option("--catalogue", "catalogues", multiple=True, metavar="WORD",
              help="Only the catalogue files whose names contain WORD (repeatable).")
@click.option("--jobs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Processes checking catalogues in parallel.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@click.option("--causes", type=click.IntRange(0, 1000), default=12, show_default=True,
              help="How many causes to list for each kind of result.")
def check(edition: Edition | None, data: str | None, catalogues: tuple[str, ...], jobs: int,
          as_json: bool, causes: int) -> None:
    """Import every datasheet of the data and ask each phase (ranged, melee) against MEQ;
    report how many are clean, warned about (by cause), failed (by cause), without weapons,
    and cut off by a file missing from the data.

    \b
    Examples:
      mathhammer data check
      mathhammer data check --edition 11e --json
      mathhammer data check --catalogue Necrons --data ~/bsdata
    """
    from ..app.datacheck import check_data
    from ..data.store.data_folder import default_edition
    from ..report.check_text import report_text

    edition = edition or default_edition(data)
    with click.progressbar(length=0, label=f"checking the {edition} data", file=sys.stderr,
                           item_show_func=lambda name: name) as bar:
        def progress(name: str, total: int) -> None:
            bar.length = total
            bar.update(1, name)

        report = check_data(edition, data, jobs=jobs, catalogues=catalogues, progress=progress)
    from ..data.rules.coverage import data_coverage
    from ..report.check_text import coverage_text

    cov = data_coverage(edition, data)  # the rules from data: every ability of the edition
    if as_json:
        click.echo(json.dumps(report.to_json() | {"abilities": cov}, indent=2,
                              ensure_ascii=False))
    else:
        click.echo(report_text(report, causes) + coverage_text(cov), nl=False)
