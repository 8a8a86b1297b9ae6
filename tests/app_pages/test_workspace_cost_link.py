"""The cost inputs travel in the share link and the workspace file, and a link that left the
text out says so at the top of the page it opens (headless, AppTest)."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app_pages.test_prices import cost_table, source_total
from tests.conftest import ENTRY, builtin, shown_counts
from tokenizer_core.catalog.rates import round_money
from tokenizer_core.workspace import pack_text
from tokenizer_core.workspace.file import FORMAT
from tokenizer_core.workspace.share import MAX_SHARED_TEXT_BYTES


def _open(params: dict[str, str]) -> AppTest:
    import streamlit as st

    st.cache_data.clear()
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _param(at: AppTest, key: str) -> str | None:
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def test_a_link_brings_its_cost_inputs_and_the_table_costs_them():
    text = "Where is my order? It was due on Monday."
    at = _open({"tok": "gpt-4o", "z": pack_text(text), "out": "50", "cached": "0", "req": "20"})
    assert at.number_input(key="workspace_out_tokens").value == 50
    assert at.number_input(key="workspace_requests").value == 20
    row = cost_table(at).set_index("Model").loc["GPT-4o"]
    n = builtin("o200k_base").count(text)
    total = source_total("gpt-4o", n, 50)  # the table shows it rounded half up, as the page does
    assert row["Per request $"] == float(round_money(total, 6))
    assert row["Per 20 requests $"] == float(round_money(total * 20, 2))


def test_changed_cost_inputs_go_into_the_link():
    at = _open({"tok": "gpt-4o"})
    at.number_input(key="workspace_requests").set_value(20).run()
    at.number_input(key="workspace_out_tokens").set_value(1_234).run()
    assert not at.exception
    assert (_param(at, "req"), _param(at, "out")) == ("20", "1234")


def test_a_link_with_cost_inputs_out_of_range_warns_and_keeps_the_defaults():
    at = _open({"tok": "gpt-4o", "req": "9" * 4_400, "out": "-1"})
    assert at.number_input(key="workspace_requests").value == 1_000
    assert at.number_input(key="workspace_out_tokens").value == 300
    warned = " ".join(w.value for w in at.warning)
    assert "number of requests" in warned and "expected output tokens" in warned and len(warned) < 2_000


def test_a_workspace_file_brings_its_cost_inputs():
    at = _open({"tok": "gpt-4o"})
    doc = {"format": FORMAT, "version": 1, "models": ["gpt-4o"], "text": "hi",
           "costs": {"output_tokens": 77, "cached_tokens": 0, "requests": 42}}  # fmt: skip
    at.file_uploader(key="workspace_ws_file").set_value(
        ("c.json", json.dumps(doc).encode(), "application/json")
    )
    at.run()
    assert not at.exception
    assert at.number_input(key="workspace_out_tokens").value == 77
    assert at.number_input(key="workspace_requests").value == 42


def test_a_link_that_left_the_text_out_says_so_at_the_top_of_the_page_it_opens():
    sender = _open({"tok": "o200k_base"})
    sender.session_state["workspace_text"] = "x" * (MAX_SHARED_TEXT_BYTES + 1)
    sender.run()
    link = {k: _param(sender, k) for k in ("tok", "cut")}
    assert link["cut"] == "z"
    receiver = _open({k: v for k, v in link.items() if v})
    (note,) = [i.value for i in receiver.info if "leaves out" in i.value]
    assert "the text" in note and "workspace file" in note
    blocks = list(receiver.main)
    title = next(i for i, b in enumerate(blocks) if type(b).__name__ == "Title")
    shown = next(i for i, b in enumerate(blocks) if "leaves out" in str(getattr(b, "value", "")))
    assert shown <= title + 3  # right under the title and its caption, above the models


def test_a_workspace_file_with_models_redraws_the_picker_and_counts_them():
    """The picker is outside the workspace's fragment: loading a file that chooses models reruns
    the whole page from the upload's callback (no flag left for the fragment to pick up)."""
    from tests.picker_helpers import picker_data

    at = _open({"tok": "gpt-4o"})
    doc = {"format": FORMAT, "version": 1, "models": ["cl100k_base", "r50k_base"], "text": "hello world"}
    at.file_uploader(key="workspace_ws_file").set_value(
        ("m.json", json.dumps(doc).encode(), "application/json")
    )
    at.run()
    assert not at.exception
    assert picker_data(at, "workspace_tokenizers")["chosen"] == ["cl100k_base", "r50k_base"]
    counts = shown_counts(at)
    assert counts["cl100k_base"] == f"{builtin('cl100k_base').count('hello world'):,}"
    assert "workspace_full_rerun" not in at.session_state and "counter_full_rerun" not in at.session_state
