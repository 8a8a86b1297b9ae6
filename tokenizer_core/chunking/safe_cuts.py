"""Safe cuts: the places where token counts on both sides of a cut add up exactly.

Token counts are not additive: ``count(a + b)`` may differ from ``count(a) + count(b)`` when a
token could span the join. So every chunk's count is the tokenizer's own count of that chunk's
text. The one shortcut used is the rule the encoders already rely on
(:func:`tokenizer_core.tokenizers.encoders.split_for_batch`): for a "newline-safe" tokenizer, a cut right
after ``\\n`` and before an ASCII letter never falls inside a pre-token, so the counts on both
sides of such a cut do add up exactly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from ..tokenizers import patterns
from ..tokenizers.encoders import SAFE_CUT, RemoteTokenizer, TiktokenTokenizer, Tokenizer
from ..tokenizers.hf_engine import HFTokenizer

_NEWLINE_LETTER = re.compile(r"\n(?=[A-Za-z])")

# Patterns whose newline alternative (``\s*[\r\n]``...) takes a whole run of newlines and
# blank-line spaces, and whose word alternatives never start with \r or \n. For them a cut
# after ANY newline, before an ASCII letter, is safe (a blank line between paragraphs
# included). GPT-2's r50k/p50k pattern splits "\n\nA" as "\n", "\n", "A" but "\n\n" alone as
# one piece, so it only gets the package-wide rule (the newline must follow a non-space).
_NEWLINE_RUN_PATTERNS = frozenset(
    {patterns.CL100K, patterns.O200K, patterns.LLAMA3, patterns.QWEN, patterns.TEKKEN}
)


def cut_rule(tokenizer: Tokenizer) -> str | None:
    """Where counts of `tokenizer` add up across a cut, as used by :func:`is_safe_cut`.

    "newline" (after any newline, before an ASCII letter) for the GPT-4-style patterns,
    "lone-newline" (the package rule of split_for_batch) for other newline-safe tiktoken
    encodings and newline-safe Hugging Face built-ins (DeepSeek V4, checked by a property test),
    None (nowhere) for anything else.
    """
    if isinstance(tokenizer, RemoteTokenizer):  # a user's upload in its own process: its real one's rule
        return tokenizer.cut_rule
    if isinstance(tokenizer, HFTokenizer):
        return "lone-newline" if tokenizer.newline_safe else None
    if not (isinstance(tokenizer, TiktokenTokenizer) and tokenizer.newline_safe):
        return None
    return "newline" if tokenizer.pattern in _NEWLINE_RUN_PATTERNS else "lone-newline"


def is_safe_cut(text: str, pos: int, rule: str | None = "lone-newline") -> bool:
    """True if counts add up across a cut at `pos` under `rule` (see :func:`cut_rule`).

    ``is_safe_cut("a\nb", 2) -> True``; ``is_safe_cut("a\n\nb", 3) -> False`` but
    ``is_safe_cut("a\n\nb", 3, "newline") -> True``.
    """
    if rule is None or not 0 < pos < len(text):
        return False
    if rule == "newline":
        return text[pos - 1] == "\n" and text[pos] < "\x80" and text[pos].isalpha()
    return SAFE_CUT.match(text, pos) is not None


def safe_cuts(
    text: str, start: int = 0, end: int | None = None, rule: str | None = "lone-newline"
) -> list[int]:
    """All safe cuts strictly inside ``(start, end)``: ``("a\nb\n\nc", 0) -> [2]``."""
    end = len(text) if end is None else end
    return [
        m.end() for m in _NEWLINE_LETTER.finditer(text, start, end)
        if start < m.end() < end and is_safe_cut(text, m.end(), rule)
    ]  # fmt: skip


def first_safe_cut(text: str, start: int, end: int, rule: str | None = "lone-newline") -> int | None:
    """The first safe cut strictly inside ``(start, end)``, or None: ``("a\nb", 0, 3) -> 2``."""
    for m in _NEWLINE_LETTER.finditer(text, start, end):
        if start < m.end() < end and is_safe_cut(text, m.end(), rule):
            return m.end()
    return None


def last_safe_cut(text: str, start: int, end: int, rule: str | None = "lone-newline") -> int | None:
    """The last safe cut strictly inside ``(start, end)``, or None: ``("a\nb\nc", 0, 5) -> 4``."""
    q = text.rfind("\n", start, end - 1)
    while q >= start:
        if q + 1 > start and is_safe_cut(text, q + 1, rule):
            return q + 1
        q = text.rfind("\n", start, q)
    return None


class SafeCutSet:
    """The safe cuts of one text (plus its two ends) for fast membership tests.

    ``SafeCutSet("ab\nCd", "newline").contains([0, 2, 3]) -> [True, False, True]``.
    """

    def __init__(self, text: str, rule: str | None) -> None:
        cuts = safe_cuts(text, rule=rule) if rule else []
        self.positions = np.asarray([0, *cuts, len(text)], dtype=np.int64)

    def contains(self, offsets: Sequence[int] | np.ndarray) -> np.ndarray:
        offsets = np.asarray(offsets, dtype=np.int64)
        k = np.minimum(np.searchsorted(self.positions, offsets), len(self.positions) - 1)
        return self.positions[k] == offsets
