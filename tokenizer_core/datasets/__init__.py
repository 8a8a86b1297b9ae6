"""Whole sets counted per model: a Batch file, a fine-tuning set, a table or a repository.

API (for the Datasets page and notebooks; options are keyword-only)::

    from tokenizer_core.datasets import detect, count_dataset

    d = detect("batch.jsonl", data)             # data: bytes, or a path (read in part, never whole)
    d.shape, d.label, d.sample, d.fields, d.text_fields, d.problems, d.skipped
    r = count_dataset(data, ["gpt-4o", "llama-3.1-8b"], name="batch.jsonl")
    r.model("gpt-4o").total, r.model("gpt-4o").p99, r.model("gpt-4o").cost("batch").total_usd

detect(name, data, *, shape=None) -> Detected
    shape: "batch" (OpenAI Batch requests), "finetune" (chat fine-tuning), "jsonl" (JSON lines,
    a text field), "csv", "tsv", "parquet", "repository" (.zip / .tar.gz), "list" (a text file,
    one text a line; a pasted list is ``pasted(text)``). A JSON array of examples (up to 50 MB)
    is counted as JSON lines of its items (d.array_items). Raises DatasetError (a sentence for
    the user) for a file over MAX_SOURCE_BYTES, a hostile archive, an empty, binary, UTF-16/32
    or non-UTF-8 file, before any work.

count_dataset(source, models, *, name=None, shape=None, detected=None, text_field=None,
              id_field=None, columns=None, id_column=None, budget=None, output_tokens=None,
              tokens_per_minute=None, training_price=None, prices=None, honour_gitignore=True,
              skip_vendored=True, skip_locks=True, skip_secrets=True, engine="auto", progress=None,
              cancel=None, chunk_bytes=CHUNK_BYTES, on=None) -> DatasetResult
    models: catalog model ids ("gpt-4o", "llama-3.1-8b") or tokenizer ids ("o200k_base").
    Chat rows: the whole request in each model's chat format by the workspace's own
    ``count_request`` (messages, tools, overhead); text rows and files: the text.
    engine: "auto" (in-process for a small set, else Dask), "local", "dask", an Engine or a
    distributed Client; TW_DASK_SCHEDULER=tcp://host:8786 sends "dask" to a team's cluster.
    progress(CountProgress(fraction, rows, text)) after each task; cancel: a threading.Event
    (set -> DatasetCancelled). Bad rows are errors with line numbers, never exceptions.

DatasetResult: name, shape, rows, errors (RowError: line, id, problem; first MAX_ERRORS_LISTED),
    error_count, models (ModelSummary per model), not_counted ((name, reason)), skipped
    (repository: Skipped(path, reason)); .model(id); .per_row() -> pyarrow.Table (id, line,
    model, tokens, over_limit); .to_csv() / .to_parquet() -> bytes; .summary_records() /
    .summary_csv().
ModelSummary: rows, total, min, median, p90, p99, max, mean, histogram ((from, to, rows)...),
    window, budget, limit, over, over_rows / largest (RowRef: id, line, tokens), errors,
    output_tokens, costs (Cost: rate "standard" | "batch", input_usd, output_usd, total_usd,
    note), .cost(rate), minutes (under tokens_per_minute), fine_tuning (FineTuning: examples,
    epochs by OpenAI's default rule, billed_tokens, trained_tokens, weight0_messages,
    weight0_tokens, over_cap, training_usd), repository (RepositoryFit: folders, top_files,
    fits, drop, tokens_after_drop).
Charts (``tokenizer_core.datasets.charts``, imported on its own): histogram_chart(models),
    icicle_chart(paths, tokens).
Everything else is reached from its module: ``result`` (Cost, FineTuning, RepositoryFit, RowRef,
    summarise: the reduce, default_epochs: OpenAI's rule), ``rows`` (RowError), ``archive``
    (plan_archive, read_files, Skipped), ``sources`` (jsonl_tasks / table_tasks /
    repository_tasks: streaming tasks), ``count`` (count_task / count_rows: the map step),
    ``engine`` (InProcess, DaskEngine, default_engine), ``limits``.

    >>> r = count_dataset(pasted("hello world\\nhello"), ["o200k_base"], engine="local")
    >>> r.rows, r.model("o200k_base").total, r.model("o200k_base").max
    (2, 3, 2)
"""

from .api import CountProgress, count_dataset
from .checks import Verdict
from .detect import SHAPES, Detected, detect, pasted
from .limits import DatasetCancelled, DatasetError
from .result import DatasetResult, ModelSummary

__all__ = [
    "SHAPES",
    "CountProgress",
    "DatasetCancelled",
    "DatasetError",
    "DatasetResult",
    "Detected",
    "ModelSummary",
    "Verdict",
    "count_dataset",
    "detect",
    "pasted",
]
