"""The application layer: the questions a player asks as frozen values
(:mod:`mathhammer.app.queries`), how an attack is made (:mod:`mathhammer.app.setup`), what a
player names resolved (:mod:`mathhammer.app.specs`: the attacker and the target,
:mod:`mathhammer.app.targets`: the target; :mod:`mathhammer.app.resolve`: a query's units), the
resolved questions (:mod:`mathhammer.app.scenario`: one attack, turns, mortal wounds, odds;
:mod:`mathhammer.app.planning`: several units into one target, a plan;
:mod:`mathhammer.app.grids`: comparison grids) and every question answered
(:mod:`mathhammer.app.answer`); the parts of a query's JSON (:mod:`mathhammer.app.parts`), its
schema (:mod:`mathhammer.app.schema`), army lists as a query gives them
(:mod:`mathhammer.app.lists`), a plan answered (:mod:`mathhammer.app.plans`), what a planner
by clicking offers for two lists (:mod:`mathhammer.app.planner`), every datasheet against the
standard targets (:mod:`mathhammer.app.atlas`) and the self-check of the installed data
(:mod:`mathhammer.app.datacheck`). It ranks below :mod:`mathhammer.report`,
which renders its values. The command line, the web page and a tool server are thin adapters
over both: they build a query value, answer it here and render the answer with
:mod:`mathhammer.report` (docs/app.md)."""
