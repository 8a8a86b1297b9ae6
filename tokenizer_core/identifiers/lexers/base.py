"""What every lexer shares: the lexeme kinds, `Lexeme` and `LexResult`, the output collector,
line positions, the identifier and number patterns and the quoted-literal scanner.

    >>> out = Output("x = 'a'")
    >>> out.add(IDENTIFIER, 0, 1, "x")
    >>> out.lexemes[0]
    Lexeme(kind='identifier', start=0, end=1, name='x')
    >>> scan_quoted("x = 'a'", 5, "'")
    (7, True)
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

import regex

IDENTIFIER, KEYWORD, STRING, COMMENT, NUMBER, PUNCT, OTHER = (
    "identifier", "keyword", "string", "comment", "number", "punct", "other",
)  # fmt: skip
KINDS = (IDENTIFIER, KEYWORD, STRING, COMMENT, NUMBER, PUNCT, OTHER)

ID_START = r"\p{L}\p{Nl}_"
ID_CONT = r"\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}"
IDENT_RE = regex.compile(f"[{ID_START}][{ID_CONT}]*")
IDENT_DOLLAR_RE = regex.compile(f"[{ID_START}$][{ID_CONT}$]*")
WORD_RE = regex.compile(f"[{ID_START}][{ID_CONT}]*")  # words inside strings and comments
_NUMBER = (
    r"(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_{sep}]*(?:\.\d[\d_]*)?|\.\d[\d_]*)"
    r"(?:[eE][+-]?\d[\d_]*)?)(?:[A-Za-z_][A-Za-z0-9_]*)?"
)
NUMBER_RE = re.compile(_NUMBER.format(sep=""))
NUMBER_CPP_RE = re.compile(_NUMBER.format(sep="'"))
WS = re.compile(r"\s+")
MAX_NESTING = 40  # template literals / substitutions nested deeper than this are read as text


@dataclass(frozen=True, slots=True)
class Lexeme:
    """One piece of code: ``code[start:end]``.

    `name` is set for identifiers only; it differs from the text for quoted SQL identifiers
    with doubled quotes inside.
    """

    kind: str
    start: int
    end: int
    name: str | None = None


@dataclass(frozen=True, slots=True)
class LexResult:
    """All lexemes of a file, in order, and how the file was read."""

    language: str
    lexemes: tuple[Lexeme, ...]
    lexer: str  # "python tokenize", "python tokenize + generic", "generic"
    notes: tuple[str, ...]
    docstrings: tuple[tuple[int, int], ...] = ()  # Python: string statements (docstrings)

    def spans(self, kind: str) -> list[tuple[int, int]]:
        """(start, end) of every lexeme of one kind: ``spans("comment")``."""
        return [(x.start, x.end) for x in self.lexemes if x.kind == kind]


def line_starts(code: str) -> list[int]:
    """Offsets where each line starts (lines end at "\\n"): ``line_starts("a\\nb") -> [0, 2]``."""
    starts = [0]
    find = code.find
    i = find("\n")
    while i >= 0:
        starts.append(i + 1)
        i = find("\n", i + 1)
    return starts


def position(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset: ``position([0, 2], 3) -> (2, 2)``."""
    row = bisect.bisect_right(starts, offset) - 1
    return row + 1, offset - starts[row] + 1


class Output:
    """Collects lexemes and notes; shared by nested scanners."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.lexemes: list[Lexeme] = []
        self.notes: list[str] = []
        self._starts: list[int] | None = None

    def add(self, kind: str, start: int, end: int, name: str | None = None) -> None:
        if end > start:
            self.lexemes.append(Lexeme(kind, start, end, name))

    def line(self, offset: int) -> int:
        if self._starts is None:
            self._starts = line_starts(self.code)
        return position(self._starts, offset)[0]

    def note(self, text: str) -> None:
        if len(self.notes) < 20 and text not in self.notes:
            self.notes.append(text)
        elif len(self.notes) == 20:
            self.notes.append("More problems were found; only the first 20 are listed.")


@functools.lru_cache(maxsize=64)
def _quoted_re(close: str, escapes: bool, multiline: bool, doubling: bool) -> re.Pattern[str]:
    q = re.escape(close)
    first = re.escape(close[0])
    stop = first + ("" if multiline else r"\n") + ("\\\\" if escapes else "")
    body = [f"[^{stop}]"]
    if escapes:
        body.append(r"\\.")
    if doubling:
        body.append(q + q)
    if len(close) > 1:
        body.append(f"{first}(?!{re.escape(close[1:])})")
    return re.compile("(?:" + "|".join(body) + ")*", re.S)


def scan_quoted(
    code: str,
    i: int,
    close: str,
    *,
    escapes: bool = True,
    multiline: bool = False,
    doubling: bool = False,
    endpos: int | None = None,
) -> tuple[int, bool]:
    """End of a quoted literal whose body starts at `i`; returns (end, closed).

    ``scan_quoted('"a\\\\"b" + x', 1, '"') -> (7, True)``. An unclosed literal ends at the line
    end (or the file end when `multiline`), with closed False.
    """
    endpos = len(code) if endpos is None else endpos
    m = _quoted_re(close, escapes, multiline, doubling).match(code, i, endpos)
    assert m is not None  # a starred body matches anywhere, if only the empty string
    j = m.end()
    if code.startswith(close, j, endpos):
        return j + len(close), True
    return j, False
