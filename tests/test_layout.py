"""The package layout (issue 11): the old public API still imports, and packages only depend downwards."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import tokenizer_core

# Every name in `tokenizer_core.__all__` before the move into packages (commit 7dd6029).
OLD_PUBLIC = [
    "BPEError", "BPEModel", "BPEOptions", "BPEPreset", "BPETokenizer", "BPETrainer", "BPE_PRESETS",
    "BUILTINS", "CHAT_FORMATS", "CHUNK_SAMPLES", "CODE_EXTENSIONS", "CODE_LANGUAGES", "CODE_SAMPLES",
    "CONTEXT_WINDOWS", "COST_DEFINITION", "ChatCount", "ChatFormat", "ChatPart", "Chunk", "ChunkResult",
    "ChunkSample", "ChunkSettingsError", "ChunkStats", "ChunkStep", "CostRow", "CountRow", "DEFAULT_IDS",
    "EDITOR_COLUMNS", "EMBEDDING_MODELS", "EmbeddingModel", "Extraction", "GreedyResult", "GreedyStep",
    "GreedyTokenizer", "GreedyVocabError", "HFTokenizer", "IdentifierAnalysis", "IdentifierRow",
    "InputError", "LAYOUT_DEFINITIONS", "LAYOUT_PARTS", "Language", "LanguageError", "LanguageRow",
    "MARKER_PRESETS", "MAX_CHUNK_TOKENS", "MAX_TEXT_BYTES", "MAX_VIEW_CHARS", "MAX_VIEW_LINES",
    "MergeEncoder", "MergeStep", "ModelPrice", "Occurrence", "PATTERNS", "PREMIUM_CITATION",
    "PREMIUM_DEFINITION", "PRICE_FIELDS", "PUBLISHED_PREMIUMS", "PairCount", "Pattern", "PriceError",
    "PriceTable", "Probe", "SEED_VOCAB", "STRATEGIES", "STYLES", "SYMBOL_KINDS", "SampleInfo", "Segment",
    "ShareState", "Strategy", "TARGET_STYLES", "TEXT_EXTENSIONS", "TIE_BREAKS", "TextStats",
    "TiktokenTokenizer", "Tokenizer", "TokenizerInfo", "TokenizerSummary", "TokenizerUnavailable",
    "UnknownLanguage", "ViewWindow", "VocabularyError", "Workload", "analyse_identifiers",
    "boundary_offsets", "bpe_candidate_rows", "bpe_fired_rows", "bpe_first_seen_label", "bpe_merge_rows",
    "bpe_pair_label", "bpe_symbol_label", "bpe_tokens_summary", "bpe_words_at_step", "bpe_words_html",
    "builtin_infos", "chat_formats_for", "chat_template_text", "check_chunks", "chunk_colour",
    "chunk_legend_html", "chunk_stats", "chunk_text", "chunks_html", "chunks_to_csv", "chunks_to_jsonl",
    "classify_style", "clean_text", "code_heatmap_html", "code_view_window", "convert_style",
    "cost_legend_html", "cost_rows_csv", "cost_table", "count_chat", "count_chats", "count_row",
    "count_table", "count_texts", "count_words", "decode_text", "detect_code_language",
    "detect_indentation", "detect_script", "escape_markdown", "explain_bpe_choice", "export_agreement",
    "extract_identifiers", "filter_rows", "first_words", "greedy_split", "greedy_tokenize",
    "identifier_records", "identifiers_csv", "is_grapheme_boundary", "language_rows_csv", "language_table",
    "language_tokens_html", "languages_from_records", "languages_to_records", "layout_costs", "legend_html",
    "lex_code", "limit_warning", "load_bpe_model", "load_builtin", "load_chunk_sample", "load_code_sample",
    "load_parallel_sample", "load_sample", "long_document", "markdown_blocks", "markdown_code",
    "merge_translations", "model_id", "monthly_cost", "naming_costs", "overlap_from_percent", "pack_text",
    "parallel_sample_info", "parse_translations_csv", "parse_vocab", "parse_word_counts", "pieces_html",
    "premium", "pretokenizer_labels", "price_age_days", "prices_from_records", "prices_to_records",
    "probe_bpe", "published_comparison", "read_share_params", "rewrite_costs", "rows_to_csv",
    "sample_names", "save_bpe_model", "segments_from_pieces", "segments_html", "share_params",
    "split_for_batch", "split_identifier", "split_marks", "split_table_html", "split_words",
    "style_summary", "summarize", "text_stats", "tiktoken_problem", "to_tiktoken", "token_background",
    "token_count", "token_hue", "token_units", "token_windows", "tokenizer_from_encoding",
    "tokenizer_from_hf_json", "tokenizer_from_tiktoken_bytes", "tokenizer_info", "train_bpe",
    "trained_tokenizer", "translations_csv", "unpack_text", "unshared_boundaries", "validate_settings",
    "view_window", "view_windows", "visible_whitespace", "with_steps", "word_counts",
]  # fmt: skip

PACKAGES = ("tokenizers", "counter", "pricing", "bpe", "identifiers", "languages", "chunking")

# What each package may import from the others at run time (imports under TYPE_CHECKING are types
# only). The base imports no feature; features import the base (and the shared price table), never
# each other.
ALLOWED = {
    "tokenizers": set(),
    "pricing": {"tokenizers"},
    "counter": {"tokenizers", "pricing"},
    "bpe": {"tokenizers"},
    "identifiers": {"tokenizers"},
    "languages": {"tokenizers", "pricing"},
    "chunking": {"tokenizers"},
}

CORE = Path(tokenizer_core.__file__).parent


def test_every_old_public_name_still_imports_from_the_top():
    missing = [n for n in OLD_PUBLIC if not hasattr(tokenizer_core, n)]
    assert missing == []
    assert set(OLD_PUBLIC) <= set(tokenizer_core.__all__)
    namespace: dict[str, object] = {}
    exec(f"from tokenizer_core import {', '.join(OLD_PUBLIC)}", namespace)


def test_the_top_level_is_the_packages_all_composed_without_clashes():
    seen: dict[str, str] = {}
    for pkg in PACKAGES:
        module = importlib.import_module(f"tokenizer_core.{pkg}")
        for name in module.__all__:
            assert name not in seen, f"{name} is offered by both {seen.get(name)} and {pkg}"
            seen[name] = pkg
            assert getattr(tokenizer_core, name) is getattr(module, name)
    assert sorted(seen) == sorted(tokenizer_core.__all__)


def test_natural_and_code_languages_keep_their_names():
    from tokenizer_core.identifiers import languages as code_languages
    from tokenizer_core.languages import compare

    assert tokenizer_core.Language is compare.Language
    assert tokenizer_core.CODE_LANGUAGES is code_languages.LANGUAGES
    assert tokenizer_core.detect_code_language is code_languages.detect_language


def _runtime_imports(path: Path) -> set[str]:
    """Absolute `tokenizer_core.*` modules that `path` imports outside `if TYPE_CHECKING:`."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(("tokenizer_core", *path.relative_to(CORE).with_suffix("").parts))
    package = package.removesuffix(".__init__") if path.name == "__init__.py" else package.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m.startswith("tokenizer_core.")}


@pytest.mark.parametrize("pkg", PACKAGES)
def test_packages_only_import_downwards(pkg):
    files = sorted((CORE / pkg).rglob("*.py"))
    reached: dict[str, set[str]] = {}
    for path in files:
        for module in _runtime_imports(path):
            other = module.split(".")[1]
            if other in PACKAGES and other != pkg:
                reached.setdefault(other, set()).add(path.name)
    assert set(reached) <= ALLOWED[pkg], f"{pkg} reaches {reached}"
