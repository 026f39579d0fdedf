"""mathhammer as a tool server for AI assistants: ``mathhammer mcp`` (the Model Context
Protocol; the ``mcp`` extra, ``pip install ".[mcp]"``; docs/mcp.md).

:mod:`mathhammer.mcp.tools` is the tools themselves, framework-free: their names, their input
schemas (made from the same option metadata as the command line's options and the web page's
form) and the work each call is (the JSON API's jobs, :func:`mathhammer.jobs.run.job`, which
the web page runs too);
:mod:`mathhammer.mcp.answers` runs a job and shapes its answer (the floats beside the exact
values, the warnings, the error in the arguments' words); :mod:`mathhammer.mcp.server` serves
them with the official SDK, each call in a worker process with the page's time limit.
"""
