"""Every list of ``../shared/rosters/corpus/`` (real exports players shared) is a test: read
against ``../shared/bsdata``, its units' points equal its stated total and its unit count
matches (``corpus/SOURCES.md``), or its error names the data file the shared data lacks.

The corpus stays out of the project; without it these tests skip. ``tests/army_corpus.py``
prints the same check as a table (format x edition).
"""

from __future__ import annotations

import pytest
from army_corpus import (
    SHARED,
    cache,  # noqa: F401  (a private cache folder, module-wide)
    check,
    corpus,
)

LISTS = corpus()
BSDATA = SHARED / "bsdata"
if not LISTS or not BSDATA.is_dir():
    pytest.skip(f"the army-list corpus or the BattleScribe data is not at {SHARED} "
                "(../shared beside the checkout, or $MATHHAMMER_SHARED)", allow_module_level=True)

pytestmark = pytest.mark.slow  # the first list of each edition indexes its catalogues

# What stops the lists that do not read fully: the shared data itself (a datasheet or wargear
# the data names otherwise or lacks). Each is reported, never guessed: the test checks that.
DATA_DIFFERS = {
    "chaos-daemons.10e.gwapp.1.txt": "Soul Grinder",  # the data has one per god only
    "genestealer-cults.10e.gwapp.1.txt": "Armoured hull",  # not in the Goliath datasheets
    "grey-knights.11e.gwapp.2.txt": "Paladin Ancient",  # the data: Paladin with Ancient's Banner
    "orks.11e.gwapp.2.txt": "Runtherd",
    "orks.11e.newrecruit-wtc-compact.1.txt": "Nob",
    "space-wolves.10e.gwapp.2.txt": "Heirloom weapon",  # the data: Wolf Guard Weapon
    "space-wolves.10e.gwapp.3.txt": "Heirloom weapon",
    "chaos-daemons.unknown.listforge.1.txt": "Burning maw",  # the data: Burning roar
}




@pytest.mark.parametrize("expect", LISTS, ids=[e.path.name for e in LISTS])
def test_a_corpus_list_reads_fully_or_names_what_is_missing(expect):
    kind, why = check(expect, BSDATA)
    if kind == "data":
        assert ".json" in why or ".cat" in why, why
        return
    if expect.path.name in DATA_DIFFERS:
        assert kind == "fail" and DATA_DIFFERS[expect.path.name] in why, why
        return
    assert kind == "full", why
