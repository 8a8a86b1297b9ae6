""" "Why did it count that?": the surprises of tokenization, each built from the real tokenizers on
the user's own words (no id is written down here; every number comes from a tokenizer).

Each surprise is a record: the texts compared, and per tokenizer how it cut each text and one
sentence of what that shows.

    >>> from tokenizer_core.tokenizers import load_builtin
    >>> s = case_and_space("total", [load_builtin("cl100k_base")])
    >>> s.texts
    ('total', ' total', 'Total', ' TOTAL')
    >>> s.rows[0].finding
    '4 different token sequences for one word.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import regex

from ..tokenizers.encoders import Tokenizer, clean_text

NUMBER_SAMPLES = ("1234567", "1,234,567", "3.14159", "2024-03-15", "+1 555 010 9999")
RULE_WORDS_PER_TOKEN = 0.75  # "1 token is about 3/4 of a word" (the source documents' rule)
# Short texts of our own, one per language and one of code, for words vs tokens.
WORD_SAMPLES = (
    ("English", "The meeting moved to Thursday because the report was not ready."),
    ("German", "Die Besprechung wurde auf Donnerstag verschoben, weil der Bericht nicht fertig war."),
    ("Spanish", "La reunión se movió al jueves porque el informe no estaba listo."),
    ("Hindi", "बैठक गुरुवार को स्थानांतरित कर दी गई क्योंकि रिपोर्ट तैयार नहीं थी।"),
    ("Chinese", "会议改到星期四，因为报告还没有准备好。"),
    ("Python code", "def total(items):\n    return sum(item.price for item in items if item.active)"),
)
MAX_SURPRISE_CHARS = 20_000  # the user's text is measured up to here (trim preview, words vs tokens)


@dataclass(frozen=True, slots=True)
class Cut:
    """One text through one tokenizer: the pieces of text its tokens cover, and its ids."""

    text: str
    pieces: tuple[str, ...]
    ids: tuple[int, ...]

    @property
    def n(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, slots=True)
class SurpriseRow:
    """One tokenizer's cuts of the surprise's texts, and what they show, in one sentence."""

    tokenizer_id: str
    cuts: tuple[Cut, ...]
    finding: str


@dataclass(frozen=True, slots=True)
class Surprise:
    """A surprise: what it compares, why it happens (one plain sentence), and each tokenizer's row."""

    key: str
    title: str
    why: str
    texts: tuple[str, ...]
    labels: tuple[str, ...]
    rows: tuple[SurpriseRow, ...]
    extra: str = ""  # the trimmed text of the whitespace surprise


def cut_text(tokenizer: Tokenizer, text: str) -> Cut:
    """`text` through `tokenizer`: ``cut_text(cl100k, " total") -> Cut(" total", (" total",), (...))``."""
    segs = tokenizer.segments(text)
    return Cut(text, tuple(s.text for s in segs), tuple(i for s in segs for i in s.ids))


# A word of any script: letters with their combining marks (Devanagari's vowel signs and virama
# are marks: "नमस्ते" is one word, not "नमस")
WORD = r"\p{L}[\p{L}\p{M}]{%d,}"  # a letter, then letters and marks: % (length - 1)


def longest_word(text: str, default: str) -> str:
    """The longest word (6+ letters) in the text: ``longest_word("a strawberry", "x") -> "strawberry"``."""
    words = regex.findall(WORD % 5, clean_text(text)[:MAX_SURPRISE_CHARS])
    return max(words, key=len) if words else default


def first_word(text: str, default: str) -> str:
    """The first word (3+ letters) in the text: ``first_word("Hi, नमस्ते 3", "x") -> "नमस्ते"``."""
    m = regex.search(WORD % 2, clean_text(text))
    return m.group() if m else default


def has_case(word: str) -> bool:
    """True when the word's script has capital letters: ``has_case("Ελλάδα") -> True``, ``has_case("नमस्ते") -> False``."""
    return word.upper() != word.lower()


def plural(n: int, word: str) -> str:
    """``plural(1, "token") -> "1 token"``, ``plural(2, "token") -> "2 tokens"``."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# -------------------------------------------------------------------------------- the surprises


def case_and_space(word: str, tokenizers: Sequence[Tokenizer]) -> Surprise:
    """One word four ways: lower case, with a leading space, capitalised, in capitals after a space;
    for a script without capitals (Devanagari, Chinese...), the word alone and after a space."""
    w = word.strip() or "total"
    cased = has_case(w)
    if cased:
        texts: tuple[str, ...] = (w.lower(), " " + w.lower(), w[:1].upper() + w[1:].lower(), " " + w.upper())
        labels: tuple[str, ...] = ("lower case", "space in front", "Capital", "space + CAPITALS")
    else:
        texts, labels = (w, " " + w, "\n" + w), ("alone", "space in front", "line break in front")
    rows = []
    for tok in tokenizers:
        cuts = tuple(cut_text(tok, t) for t in texts)
        distinct = len({c.ids for c in cuts})
        finding = f"{distinct} different token sequence{'s' if distinct != 1 else ''} for one word."
        rows.append(SurpriseRow(tok.id, cuts, finding))
    why = (
        'A tokenizer learned its pieces from text where "total" at the start of a line, " total" after a '
        'space and "Total" at the start of a sentence are different strings, so each gets its own '
        "token (or several): the model sees different ids for what you read as one word."
    )
    if not cased:
        why += " Your word's script has no capital letters, so only the space and the line break change it."
    return Surprise(
        "case", "Case and a leading space" if cased else "A leading space", why, texts, labels, tuple(rows)
    )


def digit_grouping(tokenizer: Tokenizer) -> str:
    """How a tokenizer cuts the digits of 1234567, from its own tokens: one by one, in groups of
    three from the left or the right, or in pieces learned from data."""
    sizes = [len(p) for p in cut_text(tokenizer, "1234567").pieces]
    if sizes == [1] * 7:
        return "one digit at a time"
    if sizes == [3, 3, 1]:
        return "groups of 3 from the left (1234567 → 123|456|7, not the 1|234|567 of the thousands)"
    if sizes == [1, 3, 3]:
        return "groups of 3 from the right, like thousands separators"
    return "pieces it learned from data (" + "|".join(cut_text(tokenizer, "1234567").pieces) + ")"


def numbers(text: str, tokenizers: Sequence[Tokenizer]) -> Surprise:
    """Numbers from the user's text (up to 3) and the usual suspects, cut by each tokenizer."""
    found = regex.findall(r"\d[\d,.:/\-]*\d|\d", clean_text(text)[:MAX_SURPRISE_CHARS])
    own = list(dict.fromkeys(found))[:3]
    texts = tuple(dict.fromkeys([*own, *NUMBER_SAMPLES]))
    rows = []
    for tok in tokenizers:
        cuts = tuple(cut_text(tok, t) for t in texts)
        rows.append(SurpriseRow(tok.id, cuts, f"Digits: {digit_grouping(tok)}."))
    return Surprise(
        "numbers", "Numbers",
        "Numbers are cut by the tokenizer's pattern before any merge: some take one digit at a time, some "
        "groups of up to three counted from the left, so the same value written with or without commas "
        "costs a different number of tokens, and the model never sees \"thousands\" as a unit.",
        texts, tuple("from your text" if t in own else "example" for t in texts), tuple(rows),
    )  # fmt: skip


def letters(word: str, tokenizers: Sequence[Tokenizer], *, letter: str | None = None) -> Surprise:
    """How many times a letter is in a word, against the tokens the model gets for it."""
    w = word.strip() or "strawberry"
    if letter is None:
        counts = {c: w.lower().count(c) for c in w.lower() if c.isalpha()}
        letter = max(counts, key=lambda c: (counts[c], -w.lower().index(c))) if counts else "r"
    n = w.lower().count(letter.lower())
    texts = (w, " " + w)
    rows = []
    for tok in tokenizers:
        cuts = tuple(cut_text(tok, t) for t in texts)
        inside = [p for p in cuts[1].pieces if letter.lower() in p.lower()]
        multi = [p for p in inside if len(p.strip()) > 1]
        finding = (
            f'"{w}" has {n} × "{letter}"; after a space it reaches the model as {plural(cuts[1].n, "token")}, and '
            + (
                "that token is one id to the model, not letters."
                if multi and cuts[1].n == 1
                else f'the "{letter}" sits inside {len(multi)} of them, each one id to the model, not letters.'
                if multi
                else "each of these letters is a token of its own here."
            )
        )
        rows.append(SurpriseRow(tok.id, cuts, finding))
    return Surprise(
        "letters", "Letters inside a token",
        "The model gets token ids, not letters: a word arrives as one id or a few (the rows below show "
        "how many), so questions about its letters (how many r? spell it backwards) ask about something "
        "the model never saw directly.",
        texts, ("alone", "after a space"), tuple(rows),
    )  # fmt: skip


def trim(text: str) -> str:
    """A "trim" of formatting that costs tokens but rarely meaning: Windows line ends become
    plain ones, spaces at line ends go, runs of spaces inside a line become one (indentation is
    kept), and more than one blank line becomes one.

    ``trim("a  b \\r\\n\\r\\n\\r\\n  c") -> "a b\\n\\n  c"``
    """
    lines = text.replace("\r\n", "\n").split("\n")
    out = []
    for line in lines:
        line = line.rstrip(" \t")
        indent = len(line) - len(line.lstrip(" \t"))
        out.append(line[:indent] + regex.sub(r"(?<=\S) {2,}(?=\S)", " ", line[indent:]))
    return regex.sub(r"\n{3,}", "\n\n", "\n".join(out))


def whitespace(text: str, tokenizers: Sequence[Tokenizer]) -> Surprise:
    """What two spaces, a tab, trailing spaces and Windows line ends cost, on the user's words;
    and the user's text trimmed, with the tokens saved."""
    text = clean_text(text)[:MAX_SURPRISE_CHARS]
    words = regex.findall(r"\S+", text)[:6] or ["Send", "the", "report", "today"]
    base = " ".join(words)
    half = max(1, len(words) // 2)
    two_lines = (" ".join(words[:half]), " ".join(words[half:]) or "ok")
    texts = (
        base, "  ".join(words), "\t".join(words), base + "   ",
        "\n".join(two_lines), "\r\n".join(two_lines),
    )  # fmt: skip
    labels = (
        "one space",
        "two spaces",
        "tabs",
        "3 spaces at the end",
        "line end \\n",
        "Windows line end \\r\\n",
    )
    trimmed = trim(text)
    rows = []
    for tok in tokenizers:
        cuts = tuple(cut_text(tok, t) for t in texts)
        extra = [
            f"{lab}: {cuts[i].n - cuts[0].n:+d}"
            for i, lab in ((1, "two spaces"), (2, "tabs"), (3, "end spaces"))
        ]
        extra.append(f"\\r\\n instead of \\n: {cuts[5].n - cuts[4].n:+d}")
        before, after = tok.count(text), tok.count(trimmed)
        finding = (
            f"Extra tokens over single spaces: {', '.join(extra)}. Your text: {plural(before, 'token')}, "
            f"{after:,} trimmed ({before - after:,} saved)."
        )
        rows.append(SurpriseRow(tok.id, cuts, finding))
    return Surprise(
        "whitespace", "Whitespace and formatting",
        "Spaces, tabs and line ends are text too: a run the vocabulary has no single token for costs extra "
        "tokens, and a tidy text (the \"trim\" below) sends the same words for fewer, which is what "
        "\"prompt compression\" starts with.",
        texts, labels, tuple(rows), extra=trimmed,
    )  # fmt: skip


INDENTS = (("no indent", ""), ("4 spaces", "    "), ("a tab", "\t"), ("8 spaces", " " * 8), ("2 tabs", "\t\t"),
           ("3 spaces", "   "))  # fmt: skip


def code_line(text: str, default: str = "return total") -> str:
    """The first indented line of the text, without its indentation (else `default`):
    ``code_line("def f():\n    return 1") -> "return 1"``."""
    for line in clean_text(text)[:MAX_SURPRISE_CHARS].splitlines():
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            return stripped[:80]
    return default


def indentation(text: str, tokenizers: Sequence[Tokenizer]) -> Surprise:
    """One line of code after a line break, indented six ways (4 and 8 spaces, tabs, 3 spaces)."""
    line = code_line(text)
    texts = tuple(f"if ok:\n{indent}{line}" for _, indent in INDENTS)
    rows = []
    for tok in tokenizers:
        cuts = tuple(cut_text(tok, t) for t in texts)
        costs = ", ".join(f"{label} {cuts[i].n - cuts[0].n:+d}" for i, (label, _) in enumerate(INDENTS) if i)
        rows.append(SurpriseRow(tok.id, cuts, f"Tokens the indent adds to the line: {costs}."))
    return Surprise(
        "indent", "Indentation in code",
        "Code is indented with runs of spaces or tabs, on every line. Many tokenizers learned the usual "
        "runs (4 or 8 spaces, often with the line break before them) as single tokens, so usual "
        "indentation is cheap and an unusual one can cost more on every line of a file.",
        texts, tuple(label for label, _ in INDENTS), tuple(rows),
    )  # fmt: skip


def word_count(text: str) -> int:
    """Words as the rule counts them, runs of non-spaces: ``word_count("a b  c") -> 3``."""
    return len(regex.findall(r"\S+", text))


def words_vs_tokens(text: str, tokenizers: Sequence[Tokenizer]) -> Surprise:
    """The "a token is 3/4 of a word" rule against the real count, on the user's text and on short
    texts in other languages and code."""
    text = clean_text(text)[:MAX_SURPRISE_CHARS]
    named = [("Your text", text), *WORD_SAMPLES] if text.strip() else list(WORD_SAMPLES)
    texts = tuple(t for _, t in named)
    rows = []
    for tok in tokenizers:
        cuts = tuple(cut_text(tok, t) if len(t) <= 2_000 else Cut(t, (), tuple(tok.encode(t))) for t in texts)
        parts = []
        for (name, t), c in zip(named, cuts):
            words = word_count(t)
            rule = round(words / RULE_WORDS_PER_TOKEN)
            parts.append(
                f"{name}: {plural(words, 'word')}, the rule says {plural(rule, 'token')}, really {c.n:,}"
            )
        rows.append(SurpriseRow(tok.id, cuts, "; ".join(parts) + "."))
    return Surprise(
        "words", "Words vs tokens",
        "\"1 token is about 3/4 of a word\" was measured on English prose: other languages, numbers and "
        "code use more tokens per word, and a language written without spaces has no \"words\" to count.",
        texts, tuple(n for n, _ in named), tuple(rows),
    )  # fmt: skip


def all_surprises(text: str, tokenizers: Sequence[Tokenizer]) -> tuple[Surprise, ...]:
    """Every surprise on the user's text: its first word for case and letters."""
    word = first_word(text, "total")
    return (
        case_and_space(word, tokenizers),
        numbers(text, tokenizers),
        letters(
            "strawberry" if "strawberry" in text.lower() else longest_word(text, "strawberry"), tokenizers
        ),
        whitespace(text, tokenizers),
        indentation(text, tokenizers),
        words_vs_tokens(text, tokenizers),
    )
