"""Whether a file is text the counting can read, told in a sentence when it is not (pure functions).

A set is UTF-8 text: a UTF-8 byte order mark is skipped; UTF-16 and UTF-32 (with a byte order
mark, or recognised by their zero bytes, as RFC 4627 recognised JSON's encoding) are refused with
a sentence saying how to save the file as UTF-8; so are binary data (a zero byte) and an empty
file. A JSON array of examples is read whole (up to ``MAX_JSON_ARRAY_BYTES``) and given to the
counting as JSON lines, one example a line.

    >>> text_problem("a.jsonl", "\\ufeff{}".encode("utf-16-le"))
    'a.jsonl is UTF-16 text: save it as UTF-8 and upload it again (in Excel: "CSV UTF-8"; in an editor: Save As, encoding UTF-8).'
    >>> json_array(b'[{"text": "a"},\\n {"text": "b"}]\\n', whole=True)
    True
    >>> array_lines("a.json", b'[{"text": "a"}, "b"]')
    b'{"text": "a"}\\n{"text": "b"}\\n'
"""

from __future__ import annotations

import json

from .jsonwords import json_problem
from .limits import DatasetError, mb

BOM = b"\xef\xbb\xbf"
MAX_JSON_ARRAY_BYTES = 50_000_000  # a JSON array is parsed whole: its objects take ~5-10x its bytes
SNIFF_BYTES = 8_192
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def strip_bom(data: bytes) -> bytes:
    """``strip_bom(b"\\xef\\xbb\\xbfa") -> b"a"``"""
    return data[len(BOM) :] if data.startswith(BOM) else data


def wide_encoding(head: bytes) -> str | None:
    """ "UTF-16" or "UTF-32" for text in either (by its byte order mark, else by the zero bytes of
    mostly-ASCII text: every other byte, or three of four), else None.

    ``wide_encoding("id,text".encode("utf-16-be")) -> "UTF-16"``
    """
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    sample = head[:512]
    n = len(sample) // 4 * 4
    if n < 4:
        return None
    quads = [sample[i : i + 4] for i in range(0, n, 4)]
    if sum(q[0] == 0 and q[1] == 0 and q[2] == 0 and q[3] != 0 for q in quads) * 10 >= len(quads) * 7:
        return "UTF-32"
    if sum(q[1] == 0 and q[2] == 0 and q[3] == 0 and q[0] != 0 for q in quads) * 10 >= len(quads) * 7:
        return "UTF-32"
    pairs = [sample[i : i + 2] for i in range(0, n, 2)]
    if sum(p[0] == 0 and p[1] != 0 for p in pairs) * 10 >= len(pairs) * 7:
        return "UTF-16"
    if sum(p[1] == 0 and p[0] != 0 for p in pairs) * 10 >= len(pairs) * 7:
        return "UTF-16"
    return None


def text_problem(name: str, head: bytes) -> str | None:
    """Why a file whose first bytes are `head` is not UTF-8 text the counting reads, or None."""
    wide = wide_encoding(head)
    if wide:
        return (f'{name} is {wide} text: save it as UTF-8 and upload it again (in Excel: "CSV UTF-8"; in an '
                "editor: Save As, encoding UTF-8).")  # fmt: skip
    if b"\x00" in head[:SNIFF_BYTES]:
        return (f"{name} is not text (it holds binary data): upload a JSONL, JSON, CSV, TSV or Parquet file, "
                "or a repository as .zip or .tar.gz.")  # fmt: skip
    return None


def not_utf8(line: bytes) -> int | None:
    """The 1-based byte of a line where it stops being UTF-8, or None: ``not_utf8(b"caf\\xe9") -> 4``"""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start + 1
    return None


def json_array(head: bytes, *, whole: bool) -> bool:
    """Whether a file starting with `head` (at least its first whole line, or all of it when
    `whole`) is one JSON array, not JSON lines: it starts with ``[`` and its first line is not a
    whole JSON value followed by more lines (JSON lines whose rows are lists)."""
    s = strip_bom(head).lstrip()
    if not s.startswith(b"["):
        return False
    nl = s.find(b"\n")
    if nl < 0 or (whole and not s[nl + 1 :].strip()):
        return True  # all on one line (or a first line longer than was read)
    try:
        json.loads(s[:nl])
    except (ValueError, RecursionError):
        return True
    return False


def check_array_size(name: str, size: int) -> None:
    """DatasetError for a JSON array over MAX_JSON_ARRAY_BYTES (it would be parsed whole)."""
    if size > MAX_JSON_ARRAY_BYTES:
        raise DatasetError(
            f"{name} is a JSON array of {mb(size)}; an array is read whole, up to {mb(MAX_JSON_ARRAY_BYTES)}. "
            "Save it as JSON lines, one example a line (`jq -c '.[]' file.json > file.jsonl`), and count that."
        )


def array_lines(name: str, data: bytes) -> bytes:
    """A JSON array's items as JSON lines (one item a line; a text item becomes ``{"text": ...}``).
    Raises DatasetError for an array over MAX_JSON_ARRAY_BYTES or one that is not valid JSON."""
    check_array_size(name, len(data))
    try:
        items = json.loads(strip_bom(data))
    except (ValueError, RecursionError) as exc:
        raise DatasetError(f"{name} is not valid JSON: {json_problem(exc)}.") from None
    if not isinstance(items, list):
        raise DatasetError(f"{name} is not a JSON array.")
    out = bytearray()
    for item in items:
        value = {"text": item} if isinstance(item, str) else item
        out += json.dumps(value, ensure_ascii=False).encode("utf-8", "backslashreplace") + b"\n"
    return bytes(out)


__all__ = [
    "BOM", "MAX_JSON_ARRAY_BYTES", "array_lines", "check_array_size", "json_array", "not_utf8", "strip_bom", "text_problem",
    "wide_encoding",
]  # fmt: skip
