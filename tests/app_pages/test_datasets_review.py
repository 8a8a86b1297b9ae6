"""The Datasets page names why a model the file names is not counted: unknown, or known without a
public tokenizer (Anthropic's)."""

from __future__ import annotations

from tests.app_pages.test_datasets import PAGE, PAGE_STATE, upload  # noqa: F401  (for the shared page fixture)
from tests.datasets.samples import jsonl


def test_an_anthropic_file_says_its_model_has_no_public_tokenizer(page):  # noqa: F811
    lines = [{"custom_id": f"r{i}", "params": {"model": "claude-sonnet-4-5-20250929", "max_tokens": 64,
              "messages": [{"role": "user", "content": "hi"}]}} for i in range(3)]  # fmt: skip
    upload(page, "claude.jsonl", jsonl(lines))
    said = " ".join(c.value for c in page.caption).replace("\\", "")
    assert "claude-sonnet-4-5-20250929` (no public tokenizer" in said
    assert "not a model this app knows" not in said
