"""Identifier occurrences with positions and counts, from the lexemes of a file."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .languages import get_language
from .lexer import COMMENT, IDENTIFIER, STRING, WORD_RE, LexResult, lex, line_starts, position

CODE, IN_STRING, IN_COMMENT = "code", "string", "comment"


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One use of a name: ``code[start:end]`` (for a quoted SQL name, the text inside the quotes).

    `line` and `col` are 1-based (col counts characters, a tab is one). `where` is "code", or
    "string" / "comment" for words found inside those when asked for.
    """

    name: str
    start: int
    end: int
    line: int
    col: int
    where: str
    builtin: bool


@dataclass(frozen=True, slots=True)
class Extraction:
    language: str
    lexer: str
    notes: tuple[str, ...]
    occurrences: tuple[Occurrence, ...]
    lex: LexResult
    include_strings: bool = False
    include_comments: bool = False

    def counts(self) -> Counter[str]:
        """Occurrences per name: ``Counter({'items': 3, 'total': 1})``."""
        return Counter(o.name for o in self.occurrences)

    def names(self) -> list[str]:
        """Distinct names, most frequent first, ties in order of first appearance."""
        counts = self.counts()
        first: dict[str, int] = {}
        for k, o in enumerate(self.occurrences):
            first.setdefault(o.name, k)
        return sorted(counts, key=lambda n: (-counts[n], first[n]))


def extract_identifiers(
    code: str,
    language: str,
    *,
    include_strings: bool = False,
    include_comments: bool = False,
    lexed: LexResult | None = None,
) -> Extraction:
    """Every identifier in `code`, in order, with positions.

    Keywords are skipped; builtins are kept and flagged. Words inside strings and comments are
    skipped unless `include_strings` / `include_comments` (then keywords are skipped there too).
    ``[o.name for o in extract_identifiers("total = price * qty  # sum", "python").occurrences]``
    -> ``['total', 'price', 'qty']``. Pass `lexed` to reuse a LexResult of the same code.
    """
    lang = get_language(language)
    result = lexed if lexed is not None and lexed.language == lang.id else lex(code, lang.id)
    starts = line_starts(code)
    fold = str.lower if lang.case_insensitive else (lambda s: s)
    builtins = lang.builtins
    keywords = lang.keywords
    out: list[Occurrence] = []
    for x in result.lexemes:
        if x.kind == IDENTIFIER:
            name = x.name if x.name is not None else code[x.start : x.end]
            line, col = position(starts, x.start)
            out.append(Occurrence(name, x.start, x.end, line, col, CODE, fold(name) in builtins))
        elif (x.kind == STRING and include_strings) or (x.kind == COMMENT and include_comments):
            where = IN_STRING if x.kind == STRING else IN_COMMENT
            for m in WORD_RE.finditer(code, x.start, x.end):
                word = m.group()
                if fold(word) in keywords:
                    continue
                line, col = position(starts, m.start())
                out.append(Occurrence(word, m.start(), m.end(), line, col, where, fold(word) in builtins))
    return Extraction(
        language=lang.id,
        lexer=result.lexer,
        notes=result.notes,
        occurrences=tuple(out),
        lex=result,
        include_strings=include_strings,
        include_comments=include_comments,
    )
