"""Why premiums differ, measured on the texts shown: bytes per character in UTF-8, how much of
a script the vocabulary holds in long pieces (characters per token), and byte fallback (the
characters that had no token of their own and were written as byte pieces).

    >>> from tokenizer_core.tokenizers import load_builtin
    >>> from tokenizer_core.languages import Language
    >>> en = Language("en", "English", "Latin", "The password was reset.")
    >>> hi = Language("hi", "Hindi", "Devanagari", "पासवर्ड रीसेट कर दिया गया।")
    >>> [r.language for r in premium_reasons([en, hi], [load_builtin("cl100k_base")], base="en")]
    ['English', 'Hindi']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer
from .language import Language

MAX_WHY_CHARS = 20_000  # each text is measured up to here


@dataclass(frozen=True, slots=True)
class PremiumReason:
    """One language under one tokenizer: the three measures behind its premium."""

    code: str
    language: str
    tokenizer_id: str
    characters: int
    tokens: int
    bytes_per_char: float
    chars_per_token: float
    byte_piece_chars: int  # characters written with byte pieces (no token of their own)
    premium: float | None

    @property
    def byte_piece_share(self) -> float:
        return self.byte_piece_chars / self.characters if self.characters else 0.0


def _whole(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def reason(language: Language, tokenizer: Tokenizer, base_tokens: int | None) -> PremiumReason:
    """The measures of one language's text under one tokenizer."""
    text = language.text[:MAX_WHY_CHARS]
    segs = tokenizer.segments(text)
    tokens = sum(len(s.ids) for s in segs)
    multi = [s for s in segs if len(s.ids) > 1]
    # one call for the bytes of every id (a user's tokenizer answers from its own process)
    wanted = sorted({i for s in multi for i in s.ids})
    whole = dict(zip(wanted, map(_whole, tokenizer.token_bytes_many(wanted))))
    split = sum(len(s.text) for s in multi if not all(whole[i] for i in s.ids))
    n = len(text)
    return PremiumReason(
        language.code, language.name, tokenizer.id, n, tokens,
        len(text.encode("utf-8")) / n if n else 0.0, n / tokens if tokens else 0.0, split,
        tokens / base_tokens if base_tokens else None,
    )  # fmt: skip


def premium_reasons(
    languages: Sequence[Language], tokenizers: Sequence[Tokenizer], *, base: str
) -> list[PremiumReason]:
    """Every language under every tokenizer (tokenizer by tokenizer, languages in order)."""
    by_code = {lang.code: lang for lang in languages}
    out: list[PremiumReason] = []
    for tok in tokenizers:
        base_lang = by_code.get(base)
        base_tokens = tok.count(base_lang.text[:MAX_WHY_CHARS]) if base_lang else None
        out.extend(reason(lang, tok, base_tokens) for lang in languages)
    return out


def why_sentence(row: PremiumReason, base: PremiumReason) -> str:
    """One sentence of why `row` costs what it does against `base`, from the measures."""
    premium = f"{row.premium:.1f}×" if row.premium is not None else "a different number of tokens than"
    parts = [
        f"{row.language} costs {premium} {base.language}",
        f"its text takes {row.bytes_per_char:.1f} bytes per character in UTF-8 ({base.language} "
        f"{base.bytes_per_char:.1f})",
        f"one token covers {row.chars_per_token:.1f} of its characters ({base.language} "
        f"{base.chars_per_token:.1f})"
        + (
            ", so the vocabulary holds fewer long pieces of this script"
            if row.chars_per_token < base.chars_per_token
            else ""
        ),
    ]
    if row.byte_piece_chars:
        parts.append(
            f"{row.byte_piece_share:.0%} of its characters had no token of their own and were written "
            "as byte pieces (byte fallback)"
        )
    else:
        parts.append("every character had a token of its own or sat inside a longer one")
    return parts[0] + ": " + "; ".join(parts[1:]) + "."
