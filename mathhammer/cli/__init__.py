"""The command line: thin commands over the library (``mathhammer --help``).

>>> sorted(cli.commands)[:3]
['army', 'catalogue', 'data']
"""

from .app import cli, main
from .serve import serve

cli.add_command(serve)

__all__ = ["cli", "main"]
