"""The map step: one task's rows counted for every model, in the worker that runs it (pure).

Chat rows are counted as the whole request in each model's chat format by the workspace's own
:func:`tokenizer_core.workspace.chat.count_request` (messages, tools, per-message overhead), the
same call the workspace makes for one request; text rows and repository files as text
(``Tokenizer.count_many``, one batched call per tokenizer). Models that share a tokenizer and a
chat format are counted once (:class:`CountKey`).

    >>> from tokenizer_core.datasets.sources import Task
    >>> from tokenizer_core.datasets.rows import Row
    >>> key = CountKey("o200k_base", None)
    >>> count_task(Task(0, "list", rows=(Row("a", 1, text="hello world"),)), (key,)).tokens[key.key].tolist()
    [2]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..catalog.images import ImagePart
from ..tokenizers.encoders import Tokenizer
from ..tokenizers.registry import builtin
from ..workspace.chat import count_request
from ..workspace.formats import ChatRenderError
from .archive import Skipped
from .limits import MAX_ERRORS_LISTED
from .rows import Row, RowError, parse_lines, split_lines
from .sources import Task


@dataclass(frozen=True, slots=True)
class CountKey:
    """What one count depends on: the tokenizer, and the chat format for chat rows (None: as text)."""

    tokenizer_id: str
    chat_format: str | None

    @property
    def key(self) -> str:
        return f"{self.tokenizer_id}/{self.chat_format or 'text'}"


@dataclass(slots=True)
class Coded:
    """A column of a few distinct strings, one a row, kept as codes into its values.

    ``Coded.of(["gpt-4o", "gpt-4o", ""]).codes.tolist() -> [0, 0, 1]``
    """

    values: list[str]
    codes: np.ndarray  # int32, an index into values per row

    @classmethod
    def of(cls, column: Sequence[str]) -> Coded:
        index: dict[str, int] = {}
        codes = np.fromiter((index.setdefault(v, len(index)) for v in column), np.int32, len(column))
        return cls(list(index), codes)

    @classmethod
    def join(cls, parts: Sequence[Coded]) -> Coded:
        """Columns one after another, with one list of values."""
        index: dict[str, int] = {}
        codes = []
        for p in parts:
            remap = np.fromiter((index.setdefault(v, len(index)) for v in p.values), np.int32, len(p.values))
            codes.append(remap[p.codes] if len(p.codes) else p.codes)
        return cls(list(index), np.concatenate(codes) if codes else np.zeros(0, np.int32))

    def __getitem__(self, i: int) -> str:
        return self.values[int(self.codes[i])]


def _sparse(rows: Sequence[Row], attr: str) -> dict[int, tuple]:
    return {i: v for i, r in enumerate(rows) if (v := getattr(r, attr))}


@dataclass(slots=True)
class Counted:
    """A task's result: small arrays, one value per row, and what went wrong (capped). What only
    some rows have (images, parts not counted, problems) is kept by row index within the task."""

    index: int
    first_line: int
    ids: list[str]
    lines: np.ndarray  # int64, 1-based line (0 for repository files)
    chars: np.ndarray  # int64, characters counted
    max_tokens: np.ndarray  # int64, the row's own max_tokens (0: none given)
    choices: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # completions a row asks for
    tokens: dict[str, np.ndarray] = field(default_factory=dict)  # CountKey.key -> int64 (-1: not counted)
    models: Coded = field(default_factory=lambda: Coded.of([]))  # the model each request names
    urls: Coded = field(default_factory=lambda: Coded.of([]))  # OpenAI Batch: each request's endpoint
    inputs: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # embeddings: inputs a row
    largest_input: dict[str, np.ndarray] = field(
        default_factory=dict
    )  # embeddings: its largest input's tokens
    images: dict[int, tuple[ImagePart, ...]] = field(default_factory=dict)
    notes: dict[int, tuple[str, ...]] = field(default_factory=dict)
    problems: dict[int, tuple[str, ...]] = field(default_factory=dict)
    failures: dict[int, tuple[str, ...]] = field(default_factory=dict)  # what fails when it runs
    trained: dict[str, np.ndarray] = field(default_factory=dict)  # fine-tuning: assistant tokens trained on
    weight0_messages: int = 0
    weight0_tokens: dict[str, int] = field(default_factory=dict)
    errors: list[RowError] = field(default_factory=list)
    error_count: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    units: int = 0

    @property
    def rows(self) -> int:
        return len(self.ids)


def tokenizer(tokenizer_id: str) -> Tokenizer:
    """A built-in tokenizer, loaded once per process (each worker keeps its own: the registry's
    one cache, so a worker that also ran page jobs holds it once)."""
    return builtin(tokenizer_id)


MEMO_CHARS = 4_096  # texts up to this long have their counts remembered
MEMO_ENTRIES = 20_000
# ...and all of them together up to this many characters: a set whose every row is different
# (each user message once) would otherwise keep 20,000 texts, up to 80 MB, in every worker
MEMO_TOTAL_CHARS = 2_000_000


class RememberedCounts:
    """A tokenizer that remembers the counts of short texts: the role names, the template's
    pieces and a system message that a Batch or fine-tuning file repeats on every row are
    counted once per worker instead of once per row. Counts are the tokenizer's own (a count
    depends on the text alone); everything else is the tokenizer's.

    ``RememberedCounts(t).count("system") == t.count("system")``
    """

    def __init__(self, tok: Tokenizer) -> None:
        self._tok = tok
        self._memo: dict[tuple[str, bool], int] = {}
        self._chars = 0  # of the texts in the memo
        self._specials: Mapping[str, int] | None = None

    def count(self, text: str, *, allow_special: bool = False) -> int:
        if len(text) > MEMO_CHARS:
            return self._tok.count(text, allow_special=allow_special)
        key = (text, allow_special)
        n = self._memo.get(key)
        if n is None:
            if len(self._memo) >= MEMO_ENTRIES or self._chars + len(text) > MEMO_TOTAL_CHARS:
                self._memo.clear()
                self._chars = 0
            n = self._memo[key] = self._tok.count(text, allow_special=allow_special)
            self._chars += len(text)
        return n

    def count_many(self, texts: Sequence[str], *, allow_special: bool = False) -> list[int]:
        return [self.count(t, allow_special=allow_special) for t in texts]

    @property
    def special_tokens(self) -> Mapping[str, int]:
        if self._specials is None:
            self._specials = self._tok.special_tokens
        return self._specials

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tok, name)


@functools.cache
def remembering(tokenizer_id: str) -> Tokenizer:
    """The process's tokenizer for chat rows, as a RememberedCounts (one per tokenizer)."""
    return cast(Tokenizer, RememberedCounts(tokenizer(tokenizer_id)))


def _chat_as_text(row: Row) -> str:
    return "\n".join(m.content for m in row.messages)


def _problem(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def count_rows(rows: Sequence[Row], keys: Sequence[CountKey], *, fine_tuning: bool = False) -> Counted:
    """Count rows for each key (see the module's doc); errors carry the row's line."""
    n = len(rows)
    out = Counted(
        index=0, first_line=rows[0].line if rows else 0, ids=[r.id for r in rows],
        lines=np.fromiter((r.line for r in rows), np.int64, n),
        chars=np.fromiter((len(r.text) + sum(len(m.content) for m in r.messages) for r in rows), np.int64, n),
        max_tokens=np.fromiter((r.max_tokens or 0 for r in rows), np.int64, n),
        choices=np.fromiter((r.choices for r in rows), np.int64, n),
        models=Coded.of([r.model for r in rows]), urls=Coded.of([r.url for r in rows]),
        inputs=np.fromiter((len(r.inputs) + len(r.token_inputs) for r in rows), np.int64, n),
        images=_sparse(rows, "images"), notes=_sparse(rows, "notes"), problems=_sparse(rows, "problems"),
        failures=_sparse(rows, "failures"),
    )  # fmt: skip
    if any(r.inputs for r in rows):
        out.chars += np.fromiter((sum(len(t) for t in r.inputs) for r in rows), np.int64, n)
    text_idx = [i for i, r in enumerate(rows) if not r.chat and not r.inputs and not r.token_inputs]
    input_idx = [i for i, r in enumerate(rows) if r.inputs or r.token_inputs]
    chat_idx = [i for i, r in enumerate(rows) if r.chat]
    by_tokenizer: dict[str, np.ndarray] = {}  # text rows' counts, once per tokenizer
    for key in keys:
        tok = tokenizer(key.tokenizer_id)
        counts = np.full(n, -1, np.int64)
        if text_idx:
            if key.tokenizer_id not in by_tokenizer:  # a request's several prompts: each on its own
                texts = [rows[i].prompts or (rows[i].text,) for i in text_idx]
                per_text = np.asarray(tok.count_many([t for ts in texts for t in ts]), np.int64)
                starts = np.cumsum([0, *map(len, texts)])[:-1]
                ids = np.fromiter((rows[i].prompt_ids for i in text_idx), np.int64, len(text_idx))
                by_tokenizer[key.tokenizer_id] = np.add.reduceat(per_text, starts) + ids
            counts[text_idx] = by_tokenizer[key.tokenizer_id]
        if input_idx:  # each input of an embeddings request on its own, as the API counts them
            flat = tok.count_many([t for i in input_idx for t in rows[i].inputs])
            largest = np.zeros(n, np.int64)
            at = 0
            for i in input_idx:
                k = len(rows[i].inputs)
                each = [*flat[at : at + k], *rows[i].token_inputs]  # token ids: already tokens
                counts[i] = sum(each)
                largest[i] = max(each)
                at += k
            out.largest_input[key.key] = largest
        if chat_idx and key.chat_format is None:
            counts[chat_idx] = tok.count_many([_chat_as_text(rows[i]) for i in chat_idx])
        elif chat_idx and key.chat_format is not None:
            trained = np.zeros(n, np.int64) if fine_tuning else None
            w0 = 0
            chat_tok = remembering(key.tokenizer_id)
            for i in chat_idx:
                row = rows[i]
                try:
                    rc = count_request(row.messages, chat_tok, key.chat_format, tools=row.tools)
                except (ChatRenderError, KeyError, ValueError, TypeError) as exc:
                    out.error_count += 1
                    if len(out.errors) < MAX_ERRORS_LISTED:
                        out.errors.append(RowError(row.line, row.id, f"{key.key}: {_problem(exc)}", "count"))
                    continue
                counts[i] = rc.total
                if trained is not None and row.weights:
                    for m, w, t in zip(row.messages, row.weights, rc.message_tokens):
                        if m.role == "assistant":
                            if w:
                                trained[i] += t
                            else:
                                w0 += t
            if trained is not None:
                out.trained[key.key] = trained
                out.weight0_tokens[key.key] = w0
        out.tokens[key.key] = counts
    if fine_tuning:
        out.weight0_messages = sum(
            1 for r in rows for m, w in zip(r.messages, r.weights) if m.role == "assistant" and not w
        )
    return out


def count_task(task: Task, keys: Sequence[CountKey]) -> Counted:
    """Parse (JSONL tasks carry raw lines) and count one task: the function a worker runs."""
    errors = list(task.errors)
    if task.data:
        rows, parse_errors = parse_lines(split_lines(task.data), shape=task.shape, first_line=task.first_line,
                                         text_field=task.text_field, id_field=task.id_field)  # fmt: skip
        errors += parse_errors
    else:
        rows = list(task.rows)
    out = count_rows(rows, keys, fine_tuning=task.shape == "finetune")
    out.index, out.first_line, out.units = task.index, task.first_line, task.units
    out.error_count += len(errors)
    out.errors = (errors + out.errors)[:MAX_ERRORS_LISTED]
    out.skipped = list(task.skipped)
    return out


__all__ = [
    "Coded",
    "CountKey",
    "Counted",
    "RememberedCounts",
    "count_rows",
    "count_task",
    "remembering",
    "tokenizer",
]
