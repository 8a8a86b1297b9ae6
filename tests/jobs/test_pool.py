"""The worker pool: results, progress, cancel (cooperative and forced), a worker killed mid-job."""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests import job_helpers as h
from tokenizer_core import BPEError, BPEOptions, train_bpe
from tokenizer_core.jobs import JobCancelled, JobPool, Progress, WorkerDied, report, reporting_to
from tokenizer_core.jobs.errors import PoolBusy
from tokenizer_core.tasks import train_bpe_task


@pytest.fixture(scope="module")
def pool():
    with JobPool(workers=2, kill_after=1.0, nice=0) as p:
        p.warm_up()
        yield p


def _wait_running(job, timeout: float = 20.0) -> int:
    """Wait until `job` runs in a worker; its pid."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        pid = job.pid
        if pid and job.progress.fraction > 0:
            return pid
        time.sleep(0.02)
    raise AssertionError(f"{job} never started")


def test_result_and_progress(pool):
    assert pool.submit(h.square, 7).result(timeout=30) == 49
    job = pool.submit(h.steps, 20, 0.05)
    seen = set()
    while not job.done():
        seen.add(job.progress.fraction)
        time.sleep(0.02)
    assert job.result() == 20 and job.state == "done"
    assert any(0 < f < 1 for f in seen), seen  # progress arrived while it ran


def test_the_jobs_own_error_reaches_the_caller(pool):
    job = pool.submit(h.fails, "bad corpus")
    with pytest.raises(ValueError, match="bad corpus"):
        job.result(timeout=30)
    assert job.state == "failed"


def test_cancel_a_running_job(pool):
    job = pool.submit(h.steps, 1000, 0.01)
    _wait_running(job)
    t0 = time.monotonic()
    job.cancel()
    with pytest.raises(JobCancelled):
        job.result(timeout=10)
    assert time.monotonic() - t0 < 2 and job.state == "cancelled"
    assert pool.submit(h.square, 3).result(timeout=30) == 9  # the pool is fine afterwards


def test_cancel_a_queued_job():
    with JobPool(workers=1, nice=0) as pool:
        busy = pool.submit(h.steps, 30, 0.02)
        queued = pool.submit(h.square, 5)
        queued.cancel()
        with pytest.raises(JobCancelled):
            queued.result(timeout=5)
        assert busy.result(timeout=30) == 30


def test_a_job_that_ignores_cancel_has_its_worker_killed_and_others_go_on(pool):
    other = pool.submit(h.steps, 40, 0.05)
    stuck = pool.submit(h.deaf, 60)
    deadline = time.monotonic() + 20
    while not stuck.pid and time.monotonic() < deadline:
        time.sleep(0.02)
    stuck.cancel()
    with pytest.raises(JobCancelled):
        stuck.result(timeout=15)  # kill_after=1 s, then the worker is killed
    assert other.result(timeout=60) == 40  # resubmitted on the new executor if it was hit


def test_a_worker_killed_mid_job_gives_a_clear_error_and_the_rest_continue(pool):
    victim = pool.submit(h.pid_then_steps, 400, 0.01)
    bystander = pool.submit(h.steps, 50, 0.02)
    queued = pool.submit(h.square, 11)
    pid = _wait_running(victim)
    restarts = pool.restarts
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(WorkerDied, match="run it again"):
        victim.result(timeout=30)
    assert bystander.result(timeout=60) == 50
    assert queued.result(timeout=60) == 121
    assert pool.restarts == restarts + 1
    # the user runs it again: a new worker does it
    again_pid, n = pool.submit(h.pid_then_steps, 5, 0.0).result(timeout=60)
    assert n == 5 and again_pid != pid


def test_pool_busy_says_so():
    with JobPool(workers=1, max_pending=2, nice=0) as pool:
        a = pool.submit(h.steps, 20, 0.02)
        b = pool.submit(h.square, 2)
        with pytest.raises(PoolBusy, match="busy"):
            pool.submit(h.square, 3)
        assert a.result(timeout=30) == 20 and b.result(timeout=30) == 4
        assert pool.submit(h.square, 3).result(timeout=30) == 9  # room again


def test_in_process_reporting_and_cancel():
    seen: list[Progress] = []
    with reporting_to(seen.append):
        assert h.steps(4, 0) == 4
    assert [p.fraction for p in seen] == [0, 0.25, 0.5, 0.75, 1.0]
    with reporting_to(seen.append, is_cancelled=lambda: True), pytest.raises(JobCancelled):
        report(0.5)
    report(0.5)  # no callback installed: a no-op


def test_bpe_training_in_a_worker_equals_in_process(pool):
    text = "low low low lower lowest newest newest widest " * 50
    options = BPEOptions(symbols="bytes", merges=40, tie_break="smallest")
    in_worker = pool.submit(train_bpe_task, text, "text", options, top_n=8, max_steps=100).result(timeout=60)
    direct = train_bpe(text, options, top_n=8)
    assert in_worker.merges == direct.merges and in_worker.words == direct.words
    assert [s.candidates for s in in_worker.steps] == [s.candidates for s in direct.steps]


def test_bpe_error_crosses_the_process_boundary(pool):
    options = BPEOptions(symbols="bytes", merges=5)
    job = pool.submit(train_bpe_task, "not a count line", "counts", options, top_n=0, max_steps=10)
    with pytest.raises(BPEError):
        job.result(timeout=60)


def test_workers_never_run_the_hosts_main_script(tmp_path, monkeypatch):
    """Streamlit runs each page script as a module named __main__ with a __file__; a worker
    started by multiprocessing would import that file again (running the whole app, without a
    server, in every worker). Workers import only what their job needs."""
    import sys
    import types

    marker = tmp_path / "ran"
    script = tmp_path / "fake_app.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('the app ran in a worker')\n")
    fake_main = types.ModuleType("__main__")
    fake_main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", fake_main)
    with JobPool(workers=1, nice=0) as pool:
        assert pool.submit(h.square, 3).result(timeout=60) == 9
    assert not marker.exists(), marker.read_text()


def test_a_worker_killed_while_reporting_never_blocks_the_others():
    """A worker killed (kill -9, out of memory) in the middle of sending progress must not leave
    anything locked: later jobs still report progress, and every worker can exit."""
    import threading

    outcome: dict = {}

    def scenario() -> None:
        pool = JobPool(workers=2, nice=0)
        pool.warm_up()
        for _ in range(4):
            job = pool.submit(h.spam_progress, 60.0)
            deadline = time.monotonic() + 30
            while not job.progress.text.startswith("message") and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(0.2)  # well into sending
            pid = job.pid
            assert pid > 0, "the job never started"  # (os.kill(0, ...) would hit this process group)
            os.kill(pid, signal.SIGKILL)
            with pytest.raises(WorkerDied):
                job.result(timeout=60)
        job = pool.submit(h.steps, 10, 0.2)
        deadline = time.monotonic() + 30
        while not job.progress.text.startswith("step") and time.monotonic() < deadline:
            time.sleep(0.01)
        outcome["progress"] = job.progress.text
        outcome["result"] = job.result(timeout=60)
        pool.shutdown()
        outcome["shut down"] = True

    t = threading.Thread(target=scenario, daemon=True)
    t.start()
    t.join(timeout=240)
    assert not t.is_alive(), f"the pool hung: {outcome}"
    assert outcome.pop("progress", "").startswith("step"), outcome  # progress still gets through
    assert outcome == {"result": 10, "shut down": True}


def test_a_job_runs_while_the_worker_is_still_warming_up_and_the_warm_up_finishes():
    # One worker for the whole test: a replaced worker would start its warm-up again.
    with JobPool(workers=1, nice=0, warm=h.warm_slowly, max_tasks_per_child=None) as pool:
        pool.warm_up()  # ready for jobs: warm-up steps run in the background
        assert pool.submit(h.warmed_count).result(timeout=30) < 5  # it did not wait for all five
        deadline = time.monotonic() + 60
        while pool.submit(h.warmed_count).result(timeout=30) < 5 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert pool.submit(h.warmed_count).result(timeout=30) == 5


def test_a_worker_that_grew_is_replaced_and_one_that_did_not_is_kept():
    with JobPool(workers=1, nice=0, max_growth_mb=100, max_tasks_per_child=None) as pool:
        pool.warm_up()
        first = pool.submit(h.grow, 10).result(timeout=30)
        assert pool.submit(h.grow, 10).result(timeout=30) == first  # 20 MB: kept
        assert pool.submit(h.grow, 150).result(timeout=30) == first  # now 170 MB over: replaced
        deadline = time.monotonic() + 30
        while first in pool.worker_pids() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pool.submit(h.square, 3).result(timeout=30) == 9
        assert first not in pool.worker_pids()
