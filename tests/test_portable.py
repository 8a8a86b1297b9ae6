"""A user's own tokenizer sent to a worker process: rebuilt there, it counts exactly as it does
here, and the name the user gave it stays in their session."""

from __future__ import annotations

import pickle

import pytest

from tests.tokenizers.test_encoders import R50K_BYTES, _hf_json
from tests.ui.test_session_tokenizers import OWN
from tokenizer_core import count_table, load_builtin
from tokenizer_core.jobs import JobPool
from tokenizer_core.portable import portable, portable_all, rebuild
from tokenizer_core.tasks import chunk_task, count_table_task

TEXT = "Tokens cost money. 東京 ☕ <|endoftext|> déjà vu\n\n lower newest widest  \t x" * 30


@pytest.fixture(scope="module")
def pool():
    with JobPool(workers=1, nice=0) as p:
        p.warm_up()
        yield p


def test_a_builtin_travels_as_its_id():
    assert portable(load_builtin("cl100k_base")) == "cl100k_base"


@pytest.mark.parametrize("kind", list(OWN))
def test_a_users_tokenizer_rebuilt_from_its_data_encodes_the_same(kind):
    own = OWN[kind]()
    ref = portable(own)
    assert ref is not None and ref.id == own.id
    assert own.info.name not in pickle.dumps(ref).decode("latin-1")  # the session's name stays here
    again = rebuild(pickle.loads(pickle.dumps(ref)))
    assert again.encode(TEXT) == own.encode(TEXT)
    assert again.encode(TEXT, allow_special=True) == own.encode(TEXT, allow_special=True)


@pytest.mark.parametrize("kind", list(OWN))
def test_a_users_tokenizer_counts_in_a_worker_as_in_process(pool, kind):
    own = OWN[kind]()
    refs = portable_all([load_builtin("o200k_base"), own])
    rows = pool.submit(count_table_task, TEXT, refs, context_window=8192, allow_special=False).result(
        timeout=120
    )
    here = count_table(TEXT, [load_builtin("o200k_base"), own], context_window=8192)
    assert [(r.tokenizer_id, r.tokens, r.characters) for r in rows] == [
        (r.tokenizer_id, r.tokens, r.characters) for r in here
    ]


def test_independent_counts_of_the_uploaded_files_in_a_worker(pool):
    """The worker's counts against the engines used directly (not through our wrappers)."""
    import tokenizers

    from tokenizer_core import tokenizer_from_hf_json, tokenizer_from_tiktoken_bytes

    tik = tokenizer_from_tiktoken_bytes(R50K_BYTES, name="my gpt2", pattern_id="r50k")
    data = _hf_json()
    hf = tokenizer_from_hf_json(data, name="tiny hf")
    rows = pool.submit(
        count_table_task, TEXT, portable_all([tik, hf]), context_window=1, allow_special=False
    ).result(timeout=120)
    r50k = load_builtin("r50k_base").encoding  # the built-in GPT-2 vocabulary, loaded on its own
    direct_hf = tokenizers.Tokenizer.from_str(data.decode())
    direct_hf.encode_special_tokens = True  # special-token text counted as text, as the counter does
    assert [r.tokens for r in rows] == [
        len(r50k.encode_ordinary(TEXT)),
        len(direct_hf.encode(TEXT, add_special_tokens=False).ids),
    ]


def test_a_users_tokenizer_chunks_in_a_worker_as_in_process(pool):
    from tokenizer_core import chunk_text

    own = OWN["tiktoken"]()
    doc = TEXT * 5
    there = pool.submit(chunk_task, doc, portable(own), "markdown", 64, 8).result(timeout=120)
    here = chunk_text(doc, own, strategy="markdown", size=64, overlap=8)
    assert [(c.start, c.end, c.tokens) for c in there.chunks] == [
        (c.start, c.end, c.tokens) for c in here.chunks
    ]
