"""A pre-tokenization pattern taken apart: its alternatives, each in plain words.

A pattern (a "regular expression": a short code that describes runs of characters) is a list of
alternatives separated by ``|``; at each position of the text the first alternative that matches
cuts the next piece. :func:`alternatives` splits a pattern at its top-level ``|`` and
:func:`explain` says what one alternative takes, in words a beginner can read.

    >>> [a.words for a in alternatives(r"\\p{N}{1,3}| ?\\p{L}+")]
    ['digits, up to 3 at a time (groups counted from the left)', 'a word: a run of letters, with an optional space in front']
"""

from __future__ import annotations

from dataclasses import dataclass

import regex


@dataclass(frozen=True, slots=True)
class Alternative:
    """One alternative of a pattern: its source text and what it takes, in words."""

    index: int
    source: str
    words: str


def split_top_level(pattern: str) -> list[str]:
    """The pattern cut at each ``|`` outside brackets and groups.

    ``split_top_level(r"a|(b|c)|[|]") -> ["a", "(b|c)", "[|]"]``
    """
    parts: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
        elif ch == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "^":
                i += 1
            if pattern[i + 1 : i + 2] == "]":  # a literal ] first in a class
                i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:i])
            start = i + 1
        i += 1
    parts.append(pattern[start:])
    return parts


_CONTRACTION = regex.compile(r"'(?:\(\?i:)?.*(?:ll|ve|re)")
_LETTERS = regex.compile(r"\\p\{L\}|\\p\{L[ultmo]\}|A-Za-z")


def explain(alt: str) -> str:
    """What one alternative takes, in words (a generic sentence when no rule fits).

    ``explain(r"\\s+(?!\\S)") -> "a run of spaces that stops before the last one when a word follows (that space goes with the word)"``
    """
    a = alt
    contraction = "'s" in a or "'t" in a or bool(_CONTRACTION.search(a))
    letters = bool(_LETTERS.search(a))
    front = ""
    if a.startswith("[^\\r\\n\\p{L}\\p{N}]?") or a.startswith("[^\\r\\n\\p{L}\\p{P}\\p{S}]?"):
        front = ", with one optional character in front that is not a letter, a digit or a line break (usually the space before the word)"
    elif a.startswith(" ?"):
        front = ", with an optional space in front"
    if contraction and not letters:
        return "an English contraction ending: 's, 't, 're, 've, 'm, 'll or 'd" + (
            " (in any case)" if "(?i" in a else ""
        )
    if "[^\\s" in a:
        tail = " and any line breaks right after" if "\\r\\n" in a.split("]+")[-1] else ""
        return (
            "punctuation and symbols (anything that is not a letter, a digit or a space)"
            + (", with an optional space in front" if a.startswith(" ?") else "")
            + tail
        )
    if letters:
        if "\\p{Lu}" in a and "\\p{Ll}" in a:
            upper_first = a.find("\\p{Lu}") < a.find("\\p{Ll}")
            shape = (
                "a word whose capitals come first, then small letters (so HelloWorld is two words)"
                if a.index("]*") < a.index("]+") and upper_first
                else "a word in capitals, optionally followed by small letters (ALL CAPS, or an acronym before a word)"
            )
            tail = " and an optional contraction ('s, 't, 're...) kept on the word" if contraction else ""
            return shape + front + tail
        if "A-Za-z" in a and "\\p{L}" not in a:
            return "a punctuation mark followed by English letters (as in .json or _id)"
        return "a word: a run of letters" + front
    if "\\p{N}{1,3}" in a:
        return "digits, up to 3 at a time (groups counted from the left)"
    if "\\p{N}" in a:
        return "a run of digits" if "\\p{N}+" in a else "one digit at a time"
    if "\\p{P}" in a or "\\p{S}" in a:
        return "punctuation and symbols" + (", with an optional space in front" if a.startswith(" ?") else "")
    if a.startswith("\\s") or a.startswith("\\s*"):
        if "$" in a:
            return "spaces at the very end of the text"
        if "[\\r\\n]" in a:
            return "spaces and tabs ending in one or more line breaks"
        if "(?!\\S)" in a:
            return (
                "a run of spaces that stops before the last one when a word follows "
                "(that space goes with the word)"
            )
        return "any other spaces, tabs or line breaks"
    spaces = "\\x{20}" in a or "\\U00000020" in a
    if spaces and a.startswith("[^") and a.endswith("]+"):
        return "a word: everything up to the next space (punctuation included)"
    if spaces and a.startswith("[") and a.endswith("]+"):
        return "a run of spaces, tabs or line breaks"
    if a.startswith("[") and "\\u" not in a and any(ord(c) > 0x2E7F for c in a):
        return "a run of Chinese or Japanese characters"
    return "another rule of this tokenizer (shown as it is written)"


_RUST_HEX = regex.compile(r"\\x\{([0-9A-Fa-f]{1,6})\}")


def python_pattern(pattern: str) -> str:
    """A pattern in the Rust syntax tiktoken accepts, for Python's `regex`: ``\\x{20}`` becomes
    ``\\U00000020`` (Python reads ``\\x`` as exactly two hex digits). Anything else is unchanged."""
    return _RUST_HEX.sub(lambda m: f"\\U{int(m.group(1), 16):08x}", pattern)


def alternatives(pattern: str) -> tuple[Alternative, ...]:
    """Every top-level alternative of `pattern`, numbered from 1, with its words."""
    return tuple(Alternative(i + 1, src, explain(src)) for i, src in enumerate(split_top_level(pattern)))


def cut(pattern: str, text: str) -> list[tuple[int, int, int | None]]:
    """The pieces the pattern cuts, as ``(start, end, alternative number)``, covering `text`.

    Text no alternative matches (a pattern that skips characters) is kept as its own piece with
    number None, so the pieces always join back to the text.
    ``cut(r"\\p{N}{1,3}|\\s+", "12345 6") -> [(0, 3, 1), (3, 5, 1), (5, 6, 2), (6, 7, 1)]``
    """
    pattern = python_pattern(pattern)
    compiled = regex.compile(pattern)
    parts = [regex.compile(p) for p in split_top_level(pattern)]
    out: list[tuple[int, int, int | None]] = []
    pos = 0
    for m in compiled.finditer(text):
        if m.start() > pos:
            out.append((pos, m.start(), None))
        if m.end() == m.start():
            continue
        which = None
        for n, part in enumerate(parts, 1):
            hit = part.match(text, m.start())
            if hit is not None and hit.end() == m.end():
                which = n
                break
        out.append((m.start(), m.end(), which))
        pos = m.end()
    if pos < len(text):
        out.append((pos, len(text), None))
    return out
