"""Two prompt versions compared word by word, with the tokens each change adds or saves.

A chat is compared section by section (each message under its role, then the tools), so a
message is never diffed against the tools' JSON and every part of the diff says what it is.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizers.encoders import Tokenizer

_WORDS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True, slots=True)
class DiffRegion:
    """A piece of the diff: kept ("equal"), or changed ("replace", "delete", "insert")."""

    tag: str
    old: str
    new: str
    tokens: int = 0  # tokens the change adds (negative: saves), counted on the region's texts alone


@dataclass(frozen=True, slots=True)
class DiffSection:
    """One labelled part of two versions ("User", "Tools", "Text") and its diff."""

    label: str
    regions: tuple[DiffRegion, ...]


# Words x words that one diff matches word by word, in all: a stretch of changed lines beyond what
# is left is shown as changed whole. Matching two 4,500-word texts with nothing in common took 2.5 s;
# the page draws the diff on every run of the versions section, in the interpreter all sessions share.
WORD_MATCH_BUDGET = 1_000_000


def diff_regions(old: str, new: str, tokenizer: Tokenizer | None = None) -> list[DiffRegion]:
    """Word-level diff of two texts; with a tokenizer, each changed region's token difference.
    Lines are matched first, then the words of each changed stretch of lines (up to
    `WORD_MATCH_BUDGET`; past it a stretch is one change).

    ``[r.tag for r in diff_regions("a big cat", "a cat")] -> ["equal", "delete", "equal"]``
    """
    pieces: list[tuple[str, str, str]] = []
    budget = WORD_MATCH_BUDGET
    a_lines, b_lines = old.splitlines(keepends=True), new.splitlines(keepends=True)
    for tag, i1, i2, j1, j2 in _opcodes(a_lines, b_lines):
        o, n = "".join(a_lines[i1:i2]), "".join(b_lines[j1:j2])
        if tag != "equal":
            a, b = _WORDS.findall(o), _WORDS.findall(n)
            if len(a) * len(b) <= budget:
                budget -= len(a) * len(b)
                pieces += [(t, "".join(a[k1:k2]), "".join(b[l1:l2])) for t, k1, k2, l1, l2 in _opcodes(a, b)]
                continue
        pieces.append((tag, o, n))
    out: list[DiffRegion] = []
    for tag, o, n in pieces:
        if tag == "equal" and out and out[-1].tag == "equal":  # a changed line's kept words, then kept lines
            out[-1] = DiffRegion("equal", out[-1].old + o, out[-1].new + n)
            continue
        delta = tokenizer.count(n) - tokenizer.count(o) if tokenizer and tag != "equal" else 0
        out.append(DiffRegion(tag, o, n, delta))
    return out


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """`SequenceMatcher(None, a, b).get_opcodes()` (of lines or words), with the items both share
    at the start and at the end kept out of the matcher (as `diff` tools do). Versions of a prompt
    mostly differ in a few places, and the matcher's time grows with the square of the words a text
    repeats: two same 12,000-character versions took 0.5 s."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    middle = difflib.SequenceMatcher(None, a[start : len(a) - end], b[start : len(b) - end], autojunk=False)
    ops = [("equal", 0, start, 0, start)] if start else []
    # after the longest shared start and end, the middle begins and ends with a change
    ops += [
        (tag, i1 + start, i2 + start, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in middle.get_opcodes()
    ]
    if end:
        ops.append(("equal", len(a) - end, len(a), len(b) - end, len(b)))
    return ops


def diff_sections(
    old: Sequence[tuple[str, str]], new: Sequence[tuple[str, str]], tokenizer: Tokenizer | None = None
) -> list[DiffSection]:
    """Labelled sections of two versions paired by label, in order, and each pair diffed; a
    section found in one version only is wholly removed or added.

    ``[s.label for s in diff_sections([("User", "hi")], [("User", "hi"), ("Tools", "[]")])]
    -> ["User", "Tools"]``
    """
    out: list[DiffSection] = []
    labels_a, labels_b = [label for label, _ in old], [label for label, _ in new]
    matcher = difflib.SequenceMatcher(None, labels_a, labels_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for (label, a), (_, b) in zip(old[i1:i2], new[j1:j2]):
                out.append(DiffSection(label, tuple(diff_regions(a, b, tokenizer))))
            continue
        for label, a in old[i1:i2]:
            out.append(DiffSection(label, tuple(diff_regions(a, "", tokenizer)) if a else ()))
        for label, b in new[j1:j2]:
            out.append(DiffSection(label, tuple(diff_regions("", b, tokenizer)) if b else ()))
    return out


def shorten(text: str, *, context: int = 80) -> str:
    """A long unchanged stretch cut to about `context` characters at each end, between words.

    ``shorten("one two three four five six", context=8) -> "one two … five six"``
    """
    if len(text) <= 2 * context + 3:
        return text
    head, tail = text[:context], text[-context:]
    if not text[context].isspace() and (cut := max(head.rfind(" "), head.rfind("\n"))) > 0:
        head = head[:cut]
    if not text[-context - 1].isspace():
        cut = min((i for i in (tail.find(" "), tail.find("\n")) if i >= 0), default=-1)
        if 0 <= cut < len(tail) - 1:
            tail = tail[cut + 1 :]
    return f"{head.rstrip()} … {tail.lstrip()}"


_BOX = ('<div class="tw-diff" style="font-family:monospace;white-space:pre-wrap;line-height:1.7;'
        'padding:0.6rem;border:1px solid rgba(128,128,128,.35);border-radius:0.5rem">')  # fmt: skip
_LABEL = ('<div class="tw-diff-label" style="font-family:sans-serif;font-size:0.75em;font-weight:600;'
          'text-transform:uppercase;letter-spacing:0.05em;opacity:0.7;margin-top:0.4rem">{}</div>')  # fmt: skip


def _regions_html(regions: Sequence[DiffRegion], context: int) -> list[str]:
    esc = html.escape
    parts = []
    for r in regions:
        if r.tag == "equal":
            parts.append(esc(shorten(r.old, context=context)))
            continue
        if r.old:
            parts.append(
                f'<del style="background:rgba(255,80,80,.25);text-decoration:line-through">{esc(r.old)}</del>'
            )
        if r.new:
            parts.append(
                f'<ins style="background:rgba(60,200,90,.25);text-decoration:none">{esc(r.new)}</ins>'
            )
        sign = f"{r.tokens:+d}" if r.tokens else "±0"
        parts.append(f'<sup style="font-size:0.7em;opacity:0.8;margin:0 0.15em">{sign}</sup>')
    return parts


def diff_html(regions: Sequence[DiffRegion], *, context: int = 80) -> str:
    """The diff as escaped HTML: removed text struck through in red, added text in green, each
    change with its token difference; long unchanged stretches shortened to `context` characters."""
    return "".join([_BOX, *_regions_html(regions, context), "</div>"])


def sections_html(sections: Sequence[DiffSection], *, context: int = 80) -> str:
    """Like diff_html, each section under its label (escaped): "System", "User", "Tools"..."""
    parts = [_BOX]
    for s in sections:
        parts.append(_LABEL.format(html.escape(s.label)))
        parts.append("<div>" + "".join(_regions_html(s.regions, context)) + "</div>")
    return "".join([*parts, "</div>"])


def regions_of(sections: Sequence[DiffSection]) -> list[DiffRegion]:
    """Every region of every section, in order (for totals)."""
    return [r for s in sections for r in s.regions]
