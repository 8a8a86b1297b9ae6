"""Where a document may be cut: graphemes, paragraphs, lines, sentences, words, Markdown blocks
and code definitions. Pure text functions; no tokenizer here.

Every splitter has the same shape, ``split(text, start, end) -> cuts``: the sorted offsets
strictly inside ``(start, end)`` where a piece may end. A separator stays with the text before
it ("Hello. " | "World"), so the pieces between cuts tile the range exactly and their offsets
are known by construction, never searched for with ``str.find``. No cut falls inside a
grapheme cluster (checked with the `regex` module's ``\\X``), nor between ``\\r`` and ``\\n``.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import regex

Splitter = Callable[[str, int, int], list[int]]

_GRAPHEME = regex.compile(r"\X")
_GRAPHEME_LOOKBACK = 4096  # how far back to look for a line start to scan graphemes from
_GRAPHEME_FALLBACK = 256  # no line start that close: scan from here (clusters resynchronise)


# ----------------------------------------------------------------------------------- graphemes


_REGIONAL_RUN_BEFORE = regex.compile(r"(?r)[\U0001F1E6-\U0001F1FF]+")  # matched backwards from a position


def _scan_anchor(text: str, pos: int) -> int:
    """An offset <= `pos` from which grapheme scanning is exact: just after a newline.

    ``_scan_anchor("ab\\ncd", 4) -> 3``. Without a newline within 4,096 characters it returns
    about ``pos - 256``: clusters resynchronise long before that. The one cluster rule that
    reaches further back is the pairing of regional indicators into flags, so an anchor inside
    a run of them moves to the start of a pair (counted from the start of the run). So a
    question costs about the same at any offset, in a text without newlines too.
    """
    lo = max(0, pos - _GRAPHEME_LOOKBACK)
    nl = text.rfind("\n", lo, pos)
    if nl >= 0:
        return nl + 1
    if pos <= _GRAPHEME_FALLBACK:
        return 0
    a = pos - _GRAPHEME_FALLBACK
    if "\U0001f1e6" <= text[a] <= "\U0001f1ff":
        run = _REGIONAL_RUN_BEFORE.match(text, 0, a)
        if run is not None:  # flags pair from the start of the run: start at a pair
            a += (a - run.start()) % 2
    return a


def _clusters(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Spans of the grapheme clusters of ``text[start:end]``, `start` being a boundary.

    Matched on a copy of that slice: on the whole text the `regex` module counts the regional
    indicators before each one back to the start of their run, so a long run of flags would
    cost time quadratic in its length. From a boundary the slice's clusters are the text's.
    """
    for m in _GRAPHEME.finditer(text[start:end]):
        yield start + m.start(), start + m.end()


def is_grapheme_boundary(text: str, pos: int) -> bool:
    """True if a cut at `pos` keeps every user-perceived character (grapheme cluster) whole.

    ``is_grapheme_boundary("e\\u0301x", 1) -> False`` (between e and its accent);
    ``is_grapheme_boundary("a\\r\\nb", 2) -> False``; the ends of the text are boundaries.
    """
    if pos <= 0 or pos >= len(text):
        return True
    before, after = text[pos - 1], text[pos]
    if before < "\x80" and after < "\x80":  # ASCII on both sides: only CR LF stays together
        return not (before == "\r" and after == "\n")
    for start, end in _clusters(text, _scan_anchor(text, pos), min(len(text), pos + 64)):
        if end >= pos:
            return end == pos or start == pos
    return True


def grapheme_boundaries(text: str, start: int, end: int) -> list[int]:
    """Grapheme boundaries strictly inside ``(start, end)``: ``("e\\u0301ab", 0, 4) -> [2, 3]``."""
    if end - start < 2:
        return []
    out: list[int] = []
    for _, e in _clusters(text, _scan_anchor(text, start), end):
        if start < e < end:
            out.append(e)
    # finditer stops at `end`, which may cut the last cluster short: keep only real boundaries
    if out and end < len(text) and not is_grapheme_boundary(text, out[-1]):
        out.pop()
    return out


def snap_down(text: str, pos: int, lo: int) -> int:
    """The last grapheme boundary in ``(lo, pos]``, or `lo` if there is none."""
    while pos > lo and not is_grapheme_boundary(text, pos):
        pos -= 1
    return pos


class GraphemeCursor:
    """Grapheme boundaries of one text, scanned on demand and kept for the next question.

    For a caller that asks about positions moving forward through the text (the token window
    builder): each cluster is scanned about once, where :func:`is_grapheme_boundary` scans from
    the line start (up to 256 characters back) on every call.
    ``GraphemeCursor("e\\u0301ab").between(0, 4) -> [2, 3]``.
    """

    _REACH = 512  # a question this far past what was scanned starts a fresh scan near it
    _KEEP = 100_000  # boundaries kept; older ones are dropped

    def __init__(self, text: str) -> None:
        self.text = text
        self._bounds: list[int] = []  # every boundary from _bounds[0] to _bounds[-1]

    def _cover(self, lo: int, hi: int) -> list[int]:
        """Scan so that the kept boundaries include everything in ``[lo, hi]``."""
        text, n = self.text, len(self.text)
        hi = min(hi, n)
        b = self._bounds
        if not b or lo < b[0] or lo > b[-1] + self._REACH:
            b = self._bounds = [_scan_anchor(text, lo)]
        elif len(b) > self._KEEP and b[len(b) // 2] <= lo:
            del b[: len(b) // 2]
        reach = 256
        while b[-1] < hi:
            last = b[-1]
            stop = min(n, hi + reach)
            for _, e in _clusters(text, last, stop):
                if e < stop or stop == n:  # a cluster cut short at `stop` is not a boundary
                    b.append(e)
            if b[-1] == last:
                reach *= 4  # one cluster longer than the scan: look further
        return b

    def is_boundary(self, pos: int) -> bool:
        """Same answer as :func:`is_grapheme_boundary`."""
        text = self.text
        if pos <= 0 or pos >= len(text):
            return True
        before, after = text[pos - 1], text[pos]
        if before < "\x80" and after < "\x80":
            return not (before == "\r" and after == "\n")
        b = self._cover(pos, pos)
        k = bisect_left(b, pos)
        return k < len(b) and b[k] == pos

    def between(self, lo: int, hi: int) -> list[int]:
        """Boundaries strictly inside ``(lo, hi)``."""
        if hi - lo < 2:
            return []
        b = self._cover(lo, hi)
        return b[bisect_right(b, lo) : bisect_left(b, hi)]

    def next_after(self, pos: int) -> int:
        """The first boundary after `pos` (the text's length at the end)."""
        n = len(self.text)
        if pos >= n:
            return n
        b = self._cover(pos, pos + 1)
        k = bisect_right(b, pos)
        while k == len(b):  # the cluster at pos is long: scan on
            b = self._cover(pos, b[-1] + 64)
        return b[k]

    def at_or_before(self, pos: int) -> int:
        """The last boundary at or before `pos`."""
        if pos <= 0:
            return 0
        b = self._cover(pos, pos)
        return b[max(0, bisect_right(b, pos) - 1)]


def _keep_whole_graphemes(text: str, cuts: list[int]) -> list[int]:
    """The cuts (sorted) that are grapheme boundaries, with one forward scan for all of them."""
    if not cuts:
        return cuts
    graphemes = GraphemeCursor(text)
    return [c for c in cuts if graphemes.is_boundary(c)]


# ------------------------------------------------------------------------------ prose splitters

_PARAGRAPH = re.compile(r"\n(?:[^\S\n]*\n)+")  # a blank line (or several); cut after the last \n
_LINE = re.compile(r"\n")
# A sentence ends with . ! ? … (plus closing quotes or brackets) and whitespace, or with a CJK
# full stop. The cut goes after the whitespace, so the next piece starts with the next sentence.
_SENTENCE = regex.compile(
    r"""(?:[.!?\u2026\u203d]+["'\u201d\u2019\u00bb)\]]*[^\S\r\n]+(?=[^\s\p{Ll}])"""
    r"""|[\u3002\uff01\uff1f\uff0e]+["'\u201d\u2019\u300d\u300f)\uff09]*[^\S\r\n]*)"""
)
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st vs etc e.g i.e cf fig no vol approx dept est inc ltd co".split()
)
_WORD = re.compile(r"\s+")


def _cuts_after(pattern: re.Pattern | regex.Pattern, text: str, start: int, end: int) -> list[int]:
    return [m.end() for m in pattern.finditer(text, start, end) if start < m.end() < end]


def paragraph_cuts(text: str, start: int, end: int) -> list[int]:
    """Cuts after blank lines: ``("a\\n\\nb", 0, 4) -> [3]``."""
    return _cuts_after(_PARAGRAPH, text, start, end)


def line_cuts(text: str, start: int, end: int) -> list[int]:
    """Cuts after each newline: ``("a\\nb\\nc", 0, 5) -> [2, 4]``."""
    return _cuts_after(_LINE, text, start, end)


def sentence_cuts(text: str, start: int, end: int) -> list[int]:
    """Cuts after sentence ends: ``("Hi there. Bye.", 0, 14) -> [10]``.

    A period after a common abbreviation ("e.g.", "Dr.") or a single letter does not end a
    sentence, nor one followed by a lowercase letter.
    """
    cuts = []
    for m in _SENTENCE.finditer(text, start, end):
        if not start < m.end() < end:
            continue
        if text[m.start()] == ".":
            word = text[max(start, m.start() - 12) : m.start()].rsplit(None, 1)[-1:] or [""]
            w = word[0].lower().lstrip("([\"'")
            if w in _ABBREVIATIONS or (len(w) == 1 and w.isalpha()):
                continue
        cuts.append(m.end())
    return _keep_whole_graphemes(text, cuts)


def word_cuts(text: str, start: int, end: int) -> list[int]:
    """Cuts where a word starts after whitespace: ``("ab cd", 0, 5) -> [3]``."""
    return _keep_whole_graphemes(text, _cuts_after(_WORD, text, start, end))


def union_splitter(*splitters: Splitter) -> Splitter:
    """One splitter cutting wherever any of `splitters` cuts."""

    def split(text: str, start: int, end: int) -> list[int]:
        return sorted({c for s in splitters for c in s(text, start, end)})

    return split


def fixed_cuts(cuts: Sequence[int]) -> Splitter:
    """A splitter from precomputed cut offsets (sorted): it returns those inside the range."""

    def split(text: str, start: int, end: int) -> list[int]:
        return list(cuts[bisect_right(cuts, start) : bisect_left(cuts, end)])

    return split


def word_starts(text: str, start: int, end: int) -> list[int]:
    """Offsets in ``[start, end)`` where a word starts (for choosing where an overlap begins)."""
    out = [m.end() for m in _WORD.finditer(text, start, end) if start <= m.end() < end]
    if start > 0 and start < end and text[start - 1].isspace() and not text[start].isspace():
        out.insert(0, start)
    return _keep_whole_graphemes(text, out)


# ------------------------------------------------------------------------------------ Markdown

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_LINE_SPLIT = re.compile(r"[^\n]*\n|[^\n]+")


@dataclass(frozen=True, slots=True)
class Block:
    """One Markdown block: ``text[start:end]`` with its kind and, for a heading, level and title.

    kind is "heading", "paragraph", "list", "code" (a fenced block) or "blank".
    `section` is the heading path in effect, e.g. "Install > Linux".
    """

    start: int
    end: int
    kind: str
    level: int = 0
    title: str = ""
    section: str = ""


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line, newline included: ``"a\\nb" -> [(0, 2), (2, 3)]``."""
    return [(m.start(), m.end()) for m in _LINE_SPLIT.finditer(text)]


def markdown_blocks(text: str) -> list[Block]:
    """Cut Markdown into blocks that tile the text: headings, paragraphs, lists, fenced code.

    Blank lines stay with the block before them. A fenced code block is one block even when it
    contains blank lines. ``markdown_blocks("# A\\n\\ntext\\n")`` -> heading "A" [0, 5) and a
    paragraph [5, 10) whose section is "A".
    """
    lines = _lines(text)
    blocks: list[Block] = []
    path: list[tuple[int, str]] = []  # (level, title) of the open headings

    def section() -> str:
        return " > ".join(t for _, t in path)

    def add(start: int, end: int, kind: str, level: int = 0, title: str = "") -> None:
        if kind == "heading":
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, title))
        blocks.append(Block(start, end, kind, level, title, section()))

    i = 0
    n = len(lines)
    while i < n:
        s, e = lines[i]
        line = text[s:e].rstrip("\r\n")
        if not line.strip():  # blank lines join the previous block
            if blocks:
                prev = blocks[-1]
                blocks[-1] = Block(prev.start, e, prev.kind, prev.level, prev.title, prev.section)
            else:
                add(s, e, "blank")
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            marker = fence.group(1)
            j = i + 1
            while j < n:
                inner = text[lines[j][0] : lines[j][1]].rstrip("\r\n").lstrip(" ")
                if inner.startswith(marker[0] * len(marker)) and not inner.strip(marker[0] + " \t"):
                    break
                j += 1
            j = min(j, n - 1)
            add(s, lines[j][1], "code")
            i = j + 1
            continue
        atx = _ATX.match(line)
        if atx:
            add(s, e, "heading", len(atx.group(1)), atx.group(2).strip())
            i += 1
            continue
        # paragraph or list: runs until a blank line, a heading, a fence, or a setext underline
        kind = "list" if _LIST_ITEM.match(line) else "paragraph"
        j = i + 1
        while j < n:
            nxt = text[lines[j][0] : lines[j][1]].rstrip("\r\n")
            if not nxt.strip() or _FENCE.match(nxt) or _ATX.match(nxt):
                break
            if kind == "paragraph" and _SETEXT.match(nxt):
                break
            j += 1
        if kind == "paragraph" and j < n and _SETEXT.match(text[lines[j][0] : lines[j][1]].rstrip("\r\n")):
            under = text[lines[j][0] : lines[j][1]].strip()
            title = " ".join(text[s : lines[j - 1][1]].split())
            if j - i == 1 or under.startswith("="):
                add(s, lines[j][1], "heading", 1 if under.startswith("=") else 2, title)
                i = j + 1
                continue
        add(s, lines[j - 1][1], kind)
        i = j
    return blocks


# ---------------------------------------------------------------------------------------- code

_LINE_START = re.compile(r"\r\n|\r|\n")
_CLOSER = re.compile(r"^(?:[}\])]|end\b|else\b|elif\b|except\b|finally\b|catch\b|</)")
_COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--|;)")


@dataclass(frozen=True, slots=True)
class CodeLayout:
    """Cut points of a source file, strongest first, and how they were found.

    `levels` holds sorted cut offsets: top-level definitions, other top-level statements, and
    statements one level in (methods). `definitions` lists ``(start, end, name)`` of each
    function or class (methods as "Class.method"), for a chunk's "section". `method` is
    "python" (parsed with `ast`) or "indentation".
    """

    method: str
    levels: tuple[tuple[int, ...], ...]
    definitions: tuple[tuple[int, int, str], ...] = ()


def _line_offsets(text: str) -> list[int]:
    """Offset of each line start as Python's tokenizer counts lines (\\r\\n, \\r or \\n)."""
    return [0] + [m.end() for m in _LINE_START.finditer(text)]


def _with_leading_comments(text: str, line_starts: list[int], line_no: int) -> int:
    """Move a definition's first line up over comment lines directly above it (no blank line)."""
    while line_no > 1:
        s, e = line_starts[line_no - 2], line_starts[line_no - 1]
        above = text[s:e]
        if above.strip() and _COMMENT.match(above) and not above[:1].isspace():
            line_no -= 1
        else:
            break
    return line_no


def python_layout(text: str) -> CodeLayout | None:
    """Cut points between the top-level statements of a Python file; None if it does not parse.

    Decorators and the comment lines directly above a definition stay with it.
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None
    starts = _line_offsets(text)

    def first_line(node: ast.stmt) -> int:
        lines = [node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]
        return min(lines)

    def offset(line_no: int) -> int | None:
        return starts[line_no - 1] if 0 < line_no <= len(starts) else None

    def end_offset(node: ast.stmt) -> int:
        end_line = getattr(node, "end_lineno", None) or node.lineno
        return starts[end_line] if end_line < len(starts) else len(text)

    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    top_def: set[int] = set()
    top_any: set[int] = set()
    inner: set[int] = set()
    definitions: list[tuple[int, int, str]] = []
    body = tree.body
    for k, node in enumerate(body):
        line = (
            _with_leading_comments(text, starts, first_line(node))
            if isinstance(node, defs)
            else first_line(node)
        )
        pos = offset(line)
        if pos is None or pos == 0:
            pass
        else:
            top_any.add(pos)
            prev = body[k - 1] if k else None
            if isinstance(node, defs) or isinstance(prev, defs):
                top_def.add(pos)
        if isinstance(node, defs):
            definitions.append((pos or 0, end_offset(node), node.name))
            for k_child, child in enumerate(node.body):
                cpos = offset(first_line(child))
                if cpos is None or cpos <= (pos or 0):
                    continue
                if k_child:  # never between a definition's first line and its body
                    inner.add(cpos)
                if isinstance(child, defs):
                    definitions.append((cpos, end_offset(child), f"{node.name}.{child.name}"))
    levels = (tuple(sorted(top_def)), tuple(sorted(top_any)), tuple(sorted(inner)))
    return CodeLayout("python", levels, tuple(sorted(definitions)))


def indentation_layout(text: str) -> CodeLayout:
    """Cut points for any language from indentation: lines that start at column 0.

    Strongest: a column-0 line after a blank line (or after a closing ``}``/``end`` line);
    then any column-0 line that is not itself a closer (``}``, ``else``, ...).
    """
    starts = _line_offsets(text)
    blocks: list[int] = []
    top: list[int] = []
    prev_blank = prev_closer = False
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(text)
        line = text[s:e].rstrip("\r\n")
        blank = not line.strip()
        if not blank and s > 0 and not line[:1].isspace() and not _CLOSER.match(line):
            top.append(s)
            if prev_blank or prev_closer:
                blocks.append(s)
        if not blank:
            prev_closer = bool(_CLOSER.match(line)) and not line[:1].isspace()
        prev_blank = blank
    return CodeLayout("indentation", (tuple(blocks), tuple(top)))


def code_layout(text: str) -> CodeLayout:
    """Python's `ast` when the text parses as Python, indentation rules otherwise."""
    return python_layout(text) or indentation_layout(text)
