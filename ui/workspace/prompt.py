"""The prompt: a text or a chat request (the mode), its editor, and what each chosen model counts
in it."""

from __future__ import annotations

import streamlit as st

from tokenizer_core import Tokenizer
from tokenizer_core.catalog.choices import Choice, TokenizerGroup, names_by_tokenizer
from tokenizer_core.tokenizers import load_sample
from tokenizer_core.workspace.chat import Message
from tokenizer_core.workspace.counting import with_windows
from tokenizer_core.workspace.versions import PromptVersion

from ..counting import counts as counts_of
from ..widgets import text_entry, text_source_controls, working_tokenizers
from .chat_editor import chat_editor, current_images, current_messages, current_tools
from .chat_view import image_counts, image_lines, message_labels, request_counts, request_section
from .counts import count_cards, live_count_spec
from .state import WorkspaceState

SAMPLES = {
    "Mixed: prose, code, numbers, emoji, Hindi": lambda: load_sample("mixed"),
    "Support reply (English prose)": lambda: load_sample("prose"),
    "Python code": lambda: load_sample("python"),
    "JSON order": lambda: load_sample("json"),
}
PROMPT_MODES = {"text": "Text", "chat": "Chat request"}


def prompt_mode() -> str:
    """ "text" or "chat", the user's choice."""
    st.session_state.setdefault("workspace_mode", "text")
    return st.segmented_control(
        "Prompt", list(PROMPT_MODES), format_func=PROMPT_MODES.get, key="workspace_mode", persist_state="session",
        help="Text: count a text alone. Chat request: messages with roles (and tools), counted the way each "
        "model's chat format wraps them.",
    ) or "text"  # fmt: skip


def text_controls() -> None:
    """Upload a file or load a sample, above the text box."""
    text_source_controls("workspace", samples=SAMPLES, default_sample=next(iter(SAMPLES)))


def text_box(toks: list[Tokenizer], window: int) -> tuple[str, bool]:
    """The text (typed, uploaded or a sample), and whether text such as <|endoftext|> counts as
    the special token (`special_toggle`). While the user types, the box asks the server for the
    counts of `toks` and shows them on the count cards before the rerun draws them."""
    allow_special = bool(st.session_state.get("workspace_special"))
    spec = live_count_spec(toks, window, allow_special=allow_special)
    return text_entry("workspace", height=240, live=True, live_counts=spec), allow_special


def special_toggle() -> None:
    """Whether text such as <|endoftext|> counts as the special token. Under the counts and
    outside their fragment: a keystroke's run does not draw it again, and flipping it reruns
    the workspace (counts, views and costs all change)."""
    st.toggle(
        "Count special tokens as special", key="workspace_special", persist_state="session",
        help="Off: text such as <|endoftext|> is counted as ordinary text (what an API does with "
        "user content). On: it becomes the single special token the tokenizer reserves for it.",
    )  # fmt: skip


def text_prompt(
    choices: list[Choice], groups: list[TokenizerGroup], toks: list[Tokenizer], window: int
) -> WorkspaceState:
    """The text box and a count per tokenizer (or what to do first): the page's state."""
    text, allow_special = text_box(toks, window)
    counts = None
    if not choices:
        st.info("Choose at least one model or tokenizer above.", icon=":material/arrow_upward:")
    elif not text:
        st.info("Paste some text, upload a file or load a sample to see its tokens.", icon=":material/edit:")
    elif (toks := working_tokenizers(toks, [text])) and (
        rows := counts_of(text, toks, special=allow_special, window=window)
    ) is not None:
        counts = with_windows(rows, groups, chosen=window)
        count_cards(counts, toks, groups)
    by_tok = {r.tokenizer_id: r.tokens for r in counts or ()}
    tokens = {c.id: by_tok[c.tokenizer_id] for c in choices if c.tokenizer_id in by_tok}
    return WorkspaceState("text", text, allow_special, toks, counts, tokens=tokens)


def chat_prompt(
    choices: list[Choice], toks: list[Tokenizer], by_id: dict[str, Tokenizer], window: int
) -> WorkspaceState:
    """The chat editor (a count by each message) and the whole request per model, counted once:
    the page's state. The editor's widgets hold what they show, so the request counted before
    they are drawn is the one they show."""
    messages = current_messages("workspace_chat")
    tools, _ = current_tools("workspace_chat")
    rows = request_counts(messages, tools, choices, by_id)
    chat_editor(
        "workspace_chat", message_tokens=message_labels(rows, len(messages), names_by_tokenizer(choices))
    )
    totals = {(r.tokenizer_id, r.format_id): r.counted.total for r in rows if r.counted is not None}
    errors = {(r.tokenizer_id, r.format_id): r.error for r in rows if r.error is not None}
    pair = {c.id: (c.tokenizer_id, c.chat_format) for c in choices}
    text_tokens = {c: totals[p] for c, p in pair.items() if p in totals}
    # each model's images by its maker's rule (the editor may have just attached or removed one)
    per_image = image_counts(current_images("workspace_chat"), choices)
    if choices and by_id:
        request_section(
            rows, messages, tools, window, by_id, images=image_lines(per_image, choices, text_tokens)
        )
    text = st.session_state.get("workspace_text", "")  # kept in the link and the file
    return WorkspaceState(
        "chat", text, toks=toks, messages=messages,
        tokens={c: n + (per_image[c].tokens or 0 if c in per_image else 0) for c, n in text_tokens.items()},
        not_counted={c: errors[p] for c, p in pair.items() if p in errors},
        image_tokens={c: r.tokens for c, r in per_image.items()},
    )  # fmt: skip


def prompt_now() -> PromptVersion:
    """The prompt as it stands now, for a button's callback: the text typed since the page's
    sections were last drawn included (typing redraws them only after a pause)."""
    mode = st.session_state.get("workspace_mode", "text")
    messages = current_messages("workspace_chat") if mode == "chat" else []
    return prompt_version(mode, st.session_state.get("workspace_text", ""), messages)


def prompt_version(mode: str, text: str, messages: list[Message]) -> PromptVersion:
    """The prompt on the page as a version: the text, or the chat and its tools."""
    tools = st.session_state.get("workspace_chat_tools", "") or ""
    pairs = tuple((m.role, m.content) for m in messages)
    return PromptVersion(
        "current", mode, text if mode == "text" else "", pairs, tools if mode == "chat" else ""
    )
