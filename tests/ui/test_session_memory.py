"""A user's tokenizer and texts do not outlive the session (issue #31): on a real server, sessions
upload a large tokenizer.json and leave, and the server's memory, read from /proc, comes back near
where it was before they came. Before the fix the last session's state stayed alive (Streamlit's
runtime kept a reference to it) with everything it held until another session came and went.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bench.bench_memory import UPLOAD_SERVER_ENV, big_tokenizer_json, upload_tokenizer, wait_for_rss, warm_up
from bench.bench_serving import _descendants, _rss_mb, free_port, start_server
from tests.ui.test_serving_jobs import run_in_own_loop

SESSIONS = 2
FILE_BYTES = 20_000_000  # 1.2M entries: each session's tokenizer holds ~250 MB where it is built
BOUND_MB = 100  # over the warm-up's RSS, once the sessions have gone
DEADLINE_S = 120  # to wait for it: session grace 1 s, TTL 5 s, a sweep every 2 s


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = start_server(port, {**UPLOAD_SERVER_ENV, "TW_WORKERS": "1", "TW_SESSION_GRACE_SECONDS": "1"})
    yield port, proc.pid
    proc.terminate()
    proc.wait(timeout=30)


def _total_mb(pid: int) -> float:
    """The server's RSS and that of every process it started (workers, users' tokenizers)."""
    return _rss_mb(pid) + sum(_rss_mb(p) for p in _descendants(pid))


def test_the_memory_of_sessions_that_uploaded_a_big_tokenizer_comes_back_after_they_leave(server):
    port, pid = server
    data = big_tokenizer_json(FILE_BYTES)
    run_in_own_loop(warm_up(port))
    time.sleep(3)
    warm, warm_total = _rss_mb(pid), _total_mb(pid)
    open_mb: dict[str, float] = {}

    async def sessions() -> list[str]:
        stay, added = asyncio.Event(), []
        uploads = [
            asyncio.create_task(upload_tokenizer(port, data, f"big-{i}.json", added=added, stay=stay))
            for i in range(SESSIONS)
        ]
        while len(added) < SESSIONS and not any(u.done() for u in uploads):
            await asyncio.sleep(0.1)
        # every session has added its tokenizer and is still open
        open_mb["server"], open_mb["total"] = _rss_mb(pid), _total_mb(pid)
        stay.set()
        return await asyncio.gather(*uploads)

    said = run_in_own_loop(sessions())
    assert all("Added" in s for s in said)
    with_sessions, with_sessions_total = open_mb["server"], open_mb["total"]
    # the tokenizers were really held (else this proves nothing), each in a process of its own:
    # the server grew by less than one of those processes holds (its file's bytes, on their way
    # to the browser too, are the session's: 65-110 MB for both here, by the machine's load; a
    # tokenizer built in the server would add about 250 MB for each session)
    assert with_sessions_total > warm_total + 2 * BOUND_MB
    each_process = (with_sessions_total - with_sessions - (warm_total - warm)) / SESSIONS
    assert with_sessions - warm < each_process, (
        f"server RSS {with_sessions:.0f} MB with the sessions open (warm-up {warm:.0f} MB): it grew "
        f"as much as a process holding one of their tokenizers ({each_process:.0f} MB)"
    )
    after = wait_for_rss(pid, warm + BOUND_MB, time.monotonic() + DEADLINE_S)
    assert after <= warm + BOUND_MB, (
        f"server RSS {after:.0f} MB after the sessions left (warm-up {warm:.0f} MB, with the "
        f"sessions {with_sessions:.0f} MB)"
    )
    deadline = time.monotonic() + DEADLINE_S
    while (after_total := _total_mb(pid)) > warm_total + BOUND_MB and time.monotonic() < deadline:
        time.sleep(1.0)
    assert after_total <= warm_total + BOUND_MB, (
        f"server and its processes {after_total:.0f} MB after the sessions left (warm-up "
        f"{warm_total:.0f} MB, with the sessions {with_sessions_total:.0f} MB)"
    )
