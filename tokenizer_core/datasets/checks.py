"""A provider's rules checked on a whole file before it is sent: a verdict, then each problem.

Three kinds of problem, because providers treat them differently:

* ``reject``: the provider refuses the whole file when it is submitted (OpenAI validates a Batch
  file before it runs: a repeated ``custom_id``, a second model or endpoint, a line that is not
  JSON, too many requests; a fine-tuning file with a format error or under 10 examples);
* ``fail``: the file is taken, but this request fails when it runs (its input and ``max_tokens``
  over the window, ``max_tokens`` over the model's output limit, an embeddings input over 8,192);
* ``warn``: taken and run, with a consequence to know (a training example over the per-example
  limit is cut; a model the app does not know, whose limits were not checked).

Every rule and its source: ``docs/preflight-rules.md``. Pure functions over the counted arrays.

    >>> Problem(3, "req-2", "its custom_id repeats line 1's", "reject").sentence()
    "line 3 (req-2): its custom_id repeats line 1's"
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..catalog.entries import MODELS
from ..catalog.limits import (
    ANTHROPIC_BATCH_MAX_BYTES,
    ANTHROPIC_BATCH_MAX_REQUESTS,
    BATCH_MAX_BYTES,
    BATCH_MAX_EMBEDDING_INPUTS,
    BATCH_MAX_REQUESTS,
    EMBEDDING_INPUT_TOKENS,
    EMBEDDING_REQUEST_TOKENS,
    MIN_TRAINING_EXAMPLES,
)
from .count import Coded
from .rows import RowError

PROVIDERS = {
    "batch": "OpenAI", "finetune": "OpenAI", "gemini-batch": "Google", "mistral-batch": "Mistral",
    "anthropic-batch": "Anthropic",
}  # fmt: skip
SEVERITIES = ("reject", "fail", "warn")
MAX_PROBLEMS_LISTED = 200
# a dated snapshot's suffix: OpenAI's -2024-08-06 and -0125, Anthropic's -20250929
_SNAPSHOT = re.compile(r"-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$")


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: where (line 0: the whole file), the row's id, what, and how grave."""

    line: int
    id: str
    text: str
    severity: str  # one of SEVERITIES

    def sentence(self) -> str:
        if not self.line:
            return self.text
        named = f" ({self.id})" if self.id and self.id != f"line {self.line}" else ""
        return f"line {self.line:,}{named}: {self.text}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the provider would do with the file: a headline, then the problems (the first
    MAX_PROBLEMS_LISTED, the gravest first; the counts are of all)."""

    provider: str
    problems: tuple[Problem, ...]
    rejects: int
    fails: int
    warnings: int
    checked: tuple[str, ...]  # the rules checked, in words
    unchecked: tuple[str, ...]  # what could not be checked, and why

    @property
    def accepted(self) -> bool:
        return self.rejects == 0

    @property
    def headline(self) -> str:
        """``"OpenAI would accept this file"`` / ``"OpenAI would reject it: 2 problems"``."""
        if self.rejects:
            return f"{self.provider} would reject it: {_n(self.rejects, 'problem')}"
        if self.fails:
            return f"{self.provider} would accept this file, but {_n(self.fails, 'request')} would fail"
        return f"{self.provider} would accept this file"


def _n(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def catalog_model(name: str) -> str | None:
    """The catalog's id for a model a request names, dated snapshots included.

    ``catalog_model("gpt-4o-2024-08-06") -> "gpt-4o"``;
    ``catalog_model("claude-sonnet-4-5-20250929") -> "claude-sonnet-4-5"``; ``catalog_model("my-model") -> None``
    """
    if name in MODELS:
        return name
    base = _SNAPSHOT.sub("", name)
    return base if base in MODELS else None


def fine_tuned_base(name: str) -> str | None:
    """The catalog model an OpenAI fine-tuned model was trained from (its name is
    ``ft:<base snapshot>:<org>:<suffix>:<id>``).

    ``fine_tuned_base("ft:gpt-4o-mini-2024-07-18:acme::abc123") -> "gpt-4o-mini"``
    """
    if not name.startswith("ft:"):
        return None
    return catalog_model(name.split(":")[1]) if name.count(":") >= 2 else None


def main_value(column: Coded) -> str:
    """The value most rows have ("" when none has one): ``main_value(Coded.of(["a", "b", "a"])) -> "a"``"""
    counts = np.bincount(column.codes, minlength=len(column.values)) if len(column.codes) else np.zeros(0)
    ranked = sorted(((int(c), v) for v, c in zip(column.values, counts) if v), key=lambda cv: -cv[0])
    return ranked[0][1] if ranked else ""


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What the checks read of a counted file, besides each model's counts."""

    shape: str
    size: int
    ids: Sequence[str]
    lines: np.ndarray
    models: Coded
    urls: Coded
    inputs: np.ndarray  # embeddings inputs per row
    row_problems: Mapping[int, tuple[str, ...]]  # found when each row was read (reject)
    errors: Sequence[RowError]  # rows that could not be read (listed)
    error_count: int  # all of them
    json_array: bool = False  # a JSON array of requests or examples, not JSON lines


def without_id(facts: FileFacts) -> set[int]:
    """The rows that gave no id: reading named each by its line ("line 3")."""
    return {i for i, rid in enumerate(facts.ids) if rid == f"line {int(facts.lines[i])}"}


def repeats(facts: FileFacts) -> dict[int, str]:
    """Each repeat of a row's id after its first: row index -> sentence."""
    out: dict[int, str] = {}
    first: dict[str, int] = {}
    unnamed = without_id(facts)  # said on their own (when read, or by the verdict)
    for i, rid in enumerate(facts.ids):
        if i in unnamed:
            continue
        j = first.setdefault(rid, i)
        if j != i:
            out[i] = f"its id repeats line {int(facts.lines[j]):,}'s (ids must be unique)"
    return out


# Whose batch files must have unique ids, as their documents say (OpenAI, Anthropic and Mistral:
# custom_id). Google documents no such rule: a repeat there is a warning.
UNIQUE_IDS = ("batch", "mistral-batch", "anthropic-batch")
# Where a line may go without an id (Google's guide names no rule; Mistral's schema marks custom_id
# optional), though each guide gives every line one: its field, for the warning.
OPTIONAL_IDS = {"gemini-batch": "key", "mistral-batch": "custom_id"}
# Whose files must be JSON lines (OpenAI's Batch and fine-tuning guides, Google's and Mistral's batch
# guides). Anthropic's batch requests are sent as one JSON body, so an array is its own shape.
JSONL_ONLY = ("batch", "finetune", "gemini-batch", "mistral-batch")


def file_flags(facts: FileFacts) -> dict[int, list[str]]:
    """The problems each row has in the file as a whole or as it was read: a repeated id (each
    repeat after the first), a model or endpoint other than the file's main one, and what its
    reading found. Row index -> sentences (all ``reject``)."""
    flags: dict[int, list[str]] = {i: list(p) for i, p in facts.row_problems.items()}
    if facts.shape in UNIQUE_IDS:
        for i, text in repeats(facts).items():
            flags.setdefault(i, []).append(text)
    if facts.shape == "batch":
        for column, what in ((facts.models, "model"), (facts.urls, "endpoint")):
            main = main_value(column)
            if not main or len(column.values) < 2:
                continue
            code = column.values.index(main)
            for i in np.flatnonzero(column.codes != code).tolist():
                other = column[i]
                if other:
                    flags.setdefault(i, []).append(
                        f"its {what} is {other}, while the file's other requests use {main} (a batch takes one {what})"
                    )
    return flags


def limit_problems(
    tokens: np.ndarray, max_tokens: np.ndarray, *, window: int | None, output_limit: int | None,
    largest_input: np.ndarray | None = None, example_limit: int | None = None, fine_tuning: bool = False,
) -> dict[int, tuple[str, str]]:  # fmt: skip
    """Each row's problem against one model's limits: row index -> (severity, sentence).

    ``limit_problems(np.array([100]), np.array([50]), window=120, output_limit=None)``
    -> ``{0: ("fail", "its 100 input tokens and max_tokens of 50 are over the 120-token window")}``
    """
    out: dict[int, tuple[str, str]] = {}
    counted = tokens >= 0
    if fine_tuning:
        limit = example_limit or window
        if limit:
            for i in np.flatnonzero(counted & (tokens > limit)).tolist():
                out[i] = ("warn", f"its {int(tokens[i]):,} tokens are over the {limit:,} a training example "
                                  "takes: it is cut to fit")  # fmt: skip
        return out
    if largest_input is not None:
        for i in np.flatnonzero(largest_input > EMBEDDING_INPUT_TOKENS).tolist():
            out[i] = ("fail", f"an input holds {int(largest_input[i]):,} tokens; an embeddings input takes "
                              f"at most {EMBEDDING_INPUT_TOKENS:,}")  # fmt: skip
        for i in np.flatnonzero(counted & (tokens > EMBEDDING_REQUEST_TOKENS)).tolist():
            out.setdefault(i, ("fail", f"its inputs hold {int(tokens[i]):,} tokens; an embeddings request "
                                       f"takes at most {EMBEDDING_REQUEST_TOKENS:,}"))  # fmt: skip
        return out
    if output_limit:
        for i in np.flatnonzero(max_tokens > output_limit).tolist():
            out[i] = ("fail", f"its max_tokens of {int(max_tokens[i]):,} is over the model's output limit "
                              f"of {output_limit:,}")  # fmt: skip
    if window:
        over = counted & (tokens + max_tokens > window)
        for i in np.flatnonzero(over).tolist():
            if i in out:
                continue
            if max_tokens[i]:
                text = (f"its {int(tokens[i]):,} input tokens and max_tokens of {int(max_tokens[i]):,} are "
                        f"over the {window:,}-token window")  # fmt: skip
            else:
                text = f"its {int(tokens[i]):,} input tokens are over the {window:,}-token window"
            out[i] = ("fail", text)
    return out


def judge(
    facts: FileFacts, *, flags: Mapping[int, Sequence[str]], model: str | None,
    limits: Mapping[int, tuple[str, str]],
    input_total: int | None, enqueued_limit: int | None = None, examples: int = 0,
    unchecked: Sequence[str] = (),
) -> Verdict | None:  # fmt: skip
    """The provider's verdict on the file (None for a shape no provider takes as a job: a table,
    a text list, a repository). `model` is the model whose limits were checked (`limits`: its
    :func:`limit_problems`), `input_total` its input tokens for the whole file; `flags` are
    :func:`file_flags`."""
    provider = PROVIDERS.get(facts.shape)
    if provider is None:
        return None
    problems: list[Problem] = []
    counts: Counter[str] = Counter()

    def add(p: Problem) -> None:
        counts[p.severity] += 1
        problems.append(p)

    checked: list[str] = []
    left = list(unchecked)
    if facts.json_array and facts.shape in JSONL_ONLY:
        add(Problem(0, "", f"The file is a JSON array; {provider} takes JSON lines (.jsonl): one "
                           f"{'example' if facts.shape == 'finetune' else 'request'} a line.", "reject"))  # fmt: skip
    # the whole file
    if facts.shape == "batch":
        checked.append("ids unique, one model, one endpoint, POST, a batch endpoint, "
                       f"at most {BATCH_MAX_REQUESTS:,} requests and {BATCH_MAX_BYTES // 1_048_576} MB")  # fmt: skip
        n = len(facts.ids) + facts.error_count
        if n > BATCH_MAX_REQUESTS:
            add(Problem(0, "", f"The file holds {n:,} requests; a batch takes at most {BATCH_MAX_REQUESTS:,}.",
                        "reject"))  # fmt: skip
        if facts.size > BATCH_MAX_BYTES:
            add(Problem(0, "", f"The file is {facts.size / 1_048_576:,.1f} MB; a batch file is at most "
                               f"{BATCH_MAX_BYTES // 1_048_576} MB.", "reject"))  # fmt: skip
        if len({v for v in facts.models.values if v}) > 1:
            add(Problem(0, "", "The requests name more than one model: a batch file takes one. "
                               "The rows that differ are flagged.", "reject"))  # fmt: skip
        if len({v for v in facts.urls.values if v}) > 1:
            add(Problem(0, "", "The requests go to more than one endpoint: a batch file takes one. "
                               "The rows that differ are flagged.", "reject"))  # fmt: skip
        all_inputs = int(facts.inputs.sum()) if len(facts.inputs) else 0
        if all_inputs > BATCH_MAX_EMBEDDING_INPUTS:
            add(Problem(0, "", f"The requests hold {all_inputs:,} embedding inputs; an embeddings batch takes at "
                               f"most {BATCH_MAX_EMBEDDING_INPUTS:,} in all.", "reject"))  # fmt: skip
        if enqueued_limit and input_total is not None and input_total > enqueued_limit:
            add(Problem(0, "", f"The file holds {input_total:,} input tokens, over your enqueued-token limit of "
                               f"{enqueued_limit:,}: the batch would not start.", "reject"))  # fmt: skip
        elif enqueued_limit and input_total is None:
            left.append("the enqueued-token limit: count with the file's model to check it")
        elif not enqueued_limit:
            left.append(
                "the enqueued-token limit: it depends on your account's tier; enter yours to check it"
            )
    if facts.shape == "anthropic-batch":
        checked.append(f"ids unique, at most {ANTHROPIC_BATCH_MAX_REQUESTS:,} requests and "
                       f"{ANTHROPIC_BATCH_MAX_BYTES // 1_048_576} MB")  # fmt: skip
        n = len(facts.ids) + facts.error_count
        if n > ANTHROPIC_BATCH_MAX_REQUESTS:
            add(Problem(0, "", f"The file holds {n:,} requests; a message batch takes at most "
                               f"{ANTHROPIC_BATCH_MAX_REQUESTS:,}.", "reject"))  # fmt: skip
        if facts.size > ANTHROPIC_BATCH_MAX_BYTES:
            add(Problem(0, "", f"The file is {facts.size / 1_048_576:,.1f} MB; a message batch is at most "
                               f"{ANTHROPIC_BATCH_MAX_BYTES // 1_048_576} MB.", "reject"))  # fmt: skip
    if facts.shape == "finetune":
        checked.append("OpenAI's format checks, weights on assistant messages only, "
                       f"at least {MIN_TRAINING_EXAMPLES} examples")  # fmt: skip
        if examples < MIN_TRAINING_EXAMPLES:
            add(Problem(0, "", f"The file holds {examples:,} usable examples; fine-tuning needs at least "
                               f"{MIN_TRAINING_EXAMPLES}.", "reject"))  # fmt: skip
    # the rows that could not be read
    for e in facts.errors:
        add(Problem(e.line, e.id, e.problem, "reject"))
    counts["reject"] += max(0, facts.error_count - len(facts.errors))
    # each row's flags, and its limits
    for i, texts in sorted(flags.items()):
        for t in texts:
            add(Problem(int(facts.lines[i]), facts.ids[i], t, "reject"))
    if facts.shape == "gemini-batch":
        for i, text in sorted(repeats(facts).items()):
            add(Problem(int(facts.lines[i]), facts.ids[i], text.replace("(ids must be unique)", "(the answers to "
                        "the two cannot be told apart)"), "warn"))  # fmt: skip
    if field := OPTIONAL_IDS.get(facts.shape):
        for i in sorted(without_id(facts)):
            add(Problem(int(facts.lines[i]), facts.ids[i], f'it has no "{field}": {provider}\'s guide gives every '
                        "request one, to find its answer in the results", "warn"))  # fmt: skip
    if model is not None:
        checked.append(f"each row against {model}'s limits")
        for i, (severity, text) in sorted(limits.items()):
            add(Problem(int(facts.lines[i]), facts.ids[i], text, severity))
    rank = {s: k for k, s in enumerate(SEVERITIES)}
    problems.sort(key=lambda p: (rank[p.severity], p.line))
    return Verdict(provider, tuple(problems[:MAX_PROBLEMS_LISTED]), counts["reject"], counts["fail"],
                   counts["warn"], tuple(checked), tuple(left))  # fmt: skip


__all__ = [
    "MAX_PROBLEMS_LISTED", "PROVIDERS", "SEVERITIES", "FileFacts", "Problem", "Verdict", "catalog_model",
    "fine_tuned_base",
    "UNIQUE_IDS", "file_flags", "judge", "limit_problems", "main_value", "repeats", "without_id",
]  # fmt: skip
