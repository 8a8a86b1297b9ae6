"""A whole set counted off the script thread: one background thread per session's job.

The thread calls `count_dataset` with a progress callback and a cancel event; the heavy work runs
where the count's engine puts it (in this process for a small set, else in the worker processes
of the counting cluster), and the thread itself mostly waits, so other sessions keep the server.
The page polls the job from a fragment that reruns every half second while it runs.

A session that ends (its tab gone past the grace, ui/jobs.py) has its job cancelled; its state,
the job and its result with it, is emptied by the same watcher.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
import weakref
from dataclasses import dataclass, field
from typing import Any

import streamlit as st

from tokenizer_core.datasets import (
    CountProgress,
    DatasetCancelled,
    DatasetError,
    DatasetResult,
    count_dataset,
)

from ..jobs import cancel_when_session_ends

JOB = "datasets_job"  # session state: this session's running or last job
LAST = "datasets_last"  # session state, kept in the browser: the set last counted and its job's token
# Every running count by its token: a reload starts a new session, which finds the count its tab
# started before the reload here (the token comes back with the saved work) and stops it at once.
_RUNNING: weakref.WeakValueDictionary[str, CountJob] = weakref.WeakValueDictionary()
_SETTLE = "_datasets_settle"  # session state: a run that should wait a moment for the job
SETTLE_SECONDS = 1.5  # a small set is counted by then: its result shows without a poll
POLL_SECONDS = 0.5

_log = logging.getLogger(__name__)


@dataclass
class CountJob:
    """One count of a set: its inputs' fingerprint, its progress, and how it ended."""

    fingerprint: tuple[Any, ...]  # what was counted with which settings (to say when they changed)
    name: str
    progress: CountProgress = field(default_factory=lambda: CountProgress(0.0, 0, "Starting..."))
    result: DatasetResult | None = None
    error: str | None = None
    cancelled: bool = False
    started: float = field(default_factory=time.monotonic)
    seconds: float | None = None
    _cancel: threading.Event = field(default_factory=threading.Event, repr=False)
    _done: threading.Event = field(default_factory=threading.Event, repr=False)

    def run(self, data: bytes, models: list[str], options: dict[str, Any]) -> None:
        try:
            self.result = count_dataset(
                data, models, progress=self._on_progress, cancel=self._cancel, **options
            )
        except DatasetCancelled:
            self.cancelled = True
        except DatasetError as exc:
            self.error = str(exc)
        except Exception:  # noqa: BLE001  (logged here; the user gets a sentence, not a traceback)
            _log.exception("counting the set %r failed", self.name)
            self.error = "The count stopped on something unexpected. The server's log has the details."
        finally:
            self.seconds = time.monotonic() - self.started
            self._done.set()

    def _on_progress(self, p: CountProgress) -> None:
        self.progress = p

    @property
    def id(self) -> int:
        """A key for the session watcher (negative: never a worker pool job's id)."""
        return -id(self)

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float) -> bool:
        return self._done.wait(timeout)

    def cancel(self) -> None:
        self._cancel.set()


def start_count(fingerprint: tuple[Any, ...], name: str, data: bytes, models: list[str],
                options: dict[str, Any]) -> CountJob:  # fmt: skip
    """Start counting `data` for this session (its previous job, if running, is cancelled)."""
    old = st.session_state.get(JOB)
    if old is not None:
        old.cancel()
    job = CountJob(fingerprint, name)
    token = uuid.uuid4().hex
    _RUNNING[token] = job
    st.session_state[LAST] = {"name": name, "token": token}
    thread = threading.Thread(
        target=job.run, args=(data, models, options), name="tw-dataset-count", daemon=True
    )
    st.session_state[JOB] = job
    st.session_state[_SETTLE] = True
    cancel_when_session_ends(job)
    thread.start()
    return job


def lost_to_a_reload(has_set: bool) -> str | None:
    """After a reload, what was lost, in a sentence (None: nothing): the dropped file and its count
    are not kept in the browser, and a count still running for the tab before the reload is
    stopped now, not when its session times out."""
    last = st.session_state.get(LAST)
    if has_set or not isinstance(last, dict) or st.session_state.get(JOB) is not None:
        return None
    st.session_state.pop(LAST, None)
    name = str(last.get("name", "the set"))
    job = _RUNNING.pop(str(last.get("token", "")), None)
    if job is not None and not job.done():
        job.cancel()
        return (f"The page was reloaded while {name} was being counted: that count is stopped. A dropped file is "
                "not kept across a reload: drop it again to count it (your settings are kept).")  # fmt: skip
    return (f"The set you counted before, {name}, and its count are not kept across a reload: drop it again "
            "to count it (your settings are kept).")  # fmt: skip


def cancel_count() -> None:
    """The Cancel button's callback."""
    job = st.session_state.get(JOB)
    if job is not None:
        job.cancel()
        st.session_state[_SETTLE] = True


def current_job() -> CountJob | None:
    """This session's job. Right after a start or a cancel, waits a moment (sleeping: the
    interpreter stays free) so a small set's result, or the cancel, shows in this run."""
    job = st.session_state.get(JOB)
    if job is not None and st.session_state.pop(_SETTLE, False):
        job.wait(SETTLE_SECONDS)
    return job


def forget_count() -> None:
    """Drop this session's job and result (a new set was dropped)."""
    job = st.session_state.pop(JOB, None)
    st.session_state.pop(LAST, None)
    if job is not None:
        job.cancel()


@st.fragment(run_every=POLL_SECONDS)
def progress_panel() -> None:
    """The running job's progress bar and Cancel button; the whole page reruns once it ends."""
    job = st.session_state.get(JOB)
    if job is None or job.done():
        st.rerun(scope="app")
    p = job.progress
    elapsed = time.monotonic() - job.started
    text = p.words(elapsed)
    c1, c2 = st.columns([6, 1], vertical_alignment="center")
    c1.progress(p.fraction if p.fraction is not None else 0.0, text=text)
    c2.button(
        "Cancel", key="datasets_cancel", on_click=cancel_count, icon=":material/cancel:", width="stretch"
    )
