"""Code identifiers: what names and code layout cost in tokens.

* `languages`: the supported languages, keywords vs builtins, detection from a file name or
  a guess from the content.
* `lexer`: `lex` picks the lexer of a language from `lexers/`: Python through the standard
  library's `tokenize` (with a generic fallback for code it rejects) and hand-written lexers for
  the C family, Java, C#, Go, Rust, JavaScript, TypeScript (`lexers/c_like`), SQL and shell.
* `extract`: identifier occurrences with positions and counts.
* `styles`: naming-style classification, word splitting, rewriting into another style.
* `analysis`: tokens per identifier and tokenizer (alone and in context), word alignment, the
  identifier share of a file, the table and its CSV; `naming`: what each naming style costs.
* `layout`: indentation, comments, docstrings and blank lines in tokens.
* `view`: escaped HTML for the code heat map, coloured splits and one identifier's costs.
* `greedy`: the greedy longest-match teaching tokenizer (a tokenizer built from a word list).
* `charts`: Altair charts of the above (``tokenizer_core.identifiers.charts``, imported on its
  own so Altair loads only when drawn).

Data flows code -> `languages` (which language) -> `lexer` -> `extract` -> `analysis` (with the
tokenizers from `tokenizer_core.tokenizers`) -> `view` / `charts`.

    >>> from tokenizer_core.identifiers import extract_identifiers
    >>> from tokenizer_core.identifiers.styles import split_words
    >>> [o.name for o in extract_identifiers("getUserById(id)", "javascript").occurrences]
    ['getUserById', 'id']
    >>> split_words("parseHTTPResponse2xx")
    ['parse', 'HTTP', 'Response', '2xx']
"""

from .analysis import (
    IDENTIFIER_ORDERS,
    IdentifierAnalysis,
    IdentifierRow,
    analyse_identifiers,
    filter_rows,
    identifier_records,
    identifiers_csv,
    sort_identifiers,
)
from .extract import extract_identifiers
from .greedy import SEED_VOCAB, GreedyTokenizer, GreedyVocabError, greedy_split, parse_vocab
from .languages import CODE_EXTENSIONS
from .languages import LANGUAGES as CODE_LANGUAGES
from .languages import detect_language as detect_code_language
from .layout import DEFINITIONS as LAYOUT_DEFINITIONS
from .layout import layout_costs
from .lexer import lex as lex_code
from .naming import naming_costs, rewrite_costs, style_summary
from .samples import CODE_SAMPLES, load_code_file, load_code_sample
from .styles import STYLES, TARGET_STYLES, split_identifier
from .view import (
    MAX_VIEW_CHARS,
    MAX_VIEW_LINES,
    code_heatmap_html,
    code_view_window,
    cost_legend_html,
    identifier_costs_html,
    pieces_html,
    split_table_html,
)

__all__ = [
    "analyse_identifiers",
    "CODE_EXTENSIONS",
    "code_heatmap_html",
    "CODE_LANGUAGES",
    "CODE_SAMPLES",
    "code_view_window",
    "cost_legend_html",
    "detect_code_language",
    "extract_identifiers",
    "filter_rows",
    "greedy_split",
    "GreedyTokenizer",
    "GreedyVocabError",
    "identifier_costs_html",
    "IDENTIFIER_ORDERS",
    "identifier_records",
    "IdentifierAnalysis",
    "IdentifierRow",
    "identifiers_csv",
    "layout_costs",
    "LAYOUT_DEFINITIONS",
    "lex_code",
    "load_code_file",
    "load_code_sample",
    "MAX_VIEW_CHARS",
    "MAX_VIEW_LINES",
    "naming_costs",
    "parse_vocab",
    "pieces_html",
    "rewrite_costs",
    "SEED_VOCAB",
    "sort_identifiers",
    "split_identifier",
    "split_table_html",
    "style_summary",
    "STYLES",
    "TARGET_STYLES",
]
