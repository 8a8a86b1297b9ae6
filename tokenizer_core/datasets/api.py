"""`count_dataset`: a whole set counted for several models, streamed, on the engine chosen."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from ..catalog.rates import Rates
from .archive import archive_kind, plan_archive
from .count import Counted, CountKey, count_task
from .detect import Detected, Source, check_size, detect
from .engine import Cancel, Engine, engine_for
from .limits import DatasetCancelled, DatasetError
from .reduce import resolve_targets, summarise
from .result import DatasetResult
from .rows import CHAT_SHAPES
from .sources import (
    CHUNK_BYTES,
    TABLE_BATCH_ROWS,
    Task,
    jsonl_tasks,
    repository_tasks,
    table_rows_declared,
    table_tasks,
)

SMALL_BYTES = 2 * CHUNK_BYTES  # a JSONL / CSV this size or less is counted in-process by "auto"
# Chat rows are rendered per model in Python (~0.2-0.3 MB/s for 4 models): counted in the
# caller's process only up to ~1 s of work, since in the app that process is the shared server.
SMALL_CHAT_BYTES = 256_000
SMALL_ROWS = 2 * TABLE_BATCH_ROWS
SMALL_FILES = 96


@dataclass(frozen=True, slots=True)
class CountProgress:
    """How far a count is: `fraction` of the set (None when the size is unknown), rows counted,
    and the rows (or files) in all where the set declares them (a table, an archive)."""

    fraction: float | None
    rows: int
    text: str
    total: int | None = None
    unit: str = "rows"

    def words(self, seconds: float) -> str:
        """``CountProgress(0.25, 100, "", 400).words(3.0) -> "100 of 400 rows, about 9 s left"``"""
        if not self.rows:
            return "Starting..."
        f = self.fraction
        if self.total is not None:
            done = f"{self.rows:,} of {self.total:,} {self.unit}"
        elif f and f >= 0.01:
            done = f"{self.rows:,} of about {round(self.rows / f):,} {self.unit}"
        else:
            done = f"{self.rows:,} {self.unit} so far"
        if f and 0.01 <= f < 1 and seconds > 0:
            left = seconds * (1 - f) / f
            return f"{done}, about {max(1, round(left)):,} s left"
        return done


@dataclass(frozen=True, slots=True)
class _Plan:
    tasks: Iterator[Task]
    total: int | None  # progress units in the whole set (bytes, rows or files)
    unit: str
    small: bool


def _name_of(source: Source, name: str | None) -> str:
    if name:
        return name
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "dataset"
    return os.path.basename(os.fspath(source))


def _plan(name: str, source: Source, det: Detected, size: int, *, text_field: str | None, id_field: str | None,
          columns: Sequence[str] | None, id_column: str | None, chunk_bytes: int, archive: Mapping[str, bool]) -> _Plan:  # fmt: skip
    shape = det.shape
    if shape in (*CHAT_SHAPES, "jsonl", "list"):
        field = text_field or (det.text_fields[0] if det.text_fields else None)
        if shape == "jsonl" and not field:
            raise DatasetError("Choose the JSON field that holds the text to count.")
        tasks = jsonl_tasks(source, shape=shape, chunk_bytes=chunk_bytes, text_field=field or "text",
                            id_field=id_field if id_field is not None else det.id_field)  # fmt: skip
        return _Plan(
            tasks,
            size,
            "bytes",
            size <= (SMALL_CHAT_BYTES if shape in CHAT_SHAPES else SMALL_BYTES),
        )
    if shape in ("csv", "tsv", "parquet"):
        cols = list(columns or det.text_fields)
        if not cols:
            raise DatasetError("Choose the columns that hold the text to count.")
        tasks = table_tasks(name, source, shape=shape, columns=cols, id_column=id_column or det.id_field)
        rows = table_rows_declared(source, shape=shape)
        small = rows <= SMALL_ROWS if rows is not None else size <= SMALL_BYTES
        return _Plan(tasks, rows, "rows", small)
    plan = plan_archive(name, source, **archive)
    return _Plan(repository_tasks(source, plan), len(plan.files), "files", len(plan.files) <= SMALL_FILES)


def count_dataset(
    source: Source,
    models: Sequence[str],
    *,
    name: str | None = None,
    shape: str | None = None,
    detected: Detected | None = None,
    text_field: str | None = None,
    id_field: str | None = None,
    columns: Sequence[str] | None = None,
    id_column: str | None = None,
    budget: int | None = None,
    output_tokens: int | None = None,
    output_ratio: float | None = None,
    tokens_per_minute: int | None = None,
    training_price: Decimal | None = None,
    epochs: int | None = None,
    enqueued_limit: int | None = None,
    url_image_size: tuple[int, int] | None = None,
    prices: Mapping[str, Rates] | None = None,
    honour_gitignore: bool = True,
    skip_vendored: bool = True,
    skip_locks: bool = True,
    skip_secrets: bool = True,
    engine: str | Engine | Any = "auto",
    progress: Callable[[CountProgress], None] | None = None,
    cancel: Cancel | None = None,
    chunk_bytes: int = CHUNK_BYTES,
    on: date | None = None,
) -> DatasetResult:
    """Count every row (or repository file) of `source` for each of `models` (catalog model ids
    such as ``"gpt-4o"``, or tokenizer ids such as ``"o200k_base"``).

    `source` is the data (bytes) or a path; `name` is its file name (the path's by default), which
    says what it is with its first bytes (see :func:`detect`; `shape` or `detected` decide instead).
    Options: `text_field` / `id_field` (JSON lines), `columns` / `id_column` (tables), `budget` (a
    row limit besides each model's window), the expected output (`output_tokens` a row, or
    `output_ratio` of each row's max_tokens; the ceiling, at every row's max_tokens, is always
    given), `tokens_per_minute` (a rate limit: how long the set takes), `enqueued_limit` (your
    Batch queue's enqueued-token limit, checked against the file), `training_price` (USD per
    million training tokens; OpenAI's list price by default) and `epochs` (0 or None: OpenAI's
    default) for fine-tuning, `url_image_size` ((width, height): the size to count an image given
    by URL at; by default the most its detail can cost), `prices` (``{"<model
    id>:standard" | ":batch": Rates}`` replacing the price source's), the repository skips
    (`skip_secrets`: files that may hold secrets, by name and by content),
    `engine` ("auto", "local", "dask", an Engine or a distributed Client), `progress` (called
    with a :class:`CountProgress` after each task) and `cancel` (an Event: set it to stop; raises
    DatasetCancelled). Bad rows never raise: they are counted as errors with their lines.
    """
    name = _name_of(source, name)
    size = check_size(name, source)
    if detected is None and shape in (None, "repository") and archive_kind(name):
        detected = Detected(name, "repository", size)  # planned once, below
    det = detected or detect(name, source, shape=shape)
    targets, not_counted = resolve_targets(models)
    chat = det.shape in CHAT_SHAPES
    keys: tuple[CountKey, ...] = tuple(dict.fromkeys(t.key(chat) for t in targets))
    archive = {"honour_gitignore": honour_gitignore, "skip_vendored": skip_vendored, "skip_locks": skip_locks,
               "skip_secrets": skip_secrets}  # fmt: skip
    plan = _plan(name, source, det, size, text_field=text_field, id_field=id_field, columns=columns,
                 id_column=id_column, chunk_bytes=chunk_bytes, archive=archive)  # fmt: skip
    runner = engine_for(engine, units=0 if plan.small else 1, small=0)
    parts: list[Counted] = []
    done = rows = 0
    started = time.monotonic()
    for counted in runner.map(count_task, plan.tasks, keys, cancel=cancel):
        parts.append(counted)
        done += counted.units
        rows += counted.rows
        if progress is not None:
            frac = min(1.0, done / plan.total) if plan.total else None
            unit = "files" if plan.unit == "files" else "rows"
            exact = plan.total if plan.unit in ("rows", "files") else None
            progress(CountProgress(frac, rows, f"{rows:,} {unit} counted", exact, unit))
        if cancel is not None and cancel.is_set():
            raise DatasetCancelled("The count was cancelled.")
    del started
    return summarise(name, det.shape, parts, targets, not_counted=not_counted, budget=budget,
                     output_tokens=output_tokens, output_ratio=output_ratio, tokens_per_minute=tokens_per_minute,
                     training_price=training_price, epochs=epochs, prices=prices, on=on, size=size,
                     enqueued_limit=enqueued_limit, url_image_size=url_image_size,
                     json_array=det.array_items is not None)  # fmt: skip


__all__ = ["CountProgress", "count_dataset"]
