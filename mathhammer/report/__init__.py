"""Questions and their answers: :mod:`.specs` (attacker and target from a player's words),
:mod:`.targets` (the target a player names), :mod:`.scenario` (the query: one attack, turns,
mortal wounds, odds), :mod:`.text` and :mod:`.jsonout` (its reports), :mod:`.display` (a result
in a notebook), :mod:`.tables` (comparison grids), :mod:`.planning` (several units into one
target, a plan) and :mod:`.plan_report` (a plan as a player reads it), :mod:`.rules_list` (a
unit's rules from data), :mod:`.atlas` (every datasheet against the standard targets),
:mod:`.datacheck` (the self-check of the installed data), :mod:`.unitcrunch` (UnitCrunch's
import file) and :mod:`.plot` (the ``plot`` extra)."""
