"""Identifier analysis: the tokens each identifier takes per tokenizer, alone, in context, in other styles.

Definitions (the page shows them):

* **alone**: the tokens of the name as a text of its own (``tok.segments(name)``).
* **in the code**: the tokens of the whole file whose characters overlap the name's span, so a
  leading space or punctuation merged into the first token (`` calc``, ``.json``, ``(items``)
  is included, and the count is exactly what the name costs where it stands. The table shows the
  average over the name's occurrences; the split shown is that of its first occurrence.
* **tokens per character**: tokens alone ÷ characters, averaged over the chosen tokenizers; the
  table is sorted by it, most expensive first.
* **aligned**: no token boundary falls strictly inside one of the name's words (a token may span
  several words or a separator: ``_total`` is fine, ``calc|ulate`` is not). ``words cut`` is the
  number of words with a boundary inside.
* **identifier share**: each token of the file is counted once, for the highest-ranked kind of
  character it covers: identifier > keyword > string > comment > number > punctuation >
  whitespace. So `` calculate`` and ``(items`` count as identifier tokens, and the kinds add up
  to the file's total.
"""

from __future__ import annotations

import bisect
import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import accumulate

import numpy as np

from ..catalog.lookup import as_tokenizers
from ..tokenizers.csvcells import spreadsheet_safe
from ..tokenizers.encoders import TiktokenTokenizer, Tokenizer
from ..tokenizers.segments import Segment
from .extract import CODE, Extraction, extract_identifiers
from .languages import guess_language
from .lexer import COMMENT, IDENTIFIER, KEYWORD, NUMBER, OTHER, PUNCT, STRING, LexResult
from .styles import SINGLE, WordSplit, classify_style, split_identifier

WHITESPACE = "whitespace"
# attribution order: a token covering several kinds of character counts for the first one here
KIND_PRIORITY: tuple[str, ...] = (IDENTIFIER, KEYWORD, STRING, COMMENT, NUMBER, PUNCT, OTHER, WHITESPACE)
# per-character codes: higher wins; whitespace (text outside every lexeme) is 0
_PRIORITY_CODE = {k: len(KIND_PRIORITY) - 1 - i for i, k in enumerate(KIND_PRIORITY)}
_CODE_KIND = {v: k for k, v in _PRIORITY_CODE.items()}


@dataclass(frozen=True, slots=True)
class TokenizerCost:
    """One identifier under one tokenizer.

    Splits are kept compact (piece texts and their token ids) so cached results load fast;
    `alone` and `context` rebuild them as Segments for display.
    """

    tokenizer_id: str
    pieces: tuple[str, ...]  # the name alone, cut into whole-character segments
    piece_ids: tuple[tuple[int, ...], ...]
    alone_tokens: int
    context_pieces: tuple[str, ...]  # the file's segments overlapping the first occurrence
    context_ids: tuple[tuple[int, ...], ...]
    context_first: int  # tokens at the first occurrence
    context_total: int  # tokens over all occurrences
    aligned: bool
    words_cut: int
    context_aligned: bool

    @property
    def alone(self) -> list[Segment]:
        return _as_segments(self.pieces, self.piece_ids)

    @property
    def context(self) -> list[Segment]:
        return _as_segments(self.context_pieces, self.context_ids)


def _as_segments(pieces: Sequence[str], ids: Sequence[tuple[int, ...]]) -> list[Segment]:
    out, pos = [], 0
    for text, tids in zip(pieces, ids):
        out.append(Segment(pos, pos + len(text), tids, text, text.encode("utf-8", "surrogatepass")))
        pos += len(text)
    return out


@dataclass(frozen=True, slots=True)
class IdentifierRow:
    """One distinct name of the file with its cost under every chosen tokenizer."""

    name: str
    occurrences: int
    first_line: int
    first_col: int
    builtin: bool
    where: str
    style: str
    words: tuple[str, ...]
    costs: tuple[TokenizerCost, ...]

    @property
    def length(self) -> int:
        return len(self.name)

    @property
    def tokens_per_char(self) -> float:
        """Tokens alone ÷ characters, averaged over tokenizers (the sort key)."""
        if not self.costs or not self.name:
            return 0.0
        return sum(c.alone_tokens for c in self.costs) / len(self.costs) / len(self.name)

    def cost(self, tokenizer_id: str) -> TokenizerCost:
        for c in self.costs:
            if c.tokenizer_id == tokenizer_id:
                return c
        raise KeyError(f"{tokenizer_id!r} was not among the analysed tokenizers")


@dataclass(frozen=True, slots=True)
class IdentifierAnalysis:
    """Everything the identifier table, the code view and the share figures need."""

    language: str
    tokenizer_ids: tuple[str, ...]
    tokenizer_names: tuple[str, ...]
    rows: tuple[IdentifierRow, ...]  # most expensive first (tokens per character)
    file_tokens: dict[str, int]
    kind_tokens: dict[str, dict[str, int]]  # tokenizer -> kind -> tokens (adds up to file_tokens)
    occurrences: int
    notes: tuple[str, ...] = field(default=())
    lexer: str = ""
    # tokenizer -> tokens in the code of each occurrence, in the extraction's order
    occurrence_tokens: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def identifier_share(self, tokenizer_id: str) -> float:
        """Share of the file's tokens spent on identifiers (see the module docstring)."""
        total = self.file_tokens.get(tokenizer_id, 0)
        return self.kind_tokens[tokenizer_id].get(IDENTIFIER, 0) / total if total else 0.0

    def row(self, name: str) -> IdentifierRow:
        for r in self.rows:
            if r.name == name:
                return r
        raise KeyError(f"{name!r} is not an identifier of this code")


def token_cuts(segments: Iterable[Segment], start: int, end: int) -> list[int]:
    """Token boundaries strictly inside [start, end), relative to `start`.

    ``token_cuts(segs_of("calc|ulate"), 0, 9) -> [4]``
    """
    return sorted({s.end - start for s in segments if start < s.end < end})


def word_alignment(split: WordSplit, cuts: Iterable[int]) -> tuple[bool, int]:
    """(aligned, words cut): does any cut fall strictly inside a word?

    ``word_alignment(split_identifier("calculate_total"), [4, 9, 10]) -> (False, 1)``
    """
    cuts = sorted(cuts)
    cut_words = 0
    for s, e in split.spans:
        k = bisect.bisect_right(cuts, s)
        if k < len(cuts) and cuts[k] < e:
            cut_words += 1
    return cut_words == 0, cut_words


class _FileTokens:
    """The file's segments with prefix sums, to count the tokens overlapping any span fast."""

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments
        self.starts = [s.start for s in segments]
        self.ends = [s.end for s in segments]
        self.prefix = list(accumulate((len(s.ids) for s in segments), initial=0))

    @property
    def total(self) -> int:
        return self.prefix[-1]

    def overlapping(self, start: int, end: int) -> tuple[int, int]:
        """Index range [i, j) of the segments overlapping [start, end)."""
        i = bisect.bisect_right(self.ends, start)
        j = bisect.bisect_left(self.starts, end)
        return i, max(i, j)

    def tokens(self, start: int, end: int) -> int:
        i, j = self.overlapping(start, end)
        return self.prefix[j] - self.prefix[i]

    def tokens_many(self, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """`tokens` for many spans at once (same rule, vectorised)."""
        if not len(starts):
            return np.zeros(0, dtype=np.int64)
        i = np.searchsorted(np.asarray(self.ends), starts, side="right")
        j = np.maximum(i, np.searchsorted(np.asarray(self.starts), ends, side="left"))
        prefix = np.asarray(self.prefix, dtype=np.int64)
        return prefix[j] - prefix[i]


def alone_splits(
    tok: Tokenizer, names: Sequence[str]
) -> dict[str, tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]]:
    """Each name tokenized alone: (piece texts, ids per piece), as `tok.segments(name)` gives.

    Fast path for tiktoken tokenizers and ASCII names: encode directly, and each token is a
    whole ASCII piece (ASCII is unchanged by NFC, so Qwen's normalisation cannot differ).
    Every other name goes through `tok.segments`. A test checks both paths agree.
    """
    out: dict[str, tuple[tuple[str, ...], tuple[tuple[int, ...], ...]]] = {}
    encoding = getattr(tok, "encoding", None) if isinstance(tok, TiktokenTokenizer) else None
    fast = [n for n in names if n.isascii()] if encoding is not None else []
    if fast and encoding is not None:
        piece_of = encoding.decode_single_token_bytes
        encode = encoding.encode_ordinary  # names are short: a thread-pool batch costs more than it saves
        cache: dict[int, str] = {}
        for name in fast:
            ids = encode(name)
            pieces = []
            for t in ids:
                text = cache.get(t)
                if text is None:
                    text = cache[t] = piece_of(t).decode("ascii")
                pieces.append(text)
            out[name] = (tuple(pieces), tuple((t,) for t in ids))
    for name in names:
        if name not in out:
            segs = tok.segments(name)
            out[name] = (tuple(x.text for x in segs), tuple(x.ids for x in segs))
    return out


def kind_map(code: str, lexed: LexResult) -> np.ndarray:
    """One priority code per character (see KIND_PRIORITY); 0 means whitespace."""
    arr = np.zeros(len(code), dtype=np.uint8)
    for x in lexed.lexemes:
        arr[x.start : x.end] = _PRIORITY_CODE[x.kind]
    return arr


def attribute_tokens(segments: Sequence[Segment], kinds: np.ndarray) -> dict[str, int]:
    """Tokens per kind: each segment's tokens go to the highest-priority kind it covers.

    The values add up to the number of tokens in `segments`. Segments must be in order and
    not overlap (as every Tokenizer.segments returns them).
    """
    out = dict.fromkeys(KIND_PRIORITY, 0)
    spans = [(s.start, s.end, len(s.ids)) for s in segments if s.ids and s.end > s.start]
    if not spans or not len(kinds):
        return out
    starts = np.fromiter((a for a, _, _ in spans), dtype=np.int64, count=len(spans))
    ends = np.fromiter((b for _, b, _ in spans), dtype=np.int64, count=len(spans))
    counts = np.fromiter((n for _, _, n in spans), dtype=np.int64, count=len(spans))
    # maximum over each [start, end): reduceat over the start offsets, with gaps between
    # segments (text without tokens) masked out so they never raise a segment's kind
    covered = np.zeros(len(kinds) + 1, dtype=np.int64)
    np.add.at(covered, starts, 1)
    np.add.at(covered, ends, -1)
    masked = np.where(np.cumsum(covered[:-1]) > 0, kinds, 0).astype(np.uint8)
    best = np.maximum.reduceat(masked, starts)
    totals = np.bincount(best, weights=counts, minlength=len(KIND_PRIORITY))
    for code, total in enumerate(totals):
        if total:
            out[_CODE_KIND[code]] += int(total)
    return out


def analyse_identifiers(
    code: str,
    tokenizers: Sequence[Tokenizer | str],
    *,
    language: str | None = None,
    extraction: Extraction | None = None,
    file_segments: dict[str, list[Segment]] | None = None,
) -> IdentifierAnalysis:
    """Cost of every distinct identifier of `code` under each tokenizer.

    The identifiers are those of `extraction` (default: `extract_identifiers(code, language)`, the
    language guessed from the code when not given). Rows are sorted most expensive first: tokens
    per character, then total tokens in the code, then name. `file_segments` (tokenizer id ->
    segments of `code`) may be passed to reuse work. A tokenizer may be given by a model or
    tokenizer name (``"gpt-4o"``).
    """
    toks = as_tokenizers(tokenizers)
    if extraction is None:
        extraction = extract_identifiers(code, language or guess_language(code)[0])
    occ_by_name: dict[str, list] = {}
    for o in extraction.occurrences:
        occ_by_name.setdefault(o.name, []).append(o)
    names = list(occ_by_name)
    kinds = kind_map(code, extraction.lex)
    file_tokens: dict[str, int] = {}
    kind_tokens: dict[str, dict[str, int]] = {}
    occurrence_tokens: dict[str, tuple[int, ...]] = {}
    per_tok: list[dict[str, TokenizerCost]] = []
    splits = {n: split_identifier(n) for n in names}
    occ_starts = np.fromiter((o.start for o in extraction.occurrences), dtype=np.int64)
    occ_ends = np.fromiter((o.end for o in extraction.occurrences), dtype=np.int64)
    for tok in toks:
        segs = (file_segments or {}).get(tok.id)
        if segs is None:
            segs = tok.segments(code)
        ft = _FileTokens(segs)
        file_tokens[tok.id] = ft.total
        kind_tokens[tok.id] = attribute_tokens(segs, kinds)
        per_occurrence = ft.tokens_many(occ_starts, occ_ends).tolist()
        occurrence_tokens[tok.id] = tuple(per_occurrence)
        totals: dict[str, int] = dict.fromkeys(names, 0)
        for o, n in zip(extraction.occurrences, per_occurrence):
            totals[o.name] += n
        alone_all = alone_splits(tok, names)
        costs: dict[str, TokenizerCost] = {}
        for name in names:
            first = occ_by_name[name][0]
            pieces, piece_ids = alone_all[name]
            i, j = ft.overlapping(first.start, first.end)
            context = segs[i:j]
            aligned, cut = word_alignment(splits[name], _piece_cuts(pieces))
            ctx_aligned, _ = word_alignment(
                _shifted(splits[name], first.end - first.start, name),
                token_cuts(context, first.start, first.end),
            )
            costs[name] = TokenizerCost(
                tokenizer_id=tok.id,
                pieces=pieces,
                piece_ids=piece_ids,
                alone_tokens=sum(map(len, piece_ids)),
                context_pieces=tuple(x.text for x in context),
                context_ids=tuple(x.ids for x in context),
                context_first=ft.prefix[j] - ft.prefix[i],
                context_total=totals[name],
                aligned=aligned,
                words_cut=cut,
                context_aligned=ctx_aligned,
            )
        per_tok.append(costs)
    rows = []
    for name in names:
        occs = occ_by_name[name]
        wheres = {o.where for o in occs}
        rows.append(
            IdentifierRow(
                name=name,
                occurrences=len(occs),
                first_line=occs[0].line,
                first_col=occs[0].col,
                builtin=occs[0].builtin,
                where=CODE if CODE in wheres else sorted(wheres)[0],
                style=classify_style(name),
                words=splits[name].words,
                costs=tuple(c[name] for c in per_tok),
            )
        )
    rows.sort(key=lambda r: (-r.tokens_per_char, -sum(c.context_total for c in r.costs), r.name))
    return IdentifierAnalysis(
        language=extraction.language,
        tokenizer_ids=tuple(t.id for t in toks),
        tokenizer_names=tuple(t.info.name for t in toks),
        rows=tuple(rows),
        file_tokens=file_tokens,
        kind_tokens=kind_tokens,
        occurrences=len(extraction.occurrences),
        notes=extraction.notes,
        lexer=extraction.lexer,
        occurrence_tokens=occurrence_tokens,
    )


def _piece_cuts(pieces: Sequence[str]) -> list[int]:
    """Boundaries between consecutive pieces: ``_piece_cuts(["calc", "ulate"]) -> [4]``."""
    return list(accumulate(len(p) for p in pieces[:-1]))


def _shifted(split: WordSplit, span_len: int, name: str) -> WordSplit:
    """The word split in the coordinates of the occurrence (same unless the name was unescaped)."""
    if span_len == len(name):
        return split
    return WordSplit(split.name, split.prefix, split.words, split.suffix, ((0, span_len),))


# ------------------------------------------------------------------ table and CSV


def identifier_records(
    analysis: IdentifierAnalysis, rows: Sequence[IdentifierRow] | None = None, *, split_separator: str = "|"
) -> list[dict[str, object]]:
    """One flat dict per identifier (all rows, or the given subset), columns in display order.

    Per tokenizer: ``<id> tokens`` (alone), ``<id> in code`` (average per occurrence, leading
    space or punctuation included), ``<id> split`` (pieces alone joined by `split_separator`),
    ``<id> aligned``.
    """
    records = []
    for r in analysis.rows if rows is None else rows:
        rec: dict[str, object] = {
            "identifier": r.name,
            "occurrences": r.occurrences,
            "style": r.style,
            "words": " ".join(r.words),
            "chars": r.length,
            "tokens/char": round(r.tokens_per_char, 3),
        }
        for tid, c in zip(analysis.tokenizer_ids, r.costs):
            rec[f"{tid} tokens"] = c.alone_tokens
            rec[f"{tid} in code"] = round(c.context_total / r.occurrences, 2) if r.occurrences else 0.0
            rec[f"{tid} split"] = split_separator.join(c.pieces)
            rec[f"{tid} aligned"] = c.aligned
        rec["first line"] = r.first_line
        rec["builtin"] = r.builtin
        rec["found in"] = r.where
        records.append(rec)
    return records


def identifiers_csv(analysis: IdentifierAnalysis, rows: Sequence[IdentifierRow] | None = None) -> str:
    """CSV of the identifier table (all rows, or the given subset), UTF-8 text with a header; text
    cells (names, code lines, tokenizer names) spreadsheet-safe, see `csvcells`."""
    records = identifier_records(analysis, rows)
    buf = io.StringIO()
    if not records:
        buf.write("identifier,occurrences,style,words\n")
        return buf.getvalue()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([spreadsheet_safe(k) for k in records[0]])
    writer.writerows([spreadsheet_safe(v) for v in rec.values()] for rec in records)
    return buf.getvalue()


def filter_rows(
    rows: Iterable[IdentifierRow],
    *,
    query: str = "",
    styles: Iterable[str] = (),
    min_occurrences: int = 1,
    include_builtins: bool = True,
    where: Iterable[str] = (),
) -> list[IdentifierRow]:
    """Rows matching a case-insensitive substring, styles, minimum count, builtins and origin.

    ``filter_rows(rows, query="user", styles=["camelCase"])``; empty `styles`/`where` mean all.
    """
    q = query.strip().lower()
    styles = set(styles)
    wheres = set(where)
    out = []
    for r in rows:
        if q and q not in r.name.lower() and q not in " ".join(r.words).lower():
            continue
        if styles and r.style not in styles:
            continue
        if r.occurrences < min_occurrences:
            continue
        if r.builtin and not include_builtins:
            continue
        if wheres and r.where not in wheres:
            continue
        out.append(r)
    return out


# How "the most expensive names" can be ordered; the first is what a user means by expensive:
# what the name costs in this file, summed over its uses (and over the tokenizers compared).
IDENTIFIER_ORDERS: dict[str, str] = {
    "file": "tokens in this file (uses × tokens)",
    "per_char": "tokens per character",
    "alone": "tokens of the name alone",
    "uses": "uses",
    "name": "name (A to Z)",
}


def sort_identifiers(rows: Iterable[IdentifierRow], *, by: str = "file") -> list[IdentifierRow]:
    """Rows in one of the `IDENTIFIER_ORDERS`, most expensive first (ties: more uses, then name).

    ``sort_identifiers(rows)[0]`` is the name that costs the most tokens in the file.
    """
    keys = {
        "file": lambda r: (-sum(c.context_total for c in r.costs), -r.occurrences, r.name),
        "per_char": lambda r: (-r.tokens_per_char, -r.length, r.name),
        "alone": lambda r: (-sum(c.alone_tokens for c in r.costs), r.name),
        "uses": lambda r: (-r.occurrences, r.name),
        "name": lambda r: (r.name.lower(), r.name),
    }
    if by not in keys:
        raise ValueError(f"unknown order {by!r}; choose one of {list(IDENTIFIER_ORDERS)}")
    return sorted(rows, key=keys[by])


__all__ = [
    "KIND_PRIORITY", "IdentifierAnalysis", "IdentifierRow", "SINGLE", "TokenizerCost", "analyse_identifiers",
    "attribute_tokens", "filter_rows", "identifier_records", "identifiers_csv", "kind_map", "token_cuts",
    "word_alignment",
]  # fmt: skip
