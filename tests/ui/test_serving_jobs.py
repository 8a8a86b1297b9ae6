"""Heavy jobs on a real server, driven over Streamlit's websocket protocol (no browser needed).

Cancel from the page, a session that leaves, and a worker process killed mid-training: the
user reads what happened and can train again; another session keeps working meanwhile.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.bench_serving import Session, _children, alerts, exceptions, free_port, metric_values, start_server
from bench.corpus import english_prose

BIG = 400_000  # characters: far over the in-process limit, and several seconds of training


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = start_server(port, {"TW_WORKERS": "1", "TW_SESSION_GRACE_SECONDS": "1"})
    yield port, proc.pid
    proc.terminate()
    proc.wait(timeout=30)


@pytest.fixture(scope="module")
def corpus() -> str:
    return english_prose(BIG + 10_000)[:BIG]


def run_in_own_loop(coro):
    """asyncio.run in a thread of its own, so a loop left running in the main thread (Playwright's
    sync API, when the browser tests ran first in the same pytest process) cannot interfere."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _cmdline(pid: int) -> str:
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        return f.read().replace(b"\0", b" ").decode()


def _workers(server_pid: int) -> list[int]:
    """The pool's worker processes: children of the server's forkserver."""
    out = []
    for child in _children(server_pid):
        if "forkserver" in _cmdline(child):
            out.extend(_children(child))
    return out


def _is_cancel(kind, proto) -> bool:
    return kind == "button" and proto.id.endswith("-bpe_job_cancel")


async def _start_big_training(corpus: str, port: int) -> tuple[Session, float]:
    s = Session(port, "bpe")
    await s.open()
    await s.set(bpe_corpus_text=corpus)
    t0 = await s.start(bpe_merges=10_000, click="bpe_train")
    await s.until(t0, element=_is_cancel)  # the progress bar and its Cancel button are up
    # and this job is merging in the worker: not queued behind an earlier test's job, and far
    # from done (the merges are most of the training), so what the test does next meets it
    await s.until(t0, element=_is_merging, timeout=120)
    return s, t0


def _is_merging(kind, proto) -> bool:
    return kind == "progress" and proto.text.startswith("Merge ")


def test_cancel_button_stops_training_and_keeps_the_old_model(server, corpus):
    port, _ = server

    async def go():
        s, t0 = await _start_big_training(corpus, port)
        r = await s.set(click="bpe_job_cancel", timeout=60)
        await s.close()
        return r

    r = run_in_own_loop(go())
    assert not exceptions(r)
    assert any("Training cancelled" in a for a in alerts(r)), alerts(r)
    assert metric_values(r).get("Merges learned") == "12"  # the first visit's model is still shown


def test_a_session_that_leaves_cancels_its_job(server, corpus):
    port, _ = server

    async def go():
        s, _ = await _start_big_training(corpus, port)
        await s.close()  # the tab is closed mid-training
        await asyncio.sleep(5)  # grace 1 s + the watcher's 2 s tick
        # with one worker, a new training only starts once the abandoned one has stopped
        t = Session(port, "bpe")
        await t.open()
        await t.set(bpe_corpus_text=corpus[:20_000])
        t1 = time.perf_counter()
        r = await t.set(bpe_merges=50, click="bpe_train", timeout=120)
        await t.close()
        return r, time.perf_counter() - t1

    r, took = run_in_own_loop(go())
    assert metric_values(r).get("Merges learned") == "50" and not exceptions(r)
    assert took < 15, f"the new training waited {took:.1f} s: the abandoned job kept the worker"


def test_a_killed_worker_is_reported_and_training_again_works_meanwhile_others_count(server, corpus):
    port, server_pid = server

    async def go():
        s, t0 = await _start_big_training(corpus, port)  # merging in the worker
        for pid in _workers(server_pid):
            os.kill(pid, signal.SIGKILL)
        other = Session(port)
        await other.open()
        counted = await other.set(workspace_text="Another person counts meanwhile.")
        failed = await s.until(t0, timeout=120)
        again = await s.set(bpe_merges=30, bpe_corpus_text=corpus[:20_000], click="bpe_train", timeout=120)
        await s.close()
        await other.close()
        return counted, failed, again

    counted, failed, again = run_in_own_loop(go())
    from tokenizer_core import load_builtin

    want = len(load_builtin("o200k_base").encoding.encode_ordinary("Another person counts meanwhile."))
    assert metric_values(counted).get("o200k_base") == str(want) and not exceptions(counted)
    assert any("stopped unexpectedly" in a and "run it again" in a for a in alerts(failed)), alerts(failed)
    assert not exceptions(failed)
    assert metric_values(again).get("Merges learned") == "30" and not exceptions(again)


def test_cancel_stops_chunking_a_large_document_and_chunking_again_works(server):
    """A document far over the chunk page's in-process limit is chunked in the worker: its Cancel
    button stops it, the page says so and keeps the text, and "Chunking again" chunks it."""
    port, _ = server
    doc = english_prose(2_000_000)[:1_500_000]

    def chunk_cancel(kind, proto) -> bool:
        return kind == "button" and proto.id.endswith("-chunks_job_cancel")

    async def go():
        s = Session(port, "chunks")
        await s.open()
        await s.set(chunks_tokenizer="deepseek_v4", chunks_size=256)  # the slowest engine
        t0 = await s.start(chunks_text=doc)
        await s.until(t0, element=chunk_cancel)  # counted; the chunking is running
        await asyncio.sleep(0.5)
        cancelled = await s.set(click="chunks_job_cancel", timeout=60)
        other = Session(port)
        await other.open()
        counted = await other.set(workspace_text="Another person counts meanwhile.")
        again = await s.set(click="chunks_job_again", timeout=300)
        await s.close()
        await other.close()
        return cancelled, counted, again

    cancelled, counted, again = run_in_own_loop(go())
    assert not exceptions(cancelled)
    assert any("Chunking cancelled" in a for a in alerts(cancelled)), alerts(cancelled)
    assert "Chunks" not in metric_values(cancelled)
    assert not exceptions(counted) and metric_values(counted)
    assert not exceptions(again) and not any("cancelled" in a for a in alerts(again)), alerts(again)
    from tokenizer_core import chunk_text, load_builtin

    expected = chunk_text(doc, load_builtin("deepseek_v4"), strategy="markdown", size=256)
    assert metric_values(again)["Chunks"] == f"{len(expected.chunks):,}"


def test_sessions_chunking_different_large_documents_at_once_each_see_their_own(server):
    """Three sessions send different documents over the in-process limit at the same moment (one
    worker takes them in turn) while another counts: every page shows the chunks of its own text."""
    port, _ = server
    base = english_prose(2_000_000)
    docs = [base[k * 300_000 : k * 300_000 + 250_000 + 50_000 * k] for k in range(3)]

    async def one(doc: str):
        s = Session(port, "chunks")
        await s.open()
        r = await s.set(chunks_text=doc, timeout=300)
        await s.close()
        return r

    async def counter():
        s = Session(port)
        await s.open()
        r = await s.set(workspace_text="Counted while three documents are chunked.")
        await s.close()
        return r

    async def go():
        return await asyncio.gather(*(one(d) for d in docs), counter())

    *chunked, counted = run_in_own_loop(go())
    from tokenizer_core import chunk_text, load_builtin

    tok = load_builtin("cl100k_base")
    expected = [f"{len(chunk_text(d, tok, strategy='markdown', size=128).chunks):,}" for d in docs]
    assert len(set(expected)) == 3  # a page showing another session's chunks would be caught
    for want, r in zip(expected, chunked):
        assert not exceptions(r), exceptions(r)
        assert metric_values(r)["Chunks"] == want
    assert not exceptions(counted) and metric_values(counted)
