"""A Datasets count whose session has ended is cancelled by the server's session watcher (the
same one that cancels worker pool jobs), so its thread stops and its result is never kept."""

from __future__ import annotations

import threading

import ui.datasets.job as job_module
import ui.jobs
from tests.ui.test_session_watch import FakeRuntime, trims  # noqa: F401 (the fixture)
from tokenizer_core.datasets import CountProgress, DatasetCancelled


def test_a_count_of_a_session_that_ended_is_cancelled_after_the_grace(trims, monkeypatch):  # noqa: F811
    started = threading.Event()

    def endless(data, models, *, progress, cancel, **options):
        progress(CountProgress(0.1, 10, "10 rows counted"))
        started.set()
        if cancel.wait(30):
            raise DatasetCancelled("The count was cancelled.")
        raise AssertionError("never cancelled")

    monkeypatch.setattr(job_module, "count_dataset", endless)
    job = job_module.CountJob(("digest",), "big.jsonl")
    thread = threading.Thread(target=job.run, args=(b"{}", ["gpt-4o"], {}), daemon=True)
    thread.start()
    assert started.wait(10) and job.progress.rows == 10

    watch = ui.jobs._SessionWatch()
    watch.add("gone-session", job)  # FakeRuntime: no session is connected
    FakeRuntime.sessions = 1
    watch.check(1000.0)  # first seen gone: the grace starts
    assert not job.done()
    watch.check(1000.0 + ui.jobs.SESSION_GRACE_SECONDS + 1)
    thread.join(10)
    assert job.done() and job.cancelled and job.result is None
