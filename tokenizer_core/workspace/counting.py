"""Token counts with the figures users compare: characters, words, bytes, share of a context."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

from ..catalog.choices import TokenizerGroup
from ..catalog.lookup import as_tokenizers
from ..catalog.windows import window_for
from ..tokenizers.csvcells import spreadsheet_safe
from ..tokenizers.encoders import Tokenizer

# Common context windows (tokens), for the "% of context" column.
CONTEXT_WINDOWS: dict[str, int] = {
    "8K (GPT-4 original)": 8_192,
    "32K": 32_768,
    "128K (GPT-4o, Llama 3.1+, Mistral NeMo)": 128_000,
    "200K (o-series)": 200_000,
    "400K (GPT-5)": 400_000,
    "1M (GPT-4.1)": 1_047_576,
}


@dataclass(frozen=True, slots=True)
class TextStats:
    characters: int
    words: int
    utf8_bytes: int
    lines: int


def text_stats(text: str) -> TextStats:
    """Characters (code points), whitespace-delimited words, UTF-8 bytes and lines.

    ``text_stats("héllo world\\n") -> TextStats(characters=12, words=2, utf8_bytes=13, lines=1)``
    """
    return TextStats(
        characters=len(text),
        words=len(text.split()),
        utf8_bytes=len(text.encode("utf-8", "surrogatepass")),
        lines=text.count("\n") + (1 if text and not text.endswith("\n") else 0),
    )


@dataclass(frozen=True, slots=True)
class CountRow:
    tokenizer_id: str
    tokenizer: str
    tokens: int
    characters: int
    words: int
    utf8_bytes: int
    chars_per_token: float | None
    context_window: int
    context_pct: float


def count_row(
    text: str,
    tokenizer: Tokenizer,
    *,
    context_window: int,
    allow_special: bool = False,
    stats: TextStats | None = None,
) -> CountRow:
    """One row of the count table for one tokenizer."""
    stats = stats or text_stats(text)
    return row_for(
        tokenizer, tokenizer.count(text, allow_special=allow_special), stats, context_window=context_window
    )


def row_for(tokenizer: Tokenizer, tokens: int, stats: TextStats, *, context_window: int) -> CountRow:
    """The row of a text that `tokenizer` counted `tokens` in (a count kept elsewhere, such as
    a cache shared by the app's sessions): the same row `count_row` makes from the text.

    For "hello world" (11 characters, 2 words) counted 2 tokens by o200k_base in a 1,000-token
    window: ``chars_per_token == 5.5`` and ``context_pct == 0.2``."""
    return CountRow(
        tokenizer_id=tokenizer.info.id,
        tokenizer=tokenizer.info.name,
        tokens=tokens,
        characters=stats.characters,
        words=stats.words,
        utf8_bytes=stats.utf8_bytes,
        chars_per_token=round(stats.characters / tokens, 3) if tokens else None,
        context_window=context_window,
        context_pct=round(100.0 * tokens / context_window, 3) if context_window > 0 else 0.0,
    )


def count_table(
    text: str,
    tokenizers: Sequence[Tokenizer | str],
    *,
    context_window: int = 128_000,
    allow_special: bool = False,
) -> list[CountRow]:
    """Rows for every tokenizer (a Tokenizer, or a model or tokenizer name: ``"gpt-4o"``), in the
    order given; each row's share of the context window is of `context_window` tokens."""
    if context_window <= 0:
        raise ValueError("the context window must be a positive number of tokens")
    stats = text_stats(text)
    return [
        count_row(text, t, context_window=context_window, allow_special=allow_special, stats=stats)
        for t in as_tokenizers(tokenizers)
    ]


def rows_to_csv(rows: Sequence[CountRow]) -> str:
    """CSV text of the rows with a header line (the download on the counter page); text cells
    spreadsheet-safe (a tokenizer's name cannot start a formula, see `csvcells`)."""
    buf = io.StringIO()
    fields = list(CountRow.__dataclass_fields__)
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: spreadsheet_safe(v) for k, v in asdict(row).items()})
    return buf.getvalue()


def with_windows(
    rows: Sequence[CountRow], groups: Sequence[TokenizerGroup], *, chosen: int
) -> list[CountRow]:
    """Count rows (one per tokenizer) measured against the window the one rule gives each tokenizer's
    models (:func:`window_for`), instead of one window for all."""
    by_tok = {g.tokenizer_id: g.choices for g in groups}
    out = []
    for r in rows:
        w = window_for(by_tok.get(r.tokenizer_id, ()), chosen=chosen).tokens
        out.append(replace(r, context_window=w, context_pct=round(100.0 * r.tokens / w, 3)))
    return out
