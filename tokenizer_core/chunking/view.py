"""HTML for the chunk view: the document with each chunk in its own colour, overlaps striped.

Pure functions; every piece of user text is escaped here with `html.escape`, so the result can
be shown with `st.html` (no scripts; one small stylesheet of classes, not a style per span). A character in two chunks (an
overlap) is drawn with diagonal stripes of both chunks' colours and a dashed underline.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

from ..tokenizers.render import visible_whitespace
from .pack import Chunk

_CONTAINER = (
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:0.9rem;"
    "line-height:1.85;white-space:pre-wrap;word-break:break-word;color:#1f2328;"
    "background:#ffffff;border:1px solid #d0d7de;border-radius:6px;padding:0.6rem 0.7rem;"
    "max-height:36rem;overflow-y:auto"
)
_BADGE = (
    "display:inline-block;font-size:0.68rem;line-height:1.2;font-weight:700;color:#ffffff;"
    "background:#57606a;border-radius:8px;padding:0 0.35rem;margin:0 0.2rem 0 0.1rem;"
    "user-select:none;vertical-align:1px;white-space:nowrap"
)
_PALETTE_HUES = (210, 35, 130, 330, 270, 90, 0, 180, 55, 300)  # well-separated, alternate warm/cold
_PERIOD = 2 * len(_PALETTE_HUES)  # chunk_colour repeats after this many chunks
_OVER = "outline:2px solid #d1242f;outline-offset:-1px;"


def chunk_colour(index: int) -> str:
    """Background for chunk `index`; neighbours always differ: ``chunk_colour(0) -> 'hsl(210 80% 88%)'``."""
    hue = _PALETTE_HUES[index % len(_PALETTE_HUES)]
    light = 88 if (index // len(_PALETTE_HUES)) % 2 == 0 else 82
    return f"hsl({hue} 80% {light}%)"


def _stripes(a: int, b: int) -> str:
    ca, cb = chunk_colour(a), chunk_colour(b)
    return (
        f"background:repeating-linear-gradient(135deg,{ca} 0 5px,{cb} 5px 10px);"
        "text-decoration:underline dashed #57606a;text-underline-offset:3px;"
    )


@dataclass(frozen=True, slots=True)
class ViewWindow:
    """Which chunks a view shows: ``chunks[first:last]`` and the characters they span."""

    first: int
    last: int
    start: int
    end: int
    total_chunks: int

    @property
    def partial(self) -> bool:
        return self.first > 0 or self.last < self.total_chunks


def view_window(
    chunks: Sequence[Chunk], *, first: int = 0, max_chunks: int = 80, max_chars: int = 60_000
) -> ViewWindow:
    """Chunks from `first` on, at most `max_chunks` of them and about `max_chars` characters.

    ``view_window(chunks, first=0, max_chunks=2)`` -> chunks 0-1. At least one chunk is shown.
    """
    if not chunks:
        return ViewWindow(0, 0, 0, 0, 0)
    first = max(0, min(first, len(chunks) - 1))
    last = first + 1
    while (
        last < len(chunks)
        and last - first < max_chunks
        and chunks[last].end - chunks[first].start <= max_chars
    ):
        last += 1
    return ViewWindow(first, last, chunks[first].start, chunks[last - 1].end, len(chunks))


def _tooltip(c: Chunk) -> str:
    parts = [f"chunk {c.index}", f"{c.tokens:,} tokens", f"chars {c.start:,}–{c.end:,}"]
    if c.overlap_chars:
        parts.append(
            f"overlap with chunk {c.index - 1}: {c.overlap_tokens:,} tokens, {c.overlap_chars:,} chars"
        )
    if c.section:
        parts.append(c.section)
    if c.note:
        parts.append(c.note)
    return " | ".join(parts)


def _chunk_class(index: int) -> str:
    return f"k{index % _PERIOD}"


def _view_css(colours: set[int], stripes: set[tuple[int, int]], over: bool) -> str:
    """One stylesheet for the view: a class per chunk colour and per overlap pair in use."""
    rules = [
        f".tw-chunks{{{_CONTAINER}}}",
        f".tw-chunks .b{{{_BADGE}}}",
        *(f".tw-chunks .k{k}{{background:{chunk_colour(k)}}}" for k in sorted(colours)),
        *(f".tw-chunks .o{a}-{b}{{{_stripes(a, b)}}}" for a, b in sorted(stripes)),
    ]
    if over:
        rules.append(f".tw-chunks .over{{{_OVER}}}")
    return "<style>" + "".join(rules) + "</style>"


def chunks_html(
    text: str,
    chunks: Sequence[Chunk],
    *,
    window: ViewWindow | None = None,
    show_whitespace: bool = False,
    limit: int | None = None,
    empty: str = "No chunks: the text is empty or only whitespace.",
) -> str:
    """A `<div>` showing ``text`` over the window's chunks, one coloured span per piece.

    Each chunk starts with a small badge holding its index. Characters shared by two chunks
    are striped in both colours; hovering any piece shows the chunk index, token count and
    offsets (and the overlap). A chunk above `limit` tokens gets a red outline. Colours are
    classes of one stylesheet in front of the view (only the classes in use), not per-span styles.
    """
    if not chunks:
        return f'<div style="{_CONTAINER}"><em>{html.escape(empty)}</em></div>'
    window = window or view_window(chunks)
    esc = html.escape
    shown = chunks[window.first : window.last]
    # elementary pieces between every chunk start and end in the window
    cuts = sorted({window.start, window.end, *(c.start for c in shown), *(c.end for c in shown)})
    starts = {c.start: c for c in shown}
    parts = ['<div class="tw-chunks">']
    colours: set[int] = set()
    stripes: set[tuple[int, int]] = set()
    over = False
    k = 0  # index into shown: the first chunk that may cover the current piece
    for a, b in zip(cuts, cuts[1:]):
        while k < len(shown) and shown[k].end <= a:
            k += 1
        covering = [c for c in shown[k : k + 3] if c.start <= a and b <= c.end]
        if a in starts:
            c0 = starts[a]
            parts.append(f'<span class="b" title="{esc(_tooltip(c0))}">{c0.index}</span>')
        piece = text[a:b]
        body = esc(visible_whitespace(piece) if show_whitespace else piece)
        if len(covering) >= 2:
            c1, c2 = covering[0], covering[1]
            pair = (c1.index % _PERIOD, c2.index % _PERIOD)
            stripes.add(pair)
            css = f"o{pair[0]}-{pair[1]}"
            title = (
                f"overlap of chunks {c1.index} and {c2.index}: {c2.overlap_tokens:,} tokens, "
                f"{c2.overlap_chars:,} chars ({c2.start:,}–{c1.end:,}) | {_tooltip(c2)}"
            )
        elif covering:
            c = covering[0]
            colours.add(c.index % _PERIOD)
            css = _chunk_class(c.index)
            if limit is not None and c.tokens > limit:
                css += " over"
                over = True
            title = _tooltip(c)
        else:
            parts.append(f"<span>{body}</span>")
            continue
        parts.append(f'<span class="{css}" title="{esc(title)}">{body}</span>')
    parts.append("</div>")
    return _view_css(colours, stripes, over) + "".join(parts)


def chunk_legend_html(*, overlap: bool, limit: int | None = None) -> str:
    """A one-line legend for the chunk view."""
    items = [
        (f'<span style="background:{chunk_colour(0)};padding:0 0.3rem">chunk</span>'
         f'<span style="background:{chunk_colour(1)};padding:0 0.3rem">next chunk</span>', "each chunk in its own colour"),
        (f'<span style="{_BADGE}">3</span>', "chunk index"),
    ]  # fmt: skip
    if overlap:
        items.append(
            (f'<span style="{_stripes(0, 1)}padding:0 0.3rem">shared</span>', "text in two chunks (overlap)")
        )
    if limit:
        items.append(
            (
                f'<span style="{_OVER}padding:0 0.3rem">chunk</span>',
                f"above the model limit of {limit:,} tokens",
            )
        )
    items.append(("hover", "index, tokens, offsets"))
    cells = "".join(f'<span style="margin-right:1.1rem">{k} {html.escape(v)}</span>' for k, v in items)
    return f'<div style="font-size:0.8rem;color:#57606a;line-height:2">{cells}</div>'
