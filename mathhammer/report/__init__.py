"""The answers rendered (the questions and their resolution are :mod:`mathhammer.app`, a layer
below): :mod:`.text` and :mod:`.jsonout` (the reports of one attack, turns, mortal wounds),
:mod:`.answer_json` (every answer as ``--json`` prints it), :mod:`.display` (a result in a
notebook), :mod:`.tables` (comparison grids as text, Markdown, CSV, HTML, JSON),
:mod:`.plan_report` (several units into one target, a plan, as a player reads them),
:mod:`.rules_list` (a unit's rules from data), :mod:`.check_text` (the self-check of the
installed data), :mod:`.atlas` (every datasheet against the standard targets),
:mod:`.unitcrunch` (UnitCrunch's import file) and :mod:`.plot` (the ``plot`` extra)."""
