"""The command line: thin commands over the library (``mathhammer --help``).

>>> sorted(cli.list_commands(None))[:3]
['army', 'atlas', 'catalogue']
"""

from .main import cli, main

__all__ = ["cli", "main"]
