"""The ``atlas`` command: every datasheet of the installed data against the standard targets
(a thin wrapper around :mod:`mathhammer.app.atlas` and :mod:`mathhammer.report.atlas`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import InputError
from .army import current_data, data_option
from .output import CONTEXT


@click.command(context_settings=CONTEXT)
@click.option("--rules", "edition", type=click.Choice(["10e", "11e"]),
              help="The edition of the data (default: the installed one; 10e when both are).")
@click.option("--target", "-t", "targets", multiple=True, metavar="TARGET",
              help="A target (a unit name or an inline profile; repeatable); default: the "
                   "standard targets.")
@click.option("--format", "fmt", type=click.Choice(["html", "csv", "json", "md"]),
              default="html", show_default=True, help="Output format.")
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write to FILE instead of standard output.")
@click.option("--workers", type=click.IntRange(1, 64), metavar="N",
              help="Processes to use (default: every core).")
@data_option
def atlas(edition: str | None, targets: tuple[str, ...], fmt: str, output: str | None,
          workers: int | None) -> None:
    """Every datasheet of the installed BattleScribe data, ranged and melee, against the
    standard targets (or --target): the exact expected kills and damage per model and per 100
    points. HTML is one page with a section per faction, sortable columns and the exact
    value on hover.

    \b
    Examples:
      mathhammer atlas -o atlas-10e.html
      mathhammer atlas --rules 11e -t MEQ -t "1x T12 Sv2+ W22" --format csv -o 11e.csv
    """
    from ..app.atlas import atlas as make_atlas
    from ..app.grids import standard_targets
    from ..app.specs import target_of
    from ..data.store.data_folder import installed_editions
    from ..report.atlas import render_atlas

    data = current_data()
    have = installed_editions(data)
    if edition is None:
        if not have:
            from ..data.store.data_folder import edition_dir

            edition_dir("10e", data)  # the error says how to get the data
        edition = "10e" if "10e" in have else have[0]
    rules = "11e" if edition == "11e" else "10e"
    named = [target_of(t, rules=rules, data=data) for t in (targets or standard_targets())]
    from ..model.squad import describe_target

    with click.progressbar(length=1, label=f"atlas of the {edition} data", file=sys.stderr) as bar:
        def progress(done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos)

        rows = make_atlas(edition, named, data, workers=workers, progress=progress)
    if not rows:
        raise InputError(f"no datasheet of the {edition} data has weapons to compare")
    title = f"mathhammer atlas: every {edition} datasheet against " + \
        ", ".join(n for n, _t in named)
    text = render_atlas(rows, [n for n, _t in named], fmt, title=title,
                        targets_text=[describe_target(t) for _n, t in named])
    if output is None:
        click.echo(text, nl=False)
        return
    Path(output).write_text(text, encoding="utf-8")
    sheets = len({(r.name, r.factions) for r in rows})
    click.echo(f"wrote {output}: {sheets} datasheets, {len(rows)} rows", err=True)
