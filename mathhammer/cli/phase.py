"""The options of a phase that can happen, on the command line: ``--attach "LEADER=UNIT"`` of
``plan`` and ``table`` (applied by :func:`mathhammer.app.lists.with_attachments`) and a plan's
reach (``--reach``, ``--reach-file``; docs/rules.md, section 11).

>>> attach_option(lambda: None).__click_params__[0].name
'attach'
"""

from __future__ import annotations

from typing import Any

import click

ATTACH_HELP = ('Attach a Leader to a unit of the --army or --vs-army list that does not say '
               'it, e.g. "Captain=Intercessor Squad" (repeatable; "vs:..." or "army:..." says '
               "which list when both have the units). Checked against the data's Leader "
               "lists; a list's own attachments stay, unless undone with "
               '"Captain=alone".')


def attach_option(f: Any) -> Any:
    return click.option("--attach", multiple=True, metavar="LEADER=UNIT", help=ATTACH_HELP)(f)


def check_list_options(army_file: str | None, vs_army: str | None, **given: Any) -> None:
    """Refuse an option about an army list (``--attach``, ``--allow-unresolved``) given
    without one."""
    if army_file or vs_army:
        return
    for name, value in given.items():
        if value:
            flag = "--" + name.replace("_", "-")
            raise click.UsageError(f"{flag}: give the army list with --army FILE (or "
                                   "--vs-army FILE)")


def reach_options(f: Any) -> Any:
    f = click.option("--reach-file", "reach_file", metavar="FILE",
                     type=click.Path(dir_okay=False),
                     help="The reach as a CSV grid: a line per unit, a column per target, "
                          "each cell x, half or empty (docs/rules.md, section 11).")(f)
    return click.option("--reach", "reach", multiple=True, metavar="UNIT=T1,T2@half",
                        help="The targets UNIT can shoot (in range and sight; @half: within "
                             "half range), repeatable; UNIT=* every target, UNIT= none. A "
                             "unit not named can shoot every target.")(f)


__all__ = ["attach_option", "check_list_options", "reach_options"]
