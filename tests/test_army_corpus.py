"""Every list of ``../shared/rosters/corpus/`` (real exports players shared) is a test: read
against ``../shared/bsdata``, its units' points equal its stated total and its unit count
matches (``corpus/SOURCES.md``), or its error names the data file the shared data lacks, or
(the lists below) it names the data file, with its revision, that lacks what it needs.

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

# What stops the lists that do not read fully: the shared data itself. Its 11e Orks catalogue is
# the codex before the lists' (11e app data v946): no Runtherd datasheet (only a model of its
# Gretchin), no Gitstikka, Adamantine 'Eadbutt, Crushin' Bulk or Extra Klaw, and its Warboss has
# no kustom shoota, its Trukk no rokkit launcha. Each is reported naming Orks.json and its
# revision, never guessed: the test checks that (a newer Orks.json would read them fully).
DATA_DIFFERS = {
    "orks.11e.gwapp.2.txt": ("Orks.json (revision ", "7 lines"),
    "orks.11e.newrecruit-wtc-compact.1.txt": ("Orks.json (revision ", "3 lines"),
}


@pytest.mark.parametrize("expect", LISTS, ids=[e.path.name for e in LISTS])
def test_a_corpus_list_reads_fully_or_names_what_is_missing(expect):
    kind, why = check(expect, BSDATA)
    if kind == "data":
        assert ".json" in why or ".cat" in why, why
        return
    if expect.path.name in DATA_DIFFERS:
        assert kind in ("older", "full"), why
        assert kind == "full" or all(s in why for s in DATA_DIFFERS[expect.path.name]), why
        return
    assert kind == "full", why
