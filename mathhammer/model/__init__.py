"""The values a player describes: weapons, model groups, target units, options, rule sets,
named rules, limits."""
