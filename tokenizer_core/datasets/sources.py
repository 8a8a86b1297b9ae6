"""Streaming a dataset into tasks: partitions of a few MB that a worker parses and counts.

Nothing here holds the whole set: a JSONL file is read in blocks and cut after a newline into
chunks of ``chunk_bytes``; a table is read in record batches (pyarrow); an archive one file at a
time. Each :class:`Task` is small, self-contained and picklable, so it can go to a worker
process on this machine or on a team's cluster.

    >>> [t.first_line for t in jsonl_tasks(b"a\\nb\\nc\\n", shape="list", chunk_bytes=2, block=2)]
    [1, 2, 3]
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .archive import ArchivePlan, Skipped, read_files
from .limits import MAX_LINE_BYTES, DatasetError, mb
from .rows import Row, RowError, split_lines
from .textfile import BOM, array_lines, check_array_size, json_array, not_utf8

Source = bytes | str | os.PathLike[str]
CHUNK_BYTES = 4_000_000  # a task's share of a JSONL file (thousands of rows)
TABLE_BATCH_ROWS = 4_096
FILES_PER_TASK = 48  # repository files per task (repomix batches ~50)
FILE_TASK_BYTES = 2_000_000


@dataclass(frozen=True, slots=True)
class Task:
    """One partition: raw JSONL lines (parsed by the worker), or rows already read (tables,
    repository files). `units` is its size in bytes, for progress."""

    index: int
    shape: str
    first_line: int = 1
    data: bytes = b""
    rows: tuple[Row, ...] = ()
    errors: tuple[RowError, ...] = ()  # found while reading (a line over the limit, a bad CSV row)
    units: int = 0
    text_field: str = "text"
    id_field: str | None = None
    skipped: tuple[Skipped, ...] = field(default=())


def table_rows(
    columns: Sequence[Sequence[object]], *, ids: Sequence[object] | None, first_row: int
) -> list[Row]:
    """Text rows from table columns (their cells joined by a blank line; empty cells left out)."""
    n = len(columns[0]) if columns else 0
    out = []
    for i in range(n):
        cells = [c[i] for c in columns]
        text = "\n\n".join(str(v) for v in cells if v is not None and v != "")
        row_no = first_row + i
        rid = str(ids[i]) if ids is not None and ids[i] is not None else f"row {row_no}"
        out.append(Row(rid, row_no, text=text))
    return out


class _Open:
    def __init__(self, data: Source) -> None:
        self.data = data

    def __enter__(self) -> BinaryIO:
        if isinstance(self.data, (bytes, bytearray, memoryview)):
            self.f: BinaryIO = io.BytesIO(bytes(self.data))
        else:
            self.f = open(self.data, "rb")
        return self.f

    def __exit__(self, *exc: object) -> None:
        self.f.close()


def _first_line_read(f: BinaryIO, block: int) -> bytes:
    """The first `block` bytes, or more until a whole first line (at most MAX_LINE_BYTES + `block`)."""
    head = f.read(block)
    while b"\n" not in head and len(head) < MAX_LINE_BYTES + block:
        more = f.read(max(block, len(head)))
        if not more:
            break
        head += more
    return head


def _utf8_checked(chunk: bytes, first_line: int) -> tuple[bytes, tuple[RowError, ...]]:
    """The chunk with each line that is not UTF-8 emptied (line numbers kept), and an error for each."""
    try:
        chunk.decode("utf-8")
        return chunk, ()
    except UnicodeDecodeError:
        pass
    lines, errors = split_lines(chunk), []
    for i, line in enumerate(lines):
        byte = not_utf8(line)
        if byte is not None:
            n = first_line + i
            errors.append(RowError(n, f"line {n}", f"not UTF-8 text (byte {byte:,} of the line)"))
            lines[i] = b""
    return b"\n".join(lines) + (b"\n" if chunk.endswith(b"\n") else b""), tuple(errors)


def jsonl_tasks(
    data: Source, *, shape: str, chunk_bytes: int = CHUNK_BYTES, text_field: str = "text",
    id_field: str | None = None, block: int = 1 << 20,
) -> Iterator[Task]:  # fmt: skip
    """Chunks of whole lines (about `chunk_bytes` each), numbered by their first line. A line
    longer than MAX_LINE_BYTES becomes an error of its own and is not held in memory; a line that
    is not UTF-8 is an error with its line. A UTF-8 byte order mark is skipped; a JSON array of
    examples is read whole (see :func:`textfile.array_lines`) and its items are the lines."""
    index, line_no = 0, 1
    buf = bytearray()
    skipping = False  # inside a line that is over the limit

    def task(chunk: bytes) -> Task:
        chunk, errors = _utf8_checked(chunk, line_no)
        return Task(index, shape, line_no, data=chunk, errors=errors, units=len(chunk), text_field=text_field,
                    id_field=id_field)  # fmt: skip

    with _Open(data) as f:
        size = f.seek(0, os.SEEK_END)
        f.seek(0)
        first = _first_line_read(f, block)
        start = first[len(BOM) :] if first.startswith(BOM) else first
        if json_array(start, whole=len(first) >= size):
            check_array_size("The file", size)
            f.seek(0)
            items = array_lines("The file", f.read())
            yield from jsonl_tasks(items, shape=shape, chunk_bytes=chunk_bytes, text_field=text_field,
                                   id_field=id_field, block=block)  # fmt: skip
            return
        pending: bytes | None = start
        while True:
            block_data, pending = (pending, None) if pending is not None else (f.read(block), None)
            if skipping:
                nl = block_data.find(b"\n")
                if nl < 0 and block_data:
                    continue
                skipping = False
                error = RowError(line_no, f"line {line_no}", f"the line is over {mb(MAX_LINE_BYTES)}")
                yield Task(index, shape, line_no, errors=(error,), text_field=text_field, id_field=id_field)
                index += 1
                line_no += 1
                block_data = block_data[nl + 1 :] if nl >= 0 else b""
            buf += block_data
            while len(buf) >= chunk_bytes:  # cut whole lines of about chunk_bytes
                nl = buf.find(b"\n", chunk_bytes - 1)
                if nl < 0:
                    break
                chunk = bytes(buf[: nl + 1])
                del buf[: nl + 1]
                yield task(chunk)
                index += 1
                line_no += chunk.count(b"\n")
            if not block_data:
                if buf:
                    yield task(bytes(buf))
                return
            if len(buf) > MAX_LINE_BYTES and buf.find(b"\n") < 0:
                buf.clear()
                skipping = True


def _csv_reader(data: Source, *, shape: str, columns: Sequence[str] | None, errors: list[RowError]) -> Any:
    import pyarrow as pa
    from pyarrow import csv

    def bad_row(row: Any) -> str:
        line = row.number or 0
        errors.append(RowError(line, f"line {line}", f"expected {row.expected_columns} columns, found "
                               f"{row.actual_columns}"))  # fmt: skip
        return "skip"

    parse = csv.ParseOptions(delimiter="\t" if shape == "tsv" else ",", newlines_in_values=True,
                             invalid_row_handler=bad_row)  # fmt: skip
    read = csv.ReadOptions(use_threads=False, block_size=1 << 20)
    convert = csv.ConvertOptions(
        include_columns=list(columns) if columns else None,
        column_types={c: pa.string() for c in columns} if columns else None,
        strings_can_be_null=True,
    )
    src = (
        pa.BufferReader(bytes(data)) if isinstance(data, (bytes, bytearray, memoryview)) else os.fspath(data)
    )
    return csv.open_csv(src, read_options=read, parse_options=parse, convert_options=convert)


def _parquet(data: Source) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    src = (
        pa.BufferReader(bytes(data)) if isinstance(data, (bytes, bytearray, memoryview)) else os.fspath(data)
    )
    return pq.ParquetFile(src)


def _table_problem(name: str, exc: Exception) -> DatasetError:
    if "invalid UTF8" in str(exc):  # Arrow's "CSV conversion error to string: invalid UTF8 data"
        return DatasetError(
            f"{name} is not UTF-8 text past its first lines: save it as UTF-8 and upload it again."
        )
    text = str(exc).splitlines()[0][:160] if str(exc) else "it is damaged"
    return DatasetError(f"{name} could not be read as a table ({text}).")


def table_rows_declared(data: Source, *, shape: str) -> int | None:
    """A Parquet table's row count from its footer (None for CSV / TSV: unknown until read)."""
    return _parquet(data).metadata.num_rows if shape == "parquet" else None


def table_head(name: str, data: Source, *, shape: str, n: int) -> tuple[list[str], list[dict[str, Any]]]:
    """The column names and the first `n` rows of a CSV, TSV or Parquet table."""
    import pyarrow as pa

    try:
        if shape == "parquet":
            pf = _parquet(data)
            names = list(pf.schema_arrow.names)
            batch = next(pf.iter_batches(batch_size=n), None)
        else:
            errors: list[RowError] = []
            reader = _csv_reader(data, shape=shape, columns=None, errors=errors)
            names = list(reader.schema.names)
            batch = next(iter(reader), None)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise _table_problem(name, exc) from None
    rows = batch.slice(0, n).to_pylist() if batch is not None else []
    return names, rows


def table_tasks(
    name: str, data: Source, *, shape: str, columns: Sequence[str], id_column: str | None = None,
    batch_rows: int = TABLE_BATCH_ROWS,
) -> Iterator[Task]:  # fmt: skip
    """Tasks of `batch_rows` rows of a table: the chosen columns' cells joined as each row's text."""
    import pyarrow as pa

    if not columns:
        raise DatasetError("Choose at least one column to count.")
    wanted = list(dict.fromkeys([*columns, *([id_column] if id_column else [])]))
    errors: list[RowError] = []
    try:
        if shape == "parquet":
            pf = _parquet(data)
            missing = [c for c in wanted if c not in pf.schema_arrow.names]
            if missing:
                raise DatasetError(
                    f"{name} has no column {missing[0]!r}: choose one of {', '.join(pf.schema_arrow.names)}."
                )
            batches = pf.iter_batches(batch_size=batch_rows, columns=wanted)
        else:
            batches = iter(_csv_reader(data, shape=shape, columns=wanted, errors=errors))
        row_no, index = 1, 0
        for batch in batches:
            for start in range(0, batch.num_rows, batch_rows):
                part = batch.slice(start, batch_rows)
                cols = [part.column(c).to_pylist() for c in columns]
                ids = part.column(id_column).to_pylist() if id_column else None
                rows = table_rows(cols, ids=ids, first_row=row_no)
                found, errors = tuple(errors), []
                yield Task(index, "table", row_no, rows=tuple(rows), errors=found, units=len(rows))
                index += 1
                row_no += part.num_rows
        if errors:
            yield Task(index, "table", row_no, errors=tuple(errors))
    except DatasetError:
        raise
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise _table_problem(name, exc) from None


def repository_tasks(
    data: Source, plan: ArchivePlan, *, files_per_task: int = FILES_PER_TASK
) -> Iterator[Task]:
    """Tasks of a few dozen of the plan's files each (``units``: files; the plan's skipped files
    ride on the first task, files found binary on the task that read them)."""
    rows: list[Row] = []
    skipped: list[Skipped] = list(plan.skipped)
    size, index = 0, 0
    for item in read_files(data, plan):
        if isinstance(item, Skipped):
            skipped.append(item)
            continue
        path, text = item
        rows.append(Row(path, 0, text=text))
        size += len(text)
        if len(rows) >= files_per_task or size >= FILE_TASK_BYTES:
            yield Task(index, "repository", rows=tuple(rows), units=len(rows), skipped=tuple(skipped))
            rows, skipped, size = [], [], 0
            index += 1
    if rows or skipped or index == 0:
        yield Task(index, "repository", rows=tuple(rows), units=len(rows), skipped=tuple(skipped))


__all__ = [
    "CHUNK_BYTES",
    "Task",
    "jsonl_tasks",
    "repository_tasks",
    "table_head",
    "table_rows_declared",
    "table_tasks",
]
