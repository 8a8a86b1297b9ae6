"""What the layout of a file costs: indentation, comments, docstrings and blank lines.

Every figure is a difference of two exact token counts of whole texts, never an estimate:

* **comments contribute** = tokens(file) − tokens(file without comments). Removing a comment
  removes it with the spaces before it; a line that held only a comment (or only a block
  comment) is removed with its line break. A shebang line (``#!...`` on line 1) is kept.
* **docstrings contribute** (Python) = tokens(file) − tokens(file without docstrings), where a
  docstring is a string standing alone as a statement; removed the same way as comments.
* **blank lines contribute** = tokens(file) − tokens(file without its empty or whitespace-only
  lines).
* **indentation contributes** = tokens(file) − tokens(file with the leading whitespace of every
  line removed).
* **re-indented**: each line's indentation rewritten as N levels of a tab, 2 spaces or 4
  spaces. The level is the number of leading tabs plus leading spaces ÷ the detected unit;
  leftover spaces (alignment) are kept. Lines inside multi-line strings are re-indented too,
  as an editor would.

Contributions are measured separately against the original file, so they overlap a little
(a comment's indentation is counted both in comments and in indentation) and need not add up.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer
from .lexer import COMMENT, STRING, LexResult

ORIGINAL = "as written"
TABS, TWO, FOUR, NO_INDENT = "tabs", "2 spaces", "4 spaces", "no indentation"
NO_COMMENTS, NO_DOCSTRINGS, NO_BLANK = "without comments", "without docstrings", "without blank lines"
VARIANTS: tuple[str, ...] = (ORIGINAL, TABS, TWO, FOUR, NO_INDENT, NO_COMMENTS, NO_DOCSTRINGS, NO_BLANK)
REINDENT_UNITS = {TABS: "\t", TWO: "  ", FOUR: "    ", NO_INDENT: ""}

DEFINITIONS: dict[str, str] = {
    ORIGINAL: "the file exactly as given",
    TABS: "every indentation level written as one tab",
    TWO: "every indentation level written as 2 spaces",
    FOUR: "every indentation level written as 4 spaces",
    NO_INDENT: "leading whitespace removed from every line",
    NO_COMMENTS: "every comment removed (with the spaces before it; a comment-only line with its line break)",
    NO_DOCSTRINGS: "Python docstrings (strings standing alone as statements) removed like comments",
    NO_BLANK: "empty and whitespace-only lines removed",
}

_LEADING = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class Indentation:
    """How a file is indented: ``Indentation("spaces", 4, 120)`` = 4 spaces, 120 indented lines."""

    style: str  # "spaces", "tabs", "mixed" (both start lines), or "none"
    unit: int  # spaces per level (the detected step); 0 for tabs or none
    indented_lines: int

    def describe(self) -> str:
        if self.style == "none":
            return "no indented lines"
        if self.style == "tabs":
            return "tabs"
        base = f"{self.unit} spaces" if self.unit else "spaces"
        return base + (" (some lines use tabs)" if self.style == "mixed" else "")


def code_line_starts(code: str, lexed: LexResult) -> list[bool]:
    """For each line: does it start with code? False for blank lines, lines that begin inside a
    string or comment begun on an earlier line (a docstring's text), and comment-only lines.

    For ``code = "x = '''a\\n      b'''\\n# c\\n"``:
    ``code_line_starts(code, lex(code, "python")) -> [True, False, False, False]``.
    """
    lexemes = lexed.lexemes
    starts = [x.start for x in lexemes]
    out = []
    pos = 0
    for line in code.split("\n"):
        first = len(line) - len(line.lstrip(" \t"))
        at = pos + first
        pos += len(line) + 1
        if first == len(line) or not line.strip():
            out.append(False)
            continue
        i = bisect.bisect_right(starts, at) - 1
        if i < 0 or not lexemes[i].start <= at < lexemes[i].end:
            out.append(True)
            continue
        x = lexemes[i]
        out.append(not (x.kind == COMMENT or (x.kind == STRING and x.start < at)))
    return out


def detect_indentation(code: str, *, lexed: LexResult | None = None) -> Indentation:
    """The indentation style and the most common step between indentation widths.

    ``detect_indentation("if x:\\n    y\\n").unit -> 4``. With the file's `lexed` lexemes only
    lines that start with code count: a docstring's text or a comment indented its own way
    (Python's textwrap.py has docstring lines at 6, 10 and 14 spaces) does not decide the unit.
    """
    tab_lines = space_lines = 0
    steps: Counter[int] = Counter()
    widths: list[int] = []
    prev = 0
    lines = code.split("\n")
    counted = code_line_starts(code, lexed) if lexed is not None else [bool(ln.strip()) for ln in lines]
    for line, is_code in zip(lines, counted):
        if not is_code:
            continue
        lead = _LEADING.match(line).group()
        if lead.startswith("\t"):
            tab_lines += 1
            continue
        if lead:
            space_lines += 1
        width = len(lead)
        if "\t" not in lead:
            if width:
                widths.append(width)
            if width > prev:
                steps[width - prev] += 1
            prev = width
    indented = tab_lines + space_lines
    if not indented:
        return Indentation("none", 0, 0)
    if tab_lines and not space_lines:
        return Indentation("tabs", 0, indented)
    total_steps = sum(steps.values())
    unit = 0
    # the largest step that is common and divides nearly every indentation width
    for s in (8, 4, 3, 2):
        if steps[s] >= max(1, 0.2 * total_steps) and sum(w % s == 0 for w in widths) >= 0.9 * len(widths):
            unit = s
            break
    if not unit:
        common = [s for s, _ in steps.most_common() if 1 <= s <= 8]
        unit = min(s for s in common if steps[s] == steps[common[0]]) if common else 4
    style = "mixed" if tab_lines and space_lines else ("tabs" if tab_lines > space_lines else "spaces")
    return Indentation(style, unit, indented)


def reindent(code: str, unit: str, *, indentation: Indentation | None = None) -> str:
    """Rewrite every line's indentation as levels of `unit` ("\\t", "  ", "    " or "").

    ``reindent("if x:\\n    y\\n", "\\t") -> "if x:\\n\\ty\\n"``. With `unit` "" all leading
    whitespace goes. Leftover spaces that do not make a full level are kept as spaces.
    """
    ind = indentation or detect_indentation(code)
    step = ind.unit or 4
    out = []
    for line in code.split("\n"):
        lead = _LEADING.match(line).group()
        if not lead:
            out.append(line)
            continue
        if unit == "":
            out.append(line[len(lead) :])
            continue
        tabs = lead.count("\t")
        spaces = len(lead) - tabs
        levels, rest = tabs + spaces // step, spaces % step
        out.append(unit * levels + " " * rest + line[len(lead) :])
    return "\n".join(out)


def remove_spans(code: str, spans: Sequence[tuple[int, int]]) -> str:
    """Remove spans (comments, docstrings) the way DEFINITIONS says.

    ``remove_spans("x = 1  # one\\n# alone\\ny\\n", [(7, 12), (13, 20)]) -> "x = 1\\ny\\n"``
    """
    parts: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if start < pos:
            continue
        line_start = code.rfind("\n", 0, start) + 1
        nl = code.find("\n", end)
        line_end = len(code) if nl < 0 else nl
        before = code[line_start:start]
        after = code[end:line_end]
        if not before.strip() and not after.strip() and line_start >= pos:
            # the span fills its lines: remove them with the line break
            parts.append(code[pos:line_start])
            pos = line_end + 1 if nl >= 0 else line_end
            continue
        cut = start
        if not after.strip():  # a trailing comment: drop the spaces before it too
            cut = start - (len(before) - len(before.rstrip(" \t")))
            cut = max(cut, pos)
            end = line_end
        parts.append(code[pos:cut])
        pos = end
    parts.append(code[pos:])
    return "".join(parts)


def comment_spans(code: str, lexed: LexResult) -> list[tuple[int, int]]:
    """Comment spans, without a shebang line at the very start."""
    spans = lexed.spans(COMMENT)
    return [(s, e) for s, e in spans if not (s == 0 and code.startswith("#!"))]


def remove_blank_lines(code: str) -> str:
    """``remove_blank_lines("a\\n\\n  \\nb\\n") -> "a\\nb\\n"``"""
    ends_with_newline = code.endswith("\n")
    lines = code.split("\n")
    if ends_with_newline:
        lines.pop()
    kept = [ln for ln in lines if ln.strip()]
    return "\n".join(kept) + ("\n" if ends_with_newline and kept else "")


def layout_variants(code: str, lexed: LexResult) -> dict[str, str]:
    """Every variant named in VARIANTS (docstrings only when the file has some)."""
    ind = detect_indentation(code, lexed=lexed)
    out = {ORIGINAL: code}
    for name, unit in REINDENT_UNITS.items():
        out[name] = reindent(code, unit, indentation=ind)
    out[NO_COMMENTS] = remove_spans(code, comment_spans(code, lexed))
    if lexed.docstrings:
        out[NO_DOCSTRINGS] = remove_spans(code, list(lexed.docstrings))
    out[NO_BLANK] = remove_blank_lines(code)
    return out


@dataclass(frozen=True, slots=True)
class LayoutStats:
    lines: int
    blank_lines: int
    comment_lines: int  # lines that hold only a comment
    comment_chars: int
    docstrings: int
    indentation: Indentation


@dataclass(frozen=True, slots=True)
class LayoutReport:
    """Token counts of each variant per tokenizer, and the contributions derived from them."""

    tokenizer_ids: tuple[str, ...]
    tokens: dict[str, dict[str, int]]  # variant -> tokenizer -> tokens
    stats: LayoutStats

    def contribution(self, part: str, tokenizer_id: str) -> int:
        """Tokens that `part` ("comments", "docstrings", "blank lines", "indentation") adds."""
        variant = {"comments": NO_COMMENTS, "docstrings": NO_DOCSTRINGS, "blank lines": NO_BLANK,
                   "indentation": NO_INDENT}[part]  # fmt: skip
        if variant not in self.tokens:
            return 0
        return self.tokens[ORIGINAL][tokenizer_id] - self.tokens[variant][tokenizer_id]

    def share(self, part: str, tokenizer_id: str) -> float:
        total = self.tokens[ORIGINAL][tokenizer_id]
        return self.contribution(part, tokenizer_id) / total if total else 0.0

    def records(self) -> list[dict[str, object]]:
        """Flat rows: variant, tokenizer, tokens, difference and % vs the file as written."""
        rows = []
        for variant, counts in self.tokens.items():
            for tid in self.tokenizer_ids:
                base = self.tokens[ORIGINAL][tid]
                rows.append({
                    "variant": variant, "tokenizer": tid, "tokens": counts[tid],
                    "difference": counts[tid] - base,
                    "percent": round(100 * (counts[tid] - base) / base, 2) if base else 0.0,
                })  # fmt: skip
        return rows


PARTS: tuple[str, ...] = ("comments", "docstrings", "blank lines", "indentation")


def layout_stats(code: str, lexed: LexResult) -> LayoutStats:
    lines = code.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    spans = comment_spans(code, lexed)
    comment_only = 0
    for s, e in spans:
        ls = code.rfind("\n", 0, s) + 1
        nl = code.find("\n", e)
        if not code[ls:s].strip() and not code[e : len(code) if nl < 0 else nl].strip():
            comment_only += code.count("\n", s, e) + 1
    return LayoutStats(
        lines=len(lines),
        blank_lines=sum(1 for ln in lines if not ln.strip()),
        comment_lines=comment_only,
        comment_chars=sum(e - s for s, e in spans),
        docstrings=len(lexed.docstrings),
        indentation=detect_indentation(code, lexed=lexed),
    )


def layout_costs(code: str, lexed: LexResult, tokenizers: Sequence[Tokenizer]) -> LayoutReport:
    """Exact token counts of every layout variant, per tokenizer."""
    variants = layout_variants(code, lexed)
    tokens = {name: {t.id: t.count(text) for t in tokenizers} for name, text in variants.items()}
    return LayoutReport(tuple(t.id for t in tokenizers), tokens, layout_stats(code, lexed))
