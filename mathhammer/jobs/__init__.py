"""The JSON API's work, free of any web framework: what the page (:mod:`mathhammer.web`) and the
tool server (:mod:`mathhammer.mcp`) both run in their worker processes, so neither imports the
other.

:mod:`mathhammer.jobs.run` is the one job a worker runs for a request (a JSON query, a unit, a
search, a warm-up: an HTTP status with the body or a one-line error), within a soft time limit
if asked (:mod:`mathhammer.jobs.soft`: interrupted, its worker lives on);
:mod:`mathhammer.jobs.queries` answers the JSON queries (the values of
:mod:`mathhammer.app.queries`, checked against what a face that reads no files may ask, rendered
by :mod:`mathhammer.report.answer_json`); :mod:`mathhammer.jobs.choices` lists what the page
offers (units, rules, the options' form); :mod:`mathhammer.jobs.search` searches the
BattleScribe data; :mod:`mathhammer.jobs.compiling` builds the compiled stores outside any
query's time limit.
"""
