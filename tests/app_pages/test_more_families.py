"""Llama 4, Gemma 2/3 (and Gemini by Google's rule) and the classic Mistral models on every page
that picks tokenizers, headless (AppTest), with the numbers the core computes."""

from __future__ import annotations

import pytest

from tests.conftest import builtin, ok, open_app, shown_counts
from tests.picker_helpers import choose
from tokenizer_core import chunk_text, language_table
from tokenizer_core.chunking import load_chunk_sample
from tokenizer_core.languages import load_parallel_sample, summarize
from tokenizer_core.workspace.chat import CHAT_FORMATS, Message, count_request

NEW = ["llama4", "gemma3", "gemma2", "mistral_sp_v7", "mistral_sp_v3", "mistral_sp_v1"]
MODELS = [
    "gemini-2.5-pro",
    "gemma-3-27b",
    "llama-4-maverick",
    "mixtral-8x7b",
    "mistral-7b-v0.3",
    "mistral-large-2411",
]


def test_counter_counts_models_by_name_and_their_requests(app):
    text = "Where is my order #90210? <b>Due</b> Monday. 注文はどこ？"
    app.session_state["workspace_text"] = text
    ok(app.run())
    ok(choose(app, "workspace_tokenizers", MODELS))
    shown = shown_counts(app)
    for tid in ("gemma3", "llama4", "mistral_sp_v1", "mistral_sp_v3", "mistral_sp_v7"):
        assert shown[builtin(tid).info.name] == f"{builtin(tid).count(text):,}"
    captions = " ".join(c.value.replace("\\", "") for c in app.caption)
    assert "Gemini 2.5 Pro: text only, counted as Google's SDK counts locally" in captions
    app.session_state["workspace_mode"] = "chat"
    ok(app.run())
    for mid in app.session_state["workspace_chat_msgs"]:
        del app.session_state[f"workspace_chat_text_{mid}"]
    app.session_state["workspace_chat_msgs"] = ["s", "u"]
    app.session_state["workspace_chat_role_s"], app.session_state["workspace_chat_text_s"] = (
        "system",
        "Be brief.",
    )
    app.session_state["workspace_chat_role_u"], app.session_state["workspace_chat_text_u"] = "user", text
    ok(app.run())
    table = next(df.value for df in app.dataframe if "Request tokens" in df.value.columns)
    chat = [Message("system", "Be brief."), Message("user", text)]
    expected = {
        "Gemini (text only)": ("gemma3", "gemini"), "Gemma 3": ("gemma3", "gemma3"), "Llama 4": ("llama4", "llama4"),
        "Mistral instruct v1": ("mistral_sp_v1", "mistral_sp_v1"),
        "Mistral instruct v3 (SentencePiece)": ("mistral_sp_v3", "mistral_sp_v3"),
        "Mistral instruct v7": ("mistral_sp_v7", "mistral_sp_v7"),
    }  # fmt: skip
    rows = {r["Chat format"]: r for r in table.to_dict("records")}
    assert set(rows) == set(expected)
    for name, (tid, fid) in expected.items():
        assert rows[name]["Request tokens"] == count_request(chat, builtin(tid), CHAT_FORMATS[fid]).total
    assert rows["Gemini (text only)"]["Format adds"] == 0
    assert rows["Gemini (text only)"]["Counted by"].startswith(
        "text only, counted as Google's SDK counts locally"
    )


def test_the_about_table_explains_claude():
    from tokenizer_core.tokenizers import NO_PUBLIC_TOKENIZER

    assert "Opus 4.7" in NO_PUBLIC_TOKENIZER["Claude (Anthropic)"]
    assert "1.35x" in NO_PUBLIC_TOKENIZER["Claude (Anthropic)"]
    assert not any("Gemini" in k for k in NO_PUBLIC_TOKENIZER)


def test_languages_page_shows_their_premium():
    app = open_app("app_pages/languages.py")
    ok(app.multiselect(key="languages_tokenizers").set_value(NEW).run())
    rows = language_table(load_parallel_sample(), [builtin(t) for t in NEW], base="en")
    expected = {s.tokenizer: f"{s.median_premium:.2f}×" for s in summarize(rows)}
    shown = shown_counts(app)
    for tid in NEW:
        name = builtin(tid).info.name
        assert shown[name] == expected[name]


def test_identifiers_page_counts_with_them():
    from tokenizer_core.identifiers import load_code_sample

    app = open_app("app_pages/identifiers.py")
    ok(app.multiselect(key="identifiers_tokenizers").set_value(NEW).run())
    text, _ = load_code_sample("Python: inventory service")
    table = next(df.value for df in app.dataframe if "identifier" in df.value.columns)
    row = table[table["identifier"] == "calculate_total"].iloc[0]
    for tid in NEW:
        assert shown_counts(app)[f"{builtin(tid).info.name} tokens"] == f"{builtin(tid).count(text):,}"
        assert row[f"{tid} tokens"] == builtin(tid).count("calculate_total")


@pytest.mark.parametrize("tid", ["gemma3", "llama4", "mistral_sp_v1"])
def test_chunks_page_chunks_in_their_tokens(tid):
    app = open_app("app_pages/chunks.py")
    text = load_chunk_sample("prose")
    ok(app.text_area(key="chunks_text").input(text).run())
    ok(app.selectbox(key="chunks_tokenizer").set_value(tid).run())
    result = chunk_text(text, builtin(tid), strategy="markdown", size=128)
    assert shown_counts(app)["Chunks"] == f"{len(result.chunks):,}"
    assert shown_counts(app)["Max tokens"] == f"{max(c.tokens for c in result.chunks):,}"
