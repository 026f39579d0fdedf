"""The test suite's surroundings, for every test and doctest (``pytest`` from anywhere in the
checkout): a private cache folder, no data folder, no named rules of the user's and the suite's
own store folder, set before anything is collected and inherited by every subprocess (a command,
a server), so the suite gives the same answers on every machine and never reads or writes the
user's own cache or data. (The hypothesis profiles are in ``tests/conftest.py``.)"""

import os
import shutil
import tempfile
from pathlib import Path

#: What the user's environment may say that changes an answer or where files are written: the
#: data folder, their own named rules, the store folder (set again below), the cache folder and
#: the terminal's width (a table wraps its columns to it).
USER_ENV = ("MATHHAMMER_DATA", "MATHHAMMER_RULES", "MATHHAMMER_STORE", "XDG_CACHE_HOME",
            "COLUMNS")
#: The compiled stores of the shared data, kept between runs in the checkout (a store is named
#: by the content of its data and of the code that shapes it: a change builds another).
STORES = Path(__file__).resolve().parent / ".pytest_cache" / "mathhammer-store"

_saved: dict[str, str | None] = {}
_cache: list[str] = []


def pytest_configure(config) -> None:
    # `pytest -n auto` (pytest-xdist, the README's test command) sends each test file to one
    # worker, so a module's server, browser or compiled data is set up once
    explicit = any(a.startswith("--dist") for a in config.invocation_params.args)
    if getattr(config.option, "dist", None) == "load" and not explicit:
        config.option.dist = "loadfile"
    for name in USER_ENV:
        _saved[name] = os.environ.pop(name, None)
    _cache.append(tempfile.mkdtemp(prefix="mathhammer-test-cache-"))
    os.environ["XDG_CACHE_HOME"] = _cache[-1]
    os.environ["MATHHAMMER_STORE"] = str(STORES)


def pytest_unconfigure(config) -> None:
    for name, value in _saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    for folder in _cache:
        shutil.rmtree(folder, ignore_errors=True)
    _cache.clear()
