"""Any real file taken, or told in a sentence: long first lines, JSON arrays, byte order marks,
UTF-16, binary and empty files, bytes that are not UTF-8. Every file here is written in its real
format (a base64 PNG made by Pillow, UTF-16 as Excel's "Unicode Text" writes it)."""

from __future__ import annotations

import base64
import io
import json

import pytest

from tests.datasets.samples import batch_lines, csv_bytes, finetune_lines, jsonl, parquet_bytes
from tokenizer_core.datasets import DatasetError, count_dataset, detect, pasted
from tokenizer_core.datasets.detect import HEAD_BYTES, PASTED_LABEL, PASTED_NAME
from tokenizer_core.datasets.sources import jsonl_tasks
from tokenizer_core.datasets.textfile import MAX_JSON_ARRAY_BYTES, wide_encoding


def _png_data_url(side: int) -> str:
    """A real PNG of noise (it does not compress), as the data URL a vision request carries."""
    from PIL import Image

    buf = io.BytesIO()
    Image.effect_noise((side, side), 90).convert("RGB").save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def _vision_batch(n: int = 3) -> bytes:
    rows = []
    for i in range(n):
        content = [
            {"type": "text", "text": f"Describe picture {i}."},
            {"type": "image_url", "image_url": {"url": _png_data_url(400), "detail": "high"}},
        ]
        body = {"model": "gpt-4o", "messages": [{"role": "user", "content": content}], "max_tokens": 300}
        rows.append({"custom_id": f"img-{i}", "method": "POST", "url": "/v1/chat/completions", "body": body})
    return jsonl(rows)


def test_a_batch_file_whose_first_line_is_over_256_kb_is_a_batch_file():
    data = _vision_batch()
    first = data.split(b"\n", 1)[0]
    assert len(first) > HEAD_BYTES  # the row with its base64 image is longer than the first read
    d = detect("vision.jsonl", data)
    assert (d.shape, d.label) == ("batch", "OpenAI Batch requests")
    assert [s["custom_id"] for s in d.sample] == ["img-0", "img-1", "img-2"]
    result = count_dataset(data, ["gpt-4o"], name="vision.jsonl", engine="local")
    assert result.rows == 3 and result.error_count == 0
    assert list(result.ids) == ["img-0", "img-1", "img-2"]


def test_detection_reads_whole_first_lines_but_never_the_whole_file(monkeypatch):
    import importlib

    detect_module = importlib.import_module("tokenizer_core.datasets.detect")
    asked = []
    real = detect_module.read_head
    monkeypatch.setattr(
        detect_module, "read_head", lambda data, n=HEAD_BYTES: asked.append(n) or real(data, n)
    )
    big = jsonl(batch_lines(12)) * 3000  # ~12 MB of short lines
    assert detect("batch.jsonl", big).shape == "batch"
    assert max(asked) <= HEAD_BYTES


@pytest.mark.parametrize("indent", [None, 2], ids=["one-line", "pretty"])
def test_a_json_array_of_examples_is_counted_like_json_lines(indent):
    examples = finetune_lines(12)
    as_lines = jsonl(examples)
    as_array = json.dumps(examples, indent=indent).encode()
    d = detect("train.json", as_array)
    assert d.shape == "finetune" and d.array_items == 12 and d.size == len(as_array)
    a = count_dataset(as_array, ["gpt-4o"], name="train.json", engine="local")
    b = count_dataset(as_lines, ["gpt-4o"], name="train.jsonl", engine="local")
    assert (
        (a.rows, a.model("gpt-4o").total)
        == (b.rows, b.model("gpt-4o").total)
        == (12, b.model("gpt-4o").total)
    )
    assert a.per_model["gpt-4o"].tolist() == b.per_model["gpt-4o"].tolist()


def test_a_json_array_of_texts_and_jsonl_rows_that_are_lists():
    d = detect("prompts.json", json.dumps(["hello world", "hi"]).encode())
    assert (d.shape, d.text_fields, d.array_items) == ("jsonl", ("text",), 2)
    assert count_dataset(json.dumps(["hello world", "hi"]).encode(), ["o200k_base"], name="p.json").rows == 2
    # JSON lines whose rows are lists are not one array
    assert detect("rows.jsonl", b"[1, 2]\n[3, 4]\n").array_items is None


def test_a_json_array_over_the_limit_and_a_broken_one_are_sentences(monkeypatch):
    from tokenizer_core.datasets import textfile

    monkeypatch.setattr(textfile, "MAX_JSON_ARRAY_BYTES", 1_000)
    data = json.dumps(finetune_lines(12)).encode()
    assert len(data) > 1_000
    with pytest.raises(DatasetError, match=r"an array is read whole, up to .*jq -c"):
        detect("train.json", data)
    with pytest.raises(DatasetError, match=r"not valid JSON: a comma before the closing \] at character 11"):
        detect("a.json", b'[{"a": 1},]')
    with pytest.raises(DatasetError, match="an empty JSON array"):
        detect("a.json", b"[]\n")
    assert MAX_JSON_ARRAY_BYTES == 50_000_000


def test_a_pretty_printed_json_object_is_a_sentence():
    with pytest.raises(DatasetError, match="one JSON object over many lines"):
        detect("config.json", json.dumps({"data": finetune_lines(2)}, indent=2).encode())


def test_a_utf8_byte_order_mark_is_skipped():
    with_bom = b"\xef\xbb\xbf" + jsonl(batch_lines(4))
    d = detect("batch.jsonl", with_bom)
    assert d.shape == "batch" and d.problems == ()
    a = count_dataset(with_bom, ["gpt-4o"], name="batch.jsonl", engine="local")
    b = count_dataset(jsonl(batch_lines(4)), ["gpt-4o"], name="batch.jsonl", engine="local")
    assert a.error_count == 0 and a.per_model["gpt-4o"].tolist() == b.per_model["gpt-4o"].tolist()
    # a text file: the mark is not counted as a character of the first line
    text = count_dataset(b"\xef\xbb\xbfhello world\nhi\n", ["o200k_base"], name="p.txt", engine="local")
    plain = count_dataset(b"hello world\nhi\n", ["o200k_base"], name="p.txt", engine="local")
    assert text.per_model["o200k_base"].tolist() == plain.per_model["o200k_base"].tolist() == [2, 1]
    csv = detect("eval.csv", b"\xef\xbb\xbf" + csv_bytes())
    assert csv.fields == ("id", "question", "answer")


@pytest.mark.parametrize(
    ("encoding", "name"),
    [("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"), ("utf-32", "UTF-32"),
     ("utf-32-le", "UTF-32")],
)  # fmt: skip
def test_utf16_and_utf32_get_a_sentence(encoding, name):
    # Excel's "Unicode Text" is UTF-16 (little-endian, with a byte order mark), tab-separated
    text = "id\tquestion\nq1\tWhat is the capital of France?\n"
    for fname, content in (("eval.tsv", text), ("batch.jsonl", jsonl(batch_lines(2)).decode())):
        data = content.encode(encoding)
        assert wide_encoding(data) == name
        with pytest.raises(DatasetError, match=rf"is {name} text: save it as UTF-8 and upload it again"):
            detect(fname, data)


def test_utf8_text_with_accents_is_not_taken_for_utf16():
    assert wide_encoding("Où est la gare ? Ça va. Ünïcödé\n".encode()) is None
    assert detect("p.txt", "Où est la gare ?\n日本語のテキスト\n".encode()).shape == "list"


def test_an_empty_file_and_blank_lines_are_sentences():
    with pytest.raises(DatasetError, match="batch.jsonl is empty: there is nothing to count"):
        detect("batch.jsonl", b"")
    with pytest.raises(DatasetError, match="only blank lines"):
        detect("batch.jsonl", b"\n\n  \n")
    with pytest.raises(DatasetError, match="is empty"):
        count_dataset(b"", ["gpt-4o"], name="batch.jsonl")


@pytest.mark.parametrize("name", ["model.jsonl", "photo.txt", "data.json", "table.csv"])
def test_binary_data_is_a_sentence_never_a_pasted_list(name):
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (64, 64), "red").save(buf, format="PNG")  # a real PNG: zero bytes in its header
    with pytest.raises(DatasetError, match="is not text \\(it holds binary data\\)"):
        detect(name, buf.getvalue())
    with pytest.raises(DatasetError, match="is not text"):
        detect(name, parquet_bytes()[4:])  # a damaged Parquet file without its magic bytes


def test_an_uploaded_text_file_is_not_a_pasted_list_but_pasted_text_is():
    d = detect("prompts.txt", b"What is the capital of France?\nSummarise this article.\n")
    assert d.shape == "list" and d.label == "Text file (one text a line)"
    p = detect(PASTED_NAME, pasted("What is the capital of France?\nSummarise this."))
    assert p.shape == "list" and p.label == PASTED_LABEL == "Pasted list (one text a line)"


def test_a_latin1_file_is_told_it_is_not_utf8():
    data = "id,text\n1,Où est la gare ?\n2,Ça va très bien.\n".encode("latin-1")
    with pytest.raises(DatasetError, match=r"not UTF-8 text \(line 2, byte 4\)"):
        detect("eval.csv", data)
    lines = "Où est la gare ?\nÇa va.\nTrès bien.\n".encode("cp1252")
    with pytest.raises(DatasetError, match=r"not UTF-8 text \(line 1, byte 2, and most of its first lines\)"):
        detect("prompts.txt", lines)


def test_a_line_that_is_not_utf8_is_reported_with_its_line_never_replaced():
    data = "hello world\nOù est la gare ?\nhi\n".encode()
    data = data.replace("Où".encode(), "Où".encode("latin-1"))  # one line saved in Latin-1
    d = detect("prompts.txt", data)
    assert d.problems == (
        "Line 2 is not UTF-8 text (byte 2): it will be listed as an error. Save the file as UTF-8.",
    )
    result = count_dataset(data, ["o200k_base"], name="prompts.txt", engine="local")
    assert result.rows == 2 and [e.text() for e in result.errors] == [
        "line 2: not UTF-8 text (byte 2 of the line)"
    ]
    # in a Batch file, the same: the line, and the byte
    batch = jsonl(batch_lines(3)).split(b"\n")
    batch[1] = batch[1].replace(b"Summarise", b"R\xe9sum\xe9")
    result = count_dataset(b"\n".join(batch), ["gpt-4o"], name="batch.jsonl", engine="local")
    assert result.rows == 2 and [e.line for e in result.errors] == [2]
    assert "not UTF-8 text" in result.errors[0].text()


def test_tasks_keep_line_numbers_after_a_long_first_line_and_a_bom():
    data = b"\xef\xbb\xbf" + b"x" * 3_000_000 + b"\nshort\nlast\n"
    tasks = list(jsonl_tasks(data, shape="list", chunk_bytes=1_000_000, block=1 << 16))
    lines = [(t.first_line, t.data.count(b"\n")) for t in tasks]
    assert lines[0] == (1, 1) and sum(n for _, n in lines) == 3
    assert not tasks[0].data.startswith(b"\xef\xbb\xbf")


def test_a_table_not_utf8_past_its_first_lines_is_a_sentence():
    rows = ["id,text"] + [f"{i},hello number {i}" for i in range(30_000)] + ["x,Ça va"]
    data = ("\n".join(rows) + "\n").encode().replace("Ça".encode(), "Ça".encode("latin-1"))
    assert detect("eval.csv", data).shape == "csv"  # the first lines are UTF-8
    with pytest.raises(
        DatasetError, match="eval.csv is not UTF-8 text past its first lines: save it as UTF-8"
    ):
        count_dataset(data, ["o200k_base"], name="eval.csv", engine="local")
