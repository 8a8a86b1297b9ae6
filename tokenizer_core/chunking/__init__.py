"""The chunk previewer: a document cut into chunks that fit a token budget, as a RAG index would.

Read top-down, the modules are the pipeline in the order the text meets them:

1. `settings`: the user's strategy, size and overlap, checked before any work.
2. `cuts`: where the document may be cut (paragraphs, lines, sentences, words, Markdown
   blocks, code definitions; never inside a grapheme cluster). Pure text, no tokenizer.
3. What a piece costs in tokens: `safe_cuts` (where counts on both sides of a cut add up),
   `counting` (batched real counts on two threads), `units` (where tokens end, from one pass),
   `fit` (the longest prefix within a budget) and `windows` (token windows for pieces no
   separator can split).
4. `atoms`: the document split level by level, strongest cut first, until every piece fits.
5. `pack`: atoms packed greedily into :class:`Chunk` s under the budget, with overlap;
   :func:`chunk_text` runs stages 1-5 (strategy "tokens" goes from windows straight to chunks).
6. `report`: what users do with the chunks (statistics, a from-scratch check, embedding
   model limits, JSONL/CSV export).

Beside the pipeline: `samples` (bundled documents), `view` (escaped HTML of the chunks) and
`charts` (chunk sizes; ``tokenizer_core.chunking.charts`` is imported on its own so Altair
loads only when drawn).
"""

from .atoms import ChunkStep
from .counting import count_texts
from .cuts import is_grapheme_boundary, markdown_blocks
from .limits import least_chunks, smallest_size
from .pack import Chunk, ChunkResult, chunk_text
from .report import (
    EMBEDDING_MODELS,
    ChunkStats,
    EmbeddingModel,
    check_chunks,
    chunk_stats,
    chunk_table,
    chunks_to_csv,
    chunks_to_jsonl,
    first_words,
    limit_warning,
)
from .samples import (
    CHUNK_SAMPLES,
    SUITED_STRATEGIES,
    ChunkSample,
    load_chunk_sample,
    long_document,
    suited_strategy,
)
from .settings import (
    MAX_CHUNK_TOKENS,
    STRATEGIES,
    ChunkSettingsError,
    Strategy,
    overlap_from_percent,
    overlap_tokens,
    validate_settings,
)
from .units import token_units
from .view import ViewWindow, chunk_colour, chunk_legend_html, chunks_html, view_window
from .windows import token_windows

__all__ = [
    "CHUNK_SAMPLES", "EMBEDDING_MODELS", "MAX_CHUNK_TOKENS", "STRATEGIES", "Chunk", "ChunkResult",
    "ChunkSample", "ChunkSettingsError", "ChunkStats", "ChunkStep", "EmbeddingModel", "Strategy",
    "ViewWindow", "check_chunks", "chunk_colour", "chunk_legend_html", "chunk_stats", "chunk_text",
    "chunks_html", "chunks_to_csv", "chunks_to_jsonl", "count_texts", "first_words",
    "is_grapheme_boundary", "limit_warning", "load_chunk_sample", "long_document", "markdown_blocks",
    "overlap_from_percent", "token_units", "token_windows", "validate_settings", "view_window",
    "least_chunks", "smallest_size",
    # what a page shows: the overlap setting read, the table of chunks, the strategy that suits a text
    "SUITED_STRATEGIES", "chunk_table", "overlap_tokens", "suited_strategy",
]  # fmt: skip
