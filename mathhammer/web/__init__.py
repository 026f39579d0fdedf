"""A local web page for mathhammer (``mathhammer serve``; needs ``pip install ".[web]"``).

:mod:`mathhammer.web.app` is the Starlette application that serves the JSON API (each request a
job of :mod:`mathhammer.jobs`, which the tool server runs too) and the page in ``static/``, with
:mod:`mathhammer.web.lanes` (the worker processes' turns), :mod:`mathhammer.web.edges` (what a
connection is allowed before a request), :mod:`mathhammer.web.links` (share links: the page's
address of a query) and :mod:`mathhammer.web.background` (``serve`` in a child process, for
scripts and tests). No module here imports :mod:`mathhammer.cli` or :mod:`mathhammer.mcp`: the
page, the command line and the tool server are faces of :mod:`mathhammer.app`, the page and the
tool server over the same jobs.
"""
