"""Unit values and files: :mod:`.unit` (the values), :mod:`.file` (a unit file read and validated),
:mod:`.bundled` (the bundled files by name), :mod:`.picks` (weapons picked by name), :mod:`.serial`
(values as JSON), :mod:`.importer` (a datasheet page into a unit file)."""
