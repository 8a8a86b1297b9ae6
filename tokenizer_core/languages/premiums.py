"""What the same content costs in tokens in each language: metrics and the premium.

The premium of a language under a tokenizer is the number of tokens its text takes divided by
the number of tokens the same content takes in a base language (English by default), as
Petrov et al. (2023, "Language Model Tokenizers Introduce Unfairness Between Languages") define
it. A premium of 2.0 means the same message costs twice as many tokens: twice the price, half
the context.

The bundled parallel sample (``data/languages/parallel.json``) is one short support reply in 26
languages, written for this project; see :func:`parallel_sample_info` for its provenance. Users
can edit it or bring their own translations as CSV (:func:`parse_translations_csv`).

    >>> from tokenizer_core import language_table, load_builtin
    >>> from tokenizer_core.languages import load_parallel_sample
    >>> langs = [l for l in load_parallel_sample() if l.code in ("en", "hi")]
    >>> rows = language_table(langs, [load_builtin("cl100k_base")], base="en")
    >>> [round(r.premium, 2) for r in rows]
    [1.0, 4.47]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..catalog.lookup import as_tokenizers
from ..tokenizers.encoders import Tokenizer
from .language import Language, LanguageError, LanguageRow

PREMIUM_DEFINITION = (
    "premium(language, tokenizer) = tokens of the language's text ÷ tokens of the same content in "
    "the base language, both counted by that tokenizer (Petrov et al., 2023). The base language "
    "has a premium of exactly 1; 2.0 means the same content costs twice as many tokens."
)

PREMIUM_CITATION = (
    "Aleksandar Petrov, Emanuele La Malfa, Philip H. S. Torr, Adel Bibi. Language Model "
    "Tokenizers Introduce Unfairness Between Languages. NeurIPS 2023. arXiv:2305.15425."
)

# Premiums Petrov et al. (2023) report on FLORES-200 (English base), for comparison with the
# bundled sample. cl100k_base median over 203 languages: 2.26.
PUBLISHED_PREMIUMS: dict[tuple[str, str], float] = {
    ("cl100k_base", "hi"): 4.79,
    ("cl100k_base", "bn"): 5.84,
    ("cl100k_base", "ta"): 7.65,
    ("cl100k_base", "my"): 11.70,
    ("cl100k_base", "es"): 1.55,
    ("cl100k_base", "zh"): 1.91,
    ("r50k_base", "hi"): 7.46,
    ("r50k_base", "my"): 16.89,
}
PUBLISHED_MEDIAN_CL100K = 2.26

NO_SPACES_NOTE = "written without spaces between words, so a whitespace word count means nothing"


def premium(tokens: int, base_tokens: int) -> float | None:
    """Tokens relative to the base language: ``premium(146, 73) -> 2.0``; None if the base has 0."""
    if base_tokens <= 0:
        return None
    return tokens / base_tokens


def word_count(language: Language) -> int | None:
    """Whitespace-delimited words, or None for scripts written without spaces between words.

    ``word_count(Language("en", "English", "Latin", "a b c")) -> 3``
    """
    if not language.whitespace_words:
        return None
    return len(language.text.split())


def words_explanation(language: Language) -> str:
    """Why a language has no word count (or a caveat about it); ``""`` when there is none."""
    if not language.whitespace_words:
        return language.words_note or f"{language.name} is {NO_SPACES_NOTE}."
    return language.words_note


def check_base(languages: Sequence[Language], base: str) -> Language:
    """The base language among `languages`, or LanguageError saying which codes exist."""
    if not languages:
        raise LanguageError("No language to compare: keep at least one language with a text.")
    for lang in languages:
        if lang.code == base:
            return lang
    codes = ", ".join(l.code for l in languages[:30])
    raise LanguageError(
        f"The base language {base!r} is not among the languages with a text ({codes}). "
        "Choose one of them as the base, or give it a text."
    )


def language_table(
    languages: Sequence[Language],
    tokenizers: Sequence[Tokenizer | str],
    *,
    base: str = "en",
) -> list[LanguageRow]:
    """Rows for every language x tokenizer (languages outer, in order), with the premium. A
    tokenizer may be given by a model or tokenizer name (``"gpt-4o"``).

    Token counts are the tokenizer's own `count_many` (special-token text counts as text).
    Raises LanguageError for an empty list, an unknown base, an empty text or a repeated code.
    """
    base_lang = check_base(languages, base)
    seen: set[str] = set()
    names: set[str] = set()
    for lang in languages:
        if not lang.text.strip():
            raise LanguageError(f"{lang.name} has no text: type its translation or leave the language out.")
        if lang.code in seen:
            raise LanguageError(f"The code {lang.code!r} is used twice: each language needs its own code.")
        if lang.name in names:
            raise LanguageError(f"Two languages are named {lang.name!r}: give them different names.")
        seen.add(lang.code)
        names.add(lang.name)
    texts = [l.text for l in languages]
    toks = as_tokenizers(tokenizers)
    counts = {t.info.id: t.count_many(texts) for t in toks}
    base_index = languages.index(base_lang)
    rows = []
    for i, lang in enumerate(languages):
        chars = len(lang.text)
        nbytes = len(lang.text.encode("utf-8", "surrogatepass"))
        words = word_count(lang)
        for tok in toks:
            n = counts[tok.info.id][i]
            base_n = counts[tok.info.id][base_index]
            rows.append(
                LanguageRow(
                    code=lang.code, language=lang.name, script=lang.script,
                    tokenizer_id=tok.info.id, tokenizer=tok.info.name, tokens=n,
                    characters=chars, utf8_bytes=nbytes, words=words,
                    chars_per_token=chars / n if n else None,
                    bytes_per_token=nbytes / n if n else None,
                    tokens_per_word=n / words if words else None,
                    premium=premium(n, base_n), base_code=base_lang.code, base_tokens=base_n,
                    is_base=i == base_index, words_note=words_explanation(lang),
                )
            )  # fmt: skip
    return rows


def language_order(rows: Sequence[LanguageRow]) -> list[str]:
    """Language names from cheapest to most expensive (mean premium over the tokenizers).

    Ties and missing premiums keep the input order. Charts use this order on every axis.
    """
    names: list[str] = []
    prem: dict[str, list[float]] = {}
    for r in rows:
        if r.language not in prem:
            names.append(r.language)
            prem[r.language] = []
        if r.premium is not None:
            prem[r.language].append(r.premium)
    pos = {n: i for i, n in enumerate(names)}
    return sorted(names, key=lambda n: (statistics.fmean(prem[n]) if prem[n] else math.inf, pos[n]))


@dataclass(frozen=True, slots=True)
class TokenizerSummary:
    tokenizer_id: str
    tokenizer: str
    median_premium: float
    max_language: str
    max_premium: float
    min_language: str
    min_premium: float
    languages: int


def summarize(rows: Sequence[LanguageRow]) -> list[TokenizerSummary]:
    """Per tokenizer: median premium over the non-base languages, and the extremes."""
    by_tok: dict[str, list[tuple[LanguageRow, float]]] = {}
    for r in rows:
        if r.premium is not None and not r.is_base:
            by_tok.setdefault(r.tokenizer_id, []).append((r, r.premium))
    out = []
    for tid, rs in by_tok.items():
        hi, hi_premium = max(rs, key=lambda rp: rp[1])
        lo, lo_premium = min(rs, key=lambda rp: rp[1])
        out.append(
            TokenizerSummary(
                tid, rs[0][0].tokenizer, statistics.median(p for _, p in rs),
                hi.language, hi_premium, lo.language, lo_premium, len(rs),
            )
        )  # fmt: skip
    return out


def published_comparison(rows: Sequence[LanguageRow]) -> list[dict]:
    """Premiums measured here next to those Petrov et al. (2023) published, where both exist
    (English base only: their base is English)."""
    out = []
    for r in rows:
        pub = PUBLISHED_PREMIUMS.get((r.tokenizer_id, r.code))
        if pub is not None and r.base_code == "en" and r.premium is not None:
            out.append({
                "language": r.language, "tokenizer": r.tokenizer, "published (FLORES-200)": pub,
                "this sample": round(r.premium, 2),
            })  # fmt: skip
    return out
