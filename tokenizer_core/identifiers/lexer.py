"""Lexers that find identifiers, keywords, strings and comments in source code, with offsets.

Python goes through the standard library's `tokenize` (the exact rules of the language). Code
it rejects (an unterminated triple-quoted string, a bad dedent) is not lost: everything before
the error keeps tokenize's reading, the rest is read by the generic Python lexer, and a note says
where and why. Other languages use hand-written lexers that know each language's strings and
comments well enough never to take a word inside a string or comment for code:

* C, C++, C#, Java, Go, Rust, JavaScript, TypeScript: ``//`` and ``/* */`` comments (nested in
  Rust), escapes, char literals, Go raw strings in backticks, Rust raw strings ``r#"..."#`` and
  lifetimes ``'a``, C++ raw strings ``R"x(...)x"``, C# verbatim ``@"..."``, Java text blocks,
  JavaScript template literals (the code inside ``${...}`` is lexed as code) and regex literals
  (after an operator or keyword, never after a value), C preprocessor lines.
* SQL: ``--`` and ``/* */`` comments, ``'it''s'`` strings, ``"quoted identifiers"`` (the name is
  the identifier), backtick identifiers, ``$$`` bodies, keywords in any case.
* Shell: ``#`` comments at word starts, ``$VAR``/``${VAR...}`` (also inside double quotes and
  heredocs), ``$(...)``, arithmetic ``$((...))``, assignments, command and function names; plain
  arguments are literal text, not identifiers.

Every lexeme is ``(kind, start, end)`` with character offsets into the code; whitespace is the
text between lexemes. Broken code never raises: an unterminated string or comment runs to the
end of its line (or of the file, for multi-line kinds) and is reported in ``notes``.
"""

from __future__ import annotations

import bisect
import functools
import io
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass

import regex

from .languages import Language, get_language

IDENTIFIER, KEYWORD, STRING, COMMENT, NUMBER, PUNCT, OTHER = (
    "identifier", "keyword", "string", "comment", "number", "punct", "other",
)  # fmt: skip
KINDS = (IDENTIFIER, KEYWORD, STRING, COMMENT, NUMBER, PUNCT, OTHER)

_ID_START = r"\p{L}\p{Nl}_"
_ID_CONT = r"\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}"
IDENT_RE = regex.compile(f"[{_ID_START}][{_ID_CONT}]*")
IDENT_DOLLAR_RE = regex.compile(f"[{_ID_START}$][{_ID_CONT}$]*")
WORD_RE = regex.compile(f"[{_ID_START}][{_ID_CONT}]*")  # words inside strings and comments
_NUMBER = (
    r"(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_{sep}]*(?:\.\d[\d_]*)?|\.\d[\d_]*)"
    r"(?:[eE][+-]?\d[\d_]*)?)(?:[A-Za-z_][A-Za-z0-9_]*)?"
)
NUMBER_RE = re.compile(_NUMBER.format(sep=""))
NUMBER_CPP_RE = re.compile(_NUMBER.format(sep="'"))
_WS = re.compile(r"\s+")
_LINE_END = re.compile(r"\n")
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


class _Out:
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
    j = m.end()
    if code.startswith(close, j, endpos):
        return j + len(close), True
    return j, False


# ------------------------------------------------------------------ C-like languages

_JS_REGEX = re.compile(r"/(?![*/])(?:[^\\/\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_REGEX_AFTER_KEYWORDS = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
_CPP_RAW = re.compile(r'(?:u8|[uUL])?R"([^()\\\s"]{0,16})\(')
_PREPROCESSOR = re.compile(r"#[ \t]*([A-Za-z_]\w*)")
_INCLUDE_TARGET = re.compile(r"[ \t]*<[^>\n]*>")
_RUST_CHAR = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F_]{1,8}\}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'")
_RUST_LIFETIME = regex.compile(f"'[{_ID_START}][{_ID_CONT}]*")
_COMMENT_MARK = re.compile(r"/\*|\*/")
_CHAR_LITERAL = re.compile(r"'(?:\\.[^'\\\n]{0,10}|[^'\\\n]{1,2})'")
_STRING_PREFIXES = {
    "c": {"L", "u", "U", "u8"},
    "cpp": {"L", "u", "U", "u8"},
    "rust": {"b", "c"},
    "sql": {"N", "n", "E", "e", "X", "x", "B", "b", "U", "u"},
}


class _CLike:
    """One lexer for the C family, Java, C#, Go, Rust, JavaScript and TypeScript."""

    def __init__(self, out: _Out, lang: Language) -> None:
        self.out = out
        self.code = out.code
        self.n = len(self.code)
        self.lang = lang
        lid = lang.id
        self.js = lid in ("javascript", "typescript")
        self.ident_re = (
            IDENT_DOLLAR_RE if lid in ("javascript", "typescript", "java", "c", "cpp") else IDENT_RE
        )
        self.number_re = NUMBER_CPP_RE if lid == "cpp" else NUMBER_RE
        self.prefixes = _STRING_PREFIXES.get(lid, set())
        self.nested_comments = lid == "rust"
        self.depth = 0
        self.prev: Lexeme | None = None  # last significant lexeme (for regexes and keywords)

    # -- helpers
    def _emit(self, kind: str, start: int, end: int, name: str | None = None) -> None:
        self.out.add(kind, start, end, name)
        self.prev = Lexeme(kind, start, end, name)

    def _prev_text(self) -> str:
        p = self.prev
        return self.code[p.start : p.end] if p else ""

    def _string(self, start: int, body: int, close: str, **kw) -> int:
        end, closed = scan_quoted(self.code, body, close, **kw)
        if not closed:
            what = "multi-line string" if kw.get("multiline") else "string"
            self.out.note(f"Unterminated {what} starting on line {self.out.line(start)}; read to the end of the "
                          f"{'file' if kw.get('multiline') else 'line'}.")  # fmt: skip
        self._emit(STRING, start, end)
        return end

    def _block_comment(self, i: int) -> int:
        code = self.code
        if not self.nested_comments:
            j = code.find("*/", i + 2)
            if j < 0:
                self.out.note(
                    f"Unterminated /* comment starting on line {self.out.line(i)}; read to the end of the file."
                )
                end = self.n
            else:
                end = j + 2
        else:
            depth, j = 0, i
            while True:
                m = _COMMENT_MARK.search(code, j)
                if m is None:
                    self.out.note(
                        f"Unterminated /* comment starting on line {self.out.line(i)}; read to the end of the file."
                    )
                    end = self.n
                    break
                depth += 1 if m.group() == "/*" else -1
                j = m.end()
                if depth == 0:
                    end = j
                    break
        self.out.add(COMMENT, i, end)
        return end

    def _regex_allowed(self) -> bool:
        p = self.prev
        if p is None:
            return True
        if p.kind == PUNCT:
            return self.code[p.start : p.end] not in ")]}"
        if p.kind == KEYWORD:
            return self._prev_text() in _REGEX_AFTER_KEYWORDS
        return False

    def _template(self, i: int) -> int:
        """A JavaScript template literal starting at the backtick `i`; ${...} is code."""
        code, n = self.code, self.n
        piece = i
        j = i + 1
        while j < n:
            c = code[j]
            if c == "\\":
                j += 2
            elif c == "`":
                self.out.add(STRING, piece, j + 1)
                self.prev = Lexeme(STRING, i, j + 1)
                return j + 1
            elif c == "$" and code.startswith("${", j):
                self.out.add(STRING, piece, j + 2)
                if self.depth >= MAX_NESTING:
                    self.out.note(f"Template literals nested more than {MAX_NESTING} deep on line "
                                  f"{self.out.line(j)}; the inner part is read as text.")  # fmt: skip
                    end = code.find("`", j)
                    end = n if end < 0 else end + 1
                    self.out.add(STRING, j + 2, end)
                    return end
                self.depth += 1
                self.prev = None
                j = self.scan(j + 2, stop_brace=True)
                self.depth -= 1
                piece = j - 1 if code[j - 1 : j] == "}" else j
            else:
                j += 1
        self.out.note(
            f"Unterminated template literal starting on line {self.out.line(i)}; read to the end of the file."
        )
        self.out.add(STRING, piece, n)
        return n

    def _word(self, i: int, m: re.Match) -> int:
        code, lang = self.code, self.lang
        word = m.group()
        end = m.end()
        nxt = code[end : end + 1]
        lid = lang.id
        # string prefixes (L"x", u8"x", b"x", N'x'), raw strings and raw identifiers
        if lid == "rust" and word in ("r", "br", "cr") and nxt in ('"', "#"):
            h = re.compile(r'#*"').match(code, end)
            if h:
                hashes = h.group()[:-1]
                return self._string(i, h.end(), '"' + hashes, escapes=False, multiline=True)
            if word == "r" and nxt == "#":
                ident = self.ident_re.match(code, end + 1)
                if ident:  # raw identifier r#type
                    self._emit(IDENTIFIER, ident.start(), ident.end(), ident.group())
                    return ident.end()
        if nxt in ("'", '"') and word in self.prefixes:
            if lid == "sql":
                return self._string(i, end + 1, nxt, escapes=word in "eE", doubling=True, multiline=True)
            if nxt == "'":
                lit = (_RUST_CHAR if lid == "rust" else _CHAR_LITERAL).match(code, end)
                if lit:
                    self._emit(STRING, i, lit.end())
                    return lit.end()
            else:
                return self._string(i, end + 1, '"', multiline=lid == "rust")
        if lid == "cpp" and nxt == '"' and word in ("R", "u8R", "uR", "UR", "LR"):
            raw = _CPP_RAW.match(code, i)
            if raw:
                close = ")" + raw.group(1) + '"'
                j = code.find(close, raw.end())
                if j < 0:
                    self.out.note(
                        f"Unterminated raw string on line {self.out.line(i)}; read to the end of the file."
                    )
                    j = self.n - len(close)
                self._emit(STRING, i, j + len(close))
                return j + len(close)
        self._classify_word(word, i, end)
        return end

    def _classify_word(self, word: str, start: int, end: int) -> None:
        lang = self.lang
        key = word.lower() if lang.case_insensitive else word
        after_dot = self.prev is not None and self.prev.kind == PUNCT and self._prev_text() == "."
        if key in lang.contextual:
            kind = KEYWORD if (not after_dot and self._keyword_context(end)) else IDENTIFIER
        elif key in lang.keywords:
            kind = IDENTIFIER if (after_dot and lang.member_names) else KEYWORD
        else:
            kind = IDENTIFIER
        self._emit(kind, start, end, word if kind == IDENTIFIER else None)

    def _keyword_context(self, end: int) -> bool:
        """A contextual keyword acts as one when a name, string, `{` or `*` follows it."""
        m = _WS.match(self.code, end)
        j = m.end() if m else end
        c = self.code[j : j + 1]
        return bool(c) and (c in "\"'`{*" or bool(self.ident_re.match(c)))

    # -- main loop
    def scan(self, i: int = 0, *, stop_brace: bool = False) -> int:
        code, n = self.code, self.n
        lid = self.lang.id
        braces = 0
        line_start_re = re.compile(r"[ \t]*")
        while i < n:
            c = code[i]
            if c.isspace():
                i = _WS.match(code, i).end()
                continue
            if c == "/":
                nxt = code[i + 1 : i + 2]
                if nxt == "/":
                    j = code.find("\n", i)
                    j = n if j < 0 else j
                    self.out.add(COMMENT, i, j)
                    i = j
                    continue
                if nxt == "*":
                    i = self._block_comment(i)
                    continue
                if self.js and self._regex_allowed():
                    m = _JS_REGEX.match(code, i)
                    if m:
                        self._emit(STRING, i, m.end())
                        i = m.end()
                        continue
                self._emit(PUNCT, i, i + 1)
                i += 1
                continue
            if c == '"':
                if lid in ("java", "csharp") and code.startswith('"""', i):
                    i = self._string(i, i + 3, '"""', multiline=True, escapes=lid == "java")
                else:
                    i = self._string(i, i + 1, '"', multiline=lid == "rust")
                continue
            if c == "'":
                if self.js:
                    i = self._string(i, i + 1, "'")
                    continue
                if lid == "rust":
                    m = _RUST_CHAR.match(code, i)
                    if m:
                        self._emit(STRING, i, m.end())
                        i = m.end()
                        continue
                    m = _RUST_LIFETIME.match(code, i)
                    if m:
                        self._emit(OTHER, i, m.end())
                        i = m.end()
                        continue
                    self._emit(PUNCT, i, i + 1)
                    i += 1
                    continue
                m = _CHAR_LITERAL.match(code, i)
                if m:
                    self._emit(STRING, i, m.end())
                    i = m.end()
                else:
                    i = self._string(i, i + 1, "'")
                continue
            if c == "`":
                if self.js:
                    i = self._template(i)
                    continue
                if lid == "go":
                    i = self._string(i, i + 1, "`", escapes=False, multiline=True)
                    continue
            if c == "#":
                if lid in ("c", "cpp", "csharp"):
                    ls = code.rfind("\n", 0, i) + 1
                    if line_start_re.match(code, ls).end() == i:
                        m = _PREPROCESSOR.match(code, i)
                        if m:
                            self._emit(KEYWORD, i, m.end())
                            i = m.end()
                            if m.group(1) in ("include", "import", "include_next"):
                                t = _INCLUDE_TARGET.match(code, i)
                                if t:
                                    self._emit(STRING, i + len(t.group()) - len(t.group().lstrip()), t.end())
                                    i = t.end()
                            continue
                if self.js and i == 0 and code.startswith("#!"):
                    j = code.find("\n")
                    j = n if j < 0 else j
                    self.out.add(COMMENT, 0, j)
                    i = j
                    continue
            if c == "@" and lid == "csharp":
                m = IDENT_RE.match(code, i + 1)
                if m:  # @class: a verbatim identifier
                    self._emit(PUNCT, i, i + 1)
                    self._emit(IDENTIFIER, i + 1, m.end(), m.group())
                    i = m.end()
                    continue
                if code.startswith('@"', i):
                    i = self._string(i, i + 2, '"', escapes=False, multiline=True, doubling=True)
                    continue
                if code.startswith('@$"', i) or code.startswith('$@"', i):
                    i = self._string(i, i + 3, '"', escapes=False, multiline=True, doubling=True)
                    continue
            if c == "$" and lid == "csharp":
                if code.startswith('$"', i):
                    i = self._string(i, i + 2, '"')
                    continue
                if code.startswith('$@"', i):
                    i = self._string(i, i + 3, '"', escapes=False, multiline=True, doubling=True)
                    continue
            if stop_brace:
                if c == "{":
                    braces += 1
                elif c == "}":
                    if braces == 0:  # the closing brace belongs to the template's text
                        return i + 1
                    braces -= 1
            m = self.ident_re.match(code, i)
            if m:
                i = self._word(i, m)
                continue
            if c.isdigit() or (c == "." and code[i + 1 : i + 2].isdigit()):
                m = self.number_re.match(code, i)
                if m:
                    self._emit(NUMBER, i, m.end())
                    i = m.end()
                    continue
            self._emit(PUNCT, i, i + 1)
            i += 1
        if stop_brace:
            self.out.note("Unclosed ${ in a template literal; read to the end of the file.")
        return i


# ------------------------------------------------------------------ Python (generic fallback)

_PY_STRING_START = re.compile(r"(?i)(rb|br|fr|rf|[rbuf])?('''|\"\"\"|'|\")")
_PY_DOC_LINE = re.compile(r"[ \t]*(?:\n|$)")


class _PythonGeneric:
    """Python without `tokenize`: for code tokenize rejects, and for f-string expressions."""

    def __init__(self, out: _Out, lang: Language) -> None:
        self.out = out
        self.code = out.code
        self.lang = lang
        self.docstrings: list[tuple[int, int]] = []
        self.depth = 0

    def scan(self, i: int, end: int) -> int:
        code = self.code
        lang = self.lang
        while i < end:
            c = code[i]
            if c.isspace():
                i = min(_WS.match(code, i).end(), end)
                continue
            if c == "#":
                j = code.find("\n", i, end)
                j = end if j < 0 else j
                self.out.add(COMMENT, i, j)
                i = j
                continue
            m = IDENT_RE.match(code, i, end)
            if m:
                s = _PY_STRING_START.match(code, i, end)
                if s and s.group(1):
                    i = self._string(i, s, end)
                    continue
                word = m.group()
                if word in lang.keywords:
                    self.out.add(KEYWORD, i, m.end())
                else:
                    self.out.add(IDENTIFIER, i, m.end(), word)
                i = m.end()
                continue
            if c in "'\"":
                i = self._string(i, _PY_STRING_START.match(code, i, end), end)
                continue
            if c.isdigit() or (c == "." and code[i + 1 : i + 2].isdigit()):
                m = NUMBER_RE.match(code, i, end)
                self.out.add(NUMBER, i, m.end())
                i = m.end()
                continue
            self.out.add(PUNCT, i, i + 1)
            i += 1
        return i

    def _string(self, i: int, s: re.Match, end: int) -> int:
        code = self.code
        prefix, quote = (s.group(1) or "").lower(), s.group(2)
        triple = len(quote) == 3
        stop, closed = scan_quoted(code, s.end(), quote, escapes=True, multiline=triple, endpos=end)
        if not closed:
            self.out.note(
                f"Unterminated {'triple-quoted ' if triple else ''}string starting on line {self.out.line(i)}; "
                f"read to the end of the {'file' if triple else 'line'}."
            )
        body_end = stop - len(quote) if closed else stop
        if "f" in prefix and self.depth < MAX_NESTING:
            add_fstring(self.out, self, i, s.end(), body_end, stop)
        else:
            self.out.add(STRING, i, stop)
        if triple and closed:  # a triple-quoted string alone on its lines is taken as a docstring
            ls = code.rfind("\n", 0, i) + 1
            if not code[ls:i].strip() and _PY_DOC_LINE.match(code, stop):
                self.docstrings.append((i, stop))
        return stop


def fstring_fields(code: str, start: int, end: int) -> list[tuple[int, int]]:
    """Offsets of the expressions inside an f-string body ``code[start:end]``.

    ``fstring_fields('{a!r:>{w}} {{x}}', 0, 16) -> [(1, 2), (7, 8)]``: `a` and the nested `w`;
    doubled braces are text.
    """
    spans: list[tuple[int, int]] = []
    i = start
    while i < end:
        c = code[i]
        if c == "{":
            if code.startswith("{{", i) and i + 1 < end:
                i += 2
                continue
            i = _field(code, i + 1, end, spans)
        else:
            i += 1
    return spans


def _field(code: str, i: int, end: int, spans: list[tuple[int, int]]) -> int:
    """Parse one replacement field whose expression starts at `i`; return the offset after `}`."""
    depth = 0
    j = i
    while j < end:
        c = code[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c in "'\"":
            k = code.find(c, j + 1, end)
            j = end if k < 0 else k
        elif depth == 0 and (c == ":" or (c == "!" and code[j + 1 : j + 2] != "=")):
            break
        j += 1
    spans.append((i, j))
    if j < end and code[j] == "!":
        j += 2
    if j < end and code[j] == ":":  # format spec: text with nested fields
        j += 1
        while j < end and code[j] != "}":
            if code[j] == "{":
                j = _field(code, j + 1, end, spans)
            else:
                j += 1
    return min(j + 1, end)


def add_fstring(out: _Out, scanner: _PythonGeneric, start: int, body: int, body_end: int, stop: int) -> None:
    """Emit an f-string as string pieces around its expressions, which are lexed as code."""
    piece = start
    scanner.depth += 1
    for a, b in fstring_fields(out.code, body, body_end):
        out.add(STRING, piece, a)
        scanner.scan(a, b)
        piece = b
    scanner.depth -= 1
    out.add(STRING, piece, stop)


# ------------------------------------------------------------------ Python via tokenize

_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
_TSTRING = {
    getattr(tokenize, n) for n in ("TSTRING_START", "TSTRING_MIDDLE", "TSTRING_END") if hasattr(tokenize, n)
}
_STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, None}


def _lex_python(code: str, lang: Language) -> LexResult:
    out = _Out(code)
    generic = _PythonGeneric(out, lang)
    starts = line_starts(code)
    n = len(code)

    def off(row: int, col: int) -> int:
        return starts[row - 1] + col if row - 1 < len(starts) else n

    docstrings: list[tuple[int, int]] = []
    pending: tuple[int, int] | None = None
    prev_type: int | None = None
    prev_op = ""
    skip_until = -1
    in_fstring = 0
    failure: tuple[int, str] | None = None
    tokens = tokenize.generate_tokens(io.StringIO(code).readline)
    try:
        for tok in tokens:
            ttype = tok.type
            s, e = off(*tok.start), off(*tok.end)
            if s < skip_until:
                continue
            if ttype in (tokenize.NL, tokenize.COMMENT):
                if ttype == tokenize.COMMENT:
                    out.add(COMMENT, s, e)
                continue
            if ttype == tokenize.NEWLINE or ttype == tokenize.ENDMARKER:
                if pending:
                    docstrings.append(pending)
                pending = None
            elif ttype == tokenize.STRING:
                if prev_type in _STATEMENT_START or (pending and prev_type == tokenize.STRING):
                    pending = (pending[0] if pending else s, e)
                else:
                    pending = None
                sm = _PY_STRING_START.match(code, s)
                if sm and "f" in (sm.group(1) or "").lower():
                    q = len(sm.group(2))
                    add_fstring(out, generic, s, sm.end(), e - q, e)
                else:
                    out.add(STRING, s, e)
            elif ttype in (_FSTRING_START, _FSTRING_MIDDLE, _FSTRING_END) or ttype in _TSTRING:
                pending = None
                in_fstring += 1 if ttype == _FSTRING_START else -1 if ttype == _FSTRING_END else 0
                out.add(STRING, s, e)
            elif ttype == tokenize.NAME:
                pending = None
                word = tok.string
                if in_fstring and prev_op == "!":
                    out.add(PUNCT, s, e)  # the conversion in f"{x!r}"
                elif word in lang.keywords:
                    out.add(KEYWORD, s, e)
                else:
                    out.add(IDENTIFIER, s, e, word)
            elif ttype == tokenize.NUMBER:
                pending = None
                out.add(NUMBER, s, e)
            elif ttype == tokenize.OP:
                pending = None
                out.add(PUNCT, s, e)
            elif ttype == tokenize.ERRORTOKEN:
                text = tok.string
                if text.isspace():
                    continue
                pending = None
                if text[:1] in "'\"":  # an unterminated string: it runs to the end of the line
                    j = code.find("\n", s)
                    j = n if j < 0 else j
                    out.add(STRING, s, j)
                    out.note(f"Unterminated string on line {tok.start[0]}; read to the end of the line.")
                    skip_until = j
                else:
                    out.add(PUNCT, s, e)
            else:  # INDENT, DEDENT, ENCODING
                prev_type = ttype
                continue
            prev_type = ttype
            prev_op = tok.string if ttype == tokenize.OP else ""
    except (tokenize.TokenError, SyntaxError) as exc:
        if isinstance(exc, tokenize.TokenError):
            msg, (row, col) = exc.args[0], exc.args[1]
            resume = off(row, col)
        else:
            msg, row = exc.msg, exc.lineno or 1
            resume = off(row, 0)
        failure = (min(resume, n), msg)
    if failure is None:
        return LexResult(lang.id, tuple(out.lexemes), "python tokenize", tuple(out.notes), tuple(docstrings))
    resume, msg = failure
    kept = [x for x in out.lexemes if x.end <= resume]
    out.lexemes[:] = kept
    docstrings = [d for d in docstrings if d[1] <= resume]
    row = position(starts, resume)[0] if resume < n else len(starts)
    if resume >= n or not code[resume:].strip():
        out.notes.insert(0, f"Python's tokenizer reported \"{msg}\" at the end of the file (an unclosed "
                            "bracket?). Every identifier was still read.")  # fmt: skip
        return LexResult(lang.id, tuple(out.lexemes), "python tokenize", tuple(out.notes), tuple(docstrings))
    generic.scan(resume, n)
    out.notes.insert(0, f"Python's tokenizer stopped on line {row}: {msg}. From there on the file was "
                        "read with the generic lexer, which does not need valid code.")  # fmt: skip
    docstrings.extend(d for d in generic.docstrings if d[0] >= resume)
    return LexResult(
        lang.id, tuple(out.lexemes), "python tokenize + generic", tuple(out.notes), tuple(docstrings)
    )


# ------------------------------------------------------------------ SQL

_SQL_DOLLAR = re.compile(r"\$([A-Za-z_]\w*)?\$")
_SQL_PARAM = regex.compile(f"[:@]([{_ID_START}][{_ID_CONT}]*)")


class _Sql(_CLike):
    def scan(self, i: int = 0, *, stop_brace: bool = False) -> int:
        code, n = self.code, self.n
        while i < n:
            c = code[i]
            if c.isspace():
                i = _WS.match(code, i).end()
                continue
            if c == "-" and code.startswith("--", i):
                j = code.find("\n", i)
                j = n if j < 0 else j
                self.out.add(COMMENT, i, j)
                i = j
                continue
            if c == "/" and code.startswith("/*", i):
                i = self._block_comment(i)
                continue
            if c == "'":
                i = self._string(i, i + 1, "'", escapes=False, doubling=True, multiline=True)
                continue
            if c in '"`':
                end, closed = scan_quoted(code, i + 1, c, escapes=False, doubling=True, multiline=True)
                if not closed:
                    self.out.note(f"Unterminated quoted identifier on line {self.out.line(i)}.")
                inner_end = end - 1 if closed else end
                name = code[i + 1 : inner_end].replace(c + c, c)
                if name.strip():
                    self._emit(IDENTIFIER, i + 1, inner_end, name)
                else:
                    self._emit(STRING, i, end)
                i = end
                continue
            if c == "$":
                m = _SQL_DOLLAR.match(code, i)
                if m:
                    j = code.find(m.group(), m.end())
                    if j < 0:
                        self.out.note(f"Unterminated {m.group()} body starting on line {self.out.line(i)}.")
                        j = n - len(m.group())
                    self._emit(STRING, i, j + len(m.group()))
                    i = j + len(m.group())
                    continue
            if c in ":@" and not (c == ":" and code[i - 1 : i] == ":") and not code.startswith("::", i):
                m = _SQL_PARAM.match(code, i)
                if m:  # :name and @name parameters and variables
                    self._emit(PUNCT, i, i + 1)
                    self._emit(IDENTIFIER, i + 1, m.end(), m.group(1))
                    i = m.end()
                    continue
            m = IDENT_RE.match(code, i)
            if m:
                i = self._word(i, m)
                continue
            if c.isdigit() or (c == "." and code[i + 1 : i + 2].isdigit()):
                m = NUMBER_RE.match(code, i)
                self._emit(NUMBER, i, m.end())
                i = m.end()
                continue
            self._emit(PUNCT, i, i + 1)
            i += 1
        return i


# ------------------------------------------------------------------ Shell

_SH_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SH_CMD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.:][A-Za-z0-9_]+)*")
_SH_BLANK = re.compile(r"[ \t\r\f\v]+")
_SH_SPECIAL_PARAM = re.compile(r"[0-9@*#?$!-]")
_SH_LITERAL = re.compile(r"""[^\s|&;()<>'"`$\\]+""")
_SH_ASSIGN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(\[[^\]\n]*\])?\+?=")
_SH_HEREDOC = re.compile(r"<<(-?)[ \t]*(['\"]?)([A-Za-z_][\w.-]*)\2")
_SH_CASE_PATTERN = re.compile(r"\(?[^\s()|;]+(?:[ \t]*\|[ \t]*[^\s()|;]+)*\)")
_SH_COMMAND_AFTER = frozenset("if then else elif do while until time coproc".split())
_SH_GROUPING = frozenset("{ } ! [[ ]]".split())
_SH_NAME_TAKERS = frozenset("export local declare readonly typeset unset read for select function".split())
_SH_DELIMITERS = " \t\r\n;|&()<>`"


@dataclass(slots=True)
class _ShState:
    command_pos: bool = True  # the next word names a command (or is a keyword)
    taker: str = ""  # a builtin/keyword whose next words are names: export, read, for, function...
    in_case: int = 0
    case_pattern: bool = False  # the next word is a case pattern such as start) or *.txt|*.md)


class _Shell:
    """Bash/sh: identifiers are variables ($NAME, NAME=, names after export/read/for...),
    command names and function names. Other arguments are literal text (kind "string")."""

    def __init__(self, out: _Out, lang: Language) -> None:
        self.out = out
        self.code = out.code
        self.n = len(self.code)
        self.lang = lang
        self.depth = 0
        self.heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, strip tabs, expands)

    def _ident(self, start: int, end: int, name: str) -> None:
        self.out.add(IDENTIFIER, start, end, name)

    def scan(self, i: int = 0, *, stop: str = "") -> int:
        """Lex shell code from `i`; with `stop` (")" or "`"), return after the matching closer."""
        code, n = self.code, self.n
        st = _ShState()
        parens = 0
        while i < n:
            c = code[i]
            if c == "\n":
                i += 1
                if self.heredocs:
                    i = self._heredoc_bodies(i)
                st.command_pos, st.taker = True, ""
                st.case_pattern = st.in_case > 0
                continue
            if c in " \t\r\f\v":
                i = _SH_BLANK.match(code, i).end()
                continue
            if stop and c == stop and (stop == "`" or parens == 0):
                self.out.add(PUNCT, i, i + 1)
                return i + 1
            if c == "#":
                j = code.find("\n", i)
                j = n if j < 0 else j
                self.out.add(COMMENT, i, j)
                i = j
                continue
            if c == "\\":
                self.out.add(PUNCT, i, min(i + 2, n))
                i += 2
                continue
            if st.case_pattern and not code.startswith("esac", i):
                m = _SH_CASE_PATTERN.match(code, i)
                if m:
                    self.out.add(STRING, i, m.end())
                    i = m.end()
                    st.case_pattern, st.command_pos = False, True
                    continue
            if c in ";&|":
                if code.startswith(";;", i) or code.startswith(";&", i):
                    self.out.add(PUNCT, i, i + 2)
                    i += 2
                    st.case_pattern = st.in_case > 0
                else:
                    self.out.add(PUNCT, i, i + 1)
                    i += 1
                st.command_pos, st.taker = True, ""
                continue
            if c in "()":
                if code.startswith("((", i):
                    self.out.add(PUNCT, i, i + 2)
                    i = self._arithmetic(i + 2, "))")
                    continue
                self.out.add(PUNCT, i, i + 1)
                parens += 1 if c == "(" else -1 if parens > 0 else 0
                i += 1
                st.command_pos = c == "("
                continue
            if c in "<>":
                m = _SH_HEREDOC.match(code, i)
                if m:
                    self.heredocs.append((m.group(3), m.group(1) == "-", not m.group(2)))
                    self.out.add(PUNCT, i, i + 2 + len(m.group(1)))
                    self.out.add(STRING, i + 2 + len(m.group(1)), m.end())
                    i = m.end()
                    continue
                self.out.add(PUNCT, i, i + 1)
                i += 1
                continue
            i = self._word(i, st)
        if stop:
            self.out.note(
                f"Unclosed {'$(' if stop == ')' else '`'} command substitution; read to the end of the file."
            )
        return i

    def _ends_word(self, j: int) -> bool:
        return j >= self.n or self.code[j] in _SH_DELIMITERS

    def _word(self, i: int, st: _ShState) -> int:
        code = self.code
        if st.command_pos or st.taker in ("export", "local", "declare", "readonly", "typeset"):
            a = _SH_ASSIGN.match(code, i)
            if a:  # NAME=value (also as a prefix: NAME=value command)
                self._ident(i, a.end(1), a.group(1))
                self.out.add(PUNCT, a.end(1), a.end())
                return self._word_parts(a.end())
        m = _SH_CMD.match(code, i) or re.compile(r"\{|\}|!|\[\[|\]\]").match(code, i)
        if m and self._ends_word(m.end()):
            word, end = m.group(), m.end()
            if word in _SH_GROUPING:
                self.out.add(PUNCT, i, end)
                st.command_pos = word != "]]"
                return end
            if st.command_pos:
                if word in self.lang.keywords and word != "in":
                    self.out.add(KEYWORD, i, end)
                    if word == "case":
                        st.in_case += 1
                    elif word == "esac":
                        st.in_case = max(0, st.in_case - 1)
                    st.command_pos = word in _SH_COMMAND_AFTER
                    st.taker = word if word in _SH_NAME_TAKERS else ""
                    return end
                self._ident(i, end, word)  # a command or function name
                st.command_pos = False
                st.taker = word if word in _SH_NAME_TAKERS else ""
                return end
            if word == "in" and (st.in_case or st.taker in ("in-list",)):
                self.out.add(KEYWORD, i, end)
                st.case_pattern = st.in_case > 0 and st.taker != "in-list"
                st.taker = ""
                return end
            if st.taker and (_SH_NAME.fullmatch(word) or st.taker == "function"):
                self._ident(i, end, word)
                if st.taker in ("for", "select"):
                    st.taker = "in-list"
                elif st.taker == "function":
                    st.taker = ""
                return end
        st.command_pos = False
        if st.taker in ("for", "select", "function", "in-list"):
            st.taker = ""
        return self._word_parts(i)

    def _word_parts(self, i: int) -> int:
        """Lex the rest of a word: literal text (kind string), quotes and expansions."""
        code, n = self.code, self.n
        while i < n:
            c = code[i]
            if c == "'":
                end, closed = scan_quoted(code, i + 1, "'", escapes=False, multiline=True)
                if not closed:
                    self.out.note(
                        f"Unterminated ' string starting on line {self.out.line(i)}; read to the end of the file."
                    )
                self.out.add(STRING, i, end)
                i = end
            elif c == '"':
                i = self._double_quoted(i)
            elif c == "$":
                i = self._dollar(i)
            elif c == "`":
                self.out.add(PUNCT, i, i + 1)
                i = self._nested(i + 1, "`")
            elif c == "\\":
                self.out.add(STRING, i, min(i + 2, n))
                i += 2
            else:
                m = _SH_LITERAL.match(code, i)
                if m is None:
                    return i
                self.out.add(STRING, i, m.end())
                i = m.end()
        return i

    def _nested(self, i: int, stop: str) -> int:
        if self.depth >= MAX_NESTING:
            self.out.note(
                f"Substitutions nested more than {MAX_NESTING} deep; the inner part is read as text."
            )
            j = self.code.find(stop, i)
            j = self.n if j < 0 else j + 1
            self.out.add(STRING, i, j)
            return j
        self.depth += 1
        j = self.scan(i, stop=stop)
        self.depth -= 1
        return j

    def _dollar(self, i: int) -> int:
        code = self.code
        nxt = code[i + 1 : i + 2]
        if code.startswith("$((", i):
            self.out.add(PUNCT, i, i + 3)
            return self._arithmetic(i + 3, "))")
        if nxt == "(":
            self.out.add(PUNCT, i, i + 2)
            return self._nested(i + 2, ")")
        if nxt == "{":
            return self._braced(i)
        if nxt == "'":
            end, _ = scan_quoted(code, i + 2, "'", escapes=True, multiline=True)
            self.out.add(STRING, i, end)
            return end
        if nxt == '"':
            return self._double_quoted(i + 1)
        m = _SH_NAME.match(code, i + 1)
        if m:
            self.out.add(PUNCT, i, i + 1)
            self._ident(m.start(), m.end(), m.group())
            return m.end()
        if _SH_SPECIAL_PARAM.match(code, i + 1):
            self.out.add(PUNCT, i, i + 2)
            return i + 2
        self.out.add(STRING, i, i + 1)
        return i + 1

    def _braced(self, i: int) -> int:
        """${NAME}, ${#NAME}, ${!NAME}, ${NAME:-default}, ${NAME//a/b}...: NAME is the identifier."""
        code, n = self.code, self.n
        j = i + 2
        if code[j : j + 1] in ("#", "!") and _SH_NAME.match(code, j + 1):
            j += 1
        self.out.add(PUNCT, i, j)
        m = _SH_NAME.match(code, j)
        if m:
            self._ident(m.start(), m.end(), m.group())
            j = m.end()
        depth = 0
        piece = j
        while j < n:
            c = code[j]
            if c == "}" and depth == 0:
                self.out.add(STRING, piece, j)
                self.out.add(PUNCT, j, j + 1)
                return j + 1
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif c == "\\":
                j += 2
                continue
            elif c == "$" or c in "'\"":
                self.out.add(STRING, piece, j)
                if c == "$":
                    j = self._dollar(j)
                elif c == '"':
                    j = self._double_quoted(j)
                else:
                    j = scan_quoted(code, j + 1, "'", escapes=False, multiline=True)[0]
                    self.out.add(STRING, piece, j)
                piece = j
                continue
            j += 1
        self.out.note(f"Unclosed ${{ on line {self.out.line(i)}; read to the end of the file.")
        self.out.add(STRING, piece, n)
        return n

    def _expansions(self, j: int, end: int, closer: str) -> tuple[int, bool]:
        """Text with $NAME, ${...}, $(...) and `...` inside (double quotes, heredocs), up to `closer`."""
        code = self.code
        piece = j
        while j < end:
            c = code[j]
            if c == "\\":
                j += 2
                continue
            if closer and c == closer:
                self.out.add(STRING, piece, j + 1)
                return j + 1, True
            if c == "$" and (code[j + 1 : j + 2] in ("{", "(") or _SH_NAME.match(code, j + 1)):
                self.out.add(STRING, piece, j)
                j = self._dollar(j)
                piece = j
                continue
            if c == "`":
                self.out.add(STRING, piece, j + 1)
                j = self._nested(j + 1, "`")
                piece = j
                continue
            j += 1
        self.out.add(STRING, piece, end)
        return end, False

    def _double_quoted(self, i: int) -> int:
        """A "..." string: literal text, but $NAME, ${...} and $(...) inside are code."""
        end, closed = self._expansions(i + 1, self.n, '"')
        if closed:
            self.out.add(STRING, i, i + 1)
        else:
            self.out.note(
                f'Unterminated " string starting on line {self.out.line(i)}; read to the end of the file.'
            )
            self.out.add(STRING, i, i + 1)
        return end

    def _arithmetic(self, i: int, close: str) -> int:
        """$(( ... )) and (( ... )): bare names are variables."""
        code, n = self.code, self.n
        depth = 0
        while i < n:
            if depth == 0 and code.startswith(close, i):
                self.out.add(PUNCT, i, i + len(close))
                return i + len(close)
            c = code[i]
            if c.isspace():
                i += 1
                continue
            if c == "$":
                i = self._dollar(i)
                continue
            m = _SH_NAME.match(code, i)
            if m:
                self._ident(i, m.end(), m.group())
                i = m.end()
                continue
            if c.isdigit():
                m = NUMBER_RE.match(code, i)
                self.out.add(NUMBER, i, m.end())
                i = m.end()
                continue
            depth += 1 if c == "(" else -1 if c == ")" else 0
            self.out.add(PUNCT, i, i + 1)
            i += 1
        self.out.note("Unclosed (( arithmetic; read to the end of the file.")
        return n

    def _heredoc_bodies(self, i: int) -> int:
        code, n = self.code, self.n
        for delim, strip_tabs, expands in self.heredocs:
            end_line = re.compile(r"^" + ("\t*" if strip_tabs else "") + re.escape(delim) + r"[ \t]*$", re.M)
            m = end_line.search(code, i)
            body_end = m.start() if m else n
            if not m:
                self.out.note(f"Heredoc {delim} is never closed; read to the end of the file.")
            if expands:
                self._expansions(i, body_end, "")
            else:
                self.out.add(STRING, i, body_end)
            if m:
                self.out.add(STRING, m.start(), m.end())
                i = min(m.end() + 1, n)
            else:
                i = n
        self.heredocs = []
        return i


# ------------------------------------------------------------------ entry point

_SCANNERS: dict[str, Callable[[_Out, Language], _CLike | _Shell]] = {
    "sql": _Sql,
    "shell": _Shell,
}


def lex(code: str, language: str) -> LexResult:
    """Lexemes of `code` in `language` (an id from LANGUAGES). Never raises on bad code.

    ``[x.kind for x in lex("x = 1  # one", "python").lexemes] -> ['identifier', 'punct', 'number', 'comment']``
    """
    lang = get_language(language)
    if lang.id == "python":
        return _lex_python(code, lang)
    out = _Out(code)
    scanner_cls = _SCANNERS.get(lang.id, _CLike)
    scanner = scanner_cls(out, lang)
    try:
        scanner.scan(0)
    except RecursionError:  # pathological nesting: keep what was read, say so
        out.lexemes.sort(key=lambda x: x.start)
        out.note("The code is nested too deeply to read completely; the rest is skipped.")
    lexemes = sorted(out.lexemes, key=lambda x: x.start)
    return LexResult(lang.id, tuple(lexemes), "generic", tuple(out.notes))
