"""Hypothesis profiles: CI runs the property tests derandomized (the same examples every run),
so a green CI stays green; locally they explore new examples each run."""

import os
from pathlib import Path

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


import pytest  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def _private_cache(tmp_path_factory):
    """No test reads or writes the user's cache folder (BattleScribe data, unit index) or
    follows $MATHHAMMER_DATA: the suite gives the same answers on every machine."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    mp.delenv("MATHHAMMER_DATA", raising=False)
    # the compiled stores of the BattleScribe data are kept between runs: a store is for its
    # files and mathhammer's code (sizes, modification times), so a change rebuilds it
    mp.setenv("MATHHAMMER_STORE", str(Path(__file__).resolve().parents[1] / ".pytest_cache"
                                      / "mathhammer-store"))
    yield
    mp.undo()
