"""Turning uploaded bytes into text, with a clear message for anything that is not text."""

from __future__ import annotations

import codecs
import json
from importlib import resources

TEXT_EXTENSIONS = (
    "txt", "md", "markdown", "rst", "py", "js", "jsx", "ts", "tsx", "json", "jsonl", "csv",
    "tsv", "html", "htm", "xml", "yaml", "yml", "toml", "ini", "cfg", "c", "h", "cpp", "hpp",
    "cc", "cs", "java", "kt", "go", "rs", "rb", "php", "swift", "sql", "sh", "bash", "css",
    "scss", "tex", "log", "srt", "vtt",
)  # fmt: skip

MAX_TEXT_BYTES = 20_000_000


class InputError(ValueError):
    """Input the app cannot use; the message tells the user what to do instead."""


def decode_text(data: bytes, *, filename: str = "the file") -> str:
    """Decode an uploaded file as text.

    UTF-8 (with or without BOM) and UTF-16 with a BOM are accepted. Binary data and other
    encodings raise InputError naming the problem: ``decode_text(b"\\xff\\xd8\\xff...")`` ->
    "photo.jpg looks like a binary file ...".
    """
    if len(data) > MAX_TEXT_BYTES:
        raise InputError(
            f"{filename} is {len(data) / 1e6:.1f} MB; the limit is {MAX_TEXT_BYTES / 1e6:.0f} MB."
        )
    if not data:
        raise InputError(f"{filename} is empty.")
    for bom, codec in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                       (codecs.BOM_UTF16_BE, "utf-16-be")):  # fmt: skip
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(codec)
            except UnicodeDecodeError:
                raise InputError(f"{filename} starts with a {codec} mark but is not valid {codec}.") from None
    sample = data[:8192]
    if b"\x00" in sample or _control_ratio(sample) > 0.1:
        raise InputError(
            f"{filename} looks like a binary file (images, PDFs, archives...), not text. "
            "Upload a plain-text file, or paste the text instead."
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{filename} is not UTF-8 text (invalid byte 0x{data[exc.start]:02x} at byte "
            f"{exc.start:,}). Save it as UTF-8 (most editors: 'Save with encoding') and upload it again."
        ) from None


def _control_ratio(sample: bytes) -> float:
    if not sample:
        return 0.0
    allowed = {9, 10, 12, 13, 27}
    bad = sum(1 for b in sample if b < 32 and b not in allowed)
    return bad / len(sample)


def sample_names() -> list[str]:
    """Names of the bundled sample texts (files in tokenizer_core/data/samples)."""
    folder = resources.files("tokenizer_core") / "data" / "samples"
    return sorted(p.name.rsplit(".", 1)[0] for p in folder.iterdir() if p.name.endswith(".txt"))


def load_sample(name: str) -> str:
    """Text of a bundled sample: ``load_sample("mixed")``."""
    path = resources.files("tokenizer_core") / "data" / "samples" / f"{name}.txt"
    if not path.is_file():
        raise InputError(f"no sample named {name!r}; choose one of {sample_names()}")
    return path.read_text(encoding="utf-8")


_JSON_WORDS = (  # the start of Python's decoder message -> what it means, in words
    ("Expecting value", "a value is missing (or a word is not in double quotes)"),
    (
        "Expecting property name",
        'a name in an object is not in double quotes (or a comma is left before "}")',
    ),
    ("Expecting ':'", "a colon is missing after a name in an object"),
    ("Expecting ','", "a comma is missing between two items (or a bracket is not closed)"),
    ("Unterminated string", "a text in double quotes is never closed"),
    ("Invalid control character", "a text in double quotes holds a line break or tab: write \\n or \\t"),
    ("Invalid \\uXXXX", "a \\u escape needs four hexadecimal digits"),
    ("Invalid \\escape", "a backslash in a text must be doubled (\\\\) or start an escape such as \\n"),
    ("Extra data", "there is more after the end of the JSON value"),
    ("Illegal trailing comma", "a comma is left before a closing bracket"),
)


def json_problem(exc: json.JSONDecodeError) -> str:
    """Where JSON text is broken and what is wrong, in words:
    ``json_problem(json.JSONDecodeError("Unterminated string starting at", '{"a', 1))``
    -> ``"line 1, column 2: a text in double quotes is never closed"``."""
    words = next((w for start, w in _JSON_WORDS if exc.msg.startswith(start)), "the JSON syntax is broken")
    return f"line {exc.lineno}, column {exc.colno}: {words}"


def read_json_file(data: bytes | str, *, max_bytes: int, error: type[Exception], kind: str) -> object:
    """The JSON document in an uploaded file, or `error` saying in plain words what is wrong.

    `kind` names the file users should upload (e.g. "a .json file saved by this page").
    ``read_json_file(b'{"a": 1}', max_bytes=10, error=ValueError, kind="a file") -> {'a': 1}``
    """
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            raise error(f"the file is {len(data):,} bytes; the limit is {max_bytes:,}")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise error(f"the file is not UTF-8 text: upload {kind}") from None
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON ({json_problem(exc)})") from None
    except RecursionError:
        raise error(
            f"the file nests lists or objects thousands of levels deep, which no such file does: upload {kind}"
        ) from None
    except ValueError:  # a number of more than 4,300 digits, which Python refuses to convert
        raise error(
            f"the file holds a number thousands of digits long, which no such file does: upload {kind}"
        ) from None
