"""What a player types: :mod:`.inline` (weapon rows and targets), :mod:`.names` (how names match),
:mod:`.lookup` (one unit from a name or a file), :mod:`.reach` (a plan's reach)."""
