"""The installed BattleScribe data and its compiled store: :mod:`.data_folder` (where the data
lives, its download), :mod:`.compiled` (build and read a store), :mod:`.cache_files` (the stores'
files), :mod:`.index` (the units by name)."""
