"""The application layer: the questions a player asks as frozen values
(:mod:`mathhammer.app.queries`), how an attack is made (:mod:`mathhammer.app.setup`), what a
player names resolved (:mod:`mathhammer.app.resolve`) and every question answered
(:mod:`mathhammer.app.answer`); the parts of a query's JSON (:mod:`mathhammer.app.parts`), its
schema (:mod:`mathhammer.app.schema`), army lists as a query gives them
(:mod:`mathhammer.app.lists`), a plan answered (:mod:`mathhammer.app.plans`) and what a planner
by clicking offers for two lists (:mod:`mathhammer.app.planner`). The command line, the web
page and a tool server are thin adapters over it: they build a query value, answer it here and
render the answer with :mod:`mathhammer.report` (docs/app.md)."""
