"""The chunk previewer page, headless (AppTest): real chunk counts, settings, bad input, limits."""

from __future__ import annotations

import pytest

from tests.conftest import builtin, ok
from tokenizer_core import chunk_text
from tokenizer_core.chunking import EMBEDDING_MODELS, chunks_to_csv, load_chunk_sample, long_document


def metrics(at) -> dict[str, str]:
    return {m.label.replace("\\", ""): m.value for m in at.metric}


PAGE = "app_pages/chunks.py"


def set_text(at, text: str):
    return ok(at.text_area(key="chunks_text").input(text).run())


def expected_count(text: str, *, strategy="markdown", size=128, overlap=0, tid="cl100k_base") -> int:
    return len(chunk_text(text, builtin(tid), strategy=strategy, size=size, overlap=overlap).chunks)


def test_default_sample_is_chunked_with_real_counts(page):
    text = load_chunk_sample("markdown")
    assert page.text_area(key="chunks_text").value == text
    assert page.selectbox(key="chunks_strategy").value == "markdown"
    shown = metrics(page)
    assert shown["Chunks"] == f"{expected_count(text):,}"
    result = chunk_text(text, builtin("cl100k_base"), strategy="markdown", size=128)
    assert shown["Max tokens"] == f"{max(c.tokens for c in result.chunks):,}"
    assert not page.error
    # the coloured view, the table and both downloads are there
    assert any("tw-chunks" in h.proto.body for h in page.get("html"))
    assert len(page.dataframe) >= 1
    assert len(page.get("download_button")) == 2


def test_changing_size_strategy_and_tokenizer_changes_the_chunks(page):
    text = load_chunk_sample("prose")
    set_text(page, text)
    ok(page.number_input(key="chunks_size").set_value(64).run())
    assert metrics(page)["Chunks"] == f"{expected_count(text, size=64):,}"
    ok(page.selectbox(key="chunks_strategy").set_value("tokens").run())
    assert metrics(page)["Chunks"] == f"{expected_count(text, strategy='tokens', size=64):,}"
    ok(page.selectbox(key="chunks_tokenizer").set_value("o200k_base").run())
    assert (
        metrics(page)["Chunks"] == f"{expected_count(text, strategy='tokens', size=64, tid='o200k_base'):,}"
    )


def test_overlap_in_tokens_and_percent(page):
    text = load_chunk_sample("prose")
    set_text(page, text)
    ok(page.selectbox(key="chunks_strategy").set_value("tokens").run())
    ok(page.number_input(key="chunks_overlap").set_value(16).run())
    assert metrics(page)["Chunks"] == f"{expected_count(text, strategy='tokens', overlap=16):,}"
    assert "Mean overlap" in metrics(page)
    ok(page.segmented_control(key="chunks_overlap_unit").set_value("%").run())
    ok(page.number_input(key="chunks_overlap_pct").set_value(25.0).run())
    assert metrics(page)["Chunks"] == f"{expected_count(text, strategy='tokens', overlap=32):,}"


@pytest.mark.parametrize(
    ("size", "overlap", "message"),
    [
        (0, 0, "at least 1 token"),
        (-64, 0, "at least 1 token"),
        (64, 64, "must be smaller than the chunk size"),
        (64, -3, "cannot be negative"),
        (10**12, 0, "maximum"),
    ],  # fmt: skip
)
def test_bad_settings_show_a_message_and_keep_the_text(page, size, overlap, message):
    text = page.text_area(key="chunks_text").value
    page.number_input(key="chunks_size").set_value(size)
    ok(page.number_input(key="chunks_overlap").set_value(overlap).run())
    assert any(message in e.value for e in page.error)
    assert page.text_area(key="chunks_text").value == text
    assert not page.metric


def test_percent_overlap_of_100_is_refused(page):
    ok(page.segmented_control(key="chunks_overlap_unit").set_value("%").run())
    ok(page.number_input(key="chunks_overlap_pct").set_value(100.0).run())
    assert any("less than 100%" in e.value for e in page.error)


def test_empty_and_whitespace_text(page):
    set_text(page, "")
    assert any("Paste a document" in i.value for i in page.info)
    set_text(page, "  \n\t\n ")
    assert any("only whitespace" in i.value for i in page.info)
    assert not page.metric


def test_a_size_above_the_document_gives_one_chunk_with_a_note(page):
    set_text(page, "A short note about the mill.")
    ok(page.number_input(key="chunks_size").set_value(100_000).run())
    assert metrics(page)["Chunks"] == "1"
    assert any("fits in one chunk" in i.value for i in page.info)


def test_embedding_model_preset_sets_the_size_and_warns_above_its_limit(page):
    bge = next(m for m in EMBEDDING_MODELS if m.limit == 512)
    ok(page.selectbox(key="chunks_model").set_value(bge.name).run())
    assert page.number_input(key="chunks_size").value == 512
    text = load_chunk_sample("prose") * 3
    set_text(page, text)
    ok(page.number_input(key="chunks_size").set_value(2000).run())
    warnings = [w.value for w in page.warning]
    assert any("the limit of" in w and "512" in w for w in warnings), warnings
    openai = next(m for m in EMBEDDING_MODELS if m.tokenizer_id == "cl100k_base")
    ok(page.selectbox(key="chunks_tokenizer").set_value("o200k_base").run())
    ok(page.selectbox(key="chunks_model").set_value(openai.name).run())
    assert any("counts with **cl100k_base**" in i.value for i in page.info)


def test_python_sample_with_the_code_strategy(page):
    text = load_chunk_sample("python")
    set_text(page, text)
    assert any("Code" in c.value and "suits" in c.value for c in page.caption)  # the tip for this sample
    ok(page.selectbox(key="chunks_strategy").set_value("code").run())
    assert metrics(page)["Chunks"] == f"{expected_count(text, strategy='code'):,}"


def test_a_one_megabyte_document_shows_a_window_of_chunks(page):
    text = long_document()
    set_text(page, text)
    ok(page.selectbox(key="chunks_strategy").set_value("recursive").run())
    ok(page.number_input(key="chunks_size").set_value(512).run())
    n = expected_count(text, strategy="recursive", size=512)
    assert metrics(page)["Chunks"] == f"{n:,}"
    assert any(c.value.startswith("Showing chunks 0–") for c in page.caption)
    ok(page.number_input(key="chunks_first").set_value(100).run())
    assert any(c.value.startswith("Showing chunks 100–") for c in page.caption)


def test_absurdly_many_chunks_are_refused_with_a_minimum_size(page):
    set_text(page, long_document())
    ok(page.selectbox(key="chunks_strategy").set_value("tokens").run())
    ok(page.number_input(key="chunks_size").set_value(1).run())
    assert any("Use a chunk size of at least" in e.value for e in page.error)


def test_check_button_confirms_every_chunk(page):
    ok(page.button(key="chunks_check").click().run())
    assert any("check out" in s.value for s in page.success)
    ok(page.toggle(key="chunks_ws").set_value(True).run())  # an unrelated rerun keeps the answer
    assert any("check out" in s.value for s in page.success)
    ok(page.number_input(key="chunks_size").set_value(200).run())  # new chunks: checked on request
    assert not any("check out" in s.value for s in page.success)


def test_html_in_the_document_stays_text(page):
    set_text(page, "<script>alert(1)</script> <img src=x onerror=alert(2)>")
    bodies = " ".join(h.proto.body for h in page.get("html"))
    assert "<script>" not in bodies and "<img" not in bodies
    assert "&lt;script&gt;" in bodies


def test_two_downloads_are_offered_and_built_on_click(monkeypatch):
    """The files are made when clicked (each is about the document's size), not on every rerun."""
    import json

    import streamlit as st
    import streamlit.testing.v1.app_test as app_test
    from streamlit.runtime.media_file_manager import MediaFileManager
    from streamlit.testing.v1 import AppTest

    from tests.conftest import ENTRY

    managers = []

    class Recorded(MediaFileManager):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            managers.append(self)

    monkeypatch.setattr(app_test, "MediaFileManager", Recorded)
    st.cache_data.clear()
    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.run()
    at.switch_page("app_pages/chunks.py").run()
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    assert sorted(buttons) == ["Download CSV", "Download JSONL"]
    assert all(b.deferred_file_id and not b.url for b in buttons.values())  # nothing built yet
    mgr = managers[-1]
    files = {}
    for label, proto in buttons.items():  # what a click runs
        url = mgr.execute_deferred(proto.deferred_file_id)
        files[label] = mgr._storage.get_file(url.rsplit("/", 1)[-1].split(".")[0]).content
    result = chunk_text(load_chunk_sample("markdown"), builtin("cl100k_base"), strategy="markdown", size=128)
    lines = files["Download JSONL"].decode("utf-8").splitlines()
    assert [json.loads(x)["text"] for x in lines] == [c.text for c in result.chunks]
    assert files["Download CSV"].decode("utf-8") == chunks_to_csv(result.chunks)  # the page's wiring


def test_view_position_survives_fewer_chunks(page):
    set_text(page, long_document())
    ok(page.number_input(key="chunks_size").set_value(128).run())
    ok(page.number_input(key="chunks_first").set_value(2000).run())
    assert any(c.value.startswith("Showing chunks 2,000–") for c in page.caption)
    ok(page.number_input(key="chunks_size").set_value(4096).run())  # now far fewer chunks
    n = expected_count(long_document(), size=4096)
    assert metrics(page)["Chunks"] == f"{n:,}"
    assert any(c.value.startswith(f"Showing chunks {n - 1:,}–") for c in page.caption)


def test_a_document_with_thousands_of_chunks_sends_a_slice_of_the_table(page):
    from ui.chunks.table import MAX_TABLE_ROWS as rows

    text = long_document()
    set_text(page, text)
    ok(page.number_input(key="chunks_size").set_value(64).run())
    n = expected_count(text, size=64)
    assert n > 2 * rows and metrics(page)["Chunks"] == f"{n:,}"
    table = next(df.value for df in page.dataframe if "first words" in df.value.columns)
    assert len(table) == rows and table["chunk"].iloc[0] == 0
    assert any(f"Rows 0–{rows - 1:,} of {n:,}" in c.value for c in page.caption)
    ok(page.number_input(key="chunks_first").set_value(n - 10).run())  # the view moves; the rows follow
    table = next(df.value for df in page.dataframe if "first words" in df.value.columns)
    assert table["chunk"].iloc[0] == n - rows and table["chunk"].iloc[-1] == n - 1
