"""Pieces that fit: the document split level by level until every piece is within the budget.

Third stage of the chunker, after `cuts` (where a document may be cut) and with `units` and `windows` (what
a piece costs in tokens): a strategy's levels (paragraphs, lines, sentences, words; Markdown blocks;
code definitions) are applied strongest first, each level's pieces counted in one batch, and
only the pieces still above the budget go on to the next level. Pieces no separator can split
are cut into token windows. The result is "atoms": counted pieces, each within the budget
(only a cluster or character alone above it is not), that `pack` then joins into chunks. Each
step is recorded as a :class:`ChunkStep` for the page's trace.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..tokenizers.encoders import Tokenizer
from .counting import count_texts
from .cuts import (
    Block,
    GraphemeCursor,
    Splitter,
    code_layout,
    fixed_cuts,
    line_cuts,
    markdown_blocks,
    paragraph_cuts,
    sentence_cuts,
    union_splitter,
    word_cuts,
)
from .safe_cuts import SafeCutSet, cut_rule
from .units import counts_between, fast_token_units
from .windows import WindowStats, token_windows


@dataclass(frozen=True, slots=True)
class ChunkStep:
    """One step of the chunker, as data: ``ChunkStep("split", "paragraphs", 120, "3 above budget")``."""

    kind: str
    name: str
    count: int
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Atom:
    """A counted piece of the document: ``text[start:end]`` is `tokens` tokens (its own count)."""

    start: int
    end: int
    tokens: int
    level: int = 0  # strength of the cut at `start`: 0 strongest (first splitter), higher weaker
    safe: bool = False  # counts add up across the cut at `start`


@dataclass
class StepLog:
    """The steps taken so far (as :class:`ChunkStep` records) and how much text was counted."""

    steps: list[ChunkStep] = field(default_factory=list)
    counted_texts: int = 0
    counted_chars: int = 0

    def add(self, kind: str, name: str, count: int, detail: str = "") -> None:
        self.steps.append(ChunkStep(kind, name, count, detail))

    def counted(self, texts: Sequence[str]) -> None:
        self.counted_texts += len(texts)
        self.counted_chars += sum(map(len, texts))


class Counts:
    """Counting for one document: the tokenizer's cut rule, its safe cuts and, for long texts,
    the token units of one pass over the whole text (pieces between two safe cuts are read
    from them instead of being encoded again)."""

    UNITS_FROM = 20_000  # characters; below this, counting pieces one by one is as fast

    def __init__(self, text: str, tok: Tokenizer, log: StepLog) -> None:
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
        for k, n in zip(todo, count_texts(texts, self.tok)):
            known[k] = n
        return known

    def safe_starts(self, starts: Sequence[int]) -> list[bool]:
        return self.cuts.contains(starts).tolist() if self.rule else [False] * len(starts)


def atomize(
    text: str, counts: Counts, size: int, levels: Sequence[tuple[str, Splitter]], log: StepLog
) -> list[Atom]:
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
    return [Atom(s, e, n, lvl, ok) for (s, e, n, lvl), ok in zip(found, safe)]


def glue_headings(
    text: str, tok: Tokenizer, atoms: list[Atom], blocks: Sequence[Block], size: int, log: StepLog
) -> list[Atom]:
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
                out[k : k + 2] = [Atom(a.start, b.end, n, a.level, a.safe)]
                glued += 1
        k -= 1
    log.add("glue", "headings", glued, "headings joined to the text after them")
    return out


# ---------------------------------------------------------------------------------- structure


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


@dataclass(frozen=True)
class Structure:
    """What a strategy reads in the document before splitting: its split levels (strongest
    first) and, for Markdown and code, the blocks and definitions that name a chunk's section."""

    levels: list[tuple[str, Splitter]]
    blocks: Sequence[Block] = ()
    definitions: Sequence[tuple[int, int, str]] = ()


def read_structure(text: str, strategy: str, log: StepLog) -> Structure:
    """The split levels of a structural strategy (not "tokens") for this document."""
    if strategy == "markdown":
        blocks = markdown_blocks(text)
        log.add(
            "parse",
            "markdown blocks",
            len(blocks),
            f"{sum(b.kind == 'heading' for b in blocks):,} headings",
        )
        levels = [("blocks", fixed_cuts([b.start for b in blocks[1:]]))] + _prose_levels("recursive")[1:]
        return Structure(levels, blocks=blocks)
    if strategy == "code":
        layout = code_layout(text)
        names = (["definitions", "statements", "nested statements"] if layout.method == "python"
                 else ["column-0 blocks", "column-0 lines"])  # fmt: skip
        log.add("parse", f"code ({layout.method})", sum(map(len, layout.levels)),
                "parsed with Python's ast" if layout.method == "python"
                else "not Python: cut at column-0 lines")  # fmt: skip
        levels = [(nm, fixed_cuts(list(cuts))) for nm, cuts in zip(names, layout.levels)]
        levels += [("blank lines", paragraph_cuts), ("lines", line_cuts), ("words", word_cuts)]
        return Structure(levels, definitions=layout.definitions)
    return Structure(_prose_levels(strategy))


def section_finder(
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
