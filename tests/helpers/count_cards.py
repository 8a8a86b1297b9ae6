"""Read the workspace's count cards back from a page's Markdown (the cards are written by
`tokenizer_core.workspace.count_cards.count_card_markdown`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

_CARD = re.compile(r":small\[(?P<label>.*)\]\n\n### (?P<value>[0-9,]+)(?:\n\n:gray-badge\[.*\])?", re.S)
_ESCAPE = re.compile(r"\\(.)", re.S)


def read_count_card(markdown: str) -> tuple[str, str] | None:
    """(name, count as shown) of a card's Markdown, None for any other Markdown: as tests and
    benchmarks read a page's messages. The name as shown: escapes and word joiners removed."""
    m = _CARD.fullmatch(markdown)
    if m is None:
        return None
    label = _ESCAPE.sub(r"\1", m["label"]).replace("\u2060", "").replace("\u00a0", " ")
    return label, m["value"]


def read_count_cards(markdowns: Iterable[str]) -> dict[str, str]:
    """Name -> count as shown, of every card among these Markdown texts (others are skipped)."""
    return dict(card for card in map(read_count_card, markdowns) if card)
