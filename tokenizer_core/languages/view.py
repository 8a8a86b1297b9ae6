"""Escaped HTML of one language's tokens, in the direction its script runs."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

import regex

from ..tokenizers.render import segments_html
from ..tokenizers.segments import Segment


def split_marks(segments: Sequence[Segment]) -> int:
    """How many segments start with a combining mark, i.e. a token boundary cut a vowel sign or
    accent from its letter (the browser then draws it on a dotted circle ◌).

    ``split_marks(load_builtin("r50k_base").segments("नमस्ते"))`` is > 0; ``split_marks([]) -> 0``.
    """
    return sum(1 for s in segments if s.text and unicodedata.category(s.text[0]).startswith("M"))


_DIRECTIONS = ("ltr", "rtl", "auto")


def language_tokens_html(
    segments: Sequence[Segment],
    *,
    direction: str = "auto",
    lang: str = "",
    show_whitespace: bool = False,
) -> str:
    """Coloured tokens (segments_html, all text escaped) inside a `<div dir=... lang=...>`, so
    Arabic, Hebrew, Persian and Urdu read right to left. Unknown directions become "auto".

    ``language_tokens_html([], direction="rtl", lang="ar")`` starts with ``<div dir="rtl" lang="ar"``.
    """
    d = direction if direction in _DIRECTIONS else "auto"
    attrs = f'dir="{d}"'
    if lang and regex.fullmatch(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*", lang):
        attrs += f' lang="{html.escape(lang, quote=True)}"'
    inner = segments_html(segments, show_whitespace=show_whitespace)
    return f'<div class="tw-lang" {attrs} style="text-align:start">{inner}</div>'
