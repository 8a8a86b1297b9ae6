"""App-layer glue for the worker pool: one pool per server, a progress bar, a Cancel button,
and jobs cancelled when their browser session ends; the state of a session that ended emptied.

A page starts a job with `start_job(key, fn, *args, in_process=..., **kwargs)` and calls
`follow_job(key)` where the progress bar belongs: while the job runs it draws the bar and a
Cancel button and waits (sleeping, so the interpreter lock stays free for other sessions);
once the job has ended it returns a `JobOutcome` exactly once. Small inputs run in-process
(`in_process=True`) through the same job function and the same outcome.

Work that is a pure function of its inputs (counting or chunking a large text) goes through
`pooled_result(key, fingerprint, fn, ...)`: the same bar and Cancel button, and a result shared
by every session under its fingerprint (a small cache bounded by the size of what it holds).
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from tokenizer_core.jobs import Job, JobCancelled, JobError, JobPool, Progress, WorkerDied, reporting_to
from tokenizer_core.tasks import warm_steps
from tokenizer_core.tokenizers import escape_markdown

from .sessions import (
    SessionStates,
    current_session_id,
    has_runtime,
    is_connected,
    kept_session_ids,
    session_count,
)

# A session disconnected this long (not a network blip) loses its job, and its state is emptied
# (its tokenizers, texts, results, uploads), also when Streamlit keeps the session for a reconnect.
SESSION_GRACE_SECONDS = float(os.environ.get("TW_SESSION_GRACE_SECONDS", "20"))
_POLL_SECONDS = 0.25
TRIM_EVERY_SECONDS = 10.0  # at most this often, after a session has closed


@dataclass
class JobOutcome:
    """How a job ended: `value` when it succeeded, else `error` (a message for the user)."""

    value: Any = None
    error: str | None = None
    cancelled: bool = False
    meta: Any = None


def _trim_heap() -> None:
    """Hand memory freed by closed sessions back to the system (glibc keeps it otherwise)."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)  # releases the GIL while it runs
    except (OSError, AttributeError):  # not glibc (macOS, musl): nothing to do
        pass


class _SessionWatch:
    """Cancels the jobs of sessions that are gone (closed tab, expired session), empties their
    state, and gives memory back after sessions have closed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[int, tuple[str, Job, float | None]] = {}
        self._sessions = 0
        self._last_trim = 0.0
        self._trim_due = False
        self.states = SessionStates()
        threading.Thread(target=self._loop, name="job-session-watch", daemon=True).start()

    def add(self, session_id: str, job: Job) -> None:
        with self._lock:
            self._jobs[job.id] = (session_id, job, None)

    def check(self, now: float | None = None) -> None:
        sessions = session_count()
        if sessions is None:
            return
        now = time.monotonic() if now is None else now
        for sid in self.states.ended(now, SESSION_GRACE_SECONDS):
            if self.states.forget(sid):
                self._trim_due = True
        kept = kept_session_ids()
        if kept is not None:
            # a session emptied after its grace is gone for the app, though Streamlit keeps it for
            # its TTL (120 s): with only such sessions left the shared caches go now, not then
            sessions = self.states.live(kept)
        self.sessions_now(sessions, now)
        with self._lock:
            for job_id, (sid, job, since) in list(self._jobs.items()):
                if job.done():
                    del self._jobs[job_id]
                elif is_connected(sid):
                    self._jobs[job_id] = (sid, job, None)
                elif since is None:
                    self._jobs[job_id] = (sid, job, now)
                elif now - since > SESSION_GRACE_SECONDS:
                    job.cancel()
                    del self._jobs[job_id]

    def sessions_now(self, sessions: int, now: float) -> bool:
        """Note the server's session count; give memory back (at most every TRIM_EVERY_SECONDS,
        but never skipping a drop) once sessions have gone. With none left, the results cached
        for sharing go too (they are recomputed on demand). True when it trimmed."""
        if sessions < self._sessions:
            self._trim_due = True
        self._sessions = sessions
        if not self._trim_due or now - self._last_trim <= TRIM_EVERY_SECONDS:
            return False
        self._trim_due, self._last_trim = False, now
        if sessions == 0:
            if _shared_store is not None:
                _shared_store.clear()
            st.cache_data.clear()
            if saved := sys.modules.get("ui.saved_work"):  # own tokenizers' files: a browser sends them again
                saved.forget_server_copies()
        _trim_heap()
        return True

    def _loop(self) -> None:
        while True:
            time.sleep(2.0)
            try:
                self.check()
            except Exception:  # never let the watcher die
                pass


@st.cache_resource(show_spinner=False)
def job_pool() -> JobPool:
    """The server's worker pool (size: TW_WORKERS, default about half of TW_PROCESSES), started with
    the server's first session and kept warm: its forkserver has the job code imported, so a
    worker (new, or replacing one whose jobs made it grow by 256 MB) is ready in milliseconds,
    then loads the default tokenizers while it has no job."""
    return JobPool(
        preload=("tokenizer_core.tasks",),
        warm=warm_steps,
        max_growth_mb=float(os.environ.get("TW_WORKER_MAX_GROWTH_MB", "256")),
        nice=int(os.environ.get("TW_WORKER_NICE", "10")),
    )


@st.cache_resource(show_spinner=False)
def _session_watch() -> _SessionWatch:
    return _SessionWatch()


def start_housekeeping() -> None:
    """Start the server's session watcher and worker pool (once per process) and note this
    session for the watcher: call from the entry script on every run, so the first heavy job
    finds warm workers (on a real server only: page tests start the pool at their first job)."""
    watch = _session_watch()
    watch.states.note()
    if has_runtime():
        job_pool()


def cancel_when_session_ends(job: Any) -> None:
    """Cancel `job` (anything with ``done()`` and ``cancel()``) once this session has ended."""
    sid = current_session_id()
    if sid is not None:
        _session_watch().add(sid, job)


def _outcome_of(job: Job, meta: Any) -> JobOutcome:
    try:
        return JobOutcome(value=job.result(timeout=0), meta=meta)
    except JobCancelled:
        return JobOutcome(error="Cancelled.", cancelled=True, meta=meta)
    except WorkerDied as exc:
        return JobOutcome(error=str(exc), meta=meta)
    except JobError as exc:
        return JobOutcome(error=str(exc), meta=meta)
    except Exception as exc:  # the job's own error (e.g. BPEError): the page words it
        return JobOutcome(error=str(exc) or type(exc).__name__, meta=meta)


def start_job(key: str, fn: Any, /, *args: Any, in_process: bool, meta: Any = None, label: str = "Working...",
              **kwargs: Any) -> None:  # fmt: skip
    """Start `fn(*args, **kwargs)` for this session under `key` (cancelling its previous job).

    In-process runs here, now, with a progress bar; otherwise the job goes to the pool.
    Raised job errors never escape: `follow_job` returns them as an outcome.
    """
    ss = st.session_state
    cancel_job(key)
    ss.pop(f"{key}_outcome", None)
    if in_process:
        bar = st.progress(0.0, text=label)

        def show(p: Progress) -> None:
            bar.progress(p.fraction, text=p.text or label)

        try:
            with reporting_to(show):
                value = fn(*args, **kwargs)
            ss[f"{key}_outcome"] = JobOutcome(value=value, meta=meta)
        except Exception as exc:
            ss[f"{key}_outcome"] = JobOutcome(error=str(exc) or type(exc).__name__, meta=meta)
        finally:
            bar.empty()
        return
    try:
        job = job_pool().submit(fn, *args, **kwargs)
    except JobError as exc:
        ss[f"{key}_outcome"] = JobOutcome(error=str(exc), meta=meta)
        return
    sid = current_session_id()
    if sid is not None:
        _session_watch().add(sid, job)
    ss[f"{key}_job"] = (job, meta, label)


def run_in_worker(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    """Run `fn` in the pool and wait for it, sleeping (the interpreter lock stays free for other
    sessions). For work inside a cached function: no progress bar; the job is cancelled if this
    session ends. Raises the job's own error, or JobError (PoolBusy, WorkerDied...)."""
    job = job_pool().submit(fn, *args, **kwargs)
    sid = current_session_id()
    if sid is not None:
        _session_watch().add(sid, job)
    try:
        while not job.wait(0.25):
            pass
    finally:
        job.cancel()  # a no-op once done; stops the work if this thread was interrupted
    return job.result()


class SharedResults:
    """Results of pooled jobs for every session, by fingerprint: the least recently used go first
    once their weights (characters held) add up to more than `max_weight`, or after `ttl`
    seconds. A value holds nothing a session chose (built-in tokenizers, labelled by id)."""

    def __init__(self, *, max_weight: int, max_entries: int = 8, ttl: float = 600.0) -> None:
        self.max_weight, self.max_entries, self.ttl = max_weight, max_entries, ttl
        self._lock = threading.Lock()
        self._items: OrderedDict[Hashable, tuple[Any, int, float]] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if time.monotonic() - item[2] > self.ttl:
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return item[0]

    def put(self, key: Hashable, value: Any, weight: int) -> None:
        with self._lock:
            self._items.pop(key, None)
            if weight > self.max_weight:
                return  # bigger than the whole cache: kept by nobody but the page showing it
            self._items[key] = (value, weight, time.monotonic())
            while len(self._items) > self.max_entries or self.weight() > self.max_weight:
                self._items.popitem(last=False)

    def weight(self) -> int:
        return sum(w for _, w, _ in self._items.values())

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


_shared_store: SharedResults | None = None  # the server's, for the session watcher to empty


@st.cache_resource(show_spinner=False)
def shared_results() -> SharedResults:
    """One per server: room for the chunks of two of the largest texts (20 MB each)."""
    global _shared_store
    _shared_store = SharedResults(max_weight=int(os.environ.get("TW_SHARED_RESULT_CHARS", "40000000")))
    return _shared_store


# Texts up to these sizes (characters) are counted / chunked in the server's process, longer ones
# (with built-in tokenizers) in a worker: bench/bench_jobs.py --counting --chunking measures both
# ways and how long the in-process run keeps other sessions waiting. Environment variables override.
_IN_PROCESS_MAX_CHARS = {
    "count": ("TW_COUNT_IN_PROCESS_MAX_CHARS", 1_000_000),
    "chunk": ("TW_CHUNK_IN_PROCESS_MAX_CHARS", 200_000),
}


def in_process_max_chars(kind: str) -> int:
    """The largest text (characters) whose `kind` of work ("count", "chunk") stays in-process."""
    env, default = _IN_PROCESS_MAX_CHARS[kind]
    return int(os.environ.get(env, default))


def text_digest(text: str) -> str:
    """A fingerprint of a text for result keys (the text itself is not kept in the key).

    Hashing 20 MB takes about 50 ms and a page asks several times per rerun, so the session
    remembers the last answer for that very string object (no copy is kept)."""
    memo = st.session_state.get("_tw_text_digest")
    if memo is not None and memo[0] is text:
        return memo[1]
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    st.session_state["_tw_text_digest"] = (text, digest)
    return digest


def pooled_result(
    key: str, fingerprint: Hashable, fn: Any, /, *args: Any, weight: int, label: str, **kwargs: Any
) -> JobOutcome:
    """`fn(*args, **kwargs)` computed in the worker pool, with a progress bar and Cancel button
    while this session waits, or taken from the shared results when any session computed it.
    The session keeps its current result under `key` (so its reruns never wait again, whatever
    other sessions push out of the shared results); `weight` is about the memory the value
    holds, in characters (the chunks' texts; 1 for a small value such as counts).

    After a cancel the same fingerprint is not started again by itself (the page offers
    `run_again_button`); new inputs (another fingerprint) cancel the job running for the old.
    """
    ss = st.session_state
    held = ss.get(f"{key}_result")  # this session's current result: the same object, not a copy
    if held is not None and held[0] == fingerprint:
        return JobOutcome(value=held[1], meta=fingerprint)
    ss.pop(f"{key}_result", None)  # inputs changed: let the old result go
    store = shared_results()
    if (value := store.get(fingerprint)) is not None:
        ss[f"{key}_result"] = (fingerprint, value)
        return JobOutcome(value=value, meta=fingerprint)
    if ss.get(f"{key}_stopped") == fingerprint:
        return JobOutcome(error="Cancelled.", cancelled=True, meta=fingerprint)
    ss.pop(f"{key}_stopped", None)
    entry = ss.get(f"{key}_job")
    if entry is None or entry[1] != fingerprint:
        start_job(key, fn, *args, in_process=False, meta=fingerprint, label=label, **kwargs)
    outcome = follow_job(key)
    if outcome is None or outcome.meta != fingerprint:  # an old job's end: start this one
        start_job(key, fn, *args, in_process=False, meta=fingerprint, label=label, **kwargs)
        outcome = follow_job(key) or JobOutcome(error="The job was lost.", meta=fingerprint)
    if outcome.cancelled:
        ss[f"{key}_stopped"] = fingerprint
    elif outcome.error is None:
        store.put(fingerprint, outcome.value, weight)
        ss[f"{key}_result"] = (fingerprint, outcome.value)
    return outcome


def run_again_button(key: str, label: str) -> None:
    """After a cancel: a button that runs the same job again."""
    st.button(label, key=f"{key}_again", icon=":material/replay:",
              on_click=lambda: st.session_state.pop(f"{key}_stopped", None))  # fmt: skip


def show_stopped(key: str, outcome: JobOutcome, what: str, kept: str, again: str | None = None) -> None:
    """Why a `pooled_result` gave no value: cancelled (with a button to run it again), or failed."""
    if outcome.cancelled:
        st.info(f"{what} cancelled. The {kept} is still in the box.", icon=":material/cancel:")
        run_again_button(key, again or f"{what} again")
    else:
        st.error(f"{what} failed: {escape_markdown(outcome.error or '')}", icon=":material/error:")


def cancel_job(key: str) -> None:
    """Cancel this session's job under `key`, if one is running (a button callback)."""
    entry = st.session_state.get(f"{key}_job")
    if entry is not None:
        entry[0].cancel()


def follow_job(key: str, *, cancel_label: str = "Cancel") -> JobOutcome | None:
    """Draw progress and a Cancel button while this session's job runs; its outcome once it ends."""
    ss = st.session_state
    entry = ss.get(f"{key}_job")
    if entry is not None:
        job, meta, label = entry
        if not job.done():
            slot = st.empty()
            with slot.container():
                c1, c2 = st.columns([6, 1], vertical_alignment="center")
                bar = c1.progress(job.progress.fraction, text=job.progress.text or label)
                c2.button(cancel_label, key=f"{key}_cancel", on_click=cancel_job, args=(key,),
                          icon=":material/cancel:", width="stretch")  # fmt: skip
            while not job.wait(_POLL_SECONDS):  # returns the moment the job ends
                p = job.progress
                bar.progress(p.fraction, text=p.text or label)  # also where a rerun/stop interrupts us
            slot.empty()
        del ss[f"{key}_job"]
        return _outcome_of(job, meta)
    return ss.pop(f"{key}_outcome", None)
