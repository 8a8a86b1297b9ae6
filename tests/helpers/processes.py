"""Process checks the tests of users' own tokenizers share."""

from __future__ import annotations


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie, ended but not yet reaped, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
