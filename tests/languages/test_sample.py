"""The bundled parallel sample: every required language, clean prose in its own script, honest provenance."""

from __future__ import annotations

import unicodedata

from tests.languages.conftest import by_code
from tokenizer_core.languages import parallel_sample_info
from tokenizer_core.languages.scripts import detect_script

# The languages the page compares, with the ISO 639-1 code and the writing system each uses.
REQUIRED = {
    "en": ("English", "Latn"), "es": ("Spanish", "Latn"), "fr": ("French", "Latn"),
    "de": ("German", "Latn"), "pt": ("Portuguese", "Latn"), "ru": ("Russian", "Cyrl"),
    "tr": ("Turkish", "Latn"), "ar": ("Arabic", "Arab"), "he": ("Hebrew", "Hebr"),
    "fa": ("Persian", "Arab"), "hi": ("Hindi", "Deva"), "bn": ("Bengali", "Beng"),
    "ur": ("Urdu", "Arab"), "ta": ("Tamil", "Taml"), "te": ("Telugu", "Telu"),
    "mr": ("Marathi", "Deva"), "th": ("Thai", "Thai"), "vi": ("Vietnamese", "Latn"),
    "id": ("Indonesian", "Latn"), "zh": ("Chinese (Simplified)", "Hans"), "ja": ("Japanese", "Jpan"),
    "ko": ("Korean", "Kore"), "sw": ("Swahili", "Latn"), "am": ("Amharic", "Ethi"),
    "my": ("Burmese", "Mymr"), "el": ("Greek", "Grek"),
}  # fmt: skip


NO_SPACES = {"zh", "ja", "th", "my"}  # written without spaces between words


RTL = {"ar", "he", "fa", "ur"}


def test_sample_has_every_required_language_with_code_name_and_script(sample):
    codes = [l.code for l in sample]
    assert len(codes) == len(set(codes)) >= 24
    assert set(REQUIRED) <= set(codes)
    assert codes[0] == "en"
    for lang in sample:
        name, script_code = REQUIRED[lang.code]
        assert lang.name == name
        assert lang.script_code == script_code
        assert lang.script and lang.native_name
        assert lang.direction == ("rtl" if lang.code in RTL else "ltr")
        assert lang.whitespace_words is (lang.code not in NO_SPACES)


def test_sample_texts_are_clean_nfc_prose_in_their_own_script(sample):
    for lang in sample:
        t = lang.text
        assert t == t.strip() and 100 <= len(t) <= 1_000, lang.code
        assert unicodedata.is_normalized("NFC", t), lang.code
        assert "\ufffd" not in t and "\ud800" not in t
        # the same content: the 24-hour link appears in every version
        assert "24" in t, lang.code
        if lang.code != "en":
            assert t != by_code(sample, "en")[0].text


def test_sample_script_agrees_with_the_characters(sample):
    for lang in sample:
        guess = detect_script(lang.text)
        expected = {"Hans": "Hani", "Kore": "Hang"}.get(lang.script_code, lang.script_code)
        assert guess.script_code == expected, lang.code
        assert guess.direction == lang.direction
        assert guess.whitespace_words == lang.whitespace_words


def test_persian_and_urdu_use_their_own_letters_not_arabic_yeh_and_kaf(sample):
    for lang in by_code(sample, "fa", "ur"):
        assert "\u064a" not in lang.text and "\u0643" not in lang.text  # ي ك
        assert "\u06cc" in lang.text and "\u06a9" in lang.text  # ی ک


def test_provenance_is_stated_honestly():
    info = parallel_sample_info()
    assert info.n_languages >= 24
    text = info.provenance.lower()
    assert "written for tokenizer workbench" in text
    assert "machine assistance" in text
    assert "not been reviewed by native speakers" in text
