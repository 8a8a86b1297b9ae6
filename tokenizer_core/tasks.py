"""Job functions for the worker pool (tokenizer_core.jobs): module-level, picklable in and out.

Each reports its progress with `jobs.report`, which is also where a cancelled job stops, and
runs unchanged in-process (`with jobs.reporting_to(callback): train_bpe_task(...)`).
"""

from __future__ import annotations

import copyreg
import functools
import os
from collections.abc import Callable

from .bpe.model import BPEModel, BPEOptions, MergeStep, PairCount, count_words, parse_word_counts
from .bpe.train import BPETrainer
from .chunking import Chunk, ChunkResult, check_chunks, chunk_text
from .identifiers import IdentifierAnalysis, analyse_identifiers, extract_identifiers
from .jobs import report
from .portable import TokenizerRef, cached_builtin, rebuild
from .workspace.counting import CountRow, TextStats, row_for, text_stats


def _reduce_pair(p: PairCount) -> tuple:
    return PairCount, (p.left, p.right, p.count, p.first_seen)


def _reduce_step(s: MergeStep) -> tuple:
    return MergeStep, (
        s.rank, s.left, s.right, s.new, s.token_id, s.count, s.vocab_size, s.corpus_tokens,
        s.words_changed, s.candidates, s.tied, s.tied_more,
    )  # fmt: skip


# A model comes back from a worker as a pickle: the default pickling of these frozen, slotted
# dataclasses goes through a Python-level __getstate__ per object (80 ms for 1,000 merges with
# 8 candidates each); positional constructor calls cut that to 17 ms (bench/bench_jobs.py).
copyreg.pickle(PairCount, _reduce_pair)
copyreg.pickle(MergeStep, _reduce_step)


def train_bpe_task(text: str, fmt: str, options: BPEOptions, *, top_n: int, max_steps: int) -> BPEModel:
    """Count the words of `text` (running text, or `fmt="counts"`: one 'word count' per line) and
    train BPE on them. Progress: 0-20% counting words, 20-100% merges. Raises BPEError."""
    report(0.0, "Counting words...")
    if fmt == "counts":
        counts = parse_word_counts(text)
    else:

        def counted(done: int, total: int) -> None:
            report(0.2 * done / max(total, 1), f"Counting words: {done:,} of {total:,} characters")

        counts = count_words(text, pretokenizer=options.pretokenizer, progress=counted)
    report(0.2, f"Counting pairs in {len(counts):,} distinct words...")
    trainer = BPETrainer(counts, options, top_n=top_n)
    del counts
    planned = (
        options.merges
        if options.merges is not None
        else max(1, (options.vocab_size or 0) - len(trainer.base))
    )
    every = max(1, min(planned // 50, 200))
    for step in trainer:
        if step.rank % every == 0:
            report(0.2 + 0.8 * min(1.0, step.rank / max(planned, 1)), f"Merge {step.rank:,} of {planned:,}")
        if step.rank >= max_steps:  # a vocabulary target with many repeated strings
            break
    report(1.0, "Done")
    return trainer.model()


worker_builtin = cached_builtin  # a built-in tokenizer, loaded once per worker process


def preload_ids() -> tuple[str, ...]:
    """The built-ins every worker loads ahead of its first job: `TW_WORKER_TOKENIZERS`
    (comma-separated ids), none by default. A worker loads only the tokenizers its jobs need
    (0.3-4 s for the first job that needs one, about 70-135 MB each with its native engine),
    so an idle worker holds none: the job pool's workers wait mostly idle beside the counting
    workers, and warming the pages' three defaults cost about 250 MB a worker."""
    env = os.environ.get("TW_WORKER_TOKENIZERS")
    if env is None:
        return ()
    return tuple(t.strip() for t in env.split(",") if t.strip())


def warm_steps() -> list[Callable[[], object]]:
    """What a new worker loads while it has no job: the `preload_ids` tokenizers, then their
    native engines (used for large texts; loading and checking one takes 0.3-0.7 s)."""
    ids = preload_ids()
    return [functools.partial(cached_builtin, t) for t in ids] + [functools.partial(_native, t) for t in ids]


def _native(tokenizer_id: str) -> object:
    return getattr(cached_builtin(tokenizer_id), "native", None)


def analyse_identifiers_task(
    code: str, language: str, tokenizer_ids: tuple[TokenizerRef, ...], *, strings: bool, comments: bool
) -> IdentifierAnalysis:
    """The identifiers page's analysis (tokenizers as `portable` refs), as `analyse_identifiers`."""
    report(0.0, "Reading identifiers...")
    toks = [rebuild(t) for t in tokenizer_ids]
    extraction = extract_identifiers(code, language, include_strings=strings, include_comments=comments)
    report(0.3, f"Counting tokens of {len(extraction.occurrences):,} uses...")
    out = analyse_identifiers(code, toks, extraction=extraction)
    report(1.0, "Done")
    return out


def tally_task(
    text: str, tokenizer_ids: tuple[TokenizerRef, ...], *, allow_special: bool
) -> tuple[tuple[int, ...], TextStats]:
    """The tokens of each tokenizer (as `portable` refs) in a very large text, and the text's
    size: what the app keeps of a count (ui/counting.py)."""
    report(0.0, "Counting tokens...")
    toks = [rebuild(t) for t in tokenizer_ids]
    tokens = []
    for k, tok in enumerate(toks):
        report(k / len(toks), f"Counting {tok.info.name} tokens...")
        tokens.append(tok.count(text, allow_special=allow_special))
    stats = text_stats(text)
    report(1.0, "Done")
    return tuple(tokens), stats


def count_table_task(
    text: str, tokenizer_ids: tuple[TokenizerRef, ...], *, context_window: int, allow_special: bool
) -> list[CountRow]:
    """The count rows of a very large text (tokenizers as `portable` refs), as `count_table`."""
    tokens, stats = tally_task(text, tokenizer_ids, allow_special=allow_special)
    toks = [rebuild(t) for t in tokenizer_ids]  # each rebuilt once per worker: kept by `rebuild`
    return [row_for(t, n, stats, context_window=context_window) for t, n in zip(toks, tokens)]


def chunk_task(text: str, tokenizer_id: TokenizerRef, strategy: str, size: int, overlap: int) -> ChunkResult:
    """The chunk previewer's chunks of a large document (the tokenizer as a `portable` ref), as
    `chunk_text` (its stages are the progress). Raises ChunkSettingsError."""
    result = chunk_text(
        text, rebuild(tokenizer_id), strategy=strategy, size=size, overlap=overlap, progress=report
    )
    report(1.0, "Done")
    return result


def check_chunks_task(
    text: str, chunks: tuple[Chunk, ...], tokenizer_id: TokenizerRef, size: int
) -> list[str]:
    """`check_chunks` of a large document's chunks (the tokenizer as a `portable` ref)."""
    report(0.0, f"Checking {len(chunks):,} chunks...")
    problems = check_chunks(text, chunks, rebuild(tokenizer_id), size=size)
    report(1.0, "Done")
    return problems


__all__ = [
    "analyse_identifiers_task",
    "check_chunks_task",
    "chunk_task",
    "count_table_task",
    "preload_ids",
    "tally_task",
    "train_bpe_task",
    "warm_steps",
    "worker_builtin",
]
