"""A bounded burst to a real server (``tests/load_web.py``): a cheap request's latency stays
bounded however many heavy ones come first, because the quick lane is first come first served
and bounded (a request past its bound is told to come back: a JSON 503 with Retry-After).

The bound is generous, not a timing benchmark: a cheap request waits for at most
``QUICK_WAITING`` per worker others' quick seconds (4 s here); it is checked against 15 s. With
the lane as it was (newest first, no bound) the cheap requests sent early in a burst of 40
heavy ones waited for all their quick seconds (20 s and more)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("pebble")
pytest.importorskip("uvicorn")

import load_web  # noqa: E402

from mathhammer.web.background import serving  # noqa: E402

#: Seconds a cheap request may take in the burst (it waits for at most 4 s of quick work).
BOUND = 15.0


@pytest.mark.slow
def test_a_cheap_request_is_answered_within_a_bound_in_a_burst():
    with serving("--workers", "2", env=load_web._env(load_web.ROOT), wait=60) as url:
        load_web._one(url, "warm", load_web.CHEAP[1], 60)
        answers = load_web.burst(url, heavy=40, cheap=10, deadline=60)
    cheap = [a for a in answers if a.kind == "cheap"]
    assert len(answers) == 50 and all(a.status in (200, 503) for a in answers), answers
    assert all(a.json for a in answers)  # every answer, 503 too, is the page's JSON
    assert all(a.retry_after == "2" for a in answers if "busy" in a.error)
    assert max(a.seconds for a in cheap) < BOUND, "\n".join(load_web.report(answers))
    # some cheap requests were answered, not all refused
    assert any(a.status == 200 for a in cheap), "\n".join(load_web.report(answers))


def test_the_report_counts_what_it_was_given():
    a = [load_web.Answer("cheap", 200, 0.5), load_web.Answer("cheap", 503, 0.1, "2"),
         load_web.Answer("heavy", 503, 0.2, "2")]
    assert load_web.report(a) == [
        "cheap latency: p50 0.10 s, p95 0.50 s, max 0.50 s (2 requests)",
        "cheap: 2 requests: 1x 200, 1x 503; 503: 1",
        "heavy: 1 requests: 1x 503; 503: 1"]
    assert json.loads(json.dumps(load_web.percentile([3.0], 0.95))) == 3.0
