"""The counts at the top of the prompt workspace: a card per tokenizer with its name, the count
and the models it counts for (and, on the page, a tooltip with its share of the context window).

Each card is plain Markdown: Streamlit's browser code draws Markdown with what it loads first,
where a metric (or Markdown holding HTML) waits for a script of its own, fetched behind every
other element's on a fresh tab (0.3 s and 0.26 s later on opening, docs/benchmarks.md). A name is
the user's to choose, so it is escaped (`escape_markdown`) and kept on one line.
"""

from __future__ import annotations

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
