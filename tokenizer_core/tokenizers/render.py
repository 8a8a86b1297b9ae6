"""Pure HTML builders for coloured token views. Every piece of user text is escaped here.

The HTML is self-contained (inline styles, no scripts) so it can be shown with `st.html`, saved
to a file or displayed in a notebook. Colours come from the token id, so the same token always
has the same colour on every page and in every tokenizer column.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from .segments import Segment

WHITESPACE_SYMBOLS = {" ": "\u22c5", "\t": "\u2192", "\n": "\u21b5\n", "\r": "\u240d"}
_WHITESPACE_TABLE = str.maketrans(WHITESPACE_SYMBOLS)

_CONTAINER = (
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:0.92rem;"
    "line-height:1.9;white-space:pre-wrap;word-break:break-word;line-break:anywhere;color:#1f2328;"
    "background:#ffffff;border:1px solid #d0d7de;border-radius:6px;padding:0.6rem 0.7rem;"
    "max-height:32rem;overflow-y:auto"
)
_SPAN = "border-radius:3px;padding:1px 0;margin:0 1px 0 0;white-space:pre;"  # never wraps inside a token
_MARK = "box-shadow:inset 2px 0 0 #d1242f;"
_SPECIAL = "outline:1px dashed #6e7781;font-weight:600;"
_DROPPED = "color:#8c959f;background:transparent;"


def token_hue(token_id: int) -> int:
    """Hue in degrees for a token id; golden-angle steps keep neighbouring ids apart.

    ``token_hue(0) -> 0``, ``token_hue(1) -> 137``.
    """
    return int((token_id * 137.508) % 360)


def token_background(ids: Sequence[int]) -> str:
    """CSS background for a segment: the colour of its first token id (grey if none)."""
    if not ids:
        return "transparent"
    return f"hsl({token_hue(ids[0])} 75% 84%)"


_TOKEN_BASE = ".tw-tok{border-radius:3px;padding:1px 2px;margin-right:2px;white-space:pre}"


def token_class(ids: Sequence[int]) -> str:
    """CSS class for a segment's colour (see `token_css`): ``token_class([1]) -> 'tw-tok h137'``."""
    return f"tw-tok h{token_hue(ids[0])}" if ids else "tw-tok"


def token_css(hues: Iterable[int]) -> str:
    """One `<style>` with a rule per hue in use, for spans of class `token_class`.

    ``token_css([0])`` -> ``<style>.tw-tok{...}.tw-tok.h0{background:hsl(0 75% 84%)}</style>``.
    A token is never broken across lines (``white-space:pre``).
    """
    rules = "".join(f".tw-tok.h{h}{{background:hsl({h} 75% 84%)}}" for h in sorted(set(hues)))
    return f"<style>{_TOKEN_BASE}{rules}</style>"


def visible_whitespace(text: str) -> str:
    """Show spaces, tabs and newlines: ``"a b\\n" -> "a⋅b↵\\n"`` (newlines still break)."""
    return text.translate(_WHITESPACE_TABLE)


def _tooltip(seg: Segment) -> str:
    ids = seg.ids
    if not ids:
        return f"not a token ({len(seg.text)} chars dropped by the tokenizer)"
    data = seg.data
    raw = data.hex(" ") if len(data) <= 24 else data[:24].hex(" ") + " ..."
    extra = " (special token)" if seg.special else ""
    if len(ids) == 1:
        return f"id {ids[0]}{extra} | bytes {raw} | chars {seg.start}-{seg.end}"
    return f"ids {', '.join(map(str, ids))}{extra} | bytes {raw} | chars {seg.start}-{seg.end}"


def segments_html(
    segments: Sequence[Segment],
    *,
    mode: str = "text",
    show_whitespace: bool = False,
    marked: Iterable[int] = (),
    empty: str = "Nothing to show: the text is empty.",
) -> str:
    """A `<div>` with one coloured `<span>` per segment.

    mode "text" shows the segment text, "ids" shows the token ids in the same colours.
    A segment whose start offset is in `marked` gets a red bar on its left (used to show
    boundaries other tokenizers do not share). Hovering shows ids, bytes and offsets.
    """
    if mode not in ("text", "ids"):
        raise ValueError(f"mode must be 'text' or 'ids', not {mode!r}")
    if not segments:
        return f'<div style="{_CONTAINER}"><em>{html.escape(empty)}</em></div>'
    marked = frozenset(marked)
    esc = html.escape
    styles: dict[tuple[int, ...], str] = {}  # one style string per distinct first id
    parts = [f'<div class="tw-tokens" style="{_CONTAINER}">']
    append = parts.append
    for seg in segments:
        ids = seg.ids
        key = ids[:1]
        style = styles.get(key)
        if style is None:
            style = styles[key] = _SPAN + (f"background:{token_background(ids)};" if ids else _DROPPED)
        if seg.special:
            style += _SPECIAL
        if seg.start in marked:
            style += _MARK
        if mode == "ids":
            if not ids:
                continue
            body = " ".join(map(str, ids)) + " "
        else:
            body = seg.text.translate(_WHITESPACE_TABLE) if show_whitespace else seg.text
        append(f'<span style="{style}" title="{esc(_tooltip(seg))}">{esc(body, quote=False)}</span>')
    append("</div>")
    return "".join(parts)


def legend_html(items: Sequence[tuple[str, str]]) -> str:
    """A one-line legend: ``[("red bar", "boundary not shared")]`` -> small inline HTML."""
    cells = "".join(
        f'<span style="margin-right:1.2rem"><b>{html.escape(k)}</b>: {html.escape(v)}</span>'
        for k, v in items
    )
    return f'<div style="font-size:0.8rem;color:#57606a">{cells}</div>'


_MD_SPECIAL = frozenset("\\`*_{}[]()<>#+-!|~$&=^")
_WJ = "\u2060"  # WORD JOINER: invisible, no line break, not a character a link or shortcode may hold
_LINE_INDENT = re.compile(r"(?m)^[ \t]+")


def escape_markdown(text: str) -> str:
    """User text shown literally wherever Streamlit renders Markdown (one function for all).

    Markdown syntax is backslash-escaped: emphasis, links, images, HTML, headings, lists,
    tables, code, math. Streamlit also turns bare URLs, ``www.`` names and e-mail addresses
    into links and ``:smile:`` / ``:material/home:`` into icons, and it does so *through*
    backslash escapes (showing the backslashes inside the link). Those are broken by an
    invisible word joiner (U+2060): after a colon followed by text (``https:`` + ``//``,
    ``:smile:``), around ``@`` and before the dot of ``www.``. A line's leading spaces become
    no-break spaces, so they never start a code block (where escapes would show). Example::

        escape_markdown("**a** [x](https://e.example)")
        -> "\\*\\*a\\*\\* \\[x\\]\\(https:\u2060//e\\.example\\)"
    """
    out: list[str] = []
    last = len(text) - 1
    for i, c in enumerate(text):
        if c in _MD_SPECIAL:
            out.append("\\" + c)
        elif c == ".":
            out.append(_WJ + "\\." if text[max(0, i - 3) : i].lower() == "www" else "\\.")
        elif c == ":":
            out.append(":" + _WJ if i < last and not text[i + 1].isspace() else ":")
        elif c == "@":
            out.append(f"{_WJ}@{_WJ}")
        else:
            out.append(c)
    return _LINE_INDENT.sub(lambda m: "\u00a0" * len(m.group().expandtabs(4)), "".join(out))


def markdown_code(text: str) -> str:
    """User text as a Markdown inline code span, shown literally: ``"a_b" -> "`a_b`"``.

    Backslash escapes do not work inside code spans (``escape_markdown`` would show its
    backslashes there), so the fence is made longer than any run of backticks in the text.
    """
    text = text.replace("\n", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"
