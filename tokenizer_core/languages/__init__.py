"""Language costs: the same text in several languages, counted by several tokenizers.

Data flows a parallel sample (`sample`) or the user's translations (the page's table rows in
`records`, CSV files in `csv_io`; `scripts` detects an unknown language's writing system) ->
:class:`Language` texts (`language`) -> `premiums` (a :class:`LanguageRow` per language and
tokenizer with its premium over the base language, summaries, published comparisons) -> CSV
(`csv_io`) and escaped token HTML (`view`).
What a month of requests costs in each language is `costs` (prices from `tokenizer_core.catalog`);
`charts` draws premiums, tokens and costs (``tokenizer_core.languages.charts``, imported on its
own so Altair loads only when drawn).
"""

from .csv_io import language_rows_csv, parse_translations_csv, translations_csv
from .language import Language, LanguageError, LanguageRow
from .premiums import PREMIUM_CITATION, PREMIUM_DEFINITION, language_table, published_comparison, summarize
from .records import (
    EDITOR_COLUMNS,
    editor_row,
    languages_from_records,
    languages_to_records,
    merge_translations,
)
from .sample import load_parallel_sample, parallel_sample_info
from .view import split_marks

__all__ = [
    "EDITOR_COLUMNS",
    "editor_row",
    "Language",
    "language_rows_csv",
    "language_table",
    "LanguageError",
    "LanguageRow",
    "languages_from_records",
    "languages_to_records",
    "load_parallel_sample",
    "merge_translations",
    "parallel_sample_info",
    "parse_translations_csv",
    "PREMIUM_CITATION",
    "PREMIUM_DEFINITION",
    "published_comparison",
    "split_marks",
    "summarize",
    "translations_csv",
]
