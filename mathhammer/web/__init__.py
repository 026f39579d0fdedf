"""A local web page for mathhammer (``mathhammer serve``; needs ``pip install ".[web]"``).

:mod:`mathhammer.web.command` turns HTTP parameters into the command line's arguments and runs
the command, :mod:`mathhammer.web.catalog` lists what the page offers, :mod:`mathhammer.web.army`
answers for pasted army lists, :mod:`mathhammer.web.plan` plans a phase within the page's
bounds and :mod:`mathhammer.web.api` is the one job a worker process runs
for a request (all framework-free, so testable without the extra); :mod:`mathhammer.web.app` is
the Starlette application that serves the API and the page in ``static/``.
"""
