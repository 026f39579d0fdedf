"""A local web page for mathhammer (``mathhammer serve``; needs ``pip install ".[web]"``).

:mod:`mathhammer.web.queries` answers the page's JSON queries (the values of
:mod:`mathhammer.app.queries`, checked against what the page may ask), :mod:`mathhammer.web.choices`
lists what the page offers, :mod:`mathhammer.web.army` searches the BattleScribe data and
:mod:`mathhammer.web.api` is the one job a worker process runs for a request (all
framework-free, so testable without the extra); :mod:`mathhammer.web.app` is the Starlette
application that serves the API and the page in ``static/``, with :mod:`mathhammer.web.lanes`
(the worker processes' turns), :mod:`mathhammer.web.edges` (what a connection is allowed before
a request), :mod:`mathhammer.web.compiling` (the stores' builds), :mod:`mathhammer.web.links`
(share links) and :mod:`mathhammer.web.background` (``serve`` in a child process, for scripts
and tests). No module here imports
:mod:`mathhammer.cli`: the page and the command line are faces of :mod:`mathhammer.app`.
"""
