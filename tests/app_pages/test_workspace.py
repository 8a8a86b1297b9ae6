"""The token counter page, headless (AppTest): real counts, settings, bad input, share links."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.conftest import ENTRY, builtin, ok, shown_counts, token_views
from tests.picker_helpers import choose
from tokenizer_core.tokenizers import load_sample
from tokenizer_core.workspace import pack_text, unpack_text


def metrics(at) -> dict[str, str]:
    """Metric label (markdown-escaped on the page, unescaped here) -> shown value."""
    return shown_counts(at)


def set_text(at, text: str):
    # The live text box is a browser component AppTest cannot type into: set what it sends.
    at.session_state["workspace_text"] = text
    at.run()
    assert not at.exception, at.exception
    return at


def test_home_page_counts_the_default_sample(app):
    text = load_sample("mixed")
    assert app.session_state["workspace_text"] == text
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
    choose(app, "workspace_tokenizers", ["r50k_base", "qwen", "tekken"])
    assert not app.exception
    assert set(metrics(app)) == {"r50k_base (gpt2)", "Qwen 2.5 / 3", "Mistral Tekken"}
    choose(app, "workspace_tokenizers", [])
    assert not metrics(app) and any("at least one model or tokenizer" in i.value for i in app.info)


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
    app.toggle(key="workspace_special").set_value(True).run()
    assert not app.exception
    assert metrics(app)["o200k_base"] == str(len(builtin("o200k_base").encode(text, allow_special=True)))
    assert metrics(app)["Llama 3"] == str(len(builtin("llama3").encode(text)))  # not a Llama special


def test_html_and_emoji_text_goes_to_the_token_view_as_data(app):
    text = "<script>alert(1)</script> 👨‍👩‍👧 你好"
    set_text(app, text)
    assert not [h for h in app.get("html") if "<script" in h.proto.body]
    (view,) = token_views(app)
    assert view["text"] == text and view["mode"] == "text" and view["ws"] is False
    assert [p["title"] for p in view["panes"]] == ["o200k_base", "cl100k_base", "Llama 3"]
    for pane, tid in zip(view["panes"], ("o200k_base", "cl100k_base", "llama3")):
        assert pane["ids"] == builtin(tid).encode(text)
        assert sum(pane["len"]) == len(text)
        assert pane["note"] == f"{len(pane['ids']):,} tokens in this part"


def test_token_view_modes_whitespace_and_marks(app):
    text = "Tokenizers   disagree about 2024-11-30 and supercalifragilistic. नमस्ते 你好世界"
    set_text(app, text)
    (view,) = token_views(app)
    marked = [p.get("mk") for p in view["panes"]]
    assert any(marked)  # the default tokenizers cut this text differently
    app.toggle(key="workspace_diff").set_value(False).run()
    assert not any(p.get("mk") for p in token_views(app)[0]["panes"])
    app.toggle(key="workspace_ws").set_value(True).run()
    app.segmented_control(key="workspace_view").set_value("ids").run()
    (view,) = token_views(app)
    assert view["ws"] is True and view["mode"] == "ids"
    app.segmented_control(key="workspace_view").set_value("hide").run()
    assert token_views(app) == []


def test_custom_context_window_and_absurd_values(app):
    choose(app, "workspace_tokenizers", ["o200k_base", "gpt-4"])
    app.selectbox(key="workspace_ctx").set_value("Custom...").run()
    app.number_input(key="workspace_ctx_custom").set_value(10).run()
    assert not app.exception
    table = app.dataframe[0].value
    text = load_sample("mixed")
    tokens = builtin("o200k_base").count(text)
    # an encoding alone is measured against the window chosen on the page...
    assert table.loc[0, "context_window"] == 10
    assert table.loc[0, "context_pct"] == pytest.approx(100 * tokens / 10, rel=1e-3)
    # ...a model against its own, whatever is chosen
    assert table.loc[1, "context_window"] == 8_192
    assert table.loc[1, "context_pct"] == pytest.approx(
        100 * builtin("cl100k_base").count(text) / 8_192, rel=1e-3
    )


def test_text_mode_and_the_chat_table_measure_a_model_against_the_same_window(app):
    """GPT-4 was measured against the 128K chosen at the top in text mode and against its own
    8,192 in the chat table: one rule now, shown in both tables."""
    choose(app, "workspace_tokenizers", ["gpt-4"])
    text_row = app.dataframe[0].value.iloc[0]
    assert text_row["context_window"] == 8_192
    _chat(app, [("user", "Hello there, how are you?")])
    chat = chat_table(app).iloc[0]
    assert chat["Context window"] == 8_192
    assert chat["% of context"] == pytest.approx(100 * chat["Request tokens"] / 8_192)


def test_large_input_pages_the_view(app):
    line = "A long document line with some words, digits 2026 and ✓ marks.\n"
    text = line * 20_000  # about 1.3 MB
    set_text(app, text)
    assert metrics(app)["o200k_base"] == f"{builtin('o200k_base').count(text):,}"
    part = app.number_input(key="workspace_part")
    assert part.max > 50
    part.set_value(3).run()
    assert not app.exception
    assert any("Characters 24," in c.value for c in app.caption)
    (view,) = token_views(app)
    assert 24_000 < view["base"] < 30_000 and text[view["base"] :].startswith(view["text"])
    assert len(view["text"]) < 20_000


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
    assert at.session_state["workspace_text"] == "shared <b>text</b>"
    assert list(metrics(at)) == ["r50k_base (gpt2)"]
    assert at.selectbox(key="workspace_ctx").value == "Custom..."
    assert at.number_input(key="workspace_ctx_custom").value == 4096
    assert any("nope" in w.value for w in at.warning)
    # the URL keeps following the settings
    assert at.query_params["view"] in ("ids", ["ids"])
    assert at.query_params["tok"] in ("r50k_base", ["r50k_base"])


def test_a_broken_tokenizer_shows_its_fix_and_the_others_still_count(tmp_path, monkeypatch):
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from tokenizer_core.tokenizers import registry

    monkeypatch.setattr(registry, "DATA_DIR", tmp_path)  # r50k_base.tiktoken is "missing"
    monkeypatch.setattr(registry, "_loaded", {})  # the process's loaded tokenizers, as if none were
    st.cache_resource.clear()
    try:
        at = AppTest.from_file(ENTRY, default_timeout=60)
        at.run()
        choose(at, "workspace_tokenizers", ["r50k_base", "o200k_base"])
        assert not at.exception
        errors = [e.value for e in at.error]
        assert len(errors) == 1 and "r50k_base" in errors[0] and "git checkout" in errors[0]
        assert list(metrics(at)) == ["o200k_base"]
    finally:
        st.cache_resource.clear()


def chat_table(at):
    return next(df.value for df in at.dataframe if "Request tokens" in df.value.columns)


def _chat(at, messages, tools=""):
    """Put a chat in the editor the way a link or a workspace file does, in chat mode."""
    from ui.workspace.chat_editor import set_messages

    at.session_state["workspace_mode"] = "chat"
    at.session_state["workspace_chat_tools"] = tools
    at.run()
    ids = at.session_state["workspace_chat_msgs"]
    for mid in ids:
        del at.session_state[f"workspace_chat_text_{mid}"]
    at.session_state["workspace_chat_msgs"] = []
    for n, (role, text) in enumerate(messages):
        mid = f"t{n}"
        at.session_state["workspace_chat_msgs"] = [*at.session_state["workspace_chat_msgs"], mid]
        at.session_state[f"workspace_chat_role_{mid}"] = role
        at.session_state[f"workspace_chat_text_{mid}"] = text
    at.run()
    assert not at.exception, at.exception
    assert set_messages  # the page's own way in is tested through links below
    return at


def test_chat_request_counts_each_chosen_model_in_its_format(app):
    from tokenizer_core.workspace.chat import CHAT_FORMATS, Message, count_request

    chat = [("system", "You are a support agent."), ("user", "Where is my order #90210?"),
            ("assistant", "Let me check.")]  # fmt: skip
    choose(app, "workspace_tokenizers", ["gpt-4o", "gpt-5", "llama-3.1", "qwen", "r50k_base"])
    _chat(app, chat)
    table = chat_table(app)
    assert list(table["Chat format"]) == [
        "OpenAI chat (documented rule)", "Llama 3.1-3.3 Instruct", "Qwen3 (ChatML)", "Qwen 2.5 (ChatML)",
    ]  # fmt: skip
    assert table.iloc[0]["Models"] == "GPT-4o, GPT-5"  # one tokenizer and format: counted once
    tok = builtin("o200k_base")
    assert table.iloc[0]["Request tokens"] == sum(3 + tok.count(r) + tok.count(t) for r, t in chat) + 3
    assert table.iloc[0]["#2 user"] == tok.count("Where is my order #90210?")
    msgs = [Message(r, t) for r, t in chat]
    llama = count_request(msgs, builtin("llama3"), CHAT_FORMATS["llama31"])
    assert table.iloc[1]["Request tokens"] == llama.total
    # Llama 3.1 8B is priced at AWS Bedrock: its window there, per the price source
    assert table.iloc[1]["Context window"] == 128_000
    assert table.iloc[1]["% of context"] == pytest.approx(100 * llama.total / 128_000)


def test_a_run_of_the_chat_counts_the_request_once(app, monkeypatch):
    """The editor's counts by each message and the table below come from one count of the
    request: its widgets hold what they show before they are drawn."""
    from ui.workspace import chat_view

    calls = []
    real = chat_view.cached_request
    monkeypatch.setattr(chat_view, "cached_request", lambda *a: calls.append(a[:2]) or real(*a))
    choose(app, "workspace_tokenizers", ["gpt-4o", "llama-3.1"])
    _chat(app, [("system", "Be brief."), ("user", "Where is my order?")])
    calls.clear()
    app.run()
    assert not app.exception
    assert sorted(calls) == [("llama3", "llama31"), ("o200k_base", "openai")]
    labels = [c.value.replace("\\", "") for c in app.caption if "tokens" in c.value and "·" in c.value]
    assert labels and all("GPT-4o" in x and "Llama 3.1" in x for x in labels)


def test_chat_tools_counted_where_published_and_bad_json_keeps_everything(app):
    tool = '[{"name": "track", "description": "Track an order.", "parameters": {"type": "object", "properties": {"id": {"type": "string", "description": "Order id"}}}}]'
    choose(app, "workspace_tokenizers", ["llama-3.1", "llama-3"])
    _chat(app, [("user", "Where is order 7?")], tools=tool)
    table = chat_table(app)
    assert int(table.iloc[0]["Tools"].replace(",", "")) > 20
    assert table.iloc[0]["Counted by"] == "published template"
    assert table.iloc[1]["Tools"] == "not counted"  # never "None" in the table
    assert "tools not counted" in table.iloc[1]["Counted by"]  # Llama 3's template says nothing on tools
    with_tools = table.iloc[0]["Request tokens"]
    app.session_state["workspace_chat_tools"] = tool[:-3]  # broken JSON
    app.run()
    assert not app.exception
    assert any("not valid JSON" in e.value and "line 1" in e.value for e in app.error)
    assert app.session_state["workspace_chat_tools"] == tool[:-3]  # the user's text is kept
    assert chat_table(app).iloc[0]["Request tokens"] < with_tools  # counted without the tools


def test_chat_travels_in_the_share_link():
    import json

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(ENTRY, default_timeout=60)
    msgs = [["system", "Be brief."], ["user", "hi <b>x</b>"], ["assistant", "Hello."]]
    at.query_params.update({"tok": "gpt-4o", "mode": "chat", "zm": pack_text(json.dumps(msgs))})
    at.run()
    assert not at.exception
    tok = builtin("o200k_base")
    assert (
        chat_table(at).iloc[0]["Request tokens"] == sum(3 + tok.count(r) + tok.count(t) for r, t in msgs) + 3
    )
    assert at.query_params["mode"] in ("chat", ["chat"])
    assert json.loads(unpack_text(at.query_params["zm"] if isinstance(at.query_params["zm"], str)
                                  else at.query_params["zm"][0])) == msgs  # fmt: skip


def test_an_older_chat_link_becomes_a_chat():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(ENTRY, default_timeout=60)
    at.query_params.update({"tok": "o200k_base", "z": pack_text("hi <|endoftext|>"), "chat": "1",
                            "zs": pack_text("Be brief.")})  # fmt: skip
    at.run()
    assert not at.exception
    tok = builtin("o200k_base")
    assert (
        chat_table(at).iloc[0]["Request tokens"]
        == 3 + 1 + tok.count("Be brief.") + 3 + 1 + tok.count("hi <|endoftext|>") + 3
    )


def _live_box_data(at) -> dict:
    import json

    (box,) = [el for el in at.get("bidi_component") if el.proto.component_name == "tw_live_text"]
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


def test_live_box_asks_the_count_route_for_the_cards_on_the_page(app):
    """What the box asks the server for as the user types (ui/count_api.py) must be what the
    cards show: the same tokenizers, labels, window and special-token setting, in card order."""
    choose(app, "workspace_tokenizers", ["qwen", "o200k_base", "tekken"])
    spec = _live_box_data(app)["counts"]
    assert spec["url"] == "/api/counts" and spec["cards"] == "workspace_counts"
    assert spec["ids"] == ["qwen", "o200k_base", "tekken"]
    assert spec["labels"] == list(metrics(app)) == ["Qwen 2.5 / 3", "o200k_base", "Mistral Tekken"]
    assert (spec["window"], spec["special"]) == (128_000, False)
    app.toggle(key="workspace_special").set_value(True).run()
    app.selectbox(key="workspace_ctx").set_value("32K").run()
    spec = _live_box_data(app)["counts"]
    assert (spec["window"], spec["special"]) == (32_768, True)


def test_a_sessions_own_tokenizer_is_counted_by_the_rerun_alone(app):
    from tests.tokenizers.test_encoders import R50K_BYTES
    from tokenizer_core import tokenizer_from_tiktoken_bytes

    own = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="my gpt2", pattern_id="r50k")
    app.session_state["session_tokenizers"] = {own.id: own}
    choose(app, "workspace_tokenizers", ["o200k_base", own.id])
    assert set(metrics(app)) == {"o200k_base", "my gpt2"}
    assert _live_box_data(app)["counts"] is None  # the route does not reach a session's tokenizers


def _df(at, column):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def test_save_as_a_version_keeps_the_text_typed_since_the_button_was_drawn(app):
    """Typing reruns the counts at once and the sections below (versions among them) after a
    pause: a click on Save in that pause must save the text in the box, not the one the button
    was drawn with."""
    set_text(app, "The text the sections were drawn with.")
    app.session_state["workspace_text"] = "Typed since, not yet drawn below."  # what the box sent
    ok(app.button(key="workspace_version_save").click().run())
    assert [v.text for v in app.session_state["workspace_versions"]] == ["Typed since, not yet drawn below."]


def test_two_versions_side_by_side_with_the_right_delta(app):
    long = "You are a helpful, friendly and very patient support assistant. Answer briefly."
    short = "You are a support assistant. Answer briefly."
    set_text(app, long)
    app.text_input(key="workspace_version_name").input("long").run()
    app.button(key="workspace_version_save").click().run()
    set_text(app, short)
    app.text_input(key="workspace_version_name").input("short").run()
    app.button(key="workspace_version_save").click().run()
    assert not app.exception
    table = _df(app, "Difference")
    o200k = builtin("o200k_base")
    row = table[table["Model"] == "GPT-4o"].iloc[0]
    assert row["long"] == o200k.count(long) and row["short"] == o200k.count(short)
    assert row["Difference"] == o200k.count(short) - o200k.count(long) < 0
    # fewer tokens at $2.50 per million, for 1,000 requests: "-$0.0225", the sign before the dollar
    cell = row["Input $ difference per 1,000 requests"]
    assert (
        cell.startswith("-$")
        and Decimal(cell.replace("$", "")) == Decimal(int(row["Difference"])) * Decimal("2.5") / 1000
    )
    diff = next(h.proto.body for h in app.get("html") if "tw-diff" in h.proto.body)
    assert "<del" in diff and "friendly" in diff
    # the versions travel in the link
    assert "zv" in app.query_params
