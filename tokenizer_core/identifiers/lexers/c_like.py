"""The C family, Java, C#, Go, Rust, JavaScript and TypeScript: one scanner, one small subclass
per language.

`CLike` reads what they share: ``//`` and ``/* */`` comments, ``"..."`` strings with escapes,
``'x'`` char literals, identifiers, keywords (contextual ones only where they act as one) and
numbers. A subclass states its differences as class attributes (the identifier pattern, string
prefixes, nested comments, regex literals...) and overrides a hook where a character means
something of its own (`single_quote`, `special` for the characters in `specials`, `word_literal`
for literals that start with a word such as ``r"..."`` or ``R"x(...)x"``).

    >>> from tokenizer_core.identifiers.lexer import lex
    >>> [x.kind for x in lex("let s = `a${b}`; // c", "javascript").lexemes]
    ['keyword', 'identifier', 'punct', 'string', 'identifier', 'string', 'punct', 'comment']
"""

from __future__ import annotations

import re
from typing import ClassVar

import regex

from ..languages import CodeLanguage
from .base import (
    COMMENT,
    ID_CONT,
    ID_START,
    IDENT_DOLLAR_RE,
    IDENT_RE,
    IDENTIFIER,
    KEYWORD,
    MAX_NESTING,
    NUMBER,
    NUMBER_CPP_RE,
    NUMBER_RE,
    OTHER,
    PUNCT,
    STRING,
    WS,
    Lexeme,
    Output,
    scan_quoted,
)

_JS_REGEX = re.compile(r"/(?![*/])(?:[^\\/\[\n]|\\.|\[(?:[^\]\\\n]|\\.)*\])+/[A-Za-z]*")
_REGEX_AFTER_KEYWORDS = frozenset(
    "return typeof instanceof in of new delete void throw case do else yield await".split()
)
_CPP_RAW = re.compile(r'(?:u8|[uUL])?R"([^()\\\s"]{0,16})\(')
_CPP_RAW_WORDS = frozenset(("R", "u8R", "uR", "UR", "LR"))
_PREPROCESSOR = re.compile(r"#[ \t]*([A-Za-z_]\w*)")
_INCLUDE_TARGET = re.compile(r"[ \t]*<[^>\n]*>")
_INCLUDES = frozenset(("include", "import", "include_next"))
_LINE_INDENT = re.compile(r"[ \t]*")
_RUST_CHAR = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F_]{1,8}\}|x[0-9a-fA-F]{2}|.)|[^'\\\n])'")
_RUST_LIFETIME = regex.compile(f"'[{ID_START}][{ID_CONT}]*")
_RUST_RAW_HASHES = re.compile(r'#*"')
# JavaScript and TypeScript words that act as a keyword only with the next token on the same line:
# `async [no LineTerminator here] function` (ECMAScript), TypeScript's modifiers and predicates.
_SAME_LINE_WORDS = frozenset(("async", "abstract", "declare", "readonly", "is", "asserts"))
_LINE_SPACE = re.compile(r"[ \t]*")
_MAX_ARROW_LOOKAHEAD = 4_000  # characters read to find the `=>` after `async (...)`
_COMMENT_MARK = re.compile(r"/\*|\*/")
_CHAR_LITERAL = re.compile(r"'(?:\\.[^'\\\n]{0,10}|[^'\\\n]{1,2})'")


class CLike:
    """The scanner the C family shares; its subclasses below say what differs."""

    ident_re: ClassVar[regex.Pattern[str]] = IDENT_RE
    number_re: ClassVar[re.Pattern[str]] = NUMBER_RE
    prefixes: ClassVar[frozenset[str]] = frozenset()  # words that start a string: L"x", b"x"
    char_literal_re: ClassVar[re.Pattern[str]] = _CHAR_LITERAL  # after a prefix: L'x', b'x'
    multiline_strings = False  # "..." may span lines (Rust)
    nested_comments = False  # /* /* */ */ (Rust)
    text_blocks = False  # """...""" (Java text blocks, C# raw strings)
    text_block_escapes = True
    regex_literals = False  # /re/g after an operator or keyword (JavaScript)
    specials = ""  # characters `special` handles

    def __init__(self, out: Output, lang: CodeLanguage) -> None:
        self.out = out
        self.code = out.code
        self.n = len(self.code)
        self.lang = lang
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

    def _match(self, pattern: re.Pattern[str] | regex.Pattern[str], kind: str, i: int) -> int | None:
        """Emit `pattern`'s match at `i` as one lexeme of `kind`; None when it does not match."""
        m = pattern.match(self.code, i)
        if m is None:
            return None
        self._emit(kind, i, m.end())
        return m.end()

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

    def _line_comment(self, i: int) -> int:
        j = self.code.find("\n", i)
        j = self.n if j < 0 else j
        self.out.add(COMMENT, i, j)
        return j

    def _regex_allowed(self) -> bool:
        p = self.prev
        if p is None:
            return True
        if p.kind == PUNCT:
            return self.code[p.start : p.end] not in ")]}"
        if p.kind == KEYWORD:
            return self._prev_text() in _REGEX_AFTER_KEYWORDS
        return False

    # -- hooks a language overrides
    def double_quote(self, i: int) -> int:
        """A string starting at the ``"`` at `i`."""
        if self.text_blocks and self.code.startswith('"""', i):
            return self._string(i, i + 3, '"""', multiline=True, escapes=self.text_block_escapes)
        return self._string(i, i + 1, '"', multiline=self.multiline_strings)

    def single_quote(self, i: int) -> int:
        """A char literal (or, unclosed, a string to the line end) at the ``'`` at `i`."""
        end = self._match(_CHAR_LITERAL, STRING, i)
        return self._string(i, i + 1, "'") if end is None else end

    def special(self, c: str, i: int) -> int | None:
        """Read a construct starting with `c` (one of `specials`) at `i`; None: not one."""
        return None

    def word_literal(self, i: int, word: str, end: int) -> int | None:
        """A literal that starts with the word ``code[i:end]`` (``L"x"``, ``b'x'``); None: none."""
        nxt = self.code[end : end + 1]
        if nxt in ("'", '"') and word in self.prefixes:
            if nxt == "'":
                lit = self.char_literal_re.match(self.code, end)
                if lit is None:
                    return None
                self._emit(STRING, i, lit.end())
                return lit.end()
            return self._string(i, end + 1, '"', multiline=self.multiline_strings)
        return None

    # -- words
    def _word(self, i: int, m: re.Match) -> int:
        word = m.group()
        end = m.end()
        literal = self.word_literal(i, word, end)
        if literal is not None:
            return literal
        self._classify_word(word, i, end)
        return end

    def _classify_word(self, word: str, start: int, end: int) -> None:
        lang = self.lang
        key = word.lower() if lang.case_insensitive else word
        after_dot = self.prev is not None and self.prev.kind == PUNCT and self._prev_text() == "."
        if key in lang.contextual:
            kind = KEYWORD if (not after_dot and self._keyword_context(key, end)) else IDENTIFIER
        elif key in lang.keywords:
            kind = IDENTIFIER if (after_dot and lang.member_names) else KEYWORD
        else:
            kind = IDENTIFIER
        self._emit(kind, start, end, word if kind == IDENTIFIER else None)

    def _keyword_context(self, word: str, end: int) -> bool:
        """A contextual keyword acts as one when a name, string, `{` or `*` follows it."""
        m = WS.match(self.code, end)
        j = m.end() if m else end
        c = self.code[j : j + 1]
        return bool(c) and (c in "\"'`{*" or bool(self.ident_re.match(c)))

    # -- main loop
    def scan(self, i: int = 0, *, stop_brace: bool = False) -> int:
        """Lex from `i`; with `stop_brace`, return after the ``}`` that closes a ``${``."""
        code, n = self.code, self.n
        specials = self.specials
        braces = 0
        while i < n:
            c = code[i]
            if c.isspace():
                m = WS.match(code, i)
                assert m is not None  # c is a space
                i = m.end()
                continue
            if c == "/":
                nxt = code[i + 1 : i + 2]
                if nxt == "/":
                    i = self._line_comment(i)
                    continue
                if nxt == "*":
                    i = self._block_comment(i)
                    continue
                if self.regex_literals and self._regex_allowed():
                    end = self._match(_JS_REGEX, STRING, i)
                    if end is not None:
                        i = end
                        continue
                self._emit(PUNCT, i, i + 1)
                i += 1
                continue
            if c == '"':
                i = self.double_quote(i)
                continue
            if c == "'":
                i = self.single_quote(i)
                continue
            if c in specials:
                end = self.special(c, i)
                if end is not None:
                    i = end
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
                end = self._match(self.number_re, NUMBER, i)
                if end is not None:
                    i = end
                    continue
            self._emit(PUNCT, i, i + 1)
            i += 1
        if stop_brace:
            self.out.note("Unclosed ${ in a template literal; read to the end of the file.")
        return i


class _Preprocessed(CLike):
    """A ``#`` directive at a line start is a keyword; ``#include <x.h>``'s target a string."""

    specials = "#"

    def special(self, c: str, i: int) -> int | None:
        code = self.code
        ls = code.rfind("\n", 0, i) + 1
        indent = _LINE_INDENT.match(code, ls)
        if indent is None or indent.end() != i:
            return None
        m = _PREPROCESSOR.match(code, i)
        if m is None:
            return None
        self._emit(KEYWORD, i, m.end())
        i = m.end()
        if m.group(1) in _INCLUDES:
            t = _INCLUDE_TARGET.match(code, i)
            if t:
                self._emit(STRING, i + len(t.group()) - len(t.group().lstrip()), t.end())
                i = t.end()
        return i


class C(_Preprocessed):
    ident_re = IDENT_DOLLAR_RE
    prefixes = frozenset(("L", "u", "U", "u8"))


class Cpp(C):
    """C plus ``1'000`` digit separators and raw strings ``R"x(...)x"``."""

    number_re = NUMBER_CPP_RE

    def word_literal(self, i: int, word: str, end: int) -> int | None:
        literal = super().word_literal(i, word, end)
        if literal is not None or word not in _CPP_RAW_WORDS or self.code[end : end + 1] != '"':
            return literal
        raw = _CPP_RAW.match(self.code, i)
        if raw is None:
            return None
        close = ")" + raw.group(1) + '"'
        j = self.code.find(close, raw.end())
        if j < 0:
            self.out.note(f"Unterminated raw string on line {self.out.line(i)}; read to the end of the file.")
            j = self.n - len(close)
        self._emit(STRING, i, j + len(close))
        return j + len(close)


class CSharp(_Preprocessed):
    """Preprocessor lines, raw strings, verbatim ``@"..."`` and ``@class``, interpolated ``$"..."``."""

    text_blocks = True
    text_block_escapes = False
    specials = "#@$"

    def special(self, c: str, i: int) -> int | None:
        code = self.code
        if c == "#":
            return super().special(c, i)
        if c == "@":
            m = IDENT_RE.match(code, i + 1)
            if m:  # @class: a verbatim identifier
                self._emit(PUNCT, i, i + 1)
                self._emit(IDENTIFIER, i + 1, m.end(), m.group())
                return m.end()
            if code.startswith('@"', i):
                return self._string(i, i + 2, '"', escapes=False, multiline=True, doubling=True)
            if code.startswith('@$"', i) or code.startswith('$@"', i):
                return self._string(i, i + 3, '"', escapes=False, multiline=True, doubling=True)
            return None
        if code.startswith('$"', i):
            return self._string(i, i + 2, '"')
        if code.startswith('$@"', i):
            return self._string(i, i + 3, '"', escapes=False, multiline=True, doubling=True)
        return None


class Java(CLike):
    ident_re = IDENT_DOLLAR_RE
    text_blocks = True


class Go(CLike):
    """Raw strings in backticks."""

    specials = "`"

    def special(self, c: str, i: int) -> int | None:
        return self._string(i, i + 1, "`", escapes=False, multiline=True)


class Rust(CLike):
    """Nested comments, multi-line strings, ``r#"..."#`` raw strings, ``r#type`` raw identifiers,
    ``b'x'`` and lifetimes ``'a``."""

    prefixes = frozenset(("b", "c"))
    char_literal_re = _RUST_CHAR
    multiline_strings = True
    nested_comments = True

    def single_quote(self, i: int) -> int:
        end = self._match(_RUST_CHAR, STRING, i)
        if end is None:
            end = self._match(_RUST_LIFETIME, OTHER, i)
        if end is None:
            self._emit(PUNCT, i, i + 1)
            end = i + 1
        return end

    def word_literal(self, i: int, word: str, end: int) -> int | None:
        code = self.code
        if word in ("r", "br", "cr") and code[end : end + 1] in ('"', "#"):
            h = _RUST_RAW_HASHES.match(code, end)
            if h:
                hashes = h.group()[:-1]
                return self._string(i, h.end(), '"' + hashes, escapes=False, multiline=True)
            if word == "r" and code[end : end + 1] == "#":
                ident = self.ident_re.match(code, end + 1)
                if ident:  # raw identifier r#type
                    self._emit(IDENTIFIER, ident.start(), ident.end(), ident.group())
                    return ident.end()
        return super().word_literal(i, word, end)


class JavaScript(CLike):
    """``'...'`` strings, template literals (the code inside ``${...}`` is lexed as code), regex
    literals and a ``#!`` line."""

    ident_re = IDENT_DOLLAR_RE
    regex_literals = True
    specials = "`#"

    def single_quote(self, i: int) -> int:
        return self._string(i, i + 1, "'")

    def special(self, c: str, i: int) -> int | None:
        if c == "`":
            return self._template(i)
        if i == 0 and self.code.startswith("#!"):
            return self._line_comment(0)
        return None

    def _template(self, i: int) -> int:
        """A template literal starting at the backtick `i`; ${...} is code."""
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

    def _keyword_context(self, word: str, end: int) -> bool:
        """`async`, TypeScript's `readonly`, `declare`, `is`...: a keyword only before a name on the
        same line, and `async (...)` only before `=>` (an async arrow function); elsewhere a name:
        ``const is = 1; let readonly = x; function f(async) {}``."""
        if word not in _SAME_LINE_WORDS:
            return super()._keyword_context(word, end)
        space = _LINE_SPACE.match(self.code, end)
        j = space.end() if space else end
        if self.code[j : j + 1] == "(":
            return word == "async" and self._arrow_after(j)
        return self.code[j : j + 1] not in ("\n", "\r") and super()._keyword_context(word, end)

    def _arrow_after(self, i: int) -> bool:
        """True when the parentheses opening at `i` close before `=>` (or `):` a return type)."""
        code, depth = self.code, 0
        for j in range(i, min(self.n, i + _MAX_ARROW_LOOKAHEAD)):
            c = code[j]
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
                if depth == 0:
                    rest = code[j + 1 : j + 1 + _MAX_ARROW_LOOKAHEAD].lstrip()
                    return rest.startswith("=>") or (self.lang.id == "typescript" and rest.startswith(":"))
        return False


class TypeScript(JavaScript):
    pass


SCANNERS: dict[str, type[CLike]] = {
    "c": C, "cpp": Cpp, "csharp": CSharp, "java": Java, "go": Go, "rust": Rust,
    "javascript": JavaScript, "typescript": TypeScript,
}  # fmt: skip
