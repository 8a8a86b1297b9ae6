"""The reduce step: tasks' small results joined into per-model summaries, costs and the verdict.

Exact statistics (min, median, p90, p99, max) come from every row's count, kept as one int64
array per model (8 bytes a row: a million rows is 8 MB, whatever their size in bytes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import PurePosixPath

import numpy as np

from ..catalog.choices import resolve_choices
from ..catalog.entries import GOOGLE, MISTRAL, MODELS, ModelEntry, builtin_names
from ..catalog.images import TAKES_NO_IMAGES, ImageCount, ImagePart, image_tokens
from ..catalog.limits import FINE_TUNABLE, FINE_TUNING_SOURCE, output_limit
from ..catalog.prices import model_price
from ..catalog.rates import Rate, Rates
from ..catalog.windows import model_window
from ..workspace.chat import CHAT_FORMATS
from .checks import PROVIDERS, FileFacts, catalog_model, file_flags, fine_tuned_base, judge, limit_problems
from .count import Coded, Counted, CountKey
from .limits import HISTOGRAM_BINS, LARGEST_ROWS, MAX_ERRORS_LISTED, MAX_ROWS_LISTED, DatasetError
from .result import (
    FINE_TUNING_EXAMPLE_CAP,
    MILLION,
    Cost,
    DatasetResult,
    FineTuning,
    FolderTokens,
    ModelSummary,
    Note,
    RepositoryFit,
    RowRef,
    default_epochs,
)
from .rows import CHAT_SHAPES, IMAGE_REFUSED


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


def _output_sum(rate: Rate | None, prompt: np.ndarray, amount: np.ndarray) -> Decimal | None:
    """Output's cost; nothing when there is no output (embeddings have no output price)."""
    if rate is None and not amount.any():
        return Decimal(0)
    return _priced_sum(rate, prompt, amount)


def _costs(target: Target, tokens: np.ndarray, expected: np.ndarray, ceiling: np.ndarray | None, *, on: date,
           prices: Mapping[str, Rates] | None) -> tuple[Cost, ...]:  # fmt: skip
    out = []
    for rate in ("standard", "batch"):
        as_of = provider = ""
        if prices and f"{target.id}:{rate}" in prices:
            rates: Rates | None = prices[f"{target.id}:{rate}"]
            note = "price given"
        elif target.model is None or not target.model.price:
            out.append(Cost(rate, None, None, "no price for an encoding: pick a model"))
            continue
        else:
            p = model_price(target.model, on=on, rate=rate)
            provider = p.ref.split(":", 1)[0] if p.ref else ""
            if p.rate != rate or not p.priced:
                where = f" ({provider})" if provider else ""
                out.append(Cost(rate, None, None, f"no {rate} price for {target.name} in the price source{where}",
                                provider=provider))  # fmt: skip
                continue
            rates, note, as_of = p.rates, p.source, p.as_of
        if rates is None:
            continue
        top = None if ceiling is None else _output_sum(rates.output, tokens, ceiling)
        out.append(Cost(rate, _priced_sum(rates.input, tokens, tokens), _output_sum(rates.output, tokens, expected),
                        note, top, as_of, provider))  # fmt: skip
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


def _global(parts: Sequence[Counted], attr: str) -> dict[int, tuple]:
    """A sparse per-row field of every task, keyed by the row's index in the whole set."""
    out: dict[int, tuple] = {}
    at = 0
    for c in parts:
        out.update((at + i, v) for i, v in getattr(c, attr).items())
        at += c.rows
    return out


class _ImageTokens:
    """Image tokens per row for one model (by its maker's rule, each size counted once), and the
    notes the rule gave (an image by URL, an image that could not be read). An image the provider
    fetches itself (by URL or file id) has no size offline: it is counted at `unknown_size` when
    the user gives one, else at the most its detail can cost."""

    def __init__(self, model_id: str, unknown_size: tuple[int, int] | None = None) -> None:
        self.model_id = model_id
        self.unknown_size = unknown_size
        self._memo: dict[tuple, ImageCount] = {}

    def count(self, part: ImagePart) -> ImageCount:
        size = (part.size.width, part.size.height) if part.size else self.unknown_size
        key = (size, part.detail)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = image_tokens(self.model_id, size, detail=part.detail)
        if part.size is None and size is not None and got.tokens is not None:
            w, h = size
            return ImageCount(got.tokens, got.how, f"an image by URL or file id is counted at the size you gave "
                                                   f"({w:,} x {h:,} px)", exact=False)  # fmt: skip
        return got

    def per_row(
        self, images: Mapping[int, Sequence[ImagePart]], n: int
    ) -> tuple[np.ndarray, dict[int, list[str]]]:
        tokens = np.zeros(n, np.int64)
        notes: dict[int, list[str]] = {}
        for i, parts in images.items():
            for part in parts:
                if part.problem:
                    notes.setdefault(i, []).append(f"an image cannot be read: {part.problem}")
                    continue
                got = self.count(part)
                if got.tokens is None:
                    notes.setdefault(i, []).append(f"an image is not counted: {got.note or got.how}")
                else:
                    tokens[i] += got.tokens
                    if got.note:
                        notes.setdefault(i, []).append(got.note)
        return tokens, notes


def _notes(lines: np.ndarray, per_row: Iterable[Mapping[int, Sequence[str]]]) -> tuple[Note, ...]:
    """Row notes gathered into sentences with how many rows have each."""
    rows: dict[str, list[int]] = {}
    for mapping in per_row:
        for i, texts in mapping.items():
            for t in dict.fromkeys(texts):
                rows.setdefault(t, []).append(i)
    out = []
    for text, idx in rows.items():
        unique = sorted(set(idx))
        out.append(Note(text[:1].upper() + text[1:], len(unique), int(lines[unique[0]]) if len(lines) else 0))
    return tuple(sorted(out, key=lambda n: -n.rows))


def _checked_target(shape: str, targets: Sequence[Target], main: str | None) -> Target | None:
    """The model whose limits the verdict checks: the file's own where it names one, else (a file
    whose model is chosen when the job is created) the first chosen model of the file's provider."""
    if main is not None:
        return next((t for t in targets if t.id == main), None)
    maker = {"gemini-batch": GOOGLE, "mistral-batch": MISTRAL}.get(shape)
    if shape == "finetune":
        return next((t for t in targets if t.id in FINE_TUNABLE), None)
    return next((t for t in targets if maker and t.model and t.model.maker == maker), None)


def summarise(
    name: str, shape: str, parts: Sequence[Counted], targets: Sequence[Target], *,
    not_counted: Sequence[tuple[str, str]] = (), budget: int | None = None, output_tokens: int | None = None,
    output_ratio: float | None = None, tokens_per_minute: int | None = None, training_price: Decimal | None = None,
    epochs: int | None = None, prices: Mapping[str, Rates] | None = None, on: date | None = None, size: int = 0,
    enqueued_limit: int | None = None, url_image_size: tuple[int, int] | None = None, json_array: bool = False,
) -> DatasetResult:  # fmt: skip
    """Join the tasks' results (in task order) into a DatasetResult, with the provider's verdict.

    Output is counted two ways: the ceiling (each row's max_tokens, or the model's output limit
    where a row sets none) and the expectation (`output_tokens` a row, or `output_ratio` of each
    row's ceiling; never over the ceiling). `url_image_size`: the size to count an image by URL
    at (None: the most its detail can cost). `json_array`: the file is a JSON array, not JSON lines."""
    on = on or date.today()
    parts = sorted(parts, key=lambda c: c.index)
    ids = tuple(i for c in parts for i in c.ids)
    n = len(ids)
    lines = np.concatenate([c.lines for c in parts]) if parts else np.zeros(0, np.int64)
    max_tok = np.concatenate([c.max_tokens for c in parts]) if parts else np.zeros(0, np.int64)
    choices = np.concatenate([c.choices for c in parts]) if parts else np.zeros(0, np.int64)
    inputs = np.concatenate([c.inputs for c in parts]) if parts else np.zeros(0, np.int64)
    errors = [e for c in parts for e in c.errors][:MAX_ERRORS_LISTED]
    error_count = sum(c.error_count for c in parts)
    chat = shape in CHAT_SHAPES
    images, row_notes, failures = (
        _global(parts, "images"),
        _global(parts, "notes"),
        _global(parts, "failures"),
    )
    facts = FileFacts(
        shape, size, ids, lines, Coded.join([c.models for c in parts]), Coded.join([c.urls for c in parts]), inputs,
        _global(parts, "problems"), [e for e in errors if e.stage == "read"],
        sum(c.error_count for c in parts) - sum(1 for e in errors if e.stage == "count"), json_array,
    )  # fmt: skip
    flags = file_flags(facts)
    named = Counter(facts.models[i] for i in range(n)) if facts.models.values != [""] else Counter()
    file_models = tuple((m, k) for m, k in named.most_common() if m)
    main = catalog_model(file_models[0][0]) if file_models else None
    in_file = {catalog_model(m) for m, _ in file_models} - {None}
    per_model: dict[str, np.ndarray] = {}
    row_problems: dict[str, dict[int, tuple[str, str]]] = {}
    image_notes: list[Mapping[int, Sequence[str]]] = []
    models = []
    for t in targets:
        key = t.key(chat).key
        tokens = np.concatenate([c.tokens[key] for c in parts]) if parts else np.zeros(0, np.int64)
        ok = tokens >= 0
        img = np.zeros(n, np.int64)
        if images:
            img, notes = _ImageTokens(t.id, url_image_size).per_row(images, n)
            image_notes.append(notes)
            tokens = np.where(ok, tokens + img, tokens)
        per_model[t.id] = tokens
        good = tokens[ok]
        out_limit = output_limit(t.id)
        largest = (np.concatenate([c.largest_input.get(key, np.zeros(c.rows, np.int64)) for c in parts])
                   if any(c.largest_input for c in parts) else None)  # fmt: skip
        tunable = FINE_TUNABLE.get(t.id) if shape == "finetune" else None
        limits = limit_problems(tokens, max_tok, window=t.window, output_limit=out_limit, largest_input=largest,
                                example_limit=tunable.example_limit if tunable else None,
                                fine_tuning=shape == "finetune")  # fmt: skip
        row_problems[t.id] = limits
        limit = min(x for x in (t.window, budget) if x) if (t.window or budget) else None
        over_mask = np.zeros(n, bool)
        over_mask[[i for i, (sev, _) in limits.items() if sev == "fail"]] = True
        if budget:
            over_mask |= ok & (tokens > budget)
        over_idx = np.flatnonzero(over_mask)
        for i, texts in failures.items():  # set in the request itself, whatever the model: not over a limit
            limits.setdefault(i, ("fail", texts[0]))
        if t.id in TAKES_NO_IMAGES:
            for i in images:
                limits.setdefault(i, ("fail", IMAGE_REFUSED))
        largest_idx = (
            np.argsort(-tokens, kind="stable")[:LARGEST_ROWS] if len(tokens) else np.zeros(0, np.int64)
        )
        # output: none for embeddings; the ceiling where every row has one
        # (a training file has no output; each of a request's `n` completions is billed; no output
        # is longer than the model's output limit, nor than what the window leaves after the input)
        no_output = (inputs > 0) | (shape == "finetune")
        ceiling_rows = np.where(max_tok > 0, max_tok, out_limit or 0)
        unknown_ceiling = bool(((ceiling_rows == 0) & ~no_output & ok).any()) or not chat
        if out_limit:
            ceiling_rows = np.minimum(ceiling_rows, out_limit)
        if t.window:
            ceiling_rows = np.minimum(ceiling_rows, np.clip(t.window - tokens, 0, None))
        ceiling_rows = ceiling_rows * choices
        ceiling_rows[no_output] = 0
        if output_tokens:
            expected = np.full(n, output_tokens, np.int64) * choices
            if not unknown_ceiling:
                expected = np.minimum(expected, ceiling_rows)
        elif output_ratio:
            expected = np.floor(ceiling_rows * output_ratio).astype(np.int64)
        else:
            expected = np.zeros(n, np.int64)
        expected[no_output] = 0
        out_total = int(expected[ok].sum())
        ceiling_total = None if unknown_ceiling else int(ceiling_rows[ok].sum())
        ft = None
        if tunable is not None:
            trained = (
                np.concatenate([c.trained[key] for c in parts]) if parts and key in parts[0].trained else None
            )
            examples = int(ok.sum())
            cap = tunable.example_limit or t.window or FINE_TUNING_EXAMPLE_CAP
            per_epoch = int(np.minimum(good, cap).sum())
            price = training_price if training_price is not None else tunable.training_usd_per_million
            note = "price given" if training_price is not None else (
                f"OpenAI's list price for {tunable.snapshot} ({FINE_TUNING_SOURCE})")  # fmt: skip
            ft = FineTuning(
                examples, 0, per_epoch, 0, int(trained[ok].sum()) if trained is not None else 0,
                sum(c.weight0_messages for c in parts), sum(c.weight0_tokens.get(key, 0) for c in parts),
                int((good > cap).sum()), None, default_epochs(examples), cap, price, note,
            ).with_epochs(epochs or 0)  # fmt: skip
        repo = (
            _fit(list(ids), tokens, t.window if budget is None else limit) if shape == "repository" else None
        )
        total = int(good.sum())
        costs = () if shape == "finetune" else _costs(
            t, np.where(ok, tokens, 0), np.where(ok, expected, 0),
            None if ceiling_total is None else np.where(ok, ceiling_rows, 0), on=on, prices=prices)  # fmt: skip
        problem_rows = len(set(flags) | {i for i, (sev, _) in limits.items() if sev != "warn"})
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
            int((~ok).sum()), out_total, costs,
            (total + out_total) / tokens_per_minute if tokens_per_minute else None, ft, repo,
            ceiling_total, out_limit, sum(len(v) for v in images.values()), int(img[ok].sum()),
            t.id in in_file, problem_rows,
        ))  # fmt: skip
    checked = _checked_target(shape, targets, main)
    unchecked = []
    if checked is None and shape in PROVIDERS and shape != "anthropic-batch":
        what = (
            f"count with {MODELS[main].name}, the file's model,"
            if main
            else "count with the model the job will use"
        )
        unchecked.append(f"each row's token limits: {what} to check them")
    if file_models and main is None:
        base = fine_tuned_base(file_models[0][0])
        if base is None:
            unchecked.append(f"the limits of {file_models[0][0]}: a model this app does not know")
        else:  # OpenAI's pricing page lists a fine-tuned model's use apart, above its base model's
            unchecked.append(f"the limits and price of {file_models[0][0]}, a fine-tuned model: count with "
                             f"{MODELS[base].name}, its base, for its tokens; OpenAI prices a fine-tuned model's "
                             f"use above its base model's, so a cost shown for {MODELS[base].name} is below "
                             "this file's")  # fmt: skip
    if shape == "anthropic-batch":
        unchecked.append(
            "token counts and limits: Anthropic publishes no tokenizer; its counting API counts them"
        )
    checked_total = int(per_model[checked.id][per_model[checked.id] >= 0].sum()) if checked else None
    verdict = judge(facts, flags=flags, model=checked.name if checked else None,
                    limits=row_problems[checked.id] if checked else {}, input_total=checked_total,
                    enqueued_limit=enqueued_limit, examples=n, unchecked=unchecked)  # fmt: skip
    skipped = tuple(s for c in parts for s in c.skipped)
    return DatasetResult(name, shape, n, tuple(errors), error_count, tuple(models), tuple(not_counted),
                         skipped, sum(c.units for c in parts), ids, lines, per_model, verdict,
                         _notes(lines, [row_notes, *image_notes]), file_models, flags, row_problems)  # fmt: skip


def top_level(path: str) -> str:
    """``top_level("a/b/c.py") -> "a/"``, ``top_level("x.md") -> "x.md"``"""
    return str(PurePosixPath(path).parts[0]) + ("/" if "/" in path else "")


__all__ = ["Target", "folder_totals", "resolve_targets", "summarise", "top_level"]
