"""Prompt versions, the text diff with token deltas, and the workspace file (core, no Streamlit)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import builtin
from tokenizer_core.workspace.chat import CHAT_FORMATS, Message, count_request
from tokenizer_core.workspace.diff import WORD_MATCH_BUDGET
from tokenizer_core.workspace.file import (
    FORMAT,
    PromptVersion,
    Workspace,
    WorkspaceError,
    diff_html,
    diff_regions,
    load_workspace,
    save_workspace,
    version_tokens,
)

LONG = "You are a helpful, friendly and very patient support assistant for an online shop. Answer briefly."
SHORT = "You are a support assistant for an online shop. Answer briefly."


def test_two_versions_compared_give_the_right_delta():
    tok = builtin("o200k_base")
    a, b = PromptVersion("long", text=LONG), PromptVersion("short", text=SHORT)
    assert (
        version_tokens(b, tok, None) - version_tokens(a, tok, None) == tok.count(SHORT) - tok.count(LONG) < 0
    )
    chat_a = PromptVersion("a", "chat", messages=(("system", LONG), ("user", "Hi")))
    chat_b = PromptVersion("b", "chat", messages=(("system", SHORT), ("user", "Hi")))
    llama = builtin("llama3")
    ref = [count_request([Message("system", s), Message("user", "Hi")], llama, CHAT_FORMATS["llama31"]).total
           for s in (LONG, SHORT)]  # fmt: skip
    assert (
        version_tokens(chat_b, llama, "llama31") - version_tokens(chat_a, llama, "llama31") == ref[1] - ref[0]
    )
    assert version_tokens(chat_a, llama, None) is None  # no chat format: not counted


def test_diff_marks_the_changed_words_and_their_tokens():
    tok = builtin("cl100k_base")
    regions = diff_regions(LONG, SHORT, tok)
    assert "".join(r.old for r in regions) == LONG and "".join(r.new for r in regions) == SHORT
    changed = [r for r in regions if r.tag != "equal"]
    assert any("friendly" in r.old for r in changed) and all(r.tokens <= 0 for r in changed)
    assert sum(r.tokens for r in changed) == sum(tok.count(r.new) - tok.count(r.old) for r in changed)
    page = diff_html(diff_regions("<b>x</b> one", "<img src=x onerror=alert(1)> two", tok))
    assert {t for t in re.findall(r"</?([a-z]+)", page)} == {"div", "del", "ins", "sup"}  # only our own tags
    assert "&lt;" in page and "img src=" in page


WORDS = st.lists(st.sampled_from(["a", "b", "cat", " ", "\n", ".", "é", "猫"]), max_size=30).map("".join)


@given(old=WORDS, new=WORDS)
def test_a_diff_gives_back_both_texts_and_changes_only_what_differs(old, new):
    regions = diff_regions(old, new)
    assert "".join(r.old for r in regions) == old and "".join(r.new for r in regions) == new
    for r in regions:
        assert (
            (r.old == r.new)
            if r.tag == "equal"
            else (r.old != r.new and r.tag in ("replace", "delete", "insert"))
        )
    tags = [r.tag for r in regions]
    assert all(not (x == y == "equal") for x, y in zip(tags, tags[1:]))  # kept text is one region
    assert any(r.tag != "equal" for r in regions) == (old != new)


def test_one_change_in_a_long_repeated_prompt_is_that_word_alone():
    # Shared starts and ends are kept out of the matcher (its time grows with the square of the
    # words a text repeats); the change found is the same
    long = "Answer in one short sentence, and cite the page.\n" * 300
    edited = long.replace("short", "long", 1)
    assert [(r.tag, r.old, r.new) for r in diff_regions(long, edited)] == [
        ("equal", "Answer in one ", "Answer in one "),
        ("replace", "short", "long"),
        ("equal", long[len("Answer in one short") :], long[len("Answer in one short") :]),
    ]
    assert [r.tag for r in diff_regions(long, long)] == ["equal"]
    assert [(r.tag, r.new) for r in diff_regions(long, long + "Thanks.")] == [
        ("equal", long),
        ("insert", "Thanks."),
    ]


def test_changed_lines_too_large_to_match_word_by_word_are_one_change():
    old, new = "x " * 2_000 + "\nkept\n", "y " * 2_000 + "\nkept\n"  # 4,000 x 4,000 words > the budget
    assert WORD_MATCH_BUDGET < 4_000 * 4_000
    assert [(r.tag, r.old, r.new) for r in diff_regions(old, new)] == [
        ("replace", "x " * 2_000 + "\n", "y " * 2_000 + "\n"),
        ("equal", "kept\n", "kept\n"),
    ]
    small_old, small_new = "x " * 20 + "\nkept\n", "x " * 19 + "y \nkept\n"  # within it: the word changed
    assert [(r.tag, r.old, r.new) for r in diff_regions(small_old, small_new)] == [
        ("equal", "x " * 19, "x " * 19),
        ("replace", "x", "y"),
        ("equal", " \nkept\n", " \nkept\n"),
    ]


def test_workspace_file_round_trip():
    ws = Workspace(
        models=["gpt-4o", "llama-3.1", "qwen"], mode="chat", text="hello 👋",
        messages=[("system", "Be brief."), ("user", "Hi <b>")], tools='[{"name": "f"}]',
        versions=[PromptVersion("v1", text=LONG), PromptVersion("v2", "chat", messages=(("user", "x"),), tools="")],
    )  # fmt: skip
    text = save_workspace(ws)
    doc = json.loads(text)
    assert doc["format"] == FORMAT and doc["version"] == 1
    back, notes = load_workspace(text.encode("utf-8"), known_models=["gpt-4o", "llama-3.1", "qwen"])
    assert back == ws and notes == []


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"\xff\xfe\x00binary", "not UTF-8"),
        (b"{not json", "not valid JSON (line 1"),
        (b'{"format": "something else"}', "not a workspace file"),
        (json.dumps({"format": FORMAT, "version": 99}).encode(), "format version 99"),
    ],
)
def test_bad_workspace_files_get_a_clear_message(data, fragment):
    with pytest.raises(WorkspaceError, match=re.escape(fragment)):
        load_workspace(data, known_models=["gpt-4o"])


@pytest.mark.parametrize(
    ("fields", "fragment"),
    [
        ({"messages": [["boss", "x"]]}, "the role 'boss' is not one of"),
        ({"versions": [{"kind": "poem"}]}, "version 1 left out"),
        ({"models": "gpt-4o"}, '"models" left out: it must be a list'),
    ],
)
def test_bad_values_in_a_workspace_file_are_left_out_with_a_note(fields, fragment):
    ws, notes = load_workspace(json.dumps({"format": FORMAT, "version": 1, "text": "kept", **fields}),
                               known_models=["gpt-4o"])  # fmt: skip
    assert ws.text == "kept" and len(notes) == 1 and fragment in notes[0]


def test_unknown_models_in_a_file_are_skipped_with_a_note():
    ws, notes = load_workspace(json.dumps({"format": FORMAT, "version": 1, "models": ["gpt-4o", "gpt-99"]}),
                               known_models=["gpt-4o"])  # fmt: skip
    assert ws.models == ["gpt-4o"] and "gpt-99" in notes[0]


def test_a_file_nested_thousands_of_levels_deep_is_refused_with_a_message():
    with pytest.raises(WorkspaceError, match="levels deep"):
        load_workspace("[" * 100_000 + "]" * 100_000, known_models=[])
