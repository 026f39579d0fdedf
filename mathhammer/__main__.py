"""``python -m mathhammer``: the command line, as the ``mathhammer`` script runs it."""

from .cli import main

main()
