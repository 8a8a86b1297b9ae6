"""Why premiums differ: the three measures come from the texts and the real tokenizers."""

from __future__ import annotations

from tests.conftest import builtin
from tokenizer_core.languages import Language
from tokenizer_core.languages.why import premium_reasons, why_sentence

EN = Language("en", "English", "Latin", "The password was reset. Please set a new one.")
HI = Language("hi", "Hindi", "Devanagari", "पासवर्ड रीसेट कर दिया गया। कृपया नया पासवर्ड सेट करें।")


def test_measures_are_the_texts_and_the_tokenizers():
    toks = [builtin("cl100k_base"), builtin("gemma3")]
    rows = premium_reasons([EN, HI], toks, base="en")
    assert [(r.tokenizer_id, r.code) for r in rows] == [
        ("cl100k_base", "en"), ("cl100k_base", "hi"), ("gemma3", "en"), ("gemma3", "hi"),
    ]  # fmt: skip
    for r in rows:
        lang, tok = {"en": EN, "hi": HI}[r.code], builtin(r.tokenizer_id)
        assert r.tokens == tok.count(lang.text)
        assert r.bytes_per_char == len(lang.text.encode()) / len(lang.text)
        assert r.premium == tok.count(lang.text) / tok.count(EN.text)


def test_hindi_takes_three_bytes_a_letter_and_shorter_pieces():
    """Devanagari (U+0900-U+097F) is 3 bytes per character in UTF-8; English letters 1."""
    en, hi = premium_reasons([EN, HI], [builtin("cl100k_base")], base="en")
    assert en.bytes_per_char == 1.0 and hi.bytes_per_char > 2.5
    assert hi.chars_per_token < en.chars_per_token and hi.byte_piece_chars > 0 and en.byte_piece_chars == 0
    sentence = why_sentence(hi, en)
    assert sentence.startswith(f"Hindi costs {hi.premium:.1f}× English")
    assert "byte pieces" in sentence and "fewer long pieces" in sentence
