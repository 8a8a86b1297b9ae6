"""Which sets "auto" counts in the calling process (in the app: the server every session shares)."""

from __future__ import annotations

from tests.datasets.samples import batch_lines, jsonl
from tokenizer_core.datasets import detect
from tokenizer_core.datasets.api import SMALL_BYTES, SMALL_CHAT_BYTES, _plan

ARCHIVE = {"honour_gitignore": True, "skip_vendored": True, "skip_locks": True}


def _small(name: str, data: bytes) -> bool:
    det = detect(name, data)
    return _plan(name, data, det, len(data), text_field=None, id_field=None, columns=None, id_column=None,
                 chunk_bytes=4_000_000, archive=ARCHIVE).small  # fmt: skip


def test_chat_requests_leave_the_server_long_before_text_lines_do():
    """Chat rows are rendered per model in Python: 1 MB of them is seconds of work, so it goes to
    the workers; 1 MB of text lines is counted in batches by the native engines, here."""
    rows = batch_lines(12)
    chat = jsonl(rows * (1_000_000 // len(jsonl(rows)) + 1))
    assert detect("b.jsonl", chat).shape == "batch" and len(chat) > SMALL_CHAT_BYTES
    assert not _small("b.jsonl", chat)
    assert _small("b.jsonl", jsonl(rows))  # a few requests: here
    text = b"".join(b'{"text": "one line of text to count"}\n' for _ in range(25_000))
    assert SMALL_CHAT_BYTES < len(text) <= SMALL_BYTES
    assert _small("t.jsonl", text)


def test_a_failed_scheduler_handshake_is_tried_once_more():
    """distributed's handshake can fail its own check of the scheduler's first reply on a loaded
    machine (an AssertionError, seen in this project's CI): the engine connects once more."""
    from tokenizer_core.datasets.engine import _connect

    calls = []

    class Flaky:
        def __init__(self, address, *, timeout, set_as_default):
            calls.append(address)
            if len(calls) == 1:
                raise AssertionError

    assert isinstance(_connect(Flaky, "tcp://127.0.0.1:1"), Flaky) and len(calls) == 2

    class Broken:
        def __init__(self, address, *, timeout, set_as_default):
            raise AssertionError

    import pytest

    with pytest.raises(TimeoutError):
        _connect(Broken, "tcp://127.0.0.1:1")
