"""The quick lane's soft time limit inside a worker (mathhammer.jobs.soft), in this process:
a computation past it is interrupted and the process answers the next query exactly; the
alarm never lands in an import or a context manager's enter/exit (it rings again after); the
caches and tables a query builds are built whole, then kept, so an interrupted one is not kept.

No test here times anything: each interruption is of a computation that would otherwise run
for seconds or minutes (a sleep, a query of thousands of states), each check is of what was
answered or kept."""

from __future__ import annotations

import importlib
import json
import signal
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bruteforce import brute_force  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer.jobs import soft  # noqa: E402
from mathhammer.jobs.run import MOVED, job  # noqa: E402
from mathhammer.jobs.soft import SoftLimit, within  # noqa: E402

#: Minutes of work (thousands of squad states over 20 turns; tests/test_web.py's HEAVY).
HEAVY = {"attacker": "60x 3 | 3+ | 5 | -1 | D3", "target": "20x T4 Sv4+ W6 + 10x T5 Sv3+ W4",
         "turns": 20}
#: A small attack of the same weapon, the brute-force oracle's size.
SMALL = {"attacker": "2x 3 | 3+ | 5 | -1 | D3", "target": "2x T4 Sv4+ W6"}


def test_a_query_past_its_soft_limit_moves_and_the_process_answers_the_next_exactly():
    assert job("query", "kills", HEAVY, soft=0.3) == MOVED
    status, body = job("query", "kills", SMALL)
    assert status == 200
    weapon = mh.Weapon("w", attacks=3, skill=3, strength=5, ap=-1, damage="D3")
    want = brute_force((weapon, 2), mh.Target(models=2, toughness=4, save=4, wounds=6)).kills
    got = {int(k): Fraction(v) for k, v in json.loads(body)["pmf"]["kills"].items()}
    assert got == {k: p for k, p in want.items() if p}
    # and again past the limit: the same process interrupts again, and answers again
    assert job("query", "kills", {**HEAVY, "turns": 19}, soft=0.3) == MOVED
    assert job("query", "kills", SMALL) == (status, body)


def test_a_query_within_its_soft_limit_is_answered_as_without_one():
    assert job("unit", "MEQ", soft=60.0) == job("unit", "MEQ")
    assert job("query", "kills", {"attacker": "Cronos"}, soft=60.0)[0] == 400


def test_no_handler_of_a_querys_errors_takes_the_interruption():
    def careful() -> str:
        try:
            time.sleep(60)
        except Exception:  # what a query's own error handling looks like
            return "swallowed"
        return "slept a minute"

    assert within(0.05, careful) == (False, None)
    assert not issubclass(SoftLimit, Exception)


def test_the_alarm_waits_for_an_import_to_end(tmp_path, monkeypatch):
    # a module that registers itself elsewhere as it is imported, slowly: interrupted half
    # way, it would be imported again later and register twice
    (tmp_path / "soft_slow_module.py").write_text(
        "import time\nimport soft_registry\nsoft_registry.SEEN.append('registered')\n"
        "time.sleep(0.3)\nDONE = True\n")
    (tmp_path / "soft_registry.py").write_text("SEEN = []\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("soft_slow_module", "soft_registry"):
        monkeypatch.delitem(sys.modules, name, raising=False)

    def import_then_compute() -> None:
        importlib.import_module("soft_slow_module")
        time.sleep(60)

    assert within(0.05, import_then_compute) == (False, None)  # rang during the import
    assert sys.modules["soft_slow_module"].DONE  # which ended whole, once
    assert importlib.import_module("soft_registry").SEEN == ["registered"]


def test_the_alarm_waits_for_a_context_to_be_entered_and_left():
    state = {"flag": "as it was"}

    class Guarded:
        def __enter__(self) -> None:
            state["flag"] = "changed"
            time.sleep(0.2)

        def __exit__(self, *_exc: object) -> None:
            time.sleep(0.2)
            state["flag"] = "as it was"

    def compute() -> None:
        with Guarded():
            pass
        time.sleep(60)

    assert within(0.05, compute) == (False, None)  # rang in __enter__, waited, rang again
    assert state["flag"] == "as it was"


def test_an_interruption_lost_in_a_callback_of_the_garbage_collector_comes_again():
    import weakref

    called = []

    class Thing:
        pass

    def gone(_ref: object) -> None:  # a weakref's callback: what it raises is only reported
        called.append("gone")
        time.sleep(0.2)

    def compute() -> str:
        thing = Thing()
        ref = weakref.ref(thing, gone)
        del thing  # the callback runs here, and the alarm rings in it
        time.sleep(30)
        return f"slept with {ref}"

    unraisable = []
    before, sys.unraisablehook = sys.unraisablehook, unraisable.append
    try:
        assert within(0.05, compute) == (False, None)
    finally:
        sys.unraisablehook = before
    assert called == ["gone"] and unraisable == []  # reported by no one: it rang again


def test_the_alarm_is_put_back_and_rings_no_more():
    before, hook = signal.getsignal(signal.SIGALRM), sys.unraisablehook
    assert within(0.05, time.sleep, 60) == (False, None)
    assert within(10.0, sum, (1, 2)) == (True, 3)
    assert signal.getsignal(signal.SIGALRM) == before
    assert sys.unraisablehook is hook
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert soft._ARMED == [False]


def test_elsewhere_than_the_main_thread_there_is_no_limit():
    got = []
    t = threading.Thread(target=lambda: got.append(within(0.01, time.sleep, 0.2)))
    t.start()
    t.join()
    assert got == [(True, None)]  # slept whole: no alarm can be set in a thread
    # within another: the outer limit only (the inner one slept whole)
    assert within(10.0, within, 0.01, time.sleep, 0.2) == (True, (True, None))


# --- built whole, then kept --------------------------------------------------------------------


def test_an_interrupted_index_of_close_names_keeps_nothing(monkeypatch):
    from mathhammer.data.store import index as index_module
    from mathhammer.data.store.index import CatalogueInfo, UnitIndex

    units = (("Intercessor Squad", "k1", True), ("Devastator Squad", "k2", True))
    info = CatalogueInfo(Path("Space Marines.cat"), "id", "Space Marines", False, units, ())
    ix = UnitIndex(Path("."), "10e", None, loaded=([info], {}, {}))
    calls = []

    def interrupted(words):  # the alarm, half way through the index of words
        calls.append(words)
        if len(calls) == 2:
            raise SoftLimit
        return set(words)

    monkeypatch.setattr(index_module, "set", interrupted, raising=False)
    with pytest.raises(SoftLimit):
        ix.close("Intercesor Squad")
    assert ix._names is None and ix._words == {}  # nothing half made is kept
    monkeypatch.delattr(index_module, "set")
    assert ix.close("Intercesor Squad")[0] == "Intercessor Squad"
    assert ix._words["squad"] == ["intercessor squad", "devastator squad"]


def test_a_store_closed_by_an_interrupted_query_is_not_kept_closed():
    from mathhammer.data.store.compiled import Store

    class Connection:
        def close(self) -> None:
            raise SoftLimit  # the alarm, in the middle of closing

    store = Store(Path("x.sqlite"), Path("."), "10e")
    store._db = Connection()
    with pytest.raises(SoftLimit):
        store.close()
    assert store._db is None  # forgotten first: the next query opens it again
