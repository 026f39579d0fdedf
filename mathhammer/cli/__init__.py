"""The command line: thin commands over the library (``mathhammer --help``).

:mod:`.main` is the command group (errors, ``--version``, commands loaded when used);
:mod:`.attack` (``kills``, ``odds``, ``mortal``), :mod:`.plan` (several units, ``plan``),
:mod:`.table`, :mod:`.army` (``army``, ``data``), :mod:`.datacheck` (``data check``),
:mod:`.browse` (``units``, ``rules``, ``import``, ``catalogue``), :mod:`.atlas`, :mod:`.serve` and
:mod:`.mcp` are the commands; :mod:`.params` and :mod:`.phase` their shared options,
:mod:`.output` and :mod:`.resolve` what they print and where, :mod:`.export` (``--to
unitcrunch``), :mod:`.link` (``--link``) and :mod:`.reference` (``docs/reference.md`` from the
commands' help).

>>> sorted(cli.list_commands(None))[:3]
['army', 'atlas', 'catalogue']
"""

from .main import cli, main

__all__ = ["cli", "main"]
