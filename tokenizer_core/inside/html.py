"""Escaped HTML for the steps: coloured pieces, merge parts, token chips.

Every user character goes through :func:`html.escape`; colours come from numbers only. Each
builder draws at most `limit` items and says how many it left out, so a long text never becomes
megabytes of HTML.

    >>> chips(["<b>", " x"], limit=5)
    '<div class="tw-in"><span class="tw-chip" style="background:hsl(0 70% 86%)">&lt;b&gt;</span><span class="tw-chip" style="background:hsl(137 70% 86%)">⋅x</span></div>'
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..tokenizers.render import visible_whitespace
from .walk import PreTokenPiece

CSS = (
    "<style>.tw-in{line-height:2.1;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;"
    "font-size:0.92rem;overflow-wrap:anywhere}"
    ".tw-chip{padding:2px 3px;margin:0 2px 0 0;border-radius:4px;white-space:pre;color:#1f2328;"
    "border:1px solid rgba(0,0,0,.12)}"
    ".tw-chip.tw-on{outline:3px solid #cf222e;outline-offset:1px}"
    ".tw-chip sub{font-size:0.65rem;color:#57606a;margin-left:2px}"
    ".tw-more{color:#57606a;font-size:0.8rem;font-family:sans-serif}</style>"
)


def hue(n: int) -> int:
    """A hue for item number `n`: golden-angle steps keep neighbours apart. ``hue(1) -> 137``."""
    return int((n * 137.508) % 360)


def _chip(label: str, n: int, *, on: bool = False, sub: str = "") -> str:
    cls = "tw-chip tw-on" if on else "tw-chip"
    tail = f"<sub>{html.escape(sub)}</sub>" if sub else ""
    return (
        f'<span class="{cls}" style="background:hsl({hue(n)} 70% 86%)">'
        f"{html.escape(visible_whitespace(label).replace(chr(10), ''))}{tail}</span>"
    )


def _more(shown: int, total: int, what: str) -> str:
    if total <= shown:
        return ""
    return (
        f'<span class="tw-more"> … and {total - shown:,} more {what} (the first {shown:,} are drawn)</span>'
    )


def chips(labels: Sequence[str], *, limit: int = 400, on: int | None = None, subs: Sequence[str] = ()) -> str:
    """Labels as coloured chips, spaces shown as ⋅; chip `on` outlined; `subs` small notes."""
    body = "".join(
        _chip(label, i, on=i == on, sub=subs[i] if i < len(subs) else "")
        for i, label in enumerate(labels[:limit])
    )
    return f'<div class="tw-in">{body}{_more(min(limit, len(labels)), len(labels), "items")}</div>'


def pieces_html(
    pieces: Sequence[PreTokenPiece], *, limit: int = 400, by_rule: bool = True, on: int | None = None
) -> str:
    """The pieces of a text as chips coloured by the alternative of the pattern that cut them
    (its number under each), or one colour per piece."""
    out = []
    for p in pieces[:limit]:
        colour = (p.rule or 0) * 3 + 1 if by_rule and p.rule is not None else p.index
        sub = "marker" if p.marker else (str(p.rule) if by_rule and p.rule is not None else "")
        out.append(_chip(p.text, colour, on=p.index == on, sub=sub))
    return f'<div class="tw-in">{"".join(out)}{_more(min(limit, len(pieces)), len(pieces), "pieces")}</div>'


def text_html(text: str, *, limit: int = 4_000) -> str:
    """A text shown literally with visible spaces (cut at `limit` characters, said so)."""
    shown = html.escape(visible_whitespace(text[:limit]))
    more = _more(min(limit, len(text)), len(text), "characters")
    return f'<div class="tw-in" style="white-space:pre-wrap">{shown}{more}</div>'
