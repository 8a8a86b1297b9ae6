"""Code identifiers: what names and code layout cost in tokens.

* `languages`: the supported languages, keywords vs builtins, detection from a file name or
  a guess from the content.
* `lexer`: `lex` picks the lexer of a language from `lexers/`: Python through the standard
  library's `tokenize` (with a generic fallback for code it rejects) and hand-written lexers for
  the C family, Java, C#, Go, Rust, JavaScript, TypeScript (`lexers/c_like`), SQL and shell.
* `extract`: identifier occurrences with positions and counts.
* `styles`: naming-style classification, word splitting, rewriting into another style.
* `analysis`: tokens per identifier and tokenizer (alone and in context), word alignment, naming
  convention costs, the identifier share of a file, CSV.
* `layout`: indentation, comments, docstrings and blank lines in tokens.
* `view`: escaped HTML for the code heat map, coloured splits and one identifier's costs.
* `greedy`: the greedy longest-match teaching tokenizer (a tokenizer built from a word list).
* `charts`: Altair charts of the above (``tokenizer_core.identifiers.charts``, imported on its
  own so Altair loads only when drawn).

Data flows code -> `languages` (which language) -> `lexer` -> `extract` -> `analysis` (with the
tokenizers from `tokenizer_core.tokenizers`) -> `view` / `charts`.

    >>> from tokenizer_core.identifiers import extract_identifiers, split_words
    >>> [o.name for o in extract_identifiers("getUserById(id)", "javascript").occurrences]
    ['getUserById', 'id']
    >>> split_words("parseHTTPResponse2xx")
    ['parse', 'HTTP', 'Response', '2xx']
"""

from .analysis import (
    IDENTIFIER_ORDERS,
    KIND_PRIORITY,
    IdentifierAnalysis,
    IdentifierRow,
    NamingCost,
    RewriteCost,
    StyleSummary,
    TokenizerCost,
    analyse_identifiers,
    attribute_tokens,
    filter_rows,
    identifier_records,
    identifiers_csv,
    kind_map,
    naming_costs,
    rewrite_code,
    rewrite_costs,
    sort_identifiers,
    style_summary,
    token_cuts,
    word_alignment,
)
from .extract import Extraction, Occurrence, extract_identifiers
from .greedy import (
    SEED_VOCAB,
    GreedyResult,
    GreedyStep,
    GreedyTokenizer,
    GreedyVocabError,
    greedy_split,
    greedy_tokenize,
    parse_vocab,
)
from .languages import (
    CODE_EXTENSIONS,
    LANGUAGE_IDS,
    CodeLanguage,
    UnknownLanguage,
    get_language,
    guess_language,
    language_from_filename,
)
from .languages import LANGUAGES as CODE_LANGUAGES
from .languages import LANGUAGES as LANGUAGES
from .languages import detect_language as detect_code_language
from .languages import detect_language as detect_language
from .layout import DEFINITIONS as LAYOUT_DEFINITIONS
from .layout import PARTS as LAYOUT_PARTS
from .layout import VARIANTS as LAYOUT_VARIANTS
from .layout import (
    Indentation,
    LayoutReport,
    detect_indentation,
    layout_costs,
    layout_variants,
    reindent,
    remove_blank_lines,
    remove_spans,
)
from .lexer import Lexeme, LexResult
from .lexer import lex as lex
from .lexer import lex as lex_code
from .samples import CODE_SAMPLES, code_sample_files, load_code_file, load_code_sample
from .styles import (
    STYLES,
    TARGET_STYLES,
    WordSplit,
    classify_style,
    convert_style,
    split_identifier,
    split_words,
)
from .view import (
    COST_COLOURS,
    MAX_VIEW_CHARS,
    MAX_VIEW_LINES,
    code_heatmap_html,
    code_view_window,
    cost_colour,
    cost_legend_html,
    identifier_costs_html,
    pieces_html,
    split_table_html,
)

# `Language`, `LANGUAGES`, `detect_language` and `lex` are importable from here but left out of
# `__all__`: at the top of `tokenizer_core` those words mean natural languages, so the package
# offers them as `CodeLanguage`, `CODE_LANGUAGES`, `detect_code_language` and `lex_code`.
__all__ = [
    "CODE_EXTENSIONS", "CODE_LANGUAGES", "CODE_SAMPLES", "COST_COLOURS", "CodeLanguage",
    "IdentifierAnalysis", "IdentifierRow", "Indentation", "Extraction", "KIND_PRIORITY",
    "LANGUAGE_IDS", "LAYOUT_DEFINITIONS", "LAYOUT_PARTS", "LAYOUT_VARIANTS", "LayoutReport",
    "LexResult", "Lexeme", "MAX_VIEW_CHARS", "MAX_VIEW_LINES", "NamingCost", "Occurrence",
    "RewriteCost", "STYLES", "StyleSummary", "TARGET_STYLES", "TokenizerCost", "UnknownLanguage",
    "WordSplit", "analyse_identifiers", "attribute_tokens", "classify_style", "code_heatmap_html",
    "code_sample_files", "code_view_window", "convert_style", "cost_colour", "cost_legend_html",
    "detect_code_language", "detect_indentation", "extract_identifiers", "filter_rows",
    "IDENTIFIER_ORDERS", "sort_identifiers",
    "get_language", "guess_language", "identifier_costs_html", "identifier_records", "identifiers_csv", "kind_map",
    "language_from_filename", "layout_costs", "layout_variants", "lex_code", "load_code_file",
    "load_code_sample", "naming_costs", "pieces_html", "reindent", "remove_blank_lines",
    "remove_spans", "rewrite_code", "rewrite_costs", "split_identifier", "split_table_html",
    "split_words", "style_summary", "token_cuts", "word_alignment",
    # the greedy teaching tokenizer
    "SEED_VOCAB", "GreedyResult", "GreedyStep", "GreedyTokenizer", "GreedyVocabError",
    "greedy_split", "greedy_tokenize", "parse_vocab",
]  # fmt: skip
