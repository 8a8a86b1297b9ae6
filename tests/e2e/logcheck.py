"""What in the app server's log fails a browser test run, whatever the pages showed.

The server runs with LOG_FORMAT, so every log record names its level. A thread's traceback
("Exception in thread ...", "Traceback ...") and every WARNING, ERROR or CRITICAL record fails
the run, not only warnings that come with a stack.
"""

from __future__ import annotations

import re

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.,]\d+ (WARNING|ERROR|CRITICAL) ")
_TRACEBACK = ("Exception in thread", "Traceback (most recent call last)")


def log_problems(text: str) -> list[str]:
    """The lines of a server log that make a run fail: ``log_problems("... WARNING x: y")``."""
    return [line for line in text.splitlines() if _RECORD.match(line) or any(t in line for t in _TRACEBACK)]
