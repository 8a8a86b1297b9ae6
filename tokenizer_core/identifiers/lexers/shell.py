"""Shell (bash/sh): identifiers are variables (``$NAME``, ``${NAME...}`` also inside double quotes
and heredocs, ``NAME=``, names after ``export``/``read``/``for``...), command names and function
names; ``#`` comments start at word starts; ``$(...)`` and backticks are code, ``$((...))`` is
arithmetic. Plain arguments are literal text (kind "string"), not identifiers.

    >>> from tokenizer_core.identifiers.lexer import lex
    >>> [(x.kind, x.name) for x in lex("echo $HOME", "shell").lexemes]
    [('identifier', 'echo'), ('punct', None), ('identifier', 'HOME')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..languages import CodeLanguage
from .base import (
    COMMENT,
    IDENTIFIER,
    KEYWORD,
    MAX_NESTING,
    NUMBER,
    NUMBER_RE,
    PUNCT,
    STRING,
    Output,
    scan_quoted,
)

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
class ShellState:
    command_pos: bool = True  # the next word names a command (or is a keyword)
    taker: str = ""  # a builtin/keyword whose next words are names: export, read, for, function...
    in_case: int = 0
    case_pattern: bool = False  # the next word is a case pattern such as start) or *.txt|*.md)


class Shell:
    """Bash/sh: identifiers are variables ($NAME, NAME=, names after export/read/for...),
    command names and function names. Other arguments are literal text (kind "string")."""

    def __init__(self, out: Output, lang: CodeLanguage) -> None:
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
        st = ShellState()
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
                m = _SH_BLANK.match(code, i)
                assert m is not None  # c is a blank
                i = m.end()
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

    def _word(self, i: int, st: ShellState) -> int:
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
                assert m is not None  # c is a digit
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
