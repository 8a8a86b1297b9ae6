"""The data of the language comparison: a language's text, one measured row, the error type."""

from __future__ import annotations

from dataclasses import dataclass

from ..tokenizers.textio import InputError


class LanguageError(InputError):
    """Language texts the app cannot compare; the message says how to fix them."""


@dataclass(frozen=True, slots=True)
class Language:
    """One language's version of the parallel text, with what is needed to measure it.

    `whitespace_words` is False for scripts written without spaces between words (Chinese,
    Japanese, Thai, Burmese...): they get no word count. `direction` is "ltr", "rtl" or "auto".
    """

    code: str
    name: str
    script: str
    text: str
    whitespace_words: bool = True
    direction: str = "ltr"
    native_name: str = ""
    words_note: str = ""
    script_code: str = ""


@dataclass(frozen=True, slots=True)
class LanguageRow:
    """One language under one tokenizer. `premium` is relative to `base_code` (exactly 1.0 there)."""

    code: str
    language: str
    script: str
    tokenizer_id: str
    tokenizer: str
    tokens: int
    characters: int
    utf8_bytes: int
    words: int | None
    chars_per_token: float | None
    bytes_per_token: float | None
    tokens_per_word: float | None
    premium: float | None
    base_code: str
    base_tokens: int
    is_base: bool
    words_note: str = ""
