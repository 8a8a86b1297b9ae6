"""Token counter (home): exact counts from several tokenizers, side-by-side token views."""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from tokenizer_core import (
    BUILTINS,
    CONTEXT_WINDOWS,
    NO_PUBLIC_TOKENIZER,
    CountRow,
    Segment,
    Tokenizer,
    chat_formats_for,
    chat_template_text,
    count_chats,
    count_table,
    escape_markdown,
    legend_html,
    load_sample,
    read_share_params,
    rows_to_csv,
    segments_html,
    share_params,
    token_count,
    unshared_boundaries,
    view_windows,
)
from tokenizer_core.counter.charts import token_count_chart
from tokenizer_core.counter.share import MAX_SHARED_TEXT_BYTES
from ui.state import get_tokenizers, tokenizer_infos
from ui.widgets import show_unavailable, text_source, tokenizer_select

PART_CHARS = 12_000  # characters per page of the coloured view
MAX_SPANS = 6_000  # segments drawn per tokenizer and page
VIEW_LABELS = {"text": "Text", "ids": "Token IDs", "hide": "Hide"}
CUSTOM = "Custom..."
SAMPLES = {
    "Mixed: prose, code, numbers, emoji, Hindi": lambda: load_sample("mixed"),
    "Support reply (English prose)": lambda: load_sample("prose"),
    "Python code": lambda: load_sample("python"),
    "JSON order": lambda: load_sample("json"),
}


@st.cache_data(max_entries=64, ttl=3600, show_spinner="Counting...")
def cached_counts(
    text: str, ids: tuple[str, ...], window: int, allow_special: bool, _toks: list[Tokenizer]
) -> list[CountRow]:
    return count_table(text, _toks, context_window=window, allow_special=allow_special)


@st.cache_data(max_entries=24, ttl=300, show_spinner=False)  # a view page: up to ~1 MB each
def cached_segments(
    tokenizer_id: str, text: str, start: int, end: int, allow_special: bool, _tok: Tokenizer
) -> list[Segment]:
    segs = _tok.segments(text[start:end], allow_special=allow_special)
    if start == 0:
        return segs
    return [Segment(s.start + start, s.end + start, s.ids, s.text, s.data, s.special) for s in segs]


def apply_share_link() -> None:
    """On a session's first run, take settings and text from the URL's query parameters."""
    if st.session_state.get("counter_link_read"):
        return
    st.session_state["counter_link_read"] = True
    if not st.query_params:
        return
    state = read_share_params(st.query_params.to_dict(), known_tokenizers=list(BUILTINS))
    if state.text is not None:
        st.session_state["counter_text"] = state.text
    if state.tokenizers:
        st.session_state["counter_tokenizers"] = state.tokenizers
    if state.view:
        st.session_state["counter_view"] = state.view
    if state.whitespace is not None:
        st.session_state["counter_ws"] = state.whitespace
    if state.allow_special is not None:
        st.session_state["counter_special"] = state.allow_special
    if state.chat is not None:
        st.session_state["counter_chat"] = state.chat
    if state.system is not None:
        st.session_state["counter_system"] = state.system
    if state.context_window:
        match = [k for k, v in CONTEXT_WINDOWS.items() if v == state.context_window]
        st.session_state["counter_ctx"] = match[0] if match else CUSTOM
        st.session_state["counter_ctx_custom"] = state.context_window
    st.session_state["counter_link_warnings"] = state.warnings


def context_window_input() -> int:
    # Defaults go through session state (a share link may have set it), never also as a
    # widget default: Streamlit warns when both are given.
    st.session_state.setdefault("counter_ctx", list(CONTEXT_WINDOWS)[2])
    choice = st.selectbox(
        "Context window", [*CONTEXT_WINDOWS, CUSTOM], key="counter_ctx",
        help="The last column of the table is the share of this window the text fills.",
    )  # fmt: skip
    if choice == CUSTOM:
        st.session_state.setdefault("counter_ctx_custom", 128_000)
        return int(st.number_input(
            "Tokens in the window", min_value=1, max_value=100_000_000, step=1_000, key="counter_ctx_custom",
        ))  # fmt: skip
    return CONTEXT_WINDOWS[choice]


def counts_section(rows: list[CountRow], toks: list[Tokenizer]) -> None:
    cols = st.columns(min(len(rows), 4))
    for i, (row, tok) in enumerate(zip(rows, toks)):
        with cols[i % len(cols)]:
            cpt = f"{row.chars_per_token:.2f} chars/token" if row.chars_per_token else "no tokens"
            st.metric(
                escape_markdown(row.tokenizer), f"{row.tokens:,}",
                help=f"{cpt}; {row.context_pct:.2f}% of the context window",
            )  # fmt: skip
            st.caption(escape_markdown(", ".join(tok.info.models) or tok.info.family))
    df = pd.DataFrame([_row_dict(r) for r in rows])
    st.dataframe(
        df.drop(columns=["tokenizer_id", "context_window"]),
        hide_index=True,
        column_config={
            "tokenizer": "Tokenizer",
            "tokens": st.column_config.NumberColumn("Tokens", format="localized"),
            "characters": st.column_config.NumberColumn("Characters", format="localized"),
            "words": st.column_config.NumberColumn("Words", format="localized"),
            "utf8_bytes": st.column_config.NumberColumn("UTF-8 bytes", format="localized"),
            "chars_per_token": st.column_config.NumberColumn("Chars / token", format="%.2f"),
            "context_pct": st.column_config.ProgressColumn(
                "% of context", format="%.2f%%", min_value=0, max_value=100
            ),
        },
    )
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    c1.altair_chart(token_count_chart(rows), width="stretch")
    c2.download_button(
        "Download counts (CSV)", rows_to_csv(rows), file_name="token_counts.csv", mime="text/csv",
        icon=":material/download:", key="counter_csv",
    )  # fmt: skip


@st.cache_data(max_entries=64, ttl=3600, show_spinner="Counting the chat request...")
def cached_chat_rows(text: str, system: str, ids: tuple[str, ...], _toks: list[Tokenizer]) -> list[dict]:
    rows = []
    for tok in _toks:
        for c in count_chats(tok, text, system):
            fmt = c.format
            rows.append({
                "tokenizer": tok.info.name, "format": fmt.name, "models": fmt.models,
                "content": c.content_tokens, "overhead": c.overhead, "total": c.total,
                "template": chat_template_text(c.parts), "source": fmt.source, "format_id": fmt.id,
            })  # fmt: skip
    return rows


def chat_section(text: str, toks: list[Tokenizer], window: int) -> None:
    """What a chat API adds around the text: each tokenizer's chat format(s), counted."""
    st.subheader("As a chat request")
    system = st.text_area(
        "System message (optional)", key="counter_system", height=68,
        placeholder="e.g. You are a helpful support assistant.",
        help="Sent before your text as the request's system message. Your text is the user message.",
    ) or ""  # fmt: skip
    rows = cached_chat_rows(text, system, tuple(t.id for t in toks), toks)
    rows = [{**r, "context_pct": 100 * r["total"] / window} for r in rows]
    without = [t.info.name for t in toks if not chat_formats_for(t.id)]
    if rows:
        st.dataframe(
            pd.DataFrame(rows).drop(columns=["models", "template", "source", "format_id"]), hide_index=True,
            column_config={
                "tokenizer": "Tokenizer", "format": "Chat format",
                "content": st.column_config.NumberColumn("Messages' text", format="localized",
                                                         help="Tokens of your text (and system message) alone"),
                "overhead": st.column_config.NumberColumn("Format adds", format="localized"),
                "total": st.column_config.NumberColumn("Request tokens", format="localized",
                                                       help="What the model reads: the prompt tokens an API reports"),
                "context_pct": st.column_config.ProgressColumn(
                    "% of context", format="%.2f%%", min_value=0, max_value=100,
                    help="The whole request's share of the context window chosen above",
                ),
            },
            key="counter_chat_table",
        )  # fmt: skip
        st.caption(
            "Your text is one user message; the request ends where the model's reply starts. "
            "Message text always counts as ordinary text here, as a chat API treats it (DeepSeek V4's "
            "tokenizer still reads its chat markers, such as `<think>`, as one token wherever they appear). "
            "Tools, images and names add more."
        )
        with st.expander("What each format adds", icon=":material/data_object:"):
            for fid in dict.fromkeys(r["format_id"] for r in rows):
                same = [r for r in rows if r["format_id"] == fid]
                row = same[0]
                adds = ", ".join(f"{escape_markdown(r['tokenizer'])} {r['overhead']:+,} tokens" for r in same)
                st.markdown(
                    f"**{escape_markdown(row['format'])}** ({escape_markdown(row['models'])}) · {adds}"
                )
                if row["template"]:
                    st.code(row["template"], language=None, wrap_lines=True)
                else:
                    st.code(
                        "each message: 3 tokens + the role's tokens + its text's tokens\n"
                        "the reply:    3 tokens (<|start|>assistant<|message|>)", language=None,
                    )  # fmt: skip
                st.caption(f"Source: {escape_markdown(row['source'])}.")
    if without:
        st.caption(
            f"No chat format known for {escape_markdown(', '.join(without))}: "
            "completion-only encodings, or your own tokenizers."
        )


def _row_dict(row: CountRow) -> dict:
    return {f: getattr(row, f) for f in CountRow.__dataclass_fields__}


def token_views(text: str, toks: list[Tokenizer], allow_special: bool) -> None:
    st.subheader("How each tokenizer cuts the text")
    c1, c2, c3 = st.columns([2, 1, 1], vertical_alignment="bottom")
    with c1:
        st.session_state.setdefault("counter_view", "text")
        mode = st.segmented_control(
            "View", list(VIEW_LABELS), format_func=VIEW_LABELS.get, key="counter_view",
        ) or "text"  # fmt: skip
    ws = c2.toggle("Show whitespace", key="counter_ws", help="space ⋅, tab →, newline ↵")
    diff = c3.toggle(
        "Mark differences", key="counter_diff", value=True, disabled=len(toks) < 2,
        help="A red bar marks a token boundary that not every tokenizer shown has.",
    )  # fmt: skip
    if mode == "hide":
        st.caption("Coloured view hidden. The counts above cover the whole text.")
        return
    windows = view_windows(text, PART_CHARS)
    part = 0
    if len(windows) > 1:
        part = int(st.number_input(
            f"Part (the text is shown in {len(windows)} parts of about {PART_CHARS:,} characters)",
            min_value=1, max_value=len(windows), value=1, step=1, key="counter_part",
        )) - 1  # fmt: skip
        part = min(part, len(windows) - 1)
    start, end, exact = windows[part]
    seg_lists = [cached_segments(t.id, text, start, end, allow_special, t) for t in toks]
    marked = unshared_boundaries(*seg_lists) if diff and len(toks) > 1 else [frozenset()] * len(toks)
    if len(windows) > 1:
        note = "" if exact else " Near the start of this part a token may differ from the whole-text count."
        st.caption(f"Characters {start:,}–{end:,} of {len(text):,}.{note}")
    legend = [("hover", "token ids, bytes and offsets")]
    if diff and len(toks) > 1:
        legend.append(("red bar", "boundary not shared by every tokenizer shown"))
    if allow_special:
        legend.append(("dashed outline", "special token"))
    st.html(legend_html(legend))
    per_row = 2 if len(toks) > 1 else 1
    for row_start in range(0, len(toks), per_row):
        cols = st.columns(per_row)
        for col, tok, segs, mk in zip(cols, toks[row_start:], seg_lists[row_start:], marked[row_start:]):
            with col:
                shown = segs[:MAX_SPANS]
                st.markdown(
                    f"**{escape_markdown(tok.info.name)}** · {token_count(segs):,} tokens in this part"
                )
                if len(shown) < len(segs):
                    st.caption(f"Drawing the first {len(shown):,} of {len(segs):,} pieces of this part.")
                st.html(segments_html(shown, mode=mode, show_whitespace=ws, marked=mk))


def share_section(ids: list[str], text: str, window: int) -> None:
    params = share_params(
        tokenizers=[i for i in ids if i in BUILTINS], text=text,
        view=st.session_state.get("counter_view") or "text", context_window=window,
        whitespace=bool(st.session_state.get("counter_ws")),
        allow_special=bool(st.session_state.get("counter_special")),
        chat=bool(st.session_state.get("counter_chat")), system=st.session_state.get("counter_system") or "",
    )  # fmt: skip
    try:
        st.query_params.from_dict(params)
    except Exception:  # noqa: BLE001  (an unusual host must not break the page)
        pass
    with st.expander("Share this view", icon=":material/link:"):
        base = (st.context.url or "").split("?")[0]
        st.code(f"{base}?{urlencode(params)}", language=None, wrap_lines=True)
        notes = ["The address bar always holds this link: copy either."]
        if "z" not in params and text:
            notes.append(
                f"The text is longer than {MAX_SHARED_TEXT_BYTES:,} bytes, so the link carries the "
                "settings only."
            )
        if any(i not in BUILTINS for i in ids):
            notes.append("Your own tokenizers are private to this session and are not in the link.")
        st.caption(" ".join(notes))


def about_tokenizers() -> None:
    with st.expander("About these tokenizers", icon=":material/info:"):
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "Tokenizer": i.name, "Family": i.family, "Used by": ", ".join(i.models),
                        "Vocabulary": i.vocab_size, "Data source": i.source, "License": i.license,
                        "Notes": i.notes,
                    }
                    for i in tokenizer_infos()
                ]
            ),
            hide_index=True,
        )  # fmt: skip
        st.caption(
            "Counts are of the text alone. A chat API adds tokens per message for roles and "
            'separators: switch on "Count as a chat request" to see how many, per model family.'
        )
        st.caption(
            "Not here, on purpose: "
            + " ".join(escape_markdown(f"{name}: {why}") for name, why in NO_PUBLIC_TOKENIZER.items())
            + " Any number shown for them would be a guess."
        )


apply_share_link()
st.title("Token counter")
st.caption(
    "Exact token counts from the tokenizers models really use, side by side. "
    "Nothing is sent anywhere: every tokenizer runs on this server, offline."
)
for warning in st.session_state.pop("counter_link_warnings", []):
    st.warning(f"Shared link: {escape_markdown(warning)}", icon=":material/link_off:")

text = text_source("counter", samples=SAMPLES, default_sample=next(iter(SAMPLES)), height=240, live=True)
s1, s2 = st.columns([3, 2], vertical_alignment="bottom")
with s1:
    ids = tokenizer_select("counter_tokenizers")
with s2:
    window = context_window_input()
with st.container(horizontal=True, gap="medium"):
    allow_special = st.toggle(
        "Count special tokens as special", key="counter_special",
        help="Off: text such as <|endoftext|> is counted as ordinary text (what an API does with "
        "user content). On: it becomes the single special token the tokenizer reserves for it.",
    )  # fmt: skip
    chat = st.toggle(
        "Count as a chat request", key="counter_chat",
        help="Add the tokens a chat API wraps around your text: role headers, separators and "
        "the start of the reply, in each model family's own chat format.",
    )  # fmt: skip

toks, errors = get_tokenizers(ids)
show_unavailable(errors)
if not ids:
    st.info("Choose at least one tokenizer above.", icon=":material/arrow_upward:")
elif not text:
    st.info("Paste some text, upload a file or load a sample to see its tokens.", icon=":material/edit:")
elif toks:
    rows = cached_counts(text, tuple(t.id for t in toks), window, allow_special, toks)
    counts_section(rows, toks)
    if chat:
        chat_section(text, toks, window)
    token_views(text, toks, allow_special)
share_section(ids, text, window)
about_tokenizers()
