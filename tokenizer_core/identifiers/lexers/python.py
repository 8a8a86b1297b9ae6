"""Python: the standard library's `tokenize` (the exact rules of the language), with a generic
Python lexer for code tokenize rejects and for the expressions inside f-strings.

Everything before a tokenize error keeps tokenize's reading; the rest is read by the generic
lexer, and a note says where and why. A triple-quoted string alone on its lines (or a string
statement, with tokenize) is recorded as a docstring.

    >>> [x.kind for x in lex_python("x = 1  # one", PYTHON).lexemes]
    ['identifier', 'punct', 'number', 'comment']
    >>> fstring_fields("{a} {{b}}", 0, 9)
    [(1, 2)]
"""

from __future__ import annotations

import io
import re
import tokenize

from ..languages import CodeLanguage, get_language
from .base import (
    COMMENT,
    IDENT_RE,
    IDENTIFIER,
    KEYWORD,
    MAX_NESTING,
    NUMBER,
    NUMBER_RE,
    PUNCT,
    STRING,
    WS,
    LexResult,
    Output,
    line_starts,
    position,
    scan_quoted,
)

PYTHON = get_language("python")


_PY_STRING_START = re.compile(r"(?i)(rb|br|fr|rf|[rbuf])?('''|\"\"\"|'|\")")
_PY_DOC_LINE = re.compile(r"[ \t]*(?:\n|$)")


class PythonGeneric:
    """Python without `tokenize`: for code tokenize rejects, and for f-string expressions."""

    def __init__(self, out: Output, lang: CodeLanguage) -> None:
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
                m = WS.match(code, i)
                assert m is not None  # c is a space
                i = min(m.end(), end)
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
                s = _PY_STRING_START.match(code, i, end)
                assert s is not None  # c is a quote
                i = self._string(i, s, end)
                continue
            if c.isdigit() or (c == "." and code[i + 1 : i + 2].isdigit()):
                m = NUMBER_RE.match(code, i, end)
                assert m is not None  # a digit, or "." and a digit
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


def add_fstring(out: Output, scanner: PythonGeneric, start: int, body: int, body_end: int, stop: int) -> None:
    """Emit an f-string as string pieces around its expressions, which are lexed as code."""
    piece = start
    scanner.depth += 1
    for a, b in fstring_fields(out.code, body, body_end):
        out.add(STRING, piece, a)
        scanner.scan(a, b)
        piece = b
    scanner.depth -= 1
    out.add(STRING, piece, stop)


_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_MIDDLE = getattr(tokenize, "FSTRING_MIDDLE", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
_TSTRING = {
    getattr(tokenize, n) for n in ("TSTRING_START", "TSTRING_MIDDLE", "TSTRING_END") if hasattr(tokenize, n)
}
_STATEMENT_START = {tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, None}


def lex_python(code: str, lang: CodeLanguage) -> LexResult:
    """Lexemes of Python `code`, through `tokenize` where it accepts the code."""
    out = Output(code)
    generic = PythonGeneric(out, lang)
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
