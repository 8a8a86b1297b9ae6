"""The counts at the top of the prompt workspace: a card per tokenizer with its name, the count
and the models it counts for (and, on the page, a tooltip with its share of the context window).

Each card is plain Markdown: Streamlit's browser code draws Markdown with what it loads first,
where a metric (or Markdown holding HTML) waits for a script of its own, fetched behind every
other element's on a fresh tab (0.3 s and 0.26 s later on opening, docs/benchmarks.md). A name is
the user's to choose, so it is escaped (`escape_markdown`) and kept on one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..tokenizers.render import escape_markdown

COUNTS_KEY = "workspace_counts"  # the row of cards on the page (its CSS class: st-key-workspace_counts)


@dataclass(frozen=True, slots=True)
class CountCard:
    """One tokenizer's count: its name, the tokens and the models under it."""

    label: str
    tokens: int
    models: str = ""


def _one_line(text: str) -> str:
    return escape_markdown(" ".join(text.split()))


def count_card_markdown(card: CountCard) -> str:
    """The card's Markdown: the name in small type, the count as a heading, the models as a badge."""
    models = f"\n\n:gray-badge[{_one_line(card.models)}]" if card.models.strip() else ""
    return f":small[{_one_line(card.label)}]\n\n### {card.tokens:,}{models}"


_CARD = re.compile(r":small\[(?P<label>.*)\]\n\n### (?P<value>[0-9,]+)(?:\n\n:gray-badge\[.*\])?", re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)


def read_count_card(markdown: str) -> tuple[str, str] | None:
    """(name, count as shown) of a card's Markdown, None for any other Markdown: for tests and
    benchmarks that read a page's messages. The name as shown: escapes and word joiners removed."""
    m = _CARD.fullmatch(markdown)
    if m is None:
        return None
    label = _ESCAPE.sub(r"\1", m["label"]).replace("\u2060", "").replace("\u00a0", " ")
    return label, m["value"]


def read_count_cards(markdowns: Iterable[str]) -> dict[str, str]:
    """Name -> count as shown, of every card among these Markdown texts (others are skipped)."""
    return dict(card for card in map(read_count_card, markdowns) if card)
