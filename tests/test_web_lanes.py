"""The page's lanes and a worker's answer (mathhammer.web.lanes), with plain futures standing
in for the worker pool: no processes, no timing (each step waits on an event, not a clock).

The fault they pin: a query the page abandoned (a new click before the old answer) gave its
lane's turn back at once while its worker was still busy, so the next query was handed to the
pool with no free worker and waited in the pool's own queue, where neither the lane's bounds
nor the time limit (which starts when a worker takes the job) applied: with the workers of
abandoned plans being stopped and replaced (each replacement reads the data first), a query
could wait without bound, and the page stayed at "planning...".
"""

from __future__ import annotations

import asyncio
import time

import pytest

from mathhammer.web import lanes
from mathhammer.web.lanes import Lane, NoAnswer, outcome

pebble = pytest.importorskip("pebble")  # the web extra: its future cancels a running job


@pytest.fixture(autouse=True)
def quick_poll(monkeypatch):
    monkeypatch.setattr(lanes, "POLL", 0.001)


async def gone() -> bool:
    return True


async def here() -> bool:
    return False


async def until(check, steps: int = 5000) -> None:
    """Let the loop run until ``check()`` holds (at most ``steps`` polls)."""
    for _ in range(steps):
        if check():
            return
        await asyncio.sleep(lanes.POLL)
    raise AssertionError("never happened")


async def polls(n: int = 50) -> None:
    """Let the loop run for ``n`` of outcome's polls."""
    for _ in range(n):
        await asyncio.sleep(lanes.POLL)


def test_an_abandoned_job_keeps_its_turn_until_the_pool_frees_its_worker():
    async def scenario():
        lane = Lane(1, limit=1)
        job = pebble.ProcessFuture()
        job.set_running_or_notify_cancel()  # a worker has taken it
        events = []

        async def abandoned():
            async with lane.turn():
                events.append(await outcome(job, gone, deadline=time.monotonic() + 60,
                                            stop_on_gone=True))
            events.append("turn given back")

        async def next_query():
            async with lane.turn():
                events.append("next query runs")

        first = asyncio.create_task(abandoned())
        await until(job.cancelled)  # the client went: the job is cancelled ...
        second = asyncio.create_task(next_query())
        await polls()
        assert events == []  # ... but its worker is not free yet: the next query waits
        assert lane.free == 0 and lane.waiting == 1
        job.set_running_or_notify_cancel()  # the pool has stopped the worker (pebble's task_done)
        await asyncio.gather(first, second)
        return events

    assert asyncio.run(scenario()) == [None, "turn given back", "next query runs"]


def test_an_abandoned_quick_job_is_left_to_end_and_holds_its_turn_until_it_does():
    async def scenario():
        job = pebble.ProcessFuture()
        job.set_running_or_notify_cancel()
        task = asyncio.create_task(outcome(job, gone, deadline=time.monotonic() + 60,
                                           stop_on_gone=False))
        await polls()
        assert not task.done() and not job.cancelled()  # the worker stays warm, and busy
        job.set_result((200, "{}"))
        return await task

    assert asyncio.run(scenario()) is None  # nobody reads it: the client has gone


def test_a_job_no_worker_takes_is_answered_at_its_deadline_and_cancelled():
    async def scenario():
        job = pebble.ProcessFuture()  # queued, never taken
        with pytest.raises(NoAnswer):
            await outcome(job, here, deadline=time.monotonic() - 1, stop_on_gone=True)
        return job.cancelled()

    assert asyncio.run(scenario())


def test_an_answer_is_returned_and_an_error_raised_as_the_worker_gave_them():
    async def scenario():
        ok, bad = pebble.ProcessFuture(), pebble.ProcessFuture()
        ok.set_result((200, "{}"))
        bad.set_exception(TimeoutError("Task timeout"))
        got = await outcome(ok, here, deadline=time.monotonic() + 60, stop_on_gone=True)
        with pytest.raises(TimeoutError):
            await outcome(bad, here, deadline=time.monotonic() + 60, stop_on_gone=True)
        return got

    assert asyncio.run(scenario()) == (200, "{}")
