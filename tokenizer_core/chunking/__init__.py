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

from .counting import count_texts
from .limits import least_chunks, smallest_size
from .pack import Chunk, ChunkResult, chunk_text
from .report import (
    EMBEDDING_MODELS,
    check_chunks,
    chunk_stats,
    chunk_table,
    chunks_to_csv,
    chunks_to_jsonl,
    limit_warning,
)
from .samples import CHUNK_SAMPLES, load_chunk_sample, long_document, suited_strategy
from .settings import STRATEGIES, ChunkSettingsError, overlap_tokens, validate_settings
from .view import chunk_legend_html, chunks_html, view_window

__all__ = [
    "check_chunks",
    "Chunk",
    "chunk_legend_html",
    "CHUNK_SAMPLES",
    "chunk_stats",
    "chunk_table",
    "chunk_text",
    "ChunkResult",
    "chunks_html",
    "chunks_to_csv",
    "chunks_to_jsonl",
    "ChunkSettingsError",
    "count_texts",
    "EMBEDDING_MODELS",
    "least_chunks",
    "limit_warning",
    "load_chunk_sample",
    "long_document",
    "overlap_tokens",
    "smallest_size",
    "STRATEGIES",
    "suited_strategy",
    "validate_settings",
    "view_window",
]
