"""Chunks: atoms packed up to the budget (with overlap), and `chunk_text`, the whole pipeline.

Fourth stage of the chunker: :func:`chunk_text` checks the settings, reads the document's
structure and splits it into atoms (`atoms`, over `cuts`, `units` and `windows`), packs them here into
:class:`Chunk` s, and notes unusual cuts. Token windows (strategy "tokens") skip the atoms.

    >>> from tokenizer_core import chunk_text, load_builtin
    >>> result = chunk_text("One. Two. Three.", load_builtin("cl100k_base"), strategy="sentences", size=5)
    >>> [(c.start, c.end, c.text, c.tokens) for c in result.chunks]
    [(0, 10, 'One. Two. ', 5), (10, 16, 'Three.', 2)]

What every strategy guarantees (each is a property test in tests/chunking/test_guarantees.py):

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

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..catalog.lookup import as_tokenizer
from ..tokenizers.encoders import Tokenizer
from .atoms import Atom, ChunkStep, Counts, StepLog, atomize, glue_headings, read_structure, section_finder
from .counting import count_texts
from .cuts import Block, GraphemeCursor, grapheme_boundaries, is_grapheme_boundary, word_starts
from .fit import cluster_note
from .safe_cuts import cut_rule
from .settings import validate_settings
from .units import token_units
from .windows import WindowStats, token_windows


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

    def __init__(
        self,
        text: str,
        tok: Tokenizer,
        atoms: Sequence[Atom],
        size: int,
        overlap: int,
        log: StepLog,
        progress: Callable[[int, int], None] | None = None,
    ):
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
        self.progress = progress or (lambda done, total: None)  # (atoms packed, atoms)

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
        atoms = self.atoms
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
            self.progress(i, n)
            plan: list[tuple[int, int, list[tuple[int, int]]]] = []  # (first atom, end atom, runs to count)
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
            counts = iter(count_texts(texts, self.tok))
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
        reported = 0

        def smaller_overlap(limit: int) -> tuple[int, int]:
            """A shorter overlap (at most `limit` tokens), or none: (start, tokens)."""
            if limit <= 0:
                return atoms[i].start, 0
            return _overlap_start(text, self.tok, ov_lo, atoms[i].start, limit)

        while i < n:
            if i - reported >= 256:
                reported = i
                self.progress(i, n)
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


# ------------------------------------------------------------------------------------ chunk_text


def chunk_text(
    text: str,
    tokenizer: Tokenizer | str,
    *,
    strategy: str = "recursive",
    size: int = 512,
    overlap: int = 0,
    progress: Callable[[float, str], None] | None = None,
) -> ChunkResult:
    """Cut `text` into chunks of at most `size` tokens of `tokenizer` (a Tokenizer, or a model or
    tokenizer name: ``"gpt-4o"``; see the module docstring).

    `strategy` is one of :data:`STRATEGIES`; `overlap` is in tokens (see
    :func:`overlap_from_percent`). Raises ChunkSettingsError for settings that cannot work.
    `progress(fraction, what)` is called between stages and while packing (a worker job's
    `jobs.report`, which is also where a cancelled job stops).
    """
    validate_settings(strategy=strategy, size=size, overlap=overlap)
    tokenizer = as_tokenizer(tokenizer)
    step = progress or (lambda fraction, what: None)
    t0 = time.perf_counter()
    log = StepLog()
    blocks: Sequence[Block] = ()
    definitions: Sequence[tuple[int, int, str]] = ()
    if not text or text.isspace():
        return ChunkResult((), strategy, tokenizer.id, size, overlap, len(text), (), (), 0.0)

    notes: dict[int, str] = {}
    if strategy == "tokens":
        wstats = WindowStats()
        step(0.0, "Encoding the whole text...")
        units = token_units(tokenizer, text)
        log.add("encode", "tokens", units.tokens, "token byte lengths" if units.fast else "segments")
        step(0.5, f"Cutting {units.tokens:,} tokens into windows...")
        windows = token_windows(text, tokenizer, size=size, overlap=overlap, units=units, stats=wstats)
        log.counted_texts, log.counted_chars = wstats.counted_texts, wstats.counted_chars
        log.add(
            "windows", "chunks", len(windows), f"{wstats.repaired:,} shortened after counting their own text"
        )
        spans = [(w.start, w.end, w.tokens, w.overlap_tokens) for w in windows]
        notes = {k: w.note for k, w in enumerate(windows) if w.note}
    else:
        step(0.0, "Reading the document's structure...")
        structure = read_structure(text, strategy, log)
        levels, blocks, definitions = structure.levels, structure.blocks, structure.definitions
        step(0.1, "Counting the tokens of its pieces...")
        atoms = atomize(text, Counts(text, tokenizer, log), size, levels, log)
        if strategy == "markdown":
            atoms = glue_headings(text, tokenizer, atoms, blocks, size, log)

        def packed(done: int, total: int) -> None:
            step(0.45 + 0.5 * done / max(total, 1), f"Packing pieces into chunks: {done:,} of {total:,}")

        spans = _Packer(text, tokenizer, atoms, size, overlap, log, packed).run() if atoms else []
        step(0.95, "Checking the chunks...")
        notes = _atom_notes(text, tokenizer, spans, size)

    section = section_finder(text, strategy, blocks, definitions)
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
