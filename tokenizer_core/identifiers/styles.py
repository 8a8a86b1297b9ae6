"""Naming styles: classify an identifier, split it into words, rewrite it in another style.

Leading and trailing underscores (and ``$``) are an affix, kept apart: ``__init__`` is the word
``init`` with affixes ``__`` and ``__``; rewrites keep them (``_private_name`` -> ``_privateName``).

Word splitting, in order:

1. The core is cut at ``_`` and ``-``.
2. Each part is cut at case changes: ``getUserById`` -> get | User | By | Id. A run of capitals
   is an acronym, and its last capital starts the next word when a lower-case letter follows:
   ``parseHTTPResponse`` -> parse | HTTP | Response, ``XMLHttpRequest`` -> XML | Http | Request;
   a plural acronym stays whole: ``userIDs`` -> user | IDs, ``URLsByHost`` -> URLs | By | Host.
   Letters without case (CJK, Arabic...) and combining marks count as lower-case letters, so
   ``größe`` and ``数据`` are single words.
3. Digits, the exact rule:

   * digits followed by lower-case letters start a word with them: ``Response2xx`` ->
     Response | 2xx, ``vector3d`` -> vector | 3d (so yes, ``2xx`` is one word);
   * except after a single letter, where letter, digits and letters stay one word, which keeps
     numeronyms whole: ``i18n``, ``k8s``, ``a11y``;
   * any other digit run ends the word before it: ``v2``, ``utf8``, ``int32``, ``HTTP2Server``
     -> HTTP2 | Server, ``x86_64`` -> x86 | 64; with nothing before it in its part it is a word
     of its own (``MAX_RETRIES_3`` -> MAX | RETRIES | 3).

Styles (of the core): ``snake_case`` (lower-case words joined by ``_``), ``SCREAMING_SNAKE``
(upper-case words joined by ``_``), ``kebab-case`` (lower-case words joined by ``-``),
``camelCase`` / ``PascalCase`` (two or more words, no separators, first letter lower / upper),
``single word`` (exactly one word, any case: ``items``, ``User``, ``TIMEOUT``, ``__init__``),
``mixed`` (anything else: ``get_userName``, ``Snake_Case``, ``snake-and_kebab``). A name with no
letters or digits (``_``, ``__``, ``$``) is a single word with no words.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import regex

SNAKE, CAMEL, PASCAL, KEBAB, SCREAMING, SINGLE, MIXED = (
    "snake_case", "camelCase", "PascalCase", "kebab-case", "SCREAMING_SNAKE", "single word", "mixed",
)  # fmt: skip
STYLES: tuple[str, ...] = (SNAKE, CAMEL, PASCAL, KEBAB, SCREAMING, SINGLE, MIXED)
# The styles an identifier can be rewritten into (single word and mixed are not targets).
TARGET_STYLES: tuple[str, ...] = (SNAKE, CAMEL, PASCAL, KEBAB, SCREAMING)

_AFFIX = regex.compile(r"^([_$]*)(.*?)([_$]*)$", regex.S)
# pieces of a part: acronym before a capitalised word | (capital +) lower-case run | capitals |
# digits | anything else (kept as its own piece so no character is ever lost)
_PIECE = regex.compile(
    r"\p{Lu}{2,}s(?![\p{Ll}\p{Lo}\p{Lm}])"
    r"|\p{Lu}+(?=\p{Lu}[\p{Ll}\p{Lo}\p{Lm}])"
    r"|[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}\p{M}][\p{Ll}\p{Lo}\p{Lm}\p{M}]*"
    r"|[\p{Lu}\p{Lt}][\p{M}]*(?:\p{Lu}[\p{M}]*)*"
    r"|\p{N}+"
    r"|."
)
_LOWER_START = regex.compile(r"[\p{Ll}\p{Lo}\p{Lm}]")
_PART = regex.compile(r"[^_\-]+")
_SEPARATORS = regex.compile(r"[_\-]+")


@dataclass(frozen=True, slots=True)
class WordSplit:
    """``split_identifier("__user_id_v2")`` -> prefix "__", words ("user", "id", "v2"), suffix ""."""

    name: str
    prefix: str
    words: tuple[str, ...]
    suffix: str
    spans: tuple[tuple[int, int], ...]  # (start, end) of each word inside `name`

    @property
    def core(self) -> str:
        return self.name[len(self.prefix) : len(self.name) - len(self.suffix)]


def _merge_digits(pieces: list[tuple[int, int]], part: str) -> list[tuple[int, int]]:
    """Apply the digit rule to the (start, end) pieces of one separator-free part."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(pieces):
        s, e = pieces[i]
        text = part[s:e]
        if not text[0].isdigit():
            out.append((s, e))
            i += 1
            continue
        nxt = pieces[i + 1] if i + 1 < len(pieces) else None
        lower_follows = nxt is not None and bool(_LOWER_START.match(part[nxt[0]]))
        if lower_follows and nxt is not None:
            prev = out[-1] if out else None
            if prev and prev[1] == s and prev[1] - prev[0] == 1 and part[prev[0]].isalpha():
                out[-1] = (prev[0], nxt[1])  # numeronym: i18n, k8s
            else:
                out.append((s, nxt[1]))  # 2xx, 3d
            i += 2
            continue
        if out and out[-1][1] == s and not part[out[-1][0]].isdigit():
            out[-1] = (out[-1][0], e)  # v2, utf8, HTTP2
        else:
            out.append((s, e))
        i += 1
    return out


@functools.lru_cache(maxsize=65_536)
def split_identifier(name: str) -> WordSplit:
    """Words of an identifier by convention, with their offsets (rules in the module docstring).

    ``split_identifier("parseHTTPResponse2xx").words -> ('parse', 'HTTP', 'Response', '2xx')``
    """
    m = _AFFIX.match(name)
    prefix, core, suffix = m.group(1), m.group(2), m.group(3)
    if not core:  # "_", "__", "$": all affix, no words
        return WordSplit(name, name, (), "", ())
    base = len(prefix)
    spans: list[tuple[int, int]] = []
    for part_match in _PART.finditer(core):
        part = part_match.group()
        pieces = [(p.start(), p.end()) for p in _PIECE.finditer(part)]
        for s, e in _merge_digits(pieces, part):
            spans.append((base + part_match.start() + s, base + part_match.start() + e))
    return WordSplit(name, prefix, tuple(name[s:e] for s, e in spans), suffix, tuple(spans))


def split_words(name: str) -> list[str]:
    """Just the words: ``split_words("getUserById") -> ['get', 'User', 'By', 'Id']``."""
    return list(split_identifier(name).words)


def _cased(word: str) -> tuple[bool, bool]:
    """(has lower-case letters, has upper-case letters); caseless letters count as lower."""
    lower = any(c.islower() or (c.isalpha() and not c.isupper()) for c in word)
    upper = any(c.isupper() for c in word)
    return lower, upper


@functools.lru_cache(maxsize=65_536)
def classify_style(name: str) -> str:
    """One of STYLES: ``classify_style("getUserById") -> 'camelCase'``."""
    split = split_identifier(name)
    core = split.core
    if len(split.words) <= 1:
        return SINGLE
    has_us, has_dash = "_" in core, "-" in core
    lower, upper = _cased(core)
    if has_us and has_dash:
        return MIXED
    if has_us or has_dash:
        parts = [p for p in _SEPARATORS.split(core) if p]
        # every part must be one word (no humps inside), all in one case
        one_word_parts = all(len(split_identifier(p).words) <= 1 for p in parts)
        if not one_word_parts:
            return MIXED
        if has_dash:
            return KEBAB if not upper else MIXED
        if not upper:
            return SNAKE
        if not lower:
            return SCREAMING
        return MIXED
    first = core[0]
    if first.isupper():
        return PASCAL
    if first.isdigit():
        return MIXED
    return CAMEL


def _capitalize(word: str) -> str:
    """``_capitalize("hTTP") -> 'Http'``; a word starting with a digit keeps its letters lower."""
    if not word:
        return word
    return word[0].upper() + word[1:].lower() if not word[0].isdigit() else word.lower()


@functools.lru_cache(maxsize=65_536)
def convert_style(name: str, style: str) -> str:
    """`name` rewritten in a target style, affixes kept. Acronyms become ordinary words.

    ``convert_style("parseHTTPResponse2xx", "snake_case") -> 'parse_http_response_2xx'``,
    ``convert_style("get_user_by_id", "camelCase") -> 'getUserById'``. In camelCase and
    PascalCase an underscore stays between two digit runs (``x86_64`` keeps its ``_``), or the
    words would merge. Raises ValueError for a style outside TARGET_STYLES.
    """
    if style not in TARGET_STYLES:
        raise ValueError(f"style must be one of {', '.join(TARGET_STYLES)}, not {style!r}")
    split = split_identifier(name)
    words = split.words
    if not words:
        return name
    if style == SNAKE:
        core = "_".join(w.lower() for w in words)
    elif style == SCREAMING:
        core = "_".join(w.upper() for w in words)
    elif style == KEBAB:
        core = "-".join(w.lower() for w in words)
    else:
        first = _capitalize(words[0]) if style == PASCAL else words[0].lower()
        parts = [first]
        for prev, word in zip(words, words[1:]):
            # two digit runs would merge (x86 + 64 -> x8664): keep an underscore between them
            parts.append(("_" if prev[-1].isdigit() and word[0].isdigit() else "") + _capitalize(word))
        core = "".join(parts)
    return split.prefix + core + split.suffix


def style_variants(name: str) -> dict[str, str]:
    """The name in every target style: ``style_variants("user_id")["camelCase"] -> 'userId'``."""
    return {style: convert_style(name, style) for style in TARGET_STYLES}
