"""Which shape a dataset has, from its name and first bytes, with a sample and the problems seen.

>>> d = detect("batch.jsonl", b'{"custom_id": "r1", "method": "POST", "url": "/v1/chat/completions", '
...            b'"body": {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}}\\n')
>>> d.shape, d.label, d.sample[0]["custom_id"]
('batch', 'OpenAI Batch requests', 'r1')
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .archive import archive_kind, plan_archive
from .limits import MAX_LINE_BYTES, MAX_SOURCE_BYTES, DatasetError, mb
from .rows import BATCH_KEYS, CHAT_SHAPES, parse_lines, split_lines
from .textfile import array_lines, json_array, not_utf8, strip_bom, text_problem

Source = bytes | str | os.PathLike[str]

SHAPES: dict[str, str] = {
    "batch": "OpenAI Batch requests",
    "gemini-batch": "Gemini batch requests",
    "mistral-batch": "Mistral batch requests",
    "anthropic-batch": "Anthropic Message Batches requests",
    "finetune": "Chat fine-tuning examples",
    "jsonl": "JSON lines (a text field)",
    "csv": "CSV table",
    "tsv": "TSV table",
    "parquet": "Parquet table",
    "repository": "Repository archive",
    "list": "Text file (one text a line)",
}
PASTED_NAME = "pasted list"  # the name of text pasted in the page's box (see `pasted`)
PASTED_LABEL = "Pasted list (one text a line)"  # the "list" shape's label for pasted text
HEAD_BYTES = 256 * 1024
HEAD_LINES = 5  # detection reads at least this many whole lines (up to MAX_LINE_BYTES), if the file has them
SAMPLE_ROWS = 5
TEXT_FIELDS = ("text", "content", "prompt", "input", "question", "document", "body", "completion")
TEXT_COLUMNS = TEXT_FIELDS + ("instruction", "response", "answer", "output")
ID_NAMES = ("custom_id", "id", "uid", "uuid", "key", "name")


@dataclass(frozen=True, slots=True)
class Detected:
    """What a dataset looks like: its shape, a few sample rows, the fields or columns it has and
    the ones chosen by default, and the problems seen in the sample (sentences)."""

    name: str
    shape: str  # a key of SHAPES
    size: int  # bytes
    sample: tuple[dict[str, Any], ...] = ()
    fields: tuple[str, ...] = ()  # JSON fields or table columns (or, for a repository, its files)
    text_fields: tuple[str, ...] = ()  # the field(s) / column(s) counted by default
    id_field: str | None = None
    problems: tuple[str, ...] = ()
    skipped: tuple[tuple[str, str], ...] = ()  # repository: (path, reason)
    array_items: int | None = None  # a JSON array: its items, counted as rows (None: JSON lines or other)
    models: tuple[str, ...] = ()  # the models the first requests name, most named first

    @property
    def label(self) -> str:
        return shape_label(self.shape, self.name)


def shape_label(shape: str, name: str) -> str:
    """A shape's label for a set named `name`: ``shape_label("list", "notes.txt") -> "Text file (one
    text a line)"``; text pasted in the page's box (named PASTED_NAME) is a "Pasted list"."""
    return PASTED_LABEL if shape == "list" and name == PASTED_NAME else SHAPES.get(shape, shape)


def source_size(data: Source) -> int:
    return len(data) if isinstance(data, (bytes, bytearray, memoryview)) else os.path.getsize(data)


def read_head(data: Source, n: int = HEAD_BYTES) -> bytes:
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data[:n])
    with open(data, "rb") as f:
        return f.read(n)


def read_lines_head(data: Source, size: int, *, lines: int = HEAD_LINES) -> bytes:
    """The first HEAD_BYTES, or more until they hold `lines` whole lines: a first line of 5 MB (a
    row with a base64 image) is read whole. Bounded: at most MAX_LINE_BYTES + HEAD_BYTES."""
    n = HEAD_BYTES
    head = read_head(data, n)
    while len(head) < size and head.count(b"\n") < lines and n < MAX_LINE_BYTES + HEAD_BYTES:
        n = min(n * 4, MAX_LINE_BYTES + HEAD_BYTES)
        head = read_head(data, n)
    return head


def check_size(name: str, data: Source) -> int:
    """The source's size; DatasetError for one over MAX_SOURCE_BYTES (before any work)."""
    size = source_size(data)
    if size > MAX_SOURCE_BYTES:
        raise DatasetError(
            f"{name} is {mb(size)}; at most {mb(MAX_SOURCE_BYTES)} is counted in one job. "
            "Split it (e.g. `split -l 500000 file.jsonl part-`) and count the parts."
        )
    return size


def _json_shape(objs: Sequence[object]) -> str:
    dicts = [o for o in objs if isinstance(o, dict)]
    if not dicts:
        return "list"

    def most(*keys: str) -> bool:
        return sum(all(k in o for k in keys) for o in dicts) * 2 >= len(dicts)

    def most_hold(key: str, inner: str) -> bool:  # a `key` object holding `inner`, its id left out
        return sum(isinstance(o.get(key), dict) and inner in o[key] for o in dicts) * 2 >= len(dicts)

    # OpenAI's lines say where they go; Mistral's do not
    if most("custom_id", "body") or most_hold("body", "messages"):
        return "batch" if most("url") or most("method") else "mistral-batch"
    if most("custom_id", "params"):
        return "anthropic-batch"
    if most("key", "request") or most_hold("request", "contents"):
        return "gemini-batch"
    if sum(isinstance(o.get("messages"), list) for o in dicts) * 2 >= len(dicts):
        return "finetune"
    return "jsonl"


def _text_fields(objs: Sequence[dict]) -> tuple[tuple[str, ...], str | None]:
    """All top-level fields in order, and the text field to count by default: a usual name, else
    the field whose text is longest on average."""
    fields: dict[str, int] = {}
    for o in objs:
        for k, v in o.items():
            fields[k] = fields.get(k, 0) + (len(v) if isinstance(v, str) else 0)
    names = tuple(fields)
    usual = next((f for f in TEXT_FIELDS if f in fields), None)
    longest = max(fields, key=fields.__getitem__) if fields else None
    return names, usual or (longest if longest and fields[longest] else None)


def _id_field(names: Sequence[str]) -> str | None:
    return next((n for n in ID_NAMES if n in names), None)


def _detect_lines(name: str, head: bytes, size: int, forced: str | None) -> Detected:
    numbered = list(enumerate(split_lines(strip_bom(head)), start=1))
    if len(head) < size and numbered:
        if len(numbered) == 1 and forced is None:
            raise DatasetError(
                f"The first line of {name} is over {mb(MAX_LINE_BYTES)}, the most one row may be: is it a "
                "single JSON value over the whole file? Upload JSON lines (one example a line) or a JSON array."
            )
        numbered = numbered[:-1]  # the last line may be cut
    numbered = [(n, ln) for n, ln in numbered if ln.strip()][:200]
    if not numbered and len(head) >= size:
        raise DatasetError(f"{name} has only blank lines: there is nothing to count.")
    undecodable = [(n, b) for n, ln in numbered for b in [not_utf8(ln)] if b is not None]
    if undecodable and len(undecodable) * 2 > len(numbered):
        n, b = undecodable[0]
        raise DatasetError(
            f"{name} is not UTF-8 text (line {n:,}, byte {b:,}, and most of its first lines): save it as UTF-8 "
            'and upload it again (in Excel: "CSV UTF-8"; in an editor: Save As, encoding UTF-8).'
        )
    lines = [ln for _, ln in numbered]
    objs: list[object] = []
    bad = 0
    for ln in lines:
        try:
            objs.append(json.loads(ln))
        except (ValueError, RecursionError):
            bad += 1
    if forced:
        shape = forced
    elif not lines or bad * 2 > len(lines):
        shape = "list"
    else:
        shape = _json_shape(objs)
    problems = [
        f"Line {n:,} is not UTF-8 text (byte {b:,}): it will be listed as an error. Save the file as UTF-8."
        for n, b in undecodable[:5]
    ]
    if bad and shape != "list":
        problems.append(
            f"{bad} of the first {len(lines)} lines are not valid JSON (they will be listed as errors)."
        )
    dicts = [o for o in objs if isinstance(o, dict)]
    sample = tuple(dicts[:SAMPLE_ROWS]) if shape != "list" else tuple(
        {"text": ln.decode("utf-8", "replace")} for ln in lines[:SAMPLE_ROWS])  # fmt: skip
    names, text_field = _text_fields(dicts)
    if shape in CHAT_SHAPES:
        rows, errors = parse_lines(lines, shape=shape, first_line=1)
        problems += [e.text() for e in errors[:5]]
        if shape == "batch":
            unknown = sorted({k for o in dicts for k in o} - set(BATCH_KEYS))
            if unknown:
                problems.append(f"Keys a Batch request does not have: {', '.join(unknown[:8])}.")
        if shape == "finetune":
            if any(not any(m.role == "system" for m in r.messages) for r in rows):
                problems.append(
                    "Some examples have no system message (allowed; OpenAI's checks warn about it)."
                )
            unknown = sorted(
                {k for o in dicts for k in o} - {"messages", "tools", "functions", "parallel_tool_calls"}
            )
            if unknown:
                problems.append(f"Keys a fine-tuning example does not have: {', '.join(unknown[:8])}.")
        ids = {"gemini-batch": "key", "finetune": None}
        named = Counter(r.model for r in rows if r.model)
        return Detected(name, shape, size, sample, names, (), ids.get(shape, "custom_id"), tuple(problems),
                        models=tuple(m for m, _ in named.most_common()))  # fmt: skip
    if shape == "jsonl":
        if text_field is None:
            problems.append("No field holds text: choose the field to count.")
        return Detected(name, shape, size, sample, names, (text_field,) if text_field else (), _id_field(names),
                        tuple(problems))  # fmt: skip
    return Detected(name, "list", size, sample, ("text",), ("text",), None, tuple(problems))


def _detect_table(name: str, data: Source, shape: str, size: int) -> Detected:
    from . import sources

    try:
        names, sample = sources.table_head(name, data, shape=shape, n=SAMPLE_ROWS)
    except DatasetError:
        raise
    text_cols = [c for c in names if c.lower() in TEXT_COLUMNS]
    if not text_cols:
        lengths = {c: sum(len(str(r.get(c) or "")) for r in sample) for c in names}
        best = max(lengths, key=lengths.__getitem__) if lengths else None
        text_cols = [best] if best and lengths[best] else []
    problems = () if text_cols else ("No column holds text: choose the columns to count.",)
    lower = {c.lower(): c for c in names}
    id_col = next((lower[n] for n in ID_NAMES if n in lower), None)
    return Detected(name, shape, size, tuple(sample), tuple(names), tuple(text_cols), id_col, problems)


def detect(name: str, data: Source, *, shape: str | None = None) -> Detected:
    """The shape of a dataset named `name` (its file name) whose content is `data` (bytes, or
    a path to read from), from its name and first bytes only; `shape` forces one of SHAPES.

    A pasted list is ``detect("pasted.txt", text.encode())``. Raises DatasetError, with the
    reason, for what cannot be counted (a hostile archive, a file over the size limit).
    """
    if shape is not None and shape not in SHAPES:
        raise DatasetError(f"Unknown shape {shape!r}: use one of {', '.join(SHAPES)}.")
    size = check_size(name, data)
    if size == 0:
        raise DatasetError(f"{name} is empty: there is nothing to count.")
    low = name.lower()
    head = read_head(data, 8)
    if shape == "repository" or (shape is None and archive_kind(name)):
        plan = plan_archive(name, data)
        sample = tuple({"path": p} for p in plan.files[:SAMPLE_ROWS])
        problems = () if plan.files else ("Nothing in the archive can be counted (see what was skipped).",)
        return Detected(name, "repository", size, sample, plan.files, (), None, problems,
                        tuple((s.path, s.reason) for s in plan.skipped))  # fmt: skip
    if shape == "parquet" or (shape is None and (low.endswith(".parquet") or head[:4] == b"PAR1")):
        return _detect_table(name, data, "parquet", size)
    if head[:2] in (b"PK", b"\x1f\x8b") and shape is None:
        raise DatasetError(
            f"{name} looks like an archive: name it .zip or .tar.gz to count it as a repository."
        )
    problem = text_problem(name, read_head(data, 8_192))
    if problem:
        raise DatasetError(problem)
    if shape in ("csv", "tsv") or (shape is None and low.endswith((".csv", ".tsv", ".tab"))):
        guess = shape or ("tsv" if low.endswith((".tsv", ".tab")) else "csv")
        table_head = read_head(data)
        head_lines = split_lines(table_head)[: None if len(table_head) >= size else -1]  # the last may be cut
        bad = next(((n, b) for n, ln in enumerate(head_lines, 1) for b in [not_utf8(ln)] if b), None)
        if bad:
            raise DatasetError(
                f"{name} is not UTF-8 text (line {bad[0]:,}, byte {bad[1]:,}): save it as UTF-8 and upload it "
                'again (in Excel: "CSV UTF-8"; in an editor: Save As, encoding UTF-8).'
            )
        return _detect_table(name, data, guess, size)
    lines_head = read_lines_head(data, size)
    if json_array(lines_head, whole=len(lines_head) >= size):
        items = array_lines(name, read_head(data, size))
        if not items:
            raise DatasetError(f"{name} is an empty JSON array: there is nothing to count.")
        d = _detect_lines(name, items, len(items), shape)
        return dataclasses.replace(d, size=size, array_items=items.count(b"\n"))
    if shape is None and low.endswith(".json") and strip_bom(lines_head).lstrip().startswith(b"{"):
        first = strip_bom(lines_head).split(b"\n", 1)[0]
        try:
            json.loads(first)
        except (ValueError, RecursionError):
            raise DatasetError(
                f"{name} is one JSON object over many lines: a set is JSON lines (one example a line) or a "
                "JSON array of examples."
            ) from None
    return _detect_lines(name, lines_head, size, shape)


def pasted(text: str) -> bytes:
    """A pasted list as data for :func:`detect` and :func:`count_dataset`: ``pasted("a\\nb") -> b"a\\nb"``."""
    return io.BytesIO(text.encode("utf-8")).getvalue()


__all__ = [
    "PASTED_LABEL", "PASTED_NAME", "SHAPES", "Detected", "Source", "check_size", "detect", "pasted", "shape_label",
    "source_size",
]  # fmt: skip
