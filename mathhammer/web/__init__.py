"""A local web page for mathhammer (``mathhammer serve``; needs ``pip install ".[web]"``).

:mod:`mathhammer.web.api` turns HTTP parameters into the command line's arguments and runs
the command (framework-free, so it is testable without the extra); :mod:`mathhammer.web.app`
is the Starlette application that serves the API and the page in ``static/``.
"""
