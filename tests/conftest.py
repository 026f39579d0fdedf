"""Hypothesis profiles, and the ``cli`` fixture every test of the command line uses.

CI runs the property tests derandomized (the same examples every run), so a green CI stays
green; locally they explore new examples each run. (The private cache, data and store folders of
the session are set in the checkout's ``conftest.py``.)"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from mathhammer.cli import cli as mathhammer

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


class Cli:
    """The ``mathhammer`` command line, run in this process by click's CliRunner.

    ``cli("kills", "Cronos", "MEQ")`` is the result whatever its exit status; ``cli.ok(...)``
    asserts success, ``cli.fails(...)`` an error (exit status 2, its line returned) and
    ``cli.json(...)`` parses what a successful command printed.
    """

    def __call__(self, *args: str, input: str | bytes | None = None,
                 env: dict[str, str] | None = None, code: int | None = None,
                 **kwargs: Any) -> Result:
        result = CliRunner().invoke(mathhammer, [str(a) for a in args], input=input, env=env,
                                    **kwargs)
        if code is not None:
            assert result.exit_code == code, (args, result.stdout, result.stderr,
                                              result.exception)
        return result

    def ok(self, *args: str, **kwargs: Any) -> Result:
        """The result of a command that must succeed (exit status 0)."""
        return self(*args, code=0, **kwargs)

    def json(self, *args: str, **kwargs: Any) -> Any:
        """What a successful command printed, parsed as JSON (``args`` ask for it)."""
        return json.loads(self.ok(*args, **kwargs).stdout)

    def fails(self, *args: str, one_line: bool = True, **kwargs: Any) -> str:
        """The error line of a command that must fail as bad input: exit status 2, nothing on
        stdout, no traceback, the last line of stderr ``mathhammer...: error: ...`` (with
        ``one_line`` the only line: no warning before it)."""
        r = self(*args, code=2, **kwargs)
        assert r.stdout == "", (args, r.stdout)
        assert "Traceback" not in r.stderr, r.stderr
        lines = r.stderr.splitlines()
        assert lines and lines[-1].startswith("mathhammer") and ": error: " in lines[-1], \
            r.stderr
        if one_line:
            assert len(lines) == 1 and r.stderr.endswith("\n"), r.stderr
        return lines[-1].strip()


@pytest.fixture(scope="session")
def cli() -> Cli:
    """The command line (:class:`Cli`); session-wide, so property tests can take it too."""
    return Cli()


@pytest.fixture()
def small_data(tmp_path, monkeypatch):
    """A small BattleScribe data folder (tests/test_catalogue.py) as the data, its stores
    compiled in the test's own cache; the caches cleared before and after, so nothing read of
    another data folder is kept (the server's workers fork this process)."""
    from test_catalogue import make_data

    from mathhammer.cache import clear_caches
    from mathhammer.data.store.compiled import open_store

    pytest.importorskip("mathhammer.data.army")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_STORE", raising=False)
    monkeypatch.setenv("MATHHAMMER_DATA", str(make_data(tmp_path / "bsdata")))
    for edition in ("10e", "11e"):
        open_store(edition, progress=lambda *_: None)
    clear_caches()
    yield tmp_path
    clear_caches()
