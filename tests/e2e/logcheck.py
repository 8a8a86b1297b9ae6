"""What in the app server's log fails a browser test run, whatever the pages showed.

The server runs with LOG_FORMAT, so every log record names its level, and with
``--logger.enableRich=false`` (SERVER_FLAGS): with the `rich` package installed Streamlit would
print an uncaught exception (of a page run, a fragment or a callback) as a coloured panel, not a
log record, whose "Traceback" and "(most recent call last)" are split by colour codes. A
thread's traceback ("Exception in thread ...", "Traceback ...") and every WARNING, ERROR or
CRITICAL record fails the run, not only warnings that come with a stack; colour codes are
removed before the lines are read, so a rich panel that still gets through fails it too.
"""

from __future__ import annotations

import re

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
SERVER_FLAGS = (f"--logger.messageFormat={LOG_FORMAT}", "--logger.enableRich=false")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.,]\d+ (WARNING|ERROR|CRITICAL) ")
_TRACEBACK = ("Exception in thread", "Traceback (most recent call last)")


def log_problems(text: str) -> list[str]:
    """The lines of a server log that make a run fail: ``log_problems("... WARNING x: y")``."""
    lines = _ANSI.sub("", text).splitlines()
    return [line for line in lines if _RECORD.match(line) or any(t in line for t in _TRACEBACK)]
