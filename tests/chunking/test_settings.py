"""The chunker's settings: strategy, size and overlap checked with clear messages."""

from __future__ import annotations

import pytest

from tests.conftest import builtin
from tokenizer_core import ChunkSettingsError, chunk_text
from tokenizer_core.chunking import overlap_tokens, validate_settings
from tokenizer_core.chunking.settings import overlap_from_percent


@pytest.fixture
def cl100k():
    return builtin("cl100k_base")


@pytest.mark.parametrize(
    ("size", "overlap", "message"),
    [
        (0, 0, "at least 1 token"),
        (-5, 0, "at least 1 token"),
        (10**9, 0, "above the 1,000,000-token maximum"),
        (100, -1, "cannot be negative"),
        (100, 100, "must be smaller than the chunk size"),
        (100, 250, "Use at most 99 tokens"),
    ],
)
def test_bad_settings_have_clear_messages(cl100k, size, overlap, message):
    with pytest.raises(ChunkSettingsError, match=message):
        validate_settings(strategy="tokens", size=size, overlap=overlap)
    with pytest.raises(ChunkSettingsError):
        chunk_text("some text", cl100k, strategy="tokens", size=size, overlap=overlap)


def test_unknown_strategy_and_non_integers():
    with pytest.raises(ChunkSettingsError, match="Unknown strategy"):
        validate_settings(strategy="magic", size=10, overlap=0)
    with pytest.raises(ChunkSettingsError, match="whole number"):
        validate_settings(strategy="tokens", size=10.5, overlap=0)


def test_overlap_from_percent():
    assert overlap_from_percent(512, 10) == 51
    assert overlap_from_percent(512, 0) == 0
    assert overlap_from_percent(1, 50) == 0  # never as large as the chunk
    assert overlap_from_percent(10, 99.9) == 9
    for bad in (100, 150, -1):
        with pytest.raises(ChunkSettingsError, match="less than 100%"):
            overlap_from_percent(512, bad)


def test_overlap_in_tokens_or_percent():
    assert overlap_tokens(200, unit="%", value=10) == 20
    assert overlap_tokens(200, unit="tokens", value=16.0) == 16
