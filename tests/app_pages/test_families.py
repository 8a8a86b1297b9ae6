"""gpt-oss (o200k_harmony) and DeepSeek V4 on every page, headless (AppTest), with real numbers."""

from __future__ import annotations

import pytest

from tests.conftest import builtin, ok, open_app, shown_counts, token_views
from tests.helpers.chat import count_chat
from tests.picker_helpers import choose, picker_data
from tokenizer_core import chunk_text, language_table
from tokenizer_core.chunking import load_chunk_sample
from tokenizer_core.languages import load_parallel_sample, summarize

NEW = ["o200k_harmony", "deepseek_v4"]
LABELS = {"o200k_harmony": "o200k_harmony (gpt-oss)", "deepseek_v4": "DeepSeek V4"}


def test_counter_counts_and_chat_formats(app):
    from ui.workspace.chat_editor import set_messages  # noqa: F401  (the page's own way; the test sets the same state)

    text = "Where is my order #90210? It was due on Monday. 注文はどこ？"
    app.session_state["workspace_text"] = text  # what the live box sends (AppTest runs no JavaScript)
    ok(app.run())
    ok(choose(app, "workspace_tokenizers", NEW))
    shown = shown_counts(app)
    for tid in NEW:
        assert shown[LABELS[tid]] == f"{builtin(tid).count(text):,}"
    # the picker says in place that Claude has no public tokenizer, and how Gemini is counted
    notes = " ".join(n["text"] for n in picker_data(app, "workspace_tokenizers")["notes"])
    assert "Claude: no public tokenizer" in notes and "Gemini: text only" in notes
    app.session_state["workspace_mode"] = "chat"
    ok(app.run())
    for mid in app.session_state["workspace_chat_msgs"]:
        del app.session_state[f"workspace_chat_text_{mid}"]
    app.session_state["workspace_chat_msgs"] = ["s", "u"]
    app.session_state["workspace_chat_role_s"], app.session_state["workspace_chat_text_s"] = (
        "system",
        "You are a support agent.",
    )
    app.session_state["workspace_chat_role_u"], app.session_state["workspace_chat_text_u"] = "user", text
    ok(app.run())
    table = next(df.value for df in app.dataframe if "Request tokens" in df.value.columns)
    assert list(table["Chat format"]) == [
        "Harmony (gpt-oss)",
        "DeepSeek V4 (thinking off)",
        "DeepSeek V4 (thinking)",
    ]
    for row, (tid, fid) in zip(
        table.to_dict("records"),
        [
            ("o200k_harmony", "harmony"),
            ("deepseek_v4", "deepseek_v4"),
            ("deepseek_v4", "deepseek_v4_thinking"),
        ],
    ):
        assert (
            row["Request tokens"]
            == count_chat(builtin(tid), text, "You are a support agent.", format_id=fid).total
        )
    # the harmony request drawn by the light token view (text as data; the browser sets it as text)
    views = token_views(app)
    assert any("<|start|>" in v["text"] and "<|message|>" in v["text"] for v in views)


def test_languages_page_shows_their_premium():
    app = open_app("app_pages/languages.py")
    ok(app.multiselect(key="languages_tokenizers").set_value(NEW).run())
    rows = language_table(load_parallel_sample(), [builtin(t) for t in NEW], base="en")
    expected = {s.tokenizer: f"{s.median_premium:.2f}×" for s in summarize(rows)}
    shown = shown_counts(app)
    for tid in NEW:
        assert shown[LABELS[tid]] == expected[LABELS[tid]]


def test_identifiers_page_counts_with_them():
    from tokenizer_core.identifiers import load_code_sample

    app = open_app("app_pages/identifiers.py")
    ok(app.multiselect(key="identifiers_tokenizers").set_value(NEW).run())
    text, _ = load_code_sample("Python: inventory service")
    table = next(df.value for df in app.dataframe if "identifier" in df.value.columns)
    row = table[table["identifier"] == "calculate_total"].iloc[0]
    for tid in NEW:
        assert shown_counts(app)[f"{LABELS[tid]} tokens"] == f"{builtin(tid).count(text):,}"
        assert row[f"{tid} tokens"] == builtin(tid).count("calculate_total")


@pytest.mark.parametrize("tid", NEW)
def test_chunks_page_chunks_in_their_tokens(tid):
    app = open_app("app_pages/chunks.py")
    text = load_chunk_sample("prose")
    ok(app.text_area(key="chunks_text").input(text).run())
    ok(app.selectbox(key="chunks_tokenizer").set_value(tid).run())
    result = chunk_text(text, builtin(tid), strategy="markdown", size=128)
    assert shown_counts(app)["Chunks"] == f"{len(result.chunks):,}"
    assert shown_counts(app)["Max tokens"] == f"{max(c.tokens for c in result.chunks):,}"
