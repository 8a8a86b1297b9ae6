"""The prompt workspace's input paths under hostile input, headless (AppTest): crafted share
links, workspace files, tools JSON, and a user's tokenizer that fails on a saved version.

Each test fails on the code before the fix: an exception on the page (RecursionError from the
tools or a link, WorkspaceError from a button's callback, TokenizerFailed from the fragment,
ValueError from a file), a count that was not capped, or a tool name rendered as Markdown.
"""

from __future__ import annotations

import json
import logging

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ENTRY, builtin, shown_counts
from tests.picker_helpers import choose
from tests.tokenizers.test_failures import BAD_TEXT, NAME, _panicky
from tokenizer_core.workspace import pack_text
from tokenizer_core.workspace.file import FORMAT
from tokenizer_core.workspace.limits import MAX_DEPTH, MAX_MESSAGES, MAX_VERSIONS

DEEP = "[" * 1_990 + "]" * 1_990  # fits the link's 4,000 bytes; Python's decoder gives up near 1,000
TOO_DEEP = f"nested too deeply (more than {MAX_DEPTH} levels)"
MARKDOWN_NAME = "[x](https://evil.example) ![i](https://evil.example/i.png)"
BAD_VERSIONS = [
    {"name": "poem", "kind": "poem", "text": "x"},  # first: its button was the one that broke
    {"name": 5, "kind": "text", "text": "y"},
    {"name": "good", "kind": "text", "text": "Where is my order?"},
]


class _Log(logging.Handler):
    """Every record Streamlit logs while a test runs (an uncaught exception logs one)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record.getMessage())


@pytest.fixture
def errors_logged():
    handler = _Log()
    logger = logging.getLogger("streamlit")
    logger.addHandler(handler)
    yield handler.records
    logger.removeHandler(handler)


def _open(params: dict[str, str], **state) -> AppTest:
    import streamlit as st

    st.cache_data.clear()
    at = AppTest.from_file(ENTRY, default_timeout=120)
    at.query_params.update(params)
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    return at


def _clean(at: AppTest, log: list[str]) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not [r for r in log if "Uncaught" in r], log


def _warnings(at: AppTest) -> list[str]:
    """Each line of the warning boxes (a box of several notes is a Markdown list)."""
    lines = [line for w in at.warning for line in w.value.replace("\\", "").split("\n")]
    return [line.removeprefix("- ") for line in lines]


def _errors(at: AppTest) -> str:
    return "\n".join(e.value for e in at.error).replace("\\", "").replace("\u2060", "")


def test_deeply_nested_tools_from_a_link_are_left_out_and_the_text_is_kept(errors_logged):
    at = _open({"tok": "gpt-4o,llama-3.1", "mode": "chat", "zt": pack_text(DEEP)})
    _clean(at, errors_logged)
    assert [w for w in _warnings(at) if w.startswith("Shared link: chat tools:") and TOO_DEEP in w]
    assert f"The tools are {TOO_DEEP}." in _errors(at)  # in the editor, by the tools box
    assert at.session_state["workspace_chat_tools"] == DEEP  # the text is kept as it came
    at.session_state["workspace_chat_tools"] = "[" * 5_000  # typed or pasted: the same answer
    at.run()
    _clean(at, errors_logged)
    assert f"The tools are {TOO_DEEP}." in _errors(at)


@pytest.mark.parametrize("key, what", [("zm", "chat messages"), ("zv", "prompt versions")])
def test_deeply_nested_messages_or_versions_in_a_link_give_one_warning(errors_logged, key, what):
    at = _open({"tok": "gpt-4o", "mode": "chat", key: pack_text(DEEP)})
    _clean(at, errors_logged)
    assert _warnings(at) == [f"Shared link: {what}: The {what} are {TOO_DEEP}."]


def test_malformed_versions_in_a_link_are_left_out_one_warning_per_bad_field(errors_logged):
    at = _open({"tok": "gpt-4o", "zv": pack_text(json.dumps(BAD_VERSIONS))})
    _clean(at, errors_logged)
    warnings = _warnings(at)
    loads = [b for b in at.button if (b.key or "").startswith("workspace_version_load_")]
    for button in loads:  # the first button used to meet the unchecked "poem" version
        button.click().run()
        _clean(at, errors_logged)
    assert warnings == [
        'Shared link: version 1 left out: "kind" must be "text" or "chat", not \'poem\'',
        'Shared link: version 2 left out: "name" must be text, not the number 5',
    ]
    assert len(loads) == 1  # only the good version is there to load
    assert at.session_state["workspace_text"] == "Where is my order?"
    at.button(key="workspace_version_rm_0").click().run()
    _clean(at, errors_logged)
    assert not [b for b in at.button if (b.key or "").startswith("workspace_version_load_")]


def test_a_link_with_too_many_messages_or_versions_is_cut_to_the_caps(errors_logged):
    messages = [["user", ""]] * 120  # 1,440 bytes of JSON, 70 bytes packed
    at = _open({"tok": "gpt-4o", "mode": "chat", "zm": pack_text(json.dumps(messages))})
    _clean(at, errors_logged)
    assert len(at.session_state["workspace_chat_msgs"]) == MAX_MESSAGES
    assert any(f"the chat has 120 messages; the first {MAX_MESSAGES} are kept" in w for w in _warnings(at))
    assert at.button(key="workspace_chat_add").disabled
    versions = [{}] * 1_000  # 3,000 bytes of JSON
    at = _open({"tok": "gpt-4o", "zv": pack_text(json.dumps(versions))})
    _clean(at, errors_logged)
    assert len(at.session_state["workspace_versions"]) == MAX_VERSIONS
    assert any(
        f"there are 1,000 saved versions; the first {MAX_VERSIONS} are kept" in w for w in _warnings(at)
    )
    assert at.button(key="workspace_version_save").disabled


def test_tool_names_are_shown_literally_never_as_markdown(errors_logged):
    tools = json.dumps([{"name": MARKDOWN_NAME, "parameters": {"type": "object", "properties": {}}}])
    at = _open({"tok": "gpt-4o", "mode": "chat", "zt": pack_text(tools)})
    _clean(at, errors_logged)
    (caption,) = [c.value for c in at.caption if c.value.startswith("1 tool:")]
    assert "](" not in caption and "![" not in caption  # every bracket escaped: no link, no image
    assert caption.replace("\\", "").replace("\u2060", "") == f"1 tool: {MARKDOWN_NAME}"
    # and in an error that quotes the name
    bad = json.dumps([{"name": MARKDOWN_NAME, "parameters": {"type": "object", "properties": 5}}])
    at.session_state["workspace_chat_tools"] = bad
    at.run()
    _clean(at, errors_logged)
    (error,) = [e.value for e in at.error if "properties" in e.value]
    assert "](" not in error and "![" not in error


def test_a_users_tokenizer_failing_on_a_saved_version_is_left_out_others_go_on(errors_logged):
    bad = _panicky()
    versions = [
        {"name": "short", "text": "hello world"},
        {"name": "long", "text": f"def f():\n    return '{BAD_TEXT}'"},
    ]
    at = _open(
        {"tok": "o200k_base", "z": pack_text("hello"), "zv": pack_text(json.dumps(versions))},
        session_tokenizers={bad.id: bad},
    )
    choose(at, "workspace_tokenizers", ["o200k_base", bad.id])
    _clean(at, errors_logged)
    assert NAME.replace("\\", "") in _errors(at) and "gives up on this text" in _errors(at)
    table = next(df.value for df in at.dataframe if "Difference" in df.value.columns)
    tok = builtin("o200k_base")
    assert list(table["Model"]) == ["o200k_base"]
    assert table.iloc[0]["long"] == tok.count(versions[1]["text"])
    assert any("tw-diff" in h.proto.body for h in at.get("html"))  # the diff is still drawn


def _upload(at: AppTest, name: str, data: bytes) -> AppTest:
    at.file_uploader(key="workspace_ws_file").set_value((name, data, "application/json")).run()
    return at


def test_a_workspace_file_with_bad_values_loads_the_rest_and_says_what_was_left_out(errors_logged):
    doc = {"format": FORMAT, "version": 1, "models": ["gpt-4o", 7], "mode": "text", "text": "From the file.",
           "messages": [["user", "hi"], ["boss", "x"]], "tools": "", "versions": BAD_VERSIONS}  # fmt: skip
    at = _upload(_open({}), "ws.json", json.dumps(doc).encode())
    _clean(at, errors_logged)
    assert at.session_state["workspace_text"] == "From the file."
    assert [v.name for v in at.session_state["workspace_versions"]] == ["good"]
    assert [s.value for s in at.success] == ["Loaded ws\\.json: 1 version\\."]
    assert at.session_state["workspace_ws_expander"] is True  # the answer stays in view
    shown = _warnings(at)
    assert 'ws.json: version 1 left out: "kind" must be "text" or "chat", not \'poem\'' in shown
    assert 'ws.json: version 2 left out: "name" must be text, not the number 5' in shown
    assert any("ws.json: the chat: 1 message left out (message 2: the role 'boss'" in w for w in shown)
    assert "ws.json: the file names 1 model this app does not have, skipped: the number 7" in shown


@pytest.mark.parametrize(
    "data, fragment",
    [
        (b'{"format": "tokenizer-workbench/workspace", "version": 1, "text": ' + b"1" * 5_000 + b"}",
         "thousands of digits"),
        (json.dumps({"format": FORMAT, "version": 1, "x": json.loads("[" * 200 + "]" * 200)}).encode(),
         TOO_DEEP),
    ],
)  # fmt: skip
def test_a_workspace_file_that_python_cannot_read_gets_a_message(errors_logged, data, fragment):
    at = _upload(_open({}), "odd.json", data)
    _clean(at, errors_logged)
    assert fragment in _errors(at) and "Nothing was changed" in _errors(at)


def test_the_share_note_on_own_tokenizers_only_when_one_is_chosen(errors_logged):
    def note(at: AppTest) -> bool:
        return any("Your own tokenizers are private" in c.value for c in at.caption)

    at = _open({"tok": "gpt-4o,llama-3.1"})
    _clean(at, errors_logged)
    assert not note(at)
    from tests.tokenizers.test_encoders import _hf_json
    from tokenizer_core import tokenizer_from_hf_json

    mine = tokenizer_from_hf_json(_hf_json(), name="Mine")
    at = _open({"tok": "gpt-4o"}, session_tokenizers={mine.id: mine})
    choose(at, "workspace_tokenizers", ["gpt-4o", mine.id])
    _clean(at, errors_logged)
    assert note(at)


def test_the_share_section_says_what_the_link_left_out(errors_logged):
    at = _open({"tok": "gpt-4o"})
    at.session_state["workspace_text"] = "word " * 1_000  # 5,000 bytes
    at.run()
    _clean(at, errors_logged)
    notes = " ".join(c.value for c in at.caption).replace("\\", "")
    assert (
        "Left out of the link: the text (longer than 4,000 bytes). A workspace file keeps everything."
        in notes
    )
    assert "z" not in at.query_params


def test_every_model_chosen_makes_a_link_that_names_the_first_and_says_so(errors_logged):
    from ui.models import known_choice_ids

    every = known_choice_ids()
    at = _open({"tok": "gpt-4o"})
    choose(at, "workspace_tokenizers", every)
    _clean(at, errors_logged)
    chosen = [i for i in at.session_state["workspace_tokenizers"] if i in every]
    kept = at.query_params["tok"].split(",")
    assert 100 < len(kept) < len(chosen) and kept == chosen[: len(kept)]  # the first chosen
    notes = " ".join(c.value for c in at.caption).replace("\\", "")
    left = f"Left out of the link: some of the models (the last {len(chosen) - len(kept)} of {len(chosen)}"
    assert left in notes


def test_half_an_emoji_in_a_link_is_counted_as_u_fffd(errors_logged):
    """A link can carry a lone surrogate (half an emoji): the page reads it as every tokenizer
    does, U+FFFD, and counts it (it stopped with an error: Streamlit's cache cannot hash one)."""
    at = _open({"tok": "gpt-4o", "z": pack_text("half an emoji: \ud83d")})
    _clean(at, errors_logged)
    whole = "half an emoji: \ufffd"
    assert at.session_state["workspace_text"] == whole
    assert shown_counts(at)["o200k_base"] == f"{builtin('o200k_base').count(whole):,}"


def test_a_workspace_file_with_twenty_thousand_unknown_models_gives_one_box(errors_logged):
    doc = {"format": FORMAT, "version": 1, "models": [f"model-{i}" for i in range(20_000)], "text": "hi"}
    at = _upload(_open({}), "many.json", json.dumps(doc).encode())
    _clean(at, errors_logged)
    (box,) = at.warning  # before: 20,000 boxes
    assert "20,000 models this app does not have" in box.value.replace("\\", "") and len(box.value) < 2_000


@pytest.mark.parametrize(
    "prices, fragment",
    [
        ({"rate": ["standard"], "edits": []}, "price rate a list is not one this app offers"),
        ({"rate": {"a": 1}, "edits": []}, "price rate an object is not one this app offers"),
        ({"rate": "standard", "edits": [{"model": "gpt-4o", "input": "1e1000000"}]}, "more than $1,000,000"),
        ({"rate": "standard", "edits": [{"model": "gpt-4o", "input": "1e999999"}]}, "more than $1,000,000"),
    ],
)  # fmt: skip
def test_a_workspace_file_with_prices_out_of_type_or_range_loads_with_a_short_note(
    errors_logged, prices, fragment
):
    doc = {"format": FORMAT, "version": 1, "models": ["gpt-4o"], "text": "From the file.", "prices": prices}
    at = _upload(_open({}), "prices.json", json.dumps(doc).encode())
    _clean(at, errors_logged)
    assert at.session_state["workspace_text"] == "From the file."
    shown = "\n".join(_warnings(at))
    assert fragment in shown and len(shown) < 2_000
