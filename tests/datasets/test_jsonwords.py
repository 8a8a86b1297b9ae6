"""A line that is not JSON is told in words with its character, never in the decoder's wording."""

from __future__ import annotations

import json

import pytest

from tests.datasets.samples import batch_lines, jsonl
from tokenizer_core.datasets import count_dataset
from tokenizer_core.datasets.jsonwords import json_problem
from tokenizer_core.datasets.rows import parse_lines


def _problem(text: bytes) -> str:
    try:
        json.loads(text)
    except (ValueError, RecursionError) as exc:
        return json_problem(exc)
    raise AssertionError("valid JSON")


# the character is counted by hand, 1-based, from the line's start
@pytest.mark.parametrize(
    ("line", "said"),
    [
        pytest.param(b"{'a': 1}", "a key is in single quotes at character 2: JSON needs double quotes", id="single"),
        pytest.param(b"{a: 1}", "a key is not in double quotes at character 2", id="bare-key"),
        pytest.param(b'{"a": 1,}', "a comma before the closing } at character 9", id="trailing-object"),
        pytest.param(b"[1, 2,]", "a comma before the closing ] at character 7", id="trailing-list"),
        pytest.param(b'{"a" 1}', "a colon (:) is missing after a key at character 6", id="colon"),
        pytest.param(b'{"a": 1 "b": 2}', "a comma is missing between two items at character 9", id="comma"),
        pytest.param(b'{"a": "x', "a text in double quotes starts at character 7 and never ends", id="unterminated"),
        pytest.param(b'{"a": 1} {"b": 2}', "more follows the end of the JSON value at character 10 (one value a line)",
                     id="two-values"),
        pytest.param(b'{"a": "x\ty"}', "a tab or line break inside a text at character 9: JSON writes them as \\t and \\n",
                     id="control"),
        pytest.param(b'{"a": "\\q"}', "a backslash escape JSON does not have at character 8 (a backslash itself is "
                     "written \\\\)", id="escape"),
        pytest.param(b'{"a": ', "it ends where a value should follow (the line is cut short?)", id="cut"),
        pytest.param(b'{"a":"caf\xe9"}', "byte 10 of the line is not UTF-8 text", id="latin-1"),
        pytest.param(b"[" * 100_000, "the JSON is nested too deeply to read", id="deep"),
    ],
)  # fmt: skip
def test_each_decoder_message_in_words(line, said):
    assert _problem(line) == said


def test_no_python_wording_reaches_a_row_error():
    rows, errors = parse_lines([b'{"messages": [], }', b"{'custom_id': 1}"], shape="finetune", first_line=1)
    texts = [e.text() for e in errors]
    assert texts == [
        "line 1: not valid JSON (a comma before the closing } at character 18)",
        "line 2: not valid JSON (a key is in single quotes at character 2: JSON needs double quotes)",
    ]
    assert not any("Expecting" in t or "delimiter" in t for t in texts)


def test_the_words_reach_the_count():
    data = jsonl(batch_lines(2)) + b'{"custom_id": "x", body: {}}\n'
    result = count_dataset(data, ["gpt-4o"], name="batch.jsonl", engine="local")
    assert [e.text() for e in result.errors] == [
        "line 3: not valid JSON (a key is not in double quotes at character 20)"
    ]
