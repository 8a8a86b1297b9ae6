"""What the same content costs in tokens in each language: parallel texts, metrics and the premium.

The premium of a language under a tokenizer is the number of tokens its text takes divided by
the number of tokens the same content takes in a base language (English by default), as
Petrov et al. (2023, "Language Model Tokenizers Introduce Unfairness Between Languages") define
it. A premium of 2.0 means the same message costs twice as many tokens: twice the price, half
the context.

The bundled parallel sample (``data/languages/parallel.json``) is one short support reply in 26
languages, written for this project; see :func:`parallel_sample_info` for its provenance. Users
can edit it or bring their own translations as CSV (:func:`parse_translations_csv`).

    >>> from tokenizer_core import load_builtin, load_parallel_sample, language_table
    >>> langs = [l for l in load_parallel_sample() if l.code in ("en", "hi")]
    >>> rows = language_table(langs, [load_builtin("cl100k_base")], base="en")
    >>> [round(r.premium, 2) for r in rows]
    [1.0, 4.47]
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from functools import cache, lru_cache
from importlib import resources

import regex

from ..tokenizers.encoders import Tokenizer
from ..tokenizers.render import segments_html
from ..tokenizers.segments import Segment
from ..tokenizers.textio import InputError, decode_text

MAX_LANGUAGE_CHARS = 1_000_000  # per language text; longer texts are skipped with a message
MAX_CSV_LANGUAGES = 500

PREMIUM_DEFINITION = (
    "premium(language, tokenizer) = tokens of the language's text ÷ tokens of the same content in "
    "the base language, both counted by that tokenizer (Petrov et al., 2023). The base language "
    "has a premium of exactly 1; 2.0 means the same content costs twice as many tokens."
)

PREMIUM_CITATION = (
    "Aleksandar Petrov, Emanuele La Malfa, Philip H. S. Torr, Adel Bibi. Language Model "
    "Tokenizers Introduce Unfairness Between Languages. NeurIPS 2023. arXiv:2305.15425."
)

# Premiums Petrov et al. (2023) report on FLORES-200 (English base), for comparison with the
# bundled sample. cl100k_base median over 203 languages: 2.26.
PUBLISHED_PREMIUMS: dict[tuple[str, str], float] = {
    ("cl100k_base", "hi"): 4.79,
    ("cl100k_base", "bn"): 5.84,
    ("cl100k_base", "ta"): 7.65,
    ("cl100k_base", "my"): 11.70,
    ("cl100k_base", "es"): 1.55,
    ("cl100k_base", "zh"): 1.91,
    ("r50k_base", "hi"): 7.46,
    ("r50k_base", "my"): 16.89,
}
PUBLISHED_MEDIAN_CL100K = 2.26

NO_SPACES_NOTE = "written without spaces between words, so a whitespace word count means nothing"


class LanguageError(InputError):
    """Language texts the app cannot compare; the message says how to fix them."""


@dataclass(frozen=True, slots=True)
class Language:
    """One language's version of the parallel text, with what is needed to measure it.

    `whitespace_words` is False for scripts written without spaces between words (Chinese,
    Japanese, Thai, Burmese...): they get no word count. `direction` is "ltr", "rtl" or "auto".
    """

    code: str
    name: str
    script: str
    text: str
    whitespace_words: bool = True
    direction: str = "ltr"
    native_name: str = ""
    words_note: str = ""
    script_code: str = ""


@dataclass(frozen=True, slots=True)
class SampleInfo:
    title: str
    written: str
    provenance: str
    license: str
    format: str
    n_languages: int


def _sample_path():
    return resources.files("tokenizer_core") / "data" / "languages" / "parallel.json"


@cache
def _sample_json() -> dict:
    return json.loads(_sample_path().read_text(encoding="utf-8"))


def load_parallel_sample() -> list[Language]:
    """The bundled parallel sample: the same support reply in 26 languages, English first.

    ``[l.code for l in load_parallel_sample()][:3] -> ["en", "es", "fr"]``
    """
    out = []
    for entry in _sample_json()["languages"]:
        out.append(
            Language(
                code=entry["code"], name=entry["name"], script=entry["script"], text=entry["text"],
                whitespace_words=bool(entry["whitespace_words"]), direction=entry["direction"],
                native_name=entry.get("native_name", ""), words_note=entry.get("words_note", ""),
                script_code=entry.get("script_code", ""),
            )
        )  # fmt: skip
    return out


def parallel_sample_info() -> SampleInfo:
    """Title, date, provenance and license of the bundled sample (shown on the page)."""
    d = _sample_json()
    return SampleInfo(
        title=d["title"], written=d["written"], provenance=d["provenance"], license=d["license"],
        format=d["format"], n_languages=len(d["languages"]),
    )  # fmt: skip


# ------------------------------------------------------------------------------ scripts

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


# ------------------------------------------------------------------------ user languages


def _clean_cell(value: object) -> str:
    """Text of a table cell; None / NaN / missing become ``""``: ``_clean_cell(float("nan")) -> ""``."""
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    return str(value)


def _flag(value: object) -> bool | None:
    """A yes/no cell: True, False or None (not given). ``_flag("no") -> False``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, bool):
        return value
    s = str(value).strip().casefold()
    if s in ("true", "yes", "y", "1"):
        return True
    if s in ("false", "no", "n", "0"):
        return False
    return None


def slug_code(name: str) -> str:
    """A code for a language the sample does not know: ``slug_code("Scottish Gaelic") -> "scottish-gaelic"``."""
    s = regex.sub(r"[^\p{L}\p{N}]+", "-", name.strip().casefold()).strip("-")
    return s[:40] or "lang"


def find_language(key: str, known: Sequence[Language]) -> Language | None:
    """The known language whose code, name or native name is `key` (any case), or None.

    ``find_language("HINDI", load_parallel_sample()).code -> "hi"``
    """
    k = key.strip().casefold()
    if not k:
        return None
    for lang in known:
        if k in (lang.code.casefold(), lang.name.casefold(), lang.native_name.casefold()):
            return lang
    return None


def make_language(
    name: str,
    text: str,
    *,
    code: str = "",
    script: str = "",
    whitespace_words: bool | None = None,
    known: Sequence[Language] = (),
) -> Language:
    """A language from user input. Metadata comes from a known language with that code or name;
    otherwise the script, direction and word spacing are detected from the text.

    ``make_language("Hindi", "नमस्ते", known=load_parallel_sample()).code -> "hi"``
    """
    name, code, script = name.strip(), code.strip(), script.strip()
    text = text.strip()
    match = (find_language(code, known) if code else None) or find_language(name, known)
    if match is not None and (not code or code.casefold() == match.code.casefold()):
        return replace(
            match, text=text, name=name or match.name,
            script=script or match.script,
            whitespace_words=match.whitespace_words if whitespace_words is None else whitespace_words,
        )  # fmt: skip
    guess = detect_script(text)
    return Language(
        code=code or slug_code(name), name=name or code, script=script or guess.script, text=text,
        whitespace_words=guess.whitespace_words if whitespace_words is None else whitespace_words,
        direction=guess.direction, script_code=guess.script_code if not script else "",
    )  # fmt: skip


EDITOR_COLUMNS = ("code", "language", "script", "whitespace_words", "text")


def languages_to_records(languages: Iterable[Language]) -> list[dict]:
    """Rows for the page's text editor: code, language, script, whitespace_words, text."""
    return [
        {"code": l.code, "language": l.name, "script": l.script,
         "whitespace_words": l.whitespace_words, "text": l.text}
        for l in languages
    ]  # fmt: skip


def languages_from_records(
    records: Iterable[Mapping[str, object]], *, known: Sequence[Language] = ()
) -> tuple[list[Language], list[str]]:
    """Usable languages from edited table rows, and one message per problem.

    Empty rows are ignored. A row with text but no name, a language without text, a text over
    MAX_LANGUAGE_CHARS or a second row for the same language is skipped with a message that
    says what to do. ``languages_from_records([{"language": "Welsh", "text": ""}])`` ->
    ``([], ["Welsh has no text: type its translation in the table, or delete the row."])``
    """
    out: list[Language] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for i, rec in enumerate(records, start=1):
        name = _clean_cell(rec.get("language")).strip()
        code = _clean_cell(rec.get("code")).strip()
        text = _clean_cell(rec.get("text"))
        script = _clean_cell(rec.get("script")).strip()
        if not name and not code and not text.strip():
            continue
        label = name or code
        if not label:
            problems.append(f"Row {i} has a text but no language name: type a name in the Language column.")
            continue
        if not text.strip():
            problems.append(f"{label} has no text: type its translation in the table, or delete the row.")
            continue
        if len(text) > MAX_LANGUAGE_CHARS:
            problems.append(
                f"{label}'s text has {len(text):,} characters; the limit is {MAX_LANGUAGE_CHARS:,} "
                "per language. Shorten it (a few paragraphs measure the premium well)."
            )
            continue
        lang = make_language(
            name, text, code=code, script=script, whitespace_words=_flag(rec.get("whitespace_words")),
            known=known,
        )  # fmt: skip
        key = lang.code.casefold()
        if key in seen:
            problems.append(
                f"{label} (code {lang.code}) appears twice, on rows {seen[key]} and {i}: the row "
                f"{seen[key]} text is used. Give the second one another code, or delete it."
            )
            continue
        seen[key] = i
        out.append(lang)
    return _unique_names(out), problems


def _unique_names(languages: list[Language]) -> list[Language]:
    """Charts label languages by name: a repeated name gets its code added ("Hindi (hi-x)")."""
    counts: dict[str, int] = {}
    for lang in languages:
        counts[lang.name.casefold()] = counts.get(lang.name.casefold(), 0) + 1
    return [
        replace(l, name=f"{l.name} ({l.code})") if counts[l.name.casefold()] > 1 else l for l in languages
    ]


def record_code(record: Mapping[str, object], *, known: Sequence[Language] = ()) -> str:
    """The language code an editor row stands for: its code cell, else the code of a known
    language with that name, else a slug of the name. ``record_code({"language": "Hindi"},
    known=load_parallel_sample()) -> "hi"``; ``""`` for an empty row."""
    code = _clean_cell(record.get("code")).strip()
    if code:
        return code
    name = _clean_cell(record.get("language")).strip()
    if not name:
        return ""
    match = find_language(name, known)
    return match.code if match else slug_code(name)


def merge_translations(
    records: Sequence[Mapping[str, object]],
    incoming: Sequence[Language],
    *,
    known: Sequence[Language] = (),
) -> tuple[list[dict], list[str], list[str]]:
    """Editor rows with `incoming` texts put in: a row for the same language (same code) gets
    the new text, other incoming languages are appended. Rows are never dropped.

    Returns (rows, names replaced, names added).
    """
    by_code = {l.code.casefold(): l for l in incoming}
    out: list[dict] = []
    replaced: list[str] = []
    for rec in records:
        row = {k: rec.get(k) for k in EDITOR_COLUMNS}
        new = by_code.pop(record_code(rec, known=known).casefold(), None)
        if new is not None:
            row = languages_to_records([new])[0]
            replaced.append(new.name)
        out.append(row)
    added = [l.name for l in by_code.values()]
    out.extend(languages_to_records(by_code.values()))
    return out, replaced, added


# ----------------------------------------------------------------------------- CSV input

_LANG_COLS = ("language", "lang", "language_name", "name")
_TEXT_COLS = ("text", "translation", "content")
_CODE_COLS = ("code", "language_code", "lang_code", "iso", "iso_code")
_SCRIPT_COLS = ("script",)
_WS_COLS = ("whitespace_words", "words")


@dataclass(frozen=True, slots=True)
class CsvTranslations:
    languages: list[Language]
    problems: list[str]
    delimiter: str


def _norm_header(h: str) -> str:
    return re.sub(r"[\s\-]+", "_", h.strip().strip('"').casefold())


def _find_col(header: Sequence[str], names: Sequence[str]) -> int | None:
    for n in names:
        if n in header:
            return header.index(n)
    return None


def _at(row: Sequence[str], idx: int | None) -> str:
    """Cell `idx` of a CSV row, ``""`` when the column is absent: ``_at(["a"], 3) -> ""``."""
    return row[idx] if idx is not None and idx < len(row) else ""


def parse_translations_csv(
    data: bytes, *, filename: str = "the file", known: Sequence[Language] = ()
) -> CsvTranslations:
    """Your translations from a CSV (or TSV / semicolon) file with `language` and `text` columns.

    Optional columns: `code` (ISO 639), `script`, `whitespace_words` (yes/no). `language` may be
    a name or a code; known languages (e.g. the sample's) lend their script and word spacing.
    Raises LanguageError (an InputError) with the fix for a file the app cannot use: not text,
    wrong encoding, no header with both columns, no usable row. Rows that are only partly bad
    (empty text, no name, a duplicate) are skipped and listed in `problems`.

    ``parse_translations_csv(b"language,text\\nHindi,नमस्ते\\n").languages[0].name -> "Hindi"``
    """
    try:
        text = decode_text(data, filename=filename)
    except InputError as exc:
        raise LanguageError(str(exc)) from None
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise LanguageError(f"{filename} is empty. The first line must name the columns, e.g. language,text")
    first_line = text.splitlines()[0]
    chosen = None
    for delim in (",", "\t", ";", "|"):
        header = [_norm_header(h) for h in next(csv.reader([first_line], delimiter=delim), [])]
        li, ti = _find_col(header, _LANG_COLS), _find_col(header, _TEXT_COLS)
        if li is not None and ti is not None:
            chosen = (delim, header, li, ti)
            break
    if chosen is None:
        header = [_norm_header(h) for h in next(csv.reader([first_line]), [])]
        missing = [
            n for n, names in (("language", _LANG_COLS), ("text", _TEXT_COLS))
            if _find_col(header, names) is None
        ]  # fmt: skip
        shown = first_line if len(first_line) <= 120 else first_line[:117] + "..."
        raise LanguageError(
            f"{filename} has no {' and no '.join(repr(m) for m in missing)} column. Its first line "
            f"reads {shown!r}. The first line must name the columns, for example: language,text "
            "(optional: code, script). Save the spreadsheet as CSV UTF-8 and upload it again."
        )
    delim, header, li, ti = chosen
    ci, si, wi = _find_col(header, _CODE_COLS), _find_col(header, _SCRIPT_COLS), _find_col(header, _WS_COLS)
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    records: list[dict] = []
    problems: list[str] = []
    try:
        next(reader)
        for row in reader:
            line = reader.line_num
            if not any(c.strip() for c in row):
                continue
            if len(records) >= MAX_CSV_LANGUAGES:
                raise LanguageError(
                    f"{filename} has more than {MAX_CSV_LANGUAGES} rows; upload at most "
                    f"{MAX_CSV_LANGUAGES} languages at a time."
                )

            if any(c.strip() for c in row[len(header) :]):
                problems.append(
                    f"Line {line} ({_at(row, li).strip() or 'no name'}): {len(row)} cells where the "
                    f"first line names {len(header)} columns, so the row was skipped. Put a text that "
                    'contains the separator in double quotes ("like, this").'
                )
                continue
            records.append({
                "language": _at(row, li), "text": _at(row, ti), "code": _at(row, ci),
                "script": _at(row, si), "whitespace_words": _at(row, wi) or None, "_line": line,
            })  # fmt: skip
    except csv.Error as exc:
        raise LanguageError(
            f"{filename} is not valid CSV near line {reader.line_num} ({exc}). Quote texts that "
            'contain the separator or line breaks ("like, this"), or save it again as CSV UTF-8. '
            "A single text is limited to 131,072 characters."
        ) from None
    langs: list[Language] = []
    seen: dict[str, int] = {}
    for rec in records:
        line = rec["_line"]
        name, body = rec["language"].strip(), rec["text"]
        if not name:
            problems.append(f"Line {line}: no language name, so the row was skipped.")
            continue
        if not body.strip():
            problems.append(f"Line {line} ({name}): the text is empty, so the row was skipped.")
            continue
        if len(body) > MAX_LANGUAGE_CHARS:
            problems.append(
                f"Line {line} ({name}): the text is over {MAX_LANGUAGE_CHARS:,} characters; skipped."
            )
            continue
        lang = make_language(
            name, body, code=rec["code"], script=rec["script"],
            whitespace_words=_flag(rec["whitespace_words"]), known=known,
        )  # fmt: skip
        key = lang.code.casefold()
        if key in seen:
            problems.append(
                f"Line {line} ({name}): the same language as line {seen[key]}; the first one was kept."
            )
            continue
        seen[key] = line
        langs.append(lang)
    if not langs:
        detail = " ".join(problems[:3])
        raise LanguageError(
            f"{filename} has no usable row (a language name and a non-empty text). {detail}".strip()
        )
    return CsvTranslations(langs, problems, delim)


def translations_csv(languages: Iterable[Language]) -> str:
    """CSV of the texts (language, code, script, whitespace_words, text): the upload format."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["language", "code", "script", "whitespace_words", "text"])
    for l in languages:
        w.writerow([l.name, l.code, l.script, "yes" if l.whitespace_words else "no", l.text])
    return buf.getvalue()


# ------------------------------------------------------------------------------- metrics


def premium(tokens: int, base_tokens: int) -> float | None:
    """Tokens relative to the base language: ``premium(146, 73) -> 2.0``; None if the base has 0."""
    if base_tokens <= 0:
        return None
    return tokens / base_tokens


def word_count(language: Language) -> int | None:
    """Whitespace-delimited words, or None for scripts written without spaces between words.

    ``word_count(Language("en", "English", "Latin", "a b c")) -> 3``
    """
    if not language.whitespace_words:
        return None
    return len(language.text.split())


def words_explanation(language: Language) -> str:
    """Why a language has no word count (or a caveat about it); ``""`` when there is none."""
    if not language.whitespace_words:
        return language.words_note or f"{language.name} is {NO_SPACES_NOTE}."
    return language.words_note


@dataclass(frozen=True, slots=True)
class LanguageRow:
    """One language under one tokenizer. `premium` is relative to `base_code` (exactly 1.0 there)."""

    code: str
    language: str
    script: str
    tokenizer_id: str
    tokenizer: str
    tokens: int
    characters: int
    utf8_bytes: int
    words: int | None
    chars_per_token: float | None
    bytes_per_token: float | None
    tokens_per_word: float | None
    premium: float | None
    base_code: str
    base_tokens: int
    is_base: bool
    words_note: str = ""


def check_base(languages: Sequence[Language], base: str) -> Language:
    """The base language among `languages`, or LanguageError saying which codes exist."""
    if not languages:
        raise LanguageError("No language to compare: keep at least one language with a text.")
    for lang in languages:
        if lang.code == base:
            return lang
    codes = ", ".join(l.code for l in languages[:30])
    raise LanguageError(
        f"The base language {base!r} is not among the languages with a text ({codes}). "
        "Choose one of them as the base, or give it a text."
    )


def language_table(
    languages: Sequence[Language],
    tokenizers: Sequence[Tokenizer],
    *,
    base: str = "en",
) -> list[LanguageRow]:
    """Rows for every language x tokenizer (languages outer, in order), with the premium.

    Token counts are the tokenizer's own `count_many` (special-token text counts as text).
    Raises LanguageError for an empty list, an unknown base, an empty text or a repeated code.
    """
    base_lang = check_base(languages, base)
    seen: set[str] = set()
    names: set[str] = set()
    for lang in languages:
        if not lang.text.strip():
            raise LanguageError(f"{lang.name} has no text: type its translation or leave the language out.")
        if lang.code in seen:
            raise LanguageError(f"The code {lang.code!r} is used twice: each language needs its own code.")
        if lang.name in names:
            raise LanguageError(f"Two languages are named {lang.name!r}: give them different names.")
        seen.add(lang.code)
        names.add(lang.name)
    texts = [l.text for l in languages]
    counts = {t.info.id: t.count_many(texts) for t in tokenizers}
    base_index = languages.index(base_lang)
    rows = []
    for i, lang in enumerate(languages):
        chars = len(lang.text)
        nbytes = len(lang.text.encode("utf-8", "surrogatepass"))
        words = word_count(lang)
        for tok in tokenizers:
            n = counts[tok.info.id][i]
            base_n = counts[tok.info.id][base_index]
            rows.append(
                LanguageRow(
                    code=lang.code, language=lang.name, script=lang.script,
                    tokenizer_id=tok.info.id, tokenizer=tok.info.name, tokens=n,
                    characters=chars, utf8_bytes=nbytes, words=words,
                    chars_per_token=chars / n if n else None,
                    bytes_per_token=nbytes / n if n else None,
                    tokens_per_word=n / words if words else None,
                    premium=premium(n, base_n), base_code=base_lang.code, base_tokens=base_n,
                    is_base=i == base_index, words_note=words_explanation(lang),
                )
            )  # fmt: skip
    return rows


def language_order(rows: Sequence[LanguageRow]) -> list[str]:
    """Language names from cheapest to most expensive (mean premium over the tokenizers).

    Ties and missing premiums keep the input order. Charts use this order on every axis.
    """
    names: list[str] = []
    prem: dict[str, list[float]] = {}
    for r in rows:
        if r.language not in prem:
            names.append(r.language)
            prem[r.language] = []
        if r.premium is not None:
            prem[r.language].append(r.premium)
    pos = {n: i for i, n in enumerate(names)}
    return sorted(names, key=lambda n: (statistics.fmean(prem[n]) if prem[n] else math.inf, pos[n]))


@dataclass(frozen=True, slots=True)
class TokenizerSummary:
    tokenizer_id: str
    tokenizer: str
    median_premium: float
    max_language: str
    max_premium: float
    min_language: str
    min_premium: float
    languages: int


def summarize(rows: Sequence[LanguageRow]) -> list[TokenizerSummary]:
    """Per tokenizer: median premium over the non-base languages, and the extremes."""
    by_tok: dict[str, list[tuple[LanguageRow, float]]] = {}
    for r in rows:
        if r.premium is not None and not r.is_base:
            by_tok.setdefault(r.tokenizer_id, []).append((r, r.premium))
    out = []
    for tid, rs in by_tok.items():
        hi, hi_premium = max(rs, key=lambda rp: rp[1])
        lo, lo_premium = min(rs, key=lambda rp: rp[1])
        out.append(
            TokenizerSummary(
                tid, rs[0][0].tokenizer, statistics.median(p for _, p in rs),
                hi.language, hi_premium, lo.language, lo_premium, len(rs),
            )
        )  # fmt: skip
    return out


def published_comparison(rows: Sequence[LanguageRow]) -> list[dict]:
    """Premiums measured here next to those Petrov et al. (2023) published, where both exist
    (English base only: their base is English)."""
    out = []
    for r in rows:
        pub = PUBLISHED_PREMIUMS.get((r.tokenizer_id, r.code))
        if pub is not None and r.base_code == "en" and r.premium is not None:
            out.append({
                "language": r.language, "tokenizer": r.tokenizer, "published (FLORES-200)": pub,
                "this sample": round(r.premium, 2),
            })  # fmt: skip
    return out


CSV_FIELDS = (
    "code", "language", "script", "tokenizer_id", "tokenizer", "tokens", "characters",
    "utf8_bytes", "words", "chars_per_token", "bytes_per_token", "tokens_per_word", "premium",
    "base_code", "base_tokens", "words_note",
)  # fmt: skip


def _round(v: object, nd: int = 4) -> object:
    return round(v, nd) if isinstance(v, float) else ("" if v is None else v)


def language_rows_csv(rows: Sequence[LanguageRow]) -> str:
    """The full table as CSV (floats to 4 decimals; an empty cell where a value does not exist)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(CSV_FIELDS), lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({k: _round(v) for k, v in asdict(r).items()})
    return buf.getvalue()


# ---------------------------------------------------------------------------------- HTML


def split_marks(segments: Sequence[Segment]) -> int:
    """How many segments start with a combining mark, i.e. a token boundary cut a vowel sign or
    accent from its letter (the browser then draws it on a dotted circle ◌).

    ``split_marks(load_builtin("r50k_base").segments("नमस्ते"))`` is > 0; ``split_marks([]) -> 0``.
    """
    return sum(1 for s in segments if s.text and unicodedata.category(s.text[0]).startswith("M"))


_DIRECTIONS = ("ltr", "rtl", "auto")


def language_tokens_html(
    segments: Sequence[Segment],
    *,
    direction: str = "auto",
    lang: str = "",
    show_whitespace: bool = False,
) -> str:
    """Coloured tokens (segments_html, all text escaped) inside a `<div dir=... lang=...>`, so
    Arabic, Hebrew, Persian and Urdu read right to left. Unknown directions become "auto".

    ``language_tokens_html([], direction="rtl", lang="ar")`` starts with ``<div dir="rtl" lang="ar"``.
    """
    d = direction if direction in _DIRECTIONS else "auto"
    attrs = f'dir="{d}"'
    if lang and regex.fullmatch(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*", lang):
        attrs += f' lang="{html.escape(lang, quote=True)}"'
    inner = segments_html(segments, show_whitespace=show_whitespace)
    return f'<div class="tw-lang" {attrs} style="text-align:start">{inner}</div>'
