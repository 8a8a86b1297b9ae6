"""The worker pool under kill -9 at every phase of a job: each job runs or fails with a message
within a bounded time, and the pool rebuilds itself. Every wait here has a timeout: a pool that
hangs fails the test instead of hanging it."""

from __future__ import annotations

import os
import signal
import time
from collections import Counter
from multiprocessing import forkserver

import pytest

from tests import job_helpers as h
from tokenizer_core.jobs import JobPool, WorkerDied

BOUND = 60  # seconds any job may take here to end one way or the other


def _pid(job) -> int:
    return job.pid


def _phase(path, timeout: float = 30.0) -> tuple[int, str]:
    """Wait until a job helper wrote its marker file; (the worker's pid, the phase it is in)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists() and (text := path.read_text()):
            pid, phase = text.split(" ", 1)
            return int(pid), phase
        time.sleep(0.02)
    raise AssertionError(f"no job reached its phase within {timeout} s")


def _running(job, timeout: float = 30.0) -> int:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pid := _pid(job):
            return pid
        time.sleep(0.02)
    raise AssertionError(f"{job} never started")


@pytest.fixture
def pool():
    with JobPool(workers=1, nice=0, kill_after=1.0, start_timeout=20) as p:
        p.warm_up()
        yield p


def test_more_jobs_than_a_worker_runs_before_it_is_replaced_all_finish():
    """One worker replaced after 8 jobs, 12 jobs: ProcessPoolExecutor (CPython 3.11, gh-115634)
    ran 8 and left 4 queued for good with no worker process."""
    with JobPool(workers=1, nice=0, max_tasks_per_child=8) as pool:
        jobs = [pool.submit(h.square, i) for i in range(12)]
        assert [j.result(timeout=BOUND) for j in jobs] == [i * i for i in range(12)]
        jobs = [pool.submit(h.pid_then_steps, 1, 0.0) for i in range(20)]  # and again
        served = Counter(j.result(timeout=BOUND)[0] for j in jobs)
        # A worn-out worker keeps serving until its replacement is ready, so how many jobs each ran
        # depends on the machine; a worker that ran 8 of these is worn out whatever came before.
        worn = {pid for pid, n in served.items() if n >= 8}
        assert worn, served
        end = time.monotonic() + BOUND
        while worn & set(pool.worker_pids()) and time.monotonic() < end:
            time.sleep(0.05)
        assert pool.worker_pids() and not worn & set(pool.worker_pids())  # worn-out workers replaced
        assert pool.submit(h.square, 3).result(timeout=BOUND) == 9


@pytest.mark.parametrize("when", ["reading its input", "loading tokenizers", "returning its result"])
def test_a_worker_killed_at_a_phase_fails_its_job_and_the_next_job_runs(pool, tmp_path, when):
    marker = tmp_path / "phase"
    if when == "reading its input":
        job = pool.submit(h.identity, h.SlowToLoad(str(marker), 60))
    elif when == "loading tokenizers":
        job = pool.submit(h.loading, str(marker), 60)
    else:
        job = pool.submit(h.slow_result, str(marker), 60)
    queued = pool.submit(h.square, 6)  # another session's job, waiting behind it
    pid, phase = _phase(marker)
    assert phase == when
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(WorkerDied, match="run it again"):
        job.result(timeout=BOUND)
    assert queued.result(timeout=BOUND) == 36
    assert pool.submit(h.square, 7).result(timeout=BOUND) == 49


def test_a_worker_killed_in_the_middle_of_a_message_fails_only_its_job(pool):
    job = pool.submit(h.half_message)
    queued = pool.submit(h.square, 8)
    with pytest.raises(WorkerDied):
        job.result(timeout=BOUND)
    assert queued.result(timeout=BOUND) == 64


def test_a_worker_killed_while_it_starts_leaves_the_queued_job_to_its_replacement(tmp_path, monkeypatch):
    """The first worker is held in its start (importing its preload: tests/job_held_start.py) until
    the test kills it, whatever the machine's load: a worker forked from a forkserver that already
    has the job code is ready in milliseconds, and a kill that came a little late met the job."""
    marker = tmp_path / "held"
    monkeypatch.setenv("TW_TEST_HELD_START", str(marker))  # a spawned worker inherits it
    with JobPool(workers=1, nice=0, start_method="spawn", preload=("tests.job_held_start",)) as pool:
        job = pool.submit(h.pid_then_steps, 1, 0.0)  # queued before any worker is ready
        end = time.monotonic() + BOUND
        while not (marker.exists() and marker.read_text()) and time.monotonic() < end:
            time.sleep(0.02)
        held = int(marker.read_text())
        assert job.state == "queued"  # the only worker is still starting
        os.kill(held, signal.SIGKILL)
        pid, _ = job.result(timeout=BOUND)
        assert pid != held  # its replacement ran it


def test_a_worker_killed_while_idle_is_replaced(pool):
    (pid,) = pool.worker_pids()
    os.kill(pid, signal.SIGKILL)
    assert pool.submit(h.square, 4).result(timeout=BOUND) == 16
    assert pid not in pool.worker_pids()


def test_killing_the_forkserver_stops_nothing_and_new_workers_still_start():
    with JobPool(workers=1, nice=0, max_tasks_per_child=1) as pool:
        pool.warm_up()
        running = pool.submit(h.steps, 20, 0.05)
        queued = pool.submit(h.square, 5)
        first = _running(running)
        os.kill(forkserver._forkserver._forkserver_pid, signal.SIGKILL)
        assert running.result(timeout=BOUND) == 20  # its worker outlives the forkserver
        assert queued.result(timeout=BOUND) == 25  # on a replacement from a new forkserver
        end = time.monotonic() + BOUND
        while first in pool.worker_pids() and time.monotonic() < end:
            time.sleep(0.05)  # the worn-out worker goes once its replacement is ready
        pid, n = pool.submit(h.pid_then_steps, 3, 0.0).result(timeout=BOUND)
        assert n == 3 and pid != first


def test_forkserver_and_workers_killed_together_during_heavy_jobs_then_a_small_job_runs():
    """The hostile run: workers and their forkserver killed with kill -9 in the middle of heavy
    jobs, more jobs queued from other sessions; then a small job must still run."""
    with JobPool(workers=2, nice=0, kill_after=1.0) as pool:
        pool.warm_up()
        heavy = [pool.submit(h.steps, 400, 0.01) for _ in range(4)]
        for job in heavy[:2]:
            _running(job)
        for pid in pool.worker_pids():
            os.kill(pid, signal.SIGKILL)
        os.kill(forkserver._forkserver._forkserver_pid, signal.SIGKILL)
        outcomes = []
        for job in heavy:
            try:
                outcomes.append(job.result(timeout=BOUND))
            except WorkerDied:
                outcomes.append("died")
        assert outcomes[:2] == ["died", "died"]
        assert outcomes[2:] == [400, 400]  # queued ones ran on the new workers
        small = pool.submit(h.square, 12)
        assert small.result(timeout=BOUND) == 144


def test_a_cancelled_job_that_ignores_it_has_its_worker_killed_and_the_queue_goes_on(pool):
    deaf = pool.submit(h.deaf, 120)
    queued = pool.submit(h.square, 3)
    _running(deaf)
    deaf.cancel()
    assert queued.result(timeout=BOUND) == 9


def test_jobs_fail_with_a_message_when_no_worker_can_start():
    """Workers that never get ready (their start hangs) are killed after start_timeout, and a
    job waiting for one fails with a message instead of waiting for good."""
    with JobPool(workers=1, nice=0, start_method="spawn", preload=("tests.job_never_ready",),
                 start_timeout=3) as pool:  # fmt: skip
        job = pool.submit(h.square, 2)
        t0 = time.monotonic()
        with pytest.raises(WorkerDied, match="could not be started"):
            job.result(timeout=BOUND)
        assert time.monotonic() - t0 < BOUND
