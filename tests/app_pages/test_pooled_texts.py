"""Counting and chunking of large texts in the worker pool (as for texts above the in-process
limits): the same numbers as in-process, results shared between sessions, Cancel honoured."""

from __future__ import annotations

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY, builtin, shown_counts
from tests.picker_helpers import choose
from tokenizer_core import chunk_text, count_table
from tokenizer_core.chunking import load_chunk_sample
from tokenizer_core.jobs import JobCancelled, reporting_to
from tokenizer_core.tasks import chunk_task, count_table_task


def _app(monkeypatch, limit: str) -> AppTest:
    monkeypatch.setenv("TW_COUNT_IN_PROCESS_MAX_CHARS", limit)
    monkeypatch.setenv("TW_CHUNK_IN_PROCESS_MAX_CHARS", limit)
    monkeypatch.setenv("TW_WORKERS", "1")
    st.cache_data.clear()
    from ui.jobs import shared_results

    shared_results().clear()
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.run()
    assert not at.exception, at.exception
    return at


def _metrics(at) -> list[tuple[str, str]]:
    return list(shown_counts(at).items())


TEXT = "Tokens cost money. 東京 ☕ <|endoftext|> déjà vu\n\n" * 40


def test_counter_counts_in_a_worker_exactly_as_in_process(monkeypatch):
    shown = []
    for limit in ("0", "100000000"):  # every text to the pool, then none
        at = _app(monkeypatch, limit)
        at.session_state["workspace_text"] = TEXT
        at.run()
        assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
        shown.append(_metrics(at))
    assert shown[0] == shown[1]
    expected = count_table(
        TEXT, [builtin(t) for t in ("o200k_base", "cl100k_base", "llama3")], context_window=1
    )
    assert [v for _, v in shown[0][:3]] == [f"{r.tokens:,}" for r in expected]


def test_the_chunk_page_in_a_worker_gives_the_same_chunks(monkeypatch):
    tables = []
    for limit in ("0", "100000000"):
        at = _app(monkeypatch, limit)
        at.switch_page("app_pages/chunks.py").run()
        assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
        tables.append((_metrics(at), [df.value for df in at.dataframe]))
    (m1, d1), (m2, d2) = tables
    assert m1 == m2
    assert len(d1) == len(d2) and all(a.equals(b) for a, b in zip(d1, d2))
    expected = chunk_text(
        load_chunk_sample("markdown"), builtin("cl100k_base"), strategy="markdown", size=128
    )
    assert dict(m1)["Chunks"] == f"{len(expected.chunks):,}"


def test_the_check_of_a_large_document_runs_in_a_worker(monkeypatch):
    at = _app(monkeypatch, "0")
    at.switch_page("app_pages/chunks.py").run()
    at.button(key="chunks_check").click().run()
    assert not at.exception and not at.error
    assert any("check out" in s.value for s in at.success)
    at.toggle(key="chunks_ws").set_value(True).run()
    assert any("check out" in s.value for s in at.success)


def test_a_second_session_reads_the_result_the_first_one_computed(monkeypatch):
    from ui.jobs import shared_results

    first = _app(monkeypatch, "0")
    first.switch_page("app_pages/chunks.py").run()
    stored = shared_results().weight()
    assert stored > 0  # the document's count and its chunks
    calls = []
    import ui.jobs

    monkeypatch.setattr(ui.jobs, "start_job", lambda *a, **k: calls.append(a))
    second = AppTest.from_file(ENTRY, default_timeout=120)
    second.run()
    second.switch_page("app_pages/chunks.py").run()
    assert not second.exception and not calls
    assert _metrics(second) == _metrics(first)


def test_count_task_equals_count_table():
    ids = ("o200k_base", "deepseek_v4", "tekken")
    for allow in (False, True):
        rows = count_table_task(TEXT, ids, context_window=8192, allow_special=allow)
        assert rows == count_table(TEXT, [builtin(t) for t in ids], context_window=8192, allow_special=allow)


def test_chunk_task_reports_its_stages_in_order_and_stops_when_cancelled():
    text = load_chunk_sample("markdown") * 20
    seen = []
    with reporting_to(lambda p: seen.append(p.fraction)):
        result = chunk_task(text, "cl100k_base", "markdown", 64, 8)
    expected = chunk_text(text, builtin("cl100k_base"), strategy="markdown", size=64, overlap=8)
    assert (result.chunks, result.steps) == (expected.chunks, expected.steps)
    assert seen == sorted(seen) and seen[0] == 0.0 and seen[-1] == 1.0 and len(seen) > 4
    calls = []

    def cancel_while_packing() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(JobCancelled), reporting_to(lambda p: None, is_cancelled=cancel_while_packing):
        chunk_task(text, "cl100k_base", "markdown", 64, 8)


def test_a_users_own_tokenizer_counts_a_large_text_in_a_worker(monkeypatch):
    """A user's tokenizer on a text over the in-process limit is counted in a worker (not in the
    server's shared process), with the same count as in-process."""
    from tests.ui.test_session_tokenizers import OWN
    from ui.jobs import shared_results

    own = OWN["tiktoken"]()
    at = _app(monkeypatch, "0")
    at.session_state["session_tokenizers"] = {own.id: own}
    at.session_state["workspace_text"] = TEXT
    at.run()
    shared_results().clear()  # what the built-ins' count put there
    choose(at, "workspace_tokenizers", ["o200k_base", own.id])
    assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
    shown = {k.replace("\\", ""): v for k, v in _metrics(at)}
    assert (
        shown["my gpt2"] == f"{own.count(TEXT):,}"
        and shown["o200k_base"] == f"{builtin('o200k_base').count(TEXT):,}"
    )
    assert shared_results().weight() > 0  # the count came from the pool


def test_an_uploaded_tokenizer_in_its_own_process_counts_a_large_text_in_a_worker(monkeypatch):
    """The same for an upload as the sidebar adds it (it lives in a process of its own): the
    worker builds it from the uploaded file and counts as the tokenizer built here does."""
    from tests.test_hosted import _data, local
    from tokenizer_core.hosted import HostedTokenizer
    from ui.jobs import shared_results

    _, data, pattern = _data("tiktoken")
    own = HostedTokenizer("tiktoken", data, name="my hosted", pattern_id=pattern)
    try:
        at = _app(monkeypatch, "0")
        at.session_state["session_tokenizers"] = {own.id: own}
        at.session_state["workspace_text"] = TEXT
        at.run()
        shared_results().clear()
        choose(at, "workspace_tokenizers", ["o200k_base", own.id])
        assert not at.exception and not at.error, (at.exception, [e.value for e in at.error])
        shown = {k.replace("\\", ""): v for k, v in _metrics(at)}
        assert shown["my hosted"] == f"{local('tiktoken').count(TEXT):,}"
        assert shared_results().weight() > 0  # the count came from the pool
    finally:
        own.close()
