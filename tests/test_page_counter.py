"""The token counter page, headless (AppTest): real counts, settings, bad input, share links."""

from __future__ import annotations

import pytest

from tests.conftest import ENTRY, builtin
from tokenizer_core import load_sample, pack_text


def metrics(at) -> dict[str, str]:
    """Metric label (markdown-escaped on the page, unescaped here) -> shown value."""
    return {m.label.replace("\\", ""): m.value for m in at.metric}


def set_text(at, text: str):
    # The live text box is a browser component AppTest cannot type into: set what it sends.
    at.session_state["counter_text"] = text
    at.run()
    assert not at.exception, at.exception
    return at


def test_home_page_counts_the_default_sample(app):
    text = load_sample("mixed")
    assert app.session_state["counter_text"] == text
    shown = metrics(app)
    for tid, label in (("o200k_base", "o200k_base"), ("cl100k_base", "cl100k_base"), ("llama3", "Llama 3")):
        assert shown[label] == f"{builtin(tid).count(text):,}"
    assert not app.error


def test_typing_updates_every_count(app):
    text = "Tokenizers disagree about ünïcödé and 12345678."
    set_text(app, text)
    assert metrics(app)["o200k_base"] == f"{builtin('o200k_base').count(text):,}"
    assert metrics(app)["cl100k_base"] == f"{builtin('cl100k_base').count(text):,}"


def test_choosing_tokenizers(app):
    app.multiselect(key="counter_tokenizers").set_value(["r50k_base", "qwen", "tekken"]).run()
    assert not app.exception
    assert set(metrics(app)) == {"r50k_base (gpt2)", "Qwen 2.5 / 3", "Mistral Tekken"}
    app.multiselect(key="counter_tokenizers").set_value([]).run()
    assert not app.metric and any("at least one tokenizer" in i.value for i in app.info)


def test_empty_and_whitespace_text(app):
    set_text(app, "")
    assert any("Paste some text" in i.value for i in app.info)
    blank = "   \n\t "
    set_text(app, blank)
    assert metrics(app)["o200k_base"] == str(builtin("o200k_base").count(blank))


def test_special_token_text_counts_as_text_unless_switched(app):
    text = "end<|endoftext|>start"
    set_text(app, text)
    assert metrics(app)["o200k_base"] == str(len(builtin("o200k_base").encode(text)))
    app.toggle(key="counter_special").set_value(True).run()
    assert not app.exception
    assert metrics(app)["o200k_base"] == str(len(builtin("o200k_base").encode(text, allow_special=True)))
    assert metrics(app)["Llama 3"] == str(len(builtin("llama3").encode(text)))  # not a Llama special


def test_html_and_emoji_text_renders_escaped(app):
    set_text(app, "<script>alert(1)</script> 👨‍👩‍👧 你好")
    html_blocks = [h.proto.body for h in app.get("html")]
    views = [b for b in html_blocks if "tw-tokens" in b]
    assert len(views) == 3
    assert all("<script" not in b and "&lt;" in b and "script" in b for b in views)


def test_custom_context_window_and_absurd_values(app):
    app.selectbox(key="counter_ctx").set_value("Custom...").run()
    app.number_input(key="counter_ctx_custom").set_value(10).run()
    assert not app.exception
    table = app.dataframe[0].value
    tokens = builtin("o200k_base").count(load_sample("mixed"))
    assert table.loc[0, "context_pct"] == pytest.approx(100 * tokens / 10, rel=1e-3)


def test_large_input_pages_the_view(app):
    line = "A long document line with some words, digits 2026 and ✓ marks.\n"
    text = line * 20_000  # about 1.3 MB
    set_text(app, text)
    assert metrics(app)["o200k_base"] == f"{builtin('o200k_base').count(text):,}"
    part = app.number_input(key="counter_part")
    assert part.max > 50
    part.set_value(3).run()
    assert not app.exception
    assert any("Characters 24," in c.value for c in app.caption)


def test_share_link_is_applied_on_first_load():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update(
        {
            "tok": "r50k_base,nope",
            "z": pack_text("shared <b>text</b>"),
            "view": "ids",
            "ctx": "4096",
            "ws": "1",
        }
    )
    at.run()
    assert not at.exception
    assert at.session_state["counter_text"] == "shared <b>text</b>"
    assert list(metrics(at)) == ["r50k_base (gpt2)"]
    assert at.selectbox(key="counter_ctx").value == "Custom..."
    assert at.number_input(key="counter_ctx_custom").value == 4096
    assert any("nope" in w.value for w in at.warning)
    # the URL keeps following the settings
    assert at.query_params["view"] in ("ids", ["ids"])
    assert at.query_params["tok"] in ("r50k_base", ["r50k_base"])


def test_a_broken_tokenizer_shows_its_fix_and_the_others_still_count(tmp_path, monkeypatch):
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from tokenizer_core.tokenizers import registry

    monkeypatch.setattr(registry, "DATA_DIR", tmp_path)  # r50k_base.tiktoken is "missing"
    st.cache_resource.clear()
    try:
        at = AppTest.from_file(ENTRY, default_timeout=60)
        at.run()
        at.multiselect(key="counter_tokenizers").set_value(["r50k_base", "o200k_base"]).run()
        assert not at.exception
        errors = [e.value for e in at.error]
        assert len(errors) == 1 and "r50k_base" in errors[0] and "git checkout" in errors[0]
        assert list(metrics(at)) == ["o200k_base"]
    finally:
        st.cache_resource.clear()


def chat_table(at):
    return next(df.value for df in at.dataframe if "overhead" in df.value.columns)


def test_chat_request_counts_every_format_of_the_chosen_tokenizers(app):
    from tokenizer_core import count_chat

    text = "Where is my order #90210? It was due on Monday."
    set_text(app, text)
    app.multiselect(key="counter_tokenizers").set_value(
        ["o200k_base", "llama3", "qwen", "tekken", "r50k_base"]
    ).run()
    assert not any(df.value.columns.isin(["overhead"]).any() for df in app.dataframe)  # off by default
    app.toggle(key="counter_chat").set_value(True).run()
    assert not app.exception
    table = chat_table(app)
    assert list(table["format"]) == [
        "OpenAI chat (documented rule)", "Llama 3.1-3.3 Instruct", "Llama 3 Instruct", "Qwen3 (ChatML)",
        "Qwen 2.5 (ChatML)", "Mistral instruct v3 (Tekken)",
    ]  # fmt: skip
    o200k = table.iloc[0]
    assert o200k["content"] == builtin("o200k_base").count(text) and o200k["overhead"] == 7
    assert o200k["total"] == builtin("o200k_base").count(text) + 7
    assert o200k["context_pct"] == pytest.approx(100 * o200k["total"] / 128_000)
    mistral = table.iloc[5]
    assert mistral["total"] == count_chat(builtin("tekken"), text).total == builtin("tekken").count(text) + 3
    assert any("No chat format known for r50k\\_base" in c.value for c in app.caption)
    # a system message adds its tokens and its own framing
    app.text_area(key="counter_system").input("You are a support agent.").run()
    with_system = chat_table(app)
    sys_tokens = builtin("o200k_base").count("You are a support agent.")
    assert with_system.iloc[0]["total"] == o200k["total"] + 3 + 1 + sys_tokens
    llama31 = count_chat(builtin("llama3"), text, "You are a support agent.", format_id="llama31")
    assert with_system.iloc[1]["total"] == llama31.total
    # the formats are shown with the user's text as a placeholder
    codes = [c.value for c in app.code]
    assert any(c.startswith("<s>[INST]⟨system message⟩") for c in codes)
    assert not any("support agent" in c for c in codes)


def test_chat_settings_travel_in_the_share_link():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update({"tok": "o200k_base", "z": pack_text("hi <|endoftext|>"), "chat": "1",
                            "zs": pack_text("Be brief.")})  # fmt: skip
    at.run()
    assert not at.exception
    assert at.toggle(key="counter_chat").value is True
    assert at.text_area(key="counter_system").value == "Be brief."
    tok = builtin("o200k_base")
    assert (
        chat_table(at).iloc[0]["total"]
        == 3 + 1 + tok.count("Be brief.") + 3 + 1 + tok.count("hi <|endoftext|>") + 3
    )
    assert at.query_params["chat"] in ("1", ["1"])
    assert at.query_params["zs"] in (pack_text("Be brief."), [pack_text("Be brief.")])


def _live_box_data(at) -> dict:
    import json

    (box,) = at.get("bidi_component")
    proto = box.proto
    return json.loads(proto.mixed.json if proto.WhichOneof("data") == "mixed" else proto.json)


def test_live_box_gets_the_text_only_when_python_changes_it(app):
    first = _live_box_data(app)
    assert first["value"] == load_sample("mixed")  # the first run fills the box
    app.run()  # a rerun that changed nothing: the box is left alone (no text resent)
    again = _live_box_data(app)
    assert again["value"] is None and again["rev"] == first["rev"]
    set_text(app, "replaced from Python")  # e.g. a sample, an upload or a workspace file
    pushed = _live_box_data(app)
    assert pushed["value"] == "replaced from Python" and pushed["rev"] != first["rev"]
    assert pushed["live_limit"] > 1_000 and "Ctrl+Enter" in pushed["manual_note"]
