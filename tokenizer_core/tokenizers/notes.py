"""Lists of messages for people: capped and summarised, so that a file with 20,000 problems
gives a few lines, not 20,000 boxes.

Every list of problems, warnings or notes the app shows (a workspace file's, a share link's, a
CSV upload's, a chat file's...) passes through `summarised` before it is drawn: the first few
as they are, then one line that counts the rest; `some_of` names a few items of a long list.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_NOTES = 8  # lines of one message list on a page
MAX_NOTE_CHARS = 400  # characters of one line: a note quoting a user's value stays readable


def short(note: str, *, limit: int = MAX_NOTE_CHARS) -> str:
    """One line cut to `limit` characters: ``short("abcdef", limit=4) -> "abc…"``."""
    return note if len(note) <= limit else note[: limit - 1] + "…"


def summarised(notes: Sequence[str], *, limit: int = MAX_NOTES) -> list[str]:
    """At most `limit` lines: the first notes (each `short`), then one line counting the rest.

    ``summarised(["a", "b", "c"], limit=2) -> ["a", "… and 2 more like these (3 in all)."]``
    """
    if len(notes) <= limit:
        return [short(n) for n in notes]
    rest = len(notes) - (limit - 1)
    return [
        *(short(n) for n in notes[: limit - 1]),
        f"… and {rest:,} more like these ({len(notes):,} in all).",
    ]


def some_of(items: Sequence[str], *, shown: int = 3) -> str:
    """A few items of a list and how many more: ``some_of(["a", "b", "c", "d"]) -> "a, b, c and 1 more"``."""
    head = ", ".join(short(i, limit=80) for i in items[:shown])
    return head + (f" and {len(items) - shown:,} more" if len(items) > shown else "")


__all__ = ["MAX_NOTES", "MAX_NOTE_CHARS", "short", "some_of", "summarised"]
