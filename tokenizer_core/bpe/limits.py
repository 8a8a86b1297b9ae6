"""How much corpus a training run may take: less for text written without spaces.

Training time grows with the distinct text the trainer holds. Prose and code repeat their
words, so 2,000,000 characters hold a few hundred thousand characters of distinct words.
Chinese, Japanese, Thai and other scripts written without spaces between words make every
run of text one "word" (up to 1,000 characters), nearly all distinct, and every merge rewrites
many of them: measured here, the same 2,000,000-character run took about 5 times as long as
on English prose (see docs/pages.md). Such text is limited to UNSPACED_MAX_CHARS.
"""

from __future__ import annotations

import regex

UNSPACED_MAX_CHARS = 200_000
UNSPACED_SHARE = 0.3  # above this share of letters in such scripts, the lower limit applies
_UNSPACED = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Thai}\p{Lao}\p{Khmer}\p{Myanmar}\p{Tibetan}]")
_LETTER = regex.compile(r"\p{L}")


def unspaced_share(text: str, *, sample: int = 200_000) -> float:
    """Share of the letters (in the first `sample` characters) from scripts written without
    spaces between words. ``unspaced_share("你好 world") -> 2 / 7``."""
    head = text[:sample]
    letters = len(_LETTER.findall(head))
    return len(_UNSPACED.findall(head)) / letters if letters else 0.0


def corpus_limit(text: str, *, max_chars: int) -> int:
    """The most characters of `text` a run may train on: `max_chars`, or UNSPACED_MAX_CHARS
    for text mostly in scripts without spaces. ``corpus_limit("abc", max_chars=10) -> 10``."""
    if unspaced_share(text) > UNSPACED_SHARE:
        return min(max_chars, UNSPACED_MAX_CHARS)
    return max_chars


__all__ = ["UNSPACED_MAX_CHARS", "corpus_limit", "unspaced_share"]
