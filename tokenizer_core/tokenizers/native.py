"""The native engine for large texts: splintr over the checked vocabulary, with no special tokens.

splintr (Rust) encodes the same byte-level BPE as tiktoken several times faster. Its bundled
vocabularies (``splintr.Tokenizer.from_pretrained``) append special tokens of its own above the
base vocabulary (54 or more "agent" tokens: ``<|think|>``, ``<|im_start|>``, ``<|plan|>``...), and
every encode call of such a vocabulary except the single-text ``encode_ordinary`` (its batch
calls, ``encode_raw``, ``encode_flat``...) reads that text as one special id. So the engine used
here is built from the tokenizer's own hash-checked ranks with no special tokens at all: every
id it can give is a rank of that vocabulary, and special-token text is plain text, as in
tiktoken's ``encode_ordinary``. ``TiktokenTokenizer.native`` checks an engine before its first use
(:func:`vocabulary_problem`, then ids on :func:`check_text`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .vocab import tiktoken_blob

# Surroundings each special-token string is checked in: alone, after a space, at the end and
# start of a line, inside a word, twice, before the letters of a safe cut, between spaces.
SPECIAL_WRAPS = ("{}", " {}", "{}\n", "\n{}\n", "x{}y", "{}{}", "\n{}Ab", " {} ", "1{}'s")
_SEPARATORS = (" ", "\n", "", "\n\n", "\t", " \n", "\r\n")
_COUNTED = re.compile(r"\{\d+(?:,\d*)?\}")  # {3} {1,3} {2,}


def greedy_pattern(pattern: str) -> str:
    """`pattern` with each possessive quantifier made greedy: ``r"\\p{L}++|\\p{N}{1,3}+"`` ->
    ``r"\\p{L}+|\\p{N}{1,3}"``.

    splintr's regular-expression engine rejects possessive quantifiers. In the published
    patterns no possessive part is followed by anything its characters could also match, so the
    greedy form cuts the same pieces (splintr's own copies of the patterns are the greedy forms);
    the check before first use and the tests compare ids. Escapes and character classes are
    copied as they are.
    """
    out: list[str] = []
    i, in_class, quantified = 0, False, False
    while i < len(pattern):
        c = pattern[i]
        counted = _COUNTED.match(pattern, i) if c == "{" and not in_class else None
        if c == "\\":
            unit, quantifier = pattern[i : i + 2], False
        elif in_class:
            unit, quantifier, in_class = c, False, c != "]"
        elif counted:
            unit, quantifier = counted.group(), True
        elif c == "+" and quantified:
            i += 1  # the "+" that makes the quantifier before it possessive
            quantified = False
            continue
        else:
            in_class = c == "["
            unit, quantifier = c, c in "?*+" and not (c == "?" and out[-1:] == ["("])
        out.append(unit)
        i += len(unit)
        quantified = quantifier
    return "".join(out)


def ordinary_engine(ranks: Mapping[bytes, int], pattern: str) -> Any:
    """A splintr encoder of exactly these ranks and this pattern, knowing no special token."""
    import splintr

    return splintr.Tokenizer.from_bytes(tiktoken_blob(ranks), greedy_pattern(pattern))


def ordinary_engine_loader(ranks: Mapping[bytes, int], pattern: str) -> Callable[[], Any]:
    """A loader of :func:`ordinary_engine` for these ranks, to be called on first use."""
    return lambda: ordinary_engine(ranks, pattern)


def engine_specials(engine: Any) -> set[str]:
    """The special-token strings `engine` says it knows (none for an engine built here)."""
    listing = getattr(engine, "special_tokens", None)
    try:
        return set(listing()) if callable(listing) else set(listing or ())
    except Exception:  # noqa: BLE001  (an engine that cannot say is checked without its list)
        return set()


def check_text(samples: Sequence[str], specials: Iterable[str], *, min_chars: int) -> str:
    """At least `min_chars` characters: the samples and every special-token string in each of
    :data:`SPECIAL_WRAPS`, in turn, joined by varied separators.

    ``check_text(["hi"], ["<|x|>"], min_chars=1)[:12]`` -> ``"hi <|x|>\\n <|"``.
    """
    parts = list(samples) + [w.replace("{}", s) for s in sorted(specials) for w in SPECIAL_WRAPS]
    out: list[str] = []
    size = k = 0
    while size < min_chars or k < len(parts):
        out.append(parts[k % len(parts)] + _SEPARATORS[k % len(_SEPARATORS)])
        size += len(out[-1])
        k += 1
    return "".join(out)


def vocabulary_problem(engine: Any, ranks: Mapping[bytes, int]) -> str | None:
    """Why `engine` does not hold exactly `ranks` and nothing more, or None when it does."""
    size = getattr(engine, "vocab_size", None)
    if size != len(ranks) or max(ranks.values()) + 1 != len(ranks):
        return f"it knows {size} ids where the vocabulary has {len(ranks)} ranks"
    for token, rank in ranks.items():
        if engine.decode_token_bytes(rank) != token:
            return f"id {rank} decodes to other bytes than the vocabulary's"
    return None
