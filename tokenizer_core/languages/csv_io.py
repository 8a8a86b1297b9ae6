"""CSV in and out: the user's translations from a CSV file, the texts and the full table as CSV."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from ..tokenizers.csvcells import from_spreadsheet_safe, spreadsheet_safe
from ..tokenizers.textio import InputError, decode_text
from .language import Language, LanguageError, LanguageRow
from .records import MAX_LANGUAGE_CHARS, RowInput, RowWording, checked_languages

MAX_CSV_LANGUAGES = 500

_LANG_COLS = ("language", "lang", "language_name", "name")
_TEXT_COLS = ("text", "translation", "content")
_CODE_COLS = ("code", "language_code", "lang_code", "iso", "iso_code")
_SCRIPT_COLS = ("script",)
_WS_COLS = ("whitespace_words", "words")


CSV_WORDING = RowWording(
    label=lambda row: row.name,
    no_name=lambda row: f"Line {row.place}: no language name, so the row was skipped.",
    no_text=lambda row, label: f"Line {row.place} ({label}): the text is empty, so the row was skipped.",
    too_long=lambda row, label: (
        f"Line {row.place} ({label}): the text is over {MAX_LANGUAGE_CHARS:,} characters; skipped."
    ),
    repeated=lambda row, label, lang, first: (
        f"Line {row.place} ({label}): the same language as line {first}; the first one was kept."
    ),
)


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


def _csv_problem(exc: csv.Error) -> str:
    """Python's CSV reader's complaint in words: ``"field larger than field limit"`` -> "a text is too long"."""
    text = str(exc)
    for start, words in (
        ("field larger than field limit", "a text is longer than the reader takes"),
        ("line contains NUL", "it holds a NUL character, so it is likely not a text file"),
        ("new-line character seen in unquoted field", "a line break inside a text that is not in quotes"),
        ("unexpected end of data", "a quote is opened and never closed"),
    ):
        if text.startswith(start):
            return words
    return "a quote or separator is out of place"


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
    rows: list[RowInput] = []
    problems: list[str] = []
    read = 0  # rows with any content, skipped ones too: each costs a check and a line in the notes
    try:
        next(reader)
        for cells in reader:
            line = reader.line_num
            row = [from_spreadsheet_safe(c) for c in cells]  # the app's own texts CSV reads back as written
            if not any(c.strip() for c in row):
                continue
            read += 1
            if read > MAX_CSV_LANGUAGES:
                raise LanguageError(
                    f"{filename} has more than {MAX_CSV_LANGUAGES} rows (rows that cannot be used count "
                    f"too); upload at most {MAX_CSV_LANGUAGES} languages at a time."
                )

            if any(c.strip() for c in row[len(header) :]):
                problems.append(
                    f"Line {line} ({_at(row, li).strip() or 'no name'}): {len(row)} cells where the "
                    f"first line names {len(header)} columns, so the row was skipped. Put a text that "
                    'contains the separator in double quotes ("like, this").'
                )
                continue
            rows.append(RowInput(
                line, _at(row, li).strip(), _at(row, ci).strip(), _at(row, ti), _at(row, si).strip(),
                _at(row, wi) or None,
            ))  # fmt: skip
    except csv.Error as exc:
        raise LanguageError(
            f"{filename} is not valid CSV near line {reader.line_num} ({_csv_problem(exc)}). Quote texts that "
            'contain the separator or line breaks ("like, this"), or save it again as CSV UTF-8. '
            "A single text is limited to 131,072 characters."
        ) from None
    langs, skipped = checked_languages(rows, wording=CSV_WORDING, known=known)
    problems.extend(skipped)
    if not langs:
        detail = " ".join(problems[:3])
        raise LanguageError(
            f"{filename} has no usable row (a language name and a non-empty text). {detail}".strip()
        )
    return CsvTranslations(langs, problems, delim)


def translations_csv(languages: Iterable[Language]) -> str:
    """CSV of the texts (language, code, script, whitespace_words, text): the upload format.

    Cells a spreadsheet would run as a formula get a leading quote (see `csvcells`), which
    :func:`parse_translations_csv` drops again: a texts CSV reads back as it was written.
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["language", "code", "script", "whitespace_words", "text"])
    for l in languages:
        w.writerow(
            [
                spreadsheet_safe(c)
                for c in (l.name, l.code, l.script, "yes" if l.whitespace_words else "no", l.text)
            ]
        )
    return buf.getvalue()


CSV_FIELDS = (
    "code", "language", "script", "tokenizer_id", "tokenizer", "tokens", "characters",
    "utf8_bytes", "words", "chars_per_token", "bytes_per_token", "tokens_per_word", "premium",
    "base_code", "base_tokens", "words_note",
)  # fmt: skip


def _round(v: object, nd: int = 4) -> object:
    return round(v, nd) if isinstance(v, float) else ("" if v is None else spreadsheet_safe(v))


def language_rows_csv(rows: Sequence[LanguageRow]) -> str:
    """The full table as CSV (floats to 4 decimals; an empty cell where a value does not exist;
    text cells spreadsheet-safe, see `csvcells`)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(CSV_FIELDS), lineterminator="\n", extrasaction="ignore")
    w.writeheader()
    for r in rows:
        w.writerow({k: _round(v) for k, v in asdict(r).items()})
    return buf.getvalue()
