"""A counted set's result: per-model summaries, costs, the verdict, and the exports.

Built by the reduce step (:mod:`.reduce`); pure data with its CSV and Parquet writers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

import numpy as np

from ..tokenizers.csvcells import spreadsheet_safe
from .archive import Skipped
from .checks import Verdict
from .rows import REQUEST_FAILURES, RowError

MILLION = Decimal(1_000_000)

# OpenAI's fine-tuning data checks (Cookbook "Chat_finetuning_data_prep"): the default number of
# epochs aims at 3, raised or lowered so that examples x epochs stays within 100..25,000, and kept
# within 1..25; an example is billed up to 16,385 tokens.
TARGET_EPOCHS = 3
MIN_TARGET_EXAMPLES = 100
MAX_TARGET_EXAMPLES = 25_000
MIN_DEFAULT_EPOCHS = 1
MAX_DEFAULT_EPOCHS = 25
FINE_TUNING_EXAMPLE_CAP = 16_385


def default_epochs(examples: int) -> int:
    """OpenAI's default number of fine-tuning epochs for a training file of `examples` rows.

    >>> default_epochs(50), default_epochs(10), default_epochs(3), default_epochs(9_000), default_epochs(40_000)
    (3, 10, 25, 2, 1)
    """
    if examples <= 0:
        return 0
    if examples * TARGET_EPOCHS < MIN_TARGET_EXAMPLES:
        return min(MAX_DEFAULT_EPOCHS, MIN_TARGET_EXAMPLES // examples)
    if examples * TARGET_EPOCHS > MAX_TARGET_EXAMPLES:
        return max(MIN_DEFAULT_EPOCHS, MAX_TARGET_EXAMPLES // examples)
    return TARGET_EPOCHS


@dataclass(frozen=True, slots=True)
class RowRef:
    """A row named in a list: its id, its line (0 for a file) and its tokens."""

    id: str
    line: int
    tokens: int


@dataclass(frozen=True, slots=True)
class Cost:
    """What the set costs at one rate (standard or batch), in USD; None where there is no price.

    Two figures, as a job's cost is not known before it runs: the **expectation** (input plus the
    output the user expects: ``total_usd``) and the **ceiling** (input plus every row's output at
    its max_tokens, or the model's output limit where a row sets none: ``ceiling_usd``; None when
    some row has neither)."""

    rate: str
    input_usd: Decimal | None
    output_usd: Decimal | None  # the expected output
    note: str  # where the price comes from, or why there is none
    ceiling_output_usd: Decimal | None = None
    as_of: str = ""  # the date the price source says the price was checked
    provider: str = ""  # who sells the model at this price ("openai")

    @property
    def total_usd(self) -> Decimal | None:
        if self.input_usd is None:
            return None
        return self.input_usd + (self.output_usd or Decimal(0))

    @property
    def ceiling_usd(self) -> Decimal | None:
        if self.input_usd is None or self.ceiling_output_usd is None:
            return None
        return self.input_usd + self.ceiling_output_usd


@dataclass(frozen=True, slots=True)
class FineTuning:
    """What a fine-tuning file trains (OpenAI's rule) for one model OpenAI fine-tunes."""

    examples: int
    epochs: int  # the epochs chosen, or OpenAI's default for this many examples
    billed_tokens_per_epoch: int  # sum over examples of min(example limit, tokens)
    billed_tokens: int  # x epochs
    trained_tokens: int  # assistant tokens trained on (weight 1), one epoch
    weight0_messages: int
    weight0_tokens: int  # assistant tokens not trained on (weight 0)
    over_cap: int  # examples longer than the example limit (cut when trained)
    training_usd: Decimal | None  # at the training price (the user's, else OpenAI's list price)
    default_epochs: int = 0  # OpenAI's default for this many examples
    example_limit: int = FINE_TUNING_EXAMPLE_CAP
    training_price: Decimal | None = None  # USD per 1M training tokens
    price_note: str = ""  # where the training price comes from

    def with_epochs(self, epochs: int) -> FineTuning:
        """The same file trained for `epochs` (0: OpenAI's default)."""
        n = epochs or self.default_epochs
        usd = (
            self.training_price * self.billed_tokens_per_epoch * n / MILLION if self.training_price else None
        )
        return replace(self, epochs=n, billed_tokens=self.billed_tokens_per_epoch * n, training_usd=usd)


@dataclass(frozen=True, slots=True)
class FolderTokens:
    path: str  # "" for the repository's top
    tokens: int
    files: int


@dataclass(frozen=True, slots=True)
class RepositoryFit:
    """A repository against one model's window: folders by tokens, the top files, whether it
    fits, and which top-level folders (or files) to drop to fit (largest first)."""

    folders: tuple[FolderTokens, ...]
    top_files: tuple[RowRef, ...]
    fits: bool | None  # None: no window known
    drop: tuple[str, ...]
    tokens_after_drop: int


@dataclass(frozen=True, slots=True)
class ModelSummary:
    """One model's figures for the whole set."""

    id: str
    name: str
    tokenizer_id: str
    counted_as: str  # "the whole request in <format>" | "text"
    rows: int
    total: int
    min: int
    median: float
    p90: float
    p99: float
    max: int
    mean: float
    histogram: tuple[tuple[int, int, int], ...]  # (from, to, rows): bins of the per-row counts
    window: int | None
    budget: int | None
    limit: int | None  # what a row is measured against: the smaller of window and budget
    over: int  # rows over `limit`
    over_rows: tuple[RowRef, ...]  # the first MAX_ROWS_LISTED of them
    largest: tuple[RowRef, ...]
    errors: int  # rows this model could not count (its chat format refused them)
    output_tokens: int  # the expected output: the average or share of max_tokens the user gave
    costs: tuple[Cost, ...]
    minutes: float | None  # under the tokens-per-minute limit given
    fine_tuning: FineTuning | None = None
    repository: RepositoryFit | None = None
    output_ceiling: int | None = None  # every row's max_tokens (or the output limit); None: unknown
    output_limit: int | None = None  # the model's output limit, where known
    images: int = 0  # images in the rows counted
    image_tokens: int = 0  # their tokens, by the model's maker's rule (in `total`)
    in_file: bool = False  # a model the file's requests name (else a "what if")
    problem_rows: int = 0  # rows the provider would refuse or fail for this model

    def cost(self, rate: str) -> Cost | None:
        return next((c for c in self.costs if c.rate == rate), None)


@dataclass(frozen=True, slots=True)
class Note:
    """Something counted approximately or not at all, in a sentence, and on how many rows."""

    text: str
    rows: int
    first_line: int


@dataclass(frozen=True, slots=True)
class DatasetResult:
    """A counted set: per-model summaries, errors with their lines, and the per-row counts; for a
    provider's job file, its verdict and each row's problem."""

    name: str
    shape: str
    rows: int
    errors: tuple[RowError, ...]
    error_count: int
    models: tuple[ModelSummary, ...]
    not_counted: tuple[tuple[str, str], ...]
    skipped: tuple[Skipped, ...] = ()
    units: int = 0
    ids: tuple[str, ...] = field(default=(), repr=False)
    lines: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64), repr=False)
    per_model: Mapping[str, np.ndarray] = field(
        default_factory=dict, repr=False
    )  # model id -> tokens per row
    verdict: Verdict | None = None
    notes: tuple[Note, ...] = ()
    file_models: tuple[tuple[str, int], ...] = ()  # the models the requests name, with their rows
    flags: Mapping[int, Sequence[str]] = field(default_factory=dict, repr=False)  # row -> file-level problems
    row_problems: Mapping[str, Mapping[int, tuple[str, str]]] = field(
        default_factory=dict, repr=False
    )  # model id -> row -> (severity, sentence)

    def model(self, model_id: str) -> ModelSummary:
        return next(m for m in self.models if m.id == model_id)

    def problems(self, model_id: str) -> list[str]:
        """Each row's problem for one model, in words ("" where the provider takes the row): the
        file's flags on it, then its limits (warnings, which the provider takes, are left out)."""
        limits = self.row_problems.get(model_id, {})
        out = [""] * len(self.ids)
        for i in set(self.flags) | set(limits):
            texts = list(self.flags.get(i, ()))
            if i in limits and limits[i][0] != "warn":
                texts.append(limits[i][1])
            out[i] = "; ".join(texts)
        return out

    def over_limit(self, m: ModelSummary) -> np.ndarray:
        """Each row over the model's limit, as the summary's "Over the limit" counts them: its input
        over the window or budget, or its input and max_tokens over what the model takes."""
        t = self.per_model[m.id]
        over = t > m.limit if m.limit else np.zeros(len(t), bool)
        fails = [i for i, (severity, text) in self.row_problems.get(m.id, {}).items()
                 if severity == "fail" and text not in REQUEST_FAILURES]  # fmt: skip
        over[fails] = True
        return over

    def per_row(self):  # -> pyarrow.Table
        """The per-row result, one line per row and model: id, line, model, tokens, over_limit, problem."""
        import pyarrow as pa

        ids, lines, models, tokens, over, problems = [], [], [], [], [], []
        for m in self.models:
            t = self.per_model[m.id]
            ids.extend(self.ids)
            lines.append(self.lines)
            models.extend([m.id] * len(t))
            tokens.append(t)
            over.append(self.over_limit(m))
            problems.extend(self.problems(m.id))
        cat = lambda xs, dt: np.concatenate(xs) if xs else np.zeros(0, dt)  # noqa: E731
        return pa.table({
            "id": pa.array(ids, pa.string()), "line": cat(lines, np.int64), "model": pa.array(models, pa.string()),
            "tokens": cat(tokens, np.int64), "over_limit": cat(over, bool), "problem": pa.array(problems, pa.string()),
        })  # fmt: skip

    def to_csv(self) -> bytes:
        """The per-row result as CSV (text cells made safe for spreadsheets; -1: not counted)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["id", "line", "model", "tokens", "over_limit", "problem"])
        for m in self.models:
            t = self.per_model[m.id]
            flags = self.over_limit(m)
            rows = zip(self.ids, self.lines.tolist(), t.tolist(), flags.tolist(), self.problems(m.id))
            for rid, line, n, f, problem in rows:
                w.writerow([spreadsheet_safe(rid), line, m.id, n, "yes" if f else "no",
                            spreadsheet_safe(problem)])  # fmt: skip
        return out.getvalue().encode("utf-8")

    def to_parquet(self) -> bytes:
        import pyarrow.parquet as pq

        buf = io.BytesIO()
        pq.write_table(self.per_row(), buf)
        return buf.getvalue()

    def with_epochs(self, epochs: int) -> DatasetResult:
        """The result with fine-tuning figures for `epochs` (0: OpenAI's default), as the page shows it."""
        if self.shape != "finetune":
            return self
        models = tuple(
            replace(m, fine_tuning=m.fine_tuning.with_epochs(epochs)) if m.fine_tuning else m
            for m in self.models
        )
        return replace(self, models=models)

    def summary_records(self) -> list[dict[str, object]]:
        """One record per model: the figures a summary table or CSV shows."""
        out = []
        for m in self.models:
            rec: dict[str, object] = {
                "model": m.name, "in the file": "yes" if m.in_file else "no", "counted as": m.counted_as,
                "rows": m.rows, "total tokens": m.total, "image tokens": m.image_tokens, "min": m.min,
                "median": round(m.median, 1), "p90": round(m.p90, 1), "p99": round(m.p99, 1), "max": m.max,
                "window": m.window, "output limit": m.output_limit, "budget": m.budget,
                "rows over": m.over, "rows with a problem": m.problem_rows, "errors": m.errors,
            }  # fmt: skip
            if self.shape != "finetune":
                std, bat = m.cost("standard"), m.cost("batch")
                rec.update({
                    "expected output tokens": m.output_tokens, "output tokens at max_tokens": m.output_ceiling,
                    "expected cost standard (USD)": _money(std.total_usd if std else None),
                    "expected cost batch (USD)": _money(bat.total_usd if bat else None),
                    "ceiling cost standard (USD)": _money(std.ceiling_usd if std else None),
                    "ceiling cost batch (USD)": _money(bat.ceiling_usd if bat else None),
                    "price source": std.note if std else "",
                    "minutes at the TPM limit": None if m.minutes is None else round(m.minutes, 1),
                })  # fmt: skip
            if m.fine_tuning:
                ft = m.fine_tuning
                rec.update({"epochs": ft.epochs, "billed training tokens": ft.billed_tokens,
                            "weight-0 messages": ft.weight0_messages,
                            "training cost (USD)": _money(ft.training_usd),
                            "training price (USD per 1M)": _money(ft.training_price),
                            "training price source": ft.price_note})  # fmt: skip
            out.append(rec)
        return out

    def summary_csv(self) -> bytes:
        recs = self.summary_records()
        out = io.StringIO()
        keys = list(dict.fromkeys(k for r in recs for k in r))
        w = csv.DictWriter(out, keys, lineterminator="\n")
        w.writeheader()
        for r in recs:
            w.writerow({k: spreadsheet_safe(v) for k, v in r.items()})
        return out.getvalue().encode("utf-8")


def _money(v: Decimal | None) -> float | None:
    return None if v is None else float(round(v, 6))


__all__ = [
    "FINE_TUNING_EXAMPLE_CAP", "Cost", "DatasetResult", "FineTuning", "FolderTokens", "ModelSummary", "Note",
    "MILLION", "RepositoryFit", "RowRef", "default_epochs",
]  # fmt: skip
