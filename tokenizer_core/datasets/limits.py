"""What a dataset job accepts, and the one error type it raises for input it cannot use.

Every limit is checked before any counting starts, from what the file or archive declares, and
again while reading (a declared size is never trusted: reads stop at the limit).
"""

from __future__ import annotations

from ..tokenizers.textio import InputError

MAX_SOURCE_BYTES = 1_500_000_000  # a JSONL / table / archive file: a 2 GB file is refused
MAX_LINE_BYTES = 32_000_000  # one JSON line; longer lines are errors with their line number
MAX_ARCHIVE_ENTRIES = 20_000  # entries (files, folders, links) in a repository archive
MAX_ARCHIVE_BYTES = 1_000_000_000  # total uncompressed size of an archive's files
MAX_RATIO = 100  # uncompressed / compressed, per file and for the whole archive
MAX_FILE_BYTES = 10_000_000  # one file of a repository (larger ones are skipped with the reason)
MAX_DEPTH = 40  # folders deep
MAX_ERRORS_LISTED = 100  # errors kept with their line numbers (all are counted)
MAX_ROWS_LISTED = 200  # rows over a window or budget kept with their ids (all are counted)
LARGEST_ROWS = 20  # the largest rows kept per model
HISTOGRAM_BINS = 40


class DatasetError(InputError):
    """A dataset the app cannot read or will not read; the message says why and what to do."""


class DatasetCancelled(RuntimeError):
    """The job was cancelled (its `cancel` event was set)."""


def mb(n: int) -> str:
    """``mb(1_500_000_000) -> "1,500 MB"``"""
    return f"{n / 1_000_000:,.0f} MB"


__all__ = [
    "HISTOGRAM_BINS", "LARGEST_ROWS", "MAX_ARCHIVE_BYTES", "MAX_ARCHIVE_ENTRIES", "MAX_DEPTH", "MAX_ERRORS_LISTED",
    "MAX_FILE_BYTES", "MAX_LINE_BYTES", "MAX_RATIO", "MAX_ROWS_LISTED", "MAX_SOURCE_BYTES", "DatasetCancelled",
    "DatasetError", "mb",
]  # fmt: skip
