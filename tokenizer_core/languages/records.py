"""The user's languages: rows of the page's table to :class:`Language` s and back, with the
row checks every source of rows shares (the table here, CSV files in `csv_io`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import regex

from .language import Language
from .scripts import detect_script

MAX_LANGUAGE_CHARS = 1_000_000  # per language text; longer texts are skipped with a message


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


def editor_row(record: Mapping[str, object]) -> dict:
    """A row as the text editor holds it, from cells of any kind (a hand-edited store): texts, and
    in whitespace_words a yes/no or None. ``editor_row({"code": None, "whitespace_words": "no"})``
    -> ``{"code": "", "language": "", "script": "", "whitespace_words": False, "text": ""}``."""
    return {
        c: _flag(record.get(c)) if c == "whitespace_words" else _clean_cell(record.get(c))
        for c in EDITOR_COLUMNS
    }


def languages_to_records(languages: Iterable[Language]) -> list[dict]:
    """Rows for the page's text editor: code, language, script, whitespace_words, text."""
    return [
        {"code": l.code, "language": l.name, "script": l.script,
         "whitespace_words": l.whitespace_words, "text": l.text}
        for l in languages
    ]  # fmt: skip


@dataclass(frozen=True, slots=True)
class RowInput:
    """One row of the user's languages as read from its source: where it is (a row of the table,
    a line of a file) and its cells, stripped but for the text."""

    place: int
    name: str
    code: str
    text: str
    script: str = ""
    whitespace_words: object = None


@dataclass(frozen=True, slots=True)
class RowWording:
    """How a row's problems are worded for its source: ``label(row)`` names the row in the
    messages ("" when it has no name); the others give the message for each problem."""

    label: Callable[[RowInput], str]
    no_name: Callable[[RowInput], str]
    no_text: Callable[[RowInput, str], str]
    too_long: Callable[[RowInput, str], str]
    repeated: Callable[[RowInput, str, Language, int], str]  # (row, label, its language, first place)


TABLE_WORDING = RowWording(
    label=lambda row: row.name or row.code,
    no_name=lambda row: (
        f"Row {row.place} has a text but no language name: type a name in the Language column."
    ),
    no_text=lambda row, label: f"{label} has no text: type its translation in the table, or delete the row.",
    too_long=lambda row, label: (
        f"{label}'s text has {len(row.text):,} characters; the limit is {MAX_LANGUAGE_CHARS:,} "
        "per language. Shorten it (a few paragraphs measure the premium well)."
    ),
    repeated=lambda row, label, lang, first: (
        f"{label} (code {lang.code}) appears twice, on rows {first} and {row.place}: the row "
        f"{first} text is used. Give the second one another code, or delete it."
    ),
)


def checked_languages(
    rows: Iterable[RowInput], *, wording: RowWording, known: Sequence[Language] = ()
) -> tuple[list[Language], list[str]]:
    """The usable languages of `rows`, and one message per skipped row, worded by `wording`.

    A row is skipped when it has no name, no text, a text over MAX_LANGUAGE_CHARS, or the
    language (code) of an earlier row, which is kept. ``checked_languages([RowInput(1, "Welsh",
    "", "")], wording=TABLE_WORDING)`` -> ``([], ["Welsh has no text: type its translation in
    the table, or delete the row."])``
    """
    out: list[Language] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    for row in rows:
        label = wording.label(row)
        if not label:
            problems.append(wording.no_name(row))
            continue
        if not row.text.strip():
            problems.append(wording.no_text(row, label))
            continue
        if len(row.text) > MAX_LANGUAGE_CHARS:
            problems.append(wording.too_long(row, label))
            continue
        lang = make_language(
            row.name, row.text, code=row.code, script=row.script, whitespace_words=_flag(row.whitespace_words),
            known=known,
        )  # fmt: skip
        key = lang.code.casefold()
        if key in seen:
            problems.append(wording.repeated(row, label, lang, seen[key]))
            continue
        seen[key] = row.place
        out.append(lang)
    return out, problems


def languages_from_records(
    records: Iterable[Mapping[str, object]], *, known: Sequence[Language] = ()
) -> tuple[list[Language], list[str]]:
    """Usable languages from edited table rows, and one message per problem.

    Empty rows are ignored. A row with text but no name, a language without text, a text over
    MAX_LANGUAGE_CHARS or a second row for the same language is skipped with a message that
    says what to do. ``languages_from_records([{"language": "Welsh", "text": ""}])`` ->
    ``([], ["Welsh has no text: type its translation in the table, or delete the row."])``
    """
    rows = (
        RowInput(
            i, _clean_cell(rec.get("language")).strip(), _clean_cell(rec.get("code")).strip(),
            _clean_cell(rec.get("text")), _clean_cell(rec.get("script")).strip(), rec.get("whitespace_words"),
        )
        for i, rec in enumerate(records, start=1)
    )  # fmt: skip
    filled = (row for row in rows if row.name or row.code or row.text.strip())
    out, problems = checked_languages(filled, wording=TABLE_WORDING, known=known)
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
