"""``python -m mathhammer``: the command line, as the ``mathhammer`` script runs it."""

from .cli import main

if __name__ == "__main__":
    main()
