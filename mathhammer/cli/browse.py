"""The commands that list and write data: ``units``, ``rules``, ``import`` and ``catalogue``.

>>> from click.testing import CliRunner
>>> from mathhammer.cli import cli
>>> "Hexmark Destroyer" in CliRunner().invoke(cli, ["units"]).output
True
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import InputError
from .army import data_option
from .output import CONTEXT

if TYPE_CHECKING:
    from ..data.store.data_folder import Edition

#: A grid with at least this many cells shows a progress bar (when stderr is a terminal).


@click.command(context_settings=CONTEXT)
@click.option("--faction", "-f", help="Only this faction (e.g. necrons, Archetypes).")
@click.option("--search", "-s", metavar="TEXT",
              help="Only units this finds: the exact name first, then whole words, then names "
                   "containing it, then keywords and ability texts.")
@click.option("--weapons", is_flag=True, help="List each bundled unit's weapons too.")
@click.option("--rules", "edition", type=click.Choice(["10e", "11e"]),
              help="The edition of the BattleScribe data to list (default: every installed "
                   "edition).")
@data_option
def units(faction: str | None, search: str | None, weapons: bool, edition: Edition | None
          ) -> None:
    """List the bundled units and standard targets, and every datasheet of the installed
    BattleScribe data (one row per datasheet, with the factions that have it).

    \b
    Examples:
      mathhammer units
      mathhammer units --faction necrons --weapons
      mathhammer units --search captain --rules 10e
    """
    from ..data.typed.inline import describe_weapon
    from ..data.units.bundled import list_units

    found = [] if edition else list_units(faction=faction, search=search)
    if found:
        _bundled(found, weapons, describe_weapon)
    sheets, hint = _datasheets(search, faction, edition)
    for line in sheets:
        click.echo(line)
    if not found and not sheets:
        raise InputError("no units match" + (f" faction {faction!r}" if faction else "")
                         + (f" search {search!r}" if search else "") + (f"; {hint}" if hint
                                                                        else ""))


def _bundled(found, weapons: bool, describe_weapon) -> None:
    nw = max(len(u.name) for u in found)
    fw = max(len(u.faction) for u in found)
    for u in found:
        size = f"{u.size[0]}-{u.size[1]}" if u.size[0] != u.size[1] else str(u.size[0])
        pts = ", ".join(f"{c} pts" if len(u.points) == 1 else f"{n}: {c} pts"
                        for n, c in u.points)
        stat = "; ".join(g.statline() for g in u.groups)
        line = f"{u.name:<{nw}}  {u.faction:<{fw}}  {size:>5} x {stat}"
        click.echo(f"{line}  ({pts})" if pts else line)
        if weapons:
            for w in u.weapons():
                opt = " (optional)" if w.optional else ""
                click.echo(f"    {describe_weapon(w.weapon)}{opt}")


def _datasheets(search: str | None, faction: str | None, edition: Edition | None
                ) -> tuple[list[str], str]:
    """The lines of the installed data's datasheets the search finds, and a hint naming the
    other edition when it finds none there."""
    from ..data.store.compiled import open_store
    from ..data.store.data_folder import installed_editions
    from ..data.store.index import other_edition_hint
    from .army import current_data

    data = current_data()
    have = installed_editions(data)
    if edition is not None and edition not in have:
        if data is not None or not have:
            open_store(edition, data)  # the error says how to get the data
        return [], other_edition_hint(search or "", edition, data) if search else ""
    lines: list[str] = []
    for ed in [edition] if edition else have:
        store = open_store(ed, data)
        rows = store.search(search or "", faction)
        info = store.summaries([d.id for d in rows]) if rows else {}
        for d in rows:
            shown = ", ".join(d.factions[:3]) + (f" +{len(d.factions) - 3}"
                                                if len(d.factions) > 3 else "")
            if d.error is not None:
                lines.append(f"{d.name}  [{ed}] {shown}  (does not import: "
                             f"{short_cause(d.error)})")
                continue
            groups, points = info[d.id]
            stat = "; ".join((f"{lo}-{hi}" if lo != hi else f"{lo}") + f" x {line}"
                             for lo, hi, line in groups)
            pts = ", ".join(f"{c} pts" if len(points) == 1 else f"{n}: {c} pts"
                            for n, c in points)
            lines.append(f"{d.name}  [{ed}] {shown}  {stat}" + (f"  ({pts})" if pts else ""))
    hint = ""
    if not lines and search and edition:
        hint = other_edition_hint(search, edition, data)
    return lines, hint


@click.command(context_settings=CONTEXT)
@click.option("--faction", "-f", help="Only this faction (e.g. necrons).")
@click.option("--search", "-s", help="Only rules whose name, detachment or text contains this.")
@click.option("--text", "full", is_flag=True, help="Print each rule's text too.")
@click.option("--for", "unit", metavar="UNIT",
              help='The rules from data of a unit (or "UNIT + LEADER"): applied, switches '
                   "(off until named with --rule) and not modelled.")
@click.option("--rules", "ruleset", metavar="10e|11e",
              help="The edition whose data --for reads (default: the edition of the data "
                   "when it holds one, else 10e).")
@click.option("--detachment", metavar="NAME",
              help="With --for: only this detachment's stratagems (and the core ones).")
@data_option
def rules(faction: str | None, search: str | None, full: bool, unit: str | None,
          ruleset: str | None, detachment: str | None) -> None:
    """List the named rules that `--rule NAME` switches on (stratagems, detachment rules...).

    \b
    Examples:
      mathhammer rules --faction necrons
      mathhammer rules --search "lethal hits" --text
      mathhammer rules --for "Intercessor Squad + Lieutenant"
      mathhammer rules --for "Custodian Guard" --rules 11e --detachment "Shield Host"
    """
    from ..data.rules.named import list_rules

    if unit is not None:
        from ..data.store.data_folder import default_edition
        from ..report.rules_list import unit_rules_lines
        from .army import current_data

        ruleset = ruleset or default_edition(current_data())
        click.echo("\n".join(unit_rules_lines(unit, rules=ruleset, data=current_data(),
                                               full=full, detachment=detachment)))
        return

    found = list_rules(faction=faction, search=search)
    if not found:
        raise InputError("no named rules match" + (f" faction {faction!r}" if faction else "")
                         + (f" search {search!r}" if search else ""))
    for r in found:
        where = f"{r.faction}, {r.kind}" + (f", {r.detachment}" if r.detachment else "")
        click.echo(f"{r.name} ({where}): {r.describe()}")
        if full:
            click.echo(f"    {r.text}")


@click.command("import", context_settings=CONTEXT)
@click.argument("source", metavar="PAGE|UNIT")
@click.option("--output", "-o", required=True, type=click.Path(), metavar="FILE",
              help="The unit file to write (or a folder: named after the unit).")
@click.option("--statline", metavar="TEXT", help='The statline, e.g. "M8 T5 Sv3+ W5 Ld6+ OC1".')
@click.option("--catalogue", "-c", type=click.Path(dir_okay=False), metavar="FILE",
              help="Import UNIT from a BattleScribe catalogue (.cat, or .json for 11e) instead.")
@click.option("--force", is_flag=True, help="Overwrite the output file if it exists.")
def import_(source: str, output: str, statline: str | None, catalogue: str | None,
            force: bool) -> None:
    """Write a unit file: from a datasheet page copied from a rules website (PAGE, or - for
    standard input), or with --catalogue from BattleScribe data (UNIT is the datasheet's name;
    see `mathhammer catalogue FILE`).

    \b
    Examples:
      mathhammer import hexmark.txt -o units/necrons/hexmark-destroyer.toml \\
          --statline "M8 T5 Sv3+ W5 Ld6+ OC1"
      mathhammer import --catalogue Necrons.cat Immortals -o units/necrons/
    """
    if Path(output).is_file() and not force:
        raise InputError(f"{output}: already exists; use --force to overwrite it")
    try:
        if catalogue is not None:
            if statline is not None:
                raise click.UsageError("--statline is for datasheet pages; a catalogue has "
                                       "the statline")
            from ..data.bsdata import write_catalogue_unit

            path, warnings = write_catalogue_unit(catalogue, source, output, force=force)
        else:
            from ..data.units.importer import write_unit

            path, warnings = write_unit(_read_page(source), output, statline=statline,
                                        force=force)
    except ValueError as e:
        raise InputError(str(e).replace("overwrite it with force", "use --force to overwrite it")
                         ) from None
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(f"wrote {path}", err=True)


def _read_page(page: str) -> str:
    """The text of a datasheet page (``-``: standard input), at most MAX_PAGE_BYTES of it."""
    from ..limits import MAX_PAGE_BYTES, check_bytes, read_limited

    name = "standard input" if page == "-" else page
    if page == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(MAX_PAGE_BYTES + 1) if stream is not None else \
            sys.stdin.read(MAX_PAGE_BYTES + 1).encode("utf-8")
        check_bytes(data, MAX_PAGE_BYTES, "MAX_PAGE_BYTES", f"{name}: datasheet page")
    else:
        data = read_limited(page, MAX_PAGE_BYTES, "MAX_PAGE_BYTES", "datasheet page")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{name}: cannot read: not UTF-8 text ({e.reason} at byte "
                         f"{e.start})") from None


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--search", "-s", help="Only datasheets whose name contains this.")
def catalogue(file: str, search: str | None) -> None:
    """List the datasheets in a BattleScribe catalogue (.cat, or .json for 11e), to find the
    exact name for `mathhammer import --catalogue` or `mathhammer kills "FILE:Unit name" ...`.

    \b
    Examples:
      mathhammer catalogue Necrons.cat --search destroyer
      mathhammer kills "Necrons.cat:Immortals" MEQ
    """
    from ..data.bsdata import list_catalogue_units

    names = list_catalogue_units(file, search)
    if not names:
        raise InputError(f"{file}: no datasheets" + (f" match {search!r}" if search else ""))
    for name in names:
        click.echo(name)


def short_cause(error: str) -> str:
    """Why a datasheet does not import, in a few words for a listing line (the whole error is
    what asking for the unit says): the missing data file it needs, else the error's first
    clause, cut at 80 characters.

    >>> short_cause("X.json: entry link 'Y' links to id 1, which is in a file not given; not "
    ...             "found beside it in /d: linked catalogue 'L' (id 2; missing file 'L.json'))")
    "needs the missing file 'L.json'"
    >>> short_cause("a.cat: profile 'Bolt rifle' has no characteristics")
    "a.cat: profile 'Bolt rifle' has no characteristics"
    """
    import re

    missing = re.search(r"missing file ('[^']{1,200}')", error)
    if missing:
        return f"needs the missing file {missing.group(1)}"
    first = error.split(";")[0]
    return first if len(first) <= 80 else first[:79] + "…"
