"""Tokenizer Workbench core: real tokenizers, counting, BPE, identifiers, languages, chunking.

Importable from a notebook; never imports Streamlit. Pages import from here only.

    >>> from tokenizer_core import load_builtin
    >>> load_builtin("cl100k_base").encode("hello world")
    [15339, 1917]
"""

from .chat import (
    CHAT_FORMATS,
    ChatCount,
    ChatFormat,
    ChatPart,
    chat_formats_for,
    chat_template_text,
    count_chat,
    count_chats,
)
from .counting import CONTEXT_WINDOWS, CountRow, TextStats, count_row, count_table, rows_to_csv, text_stats
from .encoders import (
    HFTokenizer,
    TiktokenTokenizer,
    Tokenizer,
    TokenizerInfo,
    clean_text,
    split_for_batch,
    view_windows,
)
from .languages import (
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
from .pricing import (
    COST_DEFINITION,
    PRICE_FIELDS,
    CostRow,
    ModelPrice,
    PriceError,
    PriceTable,
    Workload,
    cost_rows_csv,
    cost_table,
    default_prices,
    monthly_cost,
    price_age_days,
    prices_from_records,
    prices_to_records,
)
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
from .identifiers import (
    CODE_EXTENSIONS,
    CODE_SAMPLES,
    LAYOUT_DEFINITIONS,
    LAYOUT_PARTS,
    MAX_VIEW_CHARS,
    MAX_VIEW_LINES,
    STYLES,
    TARGET_STYLES,
    Extraction,
    IdentifierAnalysis,
    IdentifierRow,
    Occurrence,
    UnknownLanguage,
    analyse_identifiers,
    classify_style,
    code_heatmap_html,
    code_view_window,
    convert_style,
    cost_legend_html,
    detect_indentation,
    extract_identifiers,
    filter_rows,
    identifier_records,
    identifiers_csv,
    layout_costs,
    load_code_sample,
    naming_costs,
    pieces_html,
    rewrite_costs,
    split_identifier,
    split_table_html,
    split_words,
    style_summary,
)
from .identifiers import LANGUAGES as CODE_LANGUAGES
from .identifiers import detect_language as detect_code_language
from .identifiers import lex as lex_code
from .bpe import (
    MARKER_PRESETS,
    SYMBOL_KINDS,
    TIE_BREAKS,
    BPEError,
    BPEModel,
    BPEOptions,
    MergeStep,
    PairCount,
    count_words,
    parse_word_counts,
    pretokenizer_labels,
    word_counts,
)
from .bpe_encode import (
    BPETokenizer,
    MergeEncoder,
    Probe,
    bpe_symbol_label,
    bpe_words_at_step,
    export_agreement,
    model_id,
    probe_bpe,
    tiktoken_problem,
    to_tiktoken,
    tokenizer_info,
    trained_tokenizer,
)
from .bpe_io import load_bpe_model, save_bpe_model
from .bpe_presets import BPE_PRESETS, BPEPreset
from .bpe_train import BPETrainer, train_bpe, with_steps
from .bpe_view import (
    bpe_candidate_rows,
    bpe_fired_rows,
    bpe_first_seen_label,
    bpe_merge_rows,
    bpe_pair_label,
    bpe_tokens_summary,
    bpe_words_html,
    explain_bpe_choice,
)
from .patterns import PATTERNS, Pattern
from .registry import (
    BUILTINS,
    DEFAULT_IDS,
    TokenizerUnavailable,
    builtin_infos,
    load_builtin,
    tokenizer_from_encoding,
    tokenizer_from_hf_json,
    tokenizer_from_tiktoken_bytes,
)
from .render import (
    escape_markdown,
    legend_html,
    markdown_code,
    segments_html,
    token_background,
    token_hue,
    visible_whitespace,
)
from .segments import Segment, boundary_offsets, segments_from_pieces, token_count, unshared_boundaries
from .share import ShareState, pack_text, read_share_params, share_params, unpack_text
from .textio import MAX_TEXT_BYTES, TEXT_EXTENSIONS, InputError, decode_text, load_sample, sample_names
from .vocab import VocabularyError

# chunk previewer (issue 6)
from .chunk_render import ViewWindow, chunk_colour, chunk_legend_html, chunks_html, view_window
from .chunking import (
    CHUNK_SAMPLES,
    EMBEDDING_MODELS,
    MAX_CHUNK_TOKENS,
    STRATEGIES,
    Chunk,
    ChunkResult,
    ChunkSample,
    ChunkSettingsError,
    ChunkStats,
    ChunkStep,
    EmbeddingModel,
    Strategy,
    check_chunks,
    chunk_stats,
    chunk_text,
    chunks_to_csv,
    chunks_to_jsonl,
    first_words,
    limit_warning,
    load_chunk_sample,
    long_document,
    overlap_from_percent,
    validate_settings,
)
from .chunking_split import is_grapheme_boundary, markdown_blocks
from .chunking_tokens import count_texts, token_units, token_windows

__all__ = [
    # tokenizers
    "BUILTINS", "DEFAULT_IDS", "HFTokenizer", "PATTERNS", "Pattern", "TiktokenTokenizer",
    "Tokenizer", "TokenizerInfo", "TokenizerUnavailable", "VocabularyError", "builtin_infos",
    "clean_text", "load_builtin", "split_for_batch", "tokenizer_from_encoding",
    "tokenizer_from_hf_json", "tokenizer_from_tiktoken_bytes", "view_windows",
    # counting, segments, rendering
    "CONTEXT_WINDOWS", "CountRow", "Segment", "TextStats", "boundary_offsets", "count_row",
    "count_table", "escape_markdown", "legend_html", "markdown_code", "rows_to_csv", "segments_from_pieces", "segments_html",
    "text_stats", "token_background", "token_count", "token_hue", "unshared_boundaries",
    "visible_whitespace",
    # chat requests
    "CHAT_FORMATS", "ChatCount", "ChatFormat", "ChatPart", "chat_formats_for", "chat_template_text", "count_chat", "count_chats",
    # input and sharing
    "MAX_TEXT_BYTES", "TEXT_EXTENSIONS", "InputError", "ShareState", "decode_text", "load_sample", "pack_text",
    "read_share_params", "sample_names", "share_params", "unpack_text",
    # languages and pricing (issue 5)
    "COST_DEFINITION", "EDITOR_COLUMNS", "PRICE_FIELDS", "CostRow", "Language", "LanguageError",
    "LanguageRow", "ModelPrice", "PREMIUM_CITATION", "PREMIUM_DEFINITION", "PUBLISHED_PREMIUMS",
    "PriceError", "PriceTable", "SampleInfo", "TokenizerSummary", "Workload", "cost_rows_csv",
    "cost_table", "default_prices", "detect_script", "language_rows_csv", "language_table",
    "language_tokens_html", "languages_from_records", "languages_to_records",
    "load_parallel_sample", "merge_translations", "monthly_cost", "parallel_sample_info",
    "parse_translations_csv", "premium", "price_age_days", "prices_from_records",
    "prices_to_records", "published_comparison", "split_marks", "summarize", "translations_csv",
    # code identifiers and the greedy teaching tokenizer (issue 4)
    "CODE_EXTENSIONS", "CODE_LANGUAGES", "CODE_SAMPLES", "Extraction", "GreedyResult", "GreedyStep",
    "GreedyTokenizer", "GreedyVocabError", "IdentifierAnalysis", "IdentifierRow", "LAYOUT_DEFINITIONS",
    "LAYOUT_PARTS", "MAX_VIEW_CHARS", "MAX_VIEW_LINES", "Occurrence", "SEED_VOCAB", "STYLES",
    "TARGET_STYLES", "UnknownLanguage", "analyse_identifiers", "classify_style", "code_heatmap_html",
    "code_view_window", "convert_style", "cost_legend_html", "detect_code_language",
    "detect_indentation", "extract_identifiers", "filter_rows", "greedy_split", "greedy_tokenize",
    "identifier_records", "identifiers_csv", "layout_costs", "lex_code", "load_code_sample",
    "naming_costs", "parse_vocab", "pieces_html", "rewrite_costs", "split_identifier",
    "split_table_html", "split_words", "style_summary",
    # BPE playground (issue 3)
    "BPEError", "BPEModel", "BPEOptions", "BPEPreset", "BPETokenizer", "BPETrainer", "BPE_PRESETS",
    "MARKER_PRESETS", "MergeEncoder", "MergeStep", "PairCount", "Probe", "SYMBOL_KINDS", "TIE_BREAKS",
    "bpe_candidate_rows", "bpe_fired_rows", "bpe_first_seen_label", "bpe_merge_rows", "bpe_pair_label",
    "bpe_symbol_label", "bpe_tokens_summary", "bpe_words_at_step", "bpe_words_html", "count_words",
    "explain_bpe_choice", "export_agreement", "load_bpe_model", "model_id", "parse_word_counts",
    "pretokenizer_labels", "probe_bpe", "save_bpe_model", "tiktoken_problem", "to_tiktoken",
    "tokenizer_info", "train_bpe", "trained_tokenizer", "with_steps", "word_counts",
    # chunk previewer (issue 6)
    "CHUNK_SAMPLES", "EMBEDDING_MODELS", "MAX_CHUNK_TOKENS", "STRATEGIES", "Chunk", "ChunkResult",
    "ChunkSample", "ChunkSettingsError", "ChunkStats", "ChunkStep", "EmbeddingModel", "Strategy",
    "ViewWindow", "check_chunks", "chunk_colour", "chunk_legend_html", "chunk_stats", "chunk_text",
    "chunks_html", "chunks_to_csv", "chunks_to_jsonl", "count_texts", "first_words",
    "is_grapheme_boundary", "limit_warning", "load_chunk_sample", "long_document", "markdown_blocks",
    "overlap_from_percent", "token_units", "token_windows", "validate_settings", "view_window",
]  # fmt: skip
