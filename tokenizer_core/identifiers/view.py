"""HTML for the identifier page: code with names coloured by cost, coloured token splits.

Pure functions; every piece of code, name and token text is escaped with `html.escape`, so
``<img src=x onerror=alert(1)>`` in the code shows as text. Output is self-contained (inline
styles, no scripts) for `st.html`.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

from ..tokenizers.render import token_class, token_css, token_hue, visible_whitespace
from ..tokenizers.segments import Segment
from .analysis import IdentifierRow
from .extract import CODE, Occurrence
from .lexer import COMMENT, STRING, LexResult, line_starts

# token count -> background (1 token is cheap, 5+ expensive)
COST_COLOURS: tuple[tuple[int, str, str], ...] = (
    (1, "#d3f9d8", "1 token"),
    (2, "#fff3bf", "2 tokens"),
    (3, "#ffd8a8", "3 tokens"),
    (4, "#ffa8a8", "4 tokens"),
    (5, "#f783ac", "5 or more"),
)
MAX_VIEW_LINES = 400
MAX_VIEW_CHARS = 60_000
MAX_VIEW_MARKS = 4_000  # coloured names per view; dense (minified) code stays light

_BOX = (
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:0.85rem;"
    "line-height:1.55;color:#1f2328;background:#ffffff;border:1px solid #d0d7de;border-radius:6px;"
    "padding:0.5rem 0;max-height:36rem;overflow:auto"
)
_LINE_NO = (
    "display:inline-block;width:3.6em;padding-right:0.8em;text-align:right;color:#8c959f;user-select:none"
)
_SPLITS_CSS = (
    ".tw-splits{overflow:auto;max-height:32rem;border:1px solid #d0d7de;border-radius:6px}"
    ".tw-splits table{border-collapse:collapse;font-size:0.85rem;width:100%}"
    ".tw-splits thead{position:sticky;top:0;background:#f6f8fa}"
    ".tw-splits th,.tw-splits td{padding:4px 10px;border-bottom:1px solid #eaeef2;vertical-align:top;"
    "text-align:left;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    # a split wraps between its tokens, never inside one (a token broken over two lines reads as
    # two tokens: "Starte|d"); a column as narrow as a phone's scrolls inside the box instead
    ".tw-splits td{white-space:normal;line-height:1.7}"
    ".tw-splits td span{display:inline-block;white-space:pre}"
    ".tw-splits th{font-family:inherit;white-space:nowrap}.tw-splits .cut{color:#cf222e}"
)
_MUTED = {COMMENT: "color:#6e7781;font-style:italic", STRING: "color:#0a3069"}


def cost_class(tokens: int) -> str:
    """CSS class of the code view for a cost: ``cost_class(7) -> 'tw-k5'``."""
    return f"tw-k{min(max(tokens, 1), len(COST_COLOURS))}"


def _code_css() -> str:
    rules = "".join(
        f".tw-code .tw-k{t}{{background:{c};border-radius:3px;box-shadow:inset 0 -1px 0 #0000001f}}"
        for t, c, _ in COST_COLOURS
    )
    rules += "".join(f".tw-code .tw-{k}{{{v}}}" for k, v in _MUTED.items())
    rules += f".tw-code .tw-ln{{{_LINE_NO}}}.tw-code .tw-l{{white-space:pre;padding:0 0.8rem 0 0}}"
    return f"<style>{rules}</style>"


def cost_colour(tokens: int) -> str:
    """Background for an identifier costing `tokens`: ``cost_colour(1) -> '#d3f9d8'``."""
    colour = COST_COLOURS[0][1]
    for threshold, c, _ in COST_COLOURS:
        if tokens >= threshold:
            colour = c
    return colour


def cost_legend_html() -> str:
    """Colour swatches for the code view."""
    cells = "".join(
        f'<span style="display:inline-block;margin-right:0.9rem"><span style="background:{c};'
        f'border:1px solid #d0d7de;border-radius:3px;padding:0 0.45rem;margin-right:0.3rem">&nbsp;</span>'
        f"{html.escape(label)}</span>"
        for _, c, label in COST_COLOURS
    )
    return f'<div style="font-size:0.8rem;color:#57606a;margin:0.2rem 0">{cells}</div>'


def code_view_window(code: str, first_line: int, *, max_lines: int = MAX_VIEW_LINES,
                     max_chars: int = MAX_VIEW_CHARS) -> tuple[int, int]:  # fmt: skip
    """The lines [first, last] (1-based, inclusive) the code view draws from `first_line`.

    At most `max_lines` lines and about `max_chars` characters (at least one line).
    ``code_view_window("a\\nb\\nc", 2, max_lines=1) -> (2, 2)``
    """
    starts = line_starts(code)
    total = len(starts)
    first = min(max(1, first_line), total)
    last = min(total, first + max(1, max_lines) - 1)
    begin = starts[first - 1]
    while last > first:
        end = starts[last] if last < total else len(code)
        if end - begin <= max_chars:
            break
        last = first + (last - first) // 2
    return first, last


def code_heatmap_html(
    code: str,
    occurrences: Sequence[Occurrence],
    occurrence_tokens: Sequence[int],
    *,
    alone: Mapping[str, int] | None = None,
    first_line: int = 1,
    last_line: int | None = None,
    lexed: LexResult | None = None,
    tokenizer_name: str = "",
    words: Mapping[str, Sequence[str]] | None = None,
    max_chars: int = MAX_VIEW_CHARS,
    max_marks: int = MAX_VIEW_MARKS,
) -> str:
    """The code from `first_line` to `last_line` with line numbers, identifiers coloured by cost.

    `occurrence_tokens[k]` is what `occurrences[k]` costs where it stands (tokens overlapping
    it; see costs.py), so the same name can differ between places. Only occurrences found in
    code are coloured. With `lexed`, comments are grey and strings blue. Hovering a name shows
    its cost there, alone (from `alone`) and its words. Use `code_view_window` to keep the
    window small on big files; at most `max_chars` characters are drawn even so (a minified
    file is one huge line) and at most `max_marks` names coloured; a last line says what was
    left out.
    """
    if not code:
        return f'<div style="{_BOX};padding:0.6rem"><em>Nothing to show: the code is empty.</em></div>'
    starts = line_starts(code)
    total = len(starts)
    first = min(max(1, first_line), total)
    last = total if last_line is None else min(max(first, last_line), total)
    begin = starts[first - 1]
    stop = starts[last] - 1 if last < total else len(code)  # without the newline ending `last`
    left_out = max(0, stop - begin - max(1, max_chars))
    stop -= left_out
    marks: list[tuple[int, int, str, str]] = []  # (start, end, css class, title)
    if lexed is not None:
        for x in lexed.lexemes:
            if x.kind in _MUTED and x.end > begin and x.start < stop:
                marks.append((x.start, x.end, f"tw-{x.kind}", ""))
    unit = f" ({tokenizer_name})" if tokenizer_name else ""
    coloured = 0
    for o, n in zip(occurrences, occurrence_tokens):
        if o.where != CODE or o.end <= begin or o.start >= stop:
            continue
        if coloured >= max_marks:
            break
        coloured += 1
        title = f"{o.name}: {n} token{'s' if n != 1 else ''} here{unit}"
        if alone and o.name in alone:
            title += f", {alone[o.name]} alone"
        if words and words.get(o.name):
            title += " · words: " + " | ".join(words[o.name])
        marks.append((o.start, o.end, cost_class(n), title))
    # identifiers inside a string (template literals, f-strings) must win over the string colour
    marks.sort(key=lambda m: (m[0], m[3] == ""))
    esc = html.escape
    out = [_code_css(), f'<div class="tw-code" style="{_BOX}">']
    line_no = first
    pos = begin

    def emit_text(a: int, b: int, css: str = "", title: str = "") -> None:
        nonlocal line_no
        chunk = code[a:b]
        pieces = chunk.split("\n")
        for k, piece in enumerate(pieces):
            if k:
                out.append("</div>")
                line_no += 1
                out.append(_line_open(line_no))
            if piece:
                body = esc(piece.replace("\t", "    "))
                if css:
                    t = f' title="{esc(title)}"' if title else ""
                    out.append(f'<span class="{css}"{t}>{body}</span>')
                else:
                    out.append(body)

    out.append(_line_open(line_no))
    for start, end, css, title in marks:
        start, end = max(start, begin), min(end, stop)
        if start < pos:  # nested inside an earlier mark (an identifier in a string): split it
            if title:
                continue
            start = pos
        if start >= end:
            continue
        emit_text(pos, start)
        emit_text(start, end, css, title)
        pos = end
    emit_text(pos, stop)
    out.append("</div>")
    notes = []
    if left_out:
        notes.append(f"… {left_out:,} more characters of these lines are not drawn.")
    if coloured >= max_marks:
        notes.append(f"Only the first {max_marks:,} names are coloured.")
    for note in notes:
        out.append(f'<div style="padding:0.3rem 0.8rem;color:#57606a;font-style:italic">{note}</div>')
    out.append("</div>")
    return "".join(out)


def _line_open(n: int) -> str:
    return f'<div class="tw-l"><span class="tw-ln">{n}</span>'


def pieces_html(
    segments: Sequence[Segment],
    *,
    show_whitespace: bool = True,
    max_pieces: int = 40,
    hues: set[int] | None = None,
) -> str:
    """Inline coloured spans for a few segments (one identifier's split).

    Colours come from the token ids (same as every other page) as classes; a segment without
    tokens is grey. After `max_pieces` segments the rest is summarised as "… +N". Without
    `hues` the result starts with its own small stylesheet; with a set, the hues used are added
    to it and the caller emits `token_css(hues)` once for many splits.
    """
    esc = html.escape
    own = hues is None
    used: set[int] = set() if hues is None else hues
    parts = []
    for seg in segments[:max_pieces]:
        text = visible_whitespace(seg.text) if show_whitespace else seg.text
        if seg.ids:
            used.add(token_hue(seg.ids[0]))
        ids = ", ".join(map(str, seg.ids)) or "no token"
        parts.append(f'<span class="{token_class(seg.ids)}" title="{esc(ids)}">{esc(text)}</span>')
    if len(segments) > max_pieces:
        parts.append(f'<span style="color:#57606a">… +{len(segments) - max_pieces:,}</span>')
    return (token_css(used) if own else "") + "".join(parts)


_NAME_BREAKS = re.compile(r"(?<=_)(?=[^_])|(?<=[a-z0-9])(?=[A-Z])")


def name_html(name: str) -> str:
    """An identifier, escaped, that a narrow column may break only between its words (after an
    underscore, before a capital after a small letter or digit), never inside one:
    ``name_html("quantity_onHand") -> "quantity_<wbr>on<wbr>Hand"``."""
    return "<wbr>".join(html.escape(part) for part in _NAME_BREAKS.split(name))


def split_table_html(
    rows: Sequence[IdentifierRow],
    tokenizer_ids: Sequence[str],
    tokenizer_names: Sequence[str],
    *,
    context: bool = False,
    max_rows: int = 60,
) -> str:
    """A table: each identifier with its coloured token split and count under each tokenizer.

    `context` shows the split at the first occurrence in the code (with the leading space or
    punctuation, shown as ⋅ for a space) instead of the name alone.
    """
    esc = html.escape
    head = "".join(f"<th>{esc(n)}</th>" for n in tokenizer_names)
    out = [f'<div class="tw-splits"><table><thead><tr><th>identifier</th>{head}</tr></thead><tbody>']
    index = {tid: k for k, tid in enumerate(tokenizer_ids)}
    hues: set[int] = set()
    cut = ' <span class="cut" title="a token boundary cuts a word">✂</span>'
    for r in rows[:max_rows]:
        tds = []
        for tid in tokenizer_ids:
            c = r.costs[index[tid]]
            segs = c.context if context else c.alone
            n = c.context_first if context else c.alone_tokens
            tds.append(f"<td>{pieces_html(segs, hues=hues)} <b>{n}</b>{'' if c.aligned else cut}</td>")
        out.append(f"<tr><td>{name_html(r.name)}</td>{''.join(tds)}</tr>")
    out.append("</tbody></table></div>")
    if not rows:
        return '<div class="tw-splits"><em>No identifiers match.</em></div>'
    return f"<style>{_SPLITS_CSS}</style>" + token_css(hues) + "".join(out)


def identifier_costs_html(row: IdentifierRow, tokenizer_names: Sequence[str]) -> str:
    """One identifier under every tokenizer: its coloured split alone and at its first use in the
    code, with the token counts, and whether the token boundaries fall between its words.

    One table row per tokenizer, in the order of `row.costs` (e.g. ``cl100k_base | calculate|_total 2
    | ⋅calculate|_total 2 | yes``). Labels are escaped; the splits share one stylesheet, emitted first.
    """
    # the splits wrap between tokens, never inside one (as in the split table); the table scrolls
    table = ["<style>.tw-costs td span{display:inline-block;white-space:pre}</style>",
             '<div class="tw-costs" style="overflow-x:auto"><table style="border-collapse:collapse;font-size:0.88rem">',
             "<tr><th style='text-align:left;padding:3px 10px'>tokenizer</th>"
             "<th style='text-align:left;padding:3px 10px'>alone</th>"
             "<th style='text-align:left;padding:3px 10px'>in the code (first use)</th>"
             "<th style='text-align:left;padding:3px 10px'>aligned with words</th></tr>"]  # fmt: skip
    hues: set[int] = set()
    for c, label in zip(row.costs, tokenizer_names):
        aligned = "yes" if c.aligned else f"no: {c.words_cut} word{'s' if c.words_cut != 1 else ''} cut"
        table.append(
            f"<tr><td style='padding:3px 10px'>{html.escape(label)}</td>"
            f"<td style='padding:3px 10px;font-family:monospace'>{pieces_html(c.alone, hues=hues)} <b>{c.alone_tokens}</b></td>"
            f"<td style='padding:3px 10px;font-family:monospace'>{pieces_html(c.context, hues=hues)} <b>{c.context_first}</b></td>"
            f"<td style='padding:3px 10px'>{aligned}</td></tr>"
        )
    table.append("</table></div>")
    return token_css(hues) + "".join(table)
