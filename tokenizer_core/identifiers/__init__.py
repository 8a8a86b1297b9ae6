"""Code identifiers: what names and code layout cost in tokens.

* `languages`: the supported languages, keywords vs builtins, detection from a file name or
  a guess from the content.
* `lexer`: Python through the standard library's `tokenize` (with a generic fallback for code
  it rejects) and hand-written lexers for the C family, Java, C#, Go, Rust, JavaScript,
  TypeScript, SQL and shell.
* `extract`: identifier occurrences with positions and counts.
* `styles`: naming-style classification, word splitting, rewriting into another style.
* `costs`: tokens per identifier and tokenizer (alone and in context), word alignment, naming
  convention costs, the identifier share of a file, CSV.
* `layout`: indentation, comments, docstrings and blank lines in tokens.
* `view`: escaped HTML for the code heat map and coloured splits.

    >>> from tokenizer_core.identifiers import extract_identifiers, split_words
    >>> [o.name for o in extract_identifiers("getUserById(id)", "javascript").occurrences]
    ['getUserById', 'id']
    >>> split_words("parseHTTPResponse2xx")
    ['parse', 'HTTP', 'Response', '2xx']
"""

from .costs import (
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
    style_summary,
    token_cuts,
    word_alignment,
)
from .extract import Extraction, Occurrence, extract_identifiers
from .languages import (
    CODE_EXTENSIONS,
    LANGUAGE_IDS,
    LANGUAGES,
    Language,
    UnknownLanguage,
    detect_language,
    get_language,
    guess_language,
    language_from_filename,
)
from .layout import (
    DEFINITIONS as LAYOUT_DEFINITIONS,
    PARTS as LAYOUT_PARTS,
    VARIANTS as LAYOUT_VARIANTS,
    Indentation,
    LayoutReport,
    detect_indentation,
    layout_costs,
    layout_variants,
    reindent,
    remove_blank_lines,
    remove_spans,
)
from .lexer import Lexeme, LexResult, lex
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
    pieces_html,
    split_table_html,
)

__all__ = [
    "CODE_EXTENSIONS", "CODE_SAMPLES", "COST_COLOURS", "IdentifierAnalysis", "IdentifierRow",
    "Indentation", "Extraction", "KIND_PRIORITY", "LANGUAGES", "LANGUAGE_IDS", "LAYOUT_DEFINITIONS",
    "LAYOUT_PARTS", "LAYOUT_VARIANTS", "Language", "LayoutReport", "LexResult", "Lexeme",
    "MAX_VIEW_CHARS", "MAX_VIEW_LINES", "NamingCost", "Occurrence", "RewriteCost", "STYLES",
    "StyleSummary", "TARGET_STYLES", "TokenizerCost", "UnknownLanguage", "WordSplit",
    "analyse_identifiers", "attribute_tokens", "classify_style", "code_heatmap_html",
    "code_sample_files", "code_view_window", "convert_style", "cost_colour", "cost_legend_html",
    "detect_indentation", "detect_language", "extract_identifiers", "filter_rows", "get_language", "guess_language",
    "identifier_records", "identifiers_csv", "kind_map", "language_from_filename", "layout_costs",
    "layout_variants", "lex", "load_code_file", "load_code_sample", "naming_costs", "pieces_html",
    "reindent", "remove_blank_lines", "remove_spans", "rewrite_code", "rewrite_costs",
    "split_identifier", "split_table_html", "split_words", "style_summary", "token_cuts",
    "word_alignment",
]  # fmt: skip
