"""The ``army`` and ``data`` commands (thin wrappers around :mod:`mathhammer.data.army` and
:mod:`mathhammer.data.store.data_folder`); registered on the main group by
:mod:`mathhammer.cli.main`."""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any

import click

from ..app.lists import points_read, unresolved_lines
from ..data.army import FORMATS
from ..limits import MAX_ARMY_FILE_BYTES, check_bytes
from .datacheck import check
from .export import TO
from .output import CONTEXT, StrictGroup, said_here, warn

if TYPE_CHECKING:
    from ..data.store.data_folder import Edition

DATA_HELP = ("BattleScribe data folder (.cat/.gst or .json files, or 10e/ and 11e/ folders); "
             "default $MATHHAMMER_DATA, else the cache (`mathhammer data fetch`).")


def _remember(ctx: click.Context, _param, value):
    if value is not None:
        ctx.meta["mathhammer.resources"] = value
    return value


#: ``--data DIR``, kept in the click context for every unit lookup of the command.
DATA_PARAM: tuple[tuple[str, ...], dict[str, Any]] = (
    ("--data", "data"), {"metavar": "DIR", "callback": _remember, "expose_value": False,
                         "is_eager": True, "help": DATA_HELP})


def data_option(f):
    """The ``--data DIR`` option as a decorator."""
    return click.option(*DATA_PARAM[0], **DATA_PARAM[1])(f)


def current_data() -> str | None:
    """The ``--data`` of the running command, if any."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get("mathhammer.resources") if ctx is not None else None


def _is_file(name: str) -> bool:
    """Whether ``name`` is an existing file (a name too long to be one is not)."""
    from pathlib import Path

    try:
        return Path(name).is_file()
    except (OSError, ValueError):
        return False


def short_reason(reason: str) -> str:
    """A not-modelled reason without the clauses it quotes (``army``'s rows list many).

    >>> short_reason('re-rolls a Damage roll ("You can re-roll the Damage roll"); sets a '
    ...              'characteristic ("...")')
    're-rolls a Damage roll; sets a characteristic'
    """
    return re.sub(r' \("(?:[^"]|"(?!\)(?:;|$)))*"\)', "", reason)


def rules_text(rows: list[dict]) -> list[str]:
    """Each row's rules from data (``army_rules``), where each comes from, for the terminal."""
    out = ["", "Rules from data (where from; switches: --rule NAME):"]
    def said(names: list[str], src: dict[str, str]) -> str:
        return ", ".join(f"{n} ({src.get(n, 'datasheet')})" for n in names)

    for row in rows:
        out.append(f"  {row['unit']}")
        for side, title in (("attacking", "attacking"), ("defending", "attacked")):
            for key, what in (("applied", "applied"), ("switches", "switches")):
                if row[side][key]:
                    out.append(f"    {title}, {what}: {said(row[side][key], row['from'])}")
        if row["not_modelled"]:
            out.append("    not modelled: " + ", ".join(
                f"{r['name']} ({short_reason(r['reason'])})" for r in row["not_modelled"]))
        if len(out[-1]) > 2 and out[-1] == f"  {row['unit']}":
            out[-1] += ": none"
    return out


def army_text(army, rules: list[dict] | None = None) -> str:
    """The army unit by unit, for the terminal; then each row's rules from data (``rules``:
    ``army_rules``) and the unresolved lines."""
    head = f"{army.name or army.source} ({army.faction}, {army.edition}): {points_read(army)}"
    if army.unresolved:
        head += f", {len(army.unresolved)} unresolved line{'s' * (len(army.unresolved) != 1)}"
    lines = [head]
    if army.detachments:
        lines.append(f"Detachment: {', '.join(army.detachments)}")
    lines.append("")
    attached = {i: j for i, j in army.attached}
    bodyguard: dict[int, list[int]] = {}
    for i, j in army.attached:
        bodyguard.setdefault(j, []).append(i)
    for k, u in enumerate(army.units):
        note = ""
        if k in attached:
            note = f"  [leads {army.units[attached[k]].name}]"
        elif k in bodyguard:
            note = f"  [led by {' and '.join(army.units[i].name for i in bodyguard[k])}]"
        lines.append(f"{u.name} ({u.points} pts, {u.models} model{'s' * (u.models != 1)})"
                     f"{note}")
        lines.append(f"    {'; '.join(g.statline() for g in u.unit.groups)}")
        if u.weapons:
            lines.append("    " + ", ".join(f"{w.count}x {w.name}" for w in u.weapons))
        enh = [f"Enhancement: {e}" + (f" ({p} pts)" if p is not None else "")
               for e, p in zip(u.enhancements, list(u.enhancement_points)
                               + [None] * len(u.enhancements), strict=False)]
        extra = [*u.wargear, *enh]
        if extra:
            lines.append("    " + ", ".join(extra))
    if rules:
        lines += rules_text(rules)
    if army.unresolved:
        lines += ["", "Not read (the units above leave them out):"]
        lines += ["    " + ln for ln in unresolved_lines(army)]
    return "\n".join(lines) + "\n"


@click.command(context_settings=CONTEXT)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the army as JSON.")
@click.option("--rules", "rules", type=click.Choice(["10e", "11e"]),
              help="The edition (default: from the file, else the one it resolves in).")
@click.option("--attach", multiple=True, metavar="LEADER=BODYGUARD",
              help='Attach a Leader to a Bodyguard unit, e.g. "Captain=Intercessor Squad" '
                   "(repeatable).")
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Read the list as this format (default: recognised by its content).")
@click.option("--allow-unresolved", is_flag=True,
              help="Exit 0 even when some lines of the list did not resolve.")
@click.option(*TO[0], **TO[1])
@click.option("--output", "-o", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the report (or the --to file) to FILE instead of standard output.")
@click.option("--force", is_flag=True, help="Overwrite the --output file if it exists.")
@data_option
def army(file: str, as_json: bool, rules: str | None, attach: tuple[str, ...],
         fmt: str | None, allow_unresolved: bool, to: str | None, output: str | None,
         force: bool) -> None:
    """Read an army list and resolve every unit against the BattleScribe data.

    FILE ("-" for standard input) is a Warhammer 40,000 app text export (10e or 11e app,
    any language's headers), a New Recruit text export (GW, WTC, WTC-compact, default or
    short) or JSON export, a ListForge or WarOrgan text, ListForge's share JSON, a
    BattleScribe roster (.ros/.rosz), or what `mathhammer army --json` wrote (read back).
    A ListForge share link (https://.../#/listforge/H4sI...) may be given as FILE itself.
    Lines that do not resolve are listed with their line and the closest names, with the
    points read of the list's total; the exit status is then 2 (0 with --allow-unresolved).

    \b
    Examples:
      mathhammer army my-list.txt
      mathhammer army my-list.rosz --json --data ~/bsdata/10e
      mathhammer army my-list.json --to unitcrunch -o my-list.unitcrunch.txt
    """
    from ..data.army import load_army, parse_army
    from ..data.army.structured import is_share_link
    from .export import check_to, write_unitcrunch
    from .output import check_output

    # check_to is true only with an --output
    to_path = check_output(output or "", force) if check_to(to, output, {"--json": as_json}) \
        else None
    if file == "-":
        text = check_bytes(sys.stdin.buffer.read(MAX_ARMY_FILE_BYTES + 1), MAX_ARMY_FILE_BYTES,
                           "MAX_ARMY_FILE_BYTES", "<stdin>: army list")
        a = parse_army(text, data=current_data(), source="<stdin>",
                       rules=rules, attach=attach, fmt=fmt)
    elif is_share_link(file) and not _is_file(file):
        a = parse_army(file, data=current_data(), source="<link>", rules=rules, attach=attach,
                       fmt=fmt)
    else:
        a = load_army(file, data=current_data(), rules=rules, attach=attach, fmt=fmt)
    if to_path is not None:
        from ..report.unitcrunch import army_profiles

        write_unitcrunch(army_profiles(a), to_path)
        warn("the rules from data (datasheet, army, detachment, enhancement and Leader "
             "abilities) are not in the UnitCrunch file but Stealth, Feel No Pain and "
             "invulnerable saves: set them in UnitCrunch")
    else:
        from ..data.rules.attached import army_rules
        from .output import emit

        out_path = check_output(output, force) if output is not None else None
        found = army_rules(a, current_data())
        if as_json:
            out = a.to_json() | {"rules": found}
            emit(json.dumps(out, indent=2, ensure_ascii=False) + "\n", out_path)
        else:
            emit(army_text(a, found), out_path)
    for w in a.warnings:
        click.echo(f"warning: {said_here(w)}", err=True)
    if a.unresolved:
        if as_json:  # the text above lists them already
            for ln in unresolved_lines(a):
                click.echo(ln, err=True)
        click.echo(f"{a.source}: {points_read(a)}; {len(a.unresolved)} line"
                   f"{'s' * (len(a.unresolved) != 1)} not read"
                   + ("" if allow_unresolved else " (--allow-unresolved to exit 0)"), err=True)
        if not allow_unresolved:
            sys.exit(2)


@click.group(cls=StrictGroup, context_settings=CONTEXT, invoke_without_command=True,
             subcommand_metavar="[COMMAND] [ARGS]...")
@click.pass_context
def data(ctx: click.Context) -> None:
    """The BattleScribe data: what is installed (`data status`), get it (`data fetch`), check
    that every datasheet imports (`data check`)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(status)


@data.command(context_settings=CONTEXT)
@data_option
def status() -> None:
    """Say which editions are installed: folder, source, date, catalogues."""
    from ..data.store.data_folder import data_root
    from ..data.store.data_folder import status as get_status

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
def fetch(edition: Edition, url: str | None) -> None:
    """Download the community BattleScribe data of an edition into the data folder
    (atomically: a failed download leaves the installed data as it was)."""
    from ..data.store.data_folder import check_url
    from ..data.store.data_folder import fetch as do_fetch
    from ..data.store.index import unit_index

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


data.add_command(check)
