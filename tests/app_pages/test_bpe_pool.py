"""The BPE page with training sent to the worker pool (as for a large corpus): same results."""

from __future__ import annotations

import pytest

from tests.conftest import open_app


@pytest.fixture
def pooled(monkeypatch):
    monkeypatch.setenv("TW_BPE_IN_PROCESS_MAX_CHARS", "0")  # every corpus goes to the pool
    monkeypatch.setenv("TW_WORKERS", "1")
    at = open_app("app_pages/bpe.py")
    assert not at.exception, at.exception
    return at


def _metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_training_in_a_worker_gives_the_same_model(pooled):
    at = pooled
    assert _metric(at, "Merges learned") == "12"  # seed 002, as in test_page_bpe
    assert "**Merge 1:** `o` + `a` → `oa`" in "\n".join(m.value for m in at.markdown)
    at.number_input(key="bpe_merges").set_value(5).run()
    at.button(key="bpe_train").click().run()
    assert not at.exception and not at.error
    assert _metric(at, "Merges learned") == "5"


def test_an_error_in_the_worker_is_shown_in_words(pooled):
    at = pooled
    at.radio(key="bpe_format").set_value("counts").run()
    at.text_area(key="bpe_corpus_text").input("low 5\nlower two\n").run()
    at.button(key="bpe_train").click().run()
    assert not at.exception
    assert any(e.value.startswith("Training failed: Line 2") for e in at.error), [e.value for e in at.error]
