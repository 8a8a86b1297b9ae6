"""Writing systems: which script a text is written in, its direction and word spacing."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import regex

# (Unicode script as `regex` names it, display name, ISO 15924, right-to-left, spaces between words)
_SCRIPTS: tuple[tuple[str, str, str, bool, bool], ...] = (
    ("Latin", "Latin", "Latn", False, True),
    ("Cyrillic", "Cyrillic", "Cyrl", False, True),
    ("Greek", "Greek", "Grek", False, True),
    ("Arabic", "Arabic", "Arab", True, True),
    ("Hebrew", "Hebrew", "Hebr", True, True),
    ("Syriac", "Syriac", "Syrc", True, True),
    ("Thaana", "Thaana", "Thaa", True, True),
    ("Nko", "N'Ko", "Nkoo", True, True),
    ("Devanagari", "Devanagari", "Deva", False, True),
    ("Bengali", "Bengali", "Beng", False, True),
    ("Gurmukhi", "Gurmukhi", "Guru", False, True),
    ("Gujarati", "Gujarati", "Gujr", False, True),
    ("Oriya", "Odia", "Orya", False, True),
    ("Tamil", "Tamil", "Taml", False, True),
    ("Telugu", "Telugu", "Telu", False, True),
    ("Kannada", "Kannada", "Knda", False, True),
    ("Malayalam", "Malayalam", "Mlym", False, True),
    ("Sinhala", "Sinhala", "Sinh", False, True),
    ("Thai", "Thai", "Thai", False, False),
    ("Lao", "Lao", "Laoo", False, False),
    ("Khmer", "Khmer", "Khmr", False, False),
    ("Myanmar", "Myanmar", "Mymr", False, False),
    ("Tibetan", "Tibetan", "Tibt", False, False),
    ("Han", "Han", "Hani", False, False),
    ("Hiragana", "Hiragana", "Hira", False, False),
    ("Katakana", "Katakana", "Kana", False, False),
    ("Hangul", "Hangul", "Hang", False, True),
    ("Ethiopic", "Ethiopic", "Ethi", False, True),
    ("Georgian", "Georgian", "Geor", False, True),
    ("Armenian", "Armenian", "Armn", False, True),
    ("Tifinagh", "Tifinagh", "Tfng", False, True),
    ("Cherokee", "Cherokee", "Cher", False, True),
)
_SCRIPT_RES = {name: regex.compile(rf"\p{{Script={name}}}") for name, *_ in _SCRIPTS}
_SCRIPT_INFO = {name: (display, code, rtl, spaced) for name, display, code, rtl, spaced in _SCRIPTS}


@lru_cache(maxsize=65_536)
def _char_script(ch: str) -> str | None:
    """The script (of those in _SCRIPTS) a character belongs to: ``_char_script("क") -> "Devanagari"``."""
    for name, rx in _SCRIPT_RES.items():
        if rx.match(ch):
            return name
    return None


@dataclass(frozen=True, slots=True)
class ScriptGuess:
    script: str
    script_code: str
    direction: str
    whitespace_words: bool


def detect_script(text: str, *, limit: int = 4_000) -> ScriptGuess:
    """The dominant writing system of `text`, whether it runs right to left, and whether it
    puts spaces between words.

    ``detect_script("नमस्ते दुनिया") -> ScriptGuess("Devanagari", "Deva", "ltr", True)``;
    kana mixed with Han is "Japanese"; text without letters is "Unknown" with direction "auto".
    """
    counts = dict.fromkeys(_SCRIPT_RES, 0)
    for ch, n in Counter(text[:limit]).items():
        if (script := _char_script(ch)) is not None:
            counts[script] += n
    kana = counts["Hiragana"] + counts["Katakana"]
    if kana and kana + counts["Han"] >= max(counts.values()):
        return ScriptGuess("Japanese (Kanji, Kana)", "Jpan", "ltr", False)
    best = max(counts, key=counts.__getitem__)
    if counts[best] == 0:
        return ScriptGuess("Unknown", "Zyyy", "auto", True)
    display, code, rtl, spaced = _SCRIPT_INFO[best]
    return ScriptGuess(display, code, "rtl" if rtl else "ltr", spaced)
