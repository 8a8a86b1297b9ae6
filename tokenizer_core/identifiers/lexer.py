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

The lexers live in `lexers/`, one module per family (`c_like`, `sql`, `python`, `shell`) over
`lexers/base` (the kinds, `Lexeme`, `LexResult`, positions, quoted literals); this module picks
one by language and is where the rest of the package imports them from.

Every lexeme is ``(kind, start, end)`` with character offsets into the code; whitespace is the
text between lexemes. Broken code never raises: an unterminated string or comment runs to the
end of its line (or of the file, for multi-line kinds) and is reported in ``notes``.
"""

from __future__ import annotations

from collections.abc import Callable

from .languages import CodeLanguage, get_language
from .lexers.base import (
    COMMENT,
    IDENT_DOLLAR_RE,
    IDENT_RE,
    IDENTIFIER,
    KEYWORD,
    KINDS,
    MAX_NESTING,
    NUMBER,
    NUMBER_CPP_RE,
    NUMBER_RE,
    OTHER,
    PUNCT,
    STRING,
    WORD_RE,
    Lexeme,
    LexResult,
    Output,
    line_starts,
    position,
    scan_quoted,
)
from .lexers.c_like import SCANNERS as C_LIKE_SCANNERS
from .lexers.c_like import CLike
from .lexers.python import fstring_fields, lex_python
from .lexers.shell import Shell
from .lexers.sql import Sql

__all__ = [
    "COMMENT", "IDENTIFIER", "KEYWORD", "KINDS", "NUMBER", "OTHER", "PUNCT", "STRING",
    "IDENT_DOLLAR_RE", "IDENT_RE", "MAX_NESTING", "NUMBER_CPP_RE", "NUMBER_RE", "WORD_RE",
    "LexResult", "Lexeme", "fstring_fields", "lex", "line_starts", "position", "scan_quoted",
]  # fmt: skip

_SCANNERS: dict[str, Callable[[Output, CodeLanguage], CLike | Shell]] = {
    **C_LIKE_SCANNERS,
    "sql": Sql,
    "shell": Shell,
}


def lex(code: str, language: str) -> LexResult:
    """Lexemes of `code` in `language` (an id from LANGUAGES). Never raises on bad code.

    ``[x.kind for x in lex("x = 1  # one", "python").lexemes] -> ['identifier', 'punct', 'number', 'comment']``
    """
    lang = get_language(language)
    if lang.id == "python":
        return lex_python(code, lang)
    out = Output(code)
    scanner_cls = _SCANNERS.get(lang.id, CLike)
    scanner = scanner_cls(out, lang)
    try:
        scanner.scan(0)
    except RecursionError:  # pathological nesting: keep what was read, say so
        out.lexemes.sort(key=lambda x: x.start)
        out.note("The code is nested too deeply to read completely; the rest is skipped.")
    lexemes = sorted(out.lexemes, key=lambda x: x.start)
    return LexResult(lang.id, tuple(lexemes), "generic", tuple(out.notes))
