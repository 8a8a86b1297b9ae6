"""SQL: ``--`` and ``/* */`` comments, ``'it''s'`` strings (``E'...'`` with escapes, ``N'...'``
and the other prefixes), ``"quoted identifiers"`` and backtick identifiers (the name is the
identifier), ``$$`` bodies, ``:name`` and ``@name`` parameters, keywords in any case.

    >>> from tokenizer_core.identifiers.lexer import lex
    >>> [(x.kind, x.name) for x in lex('SELECT "user id" FROM t -- all', "sql").lexemes]
    [('keyword', None), ('identifier', 'user id'), ('keyword', None), ('identifier', 't'), ('comment', None)]
"""

from __future__ import annotations

import re

import regex

from .base import (
    COMMENT,
    ID_CONT,
    ID_START,
    IDENT_RE,
    IDENTIFIER,
    NUMBER,
    NUMBER_RE,
    PUNCT,
    STRING,
    WS,
    scan_quoted,
)
from .c_like import CLike

_SQL_DOLLAR = re.compile(r"\$([A-Za-z_]\w*)?\$")
_SQL_PARAM = regex.compile(f"[:@]([{ID_START}][{ID_CONT}]*)")


class Sql(CLike):
    """SQL shares the C family's block comments and keyword rules; the rest is its own."""

    prefixes = frozenset(("N", "n", "E", "e", "X", "x", "B", "b", "U", "u"))

    def word_literal(self, i: int, word: str, end: int) -> int | None:
        nxt = self.code[end : end + 1]
        if nxt in ("'", '"') and word in self.prefixes:
            return self._string(i, end + 1, nxt, escapes=word in "eE", doubling=True, multiline=True)
        return None

    def scan(self, i: int = 0, *, stop_brace: bool = False) -> int:
        code, n = self.code, self.n
        while i < n:
            c = code[i]
            if c.isspace():
                m = WS.match(code, i)
                assert m is not None  # c is a space
                i = m.end()
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
                assert m is not None  # a digit, or "." and a digit
                self._emit(NUMBER, i, m.end())
                i = m.end()
                continue
            self._emit(PUNCT, i, i + 1)
            i += 1
        return i
