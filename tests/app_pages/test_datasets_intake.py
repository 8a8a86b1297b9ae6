"""The Datasets page takes any real file or says why not (AppTest): a text file is not a "pasted
list", a JSON array is counted, UTF-16, binary and empty files are sentences, and files that may
hold secrets are skipped unless the toggle says otherwise."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from tests.app_pages.test_datasets import upload
from tests.conftest import ok
from tests.datasets.samples import finetune_lines
from tokenizer_core.datasets import count_dataset

PAGE = "app_pages/datasets.py"


PAGE_STATE = {"datasets_models": ["gpt-4o"]}


def count(at):
    """Count the set and wait for the job: its result (test_datasets.count gives the page)."""
    ok(at.button(key="datasets_count").click().run())
    job = at.session_state["datasets_job"]
    assert job.wait(180), "the count did not end"
    ok(at.run())
    return job.result


def test_an_uploaded_text_file_is_a_text_file_and_pasted_text_a_pasted_list(page):
    upload(page, "prompts.txt", b"What is the capital of France?\nSummarise this.\n")
    assert any("detected: Text file (one text a line)" in c.value for c in page.caption)
    assert "Pasted list (one text a line)" not in page.selectbox(key="datasets_shape").options
    ok(page.segmented_control(key="datasets_source").set_value("paste").run())
    ok(page.text_area(key="datasets_paste").input("hello world\nhello\n").run())
    assert any("detected: Pasted list (one text a line)" in c.value for c in page.caption)
    assert page.selectbox(key="datasets_shape").value == "list"


def test_a_json_array_of_examples_is_counted(page):
    data = json.dumps(finetune_lines(12), indent=2).encode()
    upload(page, "train.json", data)
    assert any("(a JSON array of 12)" in c.value for c in page.caption)
    assert page.selectbox(key="datasets_shape").value == "finetune"
    result = count(page)
    expected = count_dataset(data, ["gpt-4o"], name="train.json", engine="local")
    assert (result.rows, result.model("gpt-4o").total) == (12, expected.model("gpt-4o").total)


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        ("eval.tsv", "id\ttext\n1\thello\n".encode("utf-16"), "is UTF-16 text: save it as UTF-8"),
        (
            "batch.jsonl",
            b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64),
            "is not text (it holds binary data)",
        ),
        ("batch.jsonl", b"", "batch.jsonl is empty"),
    ],
    ids=["utf16", "binary", "empty"],
)
def test_a_file_that_cannot_be_read_is_a_sentence(page, name, data, said):
    upload(page, name, data)
    errors = [e.value.replace("\\", "") for e in page.error]  # the Markdown source, escapes removed
    assert len(errors) == 1 and said in errors[0]


def _repo() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("repo/app.py", "print('hello')\n")
        z.writestr("repo/.env", "DATABASE_URL=postgres://user:pw@db/app\n")
        z.writestr("repo/settings.py", "AWS_ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'\n")
    return buf.getvalue()


def test_files_that_may_hold_secrets_are_skipped_unless_asked(page):
    upload(page, "repo.zip", _repo())
    assert page.toggle(key="datasets_secrets").value is True
    result = count(page)
    assert list(result.ids) == ["app.py"]
    assert {s.path for s in result.skipped} == {".env", "settings.py"}
    ok(page.toggle(key="datasets_secrets").set_value(False).run())
    result = count(page)
    assert sorted(result.ids) == [".env", "app.py", "settings.py"]
