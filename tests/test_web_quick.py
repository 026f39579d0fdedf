"""The quick lane's soft limit through the app (Starlette's test client, real worker
processes): a query past it is answered from the long lane, exactly, and the quick lane's
workers are the same processes before and after (interrupted, not stopped and replaced by
workers that start cold, whose first query could pass the limit in turn).

The quick lane's second is made a fifth here so that a query of about a second of work passes
it on any machine; no test times anything (which lane answered is in ``Server-Timing``)."""

from __future__ import annotations

import importlib.util
import json
import multiprocessing

import pytest

pytest.importorskip("starlette")
pytest.importorskip("pebble")
if not any(importlib.util.find_spec(m) for m in ("httpx2", "httpx")):
    pytest.skip("Starlette's test client needs httpx2", allow_module_level=True)

from starlette.testclient import TestClient  # noqa: E402

from mathhammer.jobs.queries import answer  # noqa: E402
from mathhammer.web import app as web_app  # noqa: E402
from mathhammer.web.app import create_app  # noqa: E402

#: About a second of work alone (thousands of states over 3 turns), far within the time limit.
SLOW = {"attacker": "40x 3 | 3+ | 5 | -1 | D3", "target": "20x T4 Sv4+ W6", "turns": 3}
CHEAP = {"attacker": "Cronos", "target": "MEQ"}


def _workers() -> set[int]:
    return {p.pid for p in multiprocessing.active_children()}


@pytest.mark.slow
def test_a_query_past_the_quick_lane_moves_and_no_quick_worker_is_replaced(monkeypatch):
    monkeypatch.setattr(web_app, "QUICK", 0.2)
    with TestClient(create_app(allowed_hosts=["testserver"], workers=2, timeout=600)) as c:
        cheap = c.post("/api/kills", json=CHEAP)  # the quick lane's workers have started
        assert cheap.status_code == 200
        assert "moved" not in cheap.headers["server-timing"]
        quick = _workers()
        assert len(quick) == 2  # the long lane starts its workers when first asked
        slow = c.post("/api/kills", json=SLOW)
        assert slow.status_code == 200, slow.text
        timing = slow.headers["server-timing"]
        assert timing.startswith("compute;dur=") and ", moved;dur=" in timing
        after = _workers()
        assert quick <= after and len(after) == 4  # the same two, and the long lane's two
        # the quick lane answers the next query, interrupted workers and all
        again = c.post("/api/kills", json=CHEAP)
        assert again.json() == cheap.json() and "moved" not in again.headers["server-timing"]
        assert _workers() == after
    assert slow.json() == json.loads(answer("kills", SLOW)[1])  # as computed in one go
