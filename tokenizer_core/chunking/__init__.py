"""The chunk previewer: a document cut into chunks that fit a token budget, as a RAG index would.

Read top-down, the modules are the pipeline in the order the text meets them:
`cuts` (where a document may be cut: paragraphs, sentences, words, Markdown blocks, code) ->
`costs` (what each piece costs in tokens, counted in windows) -> `pack` (pieces packed into
:class:`Chunk` s under the budget with overlap; checks, statistics, export, samples and model
limits) -> `view` (escaped HTML of the chunks). `charts` draws chunk sizes
(``tokenizer_core.chunking.charts``, imported on its own so Altair loads only when drawn).
"""

from .costs import count_texts, token_units, token_windows
from .cuts import is_grapheme_boundary, markdown_blocks
from .pack import (
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
from .view import ViewWindow, chunk_colour, chunk_legend_html, chunks_html, view_window

__all__ = [
    "CHUNK_SAMPLES", "EMBEDDING_MODELS", "MAX_CHUNK_TOKENS", "STRATEGIES", "Chunk", "ChunkResult",
    "ChunkSample", "ChunkSettingsError", "ChunkStats", "ChunkStep", "EmbeddingModel", "Strategy",
    "ViewWindow", "check_chunks", "chunk_colour", "chunk_legend_html", "chunk_stats", "chunk_text",
    "chunks_html", "chunks_to_csv", "chunks_to_jsonl", "count_texts", "first_words",
    "is_grapheme_boundary", "limit_warning", "load_chunk_sample", "long_document", "markdown_blocks",
    "overlap_from_percent", "token_units", "token_windows", "validate_settings", "view_window",
]  # fmt: skip
