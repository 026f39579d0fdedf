"""The ``army`` and ``data`` commands (thin wrappers around :mod:`mathhammer.data.army` and
:mod:`mathhammer.data.datastore`); registered on the main group by :mod:`mathhammer.cli.main`."""

from __future__ import annotations

import json
import sys

import click

from ..model.limits import MAX_ARMY_FILE_BYTES, check_bytes
from .output import CONTEXT

DATA_HELP = ("BattleScribe data folder (.cat/.gst or .json files, or 10e/ and 11e/ folders); "
             "default $MATHHAMMER_DATA, else the cache (`mathhammer data fetch`).")


def _remember(ctx: click.Context, _param, value):
    if value is not None:
        ctx.meta["mathhammer.data.paths"] = value
    return value


#: ``--data DIR``, kept in the click context for every unit lookup of the command.
DATA_PARAM = (("--data", "data"), {"metavar": "DIR", "callback": _remember,
                                   "expose_value": False, "is_eager": True, "help": DATA_HELP})


def data_option(f):
    """The ``--data DIR`` option as a decorator."""
    return click.option(*DATA_PARAM[0], **DATA_PARAM[1])(f)


def current_data() -> str | None:
    """The ``--data`` of the running command, if any."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get("mathhammer.data.paths") if ctx is not None else None


def army_text(army) -> str:
    """The army unit by unit, for the terminal."""
    head = f"{army.name or army.source} ({army.faction}, {army.edition}): {army.points} points"
    if army.declared_points is not None and army.declared_points != army.points:
        head += f" (the list says {army.declared_points})"
    lines = [head, ""]
    attached = {i: j for i, j in army.attached}
    bodyguard = {j: i for i, j in army.attached}
    for k, u in enumerate(army.units):
        note = ""
        if k in attached:
            note = f"  [leads {army.units[attached[k]].name}]"
        elif k in bodyguard:
            note = f"  [led by {army.units[bodyguard[k]].name}]"
        lines.append(f"{u.name} ({u.points} pts, {u.models} model{'s' * (u.models != 1)})"
                     f"{note}")
        lines.append(f"    {'; '.join(g.statline() for g in u.unit.groups)}")
        if u.weapons:
            lines.append("    " + ", ".join(f"{w.count}x {w.name}" for w in u.weapons))
        extra = [*u.wargear, *(f"Enhancement: {e}" for e in u.enhancements)]
        if extra:
            lines.append("    " + ", ".join(extra))
    return "\n".join(lines) + "\n"


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the army as JSON.")
@click.option("--rules", "rules", type=click.Choice(["10e", "11e"]),
              help="The edition (default: from the file, else the one it resolves in).")
@click.option("--attach", multiple=True, metavar="LEADER=BODYGUARD",
              help='Attach a Leader to a Bodyguard unit, e.g. "Captain=Intercessor Squad" '
                   "(repeatable).")
@data_option
def army(file: str, as_json: bool, rules: str | None, attach: tuple[str, ...]) -> None:
    """Read an army list and resolve every unit against the BattleScribe data.

    FILE ("-" for standard input) is a Warhammer 40,000 app text export (10e or 11e app),
    a New Recruit text export (GW or WTC style) or a BattleScribe roster (.ros/.rosz).
    Names that do not resolve are listed on stderr with their line and the closest names
    (exit status 2).

    \b
    Examples:
      mathhammer army my-list.txt
      mathhammer army my-list.rosz --json --data ~/bsdata/10e
    """
    from ..data.army import load_army, parse_army

    if file == "-":
        text = check_bytes(sys.stdin.buffer.read(MAX_ARMY_FILE_BYTES + 1), MAX_ARMY_FILE_BYTES,
                           "MAX_ARMY_FILE_BYTES", "<stdin>: army list")
        a = parse_army(text, data=current_data(), source="<stdin>",
                       rules=rules, attach=attach)
    else:
        a = load_army(file, data=current_data(), rules=rules, attach=attach)
    if as_json:
        from ..data.attached import army_rules

        out = a.to_json() | {"rules": army_rules(a, current_data())}
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        click.echo(army_text(a), nl=False)
    for w in a.warnings:
        click.echo(f"warning: {w}", err=True)
    for u in a.unresolved:
        close = f" (closest: {', '.join(u.closest)})" if u.closest else ""
        where = f"{a.source}:{u.line}" if u.line else a.source
        click.echo(f"{where}: unresolved: {u.text}{close}", err=True)
    if a.unresolved:
        sys.exit(2)


@click.group(context_settings=CONTEXT, invoke_without_command=True)
@click.pass_context
def data(ctx: click.Context) -> None:
    """The BattleScribe data: what is installed (`data status`), get it (`data fetch`)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(status)


@data.command(context_settings=CONTEXT)
@data_option
def status() -> None:
    """Say which editions are installed: folder, source, date, catalogues."""
    from ..data.datastore import data_root
    from ..data.datastore import status as get_status

    root = data_root(current_data())
    found = get_status(current_data())
    if not found:
        click.echo(f"no BattleScribe data in {root}; run `mathhammer data fetch "
                   f"--edition 10e` (or 11e)")
        return
    for i in found:
        src = f", from {i.source}" if i.source else ""
        when = f" on {i.date}" if i.date else ""
        click.echo(f"{i.edition}: {i.catalogues} catalogues in {i.folder}{src}{when}")


@data.command(context_settings=CONTEXT)
@click.option("--edition", type=click.Choice(["10e", "11e"]), default="10e",
              show_default=True, help="Which edition's data.")
@click.option("--url", help="Download from this URL (a zip of the data) instead of the "
                            "BSData repository.")
@data_option
def fetch(edition: str, url: str | None) -> None:
    """Download the community BattleScribe data of an edition into the data folder
    (atomically: a failed download leaves the installed data as it was)."""
    from ..data.datastore import check_url
    from ..data.datastore import fetch as do_fetch
    from ..data.unit_index import unit_index

    if url is not None:
        check_url(url)  # before the progress bar: a bad URL is one line
    with click.progressbar(length=0, label=f"downloading {edition} data", file=sys.stderr,
                           hidden=not sys.stderr.isatty()) as bar:
        def progress(done: int, total: int | None) -> None:
            if total and not bar.length:
                bar.length = total
            bar.update(done - bar.pos)

        info = do_fetch(edition, url=url, root=current_data(), progress=progress)
    click.echo(f"{info.edition}: {info.catalogues} catalogues installed in {info.folder}")
    index = unit_index(info.edition, info.folder)
    click.echo(f"indexed {sum(len(c.units) for c in index.catalogues)} units")
