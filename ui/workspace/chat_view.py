"""The whole chat request, per chosen model: counts per message and in total, and the request
drawn as tokens with what the chat format adds marked apart from the messages' text."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.catalog.choices import Choice
from tokenizer_core.catalog.windows import model_window
from tokenizer_core.tokenizers import TokenPane, escape_markdown, legend_html, token_count
from tokenizer_core.workspace.chat import (
    CHAT_FORMATS,
    ChatRenderError,
    Message,
    chat_formats_for,
    count_request,
    request_segments,
)
from tokenizer_core.workspace.formats import ChatPart
from tokenizer_core.workspace.images import ChatImage, RequestImages, request_image_tokens

from ..token_view import token_view

MAX_PIECES = 6_000  # pieces of the request drawn (the counts above cover all of it)
HOW = {  # short, for the table; HOW_NOTE says what each means
    True: "published template",
    False: "OpenAI's counting rule",
}
HOW_NOTE = (
    "Counted by: *published template* = the model's own chat template, rendered and tokenized; "
    "*OpenAI's counting rule* = OpenAI publishes no template, so the request is counted by its "
    "documented rule (tokens per message and per reply)."
)


IMAGES_HELP = (
    "OpenAI: 512 px tiles or 32 px patches by the model's row of its vision guide; Gemini: its tile or media "
    "resolution rule; Mistral: its own image encoder; any other model: not counted, and the line says why."
)


def request_pairs(choices: list[Choice]) -> list[tuple[str, str, list[str], int | None]]:
    """(tokenizer id, chat format id, names, smallest context window) to count, each once."""
    pairs: dict[tuple[str, str], tuple[list[str], list[int]]] = {}
    for c in choices:
        if c.tokenizer_id is None:
            continue
        fids = [c.chat_format] if c.model else [f.id for f in chat_formats_for(c.tokenizer_id)]
        for fid in filter(None, fids):
            names, windows = pairs.setdefault((c.tokenizer_id, fid), ([], []))
            names.append(c.name)
            if w := model_window(c.model):
                windows.append(w)
    return [(t, f, names, min(w) if w else None) for (t, f), (names, w) in pairs.items()]


@dataclass(frozen=True)
class RequestTally:
    """A whole request counted in one format (`count_request`'s figures, kept for every session)."""

    total: int
    messages: tuple[int, ...]
    tools: int
    tools_counted: bool
    template: int  # tokens the format adds around the messages
    parts: tuple[ChatPart, ...]


@dataclass(frozen=True)
class RequestRow:
    """The request for one (tokenizer, chat format) of the chosen models: counted, or why not."""

    tokenizer_id: str
    format_id: str
    names: list[str]  # the chosen models it counts for
    window: int | None  # their smallest context window, if known
    counted: RequestTally | None
    error: str | None = None  # the format cannot render this request


@st.cache_data(max_entries=64, ttl=3600, show_spinner="Counting the chat request...")
def cached_request(
    tokenizer_id: str,
    format_id: str,
    messages: tuple[tuple[str, str], ...],
    tools_key: str,
    _tok: Tokenizer,
    _tools: list[dict],
) -> RequestTally | str:
    """The request's tally, or why its format cannot render it."""
    msgs = [Message(r, c) for r, c in messages]
    try:
        rc = count_request(msgs, _tok, CHAT_FORMATS[format_id], tools=_tools)
    except ChatRenderError as exc:
        return str(exc)
    return RequestTally(
        rc.total,
        tuple(rc.message_tokens),
        rc.tools_tokens,
        rc.tools_counted,
        rc.template_tokens,
        tuple(rc.parts),
    )


def request_counts(
    messages: list[Message], tools: list[dict], choices: list[Choice], toks: dict[str, Tokenizer]
) -> list[RequestRow]:
    """One row per (tokenizer, format) of the chosen models, counted once each."""
    key = tuple((m.role, m.content) for m in messages)
    tools_key = repr(tools)
    rows = []
    for tid, fid, names, window in request_pairs(choices):
        if tid not in toks:
            continue
        r = cached_request(tid, fid, key, tools_key, toks[tid], tools)
        counted, error = (None, r) if isinstance(r, str) else (r, None)
        rows.append(RequestRow(tid, fid, names, window, counted, error))
    return rows


def message_labels(rows: list[RequestRow], n_messages: int, names: dict[str, str]) -> dict[int, str]:
    """A short count by each message in the editor: its own tokens under each tokenizer, every
    number with the models (or the tokenizer) it counts for, on every message:
    ``{0: "GPT-4o, GPT-5: 12 · Llama 3.1 8B: 14 tokens", 1: ...}``."""
    seen: dict[str, tuple[int, ...]] = {}
    for r in rows:
        if r.counted is not None and r.tokenizer_id not in seen:
            seen[r.tokenizer_id] = r.counted.messages
    return {
        i: " · ".join(f"{escape_markdown(names.get(t, t))}: {v[i]:,}" for t, v in seen.items()) + " tokens"
        for i in range(n_messages)
        if seen
    }


def image_counts(images: list[ChatImage], choices: list[Choice]) -> dict[str, RequestImages]:
    """What the chat's images add for each chosen model, by choice id ({} without images)."""
    if not images:
        return {}
    return {c.id: request_image_tokens(images, c.model.id if c.model else None) for c in choices}


def image_lines(
    per_choice: dict[str, RequestImages], choices: list[Choice], text_tokens: dict[str, int]
) -> list[str]:
    """A line per chosen model: its request's tokens with the images, of which images (the rule in
    words), or why its images are not counted. Markdown, every name and note escaped."""
    lines = []
    for c in choices:
        r = per_choice.get(c.id)
        if r is None:
            continue
        name = f"**{escape_markdown(c.name)}**"
        if r.tokens is None:
            lines.append(f"{name}: the images are not counted. {escape_markdown(r.note)}")
            continue
        how = f"{r.tokens:,} tokens ({escape_markdown(r.how)})" + (
            f". {escape_markdown(r.note)}" if r.note else ""
        )
        if c.id in text_tokens:
            lines.append(
                f"{name}: {text_tokens[c.id] + r.tokens:,} tokens with its images, of which images: {how}"
            )
        else:
            lines.append(f"{name}: of which images: {how}")
    return lines


def _image_list(lines: list[str]) -> None:
    if lines:
        st.markdown("**With the images**", help=IMAGES_HELP)
        st.markdown("\n".join(f"- {line}" for line in lines))
        st.caption("The table's request tokens are the messages' text and format; an image's tokens depend on "
                   "the model, by its maker's rule. The cost table below includes them.")  # fmt: skip


def request_section(
    rows: list[RequestRow],
    messages: list[Message],
    tools: list[dict],
    window: int,
    toks: dict[str, Tokenizer],
    *,
    images: list[str] = (),  # type: ignore[assignment]
) -> None:
    """The request per model: a table, what its images add (`images`: `image_lines`), and the
    request drawn as tokens."""
    st.subheader("The whole request, per model")
    if not rows:
        st.info("None of the chosen models or tokenizers has a known chat format: pick a chat model above.")
        _image_list(images)
        return
    # a request a format cannot render says why in a sentence, not as a row of empty cells
    for r in rows:
        if r.error is not None:
            st.warning(f"**{escape_markdown(', '.join(r.names))}** ({escape_markdown(CHAT_FORMATS[r.format_id].name)}): "
                       f"the request is not counted: {escape_markdown(r.error)}.", icon=":material/info:")  # fmt: skip
    table = []
    for r in rows:
        fmt, c = CHAT_FORMATS[r.format_id], r.counted
        if c is None:
            continue
        row: dict = {"Models": ", ".join(r.names), "Chat format": fmt.name}
        for i, (m, n) in enumerate(zip(messages, c.messages)):
            row[f"#{i + 1} {m.role}"] = n
        ctx = r.window or window
        if (
            tools
        ):  # a column of zeros without tools; as text, so a format that says nothing on tools shows why
            row["Tools"] = f"{c.tools:,}" if c.tools_counted else "not counted"
        row |= {
            "Format adds": c.template,
            "Request tokens": c.total, "Context window": ctx, "% of context": 100 * c.total / ctx,
            "Counted by": (fmt.counted_by or HOW[fmt.rendered])
            + ("" if c.tools_counted or not tools else "; tools not counted"),
        }  # fmt: skip
        table.append(row)
    if not table:
        _image_list(images)
        return
    st.dataframe(
        pd.DataFrame(table), hide_index=True, key="workspace_request_table",
        column_config={
            "Request tokens": st.column_config.NumberColumn(format="localized",
                                                            help="What the model reads, to the start of its reply"),
            "Tools": st.column_config.TextColumn(alignment="right", width="small",
                                                 help="Not counted: this format does not say how tools enter the prompt"),
            "Format adds": st.column_config.NumberColumn(width="small", help="Tokens the chat format adds "
                                                         "around the messages (roles, separators, the reply's start)"),
            "Context window": st.column_config.NumberColumn(
                format="localized", help="The smallest context window of the models in the row; the window "
                "chosen above where none is known",
            ),
            "% of context": st.column_config.ProgressColumn(format="%.2f%%", min_value=0, max_value=100, width="small",
                                                            help="Of the window in the Context window column"),
            # widths that fit a desktop page with two messages (more messages, more columns: it scrolls),
            # with room for text drawn a little wider than this machine's Chromium draws it
            "Chat format": st.column_config.TextColumn(width=160),
            "Counted by": st.column_config.TextColumn(width=150, help=HOW_NOTE),
        },
    )  # fmt: skip
    st.caption(HOW_NOTE)
    _image_list(images)
    if tools and any(r.counted is not None and not r.counted.tools_counted for r in rows):
        st.caption(
            "Tools are counted where a family publishes how they enter the prompt (Llama 3.1, Qwen, Mistral); "
            "for OpenAI models by the Cookbook's estimate; elsewhere they are not counted."
        )
    if any(r.format_id.startswith("deepseek") for r in rows):
        st.caption("Message text counts as ordinary text, as a chat API treats it; DeepSeek V4's tokenizer "
                   "still reads its chat markers (such as `<think>`) as one token wherever they appear.")  # fmt: skip
    drawable = [r for r in rows if r.counted is not None and r.counted.parts]
    if not drawable:
        st.caption("These requests are counted by a rule (OpenAI's documented one, or Google's for Gemini: "
                   "each text on its own), not a rendered template, so they cannot be drawn token by token.")  # fmt: skip
        return
    labels = {i: f"{', '.join(r.names)} · {CHAT_FORMATS[r.format_id].name}" for i, r in enumerate(drawable)}
    pick = st.selectbox("Show the request as tokens for", list(labels), format_func=labels.get,
                        key="workspace_request_pick", persist_state="session")  # fmt: skip
    r = drawable[min(pick or 0, len(drawable) - 1)]
    tid, fid, parts = r.tokenizer_id, r.format_id, r.counted.parts if r.counted else ()
    segs = request_segments(toks[tid], list(parts))
    shown = segs[:MAX_PIECES]
    text = "".join(p.text for p in parts)[: shown[-1].end if shown else 0]
    # the text view's own setting (same key): it follows from one mode to the other and into the link
    ws = st.toggle(
        "Show whitespace", key="workspace_ws", persist_state="session", help="space ⋅, tab →, newline ↵"
    )
    st.html(legend_html([("dashed outline", "added by the chat format (special tokens and template text)"),
                         ("hover", "token ids, bytes and offsets")]))  # fmt: skip
    n = token_count(segs)
    caption = f"Drawing the first {len(shown):,} of {len(segs):,} pieces." if len(shown) < len(segs) else ""
    pane = TokenPane(CHAT_FORMATS[fid].name, shown, note=f"{n:,} tokens", caption=caption)
    token_view(text, [pane], key=f"workspace_request_view_{tid}_{fid}", show_whitespace=ws,
               special_label="added by the chat format")  # fmt: skip
    st.caption(f"Source: {escape_markdown(CHAT_FORMATS[fid].source)}.")
