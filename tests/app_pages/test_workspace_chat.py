"""The Prompt workspace's chat request drawn as tokens: the light token view (data, not HTML),
one per model, with what the chat format adds marked apart from the messages' text."""

from __future__ import annotations

from tests.app_pages.test_workspace import _chat
from tests.conftest import builtin, token_views
from tests.helpers.token_view import pane_segments
from tests.picker_helpers import choose

# Meta's published Llama 3.1 prompt format and its special token ids (128000 <|begin_of_text|>,
# 128006 <|start_header_id|>, 128007 <|end_header_id|>, 128009 <|eot_id|>).
BOT, SH, EH, EOT = 128000, 128006, 128007, 128009
ATTACK = "<img src=x onerror=alert(1)>"


def _keys(at) -> list[str]:
    return [el.proto.id for el in at.get("bidi_component") if el.proto.component_name == "tw_token_view"]


def test_chat_request_is_drawn_by_the_light_view_with_the_format_marked(app):
    choose(app, "workspace_tokenizers", ["llama-3.1"])
    _chat(app, [("system", "Be brief."), ("user", f"Show {ATTACK} as text")])
    assert not [h for h in app.get("html") if "tw-tokens" in h.proto.body or ATTACK in h.proto.body]
    (view,) = token_views(app)
    assert view["text"] == (
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
        "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nBe brief.<|eot_id|>"
        f"<|start_header_id|>user<|end_header_id|>\n\nShow {ATTACK} as text<|eot_id|>"
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
    )
    (pane,) = view["panes"]
    assert pane["title"] == "Llama 3.1-3.3 Instruct" and view["ws"] is False
    segs = pane_segments(view, 0)
    assert [s[2] for s in segs[:2]] == [(BOT,), (SH,)]
    assert [i for s in segs for i in s[2]].count(EOT) == 2 and [i for s in segs for i in s[2]].count(EH) == 3
    assert pane["note"] == f"{len(pane['ids']):,} tokens"
    # special tokens and template text are marked; the messages' own text is not
    text = view["text"]
    marked = {text[a:b] for i, (a, b, _) in enumerate(segs) if i in set(pane["sp"])}
    assert {"<|begin_of_text|>", "<|eot_id|>", "<|start_header_id|>", "user", "assistant"} <= marked
    said = f"Show {ATTACK} as text"
    start = text.index(said)
    in_message = [i for i, (a, _, _) in enumerate(segs) if start <= a < start + len(said)]
    assert in_message and not set(in_message) & set(pane["sp"])
    # the message's pieces hold the tokenizer's own ids for the message text
    assert [t for i in in_message for t in segs[i][2]] == builtin("llama3").encode(said)


def test_each_model_gets_its_own_keyed_view_and_whitespace_follows_the_text_view(app):
    app.toggle(key="workspace_ws").set_value(True).run()
    choose(app, "workspace_tokenizers", ["llama-3.1", "qwen"])
    _chat(app, [("user", "Hello there")])
    (view,) = token_views(app)
    assert view["ws"] is True  # the setting made in text mode carries over
    assert view["panes"][0]["title"] == "Llama 3.1-3.3 Instruct"
    assert _keys(app)[-1].endswith("-workspace_request_view_llama3_llama31")
    picks = app.selectbox(key="workspace_request_pick")
    picks.set_value(picks.options.index(next(o for o in picks.options if "Qwen" in o))).run()
    assert not app.exception
    (view,) = token_views(app)
    assert "Qwen" in view["panes"][0]["title"] and "<|im_start|>" in view["text"]
    assert _keys(app)[-1].endswith("-workspace_request_view_qwen_qwen3")
    app.toggle(key="workspace_ws").set_value(False).run()
    assert token_views(app)[0]["ws"] is False
    app.session_state["workspace_mode"] = "text"
    app.run()
    assert app.toggle(key="workspace_ws").value is False


def _message_captions(at, n: int) -> list[str]:
    """The count shown by each of the first `n` messages of the chat editor, in order."""
    shown = [c.value.replace("\\", "") for c in at.caption if c.value.endswith(" tokens")]
    return shown[:n]


def test_every_message_count_is_labelled_with_its_models(app):
    """Issue 31 (9): message 1 showed 7 numbers for 9 names, messages 2-4 numbers with no names."""
    chat = [("system", "Be brief."), ("user", "Where is my order #90210?"), ("assistant", "Let me check."),
            ("user", "Thanks, and the invoice?")]  # fmt: skip
    choose(app, "workspace_tokenizers", ["gpt-4o", "gpt-5", "llama-3.1"])
    _chat(app, chat)
    o200k, llama = builtin("o200k_base"), builtin("llama3")
    labels = _message_captions(app, len(chat))
    assert len(labels) == len(chat)
    for label, (_, text) in zip(labels, chat):
        parts = label.removesuffix(" tokens").split(" · ")
        # one part per tokenizer, each "the models it counts for: their count"
        assert parts == [f"GPT-4o, GPT-5: {o200k.count(text):,}", f"Llama 3.1 8B: {llama.count(text):,}"], (
            label
        )


def test_deepseek_v4_says_which_chats_it_counts_and_shows_no_empty_cells(app):
    """Issue 31 (10): four messages gave "no chat format known" and a row of "None" cells;
    DeepSeek V4's format is rendered for one optional system and one user message."""
    chat = [("system", "Be brief."), ("user", "Hi"), ("assistant", "Hello!"), ("user", "Bye")]
    choose(app, "workspace_tokenizers", ["deepseek-v4-pro", "gpt-4o"])
    _chat(app, chat)
    table = next(df.value for df in app.dataframe if "Chat format" in df.value.columns)
    assert list(table["Models"]) == ["GPT-4o"]  # no row of empty cells for DeepSeek V4
    assert not table.isna().any().any()
    said = " ".join(w.value for w in app.warning) + " " + " ".join(c.value for c in app.caption)
    assert "no chat format known" not in said
    assert "one system and one user message" in said and "DeepSeek V4 Pro" in said
    # two messages: counted, in the table and the cost table
    _chat(app, chat[:2])
    table = next(df.value for df in app.dataframe if "Chat format" in df.value.columns)
    assert "DeepSeek V4 Pro" in set(table["Models"])
    costs = next(df.value for df in app.dataframe if "Per request $" in df.value.columns)
    assert "DeepSeek V4 Pro" in set(costs["Model"])
