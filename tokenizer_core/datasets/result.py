"""The reduce step: tasks' small results joined into per-model summaries, costs and exports.

Exact statistics (min, median, p90, p99, max) come from every row's count, kept as one int64
array per model (8 bytes a row: a million rows is 8 MB, whatever their size in bytes).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import PurePosixPath

import numpy as np

from ..catalog.choices import resolve_choices
from ..catalog.entries import ModelEntry, builtin_names
from ..catalog.prices import model_price
from ..catalog.rates import Rate, Rates
from ..catalog.windows import model_window
from ..tokenizers.csvcells import spreadsheet_safe
from ..workspace.chat import CHAT_FORMATS
from .archive import Skipped
from .count import Counted, CountKey
from .limits import HISTOGRAM_BINS, LARGEST_ROWS, MAX_ERRORS_LISTED, MAX_ROWS_LISTED, DatasetError
from .rows import RowError

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
class Target:
    """A picked model (or encoding) resolved to what counts it and the window it has."""

    id: str
    name: str
    tokenizer_id: str
    chat_format: str | None
    window: int | None
    model: ModelEntry | None = None

    def key(self, chat: bool) -> CountKey:
        return CountKey(self.tokenizer_id, self.chat_format if chat else None)


def resolve_targets(choices: Iterable[str]) -> tuple[list[Target], list[tuple[str, str]]]:
    """Catalog model ids or tokenizer ids -> targets, and the ones not counted with the reason."""
    names = builtin_names()
    targets, not_counted = [], []
    for c in resolve_choices(list(choices)):
        if c.tokenizer_id is None:
            not_counted.append((c.name, "no public tokenizer: its maker's API counts it"))
        elif c.tokenizer_id not in names:
            not_counted.append((c.name, "not a model or tokenizer this app knows"))
        else:
            targets.append(
                Target(c.id, c.name, c.tokenizer_id, c.chat_format, model_window(c.model), c.model)
            )
    if not targets and not not_counted:
        raise DatasetError("Choose at least one model to count with.")
    return targets, not_counted


@dataclass(frozen=True, slots=True)
class RowRef:
    """A row named in a list: its id, its line (0 for a file) and its tokens."""

    id: str
    line: int
    tokens: int


@dataclass(frozen=True, slots=True)
class Cost:
    """What the set costs at one rate (standard or batch), in USD; None where there is no price."""

    rate: str
    input_usd: Decimal | None
    output_usd: Decimal | None
    note: str  # where the price comes from, or why there is none

    @property
    def total_usd(self) -> Decimal | None:
        if self.input_usd is None:
            return None
        return self.input_usd + (self.output_usd or Decimal(0))


@dataclass(frozen=True, slots=True)
class FineTuning:
    """What a fine-tuning file trains (OpenAI's rule) for one model."""

    examples: int
    epochs: int
    billed_tokens_per_epoch: int  # sum over examples of min(16,385, tokens)
    billed_tokens: int  # x epochs
    trained_tokens: int  # assistant tokens trained on (weight 1), one epoch
    weight0_messages: int
    weight0_tokens: int  # assistant tokens not trained on (weight 0)
    over_cap: int  # examples longer than 16,385 tokens (cut when trained)
    training_usd: Decimal | None  # at the price given (the price source has no training prices)


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
    output_tokens: int  # expected output: the rows' max_tokens or the chosen average
    costs: tuple[Cost, ...]
    minutes: float | None  # under the tokens-per-minute limit given
    fine_tuning: FineTuning | None = None
    repository: RepositoryFit | None = None

    def cost(self, rate: str) -> Cost | None:
        return next((c for c in self.costs if c.rate == rate), None)


@dataclass(frozen=True, slots=True)
class DatasetResult:
    """A counted set: per-model summaries, errors with their lines, and the per-row counts."""

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

    def model(self, model_id: str) -> ModelSummary:
        return next(m for m in self.models if m.id == model_id)

    def per_row(self):  # -> pyarrow.Table
        """The per-row result, one line per row and model: id, line, model, tokens, over_limit."""
        import pyarrow as pa

        ids, lines, models, tokens, over = [], [], [], [], []
        for m in self.models:
            t = self.per_model[m.id]
            ids.extend(self.ids)
            lines.append(self.lines)
            models.extend([m.id] * len(t))
            tokens.append(t)
            over.append(t > m.limit if m.limit else np.zeros(len(t), bool))
        cat = lambda xs, dt: np.concatenate(xs) if xs else np.zeros(0, dt)  # noqa: E731
        return pa.table({
            "id": pa.array(ids, pa.string()), "line": cat(lines, np.int64), "model": pa.array(models, pa.string()),
            "tokens": cat(tokens, np.int64), "over_limit": cat(over, bool),
        })  # fmt: skip

    def to_csv(self) -> bytes:
        """The per-row result as CSV (text cells made safe for spreadsheets; -1: not counted)."""
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow(["id", "line", "model", "tokens", "over_limit"])
        for m in self.models:
            t = self.per_model[m.id]
            flags = t > m.limit if m.limit else np.zeros(len(t), bool)
            for rid, line, n, f in zip(self.ids, self.lines.tolist(), t.tolist(), flags.tolist()):
                w.writerow([spreadsheet_safe(rid), line, m.id, n, "yes" if f else "no"])
        return out.getvalue().encode("utf-8")

    def to_parquet(self) -> bytes:
        import pyarrow.parquet as pq

        buf = io.BytesIO()
        pq.write_table(self.per_row(), buf)
        return buf.getvalue()

    def summary_records(self) -> list[dict[str, object]]:
        """One record per model: the figures a summary table or CSV shows."""
        out = []
        for m in self.models:
            std, bat = m.cost("standard"), m.cost("batch")
            rec: dict[str, object] = {
                "model": m.name, "counted as": m.counted_as, "rows": m.rows, "total tokens": m.total,
                "min": m.min, "median": m.median, "p90": m.p90, "p99": m.p99, "max": m.max,
                "window": m.window, "budget": m.budget, "rows over": m.over, "errors": m.errors,
                "expected output tokens": m.output_tokens,
                "cost standard (USD)": _money(std.total_usd if std else None),
                "cost batch (USD)": _money(bat.total_usd if bat else None),
                "minutes at the TPM limit": None if m.minutes is None else round(m.minutes, 1),
            }  # fmt: skip
            if m.fine_tuning:
                ft = m.fine_tuning
                rec.update({"epochs": ft.epochs, "billed training tokens": ft.billed_tokens,
                            "weight-0 messages": ft.weight0_messages,
                            "training cost (USD)": _money(ft.training_usd)})  # fmt: skip
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


def _priced_sum(rate: Rate | None, prompt: np.ndarray, amount: np.ndarray) -> Decimal | None:
    """Sum over rows of rate.at(prompt tokens) x amount, exactly (each tier's rows together)."""
    if rate is None:
        return None
    total = Decimal(0)
    starts = [s for s, _ in rate.tiers]
    bounds = [-1, *starts, np.iinfo(np.int64).max]
    for lo, hi in zip(bounds, bounds[1:]):
        mask = (prompt > lo) & (prompt <= hi)
        n = int(amount[mask].sum())
        if n:
            total += rate.at(hi if hi != bounds[-1] else lo + 1) * Decimal(n) / MILLION
    return total


def _costs(target: Target, tokens: np.ndarray, outputs: np.ndarray, *, on: date,
           prices: Mapping[str, Rates] | None) -> tuple[Cost, ...]:  # fmt: skip
    out = []
    for rate in ("standard", "batch"):
        if prices and f"{target.id}:{rate}" in prices:
            rates: Rates | None = prices[f"{target.id}:{rate}"]
            note = "price given"
        elif target.model is None or not target.model.price:
            out.append(Cost(rate, None, None, "no price for an encoding: pick a model"))
            continue
        else:
            p = model_price(target.model, on=on, rate=rate)
            if p.rate != rate or not p.priced:
                out.append(Cost(rate, None, None, f"no {rate} price in the price source"))
                continue
            rates, note = p.rates, p.source
        if rates is None:
            continue
        out.append(Cost(rate, _priced_sum(rates.input, tokens, tokens), _priced_sum(rates.output, tokens, outputs),
                        note))  # fmt: skip
    return tuple(out)


def _histogram(t: np.ndarray, bins: int = HISTOGRAM_BINS) -> tuple[tuple[int, int, int], ...]:
    if not len(t):
        return ()
    hi = int(t.max())
    step = max(1, -(-(hi + 1) // bins))
    edges = np.arange(0, hi + step + 1, step)
    counts, _ = np.histogram(t, bins=edges)
    return tuple((int(a), int(b), int(c)) for a, b, c in zip(edges[:-1], edges[1:], counts))


def _refs(idx: np.ndarray, ids: Sequence[str], lines: np.ndarray, t: np.ndarray) -> tuple[RowRef, ...]:
    return tuple(RowRef(ids[i], int(lines[i]), int(t[i])) for i in idx)


def folder_totals(paths: Sequence[str], tokens: np.ndarray) -> list[FolderTokens]:
    """Tokens and files of every folder (each file counts in all its ancestors; "" is the top).

    ``folder_totals(["a/x.py", "a/b/y.py", "z.md"], np.array([1, 2, 4]))``
    -> ``[("", 7, 3), ("a", 3, 2), ("a/b", 2, 1)]`` (as FolderTokens, largest first)
    """
    tot: dict[str, list[int]] = {}
    for p, n in zip(paths, tokens.tolist()):
        parts = p.split("/")[:-1]
        for k in range(len(parts) + 1):
            f = "/".join(parts[:k])
            cell = tot.setdefault(f, [0, 0])
            cell[0] += max(n, 0)
            cell[1] += 1
    return sorted((FolderTokens(f, a, b) for f, (a, b) in tot.items()), key=lambda x: (-x.tokens, x.path))


def _fit(paths: Sequence[str], tokens: np.ndarray, window: int | None) -> RepositoryFit:
    folders = folder_totals(paths, tokens)
    total = int(np.clip(tokens, 0, None).sum())
    top_idx = np.argsort(-tokens, kind="stable")[:LARGEST_ROWS]
    top = tuple(RowRef(paths[i], 0, int(tokens[i])) for i in top_idx)
    if window is None:
        return RepositoryFit(tuple(folders), top, None, (), total)
    # top-level entries (folders and the top's files), largest first, dropped until the rest fits
    entries: dict[str, int] = {}
    for p, n in zip(paths, tokens.tolist()):
        head = top_level(p)
        entries[head] = entries.get(head, 0) + max(n, 0)
    left, drop = total, []
    for name, n in sorted(entries.items(), key=lambda kv: -kv[1]):
        if left <= window:
            break
        drop.append(name)
        left -= n
    return RepositoryFit(tuple(folders), top, total <= window, tuple(drop), left)


def summarise(
    name: str, shape: str, parts: Sequence[Counted], targets: Sequence[Target], *,
    not_counted: Sequence[tuple[str, str]] = (), budget: int | None = None, output_tokens: int | None = None,
    tokens_per_minute: int | None = None, training_price: Decimal | None = None,
    prices: Mapping[str, Rates] | None = None, on: date | None = None,
) -> DatasetResult:  # fmt: skip
    """Join the tasks' results (in task order) into a DatasetResult."""
    on = on or date.today()
    parts = sorted(parts, key=lambda c: c.index)
    ids = tuple(i for c in parts for i in c.ids)
    lines = np.concatenate([c.lines for c in parts]) if parts else np.zeros(0, np.int64)
    max_tok = np.concatenate([c.max_tokens for c in parts]) if parts else np.zeros(0, np.int64)
    errors = [e for c in parts for e in c.errors][:MAX_ERRORS_LISTED]
    error_count = sum(c.error_count for c in parts)
    chat = shape in ("batch", "finetune")
    outputs = np.where(max_tok > 0, max_tok, output_tokens or 0).astype(np.int64)
    per_model: dict[str, np.ndarray] = {}
    models = []
    for t in targets:
        key = t.key(chat).key
        tokens = np.concatenate([c.tokens[key] for c in parts]) if parts else np.zeros(0, np.int64)
        per_model[t.id] = tokens
        ok = tokens >= 0
        good = tokens[ok]
        limit = min(x for x in (t.window, budget) if x) if (t.window or budget) else None
        over_idx = np.flatnonzero(tokens > limit) if limit else np.zeros(0, np.int64)
        largest_idx = (
            np.argsort(-tokens, kind="stable")[:LARGEST_ROWS] if len(tokens) else np.zeros(0, np.int64)
        )
        out_total = int(outputs[ok].sum())
        ft = None
        if shape == "finetune":
            trained = (
                np.concatenate([c.trained[key] for c in parts]) if parts and key in parts[0].trained else None
            )
            examples = int(ok.sum())
            epochs = default_epochs(examples)
            per_epoch = int(np.minimum(good, FINE_TUNING_EXAMPLE_CAP).sum())
            ft = FineTuning(
                examples, epochs, per_epoch, per_epoch * epochs,
                int(trained[ok].sum()) if trained is not None else 0,
                sum(c.weight0_messages for c in parts), sum(c.weight0_tokens.get(key, 0) for c in parts),
                int((good > FINE_TUNING_EXAMPLE_CAP).sum()),
                training_price * per_epoch * epochs / MILLION if training_price is not None else None,
            )  # fmt: skip
        repo = (
            _fit(list(ids), tokens, t.window if budget is None else limit) if shape == "repository" else None
        )
        total = int(good.sum())
        models.append(ModelSummary(
            t.id, t.name, t.tokenizer_id,
            f"the whole request ({CHAT_FORMATS[t.chat_format].name})" if chat and t.chat_format else "text",
            int(ok.sum()), total, int(good.min()) if len(good) else 0,
            float(np.median(good)) if len(good) else 0.0,
            float(np.percentile(good, 90)) if len(good) else 0.0,
            float(np.percentile(good, 99)) if len(good) else 0.0,
            int(good.max()) if len(good) else 0, float(good.mean()) if len(good) else 0.0,
            _histogram(good), t.window, budget, limit, len(over_idx),
            _refs(over_idx[:MAX_ROWS_LISTED], ids, lines, tokens), _refs(largest_idx, ids, lines, tokens),
            int((~ok).sum()), out_total,
            _costs(t, np.where(ok, tokens, 0), np.where(ok, outputs, 0), on=on, prices=prices),
            (total + out_total) / tokens_per_minute if tokens_per_minute else None, ft, repo,
        ))  # fmt: skip
    skipped = tuple(s for c in parts for s in c.skipped)
    return DatasetResult(name, shape, len(ids), tuple(errors), error_count, tuple(models), tuple(not_counted),
                         skipped, sum(c.units for c in parts), ids, lines, per_model)  # fmt: skip


def top_level(path: str) -> str:
    """``top_level("a/b/c.py") -> "a/"``, ``top_level("x.md") -> "x.md"``"""
    return str(PurePosixPath(path).parts[0]) + ("/" if "/" in path else "")


__all__ = [
    "FINE_TUNING_EXAMPLE_CAP", "Cost", "DatasetResult", "FineTuning", "FolderTokens", "ModelSummary",
    "RepositoryFit", "RowRef", "Target", "default_epochs", "folder_totals", "resolve_targets", "summarise",
]  # fmt: skip
