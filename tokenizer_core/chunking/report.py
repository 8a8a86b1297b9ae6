"""What users do with the chunks: statistics, a from-scratch check, model limits, export.

Last stage of the chunker: everything here reads finished :class:`Chunk` s (``chunk_stats``
for the summary, ``check_chunks`` to verify every guarantee again with the tokenizer,
``limit_warning`` against an embedding model's input limit, JSONL and CSV export).
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizers.csvcells import spreadsheet_safe
from ..tokenizers.encoders import Tokenizer
from .counting import count_texts
from .cuts import is_grapheme_boundary
from .pack import Chunk, ChunkResult


@dataclass(frozen=True, slots=True)
class ChunkStats:
    """Summary numbers shown above the chunk table."""

    chunks: int
    mean_tokens: float
    median_tokens: float
    min_tokens: int
    max_tokens: int
    mean_chars: float
    mean_overlap_tokens: float
    over_limit: int = 0


@dataclass(frozen=True, slots=True)
class EmbeddingModel:
    """An embedding model's input limit in its own tokens."""

    name: str
    limit: int
    tokenizer_id: str | None = None  # the built-in tokenizer that counts exactly like the model
    note: str = ""


EMBEDDING_MODELS: tuple[EmbeddingModel, ...] = (
    EmbeddingModel("OpenAI text-embedding-3-small / -large, ada-002", 8_191, "cl100k_base"),
    EmbeddingModel("BGE v1.5, E5 v2, BERT-base encoders", 512, None, "WordPiece tokens (not built in)"),
    EmbeddingModel("Cohere embed v3", 512, None, "Cohere's own tokenizer (not built in)"),
    EmbeddingModel("all-mpnet-base-v2 (sentence-transformers)", 384, None, "truncates at 384 word pieces"),
    EmbeddingModel("all-MiniLM-L6-v2 (sentence-transformers)", 256, None, "truncates at 256 word pieces"),
    EmbeddingModel("nomic-embed-text-v1.5", 8_192, None, "BERT WordPiece tokens (not built in)"),
    EmbeddingModel("Voyage voyage-3", 32_000, None, "Voyage's own tokenizer (not built in)"),
)


# ------------------------------------------------------------------------------------ checks, stats


def chunk_stats(chunks: Sequence[Chunk], *, limit: int | None = None) -> ChunkStats:
    """Count, mean / median / min / max tokens; `over_limit` counts chunks above `limit`."""
    if not chunks:
        return ChunkStats(0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0)
    toks = [c.tokens for c in chunks]
    ovs = [c.overlap_tokens for c in chunks[1:]]
    return ChunkStats(
        chunks=len(chunks),
        mean_tokens=round(statistics.fmean(toks), 2),
        median_tokens=float(statistics.median(toks)),
        min_tokens=min(toks),
        max_tokens=max(toks),
        mean_chars=round(statistics.fmean(c.chars for c in chunks), 1),
        mean_overlap_tokens=round(statistics.fmean(ovs), 2) if ovs else 0.0,
        over_limit=sum(t > limit for t in toks) if limit else 0,
    )


def check_chunks(text: str, chunks: Sequence[Chunk], tokenizer: Tokenizer, *, size: int) -> list[str]:
    """Every guarantee of the module docstring, checked from scratch; returns the problems found.

    ``check_chunks(text, result.chunks, tok, size=512) -> []`` when all is well. Counts are
    recomputed with the tokenizer, so this costs about one pass over the text.
    """
    problems: list[str] = []
    if not text or text.isspace():
        return [f"{len(chunks)} chunks for empty or whitespace-only text"] if chunks else []
    if not chunks:
        return ["no chunks for a text with content"]
    if chunks[0].start != 0:
        problems.append(f"the first chunk starts at {chunks[0].start}, not 0")
    if chunks[-1].end != len(text):
        problems.append(f"the last chunk ends at {chunks[-1].end}, not {len(text)}")
    # a cut inside a grapheme cluster is allowed only where a chunk says why (a cluster or a
    # character alone above the budget): the chunk that ends or starts there carries the note
    explained: set[int] = set()
    for c in chunks:
        if "grapheme" in c.note or "over budget" in c.note:
            explained.update((c.start, c.end))
    for c in chunks:
        for pos in (c.start, c.end):
            if pos not in explained and not is_grapheme_boundary(text, pos):
                problems.append(f"chunk {c.index}: cut at {pos} is inside a grapheme cluster")
    counts = count_texts([c.text for c in chunks], tokenizer)
    for k, (c, n) in enumerate(zip(chunks, counts)):
        if c.index != k:
            problems.append(f"chunk {k} has index {c.index}")
        if text[c.start : c.end] != c.text or c.start >= c.end:
            problems.append(f"chunk {k}: text[{c.start}:{c.end}] is not its text")
        if n != c.tokens:
            problems.append(f"chunk {k}: reports {c.tokens} tokens, its text has {n}")
        if n > size and "over budget" not in c.note:
            problems.append(f"chunk {k}: {n} tokens, above the budget of {size}")
        if k:
            prev = chunks[k - 1]
            if not prev.start < c.start <= prev.end < c.end:
                problems.append(f"chunk {k} [{c.start}, {c.end}) does not follow [{prev.start}, {prev.end})")
            if k > 1 and c.start < chunks[k - 2].end:
                problems.append(f"chunk {k} starts inside chunk {k - 2}")
            shared = max(0, prev.end - c.start)
            if c.overlap_chars != shared:
                problems.append(f"chunk {k}: overlap_chars {c.overlap_chars}, real {shared}")
            real = tokenizer.count(text[c.start : prev.end]) if shared else 0
            if c.overlap_tokens != real:
                problems.append(f"chunk {k}: overlap_tokens {c.overlap_tokens}, real {real}")
        elif c.overlap_chars or c.overlap_tokens:
            problems.append("the first chunk reports an overlap")
    return problems


def first_words(text: str, *, words: int = 8, max_chars: int = 60) -> str:
    """The start of a chunk for tables: ``first_words("  Hello   big\\nworld") -> "Hello big world"``."""
    parts = text.split(None, words)
    head = " ".join(parts[:words])
    if len(head) > max_chars:
        head = head[: max_chars - 1].rstrip() + "…"
    elif len(parts) > words:
        head += " …"
    return head


def limit_warning(chunks: Sequence[Chunk], model: EmbeddingModel, tokenizer_id: str) -> str | None:
    """A message when chunks exceed an embedding model's limit (None when they all fit)."""
    over = [c for c in chunks if c.tokens > model.limit]
    if not over:
        return None
    worst = max(c.tokens for c in over)
    return (
        f"{len(over):,} of {len(chunks):,} chunks have more than {model.limit:,} tokens, the limit of "
        f"{model.name} (largest: {worst:,}). The model would cut them off: lower the chunk size to "
        f"{model.limit:,} or less."
    )


# ------------------------------------------------------------------------------------ export

_EXPORT_FIELDS = (
    "index",
    "start",
    "end",
    "tokens",
    "overlap_tokens",
    "overlap_chars",
    "section",
    "note",
    "text",
)


def chunks_to_jsonl(chunks: Sequence[Chunk], *, tokenizer_id: str = "", strategy: str = "") -> str:
    """One JSON object per line: index, offsets, token count, overlap, section, text (UTF-8)."""
    lines = []
    for c in chunks:
        rec = {f: getattr(c, f) for f in _EXPORT_FIELDS}
        if tokenizer_id:
            rec["tokenizer"] = tokenizer_id
        if strategy:
            rec["strategy"] = strategy
        lines.append(json.dumps(rec, ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")


def chunks_to_csv(chunks: Sequence[Chunk]) -> str:
    """CSV with a header: index, start, end, chars, tokens, overlaps, section, note, text.

    A text cell a spreadsheet would run as a formula (a chunk starting ``- item`` or ``=``) gets a
    leading quote, see `csvcells`; the JSONL keeps every text exactly.
    """
    buf = io.StringIO()
    fields = [
        "index",
        "start",
        "end",
        "chars",
        "tokens",
        "overlap_tokens",
        "overlap_chars",
        "section",
        "note",
        "text",
    ]
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(fields)
    for c in chunks:
        writer.writerow(
            [
                c.index,
                c.start,
                c.end,
                c.chars,
                c.tokens,
                c.overlap_tokens,
                c.overlap_chars,
                spreadsheet_safe(c.section),
                spreadsheet_safe(c.note),
                spreadsheet_safe(c.text),
            ]
        )
    return buf.getvalue()


def chunk_table(result: ChunkResult, *, first: int = 0, rows: int | None = None) -> list[dict]:
    """One record per chunk: offsets, tokens, overlap, section, first words, note. Columns that
    would be empty for every chunk (no sections, no notes, no overlap) are left out. `first` and
    `rows` pick the chunks ``first .. first + rows - 1`` (the columns still follow every chunk)."""
    chunks = result.chunks
    has_section = any(c.section for c in chunks)
    has_note = any(c.note for c in chunks)
    records = []
    for c in chunks[first : None if rows is None else first + rows]:
        rec: dict = {"chunk": c.index, "start": c.start, "end": c.end, "tokens": c.tokens}
        if result.overlap:
            rec["overlap tokens"] = c.overlap_tokens
            rec["overlap chars"] = c.overlap_chars
        if has_section:
            rec["section"] = c.section
        rec["first words"] = first_words(c.text)
        if has_note:
            rec["note"] = c.note
        records.append(rec)
    return records
