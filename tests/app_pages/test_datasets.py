"""The Datasets page, headless (AppTest): each shape uploaded as bytes and counted, the figures
shown equal to the notebook API's for the same bytes, cancel, downloads, hostile files, and the
result kept across pages."""

from __future__ import annotations

import io
import threading
import zipfile

import pytest

from tests.conftest import ok
from tests.datasets.samples import batch_lines, csv_bytes, finetune_lines, jsonl, parquet_bytes, repo_zip
from tokenizer_core.datasets import CountProgress, DatasetCancelled, count_dataset

MODELS = ["gpt-4o", "llama-3.1-8b"]
PAGE = "app_pages/datasets.py"


PAGE_STATE = {"datasets_models": MODELS}


def upload(at, name: str, data: bytes):
    at.file_uploader(key="datasets_file").upload(name, data, "application/octet-stream")
    return ok(at.run())


def count(at):
    ok(at.button(key="datasets_count").click().run())
    job = at.session_state["datasets_job"]
    assert job.wait(180), "the count did not end"
    return ok(at.run())


def summary(at) -> dict[str, dict]:
    (frame,) = [d.value for d in at.dataframe if "Total tokens" in d.value.columns]
    frame = frame.astype(object).where(frame.notna(), None)  # an unknown figure (NaN) is None
    return {row["Model"]: row for row in frame.to_dict("records")}


def messages(at) -> list[str]:
    return [e.value for e in at.error] + [w.value for w in at.warning] + [i.value for i in at.info]


SHAPES = [
    pytest.param("batch.jsonl", jsonl(batch_lines(12)), "batch", {}, id="batch"),
    pytest.param("train.jsonl", jsonl(finetune_lines(10)), "finetune", {}, id="finetune"),
    pytest.param(
        "eval.csv", csv_bytes(), "csv", {"columns": ["question", "answer"], "id_column": "id"}, id="csv"
    ),
    pytest.param(
        "eval.parquet", parquet_bytes(), "parquet", {"columns": ["prompt"], "id_column": "id"}, id="parquet"
    ),
    pytest.param("proj.zip", repo_zip(), "repository", {}, id="repository"),
]


@pytest.mark.parametrize(("name", "data", "shape", "options"), SHAPES)
def test_each_shape_is_detected_and_counted_as_the_api_counts_it(page, name, data, shape, options):
    upload(page, name, data)
    assert page.selectbox(key="datasets_shape").value == shape
    count(page)
    expected = count_dataset(data, MODELS, name=name, engine="local", **options)
    shown = summary(page)
    assert page.subheader[0].value.startswith(f"{expected.rows:,} ")
    for m in expected.models:
        row = shown[m.name]
        assert (row["Rows"], row["Total tokens"], row["Min"], row["Max"]) == (m.rows, m.total, m.min, m.max)
        assert row["Median"] == round(m.median, 1) and row["p99"] == round(m.p99, 1)
    assert len(page.get("download_button")) == 3
    assert all(b.proto.ignore_rerun for b in page.get("download_button"))  # see test_downloads.py
    if shape == "repository":
        assert any("files skipped" in e.label for e in page.expander)
        assert any(c.proto.spec and "x0" in c.proto.spec for c in page.get("vega_lite_chart"))


def test_a_pasted_list_is_counted_one_text_a_line(page):
    ok(page.segmented_control(key="datasets_source").set_value("paste").run())
    ok(page.text_area(key="datasets_paste").input("hello world\nhello\n").run())
    count(page)
    assert summary(page)["GPT-4o"]["Total tokens"] == 3  # o200k: "hello world" 2, "hello" 1


def test_the_fine_tuning_figures_are_shown(page):
    data = jsonl(finetune_lines(10))
    upload(page, "train.jsonl", data)
    count(page)
    ft = count_dataset(data, MODELS, name="train.jsonl", engine="local").model("gpt-4o").fine_tuning
    shown = {m.label: m.value for m in page.metric}
    assert shown["Epochs"] == f"{ft.epochs:,}" == "10"  # OpenAI's rule: 10 examples x 3 < 100 -> 100 // 10
    assert shown["Billed training tokens"] == f"{ft.billed_tokens:,}"
    assert any(f"{ft.weight0_messages:,} assistant messages have weight 0" in c.value for c in page.caption)
    ok(page.number_input(key="datasets_epochs").set_value(2).run())
    shown = {m.label: m.value for m in page.metric}
    assert shown["Billed training tokens"] == f"{ft.billed_tokens_per_epoch * 2:,}"


def test_a_budget_lists_the_rows_over_it_with_their_ids(page):
    data = jsonl(batch_lines(12))
    upload(page, "batch.jsonl", data)
    ok(page.number_input(key="datasets_budget").set_value(60).run())
    count(page)
    m = count_dataset(data, MODELS, name="batch.jsonl", engine="local", budget=60).model("gpt-4o")
    assert m.over > 0 and summary(page)["GPT-4o"]["Over the limit"] == m.over
    over = [d.value for d in page.dataframe if "Row" in d.value.columns][0]  # the first: rows over the limit
    ids = set(over["Row"])
    assert ids == {r.id for r in m.over_rows}


def test_cancel_stops_the_count(page, monkeypatch):
    """A count that runs until cancelled: the page shows its progress and a Cancel button."""
    import ui.datasets.job as job_module

    started = threading.Event()

    def slow(data, models, *, progress, cancel, **options):
        progress(CountProgress(0.25, 1000, "1,000 rows counted"))
        started.set()
        if cancel.wait(60):
            raise DatasetCancelled("The count was cancelled.")
        raise AssertionError("never cancelled")

    monkeypatch.setattr(job_module, "count_dataset", slow)
    upload(page, "batch.jsonl", jsonl(batch_lines(12)))
    ok(page.button(key="datasets_count").click().run())
    assert started.wait(10)
    assert page.button(key="datasets_cancel")
    assert "1,000 of about 4,000 rows" in page.get("progress")[0].proto.text
    ok(page.button(key="datasets_cancel").click().run())
    job = page.session_state["datasets_job"]
    assert job.wait(10) and job.cancelled
    ok(page.run())
    assert any("Cancelled" in m for m in messages(page))
    assert not page.get("download_button")


def _zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in entries.items():
            z.writestr(n, d)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        pytest.param(
            "repo.zip",
            _zip({"repo/a.py": b"x = 1\n", "../evil.py": b"import os\n"}),
            "points outside the archive",
            id="traversal",
        ),  # fmt: skip
        pytest.param("repo.zip", _zip({"repo/zeros.txt": b"\x00" * 40_000_000}), "zip bomb", id="zip-bomb"),
        pytest.param(
            "repo.zip", b"PK\x03\x04 not really a zip", "could not be read as a zip archive", id="damaged"
        ),
        pytest.param(
            "data.jsonl", b"PK\x03\x04\x14\x00\x00\x00", "looks like an archive", id="archive-as-jsonl"
        ),
    ],
)
def test_a_hostile_file_gets_a_sentence_not_a_traceback(page, name, data, said):
    upload(page, name, data)
    assert any(said in e.value for e in page.error), messages(page)
    assert not page.get("download_button")


def test_malformed_and_non_utf8_lines_are_errors_with_their_lines(page):
    rows = [*(jsonl(batch_lines(3)).decode().splitlines())]
    data = (
        "\n".join([rows[0], "{not json", rows[1]]).encode()
        + b"\n\xff\xfe broken\n"
        + rows[2].encode()
        + b"\n"
    )
    upload(page, "batch.jsonl", data)
    count(page)
    expected = count_dataset(data, MODELS, name="batch.jsonl", engine="local")
    assert expected.error_count == 2
    # OpenAI refuses a file with a line that is not JSON: the verdict lists them, with their lines
    assert "OpenAI would reject it: 2 problems" in page.error[0].value
    (problems,) = [e for e in page.expander if e.label.startswith("The problems")]
    assert problems.label == "The problems (2)"
    text = problems.markdown[0].value
    assert "line 2" in text and "line 4" in text
    assert summary(page)["GPT-4o"]["Rows"] == 3


def test_the_result_and_settings_stay_after_another_page(page):
    upload(page, "batch.jsonl", jsonl(batch_lines(12)))
    ok(page.number_input(key="datasets_tpm").set_value(30_000).run())
    count(page)
    before = summary(page)
    ok(page.switch_page("app_pages/chunks.py").run())
    ok(page.switch_page(PAGE).run())
    assert page.number_input(key="datasets_tpm").value == 30_000
    assert summary(page) == before
    assert any("drop it again" in c.value for c in page.caption)


def _png_url(width: int, height: int) -> str:
    import base64

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (10, 120, 200)).save(buf, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def vision_lines() -> list[dict]:
    lines = batch_lines(4)
    for ln in lines:
        ln["body"]["model"] = "gpt-4o"
        user = ln["body"]["messages"][1]
        user["content"] = [{"type": "text", "text": user["content"]},
                           {"type": "image_url", "image_url": {"url": _png_url(1024, 1024), "detail": "high"}}]  # fmt: skip
    return lines


def test_a_vision_file_counts_its_images_and_preselects_its_model(page):
    data = jsonl(vision_lines())
    upload(page, "vision.jsonl", data)
    toggle = page.toggle(key="datasets_file_models")
    assert toggle.value and "GPT-4o" in toggle.label
    count(page)
    shown = summary(page)
    # OpenAI's vision guide: a 1024 x 1024 image at high detail is 765 tokens for gpt-4o
    assert shown["GPT-4o"]["Image tokens"] == 4 * 765 and shown["GPT-4o"]["In the file"] is True
    assert "OpenAI would accept this file" in page.success[0].value
    costs = [d.value for d in page.dataframe if "Ceiling (standard)" in d.value.columns][0]
    assert set(costs.columns) >= {"Expected (standard)", "Expected (batch)", "Ceiling (batch)", "Price"}


def test_an_embeddings_file_is_counted_input_by_input(page):
    lines = [{"custom_id": f"e{i}", "method": "POST", "url": "/v1/embeddings",
              "body": {"model": "text-embedding-3-small", "input": ["first text", "second text"]}}
             for i in range(3)]  # fmt: skip
    data = jsonl(lines)
    upload(page, "embed.jsonl", data)
    count(page)
    expected = count_dataset(data, ["text-embedding-3-small"], name="embed.jsonl", engine="local")
    shown = summary(page)["text-embedding-3-small"]
    assert shown["Total tokens"] == expected.model("text-embedding-3-small").total
    assert "OpenAI would accept this file" in page.success[0].value


def test_a_rejected_file_says_so_before_any_cost(page):
    lines = batch_lines(6)
    lines[2]["custom_id"] = lines[0]["custom_id"]
    lines[4]["body"]["model"] = "gpt-4.1"
    upload(page, "bad.jsonl", jsonl(lines))
    count(page)
    assert page.error[0].value.startswith("**OpenAI would reject it: 3 problems")
    (problems,) = [e for e in page.expander if e.label.startswith("The problems")]
    text = problems.markdown[0].value.replace("\\", "")  # markdown escapes
    assert "line 3 (request-1): its id repeats line 1's" in text
    assert "line 5 (request-5): its model is gpt-4.1" in text


def test_a_reload_during_a_count_stops_it_at_once_and_says_what_was_lost(page, monkeypatch):
    """The tab's saved work brings the running count's token to the new session, which stops that
    count at once and says the dropped file is not kept; after a finished count it says so too."""
    from streamlit.testing.v1 import AppTest

    import ui.datasets.job as job_module
    from tests.conftest import ENTRY

    started = threading.Event()

    def slow(data, models, *, progress, cancel, **options):
        started.set()
        if cancel.wait(60):
            raise DatasetCancelled("The count was cancelled.")
        raise AssertionError("never cancelled")

    monkeypatch.setattr(job_module, "count_dataset", slow)
    upload(page, "batch.jsonl", jsonl(batch_lines(12)))
    ok(page.button(key="datasets_count").click().run())
    assert started.wait(10)
    old = page.session_state["datasets_job"]
    kept = page.session_state["datasets_last"]  # what the browser keeps for this page
    assert kept["name"] == "batch.jsonl" and not old.done()

    reloaded = AppTest.from_file(ENTRY, default_timeout=60)
    reloaded.session_state["datasets_last"] = dict(kept)  # the saved work, back in the new session
    ok(reloaded.switch_page(PAGE).run())
    assert old.wait(10) and old.cancelled
    (warning,) = [w.value for w in reloaded.warning if "reloaded" in w.value]
    assert "batch.jsonl was being counted: that count is stopped" in warning

    again = AppTest.from_file(ENTRY, default_timeout=60)
    again.session_state["datasets_last"] = dict(kept)
    ok(again.switch_page(PAGE).run())
    assert any("batch.jsonl, and its count are not kept across a reload" in w.value for w in again.warning)
