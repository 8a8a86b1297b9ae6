"""The one rule for a model's context window, used by every table that measures a count against one.

>>> from tokenizer_core.catalog.choices import resolve_choices
>>> window_for(resolve_choices(["gpt-4"]), chosen=128_000)
ContextWindow(tokens=8192, whose='GPT-4')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .choices import Choice
from .entries import ModelEntry
from .source import source_model


def model_window(model: ModelEntry | None) -> int | None:
    """A model's context window: the price source's figure, else the catalog line's, else None."""
    if model is None:
        return None
    entry = source_model(model.price) if model.price else None
    return (entry.context_window if entry else None) or model.window


@dataclass(frozen=True, slots=True)
class ContextWindow:
    """The context window a count is measured against, and whose it is."""

    tokens: int
    whose: str  # "GPT-4" / "GPT-5.5, GPT-4o (the smallest)" / "chosen above"

    @property
    def chosen(self) -> bool:
        return self.whose == "chosen above"


def window_for(choices: Sequence[Choice], *, chosen: int) -> ContextWindow:
    """The one rule, used by every table: a count is measured against the smallest context window of
    the models it is for; encodings and models without a known window use the window chosen on the page.

    ``window_for(resolve_choices(["gpt-4"]), chosen=128_000) -> ContextWindow(8192, "GPT-4")``
    """
    known = [(w, c.name) for c in choices if (w := model_window(c.model))]
    if not known:
        return ContextWindow(chosen, "chosen above")
    smallest = min(w for w, _ in known)
    names = [n for w, n in known if w == smallest]
    return ContextWindow(smallest, ", ".join(names) + (" (the smallest)" if len(known) > len(names) else ""))


__all__ = ["ContextWindow", "model_window", "window_for"]
