"""Hypothesis profiles: CI runs the property tests derandomized (the same examples every run),
so a green CI stays green; locally they explore new examples each run. (The private cache, data
and store folders of the session are set in the checkout's ``conftest.py``.)"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
