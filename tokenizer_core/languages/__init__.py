"""Language costs: the same text in several languages, counted by several tokenizers.

Data flows a parallel sample (or the user's translations, as records or CSV) -> `compare`
(:class:`Language` texts -> a :class:`LanguageRow` per language and tokenizer with its premium
over the base language -> summaries, published comparisons, CSV and escaped token HTML).
Money comes from the top-level `tokenizer_core.pricing` (its `cost_table` takes these rows);
`charts` draws premiums, tokens and costs (``tokenizer_core.languages.charts``, imported on its
own so Altair loads only when drawn).
"""

from .compare import (
    EDITOR_COLUMNS,
    PREMIUM_CITATION,
    PREMIUM_DEFINITION,
    PUBLISHED_PREMIUMS,
    Language,
    LanguageError,
    LanguageRow,
    SampleInfo,
    TokenizerSummary,
    detect_script,
    language_rows_csv,
    language_table,
    language_tokens_html,
    languages_from_records,
    languages_to_records,
    load_parallel_sample,
    merge_translations,
    parallel_sample_info,
    parse_translations_csv,
    premium,
    published_comparison,
    split_marks,
    summarize,
    translations_csv,
)

__all__ = [
    "EDITOR_COLUMNS", "Language", "LanguageError", "LanguageRow", "PREMIUM_CITATION",
    "PREMIUM_DEFINITION", "PUBLISHED_PREMIUMS", "SampleInfo", "TokenizerSummary", "detect_script",
    "language_rows_csv", "language_table", "language_tokens_html", "languages_from_records",
    "languages_to_records", "load_parallel_sample", "merge_translations", "parallel_sample_info",
    "parse_translations_csv", "premium", "published_comparison", "split_marks", "summarize",
    "translations_csv",
]  # fmt: skip
