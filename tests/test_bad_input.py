"""Bad input gets a clear message, never a traceback."""

from __future__ import annotations

import json

import pytest

from tests.conftest import open_app
from tokenizer_core import BPEError, load_bpe_model
from tokenizer_core.bpe.io import FORMAT
from tokenizer_core.bpe.model import parse_word_counts


def _model(merges: list, **extra) -> str:
    doc = {
        "format": FORMAT, "version": 1,
        "options": {"symbols": "chars", "end_marker": "", "pretokenizer": "whitespace"},
        "start_symbols": ["a", "b"], "merges": merges, **extra,
    }  # fmt: skip
    return json.dumps(doc)


# ----------------------------------------------------------------------------- item 4


def test_a_word_count_too_large_for_a_table_is_refused_with_the_line():
    with pytest.raises(BPEError, match=r"line 2: .*more than 1,000,000,000,000"):
        parse_word_counts("low 5\nlower " + "1" + "0" * 23)
    with pytest.raises(BPEError, match="line 3"):  # repeated words add up
        parse_word_counts("a 999999999999\nb 1\na 2")
    assert parse_word_counts("low 1000000000000") == {"low": 10**12}


@pytest.mark.parametrize("row", [["a", "b", 10**30, 5], ["a", "b", 5, 10**30]])
def test_a_saved_model_with_a_huge_count_is_refused(row):
    assert load_bpe_model(_model([["a", "b", 5, 5]])).steps[0].count == 5
    with pytest.raises(BPEError, match="merge 1: the (count|corpus tokens) 1e\\+30 is above"):
        load_bpe_model(_model([row]))


def test_a_deeply_nested_file_is_a_bpe_error_not_a_recursion_error():
    with pytest.raises(BPEError, match="nests lists or objects"):
        load_bpe_model("[" * 100_000)
    with pytest.raises(BPEError, match="nests lists or objects"):
        load_bpe_model(b'{"merges": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def test_bpe_page_word_counts_of_ten_to_the_23_give_a_message():
    at = open_app("app_pages/bpe.py")
    at.radio(key="bpe_format").set_value("counts").run()
    at.text_area(key="bpe_corpus_text").input("low 5\nlower 100000000000000000000000").run()
    at.button(key="bpe_train").click().run()
    assert not at.exception, at.exception
    assert any("Line 2" in e.value and "1,000,000,000,000" in e.value for e in at.error)


# ----------------------------------------------------------------------------- item 5


def _captions(at) -> str:
    return "\n".join(c.value for c in at.caption).replace("\\", "")


def test_bpe_number_inputs_say_their_range_and_training_says_what_it_uses():
    at = open_app("app_pages/bpe.py")
    merges = at.number_input(key="bpe_merges")
    assert (merges.min, merges.max) == (0, 10_000)  # Streamlit refuses a value outside
    assert "0 to 10,000" in merges.label
    minfreq = at.number_input(key="bpe_minfreq")
    assert minfreq.min == 1 and "1 or more" in minfreq.label
    merges.set_value(40).run()
    assert "Trains for 40 merges" in _captions(at)
    at.radio(key="bpe_stop").set_value("vocab").run()
    vocab = at.number_input(key="bpe_vocab")
    assert (vocab.min, vocab.max) == (1, 10_000) and "1 to 10,000" in vocab.label
    vocab.set_value(300).run()
    assert "Trains for a vocabulary of 300" in _captions(at)
    assert not at.exception


# ----------------------------------------------------------------------------- item 7


def test_least_chunks_counts_the_overlap():
    from tokenizer_core.chunking import least_chunks, smallest_size

    assert least_chunks(0, size=10, overlap=0) == 0
    assert least_chunks(10, size=10, overlap=3) == 1
    assert least_chunks(100, size=10, overlap=0) == 10
    assert least_chunks(100, size=6, overlap=5) == 95  # windows [0,6) [1,7) ... [94,100)
    for tokens, overlap in [(250_000, 5), (1_000_000, 0), (123_457, 100)]:
        size = smallest_size(tokens, overlap=overlap, max_chunks=50_000)
        assert least_chunks(tokens, size=size, overlap=overlap) <= 50_000
        assert least_chunks(tokens, size=size - 1, overlap=overlap) > 50_000 or size - 1 <= overlap


def test_chunk_limit_counts_the_overlap_on_the_page():
    from tokenizer_core.chunking import long_document

    at = open_app("app_pages/chunks.py")
    at.text_area(key="chunks_text").input(long_document()).run()
    at.selectbox(key="chunks_strategy").set_value("tokens").run()
    at.number_input(key="chunks_overlap").set_value(5).run()
    at.number_input(key="chunks_size").set_value(6).run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert any("at least" in e and "less overlap" in e for e in errors), errors
    assert not [m for m in at.metric if m.label == "Chunks"]  # nothing was chunked


# ----------------------------------------------------------------------------- item 6


def _hf_variants() -> dict[str, tuple[bytes, str]]:
    from tests.tokenizers.test_encoders import _hf_json

    good = json.loads(_hf_json())
    model = good["model"]

    def variant(**change) -> bytes:
        return json.dumps({**good, **change}).encode()

    return {
        "vocab.json": (b'{"hello": 0, "world": 1}', "looks like a vocab.json"),
        "list": (b"[1, 2]", "holds a list"),
        "no model": (b'{"version": "1.0", "added_tokens": []}', 'no "model" section'),
        "model type": (variant(model={**model, "type": "Nope"}), "\"type\" 'Nope'"),
        "vocab as list": (
            variant(model={**model, "vocab": [1, 2]}),
            '"model" section is not valid: found a list',
        ),
        "bad merges": (variant(model={**model, "merges": [1]}), "each merge must be"),
        "split without pattern": (variant(pre_tokenizer={"type": "Split"}), '"pre_tokenizer" section'),
        "added tokens": (variant(added_tokens="x"), '"added_tokens" section'),
        "truncated": (_hf_json()[:500], "not valid JSON (line 1, column 500"),
    }


@pytest.mark.parametrize("case", list(_hf_variants()))
def test_a_tokenizer_json_with_the_wrong_schema_says_what_is_wrong_in_user_terms(case):
    from tokenizer_core import VocabularyError, tokenizer_from_hf_json

    data, expected = _hf_variants()[case]
    with pytest.raises(VocabularyError) as info:
        tokenizer_from_hf_json(data, name="x")
    message = str(info.value)
    assert expected in message
    for jargon in ("expected `,`", "untagged enum", "at line 1 column", "struct Tokenizer", "serde"):
        assert jargon not in message


# ----------------------------------------------------------------------------- item 8


def _cjk_corpus(n: int) -> str:
    """Chinese and Japanese sample sentences with random characters swapped in (distinct words)."""
    import random

    from tokenizer_core.languages import load_parallel_sample

    texts = [lang.text for lang in load_parallel_sample() if lang.code in ("zh", "ja")]
    chars = sorted(set("".join(texts)))
    rng = random.Random(1)
    parts, size = [], 0
    while size < n:
        t = list(rng.choice(texts))
        for _ in range(8):
            t[rng.randrange(len(t))] = rng.choice(chars)
        parts.append("".join(t))
        size += len(parts[-1])
    return "".join(parts)[:n]


def _page_bytes(at) -> int:
    """Bytes of every element the page sends (what goes over the websocket, near enough)."""
    total = 0
    stack = [at._tree]
    while stack:
        node = stack.pop()
        proto = getattr(node, "proto", None)
        if proto is not None and not hasattr(node, "children"):
            total += len(proto.SerializeToString())
        stack.extend(getattr(node, "children", {}).values())
    return total


def test_a_cjk_corpus_of_long_words_keeps_the_bpe_page_small():
    at = open_app("app_pages/bpe.py")
    at.text_area(key="bpe_corpus_text").input(_cjk_corpus(300_000)).run()
    at.button(key="bpe_train").click().run()
    assert not at.exception, at.exception
    html = sum(len(h.proto.body) for h in at.get("html"))
    assert html < 1_500_000, f"{html:,} bytes of HTML"
    at.button(key="bpe_next").click().run()
    assert _page_bytes(at) < 2_000_000


def test_text_without_spaces_has_a_lower_training_limit():
    from tokenizer_core.bpe import UNSPACED_MAX_CHARS, corpus_limit
    from tokenizer_core.bpe.limits import unspaced_share

    cjk = _cjk_corpus(UNSPACED_MAX_CHARS + 50_000)
    assert unspaced_share(cjk) > 0.9 and unspaced_share("plain English words, and 你好") < 0.3
    assert corpus_limit(cjk, max_chars=2_000_000) == UNSPACED_MAX_CHARS
    assert corpus_limit("word " * 100, max_chars=2_000_000) == 2_000_000
    at = open_app("app_pages/bpe.py")
    at.text_area(key="bpe_corpus_text").input(cjk).run()
    assert not at.exception, at.exception
    warnings = [w.value for w in at.warning]
    assert any(f"(the limit is {UNSPACED_MAX_CHARS:,}; text written without spaces" in w for w in warnings), (
        warnings
    )


def test_long_words_are_drawn_on_their_first_characters():
    from tokenizer_core import BPEOptions, train_bpe
    from tokenizer_core.bpe import bpe_words_at_step, bpe_words_html

    model = train_bpe(_cjk_corpus(20_000), BPEOptions(symbols="chars", merges=50, max_word_chars=1_000))
    long = max(len(w) for w in model.words)
    assert long > 120
    views = bpe_words_at_step(model, 50, max_word_chars=120, order="corpus")
    assert all(sum(len(s) for s, _ in v.tokens) <= 120 for v in views)
    assert any(v.cut for v in views) and not any(v.cut for v in views if len(v.word) <= 120)
    assert "…" in bpe_words_html(views)
