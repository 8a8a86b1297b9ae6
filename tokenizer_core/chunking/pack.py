"""Cut a document into token-sized chunks for retrieval, with exact offsets and real counts.

    >>> from tokenizer_core import chunk_text, load_builtin
    >>> result = chunk_text("One. Two. Three.", load_builtin("cl100k_base"), strategy="sentences", size=5)
    >>> [(c.start, c.end, c.text, c.tokens) for c in result.chunks]
    [(0, 10, 'One. Two. ', 5), (10, 16, 'Three.', 2)]

What every strategy guarantees (each is a property test in tests/test_chunking_props.py):

* Offsets are built by construction, never searched for: ``text[c.start:c.end] == c.text``.
* Cover: chunks come in document order and their spans together are exactly ``[0, len(text))``.
  With overlap 0 they tile the text (each chunk starts where the previous one ended, so the
  whitespace between two pieces belongs to the chunk before it). With overlap > 0 each chunk
  starts inside the previous one, at or after the end of the one before that (a character is
  in at most two chunks), and ends after it.
* Budget: ``c.tokens`` is the tokenizer's own count of ``c.text`` (counts are not additive
  across a join, so it is never a sum of parts) and is at most `size`. A piece that cannot be
  split further is cut between grapheme clusters (``regex`` ``\\X``), never inside a UTF-8
  character; only a single cluster above the budget is cut between its code points, and only a
  single character above it makes an over-budget chunk. Both cases carry a `note`.
* Overlap: ``c.overlap_chars == prev.end - c.start`` and ``c.overlap_tokens`` is the count of
  that shared text.
* Empty and whitespace-only text gives no chunks.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
import time
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources

from ..tokenizers.encoders import Tokenizer
from .costs import (
    SafeCutSet,
    WindowStats,
    cluster_note,
    count_texts,
    counts_between,
    cut_rule,
    fast_token_units,
    token_units,
    token_windows,
)
from .cuts import (
    Block,
    GraphemeCursor,
    Splitter,
    code_layout,
    fixed_cuts,
    grapheme_boundaries,
    is_grapheme_boundary,
    line_cuts,
    markdown_blocks,
    paragraph_cuts,
    sentence_cuts,
    union_splitter,
    word_cuts,
    word_starts,
)

MAX_CHUNK_TOKENS = 1_000_000


@dataclass(frozen=True, slots=True)
class Strategy:
    """A chunking strategy as users see it."""

    id: str
    label: str
    description: str


STRATEGIES: dict[str, Strategy] = {
    s.id: s
    for s in (
        Strategy("tokens", "Token windows",
                 "Fixed windows of exactly `size` tokens; each window repeats the last `overlap` "
                 "tokens of the one before. Cuts anywhere between whole characters."),
        Strategy("recursive", "Recursive (paragraphs → lines → sentences → words)",
                 "Keeps paragraphs whole when they fit, otherwise splits them on lines, then "
                 "sentences, then words, then tokens, and packs the pieces up to the budget."),
        Strategy("sentences", "Sentences",
                 "Packs whole sentences (and paragraph ends) up to the budget; only a sentence "
                 "longer than the budget is split, on lines and then words."),
        Strategy("markdown", "Markdown",
                 "Cuts between headings, paragraphs, lists and fenced code; a heading always "
                 "travels with the start of its section when both fit in one chunk."),
        Strategy("code", "Code",
                 "Cuts between top-level functions and classes (Python's `ast`; column-0 lines "
                 "for other languages), then between methods, blank lines and lines."),
    )
}  # fmt: skip


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


class ChunkSettingsError(ValueError):
    """Chunking settings that cannot work; the message says what to use instead."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One chunk: ``text == document[start:end]``, `tokens` its own count under the tokenizer.

    `overlap_tokens` / `overlap_chars` measure the text shared with the previous chunk.
    `section` names where it is (Markdown heading path, code definitions); `note` explains an
    unusual cut (a grapheme cluster or a character alone above the budget).
    """

    index: int
    start: int
    end: int
    text: str
    tokens: int
    overlap_tokens: int = 0
    overlap_chars: int = 0
    section: str = ""
    note: str = ""

    @property
    def chars(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class ChunkStep:
    """One step of the chunker, as data: ``ChunkStep("split", "paragraphs", 120, "3 above budget")``."""

    kind: str
    name: str
    count: int
    detail: str = ""


@dataclass(frozen=True)
class ChunkResult:
    """Chunks of one document plus the settings, the steps taken and warnings for the user."""

    chunks: tuple[Chunk, ...]
    strategy: str
    tokenizer_id: str
    size: int
    overlap: int
    text_length: int
    steps: tuple[ChunkStep, ...] = ()
    warnings: tuple[str, ...] = ()
    seconds: float = 0.0


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


# ------------------------------------------------------------------------------------ settings


def validate_settings(*, strategy: str, size: int, overlap: int) -> None:
    """Raise ChunkSettingsError with a fix for settings that cannot work.

    ``validate_settings(strategy="tokens", size=100, overlap=100)`` raises "Overlap (100) must
    be smaller than the chunk size (100) ...".
    """
    if strategy not in STRATEGIES:
        raise ChunkSettingsError(f"Unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}.")
    if isinstance(size, bool) or not isinstance(size, int):
        raise ChunkSettingsError(f"Chunk size must be a whole number of tokens, not {size!r}.")
    if isinstance(overlap, bool) or not isinstance(overlap, int):
        raise ChunkSettingsError(f"Overlap must be a whole number of tokens, not {overlap!r}.")
    if size < 1:
        raise ChunkSettingsError(
            f"Chunk size must be at least 1 token (got {size:,}). Typical sizes are 256 to 1,024 tokens."
        )
    if size > MAX_CHUNK_TOKENS:
        raise ChunkSettingsError(
            f"Chunk size {size:,} is above the {MAX_CHUNK_TOKENS:,}-token maximum; no embedding "
            "model reads that much at once. Use a smaller size."
        )
    if overlap < 0:
        raise ChunkSettingsError(f"Overlap cannot be negative (got {overlap:,}). Use 0 for no overlap.")
    if overlap >= size:
        raise ChunkSettingsError(
            f"Overlap ({overlap:,}) must be smaller than the chunk size ({size:,}): every chunk has "
            f"to bring some new text. Use at most {size - 1:,} tokens (10-20% of the size is common), "
            "or raise the chunk size."
        )


def overlap_from_percent(size: int, percent: float) -> int:
    """Overlap in tokens for a percentage of the chunk size: ``overlap_from_percent(512, 10) -> 51``."""
    if not 0 <= percent < 100:
        raise ChunkSettingsError(
            f"Overlap must be from 0% to less than 100% of the chunk size (got {percent:g}%); "
            "100% would repeat whole chunks."
        )
    return min(int(round(size * percent / 100)), max(size - 1, 0))


# ------------------------------------------------------------------------------------ atoms


@dataclass(frozen=True, slots=True)
class _Atom:
    start: int
    end: int
    tokens: int
    level: int = 0  # strength of the cut at `start`: 0 strongest (first splitter), higher weaker
    safe: bool = False  # counts add up across the cut at `start`


@dataclass
class _Log:
    steps: list[ChunkStep] = field(default_factory=list)
    counted_texts: int = 0
    counted_chars: int = 0

    def add(self, kind: str, name: str, count: int, detail: str = "") -> None:
        self.steps.append(ChunkStep(kind, name, count, detail))

    def counted(self, texts: Sequence[str]) -> None:
        self.counted_texts += len(texts)
        self.counted_chars += sum(map(len, texts))


class _Counts:
    """Counting for one document: the tokenizer's cut rule, its safe cuts and, for long texts,
    the token units of one pass over the whole text (pieces between two safe cuts are read
    from them instead of being encoded again)."""

    UNITS_FROM = 20_000  # characters; below this, counting pieces one by one is as fast

    def __init__(self, text: str, tok: Tokenizer, log: _Log) -> None:
        self.text, self.tok, self.log = text, tok, log
        self.rule = cut_rule(tok)
        self.cuts = SafeCutSet(text, self.rule)
        self.units = fast_token_units(tok, text) if self.rule and len(text) >= self.UNITS_FROM else None
        if self.units is not None:
            log.add("encode", "tokens", self.units.tokens, "one pass over the whole text")

    def spans(self, spans: Sequence[tuple[int, int]]) -> list[int]:
        """Real token counts of ``text[s:e]`` for each span."""
        if not spans:
            return []
        known = (
            counts_between(self.units, self.cuts, [s for s, _ in spans], [e for _, e in spans]).tolist()
            if self.units is not None else [-1] * len(spans)
        )  # fmt: skip
        todo = [k for k, n in enumerate(known) if n < 0]
        texts = [self.text[spans[k][0] : spans[k][1]] for k in todo]
        self.log.counted(texts)
        for k, n in zip(todo, count_texts(self.tok, texts)):
            known[k] = n
        return known

    def safe_starts(self, starts: Sequence[int]) -> list[bool]:
        return self.cuts.contains(starts).tolist() if self.rule else [False] * len(starts)


def _atomize(
    text: str, counts: _Counts, size: int, levels: Sequence[tuple[str, Splitter]], log: _Log
) -> list[_Atom]:
    """Split the text level by level until every piece fits; count each level in one batch."""
    tok = counts.tok
    found: list[tuple[int, int, int, int]] = []  # (start, end, tokens, level)
    # (start, end, known count, level of the cut at start)
    todo: list[tuple[int, int, int | None, int]] = [(0, len(text), None, 0)]
    for depth, (name, split) in enumerate(levels):
        pieces: list[tuple[int, int, int | None, int]] = []
        for s, e, known, lvl in todo:
            cuts = split(text, s, e)
            if not cuts:
                pieces.append((s, e, known, lvl))
                continue
            bounds = [s, *cuts, e]
            pieces.extend((a, b, None, lvl if a == s else depth) for a, b in zip(bounds, bounds[1:]))
        fresh = iter(counts.spans([(s, e) for s, e, known, _ in pieces if known is None]))
        todo = []
        for s, e, known, lvl in pieces:
            n = next(fresh) if known is None else known
            if n <= size:
                found.append((s, e, n, lvl))
            else:
                todo.append((s, e, n, lvl))
        log.add("split", name, len(pieces), f"{len(todo):,} above the budget")
        if not todo:
            break
    if todo:  # pieces no separator can split: token windows (whole grapheme clusters)
        wstats = WindowStats()
        graphemes = GraphemeCursor(text)  # pieces come in order: one scan for all of them
        cut = 0
        for s, e, _, lvl in todo:
            for w in token_windows(text, tok, size=size, start=s, end=e, stats=wstats, graphemes=graphemes):
                found.append((w.start, w.end, w.tokens, lvl if w.start == s else len(levels)))
                cut += 1
        log.counted_texts += wstats.counted_texts
        log.counted_chars += wstats.counted_chars
        log.add("split", "tokens", cut, f"{len(todo):,} unbroken pieces cut between whole characters")
    found.sort()
    safe = counts.safe_starts([s for s, _, _, _ in found])
    return [_Atom(s, e, n, lvl, ok) for (s, e, n, lvl), ok in zip(found, safe)]


def _glue_headings(
    text: str, tok: Tokenizer, atoms: list[_Atom], blocks: Sequence[Block], size: int, log: _Log
) -> list[_Atom]:
    """Join each heading with what follows it when both fit in one chunk (last heading first)."""
    heading_spans = {(b.start, b.end) for b in blocks if b.kind == "heading"}
    glued = 0
    out = list(atoms)
    k = len(out) - 2
    while k >= 0:
        a, b = out[k], out[k + 1]
        if (a.start, a.end) in heading_spans:
            n = tok.count(text[a.start : b.end])
            log.counted([text[a.start : b.end]])
            if n <= size:
                out[k : k + 2] = [_Atom(a.start, b.end, n, a.level, a.safe)]
                glued += 1
        k -= 1
    log.add("glue", "headings", glued, "headings joined to the text after them")
    return out


# ------------------------------------------------------------------------------------ packing


def _overlap_start(text: str, tok: Tokenizer, lo: int, hi: int, overlap: int) -> tuple[int, int]:
    """Where the next chunk starts: the earliest word start p in [lo, hi) whose tail
    ``text[p:hi]`` has at most `overlap` tokens. Returns (p, tokens), or (hi, 0) for none.

    Falls back to grapheme boundaries when the tail has no word start at all (e.g. Chinese).
    """
    if overlap <= 0 or lo >= hi:
        return hi, 0
    span = 8 * overlap + 16
    while True:
        a = max(lo, hi - span)
        # whole words when the tail has any; otherwise (e.g. Chinese) whole grapheme clusters
        cands = word_starts(text, a, hi) or _grapheme_starts(text, a, hi)
        best = _smallest_fitting(text, tok, cands, hi, overlap) if cands else None
        if best is None:
            return hi, 0
        if best[0] == a and a > lo and span < hi - lo:
            span *= 4  # the overlap may reach further back: look again with a wider span
            continue
        return best


def _grapheme_starts(text: str, a: int, hi: int) -> list[int]:
    out = [a] if is_grapheme_boundary(text, a) else []
    return out + grapheme_boundaries(text, a, hi)


def _smallest_fitting(
    text: str, tok: Tokenizer, cands: list[int], hi: int, budget: int
) -> tuple[int, int] | None:
    lo_i, hi_i = 0, len(cands) - 1
    best = None
    while lo_i <= hi_i:
        mid = (lo_i + hi_i) // 2
        n = tok.count(text[cands[mid] : hi])
        if n <= budget:
            best = (cands[mid], n)
            hi_i = mid - 1
        else:
            lo_i = mid + 1
    return best


def _join_saving(text: str, pos: int) -> int:
    """Tokens a join usually saves: GPT-style tokenizers glue a space to the next word.

    ``"word " + "next"`` counts as "word", " next" (2) rather than "word", " ", "next" (3). Only
    an estimate for packing; every such chunk is counted for real afterwards.
    """
    return int(pos >= 2 and text[pos - 1] == " " and not text[pos - 2].isspace() and text[pos].isalnum())


class _Packer:
    """Greedy packing of atoms up to the budget into (start, end, tokens, overlap tokens).

    A chunk's count is the sum of its atoms only when every join inside it is a safe cut
    (counts add up exactly there); otherwise the runs of atoms joined elsewhere are counted.
    Without overlap the chunks are planned from estimates a batch at a time and counted in one
    call; a chunk whose real count is above the budget is shortened and the rest re-planned.
    With overlap chunks are built one at a time (each overlap depends on where the previous
    chunk ended): count, shorten, extend while more pieces still fit.
    """

    def __init__(self, text: str, tok: Tokenizer, atoms: Sequence[_Atom], size: int, overlap: int, log: _Log):
        self.text, self.tok, self.atoms, self.size, self.overlap, self.log = (
            text,
            tok,
            atoms,
            size,
            overlap,
            log,
        )
        self.safe = cut_rule(tok) is not None
        self.verified = self.shortened = 0

    def _count(self, a: int, b: int) -> int:
        self.verified += 1
        self.log.counted([self.text[a:b]])
        return self.tok.count(self.text[a:b])

    def _greedy(self, i: int, est: int, exact: bool) -> tuple[int, int, bool, bool]:
        """Take atoms from i while the estimate fits -> (j, estimate, exact, moved back).

        Takes one atom at least.

        When the chunk is full, it ends at the strongest cut among its pieces (a paragraph
        rather than a sentence, a sentence rather than a word) as long as that keeps it at
        least half full.
        """
        atoms, text, n = self.atoms, self.text, len(self.atoms)
        j = i
        ests = [est]  # estimate with atoms i..j-1, for each j
        exacts = [exact]
        while j < n:
            joined = j > i
            add = atoms[j].tokens - (_join_saving(text, atoms[j].start) if joined else 0)
            if est + add > self.size and j > i:
                break
            if joined and not atoms[j].safe:
                exact = False
            est += add
            j += 1
            ests.append(est)
            exacts.append(exact)
        if j < n and j - i > 1:
            best = j
            for k in range(j - 1, i, -1):
                if ests[k - i] < self.size / 2:
                    break
                if atoms[k].level < atoms[best].level:
                    best = k
            if best != j:
                return best, ests[best - i], exacts[best - i], True
        return j, est, exact, False

    def run(self) -> list[tuple[int, int, int, int]]:
        out = self._batched() if self.overlap == 0 else self._sequential(0, 0, [])
        self.log.add(
            "pack", "chunks", len(out), f"{self.verified:,} chunk texts counted, {self.shortened:,} shortened"
        )
        return out

    def _runs(self, a: int, b: int) -> list[tuple[int, int]]:
        """Atoms a..b-1 grouped into runs joined by unsafe cuts: counts add up between runs."""
        runs = []
        r0 = a
        for k in range(a + 1, b):
            if not self.atoms[k].safe:
                continue
            runs.append((r0, k))
            r0 = k
        runs.append((r0, b))
        return runs

    def _real(self, cs: int, ov: int, i: int, j: int) -> int:
        """The real count of ``text[cs:atoms[j-1].end]`` (an overlap of `ov` tokens, then atoms
        i..j-1), counting only the runs that contain an unsafe join."""
        atoms, text = self.atoms, self.text
        total = 0
        runs = self._runs(i, j)
        if cs < atoms[i].start:
            if atoms[i].safe:
                total += ov  # the overlap's own count adds up across this cut
            else:
                r0, r1 = runs.pop(0)
                total += self._count(cs, atoms[r1 - 1].end)
        for r0, r1 in runs:
            total += atoms[r0].tokens if r1 - r0 == 1 else self._count(atoms[r0].start, atoms[r1 - 1].end)
        return total

    def _batched(self) -> list[tuple[int, int, int, int]]:
        """Plan chunks from estimates a batch at a time and count the unsafe runs in one call.

        A chunk whose real count is above the budget is shortened and the rest planned again;
        the batch halves after such a miss (less planning wasted) and doubles after a clean one.
        """
        atoms, text, n = self.atoms, self.text, len(self.atoms)
        out: list[tuple[int, int, int, int]] = []
        i, batch = 0, 64
        while i < n:
            plan = []  # (first atom, end atom, runs to count)
            texts: list[str] = []
            k = i
            while k < n and len(plan) < batch:
                j, _, _, _ = self._greedy(k, 0, self.safe)
                runs = [(r0, r1) for r0, r1 in self._runs(k, j) if r1 - r0 > 1]
                plan.append((k, j, runs))
                texts.extend(text[atoms[r0].start : atoms[r1 - 1].end] for r0, r1 in runs)
                k = j
            # a chunk's count: each run of atoms joined by unsafe cuts counted for real, the
            # atoms between safe cuts by their own counts
            counts = iter(count_texts(self.tok, texts))
            self.verified += len(texts)
            self.log.counted(texts)
            batch = min(1024, batch * 2)
            for a, b, runs in plan:
                real = sum(atoms[x].tokens for x in range(a, b))
                for r0, r1 in runs:
                    real += next(counts) - sum(atoms[x].tokens for x in range(r0, r1))
                if real <= self.size or b - a == 1:
                    out.append((atoms[a].start, atoms[b - 1].end, real, 0))
                    i = b
                    continue
                # above the budget once counted: shorten this chunk, then plan the rest again
                while real > self.size and b - a > 1:
                    b -= 1
                    self.shortened += 1
                    real = self._real(atoms[a].start, 0, a, b)
                out.append((atoms[a].start, atoms[b - 1].end, real, 0))
                i = b
                batch = max(1, batch // 4)
                break
        return out

    def _sequential(
        self, i: int, prev_end: int, out: list[tuple[int, int, int, int]]
    ) -> list[tuple[int, int, int, int]]:
        atoms, text, n, size = self.atoms, self.text, len(self.atoms), self.size
        cs, ov = atoms[i].start if i < n else 0, 0
        ov_lo = cs  # where the current overlap could start at the earliest

        def smaller_overlap(limit: int) -> tuple[int, int]:
            """A shorter overlap (at most `limit` tokens), or none: (start, tokens)."""
            if limit <= 0:
                return atoms[i].start, 0
            return _overlap_start(text, self.tok, ov_lo, atoms[i].start, limit)

        while i < n:
            with_overlap = cs < atoms[i].start
            exact = self.safe and (not with_overlap or atoms[i].safe)
            j, est, exact, moved_back = self._greedy(i, ov, exact)
            if with_overlap and est > size:  # the overlap and the next piece do not fit together
                cs, ov = smaller_overlap(min(ov - 1, size - atoms[i].tokens - 1))
                continue
            real = est
            if not exact:
                real = self._real(cs, ov, i, j)
                while real > size and j - 1 > i:
                    j -= 1
                    self.shortened += 1
                    real = self._real(cs, ov, i, j)
                if real > size and with_overlap:  # the overlap plus one piece is too much
                    cs, ov = smaller_overlap(min(ov - 1, ov - (real - size)))
                    continue
                while (
                    not moved_back and j < n and real + atoms[j].tokens <= size + 2
                ):  # joins can save tokens
                    more = self._real(cs, ov, i, j + 1)
                    if more > size:
                        break
                    real, j = more, j + 1
            ce = atoms[j - 1].end
            out.append((cs, ce, real, ov if with_overlap else 0))
            i = j
            if i >= n:
                break
            if self.overlap:
                ov_lo = max(cs + 1, prev_end)
                cs, ov = _overlap_start(text, self.tok, ov_lo, ce, self.overlap)
            else:
                cs, ov = ce, 0
            prev_end = ce
        return out


def _pack(
    text: str, tok: Tokenizer, atoms: Sequence[_Atom], size: int, overlap: int, log: _Log
) -> list[tuple[int, int, int, int]]:
    """Pack atoms into chunks (see :class:`_Packer`)."""
    return _Packer(text, tok, atoms, size, overlap, log).run() if atoms else []


# ------------------------------------------------------------------------------------ strategies


def _prose_levels(strategy: str) -> list[tuple[str, Splitter]]:
    if strategy == "sentences":
        return [
            ("sentences", union_splitter(paragraph_cuts, sentence_cuts)),
            ("lines", line_cuts),
            ("words", word_cuts),
        ]
    return [
        ("paragraphs", paragraph_cuts),
        ("lines", line_cuts),
        ("sentences", sentence_cuts),
        ("words", word_cuts),
    ]


def _section_finder(
    text: str, strategy: str, blocks: Sequence[Block], definitions: Sequence[tuple[int, int, str]]
):
    """A function (start, end) -> section label for Markdown and code chunks."""
    if strategy == "markdown" and blocks:
        starts = [b.start for b in blocks]

        def md(s: int, e: int) -> str:
            k = max(0, bisect_right(starts, s) - 1)
            return blocks[k].section

        return md
    if strategy == "code" and definitions:

        def code(s: int, e: int) -> str:
            inside = [name for a, _, name in definitions if s <= a < e]
            if inside:
                return ", ".join(inside[:6]) + (" ..." if len(inside) > 6 else "")
            around = [name for a, b, name in definitions if a < s < b]
            return f"in {around[-1]}" if around else ""

        return code
    return lambda s, e: ""


def chunk_text(
    text: str,
    tokenizer: Tokenizer,
    *,
    strategy: str = "recursive",
    size: int = 512,
    overlap: int = 0,
) -> ChunkResult:
    """Cut `text` into chunks of at most `size` tokens of `tokenizer` (see the module docstring).

    `strategy` is one of :data:`STRATEGIES`; `overlap` is in tokens (see
    :func:`overlap_from_percent`). Raises ChunkSettingsError for settings that cannot work.
    """
    validate_settings(strategy=strategy, size=size, overlap=overlap)
    t0 = time.perf_counter()
    log = _Log()
    blocks: list[Block] = []
    definitions: tuple[tuple[int, int, str], ...] = ()
    if not text or text.isspace():
        return ChunkResult((), strategy, tokenizer.id, size, overlap, len(text), (), (), 0.0)

    notes: dict[int, str] = {}
    if strategy == "tokens":
        wstats = WindowStats()
        units = token_units(tokenizer, text)
        log.add("encode", "tokens", units.tokens, "token byte lengths" if units.fast else "segments")
        windows = token_windows(text, tokenizer, size=size, overlap=overlap, units=units, stats=wstats)
        log.counted_texts, log.counted_chars = wstats.counted_texts, wstats.counted_chars
        log.add(
            "windows", "chunks", len(windows), f"{wstats.repaired:,} shortened after counting their own text"
        )
        spans = [(w.start, w.end, w.tokens, w.overlap_tokens) for w in windows]
        notes = {k: w.note for k, w in enumerate(windows) if w.note}
    else:
        if strategy == "markdown":
            blocks = markdown_blocks(text)
            log.add(
                "parse",
                "markdown blocks",
                len(blocks),
                f"{sum(b.kind == 'heading' for b in blocks):,} headings",
            )
            levels = [("blocks", fixed_cuts([b.start for b in blocks[1:]]))] + _prose_levels("recursive")[1:]
        elif strategy == "code":
            layout = code_layout(text)
            definitions = layout.definitions
            names = (["definitions", "statements", "nested statements"] if layout.method == "python"
                     else ["column-0 blocks", "column-0 lines"])  # fmt: skip
            log.add("parse", f"code ({layout.method})", sum(map(len, layout.levels)),
                    "parsed with Python's ast" if layout.method == "python"
                    else "not Python: cut at column-0 lines")  # fmt: skip
            levels = [(nm, fixed_cuts(list(cuts))) for nm, cuts in zip(names, layout.levels)]
            levels += [("blank lines", paragraph_cuts), ("lines", line_cuts), ("words", word_cuts)]
        else:
            levels = _prose_levels(strategy)
        atoms = _atomize(text, _Counts(text, tokenizer, log), size, levels, log)
        if strategy == "markdown":
            atoms = _glue_headings(text, tokenizer, atoms, blocks, size, log)
        spans = _pack(text, tokenizer, atoms, size, overlap, log)
        notes = _atom_notes(text, tokenizer, spans, size)

    section = _section_finder(text, strategy, blocks, definitions)
    chunks: list[Chunk] = []
    for k, (s, e, n, ov) in enumerate(spans):
        ov_chars = max(0, chunks[-1].end - s) if chunks else 0
        chunks.append(
            Chunk(k, s, e, text[s:e], n, ov if ov_chars else 0, ov_chars, section(s, e), notes.get(k, ""))
        )
    log.add("count", "texts counted", log.counted_texts, f"{log.counted_chars:,} characters")
    return ChunkResult(
        tuple(chunks), strategy, tokenizer.id, size, overlap, len(text), tuple(log.steps),
        tuple(_warnings(chunks, size, overlap)), round(time.perf_counter() - t0, 4),
    )  # fmt: skip


def _atom_notes(
    text: str, tok: Tokenizer, spans: Sequence[tuple[int, int, int, int]], size: int
) -> dict[int, str]:
    """Notes for chunks cut inside a grapheme cluster or over budget (structural strategies).

    Positions go forward, so one grapheme cursor answers every question with one scan.
    """
    notes: dict[int, str] = {}
    graphemes = GraphemeCursor(text)
    for k, (s, e, n, _) in enumerate(spans):
        if n > size:
            notes[k] = f"over budget: {text[s:e]!r} alone is {n} tokens"
            continue
        inside = [p for p in (s, e) if not graphemes.is_boundary(p)]
        if inside:
            a, b = graphemes.at_or_before(inside[0]), graphemes.next_after(inside[0])
            notes[k] = cluster_note(text[a:b], tok.count(text[a:b]), size)
    return notes


def _warnings(chunks: Sequence[Chunk], size: int, overlap: int) -> list[str]:
    out: list[str] = []
    if len(chunks) == 1:
        out.append(
            f"The whole document is {chunks[0].tokens:,} tokens, so it fits in one chunk of "
            f"{size:,}. Lower the chunk size to see it split."
        )
    cut = sum("grapheme" in c.note for c in chunks)
    over = [c for c in chunks if c.tokens > size]
    if cut:
        out.append(
            f"{cut:,} chunk(s) cut inside a grapheme cluster (a single cluster above {size:,} tokens)."
        )
    if over:
        out.append(
            f"{len(over):,} chunk(s) exceed {size:,} tokens: a single character needs more tokens "
            "than the budget. Raise the chunk size."
        )
    if overlap and len(chunks) > 1:
        got = [c.overlap_tokens for c in chunks[1:]]
        mean = sum(got) / len(got)
        if mean < 0.75 * overlap:
            out.append(
                f"The overlap averages {mean:,.1f} tokens for a setting of {overlap:,}: overlaps start "
                "at a word, never repeat text from two chunks back, and shrink where the overlap and "
                "the next whole piece would not fit in one chunk together."
            )
    return out


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
    counts = count_texts(tokenizer, [c.text for c in chunks])
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


# ------------------------------------------------------------------------------------ samples


@dataclass(frozen=True, slots=True)
class ChunkSample:
    """A bundled sample document and the strategy that suits it."""

    id: str
    label: str
    filename: str
    strategy: str


CHUNK_SAMPLES: dict[str, ChunkSample] = {
    s.id: s
    for s in (
        ChunkSample("markdown", "Markdown guide with headings", "retrieval_guide.md", "markdown"),
        ChunkSample(
            "prose", "Essay (prose, a little Hindi, Japanese, emoji)", "river_essay.txt", "recursive"
        ),
        ChunkSample("python", "Python module", "inventory.py", "code"),
    )
}


def load_chunk_sample(sample_id: str) -> str:
    """Text of a bundled sample document: ``load_chunk_sample("python")``."""
    if sample_id not in CHUNK_SAMPLES:
        raise KeyError(f"no chunk sample {sample_id!r}; choose one of {list(CHUNK_SAMPLES)}")
    path = resources.files("tokenizer_core") / "data" / "chunk_samples" / CHUNK_SAMPLES[sample_id].filename
    return path.read_text(encoding="utf-8")


def long_document(chars: int = 1_000_000) -> str:
    """About `chars` characters of Markdown: the samples repeated as numbered parts.

    A stress test for the page (a 1 MB document must chunk and render without freezing).
    """
    guide, essay, code = (load_chunk_sample(k) for k in ("markdown", "prose", "python"))
    parts: list[str] = []
    total, k = 0, 0
    while total < chars:
        k += 1
        part = f"# Part {k}\n\n{essay}\n{guide.replace('# Preparing', f'## {k}. Preparing', 1)}\n```python\n{code}```\n\n"
        parts.append(part)
        total += len(part)
    return "".join(parts)


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
    """CSV with a header: index, start, end, chars, tokens, overlaps, section, note, text."""
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
                c.section,
                c.note,
                c.text,
            ]
        )
    return buf.getvalue()
