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
from .records import PreTokenPiece
from .steps import TokenRow

CSS = (
    "<style>.tw-in{line-height:2.1;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;"
    "font-size:0.92rem;overflow-wrap:anywhere}"
    ".tw-chip{padding:2px 3px;margin:0 2px 0 0;border-radius:4px;white-space:pre;color:#1f2328;"
    "border:1px solid rgba(0,0,0,.12)}"
    ".tw-chip.tw-on{outline:3px solid #cf222e;outline-offset:1px}"
    ".tw-chip sub{font-size:0.65rem;color:#57606a;margin-left:2px}"
    ".tw-more{color:#57606a;font-size:0.8rem;font-family:sans-serif}"
    ".tw-chip.tw-drop{background:#f6f8fa !important;color:#8c959f;text-decoration:line-through;"
    "border-style:dashed}"
    ".tw-tok{display:inline-block;white-space:pre-wrap;border-radius:3px;border-bottom:2px solid rgba(0,0,0,.18)}"
    ".tw-tok:hover{background:#ffd33d !important;outline:2px solid #bf8700}</style>"
)


def hue(n: int) -> int:
    """A hue for item number `n`: golden-angle steps keep neighbours apart. ``hue(1) -> 137``."""
    return int((n * 137.508) % 360)


def _chip(label: str, n: int, *, on: bool = False, sub: str = "", dropped: bool = False) -> str:
    cls = "tw-chip tw-on" if on else "tw-chip"
    if dropped:
        cls += " tw-drop"
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
        if p.dropped:
            sub = "dropped"
        out.append(_chip(p.text, colour, on=p.index == on, sub=sub, dropped=p.dropped))
    return f'<div class="tw-in tw-pieces">{"".join(out)}{_more(min(limit, len(pieces)), len(pieces), "pieces")}</div>'


def text_html(text: str, *, limit: int = 4_000) -> str:
    """A text shown literally with visible spaces (cut at `limit` characters, said so)."""
    shown = html.escape(visible_whitespace(text[:limit]))
    more = _more(min(limit, len(text)), len(text), "characters")
    return f'<div class="tw-in" style="white-space:pre-wrap">{shown}{more}</div>'


def token_text_html(
    text: str, tokens: Sequence[TokenRow], offsets: Sequence[tuple[int, int]], *, limit: int = 300
) -> str:
    """The text with each token's characters in a span of its own colour; pointing at one shows
    its id, label and characters (and highlights it). Tokens sharing characters (the bytes of one
    character) share one span; text no token covers (dropped) is plain.

    ``token_text_html("ab", rows, [(0, 1), (1, 2)])`` -> two spans, titled "token 1 · id …"
    """
    groups: list[tuple[int, int, list[TokenRow]]] = []
    for row, (a, b) in zip(tokens[:limit], offsets[:limit]):
        if groups and (groups[-1][0], groups[-1][1]) == (a, b):
            groups[-1][2].append(row)
        else:
            groups.append((a, b, [row]))
    out = []
    at = 0
    for n, (a, b, rows) in enumerate(groups):
        if a > at:
            out.append(html.escape(visible_whitespace(text[at:a])))
        if b <= a:
            continue
        ids = ", ".join(str(r.id) for r in rows)
        labels = " ".join(r.label for r in rows)
        first = rows[0].position + 1
        which = f"token {first}" if len(rows) == 1 else f"tokens {first}–{rows[-1].position + 1}"
        title = f"{which} · id {ids} · {labels} · characters {a + 1}–{b}"
        out.append(
            f'<span class="tw-tok" title="{html.escape(title, quote=True)}" '
            f'style="background:hsl({hue(n)} 70% 88%)">{html.escape(visible_whitespace(text[max(a, at) : b]))}</span>'
        )
        at = max(at, b)
    more = _more(min(limit, len(tokens)), len(tokens), "tokens")
    if not more and at < len(text):
        out.append(html.escape(visible_whitespace(text[at:])))
    return f'<div class="tw-in" style="white-space:pre-wrap">{"".join(out)}{more}</div>'
