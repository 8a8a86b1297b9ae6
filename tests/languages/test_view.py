"""One language's tokens as HTML: escaped text, direction and language attributes, cut vowel signs."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from tests.conftest import builtin
from tests.languages.conftest import by_code
from tokenizer_core.languages import split_marks
from tokenizer_core.languages.view import language_tokens_html


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.append(dict(attrs))

    def handle_data(self, data):
        self.text.append(data)


@pytest.mark.parametrize(
    "attack", ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", '"><svg onload=alert(1)>']
)
def test_tokens_html_escapes_text_and_sets_direction(attack):
    tok = builtin("o200k_base")
    text = f"مرحبا {attack}"
    out = language_tokens_html(tok.segments(text), direction="rtl", lang="ar")
    p = _Tags()
    p.feed(out)
    assert set(p.tags) == {"div", "span"}
    assert p.attrs[0]["dir"] == "rtl" and p.attrs[0]["lang"] == "ar"
    assert "".join(p.text) == text


def test_tokens_html_rejects_odd_direction_and_lang():
    out = language_tokens_html([], direction='rtl" onclick="x', lang='en" onclick="x')
    assert out.startswith('<div class="tw-lang" dir="auto" style')
    assert "onclick" not in out


def test_split_marks_counts_vowel_signs_cut_from_their_letter(sample):
    hi = by_code(sample, "hi")[0].text
    # GPT-2's byte-level vocabulary has few Devanagari pieces: signs end up in their own tokens
    assert split_marks(builtin("r50k_base").segments(hi)) > 0
    assert split_marks(builtin("o200k_base").segments("Thank you")) == 0
    assert split_marks([]) == 0
