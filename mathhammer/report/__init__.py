"""Questions and their answers: :mod:`.specs` (attacker and target from a player's words),
:mod:`.scenario` (the query: one attack, turns, mortal wounds, odds), :mod:`.text` and
:mod:`.jsonout` (its reports), :mod:`.tables` (comparison grids) and
:mod:`.plot` (the ``plot`` extra)."""
